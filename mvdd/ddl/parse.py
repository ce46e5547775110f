"""Parsed DDL trees -> steps: one handler per statement kind and one per ALTER TABLE action,
dispatched by sqlglot node class (``functools.singledispatch``, through
:func:`mvdd.model.dispatch.by_class`), as sqlglot's own dialects dispatch their parsers.

Statement splitting and error reporting are in :mod:`mvdd.ddl.statement`; column definitions in
:mod:`mvdd.ddl.column`; names in :mod:`mvdd.ddl.name`.
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.tokens import Token, TokenType

from mvdd.ddl import dialect as d
from mvdd.ddl import step as s
from mvdd.ddl.apply import (
    apply_steps,
    auto_timestamps,
    checks_named,
    held_comment,
    validate_table,
)
from mvdd.ddl.column import column_from_def, raw_default, versioning_mark
from mvdd.ddl.dialect import DIALECT
from mvdd.ddl.expr import normalize
from mvdd.ddl.name import (
    Context,
    database_name,
    ident,
    is_default_word,
    names_table,
    table_name,
)
from mvdd.ddl.options import (
    check_named,
    check_written,
    created_block_size,
    engine_kept,
    flags_ored,
    kept,
    leading_number,
)
from mvdd.ddl.reserved import is_reserved
from mvdd.ddl.rules import Rules
from mvdd.ddl.sequence import check_values, column_defs, sequence_option
from mvdd.ddl.types import Implied
from mvdd.ddl.versioning import check_period
from mvdd.errors import DDLError, DDLParseError, MvddError, UnsupportedDDLError
from mvdd.model import IndexKind, Table, TableOptions
from mvdd.model.dispatch import by_class
from mvdd.model.frozen import builder
from mvdd.model.names import fold_name
from mvdd.model.table import INNODB, SEQUENCE_OPTION, VERSIONING_OPTION
from mvdd.model.types import (
    CHARSET_DEFAULT,
    canonical_charset,
    charsetless,
    check_hidden_members,
    resolve_charset,
    same_collation,
)

# --- statements --------------------------------------------------------------------------------


@by_class
def statement_steps(node: exp.Expr, ctx: Context) -> list[Any]:
    """The steps of one parsed statement (a database statement: its one DatabaseChange)."""
    raise UnsupportedDDLError(f"{node.key.upper()} is not a DDL statement mvdd tracks")


#: the words of partitioning, which mvdd does not model
PARTITIONING = frozenset({"PARTITION", "PARTITIONS", "PARTITIONING", "SUBPARTITION"})
#: clauses of DDL statements mvdd does not model; a DDL statement sqlglot cannot read that has
#: none of them is malformed, not unsupported
_UNMODELLED_CLAUSES = PARTITIONING | frozenset(
    {
        "KEYS",
        "TABLESPACE",
        "DISCARD",
        "IMPORT",
        "VALIDATION",
        "SECONDARY_LOAD",
        "SECONDARY_UNLOAD",
        "UNION",
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


#: the first words of the server's statements that change no table's schema (MySQL's and
#: MariaDB's: rows, transactions, sessions, privileges, replication, plugins, caches).
#: sqlglot reads some as a Command and fails on others (``DO``, ``HANDLER``, ``XA``, ``LOAD
#: DATA``, ``PURGE`` …): a statement that starts with one is no DDL mvdd tracks however it goes
#: on (the server judges the rest), where a statement of another word sqlglot cannot read is
#: malformed (``CRATE TABLE``). Not among them: the words of the statements the dialect reads
#: to their end, malformed or not (ANALYZE, CHECK, CHECKSUM, OPTIMIZE and REPAIR TABLE, SET,
#: and USE, which makes a database the default of the statements after it)
OTHER_VERBS = frozenset(
    {
        "BACKUP", "BEGIN", "BINLOG", "CACHE", "CALL", "CHANGE", "CLONE", "COMMIT",
        "DEALLOCATE", "DELETE", "DESC", "DESCRIBE", "DO", "EXECUTE", "EXPLAIN", "FLUSH", "GET",
        "GRANT", "HANDLER", "HELP", "IMPORT", "INSERT", "INSTALL", "KILL", "LOAD", "LOCK",
        "PREPARE", "PURGE", "RELEASE", "REPLACE", "RESET", "RESIGNAL", "RESTART", "REVOKE",
        "ROLLBACK", "SAVEPOINT", "SELECT", "SHOW", "SHUTDOWN", "SIGNAL", "START", "STOP",
        "UNINSTALL", "UNLOCK", "UPDATE", "VALUES", "WITH", "XA",
    }
)  # fmt: skip
#: the statements of :data:`OTHER_VERBS` that may run DDL mvdd does not see: why each is
#: refused (a binlog logs the DDL they run as statements of their own, which a reader reads)
_RUNS_HIDDEN = {
    "CALL": "CALL runs a routine, whose statements (DDL among them) mvdd does not read: a "
    "catalog that passes over it misses what they change",
    "EXECUTE": "EXECUTE runs a prepared statement, whose text (DDL, maybe) mvdd does not "
    "know: a catalog that passes over it misses what it changes",
}
_COMPOUND = (
    "a compound statement (BEGIN NOT ATOMIC … END) runs its statements as a program does: mvdd "
    "does not read them one by one"
)
#: why a statement that may run DDL mvdd does not see is refused: a catalog that skips one
#: says so louder than it says of another (a warning)
HIDDEN_DDL = frozenset({*_RUNS_HIDDEN.values(), _COMPOUND})
#: the words after ANALYZE that make it MariaDB's statement analysis (``ANALYZE FORMAT=JSON
#: SELECT …``), no table's statistics
_ANALYSED = frozenset({"FORMAT", "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH"})
#: what a CREATE, ALTER or DROP may name after its verb that is no table nor anything of one
#: (``ALTER INSTANCE``, ``CREATE LOGFILE GROUP``, ``DROP PREPARE``, ``ALTER RESOURCE GROUP``,
#: ``CREATE UNDO TABLESPACE``)
_OTHER_OBJECTS = frozenset({"INSTANCE", "LOGFILE", "PREPARE", "RESOURCE", "UNDO"})


#: the objects a DDL may name that hold no rows and no table's schema (what a statement on one
#: changes, a row reader never needs): the word that names each kind
NOT_TABLES = frozenset(
    {"VIEW", "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE", "USER", "ROLE", "SERVER"}
)
#: the words naming the kind of object a CREATE, ALTER or DROP is about
_OBJECT_WORDS = NOT_TABLES | {"TABLE", "TABLES", "INDEX", "SEQUENCE", "DATABASE", "SCHEMA"}


def object_named(tokens: list[Token]) -> str | None:
    """The kind of object a CREATE, ALTER, DROP or RENAME is about, from its tokens after the
    verb: the first word naming a kind (:data:`NOT_TABLES`, TABLE, INDEX …) that is no quoted
    name, in capitals; None: none.

    >>> object_named(DIALECT.tokenize("DEFINER=`u`@`h` SQL SECURITY DEFINER VIEW v AS SELECT 1"))
    'VIEW'
    >>> object_named(DIALECT.tokenize("TABLE `view` (a INT)"))
    'TABLE'
    """
    for token in tokens:
        word = token.text.upper()
        if token.token_type != TokenType.IDENTIFIER and word in _OBJECT_WORDS:
            return word
    return None


def other_statement(tokens: list[Token]) -> str | None:
    """Why a statement's tokens (MariaDB's ``SET STATEMENT … FOR`` left out) are no DDL of a
    table mvdd reads, else None: a compound statement (``BEGIN NOT ATOMIC … END``, which runs
    its statements as a program does), a verb of :data:`OTHER_VERBS`, or a CREATE, ALTER or
    DROP of :data:`_OTHER_OBJECTS` or :data:`NOT_TABLES` (a routine whose body sqlglot cannot
    read).

    >>> other_statement(DIALECT.tokenize("DO SETVAL(`s`, 1, 0)"))
    'DO is not a DDL statement mvdd tracks'
    >>> other_statement(DIALECT.tokenize("ALTER INSTANCE ROTATE INNODB MASTER KEY"))
    'ALTER INSTANCE is not a DDL statement mvdd tracks'
    >>> other_statement(DIALECT.tokenize("ALTER TABLE instance ADD b INT")) is None
    True
    """
    if not tokens:
        return None
    verb = tokens[0].text.upper().split()[0]  # (LOCK TABLES is one token)
    at = 2 if len(tokens) > 2 and tokens[1].token_type == TokenType.COLON else 0  # (a label)
    if (
        tokens[at].token_type == TokenType.BEGIN
        and len(tokens) > at + 1
        and tokens[at + 1].token_type == TokenType.NOT
    ):
        return _COMPOUND
    if verb in OTHER_VERBS or (
        verb == "ANALYZE" and len(tokens) > 1 and tokens[1].text.upper() in _ANALYSED
    ):
        return _RUNS_HIDDEN.get(verb, f"{verb} is not a DDL statement mvdd tracks")
    if verb in ("CREATE", "ALTER", "DROP") and len(tokens) > 1:
        after = tokens[1]  # (ALTER INSTANCE: its word right after the verb)
        kind = (
            after.text.upper()
            if after.token_type != TokenType.IDENTIFIER and after.text.upper() in _OTHER_OBJECTS
            else object_named(tokens[1:])
        )
        if kind in _OTHER_OBJECTS or kind in NOT_TABLES:
            return f"{verb} {kind} is not a DDL statement mvdd tracks"
    return None


def bare_words(tokens: list[Token]) -> set[str]:
    """The words of a statement's tokens but its quoted names and strings (a table called
    `order` is no clause), in capitals; the tokenizer makes one token of some phrases
    (PARTITION BY), each word counts."""
    return {
        word
        for t in tokens
        if t.token_type not in (TokenType.IDENTIFIER, TokenType.STRING)
        for word in t.text.upper().split()
    }


def _unread(node: exp.Command, what: str, ctx: Context) -> MvddError:
    """What a ``Command`` fallback means: a DDL text sqlglot could not read is malformed
    (DDLParseError) unless it names a clause mvdd does not model (UnsupportedDDLError), in
    its :func:`bare_words` (partitioning, whose grammar a replica reads, is malformed there)."""
    text = node.sql(dialect=DIALECT)
    try:
        tokens = DIALECT.tokenize(text)
    except SqlglotError:
        return DDLParseError(f"cannot parse {what} {text[:60]!r}")
    other = other_statement(tokens)
    if other is not None:
        return UnsupportedDDLError(other)
    clauses = _UNMODELLED_CLAUSES - PARTITIONING if ctx.replica else _UNMODELLED_CLAUSES
    if clauses.isdisjoint(bare_words(tokens)):
        return DDLParseError(f"cannot parse {what} {text[:60]!r}")
    return UnsupportedDDLError(f"unsupported {what} {text[:60]!r}")


@statement_steps.register
def _(node: exp.Command, ctx: Context) -> list[s.Step]:
    verb = str(node.this).upper()
    if verb == "CREATE":
        err = _unread(node, "CREATE statement", ctx)
        if isinstance(err, DDLParseError) and _selects_rows(node):
            err = UnsupportedDDLError(_CTAS)
        created = _created(node, ctx)
        raise err.locate(table=created) if created and err.table is None else err
    if verb in _DDL_VERBS:
        raise _unread(node, f"{verb} statement", ctx)
    raise UnsupportedDDLError(f"unsupported statement {node.sql(dialect=DIALECT)[:60]!r}")


#: why a CREATE TABLE whose columns come from a query is not followed
_CTAS = "CREATE TABLE ... AS SELECT is not tracked (the columns come from a query)"


def _selects_rows(node: exp.Command) -> bool:
    """Whether a CREATE TABLE that sqlglot could not read takes its rows from a query with
    ``IGNORE`` or ``REPLACE`` (``CREATE TABLE u (KEY (a)) IGNORE SELECT …``): MySQL's grammar,
    which sqlglot's lacks."""
    try:
        words = [t.text.upper() for t in DIALECT.tokenize(node.sql(dialect=DIALECT))]
    except SqlglotError:
        return False
    return any(
        word in ("IGNORE", "REPLACE")
        and [w for w in words[i + 1 : i + 3] if w != "AS"][:1] == ["SELECT"]
        for i, word in enumerate(words)
    )


