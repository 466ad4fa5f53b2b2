"""Command-line entry points.

Each subcommand is a module of golfbox.commands with two functions:
``add_arguments(parser)`` and ``run(args) -> int``. They are imported only when
chosen, so ``golfbox score`` never imports gpiozero, luma or pyserial.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import logging
import os
import select
import signal
import sys
import threading

from golfbox.commands import NotNow, UsageError, stdout_to_devnull
from golfbox.configfile import escaped, one_line

DESCRIPTION = ("A table that deals, referees and scores the card game Golf. On a laptop, "
               "golfbox sim plays it in the terminal.")

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("golfbox.commands.run", "run the table (simulated when there is no config)"),
    "sim": ("golfbox.commands.sim", "play the whole table in a terminal"),
    "demo": ("golfbox.commands.demo", "play a match with bots headlessly and write pictures"),
    "score": ("golfbox.commands.score", "score grids written as in docs/RULES.md"),
    "simulate": ("golfbox.commands.simulate", "play whole matches headlessly with bots"),
    "check-hardware": ("golfbox.commands.check_hardware", "bring-up: test pattern on each display, print presses"),
    "check-config": ("golfbox.commands.check_config", "validate a config file without touching hardware"),
}


class OneLineParser(argparse.ArgumentParser):
    """An option argparse refuses is one line naming the command, as all bad input is
    (argparse printed the whole usage above it: six lines for ``golfbox sim``)."""

    command_parser: argparse.ArgumentParser | None = None  # the chosen command's, on golfbox's

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser(argv: list[str]) -> tuple[argparse.ArgumentParser, object | None]:
    parser = OneLineParser(prog="golfbox", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = None
    # Only the chosen command's module is imported; the others get a stub parser for --help.
    wanted = next((a for a in argv if a in COMMANDS), None)
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            chosen = import_holding_ctrl_c(module_name)
            chosen.add_arguments(p)
            parser.command_parser = p
    return parser, chosen


def import_holding_ctrl_c(module_name: str):
    """Import a command's module with Ctrl-C held until it is imported, then raised.

    importlib frees its module locks in weakref callbacks, and CPython prints and drops
    an exception raised in one ("Exception ignored in ... _get_module_lock"): a Ctrl-C
    landing there was lost, and the command ran on as if it had not been pressed."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return importlib.import_module(module_name)  # someone else's SIGINT: left alone
    pressed: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: pressed.append(signum))
    try:
        module = importlib.import_module(module_name)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt
    return module


def main(argv: list[str] | None = None) -> int:
    if sys.stderr is None:
        # stderr closed (2>&-): print(file=None) would write errors on stdout, which a
        # script may parse. They go nowhere; the exit status still says it. (/dev/null
        # also takes the free fd 2, so no file opened later lands there.)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:  # Ctrl-C, also while the command's modules are imported
        return 130


def _main(argv: list[str]) -> int:
    _write_what_the_terminal_cannot_show_escaped(sys.stdout)
    _write_what_the_terminal_cannot_show_escaped(sys.stderr)  # the log's lines too
    parser, module = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the command they were given to, not by "golfbox"
        (parser.command_parser or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if module is None:
        parser.print_help()
        return 2
    try:
        return int(module.run(args) or 0)
    except UsageError as exc:  # one line, whatever a path or value it quotes holds
        print(f"golfbox {args.command}: {one_line(exc)}", file=sys.stderr)
        return 2
    except NotNow as exc:
        print(f"golfbox {args.command}: {one_line(exc)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        if not _reader_gone(sys.stdout):
            raise  # another pipe broke (a socket, a worker's): a fault to report in full
        # The reader went away (golfbox simulate … | head): nothing is wrong with golfbox.
        stdout_to_devnull()
        return 128 + 13  # as a tool killed by SIGPIPE ends


def _write_what_the_terminal_cannot_show_escaped(stream) -> None:
    """On a terminal that is not UTF-8 (Latin-1, ASCII), print() raised on the first
    character it has no byte for (check-hardware's ◀, a folder's →), and the rest of the
    output was lost: it is written escaped (\\u25c0), as Python writes stderr, and a
    file name's byte that is not UTF-8 as the byte (\\xe9: configfile.escaped)."""
    if hasattr(stream, "reconfigure") and stream.errors in ("strict", "backslashreplace"):
        stream.reconfigure(errors=ESCAPED)  # not surrogateescape: that writes the byte itself


def _escape(error: UnicodeError) -> tuple[str, int]:
    """backslashreplace, but a file name's byte as that byte (configfile.escaped)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start:error.end]
    return "".join(c.encode("ascii", "backslashreplace").decode() if c.isprintable()
                   else escaped(c) for c in chars), error.end


ESCAPED = "golfbox.escaped"
codecs.register_error(ESCAPED, _escape)


def _reader_gone(stream) -> bool:
    """True if ``stream`` is a pipe whose reading end is closed (poll says POLLERR)."""
    try:
        poller = select.poll()
        poller.register(stream.fileno(), select.POLLOUT)
    except (AttributeError, ValueError, OSError):  # no file behind it (a test's capture)
        return False
    return any(events & select.POLLERR for _, events in poller.poll(0))
