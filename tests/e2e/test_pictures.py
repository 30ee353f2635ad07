"""Pictures through the fake Discord: the table message carries a picture of the table,
kept current as the game goes on, a few tens of KB; the final standings a chart of the
running totals; a table (or a server) without pictures gets none."""

from __future__ import annotations

import io

from PIL import Image

from bot.app import AmerikanerBot
from bot.render.pictures import CHART_SIZE, TABLE_SIZE
from tests.e2e.driver import ButtonDriver, choose_ai, table_message, wait_game_over
from tests.fake_discord import FakeDiscord, StoredMessage

KB = 1024


def _picture(message: StoredMessage, name: str) -> Image.Image:
    (attachment,) = [a for a in message.attachments if a.filename == name]
    assert len(attachment.data) < 80 * KB, len(attachment.data)
    assert message.embeds[0]["image"]["url"] == f"attachment://{name}"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image


async def _start(fake: FakeDiscord, options: dict[str, object]) -> None:
    new = await fake.slash("alice", None, "amerikaner new", options)
    assert new.message is not None
    await fake.click_label("bob", new.message, "Join")
    await choose_ai(fake, "alice", new.message, "fill")
    await fake.click_label("alice", new.message, "Start")


async def test_the_table_message_shows_a_current_picture_and_the_end_a_chart(
        fake: FakeDiscord, bot: AmerikanerBot) -> None:
    await _start(fake, {"players": 4, "target": 1})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    first = await fake.wait_until(
        lambda: table_message(fake).attachments and table_message(fake), 5.0, "a picture")
    picture = _picture(first, "table.png")
    assert picture.format == "PNG" and picture.size == TABLE_SIZE  # made for a phone
    before = first.attachments[0].data
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=3)
    for _ in range(3):
        await driver.step()
    await fake.wait_until(lambda: table_message(fake).attachments
                          and table_message(fake).attachments[0].data != before, 5.0,
                          "the picture to follow the game")
    await driver.play_to_end()
    await wait_game_over(fake, table)
    final = await fake.wait_until(
        lambda: next((m for m in fake.messages() if m.embeds
                      and m.embeds[0].get("title", "").startswith("Game over")), None),
        5.0, "the final standings")
    chart = _picture(final, "totals.png")
    assert chart.size == CHART_SIZE


async def test_no_pictures_when_the_table_says_so(fake: FakeDiscord, bot: AmerikanerBot
                                                  ) -> None:
    await _start(fake, {"players": 3, "target": 1, "pictures": False})
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    await ButtonDriver(fake, lambda: bot, fake.channel, seed=2).play_to_end()
    await wait_game_over(fake, table)
    assert not any(m.attachments for m in fake.messages())
    assert not any(e.get("image") for m in fake.messages() for e in m.embeds)
