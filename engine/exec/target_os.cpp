#include "engine/exec/target_os.h"

#include "engine/exec/runner.h"

#include <chrono>
#include <string>

namespace lb {

std::optional<TargetOs> osFromUname(std::string_view unameS) {
    while (!unameS.empty() &&
           (unameS.back() == '\n' || unameS.back() == '\r' || unameS.back() == ' '))
        unameS.remove_suffix(1);
    if (unameS == "Linux")
        return TargetOs::Linux;
    if (unameS == "FreeBSD")
        return TargetOs::FreeBsd;
    return std::nullopt;
}

Expected<TargetOs> detectOs(Runner& runner) {
    auto r = runner.run(Command::timed("uname", {"-s"}, std::chrono::seconds(30), true));
    if (!r)
        return fail(r.error());
    if (!r->ok())
        return runtimeError(runner.target() + ": uname -s failed: " + r->exitSummary());
    if (auto os = osFromUname(r->stdoutText))
        return *os;
    return badInput(runner.target() + ": runs " +
                    r->stdoutText.substr(0, r->stdoutText.find('\n')) +
                    "; layoutbench plans for Linux and FreeBSD");
}

} // namespace lb
