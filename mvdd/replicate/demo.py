"""``mvdd demo`` (``make demo``): the main job on servers of its own.

1. Three private MariaDB servers in a temp dir (:mod:`mvdd.replicate.sandbox`): two upstream
   with binary logs (two shards of ``orders`` each), one downstream.
2. The shards take their first rows; ``replicate`` copies them with Spark (the bulk copy: key
   ranges read in parallel over JDBC, merged into the joined schema) into ``dw.orders``, and
   keeps the lake beside it (``OUT/lake``: Parquet change batches, compacted into snapshots).
3. ``replicate`` follows the binlogs while the bundled workload runs as SQL on the shards
   (:mod:`mvdd.replicate.workload`: schema changes in different orders, a rename on every
   shard, a conflict and its resolution, inserts, updates and deletes), until caught up.
4. The target is checked against the upstream rows (:func:`~mvdd.replicate.verify.verify`), the
   lake's snapshot against the target (the same rows), and the report (``report.md``) and the
   timeline of every column's life on each shard and downstream (``timeline.png``) are
   written.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from mvdd.binlog.source import Source
from mvdd.ddl.dml import select_all
from mvdd.replicate.merge import Merge
from mvdd.replicate.replicator import Replicator
from mvdd.replicate.sandbox import Sandbox
from mvdd.replicate.state import State
from mvdd.replicate.verify import Verdict, verify
from mvdd.replicate.workload import PLACES, Workload
from mvdd.store.folder import replace_folder

#: what a demo writes into its folder (a later run replaces a folder holding only these)
WRITES = frozenset({"state", "lake", "result.json", "report.md", "timeline.png"})

Progress = Callable[[str], None]


@attrs.frozen
class DemoResult:
    out: Path
    verdict: Verdict
    status: dict[str, Any]
    joined: str
    downstream: tuple[str, ...]
    conflicts: tuple[str, ...]
    seconds: float
    statements: int
    lake_rows: int = 0
    #: how the lake's compacted snapshot differs from the target (the first 20)
    lake_differences: tuple[str, ...] = ()
    copy: str = "rows"

    @property
    def lake_matches(self) -> bool:
        return self.lake_rows == self.verdict.target_rows and not self.lake_differences

    def summary(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "matches": self.verdict.ok,
            "copy": self.copy,
            "lake_rows": self.lake_rows,
            "lake_matches": self.lake_matches,
            "lake_differences": list(self.lake_differences),
            "differences": list(self.verdict.differences),
            "rows": self.verdict.rows,
            "target_rows": self.verdict.target_rows,
            "downstream_statements": len(self.downstream),
            "conflicts": list(self.conflicts),
            "upstream_statements": self.statements,
            "seconds": round(self.seconds, 1),
            "status": self.status,
        }


def demo(
    out: str | Path,
    *,
    rows: int = 5000,
    steps: int = 400,
    bulk: str = "spark",
    progress: Progress | None = None,
) -> DemoResult:
    """Run the demo into ``out`` (replaced): ``rows`` first rows per shard, ``steps`` rounds
    of the workload (20 inserts and an update or delete each); ``bulk`` is how the first rows
    are copied (``"spark"``: the bulk copy; ``"rows"``: one snapshot session per server)."""
    say = progress or (lambda text: None)
    started = time.monotonic()
    out = Path(out)
    replace_folder(out, WRITES, "mvdd demo")
    base = Path(tempfile.mkdtemp(prefix="mvdd-demo-"))
    servers = {
        "up1": Sandbox(binlog=True, server_id=1, base=base / "up1"),
        "up2": Sandbox(binlog=True, server_id=2, base=base / "up2"),
        "down": Sandbox(binlog=True, server_id=3, base=base / "down"),
    }
    try:
        say("starting three private MariaDB servers")
        for server in servers.values():
            server.start()
        for name in ("up1", "up2"):
            servers[name].execute("CREATE DATABASE shop")
        servers["down"].execute("CREATE DATABASE dw")
        conns = {name: servers[name].connect("shop") for name in ("up1", "up2")}

        def execute(server: str, sql: str, params: Any) -> None:
            with conns[server].cursor() as cur:
                if isinstance(params, list):
                    cur.executemany(sql, params)
                else:
                    cur.execute(sql, params)

        workload = Workload(execute)
        workload.create()
        for shard in PLACES:
            for _ in range(0, rows, 1000):
                workload.insert(shard, min(1000, rows))
        r = Replicator(
            {name: servers[name].url() for name in ("up1", "up2")},
            tables="shop.orders_*",
            target="orders",
            downstream=servers["down"].url("dw"),
            state=out / "state",
            bulk=bulk,
            lake=out / "lake",
        )
        r.partition_rows = max(1000, rows // 4)
        how = "the Spark bulk copy" if bulk == "spark" else "one snapshot per server"
        say(f"copying {rows * len(PLACES):,} rows ({how}), the lake beside")
        r.run(until="end")
        say(f"following the binlogs while the workload runs ({steps} rounds)")
        stop = threading.Event()
        failure: list[BaseException] = []

        def follow() -> None:
            try:
                r.run(until=None, stop=stop)
            except BaseException as err:
                failure.append(err)

        thread = threading.Thread(target=follow, name="mvdd-demo-replicate", daemon=True)
        thread.start()
        workload.run(steps)
        ends = {name: _end(servers[name]) for name in ("up1", "up2")}
        _caught_up(r, ends, failure)
        stop.set()
        thread.join(timeout=60)
        if failure:
            raise failure[0]
        status = r.run(until="end")
        say("checking the target against the upstream rows")
        verdict = verify(
            r.group,
            {name: servers[name].url() for name in ("up1", "up2")},
            servers["down"].url("dw"),
            "orders",
        )
        for conn in conns.values():
            conn.close()
        say("compacting the lake and comparing it with the target")
        lake_rows, lake_differences = _lake_check(out / "lake", r, servers["down"])
        lake = (lake_rows, tuple(lake_differences))
        result = _report(out, r, verdict, status, workload, time.monotonic() - started, bulk, lake)
        (out / "result.json").write_text(json.dumps(result.summary(), indent=2, default=str))
        return result
    finally:
        for server in servers.values():
            with contextlib.suppress(Exception):
                server.stop()
        shutil.rmtree(base, ignore_errors=True)


def _lake_check(lake: Path, r: Replicator, down: Sandbox) -> tuple[int, list[str]]:
    """Compact the lake; its snapshot's rows, and how they differ from the target's (the
    first few differences; none when it holds exactly the target's rows)."""
    from mvdd.replicate.lake import compact_lake
    from mvdd.replicate.verify import same
    from mvdd.spark.lake import read_lake
    from mvdd.spark.runtime import shared_session

    spark, made = shared_session("mvdd-demo")
    try:
        compact_lake(spark, lake)
        df = read_lake(spark, lake)
        names = df.columns
        lake_rows = {row[names[0]]: tuple(row) for row in df.collect()}
    finally:
        if made:
            spark.stop()
    with contextlib.closing(down.connect("dw")) as conn, conn.cursor() as cur:
        cur.execute(select_all("orders", names))
        target = {row[0]: row for row in cur.fetchall()}
    differences = [f"{names[0]} {k}: only in the lake" for k in lake_rows.keys() - target.keys()]
    differences += [f"{names[0]} {k}: not in the lake" for k in target.keys() - lake_rows.keys()]
    for k in lake_rows.keys() & target.keys():
        for name, a, b in zip(names, lake_rows[k], target[k], strict=True):
            if not same(a, b):
                differences.append(f"{names[0]} {k}, column {name}: lake {a!r}, target {b!r}")
    return len(lake_rows), sorted(differences)[:20]


def _end(server: Sandbox) -> str:
    return str(Source(server.url()).end())


def _caught_up(r: Replicator, ends: dict[str, str], failure: list[BaseException]) -> None:
    from mvdd.binlog import BinlogPosition

    want = {name: BinlogPosition.parse(end) for name, end in ends.items()}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not failure:
        shards = r.status().get("shards", {})
        done = {
            shard.partition("/")[0]
            for shard, s in shards.items()
            if s.get("position")
            and not BinlogPosition.parse(s["position"]) < want[shard.partition("/")[0]]
        }
        if done >= set(want):
            return
        time.sleep(0.2)


def _report(
    out: Path,
    r: Replicator,
    verdict: Verdict,
    status: dict[str, Any],
    workload: Workload,
    seconds: float,
    copy: str,
    lake: tuple[int, tuple[str, ...]],
) -> DemoResult:
    from mvdd.catalog import Catalog
    from mvdd.spark.markdown import cell, code, fenced, prose
    from mvdd.spark.report import plot_timeline

    state = State(out / "state")
    catalogs = {
        name: Catalog.open(str(state.catalog_path(name)), replica=True) for name in r.sources
    }
    try:
        log = state.log()
        merge = Merge(r.target_name, catalogs, state)
        timeline: dict[str, list[tuple[Any, frozenset[str]]]] = {}
        downstream: list[str] = []
        conflicts: list[str] = []
        for entry in log:
            merge.rebuild([entry])
            group = merge.group
            assert group is not None
            for shard in group.shards:
                timeline.setdefault(shard, [])
                columns = frozenset(c.name for c in group.schema(shard).columns)
                if not timeline[shard] or timeline[shard][-1][1] != columns:
                    timeline[shard].append((entry.seq, columns))
            columns = frozenset(c.name for c in group.joined.columns)
            lane = timeline.setdefault(r.target_name, [])
            if not lane or lane[-1][1] != columns:
                lane.append((entry.seq, columns))
            downstream.extend(entry.downstream)
            if entry.shard is not None and entry.shard in group.paused:
                conflicts.append(f"entry {entry.seq}: {group.pause_reason(entry.shard)}")
        joined = merge.group.joined.to_sql() if merge.group else ""
    finally:
        for cat in catalogs.values():
            cat.close()
        state.close()
    plot_timeline(timeline, out / "timeline.png", target=r.target_name, axis="change")
    result = DemoResult(
        out,
        verdict,
        status,
        joined,
        tuple(downstream),
        tuple(conflicts),
        seconds,
        workload.statements,
        lake_rows=lake[0],
        lake_differences=lake[1],
        copy=copy,
    )
    how = (
        "by Spark (key ranges in parallel over JDBC, merged into the joined schema)"
        if copy == "spark"
        else "through one snapshot session per server"
    )
    lines = [
        "# mvdd demo: four shards on two servers, one target",
        "",
        f"{workload.statements:,} upstream statements and {len(workload.ddl)} schema changes "
        f"replicated in {seconds:.0f} s; {len(downstream)} downstream statements.",
        "",
        f"**The target {'matches' if verdict.ok else 'DOES NOT match'} the upstream rows** "
        f"({verdict.target_rows:,} rows; every row by key, every column)"
        + ("." if verdict.ok else ": " + "; ".join(map(prose, verdict.differences))),
        "",
        f"The first rows were copied {how}. **The lake beside the target "
        + (
            f"holds the same rows** after compaction ({lake[0]:,} rows)."
            if result.lake_matches
            else f"DIFFERS from the target** after compaction: {'; '.join(map(prose, lake[1]))}"
        ),
        "",
        "| shard | rows upstream | table version | rows applied |",
        "|---|---|---|---|",
    ]
    for shard, s in status.get("shards", {}).items():
        upstream, applied = verdict.rows.get(shard, 0), s.get("rows", 0)
        lines.append(f"| {cell(code(shard))} | {upstream:,} | {s.get('version')} | {applied:,} |")
    lines += ["", "## Pauses", ""]
    lines += [f"- {prose(c)}" for c in conflicts] or ["none"]
    lines += ["", "## Joined schema", "", *fenced(joined, "sql"), ""]
    lines += ["## Downstream DDL", "", *fenced("\n".join(f"{sql};" for sql in downstream), "sql")]
    lines += ["", "## Upstream DDL", ""]
    lines += [f"- {code(shard)}: {code(sql)}" for shard, sql in workload.ddl]
    lines += ["", "![timeline](timeline.png)", ""]
    (out / "report.md").write_text("\n".join(lines))
    return result


__all__ = ["DemoResult", "demo"]
