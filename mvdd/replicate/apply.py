"""Row changes as downstream statements: one transaction's worth, in order.

:class:`Changes` collects inserts, updates and deletes by target column names and turns them
into :class:`~mvdd.replicate.target.Op` values: consecutive statements of one shape share one
``executemany`` (PyMySQL sends consecutive inserts as one multi-row ``INSERT``). Each statement
must touch exactly its rows (an insert that finds its key taken fails on the server; an update
or delete that matches nothing means the target is not what the upstream says), except in
**safe mode** (TiDB DM's): while a copy that was not one snapshot catches up, an insert is an
upsert, an update deletes the old key and upserts the new row, and a delete deletes if present,
so applying the binlog from before the copy converges whatever the copy already held.

Values become what PyMySQL writes: a SET as its members joined by commas, a MySQL JSON document
as its text, an ENUM's or a SET's value in a column whose members its text does not tell apart
as their number (:func:`member_number`). An ENUM's error value (the empty value of an ENUM
without an empty member, index 0, which a session outside strict mode stores for a value no
member is) is written by a statement of its own outside strict mode, which must give one
warning for each such value and no other (:attr:`~mvdd.replicate.target.Op.lenient`): the
downstream session's strict mode refuses it, and the upstream holds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mvdd.ddl.dml import delete_template, insert_template, update_template
from mvdd.replicate.target import Op, db_value


def member_number(value: Any, numbers: Mapping[str, int]) -> Any:
    r"""An ENUM's or a SET's value as the number the server takes for it (``numbers``: each
    member's, :func:`member_numbers`): an ENUM's member's index; a SET's members' bits, summed,
    whether the value is the set of its members (the binlog's) or their text, joined by commas
    (a copy's SELECT: a SET's member holds no comma, and a text that is one member is that
    member); other values (NULL, an ENUM's error value ``''``, a SET's empty one) as they are.
    For a column whose members a value's text does not tell apart: two that are one under its
    collation (``'a'`` and ``'A'``, which the server matches to the first), a member of bytes
    its charset does not read (the server shows each such byte a ``?``, which matches no
    member).

    >>> enum = member_numbers("a", "A", "\udce9", kind="ENUM")
    >>> bits = member_numbers("x", "X", "y", "\udce9", kind="SET")
    >>> member_number("A", enum), member_number("\udce9", enum)
    (2, 3)
    >>> member_number({"x", "\udce9"}, bits)
    9
    >>> member_number("y", bits), member_number("x,X", bits), member_number({"x", "y"}, bits)
    (4, 3, 5)
    >>> member_number("", enum), member_number(None, enum), member_number(set(), bits)
    ('', None, 0)
    """
    if isinstance(value, str):
        found = numbers.get(value)
        if found is not None:
            return found
        if "," not in value:
            return value
        value = value.split(",")
    if isinstance(value, set | frozenset | list) and all(m in numbers for m in value):
        return sum(numbers[m] for m in set(value))
    return value


def member_numbers(*members: str, kind: str) -> dict[str, int]:
    """The number the server takes for each member of an ENUM (its index, from 1) or of a SET
    (its bit), for :func:`member_number`."""
    if kind == "SET":
        return {m: 1 << i for i, m in enumerate(members)}
    return {m: i for i, m in enumerate(members, 1)}


class Templates:
    """Statement templates of one target table, made once per shape."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._cache: dict[tuple[Any, ...], str] = {}

    def insert(self, columns: tuple[str, ...], upsert: bool) -> str:
        key = ("i", columns, upsert)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = insert_template(self.table, columns, upsert=upsert)
        return found

    def update(self, columns: tuple[str, ...], key_columns: tuple[str, ...]) -> str:
        key = ("u", columns, key_columns)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = update_template(self.table, columns, key_columns)
        return found

    def delete(self, key_columns: tuple[str, ...]) -> str:
        key = ("d", key_columns)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = delete_template(self.table, key_columns)
        return found


class Changes:
    """The row statements of one downstream transaction, in order."""

    def __init__(self, templates: Templates) -> None:
        self.templates = templates
        #: (template, rows of parameters, whether each row must touch one, what it is, the
        #: ENUM error values it writes: a statement of its own when any)
        self._ops: list[tuple[str, list[tuple[Any, ...]], bool, str, int]] = []
        self.rows = 0

    def __bool__(self) -> bool:
        return bool(self._ops)

    def _add(
        self, sql: str, params: tuple[Any, ...], exact: bool, what: str, lenient: int = 0
    ) -> None:
        self.rows += 1
        last = self._ops[-1] if self._ops else None
        if last is not None and last[0] == sql and last[2] == exact and not (lenient or last[4]):
            last[1].append(params)
        else:
            self._ops.append((sql, [params], exact, what, lenient))

    def insert_rows(
        self,
        columns: tuple[str, ...],
        at: tuple[int, ...],
        rows: Sequence[Sequence[Any]],
        empty: frozenset[str] = frozenset(),
        *,
        upsert: bool = False,
    ) -> None:
        """Many inserts of one shape at once: each row a tuple, ``at`` where each of
        ``columns``' values is in it (values as the driver read them: written back as read);
        ``empty``: the columns where an empty value is an ENUM's error value
        (:attr:`mvdd.replicate.merge.Route.empty`); ``upsert``: a row already there takes the
        new values (and no row counts are checked)."""
        sql = self.templates.insert(columns, upsert=upsert)
        params = [tuple(row[i] for i in at) for row in rows]
        errors = [i for i, c in enumerate(columns) if c in empty]
        odd = [p for p in params if any(p[i] == "" for i in errors)] if errors else []
        if odd:
            params = [p for p in params if all(p[i] != "" for i in errors)]
            for p in odd:
                self._ops.append((sql, [p], not upsert, "an insert", _errors(p, errors)))
        self.rows += len(params) + len(odd)
        if params:
            self._ops.append((sql, params, not upsert, "an insert", 0))

    def insert(
        self, row: Mapping[str, Any], *, safe: bool = False, empty: frozenset[str] = frozenset()
    ) -> None:
        columns = tuple(row)
        sql = self.templates.insert(columns, upsert=safe)
        params = tuple(db_value(v) for v in row.values())
        self._add(sql, params, not safe, "an insert", _lenient(row, empty))

    def update(
        self,
        row: Mapping[str, Any],
        key: Sequence[str],
        old_key: Sequence[Any],
        *,
        safe: bool = False,
        empty: frozenset[str] = frozenset(),
    ) -> None:
        if safe:
            new_key = tuple(row[k] for k in key)
            if tuple(old_key) != new_key:
                self.delete(key, old_key, safe=True)
            self.insert(row, safe=True, empty=empty)
            return
        columns = tuple(row)
        sql = self.templates.update(columns, tuple(key))
        params = (*(db_value(v) for v in row.values()), *(db_value(v) for v in old_key))
        self._add(sql, params, True, "an update", _lenient(row, empty))

    def delete(self, key: Sequence[str], values: Sequence[Any], *, safe: bool = False) -> None:
        sql = self.templates.delete(tuple(key))
        self._add(sql, tuple(db_value(v) for v in values), not safe, "a delete")

    def ops(self) -> list[Op]:
        return [
            Op(sql, tuple(rows), len(rows) if exact else None, what, lenient=lenient)
            for sql, rows, exact, what, lenient in self._ops
        ]


def _lenient(row: Mapping[str, Any], empty: frozenset[str]) -> int:
    """How many of the row's values are an ENUM's error value (see :class:`Changes`)."""
    return sum(1 for c in empty if row.get(c) == "") if empty else 0


def _errors(params: tuple[Any, ...], at: Sequence[int]) -> int:
    return sum(1 for i in at if params[i] == "")


__all__ = ["Changes", "Templates", "db_value", "member_number", "member_numbers"]
