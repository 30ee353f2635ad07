"""Amerikaner's words for choosing and learning the game: the lobby's lines, the rules,
the house rules' help, the guide's pages, a hint's words, the server's settings and a
member's stats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label, card_list
from bot.games.amerikaner import _, ngettext
from bot.tables.panel import GREEN, Panel

from .actions import Action
from .rules import Rules, default_target
from .text_table import bid_label, hand_lines, option_name, preset_name, title, trump_words

# ----------------------------------------------------------------- the lobby

def lobby_title(rules: Rules) -> str:
    """The lobby's title: the game, and its variant unless that is the game's own name
    (issue 52: "Amerikaner table — Amerikaner")."""
    variant, game = preset_name(rules.preset), title()
    if variant == game:
        return _("{game} table").format(game=game)
    return _("{game} table — {preset}").format(game=game, preset=variant)


# ----------------------------------------------------------------- reference

def rules_text(rules: Rules) -> str:
    """The rules of a table, concise."""
    lines = [_("**{preset}** — {players} players, {each} cards each, first to {target} "
               "wins.").format(preset=preset_name(rules.preset), players=rules.players,
                               each=rules.cards_each, target=rules.target)]
    if rules.kitty_size:
        lines.append(_("A kitty of {size}: the bidder takes it and discards as many.").format(
            size=rules.kitty_size))
    if rules.blind_size:
        lines.append(_("A blind of {size}: before bidding each player may exchange up to that "
                       "many cards with it, sight unseen. A hand without J, Q or K may claim "
                       "a redeal.").format(size=rules.blind_size))
    if rules.removed:
        lines.append(_("Removed from the pack: {cards}.").format(cards=card_list(rules.removed)))
    if rules.jokers:
        lines.append(_("{count} jokers: a joker led wins; one played when void has no "
                       "power.").format(count=rules.jokers))
    top = (_("(all 13 tricks, with trumps and a partner)") if rules.style.top_with_trumps
           else _("(alone, no trumps, every trick)"))
    lines.append(_("Bids {low}–{high}, each higher than the last; a pass is final. Above "
                   "them: **{top_bid}** {top}.").format(
        low=rules.min_bid, high=rules.max_bid, top_bid=rules.top_bid.capitalize(), top=top))
    lines.append(_("The bidder leads; the suit led is trump, and the bidder calls a card of "
                   "that suit: its holder is the partner, revealed when it is played."))
    lines.append(_("Follow suit if you can; highest trump wins, else highest of the suit "
                   "led."))
    if rules.style.scoring == "fixed":
        lines.append(_("Made: bidder and partner score the bid (Kani 50). Failed: each "
                       "opponent scores it. Nobody loses points."))
    else:
        lines.append(_("Made: bidder and partner score +bid; failed: -bid. Others +1 a trick. "
                       "Amerikaner: ±52."))
    for name in sorted(rules.options):
        lines.append(_("• {name} (`{option}`): {help}").format(
            name=option_name(name), option=name, help=option_help(name)))
    return "\n".join(lines)


def option_help(name: str) -> str:
    """What a house rule does (its name is what players type: not translated)."""
    return {
        "no_kitty": _("deal every card; no kitty"),
        "jokers": _("jokers instead of removed twos; no kitty; allows 6 players"),
        "show_kitty": _("the kitty is shown to all before the bidder takes it"),
        "kitty_trick": _("the bidder's discards count as one extra trick; bids rise by 1"),
        "free_trump": _("with the opening lead the bidder may name any trump, or no trumps"),
        "two_wins": _("a 2 led wins the trick"),
        "bidder_double": _("the bidder scores double the bid"),
        "partner_half": _("the partner scores half the bid, rounded up"),
        "all_pass_play": _("if all pass, play without trumps; -1 per trick won"),
        "fixed_ten": _("every bid but Kani is worth 10 points"),
        "target": _("the winning score"),
    }[name]


def stats_lines(stats: Mapping[str, int]) -> list[str]:
    """A member's summed Amerikaner statistics (results.py), for their stats page."""
    return [
        _("Contracts made: {made} · failed: {failed}").format(
            made=stats.get("contracts_made", 0), failed=stats.get("contracts_failed", 0)),
        _("Amerikaner/Kani made: {count}").format(count=stats.get("top_bids_made", 0)),
        _("Hands played: {count}").format(count=stats.get("hands_played", 0)),
    ]


