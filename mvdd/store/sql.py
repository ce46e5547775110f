"""The algorithm of the SQL stores, written once over a small :class:`Dialect`.

The SQLite store (:mod:`mvdd.store.sqlite`) and the MySQL / MariaDB store
(:mod:`mvdd.store.mysql`) keep the same tables and run the same statements: a commit numbers
itself by bumping the ``last_seq`` counter row (which serialises commits), compare-and-sets each
table's head version, renames in two passes, and writes version and element rows; leases are
compare-and-set rows, jobs move between a queue and a history queue, and a fenced write checks
its lease in the same transaction. What differs between the two servers is only spelling
(placeholders, ``INSERT IGNORE``, row locks, how a transaction starts) and connection handling;
:class:`Dialect` holds the spelling and each store subclass the connection.

Statements here are written with ``?`` placeholders and ``{name}`` for the store's table names;
:meth:`SQLStore._sql` renders them for the dialect once and remembers the result.
"""

from __future__ import annotations

import abc
import contextlib
import json
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Protocol

import attrs

from mvdd.errors import FencedError, StoreError
from mvdd.store import codec
from mvdd.store.base import (
    HISTORY,
    QUEUE,
    Changes,
    Commit,
    CommitResult,
    Event,
    Guard,
    JobRow,
    JobUpdate,
    Lease,
    NodeRow,
    Store,
    made,
)

#: the store's tables, by their unprefixed names
TABLES = ("meta", "tables", "versions", "elements", "leases", "jobs", "nodes", "events", "state")
#: the columns of a ``jobs`` row as :func:`mvdd.store.codec.job_row` reads them
JOB_COLUMNS = "id, kind, table_name, `sql`, status, queue, payload, cancel, submitted, updated"
_VERSION_COLUMNS = (
    "table_id",
    "version",
    "seq",
    "name",
    "statement",
    "steps",
    "position",
    "at",
    "dropped",
)
#: an ``elements`` row as :func:`mvdd.store.codec.element_changes` reads it, for the commits
#: after some sequence number (the first ``?``) up to another (the second), in key order; the
#: last column names the live row just before it when that row is older (one index seek each)
_ELEMENTS_AFTER = (
    "SELECT r.table_id, r.kind, r.element_id, r.since, r.prev, r.value, "
    f"(SELECT CASE WHEN p.value = '{codec.GONE}' THEN NULL ELSE p.since END FROM {{elements}} p "
    "WHERE p.table_id = r.table_id AND p.kind = r.kind AND p.element_id = r.element_id "
    "AND p.since < r.since ORDER BY p.since DESC LIMIT 1) "
    "FROM {elements} r WHERE r.opened_seq > ? AND r.opened_seq <= ? "
    "ORDER BY r.table_id, r.kind, r.element_id, r.since"
)
#: the same from the first commit on (every row's predecessor is among the rows)
_ELEMENTS_ALL = (
    "SELECT table_id, kind, element_id, since, prev, value, NULL FROM {elements} "
    "WHERE opened_seq > ? AND opened_seq <= ? ORDER BY table_id, kind, element_id, since"
)
#: what moves a store of an older format (:data:`mvdd.store.codec.UPGRADES`) to the current
#: one, in order; each statement can run again (a process killed between them, or several
#: processes opening the store at once): ``{ignore}`` is the dialect's INSERT IGNORE
_UPGRADE = (
    # format 3: an end row for each element row that a later version ended without a successor
    "{ignore} INTO {elements} (table_id, kind, element_id, since, prev, value, opened_seq) "
    f"SELECT e.table_id, e.kind, e.element_id, e.until, NULL, '{codec.GONE}', e.closed_seq "
    "FROM {elements} e WHERE e.until IS NOT NULL AND NOT EXISTS (SELECT 1 FROM {elements} n "
    "WHERE n.table_id = e.table_id AND n.kind = e.kind AND n.element_id = e.element_id "
    "AND n.since = e.until)",
)


#: a counter row moved by some amount (``{k}``, ``{v}``: the meta table's column names)
_BUMP = "UPDATE {meta} SET {v} = {v} + ? WHERE {k} = ?"
_BUMP_RETURNING = _BUMP + " RETURNING {v}"


