// Items written one after another with a separator between them ("m1, m2"): the lists that
// messages and headlines name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lb {

inline std::string joinedText(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (const auto& i : items)
        out += (out.empty() ? "" : std::string(sep)) + i;
    return out;
}

} // namespace lb
