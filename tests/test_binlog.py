"""The binlog reader on real MariaDB servers: every row decoded with the schema at its position.

The servers log with MariaDB's default ``binlog_row_metadata`` (NO_LOG: table maps carry types
only) and with FULL; the oracle is the server's own rows, read back after each change.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import logging
import random
import shutil
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pymysql
import pytest

from mvdd import (
    Catalog,
    DDLParseError,
    SchemaDriftError,
    SchemaUnknownError,
    SourceConfigError,
    SourceLost,
    Table,
    UnsupportedDDLError,
    parse_table,
)
from mvdd.binlog import BinlogPosition, BinlogReader
from mvdd.binlog.reader import UNTRACKED
from mvdd.binlog.source import Outage, Source
from mvdd.ddl.sqlmode import COMPOSITES, MARIADB_BITS, SqlMode
from mvdd.ddl.statement import SHOWN
from mvdd.ddl.step import TruncateTable
from mvdd.model.encoding import BEYOND_BMP, bytes_in, python_codec, without_kept
from mvdd.model.row import upgrade_row
from mvdd.model.table import as_shown
from mvdd.replicate.target import TargetLost
from tests.conftest import private_server
from tests.support.binlog import Script, database, decoded, promoted
from tests.support.mariadb import MariaDB, account, quote, show_create_table, visibility

pytestmark = pytest.mark.mariadb

SERVERS = ["binlog_server", "binlog_server_full"]


@pytest.fixture(params=SERVERS)
def server(request: pytest.FixtureRequest) -> MariaDB:
    return request.getfixturevalue(request.param)


def reader_for(server: MariaDB, pattern: str | list[str], **options: Any) -> BinlogReader:
    reader = BinlogReader(server.url(), tables=pattern, **options)
    reader.check()  # bootstraps the empty catalog: reading starts here
    return reader


def every_ddl_kind(script: Script) -> None:
    """The statements of the decoding test: each kind of DDL with rows before and after it."""
    s = script
    s.ddl("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), b INT)", "t", new=("t",))
    s.insert("t", "INSERT INTO t VALUES (1, 'one', 10)", 1)
    s.ddl("ALTER TABLE t ADD COLUMN c VARCHAR(5) DEFAULT 'x' AFTER id", "t")
    s.insert("t", "INSERT INTO t (id, a, b) VALUES (2, 'two', 20)", 2)
    s.ddl("ALTER TABLE t ADD COLUMN f INT DEFAULT 7 FIRST", "t")
    s.insert("t", "INSERT INTO t (id, c, a, b) VALUES (3, 'cc', 'three', 30)", 3)
    s.ddl("ALTER TABLE t DROP COLUMN b", "t")
    s.update("t", "UPDATE t SET a = 'uno' WHERE id = 1", 1)
    s.ddl("ALTER TABLE t CHANGE a a2 VARCHAR(20)", "t")
    s.insert("t", "INSERT INTO t (id, a2) VALUES (4, 'a fairly long one')", 4)
    s.ddl("ALTER TABLE t MODIFY c VARCHAR(40) NOT NULL DEFAULT 'y'", "t")
    s.ddl("ALTER TABLE t RENAME COLUMN a2 TO a3", "t")
    s.insert("t", "INSERT INTO t (id, a3) VALUES (5, 'renamed')", 5)
    # widening, then two names swapped through a third: the table map is the same before and
    # after the swap, only the catalog knows which column is which
    s.ddl("ALTER TABLE t MODIFY f BIGINT DEFAULT 7", "t")
    s.ddl("ALTER TABLE t ADD COLUMN p VARCHAR(10), ADD COLUMN q VARCHAR(10)", "t")
    s.insert("t", "INSERT INTO t (id, p, q) VALUES (6, 'P', 'Q')", 6)
    s.ddl("ALTER TABLE t RENAME COLUMN p TO tmp", "t")
    s.ddl("ALTER TABLE t RENAME COLUMN q TO p", "t")
    s.ddl("ALTER TABLE t RENAME COLUMN tmp TO q", "t")
    s.insert("t", "INSERT INTO t (id, p, q) VALUES (7, 'P', 'Q')", 7)
    s.update("t", "UPDATE t SET p = 'PP' WHERE id = 6", 6)
    s.delete("t", "DELETE FROM t WHERE id = 2", 2)
    # ENUM and SET extended; empty SET; UNSIGNED BIGINT max and other integer edges
    s.ddl(
        "CREATE TABLE u (id INT PRIMARY KEY, e ENUM('a','b'), st SET('x','y'), "
        "big BIGINT UNSIGNED, tiny TINYINT UNSIGNED, small SMALLINT, med MEDIUMINT UNSIGNED)",
        "u",
        new=("u",),
    )
    s.insert(
        "u",
        "INSERT INTO u VALUES (1, 'b', 'x,y', 18446744073709551615, 255, -32768, 16777215)",
        1,
    )
    s.ddl("ALTER TABLE u MODIFY e ENUM('a','b','c'), MODIFY st SET('x','y','z')", "u")
    s.insert("u", "INSERT INTO u (id, e, st) VALUES (2, 'c', 'z,x'), (3, NULL, '')", 2, 3)
    # latin1 and utf8mb4 text, binary strings (empty and padded), and the other types
    s.ddl(
        "CREATE TABLE w (id INT PRIMARY KEY, l VARCHAR(10) CHARACTER SET latin1, "
        "m TEXT CHARACTER SET utf8mb4, ch CHAR(4), vb VARBINARY(8), bn BINARY(4), bt BIT(4), "
        "bl BLOB, y YEAR, d DATE, dt6 DATETIME(6), tm TIME(3), ts TIMESTAMP(2) NULL, "
        "dc DECIMAL(10,3), fl FLOAT, db DOUBLE, js JSON)",
        "w",
        new=("w",),
    )
    s.insert(
        "w",
        "INSERT INTO w VALUES (1, 'café€', '😀 ü ß', 'ab', '', 'ab', b'1010', x'00ff', 2024, "
        "'2024-02-29', '2024-02-29 23:59:58.123456', '-838:59:59.500', '2020-01-01 10:00:00.25',"
        " -1234567.125, 0.5, -2.25, '{\"k\": [1, 2]}')",
        1,
    )
    s.insert("w", "INSERT INTO w (id, vb, bl, y) VALUES (2, x'00', '', 0)", 2)
    # text of charsets Python's codecs of their names read otherwise than the server, or not
    # at all: euckr's Windows extension, greek's and hebrew's odd bytes, tis620's undefined
    # ones, sjis's backslash, eucjpms's NEC row, big5's extra characters
    s.ddl(
        "CREATE TABLE cs (id INT PRIMARY KEY, kr VARCHAR(4) CHARACTER SET euckr, "
        "el VARCHAR(4) CHARACTER SET greek, he VARCHAR(4) CHARACTER SET hebrew, "
        "th VARCHAR(4) CHARACTER SET tis620, jp VARCHAR(4) CHARACTER SET sjis, "
        "ms VARCHAR(4) CHARACTER SET eucjpms, b5 VARCHAR(4) CHARACTER SET big5)",
        "cs",
        new=("cs",),
    )
    s.insert(
        "cs",
        "INSERT INTO cs VALUES (1, X'8141B0A1', X'A1A2', X'AF', X'A0', X'815F', X'ADA1A1C1', "
        "X'F9D6')",
        1,
    )
    # tables given a row, then a version, then another row: generated, invisible, and a
    # MariaDB long unique (a hidden hash column in the row image); long unique keys a B-tree
    # holds (USING HASH over a short column, a geometry's), whose hidden hash columns go once
    # a statement defines the table anew (an ALTER that acts, an OPTIMIZE InnoDB makes a
    # rebuild: B-tree keys, the geometry's over its first 8 bytes, where a point and a line
    # differ)
    for table, create, change, first, second in (
        (
            "g",
            "CREATE TABLE g (id INT PRIMARY KEY, a INT, v INT AS (a * 2) VIRTUAL, "
            "st INT AS (a + 1) PERSISTENT, h INT INVISIBLE DEFAULT 5, tx TEXT, UNIQUE (tx))",
            "ALTER TABLE g ADD COLUMN z INT FIRST",
            "INSERT INTO g (id, a, tx) VALUES (1, 20, 'long text')",
            "INSERT INTO g (id, a, tx, z, h) VALUES (2, 1, 'other', 9, 6)",
        ),
        (
            "lu",
            "CREATE TABLE lu (id INT PRIMARY KEY, a INT, g GEOMETRY NOT NULL, "
            "UNIQUE (a) USING HASH, UNIQUE (g))",
            "ALTER TABLE lu ADD COLUMN z INT",
            "INSERT INTO lu (id, a, g) VALUES (1, 1, POINT(1, 1))",
            "INSERT INTO lu (id, a, g, z) VALUES (2, 2, LINESTRING(POINT(2, 2), POINT(3, 3)), 3)",
        ),
        (
            "lo",
            "CREATE TABLE lo (id INT PRIMARY KEY, a INT, UNIQUE (a) USING HASH)",
            "OPTIMIZE TABLE lo",
            "INSERT INTO lo VALUES (1, 1)",
            "INSERT INTO lo VALUES (2, 2)",
        ),
    ):
        s.ddl(create, table, new=(table,))
        s.insert(table, first, 1)
        s.ddl(change, table)
        s.insert(table, second, 2)
    # a transaction across tables
    s.sql("BEGIN")
    s.insert("u", "INSERT INTO u (id, e) VALUES (4, 'a')", 4)
    s.update("w", "UPDATE w SET l = 'naïve' WHERE id = 2", 2)
    s.delete("g", "DELETE FROM g WHERE id = 1", 1)
    s.sql("COMMIT")
    # rename, drop and re-create a table
    s.renamed("t", "t2")
    s.ddl("RENAME TABLE t TO t2", "t2")
    s.insert("t2", "INSERT INTO t2 (id, a3) VALUES (8, 'after rename')", 8)
    s.ddl("DROP TABLE t2", "t2")
    s.ddl("CREATE TABLE t2 (id INT PRIMARY KEY, other DATE)", "t2", new=("t2",))
    s.insert("t2", "INSERT INTO t2 VALUES (1, '1999-12-31')", 1)


def test_every_ddl_kind_decodes_with_its_version(server: MariaDB) -> None:
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with Script(server, db) as script:
            every_ddl_kind(script)
        events = list(reader.events())
    assert decoded(events) == script.expected
    # every event of a transaction ends where its transaction does; positions only grow
    for ev in events:
        assert ev.position <= ev.commit
    assert [e.position for e in events] == sorted(e.position for e in events)
    txn = [e for e in events if e.commit == events[-8].commit]
    assert {e.table for e in txn} == {f"{db}.u", f"{db}.w", f"{db}.g"}


def test_values_have_the_promised_types(binlog_server: MariaDB) -> None:
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.w")
        with Script(server, db) as script:
            script.ddl(
                "CREATE TABLE w (id INT PRIMARY KEY, vb VARBINARY(4), bn BINARY(3), bt BIT(9), "
                "st SET('a','b'), y YEAR, js JSON, d DECIMAL(5,2), tm TIME, ts TIMESTAMP NULL)",
                "w",
                new=("w",),
            )
            script.insert(
                "w",
                "INSERT INTO w VALUES (1, '', 'a', b'100000001', '', 0, '[1]', 1.5, '-01:00:00', "
                "'2021-06-01 12:00:00')",
                1,
            )
        (_, ev) = list(reader.events())
    assert ev.row == {
        "id": 1,
        "vb": b"",
        "bn": b"a\x00\x00",
        "bt": 257,
        "st": set(),
        "y": 0,
        "js": "[1]",  # MariaDB's JSON is text
        "d": Decimal("1.50"),
        "tm": -dt.timedelta(hours=1),
        "ts": dt.datetime(2021, 6, 1, 12, 0),  # UTC
    }


@pytest.mark.parametrize(
    "server_name,cache,library_sees",
    [
        # MariaDB's default metadata: the library's name cache reads the *current* schema ...
        ("binlog_server", True, {"id": 1, "c": "one", "a": 10}),
        # ... and without it the library cannot name the columns at all
        ("binlog_server", False, {"UNKNOWN_COL0": 1, "UNKNOWN_COL1": "one", "UNKNOWN_COL2": 10}),
        # with FULL metadata it reads the names each table map logged
        ("binlog_server_full", False, {"id": 1, "a": "one", "bb": 10}),
    ],
)
def test_the_same_binlog_read_by_mysql_replication_alone(
    request: pytest.FixtureRequest, server_name: str, cache: bool, library_sees: dict[str, Any]
) -> None:
    """The issue's example: a row written before ``ADD COLUMN c … AFTER id``, read from the
    start by the library alone and by mvdd."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import WriteRowsEvent

    server = request.getfixturevalue(server_name)
    with database(server) as db:
        start = server_position(server)
        server.execute(
            "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5), bb INT)",
            "INSERT INTO t VALUES (1, 'one', 10)",
            "ALTER TABLE t ADD COLUMN c VARCHAR(5) DEFAULT 'x' AFTER id",
            database=db,
        )
        stream = BinLogStreamReader(
            {"unix_socket": server.socket, "user": "root"},
            server_id=4242,
            log_file=start.file,
            log_pos=start.offset,
            resume_stream=True,
            only_schemas=[db],
            only_events=[WriteRowsEvent],
            use_column_name_cache=cache,
        )
        try:
            library = [r["values"] for ev in stream for r in ev.rows]
        finally:
            stream.close()
        reader = BinlogReader(server.url(), tables=f"{db}.t", start=start)
        mvdd_rows = [(ev.version, ev.row) for ev in reader.events() if ev.kind == "insert"]
    assert library == [library_sees]
    assert mvdd_rows == [(1, {"id": 1, "a": "one", "bb": 10})]


def server_position(server: MariaDB) -> BinlogPosition:
    with server.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
    return BinlogPosition(file, int(offset))


# --- the DDL a MariaDB binlog carries ------------------------------------------------------------


def test_mariadb_ddl_forms_and_databases(binlog_server: MariaDB) -> None:
    server = binlog_server
    with database(server, charset="latin1") as db, database(server) as other:
        reader = reader_for(server, f"{db}.orders_*")
        with Script(server, db) as s:
            # no charset named: the table takes its database's (latin1), not the server's
            s.ddl(
                "CREATE TABLE orders_1 (id INT PRIMARY KEY, note VARCHAR(8))",
                "orders_1",
                new=("orders_1",),
            )
            s.insert("orders_1", "INSERT INTO orders_1 VALUES (1, 'über€')", 1)
            # CREATE TABLE … SELECT: the binlog holds the CREATE the server made of it (its
            # columns as the query gave them), then the rows, all read with that table
            s.ddl(
                "CREATE TABLE orders_5 (KEY (id)) IGNORE "
                "SELECT id, CONCAT(note, '!') AS loud, id * 2.5 AS half FROM orders_1",
                "orders_5",
                new=("orders_5",),
            )
            s.expected.append(("insert", s.name("orders_5"), 1, s.row("orders_5", 1), None))
            s.ddl(f"CREATE TABLE {db}.orders_2 LIKE orders_1", "orders_2", new=("orders_2",))
            s.ddl(
                "CREATE OR REPLACE TABLE orders_2 (id INT PRIMARY KEY, x INT)",
                "orders_2",
                "orders_2",
                new=("orders_2",),
            )
            # CREATE OR REPLACE: the old table dropped (a version), a new one created (version 1)
            s.versions[f"{db}.orders_2"] = 1
            s.expected[-2] = ("ddl", f"{db}.orders_2", 2, None, None)
            s.ddl("CREATE TABLE IF NOT EXISTS orders_1 (id INT)")
            s.ddl("ALTER TABLE IF EXISTS orders_9 ADD COLUMN y INT")
            s.ddl(
                "ALTER ONLINE TABLE orders_2 WAIT 5 ADD COLUMN IF NOT EXISTS y INT, "
                "ADD INDEX IF NOT EXISTS iy (y), MODIFY COLUMN IF EXISTS nope INT",
                "orders_2",
            )
            s.insert("orders_2", "INSERT INTO orders_2 VALUES (1, 2, 3)", 1)
            # a table renamed in from elsewhere in the followed database, and out to another
            s.sql("CREATE TABLE staging (id INT PRIMARY KEY, v TEXT)")
            s.versions[f"{db}.orders_3"] = 1
            s.ddl("RENAME TABLE staging TO orders_3", "orders_3")
            s.insert("orders_3", "INSERT INTO orders_3 VALUES (1, 'in')", 1)
            s.versions[f"{db}.orders_2"] += 1
            s.expected.append(("ddl", f"{db}.orders_2", s.versions[f"{db}.orders_2"], None, None))
            s.sql(f"RENAME TABLE orders_2 TO {other}.moved")
            s.sql(f"INSERT INTO {other}.moved VALUES (2, 2, 2)")  # not followed any more
            s.ddl("ALTER DATABASE CHARACTER SET utf8mb4")
            s.ddl(
                "CREATE TABLE orders_4 (id INT PRIMARY KEY, t VARCHAR(4))",
                "orders_4",
                new=("orders_4",),
            )
            s.insert("orders_4", "INSERT INTO orders_4 VALUES (1, '😀')", 1)
        events = list(reader.events())
        assert decoded(events) == s.expected
        catalog = reader.catalog
        assert catalog.table(f"{db}.orders_1").column("note").type.charset == "latin1"
        assert catalog.table(f"{db}.orders_4").column("t").type.charset == "utf8mb4"
        assert catalog.database_default(db) == ("utf8mb4", "utf8mb4_general_ci")


