"""/american: American's own commands and buttons (play a rank, pick up the pile, swap
hand cards for face-up cards, turn over a face-down card) on the shared table of
cogs/tables/, which also gives this group the commands every game shares (join, hand,
leave, export, ...).

A thin adapter: it parses what players type or click into the game's actions; the table
service checks who may act and the rules core judges them. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.cards import RANKS, card_label, card_name, parse_card
from bot.errors import CARD_NOT_IN_HAND, INVALID_CARD, GameError
from bot.games.american.actions import FLIP, PICKUP, PLAY, SWAP, Action
from bot.games.american.kind import AMERICAN
from bot.games.american.rules import MAX_PLAYERS, MIN_PLAYERS
from bot.games.american.text_hand import (
    choice_all,
    control_label,
    fewer_option,
    fewer_placeholder,
    flip_label,
    give_placeholder,
    play_label,
    position_choice,
    swap_step_panel,
    take_placeholder,
)
from bot.games.american.views import GameView, LegalActions
from bot.render import button_label
from bot.tables.errors import TableError
from bot.tables.table import PLAYING, Table
from bot.typed_cards import (
    choice_name,
    norwegian_suffix,
    read_cards,
    read_some,
    typed_matches,
    typed_value,
)
from cogs.tables.api import (
    HINT_EMOJI,
    HINT_STYLE,
    CommandWords,
    Components,
    GameCog,
    TableBot,
    TableButton,
    TableSelect,
    choices,
    select_options,
    to_embed,
)

GAME = "american"

# The rank buttons a panel shows at most: one a rank. With the pick-up, the refresh and
# the platform's Hint they take at most four rows of five; the menu to play fewer takes
# the fifth.
RANK_BUTTONS = 13


def _names(cards: tuple[int, ...] | list[int]) -> str:
    """Cards in a custom id or a menu's value: `7S-7H`."""
    return "-".join(card_name(c) for c in cards)


def _read_names(text: str) -> tuple[int, ...]:
    """The cards of `_names` (the bot's own, but read as strictly as what users type)."""
    return tuple(parse_card(word) for word in text.split("-") if word)


def _fewer(legal: LegalActions) -> list[tuple[int, ...]]:
    """The plays of fewer than all the cards of a playable rank: 1 .. n-1 of them."""
    plays: list[tuple[int, ...]] = []
    for rank in legal.ranks:
        same = legal.cards_of_rank(rank)
        plays.extend(same[:count] for count in range(1, len(same)))
    return plays


def _marked(button: TableButton, marked: bool) -> TableButton:
    """The hint's move: green, with a star (cogs.tables.api.HINT_STYLE, HINT_EMOJI)."""
    if marked:
        button.item.style = HINT_STYLE
        button.item.emoji = HINT_EMOJI
    return button


def hand_components(table: Table, view: GameView, hint: Action | None = None
                    ) -> Components:
    """A player's own controls: exactly the actions legal now; the hint's move marked."""
    ui = Components()
    t, v = table.id, table.version
    deal = view.deal
    legal = deal.legal if deal is not None else None
    if legal is not None and legal.phase == "swap":
        options = select_options((card_label(c), card_name(c)) for c in legal.hand)
        if options and legal.up:
            ui.add_item(TableSelect(t, f"{v}:give", options, placeholder=give_placeholder(),
                                    min_values=1, max_values=min(len(options),
                                                                 len(legal.up))))
        ui.add_item(_marked(TableButton(t, f"{v}:keep", label=control_label("keep"),
                                        style=discord.ButtonStyle.primary),
                            hint is not None and hint.kind == SWAP and not hint.cards))
    elif legal is not None and legal.phase == "flip":
        for index in legal.indexes:
            ui.add_item(_marked(TableButton(t, f"{v}:flip:{index}", label=flip_label(index),
                                            style=discord.ButtonStyle.primary),
                                hint is not None and hint.kind == FLIP
                                and hint.position == index))
    elif legal is not None:
        for rank in legal.ranks[:RANK_BUTTONS]:
            cards = legal.cards_of_rank(rank)
            ui.add_item(_marked(TableButton(t, f"{v}:play:{_names(cards)}",
                                            label=play_label(cards),
                                            style=discord.ButtonStyle.primary),
                                hint is not None and hint.kind == PLAY
                                and hint.cards[0] % 13 == rank))
        if legal.can_pickup:
            ui.add_item(_marked(TableButton(t, f"{v}:pickup", label=control_label("pickup"),
                                            style=discord.ButtonStyle.danger),
                                hint is not None and hint.kind == PICKUP))
        fewer = _fewer(legal)
        if fewer:
            options = select_options((fewer_option(c), _names(c)) for c in fewer)
            ui.add_item(TableSelect(t, f"{v}:fewer", options,
                                    placeholder=fewer_placeholder()))
    ui.add_item(TableButton(t, "hand", label=button_label("refresh"), emoji="🔄"))
    return ui


