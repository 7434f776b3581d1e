#include "engine/exec/runner.h"

namespace lb {

std::string ProcessResult::exitSummary() const {
    std::string why;
    if (termSignal)
        why = "killed by signal " + std::to_string(*termSignal) +
              (*termSignal == 9 ? " (SIGKILL: the kernel's OOM killer, or a stop that escalated)"
                                : "");
    else
        why = "exit status " + std::to_string(exitCode);
    std::string err = stderrText;
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r' || err.back() == ' '))
        err.pop_back();
    if (const auto nl = err.rfind('\n'); nl != std::string::npos)
        err = err.substr(nl + 1);
    if (!err.empty())
        why += ": " + err;
    return why;
}

} // namespace lb
