"""The shared (table) display when it is not a panel on a bus.

* ``pygame``: a window, e.g. on an HDMI monitor, through luma.emulator's
  pygame device (SDL_VIDEODRIVER=dummy runs it headless). Note that luma's
  pygame device calls sys.exit() from show() when its window is closed or
  Esc is pressed: closing the window ends the program;
* ``capture``: luma.emulator writes each frame to a numbered PNG file;
* ``dummy``: luma.core's dummy device, which only keeps the last image;
* ``sim``: our SimDisplay.

A luma.oled panel (the reference build's SSD1322) goes through golfbox.hal.oled.
Every luma device here is wrapped in the same LumaDisplay, so skipping
unchanged frames and error handling work alike.
"""

from __future__ import annotations

import os
from typing import Any

from golfbox.hal.base import Display, DisplayError
from golfbox.hal.config import LUMA_DRIVERS, DisplayConfig
from golfbox.hal.oled import LumaDisplay, open_oled
from golfbox.hal.sim import SimDisplay


def open_display(config: DisplayConfig) -> Display:
    """Any display the config allows: luma.oled panel, emulator window/files, dummy, sim."""
    if config.driver in LUMA_DRIVERS:
        return open_oled(config)
    if config.driver == "sim":
        return SimDisplay(config.name, config.size, config.mode)

    def open_device() -> Any:
        options = {"width": config.width, "height": config.height, "rotate": config.rotate,
                   "mode": "RGB"}
        if config.driver == "dummy":
            from luma.core.device import dummy

            return dummy(**options)
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep pygame's banner out of the log
        from luma.emulator import device as emulator

        # "identity" is a plain nearest-pixel scale at any factor: pixels stay square.
        transform = "none" if config.scale == 1 else "identity"
        if config.driver == "pygame":
            import pygame

            try:
                device = emulator.pygame(transform=transform, scale=config.scale, **options)
            except pygame.error as exc:  # no such SDL driver, no video device: say what SDL said
                asked = os.environ.get("SDL_VIDEODRIVER")
                raise DisplayError(f"cannot open a window: {exc}"
                                   + (f" (SDL_VIDEODRIVER={asked})" if asked else "")) from exc
            unseen = unseen_video_driver()
            if unseen:  # black, and frames counted as shown: a display failing, saying why
                pygame.display.quit()
                raise DisplayError(f"no screen to draw on: SDL chose its {unseen} driver (no "
                                   "DISPLAY or WAYLAND_DISPLAY, and no /dev/dri it may open; "
                                   "golfbox.service's sandbox allows no display device)")
        else:
            device = emulator.capture(transform=transform, scale=config.scale,
                                      file_template="golfbox_{0:06}.png", **options)
        return device

    return LumaDisplay(config.name, config.size, config.mode, open_device,
                       where=config.driver, contrast=config.contrast, persist=config.persist)


UNSEEN_VIDEO_DRIVERS = ("offscreen", "dummy")  # SDL drivers whose windows nobody sees


def unseen_video_driver() -> str | None:
    """The driver pygame's display took, if its windows are seen by nobody: with no
    screen (an ssh session, a console, a service) SDL falls back on its offscreen
    driver without a word. None if it shows, or if SDL_VIDEODRIVER asked for that
    driver (headless on purpose: tests)."""
    import pygame

    driver = pygame.display.get_driver()
    if driver in UNSEEN_VIDEO_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
        return driver
    return None
