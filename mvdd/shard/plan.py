"""The downstream DDL that moves a target table from one joined schema to the next (seed 000).

:func:`plan` is pure: it compares two versions of the downstream table *by element id* (the
shard coordinator gives a renamed column its old id, a re-added one a new id) and orders the
actions so that every intermediate table accepts what both ends accept:

1. drop the checks and indexes that go or change, those over a column dropped and added
   again (the server would take the column out of an index and refuse, or silently drop, a
   check over it), and the checks whose names read another column at the end (a finished
   rename drops ``a`` and renames another column to it) — removing constraints first; of
   checks whose names fold alike (MariaDB holds ``İ`` beside ``i``, and a DROP of either name
   drops the first), all of them when one that follows another goes or the end orders them
   otherwise;
2. drop the generated columns that go or change — generated columns are dropped first;
3. change the normal columns: modify the kept ones (widen, default, nullability — a column
   becoming NOT NULL first gives its NULLs the default: they are rows of shards that lacked
   it), copy the data of finished renames (``UPDATE t SET new = old WHERE old IS NOT NULL``),
   drop the columns that go, rename, then add the new columns (with their defaults) at the end;
4. add or convert the generated columns — added last;
5. add the indexes and checks that come or change, and those dropped in step 1 over a column
   added again — adding constraints last.

Each action is one statement. A generated column whose expression stays changes its type,
nullability or comment in place, and a stored one that becomes normal is modified in place
(MariaDB allows both). A column is dropped and added again (:func:`_rebuilt`) for any change of
a generation expression, a virtual column becoming normal or a normal one virtual, and a type
the server cannot cast to the new one; so is a generated column reading one of those (its
stored values go: they were computed from values that go), and one whose expression names a
column name that reads another column at the end. MariaDB has no NOT ENFORCED checks:
the coordinator leaves those out downstream. Not handled: a column whose expression default
reads a column dropped and added again (the server refuses that DROP COLUMN; the replicator
stops with a ``TargetError``).

An AUTO_INCREMENT column and its key only hold together (the server refuses a counter without
a key at every statement's end): a counter that comes, and the key it needs, are one statement
(:class:`Together`), as are a key that goes and the counter that goes with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import attrs

from mvdd.ddl import step as s
from mvdd.ddl.expr import referenced_columns
from mvdd.ddl.render import describe_step, render_copy, render_fill, render_steps
from mvdd.join.encode import implicit_default
from mvdd.model import NO_DEFAULT, Check, Column, Expr, Index, Table
from mvdd.model.names import check_key, fold_name
from mvdd.model.types import castable


@attrs.frozen
class Copy:
    """``UPDATE table SET into = source WHERE source IS NOT NULL``."""

    table: str
    into: str
    source: str


@attrs.frozen
class Fill:
    """``UPDATE table SET column = value WHERE column IS NULL``."""

    table: str
    column: str
    value: Any


@attrs.frozen
class Together:
    """Steps on one table that only hold together, as one ``ALTER TABLE``."""

    steps: tuple[s.Step, ...]


Action: TypeAlias = s.Step | Copy | Fill | Together


def render(actions: Sequence[Action]) -> list[str]:
    """One MySQL statement per action."""
    out = []
    for a in actions:
        if isinstance(a, Copy):
            out.append(render_copy(a.table, a.into, a.source))
        elif isinstance(a, Fill):
            out.append(render_fill(a.table, a.column, a.value))
        elif isinstance(a, Together):
            (statement,) = render_steps(a.steps)
            out.append(statement)
        else:
            out.append(describe_step(a))
    return out


def _counter_of(step: Action) -> str | None:
    """The column an action makes count (ADD or MODIFY with AUTO_INCREMENT)."""
    if isinstance(step, s.AddColumn) and step.column.auto_increment:
        return step.column.name
    if isinstance(step, s.ModifyColumn) and step.definition.auto_increment:
        return step.definition.name
    return None


def _keyed_counters(actions: list[Action], before: Table) -> list[Action]:
    """Actions with every counter that comes put in one statement with the key added for it,
    and every key dropped with the counter column that goes with it."""
    counting_before = {fold_name(c.name) for c in before.columns if c.auto_increment}
    starts = {
        fold_name(i.name): fold_name(before.column_by_id(i.parts[0].column_id).name)
        for i in before.indexes
    }
    out = list(actions)
    for i, act in enumerate(out):
        counter = _counter_of(act)
        if counter is None:
            continue
        for j in range(i + 1, len(out)):
            other = out[j]
            if isinstance(other, s.AddIndex) and fold_name(other.index.parts[0].column) == (
                fold_name(counter)
            ):
                out[i] = Together((act, other))  # type: ignore[arg-type]
                del out[j]
                break
    for i, act in enumerate(out):
        if not isinstance(act, s.DropIndex):
            continue
        column = starts.get(fold_name(act.index))
        if column not in counting_before:
            continue
        for j in range(i + 1, len(out)):
            other = out[j]
            gone = isinstance(other, s.DropColumn) and fold_name(other.column) == column
            stops = isinstance(other, s.ModifyColumn) and fold_name(other.column) == column
            if gone or stops:
                out[j] = Together((act, other))  # type: ignore[arg-type]
                out[i] = None  # type: ignore[call-overload]
                break
    return [a for a in out if a is not None]


def _core(col: Column) -> tuple[Any, ...]:
    """What a column is, apart from its id, name and comment."""
    return (
        col.type,
        col.nullable,
        col.effective_default if col.generated is None else None,
        col.generated,
        col.on_update,
        col.auto_increment,
        col.check,
    )


def _same_but_default(a: Column, b: Column) -> bool:
    return (
        a.generated is None
        and b.generated is None
        and _core(a)[:2] + _core(a)[3:] == (_core(b)[:2] + _core(b)[3:])
    )


def _index_signature(index: Index) -> tuple[Any, ...]:
    return (fold_name(index.name), index.kind, index.parts)


def _spec(table: Table, index: Index) -> s.IndexSpec:
    names = table.index_column_names(index)
    parts = [s.PartSpec(n, p.length, p.desc) for n, p in zip(names, index.parts, strict=True)]
    return s.IndexSpec(
        name=index.name,
        kind=index.kind,
        parts=parts,
        comment=index.comment,
        using=index.using,
        visible=index.visible,
    )


def _reads(table: Table, expr: Expr) -> set[int]:
    """The ids of ``table``'s columns ``expr`` reads."""
    found = (table.find_column(name) for name in referenced_columns(expr))
    return {col.id for col in found if col is not None}


