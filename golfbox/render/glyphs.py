"""Bitmap glyphs: a 5-pixel text font, big rank glyphs and suit marks.

Drawn glyphs instead of a font file because Pillow's built-in font has no
◀ ▶ ● ✕ ♣ ♦ ♥ ♠, and its small sizes lose spaces when rendered in 1 bit.
Pixel glyphs stay crisp on a mono OLED and look the same everywhere.

Every glyph is turned once, at import, into a mode "1" mask that
``ImageDraw.bitmap`` stamps in C, which keeps a frame well under 2 ms.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from PIL import Image, ImageDraw

# The text font: capitals, digits, ASCII's punctuation and the button and
# suit symbols, 5 pixels tall, proportional. Lower case prints as capitals.
# (Accented, Cyrillic and Greek capitals are added below.)
_SMALL = {
    "A": ".#.|#.#|###|#.#|#.#", "B": "##.|#.#|##.|#.#|##.", "C": ".##|#..|#..|#..|.##",
    "D": "##.|#.#|#.#|#.#|##.", "E": "###|#..|##.|#..|###", "F": "###|#..|##.|#..|#..",
    "G": ".##|#..|#.#|#.#|.##", "H": "#.#|#.#|###|#.#|#.#", "I": "###|.#.|.#.|.#.|###",
    "J": "..#|..#|..#|#.#|.#.", "K": "#.#|#.#|##.|#.#|#.#", "L": "#..|#..|#..|#..|###",
    "M": "#...#|##.##|#.#.#|#...#|#...#", "N": "#..#|##.#|#.##|#..#|#..#",
    "O": ".#.|#.#|#.#|#.#|.#.", "P": "##.|#.#|##.|#..|#..", "Q": ".##.|#..#|#..#|#.#.|.#.#",
    "R": "##.|#.#|##.|#.#|#.#", "S": ".##|#..|.#.|..#|##.", "T": "###|.#.|.#.|.#.|.#.",
    "U": "#.#|#.#|#.#|#.#|###", "V": "#.#|#.#|#.#|#.#|.#.", "W": "#...#|#...#|#.#.#|##.##|#...#",
    "X": "#.#|#.#|.#.|#.#|#.#", "Y": "#.#|#.#|.#.|.#.|.#.", "Z": "###|..#|.#.|#..|###",
    # 0 leans (two corners cut): square, it was 8 but for the middle pixel, and a
    # total of 10 read 18 across the table (tests/test_glyph_legibility.py).
    "0": ".##|#.#|#.#|#.#|##.", "1": ".#.|##.|.#.|.#.|###", "2": "##.|..#|.#.|#..|###",
    "3": "##.|..#|.#.|..#|##.", "4": "#.#|#.#|###|..#|..#", "5": "###|#..|##.|..#|##.",
    "6": ".##|#..|###|#.#|###", "7": "###|..#|.#.|.#.|.#.", "8": "###|#.#|###|#.#|###",
    "9": "###|#.#|###|..#|##.",
    " ": "..|..|..|..|..", ".": ".|.|.|.|#", ",": "..|..|..|.#|#.", ":": ".|#|.|#|.",
    ";": "..|.#|..|.#|#.", "-": "...|...|###|...|...", "+": "...|.#.|###|.#.|...",
    "=": "...|###|...|###|...", "/": "..#|..#|.#.|#..|#..", "?": "##.|..#|.#.|...|.#.",
    "!": "#|#|#|.|#", "'": "#|#|.|.|.", '"': "#.#|#.#|...|...|...", "(": ".#|#.|#.|#.|.#",
    ")": "#.|.#|.#|.#|#.", "×": "...|#.#|.#.|#.#|...", "%": "#.#|..#|.#.|#..|#.#",
    "<": "..#|.#.|#..|.#.|..#", ">": "#..|.#.|..#|.#.|#..", "#": "#.#|###|#.#|###|#.#",
    "*": "#.#|.#.|#.#|...|...",  # raised: centred, it was the × of '2×3'
    "_": "...|...|...|...|###", "·": ".|.|#|.|.",
    "&": ".##..|#..#.|.##.#|#..#.|.##.#",  # 'Mum & Dad' at one seat
    # The rest of ASCII ('Bob [kid]', '@dan', 'Jo|Al', a file's 'caf\\xe9'), 5 rows as
    # the others. $ is an S five wide, its stem down the middle: three wide, it read
    # a bold S. ` is drawn as ' (_UNMARKED).
    "$": ".####|#.#..|.###.|..#.#|####.", "@": ".###.|#..##|#.#.#|#..##|.##..",
    "[": "##|#.|#.|#.|##", "]": "##|.#|.#|.#|##", "{": ".##|.#.|##.|.#.|.##",
    "}": "##.|.#.|.##|.#.|##.", "|": "#|#|#|#|#", "\\": "#..|#..|.#.|..#|..#",
    "^": ".#.|#.#|...|...|...", "~": "....|.#.#|#.#.|....|....",
    "…": "#.#.#|.....|.....|.....|#.#.#",
    "◀": "..#|.##|###|.##|..#", "▶": "#..|##.|###|##.|#..",
    "▲": "..#..|.###.|#####|.....|.....", "▼": ".....|.....|#####|.###.|..#..",
    "●": ".###.|#####|#####|#####|.###.", "✕": "#...#|.#.#.|..#..|.#.#.|#...#",
    "♣": "..#..|.###.|#.#.#|#####|..#..", "♦": "..#..|.###.|#####|.###.|..#..",
    "♥": ".#.#.|#####|#####|.###.|..#..", "♠": "..#..|.###.|#####|#####|.#.#.",
}

# Big card ranks, drawn on a 4×6 grid and doubled: 8×12 pixels, 2-pixel
# strokes, readable across a table. "1" is narrow so "10" stays compact.
_RANK = {
    "A": ".##.|#..#|#..#|####|#..#|#..#", "2": ".##.|#..#|...#|..#.|.#..|####",
    "3": "###.|...#|.##.|...#|...#|###.", "4": "#..#|#..#|#..#|####|...#|...#",
    "5": "####|#...|###.|...#|...#|###.", "6": ".##.|#...|###.|#..#|#..#|.##.",
    "7": "####|...#|..#.|.#..|.#..|.#..", "8": ".##.|#..#|.##.|#..#|#..#|.##.",
    "9": ".##.|#..#|#..#|.###|...#|.##.", "0": ".##.|#..#|#..#|#..#|#..#|.##.",
    "1": ".#|##|.#|.#|.#|.#", "J": "...#|...#|...#|#..#|#..#|.##.",
    "Q": ".##.|#..#|#..#|#..#|#.#.|.#.#", "K": "#..#|#.#.|##..|#.#.|#..#|#..#",
}

# Suits on a card face: 7×7, big enough that ♣ and ♠ differ.
_SUIT = {
    "♣": "..###..|..###..|##.#.##|#######|##.#.##|...#...|..###..",
    "♦": "...#...|..###..|.#####.|#######|.#####.|..###..|...#...",
    "♥": ".##.##.|#######|#######|#######|.#####.|..###..|...#...",
    "♠": "...#...|..###..|.#####.|#######|#######|.#.#.#.|..###..",
}

# Cyrillic capitals (Russian, Ukrainian, Belarusian, Serbian, Bulgarian, Macedonian) and
# Greek ones: Иван, Мария, Γιώργος. A letter that looks like a Latin one takes its glyph:
# names of such letters are then drawn alike, and drawn_letters says so.
_SMALL.update({cyrillic_or_greek: _SMALL[latin] for cyrillic_or_greek, latin in (
    *zip("АВЕКМНОРСТХЅЈІ", "ABEKMHOPCTXSJI"), *zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"))})
_SMALL.update({
    "Б": "###|#..|##.|#.#|##.", "Г": "###|#..|#..|#..|#..", "Ж": "#.#.#|#.#.#|.###.|#.#.#|#.#.#",
    "З": "###|..#|.##|..#|###", "И": "#..#|#..#|#.##|##.#|#..#", "Л": ".###|.#.#|.#.#|.#.#|#..#",
    "П": "###|#.#|#.#|#.#|#.#", "У": "#.#|#.#|.##|..#|##.", "Ф": ".###.|#.#.#|#.#.#|.###.|..#..",
    "Ч": "#.#|#.#|.##|..#|..#", "Ш": "#.#.#|#.#.#|#.#.#|#.#.#|#####",
    "Ъ": "##..|.#..|.##.|.#.#|.##.", "Ы": "#...#|#...#|##..#|#.#.#|##..#", "Ь": "#..|#..|##.|#.#|##.",
    "Э": "###.|...#|.###|...#|###.", "Ю": "#..#.|#.#.#|###.#|#.#.#|#..#.", "Я": ".##|#.#|.##|#.#|#.#",
    "Є": ".##|#..|##.|#..|.##", "Ћ": "###.|.#..|.##.|.#.#|.#.#",
    "Љ": ".###..|.#.#..|.#.##.|.#.#.#|#..##.", "Њ": "#.#..|#.#..|####.|#.#.#|#.##.",
    # a sixth row hangs under the line, as Ç's cedilla does
    "Д": ".###.|.#.#.|.#.#.|.#.#.|#####|#...#", "Ц": "#.#.|#.#.|#.#.|#.#.|####|...#",
    "Щ": "#.#.#.|#.#.#.|#.#.#.|#.#.#.|######|.....#", "Џ": "#.#|#.#|#.#|#.#|###|.#.",
    "Ђ": "###.|.#..|.##.|.#.#|.#.#|...#",
    # Greek (Γ Π Φ are Г П Ф)
    "Δ": "..#..|.#.#.|.#.#.|#...#|#####", "Θ": ".#.|#.#|###|#.#|.#.", "Λ": ".#.|.#.|#.#|#.#|#.#",
    "Ξ": "###|...|###|...|###", "Σ": "###|#..|.#.|#..|###", "Ψ": "#.#.#|#.#.#|.###.|..#..|..#..",
    "Ω": ".###.|#...#|#...#|.#.#.|##.##",
})
_SMALL.update({"Γ": _SMALL["Г"], "Π": _SMALL["П"], "Φ": _SMALL["Ф"]})

# Marked capitals (French, German, Nordic, Czech, Polish, Hungarian, Romanian, Turkish,
# Baltic, Portuguese: Élodie, Müller, Åsa, Dvořák, Śmigły, Kőrösi, Ștefan, Ağca): the
# plain letter at full height with a mark composed over it, or a tail hanging a row
# under it as Ç's cedilla. A mark over a letter is two rows drawn right onto it, so a
# mark is read with its own letter: a one-pixel mark with a blank row under it sat
# midway between two lines 8 rows apart and read as a cedilla of the letter above. The
# diaeresis and the macron stay over a blank row (two dots or a bar do not read as a
# cedilla). Every mark takes MARK_RISE rows. A mark is drawn its own way where one
# letter takes several (Ě Ê Ĕ, Ő Ö Ó Õ, Ź Ż); cedilla and comma below are one mark.
MARK_RISE = 2  # a mark's rows above the line's top: lines need that room
_ABOVE = {  # by the width of the letter under it
    3: {"\u0301": "..#|.#.",  # acute, a stroke leaning right
        "\u0300": "#..|.#.",  # grave, leaning left
        "\u0302": ".#.|#.#",  # circumflex, a roof
        "\u030c": "#.#|.#.",  # caron, a V
        "\u0306": "#.#|##.",  # breve, horns over a foot two wide (a caron is a V)
        "\u030a": ".#.|#.#",  # ring: a roof closed by the point of A (Â is flat) or Ů
        "\u0308": "#.#|...",  # diaeresis
        "\u0304": "###|...",  # macron
        "\u0307": ".#.|.#.",  # dot
        "\u030b": ".##|##.",  # double acute, an acute twice as thick
        "\u0303": "##.|.##",  # tilde
        # Vietnamese hook above: up, then bent right (an acute is a slant; the top of a
        # "?", "##.|..#", curls back, and over Y or U read as one)
        "\u0309": ".##|.#."},
    4: {"\u0301": "..#.|.#..", "\u0300": ".#..|..#.", "\u030c": "#..#|.##.",
        "\u0306": "#..#|.##.", "\u0303": ".#.#|#.#."},  # Ń Ň Ñ, and И's Й Ѝ
    5: {"\u0302": "..#..|.#.#."},  # Welsh Ŵ
}
# cedilla, comma, ogonek; and the dot below, which stands apart from its letter (_DOT_APART)
_BELOW = {3: {"\u0327": ".#.", "\u0326": ".#.", "\u0328": "..#", "\u0323": ".#."},
          4: {"\u0327": ".#..", "\u0326": ".#..", "\u0328": "...#", "\u0323": ".#.."},
          5: {"\u0323": "..#.."}}
# A letter drawn otherwise with a mark: A and O flat on top under a roof, or the roof
# would meet their point; U's top row the ring's foot, or ring and U would run into one
# tall O; T's stem a row short over a tail, or it would only lengthen it.
_UNDER_MARK = {("A", "\u0302"): "###|#.#|###|#.#|#.#", ("O", "\u0302"): "###|#.#|#.#|#.#|###",
               ("U", "\u030a"): ".#.|#.#|#.#|#.#|###",
               ("T", "\u0327"): "###|.#.|.#.|.#.|...", ("T", "\u0326"): "###|.#.|.#.|.#.|..."}
# Letters whose tail hangs, a row shorter: their short form (_SHORT) keeps the tail
# within the line. R is not one (its 4-row form alone read B): Ŗ is written out below.
_FOUR_ROWS = {
    "A": ".#.|#.#|###|#.#", "C": ".##|#..|#..|.##", "E": "###|##.|#..|###", "G": ".##|#..|#.#|.##",
    "I": "###|.#.|.#.|###", "K": "#.#|##.|#.#|#.#", "L": "#..|#..|#..|###", "N": "#..#|##.#|#.##|#..#",
    "S": ".##|#..|..#|##.", "T": "###|.#.|.#.|...", "U": "#.#|#.#|#.#|###",
    "O": ".#.|#.#|#.#|.#.",
    # Vietnamese letters with their own mark over a dot below (Ậ Ộ Ợ Ự): A and O flat
    # under the roof, as _UNDER_MARK draws them
    "Â": "###|#.#|###|#.#", "Ă": ".#.|#.#|###|#.#", "Ê": "###|##.|#..|###",
    "Ô": "###|#.#|#.#|###", "Ơ": ".#.#|#.#.|#.#.|.#..", "Ư": "#.#.|#.#.|#.#.|###.",
}
# A letter with a dot below (Yoruba Ṣ Ẹ Ọ, Igbo Ị Ụ, Vietnamese Ạ Ỵ; Ḥ Ṭ Ḍ Ṛ of
# transliterated Arabic and Sanskrit names): the letter a row short, a blank row, the
# dot. Hung from the whole letter as a cedilla, Ṣ Ṭ Ṇ Ḳ Ḷ were Ş Ţ Ņ Ķ Ļ ('Ṣola' could
# not sit beside 'Şola'), Ẹ was Ȩ and Ụ Cyrillic Џ, and 'Ṣọla' showed two kinds of dot.
# T is two rows short: a row short it is Ţ, whose stem stops over its cedilla.
_DOT_APART = {**{letter: _FOUR_ROWS[letter] for letter in "KLNSTAEIOU"}, "Y": "#.#|#.#|.#.|.#.",
              "B": "##.|##.|#.#|##.", "D": "##.|#.#|#.#|##.", "H": "#.#|#.#|###|#.#",
              "M": "#...#|##.##|#.#.#|#...#", "R": "##.|#.#|##.|#.#", "V": "#.#|#.#|#.#|.#.",
              "W": "#...#|#.#.#|##.##|#...#", "Z": "###|..#|.#.|###"}
# The marked Latin capitals, then the Cyrillic and Greek ones (a Greek tonos is dropped,
# as capitals drop it: Ά is Α): Latin first, the letter drawn_letters writes for both.
# Latin Extended-B and Additional too: Ǎ Ǒ Ǧ Ǩ (caron), Ǵ Ǹ, Ȧ Ȳ, Ẽ Ỹ Ỳ.
_MARKED = [*map(chr, [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]), *"ЁЇЙЎЌЃЀЍΪΫ"]
_RISE: dict[str, int] = {}
_SHORT_TAILED: dict[str, str] = {}
for _letter in _MARKED:
    _base, *_mark = unicodedata.normalize("NFD", _letter)
    if not _letter.isupper() or len(_mark) != 1 or _base not in _SMALL:
        continue
    _mark = _mark[0]
    _rows = _UNDER_MARK.get((_base, _mark), _SMALL[_base])
    _width = len(_rows.split("|")[0])
    if _mark == "\u0323" and _base in _DOT_APART:
        _apart = f"{_DOT_APART[_base]}|{'.' * _width}"
        _SMALL[_letter] = f"{_apart}|{_BELOW[_width][_mark]}"
        _SHORT_TAILED[_letter] = _apart  # no row for the dot: the letter a row short tells it
    elif _mark in _ABOVE.get(_width, {}):
        _SMALL[_letter] = f"{_ABOVE[_width][_mark]}|{_rows}"
        _RISE[_letter] = MARK_RISE
    elif _mark in _BELOW.get(_width, {}) and _base in _FOUR_ROWS:
        _SMALL[_letter] = f"{_rows}|{_BELOW[_width][_mark]}"
        _SHORT_TAILED[_letter] = f"{_FOUR_ROWS[_base]}|{_BELOW[_width][_mark]}"
# Letters with a stroke, which Unicode does not split into a letter and a mark
# (Icelandic Ð is drawn as Đ), and the capital sharp s (ß is SS in capitals).
_SMALL.update({"Ł": ".#..|.##.|.#..|##..|.###", "Đ": ".##.|.#.#|##.#|.#.#|.##.",
               "Ð": ".##.|.#.#|##.#|.#.#|.##.", "ẞ": "###.|#..#|#.#.|#..#|#.##",
               # Maltese Ħ, its bar out over a thick crossbar; Sámi Ŧ; Catalan Ŀ, the dot
               # of L·L; Icelandic Þ, a stem through a bowl; Sámi Ŋ, N with a hook
               "Ħ": ".#.#.|#####|.###.|.#.#.|.#.#.", "Ŧ": "###|.#.|###|.#.|.#.",
               "Ŀ": "#..|#..|#.#|#..|###", "Þ": "#..|##.|#.#|##.|#..",
               "Ŋ": "#..#|##.#|#.##|#..#|#..#|..#.",
               # Ŗ: R and the cedilla (_BELOW); Vietnamese Ơ Ư: a horn up from the
               # right of O, and from U's right stem a row above the line (_RISE)
               "Ŗ": "##.|#.#|##.|#.#|#.#|.#.", "Ơ": ".#.#|#.#.|#.#.|#.#.|.#..",
               "Ư": "...#|#.#.|#.#.|#.#.|#.#.|###."})
_SMALL.update({"Æ": ".####|#.#..|#####|#.#..|#.###", "Œ": ".####|#.#..|#.###|#.#..|.####",
               "Ø": ".###|#.##|##.#|##.#|###."})
# rows a glyph starts above the line's top
_SMALL["Ґ"] = "..#|" + _SMALL["Г"]  # Г with its stroke turned up, a row above the line
_RISE["Ґ"] = _RISE["Ư"] = 1
# Vietnamese letters with two marks: a tone over a letter's own mark (Ấ Ở) or a dot below
# it (Ậ Ợ). The tone stands beside a roof or a breve, its rows being the two over the
# line (the order VIQR writes them in: Nguye^~n), and over Ơ Ư, whose horn is beside
# the letter: Ư's then starts from the stem's top, not a row above it under the tone.
# A dot below stands apart as under Ọ, its letter a row short (_FOUR_ROWS).
_UNDER_TONE = {"Ư": "#.##|#.#.|#.#.|#.#.|###."}
for _letter in _MARKED:
    _base, *_marks = unicodedata.normalize("NFD", _letter)
    if not _letter.isupper() or len(_marks) != 2 or _letter in _SMALL:
        continue
    _dot = "\u0323" in _marks
    _mark, _tone = _marks[_marks[0] == "\u0323"], _marks[1]
    _own = unicodedata.normalize("NFC", _base + _mark)
    if _mark not in "\u0302\u0306\u031b" or _own not in (_FOUR_ROWS if _dot else _SMALL) \
            or not (_dot or _tone in _ABOVE[3]):  # Pinyin Ǚ, Ḗ: their own mark alone (_plain)
        continue
    _rows, _rise = _SMALL[_own].split("|"), _RISE.get(_own, 0)
    if _dot:
        _apart = "|".join([*_rows[:_rise], _FOUR_ROWS[_own], "." * len(_rows[0])])
        _SMALL[_letter] = _apart + "|" + _BELOW[3]["\u0323"].ljust(len(_rows[0]), ".")
        _SHORT_TAILED[_letter] = _apart
    elif _rise < MARK_RISE:  # Ơ Ư: the tone over the letter
        _body = _UNDER_TONE.get(_own, _SMALL[_own]).split("|")[-5:]
        _cap = [row.ljust(len(_body[0]), ".") for row in _ABOVE[3][_tone].split("|")]
        _SMALL[_letter] = "|".join([*_cap, *_body])
    else:  # Â Ă Ê Ô: the tone beside the letter's own mark, a column apart where they would meet
        _tone_rows = _ABOVE[3][_tone].split("|")
        _gap = "." * any(_rows[y][-1] == "#" == _tone_rows[y][0] for y in (0, 1))  # Ằ, not Ẳ
        _cap = [_rows[y] + _gap + _tone_rows[y] for y in (0, 1)]
        _SMALL[_letter] = "|".join(_cap + [row.ljust(len(_cap[0]), ".") for row in _rows[2:]])
    _RISE[_letter] = max(_rise, 0 if _dot else MARK_RISE)

SMALL_HEIGHT = 5
RANK_SCALE = 2
RANK_HEIGHT = 6 * RANK_SCALE  # 12 px: the smallest rank anyone reads at arm's length
SUIT_SIZE = 7


def _mask(rows: str, scale: int) -> Image.Image:
    """A glyph drawn as '#'/'.' rows joined by '|' → a mode "1" mask, scaled up."""
    lines = rows.split("|")
    image = Image.new("1", (len(lines[0]), len(lines)), 0)
    image.putdata([1 if ch == "#" else 0 for line in lines for ch in line])
    if scale != 1:
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    return image


_SMALL_MASKS = {scale: {ch: _mask(rows, scale) for ch, rows in _SMALL.items()} for scale in (1, 2)}
# The letters that hang, as a line with no row under it draws them (the 128 px shared
# display's last row of scores): the tail kept within the line, the letter a row
# shorter above it. Without its tail Ђ read Ћ, Щ Ш, Ц U, Ç C (tests: each still
# differs from every other glyph).
_SHORT = {
    "Д": ".###.|.#.#.|.#.#.|#####|#...#", "Ц": "#.#.|#.#.|#.#.|####|...#",
    "Щ": "#.#.#.|#.#.#.|#.#.#.|######|.....#", "Џ": "#.#|#.#|#.#|###|.#.",
    "Ђ": "###.|.##.|.#.#|.#.#|..#.", "Ŋ": "#..#|##.#|#.##|#..#|..#.",
    "Ŗ": "##.|#.#|##.|#.#|.#.", **_SHORT_TAILED,  # Ç Ş Ą...: a 4-row letter, its tail
}
_SHORT_MASKS = {scale: {ch: _mask(rows, scale) for ch, rows in _SHORT.items()} for scale in (1, 2)}
_RANK_MASKS = {ch: _mask(rows, RANK_SCALE) for ch, rows in _RANK.items()}
_SUIT_MASKS = {ch: _mask(rows, 1) for ch, rows in _SUIT.items()}
_UNKNOWN = "?"
# Each glyph's first letter, Latin before Cyrillic and Greek: the one drawn_letters writes.
_FIRST_DRAWN: dict[tuple[str, int], str] = {}
_SCRIPTS = ("CYRIL", "GREEK")  # how their letters' names begin
_DRAWN_AS = {char: _FIRST_DRAWN.setdefault((_SMALL[char], _RISE.get(char, 0)), char)
             for char in sorted(_SMALL, key=lambda ch: unicodedata.name(ch, "")[:5] in _SCRIPTS)}


def _plain(char: str) -> str:
    """A letter the font has no glyph for, as the nearest one it has, else '?': with two
    marks, the letter with the first mark it draws (there is room for one: Pinyin Ǚ as
    Ü, Ḗ as Ē; Vietnamese letters have their own glyphs), else its plain letter (Ḥ as
    H)."""
    base, *marks = unicodedata.normalize("NFD", char)
    base = _UNMARKED.get(base, base)
    for mark in marks:  # NFD puts the letter's own mark (ê's roof, ơ's horn) before the tone
        marked = unicodedata.normalize("NFC", base + mark)
        if marked in _SMALL:
            return marked
    return base if base in _SMALL else _UNKNOWN


_UNMARKED = {"ʼ": "'",  # a letter with a hook, which Unicode does not split
             # and what a phone or a word processor types for ' - and a space (O’Brien),
             # or a keyboard whose apostrophe key types an accent or a prime (O´Brien)
             "’": "'", "‘": "'", "´": "'", "`": "'", "ʹ": "'", "′": "'",
             "‐": "-", "‑": "-", "–": "-", "\u00a0": " "}


def _letters(text: str) -> str:
    """``text`` in capitals, each mark joined to its letter: a name may come with its
    marks as characters of their own ('u' then U+0308, as macOS writes them). A mark
    no capital holds (ΐ is Ϊ and an acute) is left out, as _plain leaves out Ḥ's. Dutch
    Ĳ is its two letters, as ß is SS ('Ĳsbrand' drawn as J alone read JSBRAND)."""
    if text.isascii():
        return text.upper()
    letters = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).upper())
    letters = letters.replace("Ĳ", "IJ")
    return "".join(ch for i, ch in enumerate(letters) if not (i and unicodedata.combining(ch)))


def _drawn(char: str) -> str:
    """The glyph drawn for a capital: its own, else _plain's."""
    return char if char in _SMALL else _plain(char)


