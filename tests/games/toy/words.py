"""High card's words, one object (`TOY.words`): every sentence a player reads, from the
game's views, through the translation function; the Norwegian is in ./locales."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.errors import GameError
from bot.games.words_base import WordsBase
from bot.tables.panel import Panel, quote
from bot.tables.scene import Scene, SeatScene

from . import _, ngettext
from .game import Action, Game, Rules, View, view


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(card_label(c) for c in cards) if cards else _("nothing")


def _table_lines(v: View, names: Sequence[str]) -> list[str]:
    lines = [ngettext("**{name}**: {points} point, {count} card in hand",
                      "**{name}**: {points} points, {count} cards in hand",
                      v.hand_sizes[seat]).format(name=name, points=v.points[seat],
                                                 count=v.hand_sizes[seat])
             for seat, name in enumerate(names)]
    lines.append(_("On the table: {cards}").format(cards=_cards([c for _s, c in v.trick])))
    if v.last:
        lines.append(_("Last trick: {cards}").format(cards=_cards([c for _s, c in v.last])))
    if v.to_act is not None:
        lines.append(_("{name} to play").format(name=names[v.to_act]))
    return lines


class ToyWords(WordsBase):
    def title(self, rules: Rules) -> str:
        return _("High card")

    def lobby_title(self, rules: Rules) -> str:
        return _("High card, to {target} points").format(target=rules.target)

    def options_line(self, rules: Rules) -> str:
        return _("{players} players, to {target} points").format(players=rules.players,
                                                                 target=rules.target)

    def table_panel(self, game: Game, names: Sequence[str]) -> Panel:
        v = view(game)
        title = _("High card · deal {number}").format(number=v.deal_number)
        return Panel(title, "\n".join(_table_lines(v, names)))

    def table_scene(self, game: Game, names: Sequence[str]) -> Scene:
        v = view(game)
        seats = tuple(SeatScene(name, (_("{points} points").format(points=v.points[s]),),
                                backs=v.hand_sizes[s], to_act=v.to_act == s)
                      for s, name in enumerate(names))
        return Scene(self.title(game.rules), seats, centre=v.trick)

    def seat_panel(self, game: Game, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        v = view(game, seat)
        lines = [_("Your cards: {cards}").format(cards=_cards(v.hand or ()))]
        if v.legal:
            lines.append(_("Your turn: play a card."))
        lines += _table_lines(v, names)
        return Panel(_("High card — your cards"), "\n".join(lines))

    def deal_summary(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        deal = game.deals[index]
        lines = [ngettext("**{name}** took {count} trick", "**{name}** took {count} tricks",
                          deal.taken[s]).format(name=name, count=deal.taken[s])
                 for s, name in enumerate(names)]
        return Panel(_("Deal {number} is over").format(number=index + 1), "\n".join(lines))

    def deal_review(self, game: Game, index: int, names: Sequence[str]) -> Panel:
        if not 0 <= index < len(game.deals) or not game.deals[index].finished:
            raise GameError("deal_not_finished")
        deal = game.deals[index]
        lines = [_("**{name}** was dealt {cards}").format(name=name, cards=_cards(hand))
                 for name, hand in zip(names, deal.dealt, strict=True)]
        return Panel(_("Deal {number} face up").format(number=index + 1), "\n".join(lines))

    def final_standings(self, game: Game, names: Sequence[str]) -> Panel:
        points = game.points
        order = sorted(range(len(names)), key=lambda s: -points[s])
        lines = [_("{place}. **{name}**: {points} points").format(
            place=1 + sum(p > points[s] for p in points), name=names[s], points=points[s])
            for s in order]
        return Panel(_("Game over"), "\n".join(lines))

    def describe_action(self, action: Mapping[str, Any]) -> str:
        from .game import action_from_json

        return _("played {card}").format(card=card_label(action_from_json(action).card))

    def action_label(self, action: Mapping[str, Any]) -> str:
        """A button's words: the imperative ("Play 7♠"), where the record says "played"."""
        from .game import action_from_json

        return _("Play {card}").format(card=card_label(action_from_json(action).card))

    def hint_text(self, game: Game, seat: int, action: Action) -> str:
        return _("Play {card}: the highest card if it can take the trick, else the "
                 "lowest.").format(card=card_label(action.card))

    def rules_text(self, rules: Rules) -> str:
        return _("Each seat is dealt three cards; the highest rank takes the trick, a "
                 "point each. {players} players, to {target} points.").format(
            players=rules.players, target=rules.target)

    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        text = _("New tables: {players} players.").format(
            players=settings.get("players") or 2)
        return text + " " + _("Saved.") if saved else text

    def help_text(self) -> str:
        return _("Play a card when it is your turn: the highest rank takes the trick. The "
                 "first to the target wins.")

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        return [_("Tricks taken: {count}").format(count=stats.get("tricks", 0))]

    def error_text(self, error: GameError) -> str:
        p: Mapping[str, Any] = error.params  # plain values, as the game raised them
        reason = p.get("reason")
        # The codes every game shares it words no closer than the platform does (not
        # your turn, a card not held, the game over): the code given back, the platform's
        # words are shown (bot.render's error_text).
        if error.code == "deal_not_finished":
            return _("That deal is not over yet.")
        if error.code == "no_claims":
            return _("High card has no claim: every card is played.")
        if error.code == "invalid_rules" and reason == "players":
            return _("High card is for 2 to 4 players.")
        if error.code == "invalid_rules" and reason == "target":
            return _("The target is 1 to 9 points.")
        if error.code == "invalid_rules":
            return _("High card has no house rule {option}.").format(
                option=quote(str(p.get("option"))))
        if error.code == "invalid_record":
            return _("This is not a High card record that replays.")
        return error.code
