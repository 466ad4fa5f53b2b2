"""The levels, and the search bot: deterministic, from its seat's view only."""

import math
import random

from golfbox.bots import DEFAULT_BOT, LEVELS, make_bot
from golfbox.bots.search import SearchBot
from golfbox.engine import Determinizer, Round, get_variant, make_rules
from test_engine_properties import RULESETS


def round_at(name, overrides, players, seed, steps):
    variant = get_variant(name)
    round_ = Round(variant, make_rules(variant, overrides), players, rng=random.Random(seed))
    bots = [make_bot("medium", random.Random(seed + s)) for s in range(players)]
    for _ in range(steps):
        if round_.over:
            break
        seat = round_.acting_seats[0]
        round_.apply(seat, bots[seat].choose(round_.view(seat)))
    return round_


def test_levels_are_bots_and_hard_is_the_default():
    assert LEVELS == ("easy", "medium", "hard") and DEFAULT_BOT == "hard"
    for level in LEVELS:
        assert make_bot(level, random.Random(0)).name == level


def test_the_choice_depends_only_on_the_seed_and_the_view():
    """Same generator state and view: same choice, whatever happened before, and a
    round dealt anew from the view (other hidden cards) gets the same choice too."""
    for name, overrides in RULESETS:
        for steps in (9, 14):
            round_ = round_at(name, overrides, 3, steps, steps)
            if round_.over:
                continue
            seat = round_.acting_seats[0]
            view = round_.view(seat)
            bot = SearchBot(random.Random(7), playouts=24)
            first = bot.choose(view)
            again = SearchBot(random.Random(7), playouts=24)
            again.choose(round_.view((seat + 1) % 3) if round_.view((seat + 1) % 3).legal
                         else view)  # some other decision first: no effect on the next
            again._rng.seed(7)
            twin = Determinizer(view).sample(random.Random(99))  # other hidden cards
            assert first == again.choose(twin.view(seat)) and first in view.legal


def test_it_never_reads_the_round():
    """A view keeps no reference to the round: the bot decides from the snapshot alone,
    so changing the hidden cards of the real round afterwards changes nothing."""
    round_ = round_at("6-card", {"final_turn": True}, 4, 3, 10)
    seat = round_.acting_seats[0]
    view = round_.view(seat)
    choice = SearchBot(random.Random(1), playouts=24).choose(view)
    round_.stock.reverse()
    for grid in round_.grids:
        grid.reverse()
    assert SearchBot(random.Random(1), playouts=24).choose(view) == choice


def test_hard_goes_out_when_going_out_wins():
    """6-card, the round ends at once: hard holds an ace for its last face-down card,
    which makes its grid -1 while the other shows two queens: it goes out. Nothing
    tells it so but the futures it plays."""
    from engine_helpers import stacked_round
    from golfbox.engine import Action

    round_ = stacked_round("6-card", ["K K Q / Q Q 7", "Q J 10 / 9 8 6"], stock="K 9 K 9 2 9 A")
    for seat in (0, 1):
        round_.apply(seat, Action("flip", 0))
        round_.apply(seat, Action("flip", 1))
    for pos in (2, 3, 4):
        round_.apply(0, Action("draw"))
        round_.apply(0, Action("place", pos))
        round_.apply(1, Action("draw"))
        round_.apply(1, Action("discard"))
    round_.apply(0, Action("draw"))  # the ace
    view = round_.view(0)
    assert view.held >> 2 == 0
    choice = SearchBot(random.Random(3), playouts=60).choose(view)
    assert choice == Action("place", 5)
    round_.apply(0, choice)
    assert round_.over and round_.scores[0] == -1


