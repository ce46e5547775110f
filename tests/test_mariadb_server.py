"""Same answer as the server: every vector runs on a real MariaDB, and mvdd agrees with it.

- Every CREATE TABLE vector renders to SQL the server runs, and the server's own
  ``SHOW CREATE TABLE`` parses back equivalent (column order included).
- Every ALTER sequence runs statement by statement on the server and on a catalog: the same
  statements succeed, the same fail, and after each one every table is equivalent.
- The differences mvdd keeps on purpose are listed and tested, so none is silent.
"""

from __future__ import annotations

import re
from typing import Any

import pymysql
import pytest

import mvdd
from mvdd import Catalog, parse_table
from mvdd.ddl.statement import for_server
from mvdd.ddl.step import AddColumn
from tests.support.fixtures import sequences, statements
from tests.support.mariadb import quote, show_create_table, visibility

pytestmark = pytest.mark.mariadb

CREATES = statements("create_tables.sql")
SEQUENCES = sequences("alter_sequences.sql")


def _run(conn: Any, sql: str) -> Exception | None:
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
    except pymysql.MySQLError as err:
        return err
    return None


def _on_both(
    conn: Any, cat: Catalog, sql: str, refused: type[Exception] = mvdd.MvddError
) -> tuple[Exception | None, Exception | None]:
    """The statement run on the server, then on the catalog: the error each gave, or None."""
    server_err = _run(conn, sql)
    try:
        cat.execute(sql)
    except refused as err:
        return server_err, err
    return server_err, None


def test_sequence_corpus_is_large() -> None:
    assert len(SEQUENCES) >= 40
    assert sum(len(stmts) for _, stmts in SEQUENCES) >= 200


def test_create_tables_on_server(mdb: Any) -> None:
    checked = 0
    for sql in CREATES:
        table = parse_table(sql)
        rendered = for_server(table.to_sql(), "mariadb")
        err = _run(mdb, rendered)
        assert err is None, f"server refused {rendered}: {err}"
        shown = show_create_table(mdb, table.name)
        back = parse_table(shown)
        assert table.equivalent(back, ignore_order=False), (
            f"{table.name}: {table.differences(back, ignore_order=False)}\n{rendered}\n{shown}"
        )
        assert visibility(table) == visibility(back), shown
        checked += 1
    assert checked == len(CREATES) >= 80


@pytest.mark.parametrize("title,stmts", SEQUENCES, ids=[title for title, _ in SEQUENCES])
def test_alter_sequence_matches_server(mdb: Any, title: str, stmts: list[str]) -> None:
    cat = Catalog()
    for sql in stmts:
        before = {name: cat.history(name)[-1].version for name in cat.tables()}
        server_err, mvdd_err = _on_both(mdb, cat, sql)
        assert (server_err is None) == (mvdd_err is None), (
            f"{sql}\n server: {server_err}\n mvdd: {mvdd_err}"
        )
        if mvdd_err is not None:
            # a refused statement leaves the catalog exactly as before
            assert {name: cat.history(name)[-1].version for name in cat.tables()} == before
        with mdb.cursor() as cur:
            cur.execute("SHOW TABLES")
            assert sorted(row[0] for row in cur.fetchall()) == cat.tables(), sql
        for name in cat.tables():
            mine, shown = cat.table(name), parse_table(show_create_table(mdb, name))
            assert mine.equivalent(shown, ignore_order=False), (
                f"{sql}\n{name}: {mine.differences(shown, ignore_order=False)}"
            )
            assert visibility(mine) == visibility(shown), sql


# (setup, statement, why mvdd refuses what MariaDB accepts)
DIVERGENCES = [
    (
        "CREATE TABLE t (a INT)",
        "ALTER TABLE t ADD b INT NOT NULL",
        "rows written under earlier versions would have no value for b (seed 003)",
    ),
    (
        "CREATE TABLE t (a TEXT)",
        "ALTER TABLE t ADD INDEX (a)",
        "MySQL refuses a TEXT key part without a prefix; MariaDB silently picks one",
    ),
    (
        "CREATE TABLE t (a DATETIME(3))",
        "ALTER TABLE t MODIFY a DATETIME(3) DEFAULT CURRENT_TIMESTAMP(6)",
        "MySQL refuses a CURRENT_TIMESTAMP default finer than the column",
    ),
    (
        "CREATE TABLE t (a INT)",
        "ALTER TABLE t ADD b DECIMAL(40,31)",
        "MySQL's DECIMAL scale is at most 30 (MariaDB's 38); mvdd's types are MySQL's",
    ),
    (
        "CREATE TABLE t (a INT)",
        "ALTER TABLE t ADD b YEAR(2)",
        "MySQL has no two-digit YEAR any more (MariaDB keeps it); mvdd's types are MySQL's",
    ),
]


