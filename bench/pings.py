"""Benchmark: what playing over days costs in requests (issue 26), against the budget.

N Amerikaner tables play at once through the strict fake Discord, each with two human
seats and two AIs and a 2-day turn timer; half of the humans get their turn pings by
direct message (/notify where:dm). Every human move is made the way a player over days
makes it: from the ping's "My hand" button (the fake's clock moves 20 minutes between
rounds, so no panel's token lasts from one move to the next and every turn starts with a
ping). Once, the clock moves a day on: every table waiting for a human sends its
half-time reminder.

Reported, per move and at 1,000 tables: the requests counted against the bot token's
global limit, by kind (turn pings in channels, reminders, DMs and the opening of DM
channels, table-message edits, other posts), and what they come to at 1,000 tables at
the human pace of bench/bot.py (a move every ~27 s at each table) against the request
budget (REQUEST_BUDGET, default 45/s). The pings ride on the budget like every other
request; interaction answers and panel edits are exempt and not counted.

    python bench/pings.py                  # 40 tables, 6 rounds
    python bench/pings.py --gap 90         # moves 1.5 hours apart: re-posts and deletes
    python bench/pings.py --gap 0.5        # the live pace: panels open, no pings
    python bench/pings.py --tables 100 --rounds 8
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.config import DEFAULT_REQUEST_BUDGET  # noqa: E402
from bot.render import button_label  # noqa: E402
from tests.e2e.driver import ButtonDriver, choose_ai, in_every_language  # noqa: E402
from tests.e2e.harness import bot_running  # noqa: E402
from tests.fake_discord import FakeDiscord, StoredMessage  # noqa: E402

HOUR = 3600.0
MOVE_EVERY = 27.0  # seconds between moves at a table: bench/bot.py's human pace
PAGE = 1000  # the table count the figures are given for


def _hand_id(message: StoredMessage) -> str | None:
    labels = set(in_every_language(lambda: button_label("hand")))
    return next((b["custom_id"] for b in message.buttons()
                 if b.get("label") in labels and not b.get("disabled")), None)


class Seat:
    """One human: their pings so far, and how many they had at their last move."""

    def __init__(self, fake: FakeDiscord, name: str, channel: Any) -> None:
        self.fake, self.name, self.channel = fake, name, channel
        self.mention = f"<@{fake.user(name).id}>"
        self.moved_at = 0
        self.panel: StoredMessage | None = None

    def pings(self) -> list[StoredMessage]:
        # Deleted ones too: a spent ping is deleted once its turn has passed (issue 35).
        shown = [m for m in self.fake.messages(self.channel, deleted=True)
                 if self.mention in (m.content or "") and _hand_id(m)]
        shown += [m for m in self.fake.dm_messages(self.name, deleted=True)
                  if m.visible_to is None and _hand_id(m)]
        return sorted(shown, key=lambda m: m.id)


async def play_round(fake: FakeDiscord, driver: ButtonDriver, seats: dict[str, Seat]
                     ) -> int:
    """The human to act at the driver's table moves from their ping; 1 if they did."""
    turn = await driver.next_turn()
    if turn is None:
        return 0
    seat, name = turn
    human = seats[name]

    def followed() -> bool:  # their panel of a minute ago follows the turn: no ping
        return human.panel is not None and "Your turn" in fake.message(human.panel).text()
    await fake.wait_until(lambda: len(human.pings()) > human.moved_at or followed(), 60.0,
                          "a ping")
    if len(human.pings()) > human.moved_at:
        ping = human.pings()[-1]
        custom_id = _hand_id(ping)
        assert custom_id is not None
        it = await fake.click(name, ping, custom_id, timeout=30.0)
        panel = it.message
        assert panel is not None, it.callback.data
        human.panel = panel
    else:
        panel = human.panel
        assert panel is not None
    await driver.act(name, seat, panel)
    human.moved_at = len(human.pings())
    return 1


def classify(fake: FakeDiscord, since: float) -> dict[str, int]:
    """The counted requests since `since` (time.monotonic()), by kind."""
    dms = {cid for cid, ch in fake.channels.items() if ch.type == 1}
    kinds: dict[str, int] = {}
    for request in fake.global_requests():
        if request.time < since:
            continue
        path = request.path
        match = re.match(r"/api/v\d+/channels/(\d+)/messages(/\d+)?$", path) or \
            re.match(r"/channels/(\d+)/messages(/\d+)?$", path)
        if request.method == "POST" and path.endswith("/users/@me/channels"):
            kind = "DM channel opened"
        elif match and int(match.group(1)) in dms:
            kind = "DM sent"
        elif match and request.method == "POST":
            kind = "channel post (pings, reminders, summaries, tables)"
        elif match and request.method == "PATCH":
            kind = "table message edit"
        elif match and request.method == "DELETE":
            kind = "delete (stale table copies, spent pings)"
        else:
            kind = f"{request.method} other"
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


