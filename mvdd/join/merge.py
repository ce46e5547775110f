"""The n-ary join of one schema element held by many holders (tables, or shards of a group).

A *holding* maps each distinct lattice value of the element to the holders that have it; the
holders that lack the element are counted by ``total``. Working on distinct values makes a join
over many shards cost O(distinct values), not O(shards).

Constraints that read columns (indexes, checks, generated columns) follow one rule, chosen so
that a conflict is a property of a *pair* of holders — joining fewer holders never conflicts
where more did not, so a group can always drop a member:

* two holders conflict on the element when their definitions do not join and each definition
  reads only columns the other holder has (an index on a column that one holder dropped or
  renamed is not a conflict: the seed drops it while the column is partial);
* the element survives when every holder has it and every column it reads is present in every
  holder (a *complete* column); otherwise it is dropped — fewer constraints accept more DML, and
  a generated column is more permissive absent.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Hashable, Mapping
from typing import Any

from mvdd.ddl.expr import referenced_columns
from mvdd.join.encode import CHECK, COLUMNS, MISSING, ElementKind, index_columns
from mvdd.join.lattice import Conflict, Flat, Lattice

#: does a holder have all of these columns (keys)?
HasColumns = Callable[[Hashable, frozenset[str]], bool]
#: the column keys a value reads
Reads = Callable[[Any], frozenset[str]]


class ElementConflict(Exception):
    """Two holders whose definitions of one element cannot be joined."""

    def __init__(self, err: Conflict, left: Hashable, right: Hashable) -> None:
        super().__init__(err.message)
        self.err = err
        self.left = left
        self.right = right


def _pair_conflict(
    lattice: Lattice,
    holding: Mapping[Any, Collection[Hashable]],
    values: list[Any],
    reads: Reads | None,
    has: HasColumns,
) -> None:
    """Raise ElementConflict for the first conflicting pair of holders among ``values``."""
    for j in range(1, len(values)):
        for i in range(j):
            a, b = values[i], values[j]
            try:
                lattice.join_all([a, b])
                continue
            except Conflict as err:
                failure = err
            if reads is None:
                left, right = next(iter(holding[a])), next(iter(holding[b]))
                raise ElementConflict(failure, left, right)
            ra, rb = reads(a), reads(b)
            left = next((h for h in holding[a] if has(h, rb)), None)
            right = next((h for h in holding[b] if has(h, ra)), None)
            if left is not None and right is not None:
                raise ElementConflict(failure, left, right)


@functools.lru_cache(maxsize=4096)
def expr_columns(expr: Any) -> frozenset[str]:
    """Column keys an expression reads (cached: expressions are few and parsing is not cheap)."""
    return referenced_columns(expr)


def _gen_reads(value: Any) -> frozenset[str]:
    return expr_columns(value[1][2].expr) if value[0] == 0 else frozenset()


def join_column(
    holding: Mapping[Any, Collection[Hashable]],
    total: int,
    complete: Callable[[str], bool],
    has: HasColumns,
) -> Any:
    """The joined slot of one column (:data:`~mvdd.join.encode.MISSING` when absent).

    Raises ElementConflict naming two holders.
    """
    values = list(holding)
    gens = [v for v in values if v[0] == 0]
    if len(gens) > 1:
        _pair_conflict(Flat(), holding, gens, _gen_reads, has)
    held = sum(map(len, holding.values()))
    kept = [v for v in values if v[0] == 1 or all(map(complete, _gen_reads(v)))]
    if held < total or len(kept) < len(values):
        kept.append(MISSING)
    try:
        return COLUMNS.join_key(kept)
    except Conflict:
        normal = [v for v in values if v[0] == 1]
        _pair_conflict(COLUMNS.value, holding, normal, None, has)
        raise  # pragma: no cover - a failing n-ary join always has a failing pair here


def index_reads(value: Any) -> frozenset[str]:
    return frozenset(index_columns(value))


def check_reads(value: Any) -> frozenset[str]:
    return expr_columns(value[0])


#: constraint kind -> (lattice of one definition, the columns a definition reads)
CONSTRAINTS: dict[ElementKind, tuple[Lattice, Reads]] = {
    ElementKind.INDEX: (Flat(), index_reads),
    ElementKind.CHECK: (CHECK, check_reads),
}


def join_constraint(
    kind: ElementKind,
    holding: Mapping[Any, Collection[Hashable]],
    total: int,
    complete: Callable[[str], bool],
    has: HasColumns,
) -> Any:
    """The joined definition of one index or check, or None when it is dropped.

    Raises ElementConflict naming two holders.
    """
    lattice, reads = CONSTRAINTS[kind]
    values = list(holding)
    if len(values) > 1:
        _pair_conflict(lattice, holding, values, reads, has)
    held = sum(map(len, holding.values()))
    if held < total or not all(all(map(complete, reads(v))) for v in values):
        return None
    return lattice.join_all(values)


__all__ = [
    "CONSTRAINTS",
    "ElementConflict",
    "expr_columns",
    "join_column",
    "join_constraint",
]
