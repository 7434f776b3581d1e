// The fail-rebuild drill (drill.h): a layout filled, a member failed, the load measured degraded
// and while the layout rebuilds onto the spare, the rebuild timed, and the data checked after.
#include "engine/base/size.h"
#include "engine/build/drill.h"
#include "engine/build/drill_internal.h"
#include "engine/build/plan.h"
#include "engine/measure/analysis.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace lb {

using drill_report::number;
using drill_report::size;
using drill_report::valueOr;

namespace {

// The measured drill, for POSIX sh and busybox alike. Arguments: kind (md, zfs, draid or zfs-md:
// the md array under a zfs-stripe pool, see RebuildTarget), target (md device or pool), the
// mounted directory, the member to fail, the spare, the fill, the seconds of each load phase,
// md's sync_speed_min for the array in KiB/s (0: the system's), how
// the member fails (admin; pull: the workbench pulls it when the drill prints "lb-drill
// pull=now", under the load; error: the drill swaps the member's device-mapper table for the
// error target under the load, and puts it back once the spare took its place) and the seconds a
// pulled or errored member has to be seen failed; for zfs-md, last, the md array under the pool.
// Every result is a line "lb-drill key=value ..." on stdout (the moments "<event>_at=" in seconds
// since the healthy load began), the load's fio JSON of each phase between "lb-drill-fio PHASE"
// and "lb-drill-fio-end", and its per-second bandwidth and IOPS logs between "lb-drill-fio-log
// PHASE" and "lb-drill-fio-log-end", each after a line "==> drill-randrw_<bw|iops>.N.log <==" as
// fio::logsCommand prints them; a failure is one line on stderr and a non-zero exit.
constexpr const char* rebuildHead = R"sh(
kind=$1 target=$2 mnt=$3 failed=$4 spare=$5 fill=$6 phase=$7 speed=$8 how=$9 pull_wait=${10}
# The md array that fails and rebuilds (md, zfs-md): the target, or the one under the pool.
array=${11:-$2} on_md=
case $kind in *md) on_md=1 ;; esac
w="$mnt/.lb-drill"
load_pid=
say() { echo "lb-drill $*"; }
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }'; }
stop_load() {
    if [ -n "$load_pid" ]; then kill -INT "$load_pid" 2>/dev/null; wait "$load_pid"; load_pid=; fi
}
# fail = "error": the member's own device-mapper table back, as it was saved before the swap.
dm_table=
dm_back() {
    [ -z "$dm_table" ] || { dmsetup load "$member" --table "$dm_table" && dmsetup resume "$member" && dm_table=; }
}
fail() {
    stop_load
    dm_back
    echo "$*" >&2
    exit 1
}
# The random read/write load of one phase: $1 the phase, $2 seconds (0: in the background until
# stop_load, which stops fio itself: a background subshell would ignore SIGINT). fio logs its
# bandwidth and IOPS each second, and writes the logs when it ends, stopped or not.
direct=1
load() {
    say "$1_at=$(since "$t_start")"
    set -- "$1" "$2" --name=drill-randrw --directory="$mnt" --filename=.lb-drill-randrw \
        --rw=randrw --bs=4k --size=32M --ioengine=psync --time_based --output-format=json \
        --output="$w-$1.json" --write_bw_log="$w-$1" --write_iops_log="$w-$1" --log_avg_msec=1000
    p=$1 s=$2 r=$2
    shift 2
    [ "$s" = 0 ] && r=86400
    fio --direct=$direct --runtime="$r" "$@" >/dev/null 2>"$w-$p.err" </dev/null &
    if [ "$s" = 0 ]; then
        load_pid=$!
    else
        # A phase still running 3 minutes past its seconds is stuck I/O (seen once on a degraded
        # dRAID under TCG): the drill fails saying where, rather than wait for its timeout.
        f=$! i=0
        while kill -0 $f 2>/dev/null; do
            i=$((i + 1))
            [ $i -lt $(((s + 180) * 5)) ] ||
                fail "the $p load stuck $((s + 180)) s; in flight: $(grep -H '[1-9]' /sys/block/*/inflight)"
            sleep 0.2
        done
        wait $f
    fi
}
# The array's sysfs folder: /dev/md/NAME is a link to /dev/mdN.
md=/sys/block/$(basename "$(readlink -f "$array")")/md
md_field() { mdadm --detail "$array" | sed -n "s/^ *$1 : //p" | head -n 1; }
# md: waits until nothing resyncs or recovers and no member is missing.
md_idle() {
    while [ "$(cat "$md/sync_action")" != idle ] || [ "$(cat "$md/degraded")" != 0 ]; do
        sleep 0.2
    done
}
pool_health() { zpool list -H -o health "$target"; }
zs() { zpool status "$target"; }
# ZFS: what a healing resilver says it restored, as zpool rounds it ("resilvered 32.3M in"; -p
# leaves the scan line rounded on OpenZFS 2.3).
scanned() {
    zs | sed -n 's/.*scan: resilvered \([^ (][^ ]*\) in.*/\1/p' | head -n 1
}
zrep() { zpool replace "$@" || fail "zpool replace $* failed"; }
# ZFS: waits until the pool replaced the member: zpool wait can return before the resilver is
# even registered, so this also waits for the scan line and for no "replacing" vdev.
zfs_replaced() {
    zpool wait -t resilver,replace "$target" || fail "zpool wait $target failed"
    i=0
    while zs | grep -q 'replacing\|spare-[0-9]\|in progress' ||
          [ -z "$(scanned)" ]; do
        i=$((i + 1))
        [ $i -lt 3000 ] || fail "$target did not finish replacing: $(zs | tr '\n' ' ')"
        sleep 0.2
    done
}
# A pulled member as md or ZFS sees it: md's member faulty (or the array degraded), the ZFS vdev
# in another state than ONLINE (FAULTED, REMOVED, UNAVAIL). Prints the state; false while it
# looks healthy.
member=$(basename "$failed") sysfs=$(basename "$failed")
[ "$how" = error ] && sysfs=$(dmsetup info -c --noheadings -o blkdevname "$member")
pulled_state() {
    case $kind in
    *md)
        # md counts the array degraded a moment before it marks the member faulty: read again.
        grep -q faulty "$md/dev-$sysfs/state" 2>/dev/null || [ "$(cat "$md/degraded")" != 0 ] ||
            return 1
        st=$(cat "$md/dev-$sysfs/state" 2>/dev/null)
        case $st in
        *faulty*) echo "$st" ;;
        *) echo "degraded" ;;
        esac
        ;;
    *)
        # A vanished disk's line names it by its guid, then "was /dev/vdb1".
        st=$(zs |
             awk -v m="$member" '$1 == m || $1 == m "1" || index($0, "was /dev/" m) { print $2; exit }')
        [ -n "$st" ] && [ "$st" != ONLINE ] && echo "$st"
        ;;
    esac
}
)sh";

