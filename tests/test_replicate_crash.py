"""Exactly once under SIGKILL: the replicator (``mvdd replicate`` in a process of its own) is
killed at random moments while a writer keeps changing the upstream shards, and at the moments
that matter most (right after a downstream DDL, in the middle of a 20,000-row transaction, with
rows of a paused shard kept but not checkpointed); after every kill it is started again.
Upstream and downstream servers are restarted under it. At the end the target must hold exactly
the upstream rows (the oracle of :mod:`tests.support.replication`): nothing lost, nothing
twice (a row applied twice fails the replicator itself: an insert finds its key, a delete
finds nothing).

``MVDD_REPLICATE_KILLS`` sets the number of random kills (default 6; 14 under CI); every other
round also kills right after the next scripted DDL (seven of the eight under CI).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pymysql
import pytest

from tests.conftest import CI
from tests.support.mariadb import quote
from tests.support.replication import Servers, Setup, assert_replicated, setup, verdict_of

pytestmark = [pytest.mark.mariadb, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
KILLS = int(os.environ.get("MVDD_REPLICATE_KILLS", "14" if CI else "6"))
CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount INT NOT NULL "
    "DEFAULT 0, PRIMARY KEY (id))"
)
SHARDS = [("up1", "orders_01"), ("up1", "orders_02"), ("up2", "orders_03")]
#: DDL the writer runs as it goes, in this order, spread over the run; each one changes the
#: join, so each runs downstream (and the after-ddl kill point is reached)
DDL = [
    (("up1", "up2")[k % 2], ddl)
    for k, ddl in enumerate(
        f"ALTER TABLE {table} {change}"
        for k in range(4)
        for table, change in (
            # (a DEFAULT beyond the BMP: the target's SHOW CREATE TABLE writes it as ?)
            ("orders_01", f"ADD COLUMN x{k} VARCHAR(8) NULL DEFAULT 'x{k}🙂'"),
            ("orders_03", f"MODIFY customer VARCHAR({40 + 8 * k}) NOT NULL"),
        )
    )
]


class Writer:
    """Keeps changing the upstream shards: small transactions of inserts, updates and
    deletes; the scripted DDL when asked; one big transaction when asked."""

    def __init__(self, s: Setup, seed: int) -> None:
        self.s = s
        self.rng = random.Random(seed)
        self.next_id = {t: 1 + i * 10_000_000 for i, (_, t) in enumerate(SHARDS)}
        self.ids: dict[str, list[int]] = {t: [] for _, t in SHARDS}
        self.stop = threading.Event()
        self.pause = threading.Event()
        self.conns = {name: s.servers.upstream(name).connect(s.db) for name in ("up1", "up2")}
        self.done = 0
        self.script = list(DDL)
        self.lock = threading.Lock()  # one connection per server, shared with the test
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _txn(self) -> None:
        server, table = self.rng.choice(SHARDS)
        conn = self.conns[server]
        with conn.cursor() as cur:
            cur.execute("BEGIN")
            for _ in range(self.rng.randint(1, 4)):
                op = self.rng.random()
                ids = self.ids[table]
                if op < 0.6 or len(ids) < 10:
                    i = self.next_id[table]
                    self.next_id[table] += 1
                    cur.execute(
                        f"INSERT INTO {table} (id, customer, amount) VALUES (%s, %s, %s)",
                        (i, f"c{i}", self.rng.randint(0, 1000)),
                    )
                    ids.append(i)
                elif op < 0.85:
                    cur.execute(
                        f"UPDATE {table} SET amount = amount + 1 WHERE id = %s",
                        (self.rng.choice(ids),),
                    )
                else:
                    victim = ids.pop(self.rng.randrange(len(ids)))
                    cur.execute(f"DELETE FROM {table} WHERE id = %s", (victim,))
            cur.execute("COMMIT")
        self.done += 1

    def _loop(self) -> None:
        while not self.stop.is_set():
            if self.pause.is_set():
                time.sleep(0.01)
                continue
            with (
                self.lock,
                contextlib.suppress(pymysql.err.OperationalError, pymysql.err.InterfaceError),
            ):
                self._txn()  # (a server restarting under it: that transaction never happened)
            time.sleep(0.002)

    def ddl(self) -> bool:
        if not self.script:
            return False
        server, sql = self.script.pop(0)
        with self.lock, self.conns[server].cursor() as cur:
            cur.execute(sql)
        return True

    def big(self, n: int = 20_000) -> None:
        """One upstream transaction of ``n`` inserts."""
        table = "orders_03"
        conn = self.conns["up2"]
        start = self.next_id[table]
        self.next_id[table] += n
        with self.lock, conn.cursor() as cur:
            cur.execute("BEGIN")
            for chunk in range(start, start + n, 1000):
                values = [
                    (i, f"big{i}", i % 100) for i in range(chunk, min(chunk + 1000, start + n))
                ]
                cur.executemany(
                    f"INSERT INTO {table} (id, customer, amount) VALUES (%s, %s, %s)", values
                )
            cur.execute("COMMIT")
        self.ids[table].extend(range(start, start + n))

    def reconnect(self) -> None:
        with self.lock:
            self._reconnect()

    def _reconnect(self) -> None:
        for name in self.conns:
            with contextlib.suppress(Exception):
                self.conns[name].close()
            self.conns[name] = self.s.servers.upstream(name).connect(self.s.db)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        for conn in self.conns.values():
            conn.close()


def replicator(
    s: Setup, *, kill_at: str | None = None, rows: int | None = None
) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MVDD_KILL")}
    if kill_at is not None:
        env["MVDD_KILL_AT"] = kill_at
    if rows is not None:
        env["MVDD_KILL_ROWS"] = str(rows)
    return subprocess.Popen(
        [sys.executable, "-m", "mvdd.cli", *s.cli_args(), "--until", "forever", "--no-live"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def output(proc: subprocess.Popen[str]) -> str:
    """The last of what an ended process printed (its errors go to stdout, its logs to
    stderr): enough of a rich traceback to hold mvdd's frames above the driver's."""
    out = (proc.stdout.read() if proc.stdout else "") + (proc.stderr.read() if proc.stderr else "")
    return out[-16000:]


def killed(proc: subprocess.Popen[str], timeout: float) -> None:
    """Wait for a process that kills itself at its kill point."""
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the kill point was never reached") from None
    assert code == -signal.SIGKILL, (code, output(proc))


def following(s: Setup, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait until a started replicator has copied rows downstream: past its start (an
    interpreter and its imports, seconds on a loaded machine), whose SIGTERM would find the
    default handler and kill it before it stops at a boundary."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive(proc)
        with (
            contextlib.suppress(pymysql.MySQLError),
            s.servers.down.connect(s.dw) as conn,
            conn.cursor() as cur,
        ):
            cur.execute(f"SELECT COUNT(*) FROM {quote(s.target)}")
            if cur.fetchone()[0]:
                return
        time.sleep(0.2)
    proc.kill()
    raise AssertionError(f"the replicator copied nothing in {timeout} s: {output(proc)}")


def alive(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is not None:
        raise AssertionError(f"the replicator ended by itself ({proc.returncode}): {output(proc)}")


def kill(proc: subprocess.Popen[str]) -> None:
    alive(proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def finish(s: Setup) -> dict[str, int]:
    """One last run to the end, then the oracle."""
    r = s.replicator()
    r.run(until="end")
    return assert_replicated(s, r)


@pytest.fixture
def s(servers: Servers, tmp_path: Path) -> Any:
    with setup(servers, tmp_path) as found:
        for server, table in SHARDS:
            found.run(server, CREATE.format(t=table))
        yield found


def test_exactly_once_under_random_and_targeted_kills(s: Setup) -> None:
    writer = Writer(s, seed=KILLS)
    for _ in range(200):
        writer._txn()  # rows before the first run: the initial copy has work
    writer.thread.start()
    rng = random.Random(7)
    kills = {"random": 0, "after-ddl": 0, "mid-commit": 0}
    try:
        # the first run, killed during its copy or just after
        proc = replicator(s)
        time.sleep(rng.uniform(0.8, 2.0))
        kill(proc)
        kills["random"] += 1
        for round_ in range(KILLS):
            if round_ % 2 == 1 and writer.ddl():
                proc = replicator(s, kill_at="after-ddl")
                killed(proc, timeout=60)
                kills["after-ddl"] += 1
            proc = replicator(s)
            time.sleep(rng.uniform(0.3, 2.5))
            kill(proc)
            kills["random"] += 1
        # the big transaction, killed in its middle (20,000 rows: 10,000 sent, not committed)
        writer.pause.set()
        writer.big()
        writer.pause.clear()
        proc = replicator(s, kill_at="mid-commit", rows=10_000)
        killed(proc, timeout=120)
        kills["mid-commit"] += 1
        while writer.ddl():
            pass
    finally:
        writer.close()
    counts = finish(s)
    print(f"\nkills survived: {kills}; {writer.done} upstream transactions; rows {counts}")
    assert sum(counts.values()) > 20_000
    targeted = min(len(DDL), len([r for r in range(KILLS) if r % 2 == 1]))
    assert kills["random"] >= KILLS and kills["after-ddl"] == targeted
    assert kills["mid-commit"] == 1


def test_held_rows_survive_a_kill_before_their_checkpoint(s: Setup) -> None:
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN d INT NOT NULL DEFAULT 0")
    r = s.replicator()
    r.run()
    # a conflict pauses orders_01: its rows are held, and the process dies right after
    # keeping them, before the checkpoint moves past them
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN d VARCHAR(5) NOT NULL DEFAULT 'x'")
    s.run(
        "up1",
        *(f"INSERT INTO orders_01 (id, customer, d) VALUES ({i}, 'c', 'y')" for i in range(1, 30)),
    )
    killed(replicator(s, kill_at="after-hold"), timeout=60)
    status = s.replicator().run()
    shard = status["shards"][f"up1/{s.db}.orders_01"]
    assert shard["paused"] and shard["held"] == 29  # held once, though read twice
    s.run("up2", "ALTER TABLE orders_03 MODIFY d VARCHAR(5) NOT NULL DEFAULT 'x'")
    counts = finish(s)
    assert counts[f"up1/{s.db}.orders_01"] == 29


def test_held_rows_read_again_after_their_shard_resumed_are_applied_once(s: Setup) -> None:
    """As above, a kill leaves the checkpoint behind rows held for a paused shard (orders_03,
    on up2); but the next run resumes the shard (a DDL of up1's orders_01 ends the conflict)
    before up2's reader has read those rows again (20,000 of them in one transaction, which
    takes it a while): the rows were released, then applied once more, as the shard no longer
    paused (a duplicate key stopped the job). The resumed shard's transactions up to the last
    one released are now skipped."""
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN d INT NULL")
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN d DATETIME NULL")  # (no join: paused)
    s.run(
        "up2",
        "INSERT INTO orders_03 (id, customer, d) "
        "SELECT seq, 'c', '2026-12-06 10:00:00' FROM seq_1_to_20000",
        "UPDATE orders_03 SET customer = 'u' WHERE id < 10",
        "DELETE FROM orders_03 WHERE id > 19990",
    )
    killed(replicator(s, kill_at="after-hold"), timeout=60)
    s.run("up1", "ALTER TABLE orders_01 MODIFY d DATETIME NULL")
    counts = finish(s)
    assert counts[f"up2/{s.db}.orders_03"] == 19_990


def test_server_restarts_are_waited_for(s: Setup, servers: Servers) -> None:
    writer = Writer(s, seed=3)
    writer.thread.start()
    proc = replicator(s)
    try:
        following(s, proc)
        time.sleep(1)
        writer.pause.set()
        servers.up2.restart()  # an upstream server goes away and comes back
        writer.reconnect()
        writer.pause.clear()
        time.sleep(2)
        writer.pause.set()
        servers.down.restart()  # and the downstream one
        writer.reconnect()
        writer.pause.clear()
        time.sleep(2)
        alive(proc)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, output(proc)
    finally:
        writer.close()
        if proc.poll() is None:
            proc.kill()
    finish(s)


def test_a_truncate_killed_right_after_it_ran_downstream_is_run_once_more(
    servers: Servers, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # a group of one shard (orders_01 alone matches): its TRUNCATE runs downstream, the process
    # dies before recording it, and the next run runs it again before any later row
    with setup(servers, tmp_path) as one:
        one.run("up1", CREATE.format(t="orders_01"))
        one.run(
            "up1", *(f"INSERT INTO orders_01 (id, customer) VALUES ({i}, 'a')" for i in range(50))
        )
        finish(one)
        one.run(
            "up1",
            "TRUNCATE TABLE orders_01",
            "INSERT INTO orders_01 (id, customer) VALUES (7, 'after')",
        )
        killed(replicator(one, kill_at="after-ddl"), timeout=60)
        one.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (8, 'later')")
        with caplog.at_level("INFO", logger="mvdd.replicate"):
            assert finish(one) == {f"up1/{one.db}.orders_01": 2}
        # the same schema before and after: nothing tells it ran, so it ran again
        assert any(
            m.startswith("finishing group log entry") and m.endswith("from statement 1")
            for m in caplog.messages
        ), caplog.messages


def test_a_ddl_of_two_statements_killed_after_each_is_finished(
    servers: Servers, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A shard's CHANGE of a column's type and name is two downstream statements (a MODIFY,
    then a RENAME). Killed after the first, the next run found it ran and went on, but did not
    record it: killed again after the second, the run after found the target as after the
    second statement where it looked for the first's schema, and stopped for good ("someone
    else changed the target"). The first's progress is now recorded when it is found to have
    run. Found by a random DDL/DML harness killing the replicator."""
    with setup(servers, tmp_path) as one:  # (a group of one shard: orders_01 alone matches)
        one.run("up1", CREATE.format(t="orders_01"))
        one.run("up1", "INSERT INTO orders_01 (id, customer, amount) VALUES (1, 'a', 5)")
        finish(one)
        one.run("up1", "ALTER TABLE orders_01 CHANGE amount total BIGINT NOT NULL DEFAULT 0")
        killed(replicator(one, kill_at="after-ddl"), timeout=60)  # after the MODIFY
        killed(replicator(one, kill_at="after-ddl"), timeout=60)  # after the RENAME
        with caplog.at_level("INFO", logger="mvdd.replicate"):
            assert finish(one) == {f"up1/{one.db}.orders_01": 1}
        assert any(m.endswith("from statement 3") for m in caplog.messages), caplog.messages


