"""Bad input: whoever sends it and whatever it is, the answer is a clear ephemeral
sentence within 3 s (never "interaction failed"), and the game is as it was (or moved
by exactly the one action that was legal)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.cards import card_label, card_name, cards_of, suit_of
from bot.games.amerikaner.hand import BID, DISCARD, LEAD, PLAY
from bot.games.amerikaner.record import game_to_record
from bot.tables.table import Table
from tests.e2e.driver import NAMES, ButtonDriver, choose_ai, open_table, table_message
from tests.fake_discord import FakeDiscord, FakeInteraction

OUTSIDER = "frank"




@pytest.fixture
async def table(fake: FakeDiscord, bot: AmerikanerBot) -> Table:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 52})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    return table


def state(table: Table) -> Any:
    assert table.game is not None
    return json.loads(json.dumps(game_to_record(table.game)))


def said(it: FakeInteraction) -> str:
    """The ephemeral answer's text."""
    assert it.responded
    assert it.ephemeral, f"a public answer: {it.callback.data}"
    assert it.message is not None
    return it.message.text()


def table_message_or_none(fake: FakeDiscord) -> Any:
    try:
        return table_message(fake)
    except LookupError:
        return None


def to_act(table: Table) -> tuple[int, str]:
    seat = table.to_act
    assert seat is not None
    return seat, table.seats[seat].name


def not_to_act(table: Table) -> str:
    seat = table.to_act
    return next(s.name for i, s in enumerate(table.seats) if i != seat)


async def test_outsiders_and_out_of_turn(fake: FakeDiscord, bot: AmerikanerBot,
                                         table: Table) -> None:
    before = state(table)
    public = table_message(fake)
    # someone not at the table
    it = await fake.click_label(OUTSIDER, public, "My hand")
    assert "You are watching this table" in said(it)  # a spectator, told so
    it = await fake.slash(OUTSIDER, None, "amerikaner hand")
    assert "You are watching this table" in said(it)
    for command, options in [("amerikaner bid", {"value": "pass"}),
                             ("amerikaner play", {"card": "AS"}),
                             ("amerikaner discard", {"cards": "2C 3C 4C 5C"}),
                             ("amerikaner exchange", {})]:
        it = await fake.slash(OUTSIDER, None, command, options)
        assert "not playing at this table" in said(it), (command, said(it))
    ac = await fake.autocomplete(OUTSIDER, None, "amerikaner bid", "value", {"value": ""})
    assert ac.choices == []
    rules = await fake.click_label(OUTSIDER, public, "Rules")  # anyone may read them
    assert "Bids 6–12" in said(rules)
    # a player whose turn it is not
    name = not_to_act(table)
    _, mover = to_act(table)
    it = await fake.slash(name, None, "amerikaner bid", {"value": "pass"})
    assert f"It is {mover}'s turn, not yours." in said(it)
    it = await fake.slash(name, None, "amerikaner bid", {"value": "7"})
    assert f"It is {mover}'s turn" in said(it)
    ac = await fake.autocomplete(name, None, "amerikaner bid", "value", {"value": ""})
    assert ac.choices == []
    hand = await fake.click_label(name, public, "My hand")
    text = said(hand)
    assert f"Waiting for **{mover}**" in text
    assert [b["label"] for b in hand.message.buttons()] == ["Refresh", "Table"]
    assert state(table) == before
    # lobby buttons are gone from the table message; /amerikaner join is refused
    it = await fake.slash(OUTSIDER, None, "amerikaner join")
    assert "already started" in said(it)