def _rebuilt(col: Column, target: Column) -> bool:
    """Whether the target drops a column and adds it again to change it from ``col`` to
    ``target``: a type the server cannot cast to (the values could not be kept anyway), any
    change of a generation expression, or of a virtual column to normal or back (a stored
    generated column becoming normal is modified in place)."""
    if not castable(col.type, target.type):
        return True
    if col.generated is None:
        return target.generated is not None and not target.generated.stored
    return target.generated != col.generated and not (
        target.generated is None and col.generated.stored
    )


def _modify(t: str, name: str, col: Column, target: Column) -> list[Action]:
    """MODIFY a column; one becoming NOT NULL first gives its NULLs the default (rows written
    while it was nullable, by shards that lacked it), after any type change."""
    if not col.nullable or target.nullable or col.generated is not None:
        return [s.ModifyColumn(table=t, column=name, definition=target)]
    value = target.effective_default
    if value is NO_DEFAULT:
        value = implicit_default(target.type)
    if value is None:
        return [s.ModifyColumn(table=t, column=name, definition=target)]
    out: list[Action] = []
    if col.type != target.type:
        out.append(
            s.ModifyColumn(
                table=t,
                column=name,
                definition=attrs.evolve(target, nullable=True, default=NO_DEFAULT),
            )
        )
    out.append(Fill(table=t, column=name, value=value))
    out.append(s.ModifyColumn(table=t, column=name, definition=target))
    return out


