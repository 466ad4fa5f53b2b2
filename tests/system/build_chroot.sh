#!/bin/bash
# A Debian chroot of the VM's suite to build what the VM needs and the host cannot
# build for it: wheels for the suite's Python (spidev is published as source only) and
# the test's kernel modules for the suite's kernel. Run by run.py (as root) when the
# host's Python is not the suite's (trixie's 3.13 on a bookworm host); kept in its cache.
#
#   build_chroot.sh ROOT SUITE
set -euo pipefail
root=${1:?usage: build_chroot.sh ROOT SUITE}
suite=${2:?usage: build_chroot.sh ROOT SUITE}
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
work=$root.partial
rm -rf "$work"
# python3-dev and gcc for spidev, swig for lgpio (no wheel for trixie's Python 3.13);
# make, xz-utils and bc for kbuild (the kernel's headers package brings the compiler
# the kernel was built with).
debootstrap --variant=minbase --include=python3,python3-venv,python3-dev,gcc,libc6-dev,swig,make,xz-utils,bc,ca-certificates \
    "$suite" "$work" http://deb.debian.org/debian
# The VM's image (mmdebstrap) has the suite's security updates, its kernel among them:
# its headers are there too.
cat > "$work/etc/apt/sources.list" <<SOURCES
deb http://deb.debian.org/debian $suite main
deb http://deb.debian.org/debian $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
SOURCES
mv "$work" "$root"
