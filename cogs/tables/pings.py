"""Turn pings and reminders: in the channel, naming the player alone, or by direct
message for a member who chose so (/notify), back to the channel if Discord refuses."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import discord

from bot.discord import no_mentions, pinging_user
from bot.discord.retries import is_transient, one_line
from bot.i18n import use_locale
from bot.render import (
    reminder_text,
    turn_mention,
)
from bot.render.lost import channel_gone_dm_text
from bot.render.text import (
    dm_failed_text,
    dm_turn_text,
    turn_ping_text,
)
from bot.tables.names import safe_markdown
from bot.tables.table import PLAYING, Table
from cogs.tables.common import LET_GO, TableBot, activity_on, given
from cogs.tables.settings import SettingsRoom
from cogs.tables.views import ping_view

log = logging.getLogger(__name__)


# Seconds before a failed turn ping is tried again: then again after the next, the last
# repeated (every hour) while its turn lasts.
PING_RETRY_DELAYS: tuple[float, ...] = (10.0, 60.0, 300.0, 900.0, 3600.0)

# Seconds after a turn came back to a member who was not pinged for it (it came back
# within moments of their own move, and their open panel was edited to show it) before
# they are pinged after all, if they have not played it: live play stays quiet, and a
# member who put the phone down after a move is told (issue 52: alice led, the AI
# answered in 2.6 s, the trick was hers, and she heard nothing for 12 hours). An edit
# notifies nobody (Edit Message fires a Message Update and no notification:
# https://discord.com/developers/docs/resources/message#edit-message).
LATE_TURN_SECONDS = 120.0


def live_ping_key(table_id: int) -> str:
    """The member setting that holds a member's live turn message at a table."""
    return f"live_ping_{table_id}"


