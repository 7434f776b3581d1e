// Every file a command reads is checked before it is read and bounded while it is: a FIFO with
// no writer, /dev/zero, a directory and endless standard input give one line and exit 2, at
// once, for import, plan and --catalog.
#include "tests/cli/cli_fixture.h"

#include <sys/stat.h>

namespace {

using lb::test::data;
using lb::test::expectOneLineError;
using lb::test::ProcessResult;
using lb::test::runProcess;

class CliInput : public lb::test::Cli {
protected:
    void SetUp() override {
        Cli::SetUp();
        fifo_ = (dir_ / "fifo").string();
        ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    }

    // `command` through sh with standard input from `input`; every value passes as "$n".
    ProcessResult lbWithInput(const std::string& command, const std::string& input) {
        return runProcess({"/bin/sh", "-c", "exec \"$0\" " + command + " --db \"$1\" < \"$2\"",
                           LAYOUTBENCH_CLI, db_, input});
    }

    std::string fifo_;
};

TEST_F(CliInput, ImportRefusesWhatIsNotARegularFile) {
    expectOneLineError(lb({"import", "--layout", "x", fifo_}), fifo_ + ": is a FIFO");
    expectOneLineError(lb({"import", "--layout", "x", "/dev/zero"}),
                       "/dev/zero: is a character device");
    expectOneLineError(lb({"import", "--layout", "x", dir_.string()}),
                       dir_.string() + ": is a directory, not a file");
}

TEST_F(CliInput, StandardInputIsBoundedByTheLimit) {
    expectOneLineError(lbWithInput("import --max-input-size 1MiB --layout x -", "/dev/zero"),
                       "<stdin>: over the input size limit of 1.00 MiB (--max-input-size)");
    // A limit is a size.
    expectOneLineError(lb({"import", "--max-input-size", "lots", "--layout", "x", "-"}),
                       "--max-input-size");
}

TEST_F(CliInput, ARegularFileOverTheLimitIsRefusedBeforeReading) {
    const auto csv = data + "/bonnie++/1.97/seed-bare-metal.csv";
    expectOneLineError(lb({"import", "--max-input-size", "100", "--layout", "x", csv}),
                       csv + ": over the input size limit of 100 B (--max-input-size)");
    EXPECT_EQ(lb({"import", "--max-input-size", "1K", "--layout", "x", csv}).exitCode, 0);
}

TEST_F(CliInput, PlanRefusesAFifoDevZeroAndADirectory) {
    expectOneLineError(lb({"plan", fifo_}), fifo_ + ": is a FIFO");
    expectOneLineError(lb({"plan", "/dev/zero"}), "/dev/zero: is a character device");
    expectOneLineError(lb({"plan", dir_.string()}), "is a directory");
    const auto quick = std::string(LAYOUTBENCH_SOURCE_DIR) + "/scenarios/quick.toml";
    expectOneLineError(lb({"plan", "--max-input-size", "64", quick}),
                       quick + ": over the input size limit of 64 B (--max-input-size)");
}

TEST_F(CliInput, CatalogRefusesAFifoDevZeroAndADirectory) {
    const std::vector<std::string> project{"project", "--kind",  "zfs-raidz2", "--disks",
                                           "6",       "--used",  "1T",         "--growth",
                                           "30%",     "--drive", "any"};
    for (const auto& [catalog, why] :
         {std::pair{fifo_, std::string("is a FIFO")},
          std::pair{std::string("/dev/zero"), std::string("is a character device")},
          std::pair{dir_.string(), std::string("is a directory")}}) {
        auto args = project;
        args.insert(args.end(), {"--catalog", catalog});
        expectOneLineError(lb(args), catalog + ": " + why);
    }
}

} // namespace
