"""Golden screens: typical frames of every variant, rendered from real engine states.

    python tests/goldens.py --regenerate   # rewrite tests/goldens/*.png after a deliberate change
    python tests/goldens.py --docs         # rewrite the README pictures in docs/img (×4)

tests/test_render.py compares fresh renders with tests/goldens/*.png pixel for
pixel. States come from seeded rounds and a fixed, simple way of playing, so
they are the same on every machine.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable as a script from anywhere
    sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw  # noqa: E402

from golfbox.engine import (JOKER, RANK_NAMES, Action, Round, get_variant, make_rules,  # noqa: E402
                            parse_card)
from golfbox.hal.base import Button, EventKind  # noqa: E402
from golfbox.render import (  # noqa: E402
    render_lobby,
    render_match_result,
    render_notice,
    render_reveal,
    render_seat,
    render_table,
)
from golfbox.render.card import card_words, draw_back, draw_face, draw_slot, draw_small_face  # noqa: E402
from golfbox.render.glyphs import draw_text  # noqa: E402
from golfbox.render.names import wait_words  # noqa: E402
from golfbox.render.words import say  # noqa: E402
from golfbox.table import screens as table_frames  # noqa: E402
from golfbox.table.lobby import Lobby  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "goldens"
DOCS_DIR = ROOT / "docs" / "img"
# Players' names by language: the French ones carry accents, as real names do.
NAMES = {"en": ("Ann", "Bob", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal"),
         "fr": ("Anne", "Benoît", "Cléo", "Dany", "Ève", "Fanny", "Gaël", "Hugo")}
# Long names, in pairs that begin alike: where one is cut, it must stay told apart.
LONG_NAMES = {"en": ("MAXIMILIEN", "MAXIMILIENNE", "JEAN-BAPTISTE", "JEAN-BAPTISTINE",
                     "ALEXANDRA", "ALEXANDRE", "CHRISTOPHER", "CHRISTOPHE"),
              "fr": ("Maximilien", "Maximilienne", "François-Xavier", "Françoise-Xavière",
                     "Marie-Hélène", "Marie-Héloïse", "Jean-Baptiste", "Jean-Baptistine")}

# Names in Cyrillic and Greek, as a family writes them: capitals with their own glyphs,
# some drawn as Latin ones, some hanging under the line (Д, Ц, Щ) or marked (Й, Ё, Ї).
SCRIPT_NAMES = ("Иван", "Мария", "Γιώργος", "Дмитрий", "Ελένη", "Щукин", "Ђорђе", "Фёдор")
# Latin names with marks over or under their letters beyond French and German ones (Ł Ř
# Ğ Ș Ś Ő Ã Ț): each was drawn as its plain letter. Țurcan sits in the last row of scores.
MARKED_NAMES = ("Łukasz", "Dvořák", "Ağca", "Ștefan", "Śmigły", "Kőrösi", "João", "Țurcan")
# Letters drawn as their plain letter before (Maltese Ħ, Icelandic Þ, Sámi Ŧ Ŋ, Catalan Ŀ,
# old Latvian Ŗ; Vietnamese horns Ư Ơ, Pinyin carons Ǐ Ǎ). Áŋŋá and Ŗūta, whose letters
# hang, sit in the last row of scores.
STROKED_NAMES = ("Ħanna", "Þóra", "Trương", "Lǐ Nǎ", "Ŧiina", "Coŀlet", "Áŋŋá", "Ŗūta")
# Vietnamese names: a tone over a letter (Ủ), beside its own mark (Ễ Ằ) or a dot under
# it (Ạ Ậ), each left out before (Phạm drawn PHAM). Hồ Thụy and Đặng Ngọc, whose dots
# hang, sit in the last row of scores.
VIETNAMESE_NAMES = ("Phạm Hằng", "Nguyễn Thủy", "Trần Đức", "Lê Thị Nở", "Bùi Tuấn",
                    "Đỗ Quỳnh", "Hồ Thụy", "Đặng Ngọc")
# A dot below a consonant (Yoruba Ṣ Ọ; transliterated Arabic and Sanskrit Ḥ Ẓ Ḍ Ṛ Ṃ Ṇ): Ṣ
# was drawn as Ş, Ḥ as H. Ṣọla sits beside Şola; Ṭunde and Ḳaḷa in the last row of scores.
DOTTED_NAMES = ("Ṣọla", "Şola", "Ḥasan", "Ẓahra", "Ḍiya Ṛṣi", "Ṃaṇi", "Ṭunde", "Ḳaḷa")
# Names with ASCII's signs the font lacked ($ @ [ \\ ] ^ { | } ~): each was refused.
SIGN_NAMES = ("Bob [kid]", "@dan", "Jo|Al", "Ana~", "Ca$h", "{Zed}", "Li^2", "Ed\\Flo")


def deal(variant: str, players: int = 4, seed: int = 1, rules: dict | None = None,
         round_no: int = 3, totals: tuple[int, ...] | None = None) -> Round:
    """A seeded round in the middle of a match (round 3 of 9, some totals already)."""
    spec = get_variant(variant)
    if totals is None:
        totals = tuple((7 * s + 5) % 23 - 4 for s in range(players))
    return Round(spec, make_rules(spec, rules or {}), players, dealer=(round_no - 1) % players,
                 rng=random.Random(seed), round_no=round_no, rounds=9, totals=totals)


def first_face_down(round_: Round, seat: int) -> int:
    view = round_.view(seat)
    return next(p for p in range(round_.variant.size) if not view.face_up[seat] >> p & 1)


def finish_start(round_: Round) -> None:
    """Every seat does its start: turns up its first face-down cards, or says ready."""
    while round_.phase == "start":
        seat = round_.acting_seats[0]
        legal = round_.legal_actions(seat)
        round_.apply(seat, legal[0])


def play_turn(round_: Round) -> None:
    """One plain turn of the seat to move: first-turn flips, then draw and place on the
    first face-down card (or discard when it may, every third turn)."""
    seat = round_.to_move
    while round_.first_flips[seat]:
        round_.apply(seat, Action("flip", first_face_down(round_, seat)))
    round_.apply(seat, Action("draw"))
    kinds = {a.kind for a in round_.legal_actions(seat)}
    if "discard" in kinds and round_.turns % 3 == 2:
        round_.apply(seat, Action("discard"))
        if round_.phase == "flip_option":
            round_.apply(seat, Action("pass"))
        return
    size = round_.variant.size
    if not round_.variant.place_face_up:  # 4-card: cards stay face down, spread the places
        target = round_.turns % size
    elif round_.face_up[seat] != (1 << size) - 1:
        target = first_face_down(round_, seat)
    else:
        target = 0
    round_.apply(seat, Action("place", target))


def play_turns(round_: Round, turns: int) -> Round:
    finish_start(round_)
    for _ in range(turns):
        play_turn(round_)
    return round_


def play_out(round_: Round, knock_after: int = 6) -> Round:
    """Play until the round is over; in knocking variants the seat to move knocks after a while."""
    finish_start(round_)
    while not round_.over:
        seat = round_.to_move
        if round_.turns >= knock_after and Action("knock") in round_.legal_actions(seat):
            round_.apply(seat, Action("knock"))
        else:
            play_turn(round_)
    return round_


def until_my_turn(round_: Round, seat: int) -> Round:
    """Play until it is ``seat``'s turn, and make its first-turn flips (9-card)."""
    finish_start(round_)
    while round_.to_move != seat:
        play_turn(round_)
    while round_.first_flips[seat]:
        round_.apply(seat, Action("flip", first_face_down(round_, seat)))
    return round_


