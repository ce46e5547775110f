"""Online schema change over a catalog's store: DDL jobs, one owner elected by lease, nodes that
report the schema version they loaded, resumable reorg and background deletion (seeds 001, 002).

* **Jobs** live in the store: a queue and a history queue. They run one at a time, in
  submission order (so one at a time per table). A job's progress (the state it reached, its
  reorg checkpoint, its error count) is recorded in the same store transaction as the schema
  version it commits, so a crash leaves them consistent.
* **One owner** runs jobs: it holds the lease row ``ddl-owner`` (compare-and-set on owner and
  expiry; each new holder gets a new epoch), renews it at every step, and every write it makes
  carries a :class:`~mvdd.store.base.Guard`: once another process has taken the lease over, the
  former owner's writes are refused (:class:`~mvdd.errors.FencedError`), so no step is ever
  committed by two owners.
* **Nodes** (the serving processes) reload the schema at least once per lease and report the
  catalog-wide version (:attr:`~mvdd.catalog.Catalog.seq`) they loaded. The owner commits the next
  state only when every live node has acknowledged the current one; a node that has not reported
  for 2 × lease is not live (and, having missed its lease, refuses to serve:
  :class:`~mvdd.errors.StaleSchemaError`). So at most two adjacent versions serve at any time.
  With ``mdl=True`` a node does not acknowledge a version while one of its transactions
  (:meth:`Node.use`) still works on an older one, as MySQL's metadata locks make DDL wait.
* **Reorg** runs in WRITE_REORG through the data layer's callback ``reorg(table, element,
  checkpoint) -> checkpoint | None``, one batch per call; the checkpoint is recorded after each
  batch, so a crash or a new owner resumes from it. Dropped elements' data (and a rolled-back
  add's) is deleted after their metadata is gone, by a background job calling ``cleanup`` the
  same way.
* A cancelled add rolls back through the drop path (``rolled_back``); an add whose reorg fails
  three times does too (``failed``). A drop past PUBLIC runs to its end.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from enum import Enum, StrEnum
from typing import Any, Final

import attrs

from mvdd.catalog import Catalog
from mvdd.ddl.statement import parse_statements
from mvdd.errors import (
    CatalogError,
    ConcurrentChangeError,
    FencedError,
    MvddError,
    NoSuchTableError,
    StaleSchemaError,
    StoreError,
)
from mvdd.model import Column, ElementKind, Index, State, Table
from mvdd.online.plan import ROLLBACK, Change, Direction, change_of, next_version
from mvdd.store.base import HISTORY, QUEUE, Guard, JobRow, JobUpdate

#: the lease the owner holds
OWNER: Final = "ddl-owner"
#: reorg errors after which an add rolls back
MAX_ERRORS: Final = 3

Element = Column | Index


class Step(StrEnum):
    """What one step of the owner did."""

    FOLLOWER = "follower"  # another process holds the lease
    FENCED = "fenced"  # the lease was lost mid-step
    IDLE = "idle"  # nothing queued
    WAITING = "waiting"  # nodes have not all loaded the last state (or the store was busy)
    STARTED = "started"  # a job began
    STATE = "state"  # a job's elements moved to their next state
    REORG = "reorg"  # one backfill batch
    CLEANUP = "cleanup"  # one batch of background deletion
    DONE = "done"  # a job ended


class Rest(Enum):
    """How long the owner rests before its next step."""

    NONE = "none"
    IDLE = "idle"  # a fraction of the lease: nothing to do yet
    BATCH = "batch"  # the reorg pause: leave the data layer to the DML between batches


#: the rest after each kind of step
REST: Final = {
    Step.FOLLOWER: Rest.IDLE,
    Step.FENCED: Rest.IDLE,
    Step.IDLE: Rest.IDLE,
    Step.WAITING: Rest.IDLE,
    Step.STARTED: Rest.NONE,
    Step.STATE: Rest.NONE,
    Step.REORG: Rest.BATCH,
    Step.CLEANUP: Rest.BATCH,
    Step.DONE: Rest.NONE,
}
#: ``reorg(table, element, checkpoint) -> new checkpoint | None`` (None: done)
Reorg = Callable[[Table, Element, Any], Any]


@attrs.frozen
class Job:
    """A DDL job as the store records it.

    Attributes:
        id: its number; ids increase in submission order.
        sql: the statement.
        table: the table it changes.
        status: ``queued``, ``running``, ``done``, ``cancelled``, ``rolled_back`` or ``failed``.
        state: the state its elements reached (None before the first).
        error: the last error, if any; ``error_count`` how many there were.
        checkpoint: where the reorg (or the cleanup) got to.
        kind: ``ddl``, or ``cleanup`` for background deletion.
    """

    id: int
    sql: str
    table: str
    status: str
    state: str | None
    error: str | None
    error_count: int
    checkpoint: Any
    kind: str = "ddl"

    @classmethod
    def of(cls, row: JobRow) -> Job:
        p = row.payload
        return cls(
            id=row.id,
            sql=row.sql,
            table=row.table,
            status=row.status,
            state=p.get("state"),
            error=p.get("error"),
            error_count=p.get("errors", 0),
            checkpoint=p.get("checkpoint"),
            kind=row.kind,
        )


class Cluster:
    """The online schema change of the catalog ``cat`` (a shared, durable store for several
    processes; one process may also run several nodes and owners over one catalog).

    Args:
        cat: the catalog (``Catalog.open(...)``).
        lease: the lease, in seconds: nodes reload at least this often; owners renew this often.
        clock: the time source (seconds; tests drive a fake one).
    """

    def __init__(
        self, cat: Catalog, *, lease: float = 1.0, clock: Callable[[], float] = time.time
    ) -> None:
        if not lease > 0:
            raise CatalogError(f"a lease is a positive number of seconds, not {lease!r}")
        self.cat = cat
        self.store = cat.store
        self.lease = float(lease)
        self.clock = clock

    # -- nodes and jobs ------------------------------------------------------------------------

    def node(self, node_id: str, *, mdl: bool = False) -> Node:
        """A serving node (call :meth:`Node.reload` before it serves)."""
        return Node(self, node_id, mdl=mdl)

    def submit(self, sql: str) -> Job:
        """Queue one ALTER for the owner (checked against the schema the queued jobs will
        leave, :meth:`projected`).

        Raises DDLError / UnsupportedDDLError as :func:`~mvdd.online.plan.change_of`, and
        NoSuchTableError.
        """
        self.cat.refresh()
        statements = parse_statements(sql)
        if len(statements) != 1 or not statements[0].steps:
            raise CatalogError("a job is one DDL statement", statement=sql)
        name = statements[0].steps[0].table
        change_of(self.projected(name), sql)
        row = self.store.add_job("ddl", name, sql, {"errors": 0}, self.clock())
        return Job.of(row)

    def projected(self, name: str) -> Table:
        """Table ``name`` as it will be once the jobs queued for it have run (a job that would
        not apply is left out: it will fail when its turn comes)."""
        table = self.cat.table(name)
        for row in self.store.jobs(QUEUE):
            if row.kind != "ddl" or row.table != name:
                continue
            with contextlib.suppress(MvddError):
                table = change_of(table, row.sql).final
        return table

    def job(self, job_id: int) -> Job:
        row = self.store.job(job_id)
        if row is None:
            raise CatalogError(f"no job {job_id}")
        return Job.of(row)

    def jobs(self) -> list[Job]:
        """The queue (jobs not finished), oldest first."""
        return [Job.of(r) for r in self.store.jobs(QUEUE)]

    def history(self) -> list[Job]:
        """Finished jobs, oldest first."""
        return [Job.of(r) for r in self.store.jobs(HISTORY)]

    def cancel(self, job_id: int) -> Job:
        """Cancel a job: a queued one at once; a running add is rolled back by the owner through
        the drop path (unless it already reached PUBLIC: then it ends ``done``). A running drop
        or a one-version change runs to its end."""
        row = self.store.request_cancel(job_id, self.clock())
        if row is None:
            raise CatalogError(f"no job {job_id}")
        return Job.of(row)

    def owner(
        self, *, reorg: Reorg | None = None, cleanup: Reorg | None = None, owner_id: str = ""
    ) -> Owner:
        """An owner candidate that works one step at a time (:meth:`Owner.step`)."""
        return Owner(self, reorg=reorg, cleanup=cleanup, owner_id=owner_id)

    def run_owner(
        self,
        *,
        until_idle: bool = True,
        reorg: Reorg | None = None,
        cleanup: Reorg | None = None,
        timeout: float | None = None,
        stop: threading.Event | None = None,
        reorg_pause: float = 0.0,
    ) -> None:
        """Campaign for ownership and run queued jobs state by state (and background cleanup).

        Returns when the queue is empty (``until_idle``), when ``stop`` is set, or after
        ``timeout`` seconds of the real clock (CatalogError). A process that loses ownership
        keeps campaigning. ``reorg_pause`` seconds between reorg (and cleanup) batches pace the
        backfill, leaving the data layer to the serving DML (TiDB tunes its reorg workers
        the same way).
        """
        owner = self.owner(reorg=reorg, cleanup=cleanup)
        start = time.monotonic()
        pause = min(self.lease / 10, 0.05)
        try:
            while stop is None or not stop.is_set():
                try:
                    outcome = owner.step()
                except (StoreError, ConcurrentChangeError):
                    outcome = Step.WAITING  # the store was busy or briefly away: try again
                if outcome == Step.IDLE and until_idle:
                    return
                if outcome == Step.FOLLOWER and until_idle and not self.store.jobs(QUEUE):
                    return
                if timeout is not None and time.monotonic() - start > timeout:
                    raise CatalogError(f"the owner did not finish within {timeout} s")
                # between steps: nothing to do, or leave the data layer to the DML between
                # reorg batches
                time.sleep({Rest.IDLE: pause, Rest.BATCH: reorg_pause}.get(REST[outcome], 0.0))
        finally:
            owner.resign()

    # -- version sync --------------------------------------------------------------------------

    def live_nodes(self, now: float | None = None) -> list[Any]:
        """Nodes that reported within 2 × lease."""
        now = self.clock() if now is None else now
        return [n for n in self.store.nodes() if n.reported_at > now - 2 * self.lease]

    def synced(self, version: int, now: float | None = None) -> bool:
        """Whether every live node has acknowledged schema version ``version``."""
        return all(n.version >= version for n in self.live_nodes(now))


class Node:
    """A serving process's view of the schema: the versions it loaded at its last reload."""

    def __init__(self, cluster: Cluster, node_id: str, *, mdl: bool = False) -> None:
        self.cluster = cluster
        self.node_id = node_id
        self.mdl = mdl
        self._loaded = 0
        self._versions: dict[str, int] = {}
        self._at: float | None = None
        self._pins: dict[int, int] = {}
        self._lock = threading.Lock()

    @property
    def version(self) -> int:
        """The schema version (catalog sequence number) this node loaded."""
        return self._loaded

    @property
    def acknowledged(self) -> int:
        """The version this node reports: the loaded one, or with ``mdl`` the oldest one a
        transaction of it still uses."""
        with self._lock:
            if self.mdl and self._pins:
                return min(self._loaded, min(self._pins))
            return self._loaded

    def reload(self) -> int:
        """Load the newest schema and report it; returns the version loaded. The serving
        process calls this at least once a lease."""
        cat = self.cluster.cat
        cat.refresh()
        now = self.cluster.clock()
        with self._lock:
            self._loaded = cat.seq
            self._versions = {name: cat.version(name) for name in cat.tables()}
            self._at = now
        self.cluster.store.report_node(self.node_id, self.acknowledged, now)
        return self._loaded

    def is_serving(self) -> bool:
        """Whether the node reloaded within its lease."""
        return self._at is not None and self.cluster.clock() - self._at <= self.cluster.lease

    def table(self, name: str) -> Table:
        """The table at this node's loaded version.

        Raises StaleSchemaError when the node missed its lease (until its next reload), and
        NoSuchTableError."""
        if not self.is_serving():
            raise StaleSchemaError(
                f"node {self.node_id!r} has not reloaded the schema within its lease "
                f"({self.cluster.lease} s): it must not serve",
                table=name,
            )
        version = self._versions.get(name)
        if version is None:
            raise NoSuchTableError("no such table at this node's schema version", table=name)
        return self.cluster.cat.table(name, version=version)

    @contextlib.contextmanager
    def use(self) -> Iterator[int]:
        """A transaction's hold on the loaded version (with ``mdl``, the node does not
        acknowledge newer versions until it ends); yields the version."""
        with self._lock:
            version = self._loaded
            self._pins[version] = self._pins.get(version, 0) + 1
        try:
            yield version
        finally:
            with self._lock:
                self._pins[version] -= 1
                if not self._pins[version]:
                    del self._pins[version]


