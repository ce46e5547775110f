"""Rows against schemas: validate a row for a table version, upgrade a row between versions.

These are the pure-Python meaning of "a row under version v": DML validates against the version
its transaction bound, and a reader upgrades rows written under older versions by column id
(renames are free, dropped columns go, added columns take their default, widened values convert).

>>> from mvdd.model import Column, ColumnType, Table
>>> t = Table(name="t", columns=[Column(id=1, name="a", type=ColumnType.of("int"), nullable=False),
...                              Column(id=2, name="b", type=ColumnType.of("varchar", length=3),
...                                     default="x")], last_id=2)
>>> validate_row(t, {"a": "7"})
{'a': 7, 'b': 'x'}
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mvdd.errors import InvalidValueError
from mvdd.model.element import NO_DEFAULT, Column, Expr
from mvdd.model.kind import PLUGIN_BYTES, Family, TypeKind
from mvdd.model.names import fold_name
from mvdd.model.table import Table
from mvdd.model.types import ColumnType


class _Computed:
    """A value the server computes (an expression default, a generated column, a counter)."""

    def __repr__(self) -> str:
        return "COMPUTED"


#: stands for a value the server would compute when the row is written
COMPUTED: Any = _Computed()


#: the value rows hold for a NOT NULL column without a default that they were never given (the
#: rows a table held when such a column was added), by type family (ENUM's first member, the
#: temporal kinds below). None for JSON: MariaDB's rows hold '', which is no JSON (MySQL's
#: hold JSON null)
ZERO_VALUES: dict[Family, Any] = {
    Family.INTEGER: 0,
    Family.DECIMAL: 0,
    Family.FLOAT: 0,
    Family.BIT: 0,
    Family.CHAR: "",
    Family.TEXT: "",
    Family.BINARY: b"",
    Family.BLOB: b"",
}
#: … of the temporal kinds: each one's zero
ZERO_TEMPORAL: dict[TypeKind, Any] = {
    TypeKind.DATE: "0000-00-00",
    TypeKind.TIME: "00:00:00",
    TypeKind.DATETIME: "0000-00-00 00:00:00",
    TypeKind.TIMESTAMP: "0000-00-00 00:00:00",
    TypeKind.YEAR: 0,
}


def zero_value(ctype: ColumnType) -> Any:
    """The value a NOT NULL column without a default holds in rows that never gave it one, as
    the server fills the rows a table holds when such a column is added: 0, '', the zero date,
    an ENUM's first member, the empty SET, a UUID's or INET's zero bytes (:data:`ZERO_VALUES`);
    None for a spatial type or JSON, whose rows the server fills with a value the type does
    not hold (an empty geometry, an empty text).

    >>> zero_value(ColumnType.of("decimal", precision=5, scale=2))
    Decimal('0.00')
    >>> zero_value(ColumnType.of("enum", members=("x", "y"))), zero_value(ColumnType.of("time"))
    ('x', '00:00:00')
    """
    if ctype.kind == TypeKind.ENUM:
        return ctype.members[0]
    if ctype.kind == TypeKind.SET:
        return ""
    if ctype.family == Family.PLUGIN:
        return ctype.coerce(bytes(PLUGIN_BYTES[ctype.kind]))
    raw = ZERO_TEMPORAL.get(ctype.kind, ZERO_VALUES.get(ctype.family))
    return None if raw is None else ctype.coerce(raw)


def fill_value(column: Column) -> Any:
    """The value a row that does not give this column gets: its default, NULL, or COMPUTED."""
    if column.generated is not None or column.auto_increment or isinstance(column.default, Expr):
        return COMPUTED
    if column.default is NO_DEFAULT:
        if column.nullable:
            return None
        raise InvalidValueError(f"column `{column.name}` has no default and may not be NULL")
    return column.default


def validate_row(table: Table, values: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical row a table version stores for ``values`` (by column name, case-insensitive).

    Columns not given take their default; generated columns may not be given. Raises
    InvalidValueError naming the column for unknown columns and values the type refuses.
    """
    given = {fold_name(name): value for name, value in values.items()}
    out: dict[str, Any] = {}
    for col in table.writable_columns:
        key = fold_name(col.name)
        if key in given:
            if col.generated is not None:
                raise InvalidValueError(f"generated column `{col.name}` cannot be written")
            value = given.pop(key)
            if value is None and not col.nullable:
                raise InvalidValueError(f"column `{col.name}` may not be NULL")
            try:
                out[col.name] = col.type.coerce(value)
            except InvalidValueError as err:
                raise InvalidValueError(err.message, table=table.name, column=col.name) from None
        else:
            out[col.name] = fill_value(col)
    if given:
        raise InvalidValueError(f"unknown column(s) {sorted(given)}", table=table.name)
    return out


