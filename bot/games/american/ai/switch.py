"""A Python function for compiled code to call between units of work, so that other
threads get the GIL.

The interpreter lets a waiting thread take the GIL only while it runs Python bytecode;
compiled code (mypyc, setup.py) that runs for long without calling Python keeps it. The
strong player calls `switch_point()` after each sampled world, so a decision run in a
worker thread does not hold up the bot's event loop for its whole budget.

This module must stay out of setup.py's COMPILED_MODULES: compiled, the call would not
enter the interpreter.
"""

from __future__ import annotations


def switch_point() -> None:
    """Nothing: entering a Python function lets the interpreter hand the GIL over."""
