"""Every word of American a player reads: the table, a player's own panel, a deal's
result and its review face up, the final standings, the rules, the guide, the controls'
labels, the sentence for each refusal, by code and parameters (also the replay's error
messages), and the terminal game's table, moves and results.

Built only from views (`.views`) and plain values (seat names as shown, the rules, a
refusal's parameters), never from the game's state, so a hidden card cannot reach a
message through this module. The table platform calls these through the GameKind hooks
(`.kind`); the American cog calls the control labels directly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.cards import RANKS, card_label, card_name, rank_of
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
from bot.games.american import _, ngettext, pgettext
from bot.tables.panel import BLUE, GOLD, GREEN, GREY, Panel, quote
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene

from .actions import (
    FLIP,
    INVALID_INDEX,
    MIXED_RANKS,
    NOT_PLAYABLE,
    PICKUP,
    PICKUP_NOT_ALLOWED,
    PLAY,
    SWAP,
    Action,
)
from .rules import BOOLEAN_OPTIONS, DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, ROW, Rules
from .state import DRAWN, FINISHED
from .views import (
    DEAL_NOT_FINISHED,
    NO_CLAIMS,
    DealReview,
    DealView,
    GameView,
    LegalActions,
    SeatView,
)

TITLE = "American"  # the game's name in English; `title()` names it in the reader's words


def title() -> str:
    """The game's name as players read it: known as "Idiot" in Norway (nb). The command
    (`/american`) keeps its name."""
    return pgettext("game name", "American")


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
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players
    return sentence(error.params)


# ----------------------------------------------------------------- small pieces
# Cards are written as labels (`7♠`), each followed by a space and another label, a
# bracket, a comma or the end of the line, never by a bare number: `7♠ 3` would read as
# two cards to a player (and to the tests that check what each message shows).

MEDALS = ("🥇", "🥈", "🥉")


def _labels(cards: Sequence[int]) -> str:
    return " ".join(card_label(c) for c in cards)


def rank_lines(cards: Sequence[int]) -> list[str]:
    """A hand one rank a line, low to high: `7 · 7♠ 7♥`."""
    by_rank: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: (c % 13, c // 13)):
        by_rank.setdefault(card % 13, []).append(card)
    return [_("{rank} · {cards}").format(rank=RANKS[rank], cards=_labels(same))
            for rank, same in by_rank.items()]


def _cards_count(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def options_line(rules: Rules) -> str:
    """The table's rules in one line, the house rules by their names in the reader's
    words."""
    players = ngettext("{count} player", "{count} players", rules.players).format(
        count=rules.players)
    target = ngettext("first to {count} deal", "first to {count} deals", rules.target).format(
        count=rules.target)
    text = f"{players} · {target}"
    on = [option_name(name) for name in BOOLEAN_OPTIONS if name in rules.options]
    return text + (" · " + ", ".join(on) if on else "")


def option_name(name: str) -> str:
    """A house rule's name as players read it. Its key (`four_burns`) stays what the
    commands take; the words shown are translated."""
    return {
        "same_rank": pgettext("house rule", "same rank"),
        "four_burns": pgettext("house rule", "four of a kind burns"),
        "swap": pgettext("house rule", "swap"),
        "blind_down": pgettext("house rule", "face-down cards blind"),
        "voluntary_pickup": pgettext("house rule", "pick up at will"),
        "target": pgettext("house rule", "deals to win"),
    }.get(name, name)


def lobby_title(rules: Rules) -> str:
    return _("{game} table — the shedding game").format(game=title())


def option_help(name: str) -> str:
    """What a house rule does, in plain words (its name is what players type)."""
    return {
        "same_rank": _("a card may also be played on one of the same rank"),
        "four_burns": _("four cards of one rank on top of the pile burn it, like a 10"),
        "swap": _("before play, each player may swap hand cards for their face-up cards"),
        "blind_down": _("face-down cards are turned over one at a time, played blind"),
        "voluntary_pickup": _("you may pick up the pile even when you could play"),
        "target": _("deals to win the match"),
    }[name]


def describe_action(action: Action) -> str:
    """An action in a few words, as everyone saw it: `7♠ 7♥`, `a pick-up of the pile`."""
    if action.kind == PLAY:
        return _labels(action.cards)
    if action.kind == PICKUP:
        return _("a pick-up of the pile")
    if action.kind == SWAP:
        if not action.cards:
            return _("no swap")
        return _("a swap of {given} for {taken}").format(given=_labels(action.cards),
                                                         taken=_labels(action.up))
    return _("turning over face-down card {number}").format(number=action.position + 1)


def hint_sentence(action: Action) -> str:
    """What the strong AI would do, in words: a player's hint (for that player alone)."""
    if action.kind == PLAY:
        rank = RANKS[action.cards[0] % 13]
        return ngettext("The strong AI would play the {rank} ({cards}).",
                        "The strong AI would play the {rank}s ({cards}).",
                        len(action.cards)).format(rank=rank, cards=_labels(action.cards))
    if action.kind == PICKUP:
        return _("The strong AI would pick up the pile.")
    if action.kind == SWAP:
        if not action.cards:
            return _("The strong AI would keep its cards as they are.")
        return _("The strong AI would swap {given} for {taken}.").format(
            given=_labels(action.cards), taken=_labels(action.up))
    return _("The strong AI would turn over card {number}.").format(
        number=action.position + 1)


