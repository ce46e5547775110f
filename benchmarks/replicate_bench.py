"""Replication benchmark: ``mvdd replicate`` against plain workers without schema tracking, in
one run, on private MariaDB servers (two upstream with ``binlog_row_metadata=FULL`` so the
plain worker can name columns, one downstream).

(a) **following**: four shards (two per upstream server) take ``--rows`` inserts in 100-row
    transactions; the replicator, started before on the empty shards, then follows from there
    to the end: rows/s into the target. The baseline reads the same binlog ranges with
    ``mysql-replication`` alone (one source after the other) and writes the rows with
    ``executemany`` in batches of 5,000, committing each: no schema history, no checkpoint.
    Goal ≥ 0.7×.
(b) **lag**: the replicator follows while a writer inserts 1,000 rows/s into the shards and runs
    one ALTER every 2 s (ADD COLUMN, MODIFY, ADD INDEX on one shard after another); a poller
    on the downstream notes when each row becomes visible. Lag = visible − written; p50 and
    p99 over the run. Goal p99 < 1 s.
(c) **initial copy**: four shards holding ``--copy`` rows in all; the replicator's first run
    (snapshots, the group, the target, the copy in key order with a checkpoint per batch)
    against a plain ``SELECT`` streamed + ``executemany`` copy of the same rows. Goal ≥ 0.8×.
(d) **verify** of (c)'s target against its shards: rows/s read and compared (the target's and
    the shards') against a plain streamed read of the same rows, and the peak of Python memory
    (tracemalloc) in runs against the same check holding the whole target at once.

Prints a table and writes ``benchmarks/results/replicate_bench.json``.

    python benchmarks/replicate_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymysql

from benchmarks.common import banner, machine, write
from mvdd.binlog import BinlogPosition
from mvdd.replicate import Replicator
from mvdd.replicate.sandbox import Sandbox, SandboxUnavailable
from mvdd.replicate.verify import RUN, verify

CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(40) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL, status ENUM('new','paid','shipped') NOT NULL DEFAULT 'new', created DATETIME(3) "
    "NOT NULL, note VARCHAR(60), PRIMARY KEY (id))"
)
SHARDS = {"up1": ["orders_01", "orders_02"], "up2": ["orders_03", "orders_04"]}
COLUMNS = ("id", "customer", "amount", "status", "created", "note")
INSERT = (
    "INSERT INTO {t} (id, customer, amount, status, created, note) VALUES (%s, %s, %s, %s, %s, %s)"
)


def values(i: int) -> tuple[Any, ...]:
    return (i, f"customer {i}", f"{i % 10000}.25", "new", "2026-11-24 10:00:00.123", f"note {i}")


def fill(
    server: Sandbox, database: str, table: str, start: int, n: int, per_txn: int = 100
) -> None:
    with (
        contextlib.closing(server.connect(database, autocommit=False)) as conn,
        conn.cursor() as cur,
    ):
        for low in range(start, start + n, per_txn):
            cur.executemany(
                INSERT.format(t=table),
                [values(i) for i in range(low, min(low + per_txn, start + n))],
            )
            conn.commit()


def end_of(server: Sandbox) -> BinlogPosition:
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
    return BinlogPosition(file, int(offset))


def count(server: Sandbox, database: str, table: str) -> int:
    with contextlib.closing(server.connect(database)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {table}")
        return int(cur.fetchone()[0])


def prepare(servers: dict[str, Sandbox], db: str, dw: str) -> None:
    for name in ("up1", "up2"):
        servers[name].execute(f"CREATE DATABASE {db}")
        servers[name].execute(*(CREATE.format(t=t) for t in SHARDS[name]), database=db)
    servers["down"].execute(f"CREATE DATABASE {dw}")


def replicator(servers: dict[str, Sandbox], db: str, dw: str, state: Path) -> Replicator:
    return Replicator(
        {n: servers[n].url() for n in ("up1", "up2")},
        tables=f"{db}.orders_*",
        target="orders",
        downstream=servers["down"].url(dw),
        state=state,
    )


# --- (a) following -------------------------------------------------------------------------------


def plain_follow(
    servers: dict[str, Sandbox],
    starts: dict[str, BinlogPosition],
    ends: dict[str, BinlogPosition],
    dw: str,
) -> int:
    """mysql-replication alone, rows written with executemany in batches, no checkpoint."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import WriteRowsEvent

    servers["down"].execute(CREATE.format(t="plain"), database=dw)
    written = 0
    with (
        contextlib.closing(servers["down"].connect(dw, autocommit=False)) as out,
        out.cursor() as cur,
    ):
        batch: list[tuple[Any, ...]] = []
        for name, start in starts.items():
            stream = BinLogStreamReader(
                {"unix_socket": servers[name].socket, "user": "root"},
                server_id=9100 + len(name),
                log_file=start.file,
                log_pos=start.offset,
                resume_stream=True,
                only_events=[WriteRowsEvent],
                enable_logging=False,
            )
            try:
                for ev in stream:
                    for row in ev.rows:
                        v = row["values"]
                        batch.append(tuple(v[c] for c in COLUMNS))
                    if len(batch) >= 5000:
                        cur.executemany(INSERT.format(t="plain"), batch)
                        out.commit()
                        written += len(batch)
                        batch = []
                    if stream.log_file == ends[name].file and stream.log_pos >= ends[name].offset:
                        break
            finally:
                stream.close()
        if batch:
            cur.executemany(INSERT.format(t="plain"), batch)
            out.commit()
            written += len(batch)
    return written


