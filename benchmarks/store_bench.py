"""Store benchmark: the catalog on MariaDB (``mvdd.store.mysql``) against the catalog on SQLite,
in one run.

(a) DDL statements per second: one writer running ``ALTER TABLE … ADD COLUMN`` / ``MODIFY`` /
    ``DROP COLUMN`` on a 20-column table, each statement one durable commit; then four writer
    processes at once on four tables (SQLite: one file; MariaDB: one database).
(b) Refresh cost: ``cat.refresh()`` when nothing changed (the cheap check: one small query),
    and when another catalog committed one statement (the check plus reading that commit).

MariaDB runs on a private server started for the run (``tests/support/mariadb.py``, a unix
socket, ``innodb_flush_log_at_trx_commit`` at its default 1: durable commits); SQLite in WAL
with ``synchronous=NORMAL`` (the store's default) and with ``FULL``.

Prints a table and writes ``benchmarks/results/store_bench.json``.

    python benchmarks/store_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, per_call, write
from mvdd import Catalog
from tests.support.mariadb import MariaDB, MariaDBUnavailable

COLUMNS = ", ".join(f"c{i} INT" for i in range(18))


def create(cat: Catalog, name: str) -> None:
    cat.execute(f"CREATE TABLE {name} (id BIGINT PRIMARY KEY, {COLUMNS})")


def stream(name: str, n: int) -> list[str]:
    """``n`` statements that keep the table's width steady."""
    out = []
    for i in range(n):
        step = i % 3
        if step == 0:
            out.append(f"ALTER TABLE {name} ADD COLUMN x{i} INT NULL DEFAULT {i}")
        elif step == 1:
            out.append(f"ALTER TABLE {name} MODIFY x{i - 1} BIGINT NULL DEFAULT {i}")
        else:
            out.append(f"ALTER TABLE {name} DROP COLUMN x{i - 2}")
    return out


def ddl_rate(address: str, n: int) -> float:
    """Statements per second of one writer on one table."""
    with Catalog.open(address) as cat:
        create(cat, "solo")
        statements = stream("solo", n)
        start = time.perf_counter()
        for sql in statements:
            cat.execute(sql)
        return n / (time.perf_counter() - start)


def _writer(address: str, name: str, n: int, ready: Any, go: Any, out: Any) -> None:
    with Catalog.open(address) as cat:
        create(cat, name)
        statements = stream(name, n)
        ready.wait()
        go.wait()
        start = time.perf_counter()
        for sql in statements:
            cat.execute(sql)
        out.put(time.perf_counter() - start)


def parallel_rate(address: str, n: int, writers: int = 4) -> float:
    """Statements per second of ``writers`` processes, each on its own table, together."""
    ctx = multiprocessing.get_context("spawn")
    ready, go, out = ctx.Barrier(writers + 1), ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_writer, args=(address, f"p{i}", n, ready, go, out))
        for i in range(writers)
    ]
    for p in procs:
        p.start()
    ready.wait()
    start = time.perf_counter()
    go.set()
    for p in procs:
        p.join()
    wall = time.perf_counter() - start
    assert all(p.exitcode == 0 for p in procs)
    return writers * n / wall


def refresh_costs(address: str, rounds: int) -> tuple[float, float]:
    """(seconds per refresh with nothing new, seconds per refresh picking up one commit)."""
    with Catalog.open(address) as writer, Catalog.open(address) as reader:
        create(writer, "watched")
        reader.refresh()
        idle = per_call(reader.refresh, rounds)
        statements = iter(stream("watched", rounds * 6))
        samples = []
        for _ in range(rounds):
            writer.execute(next(statements))
            start = time.perf_counter()
            reader.refresh()
            samples.append(time.perf_counter() - start)
        assert reader.table("watched") == writer.table("watched")
        return idle, statistics.median(samples)


def measure(name: str, make: Callable[[str], str], n: int, rounds: int) -> dict[str, float]:
    print(f"  {name} ...", flush=True)
    solo = ddl_rate(make("solo"), n)
    together = parallel_rate(make("parallel"), max(n // 2, 10))
    idle, one = refresh_costs(make("refresh"), rounds)
    return {
        "ddl_per_s": solo,
        "ddl_per_s_4_procs": together,
        "refresh_idle_s": idle,
        "refresh_one_commit_s": one,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n, rounds = (60, 50) if args.quick else (600, 400)
    info = machine()
    banner("store", info)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="mvdd-store-bench-") as tmp:
        results["sqlite"] = measure("SQLite", lambda label: f"{tmp}/{label}.db", n, rounds)
        results["sqlite (full)"] = measure_sqlite_full(tmp, n)
        server = MariaDB()
        try:
            server.start()
        except MariaDBUnavailable as err:
            print(f"MariaDB skipped: {err}")
            server.stop()
            server = None
        if server is not None:
            try:
                counter = iter(range(1000))

                def database(label: str) -> str:
                    name = f"bench_{label}_{next(counter)}"
                    with server.connect() as conn, conn.cursor() as cur:
                        cur.execute(f"CREATE DATABASE {name}")
                    return f"mysql://root@localhost/{name}?unix_socket={server.socket}"

                results["mariadb"] = measure("MariaDB", database, n, rounds)
            finally:
                server.stop()

    base = results["sqlite"]
    head = ["DDL/s".rjust(10), "DDL/s, 4 procs".rjust(17), "refresh idle".rjust(15)]
    print(f"\n{'store':<18}" + "".join(head) + "refresh, 1 commit".rjust(20))
    for name, r in results.items():
        cells = [f"{r['ddl_per_s']:>10,.0f}"]
        if "refresh_idle_s" in r:
            cells += [
                f"{r['ddl_per_s_4_procs']:>17,.0f}",
                f"{r['refresh_idle_s'] * 1e6:>13,.0f}µs",
                f"{r['refresh_one_commit_s'] * 1e6:>18,.0f}µs",
            ]
        print(f"{name:<18}" + "".join(cells))
    ratios = {name: {k: r[k] / base[k] for k in r} for name, r in results.items()}
    if "mariadb" in results:
        m = ratios["mariadb"]
        print(
            f"\nMariaDB / SQLite: DDL/s {m['ddl_per_s']:.2f}x, 4 procs "
            f"{m['ddl_per_s_4_procs']:.2f}x, refresh idle {m['refresh_idle_s']:.2f}x the time, "
            f"refresh with one commit {m['refresh_one_commit_s']:.2f}x the time"
        )
    write(
        "store_bench",
        {
            "machine": info,
            "statements": n,
            "rounds": rounds,
            "results": results,
            "ratios_vs_sqlite": ratios,
        },
    )


def measure_sqlite_full(tmp: str, n: int) -> dict[str, float]:
    """SQLite with ``synchronous=FULL``: an fsync per commit."""
    print("  SQLite synchronous=full ...", flush=True)
    address = f"{tmp}/full.db"
    with Catalog.open(address, synchronous="full") as cat:
        create(cat, "solo")
        statements = stream("solo", n)
        start = time.perf_counter()
        for sql in statements:
            cat.execute(sql)
        solo = n / (time.perf_counter() - start)
    return {"ddl_per_s": solo}


if __name__ == "__main__":
    main()
