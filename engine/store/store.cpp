// Opening the store (engine/store/store.h): the connection's settings for a writer and for a
// reader, the statement cache, the ids of metric names and stored texts, and the integrity check.
// The schema and its migrations are store_schema.cpp; the queries live in the modules store.h
// names.
#include "engine/store/store.h"

#include "engine/store/store_internal.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <utility>

namespace lb {

std::string describeCampaignIo(const CampaignIo& io) {
    const std::string path =
        std::string(io.direct ? "direct" : "buffered") + " I/O on every layout (" + io.why + "); ";
    if (!io.coldCache)
        return path + "warm cache (cache = \"warm\"): the page cache kept between runs, ZFS "
                      "caching data: reads may come from memory";
    return path + (io.pageCacheDropped
                       ? "cold cache: the page cache dropped before each run, ZFS caching "
                         "metadata only"
                       : "ZFS caching metadata only, the page cache kept between runs "
                         "(drop_caches = false): reads may come from memory");
}

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string defaultDatabasePath() {
    if (const char* named = std::getenv("LAYOUTBENCH_DB"); named && *named)
        return named;
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = ".";
    return (base / "layoutbench" / "results.db").string();
}

Store::Store(sql::Database db, Clock clock)
    : db_(std::move(db)), clock_(std::move(clock)), cache_(std::make_unique<Cache>()) {
    // Metric ids made in a transaction that rolled back do not exist: forget every id known.
    db_.onRollback([cache = cache_.get()] { cache->forget(); });
}

Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

Expected<Store> Store::open(const std::string& path, Clock clock) {
    if (path != ":memory:") {
        std::error_code ec;
        const auto parent = std::filesystem::path(path).parent_path();
        if (!parent.empty())
            std::filesystem::create_directories(parent, ec);
        if (ec)
            return runtimeError(parent.string() + ": cannot create directory: " + ec.message());
    }
    LB_TRY(db, sql::Database::open(path));
    Store store(std::move(db), std::move(clock));
    // 64 KiB pages (a new database only; an existing one keeps its size): a run's raw output,
    // typically 10 KB of fio JSON, fits one page instead of a chain of four, and an import of
    // 10,000 runs writes 1,700 WAL frames instead of 27,000 — twice as fast here. Writes of a
    // campaign are a few pages a run, minutes apart. A page cache of 32 MiB rather than
    // SQLite's 2 MiB: the run table's uid and content-hash indexes take rows in random order,
    // and an import of a million runs otherwise reads most index pages back from the file for
    // every run it adds. Reads map the file (up to 1 GiB of it) rather than copy each page into
    // that cache: a `compare` in a new process reads every packed sample row once, into fresh
    // memory that faults page by page; mapped, its CPU time over a million metric rows went from
    // 290 to 220 ms (median of 7). Writes go through the WAL as before.
    for (const char* pragma :
         {"PRAGMA page_size = 65536", "PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL",
          "PRAGMA synchronous = NORMAL", "PRAGMA cache_size = -32768"})
        LB_TRY_VOID(store.db_.exec(pragma));
    LB_TRY_VOID(store.mapReads(true));
    LB_TRY_VOID(store.migrate());
    return store;
}

Expected<void> Store::mapReads(bool on) {
    return db_.exec(on ? "PRAGMA mmap_size = 1073741824" : "PRAGMA mmap_size = 0");
}

Expected<std::unique_ptr<sql::BackgroundCheckpoints>> Store::checkpointInBackground(int walPages) {
    LB_TRY(own, sql::Database::open(path()));
    // A connection finds the database in WAL mode when it first reads it; until then, it has no
    // WAL to checkpoint.
    LB_TRY_VOID(own.exec("PRAGMA journal_mode"));
    return sql::BackgroundCheckpoints::start(db_, std::move(own), walPages);
}

Expected<Store> Store::openReader(const std::string& path, Clock clock) {
    LB_TRY(db, sql::Database::open(path));
    Store store(std::move(db), std::move(clock));
    // WAL is the file's already. A small page cache and no mapping: its pages are read into that
    // cache and dropped, where mapping them would count the file a second time in the process.
    for (const char* pragma :
         {"PRAGMA foreign_keys = ON", "PRAGMA cache_size = -4096", "PRAGMA mmap_size = 0"})
        LB_TRY_VOID(store.db_.exec(pragma));
    LB_TRY(version, store.storedSchemaVersion());
    if (version != latestSchemaVersion)
        return runtimeError(path + ": schema " + std::to_string(version) + ", not " +
                            std::to_string(latestSchemaVersion) +
                            ": it is read only once a writer has migrated it");
    store.schemaVersion_ = version;
    return store;
}

Expected<StatementLease> Store::statement(const char* sql) {
    auto& cached = cache_->statements;
    auto it = cached.find(sql);
    if (it == cached.end()) {
        LB_TRY(prepared, db_.prepare(sql));
        it = cached.emplace(sql, std::move(prepared)).first;
    }
    return StatementLease(&it->second);
}

Expected<std::int64_t> Store::metricId(const Metric& metric) {
    auto& known = cache_->metricIds[metric.name];
    for (const auto& [unit, id] : known)
        if (unit == metric.unit)
            return id;
    LB_TRY(q, statement("INSERT INTO metric_name(name, unit) VALUES(?1, ?2) ON CONFLICT(name, "
                        "unit) DO UPDATE SET name = excluded.name RETURNING id"));
    q->bind(1, metric.name).bind(2, unitName(metric.unit));
    LB_TRY(row, q->step());
    if (!row)
        return runtimeError(path() + ": no id for metric '" + metric.name + "'");
    const std::int64_t id = q->columnInt(0);
    known.emplace_back(metric.unit, id);
    return id;
}

Expected<std::optional<std::int64_t>> Store::textId(const std::string& text) {
    if (text == "[]")
        return std::optional<std::int64_t>{};
    auto& known = cache_->textIds;
    if (const auto it = known.find(text); it != known.end())
        return std::optional<std::int64_t>(it->second);
    LB_TRY(q, statement("INSERT INTO run_text(text) VALUES(?1) ON CONFLICT(text) DO UPDATE SET "
                        "text = excluded.text RETURNING id"));
    q->bind(1, text);
    LB_TRY(row, q->step());
    if (!row)
        return runtimeError(path() + ": no id for a run's text");
    const std::int64_t id = q->columnInt(0);
    // Texts that differ from run to run (a caveat naming each run's file) would fill the cache:
    // it keeps the first few hundred met, which are the shared ones.
    if (known.size() < 512)
        known.emplace(text, id);
    return std::optional<std::int64_t>(id);
}

Expected<std::string> Store::runText(std::optional<std::int64_t> id) {
    if (!id)
        return std::string("[]");
    LB_TRY(q, statement("SELECT text FROM run_text WHERE id = ?1"));
    q->bind(1, *id);
    LB_TRY(row, q->step());
    if (!row)
        return runtimeError(path() + ": a run names text " + std::to_string(*id) +
                            ", which run_text does not hold");
    return q->columnText(0);
}

Expected<const std::vector<Store::MetricKind>*> Store::metricKinds(std::int64_t newestId) {
    auto& kinds = cache_->metricKinds;
    if (newestId >= 0 && static_cast<std::size_t>(newestId) < kinds.size() &&
        !kinds[static_cast<std::size_t>(newestId)].name.empty())
        return &kinds;
    kinds.clear();
    LB_TRY(q, statement("SELECT id, name, unit FROM metric_name"));
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        const auto id = static_cast<std::size_t>(row.columnInt(0));
        if (id >= kinds.size())
            kinds.resize(id + 1);
        kinds[id] = {row.columnText(1), unitFromName(row.columnText(2)).value_or(Unit::Count)};
    }));
    return &kinds;
}

Expected<std::string> Store::integrityCheck() {
    LB_TRY(q, db_.prepare("PRAGMA integrity_check"));
    std::string result;
    LB_TRY_VOID(q.forEachRow([&](sql::Statement& row) {
        if (!result.empty())
            result += "\n";
        result += row.columnText(0);
    }));
    return result;
}

} // namespace lb
