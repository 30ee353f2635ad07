"""/toy: High card's own command and buttons, on the table platform's public cog API
(cogs/tables/api.py), which gives the group every shared command (join, hand, export,
leaderboard, ...). A card's button plays it; nothing here decides a rule."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cards import card_label, card_name, parse_card
from bot.tables import Table, TableError
from cogs.tables.api import HINT_EMOJI, HINT_STYLE, Components, GameCog, TableBot, TableButton

from .game import Action, View


class HighCard(GameCog):
    """High card at the table in this channel."""

    group = app_commands.Group(name="toy", description="Play High card", guild_only=True)
    game = "toy"

    def hand_components(self, table: Table, view: View, hint: Action | None = None
                        ) -> Components:
        ui = Components()
        for card in view.legal:
            button = TableButton(table.id, f"{table.version}:play:{card_name(card)}",
                                 label=card_label(card), style=discord.ButtonStyle.primary)
            if hint is not None and hint.card == card:
                button.item.style, button.item.emoji = HINT_STYLE, HINT_EMOJI
            ui.add_item(button)
        return ui

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        if parts[:1] != ["play"] or len(parts) != 2:
            raise TableError("bad_input", reason="old_button")
        card = parse_card(parts[1])
        await self.act_on_click(interaction, table, version, lambda seat: Action(seat, card))

    @group.command(name="new", description="Open a High card table in this channel")
    @app_commands.describe(players="Number of players (2 to 4)",
                           target="Points to win (default 3)")
    async def new(self, interaction: discord.Interaction[Any],
                  players: app_commands.Range[int, 2, 4] | None = None,
                  target: app_commands.Range[int, 1, 9] | None = None) -> None:
        await self.new_table(interaction, preset=None, players=players, target=target,
                             turn_timer=None, options={}, switches={})


async def setup(bot: TableBot) -> None:
    await bot.add_cog(HighCard(bot))
