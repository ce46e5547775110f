"""Key-range benchmark: what the upstream server does to cut a shard of a composite key into the
Spark bulk copy's partitions and to read them, against the plain SQL a copy would write, in
the same run, on a private MariaDB server.

(a) The bounds of ``PARTS`` partitions: :func:`~mvdd.replicate.replicator.key_bounds` (each
    bound found from the one before it) against the key at each offset read from the first row
    (``ORDER BY … LIMIT 1 OFFSET n``).
(b) Reading every partition (``SELECT *`` of each, the rows fetched):
    :func:`~mvdd.ddl.dml.key_range` (a range written out column by column) against the
    comparison of row constructors (``(a, b) >= (…) AND (a, b) < (…)``).

Each side's time (best of three) and the rows the server's handler read (``Handler_read_*``).

Prints a table and writes ``benchmarks/results/ranges_bench.json``.

    python benchmarks/ranges_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlglot import exp

from benchmarks.common import banner, machine, write
from mvdd.ddl.dml import key_range
from mvdd.ddl.render import literal_node, sql
from mvdd.replicate.replicator import key_bounds
from mvdd.replicate.sandbox import Sandbox, SandboxUnavailable

KEY = ["customer", "id"]
PARTS = 64
CREATE = (
    "CREATE TABLE t (customer VARCHAR(32) NOT NULL, id BIGINT NOT NULL, amount DECIMAL(10,2), "
    "note VARCHAR(64), PRIMARY KEY (customer, id))"
)


def fill(cur: Any, rows: int) -> None:
    cur.execute(CREATE)
    cur.execute(
        "INSERT INTO t SELECT CONCAT('c', LPAD(seq % 5000, 5, '0')), seq, seq % 1000 + 0.5, "
        f"REPEAT('x', seq % 40) FROM seq_1_to_{rows}"
    )
    cur.execute("ANALYZE TABLE t")
    cur.fetchall()


def handler_reads(cur: Any) -> int:
    cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
    return sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))


def timed(cur: Any, work: Callable[[], object]) -> tuple[float, int]:
    """The best of three runs of ``work``: its seconds, and the rows the handler read."""
    best, read = float("inf"), 0
    for _ in range(3):
        cur.execute("FLUSH STATUS")
        start = time.perf_counter()
        work()
        took = time.perf_counter() - start
        if took < best:
            best, read = took, handler_reads(cur)
    return best, read


def from_first(cur: Any, total: int) -> list[list[Any]]:
    """The baseline of (a): each bound read from the table's first row."""
    out = []
    for i in range(1, PARTS):
        cur.execute(
            f"SELECT customer, id FROM t ORDER BY customer, id LIMIT 1 OFFSET {i * total // PARTS}"
        )
        out.append(list(cur.fetchone()))
    return out


def constructors(low: list[Any] | None, high: list[Any] | None) -> str:
    """The baseline of (b): a range as a comparison of row constructors."""
    keys = exp.Tuple(expressions=[exp.column(k) for k in KEY])
    parts: list[exp.Expr] = [
        compare(this=keys.copy(), expression=exp.Tuple(expressions=[literal_node(v) for v in end]))
        for end, compare in ((low, exp.GTE), (high, exp.LT))
        if end is not None
    ]
    return sql(exp.and_(*parts)) if parts else "1 = 1"


def read_all(cur: Any, predicates: list[str]) -> int:
    rows = 0
    for p in predicates:
        cur.execute(f"SELECT * FROM t WHERE {p}")
        rows += len(cur.fetchall())
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rows, for a smoke run")
    args = ap.parse_args()
    rows = 50_000 if args.quick else 500_000
    info = machine()
    banner("ranges", info)
    server = Sandbox(base=Path(tempfile.mkdtemp(prefix="mvdd-ranges-bench-")))
    try:
        server.start()
    except SandboxUnavailable as err:
        sys.exit(f"MariaDB is needed: {err}")
    try:
        with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
            cur.execute("CREATE DATABASE bench")
            cur.execute("USE bench")
            fill(cur, rows)
            conn.commit()
            bounds: list[list[Any]] = []

            def ours_bounds() -> None:
                bounds[:] = key_bounds(cur, ("bench", "t"), KEY, rows, PARTS)

            a_ours = timed(cur, ours_bounds)
            a_base = timed(cur, lambda: from_first(cur, rows))
            assert bounds == from_first(cur, rows)
            edges: list[Any] = [None, *bounds, None]
            ours = [key_range(KEY, lo, hi) for lo, hi in itertools.pairwise(edges)]
            theirs = [constructors(lo, hi) for lo, hi in itertools.pairwise(edges)]
            counted: list[int] = []
            b_ours = timed(cur, lambda: counted.append(read_all(cur, ours)))
            b_base = timed(cur, lambda: counted.append(read_all(cur, theirs)))
            assert set(counted) == {rows}, counted
    finally:
        server.stop()
    results = {
        "machine": info,
        "rows": rows,
        "partitions": PARTS,
        "bounds": {"s": a_ours[0], "read": a_ours[1], "base_s": a_base[0], "base_read": a_base[1]},
        "partitions_read": {
            "s": b_ours[0],
            "read": b_ours[1],
            "base_s": b_base[0],
            "base_read": b_base[1],
        },
        "ratio_bounds": round(a_base[0] / a_ours[0], 2),
        "ratio_read": round(b_base[0] / b_ours[0], 2),
    }
    print(f"{rows:,} rows, a key of (VARCHAR, BIGINT), {PARTS} partitions")
    print(f"{'measure':<52}{'mvdd':>16}{'baseline':>18}{'speed-up':>10}")
    for label, (s, read), (base_s, base_read) in (
        ("(a) the bounds: from the one before / from row one", a_ours, a_base),
        ("(b) every partition read: ranges / row constructors", b_ours, b_base),
    ):
        print(
            f"{label:<52}{s:>7.3f} s {read / rows:>4.1f}×r"
            f"{base_s:>9.3f} s {base_read / rows:>4.1f}×r{base_s / s:>9.1f}×"
        )
    print("(×r: the rows the server's handler read, per row of the table)")
    write("ranges_bench", results)


if __name__ == "__main__":
    main()
