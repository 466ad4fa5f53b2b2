"""A seat's private 128×64 mono screen, drawn from that seat's view only.

Layout (pixels)::

    +---------------------------+----------------------+
    | the grid, row 0 at the    | P1             R2/9  |
    | top, the nearest row at   | YOUR TURN            |
    | the bottom; up to 3×3     | [card] HAND          |
    | cards of 26×16 (26×20 in  | [    ] PILE          |
    | two rows) with 12 px      | [    ] 7♥            |
    | ranks                     | [ STOCK 41 ]         |
    |                           | [ KNOCK ]            |
    +---------------------------+----------------------+
    | prompt, or a message on an inverted bar          |
    +--------------------------------------------------+

One card place on the side: the card in hand, with the pile's top named beside
it; holding none, the pile's top itself, PILE beside it.

The cursor (a grid position or "stock", "discard", "knock", "pass", "ready")
is drawn inverted. Choices that are legal now are framed boxes; the same
words without a frame are only information.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from golfbox.engine import OVER, START, SeatView, rank_of, scoring_combinations
from golfbox.render import glyphs
from golfbox.render.card import card_words, draw_back, draw_face, draw_label_box, draw_slot
from golfbox.render.names import doubled, fit_name, table_names, wait_words, wrap_naming
from golfbox.render.words import say

SIZE = (128, 64)
INK, PAPER = 1, 0

CARD_W = 26
GRID_W = 80  # three cards and two 1-pixel gaps
GRID_H = 50  # three rows of 16 and two 1-pixel gaps
SIDE_X = 82  # the right-hand column
SIDE_W = SIZE[0] - SIDE_X
PROMPT_Y = 58  # the bottom text line
# The side column from the top: the name and the round, low enough for the name's accents
# ("ZOÉ"); a row for its cedilla ("ÇÉDRIC") and a blank one; the status (no status word
# has an accent); a blank row; the card in hand or the pile's top; the stock at y 32.
NAME_Y = glyphs.MARK_RISE
STATUS_Y = NAME_Y + glyphs.SMALL_HEIGHT + 2
CARD_Y = STATUS_Y + glyphs.SMALL_HEIGHT + 1

CURSOR_CHOICES = ("stock", "discard", "knock", "pass", "ready")
_ACTION_WORDS = {"knock": "KNOCK", "pass": "PASS", "ready": "READY", "discard": "DISCARD"}  # say()s


# At the reveal a 3-row grid leaves no room beside its rows for what a combined row
# scored: its cards are 22 px, their ranks without suits (suits never score), and the
# grid sits at the right of its area, leaving 12 px at the screen's left edge for
# '-10' (11 px). (Right of the grid, the words ran into the side column's: '-10ANN'.)
# Its rows touch, from the top: under them a blank row, a column's score, a blank row
# over a notice's bar (y 55) or the prompt's accents.
REVEAL_CARD_W = 22


def grid_boxes(rows: int, cols: int, revealed: bool = False) -> list[tuple[int, int, int, int]]:
    """The box of every grid position, centred in the grid area; row 0 at the top.
    ``revealed``: at the round's end (a 3-row grid at the left, narrower cards)."""
    card_h, gap_y = (16, 1) if rows >= 3 else (20, 3)
    gap_x = 1 if cols >= 3 else 4
    card_w = CARD_W
    if revealed and rows >= 3:
        card_w, gap_y = REVEAL_CARD_W, 0
    width = cols * card_w + (cols - 1) * gap_x
    height = rows * card_h + (rows - 1) * gap_y
    left, top = (GRID_W - width) // 2, (GRID_H - height) // 2
    if card_w != CARD_W:
        left, top = GRID_W - width, 0
    return [(left + c * (card_w + gap_x), top + r * (card_h + gap_y), card_w, card_h)
            for r in range(rows) for c in range(cols)]


def shows_known_cards(view: SeatView) -> bool:
    """Own face-down cards this seat has seen are shown only while peeking or with `assist`."""
    return view.peeking or bool(view.rules.get("assist"))


