"""The rules of Golf: pure, deterministic from a seed, no I/O, no threads, no clock.

Only the engine decides rules. Everything else asks it what a seat may do
(``legal_actions``) and what a seat may see (``view``).
"""

from golfbox.engine.actions import Action
from golfbox.engine.cards import Card, card_name, parse_card, rank_of
from golfbox.engine.match import DEFAULT_ROUNDS, Match
from golfbox.engine.round import IllegalAction, Round
from golfbox.engine.scoring import grid_score, round_scores
from golfbox.engine.variants import VARIANTS, RuleError, Rules, Variant, get_variant, make_rules
from golfbox.engine.views import FLIP_OPTION, HOLDING, OVER, START, TURN, PublicTable, SeatView

__all__ = [
    "Action", "Card", "card_name", "parse_card", "rank_of", "DEFAULT_ROUNDS", "Match",
    "IllegalAction", "Round", "grid_score", "round_scores", "VARIANTS", "RuleError", "Rules",
    "Variant", "get_variant", "make_rules", "FLIP_OPTION", "HOLDING", "OVER", "START", "TURN",
    "PublicTable", "SeatView",
]
