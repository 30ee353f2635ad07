"""Text for players. Inputs are views (`bot.core.views`) and seat names, never raw state,
so a hidden card cannot reach a public message through this module."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.core.actions import Action
from bot.core.cards import SUIT_SYMBOLS, card_label, suit_of
from bot.core.hand import ALL_PASS_PLAYED, MADE, REDEAL, THROWN_IN
from bot.core.rules import BOOLEAN_OPTIONS, OPTION_HELP, Rules
from bot.core.views import HandView, TrickView, hand_view
from bot.tables.service import LOBBY, Table

GREEN = 0x2E7D32
BLUE = 0x1565C0
GOLD = 0xF9A825
RED = 0xC62828
GREY = 0x616161

PHASE_NAMES = {"exchange": "Blind exchange", "bid": "Bidding", "discard": "Kitty discard",
               "lead": "Opening lead", "play": "Play", "done": "Hand over"}
TRUMP_NAMES = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs",
               "grand": "no trumps (grand)"}


@dataclass(frozen=True)
class Panel:
    """What one embed shows: the Discord layer turns it into a `discord.Embed`."""

    title: str
    description: str = ""
    fields: tuple[tuple[str, str, bool], ...] = ()
    footer: str | None = None
    colour: int = GREEN


# ----------------------------------------------------------------- Discord's limits

# Discord refuses a whole message if one part is over its limit, and the user then sees
# "This interaction failed": every reply is cut to these first.
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000
# What a user typed is shown back at most this long: enough to recognise it.
QUOTE_LIMIT = 40


def shorten(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else cut to end with "…" within them."""
    if len(text) <= limit:
        return text
    return text[:limit - 1] + "…" if limit > 0 else ""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """What a user typed, in quotes, to show it back to them: as typed (case kept),
    without control or invisible formatting characters (which could garble or reorder
    the sentence around it), whitespace as single spaces, shortened."""
    shown = "".join(" " if ch.isspace() else ch for ch in text
                    if ch.isspace() or not unicodedata.category(ch).startswith("C"))
    return "'" + shorten(" ".join(shown.split()), limit) + "'"


def _embed_size(panel: Panel) -> int:
    return (len(panel.title) + len(panel.description) + len(panel.footer or "")
            + sum(len(name) + len(value) for name, value, _ in panel.fields))


def fit_panel(panel: Panel) -> Panel:
    """The panel cut to what one embed may hold: each part to its limit (an empty field
    shows "—", as Discord refuses empty ones), at most 25 fields, and 6,000 characters in
    all, by dropping the last fields and then shortening the description."""
    fields = tuple((shorten(name, FIELD_NAME_LIMIT) or "—",
                    shorten(value, FIELD_VALUE_LIMIT) or "—", inline)
                   for name, value, inline in panel.fields[:FIELD_COUNT_LIMIT])
    fitted = replace(panel, title=shorten(panel.title, TITLE_LIMIT),
                     description=shorten(panel.description, DESCRIPTION_LIMIT),
                     footer=shorten(panel.footer, FOOTER_LIMIT) if panel.footer else None,
                     fields=fields)
    while fitted.fields and _embed_size(fitted) > EMBED_TOTAL_LIMIT:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    excess = _embed_size(fitted) - EMBED_TOTAL_LIMIT
    if excess > 0:  # title and footer together are far below the total: cut the rest
        description = fitted.description
        fitted = replace(fitted, description=shorten(description, len(description) - excess))
    return fitted


# ----------------------------------------------------------------- small pieces

def bid_label(bid: int | str | None) -> str:
    if bid is None:
        return "—"
    return bid.capitalize() if isinstance(bid, str) else str(bid)


def card_list(cards: Sequence[int]) -> str:
    """Cards grouped by suit, high to low: `♠ A K 10 · ♥ Q 9`."""
    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(suit_of(card), []).append(card_label(card))
    parts = []
    for suit in (0, 1, 2, 3):
        if suit in groups:
            parts.append(SUIT_SYMBOLS[suit] + " " + " ".join(c[:-1] for c in groups[suit]))
    if -1 in groups:
        parts.append("🃏 " + " ".join(groups[-1]))
    return " · ".join(parts) if parts else "—"


def _names(table: Table) -> list[str]:
    out = []
    for seat in table.seats:
        name = seat.name
        if seat.away:
            name += " (away, AI plays)"
        out.append(name)
    return out


def _trick_line(trick: TrickView, names: Sequence[str]) -> str:
    plays = ", ".join(f"{names[s]} {card_label(c)}" for s, c in trick.plays)
    if trick.winner is not None:
        plays += f" → **{names[trick.winner]}**"
    return plays


def _auction_line(view: HandView, names: Sequence[str]) -> str:
    if not view.auction:
        return "No bids yet."
    return ", ".join(f"{names[s]}: {bid_label(b) if b != 'pass' else 'pass'}"
                     for s, b in view.auction[-12:])


def _options_line(rules: Rules) -> str:
    opts = [name for name in sorted(rules.options)]
    text = f"{rules.preset} · {rules.players} players · to {rules.target}"
    return text + (" · " + ", ".join(opts) if opts else "")


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


