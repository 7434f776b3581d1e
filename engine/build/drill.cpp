#include "engine/build/drill.h"

#include "engine/base/size.h"
#include "engine/build/drill_internal.h"
#include "engine/build/plan.h"

#include <chrono>
#include <map>
#include <sstream>

namespace lb {

using drill_report::number;
using drill_report::size;
using drill_report::valueOr;

namespace {

// The measured drill, for POSIX sh and busybox alike. Arguments: action, target (md device or
// pool), the mounted directory, 1 for a read load, then the words the action adds (devices, or a
// vdev spec). While the layout reshapes, a reader reads a 32 MiB file over and over with the page
// cache dropped between passes; it counts passes and failed reads. Every result is a line
// "lb-drill key=value ..." on stdout; a failure is one line on stderr and a non-zero exit (3:
// the installed software cannot do it).
constexpr const char* drillScript = R"sh(
action=$1 target=$2 mnt=$3 load=$4
shift 4
f="$mnt/.lb-drill-read"
reader=
say() { echo "lb-drill $*"; }
up() { cut -d' ' -f1 /proc/uptime; }
# Exact bytes where zpool has -p; older ZFS (zfs-fuse) prints a rounded size such as 1.88G.
pool_size() { { zpool list -Hp -o size "$target" 2>/dev/null || zpool list -H -o size "$target"; } | head -n 1; }
# What the pool offers as zfs list shows it (used + avail of the root dataset), where -p exists.
zfs_usable() { zfs list -Hp -o used,avail "$target" 2>/dev/null | awk 'NR == 1 { printf "%.0f", $1 + $2 }'; }
# The file system's size in bytes: what users can fill.
fs_size() { df -P -k "$mnt" | awk 'NR == 2 { printf "%.0f", $2 * 1024 }'; }
grow_fs() {
    case $(awk -v m="$mnt" '$2 == m { print $3 }' /proc/mounts) in
    ext2 | ext3 | ext4) resize2fs "$target" >/dev/null 2>&1 || fail "resize2fs $target failed" ;;
    xfs) xfs_growfs "$mnt" >/dev/null || fail "xfs_growfs $mnt failed" ;;
    esac
}
md_field() { mdadm --detail "$target" | sed -n "s/^ *$1 : //p" | head -n 1; }
# Waits until the array is of level $1 with $2 members and no reshape, recovery or resync
# runs. mdadm --wait waits for ever on a reshape that stopped moving (a lost critical-section
# helper, a stalled member); this fails instead once sync_completed has not moved for 180 s,
# saying where the array stood.
md_settle() {
    md=/sys/block/$(basename "$(readlink -f "$target")")/md
    last= since=$(up)
    while :; do
        pos=$(cat "$md/sync_completed" 2>/dev/null)
        if [ "$(cat "$md/sync_action" 2>/dev/null)" = idle ] && ! grep -q reshape /proc/mdstat &&
           [ "$(md_field 'Raid Level')" = "$1" ] && [ "$(md_field 'Raid Devices')" = "$2" ]; then
            return 0
        fi
        if [ "$pos" != "$last" ]; then
            last=$pos since=$(up)
        elif awk -v a="$since" -v b="$(up)" 'BEGIN { exit !(b - a > 180) }'; then
            fail "$target did not become $1 of $2 members: nothing moved for 180 s" \
                 "(sync_action $(cat "$md/sync_action" 2>/dev/null), sync_completed $pos):" \
                 "$(tr '\n' ' ' < /proc/mdstat)"
        fi
        sleep 0.5
    done
}
stop_reader() {
    if [ -n "$reader" ]; then touch "$f.stop"; wait "$reader"; reader=; fi
}
fail() {
    stop_reader
    rm -f "$f" "$f.stop" "$f.count" "$f.errors"
    echo "$*" >&2
    exit "${code:-1}"
}
case $action in
md-*) say "members_before=$(md_field 'Raid Devices')" "level_before=$(md_field 'Raid Level')" \
          "size_before=$(fs_size)" ;;
