"""Nothing that leaves the table toward people or bots lets anyone deal the cards.

The match seed deals every card of a match (RULES.md: "a match played from a
recorded seed is replayed card for card"): knowing it is knowing every face-down
card. Only the journal, the host's own file, may hold it. Nor may a face-down
card a seat has not seen reach it any other way: its view, its screen, its node.
"""

from __future__ import annotations

import gc
import logging
import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.bots import BOTS, make_bot
from golfbox.bots.search import SearchBot
from golfbox.bots.greedy import GreedyBot
from golfbox.engine import Determinizer, Round, build_deck, get_variant, make_rules
from golfbox.hal.base import Button, LinkEvent
from golfbox.render import render_seat
from golfbox.render.seat import GRID_H, GRID_W
from golfbox.table.session import Notices, Session
from golfbox.table.settings import TableSettings
from golfbox.table.lobby import Player

SEED = 8_675_309_123_456_789  # distinctive: its digits turn up nowhere by chance


def test_no_log_line_carries_the_match_seed(sim_table, caplog):
    """A café's log may be on show (journalctl on a screen; `golfbox sim --window` logs to
    the terminal beside the game): "match of 4-card for … (seed N)" dealt every card."""
    caplog.set_level(logging.DEBUG)
    table = sim_table(variant="4-card", seats=2, rounds=1, auto_start=True, seed=SEED,
                      bots={1: "medium"})
    table.press(0, Button.OK)  # done looking
    assert table.service.match.seed == SEED
    assert "match" in caplog.text and "4-card" in caplog.text  # the start is still logged
    assert str(SEED) not in caplog.text


class RecordingThinker:
    """Stands in for the worker process a bot thinks in: keeps what it is handed."""

    def __init__(self):
        self.pending: set[tuple] = set()
        self.handed: list[tuple] = []

    def think(self, key, name, seed, view) -> None:
        self.pending.add(key)
        self.handed.append((name, seed, view))


def test_a_bot_thinking_off_the_loop_is_handed_nothing_that_deals_the_cards():
    """The worker got "<match seed>:<seat>:<actions>" as its seed beside the view: it
    could deal the whole match, every face-down card of every seat."""
    settings = TableSettings(variant="4-card", seats=2, bots={0: "hard", 1: "hard"}, seed=SEED)
    thinker = RecordingThinker()
    session = Session(settings, None, Notices(), lambda: 0.0, thinker)
    assert session.start_match([Player(0, "hard", "A"), Player(1, "hard", "B")], "4-card", {}, 1)
    session.bot_move()
    (handed,) = thinker.handed
    name, seed, view = handed
    assert name == "hard" and view == session.match.view(view.seat)
    assert str(SEED) not in seed
    assert str(SEED).encode() not in pickle.dumps(handed)


# ----------------------------------------------------------------- the engine's views

RULESETS = [
    ("4-card", {}), ("4-card", {"assist": True}), ("6-card", {}), ("6-card", {"final_turn": True}),
    ("6-card", {"peek_row": True}), ("polish-poker", {}), ("polish-poker", {"choose_start": True}),
    ("9-card", {}),
]


def _where(a: Round, b: Round) -> list[tuple]:
    """Where two rounds dealt from decks that differ by one swap hold different cards:
    where the two swapped cards are now (read from the rounds' state, not their views)."""
    places = [("grid", s, p) for s in range(a.players) for p in range(len(a.grids[s]))
              if a.grids[s][p] != b.grids[s][p]]
    places += [("stock",) for x, y in zip(a.stock, b.stock) if x != y]
    places += [("discard",) for x, y in zip(a.discard, b.discard) if x != y]
    if a.held != b.held:
        places.append(("held",))
    return places


def _seen_by(r: Round, place: tuple, seat: int | None, dealt: bool) -> bool:
    """Has ``seat`` (None: everybody) now the right to see the card at ``place``, by the
    rules alone: face up, on the discard pile, in its own hand, or peeked at the deal."""
    if place[0] == "discard":
        return True
    if place[0] == "held":
        return r.held_from == "discard" or seat is not None and r.public_table().holder == seat
    if place[0] == "grid":
        _, owner, pos = place
        if r.face_up[owner] >> pos & 1:
            return True
        v = r.variant
        nearest = pos >= v.cols * (v.rows - 1)
        # RULES.md: in 4-card, and in 6-card with peek_row, each looks at its nearest row.
        peeks = v.name == "4-card" or v.name == "6-card" and bool(r.rules.get("peek_row"))
        return dealt and owner == seat and nearest and peeks
    return False


