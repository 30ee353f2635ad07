"""Plain data kept by the fake Discord: users, guilds, channels, messages, requests."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .mentions import NO_PINGS, Pings

# the thread permission bits are re-exported here, where they used to live
from .permissions import ALL_PERMISSIONS, Overwrite
from .permissions import CREATE_PRIVATE_THREADS as CREATE_PRIVATE_THREADS
from .permissions import CREATE_PUBLIC_THREADS as CREATE_PUBLIC_THREADS
from .permissions import MANAGE_THREADS as MANAGE_THREADS
from .permissions import SEND_MESSAGES_IN_THREADS as SEND_MESSAGES_IN_THREADS

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)

# Message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Interaction callback types
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
MODAL = 9

# What Discord gives @everyone in a new server: view channel, send messages, embed links,
# attach files, read history, use app commands, create public and private threads, send
# messages in threads... (no manage_* permission)
DEFAULT_MEMBER_PERMISSIONS = 0x0000_00F9_8637_CE41

# Channel types
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

# Message types and flags of threads
THREAD_STARTER_MESSAGE = 21
HAS_THREAD = 1 << 5


def snowflake(now: float | None = None) -> int:
    """A fresh, increasing, time-based Discord snowflake (``now``: the fake's clock)."""
    ms = int((time.time() if now is None else now) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_in_shard(shard_id: int, shard_count: int, now: float | None = None) -> int:
    """A fresh snowflake of a guild whose events Discord sends on shard `shard_id` of
    `shard_count`: `(id >> 22) % shard_count == shard_id` (its millisecond moved on)."""
    ms = int((time.time() if now is None else now) * 1000) - DISCORD_EPOCH_MS
    ms += (shard_id - ms) % shard_count
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild, as Discord computes it."""
    return (guild_id >> 22) % shard_count


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class FakeUser:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    #: the language of the user's Discord client (an interaction's `locale`)
    locale: str = "en-US"
    #: the avatar's hash (https://discord.com/developers/docs/resources/user#user-object:
    #: "avatar ?string the user's avatar hash"), None: no avatar (the default)
    avatar: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name,
            "avatar": self.avatar,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int = DEFAULT_MEMBER_PERMISSIONS
    position: int = 0
    #: whether anyone may ping it (else only with Mention Everyone)
    mentionable: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0  # 0 GUILD_TEXT, 1 DM
    position: int = 0
    recipient: FakeUser | None = None  # for DMs
    #: permission overwrites by role or member id (``fake.set_bot_permissions``)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        if self.type == 1:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.to_dict()] if self.recipient else [],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.to_dict() for o in self.overwrites.values()],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeThread(FakeChannel):
    """A thread (type 11 public, 12 private) under a text channel. Its messages are kept
    like any channel's (``channel_id`` = the thread's id)."""

    type: int = PUBLIC_THREAD
    parent_id: int = 0
    owner_id: int = 0
    auto_archive_duration: int = 1440
    invitable: bool = True
    archived: bool = False
    locked: bool = False
    rate_limit_per_user: int = 0
    create_timestamp: str = field(default_factory=iso_now)
    archive_timestamp: str = field(default_factory=iso_now)
    #: the message it was started from (same id as the thread), None if started without one
    starter_message_id: int | None = None
    #: user id -> join timestamp, like Discord's thread members
    members: dict[int, str] = field(default_factory=dict)
    #: live messages, the starter message excluded (Discord's ``message_count``)
    message_count: int = 0
    total_message_sent: int = 0
    last_message_id: int | None = None
    deleted: bool = False

    @property
    def private(self) -> bool:
        return self.type == PRIVATE_THREAD

    def member_dict(self, user_id: int) -> dict[str, Any]:
        """Discord's thread member object."""
        return {
            "id": str(self.id),
            "user_id": str(user_id),
            "join_timestamp": self.members[user_id],
            "flags": 0,
        }

    def to_dict(self, *, member_for: int | None = None) -> dict[str, Any]:
        """The thread channel object; with ``member_for``, that user's thread member as
        ``member`` if they are one (as Discord answers the current user)."""
        metadata: dict[str, Any] = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": self.archive_timestamp,
            "locked": self.locked,
            "create_timestamp": self.create_timestamp,
        }
        if self.private:
            metadata["invitable"] = self.invitable
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "rate_limit_per_user": self.rate_limit_per_user,
            "message_count": self.message_count,
            "total_message_sent": self.total_message_sent,
            "member_count": min(len(self.members), 50),
            "thread_metadata": metadata,
            "flags": 0,
        }
        if member_for is not None and member_for in self.members:
            data["member"] = self.member_dict(member_for)
        return data


@dataclass
class FakeMember:
    user: FakeUser
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def to_dict(self, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.to_dict(),
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    #: the server's language as its settings give it (`preferred_locale`, `guild_locale`)
    preferred_locale: str = "en-US"

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == 0]

    def member_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.roles[self.id].permissions if self.id in self.roles else 0
        if member is not None:
            for rid in member.roles:
                role = self.roles.get(rid)
                if role is not None:
                    perms |= role.permissions
        if perms & 0x8:  # administrator
            return ALL_PERMISSIONS
        return perms

    def to_create_dict(self, joined_at: str, *, bot_id: int | None = None) -> dict[str, Any]:
        """GUILD_CREATE data. With ``bot_id`` (no GUILD_MEMBERS intent) only the bot's own
        member is included, like Discord."""
        members = [m for m in self.members.values() if bot_id is None or m.user.id == bot_id]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "application_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_progress_bar_enabled": False,
            "features": [],
            "roles": [r.to_dict() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.to_dict() for c in self.channels.values()],
            "threads": [],
            "members": [m.to_dict() for m in members],
            "member_count": len(self.members),
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "lazy": True,
            "joined_at": joined_at,
        }


