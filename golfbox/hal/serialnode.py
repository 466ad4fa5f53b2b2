"""Seat nodes on USB serial: tables of 5–8 seats, one RP2040 board per seat.

A seat node has the seat's four buttons and its OLED; this module gives the
table the same ButtonPad and Display interfaces as GPIO seats. The host
renders frames and sends the changed columns of the changed 8-row pages; the
node sends button events. The link protocol lives in golfbox/hal/protocol.py,
the same file the firmware runs.

Threads: one scanner finds and opens ports; one reader per open port talks
to its node. They only move bytes and post ButtonEvents/LinkEvents into the
sink; they never run game logic. pyserial is imported when the hub starts,
so importing this module needs no hardware package.
"""

from __future__ import annotations

import dataclasses
import glob
import logging
import os
import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from PIL import Image

from golfbox.configfile import ConfigError, Section, one_line
from golfbox.hal import protocol
from golfbox.hal.base import (DEFAULT_HOLD_TIME, LET_GO, STUCK, STUCK_AFTER, Button, ButtonEvent,
                              DisplayError, EventKind, EventSink, LinkEvent)
from golfbox.hal.pages import pack_pages
from golfbox.lockholder import flock_holder

log = logging.getLogger(__name__)

MICROPYTHON_RP2040 = (0x2E8A, 0x0005)  # MicroPython's USB ids on RP2040 boards
PANEL_SIZE = (protocol.PANEL_WIDTH, protocol.PANEL_PAGES * 8)
FRAME_BYTES = protocol.PANEL_WIDTH * protocol.PANEL_PAGES
SEGMENT_HEADER = 3  # page, x0, count
MERGE_GAP = 4  # unchanged bytes cheaper to resend than a new segment header
# A node of firmware before 1.3.0 (protocol 2 and older: no HOLD) sends HELD after a
# press this long, its own board.HOLD_MS, whatever gpio.hold_time says.
OLD_NODE_HOLD_TIME = 0.7
FRAME_TIMES_KEPT = 1000  # LinkStats keeps this many of the newest frame delivery times
STUCK_RESENDS = 200  # a 12-byte block on a line losing 10 % of bytes needs ~11 tries
# A second's corrupt blocks (or bad messages, or dropped presses) logged one by one; the
# rest are counted: a noisy cable or a broken node must not flood the log.
CORRUPT_BLOCKS_LOGGED = 10
WARNINGS_SPAN_MAX = 60  # seconds: noise that goes on is summed up once a minute at most
# Presses a node may send: fingers on four buttons make far fewer than PRESS_RATE a
# second, and a line that stalled delivers at most 48 at once (the firmware queues 32,
# the link window holds 16). A node sending more is broken: the rest are dropped, or its
# flood (20 000 a second) would queue faster than the table plays them, every other
# seat's press waiting behind it.
PRESS_RATE = 30
PRESS_BURST = 64
# A node sends 4 STATEs a second. Each may flip its panel's fault (a LinkEvent for the
# table) and is kept 10 s for its clock: a node sending more is broken, the rest dropped.
STATE_RATE = 10
# A reader sees the hub's stop within a read (ping_interval at most) and a write (its
# write_timeout, 1 s): one not stopped by this long is stuck in the kernel (closing the
# tty of a hung USB device waits up to 30 s for output it never takes), and the table's
# stop must not wait for it past systemd's TimeoutStopSec.
CLOSE_WAIT = 3.0


SerialNodeConfigError = ConfigError  # a [seat_nodes] setting that cannot work; names the key


@dataclass(frozen=True)
class SerialNodeConfig:
    """Which nodes belong to which seats, and where to look for them.

    ``seats`` maps a seat (0-based, as in ButtonEvent) to a node's unique id
    in hex (the node shows it on its waiting screen; it is also the USB serial
    number MicroPython reports).
    """

    seats: Mapping[int, str]
    usb_ids: tuple[tuple[int, int], ...] = (MICROPYTHON_RP2040,)
    ports: tuple[str, ...] = ()  # extra device paths or glob patterns, e.g. /dev/serial/by-id/*
    scan_interval: float = 1.0
    handshake_timeout: float = 3.0
    silence_timeout: float = 3.0  # the node reports 4 times a second
    ping_interval: float = 0.25  # the node shows "waiting" after 3 s without the host
    # A seat whose node has not come this long after start is reported gone, as if it
    # had been unplugged (after a restart, a node that is still away sends no unplug).
    missing_after: float = 10.0
    # A board just plugged in is still starting MicroPython, and until its firmware has
    # run kbd_intr(-1) a 0x03 in a SYNC token or CRC is Ctrl-C: say nothing to a new port
    # until it has been quiet this long (or already speaks the protocol: a running node).
    quiet_before_sync: float = 1.5
    # Presses taken from one node a second (PRESS_RATE); None: all of them, for
    # bench/serial_link.py, which measures what the link carries.
    press_rate: float | None = PRESS_RATE
    # A press this long also sends HELD: gpio.hold_time, told to every node (HOLD), so a
    # long press is the same on every seat.
    hold_time: float = DEFAULT_HOLD_TIME
    # A button its node's STATEs say is down this long is stuck (or something is on it).
    stuck_after: float = STUCK_AFTER

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], where: str = "seat_nodes") -> "SerialNodeConfig":
        return cls.from_section(Section(dict(table), where))

    @classmethod
    def from_section(cls, section: Section) -> "SerialNodeConfig":
        """Build from the config's table, with ``seats`` added by seat number as the players
        see it (1-based): the config gives each node in its own [[seats]] table (backend =
        "serial", node = "…") and refuses [seat_nodes.seats]; build_hardware adds them::

            [seat_nodes]
            usb_ids = ["2e8a:0005"]
            ports = ["/dev/serial/by-id/usb-MicroPython*"]
            # + seats = { 5 = "e6614103e7452d2f" }, from the fifth [[seats]] table
        """
        section.check_known(("seats", "usb_ids", "ports"))
        seats: dict[int, str] = {}
        by_seat = section.section("seats", {})
        for key, node_id in by_seat.raw.items():
            name = by_seat.key(key)
            try:
                seat_number = int(key)
            except ValueError:
                raise ConfigError(name, "the key must be a seat number such as 5") from None
            if not 1 <= seat_number <= 254:
                raise ConfigError(name, "seat numbers start at 1")
            if not isinstance(node_id, str) or not _is_hex(node_id):
                raise ConfigError(name, "expected the node id in hex, like \"e6614103e7452d2f\"")
            if node_id.lower() in seats.values():
                raise ConfigError(name, f"node {node_id} is already given to another seat")
            seats[seat_number - 1] = node_id.lower()
        usb_ids = []
        for index, text in enumerate(section.getlist("usb_ids", ["2e8a:0005"], example='["2e8a:0005"]')):
            vid, _, pid = text.partition(":")
            if not (_is_hex(vid) and _is_hex(pid)) or len(vid) > 4 or len(pid) > 4:
                raise ConfigError(f"{section.key('usb_ids')}[{index}]",
                                  f"expected \"vid:pid\" in hex, "
                                  f"got {text!r}")
            usb_ids.append((int(vid, 16), int(pid, 16)))
        ports = section.getlist("ports", [], example='["/dev/ttyACM*"] (device paths or glob patterns)')
        for index, pattern in enumerate(ports):
            if not pattern.strip():
                raise ConfigError(f"{section.key('ports')}[{index}]", "an empty path names no port")
        return cls(seats=seats, usb_ids=tuple(usb_ids), ports=tuple(ports))