def _created(node: exp.Command, ctx: Context) -> str | None:
    """The table (or sequence) a CREATE that sqlglot could not read names, so that the error
    says which (a reader skipping it must know whose rows to skip): the name after TABLE or
    SEQUENCE [IF NOT EXISTS], read by the dialect's own table-name rule."""
    try:
        tokens = DIALECT.tokenize(node.sql(dialect=DIALECT))
        at = next(
            i + 1
            for i, t in enumerate(tokens)
            if t.token_type == TokenType.TABLE or t.text.upper() == "SEQUENCE"
        )
    except (SqlglotError, StopIteration):
        return None
    if [t.text.upper() for t in tokens[at : at + 3]] == ["IF", "NOT", "EXISTS"]:
        at += 3
    parts = tokens[at : at + 3 : 2]  # name, or database . name
    if len(parts) < 2 or tokens[at + 1].token_type != TokenType.DOT:
        parts = parts[:1]
    if not parts or any(t.token_type not in (TokenType.VAR, TokenType.IDENTIFIER) for t in parts):
        return None
    names = [exp.to_identifier(t.text) for t in parts]
    try:
        return table_name(exp.Table(this=names[-1], db=names[0] if len(names) == 2 else None), ctx)
    except MvddError:
        return None


@statement_steps.register
def _(node: exp.Use, ctx: Context) -> list[Any]:
    if node.args.get("kind") is not None:  # (another dialect's USE ROLE / WAREHOUSE …)
        raise DDLError(f"USE {node.args['kind']} is no MySQL statement")
    database = _database_of(node.this, ctx)
    assert database is not None
    return [s.UseDatabase(database)]


@statement_steps.register
def _(node: exp.Create, ctx: Context) -> list[Any]:
    kind = str(node.args.get("kind") or "").upper()
    if kind in _DATABASE_KINDS:
        charset, collation = _database_charset(node.args.get("properties"))
        return [
            s.DatabaseChange(
                action=s.DatabaseAction.CREATE,
                database=_database_of(node.this, ctx),
                charset=charset,
                collation=collation,
                if_exists=bool(node.args.get("exists")),
                replace=bool(node.args.get("replace")),
            )
        ]
    if kind != "TABLE":
        named = {"table": table_name(node.this, ctx)} if isinstance(node.this, exp.Table) else {}
        raise UnsupportedDDLError(f"CREATE {kind or '?'} is not tracked", **named)
    props = node.args.get("properties")
    if any(isinstance(p, exp.TemporaryProperty) for p in (props.expressions if props else [])):
        raise UnsupportedDDLError("temporary tables are not tracked")
    if node.args.get("replace"):
        if node.args.get("exists"):
            raise DDLError("CREATE OR REPLACE and IF NOT EXISTS cannot both be used")
        # MariaDB: drop the table if it exists, then create it (a new table: new ids)
        created = _create_table(node, ctx)
        return [s.DropTable(table=created[0].table, if_exists=True), *created]
    return _create_table(node, ctx)


def _create_table(node: exp.Create, ctx: Context) -> list[Any]:
    if node.args.get("indexes"):  # Teradata's `[UNIQUE | PRIMARY] INDEX (a)` after the columns
        raise DDLParseError(
            f"no index goes after the column list: {node.args['indexes'][0].sql()[:40]!r}"
        )
    if node.expression is not None:
        raise UnsupportedDDLError(_CTAS)
    exists = bool(node.args.get("exists"))
    _sequences_qualified(node, ctx)
    _versioning_mariadbs(node, ctx)
    schema = node.this
    like = _like_source(node)
    if like is not None:
        name = table_name(schema.this if isinstance(schema, exp.Schema) else schema, ctx)
        return [s.CreateTableLike(table=name, source=table_name(like, ctx), if_not_exists=exists)]
    if not isinstance(schema, exp.Schema):
        table_name(schema, ctx)  # a reserved word as the name is the first error
        raise DDLError("CREATE TABLE without column definitions")
    name = table_name(schema.this, ctx)
    try:
        definition = build_table(name, node, ctx.charset_of(name), ctx=ctx)
    except (UnsupportedDDLError, DDLParseError) as err:  # (the server's parser refuses first)
        raise err.locate(table=name) from None
    except DDLError as err:
        if not exists:
            raise err.locate(table=name) from None
        # (judged where the table is not there: see CreateTable.refused)
        at = tuple((k, v) for k in ("column", "index", "step") if (v := getattr(err, k)))
        return [
            s.CreateTable(
                table=name,
                definition=Table(name=name, columns=()),
                if_not_exists=True,
                refused=err.message,
                refused_at=at,
            )
        ]
    except MvddError as err:
        raise err.locate(table=name) from None
    return [s.CreateTable(table=name, definition=definition, if_not_exists=exists)]


_DATABASE_KINDS = frozenset({"DATABASE", "SCHEMA"})


