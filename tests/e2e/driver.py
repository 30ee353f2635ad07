"""Drivers and checkers for the end-to-end suite.

* `LeakChecker` hooks the fake Discord so that every message version the bot writes is
  checked, at the moment it is written, against the true state of the game: no public
  message may show a card that is still hidden (in a hand, the kitty, the discards, the
  blind) nor the partner before the called card is played; an ephemeral message may show
  only what its owner's seat may know.
* `ButtonDriver` plays a table through the components alone: the player to act opens or
  refreshes their hand (ephemeral) and picks, at random but seeded, among the ENABLED
  buttons and select options the bot shows them.
* `SlashDriver` plays through `/amerikaner hand|bid|discard|exchange|play`, taking every
  value from the commands' autocomplete.
* `check_finished_game` compares the final standings, the hand summaries and the
  leaderboard with a replay of the record `/amerikaner export` returns.
"""

from __future__ import annotations

import json
import random
import re
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.cards import (
    card_label,
    card_name,
    is_card,
    is_joker,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)
from bot.games.amerikaner import _ as translate  # its catalog, then the platform's
from bot.games.amerikaner import text_hand as game_text_hand
from bot.games.amerikaner.actions import Action
from bot.games.amerikaner.hand import BID, EXCHANGE, Hand
from bot.games.amerikaner.record import game_to_record, load_game, replay_output
from bot.games.amerikaner.text_table import bid_label
from bot.games.amerikaner.views import HandView, hand_view, known_cards
from bot.i18n import LANGUAGES, language_of, strip_isolates, use_locale
from bot.render import button_label, seat_label, seat_names
from bot.tables.names import safe_markdown
from bot.tables.table import PLAYING, Table
from tests.e2e import american_leaks, daily_leaks
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.layout import layout as phone_layout
from tests.fake_discord.models import iter_components

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")

ACTION_ID = re.compile(r"^amk:(\d+):(\d+):(\w+)(?::(.*))?$")
SELECT_ID = re.compile(r"^amks:(\d+):(\d+):(\w+)(?::(.*))?$")

# ----------------------------------------------------------------------------- languages
# What the driver looks for in a message, in the language it is written in: the server's
# for what everyone reads, the player's own for their panel (a Norwegian table).

def in_every_language(render: Callable[[], str]) -> list[str]:
    """`render()` in each language the bot speaks."""
    shown = []
    for language in LANGUAGES:
        with use_locale(language):
            shown.append(render())
    return shown


# The languages the bot has stored, by fake Discord: each member's own (/language) by
# user id, and each server's (`settings language:`) by guild id, as `learn_languages`
# last read them from the bot's store. Discord's locales have no Persian (issue 55), so
# a Persian reader is known only by what is stored.
_STORED: weakref.WeakKeyDictionary[FakeDiscord, tuple[dict[int, str], dict[int, str]]] = (
    weakref.WeakKeyDictionary())


async def learn_languages(fake: FakeDiscord, bot: Any) -> None:
    """Read the languages the bot stored for the fake's members and servers: from now
    on `in_language_of` and `in_server_language` (and what a checker expects) follow
    them. Called after a test chose them (`/language`, `settings language:`)."""
    store = bot.store
    members = {u.id: lang for u in fake.users
               if (lang := await store.get_member_language(u.id))}
    servers = {g: lang for g in fake.guilds
               if (lang := await store.get_guild_language(g)) not in (None, "default")}
    _STORED[fake] = (members, servers)


def language_of_member(fake: FakeDiscord, user_id: int) -> str:
    """The language of what member `user_id` alone reads: their stored choice, else their
    Discord's."""
    chosen = _STORED.get(fake, ({}, {}))[0].get(user_id)
    return chosen or language_of(fake.user(user_id).locale)


def language_of_server(fake: FakeDiscord, guild_id: int | None = None) -> str:
    """The language of what everyone reads in a server: its stored choice, else its
    Discord locale's."""
    guild = fake.guilds[guild_id] if guild_id is not None else fake.guild
    chosen = _STORED.get(fake, ({}, {}))[1].get(guild.id)
    return chosen or language_of(guild.preferred_locale)


def in_language_of(fake: FakeDiscord, name: str, render: Callable[[], str]) -> str:
    """`render()` in the language of user `name`: their /language, else their Discord's."""
    with use_locale(language_of_member(fake, fake.user(name).id)):
        return render()


def in_server_language(fake: FakeDiscord, render: Callable[[], str]) -> str:
    """`render()` in the language of the server (what everyone reads: the lobby): its
    `settings language:`, else its Discord locale's."""
    with use_locale(language_of_server(fake)):
        return render()


def _head(message: str) -> Callable[[], str]:
    """The words of `message` before its first placeholder, without Markdown."""
    return lambda: translate(message).split("{")[0].replace("*", "").strip()


# "Hand 3" in a title or a panel, in any language.
_HAND_NUMBER = re.compile("(?:" + "|".join(
    re.escape(w) for w in in_every_language(_head("Hand {number}: all passed, played at "
                                                  "-1 a trick"))) + r") (\d+)")


# ----------------------------------------------------------------------------- cards in text

_RANK = r"(?:10|[2-9JQKA])"
_SYMS = "♠♥♦♣"
_SINGLE = re.compile(rf"({_RANK})([{_SYMS}])")
_GROUP = re.compile(rf"([{_SYMS}])((?: {_RANK})+)(?![0-9A-Za-z{_SYMS}])")
_JOKER = re.compile(r"Joker ([123])")


def cards_in_text(text: str) -> set[int]:
    """Every card a text names: labels like `A♠`, `10♥`, `Joker 1` and suit groups like
    `♠ A K 10 · ♥ Q 9` (how the bot lists cards)."""
    found: set[int] = set()
    for rank, sym in _SINGLE.findall(text):
        card = parse_card(rank + "SHDC"[_SYMS.index(sym)])
        assert card is not None
        found.add(card)
    for sym, ranks in _GROUP.findall(text):
        for rank in ranks.split():
            card = parse_card(rank + "SHDC"[_SYMS.index(sym)])
            assert card is not None
            found.add(card)
    for n in _JOKER.findall(text):
        card = parse_card(f"JK{n}")
        assert card is not None
        found.add(card)
    return found


