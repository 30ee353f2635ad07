"""Amerikaner's words, one object (`AMERIKANER.words`): its text modules (./text_*.py, one
by audience) read through the game's views by bot/games/words_base.py's TextWords; here only
what is Amerikaner's own: a seat reads its hand's view and the game's totals, and a
hint's reason weighs who would take the trick."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games.amerikaner import _
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
from .hand import BID, DISCARD, EXCHANGE, LEAD, PLAY
from .record import action_from_json
from .views import deal_review, game_view, game_view_after, hand_view


class AmerikanerWords(TextWords):
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
        assert game.current is not None
        return text_hand.seat_panel(hand_view(game.current, seat), names, game.totals, compact)

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        return text_results.final_standings(game_view(game), names)

    def ai_level_line(self, level: str) -> str | None:
        """What Amerikaner's AI players do (bot/games/amerikaner/ai): the lobby's AI menu."""
        if level == "easy":
            return _("Bids on its high cards and plays by rules of thumb: good for learning.")
        if level == "strong":
            return _("Reads the bidding and the play, and tries each card in many deals.")
        return None

    def recap_facts(self, game: Game, deal: int, start: int, names: Sequence[str]
                    ) -> list[str]:
        """Who took the tricks completed from the hand's action `start` on (a trick is
        completed by every n-th card played; its winner is in the hand's history, as
        everyone saw it), and the hand's result once it is over."""
        hand = game.hands[deal]
        taken: dict[int, int] = {}
        plays = 0
        for index, action in enumerate(hand.actions):
            if action.kind != "play":
                continue
            plays += 1
            if plays % hand.n == 0 and index >= start:
                winner = hand.history[plays // hand.n - 1][2]
                taken[winner] = taken.get(winner, 0) + 1
        return text_results.recap_facts(list(taken.items()),
                                hand_view(hand) if hand.finished else None, names)

    def moment_text(self, game: Game, seat: int) -> str | None:
        """The trick the seat plays to (the first is 1), else the part of the deal."""
        hand = game.current
        if hand is None:
            return None
        if hand.phase in (LEAD, PLAY):
            return _("trick {number}").format(number=len(hand.history) + 1)
        if hand.phase == BID:
            return _("the bidding")
        if hand.phase == EXCHANGE:
            return _("the exchange")
        if hand.phase == DISCARD:
            return _("the discard")
        return None

    def hint_reason(self, game: Game, seat: int, action: Action
                    ) -> tuple[str, Mapping[str, Any]]:
        from .ai.reasons import reason, winning_after

        assert game.current is not None
        return reason(hand_view(game.current, seat), action,
                      winning_after(game.current, action))
