"""Server settings: the language of public words, a game's defaults for new tables
(`settings`), the table switches and the turn timer's words."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import discord
from discord import app_commands

from bot.i18n import language_of, use_locale
from bot.render import (
    language_text,
    member_language_text,
    switches_text,
)
from bot.render.text import (
    duration_text,
    no_timer_text,
    no_turn_timer_text,
    timer_text,
)
from bot.tables.durations import DAY, HOUR, parse_duration, split_points
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.timer_settings import (
    DEFAULT_REMINDERS,
    MAX_TURN_TIMER,
    check_reminders,
    check_timeout_action,
    check_turn_timer,
)
from cogs.tables.common import TableBot, choices, mark_committed, reply
from cogs.tables.guards import is_manager

log = logging.getLogger(__name__)

# How long a member's language is waited for (seconds): an interaction is answered
# within 3 s (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction),
# and a read by primary key takes a millisecond; past this the store is away.
MEMBER_LANGUAGE_WAIT = 1.0


# The languages `settings language` offers ("default": the server's own locale). Persian
# (issue 55) is named in its own words with the English beside it, as Discord shows a
# choice's name in the member's Discord language and has no Persian of its own.
LANGUAGE_CHOICES = [app_commands.Choice(name="English", value="en"),
                    app_commands.Choice(name="Norsk (bokmål)", value="nb"),
                    app_commands.Choice(name="فارسی (Persian)", value="fa"),
                    app_commands.Choice(name="The server's own", value="default")]
# The languages /language offers a member ("default": their Discord's).
MEMBER_LANGUAGE_CHOICES = [*LANGUAGE_CHOICES[:3],
                           app_commands.Choice(name="My Discord's", value="default")]
LANGUAGE_DESCRIPTION = "The language of the tables' public messages (Manage Server)"

# A turn timer's reminders and what its end does (Lobby.create), offered by every
# game's `new` and `settings` beside `turn_timer`. A description has at most 100 characters.
TIMER_DESCRIPTIONS = {
    "turn_timer": "Time per turn before the AI plays it: 1h, 12h, 1d, 2d, 3d, 7d, or your own",
    "reminders": "Reminders, e.g. 50%, 1h (share of the time, or time left; default 50%, 1h)",
    "on_timeout": "When a turn's time runs out (default: the AI plays that turn)",
}


def _settings_timer(settings: Mapping[str, Any]) -> str:
    """A server's default turn timer as people say it ("1 day a turn", issue 35), its
    reminders and timeout action, as a line; the games' own settings text leaves the
    timer to this one place."""
    if not settings.get("turn_timer"):
        return no_turn_timer_text() + "\n"
    return timer_text(int(settings["turn_timer"]), settings.get("reminders", DEFAULT_REMINDERS),
                      settings.get("timeout_action")) + "\n"


def reminder_points(text: str | None) -> list[str] | None:
    """The reminder points a member typed ("50%, 1h", "50% 1t", "1 time"), in the units
    a table keeps; None when blank."""
    return split_points(text)


# The turn timers `turn_timer` offers as it is typed (issue 35: a day, not "1440
# minutes"), in seconds; any other length may be typed ("36h", "5 døgn", "90m").
TIMER_PRESETS = (HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, MAX_TURN_TIMER)
_PRESET_VALUES = {HOUR: "1h", 12 * HOUR: "12h", DAY: "1d", 2 * DAY: "2d", 3 * DAY: "3d",
                  MAX_TURN_TIMER: f"{MAX_TURN_TIMER / DAY:g}d"}


def timer_minutes(typed: str | None) -> int | None:
    """The turn timer a member chose or typed, in whole minutes (None: not given; 0: no
    timer). Refused: TableError("bad_input", reason="timer"); the service refuses more
    than 7 days."""
    if typed is None or not typed.strip():
        return None
    seconds = parse_duration(typed)
    if seconds is None:
        raise TableError("bad_input", reason="timer", typed=typed.strip()[:40],
                         minutes=int(MAX_TURN_TIMER // 60))
    return round(seconds / 60)


def timer_choices(current: str) -> list[app_commands.Choice[str]]:
    """`turn_timer`'s autocomplete, in the member's language: what they typed, read as a
    length ("36h": "36 hours"; a bare number in its likeliest units first, bare_number_
    readings), then the usual lengths and no timer."""
    items: list[tuple[str, str]] = []
    typed = current.strip()
    readings = bare_number_readings(typed)
    if readings:
        items += [(duration_text(round(seconds / 60)), value) for seconds, value in readings]
    else:
        seconds = parse_duration(typed) if typed else None
        if seconds is not None and seconds not in TIMER_PRESETS:
            minutes = round(seconds / 60)
            items.append((duration_text(minutes) if minutes else no_timer_text(),
                          typed[:100]))
    offered = {value for _, value in items}
    items += [(duration_text(round(preset / 60)), _PRESET_VALUES[preset])
              for preset in TIMER_PRESETS if _PRESET_VALUES[preset] not in offered]
    items.append((no_timer_text(), "0"))
    return choices(items)


def bare_number_readings(typed: str) -> list[tuple[float, str]]:
    """A bare number typed for the turn timer ("2"), read in the units it most likely
    means, as (seconds, the value to send), likeliest first, each within the longest
    timer (7 days): up to 7, days ("2": 2 days, then 2 hours, then 2 minutes; issue 52:
    "2 minutes" came first, although a game over days was meant); up to 48, hours; above,
    minutes. Sent as typed (no choice picked), a bare number stays minutes, as the
    commands always took it."""
    if not re.fullmatch(r"[0-9]{1,6}", typed) or int(typed) == 0:  # ASCII digits only
        return []
    number = int(typed)
    units = ("d", "h", "m") if number <= 7 else ("h", "m", "d") if number <= 48 \
        else ("m", "h", "d")
    seconds = {"d": DAY, "h": HOUR, "m": 60.0}
    return [(number * seconds[unit], f"{number}{unit}" if unit != "m" else typed)
            for unit in units if number * seconds[unit] <= MAX_TURN_TIMER]


ON_TIMEOUT_CHOICES = [
    app_commands.Choice(name="The AI plays that turn", value="play"),
    app_commands.Choice(name="The AI takes the seat until the player is back", value="seat")]

# The table switches a `new` command (and a server's `settings`) offers, described.
SWITCH_DESCRIPTIONS = {
    "mentions": "Mention a player when their turn comes (default: on with 2+ humans)",
    "pictures": "Show a picture of the table on the table message (default: on)",
    "hints": "Offer the Hint button: what the strong AI would play (default: on)",
    "thread": "Play in a thread of its own, so the channel is not flooded (default: off)",
}


def table_switches(server: dict[str, Any], **given: bool | None) -> dict[str, bool | None]:
    """A new table's switches: what its `new` command says, else the server's default
    (its settings' "switches"), else None (the table's own default)."""
    defaults = server.get("switches", {})
    return {name: value if value is not None else defaults.get(name)
            for name, value in given.items()}


class SettingsRoom:
    """A server's language and its defaults for a game's new tables."""

    def __init__(self, bot: TableBot, tables: TableService) -> None:
        self.bot = bot
        self.tables = tables
        self._languages: dict[int, str] = {}  # guild -> the language of its public words
        # user -> the language they chose for what they alone read (None: their
        # Discord's), as last read from the store: only what a read that failed falls
        # back to (chosen_language).
        self._members: dict[int, str | None] = {}
        # Called with (server, game) before a game's settings change: the deal of the day
        # fixes today's rules first, so the change reaches its next day (cogs/tables/daily.py).
        self.before_change: list[Callable[[int, str], Awaitable[None]]] = []

    # ------------------------------------------------------------- languages

    async def server_language(self, guild_id: int) -> str:
        """The language of what everyone in a server reads (table messages, posts,
        mentions): the one set with `settings language`, else the server's own
        preferred locale as Discord gives it, else English."""
        if guild_id in self._languages:
            return self._languages[guild_id]
        chosen = await self.bot.store.get_guild_language(guild_id)
        if chosen is None:
            guild = self.bot.get_guild(guild_id)
            chosen = language_of(guild.preferred_locale) if guild is not None else None
        self._languages[guild_id] = language = chosen or language_of(None)
        return language

    async def public(self, guild_id: int) -> AbstractContextManager[None]:
        """`with await settings.public(guild)`: words for everyone in the server."""
        return use_locale(await self.server_language(guild_id))

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        await self.bot.store.set_guild_language(guild_id, language)
        self._languages.pop(guild_id, None)

    async def chosen_language(self, user_id: int) -> str | None:
        """The language a member chose with /language, or None (their Discord's), read
        from the store each time. A member is in servers of every shard, each run by its
        own process, and /language may be given in any of them: a process that kept a
        first read would go on answering in the old language until it restarted. (A
        server's language is kept, `server_language`: only its own shard's process reads
        and sets it.) One read by primary key an interaction; if the store does not
        answer within MEMBER_LANGUAGE_WAIT, or fails, the last language read is used."""
        try:
            chosen = await asyncio.wait_for(self.bot.store.get_member_language(user_id),
                                            MEMBER_LANGUAGE_WAIT)
        except Exception:  # the store away: the answer must come all the same
            log.warning("could not read member %s's language; the last one read is used",
                        user_id, exc_info=True)
            return self._members.get(user_id)
        self._members[user_id] = chosen
        return chosen

    async def member_language(self, user_id: int, discord_locale: object) -> str:
        """The language of what a member alone reads (answers, their hand, their
        direct messages): the one they chose with /language, else their Discord's
        (an interaction's `locale`, "the selected language of the invoking user":
        https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object).
        Discord's locales have no Persian (https://discord.com/developers/docs/reference#locales),
        so a Persian reader is known only by their choice, read afresh each time (so a
        choice made in another shard's process holds here at once)."""
        return await self.chosen_language(user_id) or language_of(discord_locale)

    async def set_member_language(self, interaction: discord.Interaction[Any],
                                  language: str) -> None:
        """/language: the language of what this member alone reads, in every server;
        "default" goes back to their Discord's. Answered in the new language."""
        chosen = None if language == "default" else language_of(language)
        await self.bot.store.set_member_language(interaction.user.id, chosen)
        self._members[interaction.user.id] = chosen
        mark_committed(interaction, None)
        now = chosen or language_of(interaction.locale)
        with use_locale(now):
            await reply(interaction, member_language_text(now, chosen is None))


    async def save_settings(self, interaction: discord.Interaction[Any], game: str, *,
                            preset: str | None, players: int | None, target: int | None,
                            options: str | None, turn_timer: int | None,
                            switches: Mapping[str, bool | None],
                            language: str | None = None, reminders: str | None = None,
                            on_timeout: str | None = None) -> None:
        """A game's `settings`: this server's defaults for new tables of the game, shown,
        or changed (Manage Server) once the game accepts them."""
        guild = interaction.guild_id or 0
        kind = self.tables.registry.kind(game)
        current = await self.bot.store.get_guild_settings(guild, game)
        changed = {name: on for name, on in switches.items() if on is not None}
        if turn_timer is not None:
            # The limits `new` applies, checked now: Discord's client keeps to the
            # option's range, but an interaction may carry any integer, and a default
            # out of range would refuse every `new` that does not give its own timer.
            check_turn_timer(turn_timer * 60)
        asked: dict[str, object] = {
            "preset": preset, "players": players, "target": target, "turn_timer": turn_timer,
            # Checked now, not at the next `new` (blank: the default reminders).
            "reminders": None if reminders is None else list(check_reminders(
                reminder_points(reminders))),
            "timeout_action": None if on_timeout is None else check_timeout_action(on_timeout)}
        if options is None and not changed and language is None \
                and all(v is None for v in asked.values()):
            await reply(interaction, kind.words.settings_text(current, False) + "\n"
                              + switches_text(current.get("switches", {})) + "\n"
                              + _settings_timer(current)
                              + language_text(await self.server_language(guild)))
            return
        if not is_manager(interaction):
            raise TableError("not_allowed")
        if language is not None:  # the server's, for every game: "default" unsets it
            await self.set_server_language(guild, None if language == "default"
                                           else language_of(language))
        new = {**current, **{key: value for key, value in asked.items() if value is not None}}
        if changed:
            new["switches"] = {**new.get("switches", {}), **changed}
        if options is not None:
            names = [o.strip() for o in options.replace(",", " ").split() if o.strip()]
            new["options"] = {name: True for name in names if name != "none"}
        # What the game refuses is refused here (a typo, a clash), not at the next `new`.
        kind.make_rules(new.get("preset"), int(new.get("players") or kind.default_players),
                        {**new.get("options", {}), "target": new.get("target")})
        for hook in self.before_change:
            await hook(guild, game)
        await self.bot.store.set_guild_settings(guild, game, new)
        mark_committed(interaction, None)
        await reply(interaction, kind.words.settings_text(new, True) + "\n"
                          + switches_text(new.get("switches", {})) + "\n"
                          + _settings_timer(new)
                          + language_text(await self.server_language(guild)))

