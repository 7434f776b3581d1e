// The netload probe: options table -> lb-netload argv, and lb-netload's fio-shaped JSON ->
// iscsi.* / nfs.* metrics through fio's own parser.
#include "probes/fio_json.h"
#include "probes/netload.h"
#include "probes/registry.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb {

namespace netload {

namespace {

constexpr std::string_view versionKey = "\"lb-netload version\"";
constexpr std::string_view fioVersionKey = "\"fio version\"";

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The '{' whose first key is "lb-netload version": the position of that key, if any.
std::optional<std::size_t> findVersionKey(std::string_view text) {
    for (auto pos = text.find('{'); pos != std::string_view::npos; pos = text.find('{', pos + 1)) {
        std::size_t i = pos + 1;
        while (i < text.size() && isSpace(text[i]))
            ++i;
        if (text.substr(i).starts_with(versionKey))
            return i;
    }
    return std::nullopt;
}

std::string firstLine(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        auto line = text.substr(pos, eol - pos);
        while (!line.empty() && isSpace(line.back()))
            line.remove_suffix(1);
        if (!line.empty())
            return std::string(line);
        pos = eol + 1;
    }
    return {};
}

void replacePrefix(std::string& s, std::string_view from, std::string_view to) {
    if (s.starts_with(from))
        s.replace(0, from.size(), to);
}

} // namespace

std::string protocolOf(std::string_view url) {
    if (url.starts_with("iscsi://"))
        return "iscsi";
    if (url.starts_with("nfs://"))
        return "nfs";
    return {};
}

Expected<ParsedRun> parseJson(std::string_view stdoutText, std::string_view stderrText,
                              std::string_view protocol) {
    const auto key = findVersionKey(stdoutText);
    if (!key) {
        std::string msg = "no lb-netload JSON object found in the output";
        if (const auto line = firstLine(stderrText); !line.empty())
            msg += " (stderr: " + line + ")";
        return badInput(msg);
    }
    // fio's parser wants "fio version" as the first key. The key is renamed in place and padded
    // with spaces before its ':' (valid JSON), so byte offsets in error messages stay true.
    std::string text(stdoutText);
    std::string renamed(fioVersionKey);
    renamed.append(versionKey.size() - fioVersionKey.size(), ' ');
    text.replace(*key, versionKey.size(), renamed);

    auto run = fio::parseJson(text, stderrText);
    if (!run)
        return fail(Error{run.error().kind, "lb-netload output: " + run.error().message});

    const std::string prefix = std::string(protocol) + ".";
    run->workload = "netload";
    for (auto& m : run->metrics)
        replacePrefix(m.name, "fio.", prefix);
    for (auto& c : run->caveats)
        replacePrefix(c, "fio.", prefix);
    for (auto& n : run->notes)
        replacePrefix(n.metrics, "fio.", prefix);
    replacePrefix(run->failureReason, "fio job", "lb-netload job");
    return run;
}

} // namespace netload

