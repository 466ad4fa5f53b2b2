"""Press to frame on a slow or stalling SD card: every fsync made slow for real.

    python bench/slow_fsync.py [--every 0,20,50] [--stalls 500,3000] [--presses 40]

A cheap or worn SD card syncs in 5-50 ms, and stalls for seconds while it
collects its garbage or another process writes. bench/slow_fsync.c, built
here with cc and loaded with LD_PRELOAD into a table of four people (the
service run() in its own thread, as in production, on sim pads and displays),
sleeps in each fsync and fdatasync before it syncs. Timed, press to the new
frame of the pressing seat's display:

* act:   ● that plays (turns up a card, draws, places): journal, engine, frame;
* own ▶: the acting seat's cursor (no journal write);
* other: another seat's ▶ pressed 5 ms after someone's ● (both turning up their
         first cards, at a round's start): is that seat kept waiting too?

``--every`` delays every sync by so many ms. Each of ``--stalls`` delays one
sync, a ● at a round's start; during it the same seat presses ● twice more
(a person to whom the table showed nothing): counted, the actions that seat
played from those three presses.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SHIM_SOURCE = Path(__file__).with_suffix(".c")
CONTROL = "SLOW_SYNC_FILE"  # the shim reads its delay from the file this names


def build_shim(folder: Path) -> Path | None:
    """bench/slow_fsync.c built into ``folder``; None if there is no C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    shim = folder / "slow_fsync.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(SHIM_SOURCE), "-ldl"],
                   check=True)
    return shim


def slowed(shim: Path, control: Path, environ: dict | None = None) -> dict[str, str]:
    """An environment whose processes sync as slowly as ``control`` says (see slow_fsync.c)."""
    control.touch()
    return dict(os.environ if environ is None else environ, LD_PRELOAD=str(shim),
                **{CONTROL: str(control)})


# ----------------------------------------------------------------- in the slowed process


class Frames:
    """When each display received each new frame."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}

    def changed(self, key: str, image) -> None:
        with self.lock:
            self.times.setdefault(key, []).append(time.perf_counter())

    def after(self, key: str, since: float, timeout: float) -> float | None:
        """Seconds from ``since`` to the first frame ``key`` received after it."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            with self.lock:
                later = [t for t in self.times.get(key, ()) if t > since]
            if later:
                return later[0] - since
            time.sleep(0.0005)
        return None


def table(directory: Path):
    from golfbox.table.journal import Journal
    from golfbox.table.settings import TableSettings
    from golfbox.table.sim import SimTable

    frames = Frames()
    settings = TableSettings(variant="6-card", rounds=99, seats=4, auto_start=True)
    sim = SimTable(settings, on_change=frames.changed, journal=Journal(directory / "j.sqlite3"))
    sim.start()
    return sim, frames


def press(sim, seat: int, button) -> float:
    from golfbox.hal.base import EventKind
    pressed = time.perf_counter()
    sim.press(seat, button, EventKind.PRESSED)
    return pressed


def settle(sim, seconds: float = 0.05) -> None:
    """Wait until the service has handled every press (nothing new for ``seconds``)."""
    service = sim.service
    before = None
    while before != (service.actions_played, service.state):
        before = (service.actions_played, service.state)
        time.sleep(seconds)


def start_pair(service) -> tuple[int, int] | None:
    """Two seats that both still turn up a card at the round's start, or None."""
    rnd = service.match.round
    if rnd.phase != "start":
        return None
    seats = [p.seat for s, p in enumerate(service.players) if s in rnd.acting_seats]
    return (seats[0], seats[1]) if len(seats) >= 2 else None


