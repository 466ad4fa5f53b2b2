"""French on every display: the catalogue is whole, the font draws it, the table speaks it.

The catalogue (golfbox.render.words) is keyed by the English text. These tests
find every ``say(lang, "…")`` in the code, and every text looked up from a
table of words (variants, house rules, bots, verbs), and check each has its
French, with the same {fields}, in letters the small font draws.
"""

from __future__ import annotations

import ast
import string
import unicodedata
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from golfbox.bots import BOTS
from golfbox.configfile import ConfigError
from golfbox.engine import VARIANTS
from golfbox.hal.base import Button
from golfbox.render import glyphs, render_seat
from golfbox.render import rules as rules_render
from golfbox.render import seat as seat_render
from golfbox.render import table as table_render
from golfbox.render.words import FRENCH, LANGUAGES, say
from golfbox.table.input import KNOCK_QUESTION, VERB_OF_KIND
from golfbox.table.lobby import Lobby, rule_words
from golfbox.table.settings import TableSettings, settings_from_config

from test_wording import shows

import goldens

PACKAGE = Path(__file__).resolve().parents[1] / "golfbox"


def said_in_code() -> dict[str, str]:
    """Every literal text passed to say(lang, "…") in the package -> where it is; and to
    name_words(lang, "…", who, …), which says it with a long name cut."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("say", "name_words")
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                found[node.args[1].value] = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
    return found


def looked_up() -> set[str]:
    """Texts said from a table of words rather than written at the call."""
    texts = set(VARIANTS) | set(BOTS) | set(VERB_OF_KIND.values())
    texts |= set(seat_render._ACTION_WORDS.values()) | {KNOCK_QUESTION, rules_render.FOOTER}
    texts |= set(table_render.ENDED_WORDS.values()) | set(table_render.REVEAL_TOTAL_FORMS)
    texts |= {"paused", "stopped by an error: restarting"}  # TableService.close's messages
    for variant in VARIANTS.values():
        for spec in variant.rule_specs:
            texts.add(spec.name.replace("_", " "))
            texts |= {spec.describe(v) for v in spec.choices() if not str(spec.describe(v)).lstrip("-").isdigit()}
    return texts


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_code_that_speaks():
    said = said_in_code()
    assert "wait: {who} is playing" in said and "{who} knocked" in said and len(said) > 100


def test_every_text_of_the_displays_has_its_french_with_the_same_fields():
    needed = {**{text: where for text, where in said_in_code().items()},
              **{text: "a table of words" for text in looked_up()}}
    missing = sorted(f"{where}: {text!r}" for text, where in needed.items() if text not in FRENCH)
    assert not missing, "no French for:\n" + "\n".join(missing)
    for text in needed:
        assert fields(FRENCH[text]) == fields(text), (text, FRENCH[text])


def test_the_catalogue_holds_nothing_the_code_no_longer_says():
    stale = set(FRENCH) - set(said_in_code()) - looked_up() - {"{label}: {value}"}
    assert not stale, sorted(stale)


def test_the_small_font_draws_every_french_letter():
    for text in FRENCH.values():
        letters = "".join(part for part, _, _, _ in string.Formatter().parse(text))
        undrawn = {ch for ch in letters if not glyphs.has_glyph(ch)}
        assert not undrawn, (text, undrawn)


@pytest.mark.parametrize("accented, plain", [
    ("É", "E"), ("È", "E"), ("Ê", "E"), ("Ë", "E"), ("À", "A"), ("Â", "A"), ("Ô", "O"),
    ("Î", "I"), ("Ï", "I"), ("Ù", "U"), ("Û", "U"), ("Ç", "C"),
])
def test_an_accented_capital_is_its_letter_at_full_size_with_a_mark(accented, plain):
    def drawn(text: str) -> Image.Image:
        image = Image.new("1", (8, 10), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 1, 3, text, 1)
        return image

    mine, base = drawn(accented), drawn(plain)
    assert glyphs.text_width(accented) == glyphs.text_width(plain)
    assert glyphs.text_width(accented.lower()) == glyphs.text_width(plain)  # é prints as É
    # The letter's own five rows are the plain letter's, the same size as the rest; under
    # a circumflex A and O are square (the roof would meet their point).
    letter = mine.crop((0, 3, 8, 8))
    if accented in "ÂÔ":
        assert letter.crop((0, 1, 8, 4)).tobytes() == base.crop((0, 4, 8, 7)).tobytes()
        assert [letter.getpixel((x, 0)) for x in range(1, 4)] == [1, 1, 1]
    else:
        assert letter.tobytes() == base.crop((0, 3, 8, 8)).tobytes()
    extra = [(x, y) for y in range(10) for x in range(8)
             if mine.getpixel((x, y)) and not base.getpixel((x, y)) and not 3 <= y < 8]
    assert extra, "no mark"
    if accented == "Ç":  # the cedilla hangs under the letter
        assert {y for _, y in extra} == {8}
    elif accented in "ËÏ":  # two dots two rows above the line's top, a blank row between
        assert {y for _, y in extra} == {3 - glyphs.MARK_RISE}
    else:  # a stroke or a roof from MARK_RISE rows above down onto the letter
        assert {y for _, y in extra} == set(range(3 - glyphs.MARK_RISE, 3))


# Letters of Latin-1 and Latin Extended-A a family's names hold (Müller, Núñez, Bjørn,
# Łukasz, Dvořák): the font drew every one it lacked as '?' ("M?LLER").
NAME_LETTERS = "".join(chr(c) for c in range(0xC0, 0x180)
                       if unicodedata.category(chr(c)) in ("Lu", "Ll") and chr(c) not in "ŉĸ")


@pytest.mark.parametrize("letter", NAME_LETTERS)
def test_a_letter_of_a_name_is_drawn_as_itself_or_its_plain_letter_never_as_a_question_mark(letter):
    def drawn(text: str) -> bytes:
        image = Image.new("1", (30, 12), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 1, 3, text, 1)
        return image.tobytes()

    assert drawn(letter) != drawn("?")
    base = "".join(unicodedata.normalize("NFD", ch)[0] for ch in letter.upper())  # ß: SS
    if glyphs.has_glyph(letter):
        return
    # Without a glyph of its own, a marked letter is drawn as its plain letter.
    assert drawn(letter) == drawn(base), letter


def test_german_spanish_and_nordic_capitals_have_their_own_marks():
    def drawn(text: str) -> bytes:
        image = Image.new("1", (30, 12), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 1, 3, text, 1)
        return image.tobytes()

    for letter in "ÄÖÜÁÍÓÚÑÆŒØ":
        assert glyphs.has_glyph(letter), letter
    for letter, plain in zip("ÄÖÜÁÍÓÚÑØ", "AOUAIOUNO"):
        assert drawn(letter) != drawn(plain), letter
    assert glyphs.text_width("Ñ") == glyphs.text_width("N")


@pytest.mark.parametrize("name", ("Müller", "Núñez", "Dvořák", "Zoë", "François"))
def test_a_name_written_with_separate_marks_is_drawn_as_its_letters(name):
    """A name may come with its marks as characters of their own ('u' then U+0308, as
    macOS writes them): each mark was drawn as a '?' after its letter ('MU?LLER'), and
    the reveal's ink measured by rise() and hang() missed its accents."""
    def drawn(text: str) -> bytes:
        image = Image.new("1", (60, 14), 0)
        glyphs.draw_text(ImageDraw.Draw(image), 1, 4, text, 1)
        return image.tobytes()

    apart = unicodedata.normalize("NFD", name)
    assert apart != name
    assert drawn(apart) == drawn(name)
    assert glyphs.text_width(apart) == glyphs.text_width(name)
    assert (glyphs.rise(apart), glyphs.hang(apart)) == (glyphs.rise(name), glyphs.hang(name))



