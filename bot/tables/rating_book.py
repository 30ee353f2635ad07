"""Rating matches into the stored rows: the one function the service (as a move finishes
matches) and `rerate` (replaying the records) both run, so both write the same numbers.

Platform code: it knows no game, only `RatedMatch`es (bot.tables.ratings) and who sat
at each seat: a member's id (rated) or an AI seat's level (fixed at `MODEL.ai(level)`).

Only a member's own play can raise their rating (README, "Ratings"). A match is rated to
whoever sat at each seat when its deal began (`seats`, kept by
bot/tables/deal_seats.py), whatever happened to the seat later. A member away when the
deal began (`absent`) had no part in it: it is not rated for them at all, whatever they
do later in it (coming back to a hand they have looked at included), so sitting out can
neither win nor lose anything. A seat the AI played for at any point of a deal its
member began (a timeout, away, a seat handed over: `covered`) is rated as usual and then
CLAMPED: its member's rating may fall (the result against the others, as if they had
played it) but never rises, and the deal does not count among their rated hands (those
they played themselves). So an AI, however strong, never earns a member anything, and
going idle on a losing deal never avoids the loss: an honest idle member and one farming
the AI end alike. The others at the table are rated as having played the cover (the
pool's strongest AI, at its fixed rating) at an absent or covered seat. A deal abandoned
unfinished (a cancel mid-deal, or a table all of whose members left it: `forfeit`) is a
loss for the members who caused its end (who ended it, who left it: the service says
which, bot/tables/deal_seats.py `forfeits`; the others are passed as `absent`), each
rated last against the others, clamped the same way: the platform cannot tell who was
winning an unfinished deal, and no one, the host least, can escape a deal by ending the
game, nor cost the others anything by it.

Seasons: a month ('YYYY-MM', UTC, by the bot's clock) is a season of its own that starts
afresh: every member's first match of the month is rated from `MODEL.initial()`, against
the other members' ratings of that month. So a month's board says who played best that
month (a newcomer can top it; an old lead does not carry it), it depends on that month's
matches alone, and it is stored as it is played, never recomputed from today's ratings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.store.models import (
    DayRow,
    GameRating,
    LoggedMatch,
    RatingRow,
    RatingUpdate,
    Seated,
)
from bot.tables.ratings import MODEL, RatedMatch, Rating, RatingModel, min_rated

_Lookup = Callable[[int], RatingRow | None]  # a member's stored row, or None

TREND_DAYS = 30  # `stats` shows how the rating moved over this many days


def month_of(at: float) -> str:
    """The season of a moment (epoch seconds): 'YYYY-MM', UTC."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m")


