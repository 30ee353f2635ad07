"""The request budget (bot/discord/budget.py) and the table messages' edit queue
(bot/discord/edit_queue.py), alone: no Discord."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from bot.config import Settings
from bot.discord import edit_queue
from bot.discord.budget import (
    PREPAID,
    TIDY_EVERY,
    TIDY_PATIENCE,
    Priority,
    RequestBudget,
    api_route,
    counted,
    route_priority,
)
from bot.discord.edit_queue import EditQueue, Retry, Turn

APP = 1234


def test_routes_that_count() -> None:
    """https://docs.discord.com/developers/topics/rate-limits#global-rate-limit: the
    interaction endpoints are not bound to the global limit; everything else is."""
    assert api_route("/api/v10/channels/1/messages") == "/channels/1/messages"
    assert api_route("/api/channels/1") == "/channels/1"
    assert api_route("/?v=10&encoding=json") is None  # the gateway
    assert not counted("/interactions/99/tok-en_1/callback", APP)
    assert not counted(f"/webhooks/{APP}/token/messages/@original", APP)
    assert not counted(f"/webhooks/{APP}/token", APP)
    assert counted("/webhooks/555/token", APP)  # someone else's webhook counts
    assert counted("/channels/1/messages", APP)
    assert counted("/channels/1/messages/2", APP)
    assert counted(f"/applications/{APP}/commands", APP)
    assert route_priority("POST", "/channels/1/messages") == Priority.POST
    assert route_priority("PATCH", "/channels/1/messages/2") == Priority.EDIT
    assert route_priority("PUT", f"/applications/{APP}/commands") == Priority.OTHER


def test_each_process_spends_its_shards_share() -> None:
    whole = Settings(token="t", request_budget=40.0)
    assert whole.request_rate == 40.0
    one_of_two = Settings(token="t", request_budget=40.0, shard_count=2, shard_ids=(1,))
    assert one_of_two.request_rate == 20.0
    two_of_three = Settings(token="t", request_budget=45.0, shard_count=3,
                            shard_ids=(0, 2))
    assert two_of_three.request_rate == 30.0


def most_in_a_window(times: list[float], window: float = 1.0) -> int:
    times = sorted(times)
    best, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= window:
            first += 1
        best = max(best, last - first + 1)
    return best


async def test_never_more_than_the_limit_in_any_second() -> None:
    budget = RequestBudget(20)
    sent: list[float] = []

    async def request(priority: Priority) -> None:
        await budget.acquire(priority)
        sent.append(time.monotonic())

    started = time.monotonic()
    await asyncio.gather(*(request(Priority(i % 3)) for i in range(50)))
    assert len(sent) == 50
    assert most_in_a_window(sent) <= 20
    # ...paced: at most half of them in half the window
    assert most_in_a_window(sent, budget.burst / budget.rate) <= budget.burst == 10
    # ...and not much slower than that: 50 requests at 20 a second take 2 windows.
    assert time.monotonic() - started < 2 * budget.window + 1.0


async def test_players_posts_go_before_table_edits() -> None:
    budget = RequestBudget(2, slack=0.0)
    order: list[str] = []
    await budget.acquire()
    await budget.acquire()  # the window is full

    async def request(name: str, priority: Priority) -> None:
        await budget.acquire(priority)
        order.append(name)

    edits = [asyncio.create_task(request(f"edit{i}", Priority.EDIT)) for i in range(3)]
    await asyncio.sleep(0)
    post = asyncio.create_task(request("post", Priority.POST))
    other = asyncio.create_task(request("other", Priority.OTHER))
    await asyncio.gather(*edits, post, other)
    assert order == ["post", "other", "edit0", "edit1", "edit2"]


async def test_a_reservation_counts_until_given_back() -> None:
    budget = RequestBudget(1, slack=0.0)
    held = await budget.reserve(Priority.EDIT)
    waiter = asyncio.create_task(budget.acquire(Priority.POST))
    await asyncio.sleep(0.05)
    assert not waiter.done()  # the slot is held
    held.release()  # nothing was sent with it: the waiter gets it at once
    await asyncio.wait_for(waiter, 0.5)
    assert budget.sent == 1


async def test_a_prepaid_slot_is_spent_by_the_next_request() -> None:
    budget = RequestBudget(5)
    slot = await budget.reserve(Priority.EDIT)
    token = PREPAID.set(slot)
    try:
        await budget.spend("PATCH", "/channels/1/messages/2")
    finally:
        PREPAID.reset(token)
    assert slot.done and budget.sent == 1


async def test_a_cancelled_waiter_leaves_no_slot_behind() -> None:
    budget = RequestBudget(1, slack=0.0)
    await budget.acquire()
    waiter = asyncio.create_task(budget.acquire())
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.sleep(budget.window + 0.05)
    assert budget.room() == 1


async def test_edits_are_coalesced_fair_and_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the state of the moment an edit's turn comes is rendered; the table that
    waited longest goes first; a failed edit is tried again until it lands."""
    budget = RequestBudget(3, slack=0.0)
    state = {1: 0, 2: 0, 3: 0}
    shown: dict[int, int] = {}
    landed: list[int] = []
    failures = {2: 2}

    async def edit(key: int, turn: Turn) -> None:
        value = state[key]
        if await turn():
            value = state[key]
        (await budget.spend("PATCH", f"/channels/{key}/messages/9")).answered()
        if failures.get(key):
            failures[key] -= 1
            raise Retry("503")
        shown[key] = value
        landed.append(key)

    monkeypatch.setattr(edit_queue, "BACKOFF_FIRST", 0.01)
    queue = EditQueue(budget, edit, delay=0.0, interval=0.0)
    try:
        for key in (3, 1, 2):
            for _ in range(5):
                state[key] += 1
                queue.request(key)
        await asyncio.wait_for(queue.idle(), 5)
    finally:
        await queue.close()
    assert shown == state  # every table shows its last state
    assert landed[0] == 3  # it asked first


