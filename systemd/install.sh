#!/bin/bash
# Install golfbox as a systemd service on Raspberry Pi OS, from this checkout.
#
#   sudo systemd/install.sh [--dry-run] [--root DIR]
#
# Safe to run again (after a `git pull`, say): it keeps an existing venv (unless
# an OS upgrade changed the Python it was made by: then it rebuilds it) and the
# config, reinstalls the project, refreshes the unit and restarts a running
# service, whose match in play resumes from the journal. The installed config
# is checked (golfbox check-config) before the service is enabled: a config
# that would not start stops the script, with the error, and nothing is enabled.
#
#   --dry-run   print what would be done, change nothing
#   --root DIR  install the files under DIR instead of / (also DESTDIR=DIR):
#               no account is created and systemd is only told to enable the
#               unit under DIR; meant for tests and for inspecting the result
#               (a venv's scripts name the path it was built at)
# Environment: PYTHON, the interpreter for the venv (default python3, >= 3.11);
# pip's own PIP_* variables are honoured (PIP_NO_INDEX + PIP_FIND_LINKS: offline).
set -euo pipefail
# sudo keeps an admin's umask (077 on a hardened machine): the venv and docs must be
# readable to the service's own user; the config gets its own mode below.
umask 022

SERVICE_USER=golfbox
DEVICE_GROUPS=(gpio i2c spi dialout)
VENV=/opt/golfbox/venv
DOCS=/opt/golfbox  # README.md, docs/, hardware/
# the unit's ExecStart: checks the venv still fits the system's Python, then runs golfbox
START=/opt/golfbox/golfbox-start
CONFIG=/etc/golfbox/config.toml
UNIT=/etc/systemd/system/golfbox.service
MODULES_LOAD=/etc/modules-load.d/golfbox.conf
UDEV_RULE=/etc/udev/rules.d/60-golfbox-i2c-mux.rules
NODES_UDEV_RULE=/etc/udev/rules.d/60-golfbox-seat-nodes.rules
PYTHON=${PYTHON:-python3}
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEMPLATE=$SOURCE/hardware/config.example.toml

DRY_RUN=0
ROOT=${DESTDIR:-}
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
ROOT=${ROOT%/}

# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

check_root
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
    die "$PYTHON is missing or older than 3.11 (set PYTHON=...)"
[ -f "$SOURCE/pyproject.toml" ] || die "$SOURCE is not a golfbox checkout (no pyproject.toml)"

# --- the service account -------------------------------------------------
if [ -n "$ROOT" ]; then
    say "--root: not creating user $SERVICE_USER (create it in the target system)"
