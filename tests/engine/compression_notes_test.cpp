// Compression, honestly: what a compressing layout makes of the data a run wrote (the ratio a
// sample of it compressed, measured by the probe), said beside the metrics, and kept out of a
// verdict against a layout that stores the data as written unless the scenario says the data is
// the users' kind (data_compressibility).
#include "engine/measure/analysis.h"
#include "engine/scenario/scenario.h"
#include "probes/registry.h"

#include <gtest/gtest.h>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// A ZFS mirror with `compression`, and a dir layout that compresses nothing.
Expected<Scenario> scenario(const std::string& compression, const std::string& top = "") {
    const std::string text = "name = \"c\"\nwork_dir = \"/srv/lb\"\n" + top +
                             "[[disks]]\nname = \"a\"\ndevice = \"/dev/sdb\"\n"
                             "[[disks]]\nname = \"b\"\ndevice = \"/dev/sdc\"\n"
                             "[[layouts]]\nname = \"zfs\"\nkind = \"zfs-mirror\"\n"
                             "disks = [\"a\", \"b\"]\ncompression = \"" +
                             compression +
                             "\"\n"
                             "[[layouts]]\nname = \"plain\"\nkind = \"dir\"\nbaseline = true\n"
                             "path = \"/srv/plain\"\n"
                             "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\n";
    return parseScenario(text, "/srv/c.toml", probes());
}

const ScenarioLayout& named(const Scenario& s, const std::string& name) {
    for (const auto& l : s.layouts)
        if (l.name == name)
            return l;
    throw std::runtime_error("no layout " + name);
}

std::vector<std::string> texts(const std::vector<MetricNote>& notes, MetricNote::Kind kind) {
    std::vector<std::string> out;
    for (const auto& n : notes)
        if (n.kind == kind)
            out.push_back(n.text);
    return out;
}

TEST(CompressionNotes, CompressibleDataOnACompressingLayoutGetsACaveatAndAMethod) {
    const auto s = scenario("lz4");
    ASSERT_TRUE(s) << s.error().message;
    const auto notes = compressionNotes(*s, named(*s, "zfs"), 1.97);
    EXPECT_EQ(texts(notes, MetricNote::Kind::Qualifies),
              (std::vector<std::string>{"data compressed 2.0x on this layout (compression=lz4): "
                                        "measures the compressor as much as the disks"}));
    EXPECT_EQ(texts(notes, MetricNote::Kind::Method),
              (std::vector<std::string>{"data=compressible, compressed by the layout"}));
    for (const auto& n : notes)
        EXPECT_EQ(n.metrics, "*");
}

TEST(CompressionNotes, IncompressibleDataOrALayoutThatDoesNotCompressIsStoredAsWritten) {
    const auto s = scenario("lz4");
    ASSERT_TRUE(s) << s.error().message;
    const std::vector<std::string> asWritten{"data=stored as written"};
    // fio's default buffers measured about 1.1x with gzip -1: below the eighth ZFS asks for.
    const auto random = compressionNotes(*s, named(*s, "zfs"), 1.13);
    EXPECT_TRUE(texts(random, MetricNote::Kind::Qualifies).empty());
    EXPECT_EQ(texts(random, MetricNote::Kind::Method), asWritten);
    const auto justAbove = compressionNotes(*s, named(*s, "zfs"), 1.15);
    EXPECT_EQ(texts(justAbove, MetricNote::Kind::Qualifies).size(), 1u) << "8/7 is the line";
    const auto plain = compressionNotes(*s, named(*s, "plain"), 9.0);
    EXPECT_TRUE(texts(plain, MetricNote::Kind::Qualifies).empty()) << "a dir does not compress";
    EXPECT_EQ(texts(plain, MetricNote::Kind::Method), asWritten);
    const auto off = scenario("off");
    ASSERT_TRUE(off);
    EXPECT_EQ(texts(compressionNotes(*off, named(*off, "zfs"), 9.0), MetricNote::Kind::Method),
              asWritten);
    EXPECT_TRUE(compressionNotes(*s, named(*s, "zfs"), std::nullopt).empty())
        << "not measured: nothing said";
}

TEST(CompressionNotes, DataOfTheUsersKindKeepsTheCaveatAndLetsTheLayoutsCompare) {
    const auto s = scenario("zstd", "data_compressibility = 0.5\n");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->dataCompressibility, 0.5);
    const auto notes = compressionNotes(*s, named(*s, "zfs"), 2.0);
    EXPECT_TRUE(texts(notes, MetricNote::Kind::Method).empty());
    ASSERT_EQ(texts(notes, MetricNote::Kind::Qualifies).size(), 1u);
    EXPECT_NE(texts(notes, MetricNote::Kind::Qualifies)[0].find(
                  "the scenario says the users' data compresses like it "
                  "(data_compressibility = 0.5)"),
              std::string::npos);
}

TEST(CompressionNotes, DataCompressibilityIsAShareAboveZeroUpToOne) {
    for (const char* bad : {"0", "1.5", "-0.2"}) {
        const auto s = scenario("lz4", std::string("data_compressibility = ") + bad + "\n");
        ASSERT_FALSE(s) << bad;
        EXPECT_NE(s.error().message.find("data_compressibility"), std::string::npos)
            << s.error().message;
    }
}

// The compare: a metric measured on compressed data against one stored as written is out of
// the verdict, with the reason; with the users' kind of data it decides, the caveat beside it.
TEST(CompressionNotes, CompareKeepsCompressedDataOutOfTheVerdict) {
    const auto s = scenario("lz4");
    ASSERT_TRUE(s);
    LayoutSamples base, cand;
    base.metrics = {{"fio.seq-write-1m.write.bw", {100e6, 100e6, 100e6}, "fio:w"}};
    cand.metrics = {{"fio.seq-write-1m.write.bw", {300e6, 300e6, 300e6}, "fio:w"}};
    base.notes = compressionNotes(*s, named(*s, "plain"), 2.0);
    cand.notes = compressionNotes(*s, named(*s, "zfs"), 2.0);
    const auto c = compareLayouts("plain", base, "zfs", cand);
    ASSERT_EQ(c.metrics.size(), 1u);
    EXPECT_EQ(c.metrics[0].excluded, "not comparable: data stored as written vs compressible, "
                                     "compressed by the layout");

    const auto users = scenario("lz4", "data_compressibility = 0.5\n");
    ASSERT_TRUE(users);
    base.notes = compressionNotes(*users, named(*users, "plain"), 2.0);
    cand.notes = compressionNotes(*users, named(*users, "zfs"), 2.0);
    const auto u = compareLayouts("plain", base, "zfs", cand);
    ASSERT_EQ(u.metrics.size(), 1u);
    EXPECT_EQ(u.metrics[0].excluded, "");
    ASSERT_EQ(u.metrics[0].notes.size(), 1u);
    EXPECT_NE(u.metrics[0].notes[0].find("data compressed 2.0x"), std::string::npos);
}

} // namespace
} // namespace lb
