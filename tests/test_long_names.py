"""Long names at a table: every display tells the players apart and keeps each name
in its place.

Names of any length are accepted (settings._name), and close ones sit at real tables
('MAXIMILIEN' and 'MAXIMILIENNE'). Where a name is cut, the cut says so ('…') and
leaves it told apart from every other name at the table. Checked on the pixels: two
players' names swapped must change the picture of each place that shows them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/ is not a package
import goldens  # noqa: E402

from golfbox.engine import Action  # noqa: E402
from golfbox.render import (glyphs, render_match_result, render_reveal, render_seat,  # noqa: E402
                            render_table, reveal_pages)
from golfbox.render.table import LINE, score_rows, scores_top  # noqa: E402
from golfbox.render import seat as seat_render  # noqa: E402

LONG = goldens.LONG_NAMES  # pairs of close names, each pair in every table of 2, 4, 6 and 8
SIZES = ((256, 64), (128, 64))
TABLES = [(lang, players) for lang in LONG for players in (2, 4, 6, 8)]


def swapped(names: tuple[str, ...], i: int, j: int) -> list[str]:
    out = list(names)
    out[i], out[j] = out[j], out[i]
    return out


def same(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is None


def told_apart(render, names: tuple[str, ...], boxes: dict[int, tuple[int, int, int, int]]) -> list:
    """The pairs of seats whose names, swapped, leave a seat's box unchanged: those
    two names read the same there."""
    before = render(list(names))
    blurred = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            after = render(swapped(names, i, j))
            if same(before, after, boxes[i]) or same(before, after, boxes[j]):
                blurred.append((names[i], names[j]))
    return blurred


def ink_in(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return image.crop(box).getbbox() is not None


# ----------------------------------------------------------- the shared rule

@pytest.mark.parametrize("lang", LONG)
@pytest.mark.parametrize("width", range(16, 90, 3))
def test_fit_name_fits_says_so_and_tells_apart(lang, width):
    from golfbox.render.names import fit_name
    table = LONG[lang]
    shown = [fit_name(name, width, table) for name in table]
    for name, form in zip(table, shown):
        if glyphs.text_width("M…MM") > width:
            continue  # no room to tell anyone apart
        assert glyphs.text_width(form) <= width, (form, width)
        assert form == name or "…" in form, form  # no letter goes without a sign
        head, _, tail = form.partition("…")
        assert name.startswith(head.rstrip()) and name.endswith(tail)
    if glyphs.text_width("M…MM") <= width:
        assert len({form.upper() for form in shown}) == len(table), shown


def test_fit_name_examples():
    from golfbox.render.names import fit_name
    table = LONG["en"]
    assert fit_name("MAXIMILIEN", 60, table) == "MAXIMILIEN"  # whole where it fits
    # Its first letters alone would also begin 'MAXIMILIEN': the last ones follow.
    assert fit_name("MAXIMILIENNE", 44, table) == "MAXIMI…NE"
    # 'MAXIMILIEN…' would read as 'MAXIMILIEN' cut short.
    assert fit_name("MAXIMILIENNE", 52, table) == "MAXIMILI…NE"
    assert fit_name("MAXIMILIEN", 28, table) == "MAX…EN"
    assert fit_name("MAXIMILIENNE", 28, table) == "MAX…NE"
    assert fit_name("ALEXANDRA", 30, ["ALEXANDRA", "BOB"]) == "ALEXAN…"  # nothing to tell apart
    # A bot's seat drops its level first, as before; the level is no one's name.
    assert fit_name("P2 (HARD)", 20, ["P1", "P2 (HARD)"]) == "P2"


def test_cut_name_counts_letters_and_tells_apart():
    from golfbox.render.names import cut_name
    table = LONG["fr"]
    assert cut_name("Jean-Baptiste", 8, table) == "Jean-…te"
    assert cut_name("Jean-Baptistine", 8, table) == "Jean-…ne"
    assert cut_name("Maximilien", 8, ["Maximilien", "Bob"]) == "Maximil…"
    assert cut_name("Bob", 8, table) == "Bob"


# ------------------------------------------------------------ the score cells

def _mid(variant: str, players: int):
    r = goldens.play_turns(goldens.deal(variant, players=players), 3)
    r = goldens.until_my_turn(r, r.to_move)
    r.apply(r.to_move, Action("draw"))
    return r.view(None)


def _cells(players: int, width: int) -> dict[int, tuple[int, int, int, int]]:
    """Each seat's score cell, its bar's columns (the 3 px after it part it from the next)."""
    rows = score_rows(players, width)
    per_row = -(-players // rows)
    cell_w = width // per_row
    top = scores_top(rows, width)
    return {s: ((s % per_row) * cell_w, top + (s // per_row) * LINE - 2,
                (s % per_row + 1) * cell_w - 3, top + (s // per_row) * LINE + 6)
            for s in range(players)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang,players", TABLES)
def test_score_cells_tell_long_names_apart(lang, players, size):
    view = _mid("9-card", players)
    names = LONG[lang][:players]
    assert told_apart(lambda n: render_table(view, size, n, lang=lang), names,
                      _cells(players, size[0])) == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang,players", TABLES)
def test_score_cells_keep_names_in_the_cell(lang, players, size):
    """The 3 columns after each cell stay dark: no name (nor its total) runs into the
    next one, nor off the screen's edge."""
    image = render_table(_mid("9-card", players), size, list(LONG[lang][:players]), lang=lang)
    for seat, (left, top, right, bottom) in _cells(players, size[0]).items():
        assert not ink_in(image, (right, top, right + 3, bottom)), seat


