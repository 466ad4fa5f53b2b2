"""Latin letters with marks French and German lack: Czech, Polish, Hungarian, Romanian,
Turkish, Baltic and Portuguese names. Every one was drawn as its plain letter (Dvořák
read DVORAK, Łukasz LUKASZ, Turkish Ğ as G, another letter) and ẞ was refused.

Each is its letter at full size with a mark composed over it (or under it, hanging
like Ç's cedilla); two letters drawn alike are one letter to drawn_letters."""

from __future__ import annotations

import unicodedata
from itertools import groupby

import pytest
from PIL import Image, ImageDraw

from golfbox.render import glyphs

# The capitals the font drew as their plain letter: each gets a mark of its own now.
ABOVE = "ŠČŘŽĚŇĎŤĽŮÅŻĖĠİĀĒĪŪŌŐŰÃÕĂĞŚĆŹŃĹŔÝĈĜĤĴŜŶĨŨĬŎŬĊŴ"
BELOW = "ĄĘĮŲŞŢȘȚĢĶĻŅ"
OWN = "ŁĐẞ"  # letters Unicode does not split into a letter and a mark
# Cedilla and comma below are one mark to a reader (Romanians type Ş for Ș).
ALIKE = {"Ș": "Ş", "Ț": "Ţ", "Ð": "Đ"}


def drawn(text: str, scale: int = 1, short: bool = False) -> bytes:
    image = Image.new("1", (glyphs.text_width(text, scale) + 4, 14 * scale), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 4 * scale, text, 1, scale, short=short)
    return image.tobytes()


def plain(letter: str) -> str:
    return {"Ł": "L", "Đ": "D", "ẞ": "B"}.get(letter) or unicodedata.normalize("NFD", letter)[0]


@pytest.mark.parametrize("letter", ABOVE + BELOW + OWN)
def test_a_marked_letter_is_drawn_with_its_mark(letter):
    assert glyphs.has_glyph(letter) and glyphs.undrawable(letter + letter.lower()) is None
    assert drawn(letter) != drawn(plain(letter)), letter
    assert drawn(letter.lower()) == drawn(letter) or letter == "ẞ"  # ß is SS in capitals
    assert glyphs.drawn_letters(letter) == ALIKE.get(letter, letter)
    assert 3 <= glyphs.text_width(letter) <= 5
    if letter in ABOVE:  # the letter's own width, the mark over it
        assert glyphs.text_width(letter) == glyphs.text_width(plain(letter))
        assert (glyphs.rise(letter), glyphs.hang(letter)) == (glyphs.MARK_RISE, 0)
    if letter in BELOW:
        assert (glyphs.rise(letter), glyphs.hang(letter)) == (0, 1)


def test_names_are_no_more_misspelt():
    assert drawn("ĞÜL") != drawn("GÜL") and drawn("Ağca") != drawn("Agca")
    assert glyphs.drawn_letters("Łukasz") != "LUKASZ" and drawn("Łukasz") != drawn("Lukasz")
    assert glyphs.drawn_letters("Dvořák") == "DVOŘÁK"
    assert glyphs.undrawable("Straẞe") is None and drawn("ẞ") != drawn("?")
    assert drawn("Ștefan") == drawn("Ştefan") != drawn("Stefan")


@pytest.mark.parametrize("scale", (1, 2))
def test_letters_drawn_alike_are_one_letter_to_drawn_letters(scale):
    """The look-alike check compares drawn_letters: two glyphs drawn the same must give
    the same letter, two drawn apart two letters."""
    letters = sorted(glyphs._SMALL, key=lambda ch: drawn(ch, scale))
    for picture, same in groupby(letters, key=lambda ch: drawn(ch, scale)):
        assert len({glyphs.drawn_letters(ch) for ch in same}) == 1
    by_letter = {}
    for ch in glyphs._SMALL:
        by_letter.setdefault(glyphs.drawn_letters(ch), set()).add(drawn(ch, scale))
    assert all(len(pictures) == 1 for pictures in by_letter.values())


