"""The table as a Discord Activity: one backend in the bot's process (aiohttp) that serves
the page (bot/web/static, built from web/), exchanges the SDK's code for the member's
token, and keeps a websocket per member that shows their own seat of the table in their
channel and takes their moves through the table service, like a button click.

Off unless ACTIVITY_CLIENT_SECRET and ACTIVITY_PORT are set (bot/config.py). It may
import the table service, the render layer's words and the games' views through GameKind
only (an import-linter contract in pyproject.toml)."""

from bot.web.server import ActivityServer

__all__ = ["ActivityServer"]
