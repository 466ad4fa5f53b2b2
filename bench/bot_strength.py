"""Bot strength: levels against each other over fixed deals, with 95 % intervals.

    .venv/bin/python -W ignore bench/bot_strength.py --line table --variant 6-card \
        --rule final_turn=on --rounds 2000
    .venv/bin/python -W ignore bench/bot_strength.py --line matches --variant 4-card \
        --rounds 250

Lines:
  table    4 players (or --players), one HERO against the others, all VILLAIN:
           every deal is played once with the hero in each seat (seats rotated
           over the same deals).
           Reported: the hero's round score minus the others' mean, per round
           (negative: the hero is better), with its 95 % interval over deals,
           and the hero's decision time (CPU time, decisions with a choice).
  matches  2 players, matches of 9 rounds, HERO against VILLAIN, every match
           seed played twice with the seats swapped: the hero's share of wins
           (a tie is half a win), with its 95 % interval; and the hero's match
           total minus the villain's, per round (how big an edge the wins rest on).

Everything is seeded: the same command prints the same figures (the times aside).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.bots import make_bot  # noqa: E402
from golfbox.engine import Match, Round, get_variant, make_rules, parse_rule_args  # noqa: E402


def interval(samples: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
    return mean, half


class Timed:
    """A bot whose decisions with a real choice are timed in CPU time."""

    def __init__(self, bot, times: list[float]):
        self.bot, self.times, self.name = bot, times, bot.name
        self.needs_view = True

    def choose(self, view):
        started = time.process_time()
        action = self.bot.choose(view)
        if len(view.legal) > 1:
            self.times.append(time.process_time() - started)
        return action


def play(round_: Round, bots) -> None:
    while seats := round_.acting_seats:
        for seat in seats:
            round_.apply(seat, bots[seat].choose(round_.view(seat)))


def margin(scores, seat: int) -> float:
    """Seat's score minus the mean of the others' (negative: the seat did better)."""
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def deal_margins(variant, rules, hero, villain, deals, players, seed=1, times=None) -> list:
    """Per deal, the hero's mean margin (its score − the others' mean) over the rounds
    of that deal, one with the hero in each seat; ``times``, when given, collects the
    hero's decision times."""
    per_deal = []
    for deal in range(deals):
        diffs = []
        for hero_seat in range(players):
            bots = [make_bot(hero if s == hero_seat else villain,
                             random.Random(f"{seed}:{deal}:{hero_seat}:{s}"))
                    for s in range(players)]
            if times is not None:
                bots[hero_seat] = Timed(bots[hero_seat], times)
            round_ = Round(variant, rules, players, dealer=deal % players,
                           rng=random.Random(f"{seed}:{deal}"))
            play(round_, bots)
            diffs.append(margin(round_.scores, hero_seat))
        per_deal.append(statistics.fmean(diffs))
    return per_deal


def table_line(variant, rules, hero, villain, rounds, seed=1, players=4):
    """Per-deal mean of (hero − others' mean), over rounds // players deals × players seats."""
    deals, times = max(1, rounds // players), []
    per_deal = deal_margins(variant, rules, hero, villain, deals, players, seed, times)
    return interval(per_deal), times, deals * players


def matches_line(variant, rules, hero, villain, matches, seed=1, make=make_bot, play_round=play):
    """The hero's share of 2-player match wins, each match seed played from both seats.
    (``make`` builds a bot from a name and a generator; ``play_round`` plays a round.)"""
    wins, margins = [], []
    for m in range(max(1, matches // 2)):
        for hero_seat in (0, 1):
            bots = [make(hero if s == hero_seat else villain,
                         random.Random(f"{seed}:{m}:{hero_seat}:{s}")) for s in range(2)]
            match = Match(variant, 2, rules, rounds=9, seed=hash((seed, m)) & 0xFFFFFFFF)
            while True:
                play_round(match.round, bots)
                match.apply_round_end()
                if match.over:
                    break
                match.next_round()
            mine, theirs = match.totals[hero_seat], match.totals[1 - hero_seat]
            wins.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
            margins.append((mine - theirs) / 9)
    return interval(wins), interval(margins), len(wins)


def matches_summary(wins, margins, matches: int) -> str:
    """matches_line's figures as one line: share of wins, and the margin per round."""
    (mean, half), (per_round, per_round_half) = wins, margins
    return (f"{matches} matches of 9 rounds: {100 * mean:.1f} % ± {100 * half:.1f} wins; "
            f"{per_round:+.2f} ± {per_round_half:.2f} points a round")


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=("table", "matches"), default="table")
    parser.add_argument("--variant", default="6-card")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--villain", default="medium")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds (table) or matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, help="table line only")
    args = parser.parse_args()
    variant = get_variant(args.variant)
    rules = make_rules(variant, parse_rule_args(args.rule))
    changed = {k: v for k, v in rules.items() if v != next(
        s.default for s in variant.rule_specs if s.name == k)}
    label = f"{variant.name} {changed or ''}".strip()
    started = time.perf_counter()
    if args.line == "table":
        (mean, half), times, rounds = table_line(variant, rules, args.hero, args.villain,
                                                 args.rounds, args.seed, args.players)
        timing = (f"decision median {statistics.median(times) * 1000:.1f} ms, "
                  f"p99 {percentile(times, 0.99) * 1000:.1f} ms ({len(times)} decisions)"
                  if times else "")
        print(f"table   {label}: {args.hero} vs {args.players - 1} {args.villain}, "
              f"{rounds} rounds: "
              f"{mean:+.2f} ± {half:.2f} points a round; {timing}")
    else:
        figures = matches_line(variant, rules, args.hero, args.villain, args.rounds, args.seed)
        print(f"matches {label}: {args.hero} vs {args.villain}, {matches_summary(*figures)}")
    print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
