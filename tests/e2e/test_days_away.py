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
from bot.games.amerikaner import _, ngettext  # the game's words, then the platform's
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
            game = driver.table.game
            at_move = (len(game.hands), game.hands[-1].tricks_done)
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
    # And who took the tricks completed since (the game's own facts, first).
    hand = table.game.hands[-1]
    if len(table.game.hands) == at_move[0] and hand.tricks_done > at_move[1]:
        # (Another hand by now: its result is told, not its tricks.)
        winner = table.seats[hand.history[-1][2]].name
        took = in_language_of(fake, name, lambda: ngettext(
            "{name} took {count} trick", "{name} took {count} tricks", 1)).split(" {count}")[0]
        assert took.format(name=winner) in " ".join(lines), lines
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


async def test_american_recap_names_pickups_and_burns(
        fake: FakeDiscord, bot: AmerikanerBot, leaks: Any) -> None:
    """American (issue 35 part 4 for the other game): alice moves, then is away while
    bob and carol play; when it is her turn again and one of them picked up
    the pile (or burned it) meanwhile, My hand starts with at most three lines that say
    who did (the game's own facts: a pickup is an action, a burn a consequence, as the
    table saw them), then whose turn it is. carol reads the same in Norwegian."""
    from bot.games.american.actions import PICKUP
    from tests.e2e.american_driver import AmericanButtonDriver, open_american

    await open_american(fake, ["alice", "bob", "carol"], {"turn_timer": "1d"})
    driver = AmericanButtonDriver(fake, lambda: bot, fake.channel, seed=35,
                                  refresh_share=1.0)
    told = {"alice": 0, "carol": 0}
    mark: dict[str, tuple[int, int, int]] = {}  # name: (deal, actions, burned) at their move
    for _step in range(400):
        turn = await driver.next_turn()
        if turn is None or all(told.values()):
            break
        name = turn[1]
        game = driver.table.game
        deal = game.deals[-1]
        if name in mark and told.get(name) == 0:
            index, start, burned = mark[name]
            others = [a for a in deal.actions[start:] if a.seat != turn[0]]
            pickups = [a for a in others if a.kind == PICKUP]
            if index == len(game.deals) - 1 and len(others) >= 2 \
                    and (pickups or len(deal.burned) > burned):
                # carol reads this panel in Norwegian (the driver reads English).
                english_locale = fake.user(name).locale
                if name == "carol":
                    fake.user(name).locale = "no"
                panel = await _open(fake, driver, name, retires=False)
                lines = (panel.content or "").splitlines()
                assert 2 <= len(lines) <= 3 and lines[-1] == _your_turn(fake, name), lines
                text = " ".join(lines)
                english = name != "carol"
                for action in pickups[:1]:  # the first pickup is named (a line may be cut)
                    who = driver.table.seats[action.seat].name
                    assert (f"{who} picked up the pile" if english
                            else f"{who} trakk inn bunken") in text, lines
                if not pickups:
                    assert ("burned the pile" if english else "slo ut bunken") in text, lines
                told[name] += 1
                fake.user(name).locale = english_locale
        if name in told:
            mark[name] = (len(game.deals) - 1, len(deal.actions) + 1, len(deal.burned))
        # No clock jumps here (the Amerikaner test above has its hours): a jump while
        # the bot still edits a followed panel in the background would outlive its token.
        await driver.step()
    assert all(told.values()), told
    leaks.assert_clean()