def test_the_whole_budget_is_spent_on_actions_still_in_the_running():
    """Successive halving: every lap compares at least two actions, and the laps
    together spend the budget. Halving 3 actions straight to 1 once left the second
    lap playing 50 of the 100 play-outs on a lone action: half the budget wasted."""
    from golfbox.engine import HOLDING
    for steps in range(8, 40):
        round_ = round_at("6-card", {}, 2, steps, steps)
        seat = round_.acting_seats[0] if not round_.over else None
        if seat is not None and round_.view(seat).phase == HOLDING:
            break
    view = round_.view(seat)
    assert len(view.legal) >= 5
    for count in range(2, len(view.legal) + 1):
        bot = SearchBot(random.Random(3), playouts=100)
        bot.search(view, view.legal[:count])
        laps = bot.laps_spent
        assert all(alive >= 2 for alive, _ in laps), (count, laps)
        spent = sum(alive * batch for alive, batch in laps)
        assert 90 <= spent <= 100 + count * 8, (count, laps, spent)


def test_cards_the_others_kept_are_dealt_low_and_every_card_stays_in_play():
    """A face-down card its owner has seen and kept is likely low (a player keeps low
    cards): hard deals those lower than the unseen cards' mean. Only the unseen cards
    move: what the seat sees is untouched and no card appears or vanishes."""
    round_ = round_at("4-card", {}, 4, 5, 14)
    seat = round_.acting_seats[0]
    view = round_.view(seat)
    dealer = Determinizer(view)
    kept = [(s, p) for s, p in dealer.holes if s != seat and view.owner_seen[s] >> p & 1]
    assert len(kept) >= 4
    values = view.variant.values
    rng = random.Random(1)

    low, uniform = [], []
    for _ in range(300):
        world = SearchBot.deal(dealer, kept, rng)
        plain = dealer.sample(rng)
        assert world.all_cards() == plain.all_cards()
        for s, grid in enumerate(world.grids):
            for p, card in enumerate(grid):
                if (s, p) not in dealer.holes:
                    assert card == plain.grids[s][p]
        low += [values[world.grids[s][p] >> 2] for s, p in kept]
        uniform += [values[plain.grids[s][p] >> 2] for s, p in kept]
    assert sum(low) / len(low) < sum(uniform) / len(uniform) - 2.0


def test_another_action_must_beat_the_play_out_players_choice_by_more_than_noise():
    """Search keeps the play-out player's own choice unless another action beats it by
    more than one standard error over the same dealt rounds: with a small budget it
    otherwise took whichever action was lucky (in 4-card it scored worse than the
    play-out player it searches with)."""
    from golfbox.bots.search import CONFIDENCE
    decisions = overruled = 0
    for seed in range(12):
        round_ = round_at("4-card", {}, 4, seed, 6 + seed)
        if round_.over:
            continue
        seat = round_.acting_seats[0]
        view = round_.view(seat)
        if len(view.legal) < 2:
            continue
        bot = SearchBot(random.Random(seed), playouts=60)
        choice = bot.search(view, view.legal)
        decisions += 1
        assert bot.default in view.legal
        if choice != bot.default:
            overruled += 1
            assert choice == bot.best and bot.evidence < -CONFIDENCE
        elif bot.best != bot.default:
            assert bot.evidence >= -CONFIDENCE  # better on average, not clearly
    assert decisions >= 8


def test_the_play_out_player_knocks_as_medium_does():
    """The futures search plays must have the others knock when real players would:
    never with two own cards unseen, and only clearly below every other seat."""
    from engine_helpers import stacked_round
    from golfbox.bots.search import _policy
    from golfbox.engine import Action

    round_ = stacked_round("4-card", ["9 8 / K A", "Q Q / J J"], stock="K 4 6 7 3")
    for seat in (0, 1):
        round_.apply(seat, Action("ready"))
    policy = _policy(round_.variant, round_.rules)
    cells = policy.cells(round_, 0)
    assert cells.count(None) == 2  # peeked at the nearest row only
    assert policy.choose(round_, 0).kind != "knock"
    round_.apply(0, Action("draw"))  # the king, over the 9
    round_.apply(0, Action("place", 0))
    round_.apply(1, Action("draw"))
    round_.apply(1, Action("discard"))
    cells = policy.cells(round_, 0)
    assert cells.count(None) == 1  # K ? / K A: about 7.5, the other's two kept cards ~21
    assert policy.choose(round_, 0) == Action("knock")
    # Under a knock penalty of 40 the margin is 3 + 2 + 10: not clearly enough.
    costly = stacked_round("4-card", ["9 8 / K A", "Q Q / J J"], stock="K 4 6 7 3",
                           rules={"knock_penalty": 40})
    for seat in (0, 1):
        costly.apply(seat, Action("ready"))
    costly.apply(0, Action("draw"))
    costly.apply(0, Action("place", 0))
    costly.apply(1, Action("draw"))
    costly.apply(1, Action("discard"))
    assert _policy(costly.variant, costly.rules).choose(costly, 0).kind != "knock"


