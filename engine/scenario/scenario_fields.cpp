// Typed fields of a scenario's TOML tables: each read names FILE:LINE:COLUMN and the field when
// it is wrong.
#include "engine/base/size.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <limits>

namespace lb::scenario_parse {

namespace fs = std::filesystem;

Expected<void> rejectUnknown(const toml::table& table, const std::set<std::string>& allowed,
                             const std::string& where, const Reporter& rep) {
    for (const auto& [key, node] : table) {
        const std::string k(key.str());
        if (!allowed.count(k)) {
            std::string list;
            for (const auto& a : allowed)
                list += (list.empty() ? "" : ", ") + a;
            return badInput(rep.at(key.source(), where + k, "unknown key (allowed: " + list + ")"));
        }
    }
    return {};
}

Expected<std::string> getString(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, bool required, std::string fallback) {
    const toml::node* node = t.get(key);
    if (!node) {
        if (required)
            return badInput(rep.at(t, where + key, "is required"));
        return fallback;
    }
    if (const auto* s = node->as_string())
        return s->get();
    return badInput(rep.at(*node, where + key, "expected a string"));
}

Expected<bool> getBool(const toml::table& t, const char* key, const std::string& where,
                       const Reporter& rep, bool fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* b = node->as_boolean())
        return b->get();
    return badInput(rep.at(*node, where + key, "expected true or false"));
}

Expected<std::int64_t> getInt(const toml::table& t, const char* key, const std::string& where,
                              const Reporter& rep, std::int64_t fallback, std::int64_t min,
                              std::int64_t max) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    const auto* i = node->as_integer();
    if (!i)
        return badInput(rep.at(*node, where + key, "expected a whole number"));
    if (i->get() < min || i->get() > max)
        return badInput(rep.at(*node, where + key,
                               std::to_string(i->get()) + " is outside " + std::to_string(min) +
                                   ".." + std::to_string(max)));
    return i->get();
}

Expected<double> getDouble(const toml::table& t, const char* key, const std::string& where,
                           const Reporter& rep, double fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* f = node->as_floating_point())
        return f->get();
    if (const auto* i = node->as_integer())
        return static_cast<double>(i->get());
    return badInput(rep.at(*node, where + key, "expected a number"));
}

Expected<std::uint64_t> getSize(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, std::uint64_t fallback,
                                SizeConvention convention) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* i = node->as_integer()) {
        if (i->get() < 0)
            return badInput(rep.at(*node, where + key, "must not be negative"));
        return static_cast<std::uint64_t>(i->get());
    }
    if (const auto* s = node->as_string()) {
        auto size = parseSize(s->get(), convention);
        if (!size)
            return badInput(rep.at(*node, where + key, size.error().message));
        return *size;
    }
    return badInput(rep.at(*node, where + key, "expected a size such as \"256M\""));
}

Expected<std::optional<std::uint64_t>>
getPreconditionSize(const toml::table& t, const std::string& where, const Reporter& rep) {
    if (!t.get("precondition_size"))
        return std::optional<std::uint64_t>{};
    LB_TRY(bytes, getSize(t, "precondition_size", where, rep, 0, SizeConvention::Binary));
    if (bytes < 128 * 1024)
        return badInput(rep.at(t, "precondition_size", where + "precondition_size",
                               "must be at least 128K (one block of the sequential writes)"));
    return std::optional<std::uint64_t>{bytes};
}

Expected<void> rejectUnknown(const toml::table& table, ScenarioTable keys, const std::string& where,
                             const Reporter& rep) {
    return rejectUnknown(table, acceptedKeys(keys), where, rep);
}

Expected<std::string> getString(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep) {
    return getString(t, key.name.c_str(), where, rep, key.required, key.defaultValue);
}

Expected<bool> getBool(const toml::table& t, const OptionSpec& key, const std::string& where,
                       const Reporter& rep) {
    return getBool(t, key.name.c_str(), where, rep, defaultFlag(key));
}

Expected<std::int64_t> getInt(const toml::table& t, const OptionSpec& key, const std::string& where,
                              const Reporter& rep) {
    return getInt(t, key.name.c_str(), where, rep, defaultInteger(key),
                  key.min.value_or(std::numeric_limits<std::int64_t>::min()),
                  key.max.value_or(std::numeric_limits<std::int64_t>::max()));
}

Expected<double> getDouble(const toml::table& t, const OptionSpec& key, const std::string& where,
                           const Reporter& rep) {
    return getDouble(t, key.name.c_str(), where, rep, defaultNumber(key));
}

Expected<std::uint64_t> getSize(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep,
                                SizeConvention convention) {
    std::uint64_t fallback = 0;
    if (!key.defaultValue.empty()) {
        auto bytes = parseSize(key.defaultValue, convention);
        assert(bytes);
        fallback = *bytes;
    }
    return getSize(t, key.name.c_str(), where, rep, fallback, convention);
}

Expected<std::string> getChoice(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep) {
    return getChoice(t, key.name.c_str(), where, rep, key.choices, key.defaultValue);
}

Expected<std::vector<std::string>> getStringList(const toml::table& t, const OptionSpec& key,
                                                 const std::string& where, const Reporter& rep) {
    return getStringList(t, key.name.c_str(), where, rep, defaultList(key));
}

std::string resolve(const std::string& base, const std::string& p) {
    if (p.rfind("~/", 0) == 0) {
        if (const char* home = std::getenv("HOME"); home && *home)
            return resolve(home, p.substr(2));
    }
    if (p.empty() || fs::path(p).is_absolute())
        return p;
    auto out = (fs::path(base) / p).lexically_normal().string();
    while (out.size() > 1 && out.back() == '/')
        out.pop_back();
    return out;
}

bool validName(const std::string& s) {
    return !s.empty() && s.size() <= 64 &&
           std::all_of(s.begin(), s.end(),
                       [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                  c == '_' || c == '.';
                       }) &&
           s.front() != '-' && s.front() != '.';
}

Expected<std::string> getChoice(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, const std::vector<std::string>& allowed,
                                std::string fallback) {
    LB_TRY(value, getString(t, key, where, rep, false, fallback));
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
        return value;
    std::string list;
    for (const auto& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
    return badInput(rep.at(t, key, where + key, "'" + value + "' is not one of " + list));
}

Expected<std::vector<std::string>> getStringList(const toml::table& t, const char* key,
                                                 const std::string& where, const Reporter& rep,
                                                 std::vector<std::string> fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* s = node->as_string())
        return std::vector<std::string>{s->get()};
    const auto* arr = node->as_array();
    if (!arr || arr->empty())
        return badInput(
            rep.at(*node, where + key, "expected a string or a non-empty list of them"));
    std::vector<std::string> out;
    for (const auto& item : *arr) {
        const auto* s = item.as_string();
        if (!s || s->get().empty())
            return badInput(rep.at(item, where + key, "expected a non-empty string"));
        if (std::find(out.begin(), out.end(), s->get()) != out.end())
            return badInput(rep.at(item, where + key, "'" + s->get() + "' is listed twice"));
        out.push_back(s->get());
    }
    return out;
}

bool hasSpace(const std::string& s) {
    return std::any_of(s.begin(), s.end(),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

std::string hostOfTarget(const std::string& target) {
    if (target.empty() || target == "local")
        return "127.0.0.1";
    auto url = parseSshUrl(target);
    return url ? url->host : "127.0.0.1";
}

bool isLoopback(const std::string& address) {
    return address.rfind("127.", 0) == 0 || address == "localhost" || address == "::1";
}

} // namespace lb::scenario_parse
