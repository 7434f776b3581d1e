// WAL checkpoints on a thread of their own, while one connection commits a long series of
// transactions (an import staging its runs in batches).
//
// A commit in WAL mode writes its pages to the WAL; a checkpoint later copies them into the
// database file and waits for the disk twice (the WAL synced before, the file after). SQLite
// checkpoints on the committing thread, after the commit that takes the WAL to 1,000 pages: an
// import of 10,000 fio JSON+ files (60 MB) waited 110-130 ms for it at its end, a fifth of the
// import, on the thread the import waits for. Here a second connection copies each batch while
// the writer goes on with the next.
//
// The WAL starts over only when a write transaction begins with all of it copied. A writer that
// begins the next batch at once never finds it so, and its WAL would grow as large as everything
// it writes (1.2 GB for a million bonnie++ lines): once the WAL holds `walPages` pages (SQLite's
// own checkpoint size by default), the writer waits after a commit for the checkpoint of it, as
// it would have checkpointed itself.
#pragma once

#include "engine/store/sqlite.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

namespace lb::sql {

class BackgroundCheckpoints {
public:
    // Checkpoints through `own`, a second connection to `writer`'s database that has read it
    // (and so knows it is in WAL mode), on a thread of its own, after each of the writer's
    // commits; the writer checkpoints no more by itself until this is destroyed, and must
    // outlive it.
    static std::unique_ptr<BackgroundCheckpoints> start(Database& writer, Database own,
                                                        int walPages = defaultCheckpointPages);
    // Finishes the checkpoint under way, if any; the writer checkpoints by itself again (what is
    // left in the WAL goes with its next automatic checkpoint, or when it closes).
    ~BackgroundCheckpoints();
    BackgroundCheckpoints(const BackgroundCheckpoints&) = delete;
    BackgroundCheckpoints& operator=(const BackgroundCheckpoints&) = delete;

    // Checkpoints done so far, and how many of them found the WAL copied whole (tests).
    struct Rounds {
        int done = 0, complete = 0;
    };
    Rounds rounds() const;

private:
    BackgroundCheckpoints(Database& writer, Database own, int walPages)
        : writer_(writer), own_(std::move(own)), walPages_(walPages) {}
    // The writer's commit hook: wakes the thread, and waits for it when the WAL is long.
    void committed(int pages);
    void run(std::stop_token stop);

    Database& writer_;
    Database own_;
    const int walPages_;
    mutable std::mutex mutex_;
    std::condition_variable_any wake_; // the thread: a commit to copy
    std::condition_variable done_;     // the writer: a round ended
    std::uint64_t requested_ = 0;      // commits so far
    std::uint64_t served_ = 0;         // the commits copied (as far as a round could)
    Rounds rounds_;
    bool stopped_ = false;
    std::jthread thread_; // last: stopped and joined before the rest is destroyed
};

} // namespace lb::sql