def _is_hex(text: str) -> bool:
    """Hex digits only: int(text, 16) also takes '-1', '+5', '0x2e', '1_0' and spaces."""
    return len(text) > 0 and all(c in "0123456789abcdefABCDEF" for c in text)


# -- frames -------------------------------------------------------------------


def image_to_pages(image: Image.Image) -> bytes:
    """A 128×64 image as SSD1306 display memory: 8 pages of 128 columns, bit 0 = top row."""
    if image.size != PANEL_SIZE:
        raise ValueError(f"a seat node shows {PANEL_SIZE[0]}×{PANEL_SIZE[1]} images, not {image.size[0]}×{image.size[1]}")
    return b"".join(pack_pages(image))


def changed_segments(old: bytes | None, new: bytes) -> list[tuple[int, int, bytes]]:
    """The runs of ``new`` that differ from ``old`` as (page, x0, bytes); everything if old is None."""
    width = protocol.PANEL_WIDTH
    segments = []
    for page in range(protocol.PANEL_PAGES):
        row = new[page * width : (page + 1) * width]
        if old is None:
            segments.append((page, 0, row))
            continue
        before = old[page * width : (page + 1) * width]
        start = end = None  # current run [start, end)
        for x in range(width):
            if row[x] != before[x]:
                if start is not None and x - end > MERGE_GAP:
                    segments.append((page, start, row[start:end]))
                    start = None
                if start is None:
                    start = x
                end = x + 1
        if start is not None:
            segments.append((page, start, row[start:end]))
    return segments


def pack_frame_payload(segments: list[tuple[int, int, bytes]], budget: int) -> bytes:
    """Take segments off the front of ``segments`` (splitting one if needed) into one FRAME payload.

    The last payload of a frame, the one that empties ``segments``, carries FRAME_SHOW.
    """
    payload = bytearray(b"\x00")
    while segments:
        room = budget - len(payload) - SEGMENT_HEADER
        if room <= 0:
            break
        page, x0, data = segments[0]
        if len(data) <= room:
            segments.pop(0)
            payload += bytes((page, x0, len(data))) + data
        else:
            payload += bytes((page, x0, room)) + data[:room]
            segments[0] = (page, x0 + room, data[room:])
            break
    if not segments:
        payload[0] = protocol.FRAME_SHOW
    return bytes(payload)


# -- the node's clock ------------------------------------------------------------


class NodeClock:
    """Places a node's button ticks on the table's clock.

    The node's ticks (ms, low 16 bits) run on its own crystal from its own start.
    Each STATE carries the tick it was sent at; read at ``r`` on the table's clock,
    it says the tick's moment was at most ``r``: r − tick is the offset between
    the clocks plus that frame's way over USB and through our reader. The smallest
    over a recent window is the tightest bound, from the quickest frame (the idea
    of Klipper's MCU clock estimate). A press is placed at the end of its tick's
    whole ms (a tick is truncated: the press may be up to 1 ms after it), with the
    crystals' drift (≤ DRIFT) over its distance from the STATE taken the way that
    places it later: never earlier than the press, and later only by that frame's
    delay (a few ms) and up to 4 ms more (2 ms of truncated ticks, the drift both
    ways over the window; 0.2 ms more a second its BUTTON came late), up to about
    55 s late: 16-bit ticks wrap every 65.5 s (tests/test_serialnode.py simulates
    it). A node that restarts (its ticks from 0 again) comes back on a new
    connection, with a new NodeClock: USB goes away while it boots.
    """

    WINDOW = 10.0  # s of STATEs (4 a second) kept
    HALF = 0x8000  # ticks are compared within ±32.8 s
    # A press placed (by the newest STATE) this far after its own read wrapped: it is more
    # than 32.8 s old. A recent one is placed after its read by no more than that STATE's
    # delay, or the time since it was sent, should the line have lost the ones after.
    AFTER_READ = 10.0
    DRIFT = 100e-6  # the node's crystal and the table's clock differ by at most this
    KEPT = 100  # STATEs: the WINDOW's at 10 a second (a node sends 4)

    def __init__(self) -> None:
        # (read time, tick), oldest first; the newest KEPT, should a node flood STATEs
        self._samples: deque[tuple[float, int]] = deque(maxlen=self.KEPT)

    def sample(self, tick: int, read_at: float) -> None:
        """A STATE sent at node ``tick`` was read at ``read_at``."""
        self._samples.append((read_at, tick))
        while self._samples and self._samples[0][0] < read_at - self.WINDOW:
            self._samples.popleft()

    def stamp(self, tick: int | None, read_at: float) -> float:
        """When a BUTTON of ``tick`` (None: a node that sends none) read at ``read_at``
        happened, on the table's clock: never after its read."""
        if tick is None:
            return read_at
        recent = [(r, t) for r, t in self._samples if r >= read_at - self.WINDOW]
        if not recent:
            return read_at  # no STATE came since: too old to compare a 16-bit tick with
        # The press is unwrapped once, by the newest STATE (the one its BUTTON came right
        # after): a STATE read by a reader stalled 10 s and more took a recent press for
        # one 65.5 s older, by its own read time, and placed it a wrap early.
        newest_read, newest_tick = recent[-1]
        # ms from the newest STATE's tick to the end of the press's, signed
        after = (tick - newest_tick + self.HALF) % 0x10000 - self.HALF + 1
        if newest_read + after / 1000 > read_at + self.AFTER_READ:
            after -= 0x10000  # pressed 32.8 to 55.5 s before its read, not in its future
        # The node sent its STATEs in the order they came, each tick after the one
        # before: each is unwrapped from the next by the (forward) ms between them.
        when, since, later_tick = read_at, 0, newest_tick
        for sample_read, sample_tick in reversed(recent):
            since += (later_tick - sample_tick) % 0x10000
            later_tick = sample_tick
            ms = after + since  # from this STATE's tick to the end of the press's
            when = min(when, sample_read + (ms + abs(ms) * self.DRIFT) / 1000)
        return when