def _database_of(node: exp.Expr | None, ctx: Context) -> str | None:
    """The database a ``DATABASE x`` / ``SCHEMA x`` reference names (sqlglot keeps a schema's
    name as the table's database), in lower case on a server that keeps names so; None: the
    statement's default database (lower case likewise)."""
    if node is None:
        name = ctx.default
    elif isinstance(node, exp.Table):
        parts = [p for p in (node.args.get("db"), node.this) if p is not None and p.name]
        if len(parts) != 1:
            raise DDLError(f"expected a database name, not {node.sql(dialect=DIALECT)!r}")
        name = database_name(parts[0].name)
    else:
        name = database_name(ident(node, "database"))
    return fold_name(name) if name is not None and ctx.lower_names else name


#: database options of where and how the data is stored, not of the schema: MySQL's
#: ``[DEFAULT] ENCRYPTION 'N'`` (which its dumps write as ``/*!80016 … */``)
_STORAGE_OPTIONS = frozenset({"ENCRYPTION"})


def _storage_only(p: exp.Expr) -> bool:
    return type(p) is exp.Property and p.name.upper() in _STORAGE_OPTIONS


def _database_charset(props: exp.Expr | None) -> tuple[str | None, str | None]:
    """A database statement's (charset, collation). Either may be left to the catalog, which
    knows the database's and the server's: ``CHARACTER SET DEFAULT`` (:data:`~mvdd.model.types.
    CHARSET_DEFAULT`: the server's charset, in its default collation unless one is named),
    ``COLLATE DEFAULT`` without a charset (the default collation of the database's charset,
    or of the server's for a new one), a collation named without its charset."""
    charset = collation = None
    for p in props.expressions if props is not None else []:
        if isinstance(p, exp.CharacterSetProperty):
            charset = CHARSET_DEFAULT if _named_default(p) else p.this.name
        elif isinstance(p, exp.CollateProperty):
            collation = CHARSET_DEFAULT if _named_default(p) else p.this.name
        elif not isinstance(p, exp.SchemaCommentProperty) and not _storage_only(p):
            raise UnsupportedDDLError(f"database option {p.sql(dialect=DIALECT)[:60]!r}")
    if charset == CHARSET_DEFAULT:
        return charset, collation
    if collation == CHARSET_DEFAULT and charset is not None:
        return resolve_charset(charset, None)  # (the named charset's default collation)
    if charset is None and (collation in (None, CHARSET_DEFAULT) or charsetless(collation)):
        # (a collation named without its charset: the database's charset's, or the server's,
        # which the catalog knows)
        return None, collation
    return resolve_charset(charset, collation)


@statement_steps.register
def _(node: d.SequenceStatement, ctx: Context) -> list[Any]:
    verb = node.name
    if ctx.flavor == "mysql":
        raise DDLParseError(f"{verb} SEQUENCE is MariaDB's: MySQL has no sequences")
    if node.args.get("temporary"):
        raise UnsupportedDDLError("temporary tables are not tracked")
    names = [table_name(t, ctx) for t in node.expressions]
    exists = bool(node.args.get("exists"))
    if verb == "DROP":
        twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
        if twice is not None:  # the server's error 1066
            raise DDLError("a sequence named twice in one DROP SEQUENCE", table=twice)
        return [s.DropTable(table=name, if_exists=exists, sequence=True) for name in names]
    (name,) = names
    if verb == "ALTER":
        return [*([s.IfTableExists(table=name)] if exists else []), s.SequenceNamed(table=name)]
    values = {p.name: _sequence_value(p.args["value"]) for p in node.args.get("options") or []}
    if not ctx.replica:  # (a replica's server took them)
        try:
            check_values(values)
        except MvddError as err:
            raise err.locate(table=name) from None
    # a table of the sequence's structure, its table options and SEQUENCE=1: the CREATE
    # TABLE's path, OR REPLACE and IF NOT EXISTS included
    props = node.args.get("properties")
    mark = exp.Property(this=exp.var(SEQUENCE_OPTION), value=exp.Literal.number(1))
    create = exp.Create(
        kind="TABLE",
        this=exp.Schema(this=node.expressions[0].copy(), expressions=column_defs()),
        properties=exp.Properties(expressions=[*(props.expressions if props else []), mark]),
        exists=exists,
        replace=bool(node.args.get("replace")),
    )
    return statement_steps(create, ctx)


def _sequence_value(node: exp.Expr) -> int | None:
    """A sequence option's value as :meth:`~mvdd.ddl.dialect.MvddMySQL` reads it (a signed
    integer literal, or NULL)."""
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Neg):
        return -int(node.this.this)
    return int(node.this)


@statement_steps.register
def _(node: d.AlterDatabase, ctx: Context) -> list[Any]:
    charset, collation = _database_charset(node.args.get("properties"))
    return [
        s.DatabaseChange(
            action=s.DatabaseAction.ALTER,
            database=_database_of(node.this, ctx),
            charset=charset,
            collation=collation,
        )
    ]


def _like_source(node: exp.Create) -> exp.Table | None:
    places = []
    if isinstance(node.this, exp.Schema):
        places.extend(node.this.expressions)
    if node.args.get("properties"):
        places.extend(node.args["properties"].expressions)
    likes = [p.this for p in places if isinstance(p, exp.LikeProperty)]
    if likes and isinstance(node.this, exp.Schema) and len(node.this.expressions) > 1:
        raise DDLParseError("CREATE TABLE with both LIKE and column definitions")
    return likes[0] if likes else None


@statement_steps.register
def _(node: d.CreateIndex, ctx: Context) -> list[s.Step]:
    table = table_name(node.args["table"], ctx)
    kind = {
        None: IndexKind.INDEX,
        "UNIQUE": IndexKind.UNIQUE,
        "FULLTEXT": IndexKind.FULLTEXT,
        "SPATIAL": IndexKind.SPATIAL,
    }[node.args.get("kind")]
    name = ident(node.this, "index")
    spec = _index_spec(
        kind,
        name,
        node.expressions,
        node.args.get("using"),
        node.args.get("options"),
    )
    if node.args.get("replace"):
        if node.args.get("exists"):
            raise DDLError("CREATE OR REPLACE and IF NOT EXISTS cannot both be used")
        # MariaDB: the index of that name dropped if there is one, then this one made
        return [
            s.DropIndex(table=table, index=name, if_exists=True),
            s.AddIndex(table=table, index=spec),
        ]
    return [s.AddIndex(table=table, index=spec, if_not_exists=bool(node.args.get("exists")))]


@statement_steps.register
def _(node: exp.Drop, ctx: Context) -> list[Any]:
    kind = str(node.args.get("kind") or "").upper()
    exists = bool(node.args.get("exists"))
    if node.args.get("temporary"):
        raise UnsupportedDDLError("temporary tables are not tracked")
    if kind == "TABLE":
        if not _dropped(node):
            raise DDLParseError("DROP TABLE needs a table name")
        names = [table_name(t, ctx) for t in _dropped(node)]
        twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
        if twice is not None:  # the server's error 1066
            raise DDLError("a table named twice in one DROP TABLE", table=twice)
        return [s.DropTable(table=name, if_exists=exists) for name in names]
    if kind in _DATABASE_KINDS:
        (target,) = _dropped(node)
        return [
            s.DatabaseChange(
                action=s.DatabaseAction.DROP,
                database=_database_of(target, ctx),
                if_exists=exists,
            )
        ]
    if kind == "INDEX":
        on = node.args.get("cluster")
        if not isinstance(on, exp.OnProperty):
            raise DDLParseError("DROP INDEX needs ON table")
        table = table_name(on.this, ctx)
        return [_drop_index(table, ident(t.this, "index"), exists) for t in _dropped(node)]
    raise UnsupportedDDLError(f"DROP {kind or '?'} is not tracked")


def _dropped(node: exp.Drop) -> list[exp.Expr]:
    return list(node.args.get("tables") or [])


def _drop_index(table: str, name: str, exists: bool) -> s.Step:
    return s.DropIndex(table=table, index=name, if_exists=exists)


@statement_steps.register
def _(node: exp.TruncateTable, ctx: Context) -> list[s.Step]:
    if node.args.get("is_database"):
        raise UnsupportedDDLError("TRUNCATE DATABASE is not tracked")
    return [s.TruncateTable(table=table_name(t, ctx)) for t in node.expressions]


@statement_steps.register
def _(node: d.RenameTables, ctx: Context) -> list[Any]:
    steps: list[Any] = []
    for p in node.expressions:
        table = table_name(p.this, ctx)
        if node.args.get("exists"):
            steps.append(s.IfTableExists(table=table))  # MariaDB: a missing table is skipped
        steps.append(s.RenameTable(table=table, to=table_name(p.args["to"], ctx)))
    return steps


#: the maintenance verbs that define a table anew, each with the engines that do (OPTIMIZE:
#: InnoDB recreates the table, the server's default engine; MyISAM and Aria work in place)
_DEFINING_ANEW = {"OPTIMIZE": INNODB}