def help_text() -> str:
    return _("**/amerikaner new** opens a table here; players Join, the host Starts.\n"
             "Open **My hand** on the table message to see your cards and act; or use "
             "/amerikaner bid, discard, exchange, play.\n"
             "/amerikaner rules · score · export · leave · cancel · leaderboard · stats\n"
             "**Claim the rest** (“resten står”) when you are to lead in the card play: it "
             "is accepted only if no lie of the cards you cannot see can beat it, playing "
             "your top trumps first until no trump can be left out, then cards that are "
             "each the highest left of their suit; the hand is then played out for you. A "
             "**hint** tells you what the strong AI would do now.")


# An example hand for the guide: four players, twelve cards (the kitty of four is
# the bidder's to take).
# Its words say "five hearts with the ace and king, and two more aces" and "call Q♥"
# (the highest heart it lacks): the hand holds just that (tests/amerikaner/test_teaching.py).
_EXAMPLE_HAND = ("AH", "KH", "JH", "9H", "6H", "AS", "QS", "4S", "KD", "8D", "AC", "3C")


def help_pages() -> list[Panel]:
    """The guide to the game, a page at a time (`help`), with an example hand."""
    from bot.cards import parse_card

    example = "\n".join(hand_lines([parse_card(c) for c in _EXAMPLE_HAND]))
    pages = [
        (_("Amerikaner in a minute"),
         _("Four players (3 to 6 in some variants), each dealt 12 cards; four more lie in "
           "the **kitty**. Each hand, one player bids how many tricks they will take "
           "with a partner they choose in secret. Make it and both score; fail and you "
           "lose what you bid. The first to **52** wins.")),
        (_("The bidding"),
         _("From the dealer's left, each bids a number of tricks (6 to 12 with four "
           "players), higher than the last bid, or passes (a pass is final). Above 12 "
           "is **Amerikaner**: alone, without trumps, every trick. The last bidder "
           "takes the kitty and discards four cards face down.")),
        (_("An example hand"),
         _("Your twelve cards, one suit a line:\n{hand}\n\nFive hearts with the ace "
           "and king, and two more aces: bid **7** and lead a heart, which makes hearts "
           "trump. You then call the card you most want your partner to hold, say "
           "**Q♥**: whoever holds it is your partner, revealed when it is played.").format(
             hand=example)),
        (_("Playing the tricks"),
         _("The bidder leads first. Follow suit if you can; otherwise trump or throw "
           "any card. The highest trump wins the trick, else the highest card of the suit "
           "led, and the winner leads the next. Your panel shows the trick, who is "
           "winning it, the last trick and the score.")),
        (_("Scoring"),
         _("Made (bidder and partner took at least the tricks bid): each scores the bid. "
           "Failed: each loses it. The others score a point a trick either way. "
           "Amerikaner scores 52 or -52 for the bidder alone. /amerikaner rules shows the "
           "exact rules of a table, with its house rules (Kani scores differently).")),
        (_("Playing here"),
         _("**/amerikaner new** opens a table here; players **Join**, the host may pick "
           "**Fill the empty seats with AI** in the lobby's menu, and **Starts**. "
           "**My hand** shows your cards and moves for you alone, and follows the game: "
           "when your turn comes, it changes by itself.\n"
           "**💡 Hint**: what the strong AI would do. **🙌 Claim the rest** (“resten "
           "står”), when you are to lead: accepted only if no lie of the cards you cannot "
           "see can beat it (your top trumps first until none can be left out, then cards "
           "each the highest left of their suit); the hand is then played out for you.\n"
           "**🔍 Review the deal** under each result shows the whole hand face up; "
           "**🔁 Rematch** at the end plays again with the same seats.")),
    ]
    return [Panel(title=title, description=body, colour=GREEN) for title, body in pages]


