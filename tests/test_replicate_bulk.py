"""The Spark bulk copy of ``mvdd replicate`` (``bulk="spark"``) on real servers: shards read in
key-range partitions over JDBC (MariaDB Connector/J, unix sockets), merged into the joined
schema by ``merge_shards`` (no Python UDF in the plan), written over JDBC; writes and a DDL
land upstream during the copy; a copy killed between a chunk's write and its record resumes
without a row twice; tables and columns named with quotes, spaces and letters outside ASCII go
through both copies and the following. The oracle is the upstream tables
(:mod:`tests.support.replication`)."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from mvdd.model import Column, ColumnType
from mvdd.replicate.lake import compact_lake
from mvdd.replicate.merge import row_key
from mvdd.spark import bulk, has_python_udf, read_lake
from mvdd.store.address import parse_address
from tests.support.mariadb import MariaDB, quote
from tests.support.replication import (
    Servers,
    Setup,
    applied,
    assert_replicated,
    gtid_binlog_pos,
    setup,
    texts,
)

pytestmark = [pytest.mark.mariadb, pytest.mark.spark]

ROOT = Path(__file__).resolve().parent.parent
#: (``made``: MariaDB's YEAR(2), whose SELECT shows two digits of the years it stores)
CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL DEFAULT 0.00, placed DATETIME(3) NULL, made YEAR(2) NULL, PRIMARY KEY (id))"
)
#: the years the rows' ``made`` cycles through (the zero year, and years two digits cannot tell)
YEARS = ["1901", "0000", "2069", "1969", "2155", None]
SHARDS = [
    ("up1", "orders_01", 0),
    ("up1", "orders_02", 10_000_000),
    ("up2", "orders_03", 20_000_000),
]
ROWS = 3000


def fill(s: Setup) -> None:
    for server, table, base in SHARDS:
        with s.servers.upstream(server).connect(s.db) as conn, conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {table} (id, customer, amount, placed, made) "
                "VALUES (%s, %s, %s, %s, %s)",
                [
                    (base + i, f"c{i}", f"{i % 1000}.5", "2026-11-24 10:00:00.250", YEARS[i % 6])
                    for i in range(ROWS)
                ],
            )


def upstream_texts(s: Setup, columns: str) -> list[tuple[Any, ...]]:
    """The shards' rows as their servers print them (:func:`texts`), shard after shard."""
    return [
        row
        for server, table, _ in SHARDS
        for row in texts(s.servers.upstream(server), s.db, table, columns)
    ]


@pytest.fixture
def s(servers: Servers, tmp_path: Path, jdbc: list[str], spark: Any) -> Any:
    # the replicator takes the tests' session (it carries the JDBC driver)
    with setup(servers, tmp_path) as found:
        for server, table, _ in SHARDS:
            found.run(server, CREATE.format(t=table))
        fill(found)
        yield found


class Writer:
    """Updates, deletes and inserts on the shards while the copy runs."""

    def __init__(self, s: Setup) -> None:
        self.s = s
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.n = 0

    def _loop(self) -> None:
        conns = {n: self.s.servers.upstream(n).connect(self.s.db) for n in ("up1", "up2")}
        try:
            while not self.stop.is_set():
                server, table, base = SHARDS[self.n % 3]
                i = self.n
                with conns[server].cursor() as cur:
                    cur.execute(
                        f"UPDATE {table} SET amount = amount + 1 WHERE id = %s", (base + i % ROWS,)
                    )
                    cur.execute(f"DELETE FROM {table} WHERE id = %s", (base + (i * 7) % ROWS,))
                    cur.execute(
                        f"INSERT INTO {table} (id, customer) VALUES (%s, 'new')", (base + ROWS + i,)
                    )
                self.n += 1
                time.sleep(0.003)
        finally:
            for c in conns.values():
                c.close()


def on_write(monkeypatch: pytest.MonkeyPatch, at: int, act: Callable[[], None]) -> list[str]:
    """The tables Spark's copy writes, in order; ``act`` runs before the ``at``-th write (a
    DDL landing during a shard's copy). Each frame written holds no Python UDF."""
    writes: list[str] = []
    real = bulk.write

    def write(df: Any, address: Any, table: str, **kw: Any) -> None:
        assert not has_python_udf(df)  # native column expressions all the way
        writes.append(table)
        if len(writes) == at:
            act()
        real(df, address, table, **kw)

    monkeypatch.setattr(bulk, "write", write)
    return writes


