// The scenario's exports and clients, and its secrets: masked in the copy a campaign stores,
// restored from the file when a campaign resumes.
#include "engine/base/input.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <sstream>

namespace lb {

bool hasMaskedSecrets(const Scenario& scenario) {
    return std::any_of(
        scenario.layouts.begin(), scenario.layouts.end(),
        [](const ScenarioLayout& l) { return l.exported && l.exported->chapPasswordMasked; });
}

Expected<void> restoreMaskedSecrets(Scenario& stored, const Scenario& source,
                                    const std::string& sourceName) {
    for (auto& layout : stored.layouts) {
        if (!layout.exported || !layout.exported->chapPasswordMasked)
            continue;
        const auto same =
            std::find_if(source.layouts.begin(), source.layouts.end(),
                         [&](const ScenarioLayout& l) { return l.name == layout.name; });
        if (same == source.layouts.end() || !same->exported || same->exported->chapPassword.empty())
            return badInput(sourceName + ": layout '" + layout.name +
                            "': the campaign stored its CHAP secret masked, and this scenario "
                            "gives none for the layout to resume with");
        layout.exported->chapPassword = same->exported->chapPassword;
        layout.exported->chapPasswordMasked = false;
    }
    return {};
}

std::vector<DataLossCaveat> dataLossCaveats(const ScenarioLayout& layout) {
    std::vector<DataLossCaveat> out;
    if (isZfs(layout.kind) && layout.zfsAux.sync == ZfsSync::Disabled)
        out.push_back({"*", "ZFS sync=disabled: synchronous writes were acknowledged before they "
                            "were on disk; a crash or power loss loses the last seconds of writes "
                            "the applications were told were safe"});
    const auto& e = layout.exported;
    if (e && e->nfs &&
        std::find(e->nfsOptions.begin(), e->nfsOptions.end(), "async") != e->nfsOptions.end())
        out.push_back({"nfs.*", "NFS export async: the server acknowledged writes and commits "
                                "before they were on disk; a server crash loses them while the "
                                "clients believe them safe"});
    // Said where the scenario turns the cache on; tgt's default (on) is left to its help.
    if (e && e->iscsi && e->writeCache.value_or(false))
        out.push_back({"iscsi.*", "iSCSI LUN write cache on: the target acknowledged writes from "
                                  "its memory; only those the initiator flushed (SYNCHRONIZE "
                                  "CACHE) survive a crash of the target"});
    return out;
}

namespace scenario_parse {

// An IQN as RFC 3720 writes one: iqn.YYYY-MM.reversed.domain[:name], lower case.
bool validIqn(const std::string& iqn) {
    if (iqn.size() < 12 || iqn.size() > 223 || iqn.rfind("iqn.", 0) != 0)
        return false;
    for (std::size_t i = 4; i < 11; ++i)
        if (i == 8 ? iqn[i] != '-' : !std::isdigit(static_cast<unsigned char>(iqn[i])))
            return false;
    return iqn[11] == '.' && std::all_of(iqn.begin(), iqn.end(), [](char c) {
               return std::islower(static_cast<unsigned char>(c)) ||
                      std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                      c == ':';
           });
}

// The IQN a layout's export gets unless the scenario names one.
std::string defaultIqn(const std::string& layoutName) {
    std::string name;
    for (char c : layoutName)
        name += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "iqn.2026-11.org.layoutbench:" + name;
}

// CHAP names and secrets travel in iSCSI URLs (user%secret@host) and iscsiadm arguments.
bool chapSafe(const std::string& s) {
    return !s.empty() && s.size() <= 255 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isgraph(static_cast<unsigned char>(c)) && c != '@' && c != '%' && c != '/' &&
               c != ':' && c != '"' && c != '\'' && c != '\\';
    });
}