def test_rows_read_again_cut_short_then_put_off_by_the_next_ddl_are_not_applied_twice(
    s: Setup,
) -> None:
    """A shard's rows read again (NULL made NOT NULL) and killed after their first batch, with
    a row written after the DDL among them; before the next start the shard runs another DDL,
    so the read waits for it (its table is no longer the version read). The rows read so far
    are in the target as the cut snapshot saw them: the binlog up to that snapshot is applied
    in safe mode all the same (it was not: the row's INSERT met its key, and the replicator
    stopped for good). Found by a random DDL/DML harness killing the replicator."""
    loose = "SET SESSION sql_mode = ''"
    for server, table in SHARDS:
        s.run(server, f"ALTER TABLE {table} MODIFY customer VARCHAR(32) NULL")
    s.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (1, NULL)")
    s.replicator().run()
    s.run("up1", loose, "ALTER TABLE orders_01 MODIFY customer VARCHAR(32) NOT NULL")
    s.run("up1", "INSERT INTO orders_01 (id, customer, amount) VALUES (2, 'b', 3)")
    killed(replicator(s, kill_at="mid-refresh"), timeout=60)
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note INT")
    assert finish(s)[f"up1/{s.db}.orders_01"] == 2


@pytest.mark.parametrize("point", ["after-commit:2", "mid-refresh"])
def test_a_table_renamed_into_the_pattern_killed_before_its_rows_are_in(
    s: Setup, point: str
) -> None:
    """A table renamed into the pattern brings rows no row event carried: killed after the
    rename's entry (its mark to read them checkpointed with it, none read) or after a batch of
    them, the next run reads them (on after the batch's last key) and applies what the
    binlog says after the rename over them, once."""
    s.replicator().run()
    s.run("up2", CREATE.format(t="_staged"))
    s.run(
        "up2",
        "INSERT INTO _staged (id, customer, amount) VALUES "
        + ", ".join(f"({i}, 'c{i}', {i})" for i in range(90_001, 90_041)),
        "RENAME TABLE _staged TO orders_09",
        "UPDATE orders_09 SET amount = -1 WHERE id % 3 = 0",
        "DELETE FROM orders_09 WHERE id % 7 = 0",
        "INSERT INTO orders_09 (id, customer) VALUES (1, 'new')",
    )
    killed(replicator(s, kill_at=point), timeout=60)
    assert finish(s)[f"up2/{s.db}.orders_09"] == 36


