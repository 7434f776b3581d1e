// The loop device fixture: truncate, `losetup -f --show`, and a teardown that releases the
// device (umount, swapoff) before `losetup -d`, so a failed test does not leak it.

#include "tests/support/loop_device.h"

#include "tests/cli/process.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace lb::test {

namespace {

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

std::string firstField(const std::string& line) {
    return line.substr(0, line.find_first_of(" \t"));
}

// /dev/loop3 itself or one of its partitions (/dev/loop3p1).
bool onDevice(const std::string& dev, const std::string& loop) {
    return dev == loop || (dev.starts_with(loop + "p") && dev.size() > loop.size() + 1);
}

// Undoes what a test may have left on the device: mounts (innermost first) and swap.
void release(const std::string& loop) {
    std::ifstream swaps("/proc/swaps");
    for (std::string line; std::getline(swaps, line);)
        if (onDevice(firstField(line), loop))
            runProcess({"swapoff", firstField(line)});
    std::vector<std::string> targets;
    std::ifstream mounts("/proc/self/mounts");
    for (std::string line; std::getline(mounts, line);) {
        std::istringstream fields(line);
        std::string dev, target;
        fields >> dev >> target;
        if (onDevice(dev, loop))
            targets.push_back(target);
    }
    for (auto it = targets.rbegin(); it != targets.rend(); ++it)
        runProcess({"umount", *it});
}

void detach(const std::string& loop) {
    release(loop);
    // Without udev the kernel may keep a detached loop device's partitions; the next test to
    // get this device would see them.
    runProcess({"partx", "-d", loop});
    runProcess({"losetup", "-d", loop});
}

} // namespace

void detachLoopDevicesUnder(const std::string& dir) {
    const auto r =
        runProcess({"losetup", "--list", "--noheadings", "--raw", "--output", "NAME,BACK-FILE"});
    const std::string prefix = dir.ends_with("/") ? dir : dir + "/";
    for (const auto& line : lines(r.out)) {
        const auto space = line.find(' ');
        if (space == std::string::npos)
            continue;
        // losetup --raw escapes spaces as \x20; our directories have none.
        if (line.compare(space + 1, prefix.size(), prefix) == 0)
            detach(line.substr(0, space));
    }
}

LoopDevice::LoopDevice(const std::string& file, std::uint64_t bytes) : file_(file) {
    const auto t = runProcess({"truncate", "-s", std::to_string(bytes), file});
    if (t.exitCode != 0) {
        why_ = "truncate failed: " + t.err;
        return;
    }
    const auto r = runProcess({"losetup", "-f", "--show", file});
    if (r.exitCode != 0) {
        why_ = "losetup failed (the kernel needs loop devices and we need root): " + r.err;
        return;
    }
    path_ = lines(r.out).empty() ? "" : lines(r.out).front();
    if (path_.empty()) {
        why_ = "losetup printed no device";
        return;
    }
    // Stale partitions a previous user of this device number left in the kernel.
    runProcess({"partx", "-d", path_});
}

LoopDevice::~LoopDevice() {
    if (!path_.empty())
        detach(path_);
}

} // namespace lb::test
