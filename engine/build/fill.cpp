// Fill and age a layout before its workloads run at a fill level (engine/build/fill.h): the
// seeded ageing script, its probe, and what plan says of it.
#include "engine/build/fill.h"

#include "engine/base/size.h"
#include "engine/build/drill_internal.h"
#include "engine/measure/fill_levels.h"

#include <chrono>
#include <cmath>
#include <sstream>

namespace lb {

namespace drill_report {

// A layout's usable and used bytes, for the drills' and the ageing's shell alike: $kind (md or
// fs: the mounted file system's df; otherwise ZFS: the pool's root dataset, used + available,
// which df's size understates once the pool holds data elsewhere), $target (md device or pool),
// $mnt (the mounted directory). used() counts ZFS's space after its transaction group is out.
const char* const spaceShell = R"sh(
usable() {
    case $kind in
    md | fs) df -P -k "$mnt" | awk 'NR == 2 { printf "%.0f", $2 * 1024 }' ;;
    *) zfs list -Hp -o used,avail "$target" 2>/dev/null | awk 'NR == 1 { printf "%.0f", $1 + $2 }' |
        grep . || df -P -k "$mnt" | awk 'NR == 2 { printf "%.0f", $2 * 1024 }' ;;
    esac
}
# ZFS counts what was written only when its transaction group is written out: zpool sync first
# (zfs-fuse has no zpool sync; sync(2) stands in).
used() {
    case $kind in
    md | fs) ;;
    *) zpool sync "$target" 2>/dev/null || sync ;;
    esac
    df -P -k "$mnt" | awk 'NR == 2 { printf "%.0f", $3 * 1024 }'
}
)sh";

} // namespace drill_report

namespace {

// The ageing, for POSIX sh and busybox alike. Arguments: kind (md, zfs or fs), target (md device
// or pool), the mounted directory, the level (a share of the usable space), the seed, the most
// it may write in all (0: no cap), the file system on md (ext4, xfs). Its state (rounds, bytes
// so far, the files present) stays in DIR/.lb-fill for the next level.
constexpr const char* fillHead = R"sh(
kind=$1 target=$2 mnt=$3 level=$4 seed=$5 max=$6 fs=$7
w="$mnt/.lb-fill"
say() { echo "lb-drill $*"; }
fail() { echo "$*" >&2; exit 1; }
up() { cut -d' ' -f1 /proc/uptime; }
)sh";

constexpr const char* fillBody = R"sh(
mkdir -p "$w/f" || fail "cannot make $w"
[ -f "$w/state" ] || echo "0 0 0 0" > "$w/state"
[ -f "$w/files" ] || : > "$w/files"
read round written deleted rewritten < "$w/state"
start=$(up) before=$written first=$round
total=$(usable)
[ -n "$total" ] && [ "$total" -gt 0 ] || fail "cannot tell the usable space of $mnt"
goal=$(awk -v t="$total" -v l="$level" 'BEGIN { printf "%.0f", t * l }')
chunk=$(awk -v t="$total" 'BEGIN { c = t / 40; if (c < 4194304) c = 4194304; printf "%.0f", c }')
large=$(awk -v t="$total" 'BEGIN { c = t / 50; if (c > 16777216) c = 16777216; if (c < 65536) c = 65536; printf "%.0f", c - c % 4096 }')
sync
now=$(used)
while [ "$now" -lt "$goal" ]; do
    [ $((round - first)) -lt 2000 ] || fail "level $level not reached after 2000 rounds: $now of $goal bytes used"
    round=$((round + 1))
    awk -v seed="$seed" -v round="$round" -v chunk="$chunk" -v large="$large" \
        -v need="$((goal - now))" -v list="$w/files" -v out="$w/files.new" '
    BEGIN {
        srand(seed * 7919 + round)
        n = 0
        while ((getline line < list) > 0) {
            split(line, p, " "); n++; name[n] = p[1]; size[n] = p[2] + 0; alive[n] = 1
        }
        want = chunk
        if (need * 4 / 3 < want) want = need * 4 / 3
        if (want < 65536) want = 65536
        del = want / 4
        for (k = 0; del > 0 && n > 0 && k < 4 * n; k++) {
            i = int(rand() * n) + 1
            if (!alive[i]) continue
            alive[i] = 0; del -= size[i]; print "d", name[i], size[i]
        }
        r = 0
        for (t = 0; t < 8 && r < 4 && n > 0; t++) {
            i = int(rand() * n) + 1
            if (!alive[i] || size[i] < 1048576) continue
            r++
            for (b = 0; b < 16; b++) print "r", name[i], int(rand() * (size[i] / 4096))
        }
        m = 0
        while (want > 0) {
            x = rand()
            if (x < 0.6) s = 4096 * (1 + int(rand() * 16))
            else if (x < 0.9) s = 262144 + 4096 * int(rand() * 193)
            else s = 4194304 + 4096 * int(rand() * 3073)
            if (s > large) s = large
            m++; nm = "r" round "-" m
            print "w", nm, s / 4096
            n++; name[n] = nm; size[n] = s; alive[n] = 1
            want -= s
        }
        for (i = 1; i <= n; i++) if (alive[i]) print name[i], size[i] > out
    }' > "$w/ops" || fail "awk failed planning round $round"
    planned=$(awk '$1 == "w" { s += $3 * 4096 } END { printf "%.0f", s }' "$w/ops")
    [ "$max" = 0 ] || [ $((written + planned)) -le "$max" ] ||
        fail "fill-max: stopped after writing $written bytes (the next round writes $planned), with $now of the $goal bytes of level $level used"
    while read -r op name a; do
        case $op in
        w) dd if=/dev/urandom of="$w/f/$name" bs=4096 count="$a" 2>/dev/null ||
               fail "cannot write $w/f/$name ($((a * 4096)) bytes) at $(used) bytes used: full?"
           written=$((written + a * 4096)) ;;
        d) rm -f "$w/f/$name"; deleted=$((deleted + a)) ;;
        r) dd if=/dev/urandom of="$w/f/$name" bs=4096 count=1 seek="$a" conv=notrunc 2>/dev/null ||
               fail "cannot rewrite a block of $w/f/$name"
           rewritten=$((rewritten + 4096)) ;;
        esac
    done < "$w/ops"
    mv "$w/files.new" "$w/files"
    echo "$round $written $deleted $rewritten" > "$w/state"
    sync
    now=$(used)
