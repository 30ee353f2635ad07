"""answer_error, the one place that answers a failed command, button or menu: what it
says, and that it answers and logs once even when Discord refuses its answer."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.errors import GameError
from bot.games import GAMES
from bot.games.amerikaner.errors import BID_TOO_LOW
from bot.games.amerikaner.kind import AMERIKANER
from bot.render import INTERNAL_ERROR
from bot.tables.errors import TableError
from cogs.tables import answer_error


def http_error(status: int, code: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="refused"),
                                 {"code": code, "message": "refused"})


class Response:
    def __init__(self, refusals: list[Exception], done: bool = False) -> None:
        self.refusals = refusals
        self.done = done
        self.sent: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, **kwargs: Any) -> None:
        if self.refusals:
            raise self.refusals.pop(0)
        self.done = True
        self.sent.append(kwargs)


class Followup:
    def __init__(self, refusals: list[Exception]) -> None:
        self.refusals = refusals
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> None:
        if self.refusals:
            raise self.refusals.pop(0)
        self.sent.append(kwargs)


class Client:
    """What answer_error uses of a discord.Client (hashed and weakly referenced, as a
    client is by cogs/tables/host.py); no table cog is loaded for it."""

    def __init__(self, tables: Any) -> None:
        self.tables = tables


class Interaction:
    """What answer_error uses of a discord.Interaction."""

    def __init__(self, refused: list[Exception] | None = None, done: bool = False,
                 followup_refused: list[Exception] | None = None) -> None:
        self.id = 7
        self.channel_id = 3
        self.command = None  # a button: the game is the channel's table's, or the first
        self.client = Client(tables=SimpleNamespace(registry=SimpleNamespace(
            games=GAMES, in_channel=lambda channel: None, kind=lambda name: AMERIKANER)))
        self.response = Response(refused or [], done)
        self.followup = Followup(followup_refused or [])

    def answers(self) -> list[str]:
        return [kw["content"] for kw in self.response.sent + self.followup.sent]


async def answer(it: Interaction, error: BaseException) -> None:
    await answer_error(it, error)  # type: ignore[arg-type]


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_refusal_is_its_sentence(caplog: pytest.LogCaptureFixture) -> None:
    it = Interaction()
    await answer(it, TableError("not_your_turn", name="bob"))
    assert it.answers() == ["It is bob's turn, not yours."]
    (sent,) = it.response.sent
    assert sent["ephemeral"] and sent["allowed_mentions"].everyone is False
    it = Interaction()
    await answer(it, GameError(BID_TOO_LOW, reason="below_minimum", min_bid=6))
    assert it.answers() == ["The lowest bid is 6."]
    wrapped = app_commands.CommandInvokeError(SimpleNamespace(name="bid"),  # type: ignore
                                              TableError("no_table"))
    it = Interaction()
    await answer(it, wrapped)
    assert it.answers() == ["There is no table in this channel. Start one with "
                            "/amerikaner new, or play the deal of the day: /amerikaner "
                            "daily."]
    assert errors(caplog) == []


async def test_discord_pys_refusals_are_sentences(caplog: pytest.LogCaptureFixture) -> None:
    member = SimpleNamespace(_error_display_name="Member")
    for error, expected in [
            (app_commands.TransformerError("x", discord.AppCommandOptionType.user, member),
             "not on this server"),
            (app_commands.TransformerError("x", discord.AppCommandOptionType.integer, member),
             "could not be read"),
            (app_commands.NoPrivateMessage(), "server's channels"),
            (app_commands.MissingPermissions(["manage_guild"]), "permission"),
            (app_commands.CheckFailure(), "cannot use this command here")]:
        it = Interaction()
        await answer(it, error)
        (text,) = it.answers()
        assert expected in text, (error, text)
    assert errors(caplog) == []


async def test_a_failure_of_ours_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    it = Interaction()
    await answer(it, ZeroDivisionError("boom"))
    assert it.answers() == [INTERNAL_ERROR]
    (record,) = errors(caplog)
    assert record.levelno == logging.ERROR and record.exc_info is not None


async def test_an_answered_interaction_gets_a_follow_up() -> None:
    it = Interaction(done=True)
    await answer(it, ZeroDivisionError("boom"))
    assert it.followup.sent and it.answers() == [INTERNAL_ERROR]
    # answered meanwhile by someone else: Discord says so, and the follow-up carries it
    it = Interaction(refused=[http_error(400, 40060)])
    await answer(it, TableError("stale"))
    assert it.followup.sent and it.answers() == ["That has moved on: open your hand again."]


async def test_a_refused_answer_is_answered_plainly_and_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    it = Interaction(refused=[http_error(400, 50035)])
    await answer(it, TableError("stale"))
    assert it.answers() == [INTERNAL_ERROR]
    (record,) = errors(caplog)
    assert record.exc_info is not None


async def test_an_answer_that_cannot_be_given_does_not_raise(
        caplog: pytest.LogCaptureFixture) -> None:
    expired = [http_error(404, 10062), http_error(404, 10062)]
    it = Interaction(refused=expired, followup_refused=[http_error(404, 10015)])
    await answer(it, TableError("stale"))
    assert it.answers() == []
    assert len(errors(caplog)) == 1
    caplog.clear()
    it = Interaction(refused=[http_error(404, 10062)], followup_refused=[RuntimeError()])
    await answer(it, ZeroDivisionError("boom"))
    assert it.answers() == []
    assert len(errors(caplog)) == 2  # the failure, and that it could not be answered


async def test_discord_refusing_a_request_after_the_answer(
        caplog: pytest.LogCaptureFixture) -> None:
    """The handler answered, then Discord refused something else (an edit, a message):
    the user has their answer; it is a warning in the log."""
    it = Interaction(done=True)
    await answer(it, http_error(403, 50013))
    assert it.answers() == []
    (record,) = errors(caplog)
    assert record.levelno == logging.WARNING
    it = Interaction()
    await answer(it, http_error(403, 50013))
    assert it.answers() == [INTERNAL_ERROR]


async def test_a_long_sentence_is_cut_to_fit() -> None:
    it = Interaction()
    await answer(it, TableError("not_your_turn", name="y" * 5000))
    (text,) = it.answers()
    assert len(text) == 2000 and text.endswith("…")


async def test_a_refusal_at_a_deal_of_the_day_speaks_its_game() -> None:
    """A click on a member's deal of the day names the daily's table, whose kind names
    its game (issue 51): a refusal there is worded by that game's words, not by the
    channel's table's or the first game's. A live table's click, likewise, by its own."""
    from bot.tables.daily import DailyService
    from bot.tables.table import DailyKey

    daily = DailyService(None, GAMES, lambda: 0.0)  # type: ignore[arg-type]
    key = DailyKey(123456789012345678, "american", "2027-01-15")
    it = Interaction()
    it.client.tables.daily = daily
    it.client.tables.registry.get = lambda table_id: None
    it.data = {"custom_id": f"amk:{daily.table_id(key)}:4:act:0"}  # type: ignore[attr-defined]
    await answer(it, GameError("deal_not_finished", index=0))
    assert it.answers() == [
        "Deal 1 cannot be shown face up: it is not over, or there is no such deal yet."]
    table = Interaction()  # a table of this process, clicked in a DM: its game's words
    table.client.tables.daily = daily
    table.client.tables.registry.get = lambda table_id: SimpleNamespace(kind=GAMES["american"])
    table.data = {"custom_id": "amk:17:4:act:0"}  # type: ignore[attr-defined]
    await answer(table, GameError("deal_not_finished", index=0))
    assert table.answers() == it.answers()
    plain = Interaction()  # no click named: the first game's, as before
    await answer(plain, GameError("deal_not_finished", index=0))
    assert plain.answers() == [
        "Hand 1 cannot be shown face up: it is not over, or there is no such hand yet."]