async def run(args: argparse.Namespace) -> None:
    names = [f"p{i}" for i in range(2 * args.tables)]
    fake = FakeDiscord(user_names=names)
    await fake.start()
    channels = [fake.channel] + [await fake.add_channel(f"t{i}") for i in range(1, args.tables)]
    with tempfile.TemporaryDirectory() as work:
        async with bot_running(fake, Path(work) / "db.sqlite3") as bot:
            bot.tables.shared.rng = random.Random(args.seed)
            drivers, seats = [], {}
            for index, channel in enumerate(channels):
                a, b = names[2 * index], names[2 * index + 1]
                if index % 2 == 0:
                    await fake.slash(b, channel, "notify", {"where": "dm"})
                new = await fake.slash(a, channel, "amerikaner new",
                                       {"players": 4, "preset": "amerikaner",
                                        "turn_timer": 2880}, timeout=30.0)
                lobby = new.message
                assert lobby is not None, new.callback.data
                await fake.click_label(b, fake.message(lobby), "Join", timeout=30.0)
                await choose_ai(fake, a, fake.message(lobby), "fill")
                await fake.click_label(a, fake.message(lobby), "Start", timeout=30.0)
                drivers.append(ButtonDriver(fake, lambda: bot, channel, seed=index))
                seats.update({a: Seat(fake, a, channel), b: Seat(fake, b, channel)})
            since = time.monotonic()
            moves = 0
            for round_ in range(args.rounds):
                fake.clock.advance(args.gap * 60)  # 20: the panels' tokens run out
                if round_ == args.rounds // 2:
                    fake.clock.advance(25 * HOUR)  # half time: every waiting human
                    await asyncio.sleep(1.0)
                done = await asyncio.gather(*(play_round(fake, d, seats) for d in drivers))
                moves += sum(done)
            await asyncio.sleep(1.0)
            kinds = classify(fake, since)
            total_pings = sum(len(s.pings()) for s in seats.values())
            dm_pings = sum(len([m for m in s.pings() if m.channel_id != s.channel.id])
                           for s in seats.values())
            all_moves = sum(t.version for t in bot.tables.registry.tables.values())
            reminders = sum(len([m for m in s.pings() if "⏳" in (m.content or "")])
                            for s in seats.values())
    await fake.stop()
    counted = sum(kinds.values())
    rate = PAGE / MOVE_EVERY  # moves a second at 1,000 tables
    print(f"{args.tables} tables, {moves} human moves from pings ({all_moves} moves in all "
          f"with the AIs'), {len(fake.rate_limited)} 429s")
    print(f"pings {total_pings} ({dm_pings} by DM), of which reminders {reminders}")
    for kind, count in sorted(kinds.items()):
        print(f"  {kind:55s} {count:6d}  {count / max(all_moves, 1):.3f}/move")
    per_move = counted / max(all_moves, 1)
    print(f"counted requests per move: {per_move:.3f}; at {PAGE:,} tables, a move every "
          f"{MOVE_EVERY:.0f} s each: {per_move * rate:.1f} requests/s of the "
          f"{DEFAULT_REQUEST_BUDGET:.0f}/s budget ({per_move * rate / DEFAULT_REQUEST_BUDGET:.0%})")
    ping_share = (kinds.get("DM sent", 0) + kinds.get("DM channel opened", 0)
                  + total_pings - dm_pings) / max(all_moves, 1)
    print(f"pings, reminders and DMs per move: {ping_share:.3f} -> {ping_share * rate:.1f} "
          f"requests/s at {PAGE:,} tables")
    per_round = counted / max(moves, 1)  # a human's move and the AIs' after it
    hourly = per_round * PAGE / HOUR
    print(f"counted requests per human move (with the AI moves it sets off): "
          f"{per_round:.2f}; every {args.gap:g} min. At {PAGE:,} tables each with a human "
          f"move an hour: {hourly:.2f} requests/s ({hourly / DEFAULT_REQUEST_BUDGET:.1%} of "
          f"the budget)")
    per_human = ping_share * max(all_moves, 1) / max(moves, 1)
    print(f"pings, reminders and DMs per human move: {per_human:.3f}; if every move at "
          f"{PAGE:,} tables were a human's, pinged (no panel open), every {MOVE_EVERY:.0f} s: "
          f"{per_human * rate:.1f} requests/s ({per_human * rate / DEFAULT_REQUEST_BUDGET:.0%}"
          f" of the budget); over days the pace is hours, not seconds")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gap", type=float, default=20.0,
                        help="minutes between rounds (over 55: every table message is "
                             "posted afresh and its old copy deleted; 0.5: the live pace)")
    asyncio.run(run(parser.parse_args()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