@pytest.mark.parametrize("setup,sql,why", DIVERGENCES, ids=[d[2][:40] for d in DIVERGENCES])
def test_known_divergences(mdb: Any, setup: str, sql: str, why: str) -> None:
    cat = Catalog()
    cat.execute(setup)
    assert _run(mdb, setup) is None
    assert _run(mdb, sql) is None  # the server accepts it ...
    with pytest.raises(mvdd.DDLError):  # ... mvdd refuses, on purpose
        cat.execute(sql)
    assert cat.version("t") == 1


def _columns(n: int) -> str:
    return ", ".join(f"c{i} INT" for i in range(n))


def _keys(n: int, first: int = 0) -> str:
    return ", ".join(f"KEY k{i} (c{i})" for i in range(first, first + n))


#: the servers' limits: columns (InnoDB's 1017, the default engine; 4096 for the others),
#: indexes (64), key parts (32), comments (1024 characters, a table's 2048)
LIMITS = [
    f"CREATE TABLE a ({_columns(1017)})",
    "ALTER TABLE a ADD x INT",
    "ALTER TABLE a ADD x INT, DROP c0",
    f"CREATE TABLE b ({_columns(1018)})",
    f"CREATE TABLE m ({_columns(2000)}) ENGINE=Aria",
    "ALTER TABLE m ENGINE=InnoDB",
    "ALTER TABLE m ADD y INT",
    f"CREATE TABLE z ({_columns(4097)}) ENGINE=Aria",
    f"CREATE TABLE i ({_columns(70)}, {_keys(64)})",
    "ALTER TABLE i ADD KEY k64 (c64)",
    "ALTER TABLE i DROP KEY k0, ADD KEY k64 (c64)",
    f"CREATE TABLE i2 ({_columns(70)}, {_keys(65)})",
    f"CREATE TABLE p ({_columns(40)}, KEY kp ({', '.join(f'c{i}' for i in range(32))}))",
    f"ALTER TABLE p ADD UNIQUE KEY kq ({', '.join(f'c{i}' for i in range(33))})",
    f"CREATE TABLE p2 ({_columns(40)}, PRIMARY KEY ({', '.join(f'c{i}' for i in range(33))}))",
    f"CREATE TABLE c (a INT COMMENT '{'é' * 1024}', KEY k (a) COMMENT '{'x' * 1024}') "
    f"COMMENT '{'x' * 2048}'",
    f"ALTER TABLE c MODIFY a INT COMMENT '{'x' * 1025}'",
    f"ALTER TABLE c ADD b INT COMMENT '{'x' * 1025}'",
    f"ALTER TABLE c ADD KEY kb (a) COMMENT '{'x' * 1025}'",
    f"ALTER TABLE c COMMENT '{'x' * 2049}'",
    f"CREATE TABLE c2 (a INT) COMMENT '{'x' * 2049}'",
]


def test_limits_match_the_server(mdb: Any) -> None:
    """What the server refuses for too many columns, indexes or key parts, or too long a
    comment, mvdd refuses, and only that."""
    cat = Catalog()
    for sql in LIMITS:
        server_err, mvdd_err = _on_both(mdb, cat, sql)
        assert (server_err is None) == (mvdd_err is None), (
            f"{sql[:60]}\n server: {server_err}\n mvdd: {mvdd_err}"
        )
        assert mvdd_err is None or re.search("too many|too long", str(mvdd_err)), mvdd_err
    assert [len(cat.table(t).columns) for t in ("a", "m")] == [1017, 2001]
    assert [len(cat.table(t).indexes) for t in ("i", "p", "c")] == [64, 1, 1]
    assert sorted(cat.tables()) == ["a", "c", "i", "m", "p"]


#: calls of every kind an expression may make: the row's own functions, the clock, chance, the
#: session, variables, subqueries, locks and sleeps, sequences
CALLS = [
    "a + 1",
    "NOW()",
    "CURDATE()",
    "SYSDATE()",
    "UNIX_TIMESTAMP()",
    "UNIX_TIMESTAMP('2026-01-01')",
    "FROM_UNIXTIME(1)",
    "UTC_TIMESTAMP()",
    "UUID()",
    "UUID_SHORT()",
    "RAND()",
    "CONNECTION_ID()",
    "CURRENT_USER()",
    "DATABASE()",
    "VERSION()",
    "@x",
    "LAST_INSERT_ID()",
    "(SELECT 1)",
    "FOUND_ROWS()",
    "SLEEP(0)",
    "GET_LOCK('a', 0)",
    "LOAD_FILE('x')",
    "CONVERT_TZ('2026-01-01', '+00:00', '+01:00')",
]
PLACES = {
    "virtual": "ALTER TABLE t ADD g VARCHAR(100) AS ({}) VIRTUAL",
    "stored": "ALTER TABLE t ADD g VARCHAR(100) AS ({}) STORED",
    "check": "ALTER TABLE t ADD CONSTRAINT c CHECK ({} IS NOT NULL)",
    "default": "ALTER TABLE t ADD g VARCHAR(100) DEFAULT ({})",
}


