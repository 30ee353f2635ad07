"""Presets and house rules (docs/rules-amerikaner.md sections 2 and 8) as one immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.cards import FULL_PACK, JOKER_BASE, mask_of, parse_card
from bot.errors import INVALID_RULES, GameError

BOOLEAN_OPTIONS = (
    "no_kitty", "jokers", "show_kitty", "kitty_trick", "free_trump", "two_wins",
    "bidder_double", "partner_half", "all_pass_play", "fixed_ten",
)
OPTION_NAMES = (*BOOLEAN_OPTIONS, "target")

# (players) -> (cards each, kitty) for the Norwegian game with a kitty.
_KITTY_LAYOUT = {3: (16, 4), 4: (12, 4), 5: (10, 2)}
_NO_KITTY_REMOVED = {3: ("2C",), 4: (), 5: ("2C", "2D")}
_JOKER_COUNT = {3: 2, 4: 0, 5: 3, 6: 2}
# Options that need a kitty (docs/rules-amerikaner.md section 8).
_KITTY_ONLY = ("show_kitty", "kitty_trick")


@dataclass(frozen=True, slots=True)
class Preset:
    """One preset of docs/rules-amerikaner.md § 2, as data: everything in which the presets differ.
    The rules core, the scoring, the AI and the text read these fields, never a preset's
    name."""

    name: str
    players: tuple[int, int]  # fewest and most players (option `jokers` allows 6)
    options: frozenset[str]  # the house rules that apply (section 8)
    target: int  # the default winning score
    deal: str  # "kitty" (4 or 2 to the bidder), "blind" (the rest face down), "thirteen"
    top_bid: str  # the name of the bid above the highest number bid
    top_with_trumps: bool  # the top bid is all the tricks with trumps and a partner
    redeal: bool  # a hand without a jack, queen or king may claim a redeal (section 3)
    scoring: str  # "tricks" (sections 7.1-7.3) or "fixed" (Kani: the team scores or not)
    bid_range: tuple[int, int] | None  # fixed number bids, else from the tricks per hand
    bid_margin: float  # how many tricks the easy AI keeps in hand when it bids


AMERIKANER_PRESET = Preset(
    name="amerikaner", players=(3, 5), target=52, deal="kitty", top_bid="amerikaner",
    top_with_trumps=False, redeal=False, scoring="tricks", bid_range=None, bid_margin=0.7,
    options=frozenset({"no_kitty", "jokers", "show_kitty", "kitty_trick", "free_trump",
                       "two_wins", "bidder_double", "partner_half", "all_pass_play"}))
NORSK_PRESET = Preset(
    name="norsk", players=(3, 6), target=52, deal="blind", top_bid="amerikaner",
    top_with_trumps=False, redeal=True, scoring="tricks", bid_range=None, bid_margin=0.7,
    options=frozenset({"free_trump", "two_wins", "bidder_double", "partner_half",
                       "all_pass_play"}))
KANI_PRESET = Preset(
    name="kani", players=(4, 4), target=50, deal="thirteen", top_bid="kani",
    top_with_trumps=True, redeal=False, scoring="fixed", bid_range=(6, 12), bid_margin=1.0,
    options=frozenset({"free_trump", "two_wins", "fixed_ten"}))

PRESET_TABLE: Mapping[str, Preset] = {
    p.name: p for p in (AMERIKANER_PRESET, NORSK_PRESET, KANI_PRESET)}
PRESETS = tuple(PRESET_TABLE)
# The most players the `jokers` house rule allows, whatever the preset's own most.
JOKERS_MAX_PLAYERS = 6
# The fewest and the most players of any preset: what `new` offers (the kind's
# players_range); a preset's own range refuses the rest.
PLAYERS_RANGE: tuple[int, int] = (
    min(p.players[0] for p in PRESET_TABLE.values()),
    max(JOKERS_MAX_PLAYERS, *(p.players[1] for p in PRESET_TABLE.values())))


def _half_up(n: int) -> int:
    return (n + 1) // 2


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rules: a preset, a player count and house rules, with everything derived
    from them (deal layout, bid range). Build it with `Rules.create`, which refuses
    inapplicable or conflicting options with a message that says which and why."""

    preset: str
    style: Preset = field(repr=False, compare=False)  # the preset's data (PRESET_TABLE)
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
        style = PRESET_TABLE.get(preset) if isinstance(preset, str) else None
        if style is None:
            raise GameError(INVALID_RULES, reason="unknown_preset", preset=preset,
                            presets=PRESETS)
        if not isinstance(players, int) or isinstance(players, bool):
            raise GameError(INVALID_RULES, reason="players_not_whole")
        flags, target = _parse_options(style, options or {})
        low, high = style.players
        if "jokers" in flags:
            high = JOKERS_MAX_PLAYERS
        if not low <= players <= high:
            raise GameError(INVALID_RULES, reason="player_count", preset=preset, low=low,
                            high=high, players=players)
        removed: tuple[int, ...] = ()
        jokers = 0
        kitty = blind = 0
        if style.deal == "thirteen":
            each = 13
        elif style.deal == "blind":
            each = 52 // players
            blind = 52 - each * players
        elif "jokers" in flags:
            jokers = _JOKER_COUNT[players]
            each = (52 + jokers) // players
        elif "no_kitty" in flags:
            removed = tuple(_card(c) for c in _NO_KITTY_REMOVED[players])
            each = (52 - len(removed)) // players
        else:
            each, kitty = _KITTY_LAYOUT[players]
        if style.bid_range is not None:
            min_bid, max_bid = style.bid_range
        elif kitty:
            min_bid, max_bid = each // 2, each
        else:
            min_bid, max_bid = _half_up(each), each
        if "kitty_trick" in flags:
            min_bid += 1
            max_bid += 1
        pack = (FULL_PACK & ~mask_of(removed)) | sum(1 << (JOKER_BASE + i) for i in range(jokers))
        return cls(preset=style.name, style=style, players=players,
                   options=frozenset(flags), target=target, cards_each=each,
                   kitty_size=kitty, blind_size=blind, jokers=jokers, removed=removed,
                   min_bid=min_bid, max_bid=max_bid, top_bid=style.top_bid, pack=pack)

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
    return PRESET_TABLE[preset].target


def _parse_options(style: Preset, options: Mapping[str, object]) -> tuple[set[str], int]:
    flags: set[str] = set()
    target = style.target
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
        if name not in style.options:
            raise GameError(INVALID_RULES, reason="not_for_preset", option=name,
                            preset=style.name)
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
    return parse_card(text)
