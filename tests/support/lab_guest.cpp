// The lab guest fixture: build (cached), throwaway keys, a free port, qemu as our child (killed by
// the kernel if this process dies first), ready when the console says so and SSH answers;
// powered off over SSH and, failing that, stopped by its pid.

#include "tests/support/lab_guest.h"

#include "tests/cli/process.h"
#include "tests/support/ports.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#ifndef LAYOUTBENCH_GUEST_CACHE
#define LAYOUTBENCH_GUEST_CACHE "/var/tmp/layoutbench-lab-guest"
#endif

namespace fs = std::filesystem;

namespace lb::test {

namespace {

constexpr const char* kQemu = "qemu-system-x86_64";
constexpr const char* kReadyMarker = "LAYOUTBENCH-GUEST-READY";
constexpr const char* kDirPrefix = "lb-guest-";

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string lastLines(const std::string& text, std::size_t count) {
    std::size_t at = text.size();
    for (std::size_t n = 0; n <= count && at != std::string::npos && at > 0; ++n)
        at = text.rfind('\n', at - 1);
    return at == std::string::npos ? text : text.substr(at + 1);
}

bool inPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0)
            return true;
    return false;
}

// qemu option values are comma-separated: a comma in a path is written twice.
std::string qemuPath(const std::string& path) {
    std::string out;
    for (char c : path) {
        out += c;
        if (c == ',')
            out += ',';
    }
    return out;
}

// A process that exists and has not ended (a zombie waiting for its reaper has).
bool alive(pid_t pid) {
    if (pid <= 0 || (::kill(pid, 0) != 0 && errno != EPERM))
        return false;
    const auto stat = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'Z';
}

// Temporary directories of earlier runs that crashed: their qemu died with them (parent-death
// signal), only the directory (and its disk images) is left. Directories whose qemu still runs
// belong to another test process and stay.
void removeStaleDirectories() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), ec)) {
        const auto name = entry.path().filename().string();
        if (!name.starts_with(kDirPrefix))
            continue;
        const auto pidText = slurp((entry.path() / "qemu.pid").string());
        if (pidText.empty())
            continue;
        if (!alive(static_cast<pid_t>(std::atol(pidText.c_str()))))
            fs::remove_all(entry.path(), ec);
    }
}

// Starts argv with stdin from /dev/null and stdout and stderr to `log`. The child gets SIGKILL
// when this thread's process dies, so a crashed test leaves no qemu behind.
pid_t spawnTied(const std::vector<std::string>& argv, const std::string& log) {
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    // Child: async-signal-safe calls only, then exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        ::_exit(127);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0)
        ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
}

} // namespace

LabGuestOptions openzfsGuestOptions(std::size_t disks, std::uint64_t diskBytes) {
    LabGuestOptions o;
    o.openzfs = true;
    o.memoryMiB = 1024;
    o.bootTimeout = std::chrono::seconds(240);
    o.newDiskBytes.assign(disks, diskBytes);
    return o;
}

std::string labGuestCacheDir(bool openzfs) {
    const char* dir = std::getenv("LAYOUTBENCH_GUEST_CACHE");
    return std::string(dir && *dir ? dir : LAYOUTBENCH_GUEST_CACHE) + (openzfs ? "-openzfs" : "");
}

LabGuest::LabGuest(LabGuestOptions options) {
    start(options);
    if (!running_)
        stopQemu();
}