def test_maintenance_and_prefixed_statements_keep_the_reader_going(binlog_server: MariaDB) -> None:
    """What a binlog carries beside schema changes: ANALYZE, OPTIMIZE and REPAIR of a followed
    table change nothing, and MariaDB's ``SET STATEMENT … FOR`` statement is that statement,
    in a catalog that raises on anything unsupported."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.orders_*")
        with Script(server, db) as s:
            s.ddl(
                "CREATE TABLE orders_1 (id INT PRIMARY KEY, a INT, KEY ka (a))",
                "orders_1",
                new=("orders_1",),
            )
            s.insert("orders_1", "INSERT INTO orders_1 VALUES (1, 10)", 1)
            s.sql(
                "ANALYZE TABLE orders_1 PERSISTENT FOR ALL",
                "OPTIMIZE TABLE orders_1",
                "REPAIR TABLE orders_1 QUICK",
                "ALTER TABLE orders_1 ORDER BY a",
            )
            s.insert("orders_1", "INSERT INTO orders_1 VALUES (2, 20)", 2)
            s.ddl(
                "SET STATEMENT max_statement_time=30, lock_wait_timeout=5 FOR "
                "ALTER TABLE orders_1 ADD COLUMN note VARCHAR(8) DEFAULT 'n' AFTER id",
                "orders_1",
            )
            s.insert("orders_1", "INSERT INTO orders_1 (id, a) VALUES (3, 30)", 3)
            s.ddl(
                "SET STATEMENT lock_wait_timeout=5 FOR ALTER TABLE orders_1 MODIFY a BIGINT",
                "orders_1",
            )
            s.update("orders_1", "UPDATE orders_1 SET a = 2 + 1 << 40 WHERE id = 1", 1)
            s.ddl("CREATE TABLE orders_2 (id INT PRIMARY KEY)", "orders_2", new=("orders_2",))
            s.renamed("orders_2", "orders_3")
            s.ddl("RENAME TABLE IF EXISTS orders_9 TO orders_8, orders_2 TO orders_3", "orders_3")
            s.insert("orders_3", "INSERT INTO orders_3 VALUES (1)", 1)
        events = list(reader.events())
        assert decoded(events) == s.expected
        assert reader.catalog.table(f"{db}.orders_1").column_names == ("id", "note", "a")


def test_two_phase_alter_changes_the_schema_at_its_commit(binlog_server: MariaDB) -> None:
    server = binlog_server
    server.execute("SET GLOBAL binlog_alter_two_phase = ON")
    try:
        with database(server) as db:
            reader = reader_for(server, f"{db}.t")
            with Script(server, db) as s:
                s.sql("SET SESSION binlog_alter_two_phase = ON")
                s.ddl("CREATE TABLE t (id INT PRIMARY KEY, a INT)", "t", new=("t",))
                s.insert("t", "INSERT INTO t VALUES (1, 1), (2, 1)", 1, 2)
                s.ddl("ALTER TABLE t ADD COLUMN b INT DEFAULT 3 AFTER id", "t")
                s.insert("t", "INSERT INTO t (id, a) VALUES (3, 5)", 3)
                # fails after its START ALTER is logged: a ROLLBACK ALTER follows, no change
                with pytest.raises(Exception, match="Duplicate"):
                    s.sql("ALTER TABLE t ADD UNIQUE KEY ua (a)")
                s.insert("t", "INSERT INTO t (id, a) VALUES (4, 6)", 4)
            events = list(reader.events())
        assert decoded(events) == s.expected
        assert [str(e.kind) for e in events].count("ddl") == 2
    finally:
        server.execute("SET GLOBAL binlog_alter_two_phase = OFF")


# --- drift, unknown schemas, policies -------------------------------------------------------------


DRIFTS = [
    # one column too many: the count differs
    ("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5), b INT, x INT)", "column count", False),
    # same count, another type
    ("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT)", "column type", False),
    # same types, another length
    ("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(9), b INT)", "max_length", False),
    # the same type compressed (MariaDB's COMPRESSED: a type of its own in the table map)
    ("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5) COMPRESSED, b INT)", "compressed", False),
    ("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(4) COMPRESSED, b INT)", "compressed", False),
    # signedness and names: only metadata the server logs with binlog_row_metadata=FULL
    ("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5), b INT UNSIGNED)", "signedness", True),
    ("CREATE TABLE t (id INT PRIMARY KEY, b VARCHAR(5), a INT)", "column name", True),
]


@pytest.mark.parametrize(
    "server_name,believed,match",
    [
        (name, believed, match)
        for believed, match, full_only in DRIFTS
        for name in SERVERS
        if name == "binlog_server_full" or not full_only
    ],
)
def test_a_catalog_that_disagrees_with_the_binlog_raises_before_a_row(
    request: pytest.FixtureRequest, server_name: str, believed: str, match: str
) -> None:
    server = request.getfixturevalue(server_name)
    with database(server) as db:
        start = server_position(server)
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5), b INT)", database=db)
        mark = server_position(server)
        server.execute("INSERT INTO t VALUES (1, 'one', 10)", database=db)
        catalog = Catalog(charset="utf8mb4")
        catalog.execute(believed, position=start, database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=catalog, start=mark)
        seen: list[Any] = []
        with pytest.raises(SchemaDriftError, match=match) as info:
            seen.extend(reader.events())
        assert seen == []  # not one row of the event
        err = info.value
        assert err.table == f"{db}.t" and isinstance(err.position, BinlogPosition)
        assert err.column_index is not None and err.expected and err.found


def test_members_a_snapshot_read_as_question_marks_are_refused_before_a_row(
    binlog_server_full: MariaDB, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's SHOW CREATE TABLE writes a member's character beyond the BMP as ``?`` (its
    table keeps the character): a catalog bootstrapped from it holds ``ENUM('?','x')`` where the
    table is ``ENUM('😀','x')``. A server that logs its members (``binlog_row_metadata=FULL``)
    tells them apart, and the reader refuses the rows, naming why, before it decodes one as
    the wrong member; a table created after the start is read from its statement, exactly,
    its rows decoded as written, and a genuine ``?`` member is no drift."""
    server = binlog_server_full
    with database(server) as db:
        server.execute(
            "CREATE TABLE m (id INT PRIMARY KEY, e ENUM('😀','x'))",
            "CREATE TABLE q (id INT PRIMARY KEY, e ENUM('?','x'), s SET('?','y'))",
            database=db,
        )
        with caplog.at_level(logging.WARNING, logger="mvdd"):
            reader = reader_for(server, f"{db}.*")
        assert reader.catalog.table(f"{db}.m").column("e").type.members == ("?", "x")
        warned = [r.getMessage() for r in caplog.records if "beyond the BMP" in r.getMessage()]
        assert len(warned) == 2 and f"{db}.m" in warned[0] and f"{db}.q" in warned[1]
        server.execute(
            "CREATE TABLE n (id INT PRIMARY KEY, e ENUM('😀','x'), s SET('😁','y'))",
            "INSERT INTO n VALUES (1, '😀', '😁,y')",
            "INSERT INTO q VALUES (1, '?', '?,y')",
            "INSERT INTO m VALUES (1, '😀')",
            database=db,
        )
        seen: list[Any] = []
        with pytest.raises(SchemaDriftError, match="SHOW CREATE TABLE") as info:
            seen.extend(reader.events())
    rows = [(e.table, e.row) for e in seen if e.kind == "insert"]
    assert rows == [
        (f"{db}.n", {"id": 1, "e": "😀", "s": {"😁", "y"}}),
        (f"{db}.q", {"id": 1, "e": "?", "s": {"?", "y"}}),
    ]
    assert info.value.table == f"{db}.m" and info.value.column == "e"


def test_members_a_conversion_keeps_as_bytes_decode_as_the_catalog_holds_them(
    binlog_server_full: MariaDB,
) -> None:
    """``CONVERT TO CHARACTER SET ascii`` keeps the bytes of an ENUM's and a SET's members
    that ascii does not read (the reader stopped there: "duplicate members ['??']"); a row
    holding one decodes to the member as the catalog holds it, whose bytes are the server's
    (``HEX``) and which shows as the server shows it (each such byte a ``?``), also where the
    server logs its members (a table converted back to latin1, empty, reads the bytes again:
    its rows are that charset's text of them; a utf8mb3 table's, which the library reads as
    UTF-8's text where they are that, a character beyond the BMP, and as nothing where not)."""
    server = binlog_server_full
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        server.execute(
            "CREATE TABLE t (id INT PRIMARY KEY, e ENUM('a','é','ß'), s SET('a','é'))",
            "ALTER TABLE t CONVERT TO CHARACTER SET ascii",
            "INSERT INTO t VALUES (1, 'a', 'a'), (2, 2, 3)",
            "CREATE TABLE u LIKE t",
            "ALTER TABLE u CONVERT TO CHARACTER SET latin1",
            "INSERT INTO u VALUES (3, 3, 2)",
            "CREATE TABLE v (id INT PRIMARY KEY, e ENUM(X'F09F9880', 'b', X'E9') CHARACTER SET "
            "utf8mb3, s SET('a', X'F09F9880') CHARACTER SET utf8mb3)",
            "INSERT INTO v VALUES (4, 3, 3), (5, 1, 2)",
            database=db,
        )
        with server.connect(db) as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT id, e, s, HEX(e), HEX(s), 'ascii' FROM t UNION ALL "
                "SELECT id, e, s, HEX(e), HEX(s), 'latin1' FROM u UNION ALL "
                "SELECT id, e, s, HEX(e), HEX(s), 'utf8mb3' FROM v ORDER BY id"
            )
            server_rows = cur.fetchall()
        events = list(reader.events())
    rows = [(r["id"], r["e"], r["s"]) for e in events if e.kind == "insert" and (r := e.row)]
    smiley = "\udcf0\udc9f\udc98\udc80"  # (utf8mb3 has no character beyond the BMP)
    assert rows[1:] == [
        (2, "\udcc3\udca9", {"a", "\udcc3\udca9"}),
        (3, "ÃŸ", {"Ã©"}),
        (4, "\udce9", {"a", smiley}),
        (5, smiley, {smiley}),
    ]
    for (i, e, s), (j, shown_e, shown_s, hex_e, hex_s, charset) in zip(
        rows, server_rows, strict=True
    ):
        joined = ",".join(sorted(s))
        assert (i, without_kept(e), sorted(without_kept(joined).split(","))) == (
            j,
            shown_e,
            sorted(shown_s.split(",")),
        )
        assert bytes_in(e, charset).hex().upper() == hex_e
        assert sorted(bytes_in(joined, charset).split(b",")) == sorted(
            bytes.fromhex(hex_s).split(b",")
        )


def test_a_snapshot_reads_the_defaults_its_tables_keep(binlog_server: MariaDB) -> None:
    """SHOW CREATE TABLE writes a DEFAULT's character beyond the BMP as ``?``: the snapshot
    reads each such DEFAULT as the table keeps it, and a genuine ``?`` stays one."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE d (id INT PRIMARY KEY, v VARCHAR(5) DEFAULT 'a😀', "
            "w VARCHAR(5) DEFAULT 'a?', t TEXT DEFAULT '?😁?', b VARBINARY(4) DEFAULT 'b?', "
            "c CHAR(3) CHARACTER SET utf16 DEFAULT '😀') COMMENT 'c😀'",
            database=db,
        )
        reader = reader_for(server, f"{db}.*")
        table = reader.catalog.table(f"{db}.d")
    defaults = {c.name: c.default for c in table.columns[1:]}
    assert defaults == {"v": "a😀", "w": "a?", "t": "?😁?", "b": b"b?", "c": "😀"}


def test_rows_of_a_table_with_no_schema_raise_schema_unknown(binlog_server: MariaDB) -> None:
    server = binlog_server
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY)", database=db)
        mark = server_position(server)
        server.execute("INSERT INTO t VALUES (1)", database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t", start=mark)
        with pytest.raises(SchemaUnknownError) as info:
            list(reader.events())
        assert info.value.table == f"{db}.t"


ASIDE = "(id INT PRIMARY KEY, note VARCHAR(8) CHARACTER SET latin1, kind ENUM('a','b') DEFAULT 'b')"


@pytest.mark.parametrize(
    ("how", "into"),
    [
        ("RENAME TABLE {other}.stage TO orders_9", "orders_9"),
        ("ALTER TABLE {other}.stage RENAME TO orders_9", "orders_9"),
        ("CREATE TABLE orders_9 LIKE {other}.stage", "orders_9"),
        ("ALTER TABLE orders_1 EXCHANGE PARTITION p1 WITH TABLE {other}.stage", "orders_1"),
    ],
)
def test_a_table_of_a_database_not_followed_that_a_statement_needs_is_learned(
    binlog_server: MariaDB, tmp_path: Any, how: str, into: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A statement on a followed table that needs a table of a database the patterns do not
    name, which the reader never read (renamed in, a LIKE's source, a partition's exchange
    partner): its schema is learned from the server's (the binlog after the statement names
    it nowhere), recorded before the statement, and the rows after it decode with it. Read
    again from before the statement (a restart), the same events come out, nothing is learned
    twice, and the table's statements before it was learned pass without a warning. Before: ``NoSuchTableError`` at the statement, for good."""
    server = binlog_server
    path = str(tmp_path / "catalog.db")
    with database(server) as db, database(server) as other:
        partitioned = f"CREATE TABLE orders_1 {ASIDE} PARTITION BY HASH (id) PARTITIONS 2"
        server.execute(partitioned, database=db)
        with Catalog.open(path) as catalog:
            reader_for(server, f"{db}.orders_*", catalog=catalog)
        mark = server_position(server)
        server.execute(
            f"CREATE TABLE stage {ASIDE}", "INSERT INTO stage VALUES (1, 'ü', 'a')", database=other
        )
        server.execute(
            how.format(other=other),
            f"INSERT INTO {into} (id, note) VALUES (3, 'é')",
            f"UPDATE {into} SET kind = 'a' WHERE id = 3",
            database=db,
        )
        killed = str(tmp_path / "killed.db")
        shutil.copy(path, killed)  # (the catalog before the statement was read)
        with Catalog.open(path) as catalog:
            reader = BinlogReader(server.url(), tables=f"{db}.orders_*", catalog=catalog)
            events = decoded(reader.events())
            learned = catalog.history_by_id(catalog.table(f"{db}.{into}").id)[0]
            if "LIKE" in how or "EXCHANGE" in how:
                learned = catalog.history(f"{other}.stage")[0]
        name = f"{db}.{into}"
        row = {"id": 3, "note": "é", "kind": "b"}
        version = events[0][2]
        assert events == [
            ("ddl", name, version, None, None),
            ("insert", name, version, row, None),
            ("update", name, version, {**row, "kind": "a"}, row),
        ]
        with Catalog.open(path) as catalog, caplog.at_level(logging.WARNING, "mvdd"):
            again = BinlogReader(server.url(), tables=f"{db}.orders_*", catalog=catalog, start=mark)
            assert decoded(again.events()) == events
            # (the table's statements before it was learned are of a past not kept: passed over)
            assert not caplog.records
            if into == "orders_9" and "LIKE" not in how:
                # the table's history: as learned under its old name, then renamed in
                history = catalog.history(name)
                assert [(c.version, c.table) for c in history] == [
                    (1, f"{other}.stage"),
                    (2, name),
                ]
                assert history[0].position < history[1].position
            else:  # (learned, and an exchange's version: its rows changed)
                kept = [c.version for c in catalog.history(f"{other}.stage")]
                assert kept == ([1, 2] if "EXCHANGE" in how else [1])
        # killed between the two commits: the table learned, the statement not read
        with Catalog.open(killed) as catalog:
            text, position = learned.statement, learned.position
            catalog.execute(text, position=position, database=other, sql_mode=SHOWN)
            reader = BinlogReader(server.url(), tables=f"{db}.orders_*", catalog=catalog)
            assert decoded(reader.events()) == events


@pytest.mark.parametrize(
    ("how", "after", "columns"),
    [
        ("RENAME TABLE {other}.stage TO orders_9", "ALTER TABLE orders_9 ADD x INT", 3),
        ("RENAME TABLE {other}.stage TO orders_9", "DROP TABLE orders_9", 3),
        ("ALTER TABLE {other}.stage DROP kind, RENAME TO orders_9", "DO 1", 2),
    ],
)
def test_a_table_not_followed_that_changed_since_is_learned_from_the_binlogs(
    binlog_server: MariaDB, how: str, after: str, columns: int
) -> None:
    """Where the server's schema of such a table cannot stand for the one the statement met
    (a statement after it names the table: an ALTER, its DROP; or the statement changes its
    columns too), its history is read from the server's binlogs (its database's statements
    from the oldest binlog to the statement): the rows after the statement decode with the
    schema it left, those after a later ALTER with that one's."""
    server = binlog_server
    with database(server) as db, database(server) as other:
        server.execute(f"CREATE TABLE orders_1 {ASIDE}", database=db)
        reader = reader_for(server, f"{db}.orders_*")
        server.execute(
            f"CREATE TABLE stage {ASIDE}",
            "ALTER TABLE stage MODIFY note VARCHAR(12) CHARACTER SET latin1",
            database=other,
        )
        server.execute(how.format(other=other), database=db)
        at = server_position(server)
        server.execute("INSERT INTO orders_9 (id) VALUES (1)", after, database=db)
        if "ADD x" in after:
            server.execute("INSERT INTO orders_9 (id, x) VALUES (2, 5)", database=db)
        rows = [e.row for e in reader.events() if e.kind == "insert"]
        first = {"id": 1, "note": None, "kind": "b"}
        if columns == 2:
            del first["kind"]
        assert rows[0] == first
        if "ADD x" in after:
            assert rows[1] == {"id": 2, "note": None, "kind": "b", "x": 5}
        learned = reader.catalog.table(f"{other}.stage", position=at)  # (just before it)
        assert learned.column("note").type.length == 12
        assert len(learned.columns) == 3


def test_a_table_not_followed_whose_history_is_not_in_the_binlogs_is_refused(
    binlog_server: MariaDB,
) -> None:
    """Neither told (the table made where the binlog does not hold its CREATE, and altered
    after the statement): a SchemaUnknownError naming the table, the statement's position,
    both reasons and the remedy, before any event of the statement; the catalog learns
    nothing."""
    server = binlog_server
    with database(server) as db, database(server) as other:
        server.execute(f"CREATE TABLE orders_1 {ASIDE}", database=db)
        reader = reader_for(server, f"{db}.orders_*")
        server.execute("SET SESSION sql_log_bin = 0", f"CREATE TABLE stage {ASIDE}", database=other)
        server.execute(f"RENAME TABLE {other}.stage TO orders_9", database=db)
        at = server_position(server)
        server.execute("ALTER TABLE orders_9 ADD x INT", database=db)
        with pytest.raises(SchemaUnknownError, match="names") as info:
            list(reader.events())
        assert info.value.table == f"{other}.stage"
        assert info.value.position == at
        assert "do not tell its history" in str(info.value)
        assert "name its database in a pattern" in str(info.value)
        assert reader.catalog.tables() == [f"{db}.orders_1"]


def test_a_database_dropped_takes_the_tables_the_catalog_holds_of_it(
    binlog_server: MariaDB,
) -> None:
    """A table of a database not followed that the catalog holds (renamed out of a followed
    one, or learned) is followed there, and a ``DROP DATABASE`` of its database drops it: a
    table of the name made there afterwards is learned anew when a statement needs it, never
    taken for the old one (before: the DROP DATABASE passed over, the new table's CREATE
    refused as one that exists, and the rename back in gave the shard the old schema)."""
    server = binlog_server
    with database(server) as db, database(server) as other:
        server.execute(f"CREATE TABLE orders_1 {ASIDE}", database=db)
        reader = reader_for(server, f"{db}.orders_*")
        server.execute(f"RENAME TABLE orders_1 TO {other}.moved", database=db)
        assert [e.kind for e in reader.events()] == ["ddl"]
        assert f"{other}.moved" in reader.catalog.tables()
        server.execute(f"DROP DATABASE {other}", f"CREATE DATABASE {other}")
        server.execute("CREATE TABLE moved (id INT PRIMARY KEY, y INT)", database=other)
        server.execute(f"RENAME TABLE {other}.moved TO orders_1", database=db)
        server.execute("INSERT INTO orders_1 VALUES (1, 2)", database=db)
        assert [(e.kind, e.row) for e in reader.events()] == [
            ("ddl", None),
            ("insert", {"id": 1, "y": 2}),
        ]
        assert reader.catalog.table(f"{db}.orders_1").column_names == ("id", "y")


