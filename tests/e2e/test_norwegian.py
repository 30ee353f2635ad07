"""Norwegian through the fake Discord: at a server whose language is Norwegian, what
everyone reads (the lobby, the table message, the posts, the final standings) is in
bokmål; each player's own panel and refusals follow their own Discord's language, so an
English player at the same table reads English; the synced commands carry their
Norwegian names and descriptions."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from bot.app import AmerikanerBot
from bot.games.amerikaner import WORDS as amerikaner_words
from bot.i18n import pgettext
from bot.render import button_label, error_text
from bot.tables.errors import TableError
from tests.e2e.driver import (
    ButtonDriver,
    in_bokmal,
    norwegian_fake,
    open_table,
    table_message,
    wait_game_over,
)
from tests.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord whose server is Norwegian, as are alice's and carol's Discord."""
    async for running in norwegian_fake():
        yield running


nb = in_bokmal


def _title(message: object) -> str:
    return message.embeds[0].get("title", "") if message.embeds else ""  # type: ignore[attr-defined]


async def test_a_norwegian_table_with_an_english_player(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3, "target": 1})
    lobby = new.message
    assert lobby is not None
    join = nb(lambda: button_label("join"))
    assert join != "Join" and join in [b["label"] for b in lobby.buttons()]
    await fake.click_label("bob", lobby, join)
    await fake.click_label("carol", lobby, join)
    await fake.click_label("alice", lobby, nb(lambda: button_label("start")))
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    mine = nb(lambda: button_label("hand"))
    # Each panel in its reader's words: alice's Norwegian, bob's English.
    alice = await fake.click_label("alice", table_message(fake), mine)
    bob = await fake.click_label("bob", table_message(fake), mine)
    assert _title(alice.message) == nb(lambda: _your_hand("alice"))
    assert _title(alice.message) != "Your hand — alice"
    assert _title(bob.message) == "Your hand — bob"
    # A refusal too: whoever is not to act clicks a move.
    waiting = next(s for s in table.seats if table.seats.index(s) != table.to_act)
    mover = table.seats[table.to_act].name
    said = await fake.slash(waiting.name, None, "amerikaner bid", {"value": "pass"})
    refusal = error_text(TableError("not_your_turn", name=mover))
    if waiting.name == "bob":
        assert said.content == refusal
    else:
        assert said.content == nb(lambda: error_text(TableError("not_your_turn", name=mover)))
        assert said.content != refusal
    await ButtonDriver(fake, lambda: bot, fake.channel, seed=4).play_to_end()
    await wait_game_over(fake, table)
    standings = [m for m in fake.messages() if m.embeds and m.visible_to is None]
    titles = [_title(m) for m in standings]
    assert not any(t.startswith("Game over") for t in titles), titles
    assert not any(re.match(r"Hand \d+: ", t) for t in titles), titles


def _your_hand(name: str) -> str:
    return amerikaner_words._("Your hand — {name}").format(name=name)  # the game's words


async def test_the_commands_carry_their_norwegian_names(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    group = fake.command("amerikaner")
    assert group["description_localizations"]["no"] == nb(  # the game's own words
        lambda: amerikaner_words.pgettext("command description", "Play Amerikaner and Kani"))
    assert group["description_localizations"]["no"] != group["description"]
    new = next(o for o in group["options"] if o["name"] == "new")
    assert new["name_localizations"]["no"] == nb(lambda: pgettext("command name", "new"))
    assert new["name_localizations"]["no"] != "new"
    players = next(o for o in new["options"] if o["name"] == "players")
    assert players["name_localizations"]["no"] != "players"
    assert players["description_localizations"]["no"] != players["description"]
    american = fake.command("american")
    assert american["description_localizations"]["no"] != american["description"]


async def test_settings_language_sets_the_servers_public_words(fake: FakeDiscord,
                                                              bot: AmerikanerBot) -> None:
    refused = await fake.slash("bob", None, "amerikaner settings", {"language": "en"})
    assert "Manage Server" in (refused.content or "")
    said = await fake.slash("alice", None, "amerikaner settings", {"language": "en"})
    assert said.callback.ephemeral
    new = await fake.slash("carol", None, "amerikaner new", {"players": 3})
    assert new.message is not None and "Join" in [b["label"] for b in new.message.buttons()]


async def test_a_turn_ping_by_dm_speaks_the_members_own_language(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """A DM is read by its member alone: at a Norwegian server, bob (whose Discord is
    English) who chose DMs is pinged in English, alice in Norwegian."""
    for name in ("alice", "bob"):
        await fake.slash(name, None, "notify", {"where": "dm"})
    await open_table(fake, ["alice", "bob", "carol"], {"target": 1})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=4)
    # A member who acted at the table minutes ago reads the turn in their open panel
    # (issue 35): the players here think for six minutes a move, so each turn is a DM.
    while not (fake.dm_messages("alice", deleted=True)
               and fake.dm_messages("bob", deleted=True)):
        fake.clock.advance(6 * 60)
        assert await driver.step(), "the game ended before both were pinged"
    english = "It is your turn at the Amerikaner table"
    assert (fake.dm_messages("bob", deleted=True)[0].content or "").startswith(english)
    alice = fake.dm_messages("alice", deleted=True)[0].content or ""
    assert alice.startswith(nb(lambda: _dm_start())) and not alice.startswith(english)


def _dm_start() -> str:
    from bot.i18n import _

    return _("It is your turn at the {game} table in {channel} on {server}.").split("{")[0]
