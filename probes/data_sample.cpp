#include "probes/data_sample.h"

#include <sstream>

namespace lb {

Command dataSampleCommand(const std::string& path, const std::vector<std::string>& writer) {
    const std::string head = "head -c " + std::to_string(dataSampleBytes) + " -- \"$f\"";
    std::string script = "f=\"$1\"; shift; w=$#; if [ $w -gt 0 ]; then \"$@\" >/dev/null || "
                         "exit 1; fi; s=$(";
    script += head;
    script += " | wc -c) && c=$(";
    script += head;
    script += " | gzip -1 -c | wc -c); r=$?; if [ $w -gt 0 ]; then rm -f -- \"$f\"; fi; "
              "echo $s $c; exit $r";
    Command c{"sh", {"-c", script, "sh", path}, {{"LC_ALL", "C"}}};
    c.args.insert(c.args.end(), writer.begin(), writer.end());
    return c;
}

std::optional<double> dataSampleRatio(const std::string& stdoutText) {
    std::istringstream in(stdoutText);
    double sample = 0, compressed = 0;
    if (!(in >> sample >> compressed) || sample <= 0 || compressed <= 0)
        return std::nullopt;
    return sample / compressed;
}

} // namespace lb
