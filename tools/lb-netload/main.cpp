// lb-netload: a userspace load generator on libiscsi and libnfs. Runs one job (sequential or
// random, read or write, block size, queue depth, for a time or a number of bytes) against an
// iSCSI LUN or an NFS file with the libraries' async APIs and one poll loop, and prints one JSON
// object shaped like fio's per-job JSON, so layoutbench's fio parser reads it. Every network
// step has a timeout: an unreachable portal, a wrong IQN or LUN, a refused export or a server
// that dies mid-run ends with exit status 1 and one line on stderr, never a hang.
//
//   lb-netload URL --rw read|write|randread|randwrite --bs 4k --iodepth 32
//              (--runtime SEC [--size BYTES] | --size BYTES) [--name JOB] [--timeout SEC]
//              [--chap-user NAME --chap-secret-fd FD]
//   URL: iscsi://HOST[:PORT]/IQN/LUN or nfs://HOST/EXPORT/FILE[?version=4]
// A CHAP secret is read from file descriptor FD (0: stdin, its first line), never taken from the
// command line, where every local user could read it (/proc/PID/cmdline): an iSCSI URL with
// user%secret@ is refused. Nothing this program prints contains the secret.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <errno.h>
#include <fcntl.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <memory>
#include <netdb.h>
#include <nfsc/libnfs.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <poll.h>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const char* const toolVersion = "lb-netload-" LB_NETLOAD_VERSION " (libiscsi " LB_LIBISCSI_VERSION
                                ", libnfs " LB_LIBNFS_VERSION ")";

// A failure the user can act on: printed as one line, exit status 1 (2 for usage).
struct Failure : std::runtime_error {
    int status;
    Failure(const std::string& what, int exitStatus = 1)
        : std::runtime_error(what), status(exitStatus) {}
};

[[noreturn]] void usage(const std::string& what) {
    throw Failure(what + " (usage: lb-netload URL --rw read|write|randread|randwrite --bs SIZE "
                         "--iodepth N (--runtime SEC | --size BYTES) [--name JOB] [--timeout SEC] "
                         "[--chap-user NAME --chap-secret-fd FD])",
                  2);
}

struct Options {
    std::string url;
    std::string rw = "read";
    std::uint64_t bs = 4096;
    int iodepth = 1;
    std::optional<int> runtime;
    std::optional<std::uint64_t> size;
    std::string name = "netload";
    int timeout = 10; // seconds, for every network step
    std::uint64_t seed = 1;
    std::string chapUser;            // empty: no CHAP
    std::optional<int> chapSecretFd; // where the CHAP secret is read from
    std::string chapSecret;          // read from chapSecretFd after parsing
    bool isWrite() const { return rw == "write" || rw == "randwrite"; }
    bool isRandom() const { return rw == "randread" || rw == "randwrite"; }
};

std::uint64_t parseSize(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    unsigned long long n = 0;
    try {
        n = std::stoull(text, &used);
    } catch (const std::exception&) {
        usage(flag + ": '" + text + "' is not a size");
    }
    std::string suffix = text.substr(used);
    for (auto& c : suffix)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (suffix.ends_with("ib"))
        suffix.erase(suffix.size() - 2);
    else if (suffix.size() == 2 && suffix.back() == 'b')
        suffix.pop_back();
    std::uint64_t mult = 1;
    if (suffix == "k")
        mult = 1ULL << 10;
    else if (suffix == "m")
        mult = 1ULL << 20;
    else if (suffix == "g")
        mult = 1ULL << 30;
    else if (suffix == "t")
        mult = 1ULL << 40;
    else if (!suffix.empty() && suffix != "b")
        usage(flag + ": '" + text + "' has an unknown unit (k, m, g, t: powers of 1024)");
    return n * mult;
}

int parseInt(const std::string& flag, const std::string& text, int min, int max) {
    std::size_t used = 0;
    long v = 0;
    try {
        v = std::stol(text, &used);
    } catch (const std::exception&) {
        usage(flag + ": '" + text + "' is not a number");
    }
    if (used != text.size() || v < min || v > max)
        usage(flag + ": '" + text + "' is not a number from " + std::to_string(min) + " to " +
              std::to_string(max));
    return static_cast<int>(v);
}

