"""The round state machine: deal, start phases, turns, every end condition, match."""

import random
import re

import pytest

from golfbox.engine import (Action, FLIP_OPTION, IllegalAction, Match, PublicTable, Round, START,
                            TURN, get_variant, make_rules, parse_card)
from tests.engine_helpers import finishing_action, stacked_round

DRAW, TAKE, DISCARD, KNOCK, PASS, READY = (Action(k) for k in
                                            ("draw", "take", "discard", "knock", "pass", "ready"))


def place(pos):
    return Action("place", pos)


def flip(pos):
    return Action("flip", pos)


def state(round_):
    """Everything that changes, to prove an illegal action changed nothing."""
    return (list(map(list, round_.grids)), list(round_.stock), list(round_.discard), round_.held,
            list(round_.face_up), list(round_.known), tuple(round_._pub), list(round_.start_pending),
            list(round_.first_flips))


# ---------------------------------------------------------------- deal and decks

@pytest.mark.parametrize("variant,players,deck_size", [
    ("4-card", 2, 52), ("4-card", 6, 52), ("4-card", 7, 104), ("4-card", 10, 104),
    ("6-card", 4, 52), ("6-card", 5, 104), ("polish-poker", 4, 54), ("polish-poker", 5, 108),
    ("9-card", 2, 108), ("9-card", 8, 108),
])
def test_deck_sizes_per_variant_and_players(variant, players, deck_size):
    v = get_variant(variant)
    r = Round(v, make_rules(v, {}), players, rng=random.Random(1))
    assert sum(r.all_cards().values()) == deck_size
    assert all(len(g) == v.size for g in r.grids)
    assert len(r.discard) == 1 and len(r.stock) == deck_size - players * v.size - 1


@pytest.mark.parametrize("variant,players", [("4-card", 1), ("4-card", 11), ("6-card", 9),
                                             ("9-card", 1), ("polish-poker", 9)])
def test_player_count_out_of_range_is_refused(variant, players):
    with pytest.raises(ValueError, match="players"):
        Match(variant, players)


def test_jokers_only_where_the_variant_says():
    for name, jokers in (("4-card", 0), ("6-card", 0), ("polish-poker", 2), ("9-card", 4)):
        v = get_variant(name)
        r = Round(v, make_rules(v, {}), 2, rng=random.Random(0))
        assert sum(n for c, n in r.all_cards().items() if c >> 2 == 13) == jokers


@pytest.mark.parametrize("variant", ["4-card", "6-card", "polish-poker", "9-card"])
def test_dealer_rotates_and_player_after_dealer_moves_first(variant):
    assert Match(variant, 3).rounds == 9  # a match is 9 rounds by default
    m = Match(variant, 3, seed=4, rounds=4)
    for round_no in range(1, 5):
        assert m.round.dealer == (round_no - 1) % 3
        while m.round.phase == START:  # peeks and turned-up cards first, in any order
            seat = m.round.acting_seats[-1]
            m.apply(seat, finishing_action(m.round, seat))
        assert m.round.to_move == round_no % 3
        while not m.round.over:
            seat = m.round.acting_seats[0]
            m.apply(seat, finishing_action(m.round, seat))
        if round_no < 4:
            m.next_round()
    assert m.over


def test_the_dealer_of_round_r_is_seat_r_minus_1_mod_n():
    """RULES.md: the dealer of round r is seat (r - 1) mod n, the player after the dealer
    moves first; a Round dealt with dealer=r - 1 takes it mod n as a Match does."""
    variant = get_variant("9-card")
    for round_no in range(1, 8):
        r = Round(variant, make_rules(variant, {}), 3, dealer=round_no - 1, rng=random.Random(0))
        assert (r.dealer, r.to_move) == ((round_no - 1) % 3, round_no % 3)


# ---------------------------------------------------------------- start phases

def test_four_card_peek_nearest_row_then_ready():
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8"])
    assert r.phase == START and r.to_move is None
    v0 = r.view(0)
    assert v0.peeking and v0.legal == (READY,)
    assert v0.own_grid == (None, None, parse_card("3"), parse_card("4"))  # the nearest row
    assert r.view(1).grids[0] == (None,) * 4  # others see nothing of it
    r.apply(1, READY)  # seats are ready in any order
    assert r.phase == START and r.view(1).legal == ()
    r.apply(0, READY)
    assert r.phase == TURN and r.to_move == 0
    assert not r.view(0).peeking
    assert r.view(0).own_grid[2:] == (parse_card("3"), parse_card("4"))  # still known


