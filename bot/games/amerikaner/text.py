"""Every word of Amerikaner a player reads: the table, a player's hand, a hand's result,
the final standings, the rules, and the refusals of what a player typed.

Built only from views (`.views`) and plain values (seat names as shown, the rules), never
from the game's state, so a hidden card cannot reach a message through this module. The
table platform calls these through the GameKind hooks (`.kind`); the Amerikaner cog calls
the game-specific ones directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.cards import card_label, card_list, card_name
from bot.errors import (
    ALREADY_PASSED,
    BID_TOO_HIGH,
    BID_TOO_LOW,
    CARD_NOT_IN_HAND,
    GAME_OVER,
    INVALID_CALL,
    INVALID_CARD,
    INVALID_DEAL,
    INVALID_LEAD,
    INVALID_RECORD,
    INVALID_RULES,
    INVALID_TRUMP,
    MUST_FOLLOW_SUIT,
    MUST_PLAY_CALLED_CARD,
    NOT_YOUR_TURN,
    REDEAL_NOT_ALLOWED,
    WRONG_CARD_COUNT,
    WRONG_PHASE,
    GameError,
)
from bot.i18n import _, ngettext
from bot.tables.panel import GOLD, GREEN, GREY, RED, Panel, quote

from .actions import INVALID_BID, Action
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


# ----------------------------------------------------------------- refusals by code

# A refusal's parameters are plain values (RECORD_FORMAT.md's errors, bot/errors.py):
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
    if reason == "unknown_option":
        return _("Unknown option {option}. Options: {options}.").format(
            option=repr(p["option"]), options=_choices(p["options"]))
    if reason == "typed_option":  # an option as a user typed it (the settings command)
        return _("Unknown option {option}. Options: {options}.").format(
            option=quote(p["option"]), options=_choices(BOOLEAN_OPTIONS))
    if reason == "not_on_or_off":
        return _("Option {option} is on or off (true or false), not {value}.").format(
            option=repr(p["option"]), value=repr(p["value"]))
    if reason == "not_for_preset":
        return _("Option {option} does not apply to {preset}: it is for {where} only.").format(
            option=repr(p["option"]), preset=p["preset"], where=_presets_for(p["option"]))
    if reason == "exclusive":
        first, second = p["options"]
        return _("Options {first} and {second} exclude each other: choose one way of scoring "
                 "the bid.").format(first=repr(first), second=repr(second))
    return _("Option {option} needs a kitty, but {by} deals every card.").format(
        option=repr(p["option"]), by=repr(p["by"]))


def _player_count(p: dict[str, Any]) -> str:
    preset, low, high, players = p["preset"], p["low"], p["high"], p["players"]
    if low == high:
        return _("{preset} is played by exactly {low} players, not {players}.").format(
            preset=preset, low=low, players=players)
    if preset == "amerikaner":
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
        return _("Unknown key {key} in a {kind} action.").format(key=repr(p["key"]),
                                                                 kind=p["kind"])
    if reason == "missing_key":
        return _("A {kind} action needs {key}.").format(kind=p["kind"], key=repr(p["key"]))
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


def _game_over(p: dict[str, Any]) -> str:
    return {"already": _("The game is already over."),
            "before_hand": _("The game was over before this hand.")
            }.get(p.get("reason") or "", _("The game is over."))


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
}

ERROR_CODES = tuple(_SENTENCES)  # every code this game's refusals carry


def error_sentence(error: GameError) -> str:
    """The sentence for one of this game's refusals, from its code and parameters, in the
    locale of the moment."""
    sentence = _SENTENCES.get(error.code)
    if sentence is None:
        return error.code  # not this game's: never shown to players (render's own codes)
    return sentence(error.params)
