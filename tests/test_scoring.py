"""Scoring: every combination and penalty of RULES.md, with the notation's grids."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.engine import VARIANTS, get_variant, grid_score, make_rules, parse_grid, round_scores


def score(variant_name, *grids, ender=None, **rules):
    variant = get_variant(variant_name)
    ranks = [[c >> 2 for c in parse_grid(g, variant)] for g in grids]
    return round_scores(variant, make_rules(variant, rules), ranks, ender=ender)


def one(variant_name, grid, **rules):
    return score(variant_name, grid, **rules)[0]


def test_worked_example_of_seed_000_scores_15():
    assert one("9-card", "K K JK / 4 J 3 / 7 7 7") == 15


@pytest.mark.parametrize("grid,expected", [
    ("A 2 / 3 4", 10), ("J Q / K 10", 30), ("K K / K K", 0), ("5 5 / 5 5", 20),  # no combinations
])
def test_four_card_values(grid, expected):
    assert one("4-card", grid) == expected


@pytest.mark.parametrize("grid,expected", [
    ("A 2 3 / 4 5 6", 1 - 2 + 3 + 4 + 5 + 6),
    ("2 5 K / 2 6 K", 0 + 11 + 0),  # a pair of 2s scores 0 too
    ("J Q K / Q J K", 40),
    ("7 7 7 / 7 8 9", 0 + 15 + 16),
])
def test_six_card_values_and_column_pairs(grid, expected):
    assert one("6-card", grid) == expected


def test_six_card_four_of_a_kind_house_rule():
    grid = "J J 5 / J J 6"
    assert one("6-card", grid) == 11
    assert one("6-card", grid, four_of_a_kind=-10) == 1
    assert one("6-card", grid, four_of_a_kind=-20) == -9
    # Two pairs of different ranks are not four of a kind.
    assert one("6-card", "J Q 5 / J Q 6", four_of_a_kind=-10) == 11


@pytest.mark.parametrize("grid,expected", [
    ("JK A 2 / 3 4 5", -2 + 1 + 2 + 3 + 4 + 5),
    ("JK 5 K / JK 5 K", 0),  # a pair of jokers scores 0, as the sheet says
    ("J Q K / 2 3 K", (10 + 2) + (10 + 3) + 0),
])
def test_polish_poker_values_and_pairs(grid, expected):
    assert one("polish-poker", grid) == expected


def test_polish_poker_negative_pairs_keep():
    assert one("polish-poker", "JK 5 K / JK 5 K", negative_pairs_keep=True) == -4


@pytest.mark.parametrize("grid,expected", [
    ("A 2 3 / 4 5 6 / 7 8 9", 45),
    ("J Q K / JK A 2 / 3 4 5", 11 + 12 + 0 - 3 + 1 + 2 + 12),
    ("K K K / A 2 3 / 4 5 6", -10 + 6 + 15),
    ("JK JK JK / A 2 3 / 4 5 6", -20 + 21),
    ("7 7 7 / 7 7 7 / A 2 3", -30 + 6),  # two lines of one rank: -30 together
    ("K K K / K K K / A 2 3", -30 + 6),  # instead of -10 + -10
    ("7 7 7 / 8 8 8 / 9 9 9", 0),
    ("K 5 7 / K 5 7 / K 5 7", 3 * (0 + 5 + 7)),  # columns don't count by default
])
def test_nine_card_rows(grid, expected):
    assert one("9-card", grid) == expected


def test_nine_card_rows_and_columns_house_rule():
    assert one("9-card", "K 5 7 / K 5 7 / K 5 7", lines="rows+columns") == -10
    # Rows are looked at first; a column whose card is already in a row combination is not one.
    assert one("9-card", "7 7 7 / 7 2 3 / 7 4 5", lines="rows+columns") == 7 + 7 + 2 + 3 + 4 + 5
    # A row of kings is -10 alone: no column can join it, as each shares a card with it.
    assert one("9-card", "K K K / 2 3 4 / 5 6 7", lines="rows+columns") == -10 + 27
    # Two columns of one rank are two complete lines of that rank: -30 together.
    assert one("9-card", "K K 5 / K K 6 / K K 7", lines="rows+columns") == -30 + 18
    assert one("9-card", "8 8 8 / 9 2 9 / 9 3 9", lines="rows+columns") == 0 + 9 + 2 + 9 + 9 + 3 + 9


def test_knock_penalty_polish_poker_default_10():
    low, high = "K K A / K K 2", "5 6 7 / 8 9 10"  # 3 and 45
    assert score("polish-poker", high, low, ender=0) == [45 + 10, 3]
    assert score("polish-poker", low, high, ender=0) == [3, 45]
    # Sharing the lowest score is having the lowest score: no penalty.
    assert score("polish-poker", low, low, ender=0) == [3, 3]
    assert score("polish-poker", high, low, ender=0, knock_penalty=3) == [48, 3]
    assert score("polish-poker", high, low, ender=0, knock_penalty="double") == [90, 3]


def test_knock_penalty_double_leaves_non_positive_scores():
    assert score("polish-poker", "JK 5 K / A 6 K", "JK 5 K / JK 5 K", ender=0,
                 knock_penalty="double") == [20, 0]
    # A knocker at 0 who is not lowest: doubling a non-positive score changes nothing.
    assert score("polish-poker", "JK A K / 2 A K", "JK JK K / 2 A K", ender=0,
                 knock_penalty="double") == [0, -1]
    # A knocker below 0 who is not lowest (five players: two decks, four jokers): "doubles
    # a positive score" only, so -2 stays -2 rather than becoming -4.
    high = "5 6 7 / 8 9 10"
    assert score("polish-poker", "JK A K / K A K", "JK JK 5 / K K 5", high, high, high, ender=0,
                 knock_penalty="double") == [-2, -4, 45, 45, 45]


def test_knock_penalty_is_one_amount_however_many_players_scored_lower():
    """RULES.md: "a knocker whose round score is not the lowest gets +10", once, not +10
    for each player below (unlike 9-card's finisher penalty)."""
    high, mid, low = "5 6 7 / 8 9 10", "A 2 3 / A 2 4", "K K A / K K 2"  # 45, 7, 3
    assert score("polish-poker", high, mid, low, ender=0) == [55, 7, 3]
    assert score("4-card", "J Q / K 10", "A A / A A", "A 2 / A 2", ender=0,
                 knock_penalty=5) == [35, 4, 6]


def test_four_card_knock_penalty_spares_a_knocker_tied_for_lowest():
    for penalty in (5, "double"):
        assert score("4-card", "A 2 / 3 4", "4 3 / 2 A", "K Q / J 10", ender=0,
                     knock_penalty=penalty) == [10, 10, 30]
    assert score("4-card", "5 5 / 5 5", "A 2 / 3 4", ender=0, knock_penalty="double") == [40, 10]


def test_four_card_knock_penalty_off_by_default():
    assert score("4-card", "J Q / K 10", "A A / A A", ender=0) == [30, 4]
    assert score("4-card", "J Q / K 10", "A A / A A", ender=0, knock_penalty=5) == [35, 4]


def test_nine_card_finisher_penalty_five_per_lower_player():
    finisher, lower, higher = "A 2 3 / 4 5 6 / 7 8 A", "A A A / 2 2 2 / K K K", "J Q J / Q J Q / J Q J"
    base = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 1
    assert score("9-card", finisher, lower, higher, ender=0)[0] == base + 5
    assert score("9-card", finisher, lower, lower, ender=0)[0] == base + 10
    assert score("9-card", finisher, higher, higher, ender=0)[0] == base
    assert score("9-card", finisher, finisher, ender=0)[0] == base  # strictly lower only


def test_six_card_has_no_ender_penalty():
    assert score("6-card", "J Q 10 / 9 8 7", "A 2 3 / A 2 4", ender=0) == [54, 7]


def test_grid_score_matches_round_scores_without_ender():
    variant = get_variant("6-card")
    rules = make_rules(variant, {})
    ranks = [c >> 2 for c in parse_grid("A 2 3 / 4 5 6", variant)]
    assert grid_score(variant, rules, ranks) == 17


def combos(variant_name, grid, **rules):
    """What scoring_combinations finds, as (positions of each line, score)."""
    from golfbox.engine import scoring_combinations

    variant = get_variant(variant_name)
    ranks = [c >> 2 for c in parse_grid(grid, variant)]
    return [(c.lines, c.score) for c in scoring_combinations(variant, make_rules(variant, rules), ranks)]


def test_combinations_name_the_lines_that_scored_together():
    """The reveal shows which lines combined so that a player can check the sum: the
    engine says which, and what each scored (RULES.md), renderers do not work it out."""
    assert combos("9-card", "K K JK / 4 J 3 / 7 7 7") == [(((6, 7, 8),), 0)]
    assert combos("9-card", "K K K / JK JK JK / 5 5 5") == [
        (((0, 1, 2),), -10), (((3, 4, 5),), -20), (((6, 7, 8),), 0)]
    # Two lines of one rank: one combination of -30, not -10 twice.
    assert combos("9-card", "K K K / 4 2 3 / K K K") == [(((0, 1, 2), (6, 7, 8)), -30)]
    # Columns only with the house rule; a card already in a row makes no column.
    assert combos("9-card", "8 3 Q / 8 6 Q / 8 2 Q") == []
    assert combos("9-card", "8 3 Q / 8 6 Q / 8 2 Q", lines="rows+columns") == [
        (((0, 3, 6),), 0), (((2, 5, 8),), 0)]
    assert combos("9-card", "7 7 7 / 7 2 3 / 7 4 5", lines="rows+columns") == [(((0, 1, 2),), 0)]
    assert combos("9-card", "5 4 5 / 5 9 5 / 5 2 5", lines="rows+columns") == [
        (((0, 3, 6), (2, 5, 8)), -30)]
    assert combos("6-card", "5 9 5 / 5 3 8") == [(((0, 3),), 0)]
    assert combos("6-card", "J 4 J / J 7 J") == [(((0, 3),), 0), (((2, 5),), 0)]
    assert combos("6-card", "J 4 J / J 7 J", four_of_a_kind=-10) == [(((0, 3), (2, 5)), -10)]
    assert combos("polish-poker", "JK 4 9 / JK 4 2") == [(((0, 3),), 0), (((1, 4),), 0)]
    assert combos("polish-poker", "JK 4 9 / JK 4 2", negative_pairs_keep=True) == [
        (((0, 3),), -4), (((1, 4),), 0)]
    assert combos("4-card", "K K / K K") == []


# Every setting of the rules that decide which cards score together. Each column-pairs
# variant is given both of their rules, in every combination: the scoring reads both
# (the config offers four_of_a_kind in 6-card, negative_pairs_keep in polish-poker).
# A four_of_a_kind that is on is given a number drawn by scored_grids.
SCORING_RULES = [("4-card", {}), ("9-card", {"lines": "rows"}), ("9-card", {"lines": "rows+columns"})] + [
    (name, {"negative_pairs_keep": keep, "four_of_a_kind": four})
    for name in ("6-card", "polish-poker") for keep in (False, True) for four in (None, -10)]


def test_every_house_rule_that_changes_a_score_is_held_to_the_plain_scoring():
    """SCORING_RULES is written by hand: a house rule added since that changes what a
    grid scores (tried: a 6-card jack_pairs) was never drawn below, nor written into
    plain_score. Any other rule scores every grid of two ranks as its defaults do."""
    import itertools

    held = {name for _, setting in SCORING_RULES for name in setting}
    for variant in VARIANTS.values():
        ranks = range(14 if variant.has_jokers else 13)
        default = make_rules(variant, {})
        for spec in variant.rule_specs:
            if spec.name in held:
                continue
            for value in spec.choices(spec.default):
                rules = make_rules(variant, {spec.name: "off" if value is None else value})
                for pair in itertools.combinations(ranks, 2):
                    for grid in itertools.product(pair, repeat=variant.size):
                        assert grid_score(variant, rules, grid) == grid_score(
                            variant, default, grid), (variant.name, spec.name, value, grid)


def rules_for(variant, setting):
    from golfbox.engine import Rules

    return Rules({**make_rules(variant, {}), **setting})


def plain_score(variant, rules, ranks):
    """RULES.md's scoring as the page states it, line by line, to hold the engine to."""
    from collections import Counter

    from golfbox.engine import NINE_CARD_LINE_SCORES

    values, rows, cols = variant.values, variant.rows, variant.cols
    if variant.scoring == "sum":
        return sum(values[r] for r in ranks)
    if variant.scoring == "column_pairs":
        total, pairs = 0, Counter()
        for top, bottom in zip(ranks[:cols], ranks[cols:]):
            if top != bottom:
                total += values[top] + values[bottom]
            elif rules["negative_pairs_keep"] and values[top] < 0:
                total += 2 * values[top]  # the house rule: a pair of jokers keeps its -4
            else:
                pairs[top] += 1  # a pair scores 0 ...
        four = rules["four_of_a_kind"]  # ... and two pairs of one rank this, if set
        return total + sum(count // 2 * four for count in pairs.values()) if four is not None else total
    lines = [range(r * cols, (r + 1) * cols) for r in range(rows)]
    if rules["lines"] == "rows+columns":
        lines += [range(c, rows * cols, cols) for c in range(cols)]
    used, complete = set(), []
    for line in lines:  # rows first, then columns; a card counts in one line only
        if not used & set(line) and len({ranks[p] for p in line}) == 1:
            used |= set(line)
            complete.append(ranks[line[0]])
    total = sum(values[r] for p, r in enumerate(ranks) if p not in used)
    for rank, count in Counter(complete).items():
        total += count // 2 * -30 + count % 2 * NINE_CARD_LINE_SCORES.get(rank, 0)
    return total


def check_combinations(variant, rules, ranks):
    """The combinations are whole lines of one rank, no card in two, and the cards
    outside them plus the combinations' scores make the grid's score."""
    from golfbox.engine import scoring_combinations

    found = scoring_combinations(variant, rules, ranks)
    inside = [p for c in found for line in c.lines for p in line]
    assert len(inside) == len(set(inside)), found
    for c in found:
        assert len({ranks[p] for line in c.lines for p in line}) == 1, c
        assert all(len(line) == variant.rows for line in c.lines), c  # whole lines
    outside = sum(variant.values[r] for p, r in enumerate(ranks) if p not in inside)
    assert outside + sum(c.score for c in found) == grid_score(variant, rules, ranks), found


@st.composite
def scored_grids(draw):
    """A variant, its scoring rules and a grid of a few ranks (pairs and lines come often)."""
    name, setting = draw(st.sampled_from(SCORING_RULES))
    variant = get_variant(name)
    if setting.get("four_of_a_kind") is not None:
        setting = dict(setting, four_of_a_kind=draw(st.integers(-1000, 1000)))
    alphabet = draw(st.lists(st.integers(0, 13 if variant.has_jokers else 12),
                             min_size=1, max_size=4, unique=True))
    ranks = draw(st.lists(st.sampled_from(alphabet), min_size=variant.size, max_size=variant.size))
    return variant, rules_for(variant, setting), ranks


@settings(max_examples=600, deadline=None)  # 3,000 took 9-14 s; small grids: exhaustive below
@given(scored_grids())
def test_the_score_is_the_rule_and_what_the_combinations_imply(grid):
    """For every variant, every setting of the rules that make combinations and any grid:
    grid_score scores as RULES.md says, and the combinations the reveal marks add up
    to it (search scores thousands of grids a decision; a player checks the marks)."""
    variant, rules, ranks = grid
    assert grid_score(variant, rules, ranks) == plain_score(variant, rules, ranks)
    check_combinations(variant, rules, ranks)


def test_every_combination_is_whole_lines_of_one_rank_on_every_small_grid():
    """The property above draws its grids: the rare ones (three lines of one rank,
    three paired columns of one rank beside four_of_a_kind, a kept joker pair beside
    a plain one) come only by chance. Here every grid of three or four ranks."""
    import itertools

    cases = [("9-card", {}, (3, 12, 13)), ("9-card", {"lines": "rows+columns"}, (3, 12, 13)),
             ("6-card", {"four_of_a_kind": -10}, (0, 1, 10, 12)),
             ("polish-poker", {"negative_pairs_keep": True}, (0, 9, 12, 13)),
             ("polish-poker", {}, (0, 9, 12, 13))]
    for name, setting, alphabet in cases:
        variant = get_variant(name)
        rules = make_rules(variant, setting)
        for ranks in itertools.product(alphabet, repeat=variant.size):
            check_combinations(variant, rules, ranks)
