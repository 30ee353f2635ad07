"""The words that lead a newcomer to what every game has (issue 52, item 5): the guide's
pages of play over days and of the deal of the day (after each game's own pages of
`help`), the day message's button, the way to the daily from an empty answer, and what
matchpoints are."""

from __future__ import annotations

from bot.i18n import _, ngettext
from bot.tables.panel import GREEN, Panel
from bot.tables.timer_settings import MAX_TURN_TIMER

from .replies import duration_text


def days_help_pages(command: str) -> list[Panel]:
    """The guide's pages every game shares, after its own (`command`: the game's command
    group, e.g. "amerikaner")."""
    pages = [
        (_("Playing over days"),
         _("A game can run for days, each player moving when they have a minute. Your "
           "turn comes as a new message naming you, with **My hand**; **/notify** "
           "chooses where: in the channel or by direct message. **/games** lists your "
           "tables in this server, your turn first, with the time left.\n"
           "**Timers**: /{command} new turn-timer:1d (up to {longest}) gives each turn "
           "its time, with reminders before it runs out; then the AI plays that turn.\n"
           "**/{command} away** lets the AI play your seat until **/{command} back**; "
           "when every human at a table is away, it waits for the first one back.")
         .format(command=command, longest=duration_text(int(MAX_TURN_TIMER // 60)))),
        (_("The deal of the day"),
         _("**/{command} daily** (or **Play today's deal** under the day's message): the "
           "same cards for everyone on this server today, against the same AI players, "
           "played in your own panel at your own pace, one try.\n"
           "{matchpoints}\n"
           "**/{command} daily board:today** shows the day's board once you have played; "
           "this week's and this month's ladders too.").format(
             command=command, matchpoints=matchpoints_text())),
        (_("Your language"),
         _("**/language** chooses the language of what only you read (answers, your "
           "hand, direct messages), in every server: English, Norwegian or Persian "
           "(فارسی). Discord has no Persian of its own, so a Persian reader chooses it "
           "here. The language of the table messages everyone reads is the server's: "
           "**/{command} settings language:** (Manage Server).").format(command=command)),
    ]
    return [Panel(title=title, description=body, colour=GREEN) for title, body in pages]


def matchpoints_text() -> str:
    """What the daily's percentage is, where it shows one."""
    return _("Matchpoints: the share of the day's other results you beat, a tie counting "
             "half (alone on the deal so far: 50%, until others play).")


def dm_link_label() -> str:
    """The link button under "Your deal of the day is in your direct messages"."""
    return _("Open it in your direct messages")


def play_today_label() -> str:
    """The button under the day's public message."""
    return _("Play today's deal")


def nothing_open_text(commands: list[str]) -> str:
    """What /games says, under "no seat", to a member at no table: where to begin, per
    game (`commands`: the games' command groups)."""
    return "\n".join(_("Open a table with /{command} new, or play the deal of the day: "
                       "/{command} daily.").format(command=command) for command in commands)


def game_length_text(turns: int, timer_minutes: int) -> str:
    """The lobby of a table with a turn timer: about how long a game may take at it
    (Board Game Arena shows such an estimate): the turns each player takes in a game
    of its rules (GameKind.turns_each), and what they add up to at the whole time of
    each, rounded up to whole days (or hours)."""
    minutes = turns * timer_minutes
    if minutes >= 1440:
        minutes = -(-minutes // 1440) * 1440
    elif minutes >= 60:
        minutes = -(-minutes // 60) * 60
    return ngettext("About {turns} turn each in a game: at most {time} of your own "
                    "turns, if each takes its whole time.",
                    "About {turns} turns each in a game: at most {time} of your own "
                    "turns, if each takes its whole time.", turns).format(
        turns=turns, time=duration_text(minutes))


def entry_point_description() -> str:
    """The app's Entry Point command in the App Launcher (cogs/tables/entry_point.py):
    what the Activity's home page holds."""
    return _("Your tables here, a new table and the deal of the day")
