"""Spark bulk copy and lake benchmark, in one run, on private MariaDB servers (two upstream with
binary logs, two shards each; one downstream), Spark ``local[2]`` with 2 GiB of driver memory.

(a) **bulk copy**: four shards holding ``--rows`` rows in all (5,000,000 by default);
    ``Replicator(bulk="spark")``'s first run into an empty target (the group, the target, every
    shard read by key range over JDBC, merged into the joined schema by ``merge_shards``, written
    over JDBC, a checkpoint per chunk; then following to the end of the binlog) against a plain
    Spark JDBC copy of the same rows: the same key-range partitions read and written to a table
    of the same schema, without merging, checkpoints or following. A first plain copy warms
    the JVM (not counted); the plain copy runs before and after mvdd's (the faster counts).
    Goal ≥ 0.8×.
(b) the same bulk copy against **the one-connection copy** of ``replicate``
    (``bulk="rows"``: one snapshot session per server, batches of rows with a checkpoint each).
    Goal ≥ 1.5×.
(c) **compaction**: a lake-only replicator copies the shards into the lake (compacted: the
    first snapshot), then follows ``--changes`` row changes (1,000,000 by default: updates,
    deletes, inserts, a quarter per shard) into change batches; ``compact`` of those batches
    into the snapshot against a plain Spark upsert of the same change files into the same
    snapshot: cast to the snapshot's types, the latest change per key, the snapshot anti-joined
    on the changed keys, unioned with the changes that are not deletes, written as Parquet.
    Each runs twice, alternating (``compact`` on two copies of the lake); the faster counts.
    Goal ≥ 0.8×.
(d) the bulk copy into a target **with a lake beside it** (each chunk read once, held by Spark
    for both writes) against two copies, (a)'s into the target alone and one into a lake alone:
    the seconds of the two over the one's. No goal: holding a chunk saves the upstream its
    second read, and costs about what that read did on this machine (the servers share its two
    cores); the figure says what a lake beside costs.

Prints a table and writes ``benchmarks/results/spark_bulk_bench.json``.

    python benchmarks/spark_bulk_bench.py [--quick] [--rows N] [--changes N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, write
from mvdd.replicate import Replicator
from mvdd.replicate.sandbox import Sandbox, SandboxUnavailable

CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(40) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL, status ENUM('new','paid','shipped') NOT NULL DEFAULT 'new', created DATETIME(3) "
    "NOT NULL, note VARCHAR(60), PRIMARY KEY (id))"
)
SHARDS = [("up1", "orders_01"), ("up1", "orders_02"), ("up2", "orders_03"), ("up2", "orders_04")]
BASE = 10_000_000  # shard i holds ids from i * BASE
#: the rows of a shard from MariaDB's sequence engine (``seq_{lo}_to_{hi}``), without binlog
FILL = (
    "INSERT INTO {t} (id, customer, amount, status, created, note) "
    "SELECT {base} + seq, CONCAT('customer ', seq), (seq MOD 10000) + 0.25, "
    "ELT(1 + seq MOD 3, 'new', 'paid', 'shipped'), "
    "TIMESTAMP'2026-11-24 10:00:00' + INTERVAL seq SECOND, "
    "IF(seq MOD 5 = 0, NULL, CONCAT('note ', seq)) FROM seq_{lo}_to_{hi}"
)
SPARK_MEMORY = "2g"
SERVER = {"innodb-buffer-pool-size": "1G", "innodb-log-file-size": "256M"}


def fill(servers: dict[str, Sandbox], db: str, per: int) -> None:
    for i, (server, table) in enumerate(SHARDS):
        with contextlib.closing(servers[server].connect(db)) as conn, conn.cursor() as cur:
            cur.execute("SET SESSION sql_log_bin = 0")
            for lo in range(0, per, 250_000):
                hi = min(per, lo + 250_000) - 1
                cur.execute(FILL.format(t=table, base=i * BASE, lo=lo, hi=hi))


def count(server: Sandbox, db: str, table: str) -> int:
    with contextlib.closing(server.connect(db)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {table}")
        return int(cur.fetchone()[0])


def replicator(servers: dict[str, Sandbox], db: str, state: Path, **options: Any) -> Replicator:
    return Replicator(
        {n: servers[n].url() for n in ("up1", "up2")},
        tables=f"{db}.orders_*",
        target="orders",
        state=state,
        **options,
    )


def timed(fn: Any) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


# --- (a), (b) the copy ---------------------------------------------------------------------------


def plain_spark_copy(spark: Any, servers: dict[str, Sandbox], db: str, dw: str, per: int) -> None:
    """The same key ranges read over JDBC and written to a table of the same schema: no merge,
    no checkpoint, no following."""
    from mvdd.spark import bulk
    from mvdd.spark.jdbc import jdbc_options
    from mvdd.store.address import parse_address

    servers["down"].execute(CREATE.format(t="plain"), database=dw)
    parts = max(1, -(-per // 100_000))
    step = per // parts
    down = parse_address(servers["down"].url(dw))
    out = jdbc_options(down)
    url = out.pop("url")
    out.update(batchsize="5000", isolationLevel="READ_COMMITTED")
    for i, (server, table) in enumerate(SHARDS):
        options = jdbc_options(parse_address(servers[server].url()), database=db)
        source = options.pop("url")
        options["fetchsize"] = "10000"
        bounds = [[i * BASE + k * step] for k in range(1, parts)]
        frame = spark.read.jdbc(
            source, table, predicates=bulk.ranges(["id"], bounds), properties=options
        )
        frame.write.jdbc(url, "plain", mode="append", properties=out)


def copy_bench(
    spark: Any, servers: dict[str, Sandbox], db: str, per: int, tmp: Path
) -> dict[str, Any]:
    total = per * len(SHARDS)
    figures: dict[str, Any] = {"rows": total}
    plain: list[float] = []

    def plain_run(n: int) -> None:
        dw = f"dw_plain{n}"
        servers["down"].execute(f"CREATE DATABASE {dw}")
        plain.append(timed(lambda: plain_spark_copy(spark, servers, db, dw, per)))
        assert count(servers["down"], dw, "plain") == total
        servers["down"].execute(f"DROP DATABASE {dw}")

    plain_run(0)  # warms the JVM (JDBC classes, JIT) for both: not counted
    plain.clear()
    plain_run(1)
    for name, bulk, lake in (
        ("spark", "spark", None),
        ("rows", "rows", None),
        ("beside", "spark", tmp / "lake-beside"),
        ("lake", "spark", tmp / "lake-alone"),
    ):
        dw = f"dw_{name}"
        servers["down"].execute(f"CREATE DATABASE {dw}")
        r = replicator(
            servers,
            db,
            tmp / f"state-{name}",
            downstream=servers["down"].url(dw) if name != "lake" else None,
            bulk=bulk,
            lake=lake,
        )
        r.spark_memory = SPARK_MEMORY
        seconds = timed(r.run)
        if name != "lake":
            assert count(servers["down"], dw, "orders") == total, name
        figures[f"{name}_rows_per_s"] = total / seconds
        figures[f"{name}_s"] = seconds
    plain_run(2)
    figures["plain_rows_per_s"] = total / min(plain)
    figures["plain_s"] = min(plain)
    figures["plain_runs_s"] = plain
    return figures


# --- (c) compaction ------------------------------------------------------------------------------


def change(servers: dict[str, Sandbox], db: str, per: int, changes: int) -> int:
    """About ``changes`` row changes, a quarter per shard: 50 % updates, 20 % deletes, 30 %
    inserts, in transactions of at most 20,000 rows; returns how many."""
    quarter = changes // len(SHARDS)
    done = 0
    for i, (server, table) in enumerate(SHARDS):
        base = i * BASE
        updates, deletes = quarter // 2, quarter // 5
        inserts = quarter - updates - deletes
        every = max(1, per // updates)
        with (
            contextlib.closing(servers[server].connect(db, autocommit=True)) as conn,
            conn.cursor() as cur,
        ):
            for lo in range(0, per, 20_000 * every):
                hi = min(per, lo + 20_000 * every)
                done += cur.execute(
                    f"UPDATE {table} SET amount = amount + 1, status = 'paid' WHERE id >= "
                    f"{base + lo} AND id < {base + hi} AND (id - {base}) MOD {every} = 0"
                )
            gap = max(2, per // deletes)
            for lo in range(0, per, 20_000 * gap):
                hi = min(per, lo + 20_000 * gap)
                done += cur.execute(
                    f"DELETE FROM {table} WHERE id >= {base + lo} AND id < {base + hi} AND "
                    f"(id - {base}) MOD {gap} = 1"
                )
            for lo in range(per, per + inserts, 20_000):
                hi = min(per + inserts, lo + 20_000) - 1
                done += cur.execute(FILL.format(t=table, base=base, lo=lo, hi=hi))
    return done


def plain_upsert(spark: Any, lake: Path, out: Path) -> None:
    """Snapshot + change files -> the next snapshot, with plain Spark: no schema work."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    current = json.loads((lake / "CURRENT").read_text())
    snapshot = spark.read.parquet(str(lake / "snapshots" / str(current["snapshot"])))
    files = [str(p) for p in sorted((lake / "changes").glob("*/*.parquet"))]
    types = {f.name: f.dataType for f in snapshot.schema.fields}
    changes = spark.read.parquet(*files).select(
        "_seq", "_op", *(F.col(n).cast(t).alias(n) for n, t in types.items())
    )
    latest = (
        changes.withColumn(
            "_rank", F.row_number().over(Window.partitionBy("id").orderBy(F.col("_seq").desc()))
        )
        .where(F.col("_rank") == 1)
        .drop("_rank")
    )
    kept = snapshot.join(latest.select("id"), "id", "left_anti")
    upserted = latest.where(F.col("_op") != "delete").select(*types)
    result = kept.unionByName(upserted)
    shutil.rmtree(out, ignore_errors=True)
    result.write.parquet(str(out))


