"""Amerikaner as a GameKind (bot/tables/kind.py): what the table platform calls."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.errors import GAME_OVER, NOT_YOUR_TURN, GameError
from bot.tables.kind import Applied, Hint, Panel, Scene, SeatResult
from bot.tables.ratings import RatedMatch

from . import claim as claims
from . import rating, text
from .actions import Action
from .game import Game
from .record import FORMAT, action_from_json, action_to_json, load_game
from .results import game_results
from .rules import BOOLEAN_OPTIONS, Rules
from .views import GameView, HandView, deal_review, game_view, game_view_after, hand_view


class AmerikanerKind:
    """Amerikaner, Kani and the Norwegian-American rules."""

    name: str = "amerikaner"
    record_format: str = FORMAT
    ai_levels: tuple[str, ...] = ("easy", "strong")
    default_players: int = 4

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Rules:
        return Rules.create(preset or "amerikaner", players, dict(options))

    def rules_from_json(self, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(data)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return dict(rules.to_json())

    def option_label(self, key: str) -> str:
        return text.option_name(key)

    def house_rules(self, rules: Rules) -> list[tuple[str, str, bool]]:
        return [(name, text.option_help(name), name in rules.options)
                for name in BOOLEAN_OPTIONS if name in rules.style.options]

    def with_house_rules(self, rules: Rules, chosen: Sequence[str]) -> Rules:
        options: dict[str, object] = {name: True for name in chosen}
        options["target"] = rules.target
        return Rules.create(rules.preset, rules.players, options)

    def players(self, rules: Rules) -> int:
        return rules.players

    def new_game(self, rules: Rules, first_dealer: int, rng: random.Random
                 ) -> tuple[Game, dict[str, Any]]:
        game = Game(rules, first_dealer)
        hand = game.start_hand(rng=rng)
        return game, dict(hand.deal.to_json(rules))

    def load(self, record: Mapping[str, Any]) -> Game:
        return load_game(record)

    def record(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return dict(stored)  # the store keeps Amerikaner's own format

    def version(self, game: Game) -> int:
        return sum(len(hand.actions) for hand in game.hands)

    def to_act(self, game: Game) -> int | None:
        hand = game.current
        if game.finished or hand is None or hand.finished:
            return None
        return hand.to_act

    def finished(self, game: Game) -> bool:
        return game.finished

    def copy(self, game: Game) -> Game:
        return game.copy()

    def apply(self, game: Game, action: Action, rng: random.Random) -> Applied:
        deal_index = len(game.hands) - 1
        current = game.current
        tricks_before = current.tricks_done if current is not None else 0
        hand = game.apply(action)  # refused whole by the core (GameError)
        seq = len(hand.actions) - 1
        stored = action_to_json(hand.actions[-1], game.rules)
        next_deal = None
        if hand.finished and not game.finished:
            next_deal = dict(game.start_hand(rng=rng).deal.to_json(game.rules))
        trick_done = hand.tricks_done > tricks_before
        return Applied(deal_index, seq, stored, hand.finished, next_deal, pause=trick_done)

    def results(self, game: Game) -> list[SeatResult]:
        return game_results(game)

    def public_view(self, game: Game) -> GameView:
        return game_view(game)

    def seat_view(self, game: Game, seat: int) -> HandView | None:
        hand = game.current
        return hand_view(hand, seat) if hand is not None else None

    def choose_action(self, game: Game, seat: int, level: str, rng: random.Random
                      ) -> Action:
        from .ai import choose_action

        view = self.seat_view(game, seat)
        assert view is not None
        return choose_action(view, level, rng)

    def claim(self, game: Game, seat: int) -> list[Action]:
        return claims.claim(game, seat)

    def can_claim(self, game: Game, seat: int) -> bool:
        hand = game.current
        if game.finished or hand is None or hand.finished:
            return False
        try:
            claims.check_claim_time(hand, seat)
        except GameError:
            return False
        return True

    def rating_matches(self, game: Game) -> list[RatedMatch]:
        return rating.rating_matches(game)

    def rating_pool(self, rules: Rules) -> str:
        return rating.POOL

    def hint(self, game: Game, seat: int, rng: random.Random) -> Hint:
        to_act = self.to_act(game)
        if to_act is None:
            raise GameError(GAME_OVER, reason="already")
        if seat != to_act:
            raise GameError(NOT_YOUR_TURN, to_act=to_act, seat=seat)
        from .ai.reasons import reason, winning_after

        action = self.choose_action(game, seat, "strong", rng)
        view = self.seat_view(game, seat)
        assert view is not None and game.current is not None
        code, params = reason(view, action, winning_after(game.current, action))
        return Hint(action, text.hint_sentence(action) + " "
                    + text.hint_reason(code, params))

    # ------------------------------------------------------------------ text (./text.py)

    def title(self, rules: Rules) -> str:
        return text.TITLE

    def lobby_title(self, rules: Rules) -> str:
        return text.lobby_title(rules)

    def options_line(self, rules: Rules) -> str:
        return text.options_line(rules)

    def table_panel(self, game: Game, names: Sequence[str]) -> Panel:
        return text.table_panel(game_view(game), names)

    def table_scene(self, game: Game, names: Sequence[str]) -> Scene:
        return text.table_scene(game_view(game), names)

    def running_totals(self, game: Game) -> list[tuple[int, ...]]:
        return [tuple(totals) for totals in game.hand_totals]

    def seat_panel(self, game: Game, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        view = self.seat_view(game, seat)
        assert view is not None
        return text.seat_panel(view, names, game.totals, compact)

    def deal_summary(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        return text.deal_summary(game_view_after(game, index), names)

    def deal_review(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        return text.deal_review(deal_review(game, index), names)

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        return text.final_standings(game_view(game), names)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        return text.describe_action(action_from_json(action))

    def rules_text(self, rules: Rules) -> str:
        return text.rules_text(rules)

    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        return text.settings_text(dict(settings), saved)

    def help_text(self) -> str:
        return text.help_text()

    def help_pages(self) -> list[Panel]:
        return text.help_pages()

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        return text.stats_lines(stats)

    def error_text(self, error: GameError) -> str:
        return text.error_sentence(error)


AMERIKANER = AmerikanerKind()
