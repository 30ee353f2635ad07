"""`amerikaner replay`: the installed console script, on files and standard input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFORMANCE = Path(__file__).parent / "fixtures" / "conformance"


def _amerikaner() -> list[str]:
    script = shutil.which("amerikaner", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "bot.cli"]


REPO = Path(__file__).resolve().parent.parent


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    # This checkout's code first: the script may come from an install of another one.
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return subprocess.run([*_amerikaner(), *args], input=stdin, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": path})


def test_console_script_is_installed() -> None:
    assert shutil.which("amerikaner", path=str(Path(sys.executable).parent))


def test_replay_a_valid_record_from_a_file() -> None:
    path = CONFORMANCE / "valid" / "game_00000.json"
    result = _run("replay", str(path))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    expected = json.loads(path.with_name("game_00000.expected.json").read_text())
    assert out["totals"] == expected["totals"] and out["winners"] == expected["winners"]


def test_replay_from_standard_input() -> None:
    path = CONFORMANCE / "valid" / "game_00001.json"
    result = _run("replay", "-", stdin=path.read_text())
    assert result.returncode == 0
    assert json.loads(result.stdout)["finished"] is True


@pytest.mark.parametrize("name", ["corrupt_00012", "corrupt_00000"])
def test_replay_a_faulty_record_exits_2_with_the_error(name: str) -> None:
    path = CONFORMANCE / "faulty" / f"{name}.json"
    result = _run("replay", str(path))
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    expected = json.loads(path.with_name(f"{name}.expected.json").read_text())["error"]
    assert error["code"] == expected["code"] and error["message"]


def test_not_json_is_an_invalid_record() -> None:
    result = _run("replay", "-", stdin="{not json")
    assert result.returncode == 2
    assert json.loads(result.stdout)["error"]["code"] == "invalid_record"


def test_missing_file_is_one_clear_line() -> None:
    result = _run("replay", "/nonexistent/record.json")
    assert result.returncode == 1
    assert "cannot read" in result.stderr and "Traceback" not in result.stderr


AMERICAN = Path(__file__).parent / "fixtures" / "conformance-american"


@pytest.mark.parametrize("name", ["game_00011", "game_00035"])
def test_replay_an_american_record_prints_its_exact_output(name: str) -> None:
    path = AMERICAN / "valid" / f"{name}.json"
    result = _run("replay", "--indent", "1", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == path.with_name(f"{name}.expected.json").read_text()


def test_replay_a_faulty_american_record_exits_2_with_the_error_object() -> None:
    path = AMERICAN / "faulty" / "corrupt_00010.json"
    result = _run("replay", str(path))
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert list(error) == ["deal", "action", "code", "message"]
    assert (error["code"], error["deal"], error["action"]) == ("invalid_index", 0, 139)


def test_a_refusal_every_game_shares_is_worded_by_the_platform() -> None:
    """An American record with a card dealt twice: a reason every game's records share
    (bot/errors.py's SHARED_REASONS), which the game gives back and the platform words
    (bot/render/refusals.py), in the CLI as in the bot."""
    path = Path(__file__).parent / "fixtures" / "conformance-american" / "faulty" / \
        "corrupt_00012.json"
    result = _run("replay", str(path))
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert (error["code"], error["message"]) == ("invalid_deal", "8S is dealt twice.")
