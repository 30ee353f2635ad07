"""American in the terminal (bot/games/american/terminal.py, `amerikaner play --game
american`): whole matches driven by scripted input, help, and bad input answered without
a traceback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cards import RANKS
from bot.games.american.deal import deal_cards
from bot.games.american.rules import Rules
from bot.games.american.state import DealState
from bot.games.american.terminal import run_game

REPO = Path(__file__).resolve().parents[2]


def _script(*moves: str) -> tuple[list[str], Callable[[str], str]]:
    said: list[str] = []
    answers = iter(moves)

    def ask(_prompt: str) -> str:
        return next(answers, "quit")

    return said, ask


def _first_move(said: list[str]) -> Callable[[str], str]:
    """A player who types the first move the last "Moves:" line offers."""

    def ask(_prompt: str) -> str:
        line = next(line for line in reversed(said) if line.startswith("Moves: "))
        if "'swap'" in line:
            return "swap"
        if "flip " in line:
            return "flip 0"
        return line.removeprefix("Moves: ").split(" | ")[0]

    return ask


def test_a_whole_match_typed_by_the_human() -> None:
    said: list[str] = []
    code = run_game(2, {"swap": True, "target": 2}, seed=5, ask=_first_move(said),
                    say=said.append)
    assert code == 0
    assert said[0].startswith("American, 2 players, first to win 2 deals")
    assert not any(line.startswith(("Not allowed", "Not understood")) for line in said)
    assert any(line.startswith("You play ") for line in said)
    assert said[-1] in ("Match over: you win!", "Match over. Winner: Seat 1.")
    assert any(line.startswith("Deals won: You ") for line in said)


def test_blind_down_and_four_players() -> None:
    said: list[str] = []
    run_game(4, {"blind_down": True}, seed=11, ask=_first_move(said), say=said.append)
    assert said[-1].startswith("Match over")
    assert any(" turns over " in line or line.startswith("You turn over ") for line in said)
    assert any(line.startswith("Order out: ") for line in said)


def test_all_ai_matches_end_at_every_level() -> None:
    for level in ("random", "easy", "strong"):
        said: list[str] = []
        assert run_game(3, {"same_rank": True}, seed=2, level=level, say=said.append,
                        human=False) == 0
        assert said[-1].startswith("Match over"), level


def test_help_prints_how_to_play_then_the_table_and_the_moves() -> None:
    said, ask = _script("help")
    run_game(2, seed=2, ask=ask, say=said.append)
    start = said.index(next(line for line in said if line.startswith("How to play")))
    assert any("'pickup'" in line for line in said[start:])
    assert any(line.startswith("Your hand: ") for line in said[start:])
    assert any(line.startswith("Moves: ") for line in said[start:])
    assert said[-1] == "Bye."


def test_bad_input_is_answered_and_changes_nothing() -> None:
    said, ask = _script("", "xyz", "ZZ", "pickup", "2S 3S", "flip 7", "hand")
    run_game(2, seed=2, ask=ask, say=said.append)
    answers = [line for line in said if line.startswith(("Not allowed", "Not understood"))]
    assert len(answers) == 6, answers
    assert "Not allowed: 'ZZ' is not a card." in answers
    assert sum(line.startswith("Your hand: ") for line in said) == 2  # the turn, 'hand'
    assert not any(line.startswith("You ") and line.endswith(".") and "play" in line
                   for line in said)


def _opening(seed: int) -> DealState:
    """The first deal of `run_game(2, seed=seed)`, as it deals it."""
    rules = Rules.create(2, {})
    rng = random.Random(seed)
    dealer = rng.randrange(2)
    return DealState(rules, dealer, deal_cards(rules, rng), False)


def test_a_rank_plays_every_copy_held() -> None:
    for seed in range(500):
        state = _opening(seed)
        held = [c for c in range(52) if state.hands[0] >> c & 1]
        pairs = [c % 13 for c in held if sum(d % 13 == c % 13 for d in held) == 2]
        if state.to_act == 0 and pairs:
            break
    else:
        raise AssertionError("no seed where the human starts holding a pair")
    said, ask = _script(RANKS[pairs[0]].lower())
    run_game(2, seed=seed, ask=ask, say=said.append)
    played = next(line for line in said if line.startswith("You play "))
    assert played.count(RANKS[pairs[0]]) == 2, played


def test_the_rules_are_checked_before_the_match() -> None:
    said, ask = _script()
    assert run_game(6, seed=1, ask=ask, say=said.append) == 2
    assert said == ["Cannot start: American is for 2 to 5 players, not 6."]


def _cli(*args: str, stdin: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env={**env, "PYTHONPATH": path, "LANG": lang}, cwd=REPO)


def test_the_command_line_plays_american() -> None:
    result = _cli("play", "--game", "american", "--players", "3", "--seed", "4",
                  "--options", "same_rank,voluntary_pickup", "--level", "strong",
                  stdin="help\nnonsense\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("American, 3 players, first to win 1 deal;")
    assert "House rules: same_rank, voluntary_pickup" in result.stdout
    assert "Not allowed: 'nonsense' is not a card." in result.stdout
    assert result.stdout.rstrip().endswith("Bye.")  # the input ended
    assert "Traceback" not in result.stderr


def test_the_command_line_refuses_an_unknown_option() -> None:
    result = _cli("play", "--game", "american", "--options", "jokers", stdin="")
    assert result.returncode == 2
    assert "Cannot start: Unknown option 'jokers'" in result.stdout
    assert "Traceback" not in result.stderr


def test_the_terminal_speaks_norwegian_by_lang_or_the_environment() -> None:
    from bot.games.american.text_terminal import terminal_bye
    from bot.i18n import use_locale

    with use_locale("nb"):
        bye = terminal_bye()
    assert bye != "Bye."
    by_flag = _cli("play", "--game", "american", "--seed", "4", "--lang", "nb", stdin="")
    by_locale = _cli("play", "--game", "american", "--seed", "4", stdin="",
                     lang="nb_NO.UTF-8")
    english = _cli("play", "--game", "american", "--seed", "4", "--lang", "en", stdin="",
                   lang="nb_NO.UTF-8")
    for result in (by_flag, by_locale):
        assert result.returncode == 0, result.stderr
        assert result.stdout.rstrip().endswith(bye)
    assert english.stdout.rstrip().endswith("Bye.")

