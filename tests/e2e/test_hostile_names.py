"""Members with crafted names play both games through the strict fake Discord (issue 30,
point 3; issue 25, "a name can ping the whole server"): named `@everyone`, `<@id>` (another
member's mention), `<@&id>` (a mentionable role's), a masked link, three backticks and a
right-to-left override, seated, timed out by the turn timer and claiming the rest.

Nothing pings anyone but the player whose turn it is (the fake computes `msg.pings` as
Discord does: the bot may mention everyone here, the role is mentionable), and no
version of any message the bot wrote, public or private, holds a name that renders as a
link, a mention, a code block or reversed text."""

from __future__ import annotations

import re
import time
from typing import Any

from bot.app import AmerikanerBot
from tests.e2e.american_driver import AmericanButtonDriver, open_american
from tests.e2e.driver import ButtonDriver, message_text, open_table
from tests.fake_discord import FakeDiscord

# Whatever renders as a mention, a channel, a role, a timestamp or a command, unescaped.
_CHIP = re.compile(r"(?<!\\)<(?:@[!&]?|#|t:|/|a?:)([^>]*)>")
_MASKED_LINK = re.compile(r"(?<!\\)\]\(")


async def hostile_members(fake: FakeDiscord) -> tuple[list[str], int, int]:
    """Add the crafted members: (their names, the victim's id, the role's id). The
    victim, alice, plays no part: a mention of her is always a forged one."""
    victim = fake.user("alice").id
    role = await fake.add_role("gamers", mentionable=True)
    names = ["@everyone", f"<@{victim}>", f"<@&{role.id}>", "[gift](https://example.com)",
             "```py", "\u202eevil"]
    for name in names:
        await fake.add_user(name)
    return names, victim, role.id


def every_text(fake: FakeDiscord) -> list[str]:
    """Each version of each message the bot wrote, ephemeral ones too."""
    texts = []
    for msg in fake.all_messages():
        if int(msg.author["id"]) != fake.bot_user.id:
            continue
        texts.extend(message_text(version) for version in msg.history)
        texts.append(message_text(msg))
    return texts


def assert_harmless(fake: FakeDiscord, players: set[int], victim: int) -> None:
    pinged = fake.pings()
    for msg, pings in pinged:
        # Only a turn line pings, and only the player it names first.
        first = re.match(r"(?:⏳ )?<@(\d+)>, ", msg.content)
        assert first is not None and int(first.group(1)) in players, msg.content
        assert pings.users == {int(first.group(1))}, (msg.content, pings)
        assert not pings.roles and not pings.everyone, (msg.content, pings)
    for text in every_text(fake):
        for chip in _CHIP.finditer(text):
            if re.fullmatch(r"<t:\d+:R>", chip.group(0)):
                continue  # the bot's own: the time left of a timed turn
            # The bot's own mention of a player (the turn line) is the only chip.
            assert chip.group(0).startswith("<@") and chip.group(1).isdigit() \
                and int(chip.group(1)) in players, (chip.group(0), text)
        assert str(victim) not in text.replace(f"\\<@{victim}\\>", ""), text
        assert not _MASKED_LINK.search(text), text
        assert "```" not in text, text
        assert "@everyone" not in text and "@here" not in text, text
        assert "\u202e" not in text, text


async def time_out(fake: FakeDiscord, bot: AmerikanerBot, table: Any) -> str:
    """Let the turn timer of the player to act run out (its reminder half way): the
    timeout notice's text."""
    seat = table.to_act
    name = table.seats[seat].name
    elapsed = time.monotonic() - table.last_activity
    table.meta["turn_timer"] = 2 * elapsed + 1.0  # the reminder in 0.5 s, the AI in 1 s
    bot.tables.turn_clock.arm(table)
    notice = await fake.wait_until(
        lambda: next((m for m in fake.messages() if "time ran out" in m.content), None),
        10.0, "the timeout notice")
    table.meta.pop("turn_timer", None)
    assert seat is not None and name
    return notice.content


async def test_crafted_names_at_an_amerikaner_table(fake: FakeDiscord, bot: AmerikanerBot
                                                    ) -> None:
    names, victim, role = await hostile_members(fake)
    lobby = await open_table(fake, names, {"preset": "amerikaner", "target": 30,
                                                "jokers": True})
    players = {fake.user(name).id for name in names}
    shown = next(v["embeds"][0]["description"] for v in fake.message(lobby).history
                 if "Ready" in v["embeds"][0]["description"])  # the full lobby
    # The names read as typed (Discord drops the escapes), the override is gone.
    assert "\\[gift\\](https://example.com)" in shown and "@\u200beveryone" in shown
    assert f"\\<@&{role}\\>" in shown and "\\`\\`\\`py" in shown and "\n6. evil" in shown
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=8, refresh_share=0.0)
    table = driver.table
    claimed = False
    for _ in range(600):
        turn = await driver.next_turn()
        assert turn is not None, "the game ended before a claim"
        seat, name = turn
        panel = await driver.open_hand(name)
        labels = {b.get("label") for b in fake.message(panel).buttons()}
        if "Claim the rest" in labels:
            before = table.version
            await fake.click_label(name, panel, "Claim the rest")
            if table.version > before:  # the claim held: announced in the channel
                claimed = True
                await fake.wait_until(lambda: any(
                    "claimed the remaining tricks" in m.content for m in fake.messages()),
                    5.0, "the claim's notice")
                break
            panel = await driver.open_hand(name)
        await driver.act(name, seat, fake.message(panel))
    assert claimed
    await driver.wait_for_humans()
    notice = await time_out(fake, bot, table)
    assert notice.startswith("⏰ ") and "time ran out" in notice
    assert_harmless(fake, players, victim)


async def test_crafted_names_at_an_american_table(fake: FakeDiscord, bot: AmerikanerBot
                                                  ) -> None:
    names, victim, _role = await hostile_members(fake)
    seated = names[:5]  # American seats five at most
    await open_american(fake, seated, {})
    players = {fake.user(name).id for name in seated}
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=3)
    table = driver.table
    timeouts = 0
    for step in range(40):
        if not await driver.step():
            break
        if step in (10, 30):  # a timed-out turn, twice: two different names
            await driver.wait_for_humans()
            await time_out(fake, bot, table)
            timeouts += 1
    assert timeouts == 2
    assert_harmless(fake, players, victim)