def take_components(table: Table, given: tuple[int, ...], up: tuple[int, ...]) -> Components:
    """The second step of a swap: the face-up cards taken for the hand cards given."""
    ui = Components()
    options = select_options((card_label(c), card_name(c)) for c in up)
    ui.add_item(TableSelect(table.id, f"{table.version}:swap:{_names(given)}", options,
                            placeholder=take_placeholder(len(given)),
                            min_values=len(given), max_values=len(given)))
    ui.add_item(TableButton(table.id, "hand", label=control_label("back"), emoji="↩"))
    return ui


_PLAYERS_WORDS = f"Number of players ({MIN_PLAYERS} to {MAX_PLAYERS})"


class American(GameCog):
    """American, the shedding game, at the table in this channel."""

    group = app_commands.Group(name="american",
                               description="Play American, the shedding game (Idiot)",
                               guild_only=True)

    kind = AMERICAN
    command_words = CommandWords(
        # The range from the rules: the English reads it, and the Norwegian is found by
        # the English, so a changed range cannot keep a stale translation.
        new="Open an American table in this channel", players=_PLAYERS_WORDS,
        target="Deals to win the match (default 1)", settings_players=_PLAYERS_WORDS,
        settings_target="Deals to win the match",
        settings_options="House rules, e.g. same_rank swap ('none': none)")

    # ------------------------------------------------------------- the hand's controls

    def hand_components(self, table: Table, view: Any, hint: Any = None
                        ) -> discord.ui.View:
        return hand_components(table, view, hint)

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        op, args = parts[0], parts[1:]
        if op == "give":
            await self._swap_step(interaction, table, version, values)
            return
        make = self._component_action(op, args, values)
        await self.act_on_click(interaction, table, version, make)

    @staticmethod
    def _component_action(op: str, args: list[str], values: list[str]
                          ) -> Callable[[int], Action]:
        """The action of a button or menu. Its custom id and values are the bot's own,
        but read as strictly as what users type."""
        if op == "play" and args:
            cards = _read_names(args[0])
            return lambda seat: Action.play(seat, cards)
        if op == "fewer" and values:
            chosen = _read_names(values[0])
            return lambda seat: Action.play(seat, chosen)
        if op == "pickup":
            return Action.pickup
        if op == "keep":
            return lambda seat: Action.swap(seat, (), ())
        if op == "swap" and args:
            given = _read_names(args[0])
            taken = tuple(parse_card(name) for name in values)
            return lambda seat: Action.swap(seat, given, taken)
        if op == "flip" and args and args[0].isascii() and args[0].isdigit():
            index = int(args[0])
            return lambda seat: Action.flip(seat, index)
        raise TableError("bad_input", reason="old_button")

    async def _swap_step(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, values: list[str]) -> None:
        """The hand cards to give are chosen: ask which face-up cards they replace.
        Nothing changes until that is chosen too."""
        seat = self.my_seat(table, interaction.user.id)
        view = table.seat_view(seat) if table.stage == PLAYING else None
        legal = view.deal.legal if view is not None and view.deal is not None else None
        if version != table.version or legal is None or legal.phase != "swap":
            await self.answer_stale(interaction, table)
            return
        given = tuple(parse_card(name) for name in values)
        for card in given:
            if card not in legal.hand:
                raise GameError(CARD_NOT_IN_HAND, card=card)
        await interaction.response.edit_message(
            embed=to_embed(swap_step_panel(given)), view=take_components(table, given, legal.up))

    # ------------------------------------------------------------- slash commands

    @group.command(name="play", description="Play cards of one rank onto the pile")
    @app_commands.describe(cards="The cards, e.g. 7S 7H, or a rank, e.g. 7 (all you hold)")
    async def play(self, interaction: discord.Interaction[Any], cards: str) -> None:
        table = self.table_here(interaction)

        def make(seat: int) -> Action:
            view = table.seat_view(seat)
            hand = view.deal.hand if view is not None and view.deal is not None else ()
            return Action.play(seat, _parse_play(cards, hand or ()))
        await self.act(interaction, table, make)

    @play.autocomplete("cards")
    async def play_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "play":
            return []
        plays = [(choice_all(legal.cards_of_rank(r)), legal.cards_of_rank(r))
                 for r in legal.ranks]
        plays.extend((fewer_option(c), c) for c in _fewer(legal))
        # What is typed so far starts the play's first card in any of its names (English
        # notation, label, Norwegian letters or words), or the whole value.
        typed = current.strip()
        return choices((name + norwegian_suffix(cards), _spaced(cards)) for name, cards in plays
                        if _spaced(cards).startswith(typed.upper())
                        or typed_matches(cards[0], typed))

    @group.command(name="pickup", description="Pick up the pile")
    async def pickup(self, interaction: discord.Interaction[Any]) -> None:
        await self.act(interaction, self.table_here(interaction), Action.pickup)

    @group.command(name="swap", description="Before play: swap hand cards for face-up cards")
    @app_commands.describe(hand="Hand cards to give, e.g. 3C 5D ('none' to keep your cards)",
                           up="Face-up cards to take, as many, e.g. KS AH")
    async def swap(self, interaction: discord.Interaction[Any], hand: str = "none",
                   up: str = "") -> None:
        def make(seat: int) -> Action:
            keep = hand.strip().lower() in ("", "none")
            return Action.swap(seat, () if keep else _parse_cards(hand),
                               () if keep else _parse_cards(up))
        await self.act(interaction, self.table_here(interaction), make)

    @swap.autocomplete("hand")
    async def swap_hand_complete(self, interaction: discord.Interaction[Any], current: str
                                 ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "swap":
            return []
        return _more_cards(current, legal.hand, len(legal.up), ["none"])

    @swap.autocomplete("up")
    async def swap_up_complete(self, interaction: discord.Interaction[Any], current: str
                               ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "swap":
            return []
        given = str(getattr(interaction.namespace, "hand", "") or "")
        count = len(read_some(given))
        return _more_cards(current, legal.up, count, [])

    @group.command(name="flip", description="Turn over one of your face-down cards")
    @app_commands.describe(position="Which face-down card: 1, 2 or 3, as they lie")
    async def flip(self, interaction: discord.Interaction[Any], position: str) -> None:
        def make(seat: int) -> Action:
            word = position.strip()
            if not (word.isascii() and word.isdigit() and len(word) <= 2):
                raise GameError(INVALID_CARD, reason="position", text=position)
            return Action.flip(seat, int(word) - 1)
        await self.act(interaction, self.table_here(interaction), make)

    @flip.autocomplete("position")
    async def flip_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "flip":
            return []
        return choices((position_choice(i), str(i + 1)) for i in legal.indexes
                        if str(i + 1).startswith(current.strip()))

    def _legal_for(self, interaction: discord.Interaction[Any]) -> LegalActions | None:
        table = self.tables.registry.in_channel(interaction.channel_id or 0)
        if table is None or table.stage != PLAYING or table.kind.name != GAME:
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return None
        view = table.seat_view(seat)
        return view.deal.legal if view is not None and view.deal is not None else None


# ----------------------------------------------------------------- what users type

def _spaced(cards: tuple[int, ...]) -> str:
    return " ".join(typed_value(c) for c in cards)


def _parse_cards(text: str) -> tuple[int, ...]:
    """Cards as typed, separated by spaces or commas, in English notation or Norwegian
    (bot/typed_cards.py)."""
    return read_cards(text)


# A rank as typed: its notation (T for ten too), in any case; ASCII only.
_RANK_WORDS = {**{rank: index for index, rank in enumerate(RANKS)}, "T": RANKS.index("10")}


def _parse_play(text: str, hand: tuple[int, ...]) -> tuple[int, ...]:
    """A play as typed: cards (`7S 7H`), or a rank (`7`: every card of it in the hand)."""
    word = text.strip()
    rank = _RANK_WORDS.get(word.upper()) if word.isascii() else None
    if rank is not None:
        cards = tuple(c for c in hand if c % 13 == rank)
        if not cards:
            raise GameError(INVALID_CARD, reason="rank_not_held", rank=rank)
        return cards
    return read_cards(word)


def _more_cards(current: str, cards: tuple[int, ...], most: int, first: list[str]
                ) -> list[app_commands.Choice[str]]:
    """Autocomplete of several cards typed one by one: what is typed so far, then each
    card not yet named, up to `most` cards."""
    done = read_some(current)
    chosen = set(done)
    prefix = " ".join(typed_value(c) for c in done)
    if len(done) >= most:
        return choices([(prefix, prefix)]) if prefix else []
    values = [((prefix + " " + choice_name(c)).strip(), (prefix + " " + typed_value(c)).strip())
              for c in cards if c not in chosen]
    extra = [(w, w) for w in first if not done]
    return choices([*extra, *values])


async def setup(bot: TableBot) -> None:
    await bot.add_cog(American(bot))