async def test_stale_and_repeated_buttons(fake: FakeDiscord, bot: AmerikanerBot,
                                          table: Table) -> None:
    seat, name = to_act(table)
    public = table_message(fake)
    first = (await fake.click_label(name, public, "My hand")).message
    second = (await fake.click_label(name, public, "My hand")).message
    assert first is not None and second is not None
    pass_id = fake.message(second).button_id("Pass")
    # One live panel: the second took the buttons off the first.
    await fake.wait_until(lambda: not fake.message(first).components, 5.0,
                          "the first panel to lose its buttons")
    version = table.version
    done = await fake.click(name, second, pass_id)
    assert done.response_type == 7 and table.version == version + 1
    # the same button on the other copy, clicked before that edit reached the player's
    # app (forged: it has no buttons now): stale, answered by editing that copy to the
    # hand as it is now (no new message; the next player may be mentioned in the channel
    # meanwhile, so this player's messages are counted)
    messages = len(fake.ephemeral_messages(name))
    again = await fake.forge_component(name, first, pass_id)
    assert again.response_type == 7 and len(fake.ephemeral_messages(name)) == messages
    text = fake.message(first).text()
    assert "moved on" in text and "Waiting for" in text
    assert table.version == version + 1
    assert len(table.game.current.auction) == 1  # type: ignore[union-attr]
    # the same button twice at the same instant: applied once, both edit the panel
    seat, name = to_act(table)
    msg = (await fake.click_label(name, public, "My hand")).message
    pass_id = msg.button_id("Pass")
    version = table.version
    messages = len(fake.ephemeral_messages(name))
    one, two = await asyncio.gather(fake.click(name, msg, pass_id),
                                    fake.click(name, msg, pass_id))
    assert table.version == version + 1
    assert [one.response_type, two.response_type] == [7, 7]
    assert len(fake.ephemeral_messages(name)) == messages  # no message added by either click
    assert any("moved on" in ((it.callback.data or {}).get("content") or "")
               for it in (one, two))
    assert [a for a in table.game.current.actions if a.seat == seat] \
        == [table.game.current.actions[-1]]  # type: ignore[union-attr]


async def test_two_players_at_the_same_instant(fake: FakeDiscord, bot: AmerikanerBot,
                                               table: Table) -> None:
    """The player to act clicks while the next one sends their bid: whichever order the
    bot sees them in, each is judged on the state it meets, and the record agrees."""
    public = table_message(fake)
    applied = 0
    for round_ in range(2):
        seat, name = to_act(table)
        nxt = table.seats[(seat + 1) % 4].name
        msg = (await fake.click_label(name, public, "My hand")).message
        version = table.version
        label = "Pass" if round_ == 0 else "6"  # then a bid: bidding ends after it
        click, command, look = await asyncio.gather(
            fake.click(name, msg, msg.button_id(label)),
            fake.slash(nxt, None, "amerikaner bid", {"value": "pass"}),
            fake.click_label(OUTSIDER, public, "My hand"))
        assert click.response_type == 7
        refused = "turn, not yours" in said(command)
        assert refused or "Your hand" in said(command), said(command)
        assert "You are watching" in said(look)
        assert table.version == version + 1 + (not refused)
        assert table.game.current.actions[version].seat == seat  # type: ignore[union-attr]
        applied += 1 + (not refused)
    assert len(state(table)["hands"][0]["actions"]) == applied == table.version


