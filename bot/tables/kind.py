"""GameKind: everything the table platform knows of a game.

The table service, the store and the shared cog handle every game through this protocol
and never import one: a game is a package under `bot/games/` that provides a GameKind
(registered in `bot.games.GAMES`), and its state, rules, actions and views stay opaque
values here. A game's record is a list of deals, each stored with its actions; a new
deal is dealt as the last one ends, so that there is never a moment without one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from bot.errors import GameError
from bot.tables.panel import Panel
from bot.tables.ratings import RatedMatch
from bot.tables.scene import Scene

__all__ = ["CARD_LISTS", "Applied", "CardChoice", "GameKind", "GameWords", "Hint", "Panel",
           "Scene", "SeatResult", "choices_of", "record_key"]

# The keys of an action's record form that hold a list of cards: a move of several cards
# (a discard, an exchange, a swap's two rows).
CARD_LISTS = ("cards", "hand", "up")


class Applied(NamedTuple):
    """What one accepted action did, for the store and the table."""

    deal_index: int  # the deal the action was applied to
    seq: int  # its number within that deal
    action: dict[str, Any]  # the action as the record stores it
    deal_finished: bool  # the deal ended with it
    next_deal: dict[str, Any] | None  # the next deal, already dealt, as the record stores it
    # A moment players want to look at the table before the next move (a trick was
    # completed): the AI pauses a little longer before its next action.
    pause: bool = False


class Hint(NamedTuple):
    """The strong AI's move for a seat, and why, for that player alone."""

    action: Any  # the move, as the game's cog marks it among the panel's controls
    sentence: str  # the move and its reason, in the player's words


class CardChoice(NamedTuple):
    """A move of several cards, offered whole instead of as each of its combinations
    (a discard of 4 of 17 cards is 2,380): the record's `action`, each card list of its
    record form with every card it may take (record notation, sorted), and the counts of
    the first list's cards it allows."""

    action: str
    parts: tuple[tuple[str, tuple[str, ...]], ...]
    counts: tuple[int, ...]


def record_key(record: Mapping[str, Any]) -> str:
    """An action's identity in its record form, as a page names it: without the seat (the
    member's, never the page's), its card lists in one order, one canonical string."""
    out = {k: v for k, v in record.items() if k != "seat"}
    for key in CARD_LISTS:
        if isinstance(out.get(key), list):
            out[key] = sorted(str(card) for card in out[key])
    return json.dumps(out, sort_keys=True)


def choices_of(records: Iterable[tuple[Any, Mapping[str, Any]]]
               ) -> tuple[list[Any], list[CardChoice]]:
    """Legal actions (each with its record form) as a page is offered them: the single
    moves (a bid, a card, a move of no cards), and the moves of several cards grouped by
    their `action` into CardChoices, each with every card of each list and the counts of
    the first list (GameKind.legal_choices' default: every combination enumerated)."""
    singles: list[Any] = []
    groups: dict[str, tuple[Any, dict[str, set[str]], set[int]]] = {}
    for action, record in records:
        lists = [key for key in CARD_LISTS if isinstance(record.get(key), list)]
        if not lists or not any(record[key] for key in lists):
            singles.append(action)
            continue
        name, parts, counts = groups.setdefault(str(record.get("action")),
                                                (record.get("action"), {}, set()))
        for key in lists:
            parts.setdefault(key, set()).update(record[key])
        counts.add(len(record[lists[0]]))
    return singles, [CardChoice(name, tuple((key, tuple(sorted(cards)))
                                            for key, cards in parts.items()),
                                tuple(sorted(counts)))
                     for name, parts, counts in groups.values()]


class SeatResult(NamedTuple):
    """A seat's result in a finished game: for leaderboards and member statistics."""

    seat: int
    place: int  # 1 for the winner(s); seats with equal results share a place
    points: int
    won: bool
    stats: dict[str, int]  # the game's own statistics (summed per member by the store)


