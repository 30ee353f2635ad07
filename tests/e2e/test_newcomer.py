"""A newcomer finds the deal of the day and the features of days (issue 52, item 5):
the day's public message carries "Play today's deal", which starts the clicking
member's daily exactly as `/<game> daily` does (a persistent button: it still works
after a restart); `help` of both games ends with pages on play over days (/games,
/notify, timers, away and back) and on the daily (matchpoints explained), and names
"Fill the empty seats with AI" as the lobby's menu shows it; `hand` in a channel with
no table and `/games` with nothing open point to the daily."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.i18n import use_locale
from bot.render.lobby import lobby_ai_fill
from tests.e2e.driver import LeakChecker
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")


def _day_message(fake: FakeDiscord) -> StoredMessage | None:
    return next((m for m in fake.messages(None) if any(
        "Deal of the day" in (e.get("title") or "") for e in m.embeds)), None)


def _opened(it: Any) -> StoredMessage:
    """The member's daily panel an answer showed (its own message, for them alone)."""
    assert it.callback.ephemeral, it.callback.data
    assert it.message is not None
    return it.message


async def test_the_day_messages_button_starts_the_members_daily(
        fake: FakeDiscord, leaks: LeakChecker, error_logs: Any, answered: None,
        tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_running(fake, db, daily_secret="e2e") as bot:
        leaks.bot = bot
        by_command = _opened(await fake.slash("alice", None, "amerikaner daily"))
        await fake.wait_until(lambda: _day_message(fake) is not None, 10,
                              "the day's message")
        day = _day_message(fake)
        assert day is not None
        [button] = day.buttons()
        assert button["label"] == "Play today's deal"
        assert button["custom_id"] == "amkd:amerikaner"
        # bob clicks it: his own daily, as the command gives it, for him alone.
        by_button = _opened(await fake.click("bob", day, "amkd:amerikaner"))
        assert by_button.visible_to == fake.user("bob").id
        assert by_button.content == by_command.content  # "Your deal of the day (…)"
        assert by_button.buttons() and by_button.embeds[0]["title"] == "Your hand — bob"
        # ... the very panel his command gives him (his daily, taken up where it was).
        his = _opened(await fake.slash("bob", None, "amerikaner daily"))
        assert (his.content, his.embeds, his.buttons()) == \
            (by_button.content, by_button.embeds, by_button.buttons())
        cog = bot.get_cog("Tables")
        assert await cog.daily.daily_service.state(fake.guild.id, "amerikaner",
                                                   fake.user("bob").id) is not None
    # After a restart the same message's button still starts a member's daily.
    async with bot_running(fake, db, daily_secret="e2e") as bot:
        leaks.bot = bot
        again = _opened(await fake.click("carol", day, "amkd:amerikaner"))
        assert again.content == by_command.content and again.components


async def _pages(fake: FakeDiscord, game: str) -> list[dict[str, Any]]:
    """Every page of `game`'s help, turned with its Next button."""
    it = await fake.slash("alice", None, f"{game} help")
    message = it.message
    assert message is not None and it.callback.ephemeral
    pages = [fake.message(message).embeds[0]]
    while True:
        following = [b for b in fake.message(message).buttons()
                     if b.get("label") == "Next ▶" and not b.get("disabled")]
        if not following:
            return pages
        await fake.click("alice", message, following[0]["custom_id"])
        pages.append(fake.message(message).embeds[0])


async def test_help_and_empty_answers_lead_to_the_daily_and_the_days(
        fake: FakeDiscord, bot: Any) -> None:
    for game in ("amerikaner", "american"):
        pages = await _pages(fake, game)
        assert len(pages) == len(GAMES[game].words.help_pages()) + 3
        text = "\n".join(f"{p.get('title')}\n{p.get('description')}" for p in pages)
        for said in ("/games", "/notify", "/language", "Persian", "settings language:",
                     "turn-timer", f"/{game} away", f"/{game} back",
                     f"/{game} daily", "Play today's deal", "Matchpoints", "50%",
                     "**Fill the empty seats with AI** in the lobby's menu"):
            assert said in text, (game, said)
        assert "**Fill with AI**" not in text
        assert lobby_ai_fill("easy")[0] == "Fill the empty seats with AI"  # the menu's
    # Nothing open: where to begin.
    hand = await fake.slash("alice", None, "amerikaner hand")
    assert "/amerikaner daily" in (hand.content or ""), hand.content
    games = await fake.slash("alice", None, "games")
    assert games.message is not None
    listed = games.message.embeds[0]["description"]
    assert "/amerikaner daily" in listed and "/american daily" in listed, listed


def test_the_norwegian_help_pages_name_the_norwegian_commands() -> None:
    from bot.render.guide import days_help_pages
    with use_locale("nb"):
        text = "\n".join(f"{p.title}\n{p.description}" for p in days_help_pages("idiot"))
    for said in ("/mine-spill", "/varsle", "/idiot borte", "/idiot tilbake",
                 "/idiot dagens-giv", "Spill dagens giv", "Matchpoeng", "trekktid"):
        assert said in text, said
