// One process at a time works on a campaign: a run, a resume and a cleanup each hold the
// campaign's lock while they build, measure or tear down, so a cleanup never undoes layouts under
// a campaign that is still running (in another terminal, or in the desktop app). The lock is an
// open-file-description lock (Linux F_OFD_SETLK) on byte <campaign id> of
// "<database>-campaigns.lock" beside the database: the kernel drops it when its holder ends,
// however it ends (kill -9 included), so an interrupted campaign is free at once; and two holders
// in one process (the desktop app) exclude each other too.
#pragma once

#include "engine/expected.h"

#include <cstdint>
#include <string>

namespace lb {

class CampaignLock {
public:
    // Takes the lock without waiting. A campaign in use is a runtime error: "campaign 3 is in use
    // by another layoutbench (a run, a resume or a cleanup of it): ...". A database in memory
    // (":memory:") has no file to lock beside it: the lock is then a no-op.
    static Expected<CampaignLock> acquire(const std::string& databasePath, std::int64_t campaignId);

    CampaignLock(CampaignLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    CampaignLock& operator=(CampaignLock&& other) noexcept;
    CampaignLock(const CampaignLock&) = delete;
    CampaignLock& operator=(const CampaignLock&) = delete;
    ~CampaignLock();

private:
    explicit CampaignLock(int fd) : fd_(fd) {}
    int fd_ = -1; // closing it releases the lock
};

} // namespace lb