*) say "size_before=$(pool_size)" "usable_before=$(zfs_usable)" ;;
esac
if [ "$action" = raidz-expand ] &&
   ! zpool get -H -o value feature@raidz_expansion "$target" >/dev/null 2>&1; then
    code=3
    fail "not supported by this ZFS version: RAIDZ expansion (zpool attach POOL raidzP-N DISK)" \
         "needs OpenZFS 2.3 or later; this one says: $(zpool upgrade -v 2>&1 | head -n 1)"
fi
if [ "$load" = 1 ]; then
    dd if=/dev/urandom of="$f" bs=1048576 count=32 conv=fsync 2>/dev/null ||
        fail "cannot write the read-load file $f"
    sum0=$(cksum < "$f")
    rm -f "$f.stop"
    echo 0 > "$f.count"
    echo 0 > "$f.errors"
    (
        n=0 e=0
        while [ ! -e "$f.stop" ]; do
            if cat "$f" > /dev/null; then n=$((n + 1)); else e=$((e + 1)); fi
            echo $n > "$f.count"
            echo $e > "$f.errors"
            echo 1 > /proc/sys/vm/drop_caches 2>/dev/null
        done
    ) &
    reader=$!
fi
t0=$(up)
case $action in
md-grow)
    n=$(md_field 'Raid Devices')
    mdadm --add "$target" "$@" || fail "mdadm --add $target $* failed"
    level=$(md_field 'Raid Level')
    mdadm --grow "$target" --raid-devices=$((n + $#)) || fail "mdadm --grow $target failed"
    md_settle "$level" $((n + $#))
    grow_fs
    ;;
md-raid6)
    n=$(md_field 'Raid Devices')
    backup="/tmp/lb-drill-$$.backup"
    mdadm --add "$target" "$1" || fail "mdadm --add $target $1 failed"
    mdadm --grow "$target" --level=6 --raid-devices=$((n + 1)) --backup-file="$backup" ||
        fail "mdadm --grow $target --level=6 failed"
    md_settle raid6 $((n + 1))
    rm -f "$backup"
    grow_fs
    ;;
zfs-add-vdev)
    zpool add -f "$target" "$@" || fail "zpool add $target $* failed"
    ;;
raidz-expand)
    s0=$(pool_size)
    zpool attach "$target" "$@" || fail "zpool attach $target $* failed"
    zpool wait -t raidz_expand "$target" || fail "zpool wait -t raidz_expand $target failed"
    # The vdev's new size is committed after the reflow ends; then OpenZFS scrubs what moved.
    i=0
    while [ "$(pool_size)" = "$s0" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i + 1)); done
    ;;
esac
t1=$(up)
say "seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
if [ "$action" = raidz-expand ]; then
    zpool wait -t scrub "$target" 2>/dev/null
    say "scrub_seconds=$(awk -v a="$t1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }')"
fi
if [ -n "$reader" ]; then
    stop_reader
    sum1=$(cksum < "$f")
    intact=0
    [ "$sum0" = "$sum1" ] && intact=1
    say "read_passes=$(cat "$f.count")" "read_errors=$(cat "$f.errors")" \
        "read_bytes_per_pass=33554432" "intact=$intact"
    rm -f "$f" "$f.stop" "$f.count" "$f.errors"
fi
mounted=0
awk -v m="$mnt" '$2 == m { found = 1 } END { exit !found }' /proc/mounts && mounted=1
say "mounted=$mounted"
case $action in
md-*) say "members_after=$(md_field 'Raid Devices')" "level_after=$(md_field 'Raid Level')" \
          "size_after=$(fs_size)" ;;
*) say "size_after=$(pool_size)" "usable_after=$(zfs_usable)" ;;
esac
)sh";

