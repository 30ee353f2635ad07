"""The strict fake knows the app's Entry Point command as Discord documents it
(tests/fake_discord/commands.py cites each rule): type 4, global only, option-less, one
per app, its `handler` only on it and only for an app with its Activity on; from the App
Launcher, DISCORD_LAUNCH_ACTIVITY launches the Activity without the app and APP_HANDLER
sends the app the interaction. (The bot's side: tests/e2e/test_activity.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.activity import ActivityInstance

ENTRY = {"name": "launch", "type": 4, "handler": 2, "description": "Open the tables"}
SLASH = {"name": "games", "type": 1, "description": "Your games"}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(user_names=("alice",))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def call(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.request(
            method, f"{fake.api_base}/applications/{fake.app_id}{path}", json=body,
            headers={"Authorization": f"Bot {fake.token}"}) as resp:
        return resp.status, await resp.json() if resp.status != 204 else None


async def test_the_entry_point_command_is_checked_as_discord_does(fake: FakeDiscord) -> None:
    # a handler needs an app with its Activity on
    status, _ = await call(fake, "PUT", "/commands", [SLASH, ENTRY])
    assert status == 400
    fake.activity.enabled = True
    status, body = await call(fake, "PUT", "/commands", [SLASH, ENTRY])
    assert status == 200 and body[1]["handler"] == 2
    # only global, option-less, one per app, `handler` on it alone
    guild = f"/guilds/{fake.guild.id}/commands"
    assert (await call(fake, "PUT", guild, [ENTRY]))[0] == 400
    with_options = {**ENTRY, "options": [{"type": 3, "name": "x", "description": "x"}]}
    assert (await call(fake, "PUT", "/commands", [with_options]))[0] == 400
    assert (await call(fake, "PUT", "/commands", [ENTRY, {**ENTRY, "name": "other"}]))[0] \
        == 400
    assert (await call(fake, "POST", "/commands", {**ENTRY, "name": "other"}))[0] == 400
    assert (await call(fake, "PUT", "/commands", [{**SLASH, "handler": 1}]))[0] == 400
    assert (await call(fake, "PUT", "/commands", [{**ENTRY, "handler": 3}]))[0] == 400


async def test_the_app_launcher_follows_the_handler(fake: FakeDiscord) -> None:
    fake.activity.enabled = True
    await call(fake, "PUT", "/commands", [ENTRY])
    launched = await fake.entry_point("alice", fake.channel)
    # DISCORD_LAUNCH_ACTIVITY: Discord launches it; the app hears of no interaction
    assert isinstance(launched, ActivityInstance)
    assert launched.channel_id == fake.channel.id and not fake.interactions
    await call(fake, "PUT", "/commands", [{**ENTRY, "handler": 1}])
    # APP_HANDLER: the app gets the interaction (here no app is connected to get it; the
    # bot's answer: tests/e2e/test_activity.py)
    with pytest.raises(AssertionError, match="no bot is connected"):
        await fake.entry_point("alice", fake.channel, timeout=0.2)
