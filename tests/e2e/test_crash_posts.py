"""Crashes between a commit and the posts it obliges, and graceful stops.

The bot runs as a process (`python -m bot`) against the fake Discord. Its channel posts
are held (`PostGate`) so that a SIGKILL lands after the last card of a hand (or of the
game) is committed and confirmed but before its summary (or the final standings) is
posted ("lost"), or after Discord made the post but before the bot heard so
("unanswered"). After a restart every post appears exactly once. SIGTERM stops the bot
cleanly, exit status 0, with every confirmed action kept.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.cards import card_label, cards_of
from bot.games.amerikaner.hand import PLAY
from bot.store import open_store
from tests.e2e.driver import NAMES, ButtonDriver, open_table, table_message
from tests.e2e.test_process import StoreView, bot_process
from tests.fake_discord import FakeDiscord, PostGate, StoredMessage


def _titled(fake: FakeDiscord, prefix: str) -> list[StoredMessage]:
    return [m for m in fake.messages() if m.embeds
            and m.embeds[0].get("title", "").startswith(prefix)]


def _cards_left(driver: ButtonDriver) -> int:
    hand = driver.table.game.current
    assert hand is not None
    return sum(h.bit_count() for h in hand.hands) if hand.phase == PLAY else -1


async def _to_the_last_card(driver: ButtonDriver) -> tuple[str, int]:
    """Play until one card is left in the hand; the name and the card of its player."""
    for _ in range(400):
        await driver.sync()
        if _cards_left(driver) == 1:
            seat, name = driver.whose_turn()  # type: ignore[misc]
            hand = driver.table.game.current
            assert hand is not None
            (card,) = cards_of(hand.hands[seat])
            return name, card
        assert await driver.step()
    raise AssertionError("the hand did not come to its last card")


async def _outbox_drained(db: Path, timeout: float = 60.0) -> None:
    """Until the bot has made every post it committed (its outbox is empty). A bound on
    liveness, not on speed: generous, as the posts wait on Discord's rate limits and a
    loaded machine (issue 37 saw 15 s run out once under CI's load)."""
    for _ in range(int(timeout / 0.05)):
        if not (pending := await _pending_posts(db)):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the outbox still holds posts after {timeout} s: {pending}")


async def _pending_posts(db: Path) -> list[str]:
    store = await open_store(str(db))
    try:
        return [row.kind for row in await store.pending_posts()]
    finally:
        await store.close()


@pytest.mark.parametrize("mode", ["lost", "unanswered"])
# "hand": issue 37. The hand's summary is an edit of its table message; the restarted
# bot refreshes every table when its server becomes available (on_guild_available) and,
# while the next table message was still unposted, once edited the table over the
# summary (the mark that the message shows a summary was in memory only).
@pytest.mark.parametrize("end", ["hand", "game"])
async def test_sigkill_between_the_last_card_and_its_posts(
        fake: FakeDiscord, tmp_path: Path, end: str, mode: str) -> None:
    db = tmp_path / "db.sqlite3"
    view = StoreView(db)
    driver = ButtonDriver(fake, lambda: view, fake.channel, seed=5)
    # Target 1: the first hand played to its end ends the game (someone scores).
    target = 1 if end == "game" else 52
    async with bot_process(fake, db, tmp_path) as proc:
        await open_table(fake, list(NAMES[:3]), {"preset": "amerikaner", "target": target})
        await view.reload()
        table_id = view.tables.registry.in_channel(fake.channel.id).id  # type: ignore[union-attr]
        driver.table_id = table_id
        name, card = await _to_the_last_card(driver)
        hand_number = len(driver.table.game.hands)  # type: ignore[union-attr]
        other = next(n for n in NAMES[:3] if n != name)
        other_panel = await driver.open_hand(other)  # left open by another player
        hand_message = await driver.open_hand(name)
        # the earlier hands' posts may still wait on Discord's rate limit (5 posts in 5 s
        # a channel): the gate must hold this card's first post, not one of theirs
        try:
            await _outbox_drained(db)
        except AssertionError as stalled:
            # Seen once (issue 37: a live process kept an earlier hand's summary and
            # table message in its outbox for over 15 s under CI's load), never since:
            # 0 in 36 runs, 12 more beside two AI benchmarks, 3 with a 15 s bound and
            # both cores taken by busy loops. A stall fails the test, with what every
            # task of the bot waited on (SIGUSR1, bot/app.py) to find it by.
            proc.send_signal(signal.SIGUSR1)
            await asyncio.sleep(2)  # the bot's process writes the block to its log
            logs = sorted(tmp_path.glob("bot-*.log"))
            tail = logs[-1].read_text(errors="replace").splitlines()[-80:] if logs else []
            pytest.fail(f"posts stalled before the crash ({stalled}); "
                        "the bot's log ends:\n" + "\n".join(tail))
        fake.post_gate = gate = PostGate(mode)
        it = await fake.click_label(name, hand_message, card_label(card))
        assert it.response_type == 7  # the card is committed and confirmed
        await fake.wait_until(lambda: gate.held >= 1, 30.0, "the bot's first post")
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    gate.release()
    fake.post_gate = None
    summary = f"Hand {hand_number}:"
    # The summary is an edit of the hand's table message (quiet channels), not a post:
    # the gate held the first post after it (the next table message, the standings, or
    # the next player's ping), so it is shown once or not yet, whatever the mode.
    assert len(_titled(fake, summary)) <= 1
    assert await _pending_posts(db), "the posts were not committed with the card"

    async with bot_process(fake, db, tmp_path):
        if end == "game":
            await fake.wait_until(lambda: _titled(fake, "Game over"), 30.0, "the standings")
        else:
            await fake.wait_until(lambda: (posted := _titled(fake, summary))
                                  and table_message(fake).id > posted[0].id,
                                  30.0, "the next hand's table message")
        for _ in range(600):  # until the outbox is empty (bounded: 30 s)
            if not await _pending_posts(db):
                break
            await asyncio.sleep(0.05)
        assert await _pending_posts(db) == []
        # Posted once, not twice, although the crash left them all pending.
        assert len(_titled(fake, summary)) == 1
        assert len(_titled(fake, "Game over")) == (1 if end == "game" else 0)
        if end == "game":
            # A finished game stays reachable: the old hand panel says it is over,
            # and export finds it from the store.
            # (It may have been closed with the result before the crash, or be refreshed
            # to it now.)
            panel = fake.message(other_panel)
            if any(b.get("label") == "Refresh" for b in panel.buttons()):
                again = await fake.click_label(other, other_panel, "Refresh")
                assert again.response_type == 7  # the panel itself shows the result
                panel = fake.message(other_panel)
            assert "game is over" in panel.text().lower(), panel.text()
            assert "Game over" in panel.text()
            assert [b["label"] for b in panel.buttons()] == ["Rematch", "Leaderboard"]
            exported = await fake.slash(name, None, "amerikaner export")
            assert f"Game {table_id}." in (exported.content or ""), exported.content
            assert exported.message is not None and exported.message.attachments
        else:
            live = table_message(fake)
            assert live.id > _titled(fake, summary)[0].id  # the new one, at the bottom
            await view.reload()
            assert len(driver.table.game.hands) == hand_number + 1  # type: ignore[union-attr]
    unanswered = [i for i in fake.interactions.values() if not i.responded]
    assert not unanswered, unanswered


async def test_sigterm_mid_game_stops_cleanly_and_keeps_everything(
        fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    view = StoreView(db)
    driver = ButtonDriver(fake, lambda: view, fake.channel, seed=8)
    async with bot_process(fake, db, tmp_path) as proc:
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        await view.reload()
        driver.table_id = view.tables.registry.in_channel(fake.channel.id).id  # type: ignore[union-attr]
        for _ in range(2):  # still bidding: nobody can have won the auction yet
            assert await driver.step()
        # One more click in flight when the signal comes: it is answered, either
        # confirmed (then kept) or refused as "restarting" (then not played).
        seat, name = driver.whose_turn()  # type: ignore[misc]
        hand_message = await driver.open_hand(name)
        before = await view.action_count(driver.table_id)
        click = asyncio.ensure_future(fake.click_label(name, hand_message, "Pass"))
        await asyncio.sleep(0.01)
        started = asyncio.get_running_loop().time()
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), 10.0)
        took = asyncio.get_running_loop().time() - started
        it = await click
    assert code == 0
    assert took < 6.0, took
    log = (tmp_path / "bot-0.log").read_text()
    assert "stopped cleanly" in log and "Traceback" not in log, log
    assert it.responded
    after = await view.action_count(driver.table_id)
    if it.response_type == 7:  # confirmed: it is in the store
        assert after == before + 1
    else:
        assert after == before and "restarting" in it.message.text(), it.message.text()
    async with bot_process(fake, db, tmp_path):
        await view.reload()
        assert driver.table.version == after
        assert await driver.step()  # the game goes on
