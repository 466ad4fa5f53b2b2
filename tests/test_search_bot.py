"""The levels, and the search bot: deterministic, from its seat's view only."""

import random

from golfbox.bots import DEFAULT_BOT, LEVELS, make_bot
from golfbox.bots.search import SearchBot
from golfbox.engine import Determinizer, Round, get_variant, make_rules
from test_engine_properties import RULESETS


def round_at(name, overrides, players, seed, steps):
    variant = get_variant(name)
    round_ = Round(variant, make_rules(variant, overrides), players, rng=random.Random(seed))
    bots = [make_bot("medium", random.Random(seed + s)) for s in range(players)]
    for _ in range(steps):
        if round_.over:
            break
        seat = round_.acting_seats[0]
        round_.apply(seat, bots[seat].choose(round_.view(seat)))
    return round_


def test_levels_are_bots_and_hard_is_the_default():
    assert LEVELS == ("easy", "medium", "hard") and DEFAULT_BOT == "hard"
    for level in LEVELS:
        assert make_bot(level, random.Random(0)).name == level


def test_the_choice_depends_only_on_the_seed_and_the_view():
    """Same generator state and view: same choice, whatever happened before, and a
    round dealt anew from the view (other hidden cards) gets the same choice too."""
    for name, overrides in RULESETS:
        for steps in (9, 14):
            round_ = round_at(name, overrides, 3, steps, steps)
            if round_.over:
                continue
            seat = round_.acting_seats[0]
            view = round_.view(seat)
            bot = SearchBot(random.Random(7), playouts=24)
            first = bot.choose(view)
            again = SearchBot(random.Random(7), playouts=24)
            again.choose(round_.view((seat + 1) % 3) if round_.view((seat + 1) % 3).legal
                         else view)  # some other decision first: no effect on the next
            again._rng.seed(7)
            twin = Determinizer(view).sample(random.Random(99))  # other hidden cards
            assert first == again.choose(twin.view(seat)) and first in view.legal


def test_it_never_reads_the_round():
    """A view keeps no reference to the round: the bot decides from the snapshot alone,
    so changing the hidden cards of the real round afterwards changes nothing."""
    round_ = round_at("6-card", {"final_turn": True}, 4, 3, 10)
    seat = round_.acting_seats[0]
    view = round_.view(seat)
    choice = SearchBot(random.Random(1), playouts=24).choose(view)
    round_.stock.reverse()
    for grid in round_.grids:
        grid.reverse()
    assert SearchBot(random.Random(1), playouts=24).choose(view) == choice


def test_hard_goes_out_when_going_out_wins():
    """6-card, the round ends at once: hard holds an ace for its last face-down card,
    which makes its grid -1 while the other shows two queens: it goes out. Nothing
    tells it so but the futures it plays."""
    from engine_helpers import stacked_round
    from golfbox.engine import Action

    round_ = stacked_round("6-card", ["K K Q / Q Q 7", "Q J 10 / 9 8 6"], stock="K 9 K 9 2 9 A")
    for seat in (0, 1):
        round_.apply(seat, Action("flip", 0))
        round_.apply(seat, Action("flip", 1))
    for pos in (2, 3, 4):
        round_.apply(0, Action("draw"))
        round_.apply(0, Action("place", pos))
        round_.apply(1, Action("draw"))
        round_.apply(1, Action("discard"))
    round_.apply(0, Action("draw"))  # the ace
    view = round_.view(0)
    assert view.held >> 2 == 0
    choice = SearchBot(random.Random(3), playouts=60).choose(view)
    assert choice == Action("place", 5)
    round_.apply(0, choice)
    assert round_.over and round_.scores[0] == -1


def test_the_whole_budget_is_spent_on_actions_still_in_the_running():
    """Successive halving: every lap compares at least two actions, and the laps
    together spend the budget. Halving 3 actions straight to 1 once left the second
    lap playing 50 of the 100 play-outs on a lone action: half the budget wasted."""
    from golfbox.engine import HOLDING
    for steps in range(8, 40):
        round_ = round_at("6-card", {}, 2, steps, steps)
        seat = round_.acting_seats[0] if not round_.over else None
        if seat is not None and round_.view(seat).phase == HOLDING:
            break
    view = round_.view(seat)
    assert len(view.legal) >= 5
    for count in range(2, len(view.legal) + 1):
        bot = SearchBot(random.Random(3), playouts=100)
        bot.search(view, view.legal[:count])
        laps = bot.laps_spent
        assert all(alive >= 2 for alive, _ in laps), (count, laps)
        spent = sum(alive * batch for alive, batch in laps)
        assert 90 <= spent <= 100 + count * 8, (count, laps, spent)