def every(delay_ms: int, presses: int, control: Path) -> dict[str, list[float]]:
    from golfbox.hal.base import Button
    from golfbox.table.sim import seat_key

    samples: dict[str, list[float]] = {"act": [], "own ▶": [], "other": []}
    with tempfile.TemporaryDirectory() as tmp:
        sim, frames = table(Path(tmp))
        service = sim.service
        control.write_text(str(delay_ms))
        try:
            while len(samples["act"]) < presses:
                settle(sim, 0.002 + delay_ms / 1000)
                if service.state != "playing":
                    press(sim, 0, Button.OK)  # the next round
                    continue
                pair = start_pair(service)
                if pair is not None:
                    seat, other = pair
                    acted = press(sim, seat, Button.OK)
                    time.sleep(0.005)
                    moved = press(sim, other, Button.RIGHT)
                    for name, key, since in (("act", seat, acted), ("other", other, moved)):
                        took = frames.after(seat_key(key), since, 5 + delay_ms / 100)
                        if took is not None:
                            samples[name].append(took)
                    continue
                acting = service.match.round.acting_seats
                if not acting:
                    continue
                seat = service.players[acting[0]].seat
                for name, button in (("own ▶", Button.RIGHT), ("act", Button.OK)):
                    took = frames.after(seat_key(seat), press(sim, seat, button), 5 + delay_ms / 100)
                    if took is not None:
                        samples[name].append(took)
                    time.sleep(0.002)
        finally:
            control.write_text("0")
            sim.close()
    return samples


def actions_of(journal, engine_seat: int) -> int:
    """How many actions the journal holds of ``engine_seat`` in the match in play."""
    return sum(1 for _, seat, _ in journal.unfinished().actions if seat == engine_seat)


def stall(stall_ms: int, control: Path) -> dict[str, float | int | None]:
    """One sync stalls ``stall_ms`` at a ● turning up a seat's first card; the seat presses
    ● twice more meanwhile, another seat ▶."""
    from golfbox.hal.base import Button
    from golfbox.table.sim import seat_key

    with tempfile.TemporaryDirectory() as tmp:
        sim, frames = table(Path(tmp))
        service = sim.service
        try:
            settle(sim)
            seat, other = start_pair(service)
            engine_seat = service.session.engine_seat[seat]
            before = actions_of(sim.journal, engine_seat)
            control.write_text(f"{stall_ms}!")
            acted = press(sim, seat, Button.OK)
            time.sleep(0.005)
            moved = press(sim, other, Button.RIGHT)
            for _ in range(2):  # nothing shows: pressed again
                time.sleep(min(0.2, stall_ms / 4000))
                press(sim, seat, Button.OK)
            timeout = stall_ms / 1000 + 5
            result = {"act": frames.after(seat_key(seat), acted, timeout),
                      "other": frames.after(seat_key(other), moved, timeout)}
            settle(sim, 0.2)
            result["actions of the seat"] = actions_of(sim.journal, engine_seat) - before
            return result
        finally:
            sim.close()


# ----------------------------------------------------------------- the parent


def report(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:6} none"
    ms = sorted(v * 1000 for v in values)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{name:6} n={len(ms):4}  median {statistics.median(ms):8.2f} ms  p99 {p99:8.2f} ms"


def run_child(shim: Path, control: Path, *args: str) -> dict:
    ran = subprocess.run([sys.executable, "-W", "ignore", __file__, *args],
                         env=slowed(shim, control), capture_output=True, text=True, check=True)
    return json.loads(ran.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", default="0,20,50", help="ms each sync sleeps, comma separated")
    parser.add_argument("--stalls", default="500,3000", help="ms one sync stalls, comma separated")
    parser.add_argument("--presses", type=int, default=40, help="actions to time at each delay")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)  # in the slowed process
    args = parser.parse_args()
    if args.child:
        kind, ms = args.child[0], int(args.child[1])
        control = Path(os.environ[CONTROL])
        found = every(ms, args.presses, control) if kind == "every" else stall(ms, control)
        print(json.dumps(found))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        shim = build_shim(Path(tmp))
        if shim is None:
            print("no C compiler (cc or gcc): cannot build bench/slow_fsync.c", file=sys.stderr)
            return 2
        control = Path(tmp) / "delay"
        for ms in (int(v) for v in args.every.split(",") if v):
            samples = run_child(shim, control, "--presses", str(args.presses), "--child", "every", str(ms))
            print(f"every sync +{ms} ms:")
            for name, values in samples.items():
                print("  " + report(name, values))
        for ms in (int(v) for v in args.stalls.split(",") if v):
            found = run_child(shim, control, "--child", "stall", str(ms))
            shown = {k: round(v * 1000, 1) if isinstance(v, float) else v for k, v in found.items()}
            print(f"one sync stalls {ms} ms (ms, or a count): {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
