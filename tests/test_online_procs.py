"""Online schema change across processes on one catalog (a SQLite file, then a database on the
test MariaDB server): four node processes serve and write while competing owner processes run a
stream of jobs; the owner holding the lease is killed with SIGKILL again and again. Every job must finish exactly once, every state be committed
once and by one owner, the reorg resume from its checkpoint (no batch recorded done is redone),
and the row store end without an orphan or integrity anomaly."""

from __future__ import annotations

import ast
import itertools
import os
import random
import time
from collections import defaultdict
from pathlib import Path

import pytest

from mvdd import Catalog
from mvdd.online import Cluster
from mvdd.online.cluster import OWNER
from mvdd.online.rowstore import RowStore
from tests.conftest import CI
from tests.support import online_child
from tests.support.forked import Child
from tests.support.mariadb import MariaDB

KILLS = int(os.environ.get("MVDD_OWNER_KILLS", "20" if CI else "8"))
LEASE = 0.3
JOBS = [
    "ALTER TABLE t ADD INDEX ka (a)",
    "ALTER TABLE t ADD COLUMN c INT DEFAULT 5",
    "ALTER TABLE t ADD INDEX kb (b)",
    "ALTER TABLE t DROP INDEX ka",
    "ALTER TABLE t ADD INDEX kab (a, b)",
    "ALTER TABLE t DROP INDEX kb",
    "ALTER TABLE t ADD INDEX kc (c)",
    "ALTER TABLE t DROP INDEX kab",
    "ALTER TABLE t ADD INDEX ka (a)",
    "ALTER TABLE t DROP INDEX kc",
    "ALTER TABLE t DROP INDEX ka",
]


@pytest.mark.slow
def test_owners_killed_mid_job(tmp_path: Path) -> None:
    owners_killed_mid_job(str(tmp_path / "catalog.db"), tmp_path, KILLS)


@pytest.mark.slow
@pytest.mark.mariadb
def test_owners_killed_mid_job_on_mariadb(tmp_path: Path, mariadb: MariaDB) -> None:
    """The same on the MySQL store: the nodes and owners share no file for the catalog."""
    with mariadb.database() as db:
        address = f"mysql://root@localhost/{db}?unix_socket={mariadb.socket}"
        owners_killed_mid_job(address, tmp_path, max(3, KILLS // 2))


def owners_killed_mid_job(catalog: str, tmp_path: Path, wanted: int) -> None:
    rows_path = str(tmp_path / "rows.db")
    batch_log, stop = tmp_path / "batches.log", tmp_path / "stop"
    cat = Catalog.open(catalog)
    cat.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT)")
    rows = RowStore(rows_path)
    table = cat.table("t")
    for pk in range(1, 1201):
        rows.insert(table, {"id": pk, "a": pk % 7, "b": pk % 11})
    cluster = Cluster(cat, lease=LEASE)
    submitted = [cluster.submit(sql).id for sql in JOBS]

    launched = itertools.count()

    def launch(role: str, third: str) -> Child:
        """A node (``third``: its id) or an owner candidate (``third``: the batch log) of
        :mod:`tests.support.online_child` in a process of its own."""
        target = online_child.node if role == "node" else online_child.owner
        errors = tmp_path / f"{role}{next(launched)}.err"
        return Child(target, catalog, rows_path, third, LEASE, stop, errors=errors)

    nodes = [launch("node", f"n{i}") for i in range(4)]
    owners = [launch("owner", str(batch_log)) for _ in range(2)]
    rng = random.Random(7)
    kills = 0
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            time.sleep(rng.uniform(0.15, 0.6))
            queue = [j for j in cluster.store.jobs() if j.kind == "ddl"]
            if kills >= wanted and not queue:
                break
            if not queue:  # keep the owners busy until enough of them have died
                submitted += [cluster.submit(sql).id for sql in JOBS]
            lease = cluster.store.read_lease(OWNER)
            if lease is None or lease.expires < time.time() or kills >= wanted:
                continue
            pid = int(lease.owner.split("-")[0])
            victim = next((p for p in owners if p.pid == pid and p.poll() is None), None)
            if victim is None:
                continue
            victim.kill()
            kills += 1
            owners.remove(victim)
            owners.append(launch("owner", str(batch_log)))
        else:
            raise AssertionError("the jobs did not finish in time")
        # let the background cleanups finish too
        while any(j for j in cluster.store.jobs()) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stop.touch()
        for p in nodes + owners:
            if p.wait(timeout=20) is None:
                p.kill()
    for p in nodes + owners:
        assert p.poll() == 0, p.errors() or p.poll()

    assert kills >= wanted
    # every job finished exactly once, and did what it was asked
    history = [j for j in cluster.store.jobs("history") if j.kind == "ddl"]
    assert sorted(j.id for j in history) == sorted(submitted)
    assert {j.status for j in history} == {"done"}
    assert not cluster.store.jobs()
    # every state of every job committed once, by one owner, epochs never going back
    cat.refresh()
    committed: dict[tuple[int, str], int] = defaultdict(int)
    for change in cat.history("t")[1:]:
        job_id, state = change.statement.split("job ")[1].split(" */")[0].split(": ")
        committed[(int(job_id), state)] += 1
    assert set(committed.values()) == {1}
    events = cluster.store.events()
    states = [(e.job_id, e.detail) for e in events if e.what == "state"]
    assert len(states) == len(set(states)) == len(committed)
    epochs = [e.epoch for e in events]
    assert epochs == sorted(epochs)
    # reorg resumed from its checkpoint: no batch started before a checkpoint recorded earlier
    # (a checkpoint is [last row done, last row to do]; rows compare as the store orders them)
    recorded: dict[int, list[tuple[float, str]]] = defaultdict(list)
    for e in events:
        if e.what == "checkpoint" and "done" not in e.detail:
            _, eid, cp = e.detail.split(" ", 2)
            recorded[int(eid)].append((e.at, ast.literal_eval(cp)[0]))
    redone = []
    for line in batch_log.read_text().splitlines():
        started, _pid, eid, start, _end = line.split("\t")
        after = ast.literal_eval(start)[0] if start != "None" else None
        before = [cp for t, cp in recorded[int(eid)] if t < float(started)]
        if before and (after is None or after < max(before)):
            redone.append(line)
    assert not redone, redone[:5]
    batches = len(batch_log.read_text().splitlines())
    print(
        f"\nowners killed {kills}x; {len(history)} jobs done once each; {len(committed)} states "
        f"committed once each; {batches} reorg batches, none redone after its checkpoint"
    )
    # the data is consistent with the final schema, the dropped indexes' entries gone
    assert rows.anomalies(cat.table("t")) == []
    assert rows.count(cat.table("t")) > 1000
    rows.close()
    cat.close()
