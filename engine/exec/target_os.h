// The operating system a target (the host, or a guest) runs: what its plans, its in-use checks,
// its memory and cache facts and its tools' command lines are written for. Linux is the default;
// FreeBSD (ZFS on bare metal, a FreeBSD guest running ZFS) is written from FreeBSD's manuals and
// outputs and is not exercised on a live FreeBSD host here.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/names.h"

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace lb {

class Runner;

enum class TargetOs { Linux, FreeBsd };
template <> struct EnumNames<TargetOs> {
    static constexpr std::array<std::pair<TargetOs, std::string_view>, 2> table{{
        {TargetOs::Linux, "linux"},
        {TargetOs::FreeBsd, "freebsd"},
    }};
};

// From `uname -s`: "Linux", "FreeBSD" (a trailing newline allowed); nothing for another system.
std::optional<TargetOs> osFromUname(std::string_view unameS);

// Asks the target (uname -s). A runtime error when it does not answer; bad input naming the
// system when it is neither Linux nor FreeBSD.
Expected<TargetOs> detectOs(Runner& runner);

} // namespace lb
