"""``golfbox demo``: a whole match between bots, headless, written out as pictures.

The table is the simulator's (the Pi's service on simulated hardware), run on
this thread with a virtual clock: timers (the pause after a round, …) pass
at once, yet a frame's duration in the GIF is how long it would have stayed
on the panel. Every image a display was sent becomes one frame of that
display's GIF; each round's reveal on the shared display goes on a contact sheet.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from golfbox.cli import UsageError
from golfbox.table.sim_cli import SHARED, SimTable, add_match_arguments, dump_name, table_settings

LIT = (235, 240, 255)  # a lit OLED pixel, as in the simulator's window
SHADES = 16  # grey levels kept in the GIF palette (the SSD1322 has 16)
MIN_FRAME_MS = 350  # bots move at once (bot_delay 0): give each move time to be seen
MAX_FRAME_MS = 4000
LAST_FRAME_MS = 6000
IDLE_STEP = 0.25  # virtual seconds the clock moves when the table waits on a timer
MAX_VIRTUAL_SECONDS = 6 * 3600  # a match that has not ended by then never will


class VirtualClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """Every image each display was sent, when, and the shared display's round reveals."""

    def __init__(self, clock: VirtualClock):
        self.clock = clock
        self.frames: dict[str, list[tuple[float, Image.Image]]] = {}
        self.reveals: dict[int, Image.Image] = {}  # round number -> first shared image once scored
        self.table: SimTable | None = None

    def __call__(self, key: str, image: Image.Image) -> None:
        self.frames.setdefault(key, []).append((self.clock.now, image.copy()))
        match = getattr(self.table.service, "match", None) if self.table else None
        if key == SHARED and match is not None and match.round.over:
            self.reveals.setdefault(match.round_no, image.copy())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_match_arguments(parser, players=4, rounds=3)
    parser.add_argument("--out", default="golfbox-demo", metavar="DIR",
                        help="where the pictures go (default ./golfbox-demo)")
    parser.add_argument("--scale", type=int, default=2, choices=(1, 2, 3, 4),
                        help="pixel size in the pictures (default 2)")


def run(args: argparse.Namespace) -> int:
    settings = table_settings(args, humans=0, bot_delay=0.0, auto_start=True)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: {exc.strerror}") from None

    clock = VirtualClock()
    recorder = Recorder(clock)
    table = SimTable(settings, clock=clock, on_change=recorder)
    recorder.table = table
    try:
        play_match(table, clock)
    finally:
        table.close()

    written = []
    for key in table.display_keys:
        frames = recorder.frames.get(key, [])
        if frames:
            path = out / dump_name(key).replace(".png", ".gif")
            write_gif(path, frames, args.scale)
            written.append(f"{path} ({len(frames)} frames)")
    sheet = out / "rounds.png"
    contact_sheet(recorder.reveals, table.service.match, args.scale).save(sheet, optimize=True)
    written.append(f"{sheet} ({len(recorder.reveals)} round ends)")
    print(f"demo: {settings.variant}, {settings.seats} bots, {settings.rounds} rounds, "
          f"seed {settings.seed}; wrote:")
    for line in written:
        print(f"  {line}")
    return 0


def play_match(table: SimTable, clock: VirtualClock) -> None:
    """Drive the service on this thread until the match is over, moving time only when idle."""
    service = table.service
    while clock.now < MAX_VIRTUAL_SECONDS:
        service.run_until_idle()
        if service.state == "match_over":
            return
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


def contact_sheet(reveals: dict[int, Image.Image], match, scale: int) -> Image.Image:
    """Each round's reveal, captioned with the round's scores, two to a row."""
    if not reveals:
        raise RuntimeError("no round end was shown on the shared display")
    font = ImageFont.load_default()
    first = next(iter(reveals.values()))
    cell_w, cell_h = first.width * scale, first.height * scale
    caption_h, margin = 16, 8
    columns = 1 if len(reveals) == 1 else 2
    rows = (len(reveals) + columns - 1) // columns
    sheet = Image.new("RGB", (margin + columns * (cell_w + margin),
                              margin + rows * (caption_h + cell_h + margin)), (40, 40, 46))
    draw = ImageDraw.Draw(sheet)
    for i, round_no in enumerate(sorted(reveals)):
        row, col = divmod(i, columns)
        x = margin + col * (cell_w + margin)
        y = margin + row * (caption_h + cell_h + margin)
        scores = match.history[round_no - 1] if round_no <= len(match.history) else ()
        caption = f"round {round_no}" + (": " + "  ".join(
            f"P{seat + 1} {score:+d}" for seat, score in enumerate(scores)) if scores else "")
        draw.text((x, y + 2), caption, fill=(210, 210, 210), font=font)
        sheet.paste(to_palette(reveals[round_no], scale).convert("RGB"), (x, y + caption_h))
    return sheet
