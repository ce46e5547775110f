"""Metadata locks as MySQL takes them: the baseline mvdd is measured against.

A transaction takes a shared lock on each table at first access and holds it until it ends. A
DDL statement takes an exclusive lock on every table it touches: it waits for the shared holders
to finish, and while it waits, new shared requests wait behind it (MySQL gives the exclusive lock
priority so DDL is not starved). The effect: one long transaction stalls a DDL, and the DDL
stalls every new transaction on that table.

Only the concurrency benchmark uses this: ``MetadataLocks.install(cat)``.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

from mvdd.txn.transaction import registry_of


class MetadataLocks:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._shared: Counter[str] = Counter()
        self._exclusive: set[str] = set()
        self._waiting: Counter[str] = Counter()
        self._held: dict[int, list[str]] = {}

    @classmethod
    def install(cls, catalog: Any) -> MetadataLocks:
        """Make ``catalog`` lock like MySQL: its statements and transactions go through these
        locks."""
        locks = cls()
        catalog.set_gate(locks)
        registry_of(catalog).locks = locks
        return locks

    def acquire_shared(self, name: str, owner: object) -> None:
        with self._cond:
            while name in self._exclusive or self._waiting[name]:
                self._cond.wait()
            self._shared[name] += 1
            self._held.setdefault(id(owner), []).append(name)

    def release_all(self, owner: object) -> None:
        with self._cond:
            for name in self._held.pop(id(owner), []):
                self._shared[name] -= 1
            self._cond.notify_all()

    @contextlib.contextmanager
    def ddl(self, tables: tuple[str, ...]) -> Iterator[None]:
        names = sorted(set(tables))
        with self._cond:
            for name in names:
                self._waiting[name] += 1
            try:
                while any(self._shared[n] or n in self._exclusive for n in names):
                    self._cond.wait()
                self._exclusive.update(names)
            finally:
                for name in names:
                    self._waiting[name] -= 1
        try:
            yield
        finally:
            with self._cond:
                self._exclusive.difference_update(names)
                self._cond.notify_all()
