"""Names whose letters hang a row under the line (Ђ Д Ц Щ Џ, Ç's cedilla) keep that
row on every screen that draws names: Ђ without its tail reads Ћ, Щ Ш, Ц a U."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))
import goldens  # noqa: E402

from golfbox.engine import Action  # noqa: E402
from golfbox.render import glyphs, render_lobby, render_match_result, render_notice  # noqa: E402
from golfbox.render import render_reveal, render_seat, render_table  # noqa: E402
from golfbox.render.table import reveal_pages  # noqa: E402

TAILED = ("ЩУКИН", "ЂОРЂЕ", "ÇAĞRI", "ЦВЕТАН", "ДИМА", "ЏЕЈН", "ЩЕДРИН", "ЂУРЂА",
          "ȚURCAN", "ĄŽUOLAS", "ŞÜKRÜ",  # cedilla, ogonek and comma below hang as Ç's
          "ÁŊŊÁ", "ŖŪTA",  # and Ŋ's hook, Ŗ's cedilla
          "PHẠM THỊ", "ĐẶNG THỤY")  # and a Vietnamese dot below
SIZES = ((256, 64), (128, 64))
PAD = 8


def _short(short: bool) -> dict:
    return {"short": True} if short else {}  # the main before it drew no short forms


def _ink(image: Image.Image) -> int:
    return image.width * image.height - image.histogram()[0]


def _differ_within(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether two images of 0 and 255 differ in a pixel of ``box`` (whole in both).
    PIL compares them at once: pixel by pixel in Python it was most of this file's time."""
    if box[0] >= box[2] or box[1] >= box[3]:
        return False
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


class Spy:
    """Records what each glyphs.draw_text call drew, and where, calling it through."""

    def __init__(self, monkeypatch):
        self.calls: list[tuple] = []  # (display size, x, y, text, scale, short)
        real = glyphs.draw_text

        def draw_text(draw, x, y, text, fill, scale=1, short=False):
            self.calls.append((draw.im.size, x, y, text, scale, short))
            self.fills.append(fill)
            return real(draw, x, y, text, fill, scale, **_short(short))

        monkeypatch.setattr(glyphs, "draw_text", draw_text)
        self.real = real
        self.fills: list[int] = []
        self.checked = 0

    def unreadable(self, image: Image.Image) -> list[str]:
        """Each text drawn on ``image`` since the last check some glyph pixel of which is
        not in its colour there (a bar or other text over it), or touches another's."""
        bad, seen = [], Image.new("1", image.size, 0)
        grey = image.convert("L")
        for call, fill in zip(self.calls[self.checked:], self.fills[self.checked:]):
            (w, h), x, y, text, scale, short = call
            mask = Image.new("1", image.size, 0)
            self.real(ImageDraw.Draw(mask), x, y, text, 1, scale, **_short(short))
            want = 255 if image.mode == "1" and fill else fill
            # Its box, from its accents to its tails: the glyphs' pixels in its colour,
            # the others not (a bar or another line's letters over it).
            hang = 0 if short else glyphs.hang(text, scale)
            box = (x, y - glyphs.rise(text, scale), x + glyphs.text_width(text, scale),
                   y + glyphs.SMALL_HEIGHT * scale + hang)
            if _differ_within(grey.point(lambda v: 255 if v == want else 0), mask.convert("L"),
                              (max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3]))):
                bad.append(f"{text!r} at y {y}: drawn over")
            if _ink(Image.composite(mask, Image.new("1", image.size, 0), seen)):
                bad.append(f"{text!r} at y {y}: runs into other text")
            seen.paste(1, mask=mask)
        self.checked = len(self.calls)
        return bad

    def clipped(self) -> list[str]:
        """Each call some glyph pixel of which fell off its display: drawn on a canvas
        PAD px larger each side, its ink outside the display's part is counted."""
        lost = []
        for (w, h), x, y, text, scale, short in self.calls:
            tall = Image.new("1", (w + 2 * PAD, h + 2 * PAD), 0)
            self.real(ImageDraw.Draw(tall), x + PAD, y + PAD, text, 1, scale, **_short(short))
            inside = tall.crop((PAD, PAD, PAD + w, PAD + h))
            off = _ink(tall) - _ink(inside)
            if off:
                lost.append(f"{text!r} at y {y} on {w}x{h}: {off} px off the screen")
        return lost


