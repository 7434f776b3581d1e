// The netload probe: layoutbench's userspace iSCSI and NFS client path. It runs lb-netload
// (tools/lb-netload, on libiscsi and libnfs) against an iSCSI LUN or an NFS file and turns its
// fio-shaped JSON into iscsi.<job>.<dir>.<stat> or nfs.<job>.<dir>.<stat> metrics.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/probe.h"
#include "engine/measure/run.h"

#include <string>
#include <string_view>

namespace lb::netload {

// "iscsi" for iscsi://..., "nfs" for nfs://..., empty for anything else.
std::string protocolOf(std::string_view url);

// Parses lb-netload's JSON (its first key is "lb-netload version"; the rest has the shape of
// fio's per-job JSON) with fio's parser, so the checks and messages are fio's, and names the
// metrics <protocol>.<job>.<dir>.<stat> instead of fio.<job>.<dir>.<stat>. A pure function of
// the captured text. workload "netload", toolVersion the "lb-netload version" value.
Expected<ParsedRun> parseJson(std::string_view stdoutText, std::string_view stderrText,
                              std::string_view protocol);

} // namespace lb::netload
