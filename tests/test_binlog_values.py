"""Rows of every family of column, their values drawn at random, read back through the binlog
reader and held to the server's own reading of them.

The oracle is the server: each row is written as SQL literals, which the server takes as it
takes them (outside strict mode it fits what it must: a number out of range, a character the
charset lacks, a date no calendar has), and each value the reader decodes from the binary log
must be the value a ``SELECT`` of the row gives (through PyMySQL, read into the reader's
promised types: a BIT's number, a SET's members, a TIMESTAMP in UTC, a FLOAT's exact value).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pymysql
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from mvdd.binlog import BinlogReader
from mvdd.model.encoding import kept_text, python_codec
from mvdd.model.table import as_shown
from tests.support.binlog import database
from tests.support.mariadb import MariaDB, shown_alike
from tests.test_mariadb_server import (
    SEQUENCE_STATEMENTS,
    STRING_CLAUSES,
    STRING_DEFAULTS,
    STRING_TYPES,
)

pytestmark = pytest.mark.mariadb


def _quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def _hex(data: bytes) -> str:
    return f"X'{data.hex()}'"


_INTEGERS = st.one_of(
    st.integers(-(2**64), 2**64).map(str),
    st.sampled_from(["0", "-1", "'12abc'", "1.5", "-0.5", "'1e3'", "TRUE", "NULL"]),
)
_NUMBERS = st.one_of(
    st.decimals(
        allow_nan=False, allow_infinity=False, places=4, min_value=-(10**9), max_value=10**9
    ).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["'3.14abc'", "1e38", "-1e-38", "NULL"]),
)
_DAYS = st.dates(dt.date(1000, 1, 1), dt.date(9999, 12, 31)).map(lambda d: d.isoformat())
_TIMES = st.datetimes(dt.datetime(1000, 1, 1), dt.datetime(9999, 12, 31)).map(
    lambda t: t.isoformat(sep=" ")
)
_ODD_DATES = st.sampled_from(
    ["0000-00-00", "2020-00-15", "2020-02-30", "0000-00-00 00:00:00", "2020-13-01", "20200101"]
)
_DATES = st.one_of(_DAYS, _TIMES, _ODD_DATES).map(_quoted) | st.just("NULL")
_DURATIONS = st.one_of(
    st.integers(-838, 838)
    .flatmap(
        lambda h: st.tuples(
            st.just(h), st.integers(0, 59), st.integers(0, 59), st.integers(0, 999999)
        )
    )
    .map(lambda t: _quoted(f"{t[0]}:{t[1]:02}:{t[2]:02}.{t[3]:06}")),
    st.sampled_from(["'-00:00:01'", "'900:00:00'", "'1 02:03:04'", "101", "NULL"]),
)
#: text drawn from letters of many scripts, beyond the BMP too, and the characters quoting meets
_TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8", exclude_categories=["Cs"]),
        st.sampled_from("aé€ЖЖ中文日本語한국ÆØßΩ😀'\\ \t\n%_"),
    ),
    max_size=12,
)
_STRINGS = _TEXT.map(_quoted) | st.just("NULL")
_BYTES = st.binary(max_size=12).map(_hex) | st.just("NULL")
_MEMBERS = st.sampled_from(["'a'", "'é'", "'b,a'", "''", "'x'", "0", "1", "2", "3", "NULL"])

#: an ENUM of more members than a byte counts, a SET of more than a byte holds
_MANY = [f"m{i}" for i in range(300)]
_MANY_ENUM = "ENUM(" + ", ".join(f"'{m}'" for m in _MANY) + ")"
_WIDE_SET = "SET(" + ", ".join(f"'s{i}'" for i in range(20)) + ")"

#: column types, each with the literals drawn for it
TYPES: dict[str, st.SearchStrategy[str]] = {
    "TINYINT": _INTEGERS,
    "SMALLINT UNSIGNED": _INTEGERS,
    "MEDIUMINT": _INTEGERS,
    "INT UNSIGNED": _INTEGERS,
    "BIGINT": _INTEGERS,
    "BIGINT UNSIGNED": _INTEGERS,
    "DECIMAL(10,3)": _NUMBERS,
    "DECIMAL(40,10) UNSIGNED": _NUMBERS,
    "FLOAT": _NUMBERS,
    "DOUBLE": _NUMBERS,
    "BIT(1)": _INTEGERS,
    "BIT(13)": _INTEGERS,
    "BIT(64)": _INTEGERS,
    "YEAR": _INTEGERS,
    "DATE": _DATES,
    "DATETIME": _DATES,
    "DATETIME(6)": _DATES,
    "TIMESTAMP(3) NULL": _DATES,
    "TIME": _DURATIONS,
    "TIME(4)": _DURATIONS,
    "CHAR(5)": _STRINGS,
    "VARCHAR(7) CHARACTER SET latin1": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp1251": _STRINGS,
    "VARCHAR(7) CHARACTER SET gbk": _STRINGS,
    "VARCHAR(7) CHARACTER SET big5": _STRINGS,
    "VARCHAR(7) CHARACTER SET sjis": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp932": _STRINGS,
    "VARCHAR(7) CHARACTER SET ujis": _STRINGS,
    "VARCHAR(7) CHARACTER SET euckr": _STRINGS,
    "VARCHAR(7) CHARACTER SET gb2312": _STRINGS,
    "VARCHAR(7) CHARACTER SET ucs2": _STRINGS,
    "VARCHAR(7) CHARACTER SET utf16": _STRINGS,
    "VARCHAR(7) CHARACTER SET utf16le": _STRINGS,
    "VARCHAR(7) CHARACTER SET utf32": _STRINGS,
    "VARCHAR(7) CHARACTER SET utf8mb3": _STRINGS,
    "CHAR(3) CHARACTER SET greek": _STRINGS,
    "TEXT CHARACTER SET hebrew": _STRINGS,
    "TINYTEXT CHARACTER SET koi8r": _STRINGS,
    "MEDIUMTEXT": _STRINGS,
    "BINARY(4)": _BYTES,
    "VARBINARY(9)": _BYTES,
    "BLOB": _BYTES,
    "ENUM('a','é','x')": _MEMBERS,
    "SET('a','b','é')": _MEMBERS,
    "TINYINT UNSIGNED": _INTEGERS,
    "DECIMAL(65,30)": _NUMBERS,
    "DECIMAL(5,0)": _NUMBERS,
    "DECIMAL(18,9) UNSIGNED": _NUMBERS,
    "DOUBLE UNSIGNED": _NUMBERS,
    "BIT(8)": _INTEGERS,
    "TIMESTAMP NULL": _DATES,
    "DATETIME(1)": _DATES,
    "DATETIME(3)": _DATES,
    "TIMESTAMP(6) NULL": _DATES,
    "TIME(1)": _DURATIONS,
    "TIME(2)": _DURATIONS,
    "TIME(3)": _DURATIONS,
    "TIME(5)": _DURATIONS,
    "TIME(6)": _DURATIONS,
    "CHAR(20) CHARACTER SET utf8mb4": _STRINGS,
    "CHAR(4) CHARACTER SET ucs2": _STRINGS,
    "CHAR(4) CHARACTER SET utf32": _STRINGS,
    "VARCHAR(300)": _STRINGS,
    "VARCHAR(5) CHARACTER SET binary": _STRINGS,
    "CHAR(4) BINARY": _STRINGS,
    "TEXT CHARACTER SET latin1": _STRINGS,
    "TINYBLOB": _BYTES,
    "LONGBLOB": _BYTES,
    "VARCHAR(7) CHARACTER SET tis620": _STRINGS,
    "VARCHAR(7) CHARACTER SET macroman": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp850": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp852": _STRINGS,
    "VARCHAR(7) CHARACTER SET latin2": _STRINGS,
    "VARCHAR(7) CHARACTER SET latin5": _STRINGS,
    "VARCHAR(7) CHARACTER SET latin7": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp1250": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp1256": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp1257": _STRINGS,
    "VARCHAR(7) CHARACTER SET koi8u": _STRINGS,
    "VARCHAR(7) CHARACTER SET armscii8": _STRINGS,
    "VARCHAR(7) CHARACTER SET geostd8": _STRINGS,
    "VARCHAR(7) CHARACTER SET keybcs2": _STRINGS,
    "VARCHAR(7) CHARACTER SET dec8": _STRINGS,
    "VARCHAR(7) CHARACTER SET hp8": _STRINGS,
    "VARCHAR(7) CHARACTER SET cp866": _STRINGS,
    "VARCHAR(7) CHARACTER SET macce": _STRINGS,
    "VARCHAR(7) CHARACTER SET eucjpms": _STRINGS,
    _MANY_ENUM: st.sampled_from(["'m0'", "'m299'", "'m255'", "256", "'zz'", "NULL"]),
    _WIDE_SET: st.sets(st.integers(0, 19)).map(lambda ix: _quoted(",".join(f"s{i}" for i in ix)))
    | st.sampled_from(["1048575", "0", "NULL"]),
    "INT AS (id * 2) VIRTUAL": st.just("DEFAULT"),
    "VARCHAR(9) AS (CONCAT('é', id)) PERSISTENT": st.just("DEFAULT"),
    "JSON": st.sampled_from(["'[1, \"é\"]'", "'{\"a\": null}'", "'3'", "NULL"]),
    "UUID": st.uuids().map(lambda u: _quoted(str(u))) | st.just("NULL"),
    "INET4": st.ip_addresses(v=4).map(lambda a: _quoted(str(a))) | st.just("NULL"),
    "INET6": st.ip_addresses(v=6).map(lambda a: _quoted(str(a))) | st.just("NULL"),
}

#: an ENUM's and a SET's members of bytes their charset does not read (the server shows each
#: such byte a ``?``: two such members alike), each with the literals drawn for it; the
#: reader's value is the member as the catalog holds it, held to the server's bytes of it
#: (``HEX``). Not in :data:`TYPES`, which the replicator's tests copy: a copy's table is read
#: from its server's SHOW CREATE TABLE, which does not tell such members' bytes
KEPT_TYPES: dict[str, st.SearchStrategy[str]] = {
    "ENUM('a', X'C3A9', X'C39F', X'E9') CHARACTER SET ascii": st.sampled_from(
        ["'a'", "0", "1", "2", "3", "4", "NULL"]
    ),
    "SET('a', X'E9', X'DF') CHARACTER SET ascii": st.integers(0, 7).map(str) | st.just("NULL"),
}
#: an ENUM's and a SET's members one under their collation, which a session that is not strict
#: keeps (the server matches a value's text to the first of them), each with the literals
#: drawn for it; the reader's value held to the server's bytes of it too
ALIKE_TYPES: dict[str, st.SearchStrategy[str]] = {
    "ENUM('a', 'A', 'b') CHARACTER SET ascii": st.sampled_from(
        ["'a'", "'A'", "0", "1", "2", "3", "NULL"]
    ),
    "SET('x', 'X', 'y') CHARACTER SET ascii": st.integers(0, 7).map(str)
    | st.sampled_from(["'X'", "'x,y'", "NULL"]),
}
#: the types whose values are read as their bytes (``HEX``)
_BY_BYTES = KEPT_TYPES | ALIKE_TYPES


def _selected(kind: str, name: str) -> str:
    """The select item that gives the column's value as the reader promises it."""
    if kind == "FLOAT":
        return f"CAST({name} AS DOUBLE)"
    if kind in _BY_BYTES:
        return f"HEX({name})"
    return name


