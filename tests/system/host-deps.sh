#!/bin/bash
# Installs what the system test needs on the host (Debian/Ubuntu, as root), if missing.
set -euo pipefail
missing=0
for tool in qemu-system-x86_64 qemu-img mmdebstrap mke2fs; do
    command -v "$tool" >/dev/null || missing=1
done
[ "$missing" = 0 ] && exit 0
[ "$(id -u)" = 0 ] || { echo "system test: run as root to apt-get install qemu-system-x86 mmdebstrap" >&2; exit 2; }
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    qemu-system-x86 qemu-utils mmdebstrap e2fsprogs
