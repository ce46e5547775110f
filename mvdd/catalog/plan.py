"""A statement's effect on the catalog, planned purely: which tables it creates, changes, renames
and drops, and the schema each ends with, before anything is committed.

:func:`plan_statement` walks a statement's steps against a working copy of the table names,
applying each step to the table it names (the ddl layer's pure ``apply``), and recognises an
online-schema-change tool's cut-over (``RENAME TABLE t TO _t_del, _t_gho TO t``): ``t`` keeps
its id and takes the ghost's schema, with the steps the ghost went through as its own. The
catalog validates and commits the plan; nothing here touches a store.

>>> from mvdd.ddl.rules import Rules
>>> from mvdd.ddl.statement import parse_statements
>>> (st,) = parse_statements("CREATE TABLE t (a INT); ")
>>> [(p.old, p.new.column_names) for p in plan_statement(st, {}, None, None, rules=Rules.MVDD)]
[(None, ('a',))]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from mvdd.ddl import osc
from mvdd.ddl import step as s
from mvdd.ddl.apply import apply, auto_timestamps, check_ordered_by, redefined_keys
from mvdd.ddl.order import apply_ordered, in_server_order
from mvdd.ddl.rules import Rules
from mvdd.ddl.statement import Statement
from mvdd.errors import DDLError, NoSuchTableError
from mvdd.model import Column, IndexKind, Table, TypeKind
from mvdd.model.names import fold_name
from mvdd.model.table import is_long_unique, period_columns


@attrs.define
class Planned:
    """One table's outcome of a statement (``tid`` < 0: a table the statement creates)."""

    tid: int
    old: Table | None  # None: created by this statement
    new: Table | None  # None: dropped by this statement
    steps: list[s.Step]
    truncated: bool = False


#: the steps that change a column's definition: under mvdd's own rules (the server's default
#: ``system_versioning_alter_history=ERROR``) none of a table system-versioned before the
#: statement (its past rows would not fit), nor a new primary or unique key
_COLUMN_CHANGES = (s.AddColumn, s.DropColumn, s.ModifyColumn)
_UNIQUE_KINDS = frozenset({IndexKind.PRIMARY, IndexKind.UNIQUE})


