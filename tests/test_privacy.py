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
