"""The deal of the day in the page (issue 54): the member's own play of a game's daily,
opened from the home page, shown as the member's seat at a table (the same view a
table's page gets, bot/web/frames.py, of the daily's Table), and played through the
daily service as the message panel plays it (`DailyService.open`, `.act`): the same one
try (a finished play is refused, DAILY_DONE), the same sealing (the day's rules fixed at
its first play, a play past its day's end and grace refused, DAILY_OVER), the same
record. A play begun in the page and taken up in the panel (or the reverse) is the same
play: both read and write the store's one play of the member, server, game and day.

What only the bot's cogs know (the lobby's message, the day's public message, the
result as the panel shows it) the page asks of its `Front`, handed by the Entry Point's
launch (cogs/tables/entry_point.py): the Activity's backend knows no cog."""

from __future__ import annotations

from typing import Any, Protocol

from bot.i18n import _, use_locale
from bot.tables.daily import DailyService
from bot.tables.daily_deal import DAILY, DAILY_NOT_STARTED, DailyState
from bot.tables.errors import TableError
from bot.tables.panel import Panel
from bot.tables.table import Table
from bot.web.connection import Refusal
from bot.web.frames import panel_json, view_frame


class Front(Protocol):
    """What the page asks of the bot's messages side (the table cog's rooms)."""

    async def new_table(self, guild_id: int, channel_id: int, user_id: int, name: str,
                        game: str) -> Table:
        """Open a lobby of `game` in the channel, hosted by the member, as `/<game> new`
        does, and post it as the channel's table message."""
        ...

    async def daily_played(self, state: DailyState, channel_id: int) -> None:
        """The member began or moved in their daily: the day's public message."""
        ...

    async def daily_result(self, state: DailyState) -> Panel:
        """A finished play's result, as the panel shows it (in the locale of now)."""
        ...


async def open_daily(daily: DailyService, front: Front | None, guild_id: int,
                     channel_id: int, user_id: int, name: str, game: str,
                     language: str) -> tuple[str, dict[str, Any]]:
    """The member's play of today's deal of `game`, begun or taken up (refused as the
    panel refuses it: a second try, a day off): its day and its first view."""
    if game not in daily.games:
        raise Refusal("bad_frame")
    state = await daily.open(guild_id, game, user_id, name)
    if front is not None:
        await front.daily_played(state, channel_id)
    return state.deal.day, await daily_view(daily, front, state, user_id, language)


async def act_daily(daily: DailyService, front: Front | None, guild_id: int,
                    channel_id: int, user_id: int, game: str, day: str, language: str,
                    frame: dict[str, Any]) -> dict[str, Any]:
    """One of the member's legal actions in their daily, at the view's version: the
    service checks the version, the day and the one try; the view after it (the AI
    players answered), with the result once the deal is over."""
    version, wanted = frame.get("version"), frame.get("action")
    if not isinstance(version, int) or not isinstance(wanted, dict):
        raise Refusal("bad_frame")
    state = await daily.state(guild_id, game, user_id, day)
    if state is None:
        raise TableError(DAILY, reason=DAILY_NOT_STARTED)
    action = None
    if not state.finished:
        seat = state.deal.seat
        action = state.kind.legal_action(state.game, seat, wanted)  # found by the game
        if action is None and state.kind.to_act(state.game) == seat:
            raise Refusal("unknown_action")
    # (No such move, or not the member's turn: the service refuses it as stale.)
    state = await daily.act(guild_id, game, user_id, version, day, action,
                            channel_id=channel_id)
    if front is not None:
        await front.daily_played(state, channel_id)
    return await daily_view(daily, front, state, user_id, language)


async def daily_view(daily: DailyService, front: Front | None, state: DailyState,
                     user_id: int, language: str) -> dict[str, Any]:
    """The member's view of their play: their seat at the daily's table, the day, and,
    once finished, its result."""
    frame = view_frame(daily.table(state), user_id, language)
    for key in ("hint", "claim"):  # a daily's panel offers neither (one try, alone)
        frame.pop(key, None)
    if state.finished:
        # The day's one deal is over: its result, not the next deal the game dealt.
        for key in ("scene", "hand", "actions", "groups", "panel", "hint", "claim", "final"):
            frame.pop(key, None)
        with use_locale(language):
            frame["title"] = state.kind.words.title(state.deal.rules)
    with use_locale(language):
        frame["daily"] = {"game": state.deal.game, "day": state.deal.day,
                          "home": _("Back to the home page")}
    if state.finished and front is not None:
        with use_locale(language):
            frame["result"] = panel_json(await front.daily_result(state))
    return frame
