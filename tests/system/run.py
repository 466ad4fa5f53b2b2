#!/usr/bin/env python3
"""golfbox's system test: install and run it on a real systemd in a QEMU/KVM VM.

    make system-test            # or: .venv/bin/python tests/system/run.py [--keep] [--suite trixie]

Builds (once, cached under /var/cache/golfbox-system-test, keyed by the
recipe and the suite) a Debian bookworm (or trixie) image, boots it with no network, copies in this
working tree and wheels downloaded here, runs systemd/install.sh inside as
README tells a Pi owner, and checks from the host, through the agent on a
virtio-serial port, what the service does under systemd: READY, the sandbox
score, its user and capabilities, the watchdog, hard power cuts, a seat node
on a real kernel tty, an update, a refused hand edit of the config, uninstall. Each check prints one line; a failing one
stops the test with what it saw and the end of the VM's console. Needs root
and /dev/kvm. Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
from vm import VM, VMError  # noqa: E402

CACHE = Path(os.environ.get("GOLFBOX_SYSTEM_TEST_CACHE", "/var/cache/golfbox-system-test"))
SRC = "/root/golfbox"  # where the checkout goes in the VM, as `git clone` would put it
WHEELS = "/root/wheels"
JOURNAL = "/var/lib/golfbox/journal.sqlite3"
BOOT_TIMEOUT = 420  # s: a boot takes ~1 min under TCG on 2 busy cores, seconds under KVM
WATCHDOG_SEC, ABORT_SEC, RESTART_SEC = 10, 2, 2  # the unit's WatchdogSec=, TimeoutAbortSec=, RestartSec=

# The table the service runs in the VM: bots only, sim displays, a fixed seed.
# 9-card: its round start is not simultaneous (see README, Development).
GAME = {"variant": "9-card", "rounds": 9, "seed": 20261123, "bot_delay": 0.1}


# `medium` bots: every bot is a pure function of the journal, and medium decides in
# microseconds where `hard` searches for ~0.5 s under TCG (the match the power cuts
# fall in then ends minutes sooner).
BOT = "medium"


def table_config(game: dict, seats: str = "", extra: str = "", people: int = 0, bot: str = BOT) -> str:
    """Four seats, bots in all but the first ``people``."""
    game_lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in game.items())
    sim_seats = "[[seats]]\nbackend = \"sim\"\n" * 4
    bots = ", ".join(f'{seat} = "{bot}"' for seat in range(people + 1, 5))
    return (f"# the system test's table\n{seats or sim_seats}\n[shared_display]\ndriver = \"sim\"\n\n"
            f"[game]\nbots = {{ {bots} }}\nauto_start = true\n{game_lines}\n{extra}")


class CheckFailed(Exception):
    pass


class Report:
    def __init__(self):
        self.passed = 0
        self.figures: list[str] = []
        self.t0 = time.monotonic()

    def ok(self, name: str, detail: str = "") -> None:
        self.passed += 1
        print(f"  ok    {name}{': ' + detail if detail else ''}  [{time.monotonic() - self.t0:.0f} s]", flush=True)

    def figure(self, text: str) -> None:
        self.figures.append(text)
        print(f"  figure {text}", flush=True)


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# -- the host side: image, wheels, payload ---------------------------------------


def image_dir(suite: str) -> Path:
    """The cached image of this Debian suite for this recipe, built first if missing."""
    recipe = b"".join((HERE / name).read_bytes() for name in ("build_image.sh", "agent.py"))
    key = hashlib.sha256(recipe + suite.encode()).hexdigest()[:16]
    out = CACHE / f"image-{suite}-{key}"
    if not (out / "root.img").exists():
        print(f"building the VM image into {out} (a few minutes, once per recipe)", flush=True)
        shutil.rmtree(out, ignore_errors=True)
        started = time.monotonic()
        subprocess.run(["bash", str(HERE / "build_image.sh"), str(out), suite], check=True)
        print(f"  image built in {time.monotonic() - started:.0f} s", flush=True)
    return out


# The Debian suites the VM can run: bookworm, what hardware/SETUP.md first named, and
# trixie, what Raspberry Pi Imager offers by default since late 2025. Their Python and
# the version of their kernel's linux-source package.
SUITES = {"bookworm": {"python": (3, 11), "kernel": "6.1"},
          "trixie": {"python": (3, 13), "kernel": "6.12"}}


def build_chroot(suite: str) -> Path:
    """A Debian chroot of ``suite`` with its Python, gcc and make (build_chroot.sh), cached:
    it builds what the host cannot build for the VM."""
    root = CACHE / f"chroot-{suite}"
    if not (root / "usr/bin/gcc").exists():
        print(f"building a {suite} chroot into {root} (once)", flush=True)
        subprocess.run(["bash", str(HERE / "build_chroot.sh"), str(root), suite], check=True)
    return root


def in_chroot(root: Path, command: str, binds: dict[str, Path]) -> None:
    """Run ``command`` (sh) as root in the chroot, with /proc, /dev, the host's DNS and
    certificate authorities, and ``binds`` (path in the chroot: host folder), in a mount
    namespace of its own: every mount goes when the command ends."""
    mounts = " && ".join([f"mount --rbind /dev {root}/dev", f"mount -t proc proc {root}/proc"]
                         + [f"mkdir -p {root}{inside} && mount --bind {shq(str(outside))} {root}{inside}"
                            for inside, outside in binds.items()])
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    for ca in Path("/usr/local/share/ca-certificates").glob("*.crt"):
        shutil.copy(ca, root / "usr/local/share/ca-certificates" / ca.name)
    inner = f"update-ca-certificates >/dev/null && {command}"
    subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                    f"{mounts} && chroot {root} env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "
                    f"PIP_CERT=/etc/ssl/certs/ca-certificates.crt DEBIAN_FRONTEND=noninteractive "
                    f"sh -c {shq(inner)}"], check=True)


def wheels_dir(suite: str) -> Path:
    """Wheels for golfbox[pi] and its build, for the VM's Python, made here once.

    ``pip wheel``, not ``pip download --only-binary``: spidev (luma's SPI) is published
    as source only, so it is built for the VM: on the host where the host runs the
    suite's Python on x86_64 (bookworm's 3.11 here, with the same glibc or an older
    one), else in a chroot of the suite (build_chroot), whose Python and glibc are the
    VM's.
    """
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    wanted = (project["project"]["dependencies"] + project["project"]["optional-dependencies"]["pi"]
              + project["build-system"]["requires"] + ["wheel"])
    key = hashlib.sha256(json.dumps(wanted).encode()).hexdigest()[:16]
    on_host = sys.version_info[:2] == SUITES[suite]["python"] and platform.machine() == "x86_64"
    out = CACHE / (f"wheels-{key}" if on_host else f"wheels-{suite}-{key}")
    if not (out / ".complete").exists():
        shutil.rmtree(out, ignore_errors=True)
        if on_host:
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(out),
                            *wanted], check=True)
        else:
            out.mkdir(parents=True)
            print(f"building wheels for {suite}'s Python in its chroot", flush=True)
            # lgpio has no wheel for 3.13: its sdist builds one with the C library inside
            # when PYPI=1 (setup.py), as its own wheels are; else it links a -llgpio
            # that Debian does not package.
            in_chroot(build_chroot(suite), "rm -rf /root/pip && python3 -m venv /root/pip && PYPI=1 "
                      "/root/pip/bin/pip wheel --quiet --wheel-dir /out " + " ".join(map(shq, wanted)),
                      {"/out": out})
        (out / ".complete").touch()
    return out


def tracked_files() -> list[str]:
    """The working tree as a clone would have it, with uncommitted changes (a broken
    install.sh under test included): tracked and untracked-not-ignored files."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=REPO, capture_output=True, check=True).stdout
    return sorted(p for p in out.decode().split("\0") if p and (REPO / p).is_file())


def make_payload(path: Path, wheels: Path, modules: list[Path]) -> None:
    """A tar the VM reads straight off its second disk: golfbox/, wheels/ and extra/."""
    with tarfile.open(path, "w") as tar:
        for module in modules:
            tar.add(module, arcname=f"extra/{module.name}")
        for name in tracked_files():
            tar.add(REPO / name, arcname=f"golfbox/{name}")
        for wheel in sorted(wheels.iterdir()):
            if wheel.name != ".complete":
                tar.add(wheel, arcname=f"wheels/{wheel.name}")