Options parseArgs(int argc, char** argv) {
    Options o;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::string value;
        const bool isFlag = flag.starts_with("--");
        if (isFlag && flag != "--version" && flag != "--help") {
            if (const auto eq = flag.find('='); eq != std::string::npos) {
                value = flag.substr(eq + 1);
                flag.erase(eq);
            } else if (i + 1 < args.size()) {
                value = args[++i];
            } else {
                usage(flag + ": needs a value");
            }
        }
        if (flag == "--version") {
            std::printf("%s\n", toolVersion);
            std::exit(0);
        } else if (flag == "--help") {
            usage("help");
        } else if (flag == "--rw") {
            if (value != "read" && value != "write" && value != "randread" && value != "randwrite")
                usage("--rw: '" + value + "' is not read, write, randread or randwrite");
            o.rw = value;
        } else if (flag == "--bs") {
            o.bs = parseSize(flag, value);
            if (o.bs == 0 || o.bs > (16ULL << 20))
                usage("--bs: must be from 1 byte to 16 MiB");
        } else if (flag == "--iodepth") {
            o.iodepth = parseInt(flag, value, 1, 1024);
        } else if (flag == "--runtime") {
            o.runtime = parseInt(flag, value, 1, 86400);
        } else if (flag == "--size") {
            o.size = parseSize(flag, value);
        } else if (flag == "--name") {
            if (value.empty())
                usage("--name: empty");
            o.name = value;
        } else if (flag == "--timeout") {
            o.timeout = parseInt(flag, value, 1, 3600);
        } else if (flag == "--seed") {
            o.seed = parseSize(flag, value);
        } else if (flag == "--chap-user") {
            if (value.empty() || value.find_first_of("%@/:") != std::string::npos)
                usage("--chap-user: empty, or has one of % @ / :");
            o.chapUser = value;
        } else if (flag == "--chap-secret-fd") {
            o.chapSecretFd = parseInt(flag, value, 0, 65535);
        } else if (isFlag) {
            usage("unknown option " + flag);
        } else if (o.url.empty()) {
            o.url = flag;
        } else {
            usage("more than one URL: " + flag);
        }
    }
    if (o.url.empty())
        usage("no URL");
    if (!o.runtime && !o.size)
        usage("give --runtime or --size");
    if (o.size && *o.size < o.bs)
        usage("--size is smaller than one block of --bs");
    if (o.url.starts_with("iscsi://") &&
        o.url.substr(8, o.url.find('/', 8) - 8).find('@') != std::string::npos)
        usage("the iSCSI URL names a user: give CHAP with --chap-user and --chap-secret-fd, so "
              "that no secret is on the command line");
    if (o.chapUser.empty() != !o.chapSecretFd)
        usage("CHAP needs both --chap-user and --chap-secret-fd");
    if (!o.chapUser.empty() && !o.url.starts_with("iscsi://"))
        usage("--chap-user is for iscsi:// URLs");
    return o;
}

// libiscsi's and libnfs's messages end in newlines and dots; the error is one line.
std::string oneLine(std::string s) {
    for (auto& c : s)
        if (c == '\n' || c == '\r')
            c = ' ';
    while (!s.empty() && (s.back() == ' ' || s.back() == '.'))
        s.pop_back();
    return s;
}

// A TCP connect to HOST:PORT bounded by the timeout, before the library tries: libiscsi reports
// a refused connection as "Can not reconnect right now", so this names the portal and errno.
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

// The first line of file descriptor `fd` (without its line ending): the CHAP secret. Read once,
// before anything else, and kept in memory only.
std::string readSecret(int fd) {
    std::string in;
    char buf[512];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw Failure("--chap-secret-fd " + std::to_string(fd) +
                              ": cannot read the CHAP secret: " + std::strerror(errno),
                          2);
        if (n == 0)
            break;
        in.append(buf, static_cast<std::size_t>(n));
        if (in.find('\n') != std::string::npos || in.size() > 4096)
            break;
    }
    std::string secret = in.substr(0, in.find('\n'));
    if (!secret.empty() && secret.back() == '\r')
        secret.pop_back();
    if (secret.empty())
        throw Failure("--chap-secret-fd " + std::to_string(fd) + ": no CHAP secret to read", 2);
    return secret;
}