def _glyphs(text: str, scale: int) -> list[Image.Image]:
    masks = _SMALL_MASKS[scale]
    return [masks[_drawn(ch)] for ch in _letters(text)]


@functools.lru_cache(maxsize=4096)  # fit_name asks again of each name cut, frame after frame
def drawn_letters(text: str) -> str:
    """``text`` as the small font draws it, a letter for each glyph: in capitals, a letter
    it has no glyph for as its plain letter ('Ḥasan' → 'HASAN'), a Cyrillic or Greek
    letter drawn as a Latin one as that one (Cyrillic 'Ока' → Latin 'OKA'), a letter drawn
    as another as that one (Romanian Ș → Turkish Ş, comma and cedilla alike). A character it
    cannot draw at all stays itself: two names both drawn '????' are still two names."""
    def drawn_as(ch: str) -> str:
        plain = _drawn(ch)
        return ch if plain == _UNKNOWN != ch else _DRAWN_AS[plain]

    return "".join(drawn_as(ch) for ch in _letters(text))


def undrawable(text: str) -> str | None:
    """The first character of ``text`` the small font draws as '?' (an emoji, a Chinese
    or an Arabic letter), lower case as written; None if it draws every one. A mark
    after a letter is drawn with it, or left out (_letters)."""
    text = unicodedata.normalize("NFC", text)
    for i, char in enumerate(text):
        if i and unicodedata.combining(char):
            continue
        if not all(ch in _SMALL or _plain(ch) != _UNKNOWN for ch in _letters(char)):
            return char
    return None