def test_a_name_moved_to_another_table_is_told_from_statements_that_keep_it(
    binlog_server: MariaDB,
) -> None:
    """``name_moved``: whether a statement between two positions may have given a table's
    name to another table (what a shard read again checks before it trusts the table of its
    name in a snapshot): a RENAME from it or to it, its DROP, a CREATE of it; not an ALTER, an
    ANALYZE, a ``CREATE TABLE IF NOT EXISTS`` or a statement on another table."""
    server = binlog_server
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY)", database=db)
        reader = reader_for(server, f"{db}.*")
        marks = [server_position(server)]
        kept = [
            "ALTER TABLE t ADD c INT",
            "ANALYZE TABLE t",
            "CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY)",
            "CREATE TABLE t2 LIKE t",
            "RENAME TABLE t2 TO t3",
        ]
        moved = [
            "RENAME TABLE t TO u",
            "CREATE TABLE t LIKE u",
            "ALTER TABLE t RENAME TO v",
            "RENAME TABLE u TO t",
            "DROP TABLE t",
        ]
        for statement in [*kept, *moved]:
            server.execute(statement, database=db)
            marks.append(server_position(server))
        told = [reader.name_moved(f"{db}.t", a, b) for a, b in itertools.pairwise(marks)]
        assert told == [False] * len(kept) + [True] * len(moved)
        assert not reader.name_moved(f"{db}.t", marks[0], marks[len(kept)])
        assert reader.name_moved(f"{db}.u", marks[len(kept)], marks[-1])


def test_side_streams_open_at_once_each_register_under_an_id_of_their_own(
    binlog_server: MariaDB,
) -> None:
    """Two scans of one reader's binlog open at once (the replicator's check of a shard's
    name beside its reader learning a table: both on side streams): each registers under an
    id no other holds: the server keeps both, and both read to their end (under one id the
    server dropped the first when the second registered, "A slave with the same
    server_uuid/server_id is already connected", or refused the second)."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        start = server_position(server)
        for i in range(3):
            server.execute(f"CREATE TABLE t{i} (id INT PRIMARY KEY, v LONGTEXT)", database=db)
            # (some 20 MB of rows: the first stream's server side still sending when the
            # second registers)
            server.execute(
                f"INSERT INTO t{i} SELECT seq, REPEAT('x', 50000) FROM seq_1_to_150", database=db
            )
        end = server_position(server)
        first, second = reader._statements(start, end), reader._statements(start, end)
        heads = [next(first).query, next(second).query]
        with server.connect() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT id FROM information_schema.processlist WHERE command = 'Binlog Dump'"
            )
            assert len(cur.fetchall()) >= 2  # (the server kept both: under one id, the second)
        assert heads == ["CREATE TABLE t0 (id INT PRIMARY KEY, v LONGTEXT)"] * 2
        assert len(list(first)) == len(list(second)) == 2


def test_unreadable_ddl_on_a_followed_table_follows_the_policy(binlog_server: MariaDB) -> None:
    server = binlog_server
    with database(server) as db:
        create = "CREATE TABLE t (id INT PRIMARY KEY, a INT, s DATE, e DATE)"
        server.execute(create, database=db)
        mark = server_position(server)
        # an application-time period, for a while: valid on the server, not modelled by mvdd
        server.execute(
            "ALTER TABLE t ADD COLUMN g POINT",
            "ALTER TABLE t DROP COLUMN g",
            "ALTER TABLE t ADD PERIOD FOR p (s, e)",
            "ALTER TABLE t DROP PERIOD FOR p",
            "INSERT INTO t VALUES (1, 2, '2026-01-01', '2026-12-31')",
            database=db,
        )
        raising = Catalog(charset="utf8mb4")
        raising.execute(create, position=mark, database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=raising, start=mark)
        with pytest.raises(UnsupportedDDLError) as info:
            list(reader.events())
        assert "PERIOD" in (info.value.statement or "") and info.value.position is not None
        skipping = Catalog(on_unsupported="skip", charset="utf8mb4")
        skipping.execute(create, position=mark, database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=skipping, start=mark)
        rows = [ev.row for ev in reader.events() if ev.kind == "insert"]
        assert rows == [{"id": 1, "a": 2, "s": dt.date(2026, 1, 1), "e": dt.date(2026, 12, 31)}]
        # the same statement on a table the patterns do not match is ignored, whatever the policy
        unmatched = Catalog(charset="utf8mb4")
        unmatched.execute("CREATE TABLE x (id INT PRIMARY KEY)", position=mark, database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.x", catalog=unmatched, start=mark)
        assert list(reader.events()) == []


def test_a_tablespace_discarded_and_imported_is_a_version_of_its_table(
    binlog_server: MariaDB,
) -> None:
    """InnoDB's ALTER TABLE … DISCARD TABLESPACE and IMPORT TABLESPACE change a table's rows
    without row events (its data file gone, then another one's brought in): the reader
    follows them, each a version of the table whose step says so, and decodes the rows written
    after them."""
    server = binlog_server
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)", database=db)
        reader = reader_for(server, f"{db}.t")
        with Script(server, db) as s:
            s.versions[f"{db}.t"] = 1
            s.insert("t", "INSERT INTO t VALUES (1, 1)", 1)
            s.sql("CREATE TABLE src LIKE t", "INSERT INTO src VALUES (5, 5), (6, 6)")
            s.ddl("ALTER TABLE t DISCARD TABLESPACE", "t")
            s.sql("FLUSH TABLES src FOR EXPORT")
            for suffix in ("ibd", "cfg"):
                folder = server.base / "data" / db
                shutil.copyfile(folder / f"src.{suffix}", folder / f"t.{suffix}")
            s.sql("UNLOCK TABLES")
            s.ddl("ALTER TABLE t IMPORT TABLESPACE", "t")
            s.insert("t", "INSERT INTO t VALUES (7, 7)", 7)
            assert s.row("t", 5) == {"id": 5, "a": 5}  # (the rows the file brought)
        assert decoded(reader.events()) == s.expected
        steps = [c.steps for c in reader.catalog.history(f"{db}.t")[1:]]
        assert steps == [
            (TruncateTable(table=f"{db}.t", how="DISCARD TABLESPACE"),),
            (TruncateTable(table=f"{db}.t", how="IMPORT TABLESPACE"),),
        ]


def test_a_partition_made_a_table_and_a_table_made_a_partition(binlog_server: MariaDB) -> None:
    """MariaDB's ``CONVERT PARTITION p TO TABLE u`` makes a table of the partitioned table's
    schema, without partitioning, holding the partition's rows; ``CONVERT TABLE u TO
    PARTITION`` makes it a partition again and drops it. A replica follows both: the new
    table is the server's, its rows decode, each side's version says its rows changed
    without row events, and the table is gone after the second."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE t (id INT NOT NULL, a VARCHAR(5) DEFAULT 'x', PRIMARY KEY (id), "
            "KEY ka (a), CONSTRAINT ck CHECK (id >= 0)) DEFAULT CHARSET=latin1 COMMENT 'old' "
            "PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (10), "
            "PARTITION p1 VALUES LESS THAN (20))",
            "INSERT INTO t VALUES (1, 'a'), (11, 'b')",
            database=db,
        )
        reader = reader_for(server, f"{db}.*")
        server.execute(
            "ALTER TABLE t CONVERT PARTITION p1 TO TABLE `t 1`",
            "INSERT INTO `t 1` VALUES (12, 'c')",
            database=db,
        )
        events = list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            shown = parse_table(show_create_table(conn, "t 1"), replica=True)
        made = reader.catalog.table(f"{db}.t 1")
        assert made.equivalent(shown, ignore_order=False), made.differences(shown)
        assert [(e.kind, e.table) for e in events] == [
            ("ddl", f"{db}.t"),
            ("ddl", f"{db}.t 1"),
            ("insert", f"{db}.t 1"),
        ]
        assert events[-1].row == {"id": 12, "a": "c"}
        server.execute(
            "ALTER TABLE t CONVERT TABLE `t 1` TO PARTITION p1 VALUES LESS THAN (20)",
            "INSERT INTO t VALUES (13, 'd')",
            database=db,
        )
        events = list(reader.events())
        assert [(e.kind, e.table) for e in events] == [
            ("ddl", f"{db}.t"),
            ("ddl", f"{db}.t 1"),
            ("insert", f"{db}.t"),
        ]
        assert reader.catalog.tables() == [f"{db}.t"]

    def truncated(tid: int) -> list[tuple[str, tuple[str, ...]]]:
        return [
            (x.how, x.partitions)
            for change in reader.catalog.history_by_id(tid)
            for x in change.steps
            if isinstance(x, TruncateTable)
        ]

    assert truncated(reader.catalog.table(f"{db}.t").id) == [
        ("CONVERT PARTITION", ("p1",)),
        ("CONVERT TABLE", ("p1",)),
    ]
    assert truncated(made.id) == [("CONVERT PARTITION", ())]


def test_each_transaction_carries_the_gtid_its_server_gave_it(binlog_server: MariaDB) -> None:
    """Every transaction, and each of its events, carries the MariaDB GTID the server gave
    it: the session's ``@@last_gtid`` after each statement is the oracle (a DDL, a row alone,
    a transaction of several rows and tables, one that touches no followed table)."""
    server = binlog_server
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)", database=db)
        reader = reader_for(server, f"{db}.t*")
        steps = [
            ["CREATE TABLE t2 (id INT PRIMARY KEY)"],
            ["INSERT INTO t VALUES (1, 1)"],
            [
                "BEGIN",
                "INSERT INTO t VALUES (2, 2)",
                "UPDATE t SET a = 3 WHERE id = 1",
                "INSERT INTO t2 VALUES (7)",
                "COMMIT",
            ],
            ["CREATE TABLE other (id INT PRIMARY KEY)"],
            ["INSERT INTO other VALUES (1)"],
            ["ALTER TABLE t ADD COLUMN b INT"],
            ["DELETE FROM t WHERE id = 2"],
        ]
        given = []
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            cur.execute("SET autocommit = 1")
            for statements in steps:
                for sql in statements:
                    cur.execute(sql)
                cur.execute("SELECT @@last_gtid")
                given.append(cur.fetchone()[0])
        got = list(reader.transactions())
    assert [t.gtid for t in got] == given
    assert len(set(given)) == len(given) and all(g.count("-") == 2 for g in given)
    for txn in got:
        assert all(e.gtid == txn.gtid for e in txn.events)
    assert [len(t.events) for t in got] == [1, 1, 3, 0, 0, 1, 1]


def test_xa_transactions_are_read_at_their_commit_across_restarts(
    server: MariaDB, tmp_path: Any
) -> None:
    """An XA transaction's rows (logged when it is prepared, mvdd.binlog.xa) are handed out at
    its XA COMMIT, as that statement's transaction (its GTID, after the transactions that
    committed in between), and never after an XA ROLLBACK; XA COMMIT … ONE PHASE is an
    ordinary transaction. A reader that starts between the two parts finds the prepared group
    in the server's binlog, an older file included: one bootstrapped while the transaction was
    prepared (its snapshot does not see the rows), and one resumed from a checkpoint taken in
    between. Every row the server committed arrives once; the server's table is the oracle."""
    path = str(tmp_path / "catalog.db")
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)", database=db)
        server.execute("CREATE TABLE other (id INT PRIMARY KEY)", database=db)
        with contextlib.ExitStack() as stack:
            sessions = [stack.enter_context(contextlib.closing(server.connect(db))) for _ in "abc"]
            cur, other, third = (stack.enter_context(s.cursor()) for s in sessions)

            def prepare(xid: str, *rows: str, on: Any = cur) -> None:
                for sql in (f"XA START {xid}", *rows, f"XA END {xid}", f"XA PREPARE {xid}"):
                    on.execute(sql)

            prepare("'before'", "INSERT INTO t VALUES (1, 1)")
            with Catalog.open(path) as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=catalog)
                reader.check()  # bootstrap: the snapshot holds no row
                other.execute("INSERT INTO t VALUES (2, 2)")
                cur.execute("XA COMMIT 'before'")
                prepare("'gone'", "INSERT INTO t VALUES (3, 3)")
                cur.execute("XA ROLLBACK 'gone'")
                prepare(
                    "'x', 'y', 7", "INSERT INTO t VALUES (4, 4)", "UPDATE t SET a = 22 WHERE id = 2"
                )
                other.execute("INSERT INTO other VALUES (1)")
                prepare("'elsewhere'", "INSERT INTO other VALUES (2)", on=third)
                got = list(reader.transactions())
                reader.checkpoint(got[-1].commit)  # (between the two parts of 'x', 'y', 7)
                reader.close()
            server.execute("FLUSH BINARY LOGS")
            other.execute("INSERT INTO t VALUES (5, 5)")
            cur.execute("XA COMMIT 'x', 'y', 7")
            third.execute("XA COMMIT 'elsewhere'")
            cur.execute("XA START 'one'")
            cur.execute("INSERT INTO t VALUES (6, 6)")
            cur.execute("XA END 'one'")
            cur.execute("XA COMMIT 'one' ONE PHASE")
            cur.execute("SELECT @@last_gtid")
            (last_gtid,) = cur.fetchone()
            with Catalog.open(path) as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=catalog)
                got += list(reader.transactions())
            other.execute("SELECT id, a FROM t ORDER BY id")
            stored = dict(other.fetchall())
    rows = [(str(e.kind), e.row, e.before) for txn in got for e in txn.events]
    assert rows == [
        ("insert", {"id": 2, "a": 2}, None),
        ("insert", {"id": 1, "a": 1}, None),
        ("insert", {"id": 5, "a": 5}, None),  # (committed before the XA that prepared first)
        ("insert", {"id": 4, "a": 4}, None),
        ("update", {"id": 2, "a": 22}, {"id": 2, "a": 2}),
        ("insert", {"id": 6, "a": 6}, None),
    ]
    applied = {row["id"]: row["a"] for _, row, _ in rows if row is not None}
    assert applied == stored
    assert got[-1].gtid == last_gtid and got[-1].events[0].gtid == last_gtid
    committed = [txn for txn in got if any((e.row or {}).get("id") == 4 for e in txn.events)]
    assert len(committed) == 1 and all(e.commit == committed[0].commit for e in committed[0].events)


def test_tables_the_patterns_do_not_match_never_stop_the_bootstrap(
    binlog_server: MariaDB,
) -> None:
    """Every table of a followed database is read at bootstrap (one may be renamed in later);
    one of a kind mvdd does not model stops it only when the patterns match it (a table with
    a foreign key, a sequence and system-versioned tables, of hidden period columns or of its
    own, are ones it follows)."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE orders_1 (id INT PRIMARY KEY, a INT)",
            "CREATE TABLE log (id INT PRIMARY KEY, s DATE NOT NULL, e DATE NOT NULL, "
            "PERIOD FOR p (s, e))",
            "CREATE TABLE part (id INT PRIMARY KEY) PARTITION BY HASH (id) PARTITIONS 2",
            "CREATE TABLE child (id INT PRIMARY KEY, o INT, FOREIGN KEY (o) REFERENCES orders_1 (id))",
            "CREATE TABLE hist (id INT PRIMARY KEY) WITH SYSTEM VERSIONING",
            "CREATE TABLE own (id INT PRIMARY KEY, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, "
            "e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) "
            "WITH SYSTEM VERSIONING",
            "CREATE SEQUENCE seq",
            database=db,
        )
        reader = reader_for(server, f"{db}.orders_*")
        assert reader.catalog.tables() == [
            f"{db}.{t}" for t in ("child", "hist", "orders_1", "own", "part", "seq")
        ]
        server.execute(
            "INSERT INTO orders_1 VALUES (1, 2)",
            "INSERT INTO log VALUES (1, '2020-01-01', '2020-02-01')",
            "INSERT INTO part VALUES (1)",
            "INSERT INTO child VALUES (1, 1)",
            "INSERT INTO hist VALUES (1)",
            "INSERT INTO own (id) VALUES (1)",
            "SELECT NEXTVAL(seq)",
            database=db,
        )
        assert [(e.table, e.row) for e in reader.events()] == [
            (f"{db}.orders_1", {"id": 1, "a": 2})
        ]
        with pytest.raises(UnsupportedDDLError) as info:
            reader_for(server, f"{db}.log")
        assert info.value.table == f"{db}.log" and info.value.position is not None
        assert reader_for(server, f"{db}.seq").catalog.table(f"{db}.seq").options.sequence
        for name in ("hist", "own"):
            table = reader_for(server, f"{db}.{name}").catalog.table(f"{db}.{name}")
            assert table.options.versioned
        # a table with a foreign key is followed: its key is the one the server made for it
        child = reader_for(server, f"{db}.child").catalog.table(f"{db}.child")
        assert [i.name for i in child.indexes] == ["PRIMARY", "o"]


def test_a_table_with_ignored_indexes_is_bootstrapped_and_followed(binlog_server: MariaDB) -> None:
    """MariaDB's IGNORED indexes (10.6) in the bootstrap's SHOW CREATE TABLE and in the binlog's
    ALTERs are invisible indexes to mvdd, and the catalog agrees with the server after each."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE orders_1 (id INT PRIMARY KEY, a INT, b INT NOT NULL, "
            "KEY ka (a) IGNORED, UNIQUE ub (b) COMMENT 'u' IGNORED)",
            "INSERT INTO orders_1 VALUES (1, 10, 100)",
            database=db,
        )
        reader = reader_for(server, f"{db}.orders_*")
        name = f"{db}.orders_1"

        def agrees() -> None:
            with contextlib.closing(server.connect(db)) as conn:
                shown = parse_table(show_create_table(conn, "orders_1"))
            mine = reader.catalog.table(name)
            assert mine.equivalent(shown) and visibility(mine) == visibility(shown)

        agrees()
        assert visibility(reader.catalog.table(name)) == {"primary": True, "ka": False, "ub": False}
        server.execute(
            "ALTER TABLE orders_1 ALTER INDEX ka NOT IGNORED, ALTER KEY IF EXISTS nope IGNORED",
            "INSERT INTO orders_1 VALUES (2, 20, 200)",
            "CREATE INDEX kab ON orders_1 (a, b) IGNORED",
            "INSERT INTO orders_1 VALUES (3, 30, 300)",
            database=db,
        )
        rows = [(e.version, e.row["id"]) for e in reader.events() if e.row is not None]
        assert [r for _, r in rows] == [2, 3] and rows[0][0] < rows[1][0]
        agrees()
        assert visibility(reader.catalog.table(name))["kab"] is False


