"""The table service, the store's front and the table cog stay thin (issue 51): a caller
holds the room or the part it uses (`service.play.act(...)`, `cog.panels.confirm(...)`),
a name is imported from the module that defines it, and no class answers for another by
forwarding. Read from the source (ast), so that a forward cannot come back unseen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# The classes that wire rooms or parts, each with the file that defines it.
FACADES = [
    ("bot/tables/service.py", "TableService"),
    ("bot/store/front.py", "StoreFront"),
    ("bot/store/front_boards.py", "BoardsFront"),
]
# The table cog routes Discord's events to its rooms (discord.py finds listeners on the
# cog's class, so those are one-line methods), but keeps no alias of a room's method for
# a game's cog: GameCog (cogs/tables/api.py) holds the rooms it calls.
COG = ("cogs/tables/cog.py", "Tables")
# Their modules, and the table package, re-export nothing.
NO_REEXPORTS = ["bot/tables/__init__.py", "bot/tables/service.py", "bot/store/front.py",
                "bot/store/front_boards.py", "cogs/tables/cog.py"]


def _of_self(node: ast.expr) -> bool:
    """`self.<room>.<name>`: an attribute of an attribute of self."""
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "self")


def _forward(body: list[ast.stmt]) -> bool:
    """Whether a method's body (its docstring aside) is one forward to an attribute:
    `return await self.room.method(...)`, `self.room.method(...)`, `return self.room.x`,
    or `self.room.x = value`."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) != 1:
        return False
    stmt = body[0]
    if isinstance(stmt, ast.Assign):
        return len(stmt.targets) == 1 and _of_self(stmt.targets[0])
    if not isinstance(stmt, ast.Return | ast.Expr) or stmt.value is None:
        return False
    value = stmt.value
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        value = value.func
    return _of_self(value)


def forwards(source: str, name: str) -> list[str]:
    """The forwarding methods of class `name`, and the attributes its `__init__` sets to
    another's (`self.act = self.lobby.act`): the switchboard this file keeps out."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.ClassDef) and node.name == name):
            continue
        for item in node.body:
            if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if _forward(item.body):
                found.append(f"{name}.{item.name} forwards")
            if item.name == "__init__":
                found += [f"{name}.__init__ aliases {ast.unparse(stmt)}"
                          for stmt in ast.walk(item) if isinstance(stmt, ast.Assign)
                          and _of_self(stmt.value) and all(
                              isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                              and t.value.id == "self" for t in stmt.targets)]
    return found


def reexports(source: str) -> list[str]:
    """A module's list of names to re-export (`__all__`) or its lazy `__getattr__`."""
    found = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            found.append(f"{node.lineno}: __all__")
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            found.append(f"{node.lineno}: __getattr__")
    return found


def test_the_checks_find_a_planted_switchboard() -> None:
    planted = ("__all__ = ['Table']\n"
               "class TableService:\n"
               "    def __init__(self, lobby):\n"
               "        self.lobby = lobby\n"
               "        self.join = self.lobby.join\n"
               "    async def act(self, table_id, user_id):\n"
               "        '''Play.'''\n"
               "        return await self._play.act(table_id, user_id)\n"
               "    @property\n"
               "    def rng(self):\n"
               "        return self._play.rng\n"
               "    @rng.setter\n"
               "    def rng(self, rng):\n"
               "        self._play.rng = rng\n"
               "    async def restore(self):\n"
               "        restored = await self.restorer.restore()\n"
               "        self.restored.set()\n"
               "        return restored\n")
    assert forwards(planted, "TableService") == [
        "TableService.__init__ aliases self.join = self.lobby.join",
        "TableService.act forwards", "TableService.rng forwards", "TableService.rng forwards"]
    assert reexports(planted) == ["1: __all__"]


@pytest.mark.parametrize(("path", "name"), FACADES)
def test_no_forwarding_method(path: str, name: str) -> None:
    source = (REPO / path).read_text()
    assert f"class {name}" in source
    assert forwards(source, name) == [], (
        "a caller holds the room or part it uses: call it there, not through a forward")


def test_the_table_cog_keeps_no_alias() -> None:
    path, name = COG
    source = (REPO / path).read_text()
    assert f"class {name}" in source
    assert [f for f in forwards(source, name) if " aliases " in f] == []


@pytest.mark.parametrize("path", NO_REEXPORTS)
def test_no_reexport(path: str) -> None:
    assert reexports((REPO / path).read_text()) == [], (
        "a name is imported from the module that defines it")


@pytest.mark.parametrize("path", ["bot/tables/service.py", "bot/tables/shared.py",
                                  "bot/store/front.py", "bot/store/front_boards.py",
                                  "bot/games/base.py", "bot/games/words_base.py"])
def test_a_facade_and_a_base_stay_small(path: str) -> None:
    """A newcomer reads them whole (issue 51: no module over about 500 lines)."""
    assert len((REPO / path).read_text().splitlines()) <= 500
