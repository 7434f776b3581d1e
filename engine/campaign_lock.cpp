#include "engine/campaign_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace lb {

Expected<CampaignLock> CampaignLock::acquire(const std::string& databasePath,
                                             std::int64_t campaignId) {
    if (databasePath.empty() || databasePath == ":memory:")
        return CampaignLock(-1);
    const std::string path = databasePath + "-campaigns.lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return runtimeError(path +
                            ": cannot open the campaigns' lock file: " + std::strerror(errno));
    struct flock region {};
    region.l_type = F_WRLCK;
    region.l_whence = SEEK_SET;
    region.l_start = static_cast<off_t>(campaignId);
    region.l_len = 1;
    if (::fcntl(fd, F_OFD_SETLK, &region) != 0) {
        const int err = errno;
        ::close(fd);
        if (err == EAGAIN || err == EACCES)
            return runtimeError("campaign " + std::to_string(campaignId) +
                                " is in use by another layoutbench (a run, a resume or a cleanup "
                                "of it, on " +
                                databasePath + "): wait for it to end, or stop it first");
        return runtimeError(path + ": cannot lock campaign " + std::to_string(campaignId) + ": " +
                            std::strerror(err));
    }
    return CampaignLock(fd);
}

CampaignLock& CampaignLock::operator=(CampaignLock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

CampaignLock::~CampaignLock() {
    if (fd_ >= 0)
        ::close(fd_);
}

} // namespace lb
