"""The unit file passes systemd's own checks; the install scripts work into a temporary root."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "golfbox.service"
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
START = REPO / "systemd" / "golfbox-start"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
SYSTEMCTL = shutil.which("systemctl")

needs_analyze = pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
needs_systemctl = pytest.mark.skipif(SYSTEMCTL is None, reason="systemctl is not installed (install.sh --root uses it)")


def unit_settings() -> list[tuple[str, str]]:
    return [
        tuple(line.split("=", 1))
        for line in UNIT.read_text().splitlines()
        if "=" in line and not line.startswith(("#", "["))
    ]


def verify(unit_text: str, tmp_path: Path) -> str:
    """systemd-analyze verify's whole output for a copy of the unit whose
    ExecStart names a program that exists here (verify insists on that)."""
    copy = tmp_path / "golfbox.service"
    copy.write_text(unit_text.replace("ExecStart=/opt/golfbox/golfbox-start ", "ExecStart=/bin/true "))
    assert "ExecStart=/bin/true run --config" in copy.read_text()
    result = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=30)
    return (result.stdout + result.stderr).strip() + ("" if result.returncode == 0 else f"\nexit {result.returncode}")


# -- the unit -------------------------------------------------------------


@needs_analyze
def test_unit_verifies_without_a_single_message(tmp_path):
    # verify exits 0 even on an unknown key: any output at all is a failure.
    assert verify(UNIT.read_text(), tmp_path) == ""


@needs_analyze
def test_verify_would_catch_a_misspelt_key(tmp_path):
    broken = UNIT.read_text().replace("ProtectHome=yes", "ProtectHomes=yes")
    assert "ProtectHomes" in verify(broken, tmp_path)


@needs_analyze
def test_sandbox_exposure_stays_low():
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", str(UNIT)], capture_output=True, text=True, timeout=30
    )
    exposure = re.search(r"Overall exposure level for golfbox.service: (\d+\.\d+)", result.stdout)
    assert exposure, result.stdout + result.stderr
    assert float(exposure.group(1)) <= 1.0


@needs_analyze
def test_the_filter_lets_the_bots_worker_lower_its_priority():
    """systemd's own reading of the filter: setpriority, and nothing else of @resources, is
    allowed (the deny list of @resources made the worker's nice() fail, silently)."""
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", str(UNIT)], capture_output=True, text=True, timeout=30
    )
    line = next(line for line in result.stdout.splitlines() if "SystemCallFilter=~@resources" in line)
    assert "e.g. setpriority is allowed" in line


def test_unit_keeps_the_settings_the_service_relies_on():
    settings = unit_settings()
    keys = {key for key, _ in settings}
    for wanted in [
        ("Type", "notify"),
        ("NotifyAccess", "main"),
        ("ExecStart", "/opt/golfbox/golfbox-start run --config /etc/golfbox/config.toml"),
        ("SyslogIdentifier", "golfbox"),
        ("WatchdogSec", "10"),
        ("RestartPreventExitStatus", "2"),
        # a stopped or stuck process is SIGKILLed 2 s after the watchdog's SIGABRT (the system test's SIGSTOP)
        ("TimeoutAbortSec", "2"),
        ("Environment", "PYTHONFAULTHANDLER=1"),
        ("User", "golfbox"),
        ("SupplementaryGroups", "gpio i2c spi dialout"),
        ("StateDirectory", "golfbox"),
        ("StateDirectoryMode", "0700"),
        ("WorkingDirectory", "/run/golfbox"),
        ("Environment", "GPIOZERO_PIN_FACTORY=lgpio"),
        ("DevicePolicy", "closed"),
        ("DeviceAllow", "char-gpiochip rw"),
        ("DeviceAllow", "char-i2c rw"),
        ("DeviceAllow", "char-spi rw"),
        ("DeviceAllow", "char-ttyACM rw"),
        ("RestrictAddressFamilies", "AF_UNIX"),
        ("UMask", "0077"),
        # The bots' worker lowers its priority: the deny list of @resources must not hold it.
        ("SystemCallFilter", "setpriority"),
    ]:
        assert wanted in settings
    # These would hide the devices or the board revision the service needs.
    assert not {"PrivateDevices", "ProcSubset", "DynamicUser"} & keys


# -- the scripts ----------------------------------------------------------


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_scripts_parse(script):
    subprocess.run(["bash", "-n", str(script)], check=True)


