"""``golfbox sim``: the whole table on a laptop, in a terminal (or a window).

The table is built exactly as on the Pi (build_hardware + assemble_table) from a
config in which every seat and the shared display are simulated. The
terminal only draws the images the sim displays were sent and turns key
presses into the button events a pad would post.

It journals like the Pi: ``--journal``, else
``$XDG_STATE_HOME/golfbox/journal.sqlite3`` (~/.local/state/golfbox/…). After
q, a crash or a closed terminal, the next start resumes the unfinished match;
``--new`` abandons it and deals a new one.
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys
import threading

from PIL import Image

from golfbox.commands import UsageError, is_terminal
from golfbox.table import sim_ui, terminal
from golfbox.table.sim import FrameDump, SimTable, fit_to_journal
from golfbox.table.terminal import MAX_HUMANS

# ---------------------------------------------------------------- arguments


def add_match_arguments(parser: argparse.ArgumentParser, *, players: int, rounds: int,
                        bot_seats: str) -> None:
    """Options shared by ``sim`` and ``demo``: what match to play (``bot_seats``: which
    seats --bot plays, in words)."""
    parser.add_argument("--players", type=int, default=players, metavar="N",
                        help=f"seats at the table (default {players})")
    parser.add_argument("--variant", default="6-card", metavar="V",
                        help="4-card, 6-card, polish-poker or 9-card (default 6-card)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a house rule, e.g. --rule final_turn=on (repeatable)")
    parser.add_argument("--rounds", type=int, default=rounds, metavar="R",
                        help=f"rounds in the match (default {rounds})")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="shuffle from this seed (replayable); default: real randomness")
    from golfbox.bots import DEFAULT_BOT

    parser.add_argument("--bot", default=None, metavar="NAME",
                        help=f"the bots in {bot_seats}: easy, medium or hard (default {DEFAULT_BOT})")
    parser.add_argument("--lang", default="en", metavar="LANG",
                        help="what the displays say: en or fr (default en; the terminal's "
                             "own lines stay English)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Past --humans, where nobody can join: the lobby's empty seats, their bots at --bot's
    # level until the lobby chooses another (with any seat of --humans nobody joins).
    add_match_arguments(parser, players=4, rounds=9, bot_seats="the seats past --humans")
    parser.add_argument("--humans", type=int, default=1, metavar="H",
                        help=f"seats played from this keyboard, seats 1..H (0-{MAX_HUMANS}, default 1)")
    parser.add_argument("--bot-delay", type=float, default=1.0, metavar="SECONDS",
                        help="how long a bot thinks before it moves (default 1.0)")
    parser.add_argument("--lobby", action="store_true",
                        help="start in the lobby as the Pi does (● joins, hold ● deals) "
                             "instead of dealing at once")
    parser.add_argument("--all-screens", action="store_true",
                        help="with --humans 2 or more, show every person's screen at once (one "
                             "person playing them all); otherwise each shows after its own keys")
    parser.add_argument("--window", action="store_true",
                        help="draw in a pygame window (luma.emulator) instead of the terminal")
    parser.add_argument("--cells", choices=tuple(terminal.CELL_MODES), default="auto",
                        help="how pixels become characters: halfblock (1×2 pixels a cell, needs "
                             "256×68), braille (2×4, needs 128×36) or auto, the first that fits "
                             "(default auto)")
    parser.add_argument("--dump-frames", metavar="DIR", default=None,
                        help="keep the latest picture of each display as DIR/shared.png, DIR/seat1.png …")
    add_journal_arguments(parser)


def add_journal_arguments(parser: argparse.ArgumentParser) -> None:
    """--journal and --new, for ``sim`` (``run`` has its own --journal)."""
    parser.add_argument("--journal", metavar="PATH", default=None,
                        help="the journal file (default ~/.local/state/golfbox/journal.sqlite3, "
                             "under $XDG_STATE_HOME if set); an unfinished match in it resumes")
    parser.add_argument("--new", action="store_true",
                        help="start a new match instead of resuming the unfinished one in the journal")


def table_settings(args: argparse.Namespace, *, humans: int, bot_delay: float, auto_start: bool):
    """TableSettings from the command line; UsageError names whatever is wrong."""
    from golfbox.bots import BOTS, DEFAULT_BOT
    from golfbox.engine import RuleError, get_variant, make_rules, parse_rule_args
    from golfbox.hal.config import MAX_SEATS
    from golfbox.render.words import LANGUAGES
    from golfbox.table.settings import MAX_ROUNDS, MAX_SEED, TableSettings

    players = getattr(args, "players", 4)
    try:
        variant = get_variant(getattr(args, "variant", "6-card"))
        variant.check_players(players)
        rules = parse_rule_args(getattr(args, "rule", []) or [])
        make_rules(variant, rules)  # validate now, with the rule's name in the message
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    if players > MAX_SEATS:  # 4-card allows 10 players; the table has at most 8 seats
        raise UsageError(f"--players {players}: the table has at most {MAX_SEATS} seats")
    rounds = getattr(args, "rounds", 9)
    if not 1 <= rounds <= MAX_ROUNDS:  # as [game] rounds
        raise UsageError(f"--rounds {rounds}: a match has 1 to {MAX_ROUNDS} rounds")
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed <= MAX_SEED:  # as [game] seed; -5 dealt as 5
        raise UsageError(f"--seed {seed}: a whole number from 0 to {MAX_SEED}")
    if humans < 0:
        raise UsageError(f"--humans {humans}: from 0 (bots only) to {min(players, MAX_HUMANS)}")
    if humans > players:
        raise UsageError(f"--humans {humans}: the table has {players} players (--players)")
    if humans > MAX_HUMANS:
        raise UsageError(f"--humans {humans}: one keyboard has keys for at most {MAX_HUMANS} seats")
    if not math.isfinite(bot_delay):  # float() takes "nan" and "inf"
        raise UsageError(f"--bot-delay {bot_delay}: not a number of seconds")
    if bot_delay < 0:
        raise UsageError(f"--bot-delay {bot_delay}: must be 0 or more seconds")
    language = getattr(args, "lang", "en")
    if language not in LANGUAGES:
        raise UsageError(f"--lang {language}: one of {', '.join(LANGUAGES)}")
    bot = getattr(args, "bot", None)
    bot = DEFAULT_BOT if bot is None else bot  # --bot "" is no bot's name, not the default
    if bot not in BOTS:
        raise UsageError(f"--bot {bot}: unknown bot (one of: {', '.join(sorted(BOTS))})")
    return TableSettings(
        variant=variant.name, rules=rules, rounds=rounds, seats=players,
        bots={seat: bot for seat in range(humans, players)}, lobby_fills_bots=True,
        bot_delay=bot_delay, auto_start=auto_start, seed=seed,
        language=language,
    )


# ---------------------------------------------------------------- entry point


def run(args: argparse.Namespace) -> int:
    # ``golfbox run`` with no config comes here with its own args: every option has a default.
    humans = getattr(args, "humans", 1)
    window = getattr(args, "window", False)
    all_screens = getattr(args, "all_screens", False)
    if getattr(args, "lobby", False) and humans == 0:  # only a person joined there deals
        raise UsageError("--lobby with --humans 0: nobody at this keyboard could deal")
    settings = table_settings(args, humans=humans, bot_delay=getattr(args, "bot_delay", 1.0),
                              auto_start=not getattr(args, "lobby", False))
    dump_dir = getattr(args, "dump_frames", None)
    if dump_dir is not None and not dump_dir.strip():  # it dumped nothing, saying nothing
        raise UsageError("--dump-frames: an empty path is not a folder")
    try:
        dump = FrameDump(dump_dir) if dump_dir else None
    except FileExistsError:  # its strerror, "File exists", read as if that were the trouble
        raise UsageError(f"--dump-frames {dump_dir}: is a file, not a folder") from None
    except OSError as exc:
        raise UsageError(f"--dump-frames {dump_dir}: {exc.strerror or exc}") from None
    if not window and not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        raise UsageError("the simulator needs a terminal (or use --window)")
    if not window and (problem := sim_ui.terminal_problem()):
        raise UsageError(problem)
    root = logging.getLogger()
    if not window and root.level == logging.INFO:  # not -v: notes printed before the curses
        root.setLevel(logging.WARNING)  # screen stay above it; its top line says "resumed"
    journal = open_sim_journal(getattr(args, "journal", None), settings.seats,
                               new=getattr(args, "new", False))

    changed = threading.Event()

    def on_change(key: str, image: Image.Image) -> None:
        if dump is not None:
            dump.write(key, image)
        changed.set()

    human_seats = fit_to_journal(settings, journal, list(range(humans)), MAX_HUMANS)
    table = SimTable(settings, on_change=on_change, journal=journal)
    with QuitOnSignals(table):
        try:
            if window:  # opened before the table starts: with no screen, nothing is played
                try:
                    ui = sim_ui.WindowUI(table, human_seats, changed, all_screens)
                except sim_ui.WindowUnavailable as exc:
                    raise UsageError(str(exc)) from None
                table.start()
                ui.loop()
            else:
                table.start()
                cells = terminal.CELL_MODES[getattr(args, "cells", "auto")]
                sim_ui.run_terminal(table, human_seats, changed, cells, all_screens)
        finally:
            table.on_change = None  # the dumps keep the game, not the "paused" notice
            table.close()
    if table.error is not None:
        print(f"golfbox sim: the table stopped: {table.error!r}", file=sys.stderr)
        return 1
    return 0


def open_sim_journal(path: str | None, seats: int, *, new: bool):
    """The laptop's journal (as ``golfbox run`` picks it); UsageError for a file that is not one."""
    from golfbox.hal.config import sim_config
    from golfbox.commands.run import journal_path, open_journal, start_afresh

    journal = open_journal(journal_path(path, sim_config(seats), laptop=True))
    if new:
        start_afresh(journal)
    return journal


class QuitOnSignals:
    """SIGTERM (kill), SIGHUP (the terminal window closed) and SIGINT (Ctrl-C) quit
    like q. The handler only notes the signal in ``table.quit_requested``, which the
    front end's loop reads every 50 ms: a handler that raised could land in the
    clean-up and cut it short, or between a lock's acquire and its release and hang
    the table. Once a signal has asked, it stays in place for good: a second signal
    while the table closes, or while the process exits after it, changes nothing."""

    SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def __init__(self, table: SimTable):
        self.table = table

    def note(self, signum, frame) -> None:
        self.table.quit_requested = signum

    def __enter__(self) -> "QuitOnSignals":
        self.previous = {sig: signal.signal(sig, self.note) for sig in self.SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        if self.table.quit_requested is None:  # q, or an error: signals act as before
            for sig, handler in self.previous.items():
                signal.signal(sig, handler)


