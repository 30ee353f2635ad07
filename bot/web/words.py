"""The Activity's own refusals, in the member's words (a refusal of the table service or
of a game is worded by bot.render.error_text, as in messages)."""

from __future__ import annotations

from collections.abc import Collection

from bot.i18n import _, ngettext


def refusal_text(code: str) -> str:
    """The sentence for one of the backend's own refusal codes."""
    if code == "unauthorized":
        return _("Discord did not confirm who you are: close the Activity and open it "
                 "again.")
    if code == "not_in_instance":
        return _("Open the table from its channel in Discord: this Activity is not running "
                 "there for you.")
    if code == "no_table":
        return _("There is no table in this channel yet: start one with its game's "
                 "command, then open the Activity again.")
    if code == "unknown_action":
        return _("That is not a move you can make now.")
    if code == "shard_unreachable":  # as a DM click's (bot/render/refusals.py)
        return _("The part of the bot that runs this table is not answering: nothing was "
                 "changed. Try again in a moment.")
    if code == "discord_unreachable":
        return _("Discord did not answer in time: the page tries again in a moment.")
    if code == "rate_limited":
        return _("Too many messages at once: wait a moment, then try again.")
    return _("The page sent something the table does not understand: reload the "
             "Activity.")


def choose_text(counts: Collection[int]) -> str:
    """The button that sends the cards a member chose for a move of several cards: how
    many to tap when the move takes one number of them, else just to tap them."""
    if len(counts) == 1:
        count = next(iter(counts))
        return ngettext("Tap {count} card, then here", "Tap {count} cards, then here",
                        count).format(count=count)
    return _("Tap the cards, then here")
