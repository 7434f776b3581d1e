// The measured job: slots kept full up to the queue depth (sequential or random blocks of the
// region), for a time or a number of bytes, each I/O's latency kept; a server that stops
// answering for the timeout ends it. Its report is one JSON object shaped like fio's per-job
// JSON, so layoutbench's fio parser reads it.
#include "netload.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace lbnetload {

void Driver::start() {
    const std::uint64_t region =
        (std::min(t_.regionBytes(), o_.size.value_or(UINT64_MAX)) / o_.bs) * o_.bs;
    if (region < o_.bs)
        throw Failure(t_.where() + ": the target holds less than one " + std::to_string(o_.bs) +
                      "-byte block");
    blocks_ = region / o_.bs;
    byteLimit_ = o_.runtime ? UINT64_MAX : *o_.size;
    slots_.resize(static_cast<std::size_t>(o_.iodepth));
    for (auto& s : slots_)
        s.driver = this;
    latencies_.reserve(1 << 20);
    start_ = Clock::now();
    if (o_.runtime)
        stopAt_ = start_ + std::chrono::seconds(*o_.runtime);
    lastProgress_ = start_;
}

// One poll of the connection and its completions; a server silent for the timeout, or a broken
// connection, is a Failure.
void Driver::serviceOnce() {
    if (Clock::now() - lastProgress_ > std::chrono::seconds(o_.timeout))
        throw Failure(t_.where() + ": no I/O completed for " + std::to_string(o_.timeout) + " s (" +
                      std::to_string(inflight_) + " in flight): the server stopped answering");
    if (!t_.service(pollOnce(t_))) {
        if (!error_.empty())
            throw Failure(t_.where() + ": " + error_);
        throw Failure(t_.where() + ": connection lost: " + t_.error());
    }
}

void Driver::run() {
    start();
    for (;;) {
        if (!error_.empty())
            throw Failure(t_.where() + ": " + error_);
        for (auto& s : slots_)
            if (!s.busy && moreToSubmit())
                submit(s);
        if (inflight_ == 0 && !moreToSubmit())
            break;
        serviceOnce();
    }
}

void Driver::completed(Slot& s, bool ok, const std::string& why) {
    const auto now = Clock::now();
    s.busy = false;
    --inflight_;
    if (!ok) {
        if (error_.empty())
            error_ = std::string(o_.isWrite() ? "write" : "read") + " at offset " +
                     std::to_string(s.offset) + " failed: " + why;
        return;
    }
    lastProgress_ = now;
    end_ = now;
    bytesDone_ += o_.bs;
    latencies_.push_back(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - s.started).count()));
}

// The measured direction as fio reports one: bytes, bandwidth, IOPS, runtime, I/Os and latency
// (submission to completion: lb-netload has no separate submission latency).
nlohmann::ordered_json Driver::measured() const {
    using nlohmann::ordered_json;
    const double runtimeNs = static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end_ - start_).count());
    std::vector<std::uint64_t> sorted = latencies_;
    std::sort(sorted.begin(), sorted.end());
    const auto pct = [&](double p) -> std::uint64_t {
        if (sorted.empty())
            return 0;
        // Nearest rank, as fio reports a percentile: the smallest value with at least p % of
        // the samples at or below it.
        const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
        const auto idx = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
        return sorted[std::min(idx, sorted.size() - 1)];
    };
    double sum = 0;
    for (const auto v : sorted)
        sum += static_cast<double>(v);
    const double ios = static_cast<double>(sorted.size());
    const double mean = sorted.empty() ? 0 : sum / ios;
    const double seconds = runtimeNs / 1e9;
    ordered_json lat = {{"min", sorted.empty() ? 0 : sorted.front()},
                        {"max", sorted.empty() ? 0 : sorted.back()},
                        {"mean", mean}};
    ordered_json clat = lat;
    clat["percentile"] = {{"50.000000", pct(50)}, {"99.000000", pct(99)}, {"99.900000", pct(99.9)}};
    return {{"io_bytes", bytesDone_},
            {"io_kbytes", bytesDone_ / 1024},
            {"bw_bytes", seconds > 0
                             ? static_cast<std::uint64_t>(static_cast<double>(bytesDone_) / seconds)
                             : 0},
            {"iops", seconds > 0 ? ios / seconds : 0.0},
            {"runtime", static_cast<std::uint64_t>(runtimeNs / 1e6)},
            {"total_ios", sorted.size()},
            {"clat_ns", clat},
            {"lat_ns", lat}};
}

nlohmann::ordered_json Driver::report() const {
    using nlohmann::ordered_json;
    const ordered_json idle = {{"io_bytes", 0},
                               {"io_kbytes", 0},
                               {"bw_bytes", 0},
                               {"iops", 0.0},
                               {"runtime", 0},
                               {"total_ios", 0},
                               {"lat_ns", {{"min", 0}, {"max", 0}, {"mean", 0.0}}}};
    const ordered_json io = measured();
    ordered_json job = {{"jobname", o_.name},
                        {"groupid", 0},
                        {"error", 0},
                        {"job options",
                         {{"url", o_.url},
                          {"rw", o_.rw},
                          {"bs", std::to_string(o_.bs)},
                          {"iodepth", std::to_string(o_.iodepth)},
                          {"runtime", o_.runtime ? std::to_string(*o_.runtime) : ""},
                          {"size", o_.size ? std::to_string(*o_.size) : ""}}},
                        {"read", o_.isWrite() ? idle : io},
                        {"write", o_.isWrite() ? io : idle}};
    return {{"lb-netload version", toolVersion}, {"jobs", ordered_json::array({job})}};
}

bool Driver::moreToSubmit() const {
    if (!error_.empty())
        return false;
    if (o_.runtime)
        return Clock::now() < stopAt_;
    return bytesSubmitted_ < byteLimit_;
}

void Driver::submit(Slot& s) {
    std::uint64_t block = 0;
    if (o_.isRandom()) {
        block = std::uniform_int_distribution<std::uint64_t>(0, blocks_ - 1)(rng_);
    } else {
        block = nextBlock_;
        nextBlock_ = (nextBlock_ + 1) % blocks_;
    }
    s.offset = block * o_.bs;
    s.started = Clock::now();
    s.busy = true;
    ++inflight_;
    bytesSubmitted_ += o_.bs;
    if (!t_.submit(s)) {
        s.busy = false;
        --inflight_;
        throw Failure(t_.where() + ": cannot queue I/O: " + t_.error());
    }
}

} // namespace lbnetload
