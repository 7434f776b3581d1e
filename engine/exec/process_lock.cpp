#include "engine/exec/process_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace lb {

Expected<std::optional<ProcessLock>> ProcessLock::tryAcquire(const std::string& lockFile,
                                                             std::int64_t slot) {
    const int fd = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return runtimeError(lockFile + ": cannot open the lock file: " + std::strerror(errno));
    struct flock region {};
    region.l_type = F_WRLCK;
    region.l_whence = SEEK_SET;
    region.l_start = static_cast<off_t>(slot);
    region.l_len = 1;
    if (::fcntl(fd, F_OFD_SETLK, &region) != 0) {
        const int err = errno;
        ::close(fd);
        if (err == EAGAIN || err == EACCES)
            return std::optional<ProcessLock>();
        return runtimeError(lockFile + ": cannot lock byte " + std::to_string(slot) + ": " +
                            std::strerror(err));
    }
    return std::optional<ProcessLock>(ProcessLock(fd));
}

ProcessLock& ProcessLock::operator=(ProcessLock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

ProcessLock::~ProcessLock() {
    if (fd_ >= 0)
        ::close(fd_);
}

bool inMemoryDatabase(const std::string& databasePath) {
    return databasePath.empty() || databasePath == ":memory:" ||
           databasePath.starts_with("file::memory:");
}

} // namespace lb