def _twin_deals(ruleset, players, seed):
    """Two deals of a round from decks that differ by one swap: a function that deals
    either (0 or 1) anew, and the generator that goes on to choose the actions."""
    name, overrides = ruleset
    variant = get_variant(name)
    rules = make_rules(variant, overrides)
    rng = random.Random(seed)
    deck = build_deck(variant.decks(players), variant.jokers_per_deck)
    rng.shuffle(deck)
    i, j = rng.sample(range(len(deck)), 2)
    while deck[i] == deck[j]:
        j = rng.randrange(len(deck))
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    play_seed = rng.getrandbits(32)

    def deal(which: int) -> Round:
        return Round(variant, rules, players, dealer=seed % players,
                     deck=(deck, other)[which], rng=random.Random(play_seed))
    return deal, rng


def _twins(ruleset, players, seed):
    """The two rounds of _twin_deals played with the same actions: yields (a, b, blind)
    before each action and at the end, ``blind`` the seats (None: everybody) that have
    not yet had the right to see either swapped card."""
    deal, rng = _twin_deals(ruleset, players, seed)
    a, b = deal(0), deal(1)
    seen = {s: False for s in [None, *range(players)]}
    dealt = True
    while True:
        places = _where(a, b)
        for s in seen:
            seen[s] = seen[s] or any(_seen_by(a, p, s, dealt) for p in places)
        dealt = False
        yield a, b, [s for s in seen if not seen[s]]
        if a.over:
            break
        seat = rng.choice(a.acting_seats)
        action = rng.choice(a.legal_actions(seat))
        a.apply(seat, action)
        b.apply(seat, action)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 5), st.integers(0, 2**32))
def test_a_view_is_the_same_whatever_the_cards_its_seat_has_not_seen(ruleset, players, seed):
    """Swap two cards of the deck and play the same actions: until one of the two is
    seen by a seat (face up, discarded, in its hand, peeked), that seat's view is the
    same, every field of it (its history, its pile, its hand, its grid); so is the
    public view until one is public. Whatever the engine's own bookkeeping says."""
    for a, b, blind in _twins(ruleset, players, seed):
        for s in blind:
            assert a.view(s) == b.view(s), (s, _where(a, b))


def _bots(seed):
    """Every bot, made as the table makes one for a move (hard: a small budget, quick)."""
    return [SearchBot(random.Random(seed), playouts=16) if name == "hard"
            else make_bot(name, random.Random(seed)) for name in sorted(BOTS)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(2, 4), st.integers(0, 2**32))
def test_a_bot_chooses_the_same_whatever_the_cards_its_seat_has_not_seen(
        ruleset, players, seed):
    """Two rounds a seat cannot tell apart (one swap of two cards it has not seen):
    every bot in that seat, seeded alike, chooses alike, and search deals the same
    rounds to play its futures in. Each round is played alone, the other gone, so
    a bot deciding from anything but its view (the round, the deck, something kept
    from the other round, its own sampling) chooses apart."""
    asked: dict[int, list[int]] = {}  # move -> the seats that cannot tell the two apart
    for move, (a, b, blind) in enumerate(_twins(ruleset, players, seed)):
        if blind in ([], [None]) or move > 60:
            break  # every seat has seen a swapped card: nothing left to tell apart
        asked[move] = sorted(set(blind) & set(a.acting_seats))
    history = a.public_table().history  # the actions played up to there
    del a, b

    def choices(which: int) -> list:
        round_ = deal(which)
        out = []
        for move, seats in asked.items():
            for s in seats:
                view = round_.view(s)
                out.append([bot.choose(view) for bot in _bots(move)])
                if view.phase != "start":
                    world = Determinizer(view).sample(random.Random(move))
                    out.append((world.grids, world.stock, world.held))
            if move < len(history):
                round_.apply(*history[move][:2])
        return out

    deal, _ = _twin_deals(ruleset, players, seed)
    first = choices(0)
    gc.collect()  # nothing of the first round is left to reach
    assert first == choices(1)


