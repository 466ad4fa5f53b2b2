"""One seat's four buttons during a round: a cursor over what is legal now.

The choices are read from ``view.legal`` and nothing else, so every variant
and house rule gets the right menu without a line here knowing about them:

    ◀ ▶   move the cursor over the choices (stock, discard, grid cards, pass, knock, ready)
    ●     do what the cursor is on (knocking asks first: "knock? ● yes ✕ no")
          the cursor then stays where it is. On a card just turned up it rests there,
          so ◀ ▶ step on from where the player is and ● ▶ ● turns up two cards side
          by side; ● on a resting cursor only moves it to the nearest card still to
          choose. A choice that went another way moves the cursor to the nearest one.
    ✕     back: out of the knock question, or the cursor back to the first choice
    hold ✕  knock (when knocking is allowed), after the same question

A press of ● is never also a hold: the HAL sends PRESSED at once and HELD
later, so holding ● would already have confirmed the choice under the
cursor. That is why the knock shortcut is on ✕, whose press only moves the
cursor home.
"""

from __future__ import annotations

from golfbox.engine import Action, DISCARD, DRAW, FLIP, KNOCK, PASS, PLACE, READY, TAKE
from golfbox.hal.base import Button, EventKind
from golfbox.render.words import say

# Where the cursor sits for an action without a grid position (render_seat's names).
TARGET_OF_KIND = {DRAW: "stock", TAKE: "discard", DISCARD: "discard", KNOCK: "knock",
                  PASS: "pass", READY: "ready"}
# What ● does, in the prompt ("◀▶ move · ● draw") and a hint; say() gives the French.
VERB_OF_KIND = {DRAW: "draw", TAKE: "take it", DISCARD: "discard", KNOCK: "knock",
                PASS: "pass", READY: "done looking", PLACE: "place here", FLIP: "turn up"}
KNOCK_QUESTION = "knock? ● yes  ✕ no"


class SeatInput:
    """The cursor and the knock question of one seat."""

    def __init__(self) -> None:
        self.legal: tuple[Action, ...] = ()
        self.index = 0
        self.confirming_knock = False
        self.resting: int | None = None  # the grid card just played, where the cursor stays
        self._played: int | None = None  # the grid card ● just played, until the next update

    def update(self, legal: tuple[Action, ...], cols: int = 3) -> bool:
        """Follow the engine (``cols``: the grid's width). The cursor stays on its choice
        while that is still legal; when it is gone, a grid card moves to the nearest
        legal card, anything else to the first choice. True if the choices changed."""
        if legal == self.legal:
            return False
        was = self.cursor
        self.legal = legal
        self.confirming_knock = False
        self.index = self._closest(was, cols)
        cards = [t for t in map(self._target, legal) if isinstance(t, int)]
        played, self._played = self._played, None
        # The card this seat just played: the cursor rests on it while cards remain to choose.
        self.resting = played if played == was and cards and played not in cards else None
        return True

    def _closest(self, target: int | str | None, cols: int) -> int:
        targets = [self._target(action) for action in self.legal]
        if target in targets:
            return targets.index(target)
        cards = [i for i, t in enumerate(targets) if isinstance(t, int)]
        if not isinstance(target, int) or not cards:
            return 0
        row, col = divmod(target, cols)

        def distance(i: int) -> tuple:
            r, c = divmod(targets[i], cols)
            # the fewest steps; then the same row; then the card after it before the one before
            return abs(r - row) + abs(c - col), r != row, targets[i] < target, abs(targets[i] - target)
        return min(cards, key=distance)

    @property
    def choice(self) -> Action | None:
        return self.legal[self.index] if self.legal else None

    @property
    def cursor(self) -> int | str | None:
        """render_seat's cursor: a grid position or "stock"/"discard"/"knock"/"pass"/"ready"."""
        action = self.choice
        if action is None:
            return None
        if self.confirming_knock:
            return "knock"
        if self.resting is not None:
            return self.resting
        return self._target(action)

    @staticmethod
    def _target(action: Action) -> int | str:
        return action.pos if action.kind in (PLACE, FLIP) else TARGET_OF_KIND[action.kind]

    @property
    def prompt(self) -> str:
        """What the buttons do now, in one short line (English)."""
        return self.prompt_in("en")

    def prompt_in(self, lang: str) -> str:
        """What the buttons do now, in one short line, in ``lang``."""
        action = self.choice
        if action is None:
            return ""
        if self.confirming_knock:
            return say(lang, KNOCK_QUESTION)
        if self.resting is not None:
            return say(lang, "◀▶ move · ● nearest card")
        verb = say(lang, VERB_OF_KIND[action.kind])
        return say(lang, "◀▶ move · ● {verb}", verb=verb) if len(self.legal) > 1 else f"● {verb}"

    def press(self, button: Button, kind: EventKind) -> Action | None:
        """Handle a button; returns the action to play, or None when only the cursor moved."""
        if not self.legal:
            return None
        knock_legal = any(a.kind == KNOCK for a in self.legal)
        if kind is EventKind.HELD:
            if button is Button.BACK and knock_legal:
                self.confirming_knock = True
            return None  # a held ●, ◀ or ▶ already acted as its press
        if self.confirming_knock:
            if button is Button.OK:
                self.confirming_knock = False
                return Action(KNOCK)
            if button is Button.BACK:
                self.confirming_knock = False
            return None  # ◀ ▶ wait for an answer to the question
        if self.resting is not None and button is not Button.BACK:
            self._leave_rest(button)
            return None
        if button is Button.LEFT:
            self.index = (self.index - 1) % len(self.legal)
        elif button is Button.RIGHT:
            self.index = (self.index + 1) % len(self.legal)
        elif button is Button.BACK:
            self.index, self.resting = 0, None
        elif button is Button.OK:
            action = self.legal[self.index]
            if action.kind == KNOCK:
                self.confirming_knock = True
                return None
            if action.kind in (PLACE, FLIP):
                self._played = action.pos
            return action  # the cursor stays: update() moves it only if this choice goes
        return None

    def _leave_rest(self, button: Button) -> None:
        """From a resting cursor: ▶ the next choice after it in grid order, ◀ the one before
        (round the grid), ● the nearest one."""
        rest, self.resting = self.resting, None
        if button is Button.OK:
            return  # update() already chose the nearest as the index
        targets = [self._target(action) for action in self.legal]
        order = [i for i, t in enumerate(targets) if isinstance(t, int)]
        if button is Button.RIGHT:
            after = [i for i in order if targets[i] > rest]
            self.index = after[0] if after else order[0]
        elif button is Button.LEFT:
            before = [i for i in order if targets[i] < rest]
            self.index = before[-1] if before else order[-1]
