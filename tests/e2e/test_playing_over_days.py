"""Casual games over days (issue 26), through the fake Discord with its clock moved
forward (no real waiting): turn pings that can be acted on (a new message naming the
player alone, with "My hand" and a link to the table), reminders with the time left,
a timeout covered by the AI, a restart mid-game that goes on following the open panels,
turn pings by direct message (and a member whose DMs are closed), the games list
(`/games`) before and after each move, and quiet channels (one new message a hand)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from bot.app import AmerikanerBot
from bot.render import button_label
from bot.tables.table import Table
from tests.e2e.american_driver import open_american
from tests.e2e.driver import (
    ButtonDriver,
    choose_ai,
    in_every_language,
    open_table,
    wait_game_over,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.models import iter_components

HOUR = 3600.0
DAY = 24 * HOUR
HAND = set(in_every_language(lambda: button_label("hand")))
DM_FAILED = "I could not send you a direct message"


def _hand_button(message: StoredMessage) -> dict[str, Any] | None:
    return next((b for b in message.buttons() if b.get("label") in HAND
                 and not b.get("disabled")), None)


def _summarised(fake: FakeDiscord, hands: int) -> bool:
    """`hands` hands are over and summarised, each in its table message, the last one
    offering the hand now played, and the next hand's table message is posted."""
    shown = [m for m in fake.messages() if m.embeds]
    summaries = [m for m in shown if m.embeds[0].get("title", "").startswith("Hand ")]
    return (len(summaries) == hands and len(shown) == hands + 1
            and _hand_button(summaries[-1]) is not None)


def _link(message: StoredMessage) -> str | None:
    return next((b["url"] for b in message.buttons() if b.get("style") == 5), None)


class Days:
    """The test's view of the pings: the channel's and each player's direct messages."""

    def __init__(self, fake: FakeDiscord, channel: Any = None) -> None:
        self.fake = fake
        self.channel = fake._channel(channel)

    def channel_pings(self, name: str) -> list[StoredMessage]:
        """The channel's messages that name `name` and carry their hand's button (the
        ones deleted since their turn passed too: every ping ever sent)."""
        mention = f"<@{self.fake.user(name).id}>"
        return [m for m in self.fake.messages(self.channel, deleted=True)
                if mention in (m.content or "") and _hand_button(m) is not None]

    def dm_pings(self, name: str) -> list[StoredMessage]:
        return [m for m in self.fake.dm_messages(name, deleted=True)
                if _hand_button(m) is not None]

    def pings(self, name: str) -> list[StoredMessage]:
        return sorted(self.channel_pings(name) + self.dm_pings(name), key=lambda m: m.id)

    async def new_ping(self, name: str, seen: int, what: str) -> StoredMessage:
        """The one ping `name` got after the first `seen` (waited for)."""
        await self.fake.wait_until(lambda: len(self.pings(name)) > seen, 10.0, what)
        fresh = self.pings(name)[seen:]
        assert len(fresh) == 1, [m.content for m in fresh]
        return fresh[0]

    async def games(self, name: str, channel: Any = None) -> StoredMessage:
        """`name`'s games list, as /games shows it to them alone."""
        it = await self.fake.slash(name, channel, "games")
        assert it.callback.ephemeral and it.message is not None, it.callback.data
        return it.message


def _fields(message: StoredMessage) -> list[dict[str, Any]]:
    return list(message.embeds[0].get("fields", [])) if message.embeds else []


def _table_messages(fake: FakeDiscord, table: Table) -> list[int]:
    """The ids of every message that has been `table`'s table message (it carries, or
    carried in an earlier version, the table's Rules button), oldest first."""
    rules = f"amk:{table.id}:rules"

    def carried(payload: dict[str, Any]) -> bool:
        return any(c.get("custom_id") == rules for c in iter_components(
            payload.get("components") or []))

    return sorted(m.id for m in fake.all_messages(table.channel_id)
                  if m.component(rules) is not None or any(map(carried, m.history)))


def _check_games(fake: FakeDiscord, message: StoredMessage, tables: list[Table],
                 user: int) -> None:
    """The games list shows `tables` in this order, each with its channel, its link
    button to the table message (no raw link in the text: issue 35), whose turn (the
    member's own in bold), the time left and the hand's button. The link is to the table
    message as it was when the list was drawn: the current one, or the one before it when
    a fresh one was posted since (a table message is posted afresh when it is too old to
    edit, by the outbox, at its own moment)."""
    fields = _fields(message)
    assert len(fields) == len(tables), fields
    links = [b for b in message.buttons() if b.get("style") == 5]
    assert len(links) == len(tables), links
    for index, (field, table) in enumerate(zip(fields, tables, strict=True), start=1):
        value = field["value"]
        assert field["name"] == f"{index}. {table.kind.words.title(table.rules)}"
        assert f"<#{table.channel_id}>" in value and "https://" not in value, value
        link = links[index - 1]
        assert link["label"] == f"{index}. Go to the table", link
        linked = re.search(rf"/{table.guild_id}/{table.channel_id}/(\d+)$", link["url"])
        assert linked is not None, link
        assert int(linked.group(1)) in _table_messages(fake, table)[-2:], link
        seat = table.to_act
        mine = seat is not None and table.seats[seat].user_id == user
        assert ("**Your turn**" in value) == mine, value
        if table.turn_deadline is not None:
            assert f"<t:{int(table.turn_deadline)}:R>" in value, value
        hands = [b for b in message.buttons()
                 if b.get("custom_id") == f"amk:{table.id}:hand:list"]
        assert len(hands) == 1 and hands[0]["label"] == f"{index}. Open my hand"


