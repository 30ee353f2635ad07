"""Norwegian through the fake Discord (issue 27): the lobby's house-rule menu names each
rule in the reader's words (its value stays the key commands take), and a Norwegian
player plays a card typed in Norwegian letters (`rd`, `k10`), the autocomplete offering
the Norwegian names too."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import AmerikanerBot
from bot.cards import card_name
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS
from bot.games.amerikaner.text_table import option_name
from bot.typed_cards import norwegian_notation
from tests.e2e.driver import in_bokmal, lobby_house_menu, norwegian_fake, open_table
from tests.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord whose server is Norwegian, as are alice's and carol's Discord."""
    async for running in norwegian_fake():
        yield running


_nb = in_bokmal


async def test_the_lobby_names_house_rules_in_norwegian(fake: FakeDiscord,
                                                       bot: AmerikanerBot) -> None:
    new = await fake.slash("alice", None, "amerikaner new", {"players": 4})
    lobby = new.message
    assert lobby is not None
    menu = lobby_house_menu(fake, lobby)
    labels = {o["value"]: o["label"] for o in menu["options"]}
    assert set(labels) <= set(BOOLEAN_OPTIONS) and labels
    for key, label in labels.items():
        assert label == _nb(lambda key=key: option_name(key)) and label != key


async def test_a_card_typed_in_norwegian_is_played(fake: FakeDiscord,
                                                  bot: AmerikanerBot) -> None:
    await open_table(fake, ["alice", "bob", "carol"], {"target": 1}, game="american")
    table = bot.tables.registry.in_channel(fake.channel.id)
    assert table is not None
    for _turn in range(60):
        seat = table.to_act
        name = table.seats[seat].name
        legal = table.seat_view(seat).deal.legal
        if legal.phase == "swap":
            await fake.slash(name, None, "american swap", {"hand": "none"})
        elif legal.phase == "flip":
            await fake.slash(name, None, "american flip", {"position": str(legal.indexes[0] + 1)})
        elif not legal.ranks:
            await fake.slash(name, None, "american pickup", {})
        elif name in ("alice", "carol"):  # Norwegian: a card of the lowest rank, suit first
            card = legal.cards_of_rank(legal.ranks[0])[0]
            typed = norwegian_notation(card)
            offered = await fake.autocomplete(name, None, "american play", "cards",
                                              {"cards": typed[:1]})
            assert any(typed in choice["name"] for choice in offered.choices), offered.choices
            version = table.version
            said = await fake.slash(name, None, "american play", {"cards": typed})
            assert table.version > version, said.content
            assert card in table.kind.public_view(table.game).deal.pile or \
                card in table.kind.public_view(table.game).deal.burned
            return
        else:
            card = legal.cards_of_rank(legal.ranks[0])[0]  # English notation
            await fake.slash(name, None, "american play", {"cards": card_name(card)})
        await fake.wait_until(lambda seat=seat: table.to_act != seat or table.game is None)
    raise AssertionError("no Norwegian player got to play")
