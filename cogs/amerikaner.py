"""/amerikaner: Amerikaner's own commands and buttons (bidding, discards, the blind
exchange, the play with its opening lead) on the shared table of cogs/tables/, which
also gives this group the commands every game shares (join, hand, leave, export, ...).

A thin adapter: it parses what players type or click into the game's actions; the table
service checks who may act and the rules core judges them. Nothing here decides a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.cards import SUIT_SYMBOLS, card_label, card_name, is_card, parse_card, suit_of
from bot.errors import INVALID_CARD, GameError
from bot.games.amerikaner.actions import INVALID_BID, TRUMP_CHOICES, Action
from bot.games.amerikaner.errors import INVALID_LEAD, INVALID_TRUMP
from bot.games.amerikaner.kind import AMERIKANER
from bot.games.amerikaner.rules import Rules
from bot.games.amerikaner.text_hand import (
    call_label,
    call_placeholder,
    control_label,
    discard_placeholder,
    exchange_placeholder,
    lead_call_panel,
    lead_trump_panel,
    led_trump_label,
    trump_label,
)
from bot.games.amerikaner.text_table import bid_label, usual_call
from bot.games.amerikaner.views import HandView
from bot.render import button_label
from bot.tables.errors import TableError
from bot.tables.table import PLAYING, Table
from bot.typed_cards import choice_name, read_cards, read_some, typed_matches, typed_value
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

GAME = "amerikaner"


def _card_style(card: int) -> discord.ButtonStyle:
    return discord.ButtonStyle.danger if suit_of(card) in (1, 2) else discord.ButtonStyle.secondary

def _marked(button: TableButton, marked: bool) -> TableButton:
    """The hint's move: green, with a star (cogs.tables.api.HINT_STYLE, HINT_EMOJI)."""
    if marked:
        button.item.style = HINT_STYLE
        button.item.emoji = HINT_EMOJI
    return button


def _hinted(hint: Action | None, kind: str, **what: object) -> bool:
    """Whether the hint's move is the control of `kind` (and `what` of it)."""
    return hint is not None and hint.kind == kind and all(
        getattr(hint, key) == value for key, value in what.items())


def hand_view_components(table: Table, view: HandView, hint: Action | None = None
                         ) -> Components:
    """A player's own controls: exactly the actions legal now; the hint's move marked."""
    ui = Components()
    t, v = table.id, table.version
    legal = view.legal
    if legal is None:
        ui.add_item(TableButton(t, "hand", label=button_label("refresh"), emoji="🔄"))
        return ui
    if legal.phase == "bid":
        ui.add_item(_marked(TableButton(t, f"{v}:pass", label=control_label("pass")),
                            _hinted(hint, "pass")))
        if legal.can_redeal:
            ui.add_item(_marked(TableButton(t, f"{v}:redeal", label=control_label("redeal"),
                                            style=discord.ButtonStyle.danger),
                                _hinted(hint, "redeal")))
        for bid in legal.bids:
            ui.add_item(_marked(TableButton(t, f"{v}:bid:{bid}", label=bid_label(bid),
                                            style=discord.ButtonStyle.primary
                                            if isinstance(bid, int)
                                            else discord.ButtonStyle.success),
                                _hinted(hint, "bid", bid=bid)))
    elif legal.phase in ("discard", "exchange"):
        low, high = legal.card_count
        options = select_options((card_label(c), card_name(c)) for c in legal.cards)
        if legal.phase == "discard":
            ui.add_item(TableSelect(t, f"{v}:discard", options,
                                    placeholder=discard_placeholder(high),
                                    min_values=high, max_values=high))
        else:
            ui.add_item(TableSelect(t, f"{v}:exchange", options,
                                    placeholder=exchange_placeholder(high),
                                    min_values=1, max_values=high))
            ui.add_item(_marked(TableButton(t, f"{v}:exchange",
                                            label=control_label("keep_hand")),
                                _hinted(hint, "exchange", cards=())))
    else:
        op = "lead" if legal.phase == "lead" and legal.calls else "play"
        playable = set(legal.cards)
        assert view.cards is not None
        for card in view.cards[:24]:
            ui.add_item(_marked(TableButton(t, f"{v}:{op}:{card_name(card)}",
                                            label=card_label(card), style=_card_style(card),
                                            disabled=card not in playable),
                                _hinted(hint, "play", card=card)))
    ui.add_item(TableButton(t, "hand", label=button_label("refresh"), emoji="🔄"))
    return ui


