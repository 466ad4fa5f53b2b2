"""Properties over many random seeded games, every variant and house rule."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.engine import (Action, IllegalAction, KINDS, KINDS_WITH_POS, Round, get_variant,
                            make_rules, round_scores)

RULESETS = [
    ("4-card", {}), ("4-card", {"assist": True, "knock_penalty": 5}),
    ("6-card", {}), ("6-card", {"final_turn": True}), ("6-card", {"peek_row": True}),
    ("6-card", {"four_of_a_kind": -10}),
    ("polish-poker", {}), ("polish-poker", {"choose_start": True, "negative_pairs_keep": True}),
    ("polish-poker", {"knock_penalty": "double"}),
    ("9-card", {}), ("9-card", {"lines": "rows+columns"}),
]

games = st.tuples(st.sampled_from(RULESETS), st.integers(2, 8), st.integers(0, 2**32))


def every_action(size):
    return [Action(k, p) for k in KINDS if k in KINDS_WITH_POS for p in range(size)] + \
        [Action(k) for k in KINDS if k not in KINDS_WITH_POS]


def check_view(round_, seat):
    """A seat's view holds no face-down card it has not seen, and nothing else hides in it."""
    view = round_.view(seat)
    for other, grid in enumerate(view.grids):
        for pos, card in enumerate(grid):
            up = round_.face_up[other] >> pos & 1
            seen = other == seat and round_.known[seat] >> pos & 1
            if up or seen:
                assert card == round_.grids[other][pos]
            else:
                assert card is None
    if view.held is not None:
        assert round_.to_move == seat or round_.held_from == "discard"
    # Nothing in the view's slots references the round or a hidden grid.
    for value in (view.table, view.legal, view.own_grid, view.known, view.held):
        assert not isinstance(value, (Round, list))


def play(rules_entry, players, seed, probe):
    name, overrides = rules_entry
    variant = get_variant(name)
    players = min(players, variant.max_players)
    rng = random.Random(seed)
    round_ = Round(variant, make_rules(variant, overrides), players, dealer=seed % players, rng=rng)
    everything = every_action(variant.size)
    steps = 0
    while not round_.over:
        steps += 1
        assert steps < 5000, "a round with random play did not end"
        seat = rng.choice(round_.acting_seats)
        legal = round_.legal_actions(seat)
        assert legal
        if probe:
            assert round_.all_cards() == round_.initial_cards
            for s in range(players):
                check_view(round_, s)
            # Every other action is rejected and changes nothing.
            before = (repr(round_.grids), repr(round_.stock), repr(round_._pub))
            for action in everything:
                if action not in legal:
                    try:
                        round_.apply(seat, action)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"{action} accepted but not legal")
            assert (repr(round_.grids), repr(round_.stock), repr(round_._pub)) == before
        round_.apply(seat, rng.choice(legal))
    assert round_.all_cards() == round_.initial_cards
    ranks = [[c >> 2 for c in grid] for grid in round_.grids]
    rescored = round_scores(variant, round_.rules, ranks, ender=round_.ender,
                            knocked=round_.knocker is not None)
    assert list(round_.scores) == rescored
    assert all(up == (1 << variant.size) - 1 for up in round_.face_up)
    public = round_.view(None)
    assert public.grids == tuple(tuple(g) for g in round_.grids)  # all revealed at the end
    return round_


@settings(max_examples=400, deadline=None)
@given(games)
def test_random_rounds_keep_every_invariant(game):
    play(*game, probe=True)


@settings(max_examples=2000, deadline=None)
@given(games)
def test_every_random_round_ends_and_rescoring_agrees(game):
    play(*game, probe=False)


@given(st.sampled_from(RULESETS), st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_same_seed_same_round(rules_entry, seed):
    a = play(rules_entry, 3, seed, probe=False)
    b = play(rules_entry, 3, seed, probe=False)
    assert a.grids == b.grids and a.scores == b.scores and a.turns == b.turns


def test_without_seed_shuffles_use_the_os():
    from golfbox.engine import Match

    match = Match("6-card", 2)
    assert isinstance(match.rng, random.SystemRandom)
    decks = {tuple(Match("6-card", 2).round.stock) for _ in range(5)}
    assert len(decks) == 5