// Text with the CHAP secret written as ****: what this program prints, so that neither its JSON
// nor its messages (which quote libiscsi's errors) carry the secret.
std::string scrubbed(std::string text, const std::string& secret) {
    if (secret.empty())
        return text;
    for (auto pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos + 4))
        text.replace(pos, secret.size(), "****");
    return text;
}

// "host", "host:port", "[v6]" or "[v6]:port".
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

// The value of KEY in the URL's query string, or empty.
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

// ---- The transport: one connection, async submission, one fd to poll ----

struct Slot;

class Transport {
public:
    virtual ~Transport() = default;
    virtual int fd() = 0;
    virtual int events() = 0;
    // False when the connection is broken beyond use; error() says why.
    virtual bool service(int revents) = 0;
    virtual std::string error() = 0;
    virtual bool submit(Slot& slot) = 0;
    virtual std::uint64_t regionBytes() const = 0;
    virtual std::string where() const = 0;
};

class Driver;

struct Slot {
    Driver* driver = nullptr;
    std::uint64_t offset = 0;
    Clock::time_point started;
    bool busy = false;
};

// Polls a transport until `done()` or the deadline; a step that does not finish in time, or a
// broken connection, is a Failure naming `step`.
template <typename Done>
void pollUntil(Transport& t, Done done, int timeoutSeconds, const std::string& step) {
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
    while (!done()) {
        if (Clock::now() > deadline)
            throw Failure(t.where() + ": " + step + ": no answer within " +
                          std::to_string(timeoutSeconds) + " s");
        const int ev = t.events();
        pollfd p{t.fd(), static_cast<short>(ev), 0};
        int revents = 0;
        if (ev != 0 && p.fd >= 0) {
            const int n = poll(&p, 1, 100);
            if (n < 0 && errno != EINTR)
                throw Failure(std::string("poll: ") + std::strerror(errno));
            revents = n > 0 ? p.revents : 0;
        } else {
            poll(nullptr, 0, 100);
        }
        // Called with no events too: both libraries run their timeouts from service.
        if (!t.service(revents) && !done())
            throw Failure(t.where() + ": " + step + ": " + t.error());
    }
}

// ---- The measured job ----

class Driver {
public:
    Driver(const Options& o, Transport& t) : o_(o), t_(t), rng_(o.seed) {}

    void run() {
        const std::uint64_t region =
            (std::min(t_.regionBytes(), o_.size.value_or(UINT64_MAX)) / o_.bs) * o_.bs;
        if (region < o_.bs)
            throw Failure(t_.where() + ": the target holds less than one " + std::to_string(o_.bs) +
                          "-byte block");
        blocks_ = region / o_.bs;
        byteLimit_ = o_.runtime ? UINT64_MAX : *o_.size;
        slots_.resize(static_cast<std::size_t>(o_.iodepth));
        for (auto& s : slots_)
            s.driver = this;
        latencies_.reserve(1 << 20);

        start_ = Clock::now();
        if (o_.runtime)
            stopAt_ = start_ + std::chrono::seconds(*o_.runtime);
        lastProgress_ = start_;
        for (;;) {
            if (!error_.empty())
                throw Failure(t_.where() + ": " + error_);
            for (auto& s : slots_)
                if (!s.busy && moreToSubmit())
                    submit(s);
            if (inflight_ == 0 && !moreToSubmit())
                break;
            const auto now = Clock::now();
            if (now - lastProgress_ > std::chrono::seconds(o_.timeout))
                throw Failure(t_.where() + ": no I/O completed for " + std::to_string(o_.timeout) +
                              " s (" + std::to_string(inflight_) +
                              " in flight): the server stopped answering");
            const int ev = t_.events();
            pollfd p{t_.fd(), static_cast<short>(ev), 0};
            int revents = 0;
            if (ev != 0 && p.fd >= 0) {
                const int n = poll(&p, 1, 100);
                if (n < 0 && errno != EINTR)
                    throw Failure(std::string("poll: ") + std::strerror(errno));
                revents = n > 0 ? p.revents : 0;
            } else {
                poll(nullptr, 0, 100);
            }
            if (!t_.service(revents)) {
                if (!error_.empty())
                    throw Failure(t_.where() + ": " + error_);
                throw Failure(t_.where() + ": connection lost: " + t_.error());
            }
        }
    }