def small(s: Setup, **options: Any) -> Any:
    """A replicator whose Spark copy reads partitions of 500 rows, two a chunk."""
    r = s.replicator(bulk="spark", **options)
    r.partition_rows = 500
    r.chunk_partitions = 2
    return r


def test_bulk_copy_under_writes_and_a_ddl_converges(
    s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = Writer(s)
    # a DDL lands on a shard during its copy
    late = "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(20) NULL DEFAULT 'late'"
    writes = on_write(monkeypatch, 2, lambda: s.run("up1", late))
    r = small(s)
    writer.thread.start()
    try:
        status = r.run()
    finally:
        writer.stop.set()
        writer.thread.join()
    assert len(writes) >= 9 and writer.n > 10
    assert "mvdd_stage_orders" in writes  # orders_01 was copied again, upserted
    assert not any(v["paused"] for v in status["shards"].values())
    r = s.replicator(bulk="spark")
    # caught up, the GTID position applied is the servers' (the copy's start read at its
    # position, the copy again keeping it, each transaction followed moving it)
    assert applied(r.run()) == gtid_binlog_pos(s)
    counts = assert_replicated(s, r)
    assert counts[f"up1/{s.db}.orders_01"] > ROWS // 2
    assert r.group.joined.find_column("note") is not None


def test_a_bulk_copy_killed_after_a_chunk_resumes_without_a_row_twice(s: Setup) -> None:
    env = {**os.environ, "MVDD_KILL_AT": "after-chunk:3"}
    args = [*s.cli_args(), "--bulk", "spark", "--partition-rows", "500", "--partition-mib", "1"]
    args.append("--no-live")
    proc = subprocess.run(
        [sys.executable, "-m", "mvdd.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    r = s.replicator(bulk="spark")
    r.run()
    assert assert_replicated(s, r) == {f"{src}/{s.db}.{t}": ROWS for src, t, _ in SHARDS}


#: the rows of a shard made wide: every one, or those after its first third (whose first
#: rows, and its statistics, which count no value InnoDB keeps off the row's page, say narrow)
WIDE = {
    "every row": "REPEAT(CHAR(97 + id % 26), 2000 + (id % 7) * 1000)",
    "the later rows": f"IF(id % {ROWS} < {ROWS // 3}, NULL, REPEAT('w', 8000 + (id % 7) * 1000))",
}


@pytest.mark.parametrize("payload", WIDE.values(), ids=WIDE.keys())
def test_a_shard_of_wide_rows_is_cut_by_bytes(
    s: Setup, monkeypatch: pytest.MonkeyPatch, payload: str
) -> None:
    """A shard of wide rows is cut into partitions of about ``partition_bytes`` bytes, where
    ``partition_rows`` alone would make it one: each partition's bytes, which the upstream
    server measures over its key range, stay near the bound (so a chunk Spark holds is bounded
    by bytes), and the copy is whole. Rows wide after the shard's first third are measured
    too: a row's bytes are sampled in windows spread over the key."""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD payload MEDIUMTEXT NULL",
            f"UPDATE {table} SET payload = {payload}",
        )
    read = reads_of(monkeypatch)
    r = s.replicator(bulk="spark")
    r.partition_bytes = 2 * 2**20
    r.run()
    assert_replicated(s, r)
    what = "COALESCE(SUM(COALESCE(LENGTH(payload), 0) + LENGTH(customer) + 30), 0), COUNT(*)"
    for table, measured in measured_partitions(s, read, what).items():
        assert sum(rows for _, rows in measured) == ROWS
        whole = sum(size for size, _ in measured)
        assert whole > 7 * r.partition_bytes  # (one partition, by rows alone)
        assert len(measured) >= whole / r.partition_bytes
        assert max(size for size, _ in measured) < 1.25 * r.partition_bytes, (table, measured)
    columns = "MD5(payload)"
    assert texts(s.servers.down, s.dw, "orders", columns) == upstream_texts(s, columns)


def reads_of(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str]]]:
    """The reads the bulk copy makes from here on: each chunk's table and its partitions'
    predicates."""
    read: list[tuple[str, list[str]]] = []
    real = bulk.read

    def reading(spark: Any, address: Any, table: tuple[str, str], *a: Any, **kw: Any) -> Any:
        read.append((table[1], list(a[1])))
        return real(spark, address, table, *a, **kw)

    monkeypatch.setattr(bulk, "read", reading)
    return read


