"""A bounded monkey at the table (bench/table_monkey.py has the long runner).

Each seed is a whole table on sim hardware (a random variant, house rules, 2-8
seats, bots, language, hints, shared display size) driven by random presses,
holds, mashing, clock jumps of up to 200 s, unplugged seats, failing displays
and power cuts, with the invariants checked after every step: no exception, no
unexpected warning, every working display on its state's frame and not blank,
no screen that changes when the cards it may not see are dealt otherwise, a
resume that comes back to the same match and views; and at the end a match that
ends and another that begins.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from golfbox.engine import Action, Round, get_variant, make_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from table_monkey import hidden_dealt_otherwise, run_seed  # noqa: E402

# One of each variant, both languages, both shared sizes, hints on and off (≈1 s each;
# not 22, 6-card with hints in French on 256×64 like 21: its lobby presses chose 18
# rounds, and the drain played all 18 of random choices, 17 s).
SEEDS = [2, 4, 5, 21, 24, 29, 30, 38]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_monkey_at_the_table_breaks_nothing(seed):
    monkey = run_seed(seed, steps=120)
    assert {"playing", "round_over", "match_over"} <= monkey.states_seen


def test_the_monkeys_other_deal_keeps_what_a_seat_sees_and_changes_what_it_does_not():
    """The privacy check means something only if the other deal looks the same to the
    seat (its view) and differs in cards it cannot see."""
    variant = get_variant("6-card")
    round_ = Round(variant, make_rules(variant, {}), 3, rng=random.Random(4))
    for seat in range(3):  # everyone turns two up
        for pos in (0, 1):
            round_.apply(seat, Action("flip", pos))
    for seat in (None, 0, 1):
        other = hidden_dealt_otherwise(round_, seat, random.Random(seat or 9))
        assert other.view(seat) == round_.view(seat)
        assert other.grids != round_.grids or other.stock != round_.stock
