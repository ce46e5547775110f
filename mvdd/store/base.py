"""The store interface: durable storage of the catalog's records.

The catalog keeps, per table, one *version row* per version and one *element row* per element
definition with a half-open version range ``[since, until)`` (seed 004): storage grows with
the number of changes, not with changes × columns. A store persists these rows and applies one
statement's rows as one atomic :class:`Commit`, which also checks that no other writer moved
the tables first (compare-and-set on each table's head version).

Every commit gets the next catalog-wide sequence number ``seq``; :meth:`Store.changes` returns
what was committed after a given ``seq``, so a catalog picks up other processes' commits with
one small query (:meth:`Store.last_seq`) when nothing changed.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import NamedTuple

import attrs

from mvdd.ddl.step import Step

#: the element kinds a table version is made of ("table" is the table's own metadata)
KINDS = ("table", "column", "index", "check")
#: ``until`` of an element row that is still live
OPEN = None


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
        return self._replace(table_id=table_id, seq=seq)


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
        if table_id is None:
            return self._replace(until=until)
        return self._replace(until=until, table_id=table_id)


@attrs.frozen
class Commit:
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
    """

    versions: tuple[VersionRow, ...]
    opened: tuple[ElementRow, ...]
    closed: tuple[tuple[int, str, int, int], ...]
    expected: Mapping[int, int]
    names: Mapping[int, str | None]


@attrs.frozen
class CommitResult:
    seq: int
    ids: Mapping[int, int]  # placeholder id -> assigned id


@attrs.frozen
class Changes:
    """Rows committed after some ``seq``, up to ``last_seq`` (versions in commit order)."""

    versions: tuple[VersionRow, ...]
    opened: tuple[ElementRow, ...]
    closed: tuple[tuple[tuple[int, str, int, int], int], ...]  # (key, until)
    last_seq: int


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

    def close(self) -> None:  # noqa: B027 - an optional hook: stores without resources keep it
        """Release the store's resources."""

    @property
    def description(self) -> str:
        """Where the store is, for messages (never credentials)."""
        return type(self).__name__
