#include "engine/import_stage.h"

#include <random>
#include <vector>

namespace lb {

namespace {

// A batch ends after this many runs or this long, whichever comes first: large enough that
// committing costs little, short enough that another writer waits a moment at most.
constexpr std::size_t batchRuns = 5000;
constexpr auto batchTime = std::chrono::milliseconds(500);

std::string lockFile(const Store& store) {
    return store.path() + "-imports.lock";
}

// Deletes a staging layout and its runs; their metrics go with them (ON DELETE CASCADE).
Expected<void> deleteStaged(Store& store, std::int64_t layoutId) {
    auto tx = store.transaction();
    if (!tx)
        return fail(tx.error());
    auto& db = store.database();
    for (const char* sql : {"DELETE FROM run WHERE layout_id = ?1",
                            "DELETE FROM layout WHERE id = ?1 AND kind = ?2"}) {
        auto q = db.prepare(sql);
        if (!q)
            return fail(q.error());
        q->bind(1, layoutId);
        if (std::string_view(sql).find("?2") != std::string_view::npos)
            q->bind(2, stagedImportKind);
        if (auto r = q->run(); !r)
            return r;
    }
    return tx->commit();
}

// What imports killed on the way left staged: their locks are free.
Expected<void> deleteAbandoned(Store& store) {
    if (inMemoryDatabase(store.path()))
        return {};
    auto q = store.database().prepare("SELECT id FROM layout WHERE kind = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, stagedImportKind);
    std::vector<std::int64_t> ids;
    if (auto r = q->forEachRow([&](sql::Statement& row) { ids.push_back(row.columnInt(0)); }); !r)
        return r;
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

Expected<StagedImport> StagedImport::begin(Store& store) {
    if (auto r = deleteAbandoned(store); !r)
        return fail(r.error());
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
        return StagedImport(store, *id, std::move(*lock));
    }
    return runtimeError(store.path() + ": no staging layout for the import could be locked");
}

StagedImport::StagedImport(StagedImport&& other) noexcept
    : store_(other.store_), layoutId_(other.layoutId_), lock_(std::move(other.lock_)),
      batch_(std::move(other.batch_)), inBatch_(other.inBatch_), batchStarted_(other.batchStarted_),
      iterations_(std::move(other.iterations_)), staged_(other.staged_),
      open_(std::exchange(other.open_, false)) {
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

Expected<void> StagedImport::add(Run run) {
    if (!batch_) {
        auto tx = store_->transaction();
        if (!tx)
            return fail(tx.error());
        batch_.emplace(std::move(*tx));
        batchStarted_ = std::chrono::steady_clock::now();
        inBatch_ = 0;
    }
    run.iteration = iterations_[run.workload]++;
    if (auto id = store_->insertRun(layoutId_, run); !id)
        return fail(id.error());
    ++staged_;
    if (++inBatch_ >= batchRuns || std::chrono::steady_clock::now() - batchStarted_ >= batchTime)
        return commitBatch();
    return {};
}

Expected<void> StagedImport::publish(const ImportTarget& target) {
    if (auto r = commitBatch(); !r)
        return r;
    auto tx = store_->transaction();
    if (!tx)
        return fail(tx.error());
    auto hostId = store_->ensureHost(target.host);
    if (!hostId)
        return fail(hostId.error());
    auto existing = store_->findLayout(target.layout);
    if (!existing)
        return fail(existing.error());
    auto& db = store_->database();
    if (!*existing) {
        // A new layout: the staging layout becomes it, whatever the number of runs.
        auto q = db.prepare("UPDATE layout SET name = ?1, kind = ?2, spec = ?3, host_id = ?4, "
                            "created_at = ?5 WHERE id = ?6");
        if (!q)
            return fail(q.error());
        if (auto r = q->bind(1, target.layout)
                         .bind(2, target.kind)
                         .bind(3, target.specJson)
                         .bind(4, *hostId)
                         .bind(5, store_->now())
                         .bind(6, layoutId_)
                         .run();
            !r)
            return r;
    } else {
        // Its iterations go on from what the layout holds.
        auto layoutId = store_->ensureLayout(target.layout, target.kind, target.specJson, *hostId);
        if (!layoutId)
            return fail(layoutId.error());
        auto count = db.prepare("SELECT COUNT(*) FROM run WHERE layout_id = ?1 AND workload = ?2");
        auto move = db.prepare("UPDATE run SET layout_id = ?1, iteration = iteration + ?2 "
                               "WHERE layout_id = ?3 AND workload = ?4");
        auto drop = db.prepare("DELETE FROM layout WHERE id = ?1");
        if (!count || !move || !drop)
            return fail(!count ? count.error() : !move ? move.error() : drop.error());
        for (const auto& [workload, staged] : iterations_) {
            count->reset();
            count->bind(1, *layoutId).bind(2, workload);
            if (auto row = count->step(); !row)
                return fail(row.error());
            const auto before = count->columnInt(0);
            if (auto r = move->bind(1, *layoutId)
                             .bind(2, before)
                             .bind(3, layoutId_)
                             .bind(4, workload)
                             .run();
                !r)
                return r;
        }
        if (auto r = drop->bind(1, layoutId_).run(); !r)
            return r;
    }
    if (auto r = tx->commit(); !r)
        return r;
    open_ = false;
    lock_ = ProcessLock::none();
    return {};
}

void StagedImport::discard() {
    if (!open_)
        return;
    open_ = false;
    batch_.reset(); // rolls the open batch back
    (void)deleteStaged(*store_, layoutId_);
}

} // namespace lb
