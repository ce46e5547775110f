"""The lake output of ``mvdd replicate --lake``: change batches appended as Parquet, compacted
by Spark into snapshots published atomically; after random kills of ``replicate`` and
``compact`` the snapshot ``read_lake`` gives equals the MariaDB target row for row. Without a
downstream the lake is the only output, and it equals the upstream rows."""

from __future__ import annotations

import datetime as dt
import json
import random
import signal
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from mvdd.replicate import Replicator
from mvdd.replicate.lake import compact_lake
from mvdd.spark import read_lake
from tests.conftest import CI
from tests.support.mariadb import MariaDB
from tests.support.replication import Servers, Setup, applied, gtid_binlog_pos, setup

pytestmark = [pytest.mark.mariadb, pytest.mark.spark]

ROOT = Path(__file__).resolve().parent.parent
CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL DEFAULT 0.00, placed DATETIME(3) NULL, flag TINYINT NOT NULL DEFAULT 0, "
    "state CHAR(7) NOT NULL DEFAULT 'new', PRIMARY KEY (id))"
)
SHARDS = [
    ("up1", "orders_01", 0),
    ("up1", "orders_02", 10_000_000),
    ("up2", "orders_03", 20_000_000),
]
KILLS = 8 if CI else 4


@pytest.fixture
def s(servers: Servers, tmp_path: Path, spark: Any) -> Any:
    with setup(servers, tmp_path) as found:
        for server, table, base in SHARDS:
            found.run(server, CREATE.format(t=table))
            found.run(
                server,
                f"INSERT INTO {table} (id, customer, amount, placed) VALUES "
                + ", ".join(
                    f"({base + i}, 'c{i}', {i}.25, '2026-11-24 10:00:0{i % 10}.5')"
                    for i in range(300)
                ),
            )
        yield found


def norm(value: Any) -> Any:
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    if isinstance(value, Decimal):
        return value.normalize()
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    return value


def lake_rows(spark: Any, lake: Path) -> tuple[list[str], set[tuple[Any, ...]]]:
    df = read_lake(spark, lake)
    return df.columns, {tuple(norm(v) for v in r) for r in df.collect()}


def table_rows(
    server: MariaDB, database: str, table: str, columns: list[str]
) -> set[tuple[Any, ...]]:
    with server.connect(database) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT {', '.join('`' + c + '`' for c in columns)} FROM {table}")
        return {tuple(norm(v) for v in r) for r in cur.fetchall()}


def target_rows(s: Setup, columns: list[str]) -> set[tuple[Any, ...]]:
    return table_rows(s.servers.down, s.dw, "orders", columns)


def upstream_rows(s: Setup, server: str, table: str, columns: list[str]) -> set[tuple[Any, ...]]:
    return table_rows(s.servers.upstream(server), s.db, table, columns)


def lake_only(s: Setup, lake: Path, **options: Any) -> Replicator:
    """A replicator of the shards into ``lake`` alone (no downstream server)."""
    return Replicator(
        {"up1": s.url("up1"), "up2": s.url("up2")},
        tables=f"{s.db}.orders_*",
        target="orders",
        downstream=None,
        state=s.state,
        lake=str(lake),
        **options,
    )


def change(s: Setup, rng: random.Random, n: int) -> None:
    server, table, base = SHARDS[n % 3]
    i = rng.randrange(300)
    s.run(
        server,
        f"UPDATE {table} SET amount = amount + 1, flag = flag + 1 WHERE id = {base + i}",
        f"DELETE FROM {table} WHERE id = {base + (i * 7 + n) % 300}",
        f"INSERT INTO {table} (id, customer) VALUES ({base + 1000 + n}, 'n{n}')",
    )
    if n % 5 == 0:  # a key moves
        s.run(server, f"UPDATE {table} SET id = {base + 50_000 + n} WHERE id = {base + 1000 + n}")