@statement_steps.register
def _(node: d.Maintenance, ctx: Context) -> list[Any]:
    # statistics, a rebuild, a check: the schema stays (a missing table is no error), but a
    # table defined anew reads its keys back
    recreating = _DEFINING_ANEW.get(node.this.name.upper())
    if recreating is None:
        return []
    return [
        s.DefinedAnew(table=table_name(t, ctx), recreating=recreating) for t in node.expressions
    ]


@statement_steps.register
def _(node: d.SetStatement, ctx: Context) -> list[Any]:
    return statement_steps(node.this, ctx)  # the settings say how it runs, not what it does


@statement_steps.register
def _(node: exp.Alter, ctx: Context) -> list[Any]:
    if str(node.args.get("kind") or "").upper() != "TABLE":
        raise UnsupportedDDLError(f"ALTER {node.args.get('kind')} is not tracked")
    table = table_name(node.this, ctx)
    # ALTER TABLE IF EXISTS: the steps apply only if the table exists
    steps: list[Any] = [s.IfTableExists(table=table)] if node.args.get("exists") else []
    _sequences_qualified(node, ctx)
    _versioning_mariadbs(node, ctx)
    try:
        actions = node.args.get("actions") or []
        if (
            actions
            and isinstance(actions[0], d.ListedChecks)  # (a test of the first spares the rest's)
            and all(isinstance(a, d.ListedChecks) for a in actions)
            and all(map(_no_rebuild, node.args.get("options") or ()))
        ):
            actions = _listed_checks_alone(actions, ctx)
        ctx = _converting(actions, table, ctx)
        renamed = None  # (of several RENAME TO clauses the server takes the last)
        for action in actions:
            if type(action) is exp.AlterRename:
                renamed = action
                continue
            steps.extend(alter_steps(action, table, ctx))
        if renamed is not None:
            steps.extend(alter_steps(renamed, table, ctx))
        props = node.args.get("options") or []
        # (the database's default charset is asked for only where an option names it: a
        # catalog tracking a database reads it from its store)
        options = (
            _options(
                props,
                for_alter=True,
                database=ctx.charset_of(table) if _name_database_default(props) else None,
                replica=ctx.replica,
                flavor=ctx.flavor,
            )
            if props
            else ()
        )
        if props:
            steps.extend(
                _ordered_by(o, node.this, table, ctx) for o in props if isinstance(o, exp.Order)
            )
        words = _versioning_words(actions, props)
        if words:
            steps = _versioning_first(steps, words, table)
    except MvddError as err:
        raise err.locate(table=table) from None
    if options or len(steps) == bool(node.args.get("exists")):  # (its IfTableExists alone)
        # (a statement that changes nothing, `ALTER TABLE t FORCE`, still needs its table)
        steps.append(s.SetOptions(table=table, options=options))
    return _in_late_order(steps)


def _versioning_mariadbs(node: exp.Expr, ctx: Context) -> None:
    """DDLParseError for system versioning in a MySQL server's statement (MySQL has none)."""
    if ctx.flavor == "mysql" and node.find(d.SystemVersioning) is not None:  # (mysql only)
        raise DDLParseError("SYSTEM VERSIONING is MariaDB's: MySQL has no system-versioned tables")


def _versioning_words(actions: list[exp.Expr], props: list[exp.Expr]) -> set[str]:
    """What an ALTER TABLE says of system versioning: ``ADD`` / ``DROP`` (an action, or the
    option ``WITH SYSTEM VERSIONING``: an ADD), ``ADD PERIOD`` / ``DROP PERIOD``, the ``WITH``,
    ``WITHOUT SYSTEM VERSIONING`` or ``AS ROW`` of the columns its actions define, and ``BY
    SYSTEM_TIME`` for its partitioning so."""
    words: set[str] = set()
    for action in actions:  # (a column definition: an ADD's, or a MODIFY's or CHANGE's)
        node = action if isinstance(action, exp.ColumnDef) else action.args.get("this")
        if isinstance(node, exp.ColumnDef):
            mark = versioning_mark(node)
            if mark is not None:
                words.add(mark)
        elif isinstance(action, d.SystemVersioning):
            words.add(action.name)
        elif isinstance(action, d.SystemPeriod):
            words.add(f"{action.name} PERIOD")
    for p in props:
        if isinstance(p, d.SystemVersioning):
            words.add("ADD")
        elif _by_system_time(p):  # (the table versioned before: a condition)
            words.add("BY SYSTEM_TIME")
    return words


#: what an ALTER TABLE says that adds a table's own period: its columns, the period, versioning
_OWN_PERIOD_ADDED = frozenset({"AS ROW", "ADD PERIOD", "ADD"})


def _versioning_first(steps: list[Any], words: set[str], table: str) -> list[Any]:
    """An ALTER TABLE's steps with its ``ADD`` / ``DROP SYSTEM VERSIONING`` first (once, said
    once or more), as the server takes it before the columns. A column's mark there requires
    the table to be versioned before the statement (:class:`~mvdd.ddl.step.VersioningMarked`),
    and a WITHOUT one that the statement keeps it so; ADD and DROP in one statement refused:
    the server's error 4124, as for each of these."""
    said = {word == "ADD" for word in words & {"ADD", "DROP"}}
    if len(said) > 1 or ("WITHOUT" in words and False in said):
        raise DDLError("the table is not system-versioned")
    if words & {"AS ROW", "ADD PERIOD"} and not words >= _OWN_PERIOD_ADDED:
        # (the server's 4124, 4125 or 4134: a table's own period is added with its versioning)
        raise DDLError(
            "ROW START and ROW END columns are added with their ADD PERIOD FOR SYSTEM_TIME and "
            "ADD SYSTEM VERSIONING, all three in one statement"
        )
    versioning = (s.SetVersioning, s.SetSystemPeriod)
    rest = [x for x in steps if not isinstance(x, versioning)]
    # (a DROP PERIOD first, while the table is versioned: a DROP SYSTEM VERSIONING may follow)
    first: list[Any] = [x for x in steps if isinstance(x, s.SetSystemPeriod) and not x.columns]
    first += [s.SetVersioning(table=table, versioned=v) for v in said]
    if words & {"WITH", "WITHOUT", "BY SYSTEM_TIME"}:
        first.append(s.VersioningMarked(table=table))
    # (an ADD PERIOD names the columns the statement adds: after them)
    last = [x for x in steps if isinstance(x, s.SetSystemPeriod) and x.columns]
    return [*first, *rest, *last]


def _listed_checks_alone(actions: list[exp.Expr], ctx: Context) -> list[exp.Expr]:
    """An ALTER TABLE of ``ADD (…)`` lists of checks alone: MariaDB keeps none of them, unless
    the table is rebuilt (an option, ALGORITHM=COPY), so a replica of MariaDB reads nothing;
    a replica of another server or of one not named adds them as written; mvdd's own rules
    refuse the statement, which says what MariaDB does not do."""
    if not ctx.replica:
        raise DDLError("ADD (…) lists of checks alone add no check on MariaDB: write ADD CHECK (…)")
    return [] if ctx.flavor == "mariadb" else actions


def _sequences_qualified(node: exp.Expr, ctx: Context) -> None:
    """The sequences a statement's expressions name (``NEXTVAL(s)``, which its parser keeps in
    its meta) qualified with the statement's database where it is known, as the server keeps
    them (``nextval(`db`.`s`)``)."""
    database = ctx.default or ctx.database
    if database is None:
        return
    for call in node.meta_get("sequences", ()):
        sequence = call.expressions[0]
        if not sequence.args.get("db"):
            sequence.set("db", exp.to_identifier(database))


def _no_rebuild(option: exp.Expr) -> bool:
    """Whether an ALTER TABLE's option only says how it runs, and asks for no copy."""
    return isinstance(option, exp.LockProperty) or (
        isinstance(option, exp.AlgorithmProperty) and option.name.upper() != "COPY"
    )


def _converting(actions: list[exp.Expr], table: str, ctx: Context) -> Context:
    """``ctx`` with the charset an ALTER's CONVERT TO CHARACTER SET gives every string column:
    the server judges the DEFAULT of a column another clause defines in that charset, not in
    the one the definition names (``MODIFY c VARCHAR(3) CHARACTER SET cp1251 DEFAULT 'é',
    CONVERT TO CHARACTER SET latin1`` is taken)."""
    for action in actions:
        if isinstance(action, d.ConvertCharset):
            (step,) = alter_steps(action, table, ctx)
            assert isinstance(step, s.ConvertCharset)
            charset, collation = resolve_charset(step.charset, step.collation)
            if charset is not None and charset != "binary":
                return attrs.evolve(ctx, converting=(charset, collation))
    return ctx


