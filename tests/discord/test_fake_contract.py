"""The strict fake Discord's contract (CONTRIBUTING.md: Discord is the judge): each rule
of Discord's the fake enforces, with the Discord source it follows.

The requests are made with aiohttp straight to the fake's REST API (the bot token, or an
interaction's token), so each test shows exactly what Discord would answer to a payload;
a bare discord.py client is connected only so that the fake can send interactions (and,
in one test, to show the client learns of a permission overwrite)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.clock import FakeClock
from tests.fake_discord.fixtures import (
    ErrorLogCapture,
    bot_intents,
    error_logs_fixture,  # noqa: F401 - registers the "error_logs" fixture
    running_bot,
)
from tests.fake_discord.models import DISCORD_EPOCH_MS
from tests.fake_discord.permissions import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_MESSAGES,
    MENTION_EVERYONE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from tests.fake_discord.validate import known_emoji

BUTTON = {"type": 2, "style": 1, "custom_id": "b", "label": "Hand"}


class Api:
    """Raw REST calls to the fake: ``await api.post(path, json)`` -> (status, body)."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(self, method: str, path: str, body: Any = None, *, auth: bool = True,
                   files: dict[str, bytes] | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kwargs: dict[str, Any] = {"headers": headers}
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}),
                           content_type="application/json")
            for i, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{i}]", data, filename=name)
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        async with self.session.request(method, self.fake.api_base + path, **kwargs) as resp:
            text = await resp.text()
            return resp.status, (json.loads(text) if text else None)

    async def post(self, channel_id: int, body: dict[str, Any], **kw: Any) -> tuple[int, Any]:
        return await self.call("POST", f"/channels/{channel_id}/messages", body, **kw)

    async def edit(self, msg: StoredMessage, body: dict[str, Any]) -> tuple[int, Any]:
        return await self.call("PATCH", f"/channels/{msg.channel_id}/messages/{msg.id}", body)

    async def posted(self, channel_id: int, body: dict[str, Any]) -> StoredMessage:
        status, data = await self.post(channel_id, body)
        assert status == 200, data
        return self.fake.message(int(data["id"]))

    async def interaction(self, user: str = "alice", channel: Any = None) -> Any:
        """A click on a button of a fresh bot message, not yet answered."""
        ch = self.fake._channel(channel)
        msg = await self.posted(ch.id, {"content": "board", "components": [
            {"type": 1, "components": [BUTTON]}]})
        return await self.fake.click(user, msg, "b", wait=False)

    async def callback(self, inter: Any, body: dict[str, Any]) -> tuple[int, Any]:
        return await self.call("POST", f"/interactions/{inter.id}/{inter.token}/callback",
                               body, auth=False)

    async def followup(self, inter: Any, body: dict[str, Any]) -> tuple[int, Any]:
        return await self.call("POST", f"/webhooks/{self.fake.app_id}/{inter.token}?wait=true",
                               body, auth=False)

    async def edit_original(self, inter: Any, body: dict[str, Any]) -> tuple[int, Any]:
        path = f"/webhooks/{self.fake.app_id}/{inter.token}/messages/@original"
        return await self.call("PATCH", path, body, auth=False)


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, Api, discord.Client]]:
    """A strict fake (the default), a bare connected client, and raw REST access."""
    fake = FakeDiscord()
    await fake.start()
    try:
        async with running_bot(fake, discord.Client(intents=bot_intents())) as client, \
                aiohttp.ClientSession() as session:
            yield fake, Api(fake, session), client
    finally:
        await fake.stop()


def error_code(data: Any) -> int:
    return int(data["code"])


def test_strict_is_the_default_and_each_rule_can_be_turned_off() -> None:
    fake = FakeDiscord()
    assert fake.strict and fake.validate and fake.check_emoji and fake.check_permissions
    assert fake.check_message_age and fake.check_token_expiry and fake.check_commands
    assert fake.rate_limiter is not None and fake.global_limiter is not None
    lax = FakeDiscord(strict=False)
    assert not (lax.check_emoji or lax.check_permissions or lax.check_message_age)
    assert lax.rate_limiter is None and lax.global_limiter is None
    assert not FakeDiscord(check_emoji=False).check_emoji