class DrillProbe : public Probe {
public:
    DrillProbe(ScenarioDrill drill, std::string target, std::vector<std::string> words,
               bool isMdDrill)
        : drill_(std::move(drill)), target_(std::move(target)), words_(std::move(words)),
          md_(isMdDrill) {}

    std::string_view name() const override { return "drill"; }
    const std::vector<OptionSpec>& options() const override {
        static const std::vector<OptionSpec> none;
        return none;
    }
    Command versionCommand() const override {
        return md_ ? Command{"mdadm", {"--version"}} : Command{"zpool", {"upgrade", "-v"}};
    }
    std::string parseVersion(const ProcessResult& r) const override {
        // mdadm prints its version on stderr.
        std::string text = r.stdoutText.empty() ? r.stderrText : r.stdoutText;
        return text.substr(0, text.find('\n'));
    }

    Expected<MeasuredCommand> command(const OptionValues&,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        mc.command.program = "sh";
        mc.command.args = {"-c",
                           drillScript,
                           "lb-drill",
                           std::string(enumName(drill_.action)),
                           target_,
                           ctx.workdir,
                           drill_.readLoad ? "1" : "0"};
        mc.command.args.insert(mc.command.args.end(), words_.begin(), words_.end());
        mc.command.env = {{"LC_ALL", "C"}};
        mc.command.timeout = std::chrono::seconds(drill_.timeoutSeconds);
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& result, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        const auto kv = drill_report::parse(result.stdoutText);
        ParsedRun out;
        out.workload = drill_.name();
        const std::string prefix = "drill." + std::string(enumName(drill_.action)) + ".";
        const auto seconds = number(kv, "seconds");
        if (!seconds)
            return badInput("the drill reported no duration (no 'lb-drill seconds=' line)");
        out.metrics.push_back({prefix + "seconds", *seconds, Unit::Seconds});
        const auto before = size(kv, "size_before");
        const auto after = size(kv, "size_after");
        if (before && after && *before > 0)
            out.metrics.push_back(
                {prefix + "growth", (*after - *before) / *before * 100.0, Unit::Percent});
        // What zfs list shows before and after: after a RAIDZ expansion less than the pool's
        // growth, the deflate ratio staying the original width's.
        const auto usableBefore = number(kv, "usable_before");
        const auto usableAfter = number(kv, "usable_after");
        if (usableBefore && usableAfter && *usableBefore > 0) {
            out.metrics.push_back({prefix + "usable_growth",
                                   (*usableAfter - *usableBefore) / *usableBefore * 100.0,
                                   Unit::Percent});
        }
        if (const auto scrub = number(kv, "scrub_seconds"))
            out.metrics.push_back({prefix + "scrub_seconds", *scrub, Unit::Seconds});
        if (const auto members = number(kv, "members_after"))
            out.metrics.push_back({prefix + "members", *members, Unit::Count});
        if (md_) {
            out.caveats.push_back("md: " + valueOr(kv, "level_before") + " of " +
                                  valueOr(kv, "members_before") + " members became " +
                                  valueOr(kv, "level_after") + " of " +
                                  valueOr(kv, "members_after"));
        }
        if (drill_.readLoad)
            LB_TRY_VOID(addReadLoad(kv, prefix, *seconds, out));
        if (valueOr(kv, "mounted") != "1") {
            out.failed = true;
            out.failureReason = "the file system was not mounted after the drill";
        }
        return out;
    }

