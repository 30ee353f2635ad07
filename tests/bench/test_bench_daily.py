"""bench/daily.py as a user runs it, on a tiny store (a smoke test: tests never time
anything)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_daily_boards_bench_runs_and_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "daily.py"), "--skip-requests", "--servers",
         "3", "--per-server", "4", "--days", "8", "--reads", "3"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "built 96 plays (3 servers x 4 members x 8 days)" in out
    for board in ("day's board", "weekly ladder", "monthly ladder"):
        assert f"  {board}: p50 " in out, out
