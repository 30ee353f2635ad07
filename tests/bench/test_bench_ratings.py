"""bench/ratings.py as a user runs it, on a tiny count (a smoke test: tests never time
anything), and its rank correlations on known orders."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench_module():  # noqa: ANN202 - the module bench/ratings.py
    spec = importlib.util.spec_from_file_location("bench_ratings", ROOT / "bench" /
                                                  "ratings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    saved = sys.path[0]
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[0] = saved
    return module


def test_rank_correlations_on_known_orders() -> None:
    bench = _bench_module()
    assert bench.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert bench.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert bench.kendall([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    assert bench.average_ranks([5, 1, 5, 3]) == [3.5, 1.0, 3.5, 2.0]
    # tau-b with ties: (C - D) / sqrt((C + D + Ta)(C + D + Tb))
    assert bench.kendall([1, 2, 3], [1, 1, 2]) == pytest.approx(2 / (3 * 2) ** 0.5)


@pytest.mark.parametrize("game", ["amerikaner", "american"])
def test_the_calibration_prints_its_figures(game: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ratings.py"), "--game", game, "--hands", "10",
         "--runs", "1", "--players", "3", "--members", "4"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Spearman rho / Kendall tau-b" in out
    assert "hands per member for a mean rho >= 0.9" in out
    assert "always weak: mu" in out
