// fio 1.x/2.x JSON converted to fio 3.x's fields, and percentiles from json+ bins;
// see fio_json_compat.h.
#include "probes/fio_json_compat.h"

#include "probes/fio_histogram.h"
#include "probes/json_view.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace lb::fio::compat {

namespace {

// Ordered like fio_json.cpp reads it (fio applies options in the order written).
using json = nlohmann::ordered_json;

constexpr std::array<double, 3> percentiles{50.0, 99.0, 99.9};

Unexpected fieldError(const std::string& path, std::string_view what) {
    return badInput(path + ": " + std::string(what));
}

Expected<double> number(const json& object, std::string_view key, const std::string& path) {
    const auto it = object.find(key);
    if (it == object.end())
        return fieldError(path + "." + std::string(key), "missing");
    if (!it->is_number())
        return fieldError(path + "." + std::string(key), "expected a number");
    return it->get<double>();
}

// fio's plat_idx_to_val(): the middle of a latency histogram bucket, for the json+ bins of
// fio versions that keyed them by bucket index (with FIO_IO_U_PLAT_BITS and _VAL beside them).
// fio's own values are 6 and 64 (1216 or 1920 buckets), and _VAL is always 2^_BITS (a smaller
// one would put indexes below 2^_BITS past the linear range); anything whose bucket would not
// fit in 64 bits of time is refused, not shifted past the type's width.
Expected<double> bucketValue(std::uint64_t index, std::uint64_t bits, std::uint64_t val,
                             const std::string& path) {
    if (bits == 0 || bits >= 32 || val != (std::uint64_t{1} << bits))
        return fieldError(path, "FIO_IO_U_PLAT_BITS " + std::to_string(bits) +
                                    " and FIO_IO_U_PLAT_VAL " + std::to_string(val) +
                                    " describe no histogram fio writes");
    if (index < (val << 1))
        return static_cast<double>(index);
    const std::uint64_t errorBits = (index >> bits) - 1;
    if (errorBits + bits >= 63)
        return fieldError(path, "bucket " + std::to_string(index) + " lies beyond 2^63 µs");
    const double base = static_cast<double>(std::uint64_t{1} << (errorBits + bits));
    const double k = static_cast<double>(index % val);
    return base + (k + 0.5) * static_cast<double>(std::uint64_t{1} << errorBits);
}

// 2.x bins: {"<µs>": count} or {"FIO_IO_U_PLAT_BITS": 6, "FIO_IO_U_PLAT_VAL": 64, "<index>":
// count}; 3.x wants {"<ns>": count}.
Expected<json> binsInNs(const json& bins, const std::string& path) {
    json out = json::object();
    const auto bits = bins.find("FIO_IO_U_PLAT_BITS");
    const auto val = bins.find("FIO_IO_U_PLAT_VAL");
    const bool byIndex = bits != bins.end() && val != bins.end() && bits->is_number_unsigned() &&
                         val->is_number_unsigned();
    for (const auto& [key, count] : bins.items()) {
        if (!count.is_number() || key.empty() || key.find_first_not_of("0123456789") != key.npos)
            continue;
        std::uint64_t k = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
        if (ec != std::errc{} || end != key.data() + key.size())
            return fieldError(path + "." + key, "bucket key beyond 64 bits");
        double us = static_cast<double>(k);
        if (byIndex) {
            auto v = bucketValue(k, bits->get<std::uint64_t>(), val->get<std::uint64_t>(),
                                 path + "." + key);
            if (!v)
                return fail(v.error());
            us = *v;
        }
        const double ns = us * text::nsPerUs;
        if (!(ns < 0x1p63))
            return fieldError(path + "." + key, "bucket beyond 2^63 ns");
        out[std::to_string(std::llround(ns))] = count;
    }
    return out;
}

// slat/clat/lat {min, max, mean, stddev, percentile, bins} in µs -> *_ns in ns. The "0.00" keys
// fio 2.x printed for unused percentile slots (several times over: duplicate keys, of which
// the JSON parser keeps one) are dropped.
Expected<json> latencyInNs(const json& us, const std::string& path) {
    json ns = json::object();
    for (const auto& [key, value] : us.items()) {
        if (value.is_number())
            ns[key] = value.get<double>() * text::nsPerUs;
        else if (key == "percentile" && value.is_object()) {
            json pct = json::object();
            for (const auto& [p, v] : value.items())
                if (p != "0.00" && v.is_number())
                    pct[p] = v.get<double>() * text::nsPerUs;
            ns["percentile"] = std::move(pct);
        } else if (key == "bins" && value.is_object()) {
            auto bins = binsInNs(value, path + ".bins");
            if (!bins)
                return fail(bins.error());
            ns["bins"] = std::move(*bins);
        }
    }
    return ns;
}

// The byte rate fio 3.2+ prints as bw_bytes ((1000 * io_bytes) / runtime, integer arithmetic),
// for the versions before it: fio 2.21 to 3.1 wrote io_bytes in bytes (io_kbytes beside it) and
// bw in KiB/s only; earlier ones wrote both in KiB.
Expected<void> addByteRate(json& d, const std::string& path) {
    const auto io = number(d, "io_bytes", path);
    if (!io)
        return fail(io.error());
    const auto bwKiB = number(d, "bw", path);
    if (!bwKiB)
        return fail(bwKiB.error());
    if (!d.contains("io_kbytes")) {
        d["io_bytes"] = *io * text::bytesPerKiB; // "io_bytes" held KiB before fio 2.21
        d["bw_bytes"] = *bwKiB * text::bytesPerKiB;
        return {};
    }
    const auto runtime = number(d, "runtime", path);
    if (!runtime)
        return fail(runtime.error());
    d["bw_bytes"] = *runtime > 0 ? std::floor(1000.0 * *io / *runtime) : 0.0;
    return {};
}

// Early 2.x printed no I/O count; only same-named jobs' latency weighting uses it.
Expected<void> addIoCount(json& d, const std::string& path) {
    if (d.contains("total_ios"))
        return {};
    const auto iops = number(d, "iops", path);
    const auto runtime = number(d, "runtime", path);
    if (!iops || !runtime)
        return fail(!iops ? iops.error() : runtime.error());
    const double ios = *iops * *runtime / 1000.0;
    if (!(ios >= 0 && ios < 0x1p63))
        return fieldError(path + ".iops", "times runtime is no I/O count");
    d["total_ios"] = std::llround(ios);
    return {};
}

// Each field is converted by what the direction holds, not by the version string alone: fio
// 2.99 to 3.1 called themselves 2.x and 3.x but already wrote clat_ns and lat_ns.
Expected<void> convertLegacyDirection(json& d, const std::string& path) {
    // A direction that did no I/O is read for its zero counts alone (fio_json.cpp).
    const auto ios = d.find("total_ios");
    const auto bytes = d.find("io_bytes");
    if (ios != d.end() && bytes != d.end() && *ios == 0 && *bytes == 0)
        return {};
    if (!d.contains("bw_bytes"))
        LB_TRY_VOID(addByteRate(d, path));
    LB_TRY_VOID(addIoCount(d, path));
    if (d.contains("lat_ns"))
        return {};
    for (const auto name : {"slat", "clat", "lat"}) {
        const auto it = d.find(name);
        if (it == d.end() || !it->is_object()) {
            if (std::string_view(name) == "lat")
                return fieldError(path + ".lat", it == d.end() ? "missing" : "expected an object");
            continue;
        }
        auto ns = latencyInNs(*it, path + "." + name);
        if (!ns)
            return fail(ns.error());
        d[std::string(name) + "_ns"] = std::move(*ns);
    }
    return {};
}

// The value at which the cumulative count of the bins reaches each percentile, as fio's own
// percentile list does.
void fillPercentilesFromBins(json& d) {
    if (!fillsPercentilesFromBins(json_view::Nlohmann(d)))
        return;
    json& clat = *d.find("clat_ns");
    // "percentile" first: adding it to clat_ns (an ordered map, a vector) moves its members, so a
    // reference to "bins" taken before it would dangle.
    json& pct = clat["percentile"];
    if (!pct.is_object())
        pct = json::object();
    const json& bins = clat.at("bins");
    std::vector<std::pair<double, double>> counts; // value ns, count
    double total = 0;
    for (const auto& [key, count] : bins.items()) {
        if (!count.is_number() || key.find_first_not_of("0123456789") != key.npos || key.empty())
            continue;
        double ns = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), ns);
        const double n = count.get<double>();
        // A bucket beyond a double's range or a count that is none: the histogram says nothing
        // (fio_json.cpp's readBins names the bucket in a caveat).
        if (ec != std::errc{} || !std::isfinite(ns) || !std::isfinite(n) || n < 0)
            return;
        counts.emplace_back(ns, n);
        total += n;
    }
    if (total <= 0)
        return;
    std::sort(counts.begin(), counts.end());
    for (std::size_t k = 0; k < percentiles.size(); ++k)
        if (!pct.contains(percentileKeys[k]))
            if (const auto value = binsPercentile(counts, percentiles[k]))
                pct[std::string(percentileKeys[k])] = *value;
}

