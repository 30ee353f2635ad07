"""The ratings a move commits with it: a move that finishes a deal rates the game's
matches not rated yet (`GameKind.rating_matches` beyond the count the store holds), by
who sat at the seats when the deal began and at the move's time; a deal abandoned
unfinished (a cancel, or a table whose members all left it: README, "Ratings") is rated
a forfeit, a loss, for the members who caused its end alone (`DealSeats.forfeits`).
The rating rows go into the move's own commit (`record_action`'s `ratings`): a refused
commit leaves the ratings as they were, a restart rates nothing twice.

The moves that rate at one guild's tables take turns (`guild`, a lock per guild), so an
update is never computed from ratings another is about to change (a guild's tables all
live in this process: the one that owns its shard).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from typing import Any

from bot.store.models import GameRating, RatingUpdate
from bot.tables import deal_seats
from bot.tables.rating_book import book_of, month_of
from bot.tables.shared import Shared
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Rater:
    """Rates the matches a move finishes, one move of a guild at a time."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared  # the store
        self._locks: dict[int, asyncio.Lock] = {}

    def guild(self, guild_id: int) -> asyncio.Lock:
        """Held from reading a guild's ratings to committing the update."""
        return self._locks.setdefault(guild_id, asyncio.Lock())

    async def update(self, table: Table, game: Any, deal: deal_seats.DealSeats,
                     now: float, forfeit: Collection[int] = ()) -> RatingUpdate | None:
        """The ratings of the game's matches not rated yet (those the move finished, or
        any a failed rating left behind), rated at `now` to who sat at the seats when
        the `deal` began (its covered seats clamped), to commit with the move; then
        the unfinished deal as a loss for the members at the `forfeit` seats (an
        abandoned deal; the deal's other members are logged as absent from that
        forfeit, so `rerate` spares them too). None
        if there is nothing to rate. The store's read fails the move
        as its commit would; a failure of the rating itself (a bug) is logged and the
        move goes on unrated: the matches are rated with the next move that ends one,
        and `rerate` rebuilds from the records whatever happens here."""
        kind = table.kind
        try:
            matches = kind.rating_matches(game)
            pool = kind.rating_pool(table.rules)
        except Exception:
            log.exception("could not map the matches of table %s for ratings", table.id)
            return None
        month = month_of(now)
        members = [user for user in deal.seats if not isinstance(user, str)]
        state = await self.shared.store.rating_state(table.id, table.guild_id, pool, month,
                                              members)
        new = matches[state.rated:]
        spared = frozenset(seat for seat, who in enumerate(deal.seats)
                           if seat not in forfeit and not isinstance(who, str))
        forfeit = [seat for seat in sorted(set(forfeit))
                   if not isinstance(deal.seats[seat], str) and seat not in deal.absent]
        if not new and not forfeit:
            return None
        try:
            book = book_of(table.guild_id, pool, month, state.counted, state.ratings,
                           state.seasons)
            logged = tuple(book.rate(pool, match, deal.seats, now, deal.covered,
                                     absent=deal.absent) for match in new)
            if forfeit:
                logged += (book.rate(pool, None, deal.seats, now, deal.covered,
                                     forfeit=True, absent=deal.absent | spared),)
        except Exception:
            log.exception("could not rate the matches of table %s", table.id)
            return None
        return book.update([GameRating(table.id, pool, state.rated, logged)])
