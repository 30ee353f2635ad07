"""The table's public views: the lobby, the table message, a deal's summary, a ping,
the final standings, their panels and pictures."""

from __future__ import annotations

import dataclasses
import io
import logging

import discord

from bot.render import (
    Panel,
    button_label,
    house_rules_placeholder,
    lobby_panel,
    picture_seat_names,
    rematch_text,
    seat_names,
    shorten,
)
from bot.render.guide import game_length_text
from bot.render.painter import Painter
from bot.render.text import (
    absent_paused_text,
    lobby_ai_add,
    lobby_ai_fill,
    lobby_ai_remove,
    lobby_cancel_option,
    lobby_host_placeholder,
    time_left_text,
    timer_text,
)
from bot.tables.lobby import rematch_answers
from bot.tables.table import LOBBY, PAUSE_ABSENT, PLAYING, Table, abandon_at
from cogs.tables.common import OPTION_LABEL_LIMIT, SELECT_OPTIONS_LIMIT, Components, table_link
from cogs.tables.components import TableButton, TableSelect

log = logging.getLogger(__name__)

def lobby_view(table: Table) -> Components:
    """The lobby's controls in at most three rows, which a phone shows whole: Join, Leave
    and Start (three buttons fit a phone's width, four did not in Norwegian), the host's
    menu (AI players, each level explained in a line, and Cancel), and the menu of the
    house rules if the game has any (a select menu takes a row of its own:
    https://discord.com/developers/docs/components/reference#action-row)."""
    view = Components()
    t = table.id
    view.add_item(TableButton(t, "join", label=button_label("join"),
                              style=discord.ButtonStyle.success))
    view.add_item(TableButton(t, "leave", label=button_label("leave")))
    view.add_item(TableButton(t, "start", label=button_label("start"),
                              style=discord.ButtonStyle.primary, disabled=not table.full))
    view.add_item(_lobby_host_menu(table))
    house = table.kind.house_rules(table.rules)
    if house:
        options = [discord.SelectOption(label=shorten(table.kind.words.option_label(key),
                                                      OPTION_LABEL_LIMIT), value=key,
                                        description=shorten(what, OPTION_LABEL_LIMIT),
                                        default=on)
                   for key, what, on in house[:SELECT_OPTIONS_LIMIT]]
        view.add_item(TableSelect(t, "house", options,
                                  placeholder=house_rules_placeholder(),
                                  min_values=0, max_values=len(options)))
    return view


def lobby_host_options(table: Table) -> list[tuple[str, str, str]]:
    """The host's menu in this lobby, each choice (value, label, line): an AI player of
    each level THIS game has (GameKind.ai_levels, weakest first) and every free seat at
    once while a seat is free; freeing the last AI seat while there is one; cancelling
    the table, always (the host, or a member with Manage Server)."""
    levels = table.kind.ai_levels
    options: list[tuple[str, str, str]] = []
    if not table.full:
        options += [(f"add:{level}", *lobby_ai_add(level, table.kind.words.ai_level_line(level)))
                    for level in levels]
        options.append(("fill", *lobby_ai_fill(levels[0])))
    if any(seat.is_ai for seat in table.seats):
        options.append(("remove", *lobby_ai_remove()))
    options.append(("cancel", *lobby_cancel_option()))
    return options


def _lobby_host_menu(table: Table) -> TableSelect:
    """The lobby's host menu (`amks:<table>:host`, the choice its value)."""
    options = [discord.SelectOption(label=shorten(label, OPTION_LABEL_LIMIT), value=value,
                                    description=shorten(line, OPTION_LABEL_LIMIT) or None)
               for value, label, line in lobby_host_options(table)[:SELECT_OPTIONS_LIMIT]]
    return TableSelect(table.id, "host", options, placeholder=lobby_host_placeholder())