#: values whose bytes end in zeros (a fixed string's trailing zeros are trimmed in the binlog),
#: a time-based (version 1) UUID, IPv4-compatible and -mapped INET6, and the zero values
PLUGIN_ROWS = [
    ("6ccd780c-baba-1026-9564-5b8c656024db", "1.2.0.0", "::ffff:1.2.3.4"),
    ("123E4567E89B12D3A456426655440000", "01.02.003.004", "::1:2"),
    ("00000000-0000-0000-0000-000000000000", "0.0.0.0", "::"),
    ("ffffffff-ffff-ffff-ffff-ffffffffffff", "255.255.255.255", "1:0:0:0:1::"),
    ("12345678-9abc-4def-8123-456789abcd00", "10.0.0.1", "fe80::1"),
]


#: client charsets, each with text of its own; sjis's and big5's characters end in the byte
#: 0x5C, ASCII's backslash (a statement read as UTF-8 escapes the quote after one)
CLIENT_TEXTS = [
    ("latin1", "Größe é€"),
    ("cp1251", "имя"),
    ("gbk", "名字中文"),
    ("sjis", "ソ表能"),
    # a fullwidth backslash, which the server reads as a backslash, never an escape
    ("sjis", "表＼能"),
    ("big5", "許功蓋"),
    ("euckr", "이름"),
    ("utf8mb4", "名ü€"),
]


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "compressed"])
@pytest.mark.parametrize(("charset", "text"), CLIENT_TEXTS)
def test_a_statement_is_read_in_the_charset_its_client_wrote_it_in(
    binlog_server: MariaDB, charset: str, text: str, compressed: bool
) -> None:
    """A DDL from a session of another charset than UTF-8 (names, comments, defaults, ENUM
    members and introduced literals of that charset's text) is read as the server read it:
    the table the reader's catalog holds is the one the server shows, and the rows decode with
    it; the same when the server compressed the statement. (Read as UTF-8, as the library reads
    every statement, the names and texts are escapes, and the statement is another one or
    none.)"""
    server = binlog_server
    q = quote
    seen = text.replace("＼", "\\")  # (the server reads sjis's fullwidth backslash as one)
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        statements = [
            f"CREATE TABLE {q(text)} (id INT PRIMARY KEY, {q(text + '1')} VARCHAR(20) "
            f"DEFAULT '{text}' COMMENT '{text}', e ENUM('{text}', 'b') DEFAULT '{text}', "
            f"x VARCHAR(60) CHARACTER SET latin1 DEFAULT _latin1'{text}', "
            f"y VARBINARY(40) DEFAULT _{charset}'{text}', "
            # (a CAST to CHAR naming no charset takes the session's connection charset)
            "z VARCHAR(20) AS (CAST(id AS CHAR)) VIRTUAL, "
            "w VARCHAR(20) AS (CONVERT(id, NCHAR(5))) VIRTUAL) "
            f"COMMENT '{text}'",
            f"INSERT INTO {q(text)} (id, {q(text + '1')}) VALUES (1, '{text}')",
            f"ALTER TABLE {q(text)} CHANGE {q(text + '1')} {q(text + '2')} VARCHAR(30) "
            f"DEFAULT '{text}{text}' COMMENT '{text}', ADD KEY {q(text + 'k')} ({q(text + '2')})",
            f"INSERT INTO {q(text)} (id, {q(text + '2')}) VALUES (2, '{text}')",
        ]
        with (
            compressed_binlog(server) if compressed else contextlib.nullcontext(),
            contextlib.closing(server.connect(db, charset=charset)) as conn,
            conn.cursor() as cur,
        ):
            for sql in statements:
                cur.execute(sql)
        events = list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            shown = parse_table(show_create_table(conn, seen), replica=True)
            with conn.cursor() as cur:
                cur.execute(f"SELECT * FROM {q(seen)} ORDER BY id")
                rows = [tuple(row) for row in cur.fetchall()]
    table = reader.catalog.table(f"{db}.{seen}")
    assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    column = table.column(seen + "2")
    assert (table.options.comment, column.comment, column.default) == (seen, seen, seen + seen)
    assert [tuple((e.row or {}).values()) for e in events if e.kind == "insert"] == rows


@pytest.mark.parametrize(
    ("connection", "text"),
    [("latin1", "Größe"), ("cp1251", "имя"), ("utf8mb3", "名ü😀"), ("ascii", "ab")],
)
def test_a_statement_takes_its_literals_in_its_connections_charset(
    binlog_server: MariaDB, connection: str, text: str
) -> None:
    """A session whose connection charset is not its client's (``SET character_set_connection``)
    converts its string literals into it: a binary column's DEFAULT is the text's bytes in the
    connection's charset, a CAST to CHAR takes it, a character the charset lacks is a ``?`` in
    a DEFAULT, an ENUM member, an expression and a CHECK (not in a comment); an introduced
    literal stays its client's bytes. The reader's catalog holds the table the server shows."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            cur.execute(f"SET character_set_connection = {connection}")
            cur.execute(
                f"CREATE TABLE t (id INT PRIMARY KEY, b VARBINARY(20) DEFAULT '{text}', "
                f"f BINARY(12) DEFAULT '{text}', i VARBINARY(20) DEFAULT _utf8mb4'{text}', "
                "c VARCHAR(20) AS (CAST(id AS CHAR)) VIRTUAL, "
                # (characters the connection's charset lacks: a ? each, but in a comment)
                f"s VARCHAR(20) DEFAULT '{text}ą名' COMMENT '{text}ą名', e ENUM('{text}', 'ą名'), "
                f"g VARCHAR(40) AS (CONCAT(s, 'ą名')), k VARCHAR(9) CHECK (k <> '名'))"
            )
        list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            shown = parse_table(show_create_table(conn, "t"), replica=True)
    table = reader.catalog.table(f"{db}.t")
    assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    # (a character beyond the BMP, which utf8mb3 lacks, a ?)
    kept = BEYOND_BMP.sub("?", text) if connection == "utf8mb3" else text
    assert table.column("b").default == kept.encode(python_codec(connection) or "utf-8")


def test_a_statement_in_a_charset_mvdd_cannot_read_is_refused(binlog_server: MariaDB) -> None:
    """A DDL whose client wrote it in a charset mvdd has no codec for (``swe7``), with bytes
    past ASCII, is refused where it stands, naming that charset: never read as UTF-8."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            cur.execute("SET NAMES swe7")
            conn.query(b"CREATE TABLE t (id INT PRIMARY KEY) COMMENT 'caf\xe9'")
        with pytest.raises(DDLParseError, match="swe7") as info:
            list(reader.events())
        assert info.value.position is not None and "caf" in (info.value.statement or "")


def test_the_sql_mode_bits_name_the_servers_words(binlog_server: MariaDB) -> None:
    """Each bit of a binlog's sql_mode names the word the server names it by (a composite
    mode's bit among the words it stands for; the binlog logs them all)."""
    with contextlib.closing(binlog_server.connect()) as conn, conn.cursor() as cur:
        for bit, word in enumerate(MARIADB_BITS):
            cur.execute(f"SET SESSION sql_mode = {1 << bit}")
            cur.execute("SELECT @@SESSION.sql_mode")
            (shown,) = cur.fetchone()
            assert word in shown.split(","), (bit, word, shown)
            assert SqlMode.of(1 << bit, "mariadb").words == {word}
        for word in COMPOSITES:  # a composite mode set by name, as the server expands it
            cur.execute("SET SESSION sql_mode = %s", (word,))
            cur.execute("SELECT @@SESSION.sql_mode")
            (shown,) = cur.fetchone()
            assert SqlMode.of(word).words == set(shown.split(",")), (word, shown)


#: (sql_mode, statement): each reads under its session's mode as the server read it
SQL_MODE_STATEMENTS = [
    ("ANSI_QUOTES", 'CREATE TABLE "q1" ("a" INT DEFAULT 1, "b""c" VARCHAR(5) DEFAULT \'x\')'),
    ("ANSI_QUOTES", 'ALTER TABLE "q1" ADD COLUMN "d" INT DEFAULT 2, RENAME COLUMN "a" TO "e"'),
    (
        "ANSI",
        'CREATE TABLE "q2" ("a" REAL, "x" VARCHAR(3) DEFAULT \'x\', '
        "\"b\" VARCHAR(9) DEFAULT ('a' || \"x\" || 'c'))",
    ),
    (
        "PIPES_AS_CONCAT",
        "CREATE TABLE q3 (a VARCHAR(9) DEFAULT ('a' || 'b'), b INT DEFAULT (1 || 2))",
    ),
    ("PIPES_AS_CONCAT", "CREATE TABLE q4 (a INT, b INT AS (a || 1 ^ 2), c INT AS (-a || 3))"),
    ("REAL_AS_FLOAT", "CREATE TABLE q5 (a REAL, b REAL(7,2) UNSIGNED, c DOUBLE)"),
    (
        "NO_BACKSLASH_ESCAPES",
        r"CREATE TABLE q6 (a VARCHAR(9) DEFAULT 'a\nb', b VARCHAR(9) DEFAULT 'c\')",
    ),
    ("NO_BACKSLASH_ESCAPES", r"ALTER TABLE q6 ADD d VARCHAR(9) DEFAULT 'x''\0' COMMENT 'a\tb'"),
    ("", r"CREATE TABLE q7 (a VARCHAR(9) DEFAULT 'a\nb', b VARCHAR(9) DEFAULT 'c\'\\')"),
    ("TRADITIONAL,EMPTY_STRING_IS_NULL", "CREATE TABLE q8 (a VARCHAR(9) DEFAULT 'x')"),
    # not strict: a VARCHAR or VARBINARY too long is the TEXT or BLOB holding it (note 1246)
    (
        "",
        "CREATE TABLE q9 (a VARCHAR(70000), b VARCHAR(20000) CHARACTER SET latin1, "
        "c VARBINARY(70000), d VARCHAR(16384) NOT NULL DEFAULT 'x', e VARCHAR(20000), "
        "UNIQUE KEY (e), KEY (d))",
    ),
    (
        "NO_ENGINE_SUBSTITUTION",
        "ALTER TABLE q9 MODIFY b VARCHAR(70000) CHARACTER SET latin1, "
        "ADD f VARCHAR(65535) CHARACTER SET latin1, ADD g VARCHAR(5000000)",
    ),
    # ALLOW_INVALID_DATES: a DEFAULT may name a day its month lacks
    (
        "ALLOW_INVALID_DATES",
        "CREATE TABLE q10 (a DATE DEFAULT '2020-02-30', "
        "b DATETIME(2) DEFAULT '2021-04-31 10:00:00.555')",
    ),
    ("ALLOW_INVALID_DATES,STRICT_TRANS_TABLES", "ALTER TABLE q10 ALTER a SET DEFAULT '2021-02-29'"),
    # EMPTY_STRING_IS_NULL: '' where a value stands is NULL (not an ENUM's member, a comment)
    (
        "EMPTY_STRING_IS_NULL",
        "CREATE TABLE q12 (a VARCHAR(3) DEFAULT '' COMMENT '', b ENUM('', 'x') DEFAULT '', "
        "c VARCHAR(9) AS (CONCAT('', a)), d INT DEFAULT (LENGTH('')), CHECK (a <> ''))",
    ),
    ("EMPTY_STRING_IS_NULL", "ALTER TABLE q12 ALTER b SET DEFAULT '', COMMENT ''"),
    # HIGH_NOT_PRECEDENCE: NOT binds as tightly as !
    (
        "HIGH_NOT_PRECEDENCE",
        "CREATE TABLE q11 (a INT, b INT AS (NOT a BETWEEN -1 AND 1), c INT AS (NOT a = 2))",
    ),
]


def test_a_statement_is_read_under_its_sessions_sql_mode(binlog_server: MariaDB) -> None:
    """A DDL from a session with ANSI_QUOTES, PIPES_AS_CONCAT, REAL_AS_FLOAT or
    NO_BACKSLASH_ESCAPES, or from one that is not strict, means what that mode makes it mean:
    the reader reads it under the mode the binlog logs beside it, and each table is the one
    the server shows. (Read in the default mode, the first is a syntax error, the others other
    tables, and the last ones, too long VARCHARs, errors.)"""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            for mode, sql in SQL_MODE_STATEMENTS:
                cur.execute("SET SESSION sql_mode = %s", (mode,))
                cur.execute(sql)
            cur.execute("SET SESSION sql_mode = DEFAULT")
            cur.execute("INSERT INTO q4 (a) VALUES (5)")
            cur.execute("INSERT INTO q11 (a) VALUES (5)")
        events = list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            snapshot = reader_for(server, f"{db}.*").catalog  # (a bootstrap reads them)
            for name in [f"q{i}" for i in range(1, 13)]:
                shown = parse_table(show_create_table(conn, name), replica=True)
                for catalog in (reader.catalog, snapshot):
                    table = catalog.table(f"{db}.{name}")
                    assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    # || binds tighter than ^ there: (5 || 1) ^ 2 is 51 ^ 2; -5 || 3 is -53
    assert [e.row for e in events if e.kind == "insert"] == [
        {"a": 5, "b": 49, "c": -53},
        {"a": 5, "b": 1, "c": 0},  # (NOT 5) BETWEEN -1 AND 1, (NOT 5) = 2
    ]


@pytest.mark.parametrize(
    ("mode", "sql", "word"),
    [
        ("ORACLE", "CREATE TABLE r (a VARCHAR2(9))", "ORACLE"),
        ("MAXDB", "CREATE TABLE r (a TIMESTAMP)", "MAXDB"),
    ],
)
def test_a_statement_under_a_sql_mode_mvdd_does_not_model_is_refused(
    binlog_server: MariaDB, mode: str, sql: str, word: str
) -> None:
    """A DDL whose session's sql_mode changes it in a way mvdd does not model is refused
    where it stands, naming the mode (and skipped with the other unsupported statements
    under ``on_unsupported="skip"``), never read in the default mode."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            cur.execute("SET SESSION sql_mode = %s", (mode,))
            cur.execute(sql)
        with pytest.raises(UnsupportedDDLError, match=word) as info:
            list(reader.events())
        assert info.value.position is not None and info.value.statement == sql


@pytest.mark.parametrize("server", SERVERS, indirect=True)
def test_uuid_and_inet_values_decode_as_the_server_prints_them(server: MariaDB) -> None:
    """MariaDB's UUID, INET4 and INET6 columns are followed: their rows decode to the text the
    server prints, through a change of type from and to a string and a binary string."""
    with database(server) as db:
        reader = reader_for(server, f"{db}.p")
        with Script(server, db) as s:
            s.ddl(
                "CREATE TABLE p (id INT PRIMARY KEY, u UUID, i4 INET4 NOT NULL DEFAULT '0.0.0.1', "
                "i6 INET6(16), KEY (u), UNIQUE (i6))",
                "p",
                new=("p",),
            )
            for key, (u, i4, i6) in enumerate(PLUGIN_ROWS, start=1):
                s.insert("p", f"INSERT INTO p VALUES ({key}, '{u}', '{i4}', '{i6}')", key)
            s.insert("p", "INSERT INTO p (id) VALUES (9)", 9)
            # bytes in the server's sortable layout of a UUID: read in that layout
            s.insert(
                "p", "INSERT INTO p (id, u) VALUES (8, x'123e4567e89b82d30456426655440000')", 8
            )
            s.update("p", "UPDATE p SET u = NULL, i6 = '::ffff:0:0' WHERE id = 1", 1)
            s.ddl("ALTER TABLE p MODIFY u CHAR(36), MODIFY i4 BINARY(4)", "p")
            s.insert("p", "INSERT INTO p VALUES (10, 'a-b', x'0a000001', NULL)", 10)
            s.ddl("ALTER TABLE p MODIFY i4 INET4", "p")
            s.delete("p", "DELETE FROM p WHERE id = 10", 10)
            s.ddl("ALTER TABLE p MODIFY u UUID", "p")
            s.update("p", "UPDATE p SET i4 = '1.0.0.0' WHERE id = 2", 2)
            events = list(reader.events())
        assert decoded(events) == s.expected
        first = events[1].row
        assert first is not None and first["u"] == "6ccd780c-baba-1026-9564-5b8c656024db"
        with contextlib.closing(server.connect(db)) as conn:
            shown = parse_table(show_create_table(conn, "p"))
        assert reader.catalog.table(f"{db}.p").equivalent(shown)


#: a table of a kind mvdd does not model (an application-time period)
_PERIOD_TABLE = (
    "CREATE TABLE p (id INT PRIMARY KEY, s DATE NOT NULL DEFAULT '2020-01-01', "
    "e DATE NOT NULL DEFAULT '2021-01-01', PERIOD FOR pp (s, e))"
)


def test_rows_of_a_table_whose_create_was_skipped_are_skipped_across_a_restart(
    binlog_server: MariaDB, tmp_path: Any
) -> None:
    """With on_unsupported="skip", tables with an application-time period, created before
    the reader started or in its binlog, are untracked:
    their rows are skipped, a reopened catalog still knows it, and a name that later gets a
    table of a kind mvdd models is read again."""
    server = binlog_server
    path = str(tmp_path / "catalog.db")
    periodic = (  # (of an application-time period, as _PERIOD_TABLE)
        "CREATE TABLE {} (id INT PRIMARY KEY, s DATE NOT NULL DEFAULT '2020-01-01', "
        "e DATE NOT NULL DEFAULT '2021-01-01', PERIOD FOR pp (s, e))"
    )
    with database(server) as db:
        server.execute(
            periodic.format("pre"),
            "CREATE TABLE keep (id BIGINT PRIMARY KEY)",
            database=db,
        )
        with Script(server, db) as s:
            s.versions[f"{db}.keep"] = 1
            with Catalog.open(path, on_unsupported="skip") as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog)
                reader.check()  # bootstrap: `pre` is skipped, and untracked
                s.sql(
                    periodic.format("s"),
                    "INSERT INTO s (id) VALUES (1)",
                    "INSERT INTO pre (id) VALUES (1)",
                    _PERIOD_TABLE,
                    "INSERT INTO p (id) VALUES (1)",
                    periodic.format("x"),
                    "INSERT INTO x (id) VALUES (1)",
                )
                s.insert("keep", "INSERT INTO keep VALUES (102)", 102)
                events = list(reader.events())
                assert decoded(events) == s.expected
                reader.checkpoint(events[-1].commit)
                untracked = catalog.store.get_state(UNTRACKED)
            assert sorted(untracked) == sorted(f"{db}.{t}" for t in ("pre", "s", "p", "x"))
            s.expected.clear()
            s.sql("INSERT INTO s (id) VALUES (2)", "INSERT INTO pre (id) VALUES (2)")
            s.sql("INSERT INTO p (id) VALUES (2)")
            s.insert("keep", "INSERT INTO keep VALUES (7)", 7)
            s.sql("DROP TABLE s")
            s.ddl("CREATE TABLE s (id INT PRIMARY KEY, v INT)", "s", new=("s",))
            s.insert("s", "INSERT INTO s VALUES (1, 2)", 1)
            with Catalog.open(path, on_unsupported="skip") as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog)
                assert decoded(reader.events()) == s.expected


def test_a_sequence_is_a_table_whose_rows_decode(binlog_server: MariaDB) -> None:
    """MariaDB's sequences are tables of one row (mvdd.ddl.sequence): a reader following their
    database never stops on CREATE, ALTER or DROP SEQUENCE; the rows NEXTVAL and SETVAL write
    decode as the server stores them (read back with SELECT); ALTER SEQUENCE, which the binlog
    logs as its statement alone, adds no version; and a bootstrap takes a sequence made before
    it from the server's SHOW CREATE TABLE, its engine and comment kept."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE SEQUENCE pre START 5 CACHE 2 ENGINE=Aria COMMENT 'first'", database=db
        )
        reader = reader_for(server, f"{db}.*")
        expected: list[tuple[str, str, int, Any]] = []
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            pre = reader.catalog.table(f"{db}.pre")
            assert (pre.options.engine, pre.options.comment) == ("Aria", "first")
            shown = parse_table(show_create_table(conn, "pre"), replica=True)
            assert as_shown(pre).equivalent(shown, ignore_order=False), pre.differences(shown)

            def run(sql: str, *events: tuple[str, str, int]) -> None:
                cur.execute(sql)
                for kind, name, version in events:
                    row = None
                    if kind == "insert":  # (the sequence's one row, as the server keeps it)
                        cur.execute(f"SELECT * FROM {quote(name)}")
                        columns = [c[0] for c in cur.description]
                        row = dict(zip(columns, cur.fetchone(), strict=True))
                    expected.append((kind, f"{db}.{name}", version, row))

            run("CREATE SEQUENCE s START WITH 10 INCREMENT BY 5 CACHE 3", ("ddl", "s", 1))
            run("SELECT NEXTVAL(s)", ("insert", "s", 1))
            run("SELECT NEXTVAL(pre)", ("insert", "pre", 1))
            run("ALTER SEQUENCE s RESTART WITH 100 INCREMENT 2")
            run("SELECT SETVAL(s, 500)", ("insert", "s", 1))
            run("ALTER TABLE s COMMENT 'renumbered'", ("ddl", "s", 2))
            run("DROP SEQUENCE s, pre", ("ddl", "s", 3), ("ddl", "pre", 2))
            run("CREATE TABLE t (id INT PRIMARY KEY)", ("ddl", "t", 1))
            run("DROP SEQUENCE IF EXISTS t")  # (not a sequence: the server passes over it)
            run("CREATE OR REPLACE SEQUENCE t NOCYCLE", ("ddl", "t", 2), ("ddl", "t", 1))
            shown = parse_table(show_create_table(conn, "t"), replica=True)
        got = [(str(e.kind), e.table, e.version, e.row) for e in reader.events()]
        assert got == expected
        assert as_shown(reader.catalog.table(f"{db}.t")).equivalent(shown, ignore_order=False)


