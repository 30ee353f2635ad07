"""American's picture: the scene of the public table shows only public cards (face-up
rows, the pile), counts for hands, face-down cards and the deck, and renders as a small
PNG; the running totals are the deals won, deal by deal."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.american.kind import AMERICAN as KIND
from bot.games.american.rules import BOOLEAN_OPTIONS
from bot.games.american.views import legal_action_list
from bot.render.pictures import TABLE_SIZE, table_picture, totals_chart
from tests.e2e.american_leaks import hidden_from_public

NAMES = ("alice", "bob", "carol", "dave", "erin")


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       flags=st.sets(st.sampled_from(BOOLEAN_OPTIONS)))
def test_the_scene_shows_only_public_cards_and_true_counts(seed: int, players: int,
                                                           flags: set[str]) -> None:
    rng = random.Random(seed)
    rules = KIND.make_rules(None, players, {name: True for name in flags} | {"target": 2})
    game, _ = KIND.new_game(rules, 0, rng)
    for step in range(2000):
        seat = KIND.to_act(game)
        if seat is None:
            break
        scene = KIND.words.table_scene(game, NAMES[:players])
        state = game.current
        assert not scene.shown_cards() & hidden_from_public(state)
        public = KIND.public_view(game).deal
        assert [s.backs for s in scene.seats] == [s.down for s in public.seats]
        assert [s.cards for s in scene.seats] == [s.up for s in public.seats]
        assert [s.to_act for s in scene.seats] == [i == seat for i in range(players)]
        assert {card for _, card in scene.centre} <= set(public.pile)
        if step % 50 == 0:
            png = table_picture(scene)
            assert len(png) < 80 * 1024 and Image.open(io.BytesIO(png)).size == TABLE_SIZE
        actions = legal_action_list(seat, KIND.seat_view(game, seat).deal.legal)
        KIND.apply(game, actions[0] if rng.random() < 0.8 else rng.choice(actions), rng)
    totals = KIND.running_totals(game)
    assert totals == [tuple(w) for w in game.deal_wins]
    # A deal has one winner, or none when drawn: the totals grow by at most one a deal.
    sums = [0, *(sum(after) for after in totals)]
    assert all(0 <= b - a <= 1 for a, b in zip(sums, sums[1:], strict=False))
    if totals:
        chart = totals_chart(KIND.words.title(rules), NAMES[:players], totals)
        assert Image.open(io.BytesIO(chart)).format == "PNG"