def follow_bench(servers: dict[str, Sandbox], rows: int, tmp: Path) -> dict[str, Any]:
    db, dw = "follow", "follow_dw"
    prepare(servers, db, dw)
    r = replicator(servers, db, dw, tmp / "follow-state")
    r.run()  # the first run: empty shards, the target made
    starts = {n: end_of(servers[n]) for n in ("up1", "up2")}
    per = rows // 4
    for i, (name, table) in enumerate((n, t) for n in SHARDS for t in SHARDS[n]):
        fill(servers[name], db, table, i * 10_000_000, per)
    ends = {n: end_of(servers[n]) for n in ("up1", "up2")}
    began = time.perf_counter()
    r.run()
    mvdd_s = time.perf_counter() - began
    got = count(servers["down"], dw, "orders")
    assert got == 4 * per, (got, 4 * per)
    began = time.perf_counter()
    plain = plain_follow(servers, starts, ends, dw)
    plain_s = time.perf_counter() - began
    assert plain == 4 * per, (plain, 4 * per)
    return {
        "rows": 4 * per,
        "mvdd_rows_per_s": 4 * per / mvdd_s,
        "plain_rows_per_s": plain / plain_s,
    }


# --- (b) lag -------------------------------------------------------------------------------------


def lag_bench(servers: dict[str, Sandbox], seconds: float, tmp: Path) -> dict[str, Any]:
    db, dw = "lag", "lag_dw"
    prepare(servers, db, dw)
    r = replicator(servers, db, dw, tmp / "lag-state")
    r.run()
    stop = threading.Event()
    thread = threading.Thread(target=lambda: r.run(until=None, stop=stop), daemon=True)
    thread.start()
    tables = [(n, t) for n in SHARDS for t in SHARDS[n]]
    written: dict[str, list[tuple[int, float]]] = {t: [] for _, t in tables}
    seen: dict[str, list[tuple[float, int]]] = {t: [] for _, t in tables}
    done = threading.Event()

    def poll() -> None:
        with contextlib.closing(servers["down"].connect(dw)) as conn, conn.cursor() as cur:
            while not done.is_set():
                now = time.time()
                for i, (_, t) in enumerate(tables):
                    low = i * 10_000_000
                    cur.execute(
                        "SELECT MAX(id) FROM orders WHERE id >= %s AND id < %s",
                        (low, low + 10_000_000),
                    )
                    top = cur.fetchone()[0]
                    if top is not None:
                        seen[t].append((now, int(top)))
                time.sleep(0.01)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    conns = {n: servers[n].connect(db) for n in ("up1", "up2")}
    alters = [
        (t, change)
        for k in range(100)
        for t, change in [
            (tables[k % 4][1], f"ADD COLUMN x{k} INT NULL"),
        ]
    ]
    next_id = {t: i * 10_000_000 for i, (_, t) in enumerate(tables)}
    began = time.time()
    last_alter = began
    tick = 0
    while time.time() - began < seconds:
        name, table = tables[tick % 4]
        with conns[name].cursor() as cur:
            ids = range(next_id[table], next_id[table] + 10)
            cur.executemany(INSERT.format(t=table), [values(i) for i in ids])
            stamp = time.time()
            written[table].extend((i, stamp) for i in ids)
            next_id[table] += 10
        tick += 1
        if time.time() - last_alter >= 2.0 and alters:
            last_alter = time.time()
            t, change = alters.pop(0)
            place = next(n for n, tt in tables if tt == t)
            with conns[place].cursor() as cur:
                cur.execute(f"ALTER TABLE {t} {change}")
        # 10 rows every 10 ms: 1,000 rows/s
        sleep = began + tick * 0.01 - time.time()
        if sleep > 0:
            time.sleep(sleep)
    time.sleep(3)
    done.set()
    poller.join()
    stop.set()
    thread.join(timeout=30)
    for conn in conns.values():
        conn.close()
    lags = []
    for table, rows in written.items():
        polls = seen[table]
        j = 0
        for i, stamp in rows:
            while j < len(polls) and polls[j][1] < i:
                j += 1
            if j < len(polls):
                lags.append(polls[j][0] - stamp)
    lags.sort()
    total = sum(len(v) for v in written.values())
    return {
        "rows_written": total,
        "rows_per_s": total / seconds,
        "alters": (100 - len(alters)),
        "lag_p50_s": statistics.median(lags),
        "lag_p99_s": lags[int(len(lags) * 0.99) - 1],
        "lag_max_s": lags[-1],
        "measured": len(lags),
    }