# Grids the reveal marks, one round of each kind (tests/test_render.py checks the marks).
# 9-card, rows+columns: three Kings -10 and a line of 7s 0 (Ann went out, +5 for Bob's
# lower score); two rows of 5s -30 together; three jokers -20 and 4s 0; two columns 0.
REVEAL_9CARD = ("K K K / 4 2 3 / 7 7 7", "5 5 5 / 6 A 9 / 5 5 5", "JK JK JK / 10 3 Q / 4 4 4",
                "8 3 Q / 8 6 Q / 8 2 Q")
# 6-card, four_of_a_kind -10: two columns of Jacks -10 together; a pair 0; a pair of 2s 0.
REVEAL_6CARD = ("J 4 J / J 7 J", "5 9 K / 5 3 8", "2 2 Q / 6 2 10")
# polish-poker, negative_pairs_keep and a doubled knock: Ann knocks on 21 (42); a pair
# of jokers keeps its -4 beside a pair of 4s 0.
REVEAL_POLISH = ("Q 9 K / 8 9 3", "JK 4 9 / JK 4 2", "6 6 A / 6 7 A")
_FILLER = "A 6 9 3 8 K".split()  # cards dealt and replaced before the grids above are whole


def _words(grid: str) -> list[str]:
    return grid.replace("/", " ").split()


def _rows(words: list[str], cols: int) -> str:
    return " / ".join(" ".join(words[i:i + cols]) for i in range(0, len(words), cols))


