"""A PostgreSQL server of a test's own, which the test may stop and start.

What ``.ci/with-postgres`` does for the whole suite, as a context manager for one test:
a throwaway cluster under a temporary folder, run by a non-root user (PostgreSQL refuses
root; as root the server runs as the ``postgres`` system user, made if missing), on
127.0.0.1 and a free port, with ``fsync`` off. ``stop()`` and ``start()`` restart it on
the same port and data; leaving the ``with`` block stops it (``immediate``) and removes
its files whatever happened. Without PostgreSQL server binaries the test is skipped.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

OS_USER = "postgres"


def server_binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding ``pg_ctl``, if any."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "pg_ctl").exists()]
    found.sort(key=lambda p: [int(part) for part in p.parent.name.split(".") if part.isdigit()])
    return found[-1] if found else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One throwaway cluster: ``url()`` to connect, ``stop()``/``start()`` to restart."""

    def __init__(self, binaries: Path, work: Path) -> None:
        self.binaries = binaries
        self.work = work
        self.data = work / "data"
        self.port = free_port()
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            _ensure_os_user()
            shutil.chown(work, OS_USER)
            self.run_as = ["runuser", "-u", OS_USER, "--"]

    def _pg(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.run_as, str(self.binaries / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
        )

    def init(self) -> None:
        """Make the cluster (superuser ``postgres``, trust auth on 127.0.0.1)."""
        self._pg("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-h 127.0.0.1 -p {self.port} -k {self.work} -c fsync=off"
        log = str(self.work / "server.log")
        self._pg("pg_ctl", "-D", str(self.data), "-l", log, "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients, roll back their transactions;
        ``immediate``: no clean shutdown, recovery at the next start)."""
        self._pg("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, dbname: str = "postgres") -> str:
        """The superuser's URL of a database on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def close(self) -> None:
        """Stop the server if it runs; remove its files."""
        subprocess.run(
            [
                *self.run_as,
                str(self.binaries / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            timeout=120,
        )
        shutil.rmtree(self.work, ignore_errors=True)


def _ensure_os_user() -> None:
    try:
        pwd.getpwnam(OS_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", OS_USER], check=True)


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A started throwaway server, stopped and removed afterwards; skips without one."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("no PostgreSQL server binaries under /usr/lib/postgresql")
    work = Path(tempfile.mkdtemp(prefix="casino-audit-pg-own-"))
    work.chmod(0o755)
    server = PostgresServer(binaries, work)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.close()