namespace {

// The entry of a [layouts.export] key: Export's, else ExportIscsi's, else ExportNfs's.
const OptionSpec& exportKey(std::string_view n) {
    return hasScenarioKey(ScenarioTable::Export, n) ? scenarioKey(ScenarioTable::Export, n)
           : hasScenarioKey(ScenarioTable::ExportIscsi, n)
               ? scenarioKey(ScenarioTable::ExportIscsi, n)
               : scenarioKey(ScenarioTable::ExportNfs, n);
}

// Which servers export the layout (an iSCSI target, an NFS server, or both), and no key of a
// server that does not.
Expected<void> parseServers(const toml::table& t, const std::string& where, const Reporter& rep,
                            ScenarioExport& e) {
    LB_TRY(iscsi, getEnum<IscsiTarget>(t, exportKey("iscsi").name.c_str(), where, rep));
    e.iscsi = iscsi;
    LB_TRY(nfs, getEnum<NfsServer>(t, exportKey("nfs").name.c_str(), where, rep));
    e.nfs = nfs;
    if (!e.iscsi && !e.nfs)
        return badInput(rep.at(t, where + "iscsi",
                               "an export needs iscsi = \"tgt\" or \"lio\", or nfs = \"kernel\" "
                               "or \"ganesha\", or both"));
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (!e.iscsi && hasScenarioKey(ScenarioTable::ExportIscsi, k))
            return badInput(rep.at(key.source(), where + k, "only an iSCSI export takes it"));
        if (!e.nfs && hasScenarioKey(ScenarioTable::ExportNfs, k))
            return badInput(rep.at(key.source(), where + k, "only an NFS export takes it"));
    }
    return {};
}

// A LUN's size (none for an md array's own) and a zvol's block size: a power of two from 4K to
// 128K, of which the zvol's size is a multiple (OpenZFS before 2.2 refuses another size).
Expected<void> parseLunSize(const toml::table& t, const std::string& where, const Reporter& rep,
                            ScenarioExport& e) {
    if (e.lun == "device" && t.get("lun_size"))
        return badInput(rep.at(t, "lun_size", where + "lun_size",
                               "a device LUN is the whole array; only file and zvol LUNs take a "
                               "size"));
    LB_TRY(lunSize, getSize(t, scenarioKey(ScenarioTable::ExportIscsi, "lun_size"), where, rep,
                            SizeConvention::Binary));
    if (lunSize < (1ULL << 20) || lunSize % 4096 != 0)
        return badInput(
            rep.at(t, "lun_size", where + "lun_size", "must be at least 1M and a multiple of 4K"));
    e.lunSizeBytes = lunSize;
    LB_TRY(volBlock, getSize(t, scenarioKey(ScenarioTable::ExportIscsi, "volblocksize"), where, rep,
                             SizeConvention::Binary));
    if (t.get("volblocksize") && e.lun != "zvol")
        return badInput(rep.at(t, "volblocksize", where + "volblocksize",
                               "only a zvol LUN (lun = \"zvol\") has a volblocksize"));
    if (volBlock < 4096 || volBlock > 128 * 1024 || (volBlock & (volBlock - 1)) != 0)
        return badInput(rep.at(t, "volblocksize", where + "volblocksize",
                               "must be a power of two from 4K to 128K"));
    // OpenZFS before 2.2 refuses a volume size that is not a multiple of its block size.
    if (e.lun == "zvol" && lunSize % volBlock != 0)
        return badInput(rep.at(t, "lun_size", where + "lun_size",
                               "a zvol's size must be a multiple of its volblocksize (" +
                                   std::to_string(volBlock / 1024) + "K)"));
    e.volBlockBytes = volBlock;
    return {};
}

