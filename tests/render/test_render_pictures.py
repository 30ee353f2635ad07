"""Pictures (bot/render/pictures.py) of tables described by a game's Scene, and the
running-totals chart: valid PNGs of the promised size and weight, the same bytes for the
same scene and other bytes for another, and a scene that shows only public cards."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog
from PIL import Image

from bot.cards import JOKERS, parse_card
from bot.games.amerikaner import text_table
from bot.games.amerikaner.ai.random_player import random_action
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.views import GameView, hand_view, known_cards
from bot.i18n import install, use_locale
from bot.render.pictures import (
    CHART_MARGIN,
    CHART_SIZE,
    FELT_SIZE,
    LINE_COLOURS,
    TABLE_SIZE,
    chart_layout,
    legend_rows,
    strip_layout,
    table_picture,
    totals_chart,
)
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene
from tests.core_helpers import new_hand, run

KIND = AMERIKANER
NAMES = ["alice", "Bjørn", "Åse Ærlig", "dave 🎲", "erin", "frank"]
MAX_BYTES = 80_000  # a 6-player table measured about 22 KB


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes the whole picture: a truncated or corrupt one raises
    return image


def _game_in_play(players: int, options: dict[str, object], seed: int) -> object:
    """A game in the middle of a trick: at least one card on the table."""
    rng = random.Random(seed)
    game, _deal = KIND.new_game(KIND.make_rules("amerikaner", players, options), 0, rng)
    while True:
        seat = KIND.to_act(game)
        assert seat is not None
        KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
        hand = KIND.public_view(game).hand
        if hand.trick is not None and hand.tricks and rng.random() < 0.3:
            return game


@pytest.mark.parametrize(("players", "options"), [
    (3, {}), (4, {}), (5, {}), (5, {"jokers": True}), (6, {"jokers": True})])
def test_a_table_is_a_small_png_of_the_table_size(players: int,
                                                  options: dict[str, object]) -> None:
    game = _game_in_play(players, options, seed=players)
    scene = KIND.words.table_scene(game, NAMES[:players])
    assert len(scene.seats) == players and scene.centre
    data = table_picture(scene)
    assert _png(data).size == TABLE_SIZE
    assert len(data) < MAX_BYTES


def test_jokers_are_drawn_and_every_card_differs() -> None:
    def scene(cards: tuple[int, ...]) -> Scene:
        seats = tuple(SeatScene(name, (f"{i} pts",), backs=5) for i, name in enumerate(NAMES))
        return Scene("Amerikaner", seats, centre=tuple(enumerate(cards)),
                     groups=(CardGroup("Last trick", cards),))

    with_jokers = table_picture(scene((*JOKERS, parse_card("AS"), parse_card("2H"),
                                       parse_card("10D"))))
    assert _png(with_jokers).size == TABLE_SIZE and len(with_jokers) < MAX_BYTES
    pictures = {table_picture(scene((card,))) for card in range(55)}
    assert len(pictures) == 55


def test_the_same_scene_gives_the_same_picture_and_another_state_another() -> None:
    game = _game_in_play(4, {}, seed=11)
    before = table_picture(KIND.words.table_scene(game, NAMES[:4]))
    assert table_picture(KIND.words.table_scene(game, NAMES[:4])) == before
    seat = KIND.to_act(game)
    KIND.apply(game, random_action(KIND.seat_view(game, seat), random.Random(1)),
               random.Random(1))
    assert table_picture(KIND.words.table_scene(game, NAMES[:4])) != before


def test_a_shedding_game_scene_draws_a_pile_rows_and_a_deck() -> None:
    """What another game needs: cards face up by a seat, a pile, a deck by its count."""
    cards = [parse_card(c) for c in ("4H", "6S", "9D", "QC")]
    seats = (SeatScene("Kari", ("Hand: 5",), cards=tuple(cards[:3]), backs=3, to_act=True),
             SeatScene("Ola", ("Hand: 2",), cards=(cards[3],), backs=3))
    scene = Scene("American", seats, centre=tuple((NO_SEAT, c) for c in cards),
                  centre_label="Pile", groups=(CardGroup("Deck", backs=23),))
    data = table_picture(scene)
    assert _png(data).size == TABLE_SIZE
    fewer = Scene("American", seats, centre=tuple((NO_SEAT, c) for c in cards),
                  centre_label="Pile", groups=(CardGroup("Deck", backs=22),))
    assert table_picture(fewer) != data


def test_tall_seats_stay_whole_inside_the_picture() -> None:
    """Seats at the top and bottom with a face-up row under three lines are taller than
    their room: they are moved in, not cut off at the picture's edge."""
    row = tuple(parse_card(c) for c in ("4H", "6S", "9D"))
    seats = tuple(SeatScene(name, ("1 in hand", "3 face down", "0 deals won"), cards=row,
                            backs=3) for name in ("Kari", "Ola", "Per", "Pål"))
    image = _png(table_picture(Scene("American", seats))).convert("RGB")
    felt = image.getpixel((TABLE_SIZE[0] // 4, TABLE_SIZE[1] // 2))
    for y in (1, TABLE_SIZE[1] - 2):  # the frame around the felt, above and below the seats
        edge = {image.getpixel((x, y)) for x in range(150, 400)}
        assert len(edge) == 1 and edge != {felt}


def test_an_empty_stack_keeps_its_place_and_shows_0() -> None:
    seats = (SeatScene("Kari"), SeatScene("Ola"))

    def picture(deck: int) -> bytes:
        return table_picture(Scene("American", seats, groups=(
            CardGroup("Deck", backs=deck), CardGroup("Burned", backs=5))))

    empty = _png(picture(0)).convert("RGB")
    one = _png(picture(1)).convert("RGB")
    beside = (96, FELT_SIZE, TABLE_SIZE[0], TABLE_SIZE[1])  # the strip right of the deck
    assert empty.crop(beside).tobytes() == one.crop(beside).tobytes()  # Burned did not move
    deck_row = empty.crop((10, FELT_SIZE + 30, 96, TABLE_SIZE[1]))
    assert _has_colour(_colours(deck_row), (245, 245, 245))  # its count, in white


def test_names_the_font_cannot_spell_still_draw() -> None:
    """The bundled font has ASCII only: other letters are drawn by hand (ø is not o),
    and a name of nothing it can draw shows as "?" (not as no name at all)."""
    def picture(name: str) -> bytes:
        return table_picture(Scene("Ærlig — på", (SeatScene(name), SeatScene("x"))))

    assert picture("Bjørn") != picture("Bjorn")
    assert picture("🎲🎲") == picture("Иван") == picture("?") != picture("")


def _colours(image: Image.Image) -> list[tuple[int, int, int]]:
    rgb = image.convert("RGB")
    return [colour for _count, colour in rgb.getcolors(maxcolors=1 << 16)]


def _has_colour(colours: list[tuple[int, int, int]], wanted: tuple[int, int, int]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(colour, wanted, strict=True)) <= 24
               for colour in colours)


@pytest.mark.parametrize(("players", "hands"), [(3, 1), (4, 10), (6, 25)])
def test_the_chart_has_a_line_per_player(players: int, hands: int) -> None:
    rng = random.Random(players)
    totals, running = [], [0] * players
    for _ in range(hands):
        running = [t + rng.randint(-8, 12) for t in running]
        totals.append(tuple(running))
    data = totals_chart("Amerikaner", NAMES[:players], totals, target=52)
    image = _png(data)
    assert image.size == CHART_SIZE and len(data) < MAX_BYTES
    colours = _colours(image)
    assert all(_has_colour(colours, LINE_COLOURS[seat]) for seat in range(players))
    assert not _has_colour(colours, LINE_COLOURS[players])


def test_the_chart_of_a_game_before_its_first_deal_ends() -> None:
    game = _game_in_play(4, {}, seed=2)
    assert KIND.running_totals(game) == []
    assert _png(totals_chart("Amerikaner", NAMES[:4], [])).size == CHART_SIZE


def test_running_totals_are_the_totals_after_each_deal() -> None:
    rng = random.Random(5)
    game, _deal = KIND.new_game(KIND.make_rules("amerikaner", 4, {"target": 20}), 0, rng)
    finished = 0
    while finished < 6:
        seat = KIND.to_act(game)
        applied = KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)
        if applied.deal_finished:
            finished += 1
            totals = KIND.running_totals(game)
            assert len(totals) == finished
            assert totals[-1] == KIND.public_view(game).totals