# --- (c) initial copy ----------------------------------------------------------------------------


def plain_copy(servers: dict[str, Sandbox], db: str, dw: str) -> int:
    servers["down"].execute(CREATE.format(t="plain"), database=dw)
    copied = 0
    with (
        contextlib.closing(servers["down"].connect(dw, autocommit=False)) as out,
        out.cursor() as w,
    ):
        for name, tables in SHARDS.items():
            with (
                contextlib.closing(servers[name].connect(db)) as src,
                src.cursor(pymysql.cursors.SSCursor) as r,
            ):
                for table in tables:
                    r.execute(f"SELECT {', '.join(COLUMNS)} FROM {table} ORDER BY id")
                    while True:
                        chunk = r.fetchmany(5000)
                        if not chunk:
                            break
                        w.executemany(INSERT.format(t="plain"), chunk)
                        out.commit()
                        copied += len(chunk)
    return copied


def copy_bench(servers: dict[str, Sandbox], rows: int, tmp: Path) -> dict[str, Any]:
    db, dw = "copy", "copy_dw"
    prepare(servers, db, dw)
    per = rows // 4
    for i, (name, table) in enumerate((n, t) for n in SHARDS for t in SHARDS[n]):
        fill(servers[name], db, table, i * 10_000_000, per, per_txn=5000)
    r = replicator(servers, db, dw, tmp / "copy-state")
    began = time.perf_counter()
    r.run()
    mvdd_s = time.perf_counter() - began
    assert count(servers["down"], dw, "orders") == 4 * per
    began = time.perf_counter()
    plain = plain_copy(servers, db, dw)
    plain_s = time.perf_counter() - began
    assert plain == 4 * per
    return {
        "rows": 4 * per,
        "mvdd_rows_per_s": 4 * per / mvdd_s,
        "plain_rows_per_s": plain / plain_s,
        "verify": verify_bench(servers, r, db, dw, 4 * per),
    }


# --- (d) verify ----------------------------------------------------------------------------------


def plain_read(servers: dict[str, Sandbox], db: str, dw: str) -> int:
    """Every row of the target and of the shards streamed and let go: the floor of a check."""
    read = 0
    for name, database, tables in [("down", dw, ["orders"])] + [(n, db, SHARDS[n]) for n in SHARDS]:
        with (
            contextlib.closing(servers[name].connect(database)) as conn,
            conn.cursor(pymysql.cursors.SSCursor) as cur,
        ):
            for table in tables:
                cur.execute(f"SELECT {', '.join(COLUMNS)} FROM {table}")
                while chunk := cur.fetchmany(5000):
                    read += len(chunk)
    return read


