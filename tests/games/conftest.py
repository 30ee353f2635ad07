"""The games the suite runs over: every registered game, and the toy game, registered
for the test that uses it (`bot.games.registered`), as a new game would be for good."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games import GAMES, registered
from bot.games.base import GameKindBase
from tests.games.toy import COG as TOY_COG
from tests.games.toy.kind import TOY

# Every registered game, and the toy one: the suite's parameters.
KINDS = [*GAMES.values(), TOY]


@pytest.fixture(params=KINDS, ids=lambda kind: kind.name)
def kind(request: pytest.FixtureRequest) -> Iterator[GameKindBase]:
    kind: GameKindBase = request.param
    if kind.name in GAMES:
        yield kind
        return
    with registered(kind, TOY_COG):
        yield kind


@pytest.fixture
def toy() -> Iterator[GameKindBase]:
    with registered(TOY, TOY_COG):
        yield TOY


# The end-to-end fixtures (a fake Discord, the leak checker, every interaction answered),
# for the toy game's table.
from tests.e2e.conftest import answered, fake, leaks  # noqa: E402, F401
from tests.fake_discord.fixtures import error_logs_fixture  # noqa: E402, F401