@attrs.frozen
class Dialect:
    """How one SQL server spells what the store algorithm needs.

    Attributes:
        param: the driver's placeholder (``?`` or ``%s``).
        insert_ignore: an INSERT that skips a row whose key exists.
        lock_exclusive, lock_shared: the suffix of a SELECT that locks the rows it reads (empty
            where a write transaction already excludes every other writer, as in SQLite).
        begin_write: starts a read-write transaction.
        begin_read: starts a transaction that reads one consistent state.
        end_read: ends it.
        meta_key, meta_value: the column names of the ``meta`` table.
        update_returning: ``UPDATE … RETURNING`` exists (one round trip instead of two on the
            commit path).
    """

    param: str
    insert_ignore: str
    lock_exclusive: str
    lock_shared: str
    begin_write: str
    begin_read: str
    end_read: str
    meta_key: str
    meta_value: str
    update_returning: bool = False


class Cursor(Protocol):
    """The part of a DB-API cursor the algorithm uses."""

    @property
    def lastrowid(self) -> Any: ...

    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...


class Transaction:
    """One transaction of a :class:`SQLStore`, as a context manager: on entry the store's lock
    and a cursor are held and ``begin`` runs; the block gets the cursor; on a clean exit
    ``end`` runs, on an exception ROLLBACK (a failure of its own passed over: the exception
    that ended the block is the one raised); then the cursor and the lock are let go, also
    when ``end`` fails. A class rather than a generator's context manager: it is on every
    commit's path, where a generator's took 2.0 µs a transaction against this one's 0.86 (its
    statements aside)."""

    __slots__ = ("_begin", "_cur", "_cursor", "_end", "_store")

    def __init__(self, store: SQLStore, begin: str, end: str) -> None:
        self._store = store
        self._begin = begin
        self._end = end

    def __enter__(self) -> Cursor:
        lock = self._store._lock
        lock.acquire()
        try:
            self._cursor = cursor = self._store._cursor()
            self._cur = cur = cursor.__enter__()
        except BaseException:
            lock.release()
            raise
        try:
            cur.execute(self._begin)
        except BaseException as err:
            self._leave(type(err), err, err.__traceback__)
            raise
        return cur

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                self._cur.execute(self._end)
            else:
                with contextlib.suppress(Exception):
                    self._cur.execute("ROLLBACK")
        except BaseException as failed:
            self._leave(type(failed), failed, failed.__traceback__)
            raise
        self._leave(kind, err, tb)

    def _leave(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self._cursor.__exit__(kind, err, tb)
        finally:
            self._store._lock.release()


class SQLStore(Store):
    """A store over one SQL connection; subclasses give the dialect, the connection and the
    translation of driver errors."""

    dialect: Dialect

    def __init__(self, prefix: str = "") -> None:
        self._lock = threading.RLock()
        self._names = {name: f"`{prefix}{name}`" for name in TABLES}
        self._rendered: dict[str, str] = {}

    # -- what a subclass provides -------------------------------------------------------------

    @abc.abstractmethod
    def _cursor(self) -> contextlib.AbstractContextManager[Cursor]:
        """A cursor on the store's connection (opened if needed); every caller holds the
        store's lock."""

    @abc.abstractmethod
    def _wrap(self, what: str) -> contextlib.AbstractContextManager[None]:
        """Translate driver errors into ConcurrentChangeError (another writer got in the way)
        and StoreError (everything else), naming ``what`` was being done."""

    @abc.abstractmethod
    def _rowcount(self, cur: Cursor, result: Any) -> int:
        """The number of rows the last ``execute`` changed."""

    # -- statements ---------------------------------------------------------------------------

    def _sql(self, text: str) -> str:
        """``text`` with the dialect's placeholders, the store's table names and the meta
        table's column names (``{k}``, ``{v}``), rendered once and remembered."""
        done = self._rendered.get(text)
        if done is None:
            d = self.dialect
            done = text.replace("{k}", d.meta_key).replace("{v}", d.meta_value)
            done = done.format(**self._names)
            if d.param != "?":
                done = done.replace("?", d.param)
            self._rendered[text] = done
        return done

    def _run(self, cur: Cursor, text: str, params: Sequence[Any] = ()) -> int:
        return self._rowcount(cur, cur.execute(self._sql(text), params))

    def _one(self, cur: Cursor, text: str, params: Sequence[Any] = ()) -> Any:
        cur.execute(self._sql(text), params)
        return cur.fetchone()

    def _all(self, cur: Cursor, text: str, params: Sequence[Any] = ()) -> list[Any]:
        cur.execute(self._sql(text), params)
        return list(cur.fetchall())

    def _transaction(self, *, read_only: bool = False) -> Transaction:
        """A transaction on the store's connection (:class:`Transaction`): a read-only one
        reads one consistent state."""
        d = self.dialect
        if read_only:
            return Transaction(self, d.begin_read, d.end_read)
        return Transaction(self, d.begin_write, "COMMIT")

    def _counter(self, cur: Cursor, key: str) -> int:
        row = self._one(cur, "SELECT {v} FROM {meta} WHERE {k} = ?", [key])
        return int(row[0])

    def _bump(self, cur: Cursor, key: str, by: int) -> int:
        """Add ``by`` to a counter row and return its new value (the row stays locked until
        the transaction ends)."""
        if self.dialect.update_returning:
            return int(self._one(cur, _BUMP_RETURNING, [by, key])[0])
        self._run(cur, _BUMP, [by, key])
        return self._counter(cur, key)

    def _init_meta(self, cur: Cursor, where: str) -> None:
        """The counter rows of a new store (idempotent: processes opening a new store at once
        all succeed), and a check of the stored format."""
        self._run(
            cur,
            f"{self.dialect.insert_ignore} INTO {{meta}} ({{k}}, {{v}}) "
            "VALUES ('format', ?), ('next_table_id', 1), ('last_seq', 0)",
            [codec.FORMAT],
        )
        found = self._counter(cur, "format")
        if found in codec.UPGRADES:
            for statement in _UPGRADE:
                self._run(cur, statement.replace("{ignore}", self.dialect.insert_ignore))
            self._upgraded(cur)
            self._run(cur, "UPDATE {meta} SET {v} = ? WHERE {k} = 'format'", [codec.FORMAT])
        elif found != codec.FORMAT:
            raise StoreError(
                f"{where} holds store format {found!r}; this mvdd reads format {codec.FORMAT}"
            )

    def _upgraded(self, cur: Cursor) -> None:
        """What a store of one server does once its rows are of the current format (nothing,
        unless a subclass says so)."""

    # -- reading ------------------------------------------------------------------------------

    def last_seq(self) -> int:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            return self._counter(cur, "last_seq")

    def changes(self, after_seq: int) -> Changes:
        with self._wrap("read"), self._transaction(read_only=True) as cur:
            # one consistent state, so the three queries agree
            last = self._counter(cur, "last_seq")
            versions = tuple(
                codec.version_row(dict(zip(_VERSION_COLUMNS, r, strict=True)))
                for r in self._all(
                    cur,
                    f"SELECT {', '.join(_VERSION_COLUMNS)} FROM {{versions}} "
                    "WHERE seq > ? AND seq <= ? ORDER BY seq, table_id",
                    [after_seq, last],
                )
            )
            opened, closed = codec.element_changes(
                self._all(
                    cur, _ELEMENTS_AFTER if after_seq > 0 else _ELEMENTS_ALL, [after_seq, last]
                )
            )
        return Changes(versions, opened, closed, last)

    # -- writing ------------------------------------------------------------------------------

    def commit(self, commit: Commit) -> CommitResult:
        text = codec.CommitText.of(commit)  # before the write lock is taken
        ids: dict[int, int] = {}
        with self._wrap("commit"), self._transaction() as cur:
            if commit.guard is not None:
                self._check_guard(cur, commit.guard)
            new_tables = [tid for tid in commit.names if tid < 0]
            if new_tables:
                new_tables.sort(reverse=True)
                first = self._bump(cur, "next_table_id", len(new_tables)) - len(new_tables)
                ids = {tid: first + i for i, tid in enumerate(new_tables)}
            # the sequence counter's row lock serialises commits until this one ends
            seq = self._bump(cur, "last_seq", 1)
            heads = commit.heads(ids)
            if commit.renamed:
                # name changes in two passes, so a swap inside one statement never collides
                renamed = [tid for tid in commit.names if tid > 0 and tid in commit.renamed]
                for tid in renamed:
                    self._run(cur, "UPDATE {tables} SET dropped = 1 WHERE table_id = ?", [tid])
                for tid in renamed:
                    name = commit.names[tid]
                    self._run(
                        cur,
                        "UPDATE {tables} SET name = ?, dropped = ?, version = ? WHERE table_id = ?",
                        [name if name is not None else "", int(name is None), heads[tid], tid],
                    )
            for tid in new_tables:
                self._run(
                    cur,
                    "INSERT INTO {tables} (table_id, name, version, dropped) VALUES (?, ?, ?, 0)",
                    [ids[tid], commit.names[tid], heads[ids[tid]]],
                )
            # the compare-and-set: (table_id, version) is the key of a version row, so a version
            # another writer committed first refuses this one (ConcurrentChangeError)
            cur.executemany(
                self._sql(
                    "INSERT INTO {versions} (table_id, version, seq, name, statement, steps, "
                    "position, at, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                codec.version_params(commit, text, ids, seq),
            )
            # rows are only inserted: a new definition, or an end row, ends the row before it
            # (the version rows' key is the compare-and-set of every table they change)
            if commit.opened or commit.closed:
                cur.executemany(
                    self._sql(
                        "INSERT INTO {elements} (table_id, kind, element_id, since, prev, value, "
                        "opened_seq) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    ),
                    codec.element_params(commit, text, ids, seq),
                )
            if commit.job is not None and commit.guard is not None:
                self._apply_job(cur, commit.job, commit.guard)
        return made(CommitResult, (seq, ids, commit.committed(ids, seq)))

    # -- small durable values -------------------------------------------------------------------

    def get_state(self, key: str) -> Any:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            row = self._one(cur, "SELECT v FROM {state} WHERE k = ?", [key])
        return json.loads(row[0]) if row is not None else None

    def set_state(self, key: str, value: Any) -> None:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
        with self._wrap("state"), self._transaction() as cur:
            self._run(
                cur,
                f"{self.dialect.insert_ignore} INTO {{state}} (k, v) VALUES (?, ?)",
                [key, text],
            )
            self._run(cur, "UPDATE {state} SET v = ? WHERE k = ?", [text, key])

    # -- coordination -------------------------------------------------------------------------

    def _check_guard(self, cur: Cursor, guard: Guard) -> None:
        row = self._one(
            cur,
            "SELECT owner, epoch, expires FROM {leases} WHERE name = ?" + self.dialect.lock_shared,
            [guard.lease],
        )
        if row is None or (row[0], row[1]) != (guard.owner, guard.epoch) or row[2] <= guard.now:
            raise FencedError(
                f"lease {guard.lease!r} is no longer held by {guard.owner!r} at epoch "
                f"{guard.epoch}: the write is refused"
            )

    def acquire_lease(self, name: str, owner: str, duration: float, now: float) -> Lease | None:
        with self._wrap("lease"):
            with self._transaction() as cur:  # the row exists before anyone locks it
                self._run(
                    cur,
                    f"{self.dialect.insert_ignore} INTO {{leases}} (name, owner, epoch, expires) "
                    "VALUES (?, '', 0, 0)",
                    [name],
                )
            with self._transaction() as cur:
                held_by, epoch, expires = self._one(
                    cur,
                    "SELECT owner, epoch, expires FROM {leases} WHERE name = ?"
                    + self.dialect.lock_exclusive,
                    [name],
                )
                if held_by == owner and expires > now:
                    pass
                elif expires <= now:
                    epoch += 1
                else:
                    return None
                self._run(
                    cur,
                    "UPDATE {leases} SET owner = ?, epoch = ?, expires = ? WHERE name = ?",
                    [owner, epoch, now + duration, name],
                )
                return Lease(name, owner, epoch, now + duration)

    def release_lease(self, name: str, owner: str, epoch: int) -> None:
        with self._wrap("lease"), self._transaction() as cur:
            self._run(
                cur,
                "UPDATE {leases} SET expires = 0 WHERE name = ? AND owner = ? AND epoch = ?",
                [name, owner, epoch],
            )

    def read_lease(self, name: str) -> Lease | None:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            row = self._one(
                cur, "SELECT owner, epoch, expires FROM {leases} WHERE name = ?", [name]
            )
        if row is None or (row[1] == 0 and row[0] == ""):
            return None  # never taken (or only its placeholder row exists)
        return Lease(name, row[0], row[1], row[2])

    def _select_job(self, cur: Cursor, job_id: int) -> JobRow | None:
        row = self._one(cur, f"SELECT {JOB_COLUMNS} FROM {{jobs}} WHERE id = ?", [job_id])
        return codec.job_row(row) if row is not None else None

    def add_job(
        self, kind: str, table: str, sql: str, payload: dict[str, Any], now: float
    ) -> JobRow:
        with self._wrap("job"), self._transaction() as cur:
            self._run(
                cur,
                "INSERT INTO {jobs} (kind, table_name, `sql`, status, queue, payload, cancel, "
                "submitted, updated) VALUES (?, ?, ?, 'queued', ?, ?, 0, ?, ?)",
                [kind, table, codec.encode_text(sql), QUEUE, json.dumps(payload), now, now],
            )
            job = self._select_job(cur, cur.lastrowid)
        assert job is not None
        return job

    def jobs(self, queue: str = QUEUE) -> list[JobRow]:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            rows = self._all(
                cur, f"SELECT {JOB_COLUMNS} FROM {{jobs}} WHERE queue = ? ORDER BY id", [queue]
            )
        return [codec.job_row(r) for r in rows]

    def job(self, job_id: int) -> JobRow | None:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            return self._select_job(cur, job_id)

    def update_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        with self._wrap("job"), self._transaction() as cur:
            self._check_guard(cur, guard)
            return self._apply_job(cur, update, guard)

    def _apply_job(self, cur: Cursor, update: JobUpdate, guard: Guard) -> JobRow:
        self._run(
            cur,
            "UPDATE {jobs} SET status = ?, queue = ?, payload = ?, updated = ? WHERE id = ?",
            [update.status, update.queue, json.dumps(update.payload), guard.now, update.id],
        )
        job = self._select_job(cur, update.id)
        if job is None:
            raise StoreError(f"no job {update.id} in {self.description}")
        if update.event is not None:
            self._run(
                cur,
                "INSERT INTO {events} (job_id, at, owner, epoch, what, detail) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [update.id, guard.now, guard.owner, guard.epoch, *update.event],
            )
        return job

    def request_cancel(self, job_id: int, now: float) -> JobRow | None:
        with self._wrap("job"), self._transaction() as cur:
            self._run(
                cur,
                "UPDATE {jobs} SET status = 'cancelled', queue = ?, cancel = 1, updated = ? "
                "WHERE id = ? AND status = 'queued'",
                [HISTORY, now, job_id],
            )
            self._run(
                cur,
                "UPDATE {jobs} SET cancel = 1, updated = ? WHERE id = ? AND queue = ?",
                [now, job_id, QUEUE],
            )
            return self._select_job(cur, job_id)

    def report_node(self, node_id: str, version: int, now: float) -> None:
        with self._wrap("node"), self._transaction() as cur:
            self._run(
                cur,
                f"{self.dialect.insert_ignore} INTO {{nodes}} (node_id, version, reported_at) "
                "VALUES (?, ?, ?)",
                [node_id, version, now],
            )
            self._run(
                cur,
                "UPDATE {nodes} SET version = ?, reported_at = ? WHERE node_id = ?",
                [version, now, node_id],
            )

    def nodes(self) -> list[NodeRow]:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            rows = self._all(
                cur, "SELECT node_id, version, reported_at FROM {nodes} ORDER BY node_id"
            )
        return [NodeRow(*r) for r in rows]

    def events(self, job_id: int | None = None) -> list[Event]:
        with self._wrap("read"), self._lock, self._cursor() as cur:
            if job_id is None:
                rows = self._all(
                    cur, "SELECT job_id, at, owner, epoch, what, detail FROM {events} ORDER BY id"
                )
            else:
                rows = self._all(
                    cur,
                    "SELECT job_id, at, owner, epoch, what, detail FROM {events} "
                    "WHERE job_id = ? ORDER BY id",
                    [job_id],
                )
        return [Event(*r) for r in rows]


__all__ = ["JOB_COLUMNS", "TABLES", "Cursor", "Dialect", "SQLStore"]