# ----------------------------------------------------------------- the table's log

CARD_WORDS = re.compile(r"(?<![\w])(10|[2-9AJQK])[♠♥♦♣]|\bJK\b")


@pytest.mark.parametrize("variant, rules", [
    ("4-card", {}), ("6-card", {"peek_row": True}), ("polish-poker", {}), ("9-card", {})])
def test_a_whole_match_logs_no_card(sim_table, caplog, variant, rules):
    """journalctl may be on show: no log line names a card, face down or not (a face-up
    card in the log would be harmless, but a line that names one would name any)."""
    caplog.set_level(logging.DEBUG)
    table = sim_table(variant=variant, rules=rules, seats=3, rounds=2, auto_start=True,
                      seed=SEED, bots={1: "medium", 2: "hard"}, hints=True)
    table.hold(0, Button.OK)  # a hint: the hard bot thinks for seat 0
    table.play_to_the_result(0)
    assert "match" in caplog.text  # the table did log
    assert not CARD_WORDS.search(caplog.text), CARD_WORDS.search(caplog.text)


# ----------------------------------------------------------------- seats and their views


class SpyBot:
    """A bot that keeps every view it was handed (and plays as greedy)."""

    name = "spy"
    needs_view = True
    views: list = []

    def __init__(self, rng):
        self._bot = GreedyBot(rng)

    def choose(self, view):
        SpyBot.views.append(view)
        return self._bot.choose(view)


def _grid_pixels(image):
    return image.crop((0, 0, GRID_W, GRID_H)).tobytes()


def test_each_screen_bot_and_hint_gets_its_own_seats_view_when_seats_are_not_engine_seats(
        sim_table, clock, monkeypatch):
    """People at pads 2 and 4 and a bot at pad 1 play engine seats 1, 2 and 0: pad 4's
    screen must show engine seat 2's peek (a mix-up of the two numbers showed pad 2's
    person's cards there), and the bot, the hint and the bot standing in for pad 4's
    person once its node went away are handed their own seat's view."""
    monkeypatch.setattr(SpyBot, "views", [])
    monkeypatch.setitem(BOTS, "spy", SpyBot)
    monkeypatch.setitem(BOTS, "hard", SpyBot)  # the hints' bot
    table = sim_table(variant="4-card", seats=4, bots={0: "spy"}, seed=5, hints=True,
                      hold_time=0.8, takeover_after=5.0)
    table.deal(1, 3)
    svc = table.service
    assert svc.session.engine_seat == {0: 0, 1: 1, 3: 2}
    match = svc.match
    own, other = (render_seat(match.view(e)) for e in (2, 1))
    assert _grid_pixels(own) != _grid_pixels(other)  # the two peeks differ
    assert _grid_pixels(table.displays[3].image) == _grid_pixels(own)
    assert _grid_pixels(table.displays[1].image) == _grid_pixels(other)
    for pad in (1, 3):
        table.press(pad, Button.OK)  # done looking
        clock.advance(1.0)
        svc.run_until_idle()
    for _ in range(100):
        if match.round.to_move == 2:
            break
        if match.round.to_move == 1:
            table.press(1, Button.OK)
        clock.advance(1.0)
        svc.run_until_idle()
    assert match.round.to_move == 2 and match.round.phase == "turn"
    bots_views = len(SpyBot.views)
    assert bots_views and all(v.seat == 0 for v in SpyBot.views)
    table.hold(3, Button.OK)  # a hint for pad 4
    clock.advance(1.0)
    svc.run_until_idle()
    assert [v.seat for v in SpyBot.views[bots_views:]] == [2]
    assert svc.messages[3].startswith("hint: ")
    # Pad 4's node goes away: the bot standing in for its person plays seat 2's view.
    hinted = len(SpyBot.views)
    svc.post(LinkEvent(3, False, "seat 4: node unplugged", buttons=True, at=clock()))
    for _ in range(30):
        clock.advance(1.0)
        svc.run_until_idle()
    assert svc.session.stands_in(2) and len(SpyBot.views) > hinted
    assert {v.seat for v in SpyBot.views[hinted:]} == {0, 2}
    assert any(v.seat == 2 for v in SpyBot.views[hinted:])
