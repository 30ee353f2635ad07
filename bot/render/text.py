"""Text every game shares: the lobby, seat names, the turn reminder, the leaderboard and
statistics, the platform's refusals by code, and replies cut to Discord's limits.

A game's own words live in its `text.py` (bot/games/<name>/text.py), reached through its
GameKind. Inputs here are plain values (seat names, counts, codes), never a `Table` or a
game's state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.cards import card_label, card_list
from bot.errors import (
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    NOT_YOUR_TURN,
    SHARED_CODES,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)
from bot.i18n import N_, _, ngettext, pgettext
from bot.tables.errors import TableError
from bot.tables.names import safe_markdown, safe_plain
from bot.tables.panel import BLUE, QUOTE_LIMIT, Panel, quote, shorten

__all__ = [
    "CONTENT_LIMIT", "DESCRIPTION_LIMIT", "EMBED_TOTAL_LIMIT", "PLATFORM_CODES",
    "FIELD_COUNT_LIMIT", "FIELD_NAME_LIMIT", "FIELD_VALUE_LIMIT", "FOOTER_LIMIT",
    "INTERNAL_ERROR", "QUOTE_LIMIT", "TITLE_LIMIT", "ErrorTextKind", "Panel", "SeatLike",
    "ai_seat_label", "card_list", "error_text", "fit_panel", "internal_error",
    "leaderboard_panel", "lobby_panel", "picture_seat_names", "quote", "seat_label",
    "seat_names", "shared_sentence", "shorten",
    "stats_panel", "turn_mention",
    # the table's controls and replies
    "BUTTON_LABELS", "away_text", "back_text", "button_label", "cancelled_panel",
    "cancelled_text", "export_note", "game_done_panel", "game_over_text",
    "game_started_text", "joined_text", "left_button_text", "left_text", "moved_on_text",
    "old_button_text", "reminder_text", "replaced_text", "table_closed_text",
    "timeout_text",
]


# ----------------------------------------------------------------- Discord's limits

# Discord refuses a whole message if one part is over its limit, and the user then sees
# "This interaction failed": every reply is cut to these first.
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000


def _embed_size(panel: Panel) -> int:
    return (len(panel.title) + len(panel.description) + len(panel.footer or "")
            + sum(len(name) + len(value) for name, value, _ in panel.fields))


def fit_panel(panel: Panel) -> Panel:
    """The panel cut to what one embed may hold: each part to its limit (an empty field
    shows "—", as Discord refuses empty ones), at most 25 fields, and 6,000 characters in
    all, by dropping the last fields and then shortening the description."""
    fields = tuple((shorten(name, FIELD_NAME_LIMIT) or "—",
                    shorten(value, FIELD_VALUE_LIMIT) or "—", inline)
                   for name, value, inline in panel.fields[:FIELD_COUNT_LIMIT])
    fitted = replace(panel, title=shorten(panel.title, TITLE_LIMIT),
                     description=shorten(panel.description, DESCRIPTION_LIMIT),
                     footer=shorten(panel.footer, FOOTER_LIMIT) if panel.footer else None,
                     fields=fields)
    while fitted.fields and _embed_size(fitted) > EMBED_TOTAL_LIMIT:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    excess = _embed_size(fitted) - EMBED_TOTAL_LIMIT
    if excess > 0:  # title and footer together are far below the total: cut the rest
        description = fitted.description
        fitted = replace(fitted, description=shorten(description, len(description) - excess))
    return fitted


# ----------------------------------------------------------------- seat names

class SeatLike(Protocol):
    """What a seat's name is made of (bot.tables.Seat has it): who sits there, the name
    stored with the seat, its AI level, and whether the AI covers an absent human."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def name(self) -> str: ...

    @property
    def ai_level(self) -> str | None: ...

    @property
    def away(self) -> bool: ...


# Names older versions stored for AI seats, in English: recognised and rendered anew.
_LEGACY_NUMBERED = re.compile(r"AI ([0-9]+) \(([a-z]+)\)")
_LEGACY_REPLACED = re.compile(r"AI for (.+)", re.DOTALL)


def ai_seat_label(number: int, level: str, stored: str,
                  shown: Callable[[str], str] = safe_markdown) -> str:
    """An AI seat's name: `AI 2 (strong)` for the second AI seat added (stored name ""),
    or `AI for dave` for dave's seat handed to the AI for good (stored name "dave", as
    `shown` makes it harmless: for text, or for a picture)."""
    if stored:
        return _("AI for {name}").format(name=shown(stored))
    return _("AI {number} ({level})").format(number=number, level=_level_name(level))


def _level_name(level: str) -> str:
    """An AI level as shown (stored by its key: "easy", "strong")."""
    return {"easy": _("easy"), "strong": _("strong"), "random": _("random")}.get(level, level)


def seat_label(seats: Sequence[SeatLike], index: int,
               shown: Callable[[str], str] = safe_markdown) -> str:
    """The name of seat `index` as players read it in a message. A human's is their
    stored display name, made harmless by `shown` (bot/tables/names.py: safe_markdown for
    text, safe_plain for a picture); an AI seat's is rendered now (ai_seat_label), its
    number being its place among the AI seats added as such. Names stored by older
    versions ("AI 2 (strong)", "AI for dave") are read back into those parts, so they show
    as they always did."""
    seat = seats[index]
    if seat.user_id is not None:
        return shown(seat.name)
    number, level, stored = _ai_parts(seat)
    if number is None:  # added as an AI: count those before it
        number = 1 + sum(1 for other in seats[:index]
                         if other.user_id is None and _ai_parts(other)[2] == "")
    return ai_seat_label(number, level, stored, shown)


