"""A small row + index store on SQLite that follows F1's per-state rules (seed 002), for tests and
examples of the online schema change.

Rows are stored by primary key with their column values by column id; each index has one entry
per row, ``(index id, key, primary key)``. Every operation takes the schema of the node doing it
(a :class:`~mvdd.model.Table` whose elements carry their F1 state):

====================  ==========================================================================
element state         what DML does with it
====================  ==========================================================================
PUBLIC                read, written, deleted
WRITE_ONLY/…_REORG    written and deleted, never read (an insert gives a column its default)
DELETE_ONLY/…_REORG   only deleted: a delete (or an update) removes its entries, nothing adds any
ABSENT                unknown
====================  ==========================================================================

:meth:`RowStore.backfill` is the reorg callback (an index's entries, a column's default, one
batch of rows per call, resuming after a checkpoint), :meth:`RowStore.cleanup` the background
deletion of a dropped element's data, and :meth:`RowStore.anomalies` checks F1's two anomalies
against a schema: *orphan data* (an entry or a value the schema says should not exist) and
*integrity* (one it says must exist but does not).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from sqlite_utils import Database

from mvdd.errors import DDLError, MvddError, NoSuchColumnError
from mvdd.model import (
    DELETABLE,
    NO_DEFAULT,
    READABLE,
    WRITABLE,
    Column,
    Index,
    IndexKind,
    State,
    Table,
)


class RowStoreError(MvddError):
    """A DML the store refuses (duplicate key, unknown column) or a store failure."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class RowStore:
    """Rows and index entries in one SQLite file (``":memory:"`` for one process).

    Args:
        path: the file; several processes may share it (WAL, a busy timeout).
        batch: rows per :meth:`backfill` / :meth:`cleanup` call.
    """

    def __init__(self, path: str, *, batch: int = 100, timeout: float = 30.0) -> None:
        self.path = path
        self.batch = batch
        self._lock = threading.RLock()
        self.conn = sqlite3.connect(
            path, isolation_level=None, timeout=timeout, check_same_thread=False
        )
        self.db = Database(self.conn)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        with self._tx():
            self.db.table("rows").create(
                {"table_id": int, "pk": str, "data": str},
                pk=("table_id", "pk"),
                if_not_exists=True,
            )
            self.db.table("entries").create(
                {"table_id": int, "index_id": int, "key": str, "pk": str},
                pk=("table_id", "index_id", "key", "pk"),
                if_not_exists=True,
            )
            self.db.table("entries").create_index(
                ["table_id", "index_id", "pk"], if_not_exists=True
            )

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self.conn.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    # -- keys ----------------------------------------------------------------------------------

    @staticmethod
    def _pk(table: Table, values: Mapping[str, Any]) -> str:
        pk = table.primary_key
        if pk is None:
            raise RowStoreError("the row store needs a PRIMARY KEY", table=table.name)
        names = table.index_column_names(pk)
        try:
            return _dumps([values[n] for n in names])
        except KeyError as err:
            raise RowStoreError(f"missing primary key column {err}", table=table.name) from None

    @staticmethod
    def _key(index: Index, data: Mapping[str, Any]) -> str | None:
        """An index's key for a row's data (None: a key column has no value in this row)."""
        key = []
        for part in index.parts:
            cid = str(part.column_id)
            if cid not in data:
                return None
            value = data[cid]
            key.append(value[: part.length] if part.length and isinstance(value, str) else value)
        return _dumps(key)

    @staticmethod
    def _public(table: Table, name: str) -> Column:
        col = table.find_column(name)
        if col is None or col.state not in READABLE:
            raise NoSuchColumnError("no such column", table=table.name, column=name)
        return col

    # -- DML -----------------------------------------------------------------------------------

    def insert(self, table: Table, values: Mapping[str, Any]) -> None:
        """Insert a row naming public columns; write-only columns take their default."""
        data: dict[str, Any] = {}
        for name, value in values.items():
            data[str(self._public(table, name).id)] = value
        for col in table.columns:
            if col.state in WRITABLE and str(col.id) not in data:
                data[str(col.id)] = _default(col)
        pk = self._pk(table, {c.name: data.get(str(c.id)) for c in table.columns})
        with self._tx() as db:
            if db.execute(
                "SELECT 1 FROM rows WHERE table_id = ? AND pk = ?", [table.id, pk]
            ).fetchone():
                raise RowStoreError(f"duplicate primary key {pk}", table=table.name)
            self._add_entries(db, table, pk, data)
            db.execute(
                "INSERT INTO rows (table_id, pk, data) VALUES (?, ?, ?)",
                [table.id, pk, _dumps(data)],
            )

    def update(self, table: Table, key: Mapping[str, Any], changes: Mapping[str, Any]) -> bool:
        """Update the row with primary key ``key`` (public columns only); False if none."""
        pk = self._pk(table, key)
        with self._tx() as db:
            row = db.execute(
                "SELECT data FROM rows WHERE table_id = ? AND pk = ?", [table.id, pk]
            ).fetchone()
            if row is None:
                return False
            old = json.loads(row[0])
            new = dict(old)
            for name, value in changes.items():
                new[str(self._public(table, name).id)] = value
            if self._pk(table, {c.name: new.get(str(c.id)) for c in table.columns}) != pk:
                raise RowStoreError("an update cannot change the primary key", table=table.name)
            self._drop_entries(db, table, pk, old)
            self._add_entries(db, table, pk, new)
            db.execute(
                "UPDATE rows SET data = ? WHERE table_id = ? AND pk = ?",
                [_dumps(new), table.id, pk],
            )
            return True

    def delete(self, table: Table, key: Mapping[str, Any]) -> bool:
        """Delete the row with primary key ``key``; False if none."""
        pk = self._pk(table, key)
        with self._tx() as db:
            row = db.execute(
                "SELECT data FROM rows WHERE table_id = ? AND pk = ?", [table.id, pk]
            ).fetchone()
            if row is None:
                return False
            self._drop_entries(db, table, pk, json.loads(row[0]))
            db.execute("DELETE FROM rows WHERE table_id = ? AND pk = ?", [table.id, pk])
            return True

    def get(self, table: Table, key: Mapping[str, Any]) -> dict[str, Any] | None:
        """The row's public columns (a missing value reads as the column's default)."""
        pk = self._pk(table, key)
        with self._lock:
            row = self.conn.execute(
                "SELECT data FROM rows WHERE table_id = ? AND pk = ?", [table.id, pk]
            ).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return {
            c.name: data.get(str(c.id), _default(c)) for c in table.columns if c.state in READABLE
        }

    def lookup(self, table: Table, index: str, key: list[Any]) -> list[dict[str, Any]]:
        """Rows found through a public index by their key."""
        idx = table.find_index(index)
        if idx is None or idx.state not in READABLE:
            raise DDLError("no such index", table=table.name, index=index)
        with self._lock:
            rows = self.conn.execute(
                "SELECT r.data FROM entries e JOIN rows r ON r.table_id = e.table_id AND "
                "r.pk = e.pk WHERE e.table_id = ? AND e.index_id = ? AND e.key = ? ORDER BY e.pk",
                [table.id, idx.id, _dumps(key)],
            ).fetchall()
        return [
            {c.name: json.loads(d).get(str(c.id)) for c in table.columns if c.state in READABLE}
            for (d,) in rows
        ]

    def count(self, table: Table) -> int:
        with self._lock:
            return int(
                self.conn.execute(
                    "SELECT count(*) FROM rows WHERE table_id = ?", [table.id]
                ).fetchone()[0]
            )

    def _add_entries(
        self, db: sqlite3.Connection, table: Table, pk: str, data: Mapping[str, Any]
    ) -> None:
        for idx in table.indexes:
            if idx.state not in WRITABLE or idx.kind == IndexKind.PRIMARY:
                continue
            key = self._key(idx, data)
            if key is None:
                continue
            if (
                idx.is_unique
                and db.execute(
                    "SELECT 1 FROM entries WHERE table_id = ? AND index_id = ? AND key = ? "
                    "AND pk <> ?",
                    [table.id, idx.id, key, pk],
                ).fetchone()
            ):
                raise RowStoreError(f"duplicate key {key}", table=table.name, index=idx.name)
            db.execute(
                "INSERT OR IGNORE INTO entries (table_id, index_id, key, pk) VALUES (?, ?, ?, ?)",
                [table.id, idx.id, key, pk],
            )

    def _drop_entries(
        self, db: sqlite3.Connection, table: Table, pk: str, data: Mapping[str, Any]
    ) -> None:
        for idx in table.indexes:
            if idx.state not in DELETABLE or idx.kind == IndexKind.PRIMARY:
                continue
            key = self._key(idx, data)
            if key is not None:
                db.execute(
                    "DELETE FROM entries WHERE table_id = ? AND index_id = ? AND key = ? "
                    "AND pk = ?",
                    [table.id, idx.id, key, pk],
                )

    # -- reorg and background deletion -------------------------------------------------------

    def _range(self, db: sqlite3.Connection, table: Table, checkpoint: Any) -> tuple[int, int]:
        """(after, until) of a batched pass over the rows, in the order rows were written
        (SQLite's rowid): a pass covers the rows that existed when it started (rows written
        later were written under a schema that maintains the element already), so it ends even
        while inserts keep coming."""
        if checkpoint is not None:
            after, until = checkpoint
            return int(after), int(until)
        (until,) = db.execute(
            "SELECT max(rowid) FROM rows WHERE table_id = ?", [table.id]
        ).fetchone()
        return 0, until or 0

    def backfill(self, table: Table, element: Column | Index, checkpoint: Any) -> Any:
        """One batch of the reorg of ``element`` (an index's entries, a column's default) for
        the rows after ``checkpoint`` (None: from the start), up to the last row that existed
        when the reorg started. Returns the new checkpoint (JSON data), or None when done.
        Idempotent: a batch done twice does no harm.
        """
        with self._tx() as db:
            after, until = self._range(db, table, checkpoint)
            rows = db.execute(
                "SELECT rowid, pk, data FROM rows WHERE table_id = ? AND rowid > ? AND rowid <= ? "
                "ORDER BY rowid LIMIT ?",
                [table.id, after, until, self.batch],
            ).fetchall()
            for _, pk, raw in rows:
                data = json.loads(raw)
                if isinstance(element, Index):
                    key = self._key(element, data)
                    if key is not None:
                        db.execute(
                            "INSERT OR IGNORE INTO entries (table_id, index_id, key, pk) "
                            "VALUES (?, ?, ?, ?)",
                            [table.id, element.id, key, pk],
                        )
                elif str(element.id) not in data:
                    data[str(element.id)] = _default(element)
                    db.execute(
                        "UPDATE rows SET data = ? WHERE table_id = ? AND pk = ?",
                        [_dumps(data), table.id, pk],
                    )
        return [rows[-1][0], until] if len(rows) == self.batch else None

    def cleanup(self, table: Table, element: Column | Index, checkpoint: Any) -> Any:
        """One batch of deleting a dropped element's data (its index entries, its column
        values). Returns the new checkpoint, or None when done."""
        with self._tx() as db:
            if isinstance(element, Index):
                pks = db.execute(
                    "SELECT DISTINCT pk FROM entries WHERE table_id = ? AND index_id = ? "
                    "ORDER BY pk LIMIT ?",
                    [table.id, element.id, self.batch],
                ).fetchall()
                db.executemany(
                    "DELETE FROM entries WHERE table_id = ? AND index_id = ? AND pk = ?",
                    [(table.id, element.id, pk) for (pk,) in pks],
                )
                return pks[-1][0] if len(pks) == self.batch else None
            after, until = self._range(db, table, checkpoint)
            rows = db.execute(
                "SELECT rowid, pk, data FROM rows WHERE table_id = ? AND rowid > ? AND rowid <= ? "
                "ORDER BY rowid LIMIT ?",
                [table.id, after, until, self.batch],
            ).fetchall()
            for _, pk, raw in rows:
                data = json.loads(raw)
                if str(element.id) in data:
                    del data[str(element.id)]
                    db.execute(
                        "UPDATE rows SET data = ? WHERE table_id = ? AND pk = ?",
                        [_dumps(data), table.id, pk],
                    )
            return [rows[-1][0], until] if len(rows) == self.batch else None

    # -- F1's anomalies ----------------------------------------------------------------------

    def anomalies(
        self, table: Table, *, pending: frozenset[tuple[str, int]] = frozenset()
    ) -> list[str]:
        """Every orphan and integrity anomaly of the table's data against schema ``table``.

        Orphans: an entry of an index the schema lacks, an entry whose row is gone or holds
        another key, a row with two entries in one index, a value of a column the schema lacks.
        Integrity: a row without its entry in a PUBLIC index, without a value for a PUBLIC
        column. ``pending``: (kind, id) of dropped elements whose data still awaits cleanup; the
        entries of such an index are garbage, not orphans, once the schema lacks it or holds it
        in DELETE_REORG, the state before ABSENT (nodes at the next version no longer maintain
        it, so a row they delete leaves its entry behind).
        """
        out: list[str] = []
        with self._lock:
            rows = {
                pk: json.loads(d)
                for pk, d in self.conn.execute(
                    "SELECT pk, data FROM rows WHERE table_id = ?", [table.id]
                )
            }
            entries = self.conn.execute(
                "SELECT index_id, key, pk FROM entries WHERE table_id = ?", [table.id]
            ).fetchall()
        indexes = {i.id: i for i in table.indexes}
        columns = {str(c.id) for c in table.columns}
        seen: set[tuple[int, str]] = set()
        for index_id, key, pk in entries:
            idx = indexes.get(index_id)
            garbage = ("index", index_id) in pending
            if idx is None or (garbage and idx.state == State.DELETE_REORG):
                if not garbage:
                    out.append(f"orphan: entry {key} of index id {index_id}, not in the schema")
                continue
            if pk not in rows:
                out.append(f"orphan: entry {key} of index `{idx.name}` for missing row {pk}")
            elif self._key(idx, rows[pk]) != key:
                out.append(f"orphan: entry {key} of index `{idx.name}` for row {pk} of another key")
            if (index_id, pk) in seen:
                out.append(f"orphan: row {pk} has two entries in index `{idx.name}`")
            seen.add((index_id, pk))
        for pk, data in rows.items():
            for cid in data:
                if cid not in columns and ("column", int(cid)) not in pending:
                    out.append(f"orphan: row {pk} holds a value of column id {cid}")
            for col in table.columns:
                if col.state in READABLE and str(col.id) not in data:
                    out.append(f"integrity: row {pk} has no value for column `{col.name}`")
            for idx in table.indexes:
                if (
                    idx.state in READABLE
                    and idx.kind != IndexKind.PRIMARY
                    and self._key(idx, data) is not None
                    and (idx.id, pk) not in seen
                ):
                    out.append(f"integrity: row {pk} has no entry in index `{idx.name}`")
        return out


def _default(col: Column) -> Any:
    value = col.effective_default
    if value is NO_DEFAULT:
        return None
    return value if isinstance(value, int | str | float) or value is None else str(value)


__all__ = ["RowStore", "RowStoreError"]
