"""The screen saver: the OLEDs burn in, so a table left alone goes dark.

After ``screen_saver_minutes`` with no press on any seat and no change in the
game (a bot's move, a new round, a match starting or ending: the state or the
match's count of actions changed), every display shows a black frame with a
small "golfbox / press a button", moved to another place every minute so that
no pixel stays lit. Only the saver's own timer redraws then: once a minute.
Any press wakes the table (the service consumes it) and the real frames come
back at once. A match of bots only is no use of the table (nobody need be
watching): it sleeps as a lobby would, plays its match out under the saver
and deals no rematch until a press wakes it.
"""

from __future__ import annotations

from typing import Callable

from golfbox.table import screens
from golfbox.table.timers import Timer, Timers

MOVE_SECONDS = 60.0  # the saver's text moves this often


class ScreenSaver:
    def __init__(self, minutes: float, timers: Timers, clock: Callable[[], float]):
        self.after = minutes * 60.0  # 0: never
        self.timers, self.clock = timers, clock
        self.asleep = False
        self.spot = 0  # where the text is: the saver's moves since it came on
        self._game: object = None  # the game as last seen (see seen)
        self._timer: Timer | None = None  # when it sleeps, or (asleep) moves the text

    def seen(self, game: object) -> None:
        """The game as the displays show it now (the service calls this after every change):
        if it differs from last time, the table is in use."""
        if game != self._game:
            self._game = game
            self.stir()

    def stir(self) -> None:
        """Someone pressed or the game moved: wake, and sleep ``after`` seconds from now."""
        if self.asleep:
            self.asleep = False
            self._timer.cancel()  # the text's next move
        if not self.after:
            return
        when = self.clock() + self.after
        if self._timer is not None and self._timer.active:
            self._timer.reschedule(when)
        else:
            self._timer = self.timers.call_at(when, self._sleep)

    def _sleep(self) -> None:
        self.asleep, self.spot = True, 0
        self._timer = self.timers.call_at(self.clock() + MOVE_SECONDS, self._move)

    def _move(self) -> None:
        self.spot += 1
        self._timer = self.timers.call_at(self.clock() + MOVE_SECONDS, self._move)

    def frames(self, lang: str) -> "SaverFrames":
        """What every display shows while asleep (in the Painter's terms, as a state)."""
        return SaverFrames(self.spot, lang)


class SaverFrames:
    def __init__(self, spot: int, lang: str):
        self.spot, self.lang = spot, lang

    def seat_frame(self, seat: int, size: tuple[int, int]) -> screens.Frame:
        return screens.saver(size, self.spot, self.lang)

    def shared_frame(self, size: tuple[int, int]) -> screens.Frame:
        return screens.saver(size, self.spot, self.lang)
