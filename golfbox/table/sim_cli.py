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
import curses
import locale
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from PIL import Image

from golfbox.cli import UsageError
from golfbox.hal.base import Button, EventKind
from golfbox.table import terminal
from golfbox.table.terminal import SEAT_KEYS, MAX_HUMANS, TooSmall

log = logging.getLogger(__name__)

SHARED = "shared"


def seat_key(seat: int) -> str:
    return f"seat-{seat}"


def dump_name(key: str) -> str:
    """File name of a display's picture: shared.png, seat1.png … (seats 1-based, as shown)."""
    return "shared.png" if key == SHARED else f"seat{int(key.split('-')[1]) + 1}.png"


# ---------------------------------------------------------------- arguments


def add_match_arguments(parser: argparse.ArgumentParser, *, players: int, rounds: int) -> None:
    """Options shared by ``sim`` and ``demo``: what match to play."""
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
    parser.add_argument("--bot", default=None, metavar="NAME",
                        help="the bot in the seats nobody plays (default greedy)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_match_arguments(parser, players=4, rounds=9)
    parser.add_argument("--humans", type=int, default=1, metavar="H",
                        help=f"seats played from this keyboard, seats 1..H (0-{MAX_HUMANS}, default 1)")
    parser.add_argument("--bot-delay", type=float, default=1.0, metavar="SECONDS",
                        help="how long a bot thinks before it moves (default 1.0)")
    parser.add_argument("--lobby", action="store_true",
                        help="start in the lobby as the Pi does (● joins, hold ● deals) "
                             "instead of dealing at once")
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
    from golfbox.bots import DEFAULT_BOT, make_bot
    from golfbox.bots.base import BOTS

    make_bot(DEFAULT_BOT, __import__("random").Random(0))  # registers every bot
    from golfbox.engine.variants import RuleError, get_variant, make_rules, parse_rule_args
    from golfbox.table.settings import TableSettings

    players = getattr(args, "players", 4)
    try:
        variant = get_variant(getattr(args, "variant", "6-card"))
        variant.check_players(players)
        rules = parse_rule_args(getattr(args, "rule", []) or [])
        make_rules(variant, rules)  # validate now, with the rule's name in the message
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    rounds = getattr(args, "rounds", 9)
    if rounds < 1:
        raise UsageError(f"--rounds {rounds}: a match has at least one round")
    if not 0 <= humans <= players:
        raise UsageError(f"--humans {humans}: the table has {players} players (--players)")
    if humans > MAX_HUMANS:
        raise UsageError(f"--humans {humans}: one keyboard has keys for at most {MAX_HUMANS} seats")
    if bot_delay < 0:
        raise UsageError(f"--bot-delay {bot_delay}: must be 0 or more seconds")
    bot = getattr(args, "bot", None) or DEFAULT_BOT
    if bot not in BOTS:
        raise UsageError(f"--bot {bot}: unknown bot (one of: {', '.join(sorted(BOTS))})")
    return TableSettings(
        variant=variant.name, rules=rules, rounds=rounds, seats=players,
        bots={seat: bot for seat in range(humans, players)},
        bot_delay=bot_delay, auto_start=auto_start, seed=getattr(args, "seed", None),
    )


# ---------------------------------------------------------------- the simulated table


class SimTable:
    """Simulated hardware from a sim config, and the same TableService the Pi runs."""

    def __init__(self, settings, *, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str, Image.Image], None] | None = None, journal=None):
        from golfbox.hal.build import build_hardware
        from golfbox.hal.config import sim_config
        from golfbox.table.assemble import assemble_table

        self.settings = settings
        self.on_change = on_change
        self.journal = journal
        # The match found unfinished in the journal, which the service resumes (None: a new one).
        self.resumed = journal.unfinished() if journal is not None else None
        self.service = None
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # Pads and failing displays post into the service, which exists a line later.
        self.hardware = build_hardware(sim_config(settings.seats), self._post, clock=clock)
        self.keys: dict[int, str] = {}  # id(SimDisplay) -> "shared" / "seat-N"
        for seat, display in self.hardware.seat_displays.items():
            self._watch(display, seat_key(seat))
        if self.hardware.shared_display is not None:
            self._watch(self.hardware.shared_display, SHARED)
        # In real time, hard bots think off the loop; on a virtual clock (demo) they think inline.
        try:
            self.service = assemble_table(settings, self.hardware.pads, self.hardware.seat_displays,
                                        self.hardware.shared_display, journal, clock=clock,
                                        think_off_loop=clock is time.monotonic)
        except BaseException:
            self.hardware.close()
            if journal is not None:
                journal.close()
            raise

    def _watch(self, display, key: str) -> None:
        sim = getattr(display, "inner", display)  # ResilientDisplay wraps the SimDisplay
        self.keys[id(sim)] = key
        sim.on_change = self._changed

    def _changed(self, sim) -> None:
        if self.on_change is not None:
            self.on_change(self.keys[id(sim)], sim.image)

    def _post(self, event) -> None:
        if self.service is not None:
            self.service.post(event)

    def sim_display(self, key: str):
        display = self.hardware.shared_display if key == SHARED else \
            self.hardware.seat_displays[int(key.split("-")[1])]
        return getattr(display, "inner", display)

    def image(self, key: str) -> Image.Image | None:
        return self.sim_display(key).image

    @property
    def display_keys(self) -> list[str]:
        keys = [seat_key(s) for s in sorted(self.hardware.seat_displays)]
        return keys + ([SHARED] if self.hardware.shared_display is not None else [])

    def press(self, seat: int, button: Button, kind: EventKind) -> None:
        pad = self.hardware.sim_pad
        if kind is EventKind.HELD:
            pad.hold(seat, button)  # PRESSED then HELD, as a GPIO pad sends a long press
        else:
            pad.press(seat, button)

    def start(self) -> None:
        def serve() -> None:
            try:
                self.service.run(self._stop)
            except BaseException as exc:  # shown to the user by the front end
                self.error = exc
                log.exception("table service stopped")

        self._thread = threading.Thread(target=serve, name="table", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.service.close("paused")
        finally:
            self.hardware.close()

    def status(self) -> str:
        """'polish-poker · round 2/9 · playing': the game being played or chosen, in words."""
        return self.service.status_words()


class FrameDump:
    """--dump-frames: the latest picture of each display, written atomically as PNG."""

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    def write(self, key: str, image: Image.Image | None) -> None:
        if image is None:
            return
        path = self.directory / dump_name(key)
        partial = path.with_suffix(".tmp")
        image.save(partial, format="PNG")
        os.replace(partial, path)


# ---------------------------------------------------------------- entry point


def run(args: argparse.Namespace) -> int:
    # ``golfbox run`` with no config comes here with its own args: every option has a default.
    humans = getattr(args, "humans", 1)
    window = getattr(args, "window", False)
    settings = table_settings(args, humans=humans, bot_delay=getattr(args, "bot_delay", 1.0),
                              auto_start=not getattr(args, "lobby", False))
    dump_dir = getattr(args, "dump_frames", None)
    dump = FrameDump(dump_dir) if dump_dir else None
    if not window and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the simulator needs a terminal (or use --window)")
    journal = open_sim_journal(getattr(args, "journal", None), settings.seats,
                               new=getattr(args, "new", False))

    changed = threading.Event()

    def on_change(key: str, image: Image.Image) -> None:
        if dump is not None:
            dump.write(key, image)
        changed.set()

    human_seats = fit_to_journal(settings, journal, list(range(humans)))
    table = SimTable(settings, on_change=on_change, journal=journal)
    # SIGTERM (kill) and SIGHUP (the terminal window closed) quit like q: the
    # KeyboardInterrupt unwinds through curses.wrapper, which restores the terminal.
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        table.start()
        if window:
            WindowUI(table, human_seats, changed).loop()
        else:
            cells = terminal.CELL_MODES[getattr(args, "cells", "auto")]
            _run_terminal(table, human_seats, changed, cells)
    except KeyboardInterrupt:
        pass  # Ctrl-C quits like q; curses.wrapper has restored the terminal
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        table.on_change = None  # the dumps keep the game, not the "paused" notice
        table.close()
    if table.error is not None:
        print(f"golfbox sim: the table stopped: {table.error!r}", file=sys.stderr)
        return 1
    return 0


def open_sim_journal(path: str | None, seats: int, *, new: bool):
    """The laptop's journal (as ``golfbox run`` picks it); UsageError for a file that is not one."""
    from golfbox.hal.config import sim_config
    from golfbox.table.service_cli import journal_path, open_journal, start_afresh

    journal = open_journal(journal_path(path, sim_config(seats), laptop=True))
    if new:
        start_afresh(journal)
    return journal


def fit_to_journal(settings, journal, humans: list[int]) -> list[int]:
    """A match to resume keeps its own table: as many seats, people where people sat
    (whatever --players/--humans say now). Returns the seats played from the keyboard."""
    from golfbox.table.lobby import Player

    unfinished = journal.unfinished()
    if unfinished is None:
        return humans
    try:
        players = [Player.from_json(p) for p in unfinished.players]
    except (KeyError, TypeError, ValueError):
        return humans  # the service sets an unreadable match aside and deals a new one
    if not players:
        return humans
    settings.seats = max(2, max(p.seat for p in players) + 1)
    settings.bots = {p.seat: p.bot for p in players if p.bot is not None}
    settings.names = {seat: f"P{seat + 1}" for seat in range(settings.seats)}
    return sorted(p.seat for p in players if p.bot is None)[:MAX_HUMANS]


def press_key(table, keys_of, key) -> None:
    """The button (and press or hold) that ``key`` stands for, on the seat it belongs to."""
    for seat, keys in keys_of.items():
        found = keys.lookup(key)
        if found is not None:
            table.press(seat, *found)
            return


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _run_terminal(table: SimTable, humans: list[int], changed: threading.Event,
                  cells: tuple[terminal.CellGeometry, ...] = terminal.CELL_MODES["auto"]) -> None:
    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")  # Esc-prefixed keys (Shift+arrows) without a lag
    # The log would scribble over the curses screen: keep only errors, and after exit.
    root = logging.getLogger()
    saved_level = root.level
    root.setLevel(logging.CRITICAL)
    try:
        curses.wrapper(lambda screen: TerminalUI(screen, table, humans, changed, cells).loop())
    finally:
        root.setLevel(saved_level)


# ---------------------------------------------------------------- curses front end


class TerminalUI:
    def __init__(self, screen, table: SimTable, humans: list[int], changed: threading.Event,
                 cells: tuple[terminal.CellGeometry, ...] = terminal.CELL_MODES["auto"]):
        self.screen = screen
        self.cells = cells  # the drawings to try on every redraw, finest first
        self.table = table
        self.humans = humans
        self.changed = changed
        self.keys_of = {seat: SEAT_KEYS[i] for i, seat in enumerate(humans)}
        # Tab walks the seats: the humans first, then the bots.
        bots = [s for s in range(table.settings.seats) if s not in humans]
        self.seat_order = humans + bots
        self.first_shown = 0
        self.next_first = 0  # where Tab moves first_shown: the layout drawn last says
        self.show_help = False
        self.pressed = False  # the first screen says "resumed" until a key is pressed
        self.pairs: dict[tuple[int, int], int] = {}
        self._init_colours()

    def _init_colours(self) -> None:
        curses.curs_set(0)
        if not curses.has_colors():
            return
        curses.start_color()
        # An OLED is black with lit pixels: black, dim, mid, full.
        if curses.COLORS >= 256:
            shades = [curses.COLOR_BLACK, 240, 248, 231]
        else:
            shades = [curses.COLOR_BLACK, curses.COLOR_WHITE, curses.COLOR_WHITE, curses.COLOR_WHITE]
        pair = 1
        for fg in range(terminal.LEVELS):
            for bg in range(terminal.LEVELS):
                if pair < curses.COLOR_PAIRS:
                    curses.init_pair(pair, shades[fg], shades[bg])
                    self.pairs[fg, bg] = pair
                pair += 1

    def loop(self) -> None:
        self.screen.timeout(50)
        self.screen.keypad(True)
        self.draw()
        while True:
            if self.table.error is not None or not self.table.running:
                return
            try:
                key = self.screen.get_wch()
            except curses.error:  # no key within the timeout
                key = None
            except KeyboardInterrupt:
                return
            if key is not None and not self.handle(key):
                return
            if key is not None or self.changed.is_set():
                self.changed.clear()
                self.draw()

    def handle(self, key: str | int) -> bool:
        """Act on one key; False means quit."""
        if key != curses.KEY_RESIZE:
            self.pressed = True
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
            return True
        if key in terminal.QUIT_KEYS:
            return False
        if self.show_help:
            self.show_help = False  # any other key closes the help
            return True
        if key in terminal.HELP_KEYS:
            self.show_help = True
        elif key in terminal.NEXT_VIEW_KEYS and self.seat_order:
            self.first_shown = self.next_first  # the seats the top line's "Tab:" names
        else:
            press_key(self.table, self.keys_of, key)
        return True

    # ---- drawing

    def draw(self) -> None:
        screen = self.screen
        screen.erase()
        rows, cols = screen.getmaxyx()
        shared = self.table.sim_display(SHARED).size if self.table.hardware.shared_display else None
        seat_size = self.table.sim_display(seat_key(0)).size
        # Planned on every redraw, so a resize switches between half-blocks and Braille.
        layout = terminal.plan_layout(cols, rows, shared, seat_size, self.seat_order,
                                      self.first_shown, frozenset(self.humans), self.cells)
        if isinstance(layout, TooSmall):
            self._too_small(rows, cols, layout, shared, seat_size)
        else:
            self.next_first = layout.next_first
            self._status(cols, layout)
            for panel in layout.panels:
                self._panel(panel, layout.cell)
        if self.show_help:
            self._box(terminal.help_lines(self.humans), rows, cols)
        screen.refresh()

    def _put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        rows, cols = self.screen.getmaxyx()
        if 0 <= y < rows and 0 <= x < cols:
            try:
                self.screen.addstr(y, x, text[:cols - x], attr)
            except curses.error:  # writing the bottom-right cell moves the cursor off-screen
                pass

    def _status(self, cols: int, layout: terminal.Layout) -> None:
        left = f" golfbox sim · {self.table.status()}"
        if self.table.resumed is not None and not self.pressed:
            left += " · resumed the unfinished match (golfbox sim --new starts afresh)"
        hidden = terminal.tab_hint(layout)
        # Say so when Braille is used: its cells have one colour each, unlike half-blocks.
        drawing = "Braille  " if layout.cell == terminal.BRAILLE else ""
        right = f"{hidden}{drawing}? help  q quit "
        self._put(0, 0, left.ljust(cols), curses.A_REVERSE)
        self._put(0, max(len(left) + 1, cols - len(right)), right, curses.A_REVERSE)

    def _panel(self, panel: terminal.Panel, cell: terminal.CellGeometry = terminal.HALFBLOCK) -> None:
        key = panel.display
        sim = self.table.sim_display(key)
        width, height = terminal.cells_for(sim.size, cell)
        if key == SHARED:
            label = f"table · shared display {sim.size[0]}×{sim.size[1]}"
        else:
            seat = int(key.split("-")[1])
            who = "you" if seat in self.keys_of else f"bot ({self.table.settings.bots.get(seat, '?')})"
            label = f"seat {seat + 1} · {who}"
        self._put(panel.top, panel.left, label[:width], curses.A_BOLD)
        top = panel.top + terminal.LABEL_ROWS
        if sim.image is None:
            self._put(top, panel.left, "(nothing shown yet)")
        else:
            for dy, runs in enumerate(terminal.cell_runs(sim.image, cell)):
                x = panel.left
                for run in runs:
                    self._put(top + dy, x, run.text, self._colour(run.fg, run.bg))
                    x += len(run.text)
        if panel.hint_row:  # cut to the panel's width (a Braille seat is 64 columns) like the label
            seat = int(key.split("-")[1])
            self._put(top + height, panel.left, self.keys_of[seat].hint[:width], curses.A_DIM)

    def _colour(self, fg: int, bg: int) -> int:
        if (fg, bg) in self.pairs:
            return curses.color_pair(self.pairs[fg, bg])
        return curses.A_NORMAL  # no colours: lit pixels are the terminal's foreground

    def _too_small(self, rows: int, cols: int, need: TooSmall, shared, seat_size) -> None:
        """Name the smallest size (plan_layout's last drawing), and the sharper one's if it was tried."""
        if need.cell == terminal.BRAILLE:
            how = ["to show the shared display and a seat, every pixel a Braille dot."]
            if terminal.HALFBLOCK in self.cells:
                half = terminal.minimum_size(shared, seat_size, terminal.HALFBLOCK)
                how.append(f"At {half[0]}×{half[1]} each pixel is half a cell, with its own grey shade.")
        else:
            how = ["to show the shared display and a seat pixel for pixel."]
        lines = [
            "golfbox sim: the terminal is too small",
            f"it is {cols}×{rows}; the table needs at least {need.need_cols}×{need.need_rows} "
            "(columns × rows)",
            *how,
            "Make the window bigger or the font smaller (often Ctrl+-),",
            "or run: golfbox sim --window",
            "",
            "q quits",
        ]
        for i, line in enumerate(lines):
            self._put(i, 0, line)

    def _box(self, lines: list[str], rows: int, cols: int) -> None:
        width = min(cols, max(len(line) for line in lines) + 4)
        height = min(rows, len(lines) + 2)
        top, left = max(0, (rows - height) // 2), max(0, (cols - width) // 2)
        for i in range(height):
            if i in (0, height - 1):
                text = "+" + "-" * (width - 2) + "+"
            else:
                text = "| " + lines[i - 1].ljust(width - 4)[:width - 4] + " |"
            self._put(top + i, left, text, curses.A_REVERSE)


# ---------------------------------------------------------------- pygame window (--window)

WINDOW_SCALE = 3
WINDOW_GAP = 6  # pixels (before scaling) between pictures and around labels
LIT = (235, 240, 255)  # an OLED's lit pixel, a cold white


class WindowUI:
    """The same pictures in one pygame window through luma.emulator, the same keys."""

    def __init__(self, table: SimTable, humans: list[int], changed: threading.Event):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
            from luma.emulator.device import pygame as window_device
        except ImportError as exc:
            raise UsageError(f"--window needs luma.emulator and pygame ({exc}); "
                             "pip install 'golfbox[window]'") from None
        self.pygame = pygame
        self.table = table
        self.changed = changed
        self.keys_of = {seat: SEAT_KEYS[i] for i, seat in enumerate(humans)}
        self.canvas = self.compose()
        try:
            self.device = window_device(width=self.canvas.width, height=self.canvas.height,
                                        mode="RGB", transform="identity", scale=WINDOW_SCALE)
            self.device.display(self.canvas)
        except pygame.error as exc:
            raise UsageError(f"--window: pygame cannot open a window ({exc}); "
                             "run without --window to play in the terminal") from None
        pygame.display.set_caption("golfbox sim (keys as in the terminal; ? prints them)")

    def compose(self) -> Image.Image:
        """Shared display on top, every seat below in rows of four, each with its label."""
        from PIL import ImageDraw, ImageOps

        seats = sorted(self.table.hardware.seat_displays)
        seat_w, seat_h = self.table.sim_display(seat_key(0)).size
        per_row = min(4, len(seats))
        label_h = 12
        width = max(256, per_row * (seat_w + WINDOW_GAP) - WINDOW_GAP) + 2 * WINDOW_GAP
        shared_h = 64 + label_h + WINDOW_GAP if self.table.hardware.shared_display else 0
        seat_rows = (len(seats) + per_row - 1) // per_row
        height = WINDOW_GAP + shared_h + seat_rows * (seat_h + label_h + WINDOW_GAP)
        canvas = Image.new("RGB", (width, height), (40, 40, 46))
        draw = ImageDraw.Draw(canvas)

        def paste(key: str, label: str, x: int, y: int) -> None:
            draw.text((x, y), label, fill=(200, 200, 200))
            image = self.table.image(key)
            size = self.table.sim_display(key).size
            if image is None:
                image = Image.new("L", size, 0)
            canvas.paste(ImageOps.colorize(image.convert("L"), (0, 0, 0), LIT), (x, y + label_h))

        y = WINDOW_GAP
        if self.table.hardware.shared_display:
            paste(SHARED, "table", WINDOW_GAP, y)
            y += shared_h
        for i, seat in enumerate(seats):
            row, col = divmod(i, per_row)
            who = "you" if seat in self.keys_of else "bot"
            paste(seat_key(seat), f"seat {seat + 1} · {who}", WINDOW_GAP + col * (seat_w + WINDOW_GAP),
                  y + row * (seat_h + label_h + WINDOW_GAP))
        return canvas

    def loop(self) -> None:
        pygame = self.pygame
        while self.table.error is None and self.table.running:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return
                if event.type == pygame.KEYDOWN and not self.handle(event):
                    return
            if self.changed.is_set():
                self.changed.clear()
                self.device.display(self.compose())
            time.sleep(0.02)

    def handle(self, event) -> bool:
        """A pygame key as the terminal would have read it; False means quit."""
        pygame = self.pygame
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        special = {
            pygame.K_LEFT: curses.KEY_SLEFT if shift else curses.KEY_LEFT,
            pygame.K_RIGHT: curses.KEY_SRIGHT if shift else curses.KEY_RIGHT,
            pygame.K_DOWN: curses.KEY_SF if shift else curses.KEY_DOWN,
            pygame.K_UP: curses.KEY_SR if shift else curses.KEY_UP,
            pygame.K_RETURN: "\n", pygame.K_BACKSPACE: "\x7f",
        }
        key = special.get(event.key, event.unicode)
        if key in terminal.QUIT_KEYS or event.key == pygame.K_ESCAPE:
            return False
        if key in terminal.HELP_KEYS:
            print("\n".join(terminal.help_lines(sorted(self.keys_of))))
        press_key(self.table, self.keys_of, key)
        return True