def test_the_play_out_players_remember_cards_placed_in_full_view():
    """In 4-card a card taken from the discard pile goes face down, but everybody saw
    it: the play-out player rates it at its value, not as a kept card (as medium
    does), until its owner covers it with a card drawn unseen."""
    from engine_helpers import stacked_round
    from golfbox.bots.playout import PublicMemory
    from golfbox.bots.search import _policy
    from golfbox.engine import Action

    round_ = stacked_round("4-card", ["9 8 / 3 A", "Q Q / J J"], discard="K", stock="K 4 6",
                           dealer=0)  # seat 1 plays first
    memory = PublicMemory([0, 0])

    def play(seat, *actions):
        for action in actions:
            memory.note(seat, action)
            round_.apply(seat, action)

    for seat in (1, 0):
        play(seat, Action("ready"))
    play(1, Action("take"), Action("place", 0))  # the king, in full view: K Q / J J
    play(0, Action("draw"), Action("place", 0))  # the other king, over the 9: K ? / 3 A
    play(1, Action("draw"), Action("discard"))
    assert memory.shown == [0, 0b0001] and memory.taker is None
    policy = _policy(round_.variant, round_.rules)
    # Seat 1 rated blind: three kept cards (about 4 each) and one unseen, ~18.7; seat 0
    # about 10.5 + 3 + 2 for its unseen card: it would knock.
    assert policy.choose(round_, 0) == Action("knock")
    # Remembered: 0 + 6.5 + two kept cards, ~14.6: not clearly lower any more.
    assert policy.rival_estimate(round_, 1, memory.shown[1]) < 15
    assert policy.choose(round_, 0, memory) == Action("draw")
    # A card drawn unseen over the king: forgotten again.
    play(0, Action("draw"), Action("discard"))
    play(1, Action("draw"), Action("place", 0))
    assert memory.shown == [0, 0]


def test_hard_waits_for_a_wider_lead_before_it_knocks_in_4_card():
    """Searching, hard's own futures (and its default) knock only OWN_KNOCK_CAUTION
    points further ahead than the others' would; the others' futures knock as
    medium does. In 4-card it counts cards and remembers, as medium does."""
    from engine_helpers import stacked_round
    from golfbox.bots.search import OWN_KNOCK_CAUTION, _policy
    from golfbox.engine import Action

    round_ = stacked_round("4-card", ["9 8 / 5 A", "Q Q / J J"], stock="K 4 6")
    for seat in (0, 1):
        round_.apply(seat, Action("ready"))
    round_.apply(0, Action("draw"))  # the king, over the 9: K ? / 5 A
    round_.apply(0, Action("place", 0))
    round_.apply(1, Action("draw"))
    round_.apply(1, Action("discard"))
    policy = _policy(round_.variant, round_.rules)
    assert policy.choose(round_, 0) == Action("knock")  # 12.5 + 3 + 2 against ~18.7
    caution = OWN_KNOCK_CAUTION["4-card"]
    assert caution >= 2  # ~19.5 or more against ~18.7: it waits
    seated = policy.seated(0, policy.mean, caution)
    assert seated.choose(round_, 0) == Action("draw")
    searching_elsewhere = policy.seated(1, policy.mean, caution)
    assert searching_elsewhere.choose(round_, 0) == Action("knock")  # the others as medium
    assert policy.searcher is None  # seating copies: the shared player is unchanged
    bot = SearchBot(random.Random(3), playouts=60)
    bot.choose(round_.view(0))
    assert bot.default == Action("draw")  # the search's own default is the seated one


