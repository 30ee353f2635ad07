"""The words of the deal of the day (bot/tables/daily.py): its public message, a
member's result, the review after playing, its boards. Built from plain values (names,
scores as the game words them, matchpoints), never from a game's state."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, ngettext
from bot.render.guide import matchpoints_text
from bot.tables.names import safe_markdown
from bot.tables.panel import BLUE, GOLD, GREEN, Panel, shorten

# A board shows this many members (an embed's description stays well within its limit).
BOARD_ROWS = 20


def percent(matchpoints: float) -> str:
    """Matchpoints (0..1) as players read them: a whole percentage."""
    return f"{round(matchpoints * 100)}%"


def public_panel(title: str, command: str, day: str, finished: int) -> Panel:
    """The one public message of a server's day: how many have played (not how many are
    playing: a play begun changes nothing here, so it costs no edit) and where the
    standings are. Not the standings themselves: every member of the server reads this
    message, and one who has not finished must not see another's result (a spoiler
    only hides it until clicked, https://support.discord.com/hc/en-us/articles/
    360022320632-Spoiler-Tags); the day's board is theirs once they have played."""
    lines = [_("Everyone on this server plays the same cards today, against the same AI "
               "players, in their own panel: /{command} daily.").format(command=command),
             ngettext("{count} member has played", "{count} members have played",
                      finished).format(count=finished)]
    if finished:
        lines.append(_("The standings: /{command} daily board:today, once you have "
                       "played yours.").format(command=command))
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 description="\n".join(lines), colour=GOLD)


def opened_text(title: str, day: str) -> str:
    """Over a member's panel as their daily begins."""
    return _("Your deal of the day ({game}, {day}): only you see it; play at your own "
             "pace, one try.").format(game=title, day=day)


def dm_opened_text(server: str, title: str, day: str) -> str:
    """Over a member's daily panel in their direct messages (`server`: its name, made
    safe as markdown by the caller)."""
    return _("Your deal of the day on {server} ({game}, {day}): play at your own pace, "
             "one try.").format(server=server, game=title, day=day)


def dm_sent_text() -> str:
    """The answer to `/<game> daily dm:True` once the panel is in the member's DMs."""
    return _("Your deal of the day is in your direct messages.")


def dm_refused_text() -> str:
    """Over the panel when Discord refused the DM (error 50007): it is shown here."""
    return _("Discord would not let me send you a direct message (they may be closed for "
             "this server), so here it is:")


def result_panel(title: str, day: str, score: str, matchpoints: float, rank: int,
                 results: int, review: Panel, mine: Sequence[str], best: Sequence[str],
                 best_name: str, ai_choices: Sequence[str],
                 board: Sequence[tuple[int, str, float, str]] = ()) -> Panel:
    """A member's finished daily: their result and matchpoints against the results so
    far, the deal face up (the game's review), their line beside the best result's, and
    where the strongest AI would have played otherwise, and the day's board so far."""
    head = _("You made {score}: {percent} of the matchpoints, place {rank} of "
             "{count}.").format(score=score, percent=percent(matchpoints), rank=rank,
                                count=results) + "\n" + matchpoints_text()  # issue 52
    fields = list(review.fields)
    fields.append((_("Your line"), shorten(" · ".join(mine) or "-", 1024), False))
    fields.append((_("The best line ({name})").format(name=safe_markdown(best_name)),
                   shorten(" · ".join(best) or "-", 1024), False))
    if ai_choices:
        fields.append((_("The strong AI would have played otherwise"),
                       shorten("\n".join(ai_choices), 1024), False))
    if board:
        fields.append((_("The day's board so far"), shorten("\n".join(
            f"{rank}. {safe_markdown(name)} · {percent(mp)} · {extra}"
            for rank, name, mp, extra in board[:BOARD_ROWS]), 1024), False))
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 description=f"{head}\n\n{review.description}" if review.description
                 else head, fields=tuple(fields), colour=GREEN)


def board_panel(title: str, period: str, rows: Sequence[tuple[int, str, float, str]],
                min_days: int) -> Panel:
    """A board: the day's (rank, name, matchpoints, the score in words), or a weekly or
    monthly ladder (rank, name, average matchpoints, days played)."""
    heading = {"day": _("Deal of the day: today's board ({game})"),
               "week": _("Deal of the day: this week's ladder ({game})"),
               "month": _("Deal of the day: this month's ladder ({game})")}[period]
    lines = [f"{rank}. {safe_markdown(name)} · {percent(mp)} · {extra}"
             for rank, name, mp, extra in rows[:BOARD_ROWS]]
    if not lines:
        lines = [_("Nobody is on this board yet.")]
    lines.append(matchpoints_text())  # what the percentages are (issue 52)
    if period != "day":
        lines.append(ngettext("Average matchpoints over the days that are over; at least "
                              "{count} day played.",
                              "Average matchpoints over the days that are over; at least "
                              "{count} days played.", min_days).format(count=min_days))
    return Panel(title=heading.format(game=title), description="\n".join(lines), colour=BLUE)


def days_text(days: int) -> str:
    return ngettext("{count} day", "{count} days", days).format(count=days)


def stats_line(days: int, matchpoints: float | None) -> str:
    """A member's daily in their stats: this month's days that are over."""
    if matchpoints is None:
        return _("Deal of the day: not played this month.")
    return ngettext("Deal of the day: {percent} average over {count} day this month.",
                    "Deal of the day: {percent} average over {count} days this month.",
                    days).format(percent=percent(matchpoints), count=days)


def settings_text(enabled: bool, channel: int | None, preset: str | None,
                  house: Sequence[str], time_zone: str | None) -> str:
    """A server's daily settings, as saved."""
    lines = [_("Deal of the day: on") if enabled else _("Deal of the day: off"),
             _("Channel: {channel}").format(channel=f"<#{channel}>") if channel
             else _("Channel: where the first member plays it each day"),
             _("Preset: {preset}").format(preset=preset or _("the default")),
             _("House rules: {rules}").format(rules=", ".join(house) or _("none")),
             _("Time zone: {zone}").format(zone=time_zone or "UTC")]
    return "\n".join(lines)
