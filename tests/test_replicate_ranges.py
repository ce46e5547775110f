"""The key ranges the Spark bulk copy cuts a shard into, on the real server: a table of a
composite key (a name in a case- and accent-insensitive collation, a number, a date; the first
column's name hostile) is partitioned by :func:`~mvdd.replicate.replicator.key_bounds` and
:func:`~mvdd.ddl.dml.key_range`. The oracles are the server's own: the rows its comparison of
row constructors selects, the row at each offset of a plain ``ORDER BY … LIMIT 1 OFFSET n``,
and its handler's count of the rows it read (``Handler_read_*``), which a partition read as a
range of the key's index keeps near the rows it returns, where a comparison of row
constructors reads the whole table. The one-connection copy resumed after a key
(:meth:`~mvdd.binlog.source.Rows.rows`) reads from that key the same way. Keys whose order a
comparison with their text would not follow: an ENUM's (its members' order), a TIME's and a
wide DECIMAL's read as text (a sign, lengths), and a TIME's bound written as a literal."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from typing import Any

import pytest

from mvdd.binlog.source import Rows
from mvdd.ddl import parse_table
from mvdd.ddl.dml import key_range, read_source
from mvdd.ddl.render import literal_node, sql
from mvdd.replicate.replicator import key_bounds, key_numbers, member_texts
from mvdd.spark import bulk
from tests.support.mariadb import MariaDB, quote, scratch

pytestmark = pytest.mark.mariadb

KEY = ["na`me", "n", "d"]
COLUMNS = ", ".join(quote(k) for k in KEY)
#: a row constructor of the key's three values, as PyMySQL's parameters
PARAMS = "(%s, %s, %s)"
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
    return rows, handler_read(cur)


def handler_read(cur: Any) -> int:
    """The rows the server's handler read in this session since its last ``FLUSH STATUS``."""
    cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
    return sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))


def rows_of(cur: Any, name: str = "t") -> int:
    cur.execute(f"SELECT COUNT(*) FROM {name}")
    return int(cur.fetchone()[0])