def measured_partitions(
    s: Setup, read: list[tuple[str, list[str]]], what: str
) -> dict[str, list[tuple[int, ...]]]:
    """Each shard's partitions measured by its server over each partition's predicate:
    ``what`` (a SELECT list of integers) of the rows in the partition's range."""
    out = {}
    for server, table, _ in SHARDS:
        with (
            contextlib.closing(s.servers.upstream(server).connect(s.db)) as conn,
            conn.cursor() as cur,
        ):
            found = []
            for p in (p for name, chunk in read if name == table for p in chunk):
                cur.execute(f"SELECT {what} FROM {table} WHERE {p}")
                found.append(tuple(int(v) for v in cur.fetchone()))
        out[table] = found
    return out


def partition_rows(s: Setup, read: list[tuple[str, list[str]]]) -> dict[str, list[int]]:
    """Each shard's partitions' rows, counted by its server over each partition's predicate."""
    return {t: [n for (n,) in m] for t, m in measured_partitions(s, read, "COUNT(*)").items()}


def test_a_shard_of_an_integer_key_with_a_far_value_is_cut_by_its_rows(
    s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard whose integer key holds one far value (a sentinel row) among dense ones is cut
    at every n-th row, where equal widths of its key put all but one row in its first
    partition; a shard of dense keys is cut by equal widths as before. Every partition, its
    rows counted by the server over its range, holds at most ``partition_rows`` rows."""
    far = {"orders_01": 10**15, "orders_03": 2**63 - 1}
    for server, table, _ in SHARDS:
        if table in far:
            s.run(server, f"INSERT INTO {table} (id, customer) VALUES ({far[table]}, 'far')")
    read = reads_of(monkeypatch)
    r = s.replicator(bulk="spark")
    r.partition_rows = 250
    r.run()
    assert_replicated(s, r)
    for table, counts in partition_rows(s, read).items():
        assert sum(counts) == ROWS + (table in far)
        assert max(counts) <= r.partition_rows, (table, counts)
        assert len(counts) == (14 if table in far else 12), (table, counts)


#: keys led by a column whose order a comparison with its text would not follow: an ENUM's
#: (its members' numbers: 'z' < 'a' < 'm'; compared as text, a first partition held every 'a'
#: and 'm' row as well, the last every 'z' row) and a TIME's, which the copy reads as the text
#: the server prints (negative times and hours past 99: as text, '-10:00:00' sorts after
#: '-09:00:00' and '100:00:00' before '99:00:00'; its bound a TIME literal, where a driver's
#: ``timedelta``'s ``str`` writes days) -> (the column, its value by the row's id)
LEADS = {
    "enum": ("lead ENUM('z','a','m') NOT NULL DEFAULT 'z'", "ELT(1 + id % 3, 'z', 'a', 'm')"),
    "time": (
        "lead TIME(3) NOT NULL DEFAULT 0",
        f"SEC_TO_TIME((id % {ROWS} - {ROWS // 2}) * 400.5)",
    ),
}


@pytest.mark.parametrize("column, value", LEADS.values(), ids=LEADS.keys())
def test_a_shard_of_a_key_led_by_a_column_of_its_own_order_is_cut_in_that_order(
    s: Setup, monkeypatch: pytest.MonkeyPatch, column: str, value: str
) -> None:
    """A key led by an ENUM or a TIME (:data:`LEADS`) is cut in the key's order: each row in
    one partition, none holding more than ``partition_rows``, the copy whole."""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD {column}",
            f"UPDATE {table} SET lead = {value}",
            f"ALTER TABLE {table} DROP PRIMARY KEY, ADD PRIMARY KEY (lead, id)",
        )
    read = reads_of(monkeypatch)
    r = s.replicator(bulk="spark")
    r.partition_rows = 250
    r.run()
    assert sum(assert_replicated(s, r).values()) == len(SHARDS) * ROWS
    for table, counts in partition_rows(s, read).items():
        assert sum(counts) == ROWS and max(counts) <= r.partition_rows, (table, counts)
    columns = "lead, id"
    assert sorted(texts(s.servers.down, s.dw, "orders", columns)) == sorted(
        upstream_texts(s, columns)
    )


def handler_reads(server: MariaDB) -> int:
    """The rows a server's handler has read since it started (its ``Handler_read_*`` of the
    next, previous and random rows)."""
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS LIKE 'Handler_read%'")
        return sum(int(v) for k, v in cur.fetchall() if k.endswith(("_next", "_prev", "_rnd")))


def test_a_shard_of_a_composite_key_is_read_range_by_range(s: Setup) -> None:
    """A shard whose key is two columns (a text first) is cut into partitions the upstream
    reads as ranges of its key's index, its bounds each found from the one before: the
    servers' handlers read each row under four times in all (its count, the bounds, the
    partitions, and the first rows twice for a row's bytes: 3.6 times), not once a partition
    (a comparison of row constructors, which MariaDB reads by scanning the table) and half the
    shard a bound (19 times)."""
    for server, table, _ in SHARDS:
        s.run(server, f"ALTER TABLE {table} DROP PRIMARY KEY, ADD PRIMARY KEY (customer, id)")
    r = s.replicator(bulk="spark")
    r.partition_rows = 250  # 12 partitions a shard
    before = {server: handler_reads(s.servers.upstream(server)) for server in ("up1", "up2")}
    r.run()
    for server in ("up1", "up2"):
        held = ROWS * sum(1 for name, _, _ in SHARDS if name == server)
        read = handler_reads(s.servers.upstream(server)) - before[server]
        assert read < 4 * held, (server, read, held)
    assert row_key(r.group.joined) == ("customer", "id")
    assert sum(assert_replicated(s, r).values()) == len(SHARDS) * ROWS


def test_uuid_and_inet_columns_are_copied_in_bulk(s: Setup) -> None:
    """MariaDB's UUID, INET4 and INET6 values go through Spark's JDBC reads and writes as the
    text the server prints."""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD COLUMN u UUID NULL, ADD COLUMN ip INET6 NOT NULL "
            "DEFAULT '::ffff:10.0.0.1', ADD COLUMN v4 INET4 NULL",
            f"UPDATE {table} SET u = UUID(), v4 = '10.0.0.01' WHERE id % 3 = 0",
            f"UPDATE {table} SET ip = '1:0:0:0:1::', u = x'123e4567e89b82d30456426655440000' "
            "WHERE id % 7 = 0",
        )
    r = s.replicator(bulk="spark")
    r.run()
    assert_replicated(s, r)
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute("SELECT u, ip, v4 FROM orders WHERE id = 21")
        assert cur.fetchone() == ("55440000-4266-0456-82d3-123e4567e89b", "1::1:0:0:0", "10.0.0.1")


def test_a_bulk_copy_whose_servers_go_away_resumes_after_its_last_chunk(
    s: Setup, servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a server goes away (halted) and comes back 2 s later at three moments of the copy: up1 as
    # Spark is about to read a chunk (its schema query fails), up1 once a chunk's read is
    # planned (its tasks fail), and the downstream as a chunk is about to be written. Each time
    # Spark fails for real, the copy starts over from its checkpoints, waits for the server and
    # resumes with the chunk that was under way; the oracle is the upstream rows
    read, write = bulk.read, bulk.write
    calls = {"read": 0, "write": 0}
    back: list[threading.Thread] = []

    def come_back(server: Any) -> None:
        time.sleep(2)
        server.restart()

    def lose(server: Any) -> None:
        server.halt()
        back.append(threading.Thread(target=come_back, args=(server,)))
        back[-1].start()

    def read_losing(*args: Any, **kwargs: Any) -> Any:
        calls["read"] += 1
        if calls["read"] == 3:
            lose(servers.up1)
        return read(*args, **kwargs)

    def write_losing(*args: Any, **kwargs: Any) -> Any:
        calls["write"] += 1
        if calls["write"] in (4, 6):
            lose(servers.up1 if calls["write"] == 4 else servers.down)
        return write(*args, **kwargs)

    monkeypatch.setattr(bulk, "read", read_losing)
    monkeypatch.setattr(bulk, "write", write_losing)
    r = small(s, retry=60.0)
    try:
        r.run()
    finally:
        for thread in back:
            thread.join()
    assert len(back) == 3  # every loss happened
    assert assert_replicated(s, r) == {f"{src}/{s.db}.{t}": ROWS for src, t, _ in SHARDS}


#: the key column of the shards' tables, as a read names it
ID = Column(id=1, name="id", type=ColumnType.of("int"))


def test_a_lost_connection_is_told_from_a_refusal(s: Setup, spark: Any, tmp_path: Path) -> None:
    # what is retried is a connection that cannot be made; a table that does not exist is not
    from mvdd.binlog.source import source_address

    live = source_address(s.url("up1"))
    with pytest.raises(Exception) as refused:
        bulk.read(spark, live, (s.db, "no_such_table"), [ID], ["1 = 1"]).collect()
    assert bulk.connection_lost(refused.value) is None
    gone = source_address(f"mysql://root@localhost/?unix_socket={tmp_path / 'no.sock'}")
    with pytest.raises(Exception) as lost:
        bulk.read(spark, gone, (s.db, "orders_01"), [ID], ["1 = 1"]).collect()
    assert bulk.connection_lost(lost.value) is not None
    # nor is a row the server refuses (Connector/J raises some from a batch as a transient
    # connection failure): it would be refused again
    s.servers.down.execute("CREATE TABLE narrow (id INT PRIMARY KEY, v VARCHAR(2))", database=s.dw)
    wide = spark.createDataFrame([(1, "too long")], "id INT, v STRING")
    with pytest.raises(Exception) as cut:
        bulk.write(wide, parse_address(s.downstream_url()), "narrow")
    assert "Data too long" in str(cut.value) or "Data truncated" in str(cut.value)
    assert bulk.connection_lost(cut.value) is None


#: shard tables, key and columns named as no plain word is: quotes of each kind, a space, a
#: reserved word, letters outside ASCII
HOSTILE_SHARDS = (("up1", "orders_`1 é", 0), ("up2", 'orders_ 2"x', 1000))
HOSTILE = (
    "CREATE TABLE {t} (`i``d` BIGINT NOT NULL, `select` VARCHAR(32) NOT NULL, "
    "`ü ber` DECIMAL(10,2) NOT NULL DEFAULT 0.00, `a\"b` ENUM('new','pa''id') NOT NULL "
    "DEFAULT 'new', PRIMARY KEY (`i``d`))"
)


@pytest.mark.parametrize("copy", ["rows", "spark"])
def test_hostile_names_are_copied_and_followed(
    servers: Servers, tmp_path: Path, jdbc: list[str], spark: Any, copy: str
) -> None:
    """Tables, a key and columns whose names hold backticks, double quotes, spaces, a reserved
    word and letters outside ASCII: copied (row by row, and by Spark over JDBC) and followed
    through an ADD COLUMN named so too, every row and column equal to the upstream's."""
    with setup(servers, tmp_path) as s:
        for server, table, base in HOSTILE_SHARDS:
            s.run(server, HOSTILE.format(t=quote(table)))
            s.run(
                server,
                *(
                    f"INSERT INTO {quote(table)} VALUES ({base + i}, 'c{i}', {i}.5, 'pa''id')"
                    for i in range(50)
                ),
            )
        r = s.replicator(bulk=copy)
        r.run()
        assert sum(assert_replicated(s, r).values()) == 100
        for server, table, _ in HOSTILE_SHARDS:
            s.run(server, f"ALTER TABLE {quote(table)} ADD COLUMN `n``o te` VARCHAR(5) DEFAULT 'q'")
        (_, first, _), (_, second, _) = HOSTILE_SHARDS
        s.run(
            "up1", f"INSERT INTO {quote(first)} (`i``d`, `select`, `n``o te`) VALUES (77, 'z', 'w')"
        )
        s.run("up2", f"UPDATE {quote(second)} SET `ü ber` = `ü ber` + 1 WHERE `i``d` % 3 = 0")
        r.run()
        assert sum(assert_replicated(s, r).values()) == 101
        assert r.group.joined.find_column("n`o te") is not None


