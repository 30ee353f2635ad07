"""A throwaway PostgreSQL server for the tests: the real server, never a mock.

``PostgresServer.start()`` runs ``initdb`` in a temporary directory and starts
``postgres`` on a free port of 127.0.0.1 (no Unix socket, fsync off: the data is thrown
away), trusting local connections; ``new_database()`` gives each test a database of its
own; ``halt()`` and ``resume()`` stop and start it again on its data (a database
outage); ``stop()`` stops the server and removes the directory.

The binaries are the machine's PostgreSQL (``initdb`` on the PATH, or Debian's
``/usr/lib/postgresql/<version>/bin``). Where there are none and the tests run as root
with apt-get at hand (a fresh CI machine), Debian's ``postgresql`` package is
installed first. PostgreSQL refuses to run as root: then the server runs as the
``postgres`` user the package creates (or ``nobody``).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.debian import apt_install, can_install, install_lock

SUPERUSER = "postgres"


class NoPostgres(Exception):
    """No PostgreSQL server binaries could be found or installed."""


def find_bin_dir() -> Path | None:
    """The directory of initdb, pg_ctl and postgres, or None."""
    on_path = shutil.which("initdb")
    if on_path:
        # Debian links /usr/local/bin/initdb (or the like) to the versioned directory.
        return Path(os.path.realpath(on_path)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def install_debian_postgres() -> None:
    """Install Debian's PostgreSQL server (root only), without starting its cluster."""
    if not can_install():
        raise NoPostgres("PostgreSQL is not installed (initdb not found) and this is not "
                         "a root shell with apt-get: install the postgresql package")
    apt_install("postgresql")


def ensure_bin_dir() -> Path:
    found = find_bin_dir()
    if found is None:
        # The suite runs in several worker processes (pytest-xdist), each with a server of
        # its own: one installs the package while the others wait (apt refuses a second
        # dpkg at once), then they find it installed.
        with install_lock():
            found = find_bin_dir()
            if found is None:
                install_debian_postgres()
                found = find_bin_dir()
    if found is None:
        raise NoPostgres("PostgreSQL was installed but initdb is still not found")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> str | None:
    """Who runs the server: this user, or (as root, which PostgreSQL refuses) another."""
    if os.geteuid() != 0:
        return None
    for name in (SUPERUSER, "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise NoPostgres("running as root and there is neither a postgres nor a nobody user")


@dataclass
class PostgresServer:
    bin_dir: Path
    root: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    _options: list[str] = field(default_factory=list)
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    def start(cls, *, durable: bool = False) -> PostgresServer:
        """Start a server; ``durable`` keeps PostgreSQL's own fsync and commit settings
        (for measurements), else they are off (the tests' data is thrown away)."""
        bin_dir = ensure_bin_dir()
        root = Path(tempfile.mkdtemp(prefix="amerikaner-pg-"))
        server = cls(bin_dir, root, free_port())
        try:
            server._init_and_run(durable)
        except BaseException:
            server.stop()
            raise
        return server

    @property
    def admin_url(self) -> str:
        return self.url("postgres")

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _init_and_run(self, durable: bool) -> None:
        user = _run_as()
        if user is not None:
            os.chown(self.root, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
        data = self.root / "data"
        subprocess.run(
            [str(self.bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER,
             "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
            check=True, user=user, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            cwd=self.root)
        options = ["listen_addresses=127.0.0.1", "unix_socket_directories=",
                   "max_connections=300"]
        if not durable:
            options += ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        self._options = options
        self._run(options)
        self._wait_ready()

    def _run(self, options: list[str]) -> None:
        log = open(self.root / "server.log", "ab")  # noqa: SIM115 - kept for the process
        self.process = subprocess.Popen(
            [str(self.bin_dir / "postgres"), "-D", str(self.root / "data"), "-p",
             str(self.port), *[arg for option in options for arg in ("-c", option)]],
            user=_run_as(), stdout=log, stderr=subprocess.STDOUT, cwd=self.root)
        log.close()

    def _wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise NoPostgres("the test server exited: "
                                 + (self.root / "server.log").read_text()[-2000:])
            if self.psql("SELECT 1", check=False).returncode == 0:
                return
            time.sleep(0.1)
        raise NoPostgres("the test server did not start in time")

    def psql(self, sql: str, *, database: str = "postgres",
             check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin_dir / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
             "-d", self.url(database), "-c", sql],
            check=check, capture_output=True, text=True)

    def new_database(self) -> str:
        """A new empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[-1]
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", check=False)

    def halt(self) -> None:
        """Stop the server and keep its data (a database outage): clients are cut off
        and new connections refused until `resume`."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: clients cut off
            self.process.wait(timeout=30)

    def resume(self) -> None:
        """Start the halted server again, on the same port and data."""
        assert self.process is not None and self.process.poll() is not None
        self._run(self._options)
        self._wait_ready()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: clients cut off
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)
