# Debian packages from the install rules: `cpack -G DEB` in a build tree makes one package per
# component (packaging/CMakeLists.txt names them):
#   layoutbench      the command line, lb-netload, lb-tgt-account, the data, manual pages: no Qt,
#                    X11 or GL (tests/packaging/deb.sh checks its Depends and the program's ldd)
#   layoutbench-gui  the desktop app, its desktop entry and icon, and layoutbench-render (the PDF
#                    of a report, which `layoutbench report` runs) (depends on layoutbench)
# Depends comes from the shared libraries the programs link (dpkg-shlibdeps), so
# `apt install ./layoutbench_*.deb` pulls what they need. tests/packaging/deb.sh builds both and
# runs lintian on them.
set(LAYOUTBENCH_PACKAGE_MAINTAINER "layoutbench maintainers <maintainers@layoutbench.invalid>"
    CACHE STRING "Maintainer field of the Debian packages")

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "layoutbench")
set(CPACK_PACKAGE_VENDOR "the layoutbench authors")
set(CPACK_PACKAGE_CONTACT "${LAYOUTBENCH_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
# Binaries are stripped into the package; the build tree keeps its debug information.
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 1)

set(CPACK_COMPONENTS_ALL layoutbench layoutbench-gui)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # NAME_VERSION_ARCH.deb, as Debian names them
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LAYOUTBENCH_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# Control files 0644 and directories 0755 whatever the umask of the build (lintian checks).
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# layoutbench-gui depends on layoutbench (the same release): the GUI's users want the command
# line, its manual page and the drive catalog the Projection tab reads.
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_LAYOUTBENCH_PACKAGE_NAME "layoutbench")
set(CPACK_DEBIAN_LAYOUTBENCH_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_LAYOUTBENCH_DESCRIPTION
    "benchmark and compare storage layouts, plan their capacity
layoutbench helps choose how to lay out a storage server's disks (md RAID,
ZFS RAIDZ or mirrors, md under a virtual guest running ZFS, SSDs partitioned
to leave spare area). It builds each candidate layout, runs the same
workloads on each (fio, bonnie++, xz, a random-file write; iSCSI and NFS
exports with lb-netload), keeps every result in one SQLite file, compares
each candidate with the baseline (viable, decision or not viable) and writes
a decision report and a five-year capacity projection.
.
This package holds the command line, lb-netload, lb-tgt-account, the drive
catalog, the shipped scenarios, manual pages and shell completions.")
# The tools it drives are found at run time, and each is needed only by the workloads or
# layouts that use it.
set(CPACK_DEBIAN_LAYOUTBENCH_PACKAGE_RECOMMENDS "fio, bonnie++, xz-utils, openssh-client")
set(CPACK_DEBIAN_LAYOUTBENCH_PACKAGE_SUGGESTS
    "zfsutils-linux | zfs-fuse, mdadm, gdisk, xfsprogs, tgt | targetcli-fb, open-iscsi, \
nfs-kernel-server | nfs-ganesha, nfs-common, qemu-system-x86 | libvirt-clients, ansible-core")

set(CPACK_DEBIAN_LAYOUTBENCH-GUI_PACKAGE_NAME "layoutbench-gui")
set(CPACK_DEBIAN_LAYOUTBENCH-GUI_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_LAYOUTBENCH-GUI_DESCRIPTION
    "desktop app to benchmark and compare storage layouts
layoutbench helps choose how to lay out a storage server's disks. This
package holds layoutbench-gui, a Qt desktop app over the same engine as the
command line: a scenario editor with live validation, campaigns with their
plans and destroy confirmations, results, comparisons, charts and capacity
projections; and layoutbench-render, which lays out the command line's
decision reports as PDF.")

include(CPack)
cpack_add_component(layoutbench DISPLAY_NAME "layoutbench command line")
cpack_add_component(layoutbench-gui DISPLAY_NAME "layoutbench desktop app" DEPENDS layoutbench)
