"""Every word a player reads goes through the translation function (bot.i18n).

* The committed template (messages.pot) holds exactly the messages the code has.
* Under a pseudo-locale that wraps every translation in «…», the texts of a real played
  game (panels, summaries, standings, rules, help, the lobby, the leaderboard, stats and
  every refusal) have no letters outside the markers but seat names, card labels and the
  names players type (presets, options, the top bids): a word that escaped the catalog
  fails here.
* Plurals are right in English.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot.cards import JOKER_BASE, card_label
from bot.errors import GameError
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import load_game
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, PRESETS, Rules
from bot.games.amerikaner.text import describe_action, error_sentence, help_text, rules_text
from bot.i18n import LOCALES, _, install, ngettext, use_locale
from bot.render import (
    error_text,
    leaderboard_panel,
    lobby_panel,
    seat_names,
    stats_panel,
    turn_mention,
)
from bot.render.text import PLATFORM_CODES
from bot.tables import Seat, TableError
from bot.tables.panel import Panel

REPO = Path(__file__).resolve().parent.parent
POT = LOCALES / "messages.pot"
PSEUDO = "qps"  # the customary name of a pseudo-locale
NAMES = ["alice", "bob", "carol", "dave"]


def _extracted() -> dict[object, object]:
    """The messages the code has now, by (id, context), as Babel's extraction finds them
    with the project's mapping (babel.cfg)."""
    with (REPO / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found: dict[object, object] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            str(REPO), method_map, options_map):
        found[(message, context)] = message
    return found


def test_the_template_is_up_to_date() -> None:
    """Regenerate with the command in the README ("Translations") when this fails."""
    with POT.open("rb") as fh:
        template = read_po(fh)
    committed = {(m.id if isinstance(m.id, str) else tuple(m.id), m.context)
                 for m in template if m.id}
    assert committed == set(_extracted())


# ----------------------------------------------------------------- the pseudo-locale

_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def _marked(message: str) -> str:
    """`message` with each piece of its own text between « and », its placeholders left
    outside: what is put into them must be marked by its own message (or be a name)."""
    return "".join(part if _PLACEHOLDER.fullmatch(part) else f"«{part}»"
                   for part in _PLACEHOLDER.split(message) if part)


@pytest.fixture(scope="module")
def pseudo_catalog() -> None:
    """Every message translated as itself, marked (_marked)."""
    catalog = Catalog(locale="en")
    for message, context in _extracted():
        if isinstance(message, tuple):
            catalog.add(message, tuple(_marked(m) for m in message), context=context)
        else:
            catalog.add(message, _marked(message), context=context)
    install(PSEUDO, catalog)


@pytest.fixture
def pseudo(pseudo_catalog: None) -> Iterator[None]:
    """The pseudo-locale for one test."""
    with use_locale(PSEUDO):
        yield


# Words that are names, not sentences: the game's, the presets', the options' and the
# top bids' (players type them), card labels (A♠, Joker 1, and a card list's ranks), cards
# in record notation (AS, 10H, JK1), and what a user or a record gave, shown in quotes.
_NAMES_SHOWN = sorted({*NAMES, "Amerikaner", "Kani", *PRESETS,
                       *(p.capitalize() for p in PRESETS), *BOOLEAN_OPTIONS, "target",
                       *(card_label(c) for c in range(JOKER_BASE + 3))}, key=len,
                      reverse=True)
_ALLOWED = re.compile("|".join([*map(re.escape, _NAMES_SHOWN), r"\b(?:10|[2-9AKQJ])\b",
                                r"\b(?:(?:10|[2-9AKQJT])[SHDC]|JK[0-9])\b", r"'[^'\n]*'"]))
_LETTER = re.compile(r"[^\W\d_]")


def _escaped(text: str) -> list[str]:
    """The bits of `text` with letters outside the markers (after the allowed names)."""
    text = _ALLOWED.sub("", text)
    depth, outside, bits = 0, [], []
    for ch in text + "«":
        if ch in "«»":
            if depth == 0 and _LETTER.search("".join(outside)):
                bits.append("".join(outside))
            outside = []
            depth += 1 if ch == "«" else -1
        elif depth == 0:
            outside.append(ch)
    return bits


def _texts(panel: Panel) -> list[str]:
    return [panel.title, panel.description, panel.footer or "",
            *(part for name, value, _inline in panel.fields for part in (name, value))]