def _promised(kind: str, value: Any) -> Any:
    """A value PyMySQL read, as the reader promises it."""
    if value is None:
        return None
    if kind in _BY_BYTES:  # (the bytes of the member, or of the members joined by commas)
        members = [kept_text(part, "ascii") for part in bytes.fromhex(value).split(b",")]
        return set(members) - {""} if kind.startswith("SET") else members[0]
    if kind.startswith("BIT"):
        return int.from_bytes(value, "big")
    if kind.startswith("SET"):
        return set(value.split(",")) - {""} if isinstance(value, str) else set(value)
    return value


def _rows(data: st.DataObject, names: list[str], columns: list[str], count: int) -> list[list[str]]:
    return [
        [
            data.draw((TYPES | _BY_BYTES)[kind], label=f"{name} {kind}")
            for name, kind in zip(names, columns, strict=True)
        ]
        for _ in range(count)
    ]


@pytest.fixture(params=["binlog_server", "binlog_server_full"])
def logging_server(request: pytest.FixtureRequest) -> MariaDB:
    """A server logging binlogs: with MariaDB's default table-map metadata, and with FULL."""
    return request.getfixturevalue(request.param)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    columns=st.lists(st.sampled_from(sorted(TYPES | _BY_BYTES)), min_size=1, max_size=10),
    data=st.data(),
)
def test_any_row_decodes_as_the_server_reads_it(
    logging_server: MariaDB, columns: list[str], data: st.DataObject
) -> None:
    """One to three rows of one to four columns drawn at random, inserted, then each updated to
    other values: every insert's row, every update's before and after image, is the server's
    reading of the row at that moment."""
    server = logging_server
    names = [f"c{i}" for i in range(len(columns))]
    count = data.draw(st.integers(1, 3), label="rows")
    inserted = _rows(data, names, columns, count)
    updated = _rows(data, names, columns, count)
    items = ", ".join(_selected(k, n) for n, k in zip(names, columns, strict=True))

    def read(cur: Any) -> list[dict[str, Any]]:
        cur.execute(f"SELECT {items} FROM t ORDER BY id")
        return [
            {n: _promised(k, v) for n, k, v in zip(names, columns, got, strict=True)}
            for got in cur.fetchall()
        ]

    with database(server) as db, server.connect(db) as conn, conn.cursor() as cur:
        cur.execute("SET time_zone = '+00:00', sql_mode = ''")
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
        defs = ", ".join(f"{n} {k}" for n, k in zip(names, columns, strict=True))
        cur.execute(f"CREATE TABLE t (id INT PRIMARY KEY, {defs})")
        for i, row in enumerate(inserted):
            cur.execute(f"INSERT INTO t VALUES ({i}, {', '.join(row)})")
        conn.commit()
        first = read(cur)
        moved = []  # (the rows an update changed, as the server counts them: those it logs)
        for i, row in enumerate(updated):
            changes = ", ".join(f"{n} = {v}" for n, v in zip(names, row, strict=True))
            if cur.execute(f"UPDATE t SET {changes} WHERE id = {i}"):
                moved.append(i)
        conn.commit()
        then = read(cur)
    with BinlogReader(server.url(), tables=f"{db}.t", start=f"{file}:{offset}") as reader:
        events = [ev for ev in reader.events() if ev.kind != "ddl"]

    def own(row: dict[str, Any] | None) -> dict[str, Any]:
        assert row is not None
        return {n: row[n] for n in names}

    assert [own(ev.row) for ev in events if ev.kind == "insert"] == first, (columns, inserted)
    changed = [ev for ev in events if ev.kind == "update"]
    assert [own(ev.before) for ev in changed] == [first[i] for i in moved], (columns, updated)
    assert [own(ev.row) for ev in changed] == [then[i] for i in moved], (columns, updated)


