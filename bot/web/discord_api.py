"""What the backend asks Discord: the OAuth2 code exchange, who a token belongs to, and an
activity instance. Plain aiohttp against the API base discord.py uses (bot/endpoints.py
points both at a proxy or at the tests' fake Discord)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import aiohttp
from yarl import URL

CDN = "https://cdn.discordapp.com"
DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
MAX_AVATAR = 256 * 1024  # bytes: a 64 px PNG is a few kB

# Tries of a request Discord answered 429 (each after its retry_after, at most MAX_WAIT).
TRIES = 4
MAX_WAIT = 5.0


class DiscordRefused(Exception):
    """Discord said no (a bad code, a dead token, no such instance): `status` its answer."""

    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"{what}: {status}")
        self.status = status


@dataclass(frozen=True)
class Member:
    """Who a Bearer token belongs to (GET /users/@me)."""

    id: int
    name: str
    avatar: str | None = None  # the avatar's hash (Discord's CDN), None: no avatar set


@dataclass(frozen=True)
class Instance:
    """An activity instance: where it runs and who is in it."""

    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class DiscordApi:
    """The three requests, on one session."""

    def __init__(self, api_base: str, app_id: int, client_secret: str, bot_token: str,
                 trace_configs: list[aiohttp.TraceConfig] | None = None) -> None:
        self.api_base = api_base.rstrip("/")
        # Discord's CDN, for avatars: cdn.discordapp.com beside Discord's own API; beside
        # another API base (a proxy, the tests' fake Discord) that base's origin, which
        # then serves the CDN's paths (an avatar it does not serve is drawn as an initial)
        origin = URL(self.api_base).origin()
        self.cdn_base = CDN if origin.host in DISCORD_HOSTS else str(origin)
        self.app_id = app_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        # The app's hook: requests with the bot token wait for the bot's request budget
        # like discord.py's (bot/app.py, _budget_trace).
        # Only the requests made with the bot token: "Limits are applied to individual
        # bots and users ... Individuals are determined using a request's
        # authentication—for example, a bot token for a bot"
        # (https://discord.com/developers/docs/topics/rate-limits): a member's /users/@me
        # (their Bearer token) and the code exchange (the client's secret) are not the
        # bot's to count, and a thousand members opening their pages at once would
        # otherwise queue behind the table messages' edits.
        self.trace_configs = trace_configs or []
        self._session: aiohttp.ClientSession | None = None
        self._members: aiohttp.ClientSession | None = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10),
                                                  trace_configs=self.trace_configs)
        return self._session

    @property
    def members_session(self) -> aiohttp.ClientSession:
        """The session of the requests not made with the bot token (not budgeted)."""
        if self._members is None or self._members.closed:
            self._members = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._members

    async def _request(self, method: str, url: str, *, bot: bool = True, **kwargs: Any
                       ) -> tuple[int, dict[str, Any]]:
        """A request, tried again after Discord's retry_after when it answers 429
        (https://discord.com/developers/docs/topics/rate-limits: "retry_after ... The
        number of seconds to wait before submitting another request")."""
        for _ in range(TRIES):
            session = self.session if bot else self.members_session
            async with session.request(method, url, **kwargs) as resp:
                body = await _json(resp)
                if resp.status != 429:
                    return resp.status, body
            await asyncio.sleep(min(MAX_WAIT, float(body.get("retry_after") or 1.0)))
        return 429, {}

    async def close(self) -> None:
        for session in (self._session, self._members):
            if session is not None:
                await session.close()

    async def exchange(self, code: str) -> str:
        """The member's access token for the SDK's one-time `code`.
        https://discord.com/developers/docs/topics/oauth2#authorization-code-grant: a
        form with grant_type=authorization_code and the code, the client id and secret
        (the docs allow them in the form)."""
        form = {"client_id": str(self.app_id), "client_secret": self.client_secret,
                "grant_type": "authorization_code", "code": code}
        status, body = await self._request("POST", f"{self.api_base}/oauth2/token", data=form,
                                           bot=False)
        if status != 200 or not isinstance(body.get("access_token"), str):
            raise DiscordRefused(status, "code exchange")
        return str(body["access_token"])

    async def member(self, access_token: str) -> Member:
        """https://discord.com/developers/docs/resources/user#get-current-user, with the
        member's Bearer token (the identify scope): the member is who Discord says."""
        headers = {"Authorization": f"Bearer {access_token}"}
        status, body = await self._request("GET", f"{self.api_base}/users/@me",
                                           headers=headers, bot=False)
        if status != 200:
            raise DiscordRefused(status, "users/@me")
        avatar = body.get("avatar")
        return Member(int(body["id"]), str(body.get("global_name") or body["username"]),
                      avatar if isinstance(avatar, str) and avatar else None)

    async def avatar(self, user_id: int, avatar: str) -> bytes | None:
        """A member's avatar, small, from Discord's CDN
        (https://discord.com/developers/docs/reference#image-formatting-cdn-endpoints:
        "User Avatar avatars/user_id/user_avatar.png", "?size=" a power of two), for the
        page to show through the backend: "Serve all of the application's
        avatar/nicknames via the application's server"
        (https://discord.com/developers/docs/activities/development-guides/multiplayer-
        experience#render-avatars-and-names). None when it cannot be had."""
        url = f"{self.cdn_base}/avatars/{user_id}/{avatar}.png?size=64"
        try:
            async with self.members_session.get(url) as resp:
                if resp.status != 200 or resp.content_type != "image/png":
                    return None
                return await resp.content.read(MAX_AVATAR + 1)
        except (aiohttp.ClientError, TimeoutError):
            return None

    async def instance(self, instance_id: str) -> Instance:
        """https://discord.com/developers/docs/resources/application#get-application-
        activity-instance, with the bot token: 404 when it does not run."""
        url = f"{self.api_base}/applications/{self.app_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self.bot_token}"}
        status, body = await self._request("GET", url, headers=headers)
        if status != 200:
            raise DiscordRefused(status, "activity instance")
        location = body.get("location") or {}
        guild = location.get("guild_id")
        return Instance(int(location["channel_id"]), int(guild) if guild else None,
                        frozenset(int(u) for u in body.get("users") or ()))


async def _json(resp: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await resp.json(content_type=None)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
