"""A table whose channel is deleted (issue 52, item 9): its members are told once, by
DM; `/games` says in a sentence why it waits (not "#unknown · Your turn"); End and
Leave say what they do (End of a deal begun cancels it) and act only once confirmed;
the standings that reach the members by DM do not end with a turn nobody can play and
"Open My hand". Through the strict fake (a deleted channel refuses every request to
it: tests/fake_discord)."""

from __future__ import annotations

from typing import Any

from bot.app import AmerikanerBot
from bot.tables.table import CANCELLED, PAUSE_CHANNEL, PLAYING
from tests.e2e.test_lifecycle import ai_table, refused_there
from tests.fake_discord import FakeDiscord, StoredMessage


def _told(fake: FakeDiscord, name: str) -> list[StoredMessage]:
    return [m for m in fake.dm_messages(name) if "was deleted" in (m.content or "")]


def _answer(fake: FakeDiscord, it: Any) -> str:
    assert it.callback.ephemeral, it.callback.data
    return (fake.message(it.message).content if it.message is not None
            else it.callback.data.get("content")) or ""


async def test_a_deleted_channel_is_told_and_end_and_leave_ask_first(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    room = await fake.add_channel("cards")
    table = await ai_table(fake, bot, room, humans=("alice", "bob"), target=52)
    await fake.wait_until(lambda: table.version >= 10, 60, "ten moves")
    await fake.delete_channel(room)
    await fake.wait_until(lambda: PAUSE_CHANNEL in table.paused, 30, "the table to wait")
    # Each member is told once, by DM, naming the game and the way out.
    for name in ("alice", "bob"):
        await fake.wait_until(lambda n=name: _told(fake, n), 15, f"{name} told")
    # Another sign of the same deletion (a request answered 404) tells nobody again.
    await bot.get_cog("Tables").lifecycle.lost_channel(table, gone=True)  # type: ignore[union-attr]
    for name in ("alice", "bob"):
        (dm,) = _told(fake, name)
        assert "Amerikaner" in dm.content and "/games" in dm.content, dm.content

    # /games says why, in a sentence, instead of the channel and the turn.
    listed = await fake.slash("bob", None, "games")
    assert listed.message is not None
    (row,) = listed.message.embeds[0]["fields"]
    assert "Its channel was deleted: the table waits." in row["value"], row
    assert f"<#{room.id}>" not in row["value"] and "turn" not in row["value"].lower()
    assert not [b for b in listed.message.buttons() if b.get("url")]  # no dead link

    # Leave asks first, and says what it does; No changes nothing.
    leave = await fake.click_label("bob", fake.message(listed.message), "1. Leave")
    assert "The AI takes your seat" in _answer(fake, leave)
    assert table.seat_of(fake.user("bob").id) is not None
    assert leave.message is not None
    kept = await fake.click_label("bob", fake.message(leave.message), "No, keep it")
    assert "Nothing changed" in _answer(fake, kept)
    assert table.seat_of(fake.user("bob").id) is not None and table.stage == PLAYING

    # End asks first, and says the deal in play is cancelled; Yes ends it.
    listed = await fake.slash("alice", None, "games")
    assert listed.message is not None
    end = await fake.click_label("alice", fake.message(listed.message), "1. End the table")
    assert "The deal in play is cancelled" in _answer(fake, end)
    assert table.stage == PLAYING
    assert end.message is not None
    done = await fake.click_label("alice", fake.message(end.message), "Yes, end the table")
    assert "cancelled" in _answer(fake, done).lower()
    assert table.stage == CANCELLED

    # The standings by DM: the seats and points as they stood, no turn, no "My hand".
    for name in ("alice", "bob"):
        await fake.wait_until(lambda n=name: any(m.embeds for m in fake.dm_messages(n)),
                              15, f"{name}'s standings")
        (dm,) = [m for m in fake.dm_messages(name) if m.embeds]
        embed = dm.embeds[0]
        assert "pts" in str(embed.get("fields")), embed
        assert not embed.get("footer") and not embed.get("description"), embed
        assert "My hand" not in dm.text() and " to play" not in dm.text(), dm.text()
    refused_there(fake, room.id)