def test_six_card_turn_two_of_choice():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"])
    assert r.phase == START and r.view(0).flips_due == 2 and not r.view(0).peeking
    r.apply(0, flip(0))
    with pytest.raises(IllegalAction, match="already face up"):
        r.apply(0, flip(0))
    r.apply(0, flip(5))
    assert r.legal_actions(0) == ()
    assert r.view(1).grids[0] == (parse_card("A"), None, None, None, None, parse_card("6"))
    r.apply(1, flip(1))
    r.apply(1, flip(2))
    assert r.phase == TURN and r.to_move == 0


def test_a_seat_knows_its_face_down_cards_seen_not_its_face_up_ones():
    """RULES.md "Knowledge": the engine records which face-down cards the owner has seen;
    a card placed face up is public, so it leaves the seat's ``known`` (SeatView.known)."""
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rules={"peek_row": True},
                      stock="K")
    r.apply(0, READY), r.apply(1, READY)
    assert r.view(0).known == 0b111000
    r.apply(0, DRAW), r.apply(0, place(3))
    assert r.view(0).known == 0b110000 and r.view(0).own_grid[3] == parse_card("K")


def test_six_card_peek_row_house_rule():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rules={"peek_row": True})
    assert r.view(0).peeking and r.legal_actions(0) == (READY,)
    assert r.view(0).own_grid == (None, None, None) + tuple(map(parse_card, "4 5 6".split()))
    assert r.face_up == [0, 0]


def test_polish_poker_two_random_cards_face_up_at_the_deal():
    m = Match("polish-poker", 4, seed=11)
    assert m.round.phase == TURN
    assert all(bin(mask).count("1") == 2 for mask in m.round.face_up)
    # The same seed turns up the same cards.
    assert Match("polish-poker", 4, seed=11).round.face_up == m.round.face_up


def test_polish_poker_the_two_cards_turned_up_at_the_deal_are_random():
    """"two of each player's cards are turned face up **at random**": which two varies
    from seat to seat and deal to deal (15 ways to choose two of six)."""
    masks = {mask for seed in range(10) for mask in Match("polish-poker", 4, seed=seed).round.face_up}
    assert len(masks) >= 8


def test_polish_poker_choose_start_house_rule():
    m = Match("polish-poker", 2, {"choose_start": True}, seed=1)
    assert m.round.phase == START and m.round.face_up == [0, 0]
    assert m.view(0).flips_due == 2


def test_nine_card_first_turn_begins_with_three_flips():
    r = stacked_round("9-card", ["A 2 3 / 4 5 6 / 7 8 9", "K K K / Q Q Q / J J J"])
    assert r.phase == TURN and r.to_move == 0
    assert {a.kind for a in r.legal_actions(0)} == {"flip"}
    with pytest.raises(IllegalAction, match="turn up 3 more"):
        r.apply(0, DRAW)
    for pos in (0, 4, 8):
        r.apply(0, flip(pos))
    assert r.legal_actions(0) == (DRAW, TAKE)  # the turn goes on as normal
    r.apply(0, DRAW)
    assert DISCARD not in r.legal_actions(0)  # a drawn card must be placed
    r.apply(0, place(1))
    assert r.to_move == 1 and r.view(1).flips_due == 3


# ---------------------------------------------------------------- turns

def test_four_card_places_face_down_and_owner_knows():
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8"], stock="K")
    r.apply(0, READY), r.apply(1, READY)
    assert r.legal_actions(0) == (DRAW, TAKE, KNOCK)
    r.apply(0, DRAW)
    assert r.view(0).held == parse_card("K") and r.view(1).held is None
    r.apply(0, place(0))
    assert r.face_up[0] == 0  # stays face down
    assert r.view(0).own_grid[0] == parse_card("K")
    assert r.view(1).grids[0][0] is None
    assert r.discard[-1] == parse_card("A")  # the replaced card goes face up on the discard