def test_held_rows_of_a_shard_that_left_are_forgotten_after_a_kill(s: Setup) -> None:
    """A paused shard leaves with held rows; killed right after the entry that deletes, in
    the target, the rows they deleted (before the state directory forgets them), the next run
    forgets them by the entry's checkpoint: a new table of the name releases its own only
    (the old table's DELETE, released with them, took the new table's row of its key)."""
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(8)")
    s.run("up2", "INSERT INTO orders_03 (id, customer) VALUES (1, 'a'), (2, 'b')")
    r = s.replicator()
    r.run()
    s.run(
        "up2",
        "ALTER TABLE orders_03 MODIFY amount VARCHAR(20) NOT NULL",
        "DELETE FROM orders_03 WHERE id = 1",
    )
    assert r.run()["shards"][f"up2/{s.db}.orders_03"]["held"] == 1
    s.run("up2", "DROP TABLE orders_03")
    killed(replicator(s, kill_at="after-commit:1"), timeout=60)
    s.run(
        "up2",
        CREATE.format(t="orders_03"),
        "INSERT INTO orders_03 (id, customer) VALUES (1, 'again')",
        "ALTER TABLE orders_03 ADD COLUMN note DATE",  # (paused: orders_01's is a VARCHAR)
        "INSERT INTO orders_03 (id, customer) VALUES (3, 'c')",
        "ALTER TABLE orders_03 DROP COLUMN note",
    )
    r = s.replicator()
    r.run(until="end")
    verdict = verdict_of(s, r)
    assert verdict.rows[f"up2/{s.db}.orders_03"] == 2
    assert verdict.differences == ("the row (2,) is downstream and on no shard",)


