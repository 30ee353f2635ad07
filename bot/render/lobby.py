"""The lobby's words and the controls every game's table shares: the lobby's panel,
the turn's mention, the shared buttons' labels, the AI menu, the cancel confirmation.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, _, ngettext
from bot.tables.panel import BLUE, Panel

from .seats import level_name

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
    "activity": N_("Play in the Activity"),  # the table message, when the Activity is on
}


def button_label(key: str) -> str:
    """The label of one of the shared buttons (BUTTON_LABELS), in the locale of the
    moment."""
    return _(BUTTON_LABELS[key])


def house_rules_placeholder() -> str:
    """The lobby's menu of house rules."""
    return _("House rules (the host chooses)")


# The lobby's AI menu: what each level of AI player does, in one line a new player reads
# before choosing (a select option's description: at most 100 characters). Each game says
# it of its own players (GameWords.ai_level_line); these general lines stand in for a
# game that does not.
AI_LEVEL_LINES: dict[str, str] = {
    "random": N_("Plays any legal move at random."),
    "easy": N_("Plays by simple rules of thumb: good for learning the game."),
    "strong": N_("Tries each move in many possible deals: a real challenge."),
}


def lobby_host_placeholder() -> str:
    """The lobby's host menu (AI players, cancel), shut."""
    return _("AI players, or cancel (the host)")


def lobby_ai_add(level: str, games_line: str | None = None) -> tuple[str, str]:
    """The AI menu's option adding a player of `level`: (its label, its line: the game's
    own, `games_line`, else the platform's general one)."""
    line = AI_LEVEL_LINES.get(level)
    return (_("Add an AI player: {level}").format(level=level_name(level)),
            games_line if games_line is not None else _(line) if line is not None else "")


def lobby_ai_fill(level: str) -> tuple[str, str]:
    """The AI menu's option giving every empty seat to an AI player of `level`."""
    return (_("Fill the empty seats with AI"),
            _("Every free seat gets an AI player ({level}).").format(
                level=level_name(level)))


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
