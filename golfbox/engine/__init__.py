"""The rules of Golf: pure, deterministic from a seed, no I/O, no threads, no clock.

Only the engine decides rules. Everything else asks it what a seat may do
(``legal_actions``) and what a seat may see (``view``), and imports it from
here, never from its modules.

Cards are small integers; a grid is scored by its variant and house rules
(6-card: a pair in a column scores 0, a king 0, a jack 10):

>>> card_name(parse_card("QH")), rank_of(parse_card("QH")) == QUEEN
('QH', True)
>>> six = get_variant("6-card")
>>> grid = parse_grid("5H 5S KD / 5C JH 3D", six)
>>> grid_score(six, make_rules(six, {}), [rank_of(c) for c in grid])
18

A round, dealt from a seed, says what each seat may do and applies it:

>>> import random
>>> rnd = Round(six, make_rules(six, {}), players=2, rng=random.Random(7))
>>> rnd.phase, rnd.phase == "start", rnd.acting_seats
(<Phase.START: 'start'>, True, (0, 1))
>>> [str(a) for a in rnd.legal_actions(1)]
['flip 0', 'flip 1', 'flip 2', 'flip 3', 'flip 4', 'flip 5']
>>> rnd.apply(1, Action.parse("flip 4"))
>>> rnd.apply(1, Action(ActionKind.FLIP, 5))
>>> rnd.legal_actions(1)
()

A seat's view holds only what that seat may know: its unseen cards are None.

>>> view = rnd.view(1)
>>> [card is not None for card in view.own_grid]
[False, False, False, False, True, True]
>>> rnd.view(0).grids[1][4] == view.own_grid[4]  # turned up: public
True
>>> rnd.view(0).own_grid
(None, None, None, None, None, None)
"""

from golfbox.engine.actions import (DISCARD, DRAW, FLIP, KINDS, KINDS_WITH_POS, KNOCK, PASS, PLACE,
                                    READY, TAKE, Action, ActionKind)
from golfbox.engine.cards import (ACE, JACK, JOKER, KING, QUEEN, RANK_NAMES, SUIT_SYMBOLS, Card,
                                  CardError, build_deck, card_name, parse_card, rank_of, shuffle,
                                  suit_of)
from golfbox.engine.determinize import Determinizer, public_memory, unseen_cards
from golfbox.engine.match import DEFAULT_ROUNDS, Match
from golfbox.engine.notation import NotationError, check_cards_exist, parse_grid, suited_cards
from golfbox.engine.round import IllegalAction, Round
from golfbox.engine.scoring import (FINISHER_PENALTY_PER_LOWER, NINE_CARD_LINE_SCORES, Combination,
                                    grid_score, round_scores, scoring_combinations)
from golfbox.engine.variants import (SCORE_COLUMN_PAIRS, SCORE_LINES, SCORE_SUM, VARIANTS,
                                     RuleError, Rules, Variant, bounded_rules, get_variant,
                                     make_rules, parse_rule_args)
from golfbox.engine.views import (FLIP_OPTION, HOLDING, OVER, START, TURN, Phase, PublicTable,
                                  SeatView)

__all__ = [
    # actions
    "Action", "ActionKind", "KINDS", "KINDS_WITH_POS",
    "DRAW", "TAKE", "PLACE", "DISCARD", "FLIP", "PASS", "KNOCK", "READY",
    # cards
    "Card", "CardError", "card_name", "parse_card", "rank_of", "suit_of", "build_deck", "shuffle",
    "RANK_NAMES", "SUIT_SYMBOLS", "ACE", "JACK", "QUEEN", "KING", "JOKER",
    # variants and scoring
    "VARIANTS", "Variant", "Rules", "RuleError", "get_variant", "make_rules", "parse_rule_args",
    "bounded_rules",
    "SCORE_SUM", "SCORE_COLUMN_PAIRS", "SCORE_LINES", "grid_score", "round_scores",
    "Combination", "scoring_combinations",
    "NINE_CARD_LINE_SCORES", "FINISHER_PENALTY_PER_LOWER",
    "NotationError", "parse_grid", "suited_cards", "check_cards_exist",
    # rounds, matches, views
    "Round", "IllegalAction", "Match", "DEFAULT_ROUNDS",
    "Phase", "START", "TURN", "HOLDING", "FLIP_OPTION", "OVER", "PublicTable", "SeatView",
    # search
    "Determinizer", "public_memory", "unseen_cards",
]
