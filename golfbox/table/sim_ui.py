"""The simulator's front ends, together: the terminal (curses) and a window (pygame
through luma.emulator). Both draw what the sim displays were sent and turn keys into
presses on the SimTable; neither knows a rule of the game."""

from __future__ import annotations

import curses
import locale
import logging
import os
import sys
import threading
import time

from PIL import Image

from golfbox.hal.shared_display import unseen_video_driver
from golfbox.table import terminal
from golfbox.table.sim import SHARED, SimTable, seat_key
from golfbox.table.terminal import SEAT_KEYS, TooSmall


# Seat 1's keys that are characters but print nothing: named when they play no seat.
CONTROL_KEY_NAMES = {"\n": "Enter", "\r": "Enter", "\x7f": "Backspace", "\b": "Backspace"}


class WindowUnavailable(Exception):
    """--window cannot open: pygame or luma.emulator missing, or no display."""

def seat_of_key(keys_of, key) -> tuple[int, tuple] | None:
    """The human seat ``key`` belongs to and the button (and press or hold) it stands
    for; None if it belongs to no seat."""
    for seat, keys in keys_of.items():
        found = keys.lookup(key)
        if found is not None:
            return seat, found
    return None


def press_key(table, keys_of, curtain: terminal.Curtain, key) -> int | None:
    """Press the button (and press or hold) that ``key`` stands for, on the seat it
    belongs to, unless the key only uncovers that seat: the seat, or None if it
    belongs to no seat."""
    pressed = seat_of_key(keys_of, key)
    if pressed is None:
        return None
    seat, found = pressed
    if curtain.key(seat, table.service.state):
        table.press(seat, *found)
    return seat


def terminal_problem() -> str | None:
    """Why the terminal front end cannot draw here, in one line (None: it can). Sets the
    locale from the environment, as curses needs, falling back on C.UTF-8."""
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:  # LANG names a locale this system does not have
        try:
            locale.setlocale(locale.LC_ALL, "C.UTF-8")
        except locale.Error:
            return (f"the locale {os.environ.get('LC_ALL') or os.environ.get('LANG')!r} is not "
                    "installed here; try LC_ALL=C.UTF-8, or --window")
    codeset = locale.nl_langinfo(locale.CODESET)
    if codeset.replace("-", "").upper() != "UTF8":  # the displays are Braille or half-blocks
        return f"the terminal simulator draws in Unicode: this locale is {codeset}; try LC_ALL=C.UTF-8, or --window"
    term = os.environ.get("TERM", "")
    try:
        curses.setupterm(term or None, sys.stdout.fileno())
    except curses.error:
        return f"TERM={term!r} is a terminal curses does not know; try TERM=xterm-256color, or --window"
    if not curses.tigetstr("cup"):  # no cursor addressing (TERM=dumb): nothing can be drawn in place
        return f"TERM={term!r} cannot move the cursor; try TERM=xterm-256color, or --window"
    return None


def run_terminal(table: SimTable, humans: list[int], changed: threading.Event,
                 cells: tuple[terminal.CellGeometry, ...] = terminal.CELL_MODES["auto"],
                 all_screens: bool = False) -> None:
    """The curses front end until q (terminal_problem() has said it can draw)."""
    os.environ.setdefault("ESCDELAY", "25")  # Esc-prefixed keys (Shift+arrows) without a lag
    # The log would scribble over the curses screen: keep only errors, and after exit.
    root = logging.getLogger()
    saved_level = root.level
    root.setLevel(logging.CRITICAL)
    try:
        curses.wrapper(lambda screen: TerminalUI(screen, table, humans, changed, cells,
                                                   all_screens).loop())
    finally:
        root.setLevel(saved_level)


# ---------------------------------------------------------------- curses front end


