"""A whole match of American in the terminal: the human at seat 0 against AI players.

`run_game` takes its input and output as functions, so tests drive it with a script.
Input: cards of one rank (`5S 5D`, `th`), a rank alone for every copy held (`5`, `10`,
`K`), `pickup`, `swap 3S 4D for AS KH` (option swap; `swap` alone keeps the cards),
`flip 0` (option blind_down; the number alone works too), `help`, `hand`, `quit`. A move
the rules refuse is answered with the rule it breaks and asked again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from bot.cards import RANKS
from bot.errors import INVALID_CARD, INVALID_RECORD, GameError
from bot.games.american import text_terminal as words
from bot.games.american.actions import Action
from bot.games.american.ai import choose_action
from bot.games.american.deal import parse_card_of_pack
from bot.games.american.game import Game
from bot.games.american.rules import Rules
from bot.games.american.state import DRAWN, FLIP_PHASE, SWAP_PHASE, DealState
from bot.games.american.views import DealView, deal_view

HUMAN = 0
InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def _not_understood(text: str) -> GameError:
    return GameError(INVALID_RECORD, reason="terminal", text=text)


def _rank_of_word(word: str) -> int:
    """The rank a word names (`5`, `10`, `T`, `k`), -1 if none."""
    upper = word.upper()
    if upper == "T":
        upper = "10"
    return RANKS.index(upper) if upper in RANKS else -1


def _cards(items: list[str]) -> tuple[int, ...]:
    out = []
    for item in items:
        card = parse_card_of_pack(item)
        if card < 0:
            raise GameError(INVALID_CARD, text=item)
        out.append(card)
    return tuple(out)


def parse_move(text: str, view: DealView) -> Action:
    """The action `text` asks for; raises `GameError` when it cannot be read (the rules
    themselves are checked when it is applied, and answer with their own codes)."""
    seat = view.seat
    assert seat is not None and view.hand is not None
    items = text.replace(",", " ").split()
    if not items:
        raise _not_understood(text)
    head = items[0].lower()
    if head in ("pickup", "pick", "p", "take"):
        return Action.pickup(seat)
    if head == "swap":
        rest = [item.lower() for item in items[1:]]
        if not rest:
            return Action.swap(seat, (), ())
        if "for" not in rest:
            raise _not_understood(text)
        split = rest.index("for")
        return Action.swap(seat, _cards(items[1:1 + split]), _cards(items[2 + split:]))
    if head in ("flip", "turn") or (view.phase == FLIP_PHASE and head.isdigit()):
        number = items[1] if head in ("flip", "turn") and len(items) > 1 else head
        if not (number.isascii() and number.isdigit()):
            raise _not_understood(text)
        return Action.flip(seat, int(number))
    if view.phase == SWAP_PHASE:
        raise _not_understood(text)
    if len(items) == 1:
        rank = _rank_of_word(head)
        if rank >= 0:
            cards = tuple(c for c in view.hand if c % 13 == rank)
            if cards:
                return Action.play(seat, cards)
    return Action.play(seat, _cards(items))


def _show_table(view: DealView, say: OutputFn) -> None:
    for line in words.terminal_table(view, HUMAN):
        say(line)
    if view.legal is not None:
        say(words.terminal_moves(view.legal))


def _human_turn(game: Game, state: DealState, ask: InputFn, say: OutputFn) -> None:
    view = deal_view(state, HUMAN)
    _show_table(view, say)
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
            _show_table(view, say)
            continue
        try:
            game.apply(parse_move(text, view))
            return
        except GameError as exc:
            say(words.terminal_refused(exc))


def _tell_consequences(before: DealView, after: DealView, say: OutputFn) -> None:
    """What followed an action: a burn, a player going out."""
    burned = len(after.burned) - len(before.burned)
    if burned:
        say(words.terminal_burned(burned))
    for seat in after.out_order[len(before.out_order):]:
        if after.seats[seat].out:
            say(words.terminal_out(seat, HUMAN))


def run_game(players: int = 2, options: Mapping[str, object] | None = None,
             seed: int | None = None, level: str = "easy", target: int | None = None,
             ask: InputFn = input, say: OutputFn = print, human: bool = True) -> int:
    """Play one match; returns 0 when it ends or the player quits, 2 when the rules
    cannot be played. With `human` False seat 0 is an AI too (demonstrations, tests)."""
    opts: dict[str, object] = dict(options or {})
    if target is not None:
        opts["target"] = target
    try:
        rules = Rules.create(players, opts)
    except GameError as exc:
        say(words.terminal_cannot_start(exc))
        return 2
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(players))
    for line in words.terminal_welcome(rules, level):
        say(line)
    try:
        while not game.finished:
            state = game.start_deal(rng=rng)
            say("")
            say(words.terminal_deal_title(len(game.deals), state.dealer, HUMAN))
            _play_deal(game, state, level, rng, ask, say, human)
            view = deal_view(state)
            winner = None if state.outcome == DRAWN else view.winner
            for line in words.terminal_deal_result(winner, view.out_order, game.wins,
                                                   HUMAN):
                say(line)
        say("")
        say(words.terminal_match_over(game.winners, HUMAN))
    except Quit:
        say("")
        say(words.terminal_bye())
    return 0


def _play_deal(game: Game, state: DealState, level: str, rng: random.Random,
               ask: InputFn, say: OutputFn, human: bool) -> None:
    while not state.finished:
        seat = state.to_act
        before = deal_view(state)
        if seat == HUMAN and human:
            _human_turn(game, state, ask, say)
        else:
            game.apply(choose_action(deal_view(state, seat), level, rng))
        after = deal_view(state)
        assert after.last is not None
        say(words.terminal_action(after.last, after.turned, HUMAN))
        _tell_consequences(before, after, say)
