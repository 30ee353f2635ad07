"""What a member sees on a phone (issue 52's "done when"): the real bot's messages, as
the strict fake keeps them, drawn at a phone's width (tests/fake_discord/snapshot.py)
and screenshotted by Debian's Chromium, in English and Norwegian: (a) the table
message of a table paused because every human is away, (b) the deal of the day's
panel mid-play, after a trick was won, (c) the daily's result. The PNGs are saved
under the test's tmp dir and, when AMERIKANER_SCREENSHOTS names a folder, there too
(for a person to look at). The result fits about one phone screen (<= 900 px), and the
paused table says nothing of an AI playing."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import AmerikanerBot
from bot.i18n import _ as translate
from bot.i18n import use_locale
from bot.render import seat_names
from bot.tables.table import Seat
from tests.debian import apt_install, can_install, install_lock
from tests.e2e.harness import bot_running
from tests.e2e.test_activity_browser import chromium  # noqa: F401 - Debian's Chromium
from tests.e2e.test_daily import DailyDriver, _open
from tests.e2e.test_honest_pause import _in, _paused_by_both, _speak
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.layout import layout as phone_layout
from tests.fake_discord.snapshot import PhoneCamera, render_html

# The daily's AI on 4 worlds, not 24 (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("few_daily_worlds")

EMOJI_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
RESULT_MAX = 900  # px: about one phone screen (844) with the header's scroll


@pytest.fixture(scope="session", autouse=True)
def emoji_font() -> None:
    """Debian's colour emoji (the bot's ⏸, 🃏...), installed when missing as the
    `chromium` fixture installs Chromium; without it they are drawn as empty boxes
    (the screenshots still are taken)."""
    if not EMOJI_FONT.exists() and can_install():
        with install_lock():
            if not EMOJI_FONT.exists():
                apt_install("fonts-noto-color-emoji")


def _names(fake: FakeDiscord) -> dict[int, str]:
    return {u.id: u.global_name or u.name for u in [*fake.users, fake.bot_user]}


def _channels(fake: FakeDiscord) -> dict[int, str]:
    return {c.id: c.name for g in fake.guilds.values() for c in g.channels.values()}


def _command(fake: FakeDiscord, words: str, language: str) -> str:
    """A slash command as the member's app names it ("/amerikaner dagens-giv" in
    Norwegian): each word by the registered command's name_localizations."""
    locale = "no" if language == "nb" else "en-US"
    head, *rest = words.split()
    command = fake.commands()[head]
    shown = [(command.get("name_localizations") or {}).get(locale) or head]
    options = command.get("options") or []
    for word in rest:
        option: dict[str, Any] = next((o for o in options if o.get("name") == word), {})
        shown.append((option.get("name_localizations") or {}).get(locale) or word)
        options = option.get("options") or []
    return "/" + " ".join(shown)


class Album:
    """Screenshots of messages, saved under the tmp dir and AMERIKANER_SCREENSHOTS."""

    def __init__(self, fake: FakeDiscord, camera: PhoneCamera, tmp_path: Path) -> None:
        self.fake, self.camera = fake, camera
        self.folders = [tmp_path / "screenshots"]
        extra = os.environ.get("AMERIKANER_SCREENSHOTS")
        if extra:
            self.folders.append(Path(extra))
        for folder in self.folders:
            folder.mkdir(parents=True, exist_ok=True)
        self.heights: dict[str, int] = {}

    async def take(self, name: str, message: StoredMessage, command: str | None = None,
                   language: str = "en") -> int:
        message = self.fake.message(message)
        invoker = None
        if message.interaction_metadata is not None:
            user = message.interaction_metadata["user"]
            invoker = user.get("global_name") or user.get("username")
        page = render_html(message, names=_names(self.fake), channels=_channels(self.fake),
                           now=self.fake.clock.time(), invoker=invoker, command=command,
                           language=language)
        png, height = await self.camera.shoot(page)
        for folder in self.folders:
            (folder / f"{name}.png").write_bytes(png)
            (folder / f"{name}.html").write_text(page, encoding="utf-8")
        self.heights[name] = height
        model = phone_layout(message, header=invoker is not None)
        line = f"{name}: {height} px drawn; the phone model (layout.py): {model}\n"
        print(line, end="")
        for folder in self.folders:
            with (folder / "heights.txt").open("a", encoding="utf-8") as notes:
                notes.write(line)
        return height


