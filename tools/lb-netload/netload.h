// What lb-netload's parts share: a failure the user can act on, the options of the one job, the
// transport a job runs over (iSCSI or NFS: one connection, async submission, one fd to poll), the
// driver that runs the measured job and reports it as fio-shaped JSON, and the network helpers
// both transports use.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lbnetload {

using Clock = std::chrono::steady_clock;

// "lb-netload-VERSION (libiscsi VERSION, libnfs VERSION)": the JSON's tool version.
extern const char* const toolVersion;

// A failure the user can act on: printed as one line, exit status 1 (2 for usage).
struct Failure : std::runtime_error {
    int status;
    Failure(const std::string& what, int exitStatus = 1)
        : std::runtime_error(what), status(exitStatus) {}
};

// options.cpp: the command line and the CHAP secret.
[[noreturn]] void usage(const std::string& what);

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

Options parseArgs(int argc, char** argv);
// The first line of file descriptor `fd` (without its line ending): the CHAP secret. Read once,
// before anything else, and kept in memory only.
std::string readSecret(int fd);
// Text with the CHAP secret written as ****: what this program prints, so that neither its JSON
// nor its messages (which quote libiscsi's errors) carry the secret.
std::string scrubbed(std::string text, const std::string& secret);

// transport.cpp: what both transports use.
// libiscsi's and libnfs's messages end in newlines and dots; the error is one line.
std::string oneLine(std::string s);
// A TCP connect to HOST:PORT bounded by the timeout, before the library tries: libiscsi reports
// a refused connection as "Can not reconnect right now", so this names the portal and errno.
void checkReachable(const std::string& where, const std::string& host, const std::string& port,
                    int timeoutSeconds, const std::string& what);
// "host", "host:port", "[v6]" or "[v6]:port".
std::pair<std::string, std::string> splitHostPort(const std::string& s, const std::string& dflt);
// The value of KEY in the URL's query string, or empty.
std::string queryValue(const std::string& url, const std::string& key);
// The bytes every write sends, the same for a seed.
std::vector<unsigned char> writePattern(std::uint64_t bs, std::uint64_t seed);

class Driver;

// One queue slot of the job: the I/O it has in flight.
struct Slot {
    Driver* driver = nullptr;
    std::uint64_t offset = 0;
    Clock::time_point started;
    bool busy = false;
};

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

// One poll of the transport's fd, up to 100 ms; the events it returned (0 on none or where the
// transport has no fd to wait on).
int pollOnce(Transport& t);

// Polls a transport until `done()` or the deadline; a step that does not finish in time, or a
// broken connection, is a Failure naming `step`.
template <typename Done>
void pollUntil(Transport& t, Done done, int timeoutSeconds, const std::string& step) {
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
    while (!done()) {
        if (Clock::now() > deadline)
            throw Failure(t.where() + ": " + step + ": no answer within " +
                          std::to_string(timeoutSeconds) + " s");
        const int revents = pollOnce(t);
        // Called with no events too: both libraries run their timeouts from service.
        if (!t.service(revents) && !done())
            throw Failure(t.where() + ": " + step + ": " + t.error());
    }
}

// iscsi.cpp and nfs.cpp: the transports, connected and ready for I/O.
std::unique_ptr<Transport> connectIscsi(const Options& o);
std::unique_ptr<Transport> connectNfs(const Options& o);

// driver.cpp: the measured job.
class Driver {
public:
    Driver(const Options& o, Transport& t) : o_(o), t_(t), rng_(o.seed) {}

    void run();
    std::uint64_t blockSize() const { return o_.bs; }
    void completed(Slot& s, bool ok, const std::string& why);
    nlohmann::ordered_json report() const;

private:
    void start();
    void serviceOnce();
    bool moreToSubmit() const;
    void submit(Slot& s);
    nlohmann::ordered_json measured() const;

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

} // namespace lbnetload
