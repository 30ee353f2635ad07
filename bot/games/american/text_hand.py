"""American's words for one player: their own panel (only what their seat may know, from
its view) and the labels of its controls (plays, swaps, the pile, face-down cards).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import RANKS, card_label
from bot.games.american import _, ngettext
from bot.tables.panel import GOLD, GREY, Panel

from .actions import FLIP, PICKUP, PLAY, SWAP, Action
from .text_table import burn_line, card_labels, pile_lines, rank_lines, table_fields
from .views import DealView, GameView

# ----------------------------------------------------------------- a player's own panel

def seat_panel(view: GameView, names: Sequence[str], compact: bool = False) -> Panel:
    """What a player sees of their own cards and may do now (for them alone): the hand
    one rank a line, the face-up row, how many face down, the pile and the others.
    `compact`: the hand a few ranks a line and the pile in one line, the others one tap
    away (the panel's Table button), so that the panel and its buttons fit one phone
    screen."""
    deal = view.deal
    assert deal is not None and deal.seat is not None and deal.hand is not None
    seat = deal.seats[deal.seat]
    up = card_labels(seat.up) if seat.up else _("none")
    if compact:
        lines = [_("**Your hand** ({count})").format(count=len(deal.hand)),
                 *(_compact_rank_lines(deal.hand) or [_("empty")]),
                 ngettext("Face up: {cards} · face down: {count} card",
                          "Face up: {cards} · face down: {count} cards",
                          seat.down).format(cards=up, count=seat.down)]
    else:
        lines = [_("**Your hand** ({count})").format(count=len(deal.hand)),
                 *(rank_lines(deal.hand) or [_("empty")]),
                 _("Face up: {cards}").format(cards=up),
                 ngettext("Face down: {count} card (unseen)",
                          "Face down: {count} cards (unseen)", seat.down).format(
                     count=seat.down)]
    burn = burn_line(deal, names)
    if burn is not None:
        lines.append("\n" + burn)
    if seat.out:
        lines.append("\n" + _("You are out: you have no cards left."))
        colour = GREY
    elif deal.legal is None:
        who = names[deal.to_act] if deal.to_act is not None else _("nobody")
        lines.append("\n" + _("Waiting for **{name}**.").format(name=who))
        colour = GREY
    else:
        lines.append("\n" + _("**Your turn:** {what}").format(what=_your_turn(deal)))
        colour = GOLD
    title = _("Your hand — {name}").format(name=names[deal.seat])
    if compact:
        lines.append(pile_lines(deal, names)[0])
        return Panel(title=title, description="\n".join(lines), colour=colour)
    return Panel(title=title, description="\n".join(lines),
                 fields=tuple(table_fields(view, names)), colour=colour)


# The ranks a line of a compact hand.
_RANKS_A_LINE = 4


def _compact_rank_lines(cards: Sequence[int]) -> list[str]:
    """A hand a few ranks a line, low to high: `3♠ 3♥ · 5♦ · 7♣ 7♠ · 9♥`."""
    by_rank: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: (c % 13, c // 13)):
        by_rank.setdefault(card % 13, []).append(card)
    groups = [card_labels(same) for same in by_rank.values()]
    return [" · ".join(groups[i:i + _RANKS_A_LINE])
            for i in range(0, len(groups), _RANKS_A_LINE)]


def _your_turn(deal: DealView) -> str:
    legal = deal.legal
    assert legal is not None
    if legal.phase == "swap":
        return _("swap any of your hand cards for as many of your face-up cards, or keep "
                 "them as they are.")
    if legal.phase == FLIP:
        return _("turn over one of your face-down cards. If it can go on the pile it is "
                 "played; if not, you pick up the pile with it.")
    if not legal.ranks:
        return _("you cannot play on the {top}: pick up the pile.").format(
            top=card_label(deal.pile[-1]))
    ranks = ", ".join(RANKS[r] for r in legal.ranks)
    if legal.can_pickup:
        return _("play one rank ({ranks}), as many of it as you like, or pick up the "
                 "pile.").format(ranks=ranks)
    return _("play one rank ({ranks}), as many of it as you like.").format(ranks=ranks)


# ----------------------------------------------------------------- the controls' words

def play_label(cards: Sequence[int]) -> str:
    """A button that plays these cards (all of one rank)."""
    return card_labels(cards)


def control_label(key: str) -> str:
    return {"pickup": _("Pick up the pile"), "keep": _("Keep my cards"),
            "back": _("Back")}[key]


def flip_label(index: int) -> str:
    return _("Turn over card {number}").format(number=index + 1)


def fewer_placeholder() -> str:
    return _("Play fewer of a rank…")


def fewer_option(cards: Sequence[int]) -> str:
    return ngettext("{count} card: {cards}", "{count} cards: {cards}", len(cards)).format(
        count=len(cards), cards=card_labels(cards))


def give_placeholder() -> str:
    return _("Swap: the hand cards to give…")


def take_placeholder(count: int) -> str:
    return ngettext("…for {count} face-up card", "…for {count} face-up cards",
                    count).format(count=count)


def swap_step_panel(given: Sequence[int]) -> Panel:
    """The second step of a swap: which face-up cards the given hand cards replace."""
    return Panel(title=_("Swap {cards}").format(cards=card_labels(given)),
                 description=ngettext(
                     "Choose the face-up card you take for it.",
                     "Choose the {count} face-up cards you take for them, in the order "
                     "they take their places.", len(given)).format(count=len(given)),
                 colour=GOLD)


def choice_all(cards: Sequence[int]) -> str:
    """An autocomplete choice that plays every card of a rank."""
    return _("{cards} (all)").format(cards=card_labels(cards))


def position_choice(index: int) -> str:
    return _("face-down card {number}").format(number=index + 1)


# ----------------------------------------------------------------- actions as buttons

def action_label(action: Action) -> str:
    """An action as a button offers it, in the imperative ("Play 7♠ 7♥"): the default
    hand panel's words (`describe_action` narrates the record: "7♠ 7♥")."""
    if action.kind == PLAY:
        return _("Play {cards}").format(cards=card_labels(action.cards))
    if action.kind == PICKUP:
        return control_label("pickup")
    if action.kind == SWAP:
        if not action.cards:
            return control_label("keep")
        return _("Swap {given} for {taken}").format(given=card_labels(action.cards),
                                                    taken=card_labels(action.up))
    return flip_label(action.position)


def action_steps(actions: Sequence[Action]) -> list[tuple[str, ...]]:
    """The default hand panel's steps of these legal actions: a rank, then which of its
    cards, where more than one play of that rank is offered; a swap's hand cards, then
    the face-up cards taken for them; the rest one step, its label."""
    plays: dict[int, int] = {}
    for a in actions:
        if a.kind == PLAY and a.cards:
            plays[a.cards[0] % 13] = plays.get(a.cards[0] % 13, 0) + 1
    steps: list[tuple[str, ...]] = []
    for a in actions:
        if a.kind == PLAY and a.cards and plays[a.cards[0] % 13] > 1:
            steps.append((_("Play {rank}…").format(rank=RANKS[a.cards[0] % 13]),
                          action_label(a)))
        elif a.kind == SWAP and a.cards:
            steps.append((_("Swap {cards}").format(cards=card_labels(a.cards)),
                          _("Take {cards}").format(cards=card_labels(a.up))))
        else:
            steps.append((action_label(a),))
    return steps
