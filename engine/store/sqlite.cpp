#include "engine/store/sqlite.h"

#include <mutex>
#include <sqlite3.h>

namespace lb::sql {

namespace {

std::mutex busyWaitMutex;
BusyWait& busyWaitSetting() {
    static BusyWait wait;
    return wait;
}

} // namespace

void setBusyWait(BusyWait wait) {
    const std::lock_guard lock(busyWaitMutex);
    busyWaitSetting() = std::move(wait);
}

struct Database::Busy {
    std::string path;
    std::chrono::steady_clock::time_point since;
    std::chrono::steady_clock::time_point reported;
};

void Database::BusyDeleter::operator()(Busy* b) const {
    delete b;
}

// SQLite calls this while another connection holds the lock; `count` is 0 on the first call of
// each wait. Returns 0 to give up (the statement then fails with "database is locked").
int Database::waitWhileBusy(void* data, int count) {
    auto& busy = *static_cast<Busy*>(data);
    const auto now = std::chrono::steady_clock::now();
    if (count == 0)
        busy.since = busy.reported = now;
    BusyWait wait;
    {
        const std::lock_guard lock(busyWaitMutex);
        wait = busyWaitSetting();
    }
    if (now - busy.since >= wait.limit)
        return 0;
    if (wait.report && now - busy.reported >= wait.interval) {
        busy.reported = now;
        wait.report(busy.path, std::chrono::duration_cast<std::chrono::seconds>(now - busy.since));
    }
    // Short sleeps first (most waits are for one short transaction), then 50 ms at a time.
    sqlite3_sleep(count < 10 ? 1 + 5 * count : 50);
    return 1;
}

void Database::Closer::operator()(sqlite3* db) const {
    sqlite3_close_v2(db);
}
void Statement::Finalizer::operator()(sqlite3_stmt* s) const {
    sqlite3_finalize(s);
}

Expected<Database> Database::open(const std::string& path) {
    // Before SQLite's first use in the process: no count of its memory, which nothing here reads.
    // Counting takes a global mutex around every sqlite3_malloc and free: 3.5 million lock and
    // unlock pairs in an import of 100,000 bonnie++ lines, 3.7 % of its CPU time sampled.
    [[maybe_unused]] static const int unmetered = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3* raw = nullptr;
    const int rc =
        sqlite3_open_v2(path.c_str(), &raw,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    Database db;
    db.busy_.reset(new Busy{path, {}, {}});
    db.db_.reset(raw);
    db.path_ = path;
    if (rc != SQLITE_OK)
        return runtimeError(
            path + ": cannot open database: " + (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
    sqlite3_busy_handler(raw, waitWhileBusy, db.busy_.get());
    return db;
}

void Database::onWalCommit(std::function<void(int pages)> callback) {
    if (!callback) {
        sqlite3_wal_autocheckpoint(db_.get(), defaultCheckpointPages); // replaces the hook
        walCommit_.reset();
        return;
    }
    walCommit_ = std::make_unique<std::function<void(int)>>(std::move(callback));
    sqlite3_wal_hook(
        db_.get(),
        [](void* f, sqlite3*, const char*, int pages) {
            (*static_cast<std::function<void(int)>*>(f))(pages);
            return SQLITE_OK;
        },
        walCommit_.get());
}

Expected<bool> Database::checkpoint() {
    int walPages = 0, copied = 0;
    if (sqlite3_wal_checkpoint_v2(db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &walPages,
                                  &copied) != SQLITE_OK)
        return runtimeError(path_ + ": checkpoint: " + lastError());
    return walPages >= 0 && copied == walPages;
}

Expected<void> Database::exec(std::string_view sql) {
    char* msg = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
        std::string err = path_ + ": " + (msg ? msg : "unknown SQLite error");
        sqlite3_free(msg);
        return runtimeError(std::move(err));
    }
    return {};
}

Expected<Statement> Database::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) !=
        SQLITE_OK)
        return runtimeError(path_ + ": " + lastError());
    return Statement(db_.get(), stmt);
}