def host_choice(values: list[str]) -> list[str]:
    """A choice of the lobby's host menu as the parts of the id of the button it stands
    for: "add:<level>" -> ai:<level>, "fill"/"remove" -> ai:fill/ai:remove, "cancel"."""
    choice = values[0] if values else ""
    if choice == "cancel":
        return ["cancel"]
    return ["ai", choice.removeprefix("add:")]


def summary_view(table: Table, index: int) -> Components:
    """Under a deal's result: the whole deal face up, for whoever asks, and, while the
    game goes on, each player's hand (the next deal's)."""
    view = Components()
    view.add_item(TableButton(table.id, f"review:{index}", label=button_label("review"),
                              emoji="🔍"))
    if table.stage == PLAYING:
        view.add_item(hand_button(table))
    return view


def hand_button(table: Table) -> TableButton:
    """The table's "My hand": its player's panel, from the table message, a hand's
    summary, a turn ping (in the channel or by DM) or the games list."""
    return TableButton(table.id, "hand", label=button_label("hand"),
                       style=discord.ButtonStyle.primary, emoji="🃏")




def ping_view(table: Table, activity: bool = False) -> Components:
    """Under a turn ping or a reminder: the player's hand in one tap, and the table;
    `activity`: in the table's channel with the Activity on, Play in the Activity too
    (not in a DM: Discord would open it in the DM, where no table is)."""
    view = Components()
    view.add_item(hand_button(table))
    view.add_item(table_link(table))
    if activity:
        view.add_item(activity_button(table))
    return view


def offer_view(table_id: int, seat: int) -> Components:
    """Under the host's offer of `seat` to a member: their answer (only theirs counts:
    the service checks who clicks)."""
    view = Components()
    view.add_item(TableButton(table_id, f"offer:{seat}:yes",
                              label=button_label("accept_seat"),
                              style=discord.ButtonStyle.success))
    view.add_item(TableButton(table_id, f"offer:{seat}:no",
                              label=button_label("decline_seat")))
    return view


def final_view(table: Table) -> Components:
    """Under a finished game's standings: play again with the same seats, and the
    server's leaderboard."""
    view = Components()
    started = table.meta.get("rematch_table") is not None
    view.add_item(TableButton(table.id, "rematch", label=button_label("rematch"),
                              style=discord.ButtonStyle.success, emoji="🔁",
                              disabled=started))
    view.add_item(TableButton(table.id, "leaderboard", label=button_label("leaderboard"),
                              emoji="🏆"))
    return view


def table_view(table: Table, activity: bool = False) -> Components:
    """The table message's buttons; `activity`: the Activity is on (bot/web), and opens
    this table for whoever clicks."""
    view = Components()
    view.add_item(hand_button(table))
    view.add_item(TableButton(table.id, "rules", label=button_label("rules")))
    if activity:
        view.add_item(activity_button(table))
    return view


def activity_button(table: Table) -> TableButton:
    """Play in the Activity (ActivityButton: LAUNCH_ACTIVITY in the channel clicked)."""
    return TableButton(table.id, "activity", label=button_label("activity"), emoji="🎴")
# ----------------------------------------------------------------- panels of a table

def table_names(table: Table) -> list[str]:
    """The seats' names as a live table shows them: an away member's marked, with
    "AI plays" only where the AI does (not while the table waits for its members)."""
    return seat_names(table.seats, paused=PAUSE_ABSENT in table.paused)


def table_panel(table: Table) -> Panel:
    """The public table message: the lobby, or the game as everyone may see it."""
    names = table_names(table)
    kind = table.kind
    if table.stage == LOBBY:
        options = kind.words.options_line(table.rules)
        if table.turn_timer:  # the players see the clock they sign up for
            options += "\n" + timer_text(round(table.turn_timer / 60), table.reminders,
                                         table.timeout_action)
            turns = kind.turns_each(table.rules)  # and how long a game may take (issue 52)
            if turns:
                options += "\n" + game_length_text(turns, round(table.turn_timer / 60))
        return lobby_panel(names, table.seat_of(table.host_id), table.players,
                           kind.words.lobby_title(table.rules), options)
    panel = _with_deadline(table, kind.words.table_panel(table.game, names))
    if PAUSE_ABSENT in table.paused:  # it waits for a human: say so, and how it goes on
        text = absent_paused_text(abandon_at(table))
        panel = dataclasses.replace(panel, description=f"{panel.description}\n{text}"
                                    if panel.description else text)
    return panel


