"""MySQL DDL text -> statements of steps, through sqlglot.

:func:`parse_statements` splits the text into statements (by the tokenizer's semicolons, so each
statement keeps its exact original text), parses each with the mvdd dialect, and turns the tree
into :mod:`~mvdd.ddl.step` values. The handlers are dispatched by sqlglot node class
(``functools.singledispatch``), one per statement kind and one per ALTER action.

A statement mvdd does not model (``GRANT``, ``CREATE VIEW``, a ``Command`` fallback, DML) raises
:class:`~mvdd.errors.UnsupportedDDLError`, or, with ``skip_unsupported=True``, comes back with no
steps and the reason in ``Statement.skipped``. Malformed text raises
:class:`~mvdd.errors.DDLParseError` with the line, column and a snippet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from functools import singledispatch
from typing import Any

import attrs
from sqlglot import exp
from sqlglot.errors import ParseError, SqlglotError, TokenError
from sqlglot.tokens import Token, TokenType

from mvdd.ddl import dialect as d
from mvdd.ddl import step as s
from mvdd.ddl.dialect import DIALECT
from mvdd.ddl.expr import normalize
from mvdd.ddl.types import TypeAttrs, column_type
from mvdd.errors import DDLError, DDLParseError, MvddError, UnsupportedDDLError
from mvdd.model import (
    NO_DEFAULT,
    Column,
    ColumnType,
    Default,
    Expr,
    Generated,
    IndexKind,
    Table,
    TableOptions,
    TypeKind,
)
from mvdd.model.types import Family, resolve_charset

#: MySQL's limit on identifier length, in characters
MAX_IDENTIFIER = 64


@attrs.frozen
class Statement:
    """One statement of the input: its 1-based index, its exact text and its steps.

    ``skipped`` holds the reason when the statement was not DDL mvdd models and the caller asked
    to skip such statements; its ``steps`` are then empty."""

    index: int
    text: str
    steps: tuple[s.Step, ...]
    skipped: str | None = None

    @property
    def tables(self) -> tuple[str, ...]:
        """Tables the statement touches, in order of first mention."""
        seen: dict[str, None] = {}
        for st in self.steps:
            seen.setdefault(st.table)
            if isinstance(st, s.RenameTable):
                seen.setdefault(st.to)
        return tuple(seen)


# --- identifiers -------------------------------------------------------------------------------


def check_identifier(name: str, what: str) -> str:
    """``name`` if MySQL accepts it as a (quoted) identifier; raises DDLError otherwise."""
    if not name:
        raise DDLError(f"empty {what} name")
    if len(name) > MAX_IDENTIFIER:
        raise DDLError(f"{what} name {name[:20]!r}… is longer than {MAX_IDENTIFIER} characters")
    if name.endswith(" "):
        raise DDLError(f"{what} name {name!r} ends with a space")
    if "\0" in name or any(ord(ch) > 0xFFFF for ch in name):
        raise DDLError(f"{what} name {name!r} has a character MySQL does not allow in names")
    return name


def _ident(node: exp.Expr | str | None, what: str) -> str:
    if node is None:
        raise DDLError(f"missing {what} name")
    if isinstance(node, str):
        return check_identifier(node, what)
    if isinstance(node, exp.Column | exp.Table) and (node.args.get("table") or node.args.get("db")):
        raise DDLError(f"{what} name {node.sql(dialect=DIALECT)!r} must not be qualified")
    return check_identifier(node.name, what)


@attrs.frozen
class _Context:
    database: str | None


def _table_name(node: exp.Expr | None, ctx: _Context) -> str:
    if not isinstance(node, exp.Table):
        raise DDLError("expected a table name")
    if node.args.get("catalog"):
        raise UnsupportedDDLError(f"table name {node.sql(dialect=DIALECT)!r} has a catalog part")
    db = node.args.get("db")
    if db is not None and db.name != ctx.database:
        raise UnsupportedDDLError(
            f"table {node.sql(dialect=DIALECT)!r} is in database {db.name!r}; this catalog tracks "
            + (f"database {ctx.database!r}" if ctx.database else "unqualified names only")
        )
    return _ident(node.this, "table")


# --- splitting and parsing ---------------------------------------------------------------------


def _chunks(tokens: list[Token]) -> Iterator[list[Token]]:
    chunk: list[Token] = []
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            if chunk:
                yield chunk
            chunk = []
        else:
            chunk.append(token)
    if chunk:
        yield chunk


def split_statements(sql: str) -> list[str]:
    """The statements of a text, each exactly as written (comments between them dropped).

    >>> split_statements("CREATE TABLE a (x INT); -- note\\nDROP TABLE a;")
    ['CREATE TABLE a (x INT)', 'DROP TABLE a']
    """
    try:
        tokens = DIALECT.tokenize(sql)
    except TokenError as err:
        raise _token_error(err, sql) from None
    return [sql[chunk[0].start : chunk[-1].end + 1] for chunk in _chunks(tokens)]


def _parse_error(err: ParseError, sql: str) -> DDLParseError:
    info = err.errors[0] if err.errors else {}
    message = info.get("description") or str(err).splitlines()[0]
    snippet = (info.get("start_context", "") + info.get("highlight", ""))[-40:] or None
    return DDLParseError(
        f"cannot parse: {message}", line=info.get("line"), col=info.get("col"), snippet=snippet
    )


def _token_error(err: TokenError, sql: str) -> DDLParseError:
    # TokenError knows the span of its context snippet; the trouble is at its end
    end = getattr(err, "end", None)
    at = min(end, len(sql) - 1) if isinstance(end, int) and sql else 0
    line = sql.count("\n", 0, at) + 1
    col = at - (sql.rfind("\n", 0, at) + 1) + 1
    start = getattr(err, "start", None)
    snippet = sql[start if isinstance(start, int) else max(0, at - 40) : at + 1][-40:]
    return DDLParseError(
        "cannot tokenize: unterminated string, comment or identifier, or a character MySQL "
        "does not allow here",
        line=line,
        col=col,
        snippet=snippet,
    )


def iter_statements(
    sql: str, *, skip_unsupported: bool = False, database: str | None = None
) -> Iterator[Statement]:
    """Statements of a text one at a time, each parsed only when reached, so a caller that
    executes them in turn commits the statements before a bad one (the text is tokenized whole
    first: an unterminated string or comment fails it all). Arguments as :func:`parse_statements`.
    """
    if not isinstance(sql, str):
        raise DDLError(f"SQL must be text, not {type(sql).__name__}")
    ctx = _Context(database)
    try:
        tokens = DIALECT.tokenize(sql)
    except TokenError as err:
        raise _token_error(err, sql) from None
    for index, chunk in enumerate(_chunks(tokens), start=1):
        yield _statement(sql, index, chunk, ctx, skip_unsupported)


def _statement(sql: str, index: int, chunk: list[Token], ctx: _Context, skip: bool) -> Statement:
    text = sql[chunk[0].start : chunk[-1].end + 1]
    try:
        try:
            trees = DIALECT.parser().parse(chunk, sql)
        except ParseError as err:
            raise _parse_error(err, sql) from None
        steps: list[s.Step] = []
        for tree in trees:
            if tree is not None:
                try:
                    steps.extend(statement_steps(tree, ctx))
                except DDLParseError as err:
                    last = chunk[-1]
                    raise err.locate(line=last.line, col=last.col, snippet=text[-40:]) from None
        return Statement(index, text, tuple(steps))
    except UnsupportedDDLError as err:
        if not skip:
            raise err.locate(statement=text, statement_index=index) from None
        return Statement(index, text, (), skipped=err.message)
    except MvddError as err:
        raise err.locate(statement=text, statement_index=index) from None
    except SqlglotError as err:
        # sqlglot re-reads some text while parsing (type names, for one) and may fail there
        last = chunk[-1]
        raise DDLParseError(
            f"cannot parse: {str(err).splitlines()[0] if str(err) else type(err).__name__}",
            line=last.line,
            col=last.col,
            snippet=text[-40:],
        ).locate(statement=text, statement_index=index) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as err:
        # sqlglot trees we did not foresee: name the statement rather than leak
        raise DDLError(f"cannot read statement: {type(err).__name__}: {err}").locate(
            statement=text, statement_index=index
        ) from None


def parse_statements(
    sql: str, *, skip_unsupported: bool = False, database: str | None = None
) -> list[Statement]:
    """Split MySQL text into statements and each into steps.

    Args:
        sql: one or more statements separated by semicolons.
        skip_unsupported: return statements mvdd does not model with no steps instead of raising.
        database: the database whose tables are tracked; names qualified with another database
            are unsupported (qualified names are refused when None).

    Raises:
        DDLParseError: text that does not parse.
        UnsupportedDDLError: a statement mvdd does not model (unless skipped).
        DDLError: a statement that parses but states something impossible.

    >>> [str(st) for st in parse_statements("ALTER TABLE t DROP a, ADD b INT")[0].steps]
    ['ALTER TABLE `t` DROP COLUMN `a`', 'ALTER TABLE `t` ADD COLUMN `b` INT']
    """
    return list(iter_statements(sql, skip_unsupported=skip_unsupported, database=database))


def parse_table(sql: str) -> Table:
    """The table of one ``CREATE TABLE`` statement (id 0, version 1).

    >>> t = parse_table("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10) DEFAULT 'x')")
    >>> [c.name for c in t.columns], t.column("a").nullable, t.column("b").default
    (['a', 'b'], False, 'x')
    """
    statements = parse_statements(sql)
    if len(statements) != 1 or len(statements[0].steps) != 1:
        raise DDLError("expected exactly one CREATE TABLE statement", statement=sql)
    (only,) = statements[0].steps
    if not isinstance(only, s.CreateTable):
        raise DDLError("expected a CREATE TABLE statement", statement=sql)
    return only.definition


# --- statements --------------------------------------------------------------------------------


@singledispatch
def statement_steps(node: exp.Expr, ctx: _Context) -> list[s.Step]:
    """The steps of one parsed statement."""
    raise UnsupportedDDLError(f"{node.key.upper()} is not a DDL statement mvdd tracks")


#: clauses of DDL statements mvdd does not model; a DDL statement sqlglot cannot read that has
#: none of them is malformed, not unsupported
_UNMODELLED_CLAUSES = frozenset(
    {
        "PARTITION",
        "PARTITIONS",
        "PARTITIONING",
        "SUBPARTITION",
        "KEYS",
        "TABLESPACE",
        "DISCARD",
        "IMPORT",
        "ORDER",
        "VALIDATION",
        "SECONDARY_LOAD",
        "SECONDARY_UNLOAD",
        "CHECKSUM",
        "DIRECTORY",
        "UNION",
        "INSERT_METHOD",
        "ENCRYPTION_KEY_ID",
        "SYSTEM",
        "VERSIONING",
        "PERIOD",
        "SEQUENCE",
        "TRIGGER",
        "VIEW",
        "EVENT",
        "PROCEDURE",
        "FUNCTION",
        "USER",
        "ROLE",
        "SERVER",
    }
)
_DDL_VERBS = frozenset({"ALTER", "CREATE", "DROP", "RENAME", "TRUNCATE"})


@statement_steps.register
def _(node: exp.Command, ctx: _Context) -> list[s.Step]:
    text = node.sql(dialect=DIALECT)
    words = {w.upper() for w in re.findall(r"[A-Za-z_]+", text)}
    if str(node.this).upper() in _DDL_VERBS and not words & _UNMODELLED_CLAUSES:
        raise DDLParseError(f"cannot parse {str(node.this).upper()} statement {text[:60]!r}")
    raise UnsupportedDDLError(f"unsupported statement {text[:60]!r}")


@statement_steps.register
def _(node: exp.Create, ctx: _Context) -> list[s.Step]:
    kind = str(node.args.get("kind") or "").upper()
    if kind != "TABLE":
        raise UnsupportedDDLError(f"CREATE {kind or '?'} is not tracked")
    props = node.args.get("properties")
    if any(isinstance(p, exp.TemporaryProperty) for p in (props.expressions if props else [])):
        raise UnsupportedDDLError("temporary tables are not tracked")
    if node.args.get("replace"):
        raise UnsupportedDDLError("CREATE OR REPLACE TABLE is not tracked")
    if node.expression is not None:
        raise UnsupportedDDLError(
            "CREATE TABLE ... AS SELECT is not tracked (the columns come from a query)"
        )
    exists = bool(node.args.get("exists"))
    schema = node.this
    like = _like_source(node)
    if like is not None:
        name = _table_name(schema.this if isinstance(schema, exp.Schema) else schema, ctx)
        return [s.CreateTableLike(table=name, source=_table_name(like, ctx), if_not_exists=exists)]
    if not isinstance(schema, exp.Schema):
        raise DDLError("CREATE TABLE without column definitions")
    name = _table_name(schema.this, ctx)
    try:
        definition = build_table(name, node)
    except MvddError as err:
        raise err.locate(table=name) from None
    return [s.CreateTable(table=name, definition=definition, if_not_exists=exists)]


def _like_source(node: exp.Create) -> exp.Table | None:
    places = []
    if isinstance(node.this, exp.Schema):
        places.extend(node.this.expressions)
    if node.args.get("properties"):
        places.extend(node.args["properties"].expressions)
    likes = [p.this for p in places if isinstance(p, exp.LikeProperty)]
    if likes and isinstance(node.this, exp.Schema) and len(node.this.expressions) > 1:
        raise UnsupportedDDLError("CREATE TABLE with both LIKE and column definitions")
    return likes[0] if likes else None


@statement_steps.register
def _(node: d.CreateIndex, ctx: _Context) -> list[s.Step]:
    table = _table_name(node.args["table"], ctx)
    kind = {
        None: IndexKind.INDEX,
        "UNIQUE": IndexKind.UNIQUE,
        "FULLTEXT": IndexKind.FULLTEXT,
        "SPATIAL": IndexKind.SPATIAL,
    }[node.args.get("kind")]
    spec = _index_spec(
        kind,
        _ident(node.this, "index"),
        node.expressions,
        node.args.get("using"),
        node.args.get("options"),
    )
    return [s.AddIndex(table=table, index=spec)]


@statement_steps.register
def _(node: exp.Drop, ctx: _Context) -> list[s.Step]:
    kind = str(node.args.get("kind") or "").upper()
    exists = bool(node.args.get("exists"))
    if node.args.get("temporary"):
        raise UnsupportedDDLError("temporary tables are not tracked")
    if kind == "TABLE":
        return [s.DropTable(table=_table_name(t, ctx), if_exists=exists) for t in _dropped(node)]
    if kind == "INDEX":
        on = node.args.get("cluster")
        if not isinstance(on, exp.OnProperty):
            raise DDLError("DROP INDEX needs ON table")
        table = _table_name(on.this, ctx)
        return [_drop_index(table, _ident(t.this, "index"), exists) for t in _dropped(node)]
    raise UnsupportedDDLError(f"DROP {kind or '?'} is not tracked")


def _dropped(node: exp.Drop) -> list[exp.Expr]:
    return list(node.args.get("tables") or [])


def _drop_index(table: str, name: str, exists: bool) -> s.Step:
    return s.DropIndex(table=table, index=name, if_exists=exists)


@statement_steps.register
def _(node: exp.TruncateTable, ctx: _Context) -> list[s.Step]:
    if node.args.get("is_database"):
        raise UnsupportedDDLError("TRUNCATE DATABASE is not tracked")
    return [s.TruncateTable(table=_table_name(t, ctx)) for t in node.expressions]


@statement_steps.register
def _(node: d.RenameTables, ctx: _Context) -> list[s.Step]:
    return [
        s.RenameTable(table=_table_name(p.this, ctx), to=_table_name(p.args["to"], ctx))
        for p in node.expressions
    ]


@statement_steps.register
def _(node: exp.Alter, ctx: _Context) -> list[s.Step]:
    if str(node.args.get("kind") or "").upper() != "TABLE":
        raise UnsupportedDDLError(f"ALTER {node.args.get('kind')} is not tracked")
    if node.args.get("exists"):
        raise UnsupportedDDLError("ALTER TABLE IF EXISTS is not tracked")
    table = _table_name(node.this, ctx)
    steps: list[s.Step] = []
    try:
        for action in node.args.get("actions") or []:
            steps.extend(alter_steps(action, table, ctx))
        options = _options(node.args.get("options") or [], for_alter=True)
    except MvddError as err:
        raise err.locate(table=table) from None
    if options:
        steps.append(s.SetOptions(table=table, options=options))
    return steps


# --- ALTER TABLE actions -----------------------------------------------------------------------


@singledispatch
def alter_steps(action: exp.Expr, table: str, ctx: _Context) -> list[s.Step]:
    """The steps of one ALTER TABLE action."""
    raise UnsupportedDDLError(
        f"unsupported ALTER TABLE action {action.sql(dialect=DIALECT)[:60]!r}"
    )


@alter_steps.register
def _(action: exp.ColumnDef, table: str, ctx: _Context) -> list[s.Step]:
    column, place, indexes = column_from_def(action)
    steps: list[s.Step] = [
        s.AddColumn(
            table=table, column=column, place=place, if_not_exists=bool(action.args.get("exists"))
        )
    ]
    steps.extend(s.AddIndex(table=table, index=spec) for spec in indexes)
    return steps


@alter_steps.register
def _(action: exp.ModifyColumn, table: str, ctx: _Context) -> list[s.Step]:
    definition, place, indexes = column_from_def(action.this)
    source = action.args.get("rename_from")
    name = _ident(source, "column") if source is not None else definition.name
    steps: list[s.Step] = [
        s.ModifyColumn(table=table, column=name, definition=definition, place=place)
    ]
    steps.extend(s.AddIndex(table=table, index=spec) for spec in indexes)
    return steps


@alter_steps.register
def _(action: exp.RenameColumn, table: str, ctx: _Context) -> list[s.Step]:
    if action.args.get("exists"):
        raise UnsupportedDDLError("RENAME COLUMN IF EXISTS is not tracked")
    return [
        s.RenameColumn(
            table=table,
            column=_ident(action.this, "column"),
            to=_ident(action.args.get("to"), "column"),
        )
    ]


@alter_steps.register
def _(action: exp.Drop, table: str, ctx: _Context) -> list[s.Step]:
    kind = str(action.args.get("kind") or "").upper()
    exists = bool(action.args.get("exists"))
    names = [
        _ident(t.this if isinstance(t, exp.Table) else t, kind.lower() or "column")
        for t in _dropped(action)
    ]
    if kind in ("", "COLUMN"):
        return [s.DropColumn(table=table, column=n, if_exists=exists) for n in names]
    if kind in ("INDEX", "KEY"):
        return [s.DropIndex(table=table, index=n, if_exists=exists) for n in names]
    if kind == "CHECK":
        return [s.DropCheck(table=table, check=n, if_exists=exists) for n in names]
    if kind == "CONSTRAINT":
        return [s.DropConstraint(table=table, name=n, if_exists=exists) for n in names]
    raise UnsupportedDDLError(f"DROP {kind} is not tracked")


@alter_steps.register
def _(action: exp.DropPrimaryKey, table: str, ctx: _Context) -> list[s.Step]:
    return [s.DropIndex(table=table, index="PRIMARY")]


@alter_steps.register
def _(action: exp.AlterColumn, table: str, ctx: _Context) -> list[s.Step]:
    column = _ident(action.this, "column")
    known = {k for k, v in action.args.items() if v not in (None, False)} - {"this"}
    if known == {"drop"}:
        return [s.DropDefault(table=table, column=column)]
    if known == {"default"}:
        return [
            s.SetDefault(table=table, column=column, default=_raw_default(action.args["default"]))
        ]
    raise UnsupportedDDLError(f"unsupported ALTER COLUMN {action.sql(dialect=DIALECT)[:60]!r}")


@alter_steps.register
def _(action: exp.AddConstraint, table: str, ctx: _Context) -> list[s.Step]:
    steps: list[s.Step] = []
    for item in action.expressions:
        steps.extend(_constraint_steps(item, table, None))
    return steps


@alter_steps.register
def _(action: exp.RenameIndex, table: str, ctx: _Context) -> list[s.Step]:
    return [
        s.RenameIndex(
            table=table,
            index=_ident(action.this, "index"),
            to=_ident(action.args.get("to"), "index"),
        )
    ]


@alter_steps.register
def _(action: exp.AlterIndex, table: str, ctx: _Context) -> list[s.Step]:
    visible = action.args.get("visible")
    if visible is None:
        raise UnsupportedDDLError("ALTER INDEX needs VISIBLE or INVISIBLE")
    return [
        s.SetIndexVisible(table=table, index=_ident(action.this, "index"), visible=bool(visible))
    ]


@alter_steps.register
def _(action: exp.AlterRename, table: str, ctx: _Context) -> list[s.Step]:
    return [s.RenameTable(table=table, to=_table_name(action.this, ctx))]


@alter_steps.register
def _(action: d.ConvertCharset, table: str, ctx: _Context) -> list[s.Step]:
    charset = action.this.name
    collate = action.args.get("collate")
    return [
        s.ConvertCharset(table=table, charset=charset, collation=collate.name if collate else None)
    ]


@alter_steps.register
def _(action: d.AlterCheck, table: str, ctx: _Context) -> list[s.Step]:
    return [
        s.AlterCheck(
            table=table,
            check=_ident(action.this, "check"),
            enforced=bool(action.args.get("enforced")),
        )
    ]


@alter_steps.register
def _(action: exp.ForceProperty, table: str, ctx: _Context) -> list[s.Step]:
    return []  # FORCE rebuilds the table; the schema stays


# --- constraints and indexes -------------------------------------------------------------------


def _key_part(node: exp.Expr) -> s.PartSpec:
    desc = False
    if isinstance(node, exp.Ordered):
        desc = bool(node.args.get("desc"))
        node = node.this
    if isinstance(node, exp.ColumnPrefix):
        length = node.expression
        if not (isinstance(length, exp.Literal) and length.this.isdigit() and int(length.this) > 0):
            raise DDLError(f"index prefix length {length.sql()!r} is not a positive number")
        return s.PartSpec(_ident(node.this, "column"), int(length.this), desc)
    if isinstance(node, exp.Column | exp.Identifier):
        return s.PartSpec(_ident(node, "column"), None, desc)
    raise UnsupportedDDLError(f"functional key part {node.sql(dialect=DIALECT)!r} is not tracked")


def _index_options(options: list[exp.Expr] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for opt in options or []:
        if not isinstance(opt, exp.IndexConstraintOption):
            continue
        if opt.args.get("comment") is not None:
            out["comment"] = opt.args["comment"].this
        if opt.args.get("using"):
            out["using"] = str(opt.args["using"]).upper()
        if opt.args.get("visible") is not None:
            out["visible"] = bool(opt.args["visible"])
    return out


def _index_spec(
    kind: IndexKind,
    name: str | None,
    parts: list[exp.Expr],
    using: Any = None,
    options: list[exp.Expr] | None = None,
) -> s.IndexSpec:
    if not parts:
        raise DDLError("an index needs at least one column")
    extra = _index_options(options)
    using = str(using).upper() if using else extra.pop("using", None)
    if using not in (None, "BTREE", "HASH", "RTREE"):
        raise DDLError(f"unknown index type {using!r}")
    return s.IndexSpec(
        name="PRIMARY" if kind == IndexKind.PRIMARY else name,
        kind=kind,
        parts=tuple(_key_part(p) for p in parts),
        using=using,
        **extra,
    )


def _constraint_steps(node: exp.Expr, table: str, name: str | None) -> list[s.Step]:
    if isinstance(node, exp.Constraint):
        out: list[s.Step] = []
        cname = _ident(node.this, "constraint")
        for inner in node.expressions:
            out.extend(_constraint_steps(inner, table, cname))
        return out
    if isinstance(node, exp.PrimaryKey):
        include = node.args.get("include")
        using = include.args.get("using") if isinstance(include, exp.IndexParameters) else None
        spec = _index_spec(
            IndexKind.PRIMARY,
            None,
            node.expressions,
            using and using.name,
            node.args.get("options"),
        )
        return [s.AddIndex(table=table, index=spec)]
    if isinstance(node, exp.UniqueColumnConstraint):
        schema = node.this
        if not isinstance(schema, exp.Schema):
            raise DDLError("UNIQUE needs a column list here")
        own = _ident(schema.this, "index") if schema.this is not None else None
        spec = _index_spec(
            IndexKind.UNIQUE,
            own or name,
            schema.expressions,
            node.args.get("index_type"),
            node.args.get("options"),
        )
        return [s.AddIndex(table=table, index=spec)]
    if isinstance(node, exp.IndexColumnConstraint):
        kind = {
            None: IndexKind.INDEX,
            "FULLTEXT": IndexKind.FULLTEXT,
            "SPATIAL": IndexKind.SPATIAL,
        }[node.args.get("kind")]
        own = _ident(node.this, "index") if node.this is not None else None
        spec = _index_spec(
            kind,
            own or name,
            node.expressions,
            node.args.get("index_type") or None,
            node.args.get("options"),
        )
        return [s.AddIndex(table=table, index=spec)]
    if isinstance(node, d.MySQLCheck):
        return [
            s.AddCheck(
                table=table,
                name=name,
                expr=normalize(node.this),
                enforced=node.args.get("enforced") is not False,
            )
        ]
    if isinstance(node, exp.ForeignKey):
        raise UnsupportedDDLError("FOREIGN KEY constraints are not tracked")
    raise UnsupportedDDLError(f"unsupported constraint {node.sql(dialect=DIALECT)[:60]!r}")


# --- columns -----------------------------------------------------------------------------------


def _literal(node: exp.Expr) -> Any:
    """A literal's Python value (text stays text: the column type decides), or raises KeyError."""
    node = _strip(node)
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return 1 if node.this else 0
    if isinstance(node, exp.Introducer):
        return _literal(node.expression)
    if isinstance(node, exp.Literal):
        return node.this if node.is_string else Decimal(node.this)
    if isinstance(node, exp.Neg):
        inner = _literal(node.this)
        if isinstance(inner, Decimal):
            return -inner
    if isinstance(node, exp.BitString):
        return int(node.this or "0", 2)
    if isinstance(node, exp.HexString):
        text = node.this
        return bytes.fromhex(text if len(text) % 2 == 0 else "0" + text)
    raise KeyError(node)


