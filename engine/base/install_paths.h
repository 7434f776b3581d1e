// Where layoutbench finds the files it ships (the drive catalog, the scenarios): beside the
// running program as installed (<prefix>/bin/../share/layoutbench), so an installed tree works
// under any prefix; or, for a program run from its build tree, the source tree's data/.
#pragma once

#include <string>

namespace lb {

// The directory that holds drives.toml: the installed one when it has the catalog, else the
// source tree's data/ when that exists (a build tree), else the installed one (so a message
// about a missing catalog names where it should be).
std::string dataDirectory();

// dataDirectory() + "/drives.toml": the catalog `project`, `report` and the GUI read by default.
std::string defaultDriveCatalogPath();

// The playbook `fleet run` drives: <data>/ansible/fleet.yml as installed, or the source tree's
// packaging/ansible/fleet.yml for a program run from its build tree.
std::string fleetPlaybookPath();

} // namespace lb
