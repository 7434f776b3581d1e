// A minimal JSON scanner that walks to a path without building a document; see json_locate.h.
#include "probes/json_locate.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb::json {

namespace {

struct Step {
    bool isIndex = false;
    std::string key;
    std::size_t index = 0;
};

// "a[0].b[\"x.y\"]" -> a, [0], b, ["x.y"]
std::vector<Step> parsePath(std::string_view path) {
    std::vector<Step> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            ++i;
        } else if (path[i] == '[') {
            const auto close = path.find(']', i);
            if (close == std::string_view::npos)
                break;
            auto inner = path.substr(i + 1, close - i - 1);
            Step s;
            if (inner.size() >= 2 && inner.front() == '"' && inner.back() == '"') {
                s.key = std::string(inner.substr(1, inner.size() - 2));
            } else {
                s.isIndex = true;
                for (const char c : inner)
                    s.index = s.index * 10 + static_cast<std::size_t>(c - '0');
            }
            steps.push_back(std::move(s));
            i = close + 1;
        } else {
            const auto end = path.find_first_of(".[", i);
            steps.push_back({false, std::string(path.substr(i, end - i)), 0});
            i = end == std::string_view::npos ? path.size() : end;
        }
    }
    return steps;
}

class Scanner {
public:
    Scanner(std::string_view text, std::size_t at) : t_(text), i_(at) {}
    std::size_t pos() const { return i_; }
    void seek(std::size_t at) { i_ = at; }
    char peek() {
        ws();
        return i_ < t_.size() ? t_[i_] : '\0';
    }
    bool consume(char c) {
        if (peek() != c)
            return false;
        ++i_;
        return true;
    }
    bool string(std::string& out) {
        if (!consume('"'))
            return false;
        out.clear();
        for (; i_ < t_.size(); ++i_) {
            const char c = t_[i_];
            if (c == '\\' && i_ + 1 < t_.size()) {
                out += t_[++i_];
            } else if (c == '"') {
                ++i_;
                return true;
            } else {
                out += c;
            }
        }
        return false;
    }
    bool skipValue() {
        const char c = peek();
        std::string ignored;
        if (c == '"')
            return string(ignored);
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++i_;
            if (consume(close))
                return true;
            do {
                if (c == '{' && (!string(ignored) || !consume(':')))
                    return false;
                if (!skipValue())
                    return false;
            } while (consume(','));
            return consume(close);
        }
        const auto start = i_;
        while (i_ < t_.size() &&
               std::string_view(",}] \t\r\n").find(t_[i_]) == std::string_view::npos)
            ++i_;
        return i_ > start;
    }

private:
    void ws() {
        while (i_ < t_.size() &&
               (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n'))
            ++i_;
    }
    std::string_view t_;
    std::size_t i_;
};

// Walks the steps from the value at `at`; returns where it got and how many steps it took.
std::pair<std::size_t, std::size_t> walk(std::string_view text, std::size_t at,
                                         const std::vector<Step>& steps) {
    Scanner s(text, at);
    std::size_t taken = 0;
    for (const auto& step : steps) {
        s.seek(at);
        std::optional<std::size_t> found;
        if (!step.isIndex && s.consume('{')) {
            std::string key;
            if (!s.consume('}')) {
                do {
                    if (!s.string(key) || !s.consume(':'))
                        return {at, taken};
                    s.peek();
                    if (key == step.key)
                        found = s.pos(); // keep looking: the last of duplicate keys counts
                    if (!s.skipValue())
                        break;
                } while (s.consume(','));
            }
        } else if (step.isIndex && s.consume('[')) {
            for (std::size_t n = 0; !s.consume(']'); ++n) {
                s.peek();
                if (n == step.index) {
                    found = s.pos();
                    break;
                }
                if (!s.skipValue() || (!s.consume(',') && s.peek() != ']'))
                    break;
            }
        }
        if (!found)
            return {at, taken};
        at = *found;
        ++taken;
    }
    return {at, taken};
}

} // namespace

std::optional<std::size_t> locatePath(std::string_view text, std::string_view path) {
    const auto steps = parsePath(path);
    if (steps.empty())
        return std::nullopt;
    std::optional<std::size_t> best;
    for (auto brace = text.find('{'); brace != std::string_view::npos;
         brace = text.find('{', brace + 1)) {
        if (brace != 0 && text[brace - 1] != '\n')
            continue;
        const auto [offset, taken] = walk(text, brace, steps);
        if (taken > 0)
            best = offset; // with --status-interval the last report is the one parsed
    }
    return best;
}

} // namespace lb::json
