"""No private name crosses a file of the cogs (issue 29, point 4): a game's cog reaches
the table platform only through cogs/tables/api.py, and no module of cogs/ imports or
reaches into another's `_`-names (RoboDanny's public context helpers, not a cog's
private ones). A module's own `_`-names, and `self`'s, are its own business."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COGS = sorted((REPO / "cogs").rglob("*.py"))
# The game cogs: every cog of cogs/ but the platform's own.
GAME_COGS = [p for p in (REPO / "cogs").glob("*.py") if p.stem not in ("__init__", "words")]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_crossings(source: str) -> list[str]:
    """The `_`-names `source` imports from another module, or reads as an attribute of
    anything but `self` and `cls`, each as "line: name"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            found += [f"{node.lineno}: {node.module}.{alias.name}" for alias in node.names
                      if _private(alias.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_the_check_finds_a_planted_crossing() -> None:
    planted = ("from cogs.tables import _embed, choices\n"
               "seat = self.host._my_seat(table, user)\n"
               "self._own(table)\n"
               "name = type(self).__name__\n")
    assert private_crossings(planted) == ["1: cogs.tables._embed", "2: ._my_seat"]


@pytest.mark.parametrize("path", COGS, ids=lambda p: str(p.relative_to(REPO / "cogs")))
def test_no_private_name_crosses_a_file(path: Path) -> None:
    assert private_crossings(path.read_text()) == []


@pytest.mark.parametrize("path", GAME_COGS, ids=lambda p: p.name)
def test_a_game_cog_uses_only_the_public_api(path: Path) -> None:
    """A game's cog imports from the table cog's package only its API module."""
    tree = ast.parse(path.read_text())
    used = {node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
            and node.module.startswith("cogs.tables")}
    used |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names if alias.name.startswith("cogs.tables")}
    assert used <= {"cogs.tables.api"}, used
