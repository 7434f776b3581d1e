#include "engine/campaign/campaign_lock.h"

namespace lb {

Expected<ProcessLock> acquireCampaignLock(const std::string& databasePath,
                                          std::int64_t campaignId) {
    if (inMemoryDatabase(databasePath))
        return ProcessLock::none();
    auto lock = ProcessLock::tryAcquire(databasePath + "-campaigns.lock", campaignId);
    if (!lock)
        return fail(lock.error());
    if (!*lock)
        return runtimeError("campaign " + std::to_string(campaignId) +
                            " is in use by another layoutbench (a run, a resume or a cleanup "
                            "of it, on " +
                            databasePath + "): wait for it to end, or stop it first");
    return std::move(**lock);
}

} // namespace lb
