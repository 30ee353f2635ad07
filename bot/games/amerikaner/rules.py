"""Presets and house rules (RULES.md sections 2 and 8) as one immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.cards import FULL_PACK, JOKER_BASE, mask_of, parse_card
from bot.errors import INVALID_RULES, GameError

PRESETS = ("amerikaner", "norsk", "kani")
BOOLEAN_OPTIONS = (
    "no_kitty", "jokers", "show_kitty", "kitty_trick", "free_trump", "two_wins",
    "bidder_double", "partner_half", "all_pass_play", "fixed_ten",
)
OPTION_NAMES = (*BOOLEAN_OPTIONS, "target")

# (players) -> (cards each, kitty) for the Norwegian game with a kitty.
_KITTY_LAYOUT = {3: (16, 4), 4: (12, 4), 5: (10, 2)}
_NO_KITTY_REMOVED = {3: ("2C",), 4: (), 5: ("2C", "2D")}
_JOKER_COUNT = {3: 2, 4: 0, 5: 3, 6: 2}
_PLAYER_RANGE = {"amerikaner": (3, 5), "norsk": (3, 6), "kani": (4, 4)}

# Which options apply to what (RULES.md section 8).
_KITTY_ONLY = ("show_kitty", "kitty_trick")
_PRESET_OPTIONS = {
    "amerikaner": {"no_kitty", "jokers", "show_kitty", "kitty_trick", "free_trump",
                   "two_wins", "bidder_double", "partner_half", "all_pass_play"},
    "norsk": {"free_trump", "two_wins", "bidder_double", "partner_half", "all_pass_play"},
    "kani": {"free_trump", "two_wins", "fixed_ten"},
}


def _half_up(n: int) -> int:
    return (n + 1) // 2


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rules: a preset, a player count and house rules, with everything derived
    from them (deal layout, bid range). Build it with `Rules.create`, which refuses
    inapplicable or conflicting options with a message that says which and why."""

    preset: str
    players: int
    options: frozenset[str]
    target: int
    cards_each: int
    kitty_size: int
    blind_size: int
    jokers: int
    removed: tuple[int, ...]
    min_bid: int
    max_bid: int
    top_bid: str
    pack: int = field(repr=False)

    @classmethod
    def create(cls, preset: str = "amerikaner", players: int = 4,
               options: Mapping[str, object] | None = None) -> Rules:
        if preset not in PRESETS:
            raise GameError(INVALID_RULES, reason="unknown_preset", preset=preset,
                            presets=tuple(PRESETS))
        if not isinstance(players, int) or isinstance(players, bool):
            raise GameError(INVALID_RULES, reason="players_not_whole")
        flags, target = _parse_options(preset, options or {})
        low, high = _PLAYER_RANGE[preset]
        if "jokers" in flags:
            high = 6
        if not low <= players <= high:
            raise GameError(INVALID_RULES, reason="player_count", preset=preset, low=low,
                            high=high, players=players)
        removed: tuple[int, ...] = ()
        jokers = 0
        kitty = blind = 0
        if preset == "kani":
            each, top = 13, "kani"
            min_bid, max_bid = 6, 12
        elif preset == "norsk":
            each, top = 52 // players, "amerikaner"
            blind = 52 - each * players
            min_bid, max_bid = _half_up(each), each
        elif "jokers" in flags:
            jokers = _JOKER_COUNT[players]
            each, top = (52 + jokers) // players, "amerikaner"
            min_bid, max_bid = _half_up(each), each
        elif "no_kitty" in flags:
            removed = tuple(_card(c) for c in _NO_KITTY_REMOVED[players])
            each, top = (52 - len(removed)) // players, "amerikaner"
            min_bid, max_bid = _half_up(each), each
        else:
            each, kitty = _KITTY_LAYOUT[players]
            top = "amerikaner"
            min_bid, max_bid = each // 2, each
        if "kitty_trick" in flags:
            min_bid += 1
            max_bid += 1
        pack = (FULL_PACK & ~mask_of(removed)) | sum(1 << (JOKER_BASE + i) for i in range(jokers))
        return cls(preset=preset, players=players, options=frozenset(flags), target=target,
                   cards_each=each, kitty_size=kitty, blind_size=blind, jokers=jokers,
                   removed=removed, min_bid=min_bid, max_bid=max_bid, top_bid=top, pack=pack)

    def has(self, option: str) -> bool:
        return option in self.options

    @property
    def top_value(self) -> int:
        """The top bid as a number, one above the highest number bid (for ordering)."""
        return self.max_bid + 1

    @property
    def has_kitty(self) -> bool:
        return self.kitty_size > 0

    def bid_name(self, value: int) -> int | str:
        """A bid as records write it: the number, or the top bid's name."""
        return self.top_bid if value == self.top_value else value

    def to_json(self) -> dict[str, object]:
        options: dict[str, object] = {name: True for name in sorted(self.options)}
        options["target"] = self.target
        return {"preset": self.preset, "players": self.players, "options": options}

    @classmethod
    def from_json(cls, data: object) -> Rules:
        if not isinstance(data, Mapping):
            raise GameError(INVALID_RULES, reason="rules_not_object")
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise GameError(INVALID_RULES, reason="options_not_object")
        return cls.create(data.get("preset", "amerikaner"), data.get("players", 4), options)

def default_target(preset: str) -> int:
    return 50 if preset == "kani" else 52


def _parse_options(preset: str, options: Mapping[str, object]) -> tuple[set[str], int]:
    flags: set[str] = set()
    target = default_target(preset)
    for name, value in options.items():
        if name == "target":
            if value is None:
                continue
            if (not isinstance(value, int) or isinstance(value, bool)) or value <= 0:
                raise GameError(INVALID_RULES, reason="bad_target", value=value)
            target = value
            continue
        if name not in BOOLEAN_OPTIONS:
            raise GameError(INVALID_RULES, reason="unknown_option", option=name,
                            options=OPTION_NAMES)
        if value is False or value is None:
            continue  # an option set to false is never refused
        if value is not True:
            raise GameError(INVALID_RULES, reason="not_on_or_off", option=name, value=value)
        flags.add(name)
    for name in sorted(flags):
        if name not in _PRESET_OPTIONS[preset]:
            raise GameError(INVALID_RULES, reason="not_for_preset", option=name,
                            preset=preset)
    if "bidder_double" in flags and "partner_half" in flags:
        raise GameError(INVALID_RULES, reason="exclusive", options=("bidder_double",
                                                                    "partner_half"))
    no_kitty_by = "no_kitty" if "no_kitty" in flags else "jokers" if "jokers" in flags else None
    if no_kitty_by:
        for name in _KITTY_ONLY:
            if name in flags:
                raise GameError(INVALID_RULES, reason="needs_kitty", option=name,
                                by=no_kitty_by)
    return flags, target


def _card(text: str) -> int:
    card = parse_card(text)
    assert card is not None, text
    return card
