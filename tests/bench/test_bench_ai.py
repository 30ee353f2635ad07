"""bench/ai.py as a user runs it: variants set from the command line, runs compared
deal by deal, bad input answered in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CARDPLAY = ["--mode", "cardplay", "--deals", "2", "--samples", "2"]


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "ai.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_a_variant_is_compared_deal_by_deal_with_an_earlier_run(tmp_path: Path) -> None:
    base = tmp_path / "base.json"
    first = run_bench(*CARDPLAY, "--set", "NESTED_LEADS=0", "--diffs", str(base))
    assert first.returncode == 0, first.stderr
    assert "set NESTED_LEADS=0" in first.stdout
    # Which deals were played, so runs meant for other deals can be checked not to overlap.
    assert "(the deals seeded 1-2)" in first.stdout
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
    from bot.games.amerikaner.ai import strong

    for name in strong.TUNING:
        value = getattr(strong, name)
        assert type(value) in (int, float), name


def _bench_module():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_ai", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = module
    spec.loader.exec_module(module)
    return module


def test_auction_contracts_are_the_same_in_both_rooms() -> None:
    """`--contracts auction`: the easy player bids in every seat, so both rooms play the
    same contract; a deal nobody bids on (or a redeal claimed: norsk) is not played."""
    import random

    from bot.games.amerikaner.deal import deal_cards
    from bot.games.amerikaner.rules import Rules

    bench = _bench_module()
    rules = Rules.create("norsk", 4, {})
    rng = random.Random(5)
    played = thrown_in = 0
    for _ in range(200):
        if played >= 3 and thrown_in:
            break
        deal = deal_cards(rules, rng)
        out = bench.cardplay_deal(rules, deal, 0, "easy", "random", 9, [], True)
        if out is None:
            thrown_in += 1
            continue
        played += 1
        diff, room1, room2 = out
        assert room1.finished and room2.finished
        for attr in ("bidder", "high_bid", "trump", "called", "called_holder"):
            assert getattr(room1, attr) == getattr(room2, attr), attr
        team = {room1.bidder, room1.called_holder} - {-1}
        assert diff == (sum(room1.tricks_won[s] for s in team)
                        - sum(room2.tricks_won[s] for s in team))
    assert played >= 3 and thrown_in


def test_contracts_option_is_printed_and_checked() -> None:
    forced = run_bench(*CARDPLAY, "--contracts", "forced")
    assert forced.returncode == 0, forced.stderr
    assert "mode cardplay, contracts forced" in forced.stdout
    wrong = run_bench(*CARDPLAY, "--contracts", "random")
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr


def test_inference_mode_compares_the_sampled_bidder_with_the_true_one() -> None:
    result = run_bench("--mode", "inference", "--deals", "2", "--samples", "2")
    assert result.returncode == 0, result.stderr
    assert "sampled against true" in result.stdout
    lines = [line for line in result.stdout.splitlines() if "decisions):" in line]
    assert lines
    for line in lines:
        # trumps, estimate and tricks, each "sampled / true" with numbers
        parts = line.split(": ", 1)[1].split(", ")
        assert [p.split()[0] for p in parts] == ["trumps", "estimate", "tricks"]
        for part in parts:
            sampled, true = part.split()[1], part.split()[3]
            assert float(sampled) >= 0 and float(true) >= 0


def _split(stdout: str) -> tuple[float, float, float]:
    """The total, declarer and defence figures a `--split` card-play run prints."""
    total = float(stdout.split("tricks with strong minus with easy = ")[1].split()[0])
    line = stdout.split("split against easy on both sides: ")[1].splitlines()[0]
    declarer = float(line.split("declarer play ")[1].split()[0])
    defence = float(line.split("defence ")[1].split()[0])
    return total, declarer, defence


def test_split_and_known_hands() -> None:
    """`--split` parts the gain into declarer play and defence; `--known declarer` lets
    only the strong declaring side see the cards, so the defence's part is unchanged."""
    plain = run_bench(*CARDPLAY, "--split")
    assert plain.returncode == 0, plain.stderr
    total, declarer, defence = _split(plain.stdout)
    assert total == pytest.approx(declarer + defence, abs=0.011)

    known = run_bench(*CARDPLAY, "--split", "--known", "declarer")
    assert known.returncode == 0, known.stderr
    assert "hands known to strong's declarer" in known.stdout
    assert _split(known.stdout)[2] == defence

    wrong = run_bench(*CARDPLAY, "--known", "bidder")
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr


def test_alt_is_strong_with_its_own_values_and_wild_plays_legal_cards() -> None:
    # `alt` with strong's own value plays exactly as strong: every deal comes out even.
    same = run_bench(*CARDPLAY, "--pairs", "alt-strong", "--alt", "PLAY_MISMATCH=0.01")
    assert same.returncode == 0, same.stderr
    assert "alt: strong with PLAY_MISMATCH=0.01" in same.stdout
    assert "with alt minus with strong = +0.00 ± 0.00 tricks per deal" in same.stdout
    # Both levels search: the decision times count both, and say so.
    assert "alt and strong decision time" in same.stdout

    # `wild` is a player (Hand.apply would refuse an illegal card) against strong.
    wild = run_bench(*CARDPLAY, "--pairs", "strong-wild")
    assert wild.returncode == 0, wild.stderr
    assert "with strong minus with wild" in wild.stdout
    assert "    strong decision time" in wild.stdout

    bad_value = run_bench(*CARDPLAY, "--pairs", "alt-strong", "--alt", "NOPE=1")
    assert bad_value.returncode != 0
    assert "--alt: 'NOPE' is not one of strong's tuning values" in bad_value.stderr
    unused = run_bench(*CARDPLAY, "--alt", "PLAY_MISMATCH=0.1")
    assert unused.returncode != 0
    assert "--alt: no pairing of --pairs plays the level alt" in unused.stderr
    bad_level = run_bench(*CARDPLAY, "--pairs", "clever-easy")
    assert bad_level.returncode != 0
    assert "'clever' in 'clever-easy' is not a level" in bad_level.stderr
    assert "Traceback" not in bad_level.stderr + bad_value.stderr
