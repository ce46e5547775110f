"""The Spark pipeline: rows written under any schema version, on any shard, into the newest or
the joined schema, with native column expressions only (no Python UDF, nothing collected to the
driver). The only package that imports PySpark (the CLI's replay command uses it through here).

* :func:`struct_type` maps a table version to a Spark ``StructType``.
* :func:`upgrade` turns a DataFrame of rows written under various versions of a table (a version
  column says which; the columns by their names at that version, absent ones null) into rows of
  one target version: one ``CASE`` per target column over the versions, matching columns by id
  through renames, casting widened ones, filling a column a row lacks with the value MySQL gave
  existing rows when it was added (its default then), dropping what the target dropped.
* :func:`merge_shards` does the same for the shards of a :class:`~mvdd.shard.ShardGroup`, each
  with its own version numbers, into the joined schema, and unions them.
* :func:`backfill_column` and :func:`index_entries` are the reorg of an online change as a Spark
  job: a new column's values, a new index's entries, over a whole table.

Values the server computes (expression defaults other than a constant, generated columns) are
NULL here: the pipeline does not evaluate SQL expressions. Zero dates are NULL. TIME and YEAR are
strings and shorts; DECIMAL wider than Spark's 38 digits is a string.

>>> from mvdd import parse_table
>>> struct_type(parse_table("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20))")).simpleString()
'struct<id:bigint,name:string>'
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pyspark.sql import Column as SparkColumn
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from mvdd.errors import MvddError, NoSuchColumnError
from mvdd.join.encode import implicit_default
from mvdd.model import NO_DEFAULT, Column, ColumnType, Expr, Index, IndexKind, Table
from mvdd.model.row import added_columns
from mvdd.model.types import Family, TypeKind

if TYPE_CHECKING:
    from mvdd.catalog import Catalog
    from mvdd.shard import ShardGroup

K = TypeKind

# --- types ------------------------------------------------------------------------------------

_INTEGERS: dict[tuple[TypeKind, bool], T.DataType] = {
    (K.TINYINT, False): T.ByteType(),
    (K.TINYINT, True): T.ShortType(),
    (K.SMALLINT, False): T.ShortType(),
    (K.SMALLINT, True): T.IntegerType(),
    (K.MEDIUMINT, False): T.IntegerType(),
    (K.MEDIUMINT, True): T.IntegerType(),
    (K.INT, False): T.IntegerType(),
    (K.INT, True): T.LongType(),
    (K.BIGINT, False): T.LongType(),
    (K.BIGINT, True): T.DecimalType(20, 0),
}

#: the Spark type of each family (integers and decimals are decided by their parameters)
FAMILY_TYPES: dict[Family, T.DataType] = {
    Family.FLOAT: T.DoubleType(),
    Family.BIT: T.LongType(),
    Family.CHAR: T.StringType(),
    Family.TEXT: T.StringType(),
    Family.ENUM: T.StringType(),
    Family.JSON: T.StringType(),
    Family.BINARY: T.BinaryType(),
    Family.BLOB: T.BinaryType(),
    Family.SPATIAL: T.BinaryType(),
}
TEMPORAL_TYPES: dict[TypeKind, T.DataType] = {
    K.DATE: T.DateType(),
    K.DATETIME: T.TimestampNTZType(),
    K.TIMESTAMP: T.TimestampNTZType(),
    K.TIME: T.StringType(),
    K.YEAR: T.ShortType(),
}


def spark_type(ctype: ColumnType) -> T.DataType:
    """The Spark type holding every value of a MySQL type."""
    fam = ctype.family
    if fam == Family.INTEGER:
        return _INTEGERS[(ctype.kind, ctype.unsigned)]
    if fam == Family.DECIMAL:
        assert ctype.precision is not None and ctype.scale is not None
        if ctype.precision > 38:
            return T.StringType()
        return T.DecimalType(ctype.precision, ctype.scale)
    if ctype.kind == K.FLOAT:
        return T.FloatType()
    if fam == Family.TEMPORAL:
        return TEMPORAL_TYPES[ctype.kind]
    return FAMILY_TYPES[fam]


def struct_type(table: Table) -> T.StructType:
    """A table version as a Spark schema: its public columns, in order."""
    return T.StructType(
        [T.StructField(c.name, spark_type(c.type), c.nullable) for c in table.public_columns]
    )


def to_spark(ctype: ColumnType, value: Any) -> Any:
    """A canonical mvdd value as the Python value Spark stores for it (None for what Spark
    cannot hold: a zero date, a value the server computes)."""
    if value is None or isinstance(value, Expr):
        return None
    fam = ctype.family
    if fam == Family.TEMPORAL and ctype.kind in (K.DATE, K.DATETIME, K.TIMESTAMP):
        text = str(value)
        if text.startswith("0000") or "-00" in text[:10]:
            return None
        if ctype.kind == K.DATE:
            return dt.date.fromisoformat(text)
        return dt.datetime.fromisoformat(text)
    if fam == Family.DECIMAL:
        return Decimal(value) if not isinstance(spark_type(ctype), T.StringType) else str(value)
    if fam == Family.FLOAT:
        return float(value)
    if ctype.kind == K.YEAR:
        return int(value)
    return value


def staging_type(types: Iterable[ColumnType]) -> T.DataType:
    """One Spark type for a column name that held these types over a table's versions: the
    shared type, the widest integer, else a string (each version's value casts from it)."""
    seen = [spark_type(t) for t in types]
    if all(t == seen[0] for t in seen):
        return seen[0]
    integral = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)
    if all(isinstance(t, integral) for t in seen):
        return T.LongType()
    return T.StringType()


