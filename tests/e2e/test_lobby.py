"""The lobby through the fake Discord (issue 27: "a simpler lobby: at most three rows of
buttons; the AI levels explained in one line each"): in every state of both games a
phone shows the lobby's components in at most three lines (measured with
tests/fake_discord/layout.py; the five of before: Join/Leave/Start/Cancel/Add AI (easy)
and Add AI (strong)/Remove AI/Fill with AI each wrapped in two, and the house rules),
the host's menu offers the AI levels of the game at hand, each with a line that says how
it plays, in the server's language, and every lobby action of before is still there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.games import GAMES
from bot.render.text import (
    AI_LEVEL_LINES,
    lobby_ai_add,
    lobby_ai_fill,
    lobby_ai_remove,
    lobby_cancel_option,
)
from bot.tables.kind import GameKind
from tests.e2e.driver import (
    choose_ai,
    in_bokmal,
    lobby_host_menu,
    lobby_host_values,
    lobby_house_menu,
    norwegian_fake,
    phone_rows,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage

# Every registered game (the registry is the only list of games).
KINDS: dict[str, GameKind] = dict(GAMES)
# A phone shows the lobby whole with three lines of components (issue 27).
MOST_ROWS = 3


def _fits(fake: FakeDiscord, lobby: Any) -> bool:
    """At most three rows of components, shown in at most three lines on a phone."""
    return len(fake.message(lobby).components) <= MOST_ROWS \
        and phone_rows(fake, lobby) <= MOST_ROWS


def _table(bot: AmerikanerBot, fake: FakeDiscord) -> Any:
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    return table


async def _new(fake: FakeDiscord, game: str, options: dict[str, Any]) -> StoredMessage:
    new = await fake.slash("alice", None, f"{game} new", options)
    assert new.message is not None and not new.callback.ephemeral, new.callback.data
    return new.message


def _offered(levels: tuple[str, ...], *, free: bool, ai: bool) -> list[str]:
    """The host menu's values for a lobby with free seats or not, AI seats or not."""
    return ([*(f"add:{level}" for level in levels), "fill"] if free else []) + (
        ["remove"] if ai else []) + ["cancel"]


@pytest.mark.parametrize(("game", "options"), [
    ("amerikaner", {"players": 4}), ("amerikaner", {"players": 4, "preset": "kani"}),
    ("amerikaner", {"players": 5, "preset": "norsk"}),
    ("amerikaner", {"players": 6, "jokers": True}), ("american", {"players": 3}),
    ("american", {"players": 2, "swap": True})])
async def test_every_lobby_state_fits_three_rows_on_a_phone(
        fake: FakeDiscord, bot: AmerikanerBot, game: str, options: dict[str, Any]) -> None:
    lobby = await _new(fake, game, options)
    table = _table(bot, fake)
    levels = table.kind.ai_levels
    assert _fits(fake, lobby)  # only the host
    assert lobby_host_values(fake, lobby) == _offered(levels, free=True, ai=False)
    if table.players > 2:
        await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, levels[-1])  # an AI seat
    assert _fits(fake, lobby)
    assert lobby_host_values(fake, lobby) == _offered(levels, free=not table.full, ai=True)
    if not table.full:
        await choose_ai(fake, "alice", lobby, "fill")  # full, with AI seats
    assert table.full and _fits(fake, lobby)
    assert lobby_host_values(fake, lobby) == ["remove", "cancel"]
    house = table.kind.house_rules(table.rules)
    if house:  # a house rule switched on: the lobby keeps its shape
        await fake.select("alice", lobby, lobby_house_menu(fake, lobby)["custom_id"],
                          [house[0][0]])
        assert _fits(fake, lobby)
    # Every seat a human's: nothing to do with AI players; the table can be cancelled.
    while any(seat.is_ai for seat in table.seats):
        await choose_ai(fake, "alice", lobby, "remove")
    for name in ("bob", "carol", "dave", "erin", "frank")[len(table.seats) - 1:
                                                          table.players - 1]:
        await fake.click_label(name, lobby, "Join")
    assert table.full and not any(seat.is_ai for seat in table.seats)
    assert _fits(fake, lobby) and lobby_host_values(fake, lobby) == ["cancel"]
    start = await fake.click_label("alice", lobby, "Start")
    assert start.response_type == 7 and table.stage == "playing"