def _late(step: Any) -> int:
    """When the server takes a step of a statement: the others first, in their order; then the
    keys it makes for foreign keys (it looks for a key one can use once every other key is in
    place); then a rename of the table, wherever the RENAME TO stands among them (``ALTER
    TABLE a RENAME TO b, ADD c INT`` adds c to a, now b)."""
    if isinstance(step, s.RenameTable):
        return 2
    return int(isinstance(step, s.AddIndex) and step.foreign_key)


def _in_late_order(steps: list[Any]) -> list[Any]:
    """``steps`` in :func:`_late`'s order (a stable sort; the very list when it is already)."""
    return sorted(steps, key=_late) if len(steps) > 1 and any(map(_late, steps)) else steps


def _ordered_by(order: exp.Order, target: exp.Table, table: str, ctx: Context) -> s.OrderedBy:
    """``ALTER TABLE … ORDER BY``, as MariaDB reads it: each item a column name, bare or
    qualified with the altered table (and its database), ASC or DESC; anything else (a number,
    a string, an expression) is a syntax error there, and a qualifier naming another table an
    unknown column."""
    columns = []
    for item in order.expressions:
        col = item.this if isinstance(item, exp.Ordered) else item
        if not isinstance(col, exp.Column) or not isinstance(col.this, exp.Identifier):
            raise DDLParseError(
                f"ALTER TABLE … ORDER BY takes column names, not {item.sql(dialect=DIALECT)!r}"
            )
        if not names_table(col, target, ctx):
            raise DDLError(
                f"unknown column {col.sql(dialect=DIALECT)} in ORDER BY", column=col.name
            )
        columns.append(ident(col.this, "column"))
    return s.OrderedBy(table=table, columns=tuple(columns))


# --- ALTER TABLE actions -----------------------------------------------------------------------

#: the column steps an ALTER TABLE makes, made at a fraction of their __init__'s cost
_add_column = builder(s.AddColumn)
_modify_column = builder(s.ModifyColumn)
_drop_column = builder(s.DropColumn)

#: what sqlglot makes of a name or a call where an action belongs (`ADD (a)`: no type)
_NOISE = (exp.Identifier, exp.Column, exp.Literal, exp.Anonymous)


@by_class
def alter_steps(action: exp.Expr, table: str, ctx: Context) -> list[s.Step]:
    """The steps of one ALTER TABLE action."""
    if isinstance(action, _NOISE):
        raise DDLParseError(f"expected an ALTER TABLE action, not {action.sql(dialect=DIALECT)!r}")
    raise UnsupportedDDLError(
        f"unsupported ALTER TABLE action {action.sql(dialect=DIALECT)[:60]!r}"
    )


@alter_steps.register
def _(action: exp.Command, table: str, ctx: Context) -> list[s.Step]:
    raise _unread(action, "ALTER TABLE action", ctx)


def _named_checks(ctx: Context) -> bool:
    """Whether a column's CHECK may be named: a replica of MySQL (8's grammar) or of a server
    it does not know; not MariaDB's grammar, nor mvdd's rules (the stricter server's)."""
    return ctx.replica and not ctx.mariadb_values


@alter_steps.register
def _(action: exp.ColumnDef, table: str, ctx: Context) -> list[s.Step]:
    column, place, indexes, pending = column_from_def(
        action,
        references=ctx.replica,
        mariadb=ctx.mariadb_values,
        grammar=ctx.flavor,
        named=_named_checks(ctx),
        loose=ctx.session.loose,
        alike=ctx.session.members_alike,
        legacy_timestamps=ctx.legacy_timestamps,
        any_day=ctx.session.any_day,
        round_fractions=ctx.session.round_fractions,
        written_in=ctx.session.charset,
        converting=ctx.converting,
        shown=ctx.session.shown,
    )
    steps: list[s.Step] = [
        _add_column(
            table=table,
            column=column,
            place=place,
            if_not_exists=bool(action.args.get("exists")),
            **_left_to_table(pending),
        )
    ]
    if indexes:
        steps.extend(s.AddIndex(table=table, index=spec) for spec in indexes)
    steps.extend(_own_reference(action, table, column.name, ctx))
    return steps


def _left_to_table(pending: Implied) -> dict[str, Any]:
    """The fields of a step that adds or redefines a column for what its type leaves to its
    table's charset (:class:`~mvdd.ddl.types.Implied`)."""
    return {
        "bin_collation": pending.bin_collation,
        "text_chars": pending.text_chars,
        "auto_timestamp": pending.auto_timestamp,
        "members_written": pending.members_written,
        "table_collation": pending.table_collation,
    }


def _own_reference(node: exp.ColumnDef, table: str, column: str, ctx: Context) -> list[s.Step]:
    """The steps of a column's own ``REFERENCES …`` (which :func:`column_from_def` passes over
    for a replica): a replica of MariaDB keeps the key MariaDB makes of it, as of a foreign key
    (:func:`_foreign_key`); MySQL ignores the clause, and so does a replica of MySQL or of an
    unknown server."""
    if ctx.flavor != "mariadb" or not any(
        isinstance(c.kind, exp.Reference) for c in node.constraints
    ):
        return []
    spec = s.IndexSpec(parts=(s.PartSpec(column),))
    return [s.AddIndex(table=table, index=spec, foreign_key=True)]


@alter_steps.register
def _(action: exp.ModifyColumn, table: str, ctx: Context) -> list[s.Step]:
    definition, place, indexes, pending = column_from_def(
        action.this,
        mariadb=ctx.mariadb_values,
        grammar=ctx.flavor,
        named=_named_checks(ctx),
        loose=ctx.session.loose,
        alike=ctx.session.members_alike,
        legacy_timestamps=ctx.legacy_timestamps,
        any_day=ctx.session.any_day,
        round_fractions=ctx.session.round_fractions,
        written_in=ctx.session.charset,
        converting=ctx.converting,
        shown=ctx.session.shown,
    )
    source = action.args.get("rename_from")
    name = ident(source, "column") if source is not None else definition.name
    steps: list[s.Step] = [
        _modify_column(
            table=table,
            column=name,
            definition=definition,
            place=place,
            if_exists=bool(action.args.get("exists")),
            **_left_to_table(pending),
        )
    ]
    steps.extend(s.AddIndex(table=table, index=spec) for spec in indexes)
    return steps


@alter_steps.register
def _(action: exp.RenameColumn, table: str, ctx: Context) -> list[s.Step]:
    return [
        s.RenameColumn(
            table=table,
            column=ident(action.this, "column"),
            to=ident(action.args.get("to"), "column"),
            if_exists=bool(action.args.get("exists")),
        )
    ]


@alter_steps.register
def _(action: exp.Drop, table: str, ctx: Context) -> list[s.Step]:
    kind = str(action.args.get("kind") or "").upper()
    exists = bool(action.args.get("exists"))
    spaced = kind in ("CHECK", "CONSTRAINT")  # (a check's name may end with spaces)
    names = [
        ident(t.this if isinstance(t, exp.Table) else t, kind.lower() or "column", spaced=spaced)
        for t in _dropped(action)
    ]
    if not names:
        raise DDLParseError(f"DROP {kind or 'COLUMN'} needs a name")
    if kind in ("", "COLUMN"):
        return [_drop_column(table=table, column=n, if_exists=exists) for n in names]
    if kind in ("INDEX", "KEY"):
        return [s.DropIndex(table=table, index=n, if_exists=exists) for n in names]
    if kind == "CHECK":
        return [s.DropCheck(table=table, check=n, if_exists=exists) for n in names]
    if kind == "CONSTRAINT":
        return [s.DropConstraint(table=table, name=n, if_exists=exists) for n in names]
    if kind == "FOREIGN KEY" and ctx.replica:
        return []  # (mvdd keeps no foreign key; the key the server made for one stays)
    raise UnsupportedDDLError(f"DROP {kind} is not tracked")


@alter_steps.register
def _(action: exp.DropPrimaryKey, table: str, ctx: Context) -> list[s.Step]:
    return [s.DropIndex(table=table, index="PRIMARY")]


#: what sqlglot's ALTER COLUMN reads for other dialects (PostgreSQL's TYPE, SET NOT NULL …)
_NOT_MYSQL_ALTER_COLUMN = frozenset({"dtype", "collate", "using", "comment", "allow_null"})


