"""Compare and join whole table schemas (seed 000): the public ``compare`` and ``join``.

``compare(a, b)`` orders two schemas by the DML they accept: -1 when every DML valid on ``a`` is
valid on ``b`` with the same effect, 1 the other way, 0 when they accept the same; otherwise it
raises :class:`~mvdd.errors.IncomparableError` naming an element that favours each side.
``join(*tables)`` is the least schema that accepts every DML of every table, or raises
:class:`~mvdd.errors.JoinConflictError` naming the column, index or check and both sides.

How the n-ary join treats constraints (the choice the lattice leaves open): an index or check
survives only when every table has it with one definition and every column it reads is present
in every table. One that some table lacks, or that reads a column some table lacks, is dropped
(fewer constraints accept more DML, and seed 000 drops the indexes of a half-added or
half-dropped column at once). Two tables defining one name differently, each over columns all
tables have, is a conflict — even when a third table lacks it, so the outcome does not depend on
the order of the tables. Joins of tables are therefore commutative, idempotent and associative
wherever both groupings are defined (``join(join(a, b), c)`` may raise where ``join(a, b, c)``
does not: the three-way join sees the third table drop the disputed index).

The joined table gets fresh ids (1..n), the columns in order of first appearance, each
element's spelling (and comment) the least among the tables that have it, and the table options
the tables agree on.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

import attrs

from mvdd.ddl.apply import validate_table
from mvdd.ddl.render import column_def, index_node, sql
from mvdd.ddl.statement import parse_table
from mvdd.errors import DDLError, IncomparableError, JoinConflictError, MvddError
from mvdd.join.encode import (
    CHECK,
    CHECKS,
    COLUMNS,
    INDEXES,
    MISSING,
    SLOT,
    Encoded,
    decode_check,
    decode_column,
    decode_index,
    encode_table,
    mark_implicit,
    needs_implicit,
)
from mvdd.join.lattice import Flat, Incomparable, Lattice
from mvdd.join.merge import ElementConflict, join_column, join_constraint
from mvdd.model import Column, Index, Table, TableOptions


def as_table(table: str | Table) -> Table:
    """A table from its ``CREATE TABLE`` text, or the table itself."""
    if isinstance(table, Table):
        return table
    if not isinstance(table, str):
        raise DDLError(f"expected a CREATE TABLE statement or a Table, not {type(table).__name__}")
    return parse_table(table)


# --- describing elements for messages -------------------------------------------------------


def describe_column(table: Table, key: str) -> str:
    col = table.find_column(key)
    return "(absent)" if col is None else sql(column_def(col))


def describe_index(table: Table, key: str) -> str:
    idx = table.find_index(key)
    if idx is None:
        return "(absent)"
    parts = [(table.column_by_id(p.column_id).name, p.length, p.desc) for p in idx.parts]
    return sql(index_node(idx.kind, idx.name, parts))


def describe_check(table: Table, key: str) -> str:
    chk = table.find_check(key)
    if chk is None:
        return "(absent)"
    return f"CONSTRAINT `{chk.name}` CHECK ({chk.expr.sql})" + (
        "" if chk.enforced else " NOT ENFORCED"
    )


#: element kind -> (its lattice for one key, the map of Encoded, how to describe one side)
ELEMENTS: dict[str, tuple[Lattice, str, Callable[[Table, str], str]]] = {
    "column": (SLOT, "columns", describe_column),
    "index": (Flat(), "indexes", describe_index),
    "check": (CHECK, "checks", describe_check),
}


def _reason(err: Exception, key: str) -> str:
    path = list(getattr(err, "path", ()))
    if path and path[0] == key:
        path = path[1:]
    where = ".".join(str(p) for p in path if isinstance(p, str))
    message = getattr(err, "message", str(err))
    return f"{where}: {message}" if where else message


def conflict_error(
    kind: str,
    key: str,
    sides: Sequence[tuple[str, Table]],
    err: Exception,
    *,
    cls: type[MvddError] = JoinConflictError,
    verb: str = "cannot be joined",
) -> MvddError:
    """The error naming an element (by its spelling in the first side) and every side's
    definition of it; ``sides`` are (label, table) pairs."""
    described = [(label, ELEMENTS[kind][2](table, key)) for label, table in sides]
    name = key
    for _, table in sides:
        found = {
            "column": table.find_column,
            "index": table.find_index,
            "check": table.find_check,
        }[kind](key)
        if found is not None:
            name = found.name
            break
    listing = "; ".join(f"{label}: {text}" for label, text in described)
    place: dict[str, Any] = {"column": name} if kind == "column" else {"index": name}
    return cls(
        f"{kind} `{name}` {verb} ({_reason(err, key)}) — {listing}",
        sides=tuple(label for label, _ in sides),
        definitions=tuple(text for _, text in described),
        **place,
    )


# --- join -------------------------------------------------------------------------------------


@attrs.define
class Joined:
    """The lattice values of a join, before a table is built: per key, in first-seen order."""

    columns: dict[str, Any]
    indexes: dict[str, Any]
    checks: dict[str, Any]


def _holding(maps: Sequence[dict[str, Any]], key: str) -> dict[Any, list[int]]:
    out: dict[Any, list[int]] = {}
    for i, m in enumerate(maps):
        value = m.get(key)
        if value is not None:
            out.setdefault(value, []).append(i)
    return out


def join_values(inputs: Sequence[Encoded], labels: Sequence[str]) -> Joined:
    """The join, element by element, of encoded tables (rules in :mod:`mvdd.join.merge`).

    Raises JoinConflictError naming the element and two of the tables."""
    n = len(inputs)
    colsets = [frozenset(enc.columns) for enc in inputs]
    keys: dict[str, None] = {}
    for enc in inputs:
        keys.update(dict.fromkeys(enc.columns))
    complete = {k for k in keys if all(k in cols for cols in colsets)}

    def has(i: Hashable, cols: frozenset[str]) -> bool:
        return cols <= colsets[cast(int, i)]

    def fail(kind: str, key: str, err: ElementConflict) -> MvddError:
        left, right = cast(int, err.left), cast(int, err.right)
        pair = [(labels[left], inputs[left].table), (labels[right], inputs[right].table)]
        return conflict_error(kind, key, pair, err.err)

    out = Joined({}, {}, {})
    maps = [enc.columns for enc in inputs]
    for key in keys:
        try:
            value = join_column(_holding(maps, key), n, complete.__contains__, has)
        except ElementConflict as err:
            raise fail("column", key, err) from None
        if value != MISSING:
            out.columns[key] = value
    for kind, attr in (("index", "indexes"), ("check", "checks")):
        maps = [getattr(enc, attr) for enc in inputs]
        for key in dict.fromkeys(k for m in maps for k in m):
            try:
                value = join_constraint(kind, _holding(maps, key), n, complete.__contains__, has)
            except ElementConflict as err:
                raise fail(kind, key, err) from None
            if value is not None:
                getattr(out, attr)[key] = value
    return out


def _common_options(tables: Sequence[Table]) -> TableOptions:
    first = tables[0].options
    changes: dict[str, Any] = {
        f.name: None if f.name != "extra" else ()
        for f in attrs.fields(TableOptions)
        if any(getattr(t.options, f.name) != getattr(first, f.name) for t in tables[1:])
    }
    return attrs.evolve(first, **changes) if changes else first


def _spelling(element: Any) -> tuple[str, str]:
    return (element.name, getattr(element, "comment", None) or "")


def build_table(
    name: str,
    joined: Joined,
    tables: Sequence[Table],
    *,
    column_ids: dict[str, int] | None = None,
    options: TableOptions | None = None,
) -> Table:
    """A table from joined values: spellings and comments from the first table having each
    element; ids from ``column_ids`` where given, else fresh. Raises DDLError when the joined
    table cannot exist (row too large, a key over a column that changed...)."""
    column_ids = dict(column_ids or {})
    next_id = max(column_ids.values(), default=0)

    def fresh() -> int:
        nonlocal next_id
        next_id += 1
        return next_id

    def source_column(key: str) -> Column:
        # the least spelling, so that the join does not depend on the order of the tables
        return min((c for t in tables if (c := t.find_column(key)) is not None), key=_spelling)

    columns = []
    implicit = set()
    for key, value in joined.columns.items():
        src = source_column(key)
        cid = column_ids.get(key) or fresh()
        column_ids[key] = cid
        columns.append(decode_column(value, id=cid, name=src.name, comment=src.comment))
        if needs_implicit(value):
            implicit.add(key)
    indexes = []
    for key, value in joined.indexes.items():
        like: Index = min(
            (i for t in tables if (i := t.find_index(key)) is not None), key=_spelling
        )
        indexes.append(
            decode_index(value, id=fresh(), name=like.name, column_ids=column_ids, like=like)
        )
    checks = []
    for key, value in joined.checks.items():
        chk_name = min(
            (c for t in tables if (c := t.find_check(key)) is not None), key=_spelling
        ).name
        checks.append(decode_check(value, id=fresh(), name=chk_name))
    table = Table(
        name=name,
        columns=tuple(columns),
        indexes=tuple(indexes),
        checks=tuple(checks),
        options=options if options is not None else _common_options(tables),
        last_id=next_id,
    )
    return mark_implicit(table, frozenset(implicit))


def join(*tables: str | Table) -> Table:
    """The least schema accepting every DML of every table (seed 000's join).

    Args:
        tables: one or more ``CREATE TABLE`` statements or tables.

    Returns:
        the joined table, named after the first.

    Raises:
        JoinConflictError: two tables define a column, index or check in ways no schema
            accepts together; names the element and both sides.
        DDLError: a statement that is not one valid CREATE TABLE.

    >>> t = join("CREATE TABLE t (a INT NOT NULL)", "CREATE TABLE t (a BIGINT, b INT NOT NULL)")
    >>> print(t.to_sql())
    CREATE TABLE `t` (`a` BIGINT DEFAULT NULL, `b` INT NOT NULL DEFAULT 0)
    """
    if not tables:
        raise DDLError("join needs at least one table")
    resolved = [as_table(t) for t in tables]
    labels = [f"#{i + 1} `{t.name}`" for i, t in enumerate(resolved)]
    joined = join_values([encode_table(t) for t in resolved], labels)
    try:
        table = build_table(resolved[0].name, joined, resolved)
        validate_table(table)
    except DDLError as err:
        raise JoinConflictError(
            f"the joined table cannot exist: {err.message}",
            table=resolved[0].name,
            column=err.column,
            index=err.index,
        ) from None
    return table


# --- compare ----------------------------------------------------------------------------------


def compare(a: str | Table, b: str | Table) -> int:
    """-1 if ``a`` accepts less DML than ``b`` (all of it with the same effect), 0 if the same,
    1 if more.

    Raises:
        IncomparableError: neither accepts all the other's DML; names an element that favours
            each side (or the element whose two definitions are unordered).
        DDLError: a statement that is not one valid CREATE TABLE.

    >>> compare("CREATE TABLE t (a INT NOT NULL)", "CREATE TABLE t (a INT NULL)")
    -1
    """
    ta, tb = as_table(a), as_table(b)
    ea, eb = encode_table(ta), encode_table(tb)
    sides = [("left", ta), ("right", tb)]
    lattices = {"column": COLUMNS, "index": INDEXES, "check": CHECKS}
    lower: tuple[str, str] | None = None
    greater: tuple[str, str] | None = None
    for kind, (_, attr, _) in ELEMENTS.items():
        ma, mb = getattr(ea, attr), getattr(eb, attr)
        keyed = lattices[kind]
        for key in list(dict.fromkeys([*ma, *mb])):
            try:
                c = keyed.compare_key(ma, mb, key)
            except Incomparable as err:
                raise conflict_error(
                    kind, key, sides, err, cls=IncomparableError, verb="is unordered"
                ) from None
            if c < 0 and lower is None:
                lower = (kind, key)
            elif c > 0 and greater is None:
                greater = (kind, key)
            if lower is not None and greater is not None:
                raise _mixed(sides, lower, greater)
    return -1 if lower is not None else 1 if greater is not None else 0


def _mixed(
    sides: Sequence[tuple[str, Table]], lower: tuple[str, str], greater: tuple[str, str]
) -> IncomparableError:
    (_, ta), (_, tb) = sides
    g_kind, g_key = greater
    l_kind, l_key = lower
    describe = {k: v[2] for k, v in ELEMENTS.items()}
    err = IncomparableError(
        f"neither schema accepts all the other's DML: {g_kind} `{g_key}` is more permissive on "
        f"the left ({describe[g_kind](ta, g_key)} vs {describe[g_kind](tb, g_key)}), {l_kind} "
        f"`{l_key}` on the right ({describe[l_kind](ta, l_key)} vs {describe[l_kind](tb, l_key)})",
        **({"column": g_key} if g_kind == "column" else {"index": g_key}),
    )
    return err


__all__ = ["Joined", "as_table", "build_table", "compare", "join", "join_values"]