void LabGuest::start(const LabGuestOptions& options) {
    if (!inPath(kQemu)) {
        why_ = std::string(kQemu) + " is not installed (scripts/setup.sh installs qemu-system-x86)";
        return;
    }
    if (!inPath("ssh-keygen") || !inPath("ssh")) {
        why_ = "ssh and ssh-keygen are not installed (apt-get install openssh-client)";
        return;
    }
    removeStaleDirectories();

    cacheDir_ = labGuestCacheDir(options.openzfs);
    const auto buildStart = Clock::now();
    std::vector<std::string> buildArgv{"bash", std::string(LAYOUTBENCH_SOURCE_DIR) +
                                                   "/tests/lab-guest/build.sh"};
    if (options.openzfs)
        buildArgv.emplace_back("--openzfs");
    buildArgv.push_back(cacheDir_);
    const auto build = runProcess(buildArgv);
    buildSeconds_ = secondsSince(buildStart);
    if (build.exitCode != 0) {
        why_ = "the lab guest cannot be built in " + cacheDir_ + ": " + build.out + build.err;
        return;
    }
    {
        std::istringstream manifest(slurp(cacheDir_ + "/manifest.txt"));
        for (std::string line; std::getline(manifest, line);)
            if (line.starts_with("linux-image-"))
                kernelRelease_ = line.substr(12, line.find(' ') - 12);
            else if (line.starts_with("zfsutils-linux "))
                openzfsVersion_ = line.substr(15);
    }
    available_ = true;

    std::string tmpl = (fs::temp_directory_path() / (std::string(kDirPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) {
        why_ = "cannot make a temporary directory";
        return;
    }
    dir_ = tmpl;
    for (const char* key : {"host_key", "user_key"}) {
        const auto r = runProcess({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                   "layoutbench-lab-guest", "-f", dir_ + "/" + key});
        if (r.exitCode != 0) {
            why_ = std::string("ssh-keygen failed: ") + r.err;
            return;
        }
    }
    port_ = freeLoopbackPort();
    if (port_ == 0) {
        why_ = "no free port on 127.0.0.1";
        return;
    }
    std::ofstream(knownHosts()) << "[127.0.0.1]:" << port_ << " " << slurp(dir_ + "/host_key.pub");

    disks_ = options.diskFiles;
    for (std::size_t i = 0; i < options.newDiskBytes.size(); ++i) {
        const auto path = dir_ + "/disk" + std::to_string(i) + ".img";
        std::ofstream{path};
        std::error_code ec;
        fs::resize_file(path, options.newDiskBytes[i], ec);
        if (ec) {
            why_ = "cannot make " + path + ": " + ec.message();
            return;
        }
        disks_.push_back(path);
    }

    std::string netdev = std::string("user,id=net0,restrict=") +
                         (options.restrictNetwork ? "on" : "off") +
                         ",hostfwd=tcp:127.0.0.1:" + std::to_string(port_) + "-:22";
    for (const auto& o : options.netdevOptions)
        netdev += "," + o;
    std::vector<std::string> argv = {
        kQemu, "-accel", "tcg", "-display", "none", "-nodefaults", "-no-user-config", "-no-reboot"};
    const auto add = [&argv](std::initializer_list<std::string> words) {
        argv.insert(argv.end(), words);
    };
    add({"-m", std::to_string(options.memoryMiB), "-smp", std::to_string(options.cpus)});
    add({"-kernel", qemuPath(cacheDir_ + "/vmlinuz"), "-initrd",
         qemuPath(cacheDir_ + "/initrd.gz")});
    // ramfs: the root holds about 110 MiB of programs and libraries, more than tmpfs (limited
    // to half the memory) takes in a small guest.
    add({"-append", "console=ttyS0 panic=1 quiet rootfstype=ramfs"});
    add({"-serial", "file:" + dir_ + "/console.log"});
    add({"-fw_cfg", "name=opt/lb/authorized_keys,file=" + qemuPath(dir_ + "/user_key.pub")});
    add({"-fw_cfg", "name=opt/lb/host_key,file=" + qemuPath(dir_ + "/host_key")});
    add({"-netdev", netdev, "-device", "virtio-net-pci,netdev=net0"});
    add({"-device", "virtio-rng-pci"});
    // The monitor through which a test fails a disk as the guest's kernel sees it.
    add({"-qmp", "unix:" + qemuPath(qmpSocket()) + ",server=on,wait=off"});
    for (std::size_t i = 0; i < disks_.size(); ++i) {
        const auto id = "disk" + std::to_string(i);
        add({"-drive",
             "file=" + qemuPath(disks_[i]) + ",if=none,id=" + id + ",format=raw,discard=unmap"});
        add({"-device", "virtio-blk-pci,drive=" + id + ",id=dev-" + id + ",serial=lb-" + id});
    }

    const auto bootStart = Clock::now();
    const pid_t pid = spawnTied(argv, dir_ + "/qemu.log");
    if (pid < 0) {
        why_ = "cannot start " + std::string(kQemu);
        return;
    }
    pid_ = pid;
    std::ofstream(dir_ + "/qemu.pid") << pid_ << "\n";

    while (consoleLog().find(kReadyMarker) == std::string::npos) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            why_ = "qemu exited before the guest was ready: " + slurp(dir_ + "/qemu.log") +
                   "\nconsole:\n" + lastLines(consoleLog(), 30);
            return;
        }
        if (secondsSince(bootStart) > static_cast<double>(options.bootTimeout.count())) {
            why_ = "the guest is not ready within " + std::to_string(options.bootTimeout.count()) +
                   " s; console:\n" + lastLines(consoleLog(), 30);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    bootSeconds_ = secondsSince(bootStart);

    Command check{"true"};
    check.timeout = std::chrono::seconds(30);
    const auto r = makeSshRunner(target())->run(check);
    if (!r || !r->ok()) {
        why_ =
            "the guest is up but SSH does not work: " + (r ? r->exitSummary() : r.error().message) +
            "\nconsole:\n" + lastLines(consoleLog(), 30);
        return;
    }
    running_ = true;
}

LabGuest::~LabGuest() {
    if (running_)
        powerOff();
    stopQemu();
    if (!dir_.empty()) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
}

bool LabGuest::powerOff() {
    if (pid_ <= 0)
        return false;
    running_ = false;
    Command off{"poweroff", {"-f"}};
    off.timeout = std::chrono::seconds(15);
    // The connection drops as the guest goes down: ssh's exit status says nothing here.
    (void)makeSshRunner(target())->run(off);
    for (int i = 0; i < 150; ++i) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

void LabGuest::stopQemu() {
    if (pid_ <= 0)
        return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 50; ++i) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

std::string LabGuest::consoleLog() const {
    return dir_.empty() ? std::string() : slurp(dir_ + "/console.log");
}

SshTarget LabGuest::target() const {
    SshTarget t;
    t.user = "root";
    t.host = "127.0.0.1";
    t.port = port_;
    t.identityFile = identity();
    t.knownHostsFile = knownHosts();
    return t;
}

std::string LabGuest::qmpSocket() const {
    return dir_.empty() ? std::string() : dir_ + "/qmp.sock";
}

QmpReply LabGuest::monitor(const std::string& commandLine) const {
    if (pid_ <= 0)
        return {false, "the guest is not running"};
    return qmpHuman(qmpSocket(), commandLine);
}

std::string LabGuest::sshUrl() const {
    return lb::sshUrl(target());
}

} // namespace lb::test
