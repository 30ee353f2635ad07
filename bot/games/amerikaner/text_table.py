"""Amerikaner's words at the table, which everyone reads: the table message and its
picture, the rules in a line, and the small pieces the game's other words share (cards,
bids, tricks).

Built only from views (`.views`) and plain values (seat names as shown, the rules), never
from the game's state, so a hidden card cannot reach a message through this module. The
game's words (`.words`) read it for the platform. The game's other words, by audience:
a player's hand and its controls (`.text_hand`), a hand's end and a hand face up
(`.text_results`), the lobby and the guide (`.text_guide`), the refusals
(`.text_refusals`), the terminal game (`.text_terminal`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import card_label, card_list, is_joker, suit_of
from bot.games.amerikaner import _, ngettext, pgettext
from bot.i18n import isolate
from bot.tables.panel import Panel
from bot.tables.scene import CardGroup, Scene, SeatScene

from .actions import Action
from .rules import BOOLEAN_OPTIONS, Rules
from .views import GameView, HandView, TrickView

TITLE = "Amerikaner"  # the game's name in English; `title()` names it in the reader's words


def title() -> str:
    """The game's name as players read it: Amerikaner in English and Norwegian, آمریکانر
    in Persian (issue 55: the Persian article this project's rules come from names it so).
    The command (`/amerikaner`) keeps its name."""
    return pgettext("game name", "Amerikaner")


def _phase_name(phase: str) -> str:
    return {"exchange": _("Blind exchange"), "bid": _("Bidding"),
            "discard": _("Kitty discard"), "lead": _("Opening lead"), "play": _("Play"),
            "done": _("Hand over")}[phase]


def trump_words(trump: str) -> str:
    return {"S": _("♠ spades"), "H": _("♥ hearts"), "D": _("♦ diamonds"),
            "C": _("♣ clubs"), "grand": _("no trumps (grand)")}[trump]


# ----------------------------------------------------------------- small pieces

def bid_label(bid: int | str | None) -> str:
    """A bid as shown: a number, or the top bid's name, the game's (its variant's) name
    as players read it (آمریکانر, کانی in Persian; the same in English and Norwegian)."""
    if bid is None:
        return "—"
    return preset_name(bid) if isinstance(bid, str) else str(bid)


def tricks_text(count: int) -> str:
    return ngettext("{count} trick", "{count} tricks", count).format(count=count)


def hand_order(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards sorted as a player holds them: by suit (♠ ♥ ♦ ♣), high to low, jokers last."""
    return tuple(sorted(cards, key=lambda c: (4, c) if is_joker(c) else (suit_of(c), -c)))


def sorted_cards(cards: Sequence[int]) -> str:
    """Cards in one line, sorted like a hand: `♠ A 10 · ♥ Q 3`."""
    return card_list(hand_order(cards))


def hand_lines(cards: Sequence[int]) -> list[str]:
    """A hand one suit a line (`♠ A K 10 4`), so that a phone never wraps it mid-suit;
    jokers on a line of their own."""
    ordered = hand_order(cards)
    suits = dict.fromkeys(suit_of(c) for c in ordered)  # in the hand's order
    return [card_list(c for c in ordered if suit_of(c) == suit) for suit in suits] or [
        card_list(())]


def trick_line(trick: TrickView, names: Sequence[str]) -> str:
    """The cards of a trick by who played them; who took it, or who is winning it now."""
    plays = _(", ").join(_("{name} {card}").format(name=names[s], card=card_label(c))
                         for s, c in trick.plays)
    if trick.winner is not None:
        return _("{plays} → **{winner}**").format(plays=plays, winner=names[trick.winner])
    if trick.winning is not None:
        return _("{plays} · winning: **{winner}**").format(plays=plays,
                                                         winner=names[trick.winning])
    return plays


def auction_line(view: HandView, names: Sequence[str]) -> str:
    if not view.auction:
        return _("No bids yet.")
    return _(", ").join(_("{name}: {bid}").format(
        name=names[s], bid=bid_label(b) if b != "pass" else _("pass"))
        for s, b in view.auction[-12:])


def describe_action(action: Action) -> str:
    """An action in a few words: `a pass`, `a bid of 8`, `the A♠`, `the A♠ · Call K♠`."""
    if action.kind == "pass":
        return _("a pass")
    if action.kind == "bid":
        return _("a bid of {bid}").format(bid=bid_label(action.bid))
    if action.kind == "redeal":
        return _("a redeal claim")
    if action.kind in ("exchange", "discard"):
        count = len(action.cards)
        if action.kind == "exchange":
            return ngettext("an exchange of {count} card", "an exchange of {count} cards",
                            count).format(count=count)
        return ngettext("a discard of {count} card", "a discard of {count} cards",
                        count).format(count=count)
    assert action.card is not None
    played = _("the {card}").format(card=card_label(action.card))
    # An opening lead names its trump and call (the Activity's page offers each choice
    # of a lead by these words; a record shows what was named).
    named = [played]
    if action.trump is not None:
        named.append(_("Trump: {trump}").format(trump=trump_words(action.trump)))
    if action.call is not None:
        named.append(_("Call {card}").format(card=card_label(action.call)))
    return " · ".join(named)


# ----------------------------------------------------------------- the table

def table_panel(view: GameView, names: Sequence[str]) -> Panel:
    """The public table message during a game, from the public view only."""
    hand = view.hand
    assert hand is not None
    fields = [(_("Seats"), seat_lines(view.totals, hand, names), False),
              *deal_fields(hand, names)]
    description = _("Hand {number} · {phase} · {options}").format(
        number=view.hand_number, phase=_phase_name(hand.phase),
        options=options_line(view.rules))
    if hand.to_act is not None:
        description += "\n" + _what_next(hand).format(name=names[hand.to_act])
    if opening_lead_teaches(hand) and hand.bidder is not None:
        description += "\n" + _(
            "The opening lead: the suit {name} leads becomes trump. With it {name} calls "
            "a card they lack, usually the highest of that suit; whoever holds it is "
            "their partner, shown when it is played.").format(name=names[hand.bidder])
    return Panel(title=title(), description=description, fields=tuple(fields),
                 footer=_("Open “My hand” to see your cards and act."))


def opening_lead_teaches(hand: HandView) -> bool:
    """Whether the opening lead of a number bid (or Kani) is due: the moment the table
    says what it does (a suit becomes trump, a card is called), taught as it is played."""
    return (hand.phase == "lead" and not hand.tricks and hand.trick is None
            and not hand.all_pass and hand.bidder is not None and hand.contract != "amerikaner")


def usual_call(cards: Sequence[int]) -> int | None:
    """The card called "normally" (docs/rules-amerikaner.md §5), as the AIs call it: the highest of
    the suit led that the bidder lacks (easy.opening_choice), of `cards`, the callable."""
    return max(cards) if cards else None


def deal_fields(hand: HandView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    """What the view knows of the deal at the table: the bidding or the contract, the
    trick being played and who is winning it, the last trick and who took it."""
    fields: list[tuple[str, str, bool]] = []
    if hand.phase in ("exchange", "bid"):
        fields.append((_("Bidding"), auction_line(hand, names), False))
    else:
        fields.extend(contract_fields(hand, names))
    if hand.trick is not None:
        fields.append((_("Current trick"), trick_line(hand.trick, names), False))
    if hand.last_trick is not None:
        fields.append((_("Last trick"), trick_line(hand.last_trick, names), False))
    return fields


def seat_lines(totals: Sequence[int], hand: HandView, names: Sequence[str]) -> str:
    """A line a seat: its turn, dealer, bidder and partner (as far as the view knows),
    its points in the game and its tricks in this deal."""
    partner = hand.known_partner
    lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == hand.dealer:
            marks.append(_("dealer"))
        if hand.bidder == seat:
            marks.append(_("bidder {bid}").format(bid=bid_label(hand.contract)))
        if partner == seat:
            marks.append(_("partner"))
        turn = "▶ " if hand.to_act == seat else ""
        shown = _(" ({marks})").format(marks=_(", ").join(marks)) if marks else ""
        lines.append(_("{turn}**{name}**{marks} — {points} pts, {tricks}").format(
            turn=turn, name=name, marks=shown, points=totals[seat],
            tricks=tricks_text(hand.tricks_won[seat])))
    return "\n".join(lines)


def contract_fields(hand: HandView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    """Once bidding is over: the contract, the trump, the called card and the partner as
    far as the view knows it, a kitty shown to all."""
    contract = (_("all passed: no trumps, -1 a trick") if hand.all_pass else
                _("{name} {bid}").format(name=names[hand.bidder], bid=bid_label(hand.contract))
                if hand.bidder is not None else "—")
    trump = _("none") if hand.all_pass or not hand.trump else trump_words(hand.trump)
    fields = [(_("Contract"), contract, True), (_("Trump"), trump, True)]
    if hand.called is not None:
        fields.append((_("Called"), _("{card} — {partner}").format(
            card=card_label(hand.called), partner=partner_words(hand, names)), True))
    if hand.kitty is not None and "show_kitty" in hand.rules.options:
        fields.append((_("Kitty (shown)"), sorted_cards(hand.kitty), False))
    return fields


def partner_words(hand: HandView, names: Sequence[str]) -> str:
    partner = hand.known_partner
    if partner is not None and partner == hand.seat:
        return _("partner: **you**")
    if partner is not None:
        return _("partner: {name}").format(name=names[partner])
    if hand.bidder_alone:
        return _("nobody holds it: no partner")
    return _("partner: not yet shown")


def _what_next(view: HandView) -> str:
    """Who is to act and how, with `{name}` to fill in."""
    return {"exchange": _("**{name}** to exchange with the blind."),
            "bid": _("**{name}** to bid or pass."), "discard": _("**{name}** to discard."),
            "lead": _("**{name}** to lead."), "play": _("**{name}** to play."),
            "done": _("**{name}** to wait.")}[view.phase]


# ----------------------------------------------------------------- the table's picture

def table_scene(view: GameView, names: Sequence[str]) -> Scene:
    """The public table as a picture's data (bot.render.pictures draws it), from the
    public view only: each seat's points, bid or tricks and cards in hand (as a count),
    the trick on the table by seat, the called card, the last trick, a kitty shown, the
    contract and trump. No markdown: a picture shows it as it is."""
    hand = view.hand
    assert hand is not None
    seats = tuple(_seat_scene(view, hand, seat, name) for seat, name in enumerate(names))
    heading = _("{game} · hand {number}").format(game=title(), number=view.hand_number)
    return Scene(title=heading, seats=seats,
                 centre=hand.trick.plays if hand.trick is not None else (),
                 centre_label=_centre_label(hand), groups=_scene_groups(hand),
                 lines=_scene_lines(view, hand, names))


def _seat_scene(view: GameView, hand: HandView, seat: int, name: str) -> SeatScene:
    first = [_("{points} pts").format(points=view.totals[seat])]
    if seat == hand.dealer:
        first.append(_("dealer"))
    second = []
    if hand.phase in ("exchange", "bid"):
        bids = [bid for bidder, bid in hand.auction if bidder == seat]
        if bids:
            second.append(_("pass") if bids[-1] == "pass" else
                          _("bid {bid}").format(bid=bid_label(bids[-1])))
    else:
        if hand.bidder == seat:
            second.append(_("bidder {bid}").format(bid=bid_label(hand.contract)))
        if hand.partner == seat:
            second.append(_("partner"))
        second.append(tricks_text(hand.tricks_won[seat]))
    if hand.scores is not None:
        second.append(isolate(f"{hand.scores[seat]:+d}"))
    lines = tuple(" · ".join(parts) for parts in (first, second) if parts)
    return SeatScene(name=name, lines=lines, backs=hand.hand_sizes[seat],
                     to_act=hand.to_act == seat)


def _centre_label(hand: HandView) -> str:
    """What the middle of the table is about: the trick under way, or the phase."""
    if hand.phase in ("lead", "play"):
        return _("Trick {number} of {count}").format(number=len(hand.tricks) + 1,
                                                     count=hand.rules.cards_each)
    return _phase_name(hand.phase)


def _scene_lines(view: GameView, hand: HandView, names: Sequence[str]) -> tuple[str, ...]:
    lines = []
    if hand.phase in ("exchange", "bid"):
        if hand.high_bidder is None:
            lines.append(_("No bids yet."))
        else:
            lines.append(_("High bid: {bid} by {name}").format(
                bid=bid_label(hand.high_bid), name=names[hand.high_bidder]))
    elif hand.all_pass:
        lines.append(_("All passed: no trumps, −1 a trick"))
    elif hand.bidder is not None:
        lines.append(_("Contract: {name} {bid}").format(name=names[hand.bidder],
                                                        bid=bid_label(hand.contract)))
    if hand.trump is not None and not hand.all_pass:
        lines.append(_("Trump: {trump}").format(trump=trump_words(hand.trump)))
    if hand.to_act is not None:
        lines.append(_turn_words(hand.phase).format(name=names[hand.to_act]))
    lines.append(options_line(view.rules))
    return tuple(lines)


def _turn_words(phase: str) -> str:
    """Who is to act and how, with `{name}` to fill in (a picture's words: no markdown)."""
    return {"exchange": _("{name} to exchange with the blind"), "bid": _("{name} to bid"),
            "discard": _("{name} to discard"), "lead": _("{name} to lead"),
            "play": _("{name} to play")}[phase]


def _scene_groups(hand: HandView) -> tuple[CardGroup, ...]:
    """The picture's card rows, each with a short label that a phone's strip shows
    whole in both languages: the partner is marked in their seat's box, and the last
    trick's winning card is marked in its row (the embed names both)."""
    groups = []
    if hand.called is not None:
        groups.append(CardGroup(_("Called"), (hand.called,)))  # as the embed's field
    last = hand.last_trick
    if last is not None and last.winner is not None:
        plays = tuple(card for _seat, card in last.plays)
        won = next(i for i, (seat, _card) in enumerate(last.plays) if seat == last.winner)
        groups.append(CardGroup(_("Last trick"), plays, marked=won))
    if hand.kitty is not None:
        groups.append(CardGroup(_("Kitty"), hand.kitty))  # in the picture only if shown
    return tuple(groups)


# ----------------------------------------------------------------- the rules in a line

def options_line(rules: Rules) -> str:
    """The table's rules in one line, for the lobby and the table panel, with the
    preset's and the house rules' names in the reader's words."""
    text = ngettext("{preset} · {players} player · to {target}",
                    "{preset} · {players} players · to {target}", rules.players).format(
        preset=preset_name(rules.preset), players=rules.players, target=rules.target)
    opts = [option_name(name) for name in BOOLEAN_OPTIONS if name in rules.options]
    return text + (" · " + ", ".join(opts) if opts else "")


def option_name(name: str) -> str:
    """A house rule's name as players read it. Its key (`no_kitty`) stays what the
    commands take; the words shown are translated."""
    return {
        "no_kitty": pgettext("house rule", "no kitty"),
        "jokers": pgettext("house rule", "jokers"),
        "show_kitty": pgettext("house rule", "kitty shown"),
        "kitty_trick": pgettext("house rule", "kitty as a trick"),
        "free_trump": pgettext("house rule", "free trump"),
        "two_wins": pgettext("house rule", "a 2 led wins"),
        "bidder_double": pgettext("house rule", "bidder scores double"),
        "partner_half": pgettext("house rule", "partner scores half"),
        "all_pass_play": pgettext("house rule", "play when all pass"),
        "fixed_ten": pgettext("house rule", "10 points a bid"),
        "target": pgettext("house rule", "winning score"),
    }.get(name, name)


def preset_name(preset: str) -> str:
    """A preset's name as players read it (its key, `norsk`, is what commands take)."""
    return {"amerikaner": pgettext("preset", "Amerikaner"),
            "norsk": pgettext("preset", "Norwegian"),
            "kani": pgettext("preset", "Kani")}.get(preset, preset)
