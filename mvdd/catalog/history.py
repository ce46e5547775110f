"""One table's versions, rebuilt from element rows with version ranges (seed 004).

A :class:`TableHistory` holds every element row of one table (each definition once, live for
``since <= v < until``) and indexes them by the versions where they begin and end. The schema at
version ``v`` is rebuilt from the nearest checkpoint at or below ``v`` (a copy of the live map
kept every :data:`CHECKPOINT_EVERY` versions, in a ``SortedDict``) plus the rows that began or
ended since: O(log n + elements + CHECKPOINT_EVERY) whatever the history's length. Rebuilt tables
are cached (first in, first out), and the head is always cached, so repeated reads are dict
lookups. The cache is bounded twice: at most :data:`CACHE_SIZE` versions, and at most
:data:`CACHE_ELEMENTS` elements (columns, indexes and checks, one more per version for the
table itself) over all the versions it holds, so a table thousands of columns wide keeps fewer
versions rather than more memory (its newest version always stays). A version keeps its lookup
index (name and id maps) while it is the head or the version before it; older, it lets the
index go, in place (an old version is read rarely, and 512 kept maps per table cost memory and
a visit per entry at every full garbage collection; its next lookup builds them again).

The history is append-only and published by moving ``head`` last: a reader never sees a
half-appended version, and a read the cache answers takes no lock (a rebuild takes the cache's
own lock for the moment it takes to file the result).
"""

from __future__ import annotations

import bisect
import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import attrs
from sortedcontainers import SortedDict

from mvdd.ddl.step import Step
from mvdd.errors import NoSuchVersionError, StoreError
from mvdd.model import Check, Column, Index, Table
from mvdd.model.frozen import builder
from mvdd.model.table import changed_window
from mvdd.store.base import ElementRow, VersionRow
from mvdd.store.codec import TableMeta

CHECKPOINT_EVERY = 32
#: the most versions of one table the cache keeps
CACHE_SIZE = 512
#: the most elements (columns, indexes, checks, plus one per version) the cache of one table
#: holds over all its versions: 512 versions of 127 columns, or 32 versions of 2,047
CACHE_ELEMENTS = 65_536

Key = tuple[str, int, int]  # (kind, element_id, since)
Slot = tuple[str, int]  # (kind, element_id)


@attrs.frozen(kw_only=True)
class Change:
    """One committed version of one table: what the statement was and what it did.

    Attributes:
        table: the table's name at this version.
        table_id: the table's stable id.
        version: the version this change produced.
        statement: the statement text as given.
        steps: the statement's steps on this table.
        position: the external position recorded with the statement (None if none).
        at: when it was committed (UTC).
        dropped: the statement dropped the table (this version has no schema).
        seq: the catalog-wide sequence number of the commit (the schema version nodes load).
    """

    table: str
    table_id: int
    version: int
    statement: str
    steps: tuple[Step, ...]
    position: Any
    at: dt.datetime
    dropped: bool = False
    seq: int = 0

    @classmethod
    def of(cls, row: VersionRow) -> Change:
        return _change(
            table=row.name,
            table_id=row.table_id,
            version=row.version,
            statement=row.statement,
            steps=row.steps,
            position=row.position,
            at=dt.datetime.fromtimestamp(row.at, dt.UTC),
            dropped=row.dropped,
            seq=row.seq,
        )


#: Change and TableMeta made at a fraction of their __init__'s cost (:mod:`mvdd.model.frozen`)
_change = builder(Change)
_meta = builder(TableMeta)


def elements_of(table: Table) -> dict[Slot, tuple[object, int]]:
    """The rows a table version is made of: (kind, id) -> (value, id of the element before)."""
    out: dict[Slot, tuple[object, int]] = {
        ("table", 0): (_meta(table.name, table.options, table.last_id), 0)
    }
    for kind, items in (
        ("column", table.columns),
        ("index", table.indexes),
        ("check", table.checks),
    ):
        prev = 0
        for item in items:
            out[(kind, item.id)] = (item, prev)
            prev = item.id
    return out


_KINDS = ("column", "index", "check")


