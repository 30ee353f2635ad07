"""The words of American a player reads: the sentence for each refusal, by code and
parameters (the replay's error messages and the terminal's answers), and the terminal
game's table, moves and results.

Built only from a refusal's plain parameters (cards as ints, numbers, names), never from
the game's state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.cards import RANKS, card_label, card_name
from bot.errors import (
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    NOT_YOUR_TURN,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)
from bot.i18n import _, ngettext

from .actions import (
    FLIP,
    INVALID_INDEX,
    MIXED_RANKS,
    NOT_PLAYABLE,
    PICKUP_NOT_ALLOWED,
    Action,
)
from .rules import BOOLEAN_OPTIONS, Rules
from .views import DealView, LegalActions, SeatView

TITLE = "American"  # the game's name: the same in every language


def _names(cards: Sequence[int]) -> str:
    return ", ".join(card_name(c) for c in cards)


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
        "not_object": _("A record is a JSON object."),
        "no_rules": _("The record has no rules object."),
        "first_dealer_not_whole": _("first_dealer must be a whole number."),
        "deals_not_list": _("The record's deals must be a list."),
        "deck_not_list": _("A deal's deck must be a list of cards."),
        "action_not_object": _("An action is a JSON object."),
        "no_seat_or_kind": _("An action needs a seat and a kind."),
        "cards_not_list": _("The cards of an action must be a list."),
    }
    if reason in simple:
        return simple[reason]
    if reason == "format":
        return _("Unknown record format {format}; expected {expected}.").format(
            format=_given(p["format"]), expected=repr(p["expected"]))
    if reason == "first_dealer":
        return _("first_dealer must be a seat from 0 to {last}.").format(last=p["last"])
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
    if reason == "players_not_whole":
        return _("The number of players must be a whole number.")
    if reason == "player_count":
        return _("American is for {low} to {high} players, not {players}.").format(
            low=p["low"], high=p["high"], players=p["players"])
    if reason == "rules_not_object":
        return _("The rules must be an object with game, players and options.")
    if reason == "options_not_object":
        return _("The options must be an object.")
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
    if reason == "twice":
        return _("{card} is dealt twice.").format(card=card_name(p["card"]))
    if reason == "missing":
        return _("Missing from the deal: {cards}.").format(cards=_names(p["cards"]))
    return _("{value} in the deal is not a card.").format(value=_given(p.get("value")))


def _invalid_card(p: dict[str, Any]) -> str:
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
}

ERROR_CODES = tuple(_SENTENCES)  # every code this game's refusals carry


def error_sentence(error: GameError) -> str:
    """The sentence for one of this game's refusals, from its code and parameters, in the
    locale of the moment."""
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players
    return sentence(error.params)


# ----------------------------------------------------------------- the terminal game
# bot/games/american/terminal.py: the human at seat `you` (0) against AI players. What
# players type (card names, ranks, pickup, swap ... for ..., flip N) is shown as typed:
# not translated.

def terminal_seat(seat: int | None, you: int = 0) -> str:
    """A seat as the terminal names it: "You", "Seat 2", or "nobody"."""
    if seat is None:
        return _("nobody")
    return _("You") if seat == you else _("Seat {number}").format(number=seat)


def _labels(cards: Sequence[int]) -> str:
    return " ".join(card_label(c) for c in cards) if cards else "-"


def _terminal_seat_line(seat: SeatView, you: int) -> str:
    name = terminal_seat(seat.seat, you)
    if seat.out:
        return "  " + _("{name}: out").format(name=name)
    parts = [ngettext("{count} card in hand", "{count} cards in hand",
                      seat.hand_size).format(count=seat.hand_size)]
    if seat.known and seat.seat != you:
        parts.append(_("known: {cards}").format(cards=_labels(seat.known)))
    parts.append(_("face up: {cards}").format(cards=_labels(seat.up)))
    parts.append(_("face down: {count}").format(count=seat.down))
    return "  " + _("{name}: {parts}").format(name=name, parts=_(", ").join(parts))


def terminal_table(view: DealView, you: int = 0) -> list[str]:
    """The table as the human sees it, line by line."""
    if view.pile:
        pile = ngettext("Pile: {cards} ({count} card, top {top})",
                        "Pile: {cards} ({count} cards, top {top})", len(view.pile)).format(
            cards=_labels(view.pile[-8:]) if len(view.pile) <= 8
            else "… " + _labels(view.pile[-8:]), count=len(view.pile),
            top=card_label(view.pile[-1]))
    else:
        pile = _("Pile: empty")
    lines = [pile, _("Deck: {deck} · burned: {burned}").format(deck=view.deck,
                                                             burned=len(view.burned))]
    lines.extend(_terminal_seat_line(seat, you) for seat in view.seats)
    if view.hand is not None:
        lines.append(_("Your hand: {cards}").format(cards=_labels(view.hand)))
    return lines


def terminal_moves(legal: LegalActions) -> str:
    """The legal moves, written as the input that makes them."""
    if legal.phase == "swap":
        return _("Moves: {example} (hand cards for as many face-up cards), or {none} to "
                 "keep them as they are").format(
            example="'swap " + " ".join(card_name(c) for c in legal.hand[:1]) + " for "
            + " ".join(card_name(c) for c in legal.up[:1]) + "'", none="'swap'")
    if legal.phase == FLIP:
        return _("Moves: turn over a face-down card: {moves}").format(
            moves=" | ".join(f"flip {i}" for i in legal.indexes))
    options = []
    for rank in legal.ranks:
        cards = legal.cards_of_rank(rank)
        options.append(" ".join(card_name(c) for c in cards))
    if legal.can_pickup:
        options.append("pickup")
    return _("Moves: {moves}").format(moves=" | ".join(options))


def terminal_action(action: Action, turned: int | None, you: int = 0) -> str:
    """An action as the terminal tells it: "Seat 1 plays 7♠ 7♥.", "You pick up the
    pile."; `turned` is the card a flip turned over."""
    name = terminal_seat(action.seat, you)
    mine = action.seat == you
    if action.kind == "pickup":
        return _("You pick up the pile.") if mine else _("{name} picks up the pile.").format(
            name=name)
    if action.kind == "swap":
        count = len(action.cards)
        if not count:
            return (_("You keep your face-up cards.") if mine else
                    _("{name} keeps their face-up cards.").format(name=name))
        return (_("You swap {given} for {taken}.") if mine else
                _("{name} swaps {given} for {taken}.")).format(
            name=name, given=_labels(action.cards), taken=_labels(action.up))
    if action.kind == FLIP:
        card = card_label(turned) if turned is not None else "?"
        return (_("You turn over {card}.") if mine else
                _("{name} turns over {card}.")).format(name=name, card=card)
    return (_("You play {cards}.") if mine else _("{name} plays {cards}.")).format(
        name=name, cards=_labels(action.cards))


