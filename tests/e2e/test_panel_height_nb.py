"""The hand panel fits one phone screen in Norwegian too (its words are longer): the
worst Amerikaner moment of tests/e2e/test_panel_height.py at a Norwegian server, read by
alice or carol, whose Discord speaks bokmål (American's: in that file)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import AmerikanerBot
from bot.render import button_label
from tests.e2e.driver import NAMES, ButtonDriver, in_bokmal, norwegian_fake
from tests.e2e.test_panel_height import check_fits, mid_trick_with_call, open_panel, play_until
from tests.fake_discord import FakeDiscord

NORWEGIAN = ("alice", "carol")


async def _open(fake: FakeDiscord, game: str, players: int, options: dict[str, object]
                ) -> None:
    """A table opened, joined and started with the Norwegian server's buttons."""
    new = await fake.slash("alice", None, f"{game} new", {"players": players, **options})
    lobby = new.message
    assert lobby is not None
    for name in NAMES[1:players]:
        await fake.click_label(name, fake.message(lobby), in_bokmal(lambda: button_label("join")))
    await fake.click_label("alice", fake.message(lobby), in_bokmal(lambda: button_label("start")))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async for running in norwegian_fake():
        yield running


async def test_a_norwegian_amerikaner_panel_fits_a_phone(fake: FakeDiscord,
                                                         bot: AmerikanerBot) -> None:
    await _open(fake, "amerikaner", 3, {"preset": "amerikaner", "show_kitty": True})
    driver = ButtonDriver(fake, lambda: bot, fake.channel, seed=5, refresh_share=0.0)
    _seat, name = await play_until(driver, mid_trick_with_call, NORWEGIAN)
    panel = await open_panel(fake, name, in_bokmal(lambda: button_label("hand")))
    check_fits(panel, "amerikaner 3 players, kitty shown, bokmål")
    assert in_bokmal(lambda: button_label("table")) in [b.get("label") for b in
                                                         panel.buttons()]