def test_the_start_script_parses_in_a_posix_shell():
    subprocess.run(["sh", "-n", str(START)], check=True)


@pytest.fixture
def staged_venv(tmp_path):
    """golfbox-start beside a real venv (made by this Python, without pip) whose golfbox
    only says how it was started, as install.sh lays them out under /opt/golfbox."""
    opt = tmp_path / "opt golfbox"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(opt / "venv")], check=True, timeout=60)
    golfbox = opt / "venv/bin/golfbox"
    golfbox.write_text('#!/bin/sh\necho "golfbox $* (pid $$)"\n')
    golfbox.chmod(0o755)
    shutil.copy(START, opt / "golfbox-start")
    return opt


def start(opt: Path) -> subprocess.Popen:
    return subprocess.Popen([str(opt / "golfbox-start"), "run", "--config", "/etc/golfbox/config.toml"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def refused_start(opt: Path) -> list[str]:
    """The lines golfbox-start says as it refuses to start (exit 2, nothing on stdout)."""
    process = start(opt)
    out, err = process.communicate(timeout=30)
    assert (process.returncode, out) == (2, "")
    return err.splitlines()


def test_the_start_runs_the_venvs_golfbox_in_its_own_process(staged_venv):
    """Type=notify with NotifyAccess=main: the process systemd started must be golfbox's."""
    process = start(staged_venv)
    out, err = process.communicate(timeout=30)
    assert (process.returncode, out, err) == (0, f"golfbox run --config /etc/golfbox/config.toml (pid {process.pid})\n", "")


def test_the_start_after_an_os_upgrade_says_so_in_one_line_and_exits_2(staged_venv):
    """After a release upgrade (Python 3.11 to 3.13) the venv's bin/python, a link to
    /usr/bin/python3, starts the new Python, which finds no golfbox in the venv's
    lib/python3.11: a traceback and a restart every 2 s until systemd gave up. Now one
    line saying what to run, and exit status 2, which the unit does not restart."""
    venv = staged_venv / "venv"
    now = f"{sys.version_info.major}.{sys.version_info.minor}"
    before = f"{sys.version_info.major}.{sys.version_info.minor - 1}"
    config = venv / "pyvenv.cfg"
    assert f"version = {now}." in config.read_text()  # what python3 -m venv writes, read below
    config.write_text(re.sub(r"version = \S+", f"version = {before}.2", config.read_text()))
    assert refused_start(staged_venv) == [
        f"golfbox: the venv {venv} was built for Python {before}, the system now has Python {now}: "
        "run sudo systemd/install.sh again from the golfbox checkout to rebuild it"]
    assert ("RestartPreventExitStatus", "2") in unit_settings()


def test_the_start_with_the_venvs_python_gone_says_so_in_one_line_and_exits_2(staged_venv, tmp_path):
    """A venv made with PYTHON=python3.11 links to it, which apt removes in the end."""
    python = staged_venv / "venv/bin/python"
    python.unlink()
    python.symlink_to(tmp_path / "python3.11")
    assert refused_start(staged_venv) == [
        f"golfbox: {python} does not start (is {tmp_path}/python3.11 gone?): "
        "run sudo systemd/install.sh again from the golfbox checkout to rebuild the venv"]


FAKE_PYTHON = """#!/bin/bash
# Stands in for python3 -m venv: a venv whose pip only logs, and "installs" a golfbox
# script that runs this checkout's golfbox with the test's interpreter. Its pyvenv.cfg
# names that interpreter's version, as python3 -m venv's does; --clear empties it first.
log={log}
python={python}
if [ "$1" = -m ] && [ "$2" = venv ]; then
    echo "venv ${{*:3}}" >> "$log"
    venv="${{@: -1}}"
    case " $* " in *" --clear "*) rm -rf "$venv" ;; esac
    bin="$venv/bin"
    mkdir -p "$bin"
    ln -s "$python" "$bin/python"
    printf 'include-system-site-packages = true\nversion = %s\n' \
        "$("$python" -c 'import platform; print(platform.python_version())')" > "$venv/pyvenv.cfg"
    printf '#!/bin/bash\\nexec %q -m golfbox "$@"\\n' "$python" > "$bin/golfbox.real"
    printf '#!/bin/bash\\necho "pip $*" >> %q\\ncp %q %q && chmod +x %q\\n' \\
        "$log" "$bin/golfbox.real" "$bin/golfbox" "$bin/golfbox" > "$bin/pip"
    chmod +x "$bin/pip"
    exit 0
fi
exec "$python" "$@"
"""


@pytest.fixture
def checkout(tmp_path):
    """A copy of the parts of the checkout the scripts use, with its own config template,
    a fake python3 and an empty target root; in a folder whose name needs quoting."""
    tmp_path = tmp_path / "the golf table's checkout"
    source = tmp_path / "src"
    shutil.copytree(REPO / "systemd", source / "systemd")
    shutil.copy(REPO / "pyproject.toml", source)
    shutil.copy(REPO / "README.md", source)
    shutil.copytree(REPO / "docs", source / "docs")
    shutil.copytree(REPO / "hardware", source / "hardware")
    fake = tmp_path / "python3"
    fake.write_text(FAKE_PYTHON.format(log=shlex.quote(str(tmp_path / "log")),
                                       python=shlex.quote(sys.executable)))
    fake.chmod(0o755)
    (tmp_path / "root").mkdir()
    return tmp_path


def script(checkout: Path, name: str, *args: str, umask: int = -1) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(checkout / "src" / "systemd" / name), "--root", str(checkout / "root"), *args],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "PYTHON": str(checkout / "python3"),
             "PYTHONPATH": str(REPO), "TMPDIR": str(checkout)},
        timeout=60,
        umask=umask,
    )


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_install_dry_run_shows_every_step_and_changes_nothing(checkout):
    result = script(checkout, "install.sh", "--dry-run")
    assert result.returncode == 0, result.stderr
    root = checkout / "root"
    # Commands are shown shell-quoted, so they can be pasted: [pi] appears as \[pi\].
    steps = ["-m venv --system-site-packages", "bin/pip install", r"src\[pi\]", "etc/golfbox/config.toml", "enable golfbox.service"]
    for step in steps:
        assert step in result.stdout
    assert tree(root) == []
    assert not (checkout / "log").exists()
    # Its last line said "done: systemctl status golfbox" on a real system, as if installed.
    assert result.stdout.splitlines()[-1] == "install.sh: a dry run: nothing was changed"