def message_text(payload: StoredMessage | dict[str, Any]) -> str:
    """Content, embeds and every component label/option of a message (or a payload)."""
    if isinstance(payload, StoredMessage):
        content, embeds, components = payload.content, payload.embeds, payload.components
    else:
        content = payload.get("content") or ""
        embeds = payload.get("embeds") or []
        components = payload.get("components") or []
    parts = [content]
    for e in embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
    for comp in iter_components(components):
        parts.append(comp.get("label") or "")
        parts.append(comp.get("placeholder") or "")
        parts.append(comp.get("content") or "")
        for opt in comp.get("options") or []:
            parts += [opt.get("label") or "", opt.get("description") or ""]
    return "\n".join(p for p in parts if p)


def names(mask_or_cards: Any) -> list[str]:
    from bot.cards import cards_of

    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [card_name(c) for c in sorted(cards)]


# ----------------------------------------------------------------------------- hidden state

def hidden_from_public(hand: Hand) -> int:
    """The cards of a hand nobody but their holder may know, now."""
    rules = hand.rules
    hidden = 0
    for m in hand.hands:
        hidden |= m
    hidden |= hand.discards | mask_of(hand.blind)
    kitty = mask_of(hand.deal.kitty)
    bidding_over = hand.phase not in (EXCHANGE, BID) and hand.bidder >= 0
    if not bidding_over:
        hidden |= kitty  # not taken yet (or never: thrown in)
    elif "show_kitty" in rules.options:
        hidden &= ~kitty  # shown to all when the bidder took it
    if hand.called >= 0:
        hidden &= ~(1 << hand.called)  # the call itself is announced
    return hidden


def partner_hidden(hand: Hand) -> bool:
    return hand.called >= 0 and hand.partner < 0 and hand.called_holder >= 0


_PARTNER_MARK = re.compile(r"[(,] ?(?:" + "|".join(
    in_every_language(lambda: translate("partner"))) + r")[),]")
_PARTNER_NAMED = re.compile("|".join(
    re.escape(named) + " (?!" + re.escape(hidden.split(": ", 1)[1]) + ")"
    for named, hidden in zip(in_every_language(_head("partner: {name}")),
                             in_every_language(lambda: translate("partner: not yet shown")),
                             strict=True)))


@dataclass
class Violation:
    what: str
    message_id: int
    text: str

    def __str__(self) -> str:
        return f"{self.what} (message {self.message_id}):\n{self.text}"


async def settled(fake: FakeDiscord, it: Any, message_id: int, edits: int) -> None:
    """A click's answer: the panel's update (7), or, when the bot took longer than it
    may to answer (a daily's AI step under load defers, cogs/tables/daily.py's
    ANSWER_WITHIN), a deferred update (6) and then the panel's edit: waited for, so
    that no assertion depends on how fast the machine is."""
    assert it.response_type in (6, 7), (it, it.callback.data)
    if it.response_type == 6:
        await fake.wait_until(lambda: fake.message(message_id).edit_count > edits, 60,
                              "the deferred answer's edit")


def owner_of_dm(fake: FakeDiscord, msg: StoredMessage) -> str | None:
    """The name of the member whose DM with the bot holds `msg`, None elsewhere."""
    channel = fake.channels.get(msg.channel_id)
    if channel is None or channel.type != 1 or channel.recipient is None:
        return None
    return str(channel.recipient.name)