// After the shared usable() and used() (drill_report::spaceShell): the drill itself.
constexpr const char* rebuildBody = R"sh(
case $(dmesg 2>/dev/null | sed -n 's/.*Hypervisor detected: //p' | head -n 1) in
"") h=none; grep -qw hypervisor /proc/cpuinfo && h=tcg; say hypervisor=$h ;;
*KVM*) say hypervisor=kvm ;;
*) say hypervisor=other ;;
esac
# Fill: files of random data (incompressible), up to `fill` of the usable space; their sums kept.
total=$(usable)
want=$(awk -v t="$total" -v f="$fill" 'BEGIN { printf "%.0f", t * f / 1048576 }')
mkdir -p "$w-fill" || fail "cannot make $w-fill"
i=0
while [ "$want" -gt 0 ]; do
    n=64
    [ "$want" -lt 64 ] && n=$want
    dd if=/dev/urandom of="$w-fill/$i" bs=1048576 count=$n 2>/dev/null || fail "cannot fill $mnt"
    want=$((want - n)) i=$((i + 1))
done
sync
(cd "$w-fill" && cksum * > "$w-sums" 2>/dev/null)
say "usable_bytes=$total" "used_bytes=$(used)" "fill_files=$i"
# Healthy, then the member failed, then degraded.
t_start=$(up)
load healthy "$phase" || { direct=0; load healthy "$phase"; } || fail "fio failed: $(cat "$w-healthy.err")"
say "direct=$direct"
[ -n "$on_md" ] && [ "$speed" != 0 ] && echo "$speed" > "$md/sync_speed_min"
t_fail=$(up)
if [ "$how" = admin ]; then
    say "failed_at=$(since "$t_start")"