async def _open_from(fake: FakeDiscord, name: str, message: StoredMessage,
                     table: Table) -> StoredMessage:
    """`name` clicks "My hand" on `message` (a ping, a summary, the games list): their own
    hand at `table` opens, for them alone."""
    button = _hand_button(message) or next(
        b for b in message.buttons() if b.get("custom_id") == f"amk:{table.id}:hand:list")
    assert button["custom_id"] in (f"amk:{table.id}:hand", f"amk:{table.id}:hand:list")
    it = await fake.click(name, message, button["custom_id"])
    panel = it.message
    assert it.response_type == 4 and it.callback.ephemeral and panel is not None, \
        it.callback.data
    assert panel.visible_to == fake.user(name).id
    seat = table.seat_of(fake.user(name).id)
    assert seat is not None and table.seats[seat].name in panel.embeds[0]["title"]
    return panel


async def test_four_players_over_three_days(fake: FakeDiscord, tmp_path: Path,
                                            error_logs: Any) -> None:
    """alice and bob with two AIs, a 2-day timer. bob gets his pings by DM; alice asked
    for DMs too but hers are closed: her pings come in the channel, and she is told once.
    Every human turn starts with exactly one ping whose button opens the right hand; the
    games list is right before and after each move; a reminder at half time and one an
    hour before the deadline; one turn times out and the AI plays it; a restart mid-game
    goes on following alice's open panel."""
    db = tmp_path / "db.sqlite3"
    days = Days(fake)
    alice, bob = fake.user("alice"), fake.user("bob")
    start = fake.clock.time()
    bot: AmerikanerBot
    async with bot_running(fake, db) as bot:
        bot.tables.shared.rng = random.Random(11)
        for name in ("alice", "bob"):
            it = await fake.slash(name, None, "notify", {"where": "dm"})
            assert it.callback.ephemeral and "direct message" in (it.content or "")
        fake.close_dms("alice")
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 4, "preset": "amerikaner", "turn_timer": "2d"})
        lobby = new.message
        assert lobby is not None
        await fake.click_label("bob", fake.message(lobby), "Join")
        await choose_ai(fake, "alice", fake.message(lobby), "fill")
        await fake.click_label("alice", fake.message(lobby), "Start")
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=5)
        table = driver.table
        assert table.turn_timer == 2 * DAY

        told = 0
        # name -> how many pings they had had when they last moved
        moved_at: dict[str, int] = {"alice": 0, "bob": 0}

        async def human_turn(advance: float, *, games_channel: Any = None,
                             expect_ping: bool | None = True
                             ) -> tuple[int, str, StoredMessage]:
            """The human to act: their one ping (or their followed panel: None, either,
            as it comes), the games list before the move, `advance` seconds of thinking,
            their move from the ping's button (or the games list's, or the followed
            panel), the games list after it."""
            nonlocal told
            turn = await driver.next_turn()
            assert turn is not None
            seat, name = turn
            user = fake.user(name).id
            deadline = table.turn_deadline
            assert deadline is not None and abs(deadline - (table.turn_since or 0)
                                                - 2 * DAY) < 1
            before = await days.games(name, games_channel)
            _check_games(fake, before, [table], user)

            def followed() -> bool:
                panel = driver.hands.get(name)
                return panel is not None and "Your turn" in fake.message(panel).text()
            if expect_ping is None:
                await fake.wait_until(lambda: len(days.pings(name)) > moved_at[name]
                                      or followed(), 10.0, f"{name}'s ping or panel")
                expect_ping = len(days.pings(name)) > moved_at[name]
            if not expect_ping:
                await fake.wait_until(followed, 10.0, f"{name}'s panel to follow the turn")
                assert len(days.pings(name)) == moved_at[name]  # followed, not pinged
            else:
                await fake.wait_until(lambda: len(days.pings(name)) > moved_at[name], 10.0,
                                      f"{name}'s turn ping")
                fresh = days.pings(name)[moved_at[name]:]
                # One ping a turn: any other since their last move is a reminder.
                assert len([m for m in fresh if "⏳" not in m.content]) == 1, \
                    [m.content for m in fresh]
                ping = fresh[-1]
                assert table.to_act == seat
                link = _link(ping)
                assert link is not None and link.startswith(
                    f"https://discord.com/channels/{fake.guild.id}/{fake.channel.id}/")
                if name == "bob":  # by DM: the server, the channel and the game named
                    assert ping.channel_id != fake.channel.id
                    assert fake.guild.name in ping.content and \
                        f"<#{fake.channel.id}>" in ping.content and "Amerikaner" in ping.content
                else:
                    assert ping.channel_id == fake.channel.id
                    assert ping.content.startswith(f"<@{user}>")
                    assert ping.pings.users == frozenset({user}) and not ping.pings.roles
            fake.clock.advance(advance)
            if games_channel is not None:
                panel = await _open_from(fake, name, await days.games(name, games_channel),
                                         table)
            elif expect_ping:
                panel = await _open_from(fake, name, days.pings(name)[-1], table)
            else:
                panel = driver.hands[name]
            if name == "alice" and DM_FAILED in (panel.content or ""):
                told += 1
            await driver.act(name, seat, panel)
            driver.hands[name] = panel
            moved_at[name] = len(days.pings(name))
            await driver.wait_for_humans()  # the AIs' turns done: the list holds still
            after = await days.games(name, games_channel)
            _check_games(fake, after, [table], user)
            return seat, name, panel

        # Day 1: a few moves, each from its ping, hours apart (every panel's token runs
        # out in between: the ping is what brings the player back).
        for hours in (3, 5, 2, 4):
            await human_turn(hours * HOUR)
        assert days.dm_pings("bob") and not days.channel_pings("bob")
        assert days.channel_pings("alice") and not days.dm_pings("alice")
        assert told == 1  # told once, privately, in her hand panel
        settings = await bot.store.get_member_settings(fake.guild.id, alice.id)
        assert settings.get("turn_pings") == "channel" and settings.get("dm_failed_told")

        # A reminder at half time (a day gone), with the button and the time left.
        turn = await driver.next_turn()
        assert turn is not None
        seat, name = turn
        await fake.wait_until(lambda: len(days.pings(name)) > moved_at[name], 10.0,
                              f"{name}'s turn ping")
        seen = len(days.pings(name))
        deadline = table.turn_deadline
        assert deadline is not None
        fake.clock.advance(deadline - DAY - fake.clock.time() + 60)
        reminder = await days.new_ping(name, seen, "the half-time reminder")
        assert f"<t:{int(deadline)}:R>" in reminder.content and "⏳" in reminder.content
        await _open_from(fake, name, reminder, table)
        # An hour before the deadline, the second; then the deadline: the AI plays.
        fake.clock.advance(deadline - HOUR - fake.clock.time() + 60)
        reminder = await days.new_ping(name, seen + 1, "the one-hour reminder")
        assert f"<t:{int(deadline)}:R>" in reminder.content
        version = table.version
        fake.clock.advance(deadline - fake.clock.time() + 1)
        await fake.wait_until(lambda: table.version > version, 10.0, "the timeout")
        await fake.wait_until(lambda: any("time ran out" in (m.content or "")
                                          for m in fake.messages()), 10.0, "its notice")
        assert not table.seats[seat].away  # "play": that one turn only
        moved_at[name] = len(days.pings(name))

        # The next human moves from the games list, opened in another channel.
        await human_turn(2 * HOUR, games_channel=fake.guild.text_channels[1])

        # A restart mid-game, minutes after alice's move: her panel is followed on.
        for _ in range(8):
            turn = await driver.next_turn()
            assert turn is not None
            if turn[1] == "alice":
                break
            await human_turn(HOUR)
        # alice moves after 20 minutes (bob's panel runs out meanwhile); her panel's
        # token is of now, and stored.
        await human_turn(20 * 60)
    alice_pings = len(days.pings("alice"))
    async with bot_running(fake, db) as bot:
        driver.get_bot = lambda: bot
        table = driver.table
        while True:
            turn = await driver.next_turn()
            assert turn is not None
            if turn[1] == "alice":
                break
            await human_turn(60, expect_ping=None)  # bob, within minutes
        # Her stored panel follows the turn after the restart: no ping.
        await human_turn(60, expect_ping=False)
        assert len(days.pings("alice")) == alice_pings
        # After its token's 15 minutes, the ping takes over again.
        while True:
            turn = await driver.next_turn()
            assert turn is not None
            if turn[1] == "alice":
                break
            await human_turn(20 * 60, expect_ping=None)
        await human_turn(HOUR)
        assert len(days.pings("alice")) == alice_pings + 1
        # From his DMs bob may open his hand and move, nothing else: a forged leave or
        # cancel from there is refused and changes nothing.
        dm = days.dm_pings("bob")[-1]
        version, seats = table.version, [(s.user_id, s.away) for s in table.seats]
        for op in ("leave", "cancel", "ai:fill", "start"):
            it = await fake.forge_component("bob", dm, f"amk:{table.id}:{op}")
            assert it.callback.ephemeral and "another channel" in (it.content or ""), op
        assert table.version == version and [(s.user_id, s.away) for s in table.seats] \
            == seats and table.stage == "playing"
        assert fake.clock.time() - start > 2 * DAY
        # Nobody but the player concerned was ever pinged.
        for message, pings in fake.pings():
            assert pings.users <= {alice.id, bob.id} and not pings.roles \
                and not pings.everyone, message.content
            assert len(pings.users) == 1 and f"<@{next(iter(pings.users))}>" in message.content
        assert all(not m.pings for m in fake.dm_messages("bob"))


