"""Which table cog serves a bot, found by reference: the cog attaches itself to its bot
when it loads, and a button, a command or the error handler finds it from the
interaction's client. (It was found by its class name, "Tables", through get_cog: a
string that no type checker follows and that a rename breaks silently.)

Each caller sees the cog through a small protocol of its own (what it needs of the
rooms), so this module, like the rooms, imports no room and no cog."""

from __future__ import annotations

import weakref
from typing import Any

# bot -> its table cog. The entry goes when the cog is unloaded (Bot.close removes every
# cog): the cog holds its bot, so the weak key alone would not free a bot still attached.
_HOSTS: weakref.WeakKeyDictionary[object, object] = weakref.WeakKeyDictionary()


def attach(client: object, host: object) -> None:
    """`host` serves `client`'s tables from now on (the table cog, at its load)."""
    _HOSTS[client] = host


def detach(client: object, host: object) -> None:
    """`host` no longer serves `client` (the table cog, unloaded)."""
    if _HOSTS.get(client) is host:
        del _HOSTS[client]


def host_of(client: object) -> Any:
    """The table cog of `client`, for the caller to name by its own protocol
    (`host: ActionHost = host_of(client)`; the cog satisfies each such protocol, which
    cogs/tables/cog.py checks statically). Raises RuntimeError if no table cog is
    loaded (a handler run during a stop)."""
    host = _HOSTS.get(client)
    if host is None:
        raise RuntimeError("the table cog is not loaded")
    return host