// The address, and what the LUN is (a file, a zvol, or an md layout's whole array), its size and
// a zvol's block size.
Expected<void> parseLun(const toml::table& t, const std::string& where, const Reporter& rep,
                        const ScenarioLayout& layout, ScenarioExport& e) {
    const bool zfs =
        isZfs(layout.kind) || (layout.guest && layout.guest->layout.rfind("zfs", 0) == 0);
    LB_TRY(address, getString(t, exportKey("address"), where, rep));
    if (t.get("address") && (address.empty() || hasSpace(address)))
        return badInput(rep.at(t, "address", where + "address", "expected a host name or address"));
    e.address = address;
    LB_TRY(lun, getChoice(t, exportKey("lun"), where, rep));
    e.lun = lun;
    if (e.lun == "zvol" && !zfs)
        return badInput(rep.at(t, "lun", where + "lun", "a zvol needs a ZFS layout"));
    if (e.lun == "device" && !isMd(layout.kind))
        return badInput(rep.at(t, "lun", where + "lun",
                               "only an md layout exports its array as the LUN (it then gets no "
                               "file system)"));
    if (e.lun == "device" && e.nfs)
        return badInput(rep.at(t, "nfs", where + "nfs",
                               "the md array is exported raw as the LUN (lun = \"device\"): there "
                               "is no file system to export over NFS"));
    return parseLunSize(t, where, rep, e);
}

// The iSCSI target: its IQN, tgt's target id, the LUN's number, the portal and tgt's control port.
Expected<void> parseTarget(const toml::table& t, const std::string& where, const Reporter& rep,
                           const ScenarioLayout& layout, ScenarioExport& e) {
    LB_TRY(iqn,
           getString(t, exportKey("iqn").name.c_str(), where, rep, false, defaultIqn(layout.name)));
    if (!validIqn(iqn))
        return badInput(rep.at(t, "iqn", where + "iqn",
                               "'" + iqn +
                                   "' is not an IQN (iqn.YYYY-MM.reversed.domain:name, lower "
                                   "case)"));
    e.iqn = iqn;
    LB_TRY(tid, getInt(t, exportKey("tid"), where, rep));
    e.tid = static_cast<int>(tid);
    if (e.iscsi == IscsiTarget::Lio && t.get("tid"))
        return badInput(rep.at(t, "tid", where + "tid", "only tgt numbers its targets"));
    // tgt keeps LUN 0 for its own controller.
    const OptionSpec& lunNumberKey = exportKey("lun_number");
    LB_TRY(lunNumber,
           getInt(t, lunNumberKey.name.c_str(), where, rep, defaultInteger(lunNumberKey),
                  e.iscsi == IscsiTarget::Tgt ? 1 : *lunNumberKey.min, *lunNumberKey.max));
    e.lunNumber = static_cast<int>(lunNumber);
    LB_TRY(portalPort, getInt(t, exportKey("portal_port"), where, rep));
    e.portalPort = static_cast<int>(portalPort);
    LB_TRY(control, getInt(t, exportKey("tgt_control_port"), where, rep));
    if (e.iscsi == IscsiTarget::Lio && t.get("tgt_control_port"))
        return badInput(rep.at(t, "tgt_control_port", where + "tgt_control_port",
                               "only tgt has a control port"));
    e.tgtControlPort = static_cast<int>(control);
    LB_TRY(cache, getChoice(t, exportKey("write_cache"), where, rep));
    if (cache != "default")
        e.writeCache = cache == "on";
    return {};
}

// The CHAP secret from chap_password_file, relative to the scenario: its first line.
Expected<std::string> readChapFile(const toml::table& t, const std::string& where,
                                   const std::string& baseDir, const Reporter& rep,
                                   const std::string& chapFile) {
    const std::string file = resolve(baseDir, chapFile);
    // The secret is its first line; a secret file of more than a page is not one.
    auto secret = readInput(file, {std::uint64_t{4096}, {}});
    if (!secret || secret->empty())
        return badInput(rep.at(t, "chap_password_file", where + "chap_password_file",
                               (secret ? escapeControl(file) + ": empty" : secret.error().message) +
                                   ": cannot read the CHAP secret (its first line)"));
    std::string password = secret->substr(0, secret->find('\n'));
    while (!password.empty() && (password.back() == '\r' || password.back() == ' '))
        password.pop_back();
    return password;
}