def _check(texts: list[str], what: str) -> None:
    for text in texts:
        assert not _escaped(text), (what, _escaped(text), text)


def _played_game() -> Iterator[tuple[str, list[str]]]:
    """(what, its texts) for everything a real game shows, hand by hand, to its end."""
    kind = AMERIKANER
    rng = random.Random(3)
    rules = kind.make_rules("amerikaner", 4, {"target": 12, "all_pass_play": True})
    game, _deal = kind.new_game(rules, 0, rng)
    while not kind.finished(game):
        seat = kind.to_act(game)
        assert seat is not None
        yield "table", _texts(kind.table_panel(game, NAMES))
        for other in range(4):
            yield "seat", _texts(kind.seat_panel(game, other, NAMES))
        applied = kind.apply(game, kind.choose_action(game, seat, "easy", rng), rng)
        yield "action", [kind.describe_action(applied.action)]
        if applied.deal_finished:
            yield "summary", _texts(kind.deal_summary(game, applied.deal_index, NAMES))
    yield "final", _texts(kind.final_standings(game, NAMES))


def test_a_played_game_shows_only_catalog_words(pseudo: None) -> None:
    seen = set()
    for what, texts in _played_game():
        seen.add(what)
        _check(texts, what)
    assert seen == {"table", "seat", "action", "summary", "final"}


def test_the_shared_texts_and_reference_show_only_catalog_words(pseudo: None) -> None:
    seats = [Seat(1, "alice"), Seat(None, "", ai_level="easy"), Seat(2, "bob", away=True),
             Seat(None, "carol", ai_level="easy")]
    names = seat_names(seats)
    _check(names, "seat names")
    _check(_texts(lobby_panel(names[:3], 0, 4, "Amerikaner", "amerikaner")), "lobby")
    _check(_texts(lobby_panel(names, 0, 4, "Amerikaner", "amerikaner")), "full lobby")
    _check([turn_mention(1, "Amerikaner")], "turn")
    for order in ("wins", "points"):
        _check(_texts(leaderboard_panel([("alice", 1, 1, 12), ("bob", 3, 0, -4)], 1, 2,
                                        order)), "leaderboard")
    _check(_texts(leaderboard_panel([], 1, 1, "wins")), "empty leaderboard")
    stats = {"contracts_made": 2, "contracts_failed": 1, "top_bids_made": 0,
             "hands_played": 30}
    _check(_texts(stats_panel("alice", 3, 1, 20, stats)), "stats")
    _check(_texts(stats_panel("alice", 0, 0, 0, {})), "no stats")
    _check([help_text()], "help")
    for preset, players, options in [("amerikaner", 4, {}), ("amerikaner", 5, {"jokers": True}),
                                     ("amerikaner", 3, {"no_kitty": True}), ("norsk", 4, {}),
                                     ("kani", 4, {"fixed_ten": True}),
                                     ("amerikaner", 4, {o: True for o in (
                                         "show_kitty", "kitty_trick", "free_trump",
                                         "two_wins", "bidder_double", "all_pass_play")})]:
        _check([rules_text(Rules.create(preset, players, options))], f"rules {preset}")
    for action in (Action.pass_(0), Action.make_bid(0, 7), Action.make_bid(0, "kani"),
                   Action.redeal(0), Action.discard(0, (1,)), Action.exchange(0, (1, 2)),
                   Action.play(0, 5)):
        _check([describe_action(action)], "action")


# Parameters enough for every platform sentence and its variants.
_PLATFORM_PARAMS: list[dict[str, object]] = [
    {}, {"name": "alice"}, {"game": "poker"}, {"levels": ("easy", "strong")},
    {"missing": 1}, {"missing": 2},
    *({"action": a} for a in ("cancel", "add_ai", "remove_ai", "replace", "start")),
    *({"reason": r} for r in ("taken_meanwhile", "someone_else", "not_playing", "not_yet",
                              "over", "choices", "nothing_here", "negative_timer",
                              "old_button")),
    {"reason": "ai_level", "levels": ("easy", "strong")}, {"reason": "no_seat", "seat": 7},
]


def _platform_errors() -> Iterator[TableError]:
    for code in PLATFORM_CODES:
        for params in _PLATFORM_PARAMS:
            try:
                error_text(TableError(code, **params))
            except KeyError:
                continue  # a parameter this code does not take
            yield TableError(code, **params)


