"""The leak checker itself: it must catch what it is there to catch (else the games of
the suite would prove nothing), and the card parser reads what the bot writes."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.cards import card_label, cards_of, parse_card
from bot.render.text import card_list
from tests.e2e.driver import NAMES, ButtonDriver, LeakChecker, cards_in_text, open_table
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord


def test_cards_in_text_reads_labels_and_groups() -> None:
    cards = [parse_card(c) for c in ("AS", "KS", "10S", "QH", "9H", "2C", "JK1")]
    text = f"Your cards: {card_list(cards)}; trick: bob {card_label(cards[2])}"
    assert cards_in_text(text) == set(cards)
    assert cards_in_text("Trump: ♠ spades · ♥ Hearts · No trumps · AI 1 (easy)") == set()
    assert cards_in_text("10♦, A♣ → **carol**") == {parse_card("10D"), parse_card("AC")}


async def test_the_checker_catches_leaks(fake: FakeDiscord, leaks: LeakChecker,
                                         error_logs: Any, tmp_path: Path) -> None:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        leaks.bot = bot
        bot.tables.rng = random.Random(51)
        await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
        table = bot.tables.in_channel(fake.channel.id)
        assert table is not None and table.game.current is not None
        channel = bot.get_partial_messageable(fake.channel.id)
        held = cards_of(table.game.current.hands[1])
        kitty = table.game.current.deal.kitty
        await channel.send(f"seat 1 holds {card_label(held[0])}")
        await channel.send(f"kitty: {card_list(kitty)}")
        assert len(leaks.violations) == 2
        # a hand shown to someone else
        driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=51)
        seat, name = driver.whose_turn()  # type: ignore[misc]
        other = next(n for n in NAMES[:4] if n != name)
        it = await fake.slash(other, None, "amerikaner hand")
        assert it.message is not None and not leaks.violations[2:]
        # (the bot's own answers are clean; forge one: the first player's cards to another)
        fake._apply_edit(it.message, {"content": f"{card_list(held)}"}, [])
        if table.seat_of(fake.user(other).id) != 1:
            assert len(leaks.violations) == 3
        # the partner named before the called card is played
        for _ in range(300):
            hand = table.game.current
            if hand.called >= 0 and hand.partner < 0 and hand.called_holder >= 0:
                break
            await driver.step()
        else:
            raise AssertionError("no hidden partner with this seed")
        count = len(leaks.violations)
        await channel.send(f"Hand {len(table.game.hands)} · "  # type: ignore[union-attr]
                           f"**{table.seats[hand.called_holder].name}** (partner)")
        assert len(leaks.violations) == count + 1
        leaks.assert_saw_all()
    leaks.violations.clear()
