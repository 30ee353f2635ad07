"""A table's channel and server coming and going (issue 37), as Discord does it
(tests/fake_discord/lifecycle.py, each rule cited there): the bot's rights in the
channel taken away mid-game and given back, the channel deleted, the bot removed from
the server and added back, the table's thread archived.

What must hold: no post is dropped (every hand's summary and the final standings out
once, in order, once the rights are back); while the channel or the server is away the
table waits (no AI move, no timer, nothing rated); a table whose channel is gone is
ended from /games and its standings reach the members by DM; the invalid requests
(401, 403, 429: Discord restricts an IP at 10,000 in 10 minutes,
https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans)
stay a handful.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.store import PostRow
from bot.tables.table import (
    CANCELLED,
    PAUSE_ABSENT,
    PAUSE_CHANNEL,
    PAUSE_GUILD,
    POST_HAND_SUMMARY,
    Table,
)
from tests.e2e.driver import check_finished_game, choose_ai, wait_game_over
from tests.fake_discord import SEND_MESSAGES, FakeDiscord
from tests.fake_discord.permissions import Overwrite


async def ai_table(fake: FakeDiscord, bot: AmerikanerBot, channel: Any = None, *,
                   humans: tuple[str, ...] = ("alice",), target: int = 12,
                   thread: bool = False, aged: float = 0.0,
                   before_play: Callable[[Table], None] | None = None) -> Table:
    """A table of `humans` and AIs, every human away: the AI plays it at full speed
    (after `aged` seconds on the fake's clock, the table waiting meanwhile, and
    `before_play(table)`)."""
    host = humans[0]
    new = await fake.slash(host, channel, "amerikaner new",
                           {"players": 4, "target": target, "thread": thread})
    if thread:
        await fake.wait_until(lambda: new.followups, what="the link to the thread")
        made = max(fake.threads(channel or fake.channel), key=lambda t: t.id)  # the new one
        channel = made
        lobby = next(m for m in fake.messages(made) if m.buttons())
    else:
        assert new.message is not None
        lobby = fake.message(new.message)
    for name in humans[1:]:
        await fake.click_label(name, fake.message(lobby.id), "Join")
    await choose_ai(fake, host, fake.message(lobby.id), "fill")
    await fake.click_label(host, fake.message(lobby.id), "Start")
    channel_id = getattr(channel, "id", None) or fake.channel.id
    table = bot.tables.registry.in_channel(channel_id)
    assert table is not None and table.stage == "playing"
    for name in humans:
        await fake.slash(name, channel, "amerikaner away")
    # Every human away pauses a table (issue 35: no AI-only finish); these tests want
    # the AI playing at full speed, so the absent pause is lifted by hand.
    await fake.wait_until(lambda: PAUSE_ABSENT in table.paused, 10, "the absent pause")
    if aged:  # once the table message shows the pause (an edit before it is too old)
        await bot.get_cog("Tables").messages.edits.idle()  # type: ignore[union-attr]
        await bot.outbox.idle()
        await time_passes(fake, bot, aged)
    if before_play is not None:
        before_play(table)
    await bot.tables.pauses.resume(table.id, PAUSE_ABSENT)
    return table


async def time_passes(fake: FakeDiscord, bot: AmerikanerBot, seconds: float) -> None:
    """The fake's clock moves on (a waiting table has no clock running: no turn timer
    sleeps and no AI turn is scheduled, as tests/tables/test_days.py checks of the service;
    a table all its members left has one clock, its end 7 days on: issue 50)."""
    fake.clock.advance(seconds)
    await asyncio.sleep(0.1)  # (any sleeper woken by the move has looked at the clock)
    assert not bot.tables.registry.ai_tasks
    for table_id in bot.tables.registry.timers:
        waiting = bot.tables.registry.get(table_id)
        assert waiting is not None and PAUSE_ABSENT in waiting.paused, table_id


def refused_there(fake: FakeDiscord, channel_id: int) -> int:
    """The refusals the fake gave the bot in `channel_id` (403 and 404, what the test
    brings about): taken off the fake's list of refused requests, which the `answered`
    fixture wants empty; how many."""
    mine = [(r, e) for r, e in fake.client_errors
            if r.path.startswith(f"/channels/{channel_id}")
            and (r.status in (403, 404) or e.get("code") == 50083)]
    fake.client_errors[:] = [x for x in fake.client_errors if x not in mine]
    return len(mine)


@pytest.mark.parametrize("heard", ["event", "own-role", "interaction"])
async def test_rights_revoked_mid_game_and_restored(fake: FakeDiscord, bot: AmerikanerBot,
                                                    heard: str) -> None:
    """The bot's role may no longer post in the channel mid-game, then may again: the
    table waits meanwhile, and every hand's summary and the final standings go out once,
    in order, after (old code: each refused post was dropped for good, 403 after 403).
    `event`: the bot hears of both changes (CHANNEL_UPDATE); `own-role`: a moderator
    gives the bot a role the channel mutes, and takes it away, and the bot hears of its
    own member's roles (GUILD_MEMBER_UPDATE, sent for the bot's own member without the
    members intent; old code: no listener, a 403, and the table waited for an
    interaction); `interaction`: it hears of neither (changed without an event), meets the
    403 once, and learns its rights are back from the next interaction in the channel
    (`app_permissions`)."""
    table = await ai_table(fake, bot, target=40)
    await fake.wait_until(lambda: table.game is not None and len(table.game.hands) >= 2,
                          60, "the second hand")
    bot_id = fake.bot_user.id
    muted = await fake.add_role("muted")
    fake.channel.overwrites[muted.id] = Overwrite(muted.id, 0, 0, SEND_MESSAGES)
    if heard == "event":
        await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES)
    elif heard == "own-role":
        await fake.set_member_roles(bot_id, [muted.id])
    else:  # changed without a word to the bot
        fake.channel.overwrites[bot_id] = Overwrite(bot_id, 1, 0, SEND_MESSAGES)
    if heard in ("event", "own-role"):
        # It heard: the table waits at once, without a single refused request.
        await fake.wait_until(lambda: PAUSE_CHANNEL in table.paused, 30, "the table to wait")
    else:
        # It meets one 403 (the AI, at full speed, may have finished the game before
        # the posts caught up: then only the posts wait).
        await fake.wait_until(lambda: fake.invalid_total, 30, "a refused request")
        await fake.wait_until(lambda: PAUSE_CHANNEL in table.paused
                              or table.stage == "finished", 30, "the table to wait")
    await bot.outbox.idle()
    version, shown = table.version, len(fake.messages())
    await time_passes(fake, bot, 2 * 86400)  # two days: no timer, no AI move
    assert table.version == version and len(fake.messages()) == shown
    assert fake.invalid_total <= 2, fake.invalid_total
    if heard == "event":
        await fake.set_bot_permissions(fake.channel)
    elif heard == "own-role":
        await fake.set_member_roles(bot_id, [])
    else:
        del fake.channel.overwrites[bot_id]
        it = await fake.slash("alice", None, "amerikaner score")
        assert it.callback.ephemeral
    await wait_game_over(fake, table, 90)
    assert not table.paused
    await check_finished_game(fake, table)  # every summary once, in order; the final
    assert fake.invalid_total <= 2, fake.invalid_total
    assert refused_there(fake, table.channel_id) == fake.invalid_total


async def test_a_deleted_channel_pauses_then_ends_from_games(fake: FakeDiscord,
                                                             bot: AmerikanerBot) -> None:
    """The table's channel is deleted mid-game: the table waits (its AI does not play
    on), its members end it from /games (old code: "There is no table in this channel"
    everywhere, and the table played on for nobody), the standings reach both seated
    members by DM, nothing is rated, and the bot never writes to the deleted channel."""
    room = await fake.add_channel("cards")
    table = await ai_table(fake, bot, room, humans=("alice", "bob"), target=52)
    await fake.wait_until(lambda: table.version >= 10, 60, "ten moves")
    await fake.delete_channel(room)
    sent = len(fake.requests)
    await fake.wait_until(lambda: PAUSE_CHANNEL in table.paused, 30, "the table to wait")
    version = table.version
    await time_passes(fake, bot, 86400)
    assert table.version == version
    it = await fake.slash("alice", None, "games")
    assert it.message is not None
    listed = fake.message(it.message.id)
    end = await fake.click_label("alice", listed, "1. End the table")
    assert end.callback.ephemeral, end.callback.data
    assert end.message is not None  # it asks first (issue 52): yes
    end = await fake.click_label("alice", fake.message(end.message), "Yes, end the table")
    assert table.stage == CANCELLED
    for name in ("alice", "bob"):
        await fake.wait_until(lambda n=name: any(m.embeds for m in fake.dm_messages(n)),
                              15, f"{name}'s standings")
        (dm,) = [m for m in fake.dm_messages(name) if m.embeds]
        assert "is gone" in (dm.content or "")
        shown = str(dm.embeds[0])  # the standings: every seat, with its points
        assert all(f"{points} pts" in shown for points in table.game.totals), shown
        assert "alice" in shown and "bob" in shown
    board = await fake.slash("alice", None, "amerikaner leaderboard")
    assert "alice" not in (board.message.embeds[0].get("description", "")
                           if board.message and board.message.embeds else "")
    # At most one request meets the deleted channel (one already on its way).
    assert len([r for r in fake.requests[sent:]
                if r.path.startswith(f"/channels/{room.id}")]) <= 1
    assert fake.invalid_total == 0
    refused_there(fake, room.id)


@pytest.mark.parametrize("away", ["removed", "outage"])
async def test_the_bot_removed_and_added_back(fake: FakeDiscord, bot: AmerikanerBot,
                                              away: str) -> None:
    """The bot is kicked from the server mid-game (GUILD_DELETE without `unavailable`),
    or the server is away in an outage (with `unavailable: true`): its tables there wait,
    two days pass, nothing moves, nobody is rated, and no request goes to the server
    (old code: the turn timers and the AI played on and every post was refused). Added
    back, or available again (GUILD_CREATE), the table plays on where it was, to its
    end, every summary posted. (What Discord answers a request to a server in an outage
    is not documented: the fake need not say, as the bot makes none.)"""
    table = await ai_table(fake, bot, target=40)
    await fake.wait_until(lambda: table.game is not None and len(table.game.hands) >= 2,
                          60, "the second hand")
    if away == "removed":
        await fake.remove_bot()
    else:
        await fake.guild_outage()
    await fake.wait_until(lambda: PAUSE_GUILD in table.paused, 30, "the table to wait")
    await bot.outbox.idle()
    sent = len(fake.requests)
    await fake.wait_until(lambda: PAUSE_GUILD in table.paused, 30, "the table to wait")
    version = table.version
    await time_passes(fake, bot, 2 * 86400)
    assert table.version == version  # nothing played, so nothing rated
    assert not [r for r in fake.requests[sent:] if r.path.startswith("/channels/")]
    if away == "removed":
        await fake.add_bot()
    else:
        await fake.guild_back()
    await wait_game_over(fake, table, 90)
    assert not table.paused
    await check_finished_game(fake, table)
    assert fake.invalid_total <= 2, fake.invalid_total
    refused_there(fake, table.channel_id)


async def test_an_archived_thread_is_unarchived(fake: FakeDiscord, bot: AmerikanerBot
                                                ) -> None:
    """The table's thread is archived mid-game (a day without a new message: Discord's
    auto-archive; edits are no activity): the bot unarchives it (Discord allows it with
    Send Messages unless the thread is locked) and the game plays on to its end (old
    code: every edit was refused with 50083 and the table stayed stale). A locked
    thread it may not open: that table waits."""
    table = await ai_table(fake, bot, thread=True, target=30)
    (thread,) = fake.threads(fake.channel)
    await fake.wait_until(lambda: table.game is not None and len(table.game.hands) >= 2,
                          60, "the second hand")
    await fake.archive_thread(thread)
    await wait_game_over(fake, table, 90)
    await check_finished_game(fake, table, thread)
    assert len([e for r, e in fake.client_errors if e.get("code") == 50083]) <= 2

    other = await ai_table(fake, bot, thread=True, humans=("bob",))
    locked = next(t for t in fake.threads(fake.channel) if t.id == other.channel_id)
    await fake.archive_thread(locked, locked=True)
    await fake.wait_until(lambda: PAUSE_CHANNEL in other.paused, 30, "the table to wait")
    await bot.outbox.idle()
    assert refused_there(fake, locked.id) <= 2
    refused_there(fake, thread.id)


async def test_posts_held_past_the_end_of_an_old_table_delete_its_message_once(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """The table message is too old to edit (the table waited two hours) and the
    game's posts are held until it is over (as the channel's rate limit, 5 posts in
    5 s, holds them while the AI plays a hand in less): the table messages of the later
    hands are then not posted (the game is over), the first hand's summary is posted
    apart and the old table message deleted, and each later summary posted apart. The
    old message is deleted once, not again at every later summary (a CI run saw four
    more DELETEs answered 10008 Unknown Message), and the channel keeps no message with
    the table's buttons (the final standings wait, wait_game_over, checks it)."""
    send = bot.outbox.send
    assert send is not None
    held: list[str] = []
    playing: list[Table] = []

    async def held_until_the_end(row: PostRow) -> int | None:
        held.append(row.kind)
        while playing[0].stage == "playing":
            await asyncio.sleep(0.02)
        assert send is not None
        return await send(row)

    def hold_posts(table: Table) -> None:
        playing.append(table)
        bot.outbox.send = held_until_the_end

    table = await ai_table(fake, bot, target=12, aged=2 * 3600.0, before_play=hold_posts)
    old = table.message_id
    await wait_game_over(fake, table, 120)
    await bot.outbox.idle()
    assert table.game is not None and len(table.game.hands) >= 2
    assert held.count(POST_HAND_SUMMARY) == len(table.game.hands), held
    assert table.message_id == old and fake.message(old).deleted
    deletes = fake.requests_to("DELETE", rf"/channels/{table.channel_id}/messages/")
    assert [r.status for r in deletes] == [204], deletes
    await check_finished_game(fake, table)  # every summary once, in order; the final


