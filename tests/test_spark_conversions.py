"""The values a change of a column's type leaves, as the lake and the Spark pipeline compute
them (:func:`mvdd.spark.conversion.converted`), against a real server: each value of each type
below, held in a column that an ``ALTER TABLE … MODIFY`` changes to each other type, reads in
Spark as the value the server converted it to, as the lake holds it: in a strict session
(where the server refuses what the new type does not hold) and in one that is not (where it
stores the nearest value, a cut one, a zero)."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Callable
from typing import Any

import pymysql
import pytest

from mvdd import parse_table
from mvdd.model import Column
from mvdd.spark.conversion import converted, reading
from mvdd.spark.lake import _spark_schema, lake_value
from mvdd.spark.pipeline import col
from mvdd.spark.types import cast, spark_type
from tests.support.mariadb import scratch

pytestmark = [pytest.mark.mariadb, pytest.mark.spark]

#: the types a column changes from, each with values it holds
SOURCES: dict[str, list[str]] = {
    "INT": ["0", "1", "-5", "65", "99", "70", "2020", "123456", "20200101", "-10203", "2147483647"],
    "BIGINT": ["20200101123456", "991231235959"],
    "BIGINT UNSIGNED": ["18446744073709551615", "20200101"],
    "DECIMAL(12,3)": ["1.5", "-2.5", "0.125", "20200101.5", "2.499", "123456.789"],
    "DECIMAL(45,2)": ["1.5", "-12345678901234567890123456789012345678901.25"],
    "DOUBLE": [
        "1.5",
        "-2.5",
        "0.1",
        "1e20",
        "123456.789",
        "2.5",
        "3.5",
        "1e-7",
        "20200101",
        "611.25",
        "20211231.5",
        "101",
        "1e7",
        "20200101123456.5",
        "991231",
        "0.5",
        # a fraction's binary value rounded to microseconds, then cut; 14 digits of no date
        "760955.9999995",
        "261251.8",
        "13347980736555.5",
    ],
    "FLOAT": ["1.5", "0.1", "2.5", "16777217", "611.25", "20211231", "991231"],
    "BIT(8)": ["65", "0", "255", "b'1'"],
    "BIT(64)": ["18446744073709551615", "65"],
    "VARCHAR(40)": [
        "'12'",
        "' 12'",
        "'1.5'",
        "'2020-01-01'",
        "'12:34:56'",
        "'2020'",
        "'abc'",
        "'1e3'",
        "'-0'",
        "'20200101'",
        "'2020-01-01 12:34:56.789'",
        "'1:2:3'",
        "'99'",
        "'2.5'",
        "''",
        "'10101'",
        "'2021123'",
        "'611.25'",
        "'20211231.5'",
        "'211231123456.5'",
        "'1-2-3'",
        "'2026-01-02.5'",
        "'2026-01-02 5'",
        "'2026-01-02 05.06'",
        "'2026-01-02 05:06.5'",
        # a date and time of any punctuation as a TIME (an hour alone, a date or a time of day
        # that is none), a CHAR cut before a space, 12 and 14 digits of no date, second 60
        "'123:12:7 10:00:00.5'",
        "'1@6@24 5'",
        "'2026_11_08 12:30:45'",
        "'99#0#23T23:59'",
        "'123/13/30 24:00:00'",
        "'2026-4-8 24:00:00'",
        "'0000-9-22 23:59:59.9999995'",
        "'019161461003'",
        "'89914330146730'",
        "'20:59:60'",
        "'760955.9999995'",
        # an ENUM's number with a plus sign, a SET's with either sign (a negative one's two's
        # complement)
        "'+1'",
        "'-0'",
        "'-3'",
        "' +2'",
        "'+3'",
        "'-1'",
        # digits read exactly into a DECIMAL; a TIME's number of a digit first, a T after it
        # none, of 11 to 14 digits of no date followed by more the range's end; an ENUM's
        # number of fewer than 6 characters, a SET's of no space after it
        "'58422042959117285.'",
        "'796129560224074660'",
        "'73105T'",
        "' .34'",
        "'-84820TZ'",
        "'1091584493940-:::206'",
        "'2006060444+ 10TT'",
        "'7872012013959::T6813346..'",
        "'23658..6316952.10815439'",
        "'234  '",
        "'7131988 '",
        "'2 '",
        "' 3'",
        "'000002'",
        "'00002'",
        "'.5'",
        "'-.5'",
        "'2.'",
        # what follows a time or a date the server reads is left, in a session that is not
        # strict (not an exponent after a time or digits; a time's parts one punctuation apart)
        "'12:30:00abc'",
        "'2026:7:31-05-06-07'",
        "'12:30x'",
        "'1 2:3:4 z'",
        "'12:30:00.5.6'",
        "'12:61:00x'",
        "'-12:30 x'",
        "'12:30:00 '",
        "'2026-01-02 12:30:00abc'",
        "'2026-01-02x'",
        "'10:20:30-5'",
        "'12x'",
        "'1e3'",
        "'12:30e5'",
        "'12.5e'",
        "'1:2:3:4'",
        "'12:30:'",
        "'20260102 x'",
        "'20260102.5x'",
        "'260102x'",
        "'20260102123000x'",
        "'2026010212x'",
        "'20260102-'",
        "'20260102123000.5x'",
        "'20260102e5'",
        "'2026-01-02 12:30:00e5'",
        "'2026-01-02 12e5'",
        "'20260102.x'",
        "'2026-01-02 12:30:00.5e1'",
        "'2026-01-02 12:30:00abc5'",
        "'2026-01-02T12:30:00Z'",
        "'2026-01-02 12:30:00+05:00'",
        "'2026-1-2 3:4:5:6'",
        "'2026-01-02 12.5x'",
        "'2026-01-02 12x'",
        "'2026-01-02 xx'",
        "'2026-01-02 12:30 x'",
        "'2026-01-02 12::30'",
        "'2026-01-02 12 30'",
        "'2026-01-02 12a30'",
        "'2026-01-02 12:30 00'",
        "'2026-01-02 12-30-00'",
        "'2026-01-02 12:30.5x'",
        "'2026-01-02 12:30:'",
    ],
    "CHAR(10)": ["'ab'", "'7'"],
    # (each byte that begins no UTF-8 sequence a ?, a truncated one's each)
    "VARBINARY(10)": [
        "'AB'",
        "'12'",
        "x'00ff'",
        "x'e282'",
        "x'f09f98'",
        "x'f09fd7'",
        "x'f09f9889'",
    ],
    "BINARY(4)": ["'AB'"],
    # (a year past a YEAR's range is 0 there)
    "DATE": ["'2020-01-02'", "'0000-00-00'", "'1999-12-31'", "'1000-02-26'", "'9999-12-16'"],
    "DATETIME(3)": [
        "'2020-01-02 03:04:05.100'",
        "'2020-01-02 00:00:00'",
        "'4856-08-24 19:55:56.227'",
    ],
    "DATETIME": ["'2020-01-02 03:04:05'"],
    "TIMESTAMP NULL": ["'2020-01-02 03:04:05'"],
    "TIME": ["'00:00:00'", "'12:34:56'", "'-01:02:03'", "'838:59:59'", "'00:00:07'"],
    "TIME(2)": ["'12:34:56.5'", "'-00:00:00.25'"],
    "YEAR": ["2020", "1999", "0", "2069"],
    "ENUM('a','b','10')": ["'a'", "'10'", "2"],
    "SET('a','b','4')": ["'a,b'", "'4'", "''"],
    "JSON": ["'{\"a\": 1}'", "'[1,2]'", "'12'"],
}
#: the types a column changes to
TARGETS = [
    "TINYINT", "INT", "BIGINT UNSIGNED", "DECIMAL(12,3)", "DECIMAL(45,2)", "DOUBLE", "FLOAT",
    "BIT(8)", "BIT(64)", "VARCHAR(40)", "CHAR(10)", "TEXT", "VARBINARY(40)", "BINARY(4)",
    "BLOB", "DATE", "DATETIME(3)", "TIMESTAMP NULL", "TIME", "TIME(2)", "YEAR",
    "ENUM('a','b','10')", "SET('a','b','4')", "JSON",
]  # fmt: skip


def _column(ctype: str) -> Column:
    return parse_table(f"CREATE TABLE t (c {ctype})").column("c")


def _altered(cur: Any, source: str, values: list[str], target: str) -> list[Any] | None:
    """What the values ``values`` of a column of type ``source`` hold once it is changed to
    ``target``, or None where the server refuses the change."""
    cur.execute("DROP TEMPORARY TABLE IF EXISTS t")
    cur.execute(f"CREATE TEMPORARY TABLE t (i INT PRIMARY KEY, c {source}) ENGINE=Aria")
    cur.execute("INSERT INTO t VALUES " + ", ".join(f"({i}, {v})" for i, v in enumerate(values)))
    try:
        cur.execute(f"ALTER TABLE t MODIFY c {target}")
    except pymysql.err.MySQLError:
        return None
    # (a FLOAT as the binary log gives it: a client reads six digits of it)
    cur.execute(f"SELECT {'CAST(c AS DOUBLE)' if target == 'FLOAT' else 'c'} FROM t ORDER BY i")
    return [r[0] for r in cur.fetchall()]


#: a value the server refused to convert
REFUSED = object()


#: the sessions the server converts in: strict (what refuses a value a column's new type does
#: not hold), and not (what stores the nearest value, a cut one, a zero)
MODES = {"strict": "STRICT_ALL_TABLES", "loose": ""}


#: per source type: its values as the server holds them, and per session mode and target type
#: what the change leaves of each (:data:`REFUSED`: the server refuses the change of a table
#: holding it)
Converted = Callable[[str], tuple[list[Any], dict[str, dict[str, list[Any]]]]]


@pytest.fixture(scope="module")
def server(mariadb: Any) -> Converted:
    """:data:`Converted`, each source computed when its test asks (a worker computes only the
    sources of its own tests)."""

    @functools.cache
    def converted(source: str) -> tuple[list[Any], dict[str, dict[str, list[Any]]]]:
        values = SOURCES[source]
        held: list[Any] | None = None
        modes: dict[str, dict[str, list[Any]]] = {}
        for mode, sql_mode in MODES.items():
            with (
                scratch(mariadb, f"SET SESSION sql_mode = '{sql_mode}'") as conn,
                contextlib.closing(conn.cursor()) as cur,
            ):
                kept = _altered(cur, source, values, source)
                assert kept is not None and (held is None or held == kept)
                held = kept
                after = {}
                for target in TARGETS:
                    whole = _altered(cur, source, values, target)
                    if whole is None:  # value by value: those the server converts
                        one = [_altered(cur, source, [v], target) for v in values]
                        whole = [REFUSED if o is None else o[0] for o in one]
                    after[target] = whole
                modes[mode] = after
        assert held is not None
        return held, modes

    return converted


def _lake_frame(spark: Any, types: list[str], rows: list[list[Any]]) -> Any:
    """Rows of values of columns ``c0``, ``c1`` … of ``types`` as a lake's files hold them
    (:func:`lake_value`), each row numbered (``i``)."""
    from pyspark.sql import types as T

    table = parse_table(
        "CREATE TABLE t (" + ", ".join(f"c{k} {t}" for k, t in enumerate(types)) + ")"
    )
    fields = [T.StructField("i", T.IntegerType()), *_spark_schema(table).fields[2:]]
    data = [
        [i, *(lake_value(v, c) for v, c in zip(row, table.columns, strict=True))]
        for i, row in enumerate(rows)
    ]
    return spark.createDataFrame(data, T.StructType(fields))


@pytest.mark.parametrize("source", list(SOURCES))
def test_a_changed_type_converts_values_as_the_server(
    spark: Any, server: Converted, source: str
) -> None:
    from pyspark.sql import functions as F

    held, modes = server(source)
    old = _column(source)
    new = [_column(t) for t in TARGETS]
    # a row per value and mode: the value, then what the server left of it in each target
    # type (NULL where refused: such a row's conversion is not asked)
    cases = [(mode, i) for mode in MODES for i in range(len(held))]
    rows = [
        [held[i], *(None if modes[m][t][i] is REFUSED else modes[m][t][i] for t in TARGETS)]
        for m, i in cases
    ]
    df = _lake_frame(spark, [source, *TARGETS], rows)
    value = cast(col("c0"), spark_type(old.type))
    # per target: its rows the server converted (a refused one's conversion is not asked), of
    # values the lake holds (not a zero date: the lake holds NULL for it, as for no value)
    kept = {i for i, v in enumerate(held) if v is None or lake_value(v, old) is not None}
    asked = [
        [n for n, (m, i) in enumerate(cases) if i in kept and modes[m][t][i] is not REFUSED]
        for t in TARGETS
    ]

    def pair(k: int, c: Column) -> list[Any]:
        return [
            F.when(F.col("i").isin(asked[k]), converted(value, old.type, c.type)).alias(f"got{k}"),
            cast(col(f"c{k + 1}"), spark_type(c.type)).alias(f"want{k}"),
        ]

    def compared(ks: list[int]) -> list[Any]:
        got = df.select("i", *(p for k in ks for p in pair(k, new[k]))).collect()
        return [
            (
                cases[r["i"]][0],
                repr(held[cases[r["i"]][1]]),
                TARGETS[k],
                r[f"want{k}"],
                r[f"got{k}"],
            )
            for r in got
            for k in ks
            if r["i"] in asked[k] and r[f"got{k}"] != r[f"want{k}"]
        ]

    try:
        failures = compared(list(range(len(TARGETS))))
    except Exception:
        failures = [("all at once", "failed")]
        for k in range(len(TARGETS)):
            try:
                failures += compared([k])
            except Exception as err:
                failures.append((TARGETS[k], str(err).splitlines()[0][:160]))
    assert not failures, "\n".join(map(str, failures))


def test_a_rows_filled_default_converts_as_the_server(spark: Any, mariadb: Any) -> None:
    """A row written before a column was added holds the column's default then, converted by
    each later change of its type: ``project`` gives it as the server's table holds it (where
    Spark's cast refused a number as a DATETIME)."""
    from mvdd import Catalog
    from mvdd.spark import upgrade

    statements = [
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY)",
        "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 20200101, ADD COLUMN d DOUBLE DEFAULT 1e20",
        "ALTER TABLE t MODIFY c DATETIME NOT NULL, MODIFY d VARCHAR(30)",
    ]
    cat = Catalog()
    with scratch(mariadb) as conn, contextlib.closing(conn.cursor()) as cur:
        cur.execute(statements[0])
        cur.execute("INSERT INTO t VALUES (1)")
        for sql in statements:
            cat.execute(sql)
        for sql in statements[1:]:
            cur.execute(sql)
        cur.execute("SELECT id, c, d FROM t")
        want = [tuple(r) for r in cur.fetchall()]
    df = spark.createDataFrame([(1, 1)], "_version int, id int")  # (written under version 1)
    got = upgrade(df, cat, "t").collect()
    assert [tuple(r) for r in got] == want == [(1, dt.datetime(2020, 1, 1), "1e20")]


