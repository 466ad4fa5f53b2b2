"""golfbox score: score grids written in the notation of RULES.md."""

from __future__ import annotations

import argparse

from golfbox.commands import UsageError, output
from golfbox.engine import (NotationError, RuleError, VARIANTS, check_cards_exist, get_variant,
                            make_rules, parse_grid, parse_rule_args, round_scores, suited_cards)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, help=f"one of {', '.join(VARIANTS)}")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule, e.g. --rule lines=rows+columns (repeatable)")
    parser.add_argument("--ender", type=int, metavar="SEAT",
                        help="the seat (0 = first grid) that knocked or finished the round")
    parser.add_argument("grids", nargs="+", metavar="GRID",
                        help="one grid per player, e.g. 'K K JK / 4 J 3 / 7 7 7'")
    parser.epilog = "Prints each player's round score after penalties, one line per grid."


def run(args: argparse.Namespace) -> int:
    try:
        variant = get_variant(args.variant)
        rules = make_rules(variant, parse_rule_args(args.rule))
        grids = [parse_grid(text, variant) for text in args.grids]
        if len(grids) > variant.max_players:
            raise UsageError(f"{len(grids)} grids, but {variant.name} is for at most "
                             f"{variant.max_players} players")
        suited = [card for text in args.grids for card in suited_cards(text)]
        check_cards_exist(grids, variant, max(len(grids), variant.min_players), suited)
    except (RuleError, NotationError) as exc:
        raise UsageError(str(exc)) from None
    if args.ender is not None and not 0 <= args.ender < len(grids):
        last = len(grids) - 1
        seats = "one grid: seat 0" if last == 0 else f"0 to {last}: the first grid is seat 0"
        raise UsageError(f"--ender {args.ender}: seat out of range ({seats})")
    ranks = [[card >> 2 for card in grid] for grid in grids]
    output("\n".join(str(score) for score in round_scores(variant, rules, ranks, ender=args.ender)))
    return 0
