// lb-tgt-account: creates a CHAP account in tgtd (the tgt iSCSI target daemon) with the password
// read from standard input, so that the password is in no process's argv or environment. tgtadm,
// tgt's own client, takes it only as `--password PASS`, which every local user can read in
// /proc/PID/cmdline while tgtadm runs. This program sends tgtd the request that
//   tgtadm [-C PORT] --lld iscsi --mode account --op new --user NAME --password PASS
// sends, over the same management socket (/var/run/tgtd/socket.PORT, or $TGT_IPC_SOCKET.PORT as
// tgtadm reads it): a fixed header (struct tgtadm_req of tgt 1.0.x, usr/tgtadm.h) whose len is
// the header's size plus the parameters', then the parameters "user=NAME,password=PASS" and a
// NUL. tgtd answers {err, len} (struct tgtadm_rsp) and len - 8 bytes of text.
//
//   lb-tgt-account [-C PORT] --user NAME  < password
//
// The password is the first line of stdin (a trailing newline is not part of it). Exit status 0
// when tgtd made the account; 1 when it refused (the reason on stderr, e.g. the account exists)
// or cannot be reached; 2 for usage. Nothing this program prints contains the password.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

// tgt's usr/tgtadm.h (1.0.x): the header of every management request. The layout is the wire
// format: tgtd reads exactly sizeof(tgtadm_req) bytes, then len - sizeof(tgtadm_req) bytes of
// parameters. (`force`, the last field, came later than the others; it sits in what was the
// struct's tail padding, so the header is 120 bytes either way.)
enum TgtadmMode : std::uint32_t { MODE_ACCOUNT = 7 };
enum TgtadmOp : std::uint32_t { OP_NEW = 0 };
constexpr std::size_t kLldNameLen = 64;

struct TgtadmReq {
    std::uint32_t mode;
    std::uint32_t op;
    char lld[kLldNameLen];
    std::uint32_t len;
    std::int32_t tid;
    std::uint64_t sid;
    std::uint64_t lun;
    std::uint32_t cid;
    std::uint32_t hostNo;
    std::uint32_t deviceType;
    std::uint32_t acDir;
    std::uint32_t pack;
    std::uint32_t force;
};
static_assert(sizeof(TgtadmReq) == 120, "tgtd reads a 120-byte request header");
static_assert(offsetof(TgtadmReq, len) == 72 && offsetof(TgtadmReq, sid) == 80 &&
                  offsetof(TgtadmReq, acDir) == 108,
              "the header's fields sit where tgtd reads them");

struct TgtadmRsp {
    std::uint32_t err;
    std::uint32_t len;
};

// tgt's usr/tgtadm_error.h, the errors an account creation can meet.
std::string describe(std::uint32_t err) {
    switch (err) {
    case 2:
        return "tgtd is out of memory";
    case 3:
        return "tgtd has no iscsi driver running";
    case 14:
        return "the account already exists";
    case 16:
        return "tgtd has too many accounts";
    case 17:
        return "tgtd found the request invalid";
    default:
        return "tgtd refused the request (tgtadm error " + std::to_string(err) + ")";
    }
}

struct Usage {
    std::string why;
};

struct Options {
    int controlPort = 0;
    std::string user;
};

Options parseArgs(int argc, char** argv) {
    Options o;
    bool haveUser = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](std::string_view flag) -> std::string {
            if (a.size() > flag.size() && a.starts_with(flag) && a[flag.size()] == '=')
                return std::string(a.substr(flag.size() + 1));
            if (i + 1 >= argc)
                throw Usage{std::string(flag) + " needs a value"};
            return argv[++i];
        };
        if (a == "-C" || a.starts_with("--control-port")) {
            const std::string v = value(a == "-C" ? "-C" : "--control-port");
            char* end = nullptr;
            errno = 0;
            const long port = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || errno != 0 || port < 0 || port > 65535)
                throw Usage{"-C: '" + v + "' is not a port number"};
            o.controlPort = static_cast<int>(port);
        } else if (a.starts_with("--user")) {
            o.user = value("--user");
            haveUser = true;
        } else if (a == "--version") {
            std::printf("lb-tgt-account %s\n", LB_TGT_ACCOUNT_VERSION);
            std::exit(0);
        } else {
            throw Usage{"unknown argument '" + std::string(a) + "'"};
        }
    }
    if (!haveUser)
        throw Usage{"--user is required"};
    // tgtd takes the name up to the first ',' of "user=NAME,password=PASS".
    if (o.user.empty() || o.user.find_first_of(",= \t\r\n") != std::string::npos)
        throw Usage{"--user: the name must be non-empty, without ',', '=' or white space"};
    return o;
}

