"""The platform's refusals by code: the sentence of every code all games share, and
the internal error's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot.cards import card_label, card_name
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
from bot.i18n import N_, _, ngettext
from bot.tables.errors import TableError

from .replies import duration_text
from .seats import level_name

# ----------------------------------------------------------------- refusals

# Marked for extraction here, translated when shown (internal_error()).
INTERNAL_ERROR = N_("Something went wrong on our side; nothing was changed. Please try again.")


class ErrorTextWords(Protocol):
    """What error_text needs of a game's words (bot.tables.kind.GameWords has it)."""

    def error_text(self, error: GameError) -> str: ...


class ErrorTextKind(Protocol):
    """What error_text needs of a game (bot.tables.kind.GameKind has it: read-only, as
    there)."""

    @property
    def name(self) -> str: ...

    @property
    def words(self) -> ErrorTextWords: ...


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
        return _platform_sentence(error.code, error.params).replace("{game}", str(game or ""))
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
    record = _record_sentence(code, p)
    if record is not None:
        return record
    if code == NOT_YOUR_TURN and "to_act" in p and "seat" in p:
        return _("It is seat {to_act}'s turn, not seat {seat}'s.").format(
            to_act=p["to_act"], seat=p["seat"])
    card = p.get("card")
    if code == CARD_NOT_IN_HAND and isinstance(card, int):
        return _("You do not hold {card}.").format(card=card_label(card))
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


def _record_sentence(code: str, p: dict[str, Any]) -> str | None:
    """The refusals of a record's shape that every game's records share and word alike
    (bot/errors.py's SHARED_REASONS): a game gives the code back for these reasons."""
    reason = str(p.get("reason"))
    if code == INVALID_RECORD:
        if reason == "first_dealer" and "last" in p:
            return _("first_dealer must be a seat from 0 to {last}.").format(last=p["last"])
        return {"not_object": _("A record is a JSON object."),
                "no_rules": _("The record has no rules object."),
                "action_not_object": _("An action is a JSON object."),
                "no_seat_or_kind": _("An action needs a seat and a kind.")}.get(reason)
    if code == INVALID_RULES:
        return {"players_not_whole": _("The number of players must be a whole number."),
                "options_not_object": _("The options must be an object.")}.get(reason)
    if code == INVALID_DEAL and reason == "twice" and isinstance(p.get("card"), int):
        return _("{card} is dealt twice.").format(card=card_name(p["card"]))
    if code == INVALID_DEAL and reason == "missing" and isinstance(p.get("cards"), (list, tuple)):
        return _("Missing from the deal: {cards}.").format(
            cards=", ".join(card_name(c) for c in p["cards"]))
    return None


def _platform_sentence(code: str, params: dict[str, Any]) -> str:
    """The sentence, with `{game}` left for error_text to fill in."""
    reason = params.get("reason")
    if code == "daily" and reason == "between":
        # https://discord.com/developers/docs/reference#message-formatting-timestamp-styles
        return _("No deal of the day is open just now: the server's time zone changed, "
                 "and the next day begins {when}.").format(when=f"<t:{int(params['at'])}:R>")
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
        "no_table": _("There is no table in this channel. Start one with /{game} new, or "
                      "play the deal of the day: /{game} daily."),
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
        "activity_off": _("Discord would not open the Activity: it is not turned on for this "
                          "app (the bot's owner turns it on in the Developer Portal)."),
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
        "not_playing": _("You are not playing at this table."),
        "seat_given": _("The host gave your seat at this table away while you were "
                        "away: you no longer play here.")},
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
                         "daily)."),
        "unfinished": _("Your play of that day's deal is not finished: its records and "
                        "board open once it is (finish it from your panel), or once its "
                        "day is over."),
        "over": _("That day's deal is over: a play not finished within an hour after its "
                  "day ended counts as abandoned, below every finished result. Today's "
                  "deal: /{game} daily.")},
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
                 "(at most {length}; 0: no timer).").format(
                     typed=p["typed"], length=duration_text(int(p["minutes"])))
    if reason == "reminder":
        return _("{point} is not a reminder point: give a share of the turn's time, such "
                 "as 50%, or the time left, such as 30m, 1h or 1d (at most {most} "
                 "points).").format(point=p["point"], most=p["most"])
    if reason == "timeout_action":
        return _("When a turn's time runs out, the AI either plays that turn (play) or "
                 "takes the seat until its player is back (seat).")
    if reason == "ai_level":
        return _("AI level is one of {levels}.").format(
            levels=_(", ").join(level_name(level) for level in p["levels"]))
    if reason == "no_seat":
        return _("There is no seat {seat}.").format(seat=p["seat"])
    if reason == "which_seat":
        return _("Say which seat to hand over: its number (seat) or its away player "
                 "(player).")
    if reason == "no_player":
        return _("{name} has no seat at this table.").format(name=p["name"])
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
