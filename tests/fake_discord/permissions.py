"""Channel permissions as Discord computes them, for the bot (and any member).

https://discord.com/developers/docs/topics/permissions#permission-overwrites : the base
permissions are @everyone's plus the member's roles (Administrator: everything); in a
channel, the @everyone overwrite applies first, then the roles' overwrites together, then
the member's own. A thread takes its parent channel's permissions.

https://discord.com/developers/docs/topics/permissions#implicit-permissions : without
View Channel a member has no permission in the channel at all, and without Send
Messages it cannot mention everyone, send TTS messages, attach files or embed links.
"""

from __future__ import annotations

from dataclasses import dataclass

# Bits of https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

#: what a member without Send Messages loses in a channel (implicit permissions)
NEEDS_SEND_MESSAGES = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS


@dataclass
class Overwrite:
    """A channel permission overwrite: ``kind`` 0 for a role, 1 for a member."""

    id: int
    kind: int
    allow: int = 0
    deny: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"id": str(self.id), "type": self.kind, "allow": str(self.allow),
                "deny": str(self.deny)}


def apply_overwrites(base: int, overwrites: dict[int, Overwrite], *, guild_id: int,
                     user_id: int, roles: list[int]) -> int:
    """The permissions in a channel from the guild-level ``base`` (Discord's order:
    @everyone, then all the member's roles at once, then the member), before the
    implicit rules (:func:`implicit`)."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    perms = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        perms = (perms & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for rid in roles:
        ow = overwrites.get(rid)
        if ow is not None and ow.kind == 0:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    member = overwrites.get(user_id)
    if member is not None and member.kind == 1:
        perms = (perms & ~member.deny) | member.allow
    return perms


def implicit(perms: int, *, in_thread: bool = False) -> int:
    """Discord's implicit permissions: no View Channel, nothing; no Send Messages, no
    mentions of everyone, TTS, files or embeds. In a thread, Send Messages in Threads
    stands for Send Messages (our reading: the docs name the channel case only)."""
    if not perms & VIEW_CHANNEL:
        return 0
    if not perms & (SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES):
        perms &= ~NEEDS_SEND_MESSAGES
    return perms
