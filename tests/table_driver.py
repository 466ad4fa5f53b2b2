"""Run one table headless, as a subprocess, for the crash tests.

    python tests/table_driver.py --journal J --seed S [--variant V --rule NAME=VALUE]
                                 [--bots LEVEL,…] [--kill-at N --kill-when before|after]

Seat 0 is a person whose presses come from a script; the other seats are
bots with no thinking time (random, or --bots: a level a seat from seat 2).
The script decides from what the table shows (the match's state) and a seed,
never from the wall clock, so a table killed and restarted is pressed exactly
as an uninterrupted one would be.

``--kill-at N`` sends this process SIGKILL at its Nth journal write, just
before or just after the commit: the two moments a power cut can fall on.
On a clean finish it prints the match's result as one JSON line, with every
entry of its journal (seat, action) in order.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.hal.base import Button  # noqa: E402
from golfbox.hal.sim import SimDisplay, SimPad  # noqa: E402
from golfbox.table.journal import Journal  # noqa: E402
from golfbox.table.assemble import assemble_table  # noqa: E402
from golfbox.table.service import TableService, TableSettings  # noqa: E402

HUMAN = 0
SCRIPT_BUTTONS = (Button.LEFT, Button.RIGHT, Button.RIGHT, Button.BACK)


class DyingJournal(Journal):
    """A journal whose process is killed at its Nth record(), before or after the commit."""

    def __init__(self, path: Path, kill_at: int | None, when: str):
        super().__init__(path)
        self.kill_at, self.when, self.writes = kill_at, when, 0

    def record(self, match_id: int, seat: int | None, action: str) -> int:
        self.writes += 1
        if self.writes == self.kill_at and self.when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        seq = super().record(match_id, seat, action)
        if self.writes == self.kill_at and self.when == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return seq


def scripted_presses(seed: int, moves: int, attempt: int) -> list[tuple[Button, bool]]:
    """Seat 0's presses for one decision: a few moves of the cursor, sometimes a hold of ✕
    (knock), then ●. (button, held) pairs."""
    rng = random.Random(f"{seed}:{moves}:{attempt}")
    # ✕ first: the cursor back to the first choice. The cursor stays where a person left it,
    # and that is not journaled (a person looks at the screen), so a script that presses
    # blindly must start from a known place to press the same after a restart.
    presses = [(Button.BACK, False)]
    presses += [(rng.choice(SCRIPT_BUTTONS), False) for _ in range(rng.randrange(4))]
    if rng.random() < 0.1:
        presses.append((Button.BACK, True))
    presses.append((Button.OK, False))
    return presses


def play(service: TableService, pad: SimPad, seed: int) -> None:
    attempt, last_moves = 0, -1
    while True:
        service.run_until_idle()
        if service.state == "match_over":
            return
        moves = service.actions_played
        attempt = attempt + 1 if moves == last_moves else 0
        last_moves = moves
        for button, held in scripted_presses(seed, moves, attempt):
            (pad.hold if held else pad.press)(HUMAN, button)
            service.run_until_idle()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", required=True, type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--variant", default="4-card")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seats", type=int, help="seats at the table (default 3, or one more"
                        " than --bots names)")
    parser.add_argument("--kill-at", type=int)
    parser.add_argument("--kill-when", choices=("before", "after"), default="after")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--bots", help="the bots of seats 2, 3 …, comma separated (default random)")
    args = parser.parse_args()
    bots = args.bots.split(",") if args.bots else ["random"] * ((args.seats or 3) - 1)
    if args.seats is not None and args.seats != len(bots) + 1:
        # --bots names every seat but the person's: a --seats that disagrees was a
        # table of another size played in silence.
        parser.error(f"--seats {args.seats} but --bots names {len(bots)} bots (seats 2 to"
                     f" {len(bots) + 1}): name {args.seats - 1}, or leave --seats out")
    rules = {name: value == "true" if value in ("true", "false") else int(value)
             for name, value in (rule.split("=", 1) for rule in args.rule)}

    seats = len(bots) + 1
    settings = TableSettings(variant=args.variant, rules=rules, rounds=args.rounds, seats=seats,
                             bots=dict(enumerate(bots, start=1)),
                             bot_delay=0.0, auto_start=True, seed=args.seed)
    pad = SimPad(range(seats))
    displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in range(seats)}
    shared = SimDisplay("shared", (256, 64), "L")
    journal = DyingJournal(args.journal, args.kill_at, args.kill_when)
    service = assemble_table(settings, [pad], displays, shared, journal)
    play(service, pad, args.seed)
    result = {"totals": list(service.match.totals), "history": [list(r) for r in service.match.history],
              "actions": service.actions_played, "match_id": service.match_id}
    service.close()
    with sqlite3.connect(args.journal) as db:
        result["entries"] = db.execute("SELECT seq, seat, action FROM entry WHERE match_id = ?"
                                       " ORDER BY seq", (service.match_id,)).fetchall()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
