"""The `amerikaner` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (imported where used: the command line starts without the bot)
    from bot.tables.rerate import RerateReport


def _replay_any(data: object) -> dict[str, object]:
    """The replay output of a record of any registered game, told apart by its `format`
    field (a record of none is refused as the default game's, which names the format
    expected)."""
    from bot.games import game_of_record
    from bot.render import error_text

    kind = game_of_record(data)
    # The platform words the refusals every game's records share (bot/render/refusals.py).
    return kind.replay(data, lambda error: error_text(error, kind))


def _cmd_replay(args: argparse.Namespace) -> int:
    from bot.errors import INVALID_RECORD, RecordError
    from bot.games import GAMES
    from bot.render import error_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"amerikaner replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        data = json.loads(text)
    except ValueError as exc:
        error = RecordError(INVALID_RECORD, reason="not_json", detail=str(exc))
        default = next(iter(GAMES.values()))
        out: dict[str, object] = error.to_json(error_text(error, default))
    else:
        out = _replay_any(data)
    print(json.dumps(out, ensure_ascii=False, indent=args.indent))
    return 2 if "error" in out else 0


def _cmd_bot(args: argparse.Namespace) -> int:
    import os

    from bot.app import run_bot

    # The flags stand for the settings of the same names (and win over them).
    if args.shard_count is not None:
        os.environ["SHARD_COUNT"] = args.shard_count
    if args.shards is not None:
        os.environ["SHARD_IDS"] = args.shards
    return run_bot()


def _cmd_db_copy(args: argparse.Namespace) -> int:
    import asyncio

    from bot.store import StoreError
    from bot.store.copy import copy_sqlite_to_postgres

    if not args.to.startswith(("postgresql://", "postgres://")):
        print("amerikaner db copy: --to must be a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(args.source, args.to))
    except (StoreError, OSError) as exc:
        print(f"amerikaner db copy: {exc}", file=sys.stderr)
        return 1
    for table, rows in counts.items():
        print(f"{table:16} {rows:>10} rows")
    print(f"copied {sum(counts.values())} rows from {args.source}")
    return 0


def _cmd_db_rerate(args: argparse.Namespace) -> int:
    import asyncio

    from bot.store import StoreError

    try:
        report = asyncio.run(_rerate(args.db))
    except (StoreError, OSError) as exc:
        print(f"amerikaner db rerate: {exc}", file=sys.stderr)
        return 1
    print(f"rated {report.matches} matches of {report.games} games in {report.guilds} "
          f"servers: {report.members} ratings")
    if report.skipped:
        print(f"skipped {len(report.skipped)} games this bot cannot read: "
              + ", ".join(str(game) for game in report.skipped[:20]))
    return 0


async def _rerate(target: str | None) -> RerateReport:
    from bot.games import GAMES
    from bot.store import open_database
    from bot.tables.rerate import rerate

    if target is None:  # the bot's database (no token needed for that)
        import os

        from dotenv import load_dotenv

        from bot.config import DEFAULT_DATABASE

        load_dotenv(".env", override=False)
        target = (os.environ.get("DATABASE_URL", "").strip()
                  or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    async with open_database(target) as store:
        return await rerate(store, GAMES)


def _terminal_language(asked: str | None) -> str:
    """The terminal game's language: --lang, else the environment's locale (LC_ALL,
    LC_MESSAGES, LANG, as gettext reads them), else English."""
    import os

    from bot.i18n import language_of

    if asked:
        return language_of(asked)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(name):
            return language_of(os.environ[name])
    return language_of(None)


def _cmd_play(args: argparse.Namespace) -> int:
    from bot.i18n import use_locale

    with use_locale(_terminal_language(args.lang)):
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    from bot.games import GAMES

    kind = GAMES[args.game]
    level = args.level or kind.fallback_level
    if level not in ("random", *kind.ai_levels):
        print(f"amerikaner play: {args.game} has no AI level {level!r} (it has: "
              f"{', '.join(('random', *kind.ai_levels))})", file=sys.stderr)
        return 2
    options = {name.strip(): True for name in args.options.split(",") if name.strip()}
    return kind.terminal(args.players, options, args.seed, level, args.target,
                         preset=args.preset)


def _add_play_options(pp: argparse.ArgumentParser) -> None:
    """`play`'s options, their choices and help from the registered games."""
    from bot.games import GAMES

    def each(words: Callable[[str, Any], str]) -> str:
        return "; ".join(filter(None, (words(name, kind) for name, kind in GAMES.items())))

    def house_rules(kind: Any) -> str:
        rules = kind.make_rules(None, kind.default_players, {})
        return ",".join(key for key, *_ in kind.house_rules(rules))

    levels = dict.fromkeys(("random", *(level for kind in GAMES.values()
                                         for level in kind.ai_levels)))
    first = next(iter(GAMES))
    pp.add_argument("--game", choices=tuple(GAMES), default=first,
                    help=f"the game (default {first})")
    pp.add_argument("--preset", default=None, help="the game's preset (" + each(
        lambda name, kind: f"{name}: {', '.join(p for p in kind.presets if p)}"
        if any(kind.presets) else "") + ")")
    pp.add_argument("--players", type=int, default=None, help="players at the table "
                    "(default " + each(lambda name, kind: f"{name} {kind.default_players}")
                    + ")")
    pp.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    pp.add_argument("--level", choices=tuple(levels), default=None,
                    help="the AI players' level (default: the game's weakest; " + each(
                        lambda name, kind: f"{name}: {', '.join(kind.ai_levels)}") + ")")
    rules = {name: house_rules(kind) for name, kind in GAMES.items()}
    pp.add_argument("--options", default="", help="comma-separated house rules (" + each(
        lambda name, kind: f"{name}: {rules[name]}" if rules[name] else "") + ")")
    pp.add_argument("--target", type=int, default=None,
                    help="the game's target: the score to reach, or the deals to win "
                    "(default: the game's)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="amerikaner",
        description="Amerikaner and Kani: the rules engine, the Discord bot and more.")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record (of any game, known by "
                        "its format) and print the result as JSON")
    rp.add_argument("file", help="the record (JSON), or - for standard input")
    rp.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    rp.set_defaults(func=_cmd_replay)
    bp = sub.add_parser("bot", help="run the Discord bot (settings from the environment "
                        "and .env)")
    bp.add_argument("--shards", default=None, metavar="IDS",
                    help="the gateway shards this process runs, e.g. 0,1 (SHARD_IDS; needs "
                    "--shard-count or SHARD_COUNT)")
    bp.add_argument("--shard-count", default=None, metavar="N",
                    help="the shards of all processes together (SHARD_COUNT)")
    bp.set_defaults(func=_cmd_bot)
    dp = sub.add_parser("db", help="database tools")
    db_sub = dp.add_subparsers(dest="db_command", required=True)
    cp = db_sub.add_parser("copy", help="copy a SQLite database, every row of it, into a new "
                           "PostgreSQL database")
    cp.add_argument("--from", dest="source", required=True,
                    help="the SQLite file (e.g. data/amerikaner.sqlite3)")
    cp.add_argument("--to", required=True, help="postgresql://user:password@host/database "
                    "(an empty database; the tables are made)")
    cp.set_defaults(func=_cmd_db_copy)
    rr = db_sub.add_parser("rerate", help="rebuild every rating, season and trend from the "
                           "stored games (after a change of the rating model, or a copy); "
                           "stop the bot first")
    rr.add_argument("--db", default=None, help="the SQLite file or postgresql:// URL "
                    "(default: the bot's, DATABASE_URL or DATABASE_PATH)")
    rr.set_defaults(func=_cmd_db_rerate)
    pp = sub.add_parser("play", help="play a game in the terminal against the AI")
    _add_play_options(pp)
    pp.add_argument("--lang", choices=("en", "nb"), default=None,
                    help="the game's language: en or nb (Norwegian bokmål); default: the "
                    "environment's locale (LANG)")
    pp.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
