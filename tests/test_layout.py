"""The code's shape: the import rules of CONTRIBUTING.md (import-linter's
contracts in pyproject.toml) hold, and they would catch a change that broke them; ruff
is clean."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_import_rules_hold() -> None:
    result = _lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("bot/games/amerikaner/rules.py", "import discord", "A game imports only"),
    ("bot/games/amerikaner/hand.py", "import bot.store", "A game imports only"),
    ("bot/tables/service.py", "import bot.games.amerikaner.rules",
     "The table platform and the store know no game"),
    ("bot/store/models.py", "import bot.tables.kind", "The store knows no table"),
    ("bot/cards.py", "import bot.games", "The pack and the errors import nothing"),
    ("cogs/tables/cog.py", "import bot.games.amerikaner.rules", "The shared cog knows no game"),
    ("cogs/amerikaner.py", "import bot.app", "The cogs never import the app"),
    ("bot/i18n/__init__.py", "import bot.errors", "The translation function imports nothing"),
    # A new game's folder and cog are held by the contracts as they are: no contract
    # names a game (the games and the game cogs by wildcard).
    ("bot/games/eights/kind.py", "import bot.games.amerikaner.rules",
     "Games never import each other"),
    ("bot/games/base.py", "import bot.games.american.rules", "Games never import each other"),
    ("cogs/eights.py", "import cogs.tables.lobby", "A game's cog imports no other cog but"),
    ("cogs/eights.py", "import cogs.american", "A game's cog imports no other cog but"),
    ("cogs/tables/lobby.py", "import cogs.american", "A game's cog imports no other cog but"),
    # The table service's rooms: none imports the service, or a room above it.
    ("bot/tables/keeping.py", "import bot.tables.service", "The service's rooms import only"),
    ("bot/tables/play.py", "import bot.tables.ai_turns", "The service's rooms import only"),
    # The deal of the day is a room of the service, under the same contract, and the
    # move both kinds of table take stands on no room.
    ("bot/tables/daily.py", "import bot.tables.service", "The service's rooms import only"),
    ("bot/tables/daily_deal.py", "import bot.tables.daily", "The service's rooms import only"),
    ("bot/tables/moves.py", "import bot.tables.play", "The service's rooms import only"),
    ("bot/tables/days.py", "import bot.tables.daily_board", "The service's rooms import only"),
    ("bot/games/eights/kind.py", "import bot.tables.daily", "A game imports only"),
    ("bot/games/eights/kind.py", "import bot.tables.table", "A game imports only"),
    # An import circle, wherever it is: between two of the platform's words (no other
    # contract orders them), between two modules of bot/, and in the store's sections.
    ("bot/render/seats.py", "import bot.render.refusals", "No import circle anywhere"),
    ("bot/clock.py", "import bot.config", "No import circle anywhere"),
    ("bot/store/program.py", "import bot.store.front", "No import circle anywhere"),
])
def test_a_broken_rule_is_caught(tmp_path: Path, module: str, line: str,
                                 contract: str) -> None:
    for part in ("bot", "cogs"):
        shutil.copytree(REPO / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    if not target.parent.exists():  # a new game's folder: a package
        target.parent.mkdir()
        (target.parent / "__init__.py").write_text("")
    target.write_text((target.read_text() if target.exists() else "")
                      + f"\n{line}  # noqa\n")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    # "NAME BROKEN", "NAME BROKEN (2 ignored imports)" (a contract that ignores some)
    broken = [row for row in result.stdout.splitlines() if "BROKEN" in row]
    assert any(row.startswith(contract) for row in broken), result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    # `import discord` inside bot/discord/ is discord.py, the library, not the package.
    ("bot/discord/budget.py", "import discord",
     "The request budget and the edit queue import no discord"),
    ("bot/discord/permissions.py", "import cogs.tables.guards",
     "What Discord allows knows no cog, game, table or store"),
    ("bot/discord/messages.py", "import bot.store",
     "What Discord allows knows no cog, game, table or store"),
    ("bot/discord/mentions.py", "import bot.games",
     "What Discord allows knows no cog, game, table or store"),
    ("bot/games/amerikaner/rules.py", "import bot.discord", "A game imports only"),
])
def test_a_broken_discord_rule_is_caught(tmp_path: Path, module: str, line: str,
                                         contract: str) -> None:
    """bot/discord/'s contracts (what Discord allows, in one place) would catch a break."""
    test_a_broken_rule_is_caught(tmp_path, module, line, contract)