def staging_schema(versions: Iterable[Table], *, version_col: str = "_version") -> T.StructType:
    """The schema of a DataFrame of rows written under ``versions``, as :func:`upgrade` reads
    it: the version column, then every column name ever used (absent ones null)."""
    by_name: dict[str, list[ColumnType]] = {}
    for table in versions:
        for c in table.public_columns:
            by_name.setdefault(c.name, []).append(c.type)
    fields = [T.StructField(version_col, T.IntegerType(), False)]
    fields += [T.StructField(n, staging_type(ts), True) for n, ts in by_name.items()]
    return T.StructType(fields)


def staging_value(field: T.DataType, ctype: ColumnType, value: Any) -> Any:
    """A canonical value as the staging column of type ``field`` holds it."""
    out = to_spark(ctype, value)
    if out is not None and isinstance(field, T.StringType) and not isinstance(out, str):
        return out.isoformat() if isinstance(out, dt.date) else str(out)
    return out


# --- expressions ------------------------------------------------------------------------------


def col(name: str) -> SparkColumn:
    """A column by its exact name, whatever characters it holds."""
    return F.col("`" + name.replace("`", "``") + "`")


def _literal(column: Column, value: Any) -> SparkColumn:
    return F.lit(to_spark(column.type, value)).cast(spark_type(column.type))


def _fill(born: Column, target: Column) -> SparkColumn:
    """What a row that lacks ``target`` holds for it: the default of the column as it was
    added (``born``), as MySQL filled existing rows then."""
    default = born.effective_default
    if default is NO_DEFAULT or born.generated is not None or isinstance(default, Expr):
        return F.lit(None).cast(spark_type(target.type))
    return F.lit(to_spark(born.type, default)).cast(spark_type(target.type))


def _case(
    version_col: str,
    branches: Iterable[tuple[Sequence[int], SparkColumn]],
) -> SparkColumn:
    out: SparkColumn | None = None
    for versions, expr in branches:
        cond = F.col(version_col).isin(list(versions))
        out = F.when(cond, expr) if out is None else out.when(cond, expr)
    return out if out is not None else F.lit(None)


def _group(values: Iterable[tuple[int, Any]]) -> list[tuple[list[int], Any]]:
    """(version, key) pairs grouped by key (versions that read a column the same way)."""
    grouped: dict[Any, list[int]] = {}
    for version, key in values:
        grouped.setdefault(key, []).append(version)
    return [(versions, key) for key, versions in grouped.items()]


def _source(df: DataFrame, name: str, target: Column) -> SparkColumn:
    if name not in df.columns:
        return F.lit(None).cast(spark_type(target.type))
    return col(name).cast(spark_type(target.type))


def project(
    df: DataFrame,
    versions: Mapping[int, Table],
    target: Table,
    *,
    version_col: str,
    key: Any = None,
    fill: Any = None,
) -> DataFrame:
    """Rows written under ``versions`` (number -> schema) as rows of ``target``: one CASE per
    target column. ``key(column, version_table)`` finds a target column's source column in a
    version (default: by id); ``fill(column)`` gives the value of a row that lacks it."""
    ordered = [versions[v] for v in sorted(versions)]
    born = added_columns([*ordered, target])
    find = key or (lambda c, t: next((s for s in t.public_columns if s.id == c.id), None))
    fill_for = fill or (lambda c: _fill(born.get(c.id) or c, c))
    out = []
    for column in target.public_columns:
        branches: list[tuple[int, Any]] = []
        for number in sorted(versions):
            source = find(column, versions[number])
            branches.append((number, source.name if source is not None else None))
        exprs = [
            (vs, _source(df, name, column) if name is not None else fill_for(column))
            for vs, name in _group(branches)
        ]
        out.append(_case(version_col, exprs).alias(column.name))
    return df.select(*out)


