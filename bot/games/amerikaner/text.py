"""Every word of Amerikaner a player reads: the table, a player's hand, a hand's result,
the final standings, the rules, and the refusals of what a player typed.

Built only from views (`.views`) and plain values (seat names as shown, the rules), never
from the game's state, so a hidden card cannot reach a message through this module. The
table platform calls these through the GameKind hooks (`.kind`); the Amerikaner cog calls
the game-specific ones directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import card_label, card_list
from bot.tables.panel import GOLD, GREEN, GREY, RED, Panel, quote

from .actions import Action
from .hand import ALL_PASS_PLAYED, MADE, REDEAL, THROWN_IN
from .rules import BOOLEAN_OPTIONS, OPTION_HELP, Rules
from .views import GameView, HandView, TrickView

TITLE = "Amerikaner"
PHASE_NAMES = {"exchange": "Blind exchange", "bid": "Bidding", "discard": "Kitty discard",
               "lead": "Opening lead", "play": "Play", "done": "Hand over"}
TRUMP_NAMES = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs",
               "grand": "no trumps (grand)"}
MEDALS = ("🥇", "🥈", "🥉")


# ----------------------------------------------------------------- small pieces

def bid_label(bid: int | str | None) -> str:
    if bid is None:
        return "—"
    return bid.capitalize() if isinstance(bid, str) else str(bid)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def trick_line(trick: TrickView, names: Sequence[str]) -> str:
    plays = ", ".join(f"{names[s]} {card_label(c)}" for s, c in trick.plays)
    if trick.winner is not None:
        plays += f" → **{names[trick.winner]}**"
    return plays


def auction_line(view: HandView, names: Sequence[str]) -> str:
    if not view.auction:
        return "No bids yet."
    return ", ".join(f"{names[s]}: {bid_label(b) if b != 'pass' else 'pass'}"
                     for s, b in view.auction[-12:])


def options_line(rules: Rules) -> str:
    """The table's rules in one line, for the lobby and the table panel."""
    text = f"{rules.preset} · {rules.players} players · to {rules.target}"
    opts = sorted(rules.options)
    return text + (" · " + ", ".join(opts) if opts else "")


def lobby_title(rules: Rules) -> str:
    return f"{TITLE} table — {rules.preset}"


def describe_action(action: Action) -> str:
    """An action in a few words: `a pass`, `a bid of 8`, `the A♠`."""
    if action.kind == "pass":
        return "a pass"
    if action.kind == "bid":
        return f"a bid of {bid_label(action.bid)}"
    if action.kind == "redeal":
        return "a redeal claim"
    if action.kind in ("exchange", "discard"):
        count = len(action.cards)
        return f"a {action.kind} of {count} card{'s' if count != 1 else ''}"
    assert action.card is not None
    return f"the {card_label(action.card)}"


# ----------------------------------------------------------------- the table

def table_panel(view: GameView, names: Sequence[str]) -> Panel:
    """The public table message during a game, from the public view only."""
    hand = view.hand
    assert hand is not None
    fields: list[tuple[str, str, bool]] = [("Seats", _seat_lines(view, hand, names), False)]
    if hand.phase in ("exchange", "bid"):
        fields.append(("Bidding", auction_line(hand, names), False))
    else:
        fields.extend(_contract_fields(hand, names))
    if hand.trick is not None:
        fields.append(("Current trick", trick_line(hand.trick, names), False))
    if hand.last_trick is not None:
        fields.append(("Last trick", trick_line(hand.last_trick, names), False))
    description = f"Hand {view.hand_number} · {PHASE_NAMES[hand.phase]} · " \
                  f"{options_line(view.rules)}"
    if hand.to_act is not None:
        description += f"\n**{names[hand.to_act]}** to {_what_next(hand)}."
    return Panel(title=TITLE, description=description, fields=tuple(fields),
                 footer="Open “My hand” to see your cards and act.")


def _seat_lines(view: GameView, hand: HandView, names: Sequence[str]) -> str:
    lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == hand.dealer:
            marks.append("dealer")
        if hand.bidder == seat:
            marks.append(f"bidder {bid_label(hand.contract)}")
        if hand.partner == seat:
            marks.append("partner")
        turn = "▶ " if hand.to_act == seat else ""
        shown = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"{turn}**{name}**{shown} — {view.totals[seat]} pts, "
                     f"{_plural(hand.tricks_won[seat], 'trick')}")
    return "\n".join(lines)