    std::uint64_t blockSize() const { return o_.bs; }

    void completed(Slot& s, bool ok, const std::string& why) {
        const auto now = Clock::now();
        s.busy = false;
        --inflight_;
        if (!ok) {
            if (error_.empty())
                error_ = std::string(o_.isWrite() ? "write" : "read") + " at offset " +
                         std::to_string(s.offset) + " failed: " + why;
            return;
        }
        lastProgress_ = now;
        end_ = now;
        bytesDone_ += o_.bs;
        latencies_.push_back(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - s.started).count()));
    }

    nlohmann::ordered_json report() const {
        using nlohmann::ordered_json;
        const double runtimeNs = static_cast<double>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(end_ - start_).count());
        std::vector<std::uint64_t> sorted = latencies_;
        std::sort(sorted.begin(), sorted.end());
        const auto pct = [&](double p) -> std::uint64_t {
            if (sorted.empty())
                return 0;
            // Nearest rank, as fio reports a percentile: the smallest value with at least p % of
            // the samples at or below it.
            const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
            const auto idx = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
            return sorted[std::min(idx, sorted.size() - 1)];
        };
        double sum = 0;
        for (const auto v : sorted)
            sum += static_cast<double>(v);
        const double ios = static_cast<double>(sorted.size());
        const double mean = sorted.empty() ? 0 : sum / ios;
        const double seconds = runtimeNs / 1e9;

        ordered_json lat = {{"min", sorted.empty() ? 0 : sorted.front()},
                            {"max", sorted.empty() ? 0 : sorted.back()},
                            {"mean", mean}};
        ordered_json clat = lat;
        clat["percentile"] = {
            {"50.000000", pct(50)}, {"99.000000", pct(99)}, {"99.900000", pct(99.9)}};
        ordered_json measured = {
            {"io_bytes", bytesDone_},
            {"io_kbytes", bytesDone_ / 1024},
            {"bw_bytes", seconds > 0
                             ? static_cast<std::uint64_t>(static_cast<double>(bytesDone_) / seconds)
                             : 0},
            {"iops", seconds > 0 ? ios / seconds : 0.0},
            {"runtime", static_cast<std::uint64_t>(runtimeNs / 1e6)},
            {"total_ios", sorted.size()},
            // Submission to completion: lb-netload has no separate submission latency.
            {"clat_ns", clat},
            {"lat_ns", lat}};
        const ordered_json idle = {{"io_bytes", 0},
                                   {"io_kbytes", 0},
                                   {"bw_bytes", 0},
                                   {"iops", 0.0},
                                   {"runtime", 0},
                                   {"total_ios", 0},
                                   {"lat_ns", {{"min", 0}, {"max", 0}, {"mean", 0.0}}}};
        ordered_json job = {{"jobname", o_.name},
                            {"groupid", 0},
                            {"error", 0},
                            {"job options",
                             {{"url", o_.url},
                              {"rw", o_.rw},
                              {"bs", std::to_string(o_.bs)},
                              {"iodepth", std::to_string(o_.iodepth)},
                              {"runtime", o_.runtime ? std::to_string(*o_.runtime) : ""},
                              {"size", o_.size ? std::to_string(*o_.size) : ""}}},
                            {"read", o_.isWrite() ? idle : measured},
                            {"write", o_.isWrite() ? measured : idle}};
        return {{"lb-netload version", toolVersion}, {"jobs", ordered_json::array({job})}};
    }

