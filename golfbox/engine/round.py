"""One round of Golf: the deal, the start phase, turns, the end, the scoring.

``Round.apply(seat, action)`` is the only way the state changes. It checks the
action against ``legal_actions(seat)`` first, so an illegal action raises
IllegalAction and changes nothing. The round mutates in place (like a chess
board's push) because simulation speed matters; ``view(seat)`` hands out
immutable snapshots.

Speed notes (bench/engine_speed.py): everything public lives in one flat list
``_pub`` laid out like PublicTable, so a snapshot for a view is one C-level
copy, and what only views read (the grids as one tuple, the last action as a
NamedTuple) is rebuilt when a view is taken, not on every action; legal actions
are precomputed tuples (see actions.action_tables), looked up once per
decision; ``acting_seats`` is kept up to date rather than worked out.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Sequence

from golfbox.engine import actions as A
from golfbox.engine.actions import Action, action_tables
from golfbox.engine.cards import Card, build_deck, shuffle
from golfbox.engine.scoring import apply_penalties, grid_score
from golfbox.engine.variants import (
    START_CHOOSE_TWO,
    START_FIRST_TURN_THREE,
    START_PEEK_NEAREST,
    START_RANDOM_TWO,
    Rules,
    Variant,
)
from golfbox.engine.views import (
    DISCARD_PILE,
    FLIP_OPTION,
    HOLDING,
    OVER,
    START,
    STOCK,
    TURN,
    LastAction,
    PublicTable,
    SeatView,
)

# Indexes into Round._pub, in PublicTable's field order.
(_VARIANT, _RULES, _PLAYERS, _ROUND_NO, _ROUNDS, _DEALER, _PHASE, _TO_MOVE, _GRIDS, _FACE_UP,
 _HOLDER, _HELD_FROM, _PUBLIC_HELD, _DISCARD_TOP, _DISCARD_SIZE, _STOCK_SIZE, _KNOCKER, _ENDER,
 _FINAL_TURNS_LEFT, _START_PENDING, _LAST, _ROUND_SCORES, _RAW_SCORES, _TOTALS, _HISTORY,
 _DISCARD_PILE, _OWNER_SEEN, _TURNS, _RESTOCKED_AT) = range(len(PublicTable._fields))

_snapshot = tuple.__new__  # tuple.__new__(PublicTable, list): a C-level copy
_PLACE_KIND, _DRAW_KIND = A.PLACE, A.DRAW  # the two most frequent kinds, as globals


class IllegalAction(ValueError):
    """An action the seat may not take now. The round is unchanged."""


def start_kind(variant: Variant, rules: Rules) -> str:
    """How this round starts, after house rules."""
    if variant.start == START_CHOOSE_TWO and rules.get("peek_row"):
        return START_PEEK_NEAREST
    if variant.start == START_RANDOM_TWO and rules.get("choose_start"):
        return START_CHOOSE_TWO
    return variant.start


@lru_cache(maxsize=None)
def _fresh_deck(decks: int, jokers_per_deck: int) -> tuple[Card, ...]:
    return tuple(build_deck(decks, jokers_per_deck))


@lru_cache(maxsize=None)
def _single_actors(players: int) -> tuple[tuple[int], ...]:
    """For each seat, the acting_seats tuple of that seat's turn."""
    return tuple((seat,) for seat in range(players))


def _public_property(index: int, doc: str) -> property:
    return property(lambda self: self._pub[index], doc=doc)


