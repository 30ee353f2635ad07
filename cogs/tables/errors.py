"""The one error handler of every command, button and menu: a refusal (TableError,
GameError, a check discord.py refused) in the user's words, a stored change that
Discord then refused told as such, anything else an apology with its traceback logged."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.discord import is_transient, no_mentions, one_line
from bot.errors import GameError
from bot.i18n import language_of, set_locale
from bot.render import (
    CONTENT_LIMIT,
    committed_text,
    error_text,
    internal_error,
    shorten,
)
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from cogs.tables.host import host_of

log = logging.getLogger(__name__)

# The table a click names (TableButton, TableSelect: `amk:<table>:...`, `amks:...`).
_CLICKED_TABLE = re.compile(r"amks?:([0-9]+):")

# Discord's code for a second answer to one interaction.
_ALREADY_ACKNOWLEDGED = 40060

# discord.py's refusals before a command runs, by what the user can do about them.
_APP_REFUSALS: tuple[tuple[type[Exception], str], ...] = (
    (app_commands.NoPrivateMessage, "guild_only"),
    (app_commands.BotMissingPermissions, "bot_not_permitted"),
    (app_commands.MissingPermissions, "not_permitted"),
    (app_commands.MissingRole, "not_permitted"),
    (app_commands.MissingAnyRole, "not_permitted"),
    (app_commands.CommandOnCooldown, "slow_down"),
    (app_commands.CheckFailure, "not_allowed_here"),
)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place that answers a command, button or menu that failed: a refusal
    (TableError, GameError, an option or check discord.py refused) with its sentence,
    anything else with an apology, its traceback logged once. It never raises: the user
    gets an answer even if Discord refused the first one, and that is logged once."""
    error = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    # A refusal is for the user: their words (users_language never fails).
    set_locale(await users_language(interaction))
    committed = getattr(interaction, "extras", {}).get("committed")
    if committed is not None:
        await _answer_committed(interaction, error, *committed)
        return
    text = _error_answer(error, game_of(interaction))
    if isinstance(error, discord.HTTPException) and interaction.response.is_done():
        return  # Discord refused a request after the answer: the user has theirs (logged)
    try:
        await _send_ephemeral(interaction, text)
    except Exception as exc:
        if text != internal_error():  # the answer itself was refused: try the plain one
            with contextlib.suppress(Exception):
                await _send_ephemeral(interaction, internal_error())
        log.error("could not answer interaction %s with %r: %s", interaction.id,
                  shorten(text, 80), one_line(exc),
                  exc_info=None if is_transient(exc) else exc)


async def _answer_committed(interaction: discord.Interaction[Any], error: BaseException,
                            what: str, table_id: int | None) -> None:
    """A request after a stored change failed (Discord refused the answer, its edit or a
    follow-up): the change stands, and the user is told so, unless they already have
    the answer that shows it. The table message is brought up to date."""
    # A failure of Discord's or of the connection is expected now and then: one line.
    log.warning("a request after a stored change (%s) failed: %s", what, one_line(error),
                exc_info=None if is_transient(error) else error)
    with contextlib.suppress(Exception):
        await _show_committed(interaction, table_id)
    if interaction.response.is_done() and interaction.response.type not in _DEFERRED:
        return  # answered: what they see shows the change
    try:
        await _send_ephemeral(interaction, committed_text(what))
    except Exception as exc:
        log.error("could not tell interaction %s that its change stands: %s",
                  interaction.id, one_line(exc), exc_info=None if is_transient(exc) else exc)


# A deferred answer ("thinking", or a silent one) says nothing yet.
_DEFERRED = (discord.InteractionResponseType.deferred_channel_message,
             discord.InteractionResponseType.deferred_message_update)


async def _show_committed(interaction: discord.Interaction[Any], table_id: int | None
                          ) -> None:
    """The public side of a stored change whose answer failed: the table message (which
    the answer may have been) edited soon, or posted if the answer was to be the lobby,
    and the next player's panel followed."""
    if table_id is not None:
        host: ShowsChanges = host_of(interaction.client)
        await host.show_committed(table_id, interaction.user.id)


class ShowsChanges(Protocol):
    """What the error handler needs of the table cog (cogs/tables/cog.py)."""

    async def show_committed(self, table_id: int, user_id: int) -> None:
        """The public side of a stored change at `table_id` by `user_id`."""
        ...


def game_of(interaction: discord.Interaction[Any]) -> GameKind | None:
    """The game whose words answer a refusal: the command group's game, else the game
    of the table a click names (a member's deal of the day's too, by its kind), else
    of the table in the channel, else the first game."""
    # Read with getattr: it must never fail, whatever answered the interaction.
    tables = getattr(getattr(interaction, "client", None), "tables", None)
    registry = getattr(tables, "registry", None)
    games = getattr(registry, "games", None)
    if registry is None or not games:
        return None
    command = getattr(interaction, "command", None)
    root = getattr(command, "root_parent", None) or command
    name = getattr(root, "name", None)
    if isinstance(name, str) and name in games:
        return games[name]  # type: ignore[no-any-return]
    clicked = _clicked_game(tables, interaction)
    if clicked is not None:
        return clicked
    table = registry.in_channel(getattr(interaction, "channel_id", None) or 0)
    return table.kind if table is not None else registry.kind(None)  # type: ignore[no-any-return]


