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

Some attributes hold only together with another element, and the join keeps them together or
refuses: an AUTO_INCREMENT column needs a key of it (an index it starts) in the join, so a
counter whose key is not on every holder is a conflict (as TiDB's schemacmp decides) — never a
table the server refuses. (A generated column goes with the columns its expression reads, by the
rule above; a key part's prefix length is part of the index's definition.)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from typing import Any

from mvdd.ddl.expr import referenced_columns
from mvdd.join.encode import CHECK, COLUMNS, MISSING, index_columns
from mvdd.join.lattice import Conflict, Flat, Lattice
from mvdd.model.element import ElementKind, IndexKind

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
                left, right = _by_name(holding[a])[0], _by_name(holding[b])[0]
                raise ElementConflict(failure, left, right)
            ra, rb = reads(a), reads(b)
            left = next((h for h in _by_name(holding[a]) if has(h, rb)), None)
            right = next((h for h in _by_name(holding[b]) if has(h, ra)), None)
            if left is not None and right is not None:
                raise ElementConflict(failure, left, right)


def _by_name(holders: Collection[Hashable]) -> list[Hashable]:
    """Holders in the order of their names: a conflict names the same two in every process
    (a set's order is its strings' hashes', which each process seeds anew)."""
    return sorted(holders, key=str)


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


#: index kinds that cannot key an AUTO_INCREMENT column
_NOT_KEYS = frozenset({IndexKind.FULLTEXT, IndexKind.SPATIAL})


def counter_keys(indexes: Mapping[str, Any]) -> dict[str, list[str]]:
    """Column key -> the keys of the joined indexes that start with it (and can key a counter)."""
    out: dict[str, list[str]] = {}
    for key, value in indexes.items():
        if value[0] not in _NOT_KEYS:
            out.setdefault(value[1][0][0], []).append(key)
    return out


def counter_conflict(
    columns: Mapping[str, Any],
    indexes: Mapping[str, Any],
    counting: Callable[[str], Sequence[Hashable]],
    keyed: Callable[[str], Collection[Hashable]],
    holders: Callable[[], Iterable[Hashable]],
) -> tuple[str, ElementConflict] | None:
    """The first joined AUTO_INCREMENT column that no joined index keys, with two holders: one
    whose column counts and one without a key of it (None: every counter is keyed).

    ``counting(column)``: the holders whose column is AUTO_INCREMENT; ``keyed(column)``: the
    holders with an index that starts with the column; ``holders()``: every holder, in the
    order the second is looked for in (asked only where a counter lacks a joined key: a join
    of thousands of shards does not sort their names for each DDL)."""
    joined_keys = counter_keys(indexes)
    for key, value in columns.items():
        if value[0] != 1 or value[1][4] is not True or key in joined_keys:
            continue
        with_key = keyed(key)
        count = counting(key)
        left = next((h for h in count if h in with_key), count[0] if count else None)
        right = next((h for h in holders() if h not in with_key and h != left), None)
        if left is None or right is None:
            continue
        err = Conflict(
            "AUTO_INCREMENT needs a key of the column on every side, and one side has none",
            path=(key, "auto_increment"),
        )
        return key, ElementConflict(err, left, right)
    return None


def starts_with(value: Any, column: str) -> bool:
    """Whether an encoded index can key ``column`` as a counter (it starts with it)."""
    return value[0] not in _NOT_KEYS and value[1][0][0] == column


__all__ = [
    "CONSTRAINTS",
    "ElementConflict",
    "counter_conflict",
    "counter_keys",
    "expr_columns",
    "join_column",
    "join_constraint",
    "starts_with",
]
