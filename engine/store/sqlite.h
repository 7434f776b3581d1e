// A thin RAII layer over SQLite: one connection, prepared statements with bound parameters only,
// and transactions that roll back unless committed. Errors come back as values.
#pragma once

#include "engine/base/expected.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace lb::sql {

class Statement;

// What a connection does when another one holds the write lock: it waits, up to `limit`, and
// every `interval` of waiting calls `report` (the database's path and how long it has waited so
// far), so a person sees why nothing happens. One setting for the whole process, set by an app
// at start (the command line prints a line on standard error).
struct BusyWait {
    std::chrono::milliseconds limit = std::chrono::minutes(10);
    std::chrono::milliseconds interval = std::chrono::seconds(5);
    std::function<void(const std::string& path, std::chrono::seconds waited)> report;
};
void setBusyWait(BusyWait wait);

// SQLite's own checkpoint: after the commit that takes the WAL to this many pages
// (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT).
inline constexpr int defaultCheckpointPages = 1000;

class Database {
public:
    static Expected<Database> open(const std::string& path);

    Expected<void> exec(std::string_view sql); // statements without parameters or results
    Expected<Statement> prepare(std::string_view sql);
    std::int64_t lastInsertId() const;
    int changes() const;
    std::string lastError() const;
    const std::string& path() const { return path_; }
    // WAL checkpoints. SQLite's own: after the commit that takes the WAL to
    // defaultCheckpointPages, on the committing thread. With a callback, that is left to it
    // instead: it is called after each commit (the write lock released) with the pages the WAL then
    // holds. An empty callback restores SQLite's.
    void onWalCommit(std::function<void(int pages)> callback);
    // Copies what the WAL holds committed, and no reader still needs, into the database file,
    // without waiting for a lock and without keeping a writer waiting (SQLITE_CHECKPOINT_PASSIVE).
    // True when that was all the WAL holds: the next write transaction starts it over.
    Expected<bool> checkpoint();
    // Called whenever a transaction is rolled back (explicitly, or by SQLite after an error):
    // whoever keeps copies of rows in memory drops what the rollback took away. One at a time.
    void onRollback(std::function<void()> callback);

private:
    struct Closer {
        void operator()(sqlite3* db) const;
    };
    struct Busy; // what the busy handler knows of this connection
    static int waitWhileBusy(void* busy, int count);
    struct BusyDeleter {
        void operator()(Busy* b) const;
    };
    std::unique_ptr<Busy, BusyDeleter> busy_; // outlives db_, whose handler points to it
    std::unique_ptr<sqlite3, Closer> db_;
    std::string path_;
    std::unique_ptr<std::function<void()>> rollback_;     // stable address for the SQLite hook
    std::unique_ptr<std::function<void(int)>> walCommit_; // the same
};

class Statement {
public:
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text) { return bindBytes(index, text, true, true); }
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bindNull(int index);
    Statement& bindBlob(int index, std::string_view bytes) {
        return bindBytes(index, bytes, false, true);
    }
    // Text or bytes SQLite does not copy: they must stay alive and unchanged until the statement
    // is run or reset. For the rows written by the million (runs and their packed samples),
    // where copying each text and freeing it again was a tenth of an import's time.
    Statement& bindUncopied(int index, std::string_view text) {
        return bindBytes(index, text, true, false);
    }
    Statement& bindBlobUncopied(int index, std::string_view bytes) {
        return bindBytes(index, bytes, false, false);
    }
    Statement& bindUncopied(int index, const std::string& text) {
        return bindUncopied(index, std::string_view(text));
    }
    Statement& bindUncopied(int index, std::optional<std::string_view> text) {
        return text ? bindUncopied(index, *text) : bindNull(index);
    }
    template <typename T> Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bindNull(index);
    }

    // Steps once: true while a row is available, false when done.
    Expected<bool> step();
    // Runs a statement that returns no rows.
    Expected<void> run();
    // Steps through every row, calling onRow(*this) for each.
    template <typename F> Expected<void> forEachRow(F&& onRow) {
        while (true) {
            auto row = step();
            if (!row)
                return fail(row.error());
            if (!*row)
                return {};
            onRow(*this);
        }
    }
    void reset();

    std::int64_t columnInt(int col) const;
    double columnDouble(int col) const;
    std::string columnText(int col) const;
    // The bytes of a BLOB (or TEXT) column, valid until the next step or reset.
    std::string_view columnBlob(int col) const;
    bool columnIsNull(int col) const;
    bool columnIsBlob(int col) const;

private:
    friend class Database;
    struct Finalizer {
        void operator()(sqlite3_stmt* s) const;
    };
    Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
    // TEXT (else a BLOB), copied by SQLite or not.
    Statement& bindBytes(int index, std::string_view bytes, bool text, bool copy);
    sqlite3* db_;
    std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
    std::string bindError_;
};

// Begins IMMEDIATE on construction (one writer, no upgrade deadlocks); rolls back on destruction
// unless commit() succeeded.
class Transaction {
public:
    static Expected<Transaction> begin(Database& db);
    Transaction(Transaction&& other) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    Transaction(const Transaction&) = delete;
    ~Transaction();
    Expected<void> commit();

private:
    explicit Transaction(Database& db) : db_(&db) {}
    Database* db_;
    bool open_ = true;
};

} // namespace lb::sql
