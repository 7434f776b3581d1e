// What both transports use: one poll of the connection, library messages on one line, a bounded
// TCP connect that names what could not be reached, the parts of a URL, and the bytes written.
#include "netload.h"

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lbnetload {

int pollOnce(Transport& t) {
    const int ev = t.events();
    pollfd p{t.fd(), static_cast<short>(ev), 0};
    if (ev == 0 || p.fd < 0) {
        poll(nullptr, 0, 100);
        return 0;
    }
    const int n = poll(&p, 1, 100);
    if (n < 0 && errno != EINTR)
        throw Failure(std::string("poll: ") + std::strerror(errno));
    return n > 0 ? p.revents : 0;
}

std::string oneLine(std::string s) {
    for (auto& c : s)
        if (c == '\n' || c == '\r')
            c = ' ';
    while (!s.empty() && (s.back() == ' ' || s.back() == '.'))
        s.pop_back();
    return s;
}

void checkReachable(const std::string& where, const std::string& host, const std::string& port,
                    int timeoutSeconds, const std::string& what) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &res); rc != 0)
        throw Failure(where + ": cannot resolve " + host + ": " + gai_strerror(rc));
    std::string lastError = "no address";
    bool ok = false;
    for (addrinfo* a = res; a && !ok; a = a->ai_next) {
        const int s = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK, a->ai_protocol);
        if (s < 0) {
            lastError = std::strerror(errno);
            continue;
        }
        if (connect(s, a->ai_addr, a->ai_addrlen) == 0) {
            ok = true;
        } else if (errno == EINPROGRESS) {
            pollfd p{s, POLLOUT, 0};
            const int n = poll(&p, 1, timeoutSeconds * 1000);
            int err = 0;
            socklen_t len = sizeof err;
            if (n == 0)
                lastError = "no answer within " + std::to_string(timeoutSeconds) + " s";
            else if (n > 0 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
                ok = true;
            else
                lastError = std::strerror(err != 0 ? err : errno);
        } else {
            lastError = std::strerror(errno);
        }
        close(s);
    }
    freeaddrinfo(res);
    if (!ok)
        throw Failure(where + ": cannot reach " + what + " at " + host + ":" + port + ": " +
                      lastError);
}

std::pair<std::string, std::string> splitHostPort(const std::string& s, const std::string& dflt) {
    if (s.starts_with('[')) {
        const auto close = s.find(']');
        const std::string host = s.substr(1, close - 1);
        if (close + 1 < s.size() && s[close + 1] == ':')
            return {host, s.substr(close + 2)};
        return {host, dflt};
    }
    const auto colon = s.find(':');
    if (colon != std::string::npos && s.find(':', colon + 1) == std::string::npos)
        return {s.substr(0, colon), s.substr(colon + 1)};
    return {s, dflt};
}

std::string queryValue(const std::string& url, const std::string& key) {
    const auto q = url.find('?');
    if (q == std::string::npos)
        return {};
    std::size_t pos = q + 1;
    while (pos < url.size()) {
        auto amp = url.find('&', pos);
        if (amp == std::string::npos)
            amp = url.size();
        const std::string item = url.substr(pos, amp - pos);
        if (item.starts_with(key + "="))
            return item.substr(key.size() + 1);
        pos = amp + 1;
    }
    return {};
}

std::vector<unsigned char> writePattern(std::uint64_t bs, std::uint64_t seed) {
    std::vector<unsigned char> buf(bs);
    std::mt19937_64 rng(seed ^ 0x5eedULL);
    for (auto& b : buf)
        b = static_cast<unsigned char>(rng());
    return buf;
}

} // namespace lbnetload
