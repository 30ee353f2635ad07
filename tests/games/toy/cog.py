"""/toy: High card on the table platform's public cog API (cogs/tables/api.py), which
builds everything from the game's data: `new`, `settings` and `rules` from its kind,
a button for each legal move (worded by the game's words), and every shared command
(join, hand, export, leaderboard, ...). Nothing here decides a rule."""

from __future__ import annotations

from discord import app_commands

from cogs.tables.api import CommandWords, GameCog, TableBot

from .kind import TOY


class HighCard(GameCog):
    """High card at the table in this channel."""

    group = app_commands.Group(name="toy", description="Play High card", guild_only=True)
    kind = TOY
    command_words = CommandWords(new="Open a High card table in this channel",
                                 players="Number of players (2 to 4)",
                                 target="Points to win (default 3)")


async def setup(bot: TableBot) -> None:
    await bot.add_cog(HighCard(bot))
