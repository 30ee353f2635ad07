"""The GameKind base a game subclasses: the engine few it must write, defaults for the rest.

The platform knows a game only through the protocol in bot/tables/kind.py (it never
imports bot.games); this base is the game author's side of it, as OpenSpiel's `Game`
with python-chess's habit of hooks that default to "no special rule". A game writes:

- `name`, `FORMAT` (its record format), `ai_levels` (weakest first), `default_players`,
  `players_range`, `target_range` and `house_rule_keys` (what `new` offers);
- `make_rules` (presets and options as data; a refusal raises GameError), `rules_class`;
- `new_game`, `apply`, `to_act`, `public_view`, `seat_view`, `results`;
- `legal_actions` and `action_to_json` (the default hand panel's buttons are these);
- `load_record` and `dump` (its record, in its own format);
- `choose_action` (its AI players, "random" among them for the tests and the terminal);

The engine few are abstract: a kind that misses one cannot be made.
- `words`: ONE object for everything a player reads (bot/tables/kind.py's GameWords):
  `TextWords`, naming the game's text modules and its views (the hooks every game words
  alike are forwarded by name), or a `WordsBase` subclass that words each hook: both in
  bot/games/words_base.py.

and inherits the rest: no claims, a hint through its strongest AI, running totals from
the results, the version counted from the record, a deep copy, not rated, no house
rules, the record's replay for the CLI, a terminal game driven by its own words, the
Activity page's moves from `legal_actions` (`legal_choices`, `legal_action`: a game whose
moves of several cards are thousands answers them directly), and leak rules for the
tests (`secret_cards`: the cards a seat may not know, from its views).
"""

from __future__ import annotations

import copy as _copy
import random
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from bot.errors import GAME_OVER, NOT_YOUR_TURN, GameError, RecordError
from bot.games.words_base import WordsBase
from bot.tables.kind import (
    Applied,
    CardChoice,
    GameKind,
    Hint,
    Panel,
    SeatResult,
    choices_of,
    record_key,
)
from bot.tables.ratings import RatedMatch

__all__ = ["NO_CLAIMS", "GameKindBase", "InputFn", "OutputFn", "RefusalFn"]

NO_CLAIMS = "no_claims"  # the game has no claim of the rest (the default `claim` refusal)

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]
RefusalFn = Callable[[GameError], str]  # a refusal's sentence (the platform's error_text)