# Everything a seat is told on the bar at its screen's bottom, in French: one line each
# (two lines there stand only 6 rows apart, too close for accents).
SEAT_MESSAGES = [
    "✕ back to the game", "a bot plays this seat", "not in this match: join when it ends",
    "hint: thinking…", "● shows the result", "● deals the next round", "not allowed now",
    "not saved, not played: try again", "press ● to join first",
]


@pytest.mark.parametrize("french", [say("fr", text) for text in SEAT_MESSAGES]
                         + [say("fr", "hint: {verb}", verb=say("fr", verb)) for verb in VERB_OF_KIND.values()])
def test_every_message_a_seat_gets_fits_one_line_in_french(french):
    assert glyphs.text_width(french) <= seat_render.SIZE[0] - 4, french


def test_every_english_golden_has_a_french_one_that_differs():
    screens = set(goldens.all_screens()) - set(goldens.WORDLESS)
    english = {name for name in screens if not name.endswith("_fr")}
    assert {name + "_fr" for name in english} == set(screens) - english
    for name in sorted(english):
        assert goldens.golden_path(name + "_fr").read_bytes() != goldens.golden_path(name).read_bytes(), \
            f"{name}: the French golden is the English one"


# ------------------------------------------------------------------ the table speaks it


def test_config_language_is_checked_by_name():
    assert settings_from_config({"language": "fr"}, 4).language == "fr"
    assert settings_from_config({}, 4).language == "en"
    with pytest.raises(ConfigError, match=r"game\.language: 'de' is not one of en, fr"):
        settings_from_config({"language": "de"}, 4)


