"""Every round ends, whatever the bots and house rules: a bound on turns per round."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.bots import BOTS, make_bot
from golfbox.engine import Round, get_variant, make_rules

# Every house rule combination of every variant (rules that take a number: off and on).
HOUSE_RULES = {
    "4-card": {"assist": (False, True), "knock_penalty": (0, 10, "double")},
    "6-card": {"final_turn": (False, True), "peek_row": (False, True), "four_of_a_kind": ("off", -10)},
    "polish-poker": {"choose_start": (False, True), "negative_pairs_keep": (False, True),
                     "knock_penalty": (0, 10, "double")},
    "9-card": {"lines": ("rows", "rows+columns")},
}
RULESETS = [(name, dict(zip(rules, values)))
            for name, rules in HOUSE_RULES.items()
            for values in itertools.product(*rules.values())]


def all_bots():
    make_bot("random", random.Random(0))  # registers every bot
    return sorted(BOTS)


def turn_bound(variant, players):
    """Own turns a bot may take before it must move the round to its end, plus the end."""
    return players * (30 + variant.size)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 4), st.integers(0, 2**32))
def test_every_bot_ends_every_round_within_a_bound(rules_entry, players, seed):
    name, overrides = rules_entry
    variant = get_variant(name)
    rules = make_rules(variant, overrides)
    bots = all_bots()
    rng = random.Random(seed)
    lineup = [make_bot(rng.choice([b for b in bots if b != "hard"] or bots), random.Random(seed + s))
              for s in range(players)]
    round_ = Round(variant, rules, players, dealer=seed % players, rng=random.Random(seed))
    play_round_bounded(round_, lineup, turn_bound(variant, players))


def play_round_bounded(round_, bots, bound):
    while seats := round_.acting_seats:
        assert round_.turns <= bound, f"{[b.name for b in bots]}: {round_.turns} turns, not over"
        for seat in seats:
            round_.apply(seat, bots[seat].choose(round_.view(seat)))


def test_greedy_peek_row_rounds_end():
    """6-card peek_row, two greedy bots: a peeked card stays face down unless something
    turns it up; on c41dba6 some rounds never ended (> 3,000 turns)."""
    variant = get_variant("6-card")
    rules = make_rules(variant, {"peek_row": True})
    for seed in range(300):
        bots = [make_bot("greedy", random.Random(seed * 2 + s)) for s in range(2)]
        round_ = Round(variant, rules, 2, dealer=seed % 2, rng=random.Random(seed))
        play_round_bounded(round_, bots, turn_bound(variant, 2))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 3), st.integers(0, 2**32))
def test_hard_ends_every_round_within_a_bound(rules_entry, players, seed):
    """The search bot, with a small budget so that the test stays quick."""
    from golfbox.bots.search import SearchBot

    name, overrides = rules_entry
    variant = get_variant(name)
    round_ = Round(variant, make_rules(variant, overrides), players, dealer=seed % players,
                   rng=random.Random(seed))
    lineup = [SearchBot(random.Random(seed + s), playouts=12) for s in range(players)]
    play_round_bounded(round_, lineup, turn_bound(variant, players))