def rows_sent(server: MariaDB) -> int:
    """The rows a server has sent its clients since it started (its ``Rows_sent``)."""
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS LIKE 'Rows_sent'")
        return int(cur.fetchone()[1])


def run_reading_once(s: Setup, r: Any) -> None:
    """``r.run()``, each row of the shards crossing from its server once: the servers' own
    count of the rows they sent (a fifth more allowed, for the queries of bounds and tables)."""
    before = {server: rows_sent(s.servers.upstream(server)) for server in ("up1", "up2")}
    r.run()
    for server in ("up1", "up2"):
        held = ROWS * sum(1 for name, _, _ in SHARDS if name == server)
        sent = rows_sent(s.servers.upstream(server)) - before[server]
        assert held <= sent < 1.2 * held, (server, sent, held)


def test_an_enums_error_value_is_copied_in_bulk_as_it_is(s: Setup, spark: Any) -> None:
    """An ENUM's error value (its index 0, which a session outside strict mode stores for a
    value no member is), in a nullable ENUM and a NOT NULL one, copied by Spark over JDBC (the
    target's strict sessions refuse it: its rows are written apart, outside strict mode for
    that statement alone), then followed."""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD e ENUM('x','y') NULL, ADD f ENUM('p','q') NOT NULL",
            "SET SESSION sql_mode = ''",
            f"UPDATE {table} SET e = 'nope' WHERE id % 97 = 1",
            f"UPDATE {table} SET f = 'gone', e = 'x' WHERE id % 89 = 2",
        )
    r = s.replicator(bulk="spark")
    r.partition_rows = 1000
    # each row crossed from its server once: the rows holding an error value were found by
    # the server, in the query of each chunk, not by reading the chunk whole a second time
    run_reading_once(s, r)
    s.run("up1", "SET SESSION sql_mode = ''", "UPDATE orders_01 SET e = 'no', f = 'q' WHERE id < 5")
    r.run()
    assert_replicated(s, r)
    columns = "e, f, CAST(e AS UNSIGNED), CAST(f AS UNSIGNED)"
    target = texts(s.servers.down, s.dw, "orders", columns)
    assert target == upstream_texts(s, columns)
    assert sum(1 for row in target if row[3] == "0") > 3 * ROWS // 100


