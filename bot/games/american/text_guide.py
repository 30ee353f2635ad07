"""American's words for choosing and learning the game: the lobby's lines, the house
rules' help, a hint's words, the rules, the server's settings, a member's stats and the
guide's pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.cards import RANKS, card_label
from bot.games.american import _, ngettext
from bot.i18n import isolate
from bot.tables.panel import GREEN, Panel

from .actions import PICKUP, PLAY, SWAP, Action
from .rules import BOOLEAN_OPTIONS, DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, ROW, Rules
from .text_table import card_labels, option_name, rank_lines, title


def lobby_title(rules: Rules) -> str:
    return _("{game} table — the shedding game").format(game=title())


def option_help(name: str) -> str:
    """What a house rule does, in plain words (its name is what players type)."""
    return {
        "same_rank": _("a card may also be played on one of the same rank"),
        "four_burns": _("four cards of one rank on top of the pile burn it, like a 10"),
        "swap": _("before play, each player may swap hand cards for their face-up cards"),
        "blind_down": _("face-down cards are turned over one at a time, played blind"),
        "voluntary_pickup": _("you may pick up the pile even when you could play"),
        "target": _("deals to win the match"),
    }[name]


def hint_sentence(action: Action) -> str:
    """What the strong AI would do, in words: a player's hint (for that player alone)."""
    if action.kind == PLAY:
        rank = RANKS[action.cards[0] % 13]
        return ngettext("The strong AI would play the {rank} ({cards}).",
                        "The strong AI would play the {rank}s ({cards}).",
                        len(action.cards)).format(rank=rank, cards=card_labels(action.cards))
    if action.kind == PICKUP:
        return _("The strong AI would pick up the pile.")
    if action.kind == SWAP:
        if not action.cards:
            return _("The strong AI would keep its cards as they are.")
        return _("The strong AI would swap {given} for {taken}.").format(
            given=card_labels(action.cards), taken=card_labels(action.up))
    return _("The strong AI would turn over card {number}.").format(
        number=action.position + 1)


def hint_reason(code: str, params: Mapping[str, Any]) -> str:
    """Why the hint's move is good, in one short sentence (`code` and `params` from
    ai/reasons.py)."""
    if code == "keeps_specials":
        ranks = params["ranks"]
        if len(ranks) == 2:
            return _("Why: it keeps your 2 and 10 for later.")
        return _("Why: it keeps your {rank} for later.").format(rank=RANKS[ranks[0]])
    if code in ("lowest_rank", "sheds"):
        count = params["count"]
        if code == "lowest_rank":
            return ngettext("Why: it is your lowest card that can go on the pile.",
                            "Why: they are your lowest cards that can go on the pile.",
                            count)
        return ngettext("Why: it gets rid of a card you do not need.",
                        "Why: it gets rid of {count} cards at once.", count).format(
            count=count)
    return {
        "keep_as_is": _("Why: your face-up cards are no better than your hand."),
        "high_cards_up": _("Why: it puts your best cards face up, for later."),
        "nothing_fits": _("Why: nothing you hold can go on the pile."),
        "pile_worth_taking": _("Why: the pile holds cards worth having."),
        "flip_guess": _("Why: a face-down card is a guess: any will do."),
        "burns_ten": _("Why: the 10 burns the pile and you play again."),
        "burns_four": _("Why: it makes four of a kind: it burns the pile."),
        "two_resets": _("Why: a 2 goes on anything and starts the pile again."),
    }[code]


# ----------------------------------------------------------------- rules, settings, help

def rules_text(rules: Rules) -> str:
    """The rules of a table, concise."""
    lines = [
        _("**American** — {players} players, the shedding game (Idiot, Shithead, Palace): "
          "get rid of all your cards. {target} to win the match.").format(
            players=rules.players, target=ngettext("{count} deal", "{count} deals",
                                                   rules.target).format(count=rules.target)),
        _("Each player gets {row} cards face down, {row} face up on them, and {row} in "
          "hand; the rest is the deck.").format(row=ROW),
        _("The lowest card in hand starts. On your turn play one or more cards of one rank "
          "onto the pile, higher than the top card (an ace only on an ace), then draw back "
          "up to {row} while the deck lasts. If you cannot play, pick up the whole pile.")
        .format(row=ROW),
        _("A **2** may always be played and resets the pile. A **10** may always be played "
          "and burns the pile: you play again."),
        _("With an empty hand and deck you take your face-up cards into your hand, then "
          "your face-down ones. The first out wins the deal."),
    ]
    on = [name for name in BOOLEAN_OPTIONS if name in rules.options]
    if on:
        lines.append(_("House rules: {rules}").format(rules="; ".join(
            f"**{option_name(name)}** ({isolate(f'`{name}`')}): {option_help(name)}"
            for name in on)))
    return "\n".join(lines)