def upgrade(
    df: DataFrame,
    cat: Catalog,
    name: str,
    *,
    version_col: str = "_version",
    to_version: int | None = None,
) -> DataFrame:
    """Rows of table ``name`` written under any of its versions, as rows of ``to_version``
    (default: the newest; rows written under later versions are read into it the same way, by
    column id). ``df`` holds the version each row was written under in ``version_col`` and the
    columns by their names at that version (the union of every name ever used; absent ones
    null). The result has exactly the target's columns, in order; a row of a version the table
    never had is all NULL.

    Raises NoSuchTableError, NoSuchVersionError.
    """
    target_version = to_version if to_version is not None else cat.version(name)
    target = cat.table(name, version=target_version)
    history = cat.history(name)
    versions = {
        c.version: cat.table_by_id(c.table_id, version=c.version) for c in history if not c.dropped
    }
    return project(df, versions, target, version_col=version_col)


def merge_shards(
    frames: Mapping[str, DataFrame], group: ShardGroup, *, version_col: str = "_version"
) -> DataFrame:
    """Every shard's rows (each under the shard's own versions, ``group.schema(shard,
    version=v)``) as rows of ``group.joined``, in one DataFrame.

    A shard's column goes where the group put its values downstream
    (:meth:`~mvdd.shard.ShardGroup.destination`: through renames, and nowhere once the
    downstream column was dropped); a joined column a shard's version lacks takes the joined
    default, or the implicit default seed 000 gives a NOT NULL column (as the downstream table
    did while the column was partial). A rename still under way when the rows are merged puts
    them all in the new column (downstream, the rows written since it began are in the old one
    until it ends). Leave out the rows of a paused shard: they wait until it resumes, and may not
    fit the joined schema meanwhile.

    Raises NoSuchTableError for an unknown shard.
    """
    joined = group.joined
    parts = []
    for shard, df in frames.items():
        versions = {v: group.schema(shard, version=v) for v, _ in group.history(shard)}

        def key(column: Column, table: Table, shard: str = shard) -> Any:
            return next(
                (
                    source
                    for source in table.public_columns
                    if (dest := group.destination(shard, source.id)) is not None
                    and dest.id == column.id
                ),
                None,
            )

        parts.append(
            project(df, versions, joined, version_col=version_col, key=key, fill=_joined_fill)
        )
    if not parts:
        raise MvddError("merge_shards needs at least one shard's rows")
    return functools.reduce(DataFrame.unionByName, parts)


def _joined_fill(column: Column) -> SparkColumn:
    default = column.effective_default
    if default is NO_DEFAULT and not column.nullable:
        default = implicit_default(column.type)
    if default is NO_DEFAULT or default is None or isinstance(default, Expr):
        return F.lit(None).cast(spark_type(column.type))
    return _literal(column, default)


# --- reorg as a Spark job -----------------------------------------------------------------------


def backfill_column(df: DataFrame, table: Table, name: str) -> DataFrame:
    """``df`` (rows of ``table``) with column ``name`` filled where it is NULL and the column
    may not be: the reorg of an added NOT NULL column."""
    column = table.column(name)
    if column.nullable:
        return df
    fill = _joined_fill(column)
    return df.withColumn(name, F.coalesce(col(name), fill))


def index_entries(df: DataFrame, table: Table, index: str) -> DataFrame:
    """The entries of index ``index`` for every row of ``df`` (rows of ``table``): its key
    columns (prefixes cut), then the primary key columns, one row per table row whose key is
    complete; the reorg of an added index.

    Raises NoSuchColumnError when the table has no primary key or no such index."""
    idx: Index | None = table.find_index(index)
    if idx is None:
        raise NoSuchColumnError("no such index", table=table.name, index=index)
    pk = table.primary_key
    if pk is None:
        raise NoSuchColumnError("index entries need a PRIMARY KEY", table=table.name)
    keys = []
    for n, part in zip(table.index_column_names(idx), idx.parts, strict=True):
        c = col(n)
        if part.length and isinstance(spark_type(table.column(n).type), T.StringType):
            c = F.substring(c, 1, part.length)
        keys.append(c.alias(f"key_{n}"))
    pks = [col(n).alias(f"pk_{n}") for n in table.index_column_names(pk)]
    out = df.select(*keys, *pks)
    if idx.kind != IndexKind.PRIMARY:
        out = out.dropna(subset=[f"key_{n}" for n in table.index_column_names(idx)])
    return out.dropDuplicates()


# --- sessions -----------------------------------------------------------------------------------


def session(app: str = "mvdd", *, master: str = "local[2]", memory: str = "1g") -> SparkSession:
    """A local Spark session with modest resources (2 cores, no UI, few shuffle partitions)."""
    return (
        SparkSession.builder.appName(app)
        .master(master)
        .config("spark.driver.memory", memory)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )


def has_python_udf(df: DataFrame) -> bool:
    """Whether the physical plan runs Python code per row (it never should here)."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    return any(marker in plan for marker in ("PythonUDF", "BatchEvalPython", "ArrowEvalPython"))


__all__ = [
    "backfill_column",
    "has_python_udf",
    "index_entries",
    "merge_shards",
    "project",
    "session",
    "spark_type",
    "staging_schema",
    "staging_type",
    "staging_value",
    "struct_type",
    "to_spark",
    "upgrade",
]
