"""The store interface: durable storage of the catalog's records.

The catalog keeps, per table, one *version row* per version and one *element row* per element
definition with a half-open version range ``[since, until)`` (seed 004): storage grows with
the number of changes, not with changes × columns. A store persists these rows and applies one
statement's rows as one atomic :class:`Commit`, which also checks that no other writer moved
the tables first (compare-and-set on each table's head version).

Every commit gets the next catalog-wide sequence number ``seq``; :meth:`Store.changes` returns
what was committed after a given ``seq``, so a catalog picks up other processes' commits with
one small query (:meth:`Store.last_seq`) when nothing changed.

A store also keeps what the online schema change (:mod:`mvdd.online`) coordinates through it:
*leases* (compare-and-set on owner and expiry; a new holder gets a new epoch), *jobs* in a queue
and a history queue, the schema version each *node* last loaded, and an audit log of *events*.
A :class:`Guard` fences a write: it lands only while its owner still holds the lease at that
epoch, in the same transaction as the write.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs

from mvdd.ddl.step import Step
from mvdd.errors import StoreError

#: the element kinds a table version is made of ("table" is the table's own metadata)
KINDS = ("table", "column", "index", "check")
#: ``until`` of an element row that is still live
OPEN = None
#: a row made from all its fields in order: ``made(VersionRow, (…))`` is ``VersionRow(…)``
#: without the Python call of a named tuple's ``__new__`` (the rows, the commit and its result
#: are made several times per statement; a test holds each site to its class's constructor)
made = tuple.__new__


class VersionRow(NamedTuple):
    """One version of one table. (Rows are named tuples, not attrs values: the catalog makes
    several per statement and a tuple is several times cheaper to build.)"""

    table_id: int
    version: int
    name: str
    statement: str
    steps: tuple[Step, ...]
    position: object
    at: float
    dropped: bool = False
    seq: int = 0

    def committed(self, table_id: int, seq: int) -> VersionRow:
        """This row as committed: under its real table id, with its sequence number."""
        # (positional construction: several times cheaper than _replace, on the commit path)
        _, version, name, statement, steps, position, at, dropped, _ = self
        return made(
            VersionRow, (table_id, version, name, statement, steps, position, at, dropped, seq)
        )


class ElementRow(NamedTuple):
    """One definition of one element, live for versions ``since <= v < until``.

    ``prev`` is the id of the element before it (0: first), so a column move or a column added
    FIRST changes O(1) rows, not every later column's position."""

    table_id: int
    kind: str
    element_id: int
    since: int
    until: int | None
    value: object
    prev: int = 0

    @property
    def key(self) -> tuple[int, str, int, int]:
        return (self.table_id, self.kind, self.element_id, self.since)

    def ending(self, until: int | None, table_id: int | None = None) -> ElementRow:
        """This row live until ``until`` (None: still live), under ``table_id`` if given."""
        own, kind, element_id, since, _, value, prev = self
        return ElementRow(
            own if table_id is None else table_id, kind, element_id, since, until, value, prev
        )


@attrs.frozen
class Lease:
    """Who holds a named lease, at which epoch, until when (seconds since the epoch)."""

    name: str
    owner: str
    epoch: int
    expires: float


@attrs.frozen
class Guard:
    """A fencing token: the write it goes with lands only if ``owner`` still holds ``lease`` at
    ``epoch`` and the lease has not expired at ``now``."""

    lease: str
    owner: str
    epoch: int
    now: float


@attrs.frozen
class JobRow:
    """A job in the queue or the history queue. ``payload`` is JSON data the job's runner
    keeps (state, checkpoint, error count ...); ``cancel`` is set by a cancel request."""

    id: int
    kind: str
    table: str
    sql: str
    status: str
    queue: str
    payload: dict[str, Any]
    cancel: bool
    submitted: float
    updated: float


@attrs.frozen
class JobUpdate:
    """A new status, queue and payload for a job, and optionally an event to log with it."""

    id: int
    status: str
    queue: str
    payload: dict[str, Any]
    event: tuple[str, str] | None = None


