"""golfbox.render: golden screens, what a seat may see, glyph size, purity.

Goldens live in tests/goldens/*.png; after a deliberate change to a picture,
rewrite them with ``python tests/goldens.py --regenerate`` and look at them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/ is not a package
import goldens  # noqa: E402

from golfbox.engine import (Action, RANK_NAMES, Round, SeatView, build_deck, get_variant,
                            make_rules)  # noqa: E402
from golfbox.render import (  # noqa: E402
    describe_last,
    glyphs,
    render_match_result,
    render_notice,
    render_reveal,
    render_seat,
    render_table,
    reveal_pages,
)
from golfbox.render import seat as seat_render  # noqa: E402
from golfbox.render.seat import grid_boxes  # noqa: E402

SCREENS = goldens.all_screens()
VARIANT_TAGS = ("4card", "6card", "polishpoker", "9card")


# ----------------------------------------------------------------- goldens

@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_golden(name):
    path = goldens.golden_path(name)
    assert path.exists(), f"no golden {path.name}: run python tests/goldens.py --regenerate"
    image = SCREENS[name]()
    with Image.open(path) as golden:
        golden.load()
        assert (golden.mode, golden.size) == (image.mode, image.size)
        assert golden.tobytes() == image.tobytes(), (
            f"{name} differs from its golden; if the change is wanted: "
            "python tests/goldens.py --regenerate")


def test_goldens_cover_every_variant_on_both_displays():
    for tag in VARIANT_TAGS:
        assert any(n.startswith(f"seat_{tag}_") for n in SCREENS), tag
        assert f"table_{tag}_mid" in SCREENS and f"table_{tag}_mid_mono" in SCREENS
        assert f"table_{tag}_reveal" in SCREENS and f"table_{tag}_reveal_mono" in SCREENS


def test_same_input_same_pixels():
    r = goldens.until_my_turn(goldens.play_turns(goldens.deal("6-card"), 4), 1)
    view = r.view(1)
    first = render_seat(view, cursor="stock", prompt="◀▶ choose").tobytes()
    assert all(render_seat(view, cursor="stock", prompt="◀▶ choose").tobytes() == first
               for _ in range(3))
    public = r.view(None)
    assert render_table(public).tobytes() == render_table(public).tobytes()


def test_image_sizes_and_modes():
    view = goldens.deal("9-card").view(1)
    public = goldens.deal("9-card").view(None)
    assert (render_seat(view).mode, render_seat(view).size) == ("1", (128, 64))
    for size, mode in (((256, 64), "L"), ((128, 64), "1")):
        for image in (render_table(public, size), render_reveal(public, size),
                      render_match_result((3, 1), (1,), size=size), render_notice(size, "paused")):
            assert (image.mode, image.size) == (mode, size)
    with pytest.raises(ValueError):
        render_table(public, size=(200, 50))


# ----------------------------------------------------------------- what a seat may see

def _with_own_grid(view: SeatView, own_grid: tuple) -> SeatView:
    """The same view, but with other cards where the seat remembers its face-down ones."""
    return SeatView(view.table, view.seat, view.legal, own_grid, view.known, view.held,
                    view.flips_due)


def _swap_known_cards(view: SeatView) -> SeatView:
    grid = list(view.own_grid)
    known = [p for p in range(len(grid)) if view.known >> p & 1]
    assert known, "the test needs a seat that knows a face-down card"
    for p in known:
        grid[p] = (grid[p] + 4 * 5) % (13 * 4)  # another rank, same suit
    return _with_own_grid(view, tuple(grid))


@pytest.mark.parametrize("variant, rules", [("4-card", {}), ("6-card", {"peek_row": True})])
def test_memory_play_draws_known_face_down_cards_as_backs(variant, rules):
    view = goldens.until_my_turn(goldens.deal(variant, rules=rules), 1).view(1)
    assert view.known and not view.peeking
    other = _swap_known_cards(view)
    for cursor in (None, "stock", 0):
        assert render_seat(view, cursor).tobytes() == render_seat(other, cursor).tobytes()


def test_assist_draws_known_face_down_cards():
    view = goldens.until_my_turn(goldens.deal("4-card", rules={"assist": True}), 1).view(1)
    assert view.known and not view.peeking
    assert render_seat(view).tobytes() != render_seat(_swap_known_cards(view)).tobytes()


@pytest.mark.parametrize("variant, rules", [("4-card", {}), ("6-card", {"peek_row": True})])
def test_peeking_draws_the_peeked_cards(variant, rules):
    view = goldens.deal(variant, rules=rules).view(0)
    assert view.peeking
    assert render_seat(view).tobytes() != render_seat(_swap_known_cards(view)).tobytes()


def _round_with_deck(variant: str, deck: list[int]) -> Round:
    spec = get_variant(variant)
    return Round(spec, make_rules(spec, {}), 3, dealer=0, rng=random.Random(5), deck=deck)


@pytest.mark.parametrize("variant", ["4-card", "6-card", "9-card"])
def test_a_hidden_card_changes_no_pixel(variant):
    """Two deals that differ in one face-down card of seat 0: no screen may tell them apart."""
    spec = get_variant(variant)
    deck = build_deck(spec.decks(3), spec.jokers_per_deck)
    random.Random(11).shuffle(deck)
    # Deck position 2 is dealt to seat 0 (the dealer: dealt last of three) at grid position 0.
    swap = next(i for i in range(len(deck) - 1, 0, -1) if deck[i] >> 2 != deck[2] >> 2)
    other = list(deck)
    other[2], other[swap] = other[swap], other[2]
    rounds = [_round_with_deck(variant, d) for d in (deck, other)]
    for r in rounds:  # seat 0 turns up anything but position 0; others start normally
        while r.phase == "start":
            seat = r.acting_seats[-1]
            legal = [a for a in r.legal_actions(seat) if not (seat == 0 and a.pos == 0)]
            r.apply(seat, legal[-1])
        for _ in range(4):
            seat = r.to_move
            while r.first_flips[seat]:
                r.apply(seat, next(a for a in r.legal_actions(seat) if a.pos != 0))
            r.apply(seat, Action("draw"))
            r.apply(seat, Action("place", 1 + r.turns % (spec.size - 1)))
    assert rounds[0].grids[0][0] != rounds[1].grids[0][0]
    assert rounds[0].view(0).own_grid[0] is None  # seat 0 never saw it
    for seat in (None, 0, 1, 2):
        a, b = (r.view(seat) for r in rounds)
        if seat is None:
            assert render_table(a).tobytes() == render_table(b).tobytes()
            assert render_table(a, (128, 64)).tobytes() == render_table(b, (128, 64)).tobytes()
        else:
            assert render_seat(a, cursor=0).tobytes() == render_seat(b, cursor=0).tobytes()


# ----------------------------------------------------------------- legibility

def test_rank_glyphs_are_at_least_12_px_tall():
    for rank in RANK_NAMES:
        image = Image.new("1", (40, 20), 0)
        glyphs.draw_rank(ImageDraw.Draw(image), 2, 2, rank, 1)
        x0, y0, x1, y1 = image.getbbox()
        assert y1 - y0 >= 12, rank


def test_ranks_on_a_3x3_seat_screen_are_at_least_12_px_tall():
    r = goldens.play_out(goldens.deal("9-card", players=3))  # every card face up
    image = render_seat(r.view(0))
    for x, y, w, h in grid_boxes(3, 3):
        rank_area = image.crop((x + 1, y + 1, x + w - 9, y + h - 1))  # inside the frame, left of the suit
        box = rank_area.getbbox()
        assert box is not None and box[3] - box[1] >= 12


def _stamp(text: str) -> bytes:
    image = Image.new("1", (12, 8), 0)
    glyphs.draw_text(ImageDraw.Draw(image), 0, 0, text, 1)
    return image.tobytes()


def test_symbols_used_in_prompts_have_glyphs():
    unknown = _stamp("?")
    drawn = {symbol: _stamp(symbol) for symbol in "◀▶●✕♣♦♥♠"}
    assert unknown not in drawn.values()
    assert len(set(drawn.values())) == len(drawn)  # all different, ♣ and ♠ too


def test_long_words_are_cut_to_fit():
    assert glyphs.text_width(glyphs.fit_text("a very long message indeed", 40)) <= 40
    lines = glyphs.wrap_text("take: a card from the discard must be placed", 124, 2)
    assert len(lines) == 2 and all(glyphs.text_width(line) <= 124 for line in lines)


# ----------------------------------------------------------------- words and choices

def test_last_action_in_words():
    r = goldens.until_my_turn(goldens.play_turns(goldens.deal("polish-poker"), 2), 1)
    top = r.view(None).discard_top
    r.apply(1, Action("take"))
    words = describe_last(r.view(None), names=None)
    assert words.startswith("P2 took ") and words.endswith(" from the discard")
    r.apply(1, Action("place", 0))
    r.apply(r.to_move, Action("knock"))
    assert describe_last(r.view(None), ["Ann", "Bob", "Cleo", "Dev"]) == f"{['Ann', 'Bob', 'Cleo', 'Dev'][r.knocker]} knocked"
    assert top is not None


def test_choices_appear_only_when_legal_or_under_the_cursor():
    view = goldens.until_my_turn(goldens.deal("6-card"), 1).view(1)  # no knocking in 6-card
    plain = render_seat(view)
    assert render_seat(view, cursor="knock").tobytes() != plain.tobytes()
    with pytest.raises(ValueError):
        render_seat(view, cursor="fold")
    with pytest.raises(ValueError):
        render_seat(goldens.deal("6-card").view(None))


def test_reveal_pages():
    assert reveal_pages(8, (256, 64)) == 1
    assert reveal_pages(6, (128, 64)) == 2
    public = goldens.play_out(goldens.deal("9-card", players=6)).view(None)
    first, second = (render_reveal(public, (128, 64), page=p) for p in (0, 1))
    assert first.tobytes() != second.tobytes()
    with pytest.raises(ValueError):
        render_reveal(public, (128, 64), page=2)


def test_a_long_name_in_the_reveal_title_stops_short_of_the_page_number():
    """'R1/9 · HENRIETTE (MEDIUM) WENT OUT' ran under the '1/2' on a 128x64 shared display."""
    from golfbox.render import glyphs

    public = goldens.play_out(goldens.deal("9-card", players=6)).view(None)
    names = [f"Bartholomew Henriette{seat}" for seat in range(6)]
    image = render_reveal(public, (128, 64), page=0, names=names).convert("L")
    gap_end = 128 - glyphs.text_width("1/2")
    gap = [image.getpixel((x, y)) for x in range(gap_end - 4, gap_end) for y in range(2, 7)]
    assert not any(gap)  # nothing drawn in the 4 px before the page number


def test_the_lobby_shows_every_long_name_without_covering_the_menu():
    """Eight long names ran under the menu's bar on a 128x64 screen, and the last ones were
    left out; now every name shows, cut shorter if it must ("Alexa…")."""
    from golfbox.render.table import _players_lines, render_lobby

    names = ("Alexandrine, Bartholomew, Christopher, Dominique, Emmanuelle, Fitzgerald, "
             "Guillaume (facile), Henriette (moyen)")
    image = render_lobby((128, 64), "ALEXANDRINE : TU JOUES", ["jeu : 6 cartes"], 0, names,
                         "◀▶ changer · ● suivant · garder ● lancer · ✕ partir", "fr").convert("L")
    assert not any(image.getpixel((x, 18)) for x in range(128))  # a dark row under the bar
    lines = _players_lines(names, 122, 3, "fr")
    assert len(lines) == 3 and " ".join(lines).count(", ") == 7  # all eight, in three lines
    assert lines[0].startswith("à la table : Alexa") and lines[-1].split(", ")[-1].startswith("Henri")
    short = "P1, P2 (HARD), P3"  # names that fit stay whole
    assert _players_lines(short, 122, 3, "en") == ["playing: P1, P2 (HARD), P3"]


# ``count`` faults in the footer leave the menu ``rows``
@pytest.mark.parametrize("lang, count, rows", [("en", 1, 2), ("en", 3, 1), ("fr", 2, 1)])
def test_the_wide_lobby_left_column_stays_still_while_the_cursor_walks_the_house_rules(lang, count, rows):
    """On 256x64 the game, empty seats and rounds make the left column; the cursor in
    the house rules on the right leaves it showing its top rows, the game first. Where
    eight long names leave the menu fewer than three rows, nothing pinned that: the left
    column could slide to 'rounds' on the first house rule and back on the next."""
    from golfbox.render import render_lobby
    from golfbox.render.words import say
    from golfbox.table.lobby import Lobby
    from golfbox.table.settings import TableSettings
    from test_wording import shows

    lobby = Lobby(TableSettings(variant="9-card", seats=8, language=lang,
                                names=dict(enumerate(goldens.LONG_NAMES[lang]))))
    for seat in range(8):
        lobby.press(seat, goldens.Button.OK, goldens.EventKind.PRESSED)
    lines = [str(line) for line in lobby.lines()]
    players = ", ".join(p.name for p in lobby.players())
    faults = [goldens.fault_words(lang, goldens.LONG_NAMES[lang][2]),
              say(lang, "cannot save the game: see the log"),
              goldens.fault_words(lang, goldens.LONG_NAMES[lang][4])][:count]
    footer = " · ".join([*faults, say(lang, "hold ● on your pad to start")])

    def lobby_at(cursor: int) -> Image.Image:
        return render_lobby((256, 64), "golfbox", lines, cursor, players, footer, lang)

    left = (0, 0, 128, 64)
    at_game = lobby_at(0)
    # the layout this test is about: the menu has fewer than three rows, 'rounds' unseen
    assert not shows(at_game.crop(left), glyphs.fit_text(lines[2], 128 - 22))
    two_rows = shows(at_game.crop(left), glyphs.fit_text(lines[1], 128 - 22))
    assert two_rows == (rows == 2)
    still = lobby_at(len(lines) - 1).crop(left).tobytes()
    for cursor in range(3, len(lines)):
        shown = lobby_at(cursor)
        assert shown.crop(left).tobytes() == still, f"the left column moved at line {cursor}"
        assert shown.crop((128, 0, 256, 64)).tobytes() != at_game.crop((128, 0, 256, 64)).tobytes()
    # ... the game's line at its top, as with the cursor on the game
    shown = lobby_at(3).crop(left)
    assert shows(shown, glyphs.fit_text(lines[0], 128 - 22))
    assert shows(at_game.crop(left), glyphs.fit_text(lines[0], 128 - 22))


def _away_words(lang: str, who: str) -> str:
    from golfbox.render.words import say

    return say(lang, "{who} is away: a bot plays for it until it is back", who=who)


def _with_last_letter_changed(message: str) -> str:
    """``message`` with a different last letter of the same width: the pixels differ only
    if the message's end is drawn."""
    other = "Z" if message[-1].upper() != "Z" else "S"
    assert glyphs.text_width(other) == glyphs.text_width(message[-1])
    return message[:-1] + other


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
@pytest.mark.parametrize("message", [
    lambda lang: goldens.fault_words(lang, "Cleo"),
    lambda lang: "2/2 " + goldens.fault_words(lang, "Benoît"),
    lambda lang: "2/2 " + goldens.fault_words(lang, "Marie-Hélène"),
    lambda lang: "2/2 " + _away_words(lang, "Cleo"),
    lambda lang: "1/2 " + _away_words(lang, "Benoît"),
    lambda lang: "2/2 " + _away_words(lang, "Marie-Hélène"),
], ids=["fault", "numbered", "long_name", "away", "away_accents", "away_long_name"])
def test_a_fault_on_the_shared_display_is_shown_whole(lang, size, message):
    """The shared display's fault bar fitted one line: French faults lost their countdown
    ('… UN ROBOT LE REM…'), and numbered ones or long names who is away. Each shows whole
    now (its end is drawn), over as many lines as it needs, clear of the scores."""
    message = message(lang)
    view = goldens.play_turns(goldens.deal("6-card", players=4), 3).view(None)
    names = goldens.NAMES[lang][:4]
    plain = render_table(view, size, names, lang=lang)
    shown = render_table(view, size, names, message=message, lang=lang)
    assert shown.tobytes() != render_table(view, size, names, message=_with_last_letter_changed(message),
                                           lang=lang).tobytes()
    scores_top = 57 - 8 - 2  # two rows of scores on 128 px, one on 256: from the accents of the first
    below = (0, scores_top if size == (128, 64) else 55, size[0], 64)
    assert shown.crop(below).tobytes() == plain.crop(below).tobytes()


