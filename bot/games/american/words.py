"""American's words, one object (`AMERICAN.words`): ./text.py read through the game's
views by bot/games/base.py's TextWords; here only what is American's own: a seat reads
the game's view from its seat, the standings name every place, and a hint's reason reads
the deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games.base import GameText, TextWords, WordViews
from bot.i18n import ngettext
from bot.tables.kind import Panel

from . import text
from .actions import Action
from .game import Game
from .record import action_from_json
from .results import final_places
from .views import deal_review, game_view, game_view_after


class AmericanWords(TextWords):
    text_module: ClassVar[GameText] = text
    views = WordViews(public=game_view, after_deal=game_view_after, deal_review=deal_review,
                      action_from_json=action_from_json)

    def seat_panel(self, game: Game, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        return text.seat_panel(game_view(game, seat), names, compact)

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        return text.final_standings(game_view(game), names, final_places(game))

    def hint_reason(self, game: Game, seat: int, action: Action
                    ) -> tuple[str, Mapping[str, Any]]:
        from .ai.reasons import reason

        view = game_view(game, seat)
        assert view.deal is not None
        return reason(view.deal, action)

    def deal_score_text(self, score: Sequence[int]) -> str:
        """AmericanKind.deal_score's (minus the place, minus the cards left)."""
        place, left = -score[0], -score[1]
        return ngettext("place {place}, {cards} card left", "place {place}, {cards} cards left",
                        left).format(place=place, cards=left)