private:
    bool moreToSubmit() const {
        if (!error_.empty())
            return false;
        if (o_.runtime)
            return Clock::now() < stopAt_;
        return bytesSubmitted_ < byteLimit_;
    }

    void submit(Slot& s) {
        std::uint64_t block = 0;
        if (o_.isRandom()) {
            block = std::uniform_int_distribution<std::uint64_t>(0, blocks_ - 1)(rng_);
        } else {
            block = nextBlock_;
            nextBlock_ = (nextBlock_ + 1) % blocks_;
        }
        s.offset = block * o_.bs;
        s.started = Clock::now();
        s.busy = true;
        ++inflight_;
        bytesSubmitted_ += o_.bs;
        if (!t_.submit(s)) {
            s.busy = false;
            --inflight_;
            throw Failure(t_.where() + ": cannot queue I/O: " + t_.error());
        }
    }

    const Options& o_;
    Transport& t_;
    std::mt19937_64 rng_;
    std::vector<Slot> slots_;
    std::vector<std::uint64_t> latencies_;
    std::uint64_t blocks_ = 0;
    std::uint64_t nextBlock_ = 0;
    std::uint64_t byteLimit_ = 0;
    std::uint64_t bytesSubmitted_ = 0;
    std::uint64_t bytesDone_ = 0;
    int inflight_ = 0;
    Clock::time_point start_;
    Clock::time_point end_;
    Clock::time_point stopAt_;
    Clock::time_point lastProgress_;
    std::string error_;
};

std::vector<unsigned char> writePattern(std::uint64_t bs, std::uint64_t seed) {
    std::vector<unsigned char> buf(bs);
    std::mt19937_64 rng(seed ^ 0x5eedULL);
    for (auto& b : buf)
        b = static_cast<unsigned char>(rng());
    return buf;
}

// ---- iSCSI over libiscsi ----

class IscsiTransport final : public Transport {
public:
    IscsiTransport(const Options& o) : o_(o), pattern_(writePattern(o.bs, o.seed)) {
        ctx_ = iscsi_create_context("iqn.2026-11.org.layoutbench:lb-netload");
        if (!ctx_)
            throw Failure("iscsi: cannot create a libiscsi context");
        url_ = iscsi_parse_full_url(ctx_, o.url.c_str());
        if (!url_)
            throw Failure(o.url + ": not an iSCSI LUN URL (iscsi://HOST[:PORT]/IQN/LUN): " +
                              iscsi_get_error(ctx_),
                          2);
        where_ = std::string("iscsi://") + url_->portal + "/" + url_->target + "/" +
                 std::to_string(url_->lun);
        // A dropped session is an error to report, not something to retry for ever.
        iscsi_set_noautoreconnect(ctx_, 1);
        iscsi_set_reconnect_max_retries(ctx_, 0);
        iscsi_set_timeout(ctx_, o.timeout);
        iscsi_set_tcp_user_timeout(ctx_, o.timeout * 1000);
        iscsi_set_tcp_syncnt(ctx_, 2);
        iscsi_set_session_type(ctx_, ISCSI_SESSION_NORMAL);
        iscsi_set_header_digest(ctx_, ISCSI_HEADER_DIGEST_NONE_CRC32C);
        iscsi_set_targetname(ctx_, url_->target);
        if (!o.chapUser.empty())
            iscsi_set_initiator_username_pwd(ctx_, o.chapUser.c_str(), o.chapSecret.c_str());

        const auto [host, port] = splitHostPort(url_->portal, "3260");
        checkReachable(where_, host, port, o.timeout, "an iSCSI portal");

        bool done = false;
        int status = 0;
        auto step = Step{&done, &status, nullptr};
        if (iscsi_full_connect_async(ctx_, url_->portal, url_->lun, &IscsiTransport::stepDone,
                                     &step) != 0)
            throw Failure(where_ + ": cannot connect: " + iscsi_get_error(ctx_));
        pollUntil(
            *this, [&] { return done; }, o.timeout, "connect and login");
        if (status != SCSI_STATUS_GOOD)
            throw Failure(where_ + ": login to target " + url_->target + " LUN " +
                          std::to_string(url_->lun) + " failed: " + iscsi_get_error(ctx_));
        loggedIn_ = true;

        done = false;
        scsi_task* task =
            iscsi_readcapacity16_task(ctx_, url_->lun, &IscsiTransport::stepDone, &step);
        if (!task)
            throw Failure(where_ + ": cannot queue READ CAPACITY: " + iscsi_get_error(ctx_));
        pollUntil(
            *this, [&] { return done; }, o.timeout, "READ CAPACITY(16)");
        if (status != SCSI_STATUS_GOOD || !step.task) {
            if (step.task)
                scsi_free_scsi_task(step.task);
            throw Failure(where_ + ": READ CAPACITY(16) failed on LUN " +
                          std::to_string(url_->lun) + ": " + iscsi_get_error(ctx_));
        }
        auto* cap = static_cast<scsi_readcapacity16*>(scsi_datain_unmarshall(step.task));
        if (!cap) {
            scsi_free_scsi_task(step.task);
            throw Failure(where_ + ": cannot read the READ CAPACITY(16) reply");
        }
        blockSize_ = cap->block_length;
        capacity_ = (cap->returned_lba + 1) * blockSize_;
        scsi_free_scsi_task(step.task);
        if (blockSize_ == 0 || o.bs % blockSize_ != 0)
            throw Failure(where_ + ": --bs " + std::to_string(o.bs) +
                              " is not a multiple of the LUN's " + std::to_string(blockSize_) +
                              "-byte blocks",
                          2);
    }