def test_a_drop_read_again_behind_a_new_table_of_its_name_is_passed(s: Setup) -> None:
    """A shard dropped and made again under its name: killed after the drop's downstream DDL,
    the next run reads the DROP again behind the new table's CREATE, which its reader had
    read, and stopped for good ("position … is not after this table's newest position"): the
    new table was not the drop's. Found by a random DDL/DML harness killing the replicator."""
    s.replicator().run()
    s.run("up2", CREATE.format(t="orders_09"), "ALTER TABLE orders_09 ADD COLUMN x INT")
    s.run("up2", "INSERT INTO orders_09 (id, customer, x) VALUES (1, 'a', 2)")
    s.run("up2", "DELETE FROM orders_09", "DROP TABLE orders_09", CREATE.format(t="orders_09"))
    s.run("up2", "INSERT INTO orders_09 (id, customer) VALUES (3, 'c')")
    killed(replicator(s, kill_at="after-ddl:2"), timeout=60)
    assert finish(s)[f"up2/{s.db}.orders_09"] == 1


@pytest.mark.parametrize(
    "no_op",
    [
        "ALTER TABLE orders_09 ALTER COLUMN amount SET DEFAULT 0",
        "ALTER TABLE orders_10 MODIFY amount INT NOT NULL DEFAULT 0 AFTER customer",
    ],
)
def test_a_no_op_read_again_behind_the_drop_of_its_names_earlier_table_is_passed(
    s: Setup, no_op: str
) -> None:
    """A shard renamed within the pattern, a new table made under its first name, a no-op
    on either (no version), then the renamed one dropped: killed after the drop's downstream
    transaction, the next run reads the no-op again behind the drop, which its reader had
    read, and stopped for good ("position … is not after this table's newest position"): the
    no-op was judged by the dropped table, or planned on the names of now. Found by a random
    DDL/DML harness killing the replicator."""
    s.replicator().run()
    s.run("up2", CREATE.format(t="orders_09"), "RENAME TABLE orders_09 TO orders_10")
    s.run("up2", CREATE.format(t="orders_09"), no_op)
    s.run("up2", "INSERT INTO orders_09 (id, customer) VALUES (3, 'c')")
    s.run("up2", "DROP TABLE orders_10", "INSERT INTO orders_09 (id, customer) VALUES (4, 'd')")
    killed(replicator(s, kill_at="after-commit:3"), timeout=60)
    counts = finish(s)
    (new,) = (shard for shard in counts if f"{s.db}.orders_09#" in shard)
    assert counts[new] == 2