def revealed_9card() -> Round:
    """REVEAL_9CARD, played out: each seat turns up its first row, then places the rest
    from the stock, stacked so that the grids end as written; Ann goes out first."""
    from engine_helpers import stacked_round

    finals = [_words(g) for g in REVEAL_9CARD]
    dealt = [_rows(f[:3] + [_FILLER[(s + i) % 6] for i in range(6)], 3) for s, f in enumerate(finals)]
    stock = [f[3 + turn] for turn in range(6) for f in finals]
    r = stacked_round("9-card", dealt, discard="10", stock=" ".join(stock),
                      rules={"lines": "rows+columns"}, totals=(3, -2, 11, 6), round_no=4, rounds=9)
    while not r.over:
        seat = r.to_move
        while r.first_flips[seat]:
            r.apply(seat, Action("flip", first_face_down(r, seat)))
        place = first_face_down(r, seat)
        r.apply(seat, Action("draw"))
        r.apply(seat, Action("place", place))
    return r


def revealed_six(variant: str) -> Round:
    """REVEAL_6CARD (6-card, four_of_a_kind) or REVEAL_POLISH (polish-poker, a doubled
    knock): in 6-card Ann places the stock's cards until her grid is whole, in
    polish-poker she knocks at once; the others draw and discard."""
    from engine_helpers import stacked_round

    polish = variant == "polish-poker"
    grids = REVEAL_POLISH if polish else REVEAL_6CARD
    rules = ({"negative_pairs_keep": True, "knock_penalty": "double"} if polish
             else {"four_of_a_kind": -10})
    ann = _words(grids[0])
    dealt = list(grids) if polish else [_rows(ann[:2] + _FILLER[:4], 3), *grids[1:]]
    stock = [] if polish else [w for turn in range(4) for w in [ann[2 + turn], *_FILLER[turn:turn + 2]]]
    r = stacked_round(variant, dealt, discard="10", stock=" ".join(stock), rules=rules,
                      totals=(3, -2, 11), round_no=4, rounds=9, rng=random.Random(3))
    finish_start(r)
    while not r.over:
        seat = r.to_move
        if polish and seat == 0:
            r.apply(seat, Action("knock"))
            continue
        r.apply(seat, Action("draw"))
        if seat == 0:
            r.apply(seat, Action("place", first_face_down(r, seat)))
        else:
            r.apply(seat, Action("discard"))
            if r.phase == "flip_option":
                r.apply(seat, Action("pass"))
    return r


def fault_words(lang: str, who: str, takeover_after: int = 120) -> str:
    """A seat node's fault as Session.link_changed words it: whose seat, then the countdown."""
    return (say(lang, "{who}'s seat is unplugged", who=who) + " · "
            + say(lang, "a bot plays in {n} s", n=takeover_after))


# ----------------------------------------------------------------- the screens