#: the settings of a session that writes DDL: its client's charset, its time zone, its sql_mode
#: (none that changes what a statement of the strategy means)
_SESSIONS = st.tuples(
    st.sampled_from(["utf8mb4", "latin1", "gbk", "cp1251", "utf8mb3"]),
    st.sampled_from(["+00:00", "+08:00", "-05:30", "SYSTEM"]),
    st.sampled_from(
        [
            None,
            "",
            "STRICT_TRANS_TABLES",
            "ALLOW_INVALID_DATES",
            "STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE",
            "TIME_ROUND_FRACTIONAL",
            "PIPES_AS_CONCAT",
            "REAL_AS_FLOAT",
            "HIGH_NOT_PRECEDENCE",
            "NO_BACKSLASH_ESCAPES",
            "IGNORE_SPACE",
        ]
    ),
)


#: a table of a string column with a DEFAULT, then ALTERs converting it, redefining the column
#: in another charset, setting its DEFAULT or adding another (non-ASCII text in each)
_STRING_STATEMENTS = st.tuples(
    st.builds("CREATE TABLE t1 (c0 {} DEFAULT '{}', k INT)".format, STRING_TYPES, STRING_DEFAULTS),
    st.lists(
        st.lists(STRING_CLAUSES, min_size=1, max_size=3).map(
            lambda clauses: "ALTER TABLE t1 " + ", ".join(clauses)
        ),
        max_size=3,
    ),
).map(lambda made: [made[0], *made[1]])


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    statements=st.lists(SEQUENCE_STATEMENTS, min_size=1, max_size=7) | _STRING_STATEMENTS,
    session=_SESSIONS,
)
@example(  # (ascii keeps the members' bytes, which latin1 reads: '??' twice, then 'Ã©')
    statements=[
        "CREATE TABLE t1 (c0 ENUM('a','é','😀') CHARACTER SET utf8mb4 DEFAULT 'a', k INT)",
        "ALTER TABLE t1 CONVERT TO CHARACTER SET ascii",
        "ALTER TABLE t1 CONVERT TO CHARACTER SET latin1",
    ],
    session=("utf8mb4", "SYSTEM", None),
)
@example(  # (a column the CONVERT TO defines, converted as text: '?' twice, which MariaDB keeps)
    statements=[
        "CREATE TABLE t1 (c0 CHAR(2) DEFAULT '', k INT)",
        "ALTER TABLE t1 CONVERT TO CHARACTER SET ascii, MODIFY c0 ENUM('a','é','😀') "
        "CHARACTER SET utf8mb4",
    ],
    session=("utf8mb4", "+00:00", ""),
)
def test_any_ddl_through_the_binlog_reads_as_the_server_holds_it(
    logging_server: MariaDB, statements: list[str], session: tuple[str, str, str | None]
) -> None:
    """One to seven statements over three tables drawn at random (creates, drops, renames,
    index statements, everyday ALTERs), or a table of a string column and ALTERs of its
    charsets and DEFAULTs, run on the server from a session of a charset, a time zone and a
    sql_mode drawn at random, and read from its binlog: the reader's catalog holds the tables
    the server holds, each as the server shows it."""
    # (not modelled: a CONVERT TO ucs2, whose reading of an ENUM's or a SET's one-byte members
    # may make them one, '?' and '?', which MariaDB keeps and mvdd refuses)
    assume(
        not any(m in sql for sql in statements for m in ("ENUM(", "SET("))
        or not any(f"CONVERT TO CHARACTER SET {w}" in sql for sql in statements for w in _WIDE)
    )
    # (not modelled by the oracle, the server's SHOW CREATE TABLE: a utf8mb3 client's ENUM or
    # SET member beyond the BMP, which the server shows as '????', with a DEFAULT of it in
    # that statement, which it shows as the character: that text reads as no table, where the
    # reader's catalog holds both as '????', as the server's information_schema and its rows
    # show them, and as CLIENT_BYTES checks)
    assume(
        session[0] != "utf8mb3"
        or not any(
            ("ENUM(" in sql or "SET(" in sql) and _BEYOND_BMP_DEFAULT.search(sql)
            for sql in statements
        )
    )
    _read_as_held(logging_server, statements, *session)


