"""Issue 50 item 2, through the fake Discord on its clock: no exit avoids a loss, and
nobody's act costs someone else (README, "Ratings"). A table its only members left
(`away`, or a timeout with on-timeout seat) ends ABANDON_AFTER later, the deal under way
a forfeit for those who left it, and its channel is free again; a cancel is a forfeit
only for who cancelled, if the deal was theirs (a host away when it began, or a
moderator not seated, costs nobody anything), so repeated cancels farm nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.tables.ratings import MODEL
from bot.tables.table import ABANDON_AFTER, PAUSE_ABSENT, Table
from tests.e2e.driver import LeakChecker
from tests.e2e.test_fair_ratings import MINUTE, _open, _polled, _rating
from tests.fake_discord import FakeDiscord

HOUR = 3600.0
MANAGE_GUILD = 0x20  # https://discord.com/developers/docs/topics/permissions


@pytest.fixture
def leaks(fake: FakeDiscord) -> LeakChecker:
    """Not installed, as in tests/e2e/test_fair_ratings.py (which says why): a timeout's
    notice is posted after the AI has played on, where its card may be hidden again."""
    return LeakChecker(fake)


async def _log(bot: AmerikanerBot, table: Table) -> list[Any]:
    """The table's rating log (every rated match, forfeits included)."""
    return list((await bot.store.rating_logs()).get(table.id, ("", []))[1])


async def _ends_abandoned(fake: FakeDiscord, bot: AmerikanerBot, table: Table) -> None:
    """The table waits for its members (PAUSE_ABSENT) and plays nothing; an hour before
    the stated time it still waits; at it, it ends, and says why in the channel."""
    await fake.wait_until(lambda: PAUSE_ABSENT in table.paused, 30, "the absent pause")
    version = table.version
    naps = fake.clock.naps
    fake.clock.advance(ABANDON_AFTER - HOUR)
    await _polled(lambda: fake.clock.naps > naps or table.stage != "playing",
                  "the abandon timer to look at the clock")
    assert table.stage == "playing" and table.version == version
    fake.clock.advance(2 * HOUR)
    await fake.wait_until(lambda: table.stage == "cancelled", 30, "the table to end")
    await fake.wait_until(lambda: any("every player had left it for 7 days"
                                      in (m.content or "") for m in fake.messages()),
                          30, "the post saying why the game ended")


async def _channel_is_free(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """Another member opens a table in the same channel."""
    new = await fake.slash("dave", None, "amerikaner new", {"players": 3})
    assert new.message is not None, new.content
    assert bot.tables.registry.in_channel(fake.channel.id) is not None


async def test_the_lone_members_away_ends_as_a_forfeit_and_frees_the_channel(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """alice, alone with two AI players, goes away in the middle of a deal: today the
    table paused for good, unrated, holding the channel."""
    table = await _open(fake, bot, "amerikaner", ["alice"], {}, ["easy", "easy"])
    away = await fake.slash("alice", None, "amerikaner away")
    assert away.callback.ephemeral
    await _ends_abandoned(fake, bot, table)
    log = await _log(bot, table)
    assert [entry.forfeit for entry in log] == [True], log
    assert log[-1].seats[0] == fake.user("alice").id and 0 not in log[-1].absent
    row = await _rating(bot, fake, table, "alice")
    assert row is not None and row.mu < MODEL.initial().mu and row.hands == 0
    await _channel_is_free(fake, bot)


async def test_the_lone_members_timeout_ends_as_a_forfeit_and_frees_the_channel(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """alice lets her one-minute turn run out with on-timeout seat: the AI plays that
    turn and takes her seat, the table waits for her, then ends as her forfeit."""
    table = await _open(fake, bot, "american", ["alice"],
                        {"turn_timer": "1", "on_timeout": "seat"}, ["easy"])
    await _polled(lambda: table.to_act == 0 and fake.clock.sleepers >= 1,
                  "alice's turn and its clock")
    fake.clock.advance(2 * MINUTE)
    await fake.wait_until(lambda: table.seats[0].away, 30, "the timeout")
    await _ends_abandoned(fake, bot, table)
    log = await _log(bot, table)
    assert log and log[-1].forfeit and 0 not in log[-1].absent, log
    assert log[-1].seats[0] == fake.user("alice").id
    row = await _rating(bot, fake, table, "alice")
    assert row is not None and row.mu < MODEL.initial().mu
    await _channel_is_free(fake, bot)


async def test_a_host_away_when_the_deal_began_cancels_at_no_ones_cost(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """alice (host) goes away; bob plays the first deal out; in the next, which began
    without her, she cancels: nobody is rated a forfeit (today bob took a loss, she
    nothing)."""
    table = await _open(fake, bot, "american", ["alice", "bob"],
                        {"turn_timer": "1", "on_timeout": "play", "target": 10}, ["easy"])
    await fake.slash("alice", None, "american away")
    # bob's turns run out one by one (the AI plays them) until the first deal is rated.
    while not table.kind.rating_matches(table.game):
        await _polled(lambda: bool(table.kind.rating_matches(table.game))
                      or fake.clock.sleepers >= 1, "bob's turn clock")
        if table.kind.rating_matches(table.game):
            break
        naps = fake.clock.naps
        fake.clock.advance(2 * MINUTE)
        await _polled(lambda n=naps: fake.clock.naps > n
                      or bool(table.kind.rating_matches(table.game)), "the timeout")
    assert table.stage == "playing"
    bob_before = await _rating(bot, fake, table, "bob")
    rated = len(await _log(bot, table))
    it = await fake.slash("alice", None, "american cancel")
    assert not it.callback.ephemeral, it.callback.data
    assert table.stage == "cancelled"
    log = await _log(bot, table)
    assert len(log) == rated and not any(entry.forfeit for entry in log), log
    assert await _rating(bot, fake, table, "bob") == bob_before


async def test_an_unseated_moderator_cancels_before_any_card_at_no_ones_cost(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """frank, who may manage the server and sits nowhere, cancels alice's and bob's
    table as soon as it starts, before either of them played a card or a bid: no
    rating at all (today both took a loss)."""
    role = await fake.add_role("moderators", permissions=MANAGE_GUILD)
    await fake.set_member_roles(fake.user("frank").id, [role.id])
    table = await _open(fake, bot, "amerikaner", ["alice", "bob"], {}, ["easy"])
    it = await fake.slash("frank", None, "amerikaner cancel")
    assert not it.callback.ephemeral, it.callback.data
    assert table.stage == "cancelled"
    assert await _log(bot, table) == []
    assert await _rating(bot, fake, table, "alice") is None
    assert await _rating(bot, fake, table, "bob") is None


async def test_repeated_cancels_cost_the_host_alone(fake: FakeDiscord,
                                                    bot: AmerikanerBot) -> None:
    """alice opens three tables with bob and cancels each in its first deal: each is a
    forfeit for her alone; bob, who did nothing, is never rated (today three losses)."""
    means = []
    for _ in range(3):
        table = await _open(fake, bot, "amerikaner", ["alice", "bob"], {}, ["easy"])
        it = await fake.slash("alice", None, "amerikaner cancel")
        assert not it.callback.ephemeral, it.callback.data
        log = await _log(bot, table)
        bob = table.seat_of(fake.user("bob").id)
        assert [entry.forfeit for entry in log] == [True] and bob in log[0].absent, log
        assert await _rating(bot, fake, table, "bob") is None
        alice = await _rating(bot, fake, table, "alice")
        assert alice is not None
        means.append(alice.mu)
    assert means == sorted(means, reverse=True) and means[0] > means[-1], means
