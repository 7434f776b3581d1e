#include "tests/support/qmp.h"

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

namespace lb::test {

namespace {

// One connection to the monitor, its messages one JSON object a line.
class Connection {
public:
    explicit Connection(int fd) : fd_(fd) {}
    ~Connection() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    bool send(const nlohmann::json& message) {
        const std::string text = message.dump() + "\n";
        for (std::size_t at = 0; at < text.size();) {
            const auto n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            at += static_cast<std::size_t>(n);
        }
        return true;
    }

    // The next message that is not an event (qemu sends events when they happen); none when
    // the socket closed or said nothing within the timeout.
    bool next(nlohmann::json& out) {
        for (;;) {
            const auto eol = buffer_.find('\n');
            if (eol == std::string::npos) {
                char chunk[4096];
                const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
                if (n <= 0)
                    return false;
                buffer_.append(chunk, static_cast<std::size_t>(n));
                continue;
            }
            const std::string line = buffer_.substr(0, eol);
            buffer_.erase(0, eol + 1);
            auto message = nlohmann::json::parse(line, nullptr, false);
            if (message.is_discarded() || message.contains("event"))
                continue;
            out = std::move(message);
            return true;
        }
    }

private:
    int fd_;
    std::string buffer_;
};

// What qemu answered a command: its return value, or its error's description.
QmpReply answer(Connection& c, const nlohmann::json& command) {
    nlohmann::json reply;
    if (!c.send(command) || !c.next(reply))
        return {false, "no answer from the monitor to " + command.dump()};
    if (reply.contains("error"))
        return {false, reply["error"].value("desc", reply.dump())};
    if (!reply.contains("return"))
        return {false, "an unexpected answer: " + reply.dump()};
    const auto& value = reply["return"];
    return {true, value.is_string() ? value.get<std::string>() : std::string()};
}

} // namespace

QmpReply qmpHuman(const std::string& socketPath, const std::string& commandLine,
                  std::chrono::seconds timeout) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof addr.sun_path)
        return {false, "the socket path is too long: " + socketPath};
    std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {false, std::string("socket: ") + std::strerror(errno)};
    Connection c(fd);
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count());
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
        return {false, "cannot reach the monitor at " + socketPath + ": " + std::strerror(errno)};
    nlohmann::json greeting;
    if (!c.next(greeting) || !greeting.contains("QMP"))
        return {false, "no QMP greeting at " + socketPath};
    if (auto r = answer(c, {{"execute", "qmp_capabilities"}}); !r.ok)
        return r;
    return answer(
        c, {{"execute", "human-monitor-command"}, {"arguments", {{"command-line", commandLine}}}});
}

} // namespace lb::test
