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

Nothing here talks to the real Discord: the bot is pointed at the fake with
``bot.endpoints.apply_discord_endpoints(fake.api_base, fake.gateway_url)``.
"""

from .models import (
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    MODAL,
    UPDATE_MESSAGE,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeRole,
    FakeUser,
    RecordedRequest,
    StoredAttachment,
    StoredMessage,
)
from .ratelimit import RateLimitRule, default_rules
from .server import FakeDiscord, HTTPError, PostGate

__all__ = [
    "CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_UPDATE_MESSAGE",
    "EPHEMERAL",
    "MODAL",
    "UPDATE_MESSAGE",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "HTTPError",
    "PostGate",
    "RateLimitRule",
    "RecordedRequest",
    "StoredAttachment",
    "StoredMessage",
    "default_rules",
]
