"""A throwaway PostgreSQL server for the tests and the benches.

``initdb`` into a temporary folder, as an ordinary user (the server refuses to run as root:
when the tests run as root the server runs as the ``postgres`` system user, or ``nobody``),
listening on 127.0.0.1 only, on a free port, with its socket in that folder. It is stopped
and its folder removed by :meth:`PgServer.stop`, at interpreter exit, and, should the test
process be killed outright, by a small watchdog process that notices the parent is gone.

Tests get it through the session fixture :func:`pg_server` (import it into a ``conftest.py``)::

    from tests.pg import pg_server  # noqa: F401  (a fixture)

Without the server binaries the fixture skips with the reason, except under ``CI=true``,
where it fails: CI must run the PostgreSQL tests.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_WATCHDOG = r"""
import os, shutil, subprocess, sys, time
parent, pg_ctl, datadir, folder = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
prefix = sys.argv[5:]
while True:
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        break
    time.sleep(0.5)
subprocess.run([*prefix, pg_ctl, "-D", datadir, "-m", "immediate", "-w", "stop"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
shutil.rmtree(folder, ignore_errors=True)
"""
"""Run beside the server: once the process that started it is gone, stop it."""


def find_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: ``$PG_BINDIR``, the newest
    ``/usr/lib/postgresql/*/bin``, or the ``PATH``."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates += versions
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> tuple[list[str], int | None, int | None]:
    """The command prefix, uid and gid the server runs under (it refuses root)."""
    if os.geteuid() != 0:
        return [], None, None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            runuser = shutil.which("runuser")
            prefix = [runuser, "-u", name, "--"] if runuser else ["su", name, "-s", "/bin/sh", "-c"]
            return prefix, entry.pw_uid, entry.pw_gid
    raise RuntimeError("running as root and neither a postgres nor a nobody user exists")


class PgServer:
    """One running throwaway server. ``url()`` gives a database's URL on it."""

    _names = itertools.count(1)

    def __init__(self, bindir: Path, folder: Path, port: int, prefix: list[str]) -> None:
        self.bindir = bindir
        self.folder = folder
        self.datadir = folder / "data"
        self.port = port
        self._prefix = prefix
        self._watchdog: subprocess.Popen[bytes] | None = None
        self._stopped = False

    @classmethod
    def start(cls, *, durable: bool = False, bindir: Path | None = None) -> PgServer:
        """initdb and start a server. ``durable=False`` (the tests) turns fsync off, which
        only matters if the machine itself crashes; the benches pass ``durable=True`` to
        measure what a real deployment would pay."""
        bindir = bindir or find_bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL server binaries not found")
        prefix, uid, gid = _run_as()
        folder = Path(tempfile.mkdtemp(prefix="drawpoker-pg-"))
        if uid is not None and gid is not None:
            os.chown(folder, uid, gid)
        os.chmod(folder, 0o700)
        server = cls(bindir, folder, _free_port(), prefix)
        atexit.register(server.stop)
        try:
            server._initdb()
            server._launch(durable)
        except BaseException:
            server.stop()
            raise
        return server

    def _cmd(self, *args: str) -> list[str]:
        if self._prefix and self._prefix[0] == "su":
            return [*self._prefix, " ".join(_quote(a) for a in args)]
        return [*self._prefix, *args]

    def _initdb(self) -> None:
        subprocess.run(
            self._cmd(
                str(self.bindir / "initdb"),
                "-D",
                str(self.datadir),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ),
            check=True,
            capture_output=True,
            cwd=self.folder,
        )

    def _launch(self, durable: bool) -> None:
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-c port={self.port}",
            f"-c unix_socket_directories={self.folder}",
            "-c max_connections=200",
            "-c shared_buffers=64MB",
        ]
        if not durable:
            options += ["-c fsync=off", "-c full_page_writes=off"]
        for attempt in range(5):
            done = subprocess.run(
                self._cmd(
                    str(self.bindir / "pg_ctl"),
                    "-D",
                    str(self.datadir),
                    "-l",
                    str(self.folder / "server.log"),
                    "-o",
                    " ".join(options),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ),
                capture_output=True,
                cwd=self.folder,
            )
            if done.returncode == 0:
                break
            if attempt == 4:
                log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"PostgreSQL did not start: {done.stderr.decode()}\n{log}")
            # Most likely the free port was taken between choosing and binding: choose again.
            self.port = _free_port()
            options[1] = f"-c port={self.port}"
        self._watchdog = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _WATCHDOG,
                str(os.getpid()),
                str(self.bindir / "pg_ctl"),
                str(self.datadir),
                str(self.folder),
                *self._prefix,
            ],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def create_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``); its URL."""
        import asyncpg

        name = f"test_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            clause = f" TEMPLATE {template}" if template else " TEMPLATE template0"
            await conn.execute(f"CREATE DATABASE {name}{clause}")
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        import asyncpg

        name = url.rsplit("/", 1)[1]
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()

    def stop(self) -> None:
        """Stop the server (immediately: it holds nothing worth keeping) and remove its
        folder. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        if (self.datadir / "postmaster.pid").exists():
            subprocess.run(
                self._cmd(
                    str(self.bindir / "pg_ctl"),
                    "-D",
                    str(self.datadir),
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ),
                capture_output=True,
                cwd=self.folder,
            )
        if self._watchdog is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._watchdog.pid, signal.SIGKILL)
            self._watchdog.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


SKIP_REASON = (
    "PostgreSQL tests skipped: no server binaries (initdb, pg_ctl) in $PG_BINDIR, "
    "/usr/lib/postgresql/*/bin or the PATH; install the distribution's postgresql package "
    "to run them (CI=true makes this a failure)"
)


def require_binaries() -> Path:
    """The binaries' folder, or skip (fail under CI=true)."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but the PostgreSQL server binaries are missing", pytrace=False)
        pytest.skip(SKIP_REASON)
    return bindir


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole test session."""
    bindir = require_binaries()
    server = PgServer.start(bindir=bindir)
    try:
        yield server
    finally:
        server.stop()
