"""Points RULES.md decides that no other test pinned (an audit of RULES.md line by line
against tests/; test_round.py and test_scoring.py hold the rest)."""

import itertools
import random

import pytest

from golfbox.engine import (Action, IllegalAction, Match, Round, START, TURN, VARIANTS,
                            get_variant, make_rules, parse_card, round_scores)
from tests.engine_helpers import finishing_action, stacked_round
from tests.test_scoring import one, score

DRAW, TAKE, DISCARD, KNOCK, PASS, READY = (Action(k) for k in
                                            ("draw", "take", "discard", "knock", "pass", "ready"))


def place(pos):
    return Action("place", pos)


# ---------------------------------------------------------------- common to all variants

def test_suits_never_score():
    """"Suits never score": a pair, a line, a value are the rank's, whatever the suits."""
    assert one("6-card", "7H 5 K / 7S 6 K") == 0 + 11 + 0  # a pair of 7s of two suits
    assert one("polish-poker", "QC 5 K / QD 6 K") == 11
    assert one("9-card", "KH KS KD / 2 3 4 / 5 6 7") == -10 + 27
    assert one("4-card", "AS AH / AD AC") == one("4-card", "A A / A A") == 4


@pytest.mark.parametrize("name,low,high", [("4-card", 2, 10), ("6-card", 2, 8),
                                           ("polish-poker", 2, 8), ("9-card", 2, 8)])
def test_each_variant_takes_exactly_its_players(name, low, high):
    for players in (low, high):
        assert Match(name, players, seed=1).players == players
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"{name} is for {low}-{high} players, not {players}"):
            Match(name, players)


def _rounds_ending_with(name, rules, players, seed):
    """A round of ``name`` played by finishing_action up to the seat that ends it, and
    that seat; None when the stock ran dry first."""
    variant = get_variant(name)
    r = Round(variant, make_rules(variant, rules), players, dealer=seed % players,
              rng=random.Random(seed))
    while r.ender is None and not r.over:
        seat = r.acting_seats[0]
        action = finishing_action(r, seat)
        if action.kind == "knock" and r.turns < 2 * players:
            action = next(a for a in r.legal_actions(seat) if a.kind == "draw")  # play a little first
        r.apply(seat, action)
    return r


@pytest.mark.parametrize("name,rules", [("4-card", {}), ("polish-poker", {}),
                                        ("6-card", {"final_turn": True}), ("9-card", {})])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_other_player_has_exactly_one_more_turn_then_the_round_ends(name, rules, players):
    """4-card and polish-poker after a knock, 6-card (final_turn) and 9-card after the last
    card up: each other seat plays once, in turn, the ender never again, and no one knocks."""
    r = _rounds_ending_with(name, rules, players, seed=players)
    assert not r.over
    ender, movers = r.ender, []
    while not r.over:
        seat = r.to_move
        if r.phase == TURN:
            movers.append(seat)
            assert KNOCK not in r.legal_actions(seat)
        r.apply(seat, finishing_action(r, seat))
    assert movers == [(ender + i) % players for i in range(1, players)]


# ---------------------------------------------------------------- 4-card

@pytest.mark.parametrize("rules", [{}, {"assist": True, "knock_penalty": "double"}])
def test_four_card_no_card_is_face_up_before_the_round_ends(rules):
    """"All cards stay face down until the round ends", a peek and a placed card too."""
    for seed in range(20):
        variant = get_variant("4-card")
        r = Round(variant, make_rules(variant, rules), 3, rng=random.Random(seed))
        rng = random.Random(seed)
        while not r.over:
            assert r.face_up == [0, 0, 0] and r.view(None).grids == ((None,) * 4,) * 3
            seat = rng.choice(r.acting_seats)
            r.apply(seat, rng.choice(r.legal_actions(seat)))
        assert r.face_up == [0b1111] * 3


# ---------------------------------------------------------------- 6-card

def test_six_card_a_card_may_replace_a_face_up_card():
    """"place it face up in place of any card, face up or face down": the face-up card
    it replaces goes onto the discard pile."""
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], stock="K")
    r.apply(0, Action("flip", 0)), r.apply(0, Action("flip", 1))
    r.apply(1, Action("flip", 0)), r.apply(1, Action("flip", 1))
    r.apply(0, DRAW)
    assert place(0) in r.legal_actions(0)
    r.apply(0, place(0))
    assert r.grids[0][0] == parse_card("K") and r.discard[-1] == parse_card("A")
    assert r.face_up[0] == 0b11 and r.view(1).grids[0][0] == parse_card("K")


