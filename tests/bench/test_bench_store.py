"""bench/store.py runs as a user runs it and prints the same figures for SQLite and for
PostgreSQL (a smoke test: tests never time anything, so its verdict is not asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_store_benchmark_prints_both_backends(tmp_path: Path, pg_url: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "store.py"), "--games", "300", "--guilds", "5",
         "--users", "40", "--samples", "60", "--db", str(tmp_path / "bench.db"),
         "--postgres", pg_url],
        capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    out = result.stdout
    assert re.search(r"loaded [\d,]+ rows in [\d.]+ s", out), out
    for backend in ("SQLite", "PostgreSQL"):
        assert re.search(rf"{backend}: target 10.0 ms for leaderboard page 1 and member_stats "
                         r"p99 at 300 games: (met|MISSED)", out), out
    assert len(re.findall(r"member_stats\(\) +n= +60 +median +[\d.]+ ms +p99", out)) == 2
