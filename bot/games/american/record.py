"""Game records `american-record/1` (docs/rules-american.md section 10): load, replay, report,
save."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.cards import card_name
from bot.errors import (
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    GameError,
    RecordError,
)

from .actions import FLIP, PICKUP, PLAY, SWAP, Action
from .deal import ROWS, Deal, deal_from_names, parse_card_of_pack
from .game import Game
from .rules import Rules
from .state import FINISHED, IN_PROGRESS, DealState, sorted_cards
from .text_refusals import error_sentence

FORMAT = "american-record/1"

# The keys of each action form besides "seat" and "action", with the type each holds.
_FORMS: dict[str, tuple[tuple[str, type], ...]] = {
    PLAY: (("cards", list),),
    PICKUP: (),
    SWAP: (("hand", list), ("up", list)),
    FLIP: (("index", int),),
}


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ----------------------------------------------------------------------------- loading

def load_game(data: object) -> Game:
    """Replay a record (parsed JSON) into a `Game`. A record that breaks a rule is refused
    whole with a `RecordError` naming the deal and action; the checks come in section
    10's order: the document's shape, the rules, the deals, then action by action."""
    _check_shape(data)
    assert isinstance(data, Mapping)
    try:
        rules = Rules.from_json(data["rules"])
    except GameError as exc:
        raise RecordError.located(exc, None, code=INVALID_RULES) from None
    first_dealer = data["first_dealer"]
    if not 0 <= first_dealer < rules.players:
        raise RecordError(INVALID_RECORD, reason="first_dealer", last=rules.players - 1)
    raw_deals: list[Mapping[str, Any]] = data["deals"]
    _check_seats(raw_deals, rules.players)
    deals = [_parse_deal(raw, rules, index) for index, raw in enumerate(raw_deals)]
    game = Game(rules, first_dealer)
    for index, (raw, deal) in enumerate(zip(raw_deals, deals, strict=True)):
        actions = raw.get("actions", [])
        if game.finished:
            raise RecordError(GAME_OVER, index, 0 if actions else None, reason="before_deal")
        if not game.needs_deal():
            raise RecordError(INVALID_RECORD, index, reason="unfinished", index=index - 1)
        state = game.start_deal(deal, validate=False)
        for action_index, raw_action in enumerate(actions):
            _apply_raw(game, state, raw_action, index, action_index)
    return game


def _check_shape(data: object) -> None:
    """The whole document's shape (`invalid_record`), every action's included."""
    if not isinstance(data, Mapping):
        raise RecordError(INVALID_RECORD, reason="not_object")
    if data.get("format") != FORMAT:
        raise RecordError(INVALID_RECORD, reason="format", format=data.get("format"),
                          expected=FORMAT)
    if not isinstance(data.get("rules"), Mapping):
        raise RecordError(INVALID_RECORD, reason="no_rules")
    if not _is_whole(data.get("first_dealer")):
        raise RecordError(INVALID_RECORD, reason="first_dealer_not_whole")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError(INVALID_RECORD, reason="deals_not_list")
    for index, raw in enumerate(deals):
        if not isinstance(raw, Mapping):
            raise RecordError(INVALID_RECORD, index, reason="deal_not_object", index=index)
        for part in ROWS:
            rows = raw.get(part)
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise RecordError(INVALID_RECORD, index, reason="rows_not_lists", part=part)
        if not isinstance(raw.get("deck"), list):
            raise RecordError(INVALID_RECORD, index, reason="deck_not_list")
        actions = raw.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(INVALID_RECORD, index, reason="actions_not_list", index=index)
        for action_index, action in enumerate(actions):
            _check_action_shape(action, index, action_index)


def _check_action_shape(raw: object, deal: int, index: int) -> None:
    if not isinstance(raw, Mapping):
        raise RecordError(INVALID_RECORD, deal, index, reason="action_not_object")
    kind = raw.get("action")
    if not isinstance(kind, str) or kind not in _FORMS:
        raise RecordError(INVALID_RECORD, deal, index, reason="unknown_action", kind=kind)
    form = _FORMS[kind]
    allowed = {"seat", "action", *(key for key, _type in form)}
    for key in raw:
        if key not in allowed:
            raise RecordError(INVALID_RECORD, deal, index, reason="unknown_key", key=key,
                              kind=kind)
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise RecordError(INVALID_RECORD, deal, index, reason="seat_not_whole", value=seat)
    for key, kind_type in form:
        if key not in raw:
            raise RecordError(INVALID_RECORD, deal, index, reason="missing_key", key=key,
                              kind=kind)
        value = raw[key]
        if kind_type is int and not _is_whole(value):
            raise RecordError(INVALID_RECORD, deal, index, reason="not_whole", key=key,
                              value=value)
        if kind_type is list and not isinstance(value, list):
            raise RecordError(INVALID_RECORD, deal, index, reason="not_list", key=key)


def _check_seats(deals: list[Mapping[str, Any]], players: int) -> None:
    """Every action names a seat of the table (its shape, given the rules)."""
    for index, raw in enumerate(deals):
        for action_index, action in enumerate(raw.get("actions", [])):
            if action["seat"] >= players:
                raise RecordError(INVALID_RECORD, index, action_index, reason="no_seat",
                                  seat=action["seat"], players=players)


def _parse_deal(raw: Mapping[str, Any], rules: Rules, index: int) -> Deal:
    try:
        deal = deal_from_names(raw["down"], raw["up"], raw["hand"], raw["deck"])
        deal.validate(rules)
    except GameError as exc:
        raise RecordError.located(exc, index, code=INVALID_DEAL) from None
    return deal


def _apply_raw(game: Game, state: DealState, raw: Mapping[str, Any], deal: int,
               index: int) -> None:
    if game.finished:
        raise RecordError(GAME_OVER, deal, index, reason="already")
    kind: str = raw["action"]
    try:
        state.check_actor(raw["seat"], kind)
        action = action_from_json(raw)
        game.apply(action)
    except GameError as exc:
        raise RecordError.located(exc, deal, index) from None


def action_from_json(raw: Mapping[str, Any]) -> Action:
    """The action of a record's action object (`action_to_json`'s inverse). A card that
    is not card notation is refused as `invalid_card`; a malformed object as
    `invalid_record`."""
    seat, kind = raw.get("seat"), raw.get("action")
    if not _is_whole(seat) or kind not in _FORMS:
        raise GameError(INVALID_RECORD, reason="no_seat_or_kind")
    assert isinstance(seat, int)
    try:
        if kind == PLAY:
            return Action(seat, PLAY, _cards(raw["cards"]))
        if kind == SWAP:
            return Action(seat, SWAP, _cards(raw["hand"]), _cards(raw["up"]))
        if kind == FLIP:
            index = raw["index"]
            if not _is_whole(index):
                raise GameError(INVALID_RECORD, reason="not_whole", key="index", value=index)
            return Action(seat, FLIP, position=index)
    except KeyError as exc:
        raise GameError(INVALID_RECORD, reason="missing_key", key=exc.args[0],
                        kind=kind) from None
    return Action(seat, PICKUP)


def _cards(values: object) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise GameError(INVALID_RECORD, reason="cards_not_list")
    out = []
    for value in values:
        card = parse_card_of_pack(value)
        if card < 0:
            raise GameError(INVALID_CARD, reason="record", value=value)
        out.append(card)
    return tuple(out)


# ----------------------------------------------------------------------------- output

def deal_report(game: Game, index: int) -> dict[str, object]:
    """One deal of the replay output."""
    state = game.deals[index]
    settled = index < len(game.deal_wins)
    finished = state.outcome == FINISHED
    return {
        "dealer": state.dealer,
        "starter": state.starter if state.starter >= 0 else None,
        "outcome": state.outcome if state.finished else IN_PROGRESS,
        "places": state.places[:] if finished else [],
        "winner": state.winner if finished else None,
        "wins": game.deal_wins[index][:] if settled else game.wins[:],
    }


def state_report(state: DealState) -> dict[str, object]:
    """The position of a deal: pile, burned cards, deck size, and per seat the hand
    (sorted low to high), face-up cards left, face-down count and whether out."""
    return {
        "pile": [card_name(c) for c in state.pile],
        "burned": [card_name(c) for c in state.burned],
        "deck": state.deck_size,
        "seats": [{"hand": [card_name(c) for c in sorted_cards(state.hands[seat])],
                   "up": [card_name(c) for c in state.up[seat]],
                   "down": len(state.down[seat]),
                   "out": state.is_out(seat)} for seat in range(state.n)],
    }


def replay_output(game: Game) -> dict[str, object]:
    """Section 10's replay output for a game."""
    state = game.current
    nxt = None
    if not game.finished and state is not None:
        nxt = state.legal_summary()
    return {
        "deals": [deal_report(game, i) for i in range(len(game.deals))],
        "wins": game.wins[:],
        "finished": game.finished,
        "winners": game.winners[:],
        "state": state_report(state) if state is not None else None,
        "next": nxt,
    }


