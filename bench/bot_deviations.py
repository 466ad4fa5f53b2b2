"""Where hard's search overrules its play-out player, and whether it was right.

    .venv/bin/python -W ignore bench/bot_deviations.py --variant 4-card --deals 60

Plays 4-player rounds, `hard` in seat 0 against three `medium`. At each of hard's
decisions where the search picks another action than the play-out player's own
choice, both actions are played on from the *real* round (every card as it
lies) by four `medium` players, ROLLOUTS times each over the same seeds: the
difference is what the overruling was truly worth (negative: it was right).
Grouped by (play-out player's action, search's action). This is how the faults
in the Bots section of bench/results/NOTES.md (README's, before) were found: in
4-card, taking the discard where the play-out player draws cost 2.6 points,
because the others' kept cards were dealt as if unseen; in 9-card, hard's
spread-out first flips cost 5.6.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_strength import margin, play  # noqa: E402  (beside this script)
from golfbox.bots import make_bot  # noqa: E402
from golfbox.bots.search import SearchBot  # noqa: E402
from golfbox.engine import Round, get_variant, make_rules, parse_rule_args  # noqa: E402


def played_on(round_: Round, seat: int, action, seed: int) -> float:
    """Seat's round score minus the others' mean, after ``action`` and medium play."""
    r = round_.copy(random.Random(seed))
    r.apply(seat, action)
    play(r, [make_bot("medium", random.Random(f"{seed}:{s}")) for s in range(r.players)])
    return margin(r.scores, seat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="4-card")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--rollouts", type=int, default=30)
    parser.add_argument("--per-kind", type=int, default=15, help="deviations valued per group")
    args = parser.parse_args()
    variant = get_variant(args.variant)
    rules = make_rules(variant, parse_rule_args(args.rule))
    count, worth = collections.Counter(), collections.defaultdict(list)
    for deal in range(args.deals):
        hard = SearchBot(random.Random(f"hard:{deal}"))
        bots = [hard] + [make_bot("medium", random.Random(f"{deal}:{s}")) for s in (1, 2, 3)]
        round_ = Round(variant, rules, 4, dealer=deal % 4, rng=random.Random(f"deal:{deal}"))
        while seats := round_.acting_seats:
            for seat in seats:
                view = round_.view(seat)
                hard.default = None
                action = bots[seat].choose(view)
                default = hard.default if seat == 0 else None
                if default is not None and default != action:
                    key = (default.kind, action.kind)
                    count[key] += 1
                    if len(worth[key]) < args.per_kind:
                        worth[key].append(statistics.fmean(
                            played_on(round_, seat, action, i) - played_on(round_, seat, default, i)
                            for i in range(args.rollouts)))
                round_.apply(seat, action)
    print(f"{variant.name}: {args.deals} deals, hard's overrulings (play-out player -> search)")
    for key, n in count.most_common():
        values = worth[key]
        print(f"  {key[0]:>7} -> {key[1]:<7} {n:4d} times; worth {statistics.fmean(values):+.2f} "
              f"points a time (valued {len(values)}; negative: search was right)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
