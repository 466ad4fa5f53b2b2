"""Bytes on the I2C bus per move, for the seat OLEDs (SSD1306, 128×64).

    .venv/bin/python bench/i2c_bytes.py [--players 4] [--rounds 3] [--variant 6-card] [--seed 1]

Plays real rounds with greedy bots; every seat's screen is drawn by
golfbox.render.render_seat with the cursor and prompt the table shows
(golfbox.table.input.SeatInput). The acting player walks the cursor to the
bot's choice with ▶/◀ (one redraw per press) and presses ●; then every seat's
screen is redrawn from its new view. Each frame goes to three luma ssd1306
devices over a counting serial interface (luma's own ``serial_interface=``
seam, so the bytes are the ones luma and golfbox.hal.oled really emit):

  full frame   luma's display() on every redraw (what luma alone does)
  skip same    golfbox.hal.oled without page diff: identical frames not sent
  page diff    golfbox.hal.oled: only changed columns of changed pages

I2C bytes count the payload plus 2 bytes per transfer (address, control byte).
Bus time is at 400 kHz, 9 clocks a byte. First frames (the whole screen) are
left out: they are paid once per power-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from golfbox.bots import make_bot  # noqa: E402
from golfbox.engine import Match, get_variant, make_rules  # noqa: E402
from golfbox.hal.base import Button, EventKind  # noqa: E402
from golfbox.hal.config import parse_config  # noqa: E402
from golfbox.hal.oled import open_oled  # noqa: E402
from golfbox.render import render_seat  # noqa: E402
from golfbox.table.input import SeatInput  # noqa: E402

BUS_HZ = 400_000
CLOCKS_PER_BYTE = 9


class NullBus:
    """Swallows bytes (the counting wrapper in golfbox.hal.oled counts them)."""

    def command(self, *cmd):
        pass

    def data(self, data):
        pass

    def cleanup(self):
        pass


class FullFrameDisplay:
    """luma's ssd1306.display() on every redraw, counted the same way."""

    def __init__(self, config):
        self.display = open_oled(config, NullBus)
        self.counter = self.display.counter

    def show(self, image):
        self.display.device.display(image)


STRATEGIES = ("full frame", "skip same", "page diff")


def seat_config(page_diff: bool):
    return parse_config({"seats": [{"backend": "sim", "display": {
        "driver": "ssd1306", "i2c": {"bus": 1, "address": 0x3C}, "page_diff": page_diff}}]}).seats[0].display


class Table:
    def __init__(self, players: int):
        self.displays = {
            "full frame": [FullFrameDisplay(seat_config(False)) for _ in range(players)],
            "skip same": [open_oled(seat_config(False), NullBus) for _ in range(players)],
            "page diff": [open_oled(seat_config(True), NullBus) for _ in range(players)],
        }
        self.inputs = [SeatInput() for _ in range(players)]

    def bytes_so_far(self) -> dict[str, int]:
        return {name: sum(d.counter.i2c_bytes for d in displays) for name, displays in self.displays.items()}

    def redraw(self, seat: int, view) -> None:
        seat_input = self.inputs[seat]
        image = render_seat(view, cursor=seat_input.cursor, prompt=seat_input.prompt)
        for displays in self.displays.values():
            displays[seat].show(image)


def play(players: int, rounds: int, variant_name: str, seed: int) -> tuple[list[dict], list[dict]]:
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    bots = [make_bot("greedy", random.Random(rng.getrandbits(64))) for _ in range(players)]
    match = Match(variant, players, make_rules(variant, {}), rounds=rounds, seed=seed)
    table = Table(players)
    moves: list[dict] = []  # bytes per action, all seats' screens together
    cursor_steps: list[dict] = []  # bytes per ◀/▶ press, the acting seat's screen only

    def redraw_all() -> None:
        for seat in range(players):
            view = match.round.view(seat)
            table.inputs[seat].update(view.legal)
            table.redraw(seat, view)

    redraw_all()  # the first, whole frames: not counted
    while True:
        while match.round.acting_seats:
            before_move = table.bytes_so_far()
            for seat in match.round.acting_seats:
                view = match.round.view(seat)
                seat_input = table.inputs[seat]
                seat_input.update(view.legal)
                target = view.legal.index(bots[seat].choose(view))
                right = (target - seat_input.index) % len(view.legal)
                button = Button.RIGHT if right <= len(view.legal) - right else Button.LEFT
                while seat_input.index != target:
                    before_step = table.bytes_so_far()
                    seat_input.press(button, EventKind.PRESSED)
                    table.redraw(seat, view)
                    after_step = table.bytes_so_far()
                    cursor_steps.append({k: after_step[k] - before_step[k] for k in STRATEGIES})
                action = seat_input.press(Button.OK, EventKind.PRESSED)
                if action is None:  # knocking asks first: ● again confirms
                    table.redraw(seat, view)
                    action = seat_input.press(Button.OK, EventKind.PRESSED)
                match.round.apply(seat, action)
            redraw_all()
            after_move = table.bytes_so_far()
            moves.append({k: after_move[k] - before_move[k] for k in STRATEGIES})
        match.apply_round_end()
        if match.over:
            return moves, cursor_steps
        match.next_round()
        redraw_all()


def summary(rows: list[dict], name: str) -> str:
    values = sorted(row[name] for row in rows)
    p90 = values[int(0.9 * (len(values) - 1))]
    mean = statistics.fmean(values)
    ms = mean * CLOCKS_PER_BYTE / BUS_HZ * 1000
    return f"{name:>11}: mean {mean:7.0f} B  median {statistics.median(values):6.0f}  p90 {p90:6.0f}  " \
           f"max {values[-1]:6.0f}   ≈{ms:5.1f} ms at 400 kHz"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", default="6-card")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    moves, steps = play(args.players, args.rounds, args.variant, args.seed)
    print(f"{args.variant}, {args.players} seats, {args.rounds} rounds, seed {args.seed}: "
          f"{len(moves)} moves, {len(steps)} cursor presses")
    print("I2C bytes per move (the acting seat's cursor presses + every seat's redraw after it):")
    for name in STRATEGIES:
        print("  " + summary(moves, name))
    print("I2C bytes per cursor press (one seat's screen):")
    for name in STRATEGIES:
        print("  " + summary(steps, name))
    full = statistics.fmean(m["full frame"] for m in moves)
    diff = statistics.fmean(m["page diff"] for m in moves)
    print(f"page diff sends {diff / full:.1%} of what full frames would, per move")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
