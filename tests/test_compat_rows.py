"""Soundness of the forward rules on data: whenever a step is judged forward-compatible, random
rows valid under I, upgraded to C, are valid under C and lose no information; and on a real
MariaDB, a table of schema I holding those rows, altered to C, holds exactly the upgraded rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pymysql
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mvdd import Catalog, InvalidValueError, check, parse_statements, parse_table
from mvdd.ddl import apply_steps
from mvdd.model import Table
from mvdd.model.row import COMPUTED, added_columns, upgrade_row
from tests.conftest import examples
from tests.strategies import canonical, db_param, values
from tests.support.mariadb import quote, scratch

# column types of I, and the types a MODIFY may try (widenings, narrowings, other kinds)
TYPES = [
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "TINYINT UNSIGNED",
    "INT UNSIGNED",
    "DECIMAL(6,2)",
    "DECIMAL(8,2)",
    "DECIMAL(8,3)",
    "FLOAT",
    "DOUBLE",
    "BIT(4)",
    "BIT(8)",
    "CHAR(4)",
    "CHAR(8)",
    "VARCHAR(6)",
    "VARCHAR(12)",
    "VARBINARY(4)",
    "VARBINARY(8)",
    "TINYTEXT",
    "TEXT",
    "DATETIME",
    "DATETIME(3)",
    "TIME(1)",
    "TIME(4)",
    "DATE",
    "YEAR",
    "ENUM('a','b')",
    "ENUM('a','b','c')",
    "SET('x','y')",
    "SET('x','y','z')",
    "VARCHAR(6) CHARACTER SET utf8mb3",
    "VARCHAR(6) CHARACTER SET utf8mb4",
    "UUID",
    "INET4",
    "INET6",
    "VARCHAR(12) COMPRESSED",
    "VARBINARY(8) COMPRESSED",
    "TEXT COMPRESSED",
]


@st.composite
def change(draw: st.DrawFn) -> tuple[str, str]:
    """A CREATE TABLE and one ALTER on it (any kind, compatible or not)."""
    n = draw(st.integers(1, 3))
    kinds = [draw(st.sampled_from(TYPES)) for _ in range(n)]
    cols = ", ".join(f"c{i} {k}" for i, k in enumerate(kinds))
    create = f"CREATE TABLE t (id INT NOT NULL, {cols}, PRIMARY KEY (id))"
    target = f"c{draw(st.integers(0, n - 1))}"
    alter = draw(
        st.sampled_from(
            [
                f"MODIFY {target} {draw(st.sampled_from(TYPES))}",
                f"MODIFY {target} {draw(st.sampled_from(TYPES))} NOT NULL DEFAULT '0'",
                f"CHANGE {target} renamed {draw(st.sampled_from(TYPES))}",
                f"RENAME COLUMN {target} TO renamed",
                "ADD COLUMN added INT DEFAULT 7",
                "ADD COLUMN added VARCHAR(5)",
                f"ADD COLUMN added INT AFTER {target}",
                f"DROP COLUMN {target}",
                f"ALTER {target} SET DEFAULT NULL",
                f"ADD INDEX ix ({target}(2))"
                if "TEXT" in kinds[int(target[1:])]
                else f"ADD INDEX ix ({target})",
            ]
        )
    )
    return create, f"ALTER TABLE t {alter}"


def plan(create: str, alter: str) -> tuple[Table, Table] | None:
    """I and C, if the ALTER is valid DDL and judged forward-compatible."""
    try:
        before = parse_table(create)
        (statement,) = parse_statements(alter)
        after = apply_steps(before, statement.steps)
        report = check(before, [alter])
    except Exception:
        return None
    return (before, after) if report.compatible else None


def rows_for(table: Table) -> st.SearchStrategy[list[dict[int, Any]]]:
    row = st.fixed_dictionaries({c.id: values(c.type) for c in table.columns if c.name != "id"})
    return st.lists(row, min_size=1, max_size=5).map(
        lambda rows: [{1: i + 1, **r} for i, r in enumerate(rows)]
    )


@given(st.data())
def test_forward_compatible_steps_lose_nothing(data: st.DataObject) -> None:
    create, alter = data.draw(change())
    planned = plan(create, alter)
    assume(planned is not None)
    assert planned is not None
    before, after = planned
    for row in data.draw(rows_for(before)):
        upgraded = upgrade_row(row, before, after)
        for col in after.columns:
            value = upgraded[col.id]
            if value is None or value is COMPUTED:
                continue
            assert col.type.coerce(value) == value  # valid under C
            if col.id in row:  # nothing lost: back to I's type gives the original
                assert before.column_by_id(col.id).type.coerce(value) == row[col.id]


# --- on a real server --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(mariadb: Any) -> Iterator[Any]:
    with scratch(mariadb) as conn:
        yield conn


@pytest.mark.mariadb
@settings(max_examples=examples(80))
@given(st.data())
def test_forward_compatible_steps_on_mariadb(server: Any, data: st.DataObject) -> None:
    create, alter = data.draw(change())
    planned = plan(create, alter)
    assume(planned is not None)
    assert planned is not None
    before, after = planned
    rows = data.draw(rows_for(before))
    with server.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS t")
        cur.execute(before.to_sql())
        names = [c.name for c in before.columns]
        cur.executemany(
            f"INSERT INTO t ({', '.join(quote(n) for n in names)}) VALUES ({', '.join(['%s'] * len(names))})",
            [
                [db_param(before.column(n).type, row.get(before.column(n).id)) for n in names]
                for row in rows
            ],
        )
        cur.execute(alter)
        cur.execute(f"SELECT {', '.join(quote(c.name) for c in after.columns)} FROM t ORDER BY id")
        stored = cur.fetchall()
    for row, got in zip(rows, stored, strict=True):
        upgraded = upgrade_row(row, before, after)
        for col, server_value in zip(after.columns, got, strict=True):
            mine = upgraded[col.id]
            if mine is COMPUTED:
                continue
            assert canonical(col.type, server_value) == mine, (alter, col.name, server_value, mine)


#: columns MariaDB adds to a table holding rows though they are NOT NULL without a default (a
#: replica's catalog takes them, as the server does): the rows get the type's zero value
ADDED_NOT_NULL = [
    *(t for t in TYPES if "COMPRESSED" not in t),
    "TIMESTAMP(2)",
    "BINARY(3)",
    "BLOB",
    "INT NOT NULL DEFAULT 7, ALTER COLUMN added DROP DEFAULT",
    "VARCHAR(3) NULL DEFAULT 'x', ALTER COLUMN added DROP DEFAULT",
]


@pytest.mark.mariadb
@pytest.mark.parametrize("definition", ADDED_NOT_NULL)
def test_a_column_added_not_null_without_a_default_fills_rows_as_on_mariadb(
    server: Any, definition: str
) -> None:
    """A row from before ``ADD COLUMN added … NOT NULL`` without a default, upgraded, holds what
    the server gave the rows it held (0, '', the zero date, the first member …): a held row
    the replicator releases after such a DDL is written as the upstream holds its row."""
    create = "CREATE TABLE t (id INT NOT NULL, PRIMARY KEY (id))"
    alter = (
        f"ALTER TABLE t ADD COLUMN added {definition}{'' if 'NULL' in definition else ' NOT NULL'}"
    )
    cat = Catalog(replica=True, flavor="mariadb", charset="utf8mb4", collation="utf8mb4_general_ci")
    cat.execute(create)
    cat.execute(alter)
    before, after = cat.table("t", version=1), cat.table("t")
    with server.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS t")
        cur.execute(create)
        cur.execute("INSERT INTO t VALUES (1)")
        cur.execute(alter)
        cur.execute("SELECT added FROM t")
        (theirs,) = cur.fetchone()
    added = after.column("added")
    mine = upgrade_row({1: 1}, before, after, added=added_columns([before, after]))[added.id]
    assert mine == (None if theirs is None else canonical(added.type, theirs)), (alter, theirs)


@pytest.mark.parametrize("definition", ["JSON NOT NULL", "POINT NOT NULL"])
def test_a_column_whose_zero_the_type_does_not_hold_is_not_filled(definition: str) -> None:
    """MariaDB fills such rows with an empty text or geometry, which no JSON or spatial value
    is: upgrading a row from before is an error naming the column, not a made-up value."""
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute("CREATE TABLE t (id INT NOT NULL, PRIMARY KEY (id))")
    cat.execute(f"ALTER TABLE t ADD COLUMN added {definition}")
    before, after = cat.table("t", version=1), cat.table("t")
    with pytest.raises(InvalidValueError, match="`added` has no default"):
        upgrade_row({1: 1}, before, after, added=added_columns([before, after]))


#: the types a NULL column changes to NOT NULL in (outside strict mode, where the server takes
#: the change and turns each NULL into the type's zero value)
NOT_NULLED = [t for t in TYPES if "COMPRESSED" not in t and not t.startswith("ENUM")]


@pytest.mark.mariadb
@pytest.mark.parametrize("ctype", NOT_NULLED)
def test_a_null_of_a_column_made_not_null_reads_as_on_mariadb(server: Any, ctype: str) -> None:
    """``MODIFY c … NOT NULL`` over a NULL, run outside strict mode: a row from before, upgraded,
    holds what the server turned the NULL into (an ENUM's error value and a TIMESTAMP's time of
    the change are no values mvdd holds: the NULL stays)."""
    create = f"CREATE TABLE t (id INT NOT NULL, c {ctype} NULL, PRIMARY KEY (id))"
    alter = f"ALTER TABLE t MODIFY c {ctype} NOT NULL"
    cat = Catalog(replica=True, flavor="mariadb", charset="utf8mb4", collation="utf8mb4_general_ci")
    cat.execute(create)
    cat.execute(alter, sql_mode="")
    before, after = cat.table("t", version=1), cat.table("t")
    with server.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS t")
        cur.execute(create)
        cur.execute("INSERT INTO t VALUES (1, NULL)")
        cur.execute("SET SESSION sql_mode = ''")
        try:
            cur.execute(alter)
        finally:
            cur.execute("SET SESSION sql_mode = DEFAULT")
        cur.execute("SELECT c FROM t")
        (theirs,) = cur.fetchone()
    column = after.column("c")
    mine = upgrade_row({1: 1, column.id: None}, before, after)[column.id]
    assert mine == canonical(column.type, theirs), (alter, theirs)


@pytest.mark.parametrize("ctype", ["ENUM('a','b')", "TIMESTAMP"])
def test_a_null_whose_not_null_value_mvdd_cannot_hold_stays_null(ctype: str) -> None:
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute(f"CREATE TABLE t (id INT NOT NULL, c {ctype} NULL, PRIMARY KEY (id))")
    cat.execute(f"ALTER TABLE t MODIFY c {ctype} NOT NULL", sql_mode="")
    before, after = cat.table("t", version=1), cat.table("t")
    ident = after.column("c").id
    assert upgrade_row({1: 1, ident: None}, before, after)[ident] is None


#: doubles at the edges of rounding, of the types' ranges and of their text: halves (the servers
#: round a double half to even into an integer, and cut it into a BIT or a YEAR), negative
#: fractions an unsigned column takes as 0, 2**63 (a signed 64-bit integer's bound as a double),
#: doubles whose shortest digits are not their value, and texts the servers write without
#: Python's ``.0`` and ``e+``, or with fewer digits where a column is narrow
DOUBLES = [2.5, 3.5, -2.5, 0.5, -0.5, -0.4, 68.5, 69.5, 254.5, 255.5, 2155.5, 2147483647.5]
DOUBLES += [2.0**63, -(2.0**63), 2.0**63 + 2048, 1.844674407370955e19, 2.0**64, 2.0**53 + 2]
DOUBLES += [1e19, 1e300, -1.0, -0.0, 0.1, 100.0, 1e15, 1e20, 1.5e-07, 1e-4, -1e-300]
DOUBLES += [0.30000000000000004, 123456789012.5, 1.5, 1.9, 4.6, 7.5]
TARGETS = ["TINYINT", "TINYINT UNSIGNED", "INT", "INT UNSIGNED", "BIGINT", "BIGINT UNSIGNED"]
TARGETS += ["BIT(8)", "YEAR", "CHAR(10)", "VARCHAR(30)", "BINARY(10)", "BLOB", "JSON"]
TARGETS += ["ENUM('a','b','c','d')", "SET('a','b','c')"]


def _server_reads(
    cur: Any, created: str, value: Any, alter: str | None = None, *, double: bool = True
) -> Any:
    """The value of ``t.a`` once ``value`` (a double, or as it is) is inserted into the table
    ``created`` (and the table altered by ``alter``), or "refused"."""
    cur.execute("DROP TABLE IF EXISTS t")
    cur.execute(f"CREATE TABLE t (a {created})")
    try:
        cur.execute(f"INSERT INTO t VALUES ({'CAST(%s AS DOUBLE)' if double else '%s'})", (value,))
        if alter is not None:
            cur.execute(f"ALTER TABLE t MODIFY a {alter}")
    except (pymysql.err.DataError, pymysql.err.OperationalError):  # (1264, 1265, 1916 …)
        return "refused"
    cur.execute("SELECT a FROM t")
    return cur.fetchone()[0]


def _mvdd_reads(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except InvalidValueError:
        return "refused"


@pytest.mark.mariadb
@pytest.mark.parametrize("target", TARGETS)
def test_a_double_becomes_another_type_as_on_mariadb(server: Any, target: str) -> None:
    """A double made an integer, a BIT, a YEAR, text, JSON or an ENUM's or a SET's number, by
    an INSERT (a DEFAULT is stored the same way) and by an ALTER of a DOUBLE column, as the
    server makes it: an integer its exact value rounded half to even, 2**63 a BIGINT's largest
    value, an ALTER through a signed 64-bit integer (an unsigned BIGINT's 2**63 is 2**63 - 1,
    10**19 an overflow it refuses); a BIT, a YEAR and a member's number cut (an ALTER rounds
    into a BIT and a member's number); text as the servers write a double, an INSERT's fitted
    to the column, an ALTER's whole or refused."""
    ctype = parse_table(f"CREATE TABLE t (a {target})").column("a").type
    double = parse_table("CREATE TABLE t (a DOUBLE)").column("a").type

    def read(got: Any) -> Any:
        return got if got == "refused" else canonical(ctype, got)

    with server.cursor() as cur:
        cur.execute("SET SESSION sql_mode = 'STRICT_ALL_TABLES'")
        try:
            for value in DOUBLES:
                inserted = read(_server_reads(cur, target, value))
                assert _mvdd_reads(partial(ctype.coerce, value)) == inserted, value
                altered = read(_server_reads(cur, "DOUBLE", value, alter=target))
                assert _mvdd_reads(partial(ctype.convert, value, double)) == altered, value
        finally:
            cur.execute("SET SESSION sql_mode = DEFAULT")


