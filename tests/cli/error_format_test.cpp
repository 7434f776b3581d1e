// One error format everywhere (issue 14, item 4): exit 2 and one line "FILE:LINE[:COL]: FIELD:
// message" on standard error, control characters escaped, for what used to name less or span
// lines: a layout with too few disks (a plan-time check that named the layout alone), a catalog
// drive too small for the layout (blamed on --disk-size, never given), a key or value holding a
// newline, an unknown command holding one.
#include "tests/cli/cli_fixture.h"

namespace {

using lb::test::expectOneLineError;

using ErrorFormat = lb::test::Cli;

TEST_F(ErrorFormat, TooFewDisksNameTheScenarioLineAndField) {
    const auto scenario = write("r6.toml", R"(name = "r6"
work_dir = "/srv/lb"

[[disks]]
name = "a"
device = "/dev/sdx"

[[disks]]
name = "b"
device = "/dev/sdy"

[[layouts]]
name = "base"
kind = "dir"
path = "/srv/base"
baseline = true

[[layouts]]
name = "r6"
kind = "md-raid6"
disks = ["a", "b"]

[[workloads]]
probe = "xz"
)");
    const auto r = lb({"plan", scenario});
    expectOneLineError(r, scenario + ":18: layouts.disks: md-raid6 cannot be made of 2 disks: "
                                     "it needs at least 4");
    EXPECT_EQ(r.out, "");
}

TEST_F(ErrorFormat, TheCatalogIsNamedForItsDrives) {
    const auto catalog = write("tiny.toml", R"([[drive]]
id = "tiny"
model = "Tiny"
medium = "hdd"
capacity_bytes = 1000
price_usd = 1
)");
    const std::vector<std::string> project{"project", "--kind",    "zfs-raidz2", "--disks",
                                           "6",       "--used",    "1T",         "--growth",
                                           "30%",     "--catalog", catalog};
    auto args = project;
    args.insert(args.end(), {"--drive", "nope"});
    expectOneLineError(lb(args), "--drive: unknown drive 'nope' in " + catalog + " (known: tiny)");

    args = project;
    args.insert(args.end(), {"--drive", "tiny"});
    const auto small = lb(args);
    expectOneLineError(small, catalog + ":1: capacity_bytes: disk 1 (1000 bytes) is below the "
                                        "64 MiB a ZFS device needs (drive 'tiny'");
    EXPECT_FALSE(small.err.starts_with("layoutbench: --disk-size")) << small.err;
}

TEST_F(ErrorFormat, NewlinesInKeysValuesAndCommandsStayOnOneLine) {
    const auto scenario = write("nl.toml", "name = \"nl\"\n\"bad\\nkey\" = 1\n");
    expectOneLineError(lb({"plan", scenario}), scenario + ":2:1: bad\\nkey: unknown key");

    const auto kind = write("kind.toml", R"(name = "k"
[[layouts]]
name = "x"
kind = "zfs\nraid"
baseline = true
)");
    expectOneLineError(lb({"plan", kind}), "zfs\\nraid");

    const auto unknown = lb({"imp\nort"}, false);
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_EQ(unknown.err.find('\n'), unknown.err.size() - 1) << unknown.err;
    EXPECT_NE(unknown.err.find("'imp\\nort'"), std::string::npos) << unknown.err;
}

} // namespace
