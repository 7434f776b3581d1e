// The probes layoutbench ships, one adapter per tool (options table -> argv, pure parser, version
// command): fio (presets and job files), bonnie++, xz, the random-file write and lb-netload; and
// the registry the applications use, every probe registered explicitly (no static registration).
#pragma once

#include "engine/measure/probe.h"

#include <memory>

namespace lb {

std::unique_ptr<Probe> makeFioProbe();
std::unique_ptr<Probe> makeBonnieProbe();
std::unique_ptr<Probe> makeXzProbe();
std::unique_ptr<Probe> makeRandfileProbe();
std::unique_ptr<Probe> makeNetloadProbe();

// Every probe above.
ProbeRegistry standardProbes();

} // namespace lb
