"""The outbox: posts committed with a change are sent after it, in order, each once, and
what a crash left unsent is sent after a restart; a stop lets the posts under way end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import Post, PostRow, SeatInfo, Store
from bot.tables.outbox import Outbox, post_nonce
from tests.store_backends import GAME, Database

RULES = {"preset": "amerikaner", "players": 3, "options": {}}
SEATS = [SeatInfo(seat=i, user_id=100 + i, display_name=f"p{i}") for i in range(3)]


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Store]:
    """The outbox on each backend's store in turn."""
    store = await database.open()
    yield store
    await store.close()


async def _game(store: Store, channel: int, posts: list[Post], guild: int = 1) -> int:
    game_id = await store.create_game(guild, channel, 100, RULES, 0, SEATS, {}, game=GAME)
    await store.add_hand(game_id, 0, {"deal": [["AS"], ["KS"], ["QS"]]})
    await store.record_action(game_id, 0, 0, {"seat": 1, "action": "pass"}, posts=posts)
    return game_id


class Channel:
    """Stands in for Discord: keeps what was sent, can fail the first tries."""

    def __init__(self, failures: int = 0, refuse: str | None = None) -> None:
        self.sent: list[tuple[int, str, dict]] = []
        self.failures = failures
        self.refuse = refuse
        self.nonces: dict[str, int] = {}

    async def send(self, row: PostRow) -> int | None:
        await asyncio.sleep(0)
        if self.failures:
            self.failures -= 1
            raise ConnectionError("Discord is away")
        if row.kind == self.refuse:
            return None
        nonce = post_nonce(row)
        if nonce not in self.nonces:  # as Discord with enforce_nonce
            self.sent.append((row.game_id, row.kind, row.params))
            self.nonces[nonce] = len(self.sent)
        return 1000 + self.nonces[nonce]


async def test_posts_go_out_in_order_once_and_are_marked(store: Store) -> None:
    posts = [Post("hand_summary", {"hand_index": 0}), Post("table_message")]
    game = await _game(store, 7, posts)
    assert [r.kind for r in await store.pending_posts(game)] == ["hand_summary",
                                                                  "table_message"]
    channel = Channel()
    outbox = Outbox(store, channel.send)
    outbox.kick(game)
    outbox.kick(game)  # a second kick while the first works does not post twice
    await outbox.idle()
    assert channel.sent == [(game, "hand_summary", {"hand_index": 0}),
                            (game, "table_message", {})]
    assert await store.pending_posts() == []


async def test_a_failing_post_is_tried_again_and_a_refused_one_given_up(store: Store) -> None:
    game = await _game(store, 7, [Post("hand_summary", {"hand_index": 0}), Post("timeout")])
    channel = Channel(failures=2, refuse="timeout")
    outbox = Outbox(store, channel.send, retry_delay=0.001)
    outbox.kick(game)
    await outbox.idle()
    assert channel.sent == [(game, "hand_summary", {"hand_index": 0})]
    assert await store.pending_posts() == []  # the refused one is not tried forever


async def test_a_post_that_keeps_failing_stays_pending_and_holds_back_the_rest(
        store: Store) -> None:
    game = await _game(store, 7, [Post("hand_summary", {"hand_index": 0}),
                                  Post("final_standings")])
    channel = Channel(failures=100)
    outbox = Outbox(store, channel.send, retry_delay=0.0001)
    outbox.kick(game)
    await outbox.idle()
    assert [r.kind for r in await store.pending_posts()] == ["hand_summary",
                                                              "final_standings"]
    assert channel.sent == []


async def test_after_a_restart_everything_pending_is_posted_once(store: Store) -> None:
    first = await _game(store, 7, [Post("hand_summary", {"hand_index": 0})])
    second = await _game(store, 8, [Post("final_standings")])
    channel = Channel()
    # A post made before the crash, but not marked: Discord keeps its nonce.
    [made] = await store.pending_posts(first)
    await channel.send(made)
    outbox = Outbox(store, channel.send)
    await outbox.drain_all()
    await outbox.idle()
    assert sorted(channel.sent) == sorted([(first, "hand_summary", {"hand_index": 0}),
                                           (second, "final_standings", {})])
    assert await store.pending_posts() == []


async def test_a_stop_lets_the_post_under_way_finish_and_takes_no_more(store: Store) -> None:
    game = await _game(store, 7, [Post("hand_summary", {"hand_index": 0})])
    started, finish = asyncio.Event(), asyncio.Event()
    sent: list[str] = []

    async def slow(row: PostRow) -> int:
        started.set()
        await finish.wait()
        sent.append(row.kind)
        return 1

    outbox = Outbox(store, slow)
    outbox.kick(game)
    await started.wait()
    stopping = asyncio.create_task(outbox.close(timeout=5))
    await asyncio.sleep(0.01)
    finish.set()
    await stopping
    assert sent == ["hand_summary"] and await store.pending_posts() == []
    other = await _game(store, 8, [Post("final_standings")])
    outbox.kick(other)  # closed: left for the next start
    await asyncio.sleep(0.01)
    assert [r.kind for r in await store.pending_posts()] == ["final_standings"]


def test_nonces_fit_discord_and_differ_between_posts_and_databases() -> None:
    a = PostRow(1, 1, 1, "hand_summary", {}, 1_700_000_000.123)
    b = PostRow(2, 1, 1, "hand_summary", {}, 1_700_000_000.123)
    again = PostRow(1, 1, 1, "hand_summary", {}, 1_700_000_555.0)  # a new database
    assert post_nonce(a) == post_nonce(a) and len(post_nonce(a)) <= 25
    assert len({post_nonce(a), post_nonce(b), post_nonce(again)}) == 3
    big = PostRow(10**15, 1, 1, "x", {}, 9_999_999_999.999)
    assert len(post_nonce(big)) <= 25


async def test_each_process_drains_only_the_posts_of_its_own_guilds(store: Store) -> None:
    """Two processes on one database, each owning some guilds (their shards): after a
    restart each posts its own games' leftovers, and together they post each one once."""
    even = await _game(store, 7, [Post("hand_summary", {"hand_index": 0})], guild=2)
    odd = await _game(store, 8, [Post("final_standings")], guild=3)
    channel = Channel()
    first = Outbox(store, channel.send, owns_guild=lambda guild: guild % 2 == 0)
    await first.drain_all()
    await first.idle()
    assert channel.sent == [(even, "hand_summary", {"hand_index": 0})]
    assert [r.game_id for r in await store.pending_posts()] == [odd]
    second = Outbox(store, channel.send, owns_guild=lambda guild: guild % 2 == 1)
    await second.drain_all()
    await second.idle()
    assert channel.sent == [(even, "hand_summary", {"hand_index": 0}),
                            (odd, "final_standings", {})]
    assert await store.pending_posts() == []