def hint_sentence(action: Action) -> str:
    """What the strong AI would do, in words: a player's hint."""
    kind = action.kind
    if kind == "pass":
        return _("The strong AI would pass.")
    if kind == "bid":
        return _("The strong AI would bid {bid}.").format(bid=bid_label(action.bid))
    if kind == "redeal":
        return _("The strong AI would claim a redeal.")
    if kind == "exchange":
        if not action.cards:
            return _("The strong AI would keep its hand.")
        return _("The strong AI would give {cards} to the blind.").format(
            cards=_labels(action.cards))
    if kind == "discard":
        return _("The strong AI would discard {cards}.").format(cards=_labels(action.cards))
    assert action.card is not None
    card = card_label(action.card)
    trump = trump_words(action.trump) if action.trump is not None else None
    if action.call is None:
        if trump is None:
            return _("The strong AI would play {card}.").format(card=card)
        return _("The strong AI would lead {card}; trump: {trump}.").format(card=card,
                                                                           trump=trump)
    call = card_label(action.call)
    if trump is None:
        return _("The strong AI would lead {card} and call {call}.").format(card=card,
                                                                           call=call)
    return _("The strong AI would lead {card} and call {call}; trump: {trump}.").format(
        card=card, call=call, trump=trump)


def hint_reason(code: str, params: Mapping[str, Any]) -> str:
    """Why the hint's move is good, in one short sentence (`code` and `params` from
    ai/reasons.py)."""
    if code == "opening_lead":
        return _("Why: your strongest suit becomes trump.")
    if code == "bid_strong":
        return _("Why: your hand is strong enough for {bid}.").format(
            bid=bid_label(params["bid"]))
    return {
        "pass_weak": _("Why: your hand is not strong enough to bid higher."),
        "no_court_cards": _("Why: you hold no jack, queen or king."),
        "keep_hand": _("Why: your hand is good as it is."),
        "keeps_strongest": _("Why: it keeps your strongest cards."),
        "only_card": _("Why: it is the only card you may play."),
        "master": _("Why: it is the highest card left in its suit: it should take the "
                    "trick."),
        "lead_low": _("Why: it leads low and keeps your high cards for later."),
        "wins_trick": _("Why: it wins the trick."),
        "takes_lead": _("Why: it takes the lead in the trick."),
        "partner_winning": _("Why: your partner is winning the trick."),
        "keeps_ace": _("Why: it keeps your ace for later."),
        "lowest_follow": _("Why: it is the lowest card that follows suit."),
        "follows_suit": _("Why: it follows suit; the trick is not worth a higher card."),
        "discard": _("Why: it throws away a card you do not need."),
    }[code]


def _labels(cards: Sequence[int]) -> str:
    return " ".join(card_label(card) for card in cards)


# ----------------------------------------------------------------- server settings

def settings_text(settings: dict[str, Any], saved: bool = False) -> str:
    """A server's default table (preset, players, target, house rules; the turn timer
    is worded by the platform beside it); `saved`: just changed."""
    if not settings:
        text = _("Server defaults: amerikaner, 4 players, to 52, no house rules.")
    else:
        preset = settings.get("preset", "amerikaner")
        players = settings.get("players", 4)
        # The turn timer is the platform's to word (cogs/tables/settings.py: "1 day a
        # turn", its reminders and its end), in one place for every game.
        text = _("Server defaults: {preset}, {players}, to {target}, {options}.").format(
            preset=preset_name(preset),
            players=ngettext("{count} player", "{count} players", players).format(
                count=players),
            target=settings.get("target") or default_target(preset),
            options=", ".join(option_name(name) for name in sorted(settings.get("options", {})))
            or _("no house rules"))
    return _("Saved. {settings}").format(settings=text) if saved else text