def compact_bench(
    spark: Any, servers: dict[str, Sandbox], db: str, per: int, changes: int, tmp: Path
) -> dict[str, Any]:
    from mvdd.replicate.lake import compact_lake
    from mvdd.spark.lake import read_lake

    lake = tmp / "lake"
    r = replicator(servers, db, tmp / "state-lake", downstream=None, lake=lake, bulk="spark")
    r.spark_memory = SPARK_MEMORY
    r.compact_every = 10**9  # compaction is what is measured, by hand
    copy_s = timed(r.run)
    first_s = timed(lambda: compact_lake(spark, lake))
    made = change(servers, db, per, changes)
    r = replicator(servers, db, tmp / "state-lake", downstream=None, lake=lake)
    r.compact_every = 10**9
    follow_s = timed(r.run)
    batches = len(list((lake / "changes").iterdir()))
    again = tmp / "lake-again"
    shutil.copytree(lake, again)  # mvdd's second run compacts the same batches
    plain = [timed(lambda: plain_upsert(spark, lake, tmp / "plain-snapshot"))]
    rows = int(spark.read.parquet(str(tmp / "plain-snapshot")).count())
    ours = [timed(lambda: compact_lake(spark, lake))]
    plain.append(timed(lambda: plain_upsert(spark, again, tmp / "plain-snapshot")))
    ours.append(timed(lambda: compact_lake(spark, again)))
    for folder in (lake, again):
        got = read_lake(spark, folder).count()
        assert got == rows, (folder, got, rows)
    return {
        "snapshot_rows": per * len(SHARDS),
        "changes": made,
        "change_batches": batches,
        "rows_after": rows,
        "lake_copy_s": copy_s,
        "first_compaction_s": first_s,
        "follow_changes_s": follow_s,
        "mvdd_s": min(ours),
        "mvdd_runs_s": ours,
        "plain_s": min(plain),
        "plain_runs_s": plain,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rows", type=int, default=None, help="rows in all (4 shards)")
    parser.add_argument("--changes", type=int, default=None, help="changes compacted in (c)")
    args = parser.parse_args()
    rows = args.rows or (200_000 if args.quick else 5_000_000)
    changes = args.changes or (40_000 if args.quick else 1_000_000)
    per = rows // len(SHARDS)
    info = machine()
    banner("spark bulk", info)
    from mvdd.spark.runtime import session

    spark = session("mvdd-spark-bulk-bench", memory=SPARK_MEMORY)
    tmp = Path(tempfile.mkdtemp(prefix="mvdd-spark-bulk-bench-"))
    servers = {
        "up1": Sandbox(binlog=True, server_id=1, options=SERVER, base=tmp / "up1"),
        "up2": Sandbox(binlog=True, server_id=2, options=SERVER, base=tmp / "up2"),
        "down": Sandbox(binlog=False, server_id=3, options=SERVER, base=tmp / "down"),
    }
    try:
        for s in servers.values():
            s.start()
    except SandboxUnavailable as err:
        sys.exit(f"MariaDB is needed: {err}")
    try:
        for name in ("up1", "up2"):
            servers[name].execute("CREATE DATABASE shop")
            servers[name].execute(
                *(CREATE.format(t=t) for s, t in SHARDS if s == name), database="shop"
            )
        fill_s = timed(lambda: fill(servers, "shop", per))
        print(f"{rows:,} rows in four shards in {fill_s:.0f} s")
        copied = copy_bench(spark, servers, "shop", per, tmp)
        compacted = compact_bench(spark, servers, "shop", per, changes, tmp)
    finally:
        for s in servers.values():
            s.stop()
        spark.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    a = copied["spark_rows_per_s"] / copied["plain_rows_per_s"]
    b = copied["spark_rows_per_s"] / copied["rows_rows_per_s"]
    c = compacted["plain_s"] / compacted["mvdd_s"]
    d = (copied["spark_s"] + copied["lake_s"]) / copied["beside_s"]
    results = {
        "machine": info,
        "spark": {"master": "local[2]", "driver_memory": SPARK_MEMORY},
        "copy": copied,
        "ratio_vs_plain_spark": round(a, 3),
        "goal_vs_plain_spark": 0.8,
        "ratio_vs_rows_copy": round(b, 3),
        "goal_vs_rows_copy": 1.5,
        "compaction": compacted,
        "ratio_compaction": round(c, 3),
        "goal_compaction": 0.8,
        "ratio_lake_beside_vs_two_copies": round(d, 3),
    }
    print(f"{'measure':<64}{'mvdd':>12}{'baseline':>12}{'ratio':>9}")
    print(
        f"{'(a) rows/s bulk copy, vs plain Spark JDBC copy (no merge)':<64}"
        f"{copied['spark_rows_per_s']:>12,.0f}{copied['plain_rows_per_s']:>12,.0f}"
        f"{a:>8.2f}×  (goal ≥ 0.8)"
    )
    print(
        f"{'(b) rows/s bulk copy, vs the one-connection copy of replicate':<64}"
        f"{copied['spark_rows_per_s']:>12,.0f}{copied['rows_rows_per_s']:>12,.0f}"
        f"{b:>8.2f}×  (goal ≥ 1.5)"
    )
    print(
        f"{'(c) s to compact ' + format(compacted['changes'], ',') + ' changes into '}"
        f"{compacted['snapshot_rows']:,} rows, vs plain upsert"[:64].ljust(64)
        + f"{compacted['mvdd_s']:>12.1f}{compacted['plain_s']:>12.1f}"
        f"{c:>8.2f}×  (goal ≥ 0.8)"
    )
    print(
        f"{'(d) s to copy with a lake beside, vs a copy to each alone':<64}"
        f"{copied['beside_s']:>12.1f}{copied['spark_s'] + copied['lake_s']:>12.1f}"
        f"{d:>8.2f}×  (no goal; "
        f"{copied['spark_s']:.1f} s the target, {copied['lake_s']:.1f} s the lake)"
    )
    write("spark_bulk_bench", results)


if __name__ == "__main__":
    main()