class GameKind(Protocol):
    """A game, as the table platform sees it. `rules` and `game` are the game's own
    values; actions are whatever its cog builds. Refusals raise `bot.errors.GameError`
    with a stable code and change nothing.

    Its words are one object, `words` (GameWords below); a game writes its kind by
    subclassing bot/games/base.py's GameKindBase, which gives defaults for most of this."""

    # Its values are read-only properties here: the platform only reads them, and a game
    # may declare them as class variables (a property of the base, `record_format`).

    @property
    def name(self) -> str:
        """The registry key, stored with every game ("amerikaner")."""
        ...

    @property
    def record_format(self) -> str:
        """The "format" of the game's records: the store stamps it on the records it reads
        back for this game (Store.load_record), it knows no game's format itself."""
        ...

    @property
    def ai_levels(self) -> tuple[str, ...]:
        """The AI players a seat can be given, weakest first: the last one covers a human
        whose turn timed out (bot.tables.table.cover_level)."""
        ...

    @property
    def default_players(self) -> int:
        """The seats of a new table when nobody says."""
        ...

    @property
    def words(self) -> GameWords:
        """Everything of the game a player reads."""
        ...

    @property
    def players_range(self) -> tuple[int, int]:
        """The fewest and the most seats a table of the game may have (`new` offers them)."""
        ...

    @property
    def target_range(self) -> tuple[int, int]:
        """The lowest and the highest target a table may play to (`new` offers them)."""
        ...

    @property
    def presets(self) -> tuple[str | None, ...]:
        """The presets `make_rules` takes (None: the game's default); named ones are
        offered by `new`, `settings` and `rules`."""
        ...

    @property
    def house_rule_keys(self) -> tuple[str, ...]:
        """Every house rule `new` may switch on or off, by key, in the order offered."""
        ...

    @property
    def fallback_level(self) -> str:
        """The AI level that takes a seat its human left (the game's weakest)."""
        ...

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Any:
        """The rules of a new table (the game's default preset for None)."""
        ...

    def rules_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def house_rules(self, rules: Any) -> list[tuple[str, str, bool]]:
        """The house rules a table with these rules may switch, each (its key, what it
        does in plain words, whether it is on)."""
        ...

    def with_house_rules(self, rules: Any, chosen: Sequence[str]) -> Any:
        """These rules with exactly the house rules `chosen` on (keys of `house_rules`);
        a combination the game refuses raises GameError."""
        ...

    def players(self, rules: Any) -> int:
        """How many seats a table with these rules has."""
        ...

    def new_game(self, rules: Any, first_dealer: int, rng: random.Random
                 ) -> tuple[Any, dict[str, Any]]:
        """A new game with its first deal dealt, and that deal as the record stores it."""
        ...

    def load(self, record: Mapping[str, Any]) -> Any:
        """The game of a record, replayed (a record that does not replay raises): the
        store's (`Store.load_record`), or the game's own (`record`)."""
        ...

    def record(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """The game's record in its own format (what export gives and replay reads), from
        the store's: `format`, `rules`, `first_dealer` and `hands`, each deal as `new_game`
        and `apply` gave it, with its `actions`."""
        ...

    def version(self, game: Any) -> int:
        """How many actions the game has had: the state version buttons are drawn for."""
        ...

    def to_act(self, game: Any) -> int | None:
        """The seat to act, or None when nobody is to (the game is over)."""
        ...

    def finished(self, game: Any) -> bool: ...

    def copy(self, game: Any) -> Any:
        """A copy of the game that `apply` may change without touching `game`: the table
        service applies an action to a copy and keeps it only once the store has
        committed the action (cheap: it runs on every move)."""
        ...

    def apply(self, game: Any, action: Any, rng: random.Random) -> Applied:
        """Apply `action` (for the seat it names); deal the next deal if this one ends
        and the game goes on. Refused whole (GameError) or done whole."""
        ...

    def results(self, game: Any) -> list[SeatResult]:
        """Every seat's result, once the game is finished."""
        ...

    def public_view(self, game: Any) -> Any:
        """What everyone may see."""
        ...

    def seat_view(self, game: Any, seat: int) -> Any:
        """What `seat` may see, with its legal actions when it is to act."""
        ...

    def hand_cards(self, game: Any, seat: int) -> tuple[int, ...]:
        """The cards in `seat`'s own hand, as its seat view holds them (what the
        Activity's page lays out for that player alone; bot/web); () for none."""
        ...

    def legal_actions(self, game: Any, seat: int) -> list[Any]:
        """Every legal action of `seat` now (none when it is not to act): the default hand
        panel's controls (cogs/tables/api.py), the terminal game's moves, the tests'."""
        ...

    def action_to_json(self, action: Any) -> Mapping[str, Any]:
        """An action as the record stores it (what `words.describe_action` reads)."""
        ...

    def legal_choices(self, game: Any, seat: int) -> tuple[list[Any], list[CardChoice]]:
        """`seat`'s legal actions now as the Activity's page offers them: the single moves
        (in `legal_actions`' order), and each move of several cards as one CardChoice
        (`choices_of` of every legal action; a game whose moves of several cards are many
        describes them without enumerating them)."""
        ...

    def legal_action(self, game: Any, seat: int, record: Mapping[str, Any]) -> Any | None:
        """The legal action of `seat` now whose record form, without the seat, is
        `record` (its card lists in any order: `record_key`), or None: what a page's move
        names, checked by the game (the first such in `legal_actions`' order)."""
        ...

    def choose_action(self, game: Any, seat: int, level: str, rng: random.Random) -> Any:
        """The action of the AI player `level` for `seat`, from that seat's view only.
        Run in a worker thread: it may take tens of milliseconds."""
        ...

    def fixed_action(self, game: Any, seat: int, level: str, rng: random.Random) -> Any:
        """As `choose_action`, but decided by a fixed amount of work instead of a time
        budget: the same state and random source give the same action on any machine at
        any load (the deal of the day: the same play meets the same answers)."""
        ...

    def claim(self, game: Any, seat: int) -> list[Any]:
        """`seat` claims every remaining trick of the deal: the actions that play the deal out
        (every seat's, in order), to be applied one by one; refused with GameError (stable
        code, a reason) when the claim could fail or may not be made now. Changes nothing."""
        ...

    def can_claim(self, game: Any, seat: int) -> bool:
        """Whether `seat` may claim now (its turn, the moment of the game allows it), as
        everyone can see: whether the claim would hold is `claim`'s to say. A game
        without claims says False."""
        ...

    def rating_matches(self, game: Any) -> list[RatedMatch]:
        """Every finished rated unit of this game so far, in play order (an Amerikaner
        hand, an American deal; bot.tables.ratings): the service rates those beyond the
        count it has already rated, right after the action that finished them, in the same
        commit; `rerate` replays the records through the same function. Pure: it reads
        the game, changes nothing."""
        ...

    def rating_pool(self, rules: Any) -> str:
        """Which rating a game's hands count toward (the game's name for one rating per
        game, or the game and its preset): members' ratings are kept per pool."""
        ...

    def turns_each(self, rules: Any) -> int | None:
        """About how many turns each player takes in a game of these rules (a measured
        figure: bench/game_turns.py), for the lobby's estimate of how long a game over
        days may take at its timer; None: not known."""
        ...

    def hint(self, game: Any, seat: int, rng: random.Random) -> Hint:
        """What the strong AI would do for `seat` now and one short reason, from that
        seat's view only (run in a worker thread). Refused with GameError when the seat
        is not to act."""
        ...

    def running_totals(self, game: Any) -> list[tuple[int, ...]]:
        """Each seat's total after each finished deal, in order (the running-totals
        chart); empty before the first deal ends."""
        ...

    def deal_score(self, game: Any, index: int, seat: int) -> tuple[int, ...]:
        """`seat`'s result in the finished deal `index`, to compare members who played
        the same cards from the same seat (the deal of the day, scored as duplicate,
        bot/tables/daily.py): the larger tuple is the better result, equal ones tie.
        Pure. Refused with GameError for a deal that is not finished."""
        ...


class GameWords(Protocol):
    """A game's words, ONE object (`GameKind.words`): its views turned into what players
    read. `names` are the seats' names as players read them (bot.render.seat_names), in
    seat order; a game never sees a `Table`."""

    def option_label(self, key: str) -> str:
        """A house rule's name as players read it, in their words (`key` stays what
        commands and the menu's values take)."""
        ...

    def title(self, rules: Any) -> str:
        """The game's name as players read it ("Amerikaner")."""
        ...

    def lobby_title(self, rules: Any) -> str:
        """The title of a table waiting for players: the game and its variant."""
        ...

    def options_line(self, rules: Any) -> str:
        """The rules of a table in one line (the lobby shows it)."""
        ...

    def table_panel(self, game: Any, names: Sequence[str]) -> Panel:
        """The public table message of a started game, from its public view."""
        ...

    def table_scene(self, game: Any, names: Sequence[str]) -> Scene:
        """The public table of a started game as a picture's data (bot.render.pictures
        draws it): only what everyone may see, in the reader's words."""
        ...

    def seat_panel(self, game: Any, seat: int, names: Sequence[str],
                   compact: bool = False) -> Panel:
        """What `seat` sees of its own hand and may do now (for that player alone), with
        the table; `compact`: the table in a few lines, so that the panel and its buttons
        fit one phone screen (the hand panel's default; the full one is its Table view)."""
        ...

    def deal_summary(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        """The result of deal `index` (0-based, finished), as everyone may see it."""
        ...

    def deal_review(self, game: Any, index: int, names: Sequence[str]) -> Panel:
        """Deal `index` (0-based) face up, once it is finished: the deal, the kitty and discards
        (or exchanges), and every trick in order with who led and who took it. Refused with
        GameError (code "deal_not_finished") for a deal that is not finished, or a wrong index."""
        ...

    def final_standings(self, game: Any, names: Sequence[str]) -> Panel:
        """The standings of a finished game."""
        ...

    def deal_score_text(self, score: Sequence[int]) -> str:
        """A result of `GameKind.deal_score`, in a few words ("12 points")."""
        ...

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """An action as the record stores it, in a few words ("a bid of 8"): the
        narration of what was done (the recap, the terminal, the history)."""
        ...

    def action_label(self, action: Mapping[str, Any]) -> str:
        """An action as the record stores it, worded as a button offers it: the
        imperative ("Play 7♠", "Bid 7", "Pass"), apart from `describe_action`'s narration
        of what was done. The default hand panel's buttons (cogs/tables/api.py)."""
        ...

    def action_steps(self, actions: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
        """How the default hand panel offers these legal actions (as the record stores
        them, in order): for each, the labels of the steps by which it is chosen, one a
        step. Most actions are one step, their `action_label`; a choice that follows
        another (the call after the card led) is a later step: the panel offers the first
        labels, then, once one is clicked, the next ones of the actions under it. Actions
        sharing their first labels share those steps; a step's labels differ from each
        other. The whole list is given, so that a game words a step by what else is
        offered (a trump step only where some action names a trump)."""
        ...

    def moment_text(self, game: Any, seat: int) -> str | None:
        """When in the play `seat` is to act at `game`, in a few words a player finds the
        move by ("trick 3", "the bidding"), for the deal of the day's advice after
        playing; None: the platform numbers the member's moves instead."""
        ...

    def ai_level_line(self, level: str) -> str | None:
        """What an AI player of `level` (one of GameKind.ai_levels) does in this game, in
        one line of at most 100 characters that a new player reads in the lobby's AI menu
        before choosing; None: the platform's general line for the level."""
        ...

    def recap_facts(self, game: Any, deal: int, start: int, names: Sequence[str]
                    ) -> list[str]:
        """What everyone saw happen in deal `deal` (0-based) from its action `start`
        (0-based, within the deal) on, beyond the plays themselves: a few short phrases
        in the order they happened (who took the tricks, who picked up or burned the
        pile, who went out) and, when the deal has ended, its result ("bob with carol
        made 8"). For "While you were away" (bot/tables/since.py): the platform names
        the plays, the game the facts only it can tell. Public facts only; pure."""
        ...

    def rules_text(self, rules: Any) -> str: ...

    def settings_text(self, settings: Mapping[str, Any], saved: bool) -> str:
        """A server's defaults for new tables of the game (`settings` as its settings
        command stores them: preset, players, target, options, turn_timer); `saved`:
        just changed."""
        ...

    def help_text(self) -> str: ...

    def help_pages(self) -> list[Panel]:
        """A short guide to the game, a page at a time, with an example."""
        ...

    def stats_lines(self, stats: Mapping[str, int]) -> list[str]:
        """A member's summed statistics of this game (SeatResult.stats), in words; a
        counter the store never saw is 0."""
        ...

    def error_text(self, error: GameError) -> str:
        """The sentence for one of the game's refusals, from its code and parameters."""
        ...


class RatedGame(Protocol):
    """What `default_rating_pool` reads of a game (a GameKind, or a game's base class)."""

    @property
    def default_players(self) -> int: ...  # read only: GameKind's is a property

    def make_rules(self, preset: str | None, players: int,
                   options: Mapping[str, object]) -> Any: ...

    def rating_pool(self, rules: Any) -> str: ...


def default_rating_pool(kind: RatedGame) -> str:
    """The rating pool of a game's default rules: the one its boards and stats show and
    its AI levels' fixed ratings are kept in (one pool per game today)."""
    return kind.rating_pool(kind.make_rules(None, kind.default_players, {}))

