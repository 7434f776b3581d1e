#include "engine/exec/line_trigger.h"

#include <cstdio>

namespace lb {

std::string TriggerOutcome::describe() const {
    const std::string what = trigger.command.toUserOutput();
    if (!fired)
        return what + ": not run (the line \"" + trigger.line + "\" never came)";
    if (!result)
        return what + ": could not start: " + error;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", result->wallSeconds);
    return what + ": " + (result->ok() ? std::string("exit status 0") : result->exitSummary()) +
           " in " + seconds + " s";
}

LineTriggers::LineTriggers(std::vector<LineTrigger> triggers, std::unique_ptr<Runner> local)
    : local_(std::move(local)) {
    for (auto& t : triggers)
        outcomes_.push_back({std::move(t), false, std::nullopt, {}});
}

LineTriggers::~LineTriggers() {
    for (auto& t : threads_)
        if (t.joinable())
            t.join();
}

void LineTriggers::feed(std::string_view chunk) {
    std::lock_guard lock(mutex_);
    partial_.append(chunk);
    std::size_t eol = 0;
    while ((eol = partial_.find('\n')) != std::string::npos) {
        const std::string line = partial_.substr(0, eol);
        partial_.erase(0, eol + 1);
        for (std::size_t i = 0; i < outcomes_.size(); ++i) {
            if (outcomes_[i].fired || !line.starts_with(outcomes_[i].trigger.line))
                continue;
            outcomes_[i].fired = true;
            // Each thread writes its own outcome alone; finish() reads it after the join.
            threads_.emplace_back([this, i] {
                auto r = local_->run(outcomes_[i].trigger.command);
                if (r)
                    outcomes_[i].result = std::move(*r);
                else
                    outcomes_[i].error = r.error().message;
            });
        }
    }
}

std::vector<TriggerOutcome> LineTriggers::finish() {
    std::vector<std::thread> started;
    {
        std::lock_guard lock(mutex_);
        started.swap(threads_);
    }
    for (auto& t : started)
        t.join();
    std::lock_guard lock(mutex_);
    return outcomes_;
}

} // namespace lb
