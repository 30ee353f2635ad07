"""Every word of Amerikaner a player reads: the table, a player's hand, a hand's result,
the final standings, the rules, and the refusals of what a player typed.

Built only from views (`.views`) and plain values (seat names as shown, the rules), never
from the game's state, so a hidden card cannot reach a message through this module. The
table platform calls these through the GameKind hooks (`.kind`); the Amerikaner cog calls
the game-specific ones directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.cards import SUIT_SYMBOLS, card_label, card_list, card_name, is_joker, suit_of
from bot.errors import (
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_RECORD,
    INVALID_RULES,
    NOT_YOUR_TURN,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)
from bot.games.amerikaner import _, ngettext, pgettext
from bot.tables.panel import GOLD, GREEN, GREY, RED, Panel, quote
from bot.tables.scene import CardGroup, Scene, SeatScene

from .actions import INVALID_BID, Action
from .claim import INVALID_CLAIM
from .errors import (
    ALREADY_PASSED,
    BID_TOO_HIGH,
    BID_TOO_LOW,
    INVALID_CALL,
    INVALID_LEAD,
    INVALID_TRUMP,
    MUST_FOLLOW_SUIT,
    MUST_PLAY_CALLED_CARD,
    REDEAL_NOT_ALLOWED,
)
from .hand import ALL_PASS_PLAYED, MADE, REDEAL, THROWN_IN
from .rules import BOOLEAN_OPTIONS, PRESET_TABLE, Rules, default_target
from .views import DEAL_NOT_FINISHED, DealReview, GameView, HandView, LegalActions, TrickView

TITLE = "Amerikaner"  # the game's name: the same in every language
MEDALS = ("🥇", "🥈", "🥉")


def title() -> str:
    """The game's name as players read it (the same in every language)."""
    return TITLE


def _phase_name(phase: str) -> str:
    return {"exchange": _("Blind exchange"), "bid": _("Bidding"),
            "discard": _("Kitty discard"), "lead": _("Opening lead"), "play": _("Play"),
            "done": _("Hand over")}[phase]


def _trump_name(trump: str) -> str:
    return {"S": _("♠ spades"), "H": _("♥ hearts"), "D": _("♦ diamonds"),
            "C": _("♣ clubs"), "grand": _("no trumps (grand)")}[trump]


# ----------------------------------------------------------------- small pieces

def bid_label(bid: int | str | None) -> str:
    """A bid as shown: a number, or the top bid's name (a game's name: not translated)."""
    if bid is None:
        return "—"
    return bid.capitalize() if isinstance(bid, str) else str(bid)


def _tricks(count: int) -> str:
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


def lobby_title(rules: Rules) -> str:
    """The lobby's title: the game, and its variant unless that is the game's own name
    (issue 52: "Amerikaner table — Amerikaner")."""
    variant = preset_name(rules.preset)
    if variant == TITLE:
        return _("{game} table").format(game=TITLE)
    return _("{game} table — {preset}").format(game=TITLE, preset=variant)


def describe_action(action: Action) -> str:
    """An action in a few words: `a pass`, `a bid of 8`, `the A♠`."""
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
    return _("the {card}").format(card=card_label(action.card))


# ----------------------------------------------------------------- the table

def table_panel(view: GameView, names: Sequence[str]) -> Panel:
    """The public table message during a game, from the public view only."""
    hand = view.hand
    assert hand is not None
    fields = [(_("Seats"), _seat_lines(view.totals, hand, names), False),
              *_deal_fields(hand, names)]
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
    return Panel(title=TITLE, description=description, fields=tuple(fields),
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


def _deal_fields(hand: HandView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    """What the view knows of the deal at the table: the bidding or the contract, the
    trick being played and who is winning it, the last trick and who took it."""
    fields: list[tuple[str, str, bool]] = []
    if hand.phase in ("exchange", "bid"):
        fields.append((_("Bidding"), auction_line(hand, names), False))
    else:
        fields.extend(_contract_fields(hand, names))
    if hand.trick is not None:
        fields.append((_("Current trick"), trick_line(hand.trick, names), False))
    if hand.last_trick is not None:
        fields.append((_("Last trick"), trick_line(hand.last_trick, names), False))
    return fields


def _seat_lines(totals: Sequence[int], hand: HandView, names: Sequence[str]) -> str:
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
            tricks=_tricks(hand.tricks_won[seat])))
    return "\n".join(lines)


