"""Game records (docs/record-format.md): load, replay, report, save."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.cards import card_name, parse_card
from bot.errors import (
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    GameError,
    RecordError,
)

from .actions import Action
from .deal import Deal
from .errors import INVALID_TRUMP
from .game import Game
from .hand import (
    ALL_PASS_PLAYED,
    BID,
    EXCHANGE,
    IN_PROGRESS,
    REDEAL,
    THROWN_IN,
    Hand,
    trump_name,
)
from .rules import Rules
from .text_refusals import error_sentence

FORMAT = "amerikaner-record/1"

# Keys each action form may carry (besides "seat" and "action"), required then optional.
_FORMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pass": ((), ()),
    "redeal": ((), ()),
    "bid": (("bid",), ()),
    "exchange": (("cards",), ()),
    "discard": (("cards",), ()),
    "play": (("card",), ("call", "trump")),
}


def _fail(code: str, hand: int | None = None, action: int | None = None,
          **params: object) -> RecordError:
    return RecordError(code, hand, action, **params)


def load_game(data: object) -> Game:
    """Replay a record (parsed JSON) into a `Game`. A record that breaks a rule is refused
    whole with a `RecordError` naming the hand and action."""
    if not isinstance(data, Mapping):
        raise _fail(INVALID_RECORD, reason="not_object")
    if data.get("format") != FORMAT:
        raise _fail(INVALID_RECORD, reason="format", format=data.get("format"),
                    expected=FORMAT)
    rules_data = data.get("rules")
    if not isinstance(rules_data, Mapping):
        raise _fail(INVALID_RECORD, reason="no_rules")
    try:
        rules = Rules.from_json(rules_data)
    except GameError as exc:
        raise RecordError.located(exc, None, code=INVALID_RULES) from None
    first_dealer = data.get("first_dealer")
    if (not isinstance(first_dealer, int) or isinstance(first_dealer, bool)
            or not 0 <= first_dealer < rules.players):
        raise _fail(INVALID_RECORD, reason="first_dealer", last=rules.players - 1)
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise _fail(INVALID_RECORD, reason="hands_not_list")
    game = Game(rules, first_dealer)
    for hi, raw_hand in enumerate(hands):
        if not isinstance(raw_hand, Mapping):
            raise _fail(INVALID_RECORD, hi, reason="hand_not_object", index=hi)
        actions = raw_hand.get("actions", [])
        if not isinstance(actions, list):
            raise _fail(INVALID_RECORD, hi, reason="actions_not_list", index=hi)
        if game.finished:
            raise _fail(GAME_OVER, hi, 0 if actions else None, reason="before_hand")
        last = game.current
        if last is not None and not last.finished:
            raise _fail(INVALID_RECORD, hi, reason="unfinished", index=hi - 1)
        deal = _parse_deal(raw_hand, rules, hi)
        try:
            game.start_hand(deal)
        except GameError as exc:
            raise RecordError.located(exc, hi) from None
        for ai, raw in enumerate(actions):
            _apply_raw(game, raw, hi, ai)
    return game


def _parse_deal(raw: Mapping[str, Any], rules: Rules, hi: int) -> Deal:
    deal = raw.get("deal")
    if not isinstance(deal, list) or not all(isinstance(h, list) for h in deal):
        raise _fail(INVALID_RECORD, hi, reason="no_deal", index=hi)

    def cards(values: object, part: str, seat: int | None = None) -> tuple[int, ...]:
        """`part`: which cards of the deal ("seat", "kitty", "blind", "removed")."""
        if values is None:
            return ()
        if not isinstance(values, list):
            raise _fail(INVALID_RECORD, hi, reason="cards_not_list", index=hi, part=part,
                        seat=seat)
        out = []
        for text in values:
            try:
                out.append(parse_card(text))
            except GameError:  # in a record, a deal's bad card is a bad deal
                raise _fail(INVALID_DEAL, hi, reason="deal_not_a_card", value=text,
                            part=part, seat=seat) from None
        return tuple(out)

    parsed = Deal(
        hands=tuple(cards(h, "seat", i) for i, h in enumerate(deal)),
        kitty=cards(raw.get("kitty"), "kitty"),
        blind=cards(raw.get("blind"), "blind"),
        removed=cards(raw.get("removed"), "removed"),
    )
    return parsed


def _apply_raw(game: Game, raw: object, hi: int, ai: int) -> None:
    if game.finished:
        raise _fail(GAME_OVER, hi, ai, reason="already")
    if not isinstance(raw, Mapping):
        raise _fail(INVALID_RECORD, hi, ai, reason="action_not_object")
    kind = raw.get("action")
    if kind not in _FORMS:
        raise _fail(INVALID_RECORD, hi, ai, reason="unknown_action", kind=kind)
    required, optional = _FORMS[kind]
    allowed = {"seat", "action", *required, *optional}
    for key in raw:
        if key not in allowed:
            raise _fail(INVALID_RECORD, hi, ai, reason="unknown_key", key=key, kind=kind)
    for key in ("seat", *required):
        if key not in raw:
            raise _fail(INVALID_RECORD, hi, ai, reason="missing_key", key=key, kind=kind)
    hand = game.current
    assert hand is not None
    seat = raw["seat"]
    try:
        hand.check_actor(seat, kind)
        action = _parse_action(kind, seat, raw)
        game.apply(action)
    except RecordError:
        raise
    except GameError as exc:
        raise RecordError.located(exc, hi, ai) from None


def _parse_action(kind: str, seat: int, raw: Mapping[str, Any]) -> Action:
    if kind == "bid":
        bid = raw["bid"]
        if isinstance(bid, bool) or not isinstance(bid, int | str):
            raise GameError(INVALID_RECORD, reason="not_a_bid", value=bid)
        return Action(seat, "bid", bid=bid)
    if kind in ("exchange", "discard"):
        values = raw["cards"]
        if not isinstance(values, list):
            raise GameError(INVALID_RECORD, reason="action_cards_not_list")
        return Action(seat, kind, cards=tuple(_card(v) for v in values))
    if kind == "play":
        card = _card(raw["card"])
        call = raw.get("call")
        trump = raw.get("trump")
        if trump is not None and not isinstance(trump, str):
            raise GameError(INVALID_TRUMP, reason="not_text", value=trump)
        return Action(seat, "play", card=card, call=None if call is None else _card(call),
                      trump=trump)
    return Action(seat, kind)  # type: ignore[arg-type]


def _card(text: object) -> int:
    try:
        return parse_card(text)
    except GameError:
        raise GameError(INVALID_CARD, reason="record", value=text) from None


# ----------------------------------------------------------------------------- output

def hand_report(game: Game, index: int) -> dict[str, object]:
    hand = game.hands[index]
    n = game.rules.players
    before = game.hand_totals[index - 1] if index > 0 else [0] * n
    done = index < len(game.hand_totals)
    outcome = hand.outcome if hand.finished else IN_PROGRESS
    void = outcome in (THROWN_IN, REDEAL)
    bidding_over = hand.phase not in (EXCHANGE, BID) and not hand.all_pass
    return {
        "dealer": hand.dealer,
        "outcome": outcome,
        "bidder": hand.bidder if bidding_over and not void else None,
        "contract": (game.rules.bid_name(hand.high_bid) if bidding_over and not void
                     else None),
        "trump": None if void or outcome == ALL_PASS_PLAYED else trump_name(hand.trump),
        "called": card_name(hand.called) if hand.called >= 0 else None,
        "partner": hand.partner if hand.partner >= 0 else None,
        "tricks": [0] * n if void else hand.tricks_won[:],
        "scores": hand.scores[:] if done else [0] * n,
        "totals": game.hand_totals[index][:] if done else before[:],
    }


def replay_output(game: Game) -> dict[str, object]:
    """The replay output of docs/record-format.md for a game."""
    hand = game.current
    nxt = None
    if not game.finished and hand is not None and not hand.finished:
        nxt = hand.legal_summary()
    return {
        "hands": [hand_report(game, i) for i in range(len(game.hands))],
        "totals": game.totals[:],
        "finished": game.finished,
        "winners": game.winners[:],
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
        return exc.to_json(word(exc))


def action_to_json(action: Action, rules: Rules | None = None) -> dict[str, object]:
    out: dict[str, object] = {"seat": action.seat, "action": action.kind}
    if action.kind == "bid":
        out["bid"] = action.bid
    elif action.kind in ("exchange", "discard"):
        out["cards"] = [card_name(c) for c in action.cards]
    elif action.kind == "play":
        assert action.card is not None
        out["card"] = card_name(action.card)
        if action.call is not None:
            out["call"] = card_name(action.call)
        if action.trump is not None:
            out["trump"] = action.trump
    return out


def action_from_json(raw: Mapping[str, Any]) -> Action:
    """The action of a record's action object (`action_to_json`'s inverse); a
    malformed one raises `GameError`."""
    seat, kind = raw.get("seat"), raw.get("action")
    if not isinstance(seat, int) or not isinstance(kind, str):
        raise GameError(INVALID_RECORD, reason="no_seat_or_kind")
    try:
        return _parse_action(kind, seat, raw)
    except KeyError as exc:
        raise GameError(INVALID_RECORD, reason="no_key", key=exc.args[0]) from None


def hand_to_json(hand: Hand) -> dict[str, object]:
    out = hand.deal.to_json(hand.rules)
    out["actions"] = [action_to_json(a, hand.rules) for a in hand.actions]
    return out


def game_to_record(game: Game) -> dict[str, object]:
    """The record of a game, which replays to the same state."""
    return {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "first_dealer": game.first_dealer,
        "hands": [hand_to_json(h) for h in game.hands],
    }
