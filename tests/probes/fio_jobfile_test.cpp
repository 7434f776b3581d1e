// fio job files as text (probes/fio_jobfile.h): the working set of their jobs, checked against the
// files the real fio lays out for them; the block size of each job's reads, writes and trims,
// checked against the bytes per I/O the real fio reports; and the copy that asks for total-latency
// percentiles.
#include "engine/base/size.h"
#include "probes/fio_jobfile.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;
using lb::GiB;
using lb::KiB;
using lb::MiB;
using lb::fio::JobBlockSize;
using lb::fio::jobFileBlockSizes;
using lb::fio::jobFileWorkingSet;
using Blocks = std::vector<JobBlockSize>;

TEST(FioJobFile, OneJobIsItsSizeTimesItsClones) {
    EXPECT_EQ(jobFileWorkingSet("[a]\nrw=randread\nsize=64M\n"), 64 * MiB);
    EXPECT_EQ(jobFileWorkingSet("[a]\nrw=randread\nsize=64M\nnumjobs=4\n"), 4 * 64 * MiB);
    // size is split over nrfiles; filesize is per file.
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=64M\nnrfiles=4\n"), 64 * MiB);
    EXPECT_EQ(jobFileWorkingSet("[a]\nfilesize=16M\nnrfiles=4\nnumjobs=2\n"), 2 * 64 * MiB);
}

TEST(FioJobFile, GlobalSectionsApplyToTheJobsAfterThem) {
    EXPECT_EQ(jobFileWorkingSet("[global]\nsize=1G\n[a]\n[b]\nsize=2G\n[global]\nsize=4G\n[c]\n"),
              (1 + 2 + 4) * GiB);
    EXPECT_FALSE(jobFileWorkingSet("[a]\nrw=read\n[global]\nsize=1G\n"))
        << "a [global] after a job does not reach it";
}

TEST(FioJobFile, NamedFilesAreCountedOnceAtTheirLargest) {
    // Clones of a job with filename= share it, and so do jobs naming the same file.
    EXPECT_EQ(jobFileWorkingSet("[a]\nfilename=/dev/sdb\nsize=10G\nnumjobs=8\n"), 10 * GiB);
    EXPECT_EQ(jobFileWorkingSet("[a]\nfilename=x\nsize=1G\n[b]\nfilename=x\nsize=3G\n"), 3 * GiB);
    // A size over several named files is split between them.
    EXPECT_EQ(jobFileWorkingSet("[a]\nfilename=x:y\nsize=2G\n[b]\nfilename=y\nsize=256M\n"),
              2 * GiB);
}

TEST(FioJobFile, SizesAsFioReadsThem) {
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=4k\n"), 4096u);
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=1MB\n"), MiB) << "kb_base=1024 is fio's default";
    // fio 3.33 reads "ib" as the other base, a lone "i" as the same one.
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=1MiB\n"), 1000000u);
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=1mi\n"), MiB);
    EXPECT_EQ(jobFileWorkingSet("[global]\nkb_base=1000\n[a]\nsize=1MB\n"), 1000000u);
    // fio sets kb_base before the other options, wherever it is written.
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=1MiB\nkb_base=1000\n"), MiB);
    EXPECT_EQ(jobFileWorkingSet("[a]\nsize=123456\n"), 123456u);
    EXPECT_EQ(jobFileWorkingSet("; comment\n# comment\n[a]\n  size = 2g  \n"), 2 * GiB);
}

TEST(FioJobFile, UnknownWhenTheTextCannotTell) {
    for (const char* text : {
             "",
             "[global]\nsize=1G\n",               // no job
             "[a]\nrw=read\nfilename=/dev/sdb\n", // the device's size
             "[a]\nsize=50%\n",                   // of the file or device
             "[a]\nsize=${SIZE}\n",               // a variable
             "[a]\nfilesize=1M-4M\n",             // a range
             "[a]\nsize=1G\nfill_device=1\n",     // fills whatever is there
             "[a]\nsize=1x\n",                    // not a size
             "include other.fio\n[a]\nsize=1G\n", // another file
             "[a]\nsize=1G\n[b]\nrw=read\n",      // one job unknown: all unknown
         })
        EXPECT_FALSE(jobFileWorkingSet(text)) << text;
}

