#include "engine/measure/probe.h"

#include "engine/base/size.h"

#include <algorithm>

namespace lb {

void OptionValues::set(std::string name, OptionValue v, bool given) {
    if (given)
        given_.insert(name);
    else
        given_.erase(name);
    values_[std::move(name)] = std::move(v);
}

std::optional<std::int64_t> OptionValues::maybeInteger(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end())
        return std::nullopt;
    if (const auto* v = std::get_if<std::int64_t>(&it->second))
        return *v;
    return std::nullopt;
}

std::optional<std::uint64_t> OptionValues::maybeBytes(const std::string& name) const {
    const auto v = maybeInteger(name);
    if (!v || *v < 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(*v);
}

std::int64_t OptionValues::integer(const std::string& name) const {
    return maybeInteger(name).value_or(0);
}

std::uint64_t OptionValues::bytes(const std::string& name) const {
    return maybeBytes(name).value_or(0);
}

std::string OptionValues::text(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end())
        return {};
    if (const auto* v = std::get_if<std::string>(&it->second))
        return *v;
    return {};
}

bool OptionValues::flag(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end())
        return false;
    if (const auto* v = std::get_if<bool>(&it->second))
        return *v;
    return false;
}

namespace {

std::string typeName(OptionType t) {
    switch (t) {
    case OptionType::Bool:
        return "true or false";
    case OptionType::Int:
        return "a whole number";
    case OptionType::Size:
        return "a size such as \"64M\" or \"1GiB\"";
    case OptionType::String:
    case OptionType::Path:
        return "a string";
    case OptionType::Choice:
        return "one of the listed choices";
    case OptionType::Number:
        return "a number";
    case OptionType::List:
        return "a list of strings";
    case OptionType::IntList:
        return "a list of whole numbers";
    }
    return "a value";
}

// A string option: not empty, and for a Choice one of its choices.
Expected<OptionValue> convertText(const OptionSpec& spec, const std::string& s,
                                  const std::string& prefix) {
    if (spec.type != OptionType::Choice) {
        if (s.empty())
            return badInput(prefix + ": must not be empty");
        return OptionValue{s};
    }
    if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end()) {
        std::string list;
        for (const auto& c : spec.choices)
            list += (list.empty() ? "" : ", ") + c;
        return badInput(prefix + ": '" + s + "' is not one of " + list);
    }
    return OptionValue{s};
}

// A Size option's bytes: a number, or a size in text ("4k", binary units).
Expected<std::int64_t> sizeOption(const RawOption::Value& value, const std::string& prefix) {
    if (const auto* i = std::get_if<std::int64_t>(&value))
        return *i;
    const auto* s = std::get_if<std::string>(&value);
    if (!s)
        return badInput(prefix + ": expected " + typeName(OptionType::Size));
    auto parsed = parseSize(*s, SizeConvention::Binary);
    if (!parsed)
        return badInput(prefix + ": " + parsed.error().message);
    if (*parsed > static_cast<std::uint64_t>(INT64_MAX))
        return badInput(prefix + ": too large");
    return static_cast<std::int64_t>(*parsed);
}

Expected<OptionValue> convert(const OptionSpec& spec, const RawOption::Value& value,
                              const std::string& prefix) {
    auto wrong = [&]() { return badInput(prefix + ": expected " + typeName(spec.type)); };
    std::int64_t number = 0;
    switch (spec.type) {
    case OptionType::Bool:
        if (const auto* b = std::get_if<bool>(&value))
            return OptionValue{*b};
        return wrong();
    case OptionType::String:
    case OptionType::Path:
    case OptionType::Choice:
        if (const auto* s = std::get_if<std::string>(&value))
            return convertText(spec, *s, prefix);
        return wrong();
    case OptionType::Int:
        if (const auto* i = std::get_if<std::int64_t>(&value))
            number = *i;
        else
            return wrong();
        break;
    case OptionType::Size: {
        LB_TRY(bytes, sizeOption(value, prefix));
        number = bytes;
        break;
    }
    case OptionType::Number:
    case OptionType::List:
    case OptionType::IntList:
        // A probe option holds one integer, string or flag (OptionValue).
        return badInput(prefix + ": a probe option cannot be " + typeName(spec.type));
    }
    if (spec.min && number < *spec.min)
        return badInput(prefix + ": " + std::to_string(number) + " is below the minimum " +
                        std::to_string(*spec.min));
    if (spec.max && number > *spec.max)
        return badInput(prefix + ": " + std::to_string(number) + " is above the maximum " +
                        std::to_string(*spec.max));
    return OptionValue{number};
}

} // namespace