#: a DEFAULT whose literal holds a character beyond the Basic Multilingual Plane
_BEYOND_BMP_DEFAULT = re.compile("DEFAULT '[^']*[\U00010000-\U0010ffff]")


#: the charset of two bytes a character whose members mvdd reads as text
_WIDE = ("ucs2",)


#: (the client's charset, statements): a string literal from a session of another charset than
#: UTF-8 is its bytes in it, which a binary column's DEFAULT keeps; a utf8mb3 client's character
#: beyond the BMP is a ? for each of its bytes
CLIENT_BYTES = [
    ("utf8mb3", ["CREATE TABLE t1 (c0 ENUM('a','é','😀') CHARACTER SET utf8mb4, k INT)"]),
    (
        "utf8mb3",
        [
            "CREATE TABLE t1 (c0 CHAR(2), k INT)",
            "ALTER TABLE t1 CONVERT TO CHARACTER SET ascii, MODIFY c0 ENUM('a','é','😀') "
            "CHARACTER SET utf8mb4",
        ],
    ),
    ("latin1", ["CREATE TABLE t1 (b BINARY(3) DEFAULT 'é', v VARBINARY(4) DEFAULT 'éa', k INT)"]),
    (
        "cp1251",
        ["CREATE TABLE t1 (v VARBINARY(4), k INT)", "ALTER TABLE t1 ALTER v SET DEFAULT 'Жж'"],
    ),
    (
        "gbk",
        [
            "CREATE TABLE t1 (v VARBINARY(4) DEFAULT '中', k INT)",
            "ALTER TABLE t1 ADD b BINARY(2) DEFAULT '文'",
        ],
    ),
    ("latin1", ["CREATE TABLE t1 (c CHAR(3) CHARACTER SET binary DEFAULT 'é', k INT)"]),
]