def test_a_chunk_crosses_once_for_the_lake_and_the_target(
    s: Setup, spark: Any, tmp_path: Path
) -> None:
    """A bulk copy into a target with a lake beside it reads each chunk once: the lake and the
    target take the rows of one read (each crossed from its server once, the servers' own
    count the oracle), the rows holding an ENUM's error value still written apart; the lake,
    compacted, holds the target's rows."""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD e ENUM('x','y') NULL",
            "SET SESSION sql_mode = ''",
            f"UPDATE {table} SET e = IF(id % 97 = 1, 'nope', 'y') WHERE id % 3 = 1",
        )
    lake = tmp_path / "lake"
    r = s.replicator(bulk="spark", lake=str(lake))
    r.partition_rows = 1000
    run_reading_once(s, r)
    assert_replicated(s, r)
    columns = "customer, amount, CAST(e AS UNSIGNED)"
    target = texts(s.servers.down, s.dw, "orders", columns)
    assert sorted(target) == sorted(upstream_texts(s, columns))
    assert sum(1 for row in target if row[3] == "0") > ROWS // 100
    compact_lake(spark, lake)
    held_rows = {(row["id"], row["customer"]) for row in read_lake(spark, lake).collect()}
    assert held_rows == {(int(row[0]), row[1]) for row in target}