def verify_bench(
    servers: dict[str, Sandbox], r: Replicator, db: str, dw: str, rows: int
) -> dict[str, Any]:
    """``verify`` of the copied target: its rows/s (target and shards) against a plain streamed
    read of the same rows, and its peak of traced memory against the same check holding the
    whole target at once (``run`` past the row count: how it read before runs)."""
    sources = {n: servers[n].url() for n in SHARDS}
    down = servers["down"].url(dw)
    began = time.perf_counter()
    verdict = verify(r.group, sources, down, "orders")
    took = time.perf_counter() - began
    assert verdict.ok and verdict.target_rows == rows, verdict.differences
    began = time.perf_counter()
    read = plain_read(servers, db, dw)
    plain_s = time.perf_counter() - began
    assert read == 2 * rows
    peaks = {}
    for label, run in (("runs", RUN), ("whole", rows + 1)):
        tracemalloc.start()
        assert verify(r.group, sources, down, "orders", run=run).ok
        peaks[label] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {
        "rows": rows,
        "run": RUN,
        "mvdd_rows_per_s": 2 * rows / took,
        "plain_rows_per_s": read / plain_s,
        "peak_mib": peaks["runs"] / 2**20,
        "peak_whole_mib": peaks["whole"] / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rows", type=int, default=None, help="rows for (a)")
    parser.add_argument("--copy", type=int, default=None, help="rows for (c)")
    args = parser.parse_args()
    rows = args.rows or (20_000 if args.quick else 200_000)
    copy_rows = args.copy or (20_000 if args.quick else 400_000)
    seconds = 8.0 if args.quick else 30.0
    info = machine()
    banner("replicate", info)
    tmp = Path(tempfile.mkdtemp(prefix="mvdd-replicate-bench-"))
    full = {"binlog-row-metadata": "FULL"}
    servers = {
        "up1": Sandbox(binlog=True, server_id=1, options=full, base=tmp / "up1"),
        "up2": Sandbox(binlog=True, server_id=2, options=full, base=tmp / "up2"),
        "down": Sandbox(binlog=False, server_id=3, base=tmp / "down"),
    }
    try:
        for s in servers.values():
            s.start()
    except SandboxUnavailable as err:
        sys.exit(f"MariaDB is needed: {err}")
    try:
        follow = follow_bench(servers, rows, tmp)
        lag = lag_bench(servers, seconds, tmp)
        copied = copy_bench(servers, copy_rows, tmp)
    finally:
        for s in servers.values():
            s.stop()
    a = follow["mvdd_rows_per_s"] / follow["plain_rows_per_s"]
    c = copied["mvdd_rows_per_s"] / copied["plain_rows_per_s"]
    results = {
        "machine": info,
        "follow": follow,
        "ratio_follow": round(a, 3),
        "goal_follow": 0.7,
        "lag": lag,
        "goal_lag_p99_s": 1.0,
        "copy": copied,
        "ratio_copy": round(c, 3),
        "goal_copy": 0.8,
    }
    print(f"{'measure':<62}{'mvdd':>14}{'baseline':>14}{'ratio':>9}")
    print(
        f"{'(a) rows/s following two servers, vs mysql-replication + executemany':<62}"
        f"{follow['mvdd_rows_per_s']:>14,.0f}{follow['plain_rows_per_s']:>14,.0f}"
        f"{a:>8.2f}×  (goal ≥ 0.7)"
    )
    print(
        f"{'(b) lag at ~1,000 rows/s + an ALTER every 2 s: p50 / p99 (s)':<62}"
        f"{lag['lag_p50_s']:>14.3f}{lag['lag_p99_s']:>14.3f}{'':>9}  (goal p99 < 1 s; "
        f"{lag['rows_per_s']:,.0f} rows/s, {lag['alters']} ALTERs)"
    )
    print(
        f"{'(c) rows/s initial copy, vs SELECT + executemany':<62}"
        f"{copied['mvdd_rows_per_s']:>14,.0f}{copied['plain_rows_per_s']:>14,.0f}"
        f"{c:>8.2f}×  (goal ≥ 0.8)"
    )
    v = copied["verify"]
    d = v["mvdd_rows_per_s"] / v["plain_rows_per_s"]
    results["ratio_verify"] = round(d, 3)
    print(
        f"{'(d) rows/s verify of the copied target, vs a streamed read':<62}"
        f"{v['mvdd_rows_per_s']:>14,.0f}{v['plain_rows_per_s']:>14,.0f}{d:>8.2f}×  "
        f"(peak {v['peak_mib']:,.1f} MiB in runs of {v['run']:,} rows, "
        f"{v['peak_whole_mib']:,.1f} MiB holding the whole target)"
    )
    write("replicate_bench", results)


if __name__ == "__main__":
    main()