# ----------------------------------------------------------------- only public cards

def _states(seed: int, preset: str, players: int, options: dict[str, object],
            actions: int = 300) -> Iterator[object]:
    """Every state of a random game over its first `actions` actions (random players
    seldom reach a target: their contracts fail)."""
    rng = random.Random(seed)
    rules = KIND.make_rules(preset, players, {"target": 15, **options})
    game, _deal = KIND.new_game(rules, rng.randrange(players), rng)
    for _ in range(actions):
        yield game
        seat = KIND.to_act(game)
        if seat is None:
            return
        KIND.apply(game, random_action(KIND.seat_view(game, seat), rng), rng)


@pytest.mark.parametrize(("seed", "preset", "players", "options"), [
    (1, "amerikaner", 4, {}), (2, "amerikaner", 4, {"show_kitty": True}),
    (3, "amerikaner", 6, {"jokers": True}), (4, "norsk", 4, {}), (5, "kani", 4, {}),
    (6, "amerikaner", 3, {"all_pass_play": True})])
def test_a_scene_shows_only_cards_the_public_view_shows(seed: int, preset: str, players: int,
                                                        options: dict[str, object]) -> None:
    for game in _states(seed, preset, players, options):
        public = KIND.public_view(game).hand
        scene = KIND.words.table_scene(game, NAMES[:players])
        assert scene.shown_cards() <= known_cards(public)
        assert [seat.backs for seat in scene.seats] == list(public.hand_sizes)
        assert [seat.to_act for seat in scene.seats] == [
            public.to_act == seat for seat in range(players)]


