"""A Python function for compiled code to call between units of work, so that other
threads get the GIL.

The interpreter lets a waiting thread take the GIL (once its switch interval, 5 ms, has
passed) only while it runs Python bytecode. Compiled code (mypyc, setup.py) that runs for
long without calling any Python code keeps the GIL throughout: a strong decision in
trick play would hold up the bot's event loop (the table service runs AI turns in a
worker thread, `asyncio.to_thread`) for its whole length, up to the 40 ms budget. The
strong player calls `switch_point()` after each sampled world, which restores the
interpreter's switching (a call costs well under a microsecond).

This module must stay out of setup.py's COMPILED_MODULES: compiled, the call would not
enter the interpreter (a test checks it).
"""

from __future__ import annotations


def switch_point() -> None:
    """Nothing: entering a Python function lets the interpreter hand the GIL over."""