// CHAP: a user and a secret (given, or read from a file) together or not at all, in characters
// iSCSI URLs and iscsiadm carry.
Expected<void> parseChap(const toml::table& t, const std::string& where, const std::string& baseDir,
                         const Reporter& rep, ScenarioExport& e) {
    LB_TRY(chapUser, getString(t, exportKey("chap_user"), where, rep));
    LB_TRY(chapPassword, getString(t, exportKey("chap_password"), where, rep));
    LB_TRY(chapFile, getString(t, exportKey("chap_password_file"), where, rep));
    if (t.get("chap_password") && t.get("chap_password_file"))
        return badInput(rep.at(t, "chap_password_file", where + "chap_password_file",
                               "give chap_password or chap_password_file, not both"));
    if (!chapFile.empty()) {
        LB_TRY(fromFile, readChapFile(t, where, baseDir, rep, chapFile));
        chapPassword = fromFile;
    }
    const bool withSecret = t.get("chap_password") || t.get("chap_password_file");
    if (t.get("chap_user") && !withSecret)
        return badInput(rep.at(t, "chap_user", where + "chap_password",
                               "CHAP needs chap_password or chap_password_file with chap_user"));
    if (withSecret && !t.get("chap_user"))
        return badInput(rep.at(t, where + "chap_user", "CHAP needs chap_user with the password"));
    if (t.get("chap_user") && !chapSafe(chapUser))
        return badInput(rep.at(t, "chap_user", where + "chap_user",
                               "use printable characters other than @ % / : and quotes"));
    if (!withSecret)
        return {};
    // The stored copy of a scenario says "****" where the secret was (see maskSecrets).
    e.chapPasswordMasked = chapPassword == "****";
    const toml::node& at =
        t.get("chap_password") ? *t.get("chap_password") : *t.get("chap_password_file");
    if (!e.chapPasswordMasked && !chapSafe(chapPassword))
        return badInput(rep.at(at, where + "chap_password",
                               "use printable characters other than @ % / : and quotes"));
    if (!e.chapPasswordMasked && chapPassword.size() < 12)
        return badInput(rep.at(at, where + "chap_password",
                               "use at least 12 characters (initiators refuse shorter CHAP "
                               "secrets)"));
    e.chapUser = chapUser;
    e.chapPassword = e.chapPasswordMasked ? "" : chapPassword;
    return {};
}

// The initiators the target lets in: ALL, or addresses (tgt) or IQNs (LIO).
Expected<void> parseInitiators(const toml::table& t, const std::string& where, const Reporter& rep,
                               ScenarioExport& e) {
    LB_TRY(initiators, getStringList(t, exportKey("initiators"), where, rep));
    for (const auto& i : initiators)
        if (hasSpace(i) || (e.iscsi == IscsiTarget::Lio && i != "ALL" && i.rfind("iqn.", 0) != 0))
            return badInput(rep.at(
                *t.get("initiators"), where + "initiators",
                "'" + i + "': expected ALL or " +
                    (e.iscsi == IscsiTarget::Lio ? "an initiator IQN" : "an initiator address")));
    if (initiators.size() > 1 &&
        std::find(initiators.begin(), initiators.end(), "ALL") != initiators.end())
        return badInput(
            rep.at(t, "initiators", where + "initiators", "ALL already allows every initiator"));
    e.initiators = initiators;
    return {};
}