def hint_reason(code: str, params: Mapping[str, Any]) -> str:
    """Why the hint's move is good, in one short sentence (`code` and `params` from
    ai/reasons.py)."""
    if code == "keeps_specials":
        ranks = params["ranks"]
        if len(ranks) == 2:
            return _("Why: it keeps your 2 and 10 for later.")
        return _("Why: it keeps your {rank} for later.").format(rank=RANKS[ranks[0]])
    if code in ("lowest_rank", "sheds"):
        count = params["count"]
        if code == "lowest_rank":
            return ngettext("Why: it is your lowest card that can go on the pile.",
                            "Why: they are your lowest cards that can go on the pile.",
                            count)
        return ngettext("Why: it gets rid of a card you do not need.",
                        "Why: it gets rid of {count} cards at once.", count).format(
            count=count)
    return {
        "keep_as_is": _("Why: your face-up cards are no better than your hand."),
        "high_cards_up": _("Why: it puts your best cards face up, for later."),
        "nothing_fits": _("Why: nothing you hold can go on the pile."),
        "pile_worth_taking": _("Why: the pile holds cards worth having."),
        "flip_guess": _("Why: a face-down card is a guess: any will do."),
        "burns_ten": _("Why: the 10 burns the pile and you play again."),
        "burns_four": _("Why: it makes four of a kind: it burns the pile."),
        "two_resets": _("Why: a 2 goes on anything and starts the pile again."),
    }[code]


# ----------------------------------------------------------------- the table

def _pile_lines(deal: DealView, names: Sequence[str]) -> list[str]:
    """The pile's top card and how many lie beneath, what was played last and by whom,
    the burned cards and the deck."""
    if deal.pile:  # the count of the whole pile, as the picture says it
        lines = [ngettext("Top: {card} · {count} card in the pile",
                          "Top: {card} · {count} cards in the pile", len(deal.pile)).format(
            card=card_label(deal.pile[-1]), count=len(deal.pile))]
    else:
        lines = [_("The pile is empty: any card may be played.")]
    last = deal.last
    if last is not None:
        lines.append(_("Last: **{name}** — {what}").format(name=names[last.seat],
                                                          what=_last_words(deal)))
    lines.append(_("Burned: {burned} · deck: {deck}").format(
        burned=_cards_count(len(deal.burned)), deck=_cards_count(deal.deck)))
    return lines


def _last_words(deal: DealView) -> str:
    """The last action, as everyone saw it (a flip with the card it turned over)."""
    last = deal.last
    assert last is not None
    if last.kind == FLIP and deal.turned is not None:
        return _("turned over {card}").format(card=card_label(deal.turned))
    if last.kind == PLAY:
        return _("played {cards}").format(cards=_labels(last.cards))
    return describe_action(last)


