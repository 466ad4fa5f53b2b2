"""The shared display, drawn from the public view: piles, turn, scores, reveal, result.

Two layouts: 256×64 greyscale (mode "L", the SSD1322) and 128×64 mono
(mode "1", an SSD1306-class OLED). Seats are shown 1-based: names[i] or
"P1" … "Pn".
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from PIL import Image, ImageDraw

from golfbox.engine import OVER, START, ActionKind, SeatView
from golfbox.render import glyphs
from golfbox.render.card import card_words, draw_back, draw_face, draw_slot, draw_small_face
from golfbox.render.names import (CUT_NAMES_TO, cut_name, fit_name, fit_who, name_words,
                                  score_words, seat_name, table_names, told_apart, wrap_naming)
from golfbox.render.words import say

WIDE = (256, 64)
NARROW = (128, 64)
# Small-font line pitch: 5 rows of letters, a blank row, and 2 rows for the accents
# of the line below (glyphs.MARK_RISE).
LINE = 8


class Palette(NamedTuple):
    mode: str
    ink: int  # text and card lines
    dim: int  # secondary words
    paper: int


_GREY = Palette("L", 255, 140, 0)
_MONO = Palette("1", 1, 1, 0)


def _canvas(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw, Palette]:
    if tuple(size) == WIDE:
        palette = _GREY
    elif tuple(size) == NARROW:
        palette = _MONO
    else:
        raise ValueError(f"shared display size {size}: 256×64 (greyscale) or 128×64 (mono)")
    image = Image.new(palette.mode, tuple(size), palette.paper)
    return image, ImageDraw.Draw(image), palette


def describe_last(view: SeatView, names: Sequence[str] | None = None, lang: str = "en",
                  width: int | None = None) -> str:
    """The last action in words: 'P2 took 7♥ from the discard', 'P1 knocked'. Within
    ``width`` px if given: a long name is cut (fit_name), not what it did."""
    last = view.last
    if last is None:
        return ""
    who = seat_name(last.seat, names, lang)
    words = _last_words(view, who, lang)
    if width is not None and glyphs.text_width(words) > width:
        room = width - glyphs.text_width(_last_words(view, "", lang)) - 1
        words = _last_words(view, fit_name(who, room, table_names(view.players, names, lang)), lang)
    return words


def _last_words(view: SeatView, who: str, lang: str) -> str:
    last = view.last
    kind, card = last.action.kind, last.revealed
    if kind == ActionKind.DRAW:
        return say(lang, "{who} drew from the stock", who=who)
    if kind == ActionKind.TAKE:
        return say(lang, "{who} took {card} from the discard", who=who, card=card_words(card))
    if kind == ActionKind.DISCARD:
        return say(lang, "{who} discarded {card}", who=who, card=card_words(card))
    if kind == ActionKind.PLACE:
        placed = view.grids[last.seat][last.action.pos]
        if placed is None:  # placed face down (4-card): only the card it replaced is public
            return say(lang, "{who} placed a card, {out} out", who=who, out=card_words(card))
        return say(lang, "{who} placed {card}, {out} out", who=who, card=card_words(placed),
                   out=card_words(card))
    if kind == ActionKind.FLIP:
        return say(lang, "{who} turned up {card}", who=who, card=card_words(card))
    if kind == ActionKind.KNOCK:
        return say(lang, "{who} knocked", who=who)
    if kind == ActionKind.PASS:
        return say(lang, "{who} turned nothing up", who=who)
    return say(lang, "{who} is ready", who=who)  # READY, the last kind a round records


def _turn_words(view: SeatView, names: Sequence[str] | None, lang: str, width: int,
                scale: int = 1) -> str:
    """Whose turn it is in ``width`` px: 'à J2 (MOYEN) de jouer', or where that does not
    fit, 'J2 (MOYEN) joue' (its name cut short if that does not fit either, never the
    verb: 'MARIE-HÉLÈNE DU… JOUE')."""
    if view.phase == OVER:
        return say(lang, "round over")
    if view.phase == START:
        return say(lang, "get ready")
    if view.to_move is None:
        return ""
    who = seat_name(view.to_move, names, lang)
    words = say(lang, "{who} to play", who=who)
    if glyphs.text_width(words, scale) > width:
        words = say(lang, "{who} plays", who=who)
    if glyphs.text_width(words, scale) > width:  # a name of any length (settings.py)
        room = width - glyphs.text_width(say(lang, "{who} plays", who=""), scale) - scale
        words = say(lang, "{who} plays",
                    who=fit_name(who, room, table_names(view.players, names, lang), scale))
    return glyphs.fit_text(words, width, scale)


def _info_words(view: SeatView, names: Sequence[str] | None, lang: str, width: int,
                lines: int = 1) -> str:
    """The line under the turn (``width`` px): who is still turning up (how many, if
    their names do not fit), final turns and who knocked or went out, a card in hand.
    With ``lines`` 2, who knocked takes a line of its own ("\n") where both would not
    fit on one."""
    table = table_names(view.players, names, lang)
    if view.phase == START:
        waiting = [table[s] for s, due in enumerate(view.start_pending) if due]
        # Commas part the names, as on the seats ('Marie Claire, Jean Paul').
        words = say(lang, "waiting for {who}", who=", ".join(waiting))
        if glyphs.text_width(words) > width and len(waiting) > 1:
            words = say(lang, "waiting for {n} players", n=len(waiting))
        elif glyphs.text_width(words) > width:  # one long name: it is cut, not the words
            words = name_words(lang, "waiting for {who}", waiting[0], width, table)
        return words
    words = []
    if view.final_turns_left is not None:
        left = view.final_turns_left
        turns = (say(lang, "one final turn left") if left == 1 else
                 say(lang, "final turns left: {n}", n=left))
        # Who knocked or went out, on every final turn: the last action said it only on
        # the knock's own frame, gone at the next move, and a going out never. Its name
        # is cut to fit; where even that leaves the turns no room, they stand alone.
        if view.ender is not None and view.last is not None and view.last.action.kind != ActionKind.KNOCK:
            if lines > 1 and glyphs.text_width(_end_words(view, names, lang) + " · " + turns) > width:
                return _end_words(view, names, lang, width) + "\n" + turns
            ended, who = _ended_by(view), table[view.ender]
            shown = fit_who(lang, ended, who, width - glyphs.text_width(" · " + turns), table)
            joined = say(lang, ended, who=shown) + " · " + turns
            # Only a name whole or told apart: in a narrow room fit_name gives 'JE…' for
            # either of Jean-Baptiste and Jean-Baptistine, which names nobody. A whole name
            # is said as everywhere, even one drawn as another's (Ştefan, Ștefan).
            if glyphs.text_width(joined) <= width and (shown == who or told_apart(shown, who, table)):
                turns = joined
        words.append(turns)
    # The pile became the stock at the end of the last turn: its count jumped, the
    # pile is down to one card. Said through the next turn, where it fits whole.
    if _restocked(view):
        restocked = say(lang, "pile shuffled into a new stock")
        if not words or glyphs.text_width(" · ".join(words + [restocked])) <= width:
            words.append(restocked)
    if view.holder is not None and view.held is not None:
        holds = name_words(lang, "{who} holds {card}", table[view.holder], width, table,
                               card=card_words(view.held))
        # Where both do not fit, the final turns stay whole: the card in hand is the
        # one the last action just said was taken.
        if not words or glyphs.text_width(" · ".join(words + [holds])) <= width:
            words.append(holds)
    return " · ".join(words)


def _restocked(view: SeatView) -> bool:
    """Did the pile become the stock at the end of the last turn (said through this one)?"""
    return view.restocked_at is not None and view.restocked_at == view.turns and view.phase != OVER


def _draw_piles(draw: ImageDraw.ImageDraw, view: SeatView, palette: Palette,
                stock_box: tuple[int, int, int, int], pile_box: tuple[int, int, int, int]) -> None:
    ink, paper = palette.ink, palette.paper
    if view.stock_size:
        draw_back(draw, stock_box, ink, paper)
    else:
        draw_slot(draw, stock_box, ink, paper)
    if view.discard_top is not None:
        draw_face(draw, pile_box, view.discard_top, ink, paper)
    else:
        draw_slot(draw, pile_box, ink, paper)


def _text_centered(draw: ImageDraw.ImageDraw, box_x: int, box_w: int, y: int, text: str,
                   fill: int, scale: int = 1) -> None:
    text = glyphs.fit_text(text, box_w, scale)
    glyphs.draw_text(draw, box_x + (box_w - glyphs.text_width(text, scale) + scale) // 2, y,
                     text, fill, scale)


def score_rows(players: int, width: int) -> int:
    """Rows of the scores (LINE apart): cells of at least 64 px, so a name such as
    'P8 (HARD)' and its total fit side by side (128 px: two a row; 256 px: four)."""
    per_row = max(1, width // 64)
    return -(-players // per_row)


def scores_top(rows: int, width: int) -> int:
    """The y of the first row of scores: the last row at y 57. On 128 px, four rows (7–8
    players) sit two rows lower, their last row's letters on the screen's bottom row, so
    that the lines over them hold two text lines, not one: a fault's two, or the last
    action and the info line."""
    return 57 - LINE * (rows - 1) + (2 if width == NARROW[0] and rows >= 4 else 0)


def _draw_scores(draw: ImageDraw.ImageDraw, view: SeatView, names: Sequence[str] | None,
                 palette: Palette, x0: int, y0: int, size: tuple[int, int], rows: int,
                 lang: str) -> None:
    """Every seat's match total right after its name ('Ann 12'), cells apart; the seat
    to move is inverted. A total never sits next to the following seat's name."""
    per_row = -(-view.players // rows)
    cell_w = size[0] // per_row
    table = table_names(view.players, names, lang)
    totals = [str(total) for total in view.totals]
    # margins, the space, the gap to the next cell
    shown = [fit_name(table[seat], cell_w - 10 - glyphs.text_width(totals[seat]), table)
             for seat in range(view.players)]
    for seat in range(view.players):
        x = x0 + (seat % per_row) * cell_w
        y = y0 + (seat // per_row) * LINE
        # A row on the screen's bottom row (128 px, 7-8 players) has no row under it for
        # tails: Ђ's fell off (Ђорђе read Ћорће, Françoise Francoise). Drawn a row higher
        # instead, its accents and its bar went into the tails of the row above (Щ read
        # Ш): such letters take their short form there.
        short = y + glyphs.SMALL_HEIGHT >= size[1]
        mover = seat == view.to_move
        fg = palette.paper if mover else palette.ink
        if mover:  # the bar reaches over the accents too
            draw.rectangle((x, y - 2, x + cell_w - 4, y + LINE - 3), fill=palette.ink)
        after = glyphs.draw_text(draw, x + 1, y, shown[seat], fg, short=short)
        glyphs.draw_text(draw, after + 3, y, totals[seat], fg)


def render_table(view: SeatView, size: tuple[int, int] = WIDE, names: Sequence[str] | None = None,
                 message: str = "", lang: str = "en") -> Image.Image:
    """The shared display mid-round: piles, round n/N, whose turn, the last action,
    final turns or who is still turning up, every seat's total. ``message`` (an
    inverted bar) replaces the line under the last action."""
    image, draw, palette = _canvas(size)
    rows = score_rows(view.players, image.width)
    scores_y = scores_top(rows, image.width)
    draw_middle = _draw_wide_middle if image.width == WIDE[0] else _draw_narrow_middle
    draw_middle(draw, view, names, palette, message, rows, scores_y, lang)
    _draw_scores(draw, view, names, palette, 0, scores_y, image.size, rows, lang)
    return image


def _draw_wide_middle(draw: ImageDraw.ImageDraw, view: SeatView, names: Sequence[str] | None,
                      palette: Palette, message: str, rows: int, scores_y: int, lang: str) -> None:
    """256×64 above the scores: the piles on the left; right of them the round and the
    variant, whose turn in big letters, the last action, and the message or the info line."""
    ink, dim = palette.ink, palette.dim
    # A third row of scores (9-10 players, 4-card) begins at y 41: the piles are 20 px
    # then, so that their words (y 37-41 under 34 px) do not run into its names.
    pile_h = 34 if rows < 3 else 20
    _draw_piles(draw, view, palette, (1, 1, 26, pile_h), (31, 1, 26, pile_h))
    _text_centered(draw, 1, 26, pile_h + 3, str(view.stock_size), ink)
    _text_centered(draw, 31, 26, pile_h + 3, say(lang, "pile"), dim)
    x, width = 62, WIDE[0] - 62
    glyphs.draw_text(draw, x, 0, say(lang, "round {n}/{of}", n=view.round_no, of=view.rounds), dim)
    name = variant_words(view.variant.name, lang)
    glyphs.draw_text(draw, WIDE[0] - glyphs.text_width(name), 0, name, dim)
    turn = _turn_words(view, names, lang, width, 2)
    glyphs.draw_text(draw, x, 10, turn, ink, 2)  # its accents rise 4 rows: under row 0's text
    # Lines from y 23 down to the scores: the last action, then the message or the
    # info line. A message is shown whole if it can: it takes the last action's line.
    lines = (scores_y - LINE - 23) // LINE + 1
    message_lines = _bar_lines(message, width, lines, names)
    last = glyphs.fit_text(describe_last(view, names, lang, width), width)
    # Under the last action a bar goes a row lower, two under a cedilla: a blank row
    # parts them. If the scores leave no room for that, it takes the last action's line.
    # Under a mover's name with a tail (ÇAĞRI, ЩУКИН: 2 rows at y 20-21) the last
    # action's accents (y 21-22) went into it: the lines go lower, a blank row between.
    last_y = max(23, 10 + 2 * glyphs.SMALL_HEIGHT + glyphs.hang(turn, 2) + 1 + glyphs.rise(last))
    message_y = last_y + 8 + (1 + glyphs.hang(last) if message_lines and last else 0)
    if len(message_lines) < lines and message_y + LINE * (len(message_lines) - 1) + 5 <= scores_y - 4:
        glyphs.draw_text(draw, x, last_y, last, ink)
        _message_or_info(draw, palette, x, message_y, width, message_lines,
                         _info_words(view, names, lang, width))
    else:  # one row lower: its bar's top clears the turn's big letters
        _message_or_info(draw, palette, x, 24, width, message_lines, "")


def _draw_narrow_middle(draw: ImageDraw.ImageDraw, view: SeatView, names: Sequence[str] | None,
                        palette: Palette, message: str, rows: int, scores_y: int, lang: str) -> None:
    """128×64 above the scores: small piles, whose turn and the round beside them; under
    them, across the screen, the last action and the message or the info line."""
    ink = palette.ink
    last = describe_last(view, names, lang)
    # Text lines from y 18 down to the scores: the last action (two lines if there is
    # room), then the message or the info line. More score rows leave fewer lines;
    # a message takes the lines it needs first (whole if it can), the last action
    # the rest; with one line only and no message, the info goes.
    lines = (scores_y - LINE - 18) // LINE + 1
    message_lines = _bar_lines(message, NARROW[0], lines, names)
    round_words = say(lang, "R{n}/{of} stock {stock}", n=view.round_no, of=view.rounds,
                      stock=view.stock_size)
    # A bar on the first text line goes a row lower than it, so that a blank row
    # parts it from the piles' bottom row (y 15). With 7-8 players the scores leave
    # no room for that: while a message shows, the piles make way for it, and the
    # round's line says the discard's top card.
    piles = not (message_lines and rows >= 4)
    if piles:
        _draw_piles(draw, view, palette, (0, 0, 20, 16), (22, 0, 26, 16))
        x, bar_y = 51, 20
    else:
        x, bar_y = 0, 18
        if view.discard_top is not None:
            round_words += " · " + say(lang, "pile") + " " + card_words(view.discard_top)
    width = NARROW[0] - x
    glyphs.draw_text(draw, x, 2, _turn_words(view, names, lang, width), ink)
    # A row higher than the pitch of lines (these words have no accents): a blank row
    # parts them from a fault bar right under them (from y 15, 7-8 players).
    glyphs.draw_text(draw, x, 9, glyphs.fit_text(round_words, width), ink)
    if lines == 1 and not message:  # one line: a long name is cut, not what it did
        _message_or_info(draw, palette, 0, 18, NARROW[0], [],
                         describe_last(view, names, lang, NARROW[0]))
        return
    # The info line has the line the last action leaves (and none under a message); who
    # knocked beside the final turns may need two, and the last action keeps one then.
    info = "" if message_lines else _info_words(view, names, lang, NARROW[0], 2 if lines >= 3 else 1)
    last_room = min(2, lines - len(message_lines))
    if info and (view.final_turns_left is not None or _restocked(view)):
        # The final turns, or the new stock said for one turn only, keep their line(s):
        # the last action gives up its second one, its name cut rather than its words (a
        # long one left them no line with 5-8 players, on every frame of the turn).
        last_room = max(1, min(last_room, lines - 1 - info.count("\n")))
        if last_room == 1:
            last = glyphs.fit_text(describe_last(view, names, lang, NARROW[0]), NARROW[0])
    last_lines = glyphs.wrap_text(last, NARROW[0], last_room) if last and last_room > 0 else []
    last_y, message_y = 18, bar_y
    if message_lines and last_lines:
        # A blank row (and one for a cedilla) parts the last action's letters from
        # the bar under it. With 7-8 players that leaves the bar no blank row over
        # the scores: the bar comes first then, the last action under it.
        message_y = 18 + LINE * len(last_lines) + 1 + glyphs.hang(last_lines[-1])
        if message_y + LINE * (len(message_lines) - 1) + 5 > scores_y - 4:
            message_y, last_y = bar_y, bar_y + LINE * len(message_lines) + 1
    for i, line in enumerate(last_lines):
        glyphs.draw_text(draw, 0, last_y + LINE * i, line, ink)
    if message_lines:
        _message_or_info(draw, palette, 0, message_y, NARROW[0], message_lines, "")
    elif len(last_lines) < lines:
        _message_or_info(draw, palette, 0, 18 + LINE * len(last_lines), NARROW[0], [], info)


def _bar_lines(message: str, width: int, lines: int, names: Sequence[str] | None = None) -> list[str]:
    """A message's lines on its inverted bar of ``width`` (2 px kept each side), broken
    between its parts ("… unplugged · a bot plays in 120 s"): at most ``lines``, one at
    least. A message too long for them has the seats' names in it cut shorter
    ("Marie-Hélène Dub…", told apart from the others) before any of its own words."""
    return wrap_naming(message, width - 4, max(1, lines), names or (), sep=" · ") if message else []


def _message_or_info(draw: ImageDraw.ImageDraw, palette: Palette, x: int, y: int, width: int,
                     message_lines: list[str], info: str) -> None:
    if message_lines:  # an inverted bar from the first line's accents to the last line's letters
        draw.rectangle((x, y - 3, x + width - 1, y + LINE * (len(message_lines) - 1) + 5),
                       fill=palette.ink)
        for i, line in enumerate(message_lines):
            glyphs.draw_text(draw, x + 2, y + LINE * i, line, palette.paper)
    elif info:
        for i, line in enumerate(info.split("\n")):
            glyphs.draw_text(draw, x, y + LINE * i, glyphs.fit_text(line, width), palette.ink)


def _end_words(view: SeatView, names: Sequence[str] | None, lang: str, room: int | None = None) -> str:
    """How the round ended: 'P2 knocked', 'P3 went out', 'stock ran out'. Within ``room``
    px if given: a long name is cut (fit_name), never the verb."""
    table = table_names(view.players, names, lang)
    if view.ender is not None:  # the knocker, if one knocked
        return name_words(lang, _ended_by(view), table[view.ender], room, table)
    return say(lang, "stock ran out") if view.phase == OVER else ""


# What the seat that ended the round did, its name left to say (a table of words:
# tests/test_words.py reads it).
ENDED_WORDS = {"knocked": "{who} knocked", "went out": "{who} went out"}


def _ended_by(view: SeatView) -> str:
    return ENDED_WORDS["knocked" if view.knocker is not None else "went out"]


def reveal_head(view: SeatView, size: tuple[int, int], names: Sequence[str] | None, page: int,
                lang: str = "en") -> str:
    """The reveal's top line left of the page number: the round and how it ended
    ('R3/9 · JEAN-B…NE WENT OUT'). A long name is cut, told apart; once the words
    'WENT…' were cut and said nothing of what the seat did."""
    header = say(lang, "round {n}/{of} over", n=view.round_no, of=view.rounds)
    if size[0] == NARROW[0]:
        header = say(lang, "R{n}/{of}", n=view.round_no, of=view.rounds)
    pages = reveal_pages(view.players, size)
    room = size[0] - (glyphs.text_width(f"{page + 1}/{pages}") + 4 if pages > 1 else 0)
    end = _end_words(view, names, lang, room - glyphs.text_width(header + " · ") - 1)  # the join's gap
    return glyphs.fit_text(" · ".join(w for w in (header, end) if w), room)


def variant_words(name: str, lang: str = "en") -> str:
    """A variant's name as players read it: '6-card', '6 cartes'."""
    return say(lang, name)


def _grids_per_page(size: tuple[int, int]) -> int:
    """How many grids one page of the reveal holds: 8 across 256 px, 4 across 128."""
    return 8 if tuple(size) == WIDE else 4


def reveal_pages(players: int, size: tuple[int, int] = WIDE) -> int:
    """How many pages the reveal of ``players`` grids takes on this display."""
    return -(-players // _grids_per_page(size))


# A reveal's totals: the first form in which every one of them fits its panel (a table
# of words: tests/test_words.py reads it).
REVEAL_TOTAL_FORMS = ("tot {n}", "T:{n}")


def reveal_totals(totals: Sequence[int], room: int, lang: str = "en") -> list[str]:
    """Every total of a reveal in one form, on every page alike: 'tot 12'; where one
    total does not fit ``room`` px, 'T:1053' ('TOT 1053' is 30 px, a 32-px panel holds
    29, and the number alone read as a second round score on the mono display); the
    number alone only past what the rules allow (a resumed old match's '1234567')."""
    for form in REVEAL_TOTAL_FORMS:
        words = [say(lang, form, n=total) for total in totals]
        if all(glyphs.text_width(total) <= room for total in words):
            return words
    return [str(total) for total in totals]


def render_reveal(view: SeatView, size: tuple[int, int] = WIDE, names: Sequence[str] | None = None,
                  page: int = 0, lang: str = "en") -> Image.Image:
    """The round's reveal: every grid face up with its round score and match total.

    The seat that knocked or went out has its name inverted; a penalty shows as
    'raw+penalty', a doubled score as 'raw×2' (the score alone where that would be cut);
    a total as 'tot 12', or 'T:1053' (reveal_totals). 256×64 holds 8 grids; 128×64
    holds 4 per page (see reveal_pages).
    """
    image, draw, palette = _canvas(size)
    ink, dim, paper = palette.ink, palette.dim, palette.paper
    per_page = _grids_per_page(size)
    pages = reveal_pages(view.players, size)
    if not 0 <= page < pages:
        raise ValueError(f"reveal page {page}: this table has pages 0-{pages - 1}")
    seats = range(page * per_page, min(view.players, (page + 1) * per_page))

    page_words = f"{page + 1}/{pages}" if pages > 1 else ""
    glyphs.draw_text(draw, 0, 2, reveal_head(view, size, names, page, lang), ink)  # 2 rows down: accents
    if page_words:
        glyphs.draw_text(draw, image.width - glyphs.text_width(page_words), 2, page_words, dim)

    rows, cols = view.variant.rows, view.variant.cols
    panel_w = image.width // max(len(seats), 4)
    left = (image.width - panel_w * len(seats)) // 2
    room = panel_w - 3  # for a name, a score or a total: 3 blank columns between panels
    table = table_names(view.players, names, lang)
    totals = reveal_totals(view.totals, room, lang)
    for i, seat in enumerate(seats):
        x = left + i * panel_w
        name = fit_name(table[seat], room, table)
        if seat == view.ender:  # from the accents' row down
            draw.rectangle((x + 1, 8, x + panel_w - 2, 15), fill=ink)
        _text_centered(draw, x + 1, panel_w - 2, 10, name, paper if seat == view.ender else ink)
        grid_x = x + (panel_w - (cols * 10 - 1)) // 2
        for pos, card in enumerate(view.grids[seat]):
            box = (grid_x + pos % cols * 10, 18 + pos // cols * 8, 9, 7)
            if card is None:
                draw_back(draw, box, ink, paper)
            else:
                draw_small_face(draw, box, card, ink, paper)
        if view.round_scores is not None:
            # 'raw+penalty', else the score alone (a resumed old match's '24+123456')
            score = glyphs.first_that_fits([score_words(view, seat)], room, str(view.round_scores[seat]))
            _text_centered(draw, x, panel_w, 20 + rows * 8, score, ink)
        _text_centered(draw, x, panel_w, 28 + rows * 8, totals[seat], dim)
    return image


def render_match_result(totals: Sequence[int], winners: Sequence[int],
                        names: Sequence[str] | None = None,
                        size: tuple[int, int] = WIDE, lang: str = "en") -> Image.Image:
    """The end of the match: who won and every seat's total, best first (winners inverted)."""
    image, draw, palette = _canvas(size)
    ink, paper = palette.ink, palette.paper
    _text_centered(draw, 0, image.width, 1, say(lang, "match over"), ink, 2)
    table = table_names(len(totals), names, lang)
    verdict = _verdict([table[s] for s in winners], image.width, lang, table)
    _text_centered(draw, 0, image.width, 14, verdict, ink)
    standings = sorted(range(len(totals)), key=lambda s: (totals[s], s))
    # Four seats a column, the second only for a fifth player (128 px: a column of 64 px
    # beside an empty one cut names to "P2 (HA…"). Two columns of 64 px leave no room for
    # the place ('1.') beside a bot's name ('J8 (GLOUTON)', 45 px) and a total ('-12'):
    # there the order and the inverted winners say the places, and the bars are 2 px
    # wider, 1 px apart.
    column_w = min(image.width // (1 if len(totals) <= 4 else 2), WIDE[0] // 2)
    ranked = column_w > 64
    # From the column's sides: where the bar begins and ends, where the total ends.
    left, right, total_end = (1, 3, 6) if ranked else (0, 2, 4)
    # 9-10 players (4-card): five rows a column, 1 px closer and from 2 px higher, or the
    # ninth and tenth were below the screen's end. A blank row (y 20) parts the verdict's
    # cedilla (y 19) from the first row's bar; the last bar ends at y 60.
    per_column, top, pitch = (4, 25, 9) if len(totals) <= 8 else (5, 23, 8)
    # The places' column: the widest place and 6 blank px (11 px up to '9.'; '10.' ran
    # into its name), the places right-aligned in it.
    place_w = glyphs.text_width(f"{len(totals)}.") + 6
    for place, seat in enumerate(standings):
        x = (place // per_column) * column_w
        y = top + (place % per_column) * pitch
        won = seat in winners
        fg = paper if won else ink
        if won:  # from the accents' row down
            draw.rectangle((x + left, y - 2, x + column_w - right, y + 5), fill=ink)
        name_x = x + left + 2
        if ranked:
            rank_words = f"{sum(1 for s in standings if totals[s] < totals[seat]) + 1}."
            glyphs.draw_text(draw, name_x + place_w - 6 - glyphs.text_width(rank_words), y,
                             rank_words, fg)
            name_x += place_w
        total = str(totals[seat])
        total_x = x + column_w - total_end + 1 - glyphs.text_width(total)
        room = total_x - 3 - name_x  # a space before the total
        glyphs.draw_text(draw, name_x, y, fit_name(table[seat], room, table), fg)
        glyphs.draw_text(draw, total_x, y, total, fg)
    return image


def _verdict(winners: Sequence[str], width: int, lang: str, table: Sequence[str] = ()) -> str:
    """Who won, in ``width`` pixels, its verb whole: a long winner's name is cut shorter;
    winners who do not fit are counted ("3 players share the win": their rows, inverted,
    name them)."""
    if len(winners) > 1:
        words = say(lang, "{some} and {last} share the win", some=", ".join(winners[:-1]),
                    last=winners[-1])
        return glyphs.first_that_fits([words], width, say(lang, "{n} players share the win",
                                                          n=len(winners)))
    name = winners[0]
    room = width - glyphs.text_width(say(lang, "{who} wins", who="")) - 1  # the gap between
    return say(lang, "{who} wins", who=fit_name(name, room, table))


def render_notice(size: tuple[int, int], title: str, text: str = "",
                  table: Sequence[str] = ()) -> Image.Image:
    """A full-screen notice: 'paused', 'waiting for players', 'seat 3 unplugged'.
    ``table``: the names at the table, where ``title`` is a seat's name (cut, it stays
    told apart from them)."""
    image, draw, palette = _canvas(size)
    title = fit_name(title, image.width, table, 2)
    lines = glyphs.wrap_text(text, image.width - 8, 3) if text else []
    top = (image.height - 10 - (4 + LINE * len(lines) if lines else 0)) // 2
    _text_centered(draw, 0, image.width, top, title, palette.ink, 2)
    for i, line in enumerate(lines):
        _text_centered(draw, 0, image.width, top + 14 + LINE * i, line, palette.ink)
    return image


def render_lobby(size: tuple[int, int], title: str, lines: Sequence[str], cursor: int,
                 players: str, footer: str, lang: str = "en") -> Image.Image:
    """The lobby's menu: the game, empty seats, rounds and house rules, one per line,
    the line ◀▶ changes inverted; then who plays, and ``footer`` (what the buttons do,
    or why the match cannot start) at the bottom.

    Who plays and the footer are laid out from the bottom up: the footer whole (a fault
    too, up to four lines), who plays wrapped so that every name shows (eight players
    too, long names cut shorter), leaving room for at least one menu row; the menu gets
    the rows left above them, at most three, around the cursor. On 256×64 the first
    three lines (game, empty seats, rounds) make the left column and the house rules
    the right one.
    """
    image, draw, palette = _canvas(size)
    ink, paper = palette.ink, palette.paper
    _text_centered(draw, 0, image.width, glyphs.MARK_RISE, title, ink)  # its accents: "ZOÉ : TU JOUES"
    text_w = image.width - 6
    # Under the title and one menu row (its bar ends at y 17): five lines. The footer takes
    # what it needs of them, all but one ("● next setting" never split from "hold ●"): a
    # fault beside what the buttons do shows whole; who plays has the rest, the menu the
    # rows left above.
    room = (image.height - 19) // LINE
    footer_lines = glyphs.wrap_text(footer, text_w, room - 1, sep=" · ")
    room -= len(footer_lines)
    bottom = _players_lines(players, text_w, room, lang) + footer_lines
    top = 64 - LINE * len(bottom)
    for i, line in enumerate(bottom):
        glyphs.draw_text(draw, 3, top + LINE * i, line, ink)
    menu_rows = max(1, min(3, (top - 2 - 6 - 11) // 9 + 1))  # a row's bar is y-2 … y+6
    if image.width >= WIDE[0]:
        column_w = image.width // 2
        columns = [(0, _window(min(3, len(lines)), cursor if cursor < 3 else 0, menu_rows)),
                   (column_w, _window(len(lines), cursor, menu_rows, start=3))]
    else:
        column_w = image.width
        columns = [(0, _window(len(lines), cursor, menu_rows))]
    for x, indexes in columns:
        for row, index in enumerate(indexes):
            y = 11 + row * 9
            text = glyphs.fit_text(lines[index], column_w - 22)
            fg = ink
            if index == cursor:
                fg = paper
                draw.rectangle((x + 1, y - 2, x + column_w - 2, y + 6), fill=ink)
                glyphs.draw_text(draw, x + 3, y, "◀", fg)
                glyphs.draw_text(draw, x + column_w - 9, y, "▶", fg)
            glyphs.draw_text(draw, x + 11, y, text, fg)
    return image


def _players_lines(players: str, width: int, lines: int, lang: str) -> list[str]:
    """"playing: A, B, …" in at most ``lines`` lines, every name shown: names too long
    for that are cut shorter and shorter ("Alexand…"; told apart, "Jean-B…te" and
    "Jean-B…ne") rather than left out."""
    names = players.split(", ")
    for longest in (None, *CUT_NAMES_TO):
        shown = names if longest is None else [cut_name(name, longest, names) for name in names]
        text = say(lang, "playing: {who}", who=", ".join(shown))
        wrapped = glyphs.wrap_text(text, width, lines, sep=", ", whole_parts=True)
        if " ".join(wrapped) == text:  # nothing cut short to fit
            return wrapped
    return glyphs.wrap_text(text, width, lines, sep=", ", whole_parts=True)


def _window(count: int, cursor: int, size: int, start: int = 0) -> range:
    """``size`` consecutive indexes of ``start`` … ``count`` - 1 that show ``cursor`` if they can."""
    first = min(max(cursor - size + 1, start), max(count - size, start)) if cursor >= start else start
    return range(first, min(first + size, count))


def render_saver(size: tuple[int, int], lines: Sequence[str], spot: int) -> Image.Image:
    """The screen saver: black but for ``lines`` of small text, placed by ``spot``.

    Each new spot puts the text elsewhere (a step of a walk across the screen that
    visits every place before coming back), so no pixel stays lit for long; on the
    greyscale display it is drawn dim."""
    image, draw, palette = _canvas(size)
    width = max(glyphs.text_width(line) for line in lines)
    top_room = max(glyphs.rise(line) for line in lines)
    height = top_room + LINE * (len(lines) - 1) + glyphs.SMALL_HEIGHT + glyphs.hang(lines[-1])
    free_x, free_y = max(0, image.width - width) + 1, max(0, image.height - height) + 1
    # Steps prime to the free room: the walk reaches every column and every row.
    x = (free_x // 2 + spot * _step(free_x, 37)) % free_x
    y = (free_y // 2 + spot * _step(free_y, 11)) % free_y
    for i, line in enumerate(lines):
        glyphs.draw_text(draw, x, y + top_room + LINE * i, line, palette.dim)
    return image


def _step(span: int, near: int) -> int:
    """A step from ``near`` up that shares no factor with ``span``."""
    step = near
    while math.gcd(step, span) != 1:
        step += 1
    return step
