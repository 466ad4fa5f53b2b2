"""Every printable ASCII character is drawn: $ @ [ \\ ] ^ { | } ~ had no glyph, so a
name holding one ('Bob [kid]', '@dan', 'Jo|Al', 'Ana~') was refused, and a file's
name holding a byte that is not UTF-8, which the displays write 'caf\\xe9', had its
backslash drawn as the '?' that stands for a character the font lacks."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from golfbox.render import glyphs

# Drawn as another character, on purpose: a keyboard whose apostrophe key types an
# accent types ` for ' (O`Brien), as phones type ’.
DRAWN_AS = {"`": "'"}
PRINTABLE = [chr(code) for code in range(0x20, 0x7F)]
NEW = "$@[\\]^{|}~"


def drawn(text: str, scale: int = 1, short: bool = False) -> bytes:
    image = Image.new("1", ((glyphs.text_width(text, scale) + 4) * scale, 14 * scale), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 4 * scale, text, 1, scale, short=short)
    return image.tobytes()


@pytest.mark.parametrize("char", PRINTABLE)
def test_every_printable_ascii_character_is_drawn(char):
    assert glyphs.undrawable(char) is None, char
    if char in DRAWN_AS:
        assert not glyphs.has_glyph(char) and drawn(char) == drawn(DRAWN_AS[char])
    else:
        assert glyphs.has_glyph(char), char
    if char != "?":
        assert drawn(char) != drawn("?"), char


@pytest.mark.parametrize("scale", (1, 2))
def test_the_ascii_glyphs_differ_from_every_other_glyph(scale):
    """Distinct from each other and from every letter or symbol the font draws (a '|' is
    no 'I', a '[' no 'C', '*' no '×'), as the module draws them, short forms too; but
    a Cyrillic or Greek letter drawn as a Latin one (А as A) is that letter."""
    ascii_glyphs = [ch for ch in PRINTABLE if glyphs.has_glyph(ch) and not ch.islower()]
    assert all(glyphs.drawn_letters(ch) == ch for ch in ascii_glyphs)  # '*' was '×'
    pictures = {ch: drawn(ch, scale) for ch in ascii_glyphs}
    assert len(set(pictures.values())) == len(pictures)
    for ch in ascii_glyphs:
        others = [other for other in glyphs._SMALL
                  if glyphs.drawn_letters(other) != glyphs.drawn_letters(ch)]
        assert all(pictures[ch] != drawn(other, scale) for other in others), ch
        assert all(pictures[ch] != drawn(other, scale, short=True)
                   for other in glyphs._SHORT if other in others), ch


@pytest.mark.parametrize("char", NEW)
def test_a_sign_is_five_rows_high_as_the_others(char):
    """No sign rises over the line or hangs under it: a line of names keeps its rows."""
    assert glyphs.rise(char) == 0 and glyphs.hang(char) == 0
    assert glyphs._SMALL_MASKS[1][char].height == glyphs.SMALL_HEIGHT
    assert drawn(char, short=True) == drawn(char)


def test_names_with_signs_are_drawn_as_written():
    assert glyphs.drawn_letters("Bob [kid]") == "BOB [KID]"
    assert glyphs.drawn_letters("@dan") != glyphs.drawn_letters("dan")
    assert drawn("Jo|Al") != drawn("Jo!Al") != drawn("JoIAl")
    assert drawn("[Ann]") != drawn("(Ann)") and drawn("{Ann}") != drawn("(Ann)")
    assert drawn("\\") != drawn("/") and drawn("~") != drawn("-")
    assert glyphs.undrawable("caf\\xe9.toml") is None