def status_text(view: SeatView, lang: str = "en", match_over: bool = False) -> str:
    """The side column's word on the seat's state; ``match_over``: the table shows the
    match's result (a seat's view only knows that its last round is over)."""
    seat = view.seat
    if view.phase == OVER:
        return say(lang, "MATCH OVER") if match_over else say(lang, "ROUND OVER")
    if view.phase == START:
        if view.peeking:
            return say(lang, "MEMORISE")
        if view.flips_due:
            return say(lang, "TURN UP {n}", n=view.flips_due)
        return say(lang, "WAITING")
    if view.legal:
        if view.flips_due:
            return say(lang, "TURN UP {n}", n=view.flips_due)
        return say(lang, "LAST TURN") if view.final_turns_left is not None else say(lang, "YOUR TURN")
    if view.to_move is not None and view.to_move != seat:
        return say(lang, "WAITING")  # the bottom line names who plays, as the shared display does
    return ""


TOP_GAP = glyphs.text_width(" ") + 2  # a word's space between the name and the round


def top_row(label: str, round_no: int, rounds: int, lang: str = "en",
            table: Sequence[str] = ()) -> tuple[str, str]:
    """The side column's top row: this seat's name and the round, within SIDE_W px.

    The name is whole if it can be: the round takes the room left, in the longest form
    that fits ('R18/18', '18/18', 'R18'; a bot's seat drops its level first, 'J1').
    'R18/18' is 23 px of 46: 'BENEDICT' (32 px) beside it read 'BE…'; now 'BENEDICT R9',
    and at round 18 'BENEDI… R18' (1 px too wide beside 'R18'). A name too long even
    beside 'R18' is cut short beside it as fit_name cuts it, told apart from the other
    names at the ``table`` ('MAX…EN', 'MAX…NE'): the round keeps its letter, so that it
    is never taken for a score."""
    forms = (say(lang, "R{n}/{of}", n=round_no, of=rounds), f"{round_no}/{rounds}",
             say(lang, "R{n}", n=round_no))
    for words in forms:
        room = SIDE_W - glyphs.text_width(words) - TOP_GAP
        name = fit_name(label, room, table)
        if "…" not in name:  # whole, or a bot's seat without its level
            return name, words
    return name, forms[-1]


def _legal_kinds(view: SeatView) -> set[str]:
    return {action.kind for action in view.legal}


