#!/bin/sh
# The quick start on a fresh machine with a newer Python than CI's: `make test` in a
# clean clone inside a Debian chroot with nothing installed but Python, make and git:
# sid by default (python3 is 3.14 there, python3.15 beside it), or trixie, as
# Raspberry Pi OS trixie has it (3.13). Root (debootstrap, chroot, mounts).
#
#   tests/system/fresh_python.sh [python3 python3.15 ...]   # the Pythons to try
#   GOLFBOX_FRESH_SUITE=trixie tests/system/fresh_python.sh python3
#
# The chroot is kept in $GOLFBOX_FRESH_ROOT (default /tmp/golfbox-SUITE) for a second
# run; delete it for a fresher one. Prints each Python's last pytest line; exit 1 if
# any `make test` failed.
set -eu
SUITE=${GOLFBOX_FRESH_SUITE:-sid}
ROOT=${GOLFBOX_FRESH_ROOT:-/tmp/golfbox-$SUITE}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
PYTHONS=${*:-python3 python3.15}

if [ ! -x "$ROOT/usr/bin/make" ]; then
    command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
    packages=python3,python3-venv,make,git,ca-certificates
    for python in $PYTHONS; do
        [ "$python" = python3 ] || packages="$packages,$python-venv"
    done
    echo "debootstrap $SUITE into $ROOT (its log: $ROOT.debootstrap.log)"
    debootstrap --variant=minbase --include="$packages" "$SUITE" "$ROOT" \
        http://deb.debian.org/debian >"$ROOT.debootstrap.log" 2>&1
fi
# A proxy's own certificate authority, where the host has one, as the host trusts it.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates >/dev/null
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

# The suite needs /proc, /sys, /dev with its pseudo-terminals, and a /tmp of its own.
mounted=""
cleanup() {
    for point in $mounted; do umount -R "$point" 2>/dev/null || true; done
}
trap cleanup EXIT
for point in proc sys dev; do
    mount --rbind "/$point" "$ROOT/$point" && mount --make-rslave "$ROOT/$point"
    mounted="$ROOT/$point $mounted"
done
mount -t tmpfs tmpfs "$ROOT/tmp" && mounted="$ROOT/tmp $mounted"

failed=0
for python in $PYTHONS; do
    clone=/root/golfbox-$python
    rm -rf "$ROOT$clone"
    git clone -q "$REPO" "$ROOT$clone"
    log=$ROOT/root/make-test-$python.log
    if chroot "$ROOT" env -i PATH=/usr/bin:/bin HOME=/root \
            sh -c "cd $clone && $python --version && make PYTHON=$python test" >"$log" 2>&1; then
        echo "$python: $(grep -E '^Python ' "$log") · $(tail -n 1 "$log")"
    else
        failed=1
        echo "$python: FAILED, see $log:"
        tail -n 15 "$log"
    fi
done
exit $failed
