#!/usr/bin/env bash
# Installs everything layoutbench needs to build, test and benchmark on Debian 12, as root.
# Idempotent: packages already present are not fetched again; apt-get update runs only when
# something is missing or the bookworm-backports source (OpenZFS 2.3 for the lab guest) is new or
# not yet known to apt.
set -euo pipefail

packages=(
    # build
    cmake ninja-build g++ pkg-config clang-format
    # tests/architecture/rooms.sh measures functions with it
    universal-ctags
    libboost1.81-dev libsqlite3-dev libtomlplusplus-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev
    liblz4-dev libxxhash-dev
    libgtest-dev libbenchmark-dev
    # bench/run.sh: the benchmark's JSON, an import's peak memory
    jq time
    # the fuzz targets (the fuzz preset): clang with libFuzzer and its sanitizers
    clang-14 libfuzzer-14-dev
    # desktop app, charts and reports (rendered offscreen on a headless machine); chromium and
    # poppler-utils render the HTML and PDF reports in the tests as a reader sees them
    qt6-base-dev libgl-dev libqcustomplot-dev fonts-dejavu-core xvfb xauth poppler-utils chromium
    # the tools layoutbench drives and the storage it builds
    fio bonnie++ xz-utils zfs-fuse util-linux sqlite3 procps bc
    openssh-server openssh-client gdisk e2fsprogs
    # iSCSI and NFS: targets and servers for the tests, userspace client libraries
    libiscsi-dev libiscsi-bin libnfs-dev libnfs-utils tgt nfs-ganesha nfs-ganesha-vfs rpcbind
    # packaging: manual pages (scdoc), shell completions and the shells that test them, the
    # Debian packages (cpack's dpkg-shlibdeps and file) and their checker
    scdoc man-db bash-completion zsh dpkg-dev file lintian
    # the lab guest (tests/lab-guest/build.sh): md RAID and kernel NFS/iSCSI clients under qemu
    qemu-system-x86 cpio kmod binutils
    # fleets: `fleet run` drives ansible-playbook (packaging/ansible/fleet.yml)
    ansible-core
)

# OpenZFS 2.3 for the lab guest (tests/lab-guest/openzfs.sh) comes from bookworm-backports,
# component contrib; the machine lists only main. The line repeats the mirror and keyring of the
# machine's own Debian source: apt refuses two entries for one mirror with different Signed-By
# ("Conflicting values set for option Signed-By"). Backports stays pinned at 100, so nothing else
# is taken from it unless asked for by version.
backports=/etc/apt/sources.list.d/layoutbench-backports.sources
add_backports() {
    local src uri keyring
    for src in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
        [ -f "$src" ] || continue
        if grep -qE '^Suites:.*\bbookworm\b' "$src" 2>/dev/null; then
            uri=$(awk '/^URIs:/ {print $2; exit}' "$src")
            keyring=$(awk '/^Signed-By:/ {print $2; exit}' "$src")
        elif grep -qE '^deb .* bookworm main' "$src" 2>/dev/null; then
            uri=$(grep -oE '^deb (\[[^]]*\] )?[^ ]+ bookworm ' "$src" | head -n1 | awk '{print $(NF-1)}')
            keyring=$(grep -oE 'signed-by=[^] ]+' "$src" | head -n1 | cut -d= -f2)
        fi
        [ -n "${uri:-}" ] && break
    done
    uri=${uri:-http://deb.debian.org/debian}
    keyring=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}
    local want
    want=$(printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main contrib\nSigned-By: %s\n' \
               "$uri" "$keyring")
    if [ ! -f "$backports" ] || [ "$(cat "$backports")" != "$want" ]; then
        echo "setup: adding bookworm-backports (main contrib) from $uri"
        printf '%s\n' "$want" >"$backports"
        need_update=1
    fi
}
need_update=0
add_backports
updated=0
if [ "$need_update" = 1 ] || ! apt-cache policy zfs-dkms 2>/dev/null | grep -q bookworm-backports; then
    apt-get update -qq
    updated=1
fi

# OpenZFS's modules for the lab guest (tests/lab-guest/openzfs.sh) are built against the headers
# of the kernel the guest boots: the ABI linux-image-amd64 points at in the archive now. make and
# gcc come with g++ above.
# shellcheck source=../tests/lab-guest/common.sh
. "$(dirname "$0")/../tests/lab-guest/common.sh"
guest_kernel=$(guest_kernel_release)
if [ -n "$guest_kernel" ]; then
    packages+=("linux-headers-$guest_kernel" make)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    [ "$updated" = 1 ] || apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
else
    echo "setup: all packages present"
fi