def _ai_parts(seat: SeatLike) -> tuple[int | None, str, str]:
    """(its number if stored, level, stored name of the human it replaced) of an AI seat."""
    level = seat.ai_level or "easy"
    numbered = _LEGACY_NUMBERED.fullmatch(seat.name)
    if numbered:
        return int(numbered.group(1)), numbered.group(2), ""
    replaced = _LEGACY_REPLACED.fullmatch(seat.name)
    if replaced:
        return None, level, replaced.group(1)
    return None, level, seat.name


def seat_names(seats: Sequence[SeatLike], shown: Callable[[str], str] = safe_markdown
               ) -> list[str]:
    """Every seat's name as the table shows it in a message (`shown`: see seat_label):
    an absent human's marked as such."""
    names = []
    for index, seat in enumerate(seats):
        name = seat_label(seats, index, shown)
        if seat.away:
            name = _("{name} (away, AI plays)").format(name=name)
        names.append(name)
    return names


def picture_seat_names(seats: Sequence[SeatLike]) -> list[str]:
    """Every seat's name as a picture shows it: without invisible characters, and no
    Markdown escapes (a picture renders none)."""
    return seat_names(seats, safe_plain)


# ----------------------------------------------------------------- lobby and turns

def lobby_panel(names: Sequence[str], host: int | None, players: int, title: str,
                options: str) -> Panel:
    """A table waiting for players: `names` of the seats taken, `host` the host's seat,
    `players` the seats in all; `title` and the `options` line are the game's."""
    seats = "\n".join((_("{number}. {name} (host)") if i == host else _("{number}. {name}"))
                      .format(number=i + 1, name=name) for i, name in enumerate(names))
    free = players - len(names)
    seats += "".join("\n" + _("{number}. *free*").format(number=len(names) + i + 1)
                     for i in range(free))
    status = (_("Ready: the host can start.") if free == 0
              else ngettext("Waiting for {missing} more player.",
                            "Waiting for {missing} more players.", free).format(missing=free))
    return Panel(title=title, description=f"{options}\n\n{seats}\n\n{status}",
                 footer=_("Join to take a seat. The host can add AI players and start."),
                 colour=BLUE)


def turn_mention(user_id: int, title: str) -> str:
    """One line that mentions the player to act (who has no open panel to follow the
    game) at a table of the game called `title`."""
    return _("{mention}, it is your turn at the {game} table.").format(
        mention=f"<@{user_id}>", game=title)


# ----------------------------------------------------------------- leaderboard and stats

def leaderboard_panel(rows: Sequence[tuple[str, int, int, int]], page: int, pages: int,
                      order: str, month_asked: bool = False) -> Panel:
    """rows: (name, games, wins, points). `month_asked`: the reader chose this month,
    which only the rating board has (wins and points are kept all time)."""
    note = ("\n\n" + _("Wins and points count all time; this month's board is the "
                        "rating's.")) if month_asked else ""
    if not rows:
        return Panel(title=_("Leaderboard"),
                     description=_("No finished games on this server yet.") + note,
                     colour=BLUE)
    start = (page - 1) * 10
    lines = [_("{place}. **{name}** — {wins}, {points} pts ({games})").format(
        place=start + i + 1, name=name, points=points,
        wins=ngettext("{count} win", "{count} wins", wins).format(count=wins),
        games=ngettext("{count} game", "{count} games", games).format(count=games))
        for i, (name, games, wins, points) in enumerate(rows)]
    title = _("Leaderboard — by wins") if order == "wins" else _("Leaderboard — by points")
    return Panel(title=title, description="\n".join(lines) + note,
                 footer=page_footer(page, pages), colour=BLUE)


def decimal(value: float) -> str:
    """A rating as players read it: one decimal, the language's decimal sign."""
    return f"{value:.1f}".replace(".", pgettext("decimal sign", "."))


def rated_deals(count: int) -> str:
    return ngettext("{count} rated deal", "{count} rated deals", count).format(count=count)


def _wins(count: int) -> str:
    return ngettext("{count} win", "{count} wins", count).format(count=count)


def rating_board_panel(rows: Sequence[tuple[str, float, int, bool, int]], page: int,
                       pages: int, month: str | None, min_deals: int) -> Panel:
    """A page of the rating board: rows (name, rating (the ordinal), rated deals,
    settled, games won), the settled members first, then the provisional ones (fewer
    than `min_deals` rated deals), all time or `month`'s season ('YYYY-MM')."""
    title = (_("Leaderboard — by rating") if month is None
             else _("Leaderboard — by rating, {month}").format(month=month))
    if not rows:
        return Panel(title=title, description=_("Nobody has a rated deal yet."),
                     colour=BLUE)
    start = (page - 1) * 10
    lines = []
    for i, (name, rating, deals, settled, wins) in enumerate(rows):
        line = _("{place}. **{name}** — {rating} · {wins} · {deals}").format(
            place=start + i + 1, name=name, rating=decimal(rating), wins=_wins(wins),
            deals=rated_deals(deals))
        lines.append(line if settled else _("{line} · provisional").format(line=line))
    if not all(row[3] for row in rows):
        lines.append(ngettext(
            "_Provisional: fewer than {count} rated deal; the rating is still settling._",
            "_Provisional: fewer than {count} rated deals; the rating is still settling._",
            min_deals).format(count=min_deals))
    return Panel(title=title, description="\n".join(lines),
                 footer=page_footer(page, pages), colour=BLUE)


