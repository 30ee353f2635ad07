"""The leaderboard, the rating board and a member's statistics as panels, and the
numbers they show.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, ngettext, pgettext
from bot.tables.panel import BLUE, Panel

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
                game_lines: Sequence[str], rating: Sequence[str] = (),
                daily: Sequence[str] = ()) -> Panel:
    """A member's results in one game: what every game has (games, wins, points), then
    `game_lines`, the game's own statistics in its words (GameKind.stats_lines),
    `rating`, their rating's lines (rating_lines), and `daily`, their deal of the day's
    (shown with or without finished games: the daily is no game of the totals)."""
    title = _("Stats — {name}").format(name=name)
    if not games:
        return Panel(title=title, colour=BLUE, description="\n".join(
            [_("No finished games yet."), *rating, *daily]))
    rate = f"{100 * wins / games:.0f}%"
    return Panel(title=title, colour=BLUE, description="\n".join([
        _("Games: {games} · wins: {wins} ({rate})").format(games=games, wins=wins, rate=rate),
        _("Points: {points}").format(points=points),
        *rating,
        *game_lines,
        *daily,
    ]))


def page_footer(page: int, pages: int) -> str:
    return _("Page {page} of {pages}").format(page=page, pages=pages)