namespace {

using netload::protocolOf;

// lb-netload's options, in the order a form shows them: the one table argv, the scenario's checks
// and the GUI's form all come from.
const std::vector<OptionSpec> netloadOptions{
    {.name = "url",
     .label = "URL",
     .type = OptionType::String,
     .help = "iscsi://HOST[:PORT]/IQN/LUN or nfs://HOST/EXPORT/FILE[?version=4]; the "
             "protocol (iscsi or nfs) comes from the scheme. Or give target"},
    {.name = "target",
     .label = "Export",
     .type = OptionType::Choice,
     .help = "The layout's export ([layouts.export]): its iSCSI LUN (with its CHAP "
             "account) or a file in its NFS export; the URL is made from it",
     .choices = {"iscsi", "nfs"}},
    {.name = "file",
     .label = "NFS file",
     .type = OptionType::String,
     .help = "The file in the NFS export (target = nfs)",
     .defaultValue = "lb-netload.dat"},
    {.name = "nfs_version",
     .label = "NFS version",
     .type = OptionType::Choice,
     .help = "3 or 4 (target = nfs)",
     .defaultValue = "3",
     .choices = {"3", "4"}},
    {.name = "rw",
     .label = "Pattern",
     .type = OptionType::Choice,
     .help = "Sequential or random, read or write",
     .defaultValue = "randread",
     .choices = {"read", "write", "randread", "randwrite"}},
    {.name = "bs",
     .label = "Block size",
     .type = OptionType::Size,
     .help = "Bytes per I/O",
     .min = 512,
     .max = 16 << 20,
     .defaultValue = "4k"},
    {.name = "iodepth",
     .label = "Queue depth",
     .type = OptionType::Int,
     .help = "I/Os in flight",
     .min = 1,
     .max = 1024,
     .defaultValue = "32"},
    {.name = "runtime",
     .label = "Runtime (s)",
     .type = OptionType::Int,
     .help = "Seconds of I/O (time based; give runtime or size)",
     .min = 1,
     .max = 86400},
    {.name = "size",
     .label = "Size",
     .type = OptionType::Size,
     .help = "Bytes to transfer, or with runtime the region used",
     .min = 512},
    // Not "name" and "timeout": a workload's own keys of those names are the run's.
    {.name = "job",
     .label = "Job name",
     .type = OptionType::String,
     .help = "Names the metrics <protocol>.<job>.*",
     .defaultValue = "netload"},
    {.name = "net_timeout",
     .label = "Network timeout (s)",
     .type = OptionType::Int,
     .help = "Bound on every network step: connect, login, mount, each I/O",
     .min = 1,
     .max = 3600,
     .defaultValue = "10"},
};

class NetloadProbe final : public Probe {
public:
    std::string_view name() const override { return "netload"; }
    const std::vector<OptionSpec>& options() const override { return netloadOptions; }
    Command versionCommand() const override { return {"lb-netload", {"--version"}}; }

    Expected<void> validate(const OptionValues& o, const std::string& where) const override {
        if (o.has("url") == o.has("target"))
            return badInput(where + ": workloads.url: give exactly one of url or target");
        for (const char* nfsOnly : {"file", "nfs_version"})
            if (o.given(nfsOnly) && o.text("target") != "nfs")
                return badInput(where + ": workloads." + nfsOnly +
                                ": only a workload with target = \"nfs\" takes it");
        if (o.given("file") && (o.text("file").find('/') != std::string::npos ||
                                o.text("file").find('?') != std::string::npos))
            return badInput(where + ": workloads.file: a file name without '/' or '?'");
        if (o.has("target"))
            return validateJob(o, where);
        const std::string url = o.text("url");
        const std::string protocol = protocolOf(url);
        if (protocol.empty())
            return badInput(where + ": workloads.url: '" + url +
                            "' is neither iscsi://HOST/IQN/LUN nor nfs://HOST/EXPORT/FILE");
        const auto rest = std::string_view(url).substr(protocol.size() + 3);
        const auto slash = rest.find('/');
        // A CHAP secret in the URL would be on lb-netload's command line for every local user
        // to read, and in the scenario stored with the campaign.
        if (protocol == "iscsi" && rest.substr(0, slash).find('@') != std::string_view::npos)
            return badInput(where +
                            ": workloads.url: give no user or secret in the URL; for CHAP, put "
                            "the LUN on a layout's [layouts.export] with chap_user and "
                            "chap_password and use target = \"iscsi\"");
        if (slash == 0 || slash == std::string_view::npos || slash + 1 == rest.size())
            return badInput(where + ": workloads.url: '" + url + "' names no " +
                            (protocol == "iscsi" ? "target and LUN" : "export and file"));
        if (protocol == "iscsi") {
            const auto path = rest.substr(slash + 1);
            const auto lunSlash = path.rfind('/');
            if (lunSlash == std::string_view::npos || lunSlash + 1 == path.size() ||
                path.substr(lunSlash + 1).find_first_not_of("0123456789") != std::string_view::npos)
                return badInput(where + ": workloads.url: '" + url +
                                "' has no LUN number (iscsi://HOST/IQN/LUN)");
        }
        return validateJob(o, where);
    }

