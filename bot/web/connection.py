"""One page as the backend keeps it: its member, its table, where its frames go, its
rate limit; and the frames' shared forms (a refusal by code, a parsed frame)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.i18n import use_locale
from bot.web.discord_api import Member
from bot.web.words import refusal_text

# Frames a connection may send: a burst, then this many a second (a token bucket).
BURST = 20
RATE = 5.0


class Refusal(Exception):
    """A frame the backend refuses by its own code (bot/web/words.py)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Bucket:
    """A page's rate limit: BURST frames, then RATE a second (a token bucket)."""

    tokens: float = BURST
    refilled: float = 0.0

    def allowed(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Sender(Protocol):
    """Where a page's frames go: its socket's queue (Outgoing), or its host (Handed)."""

    def put(self, text: str) -> bool: ...

    def stop(self) -> None: ...

    async def close(self, code: int, message: bytes) -> None: ...


@dataclass(eq=False)  # each page is itself: kept in sets by identity
class Connection:
    """One page of a table of this process: its member, its table, and where its frames
    go (its socket here, or the process that holds its socket)."""

    member: Member
    table_id: int
    language: str
    outgoing: Sender
    bucket: Bucket = field(default_factory=Bucket)
    last_view: str = ""
    host: tuple[str, str] | None = None  # a handed page's (host process, page id)
    home: tuple[int, int] | None = None  # on the home page: (guild, channel); table_id 0
    daily: tuple[str, str] | None = None  # from home, playing a daily: (game, day)


def parse(data: Any) -> dict[str, Any] | None:
    """A frame from a page, or None if it is not a JSON object."""
    try:
        frame = json.loads(data)
    except (TypeError, ValueError):
        return None
    return frame if isinstance(frame, dict) else None


def refused(code: str, language: str) -> dict[str, Any]:
    """The frame that refuses something by one of the backend's own codes."""
    with use_locale(language):
        return {"type": "refused", "code": code, "text": refusal_text(code)}
