"""The rules on the table: pages that fit, follow the house rules, and are paged with ◀ ▶ ✕."""

from __future__ import annotations

import itertools
import re

import pytest

from golfbox.engine import VARIANTS, make_rules
from golfbox.hal.base import Button
from golfbox.render.rules import page_fits, rules_pages
from golfbox.render.words import LANGUAGES


def every_house_rule_setting(variant):
    specs = variant.rule_specs
    for values in itertools.product(*[spec.choices(spec.default) for spec in specs]):
        yield make_rules(variant, {s.name: "off" if v is None else v for s, v in zip(specs, values)})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_page_fits_whole_on_both_panels_whatever_the_house_rules(name, lang):
    """French was checked with the default rules only: 9-card's page of combinations with
    lines = rows+columns took seven lines, and its last ("d'abord.") was cut."""
    variant = VARIANTS[name]
    for rules in every_house_rule_setting(variant):
        for page in rules_pages(variant, rules, lang):
            assert page_fits(page, (128, 64)) and page_fits(page, (256, 64)), (rules, page)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_value_of_each_house_rule_reads_otherwise_on_the_pages(name, lang):
    """Every value the lobby offers for a house rule, the other rules at their
    defaults, gives pages unlike every other value's: the players can read what was
    chosen. A house rule added to the engine and the lobby, with no words in
    render/rules.py, passed every test here."""
    variant = VARIANTS[name]
    for spec in variant.rule_specs:
        choices = spec.choices(spec.default)
        pages = {tuple(rules_pages(variant, make_rules(variant, {
            spec.name: "off" if value is None else value}), lang)) for value in choices}
        assert len(pages) == len(choices), (spec.name, choices)


def test_the_pages_say_the_house_rules_as_set():
    six = VARIANTS["6-card"]
    plain = " ".join(text for _, text in rules_pages(six, make_rules(six, {})))
    house = " ".join(text for _, text in rules_pages(six, make_rules(six, {
        "final_turn": True, "peek_row": True, "four_of_a_kind": -10})))
    assert "the round ends at once" in plain and "others play once more" in house
    assert "turns 2 cards of their choice" in plain and "nearest row" in house
    assert "score -10 together" in house
    poker = VARIANTS["polish-poker"]
    assert "adds 10" in " ".join(t for _, t in rules_pages(poker, make_rules(poker, {})))
    assert "doubles" in " ".join(t for _, t in rules_pages(poker, make_rules(
        poker, {"knock_penalty": "double"})))
    nine = VARIANTS["9-card"]
    both = rules_pages(nine, make_rules(nine, {"lines": "rows+columns"}))
    assert "rows and columns" in " ".join(t for _, t in both)
    assert both[-1] == ("rows and columns", "A card counts in one line at most, rows first.")
    assert len(rules_pages(nine, make_rules(nine, {}))) == len(both) - 1


def test_a_seat_pages_the_rules_from_the_lobby_and_leaves_with_back(sim_table):
    table = sim_table(variant="9-card", seats=3)
    svc = table.service
    table.press(1, Button.RIGHT)  # seat 2 has not joined: ◀ ▶ open the rules
    pages = len(svc.current.pages())
    assert svc.current.reading == {1: 0}
    seat, shared = table.displays[1].image, table.shared.image
    table.press(1, Button.RIGHT, Button.RIGHT)
    assert svc.current.reading == {1: 2}
    assert table.displays[1].image.tobytes() != seat.tobytes()
    assert table.shared.image.tobytes() != shared.tobytes()  # the shared display follows
    table.press(1, Button.LEFT, Button.LEFT, Button.LEFT)
    assert svc.current.reading == {1: pages - 1}  # round the pages
    table.press(1, Button.BACK)
    assert svc.current.reading == {} and 1 not in svc.lobby.joined
    # A joined seat reads them from the menu's last line, "rules: ◀▶ read".
    table.press(0, Button.OK)
    while svc.lobby.selected.key != "rules":
        table.press(0, Button.OK)
    table.press(0, Button.LEFT)
    assert svc.current.reading == {0: 0}  # the press that opens them shows the first page
    assert svc.lobby.variant == "9-card"  # nothing changed
    table.press(0, Button.BACK)
    assert svc.current.reading == {} and 0 in svc.lobby.joined