else
    # The workbench pulls the disk on its own machine when it reads the line below, or the member
    # gets dm's error target; md and ZFS learn of it only through I/O, so the load runs until
    # they report the member failed.
    load pulled 0
    sleep 1
    if [ "$how" = error ]; then
        t=$(dmsetup table "$member") || fail "$failed is not a device-mapper device (fail = error)"
        dmsetup suspend "$member" || fail "dmsetup suspend $member failed"
        dm_table=$t
        dmsetup load "$member" --table "0 $(echo "$t" | awk '{ s += $2 } END { print s }') error" &&
            dmsetup resume "$member" || fail "dmsetup load $member error failed"
    fi
    t_fail=$(up)
    say "failed_at=$(since "$t_start")"
    [ "$how" = pull ] && say "pull=now"
    i=0
    until seen=$(pulled_state); do
        i=$((i + 1))
        [ $i -lt $((pull_wait * 5)) ] ||
            fail "$failed not seen failed within $pull_wait s (pull_wait):" \
                 "$( { cat /proc/mdstat; zs; } 2>/dev/null | tr '\n' ' ')"
        sleep 0.2
    done
    stop_load
    say "pulled_state=$seen" "detect_seconds=$(since "$t_fail")"
fi
case $kind in
*md)
    if [ "$how" != admin ]; then
        # The pulled disk may have no device node left: md's keywords name it.
        i=0
        while mdadm --detail "$array" | grep -q faulty; do
            mdadm "$array" --remove failed >/dev/null 2>&1
            mdadm "$array" --remove detached >/dev/null 2>&1
            i=$((i + 1))
            [ $i -lt 20 ] || fail "mdadm $array --remove failed: the failed member stays"
            sleep 0.5
        done
    else
        mdadm "$array" --fail "$failed" >/dev/null 2>&1 || fail "mdadm $array --fail $failed failed"
        i=0
        until mdadm "$array" --remove "$failed" >/dev/null 2>&1; do
            i=$((i + 1))
            [ $i -lt 20 ] || fail "mdadm $array --remove $failed failed"
            sleep 0.5
        done
    fi
    say "state_degraded=$(md_field State | tr -d ' ')"
    # ZFS on md: what the pool says of itself while the array under it is degraded.
    [ "$kind" = md ] || say "pool_degraded=$(pool_health)"
    ;;
*)
    if [ "$how" = admin ]; then
        zpool offline "$target" "$failed" || fail "zpool offline $target $failed failed"
    fi
    say "state_degraded=$(pool_health)"
    ;;
esac
load degraded "$phase" || fail "fio failed degraded: $(cat "$w-degraded.err")"
# The rebuild, under the load.
load rebuilding 0
sleep 1
t0=$(up)
say "rebuild_at=$(since "$t_start")"
case $kind in
*md)
    mdadm "$array" --add "$spare" >/dev/null || fail "mdadm $array --add $spare failed"
    sleep 0.5
    [ "$kind" = md ] || say "pool_rebuilding=$(pool_health)"
    md_idle
    say "rebuild_bytes=$(($(cat "$md/component_size") * 1024))"
    ;;
zfs)
    zrep -f "$target" "$failed" "$spare"
    zfs_replaced
    say "rebuild_bytes=$(scanned)"
    ;;
draid)
    # Onto the distributed spare (a sequential rebuild), then onto the spare disk (healing).
    dspare=$(zs | awk '/^[[:space:]]*spares/ { s = 1; next } s && $1 ~ /^draid/ { print $1; exit }')
    [ -n "$dspare" ] || fail "the pool $target has no distributed spare"
    # -s: sequential (without it zpool heals onto the distributed spare as onto a disk).
    zrep -s "$target" "$failed" "$dspare"
    zpool wait -t resilver "$target" || fail "zpool wait $target failed"
    # Exact from the rebuild's stats in zpool's JSON (OpenZFS 2.3): the scrub that follows a
    # sequential rebuild takes the scan line.
    seq_bytes=$(zpool status -j --json-int "$target" | sed -n 's/.*"rebuilt":\([0-9]*\).*/\1/p')
    say "seconds=$(since "$t0")" "window_seconds=$(since "$t_fail")"
    zpool wait -t scrub "$target"
    t0=$(up)
    zrep -f "$target" "$failed" "$spare"
    zfs_replaced
    say "heal_bytes=$(scanned)" "rebuild_bytes=$seq_bytes" "heal_seconds=$(since "$t0")"
    ;;
