"""bot/discord/access.py alone: a channel that refused the bot is sent nothing until
something changes or REFUSED_RETRY passes; a deleted one never again; invalid answers
(401, 403, 429, not a shared 429) are counted, and over the budget in the window the
process holds every request to a channel not known to take it, with one log line.
https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans"""

from __future__ import annotations

import logging

import pytest

from bot.discord.access import GONE, REFUSED, ChannelAccess, channel_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_channel_of_a_route() -> None:
    assert channel_of("/channels/12/messages") == 12
    assert channel_of("/channels/12") == 12
    assert channel_of("/interactions/1/tok/callback") is None


def test_a_refused_channel_waits_for_news_or_the_retry() -> None:
    clock = Clock()
    access = ChannelAccess(clock=clock, retry=600)
    access.answered("/channels/5/messages", 403)
    assert access.blocked(5) == REFUSED and access.invalid == 1
    blocked = access.refusal("/channels/5/messages/9")
    assert blocked is not None and blocked.reason == REFUSED and access.held == 1
    assert access.refusal("/channels/6/messages") is None  # another channel
    clock.now += 599
    assert access.refusal("/channels/5/messages") is not None
    clock.now += 1
    assert access.refusal("/channels/5/messages") is None  # one request tries again
    access.refuse(5)
    assert access.allow(5) and access.refusal("/channels/5/messages") is None


def test_a_deleted_channel_is_gone_for_good() -> None:
    clock = Clock()
    access = ChannelAccess(clock=clock)
    assert access.gone(7) and not access.gone(7)
    assert not access.allow(7)  # news of rights do not bring it back
    access.answered("/channels/7/messages", 403)
    clock.now += 10**6
    blocked = access.refusal("/channels/7/messages")
    assert blocked is not None and blocked.reason == GONE


def test_the_invalid_budget_throttles_once_logged(caplog: pytest.LogCaptureFixture
                                                  ) -> None:
    clock = Clock()
    access = ChannelAccess(clock=clock, budget=3, window=600)
    access.answered("/channels/1/messages", 200)  # a channel that takes requests
    access.answered("/users/@me", 429, "shared")  # not counted by Discord
    for status in (401, 429, 403):
        access.answered("/gateway/bot", status)
    with caplog.at_level(logging.WARNING, "bot.discord.access"):
        assert access.throttled() and access.throttled()
        blocked = access.refusal("/channels/2/messages")
        assert blocked is not None and blocked.reason == "throttled"
        assert access.refusal("/channels/1/messages") is None  # known to take it
    assert len([r for r in caplog.records if "invalid requests" in r.getMessage()]) == 1
    clock.now += 600
    assert not access.throttled() and access.refusal("/channels/2/messages") is None
