# Shared by the lab guest's scripts (sourced, not run).

# The guest's kernel release: the ABI that linux-image-amd64 points at in the archive now, e.g.
# 6.1.0-57-amd64. The guest boots it; OpenZFS's modules are built for it.
guest_kernel_release() {
    apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -n1
}

# The newest OpenZFS the archive offers (bookworm-backports, contrib), as a Debian version, e.g.
# 2.3.2-2~bpo12+2; empty when the archive has no zfs-dkms (scripts/setup.sh adds backports).
openzfs_version() {
    apt-cache madison zfs-dkms 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
        sort -V | tail -n1
}
