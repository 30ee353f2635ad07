"""American's refusals: the sentence for each code its rules raise, from the code and its
parameters (also the replay's error messages, docs/rules-american.md section 10), in the
locale of the moment. A code it does not word is given back, and the platform
words it (bot/render/refusals.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.cards import RANKS, card_label
from bot.errors import (
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    NOT_YOUR_TURN,
    SHARED_REASONS,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)
from bot.games.american import _, ngettext
from bot.tables.panel import quote

from .actions import FLIP, INVALID_INDEX, MIXED_RANKS, NOT_PLAYABLE, PICKUP_NOT_ALLOWED
from .views import DEAL_NOT_FINISHED, NO_CLAIMS


def _given(value: object) -> str:
    """A value a record or a player gave, quoted as written: 'AS', '7', 'null'."""
    if isinstance(value, str):
        return repr(value)
    try:
        return "'" + json.dumps(value) + "'"
    except (TypeError, ValueError):
        return repr(str(value))


def _choices(names: Sequence[str]) -> str:
    return ", ".join(names)


def _action_name(kind: str) -> str:
    """An action's name as a noun, to begin a sentence ("{A play} is not possible now")."""
    return {"play": _("A play"), "pickup": _("A pick-up"), "swap": _("A swap"),
            "flip": _("Turning over a face-down card")}.get(kind, repr(kind))


def _phase_now(phase: str, seat: int) -> str:
    """What the player to act is doing, as the end of a sentence."""
    if phase == "swap":
        return _("seat {seat} is to swap").format(seat=seat)
    if phase == FLIP:
        return _("seat {seat} is to turn over a face-down card").format(seat=seat)
    return _("seat {seat} is to play").format(seat=seat)


def _part_name(part: str) -> str:
    return {"down": _("face-down cards"), "up": _("face-up cards"), "hand": _("hands"),
            "deck": _("deck")}.get(part, part)


# ----------------------------------------------------------------- refusals

