// The /proc sampler (see proc_sampler.h): a loop over /proc's numeric entries, reading cmdline
// and environ whole; processes that end between listing and reading are skipped.

#include "tests/support/proc_sampler.h"

#include <cctype>
#include <chrono>
#include <dirent.h>
#include <fstream>
#include <sstream>

namespace lb::test {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// argv[0] without its directory.
std::string programOf(const std::string& cmdline) {
    const std::string argv0 = cmdline.substr(0, cmdline.find('\0'));
    return argv0.substr(argv0.rfind('/') + 1);
}

} // namespace

ProcSampler::ProcSampler(std::vector<std::string> secrets) : secrets_(std::move(secrets)) {
    thread_ = std::thread([this] { loop(); });
}

ProcSampler::~ProcSampler() {
    stop();
}

void ProcSampler::stop() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
}

std::vector<std::string> ProcSampler::leaks() const {
    std::lock_guard lock(mutex_);
    return {leaks_.begin(), leaks_.end()};
}

bool ProcSampler::saw(const std::string& program) const {
    std::lock_guard lock(mutex_);
    return programs_.count(program) > 0;
}

void ProcSampler::loop() {
    while (!stop_) {
        sampleOnce();
        ++rounds_;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

void ProcSampler::sampleOnce() {
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return;
    std::vector<std::string> pids;
    while (const dirent* e = ::readdir(proc))
        if (std::isdigit(static_cast<unsigned char>(e->d_name[0])))
            pids.emplace_back(e->d_name);
    ::closedir(proc);
    for (const auto& pid : pids) {
        const std::string cmdline = slurp("/proc/" + pid + "/cmdline");
        if (cmdline.empty())
            continue; // a kernel thread, or gone
        const std::string program = programOf(cmdline);
        for (const char* file : {"cmdline", "environ"}) {
            const std::string text =
                std::string(file) == "cmdline" ? cmdline : slurp("/proc/" + pid + "/" + file);
            for (std::size_t i = 0; i < secrets_.size(); ++i)
                if (!secrets_[i].empty() && text.find(secrets_[i]) != std::string::npos) {
                    std::string shown = cmdline;
                    for (auto& c : shown)
                        if (c == '\0')
                            c = ' ';
                    for (const auto& s : secrets_)
                        for (auto at = shown.find(s); !s.empty() && at != std::string::npos;
                             at = shown.find(s))
                            shown.replace(at, s.size(), "****");
                    std::lock_guard lock(mutex_);
                    leaks_.insert("pid " + pid + " " + file + ": " + shown + " (secret " +
                                  std::to_string(i) + ")");
                }
        }
        std::lock_guard lock(mutex_);
        programs_.insert(program);
    }
}

} // namespace lb::test