def hand_panel(table: Table, seat: int, details: bool = False) -> Panel:
    """A player's own hand, for them alone: compact, so that it and its buttons fit one
    phone screen; `details`: with the whole table (the panel's Table button)."""
    return _with_deadline(table, table.kind.words.seat_panel(table.game, seat,
                                                       table_names(table),
                                                       compact=not details))


def deadline_of(table: Table) -> float | None:
    """When the turn's time runs out (epoch seconds), if the table has a turn timer and
    a human is to act."""
    deadline = getattr(table, "turn_deadline", None)
    return float(deadline) if deadline is not None else None


def _with_deadline(table: Table, panel: Panel) -> Panel:
    """`panel` with the time left for the turn under its text, as Discord's relative
    timestamp (it counts down by itself: no edit needed as time passes)."""
    deadline = deadline_of(table)
    if deadline is None:
        return panel
    line = time_left_text(deadline)
    text = f"{panel.description}\n{line}" if panel.description else line
    return dataclasses.replace(panel, description=text)


def ended_standings_panel(table: Table) -> Panel:
    """A game ended before its end (its channel lost), as it stood, for the members'
    DMs: the table's fields (seats and points, the deal as it stood) without its turn
    line and its "Open My hand" (issue 52: the closing DM ended "alice to play … Open
    My hand", of a table nobody can play any more)."""
    panel = table.kind.words.table_panel(table.game, seat_names(table.seats))
    return dataclasses.replace(panel, description="", footer=None)


def final_panel(table: Table) -> Panel:
    """The standings of a finished game."""
    return table.kind.words.final_standings(table.game, seat_names(table.seats))


TABLE_PICTURE = "table.png"
CHART_PICTURE = "totals.png"
# One process draws every picture of this bot, one at a time (bot/render/painter.py):
# however many tables change at once, drawing never holds up the answers to clicks, and
# each table's coalesced edits wait their turn instead of piling up.
PAINTER = Painter()


async def no_picture() -> None:
    return None


async def table_picture(table: Table) -> discord.File | None:
    """The picture of the public table, if the table shows pictures. The scene is read
    here, from the game as it is now, and drawn by the painter's process."""
    if table.stage != PLAYING or table.game is None or not table.switch("pictures"):
        return None
    names = picture_seat_names(table.seats, paused=PAUSE_ABSENT in table.paused)
    png = await PAINTER.table(table.kind.words.table_scene(table.game, names))
    return None if png is None else discord.File(io.BytesIO(png), filename=TABLE_PICTURE)


async def totals_chart(table: Table) -> discord.File | None:
    """The chart of the running totals, deal by deal, of a finished game."""
    if table.game is None or not table.switch("pictures"):
        return None
    totals = table.kind.running_totals(table.game)
    if not totals:
        return None
    # The target line, and the standings in the game's order (ties broken its way).
    places = ([result.place for result in sorted(table.kind.results(table.game),
                                                  key=lambda result: result.seat)]
              if table.kind.finished(table.game) else None)
    png = await PAINTER.chart(table.kind.words.title(table.rules), picture_seat_names(table.seats),
                              totals, getattr(table.rules, "target", None), places)
    return None if png is None else discord.File(io.BytesIO(png), filename=CHART_PICTURE)


def with_picture(embed: discord.Embed, picture: discord.File | None) -> discord.Embed:
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    return embed


def rematch_line(table: Table) -> str:
    """Who of a finished game has accepted its rematch, and who it waits for."""
    return rematch_text(*rematch_answers(table, seat_names(table.seats)))



