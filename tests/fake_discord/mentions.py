"""Who a message pings, computed as Discord does from its content and allowed_mentions.

https://discord.com/developers/docs/resources/message#allowed-mentions-object :
- ``allowed_mentions`` absent: a regular message parses every mention in its content
  (users, roles, @everyone/@here); interaction responses, follow-ups and webhook
  messages parse user mentions only (the caveat added to the docs in
  https://github.com/discord/discord-api-docs/pull/7629).
- present: ``parse`` lists the kinds parsed from the content; ``users`` / ``roles`` name
  the ids that may ping (each must also be mentioned in the content: no phantom pings);
  ``parse: ["users"]`` together with ``users`` is refused (they are exclusive), as are
  more than 100 ids; ``replied_user`` (default false) pings a reply's author.
- @everyone and @here ping only with the Mention Everyone permission, interaction
  responses included (https://github.com/discord/discord-api-docs/pull/5501); a role
  pings if it is mentionable or with that permission
  (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags,
  MENTION_EVERYONE: "Allows for using the @everyone tag ... and mentioning all roles").
- Embeds never ping, and an edit never notifies anyone: only the content of a new
  message is read.

A user who is not a member, or cannot see the channel, is not notified.

Our assumptions where the docs are silent: a mention pings whether or not it sits in
a code span (the stricter choice); a reply without ``allowed_mentions`` pings its
author (the clients' default); an ephemeral message pings nobody (only its reader
sees it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE_MENTION = re.compile(r"@(?:everyone|here)")
MENTION_TYPES = ("users", "roles", "everyone")
#: what an absent allowed_mentions parses
PARSE_ALL = ("users", "roles", "everyone")
PARSE_USERS = ("users",)


@dataclass(frozen=True)
class Pings:
    """Whom a message notified: users, roles, and whether @everyone/@here."""

    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()
    everyone: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


NO_PINGS = Pings()


def validate_allowed_mentions(allowed: Any) -> dict[str, Any]:
    """Errors Discord answers 400 50035 for, about an allowed_mentions object."""
    if allowed is None:
        return {}
    if not isinstance(allowed, dict):
        return {"allowed_mentions": "must be an object"}
    errors: dict[str, Any] = {}
    parse = allowed.get("parse") or []
    bad = [p for p in parse if p not in MENTION_TYPES]
    if bad:
        errors["allowed_mentions.parse"] = f"unknown mention types {bad}"
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if ids and kind in parse:
            errors[f"allowed_mentions.{kind}"] = (
                f"parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive")
        if len(ids) > 100:
            errors[f"allowed_mentions.{kind}"] = "max 100"
    return errors


def compute_pings(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    default_parse: Iterable[str],
    is_member: Callable[[int], bool],
    role_pingable: Callable[[int], bool],
    can_mention_everyone: bool,
    replied_author: int | None = None,
) -> Pings:
    """Whom a new message with ``content`` pings. ``is_member``: whether a user id can
    be notified here; ``role_pingable``: whether a role id may be pinged by the bot
    (mentionable, or the bot may mention everyone)."""
    if allowed is None:
        parse = set(default_parse)
        named_users: set[int] = set()
        named_roles: set[int] = set()
        replied = True
    else:
        parse = set(allowed.get("parse") or [])
        named_users = {int(u) for u in allowed.get("users") or []}
        named_roles = {int(r) for r in allowed.get("roles") or []}
        replied = bool(allowed.get("replied_user"))
    in_content_users = {int(u) for u in USER_MENTION.findall(content)}
    in_content_roles = {int(r) for r in ROLE_MENTION.findall(content)}
    users = {u for u in in_content_users
             if ("users" in parse or u in named_users) and is_member(u)}
    if replied and replied_author is not None and is_member(replied_author):
        users.add(replied_author)
    roles = {r for r in in_content_roles
             if ("roles" in parse or r in named_roles) and role_pingable(r)}
    everyone = ("everyone" in parse and can_mention_everyone
                and EVERYONE_MENTION.search(content) is not None)
    return Pings(frozenset(users), frozenset(roles), everyone)
