"""The embedded store: one SQLite file, through sqlite-utils.

WAL journal (readers never block the writer), each statement one ``BEGIN IMMEDIATE``
transaction (writers in several processes queue on SQLite's lock, never deadlock), and
compare-and-set on each table's head version (a commit writes version n + 1 of a table it
built on version n, and ``(table_id, version)`` is the key of the version rows), so two
processes altering one table cannot both commit version n + 1. A process killed at any moment
leaves either the whole statement or none of it.
The statements themselves are the SQL stores' shared algorithm (:mod:`mvdd.store.sql`).

A file is an mvdd catalog, or empty (a new one is made there), or it is refused untouched: a
SQLite database that holds other tables (an application's ``events`` or ``state``, say) is
never written into, not even its journal mode. ``create=False`` (what the CLI's reading
commands pass) also refuses a missing or empty file rather than make a catalog there.

``synchronous`` is ``"normal"`` by default: every commit survives a process crash; a power loss
may lose the last commits but never corrupts the file. ``"full"`` makes every commit durable
against power loss too, at the price of an fsync per statement.

Tables (the store's own, fixed schema):

- ``meta(key, value)``: format version, the next table id, the last commit sequence number.
- ``tables(table_id, name, version, dropped)``: each table's name, and the version it took that
  name at (its creation, a rename or its drop); live names are unique.
- ``versions(table_id, version, seq, name, statement, steps, position, at, dropped)``.
- ``elements(table_id, kind, element_id, since, prev, value, opened_seq)``: only ever
  inserted; a row is live from its ``since`` until the next row of its element, a new
  definition or an end row (value ``''``). (A store of format 2 or older, upgraded, keeps its
  ``until`` and ``closed_seq`` columns, no longer written.)
- ``leases(name, owner, epoch, expires)``, ``jobs(id, kind, table_name, sql, status, queue,
  payload, cancel, submitted, updated)``, ``nodes(node_id, version, reported_at)``,
  ``events(id, job_id, at, owner, epoch, what, detail)``: the online schema change's
  coordination (:mod:`mvdd.online`).
- ``state(k, v)``: small JSON values kept beside the catalog (a binlog reader's checkpoint).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from types import TracebackType
from typing import Any
from urllib.request import pathname2url

from sqlite_utils import Database

from mvdd.errors import ConcurrentChangeError, StoreError
from mvdd.store.sql import Cursor, Dialect, SQLStore

SYNCHRONOUS = ("normal", "full")

DIALECT = Dialect(
    param="?",
    insert_ignore="INSERT OR IGNORE",
    # BEGIN IMMEDIATE already holds the database's one write lock
    lock_exclusive="",
    lock_shared="",
    begin_write="BEGIN IMMEDIATE",
    begin_read="BEGIN",
    end_read="ROLLBACK",
    meta_key="key",
    meta_value="value",
    update_returning=True,
)

#: the store's tables: name -> (columns, primary key)
_TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "meta": ({"key": str, "value": str}, "key"),
    "tables": ({"table_id": int, "name": str, "version": int, "dropped": int}, "table_id"),
    "versions": (
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
        ("table_id", "version"),
    ),
    "elements": (
        {
            "table_id": int,
            "kind": str,
            "element_id": int,
            "since": int,
            "prev": int,
            "value": str,
            "opened_seq": int,
        },
        ("table_id", "kind", "element_id", "since"),
    ),
    "leases": ({"name": str, "owner": str, "epoch": int, "expires": float}, "name"),
    "jobs": (
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
        "id",
    ),
    "nodes": ({"node_id": str, "version": int, "reported_at": float}, "node_id"),
    "events": (
        {
            "id": int,
            "job_id": int,
            "at": float,
            "owner": str,
            "epoch": int,
            "what": str,
            "detail": str,
        },
        "id",
    ),
    "state": ({"k": str, "v": str}, "k"),
}
#: the tables every mvdd catalog file has held since its first format (the others were added
#: later, and are made when an older catalog is opened)
_SIGNATURE = frozenset({"meta", "tables", "versions", "elements"})
_INDEXES = (
    ("jobs", ["queue", "id"]),
    ("versions", ["seq"]),
    ("elements", ["opened_seq"]),
)


class _Translated:
    """SQLite's errors inside the block as mvdd's, naming ``what`` was being done on the store
    at ``path``: a broken constraint is another writer's commit (ConcurrentChangeError), any
    other a StoreError. (A class rather than a generator's context manager: it is on every
    commit's path.)"""

    __slots__ = ("_path", "_what")

    def __init__(self, what: str, path: str) -> None:
        self._what = what
        self._path = path

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None or not issubclass(kind, sqlite3.Error):
            return
        what = self._what
        if issubclass(kind, sqlite3.IntegrityError):
            raise ConcurrentChangeError(
                f"{what} conflicts with another writer's commit: {err}"
            ) from err
        raise StoreError(f"SQLite {what} failed on {self._path!r}: {err}", cause=err) from err


class SQLiteStore(SQLStore):
    """A catalog store in one SQLite file (created if missing).

    Args:
        path: the file.
        synchronous: ``"normal"`` (crash-safe) or ``"full"`` (also power-loss durable).
        timeout: seconds a writer waits for another process's transaction.
        create: make a new catalog when the file is missing or empty (else StoreError).
    """

    dialect = DIALECT

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "normal",
        timeout: float = 30.0,
        create: bool = True,
    ):
        super().__init__()
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = os.fspath(path)
        if not create and not os.path.isfile(self.path):
            raise StoreError(f"there is no catalog at {self.path!r}")
        # a URI, so that a reader's open (mode=rw) never makes the file
        uri = f"file:{pathname2url(os.path.abspath(self.path))}?mode={'rwc' if create else 'rw'}"
        try:
            conn = sqlite3.connect(
                uri, uri=True, isolation_level=None, timeout=timeout, check_same_thread=False
            )
            self.db = Database(conn)
            self._check_owner(create)  # before the journal mode, itself a change to the file
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._cur = conn.cursor()
            # (a nullcontext keeps no state: one serves every use)
            self._held = contextlib.nullcontext(self._cur)
            self._ensure_schema()
        except sqlite3.Error as err:
            raise StoreError(
                f"cannot open the SQLite store {self.path!r}: {err}", cause=err
            ) from err

    def _check_owner(self, create: bool) -> None:
        """StoreError (the connection closed, nothing written) unless the file holds an mvdd
        catalog, or nothing and ``create``."""
        found = set(self.db.table_names())
        if found >= _SIGNATURE or (create and not found):
            return
        self.db.close()
        if not found:
            raise StoreError(f"there is no catalog at {self.path!r} (an empty SQLite database)")
        others = sorted(found - _TABLES.keys()) or sorted(found)
        raise StoreError(
            f"{self.path!r} is a SQLite database but not an mvdd catalog (it holds "
            f"{', '.join(map(repr, others[:5]))}{', …' if len(others) > 5 else ''}); mvdd "
            "keeps a catalog in a file of its own and changes nothing in this one"
        )

    def _ensure_schema(self) -> None:
        with self._transaction() as cur:
            for name, (columns, pk) in _TABLES.items():
                self.db.table(name).create(columns, pk=pk, if_not_exists=True)
            for name, indexed in _INDEXES:
                self.db.table(name).create_index(indexed, if_not_exists=True)
            # live table names are unique; a partial index is the one thing sqlite-utils cannot say
            cur.execute(
                "CREATE UNIQUE INDEX IF NOT EXISTS tables_live_name ON tables(name) "
                "WHERE dropped = 0"
            )
            self._init_meta(cur, repr(self.path))

    def _upgraded(self, cur: Cursor) -> None:
        # the index of ``closed_seq`` (format 2 and older) no longer serves a query
        cur.execute("DROP INDEX IF EXISTS idx_elements_closed_seq")

    def _cursor(self) -> contextlib.AbstractContextManager[Cursor]:
        # every caller holds the store's lock already (SQLStore takes it around each use)
        return self._held

    def _rowcount(self, cur: Cursor, result: Any) -> int:
        return int(cur.rowcount)  # type: ignore[attr-defined]

    def _wrap(self, what: str) -> contextlib.AbstractContextManager[None]:
        return _Translated(what, self.path)

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self.db.close()

    @property
    def description(self) -> str:
        return f"sqlite:{self.path}"
