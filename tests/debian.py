"""Debian's packages the tests need, installed by the tests themselves when missing, so
that the README's test command is enough on a fresh machine (CI runs that very command):
PostgreSQL's server (tests/pg_server.py) and Chromium for the Activity's page
(tests/e2e/test_activity_browser.py). Only as root with apt-get; elsewhere the caller
says what to install."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def can_install() -> bool:
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def apt_install(*packages: str) -> None:
    """Install Debian's `packages` (root only; the caller holds `install_lock`)."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
                   check=True, env=env, stdout=subprocess.DEVNULL)


@contextlib.contextmanager
def install_lock() -> Iterator[None]:
    """An exclusive lock shared by every test process of this machine: the suite runs in
    several worker processes (pytest-xdist), and apt refuses a second dpkg at once; one
    installs while the others wait, then they find it installed."""
    path = Path(tempfile.gettempdir()) / "amerikaner-tests-apt-install.lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
