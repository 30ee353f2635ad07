"""Point discord.py at a Discord API other than discord.com.

Why: to run the bot behind an HTTP/gateway proxy, and so that end-to-end tests can run
an unmodified discord.py client against a local fake Discord server.

discord.py (2.x) has no public option for this, so we patch the few places where the
endpoints live:

* REST: every request, including interaction callbacks and webhook follow-ups
  (``discord/webhook/async_.py`` builds its URLs with the same ``Route`` class),
  is built as ``Route.BASE + path``, where ``Route.BASE`` is a class attribute
  (``'https://discord.com/api/v10'``) read when each ``Route`` is created.
  Setting it once redirects all REST traffic.
* Gateway: ``Client.connect`` first connects to ``DiscordWebSocket.DEFAULT_GATEWAY``
  (2.x does not call ``GET /gateway/bot`` unless auto-sharded). Later connections use
  the ``resume_gateway_url`` from READY, the ``url`` from ``GET /gateway/bot``
  (``AutoShardedClient``), or ``DEFAULT_GATEWAY`` again after an invalid session. When
  behind a proxy the real Discord would hand out its own hosts there, bypassing the
  proxy, so every gateway connection made through ``DiscordWebSocket.from_client`` is
  pinned to the configured URL (scheme, host, port and path; the query that discord.py
  adds, ``v``/``encoding``/``compress``, is kept).

Not covered (not needed by the bot): CDN asset URLs (``Asset.BASE``) and the
cosmetic ``Webhook.url`` property, which stay on discord.com.

This module must not import anything from the project.
"""

from __future__ import annotations

from typing import Any

import yarl
from discord import http as _discord_http
from discord.gateway import DiscordWebSocket

_ORIGINAL_API_BASE: str = _discord_http.Route.BASE
_ORIGINAL_GATEWAY: yarl.URL = DiscordWebSocket.DEFAULT_GATEWAY
_ORIGINAL_FROM_CLIENT: Any = DiscordWebSocket.__dict__["from_client"]

# The gateway URL every connection is pinned to, or None for discord.py's own behaviour.
_pinned_gateway: yarl.URL | None = None


async def _pinned_from_client(
    cls: type[DiscordWebSocket], client: Any, *, gateway: yarl.URL | None = None, **kwargs: Any
) -> DiscordWebSocket:
    if _pinned_gateway is not None:
        gateway = _pinned_gateway
    return await _ORIGINAL_FROM_CLIENT.__func__(cls, client, gateway=gateway, **kwargs)


def apply_discord_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST calls to ``api_base`` and its gateway to ``gateway_url``.

    ``api_base`` is the versioned REST root, e.g. ``http://127.0.0.1:8080/api/v10``.
    ``gateway_url`` is a ``ws://`` or ``wss://`` URL. ``None`` leaves that endpoint as it
    currently is (discord.com by default). Affects every client in the process.
    """
    global _pinned_gateway
    if api_base is not None:
        _discord_http.Route.BASE = api_base.rstrip("/")
    if gateway_url is not None:
        url = yarl.URL(gateway_url)
        if url.scheme not in ("ws", "wss"):
            raise ValueError(f"gateway URL must be ws:// or wss://, got {gateway_url!r}")
        url = url.with_query(None).with_fragment(None)
        DiscordWebSocket.DEFAULT_GATEWAY = url
        _pinned_gateway = url
        DiscordWebSocket.from_client = classmethod(_pinned_from_client)  # type: ignore[assignment]


def reset_discord_endpoints() -> None:
    """Undo :func:`apply_discord_endpoints`: back to discord.py's own endpoints."""
    global _pinned_gateway
    _discord_http.Route.BASE = _ORIGINAL_API_BASE
    DiscordWebSocket.DEFAULT_GATEWAY = _ORIGINAL_GATEWAY
    DiscordWebSocket.from_client = _ORIGINAL_FROM_CLIENT  # type: ignore[method-assign]
    _pinned_gateway = None
