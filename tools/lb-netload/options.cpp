// lb-netload's command line: the options of the one job, each checked with a usage message
// (exit status 2), and the CHAP secret, read from a file descriptor and kept out of everything
// the program prints.
#include "netload.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace lbnetload {

[[noreturn]] void usage(const std::string& what) {
    throw Failure(what + " (usage: lb-netload URL --rw read|write|randread|randwrite --bs SIZE "
                         "--iodepth N (--runtime SEC | --size BYTES) [--name JOB] [--timeout SEC] "
                         "[--chap-user NAME --chap-secret-fd FD])",
                  2);
}

namespace {

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

// One option and its value into `o`; false when `flag` is not an option.
bool applyOption(Options& o, const std::string& flag, const std::string& value) {
    if (flag == "--rw") {
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
    } else {
        return false;
    }
    return true;
}

// What holds across the options: a URL, how long the job runs, CHAP given whole, for iSCSI only,
// and never a user (or secret) in the URL.
void checkOptions(const Options& o) {
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
}

} // namespace

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
        } else if (applyOption(o, flag, value)) {
            continue;
        } else if (isFlag) {
            usage("unknown option " + flag);
        } else if (o.url.empty()) {
            o.url = flag;
        } else {
            usage("more than one URL: " + flag);
        }
    }
    checkOptions(o);
    return o;
}

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

std::string scrubbed(std::string text, const std::string& secret) {
    if (secret.empty())
        return text;
    for (auto pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos + 4))
        text.replace(pos, secret.size(), "****");
    return text;
}

} // namespace lbnetload