    ~IscsiTransport() override {
        if (ctx_) {
            if (loggedIn_ && healthy_) {
                // Bounded: a logout that gets no answer is dropped with the context.
                iscsi_set_timeout(ctx_, 2);
                iscsi_logout_sync(ctx_);
            }
            iscsi_destroy_context(ctx_);
        }
        if (url_)
            iscsi_destroy_url(url_);
    }

    int fd() override { return iscsi_get_fd(ctx_); }
    int events() override { return iscsi_which_events(ctx_); }
    bool service(int revents) override {
        if (iscsi_service(ctx_, revents) < 0) {
            healthy_ = false;
            return false;
        }
        return true;
    }
    std::string error() override {
        const char* e = iscsi_get_error(ctx_);
        return e && *e ? oneLine(e) : "unknown libiscsi error";
    }
    std::uint64_t regionBytes() const override { return capacity_; }
    std::string where() const override { return where_; }

    bool submit(Slot& s) override {
        const auto lba = s.offset / blockSize_;
        const auto len = static_cast<std::uint32_t>(o_.bs);
        const int bsz = static_cast<int>(blockSize_);
        scsi_task* t = o_.isWrite()
                           ? iscsi_write16_task(ctx_, url_->lun, lba, pattern_.data(), len, bsz, 0,
                                                0, 0, 0, 0, &IscsiTransport::ioDone, &s)
                           : iscsi_read16_task(ctx_, url_->lun, lba, len, bsz, 0, 0, 0, 0, 0,
                                               &IscsiTransport::ioDone, &s);
        return t != nullptr;
    }

private:
    struct Step {
        bool* done;
        int* status;
        scsi_task* task;
    };

    static void stepDone(iscsi_context*, int status, void* data, void* priv) {
        auto* s = static_cast<Step*>(priv);
        *s->done = true;
        *s->status = status;
        s->task = static_cast<scsi_task*>(data);
    }

    static void ioDone(iscsi_context* ctx, int status, void* data, void* priv) {
        auto* slot = static_cast<Slot*>(priv);
        auto* task = static_cast<scsi_task*>(data);
        std::string why;
        if (status != SCSI_STATUS_GOOD) {
            why = iscsi_get_error(ctx);
            if (task && status == SCSI_STATUS_CHECK_CONDITION)
                why = std::string("SCSI ") + scsi_sense_key_str(task->sense.key) + "/" +
                      scsi_sense_ascq_str(task->sense.ascq);
        }
        if (task)
            scsi_free_scsi_task(task);
        slot->driver->completed(*slot, status == SCSI_STATUS_GOOD, why);
    }