# ---------------------------------------------------------------- clock (contract 1)
async def test_clock_dates_messages_and_snowflakes(world: Any) -> None:
    fake, api, _ = world
    fake.clock.advance(86400)
    msg = await api.posted(fake.channel.id, {"content": "tomorrow"})
    when = ((msg.id >> 22) + DISCORD_EPOCH_MS) / 1000
    assert abs(when - fake.clock.time()) < 60 and abs(msg.created_at - when) < 1
    assert msg.timestamp.startswith(fake.clock.iso()[:10])
    with pytest.raises(ValueError):
        fake.clock.advance(-1)
    shared = FakeClock()
    assert FakeDiscord(clock=shared).clock is shared


# ---------------------------------------------------------------- emoji (contract 3)
def test_known_emoji_comes_from_the_emoji_package() -> None:
    assert known_emoji("🃏") and known_emoji("↩") and known_emoji("❤") and known_emoji("❤️")
    assert not known_emoji("🂠")  # U+1F0A0 PLAYING CARD BACK: a symbol, not an emoji
    assert not known_emoji("x") and not known_emoji("")


async def test_unknown_component_emoji_is_refused_on_every_route(world: Any) -> None:
    """Discord: 400 50035 with BUTTON_COMPONENT_INVALID_EMOJI at the emoji's path
    (https://github.com/bwmarrin/discordgo/issues/1479), for buttons and select options
    (https://github.com/discord/discord-api-docs/issues/8071)."""
    fake, api, _ = world
    bad_button = {"type": 1, "components": [{**BUTTON, "emoji": {"name": "🂠"}}]}
    status, data = await api.post(fake.channel.id, {"content": "x", "components": [bad_button]})
    assert status == 400 and error_code(data) == 50035
    err = data["errors"]["components.0.components.0.emoji.name"]
    assert err["_errors"][0]["code"] == "BUTTON_COMPONENT_INVALID_EMOJI"
    select = {"type": 3, "custom_id": "s", "options": [
        {"label": "a", "value": "a", "emoji": {"name": "🃏"}},
        {"label": "b", "value": "b", "emoji": {"name": "nope"}}]}
    status, data = await api.post(fake.channel.id, {"content": "x", "components": [
        {"type": 1, "components": [select]}]})
    assert status == 400 and "components.0.components.0.options.1.emoji.name" in data["errors"]
    good = {"type": 1, "components": [{**BUTTON, "emoji": {"name": "🃏"}}]}
    custom = {"type": 1, "components": [{**BUTTON, "custom_id": "c",
                                         "emoji": {"name": "card", "id": "123456789"}}]}
    msg = await api.posted(fake.channel.id, {"content": "x", "components": [good, custom]})
    status, _ = await api.edit(msg, {"components": [bad_button]})
    assert status == 400
    inter = await api.interaction()
    status, _ = await api.callback(inter, {"type": 4, "data": {"content": "x",
                                                               "components": [bad_button]}})
    assert status == 400 and inter.errors[-1]["code"] == 50035
    status, _ = await api.callback(inter, {"type": 5})
    assert status == 204
    status, _ = await api.followup(inter, {"content": "x", "components": [bad_button]})
    assert status == 400
    status, _ = await api.edit_original(inter, {"components": [bad_button]})
    assert status == 400
    status, _ = await api.edit_original(inter, {"content": "ok", "components": [good]})
    assert status == 200


