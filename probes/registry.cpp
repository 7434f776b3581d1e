// The registry of the probes layoutbench ships (see registry.h).
#include "probes/registry.h"

namespace lb {

ProbeRegistry standardProbes() {
    ProbeRegistry r;
    r.add(makeFioProbe());
    r.add(makeBonnieProbe());
    r.add(makeXzProbe());
    r.add(makeRandfileProbe());
    r.add(makeNetloadProbe());
    return r;
}

} // namespace lb
