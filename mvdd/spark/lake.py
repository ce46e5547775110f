"""The lake output of ``mvdd replicate --lake DIR``: the merged table as Parquet, for pipelines.

Layout of ``DIR``::

    lake.json                 the target, its key, the replicator's state directory
    CURRENT                   the published state: snapshot number, the change batches it
                              holds, its columns (name -> downstream column id), the
                              checkpoint it covers (source -> binlog position)
    snapshots/<n>/            snapshot n: rows of the joined schema (Parquet)
    changes/<seq>/            a change batch: one Parquet file per (shard, table version), its
                              rows as the shard wrote them (``_seq`` order, ``_op``), and
                              ``_batch.json`` (the positions it reaches, its last
                              truncate's ``_seq``)

**Writing** (:class:`LakeWriter`, pyarrow, in the replicator's process): a batch is written into
a temporary folder and renamed into place, so a reader or a compaction sees a whole batch or
none. The positions a batch reaches are in it: the lake's checkpoint is what it holds.

**Compaction** (:func:`compact`, Spark; ``mvdd compact --lake DIR``, and ``replicate`` every N
batches): every batch's rows are upgraded to the joined schema (:func:`~mvdd.spark.pipeline.
merge_shards`: renames, widenings, added and dropped columns, by column id), the previous
snapshot is carried to the joined schema (by downstream column id, through finished renames),
the latest change per key wins and deletes go. A ``truncate`` change (written when the group's
only shard empties its table, as the target is emptied then) drops the snapshot's rows and
every change before it. The new snapshot is written beside the old one and published by
replacing ``CURRENT`` (an atomic rename): readers never see half of one, and a kill at any
moment leaves the previous state whole. One compaction at a time (a file lock);
compactions and the replicator may run at once.

**Reading**: :func:`read_lake` gives the current snapshot, the joined schema's columns in order.

Values are kept as the lake's column types (:data:`ARROW`): integers and floats as such, binary
strings as binary, everything else as text, which the upgrade casts to the joined types; a
value of a column whose type changed since it was written (in a batch, in the snapshot) is
converted as the server converted the target's (:func:`~mvdd.spark.conversion.converted`). A
generated column's values are kept as its server computed them (the binlog's, a copy's, a read
again's; NULL where none came): the compaction puts them where the group sends them
(:meth:`~mvdd.shard.ShardGroup.destination`: a target column that is a plain one, another
shard's, whose type takes them), and leaves them out elsewhere, as the pipeline computes no
expression.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import functools
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pyarrow as pa
import pyarrow.parquet as pq

from mvdd.errors import MvddError
from mvdd.model import Column, ColumnType, Table
from mvdd.model.coerce import python_date
from mvdd.model.encoding import without_kept
from mvdd.model.kind import CALENDAR, Family, TypeKind
from mvdd.shard import ShardGroup
from mvdd.store.folder import foreign_entries, listed

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: the lake type of each family (others: text)
ARROW: dict[Family, pa.DataType] = {
    Family.INTEGER: pa.int64(),
    Family.FLOAT: pa.float64(),
    Family.BIT: pa.int64(),
    Family.BINARY: pa.binary(),
    Family.BLOB: pa.binary(),
    Family.SPATIAL: pa.binary(),
}
META = ("_seq", "_op")
#: the ``_op`` of a truncate: the group's only shard emptied its table
TRUNCATE = "truncate"
#: the last truncate of a batch whose ``_batch.json`` does not name it (an older writer's)
_UNNAMED = -1


class LakeError(MvddError, RuntimeError):
    """A lake folder that is not one, or that another target owns."""


#: what a lake folder holds (a replicator writing only a lake keeps its checkpoint there too)
ENTRIES = frozenset(
    {"lake.json", "CURRENT", "changes", "snapshots", "compact.lock", "checkpoint.json"}
)


def check_folder(folder: str | Path) -> None:
    """LakeError unless ``folder`` can be a lake: missing, or holding only what a lake holds
    (a lake of its own, or one a first run began). A folder of something else is never
    written into: a lake removes the batches and snapshots it no longer needs."""
    foreign = foreign_entries(Path(folder), ENTRIES)
    if foreign:
        raise LakeError(
            f"{str(folder)!r} is not a lake and holds other files ({listed(foreign)}): give a "
            "new or empty folder for the lake"
        )


def arrow_type(column: Column) -> pa.DataType:
    return _arrow(column.type)


@functools.lru_cache(maxsize=1024)
def _arrow(t: ColumnType) -> pa.DataType:  # (asked for each number the writer meets)
    if (t.kind == TypeKind.BIGINT and t.unsigned) or (t.kind == TypeKind.BIT and t.length == 64):
        return pa.string()  # beyond int64
    return ARROW.get(t.family, pa.string())


def lake_value(value: Any, column: Column | None = None) -> Any:
    """A value (decoded from a binary log, or as a client reads it) as the lake keeps it in
    ``column``: a number in a text column (a YEAR, a BIGINT UNSIGNED, a BIT(64):
    :func:`arrow_type`) as its text, a DECIMAL as the server prints it, a BIT's bytes as its
    number, the text of a date no Python date holds (the zero date …:
    :data:`~mvdd.model.kind.CALENDAR`) as NULL, an ENUM's or a SET's member of bytes its
    charset does not read as the server shows it (each such byte a ``?``:
    :func:`~mvdd.model.encoding.without_kept`), as the lake holds it."""
    if column is not None:
        t = column.type
        if isinstance(value, str) and t.kind in CALENDAR:
            return value if python_date(t.kind, value) is not None else None
        if isinstance(value, bytes) and t.family == Family.BIT:  # (as a client reads a BIT)
            value = int.from_bytes(value, "big")
        if isinstance(value, Decimal) and t.scale is not None:
            return f"{value:.{t.scale}f}"  # as the server prints it, not '1E-30'
        if isinstance(value, int | float) and arrow_type(column) == pa.string():
            return str(value)
        if t.family == Family.ENUM and isinstance(value, str | set | frozenset):
            # (a member of bytes its charset does not read: as the server shows it, a ?)
            return without_kept(value if isinstance(value, str) else ",".join(sorted(value)))
    if value is None or isinstance(value, bool | int | float | str | bytes):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        sign = "-" if value < dt.timedelta(0) else ""
        value = abs(value)
        hours, rest = divmod(value.days * 86400 + value.seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        frac = f".{value.microseconds:06d}" if value.microseconds else ""
        return f"{sign}{hours:02d}:{minutes:02d}:{seconds:02d}{frac}"
    if isinstance(value, set | frozenset):
        return ",".join(sorted(value))
    return json.dumps(value)  # a MySQL JSON document


@attrs.frozen
class LakeRow:
    """One change for the lake: the shard, its group version, the operation and the row by the
    shard's column names at that version."""

    shard: str
    version: int
    op: str
    row: Mapping[str, Any]


