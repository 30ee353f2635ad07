"""Application command payloads checked as Discord checks them at sync (400 50035).

From https://discord.com/developers/docs/interactions/application-commands :
- "Application Command Naming": CHAT_INPUT command and option names match
  ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and use the lowercase variant of
  every letter that has one; USER and MESSAGE command names are 1-32 characters, any case.
- descriptions 1-100 characters (CHAT_INPUT and options); USER and MESSAGE commands have
  an empty one;
- ``name_localizations`` / ``description_localizations``: keys from the locales of
  https://discord.com/developers/docs/reference#locales, values under the same rules
  as the field;
- at most 25 options (and subcommands, and subcommands in a group), at most 25 choices
  (names 1-100 characters, string values at most 100); subcommands and plain options do
  not mix on a level; a group holds subcommands only; required options come first;
- "a maximum of 8000 characters for combined name, description, and value properties for
  each command, its options (including subcommands and groups), and choices. When
  localization fields are present, only the longest localization for each field
  (including the default value) is counted towards the size limit" (Slash Commands);
- an app has at most 100 global CHAT_INPUT commands and 5 each of USER and MESSAGE
  ("Registering a Command").

Entry Point commands (PRIMARY_ENTRY_POINT, type 4: "A UI-based command that represents
the primary way to invoke an app's Activity", same page, "Application Command Types";
https://discord.com/developers/docs/activities/development-guides/user-actions,
"Setting Up an Entry Point Command"):
- its name follows the CHAT_INPUT naming rules (the example is "launch"); it takes no
  options ("Make a different (option-less) command your Entry Point command");
- "Entry Point commands can only be global", and "Your app can only have one Entry
  Point command";
- "`handler` can only be set for application commands of type PRIMARY_ENTRY_POINT for
  applications with the EMBEDDED flag (i.e. applications that have an Activity)": one of
  APP_HANDLER (1: "the app is responsible for responding to the interaction. It can
  respond by launching the app's associated Activity using the LAUNCH_ACTIVITY (type 12)
  interaction callback type") and DISCORD_LAUNCH_ACTIVITY (2: "Discord will handle the
  interaction automatically by launching the associated Activity and sending a message
  to the channel where it was launched").
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: https://discord.com/developers/docs/reference#locales
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
OPTION_TYPES = range(1, 12)
CHOICE_TYPES = (3, 4, 10)  # string, integer, number
MAX_OPTIONS = MAX_CHOICES = 25
MAX_TOTAL = 8000
#: per type: CHAT_INPUT, USER, MESSAGE ("Registering a Command")
MAX_COMMANDS = {CHAT_INPUT: 100, USER: 5, MESSAGE: 5, PRIMARY_ENTRY_POINT: 1}


def _name_char_ok(ch: str) -> bool:
    """One character of ``[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]``."""
    if ch in "-_'" or unicodedata.category(ch)[0] in "LN":
        return True
    code = ord(ch)
    return 0x0900 <= code <= 0x097F or 0x0E00 <= code <= 0x0E7F  # Devanagari, Thai


def slash_name_error(name: Any) -> str | None:
    """Why ``name`` is not a CHAT_INPUT command or option name (None: it is)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return "must be 1 to 32 characters"
    if not all(_name_char_ok(ch) for ch in name):
        return "APPLICATION_COMMAND_INVALID_NAME: characters outside the naming regex"
    if name != name.lower():
        return "APPLICATION_COMMAND_INVALID_NAME: must be lowercase"
    return None


def _menu_name_error(name: Any) -> str | None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return "must be 1 to 32 characters"
    return None


def _description_error(text: Any) -> str | None:
    if not isinstance(text, str) or not 1 <= len(text) <= 100:
        return "must be 1 to 100 characters"
    return None


def _check_field(errors: dict[str, Any], path: str, data: dict[str, Any], key: str,
                 check: Any) -> int:
    """Check ``data[key]`` and its localizations; return the length Discord counts
    (the longest of the default and its localizations)."""
    value = data.get(key)
    problem = check(value)
    if problem:
        errors[f"{path}{key}"] = problem
    longest = len(value) if isinstance(value, str) else 0
    localized = data.get(f"{key}_localizations") or {}
    if not isinstance(localized, dict):
        errors[f"{path}{key}_localizations"] = "must be an object"
        return longest
    for locale, text in localized.items():
        where = f"{path}{key}_localizations.{locale}"
        if locale not in LOCALES:
            errors[where] = "not a valid locale"
        elif (problem := check(text)) is not None:
            errors[where] = problem
        if isinstance(text, str):
            longest = max(longest, len(text))
    return longest