def _strip(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _raw_default(node: exp.Expr) -> Default:
    """A default as stated: None, a literal's raw value (numbers as Decimal, hex as bytes, bits
    as int, text as str), or an Expr. The column's type coerces raw values (:func:`coerce_default`)
    when the default meets its column."""
    try:
        return _literal(node)
    except KeyError:
        return normalize(node)


def coerce_default(value: Default, ctype: ColumnType, column: str) -> Default:
    """The canonical default for a column of ``ctype``; raises DDLError if it cannot hold it."""
    if value is NO_DEFAULT or value is None or isinstance(value, Expr):
        return value
    raw: Any = value
    if isinstance(raw, bytes) and ctype.family in (Family.INTEGER, Family.DECIMAL, Family.FLOAT):
        raw = int.from_bytes(raw, "big")  # x'..' is a number in a numeric context
    try:
        return ctype.coerce(raw)
    except MvddError as err:
        raise DDLError(f"invalid default value: {err.message}", column=column) from None


_JSON_CHECK = "JSON_VALID(`{}`)"


def column_from_def(node: exp.ColumnDef) -> tuple[Column, s.Place, list[s.IndexSpec]]:
    """A column (id 0) from a column definition, its FIRST/AFTER place, and the indexes its
    attributes declare (``PRIMARY KEY``, ``UNIQUE``)."""
    name = _ident(node.this, "column")
    kind = node.args.get("kind")
    if not isinstance(kind, exp.DataType):
        raise DDLError("column definition without a type", column=name)
    flags: dict[str, Any] = {}
    type_attrs: dict[str, Any] = {}
    indexes: list[s.IndexSpec] = []
    default: Default = NO_DEFAULT
    for constraint in node.constraints:
        ck = constraint.kind
        if isinstance(ck, exp.NotNullColumnConstraint):
            flags["nullable"] = bool(ck.args.get("allow_null"))
        elif isinstance(ck, exp.DefaultColumnConstraint):
            default = _raw_default(ck.this)
        elif isinstance(ck, exp.AutoIncrementColumnConstraint):
            flags["auto_increment"] = True
        elif isinstance(ck, exp.CommentColumnConstraint):
            flags["comment"] = ck.this.this if isinstance(ck.this, exp.Literal) else ck.this.name
        elif isinstance(ck, exp.CharacterSetColumnConstraint):
            type_attrs["charset"] = ck.this.name
        elif isinstance(ck, exp.CollateColumnConstraint):
            type_attrs["collation"] = ck.this.name
        elif isinstance(ck, exp.ZeroFillColumnConstraint):
            type_attrs["zerofill"] = True
        elif isinstance(ck, exp.BinaryColumnConstraint):
            type_attrs["binary"] = True
        elif isinstance(ck, exp.ComputedColumnConstraint):
            flags["generated"] = Generated(
                normalize(ck.this), stored=bool(ck.args.get("persisted"))
            )
        elif isinstance(ck, exp.OnUpdateColumnConstraint):
            flags["on_update"] = normalize(ck.this)
        elif isinstance(ck, exp.PrimaryKeyColumnConstraint):
            indexes.append(
                s.IndexSpec(name="PRIMARY", kind=IndexKind.PRIMARY, parts=(s.PartSpec(name),))
            )
        elif isinstance(ck, exp.UniqueColumnConstraint):
            indexes.append(s.IndexSpec(kind=IndexKind.UNIQUE, parts=(s.PartSpec(name),)))
        elif isinstance(ck, d.MySQLCheck):
            if "check" in flags:
                raise UnsupportedDDLError("more than one CHECK on one column", column=name)
            flags["check"] = normalize(ck.this)
        else:
            raise UnsupportedDDLError(
                f"unsupported column attribute {constraint.sql(dialect=DIALECT)!r}", column=name
            )
    try:
        ctype, implied = column_type(kind, TypeAttrs(**type_attrs))
    except MvddError as err:
        raise err.locate(column=name) from None
    if implied.unique:
        flags.setdefault("nullable", False)
        flags["auto_increment"] = True
        indexes.append(s.IndexSpec(kind=IndexKind.UNIQUE, parts=(s.PartSpec(name),)))
    if ctype.kind == TypeKind.LONGTEXT and flags.get("check") == Expr(
        _JSON_CHECK.format(name.replace("`", "``"))
    ):
        # MariaDB spells JSON as LONGTEXT utf8mb4_bin CHECK (json_valid(col))
        ctype = ColumnType.of(TypeKind.JSON)
        del flags["check"]
    if any(i.kind == IndexKind.PRIMARY for i in indexes):
        if flags.get("nullable") is True:
            raise DDLError("a PRIMARY KEY column cannot be NULL", column=name)
        flags["nullable"] = False
    column = Column(name=name, type=ctype, default=coerce_default(default, ctype, name), **flags)
    return column, _place(node.args.get("position")), indexes


def _place(node: exp.Expr | None) -> s.Place:
    if node is None:
        return s.LAST
    where = str(node.args.get("position") or "").upper()
    if where == "FIRST":
        return s.FIRST
    if where == "AFTER":
        return s.Place(after=_ident(node.this, "column"))
    raise DDLError(f"unknown column position {node.sql(dialect=DIALECT)!r}")


# --- tables ------------------------------------------------------------------------------------

_IGNORED_OPTIONS = (exp.AlgorithmProperty, exp.LockProperty)


def _options(props: list[exp.Expr], *, for_alter: bool = False) -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = []
    for p in props:
        if isinstance(p, _IGNORED_OPTIONS):
            continue  # how the server runs the statement, not what it changes
        if isinstance(p, exp.EngineProperty):
            out.append(("ENGINE", p.this.name))
        elif isinstance(p, exp.CharacterSetProperty):
            out.append(("CHARSET", p.this.name))
        elif isinstance(p, exp.CollateProperty):
            out.append(("COLLATE", p.this.name))
        elif isinstance(p, exp.SchemaCommentProperty):
            out.append(("COMMENT", p.this.this))
        elif isinstance(p, exp.AutoIncrementProperty):
            out.append(("AUTO_INCREMENT", str(int(p.this.this))))
        elif isinstance(p, exp.RowFormatProperty):
            out.append(("ROW_FORMAT", p.this.name.upper()))
        elif type(p) is exp.Property:
            key = p.this.name if isinstance(p.this, exp.Expr) else str(p.this)
            out.append((key.upper(), p.args["value"].sql(dialect=DIALECT)))
        elif isinstance(p, exp.LikeProperty) and not for_alter:
            continue
        else:
            raise UnsupportedDDLError(f"unsupported table option {p.sql(dialect=DIALECT)[:60]!r}")
    return tuple(out)


def options_with(base: TableOptions, pairs: tuple[tuple[str, Any], ...]) -> TableOptions:
    """Table options after setting (NAME, value) pairs. ``CHARSET`` and ``COLLATE`` resolve
    together: either alone sets both, as in MySQL."""
    fields: dict[str, Any] = {}
    extra = dict(base.extra)
    given: dict[str, Any] = {}
    for key, value in pairs:
        if key in ("CHARSET", "COLLATE"):
            given[key] = value
        elif key in _OPTION_FIELDS:
            fields[_OPTION_FIELDS[key]] = value
        else:
            extra[key] = value
    if given:
        fields["charset"], fields["collation"] = resolve_charset(
            given.get("CHARSET"), given.get("COLLATE")
        )
    if "auto_increment" in fields:
        fields["auto_increment"] = int(fields["auto_increment"])
    return attrs.evolve(base, extra=tuple(sorted(extra.items())), **fields)


_OPTION_FIELDS = {
    "ENGINE": "engine",
    "COMMENT": "comment",
    "AUTO_INCREMENT": "auto_increment",
    "ROW_FORMAT": "row_format",
}


def build_table(name: str, node: exp.Create) -> Table:
    """The table a ``CREATE TABLE`` tree defines (id 0, version 1), built by applying the
    column, index and check steps it declares to an empty table, so that CREATE and ALTER share
    one set of rules."""
    from mvdd.ddl.apply import apply_steps, validate_table

    props = node.args.get("properties")
    options = options_with(TableOptions(), _options(props.expressions if props else []))
    table = Table(name=name, columns=(), options=options)
    columns: list[s.Step] = []
    later: list[s.Step] = []
    for item in node.this.expressions:
        if isinstance(item, exp.ColumnDef):
            column, place, indexes = column_from_def(item)
            if place != s.LAST:
                raise DDLError("FIRST/AFTER is not allowed in CREATE TABLE", column=column.name)
            columns.append(s.AddColumn(table=name, column=column))
            later.extend(s.AddIndex(table=name, index=spec) for spec in indexes)
        else:
            later.extend(_constraint_steps(item, name, None))
    if not columns:
        raise DDLError("a table needs at least one column", table=name)
    table = apply_steps(table, [*columns, *later], fresh=True)
    validate_table(table)
    return table
