// A lock that one process holds while it works on something the database names (a campaign, an
// import), so that another process can tell it is in use, and, once its holder has ended however
// it ended (kill -9 included), that it is not: an open-file-description lock (Linux F_OFD_SETLK)
// on one byte of a lock file beside the database. The kernel drops it when its holder closes the
// file or ends; two holders in one process exclude each other too.
#pragma once

#include "engine/base/expected.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lb {

class ProcessLock {
public:
    // Takes byte `slot` of `lockFile` (created when missing) without waiting: nullopt when another
    // holder has it; an error when the file cannot be opened or locked.
    static Expected<std::optional<ProcessLock>> tryAcquire(const std::string& lockFile,
                                                           std::int64_t slot);
    // A lock that holds nothing, for a database without a file (":memory:").
    static ProcessLock none() { return ProcessLock(-1); }

    ProcessLock(ProcessLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    ProcessLock& operator=(ProcessLock&& other) noexcept;
    ProcessLock(const ProcessLock&) = delete;
    ProcessLock& operator=(const ProcessLock&) = delete;
    ~ProcessLock();

private:
    explicit ProcessLock(int fd) : fd_(fd) {}
    int fd_ = -1; // closing it releases the lock
};

// True for a database that lives in memory, which has no file to put a lock file beside.
bool inMemoryDatabase(const std::string& databasePath);

} // namespace lb
