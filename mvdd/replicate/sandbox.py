"""Private MariaDB servers: a data directory in a temp dir, a unix socket, no TCP port.

The demo (``mvdd demo``), the tests and the benchmarks run the replicator against real servers
they start themselves. :class:`Sandbox` is one such server; with ``binlog=True`` it logs in ROW
format with FULL row images, as a replication source must (``mysql-bin.000001`` …).

>>> server = Sandbox(binlog=True)   # doctest: +SKIP
>>> server.start().url("shop")      # doctest: +SKIP
'mysql://root@localhost/shop?unix_socket=/tmp/mvdd-mariadb-…/mysqld.sock'
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
import urllib.parse
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from mvdd.errors import MvddError
from mvdd.store.address import LOCAL_SOCKET

SEARCH = ("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin", "/usr/libexec")


def find(program: str) -> str | None:
    """The path of a program on PATH or in the usual server folders."""
    found = shutil.which(program)
    if found:
        return found
    for folder in SEARCH:
        candidate = Path(folder) / program
        if candidate.exists():
            return str(candidate)
    return None


class SandboxUnavailable(MvddError, RuntimeError):
    """No MariaDB server can be started here (not installed, or it failed to start)."""


class Sandbox:
    """One private MariaDB server. ``connect()`` gives autocommit PyMySQL connections as root.

    Args:
        binlog: log binary logs (ROW format, FULL row images) as a replication source.
        server_id: the server's id (each server of a replication set needs its own).
        options: more ``--name=value`` server options (``{"binlog-row-metadata": "FULL"}``).
        base: the folder to keep the server in (default: a new temp dir, removed on stop).
    """

    def __init__(
        self,
        *,
        binlog: bool = False,
        server_id: int = 1,
        options: Mapping[str, Any] | None = None,
        base: str | Path | None = None,
    ) -> None:
        self._own_base = base is None
        self.base = (
            Path(base) if base is not None else Path(tempfile.mkdtemp(prefix="mvdd-mariadb-"))
        )
        self.base.mkdir(parents=True, exist_ok=True)
        self.socket = str(self.base / "mysqld.sock")
        self.binlog = binlog
        self.server_id = server_id
        self.options = dict(options or {})
        self.process: subprocess.Popen[bytes] | None = None

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> Sandbox:
        """Start the server (installing its data directory the first time); a running one is
        left as it is (``with sandbox.start():`` starts it once: a second server on the same
        data would have been left running when the first stopped)."""
        if self.process is not None and self.process.poll() is None:
            return self
        server, install = find("mariadbd") or find("mysqld"), find("mariadb-install-db")
        if not server or not install:
            raise SandboxUnavailable(
                "mariadbd / mariadb-install-db not found: install the Debian package "
                "mariadb-server (make test and make demo do so when run as root)"
            )
        self.base.mkdir(parents=True, exist_ok=True)  # (again after a stop removed it)
        data = self.base / "data"
        if not data.exists():
            self._install(install, data)
        self._launch(server, data, timeout)
        return self

    def _install(self, install: str, data: Path) -> None:
        log = self.base / "install.log"
        with open(log, "wb") as out:
            done = subprocess.run(
                [
                    install,
                    "--no-defaults",
                    f"--datadir={data}",
                    f"--tmpdir={self.tmpdir()}",
                    f"--user={getpass.getuser()}",
                    "--auth-root-authentication-method=normal",
                    "--skip-test-db",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                check=False,
            )
        if done.returncode != 0:
            failure = log.read_text(errors="replace")[-2000:]
            # half a data directory would be taken for a whole one by the next start()
            shutil.rmtree(data, ignore_errors=True)
            if self._own_base:
                shutil.rmtree(self.base, ignore_errors=True)
            raise SandboxUnavailable(f"mariadb-install-db failed: {failure}")

    def tmpdir(self) -> Path:
        """The server's own directory for temporary files. Not the shared ``/tmp``: a starting
        server deletes every ``#sql*`` file in its tmpdir as left over from a crash, the
        temporary tables of another server's bootstrap included."""
        path = self.base / "tmp"
        path.mkdir(exist_ok=True)
        return path

    def arguments(self, server: str, data: Path) -> list[str]:
        """The server's command line."""
        args = [
            server,
            "--no-defaults",
            f"--datadir={data}",
            f"--tmpdir={self.tmpdir()}",
            f"--socket={self.socket}",
            "--skip-networking",
            f"--pid-file={self.base / 'mysqld.pid'}",
            f"--log-error={self.base / 'error.log'}",
            "--innodb-buffer-pool-size=64M",
            "--innodb-log-file-size=16M",
            "--character-set-server=utf8mb4",
            "--collation-server=utf8mb4_general_ci",
            "--max-connections=200",
            f"--server-id={self.server_id}",
        ]
        if self.binlog:
            args += [
                f"--log-bin={self.base / 'binlog' / 'mysql-bin'}",
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
            ]
        else:
            args.append("--skip-log-bin")
        args += [f"--{key}={value}" for key, value in self.options.items()]
        if os.geteuid() == 0:
            args.append("--user=root")
        return args

    def _launch(self, server: str, data: Path, timeout: float) -> None:
        import pymysql

        (self.base / "binlog").mkdir(exist_ok=True)
        self.process = subprocess.Popen(
            self.arguments(server, data),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SandboxUnavailable(f"mariadbd exited: {self.error_log()[-2000:]}")
            try:
                self.connect().close()
                return
            except pymysql.err.OperationalError:
                time.sleep(0.1)
        self.stop()
        raise SandboxUnavailable(f"mariadbd did not accept connections in {timeout}s")

    def error_log(self) -> str:
        path = self.base / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

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

    def restart(self, *, crash: bool = False, timeout: float = 60.0) -> Sandbox:
        self.halt(crash=crash)
        return self.start(timeout)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self.halt()
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- using it -------------------------------------------------------------------------------

    def connect(self, database: str | None = None, **options: Any) -> Any:
        """An autocommit PyMySQL connection as root."""
        import pymysql

        settings: dict[str, Any] = {
            "unix_socket": self.socket,
            "user": "root",
            "database": database,
            "charset": "utf8mb4",
            "autocommit": True,
            **LOCAL_SOCKET,
        }
        settings.update(options)
        return pymysql.connect(**settings)

    def url(self, database: str = "", *, user: str = "root", password: str | None = None) -> str:
        """``mysql://user[:password]@localhost/database?unix_socket=…`` for this server."""
        who = urllib.parse.quote(user, safe="")
        if password is not None:
            who += ":" + urllib.parse.quote(password, safe="")
        query = urllib.parse.urlencode({"unix_socket": self.socket})
        return f"mysql://{who}@localhost/{urllib.parse.quote(database, safe='')}?{query}"

    def execute(self, *statements: str, database: str | None = None) -> None:
        """Run statements on an autocommit connection."""
        with contextlib.closing(self.connect(database)) as conn, conn.cursor() as cur:
            for sql in statements:
                cur.execute(sql)

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        """A fresh, empty database, dropped afterwards."""
        name = "t_" + uuid.uuid4().hex[:12]
        self.execute(f"CREATE DATABASE `{name}`")
        try:
            yield name
        finally:
            self.execute(f"DROP DATABASE IF EXISTS `{name}`")