#: statements on system-versioned tables, each one transaction: rows written, changed and
#: deleted, their history deleted, the tables altered (a session keeping their history), copied,
#: their versioning dropped and added again
VERSIONED_STATEMENTS = [
    "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), n INT WITHOUT SYSTEM VERSIONING, "
    "b BLOB, UNIQUE (b)) WITH SYSTEM VERSIONING",
    "INSERT INTO t VALUES (1, 'one', 1, 'x1'), (2, 'two', 2, 'x2'), (3, 'three', 3, 'x3')",
    "UPDATE t SET a = 'uno' WHERE id = 1",
    "UPDATE t SET n = n + 10",  # (only a column without versioning: no history row)
    "DELETE FROM t WHERE id = 2",
    "REPLACE INTO t VALUES (3, 'drei', 30, 'x3')",
    "INSERT INTO t VALUES (2, 'again', 2, 'x2b') ON DUPLICATE KEY UPDATE a = 'dup'",
    "UPDATE pre SET v = v * 2",
    "DELETE HISTORY FROM t BEFORE SYSTEM_TIME NOW(6)",
    "DELETE FROM pre",
    "ALTER TABLE t ADD COLUMN c INT DEFAULT 5 AFTER id",
    "UPDATE t SET c = id WHERE id > 1",
    "ALTER TABLE t DROP COLUMN n",
    "CREATE TABLE u LIKE t",
    "INSERT INTO u SELECT * FROM t",
    "DELETE FROM u WHERE id = 1",
    "ALTER TABLE t DROP SYSTEM VERSIONING",
    "UPDATE t SET a = 'plain' WHERE id = 1",
    "DELETE FROM t WHERE id = 3",
    "ALTER TABLE t ADD SYSTEM VERSIONING",
    "UPDATE t SET a = 'after' WHERE id = 1",
    "DELETE HISTORY FROM t",
    "INSERT INTO pre VALUES (7, 70)",
    # period columns of the table's own: TIMESTAMP(6), and InnoDB's transaction ids
    "CREATE TABLE w (id INT PRIMARY KEY, v INT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, "
    "e TIMESTAMP(6) GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) "
    "WITH SYSTEM VERSIONING",
    "CREATE TABLE x (id INT PRIMARY KEY, v INT, s BIGINT UNSIGNED GENERATED ALWAYS AS ROW START, "
    "e BIGINT UNSIGNED GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) "
    "WITH SYSTEM VERSIONING",
    "INSERT INTO w (id, v) VALUES (1, 1), (2, 2), (3, 3)",
    "UPDATE w SET v = v + 10 WHERE id < 3",
    "DELETE FROM w WHERE id = 2",
    "ALTER TABLE w ADD COLUMN z INT DEFAULT 9",
    "UPDATE w SET z = id",
    "DELETE HISTORY FROM w",
    # rows written with their period (MariaDB 10.11's system_versioning_insert_history, as a
    # restore of a table's history writes them): a past one is no current row's change
    "SET SESSION system_versioning_insert_history = ON",
    "INSERT INTO w (id, v, s, e) VALUES (20, 1, '2001-01-01', '2002-01-01'), "
    "(21, 2, '2001-01-01', '2038-01-19 03:14:07.999999')",
    "INSERT INTO w (id, v, s, e) VALUES (1, 0, '2000-01-01', '2000-06-01')",
    "INSERT INTO pre (id, v, row_start, row_end) VALUES (8, 80, '2001-01-01', '2001-02-02'), "
    "(9, 90, '2001-01-01', '2038-01-19 03:14:07.999999')",
    "SET SESSION system_versioning_insert_history = OFF",
    # (the server logs a change to a table versioned by transaction ids as its statement: see
    # test_a_table_versioned_by_transaction_ids_stops_the_reader_at_its_rows)
    "ALTER TABLE x DROP SYSTEM VERSIONING, DROP COLUMN s, DROP COLUMN e",
    "INSERT INTO x VALUES (1, 1), (2, 2)",
    "UPDATE x SET v = 0 WHERE id = 2",
    # partitioned by SYSTEM_TIME: its past rows kept apart from its current ones
    "CREATE TABLE hp (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING PARTITION BY SYSTEM_TIME "
    "INTERVAL 1 HOUR (PARTITION p0 HISTORY, PARTITION p1 HISTORY, PARTITION pn CURRENT)",
    "INSERT INTO hp VALUES (1, 1), (2, 2)",
    "UPDATE hp SET v = 5 WHERE id = 1",
    "DELETE FROM hp WHERE id = 2",
    "ALTER TABLE hp DROP PARTITION p0",
    "INSERT INTO hp VALUES (3, 3)",
]


def upgraded(catalog: Catalog, name: str, version: int, rows: dict[Any, dict[str, Any]]) -> None:
    """Rows of a table's version before ``version`` (by column name), as rows of ``version``:
    the columns it dropped gone, the ones it added filled as the server fills existing rows
    (:func:`mvdd.model.row.upgrade_row`), the others as they were (the statements here change
    no type)."""
    old, new = (catalog.table(name, version=v) for v in (version - 1, version))
    ids = {c.name: c.id for c in old.columns}
    names = {c.id: c.name for c in new.columns}
    for key, row in rows.items():
        up = upgrade_row({ids[n]: v for n, v in row.items()}, old, new)
        rows[key] = {names[i]: row.get(names[i], v) for i, v in up.items()}


def test_a_system_versioned_table_reads_as_its_current_rows(binlog_server: MariaDB) -> None:
    """MariaDB's system-versioned tables (the server keeps each row's past versions, two hidden
    columns in every row, and logs the past versions it writes as rows): a reader following
    them stops on none of :data:`VERSIONED_STATEMENTS`, and its events are the changes to the
    tables' current rows: applied in order to the rows a query read when it started, they give
    after each statement what a query of the server reads (the oracle), a table made before
    the reader (its bootstrap) included."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE pre (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING",
            "INSERT INTO pre VALUES (1, 10), (2, 20)",
            "UPDATE pre SET v = 11 WHERE id = 1",
            database=db,
        )
        reader = reader_for(server, f"{db}.*")
        assert reader.catalog.table(f"{db}.pre").options.versioned
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:

            def current() -> dict[str, dict[Any, dict[str, Any]]]:
                out = {}
                cur.execute("SHOW TABLES")
                for (name,) in cur.fetchall():
                    cur.execute(f"SELECT * FROM {quote(name)}")
                    names = [c[0] for c in cur.description]
                    out[f"{db}.{name}"] = {r[0]: dict(zip(names, r, strict=True)) for r in cur}
                return out

            replayed = current()
            cur.execute("SET SESSION system_versioning_alter_history = KEEP")
            for sql in VERSIONED_STATEMENTS:
                cur.execute(sql)
                for tx in reader.transactions():
                    for e in tx.events:
                        rows = replayed.setdefault(e.table, {})
                        if e.kind == "ddl":
                            if e.version > 1:  # (the rows as of the new version: a column added)
                                upgraded(reader.catalog, e.table, e.version, rows)
                            continue
                        row = e.row
                        assert row is not None
                        if e.kind == "delete":
                            del rows[row["id"]]
                            continue
                        if e.before is not None:
                            del rows[e.before["id"]]
                        rows[row["id"]] = row
                got = {name: rows for name, rows in replayed.items() if rows}
                assert got == {name: rows for name, rows in current().items() if rows}, sql
            for name in ("t", "u", "pre", "w", "x"):
                shown = parse_table(show_create_table(conn, name), replica=True)
                ours = as_shown(reader.catalog.table(f"{db}.{name}"))
                assert ours.equivalent(shown, ignore_order=False), ours.differences(shown)


def test_a_table_versioned_by_transaction_ids_stops_the_reader_at_its_rows(
    binlog_server: MariaDB,
) -> None:
    """MariaDB logs a change to a table system-versioned by InnoDB's transaction ids (ROW START
    and ROW END ``BIGINT UNSIGNED``) as its statement, even under ``binlog_format=ROW``: a
    reader following it takes its CREATE, and stops at its first change, whose rows are not in
    the binlog (a SourceConfigError naming the statement), rather than lose them."""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        server.execute(
            "CREATE TABLE x (id INT PRIMARY KEY, s BIGINT UNSIGNED GENERATED ALWAYS AS ROW START, "
            "e BIGINT UNSIGNED GENERATED ALWAYS AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) "
            "WITH SYSTEM VERSIONING",
            "INSERT INTO x (id) VALUES (1)",
            database=db,
        )
        with pytest.raises(SourceConfigError) as info:
            list(reader.events())
        assert "transaction ids" in str(info.value) and "INSERT INTO x" in str(info.value)
        assert reader.catalog.table(f"{db}.x").column("e").row_period == "END"


def test_statements_on_an_untracked_table_are_skipped_and_a_rename_untracks_its_new_name(
    binlog_server: MariaDB, tmp_path: Any
) -> None:
    """With on_unsupported="skip", the ALTERs of a table whose CREATE was skipped (one with an
    application-time period), one that changes nothing included, are skipped rather than stopping the reader; a
    rename untracks the new name, whose rows are skipped too, and a DROP of it is skipped."""
    server = binlog_server
    with database(server) as db:
        server.execute("CREATE TABLE keep (id BIGINT PRIMARY KEY)", database=db)
        with Script(server, db) as s:
            s.versions[f"{db}.keep"] = 1
            with Catalog.open(str(tmp_path / "catalog.db"), on_unsupported="skip") as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog)
                reader.check()
                s.sql(
                    _PERIOD_TABLE,
                    "INSERT INTO p (id) VALUES (1)",
                    "ALTER TABLE p FORCE",
                    "ALTER TABLE p ADD c INT",
                    "ALTER TABLE p RENAME TO q",
                    "INSERT INTO q (id, c) VALUES (2, 3)",
                    "DROP TABLE q",
                )
                s.insert("keep", "INSERT INTO keep VALUES (7)", 7)
                assert decoded(reader.events()) == s.expected
                assert sorted(catalog.store.get_state(UNTRACKED)) == [f"{db}.p", f"{db}.q"]
                assert catalog.tables() == [f"{db}.keep"]


_SERVER_RULES_TABLE = (
    "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, "
    "at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "
    "seen TIMESTAMP(6) NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, "
    "doc JSON DEFAULT 'none', twice INT AS (id * 2) VIRTUAL, fine DECIMAL(40,35) DEFAULT 0.125, "
    "touched DATETIME DEFAULT NOW() ON UPDATE NOW(), pie DOUBLE DEFAULT (PI()))"
)


def test_statements_only_the_servers_rules_take_keep_the_reader_going(
    binlog_server: MariaDB,
) -> None:
    """Everyday MariaDB DDL that mvdd's own rules refuse (mvdd.ddl.rules.STRICTER): a DATETIME(3)
    whose DEFAULT is a plain CURRENT_TIMESTAMP, a JSON column's DEFAULT that is not JSON, an
    ALTER … SET DEFAULT of a generated or AUTO_INCREMENT column, a VIRTUAL column over the
    counter, a NOT NULL column added without a default; and MariaDB's own way of dropping the
    ON UPDATE of a column whose CURRENT_TIMESTAMP default an ALTER replaces and of keeping a
    DEFAULT of PI() as its value (the reader knows its server's flavor, mvdd.ddl.rules.MARIADB);
    a table with foreign keys. The reader follows
    the server through
    each, its table ends as the server's, and a bootstrap from a snapshot of the server holds
    the same table."""
    with database(binlog_server) as db:
        reader = reader_for(binlog_server, f"{db}.*")
        with Script(binlog_server, db) as s:
            s.ddl(_SERVER_RULES_TABLE, "t", new=("t",))
            s.insert(
                "t", "INSERT INTO t (id, at, doc) VALUES (1, '2026-01-02 03:04:05.678', '{}')", 1
            )
            s.ddl("ALTER TABLE t ALTER twice SET DEFAULT 5, ALTER id SET DEFAULT 9")
            s.ddl("ALTER TABLE t ADD n INT NOT NULL, ALTER at SET DEFAULT NOW(6)", "t")
            s.ddl("ALTER TABLE t MODIFY seen DATETIME(2) NULL ON UPDATE NOW()", "t")
            s.ddl("ALTER TABLE t ALTER touched SET DEFAULT '2020-01-01'", "t")
            s.insert("t", "INSERT INTO t (id, doc, n, fine) VALUES (2, '[1]', 7, -1.5e-35)", 2)
            s.ddl(
                "CREATE TABLE c (id INT PRIMARY KEY, t_id INT REFERENCES t (id), "
                "CONSTRAINT c_t FOREIGN KEY k (t_id) REFERENCES t (id) ON DELETE CASCADE)",
                "c",
                new=("c",),
            )
            s.insert("c", "INSERT INTO c VALUES (1, 2)", 1)
            s.ddl("ALTER TABLE c DROP FOREIGN KEY c_t, ADD KEY k2 (t_id, id)", "c")
        assert decoded(reader.events()) == s.expected
        followed = reader.catalog.table(f"{db}.t")
        with contextlib.closing(binlog_server.connect(db)) as conn:
            shown, child = (
                parse_table(show_create_table(conn, name), replica=True) for name in ("t", "c")
            )
        assert followed.equivalent(shown, ignore_order=False), followed.differences(shown)
        assert str(followed.column("at").default) == "CURRENT_TIMESTAMP(3)"
        assert followed.column("doc").default == "none"
        assert followed.column("touched").on_update is None
        assert followed.column("pie").default == 3.141592653589793  # (MariaDB keeps its value)
        # the foreign keys' keys: the column's own REFERENCES made `t_id`, which k2 replaced
        assert [i.name for i in reader.catalog.table(f"{db}.c").indexes] == ["PRIMARY", "k2"]
        assert reader.catalog.table(f"{db}.c").equivalent(child, ignore_order=False)
        snapshot = reader_for(binlog_server, f"{db}.*")
        snapshot.check()
        assert snapshot.catalog.table(f"{db}.t").equivalent(followed, ignore_order=False)


def test_a_two_digit_year_is_read_as_the_years_it_stores(binlog_server: MariaDB) -> None:
    """MariaDB's YEAR(2), which mvdd's own rules refuse, keeps the reader going: its rows are
    decoded as the years the server stores, which the server itself shows once the column is a
    YEAR (the oracle; a SELECT of YEAR(2) shows two digits), and its defaults as the years the
    server's SHOW CREATE TABLE names, which a snapshot reads too."""
    with database(binlog_server) as db:
        reader = reader_for(binlog_server, f"{db}.*")
        binlog_server.execute(
            "CREATE TABLE y (id INT PRIMARY KEY, a YEAR(2), b YEAR(2) NOT NULL DEFAULT 1901)",
            "INSERT INTO y (id, a) VALUES (1, 69), (2, 1901), (3, '0000'), (4, 0), (5, 2155)",
            "INSERT INTO y VALUES (6, 1970, '70'), (7, NULL, 99)",
            "ALTER TABLE y ALTER a SET DEFAULT 1969",
            database=db,
        )
        events = list(reader.events())
        inserted = [e.row for e in events if str(e.kind) == "insert" and e.row is not None]
        rows = {row["id"]: (row["a"], row["b"]) for row in inserted}
        followed = reader.catalog.table(f"{db}.y")
        snapshot = reader_for(binlog_server, f"{db}.*").catalog.table(f"{db}.y")
        binlog_server.execute("ALTER TABLE y MODIFY a YEAR, MODIFY b YEAR NOT NULL", database=db)
        with contextlib.closing(binlog_server.connect(db)) as conn, conn.cursor() as cur:
            cur.execute("SELECT id, a, b FROM y")
            stored = {i: (a, b) for i, a, b in cur.fetchall()}
    assert rows == stored
    assert rows[2] == (1901, 1901) and rows[3] == (0, 1901) and rows[4] == (2000, 1901)
    assert [c.type.width for c in followed.columns] == [None, 2, 2]
    assert (followed.column("a").default, followed.column("b").default) == (2069, 2001)
    assert snapshot.equivalent(followed, ignore_order=False)


def _followed_and_shown(
    server: MariaDB, db: str, table: str, statements: list[str], columns: str
) -> tuple[dict[Any, dict[str, Any]], Table, Table, dict[Any, tuple[Any, ...]]]:
    """``statements`` run in ``db`` while a reader follows ``db.*``: the rows its insert events
    decode (by ``id``), the ``table`` it followed, the one a snapshot of the server reads, and
    the server's rows (``id`` -> the ``columns`` a SELECT shows)."""
    reader = reader_for(server, f"{db}.*")
    server.execute(*statements, database=db)
    rows = {e.row["id"]: e.row for e in reader.events() if str(e.kind) == "insert" and e.row}
    followed = reader.catalog.table(f"{db}.{table}")
    snapshot = reader_for(server, f"{db}.*").catalog.table(f"{db}.{table}")
    with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT id, {columns} FROM {table}")
        shown = {row[0]: tuple(row[1:]) for row in cur.fetchall()}
    return rows, followed, snapshot, shown


#: a table of ENUM and SET members written as hex or bit literals, in a latin1 database
WRITTEN_AS_BYTES = [
    "CREATE TABLE m (id INT PRIMARY KEY, e ENUM(0xE9, 'b'), s SET(0x61, b'1100010'), "
    "u ENUM(0xC3A9, 0x78) CHARACTER SET utf8mb4)",
    "INSERT INTO m VALUES (1, 1, 'a,b', 2), (2, 'b', '', 1)",
    "ALTER TABLE m ADD g ENUM(0x61, 0xE8) DEFAULT 'è'",
    "INSERT INTO m (id, e) VALUES (3, 0xE9)",
]


def test_members_written_as_bytes_are_read_as_the_server_reads_them(binlog_server: MariaDB) -> None:
    """ENUM and SET members written as hex or bit literals keep the reader going: each is the
    text its bytes spell in its column's charset (its own, or its table's), so the rows decode
    as the labels the server shows (the oracle: a SELECT of the same rows), and the schema
    followed is the one a snapshot of the server reads."""
    with database(binlog_server, charset="latin1") as db:
        rows, followed, snapshot, shown = _followed_and_shown(
            binlog_server, db, "m", WRITTEN_AS_BYTES, "e, s, u"
        )
    joined = {i: None if r["s"] is None else ",".join(sorted(r["s"])) for i, r in rows.items()}
    assert {i: (r["e"], joined[i], r["u"]) for i, r in rows.items()} == shown
    assert rows[1]["u"] == "x" and rows[2]["u"] == "é" and rows[3]["g"] == "è"
    assert followed.column("e").type.members == ("é", "b")
    assert snapshot.equivalent(followed, ignore_order=False)


#: a table of collations the server resolves, in a utf8mb3 database
SERVER_COLLATIONS = [
    "CREATE TABLE c (id INT PRIMARY KEY, a VARCHAR(5) COLLATE uca1400_ai_ci, "
    "e ENUM('и', 'й') CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci, "
    "p SET('a', 'ą') CHARACTER SET utf8mb4 COLLATE utf8mb4_polish_ci, "
    "v VARBINARY(4) COLLATE utf8mb4_bin, KEY k (a(5)))",
    "INSERT INTO c VALUES (1, 'Ab', 'й', 'ą', 'xé'), (2, 'c', 'и', 'a,ą', NULL)",
    "ALTER TABLE c ADD b TEXT COLLATE uca1400_as_ci, MODIFY a VARCHAR(9) COLLATE uca1400_ai_ci",
    "INSERT INTO c (id, b, a) VALUES (3, 'ü', 'longer')",
]


def test_collations_the_server_resolves_keep_the_reader_going(binlog_server: MariaDB) -> None:
    """A table of collations named without their charset (a utf8mb3 table's ``COLLATE
    uca1400_ai_ci``), of ENUM members a looser key would make one (``и`` and ``й`` under
    utf8mb4_unicode_ci, ``a`` and ``ą`` under utf8mb4_polish_ci), of a binary string given a
    COLLATE (a VARCHAR to the server) and of a key prefix as long as its column: the reader
    follows it, the rows decode as a SELECT shows them, and the schema followed is the one a
    snapshot of the server reads."""
    with database(binlog_server, charset="utf8mb3") as db:
        rows, followed, snapshot, shown = _followed_and_shown(
            binlog_server, db, "c", SERVER_COLLATIONS, "a, e, p, v"
        )
    joined = {i: None if r["p"] is None else ",".join(sorted(r["p"])) for i, r in rows.items()}
    assert {i: (r["a"], r["e"], joined[i], r["v"]) for i, r in rows.items()} == shown
    assert followed.column("a").type.collation == "utf8mb3_uca1400_ai_ci"
    assert followed.column("b").type.collation == "utf8mb3_uca1400_as_ci"
    assert followed.column("v").type.kind == "VARCHAR"
    key = followed.find_index("k")
    assert key is not None and key.parts[0].length is None
    assert snapshot.equivalent(followed, ignore_order=False)


# --- starting, resuming, reconnecting ----------------------------------------------------------


def test_bootstrap_takes_every_table_and_the_position_of_one_snapshot(
    binlog_server: MariaDB,
) -> None:
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE orders_1 (id INT PRIMARY KEY, a INT)",
            "CREATE TABLE orders_2 (id INT PRIMARY KEY, b VARCHAR(3))",
            "CREATE TABLE _orders_1_gho LIKE orders_1",  # a tool's ghost: known, not matched
            "INSERT INTO orders_1 VALUES (1, 1)",
            database=db,
        )
        reader = BinlogReader(server.url(), tables=f"{db}.orders_*")
        reader.check()
        catalog = reader.catalog
        assert catalog.tables() == sorted(
            f"{db}.{t}" for t in ("orders_1", "orders_2", "_orders_1_gho")
        )
        snapshot = reader.position
        assert all(catalog.history(t)[0].position == snapshot for t in catalog.tables())
        assert catalog.version(f"{db}.orders_1") == 1
        server.execute("INSERT INTO orders_2 VALUES (1, 'x')", database=db)
        events = list(reader.events())
    # the row written before the snapshot is not an event; the one after it is
    assert [(e.kind, e.table, e.row) for e in events] == [
        ("insert", f"{db}.orders_2", {"id": 1, "b": "x"})
    ]


