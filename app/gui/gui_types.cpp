// Compaction of the store's run list into a RunTable, and the metatype registration of the values
// the GUI's queued signals carry.
#include "app/gui/gui_types.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace lb::gui {

namespace {

// Natural, case-insensitive order: "fio:job9" before "fio:job10". Independent of the locale, so
// the order is the same on every machine.
bool naturalLess(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // Compare the numbers without converting them: leading zeros off, then length, then
            // digits.
            QStringView na = QStringView(a).mid(i, ei - i), nb = QStringView(b).mid(j, ej - j);
            while (na.size() > 1 && na.front() == QLatin1Char('0'))
                na = na.mid(1);
            while (nb.size() > 1 && nb.front() == QLatin1Char('0'))
                nb = nb.mid(1);
            if (na.size() != nb.size())
                return na.size() < nb.size();
            if (const int c = na.compare(nb); c != 0)
                return c < 0;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b; // equal but for case: a stable, total order
}

} // namespace

QString fieldMessage(const Error& error,
                     std::initializer_list<std::pair<std::string_view, QString>> widgets) {
    for (const auto& [field, label] : widgets)
        if (error.message.starts_with(std::string(field) + ":"))
            return label + qs(std::string_view(error.message).substr(field.size()));
    return qs(error.message);
}

RunTable makeRunTable(std::vector<RunSummary> runs) {
    RunTable table;
    table.rows.reserve(runs.size());
    table.strings.emplace_back();
    std::unordered_map<std::string, std::uint32_t> interned{{std::string(), 0U}};
    auto intern = [&](std::string& s) {
        const auto [it, inserted] =
            interned.try_emplace(std::move(s), static_cast<std::uint32_t>(table.strings.size()));
        if (inserted)
            table.strings.push_back(qs(it->first));
        return it->second;
    };
    for (auto& r : runs) {
        RunTable::Row row;
        row.id = r.id;
        row.campaignId = r.campaignId;
        row.wallSeconds = r.wallSeconds;
        row.layout = intern(r.layout);
        row.host = intern(r.host);
        row.workload = intern(r.workload);
        row.reason = intern(r.reason);
        row.iteration = r.iteration;
        row.metrics = static_cast<std::int32_t>(r.metrics);
        row.status = r.status;
        table.rows.push_back(row);
    }
    runs.clear();
    runs.shrink_to_fit();

    // Sorting a column of strings compares their ranks, computed once per distinct string.
    std::vector<std::uint32_t> order(table.strings.size());
    std::iota(order.begin(), order.end(), 0U);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return naturalLess(table.strings[a], table.strings[b]);
    });
    table.collationRank.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        table.collationRank[order[i]] = static_cast<std::uint32_t>(i);
    return table;
}

void registerGuiMetaTypes() {
    qRegisterMetaType<Comparison>("lb::Comparison");
    qRegisterMetaType<CampaignProgress>("lb::CampaignProgress");
    qRegisterMetaType<CampaignResult>("lb::CampaignResult");
    qRegisterMetaType<CleanupResult>("lb::CleanupResult");
    qRegisterMetaType<DatabaseSnapshot>("lb::gui::DatabaseSnapshot");
    qRegisterMetaType<ComparisonResult>("lb::gui::ComparisonResult");
    qRegisterMetaType<CampaignPlan>("lb::gui::CampaignPlan");
    qRegisterMetaType<CampaignReview>("lb::CampaignReview");
    qRegisterMetaType<ImportOutcome>("lb::gui::ImportOutcome");
    qRegisterMetaType<ReportData>("lb::ReportData");
    qRegisterMetaType<std::vector<FleetAnalysis>>("std::vector<lb::FleetAnalysis>");
}

} // namespace lb::gui
