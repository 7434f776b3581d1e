#include "engine/measure/run.h"

#include <array>
#include <utility>

namespace lb {

namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 4> names{{
    {RunStatus::Ok, "ok"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Aborted, "aborted"},
    {RunStatus::Running, "running"},
}};
constexpr std::array<std::pair<MetricNote::Kind, std::string_view>, 3> noteKinds{{
    {MetricNote::Kind::Qualifies, "qualifies"},
    {MetricNote::Kind::Excludes, "excludes"},
    {MetricNote::Kind::Method, "method"},
}};
} // namespace

std::string_view metricNoteKindName(MetricNote::Kind k) {
    for (const auto& [kind, name] : noteKinds)
        if (kind == k)
            return name;
    return "qualifies";
}

std::optional<MetricNote::Kind> metricNoteKindFromName(std::string_view name) {
    for (const auto& [kind, n] : noteKinds)
        if (n == name)
            return kind;
    return std::nullopt;
}

std::string_view runStatusName(RunStatus s) {
    for (const auto& [status, name] : names)
        if (status == s)
            return name;
    return "running";
}

std::optional<RunStatus> runStatusFromName(std::string_view name) {
    for (const auto& [status, n] : names)
        if (n == name)
            return status;
    return std::nullopt;
}

} // namespace lb