TEST(FioJobFileBlocks, EachJobInTheDirectionsItsRwNames) {
    EXPECT_EQ(jobFileBlockSizes("[a]\nrw=randread\nbs=4k\n"), (Blocks{{"a", "read", 4 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[a]\nrw=randwrite\nblocksize=16k\n"),
              (Blocks{{"a", "write", 16 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[a]\nrw=randrw\nbs=8k\n"),
              (Blocks{{"a", "read", 8 * KiB}, {"a", "write", 8 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[a]\nreadwrite=readwrite\nbs=8k\n"),
              (Blocks{{"a", "read", 8 * KiB}, {"a", "write", 8 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[a]\nrw=trimwrite\nbs=1M\n"),
              (Blocks{{"a", "write", MiB}, {"a", "trim", MiB}}));
    // rw=randread:8 takes an offset modifier; fio reads when rw is not given, 4 KiB at a time
    // when bs is not.
    EXPECT_EQ(jobFileBlockSizes("[a]\nrw=randread:8\nbs=64k\n"), (Blocks{{"a", "read", 64 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[a]\nsize=1M\n"), (Blocks{{"a", "read", 4 * KiB}}));
}

TEST(FioJobFileBlocks, CommasGiveReadsWritesAndTrimsTheirOwn) {
    const auto rw = [](const std::string& bs) {
        return jobFileBlockSizes("[a]\nrw=randrw\nbs=" + bs + "\n[t]\nrw=randtrim\nbs=" + bs +
                                 "\n");
    };
    // reads, writes (and trims after them)
    EXPECT_EQ(rw("8k,32k"),
              (Blocks{{"a", "read", 8 * KiB}, {"a", "write", 32 * KiB}, {"t", "trim", 32 * KiB}}));
    // a trailing comma leaves trims as they were (fio's 4 KiB here)
    EXPECT_EQ(rw("8k,32k,"),
              (Blocks{{"a", "read", 8 * KiB}, {"a", "write", 32 * KiB}, {"t", "trim", 4 * KiB}}));
    // an empty first value leaves reads as they were
    EXPECT_EQ(rw(",8k"),
              (Blocks{{"a", "read", 4 * KiB}, {"a", "write", 8 * KiB}, {"t", "trim", 8 * KiB}}));
    EXPECT_EQ(rw("4k,64k,1M"),
              (Blocks{{"a", "read", 4 * KiB}, {"a", "write", 64 * KiB}, {"t", "trim", MiB}}));
    // "As they were" is what a [global] bs= set, not fio's default.
    EXPECT_EQ(jobFileBlockSizes("[global]\nbs=16k\n[a]\nrw=randrw\nbs=,64k\n"),
              (Blocks{{"a", "read", 16 * KiB}, {"a", "write", 64 * KiB}}));
}

TEST(FioJobFileBlocks, GlobalDefaultsNamesAndKbBase) {
    // [global] before a job is its default; the job's own bs= or blocksize= wins.
    EXPECT_EQ(jobFileBlockSizes("[global]\nbs=4k\nrw=randread\n[a]\n[b]\nblocksize=128k\n"
                                "[global]\nbs=1m\n[c]\n"),
              (Blocks{{"a", "read", 4 * KiB}, {"b", "read", 128 * KiB}, {"c", "read", MiB}}));
    // name= is the name fio reports, and so names the metrics.
    EXPECT_EQ(jobFileBlockSizes("[a]\nname=oltp\nrw=randwrite\nbs=8k\n"),
              (Blocks{{"oltp", "write", 8 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[global]\nkb_base=1000\n[a]\nbs=4k\n"),
              (Blocks{{"a", "read", 4000}}));
}

TEST(FioJobFileBlocks, NoneWhereTheBlocksVaryOrCannotBeKnown) {
    // Varying blocks: that job has none, the others keep theirs.
    EXPECT_EQ(jobFileBlockSizes("[a]\nbsrange=4k-64k\n[b]\nbssplit=4k/50:64k/50\n"
                                "[c]\nbs=4k-64k\n[d]\nbs=${BS}\n[e]\nbs=8k\n"),
              (Blocks{{"e", "read", 8 * KiB}}));
    EXPECT_EQ(jobFileBlockSizes("[global]\nbs=4k\n"), Blocks{}) << "no job";
    EXPECT_FALSE(jobFileBlockSizes("include other.fio\n[a]\nbs=4k\n"));
}

TEST(FioJobFile, TotalLatencyPercentilesComeFirstAsAGlobalSection) {
    EXPECT_EQ(lb::fio::withTotalLatencyPercentiles("[a]\nsize=1M\n"),
              "[global]\nlat_percentiles=1\n\n[a]\nsize=1M\n");
}

// A new directory with the job file `text` in it as `name`.fio, where the real fio has run it
// (its JSON report in fio.out); empty when it could not run, which fails the test.
fs::path ranFio(const std::string& text, const std::string& name) {
    std::string pattern = (fs::temp_directory_path() / "lb-jobfile-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        ADD_FAILURE() << "cannot make a directory for fio";
        return {};
    }
    const fs::path dir = pattern;
    std::ofstream(dir / (name + ".fio")) << text;
    const std::string cmd =
        "cd '" + dir.string() + "' && fio --output-format=json " + name + ".fio >fio.out 2>fio.err";
    if (std::system(cmd.c_str()) != 0) {
        ADD_FAILURE() << "fio failed; see " << dir;
        return {};
    }
    return dir;
}

// The files the real fio lays out for a job file add up to the working set computed from it.
TEST(FioJobFileReal, WorkingSetIsWhatFioLaysOut) {
    const std::string text = "[global]\nrw=read\nbs=64k\nioengine=psync\nsize=1M\n"
                             "[clones]\nnumjobs=2\nnrfiles=2\n"
                             "[per-file]\nfilesize=512k\nnrfiles=3\n"
                             "[shared]\nfilename=shared.dat\nsize=2M\n"
                             "[two-named]\nfilename=shared.dat:other.dat\n";
    const fs::path dir = ranFio(text, "layout");
    ASSERT_FALSE(dir.empty());
    std::uintmax_t laidOut = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() != ".fio" && e.path().extension() != ".out" &&
            e.path().extension() != ".err")
            laidOut += e.file_size();
    EXPECT_EQ(jobFileWorkingSet(text), laidOut);
    EXPECT_EQ(laidOut, 6 * MiB); // 2 x 1M + 3 x 512k + 2M + 512k
    fs::remove_all(dir);
}

// The bytes per I/O the real fio reports (io_bytes / total_ios of each job and direction) are
// the block sizes read from its job file, with [global] defaults, aliases and comma forms.
TEST(FioJobFileReal, BlockSizesAreWhatFioMoves) {
    const std::string text = "[global]\nioengine=psync\nsize=512k\nbs=16k\n"
                             "[inherits]\nrw=read\n"
                             "[split]\nrw=randrw\nbs=4k,64k\n"
                             "[writes-default]\nrw=write\nbs=,8k\n"
                             "[alias]\nreadwrite=randwrite\nblocksize=32k\n"
                             "[keeps-global]\nrw=read\nbs=,64k\n"
                             "[trailing]\nrw=randrw\nbs=8k,32k,\n";
    const fs::path dir = ranFio(text, "blocks");
    ASSERT_FALSE(dir.empty());
    std::ifstream in(dir / "fio.out");
    const auto report = nlohmann::json::parse(in);
    Blocks measured;
    for (const auto& job : report.at("jobs"))
        for (const char* direction : {"read", "write", "trim"}) {
            const auto& d = job.at(direction);
            const auto ios = d.at("total_ios").get<std::uint64_t>();
            if (ios > 0)
                measured.push_back({job.at("jobname").get<std::string>(), direction,
                                    d.at("io_bytes").get<std::uint64_t>() / ios});
        }
    const auto parsed = jobFileBlockSizes(text);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, measured);
    EXPECT_EQ(measured.size(), 8u) << report.dump(1);
    fs::remove_all(dir);
}

} // namespace
