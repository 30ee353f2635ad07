"""The terminal game's words (bot/games/amerikaner/terminal.py and text_terminal.py): help on
request, grammatical results, and one minus sign in everything a played game shows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from bot.cards import RANKS
from bot.games.amerikaner.hand import FAILED, MADE
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.terminal import run_game
from bot.games.amerikaner.text_terminal import terminal_hand_result
from bot.tables.panel import Panel

KIND = AMERIKANER
NAMES = ["alice", "bob", "carol", "dave"]


def _script(*moves: str) -> tuple[list[str], object]:
    said: list[str] = []
    answers = iter(moves)

    def ask(_prompt: str) -> str:
        return next(answers, "quit")

    return said, ask


def test_help_prints_how_to_play_then_the_table_and_the_moves() -> None:
    said, ask = _script("help")
    assert run_game("amerikaner", 4, seed=2, ask=ask, say=said.append) == 0  # type: ignore
    start = said.index("How to play: type your move and press Enter.")
    assert any("'AS call KS'" in line for line in said[start:])
    assert any(line.startswith("Your hand: ") for line in said[start:])
    assert any(line.startswith("Moves: ") for line in said[start:])
    assert said.count("How to play: type your move and press Enter.") == 1
    assert "Type 'help' for how to play" in said[0]


def test_hand_shows_the_table_again_without_the_help() -> None:
    said, ask = _script("hand")
    run_game("amerikaner", 4, seed=2, ask=ask, say=said.append)  # type: ignore[arg-type]
    assert not any(line.startswith("How to play") for line in said)
    assert sum(line.startswith("Your hand: ") for line in said) == 2


def test_a_contract_is_yours_or_a_seats_never_yous() -> None:
    assert terminal_hand_result(MADE, 0, 8, (8, 2, 2, 1), (8, 2, 8, 1))[0] == (
        "Your contract 8 was made.")
    assert terminal_hand_result(FAILED, 0, 8, (5, 2, 2, 4), (-8, 2, -8, 4))[0] == (
        "Your contract 8 failed.")
    assert terminal_hand_result(FAILED, 2, 9, (5, 2, 2, 4), (5, 2, -9, 4))[0] == (
        "Seat 2's contract 9 failed.")
    said: list[str] = []
    run_game("amerikaner", 4, seed=9, target=30, say=said.append, human=False)
    assert not any("You's" in line for line in said)
    assert any(line.startswith("Your contract") for line in said)


def test_the_terminal_shows_the_kitty_and_the_hand_sorted_like_a_hand() -> None:
    said: list[str] = []
    run_game("amerikaner", 4, {"show_kitty": True}, seed=4, target=20, say=said.append,
             ask=lambda _prompt: "quit")
    hands = [line for line in said if line.startswith("Your hand: ")]
    assert hands
    order = RANKS[::-1]
    for line in hands:
        for suit in re.findall(r"[♠♥♦♣] ([0-9AKQJ ]+?)(?=   |$)", line):
            ranks = suit.split()
            assert ranks == sorted(ranks, key=order.index), line


# ----------------------------------------------------------------- one minus sign

def _texts(panel: Panel) -> Iterator[str]:
    yield from (panel.title, panel.description, panel.footer or "")
    for name, value, _inline in panel.fields:
        yield from (name, value)


def _played_game_texts(seed: int) -> Iterator[str]:
    """Everything the bot shows of a whole game: panels, reviews, summaries, standings."""
    rng = random.Random(seed)
    rules = KIND.make_rules("amerikaner", 4, {"all_pass_play": True})
    game, _deal = KIND.new_game(rules, 0, rng)
    yield KIND.words.rules_text(rules)
    while not KIND.finished(game):
        seat = KIND.to_act(game)
        assert seat is not None
        yield from _texts(KIND.words.table_panel(game, NAMES))
        yield from _texts(KIND.words.seat_panel(game, seat, NAMES))
        applied = KIND.apply(game, KIND.choose_action(game, seat, "easy", rng), rng)
        if applied.deal_finished:
            yield from _texts(KIND.words.deal_summary(game, applied.deal_index, NAMES))
            yield from _texts(KIND.words.deal_review(game, applied.deal_index, NAMES))
    yield from _texts(KIND.words.final_standings(game, NAMES))
    yield from _texts(KIND.words.table_panel(game, NAMES))


def test_a_played_game_writes_every_minus_sign_the_same_way() -> None:
    """No typographic minus (U+2212) anywhere: the ASCII one, as numbers print, in the
    bot and the terminal; played until a lost score was shown in both (a few games)."""
    lost_in_bot = lost_in_terminal = False
    for seed in range(4, 16):
        said: list[str] = []
        run_game("amerikaner", 4, {"all_pass_play": True}, seed=seed, say=said.append,
                 human=False)
        shown = "\n".join([*_played_game_texts(seed), *said])
        assert "\u2212" not in shown
        lost_in_bot |= bool(re.search(r"tricks?, -\d+ → ", shown))
        lost_in_terminal |= bool(re.search(r"Scores: .*Seat \d -\d", shown))
        if lost_in_bot and lost_in_terminal:
            break
    assert lost_in_bot and lost_in_terminal