    // What the drill runs to grow the layout, as plan shows it.
    std::string growProgram() const { return md_ ? "mdadm" : "zpool"; }
    std::vector<std::string> growArgs() const {
        std::vector<std::string> args;
        switch (drill_.action) {
        case DrillAction::MdGrow:
        case DrillAction::MdRaid6:
            args = {"--grow", target_,
                    drill_.action == DrillAction::MdRaid6 ? "--level=6" : "--raid-devices=+N"};
            break;
        case DrillAction::ZfsAddVdev:
            args = {"add", "-f", target_};
            break;
        default:
            args = {"attach", target_};
            break;
        }
        args.insert(args.end(), words_.begin(), words_.end());
        return args;
    }

private:
    // What the read load running during the drill met: its errors and throughput; a failed run
    // where a read failed or the file changed.
    static Expected<void> addReadLoad(const std::map<std::string, std::string>& kv,
                                      const std::string& prefix, double seconds, ParsedRun& out) {
        const auto passes = number(kv, "read_passes");
        const auto errors = number(kv, "read_errors");
        const auto perPass = number(kv, "read_bytes_per_pass");
        if (!passes || !errors || !perPass)
            return badInput("the drill reported no read load figures");
        out.metrics.push_back({prefix + "read_errors", *errors, Unit::Count});
        if (*passes > 0 && seconds > 0)
            out.metrics.push_back(
                {prefix + "read_throughput", *passes * *perPass / seconds, Unit::BytesPerSecond});
        else
            out.caveats.push_back("the drill ended before the read load finished one pass");
        if (*errors > 0) {
            out.failed = true;
            out.failureReason = std::to_string(static_cast<long long>(*errors)) +
                                " reads failed while the layout was reshaped";
        }
        if (valueOr(kv, "intact") != "1") {
            out.failed = true;
            out.failureReason = "the read-load file changed while the layout was reshaped";
        }
        return {};
    }

    ScenarioDrill drill_;
    std::string target_;
    std::vector<std::string> words_;
    bool md_;
};

} // namespace

Expected<std::unique_ptr<Probe>> drillProbe(const Scenario& scenario, const ScenarioLayout& layout,
                                            const ScenarioDrill& drill) {
    if (drill.action == DrillAction::FailRebuild)
        return rebuildDrillProbe(scenario, layout, drill);
    // The spares' paths, as the layout's plan made them ready.
    LayoutPlan scratch;
    auto spares = planDisks(scratch, scenario, layout, drill.disks, {});
    if (!spares)
        return fail(spares.error());
    const bool md = isMd(layout.kind);
    if (!md && !isZfs(layout.kind))
        return badInput("drill " + std::string(enumName(drill.action)) + ": layout '" +
                        layout.name + "' is neither md nor ZFS");
    std::vector<std::string> words;
    if (drill.action == DrillAction::ZfsAddVdev) {
        // One more vdev of the layout's shape (its width, its dRAID layout).
        words = vdevSpec(layout.kind, *spares, 1, layout.draid);
    } else if (drill.action == DrillAction::RaidzExpand) {
        words.push_back("raidz" + std::to_string(parityOf(layout.kind)) + "-0");
        words.insert(words.end(), spares->begin(), spares->end());
    } else {
        words = *spares;
    }
    return std::unique_ptr<Probe>(std::make_unique<DrillProbe>(
        drill, md ? layout.mdDevice : layout.pool, std::move(words), md));
}

Expected<LayoutPlan> planDrill(const Scenario& scenario, const ScenarioLayout& layout,
                               const ScenarioDrill& drill, const std::string& workdir) {
    if (drill.action == DrillAction::FailRebuild)
        return planRebuildDrill(scenario, layout, drill, workdir);
    LB_TRY(probe, drillProbe(scenario, layout, drill));
    const auto* own = static_cast<const DrillProbe*>(probe.get());
    LayoutPlan plan;
    plan.layout = layout.name;
    plan.workdir = workdir;
    Command grow;
    grow.program = own->growProgram();
    grow.args = own->growArgs();
    plan.steps.push_back({"grow the layout: " + std::string(enumName(drill.action)) +
                              (drill.readLoad ? ", a file read over and over meanwhile" : ""),
                          std::move(grow), std::nullopt, false,
                          "a grown layout is not shrunk back; the layout's teardown removes it "
                          "and clears the spares"});
    return plan;
}

} // namespace lb