async def _daily_mid_play(fake: FakeDiscord, bot: AmerikanerBot, name: str
                          ) -> tuple[DailyDriver, StoredMessage]:
    """`name` opens the deal of the day and plays, one move at a time, until a trick
    has been won (the AI's answers included): the panel then."""
    driver = DailyDriver(fake, lambda: bot, fake.channel, 7, name)
    panel = await _open(fake, name)
    for _move in range(40):
        panel = await driver.play(panel, moves=1)
        await driver.sync()
        hand = driver.table.game.hands[-1]
        if driver.finished or hand.tricks_done >= 1:
            break
    assert not driver.finished and driver.table.game.hands[-1].tricks_done >= 1
    return driver, fake.message(panel)


async def _finish(fake: FakeDiscord, driver: DailyDriver, panel: StoredMessage,
                  language: str) -> StoredMessage:
    """Plays the deal to its end (as DailyPlaying.play, whose wait for the result reads
    English): the result, once shown."""
    while not driver.finished:
        seat = driver.table.seat_of(fake.user(driver.name).id)
        assert seat is not None and driver.table.to_act == seat
        try:
            await driver.act(driver.name, seat, fake.message(panel))
        except AssertionError:
            await driver.sync()
            if not driver.finished:
                raise
        await driver.sync()
    title = _in(language, lambda: translate("Deal of the day: {game}, {day}")
                ).split(":")[0]
    return await fake.wait_until(lambda: (m := fake.message(panel)).embeds and any(
        title in (e.get("title") or "") for e in m.embeds) and m, 30, "the result")


@pytest.mark.parametrize("language", ["en", "nb"])
async def test_phone_screenshots(fake: FakeDiscord, tmp_path: Path, error_logs: Any,
                                 language: str) -> None:
    _speak(fake, language)
    async with bot_running(fake, tmp_path / "db.sqlite3", daily_secret="e2e") as bot, \
            PhoneCamera() as camera:
        bot.tables.shared.rng = random.Random(41)  # the same table every run
        album = Album(fake, camera, tmp_path)
        # (a) alice and bob away: the table waits (their third seat is an AI's).
        table, _answer = await _paused_by_both(fake, bot, language)
        await fake.wait_until(lambda: table.message_id is not None
                              and fake.message(table.message_id).edit_count > 0
                              and table.paused, 10, "the paused table message")
        await fake.wait_until(lambda: _in(language, lambda: seat_names(
            [Seat(1, "x", away=True)], paused=True)[0])[1:]
            in fake.message(table.message_id or 0).text(), 10, "the seats marked away")
        paused = fake.message(table.message_id or 0)
        await album.take(f"paused_table_{language}", paused,
                         _command(fake, "amerikaner new", language), language)
        ai_plays = _in(language, lambda: seat_names([Seat(1, "x", away=True)])[0])[1:]
        assert ai_plays not in paused.text(), paused.text()
        assert "AI plays" not in paused.text() and "AI-en spiller" not in paused.text()
        # (b) carol's deal of the day after a trick was won, (c) her result.
        driver, panel = await _daily_mid_play(fake, bot, "carol")
        command = _command(fake, "amerikaner daily", language)
        await album.take(f"daily_mid_play_{language}", panel, command, language)
        result = await _finish(fake, driver, panel, language)
        height = await album.take(f"daily_result_{language}", result, command, language)
        print(f"heights ({language}): {album.heights}")
        assert height <= RESULT_MAX, album.heights


@pytest.mark.parametrize("language", ["en", "nb"])
async def test_the_paused_tables_picture_says_nothing_of_an_ai_playing(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any, language: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture the bot draws of a paused table marks its away seats "away" only, as
    the text under it does (the screenshots showed "(away, AI plays)" on it)."""
    from cogs.tables.views import PAINTER, table_picture

    drawn: list[Any] = []

    async def keep(scene: Any) -> None:
        drawn.append(scene)

    _speak(fake, language)
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        table, _answer = await _paused_by_both(fake, bot, language)
        ai_plays = _in(language, lambda: seat_names([Seat(1, "x", away=True)])[0])[1:]
        away = _in(language, lambda: seat_names([Seat(1, "x", away=True)], paused=True)[0])[1:]
        monkeypatch.setattr(PAINTER, "table", keep)
        with use_locale(language):
            await table_picture(table)
        words = "\n".join(drawn[-1].texts())
        assert ai_plays not in words and away in words, words
