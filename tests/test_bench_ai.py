"""bench/ai.py as a user runs it: variants set from the command line, runs compared
deal by deal, bad input answered in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDPLAY = ["--mode", "cardplay", "--deals", "2", "--samples", "2"]


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "ai.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_a_variant_is_compared_deal_by_deal_with_an_earlier_run(tmp_path: Path) -> None:
    base = tmp_path / "base.json"
    first = run_bench(*CARDPLAY, "--set", "NESTED_LEADS=0", "--diffs", str(base))
    assert first.returncode == 0, first.stderr
    assert "set NESTED_LEADS=0" in first.stdout
    diffs = json.loads(base.read_text())["strong-easy"]
    assert len(diffs) == 2 and all(isinstance(d, (int, float)) for d in diffs)

    # The same settings again: a fixed number of worlds is deterministic, so the two
    # runs agree on every deal.
    again = run_bench(*CARDPLAY, "--set", "NESTED_LEADS=0", "--against", str(base))
    assert again.returncode == 0, again.stderr
    assert f"against {base}, deal by deal: +0.00 ± 0.00 per deal" in again.stdout

    missing = run_bench(*CARDPLAY, "--set", "NESTED_LEADS=0",
                        "--against", str(tmp_path / "none.json"))
    assert missing.returncode == 0, missing.stderr
    assert "cannot compare with" in missing.stdout


def test_set_refuses_what_is_not_a_tuning_value() -> None:
    unknown = run_bench(*CARDPLAY, "--set", "JOKER_BASE=3")
    assert unknown.returncode != 0
    assert "'JOKER_BASE' is not one of strong's tuning values" in unknown.stderr
    assert "Traceback" not in unknown.stderr

    not_a_number = run_bench(*CARDPLAY, "--set", "NESTED_LEADS=many")
    assert not_a_number.returncode != 0
    assert "NESTED_LEADS needs a number, not 'many'" in not_a_number.stderr
    assert "Traceback" not in not_a_number.stderr


def test_tuning_names_are_strongs_numeric_settings() -> None:
    from bot.ai import strong

    for name in strong.TUNING:
        value = getattr(strong, name)
        assert type(value) in (int, float), name