def test_card_taken_from_discard_cannot_be_discarded_again():
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8"], discard="9H")
    r.apply(0, READY), r.apply(1, READY)
    r.apply(0, TAKE)
    assert r.view(1).held == parse_card("9H")  # everyone saw which card was taken
    assert (r.view(1).discard_top, r.view(1).discard_size) == (None, 0)  # it left the pile
    before = state(r)
    with pytest.raises(IllegalAction, match="must be placed"):
        r.apply(0, DISCARD)
    assert state(r) == before


def test_six_card_draw_and_discard_turns_nothing():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], stock="K")
    for seat, pos in ((0, 0), (0, 1), (1, 0), (1, 1)):
        r.apply(seat, flip(pos))
    r.apply(0, DRAW)
    r.apply(0, DISCARD)
    assert r.face_up[0] == 0b11 and r.to_move == 1 and r.discard[-1] == parse_card("K")


def test_polish_poker_flip_option_after_discard():
    m = Match("polish-poker", 2, seed=2)
    r = m.round
    seat = r.to_move
    r.apply(seat, DRAW)
    r.apply(seat, DISCARD)
    assert r.phase == FLIP_OPTION
    down = [p for p in range(6) if not r.face_up[seat] >> p & 1]
    assert [a.pos for a in r.legal_actions(seat) if a.kind == "flip"] == down
    assert PASS in r.legal_actions(seat)
    r.apply(seat, flip(down[0]))
    assert r.face_up[seat] >> down[0] & 1 and r.to_move == 1 - seat


def test_illegal_actions_raise_and_change_nothing():
    m = Match("6-card", 3, seed=9)
    r = m.round
    before = state(r)
    cases = [(0, DRAW, "turn up 2 more"), (0, KNOCK, "turn up"), (5, flip(0), "no seat 5"),
             (0, place(9), "not in the 2×3 grid"), (0, "draw", "not an action")]
    for seat, action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            r.apply(seat, action)
        assert state(r) == before
    # Asking for a seat that is not at the table gives nothing to do, and nothing to apply.
    assert r.legal_actions(-1) == () and r.legal_actions(3) == ()
    with pytest.raises(IllegalAction, match="no seat -1"):
        r.apply(-1, flip(0))
    assert state(r) == before
    for seat in range(3):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    with pytest.raises(IllegalAction, match="seat 1's turn, not seat 0's"):
        r.apply(0, DRAW)
    with pytest.raises(IllegalAction, match="no knocking in 6-card"):
        r.apply(1, KNOCK)
    r.apply(1, DRAW)
    with pytest.raises(IllegalAction, match="holds a card"):
        r.apply(1, TAKE)


# ---------------------------------------------------------------- ends

def test_knock_gives_every_other_player_one_more_turn_without_knocking():
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8", "9 10 / J Q"])
    for s in range(3):
        r.apply(s, READY)
    r.apply(0, KNOCK)
    assert r.knocker == 0 and r.final_turns_left == 2 and r.to_move == 1
    assert KNOCK not in r.legal_actions(1)
    r.apply(1, DRAW), r.apply(1, DISCARD)
    assert not r.over
    r.apply(2, DRAW), r.apply(2, place(3))
    assert r.over and r.to_move is None
    assert r.scores == (10, 26, 10 + 9 + 10 + r.grids[2][3] // 4 * 0 + _value_4card(r.grids[2][3]))


def _value_4card(card):
    return get_variant("4-card").values[card >> 2]


def test_six_card_round_ends_at_once_on_the_sixth_card_face_up():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], stock="K K K K")
    for seat in (0, 1):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    for pos in (2, 3, 4):
        r.apply(0, DRAW), r.apply(0, place(pos))
        r.apply(1, DRAW), r.apply(1, DISCARD)
    r.apply(0, DRAW)
    r.apply(0, place(5))
    assert r.over and r.ender == 0
    assert r.face_up == [0b111111, 0b111111]  # everything revealed for scoring


