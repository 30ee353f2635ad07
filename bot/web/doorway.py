"""The Activity's doorway: what the page loads before its socket (the page's files, the
app's client id, the code exchange, the seats' avatars), and what Discord says of who
opens a page and where (the member by their token, the instance by the bot's token),
asked as seldom as Discord's answers allow."""

from __future__ import annotations

import time
from pathlib import Path

import aiohttp
from aiohttp import web

from bot.web.connection import Refusal
from bot.web.discord_api import MAX_AVATAR, DiscordApi, DiscordRefused, Instance, Member

STATIC = Path(__file__).parent / "static"
PREFIXES = ("", "/.proxy")
INSTANCE_FRESH = 10.0  # seconds an instance's answer serves the members it lists
AVATAR_FRESH = 600.0  # seconds an avatar fetched from Discord's CDN is served again
AVATARS_KEPT = 512  # avatars kept at most (a 64 px PNG: a few kB each)


class Doorway:
    """The page's HTTP routes and Discord's word on who and where."""

    def __init__(self, api: DiscordApi, static: Path = STATIC) -> None:
        self.api = api
        self.static = static
        self._instances: dict[str, tuple[float, Instance]] = {}
        # Avatars: each member's hash as Discord told it (their /users/@me, when they
        # opened the page), and the images fetched from the CDN, by (member, hash)
        self.avatars: dict[int, str] = {}
        self._images: dict[tuple[int, str], tuple[float, bytes]] = {}

    def add_routes(self, app: web.Application) -> None:
        """The page's files at the root, the API with and without Discord's `/.proxy`
        prefix (the page served straight from here in the tests)."""
        for prefix in PREFIXES:
            app.router.add_post(f"{prefix}/api/token", self._token)
            app.router.add_get(f"{prefix}/api/config", self._config)
            app.router.add_get(f"{prefix}/api/avatar/{{user}}/{{name}}", self._avatar)
        app.router.add_get("/", self._index)
        app.router.add_get("/{name}", self._file)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve(self.static / "index.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if "/" in name or name.startswith("."):
            raise web.HTTPNotFound()
        return self._serve(self.static / name)

    def _serve(self, path: Path) -> web.StreamResponse:
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def _config(self, request: web.Request) -> web.Response:
        """What the page needs before the SDK starts: the app's client id (public)."""
        return web.json_response({"client_id": str(self.api.app_id)})

    async def _token(self, request: web.Request) -> web.Response:
        """The SDK's one-time code for the member's access token, exchanged here with the
        app's client secret (which never reaches the page)."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code or len(code) > 200:
            return web.json_response({"error": "bad_frame"}, status=400)
        try:
            token = await self.api.exchange(code)
        except DiscordRefused:
            return web.json_response({"error": "unauthorized"}, status=401)
        return web.json_response({"access_token": token})

    async def _avatar(self, request: web.Request) -> web.StreamResponse:
        """A seat's avatar, under the page's own origin (the page reaches nothing else),
        fetched from Discord's CDN and kept a while. Only the avatar a member's own
        /users/@me gave (the path a view names): no other image is fetched."""
        user, name = request.match_info["user"], request.match_info["name"]
        avatar = self.avatars.get(int(user)) if user.isdigit() else None
        if avatar is None or name != f"{avatar}.png":
            raise web.HTTPNotFound()
        key, now = (int(user), avatar), time.monotonic()
        kept = self._images.get(key)
        if kept is None or now - kept[0] > AVATAR_FRESH:
            image = await self.api.avatar(int(user), avatar)
            if image is None or len(image) > MAX_AVATAR:
                raise web.HTTPNotFound()  # the page draws the initial
            for old in [k for k, (when, _) in self._images.items()
                        if now - when > AVATAR_FRESH]:
                del self._images[old]
            while len(self._images) >= AVATARS_KEPT:
                del self._images[next(iter(self._images))]
            kept = self._images[key] = (now, image)
        return web.Response(body=kept[1], content_type="image/png",
                            headers={"Cache-Control": f"max-age={int(AVATAR_FRESH)}"})

    async def member_in(self, token: str, instance_id: str) -> tuple[Member, Instance]:
        """The member and the table of the instance's channel, once Discord has said who
        the member is and that they are in the instance (both Discord's own answers)."""
        try:
            member = await self.api.member(token)
            instance = await self._instance(instance_id, member.id)
        except DiscordRefused as exc:
            raise Refusal("unauthorized" if exc.status == 401 else "not_in_instance") \
                from None
        except (aiohttp.ClientError, TimeoutError):
            # Discord did not answer (the page tries again by itself)
            raise Refusal("discord_unreachable") from None
        if member.id not in instance.users:
            raise Refusal("not_in_instance")
        return member, instance

    async def _instance(self, instance_id: str, member_id: int) -> Instance:
        """The instance as Discord says, asked once for the members who open it together
        (a table's four pages: one request, not four): an answer a few seconds old
        serves a member it lists; anyone else makes it asked again."""
        now = time.monotonic()
        known = self._instances.get(instance_id)
        if known is not None and now - known[0] < INSTANCE_FRESH \
                and member_id in known[1].users:
            return known[1]
        instance = await self.api.instance(instance_id)
        self._instances[instance_id] = (now, instance)
        for old in [k for k, (when, _) in self._instances.items()
                    if now - when >= INSTANCE_FRESH]:
            del self._instances[old]
        return instance
