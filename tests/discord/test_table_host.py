"""The table cog is found by reference (cogs/tables/host.py): attached to its bot at
load, gone at unload, and never kept alive by the lookup itself."""

from __future__ import annotations

import gc
import weakref

import pytest

from cogs.tables.host import attach, detach, host_of


class _Bot:
    """Stands in for a discord.Client: any object a weak reference can name."""


def test_the_cog_serves_its_own_bot_while_it_is_loaded() -> None:
    bot, other, cog = _Bot(), _Bot(), object()
    attach(bot, cog)
    assert host_of(bot) is cog
    with pytest.raises(RuntimeError):
        host_of(other)  # another bot's interactions never reach this cog
    detach(other, cog)  # not its bot: nothing changes
    assert host_of(bot) is cog
    detach(bot, cog)
    with pytest.raises(RuntimeError):
        host_of(bot)


def test_a_dropped_bot_is_not_kept_alive() -> None:
    """Tests start many bots in one process: the lookup itself holds no bot (the cog
    detaches at its unload, which Bot.close does for every cog)."""
    bot, cog = _Bot(), object()
    attach(bot, cog)
    gone = weakref.ref(bot)
    del bot
    gc.collect()
    assert gone() is None
