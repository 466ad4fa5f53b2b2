"""How often an idle GPIO pad wakes the process, with nothing pressed.

    python bench/gpio_idle.py [--seconds 10] [--seats 4] [--pin-factory mock]

Builds a GpioPad of ``--seats`` seats x 4 buttons on gpiozero's pins (its
MockFactory by default: the real gpiozero devices, with mock pins; on a Pi,
``--pin-factory lgpio``, with the table stopped, counts the driver's own
threads too: it claims GPIO 4-6, 12, 13 and 16-26 as pulled-up inputs),
presses nothing for ``--seconds`` and reports, from /proc/self/task/*/status:

* the process's threads before the pad, with it, and after close();
* the voluntary context switches of the threads the pad started (each one is
  a wakeup from a wait), per second; the main thread, asleep meanwhile, is
  left out;
* the process's CPU time over the idle spell (os.times).

Then it holds one button past hold_time, to show the pad still says HELD.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.hal.base import Button  # noqa: E402
from golfbox.hal.gpio import GpioPad, pin_factory_by_name  # noqa: E402
from procfs import switches  # noqa: E402  (beside this script)

# BCM pins of four seats' buttons: any 16 distinct GPIOs do for mock pins.
PINS = [4, 5, 6, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seats", type=int, default=4, choices=range(1, 5))
    parser.add_argument("--pin-factory", default="mock")
    args = parser.parse_args()

    factory = pin_factory_by_name(args.pin_factory)
    buttons = list(Button)
    seats = {seat: {button: PINS[seat * len(buttons) + i] for i, button in enumerate(buttons)}
             for seat in range(args.seats)}
    main_tid = threading.get_native_id()
    threads_before = len(switches())

    pad = GpioPad(seats, pin_factory=factory, hold_time=0.8)
    events = []
    pad.start(events.append)
    time.sleep(0.2)  # let the pad's threads settle into their waits
    start = switches()
    cpu_start, wall_start = os.times(), time.monotonic()
    time.sleep(args.seconds)
    end = switches()
    cpu_end, wall = os.times(), time.monotonic() - wall_start
    cpu = (cpu_end.user + cpu_end.system) - (cpu_start.user + cpu_start.system)

    pad_tids = [tid for tid in end if tid != main_tid]
    wakeups = sum(end[tid] - start.get(tid, 0) for tid in pad_tids)
    print(f"GpioPad, {args.seats} seats x {len(buttons)} buttons on {type(factory).__name__}, "
          f"idle {wall:.1f} s")
    print(f"  threads: {threads_before} before the pad, {len(end)} with it")
    print(f"  wakeups of the other {len(pad_tids)} threads: {wakeups} "
          f"({wakeups / wall:.1f} a second)")
    print(f"  CPU: {cpu:.3f} s ({100 * cpu / wall:.3f} % of one core)")

    if args.pin_factory == "mock":  # a real pin can not be driven from here
        pin = factory.pin(seats[0][Button.OK])
        pin.drive_low()
        time.sleep(1.0)
        pin.drive_high()
        print(f"  a 1 s press of seat 1's OK: {', '.join(e.kind.value for e in events)}")
    pad.close()
    time.sleep(0.2)
    print(f"  threads after close(): {len(switches())}")


if __name__ == "__main__":
    main()
