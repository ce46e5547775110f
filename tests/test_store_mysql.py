"""The catalog on a MySQL-compatible server (the test MariaDB): addresses and credentials,
several writer processes on shared tables, a writer killed mid-statement, the server killed and
restarted under load. (The state machine runs on this store in test_catalog_machine.py, the
online schema change with killed owners in test_online_procs.py.)"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymysql
import pytest

from mvdd import Catalog, CatalogError, ConcurrentChangeError, DDLError, StoreError
from mvdd.ddl import parse_statements
from mvdd.store import address as addresses
from mvdd.store.mysql import MySQLStore, parse_address
from tests.conftest import CI
from tests.support import store_child
from tests.support.forked import Child
from tests.support.formats import (
    FORMAT_2_MYSQL_ELEMENTS,
    assert_same_changes,
    format_2_rows,
    format_2_sqlite,
)
from tests.support.mariadb import MariaDB
from tests.support.store_child import TABLES

pytestmark = pytest.mark.mariadb

STATEMENTS = 40 if CI else 20
KILL_ROUNDS = 12 if CI else 5


@pytest.fixture
def address(mariadb: MariaDB) -> Iterator[str]:
    with mariadb.database() as db:
        yield f"mysql://root@localhost/{db}?unix_socket={mariadb.socket}"


def shared_tables(address: str) -> None:
    with Catalog.open(address) as cat:
        for t in TABLES:
            cat.execute(f"CREATE TABLE {t} (id INT PRIMARY KEY, a INT)")


def spawn(address: str, worker: str, log: Path, *mode: str) -> Child:
    """A writer process (:mod:`tests.support.store_child`), its standard error beside its log."""
    argv = [address, worker, str(log), *mode]
    return Child(store_child.main, argv, errors=log.with_suffix(".err"))


def finish(procs: list[Child], logs: list[Path]) -> None:
    """Wait until every writer has finished, let them read their final histories, reap them."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not all(
        any("finished" in r for r in records(log)) for log in logs
    ):
        time.sleep(0.05)
    for log in logs:
        Path(str(log) + ".go").touch()
    for p in procs:
        assert p.wait(timeout=120) == 0, p.errors()