std::int64_t Database::lastInsertId() const {
    return sqlite3_last_insert_rowid(db_.get());
}
int Database::changes() const {
    return sqlite3_changes(db_.get());
}
std::string Database::lastError() const {
    return sqlite3_errmsg(db_.get());
}

void Database::onRollback(std::function<void()> callback) {
    rollback_ = std::make_unique<std::function<void()>>(std::move(callback));
    sqlite3_rollback_hook(
        db_.get(), [](void* f) { (*static_cast<std::function<void()>*>(f))(); }, rollback_.get());
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (sqlite3_bind_int64(stmt_.get(), index, value) != SQLITE_OK)
        bindError_ = sqlite3_errmsg(db_);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    if (sqlite3_bind_double(stmt_.get(), index, value) != SQLITE_OK)
        bindError_ = sqlite3_errmsg(db_);
    return *this;
}

Statement& Statement::bindBytes(int index, std::string_view bytes, bool text, bool copy) {
    const auto keep = copy ? SQLITE_TRANSIENT : SQLITE_STATIC;
    const int rc = text ? sqlite3_bind_text64(stmt_.get(), index, bytes.data(), bytes.size(), keep,
                                              SQLITE_UTF8)
                        : sqlite3_bind_blob64(stmt_.get(), index, bytes.data(), bytes.size(), keep);
    if (rc != SQLITE_OK)
        bindError_ = sqlite3_errmsg(db_);
    return *this;
}

Statement& Statement::bindNull(int index) {
    if (sqlite3_bind_null(stmt_.get(), index) != SQLITE_OK)
        bindError_ = sqlite3_errmsg(db_);
    return *this;
}

Expected<bool> Statement::step() {
    if (!bindError_.empty())
        return runtimeError("binding a parameter: " + bindError_);
    const int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    // Name the file: "attempt to write a readonly database" or "database is locked" alone does
    // not say which database.
    const char* file = sqlite3_db_filename(db_, "main");
    return runtimeError(std::string(file && *file ? file : "database") + ": " +
                        sqlite3_errmsg(db_));
}

Expected<void> Statement::run() {
    auto r = step();
    if (!r)
        return fail(r.error());
    reset();
    return {};
}

void Statement::reset() {
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
    bindError_.clear();
}

std::int64_t Statement::columnInt(int col) const {
    return sqlite3_column_int64(stmt_.get(), col);
}
double Statement::columnDouble(int col) const {
    return sqlite3_column_double(stmt_.get(), col);
}
bool Statement::columnIsNull(int col) const {
    return sqlite3_column_type(stmt_.get(), col) == SQLITE_NULL;
}
bool Statement::columnIsBlob(int col) const {
    return sqlite3_column_type(stmt_.get(), col) == SQLITE_BLOB;
}
std::string_view Statement::columnBlob(int col) const {
    const void* data = sqlite3_column_blob(stmt_.get(), col);
    const int bytes = sqlite3_column_bytes(stmt_.get(), col);
    if (!data)
        return {};
    return {static_cast<const char*>(data), static_cast<std::size_t>(bytes)};
}

std::string Statement::columnText(int col) const {
    const auto* text = sqlite3_column_text(stmt_.get(), col);
    const int bytes = sqlite3_column_bytes(stmt_.get(), col);
    if (!text)
        return {};
    return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(bytes));
}

Expected<Transaction> Transaction::begin(Database& db) {
    if (auto r = db.exec("BEGIN IMMEDIATE"); !r)
        return fail(r.error());
    return Transaction(db);
}

Transaction::Transaction(Transaction&& other) noexcept : db_(other.db_), open_(other.open_) {
    other.open_ = false;
}

Transaction::~Transaction() {
    if (open_)
        (void)db_->exec("ROLLBACK");
}

Expected<void> Transaction::commit() {
    auto r = db_->exec("COMMIT");
    if (r)
        open_ = false;
    return r;
}

} // namespace lb::sql