# ------------------------------------------------------------- the reveal

def _panel_boxes(players: int, width: int, page: int) -> dict[int, tuple[int, int, int, int]]:
    per_page = 8 if width == 256 else 4
    seats = range(page * per_page, min(players, (page + 1) * per_page))
    panel_w = width // max(len(seats), 4)
    left = (width - panel_w * len(seats)) // 2
    return {seat: (left + i * panel_w, 7, left + (i + 1) * panel_w, 17)
            for i, seat in enumerate(seats)}


@pytest.mark.parametrize("variant", ("4-card", "6-card", "polish-poker", "9-card"))
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang,players", TABLES)
def test_reveal_panels_tell_long_names_apart(lang, players, size, variant):
    view = goldens.play_out(goldens.deal(variant, players=players)).view(None)
    names = LONG[lang][:players]
    for page in range(reveal_pages(players, size)):
        boxes = _panel_boxes(players, size[0], page)
        seats = sorted(boxes)
        on_page = tuple(names[s] for s in seats)

        def render(shown, seats=seats):
            full = list(names)
            for seat, name in zip(seats, shown):
                full[seat] = name
            return render_reveal(view, size, full, page=page, lang=lang)

        assert told_apart(render, on_page, {i: boxes[s] for i, s in enumerate(seats)}) == []


# ------------------------------------------------------- a seat's top corner

@pytest.mark.parametrize("lang,players", TABLES)
def test_seat_corner_tells_long_names_apart(lang, players):
    """Each seat's own name beside the round: seats of close names read differently,
    and the name never reaches the round."""
    names = list(LONG[lang][:players])
    corners = set()
    for seat in range(players):
        image = render_seat(view_for(seat, players), names=names, lang=lang)
        corners.add(image.crop((seat_render.SIDE_X, 0, 128, 8)).tobytes())
    assert len(corners) == players
    for seat in range(players):
        name, round_words = seat_render.top_row(names[seat], 3, 9, lang, names)
        assert (glyphs.text_width(name) + seat_render.TOP_GAP + glyphs.text_width(round_words)
                <= seat_render.SIDE_W)


def view_for(seat: int, players: int):
    r = goldens.play_turns(goldens.deal("6-card", players=players), 3)
    return r.view(seat)


# --------------------------------------------------------- the match's result

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang,players", TABLES)
def test_match_result_tells_long_names_apart(lang, players, size):
    totals = tuple(10 + 7 * s for s in range(players))
    names = LONG[lang][:players]
    render = lambda n: render_match_result(totals, (0,), n, size, lang)  # noqa: E731
    everyone = {s: (0, 20, size[0], 64) for s in range(players)}
    assert told_apart(render, names, everyone) == []


# ------------------------------------------------ the lobby and the messages

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LONG)
def test_lobby_lists_long_names_apart(lang, size):
    """'playing: …' with eight long names cuts them shorter, each still its own."""
    from golfbox.render import render_lobby
    names = LONG[lang]

    def render(shown):
        return render_lobby(size, "golfbox", ["6-card"], 0, ", ".join(shown), "hold ●", lang)

    everyone = {s: (0, 0, size[0], 64) for s in range(len(names))}
    assert told_apart(render, names, everyone) == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LONG)
def test_a_message_cut_short_still_says_who(lang, size):
    """A fault too long for its bar has the names in it cut shorter: the one it names
    must still be told from the others at the table."""
    names = ("Marie-Hélène Dubois-Lefèvre", "Marie-Hélène Dubois-Lefebvre") + LONG[lang][2:]
    view = _mid("9-card", 8)
    for seat in (0, 1):
        def render(shown, seat=seat):
            words = "2/2 " + goldens.fault_words(lang, shown[seat])
            return render_table(view, size, shown, message=words, lang=lang)
        bar = (0, 14, size[0], scores_top(score_rows(8, size[0]), size[0]) - 3)
        assert not same(render(list(names)), render(swapped(names, 0, 1)), bar), names[seat]