    static Expected<void> validateJob(const OptionValues& o, const std::string& where) {
        if (!o.has("runtime") && !o.has("size"))
            return badInput(where + ": workloads: give runtime or size");
        const std::string job = o.text("job");
        if (job.empty() || job.find_first_of(".@ /") != std::string::npos)
            return badInput(where + ": workloads.job: '" + job +
                            "' must be non-empty without '.', '@', '/' or spaces (it is part of "
                            "the metric names)");
        if (o.has("size") && o.bytes("size") < o.bytes("bs"))
            return badInput(where + ": workloads.size: smaller than one block of bs");
        return {};
    }

    // The URL of the layout's export: its LUN or a file in it. Never a CHAP secret: that goes
    // to lb-netload on its stdin.
    static Expected<std::string> exportUrl(const OptionValues& o, const ExportTarget& e) {
        if (o.text("target") == "iscsi") {
            if (!e.iscsi())
                return badInput("netload: the layout has no iSCSI export");
            return "iscsi://" + e.iscsiPortal + "/" + e.iqn + "/" + std::to_string(e.lun);
        }
        if (!e.nfs())
            return badInput("netload: the layout has no NFS export");
        const std::string server =
            e.nfsServer.find(':') != std::string::npos ? "[" + e.nfsServer + "]" : e.nfsServer;
        return "nfs://" + server + e.nfsPath + "/" + o.text("file") +
               (o.text("nfs_version") == "4" ? "?version=4" : "");
    }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        Command& c = mc.command;
        c.program = "lb-netload";
        c.env = {{"LC_ALL", "C"}};
        auto made = o.has("target") ? exportUrl(o, ctx.exported) : o.text("url");
        if (!made)
            return fail(made.error());
        const std::string url = *made;
        c.arg(url);
        if (o.text("target") == "iscsi" && !ctx.exported.chapUser.empty()) {
            // The secret on stdin (fd 0), where no other process can read it.
            c.arg("--chap-user=" + ctx.exported.chapUser).arg("--chap-secret-fd=0");
            c.secretStdin = ctx.exported.chapPassword + "\n";
        }
        c.arg("--rw=" + o.text("rw"));
        c.arg("--bs=" + std::to_string(o.bytes("bs")));
        c.arg("--iodepth=" + std::to_string(o.integer("iodepth")));
        if (o.has("runtime"))
            c.arg("--runtime=" + std::to_string(o.integer("runtime")));
        if (o.has("size"))
            c.arg("--size=" + std::to_string(o.bytes("size")));
        c.arg("--name=" + o.text("job"));
        const auto timeout = o.integer("net_timeout");
        c.arg("--timeout=" + std::to_string(timeout));
        // lb-netload bounds each step itself; this outer bound catches a stuck process.
        if (o.has("runtime"))
            c.timeout = std::chrono::seconds(o.integer("runtime") + 4 * timeout + 30);
        if (protocolOf(url) == "nfs" && url.find("version=4") != std::string::npos &&
            (o.text("rw") == "write" || o.text("rw") == "randwrite"))
            mc.caveats.push_back("NFSv4 writes need a libnfs that can encode NFSv4 WRITE "
                                 "(Debian 12's libnfs 4.0.0 cannot: use version=3)");
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>&,
                              const OptionValues& o) const override {
        return netload::parseJson(r.stdoutText, r.stderrText,
                                  o.has("target") ? o.text("target") : protocolOf(o.text("url")));
    }

private:
};

} // namespace

std::unique_ptr<Probe> makeNetloadProbe() {
    return std::make_unique<NetloadProbe>();
}

} // namespace lb
