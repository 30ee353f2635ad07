"""The right-to-left checker (issue 55), beside the leak checker of tests/e2e/driver.py.

Every message version the bot writes that a Persian reader sees (a channel of a server
whose language is Persian; an ephemeral answer or a DM to a member who chose Persian with
/language; as `learn_languages` read them from the bot's store) is checked as the fake
stores it, piece by piece (content, embed title, description, fields, footer, every
button's and menu's label, placeholder and option):

* **isolated**: on a line with Persian letters, no Latin letter or digit stands outside
  an isolate (FSI/LRI/RLI … PDI): a name, a number, a card, a mention, a timestamp or a
  command left bare reorders the sentence around it in a right-to-left paragraph
  (UAX #9; Discord lays an embed field out as one paragraph, discord-api-docs#5341:
  https://github.com/discord/discord-api-docs/issues/5341);
* **no English left**: no Latin word but a member's name, a card's rank or suit letter
  (as typed: "AS", "10H"), or a word of the bot's commands (their names, options and
  choices' values, as Discord shows them to every member: never Persian).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import RIGHT_TO_LEFT
from bot.i18n.rtl import ISOLATES, PDI
from tests.e2e.driver import language_of_member, language_of_server
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.models import iter_components

_PERSIAN = re.compile(r"[\u0600-\u06FF\uFB50-\uFDFF\uFE70-\uFEFF]")
_OPENERS = ISOLATES.replace(PDI, "")
# Discord's own tokens (a mention, a channel, a timestamp, a custom emoji): not words.
_TOKENS = re.compile(r"<(?:@[!&]?\d+|#\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+)>")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
# A card as typed or shown: a rank, a suit letter, both ("AS", "10H", "TD"), a joker.
_CARD = re.compile(r"(?:10|[2-9TJQKA])?[SHDC]?|JK\d?")


def _pieces(msg: StoredMessage) -> list[str]:
    parts = [msg.content or ""]
    for e in msg.embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
    for comp in iter_components(msg.components):
        parts += [comp.get("label") or "", comp.get("placeholder") or "",
                  comp.get("content") or ""]
        for opt in comp.get("options") or []:
            parts += [opt.get("label") or "", opt.get("description") or ""]
    return [p for p in parts if p]


def bare_runs(line: str) -> list[str]:
    """The Latin letters and digits of `line` outside every isolate, with what is
    around each."""
    found: list[str] = []
    depth = 0
    for i, char in enumerate(line):
        if char in _OPENERS:
            depth += 1
        elif char == PDI:
            depth = max(0, depth - 1)
        elif depth == 0 and char.isascii() and char.isalnum():
            found.append(line[max(0, i - 12):i + 12])
    return found


def _command_words(fake: FakeDiscord) -> tuple[set[str], set[str]]:
    """The bot's top-level command names, and every word of its commands (subcommands,
    options, choices' names and values): what Discord shows every member, in English or
    Norwegian, never Persian."""
    words: set[str] = set()

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            words.update(_WORD.findall(item.get("name", "")))
            for choice in item.get("choices") or []:
                words.update(_WORD.findall(str(choice.get("value", ""))))
                words.update(_WORD.findall(str(choice.get("name", ""))))
            walk(item.get("options") or [])

    top = [*fake.commands().values(), *fake.commands(fake.guild.id).values()]
    walk(top)
    return {c["name"] for c in top}, {w.lower() for w in words}


# A command as a message names it: "/amerikaner bid value:pass", "/language".
_COMMAND = re.compile(r"/([a-z][\w-]*)((?:[ ]+[^\s/]+)*)")


@dataclass
class RightToLeftChecker:
    """Checks every message version a right-to-left reader sees, as the fake stores it."""

    fake: FakeDiscord
    names: set[str] = field(default_factory=set)  # members' names, allowed as they are
    violations: list[str] = field(default_factory=list)
    checked: int = 0  # message versions a right-to-left reader saw
    _commands: tuple[set[str], set[str]] | None = None

    def install(self) -> RightToLeftChecker:
        fake = self.fake
        self.names |= {u.name for u in fake.users} | {
            getattr(u, "global_name", None) or u.name for u in fake.users}
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

    def reader_language(self, msg: StoredMessage) -> str:
        """The language of whoever sees `msg`: its one member's, a DM's recipient's, else
        the server's."""
        if msg.visible_to is not None:
            return language_of_member(self.fake, msg.visible_to)
        channel = self.fake.channels.get(msg.channel_id)
        if channel is not None and channel.type == 1 and channel.recipient is not None:
            return language_of_member(self.fake, channel.recipient.id)
        guild = channel.guild_id if channel is not None else None
        return language_of_server(self.fake, guild)

    def check(self, msg: StoredMessage) -> None:
        if int(msg.author["id"]) != self.fake.bot_user.id:
            return
        if self.reader_language(msg) not in RIGHT_TO_LEFT:
            return
        self.checked += 1
        for piece in _pieces(msg):
            for line in piece.split("\n"):
                if _PERSIAN.search(line):
                    for bare in bare_runs(line):
                        self._violation(msg, f"bare left-to-right text {bare!r}", line)
                        break
            english = self.english(piece)
            if english:
                self._violation(msg, f"English left {sorted(english)}", piece)

    def english(self, text: str) -> set[str]:
        """The Latin words of `text` that are neither a name, a card nor a command's."""
        if self._commands is None:
            self._commands = _command_words(self.fake)
        top, words = self._commands

        def command(match: re.Match[str]) -> str:
            """A command and the words of it that follow (its subcommand, options and
            values) out; the first word that is not the command's stays."""
            if match.group(1) not in top:
                return match.group(0)
            rest = match.group(2).split(" ")
            kept = 0
            for kept, word in enumerate(rest):  # noqa: B007 - where the command ends
                if word and not all(w.lower() in words for w in _WORD.findall(word)):
                    break
            else:
                kept = len(rest)
            return " " + " ".join(rest[kept:])

        plain = _TOKENS.sub(" ", text.translate({ord(c): " " for c in ISOLATES}))
        plain = _COMMAND.sub(command, plain)
        for name in sorted(self.names, key=len, reverse=True):
            plain = plain.replace(name, " ")
        return {word for word in _WORD.findall(plain) if not _CARD.fullmatch(word)}

    def _violation(self, msg: StoredMessage, what: str, text: str) -> None:
        self.violations.append(f"{what} (message {msg.id}):\n{text}")

    def assert_clean(self) -> None:
        if self.violations:
            unique = list(dict.fromkeys(self.violations))
            raise AssertionError(f"{len(unique)} right-to-left faults:\n\n"
                                 + "\n\n".join(unique[:12]))