def _contract_fields(hand: HandView, names: Sequence[str]) -> list[tuple[str, str, bool]]:
    """Once bidding is over: the contract, the trump, the called card, a shown kitty."""
    contract = ("all passed: no trumps, −1 a trick" if hand.all_pass else
                f"{names[hand.bidder]} {bid_label(hand.contract)}"
                if hand.bidder is not None else "—")
    trump = "none" if hand.all_pass else TRUMP_NAMES.get(hand.trump or "", "none")
    fields = [("Contract", contract, True), ("Trump", trump, True)]
    if hand.called is not None:
        partner = names[hand.partner] if hand.partner is not None else "not yet shown"
        fields.append(("Called", f"{card_label(hand.called)} — partner: {partner}", True))
    if hand.kitty is not None:
        fields.append(("Kitty (shown)", card_list(hand.kitty), False))
    return fields


def _what_next(view: HandView) -> str:
    return {"exchange": "exchange with the blind", "bid": "bid or pass",
            "discard": "discard", "lead": "lead", "play": "play", "done": "wait"}[view.phase]


# ----------------------------------------------------------------- a player's hand

def seat_panel(view: HandView, names: Sequence[str]) -> Panel:
    """A player's own hand and what they may do now (ephemeral), from their seat view."""
    seat = view.seat
    assert seat is not None and view.cards is not None
    lines = [f"**Your cards** ({len(view.cards)}): {card_list(view.cards)}"]
    lines.extend(_known_lines(view, seat, names))
    legal = view.legal
    if legal is None:
        who = names[view.to_act] if view.to_act is not None else "nobody"
        lines.append(f"\nWaiting for **{who}**.")
        colour = GREY
    else:
        colour = GOLD
        lines.append("\n**Your turn:** " + _your_turn(view, names))
        if legal.can_redeal:
            lines.append("You hold no jack, queen or king: you may claim a redeal.")
    return Panel(title=f"Your hand — {names[seat]}", description="\n".join(lines),
                 colour=colour)


def _known_lines(view: HandView, seat: int, names: Sequence[str]) -> list[str]:
    """What the seat knows beyond its cards: discards, the blind, the kitty, the trump,
    the called card, the trick on the table."""
    assert view.cards is not None
    lines = []
    if view.discards:
        lines.append(f"Your discards: {card_list(view.discards)}")
    if view.exchange_given is not None:
        given = card_list(view.exchange_given) if view.exchange_given else "nothing"
        lines.append(f"You gave the blind {given} and took "
                     f"{card_list(view.exchange_taken or ())}.")
    if view.kitty is not None and view.bidder == seat:
        lines.append(f"The kitty held: {card_list(view.kitty)}")
    if view.trump is not None:
        lines.append(f"Trump: {TRUMP_NAMES[view.trump]}")
    if view.called is not None:
        lines.append(f"Called card: {card_label(view.called)}" +
                     (" — **you hold it: you are the partner**"
                      if view.called in view.cards else ""))
    if view.trick is not None:
        lines.append(f"Trick: {trick_line(view.trick, names)}")
    return lines


def _your_turn(view: HandView, names: Sequence[str]) -> str:
    legal = view.legal
    assert legal is not None
    if legal.phase == "exchange":
        return (f"give up to {legal.card_count[1]} cards to the blind and take as many "
                "from it, sight unseen (or keep your hand).")
    if legal.phase == "bid":
        return "bid or pass." + (f" Highest so far: {bid_label(view.high_bid)} by "
                                 f"{names[view.high_bidder]}."
                                 if view.high_bidder is not None else "")
    if legal.phase == "discard":
        return f"discard {legal.card_count[0]} cards face down."
    if legal.phase == "lead":
        return "lead to the first trick" + (" and call a card: its holder is your partner."
                                            if legal.calls else ".")
    return "play a card."


# ----------------------------------------------------------------- results

def deal_summary(view: GameView, names: Sequence[str]) -> Panel:
    """After a hand (`view`: the game as it stood when it ended, `game_view_after`): the
    contract made or failed, tricks, score changes, totals."""
    hand = view.hand
    assert hand is not None
    title, colour = _summary_title(hand, view.hand_number, names)
    rows = []
    for seat, name in enumerate(names):
        score = hand.scores[seat] if hand.scores else 0
        rows.append(f"**{name}**: {hand.tricks_won[seat]} tricks, "
                    f"{score:+d} → {view.totals[seat]}")
    return Panel(title=title, description="\n".join(rows), colour=colour)