def day_of(at: float) -> str:
    """The day of a moment (epoch seconds): 'YYYY-MM-DD', UTC."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


def trend_start(now: float) -> str:
    """The day whose end the 30-day trend is measured from."""
    return day_of(now - TREND_DAYS * 86400)


@dataclass
class RatingBook:
    """The ratings of one guild that some updates read and write, in memory: rows by
    (pool, member) all time and by (pool, month, member) for seasons. `rate` rates one
    match into it; `update` is what changed, for the store. The service fills it with
    what one game's update reads (RatingState); `rerate` with everything, from nothing."""

    guild_id: int
    counted: int  # the guild's rated matches so far: the next match's number
    ratings: dict[tuple[str, int], RatingRow] = field(default_factory=dict)
    seasons: dict[tuple[str, str, int], RatingRow] = field(default_factory=dict)
    model: RatingModel = MODEL
    min_hands: int | None = None  # None: the pool's own (ratings.min_rated)
    _counted_before: int = field(init=False)
    _changed: set[tuple[str, int]] = field(default_factory=set, init=False)
    _changed_seasons: set[tuple[str, str, int]] = field(default_factory=set, init=False)
    _days: dict[tuple[str, int, str], DayRow] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._counted_before = self.counted

    def rate(self, pool: str, match: RatedMatch | None, seats: Sequence[Seated],
             at: float, covered: Iterable[int] = (), forfeit: bool = False,
             absent: Iterable[int] = ()) -> LoggedMatch:
        """Rate `match` (played by `seats`, who sat there when its deal began, at the
        bot's time `at`) in `pool`, all time and in its month's season; `covered`: the
        seats the AI played for during the deal; `forfeit`: the deal was abandoned
        unfinished (`match` is then not used, and may be None); `absent`: the seats
        whose member was away when the deal began (not rated: it was never theirs).
        Returns it as the game's log keeps it."""
        number = self.counted
        self.counted += 1
        month = month_of(at)
        absent = tuple(sorted(set(absent)))
        covered = tuple(sorted(set(covered) | set(absent)))
        members = [seat for seat in range(len(seats))
                   if not _is_ai(seats[seat]) and seat not in absent]
        if not forfeit:
            assert match is not None
            members = [seat for seat in members if seat in match.seats]
        clamped = set(members) if forfeit else set(covered)
        new = self._rated_all(pool, match, seats, members, forfeit, set(covered),
                              lambda user: self.ratings.get((pool, user)))
        for seat in members:
            user = int(seats[seat])
            row = self._row(self.ratings.get((pool, user)), pool, user, new[seat], at,
                            clamped=seat in clamped)
            if row is None:
                continue
            self.ratings[(pool, user)] = row
            self._changed.add((pool, user))
            self._days[(pool, user, day_of(at))] = DayRow(pool, user, day_of(at), row.mu,
                                                         row.sigma, row.ordinal)
        new = self._rated_all(pool, match, seats, members, forfeit, set(covered),
                              lambda user: self.seasons.get((pool, month, user)))
        for seat in members:
            user = int(seats[seat])
            key = (pool, month, user)
            row = self._row(self.seasons.get(key), pool, user, new[seat], at, month,
                            clamped=seat in clamped)
            if row is None:
                continue
            self.seasons[key] = row
            self._changed_seasons.add(key)
        return LoggedMatch(number, at, tuple(seats),
                           tuple(seat for seat in covered if seat not in absent), forfeit,
                           absent)

    def _rated_all(self, pool: str, match: RatedMatch | None, seats: Sequence[Seated],
                   members: Sequence[int], forfeit: bool, covered: set[int],
                   stored: _Lookup) -> list[Rating]:
        """Every seat's new rating: by the match, or for a forfeit each member's as if
        they alone had finished last (all computed from the ratings before it). A
        covered member's is what their own rating says of the result (clamped by the
        caller); the others are rated as having played the cover (the pool's strongest
        AI, at its fixed rating), whose play it was: so a strong cover's wins cost them
        what losing to that AI costs, not what losing to a weak member would."""
        if not forfeit:
            assert match is not None
            own = self._rated(pool, match, seats, stored)
            if not covered:
                return own
            cover = self.model.cover(pool)
            by_cover = self._rated(pool, match, [cover if seat in covered else who
                                                 for seat, who in enumerate(seats)], stored)
            return [own[seat] if seat in covered else by_cover[seat]
                    for seat in range(len(seats))]
        out = self._rated(pool, None, seats, stored)
        for seat in members:
            others = tuple(other for other in range(len(seats)) if other != seat)
            if not others:
                continue
            lost = RatedMatch(teams=((seat,), *((other,) for other in others)),
                              ranks=(1, *(0 for _ in others)))
            out[seat] = self._rated(pool, lost, seats, stored)[seat]
        return out

    def _rated(self, pool: str, match: RatedMatch | None, seats: Sequence[Seated],
               stored: _Lookup) -> list[Rating]:
        ratings = []
        for seat in seats:
            if _is_ai(seat):  # fixed at its level's rating in this game's pool
                ratings.append(self.model.ai(str(seat), pool))
            else:
                row = stored(int(seat))
                ratings.append(self.model.initial() if row is None
                               else Rating(row.mu, row.sigma))
        if match is None:
            return ratings
        return self.model.rate(match, ratings, [_is_ai(seat) for seat in seats])

    def _row(self, old: RatingRow | None, pool: str, user: int, new: Rating, at: float,
             month: str | None = None, *, clamped: bool = False) -> RatingRow | None:
        """The member's row after a match; None if it does not change (a clamped seat
        whose result would not have lowered them)."""
        hands = (old.hands if old is not None else 0) + (0 if clamped else 1)
        if clamped:
            before = self.model.initial() if old is None else Rating(old.mu, old.sigma)
            kept = covered(before, new)
            if kept is None:
                return None
            new = kept
        return RatingRow(pool=pool, user_id=user, mu=new.mu, sigma=new.sigma,
                         ordinal=new.ordinal, hands=hands,
                         ranked=hands >= (min_rated(pool) if self.min_hands is None
                                          else self.min_hands),
                         updated_at=at, month=month)

    def update(self, games: Iterable[GameRating]) -> RatingUpdate:
        """What the matches rated so far changed, for the store, with the games' logs."""
        return RatingUpdate(
            guild_id=self.guild_id, counted_before=self._counted_before, games=tuple(games),
            ratings=tuple(self.ratings[key] for key in sorted(self._changed)),
            seasons=tuple(self.seasons[key] for key in sorted(self._changed_seasons)),
            days=tuple(self._days[key] for key in sorted(self._days)))


def covered(before: Rating, after: Rating) -> Rating | None:
    """A covered member's rating after a deal (`after`: as if they had played it): the
    loss, with no gain of certainty (the rating falls by at least as much as the mean),
    or None, unchanged, if it would not have lowered them: the AI's play earns the
    member nothing. bench/ratings.py --absent applies the same."""
    if after.mu >= before.mu:
        return None
    return Rating(after.mu, max(after.sigma, before.sigma))


def _is_ai(seat: Seated) -> bool:
    return isinstance(seat, str)


def seated(seats: Iterable[tuple[int | None, str | None]]) -> tuple[Seated, ...]:
    """Who sits at each seat, as a log keeps it, from (user id or None, AI level): a
    member (an away member too: the deal stays theirs, clamped) or an AI."""
    return tuple(user if user is not None else (level or "") for user, level in seats)


def book_of(guild_id: int, pool: str, month: str, counted: int,
            ratings: Mapping[int, RatingRow], seasons: Mapping[int, RatingRow]
            ) -> RatingBook:
    """A book holding what one game's update read (RatingState's parts)."""
    return RatingBook(guild_id, counted,
                      ratings={(pool, user): row for user, row in ratings.items()},
                      seasons={(pool, month, user): row for user, row in seasons.items()})
