"""The store's public methods, written once for both backends.

:class:`StoreFront` is the public interface of :class:`bot.store.base.Store`, written
once on top of ``_read``/``_write`` (which each backend supplies with its connection
and transaction handling): each method turns its arguments into plain values and runs
one program (:mod:`bot.store.program`; the programs live in :mod:`.games`,
:mod:`.moves`, :mod:`.results`, :mod:`.settings` and :mod:`.daily`, by section). A
method mostly runs the program of its own name (``create_game`` runs
:func:`.games.create_game`): the programs are public in their sections, which the
store's layers keep private to the store, so that no module takes another's underscored
names (tests/test_layout.py). The boards' methods (leaderboards, a member's totals, the
ratings) are :class:`.front_boards.BoardsFront`'s, which StoreFront inherits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Self

from .daily import (
    daily_abandon,
    daily_begin,
    daily_day,
    daily_day_rules,
    daily_finish,
    daily_fix_day,
    daily_ladder,
    daily_last_day,
    daily_open_days,
    daily_play,
    daily_results,
    daily_save,
    daily_score_day,
    daily_scored,
    daily_started,
    set_daily_day,
)
from .front_boards import BoardsFront
from .games import (
    add_posts,
    cancel_game,
    create_game,
    games_where,
    mark_posted,
    pending_posts,
    set_meta,
    set_rules,
    update_seats,
)
from .models import (
    PANEL_TOKEN_LIFE,
    DailyDay,
    DailyPlay,
    GameRow,
    GameStatus,
    PanelRow,
    Post,
    PostRow,
    RatingUpdate,
    ResultRow,
    SeatInfo,
)
from .moves import (
    action_count,
    add_hand,
    append_actions,
    load_record,
    record_action,
    set_turn_since,
)
from .results import (
    finish_game,
    guilds,
)
from .settings import (
    MEMBER_SETTINGS_SQL,
    bot_value,
    delete_panels,
    guild_language,
    json_value,
    member_language,
    panels,
    prune_panels,
    save_panel,
    set_guild_language,
    set_guild_settings,
    set_member_language,
    set_member_setting,
)
from .values import (
    actions_json,
    checked_results,
    deal_json,
    dumps,
    member_key,
)

# ------------------------------------------------------------------ the front


class StoreFront(BoardsFront):
    """The store's public methods (:class:`bot.store.base.Store`), written once; the
    boards' (leaderboards, ratings) in :class:`.front_boards.BoardsFront`. A backend
    subclasses it and supplies ``_read(program, *args)`` and ``_write(program, *args)``:
    run ``program(dialect, *args)``, as a read or as one transaction (joining the task's
    ``transaction()`` block if it has one)."""

    _clock: Callable[[], float]

    def _now(self) -> float:
        return float(self._clock())

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ----------------------------------------------------------------------- games

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: dict[str, Any],
        first_dealer: int,
        seats: Sequence[SeatInfo],
        meta: dict[str, Any] | None = None,
        *,
        game: str,
    ) -> int:
        """Create an active game of kind ``game`` and return its id. Raises
        ``ChannelBusyError`` if the channel already has an active game."""
        row = (guild_id, game, channel_id, host_id, dumps(rules), first_dealer,
               dumps(meta or {}))
        return await self._write(create_game, row, list(seats), self._now())

    async def update_seats(self, game_id: int, seats: Sequence[SeatInfo]) -> None:
        """Replace the game's seats (e.g. a player replaced by an AI)."""
        await self._write(update_seats, game_id, list(seats), self._now())

    async def set_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        """Replace the game's ``meta`` JSON (lobby info, message ids, timers)."""
        await self._write(set_meta, game_id, dumps(meta), self._now())

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        """Replace the rules of a game that has not started (its lobby changed them)."""
        await self._write(set_rules, game_id, dumps(rules), self._now())

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._read(games_where, "g.id = $1", game_id)
        return games[0] if games else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        games = await self._read(games_where, "g.channel_id = $1 AND g.status = 'active'",
                                 channel_id)
        return games[0] if games else None

    async def unfinished_games(self) -> list[GameRow]:
        """Every active game, oldest first: what to reload after a restart."""
        return await self._read(games_where, "g.status = 'active'")

    async def active_games_of_user(self, user_id: int) -> list[GameRow]:
        """The active games in which ``user_id`` holds a seat."""
        return await self._read(
            games_where,
            "g.status = 'active' AND g.id IN (SELECT game_id FROM game_seats "
            "WHERE user_id = $1)",
            user_id)

    async def last_game_in_channel(self, channel_id: int, status: GameStatus
                                   ) -> GameRow | None:
        """The channel's newest game with that status (e.g. its last finished one)."""
        games = await self._read(
            games_where,
            "g.id = (SELECT id FROM games WHERE channel_id = $1 AND status = $2 "
            "ORDER BY id DESC LIMIT 1)",
            channel_id, status)
        return games[0] if games else None

    # --------------------------------------------------------------- hands/actions

    async def add_hand(self, game_id: int, hand_index: int, deal: dict[str, Any]) -> None:
        """Store hand ``hand_index``'s deal: the record's hand object without
        ``actions``. Hands must be added in order 0, 1, 2...; the game must be active."""
        await self._write(add_hand, game_id, hand_index, deal_json(deal), self._now())

    async def append_action(
        self, game_id: int, hand_index: int, seq: int, action: dict[str, Any]
    ) -> None:
        """Append one action (exactly the record's action object) as number ``seq``
        of hand ``hand_index``. ``seq`` must be the next one (0, 1, 2...); a repeated
        ``seq`` raises ``DuplicateActionError``. Committed when this returns."""
        await self.append_actions(game_id, hand_index, seq, [action])

    async def append_actions(
        self, game_id: int, hand_index: int, first_seq: int, actions: Sequence[dict[str, Any]]
    ) -> None:
        """Append ``actions`` as numbers ``first_seq, first_seq + 1, ...`` of hand
        ``hand_index`` in one transaction (all or none)."""
        texts = actions_json(actions)
        await self._write(append_actions, game_id, hand_index, first_seq, texts,
                          self._now())

    async def record_action(
        self,
        game_id: int,
        hand_index: int,
        seq: int,
        action: dict[str, Any],
        *,
        next_deal: dict[str, Any] | None = None,
        results: Sequence[ResultRow] | None = None,
        posts: Sequence[Post] = (),
        turn_since: float | None = None,
        ratings: RatingUpdate | None = None,
    ) -> None:
        """Everything one accepted move writes, as ONE atomic commit:
        ``append_action(game_id, hand_index, seq, action)``, then, if given,
        ``add_hand(game_id, hand_index + 1, next_deal)``, then, if ``results`` is not
        None, ``finish_game(game_id, results)``, then the ``posts`` into the outbox,
        then ``turn_since`` (``set_turn_since``), then the ``ratings`` of the matches
        the move finished (``write_ratings``). Same checks and errors as those methods;
        all or nothing; committed when this returns."""
        texts = actions_json([action])
        deal_text = deal_json(next_deal) if next_deal is not None else None
        result_rows = checked_results(results) if results is not None else None
        post_rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(record_action, game_id, hand_index, seq, texts, deal_text,
                          result_rows, post_rows, turn_since, ratings, self._now())

    async def set_turn_since(self, game_id: int, since: float) -> None:
        """When the turn to play began (epoch seconds by the bot's clock): a turn
        timer runs from it, across restarts (``GameRow.turn_since``)."""
        await self._write(set_turn_since, game_id, since)

    async def action_count(self, game_id: int, hand_index: int) -> int:
        """How many actions hand ``hand_index`` has (the next ``seq``)."""
        return await self._read(action_count, game_id, hand_index)

    async def load_record(self, game_id: int, *, record_format: str) -> dict[str, Any]:
        """The game's record: ``format`` (the caller's: the game's own record format),
        ``rules``, ``first_dealer`` and ``hands`` (each deal with its ordered actions)."""
        return await self._read(load_record, game_id, record_format)

    # ---------------------------------------------------------------------- outbox

    async def add_posts(self, game_id: int, posts: Sequence[Post]) -> None:
        """Put posts in the outbox of a game, outside a move."""
        rows = [(p.kind, dumps(p.params)) for p in posts]
        await self._write(add_posts, game_id, rows, self._now())

    async def pending_posts(self, game_id: int | None = None) -> list[PostRow]:
        """Posts not yet marked as posted, oldest first: of one game, or of all."""
        return await self._read(pending_posts, game_id)

    async def mark_posted(self, post_id: int, message_id: int | None) -> None:
        """The post is done: ``message_id`` is the message posted, or None if it could
        not be posted."""
        await self._write(mark_posted, post_id, message_id, self._now())

    # -------------------------------------------------------------- end of a game

    async def finish_game(self, game_id: int, results: Sequence[ResultRow]) -> None:
        """Mark the game finished and record one result per seated human, adding them
        to the members' totals in the same transaction. ``GameNotActiveError`` if the
        game was already finished or cancelled, so a game is never counted twice."""
        await self._write(finish_game, game_id, checked_results(results), self._now())

    async def cancel_game(self, game_id: int, posts: Sequence[Post] = ()) -> bool:
        """Cancel an active game (its record is kept, no results), with the `posts` it
        obliges the bot to make, in one transaction. Returns False if it was already
        finished or cancelled."""
        rows = [(p.kind, dumps(p.params)) for p in posts]
        return await self._write(cancel_game, game_id, self._now(), rows)

    async def games_of_guild(self, guild_id: int) -> list[GameRow]:
        """Every game of a guild, whatever its status, oldest first."""
        return await self._read(games_where, "g.guild_id = $1", guild_id)

    async def guilds(self) -> list[int]:
        """The guilds that have games."""
        return await self._read(guilds)

    # ------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        """The guild's settings dict for one game kind; ``{}`` if never set."""
        return await self._read(json_value, "SELECT settings FROM guild_settings "
                                "WHERE guild_id = $1 AND game = $2", guild_id, game)

    async def set_guild_settings(
        self, guild_id: int, game: str, settings: dict[str, Any]
    ) -> None:
        """Replace the guild's settings dict for one game kind."""
        await self._write(set_guild_settings, guild_id, game, dumps(settings), self._now())

    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language the guild chose (a code such as ``"nb"``), or None."""
        return await self._read(guild_language, guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the guild's language; None forgets the choice."""
        await self._write(set_guild_language, guild_id, language, self._now())

    async def get_member_language(self, user_id: int) -> str | None:
        """The language a member chose for what they alone read, in every server
        (/language), or None: their Discord's."""
        return await self._read(member_language, user_id)

    async def set_member_language(self, user_id: int, language: str | None) -> None:
        """Choose a member's own language; None forgets the choice."""
        await self._write(set_member_language, user_id, language, self._now())

    # --------------------------------------------------------- member settings

    async def get_member_settings(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """What a member chose for themselves in a server (``{}`` if nothing yet)."""
        return await self._read(json_value, MEMBER_SETTINGS_SQL, guild_id, user_id)

    async def set_member_setting(self, guild_id: int, user_id: int, key: str,
                                 value: Any) -> None:
        """Set one of a member's settings in a server (a JSON value); None removes it.
        The member's other settings stay as they are (one atomic update)."""
        await self._write(set_member_setting, guild_id, user_id, member_key(key),
                          dumps(value) if value is not None else None, self._now())

    # ----------------------------------------------------------- followed panels

    async def save_panel(self, table_id: int, user_id: int, application_id: int,
                         token: str, language: str, since: float) -> None:
        """The hand panel ``user_id`` has open at ``table_id`` is the answer to the
        interaction of ``token`` (made at ``since``), drawn in ``language``."""
        await self._write(save_panel,
                          (table_id, user_id, application_id, token, language, since))

    async def panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> list[PanelRow]:
        """The stored panels whose token is younger than ``max_age`` seconds at ``now``,
        oldest first."""
        return await self._read(panels, now - max_age)

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """``user_id``'s panel at ``table_id`` is no longer followed."""
        await self._write(delete_panels, table_id, user_id)

    async def delete_panels(self, table_id: int) -> None:
        """No panel of ``table_id`` is followed any more (its game is over)."""
        await self._write(delete_panels, table_id, None)

    async def prune_panels(self, now: float, max_age: float = PANEL_TOKEN_LIFE) -> int:
        """Forget the panels whose token has run out at ``now``; returns how many."""
        return await self._write(prune_panels, now - max_age)


    # ------------------------------------------------------- the deal of the day

    async def daily_play(self, guild_id: int, game: str, day: str,
                         user_id: int) -> DailyPlay | None:
        """A member's play of a day's deal, or None if they have not begun it."""
        return await self._read(daily_play, guild_id, game, day, user_id)

    async def daily_begin(self, guild_id: int, game: str, day: str, user_id: int,
                          name: str, actions: Sequence[dict[str, Any]]) -> DailyPlay:
        """Begin a member's play of the day with `actions` (the AI players' before the
        member's first turn), or return the one they have: one try per member per day."""
        return await self._write(daily_begin, guild_id, game, day, user_id, name,
                                 dumps(list(actions)), self._now())

    async def daily_save(self, guild_id: int, game: str, day: str, user_id: int,
                         before: int, actions: Sequence[dict[str, Any]]) -> None:
        """Store the play's actions now; StoreError unless it is unfinished and still
        had `before` actions (a second click at once is refused, not applied twice)."""
        await self._write(daily_save, guild_id, game, day, user_id, before,
                          dumps(list(actions)), self._now())

    async def daily_finish(self, guild_id: int, game: str, day: str, user_id: int,
                           before: int, actions: Sequence[dict[str, Any]], *,
                           channel_id: int, rules: dict[str, Any], first_dealer: int,
                           seats: Sequence[SeatInfo],
                           hands: Sequence[dict[str, Any]], meta: dict[str, Any],
                           score: Sequence[int]) -> int:
        """The play's last actions, its result and its game record (`hands`: each deal
        as the record keeps it, with its actions; the game finished), in one commit;
        returns the record's game id. The same checks as `daily_save`."""
        hand_rows = [(deal_json({k: v for k, v in hand.items() if k != "actions"}),
                      actions_json(hand.get("actions", ()))) for hand in hands]
        return await self._write(daily_finish, guild_id, game, day, user_id, before,
                                 channel_id, dumps(rules), first_dealer, list(seats),
                                 hand_rows, dumps(meta), dumps(list(actions)),
                                 dumps(list(score)), self._now())

    async def daily_results(self, guild_id: int, game: str, first_day: str, last_day: str
                            ) -> list[tuple[str, int, str, tuple[int, ...] | None]]:
        """The finished plays from `first_day` to `last_day` ('YYYY-MM-DD', included):
        (day, member, name, score), by day then member; an abandoned play's score None."""
        return await self._read(daily_results, guild_id, game, first_day, last_day)

    async def daily_scored(self, guild_id: int, game: str, first_day: str,
                           last_day: str) -> set[str]:
        """The days of the range whose matchpoints are stored (`daily_score_day`)."""
        return await self._read(daily_scored, guild_id, game, first_day, last_day)

    async def daily_score_day(self, guild_id: int, game: str, day: str,
                              points: Sequence[tuple[int, str, float]]) -> None:
        """Store a day that is over's matchpoints, (member, name, matchpoints) each, once
        (a day scored already is left as it is)."""
        await self._write(daily_score_day, guild_id, game, day, list(points))

    async def daily_ladder(self, guild_id: int, game: str, period: str, first_day: str,
                           last_day: str, min_days: int
                           ) -> tuple[set[str], list[tuple[int, str, float, int]]]:
        """The days from `first_day` to `last_day` that are scored, and (member, name,
        summed matchpoints, days) of a ladder's `period` (`ladder_period`), members with
        at least `min_days` days scored: one read."""
        return await self._read(daily_ladder, guild_id, game, period, first_day,
                                last_day, min_days)

    async def daily_started(self, guild_id: int, game: str, day: str) -> int:
        """How many members began the day's deal."""
        return await self._read(daily_started, guild_id, game, day)

    async def daily_day(self, guild_id: int, game: str, day: str) -> DailyDay | None:
        """Where the day's public message is, and what it last showed."""
        return await self._read(daily_day, guild_id, game, day)

    async def set_daily_day(self, guild_id: int, game: str, day: str, channel_id: int,
                            message_id: int | None, shown: str) -> None:
        await self._write(set_daily_day, guild_id, game, day, channel_id, message_id,
                          shown)

    async def daily_fix_day(self, guild_id: int, game: str, day: str,
                            settings: dict[str, Any], ends_at: float
                            ) -> tuple[dict[str, Any], float]:
        """The day's rules and end, fixed by the first to ask: the stored ones, else
        `settings` and `ends_at`, stored now."""
        return await self._write(daily_fix_day, guild_id, game, day, dumps(settings),
                                 ends_at)

    async def daily_day_rules(self, guild_id: int, game: str, day: str
                              ) -> tuple[dict[str, Any], float] | None:
        """The day's fixed rules and end, or None if nobody fixed them."""
        return await self._read(daily_day_rules, guild_id, game, day)

    async def daily_last_day(self, guild_id: int, game: str) -> tuple[str, float] | None:
        """The latest day whose rules are fixed, and its end."""
        return await self._read(daily_last_day, guild_id, game)

    async def daily_open_days(self) -> list[tuple[int, str, str]]:
        """(server, game, day) of every day message not closed yet (for the start)."""
        return await self._read(daily_open_days)

    async def daily_abandon(self, guild_id: int, game: str, day: str, at: float) -> int:
        """The day's unfinished plays finished `at` as abandoned (no score); how many."""
        return await self._write(daily_abandon, guild_id, game, day, at)

    async def bot_value(self, name: str, fresh: str) -> str:
        """The bot's own value `name` (e.g. the daily's secret), `fresh` if it had none."""
        return await self._write(bot_value, name, fresh)
