"""A channel where the bot may not show a table (issue 25: "a channel the bot cannot see
freezes silently"): slash commands and buttons work there all the same (interactions
need no channel access), but every post and edit of the table would be refused. So
`new` (with and without `thread:true`) and the lobby's Start (its button and its command)
read the bot's permissions from the interaction (`app_permissions`) and refuse with one
sentence that names what is missing, in the user's language; nothing is created, and
the bot never meets a 403.
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
(app_permissions: "Bitwise set of permissions the app has within the channel the
interaction was sent from")"""

from __future__ import annotations

import pytest

from bot.app import AmerikanerBot
from bot.games import GAMES
from tests.e2e.driver import NAMES
from tests.fake_discord import (
    ATTACH_FILES,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FakeDiscord,
)
from tests.fake_discord.permissions import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS

# (denied, what the refusal names: Discord's names, in the order the bot names them;
# for a table in a thread of its own). Without View Channel the bot has no permission at
# all in the channel, and without Send Messages neither Embed Links nor Attach Files
# (Discord's implicit permissions; a thread needs Send Messages in Threads instead, and
# one may be started where members may not post: None).
DENIED = [
    (VIEW_CHANNEL, "View Channel, Send Messages, Embed Links, Attach Files, "
                   "Read Message History",
     "View Channel, Send Messages in Threads, Embed Links, Attach Files, "
     "Read Message History, Create Public Threads"),
    (SEND_MESSAGES, "Send Messages, Embed Links, Attach Files", None),
    (EMBED_LINKS, "Embed Links", "Embed Links"),
    (ATTACH_FILES, "Attach Files", "Attach Files"),
    (READ_MESSAGE_HISTORY, "Read Message History", "Read Message History"),
]
NORWEGIAN = {"View Channel": "Vis kanal", "Send Messages": "Send meldinger",
             "Embed Links": "Bygg inn lenker", "Attach Files": "Legg ved filer",
             "Read Message History": "Les meldingshistorikk"}


def refusal(names: str) -> str:
    plural = "permissions" if "," in names else "permission"
    return f"I cannot play here: I am missing the {plural} {names} in this channel."


def assert_no_403(fake: FakeDiscord) -> None:
    refused = [(r.method, r.path, e) for r, e in fake.client_errors if r.status == 403]
    assert not refused, refused


@pytest.mark.parametrize(("denied", "names", "in_thread"), DENIED,
                         ids=["view", "send", "embed", "attach", "history"])
@pytest.mark.parametrize("game", list(GAMES))  # every registered game
async def test_new_names_what_is_missing(fake: FakeDiscord, bot: AmerikanerBot, game: str,
                                         denied: int, names: str, in_thread: str | None
                                         ) -> None:
    await fake.set_bot_permissions(fake.channel, deny=denied)
    for thread, missing in ((False, names), (True, in_thread)):
        if missing is None:
            continue
        it = await fake.slash("alice", None, f"{game} new", {"thread": thread})
        assert it.callback.ephemeral and it.content == refusal(missing), thread
    assert bot.tables.registry.in_channel(fake.channel.id) is None
    assert not fake.threads(fake.channel)
    assert not [m for m in fake.messages() if not m.interaction_id]  # nothing posted
    assert_no_403(fake)


async def test_a_thread_needs_the_rights_to_start_one_and_post_in_it(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await fake.set_bot_permissions(fake.channel, deny=CREATE_PUBLIC_THREADS)
    it = await fake.slash("alice", None, "amerikaner new", {"thread": True})
    assert it.content == refusal("Create Public Threads")
    await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES_IN_THREADS)
    it = await fake.slash("alice", None, "amerikaner new", {"thread": True})
    assert it.content == refusal("Send Messages in Threads")
    assert not fake.threads(fake.channel)
    assert bot.tables.registry.in_channel(fake.channel.id) is None
    # Without a thread the table needs neither.
    it = await fake.slash("alice", None, "amerikaner new", {"thread": False})
    assert not it.callback.ephemeral and bot.tables.registry.in_channel(fake.channel.id) is not None
    # A channel where only threads are started (no Send Messages) takes a table's thread.
    other = await fake.add_channel("threads-only")
    await fake.set_bot_permissions(other, deny=SEND_MESSAGES)
    it = await fake.slash("bob", other, "american new", {"thread": True})
    await fake.wait_until(lambda: it.followups, what="the link to the thread")
    (thread,) = fake.threads(other)
    assert bot.tables.registry.in_channel(thread.id) is not None
    assert any(m.embeds and m.buttons() for m in fake.messages(thread))  # the lobby
    assert_no_403(fake)


async def test_the_refusal_speaks_norwegian(fake: FakeDiscord, bot: AmerikanerBot) -> None:
    fake.user("alice").locale = "no"
    await fake.set_bot_permissions(fake.channel, deny=SEND_MESSAGES)
    it = await fake.slash("alice", None, "american new")
    names = ", ".join(NORWEGIAN[n] for n in ("Send Messages", "Embed Links", "Attach Files"))
    assert it.content == (f"Jeg kan ikke spille her: jeg mangler tillatelsene {names} i "
                          "denne kanalen.")
    await fake.set_bot_permissions(fake.channel, deny=READ_MESSAGE_HISTORY)
    it = await fake.slash("alice", None, "american new")
    assert it.content == ("Jeg kan ikke spille her: jeg mangler tillatelsen "
                          "Les meldingshistorikk i denne kanalen.")


@pytest.mark.parametrize("via", ["button", "command"])
async def test_start_names_what_is_missing(fake: FakeDiscord, bot: AmerikanerBot, via: str
                                           ) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 3})
    lobby = new.message
    assert lobby is not None
    for name in NAMES[1:3]:
        await fake.click_label(name, fake.message(lobby), "Join")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    # A moderator takes the bot's rights away while the lobby waits.
    await fake.set_bot_permissions(fake.channel, deny=ATTACH_FILES)
    if via == "button":
        it = await fake.click_label("alice", fake.message(lobby), "Start")
    else:
        it = await fake.slash("alice", None, "amerikaner start")
    assert it.callback.ephemeral and it.content == refusal("Attach Files")
    assert table.stage == "lobby" and table.game is None
    # Given back, the host starts.
    await fake.set_bot_permissions(fake.channel)
    it = await fake.click_label("alice", fake.message(lobby), "Start")
    assert it.response_type == 7 and table.stage == "playing"
    assert_no_403(fake)
