// The scenario's option tables (engine/scenario/scenario_keys.h) against the parser: a key no table
// lists is refused with exactly the table's keys as the allowed ones, every key a table lists is
// accepted where it applies (for every layout kind), and every default a table states is the value
// the parser fills in when the key is absent.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_edit.h"
#include "engine/scenario/scenario_keys.h"
#include "probes/registry.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace lb;

namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// A scenario as sections of keys, so that a test can set one key in one table.
struct Section {
    std::string header; // "" for the top level
    ScenarioTable table;
    std::vector<std::pair<std::string, std::string>> keys; // key, TOML value
};

ScenarioTable sectionOf(ScenarioTable table) {
    return table == ScenarioTable::ExportIscsi || table == ScenarioTable::ExportNfs
               ? ScenarioTable::Export
               : table;
}

struct Doc {
    std::vector<Section> sections;

    // Sets the key in the last section of the table (the candidate layout is the last layout).
    void set(ScenarioTable table, const std::string& key, const std::string& value) {
        for (auto s = sections.rbegin(); s != sections.rend(); ++s) {
            if (s->table != sectionOf(table))
                continue;
            for (auto& [k, v] : s->keys)
                if (k == key) {
                    v = value;
                    return;
                }
            s->keys.emplace_back(key, value);
            return;
        }
        ADD_FAILURE() << "no section for the key " << key;
    }
    std::string text() const {
        std::string out;
        for (const auto& s : sections) {
            if (!s.header.empty())
                out += "\n" + s.header + "\n";
            for (const auto& [k, v] : s.keys)
                out += k + " = " + v + "\n";
        }
        return out;
    }
};

std::string layoutBuiltOn(LayoutKind kind) {
    return kind == LayoutKind::ZfsStripe || kind == LayoutKind::Guest ? "md-raid1" : "";
}

// Every table once: a dir baseline and a candidate of `kind` on block devices (md arrays need
// them; zfs-stripe and guest are built on an inner md-raid1), exported over iSCSI (tgt) and NFS
// (the kernel's), a client, [decide], and for md-raid1 a drill that fails a member and rebuilds
// onto a spare (the drill that takes every key of [[drills]]).
Doc scenarioFor(LayoutKind kind) {
    Doc d;
    d.sections.push_back({"", ScenarioTable::Top, {{"name", "\"keys\""}}});
    d.sections.push_back({"[host]", ScenarioTable::Host, {}});
    d.sections.push_back({"[thresholds]", ScenarioTable::Thresholds, {}});
    d.sections.push_back(
        {"[decide]", ScenarioTable::Decide, {{"metrics", "[\"randfile.throughput\"]"}}});
    const std::string inner = layoutBuiltOn(kind);
    const unsigned count =
        kind == LayoutKind::Dir
            ? 0
            : std::max(1u, minimumDisks(inner.empty() ? kind : *parseLayoutKind(inner)));
    std::string disks;
    for (unsigned i = 1; i <= count + 1; ++i) {
        const std::string name = i <= count ? "d" + std::to_string(i) : "spare";
        d.sections.push_back(
            {"[[disks]]",
             ScenarioTable::Disk,
             {{"name", "\"" + name + "\""}, {"device", "\"/dev/lbkeys-" + name + "\""}}});
        if (i <= count)
            disks += (disks.empty() ? "\"" : ", \"") + name + "\"";
    }
    d.sections.push_back(
        {"[[layouts]]",
         ScenarioTable::Layout,
         {{"name", "\"base\""}, {"kind", "\"dir\""}, {"path", "\".\""}, {"baseline", "true"}}});
    Section candidate{
        "[[layouts]]",
        ScenarioTable::Layout,
        {{"name", "\"cand\""}, {"kind", "\"" + std::string(layoutKindName(kind)) + "\""}}};
    if (kind == LayoutKind::Dir)
        candidate.keys.emplace_back("path", "\"cand\"");
    else
        candidate.keys.emplace_back("disks", "[" + disks + "]");
    if (!inner.empty())
        candidate.keys.emplace_back("inner", "\"" + inner + "\"");
    d.sections.push_back(candidate);
    if (kind == LayoutKind::Guest)
        d.sections.push_back(
            {"[layouts.guest]",
             ScenarioTable::Guest,
             {{"kernel", "\"/boot/vmlinuz\""}, {"target", "\"ssh://root@127.0.0.1:2222\""}}});
    d.sections.push_back(
        {"[layouts.export]", ScenarioTable::Export, {{"iscsi", "\"tgt\""}, {"nfs", "\"kernel\""}}});
    d.sections.push_back({"[[workloads]]",
                          ScenarioTable::Workload,
                          {{"probe", "\"randfile\""}, {"size", "\"1MiB\""}}});
    d.sections.push_back({"[[clients]]", ScenarioTable::Client, {{"name", "\"c1\""}}});
    if (kind == LayoutKind::MdRaid1)
        d.sections.push_back({"[[drills]]",
                              ScenarioTable::Drill,
                              {{"layout", "\"cand\""},
                               {"action", "\"fail-rebuild\""},
                               {"disk", "\"d1\""},
                               {"disks", "[\"spare\"]"}}});
    return d;
}

