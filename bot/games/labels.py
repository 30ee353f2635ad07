"""The default label of an action on a button (GameWords.action_label), for a game that
words none of its own: the imperative of the common shapes of a record's action ("Play
7♠", "Pass", "Bid 7"), read from the action as the record stores it; the game's narration
(`describe_action`) where the shape is not one of these.

A game words its actions itself (both of the bot's do, in their text_hand.py); this is the
third game's start: its buttons read as actions from its first day, not as the record's
narration ("played 7♠", issue 51)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.cards import card_label, is_card, parse_card
from bot.i18n import N_, _

# The verbs of the common actions, by the kind the record names ("action" or "kind"); an
# action without a kind that names a card is a card played. {what}: its card(s) or bid.
VERBS: dict[str, str] = {
    "play": N_("Play {what}"),
    "bid": N_("Bid {what}"),
    "call": N_("Call {what}"),
    "discard": N_("Discard {what}"),
    "pass": N_("Pass"),
    "draw": N_("Draw"),
}


def _what(action: Mapping[str, Any]) -> str | None:
    """The card, the cards or the bid an action names, as players read them."""
    names: list[Any] = []
    if "card" in action:
        names = [action["card"]]
    elif isinstance(action.get("cards"), list | tuple):
        names = list(action["cards"])
    if names and all(isinstance(n, str) and is_card(n) for n in names):
        return " ".join(card_label(parse_card(n)) for n in names)
    bid = action.get("bid")
    return str(bid) if isinstance(bid, int | str) and not isinstance(bid, bool) else None


def default_action_label(action: Mapping[str, Any],
                         narration: Callable[[Mapping[str, Any]], str]) -> str:
    """`action` as a button offers it: a common verb and what it names, else the game's
    `narration` of it."""
    kind = action.get("action", action.get("kind"))
    if kind is None and ("card" in action or "cards" in action):
        kind = "play"
    verb = VERBS.get(kind) if isinstance(kind, str) else None
    if verb is None:
        return narration(action)
    if "{what}" not in verb:
        return _(verb)
    what = _what(action)
    return _(verb).format(what=what) if what else narration(action)
