"""The words of the deal of the day (bot/tables/daily.py): its public message, a
member's result, the review after playing, its boards. Built from plain values (names,
scores as the game words them, matchpoints), never from a game's state."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, isolate, ngettext
from bot.render.guide import matchpoints_text
from bot.tables.names import safe_markdown
from bot.tables.panel import BLUE, GOLD, GREEN, GREY, Panel, shorten

# The moments where the strong AI would have played otherwise that a result names
# (the others are counted; the advice button lists them all).
MOMENTS_SHOWN = 3

# A board shows this many members (an embed's description stays well within its limit).
BOARD_ROWS = 20
# The result's summary shows the top of the day's board, and the member's own row:
# the whole result fits one phone screen (issue 52), the board is a tap away.
RESULT_ROWS = 5


def percent(matchpoints: float) -> str:
    """Matchpoints (0..1) as players read them: a whole percentage."""
    return f"{round(matchpoints * 100)}%"


def board_row(rank: int, name: str, matchpoints: float, extra: str) -> str:
    """A row of a board: "1. name · 62% · the score in words", its place, name and
    percentage each one piece in right-to-left text (bot/i18n/rtl.py)."""
    return (f"{isolate(str(rank))}. {isolate(safe_markdown(name))} · "
            f"{isolate(percent(matchpoints))} · {extra}")


def closed_public_panel(title: str, command: str, day: str, finished: int) -> Panel:
    """The day's public message once its day is over: it no longer says "today"."""
    lines = [ngettext("This day's deal is over: {count} member played it.",
                      "This day's deal is over: {count} members played it.",
                      finished).format(count=finished),
             _("Today's deal: /{command} daily.").format(command=command)]
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 description="\n".join(lines), colour=GREY)


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


def done_text(command: str) -> str:
    """Over a member's result reopened with `/<game> daily` once they have played."""
    return _("You have played today's deal of the day: one try a day. Here is your "
             "result, with the day's board as it stands now; a new deal comes tomorrow "
             "(/{command} daily).").format(command=command)


def dm_sent_text() -> str:
    """The answer to `/<game> daily dm:True` once the panel is in the member's DMs."""
    return _("Your deal of the day is in your direct messages.")


def dm_refused_text() -> str:
    """Over the panel when Discord refused the DM (error 50007): it is shown here."""
    return _("Discord would not let me send you a direct message (they may be closed for "
             "this server), so here it is:")


def result_panel(title: str, day: str, score: str, matchpoints: float, rank: int,
                 results: int, ai_moments: Sequence[str],
                 board: Sequence[tuple[int, str, float, str]] = (), mine: str = "") -> Panel:
    """A member's finished daily, to fit one phone screen: their result, their place on
    the day's board so far (its top, and their own row), and where the strong AI would
    have played otherwise (the moments only: the moves and reasons, the deal face up and
    the lines are a tap away, result_detail_panel). `mine`: the member's name as the
    board shows it."""
    lines = [_("Your result: {score}.").format(score=score)]
    if results <= 1:
        lines.append(_("You are the first to finish this deal today: your place on the "
                       "day's board comes as others finish theirs."))
    else:
        lines.append(_("The day's board: place {rank} of {count}, {percent} of the "
                       "matchpoints (the share of the others' results you beat).").format(
                           rank=rank, count=results, percent=percent(matchpoints)))
    if ai_moments:
        named = list(ai_moments[:MOMENTS_SHOWN])
        more = len(ai_moments) - len(named)
        if more:  # the rest is a tap away (AI's advice): a list of every trick is noise
            named.append(ngettext("{count} more", "{count} more", more).format(count=more))
        lines.append(_("The strong AI would have played otherwise: {moments}.").format(
            moments=_(", ").join(named)))
    else:
        lines.append(_("The strong AI would have made every one of your moves."))
    fields = []
    if results > 1 and board:
        shown = [row for index, row in enumerate(board)
                 if index < RESULT_ROWS or row[1] == mine]
        fields.append((_("The day's board so far"), shorten("\n".join(
            board_row(rank, name, mp, extra) for rank, name, mp, extra in shown), 1024), False))
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 description="\n".join(lines), fields=tuple(fields), colour=GREEN)


def result_lines_panel(title: str, day: str, mine: Sequence[str], best: Sequence[str],
                       best_name: str | None) -> Panel:
    """The member's line beside the day's best result's (`best_name` None: theirs is
    the best, or the only one, and is not shown twice)."""
    heading = _("Your line") if best_name is not None else \
        _("Your line (the day's best so far)")
    fields = [(heading, shorten(" · ".join(mine) or "-", 1024), False)]
    if best_name is not None:
        fields.append((_("The best line ({name})").format(name=safe_markdown(best_name)),
                       shorten(" · ".join(best) or "-", 1024), False))
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 fields=tuple(fields), colour=GREEN)


def result_advice_panel(title: str, day: str, advice: Sequence[tuple[str, str]]) -> Panel:
    """Where the strong AI would have played otherwise: (the moment, its move and
    reason), in the order of the play."""
    lines = [f"**{moment[:1].upper()}{moment[1:]}:** {sentence}"
             for moment, sentence in advice] or [
        _("The strong AI would have made every one of your moves.")]
    return Panel(title=_("Deal of the day: {game}, {day}").format(game=title, day=day),
                 description=shorten("\n".join(lines), 4000), colour=GREEN)


def move_moment(number: int) -> str:
    """A member's move by its number, for a game that names no moment of its own."""
    return _("your move {number}").format(number=number)


def result_button_label(what: str) -> str:
    """The labels of the result's buttons: the details a tap away."""
    return {"deal": _("Deal face up"), "lines": _("Lines"), "advice": _("AI's advice"),
            "result": _("Your result")}[what]


def board_panel(title: str, period: str, rows: Sequence[tuple[int, str, float, str]],
                min_days: int) -> Panel:
    """A board: the day's (rank, name, matchpoints, the score in words), or a weekly or
    monthly ladder (rank, name, average matchpoints, days played)."""
    heading = {"day": _("Deal of the day: today's board ({game})"),
               "week": _("Deal of the day: this week's ladder ({game})"),
               "month": _("Deal of the day: this month's ladder ({game})")}[period]
    lines = [board_row(rank, name, mp, extra) for rank, name, mp, extra in rows[:BOARD_ROWS]]
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


def abandoned_text() -> str:
    """An abandoned play on a day's board, where a finished one shows its score."""
    return _("not finished (abandoned)")


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
