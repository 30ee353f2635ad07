"""The platform's default hand panel (cogs/tables/default_panel.py) at a real table of
each of the bot's games, through the strict fake Discord: its buttons say what they do,
in the imperative ("Bid 7", "Pass"), and a choice that follows another (the card called
after the card led, a discard's cards one at a time, the face-up cards taken for the
hand cards given) is offered as a first step, then the next, in the same panel, and
plays the move the player chose (issue 51). The games' own cogs group their controls
otherwise; here a cog without controls of its own stands in for each
(tests/e2e/default_panel_cogs.py), as a new game's would be.

Discord's limits the panel keeps (25 buttons in 5 rows, labels of 80 characters:
https://discord.com/developers/docs/components/reference, cited in the module) are the
fake's to enforce: it refuses a message over them (tests/discord/test_fake_contract.py,
test_more_than_25_buttons_or_a_label_over_80_characters_is_refused)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.tables.table import Table
from tests.e2e.default_panel_cogs import default_panel_for
from tests.e2e.driver import LeakChecker, open_table, table_message
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord

Record = Mapping[str, Any]


def _bidding(records: list[Record], table: Table) -> Callable[[Record], bool]:
    """Amerikaner: keep the hand, open the bidding with the lowest bid, then pass: the
    opener wins the contract and leads with a call."""
    bid_made = any(a.get("action") == "bid" for a in _actions(table))
    return lambda r: (r.get("action") == "exchange" and not r.get("cards")) or (
        r.get("action") == "pass" if bid_made else r.get("action") == "bid")


# game, players, options, which button a player prefers (else a step, else the first),
# and the move made in steps the test waits for.
CASES: dict[str, tuple[int, dict[str, Any], Callable[..., Callable[[Record], bool]],
                       Callable[[Record], bool]]] = {
    "amerikaner": (4, {}, _bidding, lambda r: "call" in r),
    "american": (2, {"swap": True}, lambda records, table: lambda r: False,
                 lambda r: r.get("action") == "swap" and bool(r.get("up"))),
}


def _actions(table: Table) -> list[Record]:
    """Every action of the game's record so far, in order."""
    kind = GAMES[table.kind.name]
    return [action for deal in kind.dump(table.game)[kind.DEALS]
            for action in deal.get("actions", ())]


async def _move_by_steps(fake: FakeDiscord, table: Table,
                         prefer: Callable[[Record], bool]) -> tuple[list[str], Record]:
    """The player to act opens their hand and clicks through the default panel: a
    preferred action's button, else a step, else the first action's; a step's panel
    offers the next choices. The labels clicked, and the action chosen."""
    seat = table.to_act
    assert seat is not None
    name, version = table.seats[seat].name, table.version
    kind = table.kind
    legal = kind.legal_actions(table.game, seat)
    records = [dict(kind.action_to_json(action)) for action in legal]
    opened = await fake.click_label(name, table_message(fake), "My hand")
    assert opened.message is not None and opened.callback.ephemeral
    panel_id = opened.message.id
    labels: list[str] = []
    while True:
        panel = fake.message(panel_id)
        buttons = [b for b in panel.buttons() if ":act:" in b["custom_id"]
                   or ":step:" in b["custom_id"]]
        acts = [b for b in buttons if ":act:" in b["custom_id"]]
        if not labels:  # the first step: every button is worded as the words word it
            steps = kind.words.action_steps(records)
            assert all(b["label"] in {*(s[0] for s in steps),
                                      *(kind.words.action_label(r) for r in records)}
                       for b in buttons), [b["label"] for b in buttons]
        chosen = next((b for b in acts if prefer(records[_index(b)])), None) \
            or next((b for b in buttons if ":step:" in b["custom_id"]), None) or acts[0]
        labels.append(chosen["label"])
        it = await fake.click(name, panel, chosen["custom_id"])
        assert it.response_type == 7, it.callback.data  # the same panel, edited
        if ":act:" in chosen["custom_id"]:
            await fake.wait_until(lambda: table.version > version)
            return labels, records[_index(chosen)]
        assert table.version == version  # a step changes nothing
        title = fake.message(panel_id).embeds[0]["title"]
        assert title == " → ".join(labels) + " → …", title  # what was chosen so far


def _index(button: Mapping[str, Any]) -> int:
    return int(button["custom_id"].rsplit(":", 1)[1])


@pytest.mark.parametrize("game", sorted(CASES))
async def test_the_default_panel_words_actions_and_plays_a_choice_in_steps(
        game: str, fake: FakeDiscord, leaks: LeakChecker, error_logs: Any,
        answered: None, tmp_path: Path) -> None:
    players, options, prefer_of, done = CASES[game]
    kind = GAMES[game]
    with default_panel_for(game):
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            leaks.bot = bot
            bot.tables.shared.rng = random.Random(7)
            await open_table(fake, ["alice", "bob", "carol", "dave"][:players], options,
                             game=game)
            table = bot.tables.registry.in_channel(fake.channel.id)
            assert table is not None and table.kind is kind
            for _move in range(40):
                legal = [dict(kind.action_to_json(a))
                         for a in kind.legal_actions(table.game, table.to_act)]
                labels, chosen = await _move_by_steps(fake, table,
                                                      prefer_of(legal, table))
                played = _actions(table)[-1]
                assert played == chosen, (played, chosen)  # the move the player chose
                steps = kind.words.action_steps(legal)[legal.index(chosen)]
                if len(labels) > 1:  # chosen in steps: the labels clicked are its steps
                    last = len(labels) - 1  # (the last one whole, if it alone was left)
                    assert tuple(labels[:last]) == steps[:last], (labels, steps)
                    assert labels[last] in (steps[last], kind.words.action_label(chosen))
                else:
                    assert labels == [kind.words.action_label(chosen)]
                if done(played):
                    assert len(labels) > 1, labels
                    break
            else:
                raise AssertionError("no move was made in steps")


async def test_a_step_drawn_for_another_state_or_forged_changes_nothing(
        fake: FakeDiscord, error_logs: Any, answered: None, tmp_path: Path) -> None:
    """A step's button drawn for another state shows the hand as it is now (the panel
    edited, as a stale move's click is); one naming no step is refused in words. None
    changes the table."""
    from bot.render import moved_on_text, old_button_text

    with default_panel_for("american"):
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            bot.tables.shared.rng = random.Random(7)
            await open_table(fake, ["alice", "bob"], {"swap": True}, game="american")
            table = bot.tables.registry.in_channel(fake.channel.id)
            assert table is not None and table.to_act is not None
            name, version = table.seats[table.to_act].name, table.version
            opened = await fake.click_label(name, table_message(fake), "My hand")
            assert opened.message is not None
            panel = fake.message(opened.message.id)
            step = next(b["custom_id"] for b in panel.buttons() if ":step:" in b["custom_id"])
            head, tail = step.split(":step:")  # head: the table's prefix and the version
            another = f"{head.rsplit(':', 1)[0]}:{version + 1}:step:{tail}"
            it = await fake.forge_component(name, panel, another)
            assert it.response_type == 7 and it.content == moved_on_text(), it.callback.data
            it = await fake.forge_component(name, panel, f"{head}:step:999:1")
            assert it.callback.ephemeral and it.content == old_button_text(), \
                it.callback.data
            it = await fake.forge_component(name, panel, f"{head}:step:0:x")
            assert it.callback.ephemeral and it.content == old_button_text()
            assert table.version == version
