"""Issue 35, parts 5-7, through the fake Discord on its clock: absent members told and
coming back from anywhere (`/games`'s Back button), a table of absent members paused
until one is back, turn timers and reminders as people say them, the games list's true
numbering without raw links, the Idiot burn on the public table, cancelling with a
confirmation."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.render import back_text, button_label, cancelled_panel
from bot.render.text import (
    absent_paused_text,
    away_row_text,
    cancel_confirm_labels,
    cancel_confirm_text,
    game_over_players_text,
    timeout_seat_text,
)
from bot.tables.table import PAUSE_ABSENT, abandon_at
from tests.e2e.driver import ButtonDriver, choose_ai, lobby_host_menu
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, StoredMessage

HOUR = 3600.0
DAY = 24 * HOUR


def _fields(message: StoredMessage) -> list[dict[str, Any]]:
    return list(message.embeds[0].get("fields", [])) if message.embeds else []


async def test_games_list_numbers_every_page_truly_without_raw_links(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """alice hosts six lobbies in six channels: /games shows four a page, page 2 numbers
    its rows 5 and 6 as its buttons do, and no row holds a raw link (each has its link
    button)."""
    async with bot_running(fake, tmp_path / "db.sqlite3"):
        channels = list(fake.guild.text_channels)
        while len(channels) < 6:
            channels.append(await fake.add_channel(f"table-{len(channels)}"))
        for channel in channels[:6]:
            new = await fake.slash("alice", channel, "amerikaner new", {"players": 3})
            assert not new.callback.ephemeral, new.callback.data
        it = await fake.slash("alice", None, "games")
        first = it.message
        assert first is not None
        assert [f["name"].split(".")[0] for f in _fields(first)] == ["1", "2", "3", "4"]
        nxt = next(b for b in first.buttons() if b.get("custom_id") == "amkg:2")
        page = await fake.click("alice", first, nxt["custom_id"])
        assert page.response_type == 7, page.callback.data
        second = fake.message(first)
        fields = _fields(second)
        assert [f["name"].split(".")[0] for f in fields] == ["5", "6"], fields
        links = [b for b in second.buttons() if b.get("style") == 5]
        assert [b["label"].split(".")[0] for b in links] == ["5", "6"], links
        for field in fields:
            assert "https://" not in field["value"], field


def _walk(command: dict[str, Any], path: tuple[str, ...] = ()
          ) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every command, subcommand and option of a synced command, with its path."""
    found = [(path, command)]
    for option in command.get("options") or []:
        found += _walk(option, (*path, command["name"]))
    return found


def _norwegian(item: dict[str, Any], key: str = "name") -> str:
    """What a member whose Discord is in Norwegian (locale `no`) reads."""
    return (item.get(f"{key}_localizations") or {}).get("no") or item[key]


