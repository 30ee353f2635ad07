"""Component ids are tied to their table's server and channel (issue 30, point 5). A
`join` sent from server 2 with a table id of server 1 once seated the member at server 1's
table, and a `cancel` from someone with Manage Server in server 2 cancelled it. Discord
sends only the ids of the clicked message, but a bot must not rely on it: an id of a
table elsewhere (another server, or another channel of the same one) is refused with a
clear sentence and changes nothing, and the host and Manage Server checks are made in
the table's own server. The forged clicks come from `fake.forge_component`."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.tables.table import LOBBY, PLAYING
from tests.e2e.american_driver import open_american
from tests.e2e.driver import NAMES, choose_ai, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, FakeInteraction, StoredMessage
from tests.fake_discord.models import FakeGuild

REFUSED = "That button belongs to a table in another channel: nothing was changed."


@pytest.fixture
async def other(fake: FakeDiscord) -> FakeGuild:
    """A second server, with the same members; frank owns it (Manage Server there)."""
    return fake.add_guild("Other", channel_names=("play",), owner=fake.user("frank"))


@pytest.fixture
async def bot(fake: FakeDiscord, other: FakeGuild, error_logs: Any, tmp_path: Path
              ) -> AsyncIterator[AmerikanerBot]:
    """The bot, started once both servers exist (it learns of them as it connects)."""
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(5)
        yield bot


async def a_message_in(fake: FakeDiscord, user: str, channel: Any) -> StoredMessage:
    """A message of the bot that `user` sees in `channel`: their own guide's page."""
    it = await fake.slash(user, channel, "amerikaner help")
    assert it.message is not None
    return it.message


def refused(it: FakeInteraction) -> None:
    assert it.callback.ephemeral and it.content == REFUSED, it.callback.data


def snapshot(bot: AmerikanerBot, table_id: int) -> Any:
    table = bot.tables.registry.get(table_id)
    assert table is not None
    seats = [(s.user_id, s.name, s.ai_level) for s in table.seats]
    return table.stage, table.version, seats, json.dumps(table.meta, sort_keys=True, default=str)


async def test_lobby_ids_from_another_server(fake: FakeDiscord, other: FakeGuild,
                                             bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
    lobby = new.message
    assert lobby is not None
    await fake.click_label("bob", fake.message(lobby), "Join")
    await choose_ai(fake, "alice", fake.message(lobby), "fill")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.stage == LOBBY and table.full
    before = snapshot(bot, table.id)
    there = other.text_channels[0]
    elsewhere = await a_message_in(fake, "frank", there)
    # frank seats himself, cancels with Manage Server of his own server, starts it.
    for user, op in (("frank", "join"), ("frank", "cancel"), ("frank", "start"),
                     ("frank", "ai:remove"), ("alice", "start"), ("alice", "cancel")):
        message = elsewhere if user == "frank" else await a_message_in(fake, user, there)
        refused(await fake.forge_component(user, message, f"amk:{table.id}:{op}"))
        assert snapshot(bot, table.id) == before, op
    refused(await fake.forge_component("frank", elsewhere, f"amks:{table.id}:house",
                                       values=[]))
    for choice in ("cancel", "remove", "add:easy"):  # the lobby's host menu
        refused(await fake.forge_component("frank", elsewhere, f"amks:{table.id}:host",
                                           values=[choice]))
        assert snapshot(bot, table.id) == before, choice
    # From another channel of the same server, too.
    games = fake.guild.text_channels[1]
    refused(await fake.forge_component("carol", await a_message_in(fake, "carol", games),
                                       f"amk:{table.id}:join"))
    assert snapshot(bot, table.id) == before
    # The lobby itself still works.
    start = await fake.click_label("alice", fake.message(lobby), "Start")
    assert start.response_type == 7 and table.stage == PLAYING


async def test_moves_from_another_server(fake: FakeDiscord, other: FakeGuild,
                                         bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.to_act is not None
    mover = table.seats[table.to_act].name
    there = other.text_channels[0]
    before = snapshot(bot, table.id)
    message = await a_message_in(fake, mover, there)
    v = table.version
    for custom_id in (f"amk:{table.id}:{v}:pass", f"amk:{table.id}:hand",
                      f"amk:{table.id}:hint:{v}", f"amk:{table.id}:rules"):
        refused(await fake.forge_component(mover, message, custom_id))
        assert snapshot(bot, table.id) == before, custom_id
    # Nor in a second game: American, a pick-up.
    american = await fake.add_channel("american")
    await open_american(fake, ["carol", "dave"], {}, channel=american)
    second = bot.tables.registry.in_channel(american.id)
    assert second is not None and second.to_act is not None
    mover = second.seats[second.to_act].name
    before = snapshot(bot, second.id)
    message = await a_message_in(fake, mover, there)
    for custom_id in (f"amk:{second.id}:{second.version}:pickup",
                      f"amk:{second.id}:{second.version}:play:2C"):
        refused(await fake.forge_component(mover, message, custom_id))
    assert snapshot(bot, second.id) == before


async def test_finished_games_from_another_server(fake: FakeDiscord, other: FakeGuild,
                                                  bot: AmerikanerBot) -> None:
    """A finished game's buttons (its review, rematch, standings) stay in its channel."""
    await open_american(fake, ["alice", "bob"], {})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    await bot.tables.lobby.cancel(table.id, fake.user("alice").id, False)
    message = await a_message_in(fake, "alice", other.text_channels[0])
    for custom_id in (f"amk:{table.id}:review:0", f"amk:{table.id}:rematch",
                      f"amk:{table.id}:leaderboard"):
        refused(await fake.forge_component("alice", message, custom_id))
