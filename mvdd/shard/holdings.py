"""Who holds what in a shard group: the bookkeeping that lets one DDL re-join only what it
touches.

For every element key (column, index, check) :class:`Holdings` keeps which shards hold which
definition (distinct definitions are few), how many shards have each column (*exists* on all,
*partial*, or *dropped* from all, seed 000), and which constraints read each column. Moving one
shard's schema costs O(elements it changes); joining one element costs O(its distinct
definitions), never O(shards). Every move is journaled, so a move that turns out to have no join
is undone exactly.

:meth:`Holdings._check` recomputes everything from the shards' encodings and asserts it equals
what was kept (the state machines call it after every step).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import attrs

from mvdd.errors import JoinConflictError
from mvdd.join.encode import Encoded
from mvdd.join.merge import (
    ElementConflict,
    counter_conflict,
    expr_columns,
    index_reads,
    join_column,
    join_constraint,
    starts_with,
)
from mvdd.model.element import ElementKind

KINDS = tuple(ElementKind)


class Refused(Exception):
    """A change of the group that has no join (nothing of it is kept)."""

    def __init__(self, error: JoinConflictError) -> None:
        super().__init__(error.message)
        self.error = error


@attrs.define
class Journal:
    """What a tentative move changed, to put back if it is refused."""

    holdings: list[tuple[ElementKind, str, Any, str, bool]] = attrs.field(factory=list)
    encoded: list[tuple[str, Encoded | None]] = attrs.field(factory=list)
    count: int = 0


def reads(kind: ElementKind, value: Any) -> frozenset[str]:
    """The column keys a definition reads (a generated column's expression, an index's
    columns, a check's expression)."""
    if kind == ElementKind.COLUMN:
        return expr_columns(value[1][2].expr) if value[0] == 0 else frozenset()
    if kind == ElementKind.INDEX:
        return index_reads(value)
    return expr_columns(value[0])


class Holdings:
    """The definitions the shards in a group's join hold, by element key."""

    def __init__(self) -> None:
        self.by_kind: dict[ElementKind, dict[str, dict[Any, set[str]]]] = {k: {} for k in KINDS}
        self.present: dict[str, int] = {}
        self.readers: dict[str, set[tuple[ElementKind, str]]] = {}
        self.encoded: dict[str, Encoded] = {}

    @property
    def count(self) -> int:
        """How many shards are in the join."""
        return len(self.encoded)

    def keys(self, kind: ElementKind) -> Iterable[str]:
        return self.by_kind[kind].keys()

    def holders(self, kind: ElementKind, key: str) -> dict[Any, set[str]]:
        """Definition -> the shards holding it (empty when no shard has the element)."""
        return self.by_kind[kind].get(key, {})

    def has(self, shard: Hashable, cols: frozenset[str]) -> bool:
        """Whether a shard in the join has every one of these columns."""
        enc = self.encoded.get(str(shard))
        return enc is not None and all(c in enc.columns for c in cols)

    def complete(self, key: str) -> bool:
        """Whether every shard in the join has the column."""
        return self.present.get(key, 0) == self.count

    def plain(self, key: str) -> int:
        """How many shards in the join hold the column as a plain one (not generated: a
        generated column is recomputed, never a renamed column's values)."""
        holding = self.holders(ElementKind.COLUMN, key)
        return sum(len(shards) for value, shards in holding.items() if value[0] == 1)

    def counter_conflict(self, joined: Any) -> tuple[str, ElementConflict] | None:
        """An AUTO_INCREMENT column of ``joined`` (a :class:`~mvdd.join.schema.Joined`) that
        no joined index keys, with two shards (see :func:`mvdd.join.merge.counter_conflict`)."""

        def counting(col: str) -> list[str]:
            return sorted(
                h
                for v, hs in self.holders(ElementKind.COLUMN, col).items()
                if v[0] == 1 and v[1][4] is True
                for h in hs
            )

        def keyed(col: str) -> set[str]:
            return {
                h
                for by_value in self.by_kind[ElementKind.INDEX].values()
                for v, hs in by_value.items()
                if starts_with(v, col)
                for h in hs
            }

        return counter_conflict(
            joined.columns, joined.indexes, counting, keyed, lambda: sorted(self.encoded)
        )

    def join(self, kind: ElementKind, key: str) -> Any:
        """The joined definition of one element (None: dropped; a column: MISSING when
        absent). Raises ElementConflict naming two shards."""
        holding = self.by_kind[kind].get(key, {})
        if kind == ElementKind.COLUMN:
            return join_column(holding, self.count, self.complete, self.has)
        return join_constraint(kind, holding, self.count, self.complete, self.has)

    def join_renamed(self, new: str, old: str) -> Any:
        """The joined definition of column ``new`` while a rename ``old`` -> ``new`` is under
        way (seed 000's merge): the downstream column holds the rows of the shards that
        renamed (``new``) and, written there too, of those that still write ``old``, so it
        joins both (a shard holding both names, having added ``old`` anew, counts by its
        ``new``). It stays partial until every shard has ``new`` (the shards writing ``old``
        write it too, but only the renamed ones' rows need it: they count beside the shards,
        so a holder short of them joins the absent column's slot). Raises ElementConflict
        naming two shards."""
        renamed = self.by_kind[ElementKind.COLUMN].get(new, {})
        holding = {value: set(shards) for value, shards in renamed.items()}
        named = {s for shards in renamed.values() for s in shards}
        writing = 0
        for value, shards in self.by_kind[ElementKind.COLUMN].get(old, {}).items():
            others = shards - named
            if others:
                holding.setdefault(value, set()).update(others)
                writing += len(others)
        return join_column(holding, self.count + writing, self.complete, self.has)

    # -- moves --------------------------------------------------------------------------------

    def move(
        self,
        shard: str,
        new: Encoded | None,
        touched: dict[ElementKind, set[str]],
        journal: Journal,
    ) -> None:
        """Replace a shard's encoding in the join (None: it leaves; none before: it joins);
        ``touched`` gains the keys whose holdings changed."""
        old = self.encoded.get(shard)
        journal.encoded.append((shard, old))
        if (old is None) != (new is None):  # the number of shards, so every column's
            for kind in KINDS:  # completeness, may change
                touched[kind].update(self.by_kind[kind])
        for kind in KINDS:
            before = old.of(kind) if old is not None else {}
            after = new.of(kind) if new is not None else {}
            # in the schema's own order: a new key's first holder sets where it comes
            for key in [*after, *(k for k in before if k not in after)]:
                a, b = before.get(key), after.get(key)
                if a == b:
                    continue
                touched[kind].add(key)
                if a is not None:
                    self._release(kind, key, a, shard)
                    journal.holdings.append((kind, key, a, shard, True))
                if b is not None:
                    self._hold(kind, key, b, shard)
                    journal.holdings.append((kind, key, b, shard, False))
        if new is None:
            self.encoded.pop(shard, None)
        else:
            self.encoded[shard] = new

    def undo(self, journal: Journal) -> None:
        """Put back everything ``journal`` records, newest first."""
        for kind, key, value, shard, released in reversed(journal.holdings):
            if released:
                self._hold(kind, key, value, shard)
            else:
                self._release(kind, key, value, shard)
        for shard, enc in reversed(journal.encoded):
            if enc is None:
                self.encoded.pop(shard, None)
            else:
                self.encoded[shard] = enc

    def _hold(self, kind: ElementKind, key: str, value: Any, shard: str) -> None:
        self.by_kind[kind].setdefault(key, {}).setdefault(value, set()).add(shard)
        if kind == ElementKind.COLUMN:
            self.present[key] = self.present.get(key, 0) + 1
        for col in reads(kind, value):
            self.readers.setdefault(col, set()).add((kind, key))

    def _release(self, kind: ElementKind, key: str, value: Any, shard: str) -> None:
        by_value = self.by_kind[kind][key]
        holders = by_value[value]
        holders.discard(shard)
        if not holders:
            del by_value[value]
            if not by_value:
                del self.by_kind[kind][key]
        if kind == ElementKind.COLUMN:
            self.present[key] -= 1
            if not self.present[key]:
                del self.present[key]

    def _check(self) -> None:
        """Assert the kept holdings are exactly those of the shards' encodings."""
        expected: dict[ElementKind, dict[str, dict[Any, set[str]]]] = {k: {} for k in KINDS}
        present: dict[str, int] = {}
        for shard, enc in self.encoded.items():
            for kind in KINDS:
                for key, value in enc.of(kind).items():
                    expected[kind].setdefault(key, {}).setdefault(value, set()).add(shard)
                    if kind == ElementKind.COLUMN:
                        present[key] = present.get(key, 0) + 1
        assert self.by_kind == expected, (self.by_kind, expected)
        assert self.present == present, (self.present, present)
        for kind in KINDS:
            for key, by_value in expected[kind].items():
                for value in by_value:
                    for col in reads(kind, value):
                        assert (kind, key) in self.readers.get(col, set()), (kind, key, col)


__all__ = ["KINDS", "ElementConflict", "Holdings", "Journal", "Refused", "reads"]