// The NFS export's options: known ones, of the server that has them, none contradicting another.
Expected<void> parseNfsOptions(const toml::table& t, const std::string& where, const Reporter& rep,
                               ScenarioExport& e) {
    const std::vector<std::string> defaultOptions =
        e.nfs == NfsServer::Kernel ? std::vector<std::string>{"rw", "sync", "no_root_squash"}
                                   : std::vector<std::string>{"rw", "no_root_squash"};
    LB_TRY(options,
           getStringList(t, exportKey("nfs_options").name.c_str(), where, rep, defaultOptions));
    const std::set<std::string> known{
        "rw",         "ro",     "sync",     "async",  "root_squash", "no_root_squash",
        "all_squash", "secure", "insecure", "wdelay", "no_wdelay"};
    const std::set<std::string> kernelOnly{"sync", "async", "wdelay", "no_wdelay"};
    int squash = 0, access = 0, sync = 0;
    for (const auto& o : options) {
        const bool fsid = o.rfind("fsid=", 0) == 0 && o.size() > 5;
        if (!known.count(o) && !fsid)
            return badInput(rep.at(t, "nfs_options", where + "nfs_options",
                                   "'" + o +
                                       "' is not one of rw, ro, sync, async, root_squash, "
                                       "no_root_squash, all_squash, secure, insecure, wdelay, "
                                       "no_wdelay, fsid=N"));
        if (e.nfs == NfsServer::Ganesha && (kernelOnly.count(o) || fsid))
            return badInput(rep.at(t, "nfs_options", where + "nfs_options",
                                   "'" + o +
                                       "' is an option of the kernel server (exportfs); "
                                       "nfs-ganesha has no such export option"));
        squash += o.find("squash") != std::string::npos;
        access += o == "rw" || o == "ro";
        sync += o == "sync" || o == "async";
    }
    if (squash > 1 || access > 1 || sync > 1)
        return badInput(rep.at(t, "nfs_options", where + "nfs_options",
                               "contradicting options (one of rw/ro, one of sync/async, one "
                               "squash)"));
    e.nfsOptions = options;
    return {};
}

// The NFS versions served (3, 4 or both, each once) and the clients allowed to mount.
Expected<void> parseNfsAccess(const toml::table& t, const std::string& where, const Reporter& rep,
                              ScenarioExport& e) {
    e.nfsVersions.clear();
    for (const auto& v : defaultList(exportKey("nfs_versions")))
        e.nfsVersions.push_back(std::stoi(v));
    if (const toml::node* versions = t.get(exportKey("nfs_versions").name)) {
        const auto* arr = versions->as_array();
        if (!arr || arr->empty())
            return badInput(
                rep.at(*versions, where + "nfs_versions", "expected a list such as [3, 4]"));
        e.nfsVersions.clear();
        for (const auto& item : *arr) {
            const auto* v = item.as_integer();
            if (!v || (v->get() != 3 && v->get() != 4))
                return badInput(rep.at(item, where + "nfs_versions", "expected 3 or 4"));
            if (std::find(e.nfsVersions.begin(), e.nfsVersions.end(), v->get()) !=
                e.nfsVersions.end())
                return badInput(rep.at(item, where + "nfs_versions", "listed twice"));
            e.nfsVersions.push_back(static_cast<int>(v->get()));
        }
    }
    LB_TRY(clients, getStringList(t, exportKey("nfs_clients"), where, rep));
    for (const auto& c : clients)
        if (hasSpace(c) || c.find_first_of("(){};\"") != std::string::npos)
            return badInput(rep.at(t, "nfs_clients", where + "nfs_clients",
                                   "'" + c + "' is not a host, network or wildcard"));
    e.nfsClients = clients;
    return {};
}

} // namespace

Expected<ScenarioExport> parseExport(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep,
                                     const ScenarioLayout& layout) {
    LB_TRY_VOID(rejectUnknown(t, ScenarioTable::Export, where, rep));
    ScenarioExport e;
    e.line = static_cast<int>(t.source().begin.line);
    LB_TRY_VOID(parseServers(t, where, rep, e));
    LB_TRY_VOID(parseLun(t, where, rep, layout, e));
    LB_TRY_VOID(parseTarget(t, where, rep, layout, e));
    LB_TRY_VOID(parseChap(t, where, baseDir, rep, e));
    LB_TRY_VOID(parseInitiators(t, where, rep, e));
    LB_TRY_VOID(parseNfsOptions(t, where, rep, e));
    LB_TRY_VOID(parseNfsAccess(t, where, rep, e));
    return e;
}

