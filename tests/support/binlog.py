"""A script of SQL run on a real server, with the events a binlog reader must decode from it.

The server is the oracle: after every row change the script reads the row back with ``SELECT``
(every column, invisible ones included) and turns the driver's values into the values the
reader promises (SET as a set, BIT as an int, binary strings as bytes …), so an expected event
holds what the server stored, not what the script meant to write.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from tests.support.mariadb import MariaDB, quote

Expected = tuple[str, str, int, Any, Any]  # kind, table, version, row, before


def _value(data_type: str, value: Any) -> Any:
    if value is None:
        return None
    if data_type == "set":
        return set(value.split(",")) if value else set()
    if data_type == "bit":
        return int.from_bytes(value, "big")
    if data_type in ("binary", "varbinary", "blob", "tinyblob", "mediumblob", "longblob"):
        return bytes(value)
    return value


class Script:
    """Runs statements on ``database`` and records the events they must produce."""

    def __init__(self, server: MariaDB, database: str) -> None:
        self.server = server
        self.database = database
        self.conn = server.connect(database)
        with self.conn.cursor() as cur:
            cur.execute("SET time_zone = '+00:00'")
        self.expected: list[Expected] = []
        self.versions: dict[str, int] = {}
        self._in_txn = False

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Script:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def name(self, table: str) -> str:
        return table if "." in table else f"{self.database}.{table}"

    def sql(self, *statements: str) -> None:
        with self.conn.cursor() as cur:
            for statement in statements:
                cur.execute(statement)

    def ddl(self, statement: str, *tables: str, new: tuple[str, ...] = ()) -> None:
        """A DDL; ``tables`` each gain a version (in the order of the reader's events);
        ``new`` are created by it (version 1 of a new table)."""
        self.sql(statement)
        for table in tables:
            name = self.name(table)
            self.versions[name] = 1 if table in new else self.versions.get(name, 0) + 1
            self.expected.append(("ddl", name, self.versions[name], None, None))

    def renamed(self, old: str, new: str) -> None:
        """Carry a table's version count over a rename (before :meth:`ddl` of it)."""
        self.versions[self.name(new)] = self.versions.pop(self.name(old))

    def row(self, table: str, key: int) -> dict[str, Any] | None:
        name = self.name(table)
        database, bare = name.split(".", 1)
        with self.conn.cursor() as cur:
            cur.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                (database, bare),
            )
            columns = cur.fetchall()
            cur.execute(
                "SELECT "
                + ", ".join(quote(c) for c, _ in columns)
                + f" FROM {quote(database)}.{quote(bare)} WHERE id = %s",
                (key,),
            )
            found = cur.fetchone()
        if found is None:
            return None
        return {c: _value(t, v) for (c, t), v in zip(columns, found, strict=True)}

    def insert(self, table: str, statement: str, *keys: int) -> None:
        self.sql(statement)
        name = self.name(table)
        for key in keys:
            self.expected.append(("insert", name, self.versions[name], self.row(table, key), None))

    def update(self, table: str, statement: str, *keys: int) -> None:
        before = {k: self.row(table, k) for k in keys}
        self.sql(statement)
        name = self.name(table)
        for key in keys:
            after = self.row(table, key)
            self.expected.append(("update", name, self.versions[name], after, before[key]))

    def delete(self, table: str, statement: str, *keys: int) -> None:
        before = {k: self.row(table, k) for k in keys}
        self.sql(statement)
        name = self.name(table)
        for key in keys:
            self.expected.append(("delete", name, self.versions[name], before[key], None))


def decoded(events: Any) -> list[Expected]:
    """Events as (kind, table, version, row, before) tuples."""
    return [(str(e.kind), e.table, e.version, e.row, e.before) for e in events]


@contextlib.contextmanager
def database(server: MariaDB, *, charset: str | None = None) -> Iterator[str]:
    """A fresh database (optionally with a default charset), dropped afterwards."""
    name = "bl_" + uuid.uuid4().hex[:10]
    clause = f" CHARACTER SET {charset}" if charset else ""
    server.execute(f"CREATE DATABASE {quote(name)}{clause}")
    try:
        yield name
    finally:
        with contextlib.suppress(pymysql.MySQLError):
            server.execute(f"DROP DATABASE IF EXISTS {quote(name)}")


def promoted(old: MariaDB, new: MariaDB, *, files: int | None = None) -> None:
    """``new`` made what a replica of ``old`` holds once promoted to primary: ``old``'s binlog
    (its first ``files`` files; None: all) replayed on it by ``mariadb-binlog`` and the client,
    each transaction logged again under its own GTID at ``new``'s files and offsets, as a
    replica's ``log_slave_updates`` logs it."""
    binlog, client = shutil.which("mariadb-binlog"), shutil.which("mariadb")
    if binlog is None or client is None:
        pytest.skip("mariadb-binlog and the mariadb client are needed (Debian mariadb-client)")
    with old.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW BINARY LOGS")
        names = [str(r[0]) for r in cur.fetchall()]
    names = names if files is None else names[:files]
    dump = subprocess.run(
        [
            binlog,
            "--no-defaults",
            "--read-from-remote-server",
            f"--socket={old.socket}",
            "-uroot",
            *names,
        ],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(
        [client, "--no-defaults", f"--socket={new.socket}", "-uroot"],
        input=dump,
        capture_output=True,
        check=True,
    )