# -- helpers in the VM -------------------------------------------------------------


def unit_state(vm: VM) -> dict[str, str]:
    out = vm.sh("systemctl show golfbox.service -p ActiveState,SubState,MainPID,StatusText,Result,"
                "NRestarts,ActiveEnterTimestampMonotonic,ExecMainStartTimestampMonotonic,LoadState").out
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_active(vm: VM, timeout: float, not_pid: str | None = None) -> dict[str, str]:
    """Wait until the service has sent READY=1 (a notify unit is "active" only then)."""
    deadline = time.monotonic() + timeout
    state: dict[str, str] = {}
    while time.monotonic() < deadline:
        state = unit_state(vm)
        if state.get("ActiveState") == "active" and state.get("MainPID") not in ("0", not_pid):
            return state
        time.sleep(0.2)
    log = vm.sh("journalctl -u golfbox.service -n 40 --no-pager", check=False).out
    raise CheckFailed(f"golfbox.service not active (READY=1) within {timeout:.0f} s: {state}\n{log}")


JOURNAL_DUMP = r"""
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
matches = db.execute("SELECT id, status, seed, variant, totals, winners FROM match ORDER BY id").fetchall()
entries = db.execute("SELECT match_id, seq, seat, action, event FROM entry ORDER BY match_id, seq").fetchall()
rounds = db.execute("SELECT match_id, round_no, scores FROM round_score ORDER BY match_id, round_no").fetchall()
print(json.dumps({"matches": matches, "entries": entries, "rounds": rounds}))
"""


def journal_of(vm: VM) -> dict:
    """The service's journal, read as its own user (no root-owned -shm file left behind)."""
    # Generous: under TCG on a loaded host the guest has stalled for over a minute (RCU stall warnings).
    out = vm.sh(f"runuser -u golfbox -- python3 -c {shq(JOURNAL_DUMP)} {JOURNAL}", timeout=240).out
    return json.loads(out)


def shq(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def dump_local(path: Path) -> dict:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            "matches": [list(r) for r in db.execute("SELECT id, status, seed, variant, totals, winners FROM match ORDER BY id")],
            "entries": [list(r) for r in db.execute("SELECT match_id, seq, seat, action, event FROM entry ORDER BY match_id, seq")],
            "rounds": [list(r) for r in db.execute("SELECT match_id, round_no, scores FROM round_score ORDER BY match_id, round_no")],
        }
    finally:
        db.close()


def game_record(journal: dict, latest: bool = False) -> dict:
    """What must match between two runs of the same match: its moves, rounds and result.
    The first match of the journal, or with ``latest`` the last one."""
    ids = [m[0] for m in journal["matches"]]
    wanted = (ids[-1] if latest else ids[0]) if ids else None
    (match,) = [m for m in journal["matches"] if m[0] == wanted] or [None]
    return {
        "match": match and [match[1], match[2], match[3], match[4], match[5]],
        "entries": [e[1:] for e in journal["entries"] if e[0] == wanted],
        "rounds": [r[1:] for r in journal["rounds"] if r[0] == wanted],
    }


def reference_run(workdir: Path, config_text: str, timeout: float) -> subprocess.Popen:
    """The same match without interruption, by this checkout's golfbox on the host."""
    config = workdir / "reference.toml"
    config.write_text(config_text)
    golfbox = Path(sys.executable).with_name("golfbox")
    return subprocess.Popen([str(golfbox), "run", "--config", str(config), "--journal", str(workdir / "reference.sqlite3")],
                            stdout=open(workdir / "reference.log", "wb"), stderr=subprocess.STDOUT,
                            env=dict(os.environ, NOTIFY_SOCKET=""))


