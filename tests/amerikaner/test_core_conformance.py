"""Every conformance record of tests/fixtures/conformance replays to its exact expected output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.amerikaner.record import replay

FIXTURES = Path(__file__).parent.parent / "fixtures"

CONFORMANCE = FIXTURES / "conformance"


def _records(folder: Path) -> list[Path]:
    """The records of a folder: every file with an expected output beside it (the
    folder also holds a manifest, which is not a record)."""
    return sorted(p.with_name(p.name.removesuffix(".expected.json") + ".json")
                  for p in folder.glob("*.expected.json"))


VALID = _records(CONFORMANCE / "valid")
FAULTY = _records(CONFORMANCE / "faulty")
HAND_FIELDS = ("dealer", "outcome", "bidder", "contract", "trump", "called", "partner",
               "tricks", "scores", "totals")


def _expected(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def _replay_file(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except ValueError:
        return {"error": {"hand": None, "action": None, "code": "invalid_record"}}
    return replay(data)


def _normal_next(nxt: dict | None) -> dict | None:
    """`legal` compares as a set and `calls` as a map of sets (conformance README)."""
    if nxt is None:
        return None
    out = dict(nxt)
    out["legal"] = sorted(map(str, nxt["legal"]))
    if "calls" in nxt:
        out["calls"] = {suit: sorted(cards) for suit, cards in nxt["calls"].items()}
    return out


def test_fixtures_present() -> None:
    assert (len(VALID), len(FAULTY)) == (56, 18)  # tests/fixtures/conformance, issue 14


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_record_replays_exactly(path: Path) -> None:
    expected = _expected(path)
    out = _replay_file(path)
    assert "error" not in out, out
    assert len(out["hands"]) == len(expected["hands"])
    for index, (want, got) in enumerate(zip(expected["hands"], out["hands"], strict=True)):
        for field in HAND_FIELDS:
            assert got[field] == want[field], (index, field)
    for field in ("totals", "finished", "winners"):
        assert out[field] == expected[field], field
    assert _normal_next(out["next"]) == _normal_next(expected["next"])


@pytest.mark.parametrize("path", FAULTY, ids=[p.stem for p in FAULTY])
def test_faulty_record_is_refused_with_its_code(path: Path) -> None:
    expected = _expected(path)["error"]
    out = _replay_file(path)
    assert "error" in out, "record was accepted"
    got = out["error"]
    assert (got["code"], got["hand"], got["action"]) == (
        expected["code"], expected["hand"], expected["action"])