def test_a_read_again_cut_short_is_not_taken_up_by_a_new_table_of_the_shards_name(
    s: Setup,
) -> None:
    """A table renamed into the pattern, its rows' read cut short by a kill; before the next
    start it leaves, and another table renamed in under its name (the same version number,
    the same keys) is read: from its first row, not on after the cut read's last key."""
    s.replicator().run()
    staged = [
        CREATE.format(t="_staged"),
        "INSERT INTO _staged (id, customer) VALUES "
        + ", ".join(f"({i}, 'c{i}')" for i in range(1, 41)),
        "RENAME TABLE _staged TO orders_09",
    ]
    s.run("up2", *staged)
    killed(replicator(s, kill_at="mid-refresh"), timeout=60)
    other = CREATE.replace("PRIMARY KEY", "note INT, PRIMARY KEY")  # (read again: put off)
    s.run("up2", "DELETE FROM orders_09", "DROP TABLE orders_09", other.format(t="_staged"))
    s.run("up2", *staged[1:])
    assert finish(s)[f"up2/{s.db}.orders_09"] == 40


def test_a_no_op_ddl_read_again_behind_a_later_one_is_passed(
    servers: Servers, tmp_path: Path
) -> None:
    """A statement that changes no schema (a rebuild, ``ENGINE=InnoDB`` once more) adds no
    version to the binlog's catalog. Killed after the first downstream DDL, while its reader
    had read on past the no-op and a later DDL, the next run reads the no-op again behind the
    later version, and stopped for good ("position … is not after this table's newest
    position"); it is now judged on the table as it stood there. Found by a random DDL/DML
    harness killing the replicator (there: a column moved where it was)."""
    with setup(servers, tmp_path) as one:  # (a group of one shard: orders_01 alone matches)
        one.run("up1", CREATE.format(t="orders_01"))
        one.run("up1", "INSERT INTO orders_01 (id, customer, amount) VALUES (1, 'a', 5)")
        finish(one)
        one.run(
            "up1",
            "ALTER TABLE orders_01 ADD COLUMN note INT",
            "ALTER TABLE orders_01 ENGINE=InnoDB",
            "ALTER TABLE orders_01 ENGINE=InnoDB",
            "ALTER TABLE orders_01 MODIFY amount INT NOT NULL AFTER customer",
            "INSERT INTO orders_01 (id, customer, amount, note) VALUES (2, 'b', 6, 7)",
            "ALTER TABLE orders_01 ADD COLUMN extra INT",
        )
        killed(replicator(one, kill_at="after-ddl"), timeout=60)  # after ADD COLUMN note
        assert finish(one) == {f"up1/{one.db}.orders_01": 2}


