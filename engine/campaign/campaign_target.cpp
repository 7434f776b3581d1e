// The campaign's view of its target: what the machine is (memory, CPUs, disks, tools), its disks
// recorded and guarded before anything is built, what a guest is, and what the kernel's OOM
// killer said about a run.
#include "engine/campaign/campaign_internal.h"
#include "engine/exec/safety.h"

#include <sstream>

namespace lb::campaign {

Command simple(std::string program, std::vector<std::string> args, int timeoutSeconds) {
    return Command::timed(std::move(program), std::move(args), std::chrono::seconds(timeoutSeconds),
                          true);
}

// Runs a small helper command; its stdout on success, nullopt otherwise.
std::optional<std::string> capture(Runner& runner, Command c) {
    auto r = runner.run(c);
    if (!r || !r->ok())
        return std::nullopt;
    return r->stdoutText;
}

std::string formatPercent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%g %%", fraction * 100.0);
    return text;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

// FreeBSD's facts come from sysctl(8): hw.physmem, hw.ncpu, hw.model, the ARC's size and limit;
// its disks from kern.disks and diskinfo(8) (name, sector size, media size in bytes, ...).
void inspectFreeBsd(Runner& runner, const Scenario& scenario, Target& t) {
    const auto sysctl = [&runner](const char* name) -> std::optional<std::string> {
        auto v = capture(runner, simple("sysctl", {"-n", name}));
        return v ? std::optional(trim(*v)) : std::nullopt;
    };
    if (auto mem = sysctl("hw.physmem")) {
        try {
            t.ramBytes = std::stoull(*mem);
        } catch (const std::exception&) {
        }
    }
    if (auto n = sysctl("hw.ncpu"))
        t.inventory["cpus"] = *n;
    if (auto model = sysctl("hw.model"))
        t.inventory["cpu_model"] = *model;
    // vfs.zfs.arc.max reads 0 when it is not set; the ARC's own limit is arcstats.c_max.
    if (auto arc = sysctl("kstat.zfs.misc.arcstats.c_max"))
        t.inventory["arc_max_bytes"] = *arc;
    if (auto disks = sysctl("kern.disks"))
        t.inventory["disks"] = *disks;
    json sizes = json::object();
    for (const auto& d : scenario.disks) {
        if (d.device.empty())
            continue;
        if (auto info = capture(runner, simple("diskinfo", {d.device}))) {
            std::istringstream in(*info);
            std::string name;
            std::uint64_t sectorSize = 0, mediaSize = 0;
            if (in >> name >> sectorSize >> mediaSize)
                sizes[d.device] = mediaSize;
        }
    }
    t.inventory["disk_bytes"] = sizes;
}

namespace {

// Linux memory and swap, from /proc/meminfo.
void readMeminfo(Runner& runner, Target& t) {
    auto meminfo = capture(runner, simple("cat", {"/proc/meminfo"}));
    if (!meminfo)
        return;
    std::istringstream in(*meminfo);
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemTotal:")
            t.ramBytes = kib * 1024;
        if (key == "SwapTotal:")
            t.inventory["swap_bytes"] = kib * 1024;
    }
}

// CPUs and their model, the kernel, the host's name, whether we are root, the block devices.
void readMachine(Runner& runner, Target& t) {
    if (!t.inventory.contains("cpus")) // FreeBSD's come from sysctl
        if (auto n = capture(runner, simple("nproc", {})))
            t.inventory["cpus"] = trim(*n);
    if (auto cpuinfo = capture(runner, simple("cat", {"/proc/cpuinfo"}))) {
        const auto pos = cpuinfo->find("model name");
        if (pos != std::string::npos) {
            const auto colon = cpuinfo->find(':', pos);
            const auto nl = cpuinfo->find('\n', colon);
            t.inventory["cpu_model"] = trim(cpuinfo->substr(colon + 2, nl - colon - 2));
        }
    }
    if (auto kernel = capture(runner, simple("uname", {"-srm"})))
        t.inventory["kernel"] = trim(*kernel);
    if (auto host = capture(runner, simple("uname", {"-n"})))
        t.inventory["hostname"] = trim(*host);
    if (auto id = capture(runner, simple("id", {"-u"})))
        t.root = trim(*id) == "0";
    t.inventory["root"] = t.root;
    if (auto lsblk = capture(runner, simple("lsblk", {"--json", "--bytes", "-o",
                                                      "NAME,PATH,MODEL,SERIAL,SIZE,ROTA,TYPE"}))) {
        auto parsed = json::parse(*lsblk, nullptr, false);
        if (!parsed.is_discarded())
            t.inventory["disks"] = parsed.value("blockdevices", json::array());
    }
}

// The versions of the tools the scenario's workloads run, and of ZFS where it is there.
json toolVersions(Runner& runner, const Scenario& scenario, const ProbeRegistry& probes) {
    json tools = json::object();
    std::set<std::string> used;
    for (const auto& w : scenario.workloads)
        used.insert(w.probe);
    for (const auto& name : used) {
        const Probe* p = probes.find(name);
        auto r = runner.run(p->versionCommand());
        tools[name] = r ? p->parseVersion(*r) : "not installed: " + r.error().message;
    }
    if (auto zfs = capture(runner, simple("zpool", {"upgrade", "-v"})))
        tools["zpool"] = trim(zfs->substr(0, zfs->find('\n')));
    return tools;
}

} // namespace

