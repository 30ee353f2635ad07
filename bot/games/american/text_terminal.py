"""American's words in the terminal game (bot/games/american/terminal.py): plain text,
seats named from the human's side ("You", "Seat 2").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import card_label, card_name
from bot.errors import INVALID_RECORD, GameError
from bot.games.american import _, ngettext

from .actions import FLIP, Action
from .rules import BOOLEAN_OPTIONS, Rules
from .text_refusals import error_sentence
from .text_table import card_labels
from .views import DealView, LegalActions, SeatView

# ----------------------------------------------------------------- the terminal game
# bot/games/american/terminal.py: the human at seat `you` (0) against AI players. What
# players type (card names, ranks, pickup, swap ... for ..., flip N) is shown as typed:
# not translated.

def terminal_seat(seat: int | None, you: int = 0) -> str:
    """A seat as the terminal names it: "You", "Seat 2", or "nobody"."""
    if seat is None:
        return _("nobody")
    return _("You") if seat == you else _("Seat {number}").format(number=seat)


def _terminal_labels(cards: Sequence[int]) -> str:
    """Cards for the terminal, "-" for none."""
    return card_labels(cards) if cards else "-"


def _terminal_seat_line(seat: SeatView, you: int) -> str:
    name = terminal_seat(seat.seat, you)
    if seat.out:
        return "  " + _("{name}: out").format(name=name)
    parts = [ngettext("{count} card in hand", "{count} cards in hand",
                      seat.hand_size).format(count=seat.hand_size)]
    if seat.known and seat.seat != you:
        parts.append(_("known: {cards}").format(cards=_terminal_labels(seat.known)))
    parts.append(_("face up: {cards}").format(cards=_terminal_labels(seat.up)))
    parts.append(_("face down: {count}").format(count=seat.down))
    return "  " + _("{name}: {parts}").format(name=name, parts=_(", ").join(parts))


def terminal_table(view: DealView, you: int = 0) -> list[str]:
    """The table as the human sees it, line by line."""
    if view.pile:
        pile = ngettext("Pile: {cards} ({count} card, top {top})",
                        "Pile: {cards} ({count} cards, top {top})", len(view.pile)).format(
            cards=_terminal_labels(view.pile[-8:]) if len(view.pile) <= 8
            else "… " + _terminal_labels(view.pile[-8:]), count=len(view.pile),
            top=card_label(view.pile[-1]))
    else:
        pile = _("Pile: empty")
    lines = [pile, _("Deck: {deck} · burned: {burned}").format(deck=view.deck,
                                                             burned=len(view.burned))]
    lines.extend(_terminal_seat_line(seat, you) for seat in view.seats)
    if view.hand is not None:
        lines.append(_("Your hand: {cards}").format(cards=_terminal_labels(view.hand)))
    return lines


def terminal_moves(legal: LegalActions) -> str:
    """The legal moves, written as the input that makes them."""
    if legal.phase == "swap":
        return _("Moves: {example} (hand cards for as many face-up cards), or {none} to "
                 "keep them as they are").format(
            example="'swap " + " ".join(card_name(c) for c in legal.hand[:1]) + " for "
            + " ".join(card_name(c) for c in legal.up[:1]) + "'", none="'swap'")
    if legal.phase == FLIP:
        return _("Moves: turn over a face-down card: {moves}").format(
            moves=" | ".join(f"flip {i}" for i in legal.indexes))
    options = []
    for rank in legal.ranks:
        cards = legal.cards_of_rank(rank)
        options.append(" ".join(card_name(c) for c in cards))
    if legal.can_pickup:
        options.append("pickup")
    return _("Moves: {moves}").format(moves=" | ".join(options))


def terminal_action(action: Action, turned: int | None, you: int = 0) -> str:
    """An action as the terminal tells it: "Seat 1 plays 7♠ 7♥.", "You pick up the
    pile."; `turned` is the card a flip turned over."""
    name = terminal_seat(action.seat, you)
    mine = action.seat == you
    if action.kind == "pickup":
        return _("You pick up the pile.") if mine else _("{name} picks up the pile.").format(
            name=name)
    if action.kind == "swap":
        count = len(action.cards)
        if not count:
            return (_("You keep your face-up cards.") if mine else
                    _("{name} keeps their face-up cards.").format(name=name))
        return (_("You swap {given} for {taken}.") if mine else
                _("{name} swaps {given} for {taken}.")).format(
            name=name, given=_terminal_labels(action.cards), taken=_terminal_labels(action.up))
    if action.kind == FLIP:
        card = card_label(turned) if turned is not None else "?"
        return (_("You turn over {card}.") if mine else
                _("{name} turns over {card}.")).format(name=name, card=card)
    return (_("You play {cards}.") if mine else _("{name} plays {cards}.")).format(
        name=name, cards=_terminal_labels(action.cards))


