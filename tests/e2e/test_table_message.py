"""The public table message is always there and current, within the request budget.

Through the strict fake Discord (tests/fake_discord): an hour-old table message (Discord
allows few edits of a message older than an hour, error 30046) and a deleted one (404
10008) are replaced by a fresh one at the bottom of the channel, the old one losing its
buttons; a table edit that meets a 503 or a dropped connection heals by itself; a burst of
changes across many tables meets no 429, stays within the budget in every second, and
every table message ends showing its table as it is. Each waits on what is shown, never
on a time or a count of edits."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.app import AmerikanerBot
from bot.tables.table import PAUSE_ABSENT, Table
from tests.e2e.driver import NAMES, ButtonDriver, choose_ai, open_table, table_message
from tests.e2e.harness import bot_running
from tests.e2e.test_rate_limits import expected, settle, shown
from tests.fake_discord import FakeDiscord
from tests.fake_discord.server import json_response


async def started_table(fake: FakeDiscord, bot: AmerikanerBot, channel: Any = None
                        ) -> tuple[Table, ButtonDriver]:
    """Four humans at a table in `channel`, its message showing the game."""
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 52},
                     channel)
    table = bot.tables.registry.in_channel(fake._channel(channel).id)
    assert table is not None
    await settle(fake, table)
    # Each player's hand panel is open, and refreshed from then on: the moves need no
    # table message.
    driver = ButtonDriver(fake, lambda: bot, channel, seed=7, refresh_share=1.0)
    for name in NAMES[:4]:
        await driver.open_hand(name)
    return table, driver


def refused(fake: FakeDiscord, code: int) -> list[Any]:
    return [r for r, error in fake.client_errors if error.get("code") == code]


async def test_an_hour_old_table_message_is_posted_afresh(fake: FakeDiscord,
                                                          bot: AmerikanerBot) -> None:
    """https://docs.discord.com/developers/topics/opcodes-and-status-codes (30046): a
    message older than an hour takes only a few more edits. The next change after the
    hour posts a fresh table message with the current state; the old one is
    deleted (issue 35: no stale copy stays); every change after that shows (old code:
    the old message is edited until Discord refuses, then stays stale)."""
    table, driver = await started_table(fake, bot)
    old = table.message_id
    assert old is not None
    fake.clock.advance(3601)
    for _ in range(6):  # more changes than Discord allows edits of an hour-old message
        await driver.step()
    await settle(fake, table)
    assert table.message_id != old
    fresh = fake.message(table.message_id)
    assert table_message(fake).id == fresh.id  # the live one, below the old one
    assert fresh.id > old
    # The old one is deleted after the fresh one is shown (its own request, at the
    # bot's pace): waited for, not raced. The bot's own message: no Manage Messages
    # needed (https://discord.com/developers/docs/resources/message#delete-message).
    await fake.wait_until(lambda: fake.message(old).deleted, 10,
                          "the old table message to be deleted")
    assert [m.id for m in fake.messages() if m.embeds] == [fresh.id]
    assert not refused(fake, 30046)


async def test_a_lobby_that_waited_an_hour_is_posted_afresh(fake: FakeDiscord,
                                                             bot: AmerikanerBot) -> None:
    """A lobby waits an hour for its players: the next click on it is answered without
    an edit (Discord would refuse the fourth, 30046), a fresh lobby is posted below, and
    the game starts from it (old code: the clicks edit the old lobby until Discord
    refuses one)."""
    new = await fake.slash("alice", None, "amerikaner new", {"players": 4})
    assert new.message is not None
    old = new.message.id
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    fake.clock.advance(3601)
    for name in ("bob", "carol", "dave"):
        lobby = next(m for m in reversed(fake.messages()) if m.buttons()
                     and any(b.get("label") == "Join" for b in m.buttons()))
        await fake.click_label(name, lobby, "Join")
        await fake.wait_until(lambda: table.message_id != old, 10, "a fresh lobby")
    await fake.click_label("alice", fake.message(table.message_id), "Start")
    await settle(fake, table)
    assert [seat.name for seat in table.seats] == ["alice", "bob", "carol", "dave"]
    assert table_message(fake).id == table.message_id != old
    await fake.wait_until(lambda: fake.message(old).deleted, 10,
                          "the old lobby to be deleted")
    assert not refused(fake, 30046)


async def test_a_deleted_table_message_is_posted_again(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    """A moderator deletes the table message: the next change posts it again, with the
    current state (old code: every edit meets 404 10008 until the next deal)."""
    table, driver = await started_table(fake, bot)
    old = table.message_id
    assert old is not None
    fake.message(old).deleted = True  # https://docs.discord.com/developers/resources/message#delete-message
    await driver.step()
    await settle(fake, table)
    assert table.message_id != old and not fake.message(table.message_id).deleted
    assert table_message(fake).id == table.message_id
    # The edit that found it gone, refused as Discord refuses it, and nothing else.
    assert {r.path for r in refused(fake, 10008)} == {f"/channels/{fake.channel.id}/messages/{old}"}
    fake.client_errors.clear()


Fault = Callable[[web.Request], Awaitable[web.StreamResponse]]


def break_table_edits(fake: FakeDiscord, table: Table, times: int, fault: Fault
                      ) -> list[int]:
    """The next `times` edits of the table's message meet `fault`; returns a list that
    grows by one at each fault served."""
    served: list[int] = []
    serve = fake._serve

    async def faulty(request: web.Request, sub: str, *args: Any) -> web.StreamResponse:
        if (request.method == "PATCH" and len(served) < times
                and sub == f"/channels/{table.channel_id}/messages/{table.message_id}"):
            served.append(1)
            return await fault(request)
        return await serve(request, sub, *args)

    fake._serve = faulty  # type: ignore[method-assign]
    return served


async def unavailable(request: web.Request) -> web.StreamResponse:
    """Discord's edge when the service is down for a moment."""
    return json_response({"message": "Service Unavailable", "code": 0}, 503)