def test_six_card_four_of_a_kind_of_twos_and_of_other_ranks():
    """A pair of 2s scores 0 like any pair; two of them are four of a kind."""
    assert one("6-card", "2 2 5 / 2 2 6") == 11
    assert one("6-card", "2 2 5 / 2 2 6", four_of_a_kind=-10) == 1
    assert one("6-card", "2 2 5 / 2 2 6", four_of_a_kind="off") == 11
    assert one("6-card", "2 K 5 / 2 K 6", four_of_a_kind=-10) == 11  # two ranks: no


def test_six_card_peek_row_with_final_turn_plays_as_both_say():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"],
                      rules={"peek_row": True, "final_turn": True})
    assert r.phase == START and r.legal_actions(0) == (READY,)
    r.apply(0, READY), r.apply(1, READY)
    assert r.face_up == [0, 0] and r.view(0).known == 0b111000
    for pos in range(6):
        r.apply(0, DRAW), r.apply(0, place(pos))
        if pos < 5:
            r.apply(1, DRAW), r.apply(1, DISCARD)
    assert r.ender == 0 and not r.over and r.final_turns_left == 1
    r.apply(1, DRAW), r.apply(1, DISCARD)
    assert r.over


# ---------------------------------------------------------------- polish-poker

@pytest.mark.parametrize("off", [0, "off"])
def test_polish_poker_knock_penalty_off(off):
    low, high = "K K A / K K 2", "5 6 7 / 8 9 10"
    assert score("polish-poker", high, low, ender=0, knock_penalty=off) == [45, 3]


def test_polish_poker_negative_pairs_keep_changes_only_jokers():
    assert one("polish-poker", "5 K 7 / 5 K 8", negative_pairs_keep=True) == 15
    assert one("polish-poker", "JK K 7 / A K 8", negative_pairs_keep=True) == -2 + 1 + 15


# ---------------------------------------------------------------- 9-card

def test_nine_card_nobody_looks_at_the_deal():
    m = Match("9-card", 4, seed=5)
    r = m.round
    assert r.phase == TURN and r.known == [0] * 4 and r.face_up == [0] * 4
    for seat in range(4):
        assert r.view(seat).grids == ((None,) * 9,) * 4


def test_nine_card_a_face_down_card_chosen_is_replaced_for_good():
    """"Choosing a face-down card is final": the card goes to the discard face up, the new
    one lies face up in its place, and the seat's turn is over."""
    r = stacked_round("9-card", ["A 2 3 / 4 5 6 / 7 8 9", "K K K / Q Q Q / J J J"], stock="10")
    for pos in (0, 1, 2):
        r.apply(0, Action("flip", pos))
    r.apply(0, DRAW), r.apply(0, place(8))
    assert r.grids[0][8] == parse_card("10") and r.discard[-1] == parse_card("9")
    assert r.face_up[0] == 0b100000111 and r.to_move == 1
    with pytest.raises(IllegalAction):
        r.apply(0, TAKE)


# ---------------------------------------------------------------- every house rule together

def _every_setting(variant):
    specs = variant.rule_specs
    for values in itertools.product(*[spec.choices(spec.default) for spec in specs]):
        yield {s.name: "off" if v is None else v for s, v in zip(specs, values)}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_combination_of_house_rules_plays_to_the_end(name):
    """Every value a lobby offers for each house rule, in every combination: a round ends
    and its scores are the rules' (the property tests draw from a few combinations)."""
    variant = get_variant(name)
    for seed, overrides in enumerate(_every_setting(variant)):
        rules = make_rules(variant, overrides)
        players = 2 + seed % (variant.max_players - 1)
        rng = random.Random(seed)
        r = Round(variant, rules, players, rng=rng)
        while not r.over:
            seat = rng.choice(r.acting_seats)
            r.apply(seat, rng.choice(r.legal_actions(seat)))
        ranks = [[c >> 2 for c in grid] for grid in r.grids]
        assert list(r.scores) == round_scores(variant, rules, ranks, ender=r.ender,
                                              knocked=r.knocker is not None), overrides