@pytest.mark.parametrize("base", "AEIOUSZCGNTLRDYBHKMVW")
def test_the_marks_on_one_letter_differ(base):
    """Ě (caron), Ê (circumflex) and Ĕ (breve) are three letters; so are Ő Ö Ó Õ; Ů and
    Û; Ź and Ż; Ą and A: each mark is drawn its own way over the same letter."""
    marked = [ch for ch in glyphs._SMALL
              if len(unicodedata.normalize("NFD", ch)) == 2 and unicodedata.normalize("NFD", ch)[0] == base]
    assert marked, base
    pictures = {drawn(ch) for ch in marked if ch not in ALIKE}
    assert len(pictures) == len([ch for ch in marked if ch not in ALIKE]) and drawn(base) not in pictures


def test_caron_circumflex_and_breve_are_three_marks():
    def mark(letter: str, rows: int = 2) -> bytes:
        image = Image.new("1", (6, 6), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 0, 2, letter, 1)
        return image.crop((0, 0, 6, rows)).tobytes()

    assert len({mark(ch) for ch in "ĚÊĔĒĖÉÈË"}) == 8
    assert len({mark(ch, rows=1) for ch in "ÉÈÊË"}) == 4  # French ones apart by their top row
    assert len({mark(ch) for ch in "ŐÖÓÕŌŎÒ"}) == 7


