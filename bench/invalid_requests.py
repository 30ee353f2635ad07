"""Invalid requests (401, 403, 429) per 10 minutes when the bot loses its rights in the
channels of many AI tables (issue 37), against Discord's limit: an IP that makes 10,000
in 10 minutes is restricted from the API
(https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).

N tables (one human away, three AIs: the AI plays at full speed) in N channels of the
strict fake Discord; once every table plays, the bot's Send Messages is denied in every
channel, either with Discord's CHANNEL_UPDATE (`--heard`, as for a channel's overwrite)
or without a word to the bot (the default, the worst case: a change of the bot's member
roles, of which a bot without the members intent hears nothing). Then `--minutes` of
Discord's clock pass (the fake's clock, which the bot reads: its refused channels are
tried again once every 10 minutes), and the rights are given back. Reported: invalid
requests in all, the most in any 10 minutes (the fake counts them as Discord does), the
bot's own count and what it held back, and whether every table played on to its end.

    python bench/invalid_requests.py                 # 100 tables, rights lost unheard
    python bench/invalid_requests.py --tables 20 --heard
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.tables.table import PAUSE_CHANNEL  # noqa: E402
from tests.e2e.driver import choose_ai  # noqa: E402
from tests.e2e.harness import bot_running  # noqa: E402
from tests.fake_discord import SEND_MESSAGES, FakeDiscord  # noqa: E402
from tests.fake_discord.lifecycle import INVALID_LIMIT  # noqa: E402
from tests.fake_discord.permissions import Overwrite  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    n = args.tables
    fake = FakeDiscord(user_names=[f"p{i}" for i in range(n)],
                       channel_names=[f"t{i}" for i in range(n)])
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as work:
            async with bot_running(fake, Path(work) / "db.sqlite3", ai_delay=args.ai_delay,
                                   edit_delay=0.5) as bot:
                channels = fake.guild.text_channels
                started = time.monotonic()
                tables = []
                for user, channel in zip(fake.users, channels, strict=True):
                    new = await fake.slash(user, channel, "amerikaner new",
                                           {"players": 4, "target": args.target})
                    assert new.message is not None
                    await choose_ai(fake, user, fake.message(new.message), "fill")
                    await fake.click_label(user, fake.message(new.message), "Start")
                    await fake.slash(user, channel, "amerikaner away")
                    table = bot.tables.registry.in_channel(channel.id)
                    assert table is not None
                    tables.append(table)
                print(f"{n} tables playing after {time.monotonic() - started:.0f} s")
                await asyncio.sleep(args.warmup)
                before = fake.invalid_total
                bot_id = fake.bot_user.id
                for channel in channels:
                    if args.heard:
                        await fake.set_bot_permissions(channel, deny=SEND_MESSAGES)
                    else:
                        channel.overwrites[bot_id] = Overwrite(bot_id, 1, 0, SEND_MESSAGES)
                lost = time.monotonic()
                # Discord's clock runs on: a minute at a time, a second of real time each.
                for _ in range(args.minutes):
                    fake.clock.advance(60)
                    await asyncio.sleep(1.0)
                waiting = sum(1 for t in tables if PAUSE_CHANNEL in t.paused)
                finished = sum(1 for t in tables if t.stage == "finished")
                during = fake.invalid_total - before
                print(f"rights lost {'with' if args.heard else 'without'} CHANNEL_UPDATE, "
                      f"{args.minutes} min of Discord's clock ({time.monotonic() - lost:.0f} s "
                      f"real): {waiting} tables waiting, {finished} finished before")
                for channel in channels:
                    if args.heard:
                        await fake.set_bot_permissions(channel)
                    else:
                        channel.overwrites.pop(bot_id, None)
                        await fake.slash(fake.users[channels.index(channel)], channel,
                                         "amerikaner score")
                deadline = time.monotonic() + args.finish
                while time.monotonic() < deadline and \
                        any(t.stage == "playing" for t in tables):
                    await asyncio.sleep(1.0)
                await bot.outbox.idle()
                done = sum(1 for t in tables if t.stage == "finished")
                print(f"invalid requests while the rights were gone: {during}; in all: "
                      f"{fake.invalid_total}; the most in any 10 minutes: "
                      f"{fake.invalid_peak} (Discord restricts the IP at {INVALID_LIMIT}: "
                      f"{100 * fake.invalid_peak / INVALID_LIMIT:.1f} % of it)")
                print(f"the bot: {bot.access.summary()}")
                print(f"{done} of {n} tables finished after the rights came back "
                      f"({sum(1 for t in tables if t.stage == 'playing')} still playing "
                      f"after {args.finish:.0f} s, "
                      f"{sum(1 for t in tables if t.paused)} of them waiting); "
                      f"posts still pending: "
                      f"{len(await bot.store.pending_posts())}")
    finally:
        await fake.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--heard", action="store_true",
                        help="the bot hears of the change (CHANNEL_UPDATE)")
    parser.add_argument("--minutes", type=int, default=30,
                        help="minutes of Discord's clock while the rights are gone")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before the rights go")
    parser.add_argument("--finish", type=float, default=120.0,
                        help="seconds given to the tables to finish after")
    parser.add_argument("--target", type=int, default=30)
    parser.add_argument("--ai-delay", type=float, default=0.2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