esac
[ "$kind" = draid ] || say "seconds=$(since "$t0")" "window_seconds=$(since "$t_fail")"
[ -z "$dm_table" ] || { dm_back && say dm_restored=1; } || fail "dmsetup load $member failed"
say "whole_at=$(since "$t_start")"
stop_load
# Whole again: the load once more, as it was before the failure.
load rebuilt "$phase" || fail "fio failed rebuilt: $(cat "$w-rebuilt.err")"
# The data afterwards: md's check (mismatch_cnt) or a scrub, and the files' sums read from disk.
# ZFS on md: both, md's check of the array first, then the pool's scrub (its state after:
# pool_state_after).
t1=$(up)
if [ -n "$on_md" ]; then
    echo check > "$md/sync_action"
    sleep 0.5
    md_idle
    say "check_seconds=$(since "$t1")" "mismatch_cnt=$(cat "$md/mismatch_cnt")"
    say "state_after=$(md_field State | tr -d ' ')" "level=$(cat "$md/level")"
fi
if [ "$kind" != md ]; then
    t1=$(up)
    zpool scrub -w "$target" || fail "zpool scrub $target failed"
    say "scrub_seconds=$(since "$t1")"
    say "scrub_errors=$(zs | sed -n 's/.*scan: scrub repaired .* with \([0-9]*\) errors.*/\1/p' | head -n 1)"
    say "${on_md:+pool_}state_after=$(pool_health)"
    zs | grep -q '^errors: No known data errors'
    say "data_errors=$?"
fi
echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
bad=$( (cd "$w-fill" && cksum * 2>/dev/null) | diff - "$w-sums" | grep -c '^>')
say "checksum_mismatches=$bad"
for p in healthy degraded rebuilding rebuilt; do
    echo "lb-drill-fio $p"
    cat "$w-$p.json"
    echo "lb-drill-fio-end"
    echo "lb-drill-fio-log $p"
    for f in "$w-$p"_bw.*.log "$w-$p"_iops.*.log; do
        [ -f "$f" ] && printf '==> drill-randrw_%s <==\n' "${f##*_}" && cat "$f"
    done
    echo "lb-drill-fio-log-end"
done
rm -rf "$w-fill" "$w-sums" "$w"-*.json "$w"-*.err "$w"-*.log "$mnt/.lb-drill-randrw"
)sh";

// The script as it is sent: without its comments and indentation. An SSH server on a small
// system (dropbear, the lab guest's) refuses a command longer than 9,000 bytes, which the
// commented script and its quoting for the remote shell pass.
std::string compactScript(std::string_view script) {
    std::string out;
    std::size_t at = 0;
    while (at < script.size()) {
        auto eol = script.find('\n', at);
        if (eol == std::string_view::npos)
            eol = script.size();
        auto line = script.substr(at, eol - at);
        at = eol + 1;
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string_view::npos || line[start] == '#')
            continue;
        out.append(line.substr(start));
        out += '\n';
    }
    return out;
}

// The line the drill prints when the workbench is to pull the disk.
constexpr std::string_view pullLine = "lb-drill pull=now";

// Said of the drill's run and of its load's phases where the drill found itself under TCG.
std::string tcgCaveat() {
    return std::string(tcgCaveatPrefix) +
           "the drill ran under qemu's software emulation (no KVM): its rebuild rate and load "
           "are the lab's emulated disks', not a server's";
}

// The drill's figures as drill.fail-rebuild.* metrics; a failed run where the data or the
// redundancy did not come back.
class RebuildDrillProbe : public Probe {
public:
    RebuildDrillProbe(ScenarioDrill drill, RebuildTarget target, std::vector<std::string> args)
        : drill_(std::move(drill)), target_(std::move(target)), args_(std::move(args)) {}

