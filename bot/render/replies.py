"""The table's replies: joining, leaving, away and back, the timers and reminders,
the end of a game, the thread, the rematch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import _, ngettext, pgettext
from bot.tables.panel import Panel

from .days import timestamp

# ----------------------------------------------------------------- the table's replies

def joined_text(seat: int) -> str:
    """To a player who took seat number `seat` (1 is the first)."""
    return _("You joined (seat {number}).").format(number=seat)


def game_started_text() -> str:
    return _("The game is on.")


def left_text(command: str, in_lobby: bool, ends: float | None = None) -> str:
    """To a player who left, with /`command` (the game's command group). `ends`: every
    other member is away, so the table waits (nobody plays) and ends then unless one
    comes back (epoch seconds, bot.tables.table.abandon_at)."""
    if in_lobby:
        return _("You left the table.")
    if ends is not None:
        return _("You left the game for good. Every other player is away, so the table "
                 "waits and nobody plays; if nobody is back {when}, the game ends and "
                 "the deal under way counts as a loss for those who left it.").format(
            when=timestamp(ends))
    return _("You left the game for good: the AI plays your seat from now on (the deal "
             "being played still counts for your rating). /{command} away instead "
             "keeps your seat until you are back.").format(command=command)


def left_button_text(command: str, ends: float | None = None) -> str:
    """To a player who left a game with the Leave button (`ends`: as left_text's)."""
    return left_text(command, False, ends)


def away_text(command: str, ends: float | None = None) -> str:
    """To a member who went away. `ends`: their away left nobody present, so the table
    waits (nobody plays their seat) and ends then unless one comes back (epoch
    seconds, bot.tables.table.abandon_at)."""
    if ends is None:
        return _("The AI plays for you until /{command} back.").format(command=command)
    return _("You are away, and so is every player: the table waits, nobody plays your "
             "seat. Come back with /{command} back; if nobody is back {when}, the game "
             "ends and the deal under way counts as a loss for those who left it."
             ).format(command=command, when=timestamp(ends))


def back_text() -> str:
    return _("Welcome back: your seat is yours again.")


def replaced_text(seat: int, name: str | None, paused: bool = False) -> str:
    """Seat number `seat` handed to the AI for good (`name` None), or offered to the
    member `name` (their mention, once: it is theirs once they accept). `paused`: the
    table waits for its members (every one away), so nobody plays the seat meanwhile."""
    if name is None:
        return _("Seat {number} now belongs to the AI.").format(number=seat)
    if paused:
        return _("The host offers seat {number} to {name}: take it or leave it with the "
                 "buttons below. The table waits until then: taking it starts the game "
                 "again.").format(number=seat, name=name)
    return _("The host offers seat {number} to {name}: take it or leave it with the "
             "buttons below. Until then the AI plays it.").format(number=seat, name=name)


def offer_dm_text(server: str, channel_id: int, title: str, seat: int) -> str:
    """By direct message, to a member the host offered a seat: where to answer."""
    return _("The host of the {game} table in {channel} on {server} offers you seat "
             "{number}: take it or leave it with the buttons of the offer there.").format(
        game=title, channel=f"<#{channel_id}>", server=server, number=seat)


def seat_given_text(server: str, channel_id: int, title: str, seat: int,
                    name: str | None) -> str:
    """To the member whose seat the host gave away while they were away: to `name`, or
    to the AI for good (None). By DM, or in the channel with their mention."""
    if name is None:
        return _("While you were away, the host of the {game} table in {channel} on "
                 "{server} gave your seat {number} to the AI for good: you no longer play "
                 "there.").format(game=title, channel=f"<#{channel_id}>", server=server,
                                  number=seat)
    return _("While you were away, the host of the {game} table in {channel} on {server} "
             "gave your seat {number} to {name}: you no longer play there.").format(
        game=title, channel=f"<#{channel_id}>", server=server, number=seat, name=name)


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


def language_name(language: str) -> str:
    """A language the bot speaks, named in the reader's words."""
    return {"nb": _("Norwegian (bokmål)"), "fa": _("Persian")}.get(language, _("English"))


def language_text(language: str) -> str:
    """The language of a server's public messages (its name in that language)."""
    return _("Public messages: {language}.").format(language=language_name(language))


def member_language_text(language: str, discords: bool) -> str:
    """The answer to /language: what the member alone reads is now in `language`
    (`discords`: their Discord's, no choice of their own)."""
    if discords:
        return _("What only you read (answers, your hand, direct messages) now follows "
                 "your Discord's language: {language}.").format(
            language=language_name(language))
    return _("What only you read (answers, your hand, direct messages) is now in "
             "{language}, in every server. /language language:My Discord's goes back to "
             "your Discord's.").format(language=language_name(language))


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


def abandoned_text(mentions: Sequence[str], days: int) -> str:
    """The post of a table that ended because every member had left it (away, left or
    timed out) for `days` days (bot.tables.table.ABANDON_AFTER): why, and what it
    cost whom (README, "Ratings")."""
    return ngettext(
        "🏁 The game ended: every player had left it for {days} day. The deal under "
        "way counts as a loss for those who left it, for nobody else; the channel is "
        "free again. {players}",
        "🏁 The game ended: every player had left it for {days} days. The deal under "
        "way counts as a loss for those who left it, for nobody else; the channel is "
        "free again. {players}", days).format(days=days, players=" ".join(mentions))


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


def absent_paused_text(ends: float | None = None) -> str:
    """The table message of a table whose humans are all away: it waits for one, and
    nobody plays meanwhile; `ends`: when it ends if none is back (epoch seconds)."""
    if ends is None:
        return _("⏸ Paused: every member is away. The game goes on when one is back "
                 "(/games, then **I'm back**), or the host cancels it.")
    # "every member": the AI seats are players too, and they are not away (issue 52's
    # screenshots); the button's name in bold, as the table message names buttons.
    return _("⏸ Paused: every member is away, nobody plays. The game goes on when one "
             "is back (/games, then **I'm back**); if none is back {when}, it ends: a loss "
             "for those who left.").format(when=timestamp(ends))


def away_row_text(paused: bool = False) -> str:
    """The games list: the member's seat, which the AI is covering (`paused`: which
    nobody plays, the table waiting for its members)."""
    if paused:
        return _("You are away")
    return _("The AI is playing your seat")


def reminder_text(mention: str, deadline: float | None = None) -> str:
    """A reminder of a turn with a timer; `mention` is the turn's line (turn_mention),
    `deadline` when its time runs out (epoch seconds)."""
    if deadline is None:
        return _("⏳ {mention} Half your time is gone.").format(mention=mention)
    return _("⏳ {mention} Your time runs out {when}.").format(mention=mention,
                                                              when=timestamp(deadline))
