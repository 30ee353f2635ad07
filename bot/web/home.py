"""The Activity's home page: what its Entry Point command opens (the App Launcher's entry,
cogs/tables/entry_point.py). The member's open tables in this server as `/games` lists
them (the same panel, bot.render.days.games_panel); this channel's table, to open, or,
with none, each game's "New table" (opened as `/<game> new` opens one: Front.new_table);
and each game's deal of the day the server plays, to play here (bot/web/daily_page.py),
or, once played, the note that it was."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.i18n import _, use_locale
from bot.render import seat_names
from bot.render.days import games_panel, lobby_turn_text
from bot.render.guide import nothing_open_text
from bot.render.recap import recap_lines
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.names import safe_plain
from bot.tables.service import TableService
from bot.tables.since import played_for_key
from bot.tables.table import LOBBY, PLAYING, Table
from bot.web.frames import panel_json

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DailyOffer:
    """A game's deal of the day in this server, as the home page offers it: its day, and
    whether the member has finished their one try of it."""

    game: str
    day: str
    played: bool


async def daily_offers(tables: TableService, guild_id: int, user_id: int
                       ) -> list[DailyOffer]:
    """Each game's deal of the day open now in the server (its daily on, a day open),
    and whether the member has played it (a play finished: their one try)."""
    daily = tables.daily
    offers = []
    for game in tables.registry.games:
        if not (await daily.settings(guild_id, game)).enabled:
            continue
        try:
            day = await daily.today(guild_id, game)
        except TableError:  # between two days (a time zone moved)
            continue
        play = await daily.store.daily_play(guild_id, game, day, user_id)
        offers.append(DailyOffer(game, day, play is not None
                                 and play.finished_at is not None))
    return offers


def game_title(kind: GameKind) -> str:
    """A game's name as its words title a table of its default rules."""
    return kind.words.title(kind.make_rules(None, kind.default_players, {}))


def home_frame(tables: TableService, guild_id: int, channel_id: int, user_id: int,
               language: str, dailies: list[DailyOffer] | None = None) -> dict[str, Any]:
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
        if here is not None and here.guild_id == guild_id and here.stage in (LOBBY, PLAYING):
            frame["open"] = _("Open this channel's table")
        else:
            frame["new"] = [{"game": name,
                             "label": _("New table: {game}").format(
                                 game=game_title(kind))}
                            for name, kind in tables.registry.games.items()]
        frame["daily"] = [_offer(tables, offer) for offer in dailies or ()]
        return frame


def _offer(tables: TableService, offer: DailyOffer) -> dict[str, Any]:
    title = game_title(tables.registry.kind(offer.game))
    if offer.played:
        return {"game": offer.game, "day": offer.day,
                "note": _("You played today's deal ({day}) of {game}: come back "
                          "tomorrow.").format(day=offer.day, game=title)}
    return {"game": offer.game, "day": offer.day,
            "label": _("Play today's deal: {game} ({day})").format(game=title,
                                                                  day=offer.day)}


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


async def page_recap(tables: TableService, table: Table, user_id: int, seen: int
                     ) -> dict[str, Any] | None:
    """"While you were away" for a member's page opening `table` (in the locale of now):
    the hand panel's lines (bot/render/recap.py) from the table's record, since the
    member's last move there and the version `seen` they last saw; None when nobody else
    acted since, or the store does not answer (the table matters more)."""
    seat = table.seat_of(user_id)
    if seat is None or table.game is None:
        return None
    store = tables.shared.store
    try:
        record = await store.load_record(table.id, record_format=table.kind.record_format)
        settings = await store.get_member_settings(table.guild_id, user_id)
    except Exception:
        log.warning("no recap for %s at table %s", user_id, table.id, exc_info=True)
        return None
    for_them = [int(p) for p in settings.get(played_for_key(table.id)) or ()]
    if table.version <= seen:
        return None
    lines = recap_lines(table.kind, table.game, table.to_act,
                        seat_names(table.seats, safe_plain), record, seat, seen, for_them)
    if not lines:
        return None
    return {"title": _("While you were away"), "lines": lines, "dismiss": _("Got it")}