Expected<OptionValues> validateOptions(const std::vector<OptionSpec>& table,
                                       const std::map<std::string, RawOption>& raw,
                                       const std::string& where, const std::string& fieldPrefix) {
    OptionValues out;
    for (const auto& [name, option] : raw) {
        const auto spec =
            std::find_if(table.begin(), table.end(),
                         [&key = name](const OptionSpec& s) { return s.name == key; });
        const std::string prefix = where + ":" + std::to_string(option.line) + ":" +
                                   std::to_string(option.column) + ": " + fieldPrefix + name;
        if (spec == table.end()) {
            std::string known;
            for (const auto& s : table)
                known += (known.empty() ? "" : ", ") + s.name;
            return badInput(prefix + ": unknown option (known: " + known + ")");
        }
        LB_TRY(value, convert(*spec, option.value, prefix));
        out.set(name, std::move(value));
    }
    for (const auto& spec : table) {
        if (out.has(spec.name))
            continue;
        if (spec.required)
            return badInput(where + ": option '" + spec.name + "' is required");
        if (spec.defaultValue.empty())
            continue;
        RawOption def;
        if (spec.type == OptionType::Bool)
            def.value = spec.defaultValue == "true";
        else if (spec.type == OptionType::Int)
            def.value = static_cast<std::int64_t>(std::stoll(spec.defaultValue));
        else
            def.value = spec.defaultValue;
        LB_TRY(value, convert(spec, def.value, where + ": default of " + spec.name));
        out.set(spec.name, std::move(value), false);
    }
    return out;
}

Expected<void> Probe::validate(const OptionValues&, const std::string&) const {
    return {};
}

Expected<ParsedRun> Probe::parseFor(const ProcessResult& result,
                                    const std::vector<ProcessResult>& inspected,
                                    const OptionValues& opts, const WorkloadContext&) const {
    return parse(result, inspected, opts);
}

Expected<MeasuredCommand> Probe::preconditionCommand(const OptionValues&, const WorkloadContext&,
                                                     std::uint64_t) const {
    return badInput(std::string(name()) + ": no SSD preconditioning for this probe");
}

Expected<MeasuredCommand> Probe::steadyStateRound(const OptionValues&, const WorkloadContext&,
                                                  int) const {
    return badInput(std::string(name()) + ": no steady-state rounds for this probe");
}

std::string Probe::parseVersion(const ProcessResult& r) const {
    std::string text = r.stdoutText.empty() ? r.stderrText : r.stdoutText;
    const auto nl = text.find('\n');
    if (nl != std::string::npos)
        text.resize(nl);
    return text;
}

void ProbeRegistry::add(std::unique_ptr<Probe> probe) {
    probes_.push_back(std::move(probe));
}

const Probe* ProbeRegistry::find(std::string_view name) const {
    for (const auto& p : probes_)
        if (p->name() == name)
            return p.get();
    return nullptr;
}

std::vector<std::string> ProbeRegistry::names() const {
    std::vector<std::string> out;
    for (const auto& p : probes_)
        out.emplace_back(p->name());
    return out;
}

std::vector<std::string> Probe::metricNames(const std::string&, const OptionValues&) const {
    return {};
}

} // namespace lb
