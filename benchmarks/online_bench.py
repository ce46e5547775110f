"""Online schema change benchmark: how long an ADD INDEX job takes through all its states, and
what it costs the DML of the row store.

(a) An ADD INDEX job on a table of 20,000 rows (reorg in batches of 100), with 1, 4 and 16 nodes
    reloading the schema every quarter lease (each node its own catalog on the shared SQLite
    file, in its own thread), against F1's bound of states x 2 x lease: the owner may move to
    the next state once every node has the current one, and a node reloads at least once a lease.
(b) Row-store DML (a process of its own, inserting and updating rows through a node's schema,
    as a serving process would) during that job with 4 nodes, against the same DML with no job
    running, in the same run.

Prints a table and writes ``benchmarks/results/online_bench.json``.

    python benchmarks/online_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from benchmarks.common import banner, machine, write
from mvdd import Catalog, MvddError
from mvdd.online import Cluster
from mvdd.online.rowstore import RowStore

LEASE = 0.5
STATES = 4  # delete-only, write-only, write-reorg, public
BATCH = int(__import__("os").environ.get("MVDD_REORG_BATCH", "100"))  # rows per reorg batch
PAUSE = float(__import__("os").environ.get("MVDD_REORG_PAUSE", "0.005"))


def setup(folder: Path, rows: int) -> tuple[str, str]:
    catalog, data = str(folder / "catalog.db"), str(folder / "rows.db")
    cat = Catalog.open(catalog)
    cat.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT)")
    store = RowStore(data)
    table = cat.table("t")
    with store._tx() as db:  # bulk load in one transaction
        for pk in range(1, rows + 1):
            db.execute(
                "INSERT INTO rows (table_id, pk, data) VALUES (?, ?, ?)",
                [table.id, f"[{pk}]", f'{{"1": {pk}, "2": {pk % 97}, "3": {pk % 13}}}'],
            )
    store.close()
    cat.close()
    return catalog, data


def run_nodes(catalog: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    def serve(node_id: str) -> None:
        cat = Catalog.open(catalog)
        node = Cluster(cat, lease=LEASE).node(node_id)
        while not stop.is_set():
            with contextlib.suppress(MvddError):
                node.reload()
            stop.wait(LEASE / 4)
        cat.close()

    threads = [threading.Thread(target=serve, args=(f"n{i}",), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    return threads


def dml(catalog: str, data: str, stop: Any, counter: Any) -> None:
    """A serving process's DML loop (run in its own process: one interpreter lock each)."""
    cat = Catalog.open(catalog)
    cluster = Cluster(cat, lease=LEASE)
    node = cluster.node("dml")
    store = RowStore(data)
    rng = random.Random(1)
    pk = 10_000_000
    last = 0.0
    while not stop.is_set():
        now = time.monotonic()
        if now - last > LEASE / 4:
            node.reload()
            last = now
        table = node.table("t")
        try:
            if rng.random() < 0.2:  # mostly updates: the table grows slowly
                pk += 1
                store.insert(table, {"id": pk, "a": rng.randint(0, 96), "b": 1})
            else:
                store.update(table, {"id": rng.randint(1, 20_000)}, {"a": rng.randint(0, 96)})
            counter.value += 1
        except MvddError:
            pass
    store.close()
    cat.close()


def start_dml(catalog: str, data: str) -> tuple[Any, Any, Any]:
    ctx = multiprocessing.get_context("spawn")
    stop, counter = ctx.Event(), ctx.Value("q", 0)
    worker = ctx.Process(target=dml, args=(catalog, data, stop, counter), daemon=True)
    worker.start()
    return worker, stop, counter


def job_time(
    catalog: str, data: str, nodes: int, *, with_dml: bool, keep: bool = False
) -> dict[str, Any]:
    worker = dml_stop = counter = None
    if with_dml:
        worker, dml_stop, counter = start_dml(catalog, data)
        time.sleep(1.0)  # the process is up and running
    stop = threading.Event()
    threads = run_nodes(catalog, nodes, stop)
    time.sleep(LEASE)  # every node has reported
    ops_before = counter.value if counter is not None else 0
    cat = Catalog.open(catalog)
    cluster = Cluster(cat, lease=LEASE)
    store = RowStore(data, batch=BATCH)
    name = f"k{nodes}{int(with_dml)}"
    start = time.monotonic()
    cluster.submit(f"ALTER TABLE t ADD INDEX {name} (a)")
    cluster.run_owner(reorg=store.backfill, timeout=120, reorg_pause=PAUSE)
    took = time.monotonic() - start
    ops = (counter.value if counter is not None else 0) - ops_before
    stop.set()
    for t in threads:
        t.join()
    if worker is not None:
        dml_stop.set()
        worker.join()
    if not keep:
        cluster.submit(f"ALTER TABLE t DROP INDEX {name}")
        cluster.run_owner(cleanup=store.cleanup, timeout=120)
    store.close()
    cat.close()
    return {"nodes": nodes, "seconds": took, "dml_ops": ops, "dml_per_s": ops / took}


def idle_dml(catalog: str, data: str, seconds: float) -> float:
    worker, dml_stop, counter = start_dml(catalog, data)
    time.sleep(1.0)
    stop = threading.Event()
    threads = run_nodes(catalog, 4, stop)
    time.sleep(LEASE)
    before, start = counter.value, time.monotonic()
    time.sleep(seconds)
    ops, took = counter.value - before, time.monotonic() - start
    stop.set()
    dml_stop.set()
    worker.join()
    for t in threads:
        t.join()
    return ops / took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rows, for a smoke run")
    args = ap.parse_args()
    rows = 5_000 if args.quick else 20_000
    info = machine()
    banner("online", info)
    bound = STATES * 2 * LEASE
    results: dict[str, Any] = {"machine": info, "lease_s": LEASE, "rows": rows, "f1_bound_s": bound}
    with tempfile.TemporaryDirectory() as tmp:
        catalog, data = setup(Path(tmp), rows)
        jobs = {}
        for n in (1, 4, 16):
            r = job_time(catalog, data, n, with_dml=False)
            r["vs_bound"] = r["seconds"] / bound
            jobs[str(n)] = r
            print(
                f"(a) ADD INDEX over {rows} rows, {n:2} nodes: {r['seconds']:5.2f} s "
                f"(F1 bound {STATES} states x 2 x {LEASE} s lease = {bound:.1f} s: "
                f"{r['vs_bound']:.2f}x)"
            )
        results["add_index"] = jobs
        idle = idle_dml(catalog, data, 4.0)
        busy = job_time(catalog, data, 4, with_dml=True, keep=True)
        after = idle_dml(catalog, data, 4.0)  # the same DML, the new index maintained
        results["dml"] = {
            "idle_per_s": idle,
            "during_job_per_s": busy["dml_per_s"],
            "after_job_per_s": after,
            "ratio": busy["dml_per_s"] / idle,
            "ratio_to_after": busy["dml_per_s"] / after,
            "job_seconds": busy["seconds"],
        }
        print(
            f"(b) row-store DML idle {idle:7.0f} ops/s; during the ADD INDEX job "
            f"{busy['dml_per_s']:7.0f} ops/s ({results['dml']['ratio']:.2f}x idle); "
            f"after it, the index maintained {after:7.0f} ops/s (during/after "
            f"{results['dml']['ratio_to_after']:.2f}x); the job took {busy['seconds']:.2f} s"
        )
    write("online_bench", results)


if __name__ == "__main__":
    main()
