"""A seat OLED that never answers: what 5,000 failed opens cost in files and memory.

    .venv/bin/python -W ignore bench/failed_opens.py [--opens 5000]

Each open goes through luma's real ``i2c`` interface over a bus whose every
write is NAKed (errno 121, what an unplugged panel gives) and which holds one
file descriptor, as smbus2's /dev/i2c-N does. Two ways are compared:

  golfbox      golfbox.hal.oled: one luma device per panel, the bus closed after
               each failure and the init sequence replayed on the next try
  luma alone   a new luma ssd1306 per try, as golfbox did before: luma's atexit
               hook keeps every failed device and its bus handle

With the retry backoff capped at 30 s, 5,000 tries are about 42 hours of one
unplugged panel; the default limit of 1,024 open files is reached after ~1,000.
"""

from __future__ import annotations

import argparse
import errno
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from golfbox.hal.base import DisplayError  # noqa: E402
from golfbox.hal.config import parse_config  # noqa: E402
from golfbox.hal.oled import open_oled  # noqa: E402


class NackBus:
    def __init__(self):
        self.fd = os.open(os.devnull, os.O_RDONLY)

    def write_i2c_block_data(self, address, register, data):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def __del__(self):
        os.close(self.fd)


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def measure(label: str, attempt, opens: int) -> None:
    for _ in range(20):
        attempt()
    gc.collect()
    tracemalloc.start()
    before_fds, (before_mem, _) = fds(), tracemalloc.get_traced_memory()
    started = time.perf_counter()
    for _ in range(opens):
        attempt()
    elapsed = time.perf_counter() - started
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before_mem
    tracemalloc.stop()
    print(f"{label:11s} {opens:,} failed opens: open files +{fds() - before_fds}, "
          f"traced memory {grown / 1024:+,.0f} KiB ({grown / opens:,.0f} B each), "
          f"{elapsed / opens * 1e6:,.0f} µs each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=5000)
    args = parser.parse_args()

    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    config = parse_config({"seats": [{"backend": "gpio", "buttons": {"left": 17, "right": 27, "ok": 22, "back": 4},
                                      "display": {"driver": "ssd1306", "i2c": {"bus": 1, "address": 0x3C}}}]}).seats[0].display
    display = open_oled(config, lambda: i2c(bus=NackBus(), address=0x3C))
    image = Image.new("1", (128, 64))

    def golfbox_try():
        try:
            display.show(image)
        except DisplayError:
            pass
        else:
            raise AssertionError("a NAKing bus opened")

    def luma_alone_try():
        try:
            ssd1306(i2c(bus=NackBus(), address=0x3C))
        except Exception:
            pass

    print(f"Python {sys.version.split()[0]}, limit of open files {os.sysconf('SC_OPEN_MAX')}")
    measure("golfbox", golfbox_try, args.opens)
    # luma alone would pass the default limit of 1,024 open files: stop at 900.
    measure("luma alone", luma_alone_try, min(args.opens, 900))


if __name__ == "__main__":
    main()