// A value of the key's type, for a key without a default.
std::string sampleValue(const OptionSpec& spec) {
    switch (spec.type) {
    case OptionType::Bool:
        return "true";
    case OptionType::Int:
        return std::to_string(spec.min.value_or(1));
    case OptionType::Number:
        return "0.5";
    case OptionType::Size:
        return "\"1MiB\"";
    case OptionType::Choice:
        return "\"" + spec.choices.front() + "\"";
    case OptionType::List:
        return "[\"x\"]";
    case OptionType::IntList:
        return "[3]";
    case OptionType::String:
    case OptionType::Path:
        break;
    }
    return "\"/srv/x\"";
}

// The tables and their keys, layouts by kind: (table, base kind, keys).
struct Case {
    ScenarioTable table;
    LayoutKind kind;
    std::vector<OptionSpec> keys;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const ScenarioTable t :
         {ScenarioTable::Top, ScenarioTable::Host, ScenarioTable::Thresholds, ScenarioTable::Decide,
          ScenarioTable::Disk, ScenarioTable::Export, ScenarioTable::ExportIscsi,
          ScenarioTable::ExportNfs, ScenarioTable::Client})
        out.push_back({t, LayoutKind::ZfsMirror, scenarioKeys(t)});
    // The workload's own keys, `probe` offering the registry's probes.
    out.push_back(
        {ScenarioTable::Workload, LayoutKind::ZfsMirror, workloadKeys(probes(), nullptr)});
    out.push_back({ScenarioTable::Guest, LayoutKind::Guest, scenarioKeys(ScenarioTable::Guest)});
    out.push_back({ScenarioTable::Drill, LayoutKind::MdRaid1, scenarioKeys(ScenarioTable::Drill)});
    for (const LayoutKind k : allLayoutKinds())
        out.push_back({ScenarioTable::Layout, k, layoutKeys(k)});
    return out;
}

std::string where(const Case& c, const OptionSpec& key) {
    return std::string(layoutKindName(c.kind)) + ": table " +
           std::to_string(static_cast<int>(c.table)) + ", key " + key.name;
}

// The parsed scenario without what differs with the text alone (the text, line numbers, whether
// it stated a guest's memory: a Xen or libvirt domain's is otherwise not known).
Scenario normalized(Scenario s) {
    s.text.clear();
    for (auto& d : s.disks)
        d.line = 0;
    for (auto& l : s.layouts) {
        l.line = 0;
        if (l.exported)
            l.exported->line = 0;
        if (l.guest)
            l.guest->memoryStated = false;
    }
    for (auto& w : s.workloads)
        w.line = 0;
    for (auto& c : s.clients)
        c.line = 0;
    for (auto& d : s.drills)
        d.line = 0;
    return s;
}

void expectSame(const Scenario& a, const Scenario& b, const std::string& what) {
    const Scenario x = normalized(a), y = normalized(b);
    EXPECT_EQ(x.name, y.name) << what;
    EXPECT_EQ(x.description, y.description) << what;
    EXPECT_EQ(x.workDir, y.workDir) << what;
    EXPECT_EQ(x.iterations, y.iterations) << what;
    EXPECT_EQ(x.maxIterations, y.maxIterations) << what;
    EXPECT_EQ(x.untilCv, y.untilCv) << what;
    EXPECT_EQ(x.bracket, y.bracket) << what;
    EXPECT_EQ(x.interleave, y.interleave) << what;
    EXPECT_EQ(x.dropCaches, y.dropCaches) << what;
    EXPECT_EQ(x.coldCache, y.coldCache) << what;
    EXPECT_TRUE(x.io == y.io) << what;
    EXPECT_TRUE(x.thresholds == y.thresholds) << what;
    EXPECT_EQ(x.decide, y.decide) << what;
    EXPECT_TRUE(x.host == y.host) << what;
    EXPECT_TRUE(x.disks == y.disks) << what;
    EXPECT_TRUE(x.layouts == y.layouts) << what;
    EXPECT_TRUE(x.workloads == y.workloads) << what;
    EXPECT_TRUE(x.clients == y.clients) << what;
    EXPECT_TRUE(x.drills == y.drills) << what;
}

