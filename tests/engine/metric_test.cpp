// The catalog knows every metric name in ARCHITECTURE.md with its unit and direction.
#include "engine/measure/metric.h"

#include <gtest/gtest.h>

using namespace lb;

TEST(MetricCatalog, BonnieBlockRatesAreThroughputs) {
    auto m = describeMetric("bonnie.put_block");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->unit, Unit::BytesPerSecond);
    EXPECT_EQ(m->better, Better::Higher);
    EXPECT_TRUE(m->decisive);
    EXPECT_EQ(describeMetric("bonnie.seeks")->unit, Unit::OpsPerSecond);
    EXPECT_EQ(describeMetric("bonnie.ran_del")->unit, Unit::OpsPerSecond);
}

TEST(MetricCatalog, CpuAndLatencyVariants) {
    auto cpu = describeMetric("bonnie.put_block_cpu");
    ASSERT_TRUE(cpu);
    EXPECT_EQ(cpu->unit, Unit::Percent);
    EXPECT_FALSE(cpu->decisive);
    auto lat = describeMetric("bonnie.seq_create_latency");
    ASSERT_TRUE(lat);
    EXPECT_EQ(lat->unit, Unit::Nanoseconds);
    EXPECT_EQ(lat->better, Better::Lower);
}

TEST(MetricCatalog, JobFamilies) {
    EXPECT_EQ(describeMetric("fio.seq-read-1m.read.bw")->unit, Unit::BytesPerSecond);
    EXPECT_EQ(describeMetric("fio.job.write.iops")->unit, Unit::OpsPerSecond);
    EXPECT_EQ(describeMetric("fio.job.read.clat_p99_9")->better, Better::Lower);
    EXPECT_EQ(describeMetric("iscsi.rand.read.lat_mean")->unit, Unit::Nanoseconds);
    EXPECT_EQ(describeMetric("nfs.seq.write.bw")->better, Better::Higher);
    // A job name may contain dots (client/server: job@127.0.0.1:8765).
    EXPECT_TRUE(describeMetric("fio.job@127.0.0.1:8765.read.bw"));
    EXPECT_FALSE(describeMetric("fio.job.read.runtime")->decisive);
}

TEST(MetricCatalog, ImportedTools) {
    // unified_rw_reporting: reads and writes together.
    EXPECT_EQ(describeMetric("fio.mixed.mixed.bw")->unit, Unit::BytesPerSecond);
    EXPECT_TRUE(describeMetric("fio.job.mixed.lat_p99")->decisive);
    // iozone: throughputs; throughput mode decides, the automatic table's cells (which name their
    // sizes) are shown only.
    const auto write = describeMetric("iozone.write");
    ASSERT_TRUE(write);
    EXPECT_EQ(write->unit, Unit::BytesPerSecond);
    EXPECT_EQ(write->better, Better::Higher);
    EXPECT_TRUE(write->decisive);
    EXPECT_EQ(describeMetric("iozone.f64M-r4k.random_read")->unit, Unit::BytesPerSecond);
    EXPECT_FALSE(describeMetric("iozone.f64M-r4k.random_read")->decisive);
    EXPECT_EQ(describeMetric("iozone.backward_read_ops")->unit, Unit::OpsPerSecond);
    // -N: microseconds per operation, stored as nanoseconds; lower is better.
    const auto latency = describeMetric("iozone.f64k-r4k.write_latency");
    ASSERT_TRUE(latency);
    EXPECT_EQ(latency->unit, Unit::Nanoseconds);
    EXPECT_EQ(latency->better, Better::Lower);
    EXPECT_FALSE(latency->decisive);
    EXPECT_FALSE(describeMetric("iozone.write_latency_ops"));
    EXPECT_FALSE(describeMetric("iozone.frobnicate"));
    EXPECT_FALSE(describeMetric("iozone.write_cpu"));
    const auto dd = describeMetric("dd.throughput");
    ASSERT_TRUE(dd);
    EXPECT_EQ(dd->unit, Unit::BytesPerSecond);
    EXPECT_TRUE(dd->decisive);
    EXPECT_FALSE(describeMetric("dd.seconds"));
}

TEST(MetricCatalog, OthersAndUnknowns) {
    EXPECT_EQ(describeMetric("xz.wall")->better, Better::Lower);
    EXPECT_EQ(describeMetric("xz.throughput")->unit, Unit::BytesPerSecond);
    EXPECT_EQ(describeMetric("randfile.throughput")->better, Better::Higher);
    EXPECT_FALSE(describeMetric("bonnie.nonsense"));
    EXPECT_FALSE(describeMetric("fio.job.sideways.bw"));
    EXPECT_FALSE(describeMetric("fio.read.bw"));
    EXPECT_FALSE(describeMetric("nodot"));
}

TEST(Units, NamesRoundTrip) {
    for (auto u : {Unit::BytesPerSecond, Unit::OpsPerSecond, Unit::Seconds, Unit::Nanoseconds,
                   Unit::Percent, Unit::Count})
        EXPECT_EQ(unitFromName(unitName(u)), u);
    EXPECT_EQ(unitName(Unit::BytesPerSecond), "bytes/s");
}
