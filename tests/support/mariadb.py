"""Private MariaDB servers for the tests: :class:`mvdd.replicate.sandbox.Sandbox` (its own data
directory in a temp dir, a unix socket, no TCP port), started once per test session and stopped
at its end, plus the helpers tests share.

Locally a machine without ``mariadbd`` skips the tests that need it, saying why; under CI
(``CI=true``) a missing server is a failure.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import attrs
import pymysql

from mvdd import DDLError, parse_table
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


#: a key's line in SHOW CREATE TABLE: its words and name, and its parts
_KEY_LINE = re.compile(
    r"^(\s*(?:PRIMARY |UNIQUE |FULLTEXT |SPATIAL )?KEY (?:`(?:[^`]|``)*` )?\()(.*)(\)[^()]*)$",
    re.MULTILINE,
)
#: a key's part: a quoted name, its prefix length and direction
_KEY_PART = r"`(?:[^`]|``)*`(?:\(\d+\))?(?: DESC)?"
#: a key's parts, some of them printed as nothing
_KEY_PARTS = re.compile(rf"(?:{_KEY_PART})?(?:,(?:{_KEY_PART})?)*")


def _hidden_parts_left_out(text: str) -> str:
    """SHOW CREATE TABLE's text without the empty parts MariaDB 10.11 prints in a key for the
    hidden ROW END that took the place of a period's column dropped under
    ``system_versioning_alter_history=KEEP`` (``KEY `e` (,`x`)``): a hidden part, which the
    server leaves out of the keys of a table versioned without period columns."""

    def parts(found: re.Match[str]) -> str:
        if not _KEY_PARTS.fullmatch(found.group(2)):
            return found.group()  # (parts of another form: as printed)
        return found.group(1) + ",".join(re.findall(_KEY_PART, found.group(2))) + found.group(3)

    return _KEY_LINE.sub(parts, text) if "(," in text or ",," in text or ",)" in text else text


def shown_alike(
    conn: pymysql.connections.Connection, name: str, ours: Table, *, replica: bool = True
) -> tuple[Table, Table]:
    """``ours`` and the server's table ``name`` (its SHOW CREATE TABLE's), to compare. Where
    the server shows an ENUM's or a SET's members alike (a ``CONVERT TO`` keeps them so, and
    no CREATE takes such a text: 1291), each of those columns' members, in both, has each
    member after the first of its folded text marked apart (``'?','?'`` is ``'?','?#2'``), in
    the server's text too, so that both read and the members still compare one by one."""
    text = show_create_table(conn, name)
    try:
        return ours, parse_table(text, replica=replica)
    except DDLError as err:
        if "duplicate members" not in str(err):
            raise
    with conn.cursor() as cur:
        cur.execute(
            "SELECT column_name, column_type FROM information_schema.columns WHERE "
            "table_schema = DATABASE() AND table_name = %s AND data_type IN ('enum', 'set')",
            (name,),
        )
        shown = {str(column): str(ctype) for column, ctype in cur.fetchall()}
    columns = []
    for col in ours.columns:
        if col.name in shown:
            col = attrs.evolve(col, type=attrs.evolve(col.type, members=_apart(col.type.members)))
        columns.append(col)
    for column, ctype in shown.items():
        members = [m.replace("''", "'") for m in _SHOWN_MEMBER.findall(ctype)]
        listed = ",".join("'" + m.replace("'", "''") + "'" for m in _apart(tuple(members)))
        text = text.replace(
            f"{quote(column)} {ctype}", f"{quote(column)} {ctype.split('(', 1)[0]}({listed})"
        )
    return ours.with_columns(tuple(columns)), parse_table(text, replica=replica)


#: a member of a type as information_schema shows it (``enum('a','b''c')``)
_SHOWN_MEMBER = re.compile(r"'((?:[^']|'')*)'")


def _apart(members: tuple[str, ...]) -> tuple[str, ...]:
    """Members with each after the first of its case-folded text marked apart (``#2`` …)."""
    seen: dict[str, int] = {}
    out = []
    for m in members:
        count = seen[m.casefold()] = seen.get(m.casefold(), 0) + 1
        out.append(m if count == 1 else f"{m}#{count}")
    return tuple(out)


def show_create_table(conn: pymysql.connections.Connection, table: str) -> str:
    """SHOW CREATE TABLE's text. Binary defaults appear there as raw bytes, so the result is
    read as bytes and decoded with surrogateescape (mvdd encodes such text back to the bytes).
    A key's part the server prints as nothing is left out (:func:`_hidden_parts_left_out`)."""
    raw = sibling(conn, use_unicode=False)
    try:
        with raw.cursor() as cur:
            cur.execute("SHOW CREATE TABLE " + quote(table))
            text: str = cur.fetchone()[1].decode("utf-8", "surrogateescape")
            return _hidden_parts_left_out(text)
    finally:
        raw.close()
