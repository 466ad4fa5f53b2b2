"""Patience: after PATIENCE_TURNS own turns in a round a bot moves the round to its end.
The turns are those of the round being played, whatever the bot played before it."""

import pytest

from golfbox.bots.simulate import simulate
from golfbox.engine import get_variant, make_rules


@pytest.mark.parametrize("bot", ["greedy", "medium", "easy"])
def test_a_bot_counts_its_turns_afresh_in_every_match(bot):
    """simulate --rounds 1: every match is round 1 dealt by seat 0, and greedy, medium and
    easy took the next match's round for the one they were in and counted on: once past
    25 turns in all, they knocked at once (polish-poker: 3 turns a round, not about 25)."""
    variant = get_variant("polish-poker")
    result = simulate(variant, 2, make_rules(variant, {}), matches=40, rounds=1,
                      bots=[bot, bot], seed=1)
    assert result.turns > 10 * result.rounds