@dataclass
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, including those inside rows/containers/sections."""
    for comp in components:
        yield comp
        children = list(comp.get("components") or [])
        if isinstance(comp.get("component"), dict):  # label
            children.append(comp["component"])
        if isinstance(comp.get("accessory"), dict):  # section
            children.append(comp["accessory"])
        yield from iter_components(children)


@dataclass
class StoredMessage:
    """A message as the fake Discord keeps it."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[StoredAttachment] = field(default_factory=list)
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    #: None = public; otherwise the only user id that can see it (ephemeral)
    visible_to: int | None = None
    #: the interaction this message answers (callback, @original or follow-up)
    interaction_id: int | None = None
    #: the user whose interaction this message answers
    interaction_user_id: int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    deleted: bool = False
    edit_count: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    #: the thread started from this message
    thread: FakeThread | None = None
    #: what a thread's starter message shows (Discord's ``referenced_message``)
    referenced: StoredMessage | None = None
    #: when it was created, by the fake's clock (its age decides how often it may be edited)
    created_at: float = field(default_factory=time.time)
    #: whom it notified when it was posted (edits never notify)
    pings: Pings = NO_PINGS
    #: the fake clock's times of its edits made once it was older than an hour
    old_edits: list[float] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def __repr__(self) -> str:
        labels = [b.get("label") or (b.get("emoji") or {}).get("name") for b in self.buttons()]
        return (
            f"<StoredMessage id={self.id} channel={self.channel_id} content={self.content[:60]!r}"
            f" embeds={len(self.embeds)} buttons={labels} flags={self.flags}"
            f" visible_to={self.visible_to}{' deleted' if self.deleted else ''}>"
        )

    def visible_for(self, user_id: int) -> bool:
        return self.visible_to is None or self.visible_to == user_id

    # -- components -------------------------------------------------------------------
    def all_components(self) -> list[dict[str, Any]]:
        return list(iter_components(self.components))

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label (or emoji name); raises if there is none or several."""
        found = [
            b
            for b in self.buttons()
            if b.get("label") == label or (b.get("emoji") or {}).get("name") == label
        ]
        if len(found) != 1:
            labels = [b.get("label") for b in self.buttons()]
            raise LookupError(f"{len(found)} buttons labelled {label!r} on message; have {labels}")
        return found[0]

    def button_id(self, label: str) -> str:
        return str(self.button(label)["custom_id"])

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields and v2 text displays, for asserts."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
        for comp in iter_components(self.components):
            if comp.get("type") == 10:
                parts.append(comp.get("content") or "")
        return "\n".join(p for p in parts if p)

    def attachment(self, filename: str) -> StoredAttachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(
            f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}"
        )

    def to_payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_dict() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None and not self.thread.deleted:
            data["thread"] = self.thread.to_dict()
        if self.referenced is not None:
            ref = self.referenced
            data["referenced_message"] = None if ref.deleted else ref.to_payload()
        return data


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    status: int = 0
    files: list[tuple[str, bytes]] = field(default_factory=list)
    authorized: bool = False


@dataclass
class CallbackRecord:
    """What the bot answered to an interaction (``POST .../callback``)."""

    type: int
    data: dict[str, Any]
    message: StoredMessage | None
    latency: float  # seconds from the event being sent to the callback arriving

    @property
    def content(self) -> str | None:
        return self.message.content if self.message is not None else self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message is not None else self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        if self.message is not None:
            return self.message.components
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        return self.message.flags if self.message is not None else int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices") or [])


@dataclass
class FakeInteraction:
    """An interaction the fake sent to the bot, and everything the bot answered."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    sent_at: float
    callback_future: asyncio.Future[CallbackRecord]
    #: when it was created, by the fake's clock (its token lives 15 minutes from then)
    created_at: float = field(default_factory=time.time)
    #: the message a component was used on (type 3/5), else None
    source_message: StoredMessage | None = None
    #: the message "@original" refers to (created by type 4/5, or the source message for 6/7)
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    #: 4xx errors the fake answered to the bot's requests for this interaction
    errors: list[dict[str, Any]] = field(default_factory=list)

    def __repr__(self) -> str:
        data = self.payload.get("data") or {}
        what = data.get("name") or data.get("custom_id")
        state = f"callback type {self.callback.type}" if self.responded else "no callback"
        return (
            f"<FakeInteraction id={self.id} type={self.type} {what!r} by {self.user.name}: {state}>"
        )

    @property
    def callback(self) -> CallbackRecord:
        if not self.callback_future.done():
            raise AssertionError(f"interaction {self.id} has no callback yet")
        return self.callback_future.result()

    @property
    def responded(self) -> bool:
        return self.callback_future.done()

    async def wait_callback(self, timeout: float = 5.0) -> CallbackRecord:
        try:
            return await asyncio.wait_for(asyncio.shield(self.callback_future), timeout)
        except TimeoutError:
            raise AssertionError(
                f"bot did not answer interaction {self.id} ({self.payload.get('data')}) "
                f"within {timeout}s; rejected requests: {self.errors}"
            ) from None

    # shortcuts on the callback
    @property
    def response_type(self) -> int:
        return self.callback.type

    @property
    def message(self) -> StoredMessage | None:
        """The message this interaction's answer lives in (@original)."""
        return self.original

    @property
    def content(self) -> str | None:
        return self.original.content if self.original is not None else self.callback.content

    @property
    def latency(self) -> float:
        return self.callback.latency

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices the bot answered (``[{"name": ..., "value": ...}]``)."""
        return self.callback.choices

    @property
    def ephemeral(self) -> bool:
        return self.callback.ephemeral

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.original.embeds if self.original is not None else self.callback.embeds
