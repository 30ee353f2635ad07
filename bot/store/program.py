"""What a program of the store is, and what it asks of a backend's SQL.

Every store method is a *program* (the modules :mod:`.games`, :mod:`.moves`,
:mod:`.results`, :mod:`.settings`, :mod:`.daily`): a generator that yields the
statements it needs (:data:`Op`, made by :func:`stmt`: SQL with ``$1``-style marks and
its arguments) and receives each one's result. A backend only runs programs: SQLite
drives one to its end on its database thread (so a whole method still costs one
hand-off), PostgreSQL awaits each statement on its connection. What differs between
the two is the :class:`Dialect`: SQLite's ``INDEXED BY`` hints, how a list of ids is
passed, and the two upserts that sum JSON (a member's totals, a member's settings).
A statement that locks the rows it reads for its transaction ends ``FOR UPDATE``, in
PostgreSQL's words; SQLite's driver drops it as it translates the text.

The texts of the writes are constants, not built per call: the SQLite driver looks up
its translation of each (made once per text), and a text built anew is hashed anew.
The programs' names begin with ``_``: only the front (:mod:`.front`) and the other
programs call them.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from .models import ResultRow

_T = TypeVar("_T")


Op = tuple[str, str, Any, bool]
"""One statement of a program: (kind, sql, args, conflict). ``kind``: "all" (the rows),
"one" (the first row or None), "val" (the first row's first value or None), "run" (the
rows changed), "many" (``args`` is a list of argument tuples; None), "new_id" (an
INSERT of one row into a table with an ``id`` column: that row's id; PostgreSQL's
driver asks for it with ``RETURNING id``, SQLite's reads the connection's last row id:
``RETURNING`` costs SQLite about 4 us). ``conflict``: a
constraint violation is thrown into the program as :class:`Conflict` instead of raised.
A plain tuple, made by :func:`stmt`: a move's commit makes a handful."""


def stmt(kind: str, sql: str, args: Any = (), conflict: bool = False) -> Op:
    """A statement of a program (see :data:`Op`)."""
    return (kind, sql, args, conflict)


class Conflict(Exception):
    """A statement broke a constraint (a backend's integrity error, made neutral);
    ``busy_channel``: it was the one active game a channel may have."""

    def __init__(self, message: str, *, busy_channel: bool = False) -> None:
        super().__init__(message)
        self.busy_channel = busy_channel


Program = Generator[Op, Any, _T]


class Dialect:
    """What the front asks of a backend's SQL. This base is the common SQL; the
    backends override the differences."""

    def indexed(self, index: str) -> str:
        """A hint that names the index a statement must use, where the dialect has one."""
        return ""

    def in_ids(self, mark: str) -> str:
        """The condition "is one of the ids passed at ``mark``" (``ids`` gives them)."""
        raise NotImplementedError

    def ids(self, values: Sequence[int]) -> Any:
        raise NotImplementedError

    def add_to_totals(self, guild_id: int, game: str, results: Sequence[ResultRow],
                      now: float) -> Program[None]:
        """Add the results to the members' running totals (the stats summed key by key)."""
        raise NotImplementedError

    def set_member_setting(self, guild_id: int, user_id: int, key: str,
                           value: str | None, now: float) -> Program[None]:
        """Set (value: JSON text) or remove (None) one key of a member's settings."""
        raise NotImplementedError

