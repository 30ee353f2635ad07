"""The deal of the day's room (bot/tables/daily.py): `/<game> daily`, its private panels,
its one public message per server and day, its boards and settings.

A member's daily is drawn as a table of their own that exists only in their panels: a
`Table` built for the moment from their play (the member in their seat, the AI in the
others) with an id no stored table has (`daily_table_id`: the game, the day and the
server in its digits), so the game's own hand controls (GameUI) draw it and answer its
clicks as at any table; the platform routes those ids here (Tables.on_click,
GameCog.act_on_click). Nothing of a play reaches the channel: the table message, the
deal's summary and the pings are never made for it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

from bot.discord.access import Blocked
from bot.discord.messages import repost_reason, too_old_for_edits
from bot.i18n import current_locale
from bot.render import seat_names
from bot.render.daily import (
    abandoned_text,
    board_panel,
    closed_public_panel,
    days_text,
    dm_opened_text,
    dm_refused_text,
    dm_sent_text,
    done_text,
    move_moment,
    opened_text,
    public_panel,
    result_advice_panel,
    result_button_label,
    result_lines_panel,
    result_panel,
    settings_text,
    stats_line,
)
from bot.render.guide import dm_link_label, play_today_label
from bot.tables import Table, TableError, TableService
from bot.tables.daily import (
    DAILY,
    DAILY_DONE,
    DAILY_NOT_STARTED,
    DAILY_OVER,
    DAILY_SEALED,
    DAILY_STALE,
    MIN_DAYS,
    SETTINGS_KEY,
    DailyService,
    DailyState,
)
from bot.tables.names import safe_markdown
from bot.tables.service import PLAYING, Seat
from cogs.tables.common import (
    LET_GO,
    Components,
    GameUIs,
    TableBot,
    mark_committed,
    reply,
    to_embed,
)
from cogs.tables.components import DailyButton, TableButton
from cogs.tables.guards import is_manager
from cogs.tables.settings import SettingsRoom
from cogs.tables.views import hand_panel

log = logging.getLogger(__name__)

# A daily's table id: "9", the game's index, the day's 8 digits, then the server's id
# (a snowflake of 17 digits or more), so every id is above DAILY_IDS, far above any
# stored table's (the store numbers tables from 1).
DAILY_IDS = 10 ** 24

# Discord drops an interaction not answered within 3 seconds ("you must send an initial
# response within 3 seconds of receiving the event":
# https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction;
# the fake refuses a late answer with 10062, Unknown interaction). A daily's step runs
# the AI players' answers before it is stored; one that takes longer than this defers
# the answer (Discord's "thinking", or a deferred update of the panel) and edits it after.
ANSWER_WITHIN = 2.0
# How a day's message that says its day is over marks what it shows (bot/store/daily.py,
# daily_open_days).
CLOSED = "closed:"
ADVICE_KEPT = 512  # finished plays whose advice a process keeps (the oldest go first)
RESULT = "result"  # the op of a finished result's buttons: amk:<daily id>:result:<what>
_T = TypeVar("_T")


def is_daily_table(table_id: int) -> bool:
    return table_id >= DAILY_IDS


def dm_link_view(url: str) -> discord.ui.View:
    """The answer to `/<game> daily dm:True`: a link button to the panel sent by DM
    (issue 52: "in your direct messages", with no way there). A DM message's link is
    https://discord.com/channels/@me/<channel>/<message> (discord.py's
    Message.jump_url); a link button is style 5 with a url and no custom id
    (https://discord.com/developers/docs/components/reference#button)."""
    view = Components()
    view.add_item(discord.ui.Button(label=dm_link_label(), url=url, emoji="📨"))
    return view


def day_message_view(game: str) -> discord.ui.View:
    """The day's public message's one button, "Play today's deal" (in the locale of the
    moment: the server's), which starts the clicking member's daily as `/<game> daily`
    does (cogs/tables/components.py, DailyButton): a newcomer finds the daily where
    the channel shows it (issue 52)."""
    view = Components()
    view.add_item(DailyButton(game, play_today_label()))
    return view


class DailyRoom:
    """`/<game> daily` and what follows from it."""

    def __init__(self, bot: TableBot, tables: TableService, settings: SettingsRoom,
                 uis: GameUIs) -> None:
        self.bot = bot
        self.tables = tables
        self.settings = settings
        # A change of the server's settings (its `players`) reaches the daily's next day.
        settings.before_change.append(
            lambda guild, game: self.daily_service.fix_today(guild, game))
        self.uis = uis  # a daily's hand panel holds its game's controls
        self.clock = bot.settings.clock  # Discord's time of day (message age)
        self._daily: DailyService | None = None  # made at first use
        # (server, game, day) -> held while the day's public message is posted or edited.
        self._daily_posting: dict[tuple[int, str, str], asyncio.Lock] = {}
        # (server, game, day, member, language) -> a finished play's advice (_advice).
        self._advised: dict[tuple[int, str, str, int, str], list[tuple[str, str]]] = {}
        # (server, game, day) -> the task that closes the day's message at its end.
        self._closers: dict[tuple[int, str, str], asyncio.Task[None]] = {}

    @property
    def daily_service(self) -> DailyService:
        if self._daily is None:
            secret = getattr(self.bot.settings, "daily_secret", None)
            self._daily = DailyService(self.bot.store, self.tables.games,
                                       self.tables.clock.time, secret=secret)
        return self._daily

    # ----------------------------------------------------------------- the ids

    def daily_table_id(self, game: str, day: str, guild_id: int) -> int:
        index = sorted(self.tables.games).index(game)
        return int(f"9{index}{day.replace('-', '')}{guild_id}")

    def _daily_of_id(self, table_id: int) -> tuple[str, str, int]:
        """(game, day, server) of a daily's table id; refused (stale) if it names none."""
        digits = str(table_id)
        games = sorted(self.tables.games)
        index = int(digits[1])
        if not digits.startswith("9") or index >= len(games) or len(digits) < 27:
            raise TableError(DAILY, reason=DAILY_STALE)
        day = f"{digits[2:6]}-{digits[6:8]}-{digits[8:10]}"
        return games[index], day, int(digits[10:])

    def _daily_table(self, state: DailyState) -> Table:
        """The member's play as a table of their own, for their panel alone."""
        deal = state.deal
        seats = [Seat(state.play.user_id, state.play.display_name) if s == deal.seat
                 else Seat(None, "", ai_level=deal.level) for s in range(deal.players_count)]
        return Table(self.daily_table_id(deal.game, deal.day, deal.guild_id), deal.guild_id,
                     deal.channel_id or 0, state.play.user_id, state.kind, deal.rules,
                     deal.first_dealer, seats, stage=PLAYING, game=state.game)

    def _daily_controls(self, table: Table, seat: int) -> discord.ui.View:
        return self.uis.of(table).hand_components(table, table.seat_view(seat))

    async def _in_time(self, interaction: discord.Interaction[Any], work: Awaitable[_T], *,
                       command: bool = False) -> _T:
        """`work`'s result; if it is not ready within ANSWER_WITHIN seconds, the answer
        is deferred first (a command's: thinking, for the user alone; a click's: the
        panel's update), so Discord keeps the interaction."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        if not done and not interaction.response.is_done():
            if command:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        return await task

    async def _show_panel(self, interaction: discord.Interaction[Any], **fields: Any) -> None:
        """The clicked panel edited to `fields`: in the answer, or after a deferred one."""
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)

    # ----------------------------------------------------------------- playing

    async def daily(self, interaction: discord.Interaction[Any], game: str,
                    board: str | None = None, dm: bool = False) -> None:
        """`/<game> daily`: the member's deal of the day in their panel (begun, or
        taken up where it was), or, with `board`, a board of the daily. With `dm`, the
        panel goes to the member's direct messages and is played there (its buttons
        name the server, the game and the day: any process answers them)."""
        if board is not None:
            await self.daily_board(interaction, game, board)
            return
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        service = self.daily_service
        user = interaction.user
        try:
            state = await self._in_time(interaction, service.open(guild, game, user.id,
                                                                    user.display_name),
                                        command=True)
        except TableError as exc:
            if exc.params.get("reason") != DAILY_DONE:
                raise
            # One try a day; the result can be reopened all day (issue 52).
            done = await service.state(guild, game, user.id)
            if done is None or done.abandoned:
                raise
            await self._daily_finished(interaction, done, note=done_text(game))
            return
        # The day's public message is owed from the first play on: its place is stored
        # before the answer, posted after it.
        channel = state.deal.channel_id or interaction.channel_id or 0
        if await self.bot.store.daily_day(guild, game, state.deal.day) is None:
            await self.bot.store.set_daily_day(guild, game, state.deal.day, channel, None, "")
        mark_committed(interaction, None, "opened")
        table = self._daily_table(state)
        seat = state.deal.seat
        title = state.kind.words.title(state.deal.rules)
        content = opened_text(title, state.deal.day)
        panel = to_embed(hand_panel(table, seat))
        hand = self._daily_controls(table, seat)
        # The panel: here, or, sent by DM, only the line that says so.
        embed: discord.Embed | None = panel
        controls: discord.ui.View | None = hand
        if dm:
            server = safe_markdown(interaction.guild.name) if interaction.guild is not None \
                else str(guild)
            try:
                # discord.py keeps the DM channel once opened: one request a member.
                dm_channel = await self.bot.create_dm(user)
                sent = await dm_channel.send(dm_opened_text(server, title, state.deal.day),
                                             embed=panel, view=hand)
            except (discord.Forbidden, Blocked):
                # 403 50007, "Cannot send messages to this user": the member closed
                # their DMs from the server (https://discord.com/developers/docs/topics/
                # opcodes-and-status-codes#json), and Discord answers every message to
                # that DM channel so (the channel itself opens: the refusal is the
                # message's, as logged in https://github.com/Kord-Extensions/
                # kord-extensions/pull/215; the fake does the same). After the first
                # refusal the bot sends that channel nothing for 10 minutes
                # (bot/discord/access.py: each refusal counts toward Discord's
                # invalid-request limit) and raises Blocked before the request: the
                # same refusal, known ahead. Either way the panel is shown here.
                content = f"{dm_refused_text()}\n{content}"
                # A view lets go of its items once serialised (common.Components), and
                # the refused request serialised this one: the panel's are drawn anew.
                controls = self._daily_controls(table, seat)
            else:
                content, embed, controls = dm_sent_text(), None, dm_link_view(sent.jump_url)
        fields: dict[str, Any] = {"content": content, "embed": embed}
        if controls is not None:
            fields["view"] = controls
        if interaction.response.is_done():  # deferred: the AI took its time
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.send_message(**fields, ephemeral=True)
        await self._daily_public(guild, game, state.deal.day)

    async def _daily_in_play(self, interaction: discord.Interaction[Any], table_id: int
                             ) -> Any:
        """The member's play of the daily that `table_id` names, or None once it is
        finished (the finished panel is then the answer); refused if never begun."""
        game, day, guild = self._daily_of_id(table_id)
        state = await self.daily_service.state(guild, game, interaction.user.id, day)
        if state is None:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)
        if state.abandoned:  # an old panel of a day whose end and grace are past
            raise TableError(DAILY, reason=DAILY_OVER, game=game)
        if state.finished:
            await self._daily_finished(interaction, state)
            return None
        return state

    async def daily_click(self, interaction: discord.Interaction[Any], action: Any,
                          values: list[str]) -> None:
        """A click on a daily panel's control (its id names a daily): the game's own
        moves go to the game's controls, Refresh shows the panel anew (the result, once
        the play is finished), and a finished result's buttons its details."""
        if action.parts[0] == RESULT:
            await self.result_detail(interaction, action.table_id, action.parts[1:])
            return
        state = await self._daily_in_play(interaction, action.table_id)
        if state is None:
            return
        table = self._daily_table(state)
        parts = action.parts
        if parts and parts[0].isdigit():
            await self.uis.of(table).on_action(interaction, table, int(parts[0]), parts[1:], values)
            return
        await self.daily_stale(interaction, table)

    async def daily_move(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, make: Callable[[int], Any]) -> None:
        """The member's move in their daily (GameCog.act_on_click routes it here):
        stored with the AI players' answers, then the panel shows the play now, or the
        result once the deal is over."""
        game, day, guild = self._daily_of_id(table.id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)

        async def step() -> tuple[DailyState, Any]:
            state = await self.daily_service.act(guild, game, interaction.user.id, version,
                                                 day, make(seat),
                                                 channel_id=table.channel_id)
            mark_committed(interaction, None, "move")
            return state, await self._result_panel(state) if state.finished else None

        try:
            state, result = await self._in_time(interaction, step())
        except TableError as exc:
            if exc.params.get("reason") != DAILY_STALE:
                raise
            # A click drawn for an earlier moment (a double click): the panel shows the
            # play as it is now, as a table's stale click does.
            await self.daily_stale(interaction, table)
            return
        if result is not None:
            await self._show_panel(interaction, embed=to_embed(result),
                                   view=self._result_view(state), content=None)
            await self._daily_public(guild, game, day)
            return
        table = self._daily_table(state)
        await self._show_panel(interaction, embed=to_embed(hand_panel(table, seat)),
                               view=self._daily_controls(table, seat))

    async def daily_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A daily panel drawn for another moment: it shows the play as it is now."""
        state = await self._daily_in_play(interaction, table.id)
        if state is None:
            return
        fresh = self._daily_table(state)
        seat = state.deal.seat
        await self._show_panel(interaction, embed=to_embed(hand_panel(fresh, seat)),
                               view=self._daily_controls(fresh, seat))

    async def _daily_finished(self, interaction: discord.Interaction[Any],
                              state: DailyState, note: str | None = None) -> None:
        """The member's finished daily, in the clicked panel (or a new one for them):
        the result, which can be reopened all day (`daily`, the board's button)."""
        panel = await self._in_time(interaction, self._result_panel(state))
        fields: dict[str, Any] = {"embed": to_embed(panel), "content": note,
                                  "view": self._result_view(state)}
        message = interaction.message
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        elif message is not None and (message.flags.ephemeral
                                      or interaction.guild_id is None):  # its DM panel
            await interaction.response.edit_message(**fields)
        else:
            await reply(interaction, note, panel=panel, view=self._result_view(state))

    def _result_view(self, state: DailyState) -> discord.ui.View:
        """The result's details, a tap away: the deal face up, the lines, the advice."""
        deal = state.deal
        table_id = self.daily_table_id(deal.game, deal.day, deal.guild_id)
        view = Components()
        for what in ("deal", "lines", "advice"):
            view.add_item(TableButton(table_id, f"{RESULT}:{what}",
                                      label=result_button_label(what)))
        return view

    async def _result_panel(self, state: DailyState) -> Any:
        """The member's result, to fit one phone screen: score, place and matchpoints
        against the results so far, the moments where the strong AI would have played
        otherwise, and the top of the day's board (result_detail has the rest)."""
        service = self.daily_service
        deal = state.deal
        words = state.kind.words
        advice = await self._advice(state)
        board = await service.board(deal.guild_id, deal.game, deal.day)
        mine = next((row for row in board if row.user_id == state.play.user_id), None)
        return result_panel(
            words.title(deal.rules), deal.day, words.deal_score_text(state.play.score or ()),
            mine.matchpoints if mine else 0.5, mine.rank if mine else 1, len(board),
            [moment for moment, _ in advice],
            [(r.rank, r.name, r.matchpoints, self._score_text(state, r.score))
             for r in board], state.play.display_name)

    @staticmethod
    def _score_text(state: DailyState, score: tuple[int, ...] | None) -> str:
        if score is None:  # abandoned
            return abandoned_text()
        return state.kind.words.deal_score_text(score)

    async def _advice(self, state: DailyState) -> list[tuple[str, str]]:
        """Where the strong AI would have played otherwise: (the moment, as the game
        names it, else the member's move by number; the move and its reason). A
        finished play's never changes: kept (a few hundred, in the reader's words), so
        reopening a result does not run the strong AI over every move again."""
        deal = state.deal
        key = (deal.guild_id, deal.game, deal.day, state.play.user_id, current_locale())
        if key in self._advised:
            return self._advised[key]
        advice = await self._advise(state)
        self._advised[key] = advice
        while len(self._advised) > ADVICE_KEPT:
            self._advised.pop(next(iter(self._advised)))
        return advice

    async def _advise(self, state: DailyState) -> list[tuple[str, str]]:
        deal = state.deal
        words = state.kind.words
        seat = deal.seat
        advice = []
        for version, hint in await self.daily_service.ai_choices(state):
            before = state.play.actions[:version]
            moment = words.moment_text(self.daily_service.replay(deal, before), seat)
            if moment is None:
                moment = move_moment(1 + sum(1 for a in before if a.get("seat") == seat))
            advice.append((moment, hint.sentence))
        return advice

    async def result_detail(self, interaction: discord.Interaction[Any], table_id: int,
                            what: list[str]) -> None:
        """A result's detail, for the member alone, as a message of its own (the result
        stays): the deal face up, their line beside the best, or the AI's advice."""
        game, day, guild = self._daily_of_id(table_id)
        state = await self.daily_service.state(guild, game, interaction.user.id, day)
        if state is None or not state.finished or state.abandoned:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)
        deal = state.deal
        words = state.kind.words
        title = words.title(deal.rules)
        seat = deal.seat
        if what[:1] == ["deal"]:
            names = seat_names(self._daily_table(state).seats)
            panel = words.deal_review(state.game, 0, names)
        elif what[:1] == ["lines"]:
            best_name, best = await self.daily_service.best_actions(state)
            own = best_name is None
            panel = result_lines_panel(
                title, day,
                [words.describe_action(a) for a in state.play.actions if a.get("seat") == seat],
                [] if own else [words.describe_action(a) for a in best
                                if a.get("seat") == seat], None if own else best_name)
        else:
            panel = result_advice_panel(title, day,
                                        await self._in_time(interaction, self._advice(state)))
        await reply(interaction, panel=panel)

    # ------------------------------------------------------------ the public message

    async def _daily_public(self, guild_id: int, game: str, day: str) -> None:
        """The day's one public message in the server, brought up to date: posted once,
        then edited when what it shows changed; posted afresh only when Discord would
        refuse the edit (deleted, or older than an hour: bot/discord/messages.py). Once
        the day has ended it is edited to say so (closed), never posted afresh: a closed
        day's message that cannot be edited is left as it is."""
        service = self.daily_service
        lock = self._daily_posting.setdefault((guild_id, game, day), asyncio.Lock())
        async with lock:
            place = await self.bot.store.daily_day(guild_id, game, day)
            if place is None or not place.channel_id:
                return
            board = await service.board(guild_id, game, day)
            kind = self.tables.kind(game)
            deal = await service.deal(guild_id, game, day)
            closed = self.tables.clock.time() >= deal.ends_at
            with await self.settings.public(guild_id):
                title = kind.words.title(deal.rules)
                played = sum(1 for row in board if row.score is not None)
                panel = (closed_public_panel if closed else public_panel)(
                    title, game, day, played)
                view = day_message_view(game)
            embed = to_embed(panel)
            digest = hashlib.sha256(repr(embed.to_dict()).encode()).hexdigest()[:32]
            if closed:
                digest = CLOSED + digest  # (the store lists the days not closed yet)
            else:
                self._close_at_end(guild_id, game, day, deal.ends_at)
            if place.shown == digest and place.message_id is not None:
                return  # nothing new to show: no request
            channel = self.bot.get_partial_messageable(place.channel_id)
            message_id = place.message_id
            try:
                if message_id is not None and (closed or not too_old_for_edits(
                        message_id, self.clock.time())):
                    try:
                        # A day over keeps no button: "Play today's deal" would start
                        # another day's.
                        await channel.get_partial_message(message_id).edit(
                            embed=embed, view=None if closed else view)
                    except discord.HTTPException as exc:
                        if closed or repost_reason(exc.code) is None:
                            raise
                        message_id = None
                    else:
                        await self.bot.store.set_daily_day(guild_id, game, day,
                                                           place.channel_id, message_id,
                                                           digest)
                        return
                if closed:
                    return  # never posted, or gone: a day over needs no new message
                sent = await channel.send(embed=embed, view=view)
                await self.bot.store.set_daily_day(guild_id, game, day, place.channel_id,
                                                   sent.id, digest)
            except LET_GO as exc:
                log.info("the deal of the day's message in %s: not shown (%s)",
                         place.channel_id, exc)

    def _close_at_end(self, guild_id: int, game: str, day: str, ends_at: float) -> None:
        """The day's message closed when its day ends (once a process: a restart closes
        what ended meanwhile at its next `close_ended_days`)."""
        key = (guild_id, game, day)
        if key in self._closers:
            return

        async def close() -> None:
            await self.tables.clock.sleep_until(ends_at)
            try:
                await self._daily_public(guild_id, game, day)
            except Exception as exc:  # the store down: the next start closes it
                log.warning("the deal of the day's message of %s in %s: not closed (%r)",
                            day, guild_id, exc)

        task = asyncio.create_task(close(), name=f"daily-close-{guild_id}-{game}-{day}")
        self._closers[key] = task
        task.add_done_callback(lambda _: self._closers.pop(key, None))

    async def close_ended_days(self) -> None:
        """At start: the day messages of the days that ended while the bot was away
        closed, the others' closing at their end planned."""
        for guild_id, game, day in await self.bot.store.daily_open_days():
            # This process's servers only (another shard's process closes its own).
            if game in self.tables.games and self.bot.get_guild(guild_id) is not None:
                await self._daily_public(guild_id, game, day)

    def close(self) -> None:
        for task in list(self._closers.values()):
            task.cancel()

    # ----------------------------------------------------------------- boards

    async def daily_board(self, interaction: discord.Interaction[Any], game: str,
                          period: str) -> None:
        """A board of the daily: "day", today's (for a member who has played today's
        deal: nobody sees another's result before finishing their own), "week" or
        "month", the ladders of the days that are over."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        service = self.daily_service
        kind = self.tables.kind(game)
        period = period if period in ("day", "week", "month") else "day"
        if period == "day":
            today = await service.today(guild, game)
            if await service.sealed(guild, game, today, interaction.user.id):
                raise TableError(DAILY, reason=DAILY_SEALED)
            rows = [(r.rank, r.name, r.matchpoints,
                     abandoned_text() if r.score is None
                     else kind.words.deal_score_text(r.score))
                    for r in await service.board(guild, game, today)]
        else:
            rows = [(r.rank, r.name, r.matchpoints, days_text(r.days))
                    for r in await service.ladder(guild, game, period)]
        day, _ = await service.current_day(guild, game)
        deal = await service.deal(guild, game, day or await service.last_closed_day(
            guild, game))
        panel = board_panel(kind.words.title(deal.rules), period, rows, MIN_DAYS)
        view = None
        if period == "day":  # the member's own result, a tap away (a finished play's)
            view = Components()
            view.add_item(TableButton(self.daily_table_id(game, deal.day, guild), "hand",
                                      label=result_button_label("result")))
        # For the asker alone (issue 52): the channel keeps the day's one message.
        await reply(interaction, panel=panel, view=view)

    async def check_daily_record(self, interaction: discord.Interaction[Any],
                                 meta: dict[str, Any], game: str) -> None:
        """A stored game that is a member's daily shows its deal face up: refused to a
        member whose own play of that day is unfinished, and, while the day runs, to one
        who has not played it (DailyService.sealed); else a record like any other."""
        daily = meta.get("daily")
        if not isinstance(daily, dict):
            return
        guild, day = int(daily.get("guild", 0)), str(daily.get("day", ""))
        user = interaction.user.id
        if await self.daily_service.sealed(guild, game, day, user):
            mine = await self.bot.store.daily_play(guild, game, day, user)
            raise TableError(DAILY, reason="unfinished" if mine is not None
                             else DAILY_SEALED)

    async def daily_stats_line(self, guild_id: int, game: str, user_id: int) -> str:
        days, average = await self.daily_service.member_line(guild_id, game, user_id)
        return stats_line(days, average)

    # ----------------------------------------------------------------- settings

    async def daily_settings(self, interaction: discord.Interaction[Any], game: str, *,
                             enabled: bool | None, channel: int | None,
                             preset: str | None, house: str | None,
                             time_zone: str | None) -> None:
        """`/<game> daily_settings`: the server's daily, shown, or changed (Manage
        Server, as the server's other settings)."""
        guild = interaction.guild_id
        if guild is None:
            raise TableError("guild_only")
        kind = self.tables.kind(game)
        settings = await self.bot.store.get_guild_settings(guild, game)
        daily = dict(settings.get(SETTINGS_KEY) or {})
        changing = any(v is not None for v in (enabled, channel, preset, house, time_zone))
        if changing:
            if not is_manager(interaction):
                raise TableError("not_allowed")
            # Today's rules (and time zone) stay as they are: the change takes effect the
            # next day (bot/tables/daily.py, DailyService.fix_today).
            await self.daily_service.fix_today(guild, game)
            if enabled is not None:
                daily["enabled"] = enabled
            if channel is not None:
                daily["channel"] = channel
            if preset is not None:
                daily["preset"] = None if preset in ("", "default") else preset
            if house is not None:
                daily["house"] = [key.strip() for key in house.split(",") if key.strip()]
            if time_zone is not None:
                try:
                    ZoneInfo(time_zone)
                except (ZoneInfoNotFoundError, ValueError) as exc:
                    raise TableError("bad_option") from exc
                daily["time_zone"] = time_zone
            # The rules must be playable before they are kept (a refusal says why).
            players = int(daily.get("players") or settings.get("players")
                          or kind.default_players)
            rules = kind.make_rules(daily.get("preset"), players, {})
            if daily.get("house"):
                kind.with_house_rules(rules, daily["house"])
            await self.bot.store.set_guild_settings(guild, game,
                                                    {**settings, SETTINGS_KEY: daily})
            mark_committed(interaction, None)
        text = settings_text(bool(daily.get("enabled", True)), daily.get("channel"),
                             daily.get("preset"), daily.get("house") or (),
                             daily.get("time_zone"))
        await reply(interaction, text)