# -- the hub --------------------------------------------------------------------


@dataclass
class _SeatState:
    seat: int
    node_id: str
    wanted: bytes | None = None  # the latest frame show() was given
    wanted_generation: int = 0
    shown_generation: int = 0  # the latest frame the node acknowledged
    contrast: int | None = None
    requested_at: float | None = None  # perf_counter() of the latest show() that changed the frame
    connection: "_NodeConnection | None" = None
    ever_connected: bool = False
    # The node's counter of its last button event that arrived, kept across its connections:
    # presses it counted but dropped with a session (unplugged, or its queue full) show as a gap.
    last_event: int | None = None
    # What its node last said of its OLED, kept across connections too: one mended while
    # the node was unplugged says so at once in its new connection's STATEs.
    panel_failing: bool = False


@dataclass
class LinkStats:
    """Counters of one node connection, for diagnostics and the benchmark."""

    bytes_out: int = 0
    bytes_in: int = 0
    corrupt_blocks: int = 0
    retransmits: int = 0
    node_rx_errors: int = 0
    ping_ms: float | None = None
    # show() to acknowledged, seconds: the newest FRAME_TIMES_KEPT (a table runs all evening).
    frame_times: deque[float] = field(default_factory=lambda: deque(maxlen=FRAME_TIMES_KEPT))


