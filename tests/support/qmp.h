// A client of qemu's QMP monitor socket, the lab guest's (LabGuest::qmpSocket): a test pulls a
// disk from the running guest through it, as an administrator pulls one from a server. One
// connection per command: the greeting, qmp_capabilities, then the command.
#pragma once

#include <chrono>
#include <string>

namespace lb::test {

struct QmpReply {
    bool ok = false;  // qemu answered "return" (an HMP command's own complaint is its text)
    std::string text; // the HMP command's output, or what went wrong
};

// Runs one human-monitor (HMP) command line, "drive_del disk1" or "device_del dev-disk1",
// through the QMP socket at `socketPath`, waiting at most `timeout` for each answer.
QmpReply qmpHuman(const std::string& socketPath, const std::string& commandLine,
                  std::chrono::seconds timeout = std::chrono::seconds(30));

} // namespace lb::test
