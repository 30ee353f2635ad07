"""The database goes away mid-game, through the fake Discord, on both stores (issue 30,
points 1-2): a human's click is answered with the truth ("The database is not
answering; your move was not played...") and changes nothing, neither the game nor the
player's panel nor the table message; an AI whose turn comes during the outage waits
and plays by itself once the database is back, without a restart; the game is then
played to its end and its record (export, summaries, standings) is exactly the game
the bot showed. The leak checker looks at every message written meanwhile.

PostgreSQL's outage is its server stopped and started again; SQLite's a store that
fails every call (tests/outage.py)."""

from __future__ import annotations

import random
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.tables.table import PLAYING, Table
from tests.e2e.driver import (
    NAMES,
    ButtonDriver,
    LeakChecker,
    check_finished_game,
    choose_ai,
    enabled_actions,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord
from tests.outage import Outage, wait_for
from tests.store_backends import Database

SENTENCE = "The database is not answering; your move was not played. Try again in a moment."


class Gate:
    """Wraps the bot's AI chooser so that a test can hold the AI at its next turn."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.go = threading.Event()
        self.go.set()
        self.waiting = False

    def __call__(self, *args: Any) -> Any:
        if not self.go.is_set():
            self.waiting = True
            self.go.wait(60)
            self.waiting = False
        return self.inner(*args)


@asynccontextmanager
async def _bot(fake: FakeDiscord, database: Database, tmp_path: Any
               ) -> AsyncIterator[AmerikanerBot]:
    if database.backend == "sqlite":
        running = bot_running(fake, tmp_path / "db.sqlite3")
    else:
        running = bot_running(fake, tmp_path / "unused.sqlite3", database_url=database.target)
    async with running as bot:
        yield bot


def _shown(fake: FakeDiscord, msg: Any) -> Any:
    """What a message shows now: its text, components and attachments."""
    current = fake.message(msg)
    return (current.text(), current.components, [a.filename for a in current.attachments])


async def _open(fake: FakeDiscord) -> None:
    """alice hosts, bob joins, two easy AI players fill the table, alice starts."""
    alice, bob = NAMES[:2]
    new = await fake.slash(alice, None, "amerikaner new", {"players": 4, "target": 12})
    lobby = new.message
    assert lobby is not None
    assert (await fake.click_label(bob, fake.message(lobby), "Join")).response_type == 7
    for _ in range(2):
        it = await choose_ai(fake, alice, fake.message(lobby), "easy")
        assert it.response_type == 7, it.callback.data
    assert (await fake.click_label(alice, fake.message(lobby), "Start")).response_type == 7


async def test_the_database_goes_away_mid_game_and_comes_back(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Any, database: Database, request: pytest.FixtureRequest) -> None:
    server = (request.getfixturevalue("postgres_server")
              if database.backend == "postgresql" else None)
    outage = Outage(database.backend, server)
    current: dict[str, Any] = {}
    driver = ButtonDriver(fake, lambda: current["bot"], fake.channel, seed=9,
                          refresh_share=0.0)
    try:
        async with _bot(fake, database, tmp_path) as bot:
            current["bot"] = leaks.bot = bot
            bot.tables.shared.rng = random.Random(9)
            outage.install(bot, bot.tables.shared, bot.outbox)
            bot.tables.keeper.retry_first = bot.outbox.retry_first = 0.02
            bot.tables.keeper.retry_cap = bot.outbox.retry_cap = 0.2
            gate = Gate(bot.tables.play.chooser)
            bot.tables.play.chooser = gate
            await _open(fake)
            table = driver.table
            versions: list[int] = []  # the game in memory whenever a message is written
            _watch(fake, table, versions)

            await _a_human_click_is_refused(fake, driver, table, outage, versions)
            await _an_ai_turn_waits(driver, table, gate, outage, versions)

            await driver.play_to_end()
            out = await check_finished_game(fake, table)
            assert max(out["totals"]) >= 12
            record = await bot.store.load_record(table.id, record_format=table.kind.record_format)
            assert table.kind.version(table.kind.load(record)) == table.version
    finally:
        if outage.is_down:
            await outage.up()
    # The outage is logged once as an error (the health line), and nothing else is.
    health = [r for r in error_logs.records if "database unavailable" in r.getMessage()]
    assert len(health) >= 1
    others = [r for r in error_logs.records if r not in health]
    assert not others, error_logs.format_all()
    error_logs.clear()


def _watch(fake: FakeDiscord, table: Table, versions: list[int]) -> None:
    """Record the version of the game in memory whenever the bot writes a message: a
    message is drawn from memory, so memory never ahead of the store means nothing
    shown ahead of it."""
    original = fake._apply_edit
    created = fake._new_message

    def apply_edit(msg: Any, *args: Any, **kwargs: Any) -> None:
        versions.append(table.version)
        original(msg, *args, **kwargs)

    def new_message(*args: Any, **kwargs: Any) -> Any:
        versions.append(table.version)
        return created(*args, **kwargs)

    fake._apply_edit = apply_edit  # type: ignore[method-assign]
    fake._new_message = new_message  # type: ignore[method-assign]


async def _a_human_click_is_refused(fake: FakeDiscord, driver: ButtonDriver,
                                    table: Table, outage: Outage,
                                    versions: list[int]) -> None:
    await driver.wait_for_humans()
    seat, name = driver.whose_turn() or (None, "")
    assert seat is not None
    panel = await driver.open_hand(name)
    # The table message may still be catching up with the last move meanwhile (its
    # edits are coalesced): every write is checked against the version in memory.
    before = (table.version, _shown(fake, panel))
    buttons, _ = enabled_actions(panel)
    button = buttons[0]["custom_id"]
    async with outage.lasting():
        written = len(versions)
        for _ in range(2):
            it = await fake.click(name, panel, button)
            assert it.ephemeral and it.message is not None, it.callback.data
            assert it.message.text() == SENTENCE
            assert (table.version, _shown(fake, panel)) == before
        assert set(versions[written:]) <= {before[0]}
    it = await fake.click(name, panel, button)
    assert it.response_type == 7, it.callback.data
    assert table.version > before[0]


async def _an_ai_turn_waits(driver: ButtonDriver, table: Table, gate: Gate, outage: Outage,
                            versions: list[int]) -> None:
    """A human plays, the AI is next: the database goes away under it."""
    gate.go.clear()
    try:
        for _ in range(200):
            seat = table.to_act
            if table.stage == PLAYING and seat is not None and table.seats[seat].is_ai:
                break
            assert await driver.step()
        await wait_for(lambda: gate.waiting, what="the AI's turn")
        version = table.version
        await outage.down()
        written = len(versions)
        refused = outage.refused
    finally:
        gate.go.set()
    await wait_for(lambda: outage.refused >= refused + 3, what="the AI to try again")
    assert table.version == version and table.seats[table.to_act].is_ai
    assert set(versions[written:]) <= {version}
    await outage.up()
    await driver.wait_for_humans()  # the AI plays on by itself
    assert table.version > version