def plan_statement(
    st: Statement,
    names: Mapping[str, int],
    head: Callable[[int], Table] | None,
    later_steps: Callable[[int], list[s.Step]] | None,
    *,
    rules: Rules,
) -> list[Planned]:
    """Each table's outcome of ``st``.

    Args:
        names: live table name -> table id.
        head: a table id's current schema.
        later_steps: the steps of a table's versions after its creation (a ghost's changes).
        rules: mvdd's, or a replica's server's (:class:`~mvdd.ddl.rules.Rules`).

    Raises:
        NoSuchTableError, DDLError: a step that cannot apply; nothing is planned.
    """
    live = _Names(names)
    plans: dict[int, Planned] = {}
    placeholder = -1

    def current(name: str) -> Planned:
        tid = live.get(name)
        if tid is None:
            raise NoSuchTableError("no such table", table=name)
        if tid not in plans:
            assert head is not None
            table = head(tid)
            plans[tid] = Planned(tid, table, table, [])
        return plans[tid]

    # ORDER BY names resolve before the statement's changes, as the server resolves them
    for ordered in st.ordered_by:
        if ordered.table in st.if_exists and ordered.table not in live:
            continue
        found = current(ordered.table).old
        assert found is not None  # (the statement's first step has not run yet)
        check_ordered_by(ordered, found)
    for defined in st.defined_anew:  # (FORCE, OPTIMIZE: the table defined anew)
        # (a FORCE of a table that does not exist fails, but under IF EXISTS; an OPTIMIZE
        # passes over it)
        if defined.table in live or (
            defined.recreating is None and defined.table not in st.if_exists
        ):
            current(defined.table)
    for required, what, why in (
        # ALTER SEQUENCE: a sequence's values change, not its schema
        (st.sequences, "sequence", "not a SEQUENCE"),
        # a column's WITH / WITHOUT SYSTEM VERSIONING in an ALTER (an ADD SYSTEM VERSIONING
        # beside it too: 4124)
        (st.versioned, "versioned", "the table is not system-versioned"),
    ):
        for name in required:  # (what the table must be before the statement)
            if name in st.if_exists and name not in live:
                continue
            found = current(name).old
            assert found is not None
            if not getattr(found.options, what):
                raise DDLError(why, table=name)
    steps = st.steps
    at = 0
    while at < len(steps):
        step = steps[at]
        at += 1
        if step.table in st.if_exists and step.table not in live:
            continue  # ALTER TABLE IF EXISTS of a table that does not exist
        if isinstance(step, s.CreateTable | s.CreateTableLike):
            if step.table in live:
                if step.if_not_exists:
                    continue
                raise DDLError("table already exists", table=step.table)
            if isinstance(step, s.CreateTable) and step.refused is not None:
                raise DDLError(step.refused, table=step.table, **dict(step.refused_at))
            if isinstance(step, s.CreateTableLike):
                source = current(step.source).new
                if source is None:
                    raise NoSuchTableError("no such table", table=step.source)
                table = attrs.evolve(source, name=step.table, id=placeholder, version=1)
            else:
                table = attrs.evolve(step.definition, name=step.table, id=placeholder, version=1)
                base = _ghost_base(table.name, live, plans, head)
                if base is not None:
                    table = adopt_ids(table, base)
            plans[placeholder] = Planned(placeholder, None, table, [step])
            live[step.table] = placeholder
            placeholder -= 1
        elif isinstance(step, s.DropTable):
            if step.table not in live:
                if step.if_exists:
                    continue
                raise NoSuchTableError("no such table", table=step.table)
            plan = current(step.table)
            if step.sequence and not (plan.new is not None and plan.new.options.sequence):
                if step.if_exists:
                    continue  # DROP SEQUENCE IF EXISTS passes over a table that is not one
                raise DDLError(
                    "not a SEQUENCE (DROP SEQUENCE drops only sequences)", table=step.table
                )
            plan.new = None
            plan.steps.append(step)
            del live[step.table]
        elif isinstance(step, s.RenameTable):
            plan = current(step.table)
            if step.to in live:
                raise DDLError(f"cannot rename to `{step.to}`: that table exists", table=step.table)
            live[step.to] = live.pop(step.table)
            assert plan.new is not None
            plan.new = apply(step, plan.new, rules=rules)
            plan.steps.append(step)
        else:
            # an ALTER TABLE's clauses on one table apply together, as the server reads them
            end = at
            while end < len(steps) and steps[end].table == step.table and _alters(steps[end]):
                end += 1
            clauses = steps[at - 1 : end]
            at = end
            plan = current(step.table)
            assert plan.new is not None
            if len(clauses) == 1:
                plan.new = apply(step, plan.new, rules=rules)
                plan.steps.append(step)
            else:  # the history keeps them in the order they apply one by one
                in_order = in_server_order(plan.new, clauses, rules)
                plan.new = apply_ordered(plan.new, in_order, rules=rules)
                plan.steps.extend(x for x, _ in in_order)
            plan.new = auto_timestamps(plan.new, clauses)
            plan.truncated = plan.truncated or s.TruncateTable in map(type, clauses)
    zero_dates = rules.strict and rules.session.no_zero_date
    for plan in plans.values():
        if plan.old is not None and plan.old.options.versioned:
            _period_dropped_whole(plan)
            if rules.rows and rules.strict:  # (an ALTER under mvdd's own rules)
                _columns_kept(plan)
        if zero_dates and _rebuilt(plan, st):
            assert plan.new is not None
            anew = _defined_anew(plan, st)
            if anew is not None and anew.recreating and any(map(_zero_dated, plan.new.columns)):
                continue  # (OPTIMIZE's recreate fails, in a row of its result: the table stays)
            _no_zero_dates(plan.new)
        for index in plan.new.indexes if plan.new is not None else ():
            if index.using is not None:  # (a key of a type named: rare; a plain loop, cheap)
                if _reads_keys_back(plan, st):
                    plan.new = redefined_keys(plan.new, plan.old)  # type: ignore[arg-type]
                break
    _cut_over(st, plans, later_steps)
    return list(plans.values())


#: the kinds whose zero date NO_ZERO_DATE refuses as a DEFAULT
_DATED = frozenset({TypeKind.DATE, TypeKind.DATETIME, TypeKind.TIMESTAMP})