def test_rows_of_older_versions_go_through_every_change_since_as_the_server(
    spark: Any, mariadb: Any
) -> None:
    """A row written under an older version went through each later change of its columns:
    a value cut to a narrower type, or made NOT NULL, stays so when a later change widens the
    column again, and a column's default as added is converted by each change since. ``upgrade``
    gives each row as the server's table holds it, in a session that is not strict (it gave
    the older rows' values converted in one step, as if the changes between had not been)."""
    from mvdd import Catalog
    from mvdd.spark import upgrade

    create = "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b DOUBLE, c VARCHAR(10), n INT)"
    changes = [
        "ALTER TABLE t MODIFY a TINYINT, MODIFY b INT, MODIFY c VARCHAR(2), MODIFY n INT NOT NULL",
        "ALTER TABLE t MODIFY a BIGINT, MODIFY b VARCHAR(20), MODIFY c VARCHAR(10), "
        "MODIFY n VARCHAR(5), ADD COLUMN e INT NOT NULL DEFAULT 300",
        "ALTER TABLE t MODIFY e TINYINT NOT NULL",
        "ALTER TABLE t MODIFY e VARCHAR(5)",
    ]
    #: the rows written under each version: (id, a, b, c, n, e), the columns it lacks None
    written: dict[int, list[tuple[Any, ...]]] = {
        1: [(1, 300, "2.75", "abcdef", None, None), (2, -5, "-1.5", "x", 7, None)],
        2: [(3, 100, "9", "zz", 4, None)],
        3: [(4, 5000, "1.25", "abcdefgh", None, "301")],
    }
    cat = Catalog()
    cat.execute(create)
    with (
        scratch(mariadb, "SET SESSION sql_mode = ''") as conn,
        contextlib.closing(conn.cursor()) as cur,
    ):
        cur.execute(create)
        for version, change in enumerate([None, *changes], start=1):
            if change is not None:
                cur.execute(change)
                cat.execute(change)
            for row in written.get(version, []):
                names = ["id", "a", "b", "c", "n", *(["e"] if version >= 3 else [])]
                cur.execute(
                    f"INSERT INTO t ({', '.join(names)}) VALUES ({', '.join(['%s'] * len(names))})",
                    row[: len(names)],
                )
        cur.execute("SELECT id, a, b, c, n, e FROM t ORDER BY id")
        want = [tuple(r) for r in cur.fetchall()]
    df = spark.createDataFrame(
        [(v, *row) for v, rows in written.items() for row in rows],
        "_version int, id int, a bigint, b string, c string, n int, e string",
    )
    got = [tuple(r) for r in upgrade(df, cat, "t").orderBy("id").collect()]
    assert got == want
    assert want[0] == (1, 127, "3", "ab", "0", "127")