class SerialNodeHub:
    """All seat nodes of a table: a ButtonPad for their seats and a Display per seat."""

    def __init__(self, config: SerialNodeConfig, clock: Callable[[], float] = time.monotonic):
        self.config = config
        self.clock = clock  # the table's: a node's press is placed on it (NodeClock)
        self._lock = threading.Condition()
        self._seats = {seat: _SeatState(seat, node_id) for seat, node_id in config.seats.items()}
        self._connections: dict[str, _NodeConnection] = {}  # by real device path
        self._retry_after: dict[str, float] = {}  # ports that did not answer like a node
        self._duplicates: set[str] = set()  # ports whose node's id another port already serves
        self._refused: set[str] = set()  # ports whose node speaks a protocol we do not
        self._old_hold: set[str] = set()  # nodes said to hold for their own time, by id
        # What a port that is no node (yet) was said to do, by port: said once, not at every probe.
        self._said: dict[str, set[str]] = {}
        self._sink: EventSink | None = None
        self._stop = threading.Event()
        self._scanner: threading.Thread | None = None
        self.stats: dict[int, LinkStats] = {seat: LinkStats() for seat in self._seats}
        # How long after PRESSED each seat's node says HELD, which the table waits for (a
        # ● with hints): until its node has said its protocol it may be an old one, holding
        # for its own 0.7 s, so the longer of that and gpio.hold_time; then its node's own.
        # Written as a node takes its seat, before any press of it is posted; the table
        # reads it (TableSettings.hold_times): one dict item, set whole.
        self.hold_times: dict[int, float] = {
            seat: max(config.hold_time, OLD_NODE_HOLD_TIME) for seat in self._seats}

    # ButtonPad
    def start(self, sink: EventSink) -> None:
        _import_pyserial()
        self._sink = sink
        self._scanner = threading.Thread(target=self._scan_forever, name="seat-node scanner", daemon=True)
        self._scanner.start()

    def close(self) -> None:
        self._stop.set()
        deadline = time.monotonic() + CLOSE_WAIT
        if self._scanner is not None:
            self._scanner.join(CLOSE_WAIT)
            if self._scanner.is_alive():
                log.error("seat nodes: the port scanner did not stop within %g s; left behind",
                          CLOSE_WAIT)
        with self._lock:
            connections = list(self._connections.values())
        for connection in connections:
            connection.thread.join(max(0.0, deadline - time.monotonic()))
            if connection.thread.is_alive():  # a daemon thread: it ends with the process
                log.error("%s: its reader on %s did not stop within %g s (a hung USB device?); "
                          "left behind", connection._label(), connection.path, CLOSE_WAIT)

    def down(self) -> set[tuple[int, Button]]:
        """The buttons its nodes' latest STATEs say are down (check-hardware: stuck or shorted)."""
        with self._lock:
            seated = [c for c in self._connections.values() if c.seat is not None]
        return {(c.seat, Button(name)) for c in seated
                for code, name in enumerate(protocol.BUTTON_CODES) if c.down_bits & 1 << code}

    def display(self, seat: int) -> "SerialNodeDisplay":
        if seat not in self._seats:
            raise KeyError(f"seat {seat + 1} has no seat node in the config")
        return SerialNodeDisplay(self, seat)

    def wait_connected(self, seats: set[int], timeout: float) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: seats <= {s for s, st in self._seats.items() if st.connection}, timeout)

    # scanning
    def _scan_forever(self) -> None:
        missing_at = time.monotonic() + self.config.missing_after
        failed = 0  # scans failed in a row: the first is logged with its traceback
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:  # a scan must never end the scanner
                failed += 1
                if failed == 1:  # not again each second all evening: counted till it works
                    log.exception("seat nodes: scanning for ports failed (tried again every "
                                  "%g s)", self.config.scan_interval)
            else:
                if failed:
                    log.info("seat nodes: scanning for ports works again after %d failed scans",
                             failed)
                failed = 0
            if missing_at is not None and time.monotonic() >= missing_at:
                missing_at = None
                self._report_missing()
            self._stop.wait(self.config.scan_interval)

    def _report_missing(self) -> None:
        with self._lock:
            missing = sorted(s.seat for s in self._seats.values() if not s.ever_connected)
        for seat in missing:
            log.warning("seat %d: no seat node found", seat + 1)
            self._post(LinkEvent(seat, False, f"seat {seat + 1}: no seat node found", buttons=True))

    def candidate_ports(self) -> list[str]:
        """Ports that may hold a seat node: USB ids from the config, then configured paths."""
        from serial.tools import list_ports

        found = [port.device for port in list_ports.comports() if (port.vid, port.pid) in self.config.usb_ids]
        for pattern in self.config.ports:
            # pyserial URLs (loop://, rfc2217://…) are taken as they are
            found.extend([pattern] if "://" in pattern else sorted(glob.glob(pattern)))
        return found

    def scan_once(self) -> None:
        now = time.monotonic()
        for path in self.candidate_ports():
            real = path if "://" in path else os.path.realpath(path)
            with self._lock:
                if real in self._connections or self._retry_after.get(real, 0) > now or self._stop.is_set():
                    continue
                connection = _NodeConnection(self, path, real)
                self._connections[real] = connection
            connection.thread.start()

    # called by connections
    def _claim(self, connection: "_NodeConnection", node_id: str) -> int | None:
        """The seat this node serves, or None (not in the config, or its seat is taken)."""
        with self._lock:
            for state in self._seats.values():
                if state.node_id == node_id:
                    if state.connection is not None:
                        # Closed and tried again later: it takes the seat if the other goes.
                        level = logging.DEBUG if connection.real_path in self._duplicates else logging.ERROR
                        self._duplicates.add(connection.real_path)
                        log.log(level, "seat %d: node %s also answers on %s; ignoring that port while "
                                "the other serves the seat", state.seat + 1, node_id, connection.path)
                        raise _SeatTaken()
                    self._duplicates.discard(connection.real_path)
                    state.connection = connection
                    self.hold_times[state.seat] = connection.held_after()
                    state.ever_connected = True
                    self._lock.notify_all()
                    seat = state.seat
                    break
            else:
                log.warning("seat nodes: node %s on %s is not given to any seat (add a [[seats]] table with backend = \"serial\" and node = \"%s\")", node_id, connection.path, node_id)
                return None
        # Its words in the log, as _release's for a node gone ("seat 5: node unplugged").
        self._post(LinkEvent(seat, True, f"seat {seat + 1}: node back", buttons=True))
        return seat

    def _release(self, connection: "_NodeConnection", reason: str | None, retry: bool = False) -> None:
        with self._lock:
            self._connections.pop(connection.real_path, None)
            if retry:
                self._retry_after[connection.real_path] = time.monotonic() + 3 * self.config.scan_interval
            seat = connection.seat
            if seat is not None and self._seats[seat].connection is connection:
                self._seats[seat].connection = None
            else:
                seat = None
            self._lock.notify_all()
        if seat is not None and reason is not None:
            # The table logs the event (naming whose seat, a few a minute for a cable
            # that comes and goes): a warning here too was two a cut, without bound.
            log.debug("seat %d: %s", seat + 1, reason)
            self._post(LinkEvent(seat, False, reason=f"seat {seat + 1}: {reason}", buttons=True))

    def _post(self, event: ButtonEvent | LinkEvent) -> None:
        if isinstance(event, LinkEvent) and event.at is None:  # when it happened: now
            event = dataclasses.replace(event, at=self.clock())
        if self._sink is not None and not self._stop.is_set():
            self._sink(event)


class SerialNodeDisplay:
    """The OLED of one seat node, as a Display."""

    mode = "1"
    size = PANEL_SIZE

    def __init__(self, hub: SerialNodeHub, seat: int):
        self._hub = hub
        self._state = hub._seats[seat]
        self.seat = seat
        self.name = f"seat {seat + 1} node"

    def show(self, image: Image.Image) -> None:
        """Send ``image`` (non-blocking). Kept and sent on (re)connect; raises DisplayError meanwhile."""
        pages = image_to_pages(image)
        with self._hub._lock:
            state = self._state
            if pages != state.wanted:
                state.wanted = pages
                state.wanted_generation += 1
                state.requested_at = time.perf_counter()
            connection = state.connection
        if connection is None:
            raise DisplayError(f"seat {self.seat + 1}: node not connected (the frame is shown when it is)")
        connection.wake()

    def set_contrast(self, value: int) -> None:
        if not 0 <= value <= 255:
            raise ValueError(f"contrast must be 0..255, got {value}")
        with self._hub._lock:
            self._state.contrast = value
            connection = self._state.connection
        if connection is not None:
            connection.wake()

    def wait_shown(self, timeout: float) -> bool:
        """Wait until the node has acknowledged the latest frame."""
        state = self._state
        with self._hub._lock:
            return self._hub._lock.wait_for(lambda: state.shown_generation >= state.wanted_generation, timeout)

    def close(self) -> None:
        """Nothing to release: the node keeps its last frame until the host is gone, then shows "waiting"."""


class _NodeGone(Exception):
    """The node stopped answering or the port failed; the message says how."""


class _Refused(Exception):
    """The node speaks a protocol the host does not take; the message names it."""


class _SeatTaken(Exception):
    """Another port's node with the same id serves the seat: this port is tried again later."""


