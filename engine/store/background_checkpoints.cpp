#include "engine/store/background_checkpoints.h"

namespace lb::sql {

std::unique_ptr<BackgroundCheckpoints> BackgroundCheckpoints::start(Database& writer, Database own,
                                                                    int walPages) {
    std::unique_ptr<BackgroundCheckpoints> checkpoints(
        new BackgroundCheckpoints(writer, std::move(own), walPages));
    auto* self = checkpoints.get();
    self->thread_ = std::jthread([self](std::stop_token stop) { self->run(stop); });
    writer.onWalCommit([self](int pages) { self->committed(pages); });
    return checkpoints;
}

BackgroundCheckpoints::~BackgroundCheckpoints() {
    writer_.onWalCommit(nullptr);
    thread_.request_stop();
    if (thread_.joinable())
        thread_.join();
}

BackgroundCheckpoints::Rounds BackgroundCheckpoints::rounds() const {
    const std::lock_guard lock(mutex_);
    return rounds_;
}

void BackgroundCheckpoints::committed(int pages) {
    std::unique_lock lock(mutex_);
    const std::uint64_t commit = ++requested_;
    wake_.notify_one();
    if (pages >= walPages_)
        done_.wait(lock, [&] { return served_ >= commit || stopped_; });
}

void BackgroundCheckpoints::run(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (wake_.wait(lock, stop, [&] { return served_ < requested_; })) {
        const std::uint64_t serving = requested_;
        lock.unlock();
        // A checkpoint that fails, or cannot copy everything (a reader still reads older pages),
        // leaves the rest in the WAL, where it is read as before; a later one copies it.
        const auto complete = own_.checkpoint();
        lock.lock();
        served_ = serving;
        ++rounds_.done;
        rounds_.complete += complete && *complete ? 1 : 0;
        done_.notify_all();
    }
    stopped_ = true;
    done_.notify_all();
}

} // namespace lb::sql