def _atomic_json(path: Path, value: Any) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    tmp.write_text(json.dumps(value, indent=1, default=str))
    os.replace(tmp, path)


def _current(folder: Path) -> dict[str, Any]:
    path = folder / "CURRENT"
    return json.loads(path.read_text()) if path.exists() else {"snapshot": None, "through": 0}


def _batches(folder: Path) -> list[tuple[int, Path]]:
    changes = folder / "changes"
    if not changes.exists():
        return []
    out = []
    for path in changes.iterdir():
        if path.name.isdigit():
            out.append((int(path.name), path))
    return sorted(out)


class LakeWriter:
    """Appends change batches to a lake (see the module docstring)."""

    def __init__(
        self, folder: str | Path, *, target: str, key: Sequence[str], state: str | Path
    ) -> None:
        self.folder = Path(folder)
        check_folder(self.folder)
        (self.folder / "changes").mkdir(parents=True, exist_ok=True)
        (self.folder / "snapshots").mkdir(exist_ok=True)
        meta = self.folder / "lake.json"
        want = {"target": target, "key": list(key), "state": str(Path(state).resolve())}
        if meta.exists():
            have = json.loads(meta.read_text())
            if have.get("target") != target or have.get("state") != want["state"]:
                raise LakeError(
                    f"the lake {str(self.folder)!r} holds `{have.get('target')}` of the state "
                    f"directory {have.get('state')!r}"
                )
        else:
            _atomic_json(meta, want)
        batches = _batches(self.folder)
        self.seq = max([_current(self.folder).get("through", 0), *(s for s, _ in batches)])

    def positions(self) -> dict[str, str]:
        """The positions the lake holds (its newest batch's, or the snapshot's)."""
        batches = _batches(self.folder)
        if batches:
            return dict(json.loads((batches[-1][1] / "_batch.json").read_text())["positions"])
        return dict(_current(self.folder).get("checkpoint", {}))

    def gtids(self) -> dict[str, str]:
        """MariaDB's GTID position at each of :meth:`positions`, where the lake holds it."""
        batches = _batches(self.folder)
        if batches:
            return dict(json.loads((batches[-1][1] / "_batch.json").read_text()).get("gtids", {}))
        return dict(_current(self.folder).get("gtids", {}))

    def append(
        self,
        rows: Sequence[LakeRow],
        positions: Mapping[str, str],
        schema_of: Any,
        gtids: Mapping[str, str] | None = None,
    ) -> int:
        """Write one batch (whole or not at all); returns its number. ``schema_of(shard,
        version)`` gives the shard's table at a group version; ``gtids``: MariaDB's GTID
        position at each of ``positions``, where known (kept beside them)."""
        seq = self.seq + 1
        tmp = self.folder / "changes" / f".tmp-{uuid.uuid4().hex}"
        tmp.mkdir()
        files: dict[str, dict[str, Any]] = {}
        groups: dict[tuple[str, int], list[tuple[int, LakeRow]]] = {}
        cut = None  # the last truncate's _seq (the rows come in _seq order)
        for i, row in enumerate(rows):
            at = seq * 10_000_000 + i
            groups.setdefault((row.shard, row.version), []).append((at, row))
            if row.op == TRUNCATE:
                cut = at
        for n, ((shard, version), items) in enumerate(sorted(groups.items())):
            table: Table = schema_of(shard, version)
            columns = list(table.columns)  # (generated ones too: see the module's text)
            fields = [pa.field("_seq", pa.int64()), pa.field("_op", pa.string())]
            fields += [pa.field(c.name, arrow_type(c)) for c in columns]
            data = {
                "_seq": [s for s, _ in items],
                "_op": [r.op for _, r in items],
                **{c.name: [lake_value(r.row.get(c.name), c) for _, r in items] for c in columns},
            }
            name = f"{n:04d}.parquet"
            pq.write_table(pa.table(data, schema=pa.schema(fields)), tmp / name)
            files[name] = {"shard": shard, "version": version, "rows": len(items)}
        batch = {"seq": seq, "positions": dict(positions), "files": files, "truncate": cut}
        (tmp / "_batch.json").write_text(json.dumps({**batch, "gtids": dict(gtids or {})}))
        os.rename(tmp, self.folder / "changes" / f"{seq:012d}")
        self.seq = seq
        return seq

    def append_frame(self, df: DataFrame, shard: str, version: int, table: Table) -> int:
        """Write a Spark DataFrame of a shard's rows (columns by the shard's names at group
        ``version``, all inserts: a bulk copy's chunk) as one batch; returns its number. The
        batch holds a Parquet file for each partition of the frame, written in parallel (one
        file made of the whole frame would be one Spark task reading every partition in turn)."""
        from pyspark.sql import functions as F

        from mvdd.spark.pipeline import col
        from mvdd.spark.types import cast

        seq = self.seq + 1
        tmp = self.folder / "changes" / f".tmp-{uuid.uuid4().hex}"
        schema = _spark_schema(table)
        columns = [f.name for f in schema.fields[2:]]
        present = set(df.columns)  # (a call into the JVM: asked once)
        out = df.select(
            F.lit(seq * 10_000_000).cast("long").alias("_seq"),
            F.lit("insert").alias("_op"),
            *(
                cast(col(f.name), f.dataType).alias(f.name)
                if f.name in present
                else cast(F.lit(None), f.dataType).alias(f.name)
                for f in schema.fields[2:]
            ),
        )
        out.write.parquet(str(tmp))
        files = {
            p.name: {"shard": shard, "version": version, "rows": None}
            for p in tmp.glob("*.parquet")
        }
        (tmp / "_batch.json").write_text(
            json.dumps(
                {"seq": seq, "positions": {}, "files": files, "columns": columns, "truncate": None}
            )
        )
        os.rename(tmp, self.folder / "changes" / f"{seq:012d}")
        self.seq = seq
        return seq


