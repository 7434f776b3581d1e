#include "probes/data_sample.h"

#include <sstream>

namespace lb {

Command dataSampleCommand(const std::string& path) {
    const std::string head = "head -c " + std::to_string(dataSampleBytes) + " -- \"$1\"";
    std::string script = "s=$(" + head;
    script += " | wc -c) && c=$(";
    script += head;
    script += " | gzip -1 -c | wc -c) && echo $s $c";
    return {"sh", {"-c", script, "sh", path}, {{"LC_ALL", "C"}}};
}

std::optional<double> dataSampleRatio(const std::string& stdoutText) {
    std::istringstream in(stdoutText);
    double sample = 0, compressed = 0;
    if (!(in >> sample >> compressed) || sample <= 0 || compressed <= 0)
        return std::nullopt;
    return sample / compressed;
}

} // namespace lb
