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
from golfbox.render.table import LINE, _canvas, _text_centered

BODY_LINES = 6  # small-font lines between the title and the footer on a 64-pixel panel
FOOTER = "◀▶ page · ✕ back"

Page = tuple[str, str]  # (title, text)


def _points(variant: Variant) -> str:
    values = variant.values  # by rank: A 2 … 10 J Q K JK
    words = [f"A {values[0]}"]
    if values[1] != 2:
        words.append(f"2 is {values[1]}")
    words.append("others their number" if values[1] == 2 else "3-10 their number")
    if values[10] == values[11]:
        words.append(f"J Q {values[10]}")
    else:
        words.append(f"J {values[10]}, Q {values[11]}")
    words.append(f"K {values[12]}")
    if variant.jokers_per_deck:
        words.append(f"joker {values[13]}")
    return ", ".join(words) + "."


def _penalty(value) -> str:
    if value == "double":
        return "a knocker who is not lowest doubles their score."
    if value:
        return f"a knocker who is not lowest adds {value}."
    return "none: knocking costs nothing."


def rules_pages(variant: Variant, rules: Rules) -> list[Page]:
    """Every page of ``variant``'s rules with ``rules`` as set, in reading order."""
    name = variant.name
    grid = f"{variant.rows}×{variant.cols}"
    pages: list[Page] = [
        (f"{name}: the aim", f"Fewest points wins. Your {variant.rows * variant.cols} cards lie "
                             f"in a {grid} grid; swap them for cheaper ones. Lowest total after "
                             "the last round wins."),
    ]
    if name == "4-card":
        pages += [
            ("deal", "4 cards face down. Before play you look once at your nearest row: "
                     "remember it. Your cards stay face down all round."),
            ("your turn", "Draw: place it face down over any card, or discard it. Or take the "
                          "discard and place it. Or knock: the others play once more."),
            ("points", _points(variant) + " No pairs."),
            ("house rules", f"Assist: {'on, you see' if rules['assist'] else 'off, you remember'}"
                            f" your seen cards. Knock penalty: {_penalty(rules['knock_penalty'])}"),
        ]
    elif name == "6-card":
        start = ("You look once at your nearest row (peek row)." if rules["peek_row"]
                 else "Everyone turns 2 cards of their choice face up.")
        end = ("the others play once more (final turn)." if rules["final_turn"]
               else "the round ends at once.")
        four = rules["four_of_a_kind"]
        pages += [
            ("deal", f"6 cards face down in 2 rows of 3. {start}"),
            ("your turn", "Draw and discard it. Or draw, or take the discard, and place it "
                          "face up over any card: that card goes to the discard."),
            ("end of round", f"When a player has all 6 cards face up, {end}"),
            ("points", _points(variant) + " A column of 2 cards of one rank scores 0."),
            ("house rules", f"Final turn: {'on' if rules['final_turn'] else 'off'}. Peek row: "
                            f"{'on' if rules['peek_row'] else 'off'}. Four of a kind: "
                            + (f"on, 2 paired columns of one rank score {four} together."
                               if four is not None else "off, each pair scores 0.")),
        ]
    elif name == "polish-poker":
        start = ("Each player picks 2 cards to turn up (choose start)." if rules["choose_start"]
                 else "2 of each player's cards are turned up at random.")
        pairs = ("a pair of jokers keeps its -4" if rules["negative_pairs_keep"]
                 else "2 jokers too")
        pages += [
            ("deal", f"6 cards face down in 2 rows of 3. {start}"),
            ("your turn", "Draw and place it face up. Or draw, discard it, then turn one card "
                          "up or pass. Or take the discard and place it. Or knock."),
            ("end of round", "Only a knock ends a round: the others play once more. "
                             f"Knock penalty: {_penalty(rules['knock_penalty'])}"),
            ("points", _points(variant) + f" A column of 2 of one rank scores 0 ({pairs})."),
        ]
    else:  # 9-card
        columns = rules["lines"] == "rows+columns"
        lines = "rows and columns" if columns else "rows"
        pages += [
            ("deal", "9 cards face down in 3 rows of 3. Your first turn starts by turning "
                     "3 cards of your choice face up."),
            ("your turn", "Draw, or take the discard, and place it face up over any card. "
                          "A drawn card cannot be thrown away."),
            ("end of round", "When a player has no card face down, the others play once "
                             "more. That player adds 5 for each lower score."),
            ("points", _points(variant)),
            ("combinations", f"Counted in {lines}: 3 of a rank score 0, 3 kings -10, "
                             "3 jokers -20, 2 lines of one rank -30 together."),
        ]
    return pages


def _body(text: str, width: int) -> list[str]:
    """``text`` broken into lines of ``width`` pixels, all of them (a page never cuts text)."""
    return glyphs.wrap_text(text, width, 99)


def page_fits(page: Page, size: tuple[int, int]) -> bool:
    """Does ``page`` show whole on a panel of ``size``?"""
    return len(_body(page[1], size[0] - 6)) <= BODY_LINES


def render_rules(size: tuple[int, int], pages: Sequence[Page], page: int,
                 reader: str = "", message: str = "") -> Image.Image:
    """One page of the rules, its number, and what the buttons do (or ``message``).
    ``reader``: who turns the pages (the shared display names them)."""
    image, draw, palette = _canvas(size)
    page %= len(pages)
    title, text = pages[page]
    head = f"{title.upper()}  {page + 1}/{len(pages)}"
    if reader:
        head = f"{reader}: {head}"
    draw.rectangle((0, 0, image.width - 1, 7), fill=palette.ink)
    _text_centered(draw, 0, image.width, 1, head, palette.paper)
    for i, line in enumerate(_body(text, image.width - 6)[:BODY_LINES]):
        glyphs.draw_text(draw, 3, 10 + LINE * i, line, palette.ink)
    _text_centered(draw, 0, image.width, 64 - 6, message or FOOTER, palette.dim)
    return image