def _clicked_game(tables: Any, interaction: discord.Interaction[Any]) -> GameKind | None:
    """The game of the table a click names, if it is a member's deal of the day (its
    key names the game) or a live table of this process; None otherwise."""
    data = getattr(interaction, "data", None)
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    found = _CLICKED_TABLE.match(custom_id) if isinstance(custom_id, str) else None
    if found is None:
        return None
    table_id = int(found[1])
    with contextlib.suppress(Exception):  # it must never fail: the refusal is answered
        daily = getattr(tables, "daily", None)
        key = daily.key_of(table_id) if daily is not None else None
        if key is not None:
            return tables.registry.games.get(key.game)  # type: ignore[no-any-return]
        table = tables.registry.get(table_id)
        return table.kind if table is not None else None  # type: ignore[no-any-return]
    return None


def _error_answer(error: BaseException, kind: GameKind | None = None) -> str:
    """The sentence for a failed interaction; a failure of ours is logged here."""
    if isinstance(error, GameError):  # TableError too: error_text tells them apart
        return error_text(error, kind)
    if isinstance(error, app_commands.TransformerError):
        member = error.type in (discord.AppCommandOptionType.user,
                                discord.AppCommandOptionType.mentionable)
        return error_text(TableError("not_a_member" if member else "bad_option"))
    for refusal, code in _APP_REFUSALS:
        if isinstance(error, refusal):
            return error_text(TableError(code))
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("Discord sent a command that differs from ours: %s", error)
        return error_text(TableError("outdated_command"))
    if is_transient(error):  # a 503, a dropped connection: expected now and then
        log.warning("a request failed: %s", one_line(error))
    elif isinstance(error, discord.HTTPException):
        log.warning("Discord refused a request", exc_info=error)
    else:
        log.error("handler failed", exc_info=error)
    return internal_error()


async def speak_the_users_language(interaction: discord.Interaction[Any]) -> bool:
    """The command tree's check before each command: the handler's task speaks the
    user's language (it switches to the server's for public words)."""
    set_locale(await users_language(interaction))
    return True


class _Languages(Protocol):
    async def member_language(self, user_id: int, discord_locale: object) -> str: ...


class _LanguageHost(Protocol):
    settings: _Languages


async def users_language(interaction: discord.Interaction[Any]) -> str:
    """The language of what the user of `interaction` alone reads: the one they chose
    with /language, else their Discord's (SettingsRoom.member_language). Never fails:
    a handler run during a stop, or the store away, reads their Discord's."""
    locale = getattr(interaction, "locale", None)
    try:
        host: _LanguageHost = host_of(interaction.client)
    except RuntimeError:  # no table cog (a handler run during a stop): nothing to read
        return language_of(locale)
    try:
        return await host.settings.member_language(interaction.user.id, locale)
    except Exception:  # the error handler and every click rely on an answer
        log.warning("could not read a member's language; their Discord's is used",
                    exc_info=True)
        return language_of(locale)


async def _send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """`text` for the user alone: the answer, or a follow-up if there is one already."""
    kwargs: dict[str, Any] = {"content": shorten(text, CONTENT_LIMIT), "ephemeral": True,
                              "allowed_mentions": no_mentions()}
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(**kwargs)
            return
        except discord.InteractionResponded:
            pass  # answered meanwhile: follow up
        except discord.HTTPException as exc:
            if exc.code != _ALREADY_ACKNOWLEDGED:
                raise
    await interaction.followup.send(**kwargs)

# ----------------------------------------------------------------- persistent components

async def run_component(item: discord.ui.Item[Any], interaction: discord.Interaction[Any],
                         work: Callable[[], Awaitable[None]]) -> None:
    """Run the handler of a button or menu, `work()` (which finds the table cog,
    cogs/tables/host.py): an error is answered as a command's is (answer_error), and
    the objects of the click are let go."""
    set_locale(await users_language(interaction))  # this click's task speaks the user's
    try:
        await work()
    except Exception as exc:
        await answer_error(interaction, exc)
    finally:
        _let_go(item, interaction)


def _let_go(item: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """Break the reference cycles discord.py builds around one button or select click,
    once it is answered: the view it rebuilt from the message <-> that view's items,
    and the interaction <-> its response. Their objects are then freed at once instead
    of aging into the garbage collector's full passes, which pause every table."""
    if item.view is not None:
        item.view.clear_items()
    # Its handler is done (a stop waits for interactions in flight, bot.app); said
    # here because `interaction.response` no longer tells once it is let go.
    interaction.extras["handled"] = True
    for cached in ("_cs_response", "_cs_followup"):
        with contextlib.suppress(AttributeError):
            delattr(interaction, cached)



