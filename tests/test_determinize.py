"""Public history in views, rounds built from a view plus unseen cards, fast copies.

Privacy stays as strict as ever: a view is the same whatever the cards its seat
has not seen, and a round dealt from a view uses nothing else.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.engine import (Action, Determinizer, Round, get_variant, make_rules, parse_card,
                            public_memory, unseen_cards)
from test_engine_properties import RULESETS
from tests.engine_helpers import stacked_round

games = st.tuples(st.sampled_from(RULESETS), st.integers(2, 6), st.integers(0, 2**32))


def new_round(rules_entry, players, seed):
    name, overrides = rules_entry
    variant = get_variant(name)
    players = min(players, variant.max_players)
    return Round(variant, make_rules(variant, overrides), players, dealer=seed % players,
                 rng=random.Random(seed))


def random_step(round_, rng):
    seat = rng.choice(round_.acting_seats)
    round_.apply(seat, rng.choice(round_.legal_actions(seat)))


def shuffle_hidden(round_, seat, rng):
    """A copy of ``round_`` with every card ``seat`` has not seen dealt anew among the
    places it cannot see: the stock, others' face-down cards, its own unseen ones."""
    other = round_.copy()
    places = [(s, p) for s in range(other.players) for p in range(other.variant.size)
              if not other.face_up[s] >> p & 1 and not (s == seat and other.known[s] >> p & 1)]
    cards = [other.grids[s][p] for s, p in places] + other.stock
    rng.shuffle(cards)
    for (s, p), card in zip(places, cards):
        other.grids[s][p] = card
    other.stock = cards[len(places):]
    return other


@settings(max_examples=150, deadline=None)
@given(games)
def test_a_view_is_the_same_whatever_the_cards_its_seat_has_not_seen(game):
    round_ = new_round(*game)
    rng = random.Random(game[2])
    while not round_.over:
        for seat in range(round_.players):
            if round_.held is not None and round_.held_from == "stock" and round_.to_move != seat:
                continue  # someone else's drawn card: it is in their hand, not shuffled here
            assert shuffle_hidden(round_, seat, rng).view(seat) == round_.view(seat)
        random_step(round_, rng)


@settings(max_examples=150, deadline=None)
@given(games)
def test_a_round_dealt_from_a_view_shows_that_view_and_plays_on(game):
    round_ = new_round(*game)
    rng = random.Random(game[2])
    while not round_.over:
        seat = rng.randrange(round_.players)
        view = round_.view(seat)
        world = Determinizer(view).sample(rng)
        assert world.view(seat) == view
        assert world.all_cards() == round_.initial_cards == world.initial_cards
        steps = 0
        while not world.over and steps < 3000:
            random_step(world, rng)
            steps += 1
        assert world.over and world.all_cards() == round_.initial_cards
        random_step(round_, rng)


@settings(max_examples=100, deadline=None)
@given(games)
def test_public_history_is_what_the_table_saw(game):
    round_ = new_round(*game)
    rng = random.Random(game[2])
    actions = 0
    while not round_.over:
        random_step(round_, rng)
        actions += 1
        table = round_.view(None).table
        assert len(table.history) == actions and table.history[-1] == table.last
        assert table.discard_pile == tuple(round_.discard) and table.turns == round_.turns
        assert table.owner_seen == tuple(round_.known)
        for seat, action, revealed in table.history:
            if action.kind in ("draw", "knock", "ready", "pass"):
                assert revealed is None  # a drawn card is seen by its drawer only
        # Cards everyone saw placed face down are where the history says.
        for seat, remembered in enumerate(public_memory(round_.view(None))):
            for pos, card in remembered.items():
                assert round_.grids[seat][pos] == card


