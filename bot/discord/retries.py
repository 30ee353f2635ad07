"""Who tries a failed request again: discord.py, or the caller.

discord.py sends a request again by itself when Discord answers 500, 502, 504 or 524,
sleeping 1, 3, 5, 7 s between the tries (discord/http.py, HTTPClient.request), while a
503 comes back to the caller at once. A table message's edit has its own retries, with
a shorter backoff and always the table's current state (bot/discord/edit_queue.py): a
500 met inside discord.py left the table ~18 s behind where a 503 through the queue left
it 5-6 s. The requests made inside `own_retries()` give every 5xx back to their caller
at its first answer (as DiscordServerError, as discord.py raises a 503): the bot's HTTP
hook (bot/app.py) calls `give_back_server_errors` once each answer has come.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord

from bot.discord.messages import worth_another_try

# The statuses discord.py tries again by itself (discord/http.py, 2.x).
RETRIED_INSIDE_DISCORD_PY = frozenset({500, 502, 504, 524})

_OWN_RETRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("own_retries",
                                                                    default=False)


@contextlib.contextmanager
def own_retries() -> Iterator[None]:
    """The requests this task makes in the block are tried again by the caller, not by
    discord.py: a 5xx is raised at once."""
    token = _OWN_RETRIES.set(True)
    try:
        yield
    finally:
        _OWN_RETRIES.reset(token)


def give_back_server_errors(response: Any) -> None:
    """Called with each answer (an aiohttp response) in the task that made the request:
    inside `own_retries()`, a status discord.py would try again is raised now, as
    DiscordServerError, before discord.py sees it."""
    if _OWN_RETRIES.get() and response.status in RETRIED_INSIDE_DISCORD_PY:
        raise discord.DiscordServerError(response, f"{response.status} {response.reason}")


def is_transient(exc: BaseException) -> bool:
    """Whether a failed request is one a bot meets from time to time and that heals by
    itself: a failure of Discord's (5xx) or a rate limit (429), a connection dropped or
    refused, a timeout. Logged in one line; anything else is unexpected (a traceback)."""
    if isinstance(exc, discord.HTTPException):
        return worth_another_try(exc.status)
    return isinstance(exc, aiohttp.ClientError | ConnectionError | TimeoutError)


def one_line(exc: BaseException) -> str:
    """A failure in one line for the log: Discord's status and code, or the error."""
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code} {exc.text}".strip()
    return repr(exc)