# ----------------------------------------------------------------- lobby and table

def lobby_panel(table: Table) -> Panel:
    names = _names(table)
    seats = "\n".join(f"{i + 1}. {name}" + (" (host)" if table.seats[i].user_id ==
                                             table.host_id else "")
                      for i, name in enumerate(names))
    free = table.rules.players - len(table.seats)
    seats += "".join(f"\n{len(names) + i + 1}. *free*" for i in range(free))
    status = ("Ready: the host can start." if free == 0
              else f"Waiting for {free} more player{'s' if free != 1 else ''}.")
    return Panel(title=f"Amerikaner table — {table.rules.preset}",
                 description=f"{_options_line(table.rules)}\n\n{seats}\n\n{status}",
                 footer="Join to take a seat. The host can add AI players and start.",
                 colour=BLUE)


def table_panel(table: Table) -> Panel:
    """The public table message: what everyone may see, from the public view only."""
    if table.stage == LOBBY:
        return lobby_panel(table)
    view = table.public_view()
    assert view is not None and view.hand is not None
    hand = view.hand
    names = _names(table)
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
        won = hand.tricks_won[seat]
        lines.append(f"{turn}**{name}**{' (' + ', '.join(marks) + ')' if marks else ''}"
                     f" — {view.totals[seat]} pts, {won} trick{'s' if won != 1 else ''}")
    fields: list[tuple[str, str, bool]] = [("Seats", "\n".join(lines), False)]
    if hand.phase in ("exchange", "bid"):
        fields.append(("Bidding", _auction_line(hand, names), False))
    else:
        contract = ("all passed: no trumps, −1 a trick" if hand.all_pass else
                    f"{names[hand.bidder]} {bid_label(hand.contract)}"
                    if hand.bidder is not None else "—")
        fields.append(("Contract", contract, True))
        fields.append(("Trump", TRUMP_NAMES.get(hand.trump or "", "none") if not hand.all_pass
                       else "none", True))
        if hand.called is not None:
            partner = (names[hand.partner] if hand.partner is not None else "not yet shown")
            fields.append(("Called", f"{card_label(hand.called)} — partner: {partner}", True))
        if hand.kitty is not None:
            fields.append(("Kitty (shown)", card_list(hand.kitty), False))
    if hand.trick is not None:
        fields.append(("Current trick", _trick_line(hand.trick, names), False))
    if hand.last_trick is not None:
        fields.append(("Last trick", _trick_line(hand.last_trick, names), False))
    description = f"Hand {view.hand_number} · {PHASE_NAMES[hand.phase]} · " \
                  f"{_options_line(table.rules)}"
    if hand.to_act is not None:
        description += f"\n**{names[hand.to_act]}** to {_what_next(hand)}."
    return Panel(title="Amerikaner", description=description, fields=tuple(fields),
                 footer="Open “My hand” to see your cards and act.")


def _what_next(view: HandView) -> str:
    return {"exchange": "exchange with the blind", "bid": "bid or pass",
            "discard": "discard", "lead": "lead", "play": "play", "done": "wait"}[view.phase]


def turn_mention(table: Table) -> str | None:
    """One line that mentions the player to act (sent after a quiet spell)."""
    seat = table.to_act
    if seat is None:
        return None
    user = table.seats[seat].user_id
    if user is None or table.seats[seat].played_by_ai:
        return None
    return f"<@{user}>, it is your turn at the Amerikaner table."


# ----------------------------------------------------------------- a player's hand

def hand_panel(table: Table, seat: int) -> Panel:
    """A player's own hand and what they may do now (ephemeral), from their seat view."""
    view = table.seat_view(seat)
    assert view is not None and view.cards is not None
    names = _names(table)
    lines = [f"**Your cards** ({len(view.cards)}): {card_list(view.cards)}"]
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
        lines.append(f"Trick: {_trick_line(view.trick, names)}")
    legal = view.legal
    if legal is None:
        who = names[view.to_act] if view.to_act is not None else "nobody"
        lines.append(f"\nWaiting for **{who}**.")
        colour = GREY
    else:
        colour = GOLD
        lines.append("\n**Your turn:** " + {
            "exchange": f"give up to {legal.card_count[1]} cards to the blind and take as "
                        "many from it, sight unseen (or keep your hand).",
            "bid": "bid or pass." + (f" Highest so far: {bid_label(view.high_bid)} by "
                                     f"{names[view.high_bidder]}."
                                     if view.high_bidder is not None else ""),
            "discard": f"discard {legal.card_count[0]} cards face down.",
            "lead": "lead to the first trick" + (" and call a card: its holder is your "
                                                 "partner." if legal.calls else "."),
            "play": "play a card.",
        }[legal.phase])
        if legal.can_redeal:
            lines.append("You hold no jack, queen or king: you may claim a redeal.")
    return Panel(title=f"Your hand — {names[seat]}", description="\n".join(lines),
                 colour=colour)


# ----------------------------------------------------------------- results