def _check_choices(errors: dict[str, Any], path: str, option: dict[str, Any]) -> int:
    choices = option.get("choices") or []
    if not choices:
        return 0
    if option.get("type") not in CHOICE_TYPES:
        errors[f"{path}choices"] = "only string, integer and number options have choices"
    if option.get("autocomplete"):
        errors[f"{path}autocomplete"] = "autocomplete and choices are exclusive"
    if len(choices) > MAX_CHOICES:
        errors[f"{path}choices"] = f"max {MAX_CHOICES} choices"
    total = 0
    for i, choice in enumerate(choices):
        where = f"{path}choices.{i}."
        total += _check_field(errors, where, choice, "name", _description_error)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors[f"{where}value"] = "must be 100 or fewer in length"
        total += len(str(value))
    return total


def _check_options(errors: dict[str, Any], path: str, options: list[dict[str, Any]],
                   *, level: str) -> int:
    """Options of a command (``level`` "command"), a group ("group") or a subcommand
    ("subcommand"); returns the characters Discord counts."""
    if len(options) > MAX_OPTIONS:
        errors[f"{path}options"] = f"max {MAX_OPTIONS} options"
    kinds = [o.get("type") for o in options]
    subs = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    if level == "group" and not all(k == SUB_COMMAND for k in kinds):
        errors[f"{path}options"] = "a subcommand group holds subcommands only"
    elif level == "subcommand" and any(subs):
        errors[f"{path}options"] = "a subcommand cannot hold subcommands"
    elif any(subs) and not all(subs):
        errors[f"{path}options"] = "subcommands and options cannot be mixed"
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        errors[f"{path}options"] = "duplicate option names"
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        errors[f"{path}options"] = "required options must come before optional ones"
    total = 0
    for i, option in enumerate(options):
        where = f"{path}options.{i}."
        if option.get("type") not in OPTION_TYPES:
            errors[f"{where}type"] = "unknown option type"
        total += _check_field(errors, where, option, "name", slash_name_error)
        total += _check_field(errors, where, option, "description", _description_error)
        total += _check_choices(errors, where, option)
        for key in ("min_length", "max_length"):
            if option.get(key) is not None and not 0 <= option[key] <= 6000:
                errors[f"{where}{key}"] = "must be 0 to 6000"
        inner = option.get("options") or []
        if option.get("type") == SUB_COMMAND_GROUP:
            total += _check_options(errors, where, inner, level="group")
        elif option.get("type") == SUB_COMMAND:
            total += _check_options(errors, where, inner, level="subcommand")
        elif inner:
            errors[f"{where}options"] = "only subcommands and groups have options"
    return total


def validate_command(data: Any, path: str = "", *, embedded: bool = True,
                     guild: bool = False) -> dict[str, Any]:
    """Errors for one command payload (empty: Discord would take it); `embedded`: the
    app has its Activity on, `guild`: a guild command."""
    if not isinstance(data, dict):
        return {path or "_errors": "must be an object"}
    errors: dict[str, Any] = {}
    ctype = data.get("type", CHAT_INPUT)
    if data.get("handler") is not None and (ctype != PRIMARY_ENTRY_POINT or not embedded):
        errors[f"{path}handler"] = "only an Entry Point command of an app with an Activity"
    if ctype == PRIMARY_ENTRY_POINT:
        _check_field(errors, path, data, "name", slash_name_error)
        if data.get("description") is not None:
            _check_field(errors, path, data, "description", _description_error)
        if data.get("options"):
            errors[f"{path}options"] = "an Entry Point command has no options"
        if guild:
            errors[f"{path}type"] = "an Entry Point command can only be global"
        if data.get("handler", DISCORD_LAUNCH_ACTIVITY) not in (
                APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
            errors[f"{path}handler"] = "unknown Entry Point handler"
        return errors
    if ctype == CHAT_INPUT:
        total = _check_field(errors, path, data, "name", slash_name_error)
        total += _check_field(errors, path, data, "description", _description_error)
        total += _check_options(errors, path, data.get("options") or [], level="command")
        if total > MAX_TOTAL:
            errors[f"{path}_errors"] = (
                f"{total} characters of names, descriptions and values (longest "
                f"localization of each); max {MAX_TOTAL}")
    elif ctype in (USER, MESSAGE):
        _check_field(errors, path, data, "name", _menu_name_error)
        if data.get("description"):
            errors[f"{path}description"] = "user and message commands have no description"
        if data.get("options"):
            errors[f"{path}options"] = "user and message commands have no options"
    else:
        errors[f"{path}type"] = "unknown command type"
    return errors


def validate_commands(commands: list[Any], *, embedded: bool = True,
                      guild: bool = False) -> dict[str, Any]:
    """Errors for a bulk overwrite (PUT) of an app's commands."""
    errors: dict[str, Any] = {}
    for i, data in enumerate(commands):
        errors.update(validate_command(data, f"{i}.", embedded=embedded, guild=guild))
    for ctype, limit in MAX_COMMANDS.items():
        count = sum(1 for c in commands
                    if isinstance(c, dict) and c.get("type", CHAT_INPUT) == ctype)
        if count > limit:
            errors["_errors"] = f"max {limit} commands of type {ctype}"
    return errors
