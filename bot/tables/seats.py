"""Seats at a running game: a member leaves, goes away or comes back; the host hands an
away member's seat to the AI for good or offers it to another member, who accepts or
declines. And how any change of seats is stored (`Seats.save`), in the lobby too: at a
running game a seat that changes hands is covered in the deal being played (which stays
rated to whoever sat there when it began), in the same commit."""

from __future__ import annotations

from typing import Any

from bot.tables import deal_seats
from bot.tables.errors import TableError
from bot.tables.keeping import Keeper
from bot.tables.pauses import Pauses
from bot.tables.play import SeatNamer
from bot.tables.registry import NextTurn
from bot.tables.shared import Shared
from bot.tables.table import (
    GIVEN_AWAY,
    LOBBY,
    OFFER_MESSAGES,
    OFFERS,
    PLAYING,
    Seat,
    Table,
    copied,
    cover_level,
    deal_of,
    keys,
    seat_infos,
)


def _with_offers(meta: dict[str, Any], offers: dict[str, Any], fresh: str | None = None
                 ) -> dict[str, Any]:
    """`meta` holding `offers` (none: no key), with the messages of those left as they
    were (`fresh`: the seat offered anew, its message not posted yet)."""
    out = {key: value for key, value in meta.items()
           if key not in (OFFERS, OFFER_MESSAGES)}
    messages = {seat: message for seat, message in meta.get(OFFER_MESSAGES, {}).items()
                if seat in offers and seat != fresh
                and meta.get(OFFERS, {}).get(seat) == offers[seat]}
    if offers:
        out[OFFERS] = offers
    if messages:
        out[OFFER_MESSAGES] = messages
    return out


def _given_away(meta: dict[str, Any], user_id: int | None, seat: int) -> dict[str, Any]:
    """`meta` noting that the member `user_id` (if any) no longer holds `seat`: the host
    gave it away."""
    given = dict(meta.get(GIVEN_AWAY, {}))
    if user_id is not None:
        given[str(user_id)] = seat
    return {**meta, GIVEN_AWAY: given}


def require_host(table: Table, user_id: int, action: str) -> None:
    """`action`: what the host alone may do (add_ai, remove_ai, replace, start)."""
    if user_id != table.host_id:
        raise TableError("not_host", action=action)