def diff_rows(
    live: dict[Slot, ElementRow], old: Table | None, new: Table | None
) -> tuple[list[tuple[str, int, object, int]], list[ElementRow]]:
    """What changes from ``old`` (whose rows are ``live``) to ``new`` (None: dropped): the
    (kind, id, value, prev) rows to open, and the live rows to close.

    An element no step touched is the very object ``old`` holds, so only the window between the
    common prefix and suffix of each element list (:func:`~mvdd.model.table.changed_window`)
    is walked: the cost follows the change, not the table's width.
    """
    if new is None:
        return [], list(live.values())
    opened: list[tuple[str, int, object, int]] = []
    closed: list[ElementRow] = []
    meta_row = live.get(("table", 0))
    held = meta_row.value if meta_row is not None else None
    if not (  # the stored metadata still holds (options compare by identity first)
        isinstance(held, TableMeta)
        and held.name == new.name
        and held.last_id == new.last_id
        and (held.options is new.options or held.options == new.options)
    ):
        opened.append(("table", 0, _meta(new.name, new.options, new.last_id), 0))
        if meta_row is not None:
            closed.append(meta_row)
    olds: tuple[tuple[Any, ...], ...] = (
        (old.columns, old.indexes, old.checks) if old is not None else ((), (), ())
    )
    news: tuple[tuple[Any, ...], ...] = (new.columns, new.indexes, new.checks)
    for kind, before, after in zip(_KINDS, olds, news, strict=True):
        if before is after:
            continue  # untouched since the last version
        p, s = new.column_window(before) if kind == "column" else changed_window(before, after)
        # the window, and the first element after it (its predecessor may have changed)
        window = after[p : min(len(after), len(after) - s + 1)]
        kept: set[int] = set()
        for i, element in enumerate(window, start=p):
            prev = after[i - 1].id if i else 0
            row = live.get((kind, element.id))
            kept.add(element.id)
            if (
                row is not None
                and row.prev == prev
                and (row.value is element or element.same_as_shown(row.value))
            ):
                continue
            opened.append((kind, element.id, element, prev))
            if row is not None:
                closed.append(row)
        # an element of the old window not in the new one is gone (the equal prefixes and
        # suffixes hold each element once, so it cannot have moved there)
        for element in before[p : len(before) - s]:
            if element.id not in kept:
                row = live.get((kind, element.id))
                if row is not None:
                    closed.append(row)
    return opened, closed