def _check_signature(chk: Check) -> tuple[str, Expr, bool]:
    """A check as the server holds it: the name it is known by, its expression, whether
    enforced."""
    return (check_key(chk.name), chk.expr, chk.enforced)


def _alike_checks(before: Table, after: Table, moved: Callable[[Check], bool]) -> set[str]:
    """The folded names that two checks of ``before`` or of ``after`` share (``İ`` and ``i``)
    where dropping the ones that go and adding the ones that come would not leave the checks
    of the name as ``after`` has them: a ``DROP CONSTRAINT`` of either name drops the first of
    them, and an added check comes last. Those go, first to last, and come again in the order
    the end has them."""
    ends: dict[str, tuple[list[Check], list[Check]]] = {}
    for side, table in enumerate((before, after)):
        for chk in table.checks:
            ends.setdefault(fold_name(chk.name), ([], []))[side].append(chk)
    out = set()
    for folded, (was, comes) in ends.items():
        if max(len(was), len(comes)) < 2:
            continue
        coming = [_check_signature(c) for c in comes]
        kept = [_check_signature(c) in coming and not moved(c) for c in was]
        stays = [_check_signature(c) for c, keep in zip(was, kept, strict=True) if keep]
        first_go = kept == sorted(kept)  # those that go come before those that stay
        if not (first_go and coming[: len(stays)] == stays):
            out.add(folded)
    return out