class GameKindBase(GameKind):
    """A game, as its author writes it: subclass, write the engine few, inherit the rest.
    It implements bot/tables/kind.py's GameKind explicitly, so that mypy checks every
    member a game defines or inherits against the protocol."""

    name: ClassVar[str]
    FORMAT: ClassVar[str]  # the record format ("amerikaner-record/1")
    ai_levels: tuple[str, ...]  # weakest first; the first covers a seat left to the AI
    # The levels' measured ratings (bench/ratings.py --pure); none: rated as a new member.
    ai_mu: ClassVar[Mapping[str, float]] = {}
    # Rated deals a member needs to be settled on the rating board (None: the
    # platform's, bot/tables/ratings.MIN_RATED_HANDS).
    min_rated: ClassVar[int | None] = None
    default_players: int
    # What `new` offers (cogs/tables/api.py builds the command from them).
    players_range: ClassVar[tuple[int, int]] = (2, 6)
    target_range: ClassVar[tuple[int, int]] = (1, 100)
    house_rule_keys: ClassVar[tuple[str, ...]] = ()  # in the order `new` offers them
    rules_class: ClassVar[Any]  # with from_json(data) and .to_json()
    words: WordsBase
    # The presets `make_rules` takes (None: the game's default), for the tests to try.
    presets: ClassVar[tuple[str | None, ...]] = (None,)
    # The key under which a record in the game's format keeps its deals.
    DEALS: ClassVar[str] = "deals"

    @property
    def record_format(self) -> str:
        """The format the store stamps on this game's records (GameKind.record_format):
        the game's own, so the store knows no game."""
        return self.FORMAT

    # ------------------------------------------------------------ the engine few

    @abstractmethod
    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Any:
        raise NotImplementedError

    @abstractmethod
    def new_game(self, rules: Any, first_dealer: int, rng: random.Random
                 ) -> tuple[Any, dict[str, Any]]:
        raise NotImplementedError

    @abstractmethod
    def apply(self, game: Any, action: Any, rng: random.Random) -> Applied:
        raise NotImplementedError

    @abstractmethod
    def to_act(self, game: Any) -> int | None:
        raise NotImplementedError

    @abstractmethod
    def public_view(self, game: Any) -> Any:
        raise NotImplementedError

    @abstractmethod
    def seat_view(self, game: Any, seat: int) -> Any:
        raise NotImplementedError

    @abstractmethod
    def results(self, game: Any) -> list[SeatResult]:
        raise NotImplementedError

    @abstractmethod
    def load_record(self, record: Mapping[str, Any]) -> Any:
        """The game of a record in the game's own format (refused with RecordError)."""
        raise NotImplementedError

    @abstractmethod
    def dump(self, game: Any) -> dict[str, Any]:
        """The game's record, in its own format (what `load_record` reads)."""
        raise NotImplementedError

    @abstractmethod
    def choose_action(self, game: Any, seat: int, level: str, rng: random.Random) -> Any:
        raise NotImplementedError

    @abstractmethod
    def legal_actions(self, game: Any, seat: int) -> list[Any]:
        """Every legal action of `seat` now (GameKind.legal_actions)."""
        raise NotImplementedError

    @abstractmethod
    def action_to_json(self, action: Any) -> Mapping[str, Any]:
        """An action as the record stores it (what `words.describe_action` reads)."""
        raise NotImplementedError

    # ------------------------------------------------------------ defaults

    def legal_choices(self, game: Any, seat: int) -> tuple[list[Any], list[CardChoice]]:
        """GameKind.legal_choices: every legal action enumerated and grouped (a game whose
        moves of several cards are many overrides this)."""
        return choices_of((action, self.action_to_json(action))
                          for action in self.legal_actions(game, seat))

    def legal_action(self, game: Any, seat: int, record: Mapping[str, Any]) -> Any | None:
        """GameKind.legal_action: the first legal action whose record form is `record`."""
        key = record_key(record)
        return next((action for action in self.legal_actions(game, seat)
                     if record_key(self.action_to_json(action)) == key), None)

    @property
    def fallback_level(self) -> str:
        """The AI level that takes a seat its human left (the game's weakest)."""
        return self.ai_levels[0]

    def rules_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.rules_class.from_json(data)

    def rules_to_json(self, rules: Any) -> dict[str, Any]:
        return dict(rules.to_json())

    def players(self, rules: Any) -> int:
        return int(rules.players)

    def house_rules(self, rules: Any) -> list[tuple[str, str, bool]]:
        return []  # no house rules to switch

    def with_house_rules(self, rules: Any, chosen: Sequence[str]) -> Any:
        if chosen:
            from bot.errors import INVALID_RULES

            raise GameError(INVALID_RULES, reason="unknown_option", option=chosen[0])
        return rules

    def load(self, record: Mapping[str, Any]) -> Any:
        return self.load_record(self.record(record))

    def record(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The store keeps every game's deals under "hands"; the game's format may not."""
        if "hands" not in stored or self.DEALS == "hands":
            return dict(stored)
        return {"format": self.FORMAT, "rules": stored["rules"],
                "first_dealer": stored["first_dealer"], self.DEALS: list(stored["hands"])}

    def version(self, game: Any) -> int:
        """Counted from the record (a game overrides it with a cheaper count)."""
        return sum(len(deal.get("actions", ())) for deal in self.dump(game)[self.DEALS])

    def finished(self, game: Any) -> bool:
        return self.to_act(game) is None

    def copy(self, game: Any) -> Any:
        return _copy.deepcopy(game)

    def claim(self, game: Any, seat: int) -> list[Any]:
        raise GameError(NO_CLAIMS)

    def can_claim(self, game: Any, seat: int) -> bool:
        return False

    def hand_cards(self, game: Any, seat: int) -> tuple[int, ...]:
        return ()  # a game without a hand to lay out

    def rating_matches(self, game: Any) -> list[RatedMatch]:
        return []  # not rated

    def rating_pool(self, rules: Any) -> str:
        return self.name

    def turns_each(self, rules: Any) -> int | None:
        return None  # not measured: the lobby gives no estimate

    def hint(self, game: Any, seat: int, rng: random.Random) -> Hint:
        """What the game's strongest AI would do, in the game's words."""
        to_act = self.to_act(game)
        if to_act is None:
            raise GameError(GAME_OVER, reason="already")
        if seat != to_act:
            raise GameError(NOT_YOUR_TURN, to_act=to_act, seat=seat)
        action = self.choose_action(game, seat, self.ai_levels[-1], rng)
        return Hint(action, self.words.hint_text(game, seat, action))

    def running_totals(self, game: Any) -> list[tuple[int, ...]]:
        """One row, the final points, once the game is over (a game with deals gives
        one row per finished deal)."""
        if not self.finished(game):
            return []
        return [tuple(r.points for r in sorted(self.results(game)))]

    def fixed_action(self, game: Any, seat: int, level: str, rng: random.Random) -> Any:
        """An AI that decides without a clock is already fixed: a game whose AI samples
        for a time budget overrides this with a fixed number of samples."""
        return self.choose_action(game, seat, level, rng)

    def deal_score(self, game: Any, index: int, seat: int) -> tuple[int, ...]:
        """The points `seat` made in deal `index` (its running total's step): a game
        that ranks a deal otherwise (a finishing place) overrides it."""
        totals = self.running_totals(game)
        if not 0 <= index < len(totals):
            raise GameError("deal_not_finished", index=index)
        before = totals[index - 1][seat] if index > 0 else 0
        return (totals[index][seat] - before,)

    # ------------------------------------------------------------ outside the bot

    def is_record(self, data: object) -> bool:
        return isinstance(data, Mapping) and data.get("format") == self.FORMAT

    def replay(self, data: object, word: RefusalFn | None = None) -> dict[str, object]:
        """The CLI's `replay` output: the record replayed, or docs/record-format.md's error
        worded by `word` (the CLI's: the platform's error_text), else by the game's words."""
        try:
            if not isinstance(data, Mapping):
                from bot.errors import INVALID_RECORD

                raise RecordError(INVALID_RECORD, reason="not_object")
            game = self.load_record(data)
        except GameError as error:
            located = error if isinstance(error, RecordError) else \
                RecordError.located(error, None)
            # docs/record-format.md's error names the part by the game's word for a deal.
            return located.to_json((word or self.words.error_text)(located),
                                   self.DEALS.rstrip("s"))
        results = self.results(game) if self.finished(game) else []
        return {"format": self.FORMAT, "finished": self.finished(game),
                "results": [r._asdict() for r in results]}

    def terminal(self, players: int | None, options: Mapping[str, object],
                 seed: int | None, level: str, target: int | None = None,
                 preset: str | None = None, ask: InputFn = input,
                 say: OutputFn = print, human: bool = True) -> int:
        """A game in the terminal: seat 0 is the human (with `human`), the rest the AI
        `level`. The
        default shows the seat's panel and numbers the seat's legal actions (as the
        `random` AI sees them, `legal_actions`)."""
        rng = random.Random(seed)
        opts = dict(options) | ({"target": target} if target is not None else {})
        rules = self.make_rules(preset, players or self.default_players, opts)
        game, _ = self.new_game(rules, 0, rng)
        names = ["you", *(f"AI {n}" for n in range(1, self.players(rules)))]
        while (seat := self.to_act(game)) is not None:
            if seat == 0 and human:
                action = self._ask(game, names, ask, say)
            else:
                action = self.choose_action(game, seat, level, rng)
            applied = self.apply(game, action, rng)
            say(f"{names[seat]}: {self.words.describe_action(applied.action)}")
        say(_panel_text(self.words.final_standings(game, names)))
        return 0

    def _ask(self, game: Any, names: Sequence[str], ask: InputFn, say: OutputFn) -> Any:
        say(_panel_text(self.words.seat_panel(game, 0, names)))
        legal = self.legal_actions(game, 0)
        for number, action in enumerate(legal, 1):
            say(f"{number}. {self.words.action_label(self.action_to_json(action))}")
        while True:
            answer = ask("> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]

    def secret_cards(self, game: Any, seat: int | None) -> set[int]:
        """The cards `seat` (None: anyone, a public message) may not know now: what a
        test's leak checker looks for in what that seat is shown."""
        raise NotImplementedError


def _panel_text(panel: Panel) -> str:
    parts = [panel.title, panel.description, *(f"{n}: {v}" for n, v, *_ in panel.fields)]
    return "\n".join(part for part in parts if part)
