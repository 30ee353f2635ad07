"""Amerikaner's refusals: the sentence for each code its rules raise, from the code and its
parameters (docs/record-format.md's errors), in the locale of the moment. A code it does
not word is given back, and the platform words it (bot/render/refusals.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.cards import card_label, card_name
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
from bot.games.amerikaner import _, ngettext
from bot.tables.panel import quote

from .actions import INVALID_BID
from .claim import INVALID_CLAIM
from .errors import (
    ALREADY_PASSED,
    BID_TOO_HIGH,
    BID_TOO_LOW,
    INVALID_CALL,
    INVALID_LEAD,
    INVALID_TRUMP,
    MUST_FOLLOW_SUIT,
    MUST_PLAY_CALLED_CARD,
    REDEAL_NOT_ALLOWED,
)
from .rules import BOOLEAN_OPTIONS, PRESET_TABLE
from .text_table import bid_label, option_name
from .views import DEAL_NOT_FINISHED

# ----------------------------------------------------------------- refusals by code

# A refusal's parameters are plain values (docs/record-format.md's errors, bot/errors.py):
# cards as ints, shown here as labels (A♠) or, for records and deals, in record notation
# (AS); values a record may hold of any type are shown as Python writes them (repr).

def _suit_plural(suit: int) -> str:
    return (_("spades"), _("hearts"), _("diamonds"), _("clubs"))[suit]


def _suit_singular(suit: int) -> str:
    return (_("spade"), _("heart"), _("diamond"), _("club"))[suit]


def _names(cards: Sequence[int]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _choices(names: Sequence[str]) -> str:
    return ", ".join(names)


def _phase_now(phase: str) -> str:
    return {"exchange": _("players are exchanging with the blind"),
            "bid": _("the bidding is on"), "discard": _("the bidder is discarding"),
            "lead": _("the opening lead is due"), "play": _("the cards are being played"),
            "done": _("this hand is over")}[phase]


_PRESETS_FOR_OPTION = {"no_kitty": "amerikaner", "jokers": "amerikaner",
                       "show_kitty": "amerikaner with a kitty",
                       "kitty_trick": "amerikaner with a kitty",
                       "bidder_double": "amerikaner and norsk",
                       "partner_half": "amerikaner and norsk",
                       "all_pass_play": "amerikaner and norsk", "fixed_ten": "kani"}


def _presets_for(option: str) -> str:
    """Where an option applies, in words (preset names stay as they are typed)."""
    return {"amerikaner": "amerikaner", "kani": "kani",
            "amerikaner with a kitty": _("amerikaner with a kitty"),
            "amerikaner and norsk": _("amerikaner and norsk")
            }.get(_PRESETS_FOR_OPTION.get(option, ""), "")


def _invalid_rules(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "unknown_preset":
        return _("Unknown preset {preset}: choose one of {presets}.").format(
            preset=repr(p["preset"]), presets=_choices(p["presets"]))
    if reason == "player_count":
        return _player_count(p)
    if reason == "rules_not_object":
        return _("The rules must be an object with preset, players and options.")
    if reason == "bad_target":
        return _("The target must be a positive whole number, not {value}.").format(
            value=repr(p["value"]))
    if reason == "unknown_option":  # from a record, or as a user typed it (settings)
        return _("Unknown option {option}. Options: {options}.").format(
            option=quote(str(p["option"])), options=_choices(BOOLEAN_OPTIONS))
    if reason == "not_on_or_off":
        return _("Option {option} is on or off (true or false), not {value}.").format(
            option=repr(p["option"]), value=repr(p["value"]))
    if reason == "not_for_preset":
        # The house rules' names, not their keys (issue 35: no snake_case a player reads).
        return _("Option {option} does not apply to {preset}: it is for {where} only.").format(
            option=quote(option_name(str(p["option"]))),
            preset=p["preset"], where=_presets_for(p["option"]))
    if reason == "exclusive":
        first, second = p["options"]
        return _("Options {first} and {second} exclude each other: choose one way of scoring "
                 "the bid.").format(first=quote(option_name(first)),
                                    second=quote(option_name(second)))
    if reason == "needs_kitty":
        return _("Option {option} needs a kitty, but {by} deals every card.").format(
            option=repr(p["option"]), by=repr(p["by"]))
    return INVALID_RULES  # a reason not its own: the platform words the code


def _player_count(p: dict[str, Any]) -> str:
    preset, low, high, players = p["preset"], p["low"], p["high"], p["players"]
    if low == high:
        return _("{preset} is played by exactly {low} players, not {players}.").format(
            preset=preset, low=low, players=players)
    if "jokers" in PRESET_TABLE[preset].options:
        return _("{preset} is played by {low} to {high} players (6 with the jokers option), "
                 "not {players}.").format(preset=preset, low=low, high=high, players=players)
    return _("{preset} is played by {low} to {high} players, not {players}.").format(
        preset=preset, low=low, high=high, players=players)


def _invalid_record(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    simple = {
        "hands_not_list": _("The record's hands must be a list."),
        "action_cards_not_list": _("cards must be a list."),
        "empty_move": _("Type a move (or 'help', or 'quit')."),
    }
    if reason in simple:
        return simple[reason]
    if reason == "not_json":
        return _("Not JSON: {detail}").format(detail=p["detail"])
    if reason == "format":
        return _("Unknown record format {format}; expected {expected}.").format(
            format=repr(p["format"]), expected=repr(p["expected"]))
    if reason in ("hand_not_object", "actions_not_list", "unfinished", "no_deal",
                  "cards_not_list"):
        return _record_hand(reason, p)
    if reason == "unknown_action":
        return _("Unknown action {kind}.").format(kind=repr(p["kind"]))
    if reason == "unknown_key":
        return _("Unknown key {key} in a {kind} action.").format(
            key=repr(p["key"]), kind=_action_verb(p["kind"]))
    if reason == "missing_key":
        return _("A {kind} action needs {key}.").format(kind=_action_verb(p["kind"]),
                                                        key=repr(p["key"]))
    if reason == "no_key":
        return _("The action has no {key}.").format(key=repr(p["key"]))
    if reason == "not_a_bid":
        return _("{value} is not a bid.").format(value=repr(p["value"]))
    if reason == "no_seat":
        return _("There is no seat {seat} at a table of {players}.").format(
            seat=repr(p["seat"]), players=p["players"])
    if reason == "no_dealer":
        return _("There is no seat {seat} to deal.").format(seat=p["seat"])
    if reason == "not_understood":
        return _("I do not understand {words}: write e.g. 'AS' or 'AS call KS'.").format(
            words=repr(p["words"]))
    return INVALID_RECORD  # a reason not its own: the platform words the code


def _deal_part(part: str, seat: int | None) -> str:
    if part == "seat":
        return _("seat {seat}'s cards").format(seat=seat)
    return {"kitty": _("kitty"), "blind": _("blind"), "removed": _("removed cards")}[part]


def _record_hand(reason: str, p: dict[str, Any]) -> str:
    index = p["index"]
    if reason == "hand_not_object":
        return _("Hand {index} is not an object.").format(index=index)
    if reason == "actions_not_list":
        return _("Hand {index}'s actions must be a list.").format(index=index)
    if reason == "unfinished":
        return _("Hand {index} is unfinished but another follows.").format(index=index)
    if reason == "no_deal":
        return _("Hand {index} has no deal (a list of card lists).").format(index=index)
    return _("Hand {index}'s {part} must be a list of cards.").format(
        index=index, part=_deal_part(p["part"], p.get("seat")))


def _invalid_deal(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "hand_count":
        return _("The deal has {count} hands for {players} players.").format(
            count=p["count"], players=p["players"])
    if reason == "seat_cards":
        return _("Seat {seat} was dealt {count} cards, not {expected}.").format(
            seat=p["seat"], count=p["count"], expected=p["expected"])
    if reason == "kitty_cards":
        return _("The kitty has {count} cards, not {expected}.").format(
            count=p["count"], expected=p["expected"])
    if reason == "blind_cards":
        return _("The blind has {count} cards, not {expected}.").format(
            count=p["count"], expected=p["expected"])
    if reason == "removed":
        return _("The removed cards do not match the rules: {cards}.").format(
            cards=_names(p["cards"]) or _("none"))
    if reason == "not_in_pack":
        return _("Not in this game's pack: {cards}.").format(cards=_names(p["cards"]))
    if reason == "deal_not_a_card":
        return _("{value} in the {part} is not a card.").format(
            value=repr(p["value"]), part=_deal_part(p["part"], p.get("seat")))
    return _("{value} is not a card.").format(value=repr(p["value"]))


def _invalid_card(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "typed":
        return _("{text} is not a card: write them like AS, 10H, TD, JK1.").format(
            text=quote(p["text"]))
    if reason == "count":
        return ngettext("Name exactly {count} card.", "Name exactly {count} cards.",
                        p["count"]).format(count=p["count"])
    if reason == "terminal":
        examples = "AS, 10H, TD, 2C" + (", JK1" if p["jokers"] else "")
        return _("{text} is not a card: write e.g. {examples}.").format(
            text=repr(p["text"]), examples=examples)
    return _("{value} is not a card.").format(value=repr(p["value"]))


def _wrong_phase(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "hand_unfinished":
        return _("The current hand is not finished.")
    if reason == "not_dealt":
        return _("No hand is being played: the next one is not dealt.")
    return _("You cannot {kind} now: {now}.").format(kind=_action_verb(p["kind"]),
                                                     now=_phase_now(p["phase"]))


def _action_verb(kind: str) -> str:
    """An action's name as a verb ("You cannot {play} now")."""
    return {"pass": _("pass"), "bid": _("bid"), "redeal": _("redeal"),
            "discard": _("discard"), "exchange": _("exchange"), "play": _("play")
            }.get(kind, kind)