def test_a_bootstrap_killed_half_way_finishes_from_the_same_snapshot(
    binlog_server: MariaDB, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = binlog_server
    with database(server) as db:
        server.execute(
            *(f"CREATE TABLE t{i} (id INT PRIMARY KEY, v INT)" for i in range(4)), database=db
        )
        path = str(tmp_path / "catalog.db")
        catalog = Catalog.open(path)
        recorded: list[str] = []
        real = Catalog.execute

        def dies_after_two(self: Catalog, sql: str, **kw: Any) -> Any:
            if len(recorded) == 3:  # the database and two tables recorded, then killed
                raise KeyboardInterrupt
            recorded.append(sql)
            return real(self, sql, **kw)

        monkeypatch.setattr(Catalog, "execute", dies_after_two)
        with pytest.raises(KeyboardInterrupt):
            BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog).check()
        monkeypatch.setattr(Catalog, "execute", real)
        catalog.close()
        server.execute(
            "ALTER TABLE t3 ADD COLUMN w INT", "INSERT INTO t3 VALUES (1, 2, 3)", database=db
        )
        with Catalog.open(path) as again:
            reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=again)
            events = list(reader.events())
            assert again.tables() == [f"{db}.t{i}" for i in range(4)]
    assert [(str(e.kind), e.table, e.version) for e in events] == [
        ("ddl", f"{db}.t3", 2),
        ("insert", f"{db}.t3", 2),
    ]


def _write_until(server: MariaDB, db: str, stop: threading.Event, done: list[int]) -> None:
    """Small transactions over two tables (inserts, updates, deletes) until ``stop``; one
    seed, so a failure repeats."""
    rng = random.Random(20261124)
    with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
        while not stop.is_set():
            cur.execute("BEGIN")
            for _ in range(rng.randint(1, 4)):
                table, key = rng.choice("ab"), rng.randrange(200)
                cur.execute(
                    rng.choice(
                        [
                            f"REPLACE INTO {table} VALUES ({key}, {rng.randrange(1000)})",
                            f"UPDATE {table} SET v = v + 1 WHERE id = {key}",
                            f"DELETE FROM {table} WHERE id = {key}",
                        ]
                    )
                )
            cur.execute("COMMIT")
            done.append(1)


def _server_rows(server: MariaDB, db: str, table: str) -> dict[int, int]:
    with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT id, v FROM {table}")
        return {int(k): int(v) for k, v in cur.fetchall()}


@pytest.mark.parametrize("method", ["consistent", "locked"])
def test_a_snapshot_holds_the_rows_at_its_position_while_writes_go_on(
    binlog_server: MariaDB, method: str
) -> None:
    """Rows read in the snapshot, then the binlog from its position applied to them, equal
    the server's rows (the oracle): the position is exact for either method."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE a (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE b (id INT PRIMARY KEY, v INT)",
            database=db,
        )
        stop, done = threading.Event(), list[int]()
        writer = threading.Thread(target=_write_until, args=(server, db, stop, done))
        writer.start()
        try:
            while len(done) < 200:
                time.sleep(0.01)
            reader = BinlogReader(f"{server.url()}&snapshot={method}", tables=f"{db}.*")
            assert reader.source.snapshot_method == method
            with reader.snapshot() as rows:
                held = {
                    t: {k: v for chunk in rows.rows((db, t), ["id", "v"], ["id"]) for k, v in chunk}
                    for t in "ab"
                }
                assert reader.catalog.history(f"{db}.a")[0].position == rows.position
            seen = len(done)
            while len(done) < seen + 200:
                time.sleep(0.01)
        finally:
            stop.set()
            writer.join()
        for ev in reader.events():
            table, row = held[ev.table.partition(".")[2]], ev.row or {}
            if ev.kind in ("update", "delete"):
                del table[(ev.before or row)["id"]]
            if ev.kind in ("insert", "update"):
                table[row["id"]] = row["v"]
        assert held == {t: _server_rows(server, db, t) for t in "ab"}


@pytest.mark.parametrize("method", ["consistent", "locked"])
def test_a_snapshot_of_one_table_reads_and_locks_that_table_alone(
    binlog_server: MariaDB, method: str
) -> None:
    """A shard read again takes a snapshot of its one table (its name taken as it is, not as
    a pattern: `[1]` is no class of characters): only that table's schema is read and only
    its metadata lock held while the rows are read, so DDL on the other tables of its
    database commits meanwhile, where it once waited for the whole read."""
    server = binlog_server
    with database(server) as db:
        server.execute(
            "CREATE TABLE `orders[1]` (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE orders1 (id INT PRIMARY KEY, v INT)",
            "INSERT INTO `orders[1]` VALUES (1, 10), (2, 20)",
            database=db,
        )
        source = Source(f"{server.url()}&snapshot={method}")
        with source.snapshot_session((), table=(db, "orders[1]")) as (snap, rows):
            assert [(d, t) for d, t, _ in snap.tables] == [(db, "orders[1]")]
            assert [d for d, _ in snap.databases] == [db]
            held = [r for chunk in rows.rows((db, "orders[1]"), ["id", "v"], ["id"]) for r in chunk]
            assert held == [(1, 10), (2, 20)]
            with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
                cur.execute("SET SESSION lock_wait_timeout = 1")
                cur.execute("ALTER TABLE orders1 ADD COLUMN w INT")  # not held: it commits
                with pytest.raises(pymysql.err.OperationalError, match="Lock wait timeout"):
                    cur.execute("ALTER TABLE `orders[1]` ADD COLUMN w INT")
        with source.snapshot_session((), table=(db, "gone")) as (snap, _):
            assert snap.tables == ()


def test_the_locked_snapshot_names_what_refused_its_lock(binlog_server: MariaDB) -> None:
    """Without RELOAD, or behind a table another session holds, the read lock is refused with
    the reason; the catalog records nothing."""
    server = binlog_server
    privileges = "SELECT, REPLICATION SLAVE, BINLOG MONITOR"
    with account(server, "noreload", privileges) as weak, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY)", database=db)
        reader = BinlogReader(weak + "&snapshot=locked", tables=f"{db}.t")
        with pytest.raises(SourceConfigError, match="RELOAD privilege"):
            reader.check()
        assert reader.catalog.tables() == []
        # the same user reads with MariaDB's consistent snapshot, which locks nothing
        plain = BinlogReader(weak, tables=f"{db}.t")
        plain.check()
        assert plain.catalog.tables() == [f"{db}.t"]

        reader = BinlogReader(f"{server.url()}&snapshot=locked", tables=f"{db}.t")
        reader.source.lock_wait = 1
        with contextlib.closing(server.connect(db)) as holder, holder.cursor() as cur:
            cur.execute("LOCK TABLES t WRITE")
            with pytest.raises(SourceConfigError, match="held a table"):
                reader.check()
        assert reader.catalog.tables() == []


def test_an_unknown_snapshot_method_is_refused_before_connecting() -> None:
    with pytest.raises(SourceConfigError, match="snapshot='fast' is not one of"):
        BinlogReader("mysql://u@nowhere.invalid/?snapshot=fast", tables="a.b")


def test_resume_from_a_sqlite_catalog_repeats_and_misses_nothing(
    binlog_server: MariaDB, tmp_path: Any
) -> None:
    server = binlog_server
    path = str(tmp_path / "catalog.db")
    with database(server) as db:
        with Catalog.open(path) as catalog:
            BinlogReader(server.url(), tables=f"{db}.t", catalog=catalog).check()
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)", database=db)
        for i in range(30):
            statements = [
                f"INSERT INTO t (id, v) VALUES ({2 * i}, {i})",
                f"INSERT INTO t (id, v) VALUES ({2 * i + 1}, {i})",
            ]
            if i % 7 == 3:
                statements.append(f"ALTER TABLE t ADD COLUMN c{i} INT DEFAULT {i}")
            server.execute("BEGIN", *statements[:2], "COMMIT", *statements[2:], database=db)
        seen: list[Any] = []
        for stop_after in (13, 27, 10**6):  # three runs, each stopping mid-stream
            with Catalog.open(path) as catalog:
                reader = BinlogReader(server.url(), tables=f"{db}.t", catalog=catalog)
                done: list[Any] = []
                stopped = False
                for ev in reader.events():
                    done.append(ev)
                    if len(done) >= stop_after and ev.commit != ev.position:
                        stopped = True  # in the middle of a transaction
                        break
                # handled: every event of the transactions that ended before the stop
                handled = [e for e in done if not stopped or e.commit != done[-1].commit]
                if handled:
                    reader.checkpoint(handled[-1].commit)
                seen.extend(handled)
        inserted = [e.row["id"] for e in seen if e.kind == "insert"]
        assert inserted == list(range(60))  # each exactly once, in order
        assert [e.version for e in seen if e.kind == "ddl"] == list(range(1, 6))


def test_reconnects_from_the_last_transaction_end_after_a_server_restart(tmp_path: Any) -> None:
    with private_server(binlog=True, server_id=31) as server, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)", database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t", retry=60, heartbeat=0.5)
        reader.check()
        for i in range(40):
            server.execute(
                "BEGIN",
                f"INSERT INTO t VALUES ({2 * i}, 0)",
                f"INSERT INTO t VALUES ({2 * i + 1}, 0)",
                "COMMIT",
                database=db,
            )
        follow = reader.events(until=None)
        got = [next(follow) for _ in range(25)]  # stops inside a transaction
        server.restart(crash=True)  # SIGKILL: the stream's connection dies
        for i in range(40, 60):
            server.execute(
                f"INSERT INTO t VALUES ({2 * i}, 1)",
                f"UPDATE t SET v = 2 WHERE id = {2 * i}",
                database=db,
            )
        while len(got) < 80 + 40:
            got.append(next(follow))
        follow.close()
    inserted = [(e.row or {})["id"] for e in got if e.kind == "insert"]
    assert inserted == list(range(80)) + [2 * i for i in range(40, 60)]
    assert sum(1 for e in got if e.kind == "update") == 20
    assert got[-1].position.file != got[0].position.file  # the restart began a new binlog


def test_a_login_refused_at_a_reconnect_is_raised_not_waited_out(binlog_server: MariaDB) -> None:
    """The stream's connection dies and the account's password changed meanwhile: the
    reconnect's refused login is a SourceConfigError at once, not an outage waited for."""
    server = binlog_server
    privileges = "SELECT, RELOAD, REPLICATION SLAVE, BINLOG MONITOR"
    with account(server, "moving", privileges) as url, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY)", database=db)
        reader = BinlogReader(url, tables=f"{db}.t", retry=30, heartbeat=0.5)
        reader.check()
        server.execute("INSERT INTO t VALUES (1)", database=db)
        follow = reader.events(until=None)
        assert next(follow).kind == "insert"
        server.execute("ALTER USER 'moving'@'localhost' IDENTIFIED BY 'changed'")
        with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
            cur.execute("SELECT id FROM information_schema.processlist WHERE user = 'moving'")
            for (thread,) in cur.fetchall():
                cur.execute(f"KILL CONNECTION {int(thread)}")
        server.execute("INSERT INTO t VALUES (2)", database=db)
        with pytest.raises(SourceConfigError, match="Access denied") as info:
            next(follow)
        assert "unreachable" not in str(info.value)


def test_an_outage_is_waited_for_up_to_its_retry_seconds() -> None:
    tries = 0
    for retry in (0, 0.3):
        outage = Outage("a server", retry)
        with pytest.raises(SourceConfigError, match=f"unreachable for {retry:g} s: gone"):
            for tries in range(1, 100):  # noqa: B007
                outage.wait(OSError("gone"))
        # it gave up (retry 0: after one sleep of 0.1 s; 0.3: after sleeps of 0.1, 0.125 and
        # perhaps 0.156 s) rather than counting each try as a new outage
        assert tries == 2 if retry == 0 else 2 < tries < 5
    forever = Outage("a server", None)
    for _ in range(3):
        forever.wait(OSError("gone"))
    forever.over()
    assert forever.since is None
    # the error it gives up with is the caller's; a stop gives up at once with the lost error
    downstream = Outage("the downstream", 0, error=TargetLost)
    with pytest.raises(TargetLost, match="the downstream is unreachable for 0 s: gone"):
        for _ in range(3):
            downstream.wait(OSError("gone"))
    lost = OSError("gone")
    with pytest.raises(OSError) as raised:
        Outage("the downstream", None, stop=lambda: True).wait(lost)
    assert raised.value is lost