#: the collations an ENUM's and a SET's member names are matched in (the column's own)
COLLATIONS = [
    "utf8mb4_bin",
    "utf8mb4_general_ci",
    "utf8mb4_unicode_ci",
    "utf8mb4_uca1400_ai_ci",
    "utf8mb4_uca1400_as_ci",
    "latin1_swedish_ci",
]
#: texts named as members: in another case, with accents, trailing spaces, several at once
NAMES = ["a", "A", "b", "B ", "e", "E", "é", "É", "u", "ü", "a,B", "A,b,e", "2", "x", ""]


@pytest.mark.parametrize("collation", COLLATIONS)
def test_member_names_are_matched_in_the_columns_collation_as_the_server(
    spark: Any, mariadb: Any, collation: str
) -> None:
    """A text made an ENUM or a SET names its members in the column's collation: exactly in a
    binary one, its case folded in an accent-sensitive one, its case and accents folded in a
    Unicode charset's other ``_ci`` ones; the server's table, in a session that is not strict,
    is the oracle (the rule folded case alone, whatever the collation)."""
    charset = collation.split("_", 1)[0]
    old = _column("VARCHAR(40)")
    for kind in ("ENUM", "SET"):
        target = f"{kind}('a','B','é','ü') CHARACTER SET {charset} COLLATE {collation}"
        with (
            scratch(mariadb, "SET SESSION sql_mode = ''") as conn,
            contextlib.closing(conn.cursor()) as cur,
        ):
            want = _altered(cur, "VARCHAR(40)", [conn.escape(n) for n in NAMES], target)
        assert want is not None
        new = _column(target)
        df = spark.createDataFrame([(i, n) for i, n in enumerate(NAMES)], "i int, c0 string")
        got = df.select(converted(col("c0"), old.type, new.type).alias("v")).orderBy("i")
        assert [r["v"] for r in got.collect()] == want, (kind, collation)