def test_dates_no_python_date_holds_are_copied_in_bulk_as_they_are(
    s: Setup, spark: Any, tmp_path: Path
) -> None:
    """Zero dates, dates with a zero month or day, days their month lacks (which the server
    keeps outside NO_ZERO_DATE, NO_ZERO_IN_DATE, with ALLOW_INVALID_DATES), the year 0 and the
    zero timestamp, in NOT NULL columns and nullable ones, copied by Spark over JDBC and then
    followed: the target holds the very values (Connector/J reads the zero date as NULL and
    the others as other days, and Spark's dates hold none of them); the lake holds each as
    NULL, by either copy, and every other date as it is."""
    dates = (
        "ADD d DATE NOT NULL DEFAULT '0000-00-00', ADD dt DATETIME(3) NULL, "
        "ADD ts TIMESTAMP(2) NOT NULL DEFAULT '0000-00-00 00:00:00'"
    )
    odd = (
        "SET SESSION sql_mode = 'ALLOW_INVALID_DATES'",
        "UPDATE {t} SET d = '2020-00-15', dt = '2021-02-30 12:34:56.789', "
        "placed = '2020-00-00 01:02:03' WHERE id % 5 = 1",
        "UPDATE {t} SET d = '2024-02-29', dt = '0000-00-00 00:00:00', "
        "ts = '2020-01-01 00:00:00.5' WHERE id % 5 = 2",
        "UPDATE {t} SET dt = '2020-00-00 00:00:00.001', d = '2023-04-31' WHERE id % 5 = 3",
        "UPDATE {t} SET d = '0000-01-01' WHERE id % 50 = 4",
    )
    for server, table, _ in SHARDS:
        s.run(server, f"ALTER TABLE {table} {dates}", *(x.format(t=table) for x in odd))
    lake = tmp_path / "lake"
    r = s.replicator(bulk="spark", lake=str(lake))
    r.partition_rows = 1000
    r.run()
    for server, table, _ in SHARDS:  # followed from the binlog too
        s.run(server, *(x.format(t=table).replace("% 5", "% 7") for x in odd))
    r.run()
    assert_replicated(s, r)
    columns = "d, dt, ts, placed"
    down = texts(s.servers.down, s.dw, "orders", columns)
    up = upstream_texts(s, columns)
    assert sorted(down) == sorted(up)
    assert {row[1] for row in down} >= {"0000-00-00", "2020-00-15", "2023-04-31", "0000-01-01"}
    compact_lake(spark, lake)
    held = {
        row["id"]: (row["d"], row["dt"], row["ts"], row["placed"])
        for row in read_lake(spark, lake).collect()
    }

    def python_date(text: str | None, kind: type[dt.date]) -> Any:
        try:
            return None if text is None else kind.fromisoformat(text)
        except ValueError:
            return None

    kinds = (dt.date, dt.datetime, dt.datetime, dt.datetime)
    assert held == {
        row[0]: tuple(python_date(t, k) for t, k in zip(row[1:], kinds, strict=True)) for row in up
    }


