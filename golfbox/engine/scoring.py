"""Scoring of finished grids: combinations, then penalties. Pure functions of ranks.

Grids are given as flat sequences of ranks (see cards.rank_of), row by row.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping, NamedTuple, Sequence

from golfbox.engine.cards import JOKER, KING
from golfbox.engine.variants import SCORE_COLUMN_PAIRS, SCORE_LINES, SCORE_SUM, Rules, Variant

NINE_CARD_LINE_SCORES = {KING: -10, JOKER: -20}  # three of a kind otherwise scores 0
TWO_LINES_SAME_RANK = -30
FINISHER_PENALTY_PER_LOWER = 5

_Line = tuple[int, ...]  # grid positions: a row, a column
_Scored = tuple[tuple[_Line, ...], int]  # a combination's lines and score, as Combination


def grid_score(variant: Variant, rules: Rules, ranks: Sequence[int]) -> int:
    """A grid's score before penalties: its cards' values, each combination's cards
    scoring the combination's score in their place."""
    values = variant.values
    total = sum(map(values.__getitem__, ranks))
    if variant.scoring == SCORE_SUM:
        return total  # no combinations: spares the call, as a round ends scoring every grid
    for lines, score in _combinations(variant, rules, ranks):
        # A combination is whole lines of one rank: its cards' values are that rank's.
        total += score - values[ranks[lines[0][0]]] * len(lines) * len(lines[0])
    return total


class Combination(NamedTuple):
    """Cards that score together: a line (9-card) or a paired column (6-card,
    polish-poker), or two of one rank that score together (-30, four_of_a_kind)."""

    lines: tuple[tuple[int, ...], ...]  # grid positions, one tuple a line or column
    score: int  # what its cards score together, in place of their values


def scoring_combinations(variant: Variant, rules: Rules, ranks: Sequence[int]) -> tuple[Combination, ...]:
    """The combinations a grid's score counted, rows first then columns, each line in
    one combination at most: what the reveal marks so that a player can check the sum.
    The cards outside them score their values (grid_score adds up the same ones)."""
    return tuple(sorted(Combination(lines, score)
                        for lines, score in _combinations(variant, rules, ranks)))


def _combinations(variant: Variant, rules: Rules, ranks: Sequence[int]) -> list[_Scored]:
    """The combinations, in no order: the one place that says which cards score
    together and what (RULES.md). Plain tuples, not Combination: search scores
    thousands of grids a decision (bench/playout_speed.py)."""
    if variant.scoring == SCORE_SUM:
        return []
    if variant.scoring == SCORE_COLUMN_PAIRS:
        return _column_pairs(variant, rules, ranks)
    if variant.scoring == SCORE_LINES:
        return _paired(_combined_lines(variant, rules, ranks), ranks, TWO_LINES_SAME_RANK,
                       NINE_CARD_LINE_SCORES)
    raise AssertionError(variant.scoring)


def _column_pairs(variant: Variant, rules: Rules, ranks: Sequence[int]) -> list[_Scored]:
    """6-card's and polish-poker's paired columns, under their house rules."""
    found: list[_Scored] = []
    cancelled: list[_Scored] = []
    for (top, bottom), pair in _columns(variant.cols):
        rank = ranks[top]
        if rank != ranks[bottom]:
            continue
        value = variant.values[rank]
        if value < 0 and rules.get("negative_pairs_keep", False):
            found.append((pair[0], 2 * value))  # house rule: a pair of jokers keeps its -4
        else:
            cancelled.append(pair)  # a pair cancels: 0
    if cancelled:
        four_of_a_kind = rules.get("four_of_a_kind")
        if four_of_a_kind is None:
            found += cancelled
        else:  # two paired columns of one rank score the rule's number together
            found += _paired([lines[0] for lines, _ in cancelled], ranks, four_of_a_kind, {})
    return found


@lru_cache(maxsize=None)
def _columns(cols: int) -> tuple[tuple[_Line, _Scored], ...]:
    """Each column's two positions, and the column as a pair that scores 0: built
    once, as search scores thousands of grids a decision."""
    return tuple(((col, cols + col), (((col, cols + col),), 0)) for col in range(cols))


@lru_cache(maxsize=None)
def _lines(rows: int, cols: int, rule: str | None) -> tuple[_Line, ...]:
    """The lines that can score a combination: rows first, then columns if the rule says."""
    lines = [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
    if rule == "rows+columns":
        lines += [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
    return tuple(lines)


def _combined_lines(variant: Variant, rules: Rules, ranks: Sequence[int]) -> list[_Line]:
    """The lines of one rank that count as combinations, rows looked at first, then
    columns: a line only if none of its cards is already in one. The lines are built
    once (_lines)."""
    combined: list[_Line] = []
    used: set[int] = set()
    for line in _lines(variant.rows, variant.cols, rules.get("lines")):
        first = ranks[line[0]]
        if all(ranks[p] == first for p in line) and used.isdisjoint(line):
            used.update(line)
            combined.append(line)
    return combined


def _paired(lines: list[_Line], ranks: Sequence[int], together: int,
            alone: Mapping[int, int]) -> list[_Scored]:
    """``lines`` of one rank taken two by two, in order, scoring ``together``; a line
    left over scores ``alone`` of its rank (0 if not there)."""
    found: list[_Scored] = []
    waiting: dict[int, _Line] = {}
    for line in lines:
        rank = ranks[line[0]]
        if rank in waiting:
            found.append(((waiting.pop(rank), line), together))
        else:
            waiting[rank] = line
    found += [((line,), alone.get(rank, 0)) for rank, line in waiting.items()]
    return found


def apply_penalties(variant: Variant, rules: Rules, raw: Sequence[int], ender: int | None,
                    knocked: bool) -> list[int]:
    """Round scores after the knock or finisher penalty of the seat that ended the round.

    ``knocked`` says whether ``ender`` ended it by knocking (4-card, polish-poker) rather
    than by turning up their last card (6-card, 9-card).
    """
    scores = list(raw)
    if ender is None:
        return scores
    own = raw[ender]
    lower = sum(1 for seat, s in enumerate(raw) if seat != ender and s < own)
    if knocked:
        penalty = rules.get("knock_penalty", 0)
        if lower and penalty:  # sharing the lowest score is having it
            if penalty == "double":
                scores[ender] = own * 2 if own > 0 else own
            else:
                scores[ender] = own + penalty
    elif variant.scoring == SCORE_LINES:
        scores[ender] = own + FINISHER_PENALTY_PER_LOWER * lower
    return scores


def round_scores(variant: Variant, rules: Rules, grids: Sequence[Sequence[int]],
                 ender: int | None = None, knocked: bool | None = None) -> list[int]:
    """Every player's round score after penalties, from their grids' ranks."""
    if knocked is None:
        knocked = variant.can_knock
    raw = [grid_score(variant, rules, g) for g in grids]
    return apply_penalties(variant, rules, raw, ender, knocked)
