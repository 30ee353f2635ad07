"""American's words, one object (`AMERICAN.words`): the platform's text hooks, each the
game's view turned into words by ./text.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.errors import GameError
from bot.games.base import WordsBase
from bot.tables.kind import Panel, Scene

from . import text
from .actions import Action
from .game import Game
from .record import action_from_json
from .results import final_places
from .rules import Rules
from .views import deal_review, game_view, game_view_after


class AmericanWords(WordsBase):
    def title(self, rules: Rules) -> str:
        return text.title()

    def lobby_title(self, rules: Rules) -> str:
        return text.lobby_title(rules)

    def options_line(self, rules: Rules) -> str:
        return text.options_line(rules)

    def option_label(self, key: str) -> str:
        return text.option_name(key)

    def option_help(self, key: str) -> str:
        return text.option_help(key)

    def table_panel(self, game: Game, names: Sequence[str]) -> Panel:
        return text.table_panel(game_view(game), names)

    def table_scene(self, game: Game, names: Sequence[str]) -> Scene:
        return text.table_scene(game_view(game), names)

    def seat_panel(self, game: Game, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        return text.seat_panel(game_view(game, seat), names, compact)

    def deal_summary(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        return text.deal_summary(game_view_after(game, index), names)

    def deal_review(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        return text.deal_review(deal_review(game, index), names)

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        return text.final_standings(game_view(game), names, final_places(game))

    def describe_action(self, action: Mapping[str, Any]) -> str:
        return text.describe_action(action_from_json(action))

    def hint_text(self, game: Game, seat: int, action: Action) -> str:
        from .ai.reasons import reason

        view = game_view(game, seat)
        assert view.deal is not None
        code, params = reason(view.deal, action)
        return text.hint_sentence(action) + " " + text.hint_reason(code, params)

    def rules_text(self, rules: Rules) -> str:
        return text.rules_text(rules)

    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        return text.settings_text(settings, saved)

    def help_text(self) -> str:
        return text.help_text()

    def help_pages(self) -> list[Panel]:
        return text.help_pages()

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        return text.stats_lines(stats)

    def error_text(self, error: GameError) -> str:
        return text.error_sentence(error)
