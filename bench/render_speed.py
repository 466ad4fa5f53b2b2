"""How long a frame takes: render a seat screen and diff it against the last one.

    .venv/bin/python bench/render_speed.py [--frames 2000]

The seat frame is the seat-node path: render_seat, pack into SSD1306 pages and
find the changed segments (golfbox.hal.serialnode), cursor moving every frame.
The shared frame is render_table at 256×64 greyscale. Prints median and p99.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from golfbox.engine import Action, Round, get_variant, make_rules  # noqa: E402
from golfbox.hal.serialnode import changed_segments, image_to_pages  # noqa: E402
from golfbox.render import render_seat, render_table  # noqa: E402


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


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(name: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{name:<44} median {statistics.median(ms):6.3f} ms   p99 {percentile(ms, 0.99):6.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000)
    frames = parser.parse_args().frames
    for variant in ("6-card", "9-card"):
        view = mid_round(variant).view(1)
        size = view.variant.size
        previous = image_to_pages(render_seat(view, cursor=0))
        seat_times = []
        for i in range(frames):
            start = time.perf_counter()
            pages = image_to_pages(render_seat(view, cursor=(i + 1) % size, prompt="◀▶ choose  ● place"))
            changed_segments(previous, pages)
            seat_times.append(time.perf_counter() - start)
            previous = pages
        report(f"seat 128×64 {variant}: render + pages + diff", seat_times)
        public = mid_round(variant).view(None)
        table_times = []
        for _ in range(frames):
            start = time.perf_counter()
            render_table(public, (256, 64), names=("Ann", "Bob", "Cleo", "Dev"))
            table_times.append(time.perf_counter() - start)
        report(f"shared 256×64 {variant}: render", table_times)


if __name__ == "__main__":
    main()
