"""Shared test set-up: the fixtures folder, and the throwaway PostgreSQL server that the
store tests and an end-to-end game run on (tests/pg_server.py)."""

from __future__ import annotations

import ctypes.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.debian import apt_install, can_install, install_lock
from tests.fake_discord import clock as fake_clock
from tests.pg_server import NoPostgres, PostgresServer
from tests.store_backends import BACKENDS, Database

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def clocks_start_at_the_start_instant() -> None:
    """Every test's fake clocks begin at the fixed start instant (tests/fake_discord/
    clock.py), never at today's date, however long the tests before it ran."""
    fake_clock.restart()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run, started at the first test that needs it.
    Without PostgreSQL binaries (and no way to install them) its tests are skipped on a
    developer's machine and fail in CI (CI=true), where they must run."""
    try:
        server = PostgresServer.start()
    except NoPostgres as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"no PostgreSQL server for the tests: {exc}")
        pytest.skip(f"no PostgreSQL server for the tests: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database of its own for this test."""
    url = postgres_server.new_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A database of its own for the test, on each backend in turn: a SQLite file, and
    a database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return Database("sqlite", str(tmp_path / "bot.sqlite3"))
    return Database("postgresql", request.getfixturevalue("pg_url"))


@pytest.fixture
def few_daily_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal of the day's strong AI samples a fixed number of worlds (24 in the bot);
    4 here. What the daily's tests hold (the same play meets the same answers, from a
    seed) does not depend on how many; 24 made the American deal alone minutes of the
    suite in pure Python."""
    from bot.games.american.ai import strong as american_strong
    from bot.games.amerikaner.ai import strong as amerikaner_strong

    monkeypatch.setattr(american_strong, "DAILY_WORLDS", 4)
    monkeypatch.setattr(amerikaner_strong, "DAILY_SAMPLES", 4)


def pytest_configure(config: pytest.Config) -> None:
    """FriBiDi, which Pillow's libraqm orders Persian words in pictures with
    (bot/render/letters.py): Pillow looks for it once, when its font module is first
    imported, so it is installed (Debian's libfribidi0, as root) before any test draws."""
    if ctypes.util.find_library("fribidi") is None and can_install():
        with install_lock():
            if ctypes.util.find_library("fribidi") is None:
                apt_install("libfribidi0")