else
    if getent passwd "$SERVICE_USER" >/dev/null; then
        say "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir /var/lib/golfbox --no-create-home \
            --shell /usr/sbin/nologin --comment "golfbox table service" "$SERVICE_USER"
    fi
    present=()
    for group in "${DEVICE_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then
            present+=("$group")
        else
            # systemd refuses to start a unit whose SupplementaryGroups= names a missing group.
            warn "group $group does not exist: the service will not start until it does" \
                 "(enable the interface with raspi-config, or groupadd $group)"
        fi
    done
    if [ ${#present[@]} -gt 0 ]; then
        run usermod --append --groups "$(IFS=,; echo "${present[*]}")" "$SERVICE_USER"
    fi
fi

# --- the program ---------------------------------------------------------
# An update: the new version must accept the config kept before it replaces the program
# the table runs. Installed first and refused after, it would leave a table that starts
# no more at its next restart (a power cut, the watchdog) until somebody edits the config.
# So it is tried in a venv of its own first, the running one untouched if it refuses.
if [ -x "$ROOT$VENV/bin/python" ] && [ -e "$ROOT$CONFIG" ]; then
    if [ "$DRY_RUN" = 1 ]; then
        say "would check $ROOT$CONFIG with the new version in a venv of its own first"
    else
        trial=$(mktemp -d "${TMPDIR:-/tmp}/golfbox-install.XXXXXX")
        trap 'rm -rf "$trial"' EXIT
        run "$PYTHON" -m venv --system-site-packages "$trial/venv"
        run "$trial/venv/bin/pip" install --no-input --quiet "$SOURCE[pi]"
        run "$trial/venv/bin/golfbox" check-config "$ROOT$CONFIG" ||
            die "the new version would not start with $CONFIG (see above): the program the" \
                "table runs was not replaced; fix the config, then run install.sh again"
    fi
fi
# --system-site-packages: Debian's python3-lgpio (a C extension) is used as is.
# A venv made by another Python (3.11, before an OS upgrade to 3.13) holds golfbox, Pillow
# and pip where the new one does not look, and Debian's C extensions are now built for the
# new one only: it is rebuilt, not kept (its bin/python already starts the new Python).
python_version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv_version=$(sed -n 's/^version *= *\([0-9]*\.[0-9]*\).*/\1/p' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null || true)
if [ -n "$venv_version" ] && [ "$venv_version" != "$python_version" ]; then
    say "venv $ROOT$VENV was built for Python $venv_version, $PYTHON is $python_version: rebuilding it"
    run "$PYTHON" -m venv --clear --system-site-packages "$ROOT$VENV"
elif [ -x "$ROOT$VENV/bin/python" ]; then
    say "venv $ROOT$VENV exists, kept"
else
    run "$PYTHON" -m venv --system-site-packages "$ROOT$VENV"
fi
run "$ROOT$VENV/bin/pip" install --no-input --upgrade "$SOURCE[pi]"
# The unit's ExecStart: the venv's golfbox, once it has checked the venv still fits the
# system's Python (a line saying to run this script again, rather than a traceback).
run install -D -m 0755 "$SOURCE/systemd/golfbox-start" "$ROOT$START"
if [ "$DRY_RUN" = 0 ]; then
    [ -x "$ROOT$VENV/bin/golfbox" ] || die "pip did not install $ROOT$VENV/bin/golfbox"
    "$ROOT$VENV/bin/python" -c 'import lgpio' 2>/dev/null ||
        warn "python module lgpio not found: apt install python3-lgpio (gpiozero needs it on a Pi)"
    "$ROOT$VENV/bin/python" -c 'import spidev' 2>/dev/null ||
        warn "python module spidev not found: an SPI display needs it (apt install python3-spidev)"
fi

# --- documentation: what the unit's Documentation= points at ------------
# README and the pages it links (rules, wiring, bring-up), replaced on every install.
run install -D -m 0644 "$SOURCE/README.md" "$ROOT$DOCS/README.md"
for folder in docs hardware; do
    [ -d "$SOURCE/$folder" ] || continue
    run rm -rf "$ROOT$DOCS/$folder"
    # Its contents ("/."): a folder that is a symbolic link is copied, not the link, so
    # the chmod below (which follows a link it is given) changes nothing outside $DOCS.
    run install -d -m 0755 "$ROOT$DOCS/$folder"
    run cp -R "$SOURCE/$folder/." "$ROOT$DOCS/$folder"
    # cp keeps the checkout's modes: a clone made under umask 077 is 0600 throughout.
    run chmod -R u=rwX,go=rX "$ROOT$DOCS/$folder"
done

# --- configuration: never overwritten ------------------------------------
# Copies FILE to DEST unless DEST exists: readable by the service, writable by root only.
install_config_file() {
    if [ -e "$ROOT$2" ]; then
        say "config $ROOT$2 exists, kept"
        return
    fi
    run install -d -m 0755 "$ROOT$(dirname "$2")"
    if [ -n "$ROOT" ]; then
        run install -m 0640 "$1" "$ROOT$2"
    else
        run install -m 0640 -o root -g "$SERVICE_USER" "$1" "$ROOT$2"
    fi
}
if [ -e "$ROOT$CONFIG" ]; then
    say "config $ROOT$CONFIG exists, kept"
elif [ -f "$TEMPLATE" ]; then
    install_config_file "$TEMPLATE" "$CONFIG"
    # The files the template names (its pin map) go next to it, as it expects.
    pinmap=$("$PYTHON" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("pinmap", ""))' "$TEMPLATE") ||
        die "$TEMPLATE is not valid TOML"
    if [ -n "$pinmap" ]; then
        [ -f "$(dirname "$TEMPLATE")/$pinmap" ] || die "$TEMPLATE names pinmap = \"$pinmap\", which is not in $(dirname "$TEMPLATE")"
        install_config_file "$(dirname "$TEMPLATE")/$pinmap" "$(dirname "$CONFIG")/$pinmap"
    fi
    say "edit $CONFIG for your table (seats, pins, displays)"
else
    warn "no $TEMPLATE in this checkout: write $CONFIG yourself"
fi

# /dev/i2c-* exist only once i2c-dev is loaded; nothing else loads it at boot.
if [ "$DRY_RUN" = 0 ] && [ -f "$ROOT$MODULES_LOAD" ] && grep -qx i2c-dev "$ROOT$MODULES_LOAD"; then
    say "$ROOT$MODULES_LOAD exists, kept"
elif [ "$DRY_RUN" = 1 ]; then
    say "would write i2c-dev to $ROOT$MODULES_LOAD"
else
    install -d -m 0755 "$ROOT$(dirname "$MODULES_LOAD")"
    printf '# golfbox: /dev/i2c-* for the seat OLEDs (written by install.sh)\ni2c-dev\n' > "$ROOT$MODULES_LOAD"
    say "wrote $ROOT$MODULES_LOAD (i2c-dev)"
fi
if [ -z "$ROOT" ]; then
    run modprobe i2c-dev || warn "could not load i2c-dev now; it loads at the next boot"
fi

# Writes the udev rule read from stdin to $ROOT$1; $2 says what it does (for a dry run).
write_udev_rule() {
    if [ "$DRY_RUN" = 1 ]; then
        say "would write $ROOT$1 ($2)"
    else
        install -d -m 0755 "$ROOT$(dirname "$1")"
        cat > "$ROOT$1"
        say "wrote $ROOT$1"
    fi
}

# The TCA9548A's driver (i2c-mux-pca954x) keeps the last channel selected and writes the mux
# only for another channel: after golfbox pulses the mux's RESET that channel stays cut off,
# and two muxes on one bus with the same display address below each collide. idle_state -2
# (MUX_IDLE_DISCONNECT) deselects after every transfer; the i2c-mux overlay cannot set it.
# The attribute appears in probe, before "bind"; "add" covers a coldplug replay at boot.
write_udev_rule "$UDEV_RULE" "TCA9548A idle_state -2: disconnect when idle" <<'RULE'
# golfbox (written by systemd/install.sh): an I2C mux deselects its channels after every
# transfer, so a RESET pulse cannot leave the kernel's cached channel cut off (hardware/SETUP.md).
ACTION=="add|bind", SUBSYSTEM=="i2c", DRIVER=="pca954x", ATTR{idle_state}="-2"
RULE
# ModemManager, under a filter policy that lets it probe a ttyACM claiming no AT commands
# (MicroPython's; "legacy", not the default "strict"), opens each new one and sends AT
# commands for seconds: a seat node plugged in is taken late and gets bytes it must
# refuse. ModemManager reads ID_MM_DEVICE_IGNORE from the USB device, or from the tty
# itself: no SUBSYSTEM, so both are tagged. Every event but "remove" sets it: udev's
# database keeps only what the last event's rules set.
write_udev_rule "$NODES_UDEV_RULE" "ModemManager leaves the seat nodes' ports alone" <<'RULE'
# golfbox (written by systemd/install.sh): ModemManager does not probe a seat node's port
# with AT commands. MicroPython's USB ids on an RP2040 (hardware/SETUP.md).
ACTION!="remove", ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005", ENV{ID_MM_DEVICE_IGNORE}="1"
RULE
if [ -z "$ROOT" ]; then
    # Apply them to a mux already bound and the next node plugged in, without a reboot.
    run udevadm control --reload && run udevadm trigger --action=add --subsystem-match=i2c ||
        warn "could not apply the udev rules now; they apply at the next boot"
fi

# --- check the config before anything starts it --------------------------
if [ -e "$ROOT$CONFIG" ] || [ "$DRY_RUN" = 1 ]; then
    run "$ROOT$VENV/bin/golfbox" check-config "$ROOT$CONFIG" ||
        die "$CONFIG would not start the service (see above): fix it, then run install.sh again"
fi

# --- the unit ------------------------------------------------------------
run install -D -m 0644 "$SOURCE/systemd/golfbox.service" "$ROOT$UNIT"
if [ -n "$ROOT" ]; then
    run systemctl --root="$ROOT" enable golfbox.service
else
    was_running=0
    systemctl is-active --quiet golfbox.service 2>/dev/null && was_running=1
    run systemctl daemon-reload
    run systemctl enable --now golfbox.service
    if [ "$was_running" = 1 ]; then
        # Run the code just installed; the match in play resumes from the journal.
        run systemctl restart golfbox.service
    fi
fi
if [ "$DRY_RUN" = 1 ]; then
    say "a dry run: nothing was changed"
elif [ -z "$ROOT" ]; then
    say "done: systemctl status golfbox; journalctl -u golfbox -f"
fi
