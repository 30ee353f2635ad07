"""A table's rules (docs/rules-american.md sections 1, 7 and 8) as one immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.errors import INVALID_RULES, GameError

GAME = "american"

# The house rules that are on or off (section 8), in the order the rules text lists them.
BOOLEAN_OPTIONS = ("same_rank", "four_burns", "swap", "blind_down", "voluntary_pickup")
OPTION_NAMES = (*BOOLEAN_OPTIONS, "target")

MIN_PLAYERS = 2
MAX_PLAYERS = 5
DEFAULT_PLAYERS = 2
DEFAULT_TARGET = 1
# Cards each player gets face down, face up and in hand (section 2); the hand is drawn
# back up to this size while the deck lasts (section 4, Decision).
ROW = 3


@dataclass(frozen=True, slots=True)
class Rules:
    """The player count, the house rules that are on, and the deals to win the match.
    Build it with `Rules.create`, which refuses unknown options and values out of range
    with `invalid_rules` and a reason."""

    players: int
    options: frozenset[str]
    target: int

    @classmethod
    def create(cls, players: object = DEFAULT_PLAYERS,
               options: Mapping[str, object] | None = None) -> Rules:
        if not isinstance(players, int) or isinstance(players, bool):
            raise GameError(INVALID_RULES, reason="players_not_whole", value=players)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise GameError(INVALID_RULES, reason="player_count", players=players,
                            low=MIN_PLAYERS, high=MAX_PLAYERS)
        flags, target = _parse_options(options or {})
        return cls(players=players, options=frozenset(flags), target=target)

    def has(self, option: str) -> bool:
        return option in self.options

    def to_json(self) -> dict[str, object]:
        """The record's `rules`: every option on, and the target."""
        options: dict[str, object] = {name: True for name in BOOLEAN_OPTIONS
                                      if name in self.options}
        options["target"] = self.target
        return {"game": GAME, "players": self.players, "options": options}

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """The rules of a record (`rules.game` must be "american"); options missing are
        off, `players` missing is 2."""
        if not isinstance(data, Mapping):
            raise GameError(INVALID_RULES, reason="rules_not_object")
        game = data.get("game")
        if game != GAME:
            raise GameError(INVALID_RULES, reason="wrong_game", game=game, expected=GAME)
        options = data.get("options")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise GameError(INVALID_RULES, reason="options_not_object")
        return cls.create(data.get("players", DEFAULT_PLAYERS), options)


def _parse_options(options: Mapping[str, object]) -> tuple[set[str], int]:
    flags: set[str] = set()
    target = DEFAULT_TARGET
    for name, value in options.items():
        if name == "target":
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise GameError(INVALID_RULES, reason="bad_target", value=value)
            target = value
        elif name not in BOOLEAN_OPTIONS:
            raise GameError(INVALID_RULES, reason="unknown_option", option=name,
                            options=OPTION_NAMES)
        elif value is True:
            flags.add(name)
        elif value is not False and value is not None:  # an option set to false is off
            raise GameError(INVALID_RULES, reason="not_on_or_off", option=name, value=value)
    return flags, target