def _seat_line(deal: DealView, seat: SeatView, names: Sequence[str]) -> str:
    """What everyone knows of one seat: its face-up cards, hand and face-down sizes, the
    hand cards everyone saw it take, or its place once out."""
    turn = "▶ " if deal.to_act == seat.seat else ""
    name = names[seat.seat]
    if seat.out:
        place = deal.out_order.index(seat.seat) + 1 if seat.seat in deal.out_order else 0
        return _("{turn}**{name}** — out ({place}.)").format(turn=turn, name=name,
                                                               place=place)
    up = _labels(seat.up) if seat.up else _("none")
    line = _("{turn}**{name}** — face up: {up} · hand: {hand} · face down: {down}").format(
        turn=turn, name=name, up=up, hand=seat.hand_size, down=seat.down)
    if seat.known:
        line += "\n" + _("  seen going into the hand: {cards}").format(
            cards=known_summary(seat.known))
    return line


# The cards a seat was seen taking, shown by name up to this many (the rest counted).
_KNOWN_SHOWN = 4


def known_summary(cards: Sequence[int]) -> str:
    """The cards everyone saw a seat take into its hand, short: the highest few by name
    (they matter most), then how many more. A picked-up pile can be twenty cards."""
    if len(cards) <= _KNOWN_SHOWN:
        return _labels(cards)
    shown = sorted(cards, key=lambda card: (rank_of(card), card), reverse=True)[:_KNOWN_SHOWN]
    rest = len(cards) - _KNOWN_SHOWN
    return ngettext("{cards} and {count} more", "{cards} and {count} more", rest).format(
        cards=_labels(shown), count=rest)


def burn_line(deal: DealView, names: Sequence[str]) -> str | None:
    """The burn the last player made, in words (the pile gone, the player on again), or
    None: a 10 or four of one rank that emptied the pile into the burned cards, by the
    last action or by an earlier one of the same player since another player moved (an
    event line that stays until the next player's move)."""
    last = deal.last
    if last is None or not deal.burned:
        return None
    if deal.pile:
        card = None
    elif last.kind == PLAY and last.cards and set(deal.burned[-len(last.cards):]) == set(
            last.cards):
        card = last.cards[-1]
    elif last.kind == FLIP and deal.turned is not None and deal.burned[-1] == deal.turned:
        card = deal.turned
    else:
        card = None
    if card is None:
        # The burner played on since: the line stays until another player moves.
        if deal.burn is None or deal.burn[0] != last.seat:
            return None
        card = deal.burn[1]
    name = names[last.seat]
    if RANKS[rank_of(card)] == "10":
        return _("🔥 **{name}** burned the pile with a 10!").format(name=name)
    return _("🔥 **{name}** burned the pile with four of a kind ({rank})!").format(
        name=name, rank=RANKS[rank_of(card)])


# The pile's top cards the picture shows (the rest is a count).
_PILE_SHOWN = 4


def table_scene(view: GameView, names: Sequence[str]) -> Scene:
    """The public table as a picture's scene: each seat's face-up row, with its hand and
    face-down cards as counts; the pile's top cards in the middle; the deck and the burned
    cards by count. Plain words (a picture shows no Markdown)."""
    deal = view.deal
    assert deal is not None
    seats = tuple(SeatScene(
        name=names[seat.seat],
        lines=(_("out") if seat.out else ngettext(
            "{count} in hand", "{count} in hand", seat.hand_size).format(
                count=seat.hand_size),
               # (the face-down cards are the seat's count by a card back: no line)
               ngettext("{count} deal won", "{count} deals won", view.wins[seat.seat]).format(
                   count=view.wins[seat.seat])),
        cards=seat.up, backs=seat.down, to_act=deal.to_act == seat.seat)
        for seat in deal.seats)
    pile = deal.pile[-_PILE_SHOWN:]
    groups = [CardGroup(_("Deck"), backs=deal.deck)]
    if deal.burned:
        groups.append(CardGroup(_("Burned"), backs=len(deal.burned)))
    turn = (_("{name} to act").format(name=names[deal.to_act]) if deal.to_act is not None
            else _("The deal is over."))
    return Scene(
        title=_("{game} · deal {number}").format(game=title(), number=view.deal_number),
        seats=seats, centre=tuple((NO_SEAT, card) for card in pile),
        # The whole pile's count, as the table's text says it.
        centre_label=ngettext("The pile: {count} card", "The pile: {count} cards",
                              len(deal.pile)).format(count=len(deal.pile)),
        groups=tuple(groups), lines=(turn,))


