"""Amerikaner as a GameKind (bot/tables/kind.py): the engine few of bot/games/base.py,
and the claim its rules have; its words are ./words.py, the rest is the base's defaults."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from bot.cards import card_name, cards_of, mask_of, suit_of
from bot.errors import GameError
from bot.games.base import GameKindBase, InputFn, OutputFn, RefusalFn
from bot.tables.kind import Applied, CardChoice, SeatResult, record_key
from bot.tables.ratings import RatedMatch

from . import claim as claims
from . import rating
from .actions import Action
from .game import Game
from .hand import DISCARD, EXCHANGE, LEAD, PLAY
from .record import FORMAT, action_to_json, game_to_record, load_game, replay
from .results import game_results
from .rules import BOOLEAN_OPTIONS, PLAYERS_RANGE, PRESETS, Rules
from .views import GameView, HandView, LegalActions, game_view, hand_view, known_cards
from .words import AmerikanerWords

# Turns each player takes in a game to 52, by players (bench/game_turns.py: the easy AI,
# 12 games each; 4 players: 108 to 150): bids, the discard or exchange, and the cards.
TURNS_EACH_TO_52 = {3: 114, 4: 130, 5: 185, 6: 242}


GIVING = (DISCARD, EXCHANGE)  # the phases whose move is a choice of several cards


class AmerikanerKind(GameKindBase):
    """Amerikaner, Kani and the Norwegian-American rules."""

    name = "amerikaner"
    FORMAT = FORMAT

    def turns_each(self, rules: Any) -> int | None:
        """The measured turns of a game to 52, in proportion to the target (the deals
        a game lasts grow with it)."""
        return max(1, round(TURNS_EACH_TO_52.get(rules.players, 130) * rules.target / 52))

    DEALS = "hands"  # the store keeps Amerikaner's own format
    presets = PRESETS
    ai_levels: tuple[str, ...] = ("easy", "strong")
    ai_mu = rating.AI_MU
    default_players: int = 4
    players_range = PLAYERS_RANGE
    target_range = (1, 1000)
    house_rule_keys = BOOLEAN_OPTIONS
    rules_class = Rules
    words = AmerikanerWords()

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Rules:
        return Rules.create(preset or "amerikaner", players, dict(options))

    def house_rules(self, rules: Rules) -> list[tuple[str, str, bool]]:
        return [(name, self.words.option_help(name), name in rules.options)
                for name in BOOLEAN_OPTIONS if name in rules.style.options]

    def with_house_rules(self, rules: Rules, chosen: Sequence[str]) -> Rules:
        options: dict[str, object] = {name: True for name in chosen}
        options["target"] = rules.target
        return Rules.create(rules.preset, rules.players, options)

    def new_game(self, rules: Rules, first_dealer: int, rng: random.Random
                 ) -> tuple[Game, dict[str, Any]]:
        game = Game(rules, first_dealer)
        hand = game.start_hand(rng=rng)
        return game, dict(hand.deal.to_json(rules))

    def load_record(self, record: Mapping[str, Any]) -> Game:
        return load_game(record)

    def dump(self, game: Game) -> dict[str, Any]:
        return dict(game_to_record(game))

    def version(self, game: Game) -> int:  # cheaper than the record's count
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

    def hand_cards(self, game: Game, seat: int) -> tuple[int, ...]:
        view = self.seat_view(game, seat)
        return view.cards or () if view is not None else ()

    def choose_action(self, game: Game, seat: int, level: str, rng: random.Random
                      ) -> Action:
        from .ai import choose_action

        view = self.seat_view(game, seat)
        assert view is not None
        return choose_action(view, level, rng)

    def fixed_action(self, game: Game, seat: int, level: str, rng: random.Random
                     ) -> Action:
        """The strong AI samples a fixed number of worlds (DAILY_SAMPLES), no time
        budget; the other levels use no clock."""
        if level != "strong":
            return self.choose_action(game, seat, level, rng)
        from .ai.strong import DAILY_SAMPLES, strong_action

        view = self.seat_view(game, seat)
        assert view is not None
        return strong_action(view, rng, budget=math.inf, max_samples=DAILY_SAMPLES)

    def legal_actions(self, game: Game, seat: int) -> list[Action]:
        """Every legal action of `seat`: each discard and exchange a choice of cards, each
        opening lead with each call and trump it may name."""
        legal = self._legal(game, seat)
        if legal is None:
            return []
        if legal.phase == "bid":
            return [Action.pass_(seat), *([Action.redeal(seat)] if legal.can_redeal else []),
                    *(Action.make_bid(seat, bid) for bid in legal.bids)]
        if legal.phase in GIVING:
            low, high = legal.card_count
            return [Action(seat, legal.phase, cards=chosen) for count in range(low, high + 1)
                    for chosen in combinations(legal.cards, count)]
        return self._plays(seat, legal, legal.cards)

    def legal_choices(self, game: Game, seat: int) -> tuple[list[Action], list[CardChoice]]:
        """A discard or an exchange as its cards and counts, not as each of its
        combinations (legal_actions' thousands); the rest as the base enumerates it."""
        legal = self._legal(game, seat)
        if legal is None or legal.phase not in GIVING:
            return super().legal_choices(game, seat)
        low, high = legal.card_count
        singles = [Action(seat, legal.phase, cards=())] if low == 0 else []
        counts = tuple(range(max(low, 1), min(high, len(legal.cards)) + 1))
        names = tuple(sorted(card_name(card) for card in legal.cards))
        return singles, [CardChoice(legal.phase, (("cards", names),), counts)] if counts else []

    def legal_action(self, game: Game, seat: int, record: Mapping[str, Any]) -> Action | None:
        """The legal action a page names, found among the few it can be (the named cards
        of a discard or exchange, the named card's plays), not among every one."""
        legal = self._legal(game, seat)
        kind, wanted = record.get("action"), record.get("cards", record.get("card"))
        if legal is None:
            return None
        if kind in GIVING:
            if kind != legal.phase or not isinstance(wanted, list) \
                    or not all(isinstance(name, str) for name in wanted):
                return None
            named = set(wanted)
            chosen = tuple(card for card in legal.cards if card_name(card) in named)
            low, high = legal.card_count
            if len(chosen) != len(wanted) or not low <= len(chosen) <= high:
                return None
            candidates = [Action(seat, legal.phase, cards=chosen)]
        elif kind == PLAY and legal.phase in (LEAD, PLAY):
            candidates = self._plays(seat, legal, tuple(
                card for card in legal.cards if card_name(card) == wanted))
        else:  # a bid, a pass, a redeal: a dozen
            return super().legal_action(game, seat, record)
        key = record_key(record)
        return next((action for action in candidates
                     if record_key(action_to_json(action)) == key), None)

    def _legal(self, game: Game, seat: int) -> LegalActions | None:
        """What `seat` may do now (None when it is not to act)."""
        view = self.seat_view(game, seat)
        legal = view.legal if view is not None and view.seat == seat else None
        return None if legal is None or legal.phase == "done" else legal

    @staticmethod
    def _plays(seat: int, legal: LegalActions, cards: Sequence[int]) -> list[Action]:
        """The plays of `cards` (legal ones): an opening lead with each call and trump it
        may name."""
        if legal.phase == LEAD and legal.calls:
            return [Action.play(seat, card, call, trump) for card in cards
                    for call in (legal.calls_for(suit_of(card)) or (None,))
                    for trump in (None, *legal.trumps)]
        return [Action.play(seat, card) for card in cards]

    def action_to_json(self, action: Action) -> Mapping[str, Any]:
        return action_to_json(action)

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

    def running_totals(self, game: Game) -> list[tuple[int, ...]]:
        return [tuple(totals) for totals in game.hand_totals]

    # ------------------------------------------------------------ outside the bot

    def replay(self, data: object, word: RefusalFn | None = None) -> dict[str, object]:
        return replay(data, word or self.words.error_text)  # docs/record-format.md's output

    def terminal(self, players: int | None, options: Mapping[str, object],
                 seed: int | None, level: str, target: int | None = None,
                 preset: str | None = None, ask: InputFn = input,
                 say: OutputFn = print, human: bool = True) -> int:
        from .terminal import run_game

        return run_game(preset or "amerikaner", players or self.default_players, options,
                        seed, level, target, ask=ask, say=say, human=human)

    def secret_cards(self, game: Game, seat: int | None) -> set[int]:
        """Every card in play the view of `seat` (None: the public's) does not show."""
        hand = game.current
        if hand is None:
            return set()
        every = hand.discards | mask_of(hand.blind) | mask_of(hand.deal.kitty)
        for held in hand.hands:
            every |= held
        return set(cards_of(every)) - known_cards(hand_view(hand, seat))


AMERIKANER = AmerikanerKind()

# What the registry finds (bot/games/__init__.py): the game, and its cog's module.
KIND = AMERIKANER
COG = "cogs.amerikaner"
