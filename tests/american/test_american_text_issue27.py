"""American's table text (issue 27): a burn is announced in the table's text and the
player's panel, the pile has one count in the text and the picture, and the cards seen
going into a hand are summarised."""

from __future__ import annotations

import dataclasses
import random

from bot.cards import card_label, parse_card
from bot.games.american import text_table
from bot.games.american.actions import Action
from bot.games.american.kind import AMERICAN as KIND
from bot.games.american.views import legal_action_list

NAMES = ("alice", "bob", "carol")


def _view_in_play(seed: int = 3) -> object:
    rng = random.Random(seed)
    game, _ = KIND.new_game(KIND.make_rules(None, 3, {}), 0, rng)
    for _step in range(30):
        seat = KIND.to_act(game)
        actions = legal_action_list(seat, KIND.seat_view(game, seat).deal.legal)
        KIND.apply(game, actions[0], rng)
    return KIND.public_view(game)


def _with_deal(view: object, **changes: object) -> object:
    return dataclasses.replace(view, deal=dataclasses.replace(view.deal, **changes))


def test_a_ten_that_burns_the_pile_is_announced() -> None:
    view = _view_in_play()
    ten = parse_card("10H")
    burned = _with_deal(view, pile=(), burned=(parse_card("4S"), parse_card("9C"), ten),
                        last=Action.play(1, (ten,)))
    panel = text_table.table_panel(burned, NAMES)
    assert "bob" in panel.description and "10" in panel.description
    assert text_table.burn_line(burned.deal, NAMES) in panel.description
    # The same deal without a burn says nothing of one.
    plain = _with_deal(view, last=Action.play(1, (parse_card("9C"),)))
    assert text_table.burn_line(plain.deal, NAMES) is None


def test_four_of_a_kind_that_burns_is_announced_with_its_rank() -> None:
    view = _view_in_play()
    fours = tuple(parse_card(c) for c in ("7S", "7H", "7D", "7C"))
    burned = _with_deal(view, pile=(), burned=fours, last=Action.play(2, fours[2:]))
    line = text_table.burn_line(burned.deal, NAMES)
    assert line is not None and "carol" in line and "7" in line and "10" not in line


def test_the_pile_count_is_the_same_in_the_text_and_the_picture() -> None:
    view = _view_in_play()
    pile = tuple(parse_card(c) for c in ("3S", "4H", "5D", "6C", "8S", "9H"))
    shown = _with_deal(view, pile=pile)
    field = text_table.table_panel(shown, NAMES).fields[0][1]
    scene = text_table.table_scene(shown, NAMES)
    assert "6 cards" in field and "6 cards" in scene.centre_label


def test_cards_seen_going_into_a_hand_are_summarised() -> None:
    many = tuple(parse_card(c) for c in ("3S", "4H", "5D", "6C", "8S", "9H", "KS", "AH"))
    summary = text_table.known_summary(many)
    assert summary.count(" ") < 10 and "4 more" in summary
    assert "A" in summary and "K" in summary  # the highest by name
    assert text_table.known_summary(many[:3]) == " ".join(
        card_label(card) for card in many[:3])


def test_a_burn_stays_on_the_public_table_until_another_player_moves() -> None:
    """Issue 35: a burn gives its player the next turn, and their next play hid it at
    once (the public table showed 3 of 15 burns). The line stays on the public table
    through the burner's next play, until another player moves."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        game, _ = KIND.new_game(KIND.make_rules(None, 3, {}), 0, rng)
        while not KIND.finished(game):
            seat = KIND.to_act(game)
            if seat is None:
                break
            legal = KIND.seat_view(game, seat).deal.legal
            if legal is None:
                break
            actions = legal_action_list(seat, legal)
            before = KIND.public_view(game).deal
            KIND.apply(game, rng.choice(actions), rng)
            after = KIND.public_view(game)
            deal = after.deal
            if deal is None or deal.outcome != "in_progress" or before is None:
                break
            burned_now = len(deal.burned) > len(before.burned) and not deal.pile
            if before.burn is not None and before.burn[0] == seat and before.last is not None \
                    and before.last.seat == seat and not burned_now:
                # The burner played on after their burn: the line is still there.
                line = text_table.burn_line(deal, NAMES)
                assert line is not None and NAMES[seat] in line
                assert line in text_table.table_panel(after, NAMES).description
                checked += 1
            if before.last is not None and seat != before.last.seat \
                    and not burned_now and deal.burn is None:
                assert text_table.burn_line(deal, NAMES) is None  # another player moved
        if checked >= 3:
            break
    assert checked >= 3, "no burn followed by a play of the same player: other seeds"
