"""A fake Discord (REST API v10 + gateway) that an unmodified discord.py bot can talk to.

Quick start (see also :mod:`tests.fake_discord.fixtures`)::

    from tests.fake_discord.fixtures import (  # noqa: F401 - registers fixtures
        discord_bot_fixture, error_logs_fixture, fake_discord_fixture,
    )

    @pytest.fixture
    def bot_factory():
        return make_bot            # () -> commands.Bot, not started; syncs its tree in setup_hook

    async def test_new_game(fake_discord, discord_bot):
        fake = fake_discord
        alice, bob = fake.user("alice"), fake.user("bob")
        it = await fake.slash(alice, fake.channel, "amerikaner new", {"players": 4})
        assert it.response_type == 4 and not it.ephemeral
        table = fake.last_message()                      # public messages in fake.channel
        join = await fake.click_label(bob, table, "Join")
        assert join.response_type == 7                   # UPDATE_MESSAGE
        ac = await fake.autocomplete(alice, None, "amerikaner play", focused="card",
                                     options={"card": "k"})
        assert ac.choices

Threads: the bot starts them (``TextChannel.create_thread``, ``Message.create_thread``);
a test finds them with ``fake.threads(channel)`` or ``fake.thread(message)`` and passes a
thread wherever a channel is taken (``fake.slash(alice, thread, ...)``,
``fake.messages(thread)``); a click on a message in a thread comes from the thread.

Strict by default (``FakeDiscord(strict=True)``): the fake answers as Discord does to
what Discord refuses, each rule beside its Discord source (the module named):

* ``fake.clock`` (clock.py): a ``FakeClock`` (``time()``, ``advance(seconds)``) that dates
  messages, snowflakes and interactions; give the bot the same one.
* component emoji Discord does not know: 400 50035 ``BUTTON_COMPONENT_INVALID_EMOJI``
  (validate.py, with the ``emoji`` package);
* ``msg.pings`` / ``fake.pings()`` (mentions.py): whom a message notified, from its
  content and ``allowed_mentions``, as Discord computes it (``await fake.add_role(name,
  mentionable=...)`` makes a role to mention);
* ``fake.set_bot_permissions(channel, allow=..., deny=...)`` (permissions.py): 403
  50001/50013 on the channel's routes; ``fake.bot_permissions(channel)`` is what an
  interaction carries as ``app_permissions``;
* edits of a message older than an hour: ``fake.old_message_edits`` (3) an hour, then
  400 30046;
* rate limits: per-route buckets, and 50 requests/s per token
  (``fake.global_requests()``; interaction routes exempt); 429s in ``fake.rate_limited``;
* interaction tokens expire 15 minutes after the interaction: 401 50027;
* command sync payloads are checked as Discord checks them (commands.py).
* the Activity's side (activity.py, ``fake.activity``): the OAuth2 code exchange (a
  one-time code, 100 s; invalid_grant / invalid_client / unsupported_grant_type),
  ``/users/@me`` with a member's Bearer token, activity instances with the bot token
  (404 when none), and LAUNCH_ACTIVITY (type 12), refused unless
  ``fake.activity.enabled`` (a new app's Activities are off).

Each can be turned off by its keyword (``check_emoji=False``...) for the fake's own tests.

Nothing here talks to the real Discord: the bot is pointed at the fake with
``bot.endpoints.apply_discord_endpoints(fake.api_base, fake.gateway_url)``.
"""

from .clock import FakeClock
from .mentions import Pings
from .models import (
    CHANNEL_MESSAGE_WITH_SOURCE,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    MANAGE_THREADS,
    MODAL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    THREAD_STARTER_MESSAGE,
    UPDATE_MESSAGE,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeRole,
    FakeThread,
    FakeUser,
    RecordedRequest,
    StoredAttachment,
    StoredMessage,
)
from .permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    MENTION_EVERYONE,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from .ratelimit import GlobalRequest, RateLimitRule, default_rules
from .server import FakeDiscord, HTTPError, PostGate

__all__ = [
    "ATTACH_FILES",
    "EMBED_LINKS",
    "MENTION_EVERYONE",
    "READ_MESSAGE_HISTORY",
    "SEND_MESSAGES",
    "VIEW_CHANNEL",
    "FakeClock",
    "GlobalRequest",
    "Pings",
    "CHANNEL_MESSAGE_WITH_SOURCE",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_UPDATE_MESSAGE",
    "EPHEMERAL",
    "MANAGE_THREADS",
    "MODAL",
    "PRIVATE_THREAD",
    "PUBLIC_THREAD",
    "SEND_MESSAGES_IN_THREADS",
    "THREAD_STARTER_MESSAGE",
    "UPDATE_MESSAGE",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeRole",
    "FakeThread",
    "FakeUser",
    "HTTPError",
    "PostGate",
    "RateLimitRule",
    "RecordedRequest",
    "StoredAttachment",
    "StoredMessage",
    "default_rules",
]
