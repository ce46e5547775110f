"""Soundness of the join on a real server: for generated joinable shard schemas, every INSERT a
shard's table accepts on MariaDB is accepted by the joined table, and the row stored there holds
the same values in the shard's columns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pymysql
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import mvdd
from mvdd import JoinConflictError, Table, parse_table
from mvdd.model.kind import Family
from tests.conftest import CI, examples
from tests.strategies import db_param, values
from tests.support.mariadb import quote, scratch

pytestmark = pytest.mark.mariadb

#: column name -> the definitions shards may give it (widenings, charsets, members, nullability,
#: COMPRESSED storage)
POOLS: dict[str, list[str]] = {
    "i": ["TINYINT", "SMALLINT", "INT", "BIGINT"],
    "u": ["TINYINT UNSIGNED", "MEDIUMINT UNSIGNED", "INT UNSIGNED"],
    "v": [
        f"VARCHAR({n}) CHARACTER SET {cs} COLLATE {cs}_bin"
        for n in (3, 8, 20)
        for cs in ("latin1", "utf8mb3", "utf8mb4")
    ],
    "c": [
        f"CHAR({n}) CHARACTER SET {cs} COLLATE {cs}_general_ci"
        for n in (2, 6)
        for cs in ("latin1", "utf8mb4")
    ],
    "tx": [
        f"{k} CHARACTER SET {cs} COLLATE {cs}_bin"
        for k in ("TINYTEXT", "TEXT")
        for cs in ("latin1", "utf8mb3", "utf8mb4")
    ],
    "e": ["ENUM('a','b')", "ENUM('a','b','c')", "ENUM('a','b','c','d''q')"],
    "s": ["SET('r','w')", "SET('r','w','x')"],
    "vb": ["VARBINARY(4)", "VARBINARY(8)", "VARBINARY(8) COMPRESSED"],
    "bl": ["TINYBLOB", "BLOB", "BLOB COMPRESSED"],
    # fractional seconds and BIT widen (row events carry stored values)
    "dt": ["DATETIME(2)", "DATETIME(6)"],
    "tm": ["TIME", "TIME(3)", "TIME(6)"],
    "bt": ["BIT(4)", "BIT(8)"],
    "dc": ["DECIMAL(6,2)"],
    "y": ["YEAR"],
}
#: the one default each column may have (shards that give one give the same)
DEFAULTS = {
    "i": "7",
    "u": "7",
    "v": "'ab'",
    "c": "'z'",
    "e": "'b'",
    "s": "'w'",
    "vb": "x'01'",
    "dt": "'2020-01-01 00:00:00.50'",
    "tm": "'01:02:03'",
    "bt": "b'101'",
    "dc": "1.25",
    "y": "1999",
}
GENERATED = ["g INT AS (id + 1) STORED", "h INT AS (id * 2) VIRTUAL"]

INSERTS = {"count": 0}


@st.composite
def shard_schemas(draw: st.DrawFn) -> list[Table]:
    """2-3 shard tables over a shared pool of columns, each column present or not."""
    count = draw(st.integers(2, 3))
    defaults = {name: draw(st.booleans()) for name in POOLS}
    tables = []
    for _ in range(count):
        parts = ["id INT NOT NULL PRIMARY KEY"]
        for name, pool in POOLS.items():
            if not draw(st.booleans()):
                continue
            definition = f"{quote(name)} {draw(st.sampled_from(pool))}"
            nullable = draw(st.booleans())
            definition += " NULL" if nullable else " NOT NULL"
            if name in DEFAULTS and defaults[name] and draw(st.booleans()):
                definition += f" DEFAULT {DEFAULTS[name]}"
            parts.append(definition)
        parts += [g for g in GENERATED if draw(st.booleans())]
        if len(parts) > 2 and "COMPRESSED" not in parts[1] and draw(st.booleans()):
            parts.append(
                f"UNIQUE KEY uq ({parts[1].split()[0]}{'(2)' if 'TEXT' in parts[1] or 'BLOB' in parts[1] else ''})"
            )
        tables.append(parse_table(f"CREATE TABLE s ({', '.join(parts)})"))
    return tables


def stressing(col: Any) -> st.SearchStrategy[Any]:
    """Values that press on the limits: the longest strings, multibyte characters."""
    t = col.type
    if t.family in (Family.CHAR, Family.TEXT):
        limit = min(t.max_length() or 8, 300)
        return st.sampled_from(["é" * limit, "€" * limit, "a" * limit, "😀", "ÿ" * min(limit, 3)])
    if t.family == Family.INTEGER:
        lo, hi = t.integer_range()
        return st.sampled_from([lo, hi, 0])
    return values(t)


@st.composite
def rows(draw: st.DrawFn, table: Table, n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        row: dict[str, Any] = {"id": i + 1}
        for col in table.columns[1:]:
            if col.generated is not None:
                continue
            choice = draw(st.integers(0, 9))
            if choice == 0:
                continue  # omitted: the default applies
            if choice == 1:
                row[col.name] = None
            elif choice < 4:
                row[col.name] = draw(stressing(col))
            else:
                row[col.name] = draw(values(col.type))
        out.append(row)
    return out


@pytest.fixture(scope="module")
def server(mariadb: Any) -> Iterator[pymysql.connections.Connection]:
    with scratch(mariadb) as conn:
        yield conn


def insert(cur: Any, table: str, row: dict[str, Any], schema: Table) -> None:
    names = ", ".join(quote(n) for n in row)
    marks = ", ".join(["%s"] * len(row))
    params = [db_param(schema.column(n).type, v) if v is not None else None for n, v in row.items()]
    cur.execute(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", params)


@pytest.mark.slow
def test_every_shard_insert_fits_the_join(server: Any) -> None:
    """Every row a shard table accepts, the joined table accepts and stores alike (the
    property below, over random shards), proven on enough rows to mean something."""
    INSERTS["count"] = 0
    every_shard_insert_fits_the_join(server)
    print(f"\nsoundness: {INSERTS['count']} shard inserts proven on the joined table")
    if CI:
        assert INSERTS["count"] >= 2000, INSERTS


@settings(max_examples=examples(80, 12))
@given(st.data())
def every_shard_insert_fits_the_join(server: Any, data: st.DataObject) -> None:
    shards = data.draw(shard_schemas())
    try:
        joined = mvdd.join(*shards)
    except JoinConflictError:
        assume(False)
        raise
    with server.cursor() as cur:
        for i, shard in enumerate(shards):
            cur.execute("DROP TABLE IF EXISTS s, j")
            cur.execute(shard.to_sql())
            cur.execute(joined.to_sql().replace("CREATE TABLE `s`", "CREATE TABLE `j`", 1))
            plain = [c.name for c in shard.columns if c.generated is None]
            select = ", ".join(quote(n) for n in plain)
            for row in data.draw(rows(shard, 30)):
                try:
                    insert(cur, "s", row, shard)
                except pymysql.MySQLError:
                    continue  # the shard refuses it: nothing to prove
                INSERTS["count"] += 1
                try:
                    insert(cur, "j", row, shard)
                except pymysql.MySQLError as err:
                    raise AssertionError(
                        f"shard {i} accepted {row} but the join refused it: {err}\n"
                        f"shard: {shard.to_sql()}\njoin: {joined.to_sql()}"
                    ) from None
                cur.execute(f"SELECT {select} FROM s WHERE id = %s", (row["id"],))
                upstream = cur.fetchone()
                cur.execute(f"SELECT {select} FROM j WHERE id = %s", (row["id"],))
                downstream = cur.fetchone()
                assert upstream == downstream, (row, plain, shard.to_sql(), joined.to_sql())
