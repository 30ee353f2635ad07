"""What happens to a server around the bot, as Discord tells a bot of it (issue 37): a
channel deleted, the bot removed from a server and added back, a server away in an
outage, a role's or a channel's permissions changed, a thread archived after its
auto-archive duration, locked or deleted; and the invalid requests Discord counts per IP.

A mixin of FakeDiscord (server.py): its methods use the fake's guilds, channels, clock
and `dispatch`. Each rule is cited beside it.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .models import DISCORD_EPOCH_MS, FakeChannel, FakeGuild, FakeMember, FakeRole, FakeThread

if TYPE_CHECKING:
    from .server import FakeDiscord

# https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans:
# "IP addresses that make too many invalid HTTP requests are automatically and
# temporarily restricted from accessing the Discord API. Currently, this limit is 10,000
# per 10 minutes. An invalid request is one that results in 401, 403, or 429 statuses."
# (429s whose X-RateLimit-Scope is "shared" are not counted.)
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
INVALID_STATUSES = (401, 403, 429)


def snowflake_time(snowflake: int) -> float:
    """When a snowflake was made (seconds since the Unix epoch)."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class Lifecycle:
    """The lifecycle events of the fake's servers, and the invalid-request count."""

    # ------------------------------------------------------------ invalid requests

    def _count_invalid(self: FakeDiscord, status: int, headers: dict[str, str]) -> None:
        """Count an answer Discord counts as an invalid request (see INVALID_LIMIT)."""
        if status not in INVALID_STATUSES:
            return
        if status == 429 and headers.get("X-RateLimit-Scope") == "shared":
            return
        now = self.clock.time()
        times: deque[float] = self.invalid_times
        times.append(now)
        while times and times[0] <= now - INVALID_WINDOW:
            times.popleft()
        self.invalid_total += 1
        self.invalid_peak = max(self.invalid_peak, len(times))

    def invalid_requests(self: FakeDiscord) -> int:
        """Invalid requests (401, 403, 429) in the last 10 minutes of the fake's clock."""
        now = self.clock.time()
        return sum(1 for t in self.invalid_times if t > now - INVALID_WINDOW)

    # ------------------------------------------------------------ channels

    async def delete_channel(self: FakeDiscord, channel: FakeChannel) -> None:
        """A moderator deletes a text channel: CHANNEL_DELETE
        (https://discord.com/developers/docs/topics/gateway-events#channel-delete: "Sent
        when a channel relevant to the current user is deleted"); its threads go with it.
        Every request to it is answered 404 10003 Unknown Channel after
        (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)."""
        guild = self.guilds[channel.guild_id or 0]
        for thread in [t for t in self._threads.values()
                       if t.parent_id == channel.id and not t.deleted]:
            thread.deleted = True
            self.channels.pop(thread.id, None)
        guild.channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        await self.dispatch("CHANNEL_DELETE", channel.to_dict())

    async def set_role_permissions(self: FakeDiscord, role: FakeRole | int, permissions: int,
                                   guild: FakeGuild | None = None) -> None:
        """A role's permissions change (the @everyone role: the guild's id):
        GUILD_ROLE_UPDATE (https://discord.com/developers/docs/topics/gateway-events#guild-role-update)."""
        guild = guild or self.guild
        target = guild.roles[role if isinstance(role, int) else role.id]
        target.permissions = permissions
        await self.dispatch("GUILD_ROLE_UPDATE",
                            {"guild_id": str(guild.id), "role": target.to_dict()})

    async def set_member_roles(self: FakeDiscord, user: int, roles: list[int],
                               guild: FakeGuild | None = None) -> None:
        """A moderator changes a member's roles: GUILD_MEMBER_UPDATE
        (https://discord.com/developers/docs/topics/gateway-events#guild-member-update),
        an event of the privileged GUILD_MEMBERS intent
        (https://discord.com/developers/docs/topics/gateway#list-of-intents). A bot
        without that intent still gets the event for its own member: known to library
        authors, not in the docs (discord.js#4952: "guildMemberUpdate is only triggered
        if it is the bot itself" with no intents; nostrum#298: "Discord will still send
        us updates about our own user"). So a bot can follow its own roles."""
        from .server import INTENT_GUILD_MEMBERS  # (server imports this module)

        guild = guild or self.guild
        member = guild.members[user]
        member.roles = list(roles)
        data = {"guild_id": str(guild.id), **member.to_dict()}
        own = user == self.bot_user.id
        await self.dispatch("GUILD_MEMBER_UPDATE", data,
                            intent=None if own else INTENT_GUILD_MEMBERS)

    # ------------------------------------------------------------ servers

    async def remove_bot(self: FakeDiscord, guild: FakeGuild | None = None) -> None:
        """The bot is kicked from (or leaves) a server: GUILD_DELETE without
        `unavailable` ("If the unavailable field is not set, the user was removed from
        the guild": https://discord.com/developers/docs/topics/gateway-events#guild-delete).
        No longer a member, the bot has no permission there: its requests to the
        server's channels are answered 403 50001 Missing Access."""
        guild = guild or self.guild
        guild.members.pop(self.bot_user.id, None)
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id), "guild_id": str(guild.id)})

    async def add_bot(self: FakeDiscord, guild: FakeGuild | None = None) -> None:
        """The bot is added back: GUILD_CREATE, as for any server it joins
        (https://discord.com/developers/docs/topics/gateway-events#guild-create: "when
        the current user joins a new Guild")."""
        guild = guild or self.guild
        guild.members[self.bot_user.id] = FakeMember(self.bot_user)
        await self._send_guild_create(guild)

    async def guild_outage(self: FakeDiscord, guild: FakeGuild | None = None) -> None:
        """A server goes away in an outage: GUILD_DELETE with `unavailable: true`
        (the same section: "true if this guild is unavailable due to an outage")."""
        guild = guild or self.guild
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id), "guild_id": str(guild.id),
                                             "unavailable": True})

    async def guild_back(self: FakeDiscord, guild: FakeGuild | None = None) -> None:
        """The server is back after its outage: GUILD_CREATE ("when a Guild becomes
        available again to the client")."""
        await self._send_guild_create(guild or self.guild)

    async def _send_guild_create(self: FakeDiscord, guild: FakeGuild) -> None:
        from .server import INTENT_GUILD_MEMBERS  # (server imports this module)

        joined = self.clock.iso()
        for session in list(self._sessions.values()):
            if not session.receives(guild.id):
                continue
            bot_only = None if session.intents & INTENT_GUILD_MEMBERS else self.bot_user.id
            data: dict[str, Any] = guild.to_create_dict(joined, bot_id=bot_only)
            data["threads"] = self._active_threads(guild.id)
            await self.dispatch_to(session, "GUILD_CREATE", data)

    # ------------------------------------------------------------ threads

    def thread_idle_since(self: FakeDiscord, thread: FakeThread) -> float:
        """When the thread last had activity: its last message, or when it was
        (un)archived or made. Edits of messages are no activity."""
        last = snowflake_time(thread.last_message_id) if thread.last_message_id else 0.0
        return max(last, _iso_time(thread.archive_timestamp), _iso_time(thread.create_timestamp))

    async def archive_idle_threads(self: FakeDiscord) -> list[FakeThread]:
        """Archive the threads idle for their auto-archive duration, as Discord does
        ("the thread will stop showing in the channel list after auto_archive_duration
        minutes of inactivity": https://discord.com/developers/docs/resources/channel#thread-metadata-object),
        each with THREAD_UPDATE. Call it after moving the clock."""
        now = self.clock.time()
        archived = []
        for thread in list(self._threads.values()):
            if thread.deleted or thread.archived:
                continue
            if now - self.thread_idle_since(thread) >= thread.auto_archive_duration * 60:
                await self.archive_thread(thread)
                archived.append(thread)
        return archived

    async def archive_thread(self: FakeDiscord, thread: FakeThread, *, locked: bool = False
                             ) -> None:
        """A thread archived (by Discord's timer or a moderator), and `locked`: only
        members with Manage Threads may unarchive a locked thread
        (https://discord.com/developers/docs/resources/channel#modify-channel-json-params-thread:
        "archived ... when setting archived to false, when locked is also false, only
        the SEND_MESSAGES permission is required"). THREAD_UPDATE."""
        thread.archived = True
        thread.locked = thread.locked or locked
        thread.archive_timestamp = self.clock.iso()
        await self.dispatch("THREAD_UPDATE", thread.to_dict())

    async def remove_thread(self: FakeDiscord, thread: FakeThread) -> None:
        """A moderator deletes a thread: THREAD_DELETE
        (https://discord.com/developers/docs/topics/gateway-events#thread-delete)."""
        thread.deleted = True
        self.channels.pop(thread.id, None)
        await self.dispatch("THREAD_DELETE", {"id": str(thread.id),
                                              "guild_id": str(thread.guild_id),
                                              "parent_id": str(thread.parent_id),
                                              "type": thread.type})


def _iso_time(text: str) -> float:
    import datetime as dt

    return dt.datetime.fromisoformat(text).timestamp()
