"""The Spark pipeline against a pure-Python oracle: generated histories (renames, widenings,
drops, re-adds of a dropped name, defaults that change) and diverged shards; and the physical
plans hold no Python UDF."""

from __future__ import annotations

import contextlib
import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mvdd
from mvdd import NO_DEFAULT, Catalog, Column, MvddError, ShardGroup, Table, parse_table
from mvdd.model.row import COMPUTED, upgrade_through, validate_row
from tests.conftest import CI, examples
from tests.strategies import values

pytestmark = pytest.mark.spark

if not CI:  # locally a machine without PySpark skips; under CI a missing component fails
    pytest.importorskip("pyspark", reason="pyspark is not installed; `make test` installs it")
from pyspark.sql import functions as F  # noqa: E402

from mvdd.spark import (  # noqa: E402
    backfill_column,
    has_python_udf,
    index_entries,
    merge_shards,
    staging_schema,
    staging_value,
    struct_type,
    to_spark,
    upgrade,
)
from mvdd.spark.lake import lake_value  # noqa: E402

EXAMPLES = settings(
    max_examples=examples(25, 8),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

CREATE = (
    "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, a INT, b VARCHAR(10) DEFAULT 'x', "
    "c DECIMAL(8,2) NOT NULL DEFAULT 1.50)"
)
NAMES = ["a", "b", "c", "d", "e"]
ADDED_TYPES = [
    "INT DEFAULT 7",
    "VARCHAR(5) DEFAULT 'q'",
    "BIGINT NULL",
    "DATE DEFAULT '2020-02-02'",
    "DATE DEFAULT DATE '2021-3-4'",  # (a typed temporal literal: a constant, the rows take it)
    "BIGINT DEFAULT TIMESTAMP '2020-01-01 10:00:00'",
    "DECIMAL(8,2) NULL",
    "SMALLINT NOT NULL DEFAULT 3",
    "UUID NULL",
    "INET6 NOT NULL DEFAULT '0:0:0:0:0:0:0102:0304'",
    # NOT NULL without a default (a replica's catalog takes it, as MariaDB does): the rows
    # from before hold the type's zero value
    "INT NOT NULL",
    "VARCHAR(4) NOT NULL",
]


def columns(table: Table) -> list[str]:
    return [c.name for c in table.columns if c.name != "id"]


@st.composite
def histories(draw: st.DrawFn) -> Catalog:
    # a replica's catalog (the server's rules: NOT NULL columns added without a default, NULLs
    # made NOT NULL outside strict mode)
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute(CREATE)
    for _ in range(draw(st.integers(1, 8))):
        table = cat.table("t")
        cols = columns(table)
        op = draw(st.sampled_from(["rename", "widen", "add", "drop", "default", "add", "tighten"]))
        sql = None
        if op == "rename" and cols:
            old, new = draw(st.sampled_from(cols)), draw(st.sampled_from(NAMES))
            sql = f"ALTER TABLE t RENAME COLUMN {old} TO {new}"
        elif op == "widen" and cols:
            target = table.column(draw(st.sampled_from(cols)))
            wider = {
                "SMALLINT": "INT",
                "INT": "BIGINT",
                "VARCHAR": f"VARCHAR({(target.type.length or 1) + 10})",
            }.get(target.type.kind)
            if wider is not None:
                default = target.default
                sql = f"ALTER TABLE t MODIFY {target.name} {wider}"
                sql += " NULL" if target.nullable else " NOT NULL"
                if default is not NO_DEFAULT:
                    sql += " DEFAULT NULL" if default is None else f" DEFAULT {default!r}"
        elif op == "add":
            name = draw(st.sampled_from(NAMES))
            sql = f"ALTER TABLE t ADD COLUMN {name} {draw(st.sampled_from(ADDED_TYPES))}"
        elif op == "drop" and len(cols) > 1:
            sql = f"ALTER TABLE t DROP COLUMN {draw(st.sampled_from(cols))}"
        elif op == "tighten" and cols:  # NOT NULL over NULLs: each the type's zero value
            target = table.column(draw(st.sampled_from(cols)))
            same = {"SMALLINT": "SMALLINT", "INT": "INT", "BIGINT": "BIGINT"}.get(target.type.kind)
            if target.type.kind == "VARCHAR":
                same = f"VARCHAR({target.type.length})"
            if same is not None and target.nullable and target.default is NO_DEFAULT:
                with contextlib.suppress(MvddError):
                    cat.execute(f"ALTER TABLE t MODIFY {target.name} {same} NOT NULL", sql_mode="")
        elif op == "default" and cols:
            target = table.column(draw(st.sampled_from(cols)))
            if target.type.family == "integer":
                sql = f"ALTER TABLE t ALTER COLUMN {target.name} SET DEFAULT {draw(st.integers(0, 99))}"
        if sql is not None:
            with contextlib.suppress(MvddError):
                cat.execute(sql)
    return cat


@st.composite
def written_rows(
    draw: st.DrawFn, versions: dict[int, Table], count: int
) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i in range(count):
        v = draw(st.sampled_from(sorted(versions)))
        table = versions[v]
        given: dict[str, Any] = {"id": i + 1}
        for col in table.public_columns:
            if col.name == "id" or col.type.family in ("float",):
                continue
            choice = draw(st.integers(0, 4))
            if choice == 0 and col.has_default:
                continue  # the default applies
            if choice == 1 and col.nullable:
                given[col.name] = None
            else:
                given[col.name] = draw(values(col.type))
        out.append((v, validate_row(table, given)))
    return out


def oracle(
    versions: dict[int, Table], to: int, rows: list[tuple[int, dict[str, Any]]]
) -> list[tuple[Any, ...]]:
    target = versions[to]
    out = []
    for v, row in rows:
        table = versions[v]
        by_id = {table.column(n).id: value for n, value in row.items()}
        # (as the server's ALTERs took the rows: through each version to the target's)
        up = upgrade_through(by_id, [t for n, t in sorted(versions.items()) if v <= n <= to])
        out.append(
            tuple(
                None if up[c.id] is COMPUTED else to_spark(c.type, up[c.id])
                for c in target.public_columns
            )
        )
    return sorted(out, key=lambda r: r[0])


def frame(spark: Any, versions: dict[int, Table], rows: list[tuple[int, dict[str, Any]]]) -> Any:
    schema = staging_schema(versions.values())
    fields = {f.name: f.dataType for f in schema.fields}
    data = []
    for v, row in rows:
        table = versions[v]
        record = [v] + [None] * (len(schema.fields) - 1)
        for name, value in row.items():
            pos = schema.fieldNames().index(name)
            record[pos] = staging_value(fields[name], table.column(name).type, value)
        data.append(tuple(record))
    return spark.createDataFrame(data, schema=schema)


@EXAMPLES
@given(data=st.data())
def test_upgrade_equals_the_oracle(spark: Any, data: st.DataObject) -> None:
    cat = data.draw(histories())
    versions = {c.version: cat.table("t", version=c.version) for c in cat.history("t")}
    target_version = data.draw(st.sampled_from(sorted(versions)))
    target = versions[target_version]
    older = {v: t for v, t in versions.items() if v <= target_version}
    rows = data.draw(written_rows(older, 30))
    df = frame(spark, versions, rows)
    out = upgrade(df, cat, "t", to_version=target_version)
    assert out.columns == [c.name for c in target.public_columns]
    assert not has_python_udf(out)
    got = sorted((tuple(r) for r in out.collect()), key=lambda r: r[0])
    assert got == oracle(versions, target_version, rows)


def test_struct_type_covers_the_families() -> None:
    table = parse_table(
        "CREATE TABLE t (a TINYINT, b TINYINT UNSIGNED, c BIGINT UNSIGNED, d DECIMAL(40,2), "
        "e DECIMAL(9,3), f FLOAT, g DOUBLE, h BIT(3), i CHAR(2), j TEXT, k ENUM('x'), l JSON, "
        "m VARBINARY(4), n BLOB, o DATE, p DATETIME(3), q TIMESTAMP NULL, r TIME, s YEAR, "
        "u POINT)"
    )
    assert struct_type(table).simpleString() == (
        "struct<a:tinyint,b:smallint,c:decimal(20,0),d:string,e:decimal(9,3),f:float,g:double,"
        "h:bigint,i:string,j:string,k:string,l:string,m:binary,n:binary,o:date,"
        "p:timestamp_ntz,q:timestamp_ntz,r:string,s:smallint,u:binary>"
    )
    # dates no Python date holds: the zero date, a zero month or day, a day its month lacks,
    # the year 0
    for text in ("0000-00-00", "2020-00-15", "2023-04-31", "0000-01-01"):
        assert to_spark(table.column("o").type, text) is None
    assert to_spark(table.column("p").type, "2021-02-30 12:34:56.789") is None
    assert to_spark(table.column("q").type, "2020-00-00 01:02:03") is None
    # a change batch of the lake: numbers in its text columns as text, those dates as NULL
    year = parse_table("CREATE TABLE y (y YEAR, u BIGINT UNSIGNED, d DATE)")
    assert lake_value(2155, year.column("y")) == "2155"
    assert lake_value(2**64 - 1, year.column("u")) == "18446744073709551615"
    assert lake_value("2023-04-31", year.column("d")) is None
    assert lake_value(dt.date(2023, 4, 30), year.column("d")) == "2023-04-30"
    assert lake_value("2023-04-30", year.column("d")) == "2023-04-30"  # a held row's text
    # members of bytes their charset does not read, as the server shows them (a ? a byte)
    kept = parse_table(
        "CREATE TABLE m (e ENUM('a', X'C3A9') CHARACTER SET ascii, s SET('a', X'E9') "
        "CHARACTER SET ascii, t TEXT CHARACTER SET utf8mb4)"
    )
    members = kept.column("e").type.members
    assert lake_value(members[1], kept.column("e")) == "??"
    assert lake_value({"a", *kept.column("s").type.members[1:]}, kept.column("s")) == "a,?"
    assert lake_value("é", kept.column("t")) == "é"
    assert to_spark(table.column("p").type, "2020-01-02 03:04:05.500") == dt.datetime(
        2020, 1, 2, 3, 4, 5, 500000
    )
    assert to_spark(table.column("e").type, Decimal("1.250")) == Decimal("1.250")


def test_the_udf_check_can_fail(spark: Any) -> None:
    from pyspark.sql import functions as F

    df = spark.range(3).withColumn("x", F.udf(lambda v: v + 1, "long")("id"))
    assert has_python_udf(df)


def test_the_sessions_jvm_takes_the_options_the_environment_names(
    spark: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MVDD_SPARK_JAVA_OPTIONS reaches the JVM (asked for its own arguments: the tests set C1
    alone, see conftest); one that cannot be split is refused, naming the variable."""
    from mvdd.spark.runtime import JAVA_OPTIONS, SparkConfigError, java_options

    jvm = spark.sparkContext._jvm
    arguments = list(
        jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
    )
    assert set(java_options()) <= set(arguments)
    monkeypatch.setenv(JAVA_OPTIONS, "-Dmvdd.note='two words' -Xss4m")
    assert java_options() == ["-Dmvdd.note=two words", "-Xss4m"]
    monkeypatch.setenv(JAVA_OPTIONS, "-Dmvdd.note='unclosed")
    with pytest.raises(SparkConfigError, match=r"MVDD_SPARK_JAVA_OPTIONS=.*cannot be split"):
        java_options()
    monkeypatch.delenv(JAVA_OPTIONS)
    assert java_options() == []


def test_a_callers_session_holds_huge_methods_only_where_it_has_sparks_default(
    spark: Any,
) -> None:
    """mvdd's sessions hold whole-stage code generation to methods HotSpot compiles; a caller's
    session that never set the limit (Spark's default, 65535) gets that limit from ``upgrade``
    and the lake's conversions, and one the caller set is left as it is."""
    from mvdd.spark.lake import lake_converted
    from mvdd.spark.runtime import HUGE_METHOD, HUGE_METHOD_SETTING

    assert spark.conf.get(HUGE_METHOD_SETTING) == str(HUGE_METHOD)
    cat = Catalog()
    cat.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, c INT)")
    cat.execute("ALTER TABLE t MODIFY c TIME")
    df = spark.createDataFrame([(1, 1, 123456)], "_version int, id int, c int")
    types = [parse_table(f"CREATE TABLE t (c {t})").column("c").type for t in ("INT", "TIME")]
    try:
        for run in (lambda: upgrade(df, cat, "t"), lambda: lake_converted(spark, types, [1])):
            spark.conf.set(HUGE_METHOD_SETTING, "65535")
            run()
            assert spark.conf.get(HUGE_METHOD_SETTING) == str(HUGE_METHOD)
            spark.conf.set(HUGE_METHOD_SETTING, "20000")
            run()
            assert spark.conf.get(HUGE_METHOD_SETTING) == "20000"
        assert [tuple(r) for r in upgrade(df, cat, "t").collect()] == [(1, "12:34:56")]
    finally:
        spark.conf.set(HUGE_METHOD_SETTING, str(HUGE_METHOD))


def test_a_cast_by_name_is_the_cast_by_type(spark: Any) -> None:
    """Every Spark type a MySQL type maps to, cast to by its SQL name (one call into the JVM)
    is that type, as Spark reads the name; and mvdd's sessions build expressions without
    PySpark's call-site capture (five round trips more for each)."""
    from pyspark.errors.utils import is_debugging_enabled

    from mvdd.spark.runtime import DEBUGGING
    from mvdd.spark.types import cast, spark_type

    kinds = [
        "TINYINT", "TINYINT UNSIGNED", "SMALLINT UNSIGNED", "MEDIUMINT", "INT", "INT UNSIGNED",
        "BIGINT", "BIGINT UNSIGNED", "DECIMAL(12,3)", "DECIMAL(65,4)", "FLOAT", "DOUBLE",
        "BIT(3)", "BIT(64)", "CHAR(2)", "TEXT", "ENUM('a')", "JSON", "BINARY(3)", "BLOB",
        "POINT", "DATE", "DATETIME(3)", "TIMESTAMP", "TIME", "YEAR", "UUID",
    ]  # fmt: skip
    columns = ", ".join(f"c{i} {k}" for i, k in enumerate(kinds))
    table = parse_table(f"CREATE TABLE t ({columns})")
    types = [spark_type(c.type) for c in table.columns]
    assert len({t.simpleString() for t in types}) >= 12  # (every family: the list is wide)
    row = spark.range(1).select(
        *(cast(F.lit(None), t).alias(f"c{i}") for i, t in enumerate(types)),
        *(cast(F.lit("1"), t, tried=True).alias(f"t{i}") for i, t in enumerate(types)),
    )
    assert [f.dataType for f in row.schema.fields] == types + types
    assert spark.conf.get(DEBUGGING) == "false" and not is_debugging_enabled()


# --- merging shards ---------------------------------------------------------------------------

SHARD_BASE = "CREATE TABLE {t} (id BIGINT NOT NULL PRIMARY KEY, a INT, b VARCHAR(8) DEFAULT 'x')"
SHARD_DDL = [
    "ALTER TABLE {t} ADD COLUMN c INT NOT NULL",
    "ALTER TABLE {t} ADD COLUMN c INT NOT NULL DEFAULT 4",
    "ALTER TABLE {t} MODIFY a BIGINT",
    "ALTER TABLE {t} MODIFY b VARCHAR(20) DEFAULT 'x'",
    "ALTER TABLE {t} DROP COLUMN b",
    "ALTER TABLE {t} RENAME COLUMN a TO z",
    "ALTER TABLE {t} ADD COLUMN d DATE",
    "ALTER TABLE {t} DROP COLUMN a",
]


@st.composite
def groups(draw: st.DrawFn) -> ShardGroup:
    g = ShardGroup("t", {f"s{i}": SHARD_BASE.format(t=f"t{i}") for i in range(3)})
    for _ in range(draw(st.integers(1, 7))):
        shard = draw(st.sampled_from(list(g.shards)))
        sql = draw(st.sampled_from(SHARD_DDL)).format(t=g.schema(shard).name)
        with contextlib.suppress(MvddError):
            g.apply(shard, sql)
    return g


def narrowed(g: ShardGroup) -> bool:
    """Whether a version of an unpaused shard has a column wider than where it lands now."""
    for shard in g.shards:
        if shard in g.paused:
            continue
        for v, _ in g.history(shard):
            for c in g.schema(shard, version=v).columns:
                dest = g.destination(shard, c.id)
                if dest is not None and c.type != dest.type:
                    try:
                        if mvdd.compare(_one(c.type), _one(dest.type)) > 0:
                            return True
                    except mvdd.IncomparableError:
                        return True
    return False


def _one(ctype: Any) -> Table:
    return Table(name="x", columns=(Column(id=1, name="c", type=ctype),), last_id=1)


def merge_oracle(
    g: ShardGroup, rows: dict[str, list[tuple[int, dict[str, Any]]]]
) -> list[tuple[Any, ...]]:
    from mvdd.join.encode import implicit_default
    from mvdd.model import NO_DEFAULT

    joined = g.joined
    out = []
    for shard, shard_rows in rows.items():
        for v, row in shard_rows:
            table = g.schema(shard, version=v)
            by_key = {}
            for n, value in row.items():
                dest = g.destination(shard, table.column(n).id)
                if dest is not None:
                    by_key[dest.name.casefold()] = value
            record = []
            for c in joined.public_columns:
                if c.name.casefold() in by_key:
                    value = by_key[c.name.casefold()]
                    record.append(
                        to_spark(c.type, c.type.coerce(value) if value is not None else None)
                    )
                else:
                    default = c.effective_default
                    if default is NO_DEFAULT and not c.nullable:
                        default = implicit_default(c.type)
                    record.append(None if default is NO_DEFAULT else to_spark(c.type, default))
            out.append(tuple(record))
    return sorted(out, key=lambda r: r[0])


@EXAMPLES
@given(data=st.data())
def test_merge_shards_equals_the_oracle(spark: Any, data: st.DataObject) -> None:
    g = data.draw(groups())
    # a column a shard widened and then left (dropped, renamed away) narrows downstream: the
    # wide values it wrote do not fit any more (the server refuses the narrowing; a known
    # limit of joining current schemas only), and no merge of them can be right
    assume(not narrowed(g))
    frames, rows = {}, {}
    next_id = 1
    for shard in g.shards:
        if shard in g.paused:
            continue  # its rows wait until it resumes (they may not fit the joined schema)
        versions = {v: g.schema(shard, version=v) for v, _ in g.history(shard)}
        shard_rows = []
        for v, row in data.draw(written_rows(versions, 10)):
            row = {**row, "id": next_id}
            next_id += 1
            shard_rows.append((v, row))
        rows[shard] = shard_rows
        frames[shard] = frame(spark, versions, shard_rows)
    out = merge_shards(frames, g)
    assert out.columns == [c.name for c in g.joined.public_columns]
    assert not has_python_udf(out)
    got = sorted((tuple(r) for r in out.collect()), key=lambda r: r[0])
    assert got == merge_oracle(g, rows)
    # a (shard, version)'s rows apart, as a lake's batch files and a bulk copy's chunks hold
    # them: no version column, no CASE over the shard's versions, the same rows
    written = sorted({(shard, v) for shard, shard_rows in rows.items() for v, _ in shard_rows})
    if written:
        shard, v = data.draw(st.sampled_from(written))
        alone = frames[shard].where(F.col("_version") == v).drop("_version")
        apart = merge_shards({shard: alone}, g, versions={shard: v})
        assert apart.columns == out.columns and not has_python_udf(apart)
        ids = {row["id"] for w, row in rows[shard] if w == v}
        assert sorted(map(tuple, apart.collect())) == [r for r in got if r[0] in ids]


def test_rows_without_a_version_column_are_of_one_version(spark: Any) -> None:
    """A frame without a version column is read under one version; under two, which one a
    row was written under is unknown: refused, naming the table."""
    from mvdd.spark import project

    t = parse_table("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT)")
    df = spark.createDataFrame([(1, 5)], "id int, a int")
    assert project(df, {3: t}, t, version_col=None).collect() == [(1, 5)]
    with pytest.raises(MvddError, match="without a version column under 2 versions") as err:
        project(df, {1: t, 2: t}, t, version_col=None)
    assert err.value.table == "t"


# --- reorg as a Spark job ---------------------------------------------------------------------


def test_backfill_and_index_entries(spark: Any) -> None:
    table = parse_table(
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a VARCHAR(10), n INT NOT NULL DEFAULT 5, "
        "KEY ka (a(2)))"
    )
    schema = struct_type(table)
    schema["n"].nullable = True  # rows written before the column was filled
    df = spark.createDataFrame([(1, "abc", None), (2, None, 3), (3, "abd", 7)], schema=schema)
    filled = backfill_column(df, table, "n")
    assert sorted(tuple(r) for r in filled.collect()) == [
        (1, "abc", 5),
        (2, None, 3),
        (3, "abd", 7),
    ]
    entries = index_entries(df, table, "ka")
    assert sorted(tuple(r) for r in entries.collect()) == [("ab", 1), ("ab", 3)]
    assert not has_python_udf(entries) and not has_python_udf(filled)


def test_backfill_of_a_temporal_literal_default(spark: Any) -> None:
    """A DEFAULT of a typed temporal literal is a constant: rows written before its column
    take its value (an expression's default would leave them NULL)."""
    table = parse_table(
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, d DATE NOT NULL DEFAULT DATE '2021-3-4', "
        "n BIGINT NOT NULL DEFAULT TIMESTAMP '2020-01-01 10:00:00')"
    )
    schema = struct_type(table)
    schema["d"].nullable = schema["n"].nullable = True  # rows written before the columns
    df = spark.createDataFrame([(1, None, None), (2, dt.date(2000, 1, 1), 5)], schema=schema)
    filled = backfill_column(backfill_column(df, table, "d"), table, "n")
    assert sorted(tuple(r) for r in filled.collect()) == [
        (1, dt.date(2021, 3, 4), 20200101100000),
        (2, dt.date(2000, 1, 1), 5),
    ]
