"""Build script: the rules core compiled to C with mypyc where that is safe and possible.

Everything else about the package is in pyproject.toml; this file only adds the optional
C extensions (see bench/README.md):

* A regular install or wheel (`pip install .`, `pip wheel .`) compiles the hot modules of
  `bot/core` with mypyc (installed from `[build-system].requires`).
* An editable install (`pip install -e .`) never compiles: a compiled module placed next
  to its source would be imported instead of it, and edits to the source would be
  silently ignored. Editable installs run the Python sources.
* `AMERIKANER_PURE=1` in the environment skips compiling in any install.
* If compiling fails for any reason (no compiler, a mypy or C error), the install goes on
  with the pure-Python package, which behaves identically, only slower.

At run time `bot.core.hand.COMPILED` says which one is in use (bench/engine.py prints it).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules on the hot path of play-outs and random games: card sets, the shuffle, the
# hand state machine and the scoring it calls. The others stay Python: they are not hot,
# and a compiled class differs from a Python one in ways callers could notice (it checks
# attribute types, it cannot be subclassed in Python, it has no `__slots__` at run time),
# so of the public classes only `Hand` is compiled, and it is written to pickle and copy
# the same either way.
COMPILED_MODULES = [
    "bot/core/cards.py",
    "bot/core/hand.py",
    "bot/core/scoring.py",
]
# Names the shared library mypyc builds beside the modules (amerikaner_core__mypyc).
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
        _say("AMERIKANER_PURE is set: installing the pure-Python core.")
        return []
    if args & _EDITABLE_COMMANDS or "--inplace" in args or "-i" in args:
        _say("editable or in-place build: the core stays pure Python, so that the "
             "sources are what runs.")
        return []
    if not args & _BUILD_COMMANDS:
        return []  # metadata only (egg_info, dist_info, sdist): nothing to compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (the mypy package) is not available: installing the pure-Python core.")
        return []
    try:
        return mypycify(COMPILED_MODULES, opt_level="3", group_name=GROUP_NAME)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a type error makes mypyc exit (SystemExit)
        _say(f"mypyc could not compile the core ({type(exc).__name__}: {exc}); "
             "installing the pure-Python core.")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python: if any extension fails to build, none
    is installed (the compiled modules share one library: all or nothing)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # CompileError, LinkError, no compiler, ...
            _say(f"compiling the core failed ({type(exc).__name__}: {exc}); "
                 "installing the pure-Python core.")
            self._discard_outputs()

    def _discard_outputs(self) -> None:
        for path in self.get_outputs():
            if os.path.exists(path):
                os.remove(path)
        self.extensions = []


setup(ext_modules=_compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
