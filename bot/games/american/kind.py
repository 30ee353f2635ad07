"""American as a GameKind (bot/tables/kind.py): the engine few of bot/games/base.py; its
words are ./words.py, the rest is the base's defaults."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.errors import GameError
from bot.games.base import GameKindBase, InputFn, OutputFn, RefusalFn
from bot.tables.kind import Applied, SeatResult
from bot.tables.ratings import RatedMatch

from . import rating
from .actions import PICKUP, Action
from .game import Game
from .record import FORMAT, action_to_json, game_to_record, load_game, replay
from .results import game_results
from .rules import BOOLEAN_OPTIONS, DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, Rules
from .views import GameView, game_view
from .words import AmericanWords

# Turns each player takes in a deal, by players (bench/game_turns.py: the easy AI, 12
# games each; 2 players: 31 to 50).
TURNS_EACH_DEAL = {2: 39, 3: 32, 4: 25, 5: 22}


@functools.lru_cache(maxsize=64)
def expected_deals(players: int, target: int) -> float:
    """How many deals a match to `target` deal wins lasts, on average, when every player
    wins a deal as often as any other (a fixed-seed simulation of 400 matches)."""
    if target <= 1:
        return 1.0
    rng = random.Random(0)
    total = 0
    for _ in range(400):
        wins = [0] * players
        while max(wins) < target:
            wins[rng.randrange(players)] += 1
            total += 1
    return total / 400


class AmericanKind(GameKindBase):
    """American, the shedding game of the Idiot family (docs/rules-american.md)."""

    name = "american"
    FORMAT = FORMAT

    def turns_each(self, rules: Any) -> int | None:
        per_deal = TURNS_EACH_DEAL.get(rules.players, 30)
        return max(1, round(per_deal * expected_deals(rules.players, rules.target)))

    ai_levels: tuple[str, ...] = ("easy", "strong")
    ai_mu = rating.AI_MU
    min_rated = rating.MIN_RATED_DEALS
    default_players: int = DEFAULT_PLAYERS
    players_range = (MIN_PLAYERS, MAX_PLAYERS)
    house_rule_keys = BOOLEAN_OPTIONS
    rules_class = Rules
    words = AmericanWords()

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Rules:
        # American has no presets: one game, its house rules as options.
        return Rules.create(players, dict(options))

    def house_rules(self, rules: Rules) -> list[tuple[str, str, bool]]:
        return [(name, self.words.option_help(name), name in rules.options)
                for name in BOOLEAN_OPTIONS]

    def with_house_rules(self, rules: Rules, chosen: Sequence[str]) -> Rules:
        options: dict[str, object] = {name: True for name in chosen}
        options["target"] = rules.target
        return Rules.create(rules.players, options)

    def new_game(self, rules: Rules, first_dealer: int, rng: random.Random
                 ) -> tuple[Game, dict[str, Any]]:
        game = Game(rules, first_dealer)
        state = game.start_deal(rng=rng)
        return game, dict(state.deal.to_json())

    def load_record(self, record: Mapping[str, Any]) -> Game:
        return load_game(record)

    def dump(self, game: Game) -> dict[str, Any]:
        return dict(game_to_record(game))

    def version(self, game: Game) -> int:  # cheaper than the record's count
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

    def hand_cards(self, game: Game, seat: int) -> tuple[int, ...]:
        view = self.seat_view(game, seat)
        return view.deal.hand or () if view is not None and view.deal is not None else ()

    def choose_action(self, game: Game, seat: int, level: str, rng: random.Random
                      ) -> Action:
        from .ai import choose_action

        view = self.seat_view(game, seat)
        assert view is not None and view.deal is not None
        return choose_action(view.deal, level, rng)

    def fixed_action(self, game: Game, seat: int, level: str, rng: random.Random
                     ) -> Action:
        """The strong AI samples a fixed number of worlds (DAILY_WORLDS), no time
        budget; the other levels use no clock."""
        if level != "strong":
            return self.choose_action(game, seat, level, rng)
        from .ai.strong import DAILY_WORLDS, strong_action

        view = self.seat_view(game, seat)
        assert view is not None and view.deal is not None
        return strong_action(view.deal, rng, budget=math.inf, max_worlds=DAILY_WORLDS)

    def rating_matches(self, game: Game) -> list[RatedMatch]:
        return rating.rating_matches(game)

    def rating_pool(self, rules: Rules) -> str:
        return rating.POOL

    def running_totals(self, game: Game) -> list[tuple[int, ...]]:
        # A deal is won or not: the running total is the deals won so far.
        return [tuple(wins) for wins in game.deal_wins]

    def deal_score(self, game: Game, index: int, seat: int) -> tuple[int, ...]:
        """A deal of American is ranked by the seat's finishing place, then by the cards
        it was left with (fewer is better): larger is better, so both negated."""
        from .views import DEAL_NOT_FINISHED

        if not 0 <= index < len(game.deals) or not game.deals[index].finished:
            raise GameError(DEAL_NOT_FINISHED, index=index)
        state = game.deals[index]
        place = state.places.index(seat) + 1 if seat in state.places else len(state.places)
        return (-place, -state.holdings(seat).bit_count())

    # ------------------------------------------------------------ outside the bot

    def replay(self, data: object, word: RefusalFn | None = None) -> dict[str, object]:
        # docs/rules-american.md section 10's output
        return replay(data, word or self.words.error_text)

    def terminal(self, players: int | None, options: Mapping[str, object],
                 seed: int | None, level: str, target: int | None = None,
                 preset: str | None = None, ask: InputFn = input,
                 say: OutputFn = print, human: bool = True) -> int:
        from .terminal import run_game

        return run_game(players or DEFAULT_PLAYERS, options, seed, level, target,
                        ask=ask, say=say, human=human)

    def legal_actions(self, game: Game, seat: int) -> list[Action]:
        from .views import legal_action_list

        view = self.seat_view(game, seat)
        legal = view.deal.legal if view is not None and view.deal is not None else None
        return legal_action_list(seat, legal) if legal is not None else []

    def action_to_json(self, action: Action) -> Mapping[str, Any]:
        return action_to_json(action)

    def secret_cards(self, game: Game, seat: int | None) -> set[int]:
        """Every card in play the view of `seat` (None: the public's) does not show."""
        from .views import PUBLIC, deal_view, known_cards

        state = game.current
        if state is None:
            return set()
        every = {c for s in range(state.n) for c in range(52) if state.hands[s] >> c & 1}
        every.update(c for s in range(state.n) for c in state.down[s])
        every.update(state.deck[state.deck_pos:])
        return every - known_cards(deal_view(state, PUBLIC if seat is None else seat))


AMERICAN = AmericanKind()

# What the registry finds (bot/games/__init__.py): the game, and its cog's module.
KIND = AMERICAN
COG = "cogs.american"