async def test_every_command_word_reads_as_norwegian_words_once(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """As Discord holds the bot's commands: in Norwegian no command, option or choice
    name is snake_case (the house rules were `no_kitty`, `ved_tidsavbrudd`), and no
    command name means two things (`/spill` was both "my games" and "play a card")."""
    async with bot_running(fake, tmp_path / "db.sqlite3"):
        synced = list(fake.commands().values()) + list(fake.commands(fake.guild).values())
        assert synced
        meaning: dict[str, set[str]] = {}
        for top in synced:
            for path, item in _walk(top):
                name = _norwegian(item)
                assert "_" not in name, (path, item["name"], name)
                for choice in item.get("choices") or []:
                    assert "_" not in _norwegian(choice), (path, choice)
                if item is top or item.get("type") in (1, 2):  # a command's own name
                    meaning.setdefault(name, set()).add(item["name"])
            siblings = [_norwegian(o) for o in top.get("options") or []]
            assert len(siblings) == len(set(siblings)), siblings
        tops = [_norwegian(c) for c in synced]
        assert len(tops) == len(set(tops)), tops
        assert "games" in {c["name"] for c in synced}
        for name, english in meaning.items():
            assert len(english) == 1, (name, english)


async def test_turn_timers_in_hours_and_days_and_norwegian_reminders(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """`turn_timer` offers 1 hour ... 7 days as it is typed, in the member's language,
    and takes a typed length ("36h"); the lobby says "1 day a turn" (in a Norwegian
    server "1 døgn per trekk", its reminders in Norwegian units); reminders typed in
    Norwegian ("1t", "2 timer") are taken and fall on the fake's clock."""
    fake.user("bob").locale = "no"
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        english = await fake.autocomplete("alice", None, "amerikaner new", "turn_timer")
        names = [c["name"] for c in english.choices]
        assert names[:6] == ["1 hour", "12 hours", "1 day", "2 days", "3 days", "7 days"], names
        norsk = await fake.autocomplete("bob", None, "amerikaner new", "turn_timer")
        names = [c["name"] for c in norsk.choices]
        assert names[:6] == ["1 time", "12 timer", "1 døgn", "2 døgn", "3 døgn", "7 døgn"], \
            names
        typed = await fake.autocomplete("alice", None, "american new", "turn_timer",
                                        {"turn_timer": "36h"})
        assert typed.choices[0] == {"name": "36 hours", "value": "36h"}, typed.choices
        bad = await fake.slash("alice", None, "amerikaner new", {"turn_timer": "soon"})
        assert bad.callback.ephemeral and "soon is not a turn timer" in (bad.content or "")
        assert bot.tables.registry.in_channel(fake.channel.id) is None

        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "turn_timer": "1d", "reminders": "50%, 1t"})
        assert new.message is not None, new.callback.data
        lobby = fake.message(new.message).embeds[0]["description"]
        assert "1 day a turn" in lobby and "reminders: 50%, 1h" in lobby, lobby
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and table.turn_timer == DAY
        assert table.reminders == ("50%", "1h")
        said = await fake.slash("alice", None, "amerikaner cancel")
        assert said.callback is not None

        # A Norwegian server: the lobby in Norwegian words and units.
        said = await fake.slash("alice", None, "american settings", {"language": "nb"})
        assert said.callback.ephemeral, said.callback.data
        second = fake.guild.text_channels[1]
        new = await fake.slash("alice", second, "american new",
                               {"players": 2, "turn_timer": "3t", "reminders": "2 timer"})
        assert new.message is not None, new.callback.data
        lobby = fake.message(new.message).embeds[0]["description"]
        assert "3 timer per trekk" in lobby and "2t" in lobby, lobby
        table = bot.tables.registry.in_channel(second.id)
        assert table is not None and table.reminders == ("2h",)
        await fake.click("bob", new.message, f"amk:{table.id}:join")
        await fake.click("alice", new.message, f"amk:{table.id}:start")
        await fake.wait_until(lambda: table.to_act is not None and fake.clock.sleepers >= 1,
                              what="the turn's clock")
        seat = table.to_act
        assert seat is not None and table.turn_timer == 3 * HOUR

        def reminders() -> list[StoredMessage]:
            return [m for m, _ in fake.pings() if m.content.startswith("⏳")]

        fake.clock.advance(HOUR + 60)  # two hours left: "2 timer" falls
        await fake.wait_until(lambda: len(reminders()) == 1, 15, "the 2-hour reminder")
        assert table.reminded() == {"2h"} and table.to_act == seat


def _in(language: str, render: Any) -> str:
    from bot.i18n import use_locale

    with use_locale(language):
        return str(render())


