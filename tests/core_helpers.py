"""Helpers to set up positions for rules-core tests: readable deals and action scripts."""

from __future__ import annotations

import random

from bot.cards import cards_of, parse_card
from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.deal import Deal
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.text_refusals import error_sentence


def card(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> tuple[int, ...]:
    return tuple(card(t) for t in text.split())


def make_deal(rules: Rules, fixed: dict[int, str] | None = None, kitty: str | None = None,
              blind: str | None = None, seed: int | None = None) -> Deal:
    """A deal where the seats in `fixed` hold exactly those cards; the rest of the pack
    goes, in display order (shuffled by `seed`, if given), to the other seats, then to
    the kitty or blind."""
    fixed = fixed or {}
    given = {seat: cards(text) for seat, text in fixed.items()}
    used = {c for hand in given.values() for c in hand}
    kitty_cards = cards(kitty) if kitty else None
    blind_cards = cards(blind) if blind else None
    used.update(kitty_cards or ())
    used.update(blind_cards or ())
    rest = [c for c in cards_of(rules.pack) if c not in used]
    if seed is not None:
        random.Random(seed).shuffle(rest)
    hands = []
    for seat in range(rules.players):
        if seat in given:
            hands.append(given[seat])
        else:
            hands.append(tuple(rest[:rules.cards_each]))
            rest = rest[rules.cards_each:]
    if kitty_cards is None:
        kitty_cards, rest = tuple(rest[:rules.kitty_size]), rest[rules.kitty_size:]
    if blind_cards is None:
        blind_cards, rest = tuple(rest[:rules.blind_size]), rest[rules.blind_size:]
    assert not rest, f"cards left over: {rest}"
    deal = Deal(hands=tuple(hands), kitty=kitty_cards, blind=blind_cards)
    deal.validate(rules)
    return deal


def new_hand(preset: str = "amerikaner", players: int = 4, options: dict | None = None,
             fixed: dict[int, str] | None = None, dealer: int = 0, kitty: str | None = None,
             blind: str | None = None) -> Hand:
    rules = Rules.create(preset, players, options or {})
    return Hand(rules, dealer, make_deal(rules, fixed, kitty, blind))


def parse_step(step: str) -> Action:
    """`"1 bid 7"`, `"2 pass"`, `"3 discard 2C 3C"`, `"0 play AS call KS trump H"`."""
    words = step.split()
    seat, kind, rest = int(words[0]), words[1], words[2:]
    if kind == "bid":
        value: int | str = int(rest[0]) if rest[0].isdigit() else rest[0]
        return Action.make_bid(seat, value)
    if kind in ("pass", "redeal"):
        return Action(seat, kind)
    if kind in ("discard", "exchange"):
        return Action(seat, kind, cards=tuple(card(t) for t in rest))
    assert kind == "play", step
    call = trump = None
    if "call" in rest:
        call = card(rest[rest.index("call") + 1])
    if "trump" in rest:
        trump = rest[rest.index("trump") + 1]
    return Action.play(seat, card(rest[0]), call, trump)


def run(hand: Hand, *steps: str) -> Hand:
    for step in steps:
        hand.apply(parse_step(step))
    return hand


def refused(hand: Hand, step: str) -> str:
    """Apply a step that must be refused; return its code, checking nothing changed."""
    before = (hand.hands[:], hand.phase, hand.to_act, len(hand.actions), hand.trick[:],
              hand.tricks_won[:], hand.passed, hand.high_bid)
    try:
        hand.apply(parse_step(step))
    except GameError as exc:
        after = (hand.hands[:], hand.phase, hand.to_act, len(hand.actions), hand.trick[:],
                 hand.tricks_won[:], hand.passed, hand.high_bid)
        assert after == before, "a refused action changed the state"
        assert error_sentence(exc)  # every refusal has its sentence
        return exc.code
    raise AssertionError(f"{step!r} was accepted")