def _bid_refused(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_top_bid":
        return _("{value} is not a bid here: the top bid is {top}.").format(
            value=repr(p["value"]), top=repr(p["top_bid"]))
    if reason == "above_maximum":
        return _("The highest number bid is {max_bid}; above it is {top}.").format(
            max_bid=p["max_bid"], top=bid_label(p["top_bid"]))
    if reason == "below_minimum":
        return _("The lowest bid is {min_bid}.").format(min_bid=p["min_bid"])
    if reason == "not_higher":
        return _("You must bid more than {high_bid}.").format(high_bid=p["high_bid"])
    if reason == "typed":
        return _("{text} is not a bid: bid a number from {min_bid} to {max_bid}, {top}, or "
                 "pass.").format(text=quote(p["text"]), min_bid=p["min_bid"],
                                 max_bid=p["max_bid"], top=p["top_bid"])
    return _("{value} is not a bid.").format(value=repr(p["value"]))


def _redeal_refused(p: dict[str, Any]) -> str:
    return {"preset": _("A redeal can only be claimed in norsk."),
            "after_bid": _("A redeal can only be claimed before you bid."),
            "court_card": _("You hold a jack, queen or king, so you cannot claim a redeal."),
            }[p["reason"]]


def _wrong_card_count(p: dict[str, Any]) -> str:
    if p.get("reason") == "exchange":
        return ngettext("You may exchange at most {size} card with the blind, not {count}.",
                        "You may exchange at most {size} cards with the blind, not {count}.",
                        p["size"]).format(size=p["size"], count=p["count"])
    return ngettext("Discard exactly {size} card, not {count}.",
                    "Discard exactly {size} cards, not {count}.",
                    p["size"]).format(size=p["size"], count=p["count"])


def _card_not_in_hand(p: dict[str, Any]) -> str:
    if p.get("twice"):
        return _("You do not hold {card} twice.").format(card=card_label(p["card"]))
    return _("You do not hold {card}.").format(card=card_label(p["card"]))


def _invalid_trump(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_opening_lead":
        return _("Trump is named only with the opening lead.")
    if reason == "no_trumps":
        return _("This hand is played without trumps.")
    if reason == "not_free_trump":
        return _("The suit led is trump; naming another needs the free_trump option.")
    if reason == "unknown":
        return _("{trump} is not a trump: name S, H, D, C or grand.").format(
            trump=repr(p["trump"]))
    if reason == "typed":
        return _("{text} is not a trump: name S, H, D, C or grand.").format(
            text=quote(p["text"]))
    return _("{value} is not a trump.").format(value=repr(p["value"]))


def _invalid_call(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_opening_lead":
        return _("A card is called only with the opening lead.")
    if reason == "bidder_alone":
        return _("No card is called in this hand: the bidder plays alone.")
    if reason == "all_passed":
        return _("No card is called in this hand: nobody bid.")
    if reason == "missing":
        return _("Call a {suit} with your lead to choose your partner.").format(
            suit=_suit_singular(p["suit"]))
    if reason == "all_yours":
        return _("Every {suit} is yours: no card can be called, you play alone.").format(
            suit=_suit_singular(p["suit"]))
    if reason == "other_suit":
        return _("The called card must be a {suit}, the suit led.").format(
            suit=_suit_singular(p["suit"]))
    return _("You cannot call {card}: it is in your hand or your discards.").format(
        card=card_label(p["card"]))


def _invalid_lead(p: dict[str, Any]) -> str:
    if p.get("reason") == "not_legal":
        return _("You cannot lead that card.")
    return _("The opening lead of a number bid must be a suited card, not a joker.")


def _invalid_claim(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_play":
        return _("You can claim the rest only in the card play: {now}.").format(
            now=_phase_now(p["phase"]))
    if reason == "not_your_turn":
        return _("You can claim the rest only on your turn.")
    if reason == "not_on_lead":
        return _("You can claim the rest only when you are to lead to a trick.")
    if reason == "opening_lead":
        return _("Make the opening lead first: it decides the trump and names the called "
                 "card. Then you may claim the rest.")
    # The card still out is named only by what the claimer holds: where it lies is
    # hidden, and a refusal must not even seem to tell.
    if reason == "card_out":
        return _("The rest is not surely yours: a higher card of that suit is still out and "
                 "could beat your {yours}.").format(yours=card_label(p["yours"]))
    return _("The rest is not surely yours: an opponent may still hold a trump, and you have "
             "too few top trumps to draw them all.")


def _game_over(p: dict[str, Any]) -> str:
    return {"already": _("The game is already over."),
            "before_hand": _("The game was over before this hand.")
            }.get(p.get("reason") or "", _("The game is over."))


def _deal_not_finished(p: dict[str, Any]) -> str:
    index = p.get("index")
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        return _("Hand {number} cannot be shown face up: it is not over, or there is no "
                 "such hand yet.").format(number=index + 1)
    return _("There is no hand {index} to show face up.").format(index=repr(index))


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    INVALID_RECORD: _invalid_record,
    INVALID_RULES: _invalid_rules,
    INVALID_DEAL: _invalid_deal,
    INVALID_CARD: _invalid_card,
    NOT_YOUR_TURN: lambda p: _("It is seat {to_act}'s turn, not seat {seat}'s.").format(
        to_act=p["to_act"], seat=p["seat"]),
    WRONG_PHASE: _wrong_phase,
    BID_TOO_LOW: _bid_refused,
    BID_TOO_HIGH: _bid_refused,
    INVALID_BID: _bid_refused,
    ALREADY_PASSED: lambda p: _("You have passed: a pass is final for this hand."),
    REDEAL_NOT_ALLOWED: _redeal_refused,
    CARD_NOT_IN_HAND: _card_not_in_hand,
    WRONG_CARD_COUNT: _wrong_card_count,
    MUST_FOLLOW_SUIT: lambda p: _("You hold {suit}, so you must follow the {card} led.").format(
        suit=_suit_plural(p["suit"]), card=card_label(p["led"])),
    MUST_PLAY_CALLED_CARD: lambda p: _("{card} was called and you hold it: you must play it "
                                       "to this trick.").format(card=card_label(p["card"])),
    INVALID_CALL: _invalid_call,
    INVALID_TRUMP: _invalid_trump,
    INVALID_LEAD: _invalid_lead,
    GAME_OVER: _game_over,
    INVALID_CLAIM: _invalid_claim,
    DEAL_NOT_FINISHED: _deal_not_finished,
}

ERROR_CODES = tuple(_SENTENCES)  # every code this game's refusals carry


def error_sentence(error: GameError) -> str:
    """The sentence for one of this game's refusals, from its code and parameters, in the
    locale of the moment."""
    if error.params.get("reason") in SHARED_REASONS.get(error.code, ()):
        return error.code  # worded alike for every game: the platform's words
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players (render's own codes)
    return sentence(error.params)
