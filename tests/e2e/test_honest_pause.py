"""Issue 52 items 1 and 8, issue 50 item 4 (offers), through the fake Discord: the pause
says what is true everywhere (nobody is told "the AI plays for you" while a pause holds
the table, and the paused table message does not wrap every seat with "away, AI
plays"), in English and Norwegian; a member who takes an offered seat during the pause
un-pauses the table; the offer mentions its invitee once (allowed_mentions: that user
alone, https://discord.com/developers/docs/resources/message#allowed-mentions-object)
and DMs them; repeated offers to one member leave one live offer message, pinging once;
the member whose seat was given away is told, and his `back` says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.render import seat_names
from bot.render.text import (
    absent_paused_text,
    away_row_text,
    away_text,
    error_text,
    left_text,
    replaced_text,
    seat_given_text,
)
from bot.tables.errors import TableError
from bot.tables.table import PAUSE_ABSENT, Seat, Table, abandon_at
from tests.e2e.driver import choose_ai
from tests.e2e.harness import bot_running
from tests.e2e.test_fair_ratings import _open
from tests.fake_discord import FakeDiscord, StoredMessage


def _in(language: str, render: Any) -> str:
    from bot.i18n import use_locale

    with use_locale(language):
        return str(render())


def _text(message: StoredMessage) -> str:
    """Everything a message shows in words: its content and its embeds' text."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def _ai_plays_mark(language: str) -> str:
    """The mark of an away seat the AI plays, without the name (" (away, AI plays)")."""
    return _in(language, lambda: seat_names([Seat(1, "x", away=True)])[0])[1:]


def _speak(fake: FakeDiscord, language: str) -> None:
    locale = "no" if language == "nb" else "en-US"
    fake.guild.preferred_locale = locale
    for name in ("alice", "bob", "carol"):
        fake.user(name).locale = locale


async def _paused_by_both(fake: FakeDiscord, bot: AmerikanerBot, language: str
                          ) -> tuple[Table, Any]:
    """alice (host), bob and an AI; bob goes away (alice plays on: the AI does play
    for him), then alice: the table waits. alice's answer, returned."""
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
    assert new.message is not None, new.callback.data
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    # By custom id: the buttons' labels are in the server's language.
    await fake.click("bob", new.message, f"amk:{table.id}:join")
    await choose_ai(fake, "alice", fake.message(new.message), "fill")
    await fake.click("alice", new.message, f"amk:{table.id}:start")
    assert table.stage == "playing"
    first = await fake.slash("bob", None, "amerikaner away")
    assert first.content == _in(language, lambda: away_text("amerikaner")), first.content
    assert not table.paused
    second = await fake.slash("alice", None, "amerikaner away")
    assert table.paused == {PAUSE_ABSENT}
    return table, second


@pytest.mark.parametrize("language", ["en", "nb"])
async def test_the_pause_says_what_is_true_everywhere(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, language: str) -> None:
    """While every member is away nobody plays: alice's away answer, the table message,
    /games and the host's offer say so, and the table message marks each seat only
    "away" (today: "The AI plays for you", "(away, AI plays)" on every seat, "Until
    then the AI plays it"). The server and its members speak `language` from the
    start (the bot reads the server's language when it joins)."""
    _speak(fake, language)
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        await _says_what_is_true(fake, bot, language)


async def _says_what_is_true(fake: FakeDiscord, bot: AmerikanerBot, language: str
                             ) -> None:
    table, answer = await _paused_by_both(fake, bot, language)
    ends = abandon_at(table)
    assert ends is not None
    assert answer.callback.ephemeral
    assert answer.content == _in(language, lambda: away_text("amerikaner", ends))
    assert answer.content != _in(language, lambda: away_text("amerikaner"))
    paused_line = _in(language, lambda: absent_paused_text(ends))
    mark = _ai_plays_mark(language)
    await fake.wait_until(lambda: table.message_id is not None
                          and paused_line in _text(fake.message(table.message_id)),
                          10, "the table message to say it waits")
    shown = _text(fake.message(table.message_id or 0))
    assert mark not in shown, shown
    away_mark = _in(language, lambda: seat_names([Seat(1, "x", away=True)], paused=True)[0])
    assert shown.count(away_mark[1:]) >= 2, shown  # both members, marked short
    listed = await fake.slash("alice", fake.guild.text_channels[1], "games")
    assert listed.message is not None
    row = _text(listed.message)
    assert _in(language, away_row_text) not in row and mark not in row, row
    assert _in(language, lambda: away_row_text(True)) in row and paused_line in row, row
    bob_seat = table.seat_of(fake.user("bob").id)
    assert bob_seat is not None
    offer = await fake.slash("alice", None, "amerikaner replace",
                             {"seat": bob_seat + 1, "member": "carol"})
    carol = fake.user("carol").id
    assert offer.content == _in(language, lambda: replaced_text(
        bob_seat + 1, f"<@{carol}>", True)), offer.content
    assert offer.content != _in(language, lambda: replaced_text(bob_seat + 1,
                                                                f"<@{carol}>"))


