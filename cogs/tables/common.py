"""Shared pieces of the table cog: Discord's limits, embeds, custom ids, the view
that holds components, an open panel, the protocols of the bot and of a game's UI."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import itertools
import logging
from collections.abc import Awaitable, Iterable
from typing import Any, Protocol, TypeVar, cast

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.http import HTTPClient

from bot.discord import RequestBudget, no_mentions, pinging_user
from bot.discord.access import Blocked, ChannelAccess
from bot.render import (
    CONTENT_LIMIT,
    Panel,
    button_label,
    fit_panel,
    shorten,
)
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.outbox import Outbox
from bot.tables.service import TableService
from bot.tables.table import Table

log = logging.getLogger(__name__)

ResultT = TypeVar("ResultT")
NamedT = TypeVar("NamedT")

PAGE_SIZE = 10
# What a request made after the answer may meet and let go: Discord refusing it, the
# bot's HTTP session closed under it because the bot is stopping (aiohttp's RuntimeError),
# or the connection lost on the way (aiohttp's ClientError), or not sent at all: its
# channel refuses the bot or is gone (bot.discord.access.Blocked). The answer has been given;
# answering the click again with an error would be wrong.
LET_GO = (discord.HTTPException, RuntimeError, aiohttp.ClientError, Blocked)

# Discord's limits for components and autocomplete (those of text: bot/render/text.py).
# Over one, Discord refuses the whole reply, and the user sees "This interaction failed".
SELECT_OPTIONS_LIMIT = 25
OPTION_LABEL_LIMIT = 100
CHOICES_LIMIT = 25
CHOICE_LIMIT = 100  # a choice's name, and its value
CUSTOM_ID_LIMIT = 100
COMPONENTS_LIMIT = 25  # buttons and selects in one message (5 rows of 5)

# While the table edits queue (more waiting than the budget sends in a second), a
# table's picture is drawn anew at most this often (seconds), and at the end of each
# trick; the edits between show the text of the moment under the last picture. Drawing
# is the bot's costliest work (bench/render.py), and on a busy machine the drawing
# process, which runs at a lower priority so that answers never wait for it, fell
# behind the budget (bench/README.md, "The bot within Discord's limits").
PICTURE_EVERY = 15.0


def to_embed(panel: Panel) -> discord.Embed:
    """The embed of a panel, cut to Discord's limits (fit_panel). Every embed of the cog
    is built here."""
    panel = fit_panel(panel)
    embed = discord.Embed(title=panel.title, description=panel.description or None,
                          colour=panel.colour)
    for name, value, inline in panel.fields:
        embed.add_field(name=name, value=value, inline=inline)
    if panel.footer:
        embed.set_footer(text=panel.footer)
    return embed


def make_custom_id(prefix: str, key: object, rest: str) -> str:
    """A component's custom id. It is built from numbers and card names only, so it is
    short; one too long would make Discord refuse the whole message, so it fails here."""
    custom_id = f"{prefix}:{key}:{rest}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"a custom id over {CUSTOM_ID_LIMIT} characters: {custom_id[:40]}…")
    return custom_id


def select_options(items: Iterable[tuple[str, str]]) -> list[discord.SelectOption]:
    """(label, value) pairs as a menu's options, within Discord's limits: 25 options,
    labels of 100 characters (the values are card names)."""
    return [discord.SelectOption(label=shorten(label, OPTION_LABEL_LIMIT), value=value)
            for label, value in itertools.islice(items, SELECT_OPTIONS_LIMIT)]


def choices(items: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """(name, value) pairs as autocomplete choices, within Discord's limits: 25 choices,
    names of 100 characters. A value over 100 cut short would be another value: such a
    choice is left out."""
    fitting = ((name, value) for name, value in items if len(value) <= CHOICE_LIMIT)
    return [app_commands.Choice(name=shorten(name, CHOICE_LIMIT), value=value)
            for name, value in itertools.islice(fitting, CHOICES_LIMIT)]


def option_words(inner: NamedT) -> NamedT:
    """Every option of a slash command named as words a member reads (issue 35: no
    snake_case anywhere a player sees it): a parameter's name with a hyphen for each
    underscore, `turn_timer` shown as `turn-timer`. Discord's naming rule allows the
    hyphen in a command's or option's name (lowercase letters, digits, `-`, `_`;
    https://discord.com/developers/docs/interactions/application-commands
    #application-command-object-application-command-naming; the fake checks it at sync,
    tests/fake_discord/commands.py). The code, the autocompletes and stored settings keep
    the parameter's name, the key; Norwegian names are the catalog's ("option name").
    Put it above `@group.command(...)`, or on a callback before its Command is made."""
    if isinstance(inner, app_commands.Command):
        names = [parameter.name for parameter in inner.parameters]
    else:
        names = list(inspect.signature(inner).parameters)  # type: ignore[arg-type]
    # A locale_str, as discord.py makes of a name it is given at the start: a name
    # renamed later as a plain str would get no Norwegian translation.
    renames = {name: app_commands.locale_str(name.replace("_", "-"))
               for name in names if "_" in name}
    return app_commands.rename(**renames)(inner) if renames else inner


@dataclasses.dataclass(frozen=True, slots=True)
class OpenPanel:
    """A player's open hand panel, to edit without a click while its interaction's token
    lasts: the token and the owner's language, not the interaction itself. (Kept for
    every player for up to 14 minutes, whole interactions - each with its message, its
    components, the member - were most of a busy bot's heap, and the garbage
    collector's full passes over them paused every table for 150-200 ms.)"""

    application_id: int
    token: str
    language: str
    since: float  # when Discord created the click (its token's life starts then)
    # The message the panel is, when known (not across a restart): a new panel takes the
    # buttons off the older one only when they are surely two messages.
    message_id: int | None = None

    async def edit(self, client: object, **fields: Any) -> None:
        """Edit the panel (the interaction's original response) to `fields`. `client`:
        the bot (a discord.Client; the rooms know it as a TableBot)."""
        webhook = discord.Webhook.partial(self.application_id, self.token,
                                          client=cast(discord.Client, client))
        # discord.py types the message id as an int; its route takes Discord's
        # "@original" as well (Webhook.edit_message's own code for an interaction).
        await webhook.edit_message(ORIGINAL_RESPONSE, **fields)  # type: ignore[call-overload]