# ------------------------------------------------------- whom a seat waits for

def test_wait_words_cut_the_name_not_the_wait():
    """'wait: {who}' where even that is too wide: the name is cut, told apart."""
    from golfbox.render.names import wait_words
    names = ["MARIE-HÉLÈNE DE LA FONTAINE-MORAND", "MARIE-HÉLÈNE DE LA FONTAINE-MOREAU"]
    r = goldens.play_turns(goldens.deal("6-card", players=2), 1)
    mover = r.to_move
    words = wait_words(r.view(1 - mover), names, "en", 128)
    assert words.startswith("wait: MARIE") and words.endswith(names[mover][-2:]), words
    assert glyphs.text_width(words) <= 128
    other = wait_words(r.view(1 - mover), swapped(tuple(names), 0, 1), "en", 128)
    assert other != words


# ------------------------------------------------------------ the reveal's head

XL = ("Marie-Hélène Dubois-Lefèvre", "Marie-Hélène Dubois-Lefebvre", "Jean-Baptiste de la Tour",
      "Jean-Baptiste de la Roche", "Françoise-Xavière", "François-Xavier", "Maximilienne",
      "Maximilien")


@pytest.mark.parametrize("names", (LONG["en"], LONG["fr"], XL))
@pytest.mark.parametrize("lang", LONG)
def test_reveal_head_cuts_the_name_not_the_verb(lang, names):
    """'R3/9 · JEAN-BAPTISTINE WENT…' lost what the seat did: now the name is cut
    (told apart), the verb whole, and neither reaches the page number."""
    from golfbox.render.table import reveal_head
    from golfbox.render.words import say
    for variant in ("4-card", "6-card", "polish-poker", "9-card"):
        for players in (2, 4, 6, 8):
            view = goldens.play_out(goldens.deal(variant, players=players)).view(None)
            if view.knocker is None and view.ender is None:
                continue
            ender = view.knocker if view.knocker is not None else view.ender
            verb = say(lang, "{who} knocked" if view.knocker is not None else "{who} went out", who="")
            for size in SIZES:
                pages = reveal_pages(players, size)
                room = size[0] - (glyphs.text_width(f"1/{pages}") + 4 if pages > 1 else 0)
                head = reveal_head(view, size, list(names[:players]), 0, lang)
                assert head.endswith(verb), (head, size)
                assert glyphs.text_width(head) <= room, (head, size)
                partner = ender ^ 1
                if partner < players:
                    other = reveal_head(view, size, swapped(names[:players], ender, partner), 0, lang)
                    assert head != other, head


# ----------------------------------------------------- who reads the rules

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LONG)
def test_rules_head_tells_the_reader_apart(lang, size):
    """'JEAN-BA… READS THE RULES' was either of two players on 128x64."""
    from golfbox.engine import get_variant, make_rules
    from golfbox.render.rules import render_rules, rules_pages
    variant = get_variant("9-card")
    pages = rules_pages(variant, make_rules(variant, {}), lang)
    names = LONG[lang]

    heads = {render_rules(size, pages, 0, reader, "", lang, table=names).crop((0, 0, size[0], 9)).tobytes()
             for reader in names}
    assert len(heads) == len(names)


# ------------------------------------------------ a seat's name as a notice

@pytest.mark.parametrize("lang", LONG)
def test_notice_title_tells_the_seat_apart(lang):
    """A seat a bot plays, or a pause, titles the seat's screen with its name in big
    letters: cut, it stays told apart ('Françoise-Xavi…' could be two names)."""
    from golfbox.render import render_notice
    names = ("Françoise-Xavière Dubois", "Françoise-Xavière Dupont") + LONG[lang][2:]

    notices = {render_notice((128, 64), name, "a bot plays this seat", table=names).tobytes()
               for name in names}
    assert len(notices) == len(names)


def test_the_table_names_who_reads_the_rules_apart(sim_table):
    """Through the table service: Jean-Baptiste and Jean-Baptistine reading the rules
    in the lobby are two different heads on a 128x64 shared display."""
    from golfbox.hal.base import Button
    names = LONG["fr"]
    table = sim_table(seats=8, names=dict(enumerate(names)), shared_size=(128, 64))
    heads = []
    for seat in (6, 7):
        table.press(seat, Button.RIGHT)  # not joined: ◀▶ read the rules
        heads.append(table.shared.image.crop((0, 0, 128, 9)).tobytes())
        table.press(seat, Button.BACK)
    assert heads[0] != heads[1]