def _contract_fields(hand: HandView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    """Once bidding is over: the contract, the trump, the called card and the partner as
    far as the view knows it, a kitty shown to all."""
    contract = (_("all passed: no trumps, -1 a trick") if hand.all_pass else
                _("{name} {bid}").format(name=names[hand.bidder], bid=bid_label(hand.contract))
                if hand.bidder is not None else "—")
    trump = _("none") if hand.all_pass or not hand.trump else _trump_name(hand.trump)
    fields = [(_("Contract"), contract, True), (_("Trump"), trump, True)]
    if hand.called is not None:
        fields.append((_("Called"), _("{card} — {partner}").format(
            card=card_label(hand.called), partner=_partner_words(hand, names)), True))
    if hand.kitty is not None and "show_kitty" in hand.rules.options:
        fields.append((_("Kitty (shown)"), sorted_cards(hand.kitty), False))
    return fields


def _partner_words(hand: HandView, names: Sequence[str]) -> str:
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
    title = _("{game} · hand {number}").format(game=TITLE, number=view.hand_number)
    return Scene(title=title, seats=seats,
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
        second.append(_tricks(hand.tricks_won[seat]))
    if hand.scores is not None:
        second.append(f"{hand.scores[seat]:+d}")
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
        lines.append(_("Trump: {trump}").format(trump=_trump_name(hand.trump)))
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
    fields = [*_deal_fields(view, names), *_tricks_field(view, seat),
              (_("Scores"), _seat_lines(totals, view, names), False)]
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
            line += " · " + _("trump: {trump}").format(trump=_trump_name(view.trump))
        if view.called is not None:
            line += " · " + _("called {card} — {partner}").format(
                card=card_label(view.called), partner=_partner_words(view, names))
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
        text = _("You: {mine}").format(mine=_tricks(mine))
    else:
        text = _("You: {mine} · your side: {side}").format(
            mine=_tricks(mine), side=_tricks(sum(view.tricks_won[s] for s in side)))
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


# ----------------------------------------------------------------- results

def deal_summary(view: GameView, names: Sequence[str]) -> Panel:
    """After a hand (`view`: the game as it stood when it ended, `game_view_after`): the
    contract made or failed, tricks, score changes, totals."""
    hand = view.hand
    assert hand is not None
    title, colour = _summary_title(hand, view.hand_number, names)
    return Panel(title=title, description=_result_rows(view, names), colour=colour)


def _summary_title(hand: HandView, number: int, names: Sequence[str]) -> tuple[str, int]:
    outcome = hand.outcome
    if outcome == THROWN_IN:
        return _("Hand {number}: everyone passed — thrown in").format(number=number), GREY
    if outcome == REDEAL:
        return _("Hand {number}: redeal claimed — same dealer deals again").format(
            number=number), GREY
    if outcome == ALL_PASS_PLAYED:
        return _("Hand {number}: all passed, played at -1 a trick").format(number=number), GREY
    assert hand.bidder is not None
    made = outcome == MADE
    values = {"number": number, "bidder": names[hand.bidder], "bid": bid_label(hand.contract)}
    if hand.partner is not None:
        values["partner"] = names[hand.partner]
        title = (_("Hand {number}: {bidder} with {partner} made {bid}") if made
                 else _("Hand {number}: {bidder} with {partner} failed {bid}"))
    else:
        title = (_("Hand {number}: {bidder} alone made {bid}") if made
                 else _("Hand {number}: {bidder} alone failed {bid}"))
    return title.format(**values), GREEN if made else RED


def recap_facts(taken: Sequence[tuple[int, int]], hand: HandView | None,
                names: Sequence[str]) -> list[str]:
    """"While you were away": who took how many tricks since (`taken`: seat and count,
    in the order they first took one) and, `hand` over, its result in a few words."""
    facts = [ngettext("{name} took {count} trick", "{name} took {count} tricks",
                      count).format(name=names[seat], count=count) for seat, count in taken]
    if hand is not None:
        facts.append(hand_result(hand, names))
    return facts


def hand_result(hand: HandView, names: Sequence[str]) -> str:
    """A finished hand's result in a few words ("bob with carol made 8")."""
    outcome = hand.outcome
    if outcome == THROWN_IN:
        return _("everyone passed: thrown in")
    if outcome == REDEAL:
        return _("redeal claimed")
    if outcome == ALL_PASS_PLAYED or hand.bidder is None:
        return _("all passed, played at -1 a trick")
    made = outcome == MADE
    values = {"bidder": names[hand.bidder], "bid": bid_label(hand.contract)}
    if hand.partner is not None:
        return (_("{bidder} with {partner} made {bid}") if made
                else _("{bidder} with {partner} failed {bid}")).format(
            partner=names[hand.partner], **values)
    return (_("{bidder} alone made {bid}") if made
            else _("{bidder} alone failed {bid}")).format(**values)


def final_standings(view: GameView, names: Sequence[str]) -> Panel:
    """The finished game: seats by final total, the winner(s) in the title."""
    order = sorted(range(len(names)), key=lambda s: -view.totals[s])
    rows = [_("{place} **{name}** — {total}").format(
        place=MEDALS[i] if i < len(MEDALS) else f"{i + 1}.", name=names[s],
        total=view.totals[s]) for i, s in enumerate(order)]
    winners = [names[s] for s in view.winners]
    if len(winners) == 1:
        title = _("Game over — {winner} wins!").format(winner=winners[0])
    else:
        title = _("Game over — {winners} win!").format(winners=_(" and ").join(winners))
    footer = ngettext("{count} hand · /amerikaner export for the record",
                      "{count} hands · /amerikaner export for the record",
                      view.hand_number).format(count=view.hand_number)
    return Panel(title=title, description="\n".join(rows), colour=GOLD, footer=footer)


# ----------------------------------------------------------------- a finished deal

def deal_review(review: DealReview, names: Sequence[str]) -> Panel:
    """A finished deal face up (`views.deal_review`): every hand as dealt, the kitty and
    the discards or the blind exchanges, the bidding, every trick in order, the result."""
    view = review.after
    hand = view.hand
    assert hand is not None
    title, colour = _summary_title(hand, view.hand_number, names)
    fields = [(_("{name} — dealt").format(name=names[seat]), "\n".join(hand_lines(cards)),
               True) for seat, cards in enumerate(review.dealt)]
    fields.extend(_set_aside_fields(review, hand, names))
    fields.extend(_trick_fields(hand.tricks, names))
    fields.append((_("Result"), _result_rows(view, names), False))
    lines = (_("**Bidding:** {bids}").format(bids=_bids_by_seat(hand, names)),
             _contract_line(hand, names))
    description = "\n".join(line for line in lines if line)
    return Panel(title=title, description=description, fields=tuple(fields), colour=colour)


def _set_aside_fields(review: DealReview, hand: HandView, names: Sequence[str]
                      ) -> list[tuple[str, str, bool]]:
    fields = []
    if review.kitty:
        fields.append((_("Kitty"), sorted_cards(review.kitty), True))
    if review.discards and hand.bidder is not None:
        fields.append((_("{name} discarded").format(name=names[hand.bidder]),
                       sorted_cards(review.discards), True))
    if review.blind:
        fields.append((_("Blind"), sorted_cards(review.blind), True))
    if review.exchanges:
        rows = [_("**{name}** gave {given}, took {taken}").format(
            name=names[seat], given=sorted_cards(given), taken=sorted_cards(taken)) if given
            else _("**{name}** kept the hand").format(name=names[seat])
            for seat, given, taken in review.exchanges]
        fields.append((_("Blind exchanges"), "\n".join(rows), False))
    return fields


def _bids_by_seat(hand: HandView, names: Sequence[str]) -> str:
    """The auction in short: each seat's calls in order (`bob 7, 9 · carol pass`)."""
    calls: dict[int, list[str]] = {}
    for seat, bid in hand.auction:
        calls.setdefault(seat, []).append(_("pass") if bid == "pass" else bid_label(bid))
    if not calls:
        return _("none")
    return " · ".join(_("{name} {bids}").format(name=names[seat], bids=_(", ").join(bids))
                      for seat, bids in calls.items())


def _contract_line(hand: HandView, names: Sequence[str]) -> str:
    """The contract, the trump and the called card in one line (nothing if none)."""
    if hand.contract is None and not hand.all_pass:
        return ""
    return " · ".join(_("{name}: {value}").format(name=name, value=value)
                      for name, value, _inline in _contract_fields(hand, names))


# A field's value holds at most 1,024 characters in Discord: tricks are cut into fields
# of whole lines below that.
_FIELD_VALUE_MAX = 1000


def _trick_fields(tricks: Sequence[TrickView], names: Sequence[str]
                  ) -> list[tuple[str, str, bool]]:
    """Every trick in order, a line each: its leader first, the cards as played, who
    took it; as many fields as their length needs."""
    rows = [_("{number}. {plays}").format(number=i + 1, plays=trick_line(trick, names))
            for i, trick in enumerate(tricks)]
    fields = []
    start = 0
    while start < len(rows):
        end = start + 1
        while end < len(rows) and len("\n".join(rows[start:end + 1])) <= _FIELD_VALUE_MAX:
            end += 1
        name = (_("Trick {first}").format(first=start + 1) if end == start + 1 else
                _("Tricks {first}–{last}").format(first=start + 1, last=end))
        fields.append((name, "\n".join(rows[start:end]), False))
        start = end
    return fields


def _result_rows(view: GameView, names: Sequence[str]) -> str:
    """Each seat's tricks, score and total after the deal."""
    hand = view.hand
    assert hand is not None
    return "\n".join(_("**{name}**: {tricks}, {score} → {total}").format(
        name=name, tricks=_tricks(hand.tricks_won[seat]),
        score=f"{hand.scores[seat] if hand.scores else 0:+d}", total=view.totals[seat])
        for seat, name in enumerate(names))


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
# (the highest heart it lacks): the hand holds just that (tests/test_teaching.py).
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
    trump = _trump_name(action.trump) if action.trump is not None else None
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


# ----------------------------------------------------------------- refusals by code

# A refusal's parameters are plain values (docs/record-format.md's errors, bot/errors.py):
# cards as ints, shown here as labels (A♠) or, for records and deals, in record notation
# (AS); values a record may hold of any type are shown as Python writes them (repr).

def _suit_plural(suit: int) -> str:
    return (_("spades"), _("hearts"), _("diamonds"), _("clubs"))[suit]


def _suit_singular(suit: int) -> str:
    return (_("spade"), _("heart"), _("diamond"), _("club"))[suit]


def _names(cards: Sequence[int]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _choices(names: Sequence[str]) -> str:
    return ", ".join(names)


def _phase_now(phase: str) -> str:
    return {"exchange": _("players are exchanging with the blind"),
            "bid": _("the bidding is on"), "discard": _("the bidder is discarding"),
            "lead": _("the opening lead is due"), "play": _("the cards are being played"),
            "done": _("this hand is over")}[phase]


_PRESETS_FOR_OPTION = {"no_kitty": "amerikaner", "jokers": "amerikaner",
                       "show_kitty": "amerikaner with a kitty",
                       "kitty_trick": "amerikaner with a kitty",
                       "bidder_double": "amerikaner and norsk",
                       "partner_half": "amerikaner and norsk",
                       "all_pass_play": "amerikaner and norsk", "fixed_ten": "kani"}


def _presets_for(option: str) -> str:
    """Where an option applies, in words (preset names stay as they are typed)."""
    return {"amerikaner": "amerikaner", "kani": "kani",
            "amerikaner with a kitty": _("amerikaner with a kitty"),
            "amerikaner and norsk": _("amerikaner and norsk")
            }.get(_PRESETS_FOR_OPTION.get(option, ""), "")


def _invalid_rules(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "unknown_preset":
        return _("Unknown preset {preset}: choose one of {presets}.").format(
            preset=repr(p["preset"]), presets=_choices(p["presets"]))
    if reason == "players_not_whole":
        return _("The number of players must be a whole number.")
    if reason == "player_count":
        return _player_count(p)
    if reason == "rules_not_object":
        return _("The rules must be an object with preset, players and options.")
    if reason == "options_not_object":
        return _("The options must be an object.")
    if reason == "bad_target":
        return _("The target must be a positive whole number, not {value}.").format(
            value=repr(p["value"]))
    if reason == "unknown_option":  # from a record, or as a user typed it (settings)
        return _("Unknown option {option}. Options: {options}.").format(
            option=quote(str(p["option"])), options=_choices(BOOLEAN_OPTIONS))
    if reason == "not_on_or_off":
        return _("Option {option} is on or off (true or false), not {value}.").format(
            option=repr(p["option"]), value=repr(p["value"]))
    if reason == "not_for_preset":
        # The house rules' names, not their keys (issue 35: no snake_case a player reads).
        return _("Option {option} does not apply to {preset}: it is for {where} only.").format(
            option=quote(option_name(str(p["option"]))),
            preset=p["preset"], where=_presets_for(p["option"]))
    if reason == "exclusive":
        first, second = p["options"]
        return _("Options {first} and {second} exclude each other: choose one way of scoring "
                 "the bid.").format(first=quote(option_name(first)),
                                    second=quote(option_name(second)))
    return _("Option {option} needs a kitty, but {by} deals every card.").format(
        option=repr(p["option"]), by=repr(p["by"]))


def _player_count(p: dict[str, Any]) -> str:
    preset, low, high, players = p["preset"], p["low"], p["high"], p["players"]
    if low == high:
        return _("{preset} is played by exactly {low} players, not {players}.").format(
            preset=preset, low=low, players=players)
    if "jokers" in PRESET_TABLE[preset].options:
        return _("{preset} is played by {low} to {high} players (6 with the jokers option), "
                 "not {players}.").format(preset=preset, low=low, high=high, players=players)
    return _("{preset} is played by {low} to {high} players, not {players}.").format(
        preset=preset, low=low, high=high, players=players)


def _invalid_record(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    simple = {
        "not_object": _("A record is a JSON object."),
        "no_rules": _("The record has no rules object."),
        "hands_not_list": _("The record's hands must be a list."),
        "action_not_object": _("An action is a JSON object."),
        "action_cards_not_list": _("cards must be a list."),
        "no_seat_or_kind": _("An action needs a seat and a kind."),
        "empty_move": _("Type a move (or 'help', or 'quit')."),
    }
    if reason in simple:
        return simple[reason]
    if reason == "not_json":
        return _("Not JSON: {detail}").format(detail=p["detail"])
    if reason == "format":
        return _("Unknown record format {format}; expected {expected}.").format(
            format=repr(p["format"]), expected=repr(p["expected"]))
    if reason == "first_dealer":
        return _("first_dealer must be a seat from 0 to {last}.").format(last=p["last"])
    if reason in ("hand_not_object", "actions_not_list", "unfinished", "no_deal",
                  "cards_not_list"):
        return _record_hand(reason, p)
    if reason == "unknown_action":
        return _("Unknown action {kind}.").format(kind=repr(p["kind"]))
    if reason == "unknown_key":
        return _("Unknown key {key} in a {kind} action.").format(
            key=repr(p["key"]), kind=_action_verb(p["kind"]))
    if reason == "missing_key":
        return _("A {kind} action needs {key}.").format(kind=_action_verb(p["kind"]),
                                                        key=repr(p["key"]))
    if reason == "no_key":
        return _("The action has no {key}.").format(key=repr(p["key"]))
    if reason == "not_a_bid":
        return _("{value} is not a bid.").format(value=repr(p["value"]))
    if reason == "no_seat":
        return _("There is no seat {seat} at a table of {players}.").format(
            seat=repr(p["seat"]), players=p["players"])
    if reason == "no_dealer":
        return _("There is no seat {seat} to deal.").format(seat=p["seat"])
    if reason == "not_understood":
        return _("I do not understand {words}: write e.g. 'AS' or 'AS call KS'.").format(
            words=repr(p["words"]))
    return p.get("reason") or INVALID_RECORD


def _deal_part(part: str, seat: int | None) -> str:
    if part == "seat":
        return _("seat {seat}'s cards").format(seat=seat)
    return {"kitty": _("kitty"), "blind": _("blind"), "removed": _("removed cards")}[part]


def _record_hand(reason: str, p: dict[str, Any]) -> str:
    index = p["index"]
    if reason == "hand_not_object":
        return _("Hand {index} is not an object.").format(index=index)
    if reason == "actions_not_list":
        return _("Hand {index}'s actions must be a list.").format(index=index)
    if reason == "unfinished":
        return _("Hand {index} is unfinished but another follows.").format(index=index)
    if reason == "no_deal":
        return _("Hand {index} has no deal (a list of card lists).").format(index=index)
    return _("Hand {index}'s {part} must be a list of cards.").format(
        index=index, part=_deal_part(p["part"], p.get("seat")))


def _invalid_deal(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "hand_count":
        return _("The deal has {count} hands for {players} players.").format(
            count=p["count"], players=p["players"])
    if reason == "seat_cards":
        return _("Seat {seat} was dealt {count} cards, not {expected}.").format(
            seat=p["seat"], count=p["count"], expected=p["expected"])
    if reason == "kitty_cards":
        return _("The kitty has {count} cards, not {expected}.").format(
            count=p["count"], expected=p["expected"])
    if reason == "blind_cards":
        return _("The blind has {count} cards, not {expected}.").format(
            count=p["count"], expected=p["expected"])
    if reason == "removed":
        return _("The removed cards do not match the rules: {cards}.").format(
            cards=_names(p["cards"]) or _("none"))
    if reason == "twice":
        return _("{card} is dealt twice.").format(card=card_name(p["card"]))
    if reason == "not_in_pack":
        return _("Not in this game's pack: {cards}.").format(cards=_names(p["cards"]))
    if reason == "missing":
        return _("Missing from the deal: {cards}.").format(cards=_names(p["cards"]))
    if reason == "deal_not_a_card":
        return _("{value} in the {part} is not a card.").format(
            value=repr(p["value"]), part=_deal_part(p["part"], p.get("seat")))
    return _("{value} is not a card.").format(value=repr(p["value"]))


def _invalid_card(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "typed":
        return _("{text} is not a card: write them like AS, 10H, TD, JK1.").format(
            text=quote(p["text"]))
    if reason == "count":
        return ngettext("Name exactly {count} card.", "Name exactly {count} cards.",
                        p["count"]).format(count=p["count"])
    if reason == "terminal":
        examples = "AS, 10H, TD, 2C" + (", JK1" if p["jokers"] else "")
        return _("{text} is not a card: write e.g. {examples}.").format(
            text=repr(p["text"]), examples=examples)
    return _("{value} is not a card.").format(value=repr(p["value"]))


def _wrong_phase(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "hand_unfinished":
        return _("The current hand is not finished.")
    if reason == "not_dealt":
        return _("No hand is being played: the next one is not dealt.")
    return _("You cannot {kind} now: {now}.").format(kind=_action_verb(p["kind"]),
                                                     now=_phase_now(p["phase"]))


def _action_verb(kind: str) -> str:
    """An action's name as a verb ("You cannot {play} now")."""
    return {"pass": _("pass"), "bid": _("bid"), "redeal": _("redeal"),
            "discard": _("discard"), "exchange": _("exchange"), "play": _("play")
            }.get(kind, kind)


def _bid_refused(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_top_bid":
        return _("{value} is not a bid here: the top bid is {top}.").format(
            value=repr(p["value"]), top=repr(p["top_bid"]))
    if reason == "above_maximum":
        return _("The highest number bid is {max_bid}; above it is {top}.").format(
            max_bid=p["max_bid"], top=bid_label(p["top_bid"]))
    if reason == "below_minimum":
        return _("The lowest bid is {min_bid}.").format(min_bid=p["min_bid"])
    if reason == "not_higher":
        return _("You must bid more than {high_bid}.").format(high_bid=p["high_bid"])
    if reason == "typed":
        return _("{text} is not a bid: bid a number from {min_bid} to {max_bid}, {top}, or "
                 "pass.").format(text=quote(p["text"]), min_bid=p["min_bid"],
                                 max_bid=p["max_bid"], top=p["top_bid"])
    return _("{value} is not a bid.").format(value=repr(p["value"]))


def _redeal_refused(p: dict[str, Any]) -> str:
    return {"preset": _("A redeal can only be claimed in norsk."),
            "after_bid": _("A redeal can only be claimed before you bid."),
            "court_card": _("You hold a jack, queen or king, so you cannot claim a redeal."),
            }[p["reason"]]


def _wrong_card_count(p: dict[str, Any]) -> str:
    if p.get("reason") == "exchange":
        return ngettext("You may exchange at most {size} card with the blind, not {count}.",
                        "You may exchange at most {size} cards with the blind, not {count}.",
                        p["size"]).format(size=p["size"], count=p["count"])
    return ngettext("Discard exactly {size} card, not {count}.",
                    "Discard exactly {size} cards, not {count}.",
                    p["size"]).format(size=p["size"], count=p["count"])


def _card_not_in_hand(p: dict[str, Any]) -> str:
    if p.get("twice"):
        return _("You do not hold {card} twice.").format(card=card_label(p["card"]))
    return _("You do not hold {card}.").format(card=card_label(p["card"]))


def _invalid_trump(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_opening_lead":
        return _("Trump is named only with the opening lead.")
    if reason == "no_trumps":
        return _("This hand is played without trumps.")
    if reason == "not_free_trump":
        return _("The suit led is trump; naming another needs the free_trump option.")
    if reason == "unknown":
        return _("{trump} is not a trump: name S, H, D, C or grand.").format(
            trump=repr(p["trump"]))
    if reason == "typed":
        return _("{text} is not a trump: name S, H, D, C or grand.").format(
            text=quote(p["text"]))
    return _("{value} is not a trump.").format(value=repr(p["value"]))


def _invalid_call(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_opening_lead":
        return _("A card is called only with the opening lead.")
    if reason == "bidder_alone":
        return _("No card is called in this hand: the bidder plays alone.")
    if reason == "all_passed":
        return _("No card is called in this hand: nobody bid.")
    if reason == "missing":
        return _("Call a {suit} with your lead to choose your partner.").format(
            suit=_suit_singular(p["suit"]))
    if reason == "all_yours":
        return _("Every {suit} is yours: no card can be called, you play alone.").format(
            suit=_suit_singular(p["suit"]))
    if reason == "other_suit":
        return _("The called card must be a {suit}, the suit led.").format(
            suit=_suit_singular(p["suit"]))
    return _("You cannot call {card}: it is in your hand or your discards.").format(
        card=card_label(p["card"]))


def _invalid_lead(p: dict[str, Any]) -> str:
    if p.get("reason") == "not_legal":
        return _("You cannot lead that card.")
    return _("The opening lead of a number bid must be a suited card, not a joker.")


def _invalid_claim(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "not_play":
        return _("You can claim the rest only in the card play: {now}.").format(
            now=_phase_now(p["phase"]))
    if reason == "not_your_turn":
        return _("You can claim the rest only on your turn.")
    if reason == "not_on_lead":
        return _("You can claim the rest only when you are to lead to a trick.")
    if reason == "opening_lead":
        return _("Make the opening lead first: it decides the trump and names the called "
                 "card. Then you may claim the rest.")
    # The card still out is named only by what the claimer holds: where it lies is
    # hidden, and a refusal must not even seem to tell.
    if reason == "card_out":
        return _("The rest is not surely yours: a higher card of that suit is still out and "
                 "could beat your {yours}.").format(yours=card_label(p["yours"]))
    return _("The rest is not surely yours: an opponent may still hold a trump, and you have "
             "too few top trumps to draw them all.")


def _game_over(p: dict[str, Any]) -> str:
    return {"already": _("The game is already over."),
            "before_hand": _("The game was over before this hand.")
            }.get(p.get("reason") or "", _("The game is over."))


def _deal_not_finished(p: dict[str, Any]) -> str:
    index = p.get("index")
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        return _("Hand {number} cannot be shown face up: it is not over, or there is no "
                 "such hand yet.").format(number=index + 1)
    return _("There is no hand {index} to show face up.").format(index=repr(index))


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    INVALID_RECORD: _invalid_record,
    INVALID_RULES: _invalid_rules,
    INVALID_DEAL: _invalid_deal,
    INVALID_CARD: _invalid_card,
    NOT_YOUR_TURN: lambda p: _("It is seat {to_act}'s turn, not seat {seat}'s.").format(
        to_act=p["to_act"], seat=p["seat"]),
    WRONG_PHASE: _wrong_phase,
    BID_TOO_LOW: _bid_refused,
    BID_TOO_HIGH: _bid_refused,
    INVALID_BID: _bid_refused,
    ALREADY_PASSED: lambda p: _("You have passed: a pass is final for this hand."),
    REDEAL_NOT_ALLOWED: _redeal_refused,
    CARD_NOT_IN_HAND: _card_not_in_hand,
    WRONG_CARD_COUNT: _wrong_card_count,
    MUST_FOLLOW_SUIT: lambda p: _("You hold {suit}, so you must follow the {card} led.").format(
        suit=_suit_plural(p["suit"]), card=card_label(p["led"])),
    MUST_PLAY_CALLED_CARD: lambda p: _("{card} was called and you hold it: you must play it "
                                       "to this trick.").format(card=card_label(p["card"])),
    INVALID_CALL: _invalid_call,
    INVALID_TRUMP: _invalid_trump,
    INVALID_LEAD: _invalid_lead,
    GAME_OVER: _game_over,
    INVALID_CLAIM: _invalid_claim,
    DEAL_NOT_FINISHED: _deal_not_finished,
}

ERROR_CODES = tuple(_SENTENCES)  # every code this game's refusals carry


def error_sentence(error: GameError) -> str:
    """The sentence for one of this game's refusals, from its code and parameters, in the
    locale of the moment."""
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players (render's own codes)
    return sentence(error.params)