def seat_screens(lang: str = "en") -> dict[str, Callable[[], Image.Image]]:
    screens: dict[str, Callable[[], Image.Image]] = {}

    def add(name: str, make: Callable[[], Image.Image]) -> None:
        screens[name] = make

    def prompt(verb: str) -> str:  # what SeatInput says with the cursor on a choice
        return say(lang, "◀▶ move · ● {verb}", verb=say(lang, verb))

    for variant in ("4-card", "6-card", "polish-poker", "9-card"):
        tag = variant.replace("-", "")

        def own_turn_stock(variant=variant):
            r = until_my_turn(play_turns(deal(variant), 5), 1)
            return render_seat(r.view(1), cursor="stock", prompt=prompt("draw"), lang=lang)

        def holding(variant=variant):
            r = until_my_turn(play_turns(deal(variant), 5), 1)
            r.apply(1, Action("take"))
            return render_seat(r.view(1), cursor=r.variant.size - 1, prompt=prompt("place here"),
                               lang=lang)

        def other_turn(variant=variant):
            r = until_my_turn(play_turns(deal(variant), 5), 2)
            r.apply(2, Action("draw"))
            return render_seat(r.view(0), prompt="", lang=lang)

        def message(variant=variant):
            r = until_my_turn(play_turns(deal(variant), 5), 2)
            # What a press out of turn is told (a seat's cursor only ever offers legal
            # moves): whose turn it is, by name, here long enough to take two lines.
            names = ["Ann", "Bo", "Marie-Hélène"]
            return render_seat(r.view(0), prompt="", message=wait_words(r.view(0), names, lang),
                               lang=lang)

        add(f"seat_{tag}_own_turn_stock", own_turn_stock)
        add(f"seat_{tag}_holding", holding)
        add(f"seat_{tag}_other_turn", other_turn)
        add(f"seat_{tag}_message", message)

    # Start phases, one per way a round starts.
    add("seat_4card_start_peeking",
        lambda: render_seat(deal("4-card").view(0), cursor="ready", prompt=f"● {say(lang, 'done looking')}",
                            lang=lang))
    add("seat_6card_start_choose", lambda: _six_card_start(lang))
    add("seat_6card_peekrow_peeking",
        lambda: render_seat(deal("6-card", rules={"peek_row": True}).view(0), cursor="ready",
                            prompt=f"● {say(lang, 'done looking')}", lang=lang))
    add("seat_6card_peekrow_memory", lambda: _memory("6-card", {"peek_row": True}, lang))
    add("seat_polishpoker_start_random",
        lambda: render_seat(deal("polish-poker").view(3), cursor="knock", prompt=prompt("knock"),
                            lang=lang))
    add("seat_9card_first_turn_flips",
        lambda: render_seat(deal("9-card").view(3), cursor=4, prompt=prompt("turn up"), lang=lang))
    # 4-card memory play against the assist rule: the same state, known cards hidden or shown.
    add("seat_4card_memory", lambda: _memory("4-card", {}, lang))
    add("seat_4card_assist", lambda: _memory("4-card", {"assist": True}, lang))
    add("seat_4card_knock", lambda: render_seat(until_my_turn(deal("4-card"), 1).view(1),
                                                cursor="knock", prompt=say(lang, "knock? ● yes  ✕ no"),
                                                lang=lang))
    add("seat_polishpoker_flip_option", lambda: _polish_flip_option(lang))
    add("seat_9card_over", lambda: render_seat(play_out(deal("9-card", players=3)).view(0),
                                               prompt=say(lang, "● next round · ◀▶ rules"), lang=lang))
    # A knocker without the lowest score: its score, and the penalty in it under it.
    add("seat_4card_over_penalty", lambda: render_seat(
        play_out(deal("4-card", players=3, rules={"knock_penalty": 5}), knock_after=3).view(0),
        prompt=say(lang, "● next round · ◀▶ rules"), lang=lang))
    # The reveal's marks (REVEAL_9CARD …): each combination inverted with what it scored
    # beside its row or under its column, a pair's second line pointing back (▲ ◀);
    # the penalty's reason.
    prompt_over = say(lang, "● next round · ◀▶ rules")
    for tag, make, seat in (("9card_went_out", revealed_9card, 0), ("9card_pair", revealed_9card, 1),
                            ("9card_jokers", revealed_9card, 2), ("9card_columns", revealed_9card, 3),
                            ("6card_four", lambda: revealed_six("6-card"), 0),
                            ("polishpoker_knock", lambda: revealed_six("polish-poker"), 0),
                            ("polishpoker_jokers", lambda: revealed_six("polish-poker"), 1)):
        add(f"seat_reveal_{tag}", lambda make=make, seat=seat: render_seat(
            make().view(seat), names=NAMES[lang], prompt=prompt_over, lang=lang))
    # The match's result (states.MatchOver): the last round's grid, the match total.
    add("seat_9card_match_over", lambda: render_seat(
        play_out(deal("9-card", players=3, round_no=9)).view(0),
        prompt=say(lang, "● new match · ✕ lobby · ◀▶ rules"), lang=lang, match_over=True))
    return screens


def _six_card_start(lang: str) -> Image.Image:
    r = deal("6-card")
    r.apply(0, Action("flip", 1))
    return render_seat(r.view(0), cursor=3,
                       prompt=say(lang, "◀▶ move · ● {verb}", verb=say(lang, "turn up")), lang=lang)


def _memory(variant: str, rules: dict, lang: str) -> Image.Image:
    r = until_my_turn(deal(variant, rules=rules), 1)
    return render_seat(r.view(1), cursor="stock",
                       prompt=say(lang, "◀▶ move · ● {verb}", verb=say(lang, "draw")), lang=lang)


def _polish_flip_option(lang: str) -> Image.Image:
    r = until_my_turn(play_turns(deal("polish-poker"), 2), 1)
    r.apply(1, Action("draw"))
    r.apply(1, Action("discard"))
    return render_seat(r.view(1), cursor="pass",
                       prompt=say(lang, "◀▶ move · ● {verb}", verb=say(lang, "pass")), lang=lang)