    std::string_view name() const override { return "drill"; }
    const std::vector<OptionSpec>& options() const override {
        static const std::vector<OptionSpec> none;
        return none;
    }
    Command versionCommand() const override {
        return target_.onMd() ? Command{"mdadm", {"--version"}} : Command{"zpool", {"version"}};
    }
    std::string parseVersion(const ProcessResult& r) const override {
        std::string text = r.stdoutText.empty() ? r.stderrText : r.stdoutText;
        return text.substr(0, text.find('\n'));
    }

    Expected<MeasuredCommand> command(const OptionValues&,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        mc.command.program = "sh";
        static const std::string script = compactScript(
            std::string(rebuildHead).append(drill_report::spaceShell).append(rebuildBody));
        mc.command.args = {"-c", script, "lb-drill", target_.kind, args_[0], ctx.workdir};
        mc.command.args.insert(mc.command.args.end(), args_.begin() + 1, args_.end());
        mc.command.env = {{"LC_ALL", "C"}};
        mc.command.timeout = std::chrono::seconds(drill_.timeoutSeconds);
        if (drill_.failure == DrillFailure::Pull) {
            mc.localTriggers.push_back(
                {std::string(pullLine), rebuildPullCommand(drill_, args_[1])});
        }
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& result, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        const auto kv = drill_report::parse(result.stdoutText);
        ParsedRun out;
        out.workload = drill_.name();
        const std::string prefix = "drill.fail-rebuild.";
        const auto seconds = number(kv, "seconds");
        const auto bytes = size(kv, "rebuild_bytes");
        if (!seconds || !bytes) {
            std::string said;
            for (const auto& [key, value] : kv)
                said += " " + key + "=" + value;
            return badInput("the drill reported no rebuild (no 'lb-drill seconds=' and "
                            "'rebuild_bytes=' lines with a figure); it reported:" +
                            (said.empty() ? std::string(" nothing") : said));
        }
        const auto add = [&](const char* key, Unit unit, double scale = 1.0) {
            if (const auto v = key == std::string_view("rebuild_bytes") ||
                                       key == std::string_view("heal_bytes")
                                   ? size(kv, key)
                                   : number(kv, key))
                out.metrics.push_back({prefix + key, *v * scale, unit});
        };
        add("seconds", Unit::Seconds);
        add("window_seconds", Unit::Seconds);
        add("detect_seconds", Unit::Seconds);
        add("rebuild_bytes", Unit::Count);
        if (*seconds > 0)
            out.metrics.push_back(
                {prefix + "rebuild_rate", *bytes / *seconds, Unit::BytesPerSecond});
        add("heal_seconds", Unit::Seconds);
        add("heal_bytes", Unit::Count);
        add("check_seconds", Unit::Seconds);
        add("scrub_seconds", Unit::Seconds);
        add("mismatch_cnt", Unit::Count);
        add("scrub_errors", Unit::Count);
        add("checksum_mismatches", Unit::Count);
        // The course of the drill, in seconds since the healthy load began: where the report's
        // chart puts each phase of the load and marks the failure and the rebuild.
        for (const char* moment : {"healthy_at", "failed_at", "degraded_at", "rebuilding_at",
                                   "rebuild_at", "whole_at", "rebuilt_at"})
            add(moment, Unit::Seconds);
        const auto usable = number(kv, "usable_bytes");
        const auto used = number(kv, "used_bytes");
        if (usable && used && *usable > 0)
            out.metrics.push_back({prefix + "fill", *used / *usable * 100.0, Unit::Percent});
        describe(kv, out);
        judge(kv, out);
        return out;
    }

private:
    // What the figures were measured on: the emulation, the I/O path, the states.
    void describe(const std::map<std::string, std::string>& kv, ParsedRun& out) const {
        if (valueOr(kv, "hypervisor") == "tcg")
            out.caveats.push_back(tcgCaveat());
        out.caveats.push_back(
            "fail-rebuild: " + (target_.kind == "zfs-md" ? "md under the pool" : target_.kind) +
            " degraded (" + valueOr(kv, "state_degraded") + "), rebuilt onto the spare, then " +
            valueOr(kv, "state_after") + "; the load's I/O " +
            (valueOr(kv, "direct") == "1" ? "direct" : "buffered"));
        if (target_.kind == "zfs-md")
            out.caveats.push_back(
                "fail-rebuild: ZFS on md: the member failed and rebuilt was md's, under the pool " +
                target_.pool + "; the pool said " + valueOr(kv, "pool_degraded") +
                " while the array was degraded, " + valueOr(kv, "pool_rebuilding") +
                " while it rebuilt, " + valueOr(kv, "pool_state_after") +
                " after its scrub: ZFS sees nothing of md's failure or rebuild under it, as a "
                "guest's pool on a host's md array sees nothing (that one adds the virtio hop), "
                "and md rebuilds the whole member whatever the pool holds");
        if (drill_.failure == DrillFailure::Pull)
            out.caveats.push_back(std::string("fail-rebuild: the member was pulled (") +
                                  rebuildPullCommand(drill_, args_[1]).toUserOutput() +
                                  ", on the workbench's machine) under the load; " + seer() +
                                  " saw it " + valueOr(kv, "pulled_state") + " after " +
                                  valueOr(kv, "detect_seconds") + " s");
        if (drill_.failure == DrillFailure::Error)
            out.caveats.push_back(
                std::string("fail-rebuild: the member's device-mapper table was "
                            "swapped for the error target under the load; ") +
                seer() + " saw it " + valueOr(kv, "pulled_state") + " after " +
                valueOr(kv, "detect_seconds") + " s; its table " +
                (valueOr(kv, "dm_restored") == "1" ? "was put back" : "was NOT put back") +
                " after the rebuild");
        if (target_.onMd() && drill_.syncSpeedMinKiB > 0)
            out.caveats.push_back("md: the array's sync_speed_min was set to " +
                                  std::to_string(drill_.syncSpeedMinKiB) + " KiB/s for the drill");
    }