def plan(
    before: Table, after: Table, *, copies: Sequence[tuple[int, int]] = ()
) -> tuple[list[Action], tuple[int, ...]]:
    """The actions from ``before`` to ``after`` on table ``after.name`` (see the module
    docstring), and the column ids in the order the downstream table has them afterwards.

    ``copies`` are (into id, source id) pairs of ``before`` columns whose data a finished rename
    merges before the source is dropped.
    """
    t = after.name
    old = {c.id: c for c in before.columns}
    new = {c.id: c for c in after.columns}
    order = [c.id for c in before.columns]
    names = {c.id: c.name for c in before.columns}  # current downstream names
    out: list[Action] = []

    # the columns the target drops and adds again (:func:`_rebuilt`), and the generated columns
    # that read them (the server refuses to drop a column a generation expression reads). The
    # server takes a dropped column out of every index over it, drops a check that names only
    # it and refuses to drop it under a check that names others: those indexes and checks go
    # first and come again
    # the names that read another column at the end than at the start (a finished rename drops
    # ``a`` and renames another column to it): a check or a generated column naming one goes
    # first and comes again (the server refuses to drop a column they read)
    moved_names = {
        fold_name(c.name)
        for c in before.columns
        if (at_end := after.find_column(c.name)) is not None and at_end.id != c.id
    }

    def reads_moved(e: Expr) -> bool:  # (parsed only when a name moved)
        return bool(moved_names) and bool(referenced_columns(e) & moved_names)

    rebuilt = {
        cid
        for cid, col in old.items()
        if cid in new
        and (
            _rebuilt(col, new[cid])
            or (col.generated is not None and reads_moved(col.generated.expr))
        )
    }
    readers = {  # read only when something is rebuilt: each expression is parsed
        cid: _reads(before, col.generated.expr)
        for cid, col in old.items()
        if rebuilt and cid in new and col.generated is not None
    }
    while grown := {cid for cid, reads in readers.items() if reads & rebuilt} - rebuilt:
        rebuilt |= grown

    def moved(index: Index) -> bool:
        return any(part.column_id in rebuilt for part in index.parts)

    def moved_check(chk: Check) -> bool:
        """A check both ends hold alike that goes first and comes again: it names a moved
        name, or reads a column rebuilt."""
        return reads_moved(chk.expr) or (bool(rebuilt) and bool(_reads(before, chk.expr) & rebuilt))

    # checks whose names fold alike (MariaDB holds ``İ`` beside ``i``) where any of them goes,
    # changes or moves: a DROP names the first of them, so they all go, first to last, and
    # come again in the order the end has them
    alike = _alike_checks(before, after, moved_check)

    def again(chk: Check) -> bool:
        return moved_check(chk) or fold_name(chk.name) in alike

    # 1. constraints that go or change
    after_checks = {_check_signature(c) for c in after.checks}
    for chk in before.checks:
        if _check_signature(chk) not in after_checks or again(chk):
            out.append(s.DropConstraint(table=t, name=chk.name))  # MariaDB has no DROP CHECK
    after_indexes = {_index_signature(i) for i in after.indexes}
    for idx in before.indexes:
        if _index_signature(idx) not in after_indexes or moved(idx):
            out.append(s.DropIndex(table=t, index=idx.name))

    # 2. generated columns that go or change
    readd: set[int] = set()
    for cid, col in old.items():
        if col.generated is not None and (cid not in new or cid in rebuilt):
            out.append(s.DropColumn(table=t, column=names[cid]))
            order.remove(cid)
            if cid in new:
                readd.add(cid)

    # 3. normal columns: modify, copy, drop, rename, add
    renames: list[int] = []
    for cid, col in old.items():
        target = new.get(cid)
        if target is None or cid in readd:
            continue
        if cid in rebuilt:  # a normal column becoming virtual, or of a type it cannot cast to
            out.append(s.DropColumn(table=t, column=names[cid]))
            order.remove(cid)
            readd.add(cid)
            continue
        if target.name != col.name:  # every column kept, generated ones too
            renames.append(cid)
        if target.generated is not None and col.generated is None:
            continue  # a normal column converted in step 4
        here = attrs.evolve(target, name=names[cid])
        if _core(col) != _core(target) or col.comment != target.comment:
            if _same_but_default(col, target) and col.comment == target.comment:
                default = target.effective_default
                out.append(
                    s.DropDefault(table=t, column=names[cid])
                    if default is NO_DEFAULT
                    else s.SetDefault(table=t, column=names[cid], default=default)
                )
            else:
                out.extend(_modify(t, names[cid], col, here))
    for into, source in copies:
        out.append(Copy(table=t, into=names[into], source=names[source]))
    drops = [cid for cid in old if cid not in new and old[cid].generated is None]
    adds = [c for c in after.columns if c.id not in old or c.id in readd]
    normal_adds = [c for c in adds if c.generated is None]
    if drops and len(drops) == len(order) and normal_adds:
        # a table cannot lose its last column: add first
        for col in normal_adds:
            out.append(s.AddColumn(table=t, column=col))
            order.append(col.id)
        normal_adds = []
    for cid in drops:
        out.append(s.DropColumn(table=t, column=names[cid]))
        order.remove(cid)
    for cid in renames:
        out.append(s.RenameColumn(table=t, column=names[cid], to=new[cid].name))
        names[cid] = new[cid].name
    for col in normal_adds:
        out.append(s.AddColumn(table=t, column=col))
        order.append(col.id)

    # 4. generated columns: convert, then add
    for cid, col in old.items():
        target = new.get(cid)
        if (
            target is not None
            and cid not in readd
            and col.generated is None
            and target.generated is not None
        ):
            here = attrs.evolve(target, name=names[cid])
            out.append(s.ModifyColumn(table=t, column=names[cid], definition=here))
    for col in adds:
        if col.generated is not None:
            out.append(s.AddColumn(table=t, column=col))
            order.append(col.id)

    # 5. constraints that come or change
    before_indexes = {_index_signature(i) for i in before.indexes}
    for idx in after.indexes:
        if _index_signature(idx) not in before_indexes or moved(idx):
            out.append(s.AddIndex(table=t, index=_spec(after, idx)))
    before_checks = {_check_signature(c) for c in before.checks}
    for chk in after.checks:
        if _check_signature(chk) not in before_checks or again(chk):
            out.append(s.AddCheck(table=t, name=chk.name, expr=chk.expr, enforced=chk.enforced))
    return _keyed_counters(out, before), tuple(order)


__all__ = ["Action", "Copy", "Fill", "Together", "plan", "render"]