def rating_lines(rating: tuple[float, float, float, int] | None,
                 season: tuple[float, float, float, int] | None, trend: float | None,
                 min_deals: int) -> list[str]:
    """A member's rating for `stats`, the value the board shows, by the same name: all
    time and this month, each (mu, sigma, rating (the ordinal), rated deals) or None,
    and how the rating moved in the last 30 days."""
    if rating is None:
        return [_("Rating: no rated deals yet.")]
    mu, sigma, ordinal, deals = rating
    lines = [_("Rating: {rating} ({deals})").format(rating=decimal(ordinal),
                                                   deals=rated_deals(deals))]
    if trend is not None:
        if round(trend, 1) > 0:
            lines.append(_("Last 30 days: ▲ {change}").format(change=decimal(trend)))
        elif round(trend, 1) < 0:
            lines.append(_("Last 30 days: ▼ {change}").format(change=decimal(-trend)))
        else:
            lines.append(_("Last 30 days: no change"))
    if season is not None:
        lines.append(_("This month: {rating} ({deals})").format(
            rating=decimal(season[2]), deals=rated_deals(season[3])))
    if deals < min_deals:
        lines.append(ngettext("Provisional: settled after {count} more rated deal.",
                              "Provisional: settled after {count} more rated deals.",
                              min_deals - deals).format(count=min_deals - deals))
    lines.append(_("The rating is the skill the bot is sure of ({skill} less three "
                   "times its uncertainty {uncertainty}): it rises with the deals you "
                   "play well yourself, never with the AI's play for you.").format(
        skill=decimal(mu), uncertainty=decimal(sigma)))
    return lines


def stats_panel(name: str, games: int, wins: int, points: int,
                game_lines: Sequence[str], rating: Sequence[str] = ()) -> Panel:
    """A member's results in one game: what every game has (games, wins, points), then
    `game_lines`, the game's own statistics in its words (GameKind.stats_lines), and
    `rating`, their rating's lines (rating_lines)."""
    title = _("Stats — {name}").format(name=name)
    if not games:
        return Panel(title=title, colour=BLUE, description="\n".join(
            [_("No finished games yet."), *rating]))
    rate = f"{100 * wins / games:.0f}%"
    return Panel(title=title, colour=BLUE, description="\n".join([
        _("Games: {games} · wins: {wins} ({rate})").format(games=games, wins=wins, rate=rate),
        _("Points: {points}").format(points=points),
        *rating,
        *game_lines,
    ]))


# ----------------------------------------------------------------- refusals

# Marked for extraction here, translated when shown (internal_error()).
INTERNAL_ERROR = N_("Something went wrong on our side; nothing was changed. Please try again.")


class _ErrorWords(Protocol):
    def error_text(self, error: GameError) -> str: ...


class ErrorTextKind(Protocol):
    """What error_text needs of a game (bot.tables.kind.GameKind has it): read-only, as
    GameKind's properties are."""

    @property
    def name(self) -> str: ...

    @property
    def words(self) -> _ErrorWords: ...


def internal_error() -> str:
    """The apology for a failure of ours, in the locale of the moment."""
    return _(INTERNAL_ERROR)


def error_text(error: GameError, kind: ErrorTextKind | None = None) -> str:
    """The sentence for a refusal: the platform's own (TableError, and discord.py's
    refusals the cog names by code) from the table below; a game's through `kind`, the
    game whose rules refused it. Words come from codes and parameters, never from the
    error itself."""
    if isinstance(error, TableError) or kind is None:
        # A sentence that names a command names the game's: the refusal's own `game`,
        # else that of the game answering.
        game = error.params.get("game") or getattr(kind, "name", None)
        return _platform_sentence(error.code, error.params).replace("{game}", game or "")
    sentence = kind.words.error_text(error)
    if sentence == error.code and error.code in SHARED_CODES:
        # The game does not word this shared code (it says so by giving the code back):
        # the platform's words for it serve every game.
        return shared_sentence(error)
    return sentence


def shared_sentence(error: GameError) -> str:
    """The platform's sentence for a code every game shares (bot/errors.py), for a game
    that does not word it more closely with its own parameters."""
    p = error.params
    code = error.code
    if code == NOT_YOUR_TURN and "to_act" in p and "seat" in p:
        return _("It is seat {to_act}'s turn, not seat {seat}'s.").format(
            to_act=p["to_act"], seat=p["seat"])
    if code == CARD_NOT_IN_HAND and isinstance(p.get("card"), int):
        return _("You do not hold {card}.").format(card=card_label(p["card"]))
    return {
        INVALID_RECORD: _("This record cannot be replayed."),
        INVALID_RULES: _("These rules cannot be played."),
        INVALID_DEAL: _("This deal cannot be played."),
        INVALID_CARD: _("That is not a card."),
        NOT_YOUR_TURN: _("It is not your turn."),
        WRONG_PHASE: _("That is not possible now."),
        CARD_NOT_IN_HAND: _("You do not hold that card."),
        WRONG_CARD_COUNT: _("That is not the right number of cards."),
        GAME_OVER: _("The game is over."),
    }[code]