def _without_accents(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@pytest.mark.parametrize("message", [
    "attends : Benoît, Cléo, Ève, Léa commence",  # line 1's accents
    "attends : Anne, Dany, Fanny, Hugo, Benoît commence",  # line 2's
    "non enregistré : réessaie maintenant, À bientôt Émile",  # both lines'
    "reçu : ça commence, François joue · À toi après Émile",  # a cedilla over line 2's accents
    "the match is over: ✕ on a player's pad opens the lobby",  # none
])
@pytest.mark.parametrize("variant", ["6-card", "9-card"])  # 2 and 3 rows of cards over the bar
def test_a_two_line_seat_message_keeps_a_blank_row_between_its_lines(message, variant):
    """The seat's two-line bar drew line 1's accents above the bar, in its paper colour
    (unseen), then line 2's on the row right under line 1's letters, touching them
    ('À BIENTÔT' under 'RÉESSAIE'): the lines read as one blot. Every mark now shows in
    the bar, and a blank row parts line 1's ink (a cedilla too) from line 2's."""
    view = goldens.until_my_turn(goldens.play_turns(goldens.deal(variant), 2), 2).view(0)
    shown = render_seat(view, message=message, lang="fr")
    assert len(glyphs.wrap_text(message, 124, 2)) == 2
    assert not {"Ë", "Ï"} & set(message.upper())  # a diaeresis has a blank row of its own
    # The bar's top row: the first all ink (columns 80 and 81, between the grid and the
    # side column, have none above the bar).
    bar_top = next(y for y in range(64) if all(shown.getpixel((x, y)) for x in range(128)))
    text_rows = [y for y in range(bar_top, 64) if any(shown.getpixel((x, y)) == 0 for x in range(128))]
    starts = [y for y in text_rows if y - 1 not in text_rows]  # the first row of each block of ink
    assert len(starts) == 2, f"the two lines' ink should be two blocks of rows: {text_rows}"
    assert text_rows[-1] == 63 and bar_top < text_rows[0]  # every mark inside the bar


@pytest.mark.parametrize("name", ["Benoît", "Fanny", "Anne"])
def test_a_seat_shows_its_own_name_whole_when_it_fits_before_the_round(name):
    """Names were cut to 20 px ('BEN…', 'FAN…') whatever room the round's 'M1/9' left."""
    view = goldens.deal("6-card", round_no=1).view(0)
    shown = render_seat(view, label=name, lang="fr")
    assert shown.tobytes() != render_seat(view, label=_with_last_letter_changed(name), lang="fr").tobytes()
    long = render_seat(view, label="Maximilienne", lang="fr")
    round_x = 128 - glyphs.text_width("M1")  # a name cut anyway has the round's short form
    rows = range(seat_render.NAME_Y, seat_render.NAME_Y + glyphs.SMALL_HEIGHT)
    assert any(long.getpixel((x, y)) for x in range(82, round_x - 4) for y in rows)
    assert not any(long.getpixel((x, y)) for x in range(round_x - 4, round_x) for y in rows)


def _rows_changed(a: Image.Image, b: Image.Image) -> set[int]:
    return {y for y in range(a.height) for x in range(a.width) if a.getpixel((x, y)) != b.getpixel((x, y))}


@pytest.mark.parametrize("name", ["Zoé", "Hélène", "Çédric", "Benoît", "Ève"])
def test_a_seat_shows_the_accents_of_its_own_name(name):
    """A seat's name was drawn at y 0: an accent, two rows over its capital, fell off the
    screen ('ZOE'). The name's marks now show whole, and a cedilla ('ÇÉDRIC') stays clear
    of the status under it."""
    view = goldens.deal("6-card", round_no=1).view(0)
    shown = render_seat(view, label=name, lang="fr")
    plain = render_seat(view, label=_without_accents(name), lang="fr")
    marks = set(range(seat_render.NAME_Y - glyphs.MARK_RISE, seat_render.NAME_Y))
    cedilla = seat_render.NAME_Y + glyphs.SMALL_HEIGHT
    assert _rows_changed(shown, plain) == marks | ({cedilla} if "Ç" in name else set())
    assert not any(shown.getpixel((x, seat_render.STATUS_Y - 1)) for x in range(82, 128))


def test_the_lobby_title_shows_the_accents_of_a_seat_name():
    """A seat's lobby title ('ZOÉ : TU JOUES') was drawn at y 1: its accents lost their top row."""
    from golfbox.render.table import render_lobby

    def lobby(title: str) -> Image.Image:
        return render_lobby((128, 64), title, ["jeu : 6 cartes"], 0, "Zoé", "● suivant", "fr")

    assert _rows_changed(lobby("Zoé : tu joues"), lobby("Zoe : tu joues")) == {0, 1}


def _reads(image: Image.Image, x: int, y: int, text: str) -> bool:
    """Is the line at (x, y) of ``image`` exactly ``text`` (its accents' rows to its last)?"""
    expected = Image.new(image.mode, image.size, 0)
    glyphs.draw_text(ImageDraw.Draw(expected), x, y, text, 1 if image.mode == "1" else 255)
    box = (0, y - glyphs.MARK_RISE, image.width, y + glyphs.SMALL_HEIGHT)
    return image.crop(box).tobytes() == expected.crop(box).tobytes()


@pytest.mark.parametrize("lang, lines", [
    ("fr", ["◀▶ changer · ● suivant ·", "garder ● lancer · ✕ partir"]),
    ("en", ["◀▶ change · ● next setting ·", "hold ● start · ✕ leave"]),
])
def test_the_lobby_footer_breaks_only_between_its_parts(lang, lines):
    """The French footer broke inside 'garder ● lancer', so its second line read
    '● lancer' (● start), though a press of ● moves to the next setting."""
    from golfbox.render.table import render_lobby
    from golfbox.render.words import say

    footer = say(lang, "◀▶ change · ● next setting · hold ● start · ✕ leave")
    image = render_lobby((128, 64), "ANNE", ["jeu : 6 cartes"], 0, "Anne", footer, lang)
    assert _reads(image, 3, 64 - 16, lines[0]) and _reads(image, 3, 64 - 8, lines[1])


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_a_rules_page_always_shows_its_number(size):
    """With a long reader's name the header was cut at its end, the page number lost
    ('BENOÎT: POKER POLONAIS : LE BUT…' never said '1/5'); the title is cut now."""
    from golfbox.engine import VARIANTS
    from golfbox.render.rules import render_rules, rules_pages

    variant = VARIANTS["polish-poker"]
    pages = rules_pages(variant, make_rules(variant, {}), "fr")
    for reader in ("Benoît", "Marie-Hélène Dubois-Lefèvre"):
        of_five = render_rules(size, pages, 0, reader=reader, lang="fr")
        of_six = render_rules(size, pages + pages[-1:], 0, reader=reader, lang="fr")  # '1/6'
        assert of_five.tobytes() != of_six.tobytes()


def _differs_from_the_card_sheet_golden() -> bool:
    with Image.open(goldens.golden_path("cards")) as golden:
        return goldens.card_sheet().tobytes() != golden.tobytes()


def test_a_rank_drawn_as_another_fails_a_golden(monkeypatch):
    """A big '6' drawn as an '8' matched all 214 goldens: no golden showed every rank."""
    monkeypatch.setitem(glyphs._RANK_MASKS, "6", glyphs._RANK_MASKS["8"])
    assert _differs_from_the_card_sheet_golden()


@pytest.mark.parametrize("masks, char", [
    *((glyphs._RANK_MASKS, char) for char in glyphs._RANK_MASKS),
    *((glyphs._SUIT_MASKS, char) for char in glyphs._SUIT_MASKS),
    *((glyphs._SMALL_MASKS[1], char) for char in "A234567890JQK♣♦♥♠"),  # small faces, cards in words
])
def test_every_card_glyph_shows_in_the_card_sheet_golden(monkeypatch, masks, char):
    monkeypatch.setitem(masks, char, Image.new("1", masks[char].size, 0))  # the glyph left blank
    assert _differs_from_the_card_sheet_golden()


def test_the_card_sheet_golden_shows_backs_and_empty_slots(monkeypatch):
    from golfbox.render import card

    monkeypatch.setattr(card, "_HATCH", Image.new("1", card._HATCH.size, 0))  # backs unhatched
    assert _differs_from_the_card_sheet_golden()
    monkeypatch.undo()
    monkeypatch.setattr(goldens, "draw_slot", lambda *args: None)  # no empty slot drawn
    assert _differs_from_the_card_sheet_golden()


def test_a_message_breaks_between_its_parts_when_its_last_part_fits_a_line():
    """The last part was measured with a "·" after it, which it never has: a last part
    that just fits a line was broken at its words ('… débranché · un' / 'robot le …')."""
    last = "un robot le remplace dans 120 s"
    width = glyphs.text_width(last)
    assert glyphs.wrap_text("le poste est débranché · " + last, width, 3, sep=" · ") == [
        "le poste est débranché ·", last]


def test_a_list_whose_last_item_just_fits_stays_on_one_line():
    """wrap_text measured a list's last item with a comma after it, which is never drawn,
    so 'playing: P1, P2 (HARD), P3' on a line just its width broke before 'P3'. Lists,
    words and a message's parts are now wrapped by one function (wrap_parts is gone)."""
    from golfbox.render.table import _players_lines

    text = "playing: P1, P2 (HARD), P3"
    width = glyphs.text_width(text)
    assert glyphs.wrap_text(text, width, 3, sep=", ") == [text]
    assert _players_lines("P1, P2 (HARD), P3", width, 3, "en") == [text]
    assert glyphs.wrap_text(text, width - 1, 3, sep=", ") == ["playing: P1, P2 (HARD),", "P3"]
    assert not hasattr(glyphs, "wrap_parts")


def every_fault(lang: str, who: str) -> dict[str, str]:
    """Every fault the shared display can show, in the players' words as the table says
    them (Session.link_changed, bot_move and the journal's failure)."""
    from golfbox.render.words import say

    return {"table_screen": say(lang, "the table's screen is not answering"),
            "unplugged": goldens.fault_words(lang, who),  # with takeover_after's countdown
            "unplugged_no_bot": say(lang, "{who}'s seat is unplugged", who=who),  # takeover_after 0
            "screen": say(lang, "{who}'s screen is not answering", who=who),
            "away": say(lang, "{who} is away: a bot plays for it until it is back", who=who),
            "journal": say(lang, "cannot save the game: see the log")}


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("numbered", [False, True], ids=["alone", "numbered"])
@pytest.mark.parametrize("fault", list(every_fault("en", "Ann")))
def test_a_fault_shows_whole_on_a_narrow_shared_display_of_seven_or_eight(lang, players, numbered, fault):
    """With 7-8 players the 128x64 shared display's four rows of scores left one text line,
    and a fault was cut to it ('CLEO'S SEAT IS UNPLUGGED · A BOT…'). The scores now sit
    two rows lower and the fault gets two lines, clear of the scores. A numbered French
    fault needed three, and lost its end ('2/2 LE POSTE DE CLÉO EST / DÉBRANCHÉ · UN ROBOT
    LE REMPLA…'): it says 'Cléo : débranché · un robot joue dans 120 s' now. Each
    fault, alone or second of two, with each player's name, shows whole."""
    from golfbox.table.session import Notices
    from golfbox.table.settings import TableSettings

    names = goldens.NAMES[lang][:players]
    r = goldens.play_turns(goldens.deal("9-card", players=players), 7)
    view = r.view(None)
    size = (128, 64)
    below = (0, 35 - 2, 128, 64)  # four rows of scores, from the first one's accents
    plain = render_table(view, size, names, lang=lang)
    for who in [*names, TableSettings(language=lang).display_name(2, "hard")]:  # and 'J3 (FORT)'
        message = every_fault(lang, who)[fault]
        if numbered:  # the second of two, as the shared display shows it
            message = Notices(faults={"first": "·", "second": message}, turn=1).shared_line()
        shown = render_table(view, size, names, message=message, lang=lang)
        assert shown.tobytes() != render_table(view, size, names, lang=lang,
                                               message=_with_last_letter_changed(message)).tobytes(), (
            f"cut short: {message!r}")
        assert shown.crop(below).tobytes() == plain.crop(below).tobytes()
        assert not any(shown.getpixel((x, below[1] - 1)) for x in range(128))  # a dark row over the scores


def say_words(lang: str, text: str, **values) -> str:
    from golfbox.render.words import say

    return say(lang, text, **values)


@pytest.mark.parametrize("lang, who", [("en", "Cleo"), ("fr", "Cléo"), ("fr", "Marie-Hélène")])
@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_a_fault_beside_the_lobby_footer_shows_whole(lang, who, size):
    """The shared display's lobby shows a fault before its footer ('… unplugged · a bot
    plays in 120 s · hold ● on your pad to start'), and the footer had two lines at most:
    on 128 px the countdown and what to press were cut ('… UN ROBOT LE REMPLA…'). The
    footer now takes up to four lines, the menu keeping one row at least."""
    from golfbox.render.table import render_lobby
    from golfbox.render.words import say

    footer = goldens.fault_words(lang, who) + " · " + say(lang, "hold ● on your pad to start")
    title = say(lang, "golfbox: press ● to join")
    menu = ["game: 6-card", "empty seats: none", "rounds: 9"]

    def lobby(footer: str) -> Image.Image:
        return render_lobby(size, title, menu, 0, "Anne, Benoît, Cléo", footer, lang)

    shown = lobby(footer)
    assert shown.tobytes() != lobby(_with_last_letter_changed(footer)).tobytes()
    assert shown.getpixel((1, 11)) and shown.getpixel((1, 9))  # the cursor's menu row, inverted
    assert glyphs.wrap_text(footer, size[0] - 6, 4, sep=" · ")[-1].endswith(say(lang, "hold ● on your pad to start"))


def test_a_part_that_fills_a_line_stays_whole_without_its_mark():
    """'un robot le remplace dans 120 s' fits a line, but not with ' ·' after it: it was
    broken at its words ('… dans 120' / 's ·'); it now stays whole on its line."""
    part = "un robot le remplace dans 120 s"
    width = glyphs.text_width(part) + 1
    assert glyphs.wrap_text(f"le poste est débranché · {part} · garde ● appuyé", width, 4, sep=" · ") == [
        "le poste est débranché ·", part, "garde ● appuyé"]


def _bar_top(image: Image.Image, first: int = 12) -> int | None:
    """The first row from ``first`` down that is ink from edge to edge: a message's bar."""
    image = image.convert("1")
    return next((y for y in range(first, image.height)
                 if all(image.getpixel((x, y)) for x in range(image.width))), None)


@pytest.mark.parametrize("players", [2, 4, 7, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", ["plain", "cedillas"])
def test_a_blank_row_parts_the_narrow_shared_display_lines_from_the_fault_bar(lang, players, names):
    """On 128x64 the last action's letters ended on the row right over the fault bar
    ('BOB DISCARDED 7♦' on '2/2 BOB'S SEAT IS UNPLUGGED'), and with 7-8 players the
    round and stock ('R3/9 STOCK 32') did: the lines read as one blot. A blank row parts
    them now (a cedilla's row too: 'FRANÇOIS'), over the bar and under it, and the last
    action still shows wherever it did (beside a one-line fault with 7-8 players: under it)."""
    from golfbox.render.table import score_rows, scores_top

    names = (goldens.NAMES[lang] if names == "plain"
             else ("François", "Çédric", "Françoise", "Ça", "Reçu", "Maçon", "Garçon", "Leçon"))[:players]
    view = goldens.play_turns(goldens.deal("6-card" if players < 7 else "9-card", players=players),
                              3).view(None)
    assert view.last is not None
    scores_y = scores_top(score_rows(players, 128), 128)
    faults = every_fault(lang, names[1])
    for message in (faults["unplugged"], "2/2 " + faults["unplugged"], faults["screen"]):
        shown = render_table(view, (128, 64), names, message=message, lang=lang).convert("1")
        top = _bar_top(shown)
        assert top is not None, message
        bottom = next(y for y in range(top, 64) if not shown.getpixel((127, y))) - 1  # its right edge
        # Right of the piles (x 0-47): with 7-8 players a two-line bar starts on their bottom row.
        assert not any(shown.getpixel((x, top - 1)) for x in range(48, 128)), (
            f"ink on the row over the bar of {message!r} (y {top})")
        assert not any(shown.getpixel((x, bottom + 1)) for x in range(128)), (
            f"ink on the row under the bar of {message!r} (y {bottom})")
        if len(glyphs.wrap_text(message, 124, 2, sep=" · ")) == 1 or players <= 4:
            # room for the last action beside the bar: it shows, over or under it
            text_rows = [*range(16, top - 1), *range(bottom + 2, scores_y - 2)]
            assert any(shown.getpixel((x, y)) for x in range(128) for y in text_rows), message




@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", ["plain", "cedillas"])
def test_a_blank_row_parts_the_wide_shared_display_last_action_from_the_fault_bar(lang, players, names):
    """On 256x64 too the last action's letters ended on the row right over the fault bar
    ('BOB DISCARDED 7♦' on '2/2 CLEO'S SEAT IS UNPLUGGED · …'): a blank row parts them now."""
    names = (goldens.NAMES[lang] if names == "plain"
             else ("François", "Çédric", "Françoise", "Ça", "Reçu", "Maçon", "Garçon", "Leçon"))[:players]
    view = goldens.play_turns(goldens.deal("6-card" if players < 7 else "9-card", players=players),
                              3).view(None)
    faults = every_fault(lang, names[1])
    for message in (faults["unplugged"], "2/2 " + faults["unplugged"], "2/2 " + faults["away"]):
        plain = render_table(view, (256, 64), names, lang=lang).convert("1")
        shown = render_table(view, (256, 64), names, message=message, lang=lang).convert("1")
        top = next(y for y in range(20, 64) if all(shown.getpixel((x, y)) for x in range(62, 256)))
        # The last action shows over the bar; with 8 players (two rows of scores) a two-line
        # bar under a cedilla's row would reach the scores: it takes the last action's line.
        two_lines = len(glyphs.wrap_text(message, 256 - 62 - 4, 3, sep=" · ")) == 2
        if not (players == 8 and names[0] == "François" and two_lines):
            assert not any(shown.getpixel((x, top - 1)) for x in range(62, 256)), (message, top)
            assert any(shown.getpixel((x, y)) for x in range(62, 256) for y in range(23, top - 1)), message
        below = (0, 57 - 8 * (-(-players // 4)) + 8 - 2, 256, 64)  # the scores, from their accents
        assert shown.crop(below).tobytes() == plain.crop(below).tobytes(), message


def _last_char_changed(text: str, among: str = "ZSXH()0123456789") -> str:
    """``text`` with another last character of the same width (a letter, a digit, a
    bracket): the pixels differ only if its end is drawn."""
    last = text[-1]
    other = next(c for c in among if c != last.upper()
                 and glyphs.text_width(c) == glyphs.text_width(last))
    return text[:-1] + other


# Long names as people have them, up to 13 letters: the shared display shows them whole.
LONG_NAMES = ("Jean-Baptiste", "Maximilienne", "Marie-Hélène", "Christopher", "Emmanuelle",
              "Marie-Claire", "Bernadette", "Guillaume")


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("numbered", [False, True], ids=["alone", "numbered"])
@pytest.mark.parametrize("fault", list(every_fault("en", "Ann")))
def test_a_fault_shows_a_long_name_and_every_word_whole_on_a_narrow_display_of_seven_or_eight(
        lang, players, numbered, fault):
    """With 7-8 players on 128x64 a fault has two lines, and the French 'unplugged' one
    ('2/2 Jean-Baptiste : poste débranché · un robot joue dans 120 s') needed three
    from a name of about 10 letters: its countdown was cut ('… UN ROBOT JOUE DANS…').
    Every fault, alone or second of two, now shows whole with names of up to 13 letters:
    the name's last letter is drawn, and so is the fault's."""
    from golfbox.table.session import Notices

    names = LONG_NAMES[:players]
    view = goldens.play_turns(goldens.deal("9-card", players=players), 7).view(None)
    for who in names:
        message = every_fault(lang, who)[fault]
        if numbered:
            message = Notices(faults={"first": "·", "second": message}, turn=1).shared_line()
        shown = render_table(view, (128, 64), names, message=message, lang=lang)
        end_changed = render_table(view, (128, 64), names, message=_last_char_changed(message), lang=lang)
        assert shown.tobytes() != end_changed.tobytes(), f"cut short: {message!r}"
        # Two lines of the bar's 124 px hold it: nothing is cut, the name neither.
        assert "…" not in "".join(glyphs.wrap_text(message, 124, 2, sep=" · ")), message


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_fault_too_long_for_its_lines_cuts_the_name_not_its_words(lang, size):
    """A name too long for any display ('Marie-Hélène Dubois-Lefèvre de la Tour') is cut
    shorter in the fault bar, as in the lobby, so that the fault and its countdown show."""
    name = "Marie-Hélène Dubois-Lefèvre de la Tour d'Auvergne"
    names = [name, *LONG_NAMES[:7]]
    view = goldens.play_turns(goldens.deal("9-card", players=8), 7).view(None)
    message = "2/2 " + goldens.fault_words(lang, name)
    shown = render_table(view, size, names, message=message, lang=lang)
    assert shown.tobytes() != render_table(view, size, names, message=_last_char_changed(message),
                                           lang=lang).tobytes()


@pytest.mark.parametrize("players", [2, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("moment", ["start", "mid"])
def test_a_fault_bar_on_the_narrow_shared_display_never_touches_the_piles(lang, players, moment):
    """On 128x64 a bar drawn from the first text line (a fault of two lines with 5-8
    players, any fault before the round's first action) began on the piles' bottom row
    (y 15): the bar and the cards were one blot. A blank row parts them now, edge to
    edge, and with 7-8 players, where the piles leave no room for it, the stock's count
    and the discard's top card are said in words over the bar."""
    names = goldens.NAMES[lang][:players]
    variant = "6-card" if players <= 6 else "9-card"
    round_ = goldens.deal(variant, players=players)
    view = (round_ if moment == "start" else goldens.play_turns(round_, 3)).view(None)
    faults = every_fault(lang, names[1])
    for message in (faults["unplugged"], "2/2 " + faults["unplugged"], faults["screen"]):
        shown = render_table(view, (128, 64), names, message=message, lang=lang).convert("1")
        top = _bar_top(shown)
        assert top is not None, message
        bottom = next(y for y in range(top, 64) if not shown.getpixel((127, y))) - 1
        assert not any(shown.getpixel((x, top - 1)) for x in range(128)), (
            f"ink on the row over the bar of {message!r} (y {top})")
        assert not any(shown.getpixel((x, bottom + 1)) for x in range(128)), (
            f"ink on the row under the bar of {message!r} (y {bottom})")
        for other in (view._replace(table=view.table._replace(stock_size=view.stock_size + 1)),
                      view._replace(table=view.table._replace(discard_top=view.discard_top ^ 1))):
            assert shown.tobytes() != render_table(other, (128, 64), names, message=message,
                                                   lang=lang).convert("1").tobytes(), message


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 4, 5, 8, 9, 10])
def test_the_match_result_shows_every_bot_name_and_total_whole(size, lang, players):
    """The 128x64 match result gave a name 28 px beside its place and total: 'P8 (MEDIUM)'
    read 'P8 (M…', and with 2-4 players the right half stayed empty. Every seat named as
    the table names bots ('J8 (GLOUTON)', the widest) shows whole now, with a total of
    three characters: its last character and its total's are drawn. 4-card seats up to
    10: two columns of four rows left the ninth and tenth players off both displays."""
    from golfbox.table.settings import TableSettings

    settings = TableSettings(language=lang)
    levels = ("greedy", "medium", "random", "easy", "hard")
    widest = max(levels, key=lambda level: glyphs.text_width(settings.display_name(7, level)))
    names = [settings.display_name(s, widest) for s in range(players)]
    totals = [(-12, 123, 31, 7, -4, 100, 58, 99, 3, 42)[s] for s in range(players)]
    winners = (0,)
    shown = render_match_result(totals, winners, names, size, lang)
    for seat in range(players):
        changed = [_last_char_changed(n) if s == seat else n for s, n in enumerate(names)]
        assert shown.tobytes() != render_match_result(totals, winners, changed, size, lang).tobytes(), (
            f"{names[seat]!r} cut short")
        # and the last digit of its total
        other = list(totals)
        other[seat] = int(_last_char_changed(str(totals[seat]), among="0123456789"))
        assert shown.tobytes() != render_match_result(other, winners, names, size, lang).tobytes()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tenth_place_is_parted_from_its_name_as_the_others_are(lang):
    """256x64 gives the place ('2.') 11 px before the name, room for one digit: with
    10 players the tenth read '10.JEAN PAUL', 2 blank columns between place and name
    where the others have 6."""
    names = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jean Paul"]
    image = render_match_result(list(range(10)), (0,), names, (256, 64), lang)

    def blank_after_place(x0: int, y: int, place: str) -> int:
        lit = [any(image.getpixel((x, y + r)) for r in range(5)) for x in range(x0, x0 + 40)]
        runs = [x for x in range(1, 40) if lit[x] and not lit[x - 1]]  # where each run starts
        ends = [x for x in range(1, 40) if lit[x - 1] and not lit[x]]
        dot_end = ends[len(place) - 1]  # one run a character: '1', '0', '.'
        return runs[len(place)] - dot_end

    assert blank_after_place(0, 23 + 8, "2.") == 6  # the second place, not inverted
    assert blank_after_place(128, 23 + 4 * 8, "10.") == 6


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("players", [8, 9, 10])
def test_a_blank_row_parts_the_verdicts_cedilla_from_the_winners_bar(size, players):
    """With 9-10 players the first row's bar began at y 20, right under the verdict's
    cedilla (y 19): 'FRANÇOIS GAGNE' touched the bar under it."""
    image = render_match_result(list(range(players)), (0,), ["François"] + ["Bob"] * (players - 1),
                                size, "fr")
    lit_rows = [y for y in range(12, 30) if any(image.getpixel((x, y)) for x in range(image.width))]
    verdict_end = next(y for y in lit_rows if y + 1 not in lit_rows)
    assert verdict_end == 19  # the cedilla's row
    assert 20 not in lit_rows


def _bot_names(lang: str, players: int) -> list[str]:
    """Every seat a 'greedy' bot, as the table names it: the widest ('J2 (GLOUTON)')."""
    from golfbox.table.settings import TableSettings

    settings = TableSettings(language=lang)
    return [settings.display_name(s, "greedy") for s in range(players)]


@pytest.mark.parametrize("players", [5, 6, 7, 8])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_last_action_shows_whole_on_a_narrow_shared_display_of_five_to_eight(lang, players):
    """With 5-8 players the 128x64 shared display kept one of its two text lines for the
    info line even when it had nothing to say, and a long last action lost its card:
    'J2 (GLOUTON) A POSÉ UNE CARTE, 1…' (10♣ went to the discard). The last action takes
    both lines when it needs them now: every word of it shows."""
    from test_wording import shows

    names = _bot_names(lang, players)
    round_ = goldens.play_turns(goldens.deal("4-card", players=players), 0)
    for _ in range(2 * players):
        goldens.play_turn(round_)
        view = round_.view(None)
        last = describe_last(view, names, lang)
        image = render_table(view, (128, 64), names, lang=lang)
        for word in last.split():
            assert shows(image, word), f"{word!r} of {last!r} not shown"


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [4, 7, 8])
def test_who_the_start_waits_for_shows_whole(size, lang, players):
    """At a round's start the shared display listed every seat still turning up
    ('waiting for J1 (GLOUTON) J2 (GLOUTON) J3…'): with 7-8 bots or long names the list
    was cut mid-name. A list too long for the line is said as a count now ('waiting for
    8 players'); one that fits still names them."""
    from test_wording import shows

    from golfbox.render.words import say

    names = _bot_names(lang, players)
    view = goldens.deal("6-card", players=players).view(None)
    image = render_table(view, size, names, lang=lang)
    listed = say(lang, "waiting for {who}", who=", ".join(names))
    width = 256 - 62 if size[0] == 256 else 128
    if glyphs.text_width(listed) <= width:
        assert shows(image, listed)
    else:
        assert shows(image, say(lang, "waiting for {n} players", n=players))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_names_the_start_waits_for_are_parted_by_commas(lang):
    """'waiting for Marie Claire Jean Paul' did not say who was who (the names were
    parted by spaces alone), and the seats' own line says 'Ann, Bob'. Commas part them
    on the shared display too (on 128 px, where they do not fit, it counts them)."""
    from test_wording import shows

    from golfbox.render.words import say

    names = ["Marie Claire", "Jean Paul"]
    image = render_table(goldens.deal("6-card", players=2).view(None), (256, 64), names, lang=lang)
    assert shows(image, say(lang, "waiting for {who}", who="Marie Claire, Jean Paul"))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("winners", [(0,), (1, 7), (0, 3, 5)])
def test_the_match_result_says_who_won_in_whole_words(lang, winners):
    """'P2 (GREEDY) AND P8 (MEDIUM) SHARE THE…': a shared win of long names was cut on
    the 128x64 match result. The winners are named when they fit; otherwise the line says
    how many share the win (their rows are inverted under it)."""
    from test_wording import shows

    from golfbox.render.words import say

    names = _bot_names(lang, 8)
    totals = [10 if s in winners else 20 + s for s in range(8)]
    for size in ((128, 64), (256, 64)):
        image = render_match_result(totals, winners, names, size, lang)
        shown = [seat_name for seat_name in (names[s] for s in winners)]
        if len(shown) == 1:
            whole = say(lang, "{who} wins", who=shown[0])
        else:
            whole = say(lang, "{some} and {last} share the win", some=", ".join(shown[:-1]), last=shown[-1])
        if glyphs.text_width(whole) <= size[0]:
            assert shows(image, whole), (size, whole)
        else:
            assert shows(image, say(lang, "{n} players share the win", n=len(winners))), (size, whole)


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("level", ["medium", "greedy", "hard", None])
def test_the_turn_line_names_the_player_to_move_whole(size, lang, level):
    """On 128x64 the turn line has 77 px beside the piles: 'À J2 (MOYEN) DE JOUER' (80 px)
    read 'À J2 (MOYEN) DE J…' on every bot's turn in French, and 'À MARIE-HÉLÈNE DE…'.
    When the sentence does not fit, the shorter one says it ('J2 (MOYEN) JOUE',
    'P2 (MEDIUM) PLAYS'): the name and the verb whole."""
    from test_wording import shows

    from golfbox.render.words import say
    from golfbox.table.settings import TableSettings

    settings = TableSettings(language=lang)
    names = (list(LONG_NAMES) if level is None
             else [settings.display_name(s, level) for s in range(8)])
    round_ = goldens.play_turns(goldens.deal("9-card", players=8), 0)
    scale, box = (1, (51, 0, 128, 8)) if size == (128, 64) else (2, (62, 4, 256, 21))
    for _ in range(8):
        who = names[round_.to_move]
        line = render_table(round_.view(None), size, names, lang=lang).crop(box)
        full = say(lang, "{who} to play", who=who)
        if glyphs.text_width(full, scale) <= box[2] - box[0]:
            assert shows(line, full, scale), full
        else:
            assert shows(line, say(lang, "{who} plays", who=who), scale), full
        goldens.play_turn(round_)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [9, 10])
def test_the_wide_piles_leave_a_blank_row_over_a_third_row_of_scores(lang, players):
    """4-card seats up to 10: on 256x64 a third row of scores begins at y 41, and the
    stock's count and 'pile' under the 34-px piles (y 37-41) ran into its names. The
    piles are shorter then: a blank row parts their words from the scores' accents."""
    from test_wording import shows

    from golfbox.render.table import score_rows, scores_top

    names = (list(LONG_NAMES) * 2)[:players]
    view = goldens.play_turns(goldens.deal("4-card", players=players), 5).view(None)
    shown = render_table(view, (256, 64), names, lang=lang).convert("1")
    top = scores_top(score_rows(players, 256), 256)
    assert top == 41  # the layout this test is about
    assert not any(shown.getpixel((x, top - 3)) for x in range(60))
    assert shows(shown.crop((0, 0, 60, top - 3)), str(view.stock_size))


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_name_too_long_for_the_turn_line_is_cut_before_its_verb(size, lang):
    """A name is any length (settings.py sets no limit): 'Marie-Hélène Dubois-Lefèvre'
    read 'MARIE-HÉLÈNE DUBO…' on the 128-px turn line and 'MARIE-HÉLÈNE DUBOIS-LE…' on
    256, the verb gone. The name is cut short, as the result's verdict cuts it: the verb
    shows whole."""
    from test_wording import shows

    from golfbox.render.words import say

    names = ["Marie-Hélène Dubois-Lefèvre"] * 4
    view = goldens.play_turns(goldens.deal("6-card", players=4), 5).view(None)
    scale, box = (1, (51, 0, 128, 8)) if size == (128, 64) else (2, (62, 4, 256, 21))
    line = render_table(view, size, names, lang=lang).crop(box)
    assert shows(line, say(lang, "{who} plays", who="").strip(), scale)
    assert shows(line, "MARIE", scale)


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [4, 8])
def test_the_reveal_names_a_bot_seat_without_cutting_it(size, lang, players):
    """The reveal's panels are 32 px wide with 8 grids (on 256 px, and 4 a page on 128):
    a bot's seat read 'J2 (FA…'. Its level goes first where its name does not fit: 'J2',
    no word cut; a name that fits stays whole ('P2 (HARD)' with fewer grids)."""
    from test_wording import shows

    from golfbox.render.table import reveal_pages
    from golfbox.table.settings import TableSettings

    settings = TableSettings(language=lang)
    names = [settings.display_name(s, "easy") for s in range(players)]
    view = goldens.play_out(goldens.deal("4-card", players=players)).view(None)
    for page in range(reveal_pages(players, size)):
        image = render_reveal(view, size, names, page=page, lang=lang)
        row = image.crop((0, 8, size[0], 16))
        assert not shows(row, "…"), f"a name cut on page {page + 1}"
        per_page = 8 if size == (256, 64) else 4
        seats = range(page * per_page, min(players, (page + 1) * per_page))
        room = size[0] // max(len(seats), 4) - 3  # a panel, less its margins
        for seat in seats:
            shown = names[seat] if glyphs.text_width(names[seat]) <= room else settings.name(seat, lang)
            assert shows(row, shown), (seat, shown)


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_reveal_totals_of_four_digits_stay_whole_and_apart(size, lang):
    """A knock penalty of 1000 (the bound) makes a knocker's total 1000 and more in one
    round (and 99 rounds of 4-card about 1500). In a 32-px panel 'TOT 1053' is 30 px, as
    'TOT -986': each touched the next panel's total and read as one run with it ('TOT
    1053TOT 328'); 'TOT -1012' was cut ('TOT -10…'). Where a total is too wide for its
    panel less the names' margins, the totals say 'T:' ('T:1053'), each whole."""
    from test_wording import shows

    from golfbox.render.table import reveal_pages

    round_ = goldens.play_out(goldens.deal("polish-poker", players=8, rules={"knock_penalty": 1000},
                                           totals=(0, -1012, 5, 0, 12, 0, 7, 310)), knock_after=3)
    view = round_.view(None)
    assert max(view.totals) >= 1000  # the state tested: the knocker paid 1000
    per_page = 8 if size == (256, 64) else 4
    y = 28 + view.variant.rows * 8  # the totals' row
    for page in range(reveal_pages(8, size)):
        image = render_reveal(view, size, goldens.NAMES[lang], page=page, lang=lang).convert("L")
        panel_w = size[0] // per_page
        for i, seat in enumerate(range(page * per_page, (page + 1) * per_page)):
            x = i * panel_w
            assert shows(image.crop((x, y - 2, x + panel_w, y + 6)), str(view.totals[seat])), seat
            if i:  # three blank columns at least between two panels' totals, as between names
                assert not any(image.getpixel((c, r)) for c in range(x - 2, x + 1)
                               for r in range(y, y + 5)), (seat, "touches the one before")


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_reveal_totals_on_every_page_take_one_form(size):
    """One knocker's 1036 beside seven small totals: had only that one dropped 'TOT', the
    row read 'TOT 19  TOT 95  1036  TOT 31', one number unlike the rest. Where one total
    does not fit, every total of the reveal says 'T:', on every page."""
    from test_wording import shows

    round_ = goldens.play_out(goldens.deal("polish-poker", players=8, rules={"knock_penalty": 1000},
                                           totals=(0, 0, 5, 0, 12, 0, 7, 31)), knock_after=3)
    view = round_.view(None)
    big = [seat for seat in range(8) if view.totals[seat] >= 1000]
    assert big and min(view.totals) < 100  # the state tested: one wide total among small ones
    y = 28 + view.variant.rows * 8
    per_page = 8 if size == (256, 64) else 4
    for page in range(8 // per_page):
        image = render_reveal(view, size, goldens.NAMES["en"], page=page).convert("L")
        row = image.crop((0, y - 2, size[0], y + 6))
        assert not shows(row, "TOT"), page
        for seat in range(page * per_page, (page + 1) * per_page):
            assert shows(row, f"T:{view.totals[seat]}"), seat


# The widest totals the rules allow: 99 rounds (settings.MAX_ROUNDS), each the most a
# round can score with a house rule's number at its bound (MAX_RULE_NUMBER 1000): a
# polish-poker knocker's 60 (three columns of a Jack over a Queen) + 1000, and a 6-card
# four_of_a_kind of -1000 with a 2 over a King beside it (-2).
WIDEST_TOTALS = (99 * -1002, 99 * 1060)


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("players", range(2, 9))
def test_reveal_totals_read_as_totals_up_to_the_widest_the_rules_allow(size, players):
    """Where 'TOT 1053' does not fit a 32-px panel (each 128-px page, 8 grids on 256 px),
    each total showed its number alone: on the mono display, with no dim, the round
    score over it and the total were two bare numbers alike ('21' over '33'). Every total
    of such a reveal says 'T:' ('T:-99198', 29 px), whole in its panel; the round score
    never does. Panels of 42 px and more (2-6 grids on 256 px) keep 'TOT -99198'."""
    from test_wording import shows

    def dealt(totals):
        return goldens.play_out(goldens.deal("6-card", players=players, totals=totals)).view(None)

    widest = [WIDEST_TOTALS[seat % 2] for seat in range(players)]
    scores = dealt((0,) * players).round_scores
    view = dealt(tuple(total - score for total, score in zip(widest, scores)))
    assert list(view.totals) == widest  # the state tested
    score_y, total_y = 20 + view.variant.rows * 8, 28 + view.variant.rows * 8
    per_page = 8 if size == (256, 64) else 4
    for page in range(reveal_pages(players, size)):
        image = render_reveal(view, size, goldens.NAMES["en"], page=page).convert("L")
        seats = range(page * per_page, min(players, (page + 1) * per_page))
        panel_w = size[0] // max(len(seats), 4)
        left = (size[0] - panel_w * len(seats)) // 2
        word = "TOT " if glyphs.text_width(f"TOT {min(widest)}") <= panel_w - 3 else "T:"
        for i, seat in enumerate(seats):
            x = left + i * panel_w
            assert shows(image.crop((x, total_y - 2, x + panel_w, total_y + 6)),
                         f"{word}{view.totals[seat]}"), (page, seat)
            assert not shows(image.crop((x, score_y - 2, x + panel_w, score_y + 6)), "T:"), (page, seat)


def test_reveal_totals_past_the_rules_bounds_show_their_numbers_alone():
    """A match an older golfbox dealt with a knock penalty past today's 1000 (resumed, it is
    finished under it) can reach seven digits: 'T:1234567' does not fit a 32-px panel,
    and 'T:12345…' would say neither. Every total of that reveal shows its number alone."""
    from test_wording import shows

    view = goldens.play_out(goldens.deal("6-card", players=4, totals=(1234000, 3, 5, 7))).view(None)
    assert len(str(view.totals[0])) == 7  # the state tested
    image = render_reveal(view, (128, 64), goldens.NAMES["en"]).convert("L")
    y = 28 + view.variant.rows * 8
    row = image.crop((0, y - 2, 128, y + 6))
    assert not shows(row, "T:") and not shows(row, "TOT")
    for seat in range(4):
        assert shows(row, str(view.totals[seat])), seat


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_a_resumed_penalty_past_the_bound_shows_the_knockers_whole_score_in_the_reveal(size):
    """A match an older golfbox dealt with a knock penalty past today's 1000 is finished
    under it. In a 32-px panel the knocker's '24+123456' read '24+123…': neither the
    penalty nor the score. Where 'raw+penalty' does not fit, the score shows whole."""
    from test_wording import shows

    rules = make_rules("4-card", {"knock_penalty": 123456}, bounded=False)
    round_ = goldens.play_out(Round(get_variant("4-card"), rules, 8, dealer=2, rng=random.Random(2),
                                    round_no=3, rounds=9, totals=(0,) * 8), knock_after=3)
    view = round_.view(None)
    knocker = view.knocker
    assert view.round_scores[knocker] > 123456  # the state tested: the knocker paid it
    per_page = 8 if size == (256, 64) else 4
    image = render_reveal(view, size, page=knocker // per_page)
    panel_w = size[0] // per_page
    x, y = knocker % per_page * panel_w, 20 + view.variant.rows * 8  # the scores' row
    score_row = image.crop((x, y - 2, x + panel_w, y + 6))
    assert shows(score_row, str(view.round_scores[knocker]))
    assert not shows(image.crop((0, y - 2, size[0], y + 6)), "…")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", ["bots", "long"])
def test_a_seat_waiting_for_the_start_reads_whole_words(lang, names):
    """A seat done with its start is told whom it waits for on one line of 128 px:
    'WAIT: MAXIMILIENNE STILL START…', and with 7 others 'WAIT: J2 (GLOUTON), J3…'.
    Several who do not fit are counted ('wait: 7 players still starting'), one long
    name is said alone ('wait: Maximilienne'): no word cut."""
    from test_wording import shows

    from golfbox.render.names import wait_words

    players = 8
    names = _bot_names(lang, players) if names == "bots" else [*LONG_NAMES[:players]]
    round_ = goldens.deal("6-card", players=players)
    for seat in range(players - 1):  # every seat but the last does its start, one by one
        while seat in round_.acting_seats:
            round_.apply(seat, round_.legal_actions(seat)[0])
        view = round_.view(0)
        words = wait_words(view, names, lang)
        assert words
        bottom = render_seat(view, names=names, lang=lang).crop((0, 64 - 8, 128, 64))
        assert not shows(bottom, "…"), words


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_bot_seat_screen_names_its_seat_without_cutting_it(lang):
    """A seat's own name shares its top row with the round ('J1 (G… M3/9'): a bot's seat
    (what a stand-in's or a demo's seat shows) read 'J1 (G…'. Its level goes first: 'J1'."""
    from test_wording import shows

    from golfbox.table.settings import TableSettings

    settings = TableSettings(language=lang)
    names = [settings.display_name(s, "greedy") for s in range(4)]
    view = goldens.play_turns(goldens.deal("6-card", players=4), 2).view(0)
    top = render_seat(view, names=names, lang=lang).crop((0, 0, 128, 7))
    assert not shows(top, "…") and shows(top, settings.name(0, lang))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_doubled_score_reads_as_a_doubling(lang):
    """With knock_penalty = "double" the reveal showed a knocker's 33 doubled as '33+33',
    which reads as a penalty of 33, and the seat 'PENALTY +33'. RULES.md: "double" doubles
    the score. Both shared displays say '33×2', the knocker's own screen 'KNOCK ×2'."""
    from test_wording import shows

    from golfbox.render.words import say

    round_ = goldens.play_out(goldens.deal("polish-poker", players=3, rules={"knock_penalty": "double"}),
                              knock_after=4)
    view = round_.view(None)
    knocker = view.knocker
    raw = view.raw_scores[knocker]
    assert view.round_scores[knocker] == 2 * raw > 0  # the state this test is about
    for size in ((256, 64), (128, 64)):
        shown = render_reveal(view, size=size, lang=lang)
        assert shows(shown, f"{raw}×2") and not shows(shown, f"{raw}+{raw}"), size
    seat = render_seat(round_.view(knocker), lang=lang)
    assert shows(seat, say(lang, "KNOCK {n}", n="×2"))
    assert not shows(seat, say(lang, "KNOCK {n}", n=f"+{raw}"))
    # A number added stays a sum: 'raw+10'.
    plus = goldens.play_out(goldens.deal("polish-poker", players=3), knock_after=4).view(None)
    assert shows(render_reveal(plus, lang=lang), f"{plus.raw_scores[plus.knocker]}+10")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_seat_name_of_eight_letters_shows_beside_the_round(lang):
    """At round 18 of 18 a seat's own name shared its top row with 'R18/18' (23 px) and
    'BENEDICT' read 'BE…'. The name keeps its row whole if the round fits in a shorter
    form ('R18/18', '18/18', 'R9'); else the name is cut beside 'R18', never the round's
    letter (a bare '18' would read as a score). A short name reads as before."""
    from test_wording import shows

    spec = get_variant("6-card")

    def top(name, round_no, rounds):
        round_ = Round(spec, make_rules(spec, {}), 2, dealer=1, rng=random.Random(1),
                       round_no=round_no, rounds=rounds, totals=(0, 0))
        return render_seat(round_.view(0), label=name, lang=lang).crop((0, 0, 128, 8))

    letter = "R" if lang == "en" else "M"
    for name in ("BENEDICT", "MARGARET", "JONATHAN", "FRANÇOIS"):
        assert shows(top(name, 9, 18), name) and shows(top(name, 9, 18), f"{letter}9"), name
        last = top(name, 18, 18)
        assert shows(last, name[:5]) and shows(last, f"{letter}18"), name
    assert shows(top("ANN", 18, 18), "ANN") and shows(top("ANN", 18, 18), f"{letter}18/18")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_final_turn_left_is_said_in_the_singular(lang):
    """'FINAL TURNS LEFT: 1' / 'DERNIERS TOURS : 1' spoke of turns in the plural for the
    last one; two or more keep the count."""
    from test_wording import shows

    from golfbox.render.words import say

    view = goldens.play_turns(goldens.deal("6-card"), 4).view(None)

    def left(n):
        return view._replace(table=view.table._replace(final_turns_left=n))

    one = render_table(left(1), lang=lang)
    assert shows(one, say(lang, "one final turn left"))
    assert not shows(one, say(lang, "final turns left: {n}", n=1))
    assert shows(render_table(left(2), lang=lang),
                 say(lang, "final turns left: {n}", n=2))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
def test_every_final_turn_says_who_knocked_or_went_out(lang, size):
    """The shared display named the knocker only as the last action, on the knock's own
    frame: from the next move on (a bot's, a second later) it said 'one final turn
    left' and nobody said who had knocked, which a player weighs their last turn by.
    Who went out was never said before the reveal ('P2 placed 10♠, 3♥ out'). Each
    final turn now says it beside the turns left."""
    from test_wording import shows

    from golfbox.render.words import say

    names = ["Ann", "Bob", "Marie-Hélène"]
    knocked = goldens.deal("4-card", players=3)
    goldens.finish_start(knocked)
    knocked.apply(knocked.to_move, Action("knock"))
    knocker = knocked.knocker
    goldens.play_turn(knocked)  # the next player's final turn: the knock is no longer the last action
    image = render_table(knocked.view(None), size, names, lang=lang)
    assert shows(image, say(lang, "{who} knocked", who=names[knocker]))
    assert shows(image, say(lang, "one final turn left"))

    out = goldens.deal("9-card", players=3)
    goldens.finish_start(out)
    while out.ender is None:
        goldens.play_turn(out)
    view = out.view(None)
    assert view.final_turns_left == 2
    image = render_table(view, size, names, lang=lang)
    assert shows(image, say(lang, "{who} went out", who=names[view.ender]))
    # The knock's own frame says it once, as the last action, not twice.
    knock = goldens.deal("4-card", players=3)
    goldens.finish_start(knock)
    knock.apply(knock.to_move, Action("knock"))
    image = render_table(knock.view(None), size, names, lang=lang)
    assert not shows(image, say(lang, "{who} knocked", who=names[knock.knocker]) + " ·")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_knocker_drawn_as_another_seat_is_named_whole_on_both_displays(lang):
    """Ştefan (cedilla) and Ștefan (comma below) are drawn alike. Through the final
    turns the 128-px display said 'ŞTEFAN KNOCKED' on a line of its own, and the
    256-px one left the name out: a name is said beside the turns only if told apart,
    a rule for a cut name ('JE…' names nobody) that a whole twin failed too. The
    whole name is said, as the last action and the scores say it. (Settings refuse
    such names since 2026-11-26; a match journaled before keeps them when resumed.)"""
    from test_wording import shows

    from golfbox.render.words import say

    names = ["Ştefan", "Ștefan", "Ann"]
    round_ = goldens.deal("4-card", players=3)
    goldens.finish_start(round_)
    round_.apply(round_.to_move, Action("knock"))
    goldens.play_turn(round_)  # the knock is no longer the last action
    view = round_.view(None)
    knocked = say(lang, "{who} knocked", who=names[view.knocker])
    for size in ((256, 64), (128, 64)):
        image = render_table(view, size, names, lang=lang)
        assert shows(image, knocked) and shows(image, say(lang, "one final turn left")), size


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [5, 6])
def test_the_final_turns_show_on_128_px_beside_a_long_last_action(lang, players):
    """On 128x64 with 5-6 players the last action took both lines the scores leave, and
    the final turns were not said at all when it needed two ('JEAN-BAPTISTINE PLACED
    J♠, 8♥ / OUT'). The final turns keep their line; the last action has one, its name
    cut. A knocker's name cut past telling ('JE…' for Jean-Baptiste or Jean-Baptistine)
    is not shown: the turns stand alone then."""
    from test_wording import shows

    from golfbox.render.names import fit_name, told_apart
    from golfbox.render.words import say

    names = list(goldens.LONG_NAMES[lang][:players])
    for variant in ("4-card", "9-card"):
        round_ = goldens.deal(variant, players=players)
        goldens.finish_start(round_)
        if variant == "4-card":
            round_.apply(round_.to_move, Action("knock"))
            goldens.play_turn(round_)
        while round_.ender is None:
            goldens.play_turn(round_)
        view = round_.view(None)
        image = render_table(view, (128, 64), names, lang=lang)
        left = view.final_turns_left
        turns = (say(lang, "one final turn left") if left == 1 else
                 say(lang, "final turns left: {n}", n=left))
        assert shows(image, turns), variant
        for room in range(10, 60):  # no cut of the ender's name that tells nobody apart
            cut = fit_name(names[view.ender], room, names)
            if not told_apart(cut, names[view.ender], names):
                assert not shows(image, cut + " "), (variant, cut)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
def test_a_stock_made_from_the_pile_is_said(lang, size):
    """When the stock ran out the discard pile became the new stock with no word on any
    display: the stock's count jumped from 0 to 27 and the pile shrank to one card. The
    shared display says so during the turn that follows, and no longer after it."""
    from test_wording import shows

    from golfbox.render.words import say

    round_ = goldens.deal("4-card", players=3)  # its cards stay face down: no going out
    goldens.finish_start(round_)
    words = say(lang, "pile shuffled into a new stock")
    while True:
        before = round_.view(None)
        assert not shows(render_table(before, size, lang=lang), words)
        goldens.play_turn(round_)
        if round_.view(None).stock_size > before.stock_size:
            break
    assert shows(render_table(round_.view(None), size, lang=lang), words)
    round_.apply(round_.to_move, Action("draw"))  # the next turn goes on: still said
    assert shows(render_table(round_.view(None), size, lang=lang), words)
    round_.apply(round_.to_move, Action("place", 0))
    assert not shows(render_table(round_.view(None), size, lang=lang), words)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [5, 7, 8])
def test_a_stock_made_from_the_pile_is_said_on_128_px_beside_a_long_last_action(lang, players):
    """On 128x64 with 5-8 players the scores leave two lines, and a last action that
    took both ('MAXIMILIENNE DREW FROM THE / STOCK') left the new stock unsaid: with 8
    long names on no frame of the turn that follows. It keeps its line as the final
    turns do; the last action has one, its name cut rather than its words."""
    from test_wording import shows

    from golfbox.render.table import describe_last
    from golfbox.render.words import say

    names = list(goldens.LONG_NAMES[lang][:players])
    round_ = goldens.deal("4-card", players=players, seed=3)
    goldens.finish_start(round_)
    while True:
        before = round_.view(None)
        goldens.play_turn(round_)
        if round_.view(None).stock_size > before.stock_size:
            break
    frames = [round_.view(None)]
    round_.apply(round_.to_move, Action("draw"))
    frames.append(round_.view(None))
    for view in frames:
        image = render_table(view, (128, 64), names, lang=lang)
        said = say(lang, "pile shuffled into a new stock")
        assert shows(image, said), describe_last(view, names, lang)
        last = describe_last(view, names, lang, 128)
        assert shows(image, last), last  # on one line, whole but for a name


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_final_turns_are_not_followed_by_a_cut_card_in_hand(lang):
    """On 128x64 'FINAL TURNS LEFT: 2 · MAXIMILIE…' ended in a name cut short: the card
    in hand did not fit beside the final turns. It shows where it fits whole; else the
    final turns stand alone (the last action above just said which card was taken)."""
    from test_wording import shows

    from golfbox.render.card import card_words
    from golfbox.render.words import say

    round_ = goldens.play_turns(goldens.deal("6-card", players=3), 3)
    round_.apply(round_.to_move, Action("take"))  # in hand, in full view
    view = round_.view(None)
    view = view._replace(table=view.table._replace(final_turns_left=2))
    names = ["Maximilienne", "Jean-Baptiste", "Marie-Hélène"]
    final = say(lang, "final turns left: {n}", n=2)
    holds = say(lang, "{who} holds {card}", who=names[view.holder],
                card=card_words(view.held))
    for size, room in (((128, 64), 128), ((256, 64), 256 - 62)):
        image = render_table(view, size, names, lang=lang)
        whole = f"{final} · {holds}"
        if glyphs.text_width(whole) <= room:
            assert shows(image, whole), size
        else:
            assert shows(image, final) and not shows(image, final + " ·"), size


def _inverted(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Is the card in ``box`` drawn inverted (lit inside its frame)?"""
    x, y, _, _ = box
    return bool(image.getpixel((x + 1, y + 1)))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_seat_reveal_marks_each_combination_and_what_it_scored(lang):
    """At the reveal a seat showed its grid and its score, not which lines had combined:
    a player could not check the sum (three Kings -10, two lines of 5s -30 together, a
    kept pair of jokers -4, two columns of Jacks -10 with four_of_a_kind). The cards of
    each combination the engine found are drawn inverted, its score left of its row or
    under its column; the second line of a pair scoring together points back (▲, ◀) to
    the first's. Plain lines are left as they were."""
    from test_wording import shows

    def marks(round_, seat, rows, columns):
        """``rows``/``columns``: index -> the words beside it, None for a plain one."""
        view = round_.view(seat)
        image = render_seat(view, lang=lang)
        variant = view.variant
        boxes = (seat_render.grid_boxes(variant.rows, variant.cols, revealed=True)
                 if variant.rows >= 3 else seat_render.grid_boxes(variant.rows, variant.cols))
        bottom = max(y + h for _, y, _, h in boxes)
        for row in range(variant.rows):
            x, y, w, h = boxes[row * variant.cols]
            beside = image.crop((0, y, x, y + h))
            words = rows.get(row)
            assert all(_inverted(image, boxes[row * variant.cols + c]) for c in range(variant.cols)) \
                == (words is not None), (seat, "row", row)
            if words is not None:
                assert shows(beside, words), (seat, row, words)
            else:
                assert beside.getbbox() is None, (seat, row)
        for col in range(variant.cols):
            x, _, w, _ = boxes[col]
            under = image.crop((x, bottom, x + w, seat_render.PROMPT_Y - 2))
            words = columns.get(col)
            if words is not None:
                assert all(_inverted(image, boxes[r * variant.cols + col]) for r in range(variant.rows))
                assert shows(under, words), (seat, col, words)
            else:
                assert under.getbbox() is None, (seat, "column", col)
        return image

    six = goldens.revealed_six("6-card")  # four_of_a_kind -10
    marks(six, 0, {}, {0: "-10", 2: "◀"})
    marks(six, 1, {}, {0: "0"})
    marks(six, 2, {}, {1: "0"})
    polish = goldens.revealed_six("polish-poker")  # negative_pairs_keep, knock_penalty double
    knocked = marks(polish, 0, {}, {1: "0"})
    marks(polish, 1, {}, {0: "-4", 1: "0"})
    # A 3-row grid's cards are narrower at the reveal, for the words left of its rows.
    nine = goldens.revealed_9card()  # rows+columns
    went_out = marks(nine, 0, {0: "-10", 2: "0"}, {})
    marks(nine, 1, {0: "-30", 2: "▲"}, {})
    marks(nine, 2, {0: "-20", 2: "0"}, {})
    marks(nine, 3, {}, {0: "0", 2: "0"})
    # A notice on its bar (a button pressed at the reveal) leaves the columns' words whole.
    from golfbox.render.words import say

    noticed = render_seat(nine.view(3), message=say(lang, "● deals the next round"), lang=lang)
    bar_top = seat_render.PROMPT_Y - 3  # its top row clears the line's accents
    assert noticed.getpixel((0, bar_top)) and not noticed.getpixel((0, bar_top - 1))
    assert shows(noticed.crop((0, 48, seat_render.GRID_W, bar_top - 1)), "0")  # a blank row over it
    # The penalty says why: Ann went out with one lower score (+5), or knocked (×2).
    assert shows(went_out, say(lang, "WENT OUT {n}", n="+5"))
    assert shows(knocked, say(lang, "KNOCK {n}", n="×2"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_seat_penalty_says_why_within_the_side_column(lang):
    """'PENALTY +5' did not say for what. A finisher's penalty is +5 for each lower
    score, up to +35: where 'WENT OUT +15' (48 px) does not fit the side column (44),
    it says 'OUT +15', never a word cut short."""
    from test_wording import shows

    from golfbox.render import glyphs
    from golfbox.render.words import say

    view = goldens.revealed_9card().view(0)
    for penalty in (5, 15, 35):
        scores = list(view.raw_scores)
        scores[0] += penalty
        shown = view._replace(table=view.table._replace(round_scores=tuple(scores)))
        words = seat_render.penalty_words(shown, lang)
        assert words in (say(lang, "WENT OUT {n}", n=f"+{penalty}"), say(lang, "OUT {n}", n=f"+{penalty}"))
        assert glyphs.text_width(words) <= seat_render.SIDE_W - 2
        assert shows(render_seat(shown, lang=lang).crop((seat_render.SIDE_X, 40, 128, 50)), words)
    assert seat_render.penalty_words(shown._replace(
        table=shown.table._replace(round_scores=tuple(scores))), "en") == "OUT +35"


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_seats_past_the_names_given_are_shown_by_number(size):
    """Names for the first seats only (an empty one too): the others are 'P3', 'P4' on
    the scores, never a missing name or a crash at the first seat past the list."""
    from test_wording import shows

    view = goldens.play_turns(goldens.deal("6-card", players=4), 3).view(None)
    shown = render_table(view, size, ("Ann", ""))
    for words in ("ANN", "P2", "P3", "P4"):
        assert shows(shown, words), words
