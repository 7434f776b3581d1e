// One process at a time works on a campaign: a run, a resume and a cleanup each hold the
// campaign's lock while they build, measure or tear down, so a cleanup never undoes layouts under
// a campaign that is still running (in another terminal, or in the desktop app). The lock is a
// ProcessLock on byte <campaign id> of "<database>-campaigns.lock": free at once when its holder
// ends, however it ends.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/process_lock.h"

#include <cstdint>
#include <string>

namespace lb {

// Takes the lock without waiting. A campaign in use is a runtime error: "campaign 3 is in use
// by another layoutbench (a run, a resume or a cleanup of it): ...". A database in memory
// (":memory:") has no file to lock beside it: the lock is then a no-op.
Expected<ProcessLock> acquireCampaignLock(const std::string& databasePath, std::int64_t campaignId);

} // namespace lb
