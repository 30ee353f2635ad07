"""Pytest fixtures/helpers: a started FakeDiscord, a bot running against it, log guards.

Use from a test module (or a conftest)::

    # importing the fixture functions registers fixtures "fake_discord" and "error_logs"
    from tests.fake_discord.fixtures import error_logs_fixture, fake_discord_fixture  # noqa: F401
    from tests.fake_discord.fixtures import running_bot

    @pytest.fixture
    async def bot(fake_discord, error_logs):
        async with running_bot(fake_discord, make_my_bot()) as b:
            yield b

Everything runs in the test's event loop; nothing ever contacts the real Discord
(``apply_discord_endpoints`` points discord.py at the fake for the duration).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import discord
import pytest

from bot.endpoints import apply_discord_endpoints, reset_discord_endpoints

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

#: loggers whose ERROR records fail a test
GUARDED_LOGGERS = ("discord", "bot", "cogs")


class ErrorLogCapture(logging.Handler):
    """Collects ERROR+ records from the guarded loggers."""

    def __init__(self, loggers: tuple[str, ...] = GUARDED_LOGGERS) -> None:
        super().__init__(level=logging.ERROR)
        self.loggers = loggers
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> None:
        for name in self.loggers:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in self.loggers:
            logging.getLogger(name).removeHandler(self)

    def clear(self) -> None:
        self.records.clear()

    def format_all(self) -> str:
        fmt = logging.Formatter("%(name)s %(levelname)s %(message)s")
        out = []
        for r in self.records:
            text = fmt.format(r)
            if r.exc_info:
                text += "\n" + fmt.formatException(r.exc_info)
            out.append(text)
        return "\n".join(out)

    def assert_clean(self) -> None:
        if self.records:
            raise AssertionError(f"ERROR log records during the test:\n{self.format_all()}")


@contextlib.contextmanager
def capture_error_logs(loggers: tuple[str, ...] = GUARDED_LOGGERS) -> Iterator[ErrorLogCapture]:
    """Context manager: fails (AssertionError on exit) if an ERROR was logged inside."""
    cap = ErrorLogCapture(loggers)
    cap.install()
    try:
        yield cap
    finally:
        cap.uninstall()
    cap.assert_clean()


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    client: ClientT,
    *,
    token: str | None = None,
    ready_timeout: float = 5.0,
    guild_ready_timeout: float = 0.05,
    check_unknown_routes: bool = True,
) -> AsyncIterator[ClientT]:
    """Run ``client`` against ``fake`` until it is ready; close it on exit.

    Raises whatever ``client.start`` raises before ready (e.g. ``discord.LoginFailure``).
    On exit, asserts the bot never hit a route the fake does not know.
    """
    apply_discord_endpoints(fake.api_base, fake.gateway_url)
    # discord.py waits this long after the last GUILD_CREATE before "ready" (default 2 s)
    client._connection.guild_ready_timeout = guild_ready_timeout
    task = asyncio.create_task(client.start(token or fake.token), name="fake-discord-bot")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # raises the start-up error
            raise AssertionError("bot stopped before becoming ready")
        if ready not in done:
            raise AssertionError(f"bot not ready within {ready_timeout}s")
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5.0)
        reset_discord_endpoints()
    if check_unknown_routes and fake.unknown_routes:
        routes = [f"{r.method} {r.path}" for r in fake.unknown_routes]
        raise AssertionError(f"bot called routes the fake does not implement: {routes}")


async def start_bot_expecting_failure(
    fake: FakeDiscord, client: discord.Client, token: str, timeout: float = 5.0
) -> BaseException:
    """Start ``client`` with ``token``; return the exception ``start`` raised."""
    apply_discord_endpoints(fake.api_base, fake.gateway_url)
    try:
        await asyncio.wait_for(client.start(token), timeout)
    except Exception as exc:  # noqa: BLE001 - returned to the caller
        return exc
    finally:
        await client.close()
        reset_discord_endpoints()
    raise AssertionError("client.start did not fail")


@pytest.fixture(name="fake_discord")
async def fake_discord_fixture() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with one guild, two text channels and four users."""
    fake = FakeDiscord()
    await fake.start()
    # safety net: anything discord.py does in this test goes to the fake
    apply_discord_endpoints(fake.api_base, fake.gateway_url)
    try:
        yield fake
    finally:
        await fake.stop()
        reset_discord_endpoints()


@pytest.fixture(name="error_logs")
def error_logs_fixture() -> Iterator[ErrorLogCapture]:
    """Fails the test (at teardown) if an ERROR was logged by discord/bot/cogs loggers.

    Call ``error_logs.clear()`` after provoking an error on purpose."""
    with capture_error_logs() as cap:
        yield cap


@pytest.fixture(name="discord_bot")
async def discord_bot_fixture(
    fake_discord: FakeDiscord, error_logs: ErrorLogCapture, bot_factory: Any
) -> AsyncIterator[discord.Client]:
    """The bot made by the ``bot_factory`` fixture (which the test module or conftest must
    define, returning a fresh, not yet started client), running against ``fake_discord``,
    with ERROR logs failing the test."""
    async with running_bot(fake_discord, bot_factory()) as client:
        yield client


def bot_intents() -> discord.Intents:
    """Intents a guild bot normally needs (no privileged ones)."""
    intents = discord.Intents.default()
    intents.message_content = False
    return intents


__all__: list[Any] = [
    "ErrorLogCapture",
    "bot_intents",
    "capture_error_logs",
    "discord_bot_fixture",
    "error_logs_fixture",
    "fake_discord_fixture",
    "running_bot",
    "start_bot_expecting_failure",
]