@needs_systemctl
def test_install_into_a_root_twice_keeps_venv_and_edited_config(checkout):
    root = checkout / "root"
    first = script(checkout, "install.sh")
    assert first.returncode == 0, first.stderr
    unit = root / "etc/systemd/system/golfbox.service"
    assert unit.read_text() == UNIT.read_text()
    assert (root / "etc/systemd/system/multi-user.target.wants/golfbox.service").is_symlink()
    config = root / "etc/golfbox/config.toml"
    assert config.read_text() == (REPO / "hardware/config.example.toml").read_text()
    assert config.stat().st_mode & 0o777 == 0o640
    assert (root / "opt/golfbox/venv/bin/golfbox").exists()
    # The unit's ExecStart= names a program install.sh puts there, as does Documentation=.
    exec_start = re.search(r"^ExecStart=(\S+) ", UNIT.read_text(), re.M).group(1)
    assert (root / exec_start.lstrip("/")).read_text() == START.read_text()
    assert os.access(root / exec_start.lstrip("/"), os.X_OK)
    # The unit's Documentation= names a file install.sh puts there, with the pages it links.
    documentation = re.search(r"^Documentation=file://(\S+)$", UNIT.read_text(), re.M).group(1)
    assert (root / documentation.lstrip("/")).read_text() == (REPO / "README.md").read_text()
    for linked in ("docs/RULES.md", "hardware/BRINGUP.md", "hardware/WIRING.md"):
        assert (root / "opt/golfbox" / linked).read_text() == (REPO / linked).read_text()

    edited = config.read_text().replace('variant = "6-card"', 'variant = "9-card"  # edited by the owner')
    config.write_text(edited)
    files_after_first = tree(root)
    second = script(checkout, "install.sh")
    assert second.returncode == 0, second.stderr
    assert "exists, kept" in second.stdout
    assert config.read_text() == edited
    assert tree(root) == files_after_first
    log = (checkout / "log").read_text().splitlines()
    # One venv, the project reinstalled: after a trial in a venv of its own on the kept config.
    assert [line.split()[0] for line in log] == ["venv", "pip", "venv", "pip", "pip"]
    assert log[1].endswith("/src[pi]") and log[3].endswith("/src[pi]")
    assert "golfbox-install." in log[2] and not list(checkout.glob("golfbox-install.*"))


