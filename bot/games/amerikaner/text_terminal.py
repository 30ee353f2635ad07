"""Amerikaner's words in the terminal game (bot/games/amerikaner/terminal.py): plain text,
seats named from the human's side ("You", "Seat 2").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import SUIT_SYMBOLS, card_label, card_name, suit_of
from bot.errors import GameError
from bot.games.amerikaner import _, ngettext

from .actions import Action
from .hand import REDEAL, THROWN_IN
from .rules import BOOLEAN_OPTIONS, Rules
from .text_guide import option_help
from .text_refusals import error_sentence
from .text_table import hand_order, option_name, preset_name
from .views import HandView, LegalActions

# ----------------------------------------------------------------- the terminal game
# bot/games/amerikaner/terminal.py: the human at seat `you` (0) against AI players. What
# players type (pass, redeal, bids, card names, give, discard, call, trump) is shown as
# typed: not translated.

def terminal_seat(seat: int | None, you: int = 0) -> str:
    """A seat as the terminal names it: "You", "Seat 2", or "nobody"."""
    if seat is None:
        return _("nobody")
    return _("You") if seat == you else _("Seat {number}").format(number=seat)


def _seat_values(values: Sequence[int], you: int, signed: bool = False) -> str:
    return _(", ").join(_("{name} {value}").format(
        name=terminal_seat(s, you), value=f"{v:+d}" if signed else v)
        for s, v in enumerate(values))


def _seat_cards(plays: Sequence[tuple[int, int]], you: int) -> str:
    return _(", ").join(_("{name} {card}").format(name=terminal_seat(s, you),
                                                  card=card_label(c)) for s, c in plays)


def terminal_totals(totals: Sequence[int], you: int = 0) -> str:
    return _("Totals: {totals}").format(totals=_seat_values(totals, you, signed=True))


def _terminal_contract(view: HandView, you: int) -> str:
    rules = view.rules
    assert view.contract is not None
    parts = [_("Contract: {bid} by {name}").format(bid=_terminal_bid(view.contract),
                                                   name=terminal_seat(view.bidder, you))]
    if view.trump is not None:
        parts.append(_("no trumps") if view.trump == "grand" else _("trump {suit}").format(
            suit=SUIT_SYMBOLS["SHDC".index(view.trump)]))
    elif view.phase in ("play", "done") and view.contract == rules.top_bid \
            and not rules.style.top_with_trumps:
        parts.append(_("no trumps, alone"))
    if view.called is not None:
        parts.append(_("called {card}").format(card=card_label(view.called)))
        if view.partner is not None:
            parts.append(_("partner {name}").format(name=terminal_seat(view.partner, you)))
        elif view.tricks:
            parts.append(_("no partner"))
        elif view.cards is not None and view.called in view.cards:
            parts.append(_("you hold it: you are the partner (secret until played)"))
    return " · ".join(parts)


def _terminal_bid(bid: int | str) -> str:
    """A bid as the terminal shows it: as typed."""
    return bid if isinstance(bid, str) else str(bid)


def terminal_table(view: HandView, hand: str, totals: Sequence[int] | None = None,
                   you: int = 0) -> list[str]:
    """The table as the human sees it, line by line; `hand` is their cards, drawn."""
    lines = []
    if totals is not None:
        lines.append(terminal_totals(totals, you))
    if view.auction:
        lines.append(_("Bidding: {bids}").format(bids=_(", ").join(
            _("{name} {bid}").format(name=terminal_seat(s, you), bid=_terminal_bid(b))
            for s, b in view.auction)))
    if view.contract is not None and view.bidder is not None:
        lines.append(_terminal_contract(view, you))
    if view.all_pass:
        lines.append(_("Everyone passed: played without trumps, -1 per trick won."))
    if view.kitty is not None and view.phase != "done":
        lines.append(_("Kitty: {cards}").format(
            cards=" ".join(card_label(c) for c in hand_order(view.kitty))))
    if view.discards:
        lines.append(_("Your discards: {cards}").format(
            cards=" ".join(card_label(c) for c in hand_order(view.discards))))
    if view.tricks:
        last = view.tricks[-1]
        lines.append(_("Last trick ({name} won): {plays}").format(
            name=terminal_seat(last.winner, you), plays=_seat_cards(last.plays, you)))
    if view.trick is not None:
        lines.append(_("Trick {number}: {plays}").format(
            number=len(view.tricks) + 1, plays=_seat_cards(view.trick.plays, you)))
    if view.phase in ("play", "lead") or view.tricks:
        lines.append(_("Tricks won: {tricks}").format(
            tricks=_seat_values(view.tricks_won, you)))
    if view.cards is not None:
        lines.append(_("Your hand: {hand}").format(hand=hand))
    return lines


def terminal_moves(legal: LegalActions) -> str:
    """The legal moves, written as the input that makes them."""
    phase = legal.phase
    if phase == "bid":
        options = ["pass"] + (["redeal"] if legal.can_redeal else [])
        options += [_terminal_bid(b) for b in legal.bids]
        return _("Moves: {moves}").format(moves=" | ".join(options))
    if phase == "exchange":
        most = legal.card_count[1]
        example = " ".join(card_name(c) for c in legal.cards[-most:])
        return ngettext("Moves: give 0 to {count} card to the blind, e.g. {example} or "
                        "{none} for none",
                        "Moves: give 0 to {count} cards to the blind, e.g. {example} or "
                        "{none} for none", most).format(
            count=most, example=f"'give {example}'", none="'give'")
    if phase == "discard":
        count = legal.card_count[0]
        example = " ".join(card_name(c) for c in legal.cards[-count:])
        return ngettext("Moves: discard {count} card, e.g. {example}",
                        "Moves: discard {count} cards, e.g. {example}", count).format(
            count=count, example=f"'discard {example}'")
    if legal.calls:
        options = []
        for card in legal.cards:
            calls = legal.calls_for(suit_of(card))
            options.append(f"{card_name(card)} call {card_name(calls[0])}" if calls
                           else card_name(card))
        text = _("Moves: {moves}").format(moves=" | ".join(options))
        if legal.trumps:
            hint = _("call any card of the suit led that you do not hold; add {trump} to "
                     "name another trump").format(trump="'trump S|H|D|C|grand'")
        else:
            hint = _("call any card of the suit led that you do not hold")
        return text + "\n  " + _("({hint})").format(hint=hint)
    return _("Moves: {moves}").format(moves=" | ".join(card_name(c) for c in legal.cards))


def terminal_action(action: Action, you: int = 0) -> str:
    """An action as the terminal tells it: "Seat 2 bids 8.", "You play A♠."."""
    name = terminal_seat(action.seat, you)
    mine = action.seat == you
    if action.kind == "pass":
        return _("You pass.") if mine else _("{name} passes.").format(name=name)
    if action.kind == "bid":
        bid = _terminal_bid(action.bid if action.bid is not None else "?")
        return (_("You bid {bid}.") if mine else _("{name} bids {bid}.")).format(
            name=name, bid=bid)
    if action.kind == "redeal":
        return (_("You claim a redeal (no jack, queen or king).") if mine else
                _("{name} claims a redeal (no jack, queen or king).").format(name=name))
    count = len(action.cards)
    if action.kind == "exchange":
        return (ngettext("You exchange {count} card with the blind.",
                         "You exchange {count} cards with the blind.", count) if mine else
                ngettext("{name} exchanges {count} card with the blind.",
                         "{name} exchanges {count} cards with the blind.", count)
                ).format(name=name, count=count)
    if action.kind == "discard":
        return (ngettext("You discard {count} card.", "You discard {count} cards.", count)
                if mine else ngettext("{name} discards {count} card.",
                                      "{name} discards {count} cards.", count)
                ).format(name=name, count=count)
    assert action.card is not None
    card = card_label(action.card)
    if action.call is None and action.trump is None:
        text = _("You play {card}.") if mine else _("{name} plays {card}.")
    elif action.call is None:
        text = _("You play {card}, {trump}.") if mine else _("{name} plays {card}, {trump}.")
    elif action.trump is None:
        text = _("You play {card}, calling {call}.") if mine else \
            _("{name} plays {card}, calling {call}.")
    else:
        text = _("You play {card}, calling {call}, {trump}.") if mine else \
            _("{name} plays {card}, calling {call}, {trump}.")
    trump = None if action.trump is None else (
        _("no trumps") if action.trump == "grand"
        else _("trump {suit}").format(suit=action.trump))
    return text.format(name=name, card=card,
                       call=card_label(action.call) if action.call is not None else "",
                       trump=trump)


def terminal_refused(error: GameError) -> str:
    """A move the rules refused, and why."""
    return _("Not allowed: {reason}").format(reason=error_sentence(error))


def terminal_cannot_start(error: GameError) -> str:
    return _("Cannot start: {reason}").format(reason=error_sentence(error))


def terminal_welcome(rules: Rules, level: str) -> list[str]:
    """The first lines of a game: the table, and its house rules if any."""
    lines = [ngettext("{preset}, {players} player, to {target} points; you are seat 0, the "
                      "others play at level {level}. Type {help} for how to play, {hand} "
                      "for the table, {quit} to stop.",
                      "{preset}, {players} players, to {target} points; you are seat 0, the "
                      "others play at level {level}. Type {help} for how to play, {hand} "
                      "for the table, {quit} to stop.", rules.players).format(
        preset=preset_name(rules.preset), players=rules.players, target=rules.target,
        level=level, help="'help'", hand="'hand'", quit="'quit'")]
    if rules.options:
        lines.append(_("House rules: {rules}").format(rules="; ".join(
            _("{name}: {meaning}").format(name=option_name(name), meaning=option_help(name))
            for name in BOOLEAN_OPTIONS if name in rules.options)))
    return lines


def terminal_help() -> list[str]:
    """How to type moves in the terminal game (what players type is not translated)."""
    return [
        _("How to play: type your move and press Enter."),
        _("  Cards: {examples} (T for ten; case does not matter).").format(
            examples="AS, 10H, TD, JK1"),
        _("  Bidding: a number such as {number}, {top}, {passing}, or {redeal} (norsk, "
          "with no jack, queen or king).").format(
            number="'8'", top="'amerikaner'/'kani'", passing="'pass'", redeal="'redeal'"),
        _("  Blind (norsk): {give} to exchange cards, {keep} to keep your hand.").format(
            give="'give 2C 3C'", keep="'give'"),
        _("  Kitty: {discard} with as many cards as the kitty held.").format(
            discard="'discard 2C 3C 4D 5D'"),
        _("  Opening lead: the card and the call, {lead}; with free_trump add {trump}.")
        .format(lead="'AS call KS'", trump="'trump H'"),
        _("  {hand} shows the table and your moves again; {quit} stops.").format(
            hand="'hand'", quit="'quit'"),
    ]


def terminal_hand_title(number: int, dealer: int, you: int = 0) -> str:
    """The line that opens hand number `number`."""
    if dealer == you:
        return _("=== Hand {number} · You deal ===").format(number=number)
    return _("=== Hand {number} · {name} deals ===").format(
        number=number, name=terminal_seat(dealer, you))


def terminal_trick_won(winner: int, cards: Sequence[int], you: int = 0) -> str:
    return "  " + _("{name} won the trick: {cards}").format(
        name=terminal_seat(winner, you), cards=_(", ").join(card_label(c) for c in cards))


def terminal_hand_result(outcome: str | None, bidder: int | None, contract: int | str | None,
                         tricks: Sequence[int], scores: Sequence[int],
                         you: int = 0) -> list[str]:
    """What a finished hand came to (without the totals: terminal_totals)."""
    if outcome == THROWN_IN:
        return [_("Everyone passed: the hand is thrown in.")]
    if outcome == REDEAL:
        return [_("Redeal claimed: the same dealer deals again.")]
    lines = []
    if outcome in ("made", "failed"):
        name = terminal_seat(bidder, you)
        bid = _terminal_bid(contract if contract is not None else "?")
        if bidder == you:
            sentence = (_("Your contract {bid} was made.") if outcome == "made"
                        else _("Your contract {bid} failed."))
        else:
            sentence = (_("{name}'s contract {bid} was made.") if outcome == "made"
                        else _("{name}'s contract {bid} failed."))
        lines.append(sentence.format(name=name, bid=bid))
    lines.append(_("Tricks: {tricks}").format(tricks=_seat_values(tricks, you)))
    lines.append(_("Scores: {scores}").format(scores=_seat_values(scores, you, signed=True)))
    return lines


def terminal_game_over(winners: Sequence[int], best: int, you: int = 0) -> str:
    names = _(", ").join(terminal_seat(s, you) for s in winners)
    return ngettext("Game over. Winner: {names} with {points} points.",
                    "Game over. Winners: {names} with {points} points.",
                    len(winners)).format(names=names, points=best)


def terminal_bye() -> str:
    return _("Bye.")