def test_the_compiled_modules_type_check() -> None:
    """A regular install compiles setup.py's COMPILED_MODULES with mypyc, which first
    type-checks them and everything they import; an error there silently gives the slow
    pure-Python install. The same check, here."""
    modules = _compiled_modules()
    # --no-site-packages: the build runs in an isolated environment with setuptools and
    # mypy only, where no runtime dependency (Babel, discord.py) is installed.
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                             "--no-site-packages", *modules],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def _compiled_modules() -> list[str]:
    source = (REPO / "setup.py").read_text()
    block = source[source.index("COMPILED_MODULES = ["):]
    block = block[:block.index("]")]
    modules = [line.strip().strip('",') for line in block.splitlines()[1:] if line.strip()]
    assert modules and all((REPO / m).is_file() for m in modules), modules
    return modules


def test_the_platform_type_checks() -> None:
    """mypy, as the project configures it, finds nothing in the cogs and the whole of bot/
    (issue 39: 120 errors in cogs/ had piled up unchecked, most of them rooms calling each
    other through a mixin that no type declared; 12 more in bot/app.py, bot/cli.py and
    the catalog splitter, outside what was checked then)."""
    result = subprocess.run([sys.executable, "-m", "mypy", "cogs", "bot"],
                            cwd=REPO, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def _table_cog_imports() -> dict[str, set[str]]:
    """cogs/tables' modules -> the modules of cogs/tables each imports, at run time or
    for the type checker alike (an import under TYPE_CHECKING counts: a circle there is
    one the reader and the type checker must untangle)."""
    package = REPO / "cogs" / "tables"
    names = {path.stem for path in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        used = set()
        for module, imported in _imports(path):
            if module == "cogs.tables":
                used |= {name for name in imported if name in names}
            elif module.startswith("cogs.tables."):
                used.add(module.split(".")[2])
        graph[path.stem] = used - {path.stem}
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in `graph`, or None."""
    state: dict[str, int] = {}  # 1: on the path now, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_the_table_cog_has_no_import_circle() -> None:
    """The table cog's rooms are objects given what they need: no module of cogs/tables
    imports one that imports it back, not even for the type checker (issue 39: a circle
    of 13 files ran through the cog). The package's __init__ re-exports all, and api.py
    stands on the cog: no room imports either."""
    graph = _table_cog_imports()
    tops = ("__init__", "api")
    for top in tops:
        assert not any(top in used for name, used in graph.items() if name not in tops), top
    assert _circle(graph) is None, _circle(graph)
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_table_cog_is_found_by_reference() -> None:
    """No code finds the table cog by its class's name (cogs/tables/host.py): a rename
    would break a string silently."""
    found = [str(path.relative_to(REPO)) for path in (REPO / "cogs").rglob("*.py")
             if 'get_cog("Tables")' in path.read_text()]
    assert found == [], found


def test_the_app_imports_nothing_behind_the_contracts_back() -> None:
    """The app names every module it uses in an import statement, which import-linter
    reads (issue 51: it imported cogs.tables.host through importlib to restore panels;
    the service's `when_restored` does that now, and discord.py loads the cogs)."""
    for path in (REPO / "bot" / "app.py", REPO / "bot" / "cli.py"):
        text = path.read_text()
        assert "importlib" not in text and "__import__" not in text, path.name


@pytest.mark.parametrize("path", sorted((REPO / "cogs" / "tables").glob("*.py")),
                         ids=lambda path: path.name)
def test_a_room_of_the_table_cog_stays_small(path: Path) -> None:
    """A newcomer reads a room of the table cog whole (issue 39: about 500 lines at most)."""
    assert len(path.read_text().splitlines()) <= 500


@pytest.mark.parametrize("path", sorted((REPO / "bot" / "tables").glob("*.py")),
                         ids=lambda path: path.name)
def test_a_room_of_the_table_service_stays_small(path: Path) -> None:
    """A newcomer reads a room of the table service whole (issue 51: the deal of the
    day's service was 647 lines; its calendar, scoring and deal are modules of their
    own)."""
    assert len(path.read_text().splitlines()) <= 500


# A table's kind told by the size of its id (issue 51: `table_id >= DAILY_IDS`, a deal
# of the day's id being above 10 ** 24): an id compared with a number, or a threshold of
# ids. The kind is the table's (`Table.daily`), and the daily's ids are read by their
# scheme alone (bot/tables/daily_deal.py, daily_key).
_ID_SIZE = re.compile(
    r"(?:\b(?:\w*table_id|table\.id)\s*(?:>=|<=|>|<)\s*(?:[A-Z_]{3,}|\d|10\s*\*\*))"
    r"|(?:(?:[A-Z_]*IDS|10\s*\*\*\s*\d+)\s*(?:>=|<=|>|<)\s*\w*(?:table_id|table\.id)\b)"
    r"|\bDAILY_IDS\b|\bis_daily_table\b")


def test_no_table_kind_is_told_by_the_size_of_its_id() -> None:
    """Clicks and commands are routed by the table's kind, never by its id's size: no
    module of bot/ or cogs/ compares a table id with a threshold. (The check itself is
    checked on the lines it was written against.)"""
    found = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
             for part in ("bot", "cogs") for path in sorted((REPO / part).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if _ID_SIZE.search(line)]
    assert found == [], found
    for line in ("        if is_daily_table(action.table_id):",
                 "    return table_id >= DAILY_IDS",
                 "if table.id > 10 ** 24:", "if action.table_id >= FIRST_DAILY:",
                 "DAILY_IDS = 10 ** 24"):
        assert _ID_SIZE.search(line), line
    for line in ("daily = self.daily.daily_service.key_of(action.table_id)",
                 "if table.daily is not None:", "if guild_id is None:"):
        assert not _ID_SIZE.search(line), line


def test_one_function_applies_a_move_at_every_kind_of_table() -> None:
    """The platform applies an action through a GameKind in one place,
    bot/tables/moves.py, whatever the kind of table (issue 51: a table's move and a deal
    of the day's were applied by two paths, and a change had to be made twice)."""
    found = [f"{path.relative_to(REPO)}:{number}"
             for part in ("bot/tables", "bot/web", "cogs")
             for path in sorted((REPO / part).rglob("*.py"))
             if path != REPO / "bot" / "tables" / "moves.py"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\bkind\.apply\(", line)]
    assert found == [], found
    moves = (REPO / "bot" / "tables" / "moves.py").read_text()
    assert "kind.apply(" in moves
    for room in ("play.py", "daily.py"):
        assert "await move(" in (REPO / "bot" / "tables" / room).read_text(), room


def test_ruff_is_clean() -> None:
    result = subprocess.run([str(BIN / "ruff"), "check", "."], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) of every import in `path`, relative ones made
    absolute."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            out.append((module, [alias.name for alias in node.names]))
    return out


# a game's words are its text modules, one by audience (text_table.py, text_hand.py, ...)
_TEXT_MODULES = [*sorted((REPO / "bot" / "render").glob("*.py")),
                 *sorted((REPO / "bot" / "games").glob("*/text_*.py"))]


@pytest.mark.parametrize("path", _TEXT_MODULES, ids=lambda p: str(p.relative_to(REPO)))
def test_text_reads_views_not_state(path: Path) -> None:
    """Render and a game's text turn views and plain values into words: they never get
    hold of a Table (bot.tables and its service), a Game or a Hand (constants of the
    rules core are fine), and render names no game."""
    for module, names in _imports(path):
        assert module not in ("bot.tables", "bot.tables.service"), (path, module)
        assert not {"Table", "Seat", "Game", "Hand"} & set(names), (path, module, names)
        assert not module.endswith(".game"), (path, module)
        if module.endswith(".hand"):
            assert all(name.isupper() for name in names), (path, names)
        if "render" in path.parts:
            assert not module.startswith(("bot.games", "cogs")), (path, module)


def _code_words(path: Path) -> list[str]:
    """The names and string values of a module's code: every identifier and every string
    that is not documentation (a docstring or a string standing alone as a statement;
    comments are not in the tree)."""
    tree = ast.parse(path.read_text())
    documentation = {id(node.value) for node in ast.walk(tree)
                     if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in documentation:
                words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.keyword | ast.arg) and node.arg:
            words.append(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append(node.module)
        elif isinstance(node, ast.alias):
            words.extend(name for name in (node.name, node.asname) if name)
    return words


_STORE_MODULES = sorted((REPO / "bot" / "store").rglob("*.py"))


@pytest.mark.parametrize("path", _STORE_MODULES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_store_names_no_game(path: Path) -> None:
    """The store keeps every game's records as data: no name or string of its code names
    a registered game (no default game, no game's record format). Its migrations' SQL
    is data history (0003 names the one game there was) and is not read here."""
    from bot.games import GAMES

    named = [(word, game) for word in _code_words(path) for game in GAMES
             if re.search(rf"(?<![a-z]){re.escape(game)}(?![a-z])", word, re.IGNORECASE)]
    assert not named, (path, named)


def _private(name: str) -> bool:
    """An underscored name another module should not reach for: not `_` (gettext's
    translation function, public by convention) and not a dunder (`__version__`)."""
    return (name.startswith("_") and name != "_"
            and not (name.startswith("__") and name.endswith("__")))


def _project_module(module: str) -> bool:
    """Whether `module` (dotted) is a module or package of bot/ or cogs/."""
    if not module.startswith(("bot.", "cogs.")) and module not in ("bot", "cogs"):
        return False
    path = REPO.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _private_reaches(path: Path) -> list[str]:
    """Where `path` takes an underscored name defined in another module:
    `from X import _name` (whatever X is: its private parts are its own), or a module
    of the project bound by an import and then read as `module._name`. A public name
    aliased to an underscored local (`from x import y as _y`) is the module's own
    choice and is fine."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    tree = ast.parse(path.read_text())
    found: list[str] = []
    modules: set[str] = set()  # the dotted names under which a project module is bound
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(part for part in (base, node.module or "") if part)
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} "
                                 f"from {source} import {alias.name}")
                elif _project_module(f"{source}.{alias.name}"):
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _project_module(alias.name):
                    # `import bot.x.y` binds `bot` and is read as `bot.x.y._name`.
                    modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and ast.unparse(node.value) in modules):
            found.append(f"{path.relative_to(REPO)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_module_takes_another_modules_underscored_name() -> None:
    """An underscored name is its module's own: no module of bot/ or cogs/ imports one
    from another module or reads one off an imported module (issue 51: the store's
    front imported some 50 `_programs` from its sections, the claim reader the hand's
    `_STRENGTH`). What another module needs is public where it is defined."""
    paths = sorted([*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")])
    found = [where for path in paths for where in _private_reaches(path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(("source", "caught"), [
    ("from bot.store.games import _add_posts\n", True),
    ("from .games import _TOUCH\n", True),
    ("import bot.store.games\nbot.store.games._add_posts\n", True),
    ("import bot.store.games as g\ng._add_posts\n", True),
    ("from bot.store import games\ngames._add_posts\n", True),
    ("from bot.i18n import _\n", False),  # the translation function
    ("from bot.tables.table import copied as _copied\n", False),  # a local alias
    ("from bot import __version__\n", False),
    ("import os\nos._exit(0)\n", False),  # not a module of the project
    ("from bot.games.amerikaner.actions import Action\nAction._fields\n", False),
])
def test_an_underscored_name_taken_is_caught(source: str, caught: bool) -> None:
    """The check above sees each way of taking another module's underscored name, and
    lets the allowed ones be."""
    path = REPO / "bot" / "store" / "probe_not_a_module.py"
    assert not path.exists()
    path.write_text(source)
    try:
        assert bool(_private_reaches(path)) is caught
    finally:
        path.unlink()