def test_hard_spreads_its_first_three_flips_in_9_card():
    """The first three cards hard turns up in 9-card are one in each row and each
    column, as medium's: against 3 medium spread scored -3.29 ± 0.80 points a round
    (800 rounds), a whole row first -1.34 ± 0.55."""
    variant = get_variant("9-card")
    round_ = Round(variant, make_rules(variant, {}), 3, rng=random.Random(4))
    seat = round_.acting_seats[0]
    bot = SearchBot(random.Random(2))
    while round_.view(seat).flips_due:
        round_.apply(seat, bot.choose(round_.view(seat)))
    up = [p for p in range(9) if round_.face_up[seat] >> p & 1]
    assert sorted(p // 3 for p in up) == [0, 1, 2] and sorted(p % 3 for p in up) == [0, 1, 2]


def test_the_play_out_player_builds_towards_three_of_a_kind_in_9_card():
    """Three of a kind in a line scores 0: holding an 8 next to a row's 8, the play-out
    player makes it two of a kind (one card from 0) rather than swap a 10 for it,
    as medium does. Without this it scored 0.4-0.6 points a round worse than medium."""
    from golfbox.bots.greedy import LINE_HOPE
    from golfbox.bots.playout import PlayoutPolicy
    from golfbox.engine import parse_card

    variant = get_variant("9-card")
    policy = PlayoutPolicy(variant, make_rules(variant, {}))
    eight, ten = parse_card("8C"), parse_card("10D")
    cells = [eight, None, None, ten, None, None, None, None, None]
    gains = policy.gains(cells, parse_card("8H"))
    assert gains.index(max(gains)) == 1  # the 8 beside the 8, not over the 10
    assert gains[1] - gains[3] > 0
    # The hope is the only reason: two different cards of the same total are not rated so.
    assert policy.line([eight, parse_card("8H"), None]) == policy.line(
        [parse_card("9C"), parse_card("7H"), None]) - LINE_HOPE * 16


def test_the_play_out_players_line_rating_is_the_plain_rule_to_the_last_bit():
    """9-card's line rating is written out card by card for speed: it must give the
    very figures of the plain rule (known cards at value, unknown at the deck's mean,
    three of a kind by the line scores, two of a kind with the third unknown rated
    LINE_HOPE of their value lower), summed in the cards' order, for every line."""
    import itertools

    from golfbox.bots.greedy import LINE_HOPE
    from golfbox.bots.playout import PlayoutPolicy, deck_mean
    from golfbox.engine import NINE_CARD_LINE_SCORES, parse_card, rank_of

    variant = get_variant("9-card")
    policy = PlayoutPolicy(variant, make_rules(variant, {}))
    values, mean = variant.values, deck_mean(variant)

    def plain(cards):
        known = [c for c in cards if c is not None]
        if len(known) == 3:
            if len({rank_of(c) for c in known}) == 1:
                return NINE_CARD_LINE_SCORES.get(rank_of(known[0]), 0)
            return sum(values[rank_of(c)] for c in known)
        total = sum(values[rank_of(c)] if c is not None else mean for c in cards)
        if len(known) == 2 and rank_of(known[0]) == rank_of(known[1]):
            total -= LINE_HOPE * sum(values[rank_of(c)] for c in known)
        return total

    cards = [None] + [parse_card(t) for t in ("KC", "KD", "KH", "JK", "7C", "7D", "7H", "QS", "AC")]
    for line in itertools.product(cards, repeat=3):
        assert policy.line(list(line)) == plain(line), line


def test_9_card_row_gains_come_from_a_table_with_the_very_figures():
    """9-card's gains are looked up by the ranks of the row and of the card (a card's
    value is its rank's): they must be the figures worked out from the row itself,
    and a policy seated with another mean must not reuse the first one's table."""
    from golfbox.bots.playout import PlayoutPolicy

    variant = get_variant("9-card")
    policy = PlayoutPolicy(variant, make_rules(variant, {}))
    rng = random.Random(4)
    deck = list(range(54))
    for _ in range(3000):
        cells = [rng.choice(deck) if rng.random() < 0.6 else None for _ in range(9)]
        card = rng.choice(deck)
        expected = [g for start in (0, 3, 6) for g in policy.row_gain(cells[start:start + 3], card)]
        assert policy.gains(cells, card) == expected
    assert sum(policy.row_known) <= len(policy.row_known) == 15 ** 3 * 14
    seated = policy.seated(0, policy.mean - 1.0, 0.0)
    cells = [None] * 9
    assert seated.gains(cells, 0) != policy.gains(cells, 0)
    rows = (cells[0:3], cells[3:6], cells[6:9])
    assert seated.gains(cells, 0) == [g for row in rows for g in seated.row_gain(row, 0)]


def test_9_card_spends_the_time_fewer_players_leave_on_a_longer_horizon_or_more_play_outs():
    """A budget is a count of play-outs, by variant and number of players: a
    2-player 9-card play-out costs about half a 4-player one, so at 2 players it
    looks twice as far ahead (8 turns a player), and at 3 it gets more play-outs."""
    from golfbox.bots.search import budget_for, horizon_for
    from golfbox.engine import TURN

    spent, ahead = {}, {}
    for players in (2, 4):
        round_ = round_at("9-card", {}, players, 5, 6 * players)
        seat = round_.acting_seats[0]
        view = round_.view(seat)
        assert view.phase == TURN and not view.flips_due and len(view.legal) == 2
        bot = SearchBot(random.Random(3))
        bot.search(view, view.legal)
        spent[players] = sum(alive * batch for alive, batch in bot.laps_spent)
        ahead[players] = (bot.turn_limit - round_.turns) // players
    assert spent == {2: 300, 4: 200}
    assert ahead == {2: 8, 4: 4}
    assert budget_for("9-card", 3) == 300 and horizon_for("9-card", 3) == 4
    assert [horizon_for(v, 2) for v in ("4-card", "6-card", "polish-poker")] == [4, 4, 4]
    assert [budget_for(v, 2) for v in ("4-card", "6-card", "polish-poker")] == [300, 200, 200]


def test_the_search_ranks_actions_by_the_futures_they_lead_to():
    """6-card, seat 0 holds an ace over a face-up pair of queens and a lone face-up
    jack: the ace on the jack gains 9, a discard nothing (but hands the other player an
    ace), the ace on a queen breaks the pair (+11). The search must play each action in
    its dealt rounds and rank them by what follows: where the play-out player's own
    choice stands, every other test passed with a search that applied no action or
    never sorted its results."""
    from engine_helpers import stacked_round
    from golfbox.engine import Action

    round_ = stacked_round("6-card", ["Q 5 4 / Q 3 4", "K K 9 / 8 8 6"], stock="J 9 A")
    for seat, flips in ((0, (0, 3)), (1, (0, 1))):
        for pos in flips:
            round_.apply(seat, Action("flip", pos))
    round_.apply(0, Action("draw"))  # the jack, face up over the 5
    round_.apply(0, Action("place", 1))
    round_.apply(1, Action("draw"))
    round_.apply(1, Action("discard"))
    round_.apply(0, Action("draw"))  # the ace
    view = round_.view(0)
    on_queen, discard, on_jack = Action("place", 0), Action("discard"), Action("place", 1)
    face_down = Action("place", 2)  # a card of 6.5 on average: a gain, though unknown
    for seed in range(4):
        bot = SearchBot(random.Random(seed), playouts=40)
        assert bot.search(view, (on_queen, discard, on_jack)) == on_jack == bot.best, seed
        # Without the play-out player's choice among them, the search alone decides.
        assert bot.search(view, (on_queen, face_down)) == face_down == bot.best, seed


def added_in_order(values, start=0):  # Python 3.11's sum() of floats
    for value in values:
        start += value
    return start


def added_correctly_rounded(values, start=0):  # what 3.12's compensated sum() comes near to
    values = list(values)
    if any(isinstance(v, float) for v in values):
        return math.fsum([start, *values])
    return added_in_order(values, start)


def bots_sum_as(monkeypatch, adder) -> None:
    """Every bot module's sum() adds floats as ``adder`` does: as 3.11 or as 3.12 on."""
    import golfbox.bots.greedy as greedy
    import golfbox.bots.levels as levels
    import golfbox.bots.playout as playout
    import golfbox.bots.search as search
    for module in (greedy, levels, playout, search):
        monkeypatch.setattr(module, "sum", adder, raising=False)


def test_the_search_adds_exactly_whatever_python_adds_floats_like(monkeypatch):
    """Python 3.12's sum() rounds a sum of floats better than 3.11's, which adds in order:
    Pi OS bookworm has 3.11, trixie 3.13, so a seeded match (or a journal resumed) could
    play differently. The same seeded 4-card game gave hard evidence -0.9863236561908039
    on 3.11 and -0.9863236561908035 on 3.13 (x86_64 and arm64 alike). Searched with
    either way of adding, every decision and its evidence must be the same."""
    results = {}
    for adder in (added_in_order, added_correctly_rounded):
        bots_sum_as(monkeypatch, adder)
        results[adder] = seen = []
        for seed in range(12):
            round_ = round_at("4-card", {}, 4, seed, 6 + seed)
            if round_.over or len(round_.view(round_.acting_seats[0]).legal) < 2:
                continue
            view = round_.view(round_.acting_seats[0])
            bot = SearchBot(random.Random(seed), playouts=60)
            seen.append((bot.search(view, view.legal), bot.best, bot.evidence))
    assert len(results[added_in_order]) >= 8
    assert results[added_in_order] == results[added_correctly_rounded]


def test_every_bot_estimate_is_the_same_whatever_python_adds_floats_like(monkeypatch):
    """The search's own sums are integers now (above), but the players inside it and medium
    estimated grids with sum() over cards and float means: 4-card, 6-card, polish-poker and
    9-card grids rated a last bit apart on 3.11 and 3.13, enough to break a tie between two
    places differently. Estimated with either way of adding, every figure is the same."""
    from golfbox.bots.greedy import estimate
    from golfbox.bots.playout import PlayoutPolicy

    figures = {}
    for adder in (added_in_order, added_correctly_rounded):
        bots_sum_as(monkeypatch, adder)
        rng = random.Random(7)
        figures[adder] = seen = []
        for name in ("4-card", "6-card", "polish-poker", "9-card"):
            variant = get_variant(name)
            rules = make_rules(variant, {})
            policy = PlayoutPolicy(variant, rules).seated(0, rng.uniform(3, 7), 0.0)
            for _ in range(300):
                grid = [rng.randrange(52) if rng.random() < 0.4 else None for _ in range(variant.size)]
                seen.append(estimate(variant, rules, grid, rng.uniform(3, 7)))
                seen.append(policy.estimate(grid))
            for seed in range(6):  # medium's read of the others, from positions it reaches
                round_ = round_at(name, {}, 3, seed, 4 + 3 * seed)
                seat = round_.acting_seats[0] if not round_.over else 0
                bot = make_bot("medium", random.Random(seed))
                seen.append(bot._opponent_estimates(round_.view(seat), rng.uniform(3, 7)))
    assert figures[added_in_order] == figures[added_correctly_rounded]