def _rebuilt(plan: Planned, st: Statement) -> bool:
    """Whether the server defines ``plan``'s table anew in the statement's session, checking
    each column's DEFAULT there: a table it creates (``CREATE TABLE … LIKE`` too), and any
    ALTER of one but those that only rename it, or truncate it, or whose every clause an
    ``IF [NOT] EXISTS`` passed over, and those of no clause (``LOCK``, ``ALGORITHM``); an
    ALTER that changes nothing otherwise (a COMMENT as it was, ``RENAME COLUMN c TO c``,
    ``ORDER BY``) is one, and so are a ``FORCE`` and an ``OPTIMIZE`` its engine makes a
    recreate (:func:`_defined_anew`)."""
    new, old = plan.new, plan.old
    if new is None or plan.truncated:
        return False
    if old is None or (st.defined_anew and _defined_anew(plan, st) is not None):
        return True
    acting = [x for x in plan.steps if not _renames_only(x)]
    if not acting:
        return any(o.table == old.name for o in st.ordered_by)
    passed = all(
        getattr(x, "if_exists", False) or getattr(x, "if_not_exists", False) for x in acting
    )
    return not (
        passed
        and new.columns == old.columns
        and new.indexes == old.indexes
        and new.checks == old.checks
    )


def _reads_keys_back(plan: Planned, st: Statement) -> bool:
    """Whether the statement has the server read ``plan``'s long unique keys back from the
    table's definition (:func:`~mvdd.ddl.apply.redefined_keys`): it has some, and the
    statement defines the table anew, but a CREATE TABLE of its own keys."""
    assert plan.new is not None
    return (
        any(map(is_long_unique, plan.new.indexes))
        and (plan.old is not None or isinstance(plan.steps[0], s.CreateTableLike))
        and _rebuilt(plan, st)
    )


def _defined_anew(plan: Planned, st: Statement) -> s.DefinedAnew | None:
    """The statement's ``FORCE`` or ``OPTIMIZE`` that defines ``plan``'s table anew (an
    OPTIMIZE where its engine recreates the table: :class:`~mvdd.ddl.step.DefinedAnew`), if
    any."""
    table = plan.old
    if table is None:
        return None
    return next(
        (
            anew
            for anew in st.defined_anew
            if anew.table == table.name
            and (anew.recreating is None or table.options.engine in anew.recreating)
        ),
        None,
    )


def _renames_only(step: s.Step) -> bool:
    """A step the server carries out without defining its table anew: a rename, a TRUNCATE,
    an ALTER's options of none (``LOCK``, ``ALGORITHM`` or ``RENAME TO`` its own name)."""
    return isinstance(step, s.RenameTable | s.TruncateTable) or (
        isinstance(step, s.SetOptions) and not step.options
    )


def _no_zero_dates(table: Table) -> None:
    """DDLError for a column of ``table`` whose DEFAULT is the zero date (``'0000-00-00'``,
    ``0``, a DATETIME's or TIMESTAMP's with its time, a legacy TIMESTAMP's made so), as a
    session with NO_ZERO_DATE refuses it where it defines the table (the server's 1067, strict
    or not, however an earlier session gave the column that DEFAULT)."""
    for col in table.columns:
        if _zero_dated(col):
            raise DDLError(
                f"invalid default value: the zero date {col.default!r} under NO_ZERO_DATE (its "
                "session's sql_mode), which the server checks each time it defines the table",
                table=table.name,
                column=col.name,
            )


def _zero_dated(col: Column) -> bool:
    default = col.default
    return (
        col.type.kind in _DATED
        and isinstance(default, str)
        and default.startswith("0000-00-00")
        and not default.strip("0-:. ")
    )


def _period_dropped_whole(plan: Planned) -> None:
    """DDLError when a statement drops a table's PERIOD FOR SYSTEM_TIME without dropping both
    its columns (the server's 4125)."""
    if not any(isinstance(x, s.SetSystemPeriod) and not x.columns for x in plan.steps):
        return
    assert plan.old is not None
    own = period_columns(plan.old)
    dropped = {fold_name(x.column) for x in plan.steps if isinstance(x, s.DropColumn)}
    if own is not None and not {fold_name(own[0].name), fold_name(own[1].name)} <= dropped:
        raise DDLError(
            "DROP PERIOD FOR SYSTEM_TIME drops its ROW START and ROW END columns too (DROP "
            "COLUMN each)",
            table=plan.old.name,
        )


def _columns_kept(plan: Planned) -> None:
    """DDLError when a statement adds, drops or redefines a column of a table that was
    system-versioned before it, or adds a primary or unique key to it, under mvdd's own
    rules: the server's default ``system_versioning_alter_history=ERROR`` (its past rows would
    not fit; its versioning dropped in the same statement too), its error 4119."""
    for x in plan.steps:
        if isinstance(x, _COLUMN_CHANGES) or (
            isinstance(x, s.AddIndex) and x.index.kind in _UNIQUE_KINDS
        ):
            raise DDLError(
                "a system-versioned table's columns are not added, dropped or redefined, nor "
                "a unique key added (the server's system_versioning_alter_history=ERROR)",
                table=x.table,
            )