def test_six_card_final_turn_house_rule():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q", "7 8 9 / 10 J Q"],
                      rules={"final_turn": True}, stock="K 3 4 K 5 6 K 8 9 K")
    for seat in (0, 1, 2):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    for pos in (2, 3, 4, 5):
        r.apply(0, DRAW), r.apply(0, place(pos))
        if pos != 5:
            for seat in (1, 2):
                r.apply(seat, DRAW), r.apply(seat, DISCARD)
    assert not r.over and r.ender == 0 and r.final_turns_left == 2
    r.apply(1, DRAW), r.apply(1, DISCARD)
    r.apply(2, TAKE), r.apply(2, place(5))
    assert r.over


def test_six_card_final_turn_a_second_sixth_card_up_changes_nothing():
    """With final_turn, the first player to turn up a sixth card ended the round; one
    doing it in the final turns neither ends the round early nor takes that over."""
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q", "7 8 9 / 10 J Q"],
                      rules={"final_turn": True})
    for seat in (0, 1, 2):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    for pos in (2, 3, 4):
        for seat in (0, 1):
            r.apply(seat, DRAW), r.apply(seat, place(pos))
        r.apply(2, DRAW), r.apply(2, DISCARD)
    r.apply(0, DRAW), r.apply(0, place(5))
    assert r.ender == 0 and r.final_turns_left == 2
    r.apply(1, DRAW), r.apply(1, place(5))
    assert r.face_up[1] == 0b111111 and not r.over
    assert r.ender == 0 and r.final_turns_left == 1 and r.to_move == 2
    r.apply(2, DRAW), r.apply(2, DISCARD)
    assert r.over and r.ender == 0


def test_polish_poker_ends_only_by_a_knock_not_when_six_cards_are_up():
    r = stacked_round("polish-poker", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rng=random.Random(5))
    while r.face_up[0] != 0b111111:
        down = next(p for p in range(6) if not r.face_up[0] >> p & 1)
        r.apply(0, DRAW), r.apply(0, place(down))
        r.apply(1, DRAW), r.apply(1, DISCARD), r.apply(1, PASS)
    assert not r.over and r.ender is None and r.to_move == 0
    # Nothing left face down: a discard ends the turn, with no card to turn up.
    r.apply(0, DRAW), r.apply(0, DISCARD)
    assert r.phase == TURN and r.to_move == 1
    r.apply(1, KNOCK)
    r.apply(0, DRAW), r.apply(0, DISCARD)  # the one more turn
    assert r.over and r.knocker == 1


def test_nine_card_last_card_face_up_gives_final_turns_and_finisher_penalty():
    m = Match("9-card", 2, seed=21)
    r = m.round
    while r.ender is None:
        seat = r.to_move
        legal = r.legal_actions(seat)
        down = [a for a in legal if a.kind in ("flip", "place") and not r.face_up[seat] >> a.pos & 1]
        m.apply(seat, down[0] if down else legal[0])
    ender = r.ender
    assert r.final_turns_left == 1 and not r.over
    other = 1 - ender
    m.apply(other, DRAW)
    m.apply(other, place(0))
    assert r.over
    raw = r.raw_scores
    assert r.scores[ender] == raw[ender] + 5 * (raw[other] < raw[ender])


def test_a_stock_run_out_becomes_the_discard_pile_but_its_top():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rng=random.Random(3))
    for seat in (0, 1):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    r.apply(0, DRAW), r.apply(0, DISCARD)
    r.apply(1, DRAW), r.apply(1, DISCARD)
    r.stock[:] = r.stock[-1:]  # one card left to draw
    pile = list(r.discard)
    r.apply(0, DRAW), r.apply(0, place(2))  # the 3 it replaces goes on top of the pile
    assert r.discard == [parse_card("3")]
    assert sorted(r.stock) == sorted(pile) and len(pile) == 3 and r.view(0).stock_size == 3
    assert (r.view(0).discard_top, r.view(0).discard_size) == (parse_card("3"), 1)
    assert r.view(0).restocked_at == r.turns == 3  # the players are told (render/table.py)


