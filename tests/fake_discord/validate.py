"""Discord's message limits, so the fake rejects what the real API would reject (400)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import emoji

from .mentions import validate_allowed_mentions
from .models import IS_COMPONENTS_V2, iter_components

#: Discord's error for a component emoji it does not know, the same code for buttons and
#: select options: https://github.com/discord/discord-api-docs/issues/8071 (and the error
#: bodies in https://github.com/bwmarrin/discordgo/issues/1479)
INVALID_EMOJI = {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI",
                              "message": "Invalid emoji"}]}
_VS16 = "\ufe0f"


def _check_len(errors: dict[str, Any], key: str, value: Any, limit: int) -> None:
    if value is not None and len(str(value)) > limit:
        errors[key] = f"must be {limit} or fewer in length (got {len(str(value))})"


def validate_embeds(embeds: list[dict[str, Any]], errors: dict[str, Any]) -> None:
    if len(embeds) > 10:
        errors["embeds"] = "max 10 embeds"
    total = 0
    for i, e in enumerate(embeds):
        p = f"embeds.{i}"
        _check_len(errors, f"{p}.title", e.get("title"), 256)
        _check_len(errors, f"{p}.description", e.get("description"), 4096)
        _check_len(errors, f"{p}.footer.text", (e.get("footer") or {}).get("text"), 2048)
        _check_len(errors, f"{p}.author.name", (e.get("author") or {}).get("name"), 256)
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors[f"{p}.fields"] = "max 25 fields"
        for j, f in enumerate(fields):
            if not f.get("name") or not f.get("value"):
                errors[f"{p}.fields.{j}"] = "name and value are required"
            _check_len(errors, f"{p}.fields.{j}.name", f.get("name"), 256)
            _check_len(errors, f"{p}.fields.{j}.value", f.get("value"), 1024)
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
        total += sum(
            len(str(x or ""))
            for x in (
                e.get("title"),
                e.get("description"),
                (e.get("footer") or {}).get("text"),
                (e.get("author") or {}).get("name"),
            )
        )
    if total > 6000:
        errors["embeds"] = f"embeds total {total} > 6000 characters"


def validate_components(components: list[dict[str, Any]], v2: bool, errors: dict[str, Any]) -> None:
    # https://discord.com/developers/docs/components/reference: "Legacy messages allow up
    # to 5 action rows as top-level components" (#legacy-message-component-behavior), a
    # row holds "Up to 5 contextually grouped buttons" or one select (#action-row), and a
    # button's label is "max 80 characters" (#button-button-structure); tested by
    # tests/discord/test_fake_contract.py.
    if not v2:
        if len(components) > 5:
            errors["components"] = "max 5 action rows"
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors[f"components.{i}"] = "top-level components must be action rows"
                continue
            kids = row.get("components") or []
            selects = [c for c in kids if c.get("type") in (3, 5, 6, 7, 8)]
            if not kids:
                errors[f"components.{i}"] = "empty action row"
            elif selects and len(kids) > 1:
                errors[f"components.{i}"] = "a select menu must be alone in its row"
            elif len(kids) > 5:
                errors[f"components.{i}"] = "max 5 buttons per row"
    else:
        count = sum(1 for _ in iter_components(components))
        if count > 40:
            errors["components"] = f"max 40 components, got {count}"
    seen: set[str] = set()
    for comp in iter_components(components):
        t = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            _check_len(errors, f"custom_id {cid[:20]}", cid, 100)
            if cid in seen:
                errors[f"custom_id {cid[:20]}"] = "duplicate custom_id"
            seen.add(cid)
        if t == 2:
            _check_len(errors, f"button {cid}.label", comp.get("label"), 80)
            if comp.get("style") == 5:
                if not comp.get("url"):
                    errors[f"button {comp.get('label')}"] = "link button needs url"
            elif comp.get("style") != 6 and not cid:
                errors[f"button {comp.get('label')}"] = "custom_id required"
            if not comp.get("label") and not comp.get("emoji") and comp.get("style") != 6:
                errors[f"button {cid}"] = "label or emoji required"
        elif t == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                errors[f"select {cid}.options"] = "1..25 options"
            values = [o.get("value") for o in options]
            if len(values) != len(set(values)):
                errors[f"select {cid}.options"] = "duplicate option values"
            # An option's label, value and description: at most 100 characters each
            # (https://discord.com/developers/docs/components/reference#string-select-select-option-structure).
            for o in options:
                _check_len(errors, f"select {cid}.label", o.get("label"), 100)
                _check_len(errors, f"select {cid}.value", o.get("value"), 100)
                _check_len(errors, f"select {cid}.description", o.get("description"), 100)
            _check_len(errors, f"select {cid}.placeholder", comp.get("placeholder"), 150)
            if comp.get("max_values", 1) > len(options):
                errors[f"select {cid}.max_values"] = "max_values > number of options"
        elif t == 10:
            _check_len(errors, "text_display", comp.get("content"), 4000)


def known_emoji(name: str) -> bool:
    """A Unicode emoji Discord knows: one the ``emoji`` package lists (Unicode's emoji
    list, kept up to date there), with or without the emoji presentation selector
    U+FE0F, which Discord accepts both ways. Our assumption: the package's list is
    Discord's (Discord may lag the newest Unicode release by a few months)."""
    return any(emoji.is_emoji(form) for form in
               (name, name + _VS16, name.replace(_VS16, "")) if form)


