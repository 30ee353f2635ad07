"""What every game's text and the platform's share: the Panel a message shows, its
colours, and how a user's input is shown back.

It lives beside the GameKind protocol because a game may import only bot.cards,
bot.errors and bot.tables' protocol modules, and a game's text returns Panels and quotes
what users typed. Discord's limits and fitting a panel to them stay in bot.render.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.names import safe_markdown, visible

GREEN = 0x2E7D32
BLUE = 0x1565C0
GOLD = 0xF9A825
RED = 0xC62828
GREY = 0x616161

# What a user typed is shown back at most this long: enough to recognise it.
QUOTE_LIMIT = 40


@dataclass(frozen=True)
class Panel:
    """What one embed shows: the Discord layer turns it into a `discord.Embed`."""

    title: str
    description: str = ""
    fields: tuple[tuple[str, str, bool], ...] = ()
    footer: str | None = None
    colour: int = GREEN


def shorten(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else cut to end with "…" within them."""
    if len(text) <= limit:
        return text
    return text[:limit - 1] + "…" if limit > 0 else ""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """What a user typed, in quotes, to show it back to them: as typed (case kept),
    without control or invisible formatting characters (which could garble or reorder
    the sentence around it), whitespace as single spaces, shortened, and its Markdown and
    mention syntax escaped (bot/tables/names.py), so it shows as typed."""
    shown = visible(text)
    return "'" + (shorten(safe_markdown(shown), limit) if shown else "") + "'"