def _game_errors() -> Iterator[GameError]:
    """Refusals of every kind: random actions at every step of random hands, faulty
    records, and what players type."""
    rng = random.Random(7)
    for preset, players, options in [("amerikaner", 4, {}), ("norsk", 3, {}),
                                     ("kani", 4, {}), ("amerikaner", 5, {"jokers": True}),
                                     ("amerikaner", 4, {"free_trump": True})]:
        rules = Rules.create(preset, players, options)
        game, _deal = AMERIKANER.new_game(rules, 0, rng)
        for _step in range(80):
            if game.finished:
                break
            seat = game.current.to_act
            for action in (Action.pass_((seat + 1) % players), Action.make_bid(seat, 99),
                           Action.make_bid(seat, 1), Action.make_bid(seat, "x"),
                           Action.redeal(seat), Action.discard(seat, (rng.randrange(52),)),
                           Action.exchange(seat, tuple(range(9))),
                           Action.play(seat, rng.randrange(54), rng.randrange(52),
                                       rng.choice(("S", "x", None))),
                           Action.play(seat, rng.randrange(52))):
                try:
                    game.current.copy().apply(action)
                except GameError as exc:
                    yield exc
            AMERIKANER.apply(game, AMERIKANER.choose_action(game, seat, "easy", rng), rng)
    for bad in ({"x": True}, {"target": 0}, {"no_kitty": "y"}, {"fixed_ten": True},
                {"bidder_double": True, "partner_half": True},
                {"no_kitty": True, "show_kitty": True}):
        try:
            Rules.create("amerikaner", 4, bad)
        except GameError as exc:
            yield exc
    for path in sorted((REPO / "tests" / "fixtures").rglob("faulty/*.json")):
        if path.name.endswith(".expected.json"):
            continue
        try:
            load_game(json.loads(path.read_text()))
        except (GameError, ValueError) as exc:
            if isinstance(exc, GameError):
                yield exc


def test_every_refusal_shows_only_catalog_words(pseudo: None) -> None:
    platform = list(_platform_errors())
    assert {e.code for e in platform} == set(PLATFORM_CODES)
    game = list(_game_errors())
    assert len({e.code for e in game}) >= 15
    for error in [*platform, *game]:
        _check([error_text(error, AMERIKANER)], repr(error))
        if not isinstance(error, TableError):
            _check([error_sentence(error)], repr(error))


def test_the_pseudo_locale_is_the_locale_of_the_moment_only(pseudo: None) -> None:
    assert _("Seats") == "«Seats»"
    assert _("Hand {number}: {bidder} alone made {bid}") == \
        "«Hand »{number}«: »{bidder}« alone made »{bid}"
    with use_locale("en"):
        assert _("Seats") == "Seats"


# ----------------------------------------------------------------- English plurals

@pytest.mark.parametrize(("count", "expected"), [(0, "0 tricks"), (1, "1 trick"),
                                                 (2, "2 tricks")])
def test_ngettext_picks_the_english_form(count: int, expected: str) -> None:
    assert ngettext("{count} trick", "{count} tricks", count).format(count=count) == expected


def test_plurals_are_right_in_english() -> None:
    lobby = lobby_panel(["alice", "bob", "carol"], 0, 4, "Amerikaner", "amerikaner")
    assert lobby.description.endswith("Waiting for 1 more player.")
    assert error_text(TableError("table_not_full", missing=1)) == "Waiting for 1 more player."
    assert error_text(TableError("table_not_full", missing=2)) == "Waiting for 2 more players."
    board = leaderboard_panel([("alice", 1, 1, 12), ("bob", 2, 0, 3)], 1, 1, "wins")
    assert board.description.splitlines() == ["1. **alice** — 1 win, 12 pts (1 game)",
                                              "2. **bob** — 0 wins, 3 pts (2 games)"]
    assert describe_action(Action.discard(0, (1,))) == "a discard of 1 card"
    assert describe_action(Action.exchange(0, (1, 2))) == "an exchange of 2 cards"
    assert error_sentence(GameError("wrong_card_count", reason="discard", size=1,
                                    count=2)) == "Discard exactly 1 card, not 2."
    assert error_sentence(GameError("invalid_card", reason="count", count=1)) \
        == "Name exactly 1 card."