async def test_both_games_in_one_list_with_pings_you_can_act_on(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """alice and bob at an American table and an Amerikaner table (in two channels, each
    with a timer): /games lists both for each of them, the tables where it is their turn
    first, and each game's ping opens that game's hand; nothing pings anyone else."""
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(4)
        second = fake.guild.text_channels[1]
        await open_american(fake, ["alice", "bob"], {"turn_timer": "90"}, channel=second)
        await open_table(fake, ["bob", "alice", "carol"], {"preset": "amerikaner",
                                                           "turn_timer": "600"})
        american = bot.tables.registry.in_channel(second.id)
        amerikaner = bot.tables.registry.in_channel(fake.channel.id)
        assert american is not None and amerikaner is not None
        days = {american.id: Days(fake, second), amerikaner.id: Days(fake)}
        for table in (american, amerikaner):
            seat = table.to_act
            assert seat is not None
            name = table.seats[seat].name
            await fake.wait_until(lambda t=table, n=name: days[t.id].channel_pings(n), 10.0,
                                  f"{name}'s ping at {table.kind.name}")
            ping = days[table.id].channel_pings(name)[-1]
            assert table.kind.words.title(table.rules) in ping.content
            linked = re.search(rf"/{fake.guild.id}/{table.channel_id}/(\d+)", _link(ping) or "")
            assert linked is not None and int(linked.group(1)) in _table_messages(
                fake, table)[-2:], _link(ping)
            panel = await _open_from(fake, name, ping, table)
            assert "Your turn" in panel.text()
        for name in ("alice", "bob"):
            user = fake.user(name).id
            listed = await Days(fake).games(name)
            expected = sorted([american, amerikaner], key=lambda t: (
                t.seats[t.to_act or 0].user_id != user, t.turn_deadline or 0, t.id))
            _check_games(fake, listed, expected, user)
        carol = await Days(fake).games("carol", second)  # from another channel: hers only
        _check_games(fake, carol, [amerikaner], fake.user("carol").id)
        everyone = {fake.user(n).id for n in ("alice", "bob", "carol")}
        for message, pings in fake.pings():
            assert len(pings.users) == 1 and pings.users <= everyone and not pings.roles \
                and not pings.everyone, message.content


async def test_one_new_message_a_hand(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """Quiet channels: each hand's summary takes the place of its table message, so a hand
    adds one message with an embed (its table message), not two; every summary but the
    last carries "My hand", which opens the player's hand of the hand being played."""
    await open_table(fake, ["alice", "bob", "carol"], {"preset": "amerikaner", "target": 20},
                     via="buttons")
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3, refresh_share=1.0)
    table = driver.table
    scored = 0
    while await driver.step():
        assert table.game is not None
        if len(table.game.hand_totals) > scored and not table.game.finished:
            scored = len(table.game.hand_totals)
            # The edits and posts go at the bot's pace, not the clicks': wait until the
            # hand's summary and the next hand's table message are there, as the players
            # at the table see them before playing on (played faster than the bot posts,
            # the summary would be drawn after the game ended, without "My hand").
            await fake.wait_until(lambda n=scored: _summarised(fake, n), 30,
                                  f"hand {scored}'s summary and the next table message")
    await wait_game_over(fake, table)
    assert table.game is not None
    hands = len(table.game.hands)
    assert hands >= 2
    shown = [m for m in fake.messages() if m.embeds]
    titles = [m.embeds[0].get("title", "") for m in shown]
    summaries = [m for m, t in zip(shown, titles, strict=True) if t.startswith("Hand ")]
    assert len(summaries) == hands, titles
    # The lobby (the first table message), each later hand's table message, the final
    # standings: the summaries live in the table messages.
    assert len(shown) == hands + 1, titles
    for summary in summaries[:-1]:
        assert _hand_button(summary) is not None
    assert _hand_button(summaries[-1]) is None  # the game is over