def test_a_reader_whose_game_is_changed_in_the_lobby_starts_again_at_its_first_page(sim_table):
    """Seat 2 read 9-card's "each turn" (3/6) when seat 1 chose polish-poker: its screen
    and the shared display went on to polish-poker's "each turn" 3/6, no word of which game."""
    table = sim_table(variant="9-card", seats=3)
    svc = table.service
    table.press(0, Button.OK)  # seat 1 joins; the cursor is on the game
    table.press(1, Button.RIGHT, Button.RIGHT, Button.RIGHT)  # seat 2 reads, page 3
    assert svc.current.reading == {1: 2}
    table.press(0, Button.LEFT)  # seat 1: the game before 9-card
    assert svc.lobby.variant == "polish-poker"
    assert svc.current.reading == {1: 0}  # whose title names the game
    table.press(0, Button.OK, Button.RIGHT)  # another setting: the page stays
    table.press(1, Button.RIGHT)
    table.press(0, Button.RIGHT)
    assert svc.current.reading == {1: 1}


def test_the_rules_of_the_game_played_can_be_read_after_a_round(sim_table, clock):
    table = sim_table(variant="6-card", rounds=2, seats=2, bots={1: "random"}, auto_start=True,
                      rules={"final_turn": True}, seed=3)
    svc = table.service
    while svc.state == "playing":
        table.press(0, Button.OK)
        clock.advance(1.0)
        svc.run_until_idle()
    assert svc.state == "round_over"
    table.press(0, Button.RIGHT)
    texts = " ".join(text for _, text in svc.current.pages())
    assert "others play once more" in texts  # the match's own house rules
    assert svc.current.reading == {0: 0}
    table.press(0, Button.OK)  # ● while reading does not deal: ✕ first
    assert svc.state == "round_over" and svc.messages[0] == "✕ back to the game"
    table.press(0, Button.BACK, Button.OK)
    assert svc.state == "playing" and svc.match.round_no == 2


def pages_text(name, lang="en", **rules):
    variant = VARIANTS[name]
    return " ".join(text for _, text in rules_pages(variant, make_rules(variant, rules), lang))


def test_the_pages_state_each_rule_as_the_engine_plays_it():
    """Found by reading the pages against RULES.md and the engine (golfbox score):
    - "double" doubles only a score above 0 (a knocker at -1 stays at -1);
    - French said "de même valeur" (same value) where a column scores 0 for the same
      rank: a jack over a queen is 20, not 0; and its four of a kind left out "paired";
    - 9-card rows+columns: a card counts in one combination at most, rows first."""
    for lang, above_zero in (("en", "doubles a score above 0"), ("fr", "s'ils dépassent 0")):
        assert above_zero in pages_text("polish-poker", lang, knock_penalty="double")
        assert above_zero in pages_text("4-card", lang, knock_penalty="double")
    for name in ("6-card", "polish-poker", "9-card"):
        french = pages_text(name, "fr", four_of_a_kind=-10) if name == "6-card" else pages_text(name, "fr")
        assert "même valeur" not in french and "même rang" in french
    assert "colonnes en paire d'un même rang font -10" in pages_text("6-card", "fr", four_of_a_kind=-10)
    assert "rows first" in pages_text("9-card", lines="rows+columns")
    assert "rangées d'abord" in pages_text("9-card", "fr", lines="rows+columns")
    assert "rows first" not in pages_text("9-card")


@pytest.mark.parametrize("lang, knock, stock", [
    ("en", "A knock ends a round", "no card to draw"),
    ("fr", "Frapper finit la manche", "plus de carte à piocher")])
def test_no_page_says_a_round_ends_only_one_way(lang, knock, stock):
    """Polish-poker's pages said "Only a knock ends a round", but in every variant a stock
    that even the reshuffled discard cannot refill ends the round at once (RULES.md "Stock
    runs out"). The end of a round names both; no variant's pages say "only"."""
    text = pages_text("polish-poker", lang)
    assert knock in text and stock in text
    for name in VARIANTS:
        for rules in every_house_rule_setting(VARIANTS[name]):
            for _, page in rules_pages(VARIANTS[name], rules, lang):
                assert not re.search(r"\bonly\b[^.]*\bends?\b|\bseul\b[^.]*\bfinit\b", page.lower()), \
                    (name, page)


def test_the_pages_state_the_ambiguities_rules_md_decides():
    """RULES.md decides two things a player asks at the table, and the pages left them
    out: a knocker tied for the lowest score pays no penalty (4-card, polish-poker; the
    pages said only "not lowest"), and a pair of 2s in a 6-card column scores 0, not -4
    (polish-poker's page said "2 jokers too", 6-card's nothing of its 2s)."""
    for lang, tie, twos in (("en", "(a tie counts as lowest)", "(2 over 2 too)"),
                            ("fr", "(égalité = plus bas)", "(les 2 aussi)")):
        for penalty in (5, "double"):
            assert tie in pages_text("4-card", lang, knock_penalty=penalty)
            assert tie in pages_text("polish-poker", lang, knock_penalty=penalty)
        assert tie not in pages_text("4-card", lang)  # no penalty, nothing to tie for
        assert twos in pages_text("6-card", lang)


