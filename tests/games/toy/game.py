"""High card (*høyeste kort*), the toy game: rules, state, record and views in one place.

Each seat is dealt three cards; in turn, from the seat after the dealer, every seat plays
one card face up; the highest rank takes the trick (the first played of equal ranks),
and its taker leads the next. After three tricks the deal ends, each trick a point; the
game ends after the deal in which a seat reaches the target.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.cards import card_name, parse_card, rank_of
from bot.errors import (
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_RECORD,
    INVALID_RULES,
    NOT_YOUR_TURN,
    GameError,
    RecordError,
)

FORMAT = "toy-record/1"
HAND = 3  # cards a seat is dealt


@dataclass(frozen=True)
class Rules:
    players: int = 2
    target: int = 3

    @classmethod
    def create(cls, players: int, options: Mapping[str, object]) -> Rules:
        for key, value in options.items():
            if key != "target" and value is not None:
                raise GameError(INVALID_RULES, reason="unknown_option", option=key)
        target = options.get("target") or 3
        if not 2 <= players <= 4:
            raise GameError(INVALID_RULES, reason="players", players=players)
        if not isinstance(target, int) or not 1 <= target <= 9:
            raise GameError(INVALID_RULES, reason="target", target=target)
        return cls(players, target)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        return cls.create(int(data["players"]), {"target": data["target"]})

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "target": self.target}


class Action(NamedTuple):
    seat: int
    card: int


@dataclass
class Deal:
    dealer: int
    dealt: tuple[tuple[int, ...], ...]
    actions: list[Action] = field(default_factory=list)
    held: list[list[int]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) this trick
    last: list[tuple[int, int]] = field(default_factory=list)  # the trick before
    taken: list[int] = field(default_factory=list)  # tricks taken per seat
    leader: int = 0

    def __post_init__(self) -> None:
        n = len(self.dealt)
        self.held = [list(hand) for hand in self.dealt]
        self.taken = [0] * n
        self.leader = (self.dealer + 1) % n

    @property
    def finished(self) -> bool:
        return len(self.actions) == HAND * len(self.dealt)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % len(self.dealt)

    def play(self, action: Action) -> None:
        if self.finished:
            raise GameError(GAME_OVER, reason="already")
        if action.seat != self.to_act:
            raise GameError(NOT_YOUR_TURN, to_act=self.to_act, seat=action.seat)
        if action.card not in self.held[action.seat]:
            raise GameError(CARD_NOT_IN_HAND, card=action.card)
        self.held[action.seat].remove(action.card)
        self.actions.append(action)
        self.trick.append((action.seat, action.card))
        if len(self.trick) == len(self.dealt):
            best = max(rank_of(card) for _, card in self.trick)
            self.leader = next(seat for seat, card in self.trick if rank_of(card) == best)
            self.taken[self.leader] += 1
            self.last, self.trick = self.trick, []

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer,
                "hands": [[card_name(c) for c in hand] for hand in self.dealt]}


@dataclass
class Game:
    rules: Rules
    first_dealer: int
    deals: list[Deal] = field(default_factory=list)

    @property
    def points(self) -> list[int]:
        return [sum(d.taken[s] for d in self.deals if d.finished)
                for s in range(self.rules.players)]

    @property
    def finished(self) -> bool:
        return bool(self.deals) and self.deals[-1].finished and \
            max(self.points) >= self.rules.target

    def deal(self, rng: random.Random) -> Deal:
        pack = list(range(52))
        rng.shuffle(pack)
        n = self.rules.players
        hands = tuple(tuple(sorted(pack[s * HAND:(s + 1) * HAND])) for s in range(n))
        deal = Deal((self.first_dealer + len(self.deals)) % n, hands)
        self.deals.append(deal)
        return deal


# ---------------------------------------------------------------- views

class View(NamedTuple):
    """What a seat (None: everyone) may see: its own cards only."""

    seat: int | None
    deal_number: int
    dealer: int
    to_act: int | None
    hand: tuple[int, ...] | None  # the seat's own cards
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    last: tuple[tuple[int, int], ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    target: int
    finished: bool
    legal: tuple[int, ...]  # the cards the seat may play now (its turn)


def view(game: Game, seat: int | None = None, deal: int | None = None) -> View:
    d = game.deals[-1 if deal is None else deal]
    over = game.finished
    to_act = None if d.finished or over else d.to_act
    hand = tuple(sorted(d.held[seat])) if seat is not None else None
    return View(seat, len(game.deals) if deal is None else deal + 1, d.dealer, to_act, hand,
                tuple(len(h) for h in d.held), tuple(d.trick), tuple(d.last),
                tuple(d.taken), tuple(game.points), game.rules.target, over,
                hand if hand is not None and seat == to_act else ())


def known_cards(v: View) -> set[int]:
    return {*(v.hand or ()), *(c for _, c in v.trick), *(c for _, c in v.last)}


# ---------------------------------------------------------------- records

def action_to_json(action: Action) -> dict[str, Any]:
    return {"seat": action.seat, "card": card_name(action.card)}


def action_from_json(raw: Mapping[str, Any]) -> Action:
    return Action(int(raw["seat"]), parse_card(raw["card"]))


def dump(game: Game) -> dict[str, Any]:
    return {"format": FORMAT, "rules": game.rules.to_json(), "first_dealer": game.first_dealer,
            "deals": [{**d.to_json(), "actions": [action_to_json(a) for a in d.actions]}
                      for d in game.deals]}


def load(data: Mapping[str, Any]) -> Game:
    """The game of a record; a record that does not replay is refused where it breaks."""
    if data.get("format") != FORMAT:
        raise RecordError(INVALID_RECORD, reason="format", expected=FORMAT)
    try:
        game = Game(Rules.from_json(data["rules"]), int(data["first_dealer"]))
        deals = list(data["deals"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(INVALID_RECORD, reason="shape") from exc
    except GameError as exc:
        raise RecordError.located(exc, None, code=INVALID_RULES) from exc
    for index, raw in enumerate(deals):
        try:
            hands = tuple(tuple(parse_card(c) for c in hand) for hand in raw["hands"])
            deal = Deal(int(raw["dealer"]), hands)
        except (KeyError, TypeError, ValueError, GameError) as exc:
            raise RecordError(INVALID_RECORD, index, reason="shape") from exc
        game.deals.append(deal)
        for number, action in enumerate(raw.get("actions", ())):
            try:
                deal.play(action_from_json(action))
            except GameError as exc:
                raise RecordError.located(exc, index, number) from exc
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordError(INVALID_RECORD, index, number, reason="shape") from exc
    return game