# --- compaction and reading (Spark) -----------------------------------------------------------


@contextlib.contextmanager
def _lock(folder: Path) -> Iterator[None]:
    with open(folder / "compact.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def lake_converted(
    spark: SparkSession, types: Sequence[ColumnType], values: Sequence[Any]
) -> list[Any]:
    """``values`` (decoded values of a column of the first of ``types``) as the server
    converts them when ALTERs change the column to each of the others in turn, outside strict
    mode: the lake's conversions (:func:`~mvdd.spark.conversion.converted`, through each type:
    :func:`~mvdd.spark.pipeline.project`'s) in one Spark job, each value as Spark holds it in
    the last type (a TIME as its text, a DECIMAL as a ``Decimal``, bytes as ``bytes``), which
    :func:`lake_value` keeps. What a lake-only replication asks where a replication with a
    downstream server has that server convert (a held row's value that a later change of its
    column's type did not take: :meth:`mvdd.replicate.target.Target.converted`)."""
    from pyspark.sql import types as T

    from mvdd.spark.pipeline import _along, _stops, col
    from mvdd.spark.runtime import hold_huge_methods

    hold_huge_methods(spark)
    columns = [Column(id=1, name="v", type=t) for t in types]
    fields = [T.StructField("n", T.LongType()), T.StructField("held", T.BooleanType())]
    schema = T.StructType([*fields, _lake_field(columns[0])])
    # (a zero date is NULL in the lake's form: ``held`` tells it from no value)
    rows = [(n, v is not None, lake_value(v, columns[0])) for n, v in enumerate(values)]
    df = spark.createDataFrame(rows, schema)
    value = _along(col("v"), _stops(columns), held=col("held"))
    found: dict[int, Any] = dict(df.select("n", value.alias("v")).collect())
    return [_held(found[n]) for n in range(len(values))]


