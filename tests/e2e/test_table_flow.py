"""The flow around a game: filling the free seats with AI in the lobby, spectators,
"your turn" mentions, and a rematch with the same seats at the end."""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.tables.table import Table
from tests.e2e.driver import (
    ButtonDriver,
    cards_in_text,
    choose_ai,
    lobby_host_values,
    lobby_house_menu,
    message_text,
    table_message,
    wait_game_over,
)
from tests.e2e.harness import bot_running
from tests.fake_discord import CREATE_PUBLIC_THREADS, FakeDiscord, PostGate, StoredMessage


def _labels(fake: FakeDiscord, message: Any) -> dict[str, bool]:
    """The message's buttons: label -> enabled."""
    return {b.get("label"): not b.get("disabled") for b in fake.message(message).buttons()}


async def _lobby(fake: FakeDiscord, host: str, options: dict[str, Any]) -> StoredMessage:
    new = await fake.slash(host, None, "amerikaner new", options)
    assert new.message is not None, new.callback.data
    return new.message


async def test_fill_with_ai_takes_every_empty_seat_in_one_tap(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 5})
    await fake.click_label("bob", lobby, "Join")
    refused = await choose_ai(fake, "bob", lobby, "fill")
    assert "Only the host" in (refused.content or "")
    it = await choose_ai(fake, "alice", lobby, "fill")
    assert it.response_type == 7, it.content  # the lobby, edited
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and table.full
    assert [s.user_id is None for s in table.seats] == [False, False, True, True, True]
    labels = _labels(fake, lobby)
    assert labels["Start"] and "fill" not in lobby_host_values(fake, lobby)
    await fake.click_label("alice", lobby, "Start")
    assert table.stage == "playing"


async def test_a_spectator_is_told_they_are_watching(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 3})
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    it = await fake.click_label("frank", table_message(fake), "My hand")
    assert it.callback.ephemeral
    assert "You are watching" in (it.content or "")
    assert it.message is not None and not it.message.embeds  # no hand, no cards
    slash = await fake.slash("frank", None, "amerikaner hand")
    assert "You are watching" in (slash.content or "")


async def _three_humans(fake: FakeDiscord, bot: AmerikanerBot) -> Table:
    """alice, bob and carol at a started table in the channel."""
    lobby = await _lobby(fake, "alice", {"players": 3})
    await fake.click_label("bob", lobby, "Join")
    await fake.click_label("carol", lobby, "Join")
    await fake.click_label("alice", lobby, "Start")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    return table


def _mentions_of(fake: FakeDiscord, user: str) -> list[StoredMessage]:
    """Every turn mention of `user`, the spent ones the bot deleted included (issue 35:
    a ping is deleted once its turn has passed)."""
    uid = fake.user(user).id
    return [m for m in fake.messages(deleted=True)
            if f"<@{uid}>" in m.content and "your turn" in m.content]