def _platform_sentence(code: str, params: dict[str, Any]) -> str:
    """The sentence, with `{game}` left for error_text to fill in."""
    reason = params.get("reason")
    if code in _VARIANTS:
        variants = _VARIANTS[code]()
        return variants.get(reason, variants[None])
    sentence = _WITH_PARAMS.get(code)
    if sentence is not None:
        return sentence(params)
    fixed = _fixed()
    if code in fixed:
        return fixed[code]
    return _(INTERNAL_ERROR)  # a code nobody words: a bug of ours, not the user's


def _fixed() -> dict[str, str]:
    return {
        "restarting": _("The bot is restarting: try again in a moment."),
        "no_table": _("There is no table in this channel. Start one with /{game} new."),
        "table_full": _("Every seat is taken."),
        "no_ai": _("There is no AI player to remove."),
        "host_leaving": _("You are the host: cancel the table instead (Cancel the table "
                          "in the lobby's menu, or /{game} cancel)."),
        "already_away": _("You are already away: the AI plays your seat until /{game} "
                          "back."),
        "already_started": _("The game has already started."),
        "storage_failed": _("Something went wrong saving that; it was not played. Please try "
                            "again."),
        "not_allowed": _("Only members with Manage Server can change the server's defaults."),
        "rematch_started": _("The rematch has already started."),
        "hints_off": _("This table plays without hints."),
        "not_offered": _("That seat is not offered to you (any more)."),
        # Refusals by discord.py, before a command runs.
        "outdated_command": _("Discord showed you an older version of this command: please "
                              "try again in a minute."),
        "guild_only": _("This command works in a server's channels only."),
        "not_permitted": _("You do not have the permission this command needs."),
        "bot_not_permitted": _("I am missing a permission in this channel, so I cannot do "
                               "that here."),
        "slow_down": _("Not so fast: please try again in a moment."),
        "not_allowed_here": _("You cannot use this command here."),
        "not_a_member": _("That member is not on this server."),
        "bad_option": _("One of the options could not be read: please choose it again."),
        "elsewhere": _("That button belongs to a table in another channel: nothing was "
                       "changed."),
        # A click in a DM, for a table another shard process runs, that it did not take
        # (bot/store/relay.py): nothing was read or changed.
        "shard_unreachable": _("The part of the bot that runs this table is not answering: "
                               "nothing was changed. Try again in a moment."),
    }


# Codes with several sentences, by `reason` (None: the one without a reason).
_VARIANTS: dict[str, Callable[[], dict[Any, str]]] = {
    "channel_busy": lambda: {
        None: _("This channel already has a table: finish or cancel it first (/{game} "
                "cancel)."),
        "taken_meanwhile": _("This channel already has a table.")},
    "already_seated": lambda: {
        None: _("You are already at this table."),
        "someone_else": _("They already play at this table.")},
    "not_seated": lambda: {
        None: _("You are not at this table."),
        "not_playing": _("You are not playing at this table.")},
    "not_started": lambda: {
        None: _("The game has not started."),
        "not_yet": _("The game has not started yet."),
        "over": _("The game is over.")},
    "stale": lambda: {
        None: _("That has moved on: open your hand again."),
        "choices": _("That has moved on: open your hand again for the current choices.")},
    "database_down": lambda: {
        None: _("The database is not answering; your move was not played. Try again in a "
                "moment."),
        "change": _("The database is not answering; nothing was changed. Try again in a "
                    "moment.")},
    "daily": lambda: {
        None: _("The deal of the day cannot be played now."),
        "done": _("You have played today's deal of the day: one try a day. Your result "
                  "and the day's board are in /{game} daily board; a new deal comes "
                  "tomorrow."),
        "off": _("This server has turned the deal of the day off."),
        "not_started": _("Open your deal of the day with /{game} daily first."),
        "stale": _("That has moved on: open your deal of the day again with /{game} "
                   "daily."),
        "board_first": _("Today's board shows once you have played today's deal (/{game} "
                         "daily).")},
    "no_game": lambda: {
        None: _("There is no such game on this server."),
        "nothing_here": _("No game to export here: name a game number."),
        "rematch": _("Only a finished game can be played again.")},
}


