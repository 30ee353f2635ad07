"""Who a message may ping: nobody, unless a send names them.

Discord pings whoever a message's content mentions unless the request's
`allowed_mentions` says otherwise; names and typed text that reach a message must never
ping anyone, so the bot sends `no_mentions()` by default (bot/app.py) and with every
answer, and a turn ping names its player alone (`pinging_user`).
https://discord.com/developers/docs/resources/message#allowed-mentions-object
"""

from __future__ import annotations

import discord


def no_mentions() -> discord.AllowedMentions:
    """The mentions a message may make when it should ping nobody: none at all. A new
    object each time: discord.py's AllowedMentions is mutable, and one shared default
    changed by a caller would change every send."""
    return discord.AllowedMentions.none()


def pinging_user(user: int | None) -> discord.AllowedMentions:
    """The mentions a ping may make: `user`, named, and nobody else.
    (`AllowedMentions(users=True)` would send parse ["everyone", "users", "roles"]:
    discord.py's other flags default to true.)
    https://discord.com/developers/docs/resources/message#allowed-mentions-object"""
    users = [discord.Object(id=user)] if user is not None else []
    return discord.AllowedMentions(everyone=False, users=users, roles=False,
                                   replied_user=False)


def pinging_users(users: list[int]) -> discord.AllowedMentions:
    """The mentions a message naming several members may make: those, nobody else."""
    return discord.AllowedMentions(everyone=False, users=[discord.Object(id=u) for u in users],
                                   roles=False, replied_user=False)