#: a column of every kind of value a driver may read as another value, each filled with the
#: ends of its range (a TIME's sign and hours past 24, a BIT(64) of all ones, a DECIMAL of 65
#: digits, a FLOAT's largest, a binary string's zero bytes, an ENUM's empty member, text of
#: charsets Python's codecs of their names read otherwise …)
EVERY_TYPE = (
    "ADD t0 TIME NULL, ADD t6 TIME(6) NULL, ADD b1 BIT(1) NULL, ADD b64 BIT(64) NULL, "
    "ADD ub BIGINT UNSIGNED NULL, ADD d65 DECIMAL(65,30) NULL, ADD f FLOAT NULL, "
    "ADD g DOUBLE NULL, ADD e ENUM('', 'a', 'b') NULL, ADD st SET('b', 'a', 'c') NULL, "
    "ADD bn BINARY(4) NULL, ADD vb VARBINARY(10) NULL, ADD bl BLOB NULL, ADD js JSON NULL, "
    "ADD ch CHAR(5) NULL, ADD tx TEXT NULL, ADD l1 VARCHAR(10) CHARACTER SET latin1 NULL, "
    "ADD ti TINYINT(1) NULL, ADD mu MEDIUMINT UNSIGNED NULL, ADD d6 DATETIME(6) NULL, "
    "ADD ts TIMESTAMP NULL, ADD geo POINT NULL, ADD y4 YEAR NULL, ADD fz FLOAT(7,3) NULL, "
    "ADD dz DECIMAL(5,2) ZEROFILL NULL, ADD kr VARCHAR(4) CHARACTER SET euckr NULL, "
    "ADD el VARCHAR(4) CHARACTER SET greek NULL, ADD ms VARCHAR(4) CHARACTER SET eucjpms NULL"
)
EVERY_VALUE = (
    "UPDATE {t} SET t0 = '-838:59:59', t6 = '838:59:59.999999', b1 = b'1', "
    "b64 = 0xFFFFFFFFFFFFFFFF, ub = 18446744073709551615, "
    "d65 = '12345678901234567890123456789012345.123456789012345678901234567890', "
    "f = 3.40282e38, g = 1.7976931348623157e308, e = '', st = 'a,b', bn = x'01000000', "
    "vb = x'00ff00', bl = x'0000ff00', js = '{{\"a\": [1, 2.5, null]}}', ch = 'ab  ', "
    "tx = 'x😀y', l1 = 'é', ti = -128, mu = 16777215, d6 = '9999-12-31 23:59:59.999999', "
    "ts = '2038-01-19 03:14:07', geo = ST_GeomFromText('POINT(1 2)'), y4 = 2155, "
    "fz = 1234.5678, dz = 1.5, kr = X'8141B0A1', el = X'A1A2', ms = X'ADA1A1C1' "
    "WHERE id % {n} = 1",
    "UPDATE {t} SET t0 = '-00:00:01', t6 = '12:34:56.000001', b1 = b'0', b64 = 0, ub = 0, "
    "d65 = '-0.000000000000000000000000000001', f = -1.17549e-38, g = -0.0, e = 'b', st = '', "
    "bn = x'00', vb = x'', bl = x'', js = '[]', ch = '', tx = '', l1 = '', ti = 2, mu = 0, "
    "d6 = '1000-01-01 00:00:00.000001', ts = '1970-01-01 00:00:01', y4 = 1901, fz = -0.001, "
    "dz = 0 WHERE id % {n} = 2",
)