@dataclass
class LeakChecker:
    """Checks every message version as the fake stores it (create and edit)."""

    fake: FakeDiscord
    bot: Any = None
    check_ephemeral: bool = True
    violations: list[Violation] = field(default_factory=list)
    checked_public: int = 0
    checked_ephemeral: int = 0
    # The messages looked at (public ones, and hand panels): for `assert_saw_all`, which
    # asks what was shown, never how often (edits are coalesced, the more under load).
    checked_ids: set[int] = field(default_factory=set)
    _table_ids: dict[int, int] = field(default_factory=dict)
    # message -> the table it was first written for: an edit belongs to that table even
    # after the channel has a new one (a rematch).
    _message_tables: dict[int, int] = field(default_factory=dict)
    # The deal of the day: each member's play as the bot's service last returned it,
    # by (server, game, day, member) (tests/e2e/daily_leaks.py).
    daily_states: dict[tuple[int, str, str, int], Any] = field(default_factory=dict)

    def install(self) -> LeakChecker:
        daily_leaks.watch(self)
        fake = self.fake
        original_new = fake._new_message
        original_edit = fake._apply_edit

        def new_message(*args: Any, **kwargs: Any) -> StoredMessage:
            msg = original_new(*args, **kwargs)
            self.check(msg)
            return msg

        def apply_edit(msg: StoredMessage, *args: Any, **kwargs: Any) -> None:
            original_edit(msg, *args, **kwargs)
            self.check(msg)

        fake._new_message = new_message  # type: ignore[method-assign]
        fake._apply_edit = apply_edit  # type: ignore[method-assign]
        return self

    def remember(self, table: Table) -> None:
        self._table_ids[table.channel_id] = table.id

    def _table(self, channel_id: int) -> Table | None:
        if self.bot is None or not hasattr(self.bot, "tables"):
            return None
        table = self.bot.tables.registry.in_channel(channel_id)
        if table is not None:
            self._table_ids[channel_id] = table.id
            return table
        tid = self._table_ids.get(channel_id)
        return self.bot.tables.registry.get(tid) if tid is not None else None

    def check(self, msg: StoredMessage) -> None:
        if int(msg.author["id"]) != self.fake.bot_user.id:
            return
        # What it shows, without the isolates of right-to-left text (issue 55).
        shown = strip_isolates(message_text(msg))
        if self.daily_states:
            dm_owner = self.fake.channels.get(msg.channel_id)
            owner = msg.visible_to if msg.visible_to is not None else (
                dm_owner.recipient.id if dm_owner is not None and dm_owner.type == 1
                and dm_owner.recipient is not None else None)
            daily_leaks.check(self, msg, shown, owner)
        table = self._table(msg.channel_id)
        first = self._message_tables.get(msg.id)
        if first is not None:
            table = self.bot.tables.registry.get(first) or table
        elif table is not None:
            self._message_tables[msg.id] = table.id
        if table is None or table.game is None:
            return
        if table.kind.name == "american":
            if table.game.deals:
                american_leaks.check(self, table, msg, shown)
            return
        if table.kind.name != "amerikaner":
            self._check_by_kind(table, msg, shown)
            return
        if not table.game.hands:
            return
        text = shown
        if msg.visible_to is None:
            self._check_public(table, msg, text)
        elif self.check_ephemeral:
            self._check_ephemeral(table, msg, text)

    def _check_by_kind(self, table: Table, msg: StoredMessage, text: str) -> None:
        """Any other game, by its own leak rules (GameKind.secret_cards, bot/games/base.py):
        a public message shows no card hidden from everyone, a message for one user none
        hidden from that user's seat (a non-player's: the public's)."""
        seat = table.seat_of(msg.visible_to) if msg.visible_to is not None else None
        if msg.visible_to is None:
            self.checked_public += 1
        else:
            self.checked_ephemeral += 1
        self.checked_ids.add(msg.id)
        hidden = set(table.kind.secret_cards(table.game, seat)) & cards_in_text(text)
        if hidden:
            self.violations.append(Violation(
                f"message for seat {seat} shows hidden cards {names(sorted(hidden))}", msg.id,
                text))

    def _check_public(self, table: Table, msg: StoredMessage, text: str) -> None:
        game = table.game
        assert game is not None
        self.checked_public += 1
        self.checked_ids.add(msg.id)
        m = _HAND_NUMBER.search(text)
        hand = game.current
        if m is not None and 1 <= int(m.group(1)) <= len(game.hands):
            hand = game.hands[int(m.group(1)) - 1]
        assert hand is not None
        hidden = hidden_from_public(hand)
        shown = mask_of(cards_in_text(text))
        if shown & hidden:
            self.violations.append(Violation(
                f"public message shows hidden cards {names(shown & hidden)}", msg.id, text))
        if partner_hidden(hand) and (_PARTNER_MARK.search(text) or
                                     _PARTNER_NAMED.search(text)):
            self.violations.append(Violation(
                "public message names the partner before the called card is played",
                msg.id, text))
        if any(w in text for w in (*in_every_language(_head("**Your cards** ({count})")),
                                   *in_every_language(_head("Your hand — {name}")))):
            self.violations.append(Violation("a hand panel sent publicly", msg.id, text))

    def _check_ephemeral(self, table: Table, msg: StoredMessage, text: str) -> None:
        game = table.game
        assert game is not None and game.current is not None
        owner = msg.visible_to
        assert owner is not None
        seat = table.seat_of(owner)
        title = strip_isolates(msg.embeds[0].get("title", "") if msg.embeds else "")
        review = _HAND_NUMBER.match(title)
        if review is not None:
            # A review: the deal face up, allowed once it is over, never before.
            number = int(review.group(1))
            if not (1 <= number <= len(game.hands) and game.hands[number - 1].finished):
                self.violations.append(Violation(
                    f"a review of hand {number}, which is not over", msg.id, text))
            return
        if title.startswith(tuple(in_every_language(_head("Your hand — {name}")))):
            self.checked_ephemeral += 1
            self.checked_ids.add(msg.id)
            mine = seat_label(table.seats, seat) if seat is not None else None
            if mine is None or title not in [strip_isolates(t) for t in in_every_language(
                    lambda: translate("Your hand — {name}").format(name=mine))]:
                self.violations.append(Violation(
                    f"hand panel {title!r} shown to user {owner} (seat {seat})", msg.id,
                    text))
                return
        if seat is None:
            shown = cards_in_text(text) - set(table.rules.removed)
            hidden = hidden_from_public(game.current)
            if mask_of(shown) & hidden:
                self.violations.append(Violation(
                    f"a non-player was shown hidden cards {names(mask_of(shown) & hidden)}",
                    msg.id, text))
            return
        hand = game.current
        view = hand_view(hand, seat)
        allowed = set(known_cards(view)) | set(table.rules.removed)
        if view.legal is not None:
            for _, calls in view.legal.calls:
                allowed |= set(calls)
        if hand.called >= 0:
            allowed.add(hand.called)
        if "show_kitty" in table.rules.options and view.kitty:
            allowed |= set(view.kitty)
        shown = cards_in_text(text) - self._typed_by_user(msg)
        extra = shown - allowed
        if extra and len(game.hands) >= 2:
            # A panel drawn as the last card of a deal was played may arrive once the
            # next deal is dealt: it may show what the seat knew at the end of that deal.
            before = hand_view(game.hands[-2], seat)
            extra -= set(known_cards(before)) | set(before.kitty or ())
        if extra:
            self.violations.append(Violation(
                f"ephemeral message to seat {seat} shows cards it may not know: "
                f"{[card_name(c) for c in sorted(extra)]}", msg.id, text))

    def _typed_by_user(self, msg: StoredMessage) -> set[int]:
        """Cards the user named in the interaction this message answers (an error may
        repeat them: "You do not hold 4♠")."""
        inter = self.fake.interactions.get(msg.interaction_id or 0)
        if inter is None:
            return set()
        found: set[int] = set()

        def walk(options: list[dict[str, Any]]) -> None:
            for opt in options:
                if "options" in opt:
                    walk(opt["options"])
                elif isinstance(opt.get("value"), str):
                    for word in opt["value"].replace(",", " ").split():
                        if is_card(word):
                            found.add(parse_card(word))

        walk((inter.payload.get("data") or {}).get("options") or [])
        return found

    def assert_saw_all(self, channel: Any = None) -> None:
        """The checker looked at every public message the bot wrote in the channel once
        a game was on it (table messages, summaries, standings) and at every hand panel
        there: what was shown, whatever the number of (coalesced) edits."""
        bot_id = self.fake.bot_user.id
        panel = tuple(in_every_language(_head("Your hand — {name}")))
        mine = [m for m in self.fake.all_messages(channel)
                if int(m.author["id"]) == bot_id and (m.visible_to is None or (
                    m.embeds and (m.embeds[0].get("title") or "").startswith(panel)))]
        unseen = [m for m in mine if m.id not in self.checked_ids]
        assert not unseen, [m.text()[:80] for m in unseen]
        assert any(m.visible_to is None for m in mine if m.id in self.checked_ids)

    def assert_clean(self) -> None:
        if self.violations:
            raise AssertionError("information leaks:\n\n" + "\n\n".join(
                str(v) for v in self.violations[:5]))


