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

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, cast

import attrs

from mvdd.ddl.apply import hashed_keys, validate_table
from mvdd.ddl.render import column_def, index_node, sql
from mvdd.ddl.statement import parse_table
from mvdd.errors import DDLError, IncomparableError, JoinConflictError, MvddError
from mvdd.join.encode import (
    CHECKS,
    COLUMNS,
    INDEXES,
    MISSING,
    UNKNOWN,
    Encoded,
    column_key,
    decode_check,
    decode_column,
    decode_index,
    encode_table,
)
from mvdd.join.lattice import Incomparable, Keyed
from mvdd.join.merge import (
    ElementConflict,
    counter_conflict,
    join_column,
    join_constraint,
    starts_with,
)
from mvdd.model import Column, Table, TableOptions
from mvdd.model.element import ElementKind
from mvdd.model.names import check_key


def as_table(table: str | Table) -> Table:
    """A table from its ``CREATE TABLE`` text (an existing table's, which its server's rules
    built: :class:`~mvdd.ddl.rules.Rules`), or the table itself."""
    if isinstance(table, Table):
        return table
    if not isinstance(table, str):
        raise DDLError(f"expected a CREATE TABLE statement or a Table, not {type(table).__name__}")
    return parse_table(table, replica=True)


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
    chk = table.check_by_key(key)
    if chk is None:
        return "(absent)"
    return f"CONSTRAINT `{chk.name}` CHECK ({chk.expr.sql})" + (
        "" if chk.enforced else " NOT ENFORCED"
    )


#: element kind -> (the lattice of its map by key, how to describe one side's definition)
ELEMENTS: dict[ElementKind, tuple[Keyed, Callable[[Table, str], str]]] = {
    ElementKind.COLUMN: (COLUMNS, describe_column),
    ElementKind.INDEX: (INDEXES, describe_index),
    ElementKind.CHECK: (CHECKS, describe_check),
}
#: the error field that names an element of each kind
_PLACE = {ElementKind.COLUMN: "column", ElementKind.INDEX: "index", ElementKind.CHECK: "index"}


def _reason(err: Exception, key: str) -> str:
    if UNKNOWN in (getattr(err, "left", None), getattr(err, "right", None)):
        return (
            "one side's charset follows a database default that is not known; give it "
            "(ShardGroup(charset=…), Catalog(charset=…)) and the charsets join as any do"
        )
    path = list(getattr(err, "path", ()))
    if path and path[0] == key:
        path = path[1:]
    where = ".".join(str(p) for p in path if isinstance(p, str))
    message = getattr(err, "message", str(err))
    return f"{where}: {message}" if where else message


def conflict_error(
    kind: ElementKind,
    key: str,
    sides: Sequence[tuple[str, Table]],
    err: Exception,
    *,
    cls: type[MvddError] = JoinConflictError,
    verb: str = "cannot be joined",
) -> MvddError:
    """The error naming an element (by its spelling in the first side) and every side's
    definition of it; ``sides`` are (label, table) pairs."""
    described = [(label, ELEMENTS[kind][1](table, key)) for label, table in sides]
    name = key
    for _, table in sides:
        found = FIND[kind](table, key)
        if found is not None:
            name = found.name
            break
    listing = "; ".join(f"{label}: {text}" for label, text in described)
    place: dict[str, Any] = {_PLACE[kind]: name}
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

    def of(self, kind: ElementKind) -> dict[str, Any]:
        """The joined values of one kind of element."""
        return {
            ElementKind.COLUMN: self.columns,
            ElementKind.INDEX: self.indexes,
            ElementKind.CHECK: self.checks,
        }[kind]

    def copy(self) -> Joined:
        return Joined(dict(self.columns), dict(self.indexes), dict(self.checks))


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

    def fail(kind: ElementKind, key: str, err: ElementConflict) -> MvddError:
        left, right = cast(int, err.left), cast(int, err.right)
        pair = [(labels[left], inputs[left].table), (labels[right], inputs[right].table)]
        return conflict_error(kind, key, pair, err.err)

    out = Joined({}, {}, {})
    maps = [enc.columns for enc in inputs]
    for key in keys:
        try:
            value = join_column(_holding(maps, key), n, complete.__contains__, has)
        except ElementConflict as err:
            raise fail(ElementKind.COLUMN, key, err) from None
        if value != MISSING:
            out.columns[key] = value
    for kind in (ElementKind.INDEX, ElementKind.CHECK):
        maps = [enc.of(kind) for enc in inputs]
        for key in dict.fromkeys(k for m in maps for k in m):
            try:
                value = join_constraint(kind, _holding(maps, key), n, complete.__contains__, has)
            except ElementConflict as err:
                raise fail(kind, key, err) from None
            if value is not None:
                out.of(kind)[key] = value
    found = counter_conflict(
        out.columns,
        out.indexes,
        lambda col: [i for i, e in enumerate(inputs) if _counts(e.columns.get(col))],
        lambda col: {
            i for i, e in enumerate(inputs) if any(starts_with(v, col) for v in e.indexes.values())
        },
        lambda: range(n),
    )
    if found is not None:
        raise fail(ElementKind.COLUMN, *found)
    return out


