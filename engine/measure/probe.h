// The Probe interface: one adapter per external tool. A probe declares its options as a table
// (which validates scenarios and builds argv, and later the GUI's forms), builds the commands of
// one measured run, and parses the tool's output as a pure function of text.
//
// Required hooks: name, options, versionCommand, command, parse. validate and parseVersion
// have defaults.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"
#include "engine/exec/line_trigger.h"
#include "engine/exec/runner.h"
#include "engine/exec/target_os.h"
#include "engine/measure/run.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lb {

// Number (a float), List (strings) and IntList (whole numbers) serve the scenario's own tables
// (engine/scenario/scenario_keys.h); a probe's options are single values of the first six types.
enum class OptionType { Bool, Int, Size, String, Choice, Path, Number, List, IntList };

// One option of a probe, written as a table entry with designated initializers, the default
// stated there and nowhere else (fio's options.c is the model):
//   {.name = "runtime", .label = "Runtime (s)", .type = OptionType::Int,
//    .help = "Seconds per run", .min = 1, .max = 86400, .defaultValue = "10"}
// validateOptions fills the default in, so the probe reads every option that has one through the
// typed accessors of OptionValues without a fallback of its own.
struct OptionSpec {
    std::string name;  // key in the scenario's table ([[workloads]] for a probe's options)
    std::string label; // short text for forms
    OptionType type = OptionType::String;
    std::string help;
    std::optional<std::int64_t> min; // for Int and Size
    std::optional<std::int64_t> max;
    // As written in a scenario ("a, b" for a list); empty: no default (the option is absent, or
    // its default depends on the rest of the scenario and the help says which).
    std::string defaultValue;
    std::vector<std::string> choices;
    bool required = false;
};

// A validated value: Size and Int become integers (bytes for sizes), Bool a bool.
using OptionValue = std::variant<bool, std::int64_t, std::string>;

// A workload's options as validated against its probe's table: each has a value when the
// scenario gave one or the table states a default. Reading an option that has neither gives 0,
// "" or false; has() says whether there is a value, given() whether the scenario wrote it.
class OptionValues {
public:
    void set(std::string name, OptionValue v, bool given = true);
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    bool given(const std::string& name) const { return given_.count(name) != 0; }
    std::int64_t integer(const std::string& name) const;
    std::uint64_t bytes(const std::string& name) const;
    std::string text(const std::string& name) const;
    bool flag(const std::string& name) const;
    // The value when there is one: for options without a default.
    std::optional<std::int64_t> maybeInteger(const std::string& name) const;
    std::optional<std::uint64_t> maybeBytes(const std::string& name) const;
    const std::map<std::string, OptionValue>& all() const { return values_; }
    bool operator==(const OptionValues&) const = default;

private:
    std::map<std::string, OptionValue> values_;
    std::set<std::string> given_;
};

// A raw option as read from a scenario, with its position for error messages.
struct RawOption {
    using Value = std::variant<bool, std::int64_t, double, std::string>;
    Value value;
    int line = 0;
    int column = 0;
};

// Checks raw options against a table: unknown names, wrong types and values out of range are
// bad input "FILE:LINE:COL: FIELDPREFIX NAME: ..." (prefix e.g. "workloads[2]."). Defaults are
// filled in.
Expected<OptionValues> validateOptions(const std::vector<OptionSpec>& table,
                                       const std::map<std::string, RawOption>& raw,
                                       const std::string& where,
                                       const std::string& fieldPrefix = {});

// The layout's export ([layouts.export]) as its clients reach it. Empty portal or server: the
// layout is not exported that way. Probes with a `target` option build their URLs, logins and
// mounts from this, so a scenario never spells them out.
struct ExportTarget {
    std::string iscsiPortal; // "HOST:PORT" ("[v6addr]:PORT")
    std::string iqn;
    int lun = 0;
    std::string chapUser;     // empty: no CHAP
    std::string chapPassword; // a secret: every command carries it as a masked argument
    std::string nfsServer;    // HOST
    std::string nfsPath;      // the exported path; NFSv3 mounts it, NFSv4 reaches it by it too
    std::vector<int> nfsVersions;
    bool iscsi() const { return !iscsiPortal.empty(); }
    bool nfs() const { return !nfsServer.empty(); }
    bool operator==(const ExportTarget&) const = default;
};

// A client host a workload runs on ([[clients]]), as a probe that drives several clients at once
// sees it: how the workbench reaches the tool's server there, and where it works.
struct WorkloadClient {
    std::string name;
    std::string address; // from the workbench
    int fioPort = 8765;  // fio --server
    std::string workdir; // on the client
    bool operator==(const WorkloadClient&) const = default;
};

// Where and how a workload runs.
struct WorkloadContext {
    std::string workdir;        // a directory on the layout under test
    std::uint64_t ramBytes = 0; // the target's memory; 0 when it is not known
    bool root = false;
    // A dry run (`plan`), not a run: what only the target can tell and nobody asked it (its
    // memory) is shown as a marked placeholder, "<2 × target memory, MiB>"; a run refuses it.
    bool dryRun = false;
    bool directIo = true;          // the file system accepts O_DIRECT
    TargetOs os = TargetOs::Linux; // what runs the tools: their command lines follow it
    int iteration = 0;
    std::string layoutName; // shown by tools that label their output (bonnie++ -m)
    ExportTarget exported;  // the layout's export, if it has one
    // The workload's clients, for a probe that drives them itself (drivesClients()); empty when
    // it runs on the layout's host or on its one client.
    std::vector<WorkloadClient> clients;
};