// The first line of stdin, without its line ending; empty when there is none.
std::string readPassword() {
    std::string in;
    char buf[512];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        in.append(buf, static_cast<std::size_t>(n));
        if (in.size() > 4096 || in.find('\n') != std::string::npos)
            break;
    }
    ::explicit_bzero(buf, sizeof buf);
    const auto eol = in.find('\n');
    std::string line = in.substr(0, eol);
    ::explicit_bzero(in.data(), in.size());
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return line;
}

bool sendAll(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

struct Failure {
    std::string why;
};

void createAccount(const Options& o, std::string& password) {
    const char* base = std::getenv("TGT_IPC_SOCKET");
    const std::string path =
        std::string(base ? base : "/var/run/tgtd/socket") + "." + std::to_string(o.controlPort);
    sockaddr_un addr{};
    addr.sun_family = AF_LOCAL;
    if (path.size() >= sizeof addr.sun_path)
        throw Failure{"management socket path too long: " + path};
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);

    const int fd = ::socket(AF_LOCAL, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        throw Failure{std::string("cannot make a socket: ") + std::strerror(errno)};
    // A stopped tgtd must not hold us forever.
    timeval limit{30, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) < 0) {
        const int e = errno;
        ::close(fd);
        throw Failure{"cannot reach tgtd at " + path + ": " + std::strerror(e) +
                      " (is tgtd running with this control port?)"};
    }

    std::string params = "user=" + o.user + ",password=" + password;
    params.push_back('\0');
    TgtadmReq req{};
    req.mode = MODE_ACCOUNT;
    req.op = OP_NEW;
    std::memcpy(req.lld, "iscsi", 6);
    req.len = static_cast<std::uint32_t>(sizeof req + params.size());
    req.tid = -1;
    req.lun = UINT64_MAX;
    const bool sent = sendAll(fd, &req, sizeof req) && sendAll(fd, params.data(), params.size());
    ::explicit_bzero(params.data(), params.size());
    ::explicit_bzero(password.data(), password.size());
    if (!sent) {
        const int e = errno;
        ::close(fd);
        throw Failure{std::string("cannot send the request to tgtd: ") + std::strerror(e)};
    }
    TgtadmRsp rsp{};
    const ssize_t got = ::recv(fd, &rsp, sizeof rsp, MSG_WAITALL);
    const int e = errno;
    ::close(fd);
    if (got != static_cast<ssize_t>(sizeof rsp))
        throw Failure{got < 0 ? std::string("no answer from tgtd: ") + std::strerror(e)
                              : std::string("tgtd closed the connection without an answer")};
    if (rsp.err != 0)
        throw Failure{"cannot create the account '" + o.user + "': " + describe(rsp.err)};
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parseArgs(argc, argv);
        std::string password = readPassword();
        if (password.empty())
            throw Usage{"no password on stdin (its first line is the password)"};
        createAccount(o, password);
        return 0;
    } catch (const Usage& u) {
        std::fprintf(stderr,
                     "lb-tgt-account: %s (usage: lb-tgt-account [-C PORT] --user NAME < "
                     "password)\n",
                     u.why.c_str());
        return 2;
    } catch (const Failure& f) {
        std::fprintf(stderr, "lb-tgt-account: %s\n", f.why.c_str());
        return 1;
    }
}
