"""Engine speed: random and greedy rounds per second for every variant, on one core.

    .venv/bin/python bench/engine_speed.py            # the README table
    .venv/bin/python bench/engine_speed.py --quick    # a smaller run

Rounds are played through golfbox.bots.simulate.simulate, as `golfbox simulate`
plays them. Each figure is the best of several repeats measured in process CPU
time, so another busy process on the machine does not count against it. The
greedy bot's mean round score is reported against random and against itself.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.engine import VARIANTS, get_variant, make_rules  # noqa: E402
from golfbox.bots import simulate as sim  # noqa: E402


def rounds_per_s(variant, players, bots, rounds, repeats, full_views=False):
    """Best-of-``repeats`` rounds per CPU second."""
    rules = make_rules(variant, {})
    best = 0.0
    for repeat in range(repeats):
        started = time.process_time()
        result = sim.simulate(variant, players, rules, matches=rounds // 9, rounds=9,
                              bots=bots, seed=repeat, full_views=full_views)
        best = max(best, result.rounds / (time.process_time() - started))
    return best


def mean_scores(variant, players, bots, matches):
    result = sim.simulate(variant, players, make_rules(variant, {}), matches=matches, rounds=9,
                          bots=bots, seed=2026)
    return [s / result.rounds for s in result.round_score_sum]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds, repeats, matches = (900, 3, 20) if args.quick else (4500, 7, 200)

    print(f"Python {sys.version.split()[0]}, {rounds} rounds per repeat, best of {repeats} (CPU time)")
    print(f"{'variant':<13} {'players':>7} {'random':>10} {'random*':>10} {'greedy':>10}   rounds/s")
    for name in VARIANTS:
        variant = get_variant(name)
        for players in (2, 4):
            fast = rounds_per_s(variant, players, ["random"] * players, rounds, repeats)
            full = rounds_per_s(variant, players, ["random"] * players, rounds, repeats, True)
            greedy = rounds_per_s(variant, players, ["greedy"] * players, rounds // 5, repeats)
            print(f"{name:<13} {players:>7} {fast:>10,.0f} {full:>10,.0f} {greedy:>10,.0f}")
    print("random*: the random bot handed its whole view every decision, not just its legal actions")
    print()
    print(f"greedy's mean round score, 4 players, {matches} matches of 9 rounds:")
    print(f"{'variant':<13} {'greedy vs 3 random':>20} {'random':>8} {'greedy vs 3 greedy':>20}")
    for name in VARIANTS:
        variant = get_variant(name)
        mixed = mean_scores(variant, 4, ["greedy", "random", "random", "random"], matches)
        alike = mean_scores(variant, 4, ["greedy"] * 4, matches)
        print(f"{name:<13} {mixed[0]:>20.2f} {sum(mixed[1:]) / 3:>8.2f} {sum(alike) / 4:>20.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
