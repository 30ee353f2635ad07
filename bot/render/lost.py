"""The words of a table whose channel is lost (issue 52, item 9): the members told once,
the games list's sentence of why, End and Leave saying what they do before they do it,
and the panel the standings go out in by DM (cogs/tables/lifecycle.py)."""

from __future__ import annotations

from bot.i18n import _


def channel_gone_dm_text(server: str, title: str) -> str:
    """By DM, once, to each member seated at a table whose channel was deleted (`server`
    made safe as markdown by the caller)."""
    return _("The channel of your {game} table on {server} was deleted, so the table "
             "waits: nobody can play it. In that server, /games lets you end the table "
             "or leave it.").format(game=title, server=server)


def channel_lost_row_text(gone: bool) -> str:
    """/games: where a table whose channel is lost would say its channel and turn."""
    if gone:
        return _("Its channel was deleted: the table waits. End it or leave it with the "
                 "buttons below.")
    return _("The bot may no longer post in its channel: the table waits until it may "
             "again. End it or leave it with the buttons below.")


def end_confirm_text(title: str, dealing: bool) -> str:
    """Before /games' End of a table whose channel is lost: what it does. `dealing`: a
    deal has begun, which the end cancels."""
    if dealing:
        return _("End this {game} table for everyone? The deal in play is cancelled and "
                 "the game ends here; nothing of this deal is rated (nobody chose to lose "
                 "the channel). The standings so far reach every seated member by direct "
                 "message.").format(game=title)
    return _("End this {game} table for everyone? Nobody has played at it yet.").format(
        game=title)


def leave_confirm_text(title: str, playing: bool) -> str:
    """Before /games' Leave of a table whose channel is lost: what it does."""
    if playing:
        return _("Leave this {game} table for good? The AI takes your seat and plays it "
                 "once the table plays on; the deal in play still counts for your "
                 "rating.").format(game=title)
    return _("Leave this {game} table? Your seat becomes free.").format(game=title)


def lost_confirm_labels(end: bool) -> tuple[str, str]:
    """The confirmation's buttons: do it, or keep the table as it is."""
    return (_("Yes, end the table") if end else _("Yes, leave"),
            _("No, keep it"))


def lost_kept_text() -> str:
    return _("Nothing changed: the table waits as it was.")
