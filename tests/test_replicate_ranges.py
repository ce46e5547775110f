"""The key ranges the Spark bulk copy cuts a shard into, on the real server: a table of a
composite key (a name in a case- and accent-insensitive collation, a number, a date; the first
column's name hostile) is partitioned by :func:`~mvdd.replicate.replicator.key_bounds` and
:func:`~mvdd.ddl.dml.key_range`. The oracles are the server's own: the rows its comparison of
row constructors selects, the row at each offset of a plain ``ORDER BY … LIMIT 1 OFFSET n``,
and its handler's count of the rows it read (``Handler_read_*``), which a partition read as a
range of the key's index keeps near the rows it returns, where a comparison of row
constructors reads the whole table. The one-connection copy resumed after a key
(:meth:`~mvdd.binlog.source.Rows.rows`) reads from that key the same way."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest

from mvdd.binlog.source import Rows
from mvdd.ddl.dml import key_range
from mvdd.replicate.replicator import key_bounds
from tests.support.mariadb import MariaDB, quote, scratch

pytestmark = pytest.mark.mariadb

KEY = ["na`me", "n", "d"]
COLUMNS = ", ".join(quote(k) for k in KEY)
CREATE = (
    "CREATE TABLE t (`na``me` VARCHAR(16) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci "
    "NOT NULL, n INT NOT NULL, d DATE NOT NULL, v INT, PRIMARY KEY (`na``me`, n, d))"
)
# names of four first letters that sort apart from their code points ('é' with 'E', 'b' with
# 'B'), some of them equal to others under the collation (INSERT IGNORE keeps the first)
FILL = (
    "INSERT IGNORE INTO t SELECT CONCAT(ELT(1 + seq % 5, 'a', 'B', 'é', 'E', 'z'), seq DIV 90), "
    "seq % 7, '2020-01-01' + INTERVAL seq % 3 DAY, seq FROM seq_1_to_24000"
)


@pytest.fixture(scope="module")
def table(mariadb: MariaDB) -> Any:
    with scratch(mariadb, CREATE, FILL, "ANALYZE TABLE t") as conn:
        conn.commit()
        yield conn


def keys(cur: Any, where: str = "1 = 1") -> list[tuple[Any, ...]]:
    cur.execute(f"SELECT {COLUMNS} FROM t WHERE {where} ORDER BY {COLUMNS}")
    return [tuple(r) for r in cur.fetchall()]


def reads(cur: Any, query: str) -> tuple[list[Any], int]:
    """``query``'s rows and the rows the server's handler read to answer it."""
    cur.execute("FLUSH STATUS")
    cur.execute(query)
    rows = list(cur.fetchall())
    cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
    read = sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))
    return rows, read


def rows_of(cur: Any) -> int:
    cur.execute("SELECT COUNT(*) FROM t")
    return int(cur.fetchone()[0])


@pytest.mark.parametrize("parts", [2, 7, 16])
def test_bounds_are_the_rows_at_even_offsets_read_once(table: Any, parts: int) -> None:
    with table.cursor() as cur:
        total = rows_of(cur)
        assert total > 10_000
        cur.execute("FLUSH STATUS")
        bounds = key_bounds(cur, (table.db.decode(), "t"), KEY, total, parts)
        cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
        read = sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))
        oracle = []
        for i in range(1, parts):
            cur.execute(
                f"SELECT {COLUMNS} FROM t ORDER BY {COLUMNS} LIMIT 1 OFFSET {i * total // parts}"
            )
            oracle.append(list(cur.fetchone()))
    assert bounds == oracle
    # each bound from the one before it: the rows before the last bound, once (read from the
    # first row each time, they would be read (parts - 1) / 2 times over)
    assert read <= total + 2 * parts, (read, total)


@pytest.mark.parametrize("parts", [3, 16])
def test_partitions_are_ranges_of_the_key_cover_the_table_once(table: Any, parts: int) -> None:
    with table.cursor() as cur:
        total = rows_of(cur)
        bounds = key_bounds(cur, (table.db.decode(), "t"), KEY, total, parts)
        seen: list[tuple[Any, ...]] = []
        for low, high in itertools.pairwise([None, *bounds, None]):
            within = key_range(KEY, low, high)
            rows, read = reads(cur, f"SELECT {COLUMNS}, v FROM t WHERE {within}")
            assert total // parts <= len(rows) <= total // parts + 1
            assert read <= len(rows) + 2, (within, read, len(rows))  # a range, not a scan
            seen += [tuple(r[:3]) for r in rows]
        everything = keys(cur)
    assert sorted(seen) == sorted(everything)
    assert len(seen) == len(set(seen)) == total


BOUNDS = [
    ["b12", 3, dt.date(2020, 1, 2)],  # 'b' is 'B' to the collation
    ["É100", 0, dt.date(2020, 1, 1)],
    ["e100", 6, dt.date(2020, 1, 3)],
    ["a0", -1, dt.date(1999, 1, 1)],
    ["z266", 9, dt.date(2030, 1, 1)],
    ["m", 0, dt.date(2020, 1, 1)],  # between two first letters
    ["B1", 2, dt.date(2020, 1, 1)],  # where rows are
    ["it's", 0, dt.date(2020, 1, 1)],
]


@pytest.mark.parametrize("bound", BOUNDS, ids=lambda b: str(b[0]))
def test_a_range_selects_the_rows_of_the_row_constructors_comparison(
    table: Any, bound: list[Any]
) -> None:
    tuple_ = "(" + ", ".join(["%s"] * 3) + ")"
    with table.cursor() as cur:
        for ours, theirs in (
            (key_range(KEY, bound, None), f"({COLUMNS}) >= {tuple_}"),
            (key_range(KEY, None, bound), f"({COLUMNS}) < {tuple_}"),
        ):
            cur.execute(f"SELECT {COLUMNS} FROM t WHERE {theirs} ORDER BY {COLUMNS}", bound)
            expected = [tuple(r) for r in cur.fetchall()]
            rows, read = reads(cur, f"SELECT {COLUMNS} FROM t WHERE {ours} ORDER BY {COLUMNS}")
            assert [tuple(r) for r in rows] == expected, ours
            assert read <= len(rows) + 2, (ours, read, len(rows))


@pytest.mark.parametrize("bound", BOUNDS[:3], ids=lambda b: str(b[0]))
def test_a_copy_resumed_after_a_key_reads_from_it(table: Any, bound: list[Any]) -> None:
    """The one-connection copy, resumed after the last key it wrote, reads the rows after that
    key (those of the server's comparison of row constructors), from the key on: the server's
    handler reads the rows it sends, not the ones before."""
    tuple_ = "(" + ", ".join(["%s"] * 3) + ")"
    with table.cursor() as cur:
        cur.execute(
            f"SELECT {COLUMNS}, v FROM t WHERE ({COLUMNS}) > {tuple_} ORDER BY {COLUMNS}", bound
        )
        expected = [tuple(r) for r in cur.fetchall()]
        cur.execute("FLUSH STATUS")
    rows = Rows(table, "the server")
    got = [
        r
        for chunk in rows.rows((table.db.decode(), "t"), [*KEY, "v"], KEY, after=bound, batch=1000)
        for r in chunk
    ]
    with table.cursor() as cur:
        cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
        read = sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))
    assert got == expected
    assert read <= len(got) + 2, (read, len(got))
