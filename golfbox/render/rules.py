"""The rules on the table: a variant's rules, with its house rules as set, in pages.

The same pages show on a seat's 128×64 OLED and on the shared display, so a
page is short: a title and at most six lines of the seat's small font. The
words are the product's own (docs/RULES.md says the same at length); what
changes with a house rule is written from the rule's value, so the pages
always describe the game about to be (or being) played.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from golfbox.engine import Rules, Variant
from golfbox.render import glyphs
from golfbox.render.names import fit_name
from golfbox.render.table import LINE, _canvas, _text_centered, variant_words
from golfbox.render.words import say

BODY_LINES = 6  # small-font lines between the title and the footer on a 64-pixel panel
FOOTER = "◀▶ page · ✕ back"

Page = tuple[str, str]  # (title, text)


def _points(variant: Variant, lang: str) -> str:
    values = variant.values  # by rank: A 2 … 10 J Q K JK
    words = [say(lang, "A {n}", n=values[0])]
    if values[1] != 2:
        words.append(say(lang, "2 is {n}", n=values[1]))
    words.append(say(lang, "others their number") if values[1] == 2 else say(lang, "3-10 their number"))
    if values[10] == values[11]:
        words.append(say(lang, "J Q {n}", n=values[10]))
    else:
        words.append(say(lang, "J {j}, Q {q}", j=values[10], q=values[11]))
    words.append(say(lang, "K {n}", n=values[12]))
    if variant.jokers_per_deck:
        words.append(say(lang, "joker {n}", n=values[13]))
    return ", ".join(words) + "."


def _penalty(value, lang: str) -> str:
    # RULES.md: sharing the lowest score is having it, so a tie pays nothing.
    if value == "double":
        return say(lang, "a knocker who is not lowest doubles a score above 0 (a tie counts as lowest).")
    if value:
        return say(lang, "a knocker who is not lowest adds {n} (a tie counts as lowest).", n=value)
    return say(lang, "none: knocking costs nothing.")


def _capital(text: str) -> str:
    """``text`` opening a sentence: its first letter a capital."""
    return text[:1].upper() + text[1:]


def _on_off(value, lang: str) -> str:
    return say(lang, "on") if value else say(lang, "off")


def rules_pages(variant: Variant, rules: Rules, lang: str = "en") -> list[Page]:
    """Every page of ``variant``'s rules with ``rules`` as set, in reading order."""
    name = variant.name
    pages: list[Page] = [
        (say(lang, "{game}: the aim", game=variant_words(name, lang)),
         say(lang, "Fewest points wins. Your {n} cards lie in a {rows}×{cols} grid; swap them "
                   "for cheaper ones. Lowest total after the last round wins.",
             n=variant.rows * variant.cols, rows=variant.rows, cols=variant.cols)),
    ]
    if name == "4-card":
        assist = (say(lang, "Assist: on, you see your seen cards.") if rules["assist"]
                  else say(lang, "Assist: off, you remember your seen cards."))
        pages += [
            (say(lang, "deal"), say(lang, "4 cards face down. Before play you look once at your "
                                          "nearest row: remember it. Your cards stay face down all round.")),
            (say(lang, "each turn"), say(lang, "Draw: place it face down over any card, or discard "
                                               "it. Or take the discard and place it. Or knock: the "
                                               "others play once more.")),
            (say(lang, "points"), _points(variant, lang) + " " + say(lang, "No pairs.")),
            (say(lang, "house rules"), assist + " " + say(lang, "Knock penalty: {what}",
                                                          what=_penalty(rules["knock_penalty"], lang))),
        ]
    elif name == "6-card":
        # RULES.md peek_row: the row "stays face down (known to the owner)".
        start = (say(lang, "You look once at your nearest row (peek row); it stays face down: "
                           "remember it.") if rules["peek_row"]
                 else say(lang, "Everyone turns 2 cards of their choice face up."))
        end = (say(lang, "the others play once more (final turn).") if rules["final_turn"]
               else say(lang, "the round ends at once."))
        four = rules["four_of_a_kind"]
        four_words = (say(lang, "on, 2 paired columns of one rank score {n} together.", n=four)
                      if four is not None else say(lang, "off, each pair scores 0."))
        pages += [
            (say(lang, "deal"), say(lang, "6 cards face down in 2 rows of 3.") + " " + start),
            (say(lang, "each turn"), say(lang, "Draw and discard it. Or draw, or take the discard, "
                                               "and place it face up over any card: that card goes "
                                               "to the discard.")),
            (say(lang, "end of round"), say(lang, "When a player has all 6 cards face up, {end}", end=end)),
            (say(lang, "points"), _points(variant, lang) + " "
             + say(lang, "A column of 2 cards of one rank scores 0 (2 over 2 too).")),
            (say(lang, "house rules"), say(lang, "Final turn: {final}. Peek row: {peek}. Four of a kind: {four}",
                                           final=_on_off(rules["final_turn"], lang),
                                           peek=_on_off(rules["peek_row"], lang), four=four_words)),
        ]
    elif name == "polish-poker":
        start = (say(lang, "Each player picks 2 cards to turn up (choose start).") if rules["choose_start"]
                 else say(lang, "2 of each player's cards are turned up at random."))
        pairs = (say(lang, "a pair of jokers keeps its -4") if rules["negative_pairs_keep"]
                 else say(lang, "2 jokers too"))
        pages += [
            (say(lang, "deal"), say(lang, "6 cards face down in 2 rows of 3.") + " " + start),
            (say(lang, "each turn"), say(lang, "Draw and place it face up. Or draw, discard it, then "
                                               "turn one card up or pass. Or take the discard and "
                                               "place it. Or knock.")),
            # RULES.md "Stock runs out" (every variant): a knock is not the only end. The
            # penalty has a page of its own: with both ends, "double" took seven lines.
            (say(lang, "end of round"), say(lang, "A knock ends a round: the others play once more. "
                                                  "If even the reshuffled discard leaves no card to "
                                                  "draw, the round ends at once.")),
            (say(lang, "knock penalty"), _capital(_penalty(rules["knock_penalty"], lang))),
            (say(lang, "points"), _points(variant, lang) + " "
             + say(lang, "A column of 2 of one rank scores 0 ({pairs}).", pairs=pairs)),
        ]
    else:  # 9-card
        lines = (say(lang, "rows and columns") if rules["lines"] == "rows+columns"
                 else say(lang, "rows"))
        pages += [
            (say(lang, "deal"), say(lang, "9 cards face down in 3 rows of 3. Your first turn starts "
                                          "by turning 3 cards of your choice face up.")),
            (say(lang, "each turn"), say(lang, "Draw, or take the discard, and place it face up over "
                                               "any card. A drawn card cannot be thrown away.")),
            (say(lang, "end of round"), say(lang, "When a player has no card face down, the others "
                                                  "play once more. That player adds 5 for each lower score.")),
            (say(lang, "points"), _points(variant, lang)),
            (say(lang, "combinations"), say(lang, "Counted in {lines}: 3 of a rank score 0, 3 kings "
                                                  "-10, 3 jokers -20, 2 lines of one rank -30 together.",
                                            lines=lines)),
        ]
        if rules["lines"] == "rows+columns":
            # RULES: a line counts only if none of its cards is in one already, rows first.
            # A page of its own: with it, French's page of combinations took seven lines.
            pages.append((say(lang, "rows and columns"),
                          say(lang, "A card counts in one line at most, rows first.")))
    return pages