TEST(ScenarioKeys, TheTestScenariosParseForEveryKind) {
    for (const LayoutKind k : allLayoutKinds()) {
        const auto parsed = parseScenario(scenarioFor(k).text(), "keys.toml", probes());
        ASSERT_TRUE(parsed) << layoutKindName(k) << ": " << parsed.error().message << "\n"
                            << scenarioFor(k).text();
        EXPECT_EQ(parsed->layouts.back().kind, k);
    }
}

TEST(ScenarioKeys, AKeyNoTableListsIsRefusedWithTheTablesKeysAsAllowed) {
    for (const ScenarioTable t :
         {ScenarioTable::Top, ScenarioTable::Host, ScenarioTable::Thresholds, ScenarioTable::Decide,
          ScenarioTable::Disk, ScenarioTable::Layout, ScenarioTable::Guest, ScenarioTable::Export,
          ScenarioTable::Client, ScenarioTable::Drill}) {
        Doc d = scenarioFor(t == ScenarioTable::Guest   ? LayoutKind::Guest
                            : t == ScenarioTable::Drill ? LayoutKind::MdRaid1
                                                        : LayoutKind::ZfsMirror);
        d.set(t, "no_such_key", "1");
        const auto parsed = parseScenario(d.text(), "keys.toml", probes());
        ASSERT_FALSE(parsed) << static_cast<int>(t);
        std::string allowed;
        for (const auto& k : acceptedKeys(t))
            allowed += (allowed.empty() ? "" : ", ") + k;
        EXPECT_NE(
            parsed.error().message.find("no_such_key: unknown key (allowed: " + allowed + ")"),
            std::string::npos)
            << parsed.error().message;
    }
    // A workload's other keys are its probe's options.
    Doc d = scenarioFor(LayoutKind::ZfsMirror);
    d.set(ScenarioTable::Workload, "no_such_key", "1");
    const auto parsed = parseScenario(d.text(), "keys.toml", probes());
    ASSERT_FALSE(parsed);
    std::string known;
    for (const auto& o : probes().find("randfile")->options())
        known += (known.empty() ? "" : ", ") + o.name;
    EXPECT_NE(parsed.error().message.find("no_such_key: unknown option (known: " + known + ")"),
              std::string::npos)
        << parsed.error().message;
}

TEST(ScenarioKeys, EveryTableKeyIsAcceptedWhereItApplies) {
    int checked = 0;
    for (const auto& c : cases())
        for (const auto& key : c.keys) {
            Doc d = scenarioFor(c.kind);
            const auto value =
                key.defaultValue.empty() ? sampleValue(key) : *tomlValue(key, key.defaultValue);
            d.set(c.table, key.name, value);
            const auto parsed = parseScenario(d.text(), "keys.toml", probes());
            if (!parsed) {
                // A sample value may be wrong here, but the key is known.
                EXPECT_EQ(parsed.error().message.find("unknown key"), std::string::npos)
                    << where(c, key) << ": " << parsed.error().message;
                EXPECT_EQ(parsed.error().message.find("unknown option"), std::string::npos)
                    << where(c, key) << ": " << parsed.error().message;
            }
            ++checked;
        }
    EXPECT_GT(checked, 150);
}

