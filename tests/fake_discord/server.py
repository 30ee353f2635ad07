"""A fake Discord (REST v10 + gateway) for driving an unmodified discord.py bot in tests."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import json
import logging
import re
import secrets
import time
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

from .activity import LAUNCH_ACTIVITY, ActivityInstance, ActivitySide, OAuthError
from .clock import FakeClock
from .commands import (
    APP_HANDLER,
    DISCORD_LAUNCH_ACTIVITY,
    LOCALES,
    PRIMARY_ENTRY_POINT,
    validate_command,
    validate_commands,
)
from .lifecycle import Lifecycle
from .mentions import NO_PINGS, PARSE_ALL, PARSE_USERS, Pings, compute_pings
from .models import (
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE_WITH_SOURCE,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_MEMBER_PERMISSIONS,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    GUILD_TEXT,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_THREADS,
    MODAL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_STARTER_MESSAGE,
    UPDATE_MESSAGE,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeRole,
    FakeThread,
    FakeUser,
    RecordedRequest,
    StoredAttachment,
    StoredMessage,
    iter_components,
    shard_of,
    snowflake,
    snowflake_in_shard,
)
from .permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    MANAGE_MESSAGES,
    MENTION_EVERYONE,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Overwrite,
    apply_overwrites,
    implicit,
)
from .ratelimit import GlobalLimiter, GlobalRequest, RateLimiter, RateLimitRule, default_rules
from .validate import validate_choices, validate_message, validate_thread

_log = logging.getLogger("fake_discord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"

# Gateway intents the fake cares about
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Which callback types each interaction type accepts
# (12, LAUNCH_ACTIVITY: after a command, a button or a modal, like a message; refused
# below unless the app has Activities enabled)
_ALLOWED_CALLBACKS: dict[int, set[int]] = {
    2: {4, 5, 9, LAUNCH_ACTIVITY},
    3: {4, 5, 6, 7, 9, LAUNCH_ACTIVITY},
    4: {8},
    5: {4, 5, 6, 7, LAUNCH_ACTIVITY},
}

_OPTION_TYPES = {
    3: "STRING",
    4: "INTEGER",
    5: "BOOLEAN",
    6: "USER",
    7: "CHANNEL",
    8: "ROLE",
    9: "MENTIONABLE",
    10: "NUMBER",
    11: "ATTACHMENT",
}

UserRef = FakeUser | int | str
ChannelRef = FakeChannel | int | None
MessageRef = StoredMessage | int
ThreadRef = FakeThread | StoredMessage | int


class PostGate:
    """Holds the bot's next channel posts (not interaction answers), to put a crash
    between a commit and the post it obliges:

    * ``"lost"``: a held post never reaches the channel (as if Discord never got it);
    * ``"unanswered"``: the post is made, but its answer is held, so the bot never
      learns that it was posted;
    * ``"dropped"``: the connection is closed under the post, unanswered and not made
      (the bot's HTTP client sees the server disconnect); nothing is held;
    * ``"made"``: the post is made (its nonce kept), then the connection is closed
      before the answer: the bot cannot tell it from ``"dropped"``; nothing is held.

    ``held`` counts the posts waiting; ``release()`` lets them go."""

    def __init__(self, mode: str) -> None:
        if mode not in ("lost", "unanswered", "dropped", "made"):
            raise ValueError(f"unknown gate mode {mode!r}")
        self.mode = mode
        self.held = 0
        self._released = asyncio.Event()

    def release(self) -> None:
        self._released.set()

    async def wait(self) -> None:
        await self._released.wait()


class _Pending:
    """What a setter that tells the bot returns: awaiting it waits until the gateway
    event was sent; not awaiting it is fine too."""

    def __init__(self, task: asyncio.Task[None] | None) -> None:
        self._task = task

    def __await__(self) -> Generator[Any, None, None]:
        if self._task is not None:
            yield from self._task.__await__()


class HTTPError(Exception):
    """Raised by a route handler to answer with a Discord-style JSON error."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only decodes JSON when Content-Type is *exactly* application/json
    # (aiohttp's json_response adds "; charset=utf-8").
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "yes")


@dataclass
class _Ctx:
    """One REST request being handled."""

    request: web.Request
    match: re.Match[str]
    json: Any
    files: list[tuple[str, str, bytes, str | None]]  # (field name, filename, data, type)
    record: RecordedRequest

    def group(self, i: int) -> str:
        return self.match.group(i)

    def int_group(self, i: int) -> int:
        return int(self.match.group(i))

    @property
    def query(self) -> dict[str, str]:
        return dict(self.request.query)

    @property
    def body(self) -> dict[str, Any]:
        return self.json if isinstance(self.json, dict) else {}


Handler = Callable[[_Ctx], Awaitable[web.StreamResponse]]


@dataclass
class _Route:
    method: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


@dataclass
class _Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)
    conn: _Conn | None = None

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of `guild_id` (None: a DM,
        which goes to shard 0): each guild's go to the shard `(id >> 22) % count`.
        https://discord.com/developers/docs/events/gateway#sharding: "shard_id =
        (guild_id >> 22) % num_shards"; "Gateway events that do not contain a guild_id
        will only be sent to the first shard (shard_id: 0). This includes Direct Message
        (DM) ... events" (also https://github.com/discord/discord-api-docs/issues/17).
        So an interaction in a DM reaches shard 0's session alone, whatever server its
        buttons' table is in, and none while shard 0 is not connected."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id


@dataclass
class _Conn:
    ws: web.WebSocketResponse
    compressor: Any  # zlib compressobj or None
    query: dict[str, str]
    session: _Session | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    heartbeats: int = 0
    closed_by_server: bool = False

    async def close(self, code: int, message: bytes) -> None:
        self.closed_by_server = True
        await self.ws.close(code=code, message=message)

    async def send_raw(self, text: str) -> None:
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is not None:
                data = self.compressor.compress(text.encode()) + self.compressor.flush(
                    zlib.Z_SYNC_FLUSH
                )
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)

    async def send(self, payload: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(payload))


