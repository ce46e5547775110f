"""Jobs, the owner lease with fencing, node version sync, reorg checkpoints and background
deletion, in one process with a clock the tests drive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mvdd import Catalog, CatalogError, DDLError, FencedError, StaleSchemaError
from mvdd.online import Cluster, State
from mvdd.online.cluster import OWNER
from mvdd.store.base import Guard, JobUpdate


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(params=["memory", "sqlite"])
def cat(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    c = Catalog() if request.param == "memory" else Catalog.open(str(tmp_path / "c.db"))
    c.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT, KEY kb (b))")
    yield c
    c.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def drive(
    cluster: Cluster, owner: Any, nodes: list[Any], clock: Clock, *, limit: int = 200
) -> list[str]:
    """Step the owner, nodes reloading between steps, until the queue is empty."""
    seen = []
    for _ in range(limit):
        for n in nodes:
            n.reload()
        outcome = owner.step()
        seen.append(outcome)
        clock.tick(0.01)
        if outcome == "idle":
            return seen
    raise AssertionError(f"no progress: {seen[-10:]}")


def element_states(cat: Catalog, kind: str, name: str) -> list[str]:
    out = []
    for change in cat.history("t")[1:]:
        table = cat.table("t", version=change.version)
        el = table.find_column(name) if kind == "column" else table.find_index(name)
        out.append(el.state.value if el is not None else "absent")
    return out


def test_an_add_index_job_walks_every_state(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    node = cluster.node("n1")
    job = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    assert job.status == "queued" and cluster.jobs() == [job]
    batches: list[Any] = []

    def reorg(table: Any, element: Any, checkpoint: Any) -> Any:
        batches.append(checkpoint)
        return None if len(batches) == 3 else len(batches)

    drive(cluster, cluster.owner(reorg=reorg), [node], clock)
    assert element_states(cat, "index", "ka") == [
        "delete_only",
        "write_only",
        "write_reorg",
        "public",
    ]
    assert batches == [None, 1, 2]  # each batch resumes from the last checkpoint
    (done,) = [j for j in cluster.history() if j.kind == "ddl"]
    assert (done.status, done.state) == ("done", "public")
    assert not cluster.jobs()


def test_jobs_run_in_submission_order_one_at_a_time(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    first = cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    second = cluster.submit("ALTER TABLE t ADD INDEX kc (a)")
    third = cluster.submit("ALTER TABLE t MODIFY a BIGINT")
    drive(cluster, cluster.owner(), [cluster.node("n")], clock)
    order = [int(c.statement.split("job ")[1].split(":")[0]) for c in cat.history("t")[1:]]
    assert order == sorted(order) == [first.id] * 4 + [second.id] * 4 + [third.id]
    assert cat.table("t").column("a").type.kind == "BIGINT"


def test_a_failed_statement_fails_its_job(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    second = cluster.submit("ALTER TABLE t ADD COLUMN d INT")
    cat.execute("ALTER TABLE t ADD COLUMN d INT")  # behind the cluster's back
    drive(cluster, cluster.owner(), [], clock)
    failed = cluster.job(second.id)
    assert failed.status == "failed" and "duplicate column" in (failed.error or "")
    with pytest.raises(DDLError):
        cluster.submit("ALTER TABLE t ADD COLUMN a INT")
    with pytest.raises(CatalogError):
        cluster.job(999)


def test_the_owner_waits_for_live_nodes(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    fast, slow = cluster.node("fast"), cluster.node("slow")
    fast.reload(), slow.reload()
    cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    owner = cluster.owner()
    assert owner.step() == "started"
    assert owner.step() == "state"  # delete-only: nothing to wait for before the first state
    fast.reload()
    assert owner.step() == "waiting"  # slow still has the version before
    clock.tick(0.5)
    assert owner.step() == "waiting"
    slow.reload()
    assert owner.step() == "state"
    # a node that stops reloading refuses to serve after a lease, and stops counting after 2
    fast.reload()
    assert owner.step() == "waiting"
    clock.tick(1.01)
    with pytest.raises(StaleSchemaError):
        slow.table("t")
    assert fast.is_serving() is False
    fast.reload()
    assert owner.step() == "waiting"  # slow reported 1.01 s ago: still live
    clock.tick(1.0)
    fast.reload()
    assert [n.node_id for n in cluster.live_nodes()] == ["fast"]
    assert owner.step() in ("state", "reorg")
    slow.reload()
    assert slow.table("t").find_column("c") is not None


def test_two_adjacent_versions_at_most(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    nodes = [cluster.node(f"n{i}") for i in range(3)]
    for n in nodes:
        n.reload()
    cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    owner = cluster.owner()
    for i in range(60):
        nodes[i % 3].reload()  # one node at a time catches up
        owner.step()
        served = [n.table("t").find_index("ka") for n in nodes]
        states = {el.state if el is not None else State.ABSENT for el in served}
        assert len(states) <= 2
        if len(states) == 2:
            a, b = states
            from mvdd.online import may_coexist

            assert may_coexist(a, b, change="add")


def test_a_former_owner_is_fenced(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    a, b = cluster.owner(owner_id="a"), cluster.owner(owner_id="b")
    assert a.step() == "started" and b.step() == "follower"
    epoch_a = a.epoch
    assert epoch_a is not None
    clock.tick(1.5)  # a stalls past its lease; b takes over
    assert b.step() == "state" and b.epoch == epoch_a + 1
    stale = Guard(OWNER, "a", epoch_a, clock())
    with pytest.raises(FencedError):
        cat.commit_table("t", cat.table("t"), statement="late", guard=stale)
    job = cluster.store.jobs()[0]
    with pytest.raises(FencedError):
        cluster.store.update_job(JobUpdate(job.id, "running", "queue", {}), stale)
    assert a.step() == "follower"
    drive(cluster, b, [], clock)
    assert element_states(cat, "column", "c") == [
        "delete_only",
        "write_only",
        "write_reorg",
        "public",
    ]
    owners = {(e.owner, e.epoch) for e in cluster.store.events() if e.what == "state"}
    assert owners == {("b", epoch_a + 1)}


def test_reorg_resumes_from_its_checkpoint_under_a_new_owner(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    calls: list[tuple[str, Any]] = []

    def reorg_by(who: str) -> Any:
        def reorg(table: Any, element: Any, checkpoint: Any) -> Any:
            calls.append((who, checkpoint))
            nxt = (checkpoint or 0) + 10
            return None if nxt >= 50 else nxt

        return reorg

    a = cluster.owner(reorg=reorg_by("a"), owner_id="a")
    for _ in range(6):  # start, three states, two batches
        a.step()
    assert calls == [("a", None), ("a", 10)]
    clock.tick(2.0)  # a dies
    b = cluster.owner(reorg=reorg_by("b"), owner_id="b")
    drive(cluster, b, [], clock)
    assert calls == [("a", None), ("a", 10), ("b", 20), ("b", 30), ("b", 40)]


def test_cancel(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    queued = cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    assert cluster.cancel(queued.id).status == "cancelled"
    running = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    cleaned: list[Any] = []
    owner = cluster.owner(
        reorg=lambda t, e, c: 1 if c is None else None,
        cleanup=lambda t, e, c: cleaned.append(e.name),
    )
    for _ in range(4):  # start, delete-only, write-only, write-reorg
        owner.step()
    index = cat.table("t").find_index("ka")
    assert index is not None and index.state == State.WRITE_REORG
    cluster.cancel(running.id)
    drive(cluster, owner, [], clock)
    assert cluster.job(running.id).status == "rolled_back"
    # back through the drop path: write-reorg -> delete-only -> delete-reorg -> absent
    assert element_states(cat, "index", "ka") == [
        "delete_only",
        "write_only",
        "write_reorg",
        "delete_only",
        "delete_reorg",
        "absent",
    ]
    assert cleaned == ["ka"]  # its entries deleted after its metadata was gone


def test_an_add_cancelled_before_its_first_state_leaves_nothing_to_clean(
    cat: Catalog, clock: Clock
) -> None:
    """Found by the online state machine: an add cancelled after it started, before any
    version held its index, rolled back with a cleanup of the index id it had planned. No
    version held that id, so the next add took it, and the cleanup then deleted the new
    index's entries."""
    cluster = Cluster(cat, lease=1.0, clock=clock)
    cleaned: list[str] = []
    owner = cluster.owner(
        reorg=lambda t, e, c: None, cleanup=lambda t, e, c: cleaned.append(e.name)
    )
    first = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    assert owner.step() == "started" and cat.table("t").find_index("ka") is None
    cluster.cancel(first.id)
    cluster.submit("ALTER TABLE t ADD INDEX kc (a, b)")
    drive(cluster, owner, [], clock)
    assert cluster.job(first.id).status == "rolled_back"
    index = cat.table("t").find_index("kc")
    assert index is not None and index.state == State.PUBLIC
    assert cleaned == []  # nothing of the cancelled add ever existed
    assert [j.kind for j in cluster.history()] == ["ddl", "ddl"]


