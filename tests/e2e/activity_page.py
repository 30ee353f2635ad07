"""A member's Activity page as a test drives it without a browser: the code the SDK would
give it (the fake's `activity.authorize`), the exchange at the backend, the websocket
and every frame it receives, each checked by the leak checker."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.cards import parse_card
from bot.errors import GameError
from bot.tables.table import Table
from tests.e2e.driver import cards_in_text
from tests.fake_discord import FakeDiscord


def frame_cards(frame: Any) -> set[int]:
    """Every card a frame names: its record names ("AS") and its labels ("A♠")."""
    found: set[int] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str):
            if key in ("name", "card", "cards") and value.upper() == value:
                with contextlib.suppress(GameError):
                    found.add(parse_card(value))
            found.update(cards_in_text(value))
    walk(frame)
    return found


def check_frame(table: Table, user_id: int, frame: dict[str, Any]) -> list[str]:
    """What a view frame shows that its member's seat may not know (the game's own rule,
    GameKind.secret_cards; a card the seat may call is offered, not revealed)."""
    if frame.get("type") != "view" or table.game is None:
        return []
    seat = table.seat_of(user_id)
    if frame.get("version") != table.version:
        return []  # an older view: checked when it was the table's
    offered: set[int] = set()
    for action in frame.get("actions", ()):
        offered |= cards_in_text(action.get("label", ""))
    hidden = set(table.kind.secret_cards(table.game, seat)) - offered
    shown = frame_cards(frame) & hidden
    return [f"frame for seat {seat} shows hidden cards {sorted(shown)}"] if shown else []


@dataclass
class Page:
    """One member's page: its socket and what it was sent."""

    fake: FakeDiscord
    base: str  # the backend, http://127.0.0.1:<port>
    user: str
    instance_id: str
    session: aiohttp.ClientSession
    locale: str = "en-US"
    token: str = ""
    frames: list[dict[str, Any]] = field(default_factory=list)
    ws: aiohttp.ClientWebSocketResponse | None = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def authorize(self) -> None:
        """The SDK's code, exchanged at the backend (as the page's script does)."""
        code = self.fake.activity.authorize(self.fake.user(self.user).id)
        async with self.session.post(f"{self.base}/.proxy/api/token",
                                     json={"code": code}) as resp:
            assert resp.status == 200, await resp.text()
            self.token = (await resp.json())["access_token"]

    async def connect(self, **hello: Any) -> None:
        self.ws = await self.session.ws_connect(f"{self.base.replace('http', 'ws')}/.proxy/ws")
        await self.ws.send_str(json.dumps({"type": "hello", "access_token": self.token,
                                           "instance_id": self.instance_id,
                                           "locale": self.locale, **hello}))
        self._reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
                self._changed.set()
        self._changed.set()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader

    async def closed(self, timeout: float = 20.0) -> int | None:
        """Wait until the backend closes the socket: its close code."""
        assert self._reader is not None and self.ws is not None
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.ws.close_code

    async def wait_for(self, test: Any, what: str, timeout: float = 20.0) -> dict[str, Any]:
        """The first frame (from now on or already received) that passes `test`."""
        async def found() -> dict[str, Any]:
            while True:
                for frame in self.frames:
                    if test(frame):
                        return frame
                self._changed.clear()
                await self._changed.wait()
        try:
            return await asyncio.wait_for(found(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.user}'s page never got {what}: "
                                 f"{[f.get('type') for f in self.frames][-5:]}") from None

    async def view_at(self, version: int) -> dict[str, Any]:
        return await self.wait_for(lambda f: f.get("type") == "view"
                                   and f.get("version") == version, f"the view at {version}")

    async def refusal(self, count_before: int) -> dict[str, Any]:
        """The first refusal received after the first `count_before` frames."""
        return await self.wait_for(
            lambda f: f.get("type") == "refused" and self.frames.index(f) >= count_before,
            "a refusal")

    def last_view(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("type") == "view")

    async def send(self, frame: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))