def combination_marks(view: SeatView) -> tuple[set[int], list[tuple[tuple[int, ...], str]]]:
    """At the reveal, what the engine counted together in this seat's grid: the
    positions to draw inverted, and each line's words (the first line of a
    combination says its score, '-10', '0'; a second line scoring with it points
    back to it, '▲' under a row, '◀' right of a column)."""
    grid = view.own_grid
    if view.phase != OVER or any(card is None for card in grid):
        return set(), []
    cols = view.variant.cols
    marked: set[int] = set()
    words: list[tuple[tuple[int, ...], str]] = []
    for combination in scoring_combinations(view.variant, view.rules, [rank_of(c) for c in grid]):
        for i, line in enumerate(combination.lines):
            marked.update(line)
            is_row = len({p // cols for p in line}) == 1
            words.append((line, str(combination.score) if i == 0 else "▲" if is_row else "◀"))
    return marked, words


def _draw_grid(draw: ImageDraw.ImageDraw, view: SeatView, cursor: int | str | None) -> None:
    variant = view.variant
    face_up = view.face_up[view.seat]
    show_known = shows_known_cards(view)
    revealed = view.phase == OVER
    boxes = grid_boxes(variant.rows, variant.cols, revealed)
    marked, words = combination_marks(view)
    for pos, box in enumerate(boxes):
        ink, paper = (PAPER, INK) if cursor == pos or pos in marked else (INK, PAPER)
        card = view.own_grid[pos]
        if face_up >> pos & 1:
            draw_face(draw, box, card, ink, paper, suit=box[2] == CARD_W)
        elif card is not None and show_known:
            draw_face(draw, box, card, ink, paper, dashed=True)
        else:
            draw_back(draw, box, ink, paper)
    # Each combination's words left of its row or under its column, a blank column or
    # row from the cards.
    left = boxes[0][0]
    bottom = max(y + h for _, y, _, h in boxes)
    for line, text in words:
        first, last = boxes[line[0]], boxes[line[-1]]
        if first[1] == last[1]:  # a row
            glyphs.draw_text(draw, left - 1 - glyphs.text_width(text),
                             first[1] + (first[3] - glyphs.SMALL_HEIGHT) // 2, text, INK)
        else:
            x, _, w, _ = first
            glyphs.draw_text(draw, x + (w - glyphs.text_width(text) + 1) // 2, bottom + 1, text, INK)


def _draw_side(draw: ImageDraw.ImageDraw, view: SeatView, cursor: int | str | None,
               label: str, table: Sequence[str], lang: str, match_over: bool) -> None:
    name, round_words = top_row(label, view.round_no, view.rounds, lang, table)
    draw_text_right(draw, SIZE[0], NAME_Y, round_words)
    glyphs.draw_text(draw, SIDE_X, NAME_Y, name, INK)
    glyphs.draw_text(draw, SIDE_X, STATUS_Y, glyphs.fit_text(status_text(view, lang, match_over), SIDE_W), INK)

    legal = _legal_kinds(view)
    # One card place: the card in hand while this seat holds one, else the pile's top.
    card_box = (SIDE_X, CARD_Y, CARD_W, 16)
    words_x = SIDE_X + CARD_W + 2
    holding = view.held is not None and view.holder == view.seat
    if holding:
        draw_face(draw, card_box, view.held, INK, PAPER)
        glyphs.draw_text(draw, words_x, CARD_Y, say(lang, "HAND"), INK)
        glyphs.draw_text(draw, words_x, 21, say(lang, "PILE"), INK)
        if view.discard_top is not None:
            glyphs.draw_text(draw, words_x, 27, card_words(view.discard_top), INK)
    else:
        ink, paper = (PAPER, INK) if cursor == "discard" else (INK, PAPER)
        if view.discard_top is not None:
            draw_face(draw, card_box, view.discard_top, ink, paper)
        else:
            draw_slot(draw, card_box, ink, paper)
        glyphs.draw_text(draw, words_x, CARD_Y, say(lang, "PILE"), INK)

    stock_box = (SIDE_X, 32, SIDE_W, 9)
    stock_words = say(lang, "STOCK {n}", n=view.stock_size)
    if view.phase == OVER:  # the stock no longer matters: this seat's score does
        stock_words = end_score_words(view, lang, match_over)
    if "draw" in legal or cursor == "stock":
        draw_label_box(draw, stock_box, stock_words, INK, PAPER, selected=cursor == "stock")
    else:
        glyphs.draw_text(draw, SIDE_X + 2, 34, stock_words, INK)
    if view.phase == OVER and match_over:
        glyphs.draw_text(draw, SIDE_X + 2, 44, standing_words(view.totals, view.seat, lang), INK)
    elif view.phase == OVER:
        penalty = view.round_scores[view.seat] - view.raw_scores[view.seat]
        if penalty:  # a knock or finisher penalty: the cards alone do not make the score
            glyphs.draw_text(draw, SIDE_X + 2, 44, penalty_words(view, lang), INK)

    for choice, words in _ACTION_WORDS.items():
        if choice == "discard" and not holding:
            continue  # the pile card above is the "take" choice
        if choice in legal or cursor == choice:
            draw_label_box(draw, (SIDE_X, 42, SIDE_W, 9), say(lang, words), INK, PAPER,
                           selected=cursor == choice)
            break


def end_score_words(view: SeatView, lang: str = "en", match_over: bool = False) -> str:
    """In the stock's place at the round's end: 'SCORE 35', at the result 'TOTAL 120'.
    The number alone where both do not fit the side column: a match resumed under an
    older golfbox's knock penalty (123456) read 'SCORE 12348', its last digit off the
    screen."""
    if match_over:
        number = view.totals[view.seat]
        said = say(lang, "TOTAL {n}", n=number)
    else:
        number = view.round_scores[view.seat]
        said = say(lang, "SCORE {n}", n=number)
    return glyphs.first_that_fits([said], SIDE_W - 2, str(number))  # a pixel each side


def penalty_words(view: SeatView, lang: str = "en") -> str:
    """Why this seat's round score is not its cards' alone, within the side column:
    'KNOCK +10', 'KNOCK ×2', 'WENT OUT +5' ('OUT +15' where that does not fit); the
    number alone for a house penalty too long for its reason ('+100')."""
    penalty = view.round_scores[view.seat] - view.raw_scores[view.seat]
    what = "×2" if doubled(view, view.seat) else f"{penalty:+d}"
    if view.knocker == view.seat:
        forms = [say(lang, "KNOCK {n}", n=what)]
    else:  # the finisher's penalty (9-card): +5 for each lower score
        forms = [say(lang, "WENT OUT {n}", n=what), say(lang, "OUT {n}", n=what)]
    return glyphs.first_that_fits(forms, SIDE_W - 2, what)


def standing_words(totals: Sequence[int], seat: int, lang: str = "en") -> str:
    """Where the match left ``seat``: 'YOU WIN', 'SHARED WIN' (equal lowest totals share
    the win, RULES.md), else its place as the result ranks it, 'PLACE 3/4'."""
    best, own = min(totals), totals[seat]
    if own == best:
        return say(lang, "YOU WIN") if list(totals).count(best) == 1 else say(lang, "SHARED WIN")
    return say(lang, "PLACE {n}/{of}", n=1 + sum(t < own for t in totals), of=len(totals))


def draw_text_right(draw: ImageDraw.ImageDraw, right: int, y: int, text: str,
                    fill: int = INK) -> None:
    glyphs.draw_text(draw, right - glyphs.text_width(text), y, text, fill)


def message_lines(message: str, table: Sequence[str] = ()) -> list[str]:
    """``message`` on the bottom bar: at most two lines of SIZE[0] - 4 px, the names of
    the ``table`` in it cut shorter before its own words (wrap_naming)."""
    return wrap_naming(message, SIZE[0] - 4, 2, table)


def _draw_bottom(draw: ImageDraw.ImageDraw, prompt: str, message: str, table: Sequence[str]) -> None:
    if message:  # an error or a notice replaces the prompt, on an inverted bar
        lines = message_lines(message, table)
        if len(lines) == 1:  # the bar reaches over the line's accents
            draw.rectangle((0, PROMPT_Y - glyphs.MARK_RISE - 1, SIZE[0] - 1, SIZE[1] - 1), fill=INK)
            glyphs.draw_text(draw, 2, PROMPT_Y, lines[0], PAPER)
            return
        # Two lines, the second on the bottom row. Under the first's letters: its cedilla,
        # a blank row, then the second's accents (marks right under the letters above read
        # as theirs, and the lines as one blot); two rows at least, as plain lines have.
        # The bar's top row clears the first's accents. It is only as tall as the lines
        # need: it covers the bottom edges of the side box and of a 3-row grid until the
        # next press, and with accents on both lines the last row of the box's label.
        pitch = glyphs.SMALL_HEIGHT + max(2, glyphs.hang(lines[0]) + 1 + glyphs.rise(lines[1]))
        first = SIZE[1] - glyphs.SMALL_HEIGHT - pitch
        draw.rectangle((0, first - glyphs.rise(lines[0]) - 1, SIZE[0] - 1, SIZE[1] - 1), fill=INK)
        for i, line in enumerate(lines):
            glyphs.draw_text(draw, 2, first + pitch * i, line, PAPER)
    elif prompt:
        glyphs.draw_text(draw, 0, PROMPT_Y, glyphs.fit_text(prompt, SIZE[0]), INK)


def render_seat(view: SeatView, cursor: int | str | None = None, prompt: str = "",
                message: str = "", label: str | None = None,
                names: Sequence[str] | None = None, lang: str = "en",
                match_over: bool = False) -> Image.Image:
    """This seat's screen: its grid, the card in hand, the piles, the choices, a prompt.

    ``cursor``: a grid position (int) or one of CURSOR_CHOICES, drawn inverted.
    ``message`` (an error, a notice) replaces ``prompt`` on an inverted bar; with
    neither, a seat that waits is told for whom ("wait: P2 (HARD) is playing").
    ``names``: every seat's name, as the shared display shows them (default "P1" …);
    ``label``: this seat's name on its screen (default its name in ``names``).
    ``lang``: the language of every word (golfbox.render.words).
    ``match_over``: the match's result shows (its last round's view): "MATCH OVER" and
    this seat's total, not "ROUND OVER" and its round score.
    """
    if view.seat is None:
        raise ValueError("render_seat needs a seat's view, not the public view")
    if cursor is not None and not isinstance(cursor, int) and cursor not in CURSOR_CHOICES:
        raise ValueError(f"cursor {cursor!r}: a grid position or one of {', '.join(CURSOR_CHOICES)}")
    image = Image.new("1", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    _draw_grid(draw, view, cursor)
    table = table_names(view.players, names, lang)
    _draw_side(draw, view, cursor, label if label is not None else table[view.seat], table,
               lang, match_over)
    _draw_bottom(draw, prompt or wait_words(view, names, lang, SIZE[0]), message, table)
    return image