class _NodeConnection:
    """One open port and the node behind it, served by its own reader thread."""

    READ_TIMEOUT = 0.01  # also the retransmit timer's resolution

    def __init__(self, hub: SerialNodeHub, path: str, real_path: str):
        self.hub = hub
        self.path = path
        self.real_path = real_path
        self.seat: int | None = None
        self.node_id: str | None = None
        self.firmware = ""  # as its HELLO says, on one line
        self.node_protocol = protocol.PROTOCOL_VERSION  # as its HELLO says
        self.port: Any = None  # open, until the reader takes it to close it (under _port_lock)
        # pyserial's close() and cancel_read() are not safe together: close() shuts the
        # wake-up pipe before it says the port is closed, and a cancel_read() between the
        # two wrote to a closed descriptor or raised TypeError out of the table's show().
        self._port_lock = threading.Lock()
        self.link = protocol.Link(on_error=self._corrupt_block)
        self.stats = LinkStats()
        self.thread = threading.Thread(target=self._run, name=f"seat node {path}", daemon=True)
        self._node_frame = bytes(FRAME_BYTES)  # what the node holds: it clears its frame when a session starts
        self._segments: list[tuple[int, int, bytes]] = []  # of the frame being sent
        self._sending_generation = 0
        self._frame_marker: tuple[int, int] | None = None  # (message number, generation) ending a frame
        self._sent_contrast: int | None = None
        self._last_counter: int | None = None
        self._heard_any = False  # a button event heard on this connection (its counter: _last_counter)
        self._new_session = False  # a resync's new session, no button event heard in it yet
        # Button codes whose PRESSED this connection posted, until their HELD: a HELD of
        # a press made before (the host restarted, the node came back, with it held)
        # would act without its press ("knock?" for a held ✕). Kept over a _resync: the
        # node keeps its buttons, and the table saw the press.
        self._pressed: set[int] = set()
        # Button codes whose PRESSED the allowance dropped, until their HELD or next PRESSED.
        self._dropped: set[int] = set()
        self._corrupt = _Warnings("corrupt blocks not logged")
        self._bad = _Warnings("bad messages not logged")
        self._flood = _Warnings("presses or STATEs dropped (a node sending too many)")
        # Since when each button code has been down in the node's STATEs (host clock), and
        # those said to be stuck: a node sends its PRESSED and HELD once, and none at all
        # for a button down before the session began (a cup on it at power-on, a short).
        self._down_since: dict[int, float] = {}
        self._stuck: set[int] = set()
        self.down_bits = 0  # as the node's latest STATE says, bit = button code
        self._presses = _Allowance(hub.config.press_rate, PRESS_BURST)
        self._states = _Allowance(STATE_RATE, STATE_RATE)
        self.node_clock = NodeClock()

    def wake(self) -> None:
        with self._port_lock:  # a pipe write: never waits on the port itself
            port = self.port
            if port is not None and hasattr(port, "cancel_read"):
                port.cancel_read()  # the reader sends the new frame now, not after its read timeout

    def _label(self) -> str:
        return f"seat {self.seat + 1}" if self.seat is not None else f"node on {self.path}"

    def held_after(self) -> float:
        """How long after PRESSED the node says HELD: gpio.hold_time, which it is told
        (HOLD, protocol 3), or an older node's own."""
        return self.hub.config.hold_time if self.node_protocol >= 3 else OLD_NODE_HOLD_TIME

    def _run(self) -> None:
        serial = _import_pyserial()
        reason: str | None = "node unplugged"
        retry = False
        try:
            self.port = serial.serial_for_url(self.path, baudrate=115200, timeout=self.READ_TIMEOUT, write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError) as err:
            # Another golfbox or a pyserial tool has it (its flock): which one, to close.
            holder = flock_holder(self.path)
            held = f"; held by {holder}" if holder else ""
            self._say_once(f"seat nodes: cannot open {self.path}: {err}{held}")
            self.hub._release(self, None, retry=True)
            return
        _tty_exclusive(self.port, True)
        try:
            self._wait_until_quiet()
            hello = self._handshake()
            if hello is None:
                reason, retry = None, True
                if self.hub._stop.is_set():  # the hub is closing: the port was not given its time
                    return
                # Its corrupt blocks went to DEBUG: say here, in words the same at every
                # probe (said once), that bytes came, for a builder to look at the cable.
                garbled = (": what it sent was no protocol blocks (another device, or a noisy "
                           "cable)") if self.stats.corrupt_blocks else ""
                self._say_once(f"seat nodes: no answer like a seat node's from {self.path} within "
                               f"{self.hub.config.handshake_timeout:g} s{garbled}")
                return
            self.node_id, self.firmware = hello
            with self.hub._lock:
                self.hub._refused.discard(self.real_path)
                self.hub._said.pop(self.real_path, None)  # a node now: say it again if it goes
            log.info("seat nodes: node %s (firmware %s) on %s", self.node_id, self.firmware, self.path)
            self.seat = self.hub._claim(self, self.node_id)
            if self.seat is not None:
                self.hub.stats[self.seat] = self.stats
                self._last_counter = self.hub._seats[self.seat].last_event
            self._start_session()
            self._serve()
            reason = None  # the hub is closing
        except _SeatTaken:
            reason, retry = None, True
        except _Refused as refused:
            # It has no seat to report it by; said once, and tried again later (reflashed?)
            with self.hub._lock:
                level = logging.DEBUG if self.real_path in self.hub._refused else logging.ERROR
                self.hub._refused.add(self.real_path)
            log.log(level, "seat nodes: %s (on %s)", refused, self.path)
            reason, retry = None, True
        except _NodeGone as gone:
            reason = str(gone)
        except (serial.SerialException, OSError) as err:
            log.debug("%s: port error: %s", self._label(), err)
        except Exception as err:  # a bug here must not kill the seat silently: report it, retry later
            log.exception("%s: link failed", self._label())
            reason, retry = f"link failed ({err})", True
        finally:
            self._summarise_warnings(None)
            with self._port_lock:  # wake() leaves it alone from here on
                port, self.port = self.port, None
            _tty_exclusive(port, False)
            try:
                port.close()  # outside the lock: closing a tty may wait for its output
            except (serial.SerialException, OSError):
                pass
            self.hub._release(self, reason, retry=retry)

    def _say_once(self, message: str) -> None:
        """A warning about a port that is no node: it is probed again every few seconds
        all evening (a node may still be starting), logged once (then at DEBUG)."""
        with self.hub._lock:
            said = self.hub._said.setdefault(self.real_path, set())
            level = logging.DEBUG if message in said else logging.WARNING
            said.add(message)
        log.log(level, "%s", message)

    def _wait_until_quiet(self) -> None:
        quiet = self.hub.config.quiet_before_sync
        started = last_byte = time.monotonic()
        while not self.hub._stop.is_set() and time.monotonic() - last_byte < quiet:
            data = self.port.read(self.port.in_waiting or 1)
            if not data:
                continue
            last_byte = time.monotonic()
            heard = self.link.rx_blocks
            for _ in self.link.receive(data, self._now()):
                pass
            if self.link.rx_blocks != heard:
                return  # whole protocol blocks: its firmware is running, Ctrl-C is off
            if last_byte - started > 4 * quiet + self.hub.config.handshake_timeout:
                return  # a chatty port that is no node: the handshake will say so
        self.link = protocol.Link(on_error=self._corrupt_block)

    # handshake: SYNC (fresh random token) until the node answers HELLO with that token
    def _handshake(self) -> tuple[str, str] | None:
        """SYNC until the node answers HELLO: its id and firmware (its protocol is kept).
        Outside any session: no message of the last session is resent, and nothing the
        node sends is taken or acknowledged (SYNC says ack 0), so a press it sends before
        its HELLO gets through is resent in the session."""
        self._read_timeout(self.READ_TIMEOUT)  # a SYNC every 30 ms (a resync comes from _serve)
        token = random.randrange(1, 0x10000)
        sync = protocol.encode_block(0, 0, protocol.MSG_SYNC, bytes((token >> 8, token & 0xFF)))
        self._write(b"\x00")  # end whatever half block the node was holding
        deadline = time.monotonic() + self.hub.config.handshake_timeout
        next_sync = 0.0
        while not self.hub._stop.is_set() and time.monotonic() < deadline:
            if time.monotonic() >= next_sync:
                self._write(sync)
                next_sync = time.monotonic() + 0.03  # the node answers in a few ms; a noisy line needs many tries
            data = self.port.read(self.port.in_waiting or 1)
            self.stats.bytes_in += len(data)
            for _seq, _ack, msg_type, payload in self.link.decoder.feed(data):
                if msg_type != protocol.MSG_HELLO:
                    continue
                try:
                    their_token, version, unique_id, firmware = protocol.unpack_hello(payload)
                except (ValueError, UnicodeError) as err:
                    # answered at each SYNC (every 30 ms) of each probe: said once
                    self._say_once(f"seat nodes: bad HELLO from {self.path}: {err}")
                    continue
                if their_token != token:
                    continue  # an answer to an earlier attempt
                if not protocol.OLDEST_PROTOCOL_VERSION <= version <= protocol.PROTOCOL_VERSION:
                    raise _Refused(f"node {unique_id.hex()} speaks protocol {version}, the host speaks "
                                   f"{protocol.OLDEST_PROTOCOL_VERSION} to {protocol.PROTOCOL_VERSION}: "
                                   f"reflash it with the host's firmware")
                self.link.reset()  # the node did: both sides start at sequence 0
                self.node_protocol = version
                return unique_id.hex(), one_line(firmware)  # the node's text: a newline would forge a log line
        return None

    def _start_session(self) -> None:
        """After a handshake the node holds a blank frame and nothing else."""
        self._node_frame = bytes(FRAME_BYTES)
        self._segments = []
        self._sending_generation = 0
        self._frame_marker = None
        self._sent_contrast = None
        self.link.send(protocol.MSG_ASSIGN, bytes((protocol.UNASSIGNED_SEAT if self.seat is None else self.seat,)))
        hold_ms = round(self.hub.config.hold_time * 1000)
        if self.node_protocol >= 3:
            self.link.send(protocol.MSG_HOLD, protocol.pack_hold(hold_ms))
        elif hold_ms != round(OLD_NODE_HOLD_TIME * 1000):
            self._old_hold_said()

    def _old_hold_said(self) -> None:
        """An older node has no HOLD (it would count one as a bad message): it plays on,
        holding for its own 0.7 s. Said once per node, not at each of its connections."""
        with self.hub._lock:
            if self.node_id in self.hub._old_hold:
                return
            self.hub._old_hold.add(self.node_id)
        log.warning("%s: node %s (firmware %s, protocol %d) sends HELD after its own %g s, not "
                    "gpio.hold_time's %g s: reflash it with the host's firmware", self._label(),
                    self.node_id, self.firmware, self.node_protocol, OLD_NODE_HOLD_TIME,
                    self.hub.config.hold_time)

    def _resync(self) -> None:
        # A long message that a noisy line never lets through blocks everything after it;
        # a new session starts over with the short messages the noise has taught us to send.
        log.warning("%s: message resent %d times, starting a new session", self._label(), self.link.oldest_resends())
        if self._handshake() is None:
            raise _NodeGone("node stopped answering")
        self._new_session = True  # the node may have been powered up again meanwhile
        self._start_session()

    def _serve(self) -> None:
        config = self.hub.config
        last_heard = time.monotonic()
        next_ping = 0.0
        while not self.hub._stop.is_set():
            data = self.port.read(self.port.in_waiting or 1)
            now_s = time.monotonic()
            now = self._now()
            self._summarise_warnings(int(now_s))  # a noisy second's count, once it is over
            if data:
                read_at = self.hub.clock()  # the blocks this read completed came by now
                self.stats.bytes_in += len(data)
                heard = self.link.rx_blocks
                for msg_type, payload in self.link.receive(data, now):
                    self._dispatch(msg_type, payload, read_at)
                if self.link.rx_blocks != heard:
                    last_heard = now_s
            if now_s - last_heard > config.silence_timeout:
                raise _NodeGone("node stopped answering")
            if now_s >= next_ping:
                next_ping = now_s + config.ping_interval
                self.link.send_unreliable(protocol.MSG_PING, (int(time.perf_counter() * 1e6) & 0xFFFFFFFF).to_bytes(4, "big"))
            if self.link.oldest_resends() > STUCK_RESENDS:
                self._resync()
                last_heard = time.monotonic()
            if self.seat is not None:
                self._feed_link()
            self._write(self.link.poll(now))
            self.stats.retransmits = self.link.retransmits
            # The retransmit timer needs the short reads only while a message awaits its
            # ack. Else the reader sleeps until a byte comes (the node reports 4 times a
            # second), a frame is shown (wake()) or the next ping: reading every 10 ms
            # woke it 100 times a second all night.
            self._read_timeout(self.READ_TIMEOUT if self.link.unacked else config.ping_interval)

    def _read_timeout(self, seconds: float) -> None:
        if self.port.timeout != seconds:  # pyserial reconfigures the port at each change
            self.port.timeout = seconds

    def _feed_link(self) -> None:
        """Queue what the seat wants shown: contrast, then the changes of the newest frame."""
        state = self.hub._seats[self.seat]
        with self.hub._lock:
            wanted, generation, contrast = state.wanted, state.wanted_generation, state.contrast
        if contrast is not None and contrast != self._sent_contrast:
            self.link.send(protocol.MSG_CONTRAST, bytes((contrast,)))
            self._sent_contrast = contrast
        if not self._segments and generation != self._sending_generation and wanted is not None:
            # Frames that came while the last one was on its way are skipped: only the newest matters.
            self._segments = changed_segments(self._node_frame, wanted)
            self._node_frame = wanted
            self._sending_generation = generation
            if not self._segments:  # nothing changed, but the node must know the frame is complete
                self._frame_marker = (self.link.send(protocol.MSG_FRAME, bytes((protocol.FRAME_SHOW,))), generation)
        while self._segments and self.link.window_free() > 0:
            number = self.link.send(protocol.MSG_FRAME, pack_frame_payload(self._segments, self.link.payload_budget))
            if not self._segments:
                self._frame_marker = (number, self._sending_generation)
        if self._frame_marker is not None and self.link.acked_total >= self._frame_marker[0]:
            generation = self._frame_marker[1]
            self._frame_marker = None
            with self.hub._lock:
                if generation > state.shown_generation:
                    state.shown_generation = generation
                    if state.requested_at is not None and generation == state.wanted_generation:
                        self.stats.frame_times.append(time.perf_counter() - state.requested_at)
                    self.hub._lock.notify_all()

    def _dispatch(self, msg_type: int, payload: bytes, read_at: float) -> None:
        try:
            if msg_type == protocol.MSG_BUTTON:
                counter, button, kind, tick = protocol.unpack_button(payload)
                expected = None if self._last_counter is None else (self._last_counter + 1) & 0xFFFF
                first = not self._heard_any  # before it, _last_counter is the seat's, kept by the hub
                # This connection's or this session's first, behind the last: the node was
                # powered up again and counts from 1 (not 65,533 events lost). A session
                # too: behind a USB-serial adapter the port stays while the node is off.
                restarted = (expected is not None and (first or self._new_session)
                             and 0 < (expected - counter) & 0xFFFF < 0x8000)
                if restarted:
                    log.info("%s: the node restarted: its button events count from 1 again (now at %d)",
                             self._label(), counter)
                elif expected is not None and counter != expected:
                    self._bad.warn(self._label(), "%d button events lost in the node (counter %d, expected %d)",
                                   (counter - expected) & 0xFFFF, counter, expected)
                # Lost on this connection (the node's counter went on, not from the last
                # connection's: a node back from a restart counts from 1 again).
                lost = not first and not restarted and counter != expected
                self._last_counter, self._heard_any, self._new_session = counter, True, False
                if self.seat is not None:
                    self.hub._seats[self.seat].last_event = counter
                held = protocol.KIND_CODES[kind] == EventKind.HELD.value
                if held and button in self._dropped:
                    # A hold is its press held longer: a press dropped did nothing at the
                    # table, and its HELD alone would act as a long press begun nowhere
                    # (after a short one of the button, "knock?" for ✕). Dropped too,
                    # taking none of the allowance; even after lost events (whose hold
                    # it is cannot be told, and a hold not taken is only made again).
                    self._dropped.discard(button)
                    self._flood.warn(self._label(), "%s held, its press dropped (more than %g presses a second): ignored",
                                     Button(protocol.BUTTON_CODES[button]).symbol, self._presses.rate)
                elif not self._presses.take(time.monotonic()):
                    if not held:
                        self._dropped.add(button)
                        self._pressed.discard(button)  # an earlier press's: not this HELD's
                    self._flood.warn(self._label(), "more than %g presses a second: %s %s dropped",
                                     self._presses.rate, protocol.BUTTON_CODES[button],
                                     protocol.KIND_CODES[kind])
                elif self.seat is not None and self._press_seen(button, kind, lost):
                    event = ButtonEvent(self.seat, Button(protocol.BUTTON_CODES[button]),
                                        EventKind(protocol.KIND_CODES[kind]),
                                        at=self.node_clock.stamp(tick, read_at))
                    self.hub._post(event)
            elif msg_type == protocol.MSG_STATE:
                _counter, down, rx_errors, flags, tick = protocol.unpack_state(payload)
                # Its tick is kept even from a STATE the allowance drops: a stalled reader's
                # burst kept only its first STATEs, seconds older than a press after them.
                if tick is not None:
                    self.node_clock.sample(tick, read_at)
                if not self._states.take(time.monotonic()):
                    self._flood.warn(self._label(), "more than %d STATEs a second: one dropped", STATE_RATE)
                    return
                self.stats.node_rx_errors = rx_errors
                self._panel_state(bool(flags & protocol.STATE_PANEL_FAILING))
                self._watch_down(down, time.monotonic())
            elif msg_type == protocol.MSG_PONG and len(payload) == 4:
                sent = int.from_bytes(payload, "big")
                self.stats.ping_ms = ((int(time.perf_counter() * 1e6) - sent) & 0xFFFFFFFF) / 1000
                self.link.sample_rtt(int(self.stats.ping_ms))
            elif msg_type == protocol.MSG_HELLO:
                pass  # a late answer to a repeated SYNC
            else:
                self._bad.warn(self._label(), "unexpected message type 0x%02x dropped", msg_type)
        except ValueError as err:
            self._bad.warn(self._label(), "bad message dropped: %s", err)

    def _press_seen(self, button: int, kind: int, lost: bool) -> bool:
        """A PRESSED, or the HELD of a press this connection posted (each press has one),
        or of one it lost: ``lost``, the node's counter skipped the events just before
        (a resync drops what the node had not got through, a full queue what it could
        not send), so the press was made on this connection, and the hold still acts."""
        if protocol.KIND_CODES[kind] != EventKind.HELD.value:
            self._pressed.add(button)
            self._dropped.discard(button)
            return True
        if button in self._pressed or lost:
            self._pressed.discard(button)
            return True
        log.info("%s: %s held, its press not seen on this connection (made before it): ignored",
                 self._label(), Button(protocol.BUTTON_CODES[button]).symbol)
        return False

    def _watch_down(self, down: int, now: float) -> None:
        """A button down for ``stuck_after`` is said once by seat and button, and its
        letting go: the rest of the table plays on, but staff should hear which it is."""
        self.down_bits = down
        if self.seat is None:
            return
        for code, name in enumerate(protocol.BUTTON_CODES):
            symbol = Button(name).symbol
            if not down & 1 << code:
                self._down_since.pop(code, None)
                if code in self._stuck:
                    self._stuck.discard(code)
                    log.info("%s %s " + LET_GO, self._label(), symbol)
            elif (now - self._down_since.setdefault(code, now) >= self.hub.config.stuck_after
                  and code not in self._stuck):
                self._stuck.add(code)
                log.warning("%s %s " + STUCK, self._label(), symbol, self.hub.config.stuck_after)

    def _panel_state(self, failing: bool) -> None:
        """The node says whether its OLED answers: shown like any failing display (buttons stay)."""
        if self.seat is None:
            return
        state = self.hub._seats[self.seat]  # only the connection serving it writes this
        if failing == state.panel_failing:
            return
        state.panel_failing = failing
        name = f"seat {self.seat + 1} display"
        # Logged by the table, which takes the event (see _release): a loose wire to the
        # OLED flips this with each STATE, 4 a second.
        if failing:
            log.debug("%s: the seat node's OLED does not answer", name)
            self.hub._post(LinkEvent(self.seat, False, f"{name}: the node's OLED does not answer"))
        else:
            log.debug("%s: working again", name)
            self.hub._post(LinkEvent(self.seat, True, f"{name}: working again"))

    def _corrupt_block(self, offset: int, reason: str) -> None:
        self.stats.corrupt_blocks += 1
        if self.node_id is None:  # no HELLO yet: maybe a chatty port that is no node, probed all
            # evening; its "no answer like a seat node's" is said once
            log.debug("%s: corrupt block at byte %d (%s)", self._label(), offset, reason)
            return
        self._corrupt.warn(self._label(), "dropped corrupt block at byte %d (%s)", offset, reason)

    def _summarise_warnings(self, second: int | None) -> None:
        for warnings in (self._corrupt, self._bad, self._flood):
            warnings.summarise(self._label(), second)

    def _write(self, data: bytes) -> None:
        if data:
            self.port.write(data)
            self.stats.bytes_out += len(data)

    @staticmethod
    def _now() -> int:
        return int(time.monotonic() * 1000)


