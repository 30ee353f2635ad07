"""One conformance suite over every registered game (as OpenSpiel's API test runs over
every registered game): random legal play to the end under every preset; the record
round trip and its replay; no hidden card in the public view or another seat's; every
refusal worded in every language; only catalog words under the pseudo-locale; the
terminal game. A new game gets all of it by registering (tests/games/conftest.py)."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.errors import NOT_YOUR_TURN, GameError
from bot.games import game_of_record
from bot.games.base import GameKindBase
from bot.i18n import LANGUAGES, install, use_locale
from bot.render.text import error_text, shared_sentence
from bot.tables.kind import Panel
from tests.e2e.driver import cards_in_text
from tests.games.catalogs import catalog_templates
from tests.games.toy.kind import TOY
from tests.i18n.test_i18n import NAMES as I18N_NAMES
from tests.i18n.test_i18n import _escaped

NAMES = tuple(I18N_NAMES)
MOST_ACTIONS = 5000  # random play that runs longer than this is a game that never ends


def _rules(kind: GameKindBase, preset: str | None) -> Any:
    """Rules of `preset` for the first player count it takes, with the shortest target
    the game allows (a game to its end, quickly)."""
    for players in (kind.default_players, *range(2, 7)):
        for options in ({"target": 1}, {"target": 10}, {}):
            try:
                return kind.make_rules(preset, players, options)
            except GameError:
                continue
    raise AssertionError(f"{kind.name}: no rules for preset {preset}")


def _text(panel: Panel) -> str:
    return "\n".join([panel.title, panel.description, panel.footer or "",
                      *(f"{n}\n{v}" for n, v, _inline in panel.fields)])


def _played(kind: GameKindBase, preset: str | None, seed: int
            ) -> Iterator[tuple[Any, Any, list[dict[str, Any]]]]:
    """Random legal play to the end: (rules, game, the stored deals) after each action,
    each step checked as the table service relies on it."""
    rng = random.Random(seed)
    rules = _rules(kind, preset)
    players = kind.players(rules)
    game, first = kind.new_game(rules, rng.randrange(players), rng)
    stored = [{**first, "actions": []}]
    yield rules, game, stored
    for _ in range(MOST_ACTIONS):
        seat = kind.to_act(game)
        if seat is None:
            break
        version = kind.version(game)
        before = kind.copy(game)
        applied = kind.apply(game, kind.choose_action(game, seat, "random", rng), rng)
        assert kind.version(game) == version + 1
        assert kind.version(before) == version  # the copy is a copy
        assert (applied.deal_index, applied.seq) == (len(stored) - 1,
                                                     len(stored[-1]["actions"]))
        stored[-1]["actions"].append(applied.action)
        assert (applied.next_deal is not None) == (applied.deal_finished
                                                   and not kind.finished(game))
        if applied.next_deal is not None:
            stored.append({**applied.next_deal, "actions": []})
        yield rules, game, stored
    assert kind.finished(game) and kind.to_act(game) is None


def _presets(kind: GameKindBase) -> tuple[str | None, ...]:
    return kind.presets


def test_random_play_ends_under_every_preset_with_results(kind: GameKindBase) -> None:
    for number, preset in enumerate(_presets(kind)):
        *_, (rules, game, _stored) = _played(kind, preset, seed=number)
        results = kind.results(game)
        assert sorted(r.seat for r in results) == list(range(kind.players(rules)))
        assert any(r.won for r in results) and min(r.place for r in results) == 1
        assert kind.running_totals(game)
        assert kind.to_act(game) is None and not kind.can_claim(game, 0)


def test_the_record_round_trips_and_replays(kind: GameKindBase) -> None:
    for number, preset in enumerate(_presets(kind)):
        *_, (rules, game, stored) = _played(kind, preset, seed=10 + number)
        store_record = {"format": kind.FORMAT, "rules": kind.rules_to_json(rules),
                        "first_dealer": kind.dump(game)["first_dealer"], "hands": stored}
        again = kind.load(store_record)
        own = kind.dump(game)
        assert kind.dump(again) == own == kind.record(store_record) | own
        assert kind.is_record(own) and game_of_record(own) is kind
        replayed = kind.replay(own)
        assert "error" not in replayed, replayed
        assert kind.load(own) is not None and kind.version(kind.load(own)) == \
            kind.version(game)
    broken = kind.replay({"format": kind.FORMAT})
    assert broken["error"]["code"] and broken["error"]["message"]


def test_no_hidden_card_in_the_public_view_or_another_seats(kind: GameKindBase) -> None:
    for number, preset in enumerate(_presets(kind)):
        steps = 0
        for rules, game, _stored in _played(kind, preset, seed=20 + number):
            if kind.finished(game) or steps % 7:
                steps += 1
                continue
            steps += 1
            names = NAMES[:kind.players(rules)]
            public = kind.secret_cards(game, None)
            shown = cards_in_text(_text(kind.words.table_panel(game, names)))
            shown |= kind.words.table_scene(game, names).shown_cards()
            assert not shown & public, (kind.name, preset, shown & public)
            for seat in range(len(names)):
                mine = cards_in_text(_text(kind.words.seat_panel(game, seat, names)))
                assert not mine & kind.secret_cards(game, seat), (kind.name, seat)


def error_examples(kind: GameKindBase) -> list[GameError]:
    """The game's own refusals, one of each code and reason it words: test data, kept
    out of the game's kind in an `examples` module beside it (`bot/games/<game>/
    examples.py`, `error_examples(kind)`), found by the kind's folder, so a new game adds
    its examples in its folder and nothing else; none if it has no such module."""
    package = type(kind).__module__.rpartition(".")[0]
    name = f"{package}.examples"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:  # the module is there but imports something missing
            raise
        return []
    return list(module.error_examples(kind))


def test_a_games_examples_are_found_in_its_folder(toy: GameKindBase) -> None:
    """The toy game's examples (tests/games/toy/examples.py) are found by its folder; a
    game without an examples module has none (the registry's games may have none)."""
    assert len(error_examples(toy)) >= 5
    assert all(isinstance(error, GameError) for error in error_examples(toy))


def _refusals(kind: GameKindBase) -> list[GameError]:
    """The game's own examples, and refusals every game has: a house rule it does not
    know, a record that is no record of it."""
    errors = error_examples(kind)
    try:
        kind.make_rules(None, kind.default_players, {"no_such_rule_anywhere": True})
    except GameError as error:
        errors.append(error)
    try:
        kind.load_record({"format": kind.FORMAT})
    except GameError as error:  # a RecordError (American declares its own, for now)
        errors.append(error)
    assert len(errors) >= 2, kind.name
    return errors


def test_every_refusal_reads_in_every_language(kind: GameKindBase) -> None:
    """As players read it (bot.render's error_text): the game's words, or for a code
    every game shares that the game does not word (its words give the code back) the
    platform's shared wording."""
    for error in _refusals(kind):
        worded = {}
        for lang in LANGUAGES:
            with use_locale(lang):
                worded[lang] = error_text(error, kind)
            assert worded[lang] and worded[lang] != error.code, (lang, error)
        assert worded["nb"] != worded["en"], error


def test_a_shared_code_the_game_leaves_unworded_reads_as_the_platforms() -> None:
    """A game need not word the codes every game shares (bot/errors.py SHARED_CODES):
    the suite takes the platform's wording for one its words give back as the code."""

    class Quiet(type(TOY.words)):  # type: ignore[misc]
        def error_text(self, error: GameError) -> str:
            return error.code

    quiet = type(TOY)()
    quiet.words = Quiet()  # type: ignore[misc]
    error = GameError(NOT_YOUR_TURN)
    with use_locale("nb"):
        assert error_text(error, quiet) == shared_sentence(error) != NOT_YOUR_TURN


# ----------------------------------------------------------------- the pseudo-locale

PSEUDO = "qpz"  # a pseudo-locale of this suite's own: every catalog's messages, marked
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def _marked(message: str) -> str:
    return "".join(part if _PLACEHOLDER.fullmatch(part) else f"«{part}»"
                   for part in _PLACEHOLDER.split(message) if part)


@pytest.fixture(scope="module")
def pseudo_catalog() -> None:
    catalog = Catalog(locale="en")
    for template in catalog_templates():
        with template.open("rb") as fh:
            for message in read_po(fh):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                catalog.add(message.id, tuple(_marked(m) for m in ids)
                            if isinstance(message.id, tuple) else _marked(message.id),
                            context=message.context)
    install(PSEUDO, catalog)


def test_the_pseudo_locale_shows_only_catalog_words(kind: GameKindBase,
                                                    pseudo_catalog: None) -> None:
    names = NAMES
    with use_locale(PSEUDO):
        texts: list[str] = []
        rules = None
        for rules, game, _stored in _played(kind, kind.presets[0], seed=30):
            if kind.finished(game):
                break
            seats = names[:kind.players(rules)]
            if kind.version(game) % 11 == 0:
                texts += _button_words(kind, game)
                texts.append(_text(kind.words.table_panel(game, seats)))
                texts += kind.words.table_scene(game, seats).texts()
                texts.append(_text(kind.words.seat_panel(game, 0, seats)))
        assert rules is not None
        seats = names[:kind.players(rules)]
        texts.append(_text(kind.words.final_standings(game, seats)))
        texts.append(_text(kind.words.deal_summary(game, 0, seats)))
        texts.append(_text(kind.words.deal_review(game, 0, seats)))
        texts += [kind.words.rules_text(rules), kind.words.help_text(),
                  *kind.words.stats_lines({})]
        texts += [error_text(e, kind) for e in _refusals(kind)]
    for text in texts:
        # Outside the marks only names: seats, games, presets, options, cards (the same
        # allowance as tests/i18n/test_i18n.py's).
        assert not _escaped(text), (kind.name, text)


def _button_words(kind: GameKindBase, game: Any) -> list[str]:
    """The labels and steps of the legal actions of the seat to act (the default hand
    panel's buttons)."""
    seat = kind.to_act(game)
    if seat is None:
        return []
    records = [kind.action_to_json(a) for a in kind.legal_actions(game, seat)]
    return [*(kind.words.action_label(r) for r in records),
            *(label for steps in kind.words.action_steps(records) for label in steps)]


def test_the_default_panel_offers_every_action_within_discords_limits(
        kind: GameKindBase) -> None:
    """At states of random play, every legal action of the seat to act is reached through
    the default hand panel's steps (cogs/tables/default_panel.py), each step at most
    MOST_MOVES buttons, their labels distinct and within LABEL_LIMIT characters
    (Discord's 25 buttons and 80 characters: the module cites them), in every language."""
    from bot.tables.steps import choices
    from cogs.tables.default_panel import LABEL_LIMIT, MOST_MOVES

    for _rules, game, _stored in _played(kind, kind.presets[0], seed=40):
        seat = kind.to_act(game)
        if seat is None or kind.version(game) > 400:
            break  # a game's first few hundred moves: every phase of a deal or two
        records = [kind.action_to_json(a) for a in kind.legal_actions(game, seat)]
        if kind.version(game) % 7 and len(records) < 30:
            continue  # every state with many actions (steps), and some of the others
        for language in LANGUAGES:
            with use_locale(language):
                steps = kind.words.action_steps(records)
                labels = [kind.words.action_label(r) for r in records]
            reached: set[int] = set()
            todo = [(0, 0)]
            while todo:
                shown = choices(steps, labels, *todo.pop())
                assert 0 < len(shown) <= MOST_MOVES, (kind.name, language, shown)
                assert len({c.label for c in shown}) == len(shown), shown
                assert all(0 < len(c.label) <= LABEL_LIMIT for c in shown), shown
                reached.update(c.first for c in shown if c.plays)
                todo += [(c.first, c.depth) for c in shown if not c.plays]
            assert reached == set(range(len(records))), (kind.name, language)


def test_terminal_play_runs_to_the_end(kind: GameKindBase) -> None:
    said: list[str] = []
    code = kind.terminal(None, {}, seed=4, level=kind.ai_levels[0], ask=lambda _p: "q",
                         say=said.append, human=False)
    assert code == 0 and len(said) > 3