def hand_summary_panel(table: Table, index: int) -> Panel:
    """After a hand: the contract made or failed, tricks, score changes, totals."""
    game = table.game
    assert game is not None
    view = hand_view(game.hands[index])  # public view of a finished hand
    names = _names(table)
    totals = game.hand_totals[index] if index < len(game.hand_totals) else game.totals
    outcome = view.outcome
    if outcome == THROWN_IN:
        title, colour = f"Hand {index + 1}: everyone passed — thrown in", GREY
    elif outcome == REDEAL:
        title, colour = f"Hand {index + 1}: redeal claimed — same dealer deals again", GREY
    elif outcome == ALL_PASS_PLAYED:
        title, colour = f"Hand {index + 1}: all passed, played at −1 a trick", GREY
    else:
        assert view.bidder is not None
        verb = "made" if outcome == MADE else "failed"
        partner = (f" with {names[view.partner]}" if view.partner is not None
                   else " alone")
        title = (f"Hand {index + 1}: {names[view.bidder]}{partner} {verb} "
                 f"{bid_label(view.contract)}")
        colour = GREEN if outcome == MADE else RED
    rows = []
    for seat, name in enumerate(names):
        score = view.scores[seat] if view.scores else 0
        rows.append(f"**{name}**: {view.tricks_won[seat]} tricks, "
                    f"{score:+d} → {totals[seat]}")
    return Panel(title=title, description="\n".join(rows), colour=colour)


def final_panel(table: Table) -> Panel:
    game = table.game
    assert game is not None
    names = _names(table)
    order = sorted(range(len(names)), key=lambda s: -game.totals[s])
    medals = ["🥇", "🥈", "🥉"]
    rows = [f"{medals[i] if i < 3 else f'{i + 1}.'} **{names[s]}** — {game.totals[s]}"
            for i, s in enumerate(order)]
    winners = " and ".join(names[s] for s in game.winners)
    return Panel(title=f"Game over — {winners} win{'s' if len(game.winners) == 1 else ''}!",
                 description="\n".join(rows), colour=GOLD,
                 footer=f"{len(game.hands)} hands · /amerikaner export for the record")


def leaderboard_panel(rows: Sequence[tuple[str, int, int, int]], page: int, pages: int,
                      order: str) -> Panel:
    """rows: (name, games, wins, points)."""
    if not rows:
        return Panel(title="Leaderboard", description="No finished games on this server yet.",
                     colour=BLUE)
    start = (page - 1) * 10
    lines = [f"{start + i + 1}. **{name}** — {wins} wins, {points} pts ({games} games)"
             for i, (name, games, wins, points) in enumerate(rows)]
    return Panel(title=f"Leaderboard — by {order}", description="\n".join(lines),
                 footer=f"Page {page} of {pages}", colour=BLUE)


def stats_panel(name: str, games: int, wins: int, points: int,
                stats: Mapping[str, int]) -> Panel:
    """stats: the summed counters of the member's Amerikaner results (a counter the
    store never saw is 0)."""
    if not games:
        return Panel(title=f"Stats — {name}", description="No finished games yet.",
                     colour=BLUE)
    rate = f"{100 * wins / games:.0f}%"
    return Panel(title=f"Stats — {name}", colour=BLUE, description="\n".join([
        f"Games: {games} · wins: {wins} ({rate})",
        f"Points: {points}",
        f"Contracts made: {stats.get('contracts_made', 0)} · "
        f"failed: {stats.get('contracts_failed', 0)}",
        f"Amerikaner/Kani made: {stats.get('top_bids_made', 0)}",
        f"Hands played: {stats.get('hands_played', 0)}",
    ]))


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


# ----------------------------------------------------------------- refusals

INTERNAL_ERROR = "Something went wrong on our side; nothing was changed. Please try again."

ERROR_HINTS = {
    "no_table": "There is no table in this channel. Start one with /amerikaner new.",
    # Refusals by discord.py, before a command runs.
    "outdated_command": "Discord showed you an older version of this command: please try "
                        "again in a minute.",
    "guild_only": "This command works in a server's channels only.",
    "not_permitted": "You do not have the permission this command needs.",
    "bot_not_permitted": "I am missing a permission in this channel, so I cannot do that "
                         "here.",
    "slow_down": "Not so fast: please try again in a moment.",
    "not_allowed_here": "You cannot use this command here.",
    "not_a_member": "That member is not on this server.",
    "bad_option": "One of the options could not be read: please choose it again.",
}


def error_text(code: str, message: str) -> str:
    return ERROR_HINTS.get(code, message)


def not_a_bid(text: str, rules: Rules) -> str:
    return (f"{quote(text)} is not a bid: bid a number from {rules.min_bid} to "
            f"{rules.max_bid}, {rules.top_bid}, or pass.")


def not_a_card(text: str) -> str:
    return f"{quote(text)} is not a card: write them like AS, 10H, TD, JK1."


def not_a_trump(text: str) -> str:
    return f"{quote(text)} is not a trump: name S, H, D, C or grand."


def unknown_option(text: str) -> str:
    return f"Unknown option {quote(text)}. Options: {', '.join(BOOLEAN_OPTIONS)}."