def has_glyph(char: str) -> bool:
    """Does the small font draw ``char`` with a glyph of its own (lower case as capitals)?"""
    return char.upper() in _SMALL


def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` in the small font (1-pixel gaps, times ``scale``)."""
    glyphs = _glyphs(text, scale)
    if not glyphs:
        return 0
    return sum(g.width for g in glyphs) + scale * (len(glyphs) - 1)


def rise(text: str, scale: int = 1) -> int:
    """Rows ``text``'s accents reach above its top (times ``scale``): 0 if it has none."""
    return max((_RISE.get(_drawn(char), 0) for char in _letters(text)), default=0) * scale


def hang(text: str, scale: int = 1) -> int:
    """Rows ``text``'s ink hangs below its letters (a cedilla's, times ``scale``)."""
    return max((glyph.height - rise(char, scale) - SMALL_HEIGHT * scale
                for char, glyph in zip(_letters(text), _glyphs(text, scale))), default=0)


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: int,
              scale: int = 1, short: bool = False) -> int:
    """Stamp ``text`` with its top-left at (x, y); returns the x after it.
    Accents rise MARK_RISE rows above y (times ``scale``); a cedilla hangs below, or
    if ``short`` (no row under the line) stays within it, its letter a row shorter."""
    masks, shorts = _SMALL_MASKS[scale], _SHORT_MASKS[scale] if short else {}
    for char in map(_drawn, _letters(text)):
        glyph = shorts.get(char) or masks[char]
        draw.bitmap((x, y - _RISE.get(char, 0) * scale), glyph, fill=fill)
        x += glyph.width + scale
    return x


def first_that_fits(forms: Sequence[str], width: int, fallback: str) -> str:
    """The first of ``forms`` no wider than ``width`` pixels, else ``fallback`` (a
    shorter form, or a number alone: fewer words beat words cut)."""
    return next((words for words in forms if text_width(words) <= width), fallback)


def fit_text(text: str, width: int, scale: int = 1) -> str:
    """``text`` cut short with '…' so that it fits in ``width`` pixels."""
    if text_width(text, scale) <= width:
        return text
    while text and text_width(text + "…", scale) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(text: str, width: int, lines: int, scale: int = 1, sep: str = " ",
              whole_parts: bool = False) -> list[str]:
    """Break ``text`` into at most ``lines`` lines of ``width`` pixels, only between its
    ``sep``-separated parts: words (" "), a list's items (", ": a name such as "P2 (HARD)"
    stays whole) or a message's parts (" · ": "● next setting", "a bot plays in 120 s").
    A line broken between parts keeps the separator's mark ("," or "·"); the last part,
    which has no mark after it, is measured without one, and a part that fills a line
    by itself stays whole without it. A part wider than a line is broken at its spaces,
    unless ``whole_parts`` (then it is cut short). Text that does not fit in ``lines``
    ends in '…'."""
    tail = sep.rstrip()  # what ends a line broken after a part: "", "," or " ·"
    pieces: list[tuple[str, str]] = []  # (what joins it to the piece before, its words)
    parts = text.split() if sep == " " else text.split(sep)
    for n, part in enumerate(parts):
        words = [part] if whole_parts or text_width(part, scale) <= width else part.split()
        pieces += [(sep if pieces and i == 0 else " ", word) for i, word in enumerate(words)]
    out: list[str] = []
    while pieces and len(out) < lines:
        line = pieces.pop(0)[1]
        while pieces:
            joiner, word = pieces[0]
            ends_part = len(pieces) > 1 and pieces[1][0] == sep  # a break after it keeps the mark
            if text_width(line + joiner + word + (tail if ends_part else ""), scale) > width:
                break
            line += joiner + word
            pieces.pop(0)
        breaks_part = pieces and pieces[0][0] == sep
        out.append(line + tail if breaks_part and text_width(line + tail, scale) <= width else line)
    if pieces and out:  # too long: the last line says so
        rest = "".join(joiner + word for joiner, word in pieces)
        out[-1] = fit_text(out[-1].removesuffix(tail) + rest, width, scale)
    return [fit_text(line, width, scale) for line in out]


def rank_masks(rank_text: str) -> list[Image.Image]:
    """The big glyphs of a rank ("10", "Q", "JK")."""
    return [_RANK_MASKS[ch] for ch in rank_text]


def rank_width(rank_text: str) -> int:
    masks = rank_masks(rank_text)
    return sum(m.width for m in masks) + RANK_SCALE * (len(masks) - 1)


def draw_rank(draw: ImageDraw.ImageDraw, x: int, y: int, rank_text: str, fill: int) -> None:
    for mask in rank_masks(rank_text):
        draw.bitmap((x, y), mask, fill=fill)
        x += mask.width + RANK_SCALE


def suit_mask(symbol: str) -> Image.Image:
    """The 7×7 suit drawn on a card face."""
    return _SUIT_MASKS[symbol]