async def test_garbage_and_illegal_commands(fake: FakeDiscord, bot: AmerikanerBot,
                                            table: Table) -> None:
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=42)
    seat, name = to_act(table)
    before = state(table)
    bad_bids = {"banana": "not a bid", "99": "highest number bid is 12",
                "3": "lowest bid is 6", "-1": "lowest bid is 6", "": "not a bid",
                "7 8": "not a bid", "redeal": "only be claimed in norsk",
                "x" * 90: "not a bid", "\u200b": "not a bid"}
    for value, expected in bad_bids.items():
        it = await fake.slash(name, None, "amerikaner bid", {"value": value})
        assert expected in said(it), (value, said(it))
    for command, options, expected in [
            ("amerikaner play", {"card": "AS"}, "not"),
            ("amerikaner discard", {"cards": "2C 3C 4C 5C"}, "not"),
            ("amerikaner exchange", {"cards": "2C"}, "not"),
            ("amerikaner play", {"card": "XYZ"}, "is not a card"),
            ("amerikaner play", {"card": "A♠"}, "cannot play now"),
            ("amerikaner play", {"card": "JK4"}, "not a card")]:
        it = await fake.slash(name, None, command, options)
        assert expected in said(it), (command, options, said(it))
    assert state(table) == before

    # the discard: wrong count, a card not held, garbage, a repeated card
    while table.game.current.phase != DISCARD:  # type: ignore[union-attr]
        assert await driver.step()
        if table.game.current.phase not in (BID, DISCARD):  # thrown in or top bid: a new deal
            pytest.skip("no discard with this seed")
    seat, name = to_act(table)
    before = state(table)
    held = cards_of(table.game.current.hands[seat])  # type: ignore[union-attr]
    other = next(c for c in range(52) if c not in held)
    for cards, expected in [
            (" ".join(card_name(c) for c in held[:3]), "exactly 4"),
            (" ".join(card_name(c) for c in (*held[:3], other)), "do not hold"),
            (" ".join(card_name(c) for c in (*held[:3], held[0])), "twice"),
            ("2C, 3C, 4C, ZZ", "not a card"),
            (" ".join(card_name(c) for c in held[:5]), "exactly 4")]:
        it = await fake.slash(name, None, "amerikaner discard", {"cards": cards})
        assert expected in said(it), (cards, said(it))
    it = await fake.slash(name, None, "amerikaner play", {"card": card_name(held[0])})
    assert "discard" in said(it).lower()
    assert state(table) == before

    # the opening lead: a call that is not allowed, a trump without free_trump
    assert await driver.step()
    seat, name = to_act(table)
    view = table.seat_view(seat)
    assert view is not None and view.legal is not None and view.legal.phase == "lead"
    lead = next(c for c in view.legal.cards if view.legal.calls_for(suit_of(c)))
    mine = next(c for c in view.cards if suit_of(c) == suit_of(lead))  # type: ignore
    wrong_suit = next(c for c in range(52) if suit_of(c) != suit_of(lead)
                      and c not in view.cards)  # type: ignore[operator]
    before = state(table)
    for options, expected in [
            ({"card": card_name(lead), "call": card_name(mine)}, "cannot call"),
            ({"card": card_name(lead), "call": card_name(wrong_suit)}, "must be a"),
            ({"card": card_name(lead), "call": "QQ"}, "not a card"),
            ({"card": card_name(lead), "call": card_name(view.legal.calls_for(
                suit_of(lead))[0]), "trump": "H"}, "trump")]:
        it = await fake.slash(name, None, "amerikaner play", options)
        assert expected in said(it), (options, said(it))
    assert state(table) == before
    assert await driver.step()

    # in the play: a card not held, a card that does not follow suit
    checked = False
    for _ in range(200):
        hand = table.game.current
        assert hand is not None
        seat, name = to_act(table)
        view = table.seat_view(seat)
        assert view is not None and view.legal is not None
        if hand.phase == PLAY and hand.trick and set(view.cards) - set(view.legal.cards):
            before = state(table)
            illegal = next(c for c in view.cards if c not in view.legal.cards)
            it = await fake.slash(name, None, "amerikaner play", {"card": card_name(illegal)})
            assert "so you" in said(it) or "must" in said(it), said(it)
            elsewhere = next(c for c in cards_of(hand.hands[(seat + 1) % 4]))
            it = await fake.slash(name, None, "amerikaner play",
                                  {"card": card_name(elsewhere)})
            assert f"You do not hold {card_label(elsewhere)}" in said(it)
            it = await fake.slash(name, None, "amerikaner play",
                                  {"card": card_name(view.legal.cards[0]),
                                   "call": "AS"})
            assert "only with the opening lead" in said(it)
            assert state(table) == before
            checked = True
            break
        assert await driver.step()
    assert checked