async def test_the_player_to_act_without_a_panel_is_mentioned_once(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    table = await _three_humans(fake, bot)
    assert table is not None and table.switch("mentions")  # three humans: on by default
    seat = table.to_act
    assert seat is not None
    now, after = table.seats[seat].name, table.seats[(seat + 1) % 3].name
    panel = (await fake.click_label(now, table_message(fake), "My hand")).message
    await fake.click_label(now, panel, "Pass")
    await fake.wait_until(lambda: _mentions_of(fake, after), 5.0, "the mention")
    # Once: the same turn asked again (a refresh of someone's panel) mentions no more.
    await fake.click_label(now, panel, "Refresh")
    assert len(_mentions_of(fake, after)) == 1
    assert len(_mentions_of(fake, now)) == 1  # pinged once, when the game started


async def test_a_mention_whose_connection_drops_is_let_go(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    """The click was answered; the mention after it meets a closed connection. Nothing is
    answered again, nothing is logged as an error, and the game goes on."""
    table = await _three_humans(fake, bot)
    assert table is not None and table.to_act is not None
    now, after = table.seats[table.to_act].name, table.seats[(table.to_act + 1) % 3].name
    panel = (await fake.click_label(now, table_message(fake), "My hand")).message
    fake.post_gate = gate = PostGate("dropped")
    passed = await fake.click_label(now, panel, "Pass")
    await fake.wait_until(lambda: gate.held >= 1, 5.0, "the mention's post")
    fake.post_gate = None
    assert passed.response_type == 7  # the panel, once; no error answer after it
    assert not _mentions_of(fake, after) and not fake.client_errors
    their_panel = (await fake.click_label(after, table_message(fake), "My hand")).message
    version = table.version
    answer = await fake.click_label(after, their_panel, "Pass")
    assert answer.response_type == 7 and table.version == version + 1  # the game goes on


async def test_a_turn_whose_mention_a_stop_cut_off_is_announced_after_the_restart(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """The click was answered, and the bot stopped before the next player's mention got
    out (here: its connection dropped, then the bot stopped). The restarted bot mentions
    the player whose turn it is, once; a turn already announced is not announced again
    (old code: nobody was told of the turn until its timer's reminder, if any; CI saw
    a move made as the bot stopped leave bob unpinged)."""
    db = tmp_path / "db.sqlite3"
    async with bot_running(fake, db) as bot:
        table = await _three_humans(fake, bot)
        assert table is not None and table.to_act is not None
        now, after = table.seats[table.to_act].name, table.seats[(table.to_act + 1) % 3].name
        first = table.seats[table.to_act].name
        panel = (await fake.click_label(now, table_message(fake), "My hand")).message
        fake.post_gate = gate = PostGate("dropped")
        await fake.click_label(now, panel, "Pass")
        await fake.wait_until(lambda: gate.held >= 1, 5.0, "the mention's post")
        fake.post_gate = None
        assert not _mentions_of(fake, after)
    mentioned = len(_mentions_of(fake, first))

    async def caught_up(bot: AmerikanerBot) -> None:
        # (the table cog's module as loaded now: discord.py reloads an extension's modules)
        panels = importlib.import_module("cogs.tables.host").host_of(bot).panels
        await asyncio.wait_for(panels.caught_up.wait(), 30.0)

    async with bot_running(fake, db) as bot:
        await caught_up(bot)
        assert _mentions_of(fake, after)
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and table.seats[table.to_act].name == after
    async with bot_running(fake, db) as bot:  # announced: not again
        await caught_up(bot)
    assert len(_mentions_of(fake, after)) == 1
    assert len(_mentions_of(fake, first)) == mentioned


@pytest.mark.parametrize("mode", ["dropped", "made"])
async def test_a_turn_mention_that_meets_a_dropped_connection_is_sent_again(
        fake: FakeDiscord, bot: AmerikanerBot, mode: str) -> None:
    """The next player's mention meets a dropped connection while the bot runs on
    (`dropped`: not made; `made`: made, its answer lost: the bot cannot tell the two
    apart, and discord.py tries neither again). It is sent again after a few seconds on
    the bot's clock with the same nonce, so there is one mention either way, and it is
    deleted once its turn has passed (old code: let go, so nobody was told of the turn
    until its timer's reminder, if any; or, made, it stayed in the channel for good)."""
    table = await _three_humans(fake, bot)
    assert table.to_act is not None
    now, after = table.seats[table.to_act].name, table.seats[(table.to_act + 1) % 3].name
    uid = fake.user(after).id
    panel = (await fake.click_label(now, table_message(fake), "My hand")).message
    fake.post_gate = gate = PostGate(mode)
    await fake.click_label(now, panel, "Pass")
    await fake.wait_until(lambda: gate.held >= 1, 5.0, "the mention's post")
    fake.post_gate = None

    def mention_posts() -> list[Any]:
        return [r for r in fake.requests_to("POST", rf"/channels/{fake.channel.id}/messages$")
                if f"<@{uid}>" in str((r.json or {}).get("content"))]

    assert len(mention_posts()) == 1 and len(_mentions_of(fake, after)) == (mode == "made")
    seat = table.to_act
    # The retry sleeps on the bot's clock (the fake's): move it on, a few seconds at a
    # time, until it is sent (a move before the retry sleeps wakes nobody).
    for _ in range(40):
        if len(mention_posts()) >= 2:
            break
        fake.clock.advance(5)
        await asyncio.sleep(0.05)
    await fake.wait_until(lambda: len(mention_posts()) >= 2, 10.0, "the mention again")
    first, again = mention_posts()[:2]
    assert first.json["nonce"] == again.json["nonce"] and again.json["enforce_nonce"]
    await fake.wait_until(lambda: len(_mentions_of(fake, after)) == 1, 5.0, "one mention")
    assert table.to_act == seat and table.seats[seat].name == after  # still their turn
    fake.clock.advance(4000)  # past every later retry's moment: announced, not again
    await asyncio.sleep(0.2)
    assert len(mention_posts()) == 2 and len(_mentions_of(fake, after)) == 1

    mention = _mentions_of(fake, after)[0]
    theirs = (await fake.click_label(after, table_message(fake), "My hand")).message
    await fake.click_label(after, theirs, "Pass")
    await fake.wait_until(lambda: fake.message(mention.id).deleted, 10.0,
                          "the spent mention deleted")


async def test_a_table_can_turn_mentions_off(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 3, "mentions": False})
    await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and not table.switch("mentions")
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=5, refresh_share=0.0)
    for _ in range(6):
        await driver.step()
    assert not _mentions_of(fake, "alice") and not _mentions_of(fake, "bob")


async def test_rematch_starts_the_same_seats_once_every_player_accepts(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 4, "target": 1})
    await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, "strong")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    old = bot.tables.registry.in_channel(fake.channel.id)
    assert old is not None
    await ButtonDriver(fake, lambda: bot, fake.channel, seed=2).play_to_end()
    await wait_game_over(fake, old)
    final = await fake.wait_until(
        lambda: next((m for m in reversed(fake.messages())
                      if "Rematch" in _labels(fake, m)), None), 5.0, "the final standings")
    assert _labels(fake, final) == {"Rematch": True, "Leaderboard": True}

    stranger = await fake.click_label("frank", final, "Rematch")
    assert "not playing" in (stranger.content or "")
    first = await fake.click_label("bob", final, "Rematch")
    assert first.response_type == 7
    assert "bob in; waiting for alice" in fake.message(final).content
    assert bot.tables.registry.in_channel(fake.channel.id) is None
    again = await fake.click_label("bob", final, "Rematch")  # a double click changes nothing
    assert "waiting for alice" in fake.message(final).content, again

    await fake.click_label("alice", final, "Rematch")
    assert "everyone is in" in fake.message(final).content
    assert not _labels(fake, final)["Rematch"]
    new = bot.tables.registry.in_channel(fake.channel.id)
    assert new is not None and new.id != old.id and new.stage == "playing"
    assert [(s.user_id, s.ai_level) for s in new.seats] == \
        [(s.user_id, s.ai_level) for s in old.seats]
    assert new.rules == old.rules
    # Its table message is posted, and it plays like any game.
    def posted() -> bool:
        try:
            return table_message(fake).id > final.id
        except LookupError:
            return False
    await fake.wait_until(posted, 5.0, "the new game's table message")
    board = await fake.click_label("bob", final, "Leaderboard")
    assert board.callback.ephemeral and board.message is not None
    assert str(fake.user("bob").id) in board.message.text()
    await ButtonDriver(fake, lambda: bot, fake.channel, seed=3).play_to_end()
    await wait_game_over(fake, new)