def _held(value: Any) -> Any:
    return bytes(value) if isinstance(value, bytearray) else value


def _spark_schema(table: Table) -> Any:
    from pyspark.sql import types as T

    fields = [T.StructField("_seq", T.LongType()), T.StructField("_op", T.StringType())]
    fields += [_lake_field(c) for c in table.columns]
    return T.StructType(fields)


def _lake_field(column: Column) -> Any:
    """A column as a Spark field of the type its lake files hold (:func:`arrow_type`)."""
    from pyspark.sql import types as T

    mapping = {
        pa.int64(): T.LongType(),
        pa.float64(): T.DoubleType(),
        pa.binary(): T.BinaryType(),
        pa.string(): T.StringType(),
    }
    return T.StructField(column.name, mapping[arrow_type(column)])


def _carry(
    snapshot: DataFrame, columns: Mapping[str, int], group: ShardGroup, joined: Table | None
) -> DataFrame:
    """A snapshot (joined columns then: name -> downstream id; ``joined``: the joined table
    then, where the snapshot names it) as rows of the joined schema now: each column from the
    snapshot's columns of its id or of those a finished rename merged into it (the merged-in
    value first, as ``UPDATE t SET new = old WHERE old IS NOT NULL`` did), its values as the
    server converted them where the column's type changed since
    (:func:`~mvdd.spark.conversion.converted`), else its default."""
    from pyspark.sql import functions as F

    from mvdd.spark.conversion import converted
    from mvdd.spark.pipeline import _joined_fill, col

    def was(name: str, now: Column) -> ColumnType:  # (an older lake's snapshot: as now)
        found = joined.find_column(name) if joined is not None else None
        return found.type if found is not None else now.type

    out = []
    for column in group.joined.public_columns:
        sources = [n for n, i in columns.items() if group.merged_into(i) == column.id]
        sources.sort(key=lambda n: columns[n] == column.id)  # merged-in values first
        if sources:
            value = F.coalesce(*(converted(col(n), was(n, column), column.type) for n in sources))
        else:
            value = _joined_fill(column)
        out.append(value.alias(column.name))
    return snapshot.select(*out)


