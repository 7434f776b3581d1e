#include "engine/base/suggest.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace lb {

namespace {

char folded(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

} // namespace

std::size_t editDistance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size(), m = b.size();
    // d[i][j]: distance between a's first i and b's first j characters; three rows suffice.
    std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
    for (std::size_t j = 0; j <= m; ++j)
        previous[j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= m; ++j) {
            const bool same = folded(a[i - 1]) == folded(b[j - 1]);
            current[j] =
                std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) &&
                folded(a[i - 2]) == folded(b[j - 1]))
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[m];
}

std::vector<std::string> nearestNames(std::string_view typed,
                                      const std::vector<std::string>& known) {
    constexpr std::size_t most = 3;
    std::vector<std::string> out;
    if (typed.empty())
        return out;
    const std::size_t allowed = typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
    std::size_t best = std::numeric_limits<std::size_t>::max();
    for (const auto& name : known) {
        const std::size_t d = editDistance(typed, name);
        if (d == 0)
            return {}; // it is known: nothing to suggest
        if (d < best) {
            best = d;
            out = {name};
        } else if (d == best && std::find(out.begin(), out.end(), name) == out.end()) {
            out.push_back(name);
        }
    }
    if (best <= allowed && out.size() <= most)
        return out;
    out.clear();
    if (typed.size() >= 3)
        for (const auto& name : known)
            if (name.size() > typed.size() &&
                std::equal(typed.begin(), typed.end(), name.begin(),
                           [](char x, char y) { return folded(x) == folded(y); }) &&
                std::find(out.begin(), out.end(), name) == out.end())
                out.push_back(name);
    if (out.size() > most)
        out.clear();
    return out;
}

std::string didYouMean(std::string_view typed, const std::vector<std::string>& known) {
    return didYouMeanOf(nearestNames(typed, known));
}

std::string didYouMeanOf(const std::vector<std::string>& near) {
    if (near.empty())
        return {};
    std::string out = " (did you mean ";
    for (std::size_t i = 0; i < near.size(); ++i)
        out += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + ("'" + near[i] + "'");
    return out + "?)";
}

} // namespace lb
