"""American's words at the table, which everyone reads: the table message and its
picture, the rules in a line, and the small pieces the game's other words share.

Built only from views (`.views`) and plain values (seat names as shown, the rules), never
from the game's state, so a hidden card cannot reach a message through this module. The
game's words (`.words`) read it for the platform. The game's other words, by audience:
a player's own panel and its controls (`.text_hand`), a deal's end and a deal face up
(`.text_results`), the lobby and the guide (`.text_guide`), the refusals
(`.text_refusals`), the terminal game (`.text_terminal`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import RANKS, card_label, rank_of
from bot.games.american import _, ngettext, pgettext
from bot.tables.panel import Panel
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene

from .actions import FLIP, PICKUP, PLAY, SWAP, Action
from .rules import BOOLEAN_OPTIONS, Rules
from .views import DealView, GameView, SeatView

TITLE = "American"  # the game's name in English; `title()` names it in the reader's words


def title() -> str:
    """The game's name as players read it: known as "Idiot" in Norway (nb). The command
    (`/american`) keeps its name."""
    return pgettext("game name", "American")


# ----------------------------------------------------------------- small pieces
# Cards are written as labels (`7♠`), each followed by a space and another label, a
# bracket, a comma or the end of the line, never by a bare number: `7♠ 3` would read as
# two cards to a player (and to the tests that check what each message shows).


def card_labels(cards: Sequence[int]) -> str:
    return " ".join(card_label(c) for c in cards)


def rank_lines(cards: Sequence[int]) -> list[str]:
    """A hand one rank a line, low to high: `7 · 7♠ 7♥`."""
    by_rank: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: (c % 13, c // 13)):
        by_rank.setdefault(card % 13, []).append(card)
    return [_("{rank} · {cards}").format(rank=RANKS[rank], cards=card_labels(same))
            for rank, same in by_rank.items()]


def _cards_count(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def describe_action(action: Action) -> str:
    """An action in a few words, as everyone saw it: `7♠ 7♥`, `a pick-up of the pile`."""
    if action.kind == PLAY:
        return card_labels(action.cards)
    if action.kind == PICKUP:
        return _("a pick-up of the pile")
    if action.kind == SWAP:
        if not action.cards:
            return _("no swap")
        return _("a swap of {given} for {taken}").format(given=card_labels(action.cards),
                                                         taken=card_labels(action.up))
    return _("turning over face-down card {number}").format(number=action.position + 1)


# ----------------------------------------------------------------- the table

def pile_lines(deal: DealView, names: Sequence[str]) -> list[str]:
    """The pile's top card and how many lie beneath, what was played last and by whom,
    the burned cards and the deck."""
    if deal.pile:  # the count of the whole pile, as the picture says it
        lines = [ngettext("Top: {card} · {count} card in the pile",
                          "Top: {card} · {count} cards in the pile", len(deal.pile)).format(
            card=card_label(deal.pile[-1]), count=len(deal.pile))]
    else:
        lines = [_("The pile is empty: any card may be played.")]
    last = deal.last
    if last is not None:
        lines.append(_("Last: **{name}** — {what}").format(name=names[last.seat],
                                                          what=_last_words(deal)))
    lines.append(_("Burned: {burned} · deck: {deck}").format(
        burned=_cards_count(len(deal.burned)), deck=_cards_count(deal.deck)))
    return lines


def _last_words(deal: DealView) -> str:
    """The last action, as everyone saw it (a flip with the card it turned over)."""
    last = deal.last
    assert last is not None
    if last.kind == FLIP and deal.turned is not None:
        return _("turned over {card}").format(card=card_label(deal.turned))
    if last.kind == PLAY:
        return _("played {cards}").format(cards=card_labels(last.cards))
    return describe_action(last)


def _seat_line(deal: DealView, seat: SeatView, names: Sequence[str]) -> str:
    """What everyone knows of one seat: its face-up cards, hand and face-down sizes, the
    hand cards everyone saw it take, or its place once out."""
    turn = "▶ " if deal.to_act == seat.seat else ""
    name = names[seat.seat]
    if seat.out:
        place = deal.out_order.index(seat.seat) + 1 if seat.seat in deal.out_order else 0
        return _("{turn}**{name}** — out ({place}.)").format(turn=turn, name=name,
                                                               place=place)
    up = card_labels(seat.up) if seat.up else _("none")
    line = _("{turn}**{name}** — face up: {up} · hand: {hand} · face down: {down}").format(
        turn=turn, name=name, up=up, hand=seat.hand_size, down=seat.down)
    if seat.known:
        line += "\n" + _("  seen going into the hand: {cards}").format(
            cards=known_summary(seat.known))
    return line


# The cards a seat was seen taking, shown by name up to this many (the rest counted).
_KNOWN_SHOWN = 4


def known_summary(cards: Sequence[int]) -> str:
    """The cards everyone saw a seat take into its hand, short: the highest few by name
    (they matter most), then how many more. A picked-up pile can be twenty cards."""
    if len(cards) <= _KNOWN_SHOWN:
        return card_labels(cards)
    shown = sorted(cards, key=lambda card: (rank_of(card), card), reverse=True)[:_KNOWN_SHOWN]
    rest = len(cards) - _KNOWN_SHOWN
    return ngettext("{cards} and {count} more", "{cards} and {count} more", rest).format(
        cards=card_labels(shown), count=rest)


def burn_line(deal: DealView, names: Sequence[str]) -> str | None:
    """The burn the last player made, in words (the pile gone, the player on again), or
    None: a 10 or four of one rank that emptied the pile into the burned cards, by the
    last action or by an earlier one of the same player since another player moved (an
    event line that stays until the next player's move)."""
    last = deal.last
    if last is None or not deal.burned:
        return None
    if deal.pile:
        card = None
    elif last.kind == PLAY and last.cards and set(deal.burned[-len(last.cards):]) == set(
            last.cards):
        card = last.cards[-1]
    elif last.kind == FLIP and deal.turned is not None and deal.burned[-1] == deal.turned:
        card = deal.turned
    else:
        card = None
    if card is None:
        # The burner played on since: the line stays until another player moves.
        if deal.burn is None or deal.burn[0] != last.seat:
            return None
        card = deal.burn[1]
    name = names[last.seat]
    if RANKS[rank_of(card)] == "10":
        return _("🔥 **{name}** burned the pile with a 10!").format(name=name)
    return _("🔥 **{name}** burned the pile with four of a kind ({rank})!").format(
        name=name, rank=RANKS[rank_of(card)])


# The pile's top cards the picture shows (the rest is a count).
_PILE_SHOWN = 4


def table_scene(view: GameView, names: Sequence[str]) -> Scene:
    """The public table as a picture's scene: each seat's face-up row, with its hand and
    face-down cards as counts; the pile's top cards in the middle; the deck and the burned
    cards by count. Plain words (a picture shows no Markdown)."""
    deal = view.deal
    assert deal is not None
    seats = tuple(SeatScene(
        name=names[seat.seat],
        lines=(_("out") if seat.out else ngettext(
            "{count} in hand", "{count} in hand", seat.hand_size).format(
                count=seat.hand_size),
               # (the face-down cards are the seat's count by a card back: no line)
               ngettext("{count} deal won", "{count} deals won", view.wins[seat.seat]).format(
                   count=view.wins[seat.seat])),
        cards=seat.up, backs=seat.down, to_act=deal.to_act == seat.seat)
        for seat in deal.seats)
    pile = deal.pile[-_PILE_SHOWN:]
    groups = [CardGroup(_("Deck"), backs=deal.deck)]
    if deal.burned:
        groups.append(CardGroup(_("Burned"), backs=len(deal.burned)))
    turn = (_("{name} to act").format(name=names[deal.to_act]) if deal.to_act is not None
            else _("The deal is over."))
    return Scene(
        title=_("{game} · deal {number}").format(game=title(), number=view.deal_number),
        seats=seats, centre=tuple((NO_SEAT, card) for card in pile),
        # The whole pile's count, as the table's text says it.
        centre_label=ngettext("The pile: {count} card", "The pile: {count} cards",
                              len(deal.pile)).format(count=len(deal.pile)),
        groups=tuple(groups), lines=(turn,))


def _what_next(deal: DealView, names: Sequence[str]) -> str:
    if deal.to_act is None:
        return _("The deal is over.")
    name = names[deal.to_act]
    if deal.phase == "swap":
        return _("**{name}** to swap hand cards for face-up cards (or keep them).").format(
            name=name)
    if deal.phase == FLIP:
        return _("**{name}** to turn over a face-down card.").format(name=name)
    return _("**{name}** to play or pick up.").format(name=name)


def wins_line(view: GameView, names: Sequence[str]) -> str:
    return _(", ").join(_("{name} {wins}").format(name=names[s], wins=w)
                        for s, w in enumerate(view.wins))


def table_fields(view: GameView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    deal = view.deal
    assert deal is not None
    fields = [(_("Pile"), "\n".join(pile_lines(deal, names)), False),
              (_("Players"), "\n".join(_seat_line(deal, s, names) for s in deal.seats),
               False)]
    if view.rules.target > 1:
        fields.append((_("Deals won"), wins_line(view, names), False))
    return fields


def table_panel(view: GameView, names: Sequence[str]) -> Panel:
    """The public table message during a game, from the public view only."""
    deal = view.deal
    assert deal is not None
    description = _("Deal {number} · {options}").format(number=view.deal_number,
                                                        options=options_line(view.rules))
    burn = burn_line(deal, names)
    if burn is not None:
        description += "\n" + burn
    description += "\n" + _what_next(deal, names)
    return Panel(title=title(), description=description,
                 fields=tuple(table_fields(view, names)),
                 footer=_("Open “My hand” to see your cards and act."))


# ----------------------------------------------------------------- the rules in a line

def options_line(rules: Rules) -> str:
    """The table's rules in one line, the house rules by their names in the reader's
    words."""
    players = ngettext("{count} player", "{count} players", rules.players).format(
        count=rules.players)
    target = ngettext("first to {count} deal", "first to {count} deals", rules.target).format(
        count=rules.target)
    text = f"{players} · {target}"
    on = [option_name(name) for name in BOOLEAN_OPTIONS if name in rules.options]
    return text + (" · " + ", ".join(on) if on else "")


def option_name(name: str) -> str:
    """A house rule's name as players read it. Its key (`four_burns`) stays what the
    commands take; the words shown are translated."""
    return {
        "same_rank": pgettext("house rule", "same rank"),
        "four_burns": pgettext("house rule", "four of a kind burns"),
        "swap": pgettext("house rule", "swap"),
        "blind_down": pgettext("house rule", "face-down cards blind"),
        "voluntary_pickup": pgettext("house rule", "pick up at will"),
        "target": pgettext("house rule", "deals to win"),
    }.get(name, name)
