"""American's words, one object (`AMERICAN.words`): its text modules (./text_*.py, one by
audience) read through the game's views by bot/games/words_base.py's TextWords; here only what
is American's own: a seat reads the game's view from its seat, the standings name every
place, and a hint's reason reads the deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games.american import _, ngettext
from bot.games.words_base import (
    GuideText,
    RefusalsText,
    ResultsText,
    TableText,
    TextWords,
    WordViews,
)
from bot.tables.kind import Panel

from . import text_guide, text_hand, text_refusals, text_results, text_table
from .actions import Action
from .game import Game
from .record import action_from_json
from .results import final_places
from .state import DealState
from .text_results import BURNED, PICKED_UP, WENT_OUT
from .views import deal_review, game_view, game_view_after


class AmericanWords(TextWords):
    table_text: ClassVar[TableText] = text_table
    results_text: ClassVar[ResultsText] = text_results
    guide_text: ClassVar[GuideText] = text_guide
    refusals_text: ClassVar[RefusalsText] = text_refusals
    views = WordViews(public=game_view, after_deal=game_view_after, deal_review=deal_review,
                      action_from_json=action_from_json)

    def action_label(self, action: Mapping[str, Any]) -> str:
        return text_hand.action_label(action_from_json(action))

    def action_steps(self, actions: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
        return text_hand.action_steps([action_from_json(a) for a in actions])

    def seat_panel(self, game: Game, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        return text_hand.seat_panel(game_view(game, seat), names, compact)

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        return text_results.final_standings(game_view(game), names, final_places(game))

    def ai_level_line(self, level: str) -> str | None:
        """What American's AI players do (bot/games/american/ai): the lobby's AI menu."""
        if level == "easy":
            return _("Plays its lowest card, keeps 2s, 10s and aces for need: good for learning.")
        if level == "strong":
            return _("Reads what the others picked up, and tries each play in many deals.")
        return None

    def recap_facts(self, game: Game, deal: int, start: int, names: Sequence[str]
                    ) -> list[str]:
        """Who picked up the pile, burned it, went out, from the deal's action `start`
        on, and the deal's result once it is over. Draws, burns and take-ups are
        consequences, never actions (./actions.py): the deal is replayed from its
        record to see them, as everyone at the table saw them happen."""
        state = game.deals[deal]
        replay = DealState(state.rules, state.dealer, state.deal, validate=False)
        events: dict[tuple[str, int], int] = {}  # (what, seat) -> how often, in order
        for index, action in enumerate(state.actions):
            pile, burned, places = len(replay.pile), len(replay.burned), len(replay.places)
            replay.apply(action)
            if index < start:
                continue
            seat = action.seat
            if len(replay.burned) > burned:
                events[(BURNED, seat)] = events.get((BURNED, seat), 0) + 1
            elif pile and not replay.pile:  # the pile went into their hand
                events[(PICKED_UP, seat)] = events.get((PICKED_UP, seat), 0) + 1
            if seat in replay.places[places:]:
                events[(WENT_OUT, seat)] = 1
        return text_results.recap_facts(
            [(what, names[seat], count, seat == (replay.places or [-1])[0])
             for (what, seat), count in events.items()],
            state.outcome if state.finished else None,
            names[replay.places[0]] if state.finished and replay.places else None)

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