def test_the_trick_on_the_table_is_drawn_by_seat() -> None:
    hand = run(new_hand(options={"no_kitty": True},
                        fixed={1: "AS KS AH KH QH JH 10H 9H 8H 7H 6H 5H 4H"}),
               "1 bid 7", "2 pass", "3 pass", "0 pass", "1 play AS call QS", "2 play AD")
    view = GameView(rules=hand.rules, hand_number=3, totals=(5, -2, 0, 9), finished=False,
                    winners=(), hand=hand_view(hand))
    scene = text_table.table_scene(view, NAMES[:4])
    assert scene.centre == ((1, parse_card("AS")), (2, parse_card("AD")))
    assert [seat.to_act for seat in scene.seats] == [False, False, False, True]
    assert [seat.backs for seat in scene.seats] == [13, 12, 12, 13]
    assert scene.groups[0].cards == (parse_card("QS"),)  # the called card
    assert scene.shown_cards() == {parse_card(c) for c in ("AS", "AD", "QS")}
    assert "5 pts" in scene.seats[0].lines[0] and "-2 pts" in scene.seats[1].lines[0]


def test_the_charts_own_word_is_translated() -> None:
    """The axis's word is the renderer's own: it comes through the translation function."""
    catalog = Catalog(locale="nb")
    catalog.add("Deal", "Giv")
    install("test-render", catalog)
    english = totals_chart("Amerikaner", NAMES[:3], [(1, 2, 3)])
    with use_locale("test-render"):
        translated = totals_chart("Amerikaner", NAMES[:3], [(1, 2, 3)])
    assert translated != english
    assert totals_chart("Amerikaner", NAMES[:3], [(1, 2, 3)], axis_label="Giv") == translated


# ----------------------------------------------------------------- made for a phone (issue 27)

# Discord shows an embed's image inside 400 x 300 on a desktop
# (https://github.com/leovoel/embed-visualizer/issues/30) and about 300 px wide on a
# phone 390 px wide (the message column less the avatar and the embed's margins).
PHONE_WIDTH = 300
DESKTOP_BOX = (400, 300)
# The 800 x 500 picture before: its smallest words were 17 px, 6.4 px high on a phone.
OLD_SMALLEST_SHOWN = 17 * PHONE_WIDTH / 800


def _drawn_words(monkeypatch: pytest.MonkeyPatch, scene: Scene) -> list[tuple[str, float]]:
    """Every run of words the table's picture draws, with its size in the picture."""
    import bot.render.pictures as pictures

    drawn: list[tuple[str, float]] = []
    board = pictures.Board
    original = board.text

    def text(self: object, x: float, baseline: float, words: str, size: float,
             *args: object, **kwargs: object) -> float:
        drawn.append((words, size))
        return original(self, x, baseline, words, size, *args, **kwargs)  # type: ignore

    monkeypatch.setattr(board, "text", text)
    table_picture(scene)
    return drawn


def _american_scene(players: int, names: list[str]) -> Scene:
    from bot.games.american.ai.random_player import random_action as american_random
    from bot.games.american.kind import AMERICAN

    rng = random.Random(players)
    game, _deal = AMERICAN.new_game(AMERICAN.make_rules(None, players, {}), 0, rng)
    for _ in range(25):
        seat = AMERICAN.to_act(game)
        AMERICAN.apply(game, american_random(AMERICAN.seat_view(game, seat).deal, rng), rng)
    return AMERICAN.words.table_scene(game, names[:players])