async def test_a_select_option_description_over_100_characters_is_refused(
        world: Any) -> None:
    """Discord: a select option's description is at most 100 characters
    (https://discord.com/developers/docs/components/reference#string-select-select-option-structure):
    one longer makes the whole message a 400 50035 (the lobby's AI menu explains each
    level in such a line)."""
    fake, api, _ = world

    def menu(description: str) -> list[dict[str, Any]]:
        return [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
            {"label": "a", "value": "a", "description": description}]}]}]

    status, data = await api.post(fake.channel.id, {"content": "x",
                                                    "components": menu("d" * 101)})
    assert status == 400 and error_code(data) == 50035
    inter = await api.interaction()
    status, _ = await api.callback(inter, {"type": 4, "data": {
        "content": "x", "components": menu("d" * 101)}})
    assert status == 400 and inter.errors[-1]["code"] == 50035
    status, _ = await api.post(fake.channel.id, {"content": "x",
                                                 "components": menu("d" * 100)})
    assert status == 200


async def test_more_than_25_buttons_or_a_label_over_80_characters_is_refused(
        world: Any) -> None:
    """Discord (https://discord.com/developers/docs/components/reference): "Legacy
    messages allow up to 5 action rows as top-level components"
    (#legacy-message-component-behavior), an action row holds "Up to 5 contextually
    grouped buttons" (#action-row), and a button's label is "max 80 characters"
    (#button-button-structure): 25 buttons at most, each labelled within 80. More makes
    the whole message a 400 50035, on a post and in an interaction's answer alike (the
    default hand panel keeps within them: cogs/tables/default_panel.py)."""
    fake, api, _ = world

    def rows(count: int, each: int = 5, label: str = "x") -> list[dict[str, Any]]:
        return [{"type": 1, "components": [
            {**BUTTON, "custom_id": f"b{r}.{b}", "label": label} for b in range(each)]}
            for r in range(count)]

    assert (await api.post(fake.channel.id, {"content": "x", "components": rows(5)}))[0] \
        == 200  # 25 buttons, as the default panel's fullest step has
    for too_many in (rows(6), rows(1, each=6), rows(1, each=1, label="y" * 81)):
        status, data = await api.post(fake.channel.id, {"content": "x",
                                                        "components": too_many})
        assert status == 400 and error_code(data) == 50035, data
    inter = await api.interaction()
    status, _ = await api.callback(inter, {"type": 7, "data": {"components": rows(6)}})
    assert status == 400 and inter.errors[-1]["code"] == 50035
    status, _ = await api.callback(inter, {"type": 7, "data": {
        "components": rows(1, each=1, label="y" * 80)}})
    assert status == 204


async def test_emoji_rule_can_be_turned_off() -> None:
    async with FakeDiscord(check_emoji=False) as fake, aiohttp.ClientSession() as session:
        bad = {"type": 1, "components": [{**BUTTON, "emoji": {"name": "🂠"}}]}
        status, _ = await Api(fake, session).post(fake.channel.id,
                                                  {"content": "x", "components": [bad]})
        assert status == 200


# ---------------------------------------------------------------- mentions (contract 4)
async def test_a_regular_message_without_allowed_mentions_pings_everything(world: Any) -> None:
    """https://discord.com/developers/docs/resources/message#allowed-mentions-object:
    absent, a regular message parses users, roles and everyone."""
    fake, api, _ = world
    alice, bob = fake.user("alice"), fake.user("bob")
    role = await fake.add_role("players", mentionable=False)
    content = f"{alice.mention} <@!{bob.id}> <@&{role.id}> @everyone"
    msg = await api.posted(fake.channel.id, {"content": content})
    # the bot has Mention Everyone (a new server's @everyone role has it): roles ping too
    assert msg.pings.users == {alice.id, bob.id}
    assert msg.pings.roles == {role.id} and msg.pings.everyone
    assert fake.pings() == [(msg, msg.pings)]
    elsewhere = fake.add_guild("other", members=[])
    stranger = await fake.add_user("zed", guild=elsewhere)
    outside = await api.posted(fake.channel.id, {"content": f"{stranger.mention} hi"})
    assert not outside.pings  # not a member here: nobody is notified