def test_a_source_waits_for_a_server_coming_back_and_gives_up_on_one_that_stays_away() -> None:
    with private_server(binlog=True, server_id=32) as server, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY)", database=db)
        patient, hasty = Source(server.url(), retry=120), Source(server.url(), retry=0.5)
        first = patient.end()
        assert hasty.end() == first
        server.halt()
        with pytest.raises(SourceConfigError, match=r"unreachable for 0\.5 s") as info:
            hasty.end()
        assert not isinstance(info.value, SourceLost)  # it waited: starting over is no cure
        back = threading.Timer(1.0, server.start)
        back.start()
        try:
            snap = patient.snapshot([f"{db}.*"])  # asked while the server is down
        finally:
            back.join()
        assert [t[1] for t in snap.tables] == ["t"]
        assert snap.position.file != first.file  # the restart began a new binlog
        assert patient.end() == snap.position


# --- the server's settings --------------------------------------------------------------------


@pytest.mark.parametrize(
    "setting,value,problem",
    [
        ("binlog_format", "STATEMENT", "binlog_format is STATEMENT"),
        ("binlog_format", "MIXED", "binlog_format is MIXED"),
        ("binlog_row_image", "MINIMAL", "binlog_row_image is MINIMAL"),
        ("binlog_row_image", "NOBLOB", "binlog_row_image is NOBLOB"),
    ],
)
def test_each_wrong_server_setting_is_a_source_config_error(
    binlog_server: MariaDB, setting: str, value: str, problem: str
) -> None:
    server = binlog_server
    with server.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW GLOBAL VARIABLES LIKE %s", (setting,))
        (_, before) = cur.fetchone()
    server.execute(f"SET GLOBAL {setting} = '{value}'")
    try:
        reader = BinlogReader(server.url(), tables="shop.*")
        with pytest.raises(SourceConfigError) as info:
            reader.check()
        assert any(problem in p for p in info.value.problems), info.value.problems
        assert reader.catalog.tables() == []  # nothing bootstrapped
    finally:
        server.execute(f"SET GLOBAL {setting} = '{before}'")


def test_a_server_without_binlog_and_bad_addresses_are_refused(
    mariadb: MariaDB, binlog_server: MariaDB
) -> None:
    with pytest.raises(SourceConfigError, match="binary log is off"):
        BinlogReader(mariadb.url(), tables="shop.*").check()
    with pytest.raises(SourceConfigError, match="cannot connect") as info:
        BinlogReader(binlog_server.url(password="wrong-pw"), tables="shop.*").check()
    assert "wrong-pw" not in str(info.value)
    with pytest.raises(SourceConfigError, match="cannot connect"):
        nowhere = "mysql://root@localhost/?unix_socket=/nonexistent.sock"
        BinlogReader(nowhere, tables="a.b", retry=0).check()
    with pytest.raises(SourceConfigError, match=r"database\.table"):
        BinlogReader(binlog_server.url(), tables="orders")
    with pytest.raises(SourceConfigError, match="no longer on the server"):
        BinlogReader(binlog_server.url(), tables="a.b", start="mysql-bin.000999:4").check()


def test_missing_privileges_are_listed(binlog_server: MariaDB) -> None:
    with account(binlog_server, "weak", "SELECT") as weak:
        with pytest.raises(SourceConfigError) as info:
            BinlogReader(weak, tables="shop.*").check()
        assert any("REPLICATION SLAVE" in p for p in info.value.problems)
        assert any("REPLICATION CLIENT" in p for p in info.value.problems)


@contextlib.contextmanager
def compressed_binlog(server: MariaDB) -> Iterator[None]:
    """The server compresses each event it can (``log_bin_compress``, from 10 bytes on); its
    settings as before afterwards."""
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SELECT @@global.log_bin_compress, @@global.log_bin_compress_min_len")
        was, least = cur.fetchone()
    server.execute("SET GLOBAL log_bin_compress = ON, GLOBAL log_bin_compress_min_len = 10")
    try:
        yield
    finally:
        server.execute(
            f"SET GLOBAL log_bin_compress = {int(was)}, GLOBAL log_bin_compress_min_len = {least}"
        )


def binlog_end(server: MariaDB) -> tuple[str, int]:
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
    return str(file), int(offset)


def event_types_since(server: MariaDB, since: tuple[str, int]) -> Counter[str]:
    """The types of the events the server's binlogs hold from ``since`` on, as the server
    names them (``SHOW BINLOG EVENTS``)."""
    kinds: Counter[str] = Counter()
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW BINARY LOGS")
        files = [str(row[0]) for row in cur.fetchall() if str(row[0]) >= since[0]]
        for file in files:
            offset = since[1] if file == since[0] else 4
            cur.execute(f"SHOW BINLOG EVENTS IN '{file}' FROM {offset}")
            kinds.update(str(row[2]) for row in cur.fetchall())
    return kinds


def test_compressed_events_read_as_the_events_they_compress(server: MariaDB) -> None:
    """With ``log_bin_compress`` the server writes its statements and rows compressed (zlib
    behind a header of its own); each decodes as it would uncompressed: the script's events
    (the server's rows read back) through every kind of DDL, rows of a few bytes to 300 KB
    (lengths of one to three bytes in the header, statements split into many events), updates
    (two column bitmaps before the rows) and deletes. The server says which events it
    compressed. (mvdd refused such a server.)"""
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        since = binlog_end(server)
        with compressed_binlog(server), Script(server, db) as script:
            every_ddl_kind(script)
            script.ddl(
                "CREATE TABLE big (id INT PRIMARY KEY, v LONGTEXT, b BLOB) COMMENT 'many rows'",
                "big",
                new=("big",),
            )
            script.insert(
                "big",
                "INSERT INTO big SELECT seq, REPEAT(CONCAT('row ', seq), seq % 50 + 1), "
                "UNHEX(SHA2(seq, 256)) FROM seq_1_to_400",
                *range(1, 401),
            )
            script.insert(
                "big", "INSERT INTO big VALUES (1000, REPEAT('0123456789', 30000), NULL)", 1000
            )
            script.update(
                "big", "UPDATE big SET v = CONCAT(v, '!') WHERE id <= 200", *range(1, 201)
            )
            script.delete("big", "DELETE FROM big WHERE id > 300", *range(301, 401), 1000)
        events = list(reader.events())
        kinds = event_types_since(server, since)
    assert decoded(events) == script.expected
    compressed = {
        "Query_compressed",
        "Write_rows_compressed_v1",
        "Update_rows_compressed_v1",
        "Delete_rows_compressed_v1",
    }
    assert compressed <= set(kinds), kinds


def test_compressed_columns_decode_with_their_values(server: MariaDB) -> None:
    """MariaDB's ``COMPRESSED`` columns (VARCHAR, VARBINARY, TEXT, BLOB, JSON): the table map
    names types of their own, the rows hold what the server stores (zlib's raw stream behind a
    header, or a value kept whole when compressing it did not pay); each decodes to the value
    the server reads back, empty, short, long, NULL, in latin1 and utf8mb4, through updates,
    deletes, and a column compressed and uncompressed by ALTERs. (mvdd refused such a table.)"""
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with Script(server, db) as s:
            s.ddl(
                "CREATE TABLE z (id INT PRIMARY KEY, v VARCHAR(300) COMPRESSED, "
                "l VARCHAR(20) CHARACTER SET latin1 COMPRESSED NOT NULL, vb VARBINARY(100) "
                "COMPRESSED, t TEXT COMPRESSED=zlib, b MEDIUMBLOB COMPRESSED, j JSON COMPRESSED, "
                "plain VARCHAR(10))",
                "z",
                new=("z",),
            )
            s.insert(
                "z",
                "INSERT INTO z VALUES (1, REPEAT('ab😀', 90), 'café', x'00ff00ff', "
                "REPEAT('text é ', 500), REPEAT(x'0102', 40000), '{\"k\": [1, 2, 3]}', 'p'), "
                "(2, '', '', '', '', '', '[]', NULL), (3, 'x', 'y', x'01', 'z', x'02', 'null', 'q'), "
                "(4, NULL, 'n', NULL, NULL, NULL, NULL, NULL)",
                1,
                2,
                3,
                4,
            )
            s.insert("z", "INSERT INTO z (id) VALUES (5)", 5)
            s.update(
                "z", "UPDATE z SET v = REPEAT('long ', 60), t = 'short' WHERE id <= 3", 1, 2, 3
            )
            s.ddl("ALTER TABLE z MODIFY plain VARCHAR(10) COMPRESSED, MODIFY v VARCHAR(300)", "z")
            s.insert("z", "INSERT INTO z (id, v, l, plain) VALUES (6, 'vv', 'll', 'pp')", 6)
            s.delete("z", "DELETE FROM z WHERE id IN (1, 4)", 1, 4)
        events = list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            shown = parse_table(show_create_table(conn, "z"), replica=True)
    assert decoded(events) == s.expected
    table = reader.catalog.table(f"{db}.z")
    assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    assert [c.name for c in table.columns if c.type.compressed] == [
        "l",
        "vb",
        "t",
        "b",
        "j",
        "plain",
    ]


def test_a_server_that_keeps_names_in_lower_case_is_followed_in_any_case() -> None:
    """On a server with ``lower_case_table_names=1`` a table or database named in any case is
    that name in lower case, as the server keeps it and as its table maps name it: the reader
    follows statements that write them in any case, and each table is the one the server
    shows. (Taken as written, `Orders` and `ORDERS` were two tables, neither the one the rows
    name; and a name lowers as the server lowers it, ``İ`` to ``i``.)"""
    with private_server(
        binlog=True, server_id=61, options={"lower-case-table-names": "1"}
    ) as server:
        server.execute("CREATE DATABASE Shop")
        reader = reader_for(server, "shop.orders*")
        server.execute(
            "CREATE TABLE Orders (id INT PRIMARY KEY, a INT)",
            "ALTER TABLE ORDERS ADD b VARCHAR(5) DEFAULT 'x'",
            "INSERT INTO oRdErS (id, a) VALUES (1, 2)",
            "ALTER TABLE SHOP.Orders ADD c INT",
            "RENAME TABLE Orders TO ORDERS_2",
            "INSERT INTO orders_2 (id, a, c) VALUES (2, 3, 4)",
            "CREATE TABLE `ORDERS_3` LIKE Shop.Orders_2",
            "ALTER DATABASE SHOP CHARACTER SET latin1",
            "CREATE TABLE Orders_4 (id INT PRIMARY KEY, t VARCHAR(3))",
            "CREATE TABLE Orders_İ (id INT PRIMARY KEY)",  # (the server lowers İ to i)
            "INSERT INTO ORDERS_i (id) VALUES (5)",
            database="Shop",
        )
        events = list(reader.events())
        with contextlib.closing(server.connect("shop")) as conn:
            for name in ("orders_2", "orders_3", "orders_4", "orders_i"):
                shown = parse_table(show_create_table(conn, name), replica=True)
                table = reader.catalog.table(f"shop.{name}")
                assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    assert [(e.kind, e.table, e.version) for e in events if e.kind != "ddl"] == [
        ("insert", "shop.orders", 2),
        ("insert", "shop.orders_2", 4),
        ("insert", "shop.orders_i", 1),
    ]
    assert reader.catalog.tables() == [
        "shop.orders_2",
        "shop.orders_3",
        "shop.orders_4",
        "shop.orders_i",
    ]
    assert reader.catalog.database_default("shop") == ("latin1", "latin1_swedish_ci")


#: (setup, statement) of TIMESTAMP columns a session without explicit_defaults_for_timestamp
#: defines ({t}: the table)
LEGACY_TIMESTAMPS = [
    (None, "CREATE TABLE {t} (id INT, ts TIMESTAMP, t2 TIMESTAMP, t3 TIMESTAMP NULL)"),
    (None, "CREATE TABLE {t} (a TIMESTAMP NULL, b TIMESTAMP, c TIMESTAMP)"),
    (None, "CREATE TABLE {t} (a TIMESTAMP DEFAULT 0, b TIMESTAMP)"),
    (None, "CREATE TABLE {t} (a TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, b TIMESTAMP)"),
    (None, "CREATE TABLE {t} (a TIMESTAMP NOT NULL, b TIMESTAMP DEFAULT '2020-01-01 00:00:00')"),
    (None, "CREATE TABLE {t} (a DATETIME, b TIMESTAMP(3), c TIMESTAMP(6))"),
    (None, "CREATE TABLE {t} (a TIMESTAMP DEFAULT NULL, b TIMESTAMP NULL DEFAULT NULL)"),
    ("CREATE TABLE {t} (id INT)", "ALTER TABLE {t} ADD ts TIMESTAMP"),
    ("CREATE TABLE {t} (id INT, a TIMESTAMP NULL)", "ALTER TABLE {t} ADD ts TIMESTAMP"),
    ("CREATE TABLE {t} (id INT)", "ALTER TABLE {t} ADD ts TIMESTAMP, ADD t2 TIMESTAMP FIRST"),
    ("CREATE TABLE {t} (id INT, a TIMESTAMP NULL)", "ALTER TABLE {t} MODIFY a TIMESTAMP"),
    ("CREATE TABLE {t} (id INT, a INT)", "ALTER TABLE {t} CHANGE a b TIMESTAMP"),
    ("CREATE TABLE {t} (id INT, a TIMESTAMP NULL, b INT)", "ALTER TABLE {t} MODIFY b TIMESTAMP"),
    ("CREATE TABLE {t} (id INT, a TIMESTAMP)", "ALTER TABLE {t} ADD b TIMESTAMP FIRST"),
    # a period's ROW START and END: the server's to fill in any session (the first of them
    # still its table's first TIMESTAMP)
    (
        None,
        "CREATE TABLE {t} (id INT, s TIMESTAMP(6) AS ROW START, e TIMESTAMP(6) AS ROW END, "
        "ts TIMESTAMP, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING",
    ),
    (
        None,
        "CREATE TABLE {t} (id INT, ts TIMESTAMP, e TIMESTAMP(6) AS ROW END, "
        "s TIMESTAMP(6) AS ROW START, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING",
    ),
    (
        "CREATE TABLE {t} (id INT, ts TIMESTAMP NULL)",
        "ALTER TABLE {t} ADD s TIMESTAMP(6) AS ROW START, ADD e TIMESTAMP(6) AS ROW END, "
        "ADD PERIOD FOR SYSTEM_TIME (s, e), ADD SYSTEM VERSIONING",
    ),
]


def test_timestamps_of_a_session_without_explicit_defaults_are_the_servers(
    binlog_server: MariaDB,
) -> None:
    """A TIMESTAMP a session without ``explicit_defaults_for_timestamp`` (MySQL 5.7's default,
    MariaDB's before 10.10) defines is NOT NULL unless it says NULL, with the zero timestamp
    for its DEFAULT, and its table's first one CURRENT_TIMESTAMP's: the binlog logs the
    session's setting, and each table the reader's catalog holds is the one the server shows.
    (Read with the setting on, each of them was NULL, with no default.)"""
    server = binlog_server
    with database(server) as db:
        reader = reader_for(server, f"{db}.*")
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            for i, (setup, sql) in enumerate(LEGACY_TIMESTAMPS):
                cur.execute("SET SESSION explicit_defaults_for_timestamp = ON")
                if setup is not None:
                    cur.execute(setup.format(t=f"t{i}"))
                cur.execute("SET SESSION explicit_defaults_for_timestamp = OFF")
                cur.execute(sql.format(t=f"t{i}"))
        list(reader.events())
        with contextlib.closing(server.connect(db)) as conn:
            for i, (_, sql) in enumerate(LEGACY_TIMESTAMPS):
                shown = parse_table(show_create_table(conn, f"t{i}"), replica=True)
                table = reader.catalog.table(f"{db}.t{i}")
                assert table.equivalent(shown, ignore_order=False), (sql, table.differences(shown))


def test_dates_no_python_date_holds_are_read_as_the_server_prints_them(
    binlog_server: MariaDB,
) -> None:
    """A DATE, DATETIME or TIMESTAMP value that is no Python date (the zero date and
    timestamp, a zero month or day, a day its month lacks) is its text, as the server prints
    it; the library reads the first ones as NULL and the zero timestamp as the epoch."""
    server = binlog_server
    columns = ["d", "dt", "dt3", "ts", "ts6"]
    with database(server) as db:
        server.execute(
            "CREATE TABLE z (id INT PRIMARY KEY, d DATE NULL, dt DATETIME NULL, "
            "dt3 DATETIME(3) NULL, ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL)",
            database=db,
        )
        reader = reader_for(server, f"{db}.z")
        server.execute(
            "SET SESSION sql_mode = 'ALLOW_INVALID_DATES'",
            "INSERT INTO z VALUES (1, '0000-00-00', '0000-00-00 00:00:00', "
            "'0000-00-00 00:00:00.000', '0000-00-00 00:00:00', 0)",
            "INSERT INTO z VALUES (2, '2020-00-15', '2021-02-30 23:59:59', "
            "'2020-04-00 01:02:03.456', NULL, NULL)",
            "INSERT INTO z VALUES (3, '2019-02-29', '0001-00-00 00:00:00', NULL, NULL, NULL)",
            database=db,
        )
        rows = [e.row for e in reader.events() if e.kind == "insert"]
        with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
            casts = ", ".join(f"CAST({c} AS CHAR)" for c in columns)
            cur.execute(f"SELECT {casts} FROM z ORDER BY id")
            shown = [dict(zip(columns, row, strict=True)) for row in cur.fetchall()]
    assert [{c: r[c] for c in columns} for r in rows if r is not None] == shown