def _alters(step: s.Step) -> bool:
    """Whether a step is a clause of an ALTER TABLE (not a CREATE, DROP or RENAME TABLE)."""
    return not isinstance(step, s.CreateTable | s.CreateTableLike | s.DropTable | s.RenameTable)


class _Names:
    """The live names (name -> table id) as a statement's steps leave them: reads go to the
    published map until a step creates, drops or renames a table, which copies it first (most
    statements change no name, and the map holds every table of the catalog)."""

    def __init__(self, published: Mapping[str, int]) -> None:
        self._map: Mapping[str, int] = published
        self._own: dict[str, int] | None = None

    def _writable(self) -> dict[str, int]:
        if self._own is None:
            self._map = self._own = dict(self._map)
        return self._own

    def get(self, name: str) -> int | None:
        return self._map.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._map

    def __getitem__(self, name: str) -> int:
        return self._map[name]

    def __setitem__(self, name: str, tid: int) -> None:
        self._writable()[name] = tid

    def __delitem__(self, name: str) -> None:
        del self._writable()[name]

    def pop(self, name: str) -> int:
        return self._writable().pop(name)


def _ghost_base(
    name: str,
    names: _Names,
    plans: Mapping[int, Planned],
    head: Callable[[int], Table] | None,
) -> Table | None:
    """The table a tool's ghost (created with CREATE TABLE, not LIKE) copies: it takes that
    table's element ids by name, so the ids stay stable across the tool's cut-over."""
    base_name = osc.ghost_base(name)
    if base_name is None or base_name not in names:
        return None
    tid = names[base_name]
    if tid in plans:
        return plans[tid].new
    return head(tid) if head is not None else None


def _cut_over(
    st: Statement, plans: dict[int, Planned], later_steps: Callable[[int], list[s.Step]] | None
) -> None:
    renames = [x for x in st.steps if isinstance(x, s.RenameTable)]
    by_source = {r.table: r.to for r in renames}
    for r in renames:
        base, ghost = r.to, r.table
        old_name = by_source.get(base)
        if old_name is None or not osc.is_cutover_pair(base, old_name, ghost):
            continue
        by_name = {p.new.name: p for p in plans.values() if p.new is not None}
        orig, copy = by_name.get(old_name), by_name.get(base)
        if orig is None or copy is None or orig.old is None or copy.old is None:
            continue
        assert later_steps is not None and orig.new is not None and copy.new is not None
        ghost_steps = [attrs.evolve(x, table=base) for x in later_steps(copy.tid)]
        orig_schema, copy_schema = orig.new, copy.new
        orig.new = attrs.evolve(copy_schema, name=base, id=orig.tid)
        orig.steps = ghost_steps
        copy.new = attrs.evolve(orig_schema, name=old_name, id=copy.tid)
        copy.steps = [s.RenameTable(table=ghost, to=old_name)]


def adopt_ids(table: Table, base: Table) -> Table:
    """``table`` with the element ids of ``base`` where names match; other elements get ids
    after ``base.last_id``."""
    next_id = max(base.last_id, 0)

    def fresh() -> int:
        nonlocal next_id
        next_id += 1
        return next_id

    col_ids = {}
    columns = []
    for col in table.columns:
        match = base.find_column(col.name)
        new_id = match.id if match is not None else fresh()
        col_ids[col.id] = new_id
        columns.append(attrs.evolve(col, id=new_id))
    indexes = []
    for idx in table.indexes:
        match_idx = base.find_index(idx.name)
        parts = tuple(attrs.evolve(p, column_id=col_ids[p.column_id]) for p in idx.parts)
        indexes.append(attrs.evolve(idx, id=match_idx.id if match_idx else fresh(), parts=parts))
    checks = []
    for chk in table.checks:
        match_chk = base.check_named(chk.name)
        checks.append(attrs.evolve(chk, id=match_chk.id if match_chk else fresh()))
    return attrs.evolve(
        table, columns=tuple(columns), indexes=tuple(indexes), checks=tuple(checks), last_id=next_id
    )


__all__ = ["Planned", "adopt_ids", "plan_statement"]
