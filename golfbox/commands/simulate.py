"""golfbox simulate: play whole matches headlessly with bots."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

from golfbox.bots import DEFAULT_BOT, make_bot
from golfbox.commands import UsageError, is_terminal, output
from golfbox.engine import (DEFAULT_ROUNDS, RuleError, VARIANTS, get_variant, make_rules,
                            parse_rule_args)
from golfbox.bots.simulate import simulate
from golfbox.table.settings import MAX_SEED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, help=f"one of {', '.join(VARIANTS)}")
    parser.add_argument("--players", type=int, metavar="N",
                        help="players at the table, one bot each (may be left out when --bots "
                             "names a bot per seat)")
    parser.add_argument("--matches", type=int, required=True, metavar="M",
                        help="matches to play (Ctrl-C stops early and prints what was played)")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                        help=f"rounds per match (default {DEFAULT_ROUNDS})")
    parser.add_argument("--seed", type=int, help="the same seed gives the same results")
    parser.add_argument("--bots", default=DEFAULT_BOT,
                        help=f"bot per seat, P1 first, comma separated (one name: every seat), "
                             f"e.g. easy,hard "
                             f"(default {DEFAULT_BOT}; random is the fastest)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule, e.g. --rule final_turn=on (repeatable)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (its lists hold one entry a seat, P1 first)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


class ProgressBar:
    """A one-line bar of rounds played on stderr: drawn at once, then again whenever
    INTERVAL seconds have passed, so it moves however long the run (by time, not by
    a share of the work: 1 % of a long run can take minutes)."""

    INTERVAL = 0.25  # seconds

    def __init__(self, total: int, stream=sys.stderr, width: int = 30, clock=time.monotonic):
        self.total, self.stream, self.width, self.clock = total, stream, width, clock
        self.next_draw = None  # draw at the first call

    def __call__(self, done: int) -> None:
        now = self.clock()
        if done < self.total and self.next_draw is not None and now < self.next_draw:
            return
        self.next_draw = now + self.INTERVAL
        width = self.fitting_width()
        filled = width * done // self.total
        # ESC [ K erases the rest of the line: a bar narrowed with its terminal would
        # leave the wider one's tail.
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                          f"{done:,}/{self.total:,} rounds\x1b[K")
        self.stream.flush()

    def fitting_width(self) -> int:
        """The bar's cells, fewer in a narrow terminal: a line that reached its last
        column wrapped, and each redraw went back to the start of its last line only."""
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, ValueError, OSError):  # not a terminal (a test's StringIO)
            return self.width
        if columns <= 0:  # a terminal that does not say (a serial console): as before
            return self.width
        widest = len(f"[] {self.total:,}/{self.total:,} rounds")  # the same width all along
        return max(0, min(self.width, columns - 1 - widest))

    def end(self) -> None:
        if self.next_draw is not None:
            self.stream.write("\n")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    if args.players is None:  # a list of bots already says how many seats there are
        if len(bots) == 1:
            raise UsageError("--players is needed when --bots names one bot for every seat")
        args.players = len(bots)
    try:
        variant = get_variant(args.variant)
        rules = make_rules(variant, parse_rule_args(args.rule))
        variant.check_players(args.players)
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    if args.matches < 1 or args.rounds < 1:
        raise UsageError("--matches and --rounds must be at least 1")
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:  # -5 gave the results of 5
        raise UsageError(f"--seed {args.seed}: a whole number from 0 to {MAX_SEED}")
    if len(bots) == 1:
        bots *= args.players
    if len(bots) != args.players:
        raise UsageError(f"--bots names {len(bots)} bots for {args.players} players")
    for name in bots:
        try:
            make_bot(name, random.Random(0))  # refuses an unknown name, listing the known ones
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    total = args.matches * args.rounds
    progress = ProgressBar(total) if not args.no_progress and is_terminal(sys.stderr) else None
    try:
        result = simulate(variant, args.players, rules, matches=args.matches, rounds=args.rounds,
                          bots=bots, seed=args.seed, progress=progress).as_dict()
    finally:
        if progress is not None:
            progress.end()
    status = 130 if result["interrupted"] else 0  # Ctrl-C: the summary so far, then 128 + SIGINT
    output(json.dumps(result) if args.json else summary_text(result, args.matches))
    return status


def summary_text(result: dict, matches_asked: int) -> str:
    """The table of seats that ``simulate`` prints, from SimulationResult.as_dict()."""
    lines = []
    if result["interrupted"]:
        lines.append(f"interrupted (Ctrl-C) after {result['matches']} of {matches_asked} matches; "
                     "what was played so far:")
    lines.append(f"{result['matches']} matches, {result['rounds']} rounds, {result['turns']} turns "
                 f"of {result['variant']} with {result['players']} players")
    lines.append(f"{'seat':>4} {'bot':<8} {'total':>8} {'wins':>8} {'mean/round':>10}")
    for seat, bot in enumerate(result["bots"]):  # P1 is seat 1, as every display says
        lines.append(f"{f'P{seat + 1}':>4} {bot:<8} {result['totals'][seat]:>8} {result['wins'][seat]:>8.1f} "
                     f"{result['mean_round_score'][seat]:>10.2f}")
    if result["interrupted"]:
        # The unfinished match has no total or winner yet, but its rounds were played.
        lines.append(f"total and wins: the {result['matches']} finished matches; "
                     f"mean/round: all {result['rounds']} rounds played")
    rate = result["rounds_per_s"] or 0
    rate_text = f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"  # hard bots: 0.2, not 0
    lines.append(f"elapsed {result['elapsed_s']:.2f} s, {rate_text} rounds/s")
    return "\n".join(lines)