def test_every_group_log_entry_of_a_transaction_killed_in_the_first_is_finished(
    servers: Servers, tmp_path: Path
) -> None:
    """One upstream transaction can add several group log entries before the first runs: a
    tool's RENAME TABLE swapping a shard's table for its copy. Here orders_02 is paused (its
    ``amount``'s DEFAULT not orders_01's) and adds a column ``e`` and a row meanwhile;
    orders_01's copy comes in with a ``c`` that does not join orders_02's, so orders_01 pauses
    and orders_02 resumes: that entry's downstream SET DEFAULT and ADD COLUMN e run, the
    rename's other half an entry of its own, and the process is killed after the first
    statement. The next run finished only the newest entry: the ADD COLUMN never ran and
    orders_02's held row was never released; its next row met a target without ``e`` ("Unknown
    column 'e'"). Found by a random DDL/DML harness killing the replicator."""
    with setup(servers, tmp_path) as one:  # (a group of two shards on one server)
        one.run("up1", CREATE.format(t="orders_01"), CREATE.format(t="orders_02"))
        one.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (1, 'a')")
        finish(one)
        one.run(
            "up1",
            "ALTER TABLE orders_02 ADD COLUMN c CHAR(3)",  # (downstream: the first DDL)
            "ALTER TABLE orders_02 ALTER COLUMN amount SET DEFAULT 5",  # paused
            "ALTER TABLE orders_02 ADD COLUMN e INT",
            "INSERT INTO orders_02 (id, customer, c, e) VALUES (2, 'b', 'xyz', 7)",
            "CREATE TABLE _orders_01_gho LIKE orders_01",
            "ALTER TABLE _orders_01_gho ADD COLUMN c TIMESTAMP NULL",
            "INSERT INTO _orders_01_gho (id, customer, amount) "
            "SELECT id, customer, amount FROM orders_01",
            "RENAME TABLE orders_01 TO _orders_01_del, _orders_01_gho TO orders_01",
            "DROP TABLE _orders_01_del",
        )
        killed(replicator(one, kill_at="after-ddl:2"), timeout=60)  # after the SET DEFAULT
        one.run("up1", "INSERT INTO orders_02 (id, customer, e) VALUES (3, 'c', 8)")
        # the shards made to agree again: every shard resumed, the oracle holds them all
        one.run("up1", "ALTER TABLE orders_01 DROP COLUMN c, ALTER COLUMN amount SET DEFAULT 5")
        assert finish(one) == {f"up1/{one.db}.orders_01": 1, f"up1/{one.db}.orders_02": 2}