def records(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # a line cut by SIGKILL
            out.append(json.loads(line))
    return out


def consistent(
    address: str, logs: list[Path], also: frozenset[str] = frozenset()
) -> dict[str, list[list[Any]]]:
    """What must hold whatever happened: per table, versions 1..n each once; every statement a
    writer saw committed is there at its version; nothing is there that no writer asked for;
    every version rebuilds, equal to replaying the statements in order on a fresh catalog."""
    with Catalog.open(address) as cat:
        histories: dict[str, list[list[Any]]] = {
            t: [[c.version, c.statement] for c in cat.history(t)] for t in cat.tables()
        }
        replay = Catalog()
        for t in sorted(TABLES):
            replay.execute(cat.history(t)[0].statement)
        for t, history in histories.items():
            assert [v for v, _ in history] == list(range(1, len(history) + 1)), t
            for version, sql in history[1:]:
                (change,) = replay.execute(sql)
                assert change.version == version
                assert cat.table(t, version=version) == replay.table(t, version=version)
    asked = set(also)
    for log in logs:
        for r in records(log):
            if "intent" in r:
                asked.add(r["intent"])
            if "done" in r:
                assert [r["version"], r["done"]] in histories[r["table"]], r
    stored = {sql for h in histories.values() for _, sql in h[1:]}
    assert stored <= asked, stored - asked
    return histories


# -- addresses, credentials ----------------------------------------------------------------------


def test_address_forms() -> None:
    options, prefix, text = parse_address("mysql://u:s3cret@db.example:3307/cat?connect_timeout=2")
    assert options["host"] == "db.example" and options["port"] == 3307
    assert options["password"] == "s3cret" and options["connect_timeout"] == 2.0
    assert prefix == "mvdd_" and "s3cret" not in text
    options, _, text = parse_address("mariadb://u@localhost/cat?unix_socket=/run/m.sock&prefix=x_")
    assert options["unix_socket"] == "/run/m.sock" and "unix socket" in text
    for bad, match in [
        ("mysql://u@h", "one database"),
        ("mysql://u@h/a/b", "one database"),
        ("mysql://u@h/db?colour=red", "unknown options"),
        ("mysql://u@h/db?prefix=a;b", "prefix"),
        ("mysql://u@h/db?connect_timeout=soon", "malformed"),
        ("postgres://u@h/db", "mysql://"),
    ]:
        with pytest.raises(StoreError, match=match):
            parse_address(bad)
    with pytest.raises(CatalogError, match="unsupported"):
        Catalog.open("postgres://u@h/db")
    with pytest.raises(CatalogError, match="SQLite"):
        Catalog.open("mysql://u@h/db", synchronous="full")


def test_a_socket_connection_goes_without_tls(mariadb: MariaDB) -> None:
    """Over a unix socket the connection offers no TLS, so PyMySQL builds no TLS context for
    it (loading the system's certificates, per connection); over TCP PyMySQL's own default
    holds."""
    local = addresses.parse_address(f"mysql://root@localhost/?unix_socket={mariadb.socket}")
    with contextlib.closing(pymysql.connect(**local.connect_options())) as conn:
        assert conn.ssl is False and not hasattr(conn, "ctx")
        with conn.cursor() as cur:
            cur.execute("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
            assert cur.fetchone() == ("Ssl_cipher", "")
    remote = addresses.parse_address("mysql://app@db.example:3307/shop")
    assert "ssl_disabled" not in remote.connect_options()


def test_credentials_are_never_printed(mariadb: MariaDB) -> None:
    with contextlib.closing(mariadb.connect()) as conn, conn.cursor() as cur:
        cur.execute("CREATE USER IF NOT EXISTS 'mvdd_t'@'localhost' IDENTIFIED BY 'pa55-w0rd'")
        cur.execute("CREATE DATABASE IF NOT EXISTS mvdd_secret")
        cur.execute("GRANT ALL ON mvdd_secret.* TO 'mvdd_t'@'localhost'")
    base = f"mysql://mvdd_t:{{}}@localhost/mvdd_secret?unix_socket={mariadb.socket}"
    with pytest.raises(StoreError) as info:
        Catalog.open(base.format("wrong-pa55"))
    assert "wrong-pa55" not in str(info.value) and "pa55" not in repr(info.value)
    with Catalog.open(base.format("pa55-w0rd")) as cat:
        cat.execute("CREATE TABLE t (a INT)")
        assert "pa55" not in repr(cat) and "pa55" not in cat.store.description
    with pytest.raises(StoreError, match="denied") as info:  # no rights on another database
        Catalog.open(base.format("pa55-w0rd").replace("mvdd_secret", "mysql"))
    assert "pa55" not in str(info.value)


def test_a_catalog_sees_other_writers_after_refresh(address: str) -> None:
    a = Catalog.open(address)
    a.execute("CREATE TABLE t (id INT PRIMARY KEY)")
    b = Catalog.open(address)
    assert b.tables() == ["t"]  # opening read everything
    a.execute("ALTER TABLE t ADD c INT")
    assert b.version("t") == 1  # until it refreshes or binds a new read view
    with b.begin() as tx:
        assert tx.table("t").column_names == ("id", "c")
    b.execute("ALTER TABLE t ADD d INT")  # built on the newest: version 3
    a.refresh()
    assert a.version("t") == b.version("t") == 3
    assert a.table("t") == b.table("t")
    a.close()
    b.close()


def test_two_writers_of_one_version_one_wins(address: str, mariadb: MariaDB) -> None:
    """The compare-and-set and the (table, version) key: a commit built on a stale head is
    refused, and the store is left as the winner made it."""
    a, b = Catalog.open(address), Catalog.open(address)
    a.execute("CREATE TABLE t (id INT PRIMARY KEY)")
    b.refresh()
    a.execute("ALTER TABLE t ADD x INT")
    (st,) = parse_statements("ALTER TABLE t ADD y INT")
    with pytest.raises(ConcurrentChangeError):
        b._execute_one(st, None)  # built on version 1, without the refresh execute() does
    b.refresh()
    assert b.version("t") == 2 and b.table("t").column_names == ("id", "x")
    # the key itself: a second row for (table, version) cannot be stored
    database = address.split("/")[3].split("?")[0]
    with (
        contextlib.closing(mariadb.connect(database)) as conn,
        conn.cursor() as cur,
        pytest.raises(pymysql.err.IntegrityError),
    ):
        cur.execute(
            "INSERT INTO mvdd_versions (table_id, version, seq, name, statement, steps, "
            "position, at, dropped) SELECT table_id, version, seq + 100, name, statement, "
            "steps, position, at, dropped FROM mvdd_versions WHERE version = 2"
        )
    b.execute("ALTER TABLE t ADD y INT")  # execute() refreshes and builds on version 2
    assert b.version("t") == 3
    a.close()
    b.close()


# -- processes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("writers", [2, 8])
def test_writer_processes_agree(address: str, tmp_path: Path, writers: int) -> None:
    shared_tables(address)
    logs = [tmp_path / f"w{i}.log" for i in range(writers)]
    procs = [
        spawn(address, f"w{i}", log, "--count", str(STATEMENTS), str(i))
        for i, log in enumerate(logs)
    ]
    finish(procs, logs)
    histories = consistent(address, logs)
    done = [r for log in logs for r in records(log) if "done" in r]
    errors = [r for log in logs for r in records(log) if "error" in r]
    # zero lost statements: every statement is stored exactly when its writer saw it commit
    assert sum(len(h) - 1 for h in histories.values()) == len(done)
    assert not [e for e in errors if e["error"] != "concurrent"], errors[:3]
    # every process ends with the same histories
    for log in logs:
        (final,) = [r["histories"] for r in records(log) if "histories" in r]
        assert final == histories
    print(f"\n{writers} writers: {len(done)} statements committed, {len(errors)} refused")


def test_writer_killed_mid_statement(address: str, tmp_path: Path) -> None:
    shared_tables(address)
    logs = []
    rng = random.Random(11)
    for round_ in range(KILL_ROUNDS):
        log = tmp_path / f"k{round_}.log"
        logs.append(log)
        proc = spawn(address, f"k{round_}", log, "--count", "100000", str(round_))
        deadline = time.monotonic() + 30
        while not any("done" in r for r in records(log)) and time.monotonic() < deadline:
            time.sleep(0.02)  # let it get going (imports, connection)
        time.sleep(rng.uniform(0.0, 0.3))
        proc.kill()
        consistent(address, logs)
    done = sum(1 for log in logs for r in records(log) if "done" in r)
    print(f"\n{KILL_ROUNDS} writers killed mid-stream after {done} committed statements")


def test_server_killed_and_restarted_under_load(
    mariadb: MariaDB, address: str, tmp_path: Path
) -> None:
    shared_tables(address)
    watcher = Catalog.open(address)
    stop = tmp_path / "stop"
    logs = [tmp_path / f"r{i}.log" for i in range(2)]
    procs = [
        spawn(address, f"r{i}", log, "--until", str(stop), str(i)) for i, log in enumerate(logs)
    ]
    try:
        time.sleep(1.5)
        before = sum(1 for log in logs for r in records(log) if "done" in r)
        mariadb.halt(crash=True)  # SIGKILL: InnoDB must recover on restart
        down_at = time.time()
        with pytest.raises(StoreError, match="re-opened on the next call"):
            watcher.refresh()
        with pytest.raises(StoreError):
            watcher.execute("ALTER TABLE t0 ADD COLUMN watcher INT")
        time.sleep(1.5)
        mariadb.start()
        up_at = time.time()
        time.sleep(2.0)
    finally:
        stop.touch()
        finish(procs, logs)
    # the catalog that saw the errors reconnects by itself
    watcher.refresh()
    watcher.execute("ALTER TABLE t0 ADD COLUMN watcher INT")
    watcher.close()
    histories = consistent(address, logs, frozenset({"ALTER TABLE t0 ADD COLUMN watcher INT"}))
    all_records = [r for log in logs for r in records(log)]
    down_errors = [r for r in all_records if r.get("error") == "store"]
    after = [r for r in all_records if "done" in r and r["at"] > up_at]
    assert before > 0 and down_errors and after, (before, len(down_errors), len(after))
    assert all(down_at - 1 <= r["at"] <= up_at + 2 for r in down_errors)
    for log in logs:  # every writer ends with the histories the store held then
        (final,) = [r["histories"] for r in records(log) if "histories" in r]
        assert final == {t: h[: len(final[t])] for t, h in histories.items()}
        assert final["t0"][-1][1] != "ALTER TABLE t0 ADD COLUMN watcher INT"
    print(
        f"\nserver down {up_at - down_at:.1f} s: {len(down_errors)} clear errors, "
        f"{before} commits before, {len(after)} after"
    )


def test_store_error_leaves_no_partial_version(address: str, mariadb: MariaDB) -> None:
    """A connection cut in the middle of a commit (the server kills it) stores nothing."""
    cat = Catalog.open(address)
    cat.execute("CREATE TABLE t (id INT PRIMARY KEY)")
    store = cat.store
    assert isinstance(store, MySQLStore)
    # hold the sequence row so the commit blocks inside its transaction, then kill it there
    database = address.split("/")[3].split("?")[0]
    failure: list[BaseException] = []

    def alter() -> None:
        try:
            cat.execute("ALTER TABLE t ADD c INT")
        except BaseException as err:
            failure.append(err)

    with contextlib.closing(mariadb.connect(database)) as other, other.cursor() as cur:
        cur.execute("START TRANSACTION")
        cur.execute("SELECT v FROM mvdd_meta WHERE k = 'last_seq' FOR UPDATE")
        conn_id = store._connection().thread_id()
        worker = threading.Thread(target=alter)
        worker.start()
        time.sleep(0.5)
        with contextlib.closing(mariadb.connect()) as admin, admin.cursor() as k:
            k.execute(f"KILL CONNECTION {conn_id}")
        worker.join(timeout=30)
        cur.execute("ROLLBACK")
    assert failure and isinstance(failure[0], StoreError), failure
    assert cat.version("t") == 1
    with Catalog.open(address) as fresh:
        assert fresh.version("t") == 1 and fresh.table("t").column_names == ("id",)
    cat.execute("ALTER TABLE t ADD c INT")  # reconnects
    assert cat.version("t") == 2
    cat.close()


def test_processes_opening_a_new_store_at_once(address: str) -> None:
    """Creating the store's tables and first rows is idempotent: openers racing all succeed."""
    errors: list[BaseException] = []

    def open_and_create(i: int) -> None:
        try:
            with Catalog.open(address) as cat:
                cat.execute(f"CREATE TABLE t{i} (id INT PRIMARY KEY)")
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=open_and_create, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    with Catalog.open(address) as cat:
        assert cat.tables() == [f"t{i}" for i in range(6)]
        assert sorted(cat.table_id(f"t{i}") for i in range(6)) == list(range(1, 7))


def test_a_reader_makes_no_store_in_a_database(address: str, mariadb: MariaDB) -> None:
    """``create=False`` on a database without the store's tables is a StoreError naming the
    address (never its password), and makes no table; on a store, it opens it. ``mvdd history``
    reads a catalog at a ``mysql://`` address."""
    from typer.testing import CliRunner

    from mvdd.cli import app

    with pytest.raises(StoreError, match="there is no catalog at mysql://root@"):
        Catalog.open(address, create=False)
    database = address.split("/")[3].split("?")[0]
    with mariadb.connect(database) as conn, conn.cursor() as cur:
        assert cur.execute("SHOW TABLES") == 0
    with Catalog.open(address) as cat:
        cat.execute("CREATE TABLE t (id INT PRIMARY KEY)")
    with Catalog.open(address, create=False) as cat:
        assert cat.version("t") == 1
    done = CliRunner().invoke(app, ["history", address, "t", "--json"])
    assert done.exit_code == 0, done.output
    assert [v["statement"] for v in json.loads(done.output)["versions"]] == [
        "CREATE TABLE t (id INT PRIMARY KEY)"
    ]


def test_a_format_2_store_is_upgraded(address: str, mariadb: MariaDB, tmp_path: Path) -> None:
    """A store of format 2 on the server (its ``elements`` table as format 2 made it, holding
    the rows format 2 wrote: the SQLite fixture's) opens as format 3 and reads as a memory
    catalog that ran the same statements (the oracle), before and after more statements."""
    rows = format_2_rows(tmp_path / "format2.db")
    statements = format_2_sqlite(tmp_path / "again.db")
    oracle = Catalog()
    for position, sql in enumerate(statements, start=1):
        oracle.execute(sql, position=position)
    Catalog.open(address).close()  # the store's tables, then format 2's rows in them
    database = address.split("/")[3].split("?")[0]
    with mariadb.connect(database) as conn, conn.cursor() as cur:
        cur.execute("DROP TABLE mvdd_elements")
        cur.execute(FORMAT_2_MYSQL_ELEMENTS.replace("{p}", "mvdd_"))
        for table, (columns, values) in rows.items():
            if table == "meta":
                columns = ["k", "v"]
            cur.execute(f"DELETE FROM mvdd_{table}")
            cur.executemany(
                f"INSERT INTO mvdd_{table} ({', '.join(f'`{c}`' for c in columns)}) "
                f"VALUES ({', '.join(['%s'] * len(columns))})",
                values,
            )
        conn.commit()
    more = ["ALTER TABLE w DROP d, ADD e INT FIRST", "DROP TABLE v", "CREATE TABLE v (y INT)"]
    with Catalog.open(address) as cat:
        assert_same_changes(cat.store, oracle.store)
        for sql in more:
            cat.execute(sql)
            oracle.execute(sql)
        assert_same_changes(cat.store, oracle.store)
    with mariadb.connect(database) as conn, conn.cursor() as cur:
        cur.execute("SELECT v FROM mvdd_meta WHERE k = 'format'")
        assert cur.fetchone() == (3,)
        cur.execute("SELECT COUNT(*) FROM mvdd_elements WHERE value = ''")
        assert cur.fetchone() == (10,)  # format 2's 6, then d, and v's a, b and metadata


@pytest.mark.parametrize("where", ["sqlite", "mariadb"])
def test_statements_holding_bytes_that_are_no_utf8_are_stored_as_they_were(
    where: str, address: str, tmp_path: Path
) -> None:
    """A statement whose text holds a lone surrogate (a byte that is no UTF-8: a server's SHOW
    CREATE TABLE of a member of such bytes, which a replica's bootstrap runs) is committed to a
    SQLite file and to a MariaDB store, whose text is UTF-8, and read back in its history as it
    was, beside an online job's statement of one (each was a UnicodeEncodeError in the store,
    the in-memory catalog taking them); a name holding one is refused, as the servers refuse
    it (error 1300)."""
    from mvdd.ddl.statement import SHOWN
    from mvdd.online import Cluster

    target = str(tmp_path / "c.db") if where == "sqlite" else address
    created = "CREATE TABLE t (e ENUM('a','\udcff') CHARACTER SET ascii, k INT, KEY (k))"
    altered = "ALTER TABLE t COMMENT 'x\udcfe'"
    with Catalog.open(target, replica=True, flavor="mariadb") as cat:
        cat.execute(created, sql_mode=SHOWN)
        cat.execute(altered)
        with pytest.raises(DDLError, match="does not allow in names"):
            cat.execute("CREATE TABLE `u\udcff` (a INT)")
        job = Cluster(cat).submit("ALTER TABLE t ADD INDEX i (k) COMMENT '\udcfd'")
    with Catalog.open(target, replica=True, flavor="mariadb") as cat:
        assert [c.statement for c in cat.history("t")] == [created, altered]
        assert cat.table("t").column("e").type.members == ("a", "\udcff")
        assert cat.tables() == ["t"]
        assert Cluster(cat).job(job.id).sql == job.sql
