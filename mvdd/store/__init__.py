"""Durable storage of the catalog: one interface, an in-memory and a SQLite implementation.

sqlite-utils is imported only by :mod:`mvdd.store.sqlite`.
"""

from mvdd.store.base import Changes, Commit, CommitResult, ElementRow, Store, VersionRow
from mvdd.store.memory import MemoryStore

__all__ = ["Changes", "Commit", "CommitResult", "ElementRow", "MemoryStore", "Store", "VersionRow"]
