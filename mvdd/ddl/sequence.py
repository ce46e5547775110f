"""MariaDB's sequences: tables of one row whose structure is fixed.

To the server a sequence (``CREATE SEQUENCE``, or a ``CREATE TABLE`` of its structure with
``SEQUENCE=1``) is a table: ``SHOW CREATE TABLE`` shows it with ``SEQUENCE=1``, ``NEXTVAL`` and
``SETVAL`` write its row, and a row-based binlog logs those writes as row events of the table.
mvdd tracks it as that table, so its rows decode like any other table's and a replica that
follows its database never stops on it (other readers of the binlog stop at ``CREATE SEQUENCE``).

A sequence's values (START, INCREMENT, MINVALUE, MAXVALUE, CACHE, CYCLE) are its row's, data
rather than schema: ``CREATE SEQUENCE`` writes the first row and ``ALTER SEQUENCE`` a new one,
which the binlog logs as the statement alone, not as a row event; neither gives the table a new
version beyond the CREATE's own. What mvdd checks is what the server checks:

* the structure (:data:`COLUMNS` in order, named in any case, none with a DEFAULT, a key, a
  CHECK or AUTO_INCREMENT; no key or constraint on the table; an engine that keeps sequences),
  after every statement that leaves a table a sequence, whoever wrote it;
* that ``DROP SEQUENCE`` and ``ALTER SEQUENCE`` name sequences (``IF EXISTS`` passes over a
  table that is not one in a DROP, not in an ALTER, as the server does);
* under mvdd's own rules (not a replica's, whose server already took the statement), that a
  ``CREATE SEQUENCE``'s values make a sequence (:func:`check_values`: the server's rules, with an
  ``auto_increment_increment`` of 1 standing for the server's when INCREMENT is 0), and that a
  table a statement defines or alters has no DEFAULT calling (``NEXTVAL(s)``, ``LASTVAL``,
  ``SETVAL``) anything but a sequence the catalog holds (:func:`check_calls`; one of a database
  the catalog does not track passes).

MySQL has no sequences: a catalog of its flavor refuses the statements as a syntax error, as
MySQL does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import attrs
from sqlglot import exp

from mvdd.ddl import step as s
from mvdd.ddl.dialect import SEQUENCE_CALLS
from mvdd.ddl.expr import parse
from mvdd.errors import DDLError, NoSuchTableError
from mvdd.model import Expr, Table
from mvdd.model.element import NO_DEFAULT
from mvdd.model.kind import TypeKind


@attrs.frozen
class SequenceColumn:
    """One column of a sequence's structure, as the server makes it."""

    name: str
    kind: TypeKind
    unsigned: bool
    width: int
    comment: str | None = None


#: a sequence's columns, in order, as ``CREATE SEQUENCE`` makes them (MariaDB 10.3 – 11.4)
COLUMNS = (
    SequenceColumn("next_not_cached_value", TypeKind.BIGINT, False, 21),
    SequenceColumn("minimum_value", TypeKind.BIGINT, False, 21),
    SequenceColumn("maximum_value", TypeKind.BIGINT, False, 21),
    SequenceColumn(
        "start_value",
        TypeKind.BIGINT,
        False,
        21,
        "start value when sequences is created or value if RESTART is used",
    ),
    SequenceColumn("increment", TypeKind.BIGINT, False, 21, "increment value"),
    SequenceColumn("cache_size", TypeKind.BIGINT, True, 21),
    SequenceColumn(
        "cycle_option",
        TypeKind.TINYINT,
        True,
        1,
        "0 if no cycles are allowed, 1 if the sequence should begin a new cycle when "
        "maximum_value is passed",
    ),
    SequenceColumn("cycle_count", TypeKind.BIGINT, False, 21, "How many cycles have been done"),
)

#: engines that keep no sequence (MariaDB refuses one there: "does not support the create
#: option 'SEQUENCE'"); InnoDB, MyISAM, Aria and engines mvdd does not know keep them
ENGINES_WITHOUT = frozenset({"MEMORY", "CSV", "MRG_MyISAM", "SEQUENCE"})

#: the widest value, and what stands for the server's ``auto_increment_increment``
_LONGLONG_MAX = 2**63 - 1
_AUTO_INCREMENT_INCREMENT = 1


def sequence_option(value: str) -> str | None:
    """The value a ``SEQUENCE=value`` option keeps: ``"1"`` for a non-zero number, None (the
    option gone: the table is not a sequence) for 0 or DEFAULT, as the server shows it."""
    text = value.strip().upper()
    if text == "DEFAULT" or (text.isdigit() and int(text) == 0):
        return None
    if not text.isdigit():
        raise DDLError(f"SEQUENCE takes a number or DEFAULT, not {value!r}")
    return "1"


def column_defs() -> list[exp.ColumnDef]:
    """A sequence's columns as a ``CREATE TABLE`` writes them (new nodes on each call)."""
    defs = []
    for col in COLUMNS:
        kind = exp.DataType(
            this=_UNSIGNED[col.kind] if col.unsigned else _SIGNED[col.kind],
            expressions=[exp.DataTypeParam(this=exp.Literal.number(col.width))],
        )
        constraints = [exp.ColumnConstraint(kind=exp.NotNullColumnConstraint())]
        if col.comment is not None:
            comment = exp.CommentColumnConstraint(this=exp.Literal.string(col.comment))
            constraints.append(exp.ColumnConstraint(kind=comment))
        defs.append(
            exp.ColumnDef(this=exp.to_identifier(col.name), kind=kind, constraints=constraints)
        )
    return defs


_SIGNED = {TypeKind.BIGINT: exp.DType.BIGINT, TypeKind.TINYINT: exp.DType.TINYINT}
_UNSIGNED = {TypeKind.BIGINT: exp.DType.UBIGINT, TypeKind.TINYINT: exp.DType.UTINYINT}


