"""Persian (فارسی, issue 55) through the fake Discord. Discord's locales have no Persian
(https://discord.com/developers/docs/reference#locales; the fake refuses to send one), so
a server chooses it for what everyone reads (`settings language:fa`) and a member for
what they alone read (`/language`), both kept in the store."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.games import GAMES
from bot.games.american import WORDS as american_words
from bot.games.amerikaner import WORDS as amerikaner_words
from bot.i18n import use_locale
from bot.render import error_text, language_text, member_language_text
from bot.tables.errors import TableError
from tests.e2e.american_driver import AmericanButtonDriver, open_american
from tests.e2e.driver import (
    NAMES,
    ButtonDriver,
    LeakChecker,
    learn_languages,
    open_table,
    wait_game_over,
)
from tests.e2e.rtl_checker import RightToLeftChecker
from tests.fake_discord import FakeDiscord


def _in(language: str, render: Any) -> str:
    with use_locale(language):
        return str(render())


def _no_table() -> str:
    """The refusal of a move where no Amerikaner table is."""
    return error_text(TableError("no_table"), GAMES["amerikaner"])


async def test_language_is_a_members_own_choice_kept_in_the_store(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """bob's Discord is English: /language makes what he alone reads Norwegian (his
    answers, his refusals), in every server, stored; "My Discord's" goes back."""
    bob = fake.user("bob").id
    said = await fake.slash("bob", None, "language", {"language": "nb"})
    assert said.callback.ephemeral
    assert said.content == _in("nb", lambda: member_language_text("nb", False))
    assert await bot.store.get_member_language(bob) == "nb"
    refused = await fake.slash("bob", None, "amerikaner bid", {"value": "pass"})
    assert refused.content == _in("nb", _no_table)
    assert refused.content != _no_table()
    # alice, at the same server, still reads her own Discord's English.
    hers = await fake.slash("alice", None, "amerikaner bid", {"value": "pass"})
    assert hers.content == _no_table()
    back = await fake.slash("bob", None, "language", {"language": "default"})
    assert back.content == member_language_text("en", True)
    assert await bot.store.get_member_language(bob) is None
    again = await fake.slash("bob", None, "amerikaner bid", {"value": "pass"})
    assert again.content == _no_table()


async def test_persian_is_offered_to_the_server_and_to_the_member(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """`settings language` and /language offer Persian; the server's choice is stored;
    the command names stay Discord's (English, Norwegian)."""
    group = fake.command("amerikaner")
    settings = next(o for o in group["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert "fa" in [c["value"] for c in language["choices"]]
    own = fake.command("language")
    offered = own["options"][0]
    assert [c["value"] for c in offered["choices"]] == ["en", "nb", "fa", "default"]
    assert set(own.get("name_localizations") or {}) <= {"no"}
    said = await fake.slash("alice", None, "amerikaner settings", {"language": "fa"})
    assert await bot.store.get_guild_language(fake.guild.id) == "fa"
    assert (said.content or "").endswith(language_text("fa"))


# ------------------------------------------------------------ whole games in Persian
@pytest.fixture
def rtl(fake: FakeDiscord) -> Iterator[RightToLeftChecker]:
    """Checks every message a Persian reader sees (tests/e2e/rtl_checker.py)."""
    checker = RightToLeftChecker(fake).install()
    yield checker
    checker.assert_clean()


async def _persian(fake: FakeDiscord, bot: AmerikanerBot, players: list[str]) -> None:
    """The server's language Persian (its owner, alice, chooses it), and each player's own
    (/language): both stored, and learnt by the driver."""
    await fake.slash("alice", None, "amerikaner settings", {"language": "fa"})
    for name in players:
        said = await fake.slash(name, None, "language", {"language": "fa"})
        assert said.content == _in("fa", lambda: member_language_text("fa", False))
    await learn_languages(fake, bot)


def _titles(fake: FakeDiscord) -> list[str]:
    return [m.embeds[0].get("title", "") for m in fake.messages()
            if m.embeds and m.visible_to is None]


@pytest.mark.parametrize(("preset", "players", "seed"),
                         [("amerikaner", 4, 2), ("kani", 4, 4)])
async def test_a_whole_game_in_persian(fake: FakeDiscord, bot: AmerikanerBot,
                                       leaks: LeakChecker, rtl: RightToLeftChecker,
                                       preset: str, players: int, seed: int) -> None:
    """A whole Amerikaner game and a Kani game (the Icelandic variant), in Persian: the
    server's table messages and each player's panel, every message checked as it is
    written: its left-to-right runs isolated, no English left (and no card leaked)."""
    names = list(NAMES[:players])
    await _persian(fake, bot, names)
    bot.tables.shared.rng = random.Random(seed)
    target = 12 if preset == "amerikaner" else 20
    await open_table(fake, names, {"preset": preset, "target": target})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.game is not None
    await ButtonDriver(fake, lambda: bot, fake.channel, seed=seed).play_to_end()
    await wait_game_over(fake, table)
    assert table.game.finished
    over = _in("fa", lambda: amerikaner_words._("Game over — {winners} win!")).split("{")[0]
    assert any(t.startswith(over) for t in _titles(fake)), _titles(fake)
    assert rtl.checked > 100
    leaks.assert_saw_all()


async def test_a_whole_american_game_in_persian(fake: FakeDiscord, bot: AmerikanerBot,
                                                leaks: LeakChecker,
                                                rtl: RightToLeftChecker) -> None:
    """A whole American game in Persian, every message checked as it is written."""
    names = list(NAMES[:3])
    await _persian(fake, bot, names)
    bot.tables.shared.rng = random.Random(3)
    await open_american(fake, names, {"swap": True, "target": 1})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.kind.name == "american"
    await AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=3).play_to_end()
    await wait_game_over(fake, table)
    assert table.game.finished
    over = _in("fa", lambda: american_words._("Game over — {winner} wins!")).split("{")[0]
    assert any(t.startswith(over) for t in _titles(fake)), _titles(fake)
    assert rtl.checked > 50
