"""Names in Cyrillic and Greek: every display drew each of their letters as '?'.

The small font has the capitals of the Russian, Ukrainian, Belarusian, Serbian,
Bulgarian and Macedonian alphabets and of Greek; a letter drawn as a Latin one
(А, Ο) takes its glyph, and names drawn alike are then refused as one name.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/ is not a package
import goldens  # noqa: E402

from golfbox.render import glyphs  # noqa: E402
from golfbox.render.names import fit_name  # noqa: E402

CYRILLIC = "АБВГҐДЕЁЄЖЗИІЇЙЈКЛЉМНЊОПРСТЋЂУЎФХЦЧЏШЩЪЫЬЭЮЯЅЌЃ"
GREEK = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
# Letters drawn as the Latin letter they look like, and the Latin one.
LIKE_LATIN = dict(zip("АВЕКМНОРСТХЅЈІΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEKMHOPCTXSJIABEZHIKMNOPTYX"))
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def drawn(text: str, scale: int = 1) -> bytes:
    image = Image.new("1", (glyphs.text_width(text, scale) + 4, 16 * scale), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 2, 4 * scale, text, 1, scale)
    return image.tobytes()


@pytest.mark.parametrize("letter", CYRILLIC + GREEK)
def test_every_capital_has_a_glyph_and_its_small_letter_prints_as_it(letter):
    assert glyphs.has_glyph(letter) and glyphs.has_glyph(letter.lower()), letter
    assert drawn(letter) != drawn("?")
    assert drawn(letter.lower()) == drawn(letter)
    assert glyphs.undrawable(letter + letter.lower()) is None


@pytest.mark.parametrize("alphabet", (CYRILLIC, GREEK))
def test_each_letter_of_an_alphabet_is_drawn_its_own_way(alphabet):
    """No two letters of an alphabet alike, and a letter not drawn as a Latin one
    unlike every Latin capital (Ч is not 4 either)."""
    for scale in (1, 2):
        pictures = {drawn(letter, scale): letter for letter in alphabet}
        assert len(pictures) == len(alphabet)
    latin = {drawn(letter) for letter in LATIN + "0123456789"}
    for letter in alphabet:
        if letter in LIKE_LATIN:
            assert drawn(letter) == drawn(LIKE_LATIN[letter]), letter
        else:
            assert drawn(letter) not in latin, letter


def test_greek_marks_and_the_final_sigma():
    """Capitals drop the tonos (Ά is Α); the dialytika stays (Ϊ); ς is Σ."""
    for marked, plain in zip("ΆΈΉΊΌΎΏ", "ΑΕΗΙΟΥΩ"):
        assert drawn(marked) == drawn(plain) and drawn(marked.lower()) == drawn(plain)
    assert drawn("ς") == drawn("σ") == drawn("Σ")
    assert drawn("Γιώργος") == drawn("ΓΙΩΡΓΟΣ")
    assert drawn("Ϊ") == drawn("Ï") and drawn("ΐ") == drawn("Ϊ")  # ΐ in capitals is Ϊ and an acute
    assert drawn("ϋ") == drawn("Ÿ")


def test_cyrillic_marks_sit_over_their_letters():
    assert drawn("Ё") == drawn("Ë") and drawn("Ї") == drawn("Ï")
    for marked, plain in zip("ЙЎЌЃЀЍ", "ИУКГЕИ"):
        assert drawn(marked) != drawn(plain), marked
        assert glyphs.rise(marked) == glyphs.MARK_RISE
        assert glyphs.text_width(marked) == glyphs.text_width(plain)
    assert drawn("Й") != drawn("Ў") and drawn("Ѝ") != drawn("Й")
    # written with a separate mark (И then U+0306), drawn as the one letter
    assert drawn("И\u0306ошка") == drawn("Йошка")


def test_letters_with_a_tail_hang_under_the_line():
    for letter in "ДЦЩЏЂ":
        assert glyphs.hang(letter) == 1 and glyphs.rise(letter) == 0, letter
    assert glyphs.rise("Ґ") == 1


PAIRS = ("Александр", "Александра", "Владимир", "Владислав", "Κωνσταντίνος", "Κωνσταντίνα",
         "Μαρία-Ελένη", "Μαρία-Ελπίδα")


@pytest.mark.parametrize("width", range(16, 90, 3))
def test_fit_name_cuts_cyrillic_and_greek_names_told_apart(width):
    shown = [fit_name(name, width, PAIRS) for name in PAIRS]
    if glyphs.text_width("M…MM") > width:
        return
    for name, form in zip(PAIRS, shown):
        assert glyphs.text_width(form) <= width, (form, width)
        assert form == name or "…" in form, form
        head, _, tail = form.partition("…")
        assert name.startswith(head.rstrip()) and name.endswith(tail)
    assert len({glyphs.drawn_letters(form) for form in shown}) == len(PAIRS), shown


def test_fit_name_keeps_a_name_that_fits_whole():
    for name in goldens.SCRIPT_NAMES + PAIRS:
        assert fit_name(name, 200, PAIRS) == name
    assert fit_name("Александра", 36, PAIRS) == "Алекс…ра"


def test_drawn_letters_compares_glyphs_not_code_points():
    """Cyrillic 'Ока' is drawn as Latin 'OKA'; Cyrillic 'АННА' is not 'ANNA' (Н is H)."""
    assert glyphs.drawn_letters("Ока") == glyphs.drawn_letters("OKA")
    assert glyphs.drawn_letters("Όλγα") == glyphs.drawn_letters("ΟΛΓΑ")
    assert glyphs.drawn_letters("АННА") != glyphs.drawn_letters("ANNA")
    assert glyphs.drawn_letters("АННА") == glyphs.drawn_letters("AHHA")
    assert glyphs.drawn_letters("Ирина") != glyphs.drawn_letters("Ирена")


@pytest.mark.parametrize("text, char", [
    ("Иван", None), ("Γιώργος", None), ("Dvořák", None), ("Łukasz", None), ("Ñandú", None),
    ("Zoë", None), ("Zoe\u0308", None), ("Spın\u0308al", None), ("O’Brien", None),
    ("Jean\u00a0Paul", None), ("Ann?", None),
    ("Ann 🎲", "🎲"), ("李娜", "李"), ("محمد", "م"), ("\u0301Ann", "\u0301"), ("Ann\u200d", "\u200d"),
])
def test_undrawable_names_the_first_character_drawn_as_a_question_mark(text, char):
    assert glyphs.undrawable(text) == char
    if char is None:
        assert "?" not in glyphs.drawn_letters(text.replace("?", ""))


def test_what_a_phone_types_for_an_apostrophe_a_hyphen_or_a_space_is_drawn_as_it():
    """'O’Brien' (a phone's apostrophe) was drawn 'O?BRIEN', and would now be refused."""
    assert drawn("O’Brien") == drawn("O'Brien") == drawn("O‘Brien")
    assert drawn("Jean\u2013Paul") == drawn("Jean\u2010Paul") == drawn("Jean-Paul")
    assert drawn("Jean\u00a0Paul") == drawn("Jean Paul")


@pytest.mark.parametrize("name", ["O\u00b4Brien", "O`Brien", "O\u02b9Brien", "O\u2032Brien"])
def test_what_a_keyboard_types_for_an_apostrophe_is_drawn_as_it(name):
    """A keyboard whose apostrophe key types an acute accent (´, German and Polish ones),
    a grave (`) or a prime: 'O´Brien' was refused ('the displays cannot draw' it) while
    'O’Brien' was drawn O'BRIEN. Each is drawn as the apostrophe, and told apart as it."""
    from golfbox.table.settings import settings_from_config

    assert glyphs.undrawable(name) is None and drawn(name) == drawn("O'Brien")
    assert glyphs.drawn_letters(name) == "O'BRIEN"
    assert settings_from_config({"names": {"1": name}}, 3).names == {0: name}


def test_a_couple_at_one_seat_may_be_named_with_an_ampersand():
    """'Mum & Dad' at one seat: the previous main drew MUM ? DAD, and the config then
    refused it as a name the displays cannot draw."""
    from golfbox.table.settings import settings_from_config

    assert glyphs.undrawable("Mum & Dad") is None
    assert glyphs.drawn_letters("Mum & Dad") == "MUM & DAD"
    assert settings_from_config({"names": {"1": "Mum & Dad"}}, 3).names == {0: "Mum & Dad"}


def reads_as(shown: str, name: str) -> bool:
    """Could ``shown`` be read as ``name`` on a display: its drawn letters before the '…'
    begin the name's, those after it end them."""
    head, cut, tail = glyphs.drawn_letters(shown).partition("…")
    whole = glyphs.drawn_letters(name)
    return whole == head if not cut else whole.startswith(head) and whole.endswith(tail)


@pytest.mark.parametrize("table", [("Tomasz", "Томас"), ("Makarov", "Макаров"),
                                   ("Ştefania", "Ștefanie")])
def test_fit_name_tells_apart_names_whose_first_letters_are_drawn_alike(table):
    """Cyrillic 'Томас' cut to 'Том…' was drawn 'TOM…', as Latin 'Tomasz' cut short:
    fit_name compared letters, not what the display draws (Ş and Ș are drawn alike too)."""
    for width in range(glyphs.text_width("M…MM"), 60):
        for name in table:
            other = next(o for o in table if o != name)
            shown = fit_name(name, width, table)
            assert not reads_as(shown, other), (shown, other, width)


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("tailed, tailless", [("Ђорђе", "Ћорће"), ("Françoise", "Francoise")])
def test_a_name_in_the_last_row_of_scores_keeps_its_tail(players, tailed, tailless):
    """On 128 px, 7-8 players' last row of scores sits on the screen's bottom row: the
    tail that Ђ, Д, Ц, Щ, Џ and Ç hang under the line fell off the screen, and Serbian
    Ђорђе read Ћорће (another letter), Françoise Francoise. There such letters take a
    short form, the tail inside the line (tests/test_descenders.py)."""
    from golfbox.render import render_table

    view = goldens._eight_mid().view(None) if players == 8 else goldens.deal(
        "9-card", players=7).view(None)
    last = players - 1
    names = [f"P{seat + 1}" for seat in range(players)]

    def shown(name: str) -> Image.Image:
        return render_table(view, (128, 64), names[:last] + [name])

    tail = shown(tailed)
    assert tail.tobytes() != shown(tailless).tobytes()
    assert any(tail.getpixel((x, 63)) for x in range(128))  # its tail, on the last row
