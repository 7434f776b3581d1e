#include "engine/store/import_stage.h"

#include <random>
#include <vector>

namespace lb {

namespace {

std::string lockFile(const Store& store) {
    return store.path() + "-imports.lock";
}

// Deletes a staging layout and its runs, and, given the marks taken before it was made, the
// hosts, run texts and metric names its runs added that nothing else names.
Expected<void> deleteStaged(Store& store, std::int64_t layoutId,
                            const std::optional<ImportMarks>& marks = std::nullopt) {
    LB_TRY(tx, store.transaction());
    LB_TRY_VOID(store.deleteStagedLayout(layoutId));
    if (marks)
        LB_TRY_VOID(store.deleteImportLeftovers(*marks));
    return tx.commit();
}

// What imports killed on the way left staged: their locks are free.
Expected<void> deleteAbandoned(Store& store) {
    if (inMemoryDatabase(store.path()))
        return {};
    LB_TRY(ids, store.stagedLayouts());
    for (const auto id : ids) {
        auto lock = ProcessLock::tryAcquire(lockFile(store), id);
        if (!lock)
            return fail(lock.error());
        if (!*lock)
            continue; // its import is still running
        if (auto r = deleteStaged(store, id); !r)
            return r;
    }
    return {};
}

std::string stagingName() {
    std::random_device random;
    const auto a = std::uniform_int_distribution<std::uint64_t>()(random);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(a));
    return "staged import " + std::string(hex);
}

} // namespace

Expected<StagedImport> StagedImport::begin(Store& store, BatchLimit limit) {
    if (auto r = deleteAbandoned(store); !r)
        return fail(r.error());
    LB_TRY(marks, store.importMarks());
    // The lock is taken before the staging layout is committed, so that no other import sees it
    // unlocked; a lock still held on a reused id (its import deleting it) means: try another.
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto tx = store.transaction();
        if (!tx)
            return fail(tx.error());
        auto id =
            store.ensureLayout(stagingName(), std::string(stagedImportKind), "{}", std::nullopt);
        if (!id)
            return fail(id.error());
        std::optional<ProcessLock> lock;
        if (inMemoryDatabase(store.path())) {
            lock.emplace(ProcessLock::none());
        } else {
            auto taken = ProcessLock::tryAcquire(lockFile(store), *id);
            if (!taken)
                return fail(taken.error());
            if (!*taken)
                continue; // rolled back
            lock.emplace(std::move(**taken));
        }
        if (auto r = tx->commit(); !r)
            return fail(r.error());
        LB_TRY_VOID(store.mapReads(false));
        std::unique_ptr<sql::BackgroundCheckpoints> checkpoints;
        if (!inMemoryDatabase(store.path())) {
            LB_TRY(started, store.checkpointInBackground(limit.walPages));
            checkpoints = std::move(started);
        }
        StagedImport staged(store, *id, std::move(*lock), limit, std::move(checkpoints));
        staged.marks_ = marks;
        return staged;
    }
    return runtimeError(store.path() + ": no staging layout for the import could be locked");
}

StagedImport::StagedImport(StagedImport&& other) noexcept
    : store_(other.store_), layoutId_(other.layoutId_), lock_(std::move(other.lock_)),
      limit_(other.limit_), checkpoints_(std::move(other.checkpoints_)),
      batch_(std::move(other.batch_)), inBatch_(other.inBatch_), batchStarted_(other.batchStarted_),
      iterations_(std::move(other.iterations_)), staged_(other.staged_), hashed_(other.hashed_),
      marks_(other.marks_), open_(std::exchange(other.open_, false)) {
    other.batch_.reset();
}

StagedImport::~StagedImport() {
    discard();
}

Expected<void> StagedImport::commitBatch() {
    if (!batch_)
        return {};
    auto r = batch_->commit();
    batch_.reset();
    return r;
}

Expected<void> StagedImport::add(Run& run) {
    if (!batch_) {
        auto tx = store_->transaction();
        if (!tx)
            return fail(tx.error());
        batch_.emplace(std::move(*tx));
        batchStarted_ = std::chrono::steady_clock::now();
        inBatch_ = 0;
    }
    run.iteration = iterations_[run.workload]++;
    if (auto id = store_->stageRun(layoutId_, run); !id)
        return fail(id.error());
    ++staged_;
    if (!run.contentHash.empty())
        ++hashed_;
    if (++inBatch_ >= limit_.runs ||
        std::chrono::steady_clock::now() - batchStarted_ >= limit_.time)
        return commitBatch();
    return {};
}

Expected<std::optional<RepeatedContent>> StagedImport::publish(const ImportTarget& target,
                                                               Repeats repeats) {
    LB_TRY_VOID(commitBatch());
    LB_TRY(tx, store_->transaction());
    LB_TRY(indexed, store_->publishStagedContent(layoutId_));
    if (indexed < hashed_ && repeats == Repeats::Refuse) {
        LB_TRY(repeated, store_->repeatedStagedContent(layoutId_));
        if (repeated)
            return repeated; // rolled back
    }
    auto hostId = store_->ensureHost(target.host);
    if (!hostId)
        return fail(hostId.error());
    auto existing = store_->findLayout(target.layout);
    if (!existing)
        return fail(existing.error());
    if (!*existing) {
        // A new layout: the staging layout becomes it, whatever the number of runs.
        LB_TRY_VOID(store_->adoptStagedLayout(layoutId_, target.layout, target.kind,
                                              target.specJson, *hostId));
    } else {
        // Its iterations go on from what the layout holds.
        LB_TRY(layoutId,
               store_->ensureLayout(target.layout, target.kind, target.specJson, *hostId));
        LB_TRY_VOID(store_->moveStagedRuns(layoutId_, layoutId));
    }
    LB_TRY_VOID(tx.commit());
    checkpoints_.reset();
    open_ = false;
    lock_ = ProcessLock::none();
    LB_TRY_VOID(store_->mapReads(true));
    return std::optional<RepeatedContent>{};
}

void StagedImport::discard() {
    if (!open_)
        return;
    open_ = false;
    batch_.reset(); // rolls the open batch back
    (void)deleteStaged(*store_, layoutId_, marks_);
    // Free for the next import, which deletes what is left should the deletion have failed.
    checkpoints_.reset();
    lock_ = ProcessLock::none();
    (void)store_->mapReads(true);
}

} // namespace lb
