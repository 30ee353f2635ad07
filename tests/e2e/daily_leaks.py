"""The leak checker's rules for the deal of the day (issue 38), called by `LeakChecker`
(tests/e2e/driver.py) for every message version the bot writes: until a member has
finished their own play of a server's day,

- a panel of their daily (its controls name the daily's table id) shows only what
  their seat may know, by the game's own rules of the checker (Amerikaner's
  `_check_ephemeral`, American's american_leaks.check), in a DM as in a channel;
- nothing else they are shown (ephemeral, DM, or public in that server: the day's
  message) names another member's result (a name with a percentage) or shows a card
  of the day's deal hidden from them (the deal face up);

what each member's play is, the checker learns from the daily's service itself
(`watch`: every state DailyService.open, act and state return, recorded as it is
returned, so before any panel drawn from it is written). Process-wide: the bot of the
e2e tests runs in the test's process (the failover test's processes are checked by
what they wrote to the store, not here)."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.games import GAMES
from bot.tables.daily import DailyService
from bot.tables.daily_deal import DailyState, daily_key
from bot.tables.table import PLAYING, Seat, Table
from tests.fake_discord import StoredMessage

if TYPE_CHECKING:
    from tests.e2e.driver import LeakChecker

_IDS = re.compile(r"amks?:([0-9]+):")
_current: LeakChecker | None = None


def watch(checker: LeakChecker) -> None:
    """Record every daily state the bot's service returns into `checker` (patched
    once per process; the latest checker installed gets them)."""
    global _current
    _current = checker
    if getattr(DailyService, "_leaks_watched", False):
        return
    DailyService._leaks_watched = True  # type: ignore[attr-defined]
    for name in ("open", "act", "state"):
        setattr(DailyService, name, _recording(getattr(DailyService, name)))


def _recording(method: Callable[..., Awaitable[DailyState | None]]
               ) -> Callable[..., Awaitable[DailyState | None]]:
    @functools.wraps(method)
    async def recorded(self: DailyService, *args: Any, **kwargs: Any) -> DailyState | None:
        state = await method(self, *args, **kwargs)
        if state is not None and _current is not None:
            deal = state.deal
            _current.daily_states[(deal.guild_id, deal.game, deal.day,
                                   state.play.user_id)] = state
        return state
    return recorded


def table_of(state: DailyState, table_id: int) -> Table:
    """The member's play as the cog draws it (DailyService.table)."""
    deal = state.deal
    seats = [Seat(state.play.user_id, state.play.display_name) if s == deal.seat
             else Seat(None, "", ai_level=deal.level) for s in range(deal.players_count)]
    return Table(table_id, deal.guild_id, deal.channel_id or 0, state.play.user_id,
                 state.kind, deal.rules, deal.first_dealer, seats, stage=PLAYING,
                 game=state.game)


def check(checker: LeakChecker, msg: StoredMessage, text: str, owner: int | None) -> None:
    """`owner`: the one member who sees `msg` (ephemeral, or their DM); None: public."""
    from tests.e2e.driver import Violation, cards_in_text

    states = checker.daily_states
    if not states:
        return
    fake = checker.fake
    seen = dataclasses.replace(msg, visible_to=owner)
    daily_ids = {int(i): key for i in _IDS.findall(str(msg.components))
                 if (key := daily_key(GAMES, int(i))) is not None}
    for table_id, key in daily_ids.items():
        game, day, guild = key.game, key.day, key.guild_id
        state = states.get((guild, game, day, owner or 0))
        if state is None or state.finished:
            continue
        checker.checked_ephemeral += 1
        checker.checked_ids.add(msg.id)
        table = table_of(state, table_id)
        if game == "american":
            from tests.e2e import american_leaks

            american_leaks.check(checker, table, seen, text)
        elif game == "amerikaner":
            checker._check_ephemeral(table, seen, text)
        else:  # any other game, by its own leak rules (GameKind.secret_cards)
            checker._check_by_kind(table, seen, text)
    if owner is None:
        channel = fake.channels.get(msg.channel_id)
        guild_id = channel.guild_id if channel is not None else None
        running = [s for (g, *_), s in states.items() if g == guild_id and not s.finished]
    else:
        running = [s for (*_, user), s in states.items()
                   if user == owner and not s.finished]
    if owner is None and "Deal of the day" in text:
        checker.checked_public += 1
        checker.checked_ids.add(msg.id)
    if owner is None and guild_id is not None:
        # In public, every member of the server who has not finished (begun or not)
        # reads it: no result of the server's latest day, whoever is playing.
        latest: dict[str, str] = {}
        for (g, game, day, _user) in states:
            if g == guild_id:
                latest[game] = max(day, latest.get(game, day))
        for (g, game, day, _user), s in states.items():
            name = s.play.display_name
            if g == guild_id and day == latest[game] and s.finished and re.search(
                    rf"{re.escape(name)}\W{{0,4}}[0-9]+ ?%", text):
                checker.violations.append(Violation(
                    f"a public message shows {name}'s daily result while the day runs",
                    msg.id, text))
    if not running:
        return
    shown = cards_in_text(text)
    for state in running:
        deal = state.deal
        # Another member's result on this day's deal: their name beside a percentage.
        others = [s.play.display_name for (g, game, day, user), s in states.items()
                  if (g, game, day) == (deal.guild_id, deal.game, deal.day)
                  and s.finished and user != owner]
        for name in others if owner is not None else ():  # public: checked above
            if re.search(rf"{re.escape(name)}\W{{0,4}}[0-9]+ ?%", text):
                checker.violations.append(Violation(
                    f"{'a public message' if owner is None else f'user {owner}'} shown "
                    f"{name}'s daily result before finishing", msg.id, text))
        if daily_ids:
            continue  # a panel of a daily: checked by its game's rules above
        seat = deal.seat if owner is not None else None
        hidden = set(state.kind.secret_cards(state.game, seat)) & shown
        if hidden and (owner is not None or "Deal of the day" in text):
            checker.violations.append(Violation(
                f"{'a public message' if owner is None else f'user {owner}'} shown cards "
                f"of the day's deal hidden from them: {sorted(hidden)}", msg.id, text))
