"""The strict fake Discord's contract for the Activity's side (tests/fake_discord/activity.py):
the OAuth2 code exchange and its refusals, `/users/@me` with a member's Bearer token,
the application's activity instances, and LAUNCH_ACTIVITY (type 12). Each rule is cited
beside its check in the fake; here, raw requests show what Discord answers."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord.test_fake_contract import Api
from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import bot_intents, running_bot


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, Api, discord.Client]]:
    """A strict fake, a bare connected client (so that the fake can send interactions),
    and raw REST access (tests/discord/test_fake_contract.py's)."""
    fake = FakeDiscord()
    await fake.start()
    try:
        async with running_bot(fake, discord.Client(intents=bot_intents())) as client, \
                aiohttp.ClientSession() as session:
            yield fake, Api(fake, session), client
    finally:
        await fake.stop()


async def token(api: Api, form: dict[str, str], *, basic: tuple[str, str] | None = None
                ) -> tuple[int, Any]:
    """POST /oauth2/token as the docs' examples send it: a form, the client by Basic
    authentication or in the form."""
    headers = {}
    if basic is not None:
        raw = base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
        headers["Authorization"] = f"Basic {raw}"
    async with api.session.post(api.fake.api_base + "/oauth2/token", data=form,
                                headers=headers) as resp:
        return resp.status, await resp.json()


def client_form(api: Api, code: str, **extra: str) -> dict[str, str]:
    return {"client_id": str(api.fake.app_id), "client_secret": api.fake.activity.client_secret,
            "grant_type": "authorization_code", "code": code, **extra}


async def me(api: Api, authorization: str) -> tuple[int, Any]:
    async with api.session.get(api.fake.api_base + "/users/@me",
                               headers={"Authorization": authorization}) as resp:
        return resp.status, await resp.json()


async def test_a_code_is_exchanged_once_for_a_token_that_names_its_member(world: Any) -> None:
    fake, api, _ = world
    alice = fake.user("alice")
    code = fake.activity.authorize(alice.id)
    status, body = await token(api, client_form(api, code))
    assert status == 200 and body["token_type"] == "Bearer" and body["scope"] == "identify"
    status, user = await me(api, f"Bearer {body['access_token']}")
    assert status == 200 and user["id"] == str(alice.id)
    # the same code again: one time use
    status, again = await token(api, client_form(api, code))
    assert status == 400 and again["error"] == "invalid_grant"
    # the client by HTTP Basic works as well
    code = fake.activity.authorize(alice.id)
    status, body = await token(api, {"grant_type": "authorization_code", "code": code},
                               basic=(str(fake.app_id), fake.activity.client_secret))
    assert status == 200


async def test_bad_codes_secrets_and_grants_are_refused(world: Any) -> None:
    fake, api, _ = world
    alice = fake.user("alice")
    status, body = await token(api, client_form(api, "made-up"))
    assert (status, body["error"]) == (400, "invalid_grant")
    code = fake.activity.authorize(alice.id)
    status, body = await token(api, {**client_form(api, code), "client_secret": "wrong"})
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await token(api, {**client_form(api, code), "client_id": "1"})
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await token(api, {**client_form(api, code), "grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    # a refused attempt did not use the code up; an expired one is refused
    fake.clock.advance(101)
    status, body = await token(api, client_form(api, code))
    assert (status, body["error"]) == (400, "invalid_grant")


async def test_users_me_needs_a_live_bearer_token(world: Any) -> None:
    fake, api, _ = world
    bob = fake.user("bob")
    _, body = await token(api, client_form(api, fake.activity.authorize(bob.id)))
    assert (await me(api, "Bearer nonsense"))[0] == 401
    assert (await me(api, body["access_token"]))[0] == 401  # no "Bearer "
    # without the identify scope, /users/@me is refused
    _, narrow = await token(api, client_form(
        api, fake.activity.authorize(bob.id, scopes=("guilds",))))
    assert (await me(api, f"Bearer {narrow['access_token']}"))[0] == 401
    fake.activity.revoke(bob.id)
    assert (await me(api, f"Bearer {body['access_token']}"))[0] == 401
    # the bot's own token still reads the bot
    status, user = await me(api, f"Bot {fake.token}")
    assert status == 200 and user["id"] == str(fake.app_id)


async def test_activity_instances_with_the_bot_token(world: Any) -> None:
    fake, api, _ = world
    alice, bob = fake.user("alice"), fake.user("bob")
    instance = fake.activity.launch(fake.channel.id, fake.guild.id, alice.id)
    fake.activity.join(instance.instance_id, bob.id)
    path = f"/applications/{fake.app_id}/activity-instances/{instance.instance_id}"
    status, body = await api.call("GET", path)
    assert status == 200
    assert body["location"] == {"id": f"gc-{fake.guild.id}-{fake.channel.id}", "kind": "gc",
                                "channel_id": str(fake.channel.id),
                                "guild_id": str(fake.guild.id)}
    assert body["users"] == [str(alice.id), str(bob.id)]
    assert (await api.call("GET", path, auth=False))[0] == 401
    assert (await api.call("GET", f"/applications/{fake.app_id}/activity-instances/i-0"))[0] \
        == 404
    fake.activity.leave(instance.instance_id, alice.id)
    fake.activity.leave(instance.instance_id, bob.id)
    assert (await api.call("GET", path))[0] == 404  # ended with its last member


async def test_launch_activity_needs_activities_enabled(world: Any) -> None:
    fake, api, _ = world
    inter = await api.interaction("alice")
    status, body = await api.callback(inter, {"type": 12})
    assert status == 400 and body["code"] == 50035
    fake.activity.enabled = True
    inter = await api.interaction("alice")
    async with aiohttp.ClientSession() as session:
        url = (f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
               "?with_response=true")
        async with session.post(url, json={"type": 12}) as resp:
            assert resp.status == 200
            answer = await resp.json()
    instance_id = answer["resource"]["activity_instance"]["id"]
    instance = fake.activity.instances[instance_id]
    assert instance.channel_id == fake.channel.id and instance.users == [fake.user("alice").id]
    assert inter.callback.type == 12
