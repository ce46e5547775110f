"""Shard coordinator benchmark: the cost of one upstream DDL must not grow with the number of
shards.

(a) ``g.apply()`` on a group of 16, 256 and 4,096 shards of a 100-column table, for a stream of
    DDL that keeps the group in steady state (a shard adds a column, widens one, and drops it
    again; another widens an existing column and narrows it back). The baseline is the same
    stream on the 16-shard group, in the same run, the three groups taking a round of it in
    turn: 4,096 shards must cost at most 1.5x.
(b) A full join of the 4,096 shards from scratch (building the group), against re-joining all
    4,096 tables with ``mvdd.join`` — what one DDL would cost without the per-element holdings.

Prints a table and writes ``benchmarks/results/shard_bench.json``.

    python benchmarks/shard_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, write
from mvdd import ShardGroup, Table, join, parse_table

TYPES = [
    "INT",
    "BIGINT NOT NULL DEFAULT 0",
    "VARCHAR(40)",
    "DECIMAL(12,2)",
    "DATETIME",
    "TEXT",
    "ENUM('a','b','c')",
    "DOUBLE NOT NULL",
    "CHAR(8) NOT NULL DEFAULT ''",
    "SMALLINT UNSIGNED",
]


def wide_table() -> Table:
    """A 100-column table with a primary key and two secondary indexes."""
    cols = ", ".join(f"c{i} {TYPES[i % len(TYPES)]}" for i in range(99))
    return parse_table(
        f"CREATE TABLE tbl (id BIGINT NOT NULL, {cols}, PRIMARY KEY (id), KEY k1 (c0), "
        "KEY k2 (c2, c1))"
    )


def group(shards: int, base: Table) -> tuple[ShardGroup, float]:
    """A group of ``shards`` copies of ``base`` (one Table value per shard, sharing columns, as
    parsed tables of equal text would); and the seconds it took to build (the full join)."""
    tables = {f"s{i:04}": attrs.evolve(base, name=f"tbl_{i:04}") for i in range(shards)}
    gc.collect()
    start = time.perf_counter()
    g = ShardGroup("merged", tables)
    return g, time.perf_counter() - start


def stream(g: ShardGroup, rounds: int) -> list[float]:
    """Seconds of each ``apply()`` in ``rounds`` rounds of a steady-state DDL stream."""
    names = list(g.shards)
    a, b = names[0], names[len(names) // 2]
    ta, tb = g.schema(a).name, g.schema(b).name
    statements = [
        (a, f"ALTER TABLE {ta} ADD COLUMN extra INT NOT NULL"),  # dropped -> partial: ADD
        (a, f"ALTER TABLE {ta} MODIFY extra BIGINT NOT NULL"),  # widen: MODIFY
        (b, f"ALTER TABLE {tb} MODIFY c0 BIGINT"),  # widen an existing column
        (a, f"ALTER TABLE {ta} DROP COLUMN extra"),  # partial -> dropped: DROP
        (b, f"ALTER TABLE {tb} MODIFY c0 INT"),  # narrow back
        (b, f"ALTER TABLE {tb} COMMENT 'x'"),  # passes through
    ]
    times = []
    for _ in range(rounds):
        for shard, sql in statements:
            start = time.perf_counter()
            g.apply(shard, sql)
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds, for a smoke run")
    args = ap.parse_args()
    rounds = 10 if args.quick else 60
    info = machine()
    banner("shard", info)
    base = wide_table()
    results: dict[str, Any] = {"machine": info, "quick": args.quick, "columns": 100}
    per_size: dict[str, Any] = {}
    sizes = (16, 256, 4096)
    groups = {shards: group(shards, base) for shards in sizes}
    for g, _ in groups.values():
        stream(g, 2)  # warm the caches
    # the sizes in turn, a round each, so each meets the same moments of the machine
    timed: dict[int, list[float]] = {shards: [] for shards in sizes}
    for _ in range(rounds):
        for shards, (g, _) in groups.items():
            timed[shards] += stream(g, 1)
    for shards in sizes:
        build, times = groups[shards][1], timed[shards]
        median_us = statistics.median(times) * 1e6
        p90_us = statistics.quantiles(times, n=10)[-1] * 1e6
        per_size[str(shards)] = {
            "build_s": build,
            "apply_median_us": median_us,
            "apply_p90_us": p90_us,
            "applies": len(times),
        }
        print(
            f"(a) {shards:5} shards: apply median {median_us:7.0f} us, p90 {p90_us:7.0f} us "
            f"({len(times)} DDL) | group built in {build:6.2f} s"
        )
    base_us = per_size["16"]["apply_median_us"]
    for size in per_size.values():
        size["vs_16"] = size["apply_median_us"] / base_us
    results["apply"] = per_size
    ratio = per_size["4096"]["vs_16"]
    print(f"(a) flatness: 4096 vs 16 shards {ratio:.2f}x (required <= 1.5x)")

    # (b) the full join from scratch, against re-joining every table with mvdd.join
    tables = [attrs.evolve(base, name=f"tbl_{i:04}") for i in range(4096)]
    gc.collect()
    start = time.perf_counter()
    join(*tables)
    rejoin_s = time.perf_counter() - start
    build_s = per_size["4096"]["build_s"]
    results["full_join"] = {
        "shards": 4096,
        "group_build_s": build_s,
        "mvdd_join_s": rejoin_s,
        "apply_median_us": per_size["4096"]["apply_median_us"],
        "rejoin_vs_apply": rejoin_s / (per_size["4096"]["apply_median_us"] / 1e6),
    }
    print(
        f"(b) 4096 shards from scratch: group built in {build_s:.2f} s; mvdd.join of all "
        f"{rejoin_s:.2f} s, i.e. {results['full_join']['rejoin_vs_apply']:.0f}x one apply()"
    )
    write("shard_bench", results)


if __name__ == "__main__":
    main()