def test_a_press_of_ok_while_reading_in_the_lobby_says_back_to_the_lobby(sim_table):
    """It said "✕ back to the game" before any game."""
    table = sim_table(variant="6-card", seats=2)
    table.press(1, Button.RIGHT)  # seat 2 (not joined) opens the rules
    table.press(1, Button.OK)
    assert table.service.state == "lobby" and table.service.messages[1] == "✕ back to the lobby"


def test_holding_ok_while_reading_the_rules_in_the_lobby_does_not_start_the_match(sim_table):
    """A joined seat reads the rules from the menu's last line: ● there is no start, held
    or not; back in the menu (✕), holding ● starts as it does anywhere."""
    table = sim_table(variant="6-card", seats=2)
    lobby = table.service.lobby
    table.press(1, Button.OK)  # seat 2 joins
    table.press(0, Button.OK)  # seat 1 joins
    while lobby.selected.key != "rules":
        table.press(0, Button.OK)
    table.press(0, Button.RIGHT)  # reads the rules
    table.hold(0, Button.OK)
    assert table.service.state == "lobby"
    table.press(0, Button.BACK)
    table.hold(0, Button.OK)
    assert table.service.state == "playing"


def _title_bar(image):
    return image.convert("1").crop((0, 0, image.width, 9))


def _bar_reading(size, text):
    """A rules page's title bar reading ``text``, as render_rules centres it."""
    from PIL import Image, ImageDraw

    from golfbox.render import glyphs

    bar = Image.new("1", (size[0], 9), 1)
    x = (size[0] - glyphs.text_width(text) + 1) // 2
    glyphs.draw_text(ImageDraw.Draw(bar), x, 3, text, 0)
    return bar


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_the_shared_display_says_whose_rules_page_it_shows_not_whose_turn(size, lang):
    """The shared display titled a rules page 'P2: YOUR TURN 3/6' ('J2 : TON TOUR'):
    everyone at the table read it as a turn prompt. It says who reads the rules now
    ('P2 READS THE RULES · EACH TURN 3/6', the page's title where it fits whole), and
    no page is titled as a seat's turn prompt ('YOUR TURN'), on a seat either."""
    from golfbox.render.rules import render_rules
    from golfbox.render.words import say

    six = VARIANTS["6-card"]
    pages = rules_pages(six, make_rules(six, {}), lang)
    turn_words = {say(lang, w) for w in ("YOUR TURN", "LAST TURN", "WAITING")}
    assert not turn_words & {title.upper() for title, _ in pages}
    reads = say(lang, "{who} reads the rules", who=say(lang, "P{n}", n=2)).upper()
    for page, (title, _) in enumerate(pages):
        number = f"  {page + 1}/{len(pages)}"
        shown = _title_bar(render_rules(size, pages, page, reader=say(lang, "P{n}", n=2), lang=lang))
        heads = [f"{reads} · {title.upper()}{number}", f"{reads}{number}"]  # with the title if it fits
        assert any(shown.tobytes() == _bar_reading(size, head).tobytes() for head in heads), (size, page)
    # A long name is cut, never what the bar says of it, nor the page number.
    name = "Marie-Hélène Dubois-Lefèvre de la Tour d'Auvergne et du Berry"
    shown = _title_bar(render_rules(size, pages, 0, reader=name, lang=lang))
    reads_alone = say(lang, "{who} reads the rules", who="").upper()
    cuts = (f"{name[:n].rstrip().upper()}…{reads_alone}  1/{len(pages)}" for n in range(1, len(name)))
    assert any(shown.tobytes() == _bar_reading(size, head).tobytes() for head in cuts)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_readers_name_is_cut_so_the_title_fits_its_room(lang):
    """The name was fitted to the room left beside "reads the rules", but joining the two
    adds a letter's gap: 'MAXIMILIEN… READS THE RULES' was 111 px in a room of 110 (review)."""
    from golfbox.render import glyphs
    from golfbox.render.rules import _head

    for room in range(90, 250):  # from a 128 px display's room up
        for name in ("Maximilien-Alexandre", "Wolfgang Amadeus", "Bartholomew"):
            head = _head("each turn", name, room, lang)
            assert glyphs.text_width(head) <= room, (room, name, head)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_house_rule_pages_state_every_value_a_table_can_set(lang):
    """Each value of each house rule, as the lobby offers it or a config sets it, is what
    the pages say: a knock penalty of 0 is none (the lobby's 'off'), a number is added,
    'double' doubles; four of a kind off, or its number; the others on or off."""
    words = {"en": {"none": "one: knocking costs nothing.", "adds": "adds {n} (",
                    "doubles": "doubles a score above 0", "four_off": "Four of a kind: off, each pair scores 0.",
                    "four": "Four of a kind: on, 2 paired columns of one rank score {n} together.",
                    "assist": ("Assist: off", "Assist: on"), "final": ("Final turn: off", "Final turn: on"),
                    "peek": ("Peek row: off", "Peek row: on"),
                    "choose": ("turned up at random", "picks 2 cards to turn up"),
                    "keep": ("(2 jokers too)", "(a pair of jokers keeps its -4)")},
             "fr": {"none": "ucune, frapper ne coûte rien.", "adds": "ajoute {n} (",
                    "doubles": "double ses points s'ils dépassent 0",
                    "four_off": "Carré : non, chaque paire fait 0.",
                    "four": "Carré : oui, 2 colonnes en paire d'un même rang font {n} ensemble.",
                    "assist": ("Aide : non", "Aide : oui"), "final": ("Dernier tour : non", "Dernier tour : oui"),
                    "peek": ("Rangée vue : non", "Rangée vue : oui"),
                    "choose": ("retournées au hasard", "choisit 2 cartes à retourner"),
                    "keep": ("(2 jokers aussi)", "(une paire de jokers garde son -4)")}}[lang]
    for name in ("4-card", "polish-poker"):
        for penalty in (0, "off", 1, 5, 10, 15, 20, 1000, "double"):
            text = pages_text(name, lang, knock_penalty=penalty)
            if penalty in (0, "off"):
                assert words["none"] in text
            elif penalty == "double":
                assert words["doubles"] in text
            else:
                assert words["adds"].format(n=penalty) in text
    for four in ("off", -5, -10, -15, -20, 0, 7):
        text = pages_text("6-card", lang, four_of_a_kind=four)
        assert (words["four_off"] if four == "off" else words["four"].format(n=four)) in text
    for on in (False, True):
        assert words["assist"][on] in pages_text("4-card", lang, assist=on)
        assert words["final"][on] in pages_text("6-card", lang, final_turn=on)
        assert words["peek"][on] in pages_text("6-card", lang, peek_row=on)
        assert words["choose"][on] in pages_text("polish-poker", lang, choose_start=on)
        assert words["keep"][on] in pages_text("polish-poker", lang, negative_pairs_keep=on)


