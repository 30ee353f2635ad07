"""The default hand panel: the controls a game gets from the platform when it declares
none of its own (GameCog.hand_components, cogs/tables/api.py). A button for each legal
action, worded as a button offers it (`kind.words.action_label`: "Play 7♠", not the
record's "played 7♠"); actions that share a first step (`kind.words.action_steps`: the
card led, before the card it calls) are one button, whose click offers the next step
(bot/tables/steps.py) in the same panel, with Back. Nothing changes until an action's
own button is clicked.

Discord's limits (https://discord.com/developers/docs/components/reference): a message
has at most 5 action rows ("Legacy messages allow up to 5 action rows as top-level
components", #legacy-message-component-behavior) of at most 5 buttons ("Up to 5
contextually grouped buttons", #action-row), so 25 buttons; a button's label is at most
80 characters (#button-button-structure). A step shows at most MOST_MOVES choices and
one button more (the refresh, or Back); labels are cut to LABEL_LIMIT. The fake Discord
refuses more (tests/fake_discord/validate.py; tests/e2e/test_default_panel.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

from bot.render import button_label, shorten
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.steps import Choice, choices
from bot.tables.table import Table
from cogs.tables.common import HINT_EMOJI, HINT_STYLE, Components, to_embed
from cogs.tables.components import TableButton
from cogs.tables.views import hand_panel

# The custom id of the default panel's buttons: `<version>:act:<index>`, the index of the
# action among `kind.legal_actions` at that version (the same state lists the same).
ACT = "act"
# A step's button: `<version>:step:<index>:<depth>`, the actions whose first `depth`
# step labels are the action at `index`'s (bot/tables/steps.py).
STEP = "step"
# A message has at most 25 buttons (5 rows of 5, above): a step shows 24 choices and its
# refresh or Back.
MOST_MOVES = 24
LABEL_LIMIT = 80  # a button's label


def _choices(kind: GameKind, legal: list[Any], index: int, depth: int) -> list[Choice]:
    """The choices of a step of these legal actions, in the reader's words."""
    records = [kind.action_to_json(action) for action in legal]
    words = kind.words
    return choices(words.action_steps(records),
                   [words.action_label(record) for record in records], index, depth)


def step_components(kind: GameKind, table: Table, legal: list[Any], hint: Any = None,
                    index: int = 0, depth: int = 0) -> Components:
    """The buttons of one step of the default panel (the first by default), at most
    MOST_MOVES, `hint`'s move marked; then the refresh (the first step) or Back to it."""
    ui = Components()
    for choice in _choices(kind, legal, index, depth)[:MOST_MOVES]:
        custom = f"{table.version}:{ACT}:{choice.first}" if choice.plays \
            else f"{table.version}:{STEP}:{choice.first}:{choice.depth}"
        button = TableButton(table.id, custom, label=shorten(choice.label, LABEL_LIMIT),
                             style=discord.ButtonStyle.primary if choice.plays
                             else discord.ButtonStyle.secondary)
        if hint is not None and any(legal[i] == hint for i in choice.actions):
            button.item.style, button.item.emoji = HINT_STYLE, HINT_EMOJI
        ui.add_item(button)
    if depth:
        ui.add_item(TableButton(table.id, "hand", label=button_label("back"), emoji="↩"))
    else:
        ui.add_item(TableButton(table.id, "hand", label=button_label("refresh"), emoji="🔄"))
    return ui


def step_of(args: list[str]) -> tuple[int, int]:
    """A step's index and depth, from its custom id's parts (read as strictly as what
    users type: the id is the bot's own, but a client may send anything)."""
    if len(args) != 2 or not all(a.isascii() and a.isdigit() and len(a) < 6 for a in args):
        raise TableError("bad_input", reason="old_button")
    return int(args[0]), int(args[1])


async def show_step(kind: GameKind, interaction: discord.Interaction[Any], table: Table,
                    seat: int, legal: list[Any], index: int, depth: int) -> None:
    """The clicked panel offers the step's choices: its title names what was chosen so
    far, its hand stays in view, and Back shows the first step again."""
    steps = kind.words.action_steps([kind.action_to_json(action) for action in legal])
    if not (index < len(steps) and 0 < depth <= len(steps[index])):
        raise TableError("bad_input", reason="old_button")
    chosen = " → ".join(steps[index][:depth]) + " → …"
    panel = hand_panel(table, seat)
    await interaction.response.edit_message(
        embed=to_embed(dataclasses.replace(panel, title=chosen)),
        view=step_components(kind, table, legal, None, index, depth))
