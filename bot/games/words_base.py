"""The words' bases a game subclasses (bot/games/base.py's GameKindBase has the rest):
`WordsBase`, every hook of bot/tables/kind.py's GameWords, those every game must word
abstract; `TextWords`, the hooks every game words alike read from the game's text
modules, one by audience (`TableText`, `ResultsText`, `GuideText`, `RefusalsText`), and
its views (`WordViews`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from bot.errors import GameError
from bot.games.labels import default_action_label
from bot.tables.kind import GameWords, Panel, Scene

__all__ = ["GuideText", "RefusalsText", "ResultsText", "TableText", "TextWords", "WordViews",
           "WordsBase"]

class WordsBase(GameWords):
    """A game's words: every sentence of the game a player reads, from its values and
    views (the platform calls `kind.words.<hook>`, bot/tables/kind.py's GameWords, which
    this implements explicitly so that mypy checks every hook against it). The hooks
    without a default are the ones every game must word; `names` are the seats' names, in
    seat order. `option_help` and `hint_text` are the base's own (`house_rules`, `hint`).
    The hooks every game must word are abstract: words missing one cannot be made."""

    @abstractmethod
    def title(self, rules: Any) -> str:
        raise NotImplementedError

    def lobby_title(self, rules: Any) -> str:
        return self.title(rules)

    def options_line(self, rules: Any) -> str:
        return ""

    def moment_text(self, game: Any, seat: int) -> str | None:
        return None

    def option_label(self, key: str) -> str:
        return key

    def option_help(self, key: str) -> str:
        return ""

    @abstractmethod
    def table_panel(self, game: Any, names: Sequence[str]) -> Panel:
        raise NotImplementedError

    @abstractmethod
    def table_scene(self, game: Any, names: Sequence[str]) -> Scene:
        raise NotImplementedError

    @abstractmethod
    def seat_panel(self, game: Any, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        raise NotImplementedError

    @abstractmethod
    def deal_summary(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        raise NotImplementedError

    @abstractmethod
    def deal_review(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        raise NotImplementedError

    @abstractmethod
    def final_standings(self, game: Any, names: Sequence[str]) -> Panel:
        raise NotImplementedError

    def deal_score_text(self, score: Sequence[int]) -> str:
        """The default `deal_score` (GameKindBase's): the points the seat made."""
        from bot.i18n import ngettext

        points = score[0] if score else 0
        return ngettext("{points} point", "{points} points", abs(points)).format(
            points=points)

    @abstractmethod
    def describe_action(self, action: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def action_label(self, action: Mapping[str, Any]) -> str:
        """The common verbs' imperative ("Play 7♠"), else the narration (bot/games/labels.py)."""
        return default_action_label(action, self.describe_action)

    def action_steps(self, actions: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
        """One step each, its label (GameWords.action_steps)."""
        return [(self.action_label(action),) for action in actions]

    def recap_facts(self, game: Any, deal: int, start: int, names: Sequence[str]
                    ) -> list[str]:
        """None by default: the recap names the plays alone (GameWords.recap_facts)."""
        return []

    def ai_level_line(self, level: str) -> str | None:
        """None by default: the platform's general line (GameWords.ai_level_line)."""
        return None

    @abstractmethod
    def hint_text(self, game: Any, seat: int, action: Any) -> str:
        """The hint's sentence: the move and why (the default `hint` words it so)."""
        raise NotImplementedError

    def rules_text(self, rules: Any) -> str:
        return self.options_line(rules)

    @abstractmethod
    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        raise NotImplementedError

    @abstractmethod
    def help_text(self) -> str:
        raise NotImplementedError

    def help_pages(self) -> list[Panel]:
        return []

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        return []

    @abstractmethod
    def error_text(self, error: GameError) -> str:
        raise NotImplementedError


class TableText(Protocol):
    """What `TextWords` reads of a game's words at the table (its text_table.py; a module
    satisfies a protocol: mypy checks the game's module against this): functions of
    values and views. The game's other words, by audience, follow."""

    def title(self) -> str: ...

    def options_line(self, rules: Any) -> str: ...

    def option_name(self, name: str) -> str: ...

    def table_panel(self, view: Any, names: Sequence[str]) -> Panel: ...

    def table_scene(self, view: Any, names: Sequence[str]) -> Scene: ...

    def describe_action(self, action: Any) -> str: ...


class ResultsText(Protocol):
    """A deal's end and a deal face up (the game's text_results.py)."""

    def deal_summary(self, view: Any, names: Sequence[str]) -> Panel: ...

    def deal_review(self, review: Any, names: Sequence[str]) -> Panel: ...


class GuideText(Protocol):
    """The lobby's title and the guide: rules, house rules, help, hints, settings, stats
    (the game's text_guide.py)."""

    def lobby_title(self, rules: Any) -> str: ...

    def option_help(self, name: str) -> str: ...

    def hint_sentence(self, action: Any) -> str: ...

    def hint_reason(self, code: str, params: Mapping[str, Any]) -> str: ...

    def rules_text(self, rules: Any) -> str: ...

    def settings_text(self, settings: dict[str, Any], saved: bool = False) -> str: ...

    def help_text(self) -> str: ...

    def help_pages(self) -> list[Panel]: ...

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]: ...


class RefusalsText(Protocol):
    """The game's own refusals by code (the game's text_refusals.py): a code it does not
    word is given back, and the platform words it (bot/render/refusals.py)."""

    def error_sentence(self, error: GameError) -> str: ...


class WordViews(NamedTuple):
    """The game's roads from its state to what its text module reads (views only)."""

    public: Callable[[Any], Any]  # the game -> its public view
    after_deal: Callable[[Any, int], Any]  # the game, a finished deal -> the view then
    deal_review: Callable[[Any, int], Any]  # the game, a finished deal -> it face up
    action_from_json: Callable[[Mapping[str, Any]], Any]  # a stored action -> the game's


class TextWords(WordsBase):
    """A game's words from its text modules, one by audience (`TableText`, `ResultsText`,
    `GuideText`, `RefusalsText`), and its views (`WordViews`): the hooks every game words
    alike are forwarded here by name, so that a game's words.py keeps only what is its
    own (the view a seat reads, the reason of a hint, a hook its text words differently).
    A game names its modules and its views as class variables (each module annotated with
    its protocol: unannotated, mypy takes a module assigned in a class body for an
    instance variable)."""

    table_text: ClassVar[TableText]
    results_text: ClassVar[ResultsText]
    guide_text: ClassVar[GuideText]
    refusals_text: ClassVar[RefusalsText]
    views: ClassVar[WordViews]

    def title(self, rules: Any) -> str:
        return self.table_text.title()

    def lobby_title(self, rules: Any) -> str:
        return self.guide_text.lobby_title(rules)

    def options_line(self, rules: Any) -> str:
        return self.table_text.options_line(rules)

    def option_label(self, key: str) -> str:
        return self.table_text.option_name(key)

    def option_help(self, key: str) -> str:
        return self.guide_text.option_help(key)

    def table_panel(self, game: Any, names: Sequence[str]) -> Panel:
        return self.table_text.table_panel(self.views.public(game), names)

    def table_scene(self, game: Any, names: Sequence[str]) -> Scene:
        return self.table_text.table_scene(self.views.public(game), names)

    def deal_summary(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        return self.results_text.deal_summary(self.views.after_deal(game, index), names)

    def deal_review(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        return self.results_text.deal_review(self.views.deal_review(game, index), names)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        return self.table_text.describe_action(self.views.action_from_json(action))

    def hint_text(self, game: Any, seat: int, action: Any) -> str:
        code, params = self.hint_reason(game, seat, action)
        text = self.guide_text
        return text.hint_sentence(action) + " " + text.hint_reason(code, params)

    def hint_reason(self, game: Any, seat: int, action: Any) -> tuple[str, Mapping[str, Any]]:
        """Why the strong AI chose `action` for `seat`: a reason code of the guide's
        `hint_reason` (text_guide.py) and its parameters, from that seat's view only."""
        raise NotImplementedError

    def rules_text(self, rules: Any) -> str:
        return self.guide_text.rules_text(rules)

    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        return self.guide_text.settings_text(dict(settings), saved)

    def help_text(self) -> str:
        return self.guide_text.help_text()

    def help_pages(self) -> list[Panel]:
        return self.guide_text.help_pages()

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        return self.guide_text.stats_lines(stats)

    def error_text(self, error: GameError) -> str:
        return self.refusals_text.error_sentence(error)