class PingsRoom:
    """Turn pings and reminders, in the channel or by DM; a member's own settings."""

    def __init__(self, bot: TableBot, settings: SettingsRoom) -> None:
        self.bot = bot
        self.settings = settings
        # (guild, user) -> the member's own settings there (the store's), as read once.
        self._members: dict[tuple[int, int], dict[str, Any]] = {}
        self._deleting: set[int] = set()  # the bot's messages being deleted now
        # (table, user) -> the task trying a failed turn ping again (_ping_again).
        self._retrying: dict[tuple[int, int], asyncio.Future[None]] = {}
        # (table, user) -> the task that pings a turn not played in time (ping_if_late).
        self._late: dict[tuple[int, int], asyncio.Future[None]] = {}

    async def ping(self, table: Table, user: int, *, reminder: bool = False,
                    deadline: float | None = None, version: int | None = None) -> None:
        """Tell `user` it is their turn (or, `reminder`, that its time runs out at
        `deadline`): a new message, since Discord notifies of new messages and never of
        edits, with their hand's button and a link to the table. By direct message if
        they chose so in this server (/notify), else in the table's channel, naming
        them alone. A ping that meets a failure of Discord's or of the connection is
        tried again later, while its turn lasts (`_ping_again`); one that cannot be sent
        (the channel is gone, or the bot is stopping and its connection closed) is let
        go (a restart catches a turn up: PanelsRoom.catch_up_turns)."""
        if version is None:  # the turn it announces (the table may move meanwhile)
            version = table.version
        # The same nonce at every try of this ping, so Discord gives back a message it
        # already made (its answer lost) instead of a second one (Create Message,
        # enforce_nonce: "checked for uniqueness in the past few minutes. If another
        # message was created by the same author with the same nonce, that message will
        # be returned": https://discord.com/developers/docs/resources/message#create-message).
        # By author, not channel: the DM and the channel post each have their own.
        nonce = secrets.token_hex(11)
        failure = await self._ping_once(table, user, reminder, deadline, version, nonce)
        if failure is not None and is_transient(failure) and not self.bot.is_closed():
            self._again(table, user, reminder, deadline, version, nonce)

    async def _ping_once(self, table: Table, user: int, reminder: bool,
                         deadline: float | None, version: int, nonce: str
                         ) -> BaseException | None:
        """One try at the ping; the channel post's failure, if it failed."""
        if self._spent(table, version):
            return None  # its turn passed while it waited (the store, the language)
        if await self.wants_dm(table.guild_id, user):
            sent = await self._ping_by_dm(table, user, reminder, deadline, "pd" + nonce)
            if sent is not None:
                await self._live_ping_sent(table, user, sent, version)
                return None
        title = table.kind.words.title(table.rules)
        with await self.settings.public(table.guild_id):
            line = turn_ping_text(user, title, None if reminder else deadline)
            if reminder:
                line = reminder_text(turn_mention(user, title), deadline)
            view = ping_view(table, activity_on(self.bot))
        try:
            message = await self.bot.get_partial_messageable(table.channel_id).send(
                line, view=view, allowed_mentions=pinging_user(user),
                nonce="pc" + nonce)
        except LET_GO as exc:
            log.info("the turn ping of %s at table %s failed: %s", user, table.id,
                     one_line(exc))
            return exc
        await self._live_ping_sent(table, user, message, version)
        return None

    def _again(self, table: Table, user: int, reminder: bool, deadline: float | None,
               version: int, nonce: str) -> None:
        """Try the ping again later (one retrier a member and table: a newer turn's
        takes the place of an older one's)."""
        key = (table.id, user)
        older = self._retrying.pop(key, None)
        if older is not None:
            older.cancel()
        task = asyncio.ensure_future(
            self._ping_again(table.id, user, reminder, deadline, version, nonce))
        self._retrying[key] = task
        task.add_done_callback(
            lambda done: self._retrying.pop(key, None) if self._retrying.get(key) is done
            else None)

    async def _ping_again(self, table_id: int, user: int, reminder: bool,
                          deadline: float | None, version: int, nonce: str) -> None:
        """A ping that met a failure that heals by itself (a 5xx, a dropped
        connection), tried again after PING_RETRY_DELAYS, then every hour, on the
        bot's clock, until it goes out or its turn passes: a turn never goes silent
        while the bot runs. With the first try's nonce (see `ping`)."""
        clock = self.bot.settings.clock
        for attempt in itertools.count():
            delay = PING_RETRY_DELAYS[min(attempt, len(PING_RETRY_DELAYS) - 1)]
            await clock.sleep_until(clock.time() + delay)
            table = self.bot.tables.registry.get(table_id)
            if table is None or self._spent(table, version) or self.bot.is_closed():
                return
            if not reminder and await self.pinged_for(table, user):
                return  # announced meanwhile (a newer ping of the same turn)
            failure = await self._ping_once(table, user, reminder, deadline, version,
                                            nonce)
            if failure is None or not is_transient(failure):
                return

    def close(self) -> None:
        """The cog unloads: the pings waiting to be tried again are let go (a restart
        catches their turns up)."""
        for task in [*self._retrying.values(), *self._late.values()]:
            task.cancel()
        self._retrying.clear()
        self._late.clear()

    def ping_if_late(self, table: Table, user: int, version: int,
                     deadline: Callable[[Table], float | None],
                     delay: float = LATE_TURN_SECONDS) -> None:
        """`user`'s turn (the table at `version`) was shown in their open panel without
        a ping: ping them after `delay` seconds of the bot's clock if it is still that
        turn (unplayed, not paused, not pinged meanwhile). One waiter a member and
        table: a newer turn's takes the place of an older one's."""
        key = (table.id, user)
        older = self._late.pop(key, None)
        if older is not None:
            older.cancel()
        # The moment is read now, not when the task first runs: a clock moved meanwhile
        # (a test's) must not push it back.
        when = self.bot.settings.clock.time() + delay
        task = asyncio.ensure_future(
            self._ping_when_late(table.id, user, version, deadline, when))
        self._late[key] = task
        task.add_done_callback(
            lambda done: self._late.pop(key, None) if self._late.get(key) is done
            else None)

    async def _ping_when_late(self, table_id: int, user: int, version: int,
                              deadline: Callable[[Table], float | None],
                              when: float) -> None:
        await self.bot.settings.clock.sleep_until(when)
        table = self.bot.tables.registry.get(table_id)
        if table is None or self._spent(table, version) or self.bot.is_closed() \
                or table.paused or table.to_act is None:
            return
        seat = table.seats[table.to_act]
        if seat.user_id != user or seat.played_by_ai or await self.pinged_for(table, user):
            return
        if self.bot.tables.watching(table_id, user):
            return  # the Activity's page shows them the turn as it comes (bot/web)
        await self.ping(table, user, deadline=deadline(table), version=version)

    async def pinged_for(self, table: Table, user: int) -> bool:
        """Whether `user` has a turn message for the turn the table is at now (its
        entry kept with the table's version: see below). Unreadable: taken as pinged
        (a second ping is worse than none here: the turn timer's reminder follows)."""
        try:
            entries = (await self.member_settings(table.guild_id, user)).get(
                live_ping_key(table.id)) or []
        except Exception as exc:
            log.warning("could not read the live pings of %s at table %s: %r", user,
                        table.id, exc)
            return True
        return any(len(entry) > 2 and entry[2] == table.version for entry in entries)

    # ------------------------------------------------------------- one live ping
    # Each member has at most one live turn message per table, in the channel or by DM
    # (a turn ping, a reminder, what the AI did for them, the game's end): the next one
    # takes the place of the last, which is deleted, and a turn ping or reminder is
    # deleted once its turn has passed, so that no stale countdown, button or link
    # stays behind. A bot may delete its own messages without Manage Messages
    # (https://discord.com/developers/docs/resources/message#delete-message: Manage
    # Messages is needed only "to delete a message that was not sent by the current
    # user"). The messages are a member setting (live_ping_key), so a restart still
    # deletes them: entries [channel id, message id, the table's version whose turn it
    # announced, or None for a message that stays until the next one], the last one
    # live, the ones before it still to delete. An entry goes only once its message is
    # deleted: a delete cut short (a stop, a crash) is made by the next change.

    @staticmethod
    def _spent(table: Table, version: int | None) -> bool:
        """Whether a turn message for the turn of `version` is spent: the table moved
        on since, or the game is over."""
        return version is not None and (table.version != version
                                        or table.stage != PLAYING)

    async def _live_ping_sent(self, table: Table, user: int, message: discord.Message,
                              version: int | None) -> None:
        """`message` is now `user`'s live message at `table`: the ones before are
        deleted."""
        if self._spent(table, version):
            # Its turn passed, or the game ended, while it was on its way (a send that
            # waited on the channel's rate limit: 5 posts in 5 s): deleted at once, and
            # not left to the store, which may not answer (the bot stopping): issue 35
            # found such a ping outliving the game's end.
            await self._delete_entries(table, user, [[message.channel.id, message.id,
                                                      version]])
            return
        key = live_ping_key(table.id)
        try:
            settings = await self.member_settings(table.guild_id, user)
            # Read and changed at once (no wait between): concurrent changes of the
            # entries never lose one.
            older = [list(entry) for entry in settings.get(key) or []]
            if any(int(entry[1]) == message.id for entry in older):
                return  # the same ping given back for its nonce: kept already
            entry = [message.channel.id, message.id, version]
            settings[key] = [*older, entry]
            await self.bot.store.set_member_setting(table.guild_id, user, key,
                                                    settings[key])
        except Exception as exc:  # the store: the old ones stay, nothing worse
            log.warning("could not keep the live ping of %s at table %s: %r", user,
                        table.id, exc)
            return
        if self._spent(table, version):
            # Spent while it was stored. (Its own entry: the setting may have been
            # changed meanwhile by a delete, which once raised IndexError here.)
            older.append(entry)
        await self._delete_entries(table, user, older)

    async def keep_notice(self, table: Table, user: int, message: discord.Message) -> None:
        """A notice in the channel about `user` (their time ran out): kept with their
        live messages at `table` without replacing them (their DM of it stays live), so
        it is deleted with them by their next turn message, or at the game's end
        (spend_pings): over days the channel keeps no notice of a turn long passed
        (issue 35)."""
        key = live_ping_key(table.id)
        try:
            settings = await self.member_settings(table.guild_id, user)
            entries = [list(entry) for entry in settings.get(key) or []]
            if any(int(entry[1]) == message.id for entry in entries):
                return  # the same post sent again after a restart (its nonce)
            settings[key] = [*entries, [message.channel.id, message.id, None]]
            await self.bot.store.set_member_setting(table.guild_id, user, key,
                                                    settings[key])
        except Exception as exc:  # the store: the notice stays, nothing worse
            log.warning("could not keep the notice of %s at table %s: %r", user,
                        table.id, exc)
            return
        if table.stage != PLAYING:  # the game ended while it was on its way
            await self.spend_pings(table)

    async def spend_pings(self, table: Table) -> None:
        """Delete the turn pings and reminders of `table` whose turn has passed: the
        table moved on since (its version is another), or the game is over; at the
        game's end its notices in the channel too. (A DM of what happened, with no
        turn, stays until the next one.)"""
        for seat in table.seats:
            user = seat.user_id
            if user is None:
                continue
            try:
                settings = await self.member_settings(table.guild_id, user)
            except Exception as exc:
                log.warning("could not read the live pings of %s: %r", user, exc)
                continue
            over = table.stage != PLAYING
            spent = [entry for entry in settings.get(live_ping_key(table.id)) or []
                     if (entry[2] is not None and (entry[2] != table.version or over))
                     or (over and int(entry[0]) == table.channel_id)]
            await self._delete_entries(table, user, spent)

    async def _delete_entries(self, table: Table, user: int, entries: list[list[Any]]
                              ) -> None:
        """Delete the messages of `entries` (once, however many changes ask at once),
        then drop them from the member's setting."""
        # At least once, by design: deleted first, forgotten after. A crash between the
        # two costs one 404 (10008) when the restart deletes it again; forgetting first
        # would leave the ping, with its button, in the channel for good (issue 37).
        entries = [entry for entry in entries if int(entry[1]) not in self._deleting]
        if not entries:
            return
        ids = {int(entry[1]) for entry in entries}
        self._deleting.update(ids)
        try:
            gone = {int(entry[1]) for entry in entries
                    if await self.delete_own(int(entry[0]), int(entry[1]))}
            key = live_ping_key(table.id)
            settings = await self.member_settings(table.guild_id, user)
            left = [entry for entry in settings.get(key) or [] if int(entry[1]) not in gone]
            settings[key] = left  # [] is none (a new one may be added while it is stored)
            await self.bot.store.set_member_setting(table.guild_id, user, key, left or None)
        except Exception as exc:  # the store: deleted again at the next change (10008)
            log.warning("could not forget the deleted pings of %s at table %s: %r", user,
                        table.id, exc)
        finally:
            self._deleting.difference_update(ids)

    async def delete_own(self, channel_id: int, message_id: int) -> bool:
        """Delete a message the bot sent (a spent ping, a stale copy of a table message):
        True if it is gone (already deleted too: 10008 Unknown Message). A refusal (the
        bot no longer sees the channel, the connection) is let go: it was cosmetic."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(
            message_id)
        try:
            await message.delete()
        except discord.NotFound:
            return True
        except LET_GO as exc:
            log.info("could not delete message %s: %r", message_id, exc)
            return False
        return True

    async def tell_by_dm(self, table: Table, user: int,
                         render: Callable[[str], tuple[str, discord.Embed | None]]
                         ) -> None:
        """For a member who takes their turn pings by DM: `render(server)`'s text and
        embed (in their language) in place of their live DM of `table`: what the AI did
        for them, how the game ended. Nothing for a member who reads in the channel."""
        if not await self.wants_dm(table.guild_id, user):
            return
        guild = self.bot.get_guild(table.guild_id)
        server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
        with await self.dm_language(table.guild_id, user):
            content, embed = render(server)
        try:
            channel = await self.bot.create_dm(discord.Object(id=user))
            message = await channel.send(content, allowed_mentions=no_mentions(),
                                         **given(embed=embed))
        except discord.Forbidden as exc:
            await self._dm_refused(table.guild_id, user, exc)
            return
        except LET_GO as exc:
            log.info("a DM to %s failed (%r)", user, exc)
            return
        await self._live_ping_sent(table, user, message, None)

    async def tell_channel_gone(self, table: Table) -> None:
        """The table's channel was deleted: each member seated there is told once, by
        DM (whatever they chose with /notify: their pings had nowhere else to go), in
        their DM language (issue 52: nobody was told, and /games said "#unknown").
        Marked told per member (a member setting), so a restart or a second sign of
        the same deletion tells nobody again. A refused DM (50007) is let go: /games
        says it too."""
        guild = self.bot.get_guild(table.guild_id)
        server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
        title = table.kind.words.title(table.rules)
        key = f"gone_told_{table.id}"
        for user in sorted({s.user_id for s in table.seats if s.user_id is not None}):
            try:
                if (await self.member_settings(table.guild_id, user)).get(key):
                    continue
                await self.set_member_setting(table.guild_id, user, key, True)
                with await self.dm_language(table.guild_id, user):
                    text = channel_gone_dm_text(server, title)
                channel = await self.bot.create_dm(discord.Object(id=user))
                await channel.send(text, allowed_mentions=no_mentions())
            except Exception as exc:  # the store, Discord: /games tells it anyway
                log.info("member %s could not be told that table %s lost its channel: %r",
                         user, table.id, exc)

    # ------------------------------------------------------------- turn pings by DM

    async def member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """A member's own settings in a server (the store's), read once and kept: this
        cog is the only one that changes them."""
        key = (guild_id, user_id)
        if key not in self._members:
            stored = dict(await self.bot.store.get_member_settings(guild_id, user_id))
            # Another task may have read (and changed) them meanwhile: the first stays.
            return self._members.setdefault(key, stored)
        return self._members[key]

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        await self.bot.store.set_member_setting(guild_id, user_id, key, value)
        settings = self._members.setdefault((guild_id, user_id), {})
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value

    async def wants_dm(self, guild_id: int, user_id: int) -> bool:
        """Whether the member asked for their turn pings by direct message (/notify).
        A store that does not answer: the channel, as by default."""
        try:
            settings = await self.member_settings(guild_id, user_id)
        except Exception as exc:
            log.warning("could not read the settings of member %s: pinging in the channel",
                        user_id, exc_info=exc)
            return False
        return settings.get("turn_pings") == "dm"

    async def _ping_by_dm(self, table: Table, user: int, reminder: bool,
                          deadline: float | None, nonce: str) -> discord.Message | None:
        """The turn ping by direct message: the server, channel and game named, with the
        hand's button and the link. None if it was not delivered (the caller pings in
        the channel instead)."""
        guild = self.bot.get_guild(table.guild_id)
        server = safe_markdown(guild.name) if guild is not None else str(table.guild_id)
        with await self.dm_language(table.guild_id, user):
            text = dm_turn_text(server, table.channel_id, table.kind.words.title(table.rules),
                                deadline, reminder)
            view = ping_view(table)
        try:
            # discord.py keeps the DM channel once opened: one request a member.
            channel = await self.bot.create_dm(discord.Object(id=user))
            return await channel.send(text, view=view, allowed_mentions=no_mentions(),
                                      nonce=nonce)
        except discord.Forbidden as exc:
            await self._dm_refused(table.guild_id, user, exc)
            return None
        except LET_GO as exc:
            log.info("a turn ping by DM to %s failed (%r): in the channel", user, exc)
            return None

    async def dm_language(self, guild_id: int, user: int) -> AbstractContextManager[None]:
        """The words of a DM to `user`: their own language, the one they chose with
        /language, else as their Discord gave it when they chose DMs (/notify); the
        server's for a choice made before it was kept."""
        language = (await self.settings.chosen_language(user)
                    or (await self.member_settings(guild_id, user)).get("language"))
        return use_locale(language) if language else await self.settings.public(guild_id)

    async def _dm_refused(self, guild_id: int, user: int, exc: discord.Forbidden) -> None:
        """Discord refused the DM: 50007 "Cannot send messages to this user" (the member
        closed their direct messages from the server, or blocked the bot).
        https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
        Their pings go back to the channel (each refused DM would be an invalid request,
        which Discord counts toward a ban), and they are told once, privately, the next
        time they open their hand (dm_failed_told: False until told)."""
        log.info("member %s of server %s takes no DMs (%s %s): pinging in the channel",
                 user, guild_id, exc.status, exc.code)
        with contextlib.suppress(Exception):
            await self.set_member_setting(guild_id, user, "turn_pings", "channel")
            await self.set_member_setting(guild_id, user, "dm_failed_told", False)

    async def untold_dm_failure(self, guild_id: int | None, user: int) -> str | None:
        """The note for a member whose DM failed and who was not told yet (then marked
        told), or None."""
        if guild_id is None:
            return None
        with contextlib.suppress(Exception):
            if (await self.member_settings(guild_id, user)).get("dm_failed_told") is False:
                await self.set_member_setting(guild_id, user, "dm_failed_told", True)
                return dm_failed_text()
        return None


