"""Nothing that leaves the table toward people or bots lets anyone deal the cards.

The match seed deals every card of a match (RULES.md: "a match played from a
recorded seed is replayed card for card"): knowing it is knowing every face-down
card. Only the journal, the host's own file, may hold it.
"""

from __future__ import annotations

import logging
import pickle

from golfbox.hal.base import Button
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