class TerminalUI:
    def __init__(self, screen, table: SimTable, humans: list[int], changed: threading.Event,
                 cells: tuple[terminal.CellGeometry, ...] = terminal.CELL_MODES["auto"],
                 all_screens: bool = False):
        self.screen = screen
        self.cells = cells  # the drawings to try on every redraw, finest first
        self.table = table
        self.humans = humans
        self.changed = changed
        self.keys_of = {seat: SEAT_KEYS[i] for i, seat in enumerate(humans)}
        self.curtain = terminal.Curtain(humans, all_screens)
        # Tab walks the seats: the humans first, then the bots.
        bots = [s for s in range(table.settings.seats) if s not in humans]
        self.seat_order = humans + bots
        self.first_shown = 0
        self.next_first = 0  # where Tab moves first_shown: the layout drawn last says
        self.seats_shown: tuple[int, ...] = ()  # the seats the last draw showed
        self.show_help = False
        self.pressed = False  # the first screen says "resumed" until a key is pressed
        self.too_small = False  # the last draw said "too small": keys play nothing unseen
        self.note = ""  # why the last key did nothing, on the top line until the next key
        self.pairs: dict[tuple[int, int], int] = {}
        self._init_colours()

    def _init_colours(self) -> None:
        try:
            curses.curs_set(0)
        except curses.error:  # a terminal that cannot hide its cursor shows it: no harm
            pass
        if not curses.has_colors() or os.environ.get("NO_COLOR"):  # no-color.org: lit pixels
            return  # are drawn in the terminal's own foreground
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
            if self.table.front_end_should_quit:
                return
            try:
                key = self.screen.get_wch()
            except curses.error:  # no key within the timeout
                key = None
            if key == "\x1b":  # a sequence curses did not know: ours if it is a Shift+arrow
                key = self._escape()
            if key is not None and not self.handle(key):
                return
            if key is not None or self.changed.is_set():
                self.changed.clear()
                self.draw()

    def _escape(self) -> int:
        """The key an ESC curses left undecoded begins: a Shift+arrow's key code, else
        UNKNOWN_KEY. The rest of the sequence has arrived (curses waited ESCDELAY)."""
        def next_char() -> str | int | None:
            try:
                return self.screen.get_wch()
            except curses.error:  # nothing more was sent
                return None
        self.screen.timeout(0)
        try:
            rest = terminal.escape_sequence(next_char)
        finally:
            self.screen.timeout(50)
        return terminal.SHIFTED_ARROWS.get(rest, terminal.UNKNOWN_KEY)

    def handle(self, key: str | int) -> bool:
        """Act on one key; False means quit."""
        if key != curses.KEY_RESIZE:
            self.pressed = True
            self.note = ""
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
        elif self.too_small:  # a move the player cannot see would still be played and saved
            return True
        elif key in terminal.NEXT_VIEW_KEYS and self.seat_order:
            self.first_shown = self.next_first  # the seats the top line's "Tab:" names
        elif (seat := self._off_page(key)) is not None:
            # Its screen is on another page of seats: the key turns to it and plays nothing,
            # as a curtain's first key only uncovers. Played, it would act on a cursor
            # and cards its player could not see.
            self.curtain.key(seat, self.table.service.state)
            self.first_shown = self.seat_order.index(seat)
        elif press_key(self.table, self.keys_of, self.curtain, key) is None and (
                isinstance(key, int) or key.isprintable() or key in CONTROL_KEY_NAMES):
            self.note = self._why_no_seat(key)
        return True

    def _off_page(self, key: str | int) -> int | None:
        """The human seat ``key`` belongs to if the last draw did not show its screen."""
        pressed = seat_of_key(self.keys_of, key)
        return pressed[0] if pressed and pressed[0] not in self.seats_shown else None

    def _why_no_seat(self, key: str | int) -> str:
        """A key that pressed nothing: another person's keys (--humans), or no key at all."""
        if key in CONTROL_KEY_NAMES:
            name = CONTROL_KEY_NAMES[key]
        else:
            name = f"'{key}'" if isinstance(key, str) else "that key"  # an arrow, F1 …
        if any(keys.lookup(key) for keys in SEAT_KEYS):
            if not self.humans:
                return f"{name} plays no seat: bots play them all (--humans)"
            seats = ", ".join(str(seat + 1) for seat in self.humans)
            plays = "seat" if len(self.humans) == 1 else "seats"
            return f"{name} plays no seat: this keyboard plays {plays} {seats} (--humans)"
        return f"{name} does nothing here: ? lists the keys"

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
        self.too_small = isinstance(layout, TooSmall)
        if self.too_small:
            self._too_small(rows, cols, layout, shared, seat_size)
        else:
            self.next_first, self.seats_shown = layout.next_first, layout.seats_shown
            self._status(cols, layout)
            for panel in layout.panels:
                self._panel(panel, layout.cell)
            self.curtain.drawn()
        if self.show_help:
            self._box(terminal.help_lines(self.humans, bool(self.curtain.people)), rows, cols)
        screen.refresh()

    def _put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        rows, cols = self.screen.getmaxyx()
        if 0 <= y < rows and 0 <= x < cols:
            try:
                self.screen.addstr(y, x, text[:cols - x], attr)
            except curses.error:  # writing the bottom-right cell moves the cursor off-screen
                pass

    def _status(self, cols: int, layout: terminal.Layout) -> None:
        left = f" golfbox sim · {self.note or self.table.status()}"
        if self.table.resumed is not None and not self.pressed:
            # Short enough to fit whole at 128 columns: --new is what the options asked for.
            left += " · resumed (--new starts afresh)"
        hidden = terminal.tab_hint(layout)
        # Say so when Braille is used: its cells have one colour each, unlike half-blocks.
        drawing = "Braille  " if layout.cell == terminal.BRAILLE else ""
        right = f"{hidden}{drawing}? help  q quit "
        if len(left) + 1 + len(right) > cols:  # the keys to help and quit always show
            left = left[:max(0, cols - len(right) - 2)] + "…"
        self._put(0, 0, left.ljust(cols), curses.A_REVERSE)
        self._put(0, max(len(left) + 1, cols - len(right)), right, curses.A_REVERSE)

    def _panel(self, panel: terminal.Panel, cell: terminal.CellGeometry = terminal.HALFBLOCK) -> None:
        key = panel.display
        sim = self.table.sim_display(key)
        # The picture before the state the curtain judges by: the table thread goes to its
        # new state before it draws, so a picture drawn in a round is never judged by the
        # lobby's state read before the deal.
        image = sim.image
        width, height = terminal.cells_for(sim.size, cell)
        hidden = False  # a person's screen the others at this keyboard may not see
        if key == SHARED:
            label = f"table · shared display {sim.size[0]}×{sim.size[1]}"
        else:
            seat = int(key.split("-")[1])
            who = "you" if seat in self.keys_of else self._bot_words(seat)
            label = f"seat {seat + 1} · {who}"
            hidden = self.curtain.draws(seat, self.table.service.state)
            if hidden:
                label += " · hidden"
        self._put(panel.top, panel.left, label[:width], curses.A_BOLD)
        top = panel.top + terminal.LABEL_ROWS
        if hidden:
            for dy, line in enumerate(terminal.curtain_lines(seat)):
                self._put(top + height // 2 - 2 + dy, panel.left + 2, line[:width - 2])
        elif image is None:
            self._put(top, panel.left, "(nothing shown yet)")
        else:
            for dy, runs in enumerate(terminal.cell_runs(image, cell)):
                x = panel.left
                for run in runs:
                    self._put(top + dy, x, run.text, self._colour(run.fg, run.bg))
                    x += len(run.text)
        if panel.hint_row:  # cut to the panel's width (a Braille seat is 64 columns) like the label
            seat = int(key.split("-")[1])
            self._put(top + height, panel.left, self.keys_of[seat].hint[:width], curses.A_DIM)

    def _bot_words(self, seat: int) -> str:
        """'bot (easy)': the level of the match dealt (the lobby chooses it), else --bot's."""
        players = self.table.service.players  # a deal replaces the list: read from here
        level = next((p.bot for p in players if p.seat == seat), None)
        return f"bot ({level or self.table.settings.bots.get(seat, '?')})"

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

    def __init__(self, table: SimTable, humans: list[int], changed: threading.Event,
                 all_screens: bool = False):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
            from luma.emulator.device import pygame as window_device
        except ImportError as exc:
            raise WindowUnavailable(f"--window needs luma.emulator and pygame ({exc}); "
                             "pip install 'golfbox[window]'") from None
        self.pygame = pygame
        self.table = table
        self.changed = changed
        self.keys_of = {seat: SEAT_KEYS[i] for i, seat in enumerate(humans)}
        self.curtain = terminal.Curtain(humans, all_screens)
        self.canvas = self.compose()
        try:
            self.device = window_device(width=self.canvas.width, height=self.canvas.height,
                                        mode="RGB", transform="identity", scale=WINDOW_SCALE)
            self.device.display(self.canvas)
        except pygame.error as exc:
            raise WindowUnavailable(f"--window: pygame cannot open a window ({exc}); "
                             "run without --window to play in the terminal") from None
        # With no screen (no DISPLAY or WAYLAND_DISPLAY: an ssh session, a console) SDL may
        # fall back on a driver that draws nowhere: the table would play on, unseen, and
        # take no key. Only someone who asked for that driver (SDL_VIDEODRIVER) gets it.
        driver = unseen_video_driver()
        if driver:
            pygame.display.quit()
            raise WindowUnavailable(f"--window: no screen to show a window on (SDL chose its "
                                    f"{driver} driver); run without --window to play in the "
                                    "terminal")
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

        def paste(key: str, label: str, x: int, y: int, image: Image.Image | None,
                  hidden: tuple[str, ...] = ()) -> None:
            draw.text((x, y), label, fill=(200, 200, 200))
            image = None if hidden else image
            size = self.table.sim_display(key).size
            if image is None:
                image = Image.new("L", size, 0)
            canvas.paste(ImageOps.colorize(image.convert("L"), (0, 0, 0), LIT), (x, y + label_h))
            for i, line in enumerate(hidden):  # a person's screen the others may not see
                draw.text((x + 4, y + label_h + 8 + 12 * i), line,
                          fill=(120, 120, 130))

        y = WINDOW_GAP
        if self.table.hardware.shared_display:
            paste(SHARED, "table", WINDOW_GAP, y, self.table.image(SHARED))
            y += shared_h
        for i, seat in enumerate(seats):
            row, col = divmod(i, per_row)
            who = "you" if seat in self.keys_of else "bot"
            image = self.table.image(seat_key(seat))  # before the state: as TerminalUI._panel
            hidden = (terminal.curtain_lines(seat)
                      if self.curtain.draws(seat, self.table.service.state) else ())
            who += " · hidden" if hidden else ""
            paste(seat_key(seat), f"seat {seat + 1} · {who}", WINDOW_GAP + col * (seat_w + WINDOW_GAP),
                  y + row * (seat_h + label_h + WINDOW_GAP), image, hidden)
        self.curtain.drawn()  # shown at once (loop, __init__)
        return canvas

    def loop(self) -> None:
        pygame = self.pygame
        while not self.table.front_end_should_quit:
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
            print("\n".join(terminal.help_lines(sorted(self.keys_of), bool(self.curtain.people))))
        if press_key(self.table, self.keys_of, self.curtain, key) is not None:
            self.changed.set()  # the curtain moves even if no display does
        return True