class TableHistory:
    """Every version of one table (see the module docstring)."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.head = 0
        #: the head version's table once built (None: dropped or not built yet)
        self.head_table: Table | None = None
        self._rows: list[VersionRow] = []
        #: the key of every element row the history holds (the values live in ``_born``)
        self._keys: set[Key] = set()
        # per version: the rows that begin there, and the slots whose rows end there (tuples,
        # () when none: a version keeps as few objects as it can, each one a visit at every
        # full garbage collection)
        self._born: list[tuple[ElementRow, ...]] = []
        self._died: list[tuple[Slot, ...]] = []
        # slot -> row, at the head; checkpoints are copies of it every CHECKPOINT_EVERY versions
        self._live: dict[Slot, ElementRow] = {}
        self._checkpoints: SortedDict = SortedDict({0: {}})
        self._cache: OrderedDict[int, Table] = OrderedDict()
        #: the elements the cache holds (see :func:`_size`); changed under ``_cache_lock``
        self._cached_elements = 0
        self._cache_lock = threading.Lock()
        self._pos_start: int | None = None
        self._positions: list[Any] = []

    # -- reading --------------------------------------------------------------------------------

    def row(self, version: int) -> VersionRow:
        if not 1 <= version <= self.head:
            raise NoSuchVersionError(
                f"no version {version} (versions are 1..{self.head})", table=self.name
            )
        return self._rows[version - 1]

    @property
    def name(self) -> str:
        return self._rows[self.head - 1].name if self.head else "?"

    @property
    def dropped(self) -> bool:
        return bool(self.head) and self._rows[self.head - 1].dropped

    def change(self, version: int) -> Change:
        """The change that made ``version``: built from its row on each call (a change is read
        rarely; a history keeping one object per version costs a visit to it at every full
        garbage collection)."""
        return Change.of(self.row(version))

    def changes(self) -> list[Change]:
        return [Change.of(row) for row in self._rows[: self.head]]

    def table_at(self, version: int) -> Table:
        """The schema at ``version``. O(1) when cached, else O(log n + elements + 32)."""
        cached = self._cache.get(version)
        if cached is not None:
            return cached
        row = self.row(version)
        if row.dropped:
            raise NoSuchVersionError(f"version {version} is the table's drop", table=row.name)
        table = self._build(version)
        self._remember(version, table)
        if version == self.head:
            self.head_table = table
        return table

    def _remember(self, version: int, table: Table) -> None:
        # bounded, first in first out (hits cost one dict lookup, nothing more, and take no
        # lock); the head is kept apart in head_table and never evicted. Misses and appends
        # take the lock, so the element count stays exact when readers rebuild concurrently.
        with self._cache_lock:
            self._file(version, table)

    def _file(self, version: int, table: Table) -> None:
        cache = self._cache
        held = cache.pop(version, None)
        if held is not None:
            self._cached_elements -= _size(held)
        cache[version] = table
        self._cached_elements += _size(table)
        while len(cache) > CACHE_SIZE or (
            self._cached_elements > CACHE_ELEMENTS and len(cache) > 1
        ):
            _, evicted = cache.popitem(last=False)
            self._cached_elements -= _size(evicted)

    def _supersede(self, version: int, table: Table | None) -> None:
        """The head is superseded by ``version`` (``table``, if built), which is filed. Only
        the head and the version before it keep their lookup index: the version before the
        head is where a check of the head's steps applies them (the review of the live
        transactions judges a new version at once) and what the transactions that bound it
        just before hold. An older version lets its index go (:meth:`Table.forget_index`;
        a reader still holding it builds it again at its next lookup): it is read rarely."""
        with self._cache_lock:
            older = self._cache.get(version - 2)
            if older is not None:
                older.forget_index()
            if table is not None:
                self._file(version, table)

    def forget(self) -> None:
        """Drop every cached version (the next reads rebuild them from the element rows)."""
        with self._cache_lock:
            self._cache.clear()
            self._cached_elements = 0
            self.head_table = None

    def cached(self) -> tuple[int, int]:
        """How many versions the cache holds, and how many elements over them."""
        with self._cache_lock:
            return len(self._cache), self._cached_elements

    def _live_at(self, version: int) -> dict[Slot, ElementRow]:
        at = self._checkpoints.bisect_right(version) - 1
        base, live = self._checkpoints.peekitem(at)
        live = dict(live)
        died, born = self._died, self._born
        for v in range(base, version):
            for slot in died[v]:
                del live[slot]
            for rec in born[v]:
                live[(rec.kind, rec.element_id)] = rec
        return live

    def _build(self, version: int) -> Table:
        meta: TableMeta | None = None
        chains: dict[str, dict[int, object]] = {"column": {}, "index": {}, "check": {}}
        for (kind, _), rec in self._live_at(version).items():
            if kind == "table":
                meta = rec.value  # type: ignore[assignment]
            else:
                chains[kind][rec.prev] = rec.value
        if meta is None:
            raise StoreError(f"table id {self.table_id} has no metadata at version {version}")
        return Table(
            name=meta.name,
            id=self.table_id,
            version=version,
            columns=_ordered(chains["column"], Column, self.table_id),
            indexes=_ordered(chains["index"], Index, self.table_id),
            checks=_ordered(chains["check"], Check, self.table_id),
            options=meta.options,
            last_id=meta.last_id,
        )

    def live_rows(self) -> dict[Slot, ElementRow]:
        """The rows live at the head (for diffing the next version; do not modify)."""
        return self._live

    # -- positions ------------------------------------------------------------------------------

    @property
    def head_position(self) -> Any:
        return self._positions[-1] if self._positions else None

    def version_before(self, position: Any) -> int:
        """The newest version whose (effective) position is strictly before ``position`` (0:
        none). A version recorded without a position has the position of the one before it."""
        if self._pos_start is None:
            return self.head
        return self._pos_start - 1 + bisect.bisect_left(self._positions, position)

    def versions_at(self, position: Any) -> list[int]:
        """Versions recorded with exactly this position."""
        return [r.version for r in self._rows if r.position == position]

    # -- appending (the writer or a refresh; never concurrently with itself) ---------------------

    def append(
        self,
        row: VersionRow,
        opened: Sequence[ElementRow],
        closed: Sequence[Key],
        table: Table | None = None,
    ) -> None:
        """Add the next version: its row, the element rows it opens and the keys it closes.
        ``table`` (if the caller has it) seeds the cache. Publishes by moving ``head`` last."""
        version = row.version
        if version != self.head + 1:
            raise StoreError(
                f"table id {self.table_id}: version {version} follows {self.head}: the store "
                "has a gap in this table's history"
            )
        died = []
        keys, live = self._keys, self._live
        for key in closed:
            if key not in keys:
                raise StoreError(f"table id {self.table_id}: closing unknown element row {key}")
            slot = (key[0], key[1])
            if slot in live and live[slot].since == key[2]:
                del live[slot]
                died.append(slot)
        born = []
        for rec in opened:
            if rec.until is not None:  # a refresh may bring rows that later versions closed
                rec = rec.ending(None)
            keys.add((rec.kind, rec.element_id, rec.since))
            live[(rec.kind, rec.element_id)] = rec
            born.append(rec)
        self._rows.append(row)
        self._born.append(tuple(born) if born else ())
        self._died.append(tuple(died) if died else ())
        if row.position is not None:
            if self._pos_start is None:
                self._pos_start = version
            self._positions.append(row.position)
        elif self._pos_start is not None:
            self._positions.append(self._positions[-1])
        if version % CHECKPOINT_EVERY == 0:
            self._checkpoints[version] = self._live.copy()  # (whole, holes and all: fast)
        self._supersede(version, table)
        self.head_table = table
        self.head = version

    def storage(self) -> int:
        """How many element rows this table's history holds."""
        return len(self._keys)


def _size(table: Table) -> int:
    """What one cached version counts against :data:`CACHE_ELEMENTS`."""
    return 1 + len(table.columns) + len(table.indexes) + len(table.checks)


def _ordered(by_prev: dict[int, Any], kind: type, table_id: int) -> tuple[Any, ...]:
    out = []
    prev = 0
    while prev in by_prev:
        item = by_prev.pop(prev)
        out.append(item)
        prev = item.id
    if by_prev:
        raise StoreError(f"table id {table_id}: broken {kind.__name__.lower()} order in the store")
    return tuple(out)
