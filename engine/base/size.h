// Sizes as people write them for drives and files: 500G/500GB are decimal (how drives are sold),
// 465GiB is binary. Parsing is exact integer arithmetic; no floating point touches a byte count.
#pragma once

#include "engine/base/expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t GiB = 1024 * MiB;
constexpr std::uint64_t TiB = 1024 * GiB;

// How a bare K/M/G/T (no "B", no "i") is read. Drive and disk sizes are decimal, as drives are
// sold; block, record and tool file sizes are binary, as ZFS, fio and bonnie++ read them.
// "KB/MB/GB" are decimal and "KiB/MiB/GiB" binary under both.
enum class SizeConvention { Decimal, Binary };

// "500G", "500GB", "465GiB", "4k", "128K", "1.5T", "4096". A bare number is bytes.
// Fractions are allowed where they give a whole number of bytes.
Expected<std::uint64_t> parseSize(std::string_view text,
                                  SizeConvention convention = SizeConvention::Decimal);
// The same sizes, a fraction of a byte rounded down ("3.6TiB" -> 3958241859993): for a figure
// read off a tool's output (zfs list, df), where parseSize would refuse what is not a whole
// number of bytes.
Expected<std::uint64_t> parseApproximateSize(std::string_view text,
                                             SizeConvention convention = SizeConvention::Decimal);

// The disks of a layout as given on a command line: one size for each of `disks` disks, or a
// comma-separated list of one size per disk ("500G,500G,1T"); disks = 0 takes the list as it is.
// Errors name the offending item; the caller names the option.
Expected<std::vector<std::uint64_t>> parseDiskSizes(std::string_view list, unsigned disks);

// A fraction as typed: "0.8", or a percentage "80%" / "80 %" (= 0.8). Range checks are the
// caller's; an error says what was expected.
Expected<double> parseFraction(std::string_view text);
// 0.8 -> "80%", 0.875 -> "87.5%": a fraction as the percentage parseFraction reads back.
std::string fractionText(double fraction);

// 500000000000 -> "500 GB"; binary=true -> "465.66 GiB". For humans only.
std::string formatBytes(std::uint64_t bytes, bool binary = false);
// A size as a person types it, exactly, so parseSize reads the same bytes back: 500000000000 ->
// "500G", 536870912 -> "512MiB", 1100000000000 -> "1.1T"; a size no unit writes in a few digits
// (500107862016, as lsblk reports a drive) as its bytes.
std::string sizeText(std::uint64_t bytes);
std::string formatRate(double bytesPerSecond); // "343.7 MB/s"
// 2.5, 1 -> "2.5": a number with a fixed count of decimals, as printf's %.*f writes it.
std::string fixed(double v, int decimals);

} // namespace lb
