"""Tables and steps -> MySQL text, through sqlglot's generator.

Every tree is built from the model (never from strings), and rendered with every identifier
quoted, so any name (backticks, quotes, semicolons, unicode, reserved words) round-trips and can
never inject SQL. Expression defaults other than ``CURRENT_TIMESTAMP`` are wrapped in parentheses
(MySQL 8 requires it; MariaDB accepts it); a nullable TIMESTAMP says ``NULL`` explicitly, so it
means the same whatever ``explicit_defaults_for_timestamp`` is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import singledispatch
from typing import Any

from sqlglot import exp

from mvdd.ddl import dialect as d
from mvdd.ddl import expr as ex
from mvdd.ddl import step as s
from mvdd.ddl.dialect import DIALECT, deep_stack
from mvdd.ddl.name import split_name
from mvdd.ddl.types import data_type
from mvdd.model import (
    NO_DEFAULT,
    PRIMARY,
    Check,
    Column,
    ColumnType,
    Expr,
    Index,
    IndexKind,
    Table,
    TableOptions,
    TypeKind,
)
from mvdd.model.coerce import time_text
from mvdd.model.kind import Family
from mvdd.model.names import fold_name
from mvdd.model.table import period_columns
from mvdd.model.text import sql_text
from mvdd.model.types import CHARSET_DEFAULT


def _id(name: str) -> exp.Identifier:
    return exp.Identifier(this=name, quoted=True)


def _table(name: str) -> exp.Table:
    return exp.Table(this=_id(name))


def sql(node: exp.Expr, *, fresh: bool = False) -> str:
    """One tree as MySQL text, identifiers quoted. ``fresh``: the tree was built for this text
    alone, as every statement and table tree of this module is, so sqlglot's generator, which
    may change the tree it reads, reads it rather than a copy (the copy costs about as much as
    the rest of the rendering)."""
    with deep_stack():
        return DIALECT.generate(node, copy=not fresh, identify=True)


# --- values ----------------------------------------------------------------------------------


def default_node(value: Any, family: Family | None = None) -> exp.Expr:
    """The literal or expression tree of a default (expressions other than CURRENT_TIMESTAMP
    in parentheses)."""
    if isinstance(value, Expr):
        node = ex.to_node(value)
        return node if isinstance(node, exp.CurrentTimestamp) else exp.Paren(this=node)
    return literal_node(value, family)


def literal_node(value: Any, family: Family | None = None) -> exp.Expr:
    """A canonical Python value as a MySQL literal."""
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Literal.number(int(value))
    if isinstance(value, int):
        if family == Family.BIT:
            return exp.BitString(this=format(value, "b"))
        return exp.Literal.number(value) if value >= 0 else exp.Neg(this=exp.Literal.number(-value))
    if isinstance(value, Decimal | float):
        # (a DECIMAL's digits as they are: str() writes 1E-30, which the server reads as a float)
        text = format(value, "f") if isinstance(value, Decimal) else repr(value)
        if text.startswith("-"):
            return exp.Neg(this=exp.Literal.number(text[1:]))
        return exp.Literal.number(text)
    if isinstance(value, bytes):
        return exp.HexString(this=value.hex()) if value else exp.Literal.string("")
    if isinstance(value, dt.timedelta):  # (a TIME as a driver gives it: str() writes days)
        return exp.Literal.string(time_text(value))
    return exp.Literal.string(str(value))


# --- columns, indexes, checks ------------------------------------------------------------------


def _cc(kind: exp.Expr) -> exp.ColumnConstraint:
    return exp.ColumnConstraint(kind=kind)


def column_def(column: Column) -> exp.ColumnDef:
    """The column definition tree (name, type and every attribute, in MySQL's order)."""
    t = column.type
    constraints: list[exp.Expr] = [_cc(d.Compressed())] if t.compressed else []
    if t.has_charset and t.charset is not None:
        constraints.append(_cc(exp.CharacterSetColumnConstraint(this=exp.var(t.charset))))
        constraints.append(_cc(exp.CollateColumnConstraint(this=exp.var(t.collation))))
    if t.zerofill:
        constraints.append(_cc(exp.ZeroFillColumnConstraint()))
    if column.generated is not None:
        constraints.append(
            _cc(
                exp.ComputedColumnConstraint(
                    this=exp.Paren(this=ex.to_node(column.generated.expr)),
                    persisted=column.generated.stored,
                )
            )
        )
    if column.row_period is not None:
        constraints.append(
            _cc(exp.GeneratedAsRowColumnConstraint(start=column.row_period == "START"))
        )
    if column.invisible:
        constraints.append(_cc(exp.InvisibleColumnConstraint()))
    if column.row_period is None:  # (a ROW START / END's NOT NULL: the server's, never said)
        if not column.nullable:
            constraints.append(_cc(exp.NotNullColumnConstraint()))
        elif t.kind == TypeKind.TIMESTAMP:
            constraints.append(_cc(exp.NotNullColumnConstraint(allow_null=True)))
    if column.default is not NO_DEFAULT:
        constraints.append(
            _cc(exp.DefaultColumnConstraint(this=default_node(column.default, t.family)))
        )
    if column.on_update is not None:
        constraints.append(_cc(exp.OnUpdateColumnConstraint(this=ex.to_node(column.on_update))))
    if column.auto_increment:
        constraints.append(_cc(exp.AutoIncrementColumnConstraint()))
    if column.unversioned:
        constraints.append(_cc(d.SystemVersioning(this=exp.var("WITHOUT"))))
    if column.comment is not None:
        constraints.append(
            _cc(exp.CommentColumnConstraint(this=exp.Literal.string(column.comment)))
        )
    if column.check is not None:
        constraints.append(_cc(d.MySQLCheck(this=ex.to_node(column.check))))
    return exp.ColumnDef(this=_id(column.name), kind=data_type(t), constraints=constraints)


def _key_part(name: str, length: int | None, desc: bool) -> exp.Expr:
    node: exp.Expr = _id(name)
    if length is not None:
        node = exp.ColumnPrefix(this=node, expression=exp.Literal.number(length))
    if desc:
        node = exp.Ordered(this=node, desc=True, nulls_first=False)
    return node


def _index_options(comment: str | None, visible: bool) -> list[exp.Expr]:
    out: list[exp.Expr] = []
    if comment is not None:
        out.append(exp.IndexConstraintOption(comment=exp.Literal.string(comment)))
    if not visible:
        out.append(exp.IndexConstraintOption(visible=False))
    return out


def index_node(
    kind: IndexKind,
    name: str | None,
    parts: Sequence[tuple[str, int | None, bool]],
    *,
    using: str | None = None,
    comment: str | None = None,
    visible: bool = True,
) -> exp.Expr:
    """An index definition tree (as in CREATE TABLE and ALTER TABLE ADD)."""
    keys = [_key_part(*p) for p in parts]
    options = _index_options(comment, visible)
    if kind == IndexKind.PRIMARY:
        if using:
            options.insert(0, exp.IndexConstraintOption(using=using))
        return exp.PrimaryKey(expressions=keys, options=options)
    if kind == IndexKind.UNIQUE:
        schema = exp.Schema(this=_id(name) if name else None, expressions=keys)
        return exp.UniqueColumnConstraint(this=schema, index_type=using, options=options)
    return exp.IndexColumnConstraint(
        this=_id(name) if name else None,
        expressions=keys,
        kind=None if kind == IndexKind.INDEX else kind.value,
        index_type=using,
        options=options,
    )


def _index(table: Table, index: Index) -> exp.Expr:
    names = table.index_column_names(index)
    parts = [(n, p.length, p.desc) for n, p in zip(names, index.parts, strict=True)]
    return index_node(
        index.kind,
        index.name,
        parts,
        using=index.using,
        comment=index.comment,
        visible=index.visible,
    )


def check_node(name: str | None, e: Expr, enforced: bool = True) -> exp.Expr:
    node = d.MySQLCheck(this=ex.to_node(e), enforced=None if enforced else False)
    return exp.Constraint(this=_id(name), expressions=[node]) if name else node


def _check(chk: Check) -> exp.Expr:
    return check_node(chk.name, chk.expr, chk.enforced)


def option_nodes(options: TableOptions) -> list[exp.Expr]:
    out: list[exp.Expr] = []
    if options.engine:
        out.append(exp.EngineProperty(this=exp.var(options.engine)))
    if options.charset:
        out.append(exp.CharacterSetProperty(this=exp.var(options.charset), default=True))
    if options.collation:
        out.append(exp.CollateProperty(this=exp.var(options.collation), default=True))
    if options.comment is not None:
        out.append(exp.SchemaCommentProperty(this=exp.Literal.string(options.comment)))
    if options.auto_increment is not None:
        out.append(exp.AutoIncrementProperty(this=exp.Literal.number(options.auto_increment)))
    if options.row_format:
        out.append(exp.RowFormatProperty(this=exp.var(options.row_format)))
    for key, value in options.extra:
        out.append(exp.Property(this=exp.var(key), value=ex.parse(str(value)).copy()))
    if options.versioned:
        out.append(d.SystemVersioning(this=exp.var("WITH")))
    return out


def table_node(table: Table, *, name: str | None = None, qualified: bool = False) -> exp.Create:
    items: list[exp.Expr] = [column_def(c) for c in table.columns]
    items.extend(_index(table, i) for i in table.indexes)
    items.extend(_check(c) for c in table.checks)
    own = period_columns(table)
    if own is not None:
        items.append(
            exp.PeriodForSystemTimeConstraint(this=_id(own[0].name), expression=_id(own[1].name))
        )
    named = name or table.name
    database, rest = split_name(named) if qualified else (None, named)
    target = _table(rest) if database is None else exp.Table(this=_id(rest), db=_id(database))
    schema = exp.Schema(this=target, expressions=items)
    props = option_nodes(table.options)
    return exp.Create(
        this=schema,
        kind="TABLE",
        properties=exp.Properties(expressions=props) if props else None,
    )


def render_table(table: Table, *, name: str | None = None, qualified: bool = False) -> str:
    """``CREATE TABLE`` for a table (under ``name`` if given). ``qualified``: the name is a
    ``database.table`` catalog's (:func:`mvdd.ddl.name.split_name`: the first dot separates
    the database), rendered as the two names (`` `shop`.`orders` ``), not as one."""
    return sql(table_node(table, name=name, qualified=qualified), fresh=True)


@sql_text.register
def _(table: Table) -> str:
    # (a catalog's name's first dot separates its database: a name of one identifier has none)
    return render_table(table, qualified=True)


# --- steps -----------------------------------------------------------------------------------


def _position(place: s.Place) -> exp.ColumnPosition | None:
    if place.first:
        return exp.ColumnPosition(position="FIRST")
    if place.after is not None:
        return exp.ColumnPosition(this=exp.column(_id(place.after)), position="AFTER")
    return None


def _placed_def(
    column: Column,
    place: s.Place,
    *,
    binary: bool = False,
    text_chars: int | None = None,
    written: tuple[int, ...] = (),
    named: str | None = None,
) -> exp.ColumnDef:
    node = column_def(column)
    if named is not None:  # (a collation named without its charset: the table's charset's)
        node.append("constraints", _cc(exp.CollateColumnConstraint(this=exp.var(named))))
    if written:  # (members written as hex literals: their bytes, held as latin1 text)
        members = node.args["kind"].expressions
        for i in written:
            data = column.type.members[i].encode("latin1")
            members[i].replace(exp.HexString(this=data.hex().upper()))
    if binary:  # (the BINARY attribute without a CHARACTER SET: the table's _bin collation)
        node.append("constraints", _cc(exp.BinaryColumnConstraint()))
    if text_chars is not None:  # (TEXT(M): the kind holding M characters of the table's charset)
        node.set(
            "kind",
            exp.DataType(
                this=exp.DType.TEXT,
                expressions=[exp.DataTypeParam(this=exp.Literal.number(text_chars))],
            ),
        )
    position = _position(place)
    if position is not None:
        node.set("position", position)
    return node


def _drop(kind: str, name: str, exists: bool = False) -> exp.Drop:
    target = exp.column(_id(name)) if kind == "COLUMN" else _table(name)
    return exp.Drop(tables=[target], kind=kind, exists=exists)


@singledispatch
def alter_action(step: s.Step) -> exp.Expr | None:
    """The ALTER TABLE action of an element step (None: the step is a statement of its own)."""
    return None


@alter_action.register
def _(step: s.SetVersioning) -> exp.Expr:
    return d.SystemVersioning(this=exp.var("ADD" if step.versioned else "DROP"))


@alter_action.register
def _(step: s.SetSystemPeriod) -> exp.Expr:
    columns = [_id(c) for c in step.columns]
    return d.SystemPeriod(this=exp.var("ADD" if columns else "DROP"), expressions=columns)


@alter_action.register
def _(step: s.AddColumn) -> exp.Expr:
    node = _placed_def(
        step.column,
        step.place,
        binary=step.bin_collation,
        text_chars=step.text_chars,
        written=step.members_written,
        named=step.table_collation,
    )
    if step.if_not_exists:
        node.set("exists", True)
    return node


@alter_action.register
def _(step: s.DropColumn) -> exp.Expr:
    return _drop("COLUMN", step.column, step.if_exists)


@alter_action.register
def _(step: s.ModifyColumn) -> exp.Expr:
    node = _placed_def(
        step.definition,
        step.place,
        binary=step.bin_collation,
        text_chars=step.text_chars,
        written=step.members_written,
        named=step.table_collation,
    )
    rename_from = _id(step.column) if step.is_rename else None
    action = exp.ModifyColumn(this=node, rename_from=rename_from)
    if step.if_exists:
        action.set("exists", True)
    return action


@alter_action.register
def _(step: s.RenameColumn) -> exp.Expr:
    return exp.RenameColumn(
        this=exp.column(_id(step.column)), to=exp.column(_id(step.to)), exists=step.if_exists
    )


@alter_action.register
def _(step: s.SetDefault) -> exp.Expr:
    return exp.AlterColumn(
        this=_id(step.column), default=default_node(step.default), exists=step.if_exists
    )


@alter_action.register
def _(step: s.DropDefault) -> exp.Expr:
    return exp.AlterColumn(this=_id(step.column), drop=True, exists=step.if_exists)


@alter_action.register
def _(step: s.AddIndex) -> exp.Expr:
    spec = step.index
    parts = [(p.column, p.length, p.desc) for p in spec.parts]
    node = index_node(
        spec.kind, spec.name, parts, using=spec.using, comment=spec.comment, visible=spec.visible
    )
    return exp.AddConstraint(expressions=[node])


@alter_action.register
def _(step: s.DropIndex) -> exp.Expr:
    if fold_name(step.index) == fold_name(PRIMARY):
        return exp.DropPrimaryKey()
    return _drop("INDEX", step.index, step.if_exists)


@alter_action.register
def _(step: s.RenameIndex) -> exp.Expr:
    node = exp.RenameIndex(this=_id(step.index), to=_id(step.to))
    if step.if_exists:
        node.set("exists", True)
    return node


@alter_action.register
def _(step: s.SetIndexVisible) -> exp.Expr:
    return d.AlterIndex(this=_id(step.index), visible=step.visible, exists=step.if_exists)


@alter_action.register
def _(step: s.AddCheck) -> exp.Expr:
    return exp.AddConstraint(expressions=[check_node(step.name, step.expr, step.enforced)])


@alter_action.register
def _(step: s.DropCheck) -> exp.Expr:
    return _drop("CHECK", step.check, step.if_exists)


@alter_action.register
def _(step: s.DropConstraint) -> exp.Expr:
    return _drop("CONSTRAINT", step.name, step.if_exists)


@alter_action.register
def _(step: s.AlterCheck) -> exp.Expr:
    return d.AlterCheck(this=_id(step.check), enforced=step.enforced)


@alter_action.register
def _(step: s.ConvertCharset) -> exp.Expr:
    collate = exp.var(step.collation) if step.collation else None
    return d.ConvertCharset(this=exp.var(step.charset), collate=collate)


def _alter(table: str, actions: list[exp.Expr], options: list[exp.Expr] | None = None) -> exp.Alter:
    return exp.Alter(this=_table(table), kind="TABLE", actions=actions, options=options or None)


@singledispatch
def statement_node(step: s.Step) -> exp.Expr:
    """A statement tree for one step on its own."""
    action = alter_action(step)
    if action is None:
        raise TypeError(f"cannot render {type(step).__name__}")
    return _alter(step.table, [action])


@statement_node.register
def _(step: s.SetOptions) -> exp.Expr:
    # (COLLATE DEFAULT without a charset names the default collation of the one the table
    # holds: written so)
    bare = ("COLLATE", CHARSET_DEFAULT) in step.options and all(
        key != "CHARSET" for key, _ in step.options
    )
    rest = [pair for pair in step.options if pair != ("COLLATE", CHARSET_DEFAULT)]
    opts = option_nodes(TableOptions().with_options(rest if bare else step.options))
    if bare:
        opts.append(exp.CollateProperty(this=exp.var(CHARSET_DEFAULT), default=True))
    # (an option set back to the server's own, ROW_FORMAT=DEFAULT or SEQUENCE=0, is none the
    # table keeps: written as DEFAULT)
    opts += [
        exp.Property(this=exp.var(key), value=exp.var("DEFAULT"))
        for key, value in step.options
        if value is None
    ]
    return _alter(step.table, [], opts)


@statement_node.register
def _(step: s.CreateTable) -> exp.Expr:
    node = table_node(step.definition, name=step.table)
    if step.if_not_exists:
        node.set("exists", True)
    return node


@statement_node.register
def _(step: s.CreateTableLike) -> exp.Expr:
    like = exp.Properties(expressions=[exp.LikeProperty(this=_table(step.source))])
    return exp.Create(
        this=_table(step.table), kind="TABLE", properties=like, exists=step.if_not_exists
    )


@statement_node.register
def _(step: s.DropTable) -> exp.Expr:
    return exp.Drop(tables=[_table(step.table)], kind="TABLE", exists=step.if_exists)


@statement_node.register
def _(step: s.RenameTable) -> exp.Expr:
    return d.RenameTables(expressions=[d.RenamePair(this=_table(step.table), to=_table(step.to))])


@statement_node.register
def _(step: s.TruncateTable) -> exp.Expr:
    if step.empties:
        return exp.TruncateTable(expressions=[_table(step.table)])
    verb = step.how.split()[0]
    if step.how.endswith(" TABLESPACE"):
        return exp.Alter(
            this=_table(step.table), kind="TABLE", actions=[d.TablespaceAction(this=verb)]
        )
    table, partitions = step.table, step.partitions
    other = None
    if step.exchange:
        table, partition, into = step.exchange
        partitions, other = (partition,), _table(into)
    names = [] if partitions == ("ALL",) else [exp.to_identifier(p) for p in partitions]
    action = d.PartitionAction(this=verb, expressions=names, all=not names, table=other)
    if step.partition:  # CONVERT TABLE's new partition, as written
        written = d.PartitionDefinition(this=exp.to_identifier(partitions[0]))
        written.meta["text"] = step.partition
        action.set("definitions", [written])
    return exp.Alter(this=_table(table), kind="TABLE", actions=[action])


def render_copy(table: str, into: str, source: str) -> str:
    """``UPDATE t SET into = source WHERE source IS NOT NULL``: the data step of seed 000's
    column-rename procedure (values written to the old column move to the new one).

    >>> render_copy("t", "b", "a")
    'UPDATE `t` SET `b` = `a` WHERE NOT `a` IS NULL'
    """
    src = exp.column(_id(source))
    node = exp.Update(
        this=_table(table),
        expressions=[exp.EQ(this=exp.column(_id(into)), expression=src)],
        where=exp.Where(this=exp.Not(this=exp.Is(this=src.copy(), expression=exp.Null()))),
    )
    return sql(node)


def render_fill(table: str, column: str, value: Any) -> str:
    """``UPDATE t SET column = value WHERE column IS NULL``: NULLs take a value before the
    column becomes NOT NULL.

    >>> render_fill("t", "c", 0)
    'UPDATE `t` SET `c` = 0 WHERE `c` IS NULL'
    """
    col = exp.column(_id(column))
    node = exp.Update(
        this=_table(table),
        expressions=[exp.EQ(this=col, expression=default_node(value))],
        where=exp.Where(this=exp.Is(this=col.copy(), expression=exp.Null())),
    )
    return sql(node)


def render_conversion(table: str, types: Sequence[ColumnType]) -> list[str]:
    """What converts values as the server converts a column's values when ALTERs change its
    type: ``CREATE TEMPORARY TABLE`` of a number ``n`` (the key) and a column ``v`` of the
    first of ``types``, then a ``MODIFY`` of ``v`` to each of the others in turn.

    >>> for text in render_conversion("c", [ColumnType.of("double"), ColumnType.of("date")]):
    ...     print(text)
    CREATE TEMPORARY TABLE `c` (`n` BIGINT NOT NULL, `v` DOUBLE, PRIMARY KEY (`n`))
    ALTER TABLE `c` MODIFY COLUMN `v` DATE
    """
    number = Column(id=1, name="n", type=ColumnType.of("bigint"), nullable=False)
    first = Column(id=2, name="v", type=types[0])
    key = exp.PrimaryKey(expressions=[_id(number.name)])
    schema = exp.Schema(this=_table(table), expressions=[column_def(number), column_def(first)])
    schema.append("expressions", key)
    create = exp.Create(
        this=schema,
        kind="TABLE",
        properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
    )
    changes = [
        _alter(table, [exp.ModifyColumn(this=column_def(Column(id=2, name="v", type=kind)))])
        for kind in types[1:]
    ]
    return [sql(create, fresh=True), *(sql(change, fresh=True) for change in changes)]


@sql_text.register
def describe_step(step: s.Step) -> str:
    """A step as one MySQL statement (for messages and logs)."""
    return sql(statement_node(step), fresh=True)


def render_steps(steps: Iterable[s.Step]) -> list[str]:
    """Steps as MySQL statements, one per entry: consecutive element steps on one table share
    one ``ALTER TABLE`` (so a statement's steps render as one statement again)."""
    out: list[str] = []
    pending_table: str | None = None
    actions: list[exp.Expr] = []

    def flush() -> None:
        nonlocal pending_table, actions
        if pending_table is not None and actions:
            out.append(sql(_alter(pending_table, actions), fresh=True))
        pending_table, actions = None, []

    partner = None  # the other table of the EXCHANGE or CONVERT just rendered
    for st in steps:
        if isinstance(st, s.TruncateTable) and st.exchange and st.table != st.exchange[0]:
            continue  # the other side of an EXCHANGE or CONVERT, which its partner's renders
        if st.table == partner and isinstance(st, s.CreateTableLike | s.DropTable):
            continue  # the table a CONVERT makes or takes, which its partner's renders
        partner = st.exchange[2] if isinstance(st, s.TruncateTable) and st.exchange else None
        action = alter_action(st)
        if action is None:
            flush()
            out.append(sql(statement_node(st), fresh=True))
            continue
        if st.table != pending_table:
            flush()
            pending_table = st.table
        actions.append(action)
    flush()
    return out
