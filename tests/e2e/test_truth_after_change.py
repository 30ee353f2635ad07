"""A change that was stored is never answered "nothing was changed" (issue 25: in a replay
with Discord refusing the answer to Start, the host read that nothing was changed
although the game had started). When Discord refuses a request after the change (the
answer, its edit, a follow-up), the user is told the truth in their language, the change
stands, and the table message shows it. The refusals are forced on the strict fake."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.render import INTERNAL_ERROR
from bot.tables.table import PLAYING
from tests.e2e.driver import NAMES, ButtonDriver, open_table, table_message
from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord, HTTPError


class Refusals:
    """Discord refusing the next request(s) of a route, as it does a payload it finds
    invalid: `400 50035 Invalid Form Body`."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.armed: list[tuple[str, re.Pattern[str], Any]] = []
        self.refused: list[str] = []
        self._serve = fake._serve
        fake._serve = self._refusing  # type: ignore[method-assign]

    def next(self, method: str, path: str, when: Any = None) -> None:
        """Refuse the next `method` request whose path matches `path` (and whose body
        satisfies `when`)."""
        self.armed.append((method, re.compile(path), when))

    async def _refusing(self, request: Any, sub: str, path: str, body: Any, *args: Any
                        ) -> Any:
        for armed in self.armed:
            method, pattern, when = armed
            if request.method == method and pattern.search(sub) \
                    and (when is None or when(body)):
                self.armed.remove(armed)
                self.refused.append(sub)
                raise HTTPError(400, 50035, "Invalid Form Body",
                                {"data": {"_errors": [{"code": "FORCED"}]}})
        return await self._serve(request, sub, path, body, *args)


@pytest.fixture
def refusals(fake: FakeDiscord) -> Iterator[Refusals]:
    yield Refusals(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, error_logs: Any, tmp_path: Path
              ) -> AsyncIterator[AmerikanerBot]:
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        yield bot


CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
FOLLOWUP = r"^/webhooks/\d+/[^/]+$"


def update(body: Any) -> bool:
    return isinstance(body, dict) and body.get("type") == 7


def public_answer(body: Any) -> bool:
    return isinstance(body, dict) and body.get("type") == 4 \
        and not (body.get("data") or {}).get("flags")


def answers(it: Any) -> list[str]:
    """What the user read: the answer and its follow-ups, as they are now."""
    messages = {m.id: m for m in [it.original, *it.followups] if m is not None}
    return [m.content for m in messages.values()]


async def full_lobby(fake: FakeDiscord, bot: AmerikanerBot) -> Any:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
    lobby = new.message
    for name in NAMES[1:3]:
        await fake.click_label(name, fake.message(lobby), "Join")
    return lobby


async def test_start_with_a_refused_answer_tells_the_truth(
        fake: FakeDiscord, bot: AmerikanerBot, refusals: Refusals) -> None:
    lobby = await full_lobby(fake, bot)
    table = bot.tables.registry.in_channel(fake.channel.id)
    refusals.next("POST", CALLBACK, update)  # the lobby's edit into the table message
    it = await fake.click_label("alice", fake.message(lobby), "Start")
    assert refusals.refused
    assert it.callback.ephemeral and it.content == "The game has started; the table shows it."
    assert table.stage == PLAYING  # the change stands...
    # ... and the table message shows it: the lobby becomes the game.
    await fake.wait_until(lambda: "My hand" in {
        b.get("label") for b in fake.message(lobby).buttons()}, 5.0, "the table message")
    assert table_message(fake).id == lobby.id
    assert INTERNAL_ERROR not in str(answers(it))


async def test_start_in_norwegian(fake: FakeDiscord, bot: AmerikanerBot,
                                  refusals: Refusals) -> None:
    fake.user("alice").locale = "no"
    await full_lobby(fake, bot)
    refusals.next("POST", CALLBACK, public_answer)  # "The game has started."
    it = await fake.slash("alice", None, "amerikaner start")
    assert it.callback.ephemeral and it.content == "Spillet har startet; bordet viser det."
    assert bot.tables.registry.in_channel(fake.channel.id).stage == PLAYING


async def test_a_lobby_whose_answer_is_refused_is_posted(
        fake: FakeDiscord, bot: AmerikanerBot, refusals: Refusals) -> None:
    """`new` answers with the lobby itself: refused, the table is open all the same, its
    lobby is posted in the channel, and the host is told so."""
    refusals.next("POST", CALLBACK, public_answer)
    it = await fake.slash("bob", None, "american new")
    assert it.callback.ephemeral and it.content == "The table is open; its message shows it."
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.message_id is not None
    lobby = fake.message(table.message_id)
    assert "Join" in {b.get("label") for b in lobby.buttons()}
    join = await fake.click_label("carol", lobby, "Join")
    assert join.response_type == 7 and len(table.seats) == 2


async def test_a_refused_follow_up_after_a_thread(fake: FakeDiscord, bot: AmerikanerBot,
                                                  refusals: Refusals) -> None:
    """`new thread:true` answers "thinking" and follows up with the link: a refused
    follow-up is answered with the truth in another."""
    refusals.next("POST", FOLLOWUP)
    it = await fake.slash("alice", None, "amerikaner new", {"players": 3, "thread": True})
    await fake.wait_until(lambda: it.followups, 5.0, "the truth")
    assert refusals.refused
    (thread,) = fake.threads(fake.channel)
    assert bot.tables.registry.in_channel(thread.id) is not None  # the table stands, in its thread
    assert answers(it) == ["The table is open; its message shows it."]


async def test_a_move_with_a_refused_answer(fake: FakeDiscord, bot: AmerikanerBot,
                                            refusals: Refusals) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner"})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=2, refresh_share=0.0)
    table = driver.table
    seat, name = await driver.next_turn()
    panel = await driver.open_hand(name)
    version = table.version
    refusals.next("POST", CALLBACK, update)  # the panel's edit to the hand after the move
    it = await fake.click_label(name, panel, "Pass")
    assert refusals.refused and table.version == version + 1
    assert it.callback.ephemeral and it.content == "Your move was played; the table shows it."
    # The game goes on: the next player is followed as after any move.
    assert (await driver.next_turn()) is not None