@needs_systemctl
def test_install_after_an_os_upgrade_rebuilds_the_venv_built_for_the_old_python(checkout):
    """A release upgrade (Bookworm's Python 3.11 to Trixie's 3.13) left a venv whose
    bin/python starts the new Python, with golfbox and pip in lib/python3.11 where it
    does not look: install.sh kept it ("exists, kept"), then its pip failed (No module
    named 'pip'), or, with Debian's python3-pip, installed beside the stale copy."""
    root = checkout / "root"
    assert script(checkout, "install.sh").returncode == 0
    venv = root / "opt/golfbox/venv"
    now = f"{sys.version_info.major}.{sys.version_info.minor}"
    before = f"{sys.version_info.major}.{sys.version_info.minor - 1}"
    (venv / "pyvenv.cfg").write_text(f"include-system-site-packages = true\nversion = {before}.2\n")
    stale = venv / f"lib/python{before}/site-packages/golfbox/__init__.py"
    stale.parent.mkdir(parents=True)
    stale.touch()

    result = script(checkout, "install.sh")
    assert result.returncode == 0, result.stderr
    assert (f"install.sh: venv {venv} was built for Python {before}, {checkout}/python3 is {now}: "
            "rebuilding it") in result.stdout.splitlines()
    log = (checkout / "log").read_text().splitlines()
    assert log[-2:] == [f"venv --clear --system-site-packages {venv}", f"pip install --no-input --upgrade {checkout}/src[pi]"]
    assert not stale.exists()
    assert f"version = {now}." in (venv / "pyvenv.cfg").read_text()
    assert (venv / "bin/golfbox").exists()


@needs_systemctl
def test_install_by_an_admin_with_umask_077_leaves_the_program_readable_to_the_service(checkout):
    """sudo keeps an admin's umask 077: the venv was made 0700 root's, so the service,
    which runs as its own user, could not start its program (203/EXEC)."""
    root = checkout / "root"
    result = script(checkout, "install.sh", umask=0o077)
    assert result.returncode == 0, result.stderr
    program = root / "opt/golfbox/venv/bin/golfbox"
    for path in [*reversed(program.relative_to(root).parents[:-1]), program.relative_to(root)]:
        mode = (root / path).stat().st_mode
        assert mode & 0o005 == 0o005, f"{path} is {stat.filemode(mode)}"
    readme = root / "opt/golfbox/README.md"
    assert readme.stat().st_mode & 0o004, stat.filemode(readme.stat().st_mode)
    # What is meant to be private keeps its own mode.
    assert (root / "etc/golfbox/config.toml").stat().st_mode & 0o777 == 0o640


@needs_systemctl
def test_install_from_a_checkout_cloned_with_umask_077_leaves_the_docs_readable(checkout):
    """git clone under umask 077 makes every file 0600: cp -R kept that mode, so the pages
    README.md links (docs/RULES.md, hardware/BRINGUP.md) were root's alone."""
    for folder in ("docs", "hardware"):
        for path in (checkout / "src" / folder).rglob("*"):
            path.chmod(0o700 if path.is_dir() else 0o600)
        (checkout / "src" / folder).chmod(0o700)
    result = script(checkout, "install.sh")
    assert result.returncode == 0, result.stderr
    installed = checkout / "root/opt/golfbox"
    for path in [installed / "docs", *(installed / "docs").rglob("*"),
                 installed / "hardware", *(installed / "hardware").rglob("*")]:
        mode = path.stat().st_mode
        wanted = 0o755 if path.is_dir() else 0o644
        assert mode & 0o777 == wanted, f"{path.relative_to(installed)} is {stat.filemode(mode)}"


@needs_systemctl
def test_install_from_a_checkout_whose_docs_folder_is_a_symlink_chmods_only_its_copy(checkout):
    """cp -R copied a docs/ that is a symbolic link as the link, and chmod -R follows a
    link it is given: it made the folder the link points at, outside /opt, readable to
    all (and the installed docs/ pointed back into the checkout)."""
    elsewhere = checkout / "private"
    (checkout / "src" / "docs").rename(elsewhere)
    (checkout / "src" / "docs").symlink_to(elsewhere)
    elsewhere.chmod(0o700)
    result = script(checkout, "install.sh")
    assert result.returncode == 0, result.stderr
    assert elsewhere.stat().st_mode & 0o777 == 0o700
    installed = checkout / "root/opt/golfbox/docs"
    assert not installed.is_symlink() and (installed / "RULES.md").is_file()
    assert installed.stat().st_mode & 0o777 == 0o755