LONG_NAMES = ["Émile the Long-Named", "AI 1 (strong)", "Ola Nordmann", "Åse Ærlig Berg",
              "Kari Nordkvinne", "Bjørn Bjørnstad"]
SCENES = [("amerikaner", n) for n in (3, 4, 5, 6)] + [("american", n) for n in (2, 3, 4, 5)]


def _scene(game: str, players: int, names: list[str]) -> Scene:
    if game == "american":
        return _american_scene(players, names)
    options = {"jokers": True} if players == 6 else {}
    return KIND.words.table_scene(_game_in_play(players, options, seed=players), names[:players])


def test_the_table_is_square_or_portrait_and_shown_as_wide_on_a_phone() -> None:
    image = _png(table_picture(_scene("amerikaner", 4, LONG_NAMES)))
    width, height = image.size
    assert width <= height <= 1.25 * width  # square or a little portrait
    # Shown as wide on a phone as a landscape picture, and at least 250 px on a desktop.
    assert min(DESKTOP_BOX[0] / width, DESKTOP_BOX[1] / height) * width >= 250


@pytest.mark.parametrize(("game", "players"), SCENES)
def test_words_are_twice_as_high_as_before_at_the_size_shown(
        monkeypatch: pytest.MonkeyPatch, game: str, players: int) -> None:
    with use_locale("nb"):
        drawn = _drawn_words(monkeypatch, _scene(game, players, LONG_NAMES))
    assert drawn
    width = TABLE_SIZE[0]
    smallest = min(size for _words, size in drawn)
    assert smallest * PHONE_WIDTH / width >= 2 * OLD_SMALLEST_SHOWN
    desktop = min(DESKTOP_BOX[0] / width, DESKTOP_BOX[1] / TABLE_SIZE[1])
    assert smallest * desktop >= 10  # 8.5 px before on a desktop


@pytest.mark.parametrize(("game", "players"), SCENES)
def test_seat_names_that_fit_in_two_rows_are_never_cut(
        monkeypatch: pytest.MonkeyPatch, game: str, players: int) -> None:
    drawn = " ".join(words for words, _size in _drawn_words(
        monkeypatch, _scene(game, players, LONG_NAMES)))
    for name in LONG_NAMES[:players]:
        for word in name.split():
            assert word in drawn, (name, drawn)


def test_a_picture_of_the_table_has_no_panel_repeating_the_embed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scene = _scene("amerikaner", 4, LONG_NAMES)
    drawn = {words for words, _size in _drawn_words(monkeypatch, scene)}
    assert scene.title not in drawn and not set(scene.lines) & drawn


def test_the_painters_chart_draws_the_target_and_the_standings_order() -> None:
    import asyncio

    from bot.render.painter import Painter

    totals = [(10, 4, 4), (30, 20, 20)]
    painter = Painter()
    try:
        with_target = asyncio.run(painter.chart("Amerikaner", NAMES[:3], totals, target=52))
    finally:
        painter.close()
    assert with_target == totals_chart("Amerikaner", NAMES[:3], totals, target=52,
                                       axis_label="Deal")
    assert with_target != totals_chart("Amerikaner", NAMES[:3], totals, axis_label="Deal")
    # Seats 1 and 2 are level: the game's standings put seat 2 second, and so does the
    # chart (its legend's second row is in seat 2's colour).
    image = _png(totals_chart("Amerikaner", NAMES[:3], totals, places=[1, 3, 2]))
    second = legend_rows(NAMES[:3], totals[-1], [1, 3, 2])[1]
    assert second.seat == 2
    row = image.convert("RGB").crop((CHART_MARGIN + 4, round(second.baseline) - 16,
                                     CHART_MARGIN + 18, round(second.baseline) - 4))
    assert _has_colour(_colours(row), LINE_COLOURS[2])
    assert not _has_colour(_colours(row), LINE_COLOURS[1])


def test_the_target_line_is_drawn_across_the_plot() -> None:
    image = _png(totals_chart("Amerikaner", NAMES[:3], [(10, 4, 4)], target=52)).convert("RGB")
    plain = _png(totals_chart("Amerikaner", NAMES[:3], [(10, 4, 4)])).convert("RGB")
    layout = chart_layout(NAMES[:3], [(0, 0, 0), (10, 4, 4)], 52, "Deal")
    left, top, right, bottom = layout.plot
    low, high, _step = layout.values
    y = round(bottom + (52 - low) / (high - low) * (top - bottom))
    band = (round(left) + 10, y - 1, round(left) + 200, y + 2)
    whites = [colour for colour in _colours(image.crop(band)) if min(colour) > 235]
    assert whites  # the dashed white line
    assert not [c for c in _colours(plain.crop(band)) if min(c) > 235]


