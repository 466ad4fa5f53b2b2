"""bench/bot_ceiling.py's ``--sees own``: its README figures are only bounds if every
round it deals holds the seat's real cards and nothing else changed."""

import random
import sys
from pathlib import Path

from golfbox.bots import make_bot
from golfbox.engine import Determinizer, Round, get_variant, make_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from bot_ceiling import SightedSearch  # noqa: E402


def test_seeing_its_own_cards_deals_them_where_they_are_and_keeps_the_rest_unseen():
    # 9-card: two decks, so a card's twin may lie in another hole.
    for name, players in (("4-card", 2), ("9-card", 2), ("6-card", 3)):
        variant = get_variant(name)
        round_ = Round(variant, make_rules(variant, {}), players, rng=random.Random(5))
        bots = [make_bot("medium", random.Random(s)) for s in range(players)]
        sighted = SightedSearch(random.Random(0), "own")
        dealt = others_moved = 0
        while not round_.over and dealt < 40:
            seat = round_.acting_seats[0]
            view = round_.view(seat)
            if seat == 0 and view.table.turns:
                sighted.real, sighted.seat = round_, 0
                dealer = Determinizer(view)
                kept = [(s, p) for s, p in dealer.holes if s != 0 and view.owner_seen[s] >> p & 1]
                world = sighted.deal(dealer, kept, random.Random(dealt))
                assert world.grids[0] == round_.grids[0]
                assert world.all_cards() == round_.all_cards()
                others_moved += any(world.grids[s] != round_.grids[s] for s in range(1, players))
                dealt += 1
            round_.apply(seat, bots[seat].choose(view))
        assert dealt > 5 and others_moved, name  # the others' unseen cards stay dealt at random
