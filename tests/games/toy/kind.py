"""High card as a GameKind: the engine few of bot/games/base.py, nothing more."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.errors import GameError
from bot.games.base import GameKindBase
from bot.tables.kind import Applied, SeatResult

from . import game as core
from .game import FORMAT, Action, Game, Rules, View
from .words import ToyWords


class ToyKind(GameKindBase):
    """High card: three cards each, the highest rank takes the trick."""

    name = "toy"
    FORMAT = FORMAT
    ai_levels: tuple[str, ...] = ("easy",)
    default_players = 2
    players_range = (2, 4)
    target_range = (1, 9)
    rules_class = Rules
    words = ToyWords()

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Rules:
        return Rules.create(players, options)

    def new_game(self, rules: Rules, first_dealer: int, rng: random.Random
                 ) -> tuple[Game, dict[str, Any]]:
        game = Game(rules, first_dealer)
        return game, game.deal(rng).to_json()

    def apply(self, game: Game, action: Action, rng: random.Random) -> Applied:
        if game.finished:
            raise GameError("game_over", reason="already")
        deal = game.deals[-1]
        index, tricks = len(game.deals) - 1, sum(deal.taken)
        deal.play(action)  # refused whole: it checks before it changes anything
        next_deal = None
        if deal.finished and not game.finished:
            next_deal = game.deal(rng).to_json()
        return Applied(index, len(deal.actions) - 1,
                       core.action_to_json(action), deal.finished, next_deal,
                       pause=sum(deal.taken) > tricks)

    def to_act(self, game: Game) -> int | None:
        return core.view(game).to_act

    def public_view(self, game: Game) -> View:
        return core.view(game)

    def seat_view(self, game: Game, seat: int) -> View:
        return core.view(game, seat)

    def results(self, game: Game) -> list[SeatResult]:
        points = game.points
        return [SeatResult(seat, 1 + sum(p > mine for p in points), mine,
                           mine == max(points), {"tricks": mine})
                for seat, mine in enumerate(points)]

    def load_record(self, record: Mapping[str, Any]) -> Game:
        return core.load(record)

    def dump(self, game: Game) -> dict[str, Any]:
        return core.dump(game)

    def choose_action(self, game: Game, seat: int, level: str, rng: random.Random
                      ) -> Action:
        """"random": any card; "easy": the highest card when it can still take the
        trick, else the lowest."""
        legal = self.seat_view(game, seat).legal
        if level == "random":
            return Action(seat, rng.choice(legal))
        trick = game.deals[-1].trick
        best = max((c % 13 for _, c in trick), default=-1)
        top = max(legal, key=lambda c: c % 13)
        return Action(seat, top if top % 13 > best else min(legal, key=lambda c: c % 13))

    # ------------------------------------------------------------ for the tests

    def legal_actions(self, game: Game, seat: int) -> list[Action]:
        return [Action(seat, card) for card in self.seat_view(game, seat).legal]

    def action_to_json(self, action: Action) -> Mapping[str, Any]:
        return core.action_to_json(action)

    def secret_cards(self, game: Game, seat: int | None) -> set[int]:
        held = {c for hand in game.deals[-1].held for c in hand} if game.deals else set()
        return held - core.known_cards(core.view(game, seat))


TOY = ToyKind()

# What the registry would find if this folder were a package of bot/games (a new game's
# shape; the tests register it with bot.games.registered instead).
KIND = TOY
COG = "tests.games.toy.cog"
