"""The main job: replay a sharded binlog workload end to end (``mvdd replay DIR``).

``DIR`` holds one event log per shard (see :mod:`mvdd.spark.workload` for the format). The
replay merges the logs in position order and:

1. keeps a catalog per shard (SQLite, ``OUT/catalogs/<shard>.db``, every DDL at its position;
   a row is checked against the shard's schema at its position) and one
   :class:`~mvdd.shard.ShardGroup` that turns each upstream DDL into downstream DDL
   (``OUT/downstream.sql``, each statement after the position of the DDL that caused it);
2. stages every row, with the version of its shard's schema it was written under
   (``OUT/staging/<shard>.jsonl``), and merges all of them through Spark into the joined
   schema, written as Parquet (``OUT/merged``); rows of a shard still paused at the end are not
   merged (the report says so);
3. with a downstream server (``mysql://user:password@host:port/db``, ``mariadb://…`` or
   ``mysql://user@localhost/db?unix_socket=/path``), creates the target table there, runs the
   downstream DDL at its position and inserts every row as its shard wrote it (a paused shard's
   rows wait until it resumes), then checks that the table there is the joined schema and holds
   the merged rows (count and checksum);
4. writes a report (``OUT/report.md``) and a timeline of every column's life on each shard and
   downstream (``OUT/timeline.png``).

The checksum is the sum of CRC32 of each row's values as text joined by ``|`` (NULLs skipped),
computed by Spark's and by the server's own functions.
"""

from __future__ import annotations

import heapq
import json
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import attrs
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from mvdd.binlog.source import server_flavor
from mvdd.catalog import Catalog
from mvdd.ddl.dml import checksum_query, drop_table, insert_rows, show_create
from mvdd.ddl.statement import for_server, live_table
from mvdd.errors import CatalogError, MvddError, StoreError
from mvdd.model import Table
from mvdd.model.row import COMPUTED, added_columns, upgrade_row, validate_row
from mvdd.model.table import as_shown
from mvdd.shard import ShardGroup
from mvdd.spark.pipeline import col, merge_shards
from mvdd.spark.report import write_report
from mvdd.spark.runtime import session
from mvdd.spark.types import spark_type
from mvdd.spark.workload import read
from mvdd.store.folder import replace_folder

#: what a replay writes into its folder (a later run replaces a folder holding only these)
WRITES = frozenset({"catalogs", "staging", "merged", "downstream.sql", "report.md", "timeline.png"})
#: progress callback: (what, how many more) with what in "events", "rows"
Progress = Callable[[str, int], None]


@attrs.define
class ShardStats:
    events: int = 0
    rows: int = 0
    ddl: int = 0
    conflicts: list[str] = attrs.field(factory=list)
    paused_rows: int = 0


@attrs.define
class Result:
    """What a replay did, for the report and for callers."""

    out: Path
    target: str
    joined: Table
    shards: dict[str, ShardStats]
    downstream: list[tuple[Any, str]]
    paused: frozenset[str]
    merged_rows: int
    checksum: int
    timeline: dict[str, list[tuple[Any, frozenset[str]]]]
    server: dict[str, Any] | None = None
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "target": self.target,
            "joined": self.joined.to_sql(),
            "shards": {k: attrs.asdict(v) for k, v in self.shards.items()},
            "downstream_statements": len(self.downstream),
            "paused": sorted(self.paused),
            "merged_rows": self.merged_rows,
            "checksum": self.checksum,
            "server": self.server,
            "seconds": round(self.seconds, 2),
        }


def _events(folder: Path) -> tuple[dict[str, Path], Iterator[tuple[Any, str, dict[str, Any]]]]:
    logs = {p.stem: p for p in sorted(folder.glob("*.jsonl"))}
    if not logs:
        raise CatalogError(f"no event logs (*.jsonl) in {str(folder)!r}")

    def stream(shard: str, path: Path) -> Iterator[tuple[Any, str, dict[str, Any]]]:
        last = None
        for event in read(path):
            pos = event.get("pos")
            if pos is None or ("ddl" in event) == ("row" in event):
                raise CatalogError(
                    f"{path.name}:{event['line']}: an event has a pos and either ddl or row"
                )
            if last is not None and not last < pos:
                raise CatalogError(f"{path.name}:{event['line']}: positions must increase")
            last = pos
            yield pos, shard, event

    merged = heapq.merge(*(stream(s, p) for s, p in logs.items()), key=lambda e: (e[0], e[1]))
    return logs, merged


def count_events(source: str | Path) -> int:
    """How many events the logs in ``source`` hold (for a progress bar)."""
    total = 0
    for path in Path(source).glob("*.jsonl"):
        with path.open("rb") as f:
            total += sum(1 for line in f if line.strip())
    return total


def _json_value(value: Any) -> Any:
    if value is None or value is COMPUTED:
        return None
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    return value


def _text_type(t: T.DataType) -> bool:
    return isinstance(t, T.DecimalType | T.DateType | T.TimestampNTZType | T.TimestampType)