def mid(players: int):
    variant = "9-card" if players <= 8 else "4-card"
    r = goldens.play_turns(goldens.deal(variant, players=players), 7)
    r = goldens.until_my_turn(r, r.to_move)
    r.apply(r.to_move, Action("take"))
    return r


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", range(2, 9))
def test_the_shared_display_keeps_every_tail(monkeypatch, size, players):
    spy = Spy(monkeypatch)
    for shift in range(len(TAILED)):  # every name in every place
        names = [TAILED[(seat + shift) % len(TAILED)] for seat in range(players)]
        r = mid(players)
        render_table(r.view(None), size, names)
        render_table(r.view(None), size, names, message=f"{names[1]} is away: a bot plays")
        render_table(goldens.deal("9-card", players=players).view(None), size, names)  # waiting for
        over = goldens.play_out(goldens.deal("9-card", players=players))
        for page in range(reveal_pages(players, size)):
            render_reveal(over.view(None), size, names, page)
        render_match_result(list(range(players)), [0], names, size)
        render_match_result(list(range(players)), list(range(players)), names, size)
        render_notice(size, names[0], "a bot plays this seat", names)
        render_lobby(size, "golfbox: press ● to join", ["game: 9-card"], 0, ", ".join(names),
                     f"{names[0]} unplugged · hold ● on your pad to start")
        render_seat(r.view(0), names=names)
    assert spy.clipped() == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", range(2, 9))
def test_no_text_is_drawn_over(monkeypatch, size, players):
    """No line of the shared display is drawn over, by a bar or another line. On 128 px
    with 7-8 players the last row of scores went a row higher for its tails, and its
    bar and accents went over the tails of the row above (ЩУКИН read ШУКИН); on 256 px
    the last action's accents went into the tail of the mover's name in big letters
    over it ('ÇAĞRI to play' over 'ÉLODIE took …')."""
    spy = Spy(monkeypatch)
    tailed = TAILED + ("ÉLODIE", "ÉMILE", "ZOË", "ŁUKASZ", "DVOŘÁK", "İLKAY", "TRƯƠNG", "LǏ NǍ",
                      "NGUYỄN THỦY", "TRƯỜNG HẰNG")  # two marks over a Vietnamese letter
    bad = []
    for shift in range(len(tailed)):
        names = [tailed[(seat * 3 + shift) % len(tailed)] for seat in range(players)]
        r = mid(players)
        for mover in range(players):
            spy.checked = len(spy.calls)
            view = r.view(None)
            view = view._replace(table=view.table._replace(to_move=mover))  # each seat's bar
            image = render_table(view, size, names)
            bad += [f"{names} mover {mover}: {b}" for b in spy.unreadable(image)]
    assert bad == []


def test_the_spy_flags_a_text_a_bar_covers_and_no_other(monkeypatch):
    """test_no_text_is_drawn_over means something only if Spy.unreadable flags a text
    with a bar over part of it (here its tails), in either colour, and not one left
    whole: its check is PIL's, on a crop, and a wrong box or mode would pass them all."""
    spy = Spy(monkeypatch)
    whole = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(whole)
    glyphs.draw_text(draw, 2, 4, "ЩУКИН", 1)
    draw.rectangle((0, 20, 127, 40), fill=1)  # a bar, and a name on it in black
    glyphs.draw_text(draw, 2, 28, "ÇAĞRI", 0)
    assert spy.unreadable(whole) == []

    covered = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(covered)
    glyphs.draw_text(draw, 2, 4, "ŞÜKRÜ", 1)
    draw.rectangle((0, 4 + glyphs.SMALL_HEIGHT, 127, 12), fill=1)  # a bar over its tails
    draw.rectangle((0, 20, 127, 40), fill=1)
    glyphs.draw_text(draw, 2, 28, "ÇAĞRI", 0)
    draw.rectangle((0, 28 + glyphs.SMALL_HEIGHT, 127, 40), fill=0)  # the bar cut over its tails
    assert spy.unreadable(covered) == ["'ŞÜKRÜ' at y 4: drawn over", "'ÇAĞRI' at y 28: drawn over"]


def test_a_short_tailed_letter_reads_as_no_other():
    """On a line with no row under it a tailed letter takes a short form, which is
    neither its tail-less look-alike (Ђ/Ћ, Щ/Ш, Ц/U, Д/A, Џ/U, Ç/C) nor any other glyph."""
    def looks(text: str, short: bool) -> bytes:
        image = Image.new("1", (12, 12), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 2, 3, text, 1, short=short)
        return image.tobytes()

    shorts = {letter: looks(letter, True) for letter in "ДЦЩЏЂÇŞĄĘĮŲŢĢĶĻŅŊŖȨẠẶẬỆỊỌỘỢỰỴ"}
    assert len(set(shorts.values())) == len(shorts)
    for letter, short in shorts.items():
        assert glyphs.hang(letter) == 1
        tall = Image.new("1", (12, 14), 0)
        glyphs.draw_text(ImageDraw.Draw(tall), 2, 3, letter, 1, short=True)
        assert not tall.crop((0, 8, 12, 14)).getbbox(), letter  # nothing under the line
        for other in glyphs._SMALL:
            assert short != looks(other, False), (letter, other)