async def test_no_table_here_and_closed_table(fake: FakeDiscord, bot: AmerikanerBot,
                                              table: Table) -> None:
    other = fake.guild.text_channels[1]
    for command, options in [("amerikaner hand", {}), ("amerikaner play", {"card": "AS"}),
                             ("amerikaner bid", {"value": "7"}), ("amerikaner score", {}),
                             ("amerikaner join", {}), ("amerikaner start", {}),
                             ("amerikaner leave", {}), ("amerikaner cancel", {}),
                             ("amerikaner discard", {"cards": "AS"})]:
        it = await fake.slash("alice", other, command, options)
        assert "no table in this channel" in said(it), (command, said(it))
    it = await fake.slash("alice", other, "amerikaner export")
    assert "No game to export here" in said(it)
    it = await fake.slash("alice", other, "amerikaner export", {"game": 999})
    assert "no such game" in said(it)
    ac = await fake.autocomplete("alice", other, "amerikaner play", "card", {"card": ""})
    assert ac.choices == []
    # a second table in the same channel is refused
    it = await fake.slash("erin", None, "amerikaner new", {"players": 3})
    assert "already has a table" in said(it)
    # only the host (or a manager) may cancel
    seat, name = to_act(table)
    mine = (await fake.click_label(name, table_message(fake), "My hand")).message
    assert mine is not None
    it = await fake.slash("bob", None, "amerikaner cancel")
    assert "Only the host" in said(it)
    cancel = await fake.slash("alice", None, "amerikaner cancel")
    assert not cancel.ephemeral and "cancelled" in cancel.message.text()
    # the table message lost its buttons; those left on hand messages say it is closed
    await fake.wait_until(lambda: table_message_or_none(fake) is None)
    for label in ("Refresh", "Pass"):
        it = await fake.click_label(name, mine, label)
        assert "closed" in said(it), said(it)
    it = await fake.slash("bob", None, "amerikaner play", {"card": "AS"})
    assert "no table in this channel" in said(it)


