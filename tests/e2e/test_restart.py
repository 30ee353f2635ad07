"""Restarts: the bot stops mid-hand and a new one, on the same database, finishes the game
with the buttons already on screen (the old table message and the old ephemeral hand
messages). Nothing is lost and nothing is applied twice."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.games.amerikaner.hand import BID, DISCARD, LEAD, PLAY
from bot.games.amerikaner.record import game_to_record
from bot.tables.table import Table
from tests.e2e.driver import (
    NAMES,
    ButtonDriver,
    LeakChecker,
    check_finished_game,
    open_table,
    table_message,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord


def snapshot(table: Table) -> Any:
    assert table.game is not None
    return json.loads(json.dumps(game_to_record(table.game)))


async def play_until(driver: ButtonDriver, done: Callable[[Table], bool],
                     limit: int = 400) -> None:
    for _ in range(limit):
        if done(driver.table):
            return
        assert await driver.step(), "the game ended before the stop point"
    raise AssertionError("stop point not reached")


def phase(table: Table) -> str:
    assert table.game.current is not None
    return table.game.current.phase


async def test_restart_mid_hand_with_the_buttons_on_screen(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    current: dict[str, Any] = {}
    players = list(NAMES[:4])
    driver = ButtonDriver(fake, lambda: current["bot"], fake.channel, seed=21)

    async def restart(before_stop: Callable[[], Awaitable[Any]],
                      after_start: Callable[[Any], Awaitable[None]]) -> None:
        """Stop the running bot after `before_stop`, start a new one on the same file,
        check it has exactly the same game, then run `after_start`."""
        prepared = await before_stop()
        old = snapshot(driver.table)
        version = driver.table.version
        await stop_bot()
        await start_bot()
        table = driver.table
        assert snapshot(table) == old, "the restarted bot has another game"
        assert table.version == version
        await after_start(prepared)

    stack: list[Any] = []

    async def start_bot() -> None:
        cm = bot_running(fake, db)
        bot = await cm.__aenter__()
        stack.append(cm)
        current["bot"] = bot
        leaks.bot = bot

    async def stop_bot() -> None:
        cm = stack.pop()
        await cm.__aexit__(None, None, None)

    await start_bot()
    try:
        current["bot"].tables.shared.rng = random.Random(21)
        await open_table(fake, players, {"preset": "amerikaner", "target": 12})
        first_table_message = table_message(fake)

        async def open_for_turn() -> tuple[str, int, Any]:
            seat, name = driver.whose_turn()  # type: ignore[misc]
            msg = await driver.open_hand(name)
            return name, seat, msg

        async def act_with_old(prepared: tuple[str, int, Any]) -> None:
            name, seat, msg = prepared
            await driver.act(name, seat, fake.message(msg))  # the old message's buttons

        # 1. during the bidding: a hand message drawn by the old bot is used
        assert phase(driver.table) == BID
        await restart(open_for_turn, act_with_old)
        # the old table message still opens hands
        seat, name = driver.whose_turn()  # type: ignore[misc]
        it = await fake.click_label(name, first_table_message, "My hand")
        assert it.callback.ephemeral and "Your turn" in it.message.text()

        # 2. at the discard
        await play_until(driver, lambda t: phase(t) == DISCARD)
        await restart(open_for_turn, act_with_old)

        # 3. in the middle of the opening lead: card clicked, the call menu is open
        await play_until(driver, lambda t: phase(t) == LEAD)

        async def lead_card() -> tuple[str, Any, Any]:
            name, seat, msg = await open_for_turn()
            view, action = driver.decide(seat)
            button = next(b for b in msg.buttons() if b.get("label") ==
                          _label(action.card) and not b.get("disabled"))
            it = await fake.click(name, msg, button["custom_id"])
            assert it.response_type == 7 and it.message.selects(), it.message.text()
            return name, it.message, view

        async def call_after(prepared: tuple[str, Any, Any]) -> None:
            name, msg, view = prepared
            before = driver.table.version
            (sel,) = fake.message(msg).selects()
            it = await fake.select(name, msg, sel["custom_id"], [sel["options"][0]["value"]])
            assert it.response_type == 7
            assert driver.table.version == before + 1
            assert driver.table.game.current.called is not None  # type: ignore[union-attr]

        await restart(lead_card, call_after)

        # 4. mid-trick, twice
        for _ in range(2):
            await play_until(driver, lambda t: phase(t) == PLAY and bool(t.game.current.trick))
            await restart(open_for_turn, act_with_old)
            await driver.step()

        # 5. stopped while nobody had a fresh hand message: everyone refreshes old ones
        await restart(_nothing, _nothing)
        await driver.play_to_end()
        table = driver.table
        assert table.game is not None and table.game.finished
        await check_finished_game(fake, table)
    finally:
        while stack:
            await stop_bot()


async def _nothing(*_: Any) -> None:
    return None


def _label(card: int | None) -> str:
    from bot.cards import card_label

    assert card is not None
    return card_label(card)