def _what_next(deal: DealView, names: Sequence[str]) -> str:
    if deal.to_act is None:
        return _("The deal is over.")
    name = names[deal.to_act]
    if deal.phase == "swap":
        return _("**{name}** to swap hand cards for face-up cards (or keep them).").format(
            name=name)
    if deal.phase == FLIP:
        return _("**{name}** to turn over a face-down card.").format(name=name)
    return _("**{name}** to play or pick up.").format(name=name)


def _wins_line(view: GameView, names: Sequence[str]) -> str:
    return _(", ").join(_("{name} {wins}").format(name=names[s], wins=w)
                        for s, w in enumerate(view.wins))


def _table_fields(view: GameView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    deal = view.deal
    assert deal is not None
    fields = [(_("Pile"), "\n".join(_pile_lines(deal, names)), False),
              (_("Players"), "\n".join(_seat_line(deal, s, names) for s in deal.seats),
               False)]
    if view.rules.target > 1:
        fields.append((_("Deals won"), _wins_line(view, names), False))
    return fields


def table_panel(view: GameView, names: Sequence[str]) -> Panel:
    """The public table message during a game, from the public view only."""
    deal = view.deal
    assert deal is not None
    description = _("Deal {number} · {options}").format(number=view.deal_number,
                                                        options=options_line(view.rules))
    burn = burn_line(deal, names)
    if burn is not None:
        description += "\n" + burn
    description += "\n" + _what_next(deal, names)
    return Panel(title=title(), description=description,
                 fields=tuple(_table_fields(view, names)),
                 footer=_("Open “My hand” to see your cards and act."))


# ----------------------------------------------------------------- a player's own panel

def seat_panel(view: GameView, names: Sequence[str], compact: bool = False) -> Panel:
    """What a player sees of their own cards and may do now (for them alone): the hand
    one rank a line, the face-up row, how many face down, the pile and the others.
    `compact`: the hand a few ranks a line and the pile in one line, the others one tap
    away (the panel's Table button), so that the panel and its buttons fit one phone
    screen."""
    deal = view.deal
    assert deal is not None and deal.seat is not None and deal.hand is not None
    seat = deal.seats[deal.seat]
    up = _labels(seat.up) if seat.up else _("none")
    if compact:
        lines = [_("**Your hand** ({count})").format(count=len(deal.hand)),
                 *(_compact_rank_lines(deal.hand) or [_("empty")]),
                 ngettext("Face up: {cards} · face down: {count} card",
                          "Face up: {cards} · face down: {count} cards",
                          seat.down).format(cards=up, count=seat.down)]
    else:
        lines = [_("**Your hand** ({count})").format(count=len(deal.hand)),
                 *(rank_lines(deal.hand) or [_("empty")]),
                 _("Face up: {cards}").format(cards=up),
                 ngettext("Face down: {count} card (unseen)",
                          "Face down: {count} cards (unseen)", seat.down).format(
                     count=seat.down)]
    burn = burn_line(deal, names)
    if burn is not None:
        lines.append("\n" + burn)
    if seat.out:
        lines.append("\n" + _("You are out: you have no cards left."))
        colour = GREY
    elif deal.legal is None:
        who = names[deal.to_act] if deal.to_act is not None else _("nobody")
        lines.append("\n" + _("Waiting for **{name}**.").format(name=who))
        colour = GREY
    else:
        lines.append("\n" + _("**Your turn:** {what}").format(what=_your_turn(deal)))
        colour = GOLD
    title = _("Your hand — {name}").format(name=names[deal.seat])
    if compact:
        lines.append(_pile_lines(deal, names)[0])
        return Panel(title=title, description="\n".join(lines), colour=colour)
    return Panel(title=title, description="\n".join(lines),
                 fields=tuple(_table_fields(view, names)), colour=colour)


# The ranks a line of a compact hand.
_RANKS_A_LINE = 4


def _compact_rank_lines(cards: Sequence[int]) -> list[str]:
    """A hand a few ranks a line, low to high: `3♠ 3♥ · 5♦ · 7♣ 7♠ · 9♥`."""
    by_rank: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: (c % 13, c // 13)):
        by_rank.setdefault(card % 13, []).append(card)
    groups = [_labels(same) for same in by_rank.values()]
    return [" · ".join(groups[i:i + _RANKS_A_LINE])
            for i in range(0, len(groups), _RANKS_A_LINE)]


def _your_turn(deal: DealView) -> str:
    legal = deal.legal
    assert legal is not None
    if legal.phase == "swap":
        return _("swap any of your hand cards for as many of your face-up cards, or keep "
                 "them as they are.")
    if legal.phase == FLIP:
        return _("turn over one of your face-down cards. If it can go on the pile it is "
                 "played; if not, you pick up the pile with it.")
    if not legal.ranks:
        return _("you cannot play on the {top}: pick up the pile.").format(
            top=card_label(deal.pile[-1]))
    ranks = ", ".join(RANKS[r] for r in legal.ranks)
    if legal.can_pickup:
        return _("play one rank ({ranks}), as many of it as you like, or pick up the "
                 "pile.").format(ranks=ranks)
    return _("play one rank ({ranks}), as many of it as you like.").format(ranks=ranks)


# ----------------------------------------------------------------- a deal's end, the match

def _places_lines(deal: DealView, names: Sequence[str]) -> list[str]:
    return [_("{place}. **{name}**").format(place=i + 1, name=names[s])
            for i, s in enumerate(deal.out_order)]


def deal_summary(view: GameView, names: Sequence[str]) -> Panel:
    """The result of a deal, as everyone may see it: who went out in which order."""
    deal = view.deal
    assert deal is not None
    if deal.outcome == DRAWN:
        title = _("Deal {number}: drawn").format(number=view.deal_number)
        lines = [_("A thousand moves without an end: nobody wins this deal.")]
        colour = GREY
    else:
        assert deal.winner is not None
        title = _("Deal {number}: {name} is out first").format(number=view.deal_number,
                                                                name=names[deal.winner])
        lines = _places_lines(deal, names)
        colour = BLUE
    if view.rules.target > 1:
        lines.append(_("Deals won: {wins}").format(wins=_wins_line(view, names)))
    return Panel(title=title, description="\n".join(lines), colour=colour)


# What "While you were away" tells of a stretch of a deal (AmericanWords.recap_facts).
BURNED, PICKED_UP, WENT_OUT = "burned", "picked_up", "went_out"


def recap_facts(events: Sequence[tuple[str, str, int, bool]], outcome: str | None,
                winner: str | None) -> list[str]:
    """"While you were away": each (what, who, how often, whether they went out first)
    in the order it first happened, then, `outcome` given (the deal is over), its
    result: who won it (went out first), or a drawn deal."""
    facts = []
    for what, name, count, first in events:
        if what == BURNED:
            facts.append(ngettext("{name} burned the pile", "{name} burned the pile {count} "
                                  "times", count).format(name=name, count=count))
        elif what == PICKED_UP:
            facts.append(ngettext("{name} picked up the pile", "{name} picked up the pile "
                                  "{count} times", count).format(name=name, count=count))
        elif first and outcome is not None:
            continue  # told as the deal's winner below
        elif first:
            facts.append(_("{name} went out first").format(name=name))
        else:
            facts.append(_("{name} went out").format(name=name))
    if outcome == DRAWN:
        facts.append(_("the deal was drawn"))
    elif outcome is not None and winner is not None:
        facts.append(_("{name} won the deal").format(name=winner))
    return facts


def final_standings(view: GameView, names: Sequence[str], places: Sequence[int]) -> Panel:
    """The finished match: seats by place (`places`: each seat's, 1 for the winner), the
    winner in the title."""
    order = sorted(range(len(names)), key=lambda s: places[s])
    rows = [_("{medal} **{name}** — {wins}").format(
        medal=MEDALS[places[s] - 1] if places[s] <= len(MEDALS) else f"{places[s]}.",
        name=names[s], wins=ngettext("{count} deal won", "{count} deals won",
                                     view.wins[s]).format(count=view.wins[s]))
        for s in order]
    winners = [names[s] for s in view.winners]
    title = _("Game over — {winner} wins!").format(winner=_(" and ").join(winners))
    footer = ngettext("{count} deal · /american export for the record",
                      "{count} deals · /american export for the record",
                      view.deal_number).format(count=view.deal_number)
    return Panel(title=title, description="\n".join(rows), colour=GOLD, footer=footer)


def deal_review(review: DealReview, names: Sequence[str]) -> Panel:
    """A finished deal face up: every seat's cards as dealt, the deck, every action in
    order (a flip with the card it turned over), the places."""
    view = review.after
    fields = [(_("{name} — dealt").format(name=names[seat]),
               _("down: {down}\nup: {up}\nhand: {hand}").format(
                   down=_labels(review.down[seat]), up=_labels(review.up[seat]),
                   hand=_labels(review.hand[seat])), True)
              for seat in range(len(names))]
    if review.deck:
        fields.append((_("Deck, top first"), _labels(review.deck), False))
    moves = [_("{name}: {what}").format(
        name=names[a.seat], what=_("turned over {card}").format(card=card_label(turned))
        if turned is not None else describe_action(a))
        for a, turned in zip(review.actions, review.turned, strict=True)]
    fields.extend(_chunks(_("Moves"), moves))
    deal = view.deal
    assert deal is not None
    result = "\n".join(_places_lines(deal, names)) if deal.outcome == FINISHED else _(
        "drawn")
    fields.append((_("Result"), result, False))
    return Panel(title=_("Deal {number} face up").format(number=view.deal_number),
                 description=options_line(view.rules), fields=tuple(fields), colour=GREY)


def _chunks(title: str, lines: Sequence[str], size: int = 900
            ) -> list[tuple[str, str, bool]]:
    """Lines in fields of at most `size` characters (an embed field holds 1,024)."""
    fields: list[tuple[str, str, bool]] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > size:
            fields.append((title, "\n".join(current), False))
            current = []
        current.append(line)
    if current:
        fields.append((title, "\n".join(current), False))
    return fields or [(title, _("none"), False)]


# ----------------------------------------------------------------- rules, settings, help

def rules_text(rules: Rules) -> str:
    """The rules of a table, concise."""
    lines = [
        _("**American** — {players} players, the shedding game (Idiot, Shithead, Palace): "
          "get rid of all your cards. {target} to win the match.").format(
            players=rules.players, target=ngettext("{count} deal", "{count} deals",
                                                   rules.target).format(count=rules.target)),
        _("Each player gets {row} cards face down, {row} face up on them, and {row} in "
          "hand; the rest is the deck.").format(row=ROW),
        _("The lowest card in hand starts. On your turn play one or more cards of one rank "
          "onto the pile, higher than the top card (an ace only on an ace), then draw back "
          "up to {row} while the deck lasts. If you cannot play, pick up the whole pile.")
        .format(row=ROW),
        _("A **2** may always be played and resets the pile. A **10** may always be played "
          "and burns the pile: you play again."),
        _("With an empty hand and deck you take your face-up cards into your hand, then "
          "your face-down ones. The first out wins the deal."),
    ]
    on = [name for name in BOOLEAN_OPTIONS if name in rules.options]
    if on:
        lines.append(_("House rules: {rules}").format(rules="; ".join(
            f"**{option_name(name)}** (`{name}`): {option_help(name)}" for name in on)))
    return "\n".join(lines)


def settings_text(settings: Mapping[str, Any], saved: bool = False) -> str:
    """A server's defaults for new American tables; `saved`: just changed."""
    players = settings.get("players") or DEFAULT_PLAYERS
    target = settings.get("target") or 1
    # The turn timer is the platform's to word (cogs/tables/settings.py: "1 day a turn",
    # its reminders and its end), in one place for every game.
    text = _("Server defaults: {players}, {target} to win, {options}.").format(
        players=ngettext("{count} player", "{count} players", players).format(count=players),
        target=ngettext("{count} deal", "{count} deals", target).format(count=target),
        options=", ".join(option_name(name) for name in sorted(settings.get("options", {})))
        or _("no house rules"))
    return _("Saved. {settings}").format(settings=text) if saved else text


def stats_lines(stats: Mapping[str, int]) -> list[str]:
    """A member's summed American statistics (results.py), for their stats page."""
    return [
        _("Deals won (out first): {won} of {played}").format(
            won=stats.get("deals_won", 0), played=stats.get("deals_played", 0)),
        _("Deals ended last with cards: {count}").format(count=stats.get("deals_last", 0)),
    ]


def help_text() -> str:
    return _("**/american new** opens a table here; players Join, the host Starts.\n"
             "Open **My hand** on the table message to see your cards and act; or use "
             "/american play, pickup, swap, flip.\n"
             "/american rules · score · export · leave · cancel · leaderboard · stats\n"
             "A **hint** tells you what the strong AI would do now.")


# An example for the guide: a hand after the draw, and the pile it must beat.
_EXAMPLE_HAND = ("3C", "7S", "7H", "QD", "10S")
_EXAMPLE_TOP = "6H"


def help_pages() -> list[Panel]:
    """The guide to the game, a page at a time (`help`), with an example."""
    from bot.cards import parse_card

    hand = "\n".join(rank_lines([parse_card(c) for c in _EXAMPLE_HAND]))
    pages = [
        (_("American in a minute"),
         _("The shedding game of the Idiot family, for {low} to {high} players: the first "
           "to get rid of all their cards wins. Each player has three cards face down, "
           "three face up on them, and a hand of three; the rest is the deck.").format(
               low=MIN_PLAYERS, high=MAX_PLAYERS)),
        (_("A turn"),
         _("Play one or more cards of one rank onto the pile, higher than its top card, "
           "then draw back up to three while the deck lasts. A **2** resets the pile; a "
           "**10** burns it and you play again; only an ace beats an ace. If you cannot "
           "play, you pick up the whole pile.")),
        (_("An example"),
         _("Your hand, one rank a line:\n{hand}\n\nThe top of the pile is {top}. The 3 "
           "cannot go on it. Play both 7s at once, or keep them and play the Q; the 10 "
           "burns the pile when you need a fresh start.").format(
             hand=hand, top=card_label(parse_card(_EXAMPLE_TOP)))),
        (_("Face up and face down"),
         _("When your hand and the deck are empty you take up your face-up cards, and "
           "when those are gone, your face-down cards: nobody has seen them, not even you. "
           "/american rules shows a table's house rules.")),
        (_("Playing here"),
         _("**/american new** opens a table here; players **Join**, the host may pick "
           "**Fill the empty seats with AI** in the lobby's menu, and **Starts**. "
           "**My hand** shows your cards and moves for you alone: a button per rank "
           "plays all its cards, the menu plays fewer. "
           "**💡 Hint**: what the strong AI would do. **🔍 Review** under each result "
           "shows the whole deal face up.")),
    ]
    return [Panel(title=title, description=text, colour=GREEN) for title, text in pages]


# ----------------------------------------------------------------- the controls' words

def play_label(cards: Sequence[int]) -> str:
    """A button that plays these cards (all of one rank)."""
    return _labels(cards)


def control_label(key: str) -> str:
    return {"pickup": _("Pick up the pile"), "keep": _("Keep my cards"),
            "back": _("Back")}[key]


def flip_label(index: int) -> str:
    return _("Turn over card {number}").format(number=index + 1)


def fewer_placeholder() -> str:
    return _("Play fewer of a rank…")


def fewer_option(cards: Sequence[int]) -> str:
    return ngettext("{count} card: {cards}", "{count} cards: {cards}", len(cards)).format(
        count=len(cards), cards=_labels(cards))


def give_placeholder() -> str:
    return _("Swap: the hand cards to give…")


def take_placeholder(count: int) -> str:
    return ngettext("…for {count} face-up card", "…for {count} face-up cards",
                    count).format(count=count)


def swap_step_panel(given: Sequence[int]) -> Panel:
    """The second step of a swap: which face-up cards the given hand cards replace."""
    return Panel(title=_("Swap {cards}").format(cards=_labels(given)),
                 description=ngettext(
                     "Choose the face-up card you take for it.",
                     "Choose the {count} face-up cards you take for them, in the order "
                     "they take their places.", len(given)).format(count=len(given)),
                 colour=GOLD)


def choice_all(cards: Sequence[int]) -> str:
    """An autocomplete choice that plays every card of a rank."""
    return _("{cards} (all)").format(cards=_labels(cards))


def position_choice(index: int) -> str:
    return _("face-down card {number}").format(number=index + 1)

# ----------------------------------------------------------------- the terminal game
# bot/games/american/terminal.py: the human at seat `you` (0) against AI players. What
# players type (card names, ranks, pickup, swap ... for ..., flip N) is shown as typed:
# not translated.

def terminal_seat(seat: int | None, you: int = 0) -> str:
    """A seat as the terminal names it: "You", "Seat 2", or "nobody"."""
    if seat is None:
        return _("nobody")
    return _("You") if seat == you else _("Seat {number}").format(number=seat)


def _terminal_labels(cards: Sequence[int]) -> str:
    """Cards for the terminal, "-" for none."""
    return _labels(cards) if cards else "-"


def _terminal_seat_line(seat: SeatView, you: int) -> str:
    name = terminal_seat(seat.seat, you)
    if seat.out:
        return "  " + _("{name}: out").format(name=name)
    parts = [ngettext("{count} card in hand", "{count} cards in hand",
                      seat.hand_size).format(count=seat.hand_size)]
    if seat.known and seat.seat != you:
        parts.append(_("known: {cards}").format(cards=_terminal_labels(seat.known)))
    parts.append(_("face up: {cards}").format(cards=_terminal_labels(seat.up)))
    parts.append(_("face down: {count}").format(count=seat.down))
    return "  " + _("{name}: {parts}").format(name=name, parts=_(", ").join(parts))


def terminal_table(view: DealView, you: int = 0) -> list[str]:
    """The table as the human sees it, line by line."""
    if view.pile:
        pile = ngettext("Pile: {cards} ({count} card, top {top})",
                        "Pile: {cards} ({count} cards, top {top})", len(view.pile)).format(
            cards=_terminal_labels(view.pile[-8:]) if len(view.pile) <= 8
            else "… " + _terminal_labels(view.pile[-8:]), count=len(view.pile),
            top=card_label(view.pile[-1]))
    else:
        pile = _("Pile: empty")
    lines = [pile, _("Deck: {deck} · burned: {burned}").format(deck=view.deck,
                                                             burned=len(view.burned))]
    lines.extend(_terminal_seat_line(seat, you) for seat in view.seats)
    if view.hand is not None:
        lines.append(_("Your hand: {cards}").format(cards=_terminal_labels(view.hand)))
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
            name=name, given=_terminal_labels(action.cards), taken=_terminal_labels(action.up))
    if action.kind == FLIP:
        card = card_label(turned) if turned is not None else "?"
        return (_("You turn over {card}.") if mine else
                _("{name} turns over {card}.")).format(name=name, card=card)
    return (_("You play {cards}.") if mine else _("{name} plays {cards}.")).format(
        name=name, cards=_terminal_labels(action.cards))


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
