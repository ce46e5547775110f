"""The embedded store: one SQLite file, through sqlite-utils.

WAL journal (readers never block the writer), each statement one ``BEGIN IMMEDIATE``
transaction (writers in several processes queue on SQLite's lock, never deadlock), and
compare-and-set on each table's head version, so two processes altering one table cannot both
commit version n. A process killed at any moment leaves either the whole statement or none of it.

``synchronous`` is ``"normal"`` by default: every commit survives a process crash; a power loss
may lose the last commits but never corrupts the file. ``"full"`` makes every commit durable
against power loss too, at the price of an fsync per statement.

Tables (the store's own, fixed schema):

- ``meta(key, value)``: format version, the next table id, the last commit sequence number.
- ``tables(table_id, name, version, dropped)``: each table's head; live names are unique.
- ``versions(table_id, version, seq, name, statement, steps, position, at, dropped)``.
- ``elements(table_id, kind, element_id, since, until, prev, value, opened_seq, closed_seq)``.
- ``leases(name, owner, epoch, expires)``, ``jobs(id, kind, table_name, sql, status, queue,
  payload, cancel, submitted, updated)``, ``nodes(node_id, version, reported_at)``,
  ``events(id, job_id, at, owner, epoch, what, detail)``: the online schema change's
  coordination (:mod:`mvdd.online`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from mvdd.errors import ConcurrentChangeError, FencedError, StoreError
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
)

SYNCHRONOUS = ("normal", "full")


class SQLiteStore(Store):
    """A catalog store in one SQLite file (created if missing).

    Args:
        path: the file.
        synchronous: ``"normal"`` (crash-safe) or ``"full"`` (also power-loss durable).
        timeout: seconds a writer waits for another process's transaction.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, synchronous: str = "normal", timeout: float = 30.0
    ):
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = os.fspath(path)
        self._lock = threading.RLock()
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=timeout, check_same_thread=False
            )
            self.db = Database(conn)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._ensure_schema()
        except sqlite3.Error as err:
            raise StoreError(
                f"cannot open the SQLite store {self.path!r}: {err}", cause=err
            ) from err

    # -- schema ---------------------------------------------------------------------------------

    def _ensure_schema(self) -> None:
        with self._transaction():
            db = self.db
            db.table("meta").create({"key": str, "value": str}, pk="key", if_not_exists=True)
            db.table("tables").create(
                {"table_id": int, "name": str, "version": int, "dropped": int},
                pk="table_id",
                if_not_exists=True,
            )
            db.table("versions").create(
                {
                    "table_id": int,
                    "version": int,
                    "seq": int,
                    "name": str,
                    "statement": str,
                    "steps": str,
                    "position": str,
                    "at": float,
                    "dropped": int,
                },
                pk=("table_id", "version"),
                if_not_exists=True,
            )
            db.table("elements").create(
                {
                    "table_id": int,
                    "kind": str,
                    "element_id": int,
                    "since": int,
                    "until": int,
                    "prev": int,
                    "value": str,
                    "opened_seq": int,
                    "closed_seq": int,
                },
                pk=("table_id", "kind", "element_id", "since"),
                if_not_exists=True,
            )
            db.table("leases").create(
                {"name": str, "owner": str, "epoch": int, "expires": float},
                pk="name",
                if_not_exists=True,
            )
            db.table("jobs").create(
                {
                    "id": int,
                    "kind": str,
                    "table_name": str,
                    "sql": str,
                    "status": str,
                    "queue": str,
                    "payload": str,
                    "cancel": int,
                    "submitted": float,
                    "updated": float,
                },
                pk="id",
                if_not_exists=True,
            )
            db.table("nodes").create(
                {"node_id": str, "version": int, "reported_at": float},
                pk="node_id",
                if_not_exists=True,
            )
            db.table("events").create(
                {
                    "id": int,
                    "job_id": int,
                    "at": float,
                    "owner": str,
                    "epoch": int,
                    "what": str,
                    "detail": str,
                },
                pk="id",
                if_not_exists=True,
            )
            db.table("jobs").create_index(["queue", "id"], if_not_exists=True)
            db.table("versions").create_index(["seq"], if_not_exists=True)
            db.table("elements").create_index(["opened_seq"], if_not_exists=True)
            db.table("elements").create_index(["closed_seq"], if_not_exists=True)
            # live table names are unique; a partial index is the one thing sqlite-utils cannot say
            db.execute(
                "CREATE UNIQUE INDEX IF NOT EXISTS tables_live_name ON tables(name) "
                "WHERE dropped = 0"
            )
            meta = {row["key"]: row["value"] for row in db.table("meta").rows}
            if not meta:
                db.table("meta").insert_all(
                    [
                        {"key": "format", "value": str(codec.FORMAT)},
                        {"key": "next_table_id", "value": "1"},
                        {"key": "last_seq", "value": "0"},
                    ]
                )
            elif meta.get("format") != str(codec.FORMAT):
                raise StoreError(
                    f"{self.path!r} holds store format {meta.get('format')!r}; this mvdd reads "
                    f"format {codec.FORMAT}"
                )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.rollback()
                raise
            else:
                self.db.execute("COMMIT")

    def _meta(self, key: str) -> int:
        return int(self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()[0])

    def _set_meta(self, key: str, value: int) -> None:
        self.db.execute("UPDATE meta SET value = ? WHERE key = ?", [str(value), key])

    # -- reading --------------------------------------------------------------------------------

    def last_seq(self) -> int:
        with self._wrap("read"), self._lock:
            return self._meta("last_seq")

    def changes(self, after_seq: int) -> Changes:
        with self._wrap("read"), self._lock:
            # one read transaction, so the three queries see one state
            self.db.execute("BEGIN")
            try:
                last = self._meta("last_seq")
                versions = tuple(
                    codec.version_row(r)
                    for r in self.db.query(
                        "SELECT * FROM versions WHERE seq > ? AND seq <= ? ORDER BY seq, table_id",
                        [after_seq, last],
                    )
                )
                opened = tuple(
                    codec.element_row(r, last)
                    for r in self.db.query(
                        "SELECT * FROM elements WHERE opened_seq > ? AND opened_seq <= ?",
                        [after_seq, last],
                    )
                )
                closed = tuple(
                    ((r["table_id"], r["kind"], r["element_id"], r["since"]), r["until"])
                    for r in self.db.query(
                        "SELECT table_id, kind, element_id, since, until FROM elements "
                        "WHERE closed_seq > ? AND closed_seq <= ?",
                        [after_seq, last],
                    )
                )
            finally:
                self.db.rollback()
        return Changes(versions, opened, closed, last)

    # -- writing --------------------------------------------------------------------------------

    def commit(self, commit: Commit) -> CommitResult:
        with self._wrap("commit"), self._transaction():
            db = self.db.conn
            if commit.guard is not None:
                self._check_guard(commit.guard)
            ids: dict[int, int] = {}
            new_tables = sorted((tid for tid in commit.names if tid < 0), reverse=True)
            if new_tables:
                (next_id,) = db.execute(
                    "UPDATE meta SET value = value + ? WHERE key = 'next_table_id' RETURNING value",
                    [len(new_tables)],
                ).fetchone()
                first = int(next_id) - len(new_tables)
                ids = {tid: first + i for i, tid in enumerate(new_tables)}
            (seq,) = db.execute(
                "UPDATE meta SET value = value + 1 WHERE key = 'last_seq' RETURNING value"
            ).fetchone()
            seq = int(seq)

            def real(tid: int) -> int:
                return ids.get(tid, tid)

            heads = codec.commit_heads(commit, ids)
            renamed = []
            for tid, name in commit.names.items():
                if tid < 0:
                    continue
                # compare-and-set: the head must be the version this statement was built on
                cur = db.execute(
                    "UPDATE tables SET version = ? "
                    "WHERE table_id = ? AND version = ? AND dropped = 0 "
                    "RETURNING name",
                    [heads[tid], tid, commit.expected[tid]],
                ).fetchone()
                if cur is None:
                    raise ConcurrentChangeError(
                        f"table id {tid} is not at version {commit.expected[tid]} in the store: "
                        "another writer committed first"
                    )
                if cur[0] != name:
                    renamed.append(tid)
            # name changes in two passes, so a swap inside one statement never collides midway
            for tid in renamed:
                db.execute("UPDATE tables SET dropped = 1 WHERE table_id = ?", [tid])
            for tid in renamed:
                name = commit.names[tid]
                db.execute(
                    "UPDATE tables SET name = ?, dropped = ? WHERE table_id = ?",
                    [name if name is not None else "", int(name is None), tid],
                )
            for tid in new_tables:
                db.execute(
                    "INSERT INTO tables (table_id, name, version, dropped) VALUES (?, ?, ?, 0)",
                    [real(tid), commit.names[tid], heads[real(tid)]],
                )
            # the hot path: fixed, parameterised statements (sqlite-utils' insert_all would
            # introspect the table on every call)
            db.executemany(
                "INSERT INTO versions (table_id, version, seq, name, statement, steps, position, "
                "at, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                codec.version_params(commit, ids, seq),
            )
            for table_id, kind, element_id, since in commit.closed:
                cur = db.execute(
                    "UPDATE elements SET until = ?, closed_seq = ? WHERE table_id = ? AND kind = ? "
                    "AND element_id = ? AND since = ? AND until IS NULL",
                    [heads[real(table_id)], seq, real(table_id), kind, element_id, since],
                )
                if cur.rowcount != 1:
                    raise ConcurrentChangeError(
                        f"element {kind} {element_id} of table id {table_id} was already closed"
                    )
            db.executemany(
                "INSERT INTO elements (table_id, kind, element_id, since, until, prev, value, "
                "opened_seq, closed_seq) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, NULL)",
                codec.element_params(commit, ids, seq),
            )
            if commit.job is not None and commit.guard is not None:
                self._apply_job(commit.job, commit.guard)
        return CommitResult(seq, ids)

    # -- coordination -------------------------------------------------------------------------

    def _check_guard(self, guard: Guard) -> None:
        row = self.db.conn.execute(
            "SELECT owner, epoch, expires FROM leases WHERE name = ?", [guard.lease]
        ).fetchone()
        if row is None or (row[0], row[1]) != (guard.owner, guard.epoch) or row[2] <= guard.now:
            raise FencedError(
                f"lease {guard.lease!r} is no longer held by {guard.owner!r} at epoch "
                f"{guard.epoch}: the write is refused"
            )

    def acquire_lease(self, name: str, owner: str, duration: float, now: float) -> Lease | None:
        with self._wrap("lease"), self._transaction():
            db = self.db.conn
            row = db.execute(
                "SELECT owner, epoch, expires FROM leases WHERE name = ?", [name]
            ).fetchone()
            if row is not None and row[0] == owner and row[2] > now:
                epoch = row[1]
            elif row is None or row[2] <= now:
                epoch = (row[1] if row is not None else 0) + 1
            else:
                return None
            db.execute(
                "INSERT INTO leases (name, owner, epoch, expires) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, "
                "epoch = excluded.epoch, expires = excluded.expires",
                [name, owner, epoch, now + duration],
            )
            return Lease(name, owner, epoch, now + duration)

    def release_lease(self, name: str, owner: str, epoch: int) -> None:
        with self._wrap("lease"), self._transaction():
            self.db.conn.execute(
                "UPDATE leases SET expires = 0 WHERE name = ? AND owner = ? AND epoch = ?",
                [name, owner, epoch],
            )

    def read_lease(self, name: str) -> Lease | None:
        with self._wrap("read"), self._lock:
            row = self.db.conn.execute(
                "SELECT owner, epoch, expires FROM leases WHERE name = ?", [name]
            ).fetchone()
        return Lease(name, row[0], row[1], row[2]) if row is not None else None

    def add_job(
        self, kind: str, table: str, sql: str, payload: dict[str, Any], now: float
    ) -> JobRow:
        with self._wrap("job"), self._transaction():
            row = self.db.conn.execute(
                "INSERT INTO jobs (kind, table_name, sql, status, queue, payload, cancel, "
                f"submitted, updated) VALUES (?, ?, ?, 'queued', ?, ?, 0, ?, ?) "
                f"RETURNING {codec.JOB_COLUMNS}",
                [kind, table, sql, QUEUE, json.dumps(payload), now, now],
            ).fetchone()
        return codec.job_row(row)

    def jobs(self, queue: str = QUEUE) -> list[JobRow]:
        with self._wrap("read"), self._lock:
            rows = self.db.conn.execute(
                f"SELECT {codec.JOB_COLUMNS} FROM jobs WHERE queue = ? ORDER BY id", [queue]
            ).fetchall()
        return [codec.job_row(r) for r in rows]

    def job(self, job_id: int) -> JobRow | None:
        with self._wrap("read"), self._lock:
            row = self.db.conn.execute(
                f"SELECT {codec.JOB_COLUMNS} FROM jobs WHERE id = ?", [job_id]
            ).fetchone()
        return codec.job_row(row) if row is not None else None

    def update_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        with self._wrap("job"), self._transaction():
            self._check_guard(guard)
            return self._apply_job(update, guard)

    def _apply_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        db = self.db.conn
        row = db.execute(
            "UPDATE jobs SET status = ?, queue = ?, payload = ?, updated = ? WHERE id = ? "
            f"RETURNING {codec.JOB_COLUMNS}",
            [update.status, update.queue, json.dumps(update.payload), guard.now, update.id],
        ).fetchone()
        if row is None:
            raise StoreError(f"no job {update.id} in {self.path!r}")
        if update.event is not None:
            db.execute(
                "INSERT INTO events (job_id, at, owner, epoch, what, detail) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [update.id, guard.now, guard.owner, guard.epoch, *update.event],
            )
        return codec.job_row(row)

    def request_cancel(self, job_id: int, now: float) -> JobRow | None:
        with self._wrap("job"), self._transaction():
            db = self.db.conn
            db.execute(
                "UPDATE jobs SET status = 'cancelled', queue = ?, cancel = 1, updated = ? "
                "WHERE id = ? AND status = 'queued'",
                [HISTORY, now, job_id],
            )
            db.execute(
                "UPDATE jobs SET cancel = 1, updated = ? WHERE id = ? AND queue = ?",
                [now, job_id, QUEUE],
            )
            row = db.execute(
                f"SELECT {codec.JOB_COLUMNS} FROM jobs WHERE id = ?", [job_id]
            ).fetchone()
        return codec.job_row(row) if row is not None else None

    def report_node(self, node_id: str, version: int, now: float) -> None:
        with self._wrap("node"), self._transaction():
            self.db.conn.execute(
                "INSERT INTO nodes (node_id, version, reported_at) VALUES (?, ?, ?) "
                "ON CONFLICT (node_id) DO UPDATE SET version = excluded.version, "
                "reported_at = excluded.reported_at",
                [node_id, version, now],
            )

    def nodes(self) -> list[NodeRow]:
        with self._wrap("read"), self._lock:
            rows = self.db.conn.execute(
                "SELECT node_id, version, reported_at FROM nodes ORDER BY node_id"
            ).fetchall()
        return [NodeRow(*r) for r in rows]

    def events(self, job_id: int | None = None) -> list[Event]:
        with self._wrap("read"), self._lock:
            rows = self.db.conn.execute(
                "SELECT job_id, at, owner, epoch, what, detail FROM events "
                + ("WHERE job_id = ? " if job_id is not None else "")
                + "ORDER BY id",
                [job_id] if job_id is not None else [],
            ).fetchall()
        return [Event(*r) for r in rows]

    @contextlib.contextmanager
    def _wrap(self, what: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError as err:
            raise ConcurrentChangeError(
                f"{what} conflicts with another writer's commit: {err}"
            ) from err
        except sqlite3.Error as err:
            raise StoreError(f"SQLite {what} failed on {self.path!r}: {err}", cause=err) from err

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self.db.close()

    @property
    def description(self) -> str:
        return f"sqlite:{self.path}"