# How a hint marks its move among the panel's controls: green, with a star (a Unicode
# emoji Discord knows; the fake checks component emoji as Discord does).
HINT_STYLE = discord.ButtonStyle.success
HINT_EMOJI = "⭐"

# Discord's name for an interaction's original response among its webhook's messages.
ORIGINAL_RESPONSE = "@original"


class Components(discord.ui.View):
    """Buttons and selects for one message. Every item is a DynamicItem, routed by its
    custom_id pattern, so discord.py never needs the view after it is sent. It is
    stopped before sending, because discord.py keeps an unfinished view (an ephemeral
    one for 15 minutes, with a timer); and it lets go of its items once serialised,
    because each item points back at its view: at a busy bot those cycles pile up
    for the garbage collector's slow full passes."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        components = super().to_components()
        self.clear_items()
        return components


def given(**fields: object) -> dict[str, Any]:
    """The keyword arguments of `fields` that are not None: a message's file or embed
    when there is one (discord.py takes no None for a file)."""
    return {name: value for name, value in fields.items() if value is not None}


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a message (or, without one, to a channel) that Discord opens in place.
    https://discord.com/developers/docs/reference#message-formatting (jump links)"""
    tail = f"/{message_id}" if message_id is not None else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def table_link(table: Table) -> discord.ui.Button[Any]:
    """A link button (style 5: no custom id, no interaction) to the table message."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=button_label("to_table"),
                             url=jump_url(table.guild_id, table.channel_id, table.message_id))


def activity_on(bot: TableBot) -> bool:
    """Whether the table is also a Discord Activity here (bot/web, README "The Activity"):
    then the table message, a turn ping in the channel and `/<game> table` open it."""
    return bool(getattr(bot.settings, "activity_on", False))


async def launch_activity(interaction: discord.Interaction[Any]) -> None:
    """Answer with LAUNCH_ACTIVITY: Discord opens the app's Activity in the channel of
    the click or command, where its page shows that channel's table
    (https://discord.com/developers/docs/interactions/receiving-and-responding,
    interaction callback type: "LAUNCH_ACTIVITY 12 Launch the Activity associated with
    the app. Only available for apps with Activities enabled"; the strict fake refuses it
    otherwise, tests/fake_discord/activity.py)."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        # Refused for an app whose Activities are off in the Developer Portal: say so.
        if exc.status != 400:
            raise
        raise TableError("activity_off") from None