#: texts of an ENUM's and a SET's rows: member names, and numbers as the servers read them
#: where no member is named (spaces before, a sign; an ENUM's spaces after, not past 5
#: characters; a SET's none after, not past 21)
MEMBER_TEXTS = ["a", "A ", " a", "2", " 2 ", "01", "00002", "000002", "+1", "-0", "-1", "1.0"]
MEMBER_TEXTS += ["3", " 3", "3 ", "0", "a,b ", "a, b", "03", "1e0", "+3", "4", "1" * 21, "1" * 22]


@pytest.mark.mariadb
@pytest.mark.parametrize("target", ["ENUM('a','b','1')", "SET('a','b')"])
def test_a_text_is_an_enums_or_a_sets_value_as_on_mariadb(server: Any, target: str) -> None:
    """A text inserted in a strict session, and the same text made the column's by an ALTER
    of a VARCHAR: a member it names, else the member of the number it is (mvdd refused the
    numbers), or refused."""
    ctype = parse_table(f"CREATE TABLE t (a {target})").column("a").type
    text = parse_table("CREATE TABLE t (a VARCHAR(30))").column("a").type

    def read(got: Any) -> Any:
        return ",".join(sorted(got)) if isinstance(got, set) else got

    with server.cursor() as cur:
        cur.execute("SET SESSION sql_mode = 'STRICT_ALL_TABLES'")
        try:
            for value in MEMBER_TEXTS:
                inserted = read(_server_reads(cur, target, value, double=False))
                assert _mvdd_reads(partial(ctype.coerce, value)) == inserted, value
                altered = read(_server_reads(cur, "VARCHAR(30)", value, target, double=False))
                assert _mvdd_reads(partial(ctype.convert, value, text)) == altered, value
        finally:
            cur.execute("SET SESSION sql_mode = DEFAULT")