async def test_allowed_mentions_limit_the_pings(world: Any) -> None:
    fake, api, _ = world
    alice, bob = fake.user("alice"), fake.user("bob")
    both = f"{alice.mention} {bob.mention} @here"
    none = await api.posted(fake.channel.id, {"content": both,
                                              "allowed_mentions": {"parse": []}})
    assert not none.pings
    only = await api.posted(fake.channel.id, {
        "content": both, "allowed_mentions": {"parse": [], "users": [str(alice.id)]}})
    assert only.pings.users == {alice.id} and not only.pings.everyone
    phantom = await api.posted(fake.channel.id, {  # named but not in the content
        "content": "hi", "allowed_mentions": {"users": [str(bob.id)]}})
    assert not phantom.pings
    embed = await api.posted(fake.channel.id, {"content": "", "embeds": [
        {"description": f"{alice.mention} @everyone"}]})
    assert not embed.pings  # embeds never ping
    status, data = await api.post(fake.channel.id, {
        "content": both, "allowed_mentions": {"parse": ["users"], "users": [str(alice.id)]}})
    assert status == 400 and "allowed_mentions.users" in data["errors"]


async def test_edits_never_ping_and_replies_ping_their_author(world: Any) -> None:
    fake, api, _ = world
    alice, bob = fake.user("alice"), fake.user("bob")
    msg = await api.posted(fake.channel.id, {"content": "quiet"})
    status, _ = await api.edit(msg, {"content": f"{alice.mention} @everyone"})
    assert status == 200 and not fake.message(msg).pings
    typed = await fake.send_user_message(bob, fake.channel, "hello")
    ref = {"message_id": str(typed.id)}
    reply = await api.posted(fake.channel.id, {"content": "hi", "message_reference": ref})
    assert reply.pings.users == {bob.id}
    quiet = await api.posted(fake.channel.id, {"content": "hi", "message_reference": ref,
                                               "allowed_mentions": {"parse": []}})
    assert not quiet.pings  # replied_user defaults to false once allowed_mentions is given


async def test_everyone_and_roles_need_the_permission(world: Any) -> None:
    """@everyone/@here and unmentionable roles need Mention Everyone (in the channel)."""
    fake, api, _ = world
    hidden = await fake.add_role("hidden", mentionable=False)
    open_role = await fake.add_role("open", mentionable=True)
    await fake.set_bot_permissions(fake.channel, deny=MENTION_EVERYONE)
    msg = await api.posted(fake.channel.id, {
        "content": f"@everyone <@&{hidden.id}> <@&{open_role.id}>"})
    assert not msg.pings.everyone and msg.pings.roles == {open_role.id}


async def test_interaction_messages_parse_users_only(world: Any) -> None:
    """Absent allowed_mentions, interaction responses and follow-ups parse user mentions
    only (https://github.com/discord/discord-api-docs/pull/7629); with it, @everyone
    follows the bot's permission (https://github.com/discord/discord-api-docs/pull/5501)."""
    fake, api, _ = world
    bob = fake.user("bob")
    role = await fake.add_role("open", mentionable=True)
    inter = await api.interaction()
    content = f"@everyone {bob.mention} <@&{role.id}>"
    status, _ = await api.callback(inter, {"type": 4, "data": {"content": content}})
    assert status == 204
    assert inter.original.pings.users == {bob.id}
    assert not inter.original.pings.roles and not inter.original.pings.everyone
    status, data = await api.followup(inter, {
        "content": content, "allowed_mentions": {"parse": ["everyone"]}})
    assert status == 200 and fake.message(int(data["id"])).pings.everyone
    secret = await api.followup(inter, {"content": content, "flags": 64})
    assert not fake.message(int(secret[1]["id"])).pings  # ephemeral: nobody is notified
    deferred = await api.interaction()
    await api.callback(deferred, {"type": 5})
    await api.edit_original(deferred, {"content": f"{bob.mention} done"})
    assert deferred.original.pings.users == {bob.id}  # the first content of a defer