def _bad_input(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "negative_timer":
        return _("The turn timer cannot be negative.")
    if reason == "long_timer":
        return _("A turn timer can be at most {length}.").format(
            length=duration_text(int(p["minutes"])))
    if reason == "timer":
        return _("{typed} is not a turn timer: give a length such as 1h, 12h, 1d or 3d "
                 "(at most 7 days; 0: no timer).").format(typed=p["typed"])
    if reason == "reminder":
        return _("{point} is not a reminder point: give a share of the turn's time, such "
                 "as 50%, or the time left, such as 30m, 1h or 1d (at most {most} "
                 "points).").format(point=p["point"], most=p["most"])
    if reason == "timeout_action":
        return _("When a turn's time runs out, the AI either plays that turn (play) or "
                 "takes the seat until its player is back (seat).")
    if reason == "ai_level":
        return _("AI level is one of {levels}.").format(
            levels=_(", ").join(_level_name(level) for level in p["levels"]))
    if reason == "no_seat":
        return _("There is no seat {seat}.").format(seat=p["seat"])
    return _("That button is no longer in use.")


def _not_host(p: dict[str, Any]) -> str:
    return {"cancel": _("Only the host or a member with Manage Server can cancel this "
                        "table."),
            "add_ai": _("Only the host can add an AI player."),
            "remove_ai": _("Only the host can remove an AI player."),
            "replace": _("Only the host can replace a player."),
            "start": _("Only the host can start the game."),
            "house_rules": _("Only the host can choose the house rules."),
            "settings": _("Only the host or a member with Manage Server can change the "
                          "table's turn timer.")}[p["action"]]


def _not_away(p: dict[str, Any]) -> str:
    if "name" in p:
        return _("{name} is not away: only a seat the AI is covering can be handed "
                 "over.").format(name=p["name"])
    return _("You are not away: your seat is already yours.")


# Discord's names of the permissions a table needs (as its settings show them, in each
# language), by discord.Permissions' names for them.
PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "create_public_threads": N_("Create Public Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
}


def _bot_missing(p: dict[str, Any]) -> str:
    names = _(", ").join(_(PERMISSION_NAMES[name]) for name in p["permissions"])
    return ngettext("I cannot play here: I am missing the permission {permissions} in this "
                    "channel.",
                    "I cannot play here: I am missing the permissions {permissions} in "
                    "this channel.", len(p["permissions"])).format(permissions=names)


_WITH_PARAMS: dict[str, Callable[[dict[str, Any]], str]] = {
    "bot_missing": _bot_missing,
    "bad_input": _bad_input,
    "not_host": _not_host,
    "not_away": _not_away,
    "unknown_game": lambda p: _("There is no game {game}.").format(game=repr(p["game"])),
    "table_not_full": lambda p: ngettext("Waiting for {missing} more player.",
                                         "Waiting for {missing} more players.",
                                         p["missing"]).format(missing=p["missing"]),
    "not_your_turn": lambda p: _("It is {name}'s turn, not yours.").format(name=p["name"]),
}

# Every code the platform words itself (tests render each one).
PLATFORM_CODES = (*_VARIANTS, *_WITH_PARAMS, *_fixed())


# ----------------------------------------------------------------- the table's controls

# The labels of the buttons every game's table shares, by key (the cogs' own, never
# shown as such): marked here, translated when shown (button_label()).
BUTTON_LABELS: dict[str, str] = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "end_table": N_("End the table"),  # /games, a table whose channel is gone
    "start": N_("Start"),
    "hint": N_("Hint"),
    "review": N_("Review the deal"),
    "claim": N_("Claim the rest"),
    "table": N_("Table"),  # the hand panel shows the table in full
    "hide_table": N_("Hide the table"),  # ... and back to the compact panel
    "rematch": N_("Rematch"),
    "leaderboard": N_("Leaderboard"),
    "hand": N_("My hand"),
    "rules": N_("Rules"),
    "to_table": N_("Go to the table"),
    "open_hand": N_("Open my hand"),
    "refresh": N_("Refresh"),
    "back": N_("Back"),
    "seat_back": N_("I'm back"),
    "previous": N_("◀ Previous"),
    "next": N_("Next ▶"),
    "accept_seat": N_("Take the seat"),
    "decline_seat": N_("No, thanks"),
}


def button_label(key: str) -> str:
    """The label of one of the shared buttons (BUTTON_LABELS), in the locale of the
    moment."""
    return _(BUTTON_LABELS[key])


def house_rules_placeholder() -> str:
    """The lobby's menu of house rules."""
    return _("House rules (the host chooses)")


# The lobby's AI menu: what each level of AI player does, in one line a new player reads
# before choosing (a select option's description: at most 100 characters). Both games'
# levels play the same way: "easy" by rules of thumb, "strong" by trying each move in
# many deals consistent with what it has seen (bot/games/*/ai).
AI_LEVEL_LINES: dict[str, str] = {
    "random": N_("Plays any legal move at random."),
    "easy": N_("Plays by simple rules of thumb: good for learning the game."),
    "strong": N_("Tries each move in many possible deals: a real challenge."),
}


def lobby_host_placeholder() -> str:
    """The lobby's host menu (AI players, cancel), shut."""
    return _("AI players, or cancel (the host)")


def lobby_ai_add(level: str) -> tuple[str, str]:
    """The AI menu's option adding a player of `level`: (its label, its line)."""
    line = AI_LEVEL_LINES.get(level)
    return (_("Add an AI player: {level}").format(level=_level_name(level)),
            _(line) if line is not None else "")


def lobby_ai_fill(level: str) -> tuple[str, str]:
    """The AI menu's option giving every empty seat to an AI player of `level`."""
    return (_("Fill the empty seats with AI"),
            _("Every free seat gets an AI player ({level}).").format(
                level=_level_name(level)))


def lobby_ai_remove() -> tuple[str, str]:
    """The AI menu's option freeing the last AI seat."""
    return _("Remove an AI player"), _("The last AI seat becomes free again.")


def lobby_cancel_option() -> tuple[str, str]:
    """The host menu's option cancelling the table (the host, or Manage Server)."""
    return _("Cancel the table"), _("The lobby closes and nobody plays.")


def cancel_confirm_text() -> str:
    """For the host alone, before a table is cancelled from its lobby's menu."""
    return _("Cancel this table? The lobby closes and nobody plays.")


def cancel_confirm_labels() -> tuple[str, str]:
    """The confirmation's buttons: cancel the table, or keep it."""
    return _("Yes, cancel the table"), _("Keep the table")


def cancel_kept_text() -> str:
    """The host kept the table (the confirmation's other button)."""
    return _("The table stays open.")