def test_the_lobby_switches_language_at_once_and_names_seats_in_it():
    lobby = Lobby(TableSettings(seats=3, bots={2: "hard"}))
    lobby.press(0, Button.OK, None)
    while lobby.selected.key != "language":
        lobby.press(0, Button.OK, None)
    assert str(lobby.selected) == "language: english"
    lobby.press(0, Button.RIGHT, None)
    assert lobby.language == "fr" and str(lobby.selected) == "langue : français"
    assert [str(line) for line in lobby.lines()][:3] == [
        "jeu : 6 cartes", "1 place : reste vide", "manches : 9"]
    assert [p.name for p in lobby.players()] == ["J1", "J3 (FORT)"]
    assert lobby.prompt(0) == "◀▶ changer · ● suivant · garder ● lancer · ✕ partir"
    assert rule_words("final_turn", "fr") == "dernier tour"


def test_a_french_table_says_everything_in_french(sim_table):
    table = sim_table(variant="6-card", seats=2, bots={1: "hard"}, seed=3, language="fr")
    assert shows(table.shared.image, "golfbox : ● pour jouer")
    table.press(0, Button.OK)
    table.hold(0, Button.OK)  # deal
    assert shows(table.shared.image, "à vos cartes", 2)
    assert shows(table.displays[0].image, "RETOURNE 2")
    # What the seat shows is exactly the French render of its view.
    session = table.service.session
    view = session.match.view(0)
    expected = render_seat(view, cursor=table.service.inputs[0].cursor,
                           prompt=table.service.inputs[0].prompt_in("fr"), label="J1",
                           names=session.names(), lang="fr")
    assert table.displays[0].image.tobytes() == expected.tobytes()
    assert session.names() == ["J1", "J2 (FORT)"]


def test_a_resumed_match_speaks_the_language_it_was_started_in(sim_table):
    first = sim_table(variant="6-card", seats=2, bots={1: "hard"}, seed=3)
    first.press(0, Button.OK)
    while first.service.lobby.selected.key != "language":
        first.press(0, Button.OK)
    first.press(0, Button.RIGHT)  # français, in the lobby: not in the config
    first.hold(0, Button.OK)
    first.press(0, Button.OK)  # turns up a card
    assert first.service.session.match_config["language"] == "fr"
    again = sim_table(variant="6-card", seats=2, bots={1: "hard"}, seed=3)  # the config says en
    assert again.service.session.language == "fr" and again.service.lobby.language == "fr"
    assert shows(again.displays[0].image, "RETOURNE 1")


def test_the_languages_are_named_in_their_own_words():
    assert LANGUAGES == {"en": "english", "fr": "français"}


def test_sim_lang_chooses_the_displays_language_and_refuses_others():
    import argparse

    from golfbox.commands import UsageError
    from golfbox.commands.sim import table_settings

    def settings(lang):
        return table_settings(argparse.Namespace(lang=lang), humans=1, bot_delay=0, auto_start=True)

    assert settings("fr").language == "fr" and settings("en").language == "en"
    with pytest.raises(UsageError, match="--lang de: one of en, fr"):
        settings("de")


def test_an_accent_on_a_french_rules_page_reaches_down_to_its_own_letter():
    """Rules pages have lines 8 rows apart: a one-pixel accent with a blank row under it
    sat midway between two lines and read as a cedilla of the letter above it (the É of
    'ÉCHANGE' under the C of 'CARTES' read 'ÇARTES'). Every mark on a page now reaches
    the row right over its letter."""
    from golfbox.engine import make_rules

    marks = 0
    for variant in VARIANTS.values():
        pages = rules_render.rules_pages(variant, make_rules(variant, {}), "fr")
        for page in range(len(pages)):
            image = rules_render.render_rules((128, 64), pages, page, lang="fr")
            for line in range(1, rules_render.BODY_LINES):
                y = 12 + 8 * line  # the line's top; its marks are the two rows over it
                for x in range(128):
                    if image.getpixel((x, y - 2)):
                        marks += 1
                        assert any(image.getpixel((x + dx, y - 1)) for dx in (-1, 0, 1)
                                   if 0 <= x + dx < 128), (variant.name, page, line, x)
    assert marks > 20


def test_a_french_verb_after_several_names_is_plural():
    """'attends : Anne, Benoît commence' put a singular verb after several names: a seat
    waiting for several at the start reads 'commencent', for one 'commence'."""
    import goldens

    from golfbox.render.names import wait_words

    round_ = goldens.deal("6-card", players=3)
    while 0 in round_.acting_seats:  # seat 1 does its start; seats 2 and 3 have not
        round_.apply(0, round_.legal_actions(0)[0])
    french = ["Anne", "Benoît", "Cléo"]
    assert wait_words(round_.view(0), french, "fr") == "attends : Benoît, Cléo commencent"
    assert wait_words(round_.view(0), ["Ann", "Bob", "Cleo"], "en") == "wait: Bob, Cleo still starting"
    while 1 in round_.acting_seats:
        round_.apply(1, round_.legal_actions(1)[0])
    assert wait_words(round_.view(0), ["Anne", "Benoît", "Cléo"], "fr") == "attends : Cléo commence"
