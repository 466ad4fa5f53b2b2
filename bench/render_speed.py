"""How long a frame takes: render a seat screen and diff it against the last one.

    .venv/bin/python bench/render_speed.py [--frames 2000]

The seat frame is the seat-node path: render_seat, pack into SSD1306 pages and
find the changed segments (golfbox.hal.serialnode), cursor moving every frame.
The shared frame is render_table at 256×64 greyscale. The reveal frames are the
same at the round's end: the seat's grid face up with the combinations its score
counted marked (scoring_combinations), and render_reveal's every grid with names.
Prints median and p99.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from golfbox.engine import (OVER, Action, Round, get_variant, make_rules, rank_of,  # noqa: E402
                            scoring_combinations)
from golfbox.hal.serialnode import changed_segments, image_to_pages  # noqa: E402
from golfbox.render import render_reveal, render_seat, render_table  # noqa: E402

NAMES = ("Ann", "Bob", "Cleo", "Dev")


def mid_round(variant: str) -> Round:
    spec = get_variant(variant)
    r = Round(spec, make_rules(spec, {}), 4, rng=random.Random(7), round_no=3, rounds=9)
    while r.phase == "start":
        seat = r.acting_seats[0]
        r.apply(seat, r.legal_actions(seat)[0])
    while r.to_move != 1 or r.first_flips[1]:
        seat = r.to_move
        if r.first_flips[seat]:
            r.apply(seat, r.legal_actions(seat)[0])
            continue
        r.apply(seat, Action("draw"))
        r.apply(seat, Action("place", r.turns % spec.size))
    r.apply(1, Action("draw"))
    return r


def round_over(variant: str) -> Round:
    """A 4-player round played to its end at random: the first seed whose end has
    seat 1's grid score a combination, so that its reveal has one to mark."""
    spec = get_variant(variant)
    rules = make_rules(spec, {})
    for seed in range(1000):
        rng = random.Random(seed)
        r = Round(spec, rules, 4, rng=rng, round_no=3, rounds=9)
        while r.phase != OVER:
            seat = r.acting_seats[0]
            r.apply(seat, rng.choice(r.legal_actions(seat)))
        if scoring_combinations(spec, rules, [rank_of(c) for c in r.grids[1]]):
            return r
    raise SystemExit(f"{variant}: no round of 1,000 ended with a combination in seat 1's grid")


def time_seat(view, frames: int, cursor_of, prompt: str) -> list[float]:
    """render_seat, pack into pages and diff against the frame before, ``frames`` times."""
    previous = image_to_pages(render_seat(view, cursor=cursor_of(-1)))
    times = []
    for i in range(frames):
        start = time.perf_counter()
        pages = image_to_pages(render_seat(view, cursor=cursor_of(i), prompt=prompt))
        changed_segments(previous, pages)
        times.append(time.perf_counter() - start)
        previous = pages
    return times


def time_shared(draw, frames: int) -> list[float]:
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        draw()
        times.append(time.perf_counter() - start)
    return times


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(name: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{name:<51} median {statistics.median(ms):6.3f} ms   p99 {percentile(ms, 0.99):6.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000)
    frames = parser.parse_args().frames
    for variant in ("6-card", "9-card"):
        view = mid_round(variant).view(1)
        size = view.variant.size
        report(f"seat 128×64 {variant}: render + pages + diff",
               time_seat(view, frames, lambda i: (i + 1) % size, "◀▶ choose  ● place"))
        public = mid_round(variant).view(None)
        report(f"shared 256×64 {variant}: render",
               time_shared(lambda: render_table(public, (256, 64), names=NAMES), frames))
        over = round_over(variant)
        report(f"seat 128×64 {variant} reveal: render + pages + diff",
               time_seat(over.view(1), frames, lambda i: None, "● next round"))
        public = over.view(None)
        report(f"shared 256×64 {variant} reveal: render",
               time_shared(lambda: render_reveal(public, (256, 64), names=NAMES), frames))


if __name__ == "__main__":
    main()