    // A drill that lost data or redundancy fails loudly, saying what it found.
    void judge(const std::map<std::string, std::string>& kv, ParsedRun& out) const {
        std::vector<std::string> why;
        const auto nonzero = [&](const char* key, const std::string& what) {
            const auto v = number(kv, key);
            if (!v)
                why.push_back("no " + std::string(key) + " reported");
            else if (*v > 0)
                why.push_back(std::to_string(static_cast<long long>(*v)) + " " + what);
        };
        nonzero("checksum_mismatches", "filled files changed");
        // ZFS on md: both levels, the array's check and the pool's scrub.
        if (target_.onMd()) {
            nonzero("mismatch_cnt", "sectors mismatched in md's check (mismatch_cnt)");
            const std::string state = valueOr(kv, "state_after");
            if (state != "clean" && state != "active")
                why.push_back("the array is " + state + " after the rebuild");
        }
        if (!target_.pool.empty()) {
            const char* key = target_.onMd() ? "pool_state_after" : "state_after";
            nonzero("scrub_errors", "errors found by the scrub");
            nonzero("data_errors", "data errors in zpool status");
            if (valueOr(kv, key) != "ONLINE")
                why.push_back("the pool is " + valueOr(kv, key) + " after the rebuild");
        }
        if (why.empty())
            return;
        out.failed = true;
        out.failureReason = "the fail-rebuild drill lost data or redundancy: ";
        for (std::size_t i = 0; i < why.size(); ++i)
            out.failureReason += (i ? "; " : "") + why[i];
    }

    // Who saw a pulled or errored member failed: md where it fails md's member, else ZFS.
    const char* seer() const { return target_.onMd() ? "md" : "ZFS"; }

    ScenarioDrill drill_;
    RebuildTarget target_;
    // target, failed, spare, fill, phase seconds, sync speed, how it fails, pull wait; zfs-md:
    // the array under the pool last
    std::vector<std::string> args_;
};

} // namespace

Command rebuildPullCommand(const ScenarioDrill& drill, const std::string& device) {
    Command pull;
    pull.program = drill.pullCommand.front();
    pull.args.assign(drill.pullCommand.begin() + 1, drill.pullCommand.end());
    pull.env = {{"LAYOUTBENCH_PULL_DISK", drill.failDisk}, {"LAYOUTBENCH_PULL_DEVICE", device}};
    pull.timeout = std::chrono::seconds(drill.pullWaitSeconds);
    return pull;
}

