#!/bin/bash
# Builds the system test's VM image: Debian (bookworm, or trixie as Raspberry Pi
# OS Trixie is) with systemd, python3 and python3-venv, the suite's own kernel
# (6.1, 6.12), and the test agent. Run by run.py (as root) when its cache has no
# image for this recipe; the cache key is a hash of this file, agent.py and the
# suite, so editing either rebuilds.
#
#   build_image.sh OUT_DIR [SUITE]   # SUITE: bookworm (the default) or trixie
#
# OUT_DIR gets root.img (ext4, the whole system), vmlinuz and initrd.img
# (booted directly by QEMU: no boot loader; a small initrd with only the
# virtio disk and ext4 modules, which boots faster under TCG).
set -euo pipefail
out=${1:?usage: build_image.sh OUT_DIR [SUITE]}
suite=${2:-bookworm}
here=$(cd "$(dirname "$0")" && pwd)

# What a Pi owner has before README's install steps (python3-lgpio is not in
# Debian: see README, the system test uses gpiozero's mock pins), plus the
# kernel, the modules the checks load and the tools the checks run.
PACKAGES=systemd,systemd-sysv,udev,dbus,python3,python3-venv,linux-image-amd64,kmod,procps,i2c-tools

work=$(mktemp -d /var/tmp/golfbox-image.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"

mmdebstrap --variant=apt --include="$PACKAGES" \
    --customize-hook='echo golfbox-vm > "$1/etc/hostname"' \
    --customize-hook='echo "/dev/vda / ext4 defaults 0 1" > "$1/etc/fstab"' \
    --customize-hook='chroot "$1" passwd -d root' \
    --customize-hook="install -m 0755 '$here/agent.py' \"\$1/usr/local/sbin/golfbox-test-agent\"" \
    --customize-hook='cat > "$1/etc/systemd/system/golfbox-test-agent.service" <<UNIT
[Unit]
Description=golfbox system test agent (runs the host'"'"'s commands over virtio-serial)
DefaultDependencies=no
After=local-fs.target
[Service]
ExecStart=/usr/local/sbin/golfbox-test-agent
Restart=always
RestartSec=1
[Install]
WantedBy=multi-user.target
UNIT' \
    --customize-hook='chroot "$1" systemctl enable golfbox-test-agent.service' \
    --customize-hook='chroot "$1" systemctl mask getty@tty1.service serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer' \
    --customize-hook='for g in gpio i2c spi; do chroot "$1" groupadd --system $g; done' \
    --customize-hook='cat > "$1/etc/udev/rules.d/60-golfbox-test-devices.rules" <<RULES
# As Raspberry Pi OS does: device nodes belong to the groups the service is in.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
RULES' \
    --customize-hook='printf "virtio_pci\nvirtio_blk\next4\n" >> "$1/etc/initramfs-tools/modules"' \
    --customize-hook='echo MODULES=list > "$1/etc/initramfs-tools/conf.d/golfbox-test"' \
    --customize-hook='chroot "$1" update-initramfs -u -k all' \
    --customize-hook="cp \"\$1\"/boot/vmlinuz-* '$work/vmlinuz'; cp \"\$1\"/boot/initrd.img-* '$work/initrd.img'" \
    --customize-hook='rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*' \
    "$suite" "$work/root"

mke2fs -q -t ext4 -L golfbox-root -d "$work/root" "$work/root.img" 3G
mkdir -p "$out"
mv "$work/root.img" "$work/vmlinuz" "$work/initrd.img" "$out/"
echo "build_image.sh: image in $out"