# ----------------------------------------------------------------- the chart for a phone

# The 800 x 500 chart before: its smallest words were 15 px, 5.6 px high on a phone
# (300 px wide: 0.375) and 7.5 px on a desktop (inside 400 x 300: 0.5).
OLD_CHART_SMALLEST = 15
OLD_CHART_SHOWN = {"phone": OLD_CHART_SMALLEST * PHONE_WIDTH / 800,
                   "desktop": OLD_CHART_SMALLEST * min(DESKTOP_BOX[0] / 800,
                                                      DESKTOP_BOX[1] / 500)}


def _chart_words(monkeypatch: pytest.MonkeyPatch, *args: object, **kwargs: object
                 ) -> list[tuple[str, float]]:
    """Every run of words the chart draws, with its size in the picture."""
    import bot.render.pictures as pictures

    drawn: list[tuple[str, float]] = []
    original = pictures.Canvas.text

    def text(self: object, x: float, baseline: float, words: str, size: float,
             *rest: object, **named: object) -> float:
        drawn.append((words, size))
        return original(self, x, baseline, words, size, *rest, **named)  # type: ignore

    monkeypatch.setattr(pictures.Canvas, "text", text)
    totals_chart(*args, **kwargs)  # type: ignore[arg-type]
    return drawn


def _shown_scale(size: tuple[int, int]) -> dict[str, float]:
    width, height = size
    return {"phone": PHONE_WIDTH / width,
            "desktop": min(DESKTOP_BOX[0] / width, DESKTOP_BOX[1] / height)}


