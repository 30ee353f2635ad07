"""Every word a player reads goes through the translation function (bot.i18n).

* Each committed template (the platform's bot/i18n/locales/messages.pot and each game's
  bot/games/<game>/locales/messages.pot) holds exactly the messages its code has, as
  bot/i18n/split_catalogs.py splits them: no message in two catalogs, and every
  registered game's catalog registered with bot.i18n.
* Under a pseudo-locale that wraps every translation in «…», the texts of a real played
  game (panels, the table picture's scene, summaries, standings, rules, help, the lobby,
  the leaderboard, stats and every refusal) have no letters outside the markers but seat
  names, card labels and the names players type (presets, options, the top bids): a word
  that escaped the catalog fails here.
* The Discord cogs, the shared table's and Amerikaner's, hold no word a player reads:
  every label, placeholder, reply and panel comes from the render layer (an AST scan of
  cogs/*.py); the terminal game's words come from the game's text too.
* Plurals are right in English.
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot.cards import JOKER_BASE, card_label
from bot.errors import GameError
from bot.games import GAMES
from bot.games.american import text_guide as american_text_guide
from bot.games.american import text_hand as american_text_hand
from bot.games.american import text_refusals as american_text_refusals
from bot.games.american.actions import Action as AmericanAction
from bot.games.american.game import Game as AmericanGame
from bot.games.american.kind import AMERICAN
from bot.games.american.record import load_game as load_american_game
from bot.games.american.rules import BOOLEAN_OPTIONS as AMERICAN_OPTIONS
from bot.games.american.rules import Rules as AmericanRules
from bot.games.american.views import deal_view, legal_action_list
from bot.games.amerikaner import WORDS as amerikaner_words
from bot.games.amerikaner import text_guide as game_guide
from bot.games.amerikaner import text_hand as game_hand
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.record import load_game
from bot.games.amerikaner.rules import BOOLEAN_OPTIONS, PRESETS, Rules
from bot.games.amerikaner.terminal import run_game
from bot.games.amerikaner.text_guide import help_text, rules_text
from bot.games.amerikaner.text_refusals import error_sentence
from bot.games.amerikaner.text_table import describe_action
from bot.i18n import _, catalog_dirs, install, ngettext, split_catalogs, use_locale
from bot.render import (
    error_text,
    leaderboard_panel,
    lobby_panel,
    rating_board_panel,
    rating_lines,
    seat_names,
    stats_panel,
    turn_mention,
)
from bot.render import text as render_text
from bot.render.text import PLATFORM_CODES
from bot.tables.errors import TableError
from bot.tables.panel import Panel
from bot.tables.table import Seat

REPO = Path(__file__).resolve().parents[2]
# Every catalog by owner: the platform's and each game's (bot/i18n/split_catalogs.py).
CATALOGS = {owner: split_catalogs.catalog_dir(owner, REPO)
            for owner in (split_catalogs.PLATFORM, *split_catalogs.games(REPO))}
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


def _template_keys(owner: str) -> set[object]:
    with (CATALOGS[owner] / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context)
            for m in template if m.id}


@pytest.fixture(scope="module")
def split() -> dict[str, list[Any]]:
    """The messages of each catalog as the code has them now."""
    return split_catalogs.split(split_catalogs.extracted(REPO), split_catalogs.games(REPO))


@pytest.mark.parametrize("owner", sorted(CATALOGS))
def test_the_template_is_up_to_date(owner: str, split: dict[str, list[Any]]) -> None:
    """Regenerate with the command in CONTRIBUTING.md ("Translations") when this fails."""
    assert _template_keys(owner) == set(split[owner])


def test_every_message_is_in_a_catalog_and_every_game_has_one() -> None:
    """The catalogs together hold every message of the code; a game's words stay in its
    own catalog (never moved to the platform's: the same English may stand in two,
    each game's looked up in its own first); every game has its catalog, and its
    package registers it with bot.i18n."""
    seen: dict[object, str] = {}
    for owner in CATALOGS:
        for key in _template_keys(owner):
            seen[key] = owner
    assert set(seen) == set(_extracted())
    registered = {path.resolve() for path in catalog_dirs()}
    for kind in GAMES.values():
        package = Path(sys.modules[type(kind).__module__].__file__ or "").parent
        assert (package / "locales").resolve() in registered, kind.name
        if package.parent == REPO / "bot" / "games":  # not a game the tests register
            assert package.name in CATALOGS and CATALOGS[package.name].is_dir(), kind.name


def test_the_splitters_check_passes_on_the_catalogs() -> None:
    """`python -m bot.i18n.split_catalogs --check` (CONTRIBUTING.md's command) finds every
    catalog file up to date, whichever Babel version wrote its header."""
    assert split_catalogs.main(["--check"]) == 0


def test_the_splitter_keeps_a_message_two_games_share_in_both() -> None:
    """A message is in each catalog whose code has it: two games' shared English stays
    in both games' catalogs (adding a game changes no catalog but its own); the
    platform's is the platform's."""
    found = [("bot/games/a/text.py", ("x", None)), ("bot/games/b/text.py", ("x", None)),
             ("bot/games/a/text.py", ("y", None)), ("bot/render/text.py", ("z", None)),
             ("a", ("play", "command name")), ("a b", ("new", "command name")),
             ("platform", ("games", "command name")), ("bot/render/text.py", ("y", None))]
    assert split_catalogs.split(found, ["a", "b"]) == {
        "platform": [("y", None), ("z", None), ("games", "command name")],
        "a": [("x", None), ("y", None), ("play", "command name"), ("new", "command name")],
        "b": [("x", None), ("new", "command name")]}


def test_a_games_words_are_found_in_its_own_catalog_first(tmp_path: Path) -> None:
    """The same English in a game's catalog and the platform's: the game's words read
    its own translation, the platform's its own (as Red's per-cog translators do); what
    the game's catalog lacks is the platform's."""
    from babel.messages.pofile import write_po

    from bot.i18n import Translator

    both = "Every seat is taken."  # the platform's, worded again by this game
    catalog = Catalog(locale="nb")
    catalog.add(both, "Alle stolene ved spillbordet er tatt.")
    catalog.add("A word of the game alone", "Et ord bare spillet har")
    (tmp_path / "nb" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "nb" / "LC_MESSAGES" / "messages.po").open("wb") as fh:
        write_po(fh, catalog)
    game = Translator(tmp_path)
    with use_locale("nb"):
        assert game._(both) == "Alle stolene ved spillbordet er tatt."
        assert _(both) not in (both, game._(both))  # the platform's own Norwegian
        assert game._("A word of the game alone") == "Et ord bare spillet har"
        assert _("A word of the game alone") == "A word of the game alone"
        platform_only = "The game has already started."
        assert game._(platform_only) == _(platform_only) != platform_only


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
# Names players type or read as names: seats, games and their commands ("poker" stands
# for a game's command in the refusals), presets, options, cards.
_NAMES_SHOWN = sorted({*NAMES, "Amerikaner", "Kani", *PRESETS, "poker", "American",
                       *AMERICAN_OPTIONS,
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


def _check(texts: list[str], what: str, typed: tuple[str, ...] = ()) -> None:
    """No letters outside the markers but names; `typed`: words more that players type
    (the terminal's moves), allowed as whole words."""
    extra = re.compile("|".join(rf"\b{re.escape(w)}\b" for w in typed)) if typed else None
    for text in texts:
        text = extra.sub("", text) if extra else text
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
        yield "table", _texts(kind.words.table_panel(game, NAMES))
        yield "picture", kind.words.table_scene(game, NAMES).texts()
        for other in range(4):
            yield "seat", _texts(kind.words.seat_panel(game, other, NAMES))
        applied = kind.apply(game, kind.choose_action(game, seat, "easy", rng), rng)
        yield "action", [kind.words.describe_action(applied.action)]
        if applied.deal_finished:
            yield "summary", _texts(kind.words.deal_summary(game, applied.deal_index, NAMES))
    yield "final", _texts(kind.words.final_standings(game, NAMES))


def test_a_played_game_shows_only_catalog_words(pseudo: None) -> None:
    seen = set()
    for what, texts in _played_game():
        seen.add(what)
        _check(texts, what)
    assert seen == {"table", "picture", "seat", "action", "summary", "final"}


def _shared_texts() -> Iterator[tuple[str, list[str]]]:
    """(what, its texts) for the shared table texts and the game's reference: seat
    names, the lobby, a turn, the leaderboard, stats, help, rules, actions."""
    seats = [Seat(1, "alice"), Seat(None, "", ai_level="easy"), Seat(2, "bob", away=True),
             Seat(None, "carol", ai_level="easy")]
    names = seat_names(seats)
    yield "seat names", names
    yield "lobby", _texts(lobby_panel(names[:3], 0, 4, "Amerikaner", "amerikaner"))
    yield "full lobby", _texts(lobby_panel(names, 0, 4, "Amerikaner", "amerikaner"))
    yield "turn", [turn_mention(1, "Amerikaner")]
    for order in ("wins", "points"):
        yield "leaderboard", _texts(leaderboard_panel(
            [("alice", 1, 1, 12), ("bob", 3, 0, -4)], 1, 2, order))
    yield "empty leaderboard", _texts(leaderboard_panel([], 1, 1, "wins"))
    stats = {"contracts_made": 2, "contracts_failed": 1, "top_bids_made": 0,
             "hands_played": 30}
    yield "stats", _texts(stats_panel("alice", 3, 1, 20, AMERIKANER.words.stats_lines(stats)))
    yield "no stats", _texts(stats_panel("alice", 0, 0, 0, AMERIKANER.words.stats_lines({})))
    yield "month asked", _texts(leaderboard_panel([("alice", 1, 1, 12)], 1, 1, "wins",
                                                  month_asked=True))
    for month in (None, "2026-11"):
        yield "rating board", _texts(rating_board_panel(
            [("alice", 21.1, 40, True, 3), ("bob", -1.5, 1, False, 1)], 1, 2, month, 20))
        yield "empty rating board", _texts(rating_board_panel([], 1, 1, month, 20))
    for trend in (3.2, -1.0, 0.0, None):
        yield "rated stats", _texts(stats_panel("alice", 3, 1, 20, [], rating_lines(
            (27.4, 2.1, 21.1, 1), (25.0, 3.0, 16.0, 1), trend, 20)))
    yield "unrated stats", _texts(stats_panel("alice", 0, 0, 0, [],
                                              rating_lines(None, None, None, 20)))
    yield "help", [help_text()]
    for preset, players, options in [("amerikaner", 4, {}), ("amerikaner", 5, {"jokers": True}),
                                     ("amerikaner", 3, {"no_kitty": True}), ("norsk", 4, {}),
                                     ("kani", 4, {"fixed_ten": True}),
                                     ("amerikaner", 4, {o: True for o in (
                                         "show_kitty", "kitty_trick", "free_trump",
                                         "two_wins", "bidder_double", "all_pass_play")})]:
        yield f"rules {preset}", [rules_text(Rules.create(preset, players, options))]
    for action in (Action.pass_(0), Action.make_bid(0, 7), Action.make_bid(0, "kani"),
                   Action.redeal(0), Action.discard(0, (1,)), Action.exchange(0, (1, 2)),
                   Action.play(0, 5)):
        yield "action", [describe_action(action)]


def test_the_shared_texts_and_reference_show_only_catalog_words(pseudo: None) -> None:
    for what, texts in _shared_texts():
        _check(texts, what)


# Parameters enough for every platform sentence and its variants.
_PLATFORM_PARAMS: list[dict[str, object]] = [
    {}, {"name": "alice"}, {"game": "poker"}, {"levels": ("easy", "strong")},
    {"missing": 1}, {"missing": 2},
    *({"action": a} for a in ("cancel", "add_ai", "remove_ai", "replace", "start")),
    *({"reason": r} for r in ("taken_meanwhile", "someone_else", "not_playing", "not_yet",
                              "over", "choices", "nothing_here", "negative_timer",
                              "old_button")),
    {"reason": "ai_level", "levels": ("easy", "strong")}, {"reason": "no_seat", "seat": 7},
    {"permissions": ("embed_links",)},
    {"permissions": ("view_channel", "send_messages", "send_messages_in_threads",
                     "create_public_threads", "embed_links", "attach_files",
                     "read_message_history")},
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
        # what a player reads: the game's words, or the platform's for a code or reason
        # every game shares (the game gives those back: bot/errors.py's SHARED_REASONS)
        _check([error_text(error, AMERIKANER)], repr(error))


def _american_errors() -> Iterator[GameError]:
    """American's refusals: attempts at every step of random deals, faulty records, bad
    rules."""
    rng = random.Random(5)
    for players, options in [(2, {}), (3, {"swap": True}), (4, {"blind_down": True}),
                             (2, {"voluntary_pickup": True, "same_rank": True})]:
        game = AmericanGame(AmericanRules.create(players, options), 0)
        state = game.start_deal(rng=rng)
        for _step in range(60):
            seat = state.to_act
            for action in (AmericanAction.play(seat, ()), AmericanAction.pickup(seat),
                           AmericanAction.play((seat + 1) % players, (0,)),
                           AmericanAction.play(seat, (rng.randrange(52),)),
                           AmericanAction.play(seat, (0, 51)),
                           AmericanAction.swap(seat, (0,), ()),
                           AmericanAction.swap(seat, (rng.randrange(52),),
                                               (rng.randrange(52),)),
                           AmericanAction.flip(seat, 7)):
                try:
                    state.copy().apply(action)
                except GameError as exc:
                    yield exc
            legal = deal_view(state, seat).legal
            assert legal is not None
            game.apply(rng.choice(legal_action_list(seat, legal)))
            if state.finished:
                break
    for bad in ({"x": True}, {"target": 0}, {"swap": "y"}):
        try:
            AmericanRules.create(2, bad)
        except GameError as exc:
            yield exc
    # the table's own: a review of a deal being played, a claim, what players type
    live, _ = AMERICAN.new_game(AmericanRules.create(2, {}), 0, rng)
    for refused in (lambda: AMERICAN.words.deal_review(live, 0, ["a", "b"]),
                    lambda: AMERICAN.claim(live, 0)):
        try:
            refused()
        except GameError as exc:
            yield exc
    yield GameError("invalid_card", reason="typed", text="zz")
    yield GameError("invalid_card", reason="rank_not_held", rank=5)
    yield GameError("invalid_card", reason="position", text="x")
    for path in sorted((REPO / "tests" / "fixtures" / "conformance-american").rglob(
            "faulty/corrupt_*.json")):
        if not path.name.endswith(".expected.json"):
            try:
                load_american_game(json.loads(path.read_text()))
            except GameError as exc:
                yield exc


def test_every_american_refusal_shows_only_catalog_words(pseudo: None) -> None:
    errors = list(_american_errors())
    assert {e.code for e in errors} == set(american_text_refusals.ERROR_CODES)
    for error in errors:
        sentence = error_text(error, AMERICAN)  # the platform's words for a shared reason
        assert sentence != error.code, error
        _check([sentence], repr(error))


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


# ----------------------------------------------------------------- the cogs' words

def _cog_texts() -> list[str]:
    """What every text function the cogs call gives for their buttons, menus, replies
    and panels."""
    r, g = render_text, game_hand
    texts = [r.button_label(key) for key in r.BUTTON_LABELS]
    texts += [r.joined_text(3), r.game_started_text(), r.left_text("amerikaner", True),
              r.left_text("amerikaner", False), r.left_button_text("amerikaner"),
              r.away_text("amerikaner"), r.back_text(), r.replaced_text(2, "bob"),
              r.replaced_text(2, None), r.cancelled_text("alice"), r.game_over_text(),
              r.table_closed_text(), r.moved_on_text(), r.old_button_text(),
              r.export_note(7), r.export_note(7, partial=True),
              r.timeout_text("alice", describe_action(Action.play(0, 5))),
              r.reminder_text(turn_mention(1, "Amerikaner"))]
    texts += [*_texts(r.cancelled_panel("alice")), *_texts(r.game_done_panel())]
    texts += [g.control_label(key) for key in ("pass", "redeal", "keep_hand")]
    texts += [g.trump_label(t) for t in ("S", "H", "D", "C", "grand")]
    texts += [g.led_trump_label("♠"), g.call_label(5), g.call_placeholder()]
    texts += [g.discard_placeholder(n) for n in (1, 4)]
    texts += [g.exchange_placeholder(n) for n in (1, 3)]
    texts += [*_texts(g.lead_trump_panel(5)), *_texts(g.lead_call_panel(JOKER_BASE))]
    for settings in ({}, {"preset": "kani", "players": 5, "target": 40, "turn_timer": 1,
                          "options": {"jokers": True, "two_wins": True}},
                     {"preset": "norsk", "turn_timer": 0}, {"turn_timer": 5}):
        texts += [game_guide.settings_text(settings),
                  game_guide.settings_text(settings, saved=True)]
    return texts


def test_the_table_controls_and_replies_show_only_catalog_words(pseudo: None) -> None:
    _check(_cog_texts(), "the cogs' words")


class _Player:
    """The terminal's human: a few bad inputs, then a move read off the last line of
    moves (with the pseudo-locale's markers taken out)."""

    def __init__(self, bad: list[str], moves: str = "Moves: ") -> None:
        self.lines: list[str] = []
        self.bad = list(bad)
        self.rng = random.Random(5)
        self.moves = moves  # how the line of moves begins, in the language played

    def say(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def ask(self, prompt: str) -> str:
        if self.bad:
            return self.bad.pop(0)
        moves = next(line.replace("«", "").replace("»", "") for line in reversed(self.lines)
                     if self.moves in line)
        body = moves.split(self.moves, 1)[1]
        if "'" in body:
            return body.split("'")[1]
        return self.rng.choice(body.split(" | "))


# Words of the terminal's moves, as players type them (and the AI level, as given).
_TYPED = ("pass", "redeal", "call", "give", "discard", "easy")


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("amerikaner", 4, {"free_trump": True}), ("norsk", 5, {}), ("kani", 4, {}),
    ("amerikaner", 5, {"jokers": True, "two_wins": True}),
])
def test_the_terminal_game_shows_only_catalog_words(pseudo: None, preset: str, players: int,
                                                    options: dict[str, object]) -> None:
    player = _Player(["xyz", "help", "AS call KS"])
    assert run_game(preset, players, options, seed=4, level="easy", target=12,
                    ask=player.ask, say=player.say) == 0
    _check(player.lines, f"terminal {preset}", _TYPED)
    said = "\n".join(player.lines)
    assert "Moves: " in said and "Not allowed: " in said and "Game over" in said


def test_the_terminal_game_refusals_and_goodbye_show_only_catalog_words(pseudo: None
                                                                        ) -> None:
    player = _Player([])
    assert run_game("amerikaner", 4, {"fixed_ten": True}, ask=player.ask,
                    say=player.say) == 2
    player.bad = ["quit"]
    assert run_game("amerikaner", 3, {}, seed=1, ask=player.ask, say=player.say) == 0
    _check(player.lines, "terminal start and quit", _TYPED)
    assert "Cannot start: " in player.lines[0] and player.lines[-1] == "«Bye.»"


# What a cog may pass as words: only calls of the render layer. A string constant with a
# letter in it (or an f-string with one in its own text) passed as a component's label or
# placeholder, a message's content, an embed's or a panel's title and description, or as
# the text of a reply or a send, is a word that escaped the catalog. Slash command names,
# descriptions and choices (their decorators, and app_commands.Group/Command) are the
# command translator's: allowed.
_WORD_KEYWORDS = {"label", "placeholder", "content", "description", "title", "text"}
_COMMAND_CALLS = {"command", "describe", "choices", "rename", "Group", "Command", "Choice",
                  "default_permissions"}
# The positional argument that is the text, by the called name.
_TEXT_ARGUMENT = {"_reply": 1, "send": 0, "send_message": 0, "Panel": 0, "Embed": 0,
                  "LeaderboardButton": 3}


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _shown_parts(node: ast.expr) -> Iterator[ast.expr]:
    """What of an expression may be shown: both sides of `a if c else b` and of `a + b`."""
    if isinstance(node, ast.IfExp):
        yield from _shown_parts(node.body)
        yield from _shown_parts(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _shown_parts(node.left)
        yield from _shown_parts(node.right)
    else:
        yield node


def _words_in(node: ast.AST) -> str | None:
    """The text of a string constant or an f-string's own parts, if it has a letter."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(part.value for part in node.values
                       if isinstance(part, ast.Constant) and isinstance(part.value, str))
    else:
        return None
    return text if _LETTER.search(text) else None


def _player_facing_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every word a cog's source passes to a player by itself."""
    tree = ast.parse(source)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                exempt.update(id(n) for n in ast.walk(decorator))
        if isinstance(node, ast.Call) and _called_name(node) in _COMMAND_CALLS:
            exempt.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in exempt:
            continue
        shown = [k.value for k in node.keywords if k.arg in _WORD_KEYWORDS]
        position = _TEXT_ARGUMENT.get(_called_name(node))
        if position is not None and len(node.args) > position:
            shown.append(node.args[position])
        for value in shown:
            for part in _shown_parts(value):
                words = _words_in(part)
                if words is not None:
                    found.append((part.lineno, words))
    return sorted(found)


def test_the_scan_finds_a_planted_word() -> None:
    planted = (
        "@group.command(name='join', description='Take a seat')\n"
        "@app_commands.describe(seat='The seat number')\n"
        "async def join(self, interaction):\n"
        "    await self._reply(interaction, 'You joined.')\n"
        "    await self._reply(interaction, joined_text(2))\n"
        "    view.add_item(TableButton(t, f'{v}:pass', label='Pass', emoji='🔄'))\n"
        "    view.add_item(TableButton(t, f'{v}:pass', label=control_label('pass')))\n"
        "    select = TableSelect(t, 'x', placeholder=f'Choose {n} cards')\n"
        "    panel = Panel(title=f'Lead {card}', description=lead_text())\n"
        "    await channel.send(f'⏰ {name}')\n"
        "    await channel.send(f'{name} ran out' if late else text)\n"
        "    await self._reply(interaction, 'Saved. ' + settings_text(new))\n"
        "    group = app_commands.Group(name='amerikaner', description='Play it')\n"
    )
    assert _player_facing_literals(planted) == [
        (4, "You joined."), (6, "Pass"), (8, "Choose  cards"), (9, "Lead "),
        (11, " ran out"), (12, "Saved. ")]


@pytest.mark.parametrize("path", sorted((REPO / "cogs").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(REPO / "cogs")))
def test_the_cogs_hold_no_word_a_player_reads(path: Path) -> None:
    assert _player_facing_literals(path.read_text()) == []


def test_the_platform_names_the_command_of_the_game_at_hand() -> None:
    """Refusals of the table platform name the command of the table's game, never one
    game's by hand: a second game's players read its own command."""
    assert error_text(TableError("no_table", game="american")) == (
        "There is no table in this channel. Start one with /american new, or play the "
        "deal of the day: /american daily.")
    assert error_text(TableError("already_away", game="american")).endswith("/american back.")
    assert error_text(TableError("channel_busy"), AMERIKANER).endswith("(/amerikaner cancel).")


# ----------------------------------------------------------------- Norwegian (bokmål)
# The nb catalog is complete (every message, every plural form, the same placeholders),
# and what players read in a real game, the shared table texts, the refusals of both
# games, the help and the terminal game is Norwegian: no English word a sentence is made
# of, and different from the English wherever the English is a sentence.

NB = "nb"


def _placeholders(message: str) -> set[str]:
    return set(_PLACEHOLDER.findall(message))


def _nb_catalog(owner: str, language: str = NB) -> Catalog:
    with (CATALOGS[owner] / language / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh, locale=language)


# Each translated language's plural rule, as Babel (CLDR) gives it: Persian (issue 55)
# has two forms by Babel's rule, though a Persian noun after a number stays singular,
# so its two forms are mostly alike.
_PLURALS = {NB: (2, "(n != 1)"), "fa": (2, "(n > 1)")}


@pytest.mark.parametrize("language", sorted(_PLURALS))
@pytest.mark.parametrize("owner", sorted(CATALOGS))
def test_the_nb_catalog_parses_with_two_plural_forms_and_no_fuzzy_entry(
        owner: str, language: str) -> None:
    catalog = _nb_catalog(owner, language)
    assert (catalog.num_plurals, catalog.plural_expr) == _PLURALS[language]
    assert not catalog.fuzzy
    assert [m.id for m in catalog if m.id and m.fuzzy] == []
    assert [(m.id, errors) for m, errors in catalog.check() if errors] == []


@pytest.mark.parametrize("language", sorted(_PLURALS))
@pytest.mark.parametrize("owner", sorted(CATALOGS))
def test_the_nb_catalog_translates_every_message_of_the_template(owner: str,
                                                                 language: str) -> None:
    """Every message of the template has a non-empty translation in Norwegian and in
    Persian, every plural form, with exactly the placeholders of the English (regenerate
    the template, then `python -m bot.i18n.split_catalogs` and translate what is new,
    when this fails)."""
    catalog = _nb_catalog(owner, language)
    with (CATALOGS[owner] / "messages.pot").open("rb") as fh:
        template = [m for m in read_po(fh) if m.id]
    problems = []
    for message in template:
        nb = catalog.get(message.id, message.context)
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = () if nb is None else nb.string if isinstance(nb.string, tuple) else (
            nb.string,)
        if nb is None or len(forms) != (2 if message.pluralizable else 1) or nb.fuzzy:
            problems.append((message.id, "missing or fuzzy"))
            continue
        for index, form in enumerate(forms):
            source = english[min(index, len(english) - 1)]
            if not form or _placeholders(form) != _placeholders(source):
                problems.append((message.id, form))
    assert problems == [], f"{len(problems)} of {len(template)}: {problems[:5]}"


# English words sentences are made of (not one is a Norwegian word, a name or a word
# players type): none may be left in a Norwegian text. What is quoted ('AS call KS',
# `cards`) is what players or records type, and is not translated.
_ENGLISH = re.compile(
    r"\b(?:the|and|you|your|with|not|has|have|cannot|are|was|this|that|is|of|an|it|its|"
    r"trick|tricks|bids|card|cards|seat|trump|trumps|partner|points|pts|game|games|wins|"
    r"player|players|won|dealer|kitty|hint|lead|plays|turn|must|only|already|table|"
    r"waiting|nobody|none|yet|left|would|hand|hands|bidding|contract|called|opening)\b",
    re.IGNORECASE)
_QUOTED = re.compile(r"'[^'\n]*'|`[^`\n]*`")
_LEFT_OVER = re.compile(r"\{\w*\}")


def _english_words(text: str) -> list[str]:
    return _ENGLISH.findall(_QUOTED.sub("", text))


# Words the same in both languages.
_SHARED_WORDS = {"pass", "start", "grand"}


def _is_sentence(english: str) -> bool:
    """Has the English text two words of its own (beyond names, cards, numbers and the
    words both languages share)?"""
    words = {w.lower() for w in re.findall(r"[A-Za-z]{2,}",
                                           _ALLOWED.sub("", _QUOTED.sub("", english)))}
    return len(words - _SHARED_WORDS) >= 2


def _check_norwegian(english: list[str], norwegian: list[str], what: str) -> None:
    """The same texts rendered in English and in Norwegian: the Norwegian has no English
    word and no placeholder left, and differs from the English wherever that is a
    sentence. Long lists are cut into fields by length, so a panel may have more fields
    in one language than in the other: then its texts are compared as a whole."""
    if len(english) != len(norwegian):
        english, norwegian = ["\n".join(english)], ["\n".join(norwegian)]
    for en, nb in zip(english, norwegian, strict=True):
        assert not _english_words(nb), (what, _english_words(nb), nb)
        assert not _LEFT_OVER.search(nb), (what, nb)
        if _is_sentence(en):
            assert nb != en, (what, en)


def _in_both(render: Callable[[], list[tuple[str, list[str]]]]
             ) -> Iterator[tuple[str, list[str], list[str]]]:
    """(what, English texts, Norwegian texts): `render` run once in each language (it
    must be deterministic: fresh seeds inside)."""
    with use_locale("en"):
        english = render()
    with use_locale(NB):
        norwegian = render()
    assert [w for w, _t in english] == [w for w, _t in norwegian]
    for (what, en), (_what, nb) in zip(english, norwegian, strict=True):
        yield what, en, nb


# The set-ups the Norwegian played games cover: each game's presets and house rules.
_NB_GAMES: list[tuple[str, str | None, int, dict[str, object]]] = [
    ("amerikaner", "amerikaner", 4, {"target": 12, "all_pass_play": True,
                                     "show_kitty": True}),
    ("amerikaner", "norsk", 4, {"target": 12}), ("amerikaner", "kani", 4, {"target": 40}),
    ("amerikaner", "amerikaner", 5, {"target": 12, "jokers": True, "two_wins": True}),
    ("american", None, 2, {"target": 2}),
    ("american", None, 3, {"swap": True, "blind_down": True, "voluntary_pickup": True}),
    ("american", None, 4, {"same_rank": True, "four_burns": True}),
]


def _nb_played_games() -> list[tuple[str, list[str]]]:
    """Whole games of both games' set-ups, with everything a player reads along the way:
    the panels, the table picture's words, the actions, a hint every few turns, each
    deal's summary and review, the final standings, and the table's own texts."""
    from bot.games.american.kind import AMERICAN

    shown: list[tuple[str, list[str]]] = []
    for game_name, preset, players, options in _NB_GAMES:
        kind: Any = AMERIKANER if game_name == "amerikaner" else AMERICAN
        rng, hints = random.Random(3), random.Random(4)
        rules = kind.make_rules(preset, players, options)
        names = [*NAMES, "erin"][:players]
        shown += [("titles", [kind.words.title(rules), kind.words.lobby_title(rules),
                              kind.words.options_line(rules), kind.words.rules_text(rules)]),
                  ("house rules", [t for name, help_, _on in kind.house_rules(rules)
                                   for t in (name, help_)]),
                  ("settings", [kind.words.settings_text({}, False),
                                kind.words.settings_text({"players": players, "turn_timer": 2,
                                                    "options": {"x": True}}, True)])]
        game, _deal = kind.new_game(rules, 0, rng)
        turns = 0
        while not kind.finished(game):
            seat = kind.to_act(game)
            assert seat is not None
            shown.append(("table", _texts(kind.words.table_panel(game, names))))
            shown.append(("picture", list(kind.words.table_scene(game, names).texts())))
            # Every seat's panel every third turn, the acting seat's always: the words
            # a turn adds are the acting seat's; the others' change only as cards go.
            shown += [("seat", _texts(kind.words.seat_panel(game, s, names)))
                      for s in (range(players) if turns % 3 == 0 else (seat,))]
            if game_name == "american":  # the easy player's move, and its hint's words
                # (random moves made a game of thousands of turns: most of the suite's
                # longest unit test, for no word more)
                action = kind.choose_action(game, seat, "easy", rng)
                shown.append(("hint", [american_text_guide.hint_sentence(action)]))
            else:
                action = kind.choose_action(game, seat, "easy", rng)
                if turns % 17 == 0:  # the strong search behind a hint is costly
                    shown.append(("hint", [render_text.hint_text(kind.hint(game, seat,
                                                                           hints).sentence)]))
            turns += 1
            applied = kind.apply(game, action, rng)
            shown.append(("action", [kind.words.describe_action(applied.action)]))
            if applied.deal_finished:
                shown.append(("summary", _texts(kind.words.deal_summary(game, applied.deal_index,
                                                                  names))))
                shown.append(("review", _texts(kind.words.deal_review(game, applied.deal_index,
                                                                names))))
        shown.append(("final", _texts(kind.words.final_standings(game, names))))
        shown.append(("table at the end", _texts(kind.words.table_panel(game, names))))
        shown.append(("stats", kind.words.stats_lines({})))
    return shown


def test_a_played_game_reads_in_norwegian() -> None:
    seen = set()
    for what, en, nb in _in_both(_nb_played_games):
        seen.add(what)
        _check_norwegian(en, nb, what)
    assert {"table", "picture", "seat", "hint", "action", "summary", "review",
            "final"} <= seen


def _american_controls() -> list[str]:
    """The words of American's buttons, menus and swap panel."""
    a = american_text_hand
    texts = [a.control_label(key) for key in ("pickup", "keep", "back")]
    texts += [a.flip_label(0), a.fewer_placeholder(), a.fewer_option([5, 18]),
              a.give_placeholder(), a.take_placeholder(1), a.take_placeholder(2),
              a.choice_all([5, 18]), a.position_choice(2)]
    return texts + [*_texts(a.swap_step_panel([5])), *_texts(a.swap_step_panel([5, 18]))]


def _nb_reference() -> list[tuple[str, list[str]]]:
    """The shared table texts, the cogs' words, and the help pages."""
    r = render_text
    extra = [r.house_rules_placeholder(), r.switches_text({}),
             r.switches_text({"mentions": True, "pictures": False, "thread": True}),
             r.claim_text("alice"), r.thread_name("Amerikaner", "alice"),
             r.thread_opened_text(7, "Amerikaner"), r.page_footer(1, 3),
             r.spectator_text(), r.rematch_text(["alice", "bob"], ["carol"]),
             r.rematch_started_text(), r.internal_error()]
    return [*_shared_texts(), ("the cogs' words", _cog_texts()), ("more replies", extra),
            ("American's help", [american_text_guide.help_text()]),
            ("American's controls", _american_controls()),
            *(("help page", _texts(page)) for page in (*AMERIKANER.words.help_pages(),
                                                       *american_text_guide.help_pages()))]


def test_the_table_texts_and_help_read_in_norwegian() -> None:
    for what, en, nb in _in_both(_nb_reference):
        _check_norwegian(en, nb, what)


def test_every_refusal_of_both_games_reads_in_norwegian() -> None:
    platform, game, american = (list(_platform_errors()), list(_game_errors()),
                                list(_american_errors()))
    assert {e.code for e in platform} == set(PLATFORM_CODES)
    assert {e.code for e in american} == set(american_text_refusals.ERROR_CODES)

    def render() -> list[tuple[str, list[str]]]:
        shown = [(repr(e), [error_text(e, AMERIKANER)]) for e in [*platform, *game]]
        return shown + [(repr(e), [error_text(e, AMERICAN)]) for e in american]

    for what, en, nb in _in_both(render):
        _check_norwegian(en, nb, what)


def test_norwegian_plurals_and_lists() -> None:
    with use_locale(NB):
        # a game's word, in its own catalog (bot.i18n.Translator)
        assert amerikaner_words.ngettext("{count} trick", "{count} tricks", 1).format(
            count=1) == "1 stikk"
        assert ngettext("{count} win", "{count} wins", 2).format(count=2) == "2 seirer"
        assert error_text(TableError("table_not_full", missing=1)) == \
            "Venter på 1 spiller til."
        assert error_text(TableError("table_not_full", missing=2)) == \
            "Venter på 2 spillere til."
        board = leaderboard_panel([("alice", 1, 1, 12), ("bob", 2, 0, 3)], 1, 1, "wins")
        assert board.description.splitlines() == [
            "1. **alice** — 1 seier, 12 poeng (1 parti)",
            "2. **bob** — 0 seirer, 3 poeng (2 partier)"]
        assert amerikaner_words._(" and ") == " og "


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("amerikaner", 4, {"free_trump": True}), ("norsk", 5, {}),
    ("amerikaner", 5, {"jokers": True, "two_wins": True}),
])
def test_the_terminal_game_reads_in_norwegian(preset: str, players: int,
                                             options: dict[str, object]) -> None:
    player = _Player(["xyz", "help", "AS call KS"], moves="Trekk: ")
    with use_locale(NB):
        assert run_game(preset, players, options, seed=4, level="easy", target=12,
                        ask=player.ask, say=player.say) == 0
        assert run_game("amerikaner", 4, {"fixed_ten": True}, ask=player.ask,
                        say=player.say) == 2
    for line in player.lines:
        assert not _english_words(line), (_english_words(line), line)
        assert not _LEFT_OVER.search(line), line
    said = "\n".join(player.lines)
    assert "Ikke tillatt: " in said and "Spillet er over" in said
    assert "Kan ikke starte: " in said


class _AmericanPlayer(_Player):
    """American's terminal human: a move read off the line of moves (a quoted example,
    one of the `flip N`, or one of the alternatives)."""

    def ask(self, prompt: str) -> str:
        if self.bad:
            return self.bad.pop(0)
        line = next(line for line in reversed(self.lines) if self.moves in line)
        body = line.split(self.moves, 1)[1]
        if "'" in body:
            return body.split("'")[1]
        flips = re.findall(r"flip \d+", body)
        return self.rng.choice(flips or body.split(" | "))


@pytest.mark.parametrize(("players", "options"), [
    (2, {"target": 2}), (3, {"swap": True, "blind_down": True}),
])
def test_american_in_the_terminal_reads_in_norwegian(players: int,
                                                     options: dict[str, object]) -> None:
    from bot.games.american.terminal import run_game as run_american

    player = _AmericanPlayer(["xyz", "help", "9S 9H"], moves="Trekk: ")
    with use_locale(NB):
        assert run_american(players, options, seed=4, level="easy", ask=player.ask,
                            say=player.say) == 0
        assert run_american(9, {}, ask=player.ask, say=player.say) == 2
    for line in player.lines:
        assert not _english_words(line), (_english_words(line), line)
        assert not _LEFT_OVER.search(line), line
    said = "\n".join(player.lines)
    assert ("Forstod ikke: " in said or "Ikke tillatt: " in said) and "Kampen er over" in said
    assert "Kan ikke starte: " in said