def test_the_lake_equals_the_target_through_schema_changes(
    s: Setup, tmp_path: Path, spark: Any, jdbc: list[str]
) -> None:
    # the first copy is Spark's: CHAR values come unpadded as from the binlog and the server
    lake = tmp_path / "lake"
    r = s.replicator(lake=str(lake), bulk="spark")
    r.partition_rows = 100
    r.run()
    compact_lake(spark, lake)
    _, first = lake_rows(spark, lake)
    assert len(first) == 900 and {row[-1] for row in first} == {"new"}
    rng = random.Random(1)
    for n in range(20):
        change(s, rng, n)
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(20) NULL DEFAULT 'x'")
    s.run("up2", "ALTER TABLE orders_03 MODIFY customer VARCHAR(64) NOT NULL")
    for n in range(20, 40):
        change(s, rng, n)
    every = [("up1", "orders_01"), ("up1", "orders_02"), ("up2", "orders_03")]
    for server, table in every:  # a rename round every shard (done by the end)
        s.run(server, f"ALTER TABLE {table} RENAME COLUMN amount TO total")
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN note VARCHAR(20) NULL DEFAULT 'x'")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN note VARCHAR(20) NULL DEFAULT 'x'")
    s.run("up1", "UPDATE orders_01 SET total = 7 WHERE id < 5")
    r = s.replicator(lake=str(lake))
    r.run()
    done = compact_lake(spark, lake)
    assert done["published"]
    columns, rows = lake_rows(spark, lake)
    assert columns == [c.name for c in r.group.joined.public_columns]
    assert "total" in columns and "amount" not in columns
    assert rows == target_rows(s, columns) and len(rows) > 800
    # nothing new: a compaction publishes nothing, the snapshot stays
    assert not compact_lake(spark, lake)["published"]


