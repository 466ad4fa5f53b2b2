"""``golfbox demo``: a whole match between bots, headless, written out as pictures.

The table is the simulator's (the Pi's service on simulated hardware), run on
this thread with a virtual clock: timers (the pause after a round, …) pass
at once, yet a frame's duration in the GIF is how long it would have stayed
on the panel. Every image a display was sent becomes one frame of that
display's GIF; each round's reveal on the shared display goes on a contact sheet.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from golfbox.bots import DEFAULT_BOT
from golfbox.commands import UsageError, output
from golfbox.commands.sim import add_match_arguments, table_settings
from golfbox.engine import ActionKind
from golfbox.hal.base import Button, EventKind
from golfbox.table.sim import SHARED, SimTable, dump_name
from golfbox.table.timers import ManualClock

LIT = (235, 240, 255)  # a lit OLED pixel, as in the simulator's window
SHADES = 16  # grey levels kept in the GIF palette (the SSD1322 has 16)
MIN_FRAME_MS = 350  # bots move at once (bot_delay 0): give each move time to be seen
MAX_FRAME_MS = 4000
LAST_FRAME_MS = 6000
PRESS_SECONDS = 0.4  # virtual time between the autopilot's presses
READING_SECONDS = 4.0  # a round's scores stay up this long before ● deals the next
IDLE_STEP = 0.25  # virtual seconds the clock moves when the table waits on a timer
MAX_VIRTUAL_SECONDS = 6 * 3600  # a match that has not ended by then never will


class Recorder:
    """Every image each display was sent, when, and the shared display's round ends."""

    def __init__(self, clock: ManualClock):
        self.clock = clock
        self.frames: dict[str, list[tuple[float, Image.Image]]] = {}
        self.round_ends: dict[str, Image.Image] = {}  # "round N" / "match result" -> shared image
        self.table: SimTable | None = None

    def __call__(self, key: str, image: Image.Image) -> None:
        self.frames.setdefault(key, []).append((self.clock.now, image.copy()))
        service = self.table.service if self.table else None
        if key == SHARED and service is not None and service.state in ("round_over", "match_over"):
            title = f"round {service.match.round_no}" if service.state == "round_over" else "match result"
            self.round_ends.setdefault(title, image.copy())


class Autopilot:
    """Plays seat 1 through its pad, as a person would: ◀ ▶ to the choice, ● to play it.

    The choice comes from a bot reading seat 1's view; the presses go through the
    simulated pad, so seat 1's screen shows the cursor, the card in hand, the prompts.
    """

    SEAT = 0

    def __init__(self, table: SimTable, clock: ManualClock, bot_name: str, seed: int | None):
        from golfbox.bots import make_bot
        from golfbox.table.thinker import move_seed

        self.table = table
        self.clock = clock
        # Not Random(seed): that is the very generator the match deals from.
        rng = random.Random(None if seed is None else move_seed(seed, "autopilot"))
        self.bot = make_bot(bot_name, rng)

    def press(self, button: Button, wait: float = PRESS_SECONDS) -> None:
        self.clock.now += wait
        self.table.press(self.SEAT, button, EventKind.PRESSED)
        self.table.service.run_until_idle()

    def act(self) -> bool:
        """Make one move if seat 1 has one; False when it is not its turn."""
        service = self.table.service
        if service.state == "round_over":
            self.press(Button.OK, wait=READING_SECONDS)  # everyone has read the scores: next round
            return True
        view = service.match.view(self.SEAT)  # every seat plays, so engine seat = physical seat
        if service.state != "playing" or not view.legal:
            return False
        action = self.bot.choose(view)
        # The pad's cursor walks view.legal in order: from its first entry (✕ goes there).
        cursor = service.inputs[self.SEAT]
        if cursor.index or cursor.resting is not None:
            self.press(Button.BACK)
        for _ in range(view.legal.index(action)):
            self.press(Button.RIGHT)
        self.press(Button.OK)
        if action.kind == ActionKind.KNOCK:
            self.press(Button.OK)  # "knock? ● yes"
        return True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_match_arguments(parser, players=4, rounds=3,
                        bot_seats="the other seats, and seat 1's autopilot")
    parser.add_argument("--out", default="golfbox-demo", metavar="DIR",
                        help="where the pictures go (default ./golfbox-demo)")
    parser.add_argument("--scale", type=int, default=2, choices=(1, 2, 3, 4),
                        help="pixel size in the pictures (default 2)")