def terminal_burned(count: int) -> str:
    return "  " + ngettext("The pile burns ({count} card).", "The pile burns ({count} cards).",
                           count).format(count=count)


def terminal_out(seat: int, you: int = 0) -> str:
    return "  " + (_("You are out!") if seat == you else _("{name} is out.").format(
        name=terminal_seat(seat, you)))


def terminal_refused(error: GameError) -> str:
    """A move the rules refused, or input that could not be read, and why."""
    if error.code == INVALID_RECORD and error.params.get("reason") == "terminal":
        return _("Not understood: {text}. Type {help} for how to play.").format(
            text=repr(error.params.get("text", "")), help="'help'")
    return _("Not allowed: {reason}").format(reason=error_sentence(error))


def terminal_cannot_start(error: GameError) -> str:
    return _("Cannot start: {reason}").format(reason=error_sentence(error))


def terminal_welcome(rules: Rules, level: str) -> list[str]:
    """The first lines of a match: the table, and its house rules if any."""
    goal = ngettext("first to win {target} deal", "first to win {target} deals",
                    rules.target).format(target=rules.target)
    lines = [_("American, {players} players, {goal}; you are seat 0, the others play at "
               "level {level}. Type {help} for how to play, {hand} for the table, {quit} "
               "to stop.").format(players=rules.players, goal=goal, level=level,
                                  help="'help'", hand="'hand'", quit="'quit'")]
    if rules.options:
        lines.append(_("House rules: {rules}").format(rules=", ".join(
            name for name in BOOLEAN_OPTIONS if name in rules.options)))
    return lines


def terminal_help() -> list[str]:
    """How to type moves in the terminal game (what players type is not translated)."""
    return [
        _("How to play: type your move and press Enter. Get rid of all your cards: hand, "
          "then face-up, then face-down cards."),
        _("  Play cards of one rank: {cards}, or the rank alone for every copy you hold: "
          "{rank} (T for ten; case does not matter).").format(cards="'5S 5D'", rank="'5'"),
        _("  A card must beat the top of the pile; 2 and 10 go on anything (2 resets, 10 "
          "burns the pile and you play again); only an ace, 2 or 10 goes on an ace."),
        _("  {pickup} takes the pile when you cannot play.").format(pickup="'pickup'"),
        _("  Swap (option swap): {swap}, or {none} to keep your cards.").format(
            swap="'swap 3S 4D for AS KH'", none="'swap'"),
        _("  Turn over a face-down card (option blind_down): {flip}.").format(
            flip="'flip 0'"),
        _("  {hand} shows the table and your moves again; {quit} stops.").format(
            hand="'hand'", quit="'quit'"),
    ]


def terminal_deal_title(number: int, dealer: int, you: int = 0) -> str:
    """The line that opens deal number `number`."""
    if dealer == you:
        return _("=== Deal {number} · You deal ===").format(number=number)
    return _("=== Deal {number} · {name} deals ===").format(
        number=number, name=terminal_seat(dealer, you))


def terminal_deal_result(winner: int | None, places: Sequence[int],
                         wins: Sequence[int], you: int = 0) -> list[str]:
    """What a deal came to: its winner (none when drawn), the order out, the deal wins."""
    if winner is None:
        lines = [_("The deal is drawn: it reached 1,000 actions.")]
    else:
        lines = [_("You win the deal!") if winner == you else
                 _("{name} wins the deal.").format(name=terminal_seat(winner, you))]
        if len(places) > 2:
            lines.append(_("Order out: {names}").format(
                names=_(", ").join(terminal_seat(s, you) for s in places)))
    lines.append(_("Deals won: {wins}").format(wins=_(", ").join(
        _("{name} {count}").format(name=terminal_seat(s, you), count=w)
        for s, w in enumerate(wins))))
    return lines


def terminal_match_over(winners: Sequence[int], you: int = 0) -> str:
    if you in winners:
        return _("Match over: you win!")
    return _("Match over. Winner: {names}.").format(
        names=_(", ").join(terminal_seat(s, you) for s in winners))


def terminal_bye() -> str:
    return _("Bye.")