@pytest.mark.parametrize("language", ["en", "nb"])
async def test_absent_members_are_told_the_table_waits_and_they_come_back_from_anywhere(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, language: str) -> None:
    """alice and bob with an AI, a 1-day timer whose end gives the seat to the AI. bob
    goes away; alice's time runs out: she is told in the channel (a mention that
    notifies her, with the way back), and with no human left present the table pauses:
    two days later no AI has moved and the table message says why. From another channel
    alice's /games lists her seat with "I'm back"; she clicks it and the game plays on;
    bob's `/amerikaner back` from another channel works too. In English and in
    Norwegian (the server's and the members' language)."""
    locale = "no" if language == "nb" else "en-US"
    fake.guild.preferred_locale = locale
    for name in ("alice", "bob"):
        fake.user(name).locale = locale
    elsewhere = fake.guild.text_channels[1]
    alice = fake.user("alice").id
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        bot.tables.shared.rng = random.Random(7)
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "preset": "amerikaner", "turn_timer": "1d",
                                "on_timeout": "seat"})
        assert new.message is not None, new.callback.data
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        await fake.click("bob", new.message, f"amk:{table.id}:join")
        await choose_ai(fake, "alice", fake.message(new.message), "fill")
        await fake.click("alice", new.message, f"amk:{table.id}:start")
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3)
        away = await fake.slash("bob", None, "amerikaner away")
        assert away.callback.ephemeral, away.callback.data
        assert table.seats[table.seat_of(fake.user("bob").id) or 0].away
        assert not table.paused  # alice is still here

        turn = await driver.next_turn()
        assert turn is not None and turn[1] == "alice"
        seat = turn[0]
        deadline = table.turn_deadline
        assert deadline is not None
        told = _in(language, lambda: timeout_seat_text(f"<@{alice}>", "")).split(":")[0]
        fake.clock.advance(deadline - fake.clock.time() + 1)
        await fake.wait_until(lambda: table.paused == {PAUSE_ABSENT}, 10, "the pause")
        await fake.wait_until(lambda: any(told in (m.content or "") and alice in p.users
                                          for m, p in fake.pings()), 10, "alice told")
        assert table.seats[seat].away
        # The pause says what is true (issue 52): nobody plays, and when it ends.
        paused_line = _in(language, lambda: absent_paused_text(abandon_at(table)))
        await fake.wait_until(lambda: table.message_id is not None and paused_line in (
            fake.message(table.message_id).embeds[0].get("description") or ""),
            10, "the table message to say it waits")

        # Two days on: no AI moved for the absent humans.
        version = table.version
        for _ in range(4):
            fake.clock.advance(12 * HOUR)
            await asyncio.sleep(0.05)
        assert table.version == version and table.paused == {PAUSE_ABSENT}
        assert table.stage == "playing"

        # alice, in another channel: /games shows the seat the AI covers, with its button.
        listed = await fake.slash("alice", elsewhere, "games")
        assert listed.message is not None
        row = _fields(listed.message)[0]["value"]
        assert _in(language, lambda: away_row_text(True)) in row and paused_line in row, row
        assert _in(language, away_row_text) not in row, row  # nobody plays her seat
        back = next(b for b in listed.message.buttons()
                    if b.get("custom_id") == f"amk:{table.id}:back:list")
        assert back["label"] == "1. " + _in(language, lambda: button_label("seat_back"))
        it = await fake.click("alice", listed.message, back["custom_id"])
        assert it.callback.ephemeral and it.content == _in(language, back_text), it.content
        assert not table.seats[seat].away and not table.paused
        # bob, too, from another channel (it said "There is no table in this channel").
        it = await fake.slash("bob", elsewhere, "amerikaner back")
        assert it.content == _in(language, back_text), it.content
        assert not any(s.away for s in table.seats if not s.is_ai)
        # The game plays on: a human's turn, on a fresh clock.
        await driver.next_turn()
        assert table.version > version or table.to_act is not None
        assert table.turn_deadline is not None and table.turn_deadline > fake.clock.time()
        # bob goes away again (alice plays on: no pause); the end reaches them both.
        await fake.slash("bob", None, "amerikaner away")
        assert not table.paused
        await driver.play_to_end()
        assert table.stage != "playing"
        bob = fake.user("bob").id
        over = _in(language, lambda: game_over_players_text([]))
        final = await fake.wait_until(lambda: next(
            (m for m in fake.messages() if (m.content or "").startswith(over.strip())),
            None), 10, "the final standings")
        assert f"<@{alice}>" in final.content and f"<@{bob}>" in final.content
        assert final.embeds and final.pings.users == {alice, bob}


@pytest.mark.parametrize("language", ["en", "nb"])
async def test_cancelling_from_the_lobby_menu_asks_first(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, language: str) -> None:
    """The host menu's "Cancel the table" sits beside the AI choices: it asks, for the
    host alone, and nothing changes until they say yes; "Keep the table" keeps it."""
    locale = "no" if language == "nb" else "en-US"
    fake.guild.preferred_locale = locale
    fake.user("alice").locale = locale
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
        lobby = new.message
        assert lobby is not None
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None
        menu = lobby_host_menu(fake, lobby)
        asked = await fake.select("alice", lobby, menu["custom_id"], ["cancel"])
        assert asked.callback.ephemeral and asked.message is not None
        assert asked.content == _in(language, cancel_confirm_text)
        assert bot.tables.registry.in_channel(fake.channel.id) is table  # nothing changed yet
        yes, keep = _in(language, lambda: "\n".join(cancel_confirm_labels())).split("\n")
        assert [b["label"] for b in asked.message.buttons()] == [yes, keep]
        kept = await fake.click_label("alice", asked.message, keep)
        assert kept.response_type == 7 and bot.tables.registry.in_channel(fake.channel.id) is table
        asked = await fake.select("alice", lobby, menu["custom_id"], ["cancel"])
        assert asked.message is not None
        done = await fake.click_label("alice", asked.message, yes)
        assert done.response_type == 7 and bot.tables.registry.in_channel(fake.channel.id) is None
        cancelled = _in(language, lambda: cancelled_panel("x").title)
        await fake.wait_until(lambda: cancelled in fake.message(lobby).text(), 10,
                              "the lobby to say it was cancelled")
        assert not fake.message(lobby).components