def wait_reference(process: subprocess.Popen, workdir: Path, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    path = workdir / "reference.sqlite3"
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise CheckFailed(f"the host's reference run exited {process.returncode}: "
                                  f"{(workdir / 'reference.log').read_text()[-2000:]}")
            if path.exists():
                record = game_record(dump_local(path))
                if record["match"] and record["match"][0] == "finished":
                    return record
            time.sleep(0.5)
        raise CheckFailed(f"the host's reference match did not finish within {timeout:.0f} s")
    finally:
        process.terminate()
        process.wait(10)


# -- the checks ----------------------------------------------------------------------


def check_install(vm: VM, report: Report) -> None:
    vm.sh(f"mkdir -p /root && tar -xf /dev/vdb -C /root && test -x {SRC}/systemd/install.sh")
    vm.write_file("/etc/golfbox/config.toml", table_config(GAME))
    started = time.monotonic()
    # As README tells a Pi owner (sudo is root here), offline: pip takes the wheels copied in.
    result = vm.sh(f"cd {SRC} && PIP_NO_INDEX=1 PIP_FIND_LINKS={WHEELS} systemd/install.sh", timeout=600, check=False)
    expect(result.rc == 0, f"install.sh exited {result.rc}:\n{result.out[-3000:]}\n{result.err[-3000:]}")
    report.figure(f"install.sh in the VM (venv, offline pip install, enable --now): {time.monotonic() - started:.1f} s")
    installed = vm.sh("cat /etc/systemd/system/golfbox.service").out
    expect(installed == (REPO / "systemd/golfbox.service").read_text(),
           "the installed unit is not systemd/golfbox.service")
    rule = vm.sh("cat /etc/udev/rules.d/60-golfbox-i2c-mux.rules", check=False).out
    expect('DRIVER=="pca954x", ATTR{idle_state}="-2"' in rule, "install.sh wrote no TCA9548A idle_state rule")
    report.ok("install.sh as README says, offline, exit 0; the unit installed as shipped")


def check_running(vm: VM, report: Report) -> dict[str, str]:
    state = wait_active(vm, 60)
    expect(state["SubState"] == "running", f"golfbox.service is {state}")
    expect(vm.sh("systemctl is-enabled golfbox.service", check=False).out.strip() == "enabled",
           "golfbox.service is not enabled")
    ready_log = vm.sh("journalctl -u golfbox.service -o cat --no-pager | grep -c 'table ready in'", check=False).out.strip()
    expect(ready_log not in ("", "0"), "the service never logged 'table ready in'")
    report.ok("golfbox.service active (READY=1 received), enabled", f"status: {state['StatusText']!r}")

    out = vm.sh("systemd-analyze security golfbox.service --no-pager", check=False).out
    found = re.search(r"Overall exposure level for golfbox.service: (\d+\.\d+)", out)
    expect(found is not None, f"systemd-analyze security printed no exposure level:\n{out[-2000:]}")
    score = float(found.group(1))
    expect(score <= 1.0, f"systemd-analyze security golfbox.service rates the installed unit {score} (> 1.0):\n{out[-4000:]}")
    report.ok("systemd-analyze security on the installed unit", f"{score}")
    report.figure(f"systemd-analyze security golfbox.service (live, in the VM): {score}")

    pid = state["MainPID"]
    status = vm.sh(f"cat /proc/{pid}/status").out
    user = vm.sh(f"ps -o user= -p {pid}").out.strip()
    expect(user == "golfbox", f"the service runs as {user!r}, not golfbox")
    caps = {k: v.strip() for k, v in re.findall(r"^(Cap\w+):\s*(\w+)$", status, re.M)}
    expect(caps and all(int(v, 16) == 0 for v in caps.values()), f"the service has capabilities: {caps}")
    nnp = re.search(r"^NoNewPrivs:\s*(\d)", status, re.M)
    expect(nnp and nnp.group(1) == "1", "NoNewPrivs is not set on the service")
    groups = vm.sh(f"ps -o supgrp= -p {pid}").out.strip()
    for group in ("gpio", "i2c", "spi", "dialout"):
        expect(group in groups.split(","), f"the service is not in group {group}: {groups}")
    report.ok("runs as golfbox, no capabilities, no new privileges", f"{' '.join(f'{k}={v}' for k, v in caps.items())}, groups {groups}")
    return state


def actions_so_far(vm: VM) -> int:
    return len(game_record(journal_of(vm))["entries"])


def check_watchdog(vm: VM, report: Report) -> None:
    state = wait_active(vm, 30)
    pid, restarts = state["MainPID"], int(state["NRestarts"])
    before = actions_so_far(vm)
    stopped_at = vm.sh(f"kill -STOP {pid}").mono
    # systemd must notice the missing pings (WatchdogSec after the last one, so at most that
    # after SIGSTOP), send SIGABRT, SIGKILL the stopped process TimeoutAbortSec later, and
    # start it again after RestartSec; READY follows once the table is up.
    bound = WATCHDOG_SEC + ABORT_SEC + RESTART_SEC
    new = wait_active(vm, bound + 90, not_pid=pid)
    restarted = int(new["ExecMainStartTimestampMonotonic"]) / 1e6 - stopped_at
    ready = int(new["ActiveEnterTimestampMonotonic"]) / 1e6 - stopped_at
    killed_log = vm.sh("journalctl -u golfbox.service -o cat --no-pager | grep -i watchdog", check=False).out
    expect("watchdog timeout" in killed_log.lower(), f"systemd did not log a watchdog timeout:\n{killed_log}")
    expect(int(new["NRestarts"]) == restarts + 1, f"NRestarts went {restarts} -> {new['NRestarts']}")
    # 1 s of slack: systemd's timers and the moment of the last ping are not ours to line up.
    expect(restarted <= bound + 1, f"started again {restarted:.1f} s after SIGSTOP, more than WatchdogSec "
                                   f"{WATCHDOG_SEC} + TimeoutAbortSec {ABORT_SEC} + RestartSec {RESTART_SEC}")
    deadline = time.monotonic() + 30
    while actions_so_far(vm) <= before and time.monotonic() < deadline:
        time.sleep(0.5)
    after = actions_so_far(vm)
    expect(after > before, f"the match did not go on after the restart ({before} journal entries, then {after})")
    report.ok("watchdog: SIGSTOP → killed, restarted, READY again; the match goes on",
              f"started again {restarted:.1f} s after SIGSTOP, READY at {ready:.1f} s, entries {before} → {after}")
    report.figure(f"SIGSTOP to started again / READY again (WatchdogSec={WATCHDOG_SEC}, TimeoutAbortSec={ABORT_SEC}, "
                  f"RestartSec={RESTART_SEC}): {restarted:.1f} s / {ready:.1f} s")


def check_power_cuts(vm: VM, report: Report, workdir: Path, cuts: int, rng: random.Random) -> None:
    game = dict(GAME, seed=GAME["seed"] + 1)
    config = table_config(game)
    reference = reference_run(workdir, config, timeout=600)
    try:
        _power_cuts(vm, report, workdir, cuts, rng, config, reference)
    finally:  # on a failure too: no golfbox left running on the host
        if reference.poll() is None:
            reference.terminate()
            reference.wait(10)


def _power_cuts(vm: VM, report: Report, workdir: Path, cuts: int, rng: random.Random, config: str,
                reference: subprocess.Popen) -> None:
    # A fresh journal for this match: stop the service, move the old journal out of the way.
    fresh_table(vm, config)
    resume_times, ready_after_boot = [], []
    seen = 0
    for cut in range(1, cuts + 1):
        wait_active(vm, 60)
        time.sleep(rng.uniform(0.2, 4.0))
        before = actions_so_far(vm)
        expect(before >= seen, f"power cut {cut - 1} lost journal entries: {seen} before it, {before} after")
        expect(game_record(journal_of(vm))["match"][0] == "playing",
               f"the match finished after only {cut - 1} power cuts: make it longer (rounds, bot_delay)")
        time.sleep(rng.uniform(0.0, 1.0))  # the cut itself: at a moment the test does not line up with a read
        old_boot = vm.boot_id
        vm.hard_reset()
        vm.wait_boot(BOOT_TIMEOUT, old_boot=old_boot)
        state = wait_active(vm, 180)
        resume_times.append(time.monotonic() - vm.started_at)
        ready_after_boot.append(int(state["ActiveEnterTimestampMonotonic"]) / 1e6)
        seen = before
        print(f"        power cut {cut}/{cuts} at {before} journal entries: READY again "
              f"{resume_times[-1]:.1f} s after the reset", flush=True)
        journal = journal_of(vm)
        after = game_record(journal)
        expect(len(journal["matches"]) == 1, f"after power cut {cut} a new match was dealt instead of "
               f"resuming the one in play ({len(journal['matches'])} matches in the journal)")
        expect(after["match"][0] in ("playing", "finished") and len(after["entries"]) >= before,
               f"after power cut {cut} the match was not resumed: {after['match']}, {len(after['entries'])} "
               f"journal entries, {before} before the cut")
    report.ok(f"{cuts} hard resets during the match: the service came back by itself after each",
              f"power-on to READY {min(resume_times):.1f}–{max(resume_times):.1f} s")
    report.figure(f"power cut (system_reset) to READY again, host clock: median {sorted(resume_times)[len(resume_times) // 2]:.1f} s, "
                  f"max {max(resume_times):.1f} s over {cuts}; kernel start to READY: median "
                  f"{sorted(ready_after_boot)[len(ready_after_boot) // 2]:.1f} s")
    deadline = time.monotonic() + 1200
    while True:
        record = game_record(journal_of(vm))
        if record["match"][0] == "finished":
            break
        expect(time.monotonic() < deadline, "the match did not finish within 20 minutes after the last cut")
        time.sleep(10)
    expected = wait_reference(reference, workdir, 600)
    if record != expected:
        diff = next((i for i, (a, b) in enumerate(zip(record["entries"], expected["entries"])) if a != b),
                    min(len(record["entries"]), len(expected["entries"])))
        raise CheckFailed(f"after {cuts} power cuts the match differs from an uninterrupted run: first at entry {diff}: "
                          f"VM {record['entries'][diff:diff + 3]} vs reference {expected['entries'][diff:diff + 3]}; "
                          f"result VM {record['match']} vs reference {expected['match']}")
    report.ok("the finished match's journal equals an uninterrupted run's",
              f"{len(record['entries'])} entries, {len(record['rounds'])} rounds, totals {record['match'][3]}")


NODE_ID = "e6614103e7452d2f"
DROP_IN = "/etc/systemd/system/golfbox.service.d/system-test.conf"


class HostNode:
    """A seat node: the real firmware (firmware/main.py) under the MicroPython Unix port on
    the host, its "USB" the VM's usb-serial device (an FTDI 0403:6001: QEMU's usb-serial
    has no other ids). Buttons and OLED are tests/fake_mpy's pin-level fakes."""

    def __init__(self, workdir: Path, sock_path: Path):
        import runpy
        import socket

        self.pins = workdir / "node-pins"
        self.oled = workdir / "node-oled"
        self.button_pins = runpy.run_path(str(REPO / "firmware/board.py"))["BUTTON_PINS"]
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(sock_path))
        micropython = Path(sys.executable).with_name("micropython")
        path = os.pathsep.join(str(REPO / d) for d in ("tests/fake_mpy", "firmware", "golfbox/hal"))
        env = dict(os.environ, MICROPYPATH=path, FAKE_PINS=str(self.pins), FAKE_OLED=str(self.oled),
                   FAKE_UNIQUE_ID=NODE_ID)
        self.process = subprocess.Popen([str(micropython), str(REPO / "firmware/main.py")], stdin=self.sock,
                                        stdout=self.sock, stderr=open(workdir / "node.log", "wb"), env=env)

    def press(self, button: str) -> None:
        gpio = self.button_pins[("left", "right", "ok", "back").index(button)]
        self.pins.write_text(f"{gpio}=0")
        time.sleep(0.2)
        self.pins.write_text("")
        time.sleep(0.2)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.sock.close()


def plug_node(vm: VM) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            vm.qmp("device_add", driver="usb-serial", id="seatnode", chardev="seatnode", bus="xhci.0")
            return
        except VMError:  # the last unplug may still be completing
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


# The log of this run of the service only (not the lines of an earlier start).
THIS_RUN_LOG = ("journalctl _SYSTEMD_INVOCATION_ID=$(systemctl show -p InvocationID --value "
                "golfbox.service) -o cat --no-pager")