    const Options& o_;
    std::vector<unsigned char> pattern_;
    iscsi_context* ctx_ = nullptr;
    iscsi_url* url_ = nullptr;
    std::string where_;
    std::uint64_t blockSize_ = 512;
    std::uint64_t capacity_ = 0;
    bool loggedIn_ = false;
    bool healthy_ = true;
};

// ---- NFS over libnfs ----

class NfsTransport final : public Transport {
public:
    NfsTransport(const Options& o) : o_(o), pattern_(writePattern(o.bs, o.seed)) {
        ctx_ = nfs_init_context();
        if (!ctx_)
            throw Failure("nfs: cannot create a libnfs context");
        url_ = nfs_parse_url_full(ctx_, o.url.c_str());
        if (!url_)
            throw Failure(o.url + ": not an NFS file URL (nfs://HOST/EXPORT/FILE[?version=4]): " +
                              nfs_get_error(ctx_),
                          2);
        where_ = o.url;
        nfs_set_timeout(ctx_, o.timeout * 1000);
        nfs_set_autoreconnect(ctx_, 0);

        // NFSv4 talks to the NFS port alone; NFSv3 asks the portmapper first.
        const bool v4 = queryValue(o.url, "version") == "4";
        const std::string nfsPort = queryValue(o.url, "nfsport");
        if (v4)
            checkReachable(where_, url_->server, nfsPort.empty() ? "2049" : nfsPort, o.timeout,
                           "an NFSv4 server");
        else if (nfsPort.empty() || queryValue(o.url, "mountport").empty())
            checkReachable(where_, url_->server, "111", o.timeout, "rpcbind (NFSv3 portmapper)");

        Step step;
        if (nfs_mount_async(ctx_, url_->server, url_->path, &NfsTransport::stepDone, &step) != 0)
            throw Failure(where_ + ": cannot mount " + url_->path + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o.timeout, "mount");
        if (step.status != 0)
            throw Failure(where_ + ": mounting export " + url_->path + " from " + url_->server +
                          " failed: " + step.message);

        // libnfs 4.0 creates NFSv4 files exclusively, so O_CREAT fails on an existing file with
        // NFS4ERR_EXIST: open first, create only when the file is missing.
        step = open(o.isWrite() ? O_RDWR : O_RDONLY);
        if (o.isWrite() && step.status == -ENOENT)
            step = open(O_RDWR | O_CREAT);
        if (step.status != 0)
            throw Failure(where_ + ": opening " + url_->file + " failed: " + step.message);
        fh_ = static_cast<nfsfh*>(step.data);

        step = Step{};
        if (nfs_fstat64_async(ctx_, fh_, &NfsTransport::statDone, &step) != 0)
            throw Failure(where_ + ": cannot stat " + url_->file + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o.timeout, "stat");
        if (step.status != 0)
            throw Failure(where_ + ": stat of " + url_->file + " failed: " + step.message);
        fileSize_ = step.size;
        if (o.isWrite()) {
            if (!o.size && fileSize_ < o.bs)
                throw Failure(where_ + ": writing a new or empty file needs --size (the region "
                                       "to write)",
                              2);
            region_ = o.size ? *o.size : fileSize_;
        } else {
            region_ = fileSize_;
        }
    }

    ~NfsTransport() override {
        if (ctx_) {
            // Sync close and unmount would wait on a dead server; the context going away closes
            // the connection, and an NFSv3 server keeps no state that needs the unmount.
            if (healthy_ && fh_) {
                Step step;
                if (nfs_close_async(ctx_, fh_, &NfsTransport::stepDone, &step) == 0) {
                    try {
                        pollUntil(
                            *this, [&] { return step.done; }, 2, "close");
                    } catch (const Failure&) {
                    }
                }
            }
            nfs_destroy_context(ctx_);
        }
        if (url_)
            nfs_destroy_url(url_);
    }