class _Warnings:
    """One kind of warning about a node: CORRUPT_BLOCKS_LOGGED a span are logged, the
    rest counted and summed up when the span is over. A span is a second; after one
    with more than that, twice the last, up to WARNINGS_SPAN_MAX: a line noisy all
    evening was 11 lines a second, 40,000 an hour."""

    def __init__(self, what: str) -> None:
        self.what = what  # the count's words: "corrupt blocks not logged"
        self.second = 0  # the span's start
        self.span = 1  # seconds
        self.count = 0  # warnings in that span

    def warn(self, label: str, message: str, *args: Any) -> None:
        self.summarise(label, int(time.monotonic()))
        self.count += 1
        if self.count <= CORRUPT_BLOCKS_LOGGED:
            log.warning("%s: " + message, label, *args)

    def summarise(self, label: str, second: int | None) -> None:
        """Once the span has passed (None: now, the link is ending), say how many of its
        warnings were not logged one by one. Called for each warning and by the reader."""
        if second is not None and second < self.second + self.span:
            return
        over = self.count > CORRUPT_BLOCKS_LOGGED
        if over:
            log.warning("%s: %d more %s%s", label, self.count - CORRUPT_BLOCKS_LOGGED, self.what,
                        f" in {self.span} s (it goes on)" if self.span > 1 else "")
        # Noise that goes on is summed up over longer spans; a quiet span starts over.
        self.span = min(2 * self.span, WARNINGS_SPAN_MAX) if over else 1
        self.second, self.count = second or 0, 0


