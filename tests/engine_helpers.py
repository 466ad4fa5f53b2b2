"""Helpers for engine tests: stacked decks written in the notation of RULES.md."""

from __future__ import annotations

from golfbox.engine import Round, build_deck, get_variant, make_rules, parse_card, parse_grid


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def stacked_round(variant_name: str, grids: list[str], *, discard: str = "5D", stock: str = "",
                  rules: dict | None = None, dealer: int | None = None, **kwargs) -> Round:
    """A round dealt so that seat i gets grids[i] (notation), the discard starts with
    ``discard`` and the stock's top cards are ``stock`` (first word on top); the rest of
    the deck follows so that every card exists exactly as often as in a real deck."""
    variant = get_variant(variant_name)
    players = len(grids)
    dealer = players - 1 if dealer is None else dealer  # seat 0 is dealt first and plays first
    parse_grid(" / ".join(grids[0].split("/")), variant)  # checks the shape and the cards
    words = [g.replace("/", " ").split() for g in grids]
    rest = build_deck(variant.decks(players), variant.jokers_per_deck)

    def take(word: str) -> int:
        """The card written, or any card of that rank when no suit is written."""
        card = parse_card(word)
        suited = word.upper() == "JK" or word[-1].upper() in "CDHS"
        # Jokers have no suit but two faces in the deck (0 and 1): a third joker (two
        # decks) is the other face.
        if not suited or (word.upper() == "JK" and card not in rest):
            card = next(c for c in rest if c >> 2 == card >> 2)
        rest.remove(card)
        return card

    order: list[int] = []
    first = (dealer + 1) % players
    for pos in range(variant.size):  # one card at a time, starting left of the dealer
        for i in range(players):
            order.append(take(words[(first + i) % players][pos]))
    order.append(take(discard))
    order += [take(w) for w in stock.split()]
    return Round(variant, make_rules(variant, rules or {}), players, dealer=dealer,
                 deck=order + rest, **kwargs)


def finishing_action(round_, seat):
    """A legal action that moves the round towards its end: turn up or replace a
    face-down card, else knock, else draw."""
    legal = round_.legal_actions(seat)
    for action in legal:
        if action.kind in ("flip", "place") and not round_.face_up[seat] >> action.pos & 1:
            return action
    for kind in ("knock", "ready", "draw", "discard", "pass"):
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]