Target inspectTarget(Runner& runner, const Scenario& scenario, const ProbeRegistry& probes,
                     std::optional<TargetOs> os) {
    Target t;
    t.inventory["target"] = runner.target();
    if (auto asked = detectOs(runner))
        t.os = *asked;
    else
        t.inventory["os_problem"] = asked.error().message;
    t.inventory["os"] = enumName(os.value_or(t.os));
    if (os.value_or(t.os) == TargetOs::FreeBsd)
        inspectFreeBsd(runner, scenario, t);
    else
        readMeminfo(runner, t);
    t.inventory["ram_bytes"] = t.ramBytes;
    readMachine(runner, t);
    t.inventory["tools"] = toolVersions(runner, scenario, probes);
    t.zfs = detectZfs(runner);
    if (t.zfs.kind != ZfsImplementation::Kind::None) {
        t.inventory["zfs"] = t.zfs.describe();
        // The version as a version ("2.2.2", "pool version 23"), not the sentence `zpool
        // upgrade -v` opens with (issue 41, item 6).
        if (!t.zfs.version.empty())
            t.inventory["tools"]["zpool"] = t.zfs.version;
    }
    return t;
}

void noteZfsImplementation(BuiltLayout& built, const ZfsImplementation& zfs,
                           const Scenario& scenario) {
    built.zfsImpl = zfs;
    built.caveats.push_back(std::string(zfsCaveatPrefix) + zfs.describe());
    // The verdicts carry these as labels (measuredOn): said once, beside the verdict.
    if (zfs.kind == ZfsImplementation::Kind::ZfsFuse)
        built.caveats.push_back("zfs-fuse: a FUSE port of ZFS (pool version " +
                                std::to_string(zfs.poolVersion) +
                                "), not the kernel OpenZFS a server runs: every I/O crosses FUSE, "
                                "and libaio submits synchronously (latency shows as submission "
                                "time)");
    const ScenarioLayout& layout = *built.layout;
    const ScenarioDisk* first =
        layout.disks.empty() ? nullptr : scenario.disk(layout.disks.front());
    if (first && first->device.empty() && isZfs(layout.kind))
        built.caveats.push_back(std::string(fileVdevsCaveatPrefix) +
                                "the pool's disks are files on the host, in its page cache as "
                                "well as the ARC: ZFS over memory and the host's file system, not "
                                "disks");
}

std::vector<std::string> guestCaveats(const ScenarioLayout& layout, Runner& guest) {
    const ScenarioGuest& g = *layout.guest;
    std::vector<std::string> out;
    const bool qemu = g.hypervisor == Hypervisor::Qemu;
    bool tcg = qemu && g.accel == "tcg";
    if (qemu && g.accel == "auto") {
        // Linux says "Hypervisor detected: KVM" when it runs under KVM; under TCG it does not.
        const auto log = capture(guest, simple("dmesg", {}));
        tcg = !log || log->find("Hypervisor detected: KVM") == std::string::npos;
        if (tcg)
            out.push_back("KVM was not available to qemu: it fell back to TCG");
    }
    if (tcg)
        out.push_back(std::string(tcgCaveatPrefix) +
                      "the guest ran under qemu's software emulation (no KVM); this measures "
                      "emulation, not virtualization, and says little about a real hypervisor");
    std::string setup = "guest: " + std::string(enumName(g.hypervisor));
    if (qemu)
        setup += " (" + g.accel + ", " + std::to_string(g.cpus) + " vCPU)";
    // bhyve's disk is virtio-blk with its cache mode; the bus, aio and I/O threads are qemu's.
    if (g.hypervisor == Hypervisor::Bhyve)
        setup += " (" + std::to_string(g.cpus) + " vCPU), disk virtio-blk cache=" + g.cache;
    else
        setup += ", disk " + std::string(g.bus == "scsi" ? "virtio-scsi" : "virtio-blk") +
                 " cache=" + g.cache + " aio=" + g.aio +
                 " iothreads=" + std::to_string(g.iothreads);
    setup += ", " + g.layout + " inside on " + g.disk;
    if (auto meminfo = capture(guest, simple("cat", {"/proc/meminfo"}))) {
        std::istringstream in(*meminfo);
        std::string key, unit;
        std::uint64_t kib = 0;
        std::uint64_t mem = 0, swap = 0;
        while (in >> key >> kib) {
            std::getline(in, unit);
            if (key == "MemTotal:")
                mem = kib;
            if (key == "SwapTotal:")
                swap = kib;
        }
        setup += "; memory " + std::to_string(mem / 1024) + " MiB, swap " +
                 (swap ? std::to_string(swap / 1024) + " MiB" : std::string("none"));
    }
    out.push_back(setup);
    return out;
}

