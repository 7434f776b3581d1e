// Test fixture support: a real OpenSSH server on 127.0.0.1 with throwaway keys. It makes a host
// key and a user key with ssh-keygen in a temporary directory, starts `sshd -D` on a free port,
// writes a known_hosts file holding the host key, and stops exactly the sshd it started.
#pragma once

#include "engine/exec/ssh_runner.h"

#include <string>

namespace lb::test {

class Sshd {
public:
    // available() says whether the server answers; when it does not, why() says what failed.
    Sshd();
    ~Sshd();
    Sshd(const Sshd&) = delete;
    Sshd& operator=(const Sshd&) = delete;

    bool available() const { return available_; }
    const std::string& why() const { return why_; }
    int port() const { return port_; }
    const std::string& dir() const { return dir_; }
    // The current user at 127.0.0.1:port, with the user key and the fixture's known_hosts.
    SshTarget target() const;
    std::string knownHostsFile() const { return dir_ + "/known_hosts"; }
    std::string userKey() const { return dir_ + "/user_key"; }

private:
    std::string dir_;
    int port_ = 0;
    int pid_ = -1;
    bool available_ = false;
    std::string why_;
};

} // namespace lb::test