@pytest.mark.parametrize("fault", ["503", "dropped"])
async def test_failed_posts_lose_no_summary(fake: FakeDiscord, bot: AmerikanerBot,
                                            fault: str) -> None:
    """The posts of a channel fail for a while (503s, or the connection dropped under
    them) as a hand ends: more tries than the outbox makes in a row, so the next hand's
    table message waits for the next kick while the game plays on. No hand's summary is
    lost: none is edited over by a later hand's table or summary, and every one is shown
    once, in order (old code: the mark that the old table message showed a summary was
    dropped at the first failed try of the fresh one, and the next edit of the table
    wrote the live table over the summary)."""
    from aiohttp import web

    from tests.fake_discord.server import json_response

    bot.outbox.retry_delay = 0.01
    table = await ai_table(fake, bot, target=30)
    faults: list[int] = []
    serve = fake._serve

    async def faulty(request: web.Request, sub: str, *args: Any) -> web.StreamResponse:
        if request.method == "POST" and sub == f"/channels/{table.channel_id}/messages" \
                and len(faults) < 12 and table.game is not None and len(table.game.hands) >= 2:
            faults.append(1)
            if fault == "dropped":
                assert request.transport is not None
                request.transport.close()
            return json_response({"message": "Service Unavailable", "code": 0}, 503)
        return await serve(request, sub, *args)

    fake._serve = faulty  # type: ignore[method-assign]
    await fake.wait_until(lambda: len(faults) >= 12, 60, "the failed posts")
    await wait_game_over(fake, table, 120)
    await check_finished_game(fake, table)  # every summary once, in order; the final
