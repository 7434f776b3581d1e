// An import's runs stored as they are read, in batches, and seen by nobody until all of them are:
// they wait under a layout of kind "staged-import" (listings leave it out; comparisons and
// reports go by layout name), committed every tenth of a second so that memory stays flat and
// other writers get their turn, and are moved to the named layout in one transaction at the end
// (publish). A command's import is still all or nothing: one that fails discards what it staged;
// what an import killed on the way staged is deleted by the next import, which can tell its owner
// has gone (the stager holds a ProcessLock on "<database>-imports.lock" while it stages). While
// it stages, the store's reads do not map the file (Store::mapReads), so its memory stays flat.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/process_lock.h"
#include "engine/measure/run.h"
#include "engine/store/sqlite.h"
#include "engine/store/store.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace lb {

struct ImportTarget {
    std::string layout;
    std::string kind;
    std::string specJson;
    std::string host;
};

// When a batch of staged runs is committed: after this many runs or this long, whichever comes
// first. The time bounds how long another writer waits. Each batch is copied from the WAL into
// the database file on another thread while the next is staged (sql::BackgroundCheckpoints), so
// batches are short enough for an import of a few seconds to have several: alternating with
// 500 ms batches checkpointed by the writer, 10,000 fio JSON+ files took 517-583 ms against
// 534-636 and a million bonnie++ lines 15.6-16.2 s against 17.4-18.4 (500 ms batches
// checkpointed in the background: 16.6-17.0 s). Once the WAL holds `walPages` pages, a commit
// waits for its checkpoint, so that the WAL starts over instead of growing with the import.
struct BatchLimit {
    std::size_t runs = 50000;
    std::chrono::milliseconds time{100};
    int walPages = sql::defaultCheckpointPages;
};

class StagedImport {
public:
    // Deletes what killed imports left staged, then opens a staging layout of its own.
    static Expected<StagedImport> begin(Store& store, BatchLimit limit = {});

    StagedImport(StagedImport&& other) noexcept;
    StagedImport& operator=(StagedImport&&) = delete;
    StagedImport(const StagedImport&) = delete;
    StagedImport& operator=(const StagedImport&) = delete;
    ~StagedImport(); // discards what was not published

    // Stages a run. Its iteration is set here (run.iteration): counted per workload, after what
    // the layout holds once published. The run is left to the caller (an import frees it on the
    // thread that read it).
    Expected<void> add(Run& run);
    Expected<void> add(Run&& run) { return add(run); }
    // Moves every staged run to `target.layout` (created, with its host, when new) in one
    // transaction; a layout of another kind is bad input and nothing is moved. Their content
    // hashes are indexed then, in one sorted pass. With Repeats::Refuse, nothing is moved when
    // a staged run has the data of an earlier one, staged or published: the first such run is
    // returned, with that earlier run.
    enum class Repeats { Keep, Refuse };
    Expected<std::optional<RepeatedContent>> publish(const ImportTarget& target,
                                                     Repeats repeats = Repeats::Keep);
    // Deletes what was staged, and the hosts, run texts and metric names it added that nothing
    // else names. Errors are not reported: what is left is deleted by a later import.
    void discard();
    // Commits the runs staged so far (still hidden); add() does every BatchLimit.
    Expected<void> commitBatch();
    // The checkpoints of the batches so far; nullopt for a database in memory, or once published
    // or discarded (tests).
    std::optional<sql::BackgroundCheckpoints::Rounds> checkpointRounds() const {
        return checkpoints_ ? std::optional(checkpoints_->rounds()) : std::nullopt;
    }

    std::int64_t stagedRuns() const { return staged_; }
    // The staging layout, and the store it is in.
    std::int64_t layoutId() const { return layoutId_; }
    Store& store() const { return *store_; }

private:
    StagedImport(Store& store, std::int64_t layoutId, ProcessLock lock, BatchLimit limit,
                 std::unique_ptr<sql::BackgroundCheckpoints> checkpoints)
        : store_(&store), layoutId_(layoutId), lock_(std::move(lock)), limit_(limit),
          checkpoints_(std::move(checkpoints)) {}

    Store* store_;
    std::int64_t layoutId_ = 0; // the staging layout
    ProcessLock lock_;
    BatchLimit limit_;
    // Batches are copied from the WAL into the database file while the next one is staged.
    std::unique_ptr<sql::BackgroundCheckpoints> checkpoints_;
    std::optional<sql::Transaction> batch_;
    std::size_t inBatch_ = 0;
    std::chrono::steady_clock::time_point batchStarted_;
    std::map<std::string, int> iterations_; // the next iteration of each workload, from 0
    std::int64_t staged_ = 0;
    std::int64_t hashed_ = 0; // staged runs with a content hash
    ImportMarks marks_;       // the store's ids before it: what a refused import leaves is deleted
    bool open_ = true;        // neither published nor discarded
};

} // namespace lb