class Round:
    def __init__(self, variant: Variant, rules: Rules, players: int, *, dealer: int = 0,
                 rng: random.Random | None = None, deck: Sequence[Card] | None = None,
                 round_no: int = 1, rounds: int = 1, totals: Sequence[int] | None = None):
        """Deal a round. ``deck`` (first card dealt first) stacks the deck for tests;
        otherwise the deck is shuffled with ``rng`` (the OS's randomness when None)."""
        variant.check_players(players)
        dealer %= players
        self._set_rules(variant, rules, players, rng)
        self._totals_before = tuple(totals) if totals is not None else (0,) * players

        if deck is None:
            stock = list(_fresh_deck(variant.decks(players), variant.jokers_per_deck))
            shuffle(stock, self._rng)
        else:
            stock = list(reversed(deck))  # the top of the stock is the end of the list
        self._dealt_from = tuple(stock)  # for the one-place-per-card invariant

        # Deal one card at a time from the top, starting left of the dealer: the i-th
        # player after the dealer gets every players-th card of the cards dealt.
        first = (dealer + 1) % players
        dealt_count = players * variant.size
        dealt = stock[:-dealt_count - 1:-1]
        del stock[-dealt_count:]
        self.grids: list[list[Card]] = [[] for _ in range(players)]
        for i in range(players):
            self.grids[(first + i) % players] = dealt[i::players]
        self.stock: list[Card] = stock
        self.discard: list[Card] = [stock.pop()]
        self.face_up = [0] * players
        self.known = [0] * players  # own face-down cards each seat has legitimately seen
        self.held: Card | None = None
        self.start_pending = [0] * players
        self.first_flips = [0] * players
        self.turns = 0
        self.start = start_kind(variant, rules)

        phase = TURN
        if self.start == START_PEEK_NEAREST:
            nearest = ((1 << variant.cols) - 1) << (variant.cols * (variant.rows - 1))
            self.known = [nearest] * players
            self.start_pending = [1] * players  # each seat says "ready" when done looking
            phase = START
        elif self.start == START_CHOOSE_TWO:
            self.start_pending = [2] * players
            phase = START
        elif self.start == START_RANDOM_TWO:
            for seat in range(players):
                for pos in self._rng.sample(range(variant.size), 2):
                    self.face_up[seat] |= 1 << pos
        elif self.start == START_FIRST_TURN_THREE:
            self.first_flips = [3] * players

        self._starting = tuple(range(players)) if phase == START else ()
        self._single_actor = _single_actors(players)
        # Seats that may act now: every seat with start actions due, or the seat to move.
        # A plain attribute, kept up to date by the changes below, because the play loop
        # reads it before every action.
        self.acting_seats: tuple[int, ...] = (
            self._starting if phase == START else self._single_actor[first])
        if any(self.face_up):
            self._public_grids = [self._public_grid(s) for s in range(players)]
        else:
            self._public_grids = [(None,) * variant.size] * players
        self._public_stale = False
        # Every action's fields as LastAction will hold them, in order: the public history
        # (its last entry is the last action).
        self._history: list[tuple] = []
        self._record = self._history.append  # bound once: apply() calls it on every action
        self._history_public: list[LastAction] = []  # the same as LastActions, made lazily
        self._legal_seat: int | None = None  # the seat whose legal actions view() computed
        self._legal: tuple[Action, ...] = ()
        self._pub: list = [
            variant, rules, players, round_no, rounds, dealer, phase,
            first if phase == TURN else None, tuple(self._public_grids), tuple(self.face_up),
            None, None, None, self.discard[-1], 1, len(stock), None, None, None,
            tuple(self.start_pending), None, None, None, self._totals_before,
            (), (self.discard[-1],), tuple(self.known), 0, None,
        ]
        if not stock:
            # Only a stacked deck gets here (every real deal leaves a stock): with nothing
            # to draw and a one-card discard, the round ends at once, as when it runs out.
            self._finish()

    def _set_rules(self, variant: Variant, rules: Rules, players: int, rng) -> None:
        self.variant, self.rules, self.players = variant, rules, players
        self._rng = rng if rng is not None else random.SystemRandom()
        self._tables = action_tables(variant.size)
        self._full = (1 << variant.size) - 1
        self._final_turn_rule = variant.final_turns_after_finish or bool(rules.get("final_turn"))
        # Variant flags read on every action, looked up once.
        self._place_face_up = variant.place_face_up
        self._ends_when_all_face_up = variant.ends_when_all_face_up
        self._flip_after_discard = variant.flip_after_discard
        self._can_knock = variant.can_knock
        self._holding_from_stock = (  # what a card drawn from the stock allows
            self._tables.place_or_discard if variant.draw_and_discard else self._tables.place_all)

    # ------------------------------------------------------------------ copies

    def copy(self, rng: random.Random | None = None) -> "Round":
        """An independent copy (for search): ``apply`` on it leaves this round alone.
        Its shuffles (a stock running out) draw from ``rng``, or from a copy of this
        round's generator. A few list copies: no deepcopy, no re-dealing."""
        new = object.__new__(Round)
        state = self.__dict__.copy()
        state["grids"] = [grid[:] for grid in self.grids]
        for name in ("stock", "discard", "face_up", "known", "start_pending", "first_flips",
                     "_public_grids", "_pub", "_history", "_history_public"):
            state[name] = state[name][:]
        state["_record"] = state["_history"].append
        if rng is None and not isinstance(self._rng, random.SystemRandom):
            rng = random.Random()
            rng.setstate(self._rng.getstate())
        if rng is not None:
            state["_rng"] = rng
        new.__dict__ = state
        return new

    @classmethod
    def from_view(cls, view: SeatView, grids: Sequence[Sequence[Card]], stock: Sequence[Card],
                  held: Card | None = None, *, rng: random.Random | None = None) -> "Round":
        """A round in the state ``view`` shows, with the cards it does not show filled in:
        ``grids`` every seat's cards, ``stock`` the stock (top card last), ``held`` the card
        in hand when the view does not show it. What the view shows must agree (ValueError
        otherwise), so ``round.view(view.seat)`` equals ``view``. Search builds these from a
        view plus a sample of the unseen cards (golfbox.engine.determinize)."""
        table = view.table
        variant, rules, players = table.variant, table.rules, table.players
        if len(grids) != players or any(len(g) != variant.size for g in grids):
            raise ValueError("grids do not match the view's table")
        for seat, shown in enumerate(view.grids):
            for pos, card in enumerate(shown):
                if card is not None and card != grids[seat][pos]:
                    raise ValueError(f"seat {seat} position {pos} is not the card the view shows")
        if len(stock) != table.stock_size:
            raise ValueError(f"the view's stock holds {table.stock_size} cards, not {len(stock)}")
        if table.holder is None:
            held = None
        elif view.held is not None:
            held = view.held
        elif held is None:
            raise ValueError("the view shows a card in hand: say which")
        new = object.__new__(cls)
        new._set_rules(variant, rules, players, rng)
        new._totals_before = table.totals if table.phase != OVER else tuple(
            t - s for t, s in zip(table.totals, table.round_scores))
        new.grids = [list(g) for g in grids]
        new.stock = list(stock)
        new.discard = list(table.discard_pile)
        new.face_up = list(table.face_up)
        new.known = list(table.owner_seen)
        new.held = held
        new.start_pending = list(table.start_pending)
        new.start = start_kind(variant, rules)
        new.first_flips = [0] * players
        if new.start == START_FIRST_TURN_THREE:
            # Three flips on a seat's first turn: those not yet made are still due.
            new.first_flips = [3] * players
            for seat, action, _ in table.history:
                if action.kind == A.FLIP:
                    new.first_flips[seat] -= 1
        new.turns = table.turns
        new._dealt_from = tuple(new.stock) + tuple(new.discard) + tuple(
            c for g in grids for c in g) + ((held,) if held is not None else ())
        phase = table.phase
        new._starting = tuple(s for s in range(players) if new.start_pending[s]) \
            if phase == START else ()
        new._single_actor = _single_actors(players)
        new.acting_seats = (new._starting if phase == START else () if phase == OVER
                            else new._single_actor[table.to_move])
        new._public_grids = list(table.grids)
        new._public_stale = False
        new._history = [tuple(h) for h in table.history]
        new._record = new._history.append
        new._history_public = list(table.history)
        new._legal_seat, new._legal = None, ()
        new._pub = list(table)
        return new

    phase = _public_property(_PHASE, "START, TURN, HOLDING, FLIP_OPTION or OVER")
    to_move = _public_property(_TO_MOVE, "the seat whose turn it is (None in the start phase)")
    dealer = _public_property(_DEALER, "the dealer of this round")
    round_no = _public_property(_ROUND_NO, "this round's number in the match, from 1")
    held_from = _public_property(_HELD_FROM, "STOCK or DISCARD_PILE while a card is in hand")
    knocker = _public_property(_KNOCKER, "the seat that knocked")
    ender = _public_property(_ENDER, "the seat that knocked or turned up its last card")
    final_turns_left = _public_property(_FINAL_TURNS_LEFT, "turns left once the round is ending")
    scores = _public_property(_ROUND_SCORES, "round scores after penalties, once over")
    raw_scores = _public_property(_RAW_SCORES, "round scores before penalties, once over")

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self._pub[_PHASE] == OVER

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do now: a precomputed tuple picked by phase and face-down mask.
        It is remembered, so that apply() by the same seat needs not look again."""
        pub = self._pub
        phase = pub[_PHASE]
        if seat != pub[_TO_MOVE]:  # in the start phase nobody is "to move"
            if phase != START or seat not in self._starting:  # (no seat -1 wraps around)
                legal = ()
            elif self.start == START_PEEK_NEAREST:
                legal = self._tables.ready
            else:
                legal = self._tables.flip_by_facedown[self._full & ~self.face_up[seat]]
        elif phase == TURN:
            if self.first_flips[seat]:
                legal = self._tables.flip_by_facedown[self._full & ~self.face_up[seat]]
            elif self._can_knock and pub[_KNOCKER] is None and pub[_ENDER] is None:
                legal = self._tables.turn_start_with_knock
            else:
                legal = self._tables.turn_start
        elif phase == HOLDING:
            legal = self._holding_from_stock if pub[_HELD_FROM] == STOCK else self._tables.place_all
        elif phase == FLIP_OPTION:
            legal = self._tables.flip_or_pass_by_facedown[self._full & ~self.face_up[seat]]
        else:
            legal = ()
        self._legal_seat, self._legal = seat, legal
        return legal

    @property
    def initial_cards(self) -> Counter:
        """Every card the round was dealt from."""
        return Counter(self._dealt_from)

    def all_cards(self) -> Counter:
        """Every card wherever it is: stock, discard, hand, grids (for invariants)."""
        cards = Counter(self.stock)
        cards.update(self.discard)
        for grid in self.grids:
            cards.update(grid)
        if self.held is not None:
            cards[self.held] += 1
        return cards

    # ------------------------------------------------------------------ change

    def apply(self, seat: int, action: Action) -> None:
        legal = self._legal if seat == self._legal_seat else None
        if legal is None:
            if not (type(seat) is int and 0 <= seat < self.players):
                raise IllegalAction(self.why_illegal(seat, action))
            legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(self.why_illegal(seat, action))
        self._legal_seat = None  # the state changes: legal actions must be asked again
        # Every action changes the last action and may turn cards up: the public
        # snapshot is brought up to date when next looked at (public_table).
        self._public_stale = True
        kind = action[0]
        pub = self._pub
        if kind == _PLACE_KIND:
            self._place(seat, action)
        elif kind == _DRAW_KIND:
            self.held = self.stock.pop()
            pub[_PHASE], pub[_HOLDER], pub[_HELD_FROM] = HOLDING, seat, STOCK
            pub[_STOCK_SIZE] = len(self.stock)
            self._record((seat, action, None))
        elif kind == A.TAKE:
            discard = self.discard
            self.held = card = discard.pop()
            pub[_PHASE], pub[_HOLDER], pub[_HELD_FROM], pub[_PUBLIC_HELD] = (
                HOLDING, seat, DISCARD_PILE, card)
            pub[_DISCARD_TOP] = discard[-1] if discard else None
            pub[_DISCARD_SIZE] = len(discard)
            self._record((seat, action, card))
        elif kind == A.DISCARD:
            card = self.held
            self.held = pub[_HOLDER] = pub[_HELD_FROM] = None
            self.discard.append(card)
            pub[_DISCARD_TOP], pub[_DISCARD_SIZE] = card, len(self.discard)
            self._record((seat, action, card))
            if self._flip_after_discard and self.face_up[seat] != self._full:
                pub[_PHASE] = FLIP_OPTION
            else:
                self._end_turn(seat)
        elif kind == A.FLIP:
            self._flip(seat, action)
        elif kind == A.PASS:
            self._record((seat, action, None))
            self._end_turn(seat)
        elif kind == A.KNOCK:
            pub[_KNOCKER] = pub[_ENDER] = seat
            pub[_FINAL_TURNS_LEFT] = self.players - 1
            self._record((seat, action, None))
            self._end_turn(seat, triggered=True)
        elif kind == A.READY:
            self._record((seat, action, None))
            self._start_done(seat)

    def _place(self, seat: int, action: Action) -> None:
        pos = action[1]
        pub = self._pub
        grid = self.grids[seat]
        replaced = grid[pos]
        grid[pos] = placed = self.held
        self.discard.append(replaced)
        self.held = pub[_HOLDER] = pub[_HELD_FROM] = pub[_PUBLIC_HELD] = None
        pub[_DISCARD_TOP], pub[_DISCARD_SIZE] = replaced, len(self.discard)
        self._record((seat, action, replaced))
        if not self._place_face_up:
            self.known[seat] |= 1 << pos  # placed face down, but its owner saw it
            self._end_turn(seat)
            return
        # Turned up (as _turn_up does, written out: this is the most frequent action).
        face_up = self.face_up
        face_up[seat] |= 1 << pos
        public = list(self._public_grids[seat])
        public[pos] = placed
        self._public_grids[seat] = tuple(public)
        if face_up[seat] == self._full and self._ends_when_all_face_up and pub[_ENDER] is None:
            pub[_ENDER] = seat
            if not self._final_turn_rule:
                self._finish()  # 6-card: the round ends at once
                return
            pub[_FINAL_TURNS_LEFT] = self.players - 1
            self._end_turn(seat, triggered=True)
            return
        self._end_turn(seat)

    def _flip(self, seat: int, action: Action) -> None:
        pos = action[1]
        card = self.grids[seat][pos]
        self._turn_up(seat, pos, card)
        self._record((seat, action, card))
        phase = self._pub[_PHASE]
        if phase == START:
            self._start_done(seat)
        elif phase == FLIP_OPTION:
            self._end_turn(seat)
        else:  # 9-card: the first turn begins with three flips, then goes on as normal
            self.first_flips[seat] -= 1

    def _turn_up(self, seat: int, pos: int, card: Card) -> None:
        """``card`` now lies face up at ``pos``: everyone sees it."""
        self.face_up[seat] |= 1 << pos
        public = list(self._public_grids[seat])
        public[pos] = card
        self._public_grids[seat] = tuple(public)

    def _start_done(self, seat: int) -> None:
        """``seat`` did one of its start actions; turns begin once every seat is done."""
        pending = self.start_pending
        pending[seat] -= 1
        self._pub[_START_PENDING] = tuple(pending)
        if not pending[seat]:
            self.acting_seats = self._starting = tuple(s for s in self._starting if s != seat)
            if not self._starting:
                self._pub[_PHASE] = TURN
                self._pub[_TO_MOVE] = first = (self._pub[_DEALER] + 1) % self.players
                self.acting_seats = self._single_actor[first]

    def _end_turn(self, seat: int, triggered: bool = False) -> None:
        pub = self._pub
        self.turns += 1
        final_left = pub[_FINAL_TURNS_LEFT]
        if final_left is not None and not triggered:
            pub[_FINAL_TURNS_LEFT] = final_left = final_left - 1
        if final_left == 0:
            self._finish()
            return
        if not self.stock:
            # The discard pile but its top card becomes the new stock.
            top = self.discard.pop()
            self.stock, self.discard = self.discard, [top]
            shuffle(self.stock, self._rng)
            pub[_DISCARD_SIZE] = 1
            pub[_STOCK_SIZE] = len(self.stock)
            pub[_RESTOCKED_AT] = self.turns  # the players are told (render/table.py)
            if not self.stock:
                self._finish()
                return
        pub[_PHASE] = TURN
        pub[_TO_MOVE] = following = (seat + 1) % self.players
        self.acting_seats = self._single_actor[following]

    def _finish(self) -> None:
        variant, rules, pub = self.variant, self.rules, self._pub
        raw = [grid_score(variant, rules, [c >> 2 for c in grid]) for grid in self.grids]
        scores = tuple(apply_penalties(variant, rules, raw, pub[_ENDER],
                                       knocked=pub[_KNOCKER] is not None))
        self.face_up = [self._full] * self.players  # every card is revealed for scoring
        self._public_grids = [tuple(g) for g in self.grids]
        pub[_GRIDS], pub[_FACE_UP] = tuple(self._public_grids), tuple(self.face_up)
        pub[_RAW_SCORES], pub[_ROUND_SCORES] = tuple(raw), scores
        pub[_TOTALS] = tuple(t + s for t, s in zip(self._totals_before, scores))
        pub[_PHASE] = OVER
        pub[_TO_MOVE] = pub[_FINAL_TURNS_LEFT] = None
        self.acting_seats = ()

    # ------------------------------------------------------------------ views

    def _public_grid(self, seat: int) -> tuple[Card | None, ...]:
        up = self.face_up[seat]
        if not up:
            return (None,) * len(self.grids[seat])
        return tuple(c if up >> p & 1 else None for p, c in enumerate(self.grids[seat]))

    def public_table(self) -> PublicTable:
        pub = self._pub
        if self._public_stale:
            pub[_GRIDS], pub[_FACE_UP] = tuple(self._public_grids), tuple(self.face_up)
            history = self._history_public
            for raw in self._history[len(history):]:
                history.append(_snapshot(LastAction, raw))
            pub[_LAST] = history[-1] if history else None
            pub[_HISTORY] = tuple(history)
            pub[_DISCARD_PILE], pub[_OWNER_SEEN] = tuple(self.discard), tuple(self.known)
            pub[_TURNS] = self.turns
            self._public_stale = False
        return _snapshot(PublicTable, pub)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (None: the public view for the shared display)."""
        pub = self._pub
        table = self.public_table()
        if seat is None:
            return _snapshot(SeatView, (table, None, (), None, 0, pub[_PUBLIC_HELD], 0))
        known = self.known[seat] & ~self.face_up[seat]
        own = self._public_grids[seat]
        if known:
            grid = self.grids[seat]
            own = tuple(grid[p] if known >> p & 1 else c for p, c in enumerate(own))
        held = self.held if pub[_HOLDER] == seat else pub[_PUBLIC_HELD]
        if pub[_PHASE] == START:
            flips = self.start_pending[seat] if self.start != START_PEEK_NEAREST else 0
        else:
            flips = self.first_flips[seat]
        legal = self.legal_actions(seat)
        return _snapshot(SeatView, (table, seat, legal, own, known, held, flips))

    # ------------------------------------------------------------------ errors

    def why_illegal(self, seat: int, action: Action) -> str:
        """A sentence a player can read: why ``action`` is not allowed for ``seat`` now."""
        who = f"seat {seat}"
        phase, to_move = self._pub[_PHASE], self._pub[_TO_MOVE]
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return f"there is no seat {seat} at a table of {self.players}"
        if not isinstance(action, Action) or action.kind not in A.KINDS:
            return f"{action!r} is not an action"
        if action.kind in A.KINDS_WITH_POS and not 0 <= action.pos < self.variant.size:
            return f"position {action.pos} is not in the {self.variant.rows}×{self.variant.cols} grid"
        if phase == OVER:
            return "the round is over"
        legal_kinds = {a.kind for a in self.legal_actions(seat)}
        if phase == START:
            if not self.start_pending[seat]:
                return f"{who} has done its start and waits for the others"
            if self.start == START_PEEK_NEAREST:
                return f"{who} is looking at its nearest row: press ready when done"
            if action.kind == A.FLIP:
                return f"{who}'s card at position {action.pos} is already face up"
            return f"{who} must first turn up {self.start_pending[seat]} more card(s)"
        if seat != to_move:
            return f"it is seat {to_move}'s turn, not {who}'s"
        if action.kind == A.FLIP and A.FLIP in legal_kinds:
            return f"{who}'s card at position {action.pos} is already face up"
        if phase == TURN and self.first_flips[seat]:
            return f"{who} must first turn up {self.first_flips[seat]} more card(s)"
        if action.kind == A.KNOCK and (phase == TURN or not self.variant.can_knock):
            # (Mid-turn, what the seat may do says why: a knock is a whole turn.)
            if self.variant.can_knock:
                return "nobody may knock once the round is ending"
            return f"there is no knocking in {self.variant.name}"
        if phase == HOLDING:
            if action.kind == A.DISCARD:
                if self._pub[_HELD_FROM] == DISCARD_PILE:
                    return "a card taken from the discard pile must be placed, not discarded"
                return f"a drawn card must be placed in {self.variant.name}"
            return f"{who} holds a card: place it" + (
                " or discard it" if A.DISCARD in legal_kinds else "")
        if phase == FLIP_OPTION:
            return f"{who} may turn up one face-down card or pass"
        return f"{who} may {' / '.join(sorted(legal_kinds))} now, not {action}"
