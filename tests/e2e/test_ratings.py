"""Ratings where people look (issue 28), through the fake Discord: `leaderboard` ranks by
rating by default (only members with enough rated hands), `order:` wins or points,
`period:` this month's season or all time, pages by button; `stats` shows the rating
with its uncertainty, this month's and the 30-day trend; in English and in Norwegian; and
a game played through the buttons is rated as it is played."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.i18n import pgettext
from bot.render import button_label
from bot.render.text import decimal, rated_deals
from bot.store import DayRow, GameRating, LoggedMatch, RatingRow, RatingUpdate
from bot.tables.rating_book import day_of, month_of
from bot.tables.ratings import MIN_RATED_HANDS
from tests.e2e.driver import (
    ButtonDriver,
    in_bokmal,
    norwegian_fake,
    open_table,
    table_message,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord
from tests.store_backends import GAME

NAMES = ("alice", "bob", "carol")


def _row(user: int, ordinal: float, hands: int, at: float, month: str | None = None
         ) -> RatingRow:
    return RatingRow(pool="amerikaner", user_id=user, mu=ordinal + 6.3, sigma=2.1,
                     ordinal=ordinal, hands=hands, ranked=hands >= MIN_RATED_HANDS,
                     updated_at=at, month=month)


async def _ratings(fake: FakeDiscord, bot: AmerikanerBot) -> dict[str, int]:
    """Twelve ranked members (alice first, with 27.4 ± 2.1), one with too few hands;
    alice and bob in this month's season; alice's rating 40 days ago."""
    now = fake.clock.time()
    ids = {name: fake.user(name).id for name in NAMES}
    game = await bot.store.create_game(fake.guild.id, 999, ids["alice"], {"players": 4}, 0,
                                       [], game=GAME)
    rows = [_row(ids["alice"], 21.1, 40, now), _row(ids["bob"], 1.0, 25, now),
            _row(ids["carol"], 30.0, 3, now)]
    rows += [_row(9000 + n, 10.0 - n, MIN_RATED_HANDS, now) for n in range(10)]
    await bot.store.write_ratings(RatingUpdate(
        guild_id=fake.guild.id, counted_before=0,
        games=(GameRating(game, "amerikaner", 0, (LoggedMatch(0, now, (ids["alice"],)),)),),
        ratings=tuple(rows),
        seasons=(_row(ids["bob"], 5.0, MIN_RATED_HANDS, now, month_of(now)),
                 _row(ids["alice"], 2.0, MIN_RATED_HANDS, now, month_of(now))),
        days=(DayRow("amerikaner", ids["alice"], day_of(now - 40 * 86400), 20.0, 3.0, 11.0),
              DayRow("amerikaner", ids["alice"], day_of(now), 27.4, 2.1, 21.1))))
    return ids


def _embed(it: Any) -> dict[str, Any]:
    message = it.message
    assert message is not None and message.embeds, it.callback.data
    return message.embeds[0]


async def test_the_boards_and_stats_by_rating(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    ids = await _ratings(fake, bot)
    board = await fake.slash("alice", None, "amerikaner leaderboard")
    embed = _embed(board)
    assert embed["title"] == "Leaderboard — by rating"
    lines = embed["description"].splitlines()
    assert lines[0] == f"1. **<@{ids['alice']}>** — 21.1 · 0 wins · 40 rated deals"
    assert len(lines) == 10 and f"<@{ids['carol']}>" not in embed["description"]
    # The second page, by its button: bob's 1.0 ties with member 9009's, whose id is
    # lower; twelve settled members, then carol, provisional however high her 30.0.
    page_two = await fake.click_label("alice", board.message, button_label("next"))
    assert _embed(page_two)["description"].splitlines() == [
        f"11. **<@9009>** — 1.0 · 0 wins · {MIN_RATED_HANDS} rated deals",
        f"12. **<@{ids['bob']}>** — 1.0 · 0 wins · 25 rated deals",
        f"13. **<@{ids['carol']}>** — 30.0 · 0 wins · 3 rated deals · provisional",
        f"_Provisional: fewer than {MIN_RATED_HANDS} rated deals; the rating is still "
        "settling._"]
    month = await fake.slash("alice", None, "amerikaner leaderboard", {"period": "month"})
    embed = _embed(month)
    assert embed["title"] == f"Leaderboard — by rating, {month_of(fake.clock.time())}"
    assert [line.split("**")[1] for line in embed["description"].splitlines()] == [
        f"<@{ids['bob']}>", f"<@{ids['alice']}>"]
    wins = await fake.slash("alice", None, "amerikaner leaderboard", {"order": "wins"})
    assert _embed(wins)["title"] == "Leaderboard"  # nobody has finished a game
    american = await fake.slash("alice", None, "american leaderboard")
    assert _embed(american)["description"] == "Nobody has a rated deal yet."
    stats = _embed(await fake.slash("alice", None, "amerikaner stats"))
    # One value, by one name: the board's 21.1 is the rating `stats` leads with, and
    # its trend is that value's (11.0 forty days ago).
    assert "Rating: 21.1 (40 rated deals)" in stats["description"]
    assert "Last 30 days: ▲ 10.1" in stats["description"]
    assert f"This month: 2.0 ({MIN_RATED_HANDS} rated deals)" in stats["description"]
    assert "27.4 less three times its uncertainty 2.1" in stats["description"]
    carol = _embed(await fake.slash("carol", None, "amerikaner stats"))
    assert f"Provisional: settled after {MIN_RATED_HANDS - 3} more rated deals." \
        in carol["description"]
    nobody = _embed(await fake.slash("dave", None, "amerikaner stats"))
    assert "Rating: no rated deals yet." in nobody["description"]


@pytest.fixture
async def norwegian() -> AsyncIterator[FakeDiscord]:
    async for running in norwegian_fake():
        yield running


async def test_the_rating_board_and_stats_in_norwegian(norwegian: FakeDiscord,
                                                       tmp_path: Path) -> None:
    fake = norwegian
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        ids = await _ratings(fake, bot)
        embed = _embed(await fake.slash("alice", None, "amerikaner leaderboard"))
        assert embed["title"] == in_bokmal(lambda: "Toppliste — etter rating")
        assert embed["description"].splitlines()[0] == \
            f"1. **<@{ids['alice']}>** — 21,1 · 0 seirer · 40 ratede giv"
        month = _embed(await fake.slash("alice", None, "amerikaner leaderboard",
                                        {"period": "month"}))
        assert month["title"].startswith("Toppliste — etter rating, ")
        stats = _embed(await fake.slash("alice", None, "amerikaner stats"))
        assert "Rating: 21,1 (40 ratede giv)" in stats["description"]
        assert "Siste 30 dager: ▲ 10,1" in stats["description"]
        assert in_bokmal(lambda: pgettext("decimal sign", ".")) == ","
        assert in_bokmal(lambda: decimal(-2.25)) in ("-2,2", "-2,3")


async def test_a_game_is_rated_as_it_is_played(fake: FakeDiscord, bot: AmerikanerBot
                                               ) -> None:
    bot.tables.shared.rng = random.Random(5)
    await open_table(fake, list(NAMES), {"preset": "amerikaner", "target": 1})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    buttons = ButtonDriver(fake, lambda: bot, fake.channel, seed=5)
    buttons.table_id = table.id
    for _ in range(2000):
        if table.game.finished:
            break
        await buttons.step()
    assert table.game.finished
    matches = len(table.kind.rating_matches(table.game))
    ids = [fake.user(name).id for name in NAMES]
    state = await bot.store.rating_state(table.id, fake.guild.id, "amerikaner",
                                         month_of(fake.clock.time()), ids)
    assert state.rated == matches and state.counted == matches
    for user in ids:  # every hand of a three-player game has every seat in it
        assert state.ratings[user].hands == matches
    stats = _embed(await fake.slash("alice", None, "amerikaner stats"))
    rating = state.ratings[ids[0]]
    assert f"Rating: {decimal(rating.ordinal)} ({rated_deals(rating.hands)})" \
        in stats["description"]
    assert table_message(fake) is not None
