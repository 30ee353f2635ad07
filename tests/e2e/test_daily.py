"""The deal of the day (issue 38) through the strict fake: three members of one server
play the same day's deal in their own panels (one of them across a restart), a member of
another server gets another deal, a second try is refused with a sentence, the results,
matchpoints and board are right (a tie included), nobody saw a hidden card or another's
result before finishing, and the day's one public message is edited, not posted again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.i18n import use_locale
from bot.render.daily import done_text, percent
from bot.render.text import card_list
from bot.tables.daily_board import matchpoints
from bot.tables.days import day_of
from bot.tables.table import Table
from tests.e2e.american_driver import AmericanButtonDriver
from tests.e2e.driver import ButtonDriver, LeakChecker, cards_in_text
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")


GAME = "amerikaner"
KIND = GAMES[GAME]


class DailyPlaying:
    """Plays a member's deal of the day through its panel's buttons, choosing as the
    table drivers do (their policy, seeded): two drivers of one seed play alike. After
    each move it checks the panel shows no card the member's seat may not know. Mixed
    into a game's button driver, whose `act` clicks the game's controls."""

    game = GAME
    fake: FakeDiscord
    get_bot: Any

    def setup(self, name: str, channel: Any) -> None:
        self.name = name
        self.guild_id = self.fake._channel(channel).guild_id
        self._table: Table | None = None
        self.finished = False

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    async def sync(self) -> None:
        cog = self.get_bot().get_cog("Tables")
        state = await cog.daily.daily_service.state(self.guild_id, self.game,
                                              self.fake.user(self.name).id)
        assert state is not None
        self.finished = state.finished
        self._table = cog.daily.daily_service.table(state)

    async def play(self, panel: StoredMessage, moves: int | None = None) -> StoredMessage:
        await self.sync()
        done = 0
        while not self.finished and (moves is None or done < moves):
            seat = self.table.seat_of(self.fake.user(self.name).id)
            assert seat is not None and self.table.to_act == seat
            panel = self.fake.message(panel)
            self.check_no_leak(panel, seat)
            try:
                await self.act(self.name, seat, panel)  # type: ignore[attr-defined]
            except AssertionError:
                # The last move shows the result, not the hand: that is checked below.
                if not self.finished:
                    raise
            done += 1
        if self.finished:
            # The result may follow a deferred answer (a slow step): wait for it to show.
            shown = panel.id
            await self.fake.wait_until(
                lambda: any("Deal of the day" in (e.get("title") or "")
                            for e in self.fake.message(shown).embeds), 30, "the result")
        panel = self.fake.message(panel)
        if not self.finished:
            self.check_no_leak(panel, self.table.seat_of(self.fake.user(self.name).id) or 0)
        return panel

    def check_no_leak(self, panel: StoredMessage, seat: int) -> None:
        hidden = GAMES[self.game].secret_cards(self.table.game, seat)
        assert not cards_in_text(panel.text()) & hidden, panel.text()


class DailyDriver(DailyPlaying, ButtonDriver):  # type: ignore[misc]
    def __init__(self, fake: FakeDiscord, get_bot: Any, channel: Any, seed: int,
                 name: str) -> None:
        ButtonDriver.__init__(self, fake, get_bot, channel, seed)
        self.setup(name, channel)


class AmericanDailyDriver(DailyPlaying, AmericanButtonDriver):  # type: ignore[misc]
    game = "american"

    def __init__(self, fake: FakeDiscord, get_bot: Any, channel: Any, seed: int,
                 name: str) -> None:
        AmericanButtonDriver.__init__(self, fake, get_bot, channel, seed)
        self.setup(name, channel)


def today_of(bot: Any) -> str:
    """Today in UTC (the servers of these tests have no time zone setting)."""
    return day_of(bot.get_cog("Tables").tables.shared.clock.time())


def _public_daily(fake: FakeDiscord, channel: Any) -> list[StoredMessage]:
    return [m for m in fake.messages(channel) if m.visible_to is None
            and any("Deal of the day" in (e.get("title") or "") for e in m.embeds)]


async def _open(fake: FakeDiscord, name: str, channel: Any = None, game: str = GAME
                ) -> StoredMessage:
    it = await fake.slash(name, channel, f"{game} daily")
    assert it.callback.ephemeral and it.message is not None, it.callback.data
    assert it.message.visible_to == fake.user(name).id
    # On a loaded machine the bot defers and shows the panel a moment later (its play
    # is stored by then): waited for, never assumed.
    shown = it.message.id
    return await fake.wait_until(lambda: (m := fake.message(shown)).embeds and m, 30,
                                 "the daily's panel")


async def reopened(fake: FakeDiscord, name: str, game: str = GAME) -> StoredMessage:
    """`/<game> daily` once the member has played: her result, reopened (after a
    deferred answer when the AI's advice takes its time), with the sentence over it."""
    it = await fake.slash(name, None, f"{game} daily")
    assert it.callback.ephemeral and it.message is not None, it.callback.data
    shown = it.message.id
    return await fake.wait_until(lambda: (m := fake.message(shown)).embeds and m, 30,
                                 "the result")


async def test_three_members_play_the_same_deal_of_the_day(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    current: dict[str, Any] = {}
    drivers = {name: DailyDriver(fake, lambda: current["bot"], fake.channel, seed, name)
               for name, seed in (("alice", 7), ("bob", 7), ("carol", 8))}
    other = fake.add_guild("Other", channel_names=("play",), owner=fake.user("frank"))
    other_channel = next(iter(other.channels.values()))

    async with bot_running(fake, db, daily_secret="e2e-secret") as bot:
        current["bot"] = bot
        alice = await drivers["alice"].play(await _open(fake, "alice"))
        assert "Deal of the day" in alice.embeds[0]["title"]
        # Bob plays as Alice did, halfway, then the bot restarts.
        bob_panel = await drivers["bob"].play(await _open(fake, "bob"), moves=3)
        assert not drivers["bob"].finished
        # The day's message shows Alice's result before the bot stops.
        await fake.wait_until(lambda: any("1 member has played" in m.text()
                                          for m in _public_daily(fake, fake.channel)),
                              30, "the day's message")
        # The leak checker (tests/e2e/daily_leaks.py) holds the daily to it while Bob
        # plays: Alice's result in the channel or in his panel, or a card of the deal
        # hidden from everyone in the day's message, are leaks (forged, then forgotten).
        bob_state = leaks.daily_states[(fake.guild.id, GAME, today_of(bot),
                                        fake.user("bob").id)]
        hidden = sorted(KIND.secret_cards(bob_state.game, None))
        channel = bot.get_partial_messageable(fake.channel.id)
        forged = [await channel.send("Deal of the day: alice · 50%"),
                  await channel.send(f"Deal of the day: {card_list(hidden[:1])}")]
        content = fake.message(bob_panel).content
        fake._apply_edit(fake.message(bob_panel), {"content": "1. alice 50%"}, [])
        assert [v.message_id for v in leaks.violations] == [forged[0].id, forged[1].id,
                                                            bob_panel.id]
        fake._apply_edit(fake.message(bob_panel), {"content": content}, [])
        leaks.violations.clear()
        for message in forged:
            await message.delete()
        # Carol, before she has played, sees no board of today's.
        refused = await fake.slash("carol", None, f"{GAME} daily", {"board": "day"})
        assert "once you have played" in (refused.content or "")
        # Nor Alice's record (the deal face up) by its number.
        today = await bot.get_cog("Tables").daily.daily_service.today(fake.guild.id, GAME)
        alice_play = await bot.store.daily_play(fake.guild.id, GAME, today,
                                                fake.user("alice").id)
        assert alice_play is not None and alice_play.game_id is not None
        exported = await fake.slash("carol", None, f"{GAME} export",
                                    {"game": alice_play.game_id})
        assert "once you have played" in (exported.content or "")
        assert not (exported.message and exported.message.attachments)

    async with bot_running(fake, db, daily_secret="e2e-secret") as bot:
        current["bot"] = bot
        # Bob goes on from the buttons on his panel, made before the restart.
        await drivers["bob"].play(bob_panel)
        carol = await drivers["carol"].play(await _open(fake, "carol"))
        # Her result: the deal face up, the lines, the day's board so far (all three).
        assert "The day's board so far" in carol.text()
        assert all(name in carol.text() for name in ("alice", "bob", "carol"))
        frank = DailyDriver(fake, lambda: current["bot"], other_channel, 7, "frank")
        await frank.play(await _open(fake, "frank", other_channel))

        # A second try the same day: refused, with a sentence.
        with use_locale("en"):
            sentence = done_text(GAME)
        again = await reopened(fake, "alice")
        assert again.content == sentence  # over her result, reopened (issue 52)

        # The records: one deal, the same answers to the same plays, another server's
        # deal another; each a finished game tagged with its day and server.
        store = bot.store
        plays = {}
        for name, driver in (*drivers.items(), ("frank", frank)):
            user = fake.user(name).id
            today = await bot.get_cog("Tables").daily.daily_service.today(driver.guild_id, GAME)
            play = await store.daily_play(driver.guild_id, GAME, today, user)
            assert play is not None and play.game_id is not None
            row = await store.get_game(play.game_id)
            assert row is not None and row.status == "finished"
            assert row.meta["daily"]["guild"] == driver.guild_id
            record = await store.load_record(play.game_id, record_format=KIND.record_format)
            assert "error" not in KIND.replay(KIND.record(record))
            plays[name] = (play, record)
        deal = {k: v for k, v in plays["alice"][1]["hands"][0].items() if k != "actions"}
        for name in ("bob", "carol"):
            assert {k: v for k, v in plays[name][1]["hands"][0].items()
                    if k != "actions"} == deal
        assert plays["alice"][1]["hands"][0]["actions"] == \
            plays["bob"][1]["hands"][0]["actions"]
        assert {k: v for k, v in plays["frank"][1]["hands"][0].items()
                if k != "actions"} != deal

        # The day's board: matchpoints against the day's results, Alice and Bob tied.
        scores = [plays[n][0].score for n in ("alice", "bob", "carol")]
        expected = dict(zip(("alice", "bob", "carol"), matchpoints(scores), strict=True))
        assert expected["alice"] == expected["bob"]
        board = await fake.slash("carol", None, f"{GAME} daily", {"board": "day"})
        text = board.message.text() if board.message is not None else ""
        for name in ("alice", "bob", "carol"):
            assert f"{name} · {percent(expected[name])}" in text, text

        for channel, count in ((fake.channel, "3 members"), (other_channel, "1 member")):
            await fake.wait_until(lambda c=channel, n=count: any(
                f"{n} ha" in m.text() for m in _public_daily(fake, c)), 30, "the message")
        # One public message for the day in each server, edited as members finished,
        # no card in it, and no result (the day's board is for those who finished).
        [public] = _public_daily(fake, fake.channel)
        assert public.edit_count >= 1
        assert "3 members have played" in public.text()
        assert "daily board:today, once you have played" in public.text()
        assert "%" not in public.text() and not cards_in_text(public.text())
        [other_public] = _public_daily(fake, other_channel)
        assert "1 member has played" in other_public.text()
        leaks.assert_saw_all(fake.channel)
        # Nothing else of the daily reached the channels.
        assert all(m.visible_to is not None or m.id in (public.id, other_public.id)
                   for m in fake.messages(fake.channel) + fake.messages(other_channel)
                   if m.author.get("bot"))


async def test_american_members_meet_the_same_answers(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        states = {}
        for name in ("alice", "bob"):
            driver = AmericanDailyDriver(fake, lambda: bot, fake.channel, 5, name)
            result = await driver.play(await _open(fake, name, game="american"))
            assert driver.finished
            assert "Deal of the day" in result.embeds[0]["title"]
            states[name] = await bot.get_cog("Tables").daily.daily_service.state(
                driver.guild_id, "american", fake.user(name).id)
        assert states["alice"].play.actions == states["bob"].play.actions
        assert states["alice"].play.score == states["bob"].play.score
        await fake.wait_until(lambda: any("2 members have played" in m.text()
                                          for m in _public_daily(fake, fake.channel)),
                              30, "the day's message")
        again = await reopened(fake, "bob", "american")
        assert "one try a day" in (again.content or "")
        assert len(_public_daily(fake, fake.channel)) == 1
        leaks.assert_saw_all(fake.channel)  # every panel by American's leak rules


async def test_the_days_message_is_posted_afresh_only_when_too_old_to_edit(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    # Discord allows few edits of a message older than an hour (30046,
    # https://discord.com/developers/docs/topics/opcodes-and-status-codes#json; the fake
    # allows 3 an hour): the day's message is posted afresh instead, once, after 55
    # minutes (bot/discord/messages.py). The day must not turn meanwhile: past 22:00
    # UTC the clock first moves on to the next day.
    now = fake.clock.time()
    to_midnight = 86_400 - now % 86_400
    if to_midnight < 2 * 3600:
        fake.clock.advance(to_midnight + 60)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        await alice.play(await _open(fake, "alice"))
        await fake.wait_until(lambda: any("1 member has played" in m.text()
                                          for m in _public_daily(fake, fake.channel)),
                              30, "the day's message")
        [first] = _public_daily(fake, fake.channel)
        fake.clock.advance(3600 + 60)
        bob = DailyDriver(fake, lambda: bot, fake.channel, 4, "bob")
        await bob.play(await _open(fake, "bob"))
        await fake.wait_until(lambda: any("2 members have played" in m.text()
                                          for m in _public_daily(fake, fake.channel)),
                              30, "the day's message")
        old, new = _public_daily(fake, fake.channel)
        assert old.id == first.id and not old.old_edits  # never edited once too old
        assert "1 member has played" in old.text() and new.edit_count == 0


async def test_a_member_plays_the_deal_of_the_day_from_a_dm(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    """`/amerikaner daily dm:True` sends the member's panel to their direct messages;
    its buttons are clicked there (interactions without a server, which Discord sends
    to shard 0: any process answers a daily's, it lives in the store), the panel is
    edited in place to the result, and the day's public message counts the play."""
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot:
        it = await fake.slash("alice", None, f"{GAME} daily", {"dm": True})
        assert it.callback.ephemeral
        assert (it.message.content if it.message else it.callback.data.get("content")) \
            == "Your deal of the day is in your direct messages."
        [panel] = fake.dm_messages("alice")
        assert "Your deal of the day on" in panel.text() and panel.components
        # The answer links to it (issue 52): a link button to the DM's message.
        assert it.message is not None
        (link,) = it.message.buttons()
        assert link.get("style") == 5 and link.get("url", "").endswith(
            f"/channels/@me/{panel.channel_id}/{panel.id}"), link
        alice = DailyDriver(fake, lambda: bot, fake.channel, 3, "alice")
        result = await alice.play(panel)
        assert alice.finished and result.id == panel.id
        assert "Deal of the day" in result.embeds[0]["title"]
        assert len(fake.dm_messages("alice")) == 1  # edited, never another DM
        await fake.wait_until(lambda: any("1 member has played" in m.text()
                                          for m in _public_daily(fake, fake.channel)),
                              30, "the day's message")
        # The same member in the channel: one try.
        again = await reopened(fake, "alice")
        assert "one try a day" in (again.content or "")
        leaks.assert_saw_all()  # the DM panel too, checked as the player's own
