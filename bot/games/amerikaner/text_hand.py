"""Amerikaner's words for one player: the panel of their hand (only what their seat may
know, from its view) and the labels of its controls (bids, cards, calls, trumps).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import SUIT_SYMBOLS, card_label, suit_of
from bot.games.amerikaner import _, ngettext
from bot.tables.panel import GOLD, GREY, Panel

from .actions import Action
from .text_table import (
    bid_label,
    deal_fields,
    hand_lines,
    partner_words,
    seat_lines,
    sorted_cards,
    trick_line,
    tricks_text,
    trump_words,
    usual_call,
)
from .views import HandView

# ----------------------------------------------------------------- a player's hand

def seat_panel(view: HandView, names: Sequence[str], totals: Sequence[int],
               compact: bool = False) -> Panel:
    """What a player at a real table sees, from their seat view (ephemeral): their cards
    one suit a line, what they set aside, and what to do now; then the table: the
    bidding or the contract, the trick on the table and who is winning it, the last
    trick, the tricks and the scores. `compact`: the table in two or three short lines
    under the hand, so that the panel and its buttons fit one phone screen (the rest is
    one tap away, behind the panel's Table button)."""
    seat = view.seat
    assert seat is not None and view.cards is not None
    lines = [_("**Your cards** ({count})").format(count=len(view.cards)),
             *hand_lines(view.cards), *_aside_lines(view, seat)]
    legal = view.legal
    if legal is None:
        who = names[view.to_act] if view.to_act is not None else _("nobody")
        lines.append("\n" + _("Waiting for **{name}**.").format(name=who))
        colour = GREY
    else:
        colour = GOLD
        lines.append("\n" + _("**Your turn:** {what}").format(what=_your_turn(view, names)))
        if legal.can_redeal:
            lines.append(_("You hold no jack, queen or king: you may claim a redeal."))
    title = _("Your hand — {name}").format(name=names[seat])
    if compact:
        return Panel(title=title, description="\n".join([*lines, *_table_lines(view, names)]),
                     colour=colour)
    fields = [*deal_fields(view, names), *_tricks_field(view, seat),
              (_("Scores"), seat_lines(totals, view, names), False)]
    return Panel(title=title, description="\n".join(lines), fields=tuple(fields),
                 colour=colour)


def _table_lines(view: HandView, names: Sequence[str]) -> list[str]:
    """The table under a compact hand: the bids of the round, or the contract with its
    trump and called card; the last trick and who took it, the trick on the table and
    who is winning it, and the tricks the seat (and its side, once known) took."""
    if view.phase in ("exchange", "bid"):
        if not view.auction:
            return []
        bids = view.auction[-len(names):]  # the last round
        return [_("Bids: {bids}").format(bids=_(", ").join(
            _("{name}: {bid}").format(name=names[s], bid=bid_label(b) if b != "pass"
                                      else _("pass")) for s, b in bids))]
    lines = []
    if view.all_pass:
        lines.append(_("All passed: no trumps, −1 a trick"))
    elif view.bidder is not None:
        line = _("Contract: {name} {bid}").format(name=names[view.bidder],
                                                  bid=bid_label(view.contract))
        if view.trump:
            line += " · " + _("trump: {trump}").format(trump=trump_words(view.trump))
        if view.called is not None:
            line += " · " + _("called {card} — {partner}").format(
                card=card_label(view.called), partner=partner_words(view, names))
        lines.append(line)
    # The trick just won stays in view (issue 52: the answers after a member's card
    # moved her panel on to her next turn, and the trick she had played in was gone).
    # A trick was won once there is a last trick: the tricks the seat (and its side)
    # took follow it on its line, which a phone's panel has room for.
    if view.last_trick is not None:
        taken = [text for _name, text, _inline in _tricks_field(view, view.seat)] \
            if view.seat is not None else []
        lines.append(" · ".join([_("Last trick: {plays}").format(
            plays=trick_line(view.last_trick, names)), *taken]))
    if view.trick is not None and view.trick.plays:
        lines.append(_("Trick: {plays}").format(plays=trick_line(view.trick, names)))
    return lines


def _aside_lines(view: HandView, seat: int) -> list[str]:
    """What the seat set aside or saw aside: its discards, its blind exchange, the kitty."""
    lines = []
    if view.discards:
        lines.append(_("Your discards: {cards}").format(cards=sorted_cards(view.discards)))
    if view.exchange_given is not None:
        given = sorted_cards(view.exchange_given) if view.exchange_given else _("nothing")
        lines.append(_("You gave the blind {given} and took {taken}.").format(
            given=given, taken=sorted_cards(view.exchange_taken or ())))
    if view.kitty is not None and view.bidder == seat \
            and "show_kitty" not in view.rules.options:  # else a field shows it to all
        lines.append(_("The kitty held: {cards}").format(cards=sorted_cards(view.kitty)))
    return lines


def _tricks_field(view: HandView, seat: int) -> list[tuple[str, str, bool]]:
    """The seat's tricks, and its side's once the seat knows its side."""
    if view.phase not in ("play", "done") and not any(view.tricks_won):
        return []
    mine = view.tricks_won[seat]
    side = view.side_of(seat)
    if side is None or side == (seat,):
        text = _("You: {mine}").format(mine=tricks_text(mine))
    else:
        text = _("You: {mine} · your side: {side}").format(
            mine=tricks_text(mine), side=tricks_text(sum(view.tricks_won[s] for s in side)))
    return [(_("Tricks"), text, False)]


def _your_turn(view: HandView, names: Sequence[str]) -> str:
    legal = view.legal
    assert legal is not None
    if legal.phase == "exchange":
        most = legal.card_count[1]
        return ngettext("give up to {count} card to the blind and take as many from it, "
                        "sight unseen (or keep your hand).",
                        "give up to {count} cards to the blind and take as many from it, "
                        "sight unseen (or keep your hand).", most).format(count=most)
    if legal.phase == "bid":
        if view.high_bidder is None:
            return _("bid or pass.")
        return _("bid or pass. Highest so far: {bid} by {name}.").format(
            bid=bid_label(view.high_bid), name=names[view.high_bidder])
    if legal.phase == "discard":
        count = legal.card_count[0]
        return ngettext("discard {count} card face down.", "discard {count} cards face down.",
                        count).format(count=count)
    if legal.phase == "lead":
        if legal.calls:
            # The usual call is named by its rule, and marked in the call menu (which
            # lists the cards to call): a card named here would read as a card seen.
            return _("lead to the first trick: the suit you lead becomes trump. Then call "
                     "a card of that suit you lack: its holder is your partner. The usual "
                     "call, marked in the menu, is the highest card of that suit you lack.")
        return _("lead to the first trick.")
    return _("play a card.")


# ----------------------------------------------------------------- the hand's controls

def control_label(key: str) -> str:
    """The label of one of a player's buttons in the bidding and the blind exchange."""
    return {"pass": _("Pass"), "redeal": _("Redeal"), "keep_hand": _("Keep my hand")}[key]


def trump_label(trump: str) -> str:
    """A trump to choose (S, H, D, C or grand), as a button or a choice shows it."""
    return {"S": _("♠ Spades"), "H": _("♥ Hearts"), "D": _("♦ Diamonds"), "C": _("♣ Clubs"),
            "grand": _("No trumps")}[trump]


def led_trump_label(suit: str) -> str:
    """The button that keeps the suit led (its symbol, `suit`) as trump."""
    return _("Trump: {suit} (suit led)").format(suit=suit)


def call_label(card: int, usual: bool = False) -> str:
    """A card to call, in the call menu; the usual call (`usual_call`) marked."""
    if usual:
        return _("Call {card} (the usual call: the highest you lack)").format(
            card=card_label(card))
    return _("Call {card}").format(card=card_label(card))


def discard_placeholder(count: int) -> str:
    return ngettext("Choose {count} card to discard", "Choose {count} cards to discard",
                    count).format(count=count)


def exchange_placeholder(count: int) -> str:
    return ngettext("Give up to {count} card to the blind",
                    "Give up to {count} cards to the blind", count).format(count=count)


def call_placeholder() -> str:
    return _("Call a card: its holder is your partner")


def lead_trump_panel(card: int) -> Panel:
    """The opening lead's step that names the trump (free_trump), after `card`."""
    return Panel(title=_("Lead {card}: choose trump").format(card=card_label(card)),
                 description=_("The suit led is trump unless you name another, or no "
                               "trumps."))


def lead_call_panel(card: int) -> Panel:
    """The opening lead's step that calls the partner's card, after `card`."""
    return Panel(title=_("Lead {card}: call a card").format(card=card_label(card)),
                 description=_("Whoever holds the called card is your partner, revealed "
                               "when it is played."))


# ----------------------------------------------------------------- actions as buttons

def action_label(action: Action) -> str:
    """An action as a button offers it, in the imperative ("Bid 7", "Play 7♠"): the
    default hand panel's words (`describe_action` narrates the record: "a bid of 7")."""
    if action.kind in ("pass", "redeal"):
        return control_label(action.kind)
    if action.kind == "bid":
        return _("Bid {bid}").format(bid=bid_label(action.bid))
    if action.kind == "exchange" and not action.cards:
        return control_label("keep_hand")
    if action.kind in ("exchange", "discard"):
        cards = " ".join(card_label(c) for c in action.cards)
        return (_("Exchange {cards}") if action.kind == "exchange"
                else _("Discard {cards}")).format(cards=cards)
    return " · ".join(_lead_steps(action, action.trump is not None, None))


def action_steps(actions: Sequence[Action]) -> list[tuple[str, ...]]:
    """The default hand panel's steps of these legal actions: the opening lead's card,
    then its trump (where a trump may be named), then its call (the usual call marked);
    the cards of a discard or an exchange one at a time, in the order listed; the rest
    one step, its label."""
    trumps = any(a.kind == "play" and a.trump is not None for a in actions)
    calls: dict[int, set[int]] = {}
    for a in actions:
        if a.kind == "play" and a.card is not None and a.call is not None:
            calls.setdefault(a.card, set()).add(a.call)
    usual = {card: usual_call(sorted(called)) for card, called in calls.items()}
    steps: list[tuple[str, ...]] = []
    for a in actions:
        if a.kind in ("exchange", "discard") and a.cards:
            first, *rest = a.cards
            steps.append((action_label(a._replace(cards=(first,))),
                          *(_("and {card}").format(card=card_label(c)) for c in rest)))
        elif a.kind == "play" and a.card is not None:
            steps.append(_lead_steps(a, trumps, usual.get(a.card)))
        else:
            steps.append((action_label(a),))
    return steps


def _lead_steps(action: Action, trumps: bool, usual: int | None) -> tuple[str, ...]:
    """A card played, then (the opening lead) the trump named, if `trumps` may be, and
    the card called."""
    assert action.card is not None
    steps = [_("Play {card}").format(card=card_label(action.card))]
    if trumps:
        steps.append(trump_label(action.trump) if action.trump is not None
                     else led_trump_label(SUIT_SYMBOLS[suit_of(action.card)]))
    if action.call is not None:
        steps.append(call_label(action.call, action.call == usual))
    return tuple(steps)
