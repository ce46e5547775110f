"""MariaDB's system-versioned tables: the rules a versioned table's definition keeps.

A system-versioned table (``WITH SYSTEM VERSIONING``, :attr:`~mvdd.model.TableOptions.versioned`)
keeps each row's past versions beside it. Its period, when each row version began and ended,
is held either by two hidden columns the server adds after the others, ``row_start`` and
``row_end`` (:data:`~mvdd.model.table.PERIOD_COLUMNS`: no column of the table may be named so),
or by two columns of the table's own, ``GENERATED ALWAYS AS ROW START`` and ``ROW END``
(:attr:`~mvdd.model.Column.row_period`), named by its ``PERIOD FOR SYSTEM_TIME (start, end)``:
both ``TIMESTAMP(6)``, or both ``BIGINT UNSIGNED`` (InnoDB's transaction ids, on InnoDB only).
Such a table's primary key and unique keys end with its ROW END column, which the server adds
to each one naming neither period column, when it makes the key (:func:`with_period_key`); when
the table's versioning is dropped with the two columns, their parts leave those keys
(:func:`without_period`).
A change to only its columns ``WITHOUT SYSTEM VERSIONING`` keeps no past version; one column at
least is versioned.

An ``ALTER TABLE`` adds a table's own period with its two columns, ``ADD PERIOD FOR SYSTEM_TIME
(start, end)`` and ``ADD SYSTEM VERSIONING`` in one statement (each key naming neither column
gains ROW END), and ``DROP PERIOD FOR SYSTEM_TIME`` drops it with its two columns, the table
staying versioned by hidden columns unless the statement drops its versioning too
(:func:`set_period`).

What mvdd checks is what MariaDB 10.11 checks (:func:`check_versioned` after every statement,
:func:`check_period` of a CREATE's PERIOD clause), each tested against the server. Not modelled:
a statement that drops both period columns of a table it leaves
versioned, which MariaDB 10.11 takes, leaving the keys that held the ROW END column broken in
its ``SHOW CREATE TABLE``, is refused where such a key is (as a dropped column's part of a
unique key of several).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from mvdd.errors import DDLError
from mvdd.model import Column, Index, IndexKind, IndexPart, Table, TypeKind
from mvdd.model.names import fold_name
from mvdd.model.table import INNODB, PERIOD_COLUMNS, period_columns
from mvdd.model.types import ColumnType

#: the keys whose parts end with a versioned table's ROW END column
_ENDED_KEYS = frozenset({IndexKind.PRIMARY, IndexKind.UNIQUE})


def _period_type(ctype: ColumnType, engine: str | None) -> bool:
    """Whether a ROW START or ROW END column may be of ``ctype`` (the server's 4110)."""
    if ctype.kind == TypeKind.TIMESTAMP:
        return ctype.fsp == 6
    return ctype.kind == TypeKind.BIGINT and ctype.unsigned and engine in INNODB


def check_versioned(table: Table) -> None:
    """DDLError unless ``table`` keeps MariaDB's rules for its system versioning: ROW START and
    ROW END columns only in a versioned table, one of each, of one type the server takes; the
    hidden columns' names free where the table has no period columns of its own; one column at
    least versioned."""
    own = [c for c in table.columns if c.row_period is not None]
    if not table.options.versioned:
        if own:
            raise DDLError(
                "a ROW START or ROW END column in a table that is not system-versioned",
                column=own[0].name,
            )
        return
    if own:
        for word in ("START", "END"):
            found = [c for c in own if c.row_period == word]
            if len(found) != 1:
                raise DDLError(
                    f"a system-versioned table of its own period has one ROW {word} column, "
                    f"not {len(found)}",
                    column=found[1].name if found else None,
                )
        start, end = sorted(own, key=lambda c: c.row_period != "START")
        for col in (start, end):
            if not _period_type(col.type, table.options.engine):
                raise DDLError(
                    "a ROW START or ROW END column is a TIMESTAMP(6), or (InnoDB) a BIGINT "
                    "UNSIGNED",
                    column=col.name,
                )
        if start.type.kind != end.type.kind:
            raise DDLError("the ROW START and ROW END columns are of one type", column=end.name)
    else:
        for col in table.columns:
            if fold_name(col.name) in PERIOD_COLUMNS:
                raise DDLError(
                    "duplicate column name (a system-versioned table's hidden column)",
                    column=col.name,
                )
    if all(c.unversioned for c in table.columns if c.row_period is None):
        raise DDLError("a system-versioned table needs one column at least that is versioned")


def _names(own: tuple[Column, Column], named: Sequence[str]) -> bool:
    """Whether a PERIOD FOR SYSTEM_TIME's (start, end) name a table's own period columns."""
    return [fold_name(c.name) for c in own] == [fold_name(n) for n in named]


def check_period(table: Table, periods: Sequence[tuple[str, str]]) -> None:
    """DDLError unless a CREATE TABLE's ``PERIOD FOR SYSTEM_TIME (start, end)`` clauses (each
    said, as (start, end)) name its ROW START and ROW END columns, and the table has them only
    with a clause (the server's 4125 and 4126)."""
    own = period_columns(table)
    stated = any(c.row_period is not None for c in table.columns)
    if not periods:
        if stated:
            raise DDLError("ROW START and ROW END columns without a PERIOD FOR SYSTEM_TIME")
        return
    if own is None:
        raise DDLError("PERIOD FOR SYSTEM_TIME without its ROW START and ROW END columns")
    for named in periods:
        if not _names(own, named):
            raise DDLError(
                f"PERIOD FOR SYSTEM_TIME must name the columns `{own[0].name}` and `{own[1].name}`"
            )


def with_period_key(table: Table, index: Index) -> Index:
    """A primary or unique key a versioned table of its own period makes, as the server makes
    it: its ROW END column added last, unless the key names one of its period columns."""
    own = period_columns(table) if index.kind in _ENDED_KEYS else None
    if own is None or any(p.column_id in (own[0].id, own[1].id) for p in index.parts):
        return index
    return attrs.evolve(index, parts=(*index.parts, IndexPart(column_id=own[1].id)))


def without_period(table: Table) -> tuple[Index, ...]:
    """A versioned table's keys as its ``DROP SYSTEM VERSIONING`` leaves them, which drops its
    period columns too: its primary and unique keys without their parts of those columns, as
    the server takes them away (a key of those columns alone goes with them; the other keys
    lose theirs as a dropped column's)."""
    own = period_columns(table)
    if own is None:
        return table.indexes
    period = (own[0].id, own[1].id)
    out = []
    for index in table.indexes:
        parts = tuple(p for p in index.parts if p.column_id not in period)
        if index.kind in _ENDED_KEYS and parts and len(parts) < len(index.parts):
            index = attrs.evolve(index, parts=parts)
        out.append(index)
    return tuple(out)


def set_period(table: Table, columns: Sequence[str]) -> Table:
    """An ALTER TABLE's ``ADD PERIOD FOR SYSTEM_TIME (start, end)`` (``columns``, the ROW START
    and ROW END columns its statement added, after them: each primary and unique key naming
    neither gains ROW END, as the server makes it) or ``DROP PERIOD FOR SYSTEM_TIME`` (no
    columns, before its statement drops the two: the keys lose their parts, and the table
    stays versioned by hidden columns)."""
    own = period_columns(table)
    if not columns:
        if own is None:
            raise DDLError("no PERIOD FOR SYSTEM_TIME to drop")
        return table.with_changes(indexes=without_period(table))
    if own is None or not _names(own, columns):
        raise DDLError("PERIOD FOR SYSTEM_TIME must name the ROW START and ROW END columns")
    return table.with_changes(indexes=tuple(with_period_key(table, i) for i in table.indexes))


def as_current(table: Table) -> Table:
    """A system-versioned table as its current rows are, a query's rows and what a reader hands
    out of it: not versioned, its own period columns plain ones (NOT NULL, the values the server
    gave), its primary and unique keys without their parts of those columns, constant in its
    current rows (``row_end`` the largest there is); the very table when it is not versioned."""
    if not table.options.versioned:
        return table
    own = period_columns(table)
    options = attrs.evolve(table.options, versioned=False)
    if own is None:
        return table.with_changes(options=options)
    period = (own[0].id, own[1].id)
    columns = tuple(
        attrs.evolve(c, row_period=None) if c.id in period else c for c in table.columns
    )
    return table.with_changes(columns=columns, indexes=without_period(table), options=options)


def row_period_changed(old: Column, new: Column) -> None:
    """DDLError when a MODIFY or CHANGE redefines a ROW START or ROW END column, or makes one
    (the server's 4130 and 4134: a period's columns are made with the table)."""
    if old.row_period is not None or new.row_period is not None:
        raise DDLError("a system versioning column is not redefined", column=old.name)


__all__ = [
    "as_current",
    "check_period",
    "check_versioned",
    "row_period_changed",
    "set_period",
    "with_period_key",
    "without_period",
]
