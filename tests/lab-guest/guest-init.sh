#!/bin/sh
# The lab guest's start-up, run once by busybox init (sysinit): file systems, modules, network
# (qemu user networking: 10.0.2.15, gateway 10.0.2.2), root's SSH key and dropbear's host key from
# qemu's fw_cfg, then dropbear on port 22. The last line on the console says the guest is ready.
export PATH=/usr/sbin:/usr/bin
say() { echo "lab-guest: $*"; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /run/lock /run/lock/iscsi
# cgroup v2 with the memory controller for child groups (lb-session uses it when asked).
mount -t cgroup2 cgroup2 /sys/fs/cgroup && echo +memory >/sys/fs/cgroup/cgroup.subtree_control ||
    say "no cgroup v2 memory controller"

# The OpenZFS guest runs udevd: libzfs waits for udev to have seen a disk's new partitions
# before it uses them ("failed to detect device partitions" after 30 s without it).
if [ -f /etc/lb/openzfs ]; then
    /usr/lib/systemd/systemd-udevd --daemon || say "udevd does not start"
fi
while read -r m; do
    modprobe "$m" || say "cannot load module $m"
done </etc/lb/modules
say "modules: $(cut -d' ' -f1 /proc/modules | sed '1!G;h;$!d' | tr '\n' ' ')"
if [ -f /etc/lb/openzfs ]; then
    udevadm trigger --action=add --type=devices && udevadm settle --timeout=60 ||
        say "udev did not settle"
    say "$(cat /etc/lb/openzfs), $(cat /sys/module/zfs/version 2>/dev/null || echo 'no zfs module')"
fi

hostname lab-guest
ip link set lo up
ip addr add 10.0.2.15/24 dev eth0
ip link set eth0 up
ip route add default via 10.0.2.2

fw=/sys/firmware/qemu_fw_cfg/by_name/opt/lb
if [ ! -r "$fw/authorized_keys/raw" ] || [ ! -r "$fw/host_key/raw" ]; then
    say "no opt/lb/authorized_keys or opt/lb/host_key in fw_cfg: qemu needs" \
        "-fw_cfg name=opt/lb/authorized_keys,file=... and -fw_cfg name=opt/lb/host_key,file=..."
    poweroff -f
fi
mkdir -m 0700 /root/.ssh
# Every login runs through lb-session, which gives the session back to the OOM killer: the
# daemon itself is protected (as Debian protects sshd, OOMScoreAdjust=-1000), so a guest out of
# memory kills the workload, not the way in.
sed 's|^|command="/usr/bin/lb-session" |' "$fw/authorized_keys/raw" >/root/.ssh/authorized_keys
chmod 0600 /root/.ssh/authorized_keys
# The host key is made by the test with ssh-keygen (OpenSSH format), so its known_hosts can be
# written before the guest boots; dropbear reads only its own format.
cat "$fw/host_key/raw" >/run/host_key.openssh
dropbearconvert openssh dropbear /run/host_key.openssh /etc/dropbear/host_key >/dev/null
rm -f /run/host_key.openssh

# -s: keys only. -F -E: in the foreground of this script's child, logging to the console.
(echo -1000 >/proc/self/oom_score_adj && exec dropbear -F -E -s -p 22 -r /etc/dropbear/host_key) &
# Listening on port 22 (0x0016) in /proc/net/tcp (state 0A): only then is the guest ready.
i=0
while ! grep -q '^ *[0-9]*: [0-9A-F]*:0016 [0-9A-F]*:0000 0A' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 300 ]; then
        say "dropbear does not listen on port 22"
        poweroff -f
    fi
    sleep 0.1
done
echo "LAYOUTBENCH-GUEST-READY $(cat /etc/lb/kernel-release)"
