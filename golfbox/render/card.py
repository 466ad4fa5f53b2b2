"""Drawing one card: a face, a back, a face-down card its owner knows, a slot.

Boxes are (x, y, width, height). ``ink`` and ``paper`` are pixel values, so
the same code draws on a mono seat screen (1 on 0) and on the greyscale
shared display (255 on 0), and draws the cursor by swapping them.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from golfbox.engine import JOKER, RANK_NAMES, SUIT_SYMBOLS, rank_of, suit_of
from golfbox.render import glyphs

Box = tuple[int, int, int, int]

# Diagonal hatching for card backs, cut to size for each back.
_HATCH = Image.new("1", (64, 64), 0)
_HATCH.putdata([1 if (x + y) % 4 == 0 else 0 for y in range(64) for x in range(64)])


def rank_text(card: int) -> str:
    return RANK_NAMES[rank_of(card)]


def suit_symbol(card: int) -> str | None:
    """♣ ♦ ♥ ♠, or None for a joker (it has no suit)."""
    return None if rank_of(card) == JOKER else SUIT_SYMBOLS[suit_of(card)]


def card_words(card: int) -> str:
    """'7♥', '10♠', 'JK' for sentences in the small font."""
    suit = suit_symbol(card)
    return rank_text(card) + (suit or "")


def _frame(draw: ImageDraw.ImageDraw, box: Box, ink: int, paper: int, dashed: bool) -> None:
    x, y, w, h = box
    draw.rectangle((x, y, x + w - 1, y + h - 1), fill=paper, outline=ink)
    if dashed:  # every other pixel of the edge: "face down, but you know it"
        right, bottom = x + w - 1, y + h - 1
        gaps = [(i, y) for i in range(x + 1, right, 2)] + [(i, bottom) for i in range(x + 1, right, 2)]
        gaps += [(x, j) for j in range(y + 1, bottom, 2)] + [(right, j) for j in range(y + 1, bottom, 2)]
        draw.point(gaps, fill=paper)


def draw_face(draw: ImageDraw.ImageDraw, box: Box, card: int, ink: int, paper: int,
              dashed: bool = False, suit: bool = True) -> None:
    """A face-up card with a big rank (12 px) and its suit at the top right (``suit``
    False: the rank alone, for a narrower card where suits no longer matter)."""
    x, y, w, h = box
    _frame(draw, box, ink, paper, dashed)
    text = rank_text(card)
    suit = suit_symbol(card) if suit else None
    suit_room = glyphs.SUIT_SIZE + 1 if suit else 0
    inner = w - 2 - suit_room
    rank_x = x + 1 + max(1, (inner - glyphs.rank_width(text)) // 2)
    rank_y = y + (h - glyphs.RANK_HEIGHT) // 2
    glyphs.draw_rank(draw, rank_x, rank_y, text, ink)
    if suit:
        draw.bitmap((x + w - 2 - glyphs.SUIT_SIZE, y + 2), glyphs.suit_mask(suit), fill=ink)


def draw_small_face(draw: ImageDraw.ImageDraw, box: Box, card: int, ink: int, paper: int) -> None:
    """A small face-up card for the reveal of many grids: a filled card, its rank cut out
    in the 5-pixel font (no suit: suits never score). Filled, because a frame would
    touch the letters at this size."""
    x, y, w, h = box
    draw.rectangle((x, y, x + w - 1, y + h - 1), fill=ink)
    text = rank_text(card)
    glyphs.draw_text(draw, x + (w - glyphs.text_width(text) + 1) // 2,
                     y + (h - glyphs.SMALL_HEIGHT) // 2, text, paper)


def draw_back(draw: ImageDraw.ImageDraw, box: Box, ink: int, paper: int) -> None:
    """A face-down card: a frame around diagonal hatching."""
    x, y, w, h = box
    _frame(draw, box, ink, paper, False)
    if w > 4 and h > 4:
        draw.bitmap((x + 2, y + 2), _HATCH.crop((0, 0, w - 4, h - 4)), fill=ink)


def draw_slot(draw: ImageDraw.ImageDraw, box: Box, ink: int, paper: int) -> None:
    """An empty place for a card (an empty pile): a dotted frame."""
    _frame(draw, box, ink, paper, True)
    x, y, w, h = box
    draw.rectangle((x, y, x + w - 1, y + h - 1), outline=paper)
    draw.point([(i, y) for i in range(x, x + w, 3)] + [(i, y + h - 1) for i in range(x, x + w, 3)]
               + [(x, j) for j in range(y, y + h, 3)] + [(x + w - 1, j) for j in range(y, y + h, 3)],
               fill=ink)


def draw_label_box(draw: ImageDraw.ImageDraw, box: Box, text: str, ink: int, paper: int,
                   selected: bool) -> None:
    """A choice such as STOCK 41 or KNOCK: framed; filled (inverted) under the cursor."""
    x, y, w, h = box
    fg, bg = (paper, ink) if selected else (ink, paper)
    draw.rectangle((x, y, x + w - 1, y + h - 1), fill=bg, outline=ink)
    text = glyphs.fit_text(text, w - 4)
    glyphs.draw_text(draw, x + (w - glyphs.text_width(text) + 1) // 2,
                     y + (h - glyphs.SMALL_HEIGHT) // 2, text, fg)