async def _until(condition: Callable[[], bool]) -> None:
    """Until `condition` holds (the tasks of the test ran far enough): events, not
    time; the bound only keeps a broken test from hanging."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), 10)


async def test_a_moves_edit_is_not_held_behind_the_deletes() -> None:
    """Issue 53: a move's table edit takes the budget's next slot once its edit delay
    has passed, ahead of the deletes of spent pings waiting before it (1,000 of them,
    sent first, left the table messages 10-14 s behind at 1,000 tables). On the fake
    clock: the budget (1 a second) is full until t=1; the move is made at t=0, its
    edit is due at t=0.5 and goes at t=1, the first slot."""
    now = [0.0]
    budget = RequestBudget(1, slack=0.0, clock=lambda: now[0])
    sent: list[tuple[str, float]] = []

    async def delete(i: int) -> None:
        (await budget.spend("DELETE", f"/channels/{i}/messages/9")).answered()
        sent.append((f"delete{i}", now[0]))

    async def edit(key: int, turn: Turn) -> None:
        await turn()
        (await budget.spend("PATCH", f"/channels/{key}/messages/9")).answered()
        sent.append((f"edit{key}", now[0]))

    queue = EditQueue(budget, edit, delay=0.5, interval=0.0, clock=lambda: now[0])
    deletes = [asyncio.create_task(delete(i)) for i in range(20)]
    try:
        await _until(lambda: budget.waiting() == 19)  # one went at once: t=0 is full
        queue.request(7)  # the move, at t=0
        now[0] = 0.5  # its edit is due: it waits for the slot the window frees at t=1
        await _until(lambda: budget.waiting(Priority.EDIT) == 1)
        now[0] = 1.0
        await _until(lambda: len(sent) == 2)
        assert sent == [("delete0", 0.0), ("edit7", 1.0)]
        now[0] = 2.0  # the deletes go on in the slots no edit waits for
        await _until(lambda: len(sent) == 3)
        assert sent[2] == ("delete1", 2.0)
    finally:
        await queue.close()
        for task in deletes:
            task.cancel()
        await asyncio.gather(*deletes, return_exceptions=True)


async def test_edits_and_deletes_share_the_slots_fairly() -> None:
    """The deletes (of spent pings, stale copies) take the slots no table edit waits
    for; once one has waited TIDY_PATIENCE, one slot in TIDY_EVERY while edits wait: a
    busy bot still tidies, and the deletes never take more than that from the tables.
    Posts go first, as always. (Slots held and given back unused, on the fake clock.)"""
    assert route_priority("DELETE", "/channels/1/messages/2") == Priority.TIDY
    now = [0.0]
    budget = RequestBudget(1, slack=0.0, clock=lambda: now[0])
    order: list[str] = []

    async def request(name: str, priority: Priority) -> None:
        (await budget.reserve(priority)).release()  # granted, then given back unused
        order.append(name)

    async def round_of(edits: int, waited: float) -> list[str]:
        """3 deletes, `edits` edits and a post ask while the one slot is held; it is
        given back `waited` seconds later."""
        order.clear()
        hold = await budget.reserve()
        tasks = [asyncio.create_task(request("delete", Priority.TIDY)) for _ in range(3)]
        tasks += [asyncio.create_task(request("edit", Priority.EDIT))
                  for _ in range(edits)]
        tasks.append(asyncio.create_task(request("post", Priority.POST)))
        await _until(lambda: budget.waiting() == edits + 4)
        now[0] += waited
        hold.release()
        await asyncio.gather(*tasks)
        return list(order)

    # Young deletes wait for the edits.
    assert await round_of(25, 0.0) == ["post", *["edit"] * 25, "delete", "delete", "delete"]
    # Past their patience: one slot in TIDY_EVERY.
    edits = 2 * (TIDY_EVERY - 1) + 2
    between = ["edit"] * (TIDY_EVERY - 1)
    assert await round_of(edits, TIDY_PATIENCE) == [
        "post", *between, "delete", *between, "delete", "edit", "edit", "delete"]


async def test_a_delete_leaves_the_last_slots_to_the_edits() -> None:
    """A delete takes a slot only while TIDY_ROOM of the window is free: the table edits
    come one after another, and the next one must find a slot (a delete taking every
    slot free at its moment took 6 edits a second from 1,000 tables)."""
    now = [0.0]
    budget = RequestBudget(10, slack=0.0, clock=lambda: now[0])  # 10 in a second
    assert budget.burst == 5

    async def send(count: int) -> None:
        for _ in range(count):
            (await budget.spend("PATCH", "/channels/1/messages/2")).answered()

    await send(5)
    now[0] = 0.5
    await send(4)  # 9 in the window: 1 free, fewer than TIDY_ROOM's 2
    delete = asyncio.create_task(budget.spend("DELETE", "/channels/1/messages/3"))
    await _until(lambda: budget.waiting(Priority.TIDY) == 1)
    await send(1)  # an edit takes the last slot at once
    now[0] = 1.0  # the first 5 leave the window: the delete goes
    (await asyncio.wait_for(delete, 10)).answered()
    assert budget.sent == 11


async def test_a_request_counts_until_a_window_after_its_answer() -> None:
    """A request reaches Discord at any moment before its answer leaves: it holds its
    slot while unanswered, and for a window after the answer, so that a slow way there
    (a starved machine, the network) never bunches more than the budget into one of
    Discord's seconds (issue 53: the set-up's global 429s)."""
    now = [0.0]
    budget = RequestBudget(1, slack=0.0, clock=lambda: now[0])
    flight = await budget.spend("PATCH", "/channels/1/messages/2")
    now[0] = 1.5  # a window after it was sent: still on its way
    assert budget.room() == 0
    flight.answered()
    flight.answered()  # told twice (an answer, then a failure reading it): once
    now[0] = 2.4
    assert budget.room() == 0
    now[0] = 2.5  # a window after the answer
    assert budget.room() == 1
