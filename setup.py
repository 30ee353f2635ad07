"""Build script: the rules core and the AI's hot path compiled to C with mypyc where that
is safe and possible.

Everything else about the package is in pyproject.toml; this file only adds the optional
C extensions (see bench/README.md):

* A regular install or wheel (`pip install .`, `pip wheel .`) compiles the hot modules of
  `bot/cards.py` and `bot/games/amerikaner` (COMPILED_MODULES) with mypyc (installed from
  `[build-system].requires`).
* An editable install (`pip install -e .`) never compiles: a compiled module placed next
  to its source would be imported instead of it, and edits to the source would be
  silently ignored. Editable installs run the Python sources.
* `AMERIKANER_PURE=1` in the environment skips compiling in any install.
* If compiling fails for any reason (no compiler, a mypy or C error), the install goes on
  with the pure-Python package, which behaves identically, only slower.

The modules are compiled together or not at all, so at run time `bot.games.amerikaner.hand.COMPILED`
says which one is in use for all of them (bench/engine.py prints it).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules on the hot path of play-outs, random games and AI decisions:
# * the core: card sets, the shuffle, the hand state machine and the scoring it calls;
#   American's deal state machine (bot/games/american/state.py);
# * American's AI: the easy policy its play-outs play (ai/easy.py) and the strong
#   player's sampling and search (ai/strong.py); ai/switch.py stays Python, as for
#   Amerikaner's;
# * the AI: the lean trick-play state `Sim` (sim.py), the easy player's policy, which plays
#   every card of the strong player's play-outs (easy.py), the sampling of hidden cards
#   (knowledge.py), and the strong player's inference chain, play-outs and endgame
#   solver (strong.py), which samples worlds for a fixed time a decision: compiled, it
#   fits several times as many in that time.
# The others stay Python: they are not hot, and a compiled class differs from a Python one
# in ways callers could notice (it checks attribute types, it cannot be subclassed in
# Python, it has no `__slots__` at run time), so of the core's public classes only `Hand`
# is compiled, written to pickle and copy the same either way; the AI's compiled classes
# (`Sim`, `Knowledge`, strong.py's `Chain`, `_History` and `_Solver`) are its own.
# Compiled code calls functions of these modules directly, so replacing one from outside
# (`strong.easy_card = ...`) is not seen by compiled callers; module constants marked
# `Final` are inlined. strong.py's tuning values (`STRONG_BUDGET`, `MAX_SAMPLES`,
# `SIDE_TRICKS_WEIGHT`, ...) are plain globals, read at each use, so assigning them from
# outside (bench/ai.py does) works compiled too. bot/games/amerikaner/ai/switch.py must
# stay Python: the strong player calls it between worlds so that other threads get the GIL.
COMPILED_MODULES = [
    "bot/cards.py",
    "bot/games/amerikaner/hand.py",
    "bot/games/amerikaner/scoring.py",
    "bot/games/amerikaner/ai/sim.py",
    "bot/games/amerikaner/ai/easy.py",
    "bot/games/amerikaner/ai/knowledge.py",
    "bot/games/amerikaner/ai/strong.py",
    "bot/games/american/state.py",
    "bot/games/american/ai/easy.py",
    "bot/games/american/ai/inference.py",
    "bot/games/american/ai/strong.py",
]
# Names the shared library mypyc builds beside the modules (amerikaner_core__mypyc; it
# holds the AI modules too).
GROUP_NAME = "amerikaner_core"

# setuptools commands that build the package for a regular (non-editable) install.
_BUILD_COMMANDS = {"bdist_wheel", "build", "build_ext", "install", "bdist", "bdist_egg"}
# Editable installs: PEP 660 (pip >= 21.3 with setuptools >= 64), and the legacy one.
_EDITABLE_COMMANDS = {"editable_wheel", "develop"}


def _say(message: str) -> None:
    print(f"amerikaner build: {message}", file=sys.stderr)


def _compiled_extensions() -> list:
    """mypyc's extensions for COMPILED_MODULES, or [] to install pure Python."""
    args = set(sys.argv[1:])
    if os.environ.get("AMERIKANER_PURE", "").strip() not in ("", "0"):
        _say("AMERIKANER_PURE is set: installing the pure-Python package.")
        return []
    if args & _EDITABLE_COMMANDS or "--inplace" in args or "-i" in args:
        _say("editable or in-place build: everything stays pure Python, so that the "
             "sources are what runs.")
        return []
    if not args & _BUILD_COMMANDS:
        return []  # metadata only (egg_info, dist_info, sdist): nothing to compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (the mypy package) is not available: installing the pure-Python "
             "package.")
        return []
    try:
        return mypycify(COMPILED_MODULES, opt_level="3", group_name=GROUP_NAME)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a type error makes mypyc exit (SystemExit)
        _say(f"mypyc could not compile {', '.join(COMPILED_MODULES)} "
             f"({type(exc).__name__}: {exc}); installing the pure-Python package.")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python: if any extension fails to build, none
    is installed (the compiled modules share one library: all or nothing)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # CompileError, LinkError, no compiler, ...
            _say(f"compiling the core and AI modules failed ({type(exc).__name__}: {exc}); "
                 "installing the pure-Python package.")
            self._discard_outputs()

    def _discard_outputs(self) -> None:
        for path in self.get_outputs():
            if os.path.exists(path):
                os.remove(path)
        self.extensions = []


setup(ext_modules=_compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