# ------------------------------------------------------------ the last action

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LONG)
def test_last_action_cuts_the_name_not_what_was_done(lang, size):
    """On one line (8 players on 128x64; the wide display's line) a long name pushed
    out the action: 'MARIE-HÉLÈNE DUBOIS-LEFEBVRE A…'. Now the name is cut, told
    apart, and what it did stays whole."""
    from golfbox.render import describe_last
    for turns in range(1, 9):
        r = goldens.play_turns(goldens.deal("9-card", players=8), turns)
        view = r.view(None)
        actor = view.last.seat
        width = size[0] - (62 if size == (256, 64) else 0)
        words = describe_last(view, list(XL), lang, width)
        whole = describe_last(view, list(XL), lang)
        done = whole[len(XL[actor]):]  # what the seat did, after its name
        assert words.endswith(done) and glyphs.text_width(words) <= width, words
        other = describe_last(view, swapped(XL, actor, actor ^ 1), lang, width)
        assert other != words, words



# -------------------------------------------------------------- the info line

@pytest.mark.parametrize("lang", LONG)
def test_info_line_cuts_the_name_not_the_card(lang):
    """'MARIE-HÉLÈNE DUBOIS-LEFÈVRE TIENT K♣' is 146 px: on 128x64 the card went
    ('… TIE…'). Now the name is cut (told apart), the card whole."""
    from golfbox.render.card import card_words
    from golfbox.render.table import _info_words
    for seat in range(4):
        r = goldens.until_my_turn(goldens.deal("9-card", players=4), seat)
        r.apply(seat, Action("take"))
        view = r.view(None)
        words = _info_words(view, list(XL[:4]), lang, 128)
        assert words.endswith(card_words(view.held)) and glyphs.text_width(words) <= 128, words
        assert words != _info_words(view, swapped(XL[:4], seat, seat ^ 1), lang, 128)


@pytest.mark.parametrize("lang", LONG)
def test_info_line_names_the_one_still_turning_up(lang):
    """'waiting for {who}' with one long name: the name is cut, not 'waiting for'."""
    from golfbox.render.table import _info_words
    from golfbox.render.words import say
    r = goldens.deal("6-card", players=2)
    r.apply(0, r.legal_actions(0)[0])
    while r.phase == "start" and r.start_pending[0]:
        r.apply(0, r.legal_actions(0)[0])
    view = r.view(None)
    assert view.start_pending == (0, 2) or view.start_pending[1]
    names = ["Jean-Baptiste de la Tour-Maubourg", "Jean-Baptiste de la Tour-Montbrun"]
    words = _info_words(view, names, lang, 128)
    head = say(lang, "waiting for {who}", who="")
    assert words.startswith(head.rstrip()) and glyphs.text_width(words) <= 128, words
    assert words != _info_words(view, swapped(tuple(names), 0, 1), lang, 128)


# ----------------------------------------------------- a seat's lobby title

@pytest.mark.parametrize("lang", LONG)
def test_lobby_seat_title_cuts_the_name_not_what_to_press(lang, sim_table):
    """'Françoise-Xavière: press ● to j…' (133 px on 128): the name is cut, told
    apart, and what to press stays whole; joined, '…: you play' the same."""
    from golfbox.hal.base import Button
    from golfbox.render.words import say
    names = ("Françoise-Xavière Dubois", "Françoise-Xavière Dupont", "Ann", "Bob")
    table = sim_table(seats=4, names=dict(enumerate(names)), language=lang)
    svc = table.service
    for joined in (False, True):
        titles = []
        for seat in (0, 1):
            if joined:
                table.press(seat, Button.OK)
            title = svc.current.seat_frame(seat, (128, 64))[0][1]
            words = say(lang, "{who}: you play" if joined else "{who}: press ● to join", who="")
            assert title.endswith(words.strip()) and glyphs.text_width(title) <= 128, title
            titles.append(title)
        assert titles[0] != titles[1], titles


# ------------------------------------------------------- a message on a seat

@pytest.mark.parametrize("lang", LONG)
def test_a_seats_message_cuts_names_before_its_words(lang):
    """On a seat's bar (2 lines of 124 px) 'MARIE-HÉLÈNE DUBOIS-LEFÈVRE'S SEAT IS
    UNPLU…' lost what to expect; as on the shared display, the names in it are cut
    shorter first (told apart), then its own words if need be."""
    from golfbox.render.seat import message_lines
    from golfbox.render.words import say
    for who in XL[:2]:
        for message in ("2/2 " + goldens.fault_words(lang, who),
                        say(lang, "{who} is away: a bot plays for it until it is back", who=who)):
            lines = message_lines(message, list(XL))
            assert len(lines) <= 2 and all(glyphs.text_width(line) <= 124 for line in lines)
            assert " ".join(lines).endswith(message[-12:]), (message, lines)
        ends = [message_lines("2/2 " + goldens.fault_words(lang, who), list(XL)) for who in XL[:2]]
    assert ends[0] != ends[1]