std::optional<std::string> kernelOomKill(Runner& where, const std::string& program,
                                         double runSeconds) {
    const auto uptime = capture(where, simple("cat", {"/proc/uptime"}));
    const auto log = capture(where, simple("dmesg", {}));
    if (!uptime || !log)
        return std::nullopt;
    double now = 0;
    try {
        now = std::stod(*uptime);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    const auto slash = program.rfind('/');
    const double since = now - runSeconds - 5;
    if (auto own = oomKillLine(
            *log, slash == std::string::npos ? program : program.substr(slash + 1), since))
        return own;
    // Memory ran out during the run and the killer took another process (the session that ran
    // it, say): the run still died of it.
    return oomKillLine(*log, "", since);
}

// The host's disks as lsblk reported them, one row each in the disk table.
Expected<void> CampaignRunner::recordDisks(const json& inventory) {
    auto text = [](const json& d, const char* key) {
        const auto it = d.find(key);
        return it != d.end() && it->is_string() ? std::optional(it->get<std::string>())
                                                : std::nullopt;
    };
    std::vector<DiskRecord> disks;
    for (const auto& d : inventory.value("disks", json::array())) {
        const auto path = text(d, "path");
        if (!path)
            continue;
        DiskRecord disk{*path, text(d, "model"), text(d, "serial")};
        if (d.contains("size") && d["size"].is_number_integer())
            disk.sizeBytes = d["size"].get<std::int64_t>();
        if (d.contains("rota") && d["rota"].is_boolean())
            disk.rotational = d["rota"].get<bool>();
        disks.push_back(std::move(disk));
    }
    return store_.recordDisks(hostId_, disks);
}

// Nothing is built on a block device unless the user named it again, and a device that holds
// anything (mounted, swap, a label, a partition table, a signature, / or /boot) also needs
// wipe = true in the scenario. Checked for every layout before the first command runs.
Expected<void> CampaignRunner::guardDevices(const std::vector<const ScenarioLayout*>& layouts) {
    std::vector<DiskDecision> decisions;
    std::set<std::string> seen;
    for (const auto* l : layouts)
        for (const auto& name : scenario_.disksTouchedBy(*l)) {
            const ScenarioDisk* d = scenario_.disk(name);
            if (d->device.empty() || !seen.insert(d->device).second)
                continue;
            auto state = scenario_.host.os == TargetOs::FreeBsd
                             ? inspectDiskFreeBsd(runner_, d->device)
                             : inspectDisk(runner_, d->device);
            if (!state)
                return fail(state.error());
            decisions.push_back({std::move(*state), d->wipe});
        }
    if (auto r = authorizeDestruction(decisions, opt_.yesDestroy); !r)
        return r;
    std::string refused;
    for (const auto& dd : decisions) {
        const auto named = [&](const std::string& n) {
            return !n.empty() && (n == dd.disk.path || n == dd.disk.resolvedPath ||
                                  (!dd.disk.serial.empty() && n == dd.disk.serial));
        };
        if (std::none_of(opt_.yesDestroy.begin(), opt_.yesDestroy.end(), named))
            refused += (refused.empty() ? "" : "\n") + std::string("yes-destroy: ") + dd.disk.path +
                       ": building the layout destroys its data; name it again to allow it";
    }
    if (!refused.empty())
        return badInput(refused);
    return {};
}

} // namespace lb::campaign

namespace lb {

std::optional<std::string> oomKillLine(std::string_view kernelLog, std::string_view program,
                                       double sinceSeconds) {
    const std::string comm(program.substr(0, 15));
    std::optional<std::string> found;
    std::size_t pos = 0;
    while (pos < kernelLog.size()) {
        auto eol = kernelLog.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = kernelLog.size();
        std::string_view line = kernelLog.substr(pos, eol - pos);
        pos = eol + 1;
        const auto killed = line.find("Killed process ");
        if (killed == std::string_view::npos ||
            (!comm.empty() && line.find("(" + comm + ")", killed) == std::string_view::npos))
            continue;
        // "[ 1234.567890] ...": the time since boot the line was logged.
        double at = 0;
        if (line.starts_with("[")) {
            try {
                at = std::stod(std::string(line.substr(1, line.find(']') - 1)));
            } catch (const std::exception&) {
                at = 0;
            }
        }
        if (at + 1e-9 < sinceSeconds)
            continue;
        auto text = line.substr(line.find(']') == std::string_view::npos ? 0 : line.find(']') + 1);
        while (!text.empty() && text.front() == ' ')
            text.remove_prefix(1);
        found = std::string(text.substr(0, text.find(" total-vm")));
    }
    return found;
}

} // namespace lb
