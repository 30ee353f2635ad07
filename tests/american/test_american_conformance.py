"""Every American conformance record (tests/fixtures/conformance-american) replays to its exact
expected output: the valid ones byte for byte as `amerikaner replay --indent 1` prints
them, the faulty ones to their error's code, deal and action, with a sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.american.kind import AMERICAN
from bot.games.american.record import replay
from bot.render import error_text

CONFORMANCE = Path(__file__).parent.parent / "fixtures" / "conformance-american"


def _records(folder: Path) -> list[Path]:
    """The records of a folder: every file with an expected output beside it (the
    folder also holds a manifest, which is not a record)."""
    return sorted(p.with_name(p.name.removesuffix(".expected.json") + ".json")
                  for p in folder.glob("*.expected.json"))


VALID = _records(CONFORMANCE / "valid")
FAULTY = _records(CONFORMANCE / "faulty")


def _expected_text(path: Path) -> str:
    return path.with_name(path.stem + ".expected.json").read_text()


def test_fixtures_present() -> None:
    assert (len(VALID), len(FAULTY)) == (40, 26)  # tests/fixtures/conformance-american, issue 18
    manifest = json.loads((CONFORMANCE / "faulty" / "manifest.json").read_text())
    assert sorted(entry["file"] for entry in manifest) == [p.name for p in FAULTY]


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_record_replays_exactly(path: Path) -> None:
    out = replay(json.loads(path.read_text()))
    assert "error" not in out, out
    assert json.dumps(out, indent=1) + "\n" == _expected_text(path)


@pytest.mark.parametrize("path", FAULTY, ids=[p.stem for p in FAULTY])
def test_faulty_record_is_refused_with_its_code(path: Path) -> None:
    expected = json.loads(_expected_text(path))["error"]
    # worded as `amerikaner replay` words it: the platform words the reasons every game's
    # records share (bot/errors.py's SHARED_REASONS)
    out = replay(json.loads(path.read_text()), lambda error: error_text(error, AMERICAN))
    assert list(out) == ["error"], "record was accepted"
    got = out["error"]
    assert isinstance(got, dict)
    assert list(got) == ["deal", "action", "code", "message"]
    assert (got["code"], got["deal"], got["action"]) == (
        expected["code"], expected["deal"], expected["action"])
    assert isinstance(got["message"], str) and got["message"]
    assert got["message"] != got["code"]  # a sentence, not the bare code


def test_every_error_code_of_section_10_is_met() -> None:
    codes = {json.loads(_expected_text(p))["error"]["code"] for p in FAULTY}
    assert codes == {"invalid_record", "invalid_rules", "invalid_deal", "invalid_card",
                     "game_over", "not_your_turn", "wrong_phase", "card_not_in_hand",
                     "mixed_ranks", "not_playable", "pickup_not_allowed",
                     "wrong_card_count", "invalid_index"}
