// Test fixture support: a real loop device over a sparse file, detached when the fixture ends
// (after unmounting and swapoff-ing whatever the test left on it), and a cleanup for the loop
// devices a crashed run left behind.
#pragma once

#include <cstdint>
#include <string>

namespace lb::test {

// Unmounts, swapoffs and detaches every loop device whose backing file lies under `dir`: the
// leftovers of an earlier run of the same test that crashed. Touches no other loop device.
void detachLoopDevicesUnder(const std::string& dir);

class LoopDevice {
public:
    // Makes `file` (sparse, `bytes` long) and attaches it with `losetup -f --show`.
    LoopDevice(const std::string& file, std::uint64_t bytes);
    ~LoopDevice();
    LoopDevice(const LoopDevice&) = delete;
    LoopDevice& operator=(const LoopDevice&) = delete;

    bool available() const { return !path_.empty(); }
    const std::string& why() const { return why_; }
    const std::string& path() const { return path_; } // /dev/loopN
    const std::string& file() const { return file_; }

private:
    std::string file_;
    std::string path_;
    std::string why_;
};

} // namespace lb::test
