"""Points RULES.md decides that no other test pinned (an audit of RULES.md line by line
against tests/; test_round.py and test_scoring.py hold the rest)."""

import itertools
import random

import pytest

from golfbox.engine import (Action, IllegalAction, Match, NotationError, Round, START, TURN, VARIANTS,
                            check_cards_exist, get_variant, make_rules, parse_card, parse_grid,
                            round_scores, suited_cards)
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
    assert one("6-card", "2 2 5 / 2 2 6", four_of_a_kind="on") == 1  # on: the -10 RULES.md names
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


# ---------------------------------------------------------------- the stock runs out, every variant

def _to_turns(r):
    """Play a round's start (peeks, turned-up cards, 9-card's first flips of the seat to
    move) so that the seat to move is at the start of an ordinary turn."""
    while r.phase == START:
        seat = r.acting_seats[0]
        r.apply(seat, r.legal_actions(seat)[0])
    while r.legal_actions(r.to_move)[0].kind == "flip":
        r.apply(r.to_move, r.legal_actions(r.to_move)[0])
    return r


def _play_drawn_card(r, seat, pos):
    """Draw from the stock; then discard it where the variant allows (turning nothing
    up after it in polish-poker), else place it at ``pos``. The stock's size when polish-
    poker offered to turn a card up (None in the other variants)."""
    r.apply(seat, DRAW)
    offered = None
    if DISCARD in r.legal_actions(seat):
        r.apply(seat, DISCARD)
        if r.phase == "flip_option":
            assert PASS in r.legal_actions(seat)
            offered = r.view(seat).stock_size
            r.apply(seat, PASS)
    else:
        r.apply(seat, place(pos))
    return offered


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_last_card_drawn_turns_the_discard_but_its_top_into_the_stock(name):
    """RULES.md "Stock runs out", in every variant (test_round.py pins it in 6-card): the
    turn that draws the stock's last card ends as usual, polish-poker's choice to turn a
    card up after the discard included; then the discard pile but its top card is the new
    stock, and the next seat plays on."""
    grids = {"4-card": ["A 2 / 3 4", "5 6 / 7 8"], "9-card": ["A 2 3 / 4 5 6 / 7 8 9"] * 2}
    r = _to_turns(stacked_round(name, grids.get(name, ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"]),
                                discard="9H", stock="4D 8S", rng=random.Random(1)))
    seat = r.to_move
    r.stock[:] = r.stock[-1:]  # the 4D is the last card to draw
    pile, replaced = list(r.discard), r.grids[seat][0]
    offered = _play_drawn_card(r, seat, pos=0)
    assert offered == (0 if name == "polish-poker" else None)  # the turn went on, stock or not
    # The top card stays: the card drawn and discarded, or the card it replaced (9-card).
    assert r.discard == [parse_card("4D") if r.variant.draw_and_discard else replaced]
    assert sorted(r.stock) == sorted(pile) and r.view(None).table.stock_size == len(pile)
    assert not r.over and r.to_move == (seat + 1) % 2 and r.phase == TURN


ENDINGS = [("4-card", {"knock_penalty": 5}), ("polish-poker", {}), ("6-card", {"final_turn": True}),
           ("9-card", {})]


@pytest.mark.parametrize("name,rules", ENDINGS)
def test_the_stock_running_out_in_the_final_turns_neither_ends_nor_skips_them(name, rules):
    """After a knock or a last card turned up, the stock may run out in a final turn: the
    discard but its top becomes the stock, and each other seat still plays its turn."""
    r = _rounds_ending_with(name, rules, 3, seed=7)
    assert not r.over and r.final_turns_left == 2
    ender, seat = r.ender, r.to_move
    r.stock[:] = r.stock[-1:]
    pile = len(r.discard)
    _play_drawn_card(r, seat, pos=0)
    assert len(r.discard) == 1 and len(r.stock) == pile  # the pile plus the card played, but its top
    assert not r.over and r.final_turns_left == 1 and r.to_move == (seat + 1) % 3 != ender
    _play_drawn_card(r, r.to_move, pos=0)
    assert r.over


@pytest.mark.parametrize("name,rules", ENDINGS)
def test_no_card_to_draw_in_the_final_turns_ends_the_round_with_the_enders_penalty(name, rules):
    """RULES.md: if the reshuffled discard still leaves no card to draw, "the round ends at
    once and is scored". In the final turns the round already has its ender, whose knock
    or finisher penalty is scored as usual (the engine's reading: RULES.md does not say)."""
    r = _rounds_ending_with(name, rules, 3, seed=7)
    ender, variant = r.ender, r.variant
    r.stock[:] = r.stock[-1:]
    r.discard.clear()  # what the seat plays will be the whole pile
    _play_drawn_card(r, r.to_move, pos=0)
    assert r.over and r.ender == ender and r.final_turns_left is None
    ranks = [[c >> 2 for c in grid] for grid in r.grids]
    assert list(r.scores) == round_scores(variant, r.rules, ranks, ender=ender,
                                          knocked=variant.can_knock)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_card_taken_from_the_discard_is_placed_in_every_variant(name):
    """4-card "it may not go back on the discard", polish-poker "it may not be discarded
    again", 6-card and 9-card offer no other way (test_round.py pins 4-card only)."""
    grids = {"4-card": ["A 2 / 3 4", "5 6 / 7 8"], "9-card": ["A 2 3 / 4 5 6 / 7 8 9"] * 2}
    r = _to_turns(stacked_round(name, grids.get(name, ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"]),
                                discard="9H", rng=random.Random(1)))
    seat = r.to_move
    r.apply(seat, TAKE)
    assert {a.kind for a in r.legal_actions(seat)} == {"place"}
    with pytest.raises(IllegalAction, match="must be placed, not discarded"):
        r.apply(seat, DISCARD)
    r.apply(seat, place(3))
    assert r.grids[seat][3] == parse_card("9H") and r.to_move == 1 - seat


def test_six_card_three_paired_columns_of_one_rank_are_one_four_of_a_kind():
    """Six jacks (two decks, from 5 players): "two columns that are pairs of the same rank"
    score the rule's number together; the third pair scores 0 as any pair does."""
    assert one("6-card", "J J J / J J J") == 0
    assert one("6-card", "J J J / J J J", four_of_a_kind=-10) == -10


def test_each_deck_holds_one_card_of_each_suit():
    """"one 52-card deck, two from 5 players": a card written with its suit exists once in
    a deck, twice in two decks."""
    variant = get_variant("6-card")
    grids = ["7H 5 K / 7S 6 K", "7H 5 Q / 8 6 Q"]
    cards = [parse_grid(g, variant) for g in grids]
    check_cards_exist(cards[:1], variant, 2, suited_cards(grids[0]))  # one 7H: fine
    with pytest.raises(NotationError, match="2 cards 7H, but 1 deck"):
        check_cards_exist(cards, variant, 2, suited_cards(" / ".join(grids)))
    check_cards_exist(cards, variant, 5, suited_cards(" / ".join(grids)))  # two decks


def test_nine_card_lines_of_two_ranks_keep_their_own_scores():
    """"Two complete lines of the same rank score -30 together": lines of two ranks score
    each its own (a line of kings -10, of jokers -20, of another rank 0)."""
    assert one("9-card", "K K K / JK JK JK / A 2 3") == -10 - 20 + 6
    assert one("9-card", "7 7 7 / JK JK JK / A 2 3") == 0 - 20 + 6
    assert one("9-card", "K K K / 7 7 7 / A 2 3") == -10 + 0 + 6
    assert one("9-card", "K 7 A / K 7 2 / K 7 3", lines="rows+columns") == -10 + 0 + 6
    # Two lines of jokers would need six of the four jokers two decks hold.
    variant = get_variant("9-card")
    with pytest.raises(NotationError, match="6 cards of rank JK, but 2 deck"):
        check_cards_exist([parse_grid("JK JK JK / JK JK JK / A 2 3", variant)], variant, 8)
