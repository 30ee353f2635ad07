"""The Activity's side of the fake Discord: the OAuth2 code exchange, `/users/@me` with a
member's Bearer token, the application's activity instances, and the LAUNCH_ACTIVITY
interaction response (type 12). Each rule beside the Discord source it follows.

A test plays the Discord client's part: `fake.activity.launch(channel, user)` starts an
instance (as a member opening the Activity does), `authorize(user)` is the code the SDK's
`authorize` command hands the page, and `join`/`leave` move members in and out.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from .clock import FakeClock

# https://discord.com/developers/docs/interactions/receiving-and-responding
# (interaction callback type): "LAUNCH_ACTIVITY 12 Launch the Activity associated with
# the app. Only available for apps with Activities enabled".
LAUNCH_ACTIVITY = 12

# "codes are one time use and expire 100 seconds after creation" (a Discord engineer,
# https://github.com/discord/discord-api-docs/issues/2526).
CODE_LIFETIME = 100.0
# https://discord.com/developers/docs/topics/oauth2#authorization-code-grant
# (Access Token Response): "expires_in": 604800.
TOKEN_LIFETIME = 604800.0


class OAuthError(Exception):
    """An answer of Discord's token URL: its status and body (RFC 6749 section 5.2)."""

    def __init__(self, status: int, body: dict[str, str]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


# Discord's answer to a wrong, expired or already exchanged code, as its users quote it
# (https://github.com/discord/discord-api-docs/issues/5579: 400
# {"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}).
INVALID_GRANT = OAuthError(400, {"error": "invalid_grant",
                                 "error_description": 'Invalid "code" in request.'})
# A wrong client id or secret: RFC 6749 5.2 "invalid_client ... 401 (Unauthorized)"; the
# docs: "All calls to the OAuth2 endpoints require either HTTP Basic authentication or
# client_id and client_secret supplied in the form data body."
INVALID_CLIENT = OAuthError(401, {"error": "invalid_client"})
UNSUPPORTED_GRANT = OAuthError(400, {"error": "unsupported_grant_type"})


@dataclass
class _Code:
    user_id: int
    scopes: tuple[str, ...]
    expires: float
    used: bool = False


@dataclass
class _Token:
    user_id: int
    scopes: tuple[str, ...]
    expires: float


@dataclass
class ActivityInstance:
    """A running instance of the app's Activity in a channel, and who is in it."""

    instance_id: str
    launch_id: int
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    def to_dict(self, app_id: int) -> dict[str, Any]:
        """As Discord serializes it (https://discord.com/developers/docs/resources/
        application#get-application-activity-instance, Example Activity Instance)."""
        where = (f"gc-{self.guild_id}-{self.channel_id}" if self.guild_id is not None
                 else f"pc-{self.channel_id}")
        location: dict[str, Any] = {
            "id": where, "kind": "gc" if self.guild_id is not None else "pc",
            "channel_id": str(self.channel_id)}
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {"application_id": str(app_id), "instance_id": self.instance_id,
                "launch_id": str(self.launch_id), "location": location,
                "users": [str(u) for u in self.users]}


class ActivitySide:
    """The app's OAuth2 client, its members' tokens, and its running instances."""

    def __init__(self, clock: FakeClock, app_id: int, next_id: Any) -> None:
        self.clock = clock
        self.app_id = app_id
        self._next_id = next_id  # () -> a fresh snowflake
        self.client_secret = secrets.token_urlsafe(24)
        #: the Developer Portal's "Activities" switch: a new app has it off
        self.enabled = False
        self._codes: dict[str, _Code] = {}
        self._tokens: dict[str, _Token] = {}
        self.instances: dict[str, ActivityInstance] = {}
        #: every exchange the token URL answered: (status, error or "ok")
        self.exchanges: list[tuple[int, str]] = []

    # ------------------------------------------------------------ the Discord client's part
    def authorize(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code the SDK's `authorize` command gives the page for this member."""
        code = secrets.token_urlsafe(20)
        self._codes[code] = _Code(user_id, scopes, self.clock.time() + CODE_LIFETIME)
        return code

    def launch(self, channel_id: int, guild_id: int | None, user_id: int) -> ActivityInstance:
        """A member opens the Activity in a channel: its instance there (a new one if none
        runs), with the member in it."""
        for instance in self.instances.values():
            if instance.channel_id == channel_id:
                self.join(instance.instance_id, user_id)
                return instance
        launch_id = self._next_id()
        where = f"gc-{guild_id}-{channel_id}" if guild_id is not None else f"pc-{channel_id}"
        instance = ActivityInstance(f"i-{launch_id}-{where}", launch_id, channel_id, guild_id)
        instance.users.append(user_id)
        self.instances[instance.instance_id] = instance
        return instance

    def join(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def leave(self, instance_id: str, user_id: int) -> None:
        """A member closes the Activity; the instance ends with its last member."""
        instance = self.instances[instance_id]
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            del self.instances[instance_id]

    def revoke(self, user_id: int) -> None:
        """Every token of a member dies (they removed the app's authorization)."""
        for key in [k for k, t in self._tokens.items() if t.user_id == user_id]:
            del self._tokens[key]

    # ------------------------------------------------------------ what Discord answers
    def exchange(self, body: Any, authorization: str | None) -> dict[str, Any]:
        """POST /oauth2/token: a code for a member's access token, or OAuthError."""
        try:
            form = _form(body)
            client_id, secret = _client(form, authorization)
            if client_id != str(self.app_id) or not secrets.compare_digest(
                    secret, self.client_secret):
                raise INVALID_CLIENT
            if form.get("grant_type") != "authorization_code":
                raise UNSUPPORTED_GRANT
            code = self._codes.get(form.get("code", ""))
            if code is None or code.used or self.clock.time() > code.expires:
                raise INVALID_GRANT
        except OAuthError as exc:
            self.exchanges.append((exc.status, exc.body["error"]))
            raise
        code.used = True  # one time use, even if the answer is lost
        token = secrets.token_urlsafe(24)
        self._tokens[token] = _Token(code.user_id, code.scopes,
                                     self.clock.time() + TOKEN_LIFETIME)
        self.exchanges.append((200, "ok"))
        return {"access_token": token, "token_type": "Bearer",
                "expires_in": int(TOKEN_LIFETIME), "refresh_token": secrets.token_urlsafe(24),
                "scope": " ".join(code.scopes)}

    def user_of(self, authorization: str | None) -> int | None:
        """The member whose live Bearer token with the `identify` scope this is.
        https://discord.com/developers/docs/resources/user#get-current-user: "Returns the
        user object of the requester's account. For OAuth2, this requires the identify
        scope"."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        token = self._tokens.get(authorization[len("Bearer "):])
        if token is None or self.clock.time() > token.expires or "identify" not in token.scopes:
            return None
        return token.user_id


def _form(body: Any) -> dict[str, str]:
    """The token request's form (`application/x-www-form-urlencoded`, as the docs' examples
    send it); a JSON body is read too."""
    if isinstance(body, dict):
        return {str(k): str(v) for k, v in body.items()}
    if isinstance(body, str):
        return {k: v[0] for k, v in parse_qs(body).items()}
    return {}


def _client(form: dict[str, str], authorization: str | None) -> tuple[str, str]:
    """The client id and secret: HTTP Basic, or the form's (the docs allow either)."""
    if authorization and authorization.startswith("Basic "):
        try:
            raw = base64.b64decode(authorization[len("Basic "):]).decode()
        except ValueError:
            raise INVALID_CLIENT from None
        client_id, _, secret = raw.partition(":")
        return client_id, secret
    return form.get("client_id", ""), form.get("client_secret", "")
