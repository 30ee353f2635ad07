"""Every component emoji the bot can send is one Discord knows: a Unicode emoji (as the
`emoji` package lists them) or a custom emoji with an id. Discord refuses a whole
message with any other (`400 50035 ... BUTTON_COMPONENT_INVALID_EMOJI`): U+1F0A0 🂠,
the "My hand" button's first emoji, made every table message fail.
https://discord.com/developers/docs/components/reference#button (emoji: a partial emoji)

The walk builds every view of both games in both languages: the lobby (empty, full, with
AI and house rules), the table message, the deal's summary, the final standings with and
without a rematch, the leaderboard's and the guide's pages, and the hand panel of every
seat at every step of played games, with the Hint and Claim buttons and the steps of an
opening lead (Amerikaner) and of a swap (American)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import emoji
import pytest

from bot.config import Settings
from bot.discord.budget import RequestBudget
from bot.games import GAMES
from bot.i18n import LANGUAGES, use_locale
from bot.render import button_label
from bot.store import open_store
from bot.tables.service import TableService
from bot.tables.table import PLAYING, Table
from cogs import american, amerikaner
from cogs.tables import (
    Components,
    GamesButton,
    HelpButton,
    LeaderboardButton,
    Tables,
    final_view,
    lobby_view,
    ping_view,
    summary_view,
    table_view,
)
from tests.fake_discord.models import iter_components


def _emoji_of(component: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if component.get("emoji"):
        yield component["emoji"]
    for option in component.get("options") or []:
        if option.get("emoji"):
            yield option["emoji"]


def assert_known_emoji(view: discord.ui.View, what: str, seen: set[str] | None = None
                       ) -> int:
    """Every emoji of the view is one Discord accepts; the number checked (each added
    to `seen`)."""
    checked = 0
    for component in iter_components(view.to_components()):
        for partial in _emoji_of(component):
            name = partial.get("name") or ""
            assert partial.get("id") or emoji.is_emoji(name), \
                f"{what}: {name!r} ({' '.join(f'U+{ord(c):04X}' for c in name)})"
            checked += 1
            if seen is not None:
                seen.add(name)
    return checked


def test_the_check_refuses_what_discord_refuses() -> None:
    view = Components()
    view.add_item(discord.ui.Button(label="x", emoji="\U0001F0A0", custom_id="a"))
    with pytest.raises(AssertionError, match="U\\+1F0A0"):
        assert_known_emoji(view, "the old hand button")


class _Walk:
    """The views of one game's tables, rendered in every language."""

    def __init__(self, service: TableService, cog: Tables) -> None:
        self.service = service
        self.cog = cog
        self.checked = 0
        self.views = 0
        self.seen: set[str] = set()

    def check(self, build: Any, what: str) -> None:
        for language in LANGUAGES:
            with use_locale(language):
                self.checked += assert_known_emoji(build(), f"{what} [{language}]",
                                                   self.seen)
                self.views += 1

    def check_table(self, table: Table) -> None:
        self.check(lambda: lobby_view(table) if table.stage != PLAYING else table_view(table),
                   "table message")
        if table.stage != PLAYING:
            return
        for seat in range(len(table.seats)):
            view = table.seat_view(seat)
            self.check(lambda s=seat, v=view: self.cog.panels.hand_controls(table, s, v),
                       f"hand panel of seat {seat}")
        self.check_steps(table)

    def check_steps(self, table: Table) -> None:
        """The panels between a click and its action: the opening lead's trump and call
        (Amerikaner), the face-up cards to take in a swap (American)."""
        seat = table.to_act
        view = table.seat_view(seat) if seat is not None else None
        legal = getattr(view, "legal", None)
        if table.kind.name == "amerikaner" and legal is not None and legal.phase == "lead":
            for card in legal.cards:
                self.check(lambda c=card: amerikaner.lead_trump_components(table, c),
                           "the lead's trump")
                calls = legal.calls_for(card // 13) if card < 52 else ()
                if calls:
                    self.check(lambda c=card, k=calls: amerikaner.call_components(
                        table, c, "led", k), "the lead's call")
        deal = getattr(view, "deal", None)
        swap = getattr(deal, "legal", None)
        if table.kind.name == "american" and swap is not None and swap.phase == "swap" \
                and swap.hand and swap.up:
            self.check(lambda: american.take_components(table, swap.hand[:1], swap.up),
                       "the swap's second step")


async def _walk_game(game: str, preset: str | None, players: int,
                     options: dict[str, object], seed: int) -> _Walk:
    store = await open_store(":memory:")
    service = TableService(store, GAMES, rng=random.Random(seed), ai_delay=3600,
                           trick_pause=0)
    # The cog as the bot builds it (its table-message queue spends the request budget).
    settings = Settings(token="-", edit_delay=0.0)
    bot = SimpleNamespace(tables=service, settings=settings,
                          budget=RequestBudget(settings.request_rate))
    cog = Tables(bot)  # type: ignore[arg-type]
    cog.uis.register("amerikaner", SimpleNamespace(
        hand_components=amerikaner.hand_view_components))  # type: ignore[arg-type]
    cog.uis.register("american", SimpleNamespace(
        hand_components=american.hand_components))  # type: ignore[arg-type]
    walk = _Walk(service, cog)
    table = await service.lobby.create(10, 20, 1, "p1", preset, players, options, game=game,
                                       switches={"hints": True})
    walk.check_table(table)
    await service.lobby.add_ai(table.id, 1, "easy")
    walk.check_table(table)
    for user in range(2, players):
        await service.lobby.join(table.id, user, f"p{user}")
    walk.check_table(table)  # full
    await service.lobby.remove_ai(table.id, 1)
    await service.lobby.join(table.id, players, f"p{players}")
    await service.lobby.start(table.id, 1)
    rng = random.Random(seed)
    kind = table.kind
    deals = 0
    while table.stage == PLAYING:
        walk.check_table(table)
        seat = table.to_act
        assert seat is not None
        user = table.seats[seat].user_id
        result = await service.play.act(table.id, user, table.version,
                                        lambda s: kind.choose_action(table.game, s, "easy", rng))
        if result.deal_finished:
            walk.check(lambda i=deals: summary_view(table, i), "the deal's summary")
            walk.check(lambda: ping_view(table), "a turn ping")
            deals += 1
    walk.check(lambda: final_view(table), "the final standings")
    table.meta["rematch_table"] = 99
    walk.check(lambda: final_view(table), "the final standings, rematch started")

    def pages() -> Components:
        view = Components()
        view.add_item(LeaderboardButton(game, "wins", 1, button_label("previous"), True))
        view.add_item(LeaderboardButton(game, "wins", 2, button_label("next")))
        view.add_item(HelpButton(game, 1, button_label("previous"), True))
        view.add_item(HelpButton(game, 2, button_label("next")))
        view.add_item(GamesButton(2, button_label("next")))
        return view
    walk.check(pages, "leaderboard and guide pages")
    await store.close()
    return walk


@pytest.mark.parametrize(("game", "preset", "players", "options", "seed"), [
    ("amerikaner", "amerikaner", 4, {"target": 10}, 3),
    ("amerikaner", "amerikaner", 4, {"target": 10, "free_trump": True}, 5),
    ("amerikaner", "norsk", 3, {"target": 8}, 7),  # the blind exchange
    ("amerikaner", "kani", 4, {"target": 10}, 9),
    ("american", None, 3, {"swap": True}, 11),
    ("american", None, 2, {"blind_down": True}, 13),
])
async def test_every_component_emoji_is_one_discord_knows(
        game: str, preset: str | None, players: int, options: dict[str, object], seed: int
) -> None:
    walk = await _walk_game(game, preset, players, options, seed)
    # The hand panels carry 🔄 (Refresh) and, for the player to act, 💡 (Hint): a walk
    # that checked few emoji would prove nothing.
    assert walk.views > 100 and walk.checked > walk.views / 2
    every = {"🃏", "🔄", "💡", "🔍", "🔁", "🏆"}
    if game == "amerikaner":
        every |= {"🙌", "↩"}  # Claim, and Back from the lead's steps
    assert every <= walk.seen, walk.seen
