"""American as a GameKind (bot/tables/kind.py): what the table platform calls."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.errors import GAME_OVER, NOT_YOUR_TURN, GameError
from bot.tables.kind import Applied, Hint, Panel, Scene, SeatResult
from bot.tables.ratings import RatedMatch

from . import rating, text
from .actions import PICKUP, Action
from .game import Game
from .record import FORMAT, action_from_json, action_to_json, load_game
from .results import final_places, game_results
from .rules import BOOLEAN_OPTIONS, DEFAULT_PLAYERS, Rules
from .views import NO_CLAIMS, GameView, deal_review, game_view, game_view_after


class AmericanKind:
    """American, the shedding game of the Idiot family (RULES-AMERICAN.md)."""

    name: str = "american"
    record_format: str = FORMAT
    ai_levels: tuple[str, ...] = ("easy", "strong")
    default_players: int = DEFAULT_PLAYERS

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Rules:
        # American has no presets: one game, its house rules as options.
        return Rules.create(players, dict(options))

    def rules_from_json(self, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(data)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return dict(rules.to_json())

    def option_label(self, key: str) -> str:
        return text.option_name(key)

    def house_rules(self, rules: Rules) -> list[tuple[str, str, bool]]:
        return [(name, text.option_help(name), name in rules.options)
                for name in BOOLEAN_OPTIONS]

    def with_house_rules(self, rules: Rules, chosen: Sequence[str]) -> Rules:
        options: dict[str, object] = {name: True for name in chosen}
        options["target"] = rules.target
        return Rules.create(rules.players, options)

    def players(self, rules: Rules) -> int:
        return rules.players

    def new_game(self, rules: Rules, first_dealer: int, rng: random.Random
                 ) -> tuple[Game, dict[str, Any]]:
        game = Game(rules, first_dealer)
        state = game.start_deal(rng=rng)
        return game, dict(state.deal.to_json())

    def load(self, record: Mapping[str, Any]) -> Game:
        """A game from the store's record (its deals under "hands", as the store keeps
        every game's) or from an `american-record/1`."""
        return load_game(self.record(record))

    def record(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The `american-record/1` of a game as the store gives it back (each deal as
        `new_game`/`apply` gave it, with its actions, under "hands")."""
        if "deals" in stored and "hands" not in stored:
            return dict(stored)
        return {"format": FORMAT, "rules": stored["rules"],
                "first_dealer": stored["first_dealer"], "deals": list(stored["hands"])}

    def version(self, game: Game) -> int:
        return sum(len(state.actions) for state in game.deals)

    def to_act(self, game: Game) -> int | None:
        state = game.current
        if game.finished or state is None or state.finished:
            return None
        return state.to_act

    def finished(self, game: Game) -> bool:
        return game.finished

    def copy(self, game: Game) -> Game:
        return game.copy()

    def apply(self, game: Game, action: Action, rng: random.Random) -> Applied:
        deal_index = len(game.deals) - 1
        before = game.current
        burned = len(before.burned) if before is not None else 0
        state = game.apply(action)  # refused whole by the core (GameError)
        seq = len(state.actions) - 1
        next_deal = None
        if state.finished and not game.finished:
            next_deal = dict(game.start_deal(rng=rng).deal.to_json())
        # A burn or a pick-up clears the pile: a moment to look before the next move.
        pause = len(state.burned) > burned or action.kind == PICKUP
        return Applied(deal_index, seq, action_to_json(state.actions[-1]), state.finished,
                       next_deal, pause=pause)

    def results(self, game: Game) -> list[SeatResult]:
        return game_results(game)

    def public_view(self, game: Game) -> GameView:
        return game_view(game)

    def seat_view(self, game: Game, seat: int) -> GameView | None:
        return game_view(game, seat) if game.current is not None else None

    def choose_action(self, game: Game, seat: int, level: str, rng: random.Random
                      ) -> Action:
        from .ai import choose_action

        view = self.seat_view(game, seat)
        assert view is not None and view.deal is not None
        return choose_action(view.deal, level, rng)

    def claim(self, game: Game, seat: int) -> list[Action]:
        raise GameError(NO_CLAIMS)

    def can_claim(self, game: Game, seat: int) -> bool:
        return False

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
        from .ai.reasons import reason

        action = self.choose_action(game, seat, "strong", rng)
        view = self.seat_view(game, seat)
        assert view is not None and view.deal is not None
        code, params = reason(view.deal, action)
        return Hint(action, text.hint_sentence(action) + " "
                    + text.hint_reason(code, params))

    # ------------------------------------------------------------------ text (./text.py)

    def title(self, rules: Rules) -> str:
        return text.title()

    def lobby_title(self, rules: Rules) -> str:
        return text.lobby_title(rules)

    def options_line(self, rules: Rules) -> str:
        return text.options_line(rules)

    def table_panel(self, game: Game, names: Sequence[str]) -> Panel:
        return text.table_panel(game_view(game), names)

    def table_scene(self, game: Game, names: Sequence[str]) -> Scene:
        return text.table_scene(game_view(game), names)

    def running_totals(self, game: Game) -> list[tuple[int, ...]]:
        # A deal is won or not: the running total is the deals won so far.
        return [tuple(wins) for wins in game.deal_wins]

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


AMERICAN = AmericanKind()