def compact(
    spark: SparkSession, folder: str | Path, group: ShardGroup | Callable[[], ShardGroup]
) -> dict[str, Any]:
    """Build and publish the next snapshot (see the module docstring); returns what was done.
    ``group`` is the replicator's shard group (it knows every shard version a batch names), or
    a function giving it, called once the compaction holds the lake's lock."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    from mvdd.spark.pipeline import col, merge_shards

    folder = Path(folder)
    meta_path = folder / "lake.json"
    if not meta_path.exists():
        raise LakeError(f"{str(folder)!r} is not a lake (no lake.json)")
    meta = json.loads(meta_path.read_text())
    key = list(meta["key"])
    with _lock(folder):
        if not isinstance(group, ShardGroup):
            group = group()
        current = _current(folder)
        batches = [(s, p) for s, p in _batches(folder) if s > current.get("through", 0)]
        joined = group.joined
        names = [c.name for c in joined.public_columns]
        columns_now = {c.name: c.id for c in joined.public_columns}
        if (
            not batches
            and current.get("snapshot") is not None
            and current.get("columns") == columns_now
        ):
            return {"snapshot": current["snapshot"], "batches": 0, "published": False}
        carried = None
        if current.get("snapshot") is not None:
            old = spark.read.parquet(str(folder / "snapshots" / str(current["snapshot"])))
            from mvdd.ddl import parse_table

            then = current.get("joined")
            joined_then = parse_table(then, replica=True) if then is not None else None
            carried = _carry(old, current["columns"], group, joined_then)
        parts = []
        # one frame per (shard, version): the files of one table version share their columns
        # (a name may mean another column, of another type, at another version)
        files: dict[tuple[str, int], list[str]] = {}
        positions = dict(current.get("checkpoint", {}))
        gtids = dict(current.get("gtids", {}))
        # the last truncate: each batch names its own (None: it holds none), so that no pass
        # over the rows looks for one; a batch that does not (an older writer's) leaves it to
        # such a pass
        cuts: list[int | None] = []
        for _, path in batches:
            info = json.loads((path / "_batch.json").read_text())
            positions.update(info["positions"])
            if "gtids" in info:  # (each batch holds them all; an older writer's none)
                gtids = dict(info["gtids"])
            cuts.append(info.get("truncate", _UNNAMED))
            for name, f in info["files"].items():
                files.setdefault((f["shard"], f["version"]), []).append(str(path / name))
        for (shard, version), paths in sorted(files.items()):
            table = group.schema(shard, version=version)
            df = spark.read.schema(_spark_schema(table)).parquet(*paths)
            parts.append(merge_shards({shard: df}, group, keep=META, versions={shard: version}))
        n = (current.get("snapshot") or 0) + 1
        through = batches[-1][0] if batches else current.get("through", 0)
        tmp = folder / "snapshots" / f".tmp-{uuid.uuid4().hex}"
        result = carried
        if parts:
            # the latest change per key; the snapshot's rows of other keys stay
            import functools

            changes = functools.reduce(lambda a, b: a.unionByName(b), parts)
            # a truncate (the group's only shard emptied its table): nothing before the last one
            # stays, neither the snapshot's rows nor earlier changes
            if _UNNAMED not in cuts:
                last = max((c for c in cuts if c is not None), default=None)
                if last is not None:
                    changes = changes.where(F.col("_seq") > last)
                    carried = None
            else:  # (one row, found by a pass over the changes, joined lazily)
                cut = changes.where(F.col("_op") == TRUNCATE).agg(F.max("_seq").alias("_cut"))
                changes = (
                    changes.crossJoin(cut)
                    .where(F.col("_cut").isNull() | (F.col("_seq") > F.col("_cut")))
                    .drop("_cut")
                )
                if carried is not None:
                    carried = carried.crossJoin(cut).where(F.col("_cut").isNull()).drop("_cut")
            order = Window.partitionBy(*(col(k) for k in key)).orderBy(F.col("_seq").desc())
            latest = changes.withColumn("_rank", F.row_number().over(order)).where(
                F.col("_rank") == 1
            )
            upserts = latest.where(F.col("_op") != "delete").select(*(col(c) for c in names))
            if carried is not None:
                kept = carried.join(latest.select(*(col(k) for k in key)), key, "left_anti")
                result = kept.unionByName(upserts)
            else:
                result = upserts
        if result is None:
            result = spark.createDataFrame([], _joined_struct(joined))
        result.write.parquet(str(tmp))
        os.rename(tmp, folder / "snapshots" / str(n))
        _atomic_json(
            folder / "CURRENT",
            {
                "snapshot": n,
                "through": through,
                "columns": columns_now,
                "checkpoint": positions,
                "gtids": gtids,
                "joined": joined.to_sql(),
            },
        )
        # what the new state no longer needs (the previous snapshot stays for readers)
        for seq, path in _batches(folder):
            if seq <= through:
                shutil.rmtree(path, ignore_errors=True)
        for path in (folder / "snapshots").iterdir():
            stale = path.name.startswith(".tmp-") or (
                path.name.isdigit() and int(path.name) < n - 1
            )
            if stale:
                shutil.rmtree(path, ignore_errors=True)
        return {"snapshot": n, "batches": len(batches), "published": True}


def _joined_struct(joined: Table) -> Any:
    from mvdd.spark.types import struct_type

    return struct_type(joined)


def read_lake(spark: SparkSession, folder: str | Path) -> DataFrame:
    """The lake's current snapshot: the joined schema's columns, in order."""
    from mvdd.ddl import parse_table
    from mvdd.spark.pipeline import col

    folder = Path(folder)
    current = _current(folder)
    if current.get("snapshot") is None:
        raise LakeError(f"the lake {str(folder)!r} has no snapshot yet: run mvdd compact")
    joined = parse_table(current["joined"], replica=True)  # (a table mvdd kept, not a change)
    df = spark.read.parquet(str(folder / "snapshots" / str(current["snapshot"])))
    return df.select(*(col(c.name) for c in joined.public_columns))


__all__ = ["LakeError", "LakeRow", "LakeWriter", "compact", "lake_value", "read_lake"]