class FakeDiscord(Lifecycle):
    """Fake Discord REST API v10 + gateway on 127.0.0.1 (random port).

    Example::

        fake = FakeDiscord()
        await fake.start()
        apply_discord_endpoints(fake.api_base, fake.gateway_url)
        ... start a discord.py bot with ``fake.token`` ...
        it = await fake.slash(fake.users[0], fake.channel, "demo echo", {"text": "hi"})
        assert it.callback.content == "hi"
        await fake.stop()
    """

    DEFAULT_USERS = ("alice", "bob", "carol", "dave")
    #: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction:
    #: "Interaction tokens are valid for 15 minutes"
    TOKEN_LIFETIME = 15 * 60.0
    #: the age after which Discord limits a message's edits (error 30046, "messages
    #: older than 1 hour": https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)
    OLD_MESSAGE_AGE = 3600.0

    def __init__(
        self,
        *,
        strict: bool = True,
        clock: FakeClock | None = None,
        token: str | None = None,
        bot_name: str = "FakeBot",
        user_names: Iterable[str] = DEFAULT_USERS,
        channel_names: Iterable[str] = ("general", "games"),
        rate_limits: bool | None = None,
        rate_limit_rules: list[RateLimitRule] | None = None,
        rate_limit_scale: float = 1.0,
        global_rate_limit: bool | None = None,
        heartbeat_interval: float = 1.0,
        interaction_timeout: float = 3.0,
        validate: bool | None = None,
        check_emoji: bool | None = None,
        check_permissions: bool | None = None,
        check_message_age: bool | None = None,
        check_token_expiry: bool | None = None,
        check_commands: bool | None = None,
        record_gateway: bool = True,
        shard_count: int = 1,
    ) -> None:
        """``strict`` (the default) turns on every rule of Discord's the fake knows; a rule's
        own keyword (None: as ``strict`` says) turns it off for the fake's own tests:
        ``validate`` (payload limits), ``check_emoji`` (component emoji),
        ``check_permissions`` (channel permissions), ``check_message_age`` (edits of
        messages older than an hour), ``check_token_expiry`` (interaction tokens),
        ``check_commands`` (command sync payloads), ``rate_limits`` (per-route buckets)
        and ``global_rate_limit`` (50 requests/s per token)."""
        self.clock = clock or FakeClock()
        self.strict = strict

        def rule(value: bool | None) -> bool:
            return strict if value is None else value

        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        #: the shards GET /gateway/bot recommends; `add_guild(shard=...)` places guilds
        self.shard_count = shard_count
        self.app_id = self._snowflake()
        self.bot_user = FakeUser(self.app_id, bot_name, bot=True)
        #: the Activity's side: OAuth2 codes and tokens, instances (activity.py)
        self.activity = ActivitySide(self.clock, self.app_id, self._snowflake)
        self.heartbeat_interval = heartbeat_interval
        self.interaction_timeout = interaction_timeout
        self.validate = rule(validate)
        self.check_emoji = rule(check_emoji)
        self.check_permissions = rule(check_permissions)
        self.check_message_age = rule(check_message_age)
        self.check_token_expiry = rule(check_token_expiry)
        self.check_commands = rule(check_commands)
        #: edits a message older than an hour may take per hour. Discord's docs give the
        #: error (30046) but not the number: 3 is our assumption, a few as observed.
        self.old_message_edits = 3
        # Users whose direct messages from the bot are closed (close_dms).
        self.closed_dms: set[int] = set()
        #: messages the bot deleted (DELETE of a channel message that Discord took)
        self.deletes = 0
        self.record_gateway = record_gateway
        self.rate_limiter: RateLimiter | None = None
        if rule(rate_limits) or rate_limit_rules:
            self.rate_limiter = RateLimiter(rate_limit_rules or default_rules(rate_limit_scale))
        self.global_limiter: GlobalLimiter | None = (
            GlobalLimiter() if rule(global_rate_limit) else None)
        # While set (hold_arrivals): the bot token's requests are held on their way in
        # and reach the fake, and its counts, together once it is released.
        self._arrivals: asyncio.Event | None = None

        self.users: list[FakeUser] = [FakeUser(self._snowflake(), n) for n in user_names]
        self._users_by_id: dict[int, FakeUser] = {u.id: u for u in self.users}
        self._users_by_id[self.bot_user.id] = self.bot_user
        owner = self.users[0] if self.users else self.bot_user
        self.owner = owner

        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.guild = self.add_guild("Fake Guild", channel_names=channel_names, owner=owner)
        self.channel = self.guild.text_channels[0]

        self._messages: dict[int, StoredMessage] = {}
        #: every thread started, deleted ones too (live ones are also in ``channels``)
        self._threads: dict[int, FakeThread] = {}
        self.global_commands: dict[int, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[int, dict[str, Any]]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}

        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[RecordedRequest] = []
        #: 4xx answers other than unknown routes/401 (bad payloads, double callbacks...)
        self.client_errors: list[tuple[RecordedRequest, dict[str, Any]]] = []
        self.rate_limited: list[RecordedRequest] = []
        #: when each invalid request (401, 403, 429) was answered, in the last 10 minutes;
        #: every one, and the most in any 10 minutes (lifecycle.py, INVALID_LIMIT)
        self.invalid_times: deque[float] = deque()
        self.invalid_total = 0
        self.invalid_peak = 0
        #: posts held to test crashes between a commit and its post (PostGate)
        self.post_gate: PostGate | None = None
        #: (author id, nonce) -> (when, message id): Discord answers a post whose nonce
        #: it saw within `nonce_window` seconds with that message (`enforce_nonce`)
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self.nonce_window = 600.0
        self.gateway_received: list[dict[str, Any]] = []
        self.gateway_sent: list[dict[str, Any]] = []
        self.identify_payloads: list[dict[str, Any]] = []

        self._tasks: set[asyncio.Task[None]] = set()
        self._sessions: dict[str, _Session] = {}
        self._conns: list[_Conn] = []
        self._routes: list[_Route] = []
        self._register_routes()
        self._runner: web.AppRunner | None = None
        self._changed: asyncio.Condition | None = None
        self._ready_event: asyncio.Event | None = None
        self.port = 0

    def _snowflake(self) -> int:
        """A fresh snowflake dated by the fake's clock."""
        return snowflake(self.clock.time())

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> None:
        self._changed = asyncio.Condition()
        self._ready_event = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._http_handler)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.close(1001, b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ world setup
    def add_guild(
        self,
        name: str,
        *,
        channel_names: Iterable[str] = ("general",),
        owner: FakeUser | None = None,
        members: Iterable[FakeUser] | None = None,
        shard: int | None = None,
    ) -> FakeGuild:
        """A guild; `shard`: its id is chosen so that its events go to that shard (of
        `shard_count`)."""
        now = self.clock.time()
        gid = snowflake(now) if shard is None else snowflake_in_shard(shard, self.shard_count, now)
        owner = owner or (self.users[0] if self.users else self.bot_user)
        guild = FakeGuild(gid, name, owner.id)
        guild.roles[gid] = FakeRole(gid, "@everyone", DEFAULT_MEMBER_PERMISSIONS)
        for i, cname in enumerate(channel_names):
            ch = FakeChannel(self._snowflake(), cname, gid, 0, i)
            guild.channels[ch.id] = ch
            self.channels[ch.id] = ch
        for user in [self.bot_user, *(members if members is not None else self.users)]:
            guild.members[user.id] = FakeMember(user)
        self.guilds[gid] = guild
        return guild

    async def add_user(self, name: str, *, guild: FakeGuild | None = None) -> FakeUser:
        """A new user who is a member of ``guild`` (default: the first guild)."""
        user = FakeUser(self._snowflake(), name)
        self.users.append(user)
        self._users_by_id[user.id] = user
        guild = guild or self.guild
        member = FakeMember(user)
        guild.members[user.id] = member
        if self._conns:
            await self.dispatch(
                "GUILD_MEMBER_ADD",
                {**member.to_dict(), "guild_id": str(guild.id)},
                intent=INTENT_GUILD_MEMBERS,
            )
        return user

    async def add_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        guild = guild or self.guild
        ch = FakeChannel(self._snowflake(), name, guild.id, 0, len(guild.channels))
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        if self._conns:
            await self.dispatch("CHANNEL_CREATE", ch.to_dict())
        return ch

    async def add_role(self, name: str, *, mentionable: bool = False, permissions: int = 0,
                       guild: FakeGuild | None = None) -> FakeRole:
        """A new role of ``guild`` (default: the first); ``mentionable`` roles may be pinged
        by anyone, others only with Mention Everyone (mentions.py)."""
        guild = guild or self.guild
        role = FakeRole(self._snowflake(), name, permissions, position=len(guild.roles),
                        mentionable=mentionable)
        guild.roles[role.id] = role
        if self._conns:
            await self.dispatch("GUILD_ROLE_CREATE",
                                {"guild_id": str(guild.id), "role": role.to_dict()})
        return role

    async def add_thread_member(self, thread: ThreadRef, user: UserRef) -> None:
        """``user`` joins ``thread`` (or is added to it by someone other than the bot):
        Discord's THREAD_MEMBERS_UPDATE follows, for a bot with the members intent."""
        await self._add_thread_members(self.thread(thread), [self.user(user).id])

    def user(self, ref: UserRef) -> FakeUser:
        """A user by object, id or name."""
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, int):
            return self._users_by_id[ref]
        for u in self._users_by_id.values():
            if u.name == ref:
                return u
        raise LookupError(f"no fake user {ref!r}")

    def _channel(self, ref: ChannelRef) -> FakeChannel:
        if ref is None:
            return self.channel
        if isinstance(ref, FakeChannel):
            return ref
        return self.channels[ref]

    # ------------------------------------------------------------------ queries
    def message(self, message_id: MessageRef) -> StoredMessage:
        """The current state of a stored message (also deleted ones)."""
        mid = message_id.id if isinstance(message_id, StoredMessage) else message_id
        return self._messages[mid]

    def deleted_message_ids(self) -> set[int]:
        """Every message deleted so far, in any channel or DM."""
        return {mid for mid, m in self._messages.items() if m.deleted}

    def all_messages(self, channel: ChannelRef = None, *, deleted: bool = False
                     ) -> list[StoredMessage]:
        """Every live message in the channel, ephemeral ones included, oldest first
        (`deleted`: the deleted ones too, as they were last)."""
        cid = self._channel(channel).id
        return [m for m in self._messages.values() if m.channel_id == cid
                and (deleted or not m.deleted)]

    def messages(self, channel: ChannelRef = None, *, deleted: bool = False
                 ) -> list[StoredMessage]:
        """Public (non-ephemeral) live messages in the channel, oldest first (`deleted`:
        the deleted ones too)."""
        return [m for m in self.all_messages(channel, deleted=deleted) if m.visible_to is None]

    def visible_messages(self, user: UserRef, channel: ChannelRef = None) -> list[StoredMessage]:
        """What ``user`` sees in the channel: public messages plus their ephemeral ones."""
        uid = self.user(user).id
        return [m for m in self.all_messages(channel) if m.visible_for(uid)]

    def ephemeral_messages(
        self, user: UserRef, channel: FakeChannel | int | None = None
    ) -> list[StoredMessage]:
        """Live ephemeral messages only ``user`` can see; all channels unless one is given."""
        uid = self.user(user).id
        cid = None if channel is None else self._channel(channel).id
        return [
            m
            for m in self._messages.values()
            if not m.deleted and m.visible_to == uid and (cid is None or m.channel_id == cid)
        ]

    def last_message(self, channel: ChannelRef = None) -> StoredMessage:
        msgs = self.messages(channel)
        if not msgs:
            raise LookupError("no public messages in channel")
        return msgs[-1]

    def close_dms(self, user: UserRef, closed: bool = True) -> None:
        """``user`` takes no direct messages from the bot (their privacy setting for the
        server, or they blocked it): opening the DM channel still works, but a message
        posted there answers 403 50007 "Cannot send messages to this user".
        https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
        (50007; also https://github.com/discord/discord-api-docs/issues/61)"""
        uid = self.user(user).id
        if closed:
            self.closed_dms.add(uid)
        else:
            self.closed_dms.discard(uid)

    def dm_messages(self, user: UserRef, *, deleted: bool = False) -> list[StoredMessage]:
        """The bot's direct messages to ``user`` (`deleted`: the deleted ones too)."""
        uid = self.user(user).id
        return [
            m
            for m in self._messages.values()
            if (deleted or not m.deleted)
            and (ch := self.channels.get(m.channel_id)) is not None
            and ch.type == 1
            and ch.recipient is not None
            and ch.recipient.id == uid
        ]

    def threads(self, channel: ChannelRef = None) -> list[FakeThread]:
        """The threads started under a text channel, archived ones too (deleted ones
        not), oldest first."""
        parent = self._channel(channel)
        return [t for t in self._threads.values() if t.parent_id == parent.id and not t.deleted]

    def thread(self, ref: ThreadRef) -> FakeThread:
        """A thread by object or id, or the thread started from a message (deleted ones
        too, marked ``deleted``)."""
        if isinstance(ref, FakeThread):
            return ref
        if isinstance(ref, StoredMessage):
            if ref.thread is None:
                raise LookupError(f"no thread was started from message {ref.id}")
            return ref.thread
        if ref not in self._threads:
            raise LookupError(f"no thread {ref}")
        return self._threads[ref]

    def commands(self, guild: FakeGuild | int | None = None) -> dict[str, dict[str, Any]]:
        """Synced commands by name: global ones, or the guild's when ``guild`` is given."""
        if guild is None:
            cmds = self.global_commands
        else:
            gid = guild.id if isinstance(guild, FakeGuild) else guild
            cmds = self.guild_commands.get(gid, {})
        return {c["name"]: c for c in cmds.values()}

    def command(self, name: str, guild: FakeGuild | int | None = None) -> dict[str, Any]:
        """A synced command by name (guild commands first, then global)."""
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        if gid is None:
            gid = self.guild.id
        found = self.commands(gid).get(name) or self.commands().get(name)
        if found is None:
            names = sorted(set(self.commands(gid)) | set(self.commands()))
            raise LookupError(f"command {name!r} was not synced; synced: {names}")
        return found

    @property
    def callback_latencies(self) -> list[float]:
        """Seconds from INTERACTION_CREATE sent to the bot's callback, per answered interaction."""
        return [i.callback.latency for i in self.interactions.values() if i.responded]

    def pings(self, *, bot_only: bool = True) -> list[tuple[StoredMessage, Pings]]:
        """Every message that notified anyone, with whom (mentions.py), oldest first;
        the bot's messages only unless ``bot_only`` is False."""
        return [(m, m.pings) for m in self._messages.values()
                if m.pings and (not bot_only or int(m.author["id"]) == self.bot_user.id)]

    def hold_arrivals(self) -> None:
        """A slow way to Discord (a starved machine, the network): the bot token's
        requests sent from now on are held before Discord counts them, until
        `release_arrivals`, when they all arrive at once. Discord counts a request
        against the global limit when it arrives
        (https://docs.discord.com/developers/topics/rate-limits#global-rate-limit: "up to
        50 requests per second to our API"), so held ones count in the same second."""
        self._arrivals = asyncio.Event()

    def release_arrivals(self) -> None:
        if self._arrivals is not None:
            self._arrivals.set()
            self._arrivals = None

    def global_requests(self) -> list[GlobalRequest]:
        """The requests counted against the bot token's global limit (every route but
        the interaction ones), with their times (time.monotonic()) and routes; refused
        ones (a global 429) are marked ``refused``."""
        return list(self.global_limiter.requests) if self.global_limiter else []

    def requests_to(self, method: str, path_regex: str) -> list[RecordedRequest]:
        rx = re.compile(path_regex)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every request/event)."""
        assert self._changed is not None, "fake not started"
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                result = predicate()
                if result:
                    return result
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(left, 0.1))

    async def wait_ready(self, timeout: float = 5.0) -> None:
        """Until a bot identified and got READY + all GUILD_CREATEs."""
        assert self._ready_event is not None, "fake not started"
        await asyncio.wait_for(self._ready_event.wait(), timeout)

    async def _notify(self) -> None:
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    # ------------------------------------------------------------------ gateway
    @property
    def connected(self) -> bool:
        return any(c.session is not None and not c.ws.closed for c in self._conns)

    def connected_for(self, guild_id: int | None) -> bool:
        """Whether a bot connection receives the events of `guild_id` (its shard's)."""
        return any(c.session is not None and not c.ws.closed
                   and c.session.receives(guild_id) for c in self._conns)

    @property
    def connected_shards(self) -> list[list[int] | None]:
        """The `[shard_id, shard_count]` of every identified live connection (None: one
        that identified without a shard, which receives everything)."""
        return [c.session.shard for c in self._conns
                if c.session is not None and not c.ws.closed]

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        per_session: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Send a DISPATCH event to every identified session (buffered while disconnected)
        that receives its guild's events (``data["guild_id"]``; its shard's sessions).

        ``intent``: only sessions that asked for it. ``per_session(intents, data)`` may
        adapt the data to a session's intents."""
        raw_guild = data.get("guild_id")
        guild_id = int(raw_guild) if raw_guild is not None else None
        for session in list(self._sessions.values()):
            if intent is not None and not session.intents & intent:
                continue
            if not session.receives(guild_id):
                continue
            session_data = per_session(session.intents, data) if per_session else data
            await self.dispatch_to(session, event, session_data)

    async def close_gateway(self, code: int = 4000) -> None:
        """Close the bot's websocket(s); with a resumable code discord.py RESUMEs."""
        for conn in list(self._conns):
            await conn.close(code, b"closed by test")

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py reconnects and resumes."""
        for conn in list(self._conns):
            await conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def invalidate_session(self, resumable: bool = False) -> None:
        for conn in list(self._conns):
            await conn.send({"op": 9, "d": resumable, "s": None, "t": None})

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        query = dict(request.query)
        # discord.py asks for transport compression in the query (zlib-stream, or
        # zstd-stream when a zstd module is importable). zlib-stream is implemented;
        # otherwise plain text frames are sent, which discord.py also accepts.
        compressor = zlib.compressobj() if query.get("compress") == "zlib-stream" else None
        conn = _Conn(ws, compressor, query)
        self._conns.append(conn)
        self.requests.append(
            RecordedRequest("GET", GATEWAY_PATH, query, None, time.monotonic(), 101)
        )
        try:
            await conn.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    payload = json.loads(
                        zlib.decompress(msg.data) if msg.data[:1] == b"x" else msg.data
                    )
                else:
                    break
                if self.record_gateway:
                    self.gateway_received.append(payload)
                await self._gateway_op(conn, payload)
                if ws.closed:
                    break
        finally:
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                _log.debug(
                    "gateway closed %s (by server: %s)", ws.close_code, conn.closed_by_server
                )
                if ws.close_code in (1000, 1001) and not conn.closed_by_server:
                    # a clean close by the client ends the session (no RESUME possible)
                    self._sessions.pop(session.id, None)
            self._conns.remove(conn)
            await self._notify()
        return ws

    async def _gateway_op(self, conn: _Conn, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            conn.heartbeats += 1
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            self.identify_payloads.append(d)
            if d.get("token") != self.token:
                await conn.close(4004, b"Authentication failed.")
                return
            shard = d.get("shard")
            if shard is not None and not _valid_shard(shard):
                await conn.close(4010, b"Invalid shard.")
                return
            session = _Session(secrets.token_hex(16), int(d.get("intents") or 0), shard)
            self._sessions[session.id] = session
            session.conn = conn
            conn.session = session
            await self.dispatch_to(session, "READY", self._ready_payload(session))
            joined = self.clock.iso()
            bot_only = None if session.intents & INTENT_GUILD_MEMBERS else self.bot_user.id
            for guild in self._guilds_of(session):
                data = guild.to_create_dict(joined, bot_id=bot_only)
                data["threads"] = self._active_threads(guild.id)
                await self.dispatch_to(session, "GUILD_CREATE", data)
            assert self._ready_event is not None
            self._ready_event.set()
        elif op == 6:
            session = self._sessions.get(d.get("session_id"))
            if session is None or d.get("token") != self.token:
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            session.conn = conn
            conn.session = session
            last = int(d.get("seq") or 0)
            for seq, text in session.events:
                if seq > last:
                    await conn.send_raw(text)
            await self.dispatch_to(session, "RESUMED", {})
        elif op == 8:
            await self._request_members(conn, d)
        elif op in (3, 4):
            pass
        else:
            await conn.close(4001, b"Unknown opcode.")
        await self._notify()

    async def dispatch_to(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        text = json.dumps(payload)
        session.events.append((session.seq, text))
        del session.events[:-1000]
        if self.record_gateway:
            self.gateway_sent.append(payload)
        if session.conn is not None:
            await session.conn.send_raw(text)

    def _ready_payload(self, session: _Session) -> dict[str, Any]:
        data: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.to_dict(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._guilds_of(session)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        data["shard"] = session.shard or [0, 1]
        return data

    def _guilds_of(self, session: _Session) -> list[FakeGuild]:
        # (a server that removed the bot is not the bot's: lifecycle.remove_bot)
        return [g for g in self.guilds.values()
                if session.receives(g.id) and self.bot_user.id in g.members]

    async def _request_members(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.session is None:
            return
        gids = d.get("guild_id")
        gids = gids if isinstance(gids, list) else [gids]
        for gid in gids:
            guild = self.guilds.get(int(gid))
            if guild is None:
                continue
            members = list(guild.members.values())
            if d.get("user_ids"):
                wanted = {int(x) for x in d["user_ids"]}
                members = [m for m in members if m.user.id in wanted]
            elif d.get("query"):
                members = [m for m in members if m.user.name.startswith(d["query"])]
            if d.get("limit"):
                members = members[: int(d["limit"])]
            data: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [m.to_dict() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce") is not None:
                data["nonce"] = d["nonce"]
            await self.dispatch_to(conn.session, "GUILD_MEMBERS_CHUNK", data)

    # ------------------------------------------------------------------ HTTP plumbing
    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        self._routes.append(_Route(method, re.compile(pattern), handler, auth))

    async def _http_handler(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        body: Any = None
        files: list[tuple[str, str, bytes, str | None]] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            # Part by part into memory: request.post() would write every file to a
            # temporary file through a worker thread, a cost that is the fake's, not
            # the bot's (pictures are uploaded at every table change in bench/bot.py).
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader), "no nested multipart at Discord"
                data = await part.read()
                if part.filename is not None:
                    files.append((part.name or "", part.filename, bytes(data),
                                  part.headers.get("Content-Type")))
                elif part.name == "payload_json":
                    body = json.loads(data)
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
        sub = path[len(API_PREFIX) :] if path.startswith(API_PREFIX) else path
        record = RecordedRequest(
            request.method,
            sub,
            dict(request.query),
            body,
            time.monotonic(),
            files=[(f[1], f[2]) for f in files],
        )
        self.requests.append(record)
        try:
            response = await self._serve(request, sub, path, body, files, record)
        except HTTPError as exc:
            err: dict[str, Any] = {"message": exc.message, "code": exc.code}
            if exc.errors:
                err["errors"] = exc.errors
            if exc.status not in (401, 404) or exc.code != 0:
                self.client_errors.append((record, err))
                _log.warning("fake discord answered %s %s: %s", request.method, sub, err)
            response = json_response(err, exc.status)
        record.status = response.status
        self._count_invalid(response.status, dict(response.headers))
        await self._notify()
        return response

    async def _serve(
        self,
        request: web.Request,
        sub: str,
        path: str,
        body: Any,
        files: list[tuple[str, str, bytes, str | None]],
        record: RecordedRequest,
    ) -> web.StreamResponse:
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if path.startswith("/avatars/"):
            return self._serve_avatar(path, request.query)
        if not path.startswith(API_PREFIX):
            self.unknown_routes.append(record)
            raise HTTPError(404, 0, "404: Not Found")
        for route in self._routes:
            if route.method != request.method:
                continue
            m = route.regex.fullmatch(sub)
            if m is None:
                continue
            if route.auth:
                if request.headers.get("Authorization") != f"Bot {self.token}":
                    raise HTTPError(401, 0, "401: Unauthorized")
                record.authorized = True
                if self._arrivals is not None:  # hold_arrivals: on the way still
                    await self._arrivals.wait()
            headers: dict[str, str] = {}
            # the interaction routes (served without the bot token) are exempt from the
            # global limit (ratelimit.GLOBAL_LIMIT), not from their own buckets
            decision = (self.global_limiter.check(request.method, sub)
                        if route.auth and self.global_limiter is not None else None)
            if decision is None and self.rate_limiter is not None:
                decision = self.rate_limiter.check(request.method, sub)
            if decision is not None:
                headers = decision.headers
                if not decision.allowed:
                    self.rate_limited.append(record)
                    return json_response(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": round(decision.retry_after, 3),
                            "global": decision.rule == "global",
                        },
                        429,
                        # "Via" tells discord.py it is Discord's 429, not a Cloudflare ban
                        {**headers, "Via": "1.1 google"},
                    )
            response = await route.handler(_Ctx(request, m, body, files, record))
            for k, v in headers.items():
                response.headers[k] = v
            return response
        self.unknown_routes.append(record)
        raise HTTPError(404, 0, "404: Not Found")

    def give_avatar(self, name: str) -> str:
        """The user sets an avatar: its hash (their user object names it from now on)."""
        user = self.user(name)
        user.avatar = f"{user.id:x}"[-8:].rjust(32, "a")
        return user.avatar

    def _serve_avatar(self, path: str, query: Any) -> web.Response:
        """The CDN's avatar of a user (the fake's origin plays cdn.discordapp.com's):
        https://discord.com/developers/docs/reference#image-formatting-cdn-endpoints,
        "User Avatar avatars/user_id/user_avatar.png", "The size can be any power of two
        between 16 and 4096"; a hash the user does not have is not found."""
        parts = path.split("/")
        try:
            user = self._users_by_id[int(parts[2])]
        except (ValueError, IndexError, KeyError):
            raise HTTPError(404, 0, "404: Not Found") from None
        size = query.get("size", "128")
        if user.avatar is None or parts[3:] != [f"{user.avatar}.png"] \
                or not size.isdigit() or int(size) not in {2 ** n for n in range(4, 13)}:
            raise HTTPError(404, 0, "404: Not Found")
        return web.Response(body=avatar_png(user.id, int(size)), content_type="image/png")

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        try:
            mid, aid = int(parts[2]), int(parts[3])
            att = next(a for a in self._messages[mid].attachments if a.id == aid)
        except (ValueError, IndexError, KeyError, StopIteration):
            raise HTTPError(404, 0, "404: Not Found") from None
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    def _register_routes(self) -> None:
        r = self._route
        snow = r"(\d+)"
        # the bot's token or a member's Bearer token (the Activity's), checked in _get_me
        r("GET", r"/users/@me", self._get_me, auth=False)
        r("POST", r"/oauth2/token", self._oauth2_token, auth=False)
        r("GET", rf"/applications/{snow}/activity-instances/([^/]+)", self._activity_instance)
        r("GET", rf"/users/{snow}", self._get_user)
        r("POST", r"/users/@me/channels", self._create_dm)
        r("GET", r"/oauth2/applications/@me", self._get_app)
        r("GET", r"/applications/@me", self._get_app)
        r("GET", r"/gateway", self._get_gateway, auth=False)
        r("GET", r"/gateway/bot", self._get_gateway)
        cmds = rf"/applications/{snow}(?:/guilds/{snow})?/commands"
        r("GET", cmds, self._get_commands)
        r("PUT", cmds, self._put_commands)
        r("POST", cmds, self._post_command)
        r("GET", cmds + rf"/{snow}", self._get_command)
        r("PATCH", cmds + rf"/{snow}", self._patch_command)
        r("DELETE", cmds + rf"/{snow}", self._delete_command)
        r("GET", rf"/channels/{snow}", self._get_channel)
        r("PATCH", rf"/channels/{snow}", self._edit_thread)
        r("DELETE", rf"/channels/{snow}", self._delete_thread)
        r("POST", rf"/channels/{snow}/threads", self._start_thread)
        r("POST", rf"/channels/{snow}/messages/{snow}/threads", self._start_thread_from_message)
        members = rf"/channels/{snow}/thread-members"
        r("GET", members, self._list_thread_members)
        r("GET", members + rf"/{snow}", self._get_thread_member)
        r("PUT", members + r"/(@me|\d+)", self._put_thread_member)
        r("DELETE", members + r"/(@me|\d+)", self._delete_thread_member)
        r("GET", rf"/guilds/{snow}/threads/active", self._list_active_threads)
        r("POST", rf"/channels/{snow}/typing", self._typing)
        r("GET", rf"/channels/{snow}/messages", self._list_messages)
        r("POST", rf"/channels/{snow}/messages", self._create_message)
        r("GET", rf"/channels/{snow}/messages/{snow}", self._get_message)
        r("PATCH", rf"/channels/{snow}/messages/{snow}", self._edit_message)
        r("DELETE", rf"/channels/{snow}/messages/{snow}", self._delete_message)
        r("PUT", rf"/channels/{snow}/messages/{snow}/reactions/([^/]+)/@me", self._no_content)
        r("DELETE", rf"/channels/{snow}/messages/{snow}/reactions/([^/]+)/@me", self._no_content)
        r("GET", rf"/guilds/{snow}", self._get_guild)
        r("GET", rf"/guilds/{snow}/channels", self._get_guild_channels)
        r("GET", rf"/guilds/{snow}/members/{snow}", self._get_member)
        r("GET", rf"/guilds/{snow}/roles", self._get_roles)
        r("POST", rf"/interactions/{snow}/([^/]+)/callback", self._callback, auth=False)
        hook = rf"/webhooks/{snow}/([^/]+)"
        r("POST", hook, self._webhook_route(self._followup), auth=False)
        r(
            "GET",
            hook + r"/messages/(@original|\d+)",
            self._webhook_route(self._webhook_get),
            auth=False,
        )
        r(
            "PATCH",
            hook + r"/messages/(@original|\d+)",
            self._webhook_route(self._webhook_edit),
            auth=False,
        )
        r(
            "DELETE",
            hook + r"/messages/(@original|\d+)",
            self._webhook_route(self._webhook_delete),
            auth=False,
        )

    # ------------------------------------------------------------------ REST: misc
    async def _no_content(self, ctx: _Ctx) -> web.Response:
        return web.Response(status=204)

    async def _typing(self, ctx: _Ctx) -> web.Response:
        self._need_access(self._need_channel(ctx.int_group(1)))
        return web.Response(status=204)

    async def _get_me(self, ctx: _Ctx) -> web.Response:
        authorization = ctx.request.headers.get("Authorization")
        if authorization == f"Bot {self.token}":
            ctx.record.authorized = True
            return json_response({**self.bot_user.to_dict(), "verified": True,
                                  "mfa_enabled": False})
        user_id = self.activity.user_of(authorization)
        if user_id is None:
            raise HTTPError(401, 0, "401: Unauthorized")
        return json_response(self._users_by_id[user_id].to_dict())

    async def _oauth2_token(self, ctx: _Ctx) -> web.Response:
        """https://discord.com/developers/docs/topics/oauth2#authorization-code-grant: a
        code for a member's access token (activity.py holds the rules)."""
        try:
            return json_response(self.activity.exchange(
                ctx.json, ctx.request.headers.get("Authorization")))
        except OAuthError as exc:
            return json_response(exc.body, exc.status)

    async def _activity_instance(self, ctx: _Ctx) -> web.Response:
        """https://discord.com/developers/docs/resources/application#get-application-
        activity-instance: the instance with the bot token of its application; "if found,
        otherwise it returns a 404" (https://github.com/discord/discord-api-docs/pull/6981)."""
        instance = self.activity.instances.get(ctx.group(2))
        if ctx.int_group(1) != self.app_id or instance is None:
            raise HTTPError(404, 0, "404: Not Found")
        return json_response(instance.to_dict(self.app_id))

    async def _get_user(self, ctx: _Ctx) -> web.Response:
        user = self._users_by_id.get(ctx.int_group(1))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return json_response(user.to_dict())

    async def _create_dm(self, ctx: _Ctx) -> web.Response:
        user = self._users_by_id.get(int(ctx.body.get("recipient_id", 0)))
        if user is None:
            raise HTTPError(400, 50035, "Invalid Form Body")
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient is user:
                return json_response(ch.to_dict())
        ch = FakeChannel(self._snowflake(), "", None, 1, 0, recipient=user)
        self.channels[ch.id] = ch
        return json_response(ch.to_dict())

    async def _get_app(self, ctx: _Ctx) -> web.Response:
        return json_response(
            {
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner.to_dict(),
                "team": None,
                "bot": self.bot_user.to_dict(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, ctx: _Ctx) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_channel(self, ctx: _Ctx) -> web.Response:
        channel = self._need_channel(ctx.int_group(1))
        self._need_access(channel)
        if isinstance(channel, FakeThread):
            return json_response(channel.to_dict(member_for=self.bot_user.id))
        return json_response(channel.to_dict())

    async def _get_guild(self, ctx: _Ctx) -> web.Response:
        guild = self._need_guild(ctx.int_group(1))
        data = guild.to_create_dict(self.clock.iso())
        for key in ("channels", "members", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def _get_guild_channels(self, ctx: _Ctx) -> web.Response:
        guild = self._need_guild(ctx.int_group(1))
        return json_response([c.to_dict() for c in guild.channels.values()])

    async def _get_roles(self, ctx: _Ctx) -> web.Response:
        guild = self._need_guild(ctx.int_group(1))
        return json_response([r.to_dict() for r in guild.roles.values()])

    async def _get_member(self, ctx: _Ctx) -> web.Response:
        guild = self._need_guild(ctx.int_group(1))
        member = guild.members.get(ctx.int_group(2))
        if member is None:
            raise HTTPError(404, 10007, "Unknown Member")
        return json_response(member.to_dict())

    def _need_guild(self, gid: int) -> FakeGuild:
        guild = self.guilds.get(gid)
        if guild is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return guild

    def _need_channel(self, cid: int) -> FakeChannel:
        ch = self.channels.get(cid)
        if ch is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return ch

    # ------------------------------------------------------------------ permissions
    def permissions_in(self, channel: ChannelRef, user: UserRef | None = None) -> int:
        """A member's permissions in a channel or thread (default: the bot's), as
        Discord computes them (permissions.py); in a DM, what Discord gives there."""
        ch = self._channel(channel)
        uid = self.bot_user.id if user is None else self.user(user).id
        guild = self.guilds.get(ch.guild_id or 0)
        if guild is None:
            return DEFAULT_MEMBER_PERMISSIONS
        in_thread = isinstance(ch, FakeThread)
        if in_thread and not self._can_see_thread(ch, uid):
            return 0
        parent = self.channels.get(ch.parent_id) if isinstance(ch, FakeThread) else ch
        member = guild.members.get(uid)
        if member is None and uid == self.bot_user.id:
            return 0  # removed from the server (lifecycle.remove_bot): no access at all
        perms = apply_overwrites(
            guild.member_permissions(uid), parent.overwrites if parent else {},
            guild_id=guild.id, user_id=uid, roles=member.roles if member else [])
        return implicit(perms, in_thread=in_thread)

    def set_bot_permissions(self, channel: ChannelRef, allow: int = 0, deny: int = 0
                            ) -> _Pending:
        """Set the bot's own permission overwrite in a text channel (its threads follow
        it); ``allow=deny=0`` removes it. The bot hears of it by CHANNEL_UPDATE, as
        from Discord: ``await`` the result to wait until that was sent."""
        ch = self._channel(channel)
        if isinstance(ch, FakeThread) or ch.guild_id is None:
            raise ValueError("overwrites live on a server's text channel (threads follow it)")
        if allow or deny:
            ch.overwrites[self.bot_user.id] = Overwrite(self.bot_user.id, 1, allow, deny)
        else:
            ch.overwrites.pop(self.bot_user.id, None)
        return self._in_background(self.dispatch("CHANNEL_UPDATE", ch.to_dict()))

    def bot_permissions(self, channel: ChannelRef = None) -> int:
        """The bot's permissions in a channel (what interactions carry as app_permissions)."""
        return self.permissions_in(channel)

    def _in_background(self, coro: Coroutine[Any, Any, None]) -> _Pending:
        """Run ``coro`` now if a loop runs (else drop it: no bot can be listening)."""
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return _Pending(None)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return _Pending(task)

    def _need_access(self, channel: FakeChannel, permission: int = 0) -> int:
        """The bot's permissions in ``channel``; 403 50001 Missing Access without View
        Channel, 403 50013 Missing Permissions without ``permission``
        (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json: 50001
        "Missing access", 50013 "You lack permissions to perform that action")."""
        if not self.check_permissions or channel.guild_id is None:
            return self.permissions_in(channel)
        perms = self.permissions_in(channel)
        if not perms & VIEW_CHANNEL:
            raise HTTPError(403, 50001, "Missing Access")
        if permission and perms & permission != permission:
            raise HTTPError(403, 50013, "Missing Permissions")
        return perms

    def _need_post_rights(self, channel: FakeChannel, body: dict[str, Any], files: int) -> None:
        """What posting needs (https://discord.com/developers/docs/resources/message#create-message:
        "requires the SEND_MESSAGES permission", SEND_MESSAGES_IN_THREADS in a thread);
        embeds need Embed Links and files Attach Files, else Discord answers 403 50013
        (https://github.com/discordjs/discord.js/discussions/7545; our reading: the same
        for an edit that brings embeds or files)."""
        send = SEND_MESSAGES_IN_THREADS if isinstance(channel, FakeThread) else SEND_MESSAGES
        self._need_content_rights(channel, body, files, send)

    def _need_content_rights(self, channel: FakeChannel, body: dict[str, Any], files: int,
                             permission: int = 0) -> None:
        needed = permission
        if body.get("embeds"):
            needed |= EMBED_LINKS
        if files:
            needed |= ATTACH_FILES
        self._need_access(channel, needed)

    # ------------------------------------------------------------------ REST: threads
    def _bot_permissions(self, channel: FakeChannel) -> int:
        return self.permissions_in(channel)

    def _need_bot_permission(self, channel: FakeChannel, permission: int) -> None:
        self._need_access(channel)
        if not self._bot_permissions(channel) & permission:
            raise HTTPError(403, 50013, "Missing Permissions")

    def _need_thread(self, channel_id: int) -> FakeThread:
        channel = self._need_channel(channel_id)
        if not isinstance(channel, FakeThread):
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _thread_parent(self, channel_id: int) -> FakeChannel:
        """The text channel a thread is started in (not a DM, not a thread)."""
        channel = self._need_channel(channel_id)
        if channel.type != GUILD_TEXT or channel.guild_id is None:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _check_thread_body(self, body: dict[str, Any], **kwargs: Any) -> None:
        errors = validate_thread(body, **kwargs) if self.validate else {}
        if errors:
            raise HTTPError(400, 50035, "Invalid Form Body", errors)

    def _can_see_thread(self, thread: FakeThread, user_id: int) -> bool:
        """Public threads: whoever sees the parent; private ones: their members and
        moderators (MANAGE_THREADS)."""
        if not thread.private or user_id in thread.members:
            return True
        guild = self.guilds[thread.guild_id or 0]
        return bool(guild.member_permissions(user_id) & MANAGE_THREADS)

    def _active_threads(self, guild_id: int) -> list[dict[str, Any]]:
        """Threads of the guild the bot is synced (GUILD_CREATE ``threads``): the
        unarchived ones it can see, with its thread member where it is one."""
        bot = self.bot_user.id
        return [
            t.to_dict(member_for=bot)
            for t in self._threads.values()
            if t.guild_id == guild_id
            and not t.deleted
            and not t.archived
            and self._can_see_thread(t, bot)
        ]

    async def _open_thread(
        self,
        parent: FakeChannel,
        body: dict[str, Any],
        *,
        thread_id: int,
        thread_type: int,
        starter: StoredMessage | None = None,
    ) -> FakeThread:
        """Start a thread the bot owns and tell the gateway: THREAD_CREATE (newly
        created), then the bot's own THREAD_MEMBERS_UPDATE."""
        thread = FakeThread(
            id=thread_id,
            name=body["name"],
            guild_id=parent.guild_id,
            type=thread_type,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            starter_message_id=starter.id if starter is not None else None,
            create_timestamp=self.clock.iso(),
            archive_timestamp=self.clock.iso(),
        )
        thread.members[self.bot_user.id] = self.clock.iso()
        self._threads[thread.id] = thread
        self.channels[thread.id] = thread
        await self.dispatch("THREAD_CREATE", {**thread.to_dict(), "newly_created": True})
        await self._announce_thread_members(thread, added=[self.bot_user.id])
        return thread

    async def _start_thread(self, ctx: _Ctx) -> web.Response:
        parent = self._thread_parent(ctx.int_group(1))
        body = ctx.body
        self._check_thread_body(body, creating=True, types=(PUBLIC_THREAD, PRIVATE_THREAD))
        # API v10 still starts a private thread when no type is given
        thread_type = int(body.get("type") or PRIVATE_THREAD)
        needed = CREATE_PRIVATE_THREADS if thread_type == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        self._need_bot_permission(parent, needed)
        thread = await self._open_thread(
            parent, body, thread_id=self._snowflake(), thread_type=thread_type
        )
        return json_response(thread.to_dict(member_for=self.bot_user.id), 201)

    async def _start_thread_from_message(self, ctx: _Ctx) -> web.Response:
        parent = self._thread_parent(ctx.int_group(1))
        message = self._need_message(parent.id, ctx.int_group(2))
        if message.visible_to is not None:
            raise HTTPError(404, 10008, "Unknown Message")
        body = ctx.body
        self._check_thread_body(body, creating=True)
        self._need_bot_permission(parent, CREATE_PUBLIC_THREADS)
        if message.thread is not None:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
        # Discord: the thread has the id of the message it starts from
        thread = await self._open_thread(
            parent, body, thread_id=message.id, thread_type=PUBLIC_THREAD, starter=message
        )
        message.thread = thread
        message.flags |= HAS_THREAD
        await self._announce_update(message)
        starter = self._new_message(
            thread, {}, [], author=message.author, msg_type=THREAD_STARTER_MESSAGE
        )
        starter.message_reference = {
            "type": 0,
            "message_id": str(message.id),
            "channel_id": str(parent.id),
            "guild_id": str(parent.guild_id),
        }
        starter.referenced = message
        await self._announce_create(starter)
        return json_response(thread.to_dict(member_for=self.bot_user.id), 201)

    async def _edit_thread(self, ctx: _Ctx) -> web.Response:
        channel = self._need_channel(ctx.int_group(1))
        if not isinstance(channel, FakeThread):
            # editing other channels is not implemented: flag it like an unknown route
            self.unknown_routes.append(ctx.record)
            raise HTTPError(404, 0, "404: Not Found")
        body = ctx.body
        self._check_thread_body(body, creating=False)
        moderator = bool(self._bot_permissions(channel) & MANAGE_THREADS)
        # Discord: slowmode and locking need MANAGE_THREADS; the rest the thread's creator
        if not moderator and (
            {"locked", "rate_limit_per_user"} & set(body)
            or channel.owner_id != self.bot_user.id
        ):
            raise HTTPError(403, 50013, "Missing Permissions")
        if "name" in body:
            channel.name = body["name"]
        for key in ("archived", "locked", "invitable"):
            if body.get(key) is not None:
                setattr(channel, key, body[key])
        if body.get("auto_archive_duration") is not None:
            channel.auto_archive_duration = body["auto_archive_duration"]
        if "rate_limit_per_user" in body:
            channel.rate_limit_per_user = int(body["rate_limit_per_user"] or 0)
        if {"archived", "auto_archive_duration"} & set(body):
            channel.archive_timestamp = self.clock.iso()
        await self.dispatch("THREAD_UPDATE", channel.to_dict())
        return json_response(channel.to_dict(member_for=self.bot_user.id))

    async def _delete_thread(self, ctx: _Ctx) -> web.Response:
        channel = self._need_channel(ctx.int_group(1))
        if not isinstance(channel, FakeThread):
            self.unknown_routes.append(ctx.record)
            raise HTTPError(404, 0, "404: Not Found")
        self._need_bot_permission(channel, MANAGE_THREADS)
        channel.deleted = True
        del self.channels[channel.id]
        await self.dispatch(
            "THREAD_DELETE",
            {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            },
        )
        return json_response(channel.to_dict())

    def _check_thread_writable(self, thread: FakeThread) -> None:
        """Discord refuses changes in an archived thread, and a locked one to whoever
        lacks MANAGE_THREADS."""
        if thread.archived:
            raise HTTPError(400, 50083, "Thread is archived")
        if thread.locked and not self._bot_permissions(thread) & MANAGE_THREADS:
            raise HTTPError(403, 50013, "Missing Permissions")

    async def _unarchive_for_post(self, thread: FakeThread) -> None:
        """A post in an archived thread unarchives it (a locked one refuses it)."""
        if thread.archived and not thread.locked:
            thread.archived = False
            thread.archive_timestamp = self.clock.iso()
            await self.dispatch("THREAD_UPDATE", thread.to_dict())
        self._check_thread_writable(thread)

    def _thread_member_id(self, ctx: _Ctx, thread: FakeThread) -> int:
        ref = ctx.group(2)
        user_id = self.bot_user.id if ref == "@me" else int(ref)
        guild = self.guilds[thread.guild_id or 0]
        if user_id not in guild.members:
            raise HTTPError(404, 10013, "Unknown User")
        return user_id

    async def _put_thread_member(self, ctx: _Ctx) -> web.Response:
        thread = self._need_thread(ctx.int_group(1))
        user_id = self._thread_member_id(ctx, thread)
        if thread.archived:
            raise HTTPError(400, 50083, "Thread is archived")
        if user_id == self.bot_user.id and not self._can_see_thread(thread, user_id):
            raise HTTPError(403, 50001, "Missing Access")
        await self._add_thread_members(thread, [user_id])
        return web.Response(status=204)

    async def _delete_thread_member(self, ctx: _Ctx) -> web.Response:
        thread = self._need_thread(ctx.int_group(1))
        user_id = self._thread_member_id(ctx, thread)
        if thread.archived:
            raise HTTPError(400, 50083, "Thread is archived")
        moderator = bool(self._bot_permissions(thread) & MANAGE_THREADS)
        creator = thread.private and thread.owner_id == self.bot_user.id
        if user_id != self.bot_user.id and not (moderator or creator):
            raise HTTPError(403, 50013, "Missing Permissions")
        if user_id in thread.members:
            del thread.members[user_id]
            await self._announce_thread_members(thread, removed=[user_id])
        return web.Response(status=204)

    async def _get_thread_member(self, ctx: _Ctx) -> web.Response:
        thread = self._need_thread(ctx.int_group(1))
        user_id = ctx.int_group(2)
        if user_id not in thread.members:
            raise HTTPError(404, 10007, "Unknown Member")
        return json_response(thread.member_dict(user_id))

    async def _list_thread_members(self, ctx: _Ctx) -> web.Response:
        thread = self._need_thread(ctx.int_group(1))
        return json_response([thread.member_dict(uid) for uid in thread.members])

    async def _list_active_threads(self, ctx: _Ctx) -> web.Response:
        guild = self._need_guild(ctx.int_group(1))
        threads = self._active_threads(guild.id)
        members = [t.pop("member") for t in threads if "member" in t]
        return json_response({"threads": threads, "members": members})

    async def _add_thread_members(self, thread: FakeThread, user_ids: list[int]) -> None:
        added = [uid for uid in user_ids if uid not in thread.members]
        for uid in added:
            thread.members[uid] = self.clock.iso()
        if added:
            await self._announce_thread_members(thread, added=added)

    async def _announce_thread_members(
        self, thread: FakeThread, *, added: Iterable[int] = (), removed: Iterable[int] = ()
    ) -> None:
        """THREAD_MEMBERS_UPDATE: always when it is about the bot itself, else only with
        the GUILD_MEMBERS intent (as Discord sends it)."""
        added, removed = list(added), list(removed)
        data: dict[str, Any] = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(thread.members), 50),
        }
        if added:
            data["added_members"] = [thread.member_dict(uid) for uid in added]
        if removed:
            data["removed_member_ids"] = [str(uid) for uid in removed]
        about_bot = self.bot_user.id in added or self.bot_user.id in removed
        await self.dispatch(
            "THREAD_MEMBERS_UPDATE", data, intent=None if about_bot else INTENT_GUILD_MEMBERS
        )

    # ------------------------------------------------------------------ REST: commands
    def _command_store(self, ctx: _Ctx) -> dict[int, dict[str, Any]]:
        if ctx.int_group(1) != self.app_id:
            raise HTTPError(403, 50001, "Missing Access")
        gid = ctx.group(2)
        if gid is None:
            return self.global_commands
        self._need_guild(int(gid))
        return self.guild_commands.setdefault(int(gid), {})

    def _store_command(
        self, store: dict[int, dict[str, Any]], data: dict[str, Any], gid: str | None
    ) -> dict[str, Any]:
        if not isinstance(data, dict) or not data.get("name"):
            raise HTTPError(400, 50035, "Invalid Form Body", {"name": "required"})
        ctype = int(data.get("type", 1))
        existing = next(
            (c for c in store.values() if c["name"] == data["name"] and c["type"] == ctype), None
        )
        cmd = {
            "id": existing["id"] if existing else str(self._snowflake()),
            "application_id": str(self.app_id),
            "version": str(self._snowflake()),
            "type": ctype,
            "name": data["name"],
            "description": data.get("description", ""),
            "options": data.get("options") or [],
            "default_member_permissions": data.get("default_member_permissions"),
            "dm_permission": data.get("dm_permission", True),
            "nsfw": data.get("nsfw", False),
            "contexts": data.get("contexts"),
            "integration_types": data.get("integration_types") or [0],
            "name_localizations": data.get("name_localizations"),
            "description_localizations": data.get("description_localizations"),
        }
        if ctype == PRIMARY_ENTRY_POINT:
            cmd["handler"] = data.get("handler", DISCORD_LAUNCH_ACTIVITY)
        if gid is not None:
            cmd["guild_id"] = gid
        store[int(cmd["id"])] = cmd
        return cmd

    def _check_commands(self, errors: dict[str, Any]) -> None:
        """Refuse a command payload Discord refuses (commands.py)."""
        if self.check_commands and errors:
            raise HTTPError(400, 50035, "Invalid Form Body", errors)

    async def _get_commands(self, ctx: _Ctx) -> web.Response:
        return json_response(list(self._command_store(ctx).values()))

    async def _put_commands(self, ctx: _Ctx) -> web.Response:
        store = self._command_store(ctx)
        if not isinstance(ctx.json, list):
            raise HTTPError(400, 50035, "Invalid Form Body")
        self._check_commands(validate_commands(ctx.json, embedded=self.activity.enabled,
                                               guild=ctx.group(2) is not None))
        names = [(c.get("name"), c.get("type", 1)) for c in ctx.json]
        if len(names) != len(set(names)):
            raise HTTPError(400, 50035, "Invalid Form Body", {"_errors": "duplicate names"})
        old = dict(store)
        store.clear()
        result = []
        for data in ctx.json:
            prev = next((c for c in old.values() if c["name"] == data.get("name")), None)
            if prev is not None:
                store[int(prev["id"])] = prev
            result.append(self._store_command(store, data, ctx.group(2)))
        return json_response(result)

    async def _post_command(self, ctx: _Ctx) -> web.Response:
        store = self._command_store(ctx)
        self._check_commands(validate_command(ctx.json, embedded=self.activity.enabled,
                                              guild=ctx.group(2) is not None))
        if ctx.body.get("type") == PRIMARY_ENTRY_POINT and any(
                c["type"] == PRIMARY_ENTRY_POINT and c["name"] != ctx.body.get("name")
                for c in store.values()):
            # "Your app can only have one Entry Point command" (commands.py)
            self._check_commands({"type": "the app already has an Entry Point command"})
        return json_response(self._store_command(store, ctx.body, ctx.group(2)), 201)

    def _find_command(self, ctx: _Ctx) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
        store = self._command_store(ctx)
        cmd = store.get(ctx.int_group(3))
        if cmd is None:
            raise HTTPError(404, 10063, "Unknown application command")
        return store, cmd

    async def _get_command(self, ctx: _Ctx) -> web.Response:
        return json_response(self._find_command(ctx)[1])

    async def _patch_command(self, ctx: _Ctx) -> web.Response:
        _, cmd = self._find_command(ctx)
        self._check_commands(validate_command({**cmd, **ctx.body},
                                              embedded=self.activity.enabled,
                                              guild="guild_id" in cmd))
        cmd.update({k: v for k, v in ctx.body.items() if k != "id"})
        return json_response(cmd)

    async def _delete_command(self, ctx: _Ctx) -> web.Response:
        store, cmd = self._find_command(ctx)
        del store[int(cmd["id"])]
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: messages
    def _check_payload(self, body: dict[str, Any], *, creating: bool, files: int) -> None:
        if not self.validate:
            return
        errors = validate_message(body, creating=creating, files=files,
                                  check_emoji=self.check_emoji)
        if errors:
            code = 50006 if "_empty" in errors else 50035
            text = "Cannot send an empty message" if code == 50006 else "Invalid Form Body"
            raise HTTPError(400, code, text, errors)

    def _attachments_from(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes, str | None]],
        keep_existing: bool,
    ) -> list[StoredAttachment]:
        uploads: dict[int, tuple[str, bytes, str | None]] = {}
        for i, (fieldname, filename, data, ctype) in enumerate(files):
            m = re.fullmatch(r"files\[(\d+)\]", fieldname)
            uploads[int(m.group(1)) if m else i] = (filename, data, ctype)
        wanted = body.get("attachments")
        existing = {a.id: a for a in message.attachments}
        result: list[StoredAttachment] = []

        def new(idx: int, desc: dict[str, Any]) -> StoredAttachment:
            filename, data, ctype = uploads.pop(idx)
            filename = desc.get("filename") or filename
            aid = self._snowflake()
            return StoredAttachment(
                aid,
                filename,
                data,
                ctype,
                f"{self.base_url}/attachments/{message.id}/{aid}/{filename}",
                desc.get("description"),
            )

        if wanted is None:
            if keep_existing:
                result.extend(message.attachments)
        else:
            for desc in wanted:
                aid = int(desc.get("id", 0))
                if aid in existing:
                    result.append(existing[aid])
                elif aid in uploads:
                    result.append(new(aid, desc))
                else:
                    raise HTTPError(
                        400, 50035, "Invalid Form Body", {"attachments": f"bad id {aid}"}
                    )
        for idx in sorted(uploads):
            result.append(new(idx, {}))
        return result

    def _new_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes, str | None]],
        *,
        author: dict[str, Any] | None = None,
        msg_type: int = 0,
        interaction: FakeInteraction | None = None,
        extra_flags: int = 0,
    ) -> StoredMessage:
        flags = int(body.get("flags") or 0) & (EPHEMERAL | IS_COMPONENTS_V2 | 4 | 4096)
        flags |= extra_flags
        now = self.clock.time()
        msg = StoredMessage(
            id=snowflake(now),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot_user.to_dict(),
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            type=msg_type,
            timestamp=self.clock.iso(now),
            created_at=now,
        )
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.interaction_user_id = interaction.user.id
            msg.webhook_id = self.app_id
            msg.application_id = self.app_id
            if flags & EPHEMERAL:
                msg.visible_to = interaction.user.id
            metadata: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_dict(),
                "authorizing_integration_owners": {"0": str(channel.guild_id or 0)},
            }
            if interaction.source_message is not None:
                metadata["interacted_message_id"] = str(interaction.source_message.id)
            msg.interaction_metadata = metadata
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            msg.message_reference = {
                "type": 0,
                "message_id": str(ref["message_id"]),
                "channel_id": str(ref.get("channel_id") or channel.id),
            }
            if channel.guild_id is not None:
                msg.message_reference["guild_id"] = str(channel.guild_id)
            if msg.type == 0:
                msg.type = 19
        msg.attachments = self._attachments_from(msg, body, files, keep_existing=False)
        if not msg.loading:
            msg.pings = self._pings(msg, body)
        self._messages[msg.id] = msg
        if isinstance(channel, FakeThread) and msg.visible_to is None:
            _count_thread_message(channel, msg)
        return msg

    def _apply_edit(
        self,
        msg: StoredMessage,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes, str | None]],
    ) -> None:
        msg.history.append(msg.to_payload())
        # the first content of a deferred ("thinking") answer is its posting: it notifies
        # like a new message (our reading; any later edit notifies nobody)
        first_content = msg.loading
        for key in ("content", "embeds", "components"):
            if key in body:
                value = body[key]
                setattr(msg, key, (value or "") if key == "content" else list(value or []))
        if "flags" in body and body["flags"] is not None:
            # only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 may change on edit
            mutable = 4 | IS_COMPONENTS_V2
            msg.flags = (msg.flags & ~mutable) | (int(body["flags"]) & mutable)
        if "attachments" in body or files:
            msg.attachments = self._attachments_from(msg, body, files, keep_existing=True)
        msg.flags &= ~LOADING
        if first_content:
            msg.pings = self._pings(msg, body)
        now = self.clock.time()
        if now - msg.created_at > self.OLD_MESSAGE_AGE:
            msg.old_edits.append(now)
        msg.edit_count += 1
        msg.edited_timestamp = self.clock.iso(now)

    def _check_edit_age(self, msg: StoredMessage) -> None:
        """Discord limits the edits of a message older than an hour: 400 30046 "Maximum
        number of edits to messages older than 1 hour reached. Try again later"
        (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json).
        The docs give no number and no routes: our assumption is
        ``old_message_edits`` (3) per message in any hour, on every edit route (the
        bot's own, an interaction's update and its webhook edits) of a public message;
        an ephemeral one is the reader's alone and not limited."""
        if not self.check_message_age or msg.visible_to is not None:
            return
        now = self.clock.time()
        if now - msg.created_at <= self.OLD_MESSAGE_AGE:
            return
        recent = [t for t in msg.old_edits if now - t < 3600.0]
        if len(recent) >= self.old_message_edits:
            raise HTTPError(400, 30046, "Maximum number of edits to messages older than "
                                        "1 hour reached. Try again later")

    def _pings(self, msg: StoredMessage, body: dict[str, Any]) -> Pings:
        """Whom a message pings as it is posted (mentions.py)."""
        if msg.visible_to is not None:
            return NO_PINGS
        channel = self.channels.get(msg.channel_id)
        if channel is None:
            return NO_PINGS
        guild = self.guilds.get(msg.guild_id or 0)
        author = int(msg.author["id"])
        perms = self.permissions_in(channel, author) if guild is not None else 0
        can_everyone = guild is not None and bool(perms & MENTION_EVERYONE)

        def is_member(uid: int) -> bool:
            if uid == author:  # nobody is notified of their own message
                return False
            if guild is None:
                return channel.recipient is not None and uid == channel.recipient.id
            # Discord notifies only members who can see the channel
            return uid in guild.members and bool(self.permissions_in(channel, uid) & VIEW_CHANNEL)

        def role_pingable(rid: int) -> bool:
            role = guild.roles.get(rid) if guild is not None else None
            return role is not None and (role.mentionable or can_everyone)

        replied = None
        ref = msg.message_reference
        if ref is not None and (target := self._messages.get(int(ref["message_id"]))):
            replied = int(target.author["id"])
        allowed = body.get("allowed_mentions")
        return compute_pings(
            msg.content, allowed if isinstance(allowed, dict) else None,
            default_parse=PARSE_USERS if msg.interaction_id is not None else PARSE_ALL,
            is_member=is_member, role_pingable=role_pingable,
            can_mention_everyone=can_everyone, replied_author=replied)

    async def _announce_create(self, msg: StoredMessage) -> None:
        if msg.visible_to is not None:
            return
        data = msg.to_payload()
        guild = self.guilds.get(msg.guild_id or 0)
        if guild is not None:
            member = guild.members.get(int(msg.author["id"]))
            if member is not None:
                member_data = member.to_dict()
                member_data.pop("user")
                data["member"] = member_data
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DM_MESSAGES
        await self.dispatch("MESSAGE_CREATE", data, intent=intent, per_session=self._content_gate)

    def _content_gate(self, intents: int, data: dict[str, Any]) -> dict[str, Any]:
        """Without the MESSAGE_CONTENT intent Discord blanks other users' guild messages
        unless they mention the bot."""
        if intents & INTENT_MESSAGE_CONTENT or data.get("guild_id") is None:
            return data
        if int(data["author"]["id"]) == self.bot_user.id:
            return data
        if (
            f"<@{self.bot_user.id}>" in data["content"]
            or f"<@!{self.bot_user.id}>" in data["content"]
        ):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    async def _announce_update(self, msg: StoredMessage) -> None:
        if msg.visible_to is not None:
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DM_MESSAGES
        await self.dispatch("MESSAGE_UPDATE", msg.to_payload(), intent=intent)

    async def _announce_delete(self, msg: StoredMessage) -> None:
        if msg.visible_to is not None:
            return
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DM_MESSAGES
        await self.dispatch("MESSAGE_DELETE", data, intent=intent)

    def _need_message(self, channel_id: int, message_id: int) -> StoredMessage:
        self._need_channel(channel_id)
        msg = self._messages.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _list_messages(self, ctx: _Ctx) -> web.Response:
        channel = self._need_channel(ctx.int_group(1))
        # https://discord.com/developers/docs/resources/message#get-channel-messages:
        # needs VIEW_CHANNEL, and READ_MESSAGE_HISTORY (else no messages)
        self._need_access(channel, READ_MESSAGE_HISTORY)
        q = ctx.query
        limit = min(int(q.get("limit", 50)), 100)
        msgs = [m for m in self.all_messages(channel) if m.visible_to is None]
        msgs.sort(key=lambda m: m.id, reverse=True)  # newest first, like Discord
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][-limit:]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][: (limit + 1) // 2]
            newer = [m for m in msgs if m.id > around][-(limit // 2) :] if limit // 2 else []
            msgs = newer + older
        return json_response([m.to_payload() for m in msgs[:limit]])

    async def _create_message(self, ctx: _Ctx) -> web.Response:
        channel = self._need_channel(ctx.int_group(1))
        body = ctx.body
        if channel.type == 1 and channel.recipient is not None \
                and channel.recipient.id in self.closed_dms:
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        self._need_post_rights(channel, body, len(ctx.files))
        self._check_payload(body, creating=True, files=len(ctx.files))
        if int(body.get("flags") or 0) & EPHEMERAL:
            raise HTTPError(400, 50035, "Invalid Form Body", {"flags": "ephemeral not allowed"})
        if isinstance(channel, FakeThread):
            await self._unarchive_for_post(channel)
        key = self._nonce_key(body)
        seen = self._nonces.get(key) if key is not None else None
        if seen is not None and time.monotonic() - seen[0] < self.nonce_window:
            return json_response(self._messages[seen[1]].to_payload())
        gate = self.post_gate
        if gate is not None and gate.mode == "dropped":
            return await self._drop_connection(ctx, gate)
        if gate is not None and gate.mode == "lost":
            gate.held += 1
            await self._notify()
            await gate.wait()
            return json_response({"message": "lost on the way"}, 503)
        msg = self._new_message(channel, body, ctx.files)
        if key is not None:
            self._nonces[key] = (time.monotonic(), msg.id)
        await self._announce_create(msg)
        if gate is not None and gate.mode == "made":
            return await self._drop_connection(ctx, gate)
        if gate is not None:
            gate.held += 1
            await self._notify()
            await gate.wait()
        return json_response(msg.to_payload())

    async def _drop_connection(self, ctx: _Ctx, gate: PostGate) -> web.Response:
        """A post of a gate that drops the connection: counted, then closed unanswered
        (the body below is never read: the client sees the server disconnect)."""
        gate.held += 1
        await self._notify()
        assert ctx.request.transport is not None
        ctx.request.transport.close()
        return json_response({"message": "unanswered: the connection is closed"}, 503)

    def _nonce_key(self, body: dict[str, Any]) -> tuple[int, str] | None:
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        if len(str(nonce)) > 25:
            raise HTTPError(400, 50035, "Invalid Form Body", {"nonce": "too long"})
        return (self.bot_user.id, str(nonce))

    async def _get_message(self, ctx: _Ctx) -> web.Response:
        # https://discord.com/developers/docs/resources/message#get-channel-message:
        # "requires the VIEW_CHANNEL and READ_MESSAGE_HISTORY permissions"
        self._need_access(self._need_channel(ctx.int_group(1)), READ_MESSAGE_HISTORY)
        msg = self._need_message(ctx.int_group(1), ctx.int_group(2))
        if msg.visible_to is not None:
            raise HTTPError(404, 10008, "Unknown Message")
        return json_response(msg.to_payload())

    async def _edit_message(self, ctx: _Ctx) -> web.Response:
        msg = self._need_message(ctx.int_group(1), ctx.int_group(2))
        if msg.visible_to is not None:
            raise HTTPError(404, 10008, "Unknown Message")
        if int(msg.author["id"]) != self.bot_user.id:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        channel = self.channels[msg.channel_id]
        self._need_content_rights(channel, ctx.body, len(ctx.files))
        if isinstance(channel, FakeThread):
            self._check_thread_writable(channel)
        self._check_payload(ctx.body, creating=False, files=len(ctx.files))
        self._check_edit_age(msg)
        self._apply_edit(msg, ctx.body, ctx.files)
        await self._announce_update(msg)
        return json_response(msg.to_payload())

    async def _delete_message(self, ctx: _Ctx) -> web.Response:
        # https://discord.com/developers/docs/resources/message#delete-message: "If
        # operating on a guild channel and trying to delete a message that was not sent
        # by the current user, this endpoint requires the MANAGE_MESSAGES permission."
        # Its own messages the bot may always delete (with View Channel); another's in a
        # DM never (50003 "Cannot execute action on a DM channel",
        # https://discord.com/developers/docs/topics/opcodes-and-status-codes#json).
        # A deleted or unknown message: 404 10008 "Unknown Message" (_need_message).
        channel = self._need_channel(ctx.int_group(1))
        self._need_access(channel)
        msg = self._need_message(ctx.int_group(1), ctx.int_group(2))
        if msg.visible_to is not None:
            raise HTTPError(404, 10008, "Unknown Message")
        if int(msg.author["id"]) != self.bot_user.id:
            if channel.guild_id is None:
                raise HTTPError(403, 50003, "Cannot execute action on a DM channel")
            self._need_access(channel, MANAGE_MESSAGES)
        self.deletes += 1
        self._mark_deleted(msg)
        await self._announce_delete(msg)
        return web.Response(status=204)

    def _mark_deleted(self, msg: StoredMessage) -> None:
        msg.deleted = True
        channel = self.channels.get(msg.channel_id)
        counted = msg.visible_to is None and msg.type != THREAD_STARTER_MESSAGE
        if isinstance(channel, FakeThread) and counted:
            channel.message_count -= 1

    async def send_user_message(
        self, user: UserRef, channel: ChannelRef, content: str
    ) -> StoredMessage:
        """A message typed by a (fake) human, dispatched as MESSAGE_CREATE. In a thread,
        the author joins it (and unarchives it, if it is not locked)."""
        u = self.user(user)
        ch = self._channel(channel)
        if isinstance(ch, FakeThread):
            self._check_user_in_thread(ch, u)
            if ch.archived or ch.locked:
                raise AssertionError(f"{u.name} cannot post in archived or locked thread {ch.id}")
            await self._add_thread_members(ch, [u.id])
        msg = self._new_message(ch, {"content": content}, [], author=u.to_dict())
        await self._announce_create(msg)
        return msg

    # ------------------------------------------------------------------ REST: interactions
    def _interaction_for(self, iid: int | None, token: str) -> FakeInteraction:
        inter = self._interactions_by_token.get(token)
        if inter is None or (iid is not None and inter.id != iid):
            raise HTTPError(404, 10062, "Unknown interaction")
        return inter

    async def _callback(self, ctx: _Ctx) -> web.Response:
        inter = self._interaction_for(ctx.int_group(1), ctx.group(2))
        try:
            return await self._do_callback(ctx, inter)
        except HTTPError as exc:
            _record_error(inter, ctx, exc)
            raise

    async def _do_callback(self, ctx: _Ctx, inter: FakeInteraction) -> web.Response:
        latency = time.monotonic() - inter.sent_at
        if inter.responded:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if latency > self.interaction_timeout:
            raise HTTPError(404, 10062, "Unknown interaction")
        body = ctx.body
        ctype = int(body.get("type", 0))
        data: dict[str, Any] = body.get("data") or {}
        if ctype not in _ALLOWED_CALLBACKS[inter.type] or (
            ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and inter.source_message is None
        ):
            raise HTTPError(
                400, 50035, "Invalid Form Body", {"type": f"callback {ctype} invalid here"}
            )
        if ctype == LAUNCH_ACTIVITY and not self.activity.enabled:
            # "Only available for apps with Activities enabled" (activity.py); Discord's
            # exact error is not documented: the form's, on its "type".
            raise HTTPError(400, 50035, "Invalid Form Body",
                            {"type": "LAUNCH_ACTIVITY: the app has no Activity enabled"})
        channel = self._need_channel(inter.channel_id)
        message: StoredMessage | None = None
        launched = None
        if ctype == LAUNCH_ACTIVITY:
            launched = self.activity.launch(channel.id, inter.guild_id, inter.user.id)
        elif ctype == CHANNEL_MESSAGE_WITH_SOURCE:
            self._check_payload(data, creating=True, files=len(ctx.files))
            message = self._new_message(
                channel, data, ctx.files, msg_type=20 if inter.type == 2 else 0, interaction=inter
            )
            inter.original = message
            await self._announce_create(message)
        elif ctype == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            message = self._new_message(
                channel,
                {"flags": int(data.get("flags") or 0) & EPHEMERAL},
                [],
                msg_type=20 if inter.type == 2 else 0,
                interaction=inter,
                extra_flags=LOADING,
            )
            inter.original = message
            await self._announce_create(message)
        elif ctype == DEFERRED_UPDATE_MESSAGE:
            inter.original = inter.source_message
        elif ctype == UPDATE_MESSAGE:
            assert inter.source_message is not None
            message = self._messages[inter.source_message.id]
            self._check_payload(data, creating=False, files=len(ctx.files))
            self._check_edit_age(message)
            self._apply_edit(message, data, ctx.files)
            inter.original = message
            await self._announce_update(message)
        elif ctype == MODAL:
            inter.modal = data
        elif ctype == APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
            errors = validate_choices(data.get("choices") or [])
            if errors:
                raise HTTPError(400, 50035, "Invalid Form Body", errors)
        record = CallbackRecord(ctype, data, message, latency)
        inter.callback_future.set_result(record)
        if not _truthy(ctx.query.get("with_response")):
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        resource: dict[str, Any] = {"type": ctype}
        if inter.original is not None and ctype != MODAL:
            info["response_message_id"] = str(inter.original.id)
            info["response_message_loading"] = inter.original.loading
            info["response_message_ephemeral"] = inter.original.ephemeral
        if message is not None:
            resource["message"] = message.to_payload()
        if launched is not None:
            # the interaction callback resource's "activity_instance" ({id}), "only
            # present if type is LAUNCH_ACTIVITY"
            resource["activity_instance"] = {"id": launched.instance_id}
        return json_response({"interaction": info, "resource": resource})

    def _webhook_route(
        self, fn: Callable[[_Ctx, FakeInteraction], Awaitable[web.Response]]
    ) -> Handler:
        async def handler(ctx: _Ctx) -> web.Response:
            inter = self._webhook_interaction(ctx)
            try:
                return await fn(ctx, inter)
            except HTTPError as exc:
                _record_error(inter, ctx, exc)
                raise

        return handler

    def _webhook_interaction(self, ctx: _Ctx) -> FakeInteraction:
        if ctx.int_group(1) != self.app_id:
            raise HTTPError(404, 10015, "Unknown Webhook")
        try:
            inter = self._interaction_for(None, ctx.group(2))
        except HTTPError:
            raise HTTPError(404, 10015, "Unknown Webhook") from None
        # https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction:
        # "Interaction tokens are valid for 15 minutes"; after that every follow-up and
        # webhook edit answers 401 50027 Invalid Webhook Token (the code of
        # https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)
        age = self.clock.time() - inter.created_at
        if self.check_token_expiry and age > self.TOKEN_LIFETIME:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return inter

    def _webhook_message(self, inter: FakeInteraction, ref: str) -> StoredMessage:
        if ref == "@original":
            if not inter.responded:
                raise HTTPError(404, 10015, "Unknown Webhook")
            msg = inter.original
        else:
            mid = int(ref)
            msg = next(
                (m for m in [inter.original, *inter.followups] if m is not None and m.id == mid),
                None,
            )
        if msg is None or msg.deleted:
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, ctx: _Ctx, inter: FakeInteraction) -> web.Response:
        if not inter.responded:
            raise HTTPError(404, 10015, "Unknown Webhook")
        body = ctx.body
        self._check_payload(body, creating=True, files=len(ctx.files))
        original = inter.original
        if (
            original is not None
            and original.loading
            and not inter.followups
            and inter.callback.type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        ):
            # Discord: the first follow-up after a "thinking" defer replaces the loading message
            self._apply_edit(original, body, ctx.files)
            msg = original
            await self._announce_update(msg)
        else:
            msg = self._new_message(
                self._need_channel(inter.channel_id), body, ctx.files, interaction=inter
            )
            await self._announce_create(msg)
        inter.followups.append(msg)
        if not _truthy(ctx.query.get("wait")):
            return web.Response(status=204)
        return json_response(msg.to_payload())

    async def _webhook_get(self, ctx: _Ctx, inter: FakeInteraction) -> web.Response:
        return json_response(self._webhook_message(inter, ctx.group(3)).to_payload())

    async def _webhook_edit(self, ctx: _Ctx, inter: FakeInteraction) -> web.Response:
        msg = self._webhook_message(inter, ctx.group(3))
        self._check_payload(ctx.body, creating=False, files=len(ctx.files))
        self._check_edit_age(msg)
        self._apply_edit(msg, ctx.body, ctx.files)
        await self._announce_update(msg)
        return json_response(msg.to_payload())

    async def _webhook_delete(self, ctx: _Ctx, inter: FakeInteraction) -> web.Response:
        msg = self._webhook_message(inter, ctx.group(3))
        self._mark_deleted(msg)
        await self._announce_delete(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ injecting interactions
    def _member_payload(self, guild: FakeGuild | None, user: FakeUser) -> dict[str, Any] | None:
        if guild is None:
            return None
        member = guild.members.get(user.id)
        if member is None:
            raise AssertionError(f"{user.name} is not a member of guild {guild.name}")
        return member.to_dict(permissions=guild.member_permissions(user.id))

    def _check_user_in_thread(self, thread: FakeThread, user: FakeUser) -> None:
        """What Discord's client would not let a user do in a thread."""
        if thread.deleted:
            raise AssertionError(f"thread {thread.id} was deleted")
        if not self._can_see_thread(thread, user.id):
            raise AssertionError(f"{user.name} is not a member of private thread {thread.id}")

    async def _send_interaction(
        self,
        itype: int,
        user: UserRef,
        channel: ChannelRef,
        data: dict[str, Any],
        *,
        message: StoredMessage | None = None,
        wait: bool,
        timeout: float,
    ) -> FakeInteraction:
        u = self.user(user)
        ch = self._channel(channel)
        if not self.connected_for(ch.guild_id):
            raise AssertionError("no bot is connected to the fake gateway"
                                 + (f" for the shard of guild {ch.guild_id}"
                                    if self.shard_count > 1 else ""))
        if isinstance(ch, FakeThread):
            self._check_user_in_thread(ch, u)
            if ch.archived and itype in (2, 4):
                raise AssertionError(f"no application commands in archived thread {ch.id}")
        guild = self.guilds.get(ch.guild_id or 0)
        # An interaction's `locale` and `guild_locale` are locales of Discord's list
        # (https://discord.com/developers/docs/reference#locales), which has no Persian
        # (nor any right-to-left language): a test cannot make Discord send "fa".
        for locale in (u.locale, *([guild.preferred_locale] if guild is not None else [])):
            if locale not in LOCALES:
                raise AssertionError(f"Discord sends no locale {locale!r} (its locales: "
                                     "https://discord.com/developers/docs/reference#locales)")
        created_at = self.clock.time()
        iid = snowflake(created_at)
        token = f"aW50ZXJhY3Rpb246{iid}:{secrets.token_urlsafe(48)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "data": data,
            "channel": {
                **ch.to_dict(),
                "permissions": str(self.permissions_in(ch, u)),
            },
            "channel_id": str(ch.id),
            "token": token,
            "version": 1,
            # https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object:
            # "Bitwise set of permissions the app has within the channel the interaction
            # was sent from" (its overwrites counted)
            "app_permissions": str(self.permissions_in(ch)),
            "locale": u.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.preferred_locale,
                                "features": []}
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = self._member_payload(guild, u)
            # the member's permissions in the channel, overwrites included (as Discord sends)
            payload["member"]["permissions"] = str(self.permissions_in(ch, u))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = u.to_dict()
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if message is not None:
            payload["message"] = message.to_payload()
        loop = asyncio.get_running_loop()
        inter = FakeInteraction(
            id=iid,
            token=token,
            type=itype,
            user=u,
            channel_id=ch.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            sent_at=time.monotonic(),
            callback_future=loop.create_future(),
            created_at=created_at,
            source_message=message,
        )
        self.interactions[iid] = inter
        self._interactions_by_token[token] = inter
        await self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await inter.wait_callback(timeout)
        return inter

    def _resolve_path(
        self, command: str, guild: FakeGuild | None
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
        """(root command, option defs of the leaf subcommand, path of group/sub names)."""
        parts = command.split()
        root = self.command(parts[0], guild)
        defs: list[dict[str, Any]] = root.get("options") or []
        path: list[str] = []
        for part in parts[1:]:
            sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                have = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {part!r} (have {have})")
            path.append(part)
            defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            have = [o["name"] for o in defs]
            raise LookupError(f"/{command} is a group; pick a subcommand: {have}")
        return root, defs, path

    def _option_value(
        self,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
    ) -> Any:
        otype = opt["type"]
        name = opt["name"]
        if otype in (6, 9) and (isinstance(value, FakeUser | str) or otype == 6):
            u = self.user(value)
            resolved.setdefault("users", {})[str(u.id)] = u.to_dict()
            if guild is not None and u.id in guild.members:
                m = guild.members[u.id].to_dict(permissions=guild.member_permissions(u.id))
                m.pop("user")
                resolved.setdefault("members", {})[str(u.id)] = m
            return str(u.id)
        if otype in (7,):
            ch = self._channel(value)
            # a thread comes with its parent and metadata, as Discord resolves it
            base = ch.to_dict() if isinstance(ch, FakeThread) else {}
            resolved.setdefault("channels", {})[str(ch.id)] = {
                **base,
                "id": str(ch.id),
                "name": ch.name,
                "type": ch.type,
                "permissions": str(DEFAULT_MEMBER_PERMISSIONS),
            }
            return str(ch.id)
        if otype in (8, 9):
            assert guild is not None
            role = value if isinstance(value, FakeRole) else guild.roles[int(value)]
            resolved.setdefault("roles", {})[str(role.id)] = role.to_dict()
            return str(role.id)
        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            if opt.get("min_length") is not None and len(value) < opt["min_length"]:
                raise ValueError(f"option {name!r} shorter than {opt['min_length']}")
            if opt.get("max_length") is not None and len(value) > opt["max_length"]:
                raise ValueError(f"option {name!r} longer than {opt['max_length']}")
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
        elif otype == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"option {name!r} is a number, got {value!r}")
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif otype == 11:
            raise NotImplementedError("attachment options are not supported by the fake")
        if otype in (4, 10):
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"option {name!r}: {value} < min {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"option {name!r}: {value} > max {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} not in choices {choices}")
        return value

    def _build_command_data(
        self,
        command: str,
        options: dict[str, Any] | None,
        channel: FakeChannel,
        focused: str | None = None,
    ) -> dict[str, Any]:
        guild = self.guilds.get(channel.guild_id or 0)
        root, defs, path = self._resolve_path(command, guild)
        by_name = {o["name"]: o for o in defs}

        def registered(name: str) -> str:
            # A test may name an option by the bot's parameter (`turn_timer`); what is
            # sent is the name the bot registered (`turn-timer`), as a member's client
            # sends it. Not leniency: an option the bot did not register stays unknown.
            spoken = name.replace("_", "-")
            return spoken if name not in by_name and spoken in by_name else name

        options = {registered(name): value for name, value in (options or {}).items()}
        if focused is not None:
            focused = registered(focused)
        unknown = set(options) - set(by_name)
        if focused is not None:
            if focused not in by_name:
                unknown.add(focused)
            elif not by_name[focused].get("autocomplete"):
                raise AssertionError(f"/{command} option {focused!r} has no autocomplete")
        if unknown:
            raise LookupError(f"/{command} has no option(s) {sorted(unknown)}; has {list(by_name)}")
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        for opt in defs:
            name = opt["name"]
            if name == focused:
                leaf.append(
                    {
                        "name": name,
                        "type": opt["type"],
                        "value": str(options.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if name not in options:
                if opt.get("required") and focused is None:
                    raise ValueError(f"/{command}: required option {name!r} missing")
                continue
            value = self._option_value(opt, options[name], resolved, guild)
            leaf.append({"name": name, "type": opt["type"], "value": value})
        nested = leaf
        cur_defs = root.get("options") or []
        chain: list[dict[str, Any]] = []
        for part in path:
            sub = next(o for o in cur_defs if o["name"] == part)
            chain.append(sub)
            cur_defs = sub.get("options") or []
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", 1),
            "options": nested,
        }
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """``user`` runs ``/command`` (e.g. ``"amerikaner new"``) in ``channel``.

        Options are checked against the synced definition (names, types, required,
        choices, min/max). Waits for the bot's callback unless ``wait=False``.
        """
        ch = self._channel(channel)
        data = self._build_command_data(command, options, ch)
        return await self._send_interaction(2, user, ch, data, wait=wait, timeout=timeout)

    async def entry_point(self, user: UserRef, channel: ChannelRef, *, timeout: float = 5.0
                          ) -> FakeInteraction | ActivityInstance:
        """``user`` opens the app from the App Launcher in ``channel``: its Entry Point
        command (commands.py). With DISCORD_LAUNCH_ACTIVITY Discord launches the Activity
        itself (the instance is returned; the app hears nothing); with APP_HANDLER the app
        gets the interaction (APPLICATION_COMMAND, its data of type 4) and answers it."""
        if not self.activity.enabled:
            raise AssertionError("no App Launcher entry: the app has no Activity enabled")
        command = next((c for c in self.global_commands.values()
                        if c["type"] == PRIMARY_ENTRY_POINT), None)
        if command is None:
            raise AssertionError("the app has no Entry Point command")
        ch = self._channel(channel)
        if command["handler"] == DISCORD_LAUNCH_ACTIVITY:
            return self.activity.launch(ch.id, ch.guild_id, self.user(user).id)
        assert command["handler"] == APP_HANDLER
        data = {"id": command["id"], "name": command["name"], "type": PRIMARY_ENTRY_POINT}
        if ch.guild_id is not None:
            data["guild_id"] = str(ch.guild_id)
        return await self._send_interaction(2, user, ch, data, wait=True, timeout=timeout)

    async def autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        focused: str,
        options: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """``user`` types in option ``focused`` of ``/command`` (partial text in
        ``options[focused]``, default ""). The answer is in ``.choices``."""
        ch = self._channel(channel)
        data = self._build_command_data(command, options, ch, focused=focused)
        return await self._send_interaction(4, user, ch, data, wait=wait, timeout=timeout)

    def _component_target(
        self, user: FakeUser, message: MessageRef, custom_id: str, types: tuple[int, ...]
    ) -> tuple[StoredMessage, dict[str, Any]]:
        msg = self.message(message)
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if not msg.visible_for(user.id):
            raise AssertionError(f"{user.name} cannot see ephemeral message {msg.id}")
        if int(msg.author["id"]) != self.bot_user.id:
            raise AssertionError(f"message {msg.id} was not sent by the bot")
        comp = msg.component(custom_id)
        if comp is None:
            have = [c.get("custom_id") for c in iter_components(msg.components) if "custom_id" in c]
            raise AssertionError(f"no component {custom_id!r} on message {msg.id}; have {have}")
        if comp.get("type") not in types:
            raise AssertionError(
                f"component {custom_id!r} has type {comp.get('type')}, not {types}"
            )
        if comp.get("disabled"):
            raise AssertionError(f"component {custom_id!r} on message {msg.id} is disabled")
        return msg, comp

    async def click(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """``user`` clicks the button ``custom_id`` on a message the bot sent."""
        u = self.user(user)
        msg, comp = self._component_target(u, message, custom_id, (2,))
        if comp.get("style") in (5, 6):
            raise AssertionError(f"button {custom_id!r} is a link/premium button")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(
            3, u, msg.channel_id, data, message=msg, wait=wait, timeout=timeout
        )

    async def forge_component(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        *,
        values: list[str] | None = None,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """A component interaction with any ``custom_id`` (a button; a select menu with
        ``values``), from ``message``, a message of the bot ``user`` can see. Discord
        sends only ids of the clicked message; a modified client, or a gap on Discord's
        side, could send another: this tests what the bot does then. The payload's
        message shows that one component (discord.py routes a click only to an id it
        finds on the message)."""
        u = self.user(user)
        msg = self.message(message)
        if values is None:
            comp: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        else:
            comp = {"type": 3, "custom_id": custom_id,
                    "options": [{"label": v, "value": v} for v in values]}
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        forged = dataclasses.replace(msg, components=[{"type": 1, "components": [comp]}])
        return await self._send_interaction(
            3, u, msg.channel_id, data, message=forged, wait=wait, timeout=timeout
        )

    async def click_label(
        self, user: UserRef, message: MessageRef, label: str, **kwargs: Any
    ) -> FakeInteraction:
        """Click the button with this label."""
        return await self.click(user, message, self.message(message).button_id(label), **kwargs)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        values: list[Any],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select menu ``custom_id``."""
        u = self.user(user)
        msg, comp = self._component_target(u, message, custom_id, (3, 5, 6, 7, 8))
        ctype = comp["type"]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise AssertionError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        guild = self.guilds.get(msg.guild_id or 0)
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise AssertionError(f"select {custom_id!r}: {bad} not among options {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            otype = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            data["values"] = [
                self._option_value({"type": otype, "name": custom_id}, v, resolved, guild)
                for v in values
            ]
            data["resolved"] = resolved
        return await self._send_interaction(
            3, u, msg.channel_id, data, message=msg, wait=wait, timeout=timeout
        )

    async def submit_modal(
        self,
        user: UserRef,
        interaction: FakeInteraction,
        values: dict[str, str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Submit the modal the bot opened in answer to ``interaction``.

        ``values`` maps text input custom_ids to the typed text."""
        modal = interaction.modal
        if modal is None:
            raise AssertionError(f"interaction {interaction.id} did not open a modal")
        u = self.user(user)
        remaining = dict(values)

        def convert(comp: dict[str, Any]) -> dict[str, Any] | None:
            t = comp.get("type")
            if t == 1:
                kids = [c for c in (convert(x) for x in comp.get("components") or []) if c]
                return {"type": 1, "components": kids}
            if t == 18:
                inner = convert(comp["component"])
                return {"type": 18, "id": comp.get("id", 0), "component": inner}
            if t == 4:
                cid = comp["custom_id"]
                if comp.get("required", True) and not remaining.get(cid, comp.get("value")):
                    raise AssertionError(f"modal input {cid!r} is required")
                value = remaining.pop(cid, comp.get("value") or "")
                return {"type": 4, "id": comp.get("id", 0), "custom_id": cid, "value": value}
            if t == 3:
                cid = comp["custom_id"]
                return {
                    "type": 3,
                    "id": comp.get("id", 0),
                    "custom_id": cid,
                    "values": list(remaining.pop(cid, [])),
                }
            return None

        components = [c for c in (convert(x) for x in modal.get("components") or []) if c]
        if remaining:
            raise AssertionError(f"modal has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._send_interaction(
            5,
            u,
            interaction.channel_id,
            data,
            message=interaction.source_message,
            wait=wait,
            timeout=timeout,
        )


def _valid_shard(shard: Any) -> bool:
    """IDENTIFY's `shard`: [shard_id, shard_count] with 0 <= shard_id < shard_count."""
    return (isinstance(shard, list) and len(shard) == 2
            and all(isinstance(n, int) for n in shard) and 0 <= shard[0] < shard[1])


def _count_thread_message(thread: FakeThread, msg: StoredMessage) -> None:
    """Discord's message counts of a thread leave out its starter message."""
    if msg.type == THREAD_STARTER_MESSAGE:
        return
    thread.message_count += 1
    thread.total_message_sent += 1
    thread.last_message_id = msg.id


def _record_error(inter: FakeInteraction, ctx: _Ctx, exc: HTTPError) -> None:
    """Keep a refused callback or follow-up on its interaction, for tests to assert on."""
    inter.errors.append({"status": exc.status, "code": exc.code, "message": exc.message,
                         "errors": exc.errors, "path": ctx.record.path})


def avatar_png(user_id: int, size: int) -> bytes:
    """A square of one colour, the user's own (a stand-in for their picture)."""
    from PIL import Image

    colour = (user_id * 47 % 200 + 40, user_id * 91 % 200 + 40, user_id * 13 % 200 + 40)
    out = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(out, "PNG")
    return out.getvalue()
