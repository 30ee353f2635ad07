"""bench/render.py runs as a user runs it and prints its figures (a smoke test: tests
never time anything; the figures are the benchmark's to print)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_render_benchmark_prints_its_figures() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "render.py"), "--tables",
                             "3", "--charts", "2"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    figures = r"pictures, median [\d.]+ ms, p99 [\d.]+ ms; size median [\d.]+ KB, max [\d.]+ KB"
    assert re.search(r"table, mid-trick, 3-6 players: 3 " + figures, result.stdout), \
        result.stdout
    assert re.search(r"running totals, 8-12 deals, 3-6 players: 2 " + figures, result.stdout)
