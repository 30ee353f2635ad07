"""A whole game in the terminal: the human at seat 0 against AI players.

`run_game` takes its input and output as functions, so tests drive it with a script.
Input is card notation (`AS`, `10h`, `T♥`), `pass`, a bid (`8`, `amerikaner`), `redeal`,
`AS call KS` (with `trump H` or `trump grand` under free_trump), `discard 2C 3C 4C 5C`,
`give 2C 3C` (norsk blind; `give` alone gives nothing), `help`, `quit`. A move the rules
refuse is answered with the rule it breaks and asked again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from bot.cards import SUIT_SYMBOLS, card_label, card_name, parse_card, suit_of
from bot.errors import INVALID_CARD, INVALID_RECORD, GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai import choose_action
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import Hand
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, Rules
from bot.games.amerikaner.text import error_sentence, option_help
from bot.games.amerikaner.views import HandView, LegalActions, hand_view

HUMAN = 0
InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def seat_name(seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return "You" if seat == HUMAN else f"Seat {seat}"


def hand_text(cards: tuple[int, ...]) -> str:
    """A hand sorted by suit: `♠ A Q 7  ♥ K 3  ♦ -  ♣ 10 2`, jokers last."""
    parts = []
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        ranks = [card_label(c)[:-1] for c in cards if suit_of(c) == suit]
        parts.append(f"{symbol} {' '.join(ranks) if ranks else '-'}")
    jokers = [card_name(c) for c in cards if suit_of(c) < 0]
    if jokers:
        parts.append(" ".join(jokers))
    return "   ".join(parts)


def _bid_text(bid: int | str) -> str:
    return bid if isinstance(bid, str) else str(bid)


def describe(view: HandView, totals: list[int] | None = None) -> list[str]:
    """The table as the human sees it."""
    rules = view.rules
    lines = []
    if totals is not None:
        lines.append("Totals: " + ", ".join(f"{seat_name(s)} {t:+d}"
                                            for s, t in enumerate(totals)))
    if view.auction:
        lines.append("Bidding: " + ", ".join(f"{seat_name(s)} {_bid_text(b)}"
                                             for s, b in view.auction))
    if view.contract is not None and view.bidder is not None:
        parts = [f"Contract: {_bid_text(view.contract)} by {seat_name(view.bidder)}"]
        if view.trump is not None:
            parts.append("no trumps" if view.trump == "grand"
                         else f"trump {SUIT_SYMBOLS['SHDC'.index(view.trump)]}")
        elif view.phase in ("play", "done") and view.contract == rules.top_bid \
                and rules.preset != "kani":
            parts.append("no trumps, alone")
        if view.called is not None:
            parts.append(f"called {card_label(view.called)}")
            if view.partner is not None:
                parts.append(f"partner {seat_name(view.partner)}")
            elif view.tricks:
                parts.append("no partner")
            elif view.cards is not None and view.called in view.cards:
                parts.append("you hold it: you are the partner (secret until played)")
        lines.append(" · ".join(parts))
    if view.all_pass:
        lines.append("Everyone passed: played without trumps, -1 per trick won.")
    if view.kitty is not None and view.phase != "done":
        lines.append("Kitty: " + " ".join(card_label(c) for c in view.kitty))
    if view.discards:
        lines.append("Your discards: " + " ".join(card_label(c) for c in view.discards))
    if view.tricks:
        last = view.tricks[-1]
        lines.append(f"Last trick ({seat_name(last.winner)} won): " + ", ".join(
            f"{seat_name(s)} {card_label(c)}" for s, c in last.plays))
    if view.trick is not None:
        lines.append(f"Trick {len(view.tricks) + 1}: " + ", ".join(
            f"{seat_name(s)} {card_label(c)}" for s, c in view.trick.plays))
    if view.phase in ("play", "lead") or view.tricks:
        lines.append("Tricks won: " + ", ".join(f"{seat_name(s)} {w}"
                                                for s, w in enumerate(view.tricks_won)))
    if view.cards is not None:
        lines.append("Your hand: " + hand_text(view.cards))
    return lines


def moves_text(legal: LegalActions) -> str:
    """The legal moves, written as the input that makes them."""
    phase = legal.phase
    if phase == "bid":
        options = ["pass"] + (["redeal"] if legal.can_redeal else [])
        options += [_bid_text(b) for b in legal.bids]
        return "Moves: " + " | ".join(options)
    if phase == "exchange":
        return (f"Moves: give 0 to {legal.card_count[1]} cards to the blind, e.g. "
                f"'give {' '.join(card_name(c) for c in legal.cards[-legal.card_count[1]:])}'"
                " or 'give' for none")
    if phase == "discard":
        count = legal.card_count[0]
        return (f"Moves: discard {count} cards, e.g. "
                f"'discard {' '.join(card_name(c) for c in legal.cards[-count:])}'")
    if legal.calls:
        options = []
        for card in legal.cards:
            calls = legal.calls_for(suit_of(card))
            options.append(f"{card_name(card)} call {card_name(calls[0])}" if calls
                           else card_name(card))
        text = "Moves: " + " | ".join(options)
        text += "\n  (call any card of the suit led that you do not hold"
        if legal.trumps:
            text += "; add 'trump S|H|D|C|grand' to name another trump"
        return text + ")"
    return "Moves: " + " | ".join(card_name(c) for c in legal.cards)


def parse_move(text: str, view: HandView) -> Action:
    """The action `text` asks for; raises `GameError` (see text.error_sentence) when it
    cannot be read (the rules themselves are checked when it is applied)."""
    legal = view.legal
    seat = view.seat
    assert legal is not None and seat is not None
    words = text.replace(",", " ").split()
    if not words:
        raise GameError(INVALID_RECORD, reason="empty_move")
    head = words[0].lower()
    rules = view.rules

    def cards_of_words(items: list[str]) -> tuple[int, ...]:
        out = []
        for item in items:
            card = parse_card(item)
            if card is None:
                raise GameError(INVALID_CARD, reason="terminal", text=item,
                                jokers=bool(rules.jokers))
            out.append(card)
        return tuple(out)

    phase = legal.phase
    if head == "pass":
        return Action.pass_(seat)
    if head == "redeal":
        return Action.redeal(seat)
    if head in ("bid",) and len(words) > 1:
        words = words[1:]
        head = words[0].lower()
    if head.isascii() and head.isdigit():  # not "²", which int() refuses
        return Action.make_bid(seat, int(head))
    if head in ("amerikaner", "kani"):
        return Action.make_bid(seat, head)
    if head in ("discard", "give", "exchange"):
        cards = cards_of_words(words[1:])
        kind = "exchange" if phase == "exchange" else "discard"
        return Action(seat, kind, cards=cards)
    if phase in ("discard", "exchange"):
        return Action(seat, phase, cards=cards_of_words(words))
    card = cards_of_words(words[:1])[0]
    call: int | None = None
    trump: str | None = None
    rest = words[1:]
    while rest:
        key = rest[0].lower()
        if key == "call" and len(rest) > 1:
            call = cards_of_words(rest[1:2])[0]
            rest = rest[2:]
        elif key == "trump" and len(rest) > 1:
            trump = rest[1]
            rest = rest[2:]
        else:
            raise GameError(INVALID_RECORD, reason="not_understood", words=" ".join(rest))
    return Action.play(seat, card, call, trump)


def ai_move_text(action: Action, rules: Rules) -> str:
    who = seat_name(action.seat)
    you = action.seat == HUMAN

    def verb(third: str, base: str) -> str:
        return base if you else third

    if action.kind == "pass":
        return f"{who} {verb('passes', 'pass')}."
    if action.kind == "bid":
        bid = _bid_text(action.bid if action.bid is not None else "?")
        return f"{who} {verb('bids', 'bid')} {bid}."
    if action.kind == "redeal":
        return f"{who} {verb('claims', 'claim')} a redeal (no jack, queen or king)."
    if action.kind == "exchange":
        return (f"{who} {verb('exchanges', 'exchange')} {len(action.cards)} card(s) "
                "with the blind.")
    if action.kind == "discard":
        return f"{who} {verb('discards', 'discard')} {len(action.cards)} cards."
    assert action.card is not None
    text = f"{who} {verb('plays', 'play')} {card_label(action.card)}"
    if action.call is not None:
        text += f", calling {card_label(action.call)}"
    if action.trump is not None:
        text += ", no trumps" if action.trump == "grand" else f", trump {action.trump}"
    return text + "."


def _human_turn(game: Game, hand: Hand, ask: InputFn, say: OutputFn) -> None:
    view = hand_view(hand, HUMAN)
    assert view.legal is not None
    for line in describe(view, game.totals):
        say(line)
    say(moves_text(view.legal))
    while True:
        try:
            text = ask("> ")
        except (EOFError, KeyboardInterrupt) as exc:
            raise Quit from exc
        word = text.strip().lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?", "hand"):
            for line in describe(view, game.totals):
                say(line)
            say(moves_text(view.legal))
            continue
        try:
            action = parse_move(text, view)
            game.apply(action)
            return
        except GameError as exc:
            say(f"Not allowed: {error_sentence(exc)}")


def run_game(preset: str = "amerikaner", players: int = 4,
             options: Mapping[str, object] | None = None, seed: int | None = None,
             level: str = "easy", target: int | None = None,
             ask: InputFn = input, say: OutputFn = print,
             human: bool = True) -> int:
    """Play one game; returns 0 when it ends or the player quits. With `human` False
    seat 0 is an AI too (for demonstrations and tests)."""
    opts: dict[str, object] = dict(options or {})
    if target is not None:
        opts["target"] = target
    try:
        rules = Rules.create(preset, players, opts)
    except GameError as exc:
        say(f"Cannot start: {error_sentence(exc)}")
        return 2
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(players))
    say(f"{preset}, {players} players, to {rules.target} points; you are seat 0, "
        f"the others play at level {level}. Type 'help' for the table, 'quit' to stop.")
    if rules.options:
        say("House rules: " + "; ".join(f"{name}: {option_help(name)}"
                                        for name in BOOLEAN_OPTIONS if name in rules.options))
    try:
        while not game.finished:
            hand = game.start_hand(rng=rng)
            say("")
            say(f"=== Hand {len(game.hands)} · {seat_name(hand.dealer)} deal"
                f"{'' if hand.dealer == HUMAN else 's'} ===")
            while not hand.finished:
                seat = hand.to_act
                if seat == HUMAN and human:
                    _human_turn(game, hand, ask, say)
                else:
                    action = choose_action(hand_view(hand, seat), level, rng)
                    game.apply(action)
                    say(ai_move_text(action, rules))
                if hand.trick == [] and hand.history and hand.actions[-1].kind == "play":
                    leader, cards, winner = hand.history[-1]
                    say(f"  {seat_name(winner)} won the trick: " + ", ".join(
                        card_label(c) for c in cards))
            _hand_summary(game, hand, say)
        best = max(game.totals)
        say("")
        say("Game over. Winner" + ("s" if len(game.winners) > 1 else "") + ": "
            + ", ".join(seat_name(s) for s in game.winners) + f" with {best} points.")
    except Quit:
        say("")
        say("Bye.")
    return 0


def _hand_summary(game: Game, hand: Hand, say: OutputFn) -> None:
    outcome = hand.outcome
    if outcome == "thrown_in":
        say("Everyone passed: the hand is thrown in.")
    elif outcome == "redeal":
        say("Redeal claimed: the same dealer deals again.")
    else:
        view = hand_view(hand)
        if outcome in ("made", "failed"):
            say(f"{seat_name(hand.bidder)}'s contract {_bid_text(view.contract or '?')} "
                f"was {outcome}.")
        say("Tricks: " + ", ".join(f"{seat_name(s)} {w}" for s, w in enumerate(hand.tricks_won)))
        say("Scores: " + ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(hand.scores)))
    say("Totals: " + ", ".join(f"{seat_name(s)} {t:+d}" for s, t in enumerate(game.totals)))
