#!/bin/bash
# Remove the golfbox service installed by systemd/install.sh.
#
#   sudo systemd/uninstall.sh [--dry-run] [--purge] [--root DIR]
#
# Stops and disables the service, removes the unit and the venv, and clears a
# failed start from `systemctl --failed`. The journal (/var/lib/golfbox: match
# history, the match in play) and the config (/etc/golfbox) are kept unless
# --purge, which also removes the golfbox user.
#
#   --dry-run   print what would be done, change nothing
#   --purge     also remove /var/lib/golfbox, /etc/golfbox and the user
#   --root DIR  act on files under DIR instead of / (also DESTDIR=DIR)
set -euo pipefail

SERVICE_USER=golfbox
VENV=/opt/golfbox/venv
DOCS=/opt/golfbox  # what install.sh copied: README.md, docs/, hardware/
# the unit's ExecStart: checks the venv still fits the system's Python, then runs golfbox
START=/opt/golfbox/golfbox-start
STATE=/var/lib/golfbox
CONFIG_DIR=/etc/golfbox
UNIT=/etc/systemd/system/golfbox.service
MODULES_LOAD=/etc/modules-load.d/golfbox.conf
UDEV_RULE=/etc/udev/rules.d/60-golfbox-i2c-mux.rules
NODES_UDEV_RULE=/etc/udev/rules.d/60-golfbox-seat-nodes.rules

DRY_RUN=0
PURGE=0
ROOT=${DESTDIR:-}
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "uninstall.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
ROOT=${ROOT%/}

# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

check_root

if [ -e "$ROOT$UNIT" ]; then
    if [ -n "$ROOT" ]; then
        run systemctl --root="$ROOT" disable golfbox.service
    else
        run systemctl disable --now golfbox.service
    fi
    run rm -f "$ROOT$UNIT"
    [ -n "$ROOT" ] || run systemctl daemon-reload
else
    say "no unit at $ROOT$UNIT"
fi
# A start that failed keeps the unit in `systemctl --failed`, its file gone or not, until
# this. A unit that did not fail is no longer loaded: its "not loaded" is no error.
[ -n "$ROOT" ] || run systemctl reset-failed golfbox.service 2>/dev/null || true

# i2c-dev stays loaded until the next boot; other users of /dev/i2c-* load it themselves.
if [ -e "$ROOT$MODULES_LOAD" ]; then run rm -f "$ROOT$MODULES_LOAD"; fi
# A bound mux keeps idle_state -2 until the next boot; then the kernel's default (as is) is back.
# A node plugged in keeps ModemManager's "ignore" until it is plugged in again.
rules_removed=0
for rule in "$UDEV_RULE" "$NODES_UDEV_RULE"; do
    if [ -e "$ROOT$rule" ]; then run rm -f "$ROOT$rule"; rules_removed=1; fi
done
if [ "$rules_removed" = 1 ] && [ -z "$ROOT" ]; then run udevadm control --reload || true; fi

for installed in "$VENV" "$START" "$DOCS/README.md" "$DOCS/docs" "$DOCS/hardware"; do
    if [ -e "$ROOT$installed" ]; then run rm -rf "$ROOT$installed"; fi
done
# /opt/golfbox itself only if nothing else lives there.
if [ -d "$ROOT$DOCS" ]; then run rmdir --ignore-fail-on-non-empty "$ROOT$DOCS"; fi

if [ "$PURGE" = 1 ]; then
    for dir in "$STATE" "$CONFIG_DIR"; do
        if [ -e "$ROOT$dir" ]; then run rm -rf "$ROOT$dir"; fi
    done
    if [ -z "$ROOT" ] && getent passwd "$SERVICE_USER" >/dev/null; then
        run userdel "$SERVICE_USER"
    fi
else
    say "kept $STATE (the journal) and $CONFIG_DIR (the config); --purge removes them"
fi
if [ "$DRY_RUN" = 1 ]; then
    say "a dry run: nothing was changed"
fi
