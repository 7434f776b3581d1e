// Test fixture support: ports on 127.0.0.1 for the daemons and guests a test starts.
#pragma once

namespace lb::test {

// A port the kernel just handed out on 127.0.0.1, so very likely still free when a daemon binds
// it; 0 when none could be had.
int freeLoopbackPort();

} // namespace lb::test
