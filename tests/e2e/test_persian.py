"""Persian (فارسی, issue 55) through the fake Discord. Discord's locales have no Persian
(https://discord.com/developers/docs/reference#locales; the fake refuses to send one), so
a server chooses it for what everyone reads (`settings language:fa`) and a member for
what they alone read (`/language`), both kept in the store."""

from __future__ import annotations

from typing import Any

from bot.app import AmerikanerBot
from bot.games import GAMES
from bot.i18n import use_locale
from bot.render import error_text, language_text, member_language_text
from bot.tables import TableError
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