def settings_text(settings: Mapping[str, Any], saved: bool = False) -> str:
    """A server's defaults for new American tables; `saved`: just changed."""
    players = settings.get("players") or DEFAULT_PLAYERS
    target = settings.get("target") or 1
    # The turn timer is the platform's to word (cogs/tables/settings.py: "1 day a turn",
    # its reminders and its end), in one place for every game.
    text = _("Server defaults: {players}, {target} to win, {options}.").format(
        players=ngettext("{count} player", "{count} players", players).format(count=players),
        target=ngettext("{count} deal", "{count} deals", target).format(count=target),
        options=", ".join(option_name(name) for name in sorted(settings.get("options", {})))
        or _("no house rules"))
    return _("Saved. {settings}").format(settings=text) if saved else text


def stats_lines(stats: Mapping[str, int]) -> list[str]:
    """A member's summed American statistics (results.py), for their stats page."""
    return [
        _("Deals won (out first): {won} of {played}").format(
            won=stats.get("deals_won", 0), played=stats.get("deals_played", 0)),
        _("Deals ended last with cards: {count}").format(count=stats.get("deals_last", 0)),
    ]


def help_text() -> str:
    return _("**/american new** opens a table here; players Join, the host Starts.\n"
             "Open **My hand** on the table message to see your cards and act; or use "
             "/american play, pickup, swap, flip.\n"
             "/american rules · score · export · leave · cancel · leaderboard · stats\n"
             "A **hint** tells you what the strong AI would do now.")


# An example for the guide: a hand after the draw, and the pile it must beat.
_EXAMPLE_HAND = ("3C", "7S", "7H", "QD", "10S")
_EXAMPLE_TOP = "6H"


def help_pages() -> list[Panel]:
    """The guide to the game, a page at a time (`help`), with an example."""
    from bot.cards import parse_card

    hand = "\n".join(rank_lines([parse_card(c) for c in _EXAMPLE_HAND]))
    pages = [
        (_("American in a minute"),
         _("The shedding game of the Idiot family, for {low} to {high} players: the first "
           "to get rid of all their cards wins. Each player has three cards face down, "
           "three face up on them, and a hand of three; the rest is the deck.").format(
               low=MIN_PLAYERS, high=MAX_PLAYERS)),
        (_("A turn"),
         _("Play one or more cards of one rank onto the pile, higher than its top card, "
           "then draw back up to three while the deck lasts. A **2** resets the pile; a "
           "**10** burns it and you play again; only an ace beats an ace. If you cannot "
           "play, you pick up the whole pile.")),
        (_("An example"),
         _("Your hand, one rank a line:\n{hand}\n\nThe top of the pile is {top}. The 3 "
           "cannot go on it. Play both 7s at once, or keep them and play the Q; the 10 "
           "burns the pile when you need a fresh start.").format(
             hand=hand, top=card_label(parse_card(_EXAMPLE_TOP)))),
        (_("Face up and face down"),
         _("When your hand and the deck are empty you take up your face-up cards, and "
           "when those are gone, your face-down cards: nobody has seen them, not even you. "
           "/american rules shows a table's house rules.")),
        (_("Playing here"),
         _("**/american new** opens a table here; players **Join**, the host may pick "
           "**Fill the empty seats with AI** in the lobby's menu, and **Starts**. "
           "**My hand** shows your cards and moves for you alone: a button per rank "
           "plays all its cards, the menu plays fewer. "
           "**💡 Hint**: what the strong AI would do. **🔍 Review** under each result "
           "shows the whole deal face up.")),
    ]
    return [Panel(title=title, description=text, colour=GREEN) for title, text in pages]