class Seats:
    """Who sits where, stored first."""

    def __init__(self, shared: Shared, keeper: Keeper, pauses: Pauses,
                 seat_name: SeatNamer, next_turn: NextTurn) -> None:
        self.shared = shared  # the store
        self.keeper = keeper
        self.pauses = pauses
        self.seat_name = seat_name
        self.next_turn = next_turn

    async def save(self, table: Table, seats: list[Seat],
                   meta: dict[str, Any] | None = None, *, left: int | None = None,
                   back: int | None = None) -> None:
        """Store `seats` as the table's, then (only then) make them the table's (and
        `meta`, if given, in the same commit). At a running game, the member of seat
        `left` has left the deal by their own doing, the one of seat `back` is back in
        it (bot/tables/deal_seats.py)."""
        meta = table.meta if meta is None else meta
        if table.stage == PLAYING:
            deal = deal_seats.changed_hands(deal_of(table, table.seats), keys(seats))
            deal = deal.leave(left) if left is not None else deal
            deal = deal.returned(back) if back is not None else deal
            meta = deal_seats.to_meta(meta, deal, keys(seats))
        if meta == table.meta:
            await self.keeper.write(table, self.shared.store.update_seats(table.id,
                                                                   seat_infos(seats)))
        else:
            await self.keeper.write(table, self._seats_and_meta(table.id, seats, meta))
            table.meta = meta
        table.seats = seats

    async def _seats_and_meta(self, table_id: int, seats: list[Seat],
                              meta: dict[str, Any]) -> None:
        async with self.shared.store.transaction():
            await self.shared.store.update_seats(table_id, seat_infos(seats))
            await self.shared.store.set_meta(table_id, meta)

    async def _seats_changed(self, table: Table) -> None:
        """After a seat changed at a running game: the absent pause follows, and the
        next turn goes on (the AI plays an away seat's; a member back has their clock)."""
        await self.pauses.follow_seats(table)
        self.next_turn(table)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave a lobby; at a running table, hand the seat to the AI for good (the deal
        being played stays rated to the member, as one the AI covered)."""
        async with self.keeper.changing(table_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            seats = copied(table.seats)
            if table.stage == LOBBY:
                if user_id == table.host_id:
                    raise TableError("host_leaving", game=table.kind.name)
                del seats[seat]
                await self.save(table, seats)
                return table
            # The AI's for good: stored under the name of the member it replaces.
            seats[seat] = Seat(None, seats[seat].name, ai_level=cover_level(table.kind))
            await self.save(table, seats, left=seat)
        await self._seats_changed(table)
        return table

    async def set_away(self, table_id: int, user_id: int, away: bool) -> Table:
        async with self.keeper.changing(table_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                # Their seat given away: say so, not "You are not at this table."
                given = str(user_id) in table.meta.get(GIVEN_AWAY, {})
                raise TableError("not_seated", reason="seat_given" if given else None)
            if table.stage != PLAYING:
                raise TableError("not_started")
            if table.seats[seat].away == away:  # nothing to change: say so, not "done"
                if away:
                    raise TableError("already_away", game=table.kind.name)
                raise TableError("not_away")
            seats = copied(table.seats)
            seats[seat].away = away
            # Back: the seat is the member's own again, nothing kept of the cover; away:
            # the cover the table gets, whatever covered the seat before.
            seats[seat].ai_level = cover_level(table.kind) if away else None
            if away:
                await self.save(table, seats, left=seat)
            else:
                await self.save(table, seats, back=seat)
        await self._seats_changed(table)
        return table

    async def replace(self, table_id: int, user_id: int, seat: int,
                      new_user: tuple[int, str] | None) -> Table:
        """The host hands an away player's seat for good to the AI, or offers it to a
        member (`new_user`: id, name): nobody is seated without their own click, so
        the offer is stored (meta "offers") and the seat changes hands only when they
        accept it (`answer_offer`)."""
        async with self.keeper.changing(table_id) as table:
            require_host(table, user_id, "replace")
            if table.stage != PLAYING:
                raise TableError("not_started")
            if not 0 <= seat < len(table.seats):
                raise TableError("bad_input", reason="no_seat", seat=seat + 1)
            current = table.seats[seat]
            if not current.away:
                raise TableError("not_away", name=self.seat_name(table.seats, seat))
            if new_user is not None:
                if table.seat_of(new_user[0]) is not None:
                    raise TableError("already_seated", reason="someone_else")
                # One live offer per member and table: this one replaces any earlier
                # offer to them, and any earlier offer of this seat (issue 50).
                offers = {key: value for key, value in table.meta.get(OFFERS, {}).items()
                          if value[0] != new_user[0] and key != str(seat)}
                offers[str(seat)] = list(new_user)
                await self.keeper.set_meta(table, _with_offers(table.meta, offers,
                                                               fresh=str(seat)))
                return table
            seats = copied(table.seats)
            # The AI's for good: stored under the name of the human it replaces.
            seats[seat] = Seat(None, current.name, ai_level=cover_level(table.kind))
            await self.save(table, seats, _given_away(table.meta, current.user_id, seat))
        await self._seats_changed(table)
        return table

    async def set_offer_message(self, table_id: int, seat: int, user_id: int,
                                message_id: int) -> None:
        """The message showing the offer of `seat` to `user_id` (posted after the offer
        was stored): kept with the offer, so that the next offer to them, or of the
        seat, deletes it. Nothing if the offer was answered or replaced meanwhile."""
        async with self.keeper.changing(table_id) as table:
            offered = table.meta.get(OFFERS, {}).get(str(seat))
            if offered is None or int(offered[0]) != user_id:
                return
            messages = {**table.meta.get(OFFER_MESSAGES, {}), str(seat): message_id}
            await self.keeper.set_meta(table, {**table.meta, OFFER_MESSAGES: messages})

    async def answer_offer(self, table_id: int, user_id: int, seat: int, accept: bool
                           ) -> Table:
        """`user_id` accepts (takes the seat, from the next deal rated to them: the deal
        being played stays its member's) or declines the seat the host offered them."""
        async with self.keeper.changing(table_id) as table:
            offers = dict(table.meta.get(OFFERS, {}))
            offered = offers.get(str(seat))
            if table.stage != PLAYING or offered is None or offered[0] != user_id:
                raise TableError("not_offered")
            del offers[str(seat)]
            meta = _with_offers(table.meta, offers)
            if not accept:
                await self.keeper.set_meta(table, meta)
                return table
            if not table.seats[seat].away:  # back meanwhile: the seat is theirs again
                raise TableError("not_away", name=self.seat_name(table.seats, seat))
            if table.seat_of(user_id) is not None:
                raise TableError("already_seated")
            seats = copied(table.seats)
            seats[seat] = Seat(user_id, str(offered[1]))
            meta = _given_away(meta, table.seats[seat].user_id, seat)
            meta[GIVEN_AWAY].pop(str(user_id), None)  # seated again
            await self.save(table, seats, meta)
        # A member present again: a table that waited for its members plays on (issue
        # 52: it stayed paused until the host came back).
        await self._seats_changed(table)
        return table
