"""While you were away (issue 35 part 4), through the strict fake Discord over hours of
its clock: a member who comes back to a table where others have played since their last
move opens My hand and reads, above their hand, at most three lines of what happened
(the plays, by whom; a deal that ended; whose turn it is), in their Discord's language;
a member who just moved, or who already saw that panel, reads none. The lines are
worded from the public record only: the leak checker (the `bot` fixture's) reads every
panel, and no card hidden from that member may show."""

from __future__ import annotations

from typing import Any

from bot.app import AmerikanerBot
from bot.i18n import _
from bot.render import button_label
from tests.e2e.driver import (
    NAMES,
    ButtonDriver,
    in_language_of,
    in_server_language,
    open_table,
    table_message,
)
from tests.fake_discord import FakeDiscord, StoredMessage

HOUR = 3600.0


def _since(fake: FakeDiscord, name: str) -> str:
    return in_language_of(fake, name, lambda: _("Since your last move: {moves}")
                          ).split("{")[0]


def _then(fake: FakeDiscord, name: str) -> str:
    return in_language_of(fake, name, lambda: _("Since then: {moves}")).split("{")[0]


def _your_turn(fake: FakeDiscord, name: str) -> str:
    return in_language_of(fake, name, lambda: _("Now it is your turn."))


async def _open(fake: FakeDiscord, driver: ButtonDriver, name: str,
                retires: bool) -> StoredMessage:
    """`name` opens their hand from the table message (its button in the server's
    language), which becomes the panel the driver plays from; with `retires`, their
    older panel (its token still valid) loses its buttons first, before the clock moves
    on (the bot does it in the background, through that token)."""
    label = in_server_language(fake, lambda: button_label("hand"))
    old = driver.hands.get(name)
    it = await fake.click_label(name, table_message(fake), label)
    assert it.response_type == 4 and it.message is not None, it
    if retires and old is not None:
        await fake.wait_until(lambda: not fake.message(old).components, 5.0,
                              "the older panel to lose its buttons")
    driver.hands[name] = fake.message(it.message)
    return fake.message(it.message)


async def _away_and_back(fake: FakeDiscord, driver: ButtonDriver, name: str) -> None:
    """`name` moves, opens their hand at once (nothing to tell), then is away for
    hours while the others play, until it is their turn again with at least two moves
    by others since theirs: then My hand starts with the lines, once."""
    others = 0
    moved = False
    while True:
        turn = await driver.next_turn()
        assert turn is not None, "the game ended first"
        if turn[1] == name and moved and others >= 2:
            break
        if turn[1] == name:
            await driver.step()
            moved, others = True, 0
            # Just moved: the panel they open says nothing of what they did.
            just = await _open(fake, driver, name, retires=True)
            assert _since(fake, name) not in (just.content or ""), just.content
        else:
            fake.clock.advance(2 * HOUR)  # the others think for hours
            await driver.step()
            others += 1 if moved else 0
    fake.clock.advance(3 * HOUR)
    panel = await _open(fake, driver, name, retires=False)
    lines = (panel.content or "").splitlines()
    heads = (_since(fake, name), _then(fake, name))
    told = [line for line in lines if line.startswith(heads)]
    assert told and 2 <= len(lines) <= 3, lines
    assert lines[-1] == _your_turn(fake, name), lines
    # It names who played since (the others at the table, by their names).
    table = driver.table
    assert any(seat.name in told[0] for seat in table.seats if seat.name != name), lines
    # Seen once: opening the hand again tells nothing new.
    again = await _open(fake, driver, name, retires=True)
    assert _since(fake, name) not in (again.content or ""), again.content
    await driver.step()  # and they play on from it


async def test_a_member_back_after_hours_reads_what_happened(
        fake: FakeDiscord, bot: AmerikanerBot, leaks: Any) -> None:
    fake.user("carol").locale = "no"  # carol reads Norwegian, the others English
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "turn_timer": "1d"})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=35, refresh_share=1.0)
    await _away_and_back(fake, driver, "alice")
    await _away_and_back(fake, driver, "carol")
    assert "Siden" in _since(fake, "carol")  # read in bokmål indeed
    leaks.assert_clean()