@settings(max_examples=100, deadline=None)
@given(games)
def test_unseen_cards_are_the_cards_a_seat_cannot_locate(game):
    round_ = new_round(*game)
    rng = random.Random(game[2])
    while not round_.over:
        seat = rng.randrange(round_.players)
        unseen = unseen_cards(round_.view(seat))
        hidden = [round_.grids[s][p] for s in range(round_.players) for p in range(round_.variant.size)
                  if not round_.face_up[s] >> p & 1 and not (s == seat and round_.known[s] >> p & 1)]
        hidden += round_.stock
        if round_.held is not None and round_.to_move != seat and round_.held_from == "stock":
            hidden.append(round_.held)
        # In 4-card some hidden cards are remembered by everyone: those are not unseen.
        remembered = [c for s, m in enumerate(public_memory(round_.view(seat))) if s != seat
                      for c in m.values()]
        for card in remembered:
            hidden.remove(card)
        assert sorted(hidden) == unseen
        random_step(round_, rng)


@settings(max_examples=100, deadline=None)
@given(games)
def test_a_copy_plays_on_alone_and_like_the_original(game):
    round_ = new_round(*game)
    rng = random.Random(game[2])
    for _ in range(rng.randrange(30)):
        if round_.over:
            break
        random_step(round_, rng)
    before = (repr(round_.grids), repr(round_.stock), repr(round_._pub), round_.turns)
    copy = round_.copy()
    twin = round_.copy()
    moves = random.Random(1)
    while not copy.over:
        random_step(copy, moves)
    assert (repr(round_.grids), repr(round_.stock), repr(round_._pub), round_.turns) == before
    moves = random.Random(1)
    while not twin.over:
        random_step(twin, moves)
    assert twin.scores == copy.scores and twin.grids == copy.grids


def test_a_copy_of_a_seeded_round_reshuffles_as_the_round_does():
    """Round.copy(): "its shuffles (a stock running out) draw from a copy of this round's
    generator", so a seeded round and its copy run out of stock into the same new stock."""
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rng=random.Random(3))
    for seat in (0, 1):
        r.apply(seat, Action("flip", 0)), r.apply(seat, Action("flip", 1))
    for _ in range(3):
        for seat in (0, 1):
            r.apply(seat, Action("draw")), r.apply(seat, Action("discard"))
    r.stock[:] = r.stock[-1:]
    copy = r.copy()
    for round_ in (r, copy):
        round_.apply(0, Action("draw")), round_.apply(0, Action("discard"))
    assert len(r.stock) == 7 and copy.stock == r.stock


def test_a_card_taken_from_the_discard_and_placed_face_down_is_located_by_everyone():
    """4-card: everybody saw the 9H taken and where it went, face down; it is not among
    the cards another seat cannot locate (module docstring: card counting)."""
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8"], discard="9H")
    r.apply(0, Action("ready")), r.apply(1, Action("ready"))
    r.apply(0, Action("take")), r.apply(0, Action("place", 2))
    nine = parse_card("9H")
    assert public_memory(r.view(1))[0] == {2: nine} and r.face_up[0] == 0
    assert nine not in unseen_cards(r.view(1))


def test_a_view_that_does_not_fit_is_refused():
    round_ = new_round(("6-card", {}), 2, 3)
    view = round_.view(0)
    grids = [list(g) for g in round_.grids]
    try:
        Round.from_view(view, grids, round_.stock[:-1])
    except ValueError as exc:
        assert "stock" in str(exc)
    else:
        raise AssertionError("a short stock was accepted")


def test_views_and_rounds_pickle_and_deepcopy():
    """Rules used to hold a bare mappingproxy: deepcopy and pickle failed on any view."""
    import copy
    import pickle

    round_ = new_round(("polish-poker", {"knock_penalty": "double"}), 3, 5)
    view = round_.view(1)
    assert pickle.loads(pickle.dumps(view)) == view
    assert copy.deepcopy(view) == view
    assert copy.deepcopy(round_).view(1) == view


def test_a_view_that_locates_a_card_twice_is_refused():
    """A view that shows more copies of a card than the decks hold (its own grid says
    it holds the discard's top too) is an error, named, not a shorter list of unseen
    cards that card counting would go on from."""
    round_ = new_round(("6-card", {}), 2, 3)
    view = round_.view(0)
    doubled = view._replace(own_grid=(view.discard_top,) + view.own_grid[1:])
    with pytest.raises(ValueError, match="more copies"):
        unseen_cards(doubled)
