"""Button press to new frame, through the whole table service.

    python bench/table_latency.py [--presses 2000] [--seats 4] [--dir DIR] [--hard-bots N]

The service runs in its own thread (run(), as in production); this thread
presses buttons on a SimPad and waits for the pressing seat's display to
receive its new frame. Two kinds of press are timed apart:

* move: ◀/▶ only moves the cursor (no journal write);
* act:  ● plays an action: journal record (fsync), engine, redraw of every
        screen that changed; the pressing seat's screen is drawn first.

With ``--hard-bots N`` the last N seats are ``hard`` bots (no bot_delay, thinking
off the loop as on the Pi), and the people also press while the bots think:

* wait: a press out of turn while a bot thinks, timed until the loop has handled
        it (its "wait: … is playing" frame is drawn only when it changes).

The journal goes to DIR (default: a temporary directory; pass the Pi's
/var/lib/golfbox to include the SD card's fsync).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.hal.base import Button, ButtonEvent, EventKind  # noqa: E402
from golfbox.table.journal import Journal  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402
from golfbox.table.sim import SimTable, seat_key  # noqa: E402


def measure(directory: Path, presses: int, seats: int, hard_bots: int = 0) -> dict[str, list[float]]:
    arrived = threading.Event()
    waiting_for: list[str | None] = [None]

    def on_change(key: str, image) -> None:
        if key == waiting_for[0]:
            arrived.set()

    bots = {seat: "hard" for seat in range(seats - hard_bots, seats)}
    settings = TableSettings(variant="6-card", rounds=99, seats=seats, auto_start=True, bot_delay=0.0,
                             bots=bots)
    # The table golfbox sim runs (sim pads and displays, hard bots thinking off the loop).
    sim = SimTable(settings, on_change=on_change, journal=Journal(directory / "latency.sqlite3"))
    service = sim.service
    # Out-of-turn presses: timed until the loop has handled them (wrapping its handler).
    handled = threading.Event()
    handle = service._handle

    def handle_and_tell(event) -> None:
        handle(event)
        if isinstance(event, ButtonEvent):
            handled.set()

    service._handle = handle_and_tell
    sim.start()

    samples: dict[str, list[float]] = {"move": [], "act": [], "wait": [], "unanswered": []}

    def timed(seat: int, button: Button) -> float | None:
        arrived.clear()
        waiting_for[0] = seat_key(seat)
        started = time.perf_counter()
        sim.press(seat, button, EventKind.PRESSED)
        if not arrived.wait(2.0):
            # No new frame: the table dropped the press as made before the screen that
            # gave its seat these choices was drawn (this script reads the engine, not
            # the screen, so it can press a hair early). Counted, not timed.
            samples["unanswered"].append(2.0)
            return None
        return time.perf_counter() - started

    step = 0
    try:
        while len(samples["act"]) < presses:
            time.sleep(0.002)  # let the service finish drawing the other screens
            if service.state != "playing":
                if 0 in getattr(service.current, "reading", {}):
                    # An out-of-turn ◀ that landed just after a bot ended the round opened
                    # the rules there (◀ ▶ read them at the reveal): ✕ closes them.
                    timed(0, Button.BACK)
                timed(0, Button.OK)  # next round / new match
                continue
            acting = service.match.round.acting_seats
            if not acting:  # the round just ended (the service thread moves on by itself)
                continue
            engine_seat = acting[0]
            seat = service.players[engine_seat].seat
            if seat in bots:  # a bot thinks: a person presses out of turn meanwhile
                step += 1
                handled.clear()
                started = time.perf_counter()
                sim.press(step % (seats - hard_bots), Button.LEFT, EventKind.PRESSED)
                if handled.wait(2.0):
                    samples["wait"].append(time.perf_counter() - started)
                continue
            if len(service.match.round.legal_actions(engine_seat)) > 1:
                took = timed(seat, Button.RIGHT)
                if took is not None:
                    samples["move"].append(took)
                time.sleep(0.002)
            took = timed(seat, Button.OK)
            if took is not None:
                samples["act"].append(took)
    finally:
        sim.close()
    return samples


def report(name: str, values: list[float]) -> None:
    ms = sorted(v * 1000 for v in values)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:5} n={len(ms):5}  median {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  "
          f"max {ms[-1]:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=2000, help="actions to time (moves come on top)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--dir", type=Path, help="where the journal goes (default: a temporary directory)")
    parser.add_argument("--hard-bots", type=int, default=0, help="hard bots in the last seats")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        samples = measure(Path(tmp), args.presses, args.seats, args.hard_bots)
    report("move", samples["move"])
    report("act", samples["act"])
    if samples["wait"]:
        report("wait", samples["wait"])
    report("all", samples["move"] + samples["act"] + samples["wait"])
    print(f"unanswered presses (no new frame in 2 s, not timed): {len(samples['unanswered'])}")


if __name__ == "__main__":
    main()