Expected<ScenarioClient> parseClient(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, ScenarioTable::Client, where, rep); !r)
        return fail(r.error());
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Client, n);
    };
    ScenarioClient c;
    c.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, keyOf("name"), where, rep));
    if (!validName(name) || name == "all")
        return badInput(rep.at(t, "name", where + "name",
                               "use letters, digits, '-', '_' and '.' only (and not 'all')"));
    c.name = name;
    LB_TRY(target, getString(t, keyOf("target"), where, rep));
    if (target != "local") {
        if (auto url = parseSshUrl(target); !url)
            return badInput(
                rep.at(t, "target", where + "target",
                       "expected \"local\" or ssh://[user@]host[:port]: " + url.error().message));
    }
    c.target = target;
    LB_TRY(identity, getString(t, keyOf("identity"), where, rep));
    c.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(t, keyOf("known_hosts"), where, rep));
    c.knownHosts = resolve(baseDir, knownHosts);
    LB_TRY(address,
           getString(t, keyOf("address").name.c_str(), where, rep, false, hostOfTarget(target)));
    if (address.empty() || hasSpace(address))
        return badInput(rep.at(t, "address", where + "address", "expected a host name or address"));
    c.address = address;
    LB_TRY(port, getInt(t, keyOf("fio_port"), where, rep));
    c.fioPort = static_cast<int>(port);
    LB_TRY(workDir, getString(t, keyOf("work_dir"), where, rep));
    if (workDir.empty() || workDir.front() != '/' || hasSpace(workDir))
        return badInput(rep.at(t, "work_dir", where + "work_dir",
                               "must be an absolute path on the client, without spaces"));
    c.workDir = workDir;
    return c;
}

// The chap_password nodes of a parsed scenario: layouts[*].export.chap_password.
template <typename Table> auto chapPasswordNodes(Table& root) {
    std::vector<decltype(root["x"].node())> out;
    if (auto* layouts = root["layouts"].as_array())
        for (auto& l : *layouts)
            if (auto* node =
                    l.as_table() ? (*l.as_table())["export"]["chap_password"].node() : nullptr)
                out.push_back(node);
    return out;
}

