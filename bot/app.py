"""The bot: opens the store, restores unfinished tables, loads the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import signal
import sys
import time
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from bot.config import ConfigError, Settings, load_settings
from bot.discord import RequestBudget, api_route, counted, give_back_server_errors, no_mentions
from bot.discord.access import ChannelAccess
from bot.endpoints import apply_discord_endpoints
from bot.games import COGS, GAMES
from bot.render import seat_label
from bot.store import SqliteStore, Store, open_database
from bot.store.relay import InteractionRelay
from bot.tables.outbox import Outbox
from bot.tables.rerate import rerate_if_due
from bot.tables.service import TableService
from cogs.words import CommandTranslator

if TYPE_CHECKING:
    from bot.web import ActivityServer

log = logging.getLogger(__name__)

# The shared table cog first: the games' cogs add its commands to their groups.
PLATFORM_EXTENSIONS = ("cogs.tables",)


def extensions() -> tuple[str, ...]:
    """The cogs to load: the platform's, then every registered game's (bot.games)."""
    return (*PLATFORM_EXTENSIONS, *COGS.values())


def tune_garbage_collector() -> None:
    """Move what exists now (the modules: discord.py, aiohttp, ours; ~50,000 objects)
    out of the collector's sight for good, so that a full collection, which pauses
    every table, walks only the tables' own objects. (A higher threshold for the young
    generation was tried too: it traded rare pauses for frequent long ones.) For the
    bot's own process only: tests that run bots in their process keep the defaults."""
    gc.collect()
    gc.freeze()


# How long a stop waits for what is in flight: unanswered interactions, changes being
# committed, posts being sent. Docker's `stop` waits 10 s before it kills.
STOP_GRACE = 4.0



class EntryPointRefused(Exception):
    """Discord refused the commands with the app's Entry Point command among them."""