def upgrade_row(
    row: Mapping[int, Any],
    old: Table,
    new: Table,
    *,
    added: Mapping[int, Column] | None = None,
    unfit: Callable[[int, Any], Any] | None = None,
    own: Callable[[ColumnType, ColumnType], bool] | None = None,
) -> dict[int, Any]:
    """A row written under ``old`` (values by column id) as a row of ``new``: matched by id,
    dropped columns removed, added ones filled, values converted to the new type.

    A column the row lacks takes the value MySQL gave existing rows when the column was added:
    its default as it was then (``added``: column id -> the column in the version that added
    it; without it, the column's default in ``new``), a NOT NULL one added without a default
    its type's :func:`zero_value` (a replica's catalog takes such a column, as the server does).
    A NULL of a column that became NOT NULL is its type's zero value too, as a session
    outside strict mode changed it (:func:`unnulled_value`).

    Raises InvalidValueError when a value does not fit the new type (the change was not a
    widening), unless ``unfit`` is given: the value is then its answer for the column's id and
    the value; and ``unfit`` answers too for every value of a change ``own`` (old type, new
    type) says is not mvdd's to convert.
    """
    old_types = {c.id: c.type for c in old.columns}
    out: dict[int, Any] = {}
    for col in new.columns:
        if col.id in old_types and col.id in row:
            value = row[col.id]
            if value is None and not col.nullable and col.generated is None:
                value = unnulled_value(col.type)
            if value is not None and value is not COMPUTED:
                was = old_types[col.id]
                if unfit is not None and own is not None and not own(was, col.type):
                    value = unfit(col.id, value)
                else:
                    try:
                        value = col.type.convert(value, was)
                    except InvalidValueError:
                        if unfit is None:
                            raise
                        value = unfit(col.id, value)
            out[col.id] = value
        else:
            born = (added or {}).get(col.id, col)
            value = added_value(born)
            out[col.id] = value if value is None or value is COMPUTED else col.type.coerce(value)
    return out


#: what :func:`upgrade_through` asks of a value that a change of its column's type does not
#: take: given the value and the column's types from the one it held on (each unlike the one
#: before it), the value the column holds under the last of them
Unfit = Callable[[Any, tuple[ColumnType, ...]], Any]


def upgrade_through(
    row: Mapping[int, Any],
    versions: Sequence[Table],
    *,
    unfit: Unfit | None = None,
    own: Callable[[ColumnType, ColumnType], bool] | None = None,
) -> dict[int, Any]:
    """A row written under the first of ``versions`` (a table's consecutive versions, oldest
    first; values by column id) as a row of the last, changed version by version as the server
    changed the rows a table held at each statement (:func:`upgrade_row`): a DECIMAL made an
    INT and then a DECIMAL again has lost its fraction, a NULL of a column made NOT NULL and
    then nullable again is its type's zero value, a column takes the default it was added with.

    A value that a change of its column's type does not take (InvalidValueError: the change
    was no widening, and the server, outside strict mode, changed the value by rules of its
    own) is ``unfit``'s answer for it and the column's types from there on; without ``unfit``
    the error is raised. So is a value of a change that ``own`` (old type, new type) says is
    not mvdd's to convert. A value whose column a later version drops is not asked about.

    >>> from mvdd.model import Column, ColumnType, Table
    >>> def version(kind: str, **params: int) -> Table:
    ...     of = ColumnType.of(kind, **params)
    ...     return Table(name="t", columns=[Column(id=1, name="a", type=of)], last_id=1)
    >>> versions = [version("int"), version("varchar", length=2), version("bigint")]
    >>> upgrade_through({1: 7}, versions)
    {1: 7}
    >>> upgrade_through({1: 700}, versions, unfit=lambda value, types: (value, len(types)))
    {1: (700, 3)}
    """
    if len(versions) < 2:
        return dict(row)
    last = {c.id for c in versions[-1].columns}
    answered: dict[int, Any] = {}  # column id -> unfit's answer: its value in the last version
    current = dict(row)
    for at, (old, new) in enumerate(itertools.pairwise(versions)):

        def ask(column: int, value: Any, at: int = at) -> Any:
            assert unfit is not None
            if column in last:
                types = (c.type for t in versions[at:] for c in t.columns if c.id == column)
                answered[column] = unfit(value, tuple(k for k, _ in itertools.groupby(types)))
            return None

        kept = {k: v for k, v in current.items() if k not in answered}
        current = upgrade_row(kept, old, new, unfit=ask if unfit is not None else None, own=own)
    current.update(answered)
    return current


#: the kinds whose NULL a change to NOT NULL turns into no value mvdd holds: an ENUM's error
#: value (index 0), a TIMESTAMP's time of the change
_UNNULLED_UNKNOWN = frozenset({TypeKind.ENUM, TypeKind.TIMESTAMP})


def unnulled_value(ctype: ColumnType) -> Any:
    """The value a NULL became when its column changed to NOT NULL: the server took the change
    only outside strict mode (in it, a NULL refuses the change), which gives the type's
    :func:`zero_value`; None (the NULL kept) where that is no value mvdd holds."""
    return None if ctype.kind in _UNNULLED_UNKNOWN else zero_value(ctype)


def added_default(born: Column) -> Any:
    """The default the rows a table held got when ``born`` (a column as the version that added
    it has it) was added: its default, or a NOT NULL one's :func:`zero_value` where it had
    none (NO_DEFAULT where not even that)."""
    if born.default is NO_DEFAULT and not born.nullable and born.generated is None:
        zero = zero_value(born.type)
        if zero is not None and not born.auto_increment:
            return zero
    return born.default


def added_value(born: Column) -> Any:
    """The value the rows a table held took when ``born`` (a column as the version that added
    it has it) was added: :func:`added_default`, NULL where it has none, COMPUTED where the
    server computed it."""
    default = added_default(born)
    return fill_value(born) if default is born.default else default


def added_columns(versions: Sequence[Table]) -> dict[int, Column]:
    """Column id -> the column as it was in the first of ``versions`` (oldest first) that had
    it: what :func:`upgrade_row` fills rows from before it with."""
    out: dict[int, Column] = {}
    for table in versions:
        for col in table.columns:
            out.setdefault(col.id, col)
    return out