def check_structure(table: Table) -> None:
    """DDLError when a sequence's table is not of a sequence's structure, naming what differs
    as the server does (the column, or the table's keys or constraints)."""
    engine = table.options.engine
    if engine in ENGINES_WITHOUT:
        raise DDLError(f"the {engine} engine keeps no sequence (SEQUENCE=1)")
    if len(table.columns) != len(COLUMNS):
        raise DDLError(
            f"a sequence has {len(COLUMNS)} columns, not {len(table.columns)} (its structure "
            "is fixed)"
        )
    if table.indexes:
        raise DDLError("a sequence has no key", index=table.indexes[0].name)
    if table.checks:
        raise DDLError(f"a sequence has no constraint (CHECK `{table.checks[0].name}`)")
    for number, (col, want) in enumerate(zip(table.columns, COLUMNS, strict=True), 1):
        t = col.type
        if (
            col.name.lower() != want.name
            or (t.kind, t.unsigned, t.zerofill) != (want.kind, want.unsigned, False)
            or col.nullable
            or col.default is not NO_DEFAULT
            or col.auto_increment
            or col.generated is not None
            or col.check is not None
            or t.compressed
        ):
            raise DDLError(
                f"a sequence's column {number} is "
                f"`{want.name}` {want.kind.name}{' UNSIGNED' if want.unsigned else ''} NOT NULL, "
                "with no default (its structure is fixed)",
                column=col.name,
            )


def check_values(values: Mapping[str, int | None]) -> None:
    """DDLError when a ``CREATE SEQUENCE``'s values (by name: INCREMENT, MINVALUE, MAXVALUE,
    START, CACHE, CYCLE, as the dialect reads them; missing: not given; None: ``NO MINVALUE``
    / ``NO MAXVALUE``) make no sequence, by the server's rules: MINVALUE below MAXVALUE, START
    between them, neither at the 64-bit limits, and a CACHE whose values the increment cannot
    overflow."""
    increment = values.get("INCREMENT")
    increment = 1 if increment is None else increment
    step = increment or _AUTO_INCREMENT_INCREMENT
    # (NO MINVALUE and NO MAXVALUE leave the server's first values, 1 and the widest less
    # one; a value not named at all follows the increment's sign)
    low = values.get("MINVALUE", -_LONGLONG_MAX if step < 0 else 1)
    high = values.get("MAXVALUE", -1 if step < 0 else _LONGLONG_MAX - 1)
    low = 1 if low is None else low
    high = _LONGLONG_MAX - 1 if high is None else high
    start = values.get("START")
    if start is None:
        start = high if step < 0 else low
    cache = values.get("CACHE")
    cache = 1000 if cache is None else cache
    widest = abs(step)
    why = next(
        (
            message
            for broken, message in (
                (high <= low, f"MINVALUE {low} is not below MAXVALUE {high}"),
                (not low <= start <= high, f"START {start} is not in [{low}, {high}]"),
                (high >= _LONGLONG_MAX, f"MAXVALUE {high} is not below {_LONGLONG_MAX}"),
                (cache < 0, f"CACHE {cache} is negative"),
                (
                    cache >= (_LONGLONG_MAX - widest) // widest,
                    f"CACHE {cache} times INCREMENT {step} is wider than 64 bits",
                ),
            )
            if broken
        ),
        None,
    )
    if why is not None:
        raise DDLError(f"the sequence's values are out of range: {why}")


#: the steps that leave a table as it is to the server, which does not open it (a table whose
#: DEFAULT calls a sequence that is gone can be renamed, copied, dropped; any other ALTER of it
#: fails)
_UNOPENED = (s.RenameTable, s.CreateTableLike, s.DropTable, s.TruncateTable)


def called(expr: Expr) -> list[str]:
    """The sequences an expression calls, by their names as written (``db.s`` once the
    statement's database qualified them).

    >>> called(Expr("NEXTVAL(`d`.`s`) + LASTVAL(`t`)"))
    ['d.s', 't']
    """
    names = []
    for call in parse(expr.sql).find_all(exp.Anonymous):
        first = call.expressions[0] if call.expressions else None
        if call.name.upper() in SEQUENCE_CALLS and isinstance(first, exp.Table):
            names.append(f"{first.db}.{first.name}" if first.db else first.name)
    return names


def check_calls(
    table: Table,
    steps: Iterable[s.Step],
    table_of: Callable[[str], Table | None],
    known: Callable[[str], bool],
) -> None:
    """NoSuchTableError, or DDLError, when a statement leaves a table (``table``, after its
    ``steps``) with a DEFAULT that calls a sequence that is no table, or a table that is no
    sequence (the server's 1146 and 4089: it resolves every DEFAULT of a table definition it
    writes, so an ALTER that keeps a DEFAULT whose sequence is gone fails too; one that drops
    that DEFAULT, a rename, a copy, a drop pass). ``table_of``: a name's table now (None:
    none); ``known``: whether the catalog would hold a table of that name (one of another
    database's passes)."""
    if not table.column_tally().defaults or all(isinstance(x, _UNOPENED) for x in steps):
        return
    for col in table.columns:
        default = col.default
        if not isinstance(default, Expr) or "VAL(" not in default.sql.upper():
            continue
        for name in called(default):
            if not known(name):
                continue
            found = table_of(name)
            if found is None:
                raise NoSuchTableError(
                    "no such table: the DEFAULT calls it as a sequence", table=name, column=col.name
                )
            if not found.options.sequence:
                raise DDLError(
                    f"`{name}` is not a SEQUENCE (the DEFAULT calls it as one)", column=col.name
                )
