"""A private MariaDB server for the tests: its own data directory in a temp dir, a unix socket,
no TCP port, started once per test session and stopped at its end.

Locally a machine without ``mariadbd`` skips the tests that need it, saying why; under CI
(``CI=true``) a missing server is a failure.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pymysql

SEARCH = ("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/usr/libexec")


def find(program: str) -> str | None:
    found = shutil.which(program)
    if found:
        return found
    for folder in SEARCH:
        candidate = Path(folder) / program
        if candidate.exists():
            return str(candidate)
    return None


class MariaDBUnavailable(RuntimeError):
    pass


class MariaDB:
    """One private server. ``connect()`` gives autocommit pymysql connections as root."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="mvdd-mariadb-"))
        self.socket = str(self.base / "mysqld.sock")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> MariaDB:
        server, install = find("mariadbd") or find("mysqld"), find("mariadb-install-db")
        if not server or not install:
            raise MariaDBUnavailable(
                "mariadbd / mariadb-install-db not found: install the Debian package "
                "mariadb-server (make test does so when run as root)"
            )
        data = self.base / "data"
        if not data.exists():
            self._install(install, data)
        self._launch(server, data, timeout)
        return self

    def _install(self, install: str, data: Path) -> None:
        user = getpass.getuser()
        log = self.base / "install.log"
        with open(log, "wb") as out:
            done = subprocess.run(
                [
                    install,
                    "--no-defaults",
                    f"--datadir={data}",
                    f"--user={user}",
                    "--auth-root-authentication-method=normal",
                    "--skip-test-db",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                check=False,
            )
        if done.returncode != 0:
            raise MariaDBUnavailable(f"mariadb-install-db failed: {log.read_text()[-2000:]}")

    def _launch(self, server: str, data: Path, timeout: float) -> None:
        args = [
            server,
            "--no-defaults",
            f"--datadir={data}",
            f"--socket={self.socket}",
            "--skip-networking",
            f"--pid-file={self.base / 'mysqld.pid'}",
            f"--log-error={self.base / 'error.log'}",
            "--innodb-buffer-pool-size=64M",
            "--innodb-log-file-size=16M",
            "--character-set-server=utf8mb4",
            "--collation-server=utf8mb4_general_ci",
            "--max-connections=200",
            "--skip-log-bin",
        ]
        if os.geteuid() == 0:
            args.append("--user=root")
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise MariaDBUnavailable(f"mariadbd exited: {self.error_log()[-2000:]}")
            try:
                self.connect().close()
                return
            except pymysql.err.OperationalError:
                time.sleep(0.1)
        self.stop()
        raise MariaDBUnavailable(f"mariadbd did not accept connections in {timeout}s")

    def error_log(self) -> str:
        path = self.base / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def connect(self, database: str | None = None) -> pymysql.connections.Connection:
        return pymysql.connect(
            unix_socket=self.socket,
            user="root",
            database=database,
            charset="utf8mb4",
            autocommit=True,
        )

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        """A fresh, empty database, dropped afterwards."""
        name = "t_" + uuid.uuid4().hex[:12]
        with contextlib.closing(self.connect()) as conn, conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE `{name}`")
        try:
            yield name
        finally:
            with contextlib.closing(self.connect()) as conn, conn.cursor() as cur:
                cur.execute(f"DROP DATABASE IF EXISTS `{name}`")

    def halt(self, *, crash: bool = False) -> None:
        """Stop the server but keep its data (``crash``: SIGKILL, as a power cut would); a
        later :meth:`start` brings it back (InnoDB recovers what was committed)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL if crash else signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.base, ignore_errors=True)


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def show_create_table(conn: pymysql.connections.Connection, table: str) -> str:
    """SHOW CREATE TABLE's text. Binary defaults appear there as raw bytes, so the result is
    read as bytes and decoded with surrogateescape (mvdd encodes such text back to the bytes)."""
    with conn.cursor() as cur:
        cur.execute("SELECT DATABASE()")
        (database,) = cur.fetchone()
    raw = pymysql.connect(
        unix_socket=conn.unix_socket,
        user="root",
        database=database,
        charset="utf8mb4",
        use_unicode=False,
        autocommit=True,
    )
    try:
        with raw.cursor() as cur:
            cur.execute("SHOW CREATE TABLE " + quote(table))
            return cur.fetchone()[1].decode("utf-8", "surrogateescape")
    finally:
        raw.close()