@alter_steps.register
def _(action: exp.AlterColumn, table: str, ctx: Context) -> list[s.Step]:
    column = ident(action.this, "column")
    known = {k for k, v in action.args.items() if v not in (None, False)} - {"this", "exists"}
    exists = bool(action.args.get("exists"))  # (MariaDB's ALTER [COLUMN] IF EXISTS)
    if known == {"drop"}:
        return [s.DropDefault(table=table, column=column, if_exists=exists)]
    if known == {"default"}:
        default = raw_default(action.args["default"])
        return [s.SetDefault(table=table, column=column, default=default, if_exists=exists)]
    if not known or known & _NOT_MYSQL_ALTER_COLUMN:
        # MySQL's ALTER COLUMN sets or drops a default, or (MySQL 8) the visibility; the
        # other forms sqlglot reads (a type, NOT NULL, a comment) are other dialects'
        raise DDLParseError(f"ALTER COLUMN `{column}` needs SET DEFAULT or DROP DEFAULT")
    raise UnsupportedDDLError(f"unsupported ALTER COLUMN {action.sql(dialect=DIALECT)[:60]!r}")


@alter_steps.register
def _(action: exp.AddConstraint, table: str, ctx: Context) -> list[s.Step]:
    steps: list[s.Step] = []
    for item in action.expressions:
        added = _constraint_steps(item, table, None, replica=ctx.replica)
        # ADD {INDEX | KEY | UNIQUE | PRIMARY KEY} IF NOT EXISTS, also after CONSTRAINT name,
        # and ADD CONSTRAINT IF NOT EXISTS name CHECK (…)
        inner = item.expressions if isinstance(item, exp.Constraint) else []
        if item.args.get("exists") or any(x.args.get("exists") for x in inner):
            added = [
                attrs.evolve(st, if_not_exists=True)
                if isinstance(st, s.AddIndex | s.AddCheck)
                else st
                for st in added
            ]
        steps.extend(added)
    return steps


@alter_steps.register
def _(action: exp.RenameIndex, table: str, ctx: Context) -> list[s.Step]:
    return [
        s.RenameIndex(
            table=table,
            index=ident(action.this, "index"),
            to=ident(action.args.get("to"), "index"),
            if_exists=bool(action.args.get("exists")),
        )
    ]


@alter_steps.register
def _(action: exp.AlterIndex, table: str, ctx: Context) -> list[s.Step]:
    return [
        s.SetIndexVisible(
            table=table,
            index=ident(action.this, "index"),
            visible=bool(action.args["visible"]),  # the parser requires one
            if_exists=bool(action.args.get("exists")),
        )
    ]


@alter_steps.register
def _(action: exp.AlterRename, table: str, ctx: Context) -> list[s.Step]:
    to = table_name(action.this, ctx)
    # ALTER TABLE t RENAME TO t is the server's no-op (RENAME TABLE t TO t is refused)
    return [] if to == table else [s.RenameTable(table=table, to=to)]


@alter_steps.register
def _(action: d.ConvertCharset, table: str, ctx: Context) -> list[s.Step]:
    charset = action.this.name
    collate = action.args.get("collate")
    # (COLLATE DEFAULT: the charset's default collation, as a collation left out)
    collation = collate.name if collate and not is_default_word(collate) else None
    if _named_default(action):  # CONVERT TO CHARACTER SET DEFAULT: the database's charset
        charset = _database_default(ctx.charset_of(table), action)[0]
    return [s.ConvertCharset(table=table, charset=charset, collation=collation)]


@alter_steps.register
def _(action: d.AlterCheck, table: str, ctx: Context) -> list[s.Step]:
    return [
        s.AlterCheck(
            table=table,
            check=ident(action.this, "check", spaced=True),
            enforced=bool(action.args.get("enforced")),
        )
    ]


@alter_steps.register
def _(action: exp.ForceProperty, table: str, ctx: Context) -> list[Any]:
    return [s.DefinedAnew(table=table)]  # FORCE rebuilds the table; the schema stays


@alter_steps.register
def _(action: d.SwitchKeys, table: str, ctx: Context) -> list[s.Step]:
    return []  # {DISABLE | ENABLE} KEYS: how MyISAM's keys load; the schema stays


@alter_steps.register
def _(action: d.SystemVersioning, table: str, ctx: Context) -> list[s.Step]:
    return [s.SetVersioning(table=table, versioned=action.name == "ADD")]


@alter_steps.register
def _(action: d.SystemPeriod, table: str, ctx: Context) -> list[s.Step]:
    columns = tuple(ident(c, "column") for c in action.expressions)
    return [s.SetSystemPeriod(table=table, columns=columns)]


#: why a catalog of its own refuses partitioning
_PARTITIONING = (
    "partitioning is tracked by a replica only (Catalog(replica=True), which follows what its "
    "server accepted): a catalog of its own would have to check the server's partitioning rules"
)


@alter_steps.register
def _(action: d.TablespaceAction, table: str, ctx: Context) -> list[s.Step]:
    """``DISCARD TABLESPACE`` / ``IMPORT TABLESPACE``: the table's rows go with its data file,
    or come from one, without row events; its schema stays."""
    return [s.TruncateTable(table=table, how=f"{action.name.upper()} TABLESPACE")]


#: the partition actions whose rows change without a row event
_ROWS_CHANGED = frozenset({"DROP", "TRUNCATE", "EXCHANGE", "DISCARD", "IMPORT"})


@alter_steps.register
def _(action: d.PartitionAction, table: str, ctx: Context) -> list[s.Step]:
    """A replica's partition actions change no schema; those that change rows without row
    events (:data:`_ROWS_CHANGED`) are :class:`~mvdd.ddl.step.TruncateTable` steps of the
    partitions they name (``TRUNCATE PARTITION ALL``: the table's TRUNCATE, every row gone)."""
    verb = action.name.upper()
    if not ctx.replica:
        raise UnsupportedDDLError(_PARTITIONING)
    if verb == "CONVERT":
        return _converted(action, table, ctx)
    if verb not in _ROWS_CHANGED:
        return []
    if verb == "TRUNCATE" and action.args.get("all"):
        return [s.TruncateTable(table=table)]
    how = f"{verb} PARTITION"
    names = tuple(ident(n, "partition") for n in action.expressions) or ("ALL",)
    other = action.args.get("table")
    if other is None:
        return [s.TruncateTable(table=table, partitions=names, how=how)]
    # EXCHANGE: the partition's rows are the other table's now, and the other way round
    swap = (table, names[0], table_name(other, ctx))
    return [
        s.TruncateTable(table=table, partitions=names, how=how, exchange=swap),
        s.TruncateTable(table=swap[2], how=how, exchange=swap),
    ]


def _converted(action: d.PartitionAction, table: str, ctx: Context) -> list[s.Step]:
    """MariaDB's ``CONVERT PARTITION p TO TABLE u``: the partition's rows leave the table for a
    new table ``u`` of its schema (without partitioning, as the server makes it), whose rows
    came without row events too; ``CONVERT TABLE u TO PARTITION p …``: ``u``'s rows are the
    new partition's, and ``u`` is gone. Each side's TruncateTable step names the pair."""
    other = table_name(action.args["table"], ctx)
    definitions = action.args.get("definitions")
    if definitions:
        (definition,) = definitions
        name = ident(definition.this, "partition")
        pair = (table, name, other)
        return [
            s.TruncateTable(
                table=table,
                partitions=(name,),
                how="CONVERT TABLE",
                exchange=pair,
                partition=definition.meta["text"],
            ),
            s.DropTable(table=other),
        ]
    name = ident(action.expressions[0], "partition")
    pair = (table, name, other)
    return [
        s.TruncateTable(table=table, partitions=(name,), how="CONVERT PARTITION", exchange=pair),
        s.CreateTableLike(table=other, source=table),
        s.TruncateTable(table=other, how="CONVERT PARTITION", exchange=pair),
    ]


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
        return s.PartSpec(ident(node.this, "column"), int(length.this), desc)
    if isinstance(node, exp.Column | exp.Identifier):
        return s.PartSpec(ident(node, "column"), None, desc)
    if isinstance(node, d.WithoutOverlaps):
        raise UnsupportedDDLError(
            f"a key over an application-time period ({node.sql(dialect=DIALECT)}) is not tracked"
        )
    raise UnsupportedDDLError(f"functional key part {node.sql(dialect=DIALECT)!r} is not tracked")


