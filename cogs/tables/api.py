"""The public API of the table platform for a game's cog: everything a game's cog
(cogs/amerikaner.py, cogs/american.py, a new game's) needs from cogs.tables, and
nothing private. A game's cog subclasses GameCog, names its kind (`kind`) and its
command group (`group`), and gets from the game's data:

- `new`, `settings` and `rules` (`game_commands` below): the players and target ranges,
  the presets and the house rules of its kind, and the platform's table options (turn
  timer, reminders, switches, language), with the descriptions the cog gives in English
  (`CommandWords`; Discord shows them translated, cogs/words.py);
- a default hand panel, a button for each of `kind.legal_actions` worded by
  `kind.words.action_label` ("Play 7♠"), a choice that follows another a later step
  (`kind.words.action_steps`, cogs/tables/default_panel.py), and `on_action` to play
  the one clicked: a game overrides `hand_components` and `on_action` only to group its
  controls;
- the commands every game shares (join, hand, leave, ..., help), added to its group by
  cogs/tables/commands.py.

Its own slash commands (a move typed) use:

- `self.table_here(interaction)`, `self.my_seat(table, user_id)`: where and who;
- `self.act(...)` (a slash command's move), `self.act_on_click(...)` (a control's),
  `self.confirm(...)`, `self.answer_stale(...)`: a move stored and shown;
- `self.reply(...)`: an answer, for the user alone by default;
- `to_embed`, `choices`, `select_options`, `Components`, `TableButton`, `TableSelect`,
  `HINT_STYLE`/`HINT_EMOJI`: the pieces of its controls and autocomplete, within
  Discord's limits.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar, Optional, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import Panel
from bot.tables.errors import TableError
from bot.tables.kind import GameKind
from bot.tables.table import ActResult, Table
from cogs.tables import common, guards
from cogs.tables.cog import Tables
from cogs.tables.commands import add_shared_commands
from cogs.tables.common import (
    HINT_EMOJI,
    HINT_STYLE,
    Components,
    GameUI,
    TableBot,
    choices,
    option_words,
    select_options,
    to_embed,
)
from cogs.tables.components import TableButton, TableSelect
from cogs.tables.daily import DailyRoom
from cogs.tables.default_panel import ACT, STEP, show_step, step_components, step_of
from cogs.tables.host import host_of
from cogs.tables.lobby import LobbyRoom
from cogs.tables.panels import PanelsRoom
from cogs.tables.settings import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
    ON_TIMEOUT_CHOICES,
    SWITCH_DESCRIPTIONS,
    TIMER_DESCRIPTIONS,
    SettingsRoom,
    timer_choices,
    timer_minutes,
)

__all__ = [
    "HINT_EMOJI", "HINT_STYLE", "LANGUAGE_CHOICES", "LANGUAGE_DESCRIPTION",
    "ON_TIMEOUT_CHOICES", "SWITCH_DESCRIPTIONS", "TIMER_DESCRIPTIONS", "CommandWords",
    "Components", "GameCog", "GameUI", "TableBot", "TableButton", "TableSelect", "choices",
    "game_commands", "platform_option_strings", "select_options", "shared_commands_group",
    "timer_choices",
    "to_embed",
]

_T = TypeVar("_T")


@dataclasses.dataclass(frozen=True)
class CommandWords:
    """What a game's `new`, `settings` and `rules` say of the game, in English (at most
    100 characters each; Discord shows a user in Norwegian the game's catalog's words,
    cogs/words.py). None: no description (Discord shows "…")."""

    new: str = "Open a table in this channel"
    players: str | None = "Number of players"
    target: str | None = "Points to win"
    preset: str | None = "Which game"
    settings_players: str | None = None
    settings_target: str | None = None
    settings_options: str | None = "House rules, keys separated by spaces ('none': none)"
    rules: str = "The rules of this table (or the defaults)"
    # A house rule's description (`new`); None: the game's words' option_help, in English.
    house_rules: Mapping[str, str] | None = None


def _house_rule_descriptions(kind: GameKind, words: CommandWords) -> dict[str, str]:
    if words.house_rules is not None:
        return dict(words.house_rules)
    from bot.i18n import SOURCE_LOCALE, use_locale

    help_of = getattr(kind.words, "option_help", None)
    with use_locale(SOURCE_LOCALE):  # the English a command is declared in
        return {key: (help_of(key) if help_of else "")[:100] or key
                for key in kind.house_rule_keys}


def _command(name: str, description: str, run: Callable[..., Awaitable[None]],
             options: list[tuple[str, Any]], describe: Mapping[str, str | None],
             choices_of: Mapping[str, list[app_commands.Choice[str]]],
             manage: bool = False) -> app_commands.Command[Any, Any, None]:
    """A slash command built from data: its options (name, type) in order, each optional,
    described and offered its choices. discord.py reads a callback's options from its
    signature (https://discordpy.readthedocs.io/en/stable/interactions/api.html
    #discord.app_commands.Command): the callback's `__signature__` is made here."""
    async def callback(interaction: discord.Interaction[Any], **given: Any) -> None:
        await run(interaction, **given)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    params += [inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, default=None,
                                 annotation=Optional[kind])  # noqa: UP045 (a runtime value)
               for option, kind in options]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = name.replace("-", "_")
    described = {k: v for k, v in describe.items() if v and k in dict(options)}
    if described:
        app_commands.describe(**described)(callback)
    offered = {k: v for k, v in choices_of.items() if k in dict(options)}
    if offered:
        app_commands.choices(**offered)(callback)
    if manage:
        app_commands.default_permissions(manage_guild=True)(callback)
    option_words(callback)  # turn_timer shown as turn-timer (issue 35)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description, callback=callback)
    if "turn_timer" in dict(options):
        async def complete(interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
            return timer_choices(current)
        command.autocomplete("turn_timer")(complete)
    return command


# The platform's table options, every game's `new` and `settings` offer (in this order,
# after the game's own).
_TIMER_OPTIONS: list[tuple[str, Any]] = [("turn_timer", str), ("reminders", str),
                                         ("on_timeout", str)]
_SWITCHES = ("mentions", "pictures", "hints", "thread")
_PLATFORM_DESCRIPTIONS: dict[str, str | None] = {
    **TIMER_DESCRIPTIONS, **SWITCH_DESCRIPTIONS, "language": LANGUAGE_DESCRIPTION}
_PLATFORM_CHOICES = {"on_timeout": ON_TIMEOUT_CHOICES, "language": LANGUAGE_CHOICES}


def game_commands(cog: GameCog) -> list[app_commands.Command[Any, Any, None]]:
    """`new`, `settings` and `rules` of the game of `cog`, from its kind's data and its
    CommandWords: what the game's cog used to declare by hand."""
    kind, words = cog.kind, cog.command_words
    low, high = kind.players_range
    lowest, highest = kind.target_range
    named = [p for p in kind.presets if p is not None]
    preset: list[tuple[str, Any]] = [("preset", str)] if named else []
    ranges: list[tuple[str, Any]] = [("players", app_commands.Range[int, low, high]),
                                     ("target", app_commands.Range[int, lowest, highest])]
    house = _house_rule_descriptions(kind, words)
    preset_choices = {"preset": [app_commands.Choice(name=p, value=p) for p in named]}
    switches: list[tuple[str, Any]] = [(name, bool) for name in _SWITCHES]

    async def new(interaction: discord.Interaction[Any], **given: Any) -> None:
        await cog.new_table(
            interaction, preset=given.get("preset"), players=given.get("players"),
            target=given.get("target"), turn_timer=given.get("turn_timer"),
            reminders=given.get("reminders"), on_timeout=given.get("on_timeout"),
            options={key: given.get(key) for key in kind.house_rule_keys},
            switches={name: given.get(name) for name in _SWITCHES})

    async def settings(interaction: discord.Interaction[Any], **given: Any) -> None:
        await cog.save_settings(
            interaction, preset=given.get("preset"), players=given.get("players"),
            target=given.get("target"), options=given.get("options"),
            turn_timer=given.get("turn_timer"), reminders=given.get("reminders"),
            on_timeout=given.get("on_timeout"), language=given.get("language"),
            switches={name: given.get(name) for name in _SWITCHES})

    async def rules(interaction: discord.Interaction[Any], **given: Any) -> None:
        await cog.show_rules(interaction, given.get("preset"))

    return [
        _command("new", words.new, new,
                 [*preset, *ranges, *((key, bool) for key in kind.house_rule_keys),
                  *_TIMER_OPTIONS, *switches],
                 {"preset": words.preset, "players": words.players, "target": words.target,
                  **house, **_PLATFORM_DESCRIPTIONS},
                 {**preset_choices, **_PLATFORM_CHOICES}),
        _command("rules", words.rules, rules, preset, {}, preset_choices),
        _command("settings", "This server's default table (Manage Server)", settings,
                 [*preset, *ranges, ("options", str), *_TIMER_OPTIONS, *switches,
                  ("language", str)],
                 {"players": words.settings_players, "target": words.settings_target,
                  "options": words.settings_options, **_PLATFORM_DESCRIPTIONS},
                 {**preset_choices, **_PLATFORM_CHOICES}, manage=True),
    ]


def shared_commands_group() -> app_commands.Group:
    """A group of the commands every game shares, alone (cogs/words.py tells their words,
    the platform's, from a game's own)."""
    group = app_commands.Group(name="game", description="game")
    add_shared_commands(group, "game")
    for command in group.walk_commands():  # named as GameCog names them
        if isinstance(command, app_commands.Command):
            option_words(command)
    return group


def platform_option_strings() -> set[tuple[str, str]]:
    """(context, English) of every word the platform declares in `new`, `settings` and
    `rules` of every game: their names, the table options and their descriptions and
    choices (the game's own words, its descriptions and house rules, are the game's:
    cogs/words.py gives them to its catalog, and the shared commands' to the platform's)."""
    found = {("command name", name) for name in ("new", "settings", "rules")}
    found.add(("command description", "This server's default table (Manage Server)"))
    for name, _kind in [*_TIMER_OPTIONS, *((s, bool) for s in _SWITCHES),
                        ("language", str), ("players", int), ("target", int),
                        ("preset", str), ("options", str)]:
        found.add(("option name", name.replace("_", "-")))
    found |= {("option description", text) for text in _PLATFORM_DESCRIPTIONS.values()
              if text}
    found |= {("choice", choice.name) for options in _PLATFORM_CHOICES.values()
              for choice in options}
    default = CommandWords()  # the platform's words, for a game that keeps them
    found |= {("command description", default.new), ("command description", default.rules)}
    found |= {("option description", text) for text in (
        default.players, default.target, default.preset, default.settings_options) if text}
    return found


class GameCog(commands.Cog):
    """What every game's cog shares: its command group (`group`, declared by the game's
    cog) gets `new`, `settings` and `rules` built from its kind (`kind`) and its
    CommandWords, and the commands every game has; the cog gives the table cog its hand
    controls (the GameUI: `hand_components`, `on_action`: by default a button a legal
    action), and the methods below answer its commands and clicks through the table cog's
    rooms it holds (`lobby`, `panels`, `server_settings`, `daily`, taken from `host` at
    `cog_load`) and the table service (`tables`)."""

    kind: ClassVar[GameKind]  # the game (its registry name names the command group)
    group: app_commands.Group
    command_words: ClassVar[CommandWords] = CommandWords()
    # The table cog's rooms this cog's commands and clicks go to, held at `cog_load`.
    lobby: LobbyRoom  # a slash command's move, `new`
    panels: PanelsRoom  # a click's move confirmed, or refused as stale
    server_settings: SettingsRoom  # `settings`
    daily: DailyRoom  # a deal of the day's move

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        for command in game_commands(self):
            self.group.add_command(command)
        add_shared_commands(self.group, self.game)
        for inner in self.group.walk_commands():  # every option named as words
            if isinstance(inner, app_commands.Command):
                option_words(inner)

    @property
    def game(self) -> str:
        """The game's registry name, also its command group's."""
        return self.kind.name

    async def cog_load(self) -> None:
        host = self.host
        self.lobby, self.panels, self.daily = host.lobby, host.panels, host.daily
        self.server_settings = host.settings
        host.uis.register(self.game, self)  # type: ignore[arg-type]

    @property
    def host(self) -> Tables:
        """The shared table cog (loaded first, bot/app.py)."""
        cog = host_of(self.bot)
        if not isinstance(cog, Tables):
            raise RuntimeError("the Tables cog is not loaded")
        return cog

    # ------------------------------------------------------------- where and who

    def table_here(self, interaction: discord.Interaction[Any]) -> Table:
        """The live table of the interaction's channel; refused (no_table) if none."""
        return guards.table_here(self.tables, interaction)

    def my_seat(self, table: Table, user_id: int) -> int:
        """`user_id`'s seat at `table`; refused (not_seated) if they hold none."""
        return guards.my_seat(table, user_id)

    # ------------------------------------------------------------- answering

    async def reply(self, interaction: discord.Interaction[Any], text: str | None = None, *,
                    panel: Panel | None = None, view: discord.ui.View | None = None,
                    ephemeral: bool = True) -> None:
        """Answer (or follow up) with `text`, `panel` and `view`, for the user alone
        unless `ephemeral` is False; it never mentions anyone."""
        await common.reply(interaction, text, panel=panel, view=view, ephemeral=ephemeral)

    # ------------------------------------------------------------- moves

    async def act(self, interaction: discord.Interaction[Any], table: Table,
                  make: Callable[[int], Any]) -> None:
        """A slash command's move: `make(seat)` (it reads what the user typed, once the
        service has checked they play here) stored, and their hand shown."""
        await self.lobby.act(interaction, table, make)

    async def act_on_click(self, interaction: discord.Interaction[Any], table: Table,
                           version: int, make: Callable[[int], Any]) -> None:
        """The action `make(seat)` of a click drawn at state `version`: confirmed in the
        clicked panel, or, drawn for an earlier state, the panel shows the state now."""
        if table.daily is not None:  # a member's deal of the day (cogs/tables/daily.py)
            await self.daily.daily_move(interaction, table, version, make)
            return
        result = await self.panels.unless_stale(
            interaction, table, self.tables.play.act(table.id, interaction.user.id, version, make))
        if result is not None:
            await self.panels.confirm(interaction, table, result, edit=True)

    async def unless_stale(self, interaction: discord.Interaction[Any], table: Table,
                           work: Awaitable[_T]) -> _T | None:
        """`work`'s result; None when it was drawn for an earlier state, which the
        clicked panel is then edited to show as it is now."""
        return await self.panels.unless_stale(interaction, table, work)

    async def confirm(self, interaction: discord.Interaction[Any], table: Table,
                      result: ActResult, edit: bool) -> None:
        """A stored action (`result`) shown: the player's hand in the clicked panel
        (`edit`) or a new one, then the table message and the next player's turn."""
        await self.panels.confirm(interaction, table, result, edit)

    async def answer_stale(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click drawn for an earlier state: the clicked panel shows the hand now."""
        if table.daily is not None:  # a member's deal of the day
            await self.daily.daily_stale(interaction, table)
            return
        await self.panels.answer_stale(interaction, table)

    # ------------------------------------------------------------- new and settings

    async def new_table(self, interaction: discord.Interaction[Any], *,
                        preset: str | None, players: int | None, target: int | None,
                        turn_timer: str | None, options: Mapping[str, bool | None],
                        switches: Mapping[str, bool | None], reminders: str | None = None,
                        on_timeout: str | None = None) -> None:
        """The game's `new`: a lobby with what the host asked for, else the server's
        defaults for the game, else the game's own."""
        await self.lobby.new_table(interaction, self.game, preset=preset, players=players,
                                   target=target, turn_timer=timer_minutes(turn_timer),
                                   options=options, switches=switches, reminders=reminders,
                                   on_timeout=on_timeout)

    async def save_settings(self, interaction: discord.Interaction[Any], *,
                            preset: str | None, players: int | None, target: int | None,
                            options: str | None, turn_timer: str | None,
                            switches: Mapping[str, bool | None],
                            language: str | None = None, reminders: str | None = None,
                            on_timeout: str | None = None) -> None:
        """The game's `settings`: the server's defaults for its new tables, shown, or
        changed (Manage Server)."""
        await self.server_settings.save_settings(
            interaction, self.game, preset=preset, players=players, target=target,
            options=options, turn_timer=timer_minutes(turn_timer), switches=switches,
            language=language, reminders=reminders, on_timeout=on_timeout)

    async def show_rules(self, interaction: discord.Interaction[Any],
                         preset: str | None = None) -> None:
        """The game's `rules`: this channel's table's, else the preset's or the game's
        defaults."""
        table = self.tables.registry.in_channel(interaction.channel_id or 0)
        kind = self.kind
        if preset is None and table is not None and table.kind.name == kind.name:
            rules = table.rules
        else:
            rules = kind.make_rules(preset, kind.default_players, {})
        await self.reply(interaction, kind.words.rules_text(rules))

    # ------------------------------------------------------------- the default hand panel

    def hand_components(self, table: Table, view: Any, hint: Any = None
                        ) -> discord.ui.View:
        """A button for each legal action of the seat whose `view` this is, worded as a
        button offers it (`kind.words.action_label`: "Play 7♠"), and actions that share
        a first step (`kind.words.action_steps`) one button whose next step follows the
        click (cogs/tables/default_panel.py); `hint`'s move marked; then the refresh. A
        game overrides this to group its controls (menus, steps)."""
        return step_components(self.kind, table, self._legal_now(table, view), hint)

    def _legal_now(self, table: Table, view: Any) -> list[Any]:
        """The legal actions of the seat to act, if `view` is its view (a panel shows
        moves to the seat to act alone)."""
        game = getattr(table, "game", None)
        seat = self.kind.to_act(game) if game is not None else None
        if seat is None or table.seat_view(seat) != view:
            return []
        return self.kind.legal_actions(game, seat)

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        """A click on a default panel's button: the action at its index among the legal
        actions, read when the service has checked the click's version is the table's;
        or a step, whose next choices the panel then offers."""
        if parts[:1] == [STEP]:
            await self._next_step(interaction, table, version, parts[1:])
            return
        index = parts[1] if parts[:1] == [ACT] and len(parts) == 2 else ""
        if not (index.isascii() and index.isdigit()):
            raise TableError("bad_input", reason="old_button")

        def make(seat: int) -> Any:
            legal = self.kind.legal_actions(table.game, seat)
            if int(index) >= len(legal):
                raise TableError("bad_input", reason="old_button")
            return legal[int(index)]
        await self.act_on_click(interaction, table, version, make)

    async def _next_step(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, args: list[str]) -> None:
        """A step of the default panel clicked: its next choices, in the clicked panel.
        Nothing changes; drawn for an earlier state, the panel shows the hand now."""
        index, depth = step_of(args)
        seat = table.seat_of(interaction.user.id)
        view = table.seat_view(seat) if seat is not None else None
        legal = self._legal_now(table, view) if version == table.version else []
        if seat is None or not legal:
            await self.answer_stale(interaction, table)
            return
        await show_step(self.kind, interaction, table, seat, legal, index, depth)