RebuildTarget rebuildTarget(const ScenarioLayout& layout) {
    if (isMd(layout.kind))
        return {"md", layout.mdDevice, ""};
    if (layout.inner) // a zfs-stripe pool whose one vdev is the md array (drillFits)
        return {"zfs-md", layout.mdDevice, layout.pool};
    return {isDraid(layout.kind) ? "draid" : "zfs", "", layout.pool};
}

Expected<std::unique_ptr<Probe>> rebuildDrillProbe(const Scenario& scenario,
                                                   const ScenarioLayout& layout,
                                                   const ScenarioDrill& drill) {
    LayoutPlan scratch;
    auto paths = planDisks(scratch, scenario, layout, {drill.failDisk, drill.disks.front()}, {});
    if (!paths)
        return fail(paths.error());
    RebuildTarget target = rebuildTarget(layout);
    std::ostringstream fill;
    fill << drill.fill;
    std::vector<std::string> args{target.kind == "md" ? target.array : target.pool,
                                  (*paths)[0],
                                  (*paths)[1],
                                  fill.str(),
                                  std::to_string(drill.phaseSeconds),
                                  std::to_string(drill.syncSpeedMinKiB),
                                  std::string(enumName(drill.failure)),
                                  std::to_string(drill.pullWaitSeconds)};
    if (target.kind == "zfs-md")
        args.push_back(target.array);
    return std::unique_ptr<Probe>(
        std::make_unique<RebuildDrillProbe>(drill, std::move(target), std::move(args)));
}

std::optional<FailRebuildDisks> failRebuildDisks(const std::vector<std::string>& argv) {
    // sh -c SCRIPT lb-drill KIND TARGET WORKDIR FAILED SPARE ... (RebuildDrillProbe::command)
    const auto name = std::find(argv.begin(), argv.end(), "lb-drill");
    // Any version of the script: the one a stored run ran may be older than this one.
    if (name - argv.begin() < 2 || *(name - 2) != "-c" || argv.end() - name < 6)
        return std::nullopt;
    return FailRebuildDisks{*(name + 4), *(name + 5)};
}

std::string drillPhaseLayout(const std::string& layout, const std::string& phase) {
    return layout + "@" + phase;
}

bool isDrillPhaseLayout(std::string_view name) {
    for (const std::string_view phase : {"@healthy", "@degraded", "@rebuilding", "@rebuilt"})
        if (name.size() > phase.size() && name.ends_with(phase))
            return true;
    return false;
}

namespace {

// Each block "<begin>PHASE\n...<end>" of the drill's output, as (phase, text), in order.
std::vector<std::pair<std::string, std::string>>
drillBlocks(std::string_view text, std::string_view begin, std::string_view end) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t at = 0;
    while ((at = text.find(begin, at)) != std::string_view::npos) {
        if (at != 0 && text[at - 1] != '\n') {
            at += begin.size();
            continue;
        }
        const auto eol = text.find('\n', at);
        const auto stop = text.find(end, eol);
        if (eol == std::string_view::npos || stop == std::string_view::npos)
            break;
        out.emplace_back(std::string(text.substr(at + begin.size(), eol - at - begin.size())),
                         std::string(text.substr(eol + 1, stop - eol - 1)));
        at = stop + end.size();
    }
    return out;
}

} // namespace

std::vector<DrillLoadPhase> drillLoadPhases(std::string_view stdoutText) {
    std::vector<DrillLoadPhase> out;
    for (auto& [phase, json] : drillBlocks(stdoutText, "lb-drill-fio ", "lb-drill-fio-end"))
        out.push_back({std::move(phase), std::move(json), {}, {}});
    for (auto& [phase, logs] : drillBlocks(stdoutText, "lb-drill-fio-log ", "lb-drill-fio-log-end"))
        for (auto& p : out)
            if (p.phase == phase)
                p.fioLogs = std::move(logs);
    if (valueOr(drill_report::parse(std::string(stdoutText)), "hypervisor") == "tcg")
        for (auto& phase : out)
            phase.caveats.push_back(tcgCaveat());
    return out;
}

} // namespace lb
