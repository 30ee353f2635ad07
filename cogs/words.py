"""The slash commands in the reader's language: command, group and option names, their
descriptions and the names of choices, as Discord shows them to a user whose Discord is in
Norwegian (locale `no`).

The commands are declared in English in the cogs; `CommandTranslator` (set on the command
tree by bot/app.py) looks each string up in the catalog under a context that says what it
is ("command name", "option description", ...), so the same English word can be a name in
one place and a description in another. `extract` gives Babel those strings for the
template (babel.cfg), read off the commands themselves: nothing is written twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands

from bot.i18n import (
    SOURCE_LOCALE,
    Translator,
    add_catalog,
    catalog_dirs,
    language_of,
    pgettext,
    translator_for,
    use_locale,
)

Location = app_commands.TranslationContextLocation

# What a string of a command is, as the catalog's context names it.
CONTEXTS: dict[Location, str] = {
    Location.command_name: "command name",
    Location.group_name: "command name",
    Location.command_description: "command description",
    Location.group_description: "command description",
    Location.parameter_name: "option name",
    Location.parameter_description: "option description",
    Location.choice_name: "choice",
}


class CommandTranslator(app_commands.Translator):
    """Discord's localizations of every command, from the catalogs (bot/i18n)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(locale)
        where = CONTEXTS.get(context.location)
        if language == SOURCE_LOCALE or where is None or not string.message:
            return None
        words = _translator_of(context.data)
        with use_locale(language):
            translated = (words.pgettext if words is not None else pgettext)(
                where, string.message)
        return translated if translated != string.message else None


def _translator_of(data: Any) -> Translator | None:
    """The translator of the game whose command group `data` (a command, group or
    option) belongs to: its words are in its catalog, then the platform's. A choice
    names no command (discord.py's TranslationContext): the platform's words, then any
    game's (`_any_game`)."""
    if isinstance(data, app_commands.Choice):
        return _ANY_GAME
    command = data.command if isinstance(data, app_commands.Parameter) else data
    root = getattr(command, "root_parent", None) or command
    name = getattr(root, "name", None)
    return translator_for(name) if isinstance(name, str) else None


class _AnyGame:
    """A choice's words: the platform's catalog, else the first game's that has them."""

    def pgettext(self, context: str, message: str) -> str:
        found = pgettext(context, message)
        if found != message:
            return found
        for directory in catalog_dirs()[:-1]:
            words = add_catalog(directory)
            found = words.pgettext(context, message)
            if found != message:
                return found
        return message


_ANY_GAME: Any = _AnyGame()


def game_groups() -> list[app_commands.Group]:
    """Every registered game's command group as the bot registers it (its own commands
    and the shared ones), built without a running bot: each game's cog (bot.games.COGS)
    is the GameCog its module defines."""
    import importlib
    import inspect

    from bot.games import COGS
    from cogs.tables.api import GameCog

    stub: Any = SimpleNamespace(tables=None, store=None, settings=None)
    groups = []
    for path in COGS.values():
        module = importlib.import_module(path)
        cog = next(cls for _, cls in inspect.getmembers(module, inspect.isclass)
                   if issubclass(cls, GameCog) and cls is not GameCog
                   and cls.__module__ == module.__name__)
        groups.append(cog(stub).group)
    return groups


def bot_commands() -> list[app_commands.Group | app_commands.Command[Any, Any, None]]:
    """Every top-level command the bot registers: the games' groups, and the member's
    own commands every game shares (/games, /notify)."""
    from cogs.tables import member_commands

    return [*game_groups(), *member_commands()]


def command_strings(groups: list[app_commands.Group | app_commands.Command[Any, Any, None]]
                    ) -> Iterator[tuple[str, str]]:
    """(context, English string) of every name, description and choice of `groups`
    (command groups, or top-level commands)."""
    for group in groups:
        yield "command name", group.name
        yield "command description", group.description
        if isinstance(group, app_commands.Command):
            yield from _option_strings(group)
            continue
        for command in group.walk_commands():
            yield "command name", command.name
            yield "command description", command.description
            if isinstance(command, app_commands.Group):
                continue
            yield from _option_strings(command)


def _option_strings(command: app_commands.Command[Any, Any, None]
                    ) -> Iterator[tuple[str, str]]:
    for parameter in command.parameters:
        yield "option name", parameter.display_name  # as Discord shows it (option_words)
        if parameter.description and parameter.description != "…":
            yield "option description", parameter.description
        for choice in parameter.choices:
            yield "choice", choice.name


# The comment that tells bot/i18n/split_catalogs.py whose words a command's string is: a
# game's (its command group is named after it) or the platform's.
OWNER_COMMENT = "words of:"


def platform_command_strings() -> set[tuple[str, str]]:
    """(context, English) of every word the platform declares in a game's group: the
    commands every game shares (cogs/tables/commands.py) and the table options of `new`
    and `settings` (cogs/tables/api.py)."""
    from cogs.tables.api import platform_option_strings, shared_commands_group

    group = shared_commands_group()
    shared = set(command_strings([group])) - {("command name", group.name),
                                              ("command description", group.description)}
    return shared | platform_option_strings()


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
            ) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction method for the commands (babel.cfg): their strings as
    `pgettext(context, message)` calls, read off the groups the bot registers, each with
    a comment naming whose words it is: the platform's for what the platform declares in
    every game's group (the shared commands, the table options: `platform_command_strings`)
    and for its top-level commands, else the game's whose group has it (two games may
    both have it: each keeps it in its own catalog)."""
    platform = platform_command_strings()
    # All of the platform's, whether or not a game uses them now: a new game that keeps a
    # default (CommandWords) finds its Norwegian there, and changes no catalog but its own.
    owners: dict[tuple[str, str], set[str]] = {pair: {"platform"} for pair in sorted(platform)}
    for command in bot_commands():
        game = command.name if isinstance(command, app_commands.Group) else None
        for pair in command_strings([command]):
            owner = "platform" if game is None or pair in platform else game
            owners.setdefault(pair, set()).add(owner)
    for pair, names in owners.items():
        yield 1, "pgettext", pair, [f"{OWNER_COMMENT} {' '.join(sorted(names))}"]
