// lb-qmp: one human-monitor command through a qemu's QMP socket, for a drill's pull_command
// (`lb-qmp SOCKET drive_del disk1`: the disk fails as the guest's kernel sees it). Exit status 0
// when qemu took the command and said nothing back (drive_del and device_del answer nothing
// when they work), 1 otherwise with what it said on stderr; --print prints the answer and exits
// 0 whatever it is (`lb-qmp --print SOCKET info block`).
#include "tests/support/qmp.h"

#include <cstdio>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
    int at = 1;
    const bool print = argc > 1 && std::string_view(argv[1]) == "--print";
    if (print)
        ++at;
    if (argc - at < 2) {
        std::fprintf(stderr, "usage: lb-qmp [--print] SOCKET HMP-COMMAND...\n");
        return 2;
    }
    const std::string socket = argv[at++];
    std::string command;
    for (; at < argc; ++at)
        command += (command.empty() ? "" : " ") + std::string(argv[at]);
    const auto reply = lb::test::qmpHuman(socket, command);
    if (print && reply.ok) {
        std::fputs(reply.text.c_str(), stdout);
        return 0;
    }
    if (reply.ok && reply.text.empty())
        return 0;
    std::fprintf(stderr, "lb-qmp: %s: %s\n", command.c_str(), reply.text.c_str());
    return 1;
}
