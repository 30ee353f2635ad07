"""One live hand panel a player: opening a new one (My hand again, from the table or a
turn ping) takes the buttons off the older one, through its interaction's token, which
Discord lets edit its message for 15 minutes ("Interaction tokens are valid for 15
minutes", https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages,
as quoted in https://github.com/discord/discord-api-docs/pull/7836; the fake refuses
later edits with 50027). An ephemeral message has no other way to be edited
(https://github.com/discord/discord-api-docs/issues/3090). After that the old panel keeps
its buttons, and a click on one answers with the current panel, as before."""

from __future__ import annotations

from typing import Any

from bot.app import AmerikanerBot
from tests.e2e.driver import NAMES, open_table, table_message
from tests.fake_discord import FakeDiscord, StoredMessage


async def _open(fake: FakeDiscord, name: str) -> StoredMessage:
    it = await fake.click_label(name, table_message(fake), "My hand")
    assert it.response_type == 4 and it.message is not None, it
    return it.message


def _buttons(fake: FakeDiscord, message: Any) -> list[str]:
    return [b.get("label") for b in fake.message(message).buttons()]


async def test_a_new_panel_takes_the_buttons_off_the_older_one(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.to_act is not None
    name = table.seats[table.to_act].name
    first = await _open(fake, name)
    assert "Pass" in _buttons(fake, first)
    second = await _open(fake, name)
    await fake.wait_until(lambda: not fake.message(first).components, 5.0,
                          "the older panel to lose its buttons")
    assert "Pass" in _buttons(fake, second)  # the new one is live
    assert "Your turn" in fake.message(first).text()  # its hand stays as it was shown
    # Refreshing the live panel in place keeps its buttons.
    await fake.click_label(name, second, "Refresh")
    assert "Pass" in _buttons(fake, second)
    # Another player's panel is theirs: untouched.
    other = NAMES[(NAMES.index(name) + 1) % 4]
    theirs = await _open(fake, other)
    third = await _open(fake, name)
    await fake.wait_until(lambda: not fake.message(second).components, 5.0,
                          "the second panel to lose its buttons")
    assert fake.message(theirs).components and fake.message(third).components


async def test_after_15_minutes_the_old_panel_answers_with_the_current_one(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.to_act is not None
    name = table.seats[table.to_act].name
    old = await _open(fake, name)
    fake.clock.advance(16 * 60)  # the old panel's token has run out
    new = await _open(fake, name)  # opening again does not fail
    assert "Pass" in _buttons(fake, new)
    assert "Pass" in _buttons(fake, old)  # it could not be edited: its buttons stay
    version = table.version
    it = await fake.click_label(name, old, "Refresh")
    assert it.response_type == 7  # answered in place, with the current panel
    assert "Your turn" in fake.message(old).text() and table.version == version


async def test_an_older_panel_that_cannot_be_edited_never_fails_the_new_one(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.to_act is not None
    name = table.seats[table.to_act].name
    first = await _open(fake, name)
    fake.message(first).deleted = True  # dismissed by the player: Discord answers 10008

    def refused() -> list[Any]:
        return [e for e in fake.client_errors if "10008" in str(e)]
    second = await _open(fake, name)
    await fake.wait_until(lambda: bool(refused()), 5.0, "the edit of the old panel to fail")
    assert "Pass" in _buttons(fake, second)
    # The new panel plays on.
    version = table.version
    await fake.click_label(name, second, "Pass")
    assert table.version == version + 1
    # The one refusal this test provoked (the `bot` fixture fails on any other).
    fake.client_errors[:] = [e for e in fake.client_errors if "10008" not in str(e)]
    for interaction in fake.interactions.values():
        interaction.errors[:] = [e for e in interaction.errors if "10008" not in str(e)]