async def dropped(request: web.Request) -> web.StreamResponse:
    """The connection closes under the request: the bot's HTTP client sees the server
    disconnect, with no answer."""
    assert request.transport is not None
    request.transport.close()
    return json_response({"message": "never sent"}, 503)


async def internal_error(request: web.Request) -> web.StreamResponse:
    """A failure of Discord's own: discord.py tries a 500 (502, 504, 524) again by
    itself, sleeping 1, 3, 5, 7 s (discord/http.py), where a 503 comes back at once."""
    return json_response({"message": "500: Internal Server Error", "code": 0}, 500)


@pytest.mark.parametrize("fault", [unavailable, internal_error, dropped],
                         ids=["503", "500", "dropped"])
async def test_a_failed_table_edit_heals(fake: FakeDiscord, bot: AmerikanerBot,
                                         fault: Fault, caplog: pytest.LogCaptureFixture
                                         ) -> None:
    """The edit after a move fails (twice): it is tried again, within the budget, until
    the message shows the move, with no further change to push it (old code: a 503 or a
    dropped connection left the message stale until the next move, and the dropped
    connection's exception was never retrieved). Each failure comes back to the edit
    queue, which tries again with its own backoff and the table's state of the moment:
    discord.py tries none of them again itself (old code: a 500 was tried inside
    discord.py after sleeping 1 s, then 3 s, the queue never knowing). Each is logged in
    one line, without a traceback: a failure of Discord's is expected."""
    table, driver = await started_table(fake, bot)
    edits = bot.get_cog("Tables").messages.edits  # type: ignore[union-attr]
    failed = edits.failed
    served = break_table_edits(fake, table, 2, fault)
    await driver.step()
    await fake.wait_until(lambda: len(served) == 2, 10, "both faults")
    await settle(fake, table, timeout=15)
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    assert edits.failed - failed == 2
    noted = [r for r in caplog.records if "was not edited" in r.getMessage()]
    assert noted and not [r for r in noted if r.exc_info], noted


