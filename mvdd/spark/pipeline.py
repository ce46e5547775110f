"""Rows written under any version, on any shard, into one schema, with native column expressions
only (no Python UDF, nothing collected to the driver).

* :func:`upgrade` turns a DataFrame of rows written under various versions of a table (a version
  column says which; the columns by their names at that version, absent ones null) into rows of
  one target version: one ``CASE`` per target column over the versions, matching columns by id
  through renames, converting a changed type's values as the server does
  (:func:`~mvdd.spark.conversion.converted`) through each definition of the column since the
  row's version (a value cut by a narrower type stays cut when a later change widens it: the
  server's ALTERs took the rows through each), filling a column a row lacks with the value MySQL
  gave existing rows when it was added (its default then, converted so too), dropping what the
  target dropped.
* :func:`merge_shards` does the same for the shards of a :class:`~mvdd.shard.ShardGroup`, each
  with its own version numbers, into the joined schema, and unions them.
* :func:`backfill_column` and :func:`index_entries` are the reorg of an online change as a Spark
  job: a new column's values, a new index's entries, over a whole table.

Values the server computes (expression defaults other than a constant, generated columns) are
NULL here: the pipeline does not evaluate SQL expressions. A generated column's values a frame
holds (as its server computed them: a lake's, a copy's) are carried to the joined column the
group sends them to (:meth:`~mvdd.shard.ShardGroup.destination`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pyspark.sql import Column as SparkColumn
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from mvdd.errors import MvddError, NoSuchColumnError
from mvdd.join.encode import implicit_default
from mvdd.model import NO_DEFAULT, Column, ColumnType, Expr, Index, IndexKind, Table
from mvdd.model.kind import CALENDAR, TypeKind
from mvdd.model.row import added_columns, added_default, unnulled_value
from mvdd.spark.conversion import converted, keeps_values
from mvdd.spark.runtime import hold_huge_methods
from mvdd.spark.types import cast, spark_type, to_spark

if TYPE_CHECKING:
    from mvdd.catalog import Catalog
    from mvdd.shard import ShardGroup

# --- expressions ------------------------------------------------------------------------------


def col(name: str) -> SparkColumn:
    """A column by its exact name, whatever characters it holds."""
    return F.col(quoted(name))


def quoted(name: str) -> str:
    """A name quoted as Spark's SQL and MySQL's quote it (in backticks, a backtick doubled)."""
    return "`" + name.replace("`", "``") + "`"


def _literal(column: Column, value: Any) -> SparkColumn:
    return cast(F.lit(to_spark(column.type, value)), spark_type(column.type))


#: a column's definition on a value's way to the target: its type, whether it takes NULL, and
#: whether the server computes it (a generated column)
_Stop = tuple[ColumnType, bool, bool]


def _stops(columns: Iterable[Column]) -> tuple[_Stop, ...]:
    """The definitions a value goes through (a column's in each version from the one a row was
    written under, the target's last), as the server's ALTERs took it through them: only those
    differ; the widenings (:func:`~mvdd.spark.conversion.keeps_values`) of the value as written
    folded into its first stop. A column whose every change widened is one stop, the
    target's: a cast (and the versions that read it so share one CASE arm)."""
    out: list[_Stop] = []
    for c in columns:
        stop = (c.type, c.nullable, c.generated is not None)
        if out and out[-1][:2] == stop[:2]:
            out[-1] = stop
        elif len(out) == 1 and keeps_values(out[0][0], c.type) and (c.nullable or not out[0][1]):
            out[0] = stop  # (the value as written reads the same as this type)
        else:
            out.append(stop)
    return tuple(out)


def _along(
    value: SparkColumn, stops: Sequence[_Stop], *, held: SparkColumn | None = None
) -> SparkColumn:
    """``value`` (of the first stop's type) taken through each later stop as the server's
    ALTER takes it (:func:`~mvdd.spark.conversion.converted`; a NULL where a stop refuses it
    the value the change to NOT NULL gave it, :func:`~mvdd.model.row.unnulled_value`)."""
    (old, nullable, _), *rest = stops
    value = cast(value, spark_type(old))
    # (a date's NULL of a value held, ``held`` where the first type's NULL may be one too:
    # the zero date, see below)
    held = value.isNotNull() if held is None else held
    for new, takes_null, computed in rest:
        if keeps_values(old, new):
            value = cast(value, spark_type(new))
        else:
            value = converted(value, old, new)
            if old.kind in CALENDAR and new.kind not in CALENDAR:
                value = F.when(held & value.isNull(), _zero_date(old, new)).otherwise(value)
        unnulled = None if takes_null or computed or not nullable else unnulled_value(new)
        if unnulled is not None:
            value = F.coalesce(value, cast(F.lit(to_spark(new, unnulled)), spark_type(new)))
            held = F.lit(True)
        old, nullable = new, takes_null
    return value


def _zero_date(old: ColumnType, new: ColumnType) -> SparkColumn:
    """The zero date of ``old`` (a date Spark holds none of: a value converted to ``old`` that
    the server made it, NULL here) as a change to ``new`` takes it: its text as a text takes it
    (a number's 0, a time's 00:00:00, the text itself), a YEAR's 0."""
    if new.kind == TypeKind.YEAR:
        return cast(F.lit(0), spark_type(new))
    shown = "0000-00-00" + ("" if old.kind == TypeKind.DATE else " 00:00:00")
    shown += "." + "0" * old.fsp if old.fsp else ""
    return converted(F.lit(shown), _TEXT, new)


#: a text type a value is read from as text
_TEXT = ColumnType.of("varchar", length=64)


def _case(
    version: SparkColumn,
    branches: Iterable[tuple[Sequence[int], SparkColumn]],
) -> SparkColumn:
    out: SparkColumn | None = None
    for versions, expr in branches:
        cond = _among(version, versions)
        out = F.when(cond, expr) if out is None else out.when(cond, expr)
    return out if out is not None else F.lit(None)


def _among(version: SparkColumn, versions: Sequence[int]) -> SparkColumn:
    """Whether a row's version is one of ``versions`` (ascending): a comparison, or a range
    when they follow one another (the usual case: versions read a column alike until it
    changes), else a list. Each literal is a call into the JVM when the plan is built, and
    a compaction builds one plan per batch."""
    low, high = versions[0], versions[-1]
    if low == high:
        return version == low
    if high - low + 1 == len(versions):
        return version.between(low, high)
    return version.isin(list(versions))


def _group(values: Iterable[tuple[int, Any]]) -> list[tuple[list[int], Any]]:
    """(version, key) pairs grouped by key (versions that read a column the same way)."""
    grouped: dict[Any, list[int]] = {}
    for version, key in values:
        grouped.setdefault(key, []).append(version)
    return [(versions, key) for key, versions in grouped.items()]


def _source(present: set[str], name: str, stops: Sequence[_Stop]) -> SparkColumn:
    """A source column through ``stops`` (:func:`_stops`, the target's last) as the target's
    type, each value as the server's ALTERs took it (:func:`_along`); NULL where the frame
    lacks the column."""
    if name not in present:
        return cast(F.lit(None), spark_type(stops[-1][0]))
    return _along(col(name), stops)


def _filled(
    column: Column,
    born: Mapping[int, Column],
    found: Sequence[Column | None],
    fill: Callable[[Column], SparkColumn] | None,
) -> SparkColumn:
    """What a row of a version that lacks ``column`` holds for it: ``fill``'s answer, or the
    default of the column as it was added, as MySQL filled existing rows then, taken through
    its definitions since (``found``: per version; :func:`_along`)."""
    if fill is not None:
        return fill(column)
    first = born.get(column.id) or column
    default = first.effective_default
    if default is NO_DEFAULT:  # a NOT NULL column without a default: the type's zero value
        default = added_default(first)
    if default is NO_DEFAULT or first.generated is not None or isinstance(default, Expr):
        return cast(F.lit(None), spark_type(column.type))
    stops = _stops([first, *(c for c in found if c is not None), column])
    return _along(F.lit(to_spark(first.type, default)), stops)


def project(
    df: DataFrame,
    versions: Mapping[int, Table],
    target: Table,
    *,
    version_col: str | None,
    key: Any = None,
    fill: Any = None,
    keep: Sequence[str] = (),
    through: int | None = None,
) -> DataFrame:
    """Rows written under ``versions`` (number -> schema) as rows of ``target``: one CASE per
    target column over ``version_col``; with ``version_col`` None, every row was written
    under the one version ``versions`` holds, and each column is its one expression.
    ``key(column, version_table)`` finds a target column's source column in a version
    (default: by id); ``fill(column)`` gives the value of a row that lacks it; ``keep``:
    columns of ``df`` passed through after the target's (a row's order, its operation).
    A row goes through the definitions of its column in each later version up to
    ``through`` (default: every one), then the target's; a row of a version past
    ``through`` is read into the target by the two alone. The session's whole-stage code
    generation is held to methods HotSpot compiles where it has Spark's default
    (:func:`~mvdd.spark.runtime.hold_huge_methods`)."""
    if version_col is None and len(versions) != 1:
        raise MvddError(
            f"rows without a version column under {len(versions)} versions", table=target.name
        )
    hold_huge_methods(df.sparkSession)
    numbers = sorted(versions)
    born = added_columns([*(versions[v] for v in numbers), target])
    find = key or (lambda c, t: next((s for s in t.public_columns if s.id == c.id), None))
    present = set(df.columns)  # (a call into the JVM: asked once)
    version = F.col(version_col) if version_col is not None else None
    out = []
    for column in target.public_columns:
        # the column in each version (None where it lacks it): a value written under one
        # went through the definitions of the later ones, as the ALTERs took the rows
        found = [find(column, versions[v]) for v in numbers]
        passed = [c for c, v in zip(found, numbers, strict=True) if through is None or v <= through]
        branches: list[tuple[int, Any]] = []
        read: Any = None
        for i in reversed(range(len(numbers))):  # (a version as the next reads as it does)
            source = found[i]
            if source is None:
                read = None
            elif i >= len(passed):  # (past ``through``)
                read = (source.name, _stops([source, column]))
            elif read is None or i + 1 >= len(passed) or source != found[i + 1]:
                later = (c for c in passed[i:] if c is not None)
                read = (source.name, _stops([*later, column]))
            branches.append((numbers[i], read))
        branches.reverse()
        exprs = [
            (vs, _filled(column, born, passed, fill) if read is None else _source(present, *read))
            for vs, read in _group(branches)
        ]
        value = exprs[0][1] if version is None else _case(version, exprs)
        out.append(value.alias(column.name))
    return df.select(*out, *(col(k) for k in keep))


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
    return project(df, versions, target, version_col=version_col, through=target_version)


def merge_shards(
    frames: Mapping[str, DataFrame],
    group: ShardGroup,
    *,
    version_col: str = "_version",
    keep: Sequence[str] = (),
    versions: Mapping[str, int] | None = None,
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
    fit the joined schema meanwhile. ``keep``: columns of the frames passed through.
    ``versions``: the shard version each of these shards' frame was wholly written under (a
    bulk copy's chunk, a lake's batch file): that frame needs no version column, and its
    columns are read without a CASE over the shard's versions.

    Raises NoSuchTableError for an unknown shard.
    """
    joined = group.joined
    parts = []
    for shard, df in frames.items():
        written = (versions or {}).get(shard)
        if written is None:
            known = {v: group.schema(shard, version=v) for v, _ in group.history(shard)}
        else:
            known = {written: group.schema(shard, version=written)}

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
            project(
                df,
                known,
                joined,
                version_col=version_col if written is None else None,
                key=key,
                fill=_joined_fill,
                keep=keep,
            )
        )
    if not parts:
        raise MvddError("merge_shards needs at least one shard's rows")
    return functools.reduce(DataFrame.unionByName, parts)


def _joined_fill(column: Column) -> SparkColumn:
    default = column.effective_default
    if default is NO_DEFAULT and not column.nullable:
        default = implicit_default(column.type)
    if default is NO_DEFAULT or default is None or isinstance(default, Expr):
        return cast(F.lit(None), spark_type(column.type))
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


__all__ = [
    "backfill_column",
    "col",
    "index_entries",
    "merge_shards",
    "project",
    "quoted",
    "upgrade",
]