# ----------------------------------------------------------------------------- helpers

# Discord's per-route limits, with windows of a fifth of the figures commonly observed
# (5 posts, 5 edits, 5 deletes a channel in 1 s, not 5 s). Games and days pass here in
# seconds of real time, and every move edits, posts, pings and deletes: with five-second
# windows discord.py spends most of such a test asleep on exhausted buckets (it waits out
# every Reset-After it is told: 73 of the 80 s of test_no_exit's host-away case were the
# event loop's idle poll). Discord publishes no window ("should not be hard coded",
# https://discord.com/developers/docs/topics/rate-limits), the bot reads the headers,
# and every request over a window's count is still refused: only the waits are shorter.
# The tests of the bot's pacing itself (tests/e2e/test_rate_limits.py) keep 5 s.
WINDOW_SCALE = 0.2


def make_fake(**kwargs: Any) -> FakeDiscord:
    kwargs.setdefault("user_names", NAMES)
    kwargs.setdefault("rate_limit_scale", WINDOW_SCALE)
    return FakeDiscord(**kwargs)


async def norwegian_fake() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord whose server is Norwegian, as are alice's and carol's
    Discord (the Norwegian e2e tests' fixture)."""
    fake = make_fake()
    fake.guild.preferred_locale = "no"
    for name in ("alice", "carol"):
        fake.user(name).locale = "no"
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def in_bokmal(text: Callable[[], str]) -> str:
    """`text()` rendered in bokmål."""
    with use_locale("nb"):
        return text()


def assert_interactions_answered(fake: FakeDiscord, limit: float = 3.0) -> None:
    """Every interaction got a callback, within `limit` seconds, and the bot never made
    a request the fake refused (a double answer, a bad payload...)."""
    missing = [i for i in fake.interactions.values() if not i.responded]
    assert not missing, f"interactions without a callback: {missing}"
    slow = [(i, i.latency) for i in fake.interactions.values() if i.latency > limit]
    assert not slow, f"callbacks later than {limit}s: {slow}"
    errors = [i.errors for i in fake.interactions.values() if i.errors]
    assert not errors, f"the fake refused requests for interactions: {errors}"
    assert not fake.client_errors, f"the fake refused requests: {fake.client_errors[:3]}"


def table_message(fake: FakeDiscord, channel: Any = None) -> StoredMessage:
    """The live public table message: the last one with an enabled "My hand" button and
    a "Rules" button (in the server's language): turn pings and hand summaries carry
    "My hand" too."""
    labels = in_every_language(lambda: button_label("hand"))
    rules = in_every_language(lambda: button_label("rules"))
    summary = None  # between a hand's end and the next table message: its summary
    for msg in reversed(fake.messages(channel)):
        shown = {b.get("label") for b in msg.buttons() if not b.get("disabled")}
        if shown & set(labels) and shown & set(rules):
            return msg
        if summary is None and shown & set(labels) and msg.embeds:
            summary = msg
    if summary is not None:
        return summary
    raise LookupError("no live table message")


async def wait_game_over(fake: FakeDiscord, table: Table, timeout: float = 30.0) -> None:
    """Until the bot has told the channel: the final standings are posted and the table
    message has lost its buttons (or is deleted). (A game played at full speed edits its
    table message more than 5 times in 5 s: the last edits and posts wait up to 5 s on
    Discord's rate limits, 5 edits and 5 posts in 5 s a channel, which the fake
    enforces.) On a timeout, the failure tells what the channel shows."""
    assert table.message_id is not None

    def done() -> bool:
        over = tuple(in_every_language(_head("Game over — {winner} wins!")))
        final = any(m.embeds and m.embeds[0].get("title", "").startswith(over)
                    for m in fake.messages(table.channel_id))
        # The last table message shows the last hand's summary (its Review button), has
        # lost its buttons, or was deleted (a summary posted apart took its place).
        rules = in_every_language(lambda: button_label("rules"))
        last = fake.message(table.message_id)
        return final and (last.deleted or not any(b.get("label") in rules
                                                  for b in last.buttons()))
    try:
        await fake.wait_until(done, timeout, "the final standings")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; {channel_story(fake, table)}") from None


def channel_story(fake: FakeDiscord, table: Table) -> str:
    """What the table's channel shows, deleted messages too, for a failure's message."""
    lines = [f"table message {table.message_id}, stage {table.stage}"]
    for m in fake.messages(table.channel_id, deleted=True)[-12:]:
        title = m.embeds[0].get("title", "") if m.embeds else ""
        labels = [b.get("label") for b in m.buttons() if not b.get("disabled")]
        lines.append(f"{m.id}{' (deleted)' if m.deleted else ''} edits {m.edit_count}: "
                     f"{(m.content or '')[:40]!r} {title[:40]!r} {labels}")
    return "\n".join(lines)


def enabled_actions(msg: StoredMessage) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(enabled action buttons, selects) on a hand message."""
    buttons = [b for b in msg.buttons() if not b.get("disabled")
               and ACTION_ID.match(b.get("custom_id", ""))]
    selects = [s for s in msg.selects() if not s.get("disabled")]
    return buttons, selects


def policy(view: HandView, rng: random.Random) -> Action:
    """What a player chooses, from what their seat may know (their view): random, but
    biased so that random games reach a small target (bid the minimum with a strong
    hand, mostly play high cards, call the highest card). Every choice is one of the
    view's legal actions, which the UI must offer."""
    legal = view.legal
    assert legal is not None and view.seat is not None and view.cards is not None
    seat = view.seat
    if legal.phase == "bid":
        if legal.can_redeal and rng.random() < 0.6:
            return Action.redeal(seat)
        numbers = [b for b in legal.bids if isinstance(b, int)]
        if rng.random() < 0.02 and legal.bids:
            return Action.make_bid(seat, legal.bids[-1])  # now and then the top bid
        if not numbers:
            return Action.pass_(seat)
        if view.high_bidder == seat:  # everyone else passed after my bid: raise or pass
            return Action.make_bid(seat, numbers[0]) if rng.random() < 0.5 \
                else Action.pass_(seat)
        strong = sum(1 for c in view.cards if rank_of(c) >= 11) >= len(view.cards) / 4
        last = len(view.passed) == view.rules.players - 1
        if (strong or last) and rng.random() < 0.8:
            return Action.make_bid(seat, numbers[0])
        return Action.pass_(seat)
    if legal.phase == "discard":
        k = legal.card_count[1]
        low = sorted(legal.cards, key=rank_of)
        return Action.discard(seat, tuple(low[:k] if rng.random() < 0.7
                                          else rng.sample(legal.cards, k)))
    if legal.phase == "exchange":
        k = rng.randint(0, legal.card_count[1])
        return Action.exchange(seat, tuple(rng.sample(legal.cards, k)))
    cards = list(legal.cards)
    card = max(cards, key=rank_of) if rng.random() < 0.7 else rng.choice(cards)
    call = trump = None
    if legal.phase == "lead" and legal.calls:
        calls = legal.calls_for(suit_of(card)) if not is_joker(card) else ()
        if calls:
            call = max(calls, key=rank_of) if rng.random() < 0.7 else rng.choice(calls)
        if legal.trumps and rng.random() < 0.4:
            trump = rng.choice(legal.trumps)
            if trump == "SHDC"[suit_of(card)]:
                trump = None  # naming the suit led is the same as naming none
    return Action.play(seat, card, call, trump)


# ----------------------------------------------------------------------------- drivers

@dataclass
class Stats:
    actions: int = 0
    interactions: int = 0
    redeals: int = 0
    exchanges: int = 0
    discards: int = 0
    calls: int = 0
    free_trumps: int = 0
    top_bids: int = 0

    def count(self, action: Action, rules: Any) -> None:
        self.actions += 1
        if action.kind == "redeal":
            self.redeals += 1
        elif action.kind == "exchange":
            self.exchanges += 1
        elif action.kind == "discard":
            self.discards += 1
        elif action.kind == "bid" and action.bid == rules.top_bid:
            self.top_bids += 1
        elif action.kind == "play":
            self.calls += action.call is not None
            self.free_trumps += action.trump is not None


class BaseDriver:
    def __init__(self, fake: FakeDiscord, get_bot: Callable[[], Any], channel: Any,
                 seed: int) -> None:
        self.fake = fake
        self.get_bot = get_bot
        self.channel = fake._channel(channel)
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.table_id: int | None = None

    @property
    def table(self) -> Table:
        bot = self.get_bot()
        if self.table_id is not None:
            table = bot.tables.registry.get(self.table_id)
            assert table is not None
            return table
        table = bot.tables.registry.in_channel(self.channel.id)
        assert table is not None, "no table in the channel"
        self.table_id = table.id
        return table

    async def wait_for_humans(self, timeout: float = 30.0) -> None:
        """While the AI plays a seat, wait for it to finish its turns."""
        table = self.table

        def human_or_over() -> bool:
            seat = table.to_act  # None for a moment between a hand and the next deal
            return table.stage != PLAYING or (seat is not None and
                                              not table.seats[seat].played_by_ai)
        if not human_or_over():
            await self.fake.wait_until(human_or_over, timeout, "the AI to play")

    def whose_turn(self) -> tuple[int, str] | None:
        table = self.table
        if table.stage != PLAYING or table.to_act is None:
            return None
        seat = table.to_act
        return seat, table.seats[seat].name

    async def next_turn(self) -> tuple[int, str] | None:
        """The seat and name of the human to act next, once the AI has played its
        turns; None when the game is over."""
        await self.sync()
        await self.wait_for_humans()
        return self.whose_turn()

    async def sync(self) -> None:
        """When the game is read from somewhere that must be reloaded (a bot in another
        process: its database), reload it."""
        reload = getattr(self.get_bot(), "reload", None)
        if reload is not None:
            await reload()

    def decide(self, seat: int) -> tuple[HandView, Action]:
        view = self.table.seat_view(seat)
        assert view is not None and view.legal is not None
        return view, policy(view, self.rng)

    async def play_to_end(self, max_actions: int = 3000) -> None:
        for _ in range(max_actions):
            if not await self.step():
                await wait_game_over(self.fake, self.table)
                return
        raise AssertionError(f"the game did not end within {max_actions} actions")

    async def step(self) -> bool:
        """One action by the player to act; False when the game is over."""
        raise NotImplementedError

    def _acted(self, before: int, action: Action) -> None:
        """Exactly this action was applied, once, as action number `before` (the AI may
        have played after it)."""
        table = self.table
        after = table.version
        ai = any(seat.played_by_ai for seat in table.seats)
        assert after == before + 1 or (ai and after > before), \
            f"one action, but the version went {before} -> {after}"
        game = table.game
        assert game is not None
        everything = [a for h in game.hands for a in h.actions]
        done = everything[before]
        assert (done.kind, done.seat) == (action.kind, action.seat), (done, action)
        if action.kind in ("discard", "exchange"):
            assert sorted(done.cards) == sorted(action.cards), (done, action)
        elif action.kind == "play":
            assert (done.card, done.call, done.trump) == (action.card, action.call,
                                                          action.trump), (done, action)
        elif action.kind == "bid":
            assert done.bid == action.bid, (done, action)
        self.stats.count(action, table.rules)


def _bid_text(bid: int | str) -> str:
    return bid_label(bid)


class ButtonDriver(BaseDriver):
    """Plays through the buttons and select menus shown to the player to act."""

    def __init__(self, *args: Any, refresh_share: float = 0.7, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hands: dict[str, StoredMessage] = {}  # user name -> their hand message
        self.refresh_share = refresh_share

    async def open_hand(self, name: str) -> StoredMessage:
        """Refresh the player's hand message, or open a new one from the table message."""
        fake = self.fake
        old = self.hands.get(name)
        if old is not None and self.rng.random() < self.refresh_share:
            refresh = next(b for b in fake.message(old).buttons()
                           if b.get("custom_id", "").endswith(":hand"))
            it = await fake.click(name, old, refresh["custom_id"])
            assert it.response_type == 7, it  # edited in place
        else:
            table = table_message(fake, self.channel)
            label = next(b["label"] for b in table.buttons()
                         if b.get("label") in in_every_language(lambda: button_label("hand")))
            it = await fake.click_label(name, table, label)
            assert it.response_type == 4 and it.callback.ephemeral, it
        self.stats.interactions += 1
        msg = it.message
        assert msg is not None and msg.visible_to == fake.user(name).id
        self.hands[name] = msg
        return fake.message(msg)

    async def step(self) -> bool:
        turn = await self.next_turn()
        if turn is None:
            return False
        seat, name = turn
        msg = await self.open_hand(name)
        assert in_language_of(self.fake, name, _head("**Your turn:** {what}")) in msg.text(), \
            msg.text()
        await self.act(name, seat, msg)
        return True

    def check_offer(self, name: str, view: HandView, msg: StoredMessage) -> None:
        """The message offers exactly the legal actions (in `name`'s language)."""
        words = self._control_words(name)
        legal = view.legal
        assert legal is not None
        buttons, selects = enabled_actions(msg)
        labels = sorted(b["label"] for b in buttons)
        if legal.phase == "bid":
            want = [words["pass"]] + ([words["redeal"]] if legal.can_redeal else []) + [
                in_language_of(self.fake, name, lambda b=b: _bid_text(b)) for b in legal.bids]
            assert labels == sorted(want), (labels, want)
        elif legal.phase in ("discard", "exchange"):
            (sel,) = selects
            assert sorted(o["value"] for o in sel["options"]) == sorted(
                card_name(c) for c in legal.cards)
            low, high = legal.card_count
            assert sel["max_values"] == high
            assert sel.get("min_values", 1) == (high if legal.phase == "discard" else 1)
            if legal.phase == "exchange":
                assert labels == [words["keep_hand"]]
        else:
            assert labels == sorted(card_label(c) for c in legal.cards), (labels, legal)
            shown = [b["label"] for b in msg.buttons()
                     if ACTION_ID.match(b.get("custom_id", ""))]
            assert sorted(shown) == sorted(card_label(c) for c in view.cards or ())

    async def act(self, name: str, seat: int, msg: StoredMessage) -> None:
        """Choose among what the hand message offers, and do it (one action)."""
        fake = self.fake
        before = self.table.version
        edits = fake.message(msg).edit_count
        view, action = self.decide(seat)
        self.check_offer(name, view, msg)
        words = self._control_words(name)
        buttons, selects = enabled_actions(msg)

        def button(label: str) -> str:
            found = [b["custom_id"] for b in buttons if b["label"] == label]
            assert len(found) == 1, (label, [b["label"] for b in buttons])
            return found[0]

        if action.kind == "pass":
            it = await fake.click(name, msg, button(words["pass"]))
        elif action.kind == "redeal":
            it = await fake.click(name, msg, button(words["redeal"]))
        elif action.kind == "bid":
            assert action.bid is not None
            bid = action.bid
            it = await fake.click(name, msg, button(in_language_of(
                fake, name, lambda: _bid_text(bid))))
        elif action.kind == "discard":
            it = await fake.select(name, msg, selects[0]["custom_id"],
                                   [card_name(c) for c in action.cards])
        elif action.kind == "exchange":
            if not action.cards:
                it = await fake.click(name, msg, button(words["keep_hand"]))
            else:
                it = await fake.select(name, msg, selects[0]["custom_id"],
                                       [card_name(c) for c in action.cards])
        else:
            assert action.card is not None
            it = await fake.click(name, msg, button(card_label(action.card)))
            if ":lead:" in it.payload["data"]["custom_id"]:
                it = await self._lead_steps(name, it, view, action)
        self.stats.interactions += 1
        await settled(fake, it, msg.id, edits)
        await self.sync()
        self._acted(before, action)
        after = fake.message(msg)
        assert after.visible_to == fake.user(name).id or owner_of_dm(fake, after) == name
        title = after.embeds[0]["title"] if after.embeds else ""
        assert title in (in_language_of(fake, name, lambda: translate(
            "Your hand — {name}").format(name=safe_markdown(name))),
            in_language_of(fake, name, lambda: translate("Done"))), after.text()

    def _control_words(self, name: str) -> dict[str, str]:
        """The labels of the hand panel's fixed buttons, in `name`'s language."""
        return {key: in_language_of(self.fake, name, lambda k=key: game_text_hand.control_label(k))
                for key in ("pass", "redeal", "keep_hand")}

    async def _lead_steps(self, name: str, it: Any, view: HandView, action: Action) -> Any:
        """After a lead button: the trump (free_trump), then the call."""
        fake = self.fake
        assert view.legal is not None and action.card is not None
        msg = it.message
        assert msg is not None and it.response_type == 7
        self.stats.interactions += 1
        text = msg.text()
        if view.legal.trumps:
            assert in_language_of(fake, name, lambda: game_text_hand.lead_trump_panel(
                action.card).title) in text, text
            choice = action.trump or "led"
            trumps = [b["custom_id"] for b in msg.buttons() if b.get("custom_id", "")
                      .endswith(f":trump:{card_name(action.card)}:{choice}")]
            assert len(trumps) == 1, (choice, msg.buttons())
            it = await fake.click(name, msg, trumps[0])
            msg = it.message
            self.stats.interactions += 1
            text = msg.text()
        calls = view.legal.calls_for(suit_of(action.card))
        if calls:
            assert in_language_of(fake, name, lambda: game_text_hand.lead_call_panel(
                action.card).title) in text, text
            (sel,) = msg.selects()
            assert sorted(o["value"] for o in sel["options"]) == sorted(
                card_name(c) for c in calls)
            assert action.call is not None
            it = await fake.select(name, msg, sel["custom_id"], [card_name(action.call)])
        return it


class SlashDriver(BaseDriver):
    """Plays through slash commands, every value taken from the autocomplete."""

    async def _ac(self, name: str, command: str, focused: str, options: dict[str, Any]
                  ) -> list[str]:
        it = await self.fake.autocomplete(name, self.channel, command, focused=focused,
                                          options=options)
        self.stats.interactions += 1
        assert it.response_type == 8
        return [c["value"] for c in it.choices]

    async def _cards_from_autocomplete(self, name: str, command: str,
                                       cards: tuple[int, ...], legal: tuple[int, ...]) -> str:
        """Type the cards one by one, each time taking the completion offered."""
        current = ""
        chosen: list[int] = []
        for card in cards:
            choices = await self._ac(name, command, "cards", {"cards": current})
            left = [c for c in legal if c not in chosen]
            assert sorted(choices) == sorted(
                (current + " " + card_name(c)).strip() for c in left)[:25] or len(left) > 25
            want = (current + " " + card_name(card)).strip()
            assert want in choices, (want, choices)
            current = want
            chosen.append(card)
        return current

    async def step(self) -> bool:
        turn = await self.next_turn()
        if turn is None:
            return False
        seat, name = turn
        fake = self.fake
        shown = await fake.slash(name, self.channel, "amerikaner hand")
        self.stats.interactions += 1
        assert shown.callback.ephemeral and shown.message is not None
        assert "Your turn" in shown.message.text()
        before = self.table.version
        view, action = self.decide(seat)
        legal = view.legal
        assert legal is not None
        if legal.phase == "bid":
            choices = await self._ac(name, "amerikaner bid", "value", {"value": ""})
            want = ["pass"] + (["redeal"] if legal.can_redeal else []) + [
                str(b) for b in legal.bids]
            assert choices == want, (choices, want)
            value = {"pass": "pass", "redeal": "redeal"}.get(action.kind, str(action.bid))
            assert value in choices
            it = await fake.slash(name, self.channel, "amerikaner bid", {"value": value})
        elif legal.phase == "discard":
            cards = await self._cards_from_autocomplete(name, "amerikaner discard",
                                                        action.cards, legal.cards)
            it = await fake.slash(name, self.channel, "amerikaner discard", {"cards": cards})
        elif legal.phase == "exchange":
            if not action.cards:
                it = await fake.slash(name, self.channel, "amerikaner exchange", {})
            else:
                cards = await self._cards_from_autocomplete(name, "amerikaner exchange",
                                                            action.cards, legal.cards)
                it = await fake.slash(name, self.channel, "amerikaner exchange",
                                      {"cards": cards})
        else:
            assert action.card is not None
            choices = await self._ac(name, "amerikaner play", "card", {"card": ""})
            assert sorted(choices) == sorted(card_name(c) for c in legal.cards)
            card = card_name(action.card)
            options: dict[str, Any] = {"card": card}
            if legal.phase == "lead":
                calls = await self._ac(name, "amerikaner play", "call",
                                       {"card": card, "call": ""})
                want_calls = legal.calls_for(suit_of(action.card)) \
                    if not is_joker(action.card) else ()
                assert sorted(calls) == sorted(card_name(c) for c in want_calls)
                if action.call is not None:
                    options["call"] = card_name(action.call)
                trumps = await self._ac(name, "amerikaner play", "trump",
                                        {"card": card, "trump": ""})
                assert trumps == list(legal.trumps)
                if action.trump is not None:
                    options["trump"] = action.trump
            it = await fake.slash(name, self.channel, "amerikaner play", options)
        self.stats.interactions += 1
        assert it.callback.ephemeral and it.message is not None, it
        assert it.message.visible_to == fake.user(name).id
        title = it.message.embeds[0]["title"] if it.message.embeds else ""
        assert title in (f"Your hand — {safe_markdown(name)}", "Done"), it.message.text()
        await self.sync()
        self._acted(before, action)
        return True


# ----------------------------------------------------------------------------- tables

async def open_table(fake: FakeDiscord, players: list[str], options: dict[str, Any],
                     channel: Any = None, via: str = "buttons",
                     game: str = "amerikaner") -> StoredMessage:
    """The first player opens a table, the others join, the host starts (by the lobby's
    buttons, in the server's language, or by commands)."""
    host = players[0]
    new = await fake.slash(host, channel, f"{game} new",
                           {"players": len(players), **options})
    assert new.response_type == 4 and not new.callback.ephemeral, new.callback.data
    lobby = new.message
    assert lobby is not None
    for name in players[1:]:
        if via == "buttons":
            it = await fake.click_label(name, fake.message(lobby), in_server_language(
                fake, lambda: button_label("join")))
            assert it.response_type == 7, it.callback.data
        else:
            it = await fake.slash(name, channel, f"{game} join")
            assert it.callback.ephemeral and "You joined" in (it.content or "")
    if via == "buttons":
        start = await fake.click_label(host, fake.message(lobby), in_server_language(
            fake, lambda: button_label("start")))
        assert start.response_type == 7
    else:
        start = await fake.slash(host, channel, f"{game} start")
        assert not start.callback.ephemeral
    return lobby


_SUMMARY_ROW = re.compile(r"\*\*(.+?)\*\*: (\d+) tricks?, ([+-]\d+) → (-?\d+)")
_FINAL_ROW = re.compile(r"\*\*(.+?)\*\* — (-?\d+)")
_BOARD_ROW = re.compile(r"\d+\. \*\*<@(\d+)>\*\* — (\d+) wins?, (-?\d+) pts \((\d+) games?\)")


async def export_record(fake: FakeDiscord, user: str, channel: Any = None,
                        game: int | None = None) -> dict[str, Any]:
    it = await fake.slash(user, channel, "amerikaner export",
                          {"game": game} if game is not None else {})
    msg = it.message
    assert msg is not None and msg.attachments, it.callback.data
    return json.loads(msg.attachments[0].data)


async def check_finished_game(fake: FakeDiscord, table: Table, channel: Any = None,
                              expected_board: dict[int, tuple[int, int, int]] | None = None,
                              after_id: int = 0) -> dict[str, Any]:
    """The game is over: its exported record replays to the standings the bot showed,
    hand by hand; the leaderboard agrees. Returns the replay output."""
    assert table.game is not None and table.game.finished
    players = seat_names(table.seats)  # as shown: an AI seat's name is not stored
    host = next(s.name for s in table.seats if s.user_id is not None)
    record = await export_record(fake, host, channel)
    game = load_game(record)
    out = replay_output(game)
    assert out["finished"] is True
    assert record == json.loads(json.dumps(game_to_record(table.game))), \
        "the export differs from the game the bot played"
    assert out["totals"] == table.game.totals
    # what the channel was told, hand by hand
    public = [m for m in fake.messages(channel) if m.id > after_id]
    summaries = [m for m in public if m.embeds and
                 re.match(r"Hand \d+: ", m.embeds[0].get("title", ""))]
    hands = out["hands"]
    assert len(summaries) == len(hands), (len(summaries), len(hands))
    for index, (msg, report) in enumerate(zip(summaries, hands, strict=True)):
        title = msg.embeds[0]["title"]
        assert title.startswith(f"Hand {index + 1}: "), title
        outcome = report["outcome"]
        if outcome == "made":
            assert " made " in title, (title, report)
        elif outcome == "failed":
            assert " failed " in title, (title, report)
        elif outcome == "thrown_in":
            assert "thrown in" in title
        elif outcome == "redeal":
            assert "redeal" in title
        rows = _SUMMARY_ROW.findall(msg.embeds[0]["description"])
        assert [r[0] for r in rows] == players
        assert [int(r[1]) for r in rows] == report["tricks"], (title, rows, report)
        assert [int(r[2]) for r in rows] == report["scores"], (title, rows, report)
        assert [int(r[3]) for r in rows] == report["totals"], (title, rows, report)
    final = [m for m in public if m.embeds and
             m.embeds[0].get("title", "").startswith("Game over")]
    assert final, "no final standings"
    rows = _FINAL_ROW.findall(final[-1].embeds[0]["description"])
    shown = {name: int(total) for name, total in rows}
    assert shown == {players[s]: t for s, t in enumerate(out["totals"])}
    winners = [players[s] for s in out["winners"]]
    for w in winners:
        assert w in final[-1].embeds[0]["title"]
    # the leaderboard (by points) has every seated human, with this game counted
    if expected_board is None:
        expected_board = {}
        for s, seat in enumerate(table.seats):
            if seat.user_id is not None:
                expected_board[seat.user_id] = (1, int(s in out["winners"]),
                                                out["totals"][s])
    board = await fake.slash(host, channel, "amerikaner leaderboard", {"order": "points"})
    text = board.message.embeds[0]["description"]
    got = {int(uid): (int(games), int(wins), int(points))
           for uid, wins, points, games in _BOARD_ROW.findall(text)}
    assert got == expected_board, (got, expected_board)
    ranked = [int(uid) for uid, *_ in _BOARD_ROW.findall(text)]
    points = [expected_board[u][2] for u in ranked]
    assert points == sorted(points, reverse=True)
    return out




# ----------------------------------------------------------------------------- the lobby

def lobby_host_menu(fake: FakeDiscord, lobby: Any) -> dict[str, Any]:
    """The lobby's host menu (`amks:<table>:host`): AI players, and cancel."""
    return next(menu for menu in fake.message(lobby).selects()
                if str(menu.get("custom_id", "")).endswith(":host"))


def lobby_house_menu(fake: FakeDiscord, lobby: Any) -> dict[str, Any]:
    """The lobby's menu of house rules (`amks:<table>:house`)."""
    return next(menu for menu in fake.message(lobby).selects()
                if str(menu.get("custom_id", "")).endswith(":house"))


def lobby_host_values(fake: FakeDiscord, lobby: Any) -> list[str]:
    """The choices the lobby's host menu offers now."""
    return [option["value"] for option in lobby_host_menu(fake, lobby)["options"]]


async def choose_ai(fake: FakeDiscord, user: str, lobby: Any, choice: str) -> Any:
    """`user` picks in the lobby's host menu: an AI level to add a player of ("easy",
    "strong"), "fill" (every free seat), "remove" (the last AI seat) or "cancel"."""
    value = choice if choice in ("fill", "remove", "cancel") else f"add:{choice}"
    it = await fake.select(user, lobby, str(lobby_host_menu(fake, lobby)["custom_id"]),
                           [value])
    confirm = next((b for b in it.message.buttons() if str(b.get("custom_id", ""))
                    .endswith(":cancel:yes")), None) if it.message is not None else None
    if choice == "cancel" and confirm is not None:  # cancelling asks first: yes
        return await fake.click(user, it.message, confirm["custom_id"])
    return it


def phone_rows(fake: FakeDiscord, message: Any) -> int:
    """The lines a phone shows a message's components in: a select a line, buttons
    wrapped to the message's width (tests/fake_discord/layout.py, the shared model of
    Discord's mobile client)."""
    laid = phone_layout(fake.message(message), header=False)
    return sum(1 for what, _height in laid.parts if what in ("buttons", "select"))