// fio before 3.18 made lat_percentiles=1 the inverse of clat_percentiles: the percentiles it
// printed under clat_ns were total latency's. They move to lat_ns, where 3.18+ prints them.
bool latPercentilesSet(const json& entry, const json* globalOptions) {
    for (const json* options :
         {entry.contains("job options") ? &entry["job options"] : nullptr, globalOptions}) {
        if (!options || !options->is_object())
            continue;
        const auto it = options->find("lat_percentiles");
        if (it == options->end() || !it->is_string())
            continue;
        const auto v = it->get<std::string>();
        return v.empty() || v == "1" || v == "true" || v == "on" || v == "yes";
    }
    return false;
}

// The json+ bins of such a job counted total latency too, and go with them.
void moveLatPercentiles(json& d) {
    const auto clat = d.find("clat_ns");
    const auto lat = d.find("lat_ns");
    if (clat == d.end() || lat == d.end() || !clat->is_object() || !lat->is_object())
        return;
    for (const auto key : {"percentile", "bins"}) {
        if (!clat->contains(key) || lat->contains(key))
            continue;
        (*lat)[key] = std::move((*clat)[key]);
        clat->erase(key);
    }
}

} // namespace

bool printsLatPercentilesAsClat(std::string_view fioVersion) {
    if (!fioVersion.starts_with("fio-"))
        return false;
    fioVersion.remove_prefix(4);
    int major = 0;
    int minor = 0;
    const auto [afterMajor, ec1] =
        std::from_chars(fioVersion.data(), fioVersion.data() + fioVersion.size(), major);
    if (ec1 != std::errc{} || afterMajor == fioVersion.data() + fioVersion.size() ||
        *afterMajor != '.')
        return false;
    const auto [afterMinor, ec2] =
        std::from_chars(afterMajor + 1, fioVersion.data() + fioVersion.size(), minor);
    if (ec2 != std::errc{})
        return false;
    return major < 3 || (major == 3 && minor < 18);
}