// The text with the string token at each position written as "****", token for token, so the
// rest of the file (comments, layout, line numbers) stays as written. toml++ reports lines counted
// by '\n' (a CRLF file's '\r' ends a line's last column) and columns in code points, counted on
// line 1 after a UTF-8 byte order mark, which it skips.
std::string maskTokens(std::string_view text, const std::vector<toml::source_position>& at) {
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    // Offsets of the string tokens, last first so earlier offsets stay valid.
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (const auto& pos : at) {
        std::size_t offset = text.starts_with(bom) ? bom.size() : 0;
        for (std::size_t line = 1; line < pos.line && offset != std::string_view::npos; ++line) {
            offset = text.find('\n', offset);
            if (offset != std::string_view::npos)
                ++offset;
        }
        if (offset == std::string_view::npos)
            continue;
        for (std::size_t col = 1; col < pos.column && offset < text.size(); ++col) {
            ++offset;
            while (offset < text.size() &&
                   (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80)
                ++offset;
        }
        const std::string_view rest = text.substr(offset);
        const std::string_view quote = rest.starts_with("\"\"\"") ? "\"\"\""
                                       : rest.starts_with("'''")  ? "'''"
                                       : rest.starts_with("\"")   ? "\""
                                       : rest.starts_with("'")    ? "'"
                                                                  : "";
        if (quote.empty())
            continue;
        std::size_t end = quote.size();
        while (end < rest.size() && !rest.substr(end).starts_with(quote))
            end += (quote == "\"" && rest[end] == '\\') ? 2U : 1U;
        spans.emplace_back(offset, std::min(rest.size(), end + quote.size()));
    }
    std::string out(text);
    std::sort(spans.rbegin(), spans.rend());
    for (const auto& [offset, length] : spans)
        out.replace(offset, length, "\"****\"");
    return out;
}

// True when `masked` parses and says "****" for every secret, and no secret's value is left in it
// (say in a comment).
bool fullyMasked(const std::string& masked, const std::vector<std::string>& secrets) {
    for (const auto& secret : secrets)
        if (masked.find(secret) != std::string::npos)
            return false;
    toml::table again;
    try {
        again = toml::parse(masked);
    } catch (const toml::parse_error&) {
        return false;
    }
    const auto nodes = chapPasswordNodes(again);
    return std::all_of(nodes.begin(), nodes.end(),
                       [](const toml::node* n) { return n->value<std::string>() == "****"; });
}

// The text with every CHAP secret written as "****": what is stored with a campaign. Secrets are
// found as the parser found them (layouts[*].export.chap_password) and replaced token for token;
// any copy of a secret's value elsewhere (a comment) goes too. If the result still held a secret
// (an encoding the token search does not foresee), the scenario is stored re-written from its
// parsed form instead: comments and layout lost, the secret never kept.
std::string maskSecrets(std::string_view text, const toml::table& root) {
    std::vector<toml::source_position> at;
    std::vector<std::string> secrets;
    for (const auto* node : chapPasswordNodes(root)) {
        at.push_back(node->source().begin);
        if (const auto value = node->value<std::string>();
            value && !value->empty() && *value != "****")
            secrets.push_back(*value);
    }
    if (at.empty())
        return std::string(text);
    std::string out = maskTokens(text, at);
    // The search goes on after each "****" written: a secret that is part of it ("**", found
    // by the scenario fuzz target) would otherwise be found in it again, forever.
    constexpr std::string_view mask = "****";
    for (const auto& secret : secrets)
        for (auto pos = out.find(secret); pos != std::string::npos;
             pos = out.find(secret, pos + mask.size()))
            out.replace(pos, secret.size(), mask);
    if (fullyMasked(out, secrets))
        return out;
    toml::table copy = root;
    for (auto* node : chapPasswordNodes(copy))
        if (auto* str = node->as_string())
            *str = "****";
    std::ostringstream rewritten;
    rewritten << "# The scenario as layoutbench read it, with its CHAP secrets masked\n" << copy;
    return rewritten.str();
}

namespace {

// Each client once by name, each fio server (address and port) once.
Expected<void> checkClientsDistinct(const Scenario& s, const Reporter& rep) {
    std::set<std::string> names;
    std::set<std::pair<std::string, int>> servers;
    for (const auto& c : s.clients) {
        const std::string at = rep.path() + ":" + std::to_string(c.line) + ": clients.";
        if (!names.insert(c.name).second)
            return badInput(at + "name: '" + c.name + "' is defined twice");
        if (!servers.insert({c.address, c.fioPort}).second)
            return badInput(at + "fio_port: " + c.address + ":" + std::to_string(c.fioPort) +
                            " is used by two clients; give each its own fio_port");
    }
    return {};
}

// A workload's clients: "all" made every [[clients]] entry, each one defined, several only for a
// probe that drives several at once.
Expected<void> resolveClients(const Scenario& s, ScenarioWorkload& w, const std::string& at,
                              const ProbeRegistry& probes) {
    if (w.clients.size() == 1 && w.clients.front() == "all") {
        if (s.clients.empty())
            return badInput(at + "clients: \"all\" names no client: the scenario has no "
                                 "[[clients]]");
        w.clients.clear();
        for (const auto& c : s.clients)
            w.clients.push_back(c.name);
    }
    for (const auto& name : w.clients)
        if (!s.client(name))
            return badInput(at + "clients: '" + name + "' is not in [[clients]]");
    const Probe* probe = probes.find(w.probe);
    if (w.clients.size() > 1 && !probe->drivesClients())
        return badInput(at + "clients: the " + w.probe +
                        " probe runs on one client at a time; several clients at once run "
                        "fio (its client/server mode)");
    return {};
}

// A workload that runs over an export (target = "iscsi" or "nfs"): every layout exports that way,
// over the NFS version it asks for.
Expected<void> checkTargetExports(const Scenario& s, const ScenarioWorkload& w,
                                  const std::string& at, const std::string& target) {
    if (target == "iscsi" && w.clients.size() > 1)
        return badInput(at + "clients: fio on an iSCSI LUN from several clients at once is "
                             "not supported (each client names the LUN's disk its own way); "
                             "use target = \"nfs\", or one client per workload");
    for (const auto& l : s.layouts) {
        const auto& e = l.exported;
        if (target == "iscsi" && (!e || !e->iscsi))
            return badInput(at + "target: layout '" + l.name +
                            "' has no iSCSI export (give it [layouts.export] iscsi = \"tgt\" "
                            "or \"lio\")");
        if (target == "nfs" && (!e || !e->nfs))
            return badInput(at + "target: layout '" + l.name +
                            "' has no NFS export (give it [layouts.export] nfs = \"kernel\" "
                            "or \"ganesha\")");
        if (target == "nfs" && w.options.given("nfs_version")) {
            const int major = std::atoi(w.options.text("nfs_version").c_str());
            if (std::find(e->nfsVersions.begin(), e->nfsVersions.end(), major) ==
                e->nfsVersions.end())
                return badInput(at + "nfs_version: layout '" + l.name + "' exports NFS " + [&] {
                    std::string v;
                    for (int n : e->nfsVersions)
                        v += (v.empty() ? "" : ", ") + std::to_string(n);
                    return v;
                }() + " only");
        }
    }
    return {};
}

// Each export's address (the server's, unless given), reachable from clients over SSH; a raw md
// LUN only for workloads that use it over iSCSI.
Expected<void> settleExports(Scenario& s, const Reporter& rep, bool remoteTargets) {
    for (auto& l : s.layouts) {
        if (!l.exported)
            continue;
        auto& e = *l.exported;
        const std::string at = rep.path() + ":" + std::to_string(e.line) + ": layouts.export.";
        if (e.address.empty())
            e.address = hostOfTarget(l.guest ? l.guest->target : s.host.target);
        if (remoteTargets && isLoopback(e.address))
            return badInput(at + "address: clients over SSH cannot reach the export at " +
                            e.address + "; give the address they reach the server by");
        if (e.lun == "device")
            for (const auto& w : s.workloads)
                if (!w.options.has("target"))
                    return badInput(at + "lun: layout '" + l.name +
                                    "' exports its md array raw and has no file system for "
                                    "workload '" +
                                    w.name + "'; give the workload target = \"iscsi\"");
    }
    return {};
}

} // namespace

// Cross-checks of exports, clients and the workloads that use them. Fills in the defaults that
// depend on the rest of the scenario (export addresses, "all" clients).
Expected<void> checkExportsAndClients(Scenario& s, const Reporter& rep,
                                      const ProbeRegistry& probes) {
    LB_TRY_VOID(checkClientsDistinct(s, rep));
    bool remoteTargets = false; // a workload that uses an export runs on an SSH client
    for (auto& w : s.workloads) {
        const std::string at = rep.path() + ":" + std::to_string(w.line) + ": workloads.";
        LB_TRY_VOID(resolveClients(s, w, at, probes));
        const std::string target = w.options.text("target");
        if (target.empty())
            continue;
        LB_TRY_VOID(checkTargetExports(s, w, at, target));
        for (const auto& name : w.clients)
            remoteTargets = remoteTargets || s.client(name)->target != "local";
    }
    return settleExports(s, rep, remoteTargets);
}

} // namespace scenario_parse

} // namespace lb