def test_a_stock_run_out_is_shuffled_not_the_discard_pile_in_order():
    """"The discard pile except its top card is shuffled into a new stock": the cards come
    back in another order than the pile held them (a seeded shuffle, so the test is exact)."""
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rng=random.Random(3))
    for seat in (0, 1):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    r.stock[:] = r.stock[-13:]  # thirteen cards to draw and discard, then one more
    for _ in range(6):
        for seat in (0, 1):
            r.apply(seat, DRAW), r.apply(seat, DISCARD)
    pile = list(r.discard)  # bottom first; the last card drawn will lie on top of it
    r.apply(0, DRAW), r.apply(0, DISCARD)
    assert sorted(r.stock) == sorted(pile) and len(pile) == 13
    assert r.stock not in (pile, pile[::-1])


def test_stock_runs_out_reshuffle_then_end_when_nothing_left():
    r = stacked_round("6-card", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], stock="K")
    for seat in (0, 1):
        r.apply(seat, flip(0)), r.apply(seat, flip(1))
    # Leave only one card in the stock, and only the top card on the discard.
    r.stock[:] = r.stock[-1:]
    r.discard[:] = r.discard[-1:]
    r.apply(0, DRAW)
    r.apply(0, DISCARD)  # stock empty, discard has two cards: one is reshuffled into the stock
    assert len(r.stock) == 1 and len(r.discard) == 1 and not r.over
    r.apply(1, TAKE)
    r.apply(1, place(2))  # stock still has 1 card
    r.apply(0, DRAW)
    r.apply(0, place(2))  # stock empty; the discard has 2 cards -> reshuffled, 1 in stock
    assert not r.over and len(r.stock) == 1
    r.stock.clear()
    r.discard[:] = r.discard[-1:]
    r.apply(1, TAKE)
    r.apply(1, place(3))  # empty stock and a one-card discard: the round ends at once
    assert r.over and r.ender is None


def test_a_deal_that_leaves_nothing_to_draw_ends_the_round_at_once():
    """8 cards dealt and 1 turned to the discard: no stock. The round offered draw, which
    raised IndexError, instead of ending and scoring."""
    variant = get_variant("4-card")
    deck = [parse_card(word) for word in "A 2 3 4 5 6 7 8 9".split()]
    r = Round(variant, make_rules(variant, {}), 2, dealer=1, deck=deck)
    assert r.over and r.legal_actions(0) == () and r.ender is None
    assert sorted(r.scores) == [1 + 3 + 5 + 7, 2 + 4 + 6 + 8]


def test_match_totals_and_shared_winners():
    m = Match("4-card", 2, rounds=2, seed=3)
    for _ in range(2):
        m.apply(0, READY), m.apply(1, READY)
        m.apply(m.round.to_move, KNOCK)
        seat = m.round.to_move
        m.apply(seat, DRAW), m.apply(seat, DISCARD)
        if not m.over:
            m.next_round()
    assert m.over and len(m.history) == 2
    assert m.totals == [sum(h[i] for h in m.history) for i in range(2)]
    low = min(m.totals)
    assert m.winners == [s for s in range(2) if m.totals[s] == low]
    with pytest.raises(IllegalAction, match="over"):
        m.next_round()


def test_a_round_adds_its_scores_after_the_knock_penalty_to_the_totals():
    """"scores add up": the totals a finished round shows are the totals before it plus
    its round scores, the knock penalty included (not its raw scores)."""
    r = stacked_round("polish-poker", ["5 6 7 / 8 9 10", "K K A / K K 2"], rng=random.Random(5),
                      totals=(100, 200))
    r.apply(0, KNOCK)
    r.apply(1, DRAW), r.apply(1, DISCARD), r.apply(1, PASS)
    assert r.over and r.raw_scores == (45, 3) and r.scores == (55, 3)
    assert r.view(None).totals == (155, 203)


def test_match_totals_add_round_scores_after_the_knock_penalty():
    """"scores add up" in a match: the round scores, penalty included, not the raw ones."""
    penalised = 0
    for seed in range(6):
        m = Match("polish-poker", 2, seed=seed, rounds=1)
        knocker = m.round.to_move
        m.apply(knocker, KNOCK)
        m.apply(1 - knocker, DRAW), m.apply(1 - knocker, DISCARD), m.apply(1 - knocker, PASS)
        assert m.over and m.totals == list(m.round.scores) == list(m.history[0])
        penalised += m.round.scores != m.round.raw_scores
    assert penalised  # some knocker was not lowest: +10