async def test_a_seat_taken_during_the_pause_unpauses_the_table(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """Both members away; alice offers bob's seat to carol, who takes it: carol is
    present, so the table plays on at once (today it stayed paused until alice came
    back), and bob is told his seat went to carol; his `back` says so."""
    table, _answer = await _paused_by_both(fake, bot, "en")
    bob, carol = fake.user("bob").id, fake.user("carol").id
    seat = table.seat_of(bob)
    assert seat is not None
    offer = await fake.slash("alice", None, "amerikaner replace",
                             {"seat": seat + 1, "member": "carol"})
    assert offer.message is not None, offer.content
    version = table.version
    taken = await fake.click(carol, offer.message, f"amk:{table.id}:offer:{seat}:yes")
    assert taken.response_type == 7, taken.callback.data
    assert table.seat_of(carol) == seat and not table.paused
    # The game goes on: the AI's seats and alice's (the AI covers her) move, up to
    # carol's turn or further.
    await fake.wait_until(lambda: table.version > version or table.to_act == seat, 30,
                          "the game to go on")
    told = await fake.wait_until(lambda: next(
        (m for m in fake.dm_messages("bob")
         if (m.content or "") == seat_given_text(fake.guild.name, table.channel_id,
                                                 table.kind.words.title(table.rules),
                                                 seat + 1, "carol")), None),
        10, "bob told by DM")
    assert told is not None
    back = await fake.slash("bob", None, "amerikaner back")
    assert back.callback.ephemeral
    assert back.content == error_text(TableError("not_seated", reason="seat_given"))
    assert back.content != "You are not at this table."


async def test_repeated_offers_leave_one_live_offer_that_mentions_once(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """alice offers bob's away seat to carol five times: one offer message stays in the
    channel (the last), carol is pinged by the first alone, each message names her
    once and allows no one else, and she gets one DM (today: five public posts naming
    her, none pinging her, no DM). The first names the seat by its away player, bob
    (today a seat number, which the table message does not show, was required)."""
    table = await _open(fake, bot, "amerikaner", ["alice", "bob"], {}, ["easy"])
    await fake.slash("bob", None, "amerikaner away")
    carol = fake.user("carol").id
    seat = table.seat_of(fake.user("bob").id)
    assert seat is not None
    # The seat named by its away player (the table message shows no seat numbers);
    # named by nothing: told how.
    unnamed = await fake.slash("alice", None, "amerikaner replace", {"member": "carol"})
    assert unnamed.callback.ephemeral
    assert unnamed.content == error_text(TableError("bad_input", reason="which_seat"))
    offers = []
    for index in range(5):
        which = {"player": "bob"} if index == 0 else {"seat": seat + 1}
        it = await fake.slash("alice", None, "amerikaner replace",
                              {**which, "member": "carol"})
        assert it.message is not None and not it.callback.ephemeral, it.content
        assert it.content is not None and it.content.count(f"<@{carol}>") == 1
        offers.append(it.message.id)
    await fake.wait_until(lambda: all(fake.message(m).deleted for m in offers[:-1]), 10,
                          "the earlier offers deleted")
    live = [m for m in fake.messages() if f"<@{carol}>" in (m.content or "")]
    assert [m.id for m in live] == offers[-1:], live
    pinged = [m for m, pings in fake.pings() if carol in pings.users]
    assert [m.id for m in pinged] == offers[:1], pinged
    assert all(pings.users <= {carol} for m, pings in fake.pings() if m.id in offers)
    assert len([m for m in fake.dm_messages("carol") if "seat" in (m.content or "")]) == 1
    # The last offer's buttons work: carol takes the seat.
    taken = await fake.click(carol, offers[-1], f"amk:{table.id}:offer:{seat}:yes")
    assert taken.response_type == 7, taken.callback.data
    assert table.seat_of(carol) == seat


async def test_the_last_member_to_leave_is_told_the_table_waits(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """bob is away; alice leaves for good: the AI does not play her seat, the table waits
    for bob, and her answer says so and when it ends (today: "the AI plays your seat
    from now on")."""
    table = await _open(fake, bot, "amerikaner", ["alice", "bob"], {}, ["easy"])
    await fake.slash("bob", None, "amerikaner away")
    left = await fake.slash("alice", None, "amerikaner leave")
    assert table.paused == {PAUSE_ABSENT}
    ends = abandon_at(table)
    assert ends is not None
    assert left.content == left_text("amerikaner", False, ends), left.content
    assert left.content != left_text("amerikaner", False)