async def test_a_post_that_meets_a_503_then_a_dropped_connection_goes_out(
        fake: FakeDiscord, bot: AmerikanerBot, caplog: pytest.LogCaptureFixture) -> None:
    """The table message is deleted; its fresh post (the outbox's, with a nonce) meets a
    503, then a dropped connection: the outbox tries again and it goes out once. Each
    failure is expected now and then and is logged in one line, without a traceback
    (old code: a whole traceback for each)."""
    table, driver = await started_table(fake, bot)
    old = table.message_id
    assert old is not None
    faults = [unavailable, dropped]
    served: list[int] = []
    serve = fake._serve

    async def faulty(request: web.Request, sub: str, path: str, body: Any, *args: Any
                     ) -> web.StreamResponse:
        if (request.method == "POST" and served != [1, 1]
                and sub == f"/channels/{table.channel_id}/messages"
                and isinstance(body, dict) and body.get("nonce")):
            served.append(1)
            return await faults[len(served) - 1](request)
        return await serve(request, sub, path, body, *args)

    fake._serve = faulty  # type: ignore[method-assign]
    fake.message(old).deleted = True  # https://docs.discord.com/developers/resources/message#delete-message
    await driver.step()
    await fake.wait_until(lambda: len(served) == 2, 10, "both faults")
    await settle(fake, table, timeout=15)
    assert table.message_id != old and table_message(fake).id == table.message_id
    noted = [r for r in caplog.records if "could not post" in r.getMessage()]
    assert len(noted) == 2 and not [r for r in noted if r.exc_info], noted
    fake.client_errors.clear()  # the edit that found it gone (10008), as in the test above


async def test_a_burst_across_tables_stays_within_the_budget(tmp_path: Path,
                                                             error_logs: Any) -> None:
    """Eight tables of one human and three AIs, the humans away so the AI plays on at
    full speed: with a budget of 10 requests a second, no 429 ever, no second with more
    than 10 counted requests at the fake, and every table message ends showing its
    table as it is (old code: no budget, so the burst goes over 10 a second)."""
    budget = 10
    tables = 8
    fake = FakeDiscord(user_names=[f"p{i}" for i in range(tables)],
                       channel_names=[f"t{i}" for i in range(tables)])
    await fake.start()
    try:
        async with bot_running(fake, tmp_path / "db.sqlite3", request_budget=budget,
                               ai_delay=0.05) as bot:
            bot.tables.shared.rng = random.Random(5)
            channels = fake.guild.text_channels
            live: list[Table] = []
            for user, channel in zip(fake.users, channels, strict=True):
                new = await fake.slash(user, channel, "amerikaner new",
                                       {"players": 4, "target": 52})
                assert new.message is not None
                await choose_ai(fake, user, fake.message(new.message), "fill")
                await fake.click_label(user, fake.message(new.message), "Start")
                table = bot.tables.registry.in_channel(channel.id)
                assert table is not None
                live.append(table)
            # Every human hands their seat to the AI: a burst of changes everywhere.
            await asyncio.gather(*(fake.slash(user, channel, "amerikaner away")
                                   for user, channel in zip(fake.users, channels,
                                                            strict=True)))
            # A table of absent humans waits for one (issue 35); this burst is of AI play
            # at full speed, so the wait is lifted here, as a member's return would.
            for table in live:
                await bot.tables.pauses.resume(table.id, PAUSE_ABSENT)
            await fake.wait_until(lambda: all(t.version >= 30 for t in live), 60,
                                  "thirty moves at every table")
            for table in live:  # the humans take their seats back: the play stops
                await fake.slash(fake.users[live.index(table)], table.channel_id,
                                 "amerikaner back")
            for table in live:
                await fake.wait_until(lambda t=table: shown(fake, t) == expected(t), 60,
                                      f"table {table.id} to show its state")
            assert not fake.rate_limited, [(r.method, r.path) for r in fake.rate_limited]
            times = sorted(r.time for r in fake.global_requests())
            busiest = max(sum(1 for t in times[i:] if t - start < 1.0)
                          for i, start in enumerate(times))
            assert busiest <= budget, f"{busiest} counted requests in one second"
    finally:
        await fake.stop()