async def test_review_shows_a_finished_hand_face_up_to_whoever_asks(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 4})
    await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=6)
    while len(table.game.hands) < 2:
        assert await driver.step()
    summary = await fake.wait_until(
        lambda: next((m for m in fake.messages() if "Review the deal" in _labels(fake, m)),
                     None), 5.0, "the first hand's result")
    first = table.game.hands[0]
    for who in ("bob", "frank"):  # a player, and someone watching
        it = await fake.click_label(who, summary, "Review the deal")
        assert it.callback.ephemeral and it.message is not None
        text = message_text(it.message)
        assert text.startswith("Hand 1"), text
        dealt = {card for cards in first.deal.hands for card in cards}
        assert dealt <= cards_in_text(text)  # every card of the deal, face up
        assert it.message.visible_to == fake.user(who).id  # for the one who asked


async def test_help_is_a_guide_a_page_at_a_time(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    it = await fake.slash("erin", None, "amerikaner help")
    assert it.callback.ephemeral and it.message is not None
    guide = it.message
    # The game's six pages, then the three every game shares (issue 52: days, the daily;
    # issue 55: your language).
    assert "Amerikaner in a minute" in guide.text() and "Page 1 of 9" in guide.text()
    assert not _labels(fake, guide)["◀ Previous"] and _labels(fake, guide)["Next ▶"]
    seen = [guide.text()]
    for _ in range(8):
        turned = await fake.click_label("erin", guide, "Next ▶")
        assert turned.response_type == 7  # the same message, turned to the next page
        seen.append(fake.message(guide).text())
    assert "Page 9 of 9" in seen[-1] and not _labels(fake, guide)["Next ▶"]
    example = next(text for text in seen if "An example hand" in text)
    assert "♥ A K J 9 6" in example and "Q♥" in example
    assert "Claim the rest" in seen[5] and "Rematch" in seen[5]
    assert "/language" in seen[-1] and "Persian" in seen[-1]
    assert "The deal of the day" in seen[-2] and "Playing over days" in seen[-3]


async def test_the_host_picks_house_rules_from_a_described_menu(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    lobby = await _lobby(fake, "alice", {"players": 4})
    await fake.click_label("bob", lobby, "Join")
    menu = lobby_house_menu(fake, lobby)
    described = {o["value"]: o.get("description", "") for o in menu["options"]}
    assert set(described) == {"no_kitty", "jokers", "show_kitty", "kitty_trick", "free_trump",
                              "two_wins", "bidder_double", "partner_half", "all_pass_play"}
    assert described["two_wins"] == "a 2 led wins the trick"
    refused = await fake.select("bob", lobby, menu["custom_id"], ["two_wins"])
    assert "Only the host can choose the house rules" in (refused.content or "")
    clash = await fake.select("alice", lobby, menu["custom_id"],
                              ["bidder_double", "partner_half"])
    assert clash.callback.ephemeral and "bidder scores double" in (clash.content or "")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None and not table.rules.options
    chosen = await fake.select("alice", lobby, menu["custom_id"], ["two_wins", "show_kitty"])
    assert chosen.response_type == 7  # the lobby, edited
    assert set(table.rules.options) == {"two_wins", "show_kitty"}
    # The lobby names the rule in the reader's words (issue 27); its key is the value.
    assert "a 2 led wins" in fake.message(lobby).text()
    assert "two_wins" not in fake.message(lobby).text()
    menu = lobby_house_menu(fake, lobby)
    assert {o["value"] for o in menu["options"] if o.get("default")} == {"two_wins",
                                                                          "show_kitty"}
    row = await bot.store.get_game(table.id)
    assert row is not None
    assert {k for k, on in row.rules["options"].items() if on is True} == {"two_wins",
                                                                          "show_kitty"}
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    assert table.stage == "playing" and "two_wins" in table.game.rules.options


def test_every_option_of_new_is_described(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    new = next(o for o in fake.command("amerikaner")["options"] if o["name"] == "new")
    for option in new["options"]:
        assert len(option["description"]) >= 10, option
    described = {o["name"]: o["description"] for o in new["options"]}
    assert described["kitty-trick"].startswith("the bidder's discards count as one extra")
    assert "strong AI" in described["hints"]


async def test_a_table_in_its_own_thread(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3, "thread": True})
    # Answered first ("thinking"), then the thread and its lobby, then the link: the
    # thread's two requests never put Discord's 3 seconds at risk.
    await fake.wait_until(lambda: new.followups, what="the link to the thread")
    (thread,) = fake.threads(fake.channel)
    order = [r.path for r in fake.requests
             if r.path.startswith(f"/interactions/{new.id}/")
             or r.path == f"/channels/{fake.channel.id}/threads"]
    assert order == [f"/interactions/{new.id}/{new.token}/callback",
                     f"/channels/{fake.channel.id}/threads"], order
    assert new.response_type == 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    link = new.message
    assert link is not None and f"<#{thread.id}>" in link.content  # the channel links to it
    assert not link.buttons()
    table = bot.tables.registry.in_channel(thread.id)
    assert table is not None and bot.tables.registry.in_channel(fake.channel.id) is None
    lobby = next(m for m in fake.messages(thread) if m.buttons())
    await fake.click_label("bob", lobby, "Join")
    await choose_ai(fake, "alice", lobby, "fill")
    await fake.click_label("alice", lobby, "Start")
    await ButtonDriver(fake, lambda: bot, thread, seed=1).play_to_end()
    await wait_game_over(fake, table)
    # Everything of the game went to the thread; the channel holds the link alone.
    assert [m.id for m in fake.messages(fake.channel)] == [link.id]
    assert any("Game over" in m.text() for m in fake.messages(thread))


async def test_a_server_default_puts_tables_in_threads(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    saved = await fake.slash("alice", None, "amerikaner settings", {"thread": True})
    assert "a thread per table: on" in (saved.content or "")
    new = await fake.slash("bob", None, "amerikaner new", {"players": 3})
    await fake.wait_until(lambda: new.followups, what="the link to the thread")
    (thread,) = fake.threads(fake.channel)
    assert bot.tables.registry.in_channel(thread.id) is not None
    # ... unless the table asks otherwise.
    other = await fake.add_channel("other")
    await fake.slash("carol", other, "amerikaner new", {"players": 3, "thread": False})
    assert bot.tables.registry.in_channel(other.id) is not None and not fake.threads(other)


async def test_without_the_right_to_start_threads_a_thread_is_refused(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    everyone = fake.guild.roles[fake.guild.id]
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    await fake.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(fake.guild.id),
                                              "role": everyone.to_dict()})
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3, "thread": True})
    # Refused, naming what is missing: a thread was asked for, and a table in the
    # channel instead would surprise the host (thread:false plays here).
    assert new.ephemeral and new.message is not None
    assert new.message.content == ("I cannot play here: I am missing the permission "
                                   "Create Public Threads in this channel.")
    assert not fake.threads(fake.channel)
    assert bot.tables.registry.in_channel(fake.channel.id) is None
