"""The cog's components and autocomplete answers stay within Discord's limits."""

from __future__ import annotations

import discord
import pytest

from bot.render import Panel
from cogs.tables import choices as _choices
from cogs.tables import make_custom_id as _custom_id
from cogs.tables import select_options as _select_options
from cogs.tables import to_embed as _embed


def test_embeds_fit() -> None:
    embed = _embed(Panel(title="t" * 300, description="d" * 5000,
                         fields=tuple(("n", "v" * 2000, False) for _ in range(30)),
                         footer="f" * 3000))
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


def test_select_options_fit() -> None:
    options = _select_options((f"label {i} " * 30, f"v{i}") for i in range(40))
    assert len(options) == 25
    assert all(isinstance(o, discord.SelectOption) and len(o.label) <= 100 for o in options)
    assert [o.value for o in options] == [f"v{i}" for i in range(25)]


def test_choices_fit() -> None:
    choices = _choices([("n" * 300, "short"), ("ok", "v" * 101), *((str(i), str(i))
                                                                  for i in range(40))])
    assert len(choices) == 25
    assert choices[0].name == "n" * 99 + "…" and choices[0].value == "short"
    assert all(len(c.value) <= 100 for c in choices)  # a value is never cut: left out


def test_custom_ids_fit() -> None:
    assert _custom_id("amk", 12, "3:play:10H") == "amk:12:3:play:10H"
    with pytest.raises(ValueError):
        _custom_id("amk", 12, "x" * 100)


@pytest.mark.parametrize(("custom_id", "game", "order", "page", "period"), [
    ("amkl:amerikaner:points:3", "amerikaner", "points", "3", "all"),
    ("amkl:wins:2", None, "wins", "2", "all"),  # sent before there were several games
    ("amkl:american:rating:4", "american", "rating", "4", "all"),
    ("amkl:amerikaner:rating:month:2", "amerikaner", "rating", "2", "month"),
])
def test_leaderboard_buttons_old_and_new_stay_parseable(custom_id: str, game: str | None,
                                                        order: str, page: str,
                                                        period: str) -> None:
    from cogs.tables import LeaderboardButton

    match = LeaderboardButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    assert (match["game"], match["order"], match["page"], match["period"] or "all") == (
        game, order, page, period)
    again = LeaderboardButton(game, order, int(page), period=period)
    assert again.item.custom_id == custom_id