TEST(ScenarioKeys, EachDefaultIsWhatTheParserFillsIn) {
    int checked = 0;
    for (const auto& c : cases())
        for (const auto& key : c.keys) {
            if (key.defaultValue.empty())
                continue;
            Doc without = scenarioFor(c.kind);
            if (key.name == "min_iterations" || key.name == "max_iterations")
                without.set(ScenarioTable::Top, "iterations", "\"auto\"");
            if (key.name == "volblocksize") // a zvol LUN's
                without.set(ScenarioTable::ExportIscsi, "lun", "\"zvol\"");
            if (key.name == "pull_wait") { // a pulled member's
                without.set(ScenarioTable::Drill, "fail", "\"pull\"");
                without.set(ScenarioTable::Drill, "pull_command", "[\"true\"]");
            }
            Doc with = without;
            const auto value = tomlValue(key, key.defaultValue);
            ASSERT_TRUE(value) << where(c, key);
            with.set(c.table, key.name, *value);
            const auto a = parseScenario(without.text(), "keys.toml", probes());
            const auto b = parseScenario(with.text(), "keys.toml", probes());
            ASSERT_TRUE(a) << where(c, key) << ": " << a.error().message;
            ASSERT_TRUE(b) << where(c, key) << ": " << b.error().message << "\n" << with.text();
            expectSame(*a, *b, where(c, key) + " = " + *value);
            ++checked;
        }
    EXPECT_GT(checked, 100);
}

TEST(ScenarioKeys, LayoutKeysFollowTheKind) {
    const auto names = [](LayoutKind k) {
        std::vector<std::string> out;
        for (const auto& s : layoutKeys(k))
            out.push_back(s.name);
        return out;
    };
    const auto has = [&](LayoutKind k, const std::string& key) {
        const auto n = names(k);
        return std::find(n.begin(), n.end(), key) != n.end();
    };
    EXPECT_TRUE(has(LayoutKind::Dir, "path"));
    EXPECT_FALSE(has(LayoutKind::Dir, "disks"));
    EXPECT_FALSE(has(LayoutKind::Dir, "ashift"));
    EXPECT_TRUE(has(LayoutKind::MdRaid5, "filesystem"));
    EXPECT_TRUE(has(LayoutKind::MdRaid5, "chunk"));
    EXPECT_FALSE(has(LayoutKind::MdRaid5, "ashift"));
    EXPECT_FALSE(has(LayoutKind::MdRaid5, "path"));
    EXPECT_TRUE(has(LayoutKind::ZfsRaidz2, "ashift"));
    EXPECT_TRUE(has(LayoutKind::ZfsRaidz2, "recordsize"));
    EXPECT_FALSE(has(LayoutKind::ZfsRaidz2, "filesystem"));
    EXPECT_FALSE(has(LayoutKind::ZfsRaidz2, "inner"));
    EXPECT_TRUE(has(LayoutKind::ZfsStripe, "inner"));
    EXPECT_TRUE(has(LayoutKind::Guest, "inner"));
    EXPECT_TRUE(has(LayoutKind::Guest, "chunk"));
    // Each kind's keys are the table's, in its order, and every kind has the common ones.
    for (const LayoutKind k : allLayoutKinds()) {
        std::vector<std::string> all;
        for (const auto& s : scenarioKeys(ScenarioTable::Layout))
            all.push_back(s.name);
        const auto n = names(k);
        EXPECT_TRUE(std::includes(all.begin(), all.end(), n.begin(), n.end(),
                                  [&](const std::string& a, const std::string& b) {
                                      return std::find(all.begin(), all.end(), a) <
                                             std::find(all.begin(), all.end(), b);
                                  }))
            << layoutKindName(k);
        for (const char* common : {"name", "kind", "baseline", "precondition"})
            EXPECT_TRUE(has(k, common)) << layoutKindName(k) << " " << common;
    }
}

TEST(ScenarioKeys, WorkloadKeysAreTheCommonKeysThenTheProbesOptions) {
    for (const auto& name : probes().names()) {
        const Probe* probe = probes().find(name);
        const auto keys = workloadKeys(probes(), probe);
        const auto& common = scenarioKeys(ScenarioTable::Workload);
        ASSERT_EQ(keys.size(), common.size() + probe->options().size()) << name;
        EXPECT_EQ(keys.front().name, "probe");
        EXPECT_EQ(keys.front().choices, probes().names());
        for (std::size_t i = 0; i < probe->options().size(); ++i)
            EXPECT_EQ(keys[common.size() + i].name, probe->options()[i].name) << name;
        // No probe option is shadowed by a workload's own key.
        for (const auto& o : probe->options())
            EXPECT_FALSE(hasScenarioKey(ScenarioTable::Workload, o.name)) << name << " " << o.name;
    }
}

} // namespace