def emoji_valid(value: Any) -> bool:
    """A component emoji Discord takes: a custom emoji (an ``id``; the fake knows no
    server's emoji list, so any snowflake passes) or a Unicode emoji it knows
    (https://discord.com/developers/docs/components/reference#button, "emoji: name, id,
    and animated").
    """
    if not isinstance(value, dict):
        return False
    if value.get("id") is not None:
        return str(value["id"]).isdigit()
    name = value.get("name")
    return isinstance(name, str) and known_emoji(name)


def _emoji_slots(components: list[dict[str, Any]], path: str
                 ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(error path, component or select option) for everything that can carry an
    emoji, with Discord's error paths (``components.0.components.1``)."""
    for i, comp in enumerate(components):
        here = f"{path}.{i}" if path else f"components.{i}"
        yield here, comp
        for j, option in enumerate(comp.get("options") or []):
            if isinstance(option, dict):
                yield f"{here}.options.{j}", option
        if comp.get("components"):
            yield from _emoji_slots(comp["components"], f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _emoji_slots([comp[key]], f"{here}.{key}")


def validate_component_emoji(components: list[dict[str, Any]], errors: dict[str, Any]
                             ) -> None:
    """Every button's and select option's emoji must be one Discord knows, else the
    whole message is refused (400 50035, ``BUTTON_COMPONENT_INVALID_EMOJI``)."""
    for path, slot in _emoji_slots(components, ""):
        if "emoji" in slot and slot["emoji"] is not None and not emoji_valid(slot["emoji"]):
            errors[f"{path}.emoji.name"] = INVALID_EMOJI


def validate_choices(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """Errors for an autocomplete answer: at most 25 choices, names of 1 to 100
    characters, string values of at most 100."""
    errors: dict[str, Any] = {}
    if len(choices) > 25:
        errors["choices"] = "max 25"
    for i, choice in enumerate(choices):
        name = str(choice.get("name") or "")
        if not 1 <= len(name) <= 100:
            errors[f"choices.{i}.name"] = f"must be 1 to 100 in length (got {len(name)})"
        value = choice.get("value")
        if isinstance(value, str):
            _check_len(errors, f"choices.{i}.value", value, 100)
    return errors


def validate_message(body: dict[str, Any], *, creating: bool, files: int,
                     check_emoji: bool = True) -> dict[str, Any]:
    """Errors (Discord 'Invalid Form Body' style) for a message create/edit body."""
    errors: dict[str, Any] = {}
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    content = body.get("content")
    _check_len(errors, "content", content, 2000)
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    validate_embeds(embeds, errors)
    validate_components(components, v2, errors)
    if check_emoji:
        validate_component_emoji(components, errors)
    errors.update(validate_allowed_mentions(body.get("allowed_mentions")))
    if v2 and (content or embeds):
        errors["flags"] = "IS_COMPONENTS_V2 messages cannot have content or embeds"
    if (
        creating
        and not content
        and not embeds
        and not components
        and not files
        and not body.get("sticker_ids")
        and not body.get("poll")
    ):
        errors["_empty"] = "Cannot send an empty message"
    return errors


ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def validate_thread(
    body: dict[str, Any], *, creating: bool, types: tuple[int, ...] = ()
) -> dict[str, Any]:
    """Errors for a thread's start or edit: a name of 1 to 100 characters (required to
    start one), an auto-archive duration Discord offers, a slowmode of at most 6 hours,
    and, when ``types`` is given, one of those thread types."""
    errors: dict[str, Any] = {}
    name = body.get("name")
    bad_name = not isinstance(name, str) or not 1 <= len(name) <= 100
    if (creating or "name" in body) and bad_name:
        errors["name"] = "must be 1 to 100 in length"
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        errors["auto_archive_duration"] = f"must be one of {ARCHIVE_DURATIONS}"
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None and (
        isinstance(slowmode, bool) or not isinstance(slowmode, int) or not 0 <= slowmode <= 21600
    ):
        errors["rate_limit_per_user"] = "must be 0 to 21600"
    if types and body.get("type") is not None and body["type"] not in types:
        errors["type"] = f"must be one of {types}"
    for key in ("invitable", "archived", "locked"):
        if key in body and not isinstance(body[key], bool):
            errors[key] = "must be a boolean"
    return errors