async def test_lobby_mistakes(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
    lobby = new.message
    assert lobby is not None
    start = fake.message(lobby).component(fake.message(lobby).button_id("Start"))
    assert start is not None and start.get("disabled")
    it = await fake.slash("alice", None, "amerikaner start")
    assert "Waiting for 2 more players" in said(it)
    await fake.click_label("bob", fake.message(lobby), "Join")
    it = await fake.click_label("bob", fake.message(lobby), "Join")
    assert "already at this table" in said(it)
    it = await fake.click_label("alice", fake.message(lobby), "Leave")
    assert "You are the host" in said(it)
    it = await choose_ai(fake, "bob", fake.message(lobby), "easy")
    assert "Only the host" in said(it)
    it = await fake.click_label(OUTSIDER, fake.message(lobby), "Leave")
    assert "not at this table" in said(it)
    await choose_ai(fake, "alice", fake.message(lobby), "strong")
    it = await choose_ai(fake, "carol", fake.message(lobby), "remove")
    assert "Only the host" in said(it)
    it = await choose_ai(fake, "alice", fake.message(lobby), "remove")
    assert it.response_type == 7 and "AI" not in fake.message(lobby).text().split("free")[0]
    await fake.click_label("carol", fake.message(lobby), "Join")
    it = await fake.slash("dave", None, "amerikaner join")
    assert "Every seat is taken" in said(it)
    it = await fake.click_label("bob", fake.message(lobby), "Start")
    assert "Only the host" in said(it)
    it = await fake.slash("bob", None, "amerikaner hand")
    assert "not started" in said(it)
    it = await fake.slash("alice", None, "amerikaner new",
                          {"preset": "kani", "players": 3})
    assert "already has a table" in said(it)
    assert bot.tables.registry.in_channel(fake.channel.id).game is None  # type: ignore[union-attr]


@pytest.mark.parametrize(("options", "expected"), [
    ({"preset": "kani", "players": 5}, "player"),
    ({"preset": "norsk", "no_kitty": True}, "no kitty"),
    ({"preset": "amerikaner", "players": 6}, "player"),
    # House rules are named in words, as the lobby's menu names them (issue 35).
    ({"bidder_double": True, "partner_half": True}, "partner scores half"),
    ({"preset": "kani", "fixed_ten": True, "players": 4, "show_kitty": True},
     "kitty shown"),
])
async def test_bad_table_options(fake: FakeDiscord, bot: AmerikanerBot,
                                 options: dict[str, Any], expected: str) -> None:
    it = await fake.slash("alice", None, "amerikaner new", options)
    assert expected in said(it), said(it)
    assert bot.tables.registry.in_channel(fake.channel.id) is None


# ----------------------------------------------------------------- whatever is typed

# What a user can type into a text option: very long text (Discord allows 6,000
# characters), digits that are not ASCII ('²' passes str.isdigit() and fails int()),
# control characters, emoji.
JUNK = ("x" * 3000, "9" * 5000, "AS " * 1000, "²", "①", "٣", "1²", "\x00\x07\n\t7\x1b",
        "🂡🔥")

# Every free-text option of /amerikaner, with what else the command needs. (preset and
# order are choices: Discord itself refuses anything else.)
TEXT_OPTIONS = [
    ("amerikaner bid", "value", {}),
    ("amerikaner play", "card", {}),
    ("amerikaner play", "call", {"card": "AS"}),
    ("amerikaner play", "trump", {"card": "AS"}),
    ("amerikaner discard", "cards", {}),
    ("amerikaner exchange", "cards", {}),
]
AUTOCOMPLETED = [(command, option) for command, option, _ in TEXT_OPTIONS]


def refusal(it: FakeInteraction) -> str:
    """An ephemeral answer that fits Discord's limit and says what was wrong, not that
    the bot broke."""
    text = said(it)
    assert len(text) <= 2000, len(text)
    for broken in ("Traceback", "Something went wrong"):
        assert broken not in text, text
    return text


async def send_junk(fake: FakeDiscord, table: Table, name: str) -> None:
    """Every junk text in every text option, and in every autocomplete: each answered,
    nothing changed."""
    before = state(table)
    for command, option, given in TEXT_OPTIONS:
        for junk in JUNK:
            it = await fake.slash(name, None, command, {**given, option: junk})
            refusal(it)
            assert state(table) == before, (command, option, junk[:20])
    for command, option in AUTOCOMPLETED:
        for junk in JUNK:
            ac = await fake.autocomplete(name, None, command, option, {option: junk})
            assert len(ac.choices) <= 25
            for choice in ac.choices:
                assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100


async def test_junk_in_every_phase(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await open_table(fake, list(NAMES[:4]), {"preset": "amerikaner", "target": 52,
                                             "free_trump": True})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=42)
    for phase in (BID, DISCARD, LEAD, PLAY):
        for _ in range(300):
            if table.game.current.phase == phase:  # type: ignore[union-attr]
                break
            assert await driver.step()
        assert table.game.current.phase == phase  # type: ignore[union-attr]
        _, name = to_act(table)
        await send_junk(fake, table, name)
        await send_junk(fake, table, not_to_act(table))


async def test_junk_in_settings(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    guild = fake.guild.id
    before = await bot.store.get_guild_settings(guild, "amerikaner")
    for junk in JUNK:
        it = await fake.slash("alice", None, "amerikaner settings", {"options": junk})
        assert "Unknown option" in refusal(it)
    assert await bot.store.get_guild_settings(guild, "amerikaner") == before


async def test_refusals_quote_what_was_typed(fake: FakeDiscord, bot: AmerikanerBot,
                                            table: Table) -> None:
    """Shortened, without control characters, in the case it was typed."""
    _, name = to_act(table)
    before = state(table)
    for value, expected in [("Banana", "'Banana' is not a bid"),
                            ("²", "'²' is not a bid: bid a number from 6 to 12"),
                            ("-3", "The lowest bid is 6."),
                            ("+13", "The highest number bid is 12"),
                            ("0003", "The lowest bid is 6."),
                            ("9" * 5000, "The highest number bid is 12"),
                            ("-" + "9" * 5000, "The lowest bid is 6."),
                            ("AMERI\u212aANER", "not a bid"),  # a Kelvin sign, not a K
                            ("Ban\x00ana\x07", "'Banana' is not a bid"),
                            ("y" * 3000, "'" + "y" * 39 + "…' is not a bid"),
                            ("AMERIKANER\n", None)]:
        it = await fake.slash(name, None, "amerikaner bid", {"value": value})
        if expected is None:  # the top bid, named in any case: it is made
            assert table.game.current.high_bid > 12, said(it)  # type: ignore[union-attr]
            break
        assert expected in refusal(it), (value, said(it))
        assert state(table) == before
    for value, quoted in (("Xy\x00Z", "'XyZ'"), ("10h Zz", "'Zz'")):
        it = await fake.slash(name, None, "amerikaner play", {"card": value})
        assert f"{quoted} is not a card" in refusal(it)


async def test_away_and_back_when_not_away(fake: FakeDiscord, bot: AmerikanerBot,
                                           table: Table) -> None:
    _, name = to_act(table)
    it = await fake.slash(name, None, "amerikaner back")
    assert "You are not away" in said(it)
    other = not_to_act(table)
    it = await fake.slash(other, None, "amerikaner away")
    assert "The AI plays for you" in said(it)
    it = await fake.slash(other, None, "amerikaner away")
    assert "You are already away" in said(it)
    it = await fake.slash(other, None, "amerikaner back")
    assert "Welcome back" in said(it)


async def test_failures_of_ours_are_answered_and_logged_once(
        fake: FakeDiscord, bot: AmerikanerBot, table: Table, error_logs: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def boom(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(bot.store, "member_stats", boom)
    it = await fake.slash("alice", None, "amerikaner stats")
    assert said(it) == ("Something went wrong on our side; nothing was changed. "
                        "Please try again.")
    assert len(error_logs.records) == 1 and "boom" in error_logs.format_all()
    error_logs.clear()
    monkeypatch.setattr(bot.get_cog("Tables").panels, "show_hand", boom)
    it = await fake.click_label("alice", table_message(fake), "My hand")
    assert "Something went wrong on our side" in said(it)
    assert len(error_logs.records) == 1
    error_logs.clear()


async def test_options_discord_py_refuses(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    gone = await fake.add_user("zed")
    del fake.guild.members[gone.id]  # a user, not a member of this server
    it = await fake.slash("alice", None, "amerikaner stats", {"member": "zed"})
    assert "That member is not on this server." in said(it)
    it = await fake.slash("alice", None, "amerikaner replace", {"seat": 2, "member": "zed"})
    assert "That member is not on this server." in said(it)


def _with_option(data: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """A command's interaction data with option `name` set to `value`, wherever it is
    among the subcommands' options."""
    for option in data.get("options", []):
        if option.get("name") == name and "value" in option:
            option["value"] = value
        else:
            _with_option(option, name, value)
    return data


async def test_settings_refuse_a_turn_timer_out_of_range(fake: FakeDiscord,
                                                        bot: AmerikanerBot) -> None:
    """Discord's client keeps `settings turn_timer` within its option's range (0 to
    10080 minutes), but what reaches the bot is any integer an interaction carries (a
    modified client, a command synced before its range; discord.py's Range does not
    check it). The bot refuses it with `new`'s sentence and stores nothing, so every
    `new` without a timer of its own still opens (today's code saved 2^40 minutes, and
    `new` was refused from then on)."""
    guild = fake.guild.id
    before = await bot.store.get_guild_settings(guild, "amerikaner")
    # `turn_timer` is typed as a length (issue 35: "1d", "12h"; a bare number is
    # minutes), so the client's range is no longer the guard: the bot's is.
    for minutes, sentence in ((str(2 ** 40), "A turn timer can be at most 7 days"),
                              ("10081", "A turn timer can be at most 7 days"),
                              ("8d", "A turn timer can be at most 7 days"),
                              ("-5", "-5 is not a turn timer")):
        data = _with_option(fake._build_command_data("amerikaner settings",
                                                     {"turn_timer": "1h"}, fake.channel),
                            "turn-timer", minutes)  # as the payload names it
        it = await fake._send_interaction(2, "alice", fake.channel, data, wait=True,
                                          timeout=5.0)
        assert sentence in said(it), minutes
    assert await bot.store.get_guild_settings(guild, "amerikaner") == before
    new = await fake.slash("alice", None, "amerikaner new", {"players": 4})
    assert new.response_type == 4 and not new.callback.ephemeral, new.callback.data