class _Downstream:
    """The target table on a MySQL-compatible server: DDL at its position, rows in batches."""

    def __init__(self, url: str, target: str) -> None:
        try:
            import pymysql
        except ImportError as err:  # pragma: no cover - the mysql extra
            raise StoreError(
                "pymysql is needed for --downstream: pip install 'mvdd[mysql]'"
            ) from err
        from mvdd.store.mysql import parse_address

        self.pymysql = pymysql
        self.target = target
        options, _, self.where = parse_address(url)
        try:
            self.conn = pymysql.connect(**options)
        except pymysql.MySQLError as err:
            raise StoreError(f"cannot connect to the downstream {self.where}: {err}") from None
        self.pending: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        self.flavor = server_flavor(str(self._execute("SELECT VERSION()", "a first query")[0]))

    def run(self, sql: str) -> None:
        """One DDL of the group's, in its server's words (``for_server``)."""
        self.flush()
        self._execute(for_server(sql, self.flavor), repr(sql))

    def drop(self) -> None:
        self._execute(drop_table(self.target), "DROP TABLE")

    def insert(self, row: dict[str, Any]) -> None:
        names = tuple(row)
        batch = self.pending.setdefault(names, [])
        batch.append(tuple(None if v is COMPUTED else v for v in row.values()))
        if len(batch) >= 500:
            self._flush(names)

    def _flush(self, names: tuple[str, ...]) -> None:
        rows = self.pending.pop(names, [])
        if rows:
            self._execute(insert_rows(self.target, names, rows), "rows")

    def _execute(self, sql: str, what: str) -> Any:
        try:
            with self.conn.cursor() as cur:
                cur.execute(sql)
                return cur.fetchone()
        except self.pymysql.MySQLError as err:
            raise StoreError(f"the downstream {self.where} refused {what}: {err}") from None

    def flush(self) -> None:
        for names in list(self.pending):
            self._flush(names)

    def check(self, joined: Table) -> dict[str, Any]:
        self.flush()
        shown = self._execute(show_create(self.target), "SHOW CREATE TABLE")[1]
        live = live_table(shown)
        names = [c.name for c in joined.public_columns]
        count, checksum = self._execute(checksum_query(self.target, names), "the checksum")
        shown_joined = as_shown(joined)  # (as that text writes it: beyond the BMP a ?)
        return {
            "equivalent": live.equivalent(shown_joined),
            "differences": live.differences(shown_joined),
            "rows": int(count),
            "checksum": int(checksum),
        }

    def close(self) -> None:
        self.conn.close()


