# Shared by install.sh and uninstall.sh (sourced, not run): messages, --dry-run, the root check.
# Expects DRY_RUN and ROOT to be set by the caller's option parsing.

SCRIPT_NAME=$(basename "$0")
say() { echo "$SCRIPT_NAME: $*"; }
warn() { echo "$SCRIPT_NAME: warning: $*" >&2; }
die() { echo "$SCRIPT_NAME: $*" >&2; exit 1; }

# Runs a command, or only shows it with --dry-run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would run:'; printf ' %q' "$@"; echo
    else
        printf '+'; printf ' %q' "$@"; echo
        "$@"
    fi
}

# --root must be a directory; without it, changing the system needs root.
check_root() {
    if [ -n "$ROOT" ] && [ ! -d "$ROOT" ]; then
        die "--root $ROOT is not a directory"
    fi
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        die "run as root (sudo), or try --dry-run"
    fi
}