# ----------------------------------------------------------------- the table's replies

def joined_text(seat: int) -> str:
    """To a player who took seat number `seat` (1 is the first)."""
    return _("You joined (seat {number}).").format(number=seat)


def game_started_text() -> str:
    return _("The game is on.")


def left_text(command: str, in_lobby: bool) -> str:
    """To a player who left, with /`command` (the game's command group)."""
    if in_lobby:
        return _("You left the table.")
    return _("You left the game for good: the AI plays your seat from now on (the deal "
             "being played still counts for your rating). /{command} away instead "
             "keeps your seat until you are back.").format(command=command)


def left_button_text(command: str) -> str:
    """To a player who left a game with the Leave button."""
    return left_text(command, False)


def away_text(command: str) -> str:
    return _("The AI plays for you until /{command} back.").format(command=command)


def back_text() -> str:
    return _("Welcome back: your seat is yours again.")


def replaced_text(seat: int, name: str | None) -> str:
    """Seat number `seat` handed to the AI for good (`name` None), or offered to the
    member `name` (it is theirs once they accept)."""
    if name is None:
        return _("Seat {number} now belongs to the AI.").format(number=seat)
    return _("The host offers seat {number} to {name}: {name}, take it or leave it with "
             "the buttons below. Until then the AI plays it.").format(number=seat,
                                                                     name=name)


def offer_answered_text(seat: int, name: str, accepted: bool) -> str:
    """The offer of seat number `seat` to `name`, answered."""
    if accepted:
        return _("Seat {number} now belongs to {name}.").format(number=seat, name=name)
    return _("{name} declined seat {number}.").format(number=seat, name=name)


def cancelled_text(name: str) -> str:
    """In the channel: `name` cancelled the table (a command)."""
    return _("The table was cancelled by {name}.").format(name=name)


def cancelled_panel(name: str) -> Panel:
    """The lobby message once `name` cancelled the table (its host menu's Cancel)."""
    return Panel(title=_("Table cancelled"),
                 description=_("Cancelled by {name}.").format(name=name))


def switches_text(switches: dict[str, Any]) -> str:
    """A server's defaults for the table switches (unset: the table's own default)."""
    def state(name: str, unset: str) -> str:
        value = switches.get(name)
        return unset if value is None else _("on") if value else _("off")
    return _("Mentions: {mentions}; pictures: {pictures}; hints: {hints}; a thread per "
             "table: {thread}.").format(
        mentions=state("mentions", _("with two humans or more")),
        pictures=state("pictures", _("on")), hints=state("hints", _("on")),
        thread=state("thread", _("off")))


def duration_text(minutes: int) -> str:
    """A length of time as people say it: whole days in days ("1 day", "1 døgn"),
    whole hours in hours ("12 hours"), else minutes."""
    if minutes and minutes % 1440 == 0:
        days = minutes // 1440
        return ngettext("{count} day", "{count} days", days).format(count=days)
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)


def per_turn_text(minutes: int) -> str:
    """A turn timer's length: "1 day a turn" ("1 døgn per trekk")."""
    if minutes and minutes % 1440 == 0:
        days = minutes // 1440
        return ngettext("{count} day a turn", "{count} days a turn", days).format(count=days)
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("{count} hour a turn", "{count} hours a turn", hours).format(
            count=hours)
    return ngettext("{count} minute a turn", "{count} minutes a turn", minutes).format(
        count=minutes)


def reminder_point_text(point: str) -> str:
    """A reminder point in the reader's units: "1h" reads "1t" in Norwegian (a table
    keeps "1h", bot/tables/durations.py)."""
    unit = {"m": pgettext("time unit", "m"), "h": pgettext("time unit", "h"),
            "d": pgettext("time unit", "d")}.get(point[-1:])
    return point if unit is None else f"{point[:-1]}{unit}"


def no_timer_text() -> str:
    """The turn timer's choice of none."""
    return _("No timer")


def no_turn_timer_text() -> str:
    """A server's defaults without a turn timer (its `settings`)."""
    return _("Turn timer: none.")


def timer_text(minutes: int, reminders: Sequence[str], action: str | None) -> str:
    """A turn timer as a table or a server's defaults have it: its length, its reminder
    points (in the reader's units: "50%", "1h"/"1t") and what its end does ("play" or
    "seat")."""
    length = per_turn_text(minutes)
    points = _(", ").join(map(reminder_point_text, reminders)) if reminders else _("none")
    end = (_("the AI takes the seat until the player is back") if action == "seat"
           else _("the AI plays that turn"))
    return _("Turn timer: {length}; reminders: {points}; when it runs out, {end}.").format(
        length=length, points=points, end=end)


def claim_text(name: str) -> str:
    """`name` claimed every remaining trick of the deal, and the claim held."""
    return _("🙌 {name} claimed the remaining tricks: the rest stands.").format(name=name)


def hint_text(sentence: str) -> str:
    """A hint for the player alone (the game's sentence)."""
    return _("💡 Hint: {sentence}").format(sentence=sentence)


def thread_name(title: str, host: str) -> str:
    """The name of a table's own thread."""
    return _("{game} with {host}").format(game=title, host=host)


def thread_opened_text(thread_id: int, title: str) -> str:
    """In the channel: a table opened in its own thread (a link to it)."""
    return _("🃏 A {game} table is open in <#{thread}>: join it there.").format(
        game=title, thread=thread_id)


