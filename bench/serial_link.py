"""Seat-node link figures: frame delivery time, bytes per typical move, events/s with 8 nodes,
how far a press's stamp falls from the press.

    .venv/bin/python bench/serial_link.py [--moves 40] [--events 3000] [--presses 20]

1. One node running the real firmware under the MicroPython Unix port (pins and
   I2C faked, as in the tests), over a pty: a seat view is drawn with PIL and a
   typical move redrawn (one card of the grid and the card in hand); each frame
   is timed from show() to the node's acknowledgement, and the bytes on the wire
   are counted both ways.
2. Eight nodes on eight ptys, each a CPython peer speaking the same protocol.py,
   sending BUTTON messages as fast as the window allows: the rate at which the
   host's reader threads hand events to the sink, checked for order and count.
3. The node of 1 pressed ``--presses`` times: each ButtonEvent's stamp less the
   moment the test pulled the pin low, on a clean line and on one that holds
   every BUTTON back for HOLD_BACK s (as a burst of noise would, until a resend
   gets through).
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fake_mpy.harness import FakeNode  # noqa: E402
from golfbox.hal import protocol  # noqa: E402
from golfbox.hal.base import ButtonEvent, LinkEvent  # noqa: E402
from golfbox.hal.serialnode import SerialNodeConfig, SerialNodeHub  # noqa: E402

CARDS = "A23456789TJQK"
HOLD_BACK = 0.5  # s a lossy line keeps each BUTTON from the host in the stamp figure


def seat_view(grid: list[str], hand: str, score: int) -> Image.Image:
    """Roughly what a seat's OLED shows: a 2×3 grid of cards, the card in hand, the score."""
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    for index, card in enumerate(grid):
        x, y = 4 + (index % 3) * 24, 4 + (index // 3) * 30
        draw.rectangle((x, y, x + 20, y + 26), outline=1)
        draw.text((x + 7, y + 8), card, fill=1)
    draw.text((84, 6), "hand", fill=1)
    draw.rectangle((88, 20, 108, 46), outline=1)
    draw.text((95, 28), hand, fill=1)
    draw.text((80, 52), f"{score:+3d} pts", fill=1)
    return image


def is_button(block: bytes) -> bool:
    """Whether one encoded block (without its 0x00) is a BUTTON message."""
    try:
        body = protocol.cobs_decode(block)
    except ValueError:
        return False
    return len(body) >= 4 and body[3] == protocol.MSG_BUTTON


def bench_stamps(presses: int, workdir: Path) -> dict:
    """Stamp − press time in ms for each press, on a clean line and on one holding BUTTONs back."""
    ports = workdir / "stamp-ports"
    ports.mkdir()
    node = FakeNode(workdir / "stamp", "e6614103e7452d2f", ports)
    node.plug()
    hub = SerialNodeHub(SerialNodeConfig(seats={4: "e6614103e7452d2f"}, ports=(str(ports / "*"),), scan_interval=0.05))
    events: queue.Queue = queue.Queue()
    hub.start(events.put)
    errors: dict[str, list[float]] = {"clean": [], "held back": []}
    try:
        assert hub.wait_connected({4}, 5), "node did not connect"
        assert isinstance(events.get(timeout=5), LinkEvent)
        time.sleep(1.0)  # a few STATEs first, as at a table
        for line, held in (("clean", False), ("held back", True)):
            for _ in range(presses):
                pressed = time.monotonic()  # the hub's clock
                if held:
                    node.relay.drop_to_host = lambda block: is_button(block) and time.monotonic() < pressed + HOLD_BACK
                node.set_button("ok", True)
                event = events.get(timeout=5)
                node.set_button("ok", False)
                assert isinstance(event, ButtonEvent), event
                errors[line].append((event.at - pressed) * 1000)
                time.sleep(0.1)
                node.relay.drop_to_host = None
        return errors
    finally:
        hub.close()
        node.close()


def bench_frames(moves: int, workdir: Path) -> dict:
    ports = workdir / "ports"
    ports.mkdir()
    node = FakeNode(workdir, "e6614103e7452d2f", ports)
    node.plug()
    hub = SerialNodeHub(SerialNodeConfig(seats={4: "e6614103e7452d2f"}, ports=(str(ports / "*"),), scan_interval=0.05))
    events: queue.Queue = queue.Queue()
    started = time.perf_counter()
    hub.start(events.put)
    try:
        assert hub.wait_connected({4}, 5), "node did not connect"
        connect_time = time.perf_counter() - started  # the quiet wait (1.5 s) + handshake
        display = hub.display(4)
        grid = ["?"] * 6
        display.show(seat_view(grid, "7", 0))
        assert display.wait_shown(5)
        stats = hub.stats[4]
        first = (stats.frame_times[-1], stats.bytes_out, stats.bytes_in)
        times, out_bytes, in_bytes = [], [], []
        for move in range(moves):
            grid[move % 6] = CARDS[move % 13]
            before_out, before_in = stats.bytes_out, stats.bytes_in
            start = time.perf_counter()
            display.show(seat_view(grid, CARDS[(move * 5) % 13], move - 10))
            assert display.wait_shown(5)
            times.append(time.perf_counter() - start)
            time.sleep(0.02)  # let the acks and the node's STATE pass, then count
            out_bytes.append(stats.bytes_out - before_out)
            in_bytes.append(stats.bytes_in - before_in)
        return {"first": first, "times": times, "out": out_bytes, "in": in_bytes, "ping_ms": stats.ping_ms,
                "connect": connect_time}
    finally:
        hub.close()
        node.close()


class FloodNode:
    """A protocol peer on a pty that answers the handshake, then sends ``count`` BUTTON messages."""

    def __init__(self, unique_id: bytes, ports: Path, count: int):
        self.unique_id = unique_id
        self.count = count
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.slave = slave
        os.symlink(os.ttyname(slave), ports / f"flood-{unique_id.hex()}")
        self.link = protocol.Link()
        self.session = None
        self.sent = 0
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import select

        while not self.stop:
            readable, _, _ = select.select([self.master], [], [], 0.002)
            now = int(time.monotonic() * 1000)
            data = os.read(self.master, 65536) if readable else b""
            for msg_type, payload in self.link.receive(data, now):
                if msg_type == protocol.MSG_SYNC:
                    token = (payload[0] << 8) | payload[1]
                    if token != self.session:
                        self.link.reset()
                        self.session = token
                    self.link.send_unreliable(protocol.MSG_HELLO, protocol.pack_hello(token, self.unique_id, "flood"))
                elif msg_type == protocol.MSG_PING:
                    self.link.send_unreliable(protocol.MSG_PONG, payload)
            if self.session is not None:
                while self.sent < self.count and self.link.window_free() > 0:
                    self.sent += 1
                    self.link.send(protocol.MSG_BUTTON, protocol.pack_button(self.sent & 0xFFFF, self.sent % 4, 0))
            out = self.link.poll(now)
            if out:
                os.write(self.master, out)

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


def bench_events(per_node: int, workdir: Path, nodes: int = 8) -> dict:
    ports = workdir / "flood-ports"
    ports.mkdir()
    ids = [bytes((0xF0, seat)) * 4 for seat in range(nodes)]
    # press_rate=None: the link's capacity, not the table's limit of 30 presses a second a node
    hub = SerialNodeHub(SerialNodeConfig(seats={seat: ids[seat].hex() for seat in range(nodes)}, ports=(str(ports / "*"),), scan_interval=0.05, press_rate=None))
    received: queue.Queue = queue.Queue()
    hub.start(received.put)
    floods = []
    try:
        start = time.perf_counter()
        floods = [FloodNode(unique_id, ports, per_node) for unique_id in ids]
        total = per_node * nodes
        by_seat: dict[int, list[str]] = {seat: [] for seat in range(nodes)}
        got = 0
        first_event = None
        while got < total:
            event = received.get(timeout=30)
            if isinstance(event, ButtonEvent):
                first_event = first_event or time.perf_counter()
                by_seat[event.seat].append(event.button.value)
                got += 1
            else:
                assert isinstance(event, LinkEvent) and event.connected, event
        elapsed = time.perf_counter() - first_event
        for seat, buttons in by_seat.items():
            expected = [protocol.BUTTON_CODES[n % 4] for n in range(1, per_node + 1)]
            assert buttons == expected, f"seat {seat + 1}: events lost or out of order"
        return {"total": total, "elapsed": elapsed, "setup": first_event - start}
    finally:
        hub.close()
        for flood in floods:
            flood.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--events", type=int, default=3000, help="BUTTON messages per node in the 8-node test")
    parser.add_argument("--presses", type=int, default=20, help="presses for each line in the stamp test")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        frames = bench_frames(args.moves, Path(tmp))
        events = bench_events(args.events, Path(tmp))
        stamps = bench_stamps(args.presses, Path(tmp))
    ms = sorted(t * 1000 for t in frames["times"])
    first_time, first_out, first_in = frames["first"]
    print(f"new port found → node connected: {frames['connect']:.2f} s (the host waits for 1.5 s of quiet first)")
    print(f"first frame after connect (changes from a blank panel): {first_time * 1000:.1f} ms, {first_out} bytes host→node incl. handshake, {first_in} node→host")
    print(f"typical move ({args.moves} moves, 1 MicroPython node over a pty):")
    print(f"  frame delivery show()→ack: median {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9)]:.1f} ms, max {ms[-1]:.1f} ms")
    print(f"  bytes host→node per move: median {statistics.median(frames['out']):.0f} (min {min(frames['out'])}, max {max(frames['out'])}); "
          f"node→host {statistics.median(frames['in']):.0f} (acks, pongs, state)")
    print(f"  a whole frame would be {protocol.PANEL_WIDTH * protocol.PANEL_PAGES} bytes of pixels; ping RTT {frames['ping_ms']:.2f} ms")
    rate = events["total"] / events["elapsed"]
    print(f"8 nodes flooding BUTTON events: {events['total']} events in {events['elapsed']:.2f} s = {rate:,.0f} events/s "
          f"({rate / 8:,.0f} per node), all in order, none lost or doubled")
    for line, errors in stamps.items():
        errors.sort()
        print(f"press stamp − press, {line} line ({len(errors)} presses{f', each BUTTON held back {HOLD_BACK} s' if line == 'held back' else ''}): "
              f"median {statistics.median(errors):.1f} ms, min {errors[0]:.1f}, max {errors[-1]:.1f}")


if __name__ == "__main__":
    main()
