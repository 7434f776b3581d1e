#include "engine/base/install_paths.h"

#include <filesystem>
#include <system_error>

// Both are set by engine/CMakeLists.txt: the data directory relative to the installed program's
// directory ("../share/layoutbench" for the usual bin and share), and data/ of the source tree.
#if !defined(LAYOUTBENCH_INSTALLED_DATA_DIR) || !defined(LAYOUTBENCH_SOURCE_DATA_DIR)
#error "LAYOUTBENCH_INSTALLED_DATA_DIR and LAYOUTBENCH_SOURCE_DATA_DIR must be defined"
#endif

namespace lb {

namespace fs = std::filesystem;

std::string dataDirectory() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const fs::path installed =
        ec ? fs::path(LAYOUTBENCH_INSTALLED_DATA_DIR)
           : (self.parent_path() / LAYOUTBENCH_INSTALLED_DATA_DIR).lexically_normal();
    if (!ec && fs::is_regular_file(installed / "drives.toml", ec))
        return installed.string();
    if (fs::is_regular_file(fs::path(LAYOUTBENCH_SOURCE_DATA_DIR) / "drives.toml", ec))
        return LAYOUTBENCH_SOURCE_DATA_DIR;
    return installed.string();
}

std::string defaultDriveCatalogPath() {
    return (fs::path(dataDirectory()) / "drives.toml").string();
}

std::string fleetPlaybookPath() {
    std::error_code ec;
    const fs::path installed = fs::path(dataDirectory()) / "ansible" / "fleet.yml";
    const fs::path source =
        fs::path(LAYOUTBENCH_SOURCE_DATA_DIR).parent_path() / "packaging" / "ansible" / "fleet.yml";
    if (!fs::is_regular_file(installed, ec) && fs::is_regular_file(source, ec))
        return source.string();
    return installed.string();
}

} // namespace lb