def test_every_type_is_copied_alike_by_spark_and_row_by_row(
    s: Setup, spark: Any, tmp_path: Path
) -> None:
    """Columns of every kind of value a driver may read as another, at the ends of their
    ranges, copied by Spark over JDBC and row by row with PyMySQL into two targets and two
    lakes, then followed: each target holds the upstream's values, and the two lakes hold the
    same rows. (Connector/J made a TIME a ``java.sql.Time``, losing its sign, its hours past 24
    and its microseconds, cut a DECIMAL of 65 digits to 38, and gave a BIT(64) as bytes Spark
    could not cast; PyMySQL's bytes of a BIT stopped the lake's writer.)"""
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} {EVERY_TYPE}",
            *(u.format(t=table, n=4) for u in EVERY_VALUE),
        )
    runs = []
    for copy in ("rows", "spark"):
        each = attrs.evolve(s, target=f"orders_{copy}", state=str(tmp_path / copy))
        r = each.replicator(bulk=copy, lake=str(tmp_path / f"lake_{copy}"))
        r.partition_rows = 1000
        r.run()
        runs.append((each, r))
    for server, table, _ in SHARDS:  # then followed
        s.run(server, *(u.format(t=table, n=9) for u in EVERY_VALUE))
    lakes = []
    for each, r in runs:
        r.run()
        assert assert_replicated(each, r) == {f"{src}/{s.db}.{t}": ROWS for src, t, _ in SHARDS}
        lake = tmp_path / f"lake_{each.target.removeprefix('orders_')}"
        compact_lake(spark, lake)
        lakes.append({tuple(row) for row in read_lake(spark, lake).collect()})
    assert len(lakes[0]) == 3 * ROWS
    assert lakes[0] == lakes[1]


def test_a_shard_copied_again_while_a_rename_is_under_way_fills_both_columns(
    s: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shard copied again (a DDL landed during its copy) while another shard's rename is
    under way writes its `customer` to the old column added back and to the renamed one, as
    its followed rows do (`ShardGroup.also`): the copy once filled the renamed column with
    the join's empty value for its rows, and verify, which compares them with it, found them
    all different. (The renaming shard, not copied yet, is copied after following passed its
    rename: see the next test.)"""

    def ddl() -> None:  # during orders_01's copy: its DDL, and a rename on orders_03
        s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(20) NULL")
        s.run("up2", "ALTER TABLE orders_03 RENAME COLUMN customer TO client")

    writes = on_write(monkeypatch, 2, ddl)
    r = small(s)
    status = r.run()
    assert "mvdd_stage_orders" in writes  # orders_01 was copied again, upserted
    assert not any(v["paused"] for v in status["shards"].values())
    assert r.group.joined.find_column("client") is not None
    assert r.group.joined.find_column("customer") is not None  # the rename is under way
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == ROWS


def test_a_shard_whose_table_changed_before_its_copy_is_copied_after_the_ddl(
    s: Setup, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The bulk copy reads the live tables with the snapshot's columns: a shard that drops a
    column after the snapshot and before its copy, or whose table is dropped under its copy,
    failed the copy's query (`Unknown column`, no such table) and stopped the replicator for
    good (its next start resumed the same copy). Such a shard is copied once following has
    passed its DDL, as one a DDL changed during its copy is; a table dropped leaves the
    group, its rows copied so far kept (as a shard that leaves keeps its rows)."""

    def ddl() -> None:  # during orders_01's copy
        s.run("up1", "DROP TABLE orders_01", "ALTER TABLE orders_02 DROP COLUMN placed")
        s.run("up2", "ALTER TABLE orders_03 DROP COLUMN made")

    on_write(monkeypatch, 1, ddl)
    r = small(s)
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        status = r.run()
    moved = sorted(m for m in caplog.messages if "changed under its copy" in m)
    assert [m.split(": ")[0].rpartition(".")[2] for m in moved] == [
        "orders_01",
        "orders_02",
        "orders_03",
    ]
    assert "(the table is gone)" in moved[0] and "(no column `made` any more)" in moved[2]
    assert set(status["shards"]) == {f"up1/{s.db}.orders_02", f"up2/{s.db}.orders_03"}
    assert r.group.joined.find_column("placed") is not None  # orders_01 had it: kept
    assert assert_replicated(s, r) == {
        f"up1/{s.db}.orders_02": ROWS,
        f"up2/{s.db}.orders_03": ROWS,
    }


def test_a_generated_column_whose_target_column_is_plain_is_copied(s: Setup) -> None:
    """orders_03's `k` is generated (`id % 7`), orders_01's a plain column: the target's `k`
    is plain, and the copy reads orders_03's computed values (it once left every generated
    column to the server: the target held NULL for them)."""
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN k INT NULL DEFAULT 40")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN k INT AS (id % 7) VIRTUAL")
    r = small(s)
    r.run()
    counts = assert_replicated(s, r)
    assert counts[f"up2/{s.db}.orders_03"] == ROWS