def table_screens(lang: str = "en") -> dict[str, Callable[[], Image.Image]]:
    screens: dict[str, Callable[[], Image.Image]] = {}
    names = NAMES[lang]
    for variant, players in (("4-card", 4), ("6-card", 3), ("polish-poker", 6), ("9-card", 8)):
        tag = variant.replace("-", "")

        def mid(size, variant=variant, players=players):
            r = play_turns(deal(variant, players=players), 7)
            r = until_my_turn(r, r.to_move)  # its first-turn flips (9-card)
            r.apply(r.to_move, Action("take"))
            return render_table(r.view(None), size=size, names=names[:players], lang=lang)

        def reveal(size, page=0, variant=variant, players=players):
            r = play_out(deal(variant, players=players))
            return render_reveal(r.view(None), size=size, names=names[:players], page=page, lang=lang)

        screens[f"table_{tag}_mid"] = lambda mid=mid: mid((256, 64))
        screens[f"table_{tag}_mid_mono"] = lambda mid=mid: mid((128, 64))
        screens[f"table_{tag}_reveal"] = lambda reveal=reveal: reveal((256, 64))
        screens[f"table_{tag}_reveal_mono"] = lambda reveal=reveal: reveal((128, 64))
    # Eight seats named as the simulator names them: each total right after its name.
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_9card_mid_bots{tag}"] = lambda size=size: _eight_bots_table(size, lang)
    screens["table_polishpoker_reveal_mono_page2"] = lambda: render_reveal(
        play_out(deal("polish-poker", players=6)).view(None), size=(128, 64), names=names[:6], page=1,
        lang=lang)
    # Ten players (4-card's most; a table seats 8, golfbox.hal.config.MAX_SEATS) on
    # 256 px: eight grids a page, the ninth and tenth on a second page, in panels as
    # wide as four to a page.
    for page, tag in ((0, ""), (1, "_page2")):
        screens[f"table_4card_reveal_ten{tag}"] = lambda page=page: render_reveal(
            play_out(deal("4-card", players=10)).view(None), page=page, lang=lang)
    # A knocker without the lowest score: the penalty shows as raw+penalty.
    screens["table_polishpoker_reveal_penalty"] = lambda: render_reveal(
        play_out(deal("polish-poker"), knock_after=4).view(None), names=names[:4], lang=lang)
    screens["table_9card_reveal_penalty_mono"] = lambda: render_reveal(
        play_out(deal("9-card", players=3, seed=2), knock_after=4).view(None), size=(128, 64), lang=lang)
    # Totals too wide for 'tot' in a 32-px panel (a knock penalty of 1000, the bound):
    # every total of the reveal says 'T:', on each page, beside the round's bare score.
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_reveal_wide_totals{tag}"] = lambda size=size: render_reveal(
            _wide_totals().view(None), size, names, lang=lang)
    screens["table_reveal_wide_totals_mono_page2"] = lambda: render_reveal(
        _wide_totals().view(None), (128, 64), names, page=1, lang=lang)
    # Two seats near the rules' widest totals: six characters, and negative.
    screens["table_reveal_widest_totals_mono"] = lambda: render_reveal(
        play_out(deal("6-card", players=2, totals=(-99180, 102900))).view(None), (128, 64),
        names[:2], lang=lang)
    # The same rounds on the shared display (their marks are on the seats only: README).
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_reveal_marks_9card{tag}"] = lambda size=size: render_reveal(
            revealed_9card().view(None), size, names[:4], lang=lang)
        screens[f"table_reveal_marks_6card{tag}"] = lambda size=size: render_reveal(
            revealed_six("6-card").view(None), size, names[:3], lang=lang)
        screens[f"table_reveal_marks_polishpoker{tag}"] = lambda size=size: render_reveal(
            revealed_six("polish-poker").view(None), size, names[:3], lang=lang)
    screens["table_6card_start"] = lambda: render_table(deal("6-card", players=4).view(None), lang=lang)
    screens["table_4card_knocked"] = lambda: _knocked_table(lang)
    screens["table_message"] = lambda: render_table(
        play_turns(deal("6-card"), 3).view(None), lang=lang,
        message=say(lang, "{who} is away: a bot plays for it until it is back", who=names[2]))
    # The second of two faults taking turns: whole, on two lines.
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_faults{tag}"] = lambda size=size: render_table(
            play_turns(deal("6-card"), 3).view(None), size, names[:4], lang=lang,
            message="2/2 " + fault_words(lang, NAMES[lang][2]))
    # Eight long names that begin alike, in every narrow place: each told apart.
    long_names = LONG_NAMES[lang]
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_9card_mid_long{tag}"] = lambda size=size: render_table(
            _eight_mid().view(None), size, long_names, lang=lang)
        screens[f"table_9card_reveal_long{tag}"] = lambda size=size: render_reveal(
            play_out(deal("9-card", players=8)).view(None), size, long_names, lang=lang)
        screens[f"match_result_long{tag}"] = lambda size=size: render_match_result(
            (31, 12, 40, 12, 27, 55, 8, 19), winners=(6,), names=long_names, size=size, lang=lang)
    screens["table_9card_reveal_long_mono_page2"] = lambda: render_reveal(
        play_out(deal("9-card", players=8)).view(None), (128, 64), long_names, page=1, lang=lang)
    screens["seat_long_names"] = lambda: render_seat(
        _eight_mid().view(1), names=long_names, lang=lang)
    screens["lobby_8_long_mono"] = lambda: _lobby_of_eight_long(lang)
    # Cyrillic and Greek names: drawn, not '?' for each letter.
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"table_9card_mid_scripts{tag}"] = lambda size=size: render_table(
            _eight_mid().view(None), size, SCRIPT_NAMES, lang=lang)
    screens["table_9card_reveal_scripts_mono"] = lambda: render_reveal(
        play_out(deal("9-card", players=8)).view(None), (128, 64), SCRIPT_NAMES, lang=lang)
    screens["seat_script_names"] = lambda: render_seat(
        _eight_mid().view(1), names=SCRIPT_NAMES, lang=lang)
    for kind, lettered in (("marked", MARKED_NAMES), ("stroked", STROKED_NAMES),
                           ("vietnamese", VIETNAMESE_NAMES), ("dotted", DOTTED_NAMES),
                           ("signs", SIGN_NAMES)):
        for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
            screens[f"table_9card_mid_{kind}{tag}"] = lambda size=size, lettered=lettered: (
                render_table(_eight_mid().view(None), size, lettered, lang=lang))
        screens[f"seat_{kind}_names"] = lambda lettered=lettered: render_seat(
            _eight_mid().view(1), names=lettered, lang=lang)
    screens["table_9card_reveal_vietnamese_mono"] = lambda: render_reveal(
        play_out(deal("9-card", players=8)).view(None), (128, 64), VIETNAMESE_NAMES, lang=lang)
    screens["notice_scripts"] = lambda: render_notice(
        (128, 64), SCRIPT_NAMES[6], say(lang, "a bot plays this seat"), SCRIPT_NAMES)
    # Eight players on 128 px: four rows of scores, a fault over them on two lines.
    screens["table_faults_8_mono"] = lambda: _eight_players_fault(lang)
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"match_result{tag}"] = lambda size=size: render_match_result(
            (31, 12, 40, 12, 27), winners=(1, 3), names=names[:5], size=size, lang=lang)
        screens[f"notice_paused{tag}"] = lambda size=size: render_notice(
            size, "golfbox", say(lang, "paused"))
        screens[f"notice_unplugged{tag}"] = lambda size=size: render_notice(
            size, names[2], say(lang, "a bot plays this seat"))
        # The SD card full at start: the table waits for room, saying so (commands/run.py).
        screens[f"notice_disk_full{tag}"] = lambda size=size: render_notice(
            size, "golfbox", say(lang, "the disk is full: the table starts once there is room"))
    screens["notice_disk_full_seat"] = lambda: render_notice(
        (128, 64), say(lang, "P{n}", n=1), say(lang, "disk full: waiting"))
    title = say(lang, "golfbox: press ● to join")
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"lobby{tag}"] = lambda size=size: _lobby(size, title, None, lang)
    screens["lobby_seat"] = lambda: _lobby((128, 64), say(lang, "{who}: you play", who=names[0]), 0, lang)
    # A seat node unplugged in the lobby: the shared display's footer says so first, whole.
    screens["lobby_fault_mono"] = lambda: _lobby((128, 64), title, None, lang,
                                                 fault=fault_words(lang, names[2]))
    # The journal refuses the lobby's choices (a full or read-only SD card): the owner reads it.
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"lobby_not_saved{tag}"] = lambda size=size: _lobby(
            size, title, None, lang, fault=say(lang, "cannot save the lobby: see the log"))
    # A hand-edited config refused at the start: the table runs on the last good one and
    # says so, in the lobby and over a match (golfbox.table.last_good).
    refused = say(lang, "{file} refused: {key} · running on the last good one",
                  file="config.toml", key="game.names.3")
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"lobby_config_refused{tag}"] = lambda size=size: _lobby(
            size, title, None, lang, fault=refused)
        screens[f"table_config_refused{tag}"] = lambda size=size: render_table(
            play_turns(deal("6-card"), 3).view(None), size, names[:4], lang=lang, message=refused)
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"lobby_8{tag}"] = lambda size=size: _lobby_of_eight(size, title, None, lang)
    screens["lobby_8_seat"] = lambda: _lobby_of_eight(
        (128, 64), say(lang, "{who}: you play", who=say(lang, "P{n}", n=1)), 0, lang)
    # The screen saver, where its text is after 3 minutes (a seat's display is 128×64 too).
    for size, tag in (((256, 64), ""), ((128, 64), "_mono")):
        screens[f"saver{tag}"] = lambda size=size: table_frames.saver(size, 3, lang)[1]()
    return screens


