"""How much better could `hard` play if it knew more? Upper bounds, not bots.

    .venv/bin/python -W ignore bench/bot_ceiling.py --variant 4-card --matches 100

Plays bot_strength's matches line (2-player matches of 9 rounds against
`medium`, every match seed from both seats) with `hard` searching in rounds
dealt from more than its view shows:

  kept    it sees the face-down cards the others have seen themselves (peeked at,
          or placed and kept): the most that reading the others' play could ever
          give; the cards nobody has seen, its own unseen ones and the stock's
          order are still dealt at random;
  others  it sees all of the other player's face-down cards, even those its
          owner has not seen;
  own     it sees its own face-down cards, the ones it never saw too (in 4-card,
          its far row); the other's are dealt as ``hard`` deals them;
  all     it sees every grid card, its own unseen ones too.

These bots read the real round, so they exist only here, never at a table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_strength import matches_line, matches_summary  # noqa: E402  (beside this script)
from golfbox.bots import make_bot  # noqa: E402
from golfbox.bots.search import SearchBot  # noqa: E402
from golfbox.engine import Round, get_variant, make_rules, parse_rule_args  # noqa: E402


class SightedSearch(SearchBot):
    """hard, searching in copies of the real round instead of rounds dealt from its view."""

    def __init__(self, rng: random.Random, sees: str):
        super().__init__(rng)
        self.sees, self.real, self.seat = sees, None, None

    def search(self, view, legal):
        self.seat = view.seat
        return super().search(view, legal)

    def deal(self, dealer, kept, rng):
        if self.sees == "own":
            return self.deal_own(dealer, kept, rng)
        world = self.real.copy(rng)
        pool = list(world.stock)
        if self.sees in ("kept", "others"):  # unseen cards go back among the unknown
            holes = []
            for seat, grid in enumerate(world.grids):
                if seat == self.seat or self.sees == "kept":
                    seen = world.face_up[seat] | world.known[seat]
                    holes += [(seat, p) for p in range(len(grid)) if not seen >> p & 1]
            pool += [world.grids[s][p] for s, p in holes]
            rng.shuffle(pool)
            for s, p in holes:
                world.grids[s][p] = pool.pop()
        else:
            rng.shuffle(pool)
        world.stock = pool
        return world

    def deal_own(self, dealer, kept, rng):
        """A round as hard deals it, with each of its own face-down cards swapped with
        wherever the real card was dealt (the stock, a hole of the other's, a hidden
        held card): the unseen cards stay the same cards, and the rest stays random."""
        world = SearchBot.deal(dealer, kept, rng)
        mine, real = world.grids[self.seat], self.real.grids[self.seat]
        for pos, card in enumerate(real):
            if mine[pos] == card:
                continue
            if card in world.stock:
                i = world.stock.index(card)
                world.stock[i], mine[pos] = mine[pos], card
            elif world.held == card:
                world.held, mine[pos] = mine[pos], card
            else:  # a hole: the other's, or one of its own not put right yet
                seat, at = next((s, p) for s, p in dealer.holes if world.grids[s][p] == card
                                and (s != self.seat or p > pos))
                world.grids[seat][at], mine[pos] = mine[pos], card
        return world


def play_sighted(round_: Round, bots) -> None:
    """bot_strength's play loop, showing the sighted bots the real round."""
    while seats := round_.acting_seats:
        for seat in seats:
            bot = bots[seat]
            if isinstance(bot, SightedSearch):
                bot.real = round_
            round_.apply(seat, bot.choose(round_.view(seat)))


SIGHT = {"kept": "the cards the other kept", "others": "the other's face-down cards",
         "own": "its own face-down cards", "all": "every grid card"}


def make(name: str, rng: random.Random):
    if name.startswith("sees-"):
        return SightedSearch(rng, name.removeprefix("sees-"))
    return make_bot(name, rng)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="4-card")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--sees", choices=("kept", "others", "own", "all"), action="append")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    variant = get_variant(args.variant)
    rules = make_rules(variant, parse_rule_args(args.rule))
    for sees in args.sees or ("kept", "others", "all"):
        started = time.perf_counter()
        figures = matches_line(variant, rules, f"sees-{sees}", "medium", args.matches,
                               args.seed, make=make, play_round=play_sighted)
        print(f"matches {variant.name}: hard seeing {SIGHT[sees]} vs medium, "
              f"{matches_summary(*figures)}")
        print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