def _counts(value: Any) -> bool:
    """Whether an encoded column is an AUTO_INCREMENT one."""
    return value is not None and value[0] == 1 and value[1][4] is True


def common_options(options: Sequence[TableOptions]) -> TableOptions:
    """The table options every side agrees on (an option they differ on is left unset), but
    MariaDB's system versioning, which a join never has: a side's past rows are its own, and
    the join holds current rows (a reader hands out a versioned table's changes to them)."""
    first = options[0]
    changes: dict[str, Any] = {
        f.name: () if f.name == "extra" else None
        for f in attrs.fields(TableOptions)
        if f.name != "versioned"
        and any(getattr(o, f.name) != getattr(first, f.name) for o in options[1:])
    }
    if first.versioned:
        changes["versioned"] = False
    return attrs.evolve(first, **changes) if changes else first


def _spelling(element: Any) -> tuple[str, str]:
    return (element.name, getattr(element, "comment", None) or "")


#: where an element's spelling (name, comment, an index's look) comes from: kind, key -> one
#: table's element of that key
Spelling = Callable[[ElementKind, str], Any]


def least_spelling(tables: Sequence[Table]) -> Spelling:
    """The least spelling among the tables that have an element, so that a join does not
    depend on the order of its tables."""

    def spell(kind: ElementKind, key: str) -> Any:
        found = [e for t in tables if (e := FIND[kind](t, key)) is not None]
        return min(found, key=_spelling) if found else None

    return spell


#: how to find an element of a kind in a table by key
FIND: dict[ElementKind, Callable[[Table, str], Any]] = {
    ElementKind.COLUMN: Table.find_column,
    ElementKind.INDEX: Table.find_index,
    ElementKind.CHECK: Table.check_by_key,
}


