"""Engine speed: full random hands per second and card plays per second in a play-out loop.

Plays N complete random 4-player `amerikaner` hands (fixed seed: deal, bidding, kitty,
opening lead with a call, tricks, scoring) through the same public API the bot uses
(`Game`, `Hand`), then measures a copy-and-play-out loop from a mid-hand state, which is
what AI search does. Where `open_spiel` is installed, OpenSpiel's `oh_hell` (4 players,
12 tricks) is driven move by move from Python in the same run and the ratio is printed.

    python bench/engine.py [--hands 20000] [--playouts 20000]
"""

from __future__ import annotations

import argparse
import random
import time

from bot.core.cards import bits
from bot.core.game import Game
from bot.core.hand import BID, DISCARD, LEAD, Hand
from bot.core.rules import Rules


def play_random_hand(game: Game, rng: random.Random) -> Hand:
    """Deal and play one hand with random legal choices, through the public API."""
    hand = game.start_hand(rng=rng)
    rules = game.rules
    while hand.phase == BID:
        seat = hand.to_act
        bids = hand.legal_bids()
        if rng.random() < 0.55 or len(bids) < 2:
            hand.pass_turn(seat)
        else:
            hand.bid(seat, rules.bid_name(bids[0] if rng.random() < 0.8 else bids[1]))
    if hand.phase == DISCARD:
        seat = hand.to_act
        hand.discard(seat, tuple(rng.sample(bits(hand.hands[seat]), rules.kitty_size)))
    if hand.phase == LEAD:
        seat = hand.to_act
        card = rng.choice(bits(hand.legal_play_mask()))
        call = None
        if hand.with_trumps:
            callable_cards = hand.callable_mask(card // 13)
            call = callable_cards.bit_length() - 1 if callable_cards else None
        hand.play(seat, card, call)
    choice = rng.choice
    play = hand.play
    while not hand.finished:
        play(hand.to_act, choice(bits(hand.legal_play_mask())))
    game.settle()
    return hand


def bench_hands(count: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    rules = Rules.create("amerikaner", 4, {"target": 10**9})
    game = Game(rules, 0)
    start = time.perf_counter()
    for _ in range(count):
        play_random_hand(game, rng)
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


def bench_playouts(count: int, seed: int = 3) -> float:
    """Card plays per second: copy the mid-hand state, play it out at random, repeat."""
    rng = random.Random(seed)
    root = mid_hand_state()
    plays = 0
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(count):
        hand = root.copy()
        play = hand.play
        while not hand.finished:
            play(hand.to_act, choice(bits(hand.legal_play_mask())))
            plays += 1
    elapsed = time.perf_counter() - start
    return plays / elapsed


def bench_open_spiel(count: int, seed: int = 1) -> float | None:
    """OpenSpiel's oh_hell (4 players, 12 tricks), random legal moves, hands per second."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = random.Random(seed)
    start = time.perf_counter()
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--spiel-hands", type=int, default=2000)
    args = parser.parse_args()
    hands_per_s = bench_hands(args.hands)
    print(f"full random hands (4 players, amerikaner): {hands_per_s:,.0f} hands/s "
          f"(target >= 10,000)")
    plays_per_s = bench_playouts(args.playouts)
    print(f"copy-and-play-out from mid-hand: {plays_per_s:,.0f} card plays/s "
          f"(target >= 500,000)")
    spiel = bench_open_spiel(args.spiel_hands)
    if spiel is None:
        print("open_spiel not installed (pip install '.[bench]'): no oh_hell baseline")
    else:
        print(f"OpenSpiel oh_hell from Python: {spiel:,.0f} hands/s; "
              f"ratio ours/OpenSpiel = {hands_per_s / spiel:.2f}x (target >= 2x)")


if __name__ == "__main__":
    main()