def test_statements_on_views_routines_and_users_pass_and_a_create_select_is_followed(
    binlog_server: MariaDB, tmp_path: Any
) -> None:
    """Statements on objects that hold no rows and no table's schema (a view, a trigger, a
    routine, an event, a user, privileges, FLUSH) in a followed database are passed over under
    the default policy, which raised at the first of them. A ``CREATE TABLE … SELECT``
    (its table and its rows one transaction in the binlog) is its table's DDL event, a
    transaction ending where the statement does, then the rows: a reader stopped after the
    DDL resumes there and reads each row once (its DDL was dropped, inside the
    transaction, and its table's rows with it)."""
    server = binlog_server
    path = str(tmp_path / "catalog.db")
    with database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)", database=db)
        with Catalog.open(path) as catalog:
            BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog).check()
        server.execute(
            "CREATE VIEW v AS SELECT id, a FROM t",
            "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = NEW.a + 1",
            "CREATE PROCEDURE p() BEGIN SELECT 1; END",
            "CREATE FUNCTION f() RETURNS INT DETERMINISTIC RETURN 1",
            "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DELETE FROM t WHERE id < 0",
            "CREATE USER 'mvdd_u'@'localhost'",
            f"GRANT SELECT ON {db}.* TO 'mvdd_u'@'localhost'",
            "FLUSH TABLES",
            "INSERT INTO t VALUES (1, 1)",
            "CREATE OR REPLACE VIEW v AS SELECT id FROM t",
            "CREATE TABLE t2 (id INT PRIMARY KEY, a INT) SELECT id + 10 AS id, a FROM t",
            "INSERT INTO t2 VALUES (20, 2)",
            "DROP VIEW v",
            "DROP TRIGGER tr",
            "DROP PROCEDURE p",
            "DROP FUNCTION f",
            "DROP EVENT e",
            "DROP USER 'mvdd_u'@'localhost'",
            database=db,
        )
        seen: list[Any] = []
        with Catalog.open(path) as catalog:
            reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog)
            for ev in reader.events():
                seen.append(ev)
                if ev.kind == "ddl" and ev.table == f"{db}.t2":
                    reader.checkpoint(ev.commit)  # stop after the CREATE … SELECT's table
                    break
        with Catalog.open(path) as catalog:
            reader = BinlogReader(server.url(), tables=f"{db}.*", catalog=catalog)
            seen.extend(reader.events())
    assert [(e.kind, e.table.split(".")[1], e.row) for e in seen] == [
        ("insert", "t", {"id": 1, "a": 2}),
        ("ddl", "t2", None),
        ("insert", "t2", {"id": 11, "a": 2}),
        ("insert", "t2", {"id": 20, "a": 2}),
    ]
    create = seen[1]
    assert create.commit == create.position and create.commit < seen[2].commit


def test_a_database_created_without_a_charset_takes_its_sessions_server_default(
    binlog_server: MariaDB,
) -> None:
    """A CREATE DATABASE naming no charset takes its session's ``collation_server`` (which the
    binlog logs beside the statement), not the server's global default the reader began with:
    a table created there without a charset of its own has the one the server shows."""
    server = binlog_server
    name = f"sess_{uuid.uuid4().hex[:10]}"
    reader = reader_for(server, f"{name}.*")
    try:
        with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
            cur.execute("SET SESSION collation_server = latin1_german1_ci")
            cur.execute(f"CREATE DATABASE {name}")
            cur.execute(f"CREATE TABLE {name}.t (id INT PRIMARY KEY, a VARCHAR(10), KEY (a))")
        list(reader.events())
        with contextlib.closing(server.connect(name)) as conn:
            shown = parse_table(show_create_table(conn, "t"), replica=True)
    finally:
        server.execute(f"DROP DATABASE IF EXISTS {name}")
    table = reader.catalog.table(f"{name}.t")
    assert table.equivalent(shown, ignore_order=False), table.differences(shown)
    assert reader.catalog.database_default(name) == ("latin1", "latin1_german1_ci")
    assert table.column("a").type.collation == "latin1_german1_ci"


def test_database_statements_of_bare_collations_and_if_not_exists_read_as_on_the_server(
    binlog_server: MariaDB,
) -> None:
    """A collation named without its charset (``uca1400_as_cs``) in ``ALTER DATABASE`` takes
    the database's charset, in ``CREATE DATABASE`` its session's server charset; a ``CREATE
    DATABASE IF NOT EXISTS`` of a database there changes nothing (the reader had recorded its
    charset anew, and stopped on the bare collation): each table created after has the charset
    and collation the server shows."""
    first, second = (f"bare_{uuid.uuid4().hex[:10]}" for _ in range(2))
    reader = reader_for(binlog_server, [f"{first}.*", f"{second}.*"])
    try:
        with contextlib.closing(binlog_server.connect()) as conn, conn.cursor() as cur:
            for sql in (
                f"CREATE DATABASE {first} CHARACTER SET utf8mb3",
                f"CREATE DATABASE IF NOT EXISTS {first} CHARACTER SET latin1",
                f"CREATE TABLE {first}.t (id INT PRIMARY KEY, a VARCHAR(10))",
                f"ALTER DATABASE {first} COLLATE uca1400_as_cs",
                f"CREATE TABLE {first}.u (id INT PRIMARY KEY, a VARCHAR(10))",
                "SET SESSION collation_server = utf8mb4_general_ci",
                f"CREATE DATABASE {second} COLLATE uca1400_ai_ci",
                f"CREATE TABLE {second}.t (id INT PRIMARY KEY, a VARCHAR(10))",
            ):
                cur.execute(sql)
        list(reader.events())
        shown = {}
        for name in (f"{first}.t", f"{first}.u", f"{second}.t"):
            db, bare = name.split(".")
            with contextlib.closing(binlog_server.connect(db)) as conn:
                shown[name] = parse_table(show_create_table(conn, bare), replica=True)
    finally:
        binlog_server.execute(
            f"DROP DATABASE IF EXISTS {first}", f"DROP DATABASE IF EXISTS {second}"
        )
    for name, table in shown.items():
        ours = reader.catalog.table(name)
        assert ours.equivalent(table, ignore_order=False), (name, ours.differences(table))
        assert ours.options.collation == table.options.collation, name
    assert reader.catalog.database_default(first) == ("utf8mb3", "utf8mb3_uca1400_as_cs")
    assert reader.catalog.database_default(second) == ("utf8mb4", "utf8mb4_uca1400_ai_ci")


def test_a_sandbox_started_twice_runs_one_server() -> None:
    """``start()`` of a running sandbox is the running server (its context manager starts it
    too, so ``with Sandbox().start():`` started two, and left the first running with its
    folder gone); stopped, no server of it is left."""
    with private_server() as server:
        first = server.process
        assert first is not None and server.start() is server and server.process is first
        with server:
            assert server.process is first
        assert first.poll() is not None
        server.start()  # (started again for private_server's stop, as after a halt)
        assert server.process is not first and server.process.poll() is None


def test_default_charsets_and_collations_named_default_read_as_on_the_server(
    binlog_server: MariaDB,
) -> None:
    """MariaDB's DEFAULT for a charset or a collation, through the reader: a table's
    ``CHARSET DEFAULT`` is its database's charset in that charset's default collation (not the
    database's collation), its ``COLLATE DEFAULT`` the default collation of the charset the
    statement names, else of the table's; the same in ``CONVERT TO`` and a column's; a
    database's ``CHARACTER SET DEFAULT`` the session's server charset in its default collation
    (not the session's server collation, which a database naming no charset takes), its
    ``COLLATE DEFAULT`` the default collation of its charset. Beside them other MariaDB forms
    that stopped a reader (IF EXISTS of a RENAME COLUMN, an ALTER COLUMN and a RENAME INDEX,
    TRUNCATE … WAIT, a key's TYPE): each table has the charset, collation and keys the
    server shows, each database the default the server shows."""
    first, second = (f"dflt_{uuid.uuid4().hex[:10]}" for _ in range(2))
    reader = reader_for(binlog_server, [f"{first}.*", f"{second}.*"])
    try:
        with contextlib.closing(binlog_server.connect()) as conn, conn.cursor() as cur:
            for sql in (
                "SET SESSION collation_server = utf8mb4_unicode_ci",
                f"CREATE DATABASE {first} CHARACTER SET latin1 COLLATE latin1_bin",
                f"USE {first}",
                "CREATE TABLE t (a VARCHAR(3), b INT, KEY k (b)) CHARSET utf8mb4 COLLATE "
                "utf8mb4_bin",
                "ALTER TABLE t CHARSET DEFAULT",
                "CREATE TABLE u (a VARCHAR(3)) COLLATE DEFAULT",
                "CREATE TABLE v (a VARCHAR(3) COLLATE DEFAULT, b TEXT CHARACTER SET utf8mb3 "
                "COLLATE DEFAULT) CHARSET utf8mb4 COLLATE utf8mb4_bin",
                "CREATE TABLE w (a VARCHAR(3), b INT) CHARSET utf8mb4 COLLATE utf8mb4_bin",
                "ALTER TABLE w COLLATE DEFAULT",
                "ALTER TABLE v CONVERT TO CHARACTER SET utf8mb3 COLLATE DEFAULT",
                "ALTER TABLE t RENAME COLUMN IF EXISTS zz TO y, RENAME COLUMN IF EXISTS a TO c, "
                "ALTER COLUMN IF EXISTS b SET DEFAULT 3, ALTER IF EXISTS zz DROP DEFAULT",
                "ALTER TABLE t RENAME INDEX IF EXISTS k TO j, RENAME KEY IF EXISTS zz TO yy, "
                "ADD KEY i TYPE BTREE (c) USING HASH",
                "TRUNCATE TABLE t WAIT 1",
                f"ALTER DATABASE {first} COLLATE DEFAULT",
                "CREATE TABLE x (a VARCHAR(3))",
                f"CREATE DATABASE {second} CHARACTER SET DEFAULT",
                f"CREATE TABLE {second}.t (a VARCHAR(3))",
                f"ALTER DATABASE {second} CHARACTER SET latin1 COLLATE DEFAULT",
                f"CREATE TABLE {second}.u (a VARCHAR(3))",
            ):
                cur.execute(sql)
        list(reader.events())
        shown, defaults = {}, {}
        for db in (first, second):
            with contextlib.closing(binlog_server.connect(db)) as conn, conn.cursor() as cur:
                cur.execute(
                    f"SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM "
                    f"information_schema.SCHEMATA WHERE SCHEMA_NAME = '{db}'"
                )
                defaults[db] = tuple(cur.fetchone())
                cur.execute("SHOW TABLES")
                for (bare,) in cur.fetchall():
                    shown[f"{db}.{bare}"] = parse_table(show_create_table(conn, bare), replica=True)
    finally:
        binlog_server.execute(
            f"DROP DATABASE IF EXISTS {first}", f"DROP DATABASE IF EXISTS {second}"
        )
    assert sorted(reader.catalog.tables()) == sorted(shown)
    for name, table in shown.items():
        ours = reader.catalog.table(name)
        assert ours.equivalent(table, ignore_order=False), (name, ours.differences(table))
        assert ours.options.collation == table.options.collation, name
    for db, default in defaults.items():
        assert reader.catalog.database_default(db) == default, db


def test_a_create_table_if_not_exists_of_a_table_there_passes_whatever_it_defines(
    binlog_server: MariaDB,
) -> None:
    """The server logs a CREATE TABLE IF NOT EXISTS of a table that exists without reading its
    definition (an application that runs its schema at every start): the reader passes over
    one whose definition no server would take (a column twice, a key over a column that is
    not there, a DEFAULT naming none), keeps the table it has and goes on with its rows."""
    with database(binlog_server) as db:
        reader = reader_for(binlog_server, f"{db}.*")
        with Script(binlog_server, db) as s:
            s.ddl("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "t", new=("t",))
            s.ddl("CREATE TABLE IF NOT EXISTS t (id INT, c INT, c INT, KEY (zz))")
            s.ddl("CREATE TABLE IF NOT EXISTS t (id INT, d INT DEFAULT (zz + 1))")
            s.insert("t", "INSERT INTO t VALUES (1, 'x')", 1)
        assert decoded(reader.events()) == s.expected
        assert reader.catalog.version(f"{db}.t") == 1


# --- a failover: the source's history on another server -----------------------------------------


def _history(old: MariaDB, flushes: int = 3, *, domains: bool = False) -> None:
    """A table's history on ``old``, its last DDL ``flushes`` binlog files on (a file of a
    higher number than a promoted replica's first files); ``domains``: transactions of a
    second replication domain (7) among them, the last one of them."""
    other = "SET SESSION gtid_domain_id = 7"
    old.execute("CREATE DATABASE shop")
    old.execute("CREATE TABLE shop.t (a INT PRIMARY KEY, b INT)")
    old.execute("INSERT INTO shop.t VALUES (1, 1), (2, 2)")
    if domains:
        old.execute(other, "CREATE DATABASE misc", "CREATE TABLE misc.y (a INT)")
    for i in range(flushes):
        old.execute("FLUSH BINARY LOGS")
        if domains:
            old.execute(other, f"INSERT INTO misc.y VALUES ({i})")
    old.execute("ALTER TABLE shop.t ADD c VARCHAR(10)")
    old.execute("INSERT INTO shop.t VALUES (3, 3, 'x')")
    if domains:
        old.execute(other, "INSERT INTO misc.y VALUES (9)")


@pytest.mark.parametrize(
    "files", ["numbered lower", "same names, other offsets", "two replication domains"]
)
def test_a_reader_goes_on_on_a_replica_promoted_after_a_failover(files: str) -> None:
    """The server at the source's address is another one (a replica promoted to primary): its
    binlog holds the same transactions at other files and offsets: files numbered lower than
    the old server's, or of the same names where its own transactions came first (the old
    position is a place in its binlog, but not that place in the history), or of two
    replication domains, the GTID position each domain's last GTID. The reader finds
    where it holds the GTID position it left, reads from there, nothing twice and nothing
    missed, and decodes each row with the schema of its place in the history: its positions of
    the next era follow every earlier version's."""
    with (
        private_server(binlog=True, server_id=41) as old,
        private_server(binlog=True, server_id=42) as new,
    ):
        _history(old, 0 if files.startswith("same") else 3, domains=files.startswith("two"))
        if files.startswith("same"):
            new.execute("CREATE DATABASE other", "CREATE TABLE other.x (a INT)")
            new.execute(*[f"INSERT INTO other.x VALUES ({i})" for i in range(20)])
        first = BinlogReader(old.url(), tables="shop.t", start="beginning")
        events = list(first.events())
        assert [e.row for e in events if e.row is not None] == [
            {"a": 1, "b": 1},
            {"a": 2, "b": 2},
            {"a": 3, "b": 3, "c": "x"},
        ]
        left, gtid = first.position, first.gtid
        assert left is not None and left.era == 0 and not left < events[-1].commit
        assert gtid is not None and files.startswith("two") == ("," in gtid)
        promoted(old, new)
        new.execute("ALTER TABLE shop.t ADD d INT")
        new.execute("INSERT INTO shop.t VALUES (4, 4, 'y', 40)")
        new.execute("UPDATE shop.t SET d = 7 WHERE a = 1")
        after = BinlogReader(
            new.url(), tables="shop.t", catalog=first.catalog, start=left, gtid=gtid
        )
        moved = list(after.events())
        assert [str(e.kind) for e in moved] == ["ddl", "insert", "update"]
        assert decoded(moved[1:]) == [
            ("insert", "shop.t", 3, {"a": 4, "b": 4, "c": "y", "d": 40}, None),
            (
                "update",
                "shop.t",
                3,
                {"a": 1, "b": 1, "c": None, "d": 7},
                {"a": 1, "b": 1, "c": None, "d": None},
            ),
        ]
        assert all(e.commit.era == 1 and left < e.commit for e in moved)
        assert [c.position.era for c in first.catalog.history("shop.t")] == [0, 0, 1]
        # a reader that starts again where the first left reads the same (the checkpoint's
        # GTID position kept beside it)
        after.checkpoint(moved[-1].commit)
        again = BinlogReader(new.url(), tables="shop.t", catalog=first.catalog)
        new.execute("INSERT INTO shop.t VALUES (5, 5, 'z', 50)")
        assert [e.row for e in again.events()] == [{"a": 5, "b": 5, "c": "z", "d": 50}]
        with new.connect() as conn, conn.cursor() as cur:
            cur.execute("SELECT @@gtid_binlog_pos")
            assert again.gtid == str(cur.fetchone()[0])


def test_a_server_that_lacks_the_transactions_read_is_refused() -> None:
    """A promoted replica that never received the last transactions the reader read (it lagged)
    cannot go on where the reader left: a SourceConfigError naming the GTID position, and the
    catalog untouched."""
    with (
        private_server(binlog=True, server_id=43) as old,
        private_server(binlog=True, server_id=44) as new,
    ):
        _history(old)
        first = BinlogReader(old.url(), tables="shop.t", start="beginning")
        events = list(first.events())
        promoted(old, new, files=1)  # (not the ALTER nor the last row)
        versions = first.catalog.version("shop.t")
        after = BinlogReader(
            new.url(),
            tables="shop.t",
            catalog=first.catalog,
            start=events[-1].commit,
            gtid=first.gtid,
        )
        with pytest.raises(SourceConfigError, match="never reaches the GTID position"):
            list(after.events())
        assert first.catalog.version("shop.t") == versions


def test_a_reader_following_goes_on_when_its_address_moves_to_a_promoted_replica() -> None:
    """A failover while the reader follows: the server at its address goes away and the replica
    promoted in its place answers there (a virtual IP, a DNS name or a proxy moved to it). The
    reader reconnects, finds where that server holds the GTID position of the last transaction
    it handed out, and goes on from there: nothing twice, nothing missed."""
    with (
        private_server(binlog=True, server_id=47) as old,
        private_server(binlog=True, server_id=48) as new,
    ):
        _history(old)
        reader = BinlogReader(
            old.url(), tables="shop.t", start="beginning", retry=120, heartbeat=0.2
        )
        seen: list[Any] = []
        halt = threading.Event()

        def follow() -> None:
            try:
                for txn in reader.transactions(until=None, stop=halt.is_set):
                    seen.extend(txn.events)
            except BaseException as err:  # (handed to the test)
                seen.append(err)

        def rows(n: int) -> list[Any]:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                got = [e.row for e in seen if not isinstance(e, BaseException) and e.row]
                if len(got) >= n or any(isinstance(e, BaseException) for e in seen):
                    break
                time.sleep(0.05)
            failed = [e for e in seen if isinstance(e, BaseException)]
            if failed:
                raise failed[0]
            return got

        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        try:
            assert rows(3)[-1] == {"a": 3, "b": 3, "c": "x"}
            promoted(old, new)
            new.halt()
            old.halt()
            new.socket = old.socket  # (the promoted replica at the old primary's address)
            new.start()
            new.execute(
                "ALTER TABLE shop.t ADD d INT",
                "INSERT INTO shop.t VALUES (4, 4, 'y', 40)",
            )
            assert rows(4)[3:] == [{"a": 4, "b": 4, "c": "y", "d": 40}]
        finally:
            halt.set()
            thread.join(timeout=30)
        assert [e.commit.era for e in seen if e.row][-1] == 1
        assert len([e for e in seen if e.row]) == 4