def _wide_totals() -> Round:
    """Eight seats of polish-poker, the knocker not lowest: its 1000 makes a total of 1053
    (page 2 on 128 px) among totals of two digits."""
    return play_out(deal("polish-poker", players=8, rules={"knock_penalty": 1000},
                         totals=(0, 0, 5, 0, 12, 0, 7, 31)), knock_after=3)


def _eight_mid() -> Round:
    """Eight players mid-round, the one to move holding the pile's card."""
    r = play_turns(deal("9-card", players=8), 7)
    r = until_my_turn(r, r.to_move)
    r.apply(r.to_move, Action("take"))
    return r


def _eight_bots_table(size: tuple[int, int], lang: str) -> Image.Image:
    r = _eight_mid()
    settings = TableSettings(language=lang)
    names = [settings.display_name(0, None)] + [settings.display_name(s, "hard") for s in range(1, 8)]
    return render_table(r.view(None), size=size, names=names, lang=lang)


def _eight_players_fault(lang: str) -> Image.Image:
    r = _eight_mid()
    return render_table(r.view(None), (128, 64), NAMES[lang], lang=lang,
                        message=fault_words(lang, NAMES[lang][2]))


def _lobby_of_eight(size: tuple[int, int], title: str, seat: int | None, lang: str) -> Image.Image:
    """Eight seats, seven of them bots (a config's bots = 7): every name shows."""
    lobby = Lobby(TableSettings(variant="9-card", seats=8, bots={s: "hard" for s in range(1, 8)},
                                language=lang))
    lobby.press(0, Button.OK, EventKind.PRESSED)  # P1 joins
    players = ", ".join(p.name for p in lobby.players())
    footer = lobby.prompt(seat) if seat is not None else lobby.problem() or say(lang, "hold ● on your pad to start")
    return render_lobby(size, title, [str(line) for line in lobby.lines()], lobby.cursor, players, footer,
                        lang)