def test_the_group_log_replays_in_a_process_of_another_hash_seed(s: Setup) -> None:
    """Each start replays the group log, which must give the downstream statements it
    recorded. Columns one DDL adds came downstream in the order of a set of their names,
    which each process seeds anew: a run in a process of another seed found the log not
    replaying ("the catalogs changed under it") and stopped for good. They come in the
    DDL's order now. Found by a random DDL/DML harness killing the replicator."""
    s.replicator().run()
    s.run("up1", "ALTER TABLE orders_01 " + ", ".join(f"ADD COLUMN {n} INT" for n in "srqp"))
    for seed in (1, 2):
        ran = subprocess.run(
            [sys.executable, "-m", "mvdd.cli", *s.cli_args(), "--until", "end", "--no-live"],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert ran.returncode == 0, (ran.stdout + ran.stderr)[-4000:]
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT * FROM {quote(s.target)} LIMIT 0")
        assert [d[0] for d in cur.description][-4:] == ["s", "r", "q", "p"]
    finish(s)


def test_rows_read_again_survive_a_kill_mid_way(s: Setup, caplog: pytest.LogCaptureFixture) -> None:
    """A shard's DDL changes the values its rows hold where the target's column stays as the
    other shards have it (NULL made NOT NULL: a NULL became 0), and its rows are read again
    (the replicator's refresh); killed after the first batch of them committed, before the
    shard's mark and its safe window are recorded, the next run reads on after that batch's
    last key (the read's progress is committed with each batch: it once read every row again)
    and ends with the upstream's rows, the writes after the DDL included."""
    s.run("up1", "ALTER TABLE orders_01 MODIFY customer VARCHAR(32) NULL")
    s.run("up1", "INSERT INTO orders_01 (id, customer) SELECT seq, NULL FROM seq_0_to_11999")
    every = [(server, t) for server, t in SHARDS if t != "orders_01"]
    for server, table in every:
        s.run(server, f"ALTER TABLE {table} MODIFY customer VARCHAR(32) NULL")
    s.replicator().run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up1", loose, "ALTER TABLE orders_01 MODIFY customer VARCHAR(32) NOT NULL")
    s.run(
        "up1", "UPDATE orders_01 SET amount = 7 WHERE id < 5", "DELETE FROM orders_01 WHERE id = 9"
    )
    killed(replicator(s, kill_at="mid-refresh"), timeout=60)
    with caplog.at_level("INFO", logger="mvdd.replicate"):
        counts = finish(s)
    assert counts[f"up1/{s.db}.orders_01"] == 11_999
    # the first batch (5,000 rows by key, the deleted one among them) was not read again
    (read,) = [m for m in caplog.messages if "rows again" in m]
    assert "read 11999 rows again, 5000 of them before a restart" in read, read
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute("SELECT data FROM mvdd_checkpoint WHERE name LIKE 'refresh:%'")
        assert [json.loads(d)["done"] for (d,) in cur.fetchall()] == [True]
