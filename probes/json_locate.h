// Where a field named by a JSON path sits in a tool's output, so that an error about
// "jobs[0].read.bw_bytes" can name the line it is on. Tolerant of text around the JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace lb::json {

// The byte offset of the value at `path` ("jobs[0].read.clat_ns.percentile[\"99.000000\"]") in
// the last JSON object of the text that opens at the start of a line and holds the path's
// first key; when the path ends in a member that is not there, the offset of the object that
// lacks it. For a key given twice, the last one (the one a JSON parser keeps). nullopt when no
// such object is found.
std::optional<std::size_t> locatePath(std::string_view text, std::string_view path);

} // namespace lb::json