def _lobby_of_eight_long(lang: str) -> Image.Image:
    """Eight long names joined: 'playing:' cuts them shorter, each still told apart."""
    lobby = Lobby(TableSettings(variant="9-card", seats=8, names=dict(enumerate(LONG_NAMES[lang])),
                                language=lang))
    for seat in range(8):
        lobby.press(seat, Button.OK, EventKind.PRESSED)
    players = ", ".join(p.name for p in lobby.players())
    return render_lobby((128, 64), say(lang, "golfbox: press ● to join"),
                        [str(line) for line in lobby.lines()], lobby.cursor, players,
                        say(lang, "hold ● on your pad to start"), lang)


def _lobby(size: tuple[int, int], title: str, seat: int | None, lang: str,
           fault: str = "") -> Image.Image:
    """Polish-poker chosen, bots in the empty seats, the cursor on the knock penalty."""
    lobby = Lobby(TableSettings(variant="6-card", seats=4, names=dict(enumerate(NAMES[lang])),
                                language=lang))
    lobby.press(0, Button.OK, EventKind.PRESSED)  # the first joins
    lobby.press(1, Button.OK, EventKind.PRESSED)  # the second joins
    # game → polish-poker; empty seats → bots; choose start → on; knock penalty → 15
    for button in (Button.RIGHT, Button.OK, Button.RIGHT, Button.OK, Button.OK, Button.RIGHT,
                   Button.OK, Button.OK, Button.RIGHT):
        lobby.press(0, button, EventKind.PRESSED)
    players = ", ".join(p.name for p in lobby.players())
    footer = lobby.prompt(seat) if seat is not None else lobby.problem() or say(lang, "hold ● on your pad to start")
    if fault:  # as the shared display's lobby shows one (states.Lobby.shared_frame)
        footer = f"{fault} · {footer}"
    return render_lobby(size, title, [str(line) for line in lobby.lines()], lobby.cursor, players, footer,
                        lang)


def _knocked_table(lang: str) -> Image.Image:
    r = play_turns(deal("4-card"), 4)
    r.apply(r.to_move, Action("knock"))
    return render_table(r.view(None), names=NAMES[lang][:4], lang=lang)


def rules_screens(lang: str = "en") -> dict[str, Callable[[], Image.Image]]:
    """Every page of every variant's rules (default house rules), on a seat (128×64) and on
    the wide shared display (256×64, named after the seat turning the pages)."""
    from golfbox.engine import VARIANTS, make_rules
    from golfbox.render.rules import render_rules, rules_pages

    screens: dict[str, Callable[[], Image.Image]] = {}
    reader = say(lang, "P{n}", n=2)
    for name, variant in VARIANTS.items():
        pages = rules_pages(variant, make_rules(variant, {}), lang)
        tag = name.replace("-", "")
        for page in range(len(pages)):
            screens[f"rules_{tag}_{page + 1}_seat"] = \
                lambda pages=pages, page=page: render_rules((128, 64), pages, page, lang=lang)
            screens[f"rules_{tag}_{page + 1}_wide"] = \
                lambda pages=pages, page=page: render_rules((256, 64), pages, page, reader=reader, lang=lang)
    return screens


# Card boxes the screens draw faces in: a 3-row seat grid and a narrow pile (26×16), a 2-row
# seat grid (26×20), the wide shared display's piles (26×34).
FACE_SIZES = ((26, 16), (26, 20), (26, 34))


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 ace … 13 joker) and ``suit`` (0 ♣ … 3 ♠), through the engine's notation."""
    return parse_card("JK" if rank == JOKER else RANK_NAMES[rank] + "CDHS"[suit])