def test_a_finished_round_is_booked_once():
    """apply_round_end() books the scores of a round played on match.round; once booked,
    asking again (apply() already did) adds nothing."""
    m = Match("4-card", 2, rounds=2, seed=3)
    m.apply(0, READY), m.apply(1, READY)
    m.apply(m.round.to_move, KNOCK)
    m.apply(m.round.to_move, DRAW), m.apply(m.round.to_move, DISCARD)
    totals, history = list(m.totals), list(m.history)
    m.apply_round_end()
    assert m.totals == totals == list(m.round.scores) and m.history == history


def test_a_match_has_at_least_one_round():
    for rounds in (0, -1):
        with pytest.raises(ValueError, match=f"at least one round, not {rounds}"):
            Match("6-card", 2, rounds=rounds)
    assert Match("6-card", 2, rounds=1).rounds == 1


def test_next_round_refused_while_round_is_played():
    m = Match("6-card", 2, seed=1)
    with pytest.raises(IllegalAction, match="still being played"):
        m.next_round()


def test_shared_win_on_equal_totals():
    m = Match("4-card", 3, rounds=1, seed=1)
    m.totals = [5, 3, 3]
    assert m.winners == [1, 2]


def test_a_house_rule_number_goes_up_to_1000():
    """A knock penalty or a four-of-a-kind score is a number within -1000..1000 (0..1000
    for a penalty), the range the error states."""
    assert make_rules(get_variant("polish-poker"), {"knock_penalty": 1000})["knock_penalty"] == 1000
    assert make_rules(get_variant("6-card"), {"four_of_a_kind": -1000})["four_of_a_kind"] == -1000
    with pytest.raises(ValueError, match=re.escape("knock_penalty: 1001 is out of range (0..1000)")):
        make_rules(get_variant("polish-poker"), {"knock_penalty": 1001})


def test_action_text_round_trips():
    for text in ("draw", "take", "discard", "knock", "pass", "ready", "place 4", "flip 0"):
        assert str(Action.parse(text)) == text
    for bad in ("dance", "place", "place x", "draw 3"):
        with pytest.raises(ValueError):
            Action.parse(bad)
    # A position is a grid position: the error says so, for a sign too (not int()'s words).
    for bad in ("place", "flip x", "place -1", "flip +2"):
        with pytest.raises(ValueError, match=re.escape(f"action {bad!r} needs a grid position")):
            Action.parse(bad)


def test_a_knock_refused_mid_turn_says_why_not_that_the_round_is_ending():
    """A knock is a whole turn (RULES.md: "Knock: do nothing else", "instead of playing").
    Refused to a seat holding a card, or choosing what to turn up after a discard, it
    said "nobody may knock once the round is ending" while nobody had knocked."""
    r = stacked_round("4-card", ["A 2 / 3 4", "5 6 / 7 8"])
    r.apply(0, READY), r.apply(1, READY)
    r.apply(0, DRAW)
    with pytest.raises(IllegalAction, match="seat 0 holds a card: place it or discard it"):
        r.apply(0, KNOCK)
    poker = stacked_round("polish-poker", ["A 2 3 / 4 5 6", "7 8 9 / 10 J Q"], rng=random.Random(5))
    poker.apply(0, DRAW), poker.apply(0, DISCARD)
    with pytest.raises(IllegalAction, match="may turn up one face-down card or pass"):
        poker.apply(0, KNOCK)
    # Once a knock is made, a knock at a later turn's start says so.
    poker.apply(0, PASS)
    poker.apply(1, KNOCK)
    with pytest.raises(IllegalAction, match="nobody may knock once the round is ending"):
        poker.apply(0, KNOCK)


def test_a_seat_view_reads_every_public_field_from_its_table():
    v = get_variant("6-card")
    r = Round(v, make_rules(v, {}), 3, rng=random.Random(4))
    for seat in range(3):
        r.apply(seat, flip(0))
        r.apply(seat, flip(4))
    r.apply(r.to_move, DRAW)
    for seat in (0, 1, 2, None):
        view = r.view(seat)
        for name in PublicTable._fields:
            if name != "grids":  # a seat's own grid shows what it has seen
                assert getattr(view, name) == getattr(view.table, name), name
        with pytest.raises(AttributeError):
            view.no_such_field
