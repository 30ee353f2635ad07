"""The bot as a process (`python -m bot`): killed with SIGKILL right after an action was
confirmed, it has that action when it comes back; it refuses to start without a token,
or with a token Discord rejects, in one sentence and no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.store import open_store
from bot.tables.service import TableService
from tests.e2e.driver import NAMES, ButtonDriver, make_fake, open_table
from tests.e2e.harness import wait_answering
from tests.fake_discord import FakeClock, FakeDiscord
from tests.store_backends import GAME_FORMAT

REPO = Path(__file__).resolve().parents[2]


def bot_env(fake: FakeDiscord | None, db: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "AI_DELAY",
                                "TABLE_EDIT", "AI_TRICK", "LOG_LEVEL"))}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(db)
    env["AI_DELAY"] = "0"
    env["AI_TRICK_PAUSE"] = "0"
    env["TABLE_EDIT_DELAY"] = "0.05"
    if fake is not None:
        env["DISCORD_TOKEN"] = fake.token
        env["DISCORD_API_BASE"] = fake.api_base
        env["DISCORD_GATEWAY_URL"] = fake.gateway_url
    env.update(extra)
    return env


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, db: Path, cwd: Path) -> AsyncIterator[Any]:
    """`python -m bot` against the fake, ready to answer; SIGKILLed at the latest on exit."""
    identified = len(fake.identify_payloads)
    log = open(cwd / f"bot-{identified}.log", "wb")  # noqa: SIM115
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=bot_env(fake, db),
        stdout=log, stderr=asyncio.subprocess.STDOUT)
    try:
        await fake.wait_until(lambda: len(fake.identify_payloads) > identified
                              and fake.connected, 20.0, "the bot process to connect")
        await wait_answering(fake, "alice")
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        log.close()
        await fake.wait_until(lambda: not fake.connected, 5.0, "the dead bot's socket")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake on the machine's clock: the bot process reads that one (a process
    cannot be given the fake's), and both must date messages alike."""
    fake = make_fake(clock=FakeClock(real=True))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


class StoreView:
    """The game as the database holds it, rebuilt by a table service of our own (the
    bot's own restore path), so the driver can know whose turn it is."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.tables: TableService | None = None

    async def reload(self) -> None:
        store = await open_store(str(self.db))
        try:
            tables = TableService(store, GAMES)
            tables.registry.closed = True  # never schedules anything
            await tables.restore()
            self.tables = tables
        finally:
            await store.close()

    async def action_count(self, table_id: int) -> int:
        store = await open_store(str(self.db))
        try:
            record = await store.load_record(table_id, record_format=GAME_FORMAT)
        finally:
            await store.close()
        return sum(len(h["actions"]) for h in record["hands"])


async def test_sigkill_right_after_a_confirmed_action(fake: FakeDiscord, tmp_path: Path
                                                      ) -> None:
    db = tmp_path / "db.sqlite3"
    view = StoreView(db)
    driver = ButtonDriver(fake, lambda: view, fake.channel, seed=31)
    async with bot_process(fake, db, tmp_path):
        await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "target": 52})
        await view.reload()
        table_id = view.tables.registry.in_channel(fake.channel.id).id  # type: ignore[union-attr]
        driver.table_id = table_id
    confirmed = 0
    kinds = []
    for round_ in range(4):
        async with bot_process(fake, db, tmp_path) as proc:
            await view.reload()
            # the restarted bot has every confirmed action, and no other
            assert driver.table.version == confirmed == await view.action_count(table_id)
            for _ in range(round_ * 2):  # a few more actions, through the old messages
                await driver.step()
                confirmed += 1
            await driver.step()  # returns once the bot's answer (the callback) arrived
            confirmed += 1
            proc.send_signal(signal.SIGKILL)
            kinds.append(_last_kind(driver))
        await view.reload()
        assert await view.action_count(table_id) == confirmed
    assert {"bid", "pass"} & set(kinds)
    unanswered = [i for i in fake.interactions.values() if not i.responded]
    assert not unanswered, unanswered


async def test_sigusr1_logs_what_the_bot_waits_on_and_it_plays_on(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """`kill -USR1 <pid>`: one log block naming every task and where it waits (for an
    operator whose bot seems stuck, and for test_crash_posts' stall, issue 37); the bot
    neither stops nor misses a click."""
    db = tmp_path / "db.sqlite3"
    async with bot_process(fake, db, tmp_path) as proc:
        proc.send_signal(signal.SIGUSR1)
        log = next(tmp_path.glob("bot-*.log"))
        for _ in range(200):  # the log is written by the bot's process: read until there
            if "task(s) now:" in log.read_text():
                break
            await asyncio.sleep(0.05)
        text = log.read_text()
        assert "task(s) now:" in text, text[-2000:]
        block = text[text.index("task(s) now:"):]
        assert "_serve (app.py:" in block  # the task running the bot, and where it waits
        await wait_answering(fake, "alice")  # still answering
        assert proc.returncode is None


def _last_kind(driver: ButtonDriver) -> str:
    game = driver.table.game
    assert game is not None
    hand = next(h for h in reversed(game.hands) if h.actions)
    return hand.actions[-1].kind


async def _run(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 30.0
               ) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, err.decode()


async def test_missing_token_is_one_sentence(tmp_path: Path) -> None:
    env = bot_env(None, tmp_path / "db.sqlite3")
    code, err = await _run([sys.executable, "-m", "bot"], env, tmp_path)
    assert code != 0
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "DISCORD_TOKEN" in lines[0]


async def test_rejected_token_is_one_sentence(fake: FakeDiscord, tmp_path: Path) -> None:
    env = bot_env(fake, tmp_path / "db.sqlite3", DISCORD_TOKEN="not.the.token")
    code, err = await _run([sys.executable, "-m", "bot"], env, tmp_path)
    assert code == 1, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Discord rejected the token" in lines[-1]
    # BUG: with the default LOG_LEVEL, discord.py's voice warnings (PyNaCl, davey) and
    # "logging in using static token" go to stderr before the sentence.
    assert len(lines) == 1, "stderr should be one sentence, not:\n" + err
    assert not fake.connected