class AmerikanerBot(commands.AutoShardedBot):
    """The bot, running the gateway shards of its settings (SHARD_COUNT, SHARD_IDS; all of
    them when unset). Several processes on one database each run some shards: a guild's
    tables, timers and AI turns live in the process that runs its shard."""

    store: Store
    tables: TableService
    outbox: Outbox

    def __init__(self, settings: Settings, *, freeze_modules: bool = False) -> None:
        # No privileged intents: the bot works from interactions alone.
        intents = discord.Intents.none()
        intents.guilds = True
        # Without SHARD_IDS discord.py runs every shard (it reads a missing `shard_ids`
        # so; its signature types the argument as a list).
        shards: dict[str, Any] = {} if settings.shard_ids is None else {
            "shard_ids": list(settings.shard_ids)}
        # This process's share of the token's requests a second (bot/discord/budget.py): every
        # request discord.py sends waits for a slot of it.
        self.budget = RequestBudget(settings.request_rate)
        # Where the bot may write, and its invalid requests (bot/discord/access.py): a
        # channel that refused the bot or is gone is sent nothing until that changes.
        self.access = ChannelAccess(clock=settings.clock.time)
        # Nobody is pinged unless a send names them (bot.discord.pinging_user): names and
        # typed text in a message never ping, whatever they hold.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, shard_count=settings.shard_count,
                         http_trace=self._budget_trace(), **shards,
                         allowed_mentions=no_mentions())
        self.settings = settings
        # The bot's own process freezes its modules once the cogs are loaded
        # (tune_garbage_collector); tests that run bots in their process do not.
        self._freeze_modules = freeze_modules
        self._unanswered: set[discord.Interaction[Any]] = set()
        self._stopping = False
        # Several processes on PostgreSQL: DM clicks for tables of other processes are
        # handed to them (bot/store/relay.py); the gateway payloads of this process's
        # DM clicks, by interaction id, for as long as a click takes to be routed.
        self.relay: InteractionRelay | None = None
        # The table as a Discord Activity (bot/web), when its settings are set.
        self.activity_server: ActivityServer | None = None
        self._dm_payloads: collections.OrderedDict[int, dict[str, Any]] = \
            collections.OrderedDict()

    def _budget_trace(self) -> aiohttp.TraceConfig:
        """The hook that puts every request of discord.py's HTTP session through the
        budget: aiohttp awaits `on_request_start` before it sends each request (each
        try of it too: a request discord.py sends again after a 5xx counts again), in
        the sender's task, so its priority (bot.discord.budget.PRIORITY, PREPAID) goes with it.
        The REST client, webhooks and the gateway share this session; only API routes
        that count against the global limit wait (bot.discord.budget.counted: interaction
        answers and the interactions' webhook are exempt)."""
        trace = aiohttp.TraceConfig()

        async def before_request(session: aiohttp.ClientSession, context: Any,
                                 params: aiohttp.TraceRequestStartParams) -> None:
            route = api_route(params.url.path)
            if route is None:
                return
            # Before the budget: a request not sent spends no slot of it.
            blocked = self.access.refusal(route)
            if blocked is not None:
                raise blocked  # passes out of discord.py to the sender (not an OSError)
            if counted(route, self.application_id):
                # It counts until a window after its answer (or its failure): aiohttp
                # tells every request that passed this hook the one or the other.
                context.budget_flight = await self.budget.spend(params.method, route)

        def landed(context: Any) -> None:
            flight = getattr(context, "budget_flight", None)
            if flight is not None:
                flight.answered()

        async def after_request(session: aiohttp.ClientSession, context: Any,
                                params: aiohttp.TraceRequestEndParams) -> None:
            landed(context)
            route = api_route(params.url.path)
            if route is not None:
                self.access.answered(route, params.response.status,
                                     params.response.headers.get("X-RateLimit-Scope"))
            # A table edit's 5xx goes back to its queue at once (bot/discord/retries.py).
            give_back_server_errors(params.response)

        async def request_failed(session: aiohttp.ClientSession, context: Any,
                                 params: aiohttp.TraceRequestExceptionParams) -> None:
            landed(context)

        trace.on_request_start.append(before_request)
        trace.on_request_end.append(after_request)
        trace.on_request_exception.append(request_failed)
        return trace

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction is remembered until answered, so a stop can wait for the
        answers in flight."""
        self._unanswered = {i for i in self._unanswered if not _answered(i)}
        self._unanswered.add(interaction)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def setup_hook(self) -> None:
        self.store = await self._open_store()
        owns = self.settings.owns_guild
        self.outbox = Outbox(self.store, owns_guild=owns)
        self.tables = TableService(self.store, GAMES, ai_delay=self.settings.ai_delay,
                                   trick_pause=self.settings.trick_pause,
                                   outbox=self.outbox, seat_name=seat_label,
                                   owns_guild=owns, clock=self.settings.clock,
                                   daily_secret=self.settings.daily_secret)
        # Discord shows the commands in the user's language (cogs/words.py).
        await self.tree.set_translator(CommandTranslator())
        for name in extensions():
            await self.load_extension(name)
        if self._freeze_modules:  # every module is loaded now; no table yet
            tune_garbage_collector()
        if isinstance(self.store, SqliteStore):
            self._checkpointer = asyncio.create_task(self._checkpoint_regularly())
        # The rules of the ratings changed with a migration: rebuilt once, before any
        # table plays on (the rerate clears the migration's note in its transaction).
        report = await rerate_if_due(self.store, GAMES)
        if report is not None:
            log.info("ratings rebuilt under the new rules: %d match(es) of %d game(s)",
                     report.matches, report.games)
        # The table cog follows again the hand panels it followed before the restart
        # when the service says the tables are restored (TableService.when_restored).
        restored = await self.tables.restore()
        if restored:
            log.info("restored %d unfinished table(s)%s", len(restored), self._shards_note())
        # What was committed before a crash but not yet posted.
        await self.outbox.drain_all()
        await self._open_relay()
        await self._open_activity()
        if self._runs_shard_zero():
            await self._sync_commands()

    async def _open_activity(self) -> None:
        """The table as a Discord Activity (bot/web), when its settings are set: its page,
        code exchange and websockets on ACTIVITY_HOST:ACTIVITY_PORT."""
        settings = self.settings
        if settings.activity_client_secret is None or settings.activity_port is None:
            return
        from bot.web import ActivityServer  # only when on: its modules load then
        from bot.web.discord_api import DiscordApi

        assert self.application_id is not None  # known once logged in
        api = DiscordApi(discord.http.Route.BASE, self.application_id,
                         settings.activity_client_secret, settings.token,
                         trace_configs=[self._budget_trace()])
        bus = None
        count, ids, url = settings.shard_count, settings.shard_ids, settings.database_url
        if url is not None and count is not None and ids is not None and len(ids) < count:
            # Its pages reach any process; their tables live in their shard's.
            from bot.store.page_bus import PageBus
            bus = PageBus(url, count, ids)
        self.activity_server = ActivityServer(self.tables, api, host=settings.activity_host,
                                              port=settings.activity_port,
                                              clock=settings.clock.time, bus=bus)
        await self.activity_server.start()

    # ------------------------------------------------------------- DMs across processes

    async def _open_relay(self) -> None:
        """With several processes on PostgreSQL (SHARD_IDS a part of SHARD_COUNT), hand
        DM clicks between them: Discord sends every DM interaction to shard 0 alone,
        whatever server its table is in (bot/store/relay.py cites it)."""
        count, ids = self.settings.shard_count, self.settings.shard_ids
        url = self.settings.database_url
        if url is None or count is None or ids is None or len(ids) >= count:
            return
        self.relay = await InteractionRelay.open(url, count, ids, self._take_relayed)
        if self._runs_shard_zero():
            self._keep_dm_payloads()

    def _keep_dm_payloads(self) -> None:
        """Keep the gateway payload of each component click in a DM, which another
        process may have to answer: discord.py's Interaction keeps only parts of it."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def keep_then_parse(data: dict[str, Any]) -> None:
            if data.get("guild_id") is None and data.get("type") == 3:
                self._dm_payloads[int(data["id"])] = data
                while len(self._dm_payloads) > 256:  # the clicks no table took
                    self._dm_payloads.popitem(last=False)
            parse(data)

        parsers["INTERACTION_CREATE"] = keep_then_parse

    async def relay_interaction(self, interaction: discord.Interaction[Any], guild_id: int
                                ) -> bool | None:
        """Hand a DM click for a table of `guild_id` to the process that runs it: True
        once that process has taken it (it answers), False if it did not (nothing was
        done: the caller answers), None if the click is this process's own (one
        process, this process's shard, or no payload kept)."""
        relay = self.relay
        if relay is None or interaction.guild_id is not None \
                or self.settings.owns_guild(guild_id):
            return None
        payload = self._dm_payloads.pop(interaction.id, None)
        if payload is None:
            return None
        return await relay.forward(guild_id, interaction.id, payload)

    def _take_relayed(self, payload: dict[str, Any]) -> None:
        """A DM click of one of this process's tables, taken from shard 0's process: it
        is answered as if this process had received it (its token answers it from any
        process), through the same handlers, locks and commits."""
        log.debug("answering interaction %s relayed from shard 0", payload.get("id"))
        self._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    def _runs_shard_zero(self) -> bool:
        """The commands are the same for every process: the one that runs shard 0 (the
        only one, unsharded) registers them, the others leave them be."""
        ids = self.settings.shard_ids
        return ids is None or 0 in ids

    def _shards_note(self) -> str:
        ids, count = self.settings.shard_ids, self.settings.shard_count
        if ids is None or count is None:
            return ""
        return f" of shard(s) {','.join(map(str, ids))} of {count}"

    async def _open_store(self) -> Store:
        """PostgreSQL if DATABASE_URL is set, else the SQLite file of DATABASE_PATH."""
        if self.settings.database_url:
            return await open_database(self.settings.database_url)
        # The bot folds SQLite's log itself (below); SQLite's own fold, inside a
        # player's commit, stays only as a backstop for a log of ~40 MB.
        return await open_database(self.settings.database_path,
                                   autocheckpoint_pages=10_000)

    async def _checkpoint_regularly(self, every: float = 5.0) -> None:
        """Fold the write-ahead log into the database often, off the players' commits
        (Store.checkpoint runs beside them), so that SQLite's automatic fold does not
        land inside a commit and the log stays small."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.store.checkpoint()
            except Exception:
                log.warning("WAL checkpoint failed", exc_info=True)

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        elif self.settings.activity_on:
            await self._sync_with_entry_point()
        else:
            await self.tree.sync()

    async def _sync_with_entry_point(self) -> None:
        """The global commands and, with the Activity on, the app's Entry Point command
        (cogs/tables/entry_point.py): a bulk overwrite replaces every type of command, so
        it goes in the same request. discord.py 2.7 knows no command of its type (4): its
        payload is added to the one discord.py's sync sends."""
        from cogs.tables.entry_point import entry_point_command

        http = self.http
        bulk = http.bulk_upsert_global_commands

        async def with_entry_point(application_id: int, payload: list[Any]) -> Any:
            try:
                return await bulk(application_id, payload=[*payload, entry_point_command()])
            except discord.HTTPException as exc:
                # (not discord.py's CommandSyncFailure, which cannot name a command
                # that is not in its tree)
                if exc.status != 400:
                    raise
                raise EntryPointRefused(str(exc)) from exc

        http.bulk_upsert_global_commands = with_entry_point  # type: ignore[method-assign,assignment]
        try:
            await self.tree.sync()
            return
        except EntryPointRefused as exc:
            # "handler can only be set ... for applications with the EMBEDDED flag (i.e.
            # applications that have an Activity)": the Developer Portal's switch is off.
            log.warning("the app's Entry Point command was refused (are Activities on in "
                        "the Developer Portal?): the commands are synced without it: %s",
                        exc)
        finally:
            del http.bulk_upsert_global_commands
        await self.tree.sync()

    async def close(self) -> None:
        """Stop gracefully: refuse new changes (they are answered "restarting"), wait
        for the answers and commits in flight and the posts being sent, then close the
        connection and the store. Whatever is left to post is posted after the next
        start (the outbox)."""
        if self._stopping:
            return
        self._stopping = True
        started = time.monotonic()
        checkpointer = getattr(self, "_checkpointer", None)
        if checkpointer is not None:
            checkpointer.cancel()
        if self.activity_server is not None:
            await self.activity_server.stop()
        tables = getattr(self, "tables", None)
        if tables is not None:
            await tables.registry.close(grace=STOP_GRACE / 2)
        await self._wait_for_answers(STOP_GRACE / 4)
        outbox = getattr(self, "outbox", None)
        if outbox is not None:
            await outbox.close(timeout=STOP_GRACE / 4)
        if self.relay is not None:
            await self.relay.close()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
            log.info("stopped cleanly in %.1f s: every change is stored",
                     time.monotonic() - started)

    async def _wait_for_answers(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(
                not _answered(i) for i in self._unanswered):
            await asyncio.sleep(0.02)


def _answered(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's handler has answered (a component's handler marks it
    "handled" before it lets go of the response, cogs/amerikaner.py `_let_go`)."""
    return bool(interaction.extras.get("handled")) or interaction.response.is_done()


def _log_waits() -> None:
    """SIGUSR1 (`kill -USR1 <pid>`): log what every task of the bot is waiting on, one
    block a task, without stopping anything: for an operator whose bot seems stuck (posts
    that do not go out, a table that does not move), and for the tests that watch for
    such a stall (issue 37)."""
    tasks = asyncio.all_tasks()
    lines = [f"{len(tasks)} task(s) now:"]
    for task in sorted(tasks, key=lambda t: t.get_name()):
        frames = task.get_stack(limit=6)
        where = " <- ".join(f"{f.f_code.co_name} ({f.f_code.co_filename.rsplit('/', 2)[-1]}"
                            f":{f.f_lineno})" for f in reversed(frames))
        lines.append(f"  {task.get_name()}: {where or 'not started'}")
    log.warning("\n".join(lines))


async def _serve(bot: AmerikanerBot, token: str) -> None:
    """Run the bot until it ends or SIGTERM / SIGINT asks it to stop; a stop closes it
    gracefully (`AmerikanerBot.close`)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, _log_waits)
    async with bot:
        running = asyncio.create_task(bot.start(token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done():
            log.info("stopping (signal received)")
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        stopping.cancel()
        running.result()  # a login or connection error ends the program


def run_bot() -> int:
    """Run until stopped; return the process exit status. Errors an operator can fix end
    with one clear sentence, not a traceback."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"amerikaner: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.log_level != "DEBUG":
        # discord.py's INFO lines (logging in, shard connected...) are noise for operators.
        logging.getLogger("discord").setLevel(logging.WARNING)
    # The bot has no voice: no warnings about missing voice libraries.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    apply_discord_endpoints(settings.api_base, settings.gateway_url)
    bot = AmerikanerBot(settings, freeze_modules=True)
    try:
        asyncio.run(_serve(bot, settings.token))
    except discord.LoginFailure:
        print("amerikaner: Discord rejected the token: check DISCORD_TOKEN (developer portal "
              "-> your application -> Bot -> Reset Token).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("amerikaner: Discord refused the gateway intents.", file=sys.stderr)
        return 1
    except (OSError, discord.GatewayNotFound, discord.ConnectionClosed) as exc:
        print(f"amerikaner: cannot reach Discord: {exc}", file=sys.stderr)
        return 1
    return 0
