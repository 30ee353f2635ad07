"""Numbered schema migrations for the game store, one SQL file per version and dialect.

``sqlite/NNNN_name.sql`` and ``postgresql/NNNN_name.sql`` (read with importlib.resources,
shipped as package data): versions start at 1 and go up by one, and both dialects have
the same versions, so a database of either kind at version N has the same tables,
columns and rows as the other at version N. :data:`MIGRATIONS` is the ordered list of
``(version, script)``; a script is one SQL text both backends run, or a
:class:`PerDialect` pair (what the files give).

SQLite keeps the schema version in ``PRAGMA user_version``; PostgreSQL in the one-row
table ``schema_version`` (0, or absent, for an empty database).

To change the schema, **add** the next number's file in both folders (never edit an
applied one): opening the store applies every migration above the database's version,
each in its own transaction together with the version bump, so a crash mid-migration
leaves the database at the previous version.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Final, Literal

Dialect = Literal["sqlite", "postgresql"]
DIALECTS: Final[tuple[Dialect, ...]] = ("sqlite", "postgresql")


@dataclass(frozen=True, slots=True)
class PerDialect:
    """One migration written for each backend."""

    sqlite: str
    postgresql: str


def script_for(script: str | PerDialect, dialect: Dialect) -> str:
    """The SQL of one migration for one backend."""
    if isinstance(script, PerDialect):
        return script.sqlite if dialect == "sqlite" else script.postgresql
    return script


def _read(dialect: Dialect) -> dict[int, str]:
    """A dialect's migration files by version (the name's leading number)."""
    scripts: dict[int, str] = {}
    for entry in files(__name__).joinpath(dialect).iterdir():
        if entry.name.endswith(".sql"):
            version = int(entry.name.split("_", 1)[0])
            if version in scripts:
                raise RuntimeError(f"two {dialect} migrations numbered {version}")
            scripts[version] = entry.read_text(encoding="utf-8")
    return scripts


def _load() -> list[tuple[int, str | PerDialect]]:
    sqlite, postgresql = _read("sqlite"), _read("postgresql")
    if sorted(sqlite) != sorted(postgresql):
        raise RuntimeError("the SQLite and PostgreSQL migrations must have the same "
                           f"versions: {sorted(sqlite)} and {sorted(postgresql)}")
    return [(version, PerDialect(sqlite[version], postgresql[version]))
            for version in sorted(sqlite)]


MIGRATIONS: Final[list[tuple[int, str | PerDialect]]] = _load()
"""Ordered ``(version, sql_script)`` pairs, from the files."""


def latest_version() -> int:
    """The schema version a fully migrated database has."""
    return MIGRATIONS[-1][0] if MIGRATIONS else 0


def _check(migrations: list[tuple[int, str | PerDialect]]) -> None:
    for expected, (version, _) in enumerate(migrations, start=1):
        if version != expected:
            raise RuntimeError(f"migration versions must be 1, 2, 3...; got {version}")


_check(MIGRATIONS)