def test_a_statement_run_directly_after_a_job_started_is_planned_around(
    cat: Catalog, clock: Clock
) -> None:
    """The job plans its first state on the table that state changes: a column added directly
    meanwhile took the id the job had planned for its index, which must neither be taken for
    the column nor leave the index public at once."""
    cluster = Cluster(cat, lease=1.0, clock=clock)
    owner = cluster.owner(reorg=lambda t, e, c: None)
    job = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    assert owner.step() == "started"
    cat.execute("ALTER TABLE t ADD COLUMN z INT")
    drive(cluster, owner, [], clock)
    assert cluster.job(job.id).status == "done"
    assert element_states(cat, "index", "ka") == [
        "absent",  # the column added directly
        "delete_only",
        "write_only",
        "write_reorg",
        "public",
    ]
    assert element_states(cat, "column", "z")[1:] == ["public"] * 4
    final = cat.table("t")
    ids = [c.id for c in final.columns] + [i.id for i in final.indexes]
    assert len(set(ids)) == len(ids) == 7


def test_a_job_a_direct_statement_made_impossible_fails_cleanly(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    owner = cluster.owner()
    job = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")
    assert owner.step() == "started"
    cat.execute("ALTER TABLE t ADD INDEX ka (b)")
    before = cat.version("t")
    assert owner.step() == "done" and owner.step() == "idle"
    failed = cluster.job(job.id)
    assert failed.status == "failed" and "duplicate index name" in (failed.error or "")
    assert cat.version("t") == before


def test_a_reorg_that_keeps_failing_rolls_back(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    job = cluster.submit("ALTER TABLE t ADD INDEX ka (a)")

    def broken(table: Any, element: Any, checkpoint: Any) -> Any:
        raise OSError("disk full")

    drive(cluster, cluster.owner(reorg=broken), [], clock)
    failed = cluster.job(job.id)
    assert (
        failed.status == "failed"
        and failed.error_count == 3
        and "disk full" in (failed.error or "")
    )
    assert cat.table("t").find_index("ka") is None


def test_drop_then_background_cleanup(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    cluster.submit("ALTER TABLE t DROP INDEX kb")
    log: list[str] = []

    def cleanup(table: Any, element: Any, checkpoint: Any) -> Any:
        assert cat.table("t").find_index("kb") is None  # the metadata is already gone
        log.append(f"{element.name}@{checkpoint}")
        return None if checkpoint == 1 else (checkpoint or 0) + 1

    drive(cluster, cluster.owner(cleanup=cleanup), [], clock)
    assert element_states(cat, "index", "kb") == [
        "write_only",
        "delete_only",
        "delete_reorg",
        "absent",
    ]
    assert log == ["kb@None", "kb@1"]
    kinds = [(j.kind, j.status) for j in cluster.history()]
    assert kinds == [("ddl", "done"), ("cleanup", "done")]


def test_metadata_locks_hold_acknowledgement(cat: Catalog, clock: Clock) -> None:
    cluster = Cluster(cat, lease=1.0, clock=clock)
    node = cluster.node("n", mdl=True)
    node.reload()
    cluster.submit("ALTER TABLE t ADD COLUMN c INT")
    owner = cluster.owner()
    owner.step(), owner.step()  # started, delete-only committed
    with node.use() as version:
        node.reload()
        assert node.acknowledged == version < node.version
        assert owner.step() == "waiting"  # a transaction still uses the version before
    node.reload()
    assert owner.step() == "state"
