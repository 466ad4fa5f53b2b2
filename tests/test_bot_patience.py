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


def round_after_turns(variant_name: str, turns: int, seed: int = 5):
    """A 2-player round in which both seats have drawn and discarded ``turns`` times each
    (start actions first), with seat 0 to move."""
    import random

    from golfbox.engine import ActionKind as A, Round

    variant = get_variant(variant_name)
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=1, rng=random.Random(seed))
    while round_.phase == "start":
        for seat in round_.acting_seats:
            round_.apply(seat, round_.legal_actions(seat)[0])
    while round_.turns < 2 * turns:
        seat = round_.to_move
        for kind in (A.DRAW, A.DISCARD):
            round_.apply(seat, next(a for a in round_.legal_actions(seat) if a.kind == kind))
    assert round_.to_move == 0
    return round_


@pytest.mark.parametrize("bot", ["random", "easy", "medium", "greedy", "hard"])
def test_past_its_patience_a_bot_only_ends_the_round(bot):
    """After 25 own turns a bot only knocks or turns up face-down cards. easy still made a
    loose move one decision in five (a draw instead of the knock, a card placed over a
    face-up one): a 4-card round of four easy bots lasted 137 turns, over the bound of 136.
    random never counted: all-random 9-card went over it once in 2,000 rounds."""
    import random

    from golfbox.bots import make_bot
    from golfbox.bots.patience import PATIENCE_TURNS
    from golfbox.engine import ActionKind as A

    knocking = round_after_turns("4-card", PATIENCE_TURNS).view(0)
    assert any(a.kind == A.KNOCK for a in knocking.legal)
    for seed in range(20):
        assert make_bot(bot, random.Random(seed)).choose(knocking).kind == A.KNOCK

    six = round_after_turns("6-card", PATIENCE_TURNS)
    six.apply(0, next(a for a in six.legal_actions(0) if a.kind == A.DRAW))
    holding = six.view(0)
    for seed in range(20):
        action = make_bot(bot, random.Random(seed)).choose(holding)
        assert action.kind == A.PLACE and not holding.face_up[0] >> action.pos & 1, action


def test_patience_counts_the_seats_own_turns_and_runs_out_after_the_last():
    """Only the seat's own turns count (the others' draws and discards do not), the one
    it is about to begin included, and the bot is hurried only once PATIENCE_TURNS of
    them are behind it, not one turn earlier."""
    from golfbox.bots.patience import PATIENCE_TURNS, own_turns, past_patience

    mover = round_after_turns("4-card", PATIENCE_TURNS - 1).view(0)
    assert mover.turns == 2 * (PATIENCE_TURNS - 1)  # both seats' turns, each seat's own half
    assert own_turns(mover) == PATIENCE_TURNS and not past_patience(mover)
    hurried = round_after_turns("4-card", PATIENCE_TURNS).view(0)
    assert own_turns(hurried) == PATIENCE_TURNS + 1 and past_patience(hurried)
    # The seat waiting for the other's turn is about to begin none: it counted one more.
    waiting = round_after_turns("4-card", PATIENCE_TURNS).view(1)
    assert own_turns(waiting) == PATIENCE_TURNS and not past_patience(waiting)