// A command for one of the workload's clients (by name), which the engine runs there.
struct ClientCommand {
    std::string client;
    Command command;
};

// The size of the blocks of one part of a measured run's I/O, where the probe knows it (fio's bs):
// the campaign says what a ZFS record makes of blocks smaller than it. `metrics` is the glob of
// the metrics that part moves; `what` names the part when it is not the whole run ("job small,
// reads").
struct IoBlockSize {
    std::string metrics = "*";
    std::string what;
    std::uint64_t bytes = 0;
    bool operator==(const IoBlockSize&) const = default;
};

struct MeasuredCommand {
    std::vector<Command> prepare; // run before, not measured (input files)
    Command command;              // the measured run
    std::vector<Command> inspect; // run after a successful measured run; outputs go to parse
    std::vector<Command> cleanup; // run after, whatever happened
    std::vector<std::string> caveats;
    std::vector<MetricNote> notes; // on the run's metrics, known before it runs
    // The bytes the measured run reads or writes again (its files), where the probe knows them:
    // the campaign holds them against the memory that could cache them.
    std::optional<std::uint64_t> workingSetBytes;
    std::vector<IoBlockSize> blockSizes;
    // A steady-state round's tracked variable: the metrics summed for it ("fio.*.iops").
    std::string steadyStateMetrics;
    // On the clients of a probe that drives them (fio's servers): before `prepare`, and after
    // `cleanup` whatever happened.
    std::vector<ClientCommand> clientPrepare;
    std::vector<ClientCommand> clientCleanup;
    // Commands the workbench runs on its own machine while the measured run goes on, each when
    // the run prints its line (a drill's pull_command, when the drill is ready for the pull).
    std::vector<LineTrigger> localTriggers;
};

class Probe {
public:
    virtual ~Probe() = default;
    virtual std::string_view name() const = 0;
    virtual const std::vector<OptionSpec>& options() const = 0;
    // Checks that concern several options at once (the table checks each alone). `where` is
    // "FILE:LINE" of the workload.
    virtual Expected<void> validate(const OptionValues& opts, const std::string& where) const;
    virtual Command versionCommand() const = 0;
    // Tool version from the version command's output.
    virtual std::string parseVersion(const ProcessResult& r) const;
    virtual Expected<MeasuredCommand> command(const OptionValues& opts,
                                              const WorkloadContext& ctx) const = 0;
    // Metrics from a finished, successful measured run: the whole process result (wall and CPU
    // time are the measurement for xz) and the outputs of the inspect commands, in order.
    virtual Expected<ParsedRun> parse(const ProcessResult& result,
                                      const std::vector<ProcessResult>& inspected,
                                      const OptionValues& opts) const = 0;
    // The same with the context the command was built for (a probe that drives clients checks
    // that each reported). Defaults to the one above.
    virtual Expected<ParsedRun> parseFor(const ProcessResult& result,
                                         const std::vector<ProcessResult>& inspected,
                                         const OptionValues& opts,
                                         const WorkloadContext& ctx) const;
    // True when the probe runs one workload on several client hosts at once by itself (fio's
    // client/server mode): its command runs on the workbench and reaches ctx.clients. A workload
    // on one client runs there like any other; other probes take one client only.
    virtual bool drivesClients() const { return false; }
    // The names of the metrics a workload of this probe produces (`workload` is its name), for
    // checking a scenario's [decide] patterns; empty when they are known only after it ran.
    virtual std::vector<std::string> metricNames(const std::string& workload,
                                                 const OptionValues& opts) const;
    // SSD preconditioning and steady state (SNIA SSS PTS), where supportsSteadyState(): the
    // workload-independent preconditioning (sequential 128 KiB writes of twice `capacityBytes`
    // where the workload runs), and one round of the workload's own pattern lasting `seconds`,
    // parsed like the measured run, whose file stays for the next round (command()'s cleanup
    // removes it). The defaults refuse; checkSteadyState (engine/measure/steady_state.h) judges
    // rounds.
    virtual bool supportsSteadyState() const { return false; }
    virtual Expected<MeasuredCommand> preconditionCommand(const OptionValues& opts,
                                                          const WorkloadContext& ctx,
                                                          std::uint64_t capacityBytes) const;
    virtual Expected<MeasuredCommand>
    steadyStateRound(const OptionValues& opts, const WorkloadContext& ctx, int seconds) const;
};

// The probes the application registered, by name. Explicit registration, no static magic.
class ProbeRegistry {
public:
    void add(std::unique_ptr<Probe> probe);
    const Probe* find(std::string_view name) const;
    std::vector<std::string> names() const;

private:
    std::vector<std::unique_ptr<Probe>> probes_;
};

} // namespace lb
