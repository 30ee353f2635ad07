"""bench/ai_american.py as a user runs it, on a tiny count: it prints its figures (a smoke
test: tests never time anything), and bad input is answered in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "ai_american.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_ai_benchmark_prints_its_figures() -> None:
    result = run_bench("--deals", "2", "--worlds", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("core ")
    assert "options none" in out and "options same_rank, four_burns, swap" in out
    beats = re.findall(r"(\w+) beats (\w+) in ([\d.]+)% of 4 games \((\d) won; 2 deals, "
                       r"seats swapped; 95% CI \[[-\d.]+%, [\d.]+%\]\)", out)
    assert [(a, b) for a, b, _, _ in beats] == [("easy", "random"), ("strong", "easy")] * 2, out
    for _, _, share, won in beats:  # the games won, for pooling runs: the share of 4
        assert int(won) == round(float(share) * 4 / 100), out
    assert re.search(r"strong decision time: median [\d.]+ ms, p99 [\d.]+ ms", out)


def test_more_players_and_one_set_of_options() -> None:
    result = run_bench("--deals", "1", "--worlds", "2", "--players", "3", "--options",
                       "blind_down", "--pairs", "strong-random")
    assert result.returncode == 0, result.stderr
    assert "3 players, options blind_down" in result.stdout
    assert "the deals seeded 1-1):" in result.stdout  # deal i is seeded --seed + i
    assert "strong beats random in" in result.stdout and "of 3 games" in result.stdout


def test_bad_input_is_answered_in_one_line() -> None:
    for args in (["--pairs", "strong-hard"], ["--options", "jokers"],
                 ["--players", "9"]):
        result = run_bench("--deals", "1", *args)
        assert result.returncode != 0
        assert "Traceback" not in result.stderr and "error:" in result.stderr


def test_set_takes_strongs_tuning_values_and_refuses_others() -> None:
    result = run_bench("--deals", "1", "--worlds", "2", "--players", "3", "--options",
                       "none", "--pairs", "strong-easy", "--set", "SEAT_REPLY=0")
    assert result.returncode == 0, result.stderr
    assert "set SEAT_REPLY=0" in result.stdout and "strong beats easy in" in result.stdout
    for text, said in (("JOKER=3", "'JOKER' is not one of strong's tuning values"),
                       ("SEAT_REPLY=yes", "SEAT_REPLY needs a number, not 'yes'")):
        refused = run_bench("--deals", "1", "--set", text)
        assert refused.returncode != 0
        assert said in refused.stderr and "Traceback" not in refused.stderr
