"""Benchmark: how far a table message falls behind when its edits meet failures of
Discord's (issue 37): a 503, a 500, a dropped connection, `--faults` times in a row.

One table of four humans plays in the bot through the strict fake Discord; after a move,
the next edits of its table message meet the fault; the figure is the wall time from the
move's answer to the moment the message shows the move. discord.py tries a 500 (502,
504, 524) again by itself, sleeping 1, 3, 5, 7 s; a 503 and a dropped connection come
back to the edit queue at once, which tries again after 0.5 s, doubled at each failure
(bot/discord/edit_queue.py). Table edits now give every 5xx back to the queue
(bot/discord/retries.py).

    python bench/edit_failures.py              # 2 faults in a row, 3 runs each
    python bench/edit_failures.py --faults 4 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.harness import bot_running  # noqa: E402
from tests.e2e.test_rate_limits import settle  # noqa: E402
from tests.e2e.test_table_message import (  # noqa: E402
    break_table_edits,
    dropped,
    internal_error,
    started_table,
    unavailable,
)
from tests.fake_discord import FakeDiscord  # noqa: E402

FAULTS = {"503": unavailable, "500": internal_error, "dropped": dropped}


async def one_run(fault: Any, faults: int) -> float:
    """Seconds from a move to its table message showing it, its edits meeting `fault`
    `faults` times first."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with bot_running(fake, Path(tmp) / "db.sqlite3") as bot:
                table, driver = await started_table(fake, bot)
                served = break_table_edits(fake, table, faults, fault)
                start = time.monotonic()
                await driver.step()
                await fake.wait_until(lambda: len(served) == faults, 60, "the faults")
                await settle(fake, table, timeout=90)
                return time.monotonic() - start
    finally:
        await fake.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--faults", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"table message lag after a move whose edits meet {args.faults} fault(s) in a row"
          f" (median of {args.runs} runs):")
    for name, fault in FAULTS.items():
        lags = [await one_run(fault, args.faults) for _ in range(args.runs)]
        print(f"  {name:>8}: {statistics.median(lags):5.1f} s "
              f"(min {min(lags):.1f}, max {max(lags):.1f})")


if __name__ == "__main__":
    asyncio.run(main())