def test_the_lake_equals_the_target_after_random_kills(
    s: Setup, tmp_path: Path, spark: Any
) -> None:
    lake = tmp_path / "lake"
    args = [*s.cli_args(), "--lake", str(lake), "--until", "forever", "--no-live"]
    rng = random.Random(KILLS)
    n = 0
    kills = {"replicate": 0, "compact": 0}
    for round_ in range(KILLS):
        rep = subprocess.Popen(
            [sys.executable, "-m", "mvdd.cli", *args],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        comp = None
        if round_ % 2 == 1:
            comp = subprocess.Popen(
                [sys.executable, "-m", "mvdd.cli", "compact", "--lake", str(lake)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + rng.uniform(1.0, 5.0)
        while time.monotonic() < deadline:
            change(s, rng, n)
            n += 1
            if n == 30:
                s.run("up2", "ALTER TABLE orders_03 ADD COLUMN note VARCHAR(20) NULL")
            time.sleep(0.02)
        for proc, what in ((rep, "replicate"), (comp, "compact")):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills[what] += 1
            if proc is not None:
                proc.wait()
        assert rep.returncode == -signal.SIGKILL, rep.stderr.read() if rep.stderr else ""
    r = s.replicator(lake=str(lake))
    r.run()
    compact_lake(spark, lake)
    columns, rows = lake_rows(spark, lake)
    print(f"\nkills: {kills}; {n} upstream changes; {len(rows)} rows")
    assert kills["replicate"] == KILLS and kills["compact"] >= 1
    assert rows == target_rows(s, columns)
    current = json.loads((lake / "CURRENT").read_text())
    assert set(current["checkpoint"]) == {"up1", "up2"}


@pytest.mark.parametrize("copy", ["rows", "spark"])
def test_a_lake_without_a_downstream_holds_the_upstream_rows(
    s: Setup, tmp_path: Path, spark: Any, request: pytest.FixtureRequest, copy: str
) -> None:
    if copy == "spark":
        request.getfixturevalue("jdbc")
    lake = tmp_path / "lake"
    r = lake_only(s, lake, bulk=copy)
    r.partition_rows = 100
    r.run()
    rng = random.Random(3)
    for n in range(30):
        change(s, rng, n)
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN note VARCHAR(20) NULL DEFAULT 'y'")
    change(s, rng, 31)
    assert applied(r.run()) == gtid_binlog_pos(s)
    # a kill between a batch and its checkpoint: the kept checkpoint older than the lake's
    # batches, its GTID position with it; the batch's position wins, the GTID read there
    kept = json.loads((lake / "checkpoint.json").read_text())
    kept["source:up1"]["data"]["gtid"] = "0-1-1"
    kept["source:up1"]["position"] = None  # (older than any batch)
    (lake / "checkpoint.json").write_text(json.dumps(kept))
    assert applied(r.run()) == gtid_binlog_pos(s)
    compact_lake(spark, lake)
    df = read_lake(spark, lake)
    got = {(row["id"], norm(row["amount"]), row["flag"]) for row in df.collect()}
    want: set[tuple[Any, ...]] = set()
    for server, table, _ in SHARDS:
        want |= upstream_rows(s, server, table, ["id", "amount", "flag"])
    assert got == want and len(got) > 850


@pytest.mark.parametrize("downstream", [True, False], ids=["target", "lake-only"])
@pytest.mark.parametrize("how", ["VIRTUAL", "PERSISTENT"])
def test_a_generated_columns_values_reach_the_lake_where_the_target_column_is_plain(
    s: Setup, tmp_path: Path, spark: Any, jdbc: list[str], how: str, downstream: bool
) -> None:
    """orders_03's `k` is generated (`id % 7`), orders_01's a plain column: the joined `k` is
    plain and holds the values orders_03's server computed (copied, followed, read again).
    The lake left them NULL; it holds them as the target does (or, with no target, as the
    upstream), whether they came by Spark's copy, by the binlog or by a read again after
    orders_02 added its own generated `k`."""
    lake = tmp_path / "lake"
    s.run("up2", f"ALTER TABLE orders_03 ADD COLUMN k INT AS (id % 7) {how}")
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN k INT NULL")

    def replicator(**options: Any) -> Replicator:
        if downstream:
            return s.replicator(lake=str(lake), **options)
        return lake_only(s, lake, **options)

    r = replicator(bulk="spark")
    r.partition_rows = 100
    r.run()
    s.run("up2", "INSERT INTO orders_03 (id, customer) VALUES (20000500, 'n1'), (20000501, 'n2')")
    s.run("up1", "UPDATE orders_01 SET k = 3 WHERE id < 10")
    s.run("up1", f"ALTER TABLE orders_02 ADD COLUMN k INT AS (id % 7) {how}")
    s.run("up1", "INSERT INTO orders_02 (id, customer) VALUES (10000500, 'n3')")
    status = replicator().run()
    assert not any(v["paused"] for v in status["shards"].values()), [
        v.get("reason") for v in status["shards"].values()
    ]
    compact_lake(spark, lake)
    columns, rows = lake_rows(spark, lake)
    assert "k" in columns and len(rows) == 903
    if downstream:
        assert rows == target_rows(s, columns)
    at = columns.index("k")
    got = {(row[0], row[at]) for row in rows}
    want: set[tuple[Any, ...]] = set()
    for server, table, _ in SHARDS:
        want |= upstream_rows(s, server, table, ["id", "k"])
    assert got == want
    assert all(k == i % 7 for i, k in got if i >= 10_000_000)


def test_the_lake_equals_the_target_through_a_pause(s: Setup, tmp_path: Path, spark: Any) -> None:
    # a shard pauses on a conflict: its rows are held, then released under its newer schema
    lake = tmp_path / "lake"
    r = s.replicator(lake=str(lake))
    r.run()
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'web'")
    s.run("up1", "INSERT INTO orders_02 (id, customer, channel) VALUES (10000500, 'a', 'shop')")
    s.run(
        "up1",  # one binlog: orders_02 is the one that pauses
        "ALTER TABLE orders_01 ADD COLUMN discount INT NOT NULL DEFAULT 0",
        "ALTER TABLE orders_02 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00",
    )
    s.run(
        "up1",
        "INSERT INTO orders_02 (id, customer, channel, discount) VALUES (10000501, 'b', 'app', 1.5)",
        "UPDATE orders_02 SET amount = 9, channel = 'tel' WHERE id = 10000001",
    )
    r.run()
    assert r.group.paused == {f"up1/{s.db}.orders_02"}
    s.run("up1", "INSERT INTO orders_01 (id, customer, discount) VALUES (500, 'c', 3)")
    s.run("up1", "ALTER TABLE orders_01 DROP COLUMN discount")
    s.run("up1", "UPDATE orders_02 SET channel = 'fax' WHERE id = 10000002")
    # one name, two columns of two types in one compaction (orders_01's INT, then DECIMAL)
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    s.run("up1", "INSERT INTO orders_01 (id, customer, discount) VALUES (501, 'd', 2.5)")
    r = s.replicator(lake=str(lake))
    r.run()
    compact_lake(spark, lake)
    columns, rows = lake_rows(spark, lake)
    assert "channel" in columns and "discount" in columns
    want = target_rows(s, columns)
    assert (rows - want, want - rows) == (set(), set())


def test_a_changed_type_converts_the_lakes_values_as_the_target(
    s: Setup, tmp_path: Path, spark: Any
) -> None:
    """Each shard changes columns' types the server converts loosely (a number made a date and
    time, a time made a number, a double made text, a decimal made an integer): the target's
    ALTER converts its rows, and the lake's compaction the snapshot's and the batches' written
    under the old types alike (where Spark's cast refused the first two, stopping the
    replicator at its compaction, and cut or wrote the others otherwise)."""
    lake = tmp_path / "lake"
    values = [
        "20200101, '12:34:56', 1e20, 2.5",
        "19991231, '-01:02:03.5', 0.1, -2.5",
        "NULL, NULL, NULL, NULL",
    ]
    for server, table, base in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} ADD COLUMN code INT NULL, ADD COLUMN took TIME(2) NULL, "
            "ADD COLUMN ratio DOUBLE NULL, ADD COLUMN price DECIMAL(8,3) NULL",
            f"UPDATE {table} SET code = 20261224, took = '00:00:00', ratio = 1.5, price = 1.5 "
            f"WHERE id < {base + 100}",
        )
    r = s.replicator(lake=str(lake))
    r.run()
    compact_lake(spark, lake)  # (the snapshot holds the old types)
    for server, table, base in SHARDS:
        s.run(
            server,
            f"INSERT INTO {table} (id, customer, code, took, ratio, price) VALUES "
            + ", ".join(f"({base + 900 + i}, 'v{i}', {v})" for i, v in enumerate(values)),
        )
    r.run()  # (the batches hold rows of the old types)
    for server, table, _ in SHARDS:
        s.run(
            server,
            f"ALTER TABLE {table} MODIFY code DATETIME NULL, MODIFY took INT NULL, "
            "MODIFY ratio VARCHAR(30) NULL, MODIFY price INT NULL",
        )
    r = s.replicator(lake=str(lake))
    r.run()
    assert not r.group.paused
    compact_lake(spark, lake)
    columns, rows = lake_rows(spark, lake)
    want = target_rows(s, columns)
    assert (rows - want, want - rows) == (set(), set())
    got = {row[columns.index("id")]: row for row in rows}
    converted = got[900]
    assert [converted[columns.index(c)] for c in ("code", "took", "ratio", "price")] == [
        dt.datetime(2020, 1, 1),
        123456,
        "1e20",
        3,
    ]


def test_the_lake_keeps_the_rows_of_a_shard_that_left_and_came_back(
    s: Setup, tmp_path: Path, spark: Any
) -> None:
    # orders_02 writes rows, is dropped, and a table of that name (other columns, in another
    # order) joins: one run, so the lake holds batches of both tables at once
    lake = tmp_path / "lake"
    r = s.replicator(lake=str(lake))
    r.run()
    s.run(
        "up1",
        "INSERT INTO orders_02 (id, customer, amount) VALUES (10000700, 'gone', 7.5)",
        "UPDATE orders_02 SET amount = 5, customer = 'kept' WHERE id = 10000003",
        "DROP TABLE orders_02",
        "CREATE TABLE orders_02 (id BIGINT NOT NULL, amount DECIMAL(10,2) NOT NULL DEFAULT 0.00, "
        "buyer VARCHAR(32) NULL, placed DATETIME(3) NULL, flag TINYINT NOT NULL DEFAULT 0, "
        "state CHAR(7) NOT NULL DEFAULT 'new', PRIMARY KEY (id))",
        "INSERT INTO orders_02 (id, buyer, amount) VALUES (10000900, 'back', 9.25)",
    )
    s.run("up2", "UPDATE orders_03 SET flag = 3 WHERE id = 20000004")
    r.run()
    assert f"up1/{s.db}.orders_02" in r.group.shards
    compact_lake(spark, lake)
    columns, rows = lake_rows(spark, lake)
    want = target_rows(s, columns)
    assert (rows - want, want - rows) == (set(), set())
    by_id = {row[0]: row for row in rows}
    assert by_id[10000700][1:3] == ("gone", Decimal("7.5"))
    assert by_id[10000003][1:3] == ("kept", Decimal("5"))
    assert by_id[10000900][2] == Decimal("9.25") and by_id[10000900][columns.index("buyer")] == (
        "back"
    )


@pytest.mark.parametrize(
    ("downstream", "unnamed"),
    [(True, False), (False, True)],
    ids=["with-target", "lake-only-older-batches"],
)
def test_a_truncate_of_the_only_shard_empties_the_target_and_the_lake(
    s: Setup, tmp_path: Path, spark: Any, downstream: bool, unnamed: bool
) -> None:
    # one shard: the target holds its rows alone, so its TRUNCATE is the target's (and the
    # lake's: the snapshot compacted before it and the changes before it in the same
    # compaction go); the upstream table is the oracle. Each batch names its last truncate;
    # ``unnamed``: none does, as an older writer wrote them (the compaction finds them in the
    # rows: the lake-only run takes that path, the other the names)
    lake = tmp_path / "lake"

    def compact() -> None:
        for info in (lake / "changes").glob("*/_batch.json"):
            held = json.loads(info.read_text())
            assert "truncate" in held
            if unnamed:
                del held["truncate"]
                info.write_text(json.dumps(held))
        compact_lake(spark, lake)

    def replicator() -> Replicator:
        return Replicator(
            {"up1": s.url("up1")},
            tables=f"{s.db}.orders_01",
            target="orders",
            downstream=s.downstream_url() if downstream else None,
            state=s.state,
            lake=str(lake),
        )

    def target(columns: list[str]) -> set[tuple[Any, ...]]:
        return (
            target_rows(s, columns) if downstream else upstream_rows(s, "up1", "orders_01", columns)
        )

    replicator().run()
    compact()
    assert len(lake_rows(spark, lake)[1]) == 300
    s.run(
        "up1",
        "UPDATE orders_01 SET amount = 1 WHERE id < 10",
        "INSERT INTO orders_01 (id, customer) VALUES (5000, 'before')",
        "TRUNCATE TABLE orders_01",
        "INSERT INTO orders_01 (id, customer) VALUES (7, 'after'), (6000, 'after')",
        "UPDATE orders_01 SET flag = 2 WHERE id = 7",
    )
    replicator().run()
    compact()
    columns, rows = lake_rows(spark, lake)
    want = upstream_rows(s, "up1", "orders_01", columns)
    assert len(want) == 2 and rows == want == target(columns)
    # a truncate read again (the run after it) empties nothing more
    s.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (6001, 'later')")
    replicator().run()
    compact()
    columns, rows = lake_rows(spark, lake)
    assert len(rows) == 3 and rows == upstream_rows(s, "up1", "orders_01", columns)


def test_a_truncate_of_one_shard_among_several_keeps_the_target_rows(
    s: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    r = s.replicator()
    r.run()
    s.run("up2", "TRUNCATE TABLE orders_03")
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        r = s.replicator()
        r.run()
    assert any("orders_03 emptied its table" in m for m in caplog.messages), caplog.messages
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM orders WHERE id >= 20000000")
        assert cur.fetchone() == (300,)


def test_a_folder_of_something_else_is_never_made_a_lake(tmp_path: Path) -> None:
    """A lake removes the batches and snapshots it no longer needs, so a folder holding
    anything but a lake's own files is refused before the replicator writes anything, and
    by the lake's writer itself; a folder a killed first run left (its temporary files
    included) is one."""
    from mvdd.spark.lake import LakeError, LakeWriter

    mine = tmp_path / "mine"
    (mine / "snapshots").mkdir(parents=True)
    (mine / "snapshots" / "0").write_text("mine")
    (mine / "notes.txt").write_text("mine")
    before = sorted((p.relative_to(tmp_path), p.is_file()) for p in tmp_path.rglob("*"))

    def replicator(lake: Path) -> Replicator:
        return Replicator(
            {"up1": "mysql://root@localhost/x?unix_socket=/nowhere"},
            tables="x.orders_*",
            target="orders",
            downstream=None,
            state=tmp_path / "state",
            lake=str(lake),
        )

    with pytest.raises(LakeError, match=r"'.*mine' is not a lake .*\('notes\.txt'\)"):
        replicator(mine)
    with pytest.raises(LakeError, match=r"notes\.txt"):
        LakeWriter(mine, target="orders", key=["id"], state=tmp_path / "state")
    assert sorted((p.relative_to(tmp_path), p.is_file()) for p in tmp_path.rglob("*")) == before
    begun = tmp_path / "begun"
    (begun / "changes").mkdir(parents=True)
    (begun / f".checkpoint.json.{'0' * 32}").write_text("{}")
    (begun / "checkpoint.json").write_text("{}")
    replicator(begun)
    LakeWriter(begun, target="orders", key=["id"], state=tmp_path / "state")
    assert (begun / "lake.json").exists()


#: held values and the types their column went through, as the binlog decodes them
CHAINS = [
    (["DOUBLE", "DATETIME", "VARCHAR(32)"], [611.25, -284.25, 20211231.5]),
    (["INT", "TINYINT", "BIGINT"], [300, -7, None]),
    (["VARCHAR(20)", "ENUM('x','y')", "VARCHAR(20)"], ["x", "zz", ""]),
    (["DECIMAL(10,3)", "INT UNSIGNED", "VARBINARY(8)"], [Decimal("2.5"), Decimal("-4.5"), None]),
    (["DATETIME(3)", "DATE", "YEAR"], [dt.datetime(2021, 5, 6, 7, 8, 9, 500000), None, None]),
    (["DATETIME", "VARCHAR(30)", "INT"], ["0000-00-00 00:00:00", None, "2021-05-06 07:08:09"]),
    (["VARCHAR(30)", "TIME(2)", "DECIMAL(12,3)"], ["12:34:56.789", "-1:2:3.5", "2021-05-06 07:08"]),
]


@pytest.mark.parametrize(("types", "values"), CHAINS, ids=[" ".join(t) for t, _ in CHAINS])
def test_a_lake_converts_held_values_as_a_server_does(
    s: Setup, spark: Any, types: list[str], values: list[Any]
) -> None:
    """A held value that later changes of its column's type did not take: a replication with
    a downstream server has the server convert it (:meth:`Target.converted`, a temporary
    table altered through the types); a lake-only one converts it with the lake's rules in
    Spark (:func:`lake_converted`), and gets what the server gets, as the lake keeps it (it
    refused, and stopped the replication for good)."""
    from mvdd import parse_table
    from mvdd.replicate.target import Target
    from mvdd.spark.lake import lake_converted, lake_value

    ctypes = [parse_table(f"CREATE TABLE t (c {t})").column("c").type for t in types]
    last = parse_table(f"CREATE TABLE t (c {types[-1]})").column("c")
    server = Target(s.downstream_url(), "orders")
    try:
        want = server.converted(ctypes, values)
    finally:
        server.close()
    got = lake_converted(spark, ctypes, values)
    assert [lake_value(v, last) for v in got] == [lake_value(v, last) for v in want]


def test_a_lake_only_replication_takes_held_values_a_later_type_did_not(
    s: Setup, tmp_path: Path, spark: Any
) -> None:
    """A paused shard's column changes type twice more before it resumes, in a session
    outside strict mode (DOUBLE, then DATETIME, then VARCHAR again): its held rows, decoded as
    DOUBLEs, are converted by the lake's rules, and the lake holds the upstream's rows (a
    lake-only replication stopped there for good: it had no server to convert them)."""
    lake = tmp_path / "lake"
    r = lake_only(s, lake)
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer DOUBLE NOT NULL")
    s.run(
        "up2",
        "INSERT INTO orders_03 (id, customer) "
        "VALUES (20000901, 611.25), (20000902, -284.25), (20000903, 20211231.5)",
    )
    assert r.run()["shards"][f"up2/{s.db}.orders_03"]["held"] == 3
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer DATETIME NOT NULL")
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer VARCHAR(32) NOT NULL")
    assert not any(v["paused"] for v in r.run()["shards"].values())
    compact_lake(spark, lake)
    got = {(row["id"], row["customer"]) for row in read_lake(spark, lake).collect()}
    want: set[tuple[Any, ...]] = set()
    for server, table, _ in SHARDS:
        want |= upstream_rows(s, server, table, ["id", "customer"])
    assert got == want and (20000901, "0000-00-00 00:00:00") in got
