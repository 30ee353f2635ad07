"""Engine speed: full random hands per second and card plays per second in a play-out loop;
American's actions per second in its play-out loop beside them.

Plays N complete random 4-player `amerikaner` hands (fixed seed: deal, bidding, kitty,
opening lead with a call, tricks, scoring) through the same public API the bot uses
(`Game`, `Hand`), in games to the default target of 52 as the bot plays them (a new game
starts when one ends), then measures a copy-and-play-out loop from a mid-hand state,
which is what AI search does. Where `open_spiel` is installed, OpenSpiel's `oh_hell` (4
players, 12 tricks) is driven move by move from Python in the same run and the ratio is
printed. American's figure copies a mid-deal state of a 2-player deal and plays it out
with random legal actions (`bench_american_playouts`), as its AI search does. The last
figure is what the table service adds to every move: a copy of the game, to which the
move is applied before its commit (`bench_service_copy`).

Moves (and OpenSpiel's chance outcomes) are picked uniformly with
`seq[int(rng.random() * len(seq))]`, in our loops and in OpenSpiel's alike; the kitty
discard takes its cards one at a time the same way. `--choice-pick` uses
`random.choice` / `randrange` / `random.sample` instead (two Python-level calls a pick),
for both engines; `--one-game` plays all hands in one game that never ends (as this
benchmark did before: the game then holds every hand, which the cyclic GC walks).
Each figure is the best of `--repeat` runs (other processes on the machine only ever
slow a run down). The first line says whether the core runs compiled (bench/README.md).

    python bench/engine.py [--hands 20000] [--playouts 20000] [--repeat 3]
                           [--american-playouts 300] [--copies 20000]
                           [--choice-pick] [--one-game]
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

# `python bench/engine.py` puts bench/ first on sys.path, where bench/bot.py would shadow
# the bot package. Unlike the other bench scripts, this one imports the package as
# installed, not the repository's sources: a regular install is the compiled core (see
# bench/README.md). Without any install, it falls back to the repository.
_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    del sys.path[0]
if importlib.util.find_spec("bot") is None:
    sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from bot import cards  # noqa: E402
from bot.cards import bits  # noqa: E402
from bot.games.american import state as american_state  # noqa: E402
from bot.games.american.deal import deal_cards as american_deal  # noqa: E402
from bot.games.american.rules import Rules as AmericanRules  # noqa: E402
from bot.games.amerikaner import hand  # noqa: E402
from bot.games.amerikaner.game import Game  # noqa: E402
from bot.games.amerikaner.hand import BID, COMPILED, DISCARD, LEAD, Hand  # noqa: E402
from bot.games.amerikaner.rules import Rules, default_target  # noqa: E402


def play_random_hand(game: Game, rng: random.Random, lean: bool = True) -> Hand:
    """Deal and play one hand with random legal choices, through the public API."""
    hand = game.start_hand(rng=rng)
    rules = game.rules
    random_ = rng.random
    while hand.phase == BID:
        seat = hand.to_act
        bids = hand.legal_bids()
        if random_() < 0.55 or len(bids) < 2:
            hand.pass_turn(seat)
        else:
            hand.bid(seat, rules.bid_name(bids[0] if random_() < 0.8 else bids[1]))
    if hand.phase == DISCARD:
        seat = hand.to_act
        held = bits(hand.hands[seat])
        if lean:  # kitty_size distinct cards, uniformly: one at a time from those left
            left = list(held)
            discards = [left.pop(int(random_() * len(left))) for _ in range(rules.kitty_size)]
        else:
            discards = rng.sample(held, rules.kitty_size)
        hand.discard(seat, tuple(discards))
    if hand.phase == LEAD:
        seat = hand.to_act
        legal = bits(hand.legal_play_mask())
        card = legal[int(random_() * len(legal))] if lean else rng.choice(legal)
        call = None
        if hand.with_trumps:
            callable_cards = hand.callable_mask(card // 13)
            call = callable_cards.bit_length() - 1 if callable_cards else None
        hand.play(seat, card, call)
    play = hand.play
    legal_play_mask = hand.legal_play_mask
    if lean:
        while not hand.finished:
            legal = bits(legal_play_mask())
            play(hand.to_act, legal[int(random_() * len(legal))])
    else:
        choice = rng.choice
        while not hand.finished:
            play(hand.to_act, choice(bits(legal_play_mask())))
    game.settle()
    return hand


def bench_hands(count: int, seed: int = 1, lean: bool = True,
                one_game: bool = False) -> float:
    """Full hands per second. Hands are played in games to the default target (52), a
    new game started when one ends, as the bot plays them (`one_game`: all hands in one
    game whose target is never reached, as this benchmark did before)."""
    rng = random.Random(seed)
    target = 10**9 if one_game else default_target("amerikaner")
    rules = Rules.create("amerikaner", 4, {"target": target})
    dealer = 0
    game = Game(rules, dealer)
    start = time.perf_counter()
    for _ in range(count):
        if game.finished:
            dealer = (dealer + 1) % 4
            game = Game(rules, dealer)
        play_random_hand(game, rng, lean)
    elapsed = time.perf_counter() - start
    return count / elapsed


def mid_hand_state(seed: int = 7) -> Hand:
    """A hand whose contract is set and first trick played: the state AI search starts from."""
    rng = random.Random(seed)
    rules = Rules.create("amerikaner", 4, {"target": 10**9})
    while True:
        game = Game(rules, 0)
        hand = game.start_hand(rng=rng)
        hand.bid(hand.to_act, 7)
        while hand.phase == BID:
            hand.pass_turn(hand.to_act)
        if hand.phase == DISCARD:
            seat = hand.to_act
            hand.discard(seat, tuple(bits(hand.hands[seat])[:rules.kitty_size]))
        card = bits(hand.legal_play_mask())[-1]
        callable_cards = hand.callable_mask(card // 13)
        hand.play(hand.to_act, card, callable_cards.bit_length() - 1 if callable_cards else None)
        for _ in range(3):
            hand.play(hand.to_act, bits(hand.legal_play_mask())[0])
        return hand


def bench_playouts(count: int, seed: int = 3, lean: bool = True) -> float:
    """Card plays per second: copy the mid-hand state, play it out at random, repeat."""
    rng = random.Random(seed)
    root = mid_hand_state()
    plays = 0
    start = time.perf_counter()
    if lean:
        random_ = rng.random
        for _ in range(count):
            state = root.copy()
            play = state.play
            while not state.finished:
                legal = bits(state.legal_play_mask())
                play(state.to_act, legal[int(random_() * len(legal))])
                plays += 1
    else:
        choice = rng.choice
        for _ in range(count):
            state = root.copy()
            play = state.play
            while not state.finished:
                play(state.to_act, choice(bits(state.legal_play_mask())))
                plays += 1
    elapsed = time.perf_counter() - start
    return plays / elapsed


def american_mid_deal(seed: int = 5) -> american_state.DealState:
    """An American deal (2 players, default rules) a few actions in: where AI search
    starts from."""
    rules = AmericanRules.create(2)
    state = american_state.DealState(rules, 0, american_deal(rules, random.Random(seed)),
                                     False)
    for _ in range(6):
        playable = bits(state.playable_mask())
        if playable:
            state.play(state.to_act, (playable[0],))
        else:
            state.pickup(state.to_act)
    return state


def bench_american_playouts(count: int, seed: int = 3) -> float:
    """American actions per second: copy a mid-deal state, play it out with random legal
    actions (a random playable card, else the pick-up; the first face-down card), repeat.
    Random play is long (it often reaches the 1,000-action draw): a fair load."""
    rng = random.Random(seed)
    random_ = rng.random
    root = american_mid_deal()
    play_phase = american_state.PLAY_PHASE
    actions = 0
    start = time.perf_counter()
    for _ in range(count):
        state = root.copy()
        while not state.finished:
            seat = state.to_act
            if state.phase == play_phase:
                legal = bits(state.playable_mask())
                if legal:
                    state.play(seat, (legal[int(random_() * len(legal))],))
                else:
                    state.pickup(seat)
            else:
                state.flip(seat, 0)
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed


def bench_service_copy(count: int, seed: int = 11) -> float:
    """Microseconds per copy of a game in its third hand, as the table service
    makes one for every move (it applies the move to the copy and keeps the copy only
    once the store has committed it): the GameKind's copy, which copies the live hand
    alone."""
    from bot.games.amerikaner.kind import AMERIKANER

    rng = random.Random(seed)
    rules = Rules.create("amerikaner", 4, {"target": 10**9})
    game = Game(rules, 0)
    for _ in range(2):
        play_random_hand(game, rng)
    hand = game.start_hand(rng=rng)
    for _ in range(2):  # the auction under way
        hand.pass_turn(hand.to_act)
    copy = AMERIKANER.copy
    start = time.perf_counter()
    for _ in range(count):
        copy(game)
    return (time.perf_counter() - start) / count * 1e6


def bench_open_spiel(count: int, seed: int = 1, lean: bool = True) -> float | None:
    """OpenSpiel's oh_hell (4 players, 12 tricks), random legal moves, hands per second."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = random.Random(seed)
    start = time.perf_counter()
    if lean:
        random_ = rng.random
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(random_() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(random_() * len(legal))])
    else:
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
    elapsed = time.perf_counter() - start
    return count / elapsed