def page_footer(page: int, pages: int) -> str:
    return _("Page {page} of {pages}").format(page=page, pages=pages)


def language_text(language: str) -> str:
    """The language of a server's public messages (its name in that language)."""
    name = {"nb": _("Norwegian (bokmål)")}.get(language, _("English"))
    return _("Public messages: {language}.").format(language=name)


def spectator_text() -> str:
    """To someone without a seat who asks for a hand."""
    return _("You are watching this table: only its players have a hand. The table "
             "message shows the game as everyone sees it.")


def rematch_text(accepted: Sequence[str], waiting: Sequence[str]) -> str:
    """Who has accepted a rematch, and who it waits for."""
    return _("Rematch: {accepted} in; waiting for {waiting}.").format(
        accepted=_(", ").join(accepted), waiting=_(", ").join(waiting))


def rematch_started_text() -> str:
    return _("Rematch: everyone is in. The new game has started below.")


def game_over_text() -> str:
    return _("This game is over.")


def game_over_players_text(mentions: Sequence[str]) -> str:
    """The final standings' line naming every member who was seated (a mention notifies
    each, those away or covered by the AI too: the end reaches them all)."""
    return _("🏁 The game is over: {players}").format(players=" ".join(mentions))


def table_closed_text() -> str:
    return _("This table is closed.")


def moved_on_text() -> str:
    """A click drawn for an earlier state, answered with the hand as it is now."""
    return _("That has moved on: here is your hand as it is now.")


def old_button_text() -> str:
    return _("That button is no longer in use.")


def game_done_panel() -> Panel:
    """A player's hand panel once their action ended the game."""
    return Panel(title=_("Done"), description=_("The game is over."))


def export_note(game: int, partial: bool = False) -> str:
    """What comes with an exported record of game number `game`; `partial`: a game
    being played, without the deal being played."""
    if partial:
        return _("Game {number} so far, without the deal being played (its cards are "
                 "still hidden).").format(number=game)
    return _("Game {number}.").format(number=game)


def committed_text(what: str) -> str:
    """A change is stored but Discord refused what was to show it (the answer, its edit
    or a follow-up): the truth, for the one who made it. `what`: "move", "start",
    "opened", "cancel" or any other change."""
    return {"move": _("Your move was played; the table shows it."),
            "start": _("The game has started; the table shows it."),
            "opened": _("The table is open; its message shows it."),
            "cancel": _("The table was cancelled."),
            }.get(what) or _("Your change was saved; the table shows it.")


def timeout_text(name: str, played: str) -> str:
    """In the channel: the turn timer of seat `name` ran out; `played` is the action the
    AI took for them, in a few words (the game's describe_action)."""
    return _("⏰ {name}'s time ran out: the AI played {action} for them.").format(
        name=name, action=played)


def timeout_seat_text(mention: str, played: str) -> str:
    """In the channel: `mention`'s time ran out and the AI keeps their seat until they
    are back (the table's `on_timeout` "seat"), with the way back from anywhere."""
    return _("⏰ {mention}, your time ran out: the AI played {action} for you and keeps "
             "your seat until you are back (/games, then I'm back).").format(
        mention=mention, action=played)


def absent_paused_text() -> str:
    """The table message of a table whose humans are all away: it waits for one."""
    return _("⏸ Paused: every player is away. The game goes on when one is back "
             "(/games, then I'm back), or the host cancels it.")


def away_row_text() -> str:
    """The games list: the member's seat, which the AI is covering."""
    return _("The AI is playing your seat")


def reminder_text(mention: str, deadline: float | None = None) -> str:
    """A reminder of a turn with a timer; `mention` is the turn's line (turn_mention),
    `deadline` when its time runs out (epoch seconds)."""
    if deadline is None:
        return _("⏳ {mention} Half your time is gone.").format(mention=mention)
    return _("⏳ {mention} Your time runs out {when}.").format(mention=mention,
                                                              when=timestamp(deadline))


# ----------------------------------------------------------------- playing over days

def timestamp(when: float) -> str:
    """Discord's relative timestamp: each reader's Discord shows it in their language
    ("in 2 days") and counts it down by itself.
    https://discord.com/developers/docs/reference#message-formatting-timestamp-styles"""
    return f"<t:{int(when)}:R>"


def time_left_text(deadline: float) -> str:
    """A line of the table message and the hand panel: when the turn's time runs out."""
    return _("⏳ Time left: the turn ends {when}.").format(when=timestamp(deadline))


def turn_ping_text(user_id: int, title: str, deadline: float | None) -> str:
    """The new message that tells the player to act it is their turn (a ping), with
    the time left if the table has a turn timer."""
    line = turn_mention(user_id, title)
    if deadline is None:
        return line
    return _("{line} Your time runs out {when}.").format(line=line, when=timestamp(deadline))


def dm_turn_text(server: str, channel_id: int, title: str, deadline: float | None,
                 reminder: bool = False) -> str:
    """A turn ping by direct message: which server, channel and game (the member may
    play in several), the time left if there is a timer."""
    where = _("It is your turn at the {game} table in {channel} on {server}.").format(
        game=title, channel=f"<#{channel_id}>", server=server)
    if deadline is None:
        return where
    if reminder:
        return _("⏳ {line} Your time runs out {when}.").format(line=where,
                                                               when=timestamp(deadline))
    return _("{line} Your time runs out {when}.").format(line=where, when=timestamp(deadline))