@pytest.mark.parametrize("game", list(GAMES))
async def test_each_level_of_the_game_is_added_by_the_menu_and_explained(
        fake: FakeDiscord, bot: AmerikanerBot, game: str) -> None:
    lobby = await _new(fake, game, {"players": 2 + len(KINDS[game].ai_levels)})
    table = _table(bot, fake)
    levels = KINDS[game].ai_levels
    menu = lobby_host_menu(fake, lobby)
    # Only the levels this game has, each explained in a line of its own.
    adds = [o for o in menu["options"] if o["value"].startswith("add:")]
    assert [o["value"] for o in adds] == [f"add:{level}" for level in levels]
    for option, level in zip(adds, levels, strict=True):
        # The game says what its own players do (GameWords.ai_level_line).
        line = KINDS[game].words.ai_level_line(level)
        assert line is not None and line != AI_LEVEL_LINES[level]
        assert (option["label"], option["description"]) == lobby_ai_add(level, line)
    refused = await choose_ai(fake, "bob", lobby, levels[0])
    assert "Only the host" in (refused.content or "")
    for level in levels:
        it = await choose_ai(fake, "alice", lobby, level)
        assert it.response_type == 7, it.content  # the lobby, edited
    assert [seat.ai_level for seat in table.seats[1:]] == list(levels)
    assert f"({levels[-1]})" in fake.message(lobby).text()  # the seat list names the level
    await choose_ai(fake, "alice", lobby, "remove")
    assert [seat.ai_level for seat in table.seats[1:]] == list(levels[:-1])


async def test_the_host_menu_cancels_the_table(fake: FakeDiscord,
                                               bot: AmerikanerBot) -> None:
    lobby = await _new(fake, "amerikaner", {"players": 4})
    await fake.click_label("bob", lobby, "Join")
    refused = await choose_ai(fake, "bob", lobby, "cancel")
    assert refused.callback.ephemeral and bot.tables.registry.in_channel(fake.channel.id)
    it = await choose_ai(fake, "alice", lobby, "cancel")
    assert it.response_type == 7 and bot.tables.registry.in_channel(fake.channel.id) is None
    # The confirmation is answered first, then the lobby message is edited.
    await fake.wait_until(lambda: "Table cancelled" in fake.message(lobby).text(), 10,
                          "the lobby to say it was cancelled")
    assert not fake.message(lobby).components


async def test_a_lobby_posted_with_the_old_buttons_still_works(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """A lobby message posted before the host menu keeps its buttons
    (`amk:<t>:ai:<choice>`, `amk:<t>:cancel`) until it is next edited: a click on one
    still does what it says."""
    lobby = await _new(fake, "amerikaner", {"players": 4})
    table = _table(bot, fake)
    for op in ("ai:strong", "ai:remove", "ai:easy", "ai:fill"):
        it = await fake.forge_component("alice", lobby, f"amk:{table.id}:{op}")
        assert it.response_type == 7, (op, it.content)
    assert [seat.ai_level for seat in table.seats[1:]] == ["easy", "easy", "easy"]
    it = await fake.forge_component("alice", lobby, f"amk:{table.id}:cancel")
    assert it.callback.ephemeral and it.message is not None  # it asks first (issue 35)
    it = await fake.click("alice", it.message, f"amk:{table.id}:cancel:yes")
    assert it.response_type == 7 and bot.tables.registry.in_channel(fake.channel.id) is None


def _shown(menu: dict[str, Any]) -> list[str]:
    return [f"{option['label']}\n{option.get('description', '')}"
            for option in menu["options"]]


async def test_the_ai_levels_are_explained_in_norwegian_on_a_norwegian_server(
        tmp_path: Path) -> None:
    async for fake in norwegian_fake():
        async with bot_running(fake, tmp_path / "db.sqlite3"):
            for game in KINDS:
                lobby = await _new(fake, game, {"players": 3})
                assert _fits(fake, lobby)  # the Norwegian labels are longer
                kind = KINDS[game]
                weakest = kind.ai_levels[0]
                expected = [*(in_bokmal(lambda level=level, kind=kind: "\n".join(
                                  lobby_ai_add(level, kind.words.ai_level_line(level))))
                              for level in kind.ai_levels),
                            in_bokmal(lambda level=weakest: "\n".join(lobby_ai_fill(level))),
                            in_bokmal(lambda: "\n".join(lobby_cancel_option()))]
                shown = _shown(lobby_host_menu(fake, lobby))
                assert shown == expected
                english = ["\n".join(lobby_ai_add(level, kind.words.ai_level_line(level)))
                           for level in kind.ai_levels]
                assert not set(shown) & set(english)  # translated, every one
                await choose_ai(fake, "alice", lobby, weakest)
                assert _fits(fake, lobby)
                assert in_bokmal(lambda: "\n".join(lobby_ai_remove())) in _shown(
                    lobby_host_menu(fake, lobby))
                await choose_ai(fake, "alice", lobby, "cancel")


def test_every_level_of_every_game_has_its_line_within_discords_limit() -> None:
    """A select option's label and description are at most 100 characters
    (https://discord.com/developers/docs/components/reference#string-select-select-option-structure);
    in both languages each fits, so none is cut."""
    for kind in KINDS.values():
        for level in kind.ai_levels:
            def both(level: str = level, kind: Any = kind) -> tuple[str, str]:
                return lobby_ai_add(level, kind.words.ai_level_line(level))
            for label, line in (both(), in_bokmal(both)):  # type: ignore[arg-type]
                assert line and len(line) <= 100 and len(label) <= 100