@pytest.mark.parametrize("call", CALLS)
def test_what_an_expression_may_call_matches_the_server(mdb: Any, call: str) -> None:
    """Where an expression stands (a virtual or a stored column, a CHECK, a DEFAULT) decides
    what it may call: mvdd refuses a call exactly where the server does."""
    assert _run(mdb, "CREATE TABLE t (id INT PRIMARY KEY, a INT)") is None
    for place, template in PLACES.items():
        cat = Catalog()
        cat.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)")
        sql = template.format(call)
        server_err, mvdd_err = _on_both(mdb, cat, sql, mvdd.DDLError)
        assert (server_err is None) == (mvdd_err is None), (place, server_err, mvdd_err)
        if server_err is None:  # back to the table without it
            assert (
                _run(mdb, "ALTER TABLE t DROP " + ("CONSTRAINT c" if place == "check" else "g"))
                is None
            )


#: a column's kinds: normal, virtual and stored, and the two generated ones over another
#: expression
COLUMN_KINDS = {
    "normal": "INT",
    "virtual": "INT AS (a + 1) VIRTUAL",
    "stored": "INT AS (a + 1) STORED",
    "virtual2": "INT AS (a + 2) VIRTUAL",
    "stored2": "INT AS (a + 2) STORED",
}


@pytest.mark.parametrize("before", ["normal", "virtual", "stored"])
def test_a_column_changes_kind_as_on_the_server(mdb: Any, before: str) -> None:
    """A MODIFY from each kind of column to each other: mvdd refuses exactly what the server
    does (a column becoming or ceasing to be VIRTUAL)."""
    for after, definition in COLUMN_KINDS.items():
        if after == before:
            continue
        create = f"CREATE TABLE t (id INT PRIMARY KEY, a INT, c {COLUMN_KINDS[before]})"
        assert _run(mdb, "DROP TABLE IF EXISTS t") is None and _run(mdb, create) is None
        cat = Catalog()
        cat.execute(create)
        sql = f"ALTER TABLE t MODIFY c {definition}"
        server_err, mvdd_err = _on_both(mdb, cat, sql, mvdd.DDLError)
        assert (server_err is None) == (mvdd_err is None), (before, after, server_err, mvdd_err)


def test_sequential_reading_of_one_statement(mdb: Any) -> None:
    """mvdd reads a statement's actions in order; the server resolves the columns they name
    against the table before the statement. Where the two readings differ, mvdd refuses the
    statement or, as here, accepts one the server refuses (a replication stream never carries
    a statement its server refused)."""
    cat = Catalog()
    for sql in ("CREATE TABLE t (a INT, b VARCHAR(5))",):
        cat.execute(sql)
        assert _run(mdb, sql) is None
    swap = "ALTER TABLE t CHANGE a tmp INT, CHANGE b a VARCHAR(5), CHANGE tmp b INT"
    assert _run(mdb, swap) is not None
    cat.execute(swap)
    assert [(c.name, str(c.type)) for c in cat.table("t").columns] == [
        ("b", "int"),
        ("a", "varchar(5)"),
    ]
    # the ids followed the columns through the swap
    assert cat.table("t").column("b").id == cat.table("t", version=1).column("a").id


def test_hostile_identifiers_create_exactly_those_names(mdb: Any) -> None:
    names = ["a`b", "x;y", "drop table t", "'q'", '"dq"', "名前", "--", "/*", "a b", "select"]
    cat = Catalog()
    cat.execute("CREATE TABLE `h` (`id` INT)")
    for i, name in enumerate(names):
        step = cat.execute("ALTER TABLE h ADD COLUMN " + quote(name) + f" INT DEFAULT {i}")[
            0
        ].steps[0]
        assert isinstance(step, AddColumn) and step.column.name == name
    rendered = cat.table("h").to_sql()
    assert _run(mdb, rendered) is None
    with mdb.cursor() as cur:
        cur.execute("SHOW TABLES")
        assert [row[0] for row in cur.fetchall()] == ["h"]
        cur.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'h' "
            "AND table_schema = DATABASE() ORDER BY ordinal_position"
        )
        assert [row[0] for row in cur.fetchall()] == ["id", *names]