def replay(data: object, word: Callable[[GameError], str] = error_sentence
           ) -> dict[str, object]:
    """Replay a record to its output, or to `{"error": ...}` if it breaks a rule, worded
    by `word` (the CLI's is the platform's error_text, which words the codes every game
    shares; the default, this game's own words, gives such a code back)."""
    try:
        return replay_output(load_game(data))
    except RecordError as exc:
        return exc.to_json(word(exc), part="deal")


# ----------------------------------------------------------------------------- saving

def action_to_json(action: Action) -> dict[str, object]:
    out: dict[str, object] = {"seat": action.seat, "action": action.kind}
    if action.kind == PLAY:
        out["cards"] = [card_name(c) for c in action.cards]
    elif action.kind == SWAP:
        out["hand"] = [card_name(c) for c in action.cards]
        out["up"] = [card_name(c) for c in action.up]
    elif action.kind == FLIP:
        out["index"] = action.position
    return out


def deal_to_json(state: DealState) -> dict[str, object]:
    out = state.deal.to_json()
    out["actions"] = [action_to_json(a) for a in state.actions]
    return out


def game_to_record(game: Game) -> dict[str, object]:
    """The record of a game, which replays to the same state."""
    return {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "first_dealer": game.first_dealer,
        "deals": [deal_to_json(state) for state in game.deals],
    }


def is_american_record(data: object) -> bool:
    """Whether parsed JSON says it is a record of this game (by its `format`)."""
    return isinstance(data, Mapping) and data.get("format") == FORMAT


__all__ = ["FORMAT", "RecordError", "action_from_json",
           "action_to_json", "deal_to_json", "game_to_record", "is_american_record",
           "load_game", "replay", "replay_output"]
