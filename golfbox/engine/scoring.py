"""Scoring of finished grids: combinations, then penalties. Pure functions of ranks.

Grids are given as flat sequences of ranks (see cards.rank_of), row by row.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import NamedTuple, Sequence

from golfbox.engine.cards import JOKER, KING
from golfbox.engine.variants import SCORE_COLUMN_PAIRS, SCORE_LINES, SCORE_SUM, Rules, Variant

NINE_CARD_LINE_SCORES = {KING: -10, JOKER: -20}  # three of a kind otherwise scores 0
TWO_LINES_SAME_RANK = -30
FINISHER_PENALTY_PER_LOWER = 5


def grid_score(variant: Variant, rules: Rules, ranks: Sequence[int]) -> int:
    """A grid's score before penalties."""
    if variant.scoring == SCORE_SUM:
        return sum(variant.values[r] for r in ranks)
    if variant.scoring == SCORE_COLUMN_PAIRS:
        return _column_pairs_score(variant, rules, ranks)
    if variant.scoring == SCORE_LINES:
        return _lines_score(variant, rules, ranks)
    raise AssertionError(variant.scoring)


def _column_pairs_score(variant: Variant, rules: Rules, ranks: Sequence[int]) -> int:
    values, cols = variant.values, variant.cols
    keep_negative_pairs = rules.get("negative_pairs_keep", False)
    total = 0
    paired_ranks: list[int] = []
    for col in range(cols):
        top, bottom = ranks[col], ranks[cols + col]
        if top != bottom:
            total += values[top] + values[bottom]
        elif keep_negative_pairs and values[top] < 0:
            total += 2 * values[top]  # house rule: a pair of jokers keeps its -4
        else:
            paired_ranks.append(top)  # a pair cancels: 0
    four_of_a_kind = rules.get("four_of_a_kind")
    if four_of_a_kind is not None:
        # Two paired columns of one rank score the rule's number together.
        for count in Counter(paired_ranks).values():
            total += (count // 2) * four_of_a_kind
    return total


@lru_cache(maxsize=None)
def _lines(rows: int, cols: int, rule: str | None) -> tuple[tuple[int, ...], ...]:
    """The lines that can score a combination: rows first, then columns if the rule says."""
    lines = [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
    if rule == "rows+columns":
        lines += [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
    return tuple(lines)


def _combined_lines(variant: Variant, rules: Rules, ranks: Sequence[int],
                    used: set[int]) -> list[tuple[int, ...]]:
    """The lines of one rank that count as combinations, rows looked at first, then
    columns: a line only if none of its cards is already in one (``used`` gets them).
    Search scores thousands of grids a decision: the lines are built once (_lines)."""
    combined = []
    for line in _lines(variant.rows, variant.cols, rules.get("lines")):
        first = ranks[line[0]]
        if all(ranks[p] == first for p in line) and used.isdisjoint(line):
            used.update(line)
            combined.append(line)
    return combined


def _lines_score(variant: Variant, rules: Rules, ranks: Sequence[int]) -> int:
    used: set[int] = set()
    combined = _combined_lines(variant, rules, ranks, used)
    values = variant.values
    if not combined:
        return sum(values[r] for r in ranks)
    total = sum(values[ranks[p]] for p in range(len(ranks)) if p not in used)
    for rank, count in Counter(ranks[line[0]] for line in combined).items():
        # Two complete lines of one rank score -30 together, instead of their own values.
        total += (count // 2) * TWO_LINES_SAME_RANK
        total += (count % 2) * NINE_CARD_LINE_SCORES.get(rank, 0)
    return total


class Combination(NamedTuple):
    """Cards that score together: a line (9-card) or a paired column (6-card,
    polish-poker), or two of one rank that score together (-30, four_of_a_kind)."""

    lines: tuple[tuple[int, ...], ...]  # grid positions, one tuple a line or column
    score: int  # what its cards score together, in place of their values


def scoring_combinations(variant: Variant, rules: Rules, ranks: Sequence[int]) -> tuple[Combination, ...]:
    """The combinations a grid's score counted, rows first then columns, each line in
    one combination at most: what the reveal marks so that a player can check the sum.
    The cards outside them score their values (tests/test_scoring.py checks the two
    add up to grid_score, which finds the same lines but keeps its own sums: search
    scores thousands of grids a decision)."""
    if variant.scoring == SCORE_LINES:
        return _paired(_combined_lines(variant, rules, ranks, set()), ranks, TWO_LINES_SAME_RANK,
                       lambda rank: NINE_CARD_LINE_SCORES.get(rank, 0))
    if variant.scoring != SCORE_COLUMN_PAIRS:
        return ()
    cols, values = variant.cols, variant.values
    keep_negative_pairs = rules.get("negative_pairs_keep", False)
    kept, pairs = [], []
    for col in range(cols):
        column = (col, cols + col)
        if ranks[col] != ranks[cols + col]:
            continue
        if keep_negative_pairs and values[ranks[col]] < 0:
            kept.append(Combination((column,), 2 * values[ranks[col]]))
        else:
            pairs.append(column)
    together = rules.get("four_of_a_kind")
    paired = _paired(pairs, ranks, together, lambda rank: 0) if together is not None else \
        tuple(Combination((column,), 0) for column in pairs)
    return tuple(sorted((*kept, *paired)))


def _paired(lines: list[tuple[int, ...]], ranks: Sequence[int], together: int,
            alone) -> tuple[Combination, ...]:
    """``lines`` of one rank taken two by two, in order, scoring ``together``; a line
    left over scores ``alone(rank)``."""
    found: list[Combination] = []
    waiting: dict[int, tuple[int, ...]] = {}
    for line in lines:
        rank = ranks[line[0]]
        if rank in waiting:
            found.append(Combination((waiting.pop(rank), line), together))
        else:
            waiting[rank] = line
    found += [Combination((line,), alone(rank)) for rank, line in waiting.items()]
    return tuple(sorted(found))


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