class Owner:
    """One owner candidate. :meth:`step` does one unit of work and says what it did:
    ``follower`` (another process owns), ``idle``, ``waiting`` (for nodes to catch up),
    ``started``, ``state`` (committed one state), ``reorg`` (one batch), ``cleanup`` (one
    batch), ``done``, ``fenced`` (it lost the lease midway; nothing was written)."""

    def __init__(
        self,
        cluster: Cluster,
        *,
        reorg: Reorg | None = None,
        cleanup: Reorg | None = None,
        owner_id: str = "",
    ) -> None:
        self.cluster = cluster
        self.reorg = reorg
        self.cleanup = cleanup
        self.owner_id = owner_id or f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.epoch: int | None = None

    def resign(self) -> None:
        """Let the lease go (a clean stop: another candidate takes over at once)."""
        if self.epoch is not None:
            self.cluster.store.release_lease(OWNER, self.owner_id, self.epoch)
            self.epoch = None

    def step(self) -> Step:
        cluster = self.cluster
        store = cluster.store
        now = cluster.clock()
        lease = store.acquire_lease(OWNER, self.owner_id, cluster.lease, now)
        if lease is None:
            self.epoch = None
            return Step.FOLLOWER
        self.epoch = lease.epoch
        guard = Guard(OWNER, self.owner_id, lease.epoch, now)
        try:
            cluster.cat.refresh()
            queue = store.jobs(QUEUE)
            ddl = [j for j in queue if j.kind == "ddl"]
            if ddl:
                return self._run(ddl[0], guard)
            finished = {j.id: j for j in store.jobs(HISTORY)}
            for j in queue:
                if j.kind == "cleanup" and j.payload.get("after") in finished:
                    return self._clean(j, guard)
            return Step.IDLE
        except FencedError:
            self.epoch = None
            return Step.FENCED

    # -- one DDL job ---------------------------------------------------------------------------

    def _update(
        self,
        row: JobRow,
        guard: Guard,
        *,
        status: str | None = None,
        queue: str = QUEUE,
        event: tuple[str, str] | None = None,
        **payload: Any,
    ) -> JobRow:
        return self.cluster.store.update_job(
            JobUpdate(row.id, status or row.status, queue, {**row.payload, **payload}, event),
            guard,
        )

    def _run(self, row: JobRow, guard: Guard) -> Step:
        cat = self.cluster.cat
        p = row.payload
        if row.status == "queued":
            try:
                change = change_of(cat.table(row.table), row.sql)
            except MvddError as err:
                return self._fail(row, guard, err)
            row = self._update(
                row,
                guard,
                status="running",
                event=("start", change.direction),
                **_planned(change),
                stage=0,
                state=None,
                checkpoint=None,
                reorg_done=False,
                table_id=cat.table_id(row.table),
            )
            return Step.STARTED
        reached = State(p["state"]) if p["state"] else State.ABSENT
        if (
            row.cancel
            and p["direction"] == Direction.ADD
            and not p.get("rollback")
            and reached != State.PUBLIC  # once public, a cancel comes too late: the job is done
        ):
            state = reached
            back = [st.value for st in ROLLBACK.get(state, ())]
            self._update(
                row,
                guard,
                states=p["states"][: p["stage"]] + back,
                rollback="cancelled",
                event=("rollback", "cancelled"),
            )
            return Step.STATE
        table = cat.table(row.table)
        # every live node must have the current state before the next one (two versions at most)
        head = cat.history(row.table)[-1]
        if p["stage"] > 0 and not self.cluster.synced(head.seq, guard.now):
            return Step.WAITING
        if p["stage"] >= len(p["states"]):
            return self._finish(row, guard)
        current = State(p["state"]) if p["state"] else None
        if current == State.WRITE_REORG and not p["reorg_done"] and not p.get("rollback"):
            return self._reorg(row, table, guard)
        if p["stage"] == 0 and not p.get("rollback"):
            # planned again on the table the first state changes: a statement run directly
            # since the start may have taken the ids planned then, or made the job impossible
            try:
                change = change_of(table, row.sql)
            except MvddError as err:
                return self._fail(row, guard, err)
            p = {**p, **_planned(change)}
        else:
            change = self._change(row, table)
        target = State(p["states"][p["stage"]])
        new = next_version(table, change, target)
        statement = f"/* mvdd online job {row.id}: {target.value} */ {row.sql}"
        # the statement's steps go with the version where the schema really changes
        changes_here = (
            p["stage"] == 0 if change.direction == Direction.ADD else target == State.ABSENT
        )
        cat.commit_table(
            row.table,
            new,
            statement=statement,
            steps=change.steps if changes_here or change.direction == Direction.PLAIN else (),
            guard=guard,
            job=JobUpdate(
                row.id,
                "running",
                QUEUE,
                {**p, "stage": p["stage"] + 1, "state": target.value},
                ("state", target.value),
            ),
        )
        return Step.STATE

    def _fail(self, row: JobRow, guard: Guard, err: MvddError) -> Step:
        """The job's statement does not apply to the table: the job fails, nothing changed."""
        self._update(
            row, guard, status="failed", queue=HISTORY, error=str(err), event=("failed", str(err))
        )
        return Step.DONE

    def _now(self, guard: Guard) -> Guard:
        return attrs.evolve(guard, now=self.cluster.clock())

    def _schedule_cleanup(self, row: JobRow, guard: Guard) -> None:
        """Queue the background deletion of the data of what this job dropped (or of the add it
        rolled back), unless a crash left one queued already; it runs once the job is in the
        history, its metadata gone."""
        store = self.cluster.store
        if any(j.kind == "cleanup" and j.payload.get("after") == row.id for j in store.jobs()):
            return
        table_id = row.payload.get("table_id")
        store.add_job(
            "cleanup",
            row.table,
            row.sql,
            {
                "after": row.id,
                "elements": row.payload["elements"],
                "checkpoint": None,
                "table_id": table_id,
            },
            guard.now,
        )

    def _change(self, row: JobRow, table: Table) -> Change:
        p = row.payload
        elements = tuple((ElementKind(k), i) for k, i in p["elements"])
        if p.get("rollback"):  # an add rolled back walks the drop path, with no steps of its own
            return Change(row.table, Direction.DROP, (), table, elements)
        steps = parse_statements(row.sql)[0].steps
        return Change(row.table, Direction(p["direction"]), steps, table, elements)

    def _reorg(self, row: JobRow, table: Table, guard: Guard) -> Step:
        p = row.payload
        if self.reorg is None:
            self._update(row, guard, reorg_done=True, event=("reorg", "no data layer"))
            return Step.REORG
        pending = [e for e in p["elements"] if e not in p.get("reorged", [])]
        if not pending:
            self._update(row, guard, reorg_done=True, event=("reorg", "done"))
            return Step.REORG
        kind, eid = pending[0]
        element = _element(table, kind, eid)
        try:
            checkpoint = self.reorg(table, element, p["checkpoint"]) if element else None
        except Exception as err:
            guard = self._now(guard)  # the data layer's failure: counted, retried, then rolled back
            errors = p.get("errors", 0) + 1
            if errors >= MAX_ERRORS:
                state = State(p["state"])
                back = [st.value for st in ROLLBACK.get(state, ())]
                self._update(
                    row,
                    guard,
                    errors=errors,
                    error=f"{type(err).__name__}: {err}",
                    states=p["states"][: p["stage"]] + back,
                    rollback="failed",
                    event=("rollback", f"reorg failed {errors} times: {err}"),
                )
            else:
                self._update(
                    row,
                    guard,
                    errors=errors,
                    error=f"{type(err).__name__}: {err}",
                    event=("error", f"{type(err).__name__}: {err}"),
                )
            return Step.REORG
        guard = self._now(guard)  # the batch took time: the lease must still hold now
        self._progress(row, guard, kind, eid, checkpoint, done="reorged", what="checkpoint")
        return Step.REORG

    def _progress(
        self,
        row: JobRow,
        guard: Guard,
        kind: str,
        eid: int,
        checkpoint: Any,
        *,
        done: str,
        what: str,
    ) -> None:
        """Record one batch over an element: its checkpoint, or (None) the element added to the
        payload's ``done`` list."""
        payload: dict[str, Any] = {"checkpoint": checkpoint}
        if checkpoint is None:
            payload[done] = [*row.payload.get(done, []), [kind, eid]]
            event = (what, f"{kind} {eid} done")
        else:
            event = (what, f"{kind} {eid} {checkpoint!r}")
        self._update(row, guard, event=event, **payload)

    def _finish(self, row: JobRow, guard: Guard) -> Step:
        p = row.payload
        status = {"cancelled": "rolled_back", "failed": "failed"}.get(p.get("rollback", ""), "done")
        # an add rolled back before its first state committed left no version holding its
        # elements: no node wrote for them, and their planned ids were never taken (the next
        # add takes them, so a cleanup by id would delete that add's data)
        if p["direction"] == Direction.DROP or (p.get("rollback") and p["state"] is not None):
            self._schedule_cleanup(row, guard)
        self._update(row, guard, status=status, queue=HISTORY, event=(status, ""))
        return Step.DONE

    # -- background deletion ---------------------------------------------------------------------

    def _clean(self, row: JobRow, guard: Guard) -> Step:
        store = self.cluster.store
        ddl = store.job(row.payload["after"])
        dropped = ddl is not None and (
            ddl.payload.get("direction") == Direction.DROP or ddl.payload.get("rollback")
        )
        if not dropped or self.cleanup is None:
            self._update(row, guard, status="done", queue=HISTORY, event=("cleanup", "nothing"))
            return Step.CLEANUP
        assert ddl is not None
        table = self._before(ddl, row.payload.get("table_id"))
        pending = [e for e in row.payload["elements"] if e not in row.payload.get("cleaned", [])]
        if not pending or table is None:
            self._update(row, guard, status="done", queue=HISTORY, event=("cleanup", "done"))
            return Step.CLEANUP
        kind, eid = pending[0]
        element = _element(table, kind, eid)
        checkpoint = self.cleanup(table, element, row.payload["checkpoint"]) if element else None
        guard = self._now(guard)  # the batch took time: the lease must still hold now
        self._progress(row, guard, kind, eid, checkpoint, done="cleaned", what="cleanup")
        return Step.CLEANUP

    def _before(self, ddl: JobRow, tid: int | None) -> Table | None:
        """The table as it was while the dropped elements still existed."""
        cat = self.cluster.cat
        try:
            history = cat.history_by_id(tid) if tid else cat.history(ddl.table)
        except MvddError:
            return None
        for change in reversed(history):
            if change.dropped:
                continue
            table = cat.table_by_id(change.table_id, version=change.version)
            if any(_element(table, k, i) is not None for k, i in ddl.payload["elements"]):
                return table
        return None


def _planned(change: Change) -> dict[str, Any]:
    """A job's plan as its payload keeps it: direction, elements (ids included) and states."""
    return {
        "direction": change.direction,
        "elements": [list(e) for e in change.elements],
        "states": [st.value for st in change.states],
    }


def _element(table: Table, kind: str, eid: int) -> Element | None:
    return table.find_element(ElementKind(kind), eid)  # type: ignore[return-value]


__all__ = ["MAX_ERRORS", "OWNER", "Cluster", "Job", "Node", "Owner", "Reorg"]