def test_the_chart_is_portrait_like_the_table_and_shown_as_wide() -> None:
    image = _png(totals_chart("Amerikaner", LONG_NAMES, [(1,) * 6, (5,) * 6], target=52))
    assert image.size == CHART_SIZE == TABLE_SIZE  # the two pictures show alike
    width, height = image.size
    assert width <= height <= 1.25 * width
    assert _shown_scale(image.size)["desktop"] * width >= 250


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_charts_words_are_twice_as_high_as_before_at_the_size_shown(
        monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    totals = [tuple((deal * (seat + 3)) % 40 - 10 for seat in range(players))
              for deal in range(1, 25)]
    with use_locale("nb"):
        drawn = _chart_words(monkeypatch, "Amerikaner", LONG_NAMES[:players], totals,
                             target=52)
    smallest = min(size for _words, size in drawn)
    for screen, scale in _shown_scale(CHART_SIZE).items():
        assert smallest * scale >= 2 * OLD_CHART_SHOWN[screen], screen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_charts_names_that_fit_in_two_rows_are_never_cut(players: int) -> None:
    # Discord display names have at most 32 characters: the longest here fit two rows.
    names = [*LONG_NAMES[:players - 1], "Bartholomew Featherstone-Smythe"]
    final = list(range(players))
    places = [players - seat for seat in range(players)]
    legend = legend_rows(names, final, places)
    assert [row.seat for row in legend] == sorted(range(players), key=lambda s: places[s])
    for row in legend:
        assert " ".join(row.rows) == f"{places[row.seat]}. {names[row.seat]}", row
        assert 1 <= len(row.rows) <= 2
    layout = chart_layout(names, [tuple(0 for _ in names), tuple(final)], 52, "Deal",
                          places)
    left, top, right, bottom = layout.plot
    assert bottom - top >= 150 and left < right  # the plot keeps room for its lines


# ----------------------------------------------------------------- the strip's labels

def _scenes_of_whole_games(game: str, players: int, options: dict[str, object],
                           preset: str | None, seed: int) -> Iterator[Scene]:
    """The table's scene after every action of a random game (a few deals of it)."""
    from bot.games.american.ai.random_player import random_action as american_random
    from bot.games.american.kind import AMERICAN

    kind = AMERICAN if game == "american" else KIND
    rng = random.Random(seed)
    state, _deal = kind.new_game(kind.make_rules(preset, players, options), 0, rng)
    for _ in range(400):
        seat = kind.to_act(state)
        if seat is None:
            return
        yield kind.words.table_scene(state, LONG_NAMES[:players])
        view = kind.seat_view(state, seat)
        action = (american_random(view.deal, rng) if game == "american"
                  else random_action(view, rng))
        kind.apply(state, action, rng)


@pytest.mark.parametrize(("game", "players", "options", "preset"), [
    ("amerikaner", 3, {"show_kitty": True}, "amerikaner"),
    ("amerikaner", 4, {}, "kani"), ("amerikaner", 5, {}, "norsk"),
    ("amerikaner", 6, {"jokers": True}, "amerikaner"), ("american", 2, {}, None),
    ("american", 5, {}, None)])
@pytest.mark.parametrize("locale", ["en", "nb"])
def test_every_strip_label_fits_whole_at_the_phone_size(
        game: str, players: int, options: dict[str, object], preset: str | None,
        locale: str) -> None:
    """Issue 27: the strip under the felt cut "Called card…" and "Last trick…" in English.
    Every label of every state of a game is laid out whole (strip_layout decides; the
    picture draws what it decided), and every card row has its place."""
    labels: set[str] = set()
    with use_locale(locale):
        for scene in _scenes_of_whole_games(game, players, options, preset, seed=players):
            places = strip_layout(scene)
            groups = [place.group for place in places if place.group is not None]
            assert groups == list(scene.groups), scene.groups
            for place in places:
                label = place.group.label if place.group is not None else scene.centre_label
                assert " ".join(place.rows) == label, (label, place.rows)
                assert place.left + place.width <= TABLE_SIZE[0]
                labels.add(label)
    assert labels  # the strip had words to check


# ------------------------------------------------------------ Persian (issue 55)
PERSIAN_NAMES = ["علی", "Sara", "مریم رضایی", "dave"]


def test_persian_words_are_shaped_joined_and_right_to_left() -> None:
    """Pictures shape Persian (libraqm, with the font of bot/render/fonts): a word's
    letters joined make it narrower than the same letters drawn apart, and it is laid out
    right to left, its first letter at the right."""
    from PIL import ImageDraw

    from bot.render.letters import rtl_direction, rtl_font, shapes, text_width

    assert shapes(), "Pillow without libraqm/FriBiDi: Persian is drawn unshaped"
    word = "کارت‌های"
    apart = sum(text_width(letter, 40) for letter in word)
    assert text_width(word, 40) < 0.9 * apart
    font = rtl_font(40)

    def ink(text: str) -> Image.Image:
        image = Image.new("L", (400, 80))
        ImageDraw.Draw(image).text((10, 60), text, font=font, fill=255, anchor="ls",
                                   direction=rtl_direction())
        return image

    def height_at(image: Image.Image, right: bool) -> int:
        """How tall the ink is in the first inked column from the right or the left."""
        box = image.getbbox()
        assert box is not None
        x = box[2] - 2 if right else box[0] + 1
        column = [image.getpixel((x, y)) for y in range(image.height)]
        return sum(1 for v in column if v > 128)

    # ا (a tall stroke) then و (short): right to left, the tall one stands at the right.
    drawn = ink("ا  و")
    assert height_at(drawn, right=True) > height_at(drawn, right=False)


def test_a_persian_table_and_chart_are_drawn_shaped(tmp_path: object) -> None:
    """The table picture and the totals chart of a Persian table: their words shaped
    (drawn by the Persian font, not left out), names in Latin or Arabic script whole."""
    drawn: list[str] = []
    from bot.render import canvas as canvas_module

    original = canvas_module._draw_pieces

    def spy(draw: object, x: float, baseline: float, pieces: object, *args: object) -> None:
        drawn.extend(what for kind, what in pieces if kind == "rtl")  # type: ignore[attr-defined]
        original(draw, x, baseline, pieces, *args)  # type: ignore[arg-type]

    canvas_module._draw_pieces = spy  # type: ignore[assignment]
    try:
        with use_locale("fa"):
            game = _game_in_play(4, {}, seed=4)
            table = table_picture(KIND.words.table_scene(game, PERSIAN_NAMES))
            chart = totals_chart(text_table.title(), PERSIAN_NAMES,
                                 [(5, -3, 8, 0), (12, 4, 2, -6)], target=52)
    finally:
        canvas_module._draw_pieces = original  # type: ignore[assignment]
    assert _png(table).size == TABLE_SIZE and _png(chart).size == CHART_SIZE
    assert any("علی" in words for words in drawn)
    assert any("مریم رضایی" in words for words in drawn)
    assert any("آمریکانر" in words for words in drawn)
