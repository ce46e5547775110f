"""An in-memory store: the default for tests and for catalogs that need no durability.

Several catalogs in one process may share one ``MemoryStore``; a lock serialises commits, and
the same compare-and-set rules as the durable stores apply, so the catalog code cannot tell the
difference.
"""

from __future__ import annotations

import threading

from mvdd.errors import ConcurrentChangeError
from mvdd.store.base import Changes, Commit, CommitResult, ElementRow, Store, VersionRow


class MemoryStore(Store):
    """Rows in Python lists, guarded by a lock. O(rows) memory; commits O(rows in the commit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: list[VersionRow] = []
        self._elements: dict[tuple[int, str, int, int], ElementRow] = {}
        self._opened_at: list[tuple[int, tuple[int, str, int, int]]] = []  # (seq, key)
        self._closed_at: list[tuple[int, tuple[int, str, int, int], int]] = []  # (seq, key, until)
        self._heads: dict[int, int] = {}
        self._names: dict[str, int] = {}
        self._name_of: dict[int, str | None] = {}
        self._next_table_id = 1
        self._seq = 0

    def last_seq(self) -> int:
        return self._seq

    def changes(self, after_seq: int) -> Changes:
        with self._lock:
            versions = tuple(v for v in self._versions if v.seq > after_seq)
            opened = tuple(self._elements[k] for seq, k in self._opened_at if seq > after_seq)
            closed = tuple((k, until) for seq, k, until in self._closed_at if seq > after_seq)
            return Changes(versions, opened, closed, self._seq)

    def commit(self, commit: Commit) -> CommitResult:
        with self._lock:
            for table_id, version in commit.expected.items():
                if self._heads.get(table_id, 0) != version:
                    raise ConcurrentChangeError(
                        f"table id {table_id} moved to version {self._heads.get(table_id, 0)} "
                        f"while this statement was built on version {version}"
                    )
            ids = {tid: self._allocate() for tid in commit.names if tid < 0}
            moving = {
                ids.get(tid, tid): name
                for tid, name in commit.names.items()
                if self._name_of.get(ids.get(tid, tid)) != name
            }
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

            def real(tid: int) -> int:
                return ids.get(tid, tid)

            for row in commit.versions:
                self._versions.append(row.committed(real(row.table_id), seq))
                self._heads[real(row.table_id)] = row.version
            for key in commit.closed:
                real_key = (real(key[0]), *key[1:])
                closing = self._elements[real_key]
                until = self._heads[real_key[0]]
                self._elements[real_key] = closing.ending(until)
                self._closed_at.append((seq, real_key, until))
            for element in commit.opened:
                if element.table_id < 0:
                    element = element.ending(None, real(element.table_id))
                self._elements[element.key] = element
                self._opened_at.append((seq, element.key))
            self._names = names
            self._name_of.update(moving)
            return CommitResult(seq, ids)

    def _allocate(self) -> int:
        tid = self._next_table_id
        self._next_table_id += 1
        return tid

    @property
    def description(self) -> str:
        return "memory"
