"""American at the Discord table, through the fake Discord: whole games by buttons and by
slash commands, every message checked for leaks as it is written (the `leaks` fixture,
American's rules in tests/e2e/american_leaks.py), the export replayed, bad input refused
with a clear answer and nothing changed, a SIGKILL-like stop losing no confirmed action."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.games.american.record import game_to_record
from bot.tables.table import Table
from tests.e2e.american_driver import (
    AmericanButtonDriver,
    AmericanSlashDriver,
    check_finished_american,
    open_american,
)
from tests.e2e.driver import NAMES, LeakChecker, choose_ai, table_message
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, FakeInteraction

# (id, driver, players, options, seed)
GAMES: list[tuple[str, str, int, dict[str, Any], int]] = [
    ("buttons-2", "buttons", 2, {}, 1),
    ("buttons-2-swap-four_burns-target2", "buttons", 2,
     {"swap": True, "four_burns": True, "target": 2}, 2),
    ("buttons-4-swap-blind_down", "buttons", 4, {"swap": True, "blind_down": True}, 3),
    ("buttons-4-same_rank-voluntary_pickup", "buttons", 4,
     {"same_rank": True, "voluntary_pickup": True}, 4),
    ("slash-2-swap", "slash", 2, {"swap": True}, 5),
    ("slash-4-blind_down-voluntary_pickup", "slash", 4,
     {"blind_down": True, "voluntary_pickup": True, "swap": True}, 6),
]


@pytest.mark.parametrize(("via", "players", "options", "seed"), [g[1:] for g in GAMES],
                         ids=[g[0] for g in GAMES])
async def test_whole_game(fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
                          answered: None, tmp_path: Path, via: str, players: int,
                          options: dict[str, Any], seed: int) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(seed)
        await open_american(fake, list(NAMES[:players]), options, via=via)
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and table.kind.name == "american"
        kind = AmericanButtonDriver if via == "buttons" else AmericanSlashDriver
        driver = kind(fake, lambda: bot, fake.channel, seed=seed)
        await driver.play_to_end()
        assert table.game.finished and bot.tables.registry.in_channel(fake.channel.id) is None
        await check_finished_american(fake, table)
        assert driver.stats.actions == table.version
        assert driver.kinds.get("play", 0) > 10
        if "swap" in options:
            assert driver.kinds.get("swap", 0) >= players
        if "blind_down" in options:
            assert driver.kinds.get("flip", 0) >= 1, driver.kinds
    leaks.assert_saw_all()


async def test_stats_and_help_for_american(fake: FakeDiscord, leaks: LeakChecker,
                                           error_logs: Any, answered: None,
                                           tmp_path: Path) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        leaks.bot = bot
        bot.tables.shared.rng = random.Random(7)
        await open_american(fake, ["alice", "bob"], {})
        table = bot.tables.registry.in_channel(fake.channel.id)
        driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=7)
        await driver.play_to_end()
        out = await check_finished_american(fake, table)
        # `amerikaner replay` reads the export and prints the same replay
        it = await fake.slash("alice", None, "american export")
        exported = tmp_path / "export.json"
        exported.write_bytes(it.message.attachments[0].data)
        from tests.test_cli_replay import _run

        replayed = _run("replay", str(exported))
        assert replayed.returncode == 0, replayed.stderr
        assert json.loads(replayed.stdout) == out
        winner = table.seats[out["winners"][0]].name
        stats = await fake.slash("alice", None, "american stats", {"member": winner})
        text = stats.message.text()
        assert "Deals won (out first): 1 of 1" in text, text
        guide = await fake.slash("alice", None, "american help")
        assert "American in a minute" in guide.message.text()
        rules = await fake.slash("alice", None, "american rules")
        assert "A **10**" in rules.message.text()
        # the finished deal, face up, for whoever asks
        summary = next(m for m in fake.messages() if m.embeds and
                       m.embeds[0].get("title", "").startswith("Deal 1:"))
        review = await fake.click(fake.user("carol").name, summary,
                                  summary.buttons()[0]["custom_id"])
        assert "Deal 1 face up" in review.message.text()
        assert "Deck, top first" in review.message.text()


# ----------------------------------------------------------------------------- bad input

def state(table: Table) -> Any:
    return json.loads(json.dumps(game_to_record(table.game)))


def said(it: FakeInteraction) -> str:
    assert it.responded and it.ephemeral, it.callback.data
    assert it.message is not None
    return it.message.text()


@pytest.fixture
async def table(fake: FakeDiscord, bot: AmerikanerBot) -> Table:
    bot.tables.shared.rng = random.Random(11)
    await open_american(fake, ["alice", "bob"], {})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    return table


def _turn(table: Table) -> tuple[int, str, str]:
    seat = table.to_act
    assert seat is not None
    return seat, table.seats[seat].name, table.seats[1 - seat].name


async def _play_until(fake: FakeDiscord, bot: AmerikanerBot, table: Table, done: Any,
                      seed: int = 3) -> AmericanButtonDriver:
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=seed)
    for _ in range(300):
        if done(table):
            return driver
        assert await driver.step()
    raise AssertionError("never reached")


async def test_bad_plays_are_refused_and_change_nothing(fake: FakeDiscord,
                                                        bot: AmerikanerBot,
                                                        table: Table) -> None:
    seat, name, other = _turn(table)
    view = table.seat_view(seat).deal
    hand = view.hand
    before = state(table)
    not_held = next(c for c in range(52) if c not in hand)
    from bot.cards import card_name

    it = await fake.slash(name, None, "american play", {"cards": card_name(not_held)})
    assert "You do not hold" in said(it)
    ranks = sorted({c % 13 for c in hand})
    if len(ranks) >= 2:
        mixed = [next(c for c in hand if c % 13 == r) for r in ranks[:2]]
        it = await fake.slash(name, None, "american play",
                              {"cards": " ".join(card_name(c) for c in mixed)})
        assert "One play is cards of one rank" in said(it)
    it = await fake.slash(name, None, "american play", {"cards": "zz"})
    assert "'zz' is not a card or a rank" in said(it)
    missing = next(r for r in range(13) if r not in ranks)
    from bot.cards import RANKS

    it = await fake.slash(name, None, "american play", {"cards": RANKS[missing]})
    assert f"You hold no {RANKS[missing]}" in said(it)
    it = await fake.slash(name, None, "american pickup")
    assert "nothing to pick up" in said(it)  # the pile is empty at the start
    it = await fake.slash(name, None, "american flip", {"position": "1"})
    assert "not possible now" in said(it)
    it = await fake.slash(other, None, "american play", {"cards": card_name(hand[0])})
    assert f"It is {name}'s turn, not yours." in said(it)
    it = await fake.slash("frank", None, "american pickup")
    assert "not playing at this table" in said(it)
    ac = await fake.autocomplete(other, None, "american play", "cards", {"cards": ""})
    assert ac.choices == []
    assert state(table) == before
    # an unplayable rank, and a pick-up while a play is possible
    await _play_until(fake, bot, table, lambda t: bool(t.game.current.pile)
                      and t.game.current.pile[-1] % 13 not in (0, 8)
                      and t.seat_view(t.to_act).deal.legal.ranks
                      and any(not _playable(c, t) for c in t.seat_view(t.to_act).deal.hand))
    seat, name, _ = _turn(table)
    view = table.seat_view(seat).deal
    before = state(table)
    low = next(c for c in view.hand if not _playable(c, table))
    it = await fake.slash(name, None, "american play", {"cards": card_name(low)})
    assert "cannot go on the" in said(it)
    it = await fake.slash(name, None, "american pickup")
    assert "you may not pick up the pile" in said(it)
    assert state(table) == before


def _playable(card: int, table: Table) -> bool:
    legal = table.seat_view(table.to_act).deal.legal
    return card in legal.cards


async def test_stale_double_and_foreign_clicks(fake: FakeDiscord, bot: AmerikanerBot,
                                               table: Table) -> None:
    seat, name, other = _turn(table)
    public = table_message(fake)
    first = (await fake.click_label(name, public, "My hand")).message
    second = (await fake.click_label(name, public, "My hand")).message
    play = next(b["custom_id"] for b in fake.message(first).buttons()
                if ":play:" in b.get("custom_id", ""))
    version = table.version
    # another player's panel offers nothing to do (an ephemeral panel is its owner's
    # alone: Discord lets nobody else click it)
    theirs = (await fake.click_label(other, public, "My hand")).message
    assert [b["label"] for b in theirs.buttons()] == ["Refresh", "Table"]
    assert f"Waiting for **{name}**" in theirs.text() and table.version == version
    done = await fake.click(name, second, play)
    assert done.response_type == 7 and table.version == version + 1
    messages = len(fake.ephemeral_messages(name))
    # One live panel: the second took the buttons off the first. A click on it made
    # before that edit reached the player's app arrives all the same (forged here):
    # stale, the panel shows the hand as now.
    await fake.wait_until(lambda: not fake.message(first).components, 5.0,
                          "the first panel to lose its buttons")
    again = await fake.forge_component(name, first, play)
    assert again.response_type == 7 and len(fake.ephemeral_messages(name)) == messages
    assert "moved on" in fake.message(first).text()
    assert table.version == version + 1
    # the same button twice at the same instant: applied once
    seat, name, other = _turn(table)
    msg = (await fake.click_label(name, public, "My hand")).message
    button = next(b["custom_id"] for b in msg.buttons()
                  if ":play:" in b.get("custom_id", "") or ":pickup" in b.get("custom_id", ""))
    version = table.version
    one, two = await asyncio.gather(fake.click(name, msg, button),
                                    fake.click(name, msg, button))
    assert table.version == version + 1
    assert [one.response_type, two.response_type] == [7, 7]


# ----------------------------------------------------------------------------- restarts

async def test_a_stop_mid_game_loses_no_confirmed_action(fake: FakeDiscord,
                                                         leaks: LeakChecker,
                                                         error_logs: Any, answered: None,
                                                         tmp_path: Path) -> None:
    """The bot is stopped without a goodbye (its database as a kill leaves it: every
    confirmed action committed) in the middle of a swap and of play, and a new bot on
    the same file finishes the game with the buttons already on screen."""
    db = tmp_path / "db.sqlite3"
    current: dict[str, Any] = {}
    driver = AmericanButtonDriver(fake, lambda: current["bot"], fake.channel, seed=9)
    stack: list[Any] = []

    async def start() -> None:
        cm = bot_running(fake, db)
        current["bot"] = await cm.__aenter__()
        leaks.bot = current["bot"]
        stack.append(cm)

    async def stop() -> None:
        await stack.pop().__aexit__(None, None, None)

    await start()
    try:
        current["bot"].tables.shared.rng = random.Random(9)
        await open_american(fake, ["alice", "bob", "carol"], {"swap": True, "target": 2})
        for stop_at in (1, 12, 40):
            while driver.table.version < stop_at:
                assert await driver.step()
            seat, name = driver.whose_turn()
            msg = await driver.open_hand(name)  # drawn by the old bot
            old, version = state(driver.table), driver.table.version
            await stop()
            await start()
            assert state(driver.table) == old and driver.table.version == version
            await driver.act(name, seat, fake.message(msg))  # the old panel's controls
        await driver.play_to_end()
        await check_finished_american(fake, driver.table)
    finally:
        while stack:
            await stop()


async def test_sigkill_right_after_a_confirmed_action(fake: FakeDiscord, tmp_path: Path
                                                      ) -> None:
    """The bot as a process, SIGKILLed right after an action was confirmed (swaps and
    plays): back, it has every confirmed action and no other."""
    import signal

    from tests.e2e.test_process import StoreView, bot_process

    db = tmp_path / "db.sqlite3"
    view = StoreView(db)
    driver = AmericanButtonDriver(fake, lambda: view, fake.channel, seed=13)
    async with bot_process(fake, db, tmp_path):
        await open_american(fake, ["alice", "bob"], {"swap": True})
        await view.reload()
        table_id = view.tables.registry.in_channel(fake.channel.id).id  # type: ignore[union-attr]
        driver.table_id = table_id
    confirmed = 0
    for round_ in range(3):
        async with bot_process(fake, db, tmp_path) as proc:
            await view.reload()
            assert driver.table.version == confirmed == await view.action_count(table_id)
            for _ in range(round_ * 2 + 1):  # through the old messages too
                await driver.step()
                confirmed += 1
            proc.send_signal(signal.SIGKILL)
        await view.reload()
        assert await view.action_count(table_id) == confirmed
    assert driver.kinds.get("swap") == 2 and driver.kinds.get("play")
    assert not [i for i in fake.interactions.values() if not i.responded]


async def test_ai_seats_away_and_back_hints_and_a_leaderboard_per_game(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """A human against the strong AI: the AI plays its seat, plays the human's while they
    are away, the human gets a hint on their turn, and the result counts on American's
    leaderboard, not Amerikaner's."""
    new = await fake.slash("alice", None, "american new", {"players": 3, "swap": True})
    lobby = new.message
    assert lobby is not None
    await choose_ai(fake, "alice", lobby, "strong")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and [s.ai_level for s in table.seats] == [None, "strong", "easy"]
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=7, refresh_share=0.0)
    turn = await driver.next_turn()
    assert turn is not None and turn[1] == "alice"
    panel = await driver.open_hand("alice")
    hint = await fake.click_label("alice", panel, "Hint")
    assert hint.response_type == 7
    assert fake.message(panel).content.startswith("💡 Hint: The strong AI would ")
    away = await fake.slash("alice", None, "american away")
    assert away.callback.ephemeral
    # The only human gone away: the table waits for her, no AI-only game (issue 35).
    assert table.paused == {"absent"} and table.seats[0].away
    version = table.version
    await asyncio.sleep(0.3)
    assert table.version == version
    back = await fake.slash("alice", None, "american back")
    assert back.callback.ephemeral and not table.paused
    await driver.play_to_end()
    await fake.wait_until(lambda: table.stage == "finished", 20.0, "the end of the game")
    american = await bot.store.leaderboard(fake.guild.id, "american", "wins", 10, 0)
    amerikaner = await bot.store.leaderboard(fake.guild.id, "amerikaner", "wins", 10, 0)
    assert [row.user_id for row in american] == [fake.user("alice").id]
    assert amerikaner == []
    # By rating (the default), nobody has enough rated deals yet; by wins, alice leads.
    board = await fake.slash("alice", None, "american leaderboard")
    assert board.message.text().startswith("Leaderboard — by rating")
    board = await fake.slash("alice", None, "american leaderboard", {"order": "wins"})
    assert str(fake.user("alice").id) in board.message.text()
