"""The server's reading of one ALTER TABLE of several clauses: the order in which its steps
apply one by one with the meaning MariaDB gives them (:func:`in_server_order`), and the table
they leave (:func:`apply_statement`).

The server resolves the clauses that change or drop a column, or drop an index or a check,
against the table before the statement, and the added columns, ``AFTER``, key parts and checks
against the table the statement leaves; it resolves each ``IF [NOT] EXISTS`` before any clause
applies, and reads a key part by its column's old name (so a key follows a name to a column the
statement adds under it). :mod:`mvdd.ddl.apply` applies each step; this module orders them.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import attrs

from mvdd.ddl import expr as ex
from mvdd.ddl import step as s
from mvdd.ddl.apply import (
    _apply,
    _check_column,
    _column,
    _key,
    _looked_for,
    _own_expressions,
    apply_steps,
    auto_timestamps,
    check_one_charset,
    checks_named,
    converted,
    default_under,
    fitted_prefix,
    now_precision,
    server_hash,
)
from mvdd.ddl.column import CONVERTED
from mvdd.ddl.rules import Rules
from mvdd.errors import DDLError, MvddError
from mvdd.model import NO_DEFAULT, Column, Index, IndexKind, IndexPart, Table
from mvdd.model.kind import LOB_FAMILIES, Family
from mvdd.model.names import fold_name
from mvdd.model.table import is_long_unique
from mvdd.model.types import resolve_charset


def apply_statement(table: Table, steps: Sequence[s.Step], *, rules: Rules = Rules.MVDD) -> Table:
    """The table after one ALTER TABLE's steps (no statement-level validation), read as the
    server reads them: each clause that changes or drops a column, or drops an index or a
    check, names it as the table had it before the statement, and each column at most once;
    an added column, an ``AFTER``, a key part and a check name the columns as the statement
    leaves them (see :func:`in_server_order`). So ``CHANGE a b INT, CHANGE b a INT`` swaps two
    columns, and ``CHANGE a x INT, MODIFY x BIGINT`` is refused, as on the server.

    >>> from mvdd.ddl.statement import parse_statements, parse_table
    >>> t = parse_table("CREATE TABLE t (a INT, b TEXT)")
    >>> st = parse_statements("ALTER TABLE t CHANGE a b TEXT, CHANGE b a INT")[0]
    >>> [(c.name, str(c.type)) for c in apply_statement(t, st.steps).columns]
    [('b', 'text'), ('a', 'int')]
    """
    if len(steps) < 2:  # (the common case: one clause is its own order)
        return auto_timestamps(apply_steps(table, steps, rules=rules), steps)
    ordered = apply_ordered(table, in_server_order(table, steps, rules), rules=rules)
    return auto_timestamps(ordered, steps)


def apply_ordered(
    table: Table, ordered: Iterable[tuple[s.Step, s.Step]], *, rules: Rules = Rules.MVDD
) -> Table:
    """The table after :func:`in_server_order`'s steps, an error naming the statement's step."""
    for st, named in ordered:
        try:
            table = _apply(st, table, rules)
        except MvddError as err:
            raise err.locate(table=table.name, step=str(named)) from None
    return table


#: steps naming a column as the table had it before the statement (CHANGE, MODIFY, RENAME
#: COLUMN, ALTER COLUMN … DEFAULT, DROP COLUMN)
_OLD_COLUMN = (s.ModifyColumn, s.RenameColumn, s.SetDefault, s.DropDefault, s.DropColumn)
#: steps dropping an index or a check the table had before the statement: taken first, so that
#: the statement may add one of the same name, and drop a key before a column it covers
_OLD_DROPS = (s.DropIndex, s.DropCheck, s.DropConstraint)


def in_server_order(
    table: Table, steps: Sequence[s.Step], rules: Rules = Rules.MVDD
) -> list[tuple[s.Step, s.Step]]:
    """One statement's steps on ``table`` in an order that applies one by one with the
    server's meaning, each beside the step an error should name (the statement's own). A
    catalog keeps these steps in its history, where they replay one by one.

    The order: drops of indexes and checks, drops of columns, the changes of the table's
    columns where they stand (those that rename first: a rename reaches only the expressions
    the table held), the renames of its keys (each chain of renames ordered so that a name is
    freed before it is taken, a cycle such as a swap broken by a temporary name), then
    in the statement's order the added columns, the moves of changed columns (``AFTER``,
    ``FIRST``), each followed by the ``ALTER … DEFAULT`` of its column if one is left over (it
    names a column the statement adds or moves), and last the new keys and checks (which name
    the columns as the statement leaves them). A ``MODIFY`` of a column the statement adds
    replaces it at the end (or at its own place), as the server does. A clause naming a column
    or key the table did not have, or one another clause already takes, is refused as the
    server refuses it. Each ``IF [NOT] EXISTS`` is resolved first, against the table before the
    statement (:func:`_exists_resolved`). A key over a column the statement drops (or renames)
    whose name a column it adds takes follows the name to that column, dropped first and made
    again with the new keys (:func:`_rebound_keys`). A ``DEFAULT CHARSET=`` and an ``ALTER …
    SET DEFAULT`` of a column a ``CONVERT TO`` of the statement converts follow the conversion
    (:func:`_after_conversion`).

    >>> from mvdd.ddl.statement import parse_statements, parse_table
    >>> t = parse_table("CREATE TABLE t (a INT, b INT, c INT)")
    >>> st = parse_statements("ALTER TABLE t ADD d INT, DROP c, CHANGE a b INT, CHANGE b a INT")
    >>> [str(x) for x, _ in in_server_order(t, st[0].steps)]  # doctest: +NORMALIZE_WHITESPACE
    ['ALTER TABLE `t` DROP COLUMN `c`',
     'ALTER TABLE `t` RENAME COLUMN `a` TO `#mvdd swap 1`',
     'ALTER TABLE `t` CHANGE COLUMN `b` `a` INT',
     'ALTER TABLE `t` CHANGE COLUMN `#mvdd swap 1` `b` INT',
     'ALTER TABLE `t` ADD COLUMN `d` INT']
    """
    ordered = _in_server_order(table, steps, rules)
    if any(isinstance(st, s.AddCheck) for st in steps):
        named = checks_named(table, [st for st, _ in ordered])
        ordered = [(st, said) for st, (_, said) in zip(named, ordered, strict=True)]
    if not any(isinstance(st, s.ConvertCharset) for st in steps):
        return ordered
    return _after_conversion(table, steps, ordered)


def _in_server_order(
    table: Table, steps: Sequence[s.Step], rules: Rules
) -> list[tuple[s.Step, s.Step]]:
    _check_one_charset(steps)
    steps = _converted_first(_exists_resolved(table, steps), not rules.session.members_alike)
    clauses = [(i, st) for i, st in enumerate(steps) if isinstance(st, _OLD_COLUMN)]
    key_renames = [st for st in steps if isinstance(st, s.RenameIndex)]
    simple_keys = not _new_keys_early(steps) and not _charsets_out_of_place(steps)
    visibility = any(isinstance(x, s.SetIndexVisible) for x in steps)
    simple = not clauses and len(key_renames) < 2 and simple_keys and not visibility
    if simple and not any(isinstance(x, _OLD_DROPS) for x in steps):
        return [(st, st) for st in steps]  # adds and options only (most statements of several)
    owners: dict[str, int] = {}  # a column of the table (folded) -> the clause that takes it
    for rank in _OWNERSHIP:  # a DROP takes its column first, then a change, then an ALTER
        for i, clause in clauses:
            folded = fold_name(_subject(clause))
            if isinstance(clause, rank) and folded not in owners and table.find_column(folded):
                owners[folded] = i
    named = {folded: steps[i] for folded, i in owners.items()}
    # an ALTER … DEFAULT left over names a column the statement adds or moves
    added = {fold_name(st.column.name) for st in steps if isinstance(st, s.AddColumn)}
    defined = set(added)
    defined.update(
        fold_name(st.definition.name)
        for st in named.values()
        if isinstance(st, s.ModifyColumn) and st.place != s.LAST
    )
    keys: dict[str, s.Step] = {}  # a key of the table (folded) -> the rename that takes it
    gone = {_column(table, x.column).id for x in named.values() if isinstance(x, s.DropColumn)}
    renamed_to = {fold_name(to) for x in named.values() if (to := _new_name(x)) is not None}
    dropped_keys = {
        fold_name(_DROPPED_NAME[type(st)](st))
        for st in steps
        if isinstance(st, s.DropIndex | s.DropConstraint)
    }
    # a column the statement adds under the old name of one it drops or renames may take
    # that one's key parts (see _rebound_keys)
    retaken = bool(
        added & {f for f, st in named.items() if _new_name(st) or isinstance(st, s.DropColumn)}
    )
    # an ALTER INDEX of a key whose columns all go, or that the statement renames to another
    # name: the server's key that ends with the name takes it (see below)
    hidden: list[tuple[s.SetIndexVisible, str]] = []
    renamed_away = {fold_name(st.index) for st in key_renames}
    added_before: set[str] = set()
    drops: list[tuple[s.Step, s.Step]] = []
    changes: list[tuple[s.Step, s.Step]] = []
    key_changes: list[tuple[s.Step, s.Step]] = []
    rest: list[tuple[s.Step, s.Step]] = []
    alters: dict[str, list[tuple[s.Step, s.Step]]] = {}  # left over, by the column they name
    replaced = False
    # a column the statement drops (folded) -> the name a later CHANGE from its name defines,
    # which the expressions naming the dropped column take (see DropColumn.renamed_to)
    followers: dict[str, str] = {}
    for i, st in enumerate(steps):
        if isinstance(st, s.AddColumn):
            added_before.add(fold_name(st.column.name))
        if isinstance(st, s.SetIndexVisible) and not st.if_exists:
            folded = fold_name(st.index)
            idx = table.find_index(folded)
            if idx is None or folded in dropped_keys:
                raise _refused("no such index", table, st, index=st.index)
            if gone.issuperset(idx.column_ids) or folded in renamed_away:
                hidden.append((st, folded))
        if isinstance(st, s.RenameIndex):
            folded = fold_name(st.index)
            if table.find_index(folded) is None or folded in keys or folded in dropped_keys:
                why = "no such index" if folded not in keys.keys() | dropped_keys else _TWICE
                raise _refused(why, table, st, index=st.index)
            keys[folded] = st
            key_changes.append((st, st))
            continue
        if not isinstance(st, _OLD_COLUMN):
            (drops if isinstance(st, _OLD_DROPS) else rest).append((st, st))
            continue
        folded = fold_name(st.column)
        if owners.get(folded) == i:
            if isinstance(st, s.DropColumn):
                taken = folded in added or folded in renamed_to
                drops.append((attrs.evolve(st, name_taken=True) if taken else st, st))
            elif isinstance(st, s.ModifyColumn) and st.place != s.LAST:
                changes.append((attrs.evolve(st, place=s.LAST), st))
                move = s.ModifyColumn(
                    table=st.table,
                    column=st.definition.name,
                    definition=st.definition,
                    place=st.place,
                )
                rest.append((move, st))
            else:
                changes.append((st, st))
        elif (
            isinstance(st, s.ModifyColumn)
            and fold_name(st.definition.name) in added_before
            and not isinstance(named.get(folded), s.RenameColumn)
        ):
            # a MODIFY (or a CHANGE from a name the table lacks) of a column added before it:
            # the server puts the new definition in the added one's stead, at the end (but
            # not under a name a RENAME COLUMN takes away: the server no longer knows it); a
            # CHANGE from the name of a column another clause takes reads that column's key
            # parts as its own when it stands before it (see _rebound_keys)
            replaced = True
            retaken = retaken or folded in owners
            if isinstance(named.get(folded), s.DropColumn):  # (the first one renames)
                followers.setdefault(folded, st.definition.name)
            rest.append(
                (s.DropColumn(table=st.table, column=st.definition.name, name_taken=True), st)
            )
            rest.append((s.AddColumn(table=st.table, column=st.definition, place=st.place), st))
        elif isinstance(st, s.SetDefault | s.DropDefault) and folded in defined:
            alters.setdefault(folded, []).append((st, st))  # (wherever it stands)
        elif not getattr(st, "if_exists", False):
            why = "no such column" if folded not in owners else _TWICE
            raise _refused(why, table, st, column=st.column)
    # a key whose every column the statement drops goes with them (a unique key of several
    # columns too, which dropping one of them alone may not), its rename with it
    vanish = [
        s.DropIndex(table=table.name, index=idx.name)
        for idx in (table.indexes if len(gone) > 1 else ())
        if len(idx.parts) > 1
        and gone.issuperset(idx.column_ids)
        and fold_name(idx.name) not in dropped_keys
    ]
    _check_alters_left_over(alters, rest)
    written = not (alters or replaced or vanish or retaken) and len(key_renames) < 2 and simple_keys
    if written and not hidden and _as_written(steps, added):
        return [(st, st) for st in steps]
    drops.sort(key=lambda pair: isinstance(pair[0], s.DropColumn))  # (stable: keys first)
    if followers:
        drops = [
            (_followed(st, followers), why) if isinstance(st, s.DropColumn) else (st, why)
            for st, why in drops
        ]
    if vanish:  # (named in errors by the first column drop)
        dropping: s.Step = next(x for _, x in drops if isinstance(x, s.DropColumn))
        drops = [(x, dropping) for x in vanish] + drops
    key_changes = [
        (st, why)
        for st, why in key_changes
        if not gone.issuperset(_key(table, _subject(st)).column_ids)
    ]
    keys = {folded: st for folded, st in keys.items() if any(st is x for x, _ in key_changes)}

    def assembled() -> list[tuple[s.Step, s.Step]]:
        staged: tuple[list[tuple[s.Step, s.Step]], ...] = ([], [], [], [])
        first, columns, after_columns, new_keys = staged
        for pair in rest:
            staged[_stage(pair[0])].append(pair)
        return (
            first
            + drops
            + _chains_ordered(key_changes, keys, _KEY_RENAMES, table)
            + _renames_first(_chains_ordered(changes, named, _COLUMN_RENAMES, table))
            + _with_alters(table, columns, alters, rules)
            + after_columns
            + new_keys
        )

    ordered = assembled()
    rebound = _rebound_keys(table, ordered, steps, dropped_keys) if retaken else {}
    # an ALTER INDEX of a key that goes with its columns is refused, unless another key ends
    # with the name: a key the statement renames to it takes the clause (the server passes
    # the vanishing key by and meets the renamed one), a new key leaves it idle (the key stays
    # as it is stated)
    renamed_keys = {fold_name(st.to) for st, _ in key_changes if isinstance(st, s.RenameIndex)}
    named_keys = {
        fold_name(st.index.name) for st in steps if isinstance(st, s.AddIndex) and st.index.name
    }
    idle = {f for _, f in hidden if f not in rebound and f in named_keys - renamed_keys}
    for alter, folded in hidden:
        if folded not in rebound and folded not in idle and folded not in renamed_keys:
            raise _refused("no such index", table, alter, index=alter.index)
    if not (idle or rebound):
        return ordered
    # each key made again dropped before the columns and added with the new keys, taking the
    # statement's rename and ALTER INDEX of it
    drops = [(drop, why) for drop, _, why in rebound.values()] + [
        pair for pair in drops if not _names_key(pair[0], s.DropIndex, rebound)
    ]
    key_changes = [pair for pair in key_changes if fold_name(_subject(pair[0])) not in rebound]
    for folded in rebound:
        keys.pop(folded, None)
    altered = idle | rebound.keys()
    rest = [(add, why) for _, add, why in rebound.values()] + [
        pair for pair in rest if not _names_key(pair[0], s.SetIndexVisible, altered)
    ]
    return assembled()


#: the name of the key or check each drop names
_DROPPED_NAME: dict[type, Callable[[Any], str]] = {
    s.DropIndex: operator.attrgetter("index"),
    s.DropCheck: operator.attrgetter("check"),
    s.DropConstraint: operator.attrgetter("name"),
}


@attrs.frozen
class _Exists:
    """How the server resolves one kind of clause's IF [NOT] EXISTS: the clause's flag, the
    name it looks for, whether it wants that name (IF EXISTS) or its absence (IF NOT EXISTS),
    and where it looks (a lookup of the table before the statement)."""

    flag: str
    name: Callable[[Any], str]
    wanted: bool
    find: Callable[[Table, str], object]


def _constraint(table: Table, name: str) -> object:
    return table.find_check(name) or table.find_index(name)


#: the clauses whose IF [NOT] EXISTS the server resolves against the table before the
#: statement, ahead of every clause (an unnamed key is looked for under its first column's
#: name, the name it would take)
_EXISTS: dict[type, _Exists] = {
    s.AddColumn: _Exists("if_not_exists", lambda st: st.column.name, False, Table.find_column),
    s.ModifyColumn: _Exists("if_exists", operator.attrgetter("column"), True, Table.find_column),
    s.DropColumn: _Exists("if_exists", operator.attrgetter("column"), True, Table.find_column),
    **{
        kind: _Exists("if_exists", operator.attrgetter("column"), True, Table.find_column)
        for kind in (s.RenameColumn, s.SetDefault, s.DropDefault)
    },
    s.AddIndex: _Exists("if_not_exists", lambda st: _looked_for(st.index), False, Table.find_index),
    s.DropIndex: _Exists("if_exists", _DROPPED_NAME[s.DropIndex], True, Table.find_index),
    s.SetIndexVisible: _Exists("if_exists", operator.attrgetter("index"), True, Table.find_index),
    s.RenameIndex: _Exists("if_exists", operator.attrgetter("index"), True, Table.find_index),
    s.DropCheck: _Exists("if_exists", _DROPPED_NAME[s.DropCheck], True, Table.find_check),
    s.AddCheck: _Exists("if_not_exists", operator.attrgetter("name"), False, Table.check_named),
    s.DropConstraint: _Exists("if_exists", _DROPPED_NAME[s.DropConstraint], True, _constraint),
}


def _nothing(st: s.Step) -> None:
    return None


def _key_stated(st: s.AddIndex) -> str | None:
    """What a new key states: its name, of its kind (an ADD INDEX IF NOT EXISTS meets an
    earlier ADD INDEX of its name, not an ADD UNIQUE). A primary key states the name the
    statement gives it, if any (its own, else its ``CONSTRAINT``'s): the server names it
    ``PRIMARY`` only once it is made, so a second ``ADD PRIMARY KEY IF NOT EXISTS`` of a table
    without one meets the first (error 1068), as two unnamed keys add two, but ``ADD PRIMARY
    KEY IF NOT EXISTS pk (b)`` meets an earlier ``CONSTRAINT pk PRIMARY KEY``."""
    kind = st.index.kind
    name = st.constraint if kind == IndexKind.PRIMARY else st.index.name
    return f"{kind.value} {name}" if name else None


#: the name each clause states, under the kind of clause that meets it: a column an ADD,
#: CHANGE or MODIFY defines (an ADD … IF NOT EXISTS of it goes), a key an ADD names, a column,
#: key or check a drop names (a later DROP … IF EXISTS of it goes)
_STATES: dict[type, tuple[type, Callable[[Any], str | None]]] = {
    s.AddColumn: (s.AddColumn, lambda st: st.column.name),
    s.ModifyColumn: (s.AddColumn, lambda st: st.definition.name),
    s.AddIndex: (s.AddIndex, _key_stated),
    s.DropColumn: (s.DropColumn, operator.attrgetter("column")),
    **{kind: (kind, name) for kind, name in _DROPPED_NAME.items()},
}


def _exists_resolved(table: Table, steps: Sequence[s.Step]) -> Sequence[s.Step]:
    """The statement's clauses with each IF [NOT] EXISTS resolved as the server resolves it,
    before any clause applies: against the table before the statement, and the names the
    clauses before it state (an ADD … IF NOT EXISTS of a column an earlier clause defines, a
    DROP … IF EXISTS of what an earlier one drops, goes). So ``DROP INDEX IF EXISTS i, ADD
    INDEX IF NOT EXISTS i (a)`` drops ``i`` and adds nothing, and ``ADD c INT, MODIFY COLUMN
    IF EXISTS c BIGINT`` leaves ``c`` an INT. A clause that holds loses its flag, so that it
    applies, or fails, where the server's order puts it."""
    if not any(
        getattr(st, "if_exists", False) or getattr(st, "if_not_exists", False) for st in steps
    ):
        return steps
    out: list[s.Step] = []
    stated: set[tuple[type, str]] = set()  # (the kind of clause that meets it, a name)
    for st in steps:
        rule = _EXISTS.get(type(st))
        kind, naming = _STATES.get(type(st), (type(st), _nothing))
        said = naming(st)
        holds = True
        if rule is not None and getattr(st, rule.flag):
            there = rule.find(table, rule.name(st)) is not None
            earlier = said is not None and kind is type(st) and (kind, fold_name(said)) in stated
            holds = there == rule.wanted and not earlier
            cleared: dict[str, Any] = {rule.flag: False}
            st = attrs.evolve(st, **cleared)
        # (the server meets a MODIFY's name before it resolves the MODIFY's own IF EXISTS)
        if said is not None and (holds or isinstance(st, s.ModifyColumn)):
            stated.add((kind, fold_name(said)))
        if holds:
            out.append(st)
    return out


def _converted_first(steps: Sequence[s.Step], checked: bool = True) -> Sequence[s.Step]:
    """The statement's steps with each CHAR, VARCHAR, TEXT, ENUM or SET an ADD, a MODIFY or a
    CHANGE defines already in the charset a CONVERT TO of the statement gives it in the end
    (the server converts every string column, whatever the statement gave it): its keys are
    fitted to that charset, not to the one it holds for a moment (``MODIFY b VARCHAR(800),
    CONVERT TO CHARACTER SET latin1`` keeps a key over the whole of ``b``, which utf8mb4 would
    cut to 768; ``MODIFY b TEXT`` keys 3072 characters of latin1, not 768 of utf8mb4), and an
    ENUM's members are their text in it (the conversion reads the bytes of the members only
    of the columns the statement leaves as they were); ``checked``: as
    :func:`~mvdd.ddl.apply.converted`'s."""
    convert = next((st for st in steps if isinstance(st, s.ConvertCharset)), None)
    if convert is None or not any(isinstance(st, s.ModifyColumn | s.AddColumn) for st in steps):
        return steps
    charset, collation = resolve_charset(convert.charset, convert.collation)
    if charset == "binary":
        return steps
    out = []
    for st in steps:
        if isinstance(st, s.ModifyColumn) and st.definition.type.family in CONVERTED:
            ctype = converted(st.definition.type, charset, collation, checked=checked)
            st = attrs.evolve(st, definition=attrs.evolve(st.definition, type=ctype))
        elif isinstance(st, s.AddColumn) and st.column.type.family in CONVERTED:
            ctype = converted(st.column.type, charset, collation, checked=checked)
            st = attrs.evolve(st, column=attrs.evolve(st.column, type=ctype))
        out.append(st)
    return out


def _after_conversion(
    table: Table, steps: Sequence[s.Step], ordered: list[tuple[s.Step, s.Step]]
) -> list[tuple[s.Step, s.Step]]:
    """``ordered`` (of a statement with a ``CONVERT TO``) with what the server does after the
    conversion moved after it:

    - a ``DEFAULT CHARSET=`` or ``DEFAULT COLLATE=``: the table's default is the one it names,
      wherever it stands (``DEFAULT CHARSET=ascii, ADD d INT, CONVERT TO CHARACTER SET
      utf8mb4`` leaves ascii the default, its columns utf8mb4), so the table's expressions are
      kept in it (1918);
    - an ``ALTER … SET DEFAULT`` of a column of the table the conversion converts (a CHAR,
      TEXT, ENUM or SET the statement does not redefine), the column's DEFAULT dropped before
      the conversion: the server judges the new value in the converted charset (``ALTER c SET
      DEFAULT '中', CONVERT TO CHARACTER SET utf8mb4`` of a latin1 ``c`` is taken) and never
      the value it replaces (a utf8mb4 ``c`` ``DEFAULT '中'`` may take ``SET DEFAULT 'x'``
      beside a conversion to latin1).

    Each step still applies alone, as the history replays them."""
    defined = {fold_name(st.column.name) for st in steps if isinstance(st, s.AddColumn)}
    defined.update(fold_name(st.definition.name) for st in steps if isinstance(st, s.ModifyColumn))
    before: list[tuple[s.Step, s.Step]] = []
    moved: list[tuple[s.Step, s.Step]] = []
    after: list[tuple[s.Step, s.Step]] = []
    convert: list[tuple[s.Step, s.Step]] = []
    for st, why in ordered:
        if isinstance(st, s.ConvertCharset):
            convert.append((st, why))
        elif convert:
            after.append((st, why))
        elif _stage(st) == _FIRST:
            moved.append((st, why))
        elif isinstance(st, s.SetDefault) and (col := _converted(table, st.column, defined)):
            if col.default is not NO_DEFAULT:
                before.append((s.DropDefault(table=st.table, column=st.column), why))
            moved.append((st, why))
        else:
            before.append((st, why))
    return before + convert + moved + after


def _converted(table: Table, name: str, defined: Collection[str]) -> Column | None:
    """The column ``name`` of ``table`` if a CONVERT TO converts it as the table holds it: a
    CHAR, TEXT, ENUM or SET, not generated, and not one the statement redefines (``defined``:
    those are converted as their definitions, :func:`_converted_first`); else None."""
    col = table.find_column(name)
    if col is None or fold_name(name) in defined or col.generated is not None:
        return None
    return col if col.type.family in CONVERTED else None


def _names_key(
    st: s.Step, kind: type[s.DropIndex | s.SetIndexVisible], keys: Collection[str]
) -> bool:
    """Whether ``st`` is a ``kind`` step (DROP INDEX, ALTER INDEX) of one of ``keys``."""
    return isinstance(st, kind) and fold_name(st.index) in keys


def _rebound_keys(
    table: Table,
    ordered: Sequence[tuple[s.Step, s.Step]],
    steps: Sequence[s.Step],
    dropped_keys: set[str],
) -> dict[str, tuple[s.DropIndex, s.AddIndex, s.Step]]:
    """The keys of ``table`` a column the statement adds takes parts of (folded key name ->
    the key's drop, taken before the columns', its new definition, taken with the new keys,
    and the clause an error names), given the statement's steps in ``ordered`` (the server's
    order, keys not yet taken).

    The server reads a key part by its column's name as the table had it: the part goes to
    the first column of the new table that either had that name (the column itself, kept,
    perhaps renamed) or is added under it. So a part over a column the statement drops
    follows a column it adds by that name, and a part over a column it renames follows one
    added by the old name before it (``RENAME COLUMN c TO d, ADD c INT FIRST``). Such a part
    keeps its length where the new column takes it (:func:`_rebound_length`, else the
    server's error 1089), and the key keeps its name (or the name a RENAME INDEX gives it),
    kind, comment, algorithm and visibility (or the one an ALTER INDEX sets). A part over a
    column dropped and not taken goes, which a multi-column UNIQUE or PRIMARY KEY refuses."""
    bare = table.with_changes(indexes=(), checks=())  # the columns alone, as the steps leave them
    # a column the statement adds and then changes from another name (``ADD a …, CHANGE d a
    # …``) stands under that name for the server's matching, as a kept column under its old one
    changed_from: dict[int, str] = {}
    try:
        for st, why in ordered:
            if isinstance(st, s.DropColumn):
                st = attrs.evolve(st, name_taken=True)  # (its users are the real run's to judge)
            if isinstance(st, (*_OLD_COLUMN, s.AddColumn)):
                bare = _apply(st, bare, Rules.EMPTY)
            if isinstance(st, s.AddColumn) and isinstance(why, s.ModifyColumn):
                changed_from[bare.last_id] = why.column
    except MvddError:
        return {}  # (the statement fails when it applies, and says why there)
    before = {c.id: c.name for c in table.columns}
    first: dict[str, Column] = {}  # an old name (folded) -> the column its key parts go to
    for col in bare.columns:
        name = before.get(col.id) or changed_from.get(col.id) or col.name
        first.setdefault(fold_name(name), col)
    renames: dict[str, str] = {}
    visible: dict[str, bool] = {}
    for st in steps:
        if isinstance(st, s.RenameIndex):
            renames.setdefault(fold_name(st.index), st.to)
        elif isinstance(st, s.SetIndexVisible):
            visible[fold_name(st.index)] = st.visible
    adds = {fold_name(st.column.name): st for st in steps if isinstance(st, s.AddColumn)}
    drops = {fold_name(st.column): st for st in steps if isinstance(st, s.DropColumn)}
    out: dict[str, tuple[s.DropIndex, s.AddIndex, s.Step]] = {}
    for idx in table.indexes:
        olds = [table.column_by_id(p.column_id) for p in idx.parts]
        takers = [first.get(fold_name(col.name)) for col in olds]
        taken = [t for col, t in zip(olds, takers, strict=True) if t is not None and t.id != col.id]
        folded = fold_name(idx.name)
        if not taken or folded in dropped_keys:
            continue
        # (the clause an error names: the column's drop, or the add that takes the part)
        clause: s.Step = adds.get(fold_name(taken[0].name)) or ordered[0][1]
        auto_hash = _auto_hash(table, idx)
        parts: list[s.PartSpec] = []
        for part, col, taker in zip(idx.parts, olds, takers, strict=True):
            if taker is None:
                if idx.kind in (IndexKind.PRIMARY, IndexKind.UNIQUE):
                    raise _refused(
                        f"column is part of the multi-column {idx.kind.value} key `{idx.name}`: "
                        "dropping it would change what the key keeps unique (drop or redefine "
                        "the key first)",
                        table,
                        drops.get(fold_name(col.name), clause),
                        column=col.name,
                    )
                continue
            length = part.length
            if taker.id == col.id and taker.type != col.type and taker.type.family in _FITTED:
                length = fitted_prefix(length, taker.type)  # (a MODIFY of it beside: its fit)
            elif taker.id != col.id and not auto_hash:
                try:
                    length = _rebound_length(idx, part, col, taker)
                except DDLError as err:
                    step = adds.get(fold_name(taker.name), clause)
                    raise err.locate(table=table.name, step=str(step)) from None
            parts.append(s.PartSpec(taker.name, length, part.desc))
        spec = s.IndexSpec(
            name=renames.get(folded, idx.name),
            kind=idx.kind,
            parts=tuple(parts),
            comment=idx.comment,
            # (a long unique key read back is judged anew: a hash where a B-tree cannot hold it)
            using=None if server_hash(table, idx) else idx.using,
            visible=visible.get(folded, idx.visible),
        )
        out[folded] = (
            s.DropIndex(table=table.name, index=idx.name),
            s.AddIndex(table=table.name, index=spec),
            clause,
        )
    return out


#: the families a key part of any length follows to (:func:`_rebound_length`): stored off the
#: row, keyed by a prefix
_ANY_PREFIX = LOB_FAMILIES | {Family.SPATIAL}
#: the families whose key prefixes a change of type fits by :func:`~mvdd.ddl.apply.fitted_prefix`
_FITTED = frozenset(Family) - _ANY_PREFIX


def _auto_hash(table: Table, index: Index) -> bool:
    """Whether a key is a long unique key the server made a hash of (a TEXT or BLOB part
    without a prefix), rather than one stated ``USING HASH``."""
    return is_long_unique(index) and any(
        p.length is None and table.column_by_id(p.column_id).type.family in LOB_FAMILIES
        for p in index.parts
    )


def _rebound_length(index: Index, part: IndexPart, old: Column, new: Column) -> int | None:
    """The prefix length of a key part that follows a dropped column's name to the column the
    statement adds in its stead (None: the whole column), as the server keeps it: the old
    part's length in characters (a string column's length when it had no prefix; the bytes of
    any other type), which a TEXT or BLOB column takes as its prefix, a string column as its
    prefix (the whole column when they are equal), and any other type only when it has that
    many bytes; a geometry takes it as a BLOB does (a POINT's key then holds its whole 25
    bytes, as every key over one: :func:`~mvdd.ddl.apply.apply`). DDLError otherwise (the
    server's error 1089)."""
    if index.kind in (IndexKind.FULLTEXT, IndexKind.SPATIAL):
        return None
    was = old.type
    if part.length is not None:
        units = part.length
    elif was.family in (Family.CHAR, Family.BINARY):
        units = was.length or 0
    else:
        units = was.row_size
    now = new.type
    if now.family in _ANY_PREFIX:
        return units
    if now.family in (Family.CHAR, Family.BINARY):
        if units <= (now.length or 0):
            return None if units == now.length else units
    elif units == now.row_size:
        return None
    raise DDLError(
        f"key `{index.name}` keeps the length of the dropped column's part ({units}), which "
        f"the column added in its stead ({now}) cannot take (the server's error 1089: an "
        "incorrect prefix key)",
        column=new.name,
        index=index.name,
    )


def _refused(why: str, table: Table, st: s.Step, **where: str) -> DDLError:
    """The error refusing a statement's clause ``st`` on ``table``."""
    return DDLError(why, **where).locate(table=table.name, step=str(st))


#: the stages of a statement's other clauses: a new default charset reaches every column the
#: statement defines without one (the server reads it first); CONVERT TO reaches every string
#: column, whatever the statement gave it (the server applies it over them all); new keys and
#: checks, and the table's rename, name the columns as the statement leaves them
_FIRST, _COLUMNS, _AFTER_COLUMNS, _KEYS = range(4)


def _stage(st: s.Step) -> int:
    if isinstance(st, s.SetOptions) and any(k in ("CHARSET", "COLLATE") for k, _ in st.options):
        return _FIRST
    if isinstance(st, s.ConvertCharset):
        return _AFTER_COLUMNS
    return _KEYS if isinstance(st, _LATE) else _COLUMNS


def _check_one_charset(steps: Sequence[s.Step]) -> None:
    """DDLError when a statement converts its table to two charsets, or sets two defaults, as
    the server refuses it (a default and a CONVERT TO may differ: the CONVERT's charset is the
    columns', the default the table's, see :func:`_after_conversion`)."""
    for kind, charsets in (
        ("CONVERT TO", [st.charset for st in steps if isinstance(st, s.ConvertCharset)]),
        (
            "DEFAULT CHARSET",
            [
                str(value)
                for st in steps
                if isinstance(st, s.SetOptions)
                for key, value in st.options
                if key == "CHARSET"
            ],
        ),
    ):
        check_one_charset(kind, charsets)


def _charsets_out_of_place(steps: Sequence[s.Step]) -> bool:
    """Whether a clause setting the default charset follows one that defines a column, or a
    CONVERT TO precedes one."""
    stages = [_stage(st) for st in steps if isinstance(st, s.SetOptions | s.ConvertCharset)]
    if not stages:
        return False
    defines = [i for i, st in enumerate(steps) if isinstance(st, (*_OLD_COLUMN, s.AddColumn))]
    if not defines:
        return False
    for i, st in enumerate(steps):
        if isinstance(st, s.SetOptions | s.ConvertCharset):
            stage = _stage(st)
            if (stage == _FIRST and i > defines[0]) or (
                stage == _AFTER_COLUMNS and i < defines[-1]
            ):
                return True
    return False


def _check_idle_default(
    table: Table, defining: s.Step, column: Column, alter: tuple[s.Step, s.Step], rules: Rules
) -> None:
    """The checks of an ``ALTER … SET DEFAULT`` that changes nothing (see
    :func:`_with_alters`): its value must suit the column as the statement defines it (NOT
    NULL in the table's primary key)."""
    old = table.find_column(defining.column) if isinstance(defining, s.ModifyColumn) else None
    key = table.primary_key
    keyed = old is not None and key is not None and old.id in key.column_ids
    assert isinstance(alter[0], s.SetDefault)
    try:
        default = default_under(alter[0].default, column.type, column.name, rules)
        idle = attrs.evolve(column, default=default, nullable=column.nullable and not keyed)
        _check_column(idle, rules)
    except MvddError as err:
        raise err.locate(table=table.name, step=str(alter[1])) from None


def _defined(st: s.Step) -> Column | None:
    """The column a step adds, or moves with its definition."""
    return st.column if isinstance(st, s.AddColumn) else getattr(st, "definition", None)


def _defined_name(st: s.Step) -> str | None:
    """The column (folded) a step adds or moves, which an ALTER … DEFAULT left over may name."""
    column = _defined(st)
    return fold_name(column.name) if column is not None else None


def _check_alters_left_over(
    alters: dict[str, list[tuple[s.Step, s.Step]]], rest: list[tuple[s.Step, s.Step]]
) -> None:
    """Each added or moved column takes one ALTER … DEFAULT left over (the server matches
    them one to one); DDLError naming the first ALTER too many."""
    if not alters:
        return
    defined = Counter(_defined_name(st) for st, _ in rest)
    for name, pending in alters.items():
        if len(pending) > defined[name]:
            extra = pending[defined[name]][1]
            raise DDLError(_TWICE, column=name).locate(step=str(extra))


def _with_alters(
    table: Table,
    steps: list[tuple[s.Step, s.Step]],
    alters: dict[str, list[tuple[s.Step, s.Step]]],
    rules: Rules,
) -> list[tuple[s.Step, s.Step]]:
    """``steps`` with each ``ALTER … DEFAULT`` left over right after the next step that adds
    or moves the column it names, where the server applies it. MariaDB leaves a column whose
    definition's default is ``CURRENT_TIMESTAMP`` as it is stated: the clause meets it, its
    value is checked against the column's type (by ``rules``), and it changes nothing."""
    pending = {name: list(pairs) for name, pairs in alters.items()}
    out = []
    for pair in steps:
        out.append(pair)
        column = _defined(pair[0]) if pending else None
        name = fold_name(column.name) if column is not None else None
        if column is not None and name in pending:
            alter = pending[name].pop(0)
            if now_precision(column.default) is None:
                out.append(alter)
            elif isinstance(alter[0], s.SetDefault):
                _check_idle_default(table, pair[1], column, alter, rules)
            if not pending[name]:
                del pending[name]
    return out


#: steps that name the columns as the statement leaves them, taken after every column's
#: (a new key or check over a column the statement adds later), and a rename of the table
_LATE = (s.AddIndex, s.AddCheck, s.RenameTable)


def _new_keys_early(steps: Sequence[s.Step]) -> bool:
    """Whether a new key or check stands before a clause that adds, changes or drops a
    column, or renames a key (the server adds keys after them all)."""
    seen = False
    for st in steps:
        if isinstance(st, s.AddIndex | s.AddCheck):
            seen = True
        elif seen and isinstance(st, (*_OLD_COLUMN, s.AddColumn, s.RenameIndex)):
            return True
    return False


def _as_written(steps: Sequence[s.Step], added: set[str]) -> bool:
    """Whether the statement's own order applies one by one with the server's meaning (most
    statements): it renames nothing, drops no column, key or check it also adds or renames
    to, drops no key or check after a column's change (the key may have gone with the column
    or kept it NOT NULL: the server drops keys first), and drops no
    column that an earlier clause's ``AFTER``, new key or check names (the server reads those
    names after every drop)."""
    dropped: set[str] = set()
    new_names = set(added)
    named: set[str] = set()
    column_changed = False
    for st in steps:
        if _new_name(st) is not None:
            return False
        column_changed = column_changed or isinstance(st, _OLD_COLUMN)
        if isinstance(st, s.DropColumn):
            if fold_name(st.column) in named:
                return False
            dropped.add(fold_name(st.column))
            continue
        named |= _result_names(st)
        if isinstance(st, (*_OLD_DROPS, s.RenameIndex)):
            if column_changed:  # (the key may have gone with a column, or made it NOT NULL)
                return False
            if isinstance(st, s.RenameIndex):
                new_names.add(fold_name(st.to))
            else:
                dropped.add(fold_name(_DROPPED_NAME[type(st)](st)))
        elif isinstance(st, s.AddIndex):  # (an unnamed key takes its first column's name)
            new_names.add(fold_name(_looked_for(st.index)))
        elif isinstance(st, s.AddCheck) and st.name is not None:
            new_names.add(fold_name(st.name))
    return not (dropped & new_names)


def _result_names(st: s.Step) -> set[str]:
    """The columns (folded) a step names as the statement leaves them: an ``AFTER``, a new
    key's parts, a check's or a generated column's expression."""
    if isinstance(st, s.AddIndex):
        return {fold_name(p.column) for p in st.index.parts}
    if isinstance(st, s.AddCheck):
        return set(ex.referenced_columns(st.expr))
    if not isinstance(st, s.AddColumn | s.ModifyColumn):
        return set()
    col = st.column if isinstance(st, s.AddColumn) else st.definition
    out = {fold_name(st.place.after)} if st.place.after is not None else set()
    if col.generated is not None:
        out |= ex.referenced_columns(col.generated.expr)
    if col.check is not None:
        out |= ex.referenced_columns(col.check)
    return out


#: which clause takes a column of the table when several name it, as the server's ALTER TABLE
#: matches them; a clause left over names a column the statement adds, or is refused
_OWNERSHIP = (s.DropColumn, s.ModifyColumn | s.RenameColumn, s.SetDefault | s.DropDefault)
_TWICE = (
    "another clause of the statement drops or changes it (each names a column or key as the "
    "table had it before the statement)"
)


def _renames_first(changes: list[tuple[s.Step, s.Step]]) -> list[tuple[s.Step, s.Step]]:
    """The changes of the table's columns, those that rename first (in their order): a rename
    reaches the expressions the table held, never one a clause of the statement defines (which
    names the columns as the statement leaves them), so a ``MODIFY`` defining one waits. So
    does the definition of a ``CHANGE`` that renames and defines one, where the statement
    renames another column: its rename stays in its place (a ``RENAME COLUMN``), its definition
    follows every rename (a ``MODIFY`` of the new name)."""
    ordered = sorted(changes, key=lambda pair: _new_name(pair[0]) is None)
    renames = [pair for pair in ordered if _new_name(pair[0]) is not None]
    if len(renames) < 2 or not any(_defines_expression(st) for st, _ in renames):
        return ordered
    moved: list[tuple[s.Step, s.Step]] = []
    for i, (st, why) in enumerate(renames):
        if isinstance(st, s.ModifyColumn) and _defines_expression(st):
            to = st.definition.name
            renames[i] = (s.RenameColumn(table=st.table, column=st.column, to=to), why)
            moved.append((attrs.evolve(st, column=to), why))
    return renames + moved + ordered[len(renames) :]


def _defines_expression(st: s.Step) -> bool:
    """Whether a column's change defines an expression that may name other columns."""
    return isinstance(st, s.ModifyColumn) and bool(_own_expressions(st.definition))


def _followed(st: s.DropColumn, followers: dict[str, str]) -> s.DropColumn:
    """A column's drop, its expressions' readers passed to the column a later clause defines
    from its name, if any."""
    to = followers.get(fold_name(st.column))
    return st if to is None else attrs.evolve(st, name_taken=True, renamed_to=to)


def _new_name(st: s.Step) -> str | None:
    """The name a step gives the column or key it names, if another."""
    if isinstance(st, s.ModifyColumn):
        old, to = st.column, st.definition.name
    elif isinstance(st, s.RenameColumn):
        old, to = st.column, st.to
    elif isinstance(st, s.RenameIndex):
        old, to = st.index, st.to
    else:
        return None
    return None if fold_name(to) == fold_name(old) else to


def _subject(st: s.Step) -> str:
    """The column or key a renaming or column step names."""
    if isinstance(st, s.RenameIndex):
        return st.index
    assert isinstance(st, _OLD_COLUMN)
    return st.column


@attrs.frozen
class _Renames:
    """How a cycle of one kind's renames goes through a temporary name: the element of a name
    in the table (or None), the step renaming the subject of a step, and the step naming its
    subject by another name; and what the kind is called in an error (two renames to one
    name are refused, as the server refuses them)."""

    find: Callable[[Table, str], Column | Index | None]
    rename: Callable[[s.Step, str], s.Step]
    renaming: Callable[[s.Step, str], s.Step]
    element: str


def _column_renaming(st: s.Step, name: str) -> s.Step:
    assert isinstance(st, s.ModifyColumn | s.RenameColumn)
    return attrs.evolve(st, column=name)


def _key_renaming(st: s.Step, name: str) -> s.Step:
    assert isinstance(st, s.RenameIndex)
    return attrs.evolve(st, index=name)


_COLUMN_RENAMES = _Renames(
    find=Table.find_column,
    rename=lambda st, to: s.RenameColumn(table=st.table, column=_subject(st), to=to),
    renaming=_column_renaming,
    element="column",
)
_KEY_RENAMES = _Renames(
    find=Table.find_index,
    rename=lambda st, to: s.RenameIndex(table=st.table, index=_subject(st), to=to),
    renaming=_key_renaming,
    element="index",
)


def _chains_ordered(
    changes: list[tuple[s.Step, s.Step]],
    owners: dict[str, s.Step],
    kind: _Renames,
    table: Table,
) -> list[tuple[s.Step, s.Step]]:
    """The changes of the table's columns (or keys), each rename after the one that frees its
    new name; a cycle of renames (a swap) goes through a temporary name ``#mvdd swap <id>``."""
    targets: set[str] = set()
    for st, why in changes:
        to = _new_name(st)
        if to is None:
            continue
        if fold_name(to) in targets:
            raise _refused(f"duplicate {kind.element} name", table, why, **{kind.element: to})
        targets.add(fold_name(to))
    pending = list(changes)
    out: list[tuple[s.Step, s.Step]] = []
    freed: set[str] = set()
    while pending:
        waiting = []
        for st, why in pending:
            to = _new_name(st)
            if to is not None:
                holder = owners.get(fold_name(to))
                taken = holder is not None and holder is not why and _new_name(holder) is not None
                if taken and fold_name(to) not in freed:
                    waiting.append((st, why))  # (its new name is another's, renamed later)
                    continue
                freed.add(fold_name(_subject(st)))
            out.append((st, why))
        if len(waiting) == len(pending):  # a cycle: its first rename through a temporary name
            (st, why), waiting = waiting[0], waiting[1:]
            subject = _subject(st)
            element = kind.find(table, subject)
            assert element is not None  # (a clause that takes it found it)
            temporary = f"#mvdd swap {element.id}"
            while kind.find(table, temporary) is not None:
                temporary += "'"
            out.append((kind.rename(st, temporary), why))
            freed.add(fold_name(subject))
            waiting.insert(0, (kind.renaming(st, temporary), why))
        pending = waiting
    return out


__all__ = ["apply_ordered", "apply_statement", "in_server_order"]
