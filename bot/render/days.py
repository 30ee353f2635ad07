"""Playing over days: timestamps and time left, the turn's ping and direct messages,
the games list, and the recap of what was played since a member's last move.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, isolate
from bot.tables.panel import BLUE, Panel, shorten

from .boards import page_footer
from .lobby import turn_mention

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
                pages: int, first: int = 1, begin: str = "") -> Panel:
    """The member's open tables in this server (`/games`): rows of (game, where: the
    channel's mention (the "To the table" button beside it is the link: a raw link is
    three lines on a phone), whose turn, the deadline or None, whether it is the member's
    turn), theirs first; numbered from `first` (the page's first row), as its buttons.
    With no rows, `begin` says where to begin (bot/render/guide.py, nothing_open_text)."""
    if not rows:
        none = _("You hold no seat at an open table in this server.")
        return Panel(title=_("Your games"), colour=BLUE,
                     description=f"{none}\n{begin}" if begin else none)
    fields = []
    for index, (game, where, turn, deadline, mine) in enumerate(rows, start=first):
        lines = [where, _("**Your turn**") if mine else _("Turn: {name}").format(name=turn)
                 if turn else ""]
        if deadline is not None:
            lines.append(time_left_text(deadline))
        fields.append((f"{isolate(str(index))}. {game}",
                       "\n".join(line for line in lines if line), False))
    return Panel(title=_("Your games"), colour=BLUE, fields=tuple(fields),
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


def played_for_you(actions: Sequence[str]) -> list[str]:
    """A recap's fact, told first: the moves the AI made in the member's name (their
    time ran out, or it covered their seat), each as the game words it ("the 7♠"),
    since the DM or notice that told it is replaced by their next turn message."""
    if not actions:
        return []
    return [_("the AI played {actions} for you").format(actions=", ".join(actions))]