#: text and bytes in charsets, each with values it holds (SQL literals)
CHARSET_SOURCES: dict[str, list[str]] = {
    "VARCHAR(20) CHARACTER SET latin1": ["'é'", "'abc'", "'ÿ¼'", "''", "'a€Ž?'"],
    "VARCHAR(20) CHARACTER SET utf8mb4": ["'中é'", "'a😀'", "'é'", "'x'", "'€ж?'"],
    "VARCHAR(20) CHARACTER SET ucs2": ["'é'", "'中'"],
    "VARCHAR(20) CHARACTER SET cp1251": ["'жЖ'", "'a?'"],
    "VARBINARY(20)": ["x'E9'", "x'C3A9'", "x'41'", "x'803F8E'"],
}
#: the text and bytes types they change to
CHARSET_TARGETS = [
    "VARBINARY(20)",
    "BLOB",
    "BINARY(4)",
    "VARCHAR(20) CHARACTER SET latin1",
    "VARCHAR(20) CHARACTER SET ascii",
    "VARCHAR(20) CHARACTER SET utf8mb3",
    "VARCHAR(20) CHARACTER SET cp1251",
    "TEXT CHARACTER SET utf8mb4",
    "CHAR(3) CHARACTER SET ucs2",
]
#: numbers written into string columns narrower than their text
NARROW_SOURCES: dict[str, list[str]] = {
    t: ["1.23456789", "123456.789", "-0.000123456", "1e20", "12345678", "2.5e-10", "-98765.4321"]
    for t in ("DOUBLE", "FLOAT")
}
NARROW_TARGETS = ["VARCHAR(5)", "CHAR(3)", "VARCHAR(8)", "VARCHAR(12)"]
#: per source: its values, and the types it changes to
PAIRS = {
    **{k: (v, CHARSET_TARGETS) for k, v in CHARSET_SOURCES.items()},
    **{k: (v, NARROW_TARGETS) for k, v in NARROW_SOURCES.items()},
}


