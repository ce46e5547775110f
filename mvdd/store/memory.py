"""An in-memory store: the default for tests and for catalogs that need no durability.

Several catalogs in one process may share one ``MemoryStore``; a lock serialises commits, and
the same compare-and-set rules as the durable stores apply, so the catalog code cannot tell the
difference.
"""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import attrs

from mvdd.errors import ConcurrentChangeError, FencedError
from mvdd.store.base import (
    HISTORY,
    QUEUE,
    Changes,
    Commit,
    CommitResult,
    ElementRow,
    Event,
    Guard,
    JobRow,
    JobUpdate,
    Lease,
    NodeRow,
    Store,
    VersionRow,
    made,
)


class MemoryStore(Store):
    """Rows in Python lists, guarded by a lock. O(rows) memory; a commit appends its rows
    (O(rows in the commit)); :meth:`changes` reads the commits after a sequence number.

    The rows of all commits are kept in three flat lists, with where each commit's rows begin
    in each: a commit keeps no object of its own past its rows (every object a long-lived
    store holds is a visit at each of the interpreter's full garbage collections)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: every commit's rows, in commit order
        self._versions: list[VersionRow] = []
        self._opened: list[ElementRow] = []
        self._closed: list[tuple[tuple[int, str, int, int], int]] = []
        #: where commit n's rows begin in each list: at 3 (n - 1), 3 (n - 1) + 1 and + 2
        self._starts: list[int] = []
        self._heads: dict[int, int] = {}
        self._names: dict[str, int] = {}
        self._name_of: dict[int, str | None] = {}
        self._next_table_id = 1
        self._seq = 0
        self._leases: dict[str, Lease] = {}
        self._jobs: dict[int, JobRow] = {}
        self._nodes: dict[str, NodeRow] = {}
        self._events: list[Event] = []
        self._state: dict[str, str] = {}

    def last_seq(self) -> int:
        return self._seq

    def get_state(self, key: str) -> Any:
        text = self._state.get(key)
        return json.loads(text) if text is not None else None

    def set_state(self, key: str, value: Any) -> None:
        # kept as JSON text, so a caller never shares a mutable value with the store
        self._state[key] = json.dumps(value, sort_keys=True)

    def changes(self, after_seq: int) -> Changes:
        """The rows of the commits after ``after_seq``, each element row as it stands now (with
        the version a later commit ended it at), as a SQL store reads them."""
        with self._lock:
            starts = self._starts
            at = max(after_seq, 0) * 3
            if at >= len(starts):
                return Changes((), (), (), self._seq)
            closed = self._closed[starts[at + 2] :]
            ends = dict(closed)
            return Changes(
                tuple(self._versions[starts[at] :]),
                tuple(
                    r.ending(ends[r.key]) if r.key in ends else r
                    for r in self._opened[starts[at + 1] :]
                ),
                tuple(closed),
                self._seq,
            )

    def commit(self, commit: Commit) -> CommitResult:
        with self._lock:
            if commit.guard is not None:
                self._check_guard(commit.guard)
            expected = commit.expected
            for table_id, version in expected.items():
                if self._heads.get(table_id, 0) != version:
                    raise ConcurrentChangeError(
                        f"table id {table_id} moved to version {self._heads.get(table_id, 0)} "
                        f"while this statement was built on version {version}"
                    )
            for row in commit.versions:  # Commit.heads's check, without building its map
                if not commit.follows_head(row):
                    commit.heads({})  # raises, naming what is malformed
            ids = {tid: self._allocate() for tid in commit.names if tid < 0}
            # names move only for a new table or one the commit renames or drops
            moving = (
                {
                    ids.get(tid, tid): name
                    for tid, name in commit.names.items()
                    if self._name_of.get(ids.get(tid, tid)) != name
                }
                if ids or commit.renamed
                else {}
            )
            names = self._names
            if moving:  # names change: check the new ones on a copy, as a swap may pass a name on
                names = dict(names)
                for tid in moving:
                    old = self._name_of.get(tid)
                    if old is not None and names.get(old) == tid:
                        del names[old]
                for tid, name in moving.items():
                    if name is None:
                        continue
                    if name in names:
                        raise ConcurrentChangeError(f"table `{name}` already exists")
                    names[name] = tid
            self._seq += 1
            seq = self._seq
            rows = commit.committed(ids, seq)
            self._starts += (len(self._versions), len(self._opened), len(self._closed))
            self._versions += rows.versions
            self._opened += rows.opened
            self._closed += rows.closed
            heads = self._heads
            for row in rows.versions:
                heads[row.table_id] = row.version
            self._names = names
            self._name_of.update(moving)
            if commit.job is not None and commit.guard is not None:
                self._apply_job(commit.job, commit.guard)
            return made(CommitResult, (seq, ids, rows))

    def _allocate(self) -> int:
        tid = self._next_table_id
        self._next_table_id += 1
        return tid

    # -- coordination -------------------------------------------------------------------------

    def _check_guard(self, guard: Guard) -> None:
        lease = self._leases.get(guard.lease)
        if (
            lease is None
            or (lease.owner, lease.epoch) != (guard.owner, guard.epoch)
            or lease.expires <= guard.now
        ):
            raise FencedError(
                f"lease {guard.lease!r} is no longer held by {guard.owner!r} at epoch "
                f"{guard.epoch}: the write is refused"
            )

    def acquire_lease(self, name: str, owner: str, duration: float, now: float) -> Lease | None:
        with self._lock:
            lease = self._leases.get(name)
            if lease is not None and lease.owner == owner and lease.expires > now:
                epoch = lease.epoch
            elif lease is None or lease.expires <= now:
                epoch = (lease.epoch if lease is not None else 0) + 1
            else:
                return None
            self._leases[name] = Lease(name, owner, epoch, now + duration)
            return self._leases[name]

    def release_lease(self, name: str, owner: str, epoch: int) -> None:
        with self._lock:
            lease = self._leases.get(name)
            if lease is not None and (lease.owner, lease.epoch) == (owner, epoch):
                self._leases[name] = attrs.evolve(lease, expires=0.0)

    def read_lease(self, name: str) -> Lease | None:
        return self._leases.get(name)

    def add_job(
        self, kind: str, table: str, sql: str, payload: dict[str, Any], now: float
    ) -> JobRow:
        with self._lock:
            job_id = max(self._jobs, default=0) + 1
            row = JobRow(
                job_id, kind, table, sql, "queued", QUEUE, copy.deepcopy(payload), False, now, now
            )
            self._jobs[job_id] = row
            return row

    def jobs(self, queue: str = QUEUE) -> list[JobRow]:
        with self._lock:
            return [copy.deepcopy(j) for _, j in sorted(self._jobs.items()) if j.queue == queue]

    def job(self, job_id: int) -> JobRow | None:
        row = self._jobs.get(job_id)
        return copy.deepcopy(row) if row is not None else None

    def update_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        with self._lock:
            self._check_guard(guard)
            return self._apply_job(update, guard)

    def _apply_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        row = attrs.evolve(
            self._jobs[update.id],
            status=update.status,
            queue=update.queue,
            payload=copy.deepcopy(update.payload),
            updated=guard.now,
        )
        self._jobs[update.id] = row
        if update.event is not None:
            what, detail = update.event
            self._events.append(Event(update.id, guard.now, guard.owner, guard.epoch, what, detail))
        return copy.deepcopy(row)

    def request_cancel(self, job_id: int, now: float) -> JobRow | None:
        with self._lock:
            row = self._jobs.get(job_id)
            if row is None:
                return None
            if row.status == "queued":
                row = attrs.evolve(row, status="cancelled", queue=HISTORY, cancel=True, updated=now)
            elif row.queue == QUEUE:
                row = attrs.evolve(row, cancel=True, updated=now)
            self._jobs[job_id] = row
            return copy.deepcopy(row)

    def report_node(self, node_id: str, version: int, now: float) -> None:
        with self._lock:
            self._nodes[node_id] = NodeRow(node_id, version, now)

    def nodes(self) -> list[NodeRow]:
        with self._lock:
            return sorted(self._nodes.values(), key=lambda n: n.node_id)

    def events(self, job_id: int | None = None) -> list[Event]:
        with self._lock:
            return [e for e in self._events if job_id is None or e.job_id == job_id]

    @property
    def description(self) -> str:
        return "memory"