def core_description() -> str:
    """Which core is running: compiled (mypyc) or the Python sources, and from where."""
    kind = "compiled (mypyc)" if COMPILED else "pure Python"
    if american_state.COMPILED != COMPILED:
        kind += f", American's {'compiled' if american_state.COMPILED else 'pure Python'}"
    files = ", ".join(str(Path(m.__file__)) for m in (cards, hand, american_state))
    return f"rules core: {kind} ({files})"


def best_of(repeat: int, run: Callable[[], float | None]) -> float | None:
    results = [run() for _ in range(max(1, repeat))]
    return None if None in results else max(r for r in results if r is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--american-playouts", type=int, default=300,
                        help="American play-outs (random, from a mid-deal state)")
    parser.add_argument("--spiel-hands", type=int, default=2000)
    parser.add_argument("--copies", type=int, default=20000,
                        help="copies of a game timed (the table service's per move)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--choice-pick", action="store_true",
                        help="pick moves with random.choice (and discards with "
                             "random.sample), not by index from rng.random(): a heavier "
                             "driver, for both engines")
    parser.add_argument("--one-game", action="store_true",
                        help="play all hands in one game that never ends, not in games "
                             "to the target")
    args = parser.parse_args()
    lean = not args.choice_pick
    print(core_description())
    print(f"moves picked with {'rng.random() by index' if lean else 'random.choice'}; "
          f"hands in {'one endless game' if args.one_game else 'games to 52'}; "
          f"best of {max(1, args.repeat)} runs")
    hands_per_s = best_of(args.repeat, lambda: bench_hands(args.hands, lean=lean,
                                                           one_game=args.one_game))
    assert hands_per_s is not None
    print(f"full random hands (4 players, amerikaner): {hands_per_s:,.0f} hands/s "
          f"(target >= 10,000)")
    plays_per_s = best_of(args.repeat,
                          lambda: bench_playouts(args.playouts, lean=lean))
    assert plays_per_s is not None
    print(f"copy-and-play-out from mid-hand: {plays_per_s:,.0f} card plays/s "
          f"(target >= 500,000)")
    american = best_of(args.repeat,
                       lambda: bench_american_playouts(args.american_playouts))
    assert american is not None
    print(f"American copy-and-play-out from mid-deal (2 players): {american:,.0f} "
          f"actions/s (target >= 500,000)")
    copy_us = best_of(args.repeat, lambda: bench_service_copy(args.copies))
    assert copy_us is not None
    print(f"the table service's copy of a game, per move: {copy_us:.2f} us")
    spiel = best_of(args.repeat,
                    lambda: bench_open_spiel(args.spiel_hands, lean=lean))
    if spiel is None:
        print("open_spiel not installed (pip install '.[bench]'): no oh_hell baseline")
    else:
        print(f"OpenSpiel oh_hell from Python: {spiel:,.0f} hands/s; "
              f"ratio ours/OpenSpiel = {hands_per_s / spiel:.2f}x (target >= 2x)")


if __name__ == "__main__":
    main()