class _Allowance:
    """A token bucket: ``rate`` a second on average (None: no limit), ``burst`` at once."""

    def __init__(self, rate: float | None, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.left = float(burst)
        self.at: float | None = None

    def take(self, now: float) -> bool:
        if self.rate is None:
            return True
        if self.at is not None:
            self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True


def _tty_exclusive(port, exclusive: bool) -> None:
    """Make the port's tty refuse (or again take) other opens: TIOCEXCL. pyserial's
    exclusive=True is an flock, which keeps out another golfbox and pyserial's tools
    but not screen, minicom or a shell's redirection: each read some of the node's
    bytes, and the link broke. The kernel still lets root in (CAP_SYS_ADMIN).
    Cleared before the close, so nothing is left to refuse our next open (a pty's
    tty outlives its slave's close). A port with no tty (loop://) is left alone."""
    import fcntl
    import termios

    try:
        fcntl.ioctl(port.fileno(), termios.TIOCEXCL if exclusive else termios.TIOCNXCL)
    except (OSError, ValueError):  # no descriptor (loop://, closed), not a tty
        pass


def _import_pyserial():
    try:
        import serial
        import serial.tools.list_ports  # noqa: F401  (used by candidate_ports)
    except ImportError as err:
        raise ImportError("seat nodes need pyserial: pip install 'golfbox[pi]'") from err
    return serial