bool isLegacyVersion(std::string_view fioVersion) {
    return fioVersion.starts_with("fio-1.") || fioVersion.starts_with("fio-2.");
}

Expected<void> normalize(json& root) {
    const auto version = root.find("fio version");
    const bool latAsClat = version != root.end() && version->is_string() &&
                           printsLatPercentilesAsClat(version->get<std::string>());
    const auto global = root.find("global options");
    const json* globalOptions = global == root.end() ? nullptr : &*global;
    for (const auto arrayKey : {"jobs", "client_stats"}) {
        const auto array = root.find(arrayKey);
        if (array == root.end() || !array->is_array())
            continue;
        for (std::size_t i = 0; i < array->size(); ++i) {
            json& entry = (*array)[i];
            if (!entry.is_object())
                continue;
            const bool latPercentiles = latAsClat && latPercentilesSet(entry, globalOptions);
            for (const auto dir : directions) {
                const auto d = entry.find(dir);
                if (d == entry.end() || !d->is_object())
                    continue;
                const std::string path =
                    std::string(arrayKey) + "[" + std::to_string(i) + "]." + std::string(dir);
                if (!d->contains("bw_bytes"))
                    if (auto r = convertLegacyDirection(*d, path); !r)
                        return r;
                if (latPercentiles)
                    moveLatPercentiles(*d);
                fillPercentilesFromBins(*d);
            }
        }
    }
    return {};
}

} // namespace lb::fio::compat
