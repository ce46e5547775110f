"""Private MariaDB servers for the tests: :class:`mvdd.replicate.sandbox.Sandbox` (its own data
directory in a temp dir, a unix socket, no TCP port), started once per test session and stopped
at its end, plus the helpers tests share.

Locally a machine without ``mariadbd`` skips the tests that need it, saying why; under CI
(``CI=true``) a missing server is a failure.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pymysql

from mvdd.model import Table
from mvdd.replicate.sandbox import Sandbox as MariaDB
from mvdd.replicate.sandbox import SandboxUnavailable as MariaDBUnavailable
from mvdd.store.address import LOCAL_SOCKET

__all__ = [
    "MariaDB",
    "MariaDBUnavailable",
    "account",
    "quote",
    "scratch",
    "show_create_table",
    "sibling",
    "visibility",
]


@contextlib.contextmanager
def scratch(server: MariaDB, *statements: str) -> Iterator[pymysql.connections.Connection]:
    """A connection to a fresh database on ``server``, once ``statements`` ran there; the
    connection is closed and the database dropped afterwards."""
    with server.database() as name, contextlib.closing(server.connect(name)) as conn:
        with conn.cursor() as cur:
            for sql in statements:
                cur.execute(sql)
        yield conn


@contextlib.contextmanager
def account(server: MariaDB, user: str, privileges: str) -> Iterator[str]:
    """The address of a new account ``user`` (password ``pw``) holding ``privileges`` on
    ``*.*`` (``"SELECT, REPLICATION SLAVE"``); the account is dropped afterwards."""
    server.execute(
        f"CREATE USER IF NOT EXISTS '{user}'@'localhost' IDENTIFIED BY 'pw'",
        f"GRANT {privileges} ON *.* TO '{user}'@'localhost'",
    )
    try:
        yield server.url(user=user, password="pw")
    finally:
        server.execute(f"DROP USER '{user}'@'localhost'")


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def visibility(table: Table) -> dict[str, bool]:
    """Which indexes the optimizer may use, by name (equivalence leaves it out: DML does not
    see it), to compare apart."""
    return {i.name.casefold(): i.visible for i in table.indexes}


def sibling(conn: pymysql.connections.Connection, **options: Any) -> Any:
    """A new autocommit connection as root to the server and database of ``conn`` (a unix
    socket one), with ``options`` besides."""
    with conn.cursor() as cur:
        cur.execute("SELECT DATABASE()")
        (database,) = cur.fetchone()
    settings: dict[str, Any] = {
        "unix_socket": conn.unix_socket,
        "user": "root",
        "database": database,
        "charset": "utf8mb4",
        "autocommit": True,
        **LOCAL_SOCKET,
    }
    return pymysql.connect(**{**settings, **options})


def show_create_table(conn: pymysql.connections.Connection, table: str) -> str:
    """SHOW CREATE TABLE's text. Binary defaults appear there as raw bytes, so the result is
    read as bytes and decoded with surrogateescape (mvdd encodes such text back to the bytes)."""
    raw = sibling(conn, use_unicode=False)
    try:
        with raw.cursor() as cur:
            cur.execute("SHOW CREATE TABLE " + quote(table))
            return cur.fetchone()[1].decode("utf-8", "surrogateescape")
    finally:
        raw.close()