def _summary_title(hand: HandView, number: int, names: Sequence[str]) -> tuple[str, int]:
    outcome = hand.outcome
    if outcome == THROWN_IN:
        return f"Hand {number}: everyone passed — thrown in", GREY
    if outcome == REDEAL:
        return f"Hand {number}: redeal claimed — same dealer deals again", GREY
    if outcome == ALL_PASS_PLAYED:
        return f"Hand {number}: all passed, played at −1 a trick", GREY
    assert hand.bidder is not None
    verb = "made" if outcome == MADE else "failed"
    partner = f" with {names[hand.partner]}" if hand.partner is not None else " alone"
    title = f"Hand {number}: {names[hand.bidder]}{partner} {verb} {bid_label(hand.contract)}"
    return title, GREEN if outcome == MADE else RED


def final_standings(view: GameView, names: Sequence[str]) -> Panel:
    """The finished game: seats by final total, the winner(s) in the title."""
    order = sorted(range(len(names)), key=lambda s: -view.totals[s])
    rows = [f"{MEDALS[i] if i < len(MEDALS) else f'{i + 1}.'} **{names[s]}** — "
            f"{view.totals[s]}" for i, s in enumerate(order)]
    winners = " and ".join(names[s] for s in view.winners)
    verb = "wins" if len(view.winners) == 1 else "win"
    return Panel(title=f"Game over — {winners} {verb}!", description="\n".join(rows),
                 colour=GOLD,
                 footer=f"{view.hand_number} hands · /amerikaner export for the record")


# ----------------------------------------------------------------- reference

def rules_text(rules: Rules) -> str:
    """The rules of a table, concise."""
    lines = [f"**{rules.preset.capitalize()}** — {rules.players} players, "
             f"{rules.cards_each} cards each, first to {rules.target} wins."]
    if rules.kitty_size:
        lines.append(f"A kitty of {rules.kitty_size}: the bidder takes it and discards as many.")
    if rules.blind_size:
        lines.append(f"A blind of {rules.blind_size}: before bidding each player may exchange "
                     "up to that many cards with it, sight unseen. A hand without J, Q or K "
                     "may claim a redeal.")
    if rules.removed:
        lines.append("Removed from the pack: " + card_list(rules.removed) + ".")
    if rules.jokers:
        lines.append(f"{rules.jokers} jokers: a joker led wins; one played when void has no "
                     "power.")
    lines.append(f"Bids {rules.min_bid}–{rules.max_bid}, each higher than the last; a pass is "
                 f"final. Above them: **{rules.top_bid.capitalize()}**"
                 + (" (all 13 tricks, with trumps and a partner)." if rules.preset == "kani"
                    else " (alone, no trumps, every trick)."))
    lines.append("The bidder leads; the suit led is trump, and the bidder calls a card of that "
                 "suit: its holder is the partner, revealed when it is played.")
    lines.append("Follow suit if you can; highest trump wins, else highest of the suit led.")
    if rules.preset == "kani":
        lines.append("Made: bidder and partner score the bid (Kani 50). Failed: each opponent "
                     "scores it. Nobody loses points.")
    else:
        lines.append("Made: bidder and partner score +bid; failed: −bid. Others +1 a trick. "
                     "Amerikaner: ±52.")
    for name in sorted(rules.options):
        lines.append(f"• `{name}`: {OPTION_HELP[name]}")
    return "\n".join(lines)


def help_text() -> str:
    return ("**/amerikaner new** opens a table here; players Join, the host Starts.\n"
            "Open **My hand** on the table message to see your cards and act; or use "
            "/amerikaner bid, discard, exchange, play.\n"
            "/amerikaner rules · score · export · leave · cancel · leaderboard · stats")


# ----------------------------------------------------------------- refusals of input

def not_a_bid(text: str, rules: Rules) -> str:
    return (f"{quote(text)} is not a bid: bid a number from {rules.min_bid} to "
            f"{rules.max_bid}, {rules.top_bid}, or pass.")


def not_a_card(text: str) -> str:
    return f"{quote(text)} is not a card: write them like AS, 10H, TD, JK1."


def not_a_trump(text: str) -> str:
    return f"{quote(text)} is not a trump: name S, H, D, C or grand."


def unknown_option(text: str) -> str:
    return f"Unknown option {quote(text)}. Options: {', '.join(BOOLEAN_OPTIONS)}."