@pytest.mark.parametrize("letter", BELOW)
def test_a_letter_hanging_under_the_line_has_a_short_form(letter):
    """On the 128 px shared display's last row of scores there is no row under the line:
    there Ş, Ą, Ț... keep their mark within it, unlike any other glyph."""
    image = Image.new("1", (12, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 3, letter, 1, short=True)
    assert not image.crop((0, 8, 12, 14)).getbbox(), letter  # nothing under the line
    short = drawn(letter, short=True)
    others = [ch for ch in glyphs._SMALL if glyphs.drawn_letters(ch) != glyphs.drawn_letters(letter)]
    assert all(short != drawn(other, short=True) and short != drawn(other) for other in others)


def bitmap(rows: str, rise: int = 0) -> bytes:
    """``rows`` ('#'/'.' joined by '|') where ``drawn`` puts a glyph rising ``rise`` rows."""
    lines = rows.split("|")
    image = Image.new("1", (len(lines[0]) + 4, 14), 0)
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            image.putpixel((2 + x, 4 - rise + y), ch == "#")
    return image.tobytes()


# Letters with a stroke, a hook or a dot of their own, drawn as their plain letter
# (Ħ as H, Þ as P): 'ĦANNA' read HANNA, 'ÞÓRA' PÓRA. Each is drawn as itself now.
STROKED = {
    "Ħ": (".#.#.|#####|.###.|.#.#.|.#.#.", "H"),  # Maltese: the bar out over the crossbar
    "Ŧ": ("###|.#.|###|.#.|.#.", "T"),  # Sámi: a bar across the stem
    "Ŀ": ("#..|#..|#.#|#..|###", "L"),  # Catalan: L and the dot of L·L
    "Þ": ("#..|##.|#.#|##.|#..", "P"),  # Icelandic thorn: a stem through a bowl
    "Ŋ": ("#..#|##.#|#.##|#..#|#..#|..#.", "N"),  # Sámi eng: N, its hook under the line
    "Ŗ": ("##.|#.#|##.|#.#|#.#|.#.", "R"),  # old Latvian: R and a cedilla
}


@pytest.mark.parametrize("letter", STROKED)
def test_a_stroked_letter_is_drawn_as_itself_not_its_plain_letter(letter):
    rows, plain_letter = STROKED[letter]
    assert drawn(letter) == bitmap(rows) == drawn(letter.lower())
    assert drawn(letter) != drawn(plain_letter)
    assert glyphs.drawn_letters(letter.lower()) == letter
    assert glyphs.hang(letter) == (letter in "ŊŖ")


def test_names_with_stroked_letters_are_not_their_plain_names():
    for name, plain_name in (("Ħanna", "Hanna"), ("Þóra", "Póra"), ("Ŧiina", "Tiina"),
                             ("Ŋuolla", "Nuolla"), ("Ŗiga", "Riga")):
        assert drawn(name) != drawn(plain_name), name
        assert glyphs.drawn_letters(name) != glyphs.drawn_letters(plain_name), name
    assert glyphs.drawn_letters("Ŀ") != glyphs.drawn_letters("L·")  # Ŀ is not L and a dot


def test_dutch_ij_is_drawn_as_the_two_letters_it_is():
    """Ĳ was drawn as J alone: 'Ĳsbrand' read JSBRAND. It is I and J, as ß is SS, and
    reads as a name typed with the two letters does."""
    for name in ("Ĳsbrand", "ĳsbrand", "ĲSBRAND"):
        assert glyphs.drawn_letters(name) == "IJSBRAND", name
        assert drawn(name) == drawn("IJsbrand") and glyphs.undrawable(name) is None
        assert glyphs.text_width(name) == glyphs.text_width("IJSBRAND")
    assert glyphs.fit_text("Ĳsbrand", glyphs.text_width("IJS…")) == "Ĳs…"
    assert glyphs.drawn_letters("van Ĳssel") == "VAN IJSSEL"


@pytest.mark.parametrize("letter", "ŊŖ")
def test_a_stroked_letter_with_a_tail_has_a_short_form(letter):
    """Ŋ's hook and Ŗ's cedilla hang as Ş's does: on the last row of a 128 px shared
    display they stay within the line, the letter a row shorter."""
    image = Image.new("1", (12, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 3, letter, 1, short=True)
    assert not image.crop((0, 8, 12, 14)).getbbox() and image.getbbox()
    short = drawn(letter, short=True)
    others = [ch for ch in glyphs._SMALL if ch != letter]
    assert all(short != drawn(other, short=True) and short != drawn(other) for other in others)


# Latin Extended-B and Additional letters with one mark the font draws on other letters
# (Pinyin Ǎ Ǐ Ǒ Ǔ, Skolt Sámi Ǧ Ǩ, Macedonian-Latin Ǵ, Ǹ, Livonian Ȧ Ȯ Ȳ, Guarani Ẽ Ỹ,
# Vietnamese and Welsh Ỳ): each was drawn as its plain letter ('DIǸA' read DINA). Each
# is its letter with the mark a letter of Latin Extended-A carries, there before.
MARK_AS_ON = {"Ǎ": "Č", "Ǐ": "Č", "Ǒ": "Č", "Ǔ": "Č", "Ǧ": "Č", "Ǩ": "Č", "Ȟ": "Č",
              "Ǵ": "Ś", "Ǹ": "Ѝ", "Ȧ": "Ż", "Ȯ": "Ż", "Ḋ": "Ż", "Ṡ": "Ż", "Ȳ": "Ū",
              "Ẽ": "Ũ", "Ỹ": "Ũ", "Ỳ": "È", "Ẑ": "Ŝ", "Ȩ": "Ş"}


def mark_rows(letter: str) -> bytes:
    """The mark of ``letter``: its rows above the line's top, or under the line's bottom."""
    image = Image.new("1", (8, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 0, 4, letter, 1)
    return image.crop((0, 0, 8, 4)).tobytes() + image.crop((0, 9, 8, 14)).tobytes()


@pytest.mark.parametrize("letter", MARK_AS_ON)
def test_a_latin_extended_b_letter_is_its_letter_and_its_mark(letter):
    base = unicodedata.normalize("NFD", letter)[0]
    assert drawn(letter) != drawn(base) and drawn(letter.lower()) == drawn(letter)
    assert glyphs.undrawable(letter + letter.lower()) is None
    assert glyphs.drawn_letters(letter.lower()) == letter
    assert glyphs.text_width(letter) == glyphs.text_width(base)
    assert mark_rows(letter) == mark_rows(MARK_AS_ON[letter])
    under = Image.new("1", (8, 14), 0)  # and under its mark, the letter as ever
    glyphs.draw_text(ImageDraw.Draw(under), 0, 4, letter, 1)
    plain_letter = Image.new("1", (8, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(plain_letter), 0, 4, base, 1)
    assert under.crop((0, 4, 8, 9)).tobytes() == plain_letter.crop((0, 4, 8, 9)).tobytes() \
        or letter == "Ȩ"  # E is a row shorter over a tail, as in Ş Ę


# Vietnamese Ơ Ư (TRƯƠNG): a horn up from the right of O, and from U's right stem a
# row above the line's top. Both were drawn O and U ('TRUONG').
HORNED = {"Ơ": (".#.#|#.#.|#.#.|#.#.|.#..", 0), "Ư": ("...#|#.#.|#.#.|#.#.|#.#.|###.", 1)}


@pytest.mark.parametrize("letter", HORNED)
def test_a_horned_letter_is_drawn_with_its_horn(letter):
    rows, rise = HORNED[letter]
    assert drawn(letter) == bitmap(rows, rise) == drawn(letter.lower())
    assert glyphs.rise(letter) == rise and glyphs.hang(letter) == 0
    assert drawn(unicodedata.normalize("NFD", letter)) == drawn(letter)  # O then U+031B
    assert drawn("Trương") != drawn("Truong")
    assert glyphs.drawn_letters("Trương") == "TRƯƠNG"


# A letter with two marks the font has no drawing of together (Pinyin's tone over Ü,
# Ḗ, Ṏ): over a letter there is room for one, so it is drawn with its own (ü's dots)
# and the other is left out. It was drawn as its plain letter.
TWO_MARKS = {"Ǚ": "Ü", "Ǜ": "Ü", "Ḗ": "Ē", "Ṏ": "Õ"}


@pytest.mark.parametrize("letter", TWO_MARKS)
def test_a_letter_with_two_marks_is_drawn_with_its_own_mark(letter):
    one = TWO_MARKS[letter]
    for written in (letter, letter.lower(), unicodedata.normalize("NFD", letter.lower())):
        assert drawn(written) == drawn(one), written
        assert (glyphs.rise(written), glyphs.hang(written)) == (glyphs.rise(one), 0)
    assert drawn(letter, short=True) == drawn(one, short=True)
    assert glyphs.drawn_letters(letter) == one and glyphs.undrawable(letter) is None


# Vietnamese: a vowel takes one of five tones (acute, grave, tilde, hook above, dot
# below) and may have its own mark too (Â Ă Ê Ô Ơ Ư): ậ is a, its roof and a dot below.
# The hook above and the dot below were left out (Ạ drawn A, Ả A), and a tone over a
# letter's own mark too (Ễ drawn Ê): 'Phạm' was PHAM, 'Thủy' THUY, 'Nguyễn' NGUYÊN.
VIETNAMESE = [chr(code) for code in range(0x1EA0, 0x1EFA) if chr(code).isupper()]


def _tone_and_letter(letter: str) -> tuple[str, str]:
    """Ậ → (dot below, Â): its tone, and the letter that carries it."""
    base, *marks = unicodedata.normalize("NFD", letter)
    tone = next(mark for mark in marks if mark in "\u0301\u0300\u0303\u0309\u0323")
    return tone, unicodedata.normalize("NFC", base + "".join(m for m in marks if m != tone))


@pytest.mark.parametrize("letter", VIETNAMESE)
def test_a_vietnamese_letter_is_drawn_with_its_tone(letter):
    tone, carrier = _tone_and_letter(letter)
    siblings = [ch for ch in VIETNAMESE + list("ÁÀÃÉÈÍÌĨÓÒÕÚÙŨÝ") if ch != letter
                and _tone_and_letter(ch)[1] == carrier]
    assert drawn(letter) != drawn(carrier)
    assert all(drawn(letter) != drawn(sibling) for sibling in siblings), siblings
    for written in (letter.lower(), unicodedata.normalize("NFD", letter.lower())):
        assert drawn(written) == drawn(letter), written
    assert glyphs.undrawable(letter.lower()) is None
    # within the rows every line leaves for marks: two over it, one under it
    assert glyphs.rise(letter) <= glyphs.MARK_RISE
    assert glyphs.hang(letter) == (tone == "\u0323")


@pytest.mark.parametrize("letter", [ch for ch in VIETNAMESE if _tone_and_letter(ch)[0] == "\u0323"])
def test_a_dot_below_stays_within_the_line_on_its_last_row(letter):
    """A line with no row under it (the 128 px shared display's last row of scores)
    has no row for the dot: the letter a row shorter tells it, unlike its letter."""
    image = Image.new("1", (12, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 4, letter, 1, short=True)
    assert not image.crop((0, 9, 12, 14)).getbbox() and image.getbbox()
    assert drawn(letter, short=True) != drawn(_tone_and_letter(letter)[1], short=True)


def test_vietnamese_names_differing_in_a_tone_are_drawn_apart():
    assert drawn("Phạm") != drawn("Pham")
    assert len({drawn(name) for name in ("Thủy", "Thúy", "Thùy", "Thũy", "Thụy", "Thuy")}) == 6
    assert len({drawn(name) for name in ("Hằng", "Hạng", "Hẳng", "Hặng", "Hăng", "Hang")}) == 6
    assert drawn("Nguyễn") != drawn("Nguyên") and drawn("Trường") != drawn("Trương")
    assert glyphs.drawn_letters("Nguyễn Thị Thủy, Phạm Thị Hằng") == "NGUYỄN THỊ THỦY, PHẠM THỊ HẰNG"


def test_vietnamese_names_keep_their_letters_own_marks():
    assert glyphs.drawn_letters("Nguyễn Trường Đặng") == "NGUYỄN TRƯỜNG ĐẶNG"
    assert drawn("Trường") != drawn("Truong")


# Consonants with a dot below (Yoruba Ṣ; Arabic, Hebrew and Sanskrit names transliterated:
# Ḥasan, Ṭāriq, Ḍiyā, Ṛṣi). Ṣ Ṭ Ṇ Ḳ Ḷ were drawn as Ş Ţ Ņ Ķ Ļ, their cedilla the dot's one
# row under the line, so the config refused 'Ṣola' beside 'Şola'; Ḅ Ḍ Ḥ Ṃ Ṛ Ṿ Ẉ Ẓ were
# drawn as their plain letter ('Ḥasan' was HASAN).
DOT_BELOW = "ḄḌḤḲḶṂṆṚṢṬṾẈẒ"
HANGING = {"Ṣ": "ŞȘ", "Ṭ": "ŢȚ", "Ṇ": "Ņ", "Ḳ": "Ķ", "Ḷ": "Ļ", "Ṛ": "Ŗ", "Ḍ": "Ḑ", "Ḥ": "Ḩ"}


@pytest.mark.parametrize("letter", DOT_BELOW)
def test_a_consonant_with_a_dot_below_is_drawn_as_no_other_letter(letter):
    base = unicodedata.normalize("NFD", letter)[0]
    assert drawn(letter.lower()) == drawn(letter) == drawn(base + "\u0323")
    assert drawn(letter) != drawn(base)
    assert all(drawn(letter) != drawn(tailed) for tailed in HANGING.get(letter, ""))
    assert all(drawn(letter) != drawn(other) for other in glyphs._SMALL if other != letter)
    assert glyphs.drawn_letters(letter.lower()) == letter
    assert (glyphs.rise(letter), glyphs.hang(letter)) == (0, 1)
    assert glyphs.text_width(letter) == glyphs.text_width(base)
    # a line with no row under it: nothing under the line, and still no other letter
    image = Image.new("1", (12, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 4, letter, 1, short=True)
    assert not image.crop((0, 9, 12, 14)).getbbox(), letter
    short = drawn(letter, short=True)
    assert all(short != drawn(other, short=True) and short != drawn(other)
               for other in glyphs._SMALL if other != letter)


def test_names_with_a_dot_below_are_not_names_with_a_cedilla():
    for name, other in (("Ṣola", "Şola"), ("Ṣola", "Sola"), ("Ṭunde", "Ţunde"), ("Ḥasan", "Hasan"),
                        ("Ṇaṇa", "Ņaņa"), ("Ḳaḷa", "Ķaļa"), ("Ẓahra", "Zahra"), ("Ṛṣi", "Ŗşi")):
        assert drawn(name) != drawn(other), name
        assert glyphs.drawn_letters(name) != glyphs.drawn_letters(other), name
    assert glyphs.drawn_letters("Ṣọla Ḍaḥ") == "ṢỌLA ḌAḤ"


# Every letter with a dot below: the consonants above, the Vietnamese, Yoruba and Igbo
# vowels (Ạ Ẹ Ị Ọ Ụ Ỵ) and the Vietnamese letters with a roof, a breve or a horn as well
# (Ậ Ặ Ệ Ộ Ợ Ự). A vowel's dot hung right under its full letter, as a cedilla does, and a
# consonant's stood a row apart under a letter a row shorter: 'Ṣọla' showed two kinds of
# dot, Ẹ was drawn as Ȩ and Ụ as Cyrillic Џ, and the config refused 'Ụt' beside 'Џt'.
DOTTED = [ch for ch in glyphs._SMALL if "\u0323" in unicodedata.normalize("NFD", ch)]


def rows_of(letter: str, short: bool = False) -> list[bytes]:
    """The rows ``drawn`` puts ``letter`` in: MARK_RISE rows over the line, its 5 and one."""
    image = Image.new("1", (8, 14), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 0, 4, letter, 1, short=short)
    return [image.crop((0, y, 8, y + 1)).tobytes() for y in range(2, 4 + glyphs.SMALL_HEIGHT + 1)]


def test_every_dot_below_is_drawn_one_way():
    assert set("ẠẸỊỌỤỴẬẶỆỘỢỰṢṬḤ") <= set(DOTTED)
    blank = rows_of(" ")[0]
    for letter in DOTTED:
        rows = rows_of(letter)
        *letter_rows, last, dot = rows
        # the letter a row short (Ṭ's stem two, or it is Ţ), a blank row, then the dot:
        # one pixel, as Ṣ's
        assert (letter_rows[-1] != blank or letter == "Ṭ", last) == (True, blank), letter
        assert bin(int.from_bytes(dot, "big")).count("1") == 1, letter
        assert rows_of(letter, short=True) == [*rows[:-1], blank], letter  # no row for the dot


def test_a_dot_below_is_no_cedilla_and_no_other_letter():
    assert drawn("Ẹ") != drawn("Ȩ") and drawn("Ụ") != drawn("Џ")
    assert glyphs.drawn_letters("Ẹmeka Ụt") == "ẸMEKA ỤT" != glyphs.drawn_letters("Ȩmeka Џt")
    for letter in DOTTED:
        for short in (False, True):
            mine = drawn(letter, short=short)
            assert all(mine != drawn(other) and mine != drawn(other, short=True)
                       for other in glyphs._SMALL if other != letter), (letter, short)
    assert drawn("Ṣọla") != drawn("Şǫla") and drawn("Ẹṣọ") != drawn("Ȩşǫ")