@attrs.frozen
class NodeRow:
    """The schema version a node last loaded, and when it said so."""

    node_id: str
    version: int
    reported_at: float


@attrs.frozen
class Event:
    """One line of a job's audit log, written with the change it describes."""

    job_id: int
    at: float
    owner: str
    epoch: int
    what: str
    detail: str


#: the queues a job moves through
QUEUE, HISTORY = "queue", "history"


class Commit(NamedTuple):
    """One statement's effect. Table ids < 0 are placeholders for new tables: the store assigns
    real ids and reports them in :class:`CommitResult`.

    Attributes:
        versions: the new version rows (one per table the statement touched).
        opened: new element rows.
        closed: (table_id, kind, element_id, since) of live rows that end at their table's new
            version.
        expected: for each existing table touched, the head version the writer built on.
        names: for each table touched, its name after the commit (None: dropped); stores keep
            live names unique.
        guard: when set, the commit lands only under this lease (else FencedError).
        job: a job update that lands in the same transaction (an online step and its record).
        renamed: the existing tables whose name the commit changes (renamed or dropped); a SQL
            store moves their live names and leaves the others' rows alone.

    The compare-and-set: each existing table's version row is ``expected + 1``, and a store
    keeps one row per (table, version), so a version another writer committed first refuses
    the commit.
    """

    versions: tuple[VersionRow, ...]
    opened: tuple[ElementRow, ...]
    closed: tuple[tuple[int, str, int, int], ...]
    expected: Mapping[int, int]
    names: Mapping[int, str | None]
    guard: Guard | None = None
    job: JobUpdate | None = None
    renamed: frozenset[int] = frozenset()

    def follows_head(self, row: VersionRow) -> bool:
        """Whether ``row`` is the version after the head it expects (a new table's row: any)."""
        return self.expected.get(row.table_id, row.version - 1) == row.version - 1

    def heads(self, ids: Mapping[int, int]) -> dict[int, int]:
        """Real table id -> the head version this commit sets (placeholder ids resolved by
        ``ids``). StoreError (before a store changes anything) when a table it names has no
        version row, or an existing table's version does not follow the head it expects: the
        version rows' key is the compare-and-set."""
        heads: dict[int, int] = {}
        expected = self.expected
        for v in self.versions:
            tid = v.table_id
            if not self.follows_head(v) or (tid > 0) != (tid in expected):
                raise StoreError("malformed commit: each existing table's version follows its head")
            heads[ids.get(tid, tid)] = v.version
        names = self.names
        if (
            len(heads) != len(names)
            or len(expected) != len(names) - len(ids)
            or any(ids.get(t, t) not in heads for t in names)
        ):
            raise StoreError("malformed commit: every table it names needs a version row")
        return heads

    def committed(self, ids: Mapping[int, int], seq: int) -> Changes:
        """This commit's rows as the store keeps them once it lands as ``seq``: under the real
        table ids (``ids`` maps the placeholders), each version row with its sequence number,
        each closed row's key with the version it ends at (its table's new version). Every
        store builds them here, and hands them back in :class:`CommitResult`."""
        if not ids and len(self.versions) == 1:  # (the common commit: one existing table)
            (row,) = self.versions
            until = row.version
            closed = tuple([(key, until) for key in self.closed])
            return made(Changes, ((row.committed(row.table_id, seq),), self.opened, closed, seq))
        heads = {v.table_id: v.version for v in self.versions}
        versions = tuple(v.committed(ids.get(v.table_id, v.table_id), seq) for v in self.versions)
        opened = (
            tuple(e.ending(None, ids[e.table_id]) if e.table_id < 0 else e for e in self.opened)
            if ids  # a new table's elements take its real id
            else self.opened
        )
        # (only an existing table's rows close: their keys hold real ids already)
        closed = tuple([(key, heads[key[0]]) for key in self.closed])
        return Changes(versions, opened, closed, seq)