@pytest.mark.parametrize("source", list(PAIRS))
def test_text_and_bytes_change_in_their_charsets_and_widths_as_the_server(
    spark: Any, mariadb: Any, source: str
) -> None:
    """A text made bytes takes its bytes in its column's charset, a text made text of another
    charset a ``?`` for each character that charset does not hold, and bytes made latin1 text
    read a character a byte (the rules took every text's bytes as UTF-8 and kept characters a
    charset lacks); a number made text of a narrow column is its text cut to the column's
    length. The server's table, in a session that is not strict, is the oracle."""
    values, targets = PAIRS[source]
    with (
        scratch(mariadb, "SET SESSION sql_mode = ''") as conn,
        contextlib.closing(conn.cursor()) as cur,
    ):
        held = _altered(cur, source, values, source)
        want = {t: _altered(cur, source, values, t) for t in targets}
    assert held is not None
    old, new = _column(source), [_column(t) for t in targets]
    df = _lake_frame(spark, [source], [[v] for v in held])
    value = cast(col("c0"), spark_type(old.type))
    got = df.orderBy("i").select(
        *(converted(value, old.type, c.type).alias(f"got{k}") for k, c in enumerate(new))
    )
    rows = got.collect()
    for k, target in enumerate(targets):
        if reading(old.type) == "bytes" and "ucs2" in target:
            continue  # (bytes made UTF-16 text are read as UTF-8: not the server's, documented)
        mine = [lake_value(r[f"got{k}"], new[k]) for r in rows]
        assert mine == [lake_value(v, new[k]) for v in want[target] or []], (source, target)