@pytest.mark.parametrize("charset,statements", CLIENT_BYTES)
def test_a_literal_is_its_clients_bytes(
    binlog_server: MariaDB, charset: str, statements: list[str]
) -> None:
    _read_as_held(binlog_server, statements, charset, "SYSTEM", None)


def _read_as_held(
    server: MariaDB, statements: list[str], charset: str, zone: str, mode: str | None
) -> None:
    """``statements`` run in turn on a fresh database from a session of ``charset``, ``zone``
    and ``mode`` (a statement the server refuses, or one the charset cannot write, passed
    over), then read from the binlog: the reader holds the server's tables."""
    session = (charset, zone, mode)
    with database(server) as db:
        conn = server.connect(db, charset=charset)
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW MASTER STATUS")
                file, offset = cur.fetchone()[:2]
                cur.execute(f"SET time_zone = '{zone}'")
                if mode is not None:
                    cur.execute(f"SET sql_mode = '{mode}'")
                for sql in statements:
                    try:
                        sql.encode(python_codec(charset) or charset)
                        cur.execute(sql)
                    except (pymysql.MySQLError, UnicodeEncodeError):
                        continue  # (refused, or not written in this charset: not logged)
            conn.commit()
        finally:
            conn.close()
        with BinlogReader(server.url(), tables=f"{db}.*", start=f"{file}:{offset}") as reader:
            for _ in reader.events():
                pass
            with server.connect(db) as check:
                with check.cursor() as cur:
                    cur.execute("SHOW TABLES")
                    shown = sorted(row[0] for row in cur.fetchall())
                assert sorted(t.partition(".")[2] for t in reader.catalog.tables()) == shown
                alike = {
                    name: shown_alike(check, name, as_shown(reader.table(f"{db}.{name}")))
                    for name in shown
                }
            for name in shown:
                ours, theirs = alike[name]
                assert ours.equivalent(theirs, ignore_order=False), (
                    statements,
                    session,
                    ours.differences(theirs, ignore_order=False),
                )
                assert (ours.options.charset, ours.options.collation) == (
                    theirs.options.charset,
                    theirs.options.collation,
                ), (statements, session)


