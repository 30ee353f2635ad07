"""bench/activity.py as a user runs it, on two tables (a smoke test: tests never time
anything)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_activity_bench_runs_and_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "activity.py"), "--tables", "2", "--moves", "3",
         "--think", "0"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "2 tables opened" in out and "8 pages connected" in out
    assert "moves: 6" in out
    for figure in ("move -> every page of its table: p50", "CPU a move:",
                   "Discord requests a move"):
        assert figure in out, out