done
sync
say "usable_bytes=$total" "used_bytes=$(used)" "goal_bytes=$goal" "written_bytes=$written" \
    "level_written_bytes=$((written - before))" "deleted_bytes=$deleted" \
    "rewritten_bytes=$rewritten" "files=$(wc -l < "$w/files" | tr -d ' ')" \
    "rounds=$((round - first))" \
    "seconds=$(awk -v a="$start" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }')"
case $kind in
zfs)
    cap=$(zpool list -H -o capacity "$target" 2>/dev/null | tr -d '%')
    frag=$(zpool list -H -o fragmentation "$target" 2>/dev/null | tr -d '%')
    say "pool_capacity=${cap:--}" "pool_fragmentation=${frag:--}"
    ;;
md)
    case $fs in
    ext4) e2freefrag "$target" 2>/dev/null | awk -F: '
        /^Num\. free extent/ { v = $2; gsub(/[^0-9]/, "", v); n = v }
        /^Avg\. free extent/ { v = $2; gsub(/[^0-9]/, "", v); a = v * 1024 }
        END { if (n != "") printf "lb-drill free_extents=%s free_extent_avg_bytes=%.0f\n", n, a }' ;;
    xfs) bs=$(xfs_db -r -c "sb 0" -c "p blocksize" "$target" 2>/dev/null | awk '{ print $3 }')
        xfs_db -r -c "freesp -s" "$target" 2>/dev/null | awk -v bs="${bs:-4096}" '
        /total free extents/ { n = $4 } /average free extent size/ { a = $5 * bs }
        END { if (n != "") printf "lb-drill free_extents=%s free_extent_avg_bytes=%.0f\n", n, a }' ;;
    esac
    ;;
esac
)sh";

const std::string& fillScript() {
    static const std::string script =
        std::string(fillHead).append(drill_report::spaceShell).append(fillBody);
    return script;
}

// The level as the script takes it: "0.8".
std::string levelArg(double level) {
    std::ostringstream out;
    out << level;
    return out.str();
}

class FillProbe final : public Probe {
public:
    FillProbe(double level, std::vector<std::string> args)
        : level_(level), args_(std::move(args)) {}

    std::string_view name() const override { return "fill"; }
    const std::vector<OptionSpec>& options() const override {
        static const std::vector<OptionSpec> none;
        return none;
    }
    Command versionCommand() const override {
        Command c;
        c.program = "sh";
        c.args = {"-c", "echo layoutbench-fill 1"};
        return c;
    }
    std::string parseVersion(const ProcessResult& r) const override {
        return r.stdoutText.substr(0, r.stdoutText.find('\n'));
    }