@pytest.mark.parametrize("name,en,fr", [
    ("4-card", "A 1, others their number, J Q 10, K 0. No pairs.",
     "As 1, les autres leur chiffre, valet dame 10, roi 0. Pas de paires."),
    ("6-card", "A 1, 2 is -2, 3-10 their number, J Q 10, K 0.",
     "As 1, le 2 vaut -2, 3 à 10 leur chiffre, valet dame 10, roi 0."),
    ("polish-poker", "A 1, others their number, J Q 10, K 0, joker -2.",
     "As 1, les autres leur chiffre, valet dame 10, roi 0, joker -2."),
    ("9-card", "A 1, others their number, J 11, Q 12, K 0, joker -3.",
     "As 1, les autres leur chiffre, valet 11, dame 12, roi 0, joker -3."),
])
def test_the_points_page_gives_the_values_of_rules_md(name, en, fr):
    """The values are written from the engine's table: they must read as RULES.md's."""
    for lang, words in (("en", en), ("fr", fr)):
        points = dict(rules_pages(VARIANTS[name], make_rules(VARIANTS[name], {}), lang))
        assert points["points" if lang == "en" else "les points"].startswith(words)


@pytest.mark.parametrize("lang, stays", [("en", "stays face down: remember it"),
                                         ("fr", "elle reste cachée : retiens-la")])
def test_six_card_peek_row_says_the_row_stays_face_down(lang, stays):
    """RULES.md `peek_row`: the nearest row "stays face down (known to the owner)". The page
    said only "You look once at your nearest row", which a player may take for turning it
    up (and then looks for the two cards up that the other start gives, and that the
    sixth card up counts from); the seat shows the row as backs once looked at."""
    assert stays in pages_text("6-card", lang, peek_row=True)
    assert stays not in pages_text("6-card", lang)