def dm_timeout_text(server: str, channel_id: int, title: str, played: str,
                    away: bool) -> str:
    """By direct message, in place of the turn's DM: the member's time ran out and the
    AI played `played` for them; `away`, the AI keeps their seat until they come back."""
    line = _("⏰ Your time ran out at the {game} table in {channel} on {server}: the AI "
             "played {action} for you.").format(game=title, channel=f"<#{channel_id}>",
                                                server=server, action=played)
    if not away:
        return line
    return _("{line} The AI plays your seat until you come back.").format(line=line)


def dm_game_over_text(server: str, channel_id: int, title: str) -> str:
    """By direct message, in place of the last DM of a table: its game is over (the
    final standings follow, in the embed)."""
    return _("The {game} game in {channel} on {server} is over.").format(
        game=title, channel=f"<#{channel_id}>", server=server)


def dm_failed_text() -> str:
    """Told once, privately, to a member who asked for turn pings by direct message
    when Discord would not deliver one (their direct messages are closed)."""
    return _("I could not send you a direct message (Discord refused it: your direct "
             "messages from this server may be closed), so your turn pings come in the "
             "table's channel again. Open them and choose direct messages again with "
             "/notify where:dm.")


def gone_standings_text(server: str) -> str:
    """By DM to each member of a table whose channel is gone (deleted): its standings,
    which have nowhere else to go."""
    return _("The channel of your table on {server} is gone, so here are its standings "
             "as they stand at the end.").format(server=server)


def notify_text(where: str) -> str:
    """The answer to /notify: where the member's turn pings and reminders now go."""
    if where == "dm":
        return _("Your turn pings and reminders in this server now come by direct "
                 "message, with a link to the table and your hand's button.")
    return _("Your turn pings and reminders in this server now come in the table's "
             "channel.")


def games_panel(rows: Sequence[tuple[str, str, str, float | None, bool]], page: int,
                pages: int, first: int = 1) -> Panel:
    """The member's open tables in this server (`/games`): rows of (game, where: the
    channel's mention (the "To the table" button beside it is the link: a raw link is
    three lines on a phone), whose turn, the deadline or None, whether it is the member's
    turn), theirs first; numbered from `first` (the page's first row), as its buttons."""
    if not rows:
        return Panel(title=_("Your games"), colour=BLUE,
                     description=_("You hold no seat at an open table in this server."))
    fields = []
    for index, (game, where, turn, deadline, mine) in enumerate(rows, start=first):
        lines = [where, _("**Your turn**") if mine else _("Turn: {name}").format(name=turn)]
        if deadline is not None:
            lines.append(time_left_text(deadline))
        fields.append((f"{index}. {game}", "\n".join(lines), False))
    return Panel(title=_("Your games"), colour=BLUE, fields=fields,
                 footer=page_footer(page, pages) if pages > 1 else "")


def lobby_turn_text() -> str:
    """The games list: a table still in its lobby (no turn yet)."""
    return _("in the lobby")


# A recap's line is kept this short (characters): it sits above the hand on a phone.
SINCE_LINE_LIMIT = 300


def since_lines(played: Sequence[tuple[str, str]], more: bool, deal_ended: int | None,
                deal_result: str | None, to_act: str | None, yours: bool,
                ended_facts: Sequence[str] = (), facts: Sequence[str] = ()) -> list[str]:
    """What happened at a table since a member's last move, above their hand panel: at
    most three short lines. `played`: (who, what) of the latest actions, each worded by
    the game from the public record (describe_action), of the running deal only if one
    ended (perhaps none); `more`: earlier ones left out; `deal_ended`/`deal_result`: the
    number (from 0) of the last deal that ended since, and the member's result in it in
    the game's words; `to_act`: whose turn (`yours`: the member's own); `ended_facts`
    and `facts`: what the game tells of the stretch (GameWords.recap_facts: who took the
    tricks, picked up the pile, went out; the ended deal's result), of the ended deal
    and of the running one, told before the plays (a line cut short loses its end)."""
    moves = "; ".join(_("{name}: {action}").format(name=name, action=action)
                      for name, action in played)
    if more:
        moves = "… " + moves
    moves = "; ".join([*facts, *([moves] if played else [])])
    lines: list[str] = []
    if deal_ended is not None:  # first: the plays named are the next deal's
        if ended_facts:
            told = "; ".join(ended_facts)
            line = (_("Deal {number} is over: {facts}. You: {result}").format(
                number=deal_ended + 1, facts=told, result=deal_result) if deal_result
                else _("Deal {number} is over: {result}").format(number=deal_ended + 1,
                                                                 result=told))
        else:
            line = (_("Deal {number} is over: {result}").format(number=deal_ended + 1,
                                                                result=deal_result)
                    if deal_result
                    else _("Deal {number} is over.").format(number=deal_ended + 1))
        lines.append(shorten(line, SINCE_LINE_LIMIT))
    if moves:
        head = (_("Since then: {moves}") if deal_ended is not None
                else _("Since your last move: {moves}"))
        lines.append(shorten(head.format(moves=moves), SINCE_LINE_LIMIT))
    if yours:
        lines.append(_("Now it is your turn."))
    elif to_act is not None:
        lines.append(shorten(_("Now it is {name}'s turn.").format(name=to_act),
                             SINCE_LINE_LIMIT))
    return lines[:3]