def card_sheet() -> Image.Image:
    """Every rank and suit as the screens draw them, so that any glyph change shows: big
    faces at each size (a row per size, every suit in each), a joker, the reveal's small
    faces, the cards in words; a back, a known face-down card, a face under the cursor, and
    an empty slot at the sizes of the piles."""
    ranks = len(RANK_NAMES)  # A … K and the joker
    image = Image.new("1", (ranks * 27, 143), 0)
    draw = ImageDraw.Draw(image)
    y = 0
    for row, (w, h) in enumerate(FACE_SIZES):
        for rank in range(ranks):
            suit = (rank + row) % 4  # the suits in turn, each under every rank over the rows
            draw_face(draw, (rank * 27, y, w, h), make_card(rank, 0 if rank == JOKER else suit), 1, 0)
        y += h + 1
    for rank in range(ranks):  # the reveal's small faces
        draw_small_face(draw, (rank * 27, y, 9, 7), make_card(rank, rank % 4), 1, 0)
    y += 11
    for rank in range(ranks):  # every card in words, five ranks a line
        words = " ".join(card_words(make_card(rank, suit)) for suit in range(1 if rank == JOKER else 4))
        draw_text(draw, rank % 5 * 75, y + rank // 5 * 8, words, 1)
    y += 3 * 8
    draw_back(draw, (0, y, 26, 20), 1, 0)
    draw_face(draw, (27, y, 26, 20), make_card(5, 2), 1, 0, dashed=True)  # known, face down
    draw_face(draw, (54, y, 26, 20), make_card(8, 3), 0, 1)  # under the cursor
    for i, (w, h) in enumerate(((20, 16), (26, 16), (26, 34))):  # empty piles
        draw_slot(draw, (81 + i * 27, y, w, h), 1, 0)
    return image


WORDLESS = {"cards": card_sheet}  # goldens without words: one for every language


def all_screens() -> dict[str, Callable[[], Image.Image]]:
    """Every golden, in English and in French (the French names end in _fr), and the card sheet."""
    screens = dict(WORDLESS)
    for lang, suffix in (("en", ""), ("fr", "_fr")):
        for name, make in {**seat_screens(lang), **table_screens(lang), **rules_screens(lang)}.items():
            screens[name + suffix] = make
    return screens


# ----------------------------------------------------------------- files

def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"


def regenerate() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, make in all_screens().items():
        make().save(golden_path(name))
    print(f"wrote {len(all_screens())} goldens to {GOLDEN_DIR}")


def scaled(image: Image.Image, factor: int = 4) -> Image.Image:
    """Nearest-neighbour enlargement, so every pixel stays a sharp square."""
    return image.convert("L").resize((image.width * factor, image.height * factor),
                                     Image.Resampling.NEAREST)


DOC_PICTURES = {
    "seat_4card_memory": "seat_4card_memory",
    "seat_4card_assist": "seat_4card_assist",
    "seat_4card_start_peeking": "seat_4card_peeking",
    "seat_6card_own_turn_stock": "seat_6card_turn",
    "seat_polishpoker_flip_option": "seat_polish_flip_option",
    "seat_9card_holding": "seat_9card_holding",
    "seat_6card_message": "seat_message",
    "table_9card_mid": "table_9card",
    "table_polishpoker_mid": "table_polish",
    "table_4card_mid_mono": "table_mono",
    "table_9card_reveal": "reveal_9card",
    "table_6card_reveal": "reveal_6card",
    "table_polishpoker_reveal_penalty": "reveal_polish_penalty",
    "table_reveal_wide_totals_mono_page2": "reveal_mono_wide_totals",
    "table_reveal_wide_totals_mono": "reveal_mono_wide_totals_page1",
    "seat_reveal_9card_went_out": "seat_reveal_9card",
    "seat_reveal_9card_pair": "seat_reveal_9card_pair",
    "match_result": "match_result",
    "notice_unplugged": "notice",
    "lobby": "lobby",
    "lobby_seat": "seat_lobby",
    "rules_9card_5_seat": "rules_seat",
    "rules_6card_4_wide": "rules_wide",
    "lobby_fr": "lobby_fr",
    "table_9card_mid_fr": "table_9card_fr",
}


def write_docs() -> None:
    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    screens = all_screens()
    for name, picture in DOC_PICTURES.items():
        scaled(screens[name]()).save(DOCS_DIR / f"{picture}.png")
    print(f"wrote {len(DOC_PICTURES)} pictures to {DOCS_DIR}")


def main(argv: list[str]) -> int:
    if "--regenerate" in argv:
        regenerate()
    if "--docs" in argv:
        write_docs()
    if not {"--regenerate", "--docs"} & set(argv):
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