@pytest.mark.parametrize("parts", [2, 7, 16])
def test_bounds_are_the_rows_at_even_offsets_read_once(table: Any, parts: int) -> None:
    with table.cursor() as cur:
        total = rows_of(cur)
        assert total > 10_000
        cur.execute("FLUSH STATUS")
        bounds = key_bounds(cur, (table.db.decode(), "t"), KEY, total, parts)
        read = handler_read(cur)
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
    with table.cursor() as cur:
        for ours, theirs in (
            (key_range(KEY, bound, None), f"({COLUMNS}) >= {PARAMS}"),
            (key_range(KEY, None, bound), f"({COLUMNS}) < {PARAMS}"),
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
    with table.cursor() as cur:
        cur.execute(
            f"SELECT {COLUMNS}, v FROM t WHERE ({COLUMNS}) > {PARAMS} ORDER BY {COLUMNS}", bound
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
        read = handler_read(cur)
    assert got == expected
    assert read <= len(got) + 2, (read, len(got))


ENUM_KEY = ["e", "id"]


@pytest.fixture(scope="module")
def enum_table(mariadb: MariaDB) -> Any:
    """A table whose key leads with an ENUM whose members are not in their text's order (and
    its error value, index 0, in some rows)."""
    with scratch(
        mariadb,
        "CREATE TABLE u (e ENUM('m','b','z','a') NOT NULL, id INT NOT NULL, PRIMARY KEY (e, id))",
        "SET SESSION sql_mode = ''",
        "INSERT INTO u SELECT ELT(1 + seq % 5, 'm', 'b', 'z', 'a', 'nope'), seq FROM seq_1_to_5000",
    ) as conn:
        conn.commit()
        yield conn


ENUM_TABLE = (
    "CREATE TABLE u (e ENUM('m','b','z','a') NOT NULL, id INT NOT NULL, PRIMARY KEY (e, id))"
)


@pytest.mark.parametrize("by", ["members", "numbers"])
def test_a_key_of_an_enum_is_cut_and_resumed_in_its_members_order(enum_table: Any, by: str) -> None:
    """An ENUM orders a key by its members' numbers ('m' < 'b' < 'z' < 'a'), where a text
    compares by the text: the bounds, the partitions and a resumed copy follow the key's order
    (the oracle: the server's ``ORDER BY``), every row in one partition. Compared through the
    members' texts (``member_texts``), the server reads the bounds and each partition as
    ranges (its handler's count the oracle); by number, as an ENUM whose members' texts do
    not tell them apart is, by scanning."""
    db = enum_table.db.decode()
    cols = "e, id"
    table = parse_table(ENUM_TABLE)
    members = member_texts(table, ENUM_KEY) if by == "members" else {}
    assert members == ({"e": ("m", "b", "z", "a")} if by == "members" else {})
    with enum_table.cursor() as cur:
        cur.execute(f"SELECT {cols} FROM u ORDER BY {cols}")
        ordered = [tuple(r) for r in cur.fetchall()]
        cur.execute(f"SELECT e + 0, id FROM u ORDER BY {cols}")
        numbers = [list(r) for r in cur.fetchall()]
        total = len(ordered)
        cur.execute("FLUSH STATUS")
        bounds = key_bounds(cur, (db, "u"), ENUM_KEY, total, 7, ["e"], members)
        read = handler_read(cur)
        assert bounds == [numbers[i * total // 7] for i in range(1, 7)]
        if members:
            assert read <= total + 2 * 7, read
        seen: list[tuple[Any, ...]] = []
        for low, high in itertools.pairwise([None, *bounds, None]):
            within = key_range(ENUM_KEY, low, high, members=members)
            part, read = reads(cur, f"SELECT {cols} FROM u WHERE {within}")
            assert total // 7 <= len(part) <= total // 7 + 1
            if members:
                assert read <= len(part) + 2, (within, read)
            seen += [tuple(r) for r in part]
    assert sorted(seen) == sorted(ordered) and len(set(seen)) == total
    rows = Rows(enum_table, "the server")
    for at in (0, 999, 1000, 2500, 4998):
        after = key_numbers(table, ENUM_KEY, list(ordered[at]))
        got = [r for chunk in rows.rows((db, "u"), ENUM_KEY, ENUM_KEY, after=after) for r in chunk]
        assert got == ordered[at + 1 :], at


def test_an_enum_of_the_empty_member_is_compared_by_number() -> None:
    """A member of the empty text is not told apart from the error value by a text: such an
    ENUM is compared by number (so are members one under the column's collation, and a SET)."""
    table = parse_table(
        "CREATE TABLE v (f ENUM('','x') NOT NULL, g ENUM('p','q') NOT NULL, "
        "s SET('p','q') NOT NULL, PRIMARY KEY (f, g, s))"
    )
    assert member_texts(table, ["f", "g", "s"]) == {"g": ("p", "q")}


@pytest.mark.parametrize(
    "delta",
    [
        dt.timedelta(hours=-100, microseconds=5),
        dt.timedelta(days=-1, seconds=81000),  # -1:30:00
        dt.timedelta(hours=838, minutes=59, seconds=59),
        dt.timedelta(microseconds=1),
        dt.timedelta(0),
    ],
    ids=str,
)
def test_a_times_literal_is_the_time(mdb: Any, delta: dt.timedelta) -> None:
    """A TIME as a driver gives it (a ``timedelta``, whose ``str`` writes days) as a literal
    the server reads as that TIME (the oracle: its count of the seconds)."""
    with mdb.cursor() as cur:
        cur.execute(f"SELECT TIME_TO_SEC(CAST({sql(literal_node(delta))} AS TIME(6)))")
        assert Decimal(cur.fetchone()[0]) == Decimal(str(delta.total_seconds()))


TYPED = "CREATE TABLE w (t TIME(3) NOT NULL, d DECIMAL(50, 10) NOT NULL, v INT, PRIMARY KEY (t, d))"


def test_a_key_read_as_text_is_compared_as_its_type(mdb: Any) -> None:
    """A key whose columns a Spark read gives as text (a TIME, a DECIMAL of more than 38
    digits: ``read_source``'s query), cut into partitions whose ranges compare that text as
    the column's type again (``bulk.ranges``): every row in one partition, the partitions
    even (as text, ``'-10:00:00'`` sorts after ``'-09:00:00'`` and ``-2`` after ``-10``)."""
    with mdb.cursor() as cur:
        cur.execute(TYPED)
        cur.execute(
            # ten rows a time, told apart by numbers of either sign and of 1 to 22 digits
            "INSERT IGNORE INTO w SELECT SEC_TO_TIME((CAST(seq % 300 AS SIGNED) - 150) * 4000.5), "
            "(CAST(seq % 7 AS SIGNED) - 3) * POW(10, seq % 23) + seq, seq FROM seq_1_to_3000"
        )
        table = parse_table(TYPED)
        total = rows_of(cur, "w")
        bounds = key_bounds(cur, (mdb.db.decode(), "w"), ["t", "d"], total, 9)
        source = read_source("w", table.columns, casts={"t": "text", "d": "text"})
        assert {c.name for c in table.columns if bulk.compared_as(c) is not None} == {"t", "d"}
        seen: list[Any] = []
        for within in bulk.ranges(["t", "d"], bounds, table.columns):
            cur.execute(f"SELECT t, d FROM {source} WHERE {within}")
            part = list(cur.fetchall())
            assert total // 9 <= len(part) <= total // 9 + 1, within
            seen += part
        assert len(seen) == len(set(seen)) == total