def _body(text: str, width: int) -> list[str]:
    """``text`` broken into lines of ``width`` pixels, all of them (a page never cuts text)."""
    return glyphs.wrap_text(text, width, 99)


def page_fits(page: Page, size: tuple[int, int]) -> bool:
    """Does ``page`` show whole on a panel of ``size``?"""
    return len(_body(page[1], size[0] - 6)) <= BODY_LINES


def _head(title: str, reader: str, room: int, lang: str, table: Sequence[str] = ()) -> str:
    """The title bar's words before the page number, in ``room`` pixels. On a seat the
    page's title; on the shared display who reads the rules, for everyone at the table
    ('P2 READS THE RULES · EACH TURN'), not the page's title after a name, which read
    as a turn prompt ('P2: YOUR TURN'). A long name is cut short, never 'reads the
    rules', and told apart from the other names at the ``table`` (fit_name); the page's
    title follows if it fits whole."""
    if not reader:
        return glyphs.fit_text(title.upper(), room)
    reads = say(lang, "{who} reads the rules", who="").upper()
    # Less the 1-pixel gap the join puts between the name and the words after it.
    who = fit_name(reader.upper(), room - glyphs.text_width(reads) - 1, table)
    head = say(lang, "{who} reads the rules", who=who).upper()
    with_title = f"{head} · {title.upper()}"
    return glyphs.first_that_fits([with_title], room, head)


def render_rules(size: tuple[int, int], pages: Sequence[Page], page: int,
                 reader: str = "", message: str = "", lang: str = "en",
                 table: Sequence[str] = ()) -> Image.Image:
    """One page of the rules, its number, and what the buttons do (or ``message``).
    ``reader``: who turns the pages (the shared display names them), told apart from
    the other names at the ``table`` if cut."""
    image, draw, palette = _canvas(size)
    page %= len(pages)
    title, text = pages[page]
    head = _head(title, reader, image.width - glyphs.text_width(f"  {page + 1}/{len(pages)}") - 1, lang,
                 table)
    head += f"  {page + 1}/{len(pages)}"  # never cut: 1 px of the room is the gap before it
    draw.rectangle((0, 0, image.width - 1, 8), fill=palette.ink)  # room for the title's accents
    _text_centered(draw, 0, image.width, 3, head, palette.paper)
    for i, line in enumerate(_body(text, image.width - 6)[:BODY_LINES]):
        glyphs.draw_text(draw, 3, 12 + LINE * i, line, palette.ink)
    _text_centered(draw, 0, image.width, 64 - 6, message or say(lang, FOOTER), palette.dim)
    return image
