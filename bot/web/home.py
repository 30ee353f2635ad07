"""The Activity's home page: what its Entry Point command opens (the App Launcher's entry,
cogs/tables/entry_point.py). The member's open tables in this server as `/games` lists
them (the same panel, bot.render.days.games_panel), how to open a new table and to play
the deal of the day (the words /games says to a member at no table: the page plays only
the table of its channel, so it tells them the commands), and whether this channel has a
table the page can open."""

from __future__ import annotations

from typing import Any

from bot.i18n import _, use_locale
from bot.render import seat_names
from bot.render.days import games_panel, lobby_turn_text
from bot.render.guide import nothing_open_text
from bot.tables.names import safe_plain
from bot.tables.service import TableService
from bot.tables.table import PLAYING, Table
from bot.web.frames import panel_json


def home_frame(tables: TableService, guild_id: int, channel_id: int, user_id: int,
               language: str) -> dict[str, Any]:
    with use_locale(language):
        mine = tables.registry.tables_of(guild_id, user_id)
        # this channel's table first, then the member's turn first (as /games)
        mine.sort(key=lambda t: (t.channel_id != channel_id, not _theirs(t, user_id)))
        rows = [_row(table, user_id, channel_id) for table in mine]
        begin = nothing_open_text(list(tables.registry.games))
        here = tables.registry.in_channel(channel_id)
        frame: dict[str, Any] = {
            "type": "home", "language": language,
            "panel": panel_json(games_panel(rows, 1, 1, begin=begin)),
            "begin": begin,
        }
        if here is not None and here.guild_id == guild_id:
            frame["open"] = _("Open this channel's table")
        return frame


def _theirs(table: Table, user_id: int) -> bool:
    seat = table.to_act if table.stage == PLAYING else None
    return seat is not None and table.seats[seat].user_id == user_id \
        and not table.seats[seat].played_by_ai


def _row(table: Table, user_id: int, channel_id: int
         ) -> tuple[str, str, str, float | None, bool]:
    """(game, where, whose turn, deadline, theirs), as a row of /games; where: this
    channel or another (the page shows text: no channel mention)."""
    where = _("This channel") if table.channel_id == channel_id else _("Another channel")
    title = table.kind.words.title(table.rules)
    seat = table.to_act if table.stage == PLAYING else None
    if seat is None:
        return title, where, lobby_turn_text(), None, False
    deadline = getattr(table, "turn_deadline", None)
    return (title, where, seat_names(table.seats, safe_plain)[seat],
            float(deadline) if deadline is not None else None, _theirs(table, user_id))
