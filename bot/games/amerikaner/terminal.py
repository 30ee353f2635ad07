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
from bot.games.amerikaner import text_terminal as words
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.ai import choose_action
from bot.games.amerikaner.game import Game
from bot.games.amerikaner.hand import FAILED, MADE, Hand
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.text_table import hand_order
from bot.games.amerikaner.views import HandView, hand_view

HUMAN = 0
InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def seat_name(seat: int | None) -> str:
    return words.terminal_seat(seat, HUMAN)


def hand_text(cards: tuple[int, ...]) -> str:
    """A hand sorted by suit, high to low: `♠ A Q 7  ♥ K 3  ♦ -  ♣ 10 2`, jokers last."""
    parts = []
    cards = hand_order(cards)
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        ranks = [card_label(c)[:-1] for c in cards if suit_of(c) == suit]
        parts.append(f"{symbol} {' '.join(ranks) if ranks else '-'}")
    jokers = [card_name(c) for c in cards if suit_of(c) < 0]
    if jokers:
        parts.append(" ".join(jokers))
    return "   ".join(parts)


def describe(view: HandView, totals: list[int] | None = None) -> list[str]:
    """The table as the human sees it."""
    hand = hand_text(view.cards) if view.cards is not None else ""
    return words.terminal_table(view, hand, totals, HUMAN)


def parse_move(text: str, view: HandView) -> Action:
    """The action `text` asks for; raises `GameError` (see text_refusals.error_sentence) when it
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
            try:
                out.append(parse_card(item))
            except GameError:
                raise GameError(INVALID_CARD, reason="terminal", text=item,
                                jokers=bool(rules.jokers)) from None
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


def _human_turn(game: Game, hand: Hand, ask: InputFn, say: OutputFn) -> None:
    view = hand_view(hand, HUMAN)
    assert view.legal is not None
    for line in describe(view, game.totals):
        say(line)
    say(words.terminal_moves(view.legal))
    while True:
        try:
            text = ask("> ")
        except (EOFError, KeyboardInterrupt) as exc:
            raise Quit from exc
        word = text.strip().lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            for line in words.terminal_help():
                say(line)
        if word in ("help", "?", "hand"):
            for line in describe(view, game.totals):
                say(line)
            say(words.terminal_moves(view.legal))
            continue
        try:
            action = parse_move(text, view)
            game.apply(action)
            return
        except GameError as exc:
            say(words.terminal_refused(exc))


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
        say(words.terminal_cannot_start(exc))
        return 2
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(players))
    for line in words.terminal_welcome(rules, level):
        say(line)
    try:
        while not game.finished:
            hand = game.start_hand(rng=rng)
            say("")
            say(words.terminal_hand_title(len(game.hands), hand.dealer, HUMAN))
            while not hand.finished:
                seat = hand.to_act
                if seat == HUMAN and human:
                    _human_turn(game, hand, ask, say)
                else:
                    action = choose_action(hand_view(hand, seat), level, rng)
                    game.apply(action)
                    say(words.terminal_action(action, HUMAN))
                if hand.trick == [] and hand.history and hand.actions[-1].kind == "play":
                    leader, cards, winner = hand.history[-1]
                    say(words.terminal_trick_won(winner, cards, HUMAN))
            _hand_summary(game, hand, say)
        best = max(game.totals)
        say("")
        say(words.terminal_game_over(game.winners, best, HUMAN))
    except Quit:
        say("")
        say(words.terminal_bye())
    return 0


def _hand_summary(game: Game, hand: Hand, say: OutputFn) -> None:
    contract = hand_view(hand).contract if hand.outcome in (MADE, FAILED) else None
    for line in words.terminal_hand_result(hand.outcome, hand.bidder, contract,
                                          hand.tricks_won, hand.scores, HUMAN):
        say(line)
    say(words.terminal_totals(game.totals, HUMAN))