# ---------------------------------------------------------------- permissions (contract 5)
async def test_a_hidden_channel_answers_missing_access(world: Any) -> None:
    fake, api, client = world
    msg = await api.posted(fake.channel.id, {"content": "before"})
    await fake.set_bot_permissions(fake.channel, deny=VIEW_CHANNEL)
    status, data = await api.post(fake.channel.id, {"content": "x"})
    assert (status, error_code(data)) == (403, 50001)
    status, data = await api.edit(msg, {"content": "y"})
    assert (status, error_code(data)) == (403, 50001)
    status, data = await api.call("GET", f"/channels/{fake.channel.id}/messages/{msg.id}")
    assert (status, error_code(data)) == (403, 50001)
    # discord.py hears of the overwrite (CHANNEL_UPDATE) as from Discord
    channel = client.get_channel(fake.channel.id)
    assert channel is not None
    assert not channel.permissions_for(channel.guild.me).view_channel
    await fake.set_bot_permissions(fake.channel)  # removed
    assert (await api.post(fake.channel.id, {"content": "x"}))[0] == 200


async def test_interactions_in_a_hidden_channel_carry_the_truth(world: Any) -> None:
    fake, api, _ = world
    msg = await api.posted(fake.channel.id, {"content": "board", "components": [
        {"type": 1, "components": [BUTTON]}]})
    await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES | EMBED_LINKS)
    inter = await fake.click("alice", msg, "b", wait=False)
    perms = int(inter.payload["app_permissions"])
    assert perms & VIEW_CHANNEL and not perms & (SEND_MESSAGES | EMBED_LINKS)
    assert perms == fake.bot_permissions(fake.channel)
    status, _ = await api.callback(inter, {"type": 4, "data": {
        "content": "answers need no channel rights", "embeds": [{"description": "x"}]}})
    assert status == 204
    await fake.set_bot_permissions(fake.channel, deny=VIEW_CHANNEL)
    blind = await fake.click("alice", msg, "b", wait=False)
    assert int(blind.payload["app_permissions"]) == 0
    assert (await api.callback(blind, {"type": 6}))[0] == 204


async def test_send_embed_and_attach_rights(world: Any) -> None:
    fake, api, _ = world
    await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES)
    status, data = await api.post(fake.channel.id, {"content": "x"})
    assert (status, error_code(data)) == (403, 50013)
    await fake.set_bot_permissions(fake.channel, deny=EMBED_LINKS | ATTACH_FILES)
    assert (await api.post(fake.channel.id, {"content": "plain"}))[0] == 200
    status, data = await api.post(fake.channel.id, {"embeds": [{"description": "x"}]})
    assert (status, error_code(data)) == (403, 50013)
    status, data = await api.post(fake.channel.id, {"content": "f"}, files={"a.txt": b"a"})
    assert (status, error_code(data)) == (403, 50013)


async def test_thread_rights_follow_the_parent(world: Any) -> None:
    fake, api, _ = world
    status, data = await api.call("POST", f"/channels/{fake.channel.id}/threads",
                                  {"name": "table", "type": 11})
    assert status == 201, data
    thread_id = int(data["id"])
    assert (await api.post(thread_id, {"content": "in"}))[0] == 200
    await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES_IN_THREADS)
    status, data = await api.post(thread_id, {"content": "in"})
    assert (status, error_code(data)) == (403, 50013)
    assert (await api.post(fake.channel.id, {"content": "parent"}))[0] == 200
    await fake.set_bot_permissions(fake.channel, deny=CREATE_PUBLIC_THREADS)
    status, data = await api.call("POST", f"/channels/{fake.channel.id}/threads",
                                  {"name": "table 2", "type": 11})
    assert (status, error_code(data)) == (403, 50013)
    with pytest.raises(ValueError):
        fake.set_bot_permissions(fake.thread(thread_id), deny=SEND_MESSAGES)


