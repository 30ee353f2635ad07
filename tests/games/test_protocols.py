"""Every registered game satisfies the platform's protocols (bot/tables/kind.py): its kind
is a GameKind and its words a GameWords, as mypy checks them and as they stand at run time
(every member there, beyond the protocol's own stub, taking the protocol's arguments).
The checks themselves are shown to find a planted mismatch."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.base import GameKindBase
from bot.games.words_base import WordsBase
from bot.tables.kind import GameKind, GameWords, Panel
from tests.games.toy.kind import ToyKind
from tests.games.toy.words import ToyWords

REPO = Path(__file__).resolve().parents[2]
_STARRED = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _members(protocol: type) -> list[str]:
    return sorted(name for name in vars(protocol) if not name.startswith("_"))


def _takes_the_protocols_arguments(actual: inspect.Signature, expected: inspect.Signature
                                   ) -> bool:
    """Whether every call the protocol's signature allows is a call `actual` takes: the
    same parameters in order, a default wherever the protocol has one, and any more
    parameters optional."""
    wanted, given = list(expected.parameters.values()), list(actual.parameters.values())
    if len(given) < len(wanted):
        return False
    for want, have in zip(wanted, given, strict=False):
        if (want.name, want.kind) != (have.name, have.kind):
            return False
        if want.default is not want.empty and have.default is have.empty:
            return False
    return all(extra.default is not extra.empty or extra.kind in _STARRED
               for extra in given[len(wanted):])


def protocol_mismatches(value: object, protocol: type) -> list[str]:
    """The members of `protocol` that `value` lacks (only the protocol's own stub stands
    for it) or defines with a signature the protocol's calls do not fit."""
    problems = []
    for name in _members(protocol):
        owner = next((cls for cls in type(value).__mro__ if name in vars(cls)), None)
        if owner is None or owner is protocol:
            problems.append(f"{name}: missing")
            continue
        expected = vars(protocol)[name]
        if not inspect.isfunction(expected):
            continue  # a value (a property in the protocol): being there is enough
        actual = vars(owner)[name]
        if not inspect.isfunction(actual):
            problems.append(f"{name}: not a method")
        elif not _takes_the_protocols_arguments(inspect.signature(actual),
                                                inspect.signature(expected)):
            problems.append(f"{name}: {inspect.signature(actual)} is not "
                            f"{inspect.signature(expected)}")
    return problems


def test_every_games_kind_and_words_have_every_member_of_the_protocols(
        kind: GameKindBase) -> None:
    assert protocol_mismatches(kind, GameKind) == []
    assert protocol_mismatches(kind.words, GameWords) == []


class _PlantedWords(ToyWords):
    def seat_panel(self, game: object, seat: int, names: object) -> Panel:  # type: ignore[override]
        raise AssertionError  # no `compact`


class _PlantedKind(ToyKind):
    words = _PlantedWords()

    def to_act(self, game: object, extra: int) -> int | None:  # type: ignore[override]
        raise AssertionError  # one argument more than the protocol passes


class _Bare(GameKindBase):
    """A kind that wrote nothing: what the base only declares is missing."""


# The methods every game must write (bot/games/base.py): `legal_actions` among them, the
# default hand panel's moves (cogs/tables/api.py).
ENGINE_FEW = ("make_rules", "new_game", "apply", "to_act", "public_view", "seat_view",
              "results", "load_record", "dump", "choose_action", "legal_actions",
              "action_to_json")
# The hooks of a game's words without a default (bot/games/base.py's WordsBase).
WORDS_TO_WRITE = ("title", "table_panel", "table_scene", "seat_panel", "deal_summary",
                  "deal_review", "final_standings", "describe_action", "hint_text",
                  "settings_text", "help_text", "error_text")


def test_the_run_time_check_finds_a_planted_mismatch() -> None:
    assert [p.split(":")[0] for p in protocol_mismatches(_PlantedKind(), GameKind)] == [
        "to_act"]
    assert [p.split(":")[0] for p in protocol_mismatches(_PlantedWords(), GameWords)] == [
        "seat_panel"]
    # The engine few are abstract: a kind that misses one cannot be made at all.
    with pytest.raises(TypeError, match="abstract") as refused:
        _Bare()
    assert all(name in str(refused.value) for name in ENGINE_FEW), refused.value
    # Its values the base only declares are found missing at run time.
    bare = type("_Bare", (_Bare,), {})
    bare.__abstractmethods__ = frozenset()  # made anyway, to look at the rest
    assert {"ai_levels: missing", "default_players: missing", "name: missing",
            "words: missing"} <= set(protocol_mismatches(bare(), GameKind))
    # The words every game must write are abstract too; the rest are all there.
    with pytest.raises(TypeError, match="abstract") as refused:
        WordsBase()  # type: ignore[abstract]
    assert all(name in str(refused.value) for name in WORDS_TO_WRITE), refused.value
    words = type("_Words", (WordsBase,), {})
    words.__abstractmethods__ = frozenset()
    assert protocol_mismatches(words(), GameWords) == []


# ----------------------------------------------------------------------------- mypy

def _type_check(kinds: list[type], tmp_path: Path, extra: str = "") -> str:
    """mypy's errors on a module that takes each kind class as a GameKind and its words
    as a GameWords (the game's own modules are checked as mypy follows the imports: a
    member overriding the protocol's incompatibly is an error there); "" when none."""
    lines = ["from bot.tables.kind import GameKind, GameWords"]
    for number, cls in enumerate(kinds):
        lines += [f"from {cls.__module__} import {cls.__qualname__} as Kind{number}",
                  f"def check_{number}(kind: Kind{number}) -> tuple[GameKind, GameWords]:",
                  "    return kind, kind.words"]
    snippet = tmp_path / "kinds_are_game_kinds.py"
    snippet.write_text("\n".join([*lines, extra, ""]))
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                             "--cache-dir", str(tmp_path / "mypy-cache"), str(snippet)],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    return "" if result.returncode == 0 else result.stdout + result.stderr


def test_every_registered_kind_type_checks_as_the_protocols(toy: GameKindBase,
                                                             tmp_path: Path) -> None:
    """Every registered game (the toy game too, registered here)."""
    assert "toy" in GAMES
    assert _type_check([type(kind) for kind in GAMES.values()], tmp_path) == ""


PLANTED = '''
from typing import Any
from tests.games.toy.kind import ToyKind

class PlantedKind(ToyKind):
    def to_act(self, game: Any, extra: int) -> int | None:
        return None

class StrayKind:  # a kind that does not subclass the base: checked structurally
    name = "stray"

def check_stray(kind: StrayKind) -> GameKind:
    return kind
'''


def test_the_type_check_finds_a_planted_mismatch(tmp_path: Path) -> None:
    errors = _type_check([ToyKind], tmp_path, PLANTED)
    assert 'Signature of "to_act" incompatible with supertype "bot.tables.kind.GameKind"' \
        in errors
    assert '(got "StrayKind", expected "GameKind")' in errors
