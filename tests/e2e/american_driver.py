"""Drivers for American tables through the fake Discord (tests/e2e/test_american.py).

* `AmericanButtonDriver` plays through the components alone: the player to act opens or
  refreshes their panel and picks, at random but seeded, among the ENABLED controls it
  shows, which must be exactly the legal actions.
* `AmericanSlashDriver` plays through `/american hand|play|pickup|swap|flip`, taking every
  value from the commands' autocomplete.
* `check_finished_american` replays the exported `american-record/1` and compares it with
  the game the bot played, the deal summaries, the standings and the leaderboard.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot.cards import card_label, card_name
from bot.games.american import _ as translate  # its catalog, then the platform's
from bot.games.american import text_hand
from bot.games.american.actions import Action
from bot.games.american.record import FORMAT, game_to_record, replay
from bot.games.american.views import DealView
from bot.render import button_label, seat_names
from bot.tables.names import safe_markdown
from bot.tables.table import Table
from tests.e2e.driver import (
    BaseDriver,
    enabled_actions,
    in_every_language,
    in_language_of,
    in_server_language,
    settled,
    table_message,
    wait_game_over,
)
from tests.fake_discord import FakeDiscord, StoredMessage


def fewer_plays(cards_of_rank: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    return [same[:count] for same in cards_of_rank for count in range(1, len(same))]


def american_policy(view: DealView, rng: random.Random) -> Action:
    """What a player chooses from their view: mostly the lowest rank, all of it (games
    end soon), now and then another rank, fewer cards, a swap or a voluntary pick-up."""
    legal = view.legal
    assert legal is not None and view.seat is not None
    seat = view.seat
    if legal.phase == "swap":
        count = rng.randint(0, min(len(legal.hand), len(legal.up)))
        return Action.swap(seat, tuple(rng.sample(legal.hand, count)),
                           tuple(rng.sample(legal.up, count)))
    if legal.phase == "flip":
        return Action.flip(seat, rng.choice(legal.indexes))
    if not legal.ranks or (legal.can_pickup and rng.random() < 0.05):
        return Action.pickup(seat)
    rank = legal.ranks[0] if rng.random() < 0.8 else rng.choice(legal.ranks)
    same = legal.cards_of_rank(rank)
    if len(same) > 1 and rng.random() < 0.2:
        return Action.play(seat, same[:rng.randint(1, len(same) - 1)])
    return Action.play(seat, same)


class AmericanDriver(BaseDriver):
    kinds: dict[str, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kinds = {}

    def decide(self, seat: int) -> tuple[DealView, Action]:  # type: ignore[override]
        view = self.table.seat_view(seat)
        assert view is not None and view.deal is not None and view.deal.legal is not None
        return view.deal, american_policy(view.deal, self.rng)

    def _acted(self, before: int, action: Action) -> None:  # type: ignore[override]
        table = self.table
        after = table.version
        ai = any(seat.played_by_ai for seat in table.seats)
        assert after == before + 1 or (ai and after > before), (before, after)
        done = [a for state in table.game.deals for a in state.actions][before]
        assert done == action, (done, action)
        self.stats.actions += 1
        self.kinds[action.kind] = self.kinds.get(action.kind, 0) + 1

    async def play_to_end(self, max_actions: int = 3000) -> None:
        for _ in range(max_actions):
            if not await self.step():
                await wait_game_over(self.fake, self.table)
                return
        raise AssertionError(f"the game did not end within {max_actions} actions")


def _names(cards: tuple[int, ...]) -> str:
    return "-".join(card_name(c) for c in cards)


class AmericanButtonDriver(AmericanDriver):
    """Plays through the buttons and menus shown to the player to act."""

    def __init__(self, *args: Any, refresh_share: float = 0.7, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hands: dict[str, StoredMessage] = {}
        self.refresh_share = refresh_share

    async def open_hand(self, name: str) -> StoredMessage:
        fake = self.fake
        old = self.hands.get(name)
        if old is not None and self.rng.random() < self.refresh_share:
            refresh = next(b for b in fake.message(old).buttons()
                           if b.get("custom_id", "").endswith(":hand"))
            it = await fake.click(name, old, refresh["custom_id"])
            assert it.response_type == 7, it
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
        your_turn = in_language_of(self.fake, name, lambda: translate(
            "**Your turn:** {what}").split("{")[0].replace("*", "").strip())
        assert your_turn in msg.text(), msg.text()
        await self.act(name, seat, msg)
        return True

    def _words(self, name: str) -> dict[str, str]:
        """The panel's fixed labels, in `name`'s language."""
        return {key: in_language_of(self.fake, name, lambda k=key: text_hand.control_label(k))
                for key in ("pickup", "keep")}

    def _flip(self, name: str, index: int) -> str:
        return in_language_of(self.fake, name, lambda: text_hand.flip_label(index))

    def check_offer(self, view: DealView, msg: StoredMessage, name: str) -> None:
        """The panel offers exactly the legal actions, and nothing else (in `name`'s
        language)."""
        words = self._words(name)
        legal = view.legal
        assert legal is not None
        buttons, selects = enabled_actions(msg)
        labels = sorted(b["label"] for b in buttons)
        if legal.phase == "swap":
            assert labels == [words["keep"]], labels
            (give,) = selects
            assert sorted(o["value"] for o in give["options"]) == sorted(
                card_name(c) for c in legal.hand)
        elif legal.phase == "flip":
            assert labels == sorted(self._flip(name, i) for i in legal.indexes)
            assert not selects
        else:
            want = [" ".join(card_label(c) for c in legal.cards_of_rank(r))
                    for r in legal.ranks]
            if legal.can_pickup:
                want.append(words["pickup"])
            assert labels == sorted(want), (labels, want)
            fewer = fewer_plays([legal.cards_of_rank(r) for r in legal.ranks])
            if fewer:
                (sel,) = selects
                assert [o["value"] for o in sel["options"]] == [_names(c) for c in fewer][:25]
            else:
                assert not selects

    async def act(self, name: str, seat: int, msg: StoredMessage) -> None:
        fake = self.fake
        before = self.table.version
        edits = fake.message(msg).edit_count
        view, action = self.decide(seat)
        self.check_offer(view, msg, name)
        words = self._words(name)
        buttons, selects = enabled_actions(msg)

        def button(label: str) -> str:
            found = [b["custom_id"] for b in buttons if b["label"] == label]
            assert len(found) == 1, (label, [b["label"] for b in buttons])
            return found[0]

        legal = view.legal
        assert legal is not None
        if action.kind == "pickup":
            it = await fake.click(name, msg, button(words["pickup"]))
        elif action.kind == "flip":
            it = await fake.click(name, msg, button(self._flip(name, action.position)))
        elif action.kind == "play" and len(action.cards) == len(
                legal.cards_of_rank(action.cards[0] % 13)):
            it = await fake.click(name, msg, button(" ".join(card_label(c)
                                                             for c in action.cards)))
        elif action.kind == "play":
            it = await fake.select(name, msg, selects[0]["custom_id"], [_names(action.cards)])
        elif not action.cards:
            it = await fake.click(name, msg, button(words["keep"]))
        else:
            it = await fake.select(name, msg, selects[0]["custom_id"],
                                   [card_name(c) for c in action.cards])
            assert it.response_type == 7 and self.table.version == before  # step 1 of 2
            step = fake.message(it.message)
            edits = step.edit_count
            (take,) = step.selects()
            assert sorted(o["value"] for o in take["options"]) == sorted(
                card_name(c) for c in legal.up)
            assert take["min_values"] == take["max_values"] == len(action.cards)
            it = await fake.select(name, step, take["custom_id"],
                                   [card_name(c) for c in action.up])
        self.stats.interactions += 1
        await settled(fake, it, msg.id, edits)
        await self.sync()
        self._acted(before, action)
        after = fake.message(msg)
        title = after.embeds[0]["title"] if after.embeds else ""
        assert title in (in_language_of(fake, name, lambda: translate(
            "Your hand — {name}").format(name=safe_markdown(name))),
            in_language_of(fake, name, lambda: translate("Done"))), after.text()


class AmericanSlashDriver(AmericanDriver):
    """Plays through slash commands, every value taken from the autocomplete."""

    async def _ac(self, name: str, command: str, focused: str, options: dict[str, Any]
                  ) -> list[str]:
        it = await self.fake.autocomplete(name, self.channel, command, focused=focused,
                                          options=options)
        self.stats.interactions += 1
        assert it.response_type == 8
        return [c["value"] for c in it.choices]

    async def _typed_cards(self, name: str, focused: str, cards: tuple[int, ...],
                           options: dict[str, Any]) -> str:
        current = ""
        for card in cards:
            choices = await self._ac(name, "american swap", focused,
                                     {**options, focused: current})
            want = (current + " " + card_name(card)).strip()
            assert want in choices, (want, choices)
            current = want
        return current

    async def step(self) -> bool:
        turn = await self.next_turn()
        if turn is None:
            return False
        seat, name = turn
        fake = self.fake
        shown = await fake.slash(name, self.channel, "american hand")
        self.stats.interactions += 1
        assert shown.callback.ephemeral and shown.message is not None
        assert "Your turn" in shown.message.text()
        before = self.table.version
        view, action = self.decide(seat)
        legal = view.legal
        assert legal is not None
        if action.kind == "play":
            choices = await self._ac(name, "american play", "cards", {"cards": ""})
            every = [legal.cards_of_rank(r) for r in legal.ranks]
            want = [" ".join(card_name(c) for c in p) for p in every + fewer_plays(every)]
            assert choices == want[:25], (choices, want)
            typed = " ".join(card_name(c) for c in action.cards)
            if len(action.cards) == len(legal.cards_of_rank(action.cards[0] % 13)) \
                    and self.rng.random() < 0.3:
                typed = card_name(action.cards[0])[:-1]  # the rank alone: all of it
            it = await fake.slash(name, self.channel, "american play", {"cards": typed})
        elif action.kind == "pickup":
            it = await fake.slash(name, self.channel, "american pickup")
        elif action.kind == "flip":
            choices = await self._ac(name, "american flip", "position", {"position": ""})
            assert choices == [str(i + 1) for i in legal.indexes]
            it = await fake.slash(name, self.channel, "american flip",
                                  {"position": str(action.position + 1)})
        elif not action.cards:
            choices = await self._ac(name, "american swap", "hand", {"hand": ""})
            assert choices[0] == "none"
            it = await fake.slash(name, self.channel, "american swap", {})
        else:
            hand = await self._typed_cards(name, "hand", action.cards, {})
            up = await self._typed_cards(name, "up", action.up, {"hand": hand})
            it = await fake.slash(name, self.channel, "american swap", {"hand": hand, "up": up})
        self.stats.interactions += 1
        assert it.callback.ephemeral and it.message is not None, it.callback.data
        title = it.message.embeds[0]["title"] if it.message.embeds else ""
        assert title in (f"Your hand — {safe_markdown(name)}", "Done"), it.message.text()
        await self.sync()
        self._acted(before, action)
        return True


async def open_american(fake: FakeDiscord, players: list[str], options: dict[str, Any],
                        channel: Any = None, via: str = "buttons") -> StoredMessage:
    """The first player opens an American table, the others join, the host starts."""
    host = players[0]
    new = await fake.slash(host, channel, "american new", {"players": len(players), **options})
    assert new.response_type == 4 and not new.callback.ephemeral, new.callback.data
    lobby = new.message
    assert lobby is not None
    for name in players[1:]:
        if via == "buttons":
            it = await fake.click_label(name, fake.message(lobby), in_server_language(
                fake, lambda: button_label("join")))
            assert it.response_type == 7, it.callback.data
        else:
            it = await fake.slash(name, channel, "american join")
            assert it.callback.ephemeral and "You joined" in (it.content or "")
    if via == "buttons":
        start = await fake.click_label(host, fake.message(lobby), in_server_language(
            fake, lambda: button_label("start")))
        assert start.response_type == 7
    else:
        start = await fake.slash(host, channel, "american start")
        assert not start.callback.ephemeral
    return lobby


_BOARD_ROW = re.compile(r"\d+\. \*\*<@(\d+)>\*\* — (\d+) wins?, (-?\d+) pts \((\d+) games?\)")


async def check_finished_american(fake: FakeDiscord, table: Table, channel: Any = None
                                  ) -> dict[str, Any]:
    """The game is over: `/american export` gives an american-record/1 of exactly the
    game the bot played, which replays to the deal summaries and the standings shown;
    the leaderboard counts it. Returns the replay output."""
    game = table.game
    assert game is not None and game.finished
    names = seat_names(table.seats)
    host = next(s.name for s in table.seats if s.user_id is not None)
    it = await fake.slash(host, channel, "american export")
    assert it.message is not None and it.message.attachments, it.callback.data
    record = json.loads(it.message.attachments[0].data)
    assert record["format"] == FORMAT
    assert record == json.loads(json.dumps(game_to_record(game)))
    out = replay(record)
    assert "error" not in out and out["finished"] is True, out
    assert out["wins"] == game.wins
    public = list(fake.messages(channel))
    summaries = [m for m in public if m.embeds and
                 re.match(r"Deal \d+: ", m.embeds[0].get("title", ""))]
    assert len(summaries) == len(out["deals"])
    for index, (msg, deal) in enumerate(zip(summaries, out["deals"], strict=True)):
        title = msg.embeds[0]["title"]
        assert title.startswith(f"Deal {index + 1}: "), title
        if deal["outcome"] == "finished":
            assert title.endswith(f"{names[deal['winner']]} is out first"), title
            rows = re.findall(r"\d+\. \*\*(.+?)\*\*", msg.embeds[0]["description"])
            assert rows == [names[s] for s in deal["places"]]
        else:
            assert title.endswith("drawn")
    final = [m for m in public if m.embeds and
             m.embeds[0].get("title", "").startswith("Game over")]
    assert final and names[out["winners"][0]] in final[-1].embeds[0]["title"]
    board = await fake.slash(host, channel, "american leaderboard", {"order": "wins"})
    got = {int(uid): (int(games), int(wins))
           for uid, wins, _, games in _BOARD_ROW.findall(board.message.embeds[0]["description"])}
    want = {seat.user_id: (1, int(s in out["winners"])) for s, seat in enumerate(table.seats)
            if seat.user_id is not None}
    assert got == want, (got, want)
    return out