def _index_options(options: list[exp.Expr] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for opt in options or []:
        if not isinstance(opt, exp.IndexConstraintOption):
            continue
        if all(v is None for v in opt.args.values()):
            raise DDLParseError("an index option without its value")
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
        raise DDLParseError("an index needs at least one column: (column, …)")
    if kind is not IndexKind.FULLTEXT and any(
        isinstance(o, exp.IndexConstraintOption) and o.args.get("parser") is not None
        for o in options or ()
    ):
        raise DDLParseError("WITH PARSER is a FULLTEXT key's option (both servers' grammar)")
    extra = _index_options(options)
    # (a USING among the options, after the key's columns, overrides one before them)
    using = extra.pop("using", None) or (str(using).upper() if using else None)
    if using not in (None, "BTREE", "HASH", "RTREE"):
        raise DDLError(f"unknown index type {using!r}")
    return s.IndexSpec(
        name="PRIMARY" if kind == IndexKind.PRIMARY else name,
        kind=kind,
        parts=tuple(_key_part(p) for p in parts),
        using=using,
        **extra,
    )


def _foreign_key(node: exp.ForeignKey, table: str, name: str | None, replica: bool) -> s.Step:
    """``[CONSTRAINT [name]] FOREIGN KEY [index] (columns) REFERENCES …``: mvdd keeps no foreign
    key. Its own rules refuse one (UnsupportedDDLError); a replica keeps the key the server
    makes for it, named by the constraint, else by the index name, else as an unnamed key is
    (:class:`~mvdd.ddl.step.AddIndex` ``foreign_key``)."""
    if not replica:
        raise UnsupportedDDLError("FOREIGN KEY constraints are not tracked")
    own = ident(node.this, "index") if isinstance(node.this, exp.Identifier) else None
    spec = _index_spec(IndexKind.INDEX, name or own, node.expressions, None, None)
    return s.AddIndex(table=table, index=spec, foreign_key=True)


#: what a ``CONSTRAINT name`` may name (MySQL: not a plain KEY / INDEX)
_NAMEABLE = (
    exp.PrimaryKey,
    exp.PrimaryKeyColumnConstraint,
    exp.UniqueColumnConstraint,
    exp.ForeignKey,
    d.MySQLCheck,
)


def _constraint_steps(
    node: exp.Expr, table: str, name: str | None, *, replica: bool = False
) -> list[s.Step]:
    """The steps of a key or a constraint a CREATE TABLE declares or an ALTER TABLE adds
    (``replica``: the server ran the statement, see :func:`_foreign_key`)."""
    if isinstance(node, exp.Constraint):
        out: list[s.Step] = []
        # (a check's name may end with spaces, which its step judges; `` names none: the
        # server names the check, or the key, as it names an unnamed one)
        empty = isinstance(node.this, exp.Identifier) and node.this.name == ""
        cname = None if empty else ident(node.this, "constraint", spaced=True)
        for inner in node.expressions:
            if not isinstance(inner, _NAMEABLE):
                raise DDLParseError(
                    "CONSTRAINT names a PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK only"
                )
            out.extend(_constraint_steps(inner, table, cname, replica=replica))
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
        own = ident(node.this, "index") if isinstance(node.this, exp.Identifier) else None
        return [s.AddIndex(table=table, index=spec, constraint=own or name)]
    if isinstance(node, exp.UniqueColumnConstraint):
        schema = node.this
        if not isinstance(schema, exp.Schema):
            raise DDLParseError("UNIQUE needs a column list here")
        own = ident(schema.this, "index") if schema.this is not None else None
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
        own = ident(node.this, "index") if node.this is not None else None
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
        return [_foreign_key(node, table, name, replica)]
    if isinstance(node, exp.PrimaryKeyColumnConstraint):  # ADD PRIMARY KEY with no columns
        raise DDLParseError("PRIMARY KEY needs its columns here: PRIMARY KEY (column, …)")
    if not isinstance(node, exp.ColumnConstraintKind):
        # a bare name, a call: what sqlglot makes of a column with no type, or of noise
        raise DDLParseError(
            f"expected a column definition or a key, not {node.sql(dialect=DIALECT)[:60]!r}"
        )
    raise UnsupportedDDLError(f"unsupported constraint {node.sql(dialect=DIALECT)[:60]!r}")


# --- tables ------------------------------------------------------------------------------------

_IGNORED_OPTIONS = (exp.AlgorithmProperty, exp.LockProperty, d.StorageOption)
#: properties sqlglot reads for other dialects, never a MySQL table option
_NOT_TABLE_OPTIONS = (exp.ToTableProperty,)


def _named_default(p: exp.Expr) -> bool:
    """``CHARACTER SET DEFAULT``, ``COLLATE DEFAULT``, ``ROW_FORMAT DEFAULT``: the default."""
    return is_default_word(p.this)


def _name_database_default(props: list[exp.Expr]) -> bool:
    """Whether a table's options name its database's default charset, or a collation without
    its charset and no charset (which a CREATE TABLE's database gives)."""
    return any(
        isinstance(p, exp.CharacterSetProperty) and _named_default(p) for p in props
    ) or _charsetless_alone(props)


def _charsetless_alone(props: list[exp.Expr]) -> bool:
    """Whether a table's options name a collation without its charset (``COLLATE
    uca1400_ai_ci``) and no charset."""
    return any(
        isinstance(p, exp.CollateProperty) and charsetless(p.name) for p in props
    ) and not any(isinstance(p, exp.CharacterSetProperty) for p in props)


def _database_default(database: tuple[str, str] | None, what: exp.Expr) -> tuple[str, str]:
    if database is None:
        raise UnsupportedDDLError(
            f"{what.sql(dialect=DIALECT)} names its database's default charset, which is not "
            "known (a catalog given it: Catalog(charset=…), or the database's CREATE DATABASE)"
        )
    return database


def _binary_charset(p: exp.Expr) -> bool:
    """``[DEFAULT] CHARSET binary`` or ``COLLATE binary``: the one reserved word an option
    takes (the binary charset's name)."""
    return isinstance(p, exp.CharacterSetProperty | exp.CollateProperty) and p.name.upper() == (
        "BINARY"
    )


def _declared_once(props: list[exp.Expr]) -> None:
    """DDLError where a statement's table options name two charsets or two collations (the
    servers' 1302: ``CHARSET latin1 CHARSET latin2``); one named twice is taken."""
    charsets = {
        canonical_charset(p.name)
        for p in props
        if isinstance(p, exp.CharacterSetProperty) and not _named_default(p)
    }
    collations = [
        p.name for p in props if isinstance(p, exp.CollateProperty) and not _named_default(p)
    ]
    clash = sorted(charsets)[:2] if len(charsets) > 1 else None
    if clash is None:
        clash = next(
            ([a, b] for a, b in itertools.combinations(collations, 2) if not same_collation(a, b)),
            None,
        )
    if clash is not None:
        raise DDLError(f"conflicting declarations: {clash[0]} and {clash[1]}")


def _options(
    props: list[exp.Expr],
    *,
    for_alter: bool = False,
    database: tuple[str, str] | None = None,
    replica: bool = False,
    flavor: str | None = None,
) -> tuple[tuple[str, Any], ...]:
    """A table's options as (word, value) pairs; ``database``: its database's default
    (charset, collation), which ``CHARACTER SET DEFAULT`` and ``COLLATE DEFAULT`` name;
    ``replica``: a replica's statement, whose partitioning is taken and forgotten. Each value
    is the one the server keeps (:func:`mvdd.ddl.options.kept`; an empty COMMENT is none), but
    under a MySQL flavor, whose server keeps the values as written but a CREATE's
    KEY_BLOCK_SIZE."""
    _declared_once(props)
    out: list[tuple[str, Any]] = []
    for before, after in itertools.pairwise(props):
        if isinstance(before, d.Partitioning):  # the grammar's: partitioning comes last
            raise DDLParseError(
                f"{after.sql(dialect=DIALECT)[:40]!r} after the partitioning, which ends the "
                "statement"
            )
    alone = not for_alter and _charsetless_alone(props)
    # (an ALTER of ALGORITHM=COPY makes the table anew: its KEY_BLOCK_SIZE kept from two bytes)
    whole = for_alter and not any(
        isinstance(p, exp.AlgorithmProperty) and p.name.upper() == "COPY" for p in props
    )
    for p in props:
        if alone and isinstance(p, exp.CollateProperty) and charsetless(p.name):
            # (a CREATE TABLE's collation named without its charset: its database's charset's)
            out.extend([("CHARSET", _database_default(database, p)[0]), ("COLLATE", p.name)])
            continue
        if isinstance(p, exp.CollateProperty) and _named_default(p):
            # (COLLATE DEFAULT: the default collation of the statement's charset, else of the
            # table's, as MariaDB reads it)
            out.append(("COLLATE", CHARSET_DEFAULT))
            continue
        if isinstance(p, exp.CharacterSetProperty) and _named_default(p):
            # (CHARSET DEFAULT: the database's charset, in its default collation unless the
            # statement names one; not the database's collation)
            out.append(("CHARSET", _database_default(database, p)[0]))
            continue
        if isinstance(p, _IGNORED_OPTIONS):
            continue  # how the server runs the statement, not what it changes
        if isinstance(p, exp.Order) and for_alter:
            continue  # ALTER TABLE … ORDER BY sorts the rows once; the schema stays
        if isinstance(p, d.SystemVersioning):
            # (a CREATE's option; an ALTER's WITH SYSTEM VERSIONING is its ADD, a step)
            if not for_alter:
                out.append((VERSIONING_OPTION, True))
            continue
        if isinstance(p, d.Partitioning):
            if not replica:
                raise UnsupportedDDLError(_PARTITIONING)
            continue  # how the server spreads the rows: their shape stays
        value = p.args.get("this")
        if isinstance(p, exp.RowFormatProperty) and _named_default(p):
            out.append(("ROW_FORMAT", None))  # (the engine's own: none said)
            continue
        if isinstance(value, exp.Var) and is_reserved(value.name) and not _binary_charset(p):
            raise DDLParseError(f"{value.name!r} is a reserved word, not an option's value")
        if isinstance(p, exp.EngineProperty):
            out.append(("ENGINE", p.this.name))
        elif isinstance(p, exp.CharacterSetProperty):
            out.append(("CHARSET", p.this.name))
        elif isinstance(p, exp.CollateProperty):
            out.append(("COLLATE", p.this.name))
        elif isinstance(p, exp.SchemaCommentProperty):
            out.append(("COMMENT", p.this.this or None))  # (an empty one is none)
        elif isinstance(p, exp.AutoIncrementProperty):
            out.append(("AUTO_INCREMENT", str(leading_number(p.this.this))))
        elif isinstance(p, exp.RowFormatProperty):
            out.append(("ROW_FORMAT", p.this.name.upper()))
        elif type(p) is exp.Property:
            key = (p.this.name if isinstance(p.this, exp.Expr) else str(p.this)).upper()
            given = p.args["value"]
            value = given.sql(dialect=DIALECT)
            written = p.meta.get("written")
            if not replica and written is not None:  # (its grammar, under mvdd's rules)
                check_written(key, written)
            if key == SEQUENCE_OPTION:
                out.append((key, sequence_option(value)))
            elif isinstance(given, exp.Var) and given.name.upper() == "DEFAULT":
                out.append((key, None))  # (an option set to DEFAULT is none: the server's own)
            elif flavor != "mysql":
                # (an ALTER's KEY_BLOCK_SIZE whole, as InnoDB judges it in place: see
                # SetOptions; one that copies the table makes it anew, from two bytes)
                out.append(kept(key, value, whole=whole))
            elif key == "KEY_BLOCK_SIZE" and not for_alter:
                out.append((key, created_block_size(value)))
            else:
                out.append((key, value))
        elif isinstance(p, exp.LikeProperty) and not for_alter:
            continue
        elif not isinstance(p, exp.Property) or isinstance(p, _NOT_TABLE_OPTIONS):
            # what sqlglot reads as an option where MySQL has none: a key without ADD, or
            # another dialect's clause
            raise DDLParseError(f"not a table option: {p.sql(dialect=DIALECT)[:60]!r}")
        else:
            raise UnsupportedDDLError(f"unsupported table option {p.sql(dialect=DIALECT)[:60]!r}")
    charsets = sorted({str(resolve_charset(v, None)[0]) for k, v in out if k == "CHARSET"})
    if len(charsets) > 1:  # (CHARSET DEFAULT beside another: the servers' 1302)
        raise DDLError(f"conflicting declarations: {charsets[0]} and {charsets[1]}")
    return tuple(out if flavor == "mysql" else flags_ored(out))


def _by_system_time(option: exp.Expr) -> bool:
    """Whether a statement's option partitions its table BY SYSTEM_TIME (its past rows and its
    current ones apart: a system-versioned table's only, the server's 4124)."""
    return (
        isinstance(option, d.Partitioning)
        and isinstance(option.this, d.PartitionFunction)
        and option.this.name == "SYSTEM_TIME"
    )


def _versioned_by_columns(
    table: Table, node: exp.Create, adds: list[s.AddColumn]
) -> tuple[Table, list[s.AddColumn]]:
    """A CREATE TABLE's system versioning as its columns' marks make it, as MariaDB makes it: a
    column ``WITH SYSTEM VERSIONING`` in a table without the option makes the table versioned,
    and each column without that mark unversioned."""
    if table.options.versioned:
        return table, adds
    marks = [versioning_mark(i) for i in node.this.expressions if isinstance(i, exp.ColumnDef)]
    if "WITH" not in marks:
        return table, adds
    table = attrs.evolve(table, options=attrs.evolve(table.options, versioned=True))
    return table, [
        attrs.evolve(add, column=attrs.evolve(add.column, unversioned=mark in (None, "WITHOUT")))
        for add, mark in zip(adds, marks, strict=True)
    ]


def build_table(
    name: str,
    node: exp.Create,
    database_charset: tuple[str, str] | None = None,
    *,
    ctx: Context | None = None,
) -> Table:
    """The table a ``CREATE TABLE`` tree defines (id 0, version 1), built by applying the
    column, index and check steps it declares to an empty table, so that CREATE and ALTER share
    one set of rules. ``database_charset``: the database's default (charset, collation), which
    a table naming none takes, as the server gives it (None: not known; the table's charset
    stays open). ``ctx``: a replica's (``replica``: the statement already ran on its server,
    whose rules build the table, :class:`~mvdd.ddl.rules.Rules`)."""
    replica = ctx is not None and ctx.replica
    props = node.args.get("properties")
    base = TableOptions()
    if database_charset is not None:
        base = TableOptions(charset=database_charset[0], collation=database_charset[1])
    rules = Rules.created(replica=replica, flavor=ctx.flavor if ctx is not None else None)
    if ctx is not None:
        rules = rules.for_session(ctx.session)
    pairs = _options(
        props.expressions if props else [],
        database=database_charset,
        replica=replica,
        flavor=ctx.flavor if ctx is not None else None,
    )
    options = base.with_options(pairs)
    if rules.strict:  # (its engine's options, under mvdd's rules)
        check_named(options, pairs, ignore_bad=rules.session.ignore_bad_options)
    if rules.flavor != "mysql":  # (a MySQL replica's values as written: _options)
        options = engine_kept(options, was=None, strict=rules.strict)
    table = Table(name=name, columns=(), options=held_comment(options, "table", rules))
    columns: list[s.AddColumn] = []
    later: list[s.Step] = []
    periods: list[tuple[str, str]] = []  # (its PERIOD FOR SYSTEM_TIME clauses)
    for item in node.this.expressions:
        if isinstance(item, exp.PeriodForSystemTimeConstraint):
            periods.append((ident(item.this, "column"), ident(item.expression, "column")))
        elif isinstance(item, exp.ColumnDef):
            column, place, indexes, pending = column_from_def(
                item,
                references=replica,
                mariadb=ctx is not None and ctx.mariadb_values,
                grammar=ctx.flavor if ctx is not None else None,
                named=replica and (ctx is None or _named_checks(ctx)),
                loose=ctx is not None and ctx.session.loose,
                alike=ctx is not None and ctx.session.members_alike,
                legacy_timestamps=ctx is not None and ctx.legacy_timestamps,
                any_day=ctx is not None and ctx.session.any_day,
                round_fractions=ctx is not None and ctx.session.round_fractions,
                written_in=ctx.session.charset if ctx is not None else None,
                shown=ctx is not None and ctx.session.shown,
            )
            if place != s.LAST:
                raise DDLError("FIRST/AFTER is not allowed in CREATE TABLE", column=column.name)
            columns.append(s.AddColumn(table=name, column=column, **_left_to_table(pending)))
            later.extend(s.AddIndex(table=name, index=spec) for spec in indexes)
            later.extend(_own_reference(item, name, column.name, ctx) if ctx is not None else ())
        else:
            later.extend(_constraint_steps(item, name, None, replica=replica))
    if not columns:
        raise DDLError("a table needs at least one column", table=name)
    table, columns = _versioned_by_columns(table, node, columns)
    if not table.options.versioned and any(
        map(_by_system_time, props.expressions if props else [])
    ):
        raise DDLError("PARTITION BY SYSTEM_TIME of a table that is not system-versioned")
    later = checks_named(table, _in_late_order(later))
    table = auto_timestamps(apply_steps(table, [*columns, *later], rules=rules), columns)
    check_period(table, periods)
    validate_table(table, rules=rules)
    if rules.session.shown and not rules.session.alike:
        _check_shown_members(table)
    return table


def _check_shown_members(table: Table) -> None:
    """A server's own text's members alike that it may hide what kept apart, refused
    (:func:`~mvdd.model.types.check_hidden_members`)."""
    for col in table.columns:
        t = col.type
        if t.members:
            try:
                check_hidden_members(t.kind, t.members, table.column_collation(col)[1])
            except MvddError as err:
                raise err.locate(table=table.name, column=col.name) from None
