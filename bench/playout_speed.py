"""Play-out speed: what one of hard's play-outs costs, per variant, on one core.

    .venv/bin/python bench/playout_speed.py
    .venv/bin/python bench/playout_speed.py --positions 50   # a smaller run

The positions are those hard meets: rounds played by 4 `medium` bots, stopped at
every turn of one seat, dealt from that seat's view (golfbox.engine.determinize)
as the search deals them. From each, play-outs run with the search's own turn
limit (horizon_for: 4 turns per player at 4 players). Reported: microseconds per
play-out (copy, play, score), the best of several repeats in process CPU time, so
another busy process does not count against it. Compare two commits by running
this script in each, alternating, on the same machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.bots import make_bot  # noqa: E402
from golfbox.bots.playout import PlayoutPolicy, final_scores, playout  # noqa: E402
from golfbox.bots.search import horizon_for  # noqa: E402
from golfbox.engine import (TURN, VARIANTS, Determinizer, Round, get_variant,  # noqa: E402
                            make_rules)

PLAYERS = 4


def positions(variant, rules, count: int, seed: int = 1) -> list:
    """Dealt rounds at the start of seat 0's turns, from seat 0's view."""
    rng, out, deal = random.Random(seed), [], 0
    while len(out) < count:
        round_ = Round(variant, rules, PLAYERS, dealer=deal % PLAYERS, rng=random.Random(deal))
        bots = [make_bot("medium", random.Random(f"{deal}:{s}")) for s in range(PLAYERS)]
        while (seats := round_.acting_seats) and len(out) < count:
            for seat in seats:
                view = round_.view(seat)
                if seat == 0 and view.phase == TURN and not view.flips_due and len(view.legal) > 1:
                    out.append(Determinizer(view).sample(rng))
                round_.apply(seat, bots[seat].choose(view))
        deal += 1
    return out


def microseconds_per_playout(variant, worlds, per_world: int, repeats: int) -> float:
    policy = PlayoutPolicy(variant, worlds[0].rules)
    rng = random.Random(7)
    best = float("inf")
    ahead = horizon_for(variant.name, PLAYERS) * PLAYERS  # turns, as the search looks ahead
    for _ in range(repeats):
        started = time.process_time()
        for world in worlds:
            limit = world.turns + ahead
            for _ in range(per_world):
                r = world.copy(rng)
                playout(r, policy, limit)
                final_scores(r)
        best = min(best, time.process_time() - started)
    return best / (len(worlds) * per_world) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--per-position", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{PLAYERS} players, {args.positions} positions × {args.per_position} play-outs, "
          f"best of {args.repeats} (CPU time)")
    for name in VARIANTS:
        variant = get_variant(name)
        worlds = positions(variant, make_rules(variant, {}), args.positions)
        us = microseconds_per_playout(variant, worlds, args.per_position, args.repeats)
        print(f"{name:<13} {us:8.0f} µs a play-out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