def run(args: argparse.Namespace) -> int:
    # Seat 1 is a person at the pad (played by the autopilot); bots in the other seats.
    settings = table_settings(args, humans=1, bot_delay=0.0, auto_start=True)
    if not args.out.strip():  # Path("") would be the current folder
        raise UsageError("--out: an empty path is not a folder")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # its strerror, "File exists", read as if that were the trouble
        raise UsageError(f"--out {out}: is a file, not a folder") from None
    except OSError as exc:
        raise UsageError(f"--out {out}: {exc.strerror}") from None

    clock = ManualClock(0.0)
    recorder = Recorder(clock)
    table = SimTable(settings, clock=clock, on_change=recorder)
    recorder.table = table
    try:
        play_match(table, clock, Autopilot(table, clock, settings.bots.get(1, DEFAULT_BOT), settings.seed))
    finally:
        table.on_change = None  # the pictures end with the match, not the "paused" notice
        table.close()

    written = []
    path = out
    try:  # a folder we may not write in, a folder where a picture goes: one line, not a traceback
        for key in table.display_keys:
            frames = recorder.frames.get(key, [])
            if frames:
                path = out / dump_name(key).replace(".png", ".gif")
                write_gif(path, frames, args.scale)
                written.append(f"{path} ({len(frames)} frame{'s' if len(frames) > 1 else ''})")
        path = sheet = out / "rounds.png"
        contact_sheet(recorder.round_ends, table.service.match, args.scale).save(sheet, optimize=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot write {path}: {exc.strerror or exc}") from None
    rounds = sum(title.startswith("round ") for title in recorder.round_ends)
    result = " and the match result" if "match result" in recorder.round_ends else ""
    written.append(f"{sheet} ({counted(rounds, 'round end')}{result})")
    output("\n".join([f"demo: {settings.variant}, seat 1 on autopilot and "
                       f"{counted(settings.seats - 1, 'bot')}, {counted(settings.rounds, 'round')}, "
                       f"seed {table.service.match.seed}; wrote:",
                       *(f"  {line}" for line in written)]))
    return 0


def counted(n: int, thing: str) -> str:
    """'1 round', '2 rounds'."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def play_match(table: SimTable, clock: ManualClock, autopilot: Autopilot) -> None:
    """Drive the service on this thread until the match is over, moving time only when idle."""
    service = table.service
    while clock.now < MAX_VIRTUAL_SECONDS:
        service.run_until_idle()
        if service.state == "match_over":
            clock.now += READING_SECONDS  # the result stays up: the last frame's length
            return
        if not autopilot.act():
            clock.now += IDLE_STEP
    raise RuntimeError(f"the match did not end within {MAX_VIRTUAL_SECONDS} virtual seconds "
                       f"(table state {service.state!r})")


def to_palette(image: Image.Image, scale: int) -> Image.Image:
    """A display image as a small-palette picture, pixels scaled up nearest-neighbour."""
    grey = image.convert("L").point(lambda v: v * SHADES // 256)
    if scale > 1:
        grey = grey.resize((grey.width * scale, grey.height * scale), Image.Resampling.NEAREST)
    picture = Image.frombytes("P", grey.size, grey.tobytes())
    palette = []
    for level in range(SHADES):
        palette += [c * level // (SHADES - 1) for c in LIT]
    picture.putpalette(palette)
    return picture


def write_gif(path: Path, frames: list[tuple[float, Image.Image]], scale: int) -> None:
    pictures = [to_palette(image, scale) for _, image in frames]
    durations = []
    for (shown, _), (next_shown, _) in zip(frames, frames[1:]):
        durations.append(int(min(MAX_FRAME_MS, max(MIN_FRAME_MS, (next_shown - shown) * 1000))))
    durations.append(LAST_FRAME_MS)
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=durations,
                     loop=0, optimize=False)


def contact_sheet(round_ends: dict[str, Image.Image], match, scale: int) -> Image.Image:
    """Each round's end on the shared display, captioned with the round's scores, two to a row."""
    if not round_ends:
        raise RuntimeError("no round end was shown on the shared display")
    font = ImageFont.load_default(size=13)
    first = next(iter(round_ends.values()))
    cell_w, cell_h = first.width * scale, first.height * scale
    caption_h, margin = 18, 8
    columns = 1 if len(round_ends) == 1 else 2
    rows = (len(round_ends) + columns - 1) // columns
    sheet = Image.new("RGB", (margin + columns * (cell_w + margin),
                              margin + rows * (caption_h + cell_h + margin)), (40, 40, 46))
    draw = ImageDraw.Draw(sheet)
    for i, (title, image) in enumerate(round_ends.items()):
        row, col = divmod(i, columns)
        x = margin + col * (cell_w + margin)
        y = margin + row * (caption_h + cell_h + margin)
        if title.startswith("round "):
            scores = match.history[int(title.split()[1]) - 1]
            caption = f"{title}: " + "  ".join(f"P{seat + 1} {score:+d}" for seat, score in enumerate(scores))
        else:
            caption = f"{title}: " + "  ".join(f"P{seat + 1} {total}" for seat, total in enumerate(match.totals))
        draw.text((x, y), caption, fill=(210, 210, 210), font=font)
        sheet.paste(to_palette(image, scale).convert("RGB"), (x, y + caption_h))
    return sheet
