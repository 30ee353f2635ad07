"""What the deal of the day shows besides its panels (cogs/tables/daily.py, DailyRoom): a
member's result, which fits one phone screen with its details a tap away and can be
reopened all day, and the day's one public message per server, which closes when its
day ends (issue 52)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

import discord

from bot.clock import Clock
from bot.discord.messages import repost_reason, too_old_for_edits
from bot.i18n import current_locale
from bot.render import seat_names
from bot.render.daily import (
    abandoned_text,
    closed_public_panel,
    move_moment,
    public_panel,
    result_advice_panel,
    result_button_label,
    result_lines_panel,
    result_panel,
)
from bot.render.guide import play_today_label
from bot.tables.daily import DailyService
from bot.tables.daily_deal import DAILY, DAILY_NOT_STARTED, DailyState
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.table import DailyKey
from cogs.tables.common import LET_GO, Components, TableBot, reply, to_embed
from cogs.tables.components import DailyButton, TableButton
from cogs.tables.settings import SettingsRoom

log = logging.getLogger(__name__)

# How a day's message that says its day is over marks what it shows (bot/store/daily.py,
# daily_open_days).
CLOSED = "closed:"
ADVICE_KEPT = 512  # finished plays whose advice a process keeps (the oldest go first)
RESULT = "result"  # the op of a finished result's buttons: amk:<daily id>:result:<what>
_T = TypeVar("_T")



def day_message_view(game: str) -> discord.ui.View:
    """The day's public message's one button, "Play today's deal" (in the locale of the
    moment: the server's), which starts the clicking member's daily as `/<game> daily`
    does (cogs/tables/components.py, DailyButton): a newcomer finds the daily where
    the channel shows it (issue 52)."""
    view = Components()
    view.add_item(DailyButton(game, play_today_label()))
    return view


class DailyHost(Protocol):
    """What the results and the public message use of the daily's room."""

    bot: TableBot
    tables: TableService
    settings: SettingsRoom
    clock: Clock

    daily_service: DailyService

    async def in_time(self, interaction: discord.Interaction[Any], work: Awaitable[_T], *,
                       command: bool = False) -> _T: ...


class DailyShown:
    """A member's result and the day's public message, for the daily's room."""

    def __init__(self, room: DailyHost) -> None:
        self.room = room
        # (server, game, day) -> held while the day's public message is posted or edited.
        self._daily_posting: dict[tuple[int, str, str], asyncio.Lock] = {}
        # (server, game, day, member, language) -> a finished play's advice (_advice).
        self._advised: dict[tuple[int, str, str, int, str], list[tuple[str, str]]] = {}
        # (server, game, day) -> the task that closes the day's message at its end.
        self._closers: dict[tuple[int, str, str], asyncio.Task[None]] = {}

    async def finished(self, interaction: discord.Interaction[Any], state: DailyState,
                       note: str | None = None) -> None:
        """The member's finished daily, in the clicked panel (or a new one for them):
        the result, which can be reopened all day (`daily`, the board's button)."""
        panel = await self.room.in_time(interaction, self.result_panel(state))
        fields: dict[str, Any] = {"embed": to_embed(panel), "content": note,
                                  "view": self.result_view(state)}
        message = interaction.message
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        elif message is not None and (message.flags.ephemeral
                                      or interaction.guild_id is None):  # its DM panel
            await interaction.response.edit_message(**fields)
        else:
            await reply(interaction, note, panel=panel, view=self.result_view(state))

    def result_view(self, state: DailyState) -> discord.ui.View:
        """The result's details, a tap away: the deal face up, the lines, the advice."""
        table_id = self.room.daily_service.table_id(state.deal.key)
        view = Components()
        for what in ("deal", "lines", "advice"):
            view.add_item(TableButton(table_id, f"{RESULT}:{what}",
                                      label=result_button_label(what)))
        return view

    async def result_panel(self, state: DailyState) -> Any:
        """The member's result, to fit one phone screen: score, place and matchpoints
        against the results so far, the moments where the strong AI would have played
        otherwise, and the top of the day's board (result_detail has the rest)."""
        service = self.room.daily_service
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
        for version, hint in await self.room.daily_service.ai_choices(state):
            before = state.play.actions[:version]
            moment = words.moment_text(self.room.daily_service.replay(deal, before), seat)
            if moment is None:
                moment = move_moment(1 + sum(1 for a in before if a.get("seat") == seat))
            advice.append((moment, hint.sentence))
        return advice

    async def detail(self, interaction: discord.Interaction[Any], key: DailyKey,
                     what: list[str]) -> None:
        """A result's detail of the daily `key`, for the member alone, as a message of
        its own (the result stays): the deal face up, their line beside the best, or
        the AI's advice."""
        day = key.day
        state = await self.room.daily_service.state(key.guild_id, key.game,
                                                    interaction.user.id, day)
        if state is None or not state.finished or state.abandoned:
            raise TableError(DAILY, reason=DAILY_NOT_STARTED)
        deal = state.deal
        words = state.kind.words
        title = words.title(deal.rules)
        seat = deal.seat
        if what[:1] == ["deal"]:
            names = seat_names(self.room.daily_service.table(state).seats)
            panel = words.deal_review(state.game, 0, names)
        elif what[:1] == ["lines"]:
            best_name, best = await self.room.daily_service.best_actions(state)
            own = best_name is None
            panel = result_lines_panel(
                title, day,
                [words.describe_action(a) for a in state.play.actions if a.get("seat") == seat],
                [] if own else [words.describe_action(a) for a in best
                                if a.get("seat") == seat], None if own else best_name)
        else:
            panel = result_advice_panel(title, day,
                                        await self.room.in_time(interaction, self._advice(state)))
        await reply(interaction, panel=panel)

    # ------------------------------------------------------------ the public message

    async def public(self, guild_id: int, game: str, day: str) -> None:
        """The day's one public message in the server, brought up to date: posted once,
        then edited when what it shows changed; posted afresh only when Discord would
        refuse the edit (deleted, or older than an hour: bot/discord/messages.py). Once
        the day has ended it is edited to say so (closed), never posted afresh: a closed
        day's message that cannot be edited is left as it is."""
        service = self.room.daily_service
        lock = self._daily_posting.setdefault((guild_id, game, day), asyncio.Lock())
        async with lock:
            place = await self.room.bot.store.daily_day(guild_id, game, day)
            if place is None or not place.channel_id:
                return
            board = await service.board(guild_id, game, day)
            kind = self.room.tables.registry.kind(game)
            deal = await service.deal(guild_id, game, day)
            closed = self.room.tables.shared.clock.time() >= deal.ends_at
            with await self.room.settings.public(guild_id):
                title = kind.words.title(deal.rules)
                played = sum(1 for row in board if row.score is not None)
                view = day_message_view(game)
                panel = (closed_public_panel if closed else public_panel)(
                    title, game, day, played)
            embed = to_embed(panel)
            digest = hashlib.sha256(repr(embed.to_dict()).encode()).hexdigest()[:32]
            if closed:
                digest = CLOSED + digest  # (the store lists the days not closed yet)
            else:
                self._close_at_end(guild_id, game, day, deal.ends_at)
            if place.shown == digest and place.message_id is not None:
                return  # nothing new to show: no request
            channel = self.room.bot.get_partial_messageable(place.channel_id)
            message_id = place.message_id
            try:
                if message_id is not None and (closed or not too_old_for_edits(
                        message_id, self.room.clock.time())):
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
                        await self.room.bot.store.set_daily_day(guild_id, game, day,
                                                           place.channel_id, message_id,
                                                           digest)
                        return
                if closed:
                    return  # never posted, or gone: a day over needs no new message
                sent = await channel.send(embed=embed, view=view)
                await self.room.bot.store.set_daily_day(guild_id, game, day, place.channel_id,
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
            await self.room.tables.shared.clock.sleep_until(ends_at)
            try:
                await self.public(guild_id, game, day)
            except Exception as exc:  # the store down: the next start closes it
                log.warning("the deal of the day's message of %s in %s: not closed (%r)",
                            day, guild_id, exc)

        task = asyncio.create_task(close(), name=f"daily-close-{guild_id}-{game}-{day}")
        self._closers[key] = task
        task.add_done_callback(lambda _: self._closers.pop(key, None))

    async def close_ended_days(self) -> None:
        """At start: the day messages of the days that ended while the bot was away
        closed, the others' closing at their end planned."""
        for guild_id, game, day in await self.room.bot.store.daily_open_days():
            # This process's servers only (another shard's process closes its own).
            if game in self.room.tables.registry.games \
                    and self.room.bot.get_guild(guild_id) is not None:
                await self.public(guild_id, game, day)

    def close(self) -> None:
        for task in list(self._closers.values()):
            task.cancel()
