"""The toy game at a Discord table (the fake Discord): opened, joined and played to the
end by its buttons, every message checked by the game's own leak rules; its export
replays (the CLI's `replay` too), and the leaderboard counts it. Nothing outside
tests/games/ names it: registering is all it takes (bot.games.registered)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

from bot.cli import _replay_any
from bot.games.base import GameKindBase
from tests.e2e.driver import LeakChecker, table_message
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


async def _play_by_buttons(fake: FakeDiscord, toy: GameKindBase, table: Any) -> int:
    """Each human to act opens their hand and clicks a card's button; the clicks."""
    clicks = 0
    while not table.game.finished:
        await fake.wait_until(lambda: table.game.finished or table.to_act is not None)
        if table.game.finished:
            break
        seat = table.to_act
        name = table.seats[seat].name
        version = table.version
        it = await fake.click_label(name, table_message(fake), "My hand")
        assert it.callback.ephemeral and it.message is not None
        panel = fake.message(it.message)
        assert "Your turn" in panel.text(), panel.text()
        # The platform's default panel (cogs/tables/default_panel.py): a button a legal
        # move, worded as a button offers it by the game's words ("Play 7♠", where the
        # record's narration says "played 7♠"); the toy declares no controls of its own.
        cards = [b for b in panel.buttons() if ":act:" in b.get("custom_id", "")]
        legal = toy.legal_actions(table.game, seat)
        assert len(cards) == len(legal) and cards, panel.buttons()
        assert [b["label"] for b in cards] == [
            toy.words.action_label(toy.action_to_json(a)) for a in legal]
        assert all(b["label"].startswith("Play ") for b in cards), cards
        click = await fake.click(name, panel, random.Random(clicks).choice(cards)["custom_id"])
        assert click.response_type in (4, 7), click.callback.data
        clicks += 1
        await fake.wait_until(lambda version=version: table.version > version)
    return clicks


async def test_the_toy_game_plays_by_buttons_replays_and_is_on_the_board(
        toy: GameKindBase, fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
        answered: None, tmp_path: Path) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(5)
        new = await fake.slash("alice", None, "toy new", {"players": 2, "target": 2})
        assert new.message is not None and not new.callback.ephemeral, new.callback.data
        lobby = new.message
        joined = await fake.click_label("bob", fake.message(lobby), "Join")
        assert joined.response_type == 7, joined.callback.data
        await fake.click_label("alice", fake.message(lobby), "Start")
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and table.kind is toy
        clicks = await _play_by_buttons(fake, toy, table)
        assert clicks == table.version and toy.finished(table.game)
        # the export is the game's own record, and replays (here and by the CLI)
        it = await fake.slash("alice", None, "toy export")
        assert it.message is not None and it.message.attachments, it.callback.data
        record = json.loads(it.message.attachments[0].data)
        assert record == json.loads(json.dumps(toy.dump(table.game)))
        out = _replay_any(record)
        assert "error" not in out and out["finished"] is True, out
        # the leaderboard counts the game, for both players
        board = await fake.slash("alice", None, "toy leaderboard", {"order": "wins"})
        text = board.message.embeds[0]["description"]
        ids = {int(u) for u in re.findall(r"<@(\d+)>", text)}
        assert ids == {fake.user("alice").id, fake.user("bob").id}, text
    assert leaks.checked_public and leaks.checked_ephemeral and not leaks.violations


async def test_the_toy_game_gets_the_deal_of_the_day(
        toy: GameKindBase, fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
        answered: None, tmp_path: Path) -> None:
    """A third game gets the deal of the day with nothing of its own (issue 51): `/toy
    daily` opens the member's deal in the platform's default panel, a table of the
    daily's kind, whose buttons play it to the end (the AI answering within each move);
    the result is shown, stored as a finished game record, and a second try is refused
    with it."""
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="toy") as bot:
        leaks.bot = bot
        it = await fake.slash("alice", None, "toy daily")
        assert it.callback.ephemeral and it.message is not None, it.callback.data
        shown = it.message.id
        await fake.wait_until(lambda: fake.message(shown).embeds, 30, "the daily's panel")
        service = bot.tables.daily
        alice = fake.user("alice").id
        clicks = 0
        while (state := await service.state(fake.guild.id, "toy", alice)) is not None \
                and not state.finished:
            table = service.table(state)
            assert table.daily is not None and table.to_act == state.deal.seat
            panel = fake.message(shown)
            cards = [b for b in panel.buttons() if ":act:" in b.get("custom_id", "")]
            legal = toy.legal_actions(state.game, state.deal.seat)
            assert len(cards) == len(legal) and cards, panel.buttons()
            before = str(panel.components)
            click = await fake.click("alice", panel,
                                     random.Random(clicks).choice(cards)["custom_id"])
            assert click.response_type in (6, 7), click.callback.data
            clicks += 1
            await fake.wait_until(
                lambda before=before: str(fake.message(shown).components) != before,
                30, "the panel after the move")
        assert state is not None and clicks > 0
        await fake.wait_until(
            lambda: any("Deal of the day" in (e.get("title") or "")
                        for e in fake.message(shown).embeds), 30, "the result")
        play = await bot.store.daily_play(fake.guild.id, "toy", state.deal.day, alice)
        assert play is not None and play.finished_at is not None and play.game_id is not None
        row = await bot.store.get_game(play.game_id)
        assert row is not None and row.status == "finished"
        assert row.meta["daily"]["day"] == state.deal.day
        again = await fake.slash("alice", None, "toy daily")
        assert again.message is not None
        result = await fake.wait_until(lambda: (m := fake.message(again.message)).embeds
                                       and m, 30, "the result reopened")
        assert "Deal of the day" in result.embeds[0]["title"]
    assert leaks.checked_ephemeral and not leaks.violations


def test_the_toy_game_is_only_under_tests_games() -> None:
    """A game is a folder, a cog and its words: no code outside tests/games/ names it (the
    developers' guide points to it as the example to copy)."""
    found = subprocess.run(
        ["git", "grep", "-l", "-I", "-e", "tests.games.toy", "-e", "tests/games/toy",
         "-e", "HighCard", "--", ".", ":!tests/games", ":!*.md"],
        cwd=REPO, capture_output=True, text=True, check=False).stdout.split()
    assert found == [], found
