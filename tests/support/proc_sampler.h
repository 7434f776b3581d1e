// Test support: a thread that reads every process's /proc/PID/cmdline and /proc/PID/environ over
// and over while a test runs, and records every process in which one of the given secrets
// appears: the proof that a secret travelled through no process's argv or environment (both
// readable in /proc; cmdline by any local user).
#pragma once

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace lb::test {

class ProcSampler {
public:
    // Starts sampling at once.
    explicit ProcSampler(std::vector<std::string> secrets);
    ~ProcSampler();
    ProcSampler(const ProcSampler&) = delete;
    ProcSampler& operator=(const ProcSampler&) = delete;

    // Stops the thread (the destructor does too); the figures below stay.
    void stop();

    // "pid 123 cmdline: lb-netload iscsi://... (secret 0)": one entry a process and file where
    // a secret was seen, the secret itself masked.
    std::vector<std::string> leaks() const;
    std::size_t rounds() const { return rounds_.load(); }
    // Whether a process whose argv[0] ends in `program` was seen while sampling.
    bool saw(const std::string& program) const;

private:
    void loop();
    void sampleOnce();

    std::vector<std::string> secrets_;
    std::atomic<bool> stop_{false};
    std::atomic<std::size_t> rounds_{0};
    mutable std::mutex mutex_;
    std::set<std::string> leaks_;
    std::set<std::string> programs_;
    std::thread thread_;
};

} // namespace lb::test