    int fd() override { return nfs_get_fd(ctx_); }
    int events() override { return nfs_which_events(ctx_); }
    bool service(int revents) override {
        if (nfs_service(ctx_, revents) < 0) {
            healthy_ = false;
            return false;
        }
        return true;
    }
    std::string error() override {
        const char* e = nfs_get_error(ctx_);
        std::string msg = e && *e ? oneLine(e) : "unknown libnfs error";
        if (msg.find("COMPOUND4args") != std::string::npos && o_.isWrite())
            msg += " (libnfs " LB_LIBNFS_VERSION " cannot encode NFSv4 WRITE; use version=3)";
        return msg;
    }
    std::uint64_t regionBytes() const override { return region_; }
    std::string where() const override { return where_; }

    bool submit(Slot& s) override {
        const int rc = o_.isWrite()
                           ? nfs_pwrite_async(ctx_, fh_, s.offset, o_.bs, pattern_.data(),
                                              &NfsTransport::ioDone, &s)
                           : nfs_pread_async(ctx_, fh_, s.offset, o_.bs, &NfsTransport::ioDone, &s);
        return rc == 0;
    }

private:
    struct Step {
        bool done = false;
        int status = 0;
        std::string message;
        void* data = nullptr;
        std::uint64_t size = 0;
    };

    Step open(int flags) {
        Step step;
        if (nfs_open2_async(ctx_, url_->file, flags, 0644, &NfsTransport::stepDone, &step) != 0)
            throw Failure(where_ + ": cannot open " + url_->file + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o_.timeout, "open");
        return step;
    }

    static void stepDone(int err, nfs_context*, void* data, void* priv) {
        auto* s = static_cast<Step*>(priv);
        s->done = true;
        s->status = err;
        if (err < 0) {
            s->message = data ? static_cast<const char*>(data) : std::strerror(-err);
            s->message += " (" + std::string(std::strerror(-err)) + ")";
        } else {
            s->data = data;
        }
    }

    static void statDone(int err, nfs_context* ctx, void* data, void* priv) {
        stepDone(err, ctx, data, priv);
        if (err == 0 && data)
            static_cast<Step*>(priv)->size = static_cast<nfs_stat_64*>(data)->nfs_size;
    }

    static void ioDone(int err, nfs_context*, void* data, void* priv) {
        auto* slot = static_cast<Slot*>(priv);
        std::string why;
        if (err < 0)
            why = (data ? static_cast<const char*>(data) : "") + std::string(" (") +
                  std::strerror(-err) + ")";
        // A short read or write means the file or the server changed under us.
        else if (static_cast<std::uint64_t>(err) != slot->driver->blockSize())
            why = "short transfer: " + std::to_string(err) + " bytes";
        slot->driver->completed(*slot, why.empty(), why);
    }

    const Options& o_;
    std::vector<unsigned char> pattern_;
    nfs_context* ctx_ = nullptr;
    nfs_url* url_ = nullptr;
    nfsfh* fh_ = nullptr;
    std::string where_;
    std::uint64_t fileSize_ = 0;
    std::uint64_t region_ = 0;
    bool healthy_ = true;
};

} // namespace

int main(int argc, char** argv) {
    // The secret, once read, so that messages can be scrubbed of it.
    std::string secret;
    try {
        Options o = parseArgs(argc, argv);
        if (o.chapSecretFd)
            secret = o.chapSecret = readSecret(*o.chapSecretFd);
        std::unique_ptr<Transport> t;
        if (o.url.starts_with("iscsi://"))
            t = std::make_unique<IscsiTransport>(o);
        else if (o.url.starts_with("nfs://"))
            t = std::make_unique<NfsTransport>(o);
        else
            usage(o.url + ": not an iscsi:// or nfs:// URL");
        Driver d(o, *t);
        d.run();
        std::printf("%s\n", scrubbed(d.report().dump(2), secret).c_str());
        return 0;
    } catch (const Failure& f) {
        std::fprintf(stderr, "lb-netload: %s\n", scrubbed(oneLine(f.what()), secret).c_str());
        return f.status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lb-netload: %s\n", scrubbed(oneLine(e.what()), secret).c_str());
        return 1;
    }
}