def replay(
    source: str | Path,
    out: str | Path,
    *,
    target: str = "merged",
    downstream: str | None = None,
    spark: SparkSession | None = None,
    progress: Progress | None = None,
    replace: bool = False,
) -> Result:
    """Replay the event logs in ``source`` into ``out`` (see the module docstring).

    The downstream table must not exist yet, unless ``replace`` (then it is dropped first).

    Raises CatalogError for malformed logs, MvddError subclasses naming the shard, position and
    statement for DDL or rows the schemas refuse, StoreError for a downstream that fails.
    """
    started = time.monotonic()
    source, out = Path(source), Path(out)
    logs, stream = _events(source)
    replace_folder(out, WRITES, "mvdd replay")
    (out / "catalogs").mkdir()
    (out / "staging").mkdir()
    tick = progress or (lambda what, n: None)

    # the first event of each log is its CREATE TABLE: the group starts from those
    firsts: dict[str, dict[str, Any]] = {}
    for shard, path in logs.items():
        first = next(read(path), None)
        if first is None or "ddl" not in first:
            raise CatalogError(f"{path.name}: the first event must be the shard's CREATE TABLE")
        firsts[shard] = first
    group = ShardGroup(target, {s: e["ddl"] for s, e in firsts.items()})
    catalogs = {
        s: Catalog.open(str(out / "catalogs" / f"{s}.db"), replica=True, on_unsupported="skip")
        for s in logs
    }
    stats = {s: ShardStats() for s in logs}
    ddl_log: list[tuple[Any, str]] = []
    timeline: dict[str, list[tuple[Any, frozenset[str]]]] = {s: [] for s in [*logs, target]}
    staging = {s: (out / "staging" / f"{s}.jsonl").open("w") for s in logs}
    server = _Downstream(downstream, target) if downstream else None
    held: dict[str, list[tuple[int, dict[str, Any]]]] = {s: [] for s in logs}
    try:
        if server is not None:
            if replace:
                server.drop()
            server.run(group.joined.to_sql())
        first_pos = min(e["pos"] for e in firsts.values())
        timeline[target].append((first_pos, frozenset(c.name for c in group.joined.columns)))
        for pos, shard, event in stream:
            st = stats[shard]
            st.events += 1
            cat = catalogs[shard]
            if "ddl" in event:
                sql = event["ddl"]
                was = str(group.conflict(shard)) if shard in group.paused else None
                try:
                    cat.execute(sql, position=pos)
                    outcome = group.apply(shard, sql) if firsts[shard]["pos"] != pos else None
                except MvddError as err:
                    raise err.locate(shard=shard, position=pos, statement=sql) from None
                st.ddl += 1
                table_name = group.schema(shard).name
                timeline[shard].append(
                    (pos, frozenset(c.name for c in cat.table(table_name).columns))
                )
                if outcome is not None:
                    if outcome.conflict is not None and str(outcome.conflict) != was:
                        # a new conflict (a paused shard's later DDL may keep the same one)
                        st.conflicts.append(f"position {pos}: {outcome.conflict}")
                    for statement in outcome.downstream:
                        ddl_log.append((pos, statement))
                        if server is not None:
                            server.run(statement)
                    if outcome.downstream:
                        timeline[target].append(
                            (pos, frozenset(c.name for c in group.joined.columns))
                        )
                    if server is not None:
                        for name in outcome.resumed:
                            for row in _released(group, name, held[name]):
                                server.insert(row)
                            held[name] = []
                tick("events", 1)
                continue
            # a row: checked against the shard's schema now, staged with its version
            table = cat.table(group.schema(shard).name)
            try:
                row = validate_row(table, event["row"])
            except MvddError as err:
                raise err.locate(shard=shard, position=pos) from None
            version = group.version(shard)
            record = {"_version": version, **{k: _json_value(v) for k, v in row.items()}}
            staging[shard].write(json.dumps(record, separators=(",", ":")) + "\n")
            st.rows += 1
            given = {k: v for k, v in row.items() if v is not COMPUTED}
            if shard in group.paused:
                st.paused_rows += 1
                if server is not None:
                    held[shard].append((version, given))
            elif server is not None:
                server.insert(given)
            tick("events", 1)
            tick("rows", 1)
        for f in staging.values():
            f.close()
        merged = _merge(out, group, logs, spark)
        merged_rows, checksum = _checksum(merged, group.joined)
        (out / "downstream.sql").write_text(
            "".join(f"-- after position {pos}\n{sql};\n" for pos, sql in ddl_log)
        )
        report = None
        if server is not None:
            report = server.check(group.joined)
            report["matches"] = (
                report["equivalent"]
                and report["rows"] == merged_rows
                and report["checksum"] == checksum
            )
    finally:
        for f in staging.values():
            f.close()
        for c in catalogs.values():
            c.close()
        if server is not None:
            server.close()
    result = Result(
        out=out,
        target=target,
        joined=group.joined,
        shards=stats,
        downstream=ddl_log,
        paused=group.paused,
        merged_rows=merged_rows,
        checksum=checksum,
        timeline=timeline,
        server=report,
        seconds=time.monotonic() - started,
    )
    write_report(result, group)
    return result


def _released(
    group: ShardGroup, shard: str, rows: list[tuple[int, dict[str, Any]]]
) -> Iterator[dict[str, Any]]:
    """The rows a paused shard wrote, as rows of its schema now that it has resumed: matched
    by column id through renames, dropped columns removed, columns added since filled as MySQL
    filled the rows that existed when they were added."""
    versions = [group.schema(shard, version=v) for v, _ in group.history(shard)]
    added = added_columns(versions)
    new = versions[-1]
    for version, row in rows:
        old = versions[version - 1]
        by_id = {c.id: row[c.name] for c in old.columns if c.name in row}
        up = upgrade_row(by_id, old, new, added=added)
        yield {c.name: up[c.id] for c in new.columns if up[c.id] is not COMPUTED}


def _merge(
    out: Path, group: ShardGroup, logs: dict[str, Path], spark: SparkSession | None
) -> DataFrame:
    spark = spark or session("mvdd-replay")
    frames = {}
    for shard in logs:
        if shard in group.paused:
            continue  # its rows cannot be written under the joined schema yet
        versions = [group.schema(shard, version=v) for v, _ in group.history(shard)]
        fields: dict[str, T.DataType] = {}
        for table in versions:
            for c in table.public_columns:
                t = spark_type(c.type)
                fields[c.name] = (
                    t if fields.get(c.name) in (None, t) and not _text_type(t) else T.StringType()
                )
        schema = T.StructType(
            [T.StructField("_version", T.IntegerType(), False)]
            + [T.StructField(n, t, True) for n, t in fields.items()]
        )
        frames[shard] = spark.read.schema(schema).json(str(out / "staging" / f"{shard}.jsonl"))
    merged = merge_shards(frames, group)
    merged.write.mode("overwrite").parquet(str(out / "merged"))
    return spark.read.parquet(str(out / "merged"))


def _checksum(df: DataFrame, joined: Table) -> tuple[int, int]:
    text = [col(c.name).cast("string") for c in joined.public_columns]
    row = df.agg(
        F.count(F.lit(1)).alias("n"),
        F.coalesce(F.sum(F.crc32(F.concat_ws("|", *text))), F.lit(0)).alias("crc"),
    ).first()
    assert row is not None
    return int(row["n"]), int(row["crc"])


__all__ = ["Result", "ShardStats", "count_events", "replay"]