@needs_systemctl
def test_an_update_that_would_not_start_with_the_kept_config_replaces_nothing(checkout):
    """install.sh replaced the program the table runs, then checked the kept config with
    it: a config the new version refuses left a table that would start no more at its next
    restart (a power cut). The new version is tried on the config in a venv of its own."""
    root = checkout / "root"
    assert script(checkout, "install.sh").returncode == 0
    program = root / "opt/golfbox/venv/bin/golfbox"
    installed = program.stat().st_mtime_ns
    config = root / "etc/golfbox/config.toml"
    config.write_text(config.read_text().replace('variant = "6-card"', 'variant = "six-card"'))
    result = script(checkout, "install.sh")
    assert result.returncode == 1
    assert "game.variant: unknown variant 'six-card'" in result.stderr
    assert "the program the table runs was not replaced" in result.stderr
    assert f"{root}/opt/golfbox/venv/bin/pip" not in result.stdout
    assert program.stat().st_mtime_ns == installed
    assert not list(checkout.glob("golfbox-install.*"))


@needs_systemctl
def test_install_stages_everything_the_config_names_and_the_result_loads(checkout):
    root = checkout / "root"
    result = script(checkout, "install.sh")
    assert result.returncode == 0, result.stderr
    # The pin map the config names is installed next to it (without it the service cannot start).
    assert (root / "etc/golfbox/pinmap.toml").read_text() == (REPO / "hardware/pinmap.toml").read_text()
    assert (root / "etc/modules-load.d/golfbox.conf").read_text().splitlines()[-1] == "i2c-dev"
    # install.sh ran check-config on what it installed, before enabling the unit...
    assert f"{root}/etc/golfbox/config.toml: OK: 4 seats (4 gpio)" in result.stdout
    assert result.stdout.index("check-config") < result.stdout.index("enable golfbox.service")
    # ...and the staged tree loads with it, through the staged venv's golfbox.
    check = subprocess.run([str(root / "opt/golfbox/venv/bin/golfbox"), "check-config",
                            str(root / "etc/golfbox/config.toml")],
                           capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert check.returncode == 0, check.stderr
    assert check.stdout.count("\n") == 1 and ": OK: 4 seats (4 gpio), shared display ssd1322" in check.stdout


@needs_systemctl
def test_install_refuses_to_enable_a_config_that_would_not_start(checkout):
    root = checkout / "root"
    config = root / "etc/golfbox/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('pinmap = "pinmap.toml"\n[[seats]]\nbackend = "gpio"\n')  # its pin map is not there
    result = script(checkout, "install.sh")
    assert result.returncode == 1
    assert f"pinmap: {root}/etc/golfbox/pinmap.toml does not exist" in result.stderr
    assert "would not start the service" in result.stderr
    assert not (root / "etc/systemd/system/multi-user.target.wants/golfbox.service").exists()


def test_check_config_exits_2_with_the_one_line_error(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text('[[seats]]\nbackend = "gpio"\ndisplay = { driver = "ssd1306", i2c = { bus = 1, address = 0x3C } }\n')
    result = subprocess.run([sys.executable, "-m", "golfbox", "check-config", str(bad)],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"golfbox check-config: {bad}: seats[0].buttons: missing (no pinmap is set); "
        "e.g. buttons = { left = 17, right = 27, ok = 22, back = 4 }"]


def test_install_without_a_config_template_says_so(checkout):
    (checkout / "src" / "hardware" / "config.example.toml").unlink()
    result = script(checkout, "install.sh", "--dry-run")
    assert result.returncode == 0
    assert "no " in result.stderr and "config.example.toml" in result.stderr and "write /etc/golfbox/config.toml" in result.stderr


def test_scripts_refuse_unknown_options(checkout):
    for name in ("install.sh", "uninstall.sh"):
        result = script(checkout, name, "--frobnicate")
        assert result.returncode == 2
        assert "unknown option --frobnicate" in result.stderr


@needs_systemctl
def test_uninstall_keeps_the_journal_unless_purged(checkout):
    root = checkout / "root"
    assert script(checkout, "install.sh").returncode == 0
    journal = root / "var/lib/golfbox/journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"matches")

    dry = script(checkout, "uninstall.sh", "--dry-run", "--purge")
    assert dry.returncode == 0 and "would run: rm -rf" in dry.stdout
    assert dry.stdout.splitlines()[-1] == "uninstall.sh: a dry run: nothing was changed"
    assert journal.exists() and (root / "opt/golfbox/venv").exists()

    kept = script(checkout, "uninstall.sh")
    assert kept.returncode == 0, kept.stderr
    assert not (root / "etc/systemd/system/golfbox.service").exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/golfbox.service").exists()
    assert not (root / "opt/golfbox").exists()
    assert not (root / "etc/modules-load.d/golfbox.conf").exists()
    assert journal.read_bytes() == b"matches"
    assert (root / "etc/golfbox/config.toml").exists()

    purged = script(checkout, "uninstall.sh", "--purge")
    assert purged.returncode == 0, purged.stderr
    assert not (root / "var/lib/golfbox").exists() and not (root / "etc/golfbox").exists()


FAKE_SYSTEMCTL = """#!/bin/bash
# Stands in for a running systemd's systemctl: each call logged; the units named in
# $state/failed are failed ones, which reset-failed forgets; any other is not loaded.
state={state}
echo "systemctl $*" >> "$state/log"
case $1 in
    reset-failed)
        if grep -qx "$2" "$state/failed"; then sed -i "/^$2\\$/d" "$state/failed"; exit 0; fi
        echo "Failed to reset failed state of unit $2: Unit $2 not loaded." >&2; exit 1 ;;
esac
"""
FAKE_ID = "#!/bin/bash\necho 0\n"  # root, to check_root: the fake systemctl is all it changes
# What uninstall.sh removes on a live system: the test below runs it so only where none is.
INSTALLED = ("/etc/systemd/system/golfbox.service", "/opt/golfbox", "/etc/modules-load.d/golfbox.conf",
             "/etc/udev/rules.d/60-golfbox-i2c-mux.rules", "/etc/udev/rules.d/60-golfbox-seat-nodes.rules")


@pytest.mark.skipif(any(Path(path).exists() for path in INSTALLED),
                    reason="golfbox is installed here: uninstall.sh on this system would remove it")
@pytest.mark.parametrize("failed", [True, False])
def test_uninstall_leaves_no_failed_unit_behind(tmp_path, failed):
    """A start that failed (a missing package, a pin another program holds) left
    golfbox.service in `systemctl --failed`, unit file gone, after uninstall.sh: nothing
    ran reset-failed. It runs now; a unit that did not fail is unknown to systemd by
    then, and its "not loaded" is neither an error nor shown. On this system, not into
    a --root (whose systemd is not running); systemctl and id are fakes."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(FAKE_SYSTEMCTL.format(state=shlex.quote(str(tmp_path))))
    (bin_dir / "id").write_text(FAKE_ID)
    for fake in bin_dir.iterdir():
        fake.chmod(0o755)
    (tmp_path / "failed").write_text("golfbox.service\n" if failed else "")
    result = subprocess.run(["bash", str(UNINSTALL)], capture_output=True, text=True, timeout=60,
                            env={"PATH": f"{bin_dir}:/usr/sbin:/usr/bin:/sbin:/bin"})
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "systemctl reset-failed golfbox.service" in (tmp_path / "log").read_text()
    assert (tmp_path / "failed").read_text() == ""


def test_the_bots_worker_runs_at_a_lower_priority_than_the_table():
    """What the filter above allows, done: the worker's niceness is the table's plus 10.
    Linux stops at 19: a suite run under `nice -n 10` (a shared Pi, a busy builder)
    starts the worker at 10 and can lower it by 9 only, which is no fault of the worker."""
    code = ("import os; from golfbox.table.thinker import _lower_priority, WORKER_NICENESS; "
            "before = os.nice(0); _lower_priority(); print(before, os.nice(0), WORKER_NICENESS)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                            timeout=30)
    before, after, wanted = map(int, result.stdout.split())
    assert wanted == 10 and after == min(before + wanted, 19) and result.stderr == ""


# -- the udev rule that makes the TCA9548A deselect when idle ---------------------------------

UDEV_RULE = "etc/udev/rules.d/60-golfbox-i2c-mux.rules"
# udev(7): KEY op "value", comma-separated; ATTR{file} takes an attribute name.
UDEV_PAIR = re.compile(r'^(?P<key>[A-Z]+)(\{(?P<attr>[A-Za-z0-9_.-]+)\})?(?P<op>==|!=|=|\+=|-=|:=)"(?P<value>[^"]*)"$')


def udev_rules(text: str) -> list[dict[str, tuple[str, str]]]:
    """Each rule line as {key or KEY{attr}: (operator, value)}; asserts every pair parses."""
    rules = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        assert not line.rstrip().endswith("\\"), "a rule on one line, no continuation"
        pairs = {}
        for pair in (p.strip() for p in line.split(",")):
            match = UDEV_PAIR.match(pair)
            assert match, f"not a udev key-value pair: {pair!r}"
            name = match["key"] + (f"{{{match['attr']}}}" if match["attr"] else "")
            pairs[name] = (match["op"], match["value"])
        rules.append(pairs)
    return rules


def installed_udev_rule(checkout: Path, path: str) -> Path:
    """install.sh's udev rule at ``path``: named by a dry run (which writes nothing), then
    written by the install, readable by udev."""
    rule = checkout / "root" / path
    dry = script(checkout, "install.sh", "--dry-run")
    assert rule.name in dry.stdout and not rule.exists()
    assert script(checkout, "install.sh").returncode == 0
    assert rule.stat().st_mode & 0o777 == 0o644
    return rule


@needs_systemctl
def test_install_writes_the_mux_idle_state_rule_and_uninstall_removes_it(checkout):
    rule = installed_udev_rule(checkout, UDEV_RULE)
    # drivers/i2c/muxes/i2c-mux-pca954x.c: driver "pca954x" on the i2c bus, idle_state created
    # in probe (so present at "bind"), -2 = MUX_IDLE_DISCONNECT (dt-bindings/mux/mux.h).
    assert udev_rules(rule.read_text()) == [{
        "ACTION": ("==", "add|bind"), "SUBSYSTEM": ("==", "i2c"), "DRIVER": ("==", "pca954x"),
        "ATTR{idle_state}": ("=", "-2")}]
    again = script(checkout, "install.sh")
    assert again.returncode == 0 and udev_rules(rule.read_text())  # rewritten, still one rule

    assert "would run: rm -f" in script(checkout, "uninstall.sh", "--dry-run").stdout and rule.exists()
    assert script(checkout, "uninstall.sh").returncode == 0
    assert not rule.exists()


NODES_UDEV_RULE = "etc/udev/rules.d/60-golfbox-seat-nodes.rules"


@needs_systemctl
def test_install_keeps_modemmanager_off_the_seat_nodes_and_uninstall_removes_the_rule(checkout):
    """ModemManager probed a newly plugged ttyACM with AT commands for seconds (where its
    filter lets it): a seat node was taken late and got bytes it must refuse. The rule
    tags the node's USB ids, the ones golfbox looks for, with ID_MM_DEVICE_IGNORE."""
    from golfbox.hal.serialnode import MICROPYTHON_RP2040, SerialNodeConfig

    rule = installed_udev_rule(checkout, NODES_UDEV_RULE)
    assert SerialNodeConfig(seats={}).usb_ids == (MICROPYTHON_RP2040,)
    vid, pid = (f"{number:04x}" for number in MICROPYTHON_RP2040)
    # ModemManager reads the USB device's property, else the tty's: no SUBSYSTEM tags both.
    # Every event but remove: a "bind" after the "add" must not drop it from udev's database.
    assert udev_rules(rule.read_text()) == [{
        "ACTION": ("!=", "remove"), "ATTRS{idVendor}": ("==", vid), "ATTRS{idProduct}": ("==", pid),
        "ENV{ID_MM_DEVICE_IGNORE}": ("=", "1")}]
    again = script(checkout, "install.sh")
    assert again.returncode == 0 and len(udev_rules(rule.read_text())) == 1

    dry = script(checkout, "uninstall.sh", "--dry-run")
    assert any(line.startswith("would run: rm -f") and line.endswith("60-golfbox-seat-nodes.rules")
               for line in dry.stdout.splitlines()) and rule.exists()
    assert script(checkout, "uninstall.sh").returncode == 0
    assert not rule.exists() and not (checkout / "root" / UDEV_RULE).exists()


def test_the_rule_parser_refuses_what_udev_would(tmp_path):
    with pytest.raises(AssertionError):
        udev_rules('ACTION=="bind", ATTR{idle_state}=-2\n')  # value not quoted
    with pytest.raises(AssertionError):
        udev_rules('ACTION=="bind" SUBSYSTEM=="i2c"\n')  # no comma