def test_a_failed_create_or_replace_drops_the_table_it_replaced(binlog_server: MariaDB) -> None:
    """MariaDB logs a ``CREATE OR REPLACE TABLE`` that failed once it had dropped the table it
    replaces with the error it met (a replica expects the same error), and a ``DROP TABLE`` of
    a table it had and one it had not as it ran (the first dropped): the reader drops what the
    server dropped, and decodes the rows of the tables made after."""
    server = binlog_server
    with database(server) as db, server.connect(db) as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
        cur.execute("CREATE TABLE t (a INT PRIMARY KEY, b INT)")
        cur.execute("CREATE TABLE u (a INT PRIMARY KEY)")
        cur.execute("INSERT INTO t VALUES (1, 2)")
        for refused in ("CREATE OR REPLACE TABLE t (a INT, a INT)", "DROP TABLE u, gone"):
            with pytest.raises(pymysql.MySQLError):
                cur.execute(refused)
        cur.execute("CREATE TABLE t (c VARCHAR(3) PRIMARY KEY)")
        cur.execute("CREATE TABLE u (d INT PRIMARY KEY)")
        cur.execute("INSERT INTO t VALUES ('x')")
        cur.execute("INSERT INTO u VALUES (7)")
        with BinlogReader(server.url(), tables=f"{db}.*", start=f"{file}:{offset}") as reader:
            rows = [(ev.table, ev.version, ev.row) for ev in reader.events() if ev.kind != "ddl"]
            assert sorted(reader.catalog.tables()) == [f"{db}.t", f"{db}.u"]
            assert reader.table(f"{db}.t").column_names == ("c",)
            assert reader.table(f"{db}.u").column_names == ("d",)
    assert rows == [
        (f"{db}.t", 1, {"a": 1, "b": 2}),
        (f"{db}.t", 1, {"c": "x"}),
        (f"{db}.u", 1, {"d": 7}),
    ]