async def test_deletes_as_discord_allows_them(world: Any) -> None:
    """https://discord.com/developers/docs/resources/message#delete-message: "If operating
    on a guild channel and trying to delete a message that was not sent by the current
    user, this endpoint requires the MANAGE_MESSAGES permission." The bot's own messages
    it deletes without it; another's, only with it (in a DM, never: 50003); a deleted or
    unknown message answers 404 10008. (Five deletes: the route's bucket in a channel.)"""
    fake, api, _ = world
    own = await api.posted(fake.channel.id, {"content": "the table"})
    theirs = await fake.send_user_message("alice", fake.channel, "hello")
    await fake.set_bot_permissions(fake.channel, deny=MANAGE_MESSAGES)

    def path(msg: StoredMessage) -> str:
        return f"/channels/{msg.channel_id}/messages/{msg.id}"

    status, data = await api.call("DELETE", path(theirs))
    assert (status, error_code(data)) == (403, 50013)
    assert not fake.message(theirs.id).deleted
    assert (await api.call("DELETE", path(own)))[0] == 204
    assert fake.message(own.id).deleted and fake.deletes == 1
    status, data = await api.call("DELETE", path(own))
    assert (status, error_code(data)) == (404, 10008)
    await fake.set_bot_permissions(fake.channel, allow=MANAGE_MESSAGES)
    assert (await api.call("DELETE", path(theirs)))[0] == 204
    await fake.set_bot_permissions(fake.channel, deny=VIEW_CHANNEL)
    other = await api.call("DELETE", path(own))
    assert (other[0], error_code(other[1])) == (403, 50001)
    assert fake.deletes == 2


# ---------------------------------------------------------------- message age (contract 6)
async def test_old_messages_take_few_edits(world: Any) -> None:
    """30046 after `old_message_edits` edits in an hour of a message older than an hour
    (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)."""
    fake, api, _ = world
    fake.rate_limiter = None  # many edits at once: the buckets are not what is tested here
    msg = await api.posted(fake.channel.id, {"content": "table"})
    for i in range(10):  # a young message: no limit
        assert (await api.edit(msg, {"content": f"young {i}"}))[0] == 200
    fake.clock.advance(3601)
    for i in range(fake.old_message_edits):
        assert (await api.edit(msg, {"content": f"old {i}"}))[0] == 200
    status, data = await api.edit(msg, {"content": "one too many"})
    assert (status, error_code(data)) == (400, 30046)
    assert "older than 1 hour" in data["message"]
    fake.clock.advance(3600)  # an hour later it may be edited again
    assert (await api.edit(msg, {"content": "later"}))[0] == 200
    await api.call("DELETE", f"/channels/{fake.channel.id}/messages/{msg.id}")
    status, data = await api.edit(msg, {"content": "gone"})
    assert (status, error_code(data)) == (404, 10008)


async def test_old_message_limit_on_interaction_updates(world: Any) -> None:
    fake, api, _ = world
    fake.old_message_edits = 1
    msg = await api.posted(fake.channel.id, {"content": "board", "components": [
        {"type": 1, "components": [BUTTON]}]})
    fake.clock.advance(3601)
    first = await fake.click("alice", msg, "b", wait=False)
    assert (await api.callback(first, {"type": 7, "data": {"content": "1"}}))[0] == 204
    second = await fake.click("alice", msg, "b", wait=False)
    status, data = await api.callback(second, {"type": 7, "data": {"content": "2"}})
    assert (status, error_code(data)) == (400, 30046)


# ---------------------------------------------------------------- rate limits (contract 7)
async def test_global_limit_of_a_token_spares_interactions(world: Any) -> None:
    """50 requests per second per token; interaction routes are exempt
    (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit)."""
    fake, api, _ = world
    inter = await api.interaction()  # made before the clock stops
    assert fake.global_limiter is not None
    frozen = time.monotonic() + 10.0  # past the window of the requests made so far
    fake.global_limiter.now = lambda: frozen  # every request in the same instant
    statuses = [(await api.call("GET", f"/channels/{fake.channel.id}"))[0] for _ in range(50)]
    assert statuses == [200] * 50
    status, data = await api.call("GET", f"/channels/{fake.channel.id}")
    assert status == 429 and data["global"] is True and data["retry_after"] > 0
    assert fake.rate_limited[-1].path == f"/channels/{fake.channel.id}"
    assert (await api.callback(inter, {"type": 4, "data": {"content": "fine"}}))[0] == 204
    assert (await api.followup(inter, {"content": "still fine"}))[0] == 200
    counted = fake.global_requests()
    assert sum(not r.refused for r in counted if r.time == frozen) == 50
    assert not any("/interactions/" in r.path or "/webhooks/" in r.path for r in counted)
    fake.global_limiter.now = lambda: frozen + 1.0  # a second later
    assert (await api.call("GET", f"/channels/{fake.channel.id}"))[0] == 200


