// The sshd fixture: throwaway keys, a free port, `sshd -D -e` as our child, stopped by its pid.

#include "tests/support/sshd.h"

#include "tests/cli/process.h"
#include "tests/support/ports.h"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <pwd.h>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace lb::test {

namespace {

constexpr const char* kSshd = "/usr/sbin/sshd";

sockaddr_in loopback(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return addr;
}

bool accepts(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    auto addr = loopback(port);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string currentUser() {
    if (const passwd* pw = ::getpwuid(::getuid()))
        return pw->pw_name;
    return "root";
}

} // namespace

Sshd::Sshd() {
    if (::access(kSshd, X_OK) != 0) {
        why_ = std::string(kSshd) + " is not installed (apt-get install openssh-server)";
        return;
    }
    std::string tmpl = (std::filesystem::temp_directory_path() / "lb-sshd-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) {
        why_ = "cannot make a temporary directory";
        return;
    }
    dir_ = tmpl;
    for (const char* key : {"host_key", "user_key"}) {
        const auto r = runProcess({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                   "layoutbench-test", "-f", dir_ + "/" + key});
        if (r.exitCode != 0) {
            why_ = std::string("ssh-keygen failed: ") + r.err;
            return;
        }
    }
    std::filesystem::copy_file(dir_ + "/user_key.pub", dir_ + "/authorized_keys");
    // Debian's sshd refuses to start without its privilege separation directory.
    std::error_code ec;
    std::filesystem::create_directories("/run/sshd", ec);

    port_ = freeLoopbackPort();
    if (port_ == 0) {
        why_ = "no free port on 127.0.0.1";
        return;
    }
    {
        std::ofstream known(knownHostsFile());
        known << "[127.0.0.1]:" << port_ << " " << slurp(dir_ + "/host_key.pub");
    }

    const std::vector<std::string> argv = {kSshd,
                                           "-D",
                                           "-e",
                                           "-f",
                                           "/dev/null",
                                           "-p",
                                           std::to_string(port_),
                                           "-h",
                                           dir_ + "/host_key",
                                           "-o",
                                           "ListenAddress=127.0.0.1",
                                           "-o",
                                           "AuthorizedKeysFile=" + dir_ + "/authorized_keys",
                                           "-o",
                                           "PidFile=" + dir_ + "/sshd.pid",
                                           "-o",
                                           "StrictModes=no",
                                           "-o",
                                           "UsePAM=no",
                                           "-o",
                                           "PermitRootLogin=prohibit-password",
                                           "-o",
                                           "PasswordAuthentication=no"};
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string log = dir_ + "/sshd.log";
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, kSshd, &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        why_ = "cannot start sshd";
        return;
    }
    pid_ = pid;
    for (int i = 0; i < 100; ++i) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            why_ = "sshd exited at start: " + slurp(log);
            return;
        }
        if (accepts(port_)) {
            available_ = true;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    why_ = "sshd does not accept connections within 10 s: " + slurp(log);
}

Sshd::~Sshd() {
    if (pid_ > 0) {
        ::kill(pid_, SIGTERM);
        bool gone = false;
        for (int i = 0; i < 50 && !gone; ++i) {
            gone = ::waitpid(pid_, nullptr, WNOHANG) == pid_;
            if (!gone)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (!gone) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    if (!dir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
}

SshTarget Sshd::target() const {
    SshTarget t;
    t.user = currentUser();
    t.host = "127.0.0.1";
    t.port = port_;
    t.identityFile = userKey();
    t.knownHostsFile = knownHostsFile();
    return t;
}

} // namespace lb::test
