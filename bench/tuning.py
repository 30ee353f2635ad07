"""`--set NAME=VALUE,...` of the AI benches (bench/ai.py, bench/ai_american.py): a
game's strong player's tuning values, named in its module's TUNING, set as plain module
globals (read at each use, so this works on a compiled build too)."""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType


def parse_tuning(strong: ModuleType, text: str, option: str = "--set"
                 ) -> dict[str, float]:
    """`NAME=VALUE,...`, checked: only `strong.TUNING` names, numbers (`option`: the
    command-line option it came from, for the refusal)."""
    settings: dict[str, float] = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in strong.TUNING:
            raise SystemExit(f"{option}: {name!r} is not one of strong's tuning values "
                             f"({', '.join(strong.TUNING)})")
        try:
            settings[name] = float(value)
        except ValueError:
            raise SystemExit(f"{option}: {name} needs a number, not {value!r}") from None
    return settings


def apply_tuning(strong: ModuleType, settings: Iterable[tuple[str, float]]) -> None:
    """Set each value, as the type the module gives it."""
    for name, value in settings:
        setattr(strong, name, type(getattr(strong, name))(value))