async def test_discord_py_waits_out_a_global_429(world: Any, error_logs: ErrorLogCapture
                                                  ) -> None:
    """The 429 is one discord.py understands (``global``, ``retry_after``): it waits and
    sends again, nothing is lost and nothing is logged as an error. The limiter's clock
    moves only after each 429, so the test does not depend on the machine's speed."""
    fake, _, client = world
    assert fake.global_limiter is not None
    now = [time.monotonic() + 10.0]  # past the window of the requests made so far
    fake.global_limiter.now = lambda: now[0]
    fake.global_limiter.limit = 2  # stricter than Discord, to see the 429 with few requests
    channel = client.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sends = asyncio.ensure_future(asyncio.gather(*(channel.send(str(i)) for i in range(4))))
    seen = 0
    while not sends.done():
        await fake.wait_until(lambda before=seen: sends.done()
                              or len(fake.rate_limited) > before,
                              20.0, "a 429 or every message sent")
        seen = len(fake.rate_limited)
        now[0] += 1.0  # a second passes for the limiter
    await sends
    assert sorted(m.content for m in fake.messages()) == ["0", "1", "2", "3"]
    assert seen >= 2 and all(r.path.endswith("/messages") for r in fake.rate_limited)


async def test_per_route_buckets_are_on_by_default(world: Any) -> None:
    fake, api, _ = world
    statuses = [(await api.post(fake.channel.id, {"content": str(i)}))[0] for i in range(6)]
    assert statuses[:5] == [200] * 5 and statuses[5] == 429


# ---------------------------------------------------------------- token expiry (contract 8)
async def test_interaction_tokens_expire_after_15_minutes(world: Any) -> None:
    fake, api, _ = world
    inter = await api.interaction()
    assert (await api.callback(inter, {"type": 5}))[0] == 204
    fake.clock.advance(14 * 60)
    assert (await api.followup(inter, {"content": "in time"}))[0] == 200
    fake.clock.advance(61)
    status, data = await api.followup(inter, {"content": "too late"})
    assert (status, error_code(data)) == (401, 50027)
    status, data = await api.edit_original(inter, {"content": "too late"})
    assert (status, error_code(data)) == (401, 50027)