def _invalid_record(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    simple = {
        "first_dealer_not_whole": _("first_dealer must be a whole number."),
        "deals_not_list": _("The record's deals must be a list."),
        "deck_not_list": _("A deal's deck must be a list of cards."),
        "cards_not_list": _("The cards of an action must be a list."),
    }
    if reason in simple:
        return simple[reason]
    if reason == "format":
        return _("Unknown record format {format}; expected {expected}.").format(
            format=_given(p["format"]), expected=repr(p["expected"]))
    if reason == "deal_not_object":
        return _("Deal {index} is not a JSON object.").format(index=p["index"])
    if reason == "rows_not_lists":
        return _("A deal's {part} must be a list of rows of cards.").format(
            part=_part_name(p["part"]))
    if reason == "actions_not_list":
        return _("The actions of deal {index} must be a list.").format(index=p["index"])
    if reason == "unfinished":
        return _("Deal {index} is not finished, yet another deal follows.").format(
            index=p["index"])
    if reason == "unknown_action":
        return _("Unknown action {kind}.").format(kind=_given(p["kind"]))
    if reason == "unknown_key":
        return _("Unknown key {key} in a {kind} action.").format(key=repr(p["key"]),
                                                                  kind=_given(p["kind"]))
    if reason == "missing_key":
        return _("A {kind} action needs {key}.").format(kind=_given(p["kind"]),
                                                        key=repr(p["key"]))
    if reason == "seat_not_whole":
        return _("The action needs a whole seat number, not {value}.").format(
            value=_given(p["value"]))
    if reason == "not_whole":
        return _("{key} must be a whole number, not {value}.").format(
            key=repr(p["key"]), value=_given(p["value"]))
    if reason == "not_list":
        return _("{key} must be a list of cards.").format(key=repr(p["key"]))
    if reason == "no_seat":
        seat = p["seat"]
        return _("Seat {seat} does not exist at a table of {players}.").format(
            seat=seat if isinstance(seat, int) else _given(seat), players=p["players"])
    return _("The record is malformed.")


def _invalid_rules(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "wrong_game":
        return _("rules.game must be {expected}, not {game}.").format(
            expected=repr(p["expected"]), game=_given(p["game"]))
    if reason == "player_count":
        return _("American is for {low} to {high} players, not {players}.").format(
            low=p["low"], high=p["high"], players=p["players"])
    if reason == "rules_not_object":
        return _("The rules must be an object with game, players and options.")
    if reason == "bad_target":
        return _("The target must be a positive whole number, not {value}.").format(
            value=_given(p["value"]))
    if reason == "unknown_option":
        return _("Unknown option {option}. Options: {options}.").format(
            option=repr(p["option"]), options=_choices(p["options"]))
    if reason == "not_on_or_off":
        return _("Option {option} is on or off (true or false), not {value}.").format(
            option=repr(p["option"]), value=_given(p["value"]))
    return _("These rules cannot be played.")


def _invalid_deal(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "row_count":
        return ngettext("The {part} have {count} row for {players} players.",
                        "The {part} have {count} rows for {players} players.",
                        p["count"]).format(part=_part_name(p["part"]), count=p["count"],
                                           players=p["players"])
    if reason == "row_cards":
        return _("Seat {seat} was dealt {count} {part}, not {expected}.").format(
            seat=p["seat"], count=p["count"], part=_part_name(p["part"]),
            expected=p["expected"])
    return _("{value} in the deal is not a card.").format(value=_given(p.get("value")))


def _invalid_card(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "typed":
        return _("{text} is not a card or a rank: write cards like 7S 7H, or a rank like "
                 "7 or K.").format(text=quote(str(p["text"])))
    if reason == "rank_not_held":
        return _("You hold no {rank} in your hand.").format(rank=RANKS[p["rank"]])
    if reason == "position":
        return _("{text} is not a position: turn over card 1, 2 or 3.").format(
            text=quote(str(p["text"])))
    value = p.get("value", p.get("text"))
    return _("{value} is not a card.").format(value=_given(value))


def _wrong_phase(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "deal_over":
        return _("This deal is over.")
    if reason == "deal_unfinished":
        return _("The current deal is not finished.")
    if reason == "not_dealt":
        return _("No deal is being played.")
    return _("{kind} is not possible now: {now}.").format(
        kind=_action_name(p["kind"]), now=_phase_now(p["phase"], p["to_act"]))


def _wrong_card_count(p: dict[str, Any]) -> str:
    if p.get("reason") == "swap":
        return _("A swap gives as many hand cards as it takes face-up cards, not {given} "
                 "for {taken}.").format(given=p["given"], taken=p["taken"])
    return _("A play needs at least one card.")


def _card_not_in_hand(p: dict[str, Any]) -> str:
    card = card_label(p["card"])
    if p.get("twice"):
        return _("{card} is named twice.").format(card=card)
    if p.get("reason") == "not_face_up":
        return _("{card} is not among your face-up cards.").format(card=card)
    return _("You do not hold {card}.").format(card=card)


def _not_playable(p: dict[str, Any]) -> str:
    return _("A {rank} cannot go on the {top} on top of the pile.").format(
        rank=RANKS[p["rank"]], top=card_label(p["top"]))


def _pickup_not_allowed(p: dict[str, Any]) -> str:
    if p.get("reason") == "empty":
        return _("The pile is empty: there is nothing to pick up.")
    return _("You can play ({cards}), so you may not pick up the pile.").format(
        cards=", ".join(card_label(c) for c in p["cards"]))


def _invalid_index(p: dict[str, Any]) -> str:
    return ngettext("You have {size} face-down card: there is no position {index}.",
                    "You have {size} face-down cards: there is no position {index}.",
                    p["size"]).format(size=p["size"], index=p["index"])


def _deal_not_finished(p: dict[str, Any]) -> str:
    index = p.get("index")
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        return _("Deal {number} cannot be shown face up: it is not over, or there is no "
                 "such deal yet.").format(number=index + 1)
    return _("There is no deal {index} to show face up.").format(index=_given(index))


def _game_over(p: dict[str, Any]) -> str:
    if p.get("reason") == "before_deal":
        return _("The match was over before this deal.")
    return _("The match is over.")


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    INVALID_RECORD: _invalid_record,
    INVALID_RULES: _invalid_rules,
    INVALID_DEAL: _invalid_deal,
    INVALID_CARD: _invalid_card,
    GAME_OVER: _game_over,
    WRONG_PHASE: _wrong_phase,
    NOT_YOUR_TURN: lambda p: _("It is seat {to_act}'s turn, not seat {seat}'s.").format(
        to_act=p["to_act"], seat=p["seat"]),
    WRONG_CARD_COUNT: _wrong_card_count,
    CARD_NOT_IN_HAND: _card_not_in_hand,
    MIXED_RANKS: lambda p: _("One play is cards of one rank, not {cards}.").format(
        cards=", ".join(card_label(c) for c in p["cards"])),
    NOT_PLAYABLE: _not_playable,
    PICKUP_NOT_ALLOWED: _pickup_not_allowed,
    INVALID_INDEX: _invalid_index,
    DEAL_NOT_FINISHED: _deal_not_finished,
    NO_CLAIMS: lambda p: _("American has no claim of the rest: every card is played out."),
}

ERROR_CODES = tuple(_SENTENCES)  # every code this game's refusals carry


def error_sentence(error: GameError) -> str:
    """The sentence for one of this game's refusals, from its code and parameters, in the
    locale of the moment."""
    if error.params.get("reason") in SHARED_REASONS.get(error.code, ()):
        return error.code  # worded alike for every game: the platform's words
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players
    return sentence(error.params)