def terminal_burned(count: int) -> str:
    return "  " + ngettext("The pile burns ({count} card).", "The pile burns ({count} cards).",
                           count).format(count=count)


def terminal_out(seat: int, you: int = 0) -> str:
    return "  " + (_("You are out!") if seat == you else _("{name} is out.").format(
        name=terminal_seat(seat, you)))


def terminal_refused(error: GameError) -> str:
    """A move the rules refused, or input that could not be read, and why."""
    if error.code == INVALID_RECORD and error.params.get("reason") == "terminal":
        return _("Not understood: {text}. Type {help} for how to play.").format(
            text=repr(error.params.get("text", "")), help="'help'")
    return _("Not allowed: {reason}").format(reason=error_sentence(error))


def terminal_cannot_start(error: GameError) -> str:
    return _("Cannot start: {reason}").format(reason=error_sentence(error))


def terminal_welcome(rules: Rules, level: str) -> list[str]:
    """The first lines of a match: the table, and its house rules if any."""
    goal = ngettext("first to win {target} deal", "first to win {target} deals",
                    rules.target).format(target=rules.target)
    lines = [_("American, {players} players, {goal}; you are seat 0, the others play at "
               "level {level}. Type {help} for how to play, {hand} for the table, {quit} "
               "to stop.").format(players=rules.players, goal=goal, level=level,
                                  help="'help'", hand="'hand'", quit="'quit'")]
    if rules.options:
        lines.append(_("House rules: {rules}").format(rules=", ".join(
            name for name in BOOLEAN_OPTIONS if name in rules.options)))
    return lines


def terminal_help() -> list[str]:
    """How to type moves in the terminal game (what players type is not translated)."""
    return [
        _("How to play: type your move and press Enter. Get rid of all your cards: hand, "
          "then face-up, then face-down cards."),
        _("  Play cards of one rank: {cards}, or the rank alone for every copy you hold: "
          "{rank} (T for ten; case does not matter).").format(cards="'5S 5D'", rank="'5'"),
        _("  A card must beat the top of the pile; 2 and 10 go on anything (2 resets, 10 "
          "burns the pile and you play again); only an ace, 2 or 10 goes on an ace."),
        _("  {pickup} takes the pile when you cannot play.").format(pickup="'pickup'"),
        _("  Swap (option swap): {swap}, or {none} to keep your cards.").format(
            swap="'swap 3S 4D for AS KH'", none="'swap'"),
        _("  Turn over a face-down card (option blind_down): {flip}.").format(
            flip="'flip 0'"),
        _("  {hand} shows the table and your moves again; {quit} stops.").format(
            hand="'hand'", quit="'quit'"),
    ]


def terminal_deal_title(number: int, dealer: int, you: int = 0) -> str:
    """The line that opens deal number `number`."""
    if dealer == you:
        return _("=== Deal {number} · You deal ===").format(number=number)
    return _("=== Deal {number} · {name} deals ===").format(
        number=number, name=terminal_seat(dealer, you))


def terminal_deal_result(winner: int | None, places: Sequence[int],
                         wins: Sequence[int], you: int = 0) -> list[str]:
    """What a deal came to: its winner (none when drawn), the order out, the deal wins."""
    if winner is None:
        lines = [_("The deal is drawn: it reached 1,000 actions.")]
    else:
        lines = [_("You win the deal!") if winner == you else
                 _("{name} wins the deal.").format(name=terminal_seat(winner, you))]
        if len(places) > 2:
            lines.append(_("Order out: {names}").format(
                names=_(", ").join(terminal_seat(s, you) for s in places)))
    lines.append(_("Deals won: {wins}").format(wins=_(", ").join(
        _("{name} {count}").format(name=terminal_seat(s, you), count=w)
        for s, w in enumerate(wins))))
    return lines


def terminal_match_over(winners: Sequence[int], you: int = 0) -> str:
    if you in winners:
        return _("Match over: you win!")
    return _("Match over. Winner: {names}.").format(
        names=_(", ").join(terminal_seat(s, you) for s in winners))


def terminal_bye() -> str:
    return _("Bye.")