# ---------------------------------------------------------------- command sync (contract 9)
def slash(name: str = "game", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": 1, "description": "A game", **extra}


def opt(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": 3, "description": "An option", **extra}


@pytest.mark.parametrize(("payload", "where"), [
    (slash("Game"), "0.name"),  # a lowercase variant exists
    (slash("two words"), "0.name"),
    (slash("x" * 33), "0.name"),
    (slash(description=""), "0.description"),
    (slash(name_localizations={"nb": "spill"}), "0.name_localizations.nb"),  # "no" is Norwegian
    (slash(name_localizations={"no": "Spill"}), "0.name_localizations.no"),
    (slash(description_localizations={"no": "x" * 101}), "0.description_localizations.no"),
    (slash(options=[opt(f"o{i}") for i in range(26)]), "0.options"),
    (slash(options=[opt("o", choices=[{"name": str(i), "value": str(i)} for i in range(26)])]),
     "0.options.0.choices"),
    (slash(options=[opt("a"), opt("b", required=True)]), "0.options"),
    (slash(options=[opt("a"), {"name": "sub", "type": 1, "description": "s"}]), "0.options"),
    (slash(options=[{"name": "grp", "type": 2, "description": "g", "options": [opt("a")]}]),
     "0.options.0.options"),
])
async def test_bad_command_payloads_are_refused(world: Any, payload: dict[str, Any],
                                                where: str) -> None:
    """https://discord.com/developers/docs/interactions/application-commands"""
    fake, api, _ = world
    status, data = await api.call("PUT", f"/applications/{fake.app_id}/commands", [payload])
    assert status == 400 and error_code(data) == 50035, data
    assert where in data["errors"], data["errors"]


async def test_command_size_counts_the_longest_localization(world: Any) -> None:
    """8,000 characters per command, each field counted at its longest localization."""
    fake, api, _ = world
    long_desc = {"no": "d" * 100, "de": "e" * 100}
    options = [opt(f"o{i}", description="short", description_localizations=long_desc)
               for i in range(25)]
    subs = [{"name": f"s{j}", "type": 1, "description": "s", "options": options}
            for j in range(4)]
    fits = slash(options=[{**subs[0], "name": "one"}])
    assert (await api.call("PUT", f"/applications/{fake.app_id}/commands", [fits]))[0] == 200
    # 4 subcommands x 25 options x (2 + 100) characters > 8,000 (the defaults alone: 700)
    status, data = await api.call("PUT", f"/applications/{fake.app_id}/commands",
                                  [slash(options=subs)])
    assert status == 400 and "0._errors" in data["errors"], data
    menu = {"name": "Show Hand", "type": 2, "description": ""}  # mixed case is fine here
    assert (await api.call("PUT", f"/applications/{fake.app_id}/commands", [menu]))[0] == 200


# ---------------------------------------------------------------- direct messages

async def test_closed_dms_answer_50007(world: Any) -> None:
    """A user whose direct messages are closed: the DM channel opens, a message there is
    refused with 403 50007 "Cannot send messages to this user"
    (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json); a
    button there is fine (a link button, style 5, needs a url and no custom id), and
    the others' DMs still work; opened again, they take messages."""
    fake, api, _ = world
    alice, bob = fake.user("alice"), fake.user("bob")
    link = {"type": 2, "style": 5, "label": "go",
            "url": f"https://discord.com/channels/{fake.guild.id}/{fake.channel.id}/1"}
    body = {"content": "your turn", "components": [{"type": 1, "components": [link]}]}
    fake.close_dms("alice")
    status, dm = await api.call("POST", "/users/@me/channels", {"recipient_id": str(alice.id)})
    assert status == 200 and dm["type"] == 1
    status, data = await api.post(int(dm["id"]), body)
    assert status == 403 and error_code(data) == 50007, data
    assert fake.dm_messages("alice") == []
    _, other = await api.call("POST", "/users/@me/channels", {"recipient_id": str(bob.id)})
    status, data = await api.post(int(other["id"]), body)
    assert status == 200 and [m.id for m in fake.dm_messages("bob")] == [int(data["id"])]
    fake.close_dms("alice", closed=False)
    status, data = await api.post(int(dm["id"]), body)
    assert status == 200, data


# ------------------------------------------------------------- locales (issue 55)
async def test_an_interaction_carries_only_a_locale_of_discords_list(world: Any) -> None:
    """Discord sends a user's `locale` (and the guild's) from its list of locales, which
    has Norwegian ("no") and no Persian: https://discord.com/developers/docs/reference#locales
    (so the bot's Persian is chosen by the member, /language). The fake refuses to send
    another."""
    fake, api, _ = world
    fake.user("alice").locale = "no"
    inter = await api.interaction("alice")
    assert inter.payload["locale"] == "no"
    fake.user("alice").locale = "fa"
    with pytest.raises(AssertionError, match="no locale 'fa'"):
        await api.interaction("alice")
    fake.user("alice").locale = "en-US"
    fake.guild.preferred_locale = "fa-IR"
    with pytest.raises(AssertionError, match="no locale 'fa-IR'"):
        await api.interaction("alice")
