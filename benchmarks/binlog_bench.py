"""Binlog benchmark: rows decoded per second by mvdd's reader against ``mysql-replication``
alone, on the same binlog, in one run; and the schema lookup per row event against a dict.

A private MariaDB server (``binlog_row_metadata=FULL``, so the library alone can name the
columns) takes a table of ten columns of mixed types; rows are inserted 100 per statement, with
two ALTERs half way (so mvdd decodes with three versions). Then:

(a) rows/s: the library alone reads the binlog from the table's creation to the end,
    materialising every row (``ev.rows``); mvdd's :class:`~mvdd.binlog.BinlogReader` reads the
    same range, checks every table map against the catalog and hands out every row as an
    event. Best of three reads each (the reads of (a) and (c) taking turns). Goal: mvdd ≥ 0.8×
    the library.
(b) the schema lookup a row event makes (the decoding plan of the version valid at its
    position; positions only grow, so the current plan is kept) against a dict lookup.
    Goal: ≤ 5×.
(c) the same rows and ALTERs in a second database, written with ``log_bin_compress`` and
    ``log_bin_compress_min_len=10`` (MariaDB compresses each statement and row event with zlib;
    the library alone cannot read them):
    mvdd's rows/s on them against its rows/s in (a), best of three each, and the bytes of
    binlog each range takes.

Prints a table and writes ``benchmarks/results/binlog_bench.json``.

    python benchmarks/binlog_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, per_call, write
from mvdd import BinlogPosition
from mvdd.binlog import BinlogReader
from mvdd.replicate.sandbox import Sandbox, SandboxUnavailable

TABLE = (
    "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(40), b BIGINT UNSIGNED, c DECIMAL(10,2), "
    "d DATETIME(6), e ENUM('x','y','z'), f DOUBLE, g TEXT, h INT, i VARBINARY(16))"
)


def position(server: Sandbox) -> BinlogPosition:
    with server.connect() as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
    return BinlogPosition(file, int(offset))


def fill(server: Sandbox, rows: int, database: str = "bench") -> None:
    with server.connect(database) as conn, conn.cursor() as cur:
        batch = 100
        for start in range(0, rows, batch):
            if start == rows // 2:
                cur.execute("ALTER TABLE t ADD COLUMN k INT DEFAULT 7 AFTER a")
                cur.execute("ALTER TABLE t MODIFY h BIGINT")
            values = [
                (
                    i,
                    f"name {i}",
                    i * 7919,
                    f"{i % 10000}.25",
                    f"2024-01-01 00:00:{i % 60:02d}.123456",
                    "xyz"[i % 3],
                    i / 3,
                    "some text " * 3,
                    i,
                    b"\x00\x01" * 4,
                )
                for i in range(start, min(start + batch, rows))
            ]
            cur.executemany(
                "INSERT INTO t (id, a, b, c, d, e, f, g, h, i) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                values,
            )


def library_alone(server: Sandbox, start: BinlogPosition, end: BinlogPosition) -> int:
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent

    stream = BinLogStreamReader(
        {"unix_socket": server.socket, "user": "root"},
        server_id=9001,
        log_file=start.file,
        log_pos=start.offset,
        end_log_pos=end.offset,  # (one binlog file: checked where the range is written)
        resume_stream=True,
        only_schemas=["bench"],
        only_events=[WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent],
        enable_logging=False,
    )
    rows = 0
    try:
        for ev in stream:
            for row in ev.rows:
                rows += len(row["values"]) > 0
    finally:
        stream.close()
    return rows


def with_mvdd(
    server: Sandbox, start: BinlogPosition, end: BinlogPosition, reader: BinlogReader
) -> int:
    rows = 0
    reader._resume = start  # read the same range again
    for ev in reader.events(until=end):
        rows += ev.row is not None
    return rows


def best_rates(fns: list[Any], repeat: int) -> list[tuple[float, int]]:
    """Each read's best rate over ``repeat`` rounds, the reads taking turns within a round (a
    machine that slows down or speeds up in the run weighs on each alike)."""
    best, counts = [float("inf")] * len(fns), [0] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            began = time.perf_counter()
            counts[k] = fn()
            best[k] = min(best[k], time.perf_counter() - began)
    return [(count / took, count) for count, took in zip(counts, best, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rows = 20_000 if args.quick else 200_000
    info = machine()
    banner("binlog", info)
    try:
        server = Sandbox(binlog=True, options={"binlog-row-metadata": "FULL"}).start()
    except SandboxUnavailable as err:
        sys.exit(f"MariaDB is needed: {err}")
    try:
        server.execute("CREATE DATABASE bench")
        reader = BinlogReader(server.url(), tables="bench.t")
        reader.check()  # the catalog bootstraps here: reading starts at this position
        start = reader.position
        assert start is not None
        server.execute(TABLE, database="bench")
        fill(server, rows)
        end = position(server)
        assert end.file == start.file, (start, end)
        list(reader.events())  # the catalog now knows every version
        repeat = 2 if args.quick else 3

        # (b) the lookup a row event makes, against a dict lookup
        at = position(server)
        reader._plan("bench.t", at)
        lookups = 200_000
        lookup = per_call(lambda: reader._plan("bench.t", at), lookups)
        table = {"bench.t": object()}
        plain = per_call(lambda: table["bench.t"], lookups)

        # (c) the same rows compressed, through mvdd, against (a)'s figure
        server.execute("CREATE DATABASE benchz")
        zreader = BinlogReader(server.url(), tables="benchz.t")
        zreader.check()
        zstart = zreader.position
        assert zstart is not None
        # (a row event is compressed when the row that begins it has min_len bytes: 10, the
        # least, makes the server compress each event of this table's rows of ~80 bytes)
        server.execute("SET GLOBAL log_bin_compress = ON, GLOBAL log_bin_compress_min_len = 10")
        server.execute(TABLE, database="benchz")
        fill(server, rows, "benchz")
        server.execute("SET GLOBAL log_bin_compress = OFF")
        zend = position(server)
        assert zend.file == zstart.file, (zstart, zend)
        list(zreader.events())
        (lib_rate, lib_rows), (mvdd_rate, mvdd_rows), (z_rate, z_rows) = best_rates(
            [
                lambda: library_alone(server, start, end),
                lambda: with_mvdd(server, start, end, reader),
                lambda: with_mvdd(server, zstart, zend, zreader),
            ],
            repeat,
        )
        assert lib_rows == mvdd_rows == z_rows == rows, (lib_rows, mvdd_rows, z_rows, rows)
        plain_bytes = end.offset - start.offset
        compressed_bytes = zend.offset - zstart.offset
    finally:
        server.stop()

    results = {
        "machine": info,
        "rows": rows,
        "library_rows_per_s": round(lib_rate),
        "mvdd_rows_per_s": round(mvdd_rate),
        "ratio_mvdd_to_library": round(mvdd_rate / lib_rate, 3),
        "goal_ratio": 0.8,
        "lookup_ns": round(lookup * 1e9, 1),
        "dict_lookup_ns": round(plain * 1e9, 1),
        "lookup_ratio": round(lookup / plain, 2),
        "goal_lookup_ratio": 5,
        "compressed_rows_per_s": round(z_rate),
        "ratio_compressed_to_plain": round(z_rate / mvdd_rate, 3),
        "plain_binlog_bytes": plain_bytes,
        "compressed_binlog_bytes": compressed_bytes,
    }
    print(f"{'measure':<58}{'figure':>16}{'baseline':>16}{'ratio':>9}")
    print(
        f"{'(a) rows/s decoded, mvdd vs mysql-replication alone':<58}"
        f"{mvdd_rate:>16,.0f}{lib_rate:>16,.0f}{mvdd_rate / lib_rate:>8.2f}×  (goal ≥ 0.8)"
    )
    print(
        f"{'(b) schema lookup per row event vs dict lookup (ns)':<58}"
        f"{lookup * 1e9:>16.0f}{plain * 1e9:>16.0f}{lookup / plain:>8.2f}×  (goal ≤ 5)"
    )
    print(
        f"{'(c) rows/s decoded by mvdd, compressed binlog vs (a)':<58}"
        f"{z_rate:>16,.0f}{mvdd_rate:>16,.0f}{z_rate / mvdd_rate:>8.2f}×"
    )
    print(
        f"{'    binlog bytes of the range, compressed vs plain':<58}"
        f"{compressed_bytes:>16,}{plain_bytes:>16,}{compressed_bytes / plain_bytes:>8.2f}×"
    )
    write("binlog_bench", results)


if __name__ == "__main__":
    main()