def mark_committed(interaction: discord.Interaction[Any], table: Table | None,
               what: str = "change") -> None:
    """The interaction's change (at `table`, or a server's settings) is stored (`what`:
    "move", "start", "opened", "cancel" or "change"): whatever Discord refuses from now
    on, the user is told the truth, never that nothing was changed (answer_error)."""
    interaction.extras["committed"] = (what, table.id if table is not None else None)

# ----------------------------------------------------------------- what a game's cog gives


class GameUI(Protocol):
    """A game's own part of the hand panel: the controls of a seat's legal actions, and
    what a click on one does (`<version>:<action...>` custom ids)."""

    def hand_components(self, table: Table, view: Any, hint: Any = None
                        ) -> discord.ui.View:
        """A player's own controls: exactly the actions legal now; `hint`'s move (the
        game's action) marked (HINT_STYLE, HINT_EMOJI)."""
        ...

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        """A click on one of those controls, drawn at state `version`."""
        ...


class TableBot(Protocol):
    """What the cogs need of the bot (bot/app.py), without importing it."""

    store: Store
    tables: TableService
    outbox: Outbox
    budget: RequestBudget
    access: ChannelAccess
    settings: Any
    tree: app_commands.CommandTree[Any]
    http: HTTPClient

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...

    def is_closed(self) -> bool: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def create_dm(self, user: discord.abc.Snowflake, /) -> discord.DMChannel: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...


class Background:
    """Work that runs after the answer (a panel stored, an old panel's buttons taken
    off): kept referenced until it is done, as asyncio asks of a task nobody awaits."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Future[Any]] = set()

    def run(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class GameUIs:
    """The games' own hand controls, by game (each game's cog registers its own at its
    cog_load, cogs/tables/api.py)."""

    def __init__(self) -> None:
        self._uis: dict[str, GameUI] = {}

    def register(self, game: str, ui: GameUI) -> None:
        self._uis[game] = ui

    def of(self, table: Table) -> GameUI:
        ui = self._uis.get(table.kind.name)
        if ui is None:
            raise RuntimeError(f"no cog plays {table.kind.name!r}")
        return ui


async def reply(interaction: discord.Interaction[Any], text: str | None = None, *,
                panel: Panel | None = None, view: discord.ui.View | None = None,
                ephemeral: bool = True, file: discord.File | None = None,
                ping: int | None = None) -> None:
    """Answer `interaction` (or follow it up, if it is answered): `text`, `panel` as
    an embed, `view`'s controls, `file`; for the user alone unless `ephemeral` is
    False. It never mentions anyone but the user `ping` (a seat's offer: its invitee
    alone)."""
    # No mentions: a reply quotes names and what users typed, never to ping anyone.
    kwargs: dict[str, Any] = {"ephemeral": ephemeral,
                              "allowed_mentions": pinging_user(ping) if ping is not None
                              else no_mentions()}
    if text is not None:
        kwargs["content"] = shorten(text, CONTENT_LIMIT)
    if panel is not None:
        kwargs["embed"] = to_embed(panel)
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)