    Expected<MeasuredCommand> command(const OptionValues&,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        mc.command.program = "sh";
        mc.command.args = {"-c", fillScript(), "lb-fill", args_[0], args_[1], ctx.workdir};
        mc.command.args.insert(mc.command.args.end(), args_.begin() + 2, args_.end());
        mc.command.env = {{"LC_ALL", "C"}};
        mc.command.timeout = std::chrono::hours(48);
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& result, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        using drill_report::number;
        const auto kv = drill_report::parse(result.stdoutText);
        const auto usable = number(kv, "usable_bytes");
        const auto used = number(kv, "used_bytes");
        if (!usable || !used || *usable <= 0)
            return badInput("the ageing reported no usable and used bytes (no 'lb-drill "
                            "usable_bytes=' and 'used_bytes=' line)");
        ParsedRun out;
        out.workload = fillWorkload;
        out.metrics.push_back({"fill.level", *used / *usable * 100.0, Unit::Percent});
        const auto add = [&](const char* key, Unit unit) {
            if (const auto v = number(kv, key))
                out.metrics.push_back({std::string("fill.") + key, *v, unit});
        };
        add("written_bytes", Unit::Count);
        add("level_written_bytes", Unit::Count);
        add("deleted_bytes", Unit::Count);
        add("rewritten_bytes", Unit::Count);
        add("files", Unit::Count);
        add("seconds", Unit::Seconds);
        add("pool_capacity", Unit::Percent);
        add("pool_fragmentation", Unit::Percent);
        add("free_extents", Unit::Count);
        add("free_extent_avg_bytes", Unit::Count);
        const auto seconds = number(kv, "seconds");
        const auto wrote = number(kv, "level_written_bytes");
        if (seconds && wrote && *seconds > 0 && *wrote > 0)
            out.metrics.push_back({"fill.write_rate", *wrote / *seconds, Unit::BytesPerSecond});
        std::string said = std::string("filled and aged to ").append(fillLevelText(level_));
        said.append(" of the usable space (")
            .append(fillLevelText(*used / *usable))
            .append(" used): ")
            .append(formatBytes(static_cast<std::uint64_t>(number(kv, "written_bytes").value_or(0)),
                                true))
            .append(" written by the ageing so far, not counted in the drive-wear projection");
        out.caveats.push_back(std::move(said));
        if (drill_report::valueOr(kv, "pool_fragmentation") == "-")
            out.caveats.push_back("this ZFS reports no fragmentation (zpool list -o "
                                  "fragmentation): its capacity only");
        return out;
    }

private:
    double level_;
    std::vector<std::string> args_; // kind, target, level, seed, max bytes, file system
};

} // namespace

std::uint64_t fillWriteBytes(double level, std::uint64_t usableBytes) {
    // Measured on zfs-fuse and ext4 (tests/fill): to 50 % of 95 MB the ageing wrote 74 MB and
    // deleted 28 MB; deleting whole files it deletes a little more than the quarter it aims at.
    return static_cast<std::uint64_t>(std::ceil(static_cast<double>(usableBytes) * level * 1.5));
}

Expected<std::unique_ptr<Probe>> fillProbe(const Scenario& scenario, const ScenarioLayout& layout,
                                           double level, std::uint64_t maxBytes) {
    if (layout.kind == LayoutKind::Dir && level > 0)
        return badInput("fill: layout '" + layout.name +
                        "' is a directory layoutbench did not make: it is not filled");
    // A pool on the host (and on an md array) is ZFS's to report; an md array's file system is
    // e2freefrag's or xfs_db's; a guest's disk is seen from inside as a mounted file system.
    const bool md = layout.kind != LayoutKind::Guest && isMd(layout.kind);
    const bool zfs = layout.kind != LayoutKind::Guest && isZfs(layout.kind);
    const std::string kind = md ? "md" : zfs ? "zfs" : "fs";
    std::vector<std::string> args{kind,
                                  md    ? layout.mdDevice
                                  : zfs ? layout.pool
                                        : std::string("-"),
                                  levelArg(level),
                                  std::to_string(scenario.fillSeed),
                                  std::to_string(maxBytes),
                                  layout.filesystem};
    return std::unique_ptr<Probe>(std::make_unique<FillProbe>(level, std::move(args)));
}

std::string describeFill(double level, std::uint64_t usableBytes,
                         std::optional<double> writeBytesPerSecond) {
    std::string out = std::string("fill and age to ").append(fillLevelText(level));
    out.append(" of the usable space");
    if (level <= 0)
        return out + ": nothing written; the pool's own figures recorded";
    const std::uint64_t bytes = fillWriteBytes(level, usableBytes);
    if (usableBytes == 0)
        return out + ": the usable space is known once built; about 1.5 times the level is written";
    out.append(": about ").append(formatBytes(bytes, true)).append(" written from empty");
    if (writeBytesPerSecond && *writeBytesPerSecond > 0) {
        const double seconds = static_cast<double>(bytes) / *writeBytesPerSecond;
        std::ostringstream t;
        t.precision(seconds < 120 ? 0 : 1);
        t << std::fixed;
        if (seconds < 120)
            t << seconds << " s";
        else if (seconds < 7200)
            t << seconds / 60.0 << " min";
        else
            t << seconds / 3600.0 << " h";
        out.append(", about ")
            .append(t.str())
            .append(" at the measured ")
            .append(formatBytes(static_cast<std::uint64_t>(*writeBytesPerSecond), true))
            .append("/s");
    } else {
        out += " (no write rate measured on this layout yet: time unknown)";
    }
    return out;
}

} // namespace lb