def lead_trump_components(table: Table, card: int) -> Components:
    ui = Components()
    t, v, name = table.id, table.version, card_name(card)
    led = SUIT_SYMBOLS[suit_of(card)]
    ui.add_item(TableButton(t, f"{v}:trump:{name}:led", label=led_trump_label(led),
                            style=discord.ButtonStyle.primary))
    for choice in ("S", "H", "D", "C", "grand"):
        if choice != "SHDC"[suit_of(card)]:
            ui.add_item(TableButton(t, f"{v}:trump:{name}:{choice}",
                                    label=trump_label(choice)))
    ui.add_item(TableButton(t, "hand", label=button_label("back"), emoji="↩"))
    return ui


def call_components(table: Table, card: int, trump: str, calls: tuple[int, ...]
                    ) -> Components:
    ui = Components()
    usual = usual_call(calls)
    options = select_options((call_label(c, c == usual), card_name(c)) for c in calls)
    ui.add_item(TableSelect(table.id, f"{table.version}:call:{card_name(card)}:{trump}",
                            options, placeholder=call_placeholder()))
    ui.add_item(TableButton(table.id, "hand", label=button_label("back"), emoji="↩"))
    return ui

class Amerikaner(GameCog):
    """Amerikaner and Kani at the table in this channel."""

    group = app_commands.Group(name="amerikaner", description="Play Amerikaner and Kani",
                               guild_only=True)

    kind = AMERIKANER
    command_words = CommandWords(
        target="Winning score (52; Kani 50)", settings_options=None,
        rules="The rules of this table (or of a preset)")

    # ------------------------------------------------------------- the hand's controls

    def hand_components(self, table: Table, view: Any, hint: Any = None
                        ) -> discord.ui.View:
        return hand_view_components(table, view, hint)

    async def on_action(self, interaction: discord.Interaction[Any], table: Table,
                        version: int, parts: list[str], values: list[str]) -> None:
        op, args = parts[0], parts[1:]
        if op in ("lead", "trump"):
            await self._lead_step(interaction, table, version, op, args)
            return
        make = self._component_action(op, args, values, table.rules)
        await self.act_on_click(interaction, table, version, make)

    @staticmethod
    def _component_action(op: str, args: list[str], values: list[str], rules: Rules
                          ) -> Callable[[int], Action]:
        """The action of a button or menu. Its custom id and values are the bot's own,
        but read as strictly as what users type."""
        def cards_of(names: list[str]) -> tuple[int, ...]:
            return tuple(parse_card(name) for name in names)

        if op == "pass":
            return Action.pass_
        if op == "redeal":
            return Action.redeal
        if op == "bid":
            return lambda seat: _bid_action(seat, args[0], rules)
        if op == "discard":
            chosen = cards_of(values)
            return lambda seat: Action.discard(seat, chosen)
        if op == "exchange":
            chosen = cards_of(values)
            return lambda seat: Action.exchange(seat, chosen)
        if op == "play":
            (card,) = cards_of(args[:1])
            return lambda seat: Action.play(seat, card)
        if op == "call":
            (card,) = cards_of(args[:1])
            trump = None if args[1] == "led" else _parse_trump(args[1])
            (call,) = cards_of(values[:1]) if values else (None,)
            return lambda seat: Action.play(seat, card, call, trump)
        raise TableError("bad_input", reason="old_button")

    async def _lead_step(self, interaction: discord.Interaction[Any], table: Table,
                         version: int, op: str, args: list[str]) -> None:
        """The opening lead in steps: the card, then the trump (free_trump), then the call.
        Nothing changes until the call is chosen."""
        if version != table.version:
            raise TableError("stale")
        seat = self.my_seat(table, interaction.user.id)
        view = table.seat_view(seat)
        if view is None or view.legal is None or view.legal.phase != "lead":
            raise TableError("stale")
        card = parse_card(args[0]) if is_card(args[0]) else -1
        if card not in view.legal.cards:
            raise GameError(INVALID_LEAD, reason="not_legal")
        if op == "lead" and view.legal.trumps:
            await interaction.response.edit_message(embed=to_embed(lead_trump_panel(card)),
                                                    view=lead_trump_components(table, card))
            return
        trump = args[1] if op == "trump" and len(args) > 1 else "led"
        calls = view.legal.calls_for(suit_of(card))
        if not calls:  # (act_on_click: a member's deal of the day is routed by its kind)
            await self.act_on_click(
                interaction, table, version,
                lambda s: Action.play(s, card, None, None if trump == "led" else trump))
            return
        await interaction.response.edit_message(embed=to_embed(lead_call_panel(card)),
                                                view=call_components(table, card, trump, calls))

    # ------------------------------------------------------------- slash commands

    @group.command(name="bid", description="Bid, or pass")
    @app_commands.describe(value="A number, the top bid, pass or redeal")
    async def bid(self, interaction: discord.Interaction[Any], value: str) -> None:
        table = self.table_here(interaction)
        await self.act(interaction, table,
                            lambda seat: _bid_action(seat, value, table.rules))

    @bid.autocomplete("value")
    async def bid_complete(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "bid":
            return []
        typed = current.strip().lower()
        words = ["pass", *(["redeal"] if legal.can_redeal else []), *legal.bids]
        return choices((bid_label(w), str(w)) for w in words if str(w).startswith(typed))

    @group.command(name="discard", description="Discard after taking the kitty")
    @app_commands.describe(cards="The cards, e.g. 2C 3C 10H KD")
    async def discard(self, interaction: discord.Interaction[Any], cards: str) -> None:
        await self.act(interaction, self.table_here(interaction),
                            lambda s: Action.discard(s, _parse_cards(cards)))

    @group.command(name="exchange", description="Exchange cards with the blind (norsk)")
    @app_commands.describe(cards="Cards to give, e.g. 2C 3C; 'none' to keep your hand")
    async def exchange(self, interaction: discord.Interaction[Any], cards: str = "none"
                       ) -> None:
        table = self.table_here(interaction)
        keep = _ascii_word(cards) in ("", "none")
        await self.act(interaction, table, lambda s: Action.exchange(
            s, () if keep else _parse_cards(cards)))

    @discard.autocomplete("cards")
    @exchange.autocomplete("cards")
    async def cards_complete(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase not in ("discard", "exchange"):
            return []
        done = read_some(current)  # English notation or Norwegian (bot/typed_cards.py)
        prefix = " ".join(typed_value(card) for card in done)
        chosen = set(done)
        if len(done) >= legal.card_count[1]:
            return choices([(prefix, prefix)]) if prefix else []
        return choices(((prefix + " " + choice_name(card)).strip(),
                         (prefix + " " + typed_value(card)).strip())
                        for card in legal.cards if card not in chosen)

    @group.command(name="play", description="Play a card (the opening lead names a call)")
    @app_commands.describe(card="The card, e.g. AS or 10H",
                           call="Opening lead: the card to call (your partner holds it)",
                           trump="Opening lead with free_trump: S, H, D, C or grand")
    async def play(self, interaction: discord.Interaction[Any], card: str,
                   call: str | None = None, trump: str | None = None) -> None:
        def make(seat: int) -> Action:
            (played,) = _parse_cards(card, 1)
            called = _parse_cards(call, 1)[0] if call else None
            return Action.play(seat, played, called, _parse_trump(trump) if trump else None)
        await self.act(interaction, self.table_here(interaction), make)

    @play.autocomplete("card")
    async def card_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase not in ("lead", "play"):
            return []
        return choices((choice_name(c), typed_value(c)) for c in legal.cards
                        if typed_matches(c, current))

    @play.autocomplete("call")
    async def call_complete(self, interaction: discord.Interaction[Any], current: str
                            ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or legal.phase != "lead" or not legal.calls:
            return []
        typed = str(getattr(interaction.namespace, "card", "") or "")
        read = read_some(typed)
        led = read[0] if len(read) == 1 else None
        suits = [suit_of(led)] if led is not None else [s for s, _ in legal.calls]
        return choices((choice_name(c), typed_value(c)) for s in suits
                        for c in legal.calls_for(s) if typed_matches(c, current))

    @play.autocomplete("trump")
    async def trump_complete(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[app_commands.Choice[str]]:
        legal = self._legal_for(interaction)
        if legal is None or not legal.trumps:
            return []
        typed = current.strip().lower()
        return choices((trump_label(t), t) for t in legal.trumps if t.lower().startswith(typed))

    def _legal_for(self, interaction: discord.Interaction[Any]):  # noqa: ANN202
        table = self.tables.registry.in_channel(interaction.channel_id or 0)
        if table is None or table.stage != PLAYING:
            return None
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return None
        view = table.seat_view(seat)
        return view.legal if view is not None else None


# ----------------------------------------------------------------- what users type

# Read strictly: ASCII words and digits only. str.isdigit() takes '²', which int()
# refuses, and str.lower() turns look-alikes into letters (the Kelvin sign 'K' into
# 'k'). What is not read is refused here, quoted as typed, with what was expected; what
# is read, the core judges, with the rule it breaks.
_ASCII_SPACE = " \t\n\r\f\v"
_NUMBER = re.compile(r"[+-]?[0-9]+")
# A number of more digits than this is beyond every bid, and read as 10**6 (of its sign):
# int() of thousands of digits is slow, and Python refuses more than 4,300.
_NUMBER_DIGITS = 6


def _ascii_word(text: str) -> str | None:
    """`text` without the whitespace around it, in lower case; None unless ASCII."""
    word = text.strip(_ASCII_SPACE)
    return word.lower() if word.isascii() else None


def _parse_number(text: str) -> int | None:
    """A whole number in ASCII digits, with a sign or not; else None."""
    word = text.strip(_ASCII_SPACE)
    if _NUMBER.fullmatch(word) is None:
        return None
    digits = word.lstrip("+-").lstrip("0") or "0"
    value = int(digits) if len(digits) <= _NUMBER_DIGITS else 10 ** _NUMBER_DIGITS
    return -value if word.startswith("-") else value


def _bid_action(seat: int, text: str, rules: Rules) -> Action:
    """A bid as typed: pass, redeal, the top bid's name, or a number (-3 too: the core
    answers that the lowest bid is 6)."""
    word = _ascii_word(text)
    if word == "pass":
        return Action.pass_(seat)
    if word == "redeal":
        return Action.redeal(seat)
    if word == rules.top_bid:
        return Action.make_bid(seat, rules.top_bid)
    number = _parse_number(text)
    if number is None:
        raise GameError(INVALID_BID, reason="typed", text=text, min_bid=rules.min_bid,
                        max_bid=rules.max_bid, top_bid=rules.top_bid)
    return Action.make_bid(seat, number)


def _parse_cards(text: str, exactly: int | None = None) -> tuple[int, ...]:
    """Cards as typed, separated by spaces or commas."""
    cards = read_cards(text)  # English notation or Norwegian (bot/typed_cards.py)
    if exactly is not None and len(cards) != exactly:
        raise GameError(INVALID_CARD, reason="count", count=exactly)
    return cards


def _parse_trump(text: str) -> str:
    """A trump as typed: S, H, D, C or grand, in any case."""
    word = _ascii_word(text)
    if word == "grand":
        return word
    if word is not None and word.upper() in TRUMP_CHOICES:
        return word.upper()
    raise GameError(INVALID_TRUMP, reason="typed", text=text)
async def setup(bot: TableBot) -> None:
    await bot.add_cog(Amerikaner(bot))
