"""bench/engine.py runs as a user runs it and prints its figures (a smoke test: tests
never time anything; the figures are the benchmark's to print)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_benchmark_prints_its_figures() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "engine.py"), "--hands",
                             "40", "--playouts", "5", "--spiel-hands", "0", "--repeat", "1",
                             "--american-playouts", "3", "--copies", "50"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert re.search(r"full random hands \(4 players, amerikaner\): [\d,]+ hands/s",
                     result.stdout), result.stdout
    assert re.search(r"copy-and-play-out from mid-hand: [\d,]+ card plays/s", result.stdout)
    assert re.search(r"American copy-and-play-out from mid-deal \(2 players\): [\d,]+ "
                     r"actions/s", result.stdout)
    assert re.search(r"the table service's copy of a game, per move: [\d.]+ us",
                     result.stdout)
