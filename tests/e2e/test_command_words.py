"""Issue 35 part 6, as Discord holds the bot's commands: every command, option and choice
name a member reads is words, in English and in Norwegian (no snake_case: `turn-timer`,
not `turn_timer`), and a valid name by Discord's naming rule; a server's `settings` tells
its default turn timer as people say it ("1 day a turn", not "1440 minutes")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.harness import bot_running
from tests.fake_discord import FakeDiscord
from tests.fake_discord.commands import slash_name_error

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


def _walk(item: dict[str, Any], path: tuple[str, ...] = ()
          ) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """A synced command, its subcommands and options, each with its path."""
    found = [(path, item)]
    for option in item.get("options") or []:
        found += _walk(option, (*path, item["name"]))
    return found


def _names(item: dict[str, Any]) -> dict[str, str]:
    """What a member reads of `item`'s name: in English (the default) and Norwegian."""
    return {"en": item["name"], "nb": (item.get("name_localizations") or {}).get("no")
            or item["name"]}


async def test_every_name_a_member_reads_is_words_in_both_languages(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """Every synced command, subcommand, option and choice: no underscore in English or
    Norwegian; command and option names valid by Discord's rule ("Application Command
    Naming": `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase,
    https://discord.com/developers/docs/interactions/application-commands
    #application-command-object-application-command-naming; the check is the fake's,
    tests/fake_discord/commands.py). The options that were `turn_timer`, `no_kitty`,
    `on_timeout`, `same_rank` and the command `daily_settings` read as words."""
    async with bot_running(fake, tmp_path / "db.sqlite3"):
        synced = list(fake.commands().values()) + list(fake.commands(fake.guild).values())
        assert synced
        seen: set[str] = set()
        # A command's name, in each language, to what it is called in the other: one
        # name means one thing (`/spill` was both "my games" and "play a card"), and a
        # thing is called one name wherever it is (`play` is `spill` in both games).
        meaning: dict[tuple[str, str], set[str]] = {}
        for top in synced:
            for path, item in _walk(top):
                if item is top or item.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
                    names = _names(item)
                    meaning.setdefault(("nb", names["nb"]), set()).add(names["en"])
                    meaning.setdefault(("en", names["en"]), set()).add(names["nb"])
                for language, name in _names(item).items():
                    assert "_" not in name, (language, path, item["name"], name)
                    assert slash_name_error(name) is None, (language, path, name)
                    seen.add(name)
                for choice in item.get("choices") or []:
                    for language, name in _names(choice).items():
                        assert "_" not in name, (language, path, choice)
        for (language, name), other in meaning.items():
            assert len(other) == 1, (language, name, other)
        assert {"turn-timer", "no-kitty", "on-timeout", "same-rank", "daily-settings",
                "trekktid", "uten-talong"} <= seen


async def test_a_hyphenated_option_reaches_its_setting(
        fake: FakeDiscord, tmp_path: Path, error_logs: Any) -> None:
    """The options as members now see them (`no-kitty`, `turn-timer`, `on-timeout`) set
    what their snake_case keys set before: the table's house rule and its timer; and the
    server's `settings` reads its default timer as "1 day a turn" ("1 døgn per trekk" in
    a Norwegian server), never in minutes."""
    async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
        # Sent under the registered names themselves (not the test's parameter names).
        new = await fake.slash("alice", None, "amerikaner new",
                               {"players": 3, "no-kitty": True, "turn-timer": "2d",
                                "on-timeout": "seat"})
        assert new.message is not None, new.callback.data
        table = bot.tables.registry.in_channel(fake.channel.id)
        assert table is not None and table.turn_timer == 2 * 86400
        assert "no_kitty" in table.rules.options and table.timeout_action == "seat"
        await fake.slash("alice", None, "amerikaner cancel")

        saved = await fake.slash("alice", None, "amerikaner settings", {"turn-timer": "1d"})
        text = saved.content or ""
        assert "1 day a turn" in text and "1440" not in text and "minute" not in text, text
        shown = await fake.slash("bob", None, "american settings")
        assert "Turn timer: none." in (shown.content or ""), shown.content
        await fake.slash("alice", None, "american settings", {"turn-timer": "12h",
                                                              "language": "nb"})
        fake.user("bob").locale = "no"
        shown = await fake.slash("bob", None, "american settings")
        text = shown.content or ""
        assert "12 timer per trekk" in text and "minutt" not in text, text