def wait_log(vm: VM, pattern: str, count: int, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        found = vm.sh(f"{THIS_RUN_LOG} | grep -c {shq(pattern)}", check=False).out.strip()
        if int(found or 0) >= count:
            return
        if time.monotonic() > deadline:
            log = vm.sh("journalctl -u golfbox.service -o cat --no-pager -n 30", check=False).out
            raise CheckFailed(f"{what}: no {count}. log line {pattern!r} within {timeout:.0f} s:\n{log}")
        time.sleep(0.5)


def seat_actions(vm: VM, seat: int = 0) -> int:
    return sum(1 for e in game_record(journal_of(vm), latest=True)["entries"] if e[1] == seat and e[2])


def play_on_node(vm: VM, node: HostNode, timeout: float) -> int:
    """Press ● on the node until seat 1 has played one more action; that count."""
    before = seat_actions(vm)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        node.press("ok")
        if seat_actions(vm) > before:
            return seat_actions(vm)
    raise CheckFailed(f"presses on the seat node played nothing for seat 1 within {timeout:.0f} s")


def check_seat_node(vm: VM, report: Report, workdir: Path) -> None:
    config = table_config(
        {"variant": "9-card", "rounds": 9, "bot_delay": 0.1, "takeover_after": 0},
        seats=f'[[seats]]\nbackend = "serial"\nnode = "{NODE_ID}"\n' + '[[seats]]\nbackend = "sim"\n' * 3,
        extra='\n[seat_nodes]\nusb_ids = ["0403:6001"]\n', people=1)
    node = HostNode(workdir, workdir / "node.sock")
    try:
        plug_node(vm)
        # Test only: the node is an FTDI (ttyUSB); the shipped unit allows ttyACM (RP2040 CDC) only.
        fresh_table(vm, config, "[Service]\nDeviceAllow=char-ttyUSB rw\n")
        wait_log(vm, f"node {NODE_ID} (firmware", 1, 60, "the service did not find the node by its USB id")
        tty = vm.sh("ls /sys/bus/usb-serial/devices/").out.split()
        played = play_on_node(vm, node, 120)
        expect(node.oled.exists() and any(node.oled.read_bytes()[:1024]), "the node's OLED shows nothing")
        report.ok("seat node on a real kernel tty: found by USB id 0403:6001, plays seat 1",
                  f"{tty}, {played} actions by seat 1")
        vm.qmp("device_del", id="seatnode")
        wait_log(vm, "seat 1: node unplugged", 1, 30, "unplugging (device_del) was not noticed")
        stable, last, deadline = 0, -1, time.monotonic() + 90
        while stable < 3:  # the bots play on until it is seat 1's turn, then the table waits
            expect(time.monotonic() < deadline, "the table did not pause for the unplugged seat")
            now = actions_so_far_latest(vm)
            stable = stable + 1 if now == last else 0
            last = now
            time.sleep(2)
        expect(seat_actions(vm) == played, "seat 1 played while its node was unplugged")
        plug_node(vm)
        wait_log(vm, f"node {NODE_ID} (firmware", 2, 60, "the replugged node was not found again")
        again = play_on_node(vm, node, 120)
        report.ok("unplugged and replugged (device_del/device_add): seat 1 paused, then played again",
                  f"paused at {last} entries, seat 1 actions {played} → {again}")
    finally:
        node.close()


def fresh_table(vm: VM, config: str, drop_in: str | None = None) -> dict[str, str]:
    """Restart the service on a new config and an empty journal (the old one moved aside)."""
    vm.sh("systemctl stop golfbox.service && mkdir -p /root/old && "
          "for f in /var/lib/golfbox/journal.sqlite3*; do [ -e \"$f\" ] && mv \"$f\" /root/old/$(date +%s%N)-${f##*/}; done; sync")
    vm.write_file("/etc/golfbox/config.toml", config)
    if drop_in is not None:
        vm.write_file(DROP_IN, drop_in)
    else:
        vm.sh(f"rm -f {DROP_IN}")
    vm.sh("systemctl daemon-reload && systemctl reset-failed golfbox.service; systemctl start golfbox.service")
    return wait_active(vm, 60)


RETRIES = 500
# i2c-stub's chips, for both checks that load it: a panel's 0x3C, and 0x70 for a TCA9548A
STUB_CHIPS = "0x3c,0x70"


def stub_bus(vm: VM) -> str:
    """i2c-stub loaded (once: its chips are fixed at load) and its bus's number."""
    vm.sh(f"modprobe i2c-dev && modprobe i2c-stub chip_addr={STUB_CHIPS} && udevadm settle")
    # /sys/bus/i2c, not /sys/class/i2c-adapter: 6.12 (trixie's kernel) has no such class.
    found = vm.sh("grep -l 'SMBus stub driver' /sys/bus/i2c/devices/i2c-*/name").out
    return re.search(r"/i2c-(\d+)/name", found).group(1)


def check_failing_panel(vm: VM, report: Report) -> None:
    # i2c-stub: an SMBus-only adapter with a chip at 0x3C. luma's init commands (SMBus block
    # writes) reach it; its frames (plain I2C transfers, I2C_RDWR) fail in the kernel.
    bus = stub_bus(vm)
    owner = vm.sh(f"stat -c %G /dev/i2c-{bus}").out.strip()
    expect(owner == "i2c", f"/dev/i2c-{bus} belongs to group {owner}, not i2c")
    seats = (f'[[seats]]\nbackend = "sim"\ndisplay = {{ driver = "ssd1306", i2c = {{ bus = {bus}, address = 0x3C }} }}\n'
             + '[[seats]]\nbackend = "sim"\n' * 3)
    state = fresh_table(vm, table_config(dict(GAME, seed=7), seats=seats),
                        "[Service]\nEnvironment=GOLFBOX_DISPLAY_RETRY=0.02\n")
    pid = state["MainPID"]
    wait_log(vm, "seat 1 display", 1, 60, "the failing panel was not reported")
    status = unit_state(vm)["StatusText"]
    expect("seat 1 display" in status, f"systemctl status does not show the failed display: {status!r}")

    def fds() -> list[str]:
        """What the service holds open, the fewest of three looks: each retry holds the
        panel's bus open for a moment, which one look may catch (8 → 9 once in 7 whole
        runs; a readlink then found an fd gone: a failure names them all)."""
        # (an fd may close between the glob and its readlink: a retry's bus, just closed)
        looks = [vm.sh(f"for fd in /proc/{pid}/fd/*; do readlink $fd; done; true").out.split()
                 for _ in range(3)]
        return min(looks, key=len)

    wait_log(vm, "still failing after 100 tries", 1, 120, "the panel was not retried 100 times")
    first, entries_first = fds(), actions_so_far_latest(vm)
    wait_log(vm, f"still failing after {RETRIES + 100} tries", 1, 300, f"the panel was not retried {RETRIES + 100} times")
    last, entries_last = fds(), actions_so_far_latest(vm)
    # Failed in 2 whole runs in 6 (systemd's watchdog, 10 s after READY): the loop
    # waited on its queue past a timer's deadline (TableService.step says why).
    expect(unit_state(vm)["MainPID"] == pid, "the service restarted while its panel failed; its "
           "log, the retries left out:\n" + vm.sh("journalctl -u golfbox.service -o short-monotonic "
                                                   "--no-pager | grep -v 'still failing' | tail -60",
                                                   check=False).out)
    expect(len(last) == len(first), f"the service's open files went {len(first)} → {len(last)} over "
           f"{RETRIES} retries of the panel (a leak): {sorted(first)} → {sorted(last)}")
    expect(entries_last > entries_first, "the game did not go on while the panel failed")
    rss = vm.sh(f"grep VmRSS /proc/{pid}/status").out.split()[1]
    report.ok(f"a panel on i2c-stub (SMBus only) fails for real: shown in the status, the game goes on, "
              f"open files flat over {RETRIES} retries", f"/dev/i2c-{bus}, {len(first)} → {len(last)} fds, RSS {rss} kB, "
              f"entries {entries_first} → {entries_last}, status {status!r}")


def check_i2c_mux(vm: VM, report: Report) -> None:
    """A TCA9548A on the kernel's own driver (i2c-mux-pca954x), bound as the i2c-mux
    overlay binds it on a Pi, here to i2c-stub's chip at 0x70: install.sh's udev rule
    must set its idle_state to -2 (disconnect), at its binding and at a bind again, and
    the table must find a display's channel adapter by its channel-N link."""
    vm.sh("systemctl stop golfbox.service")
    bus = stub_bus(vm)
    mux = f"/sys/bus/i2c/devices/{bus}-0070"
    if vm.sh("test -e /root/extra/i2c-mux-pca954x.ko", check=False).rc != 0:
        raise CheckFailed("no i2c-mux-pca954x module for the VM's kernel (see the build error above)")
    # On a Pi the overlay's compatible string binds the chip to the driver; here the
    # driver is loaded by hand (Debian's kernel lacks it) and the chip named by its i2c id.
    vm.sh(f"modprobe i2c-mux && (lsmod | grep -q '^i2c_mux_pca954x' || insmod /root/extra/i2c-mux-pca954x.ko) "
          f"&& (test -e {mux} || echo pca9548 0x70 > /sys/bus/i2c/devices/i2c-{bus}/new_device) "
          "&& udevadm settle")
    driver = vm.sh(f"basename $(readlink {mux}/driver)", check=False).out.strip()
    expect(driver == "pca954x", f"the TCA9548A at {mux} is bound to {driver or 'no driver'!r}, not "
           "pca954x; the kernel said:\n" + vm.sh("dmesg | tail -20", check=False).out)
    idle = vm.sh(f"cat {mux}/idle_state").out.strip()
    expect(idle == "-2", f"{mux}/idle_state is {idle} after its binding: the udev rule did not apply")
    vm.sh(f"echo {bus}-0070 > /sys/bus/i2c/drivers/pca954x/unbind && "
          f"echo {bus}-0070 > /sys/bus/i2c/drivers/pca954x/bind && udevadm settle")
    rebound = vm.sh(f"cat {mux}/idle_state").out.strip()
    expect(rebound == "-2", f"{mux}/idle_state is {rebound} after a bind again: the rule did not apply")
    adapter = vm.sh(f"basename $(readlink {mux}/channel-2)").out.strip()
    owner = vm.sh(f"stat -c %G /dev/{adapter}").out.strip()
    expect(owner == "i2c", f"/dev/{adapter} (channel 2) belongs to group {owner}, not i2c")
    seats = ('[[seats]]\nbackend = "sim"\ndisplay = { driver = "ssd1306", i2c = { mux = 0x70, '
             'channel = 2, address = 0x3C } }\n' + '[[seats]]\nbackend = "sim"\n' * 3)
    mux_table = f"\n[[i2c_mux]]\nparent = {bus}\naddress = 0x70\n"
    fresh_table(vm, table_config(dict(GAME, seed=7), seats=seats, extra=mux_table),
                "[Service]\nEnvironment=GOLFBOX_DISPLAY_RETRY=0.02\n")
    # i2c-stub takes luma's init commands through the channel and fails its frames, so
    # the panel's failure, not a missing channel, says the table opened the adapter.
    wait_log(vm, "seat 1 display", 1, 60, "the panel behind the mux was not tried")
    log = vm.sh(THIS_RUN_LOG, check=False).out
    expect("channel-2" not in log, f"the table did not find channel 2's adapter:\n{log[-2000:]}")
    expect("idle_state" not in log, f"the table warned about the mux's idle_state:\n{log[-2000:]}")
    # A mux that does not answer its probe (0x71: no chip there) is a device with no
    # driver and no channel-N links, as the overlay leaves one on a Pi: the table says so.
    silent = f"/sys/bus/i2c/devices/{bus}-0071"
    vm.sh(f"test -e {silent} || echo pca9548 0x71 > /sys/bus/i2c/devices/i2c-{bus}/new_device; udevadm settle")
    expect(vm.sh(f"test -d {silent} && ! test -e {silent}/driver && ! ls {silent} | grep -q channel-",
                 check=False).rc == 0, f"{silent}: not a device left without its driver and channels")
    fresh_table(vm, table_config(dict(GAME, seed=7), seats=seats.replace("0x70", "0x71"),
                                 extra=mux_table.replace("0x70", "0x71")),
                "[Service]\nEnvironment=GOLFBOX_DISPLAY_RETRY=0.02\n")
    wait_log(vm, "did not answer when the kernel probed it", 1, 60,
             "a TCA9548A that did not answer its probe was not said to be so")
    report.ok("a TCA9548A on the kernel's pca954x driver (i2c-stub at 0x70): install.sh's udev rule sets "
              "idle_state -2 at its binding and at a bind again, the table finds channel 2's adapter; "
              "one that does not answer its probe (0x71) is said so",
              f"{mux}, channel-2 → /dev/{adapter} (group i2c)")


def check_bot_worker(vm: VM, report: Report) -> None:
    """`hard` thinks in a worker process that lowers its own priority (table/thinker.py):
    under the unit's system call filter, for real, it must still be allowed to."""
    state = fresh_table(vm, table_config(dict(GAME, seed=11), bot="hard"))
    pid = state["MainPID"]
    deadline = time.monotonic() + 180
    worker = None
    while worker is None and time.monotonic() < deadline:
        children = vm.sh(f"ps -o pid=,args= --ppid {pid}", check=False).out.splitlines()
        worker = next((line.split()[0] for line in children if "spawn_main" in line), None)
        time.sleep(0.5)
    expect(worker is not None, f"no bots' worker process appeared under the service (pid {pid})")
    # The worker lowers its priority as it starts, before its first answer: read its
    # niceness once hard bots have played on (under TCG a worker takes seconds to start).
    entries = actions_so_far_latest(vm)
    while actions_so_far_latest(vm) < entries + 4 and time.monotonic() < deadline:
        time.sleep(1)
    expect(actions_so_far_latest(vm) >= entries + 4, "hard bots did not play on")
    table_nice = int(vm.sh(f"ps -o ni= -p {pid}").out)
    worker_nice = int(vm.sh(f"ps -o ni= -p {worker}").out)
    failed = vm.sh(f"{THIS_RUN_LOG} | grep 'nice() failed'", check=False).out.strip()
    expect(worker_nice == table_nice + 10 and not failed,
           f"the bots' worker {worker} runs at niceness {worker_nice}, the table at {table_nice}: "
           f"{failed or 'not 10 lower'}")
    report.ok("hard thinks in a worker at a lower priority, under the unit's filter",
              f"worker {worker} niceness {worker_nice}, table {table_nice}")


def actions_so_far_latest(vm: VM) -> int:
    return len(game_record(journal_of(vm), latest=True)["entries"])


# -- buttons through a real kernel GPIO chip (gpio-sim) ------------------------------


def kernel_version(vmlinuz: Path) -> str:
    """The release of a bzImage ("6.1.0-56-amd64"): its header points at the version string."""
    data = vmlinuz.read_bytes()
    offset = int.from_bytes(data[0x20E:0x210], "little") + 0x200
    return data[offset:data.index(b"\0", offset)].decode().split()[0]


MODULES = ("gpio-sim-oot.ko", "i2c-mux-pca954x.ko")  # what tests/system/kernel_modules.sh builds


def kernel_modules(image: Path, suite: str) -> list[Path]:
    """gpio-sim and the TCA9548A's driver built for the image's kernel
    (tests/system/kernel_modules.sh), cached; none, and the reason printed, when they
    cannot be built here (the checks that need them then fail saying so). Built on the
    host when it has (or can install) that kernel's headers, else in the suite's chroot."""
    release = kernel_version(image / "vmlinuz")
    out = CACHE / f"modules-{release}"
    if not all((out / name).exists() for name in MODULES):
        packages = f"linux-headers-{release} linux-source-{SUITES[suite]['kernel']}"
        headers = Path(f"/usr/src/linux-headers-{release}")
        if not headers.exists() and host_suite() == suite:
            subprocess.run(["apt-get", "install", "-y", "-q", *packages.split()],
                           check=False, stdout=subprocess.DEVNULL, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        if headers.exists():
            result = subprocess.run([str(HERE / "kernel_modules.sh"), str(out)], capture_output=True, text=True,
                                    env=dict(os.environ, HEADERS=str(headers)))
        else:
            out.mkdir(parents=True, exist_ok=True)
            try:
                in_chroot(build_chroot(suite), f"apt-get update -q >/dev/null && apt-get install -y -q {packages} "
                          f">/dev/null && HEADERS=/usr/src/linux-headers-{release} /system/kernel_modules.sh /out",
                          {"/system": HERE, "/out": out})
                result = subprocess.CompletedProcess([], 0, "", "")
            except subprocess.CalledProcessError as exc:
                result = subprocess.CompletedProcess([], exc.returncode, "", f"in the {suite} chroot: {exc}")
        if result.returncode != 0:
            print(f"  the test's kernel modules could not be built for {release}:\n{result.stderr[-2000:]}",
                  flush=True)
            return []
    return [out / name for name in MODULES]


def host_suite() -> str:
    """The host's Debian suite (VERSION_CODENAME), or "" on another system."""
    try:
        found = re.search(r"^VERSION_CODENAME=(\w+)", Path("/etc/os-release").read_text(), re.M)
    except OSError:
        return ""
    return found.group(1) if found else ""


GPIO_BUTTONS = {"left": 17, "right": 27, "ok": 22, "back": 4}  # hardware/pinmap.toml's seat 1
# gpiozero's lgpio factory asks the board's revision first: a Pi 4B's, for a board with none.
FAKE_CPUINFO = "processor\t: 0\nHardware\t: BCM2835\nRevision\t: c03114\nModel\t\t: golfbox system test\n"


def pull(vm: VM, line: int, level: str) -> None:
    vm.sh(f"echo pull-{level} > $(ls -d /sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio{line})/pull")


def press_line(vm: VM, line: int, bounces: int = 4) -> None:
    """A press as a real contact makes it: a few bounces, then low until released."""
    script = " ; ".join(["echo pull-down > $P ; echo pull-up > $P"] * bounces + ["echo pull-down > $P",
                        "sleep 0.15", "echo pull-up > $P"])
    vm.sh(f"P=$(ls -d /sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio{line})/pull ; {script}")


def thread_switches(vm: VM, pid: str) -> dict[int, int]:
    """Each thread's voluntary context switches (its wakeups from a wait), by thread id."""
    out = vm.sh(f"cd /proc/{pid}/task && grep -H ^voluntary_ctxt_switches */status").out
    return {int(line.split("/")[0]): int(line.split()[-1]) for line in out.splitlines()}


SYSCALLS = {0: "read", 7: "poll", 23: "select", 61: "wait4", 202: "futex", 230: "clock_nanosleep",
            232: "epoll_wait", 270: "pselect6", 271: "ppoll", 281: "epoll_pwait"}  # x86-64's numbers


def waiting_in(vm: VM, pid: str, tid: int) -> str:
    """The system call a thread waits in (/proc/PID/task/TID/syscall's first field).
    A thread caught running reads "running" there (lgpio's alert thread, awake 1,500
    times a second, was once on trixie): the first of five looks that finds it waiting."""
    looks = vm.sh(f"for i in 1 2 3 4 5; do head -c 4 /proc/{pid}/task/{tid}/syscall; echo; done",
                  check=False).out.split()
    number = [look for look in looks if look.isdigit()][:1] or looks[:1]
    return SYSCALLS.get(int(number[0]), f"syscall {number[0]}") if number and number[0].isdigit() \
        else "?"


def check_gpio_sim(vm: VM, report: Report) -> None:
    if vm.sh("test -e /root/extra/gpio-sim-oot.ko", check=False).rc != 0:
        raise CheckFailed("no gpio-sim module for the VM's kernel (see the build error above)")
    vm.sh("modprobe configfs; insmod /root/extra/gpio-sim-oot.ko && mountpoint -q /sys/kernel/config "
          "|| mount -t configfs none /sys/kernel/config")
    chip = "/sys/kernel/config/gpio-sim/golfbox"
    vm.sh(f"mkdir {chip} {chip}/bank0 && echo 28 > {chip}/bank0/num_lines && echo 1 > {chip}/live "
          "&& udevadm settle")
    dev = "/dev/" + vm.sh(f"cat {chip}/bank0/chip_name").out.strip()
    owner = vm.sh(f"stat -c %G {dev}").out.strip()
    expect(owner == "gpio", f"{dev} belongs to group {owner}, not gpio")
    for line in GPIO_BUTTONS.values():
        pull(vm, line, "up")  # released (the buttons pull to ground)
    vm.write_file("/etc/golfbox-test-cpuinfo", FAKE_CPUINFO)
    buttons = ", ".join(f"{name} = {line}" for name, line in GPIO_BUTTONS.items())
    seats = (f'[[seats]]\nbackend = "gpio"\nbuttons = {{ {buttons} }}\ndisplay = {{ driver = "sim" }}\n'
             + '[[seats]]\nbackend = "sim"\n' * 3)
    config = table_config({"variant": "9-card", "rounds": 9, "bot_delay": 0.1, "seed": 5}, seats=seats,
                          extra='\n[gpio]\npin_factory = "lgpio"\nbounce_time = 0.05\n', people=1)
    state = fresh_table(vm, config, "[Service]\nBindReadOnlyPaths=/etc/golfbox-test-cpuinfo:/proc/cpuinfo\n")
    pid = state["MainPID"]
    holders = vm.sh(f"ls -l /proc/{pid}/fd | grep -c {dev}", check=False).out.strip()
    expect(int(holders or 0) >= 1, f"the service has not opened {dev} (lgpio's chip)")
    started = time.monotonic()
    # 9-card: seat 1's first turn turns up three cards, then draws and places one: five
    # actions. A bouncing ● counted twice would show as two actions from one press (draw,
    # then place at once); on a card just turned up a second ● only moves the cursor.
    deltas, deadline = [], time.monotonic() + 180
    while sum(deltas) < 5 and time.monotonic() < deadline:
        before = seat_actions(vm)
        press_line(vm, GPIO_BUTTONS["ok"])
        time.sleep(1.0)  # the service answers within milliseconds; the VM is slow
        deltas.append(seat_actions(vm) - before)
    expect(sum(deltas) >= 5, f"{len(deltas)} bouncing presses on line {GPIO_BUTTONS['ok']} of {dev} "
           f"played {sum(deltas)} actions for seat 1 (5 expected)")
    expect(max(deltas) == 1, f"one bouncing press played {max(deltas)} actions: bounces counted as presses "
           f"(actions per press: {deltas})")
    idle_seconds = 20
    time.sleep(5)  # the bots' turns: then the table waits for seat 1
    before = thread_switches(vm, pid)
    time.sleep(idle_seconds)
    after = thread_switches(vm, pid)
    woke = {tid: (after[tid] - before.get(tid, 0)) / idle_seconds for tid in after}
    waits = {tid: waiting_in(vm, pid, tid) for tid in woke}
    # lgpio's own two threads wake however idle the table is (its sources): the alert
    # thread's ppoll times out every 0.5 ms while a line has alerts (lgPthAlerts.c), and
    # the tx thread sleeps 20 ms at a time from the chip's opening (lgPthTx.c).
    busy = sorted(waits[tid] for tid in woke if woke[tid] > 1)
    expect(busy in ([], ["ppoll"], ["clock_nanosleep", "ppoll"]),
           f"threads of the idle service other than lgpio's wake more than once a second: "
           f"{[(waits[tid], woke[tid]) for tid in woke if woke[tid] > 1]}")
    report.figure(f"an idle table on lgpio and a real GPIO chip (4 buttons), wakeups a second over "
                  f"{idle_seconds} s by thread: " + ", ".join(
                      f"{woke[tid]:.1f} in {waits[tid]}" for tid in sorted(woke, key=woke.get, reverse=True)))
    report.ok("buttons through a real kernel GPIO chip: gpio-sim lines pulled by the test reach the game "
              "through gpiozero's lgpio factory (LG_WD, the unit's sandbox), one action per bouncing press",
              f"{dev}, {len(deltas)} presses with 4 bounces each → actions {deltas}, "
              f"{time.monotonic() - started:.1f} s")


def check_update(vm: VM, report: Report) -> None:
    """install.sh again, as an update. With a config the new version refuses, it must not
    replace the program the table runs (the next restart would start nothing); with the
    config mended, it installs and restarts the table."""
    pid = wait_active(vm, 30)["MainPID"]
    config = vm.sh("cat /etc/golfbox/config.toml").out
    expect('variant = "9-card"' in config, "the installed config has no 9-card variant to spoil")
    vm.write_file("/etc/golfbox/config.toml", config.replace('variant = "9-card"', 'variant = "six-card"'))
    install = f"cd {SRC} && PIP_NO_INDEX=1 PIP_FIND_LINKS={WHEELS} systemd/install.sh"
    started = time.monotonic()
    refused = vm.sh(install, timeout=600, check=False)
    expect(refused.rc == 1, f"install.sh with a refused config exited {refused.rc}:\n{refused.out[-2000:]}")
    expect("was not replaced" in refused.err, f"install.sh did not say the program was kept:\n{refused.err[-2000:]}")
    expect("/opt/golfbox/venv/bin/pip" not in refused.out, "install.sh ran the table's pip all the same")
    expect(vm.sh("ls /tmp | grep -c golfbox-install", check=False).out.strip() == "0",
           "install.sh left its trial venv in /tmp")
    state = unit_state(vm)
    expect(state.get("ActiveState") == "active" and state.get("MainPID") == pid,
           f"the table did not run on through the refused update: {state}")
    refused_s = time.monotonic() - started
    vm.write_file("/etc/golfbox/config.toml", config)
    started = time.monotonic()
    updated = vm.sh(install, timeout=600, check=False)
    expect(updated.rc == 0, f"install.sh as an update exited {updated.rc}:\n{updated.err[-2000:]}")
    wait_active(vm, 90, not_pid=pid)
    report.ok("an update the kept config refuses replaces nothing; the table runs on",
              f"refused in {refused_s:.0f} s, updated and restarted in {time.monotonic() - started:.0f} s")


LAST_GOOD = "/var/lib/golfbox/config.last-good.toml"  # a link to last-good.<n>/config.toml


def kept_pair(vm: VM) -> tuple[str, str]:
    """The kept config (the file LAST_GOOD links to) and the pin map beside it."""
    config = vm.sh(f"readlink -f {LAST_GOOD}").out.strip()
    return config, config.rsplit("/", 1)[0] + "/pinmap.toml"


def check_hand_edit(vm: VM, report: Report) -> None:
    """A hand edit the config refuses (a typo in a key), then a restart as at a reboot:
    the table runs on the config it last started with and says why (STATUS=, the log
    at error level) instead of exiting 2 to blank displays; mended, the fault goes."""
    pid = wait_active(vm, 30)["MainPID"]
    # Four restarts within seconds follow, after the earlier checks' starts: on trixie,
    # faster, the start of the worker check 114 s before made the fourth the sixth in
    # 120 s (StartLimitBurst=5: "start ... attempted too often"). A person edits in
    # minutes: count afresh, as check_pin_map_edit does.
    vm.sh("systemctl reset-failed golfbox.service")
    config = vm.sh("cat /etc/golfbox/config.toml").out
    kept, _ = kept_pair(vm)
    folder = kept.rsplit("/", 1)[0]
    expect(vm.sh(f"test -L {LAST_GOOD} && stat -c '%a %U' {kept} {folder}", check=False).out.split()
           == ["600", "golfbox", "700", "golfbox"],
           f"{LAST_GOOD} is not a link to the service's own {kept} (0600, in a folder 0700) after a start")
    expect(vm.sh(f"cat {LAST_GOOD}").out.rstrip() == config.rstrip(),
           f"{LAST_GOOD} is not the config the table started with")
    expect("bot_delay = " in config, "the installed config has no bot_delay to misspell")
    # As install.sh leaves it, edited in place as an editor run with sudoedit saves it.
    vm.sh("chown root:golfbox /etc/golfbox/config.toml && chmod 0640 /etc/golfbox/config.toml")

    def edit(text: str) -> None:
        vm.sh(f"cat > /etc/golfbox/config.toml <<'GOLFBOX_EOF' && sync\n{text.rstrip()}\nGOLFBOX_EOF")

    edit(config.replace("bot_delay = ", "bot_dleay = "))
    started = time.monotonic()
    vm.sh("systemctl restart golfbox.service")
    state = wait_active(vm, 60, not_pid=pid)
    refused_s = time.monotonic() - started
    expect("config refused: /etc/golfbox/config.toml: game.bot_dleay: unknown key" in state["StatusText"]
           and f"running on {kept}" in state["StatusText"],
           f"systemctl status does not say the config was refused: {state['StatusText']!r}")
    # (The log's level is in the line: journald takes stderr at its default priority.)
    errors = vm.sh("journalctl -u golfbox.service -o cat --no-pager | grep -c "
                   "'ERROR golfbox.commands.run: config refused: /etc/golfbox/config.toml: game.bot_dleay'",
                   check=False).out
    expect(errors.strip() not in ("", "0"), "the refusal was not logged at error level")
    expect(vm.sh(f"cat {LAST_GOOD}").out.rstrip() == config.rstrip(),
           "the refused edit replaced the last good copy")
    pid = state["MainPID"]
    edit(config)
    vm.sh("systemctl restart golfbox.service")
    state = wait_active(vm, 60, not_pid=pid)
    expect("refused" not in state["StatusText"], f"the fault stayed after a good start: {state['StatusText']!r}")
    # Moved aside to be edited, then a reboot: not a headless simulated table.
    vm.sh("mv /etc/golfbox/config.toml /etc/golfbox/config.toml.edit && systemctl restart golfbox.service")
    gone = wait_active(vm, 60, not_pid=state["MainPID"])
    vm.sh("mv /etc/golfbox/config.toml.edit /etc/golfbox/config.toml")
    expect("config refused: /etc/golfbox/config.toml: no such file" in gone["StatusText"]
           and f"running on {kept_pair(vm)[0]}" in gone["StatusText"],
           f"systemctl status does not say the config is gone: {gone['StatusText']!r}")
    vm.sh("systemctl restart golfbox.service")
    state = wait_active(vm, 60, not_pid=gone["MainPID"])
    expect("refused" not in state["StatusText"], f"the fault stayed after a good start: {state['StatusText']!r}")
    report.ok("a hand-edited config refused at a restart, or moved aside: the table runs on the last "
              "good one and says why; mended, the fault goes",
              f"active again {refused_s:.0f} s after the restart, status {state['StatusText']!r}")
    check_pin_map_edit(vm, report, config, state["MainPID"])


PINMAP = "/etc/golfbox/pinmap.toml"


def check_pin_map_edit(vm: VM, report: Report, config: str, pid: str) -> None:
    """The pin map a config names, broken by a hand edit: the copy read it beside the
    live config, refused it too, and the service exited 2 (blank displays). The pin map
    that started is kept with the copy now, and the table runs on the pair. (The sim
    seats take no pins from it; a pin map's own keys are checked all the same.)"""
    expect("pinmap" not in config, "the installed config names a pin map already")
    # A person edits in minutes; this check restarts within seconds of check_hand_edit's
    # restarts, and the unit allows 5 starts in 120 s (StartLimitBurst): count afresh.
    vm.sh("systemctl reset-failed golfbox.service")
    pinmap = "[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n"
    vm.write_file(PINMAP, pinmap, mode="0640")
    vm.sh(f"chown root:golfbox {PINMAP}")
    vm.write_file("/etc/golfbox/config.toml", 'pinmap = "pinmap.toml"\n' + config, mode="0640")
    vm.sh("chown root:golfbox /etc/golfbox/config.toml && systemctl restart golfbox.service")
    state = wait_active(vm, 60, not_pid=pid)
    expect("refused" not in state["StatusText"], f"the pin map was refused: {state['StatusText']!r}")
    kept, kept_pinmap = kept_pair(vm)  # kept beside the config, in the folder LAST_GOOD links into
    expect(vm.sh(f"stat -c '%a %U' {kept_pinmap}", check=False).out.strip() == "600 golfbox",
           f"{kept_pinmap} is not the service's own, 0600, after a start with a pin map")
    expect(vm.sh(f"cat {kept_pinmap}").out.rstrip() == pinmap.rstrip(),
           f"{kept_pinmap} is not the pin map the table started with")
    vm.write_file(PINMAP, pinmap.replace("buttons =", "butons =", 1), mode="0640")
    vm.sh(f"chown root:golfbox {PINMAP} && systemctl restart golfbox.service")
    broken = wait_active(vm, 60, not_pid=state["MainPID"])
    expect("config refused: /etc/golfbox/config.toml: seats[0].butons (in pinmap.toml): unknown key"
           in broken["StatusText"] and f"{kept} with {kept_pinmap}" in broken["StatusText"],
           f"systemctl status does not say the pin map was refused: {broken['StatusText']!r}")
    expect(vm.sh(f"cat {kept_pinmap}").out.rstrip() == pinmap.rstrip(),
           "the refused pin map replaced the kept one")
    # As before: no pin map, and none kept.
    vm.sh(f"rm {PINMAP}")
    vm.write_file("/etc/golfbox/config.toml", config, mode="0640")
    vm.sh("chown root:golfbox /etc/golfbox/config.toml && systemctl restart golfbox.service")
    state = wait_active(vm, 60, not_pid=broken["MainPID"])
    expect("refused" not in state["StatusText"], f"the fault stayed after a good start: {state['StatusText']!r}")
    kept, kept_pinmap = kept_pair(vm)
    left = vm.sh("cd /var/lib/golfbox && ls -d last-good.* pinmap.last-good.toml "
                 f"{kept_pinmap}", check=False).out.split()
    expect(left == [kept.split("/")[-2]],
           f"a pin map or another pair folder left after a start without a pin map: {left}")
    report.ok("a pin map broken by a hand edit: the table runs on the config and pin map kept "
              "when it last started, and says so", f"status {broken['StatusText']!r}")


def check_no_hang(vm: VM, report: Report, deliberate: int) -> None:
    """No watchdog kill over the whole run but the ``deliberate`` ones (the SIGSTOP): a
    table that hangs is restarted and resumes exactly, so no other check would see it.
    (The panel check saw one in 2 whole runs of 6: its loop waited on its queue past
    its timers. The lines before each kill say what the table was doing.)"""
    lines = vm.sh("journalctl -u golfbox.service -o short-monotonic --no-pager", check=False,
                  timeout=120).out.splitlines()
    kills = [i for i, line in enumerate(lines) if "Watchdog timeout" in line]
    boots = len(vm.sh("journalctl --list-boots --no-pager -q", check=False).out.splitlines())
    starts = sum("Started golfbox.service" in line for line in lines)
    context = "\n\n".join("\n".join(line for line in lines[max(0, i - 25):i + 2] if "still failing" not in line)
                          for i in kills)
    expect(len(kills) == deliberate, f"{len(kills)} watchdog kills of golfbox.service over the whole run, "
           f"{deliberate} of them the check's SIGSTOP; before each:\n{context}")
    report.ok("no hang over the whole run: " + ("no watchdog kill but the SIGSTOP's" if deliberate
                                                 else "no watchdog kill"),
              f"{starts} starts over {boots} boots")


FAILING_START = "/etc/systemd/system/golfbox.service.d/fail.conf"


def check_uninstall(vm: VM, report: Report) -> None:
    # Uninstalled after a start that failed (exit 2: not restarted): that failure stayed
    # in `systemctl --failed`, the unit file gone, until uninstall.sh ran reset-failed.
    vm.write_file(FAILING_START, "[Service]\nExecStart=\nExecStart=/bin/sh -c 'exit 2'\n")
    vm.sh("systemctl daemon-reload && systemctl reset-failed golfbox.service; systemctl restart golfbox.service",
          check=False)
    expect(vm.sh("systemctl is-failed golfbox.service", check=False).out.strip() == "failed",
           "golfbox.service did not fail with ExecStart exiting 2")
    vm.sh(f"rm {FAILING_START} && rmdir --ignore-fail-on-non-empty {FAILING_START.rsplit('/', 1)[0]}")
    vm.sh(f"cd {SRC} && systemd/uninstall.sh")
    expect("golfbox.service" not in vm.sh("systemctl list-units --failed --all --plain --no-legend").out,
           "golfbox.service still in `systemctl --failed` after uninstall.sh (a start had failed)")
    expect(vm.sh("systemctl is-active golfbox.service", check=False).out.strip() in ("inactive", "unknown"),
           "golfbox.service still active after uninstall.sh")
    expect(vm.sh("systemctl show -p LoadState golfbox.service").out.strip() == "LoadState=not-found",
           "systemd still knows golfbox.service after uninstall.sh")
    for path in ("/etc/systemd/system/golfbox.service", "/opt/golfbox",
                 "/etc/udev/rules.d/60-golfbox-i2c-mux.rules"):
        expect(vm.sh(f"test -e {path}", check=False).rc != 0, f"uninstall.sh left {path}")
    for path in (JOURNAL, "/etc/golfbox/config.toml"):
        expect(vm.sh(f"test -s {path}", check=False).rc == 0, f"uninstall.sh removed {path} (it must keep it)")
    report.ok("uninstall.sh after a failed start: service, unit and venv gone, nothing in "
              "`systemctl --failed`; journal and config kept")
    vm.sh(f"cd {SRC} && systemd/uninstall.sh --purge")
    for path in ("/var/lib/golfbox", "/etc/golfbox"):
        expect(vm.sh(f"test -e {path}", check=False).rc != 0, f"uninstall.sh --purge left {path}")
    expect(vm.sh("getent passwd golfbox", check=False).rc != 0, "uninstall.sh --purge left the user golfbox")
    report.ok("uninstall.sh --purge: journal, config and user gone too")


# -- main ------------------------------------------------------------------------------


def wanted_modules(only: str) -> bool:
    """Whether a check that needs the test's kernel modules will run."""
    return not only or bool({"gpio", "mux"} & set(only.split(",")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the work directory (console log, journals)")
    parser.add_argument("--cuts", type=int, default=10, help="power cuts during the match (default 10)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the moments of the cuts")
    parser.add_argument("--keep-going", action="store_true",
                        help="after a failed check go on with the next (to see several broken things in one run)")
    parser.add_argument("--only", default="", help="comma-separated checks to run (install is always run)")
    parser.add_argument("--suite", choices=sorted(SUITES), default="bookworm",
                        help="the VM's Debian: bookworm (default) or trixie (Raspberry Pi OS Trixie's)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("system test: needs root (it builds an image and runs qemu with /dev/kvm)", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"system test on Debian {args.suite} (cut moments seed {seed}; rerun with --seed {seed})", flush=True)
    report = Report()
    started = time.monotonic()
    CACHE.mkdir(parents=True, exist_ok=True)
    image = image_dir(args.suite)
    wheels = wheels_dir(args.suite)
    workdir = Path(tempfile.mkdtemp(prefix="golfbox-system-test."))
    vm = None
    failed = None
    failures: list[Exception] = []  # with --keep-going
    try:
        modules = kernel_modules(image, args.suite) if wanted_modules(args.only) else []
        make_payload(workdir / "payload.tar", wheels, modules)
        vm = VM(image, workdir, workdir / "payload.tar", extra_args=(
            "-chardev", f"socket,id=seatnode,path={workdir / 'node.sock'},server=on,wait=off"))
        vm.start()
        vm.wait_boot(BOOT_TIMEOUT)
        report.figure(f"power-on to the agent answering (first boot): {time.monotonic() - vm.started_at:.1f} s")
        only = set(filter(None, args.only.split(",")))
        wanted = lambda name: not only or name in only  # noqa: E731
        steps = [("install", lambda: check_install(vm, report)), ("running", lambda: check_running(vm, report)),
                 ("watchdog", lambda: check_watchdog(vm, report)),
                 ("power", lambda: check_power_cuts(vm, report, workdir, args.cuts, random.Random(seed))),
                 ("node", lambda: check_seat_node(vm, report, workdir)),
                 ("panel", lambda: check_failing_panel(vm, report)),
                 ("mux", lambda: check_i2c_mux(vm, report)),
                 ("gpio", lambda: check_gpio_sim(vm, report)),
                 ("worker", lambda: check_bot_worker(vm, report)),
                 ("update", lambda: check_update(vm, report)),
                 ("handedit", lambda: check_hand_edit(vm, report)),
                 ("hang", lambda: check_no_hang(vm, report, int(wanted("watchdog")))),
                 ("uninstall", lambda: check_uninstall(vm, report))]
        for name, step in steps:
            if name not in ("install", "running", "hang", "uninstall") and not wanted(name):
                continue
            try:
                step()
            except (CheckFailed, VMError) as exc:  # VMError: a command of the check failed in the VM
                if not args.keep_going or name == "install":
                    raise
                failures.append(exc)
                print(f"  FAIL  {exc}", flush=True)
    except Exception as exc:  # noqa: BLE001 - every failure is reported the same way
        failed = exc
        kind = "" if isinstance(exc, (CheckFailed, VMError)) else f"{type(exc).__name__}: "
        print(f"  FAIL  {kind}{exc}", flush=True)
        if not isinstance(exc, (CheckFailed, VMError, subprocess.CalledProcessError)):
            import traceback
            traceback.print_exc()
        if vm is not None:
            print("---- the VM's console (end) ----\n" + vm.console_tail(), flush=True)
            print("---- qemu ----\n" + vm.qemu_log(), flush=True)
    finally:
        if vm is not None:
            vm.close()
        if args.keep or failed or failures:
            print(f"work directory kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"system test took {time.monotonic() - started:.0f} s")
    for line in report.figures:
        print(f"  {line}")
    failed_count = len(failures) + (1 if failed else 0)
    print(f"system test: {report.passed} passed, {failed_count} failed")
    return 1 if failed_count else 0


if __name__ == "__main__":
    sys.exit(main())
