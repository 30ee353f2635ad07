"""End-to-end tests of tests/fake_discord with a small, unmodified discord.py bot."""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import (
    CHANNEL_MESSAGE_WITH_SOURCE,
    CREATE_PUBLIC_THREADS,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    MANAGE_THREADS,
    MODAL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_STARTER_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeRole,
    FakeThread,
    PostGate,
)
from tests.fake_discord.fixtures import (
    ErrorLogCapture,
    bot_intents,
    discord_bot_fixture,  # noqa: F401 - registers the "discord_bot" fixture
    error_logs_fixture,  # noqa: F401 - registers the "error_logs" fixture
    fake_discord_fixture,  # noqa: F401 - registers the "fake_discord" fixture
    running_bot,
    start_bot_expecting_failure,
)

CARDS = ["AS", "KS", "QS", "JS", "10S", "AH", "KH", "QH", "AD", "AC"]


# --------------------------------------------------------------------------- demo bot
class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<board>\d+):(?P<n>\d+)"
):
    """A persistent button whose state (board id, count) lives in its custom_id."""

    def __init__(self, board: int, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}",
                style=discord.ButtonStyle.primary,
                custom_id=f"demo:count:{board}:{n}",
            )
        )
        self.board = board
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> CounterButton:
        return cls(int(match["board"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        n = self.n + 1
        await interaction.response.edit_message(
            content=f"board {self.board}: {n} clicks (last: {interaction.user.name})",
            view=board_view(self.board, n),
        )


class PickSelect(discord.ui.Select[Any]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="demo:pick",
            placeholder="Pick a suit",
            options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Spades", "Hearts")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you picked {self.values[0]}", ephemeral=True)


class PickView(discord.ui.View):
    """Persistent (timeout=None): registered with bot.add_view at start-up."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(PickSelect())


def board_view(board: int, n: int, *, done: bool = False) -> discord.ui.View:
    view = PickView()
    button = CounterButton(board, n)
    button.item.disabled = done
    view.add_item(button)
    return view


class HandView(discord.ui.View):
    """An ephemeral 'hand': one button per card, played with a deferred update."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__(timeout=60)
        self.cards = cards
        for card in cards:
            button: discord.ui.Button[HandView] = discord.ui.Button(
                label=card, custom_id=f"demo:hand:{card}"
            )
            button.callback = self.make_callback(card)  # type: ignore[method-assign]
            self.add_item(button)

    def make_callback(self, card: str) -> Any:
        async def play(interaction: discord.Interaction) -> None:
            await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE for components
            left = [c for c in self.cards if c != card]
            await interaction.edit_original_response(
                content=f"played {card}; left: {' '.join(left)}", view=HandView(left)
            )

        return play


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class Demo(app_commands.Group, name="demo", description="Demo commands"):
    admin = app_commands.Group(name="admin", description="Nested group")

    @admin.command(description="A subcommand in a subgroup")
    async def reset(self, interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(f"reset {who.name}", ephemeral=True)

    @app_commands.command(description="Repeat text")
    @app_commands.describe(text="what to say", times="how often")
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        times: app_commands.Range[int, 1, 5] = 1,
        shout: bool = False,
    ) -> None:
        out = " ".join([text.upper() if shout else text] * times)
        await interaction.response.send_message(f"{out} ({interaction.user.display_name})")

    @app_commands.command(description="Only you can see this")
    async def secret(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.user, discord.Member)
        await interaction.response.send_message(f"psst {interaction.user.name}", ephemeral=True)

    @app_commands.command(description="A board with a persistent button")
    async def board(self, interaction: discord.Interaction, board_id: int) -> None:
        await interaction.response.send_message(
            f"board {board_id}: 0 clicks", view=board_view(board_id, 0)
        )

    @app_commands.command(description="Your cards, only for you")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "your hand", view=HandView(["AS", "KH", "QD"]), ephemeral=True
        )

    @app_commands.command(description="Sends you a DM")
    async def dm(self, interaction: discord.Interaction) -> None:
        await interaction.user.send("your cards: AS KH")
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @app_commands.command(description="Deferred answer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="working...")
        await interaction.followup.send("a follow-up", ephemeral=True)
        original = await interaction.original_response()
        await interaction.edit_original_response(content=f"done (was {original.content!r})")

    @app_commands.command(description="Play a card")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"played {card}", ephemeral=True)

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current.upper())
        ][:25]

    @app_commands.command(description="Export a JSON file")
    async def export(self, interaction: discord.Interaction) -> None:
        data = json.dumps({"game": 1, "players": ["alice", "bob"]}).encode()
        await interaction.response.send_message(
            "export", file=discord.File(io.BytesIO(data), filename="export.json")
        )

    @app_commands.command(description="Edit a message many times")
    async def spam(self, interaction: discord.Interaction, count: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        msg = await interaction.channel.send("edit 0")
        for i in range(1, count + 1):
            msg = await msg.edit(content=f"edit {i}")
        await interaction.followup.send(f"edited {count} times")

    @app_commands.command(description="Ask for a name")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Where this was run")
    async def where(self, interaction: discord.Interaction) -> None:
        channel = interaction.channel
        parent = getattr(channel, "parent", None)
        await interaction.response.send_message(
            f"{type(channel).__name__} {getattr(channel, 'id', None)}"
            f" in {type(parent).__name__} {getattr(parent, 'id', None)}"
        )

    @app_commands.command(description="A lobby with its own thread")
    async def table(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"table {name}")
        lobby = await interaction.original_response()
        thread = await lobby.create_thread(name=name, auto_archive_duration=60)
        await thread.send("first deal")
        await interaction.edit_original_response(content=f"table {name}: {thread.mention}")

    @app_commands.command(description="Raises")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @app_commands.command(description="Calls an endpoint the fake lacks")
    async def bans(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        try:
            await anext(interaction.guild.bans(limit=1))
        except discord.NotFound:
            await interaction.response.send_message("no bans endpoint", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=bot_intents())
        self.synced: list[app_commands.AppCommand] = []
        #: interaction.channel of every interaction the bot got
        self.interaction_channels: list[Any] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interaction_channels.append(interaction.channel)

    async def setup_hook(self) -> None:
        self.tree.add_command(Demo())
        self.add_dynamic_items(CounterButton)
        self.add_view(PickView())
        self.synced = await self.tree.sync()


@pytest.fixture
def bot_factory() -> type[DemoBot]:
    """Used by the "discord_bot" fixture from tests.fake_discord.fixtures."""
    return DemoBot


@pytest.fixture
def bot(discord_bot: DemoBot) -> DemoBot:
    return discord_bot


# --------------------------------------------------------------------------- tests
async def test_startup_syncs_commands_quickly(error_logs: ErrorLogCapture) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        t0 = time.monotonic()
        async with running_bot(fake, DemoBot()) as b:
            elapsed = time.monotonic() - t0
            assert elapsed < 2.0, elapsed
            assert b.user is not None and b.user.id == fake.bot_user.id
            guild = b.get_guild(fake.guild.id)
            assert guild is not None and guild.get_channel(fake.channel.id) is not None
            assert guild.member_count == 5  # no members intent: only the bot is cached
            assert guild.me is not None
            demo = fake.command("demo")
            subs = {o["name"]: o for o in demo["options"]}
            assert set(subs) >= {"echo", "secret", "board", "slow", "play", "export", "spam"}
            echo_opts = {o["name"]: o for o in subs["echo"]["options"]}
            assert echo_opts["text"]["required"] is True
            assert echo_opts["times"]["type"] == 4 and echo_opts["times"]["max_value"] == 5
            assert [c.name for c in b.synced] == ["demo"]
            assert fake.identify_payloads[0]["intents"] == bot_intents().value
            assert fake.requests_to("GET", r"^/gateway$")[0].query["compress"] == "zlib-stream"
            assert fake.requests_to("PUT", r"/applications/\d+/commands$")
    finally:
        await fake.stop()


async def test_slash_public_response(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash(
        "alice", fake.channel, "demo echo", {"text": "hi", "times": 2, "shout": True}
    )
    assert it.response_type == CHANNEL_MESSAGE_WITH_SOURCE
    assert it.content == "HI HI (alice)"
    assert not it.callback.ephemeral
    assert 0 <= it.latency < 1.0
    assert fake.last_message(fake.channel).content == "HI HI (alice)"
    assert fake.last_message().interaction_user_id == fake.user("alice").id

    nested = await fake.slash("alice", None, "demo admin reset", {"who": fake.user("carol")})
    assert nested.content == "reset carol"
    sent = nested.payload["data"]["options"][0]
    assert (sent["type"], sent["name"], sent["options"][0]["name"]) == (2, "admin", "reset")

    with pytest.raises(ValueError, match="max"):
        await fake.slash("alice", None, "demo echo", {"text": "x", "times": 9})
    with pytest.raises(ValueError, match="required"):
        await fake.slash("alice", None, "demo echo", {})
    with pytest.raises(LookupError):
        await fake.slash("alice", None, "demo nope")


async def test_slash_ephemeral_only_visible_to_invoker(
    fake_discord: FakeDiscord,
    bot: DemoBot,
) -> None:
    fake = fake_discord
    it = await fake.slash("bob", None, "demo secret")
    assert it.callback.ephemeral and it.callback.flags & EPHEMERAL
    assert it.content == "psst bob"
    assert [m.content for m in fake.ephemeral_messages("bob")] == ["psst bob"]
    assert fake.ephemeral_messages("alice") == []
    assert fake.messages() == []
    assert [m.content for m in fake.visible_messages("bob")] == ["psst bob"]
    assert fake.visible_messages("carol") == []


async def test_button_click_updates_message_and_select(
    fake_discord: FakeDiscord,
    bot: DemoBot,
) -> None:
    fake = fake_discord
    it = await fake.slash("alice", None, "demo board", {"board_id": 7})
    board = it.message
    assert board is not None and board.content == "board 7: 0 clicks"
    assert board.button_id("Count 0") == "demo:count:7:0"

    click = await fake.click("bob", board, "demo:count:7:0")
    assert click.response_type == UPDATE_MESSAGE
    assert fake.message(board).content == "board 7: 1 clicks (last: bob)"
    assert fake.message(board).edit_count == 1
    # the old custom_id is gone: clicking it must fail loudly
    with pytest.raises(AssertionError, match="no component"):
        await fake.click("bob", board, "demo:count:7:0")
    await fake.click_label("carol", board, "Count 1")
    assert fake.message(board).content == "board 7: 2 clicks (last: carol)"

    picked = await fake.select("dave", board, "demo:pick", ["hearts"])
    assert picked.content == "you picked hearts" and picked.callback.ephemeral
    with pytest.raises(AssertionError, match="not among options"):
        await fake.select("dave", board, "demo:pick", ["clubs"])


async def test_disabled_button_cannot_be_clicked(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("finished", view=board_view(3, 5, done=True))
    with pytest.raises(AssertionError, match="disabled"):
        await fake.click("alice", sent.id, "demo:count:3:5")


async def test_deferred_followup_and_edit_original(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("carol", None, "demo slow")
    assert it.response_type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    await fake.wait_until(
        lambda: it.message is not None and it.message.content.startswith("done"),
        what="final edit of @original",
    )
    assert it.message is not None
    assert it.message.content == "done (was 'working...')"
    assert not it.message.loading
    assert [m.content for m in it.followups] == ["a follow-up"]
    assert it.followups[0].visible_to == fake.user("carol").id
    assert [m.content for m in fake.messages()] == ["done (was 'working...')"]


async def test_autocomplete_returns_choices(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    ac = await fake.autocomplete("alice", None, "demo play", focused="card", options={"card": "k"})
    assert ac.response_type == 8
    assert [c["value"] for c in ac.choices] == ["KS", "KH"]
    it = await fake.slash("alice", None, "demo play", {"card": "KS"})
    assert it.content == "played KS"


async def test_file_attachment_is_parsed(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("dave", None, "demo export")
    assert it.message is not None
    att = it.message.attachment("export.json")
    assert json.loads(att.data) == {"game": 1, "players": ["alice", "bob"]}
    # discord.py can download it back through the fake
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(it.message.id)
    assert await fetched.attachments[0].read() == att.data


async def test_modal_round_trip(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("bob", None, "demo ask")
    assert it.response_type == MODAL and it.modal is not None
    submitted = await fake.submit_modal("bob", it, {"demo:name": "Bobby"})
    assert submitted.content == "hello Bobby"


async def test_unknown_route_is_recorded(
    fake_discord: FakeDiscord, error_logs: ErrorLogCapture
) -> None:
    fake = fake_discord
    async with running_bot(fake, DemoBot(), check_unknown_routes=False):
        it = await fake.slash("alice", None, "demo bans")
        assert it.content == "no bans endpoint"
    assert [(r.method, r.path) for r in fake.unknown_routes] == [
        ("GET", f"/guilds/{fake.guild.id}/bans")
    ]


async def test_rate_limits_are_handled(error_logs: ErrorLogCapture) -> None:
    # 5 edits per 1 s per channel (Discord: per 5 s), plus one forced 429
    fake = FakeDiscord(rate_limits=True, rate_limit_scale=0.2)
    await fake.start()
    try:
        async with running_bot(fake, DemoBot()):
            assert fake.rate_limiter is not None
            fake.rate_limiter.force("PATCH", r"^/channels/\d+/messages/\d+$", retry_after=0.1)
            it = await fake.slash("alice", None, "demo spam", {"count": 8})
            await fake.wait_until(lambda: it.followups, timeout=10, what="spam follow-up")
            assert it.followups[-1].content == "edited 8 times"
            public = fake.messages()
            assert [m.content for m in public] == ["edit 8"]
            assert public[0].edit_count == 8
            limited = [r for r in fake.rate_limited if r.method == "PATCH"]
            assert len(limited) >= 1
            patches = fake.requests_to("PATCH", r"^/channels/\d+/messages/\d+$")
            assert len(patches) == 8 + len(limited)
    finally:
        await fake.stop()


async def test_rejected_token_raises_login_failure(
    fake_discord: FakeDiscord, error_logs: ErrorLogCapture
) -> None:
    exc = await start_bot_expecting_failure(fake_discord, DemoBot(), "not-the-token")
    assert isinstance(exc, discord.LoginFailure)
    assert fake_discord.requests[-1].status == 401


async def test_gateway_resume_after_disconnect(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    await fake.close_gateway(4000)
    await fake.wait_until(
        lambda: any(p.get("op") == 6 for p in fake.gateway_received) and fake.connected,
        what="RESUME",
    )
    it = await fake.slash("alice", None, "demo echo", {"text": "back"})
    assert it.content == "back (alice)"
    assert len(fake.identify_payloads) == 1


async def test_error_logs_are_caught(
    fake_discord: FakeDiscord, bot: DemoBot, error_logs: ErrorLogCapture
) -> None:
    fake = fake_discord
    it = await fake.slash("alice", None, "demo boom", wait=False)
    await fake.wait_until(lambda: error_logs.records, what="error log")
    assert "boom" in error_logs.format_all()
    assert not it.responded
    error_logs.clear()  # provoked on purpose


async def test_ephemeral_hand_deferred_update(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("alice", None, "demo hand")
    hand = it.message
    assert hand is not None and hand.visible_to == fake.user("alice").id
    assert [b["label"] for b in hand.buttons()] == ["AS", "KH", "QD"]
    with pytest.raises(AssertionError, match="cannot see"):
        await fake.click("bob", hand, "demo:hand:KH")
    click = await fake.click_label("alice", hand, "KH")
    assert click.response_type == DEFERRED_UPDATE_MESSAGE
    await fake.wait_until(lambda: hand.content.startswith("played"), what="hand edit")
    assert hand.content == "played KH; left: AS QD"
    assert [b["label"] for b in hand.buttons()] == ["AS", "QD"]
    assert fake.messages() == []  # still nothing public


async def test_persistent_dynamic_button_survives_restart(
    fake_discord: FakeDiscord, error_logs: ErrorLogCapture
) -> None:
    fake = fake_discord
    async with running_bot(fake, DemoBot()):
        it = await fake.slash("alice", None, "demo board", {"board_id": 42})
    board = it.message
    assert board is not None
    async with running_bot(fake, DemoBot()):  # a fresh process, same Discord
        await fake.click("bob", board, "demo:count:42:0")
        assert board.content == "board 42: 1 clicks (last: bob)"
        picked = await fake.select("carol", board, "demo:pick", ["spades"])
        assert picked.content == "you picked spades"
    assert len(fake.identify_payloads) == 2


async def test_direct_message(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("dave", None, "demo dm")
    assert it.content == "check your DMs"
    assert [m.content for m in fake.dm_messages("dave")] == ["your cards: AS KH"]
    assert fake.dm_messages("alice") == []


async def test_posts_with_the_same_nonce_make_one_message(fake_discord: FakeDiscord,
                                                         bot: DemoBot) -> None:
    fake = fake_discord
    channel = bot.get_partial_messageable(fake.channel.id)
    first = await channel.send("summary", nonce="17.123")
    again = await channel.send("summary", nonce="17.123")  # enforce_nonce, by discord.py
    other = await channel.send("summary", nonce="18.123")
    assert again.id == first.id != other.id
    assert [m.content for m in fake.messages()].count("summary") == 2


@pytest.mark.parametrize("mode", ["lost", "unanswered"])
async def test_a_post_gate_holds_posts(fake_discord: FakeDiscord, bot: DemoBot,
                                       mode: str) -> None:
    fake = fake_discord
    fake.post_gate = gate = PostGate(mode)
    sending = asyncio.create_task(
        bot.get_partial_messageable(fake.channel.id).send("held", nonce="1.1"))
    await fake.wait_until(lambda: gate.held == 1, 5.0, "the held post")
    assert [m.content for m in fake.messages()].count("held") == (mode == "unanswered")
    assert not sending.done()
    sending.cancel()
    gate.release()
    fake.post_gate = None
    await asyncio.sleep(0.05)
    assert [m.content for m in fake.messages()].count("held") == (mode == "unanswered")


def test_apply_discord_endpoints_and_reset() -> None:
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bot.endpoints import apply_discord_endpoints, reset_discord_endpoints

    assert Route.BASE == "https://discord.com/api/v10"
    try:
        apply_discord_endpoints("http://127.0.0.1:9/api/v10/", None)
        assert Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"
        apply_discord_endpoints(None, "ws://127.0.0.1:9/gateway?x=1")
        assert Route.BASE == "http://127.0.0.1:9/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"
        with pytest.raises(ValueError):
            apply_discord_endpoints(None, "http://127.0.0.1:9/")
    finally:
        reset_discord_endpoints()
    assert Route.BASE == "https://discord.com/api/v10"
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


# --------------------------------------------------------------------------- threads
def text_channel(bot: DemoBot, fake: FakeDiscord) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def cached_thread(fake: FakeDiscord, bot: DemoBot, thread_id: int) -> discord.Thread:
    """The thread as the bot's cache holds it, once THREAD_CREATE has arrived."""
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None
    return await fake.wait_until(lambda: guild.get_thread(thread_id), what="thread in cache")


async def test_a_thread_without_a_message(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    made = await channel.create_thread(
        name="Table 7", type=discord.ChannelType.public_thread, auto_archive_duration=60
    )
    [thread] = fake.threads(fake.channel)
    assert isinstance(thread, FakeThread) and fake.thread(made.id) is thread
    assert (thread.id, thread.type, thread.name) == (made.id, PUBLIC_THREAD, "Table 7")
    assert (thread.parent_id, thread.owner_id) == (fake.channel.id, fake.bot_user.id)
    assert thread.auto_archive_duration == 60 and list(thread.members) == [fake.bot_user.id]
    assert fake.threads(fake.guild.text_channels[1]) == []
    create = next(p["d"] for p in fake.gateway_sent if p["t"] == "THREAD_CREATE")
    assert create["newly_created"] is True and create["parent_id"] == str(fake.channel.id)

    cached = await cached_thread(fake, bot, thread.id)
    assert bot.get_channel(thread.id) is cached
    assert cached.parent is channel and cached.owner_id == fake.bot_user.id
    assert cached.type is discord.ChannelType.public_thread
    await fake.wait_until(lambda: cached.me is not None, what="the bot's thread member")

    sent = await cached.send("hello")
    edited = await sent.edit(content="hello again")
    assert edited.channel is cached
    assert [m.content for m in fake.messages(thread)] == ["hello again"]
    assert fake.last_message(thread).edit_count == 1
    assert fake.messages(fake.channel) == []  # the thread's messages are not the channel's
    assert (thread.message_count, thread.last_message_id) == (1, sent.id)
    assert [m.content async for m in cached.history()] == ["hello again"]
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.message_count == 1
    assert fetched.me is not None and fetched.me.id == fake.bot_user.id


async def test_a_thread_from_a_message(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    lobby = await text_channel(bot, fake).send("lobby")
    made = await lobby.create_thread(name="Game 1")
    assert made.id == lobby.id  # Discord: the thread has the message's id
    stored = fake.message(lobby.id)
    thread = fake.thread(stored)
    assert thread.type == PUBLIC_THREAD and thread.starter_message_id == lobby.id
    assert stored.to_payload()["thread"]["id"] == str(thread.id)
    assert stored.flags & 32  # HAS_THREAD
    [starter] = fake.all_messages(thread)
    assert starter.type == THREAD_STARTER_MESSAGE and thread.message_count == 0
    assert starter.to_payload()["referenced_message"]["content"] == "lobby"

    cached = await cached_thread(fake, bot, thread.id)
    assert cached.parent is text_channel(bot, fake) and cached.name == "Game 1"
    refetched = await text_channel(bot, fake).fetch_message(lobby.id)
    assert refetched.thread is not None and refetched.thread.id == thread.id

    await cached.send("first deal")
    assert [m.content for m in fake.messages(thread)] == ["", "first deal"]
    assert fake.last_message(fake.channel).content == "lobby"
    with pytest.raises(discord.HTTPException) as again:
        await lobby.create_thread(name="Game 1 again")
    assert (again.value.status, again.value.code) == (400, 160004)


async def test_commands_and_buttons_from_a_thread(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    made = await text_channel(bot, fake).create_thread(
        name="Table", type=discord.ChannelType.public_thread
    )
    thread = fake.thread(made.id)
    await cached_thread(fake, bot, thread.id)

    where = await fake.slash("alice", thread, "demo where")
    assert where.content == f"Thread {thread.id} in TextChannel {fake.channel.id}"
    sent = where.payload["channel"]
    assert (where.channel_id, sent["type"], sent["parent_id"]) == (
        thread.id, PUBLIC_THREAD, str(fake.channel.id))
    assert fake.last_message(thread).content == where.content
    assert fake.messages(fake.channel) == []

    board = (await fake.slash("bob", thread, "demo board", {"board_id": 3})).message
    assert board is not None and board.channel_id == thread.id
    click = await fake.click_label("carol", board, "Count 0")
    assert click.response_type == UPDATE_MESSAGE and click.channel_id == thread.id
    assert fake.message(board).content == "board 3: 1 clicks (last: carol)"
    clicked_in = bot.interaction_channels[-1]
    assert isinstance(clicked_in, discord.Thread) and clicked_in.id == thread.id
    assert clicked_in.parent is text_channel(bot, fake)
    hand = (await fake.slash("dave", thread, "demo hand")).message
    assert hand is not None and fake.ephemeral_messages("dave", thread) == [hand]
    assert thread.message_count == 2  # the ephemeral hand is not counted


async def test_a_private_thread_is_for_its_members(fake_discord: FakeDiscord,
                                                    bot: DemoBot) -> None:
    fake = fake_discord
    made = await text_channel(bot, fake).create_thread(name="Secret table", invitable=False)
    thread = fake.thread(made.id)
    assert thread.type == PRIVATE_THREAD and not thread.invitable
    cached = await cached_thread(fake, bot, thread.id)
    with pytest.raises(AssertionError, match="not a member"):
        await fake.slash("bob", thread, "demo where")
    await cached.add_user(discord.Object(fake.user("bob").id))
    await fake.add_thread_member(thread, "carol")
    assert set(thread.members) == {fake.bot_user.id, fake.user("bob").id, fake.user("carol").id}
    assert (await fake.slash("bob", thread, "demo where")).content.startswith("Thread")
    assert (await fake.slash("alice", thread, "demo where")).responded  # the owner moderates
    await cached.remove_user(discord.Object(fake.user("carol").id))
    assert fake.user("carol").id not in thread.members
    with pytest.raises(AssertionError, match="not a member"):
        await fake.send_user_message("carol", thread, "let me in")


async def test_a_bad_thread_is_refused(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    public = discord.ChannelType.public_thread
    for name in ("", "x" * 101):
        with pytest.raises(discord.HTTPException) as bad:
            await channel.create_thread(name=name, type=public)
        assert (bad.value.status, bad.value.code) == (400, 50035)
    with pytest.raises(discord.HTTPException) as bad:
        await channel.create_thread(name="t", type=public, auto_archive_duration=30)  # type: ignore[arg-type]
    assert bad.value.code == 50035
    inner = await channel.create_thread(name="outer", type=public)
    with pytest.raises(discord.HTTPException) as bad:
        await bot.http.start_thread_without_message(
            inner.id, name="inner", auto_archive_duration=60, type=11)
    assert (bad.value.status, bad.value.code) == (400, 50024)
    everyone = fake.guild.roles[fake.guild.id]
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="not allowed", type=public)
    assert len(fake.threads(fake.channel)) == 1


async def test_archived_locked_and_deleted_threads(fake_discord: FakeDiscord,
                                                   bot: DemoBot) -> None:
    fake = fake_discord
    made = await text_channel(bot, fake).create_thread(
        name="Old table", type=discord.ChannelType.public_thread)
    thread = fake.thread(made.id)
    cached = await cached_thread(fake, bot, thread.id)
    sent = await cached.send("standings")
    await cached.edit(archived=True)
    assert thread.archived
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None
    await fake.wait_until(lambda: guild.get_thread(thread.id) is None, what="archived thread")
    with pytest.raises(AssertionError, match="archived"):
        await fake.slash("alice", thread, "demo where")
    with pytest.raises(discord.HTTPException) as archived:
        await sent.edit(content="changed")
    assert (archived.value.status, archived.value.code) == (400, 50083)
    await bot.get_partial_messageable(thread.id).send("back")  # a post unarchives
    assert not thread.archived
    with pytest.raises(discord.Forbidden):  # locking takes MANAGE_THREADS
        await cached.edit(locked=True)
    with pytest.raises(discord.Forbidden):
        await cached.delete()

    moderator = FakeRole(12345, "moderator", MANAGE_THREADS)
    fake.guild.roles[moderator.id] = moderator
    fake.guild.members[fake.bot_user.id].roles.append(moderator.id)
    await cached.delete()
    assert thread.deleted and fake.threads(fake.channel) == []
    assert fake.thread(thread.id) is thread
    await fake.wait_until(lambda: guild.get_thread(thread.id) is None, what="THREAD_DELETE")
    with pytest.raises(AssertionError, match="deleted"):
        await fake.slash("alice", thread, "demo where")


async def test_a_bot_without_the_members_intent_hears_of_its_own_roles_only(
        fake_discord: FakeDiscord, bot: DemoBot) -> None:
    """GUILD_MEMBER_UPDATE is a GUILD_MEMBERS event, but the bot's own member's reaches a
    bot without the intent (discord.js#4952, nostrum#298: see the fake's
    set_member_roles): the bot sees its own roles change, not another member's."""
    fake = fake_discord
    heard: list[int] = []

    async def on_member_update(before: discord.Member, after: discord.Member) -> None:
        heard.append(after.id)

    bot.add_listener(on_member_update)
    role = await fake.add_role("dealer")
    await fake.set_member_roles(fake.user("alice").id, [role.id])
    await fake.set_member_roles(fake.bot_user.id, [role.id])
    await fake.wait_until(lambda: heard, what="the bot's own member update")
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and [r.id for r in guild.me.roles][1:] == [role.id]
    assert heard == [fake.bot_user.id]


async def test_active_threads_come_back_after_a_restart(
    fake_discord: FakeDiscord, error_logs: ErrorLogCapture
) -> None:
    fake = fake_discord
    async with running_bot(fake, DemoBot()) as first:
        channel = text_channel(first, fake)
        kept = await channel.create_thread(name="kept", type=discord.ChannelType.public_thread)
        closed = await channel.create_thread(name="closed", type=discord.ChannelType.public_thread)
        await closed.edit(archived=True)
    async with running_bot(fake, DemoBot()) as second:
        guild = second.get_guild(fake.guild.id)
        assert guild is not None
        assert [t.id for t in guild.threads] == [kept.id]
        assert guild.threads[0].me is not None  # the bot's membership came with it
        assert (await fake.slash("bob", kept.id, "demo where")).content.startswith("Thread")
        active = await guild.active_threads()
        assert [t.id for t in active] == [kept.id]


async def test_a_lobby_opens_its_own_thread(fake_discord: FakeDiscord, bot: DemoBot) -> None:
    fake = fake_discord
    it = await fake.slash("alice", None, "demo table", {"name": "Table 3"})
    lobby = it.message
    assert lobby is not None
    await fake.wait_until(lambda: lobby.edit_count == 1, what="the lobby's link")
    thread = fake.thread(lobby)
    assert lobby.content == f"table Table 3: <#{thread.id}>"
    assert (thread.id, thread.name, thread.auto_archive_duration) == (lobby.id, "Table 3", 60)
    assert [m.content for m in fake.messages(thread)] == ["", "first deal"]
    assert [m.content for m in fake.messages(fake.channel)] == [lobby.content]
    where = await fake.slash("bob", thread, "demo where")
    assert where.content == f"Thread {thread.id} in TextChannel {fake.channel.id}"


# ------------------------------------------------------------------------------ shards
class ShardBot(commands.AutoShardedBot):
    """Runs some shards (or, with none given, every shard /gateway/bot recommends) and
    answers /where with the shard that received the interaction."""

    def __init__(self, shard_ids: list[int] | None = None, shard_count: int | None = None,
                 sync: bool = True) -> None:
        super().__init__(command_prefix="!", intents=bot_intents(), help_command=None,
                         shard_ids=shard_ids, shard_count=shard_count)
        self.sync = sync

        @self.tree.command(name="where", description="the shard of this server")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    async def setup_hook(self) -> None:
        if self.sync:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        """No 5 s wait between the shards' IDENTIFYs: the fake has no such limit."""


def two_shard_fake() -> tuple[FakeDiscord, Any, Any]:
    fake = FakeDiscord(shard_count=2)
    first = fake.add_guild("Shard Zero", shard=0)
    second = fake.add_guild("Shard One", shard=1)
    return fake, first, second


async def test_each_shard_gets_its_own_guilds_and_their_interactions(
        error_logs: ErrorLogCapture) -> None:
    fake, first, second = two_shard_fake()
    assert ((first.id >> 22) % 2, (second.id >> 22) % 2) == (0, 1)
    await fake.start()
    try:
        async with running_bot(fake, ShardBot([0], 2)) as zero, \
                running_bot(fake, ShardBot([1], 2, sync=False)) as one:
            shards = [p["shard"] for p in fake.identify_payloads]
            assert sorted(shards) == [[0, 2], [1, 2]]
            assert zero.get_guild(first.id) is not None and zero.get_guild(second.id) is None
            assert one.get_guild(second.id) is not None and one.get_guild(first.id) is None
            for guild, shard in ((first, 0), (second, 1)):
                it = await fake.slash("alice", guild.text_channels[0], "where")
                assert it.content == f"shard {shard}"
            # every INTERACTION_CREATE went out once, on its guild's shard only
            sent = [p for p in fake.gateway_sent if p["t"] == "INTERACTION_CREATE"]
            assert len(sent) == 2
    finally:
        await fake.stop()


async def test_without_shard_settings_one_bot_runs_every_recommended_shard(
        error_logs: ErrorLogCapture) -> None:
    fake, first, second = two_shard_fake()
    await fake.start()
    try:
        async with running_bot(fake, ShardBot()) as bot:
            assert bot.shard_count == 2  # GET /gateway/bot's recommendation
            assert sorted(p["shard"] for p in fake.identify_payloads) == [[0, 2], [1, 2]]
            for guild, shard in ((first, 0), (second, 1)):
                it = await fake.slash("alice", guild.text_channels[0], "where")
                assert it.content == f"shard {shard}"
    finally:
        await fake.stop()


async def test_no_interaction_reaches_a_shard_nobody_runs(error_logs: ErrorLogCapture) -> None:
    fake, first, second = two_shard_fake()
    await fake.start()
    try:
        async with running_bot(fake, ShardBot([0], 2)):
            with pytest.raises(AssertionError, match="shard"):
                await fake.slash("alice", second.text_channels[0], "where")
    finally:
        await fake.stop()


async def _dm_with_a_button(bot: discord.Client, fake: FakeDiscord) -> int:
    """The bot sends alice a DM with one button ("dm:x"): the message's id."""
    channel = await bot.create_dm(discord.Object(id=fake.user("alice").id))
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", custom_id="dm:x"))
    return (await channel.send("ping", view=view)).id


async def test_dm_interactions_reach_shard_zero_alone(error_logs: ErrorLogCapture) -> None:
    """https://discord.com/developers/docs/events/gateway#sharding: "Gateway events that
    do not contain a guild_id will only be sent to the first shard (shard_id: 0). This
    includes Direct Message (DM) ... events". A click in a DM reaches the process of
    shard 0, whichever process sent the message; with no shard 0 connected, Discord
    has nobody to send it to (the fake refuses the click)."""
    fake, first, second = two_shard_fake()
    await fake.start()
    try:
        async with running_bot(fake, ShardBot([0], 2)) as zero, \
                running_bot(fake, ShardBot([1], 2, sync=False)) as one:
            seen: dict[int, list[int]] = {0: [], 1: []}
            for n, bot in ((0, zero), (1, one)):
                async def note(interaction: discord.Interaction, n: int = n) -> None:
                    seen[n].append(interaction.id)
                bot.add_listener(note, "on_interaction")
            message = await _dm_with_a_button(one, fake)
            it = await fake.click("alice", message, "dm:x", wait=False)
            await fake.wait_until(lambda: bool(seen[0]), 5, "shard 0 to get the click")
            assert seen == {0: [it.id], 1: []}
        async with running_bot(fake, ShardBot([1], 2, sync=False)):
            with pytest.raises(AssertionError, match="no bot is connected"):
                await fake.click("alice", message, "dm:x", wait=False)
    finally:
        await fake.stop()


async def test_an_impossible_shard_is_refused(error_logs: ErrorLogCapture) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        error = await start_bot_expecting_failure(fake, ShardBot([2], 2), fake.token)
        assert isinstance(error, discord.ConnectionClosed) and error.code == 4010
    finally:
        await fake.stop()