def build_table(
    name: str,
    joined: Joined,
    *,
    spell: Spelling,
    options: TableOptions,
    column_ids: dict[str, int] | None = None,
    previous: Table | None = None,
    comments: Mapping[str, str | None] | None = None,
    last_id: int = 0,
) -> Table:
    """The table of joined values (every caller of the join builds its table here).

    Args:
        name: the table's name.
        joined: the joined values, by element key.
        spell: the spelling of an element that is new (not in ``previous``).
        options: the table options.
        column_ids: column key -> id for columns that keep one (updated with the new ones).
        previous: the table this one follows (a shard group's downstream table): a column or
            index it has under the same key keeps its spelling (and an index its id, if its
            definition is the same); columns keep its order, new ones come last.
        comments: column key -> comment, overriding the spelling's.
        last_id: ids given to new elements start after it.

    Raises DDLError when the joined table cannot exist (row too large, a key over a column that
    changed ...) — callers report it as a conflict.
    """
    column_ids = column_ids if column_ids is not None else {}
    comments = comments or {}
    next_id = max([last_id, *column_ids.values()])

    def fresh() -> int:
        nonlocal next_id
        next_id += 1
        return next_id

    prev_cols = {c.id: c for c in previous.columns} if previous is not None else {}
    columns = []
    for key, value in joined.columns.items():
        cid = column_ids.get(key) or fresh()
        column_ids[key] = cid
        old = prev_cols.get(cid)
        if old is not None and column_key(old.name) == key:
            spelled, comment = old.name, old.comment
        else:
            src = spell(ElementKind.COLUMN, key)
            spelled, comment = (src.name, src.comment) if src is not None else (key, None)
        columns.append(_decoded_column(value, cid, spelled, comments.get(key, comment)))
    if previous is not None:
        ranks = {c.id: i for i, c in enumerate(previous.columns)}
        columns.sort(key=lambda c: ranks.get(c.id, len(ranks) + c.id))
    prev_indexes = {column_key(i.name): i for i in previous.indexes} if previous else {}
    indexes = []
    for key, value in joined.indexes.items():
        same = prev_indexes.get(key)
        like = same or spell(ElementKind.INDEX, key)
        idx = decode_index(
            value, id=0, name=like.name if like else key, column_ids=column_ids, like=like
        )
        kept = same is not None and (same.kind, same.parts) == (idx.kind, idx.parts)
        indexes.append(attrs.evolve(idx, id=same.id if kept and same else fresh()))
    prev_checks = {check_key(c.name): c for c in previous.checks} if previous else {}
    checks = []
    # the checks ``previous`` has keep its order, new ones come last: of two checks whose names
    # fold alike, a DROP of the name finds the first
    rank = {key: i for i, key in enumerate(prev_checks)}.get
    for key, value in sorted(joined.checks.items(), key=lambda kv: rank(kv[0], len(prev_checks))):
        like_chk = prev_checks.get(key) or spell(ElementKind.CHECK, key)
        checks.append(decode_check(value, id=fresh(), name=like_chk.name if like_chk else key))
    # (a UNIQUE key over a column now TEXT a hash, as the server keeps the one it changes:
    # the spelling a key keeps from ``previous`` says a B-tree)
    return hashed_keys(
        Table(
            name=name,
            columns=tuple(columns),
            indexes=tuple(indexes),
            checks=tuple(checks),
            options=options,
            last_id=next_id,
        )
    )


@functools.lru_cache(maxsize=1 << 14)
def _decoded_column(value: Any, cid: int, name: str, comment: str | None) -> Column:
    # joins repeat the same columns endlessly; decoding one is pure
    return decode_column(value, id=cid, name=name, comment=comment)


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
        table = build_table(
            resolved[0].name,
            joined,
            spell=least_spelling(resolved),
            options=common_options([t.options for t in resolved]),
        )
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
    lower: tuple[ElementKind, str] | None = None
    greater: tuple[ElementKind, str] | None = None
    for kind, (keyed, _) in ELEMENTS.items():
        ma, mb = ea.of(kind), eb.of(kind)
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
    sides: Sequence[tuple[str, Table]],
    lower: tuple[ElementKind, str],
    greater: tuple[ElementKind, str],
) -> IncomparableError:
    (_, ta), (_, tb) = sides
    g_kind, g_key = greater
    l_kind, l_key = lower
    describe = {k: v[1] for k, v in ELEMENTS.items()}
    err = IncomparableError(
        f"neither schema accepts all the other's DML: {g_kind} `{g_key}` is more permissive on "
        f"the left ({describe[g_kind](ta, g_key)} vs {describe[g_kind](tb, g_key)}), {l_kind} "
        f"`{l_key}` on the right ({describe[l_kind](ta, l_key)} vs {describe[l_kind](tb, l_key)})",
        **{_PLACE[g_kind]: g_key},
    )
    return err


__all__ = [
    "FIND",
    "Joined",
    "Spelling",
    "as_table",
    "build_table",
    "common_options",
    "compare",
    "join",
    "join_values",
    "least_spelling",
]