class Changes(NamedTuple):
    """Rows committed after some ``seq``, up to ``last_seq`` (versions in commit order)."""

    versions: tuple[VersionRow, ...]
    opened: tuple[ElementRow, ...]
    closed: tuple[tuple[tuple[int, str, int, int], int], ...]  # (key, until)
    last_seq: int


class CommitResult(NamedTuple):
    """A landed commit: its sequence number, the ids the store gave its new tables
    (placeholder -> real) and its rows as committed (:meth:`Commit.committed`). (A commit,
    its rows and its result are named tuples, as the rows are: made once per statement, and
    a tuple is about half the cost of a frozen value to build.)"""

    seq: int
    ids: Mapping[int, int]
    rows: Changes


class Store(abc.ABC):
    """Where a catalog's rows live. Implementations: :class:`~mvdd.store.memory.MemoryStore`,
    :class:`~mvdd.store.sqlite.SQLiteStore`."""

    @abc.abstractmethod
    def last_seq(self) -> int:
        """The sequence number of the newest commit (0: none). One small query."""

    @abc.abstractmethod
    def changes(self, after_seq: int) -> Changes:
        """Everything committed after ``after_seq``."""

    @abc.abstractmethod
    def commit(self, commit: Commit) -> CommitResult:
        """Apply one statement atomically.

        Raises:
            ConcurrentChangeError: a table's head is not the expected version, or a new name
                is already taken: another writer committed first; nothing is applied.
            StoreError: the store failed; nothing is applied.
        """

    # -- small durable values -------------------------------------------------------------------

    @abc.abstractmethod
    def get_state(self, key: str) -> Any:
        """The JSON value kept under ``key`` (None if none): what a process reading a log beside
        the catalog must remember with it (a binlog reader's checkpoint)."""

    @abc.abstractmethod
    def set_state(self, key: str, value: Any) -> None:
        """Keep a JSON value under ``key``, replacing the one before (one atomic write)."""

    # -- coordination (online schema change) ---------------------------------------------------

    @abc.abstractmethod
    def acquire_lease(self, name: str, owner: str, duration: float, now: float) -> Lease | None:
        """Take the lease if it is free or expired (a new epoch), or renew it if ``owner`` holds
        it (same epoch); None if someone else holds it."""

    @abc.abstractmethod
    def release_lease(self, name: str, owner: str, epoch: int) -> None:
        """Let the lease go at once, if ``owner`` still holds it at ``epoch``."""

    @abc.abstractmethod
    def read_lease(self, name: str) -> Lease | None:
        """The lease's current holder (possibly expired), or None if never taken."""

    @abc.abstractmethod
    def add_job(
        self, kind: str, table: str, sql: str, payload: dict[str, Any], now: float
    ) -> JobRow:
        """Queue a job; ids increase in submission order."""

    @abc.abstractmethod
    def jobs(self, queue: str = QUEUE) -> list[JobRow]:
        """The jobs in a queue, oldest first."""

    @abc.abstractmethod
    def job(self, job_id: int) -> JobRow | None:
        """One job, in whichever queue."""

    @abc.abstractmethod
    def update_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        """Record a job's progress under ``guard`` (FencedError if the lease was lost)."""

    @abc.abstractmethod
    def request_cancel(self, job_id: int, now: float) -> JobRow | None:
        """Ask for a job to be cancelled: a queued one moves to the history at once
        (``cancelled``); a running one is flagged for its runner. None: no such job."""

    @abc.abstractmethod
    def report_node(self, node_id: str, version: int, now: float) -> None:
        """A node says which schema version it has loaded."""

    @abc.abstractmethod
    def nodes(self) -> list[NodeRow]:
        """Every node that ever reported."""

    @abc.abstractmethod
    def events(self, job_id: int | None = None) -> list[Event]:
        """The audit log (of one job), oldest first."""

    def close(self) -> None:  # noqa: B027 - an optional hook: stores without resources keep it
        """Release the store's resources."""

    @property
    def description(self) -> str:
        """Where the store is, for messages (never credentials)."""
        return type(self).__name__
