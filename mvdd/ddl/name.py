"""Names in DDL statements: identifiers as written, and table names resolved against the
statement's context (the database a catalog tracks, or the default database of a catalog that
names tables ``database.table``).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
from sqlglot import exp

from mvdd.ddl.dialect import DIALECT, MySQLCheck
from mvdd.ddl.reserved import is_reserved
from mvdd.ddl.rules import PLAIN, Rules, Session
from mvdd.errors import DDLError, DDLParseError, UnsupportedDDLError
from mvdd.model.names import check_identifier, fold_name


def ident(node: exp.Expr | str | None, what: str, *, spaced: bool = False) -> str:
    """The name an identifier node (or text) gives.

    Raises DDLParseError where the server sees a syntax error (no name at all, or a reserved
    word left unquoted), DDLError for a name MySQL refuses otherwise (``spaced``: a name
    ending with spaces is not refused here, :func:`~mvdd.model.names.check_identifier`)."""
    if type(node) is not exp.Identifier:  # (a plain identifier, the common case, is the name)
        if node is None:
            raise DDLParseError(f"missing {what} name")
        if isinstance(node, str):
            return check_identifier(node, what, spaced=spaced)
        qualified = node.args.get("table") or node.args.get("db")
        if isinstance(node, exp.Column | exp.Table) and qualified:
            raise DDLError(f"{what} name {node.sql(dialect=DIALECT)!r} must not be qualified")
        bare = node.this if isinstance(node, exp.Column | exp.Table) else node
        if not isinstance(bare, exp.Identifier | exp.Var):
            # a keyword sqlglot read as a value or a function (NULL, CURRENT_DATE …)
            raise DDLParseError(f"expected a {what} name, not {node.sql(dialect=DIALECT)!r}")
        node = bare
    name = node.name
    if isinstance(node, exp.Identifier) and not node.args.get("quoted") and is_reserved(name):
        raise DDLParseError(f"{name!r} is a reserved word: as a {what} name it needs quotes")
    return check_identifier(name, what, spaced=spaced)


def is_default_word(node: exp.Expr | None) -> bool:
    """Whether a node is the word DEFAULT left unquoted (in a column reference or not), which
    MariaDB reads in place of a charset, a collation or a row format: the default one."""
    word = node.this if isinstance(node, exp.Column) else node
    return (
        isinstance(word, exp.Var | exp.Identifier)
        and not word.args.get("quoted")
        and word.name.upper() == "DEFAULT"
    )


@attrs.frozen
class Context:
    """How a statement's table names resolve.

    Attributes:
        database: the one database a catalog tracks: names qualified with it lose the
            qualifier, names qualified with another are unsupported.
        default: the default database of a catalog naming tables ``database.table``:
            unqualified names take it, qualified ones resolve as written. (Neither set: names
            stay as written, a qualified one as ``database.table``.)
    """

    database: str | None = None
    default: str | None = None
    #: the default (charset, collation) of a database (None: not known), for a table created
    #: there without its own, as the server gives it
    charsets: Callable[[str | None], tuple[str, str] | None] | None = attrs.field(
        default=None, eq=False
    )
    #: the statements already ran on their server, whose rules they follow (a replica's; see
    #: :class:`~mvdd.ddl.rules.Rules`): a CREATE TABLE's definition is built by them
    replica: bool = False
    #: that server's flavor, ``"mariadb"`` or ``"mysql"``, when known (its own ways are followed)
    flavor: str | None = None
    #: the charset the statements were written in, when UTF-8 does not read it as the server
    #: did (a binlog's statement from a ``latin1`` client): a string literal under a charset
    #: introducer is its bytes in this charset
    charset: str | None = None
    #: what the session that wrote the statements decides (:class:`~mvdd.ddl.rules.Session`)
    session: Session = PLAIN
    #: the server keeps table and database names in lower case (``lower_case_table_names``):
    #: a table or database named in any case is that name in lower case
    lower_names: bool = False
    #: the session had no ``explicit_defaults_for_timestamp``: a TIMESTAMP is NOT NULL unless
    #: it says NULL, and its table's first one CURRENT_TIMESTAMP's (MySQL 5.7's default)
    legacy_timestamps: bool = False
    #: the (charset, collation) an ALTER's CONVERT TO CHARACTER SET gives every string column
    #: of its table, those its other clauses define among them (None: it has none)
    converting: tuple[str, str | None] | None = None
    #: the session's connection charset, which a CAST to CHAR naming none takes (the server
    #: writes ``CAST(a AS CHAR)`` as ``cast(`a` as char charset utf8mb4)``): the charset the
    #: statements were written in, utf8mb4 when not said
    connection: str = "utf8mb4"

    #: a DEFAULT's value is read as MariaDB reads it, the server these statements ran on
    #: (:attr:`~mvdd.ddl.rules.Rules.mariadb_values`; found once, each column definition asks)
    mariadb_values: bool = attrs.field(init=False, eq=False)

    @mariadb_values.default
    def _mariadb_values(self) -> bool:
        return Rules.created(replica=self.replica, flavor=self.flavor).mariadb_values

    def database_of(self, table: str) -> str | None:
        """The database a resolved table name is in (None: not known)."""
        if self.database is not None:
            return self.database
        return split_name(table)[0]

    def charset_of(self, table: str) -> tuple[str, str] | None:
        """The default (charset, collation) for a new table of this name, if known."""
        return self.charsets(self.database_of(table)) if self.charsets is not None else None


def database_name(name: str) -> str:
    """A database name a ``database.table`` catalog can hold (no dot: the first dot of a
    qualified name separates the database from the table)."""
    check_identifier(name, "database")
    if "." in name:
        raise UnsupportedDDLError(
            f"database name {name!r} has a dot; mvdd names tables database.table"
        )
    return name


def qualify(database: str | None, table: str) -> str:
    """``database.table`` (just ``table`` without a database: a name without a dot, which
    would read as a table of another database)."""
    if database is not None:
        return f"{database_name(database)}.{table}"
    if "." in table:
        database, rest = split_name(table)
        raise UnsupportedDDLError(
            f"table name {table!r} has a dot and no database: it would read as table "
            f"{rest!r} of database {database!r} (the statements' default database, "
            "execute(database=…), tells them apart)",
            table=table,
        )
    return table


def split_name(name: str) -> tuple[str | None, str]:
    """(database, table) of a name a ``database.table`` catalog holds; (None, name) for a
    name without a database."""
    database, dot, table = name.partition(".")
    return (database, table) if dot else (None, name)


def table_name(node: exp.Expr | None, ctx: Context) -> str:
    """The name a table reference resolves to in ``ctx``."""
    if not isinstance(node, exp.Table):
        raise DDLError("expected a table name")
    if node.args.get("catalog"):
        raise UnsupportedDDLError(f"table name {node.sql(dialect=DIALECT)!r} has a catalog part")
    table = ident(node.this, "table")
    db = node.args.get("db")
    if ctx.lower_names:
        return _lowered(table, db.name if db is not None else None, node, ctx)
    if ctx.database is not None:
        database = db.name if db is not None else ctx.default
        if database is not None and database != ctx.database:
            raise UnsupportedDDLError(
                f"table {node.sql(dialect=DIALECT)!r} is in database {database!r}; this catalog "
                f"tracks database {ctx.database!r}"
            )
        return table
    if db is not None:
        return qualify(db.name, table)
    return qualify(ctx.default, table)


def _lowered(table: str, db: str | None, node: exp.Table, ctx: Context) -> str:
    """:func:`table_name` on a server that keeps names in lower case."""
    table, db = fold_name(table), fold_name(db) if db is not None else None
    if ctx.database is not None:
        database = db if db is not None else ctx.default
        if database is not None and fold_name(database) != fold_name(ctx.database):
            raise UnsupportedDDLError(
                f"table {node.sql(dialect=DIALECT)!r} is in database {database!r}; this catalog "
                f"tracks database {ctx.database!r}"
            )
        return table
    default = fold_name(ctx.default) if ctx.default is not None else None
    return qualify(db if db is not None else default, table)


def _statement_table(tree: exp.Expr) -> exp.Table | None:
    """The table a CREATE TABLE or ALTER TABLE defines, None for other statements."""
    if isinstance(tree, exp.Create) and str(tree.args.get("kind", "")).upper() == "TABLE":
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        return target if isinstance(target, exp.Table) else None
    if isinstance(tree, exp.Alter) and str(tree.args.get("kind", "")).upper() == "TABLE":
        return tree.this if isinstance(tree.this, exp.Table) else None
    return None


#: the nodes whose expressions a table keeps (a column's DEFAULT, generation expression and
#: CHECK; a table's CHECK; an ALTER … SET DEFAULT): their columns are the table's own
_KEPT_EXPRESSIONS = (exp.ColumnDef, exp.AlterColumn, MySQLCheck)


def names_table(col: exp.Column, target: exp.Table, ctx: Context) -> bool:
    """Whether a column's qualifier, if it has one, names the statement's table ``target``,
    as the server reads it: the table as the statement names it, and the database, where one
    is known (the target's, else the session's), that one (in any case where the server keeps
    names in lower case; else case-sensitively)."""
    if col.args.get("catalog"):
        return False
    fold = fold_name if ctx.lower_names else str
    if col.table and fold(col.table) != fold(target.name):
        return False
    database = target.db or ctx.database or ctx.default
    return not (col.db and database and fold(col.db) != fold(database))


def own_columns(tree: exp.Expr | None, ctx: Context) -> exp.Expr | None:
    """The statement with each qualified column of the expressions its table keeps written
    bare (``t.a`` or ``db.t.a`` is ``a``, as the server keeps it, so that a later rename
    reaches it); a qualifier naming another table (or another database) is refused, as the
    server refuses it (its error 1901; :func:`names_table`). The tree is changed in place (a
    statement's own parse)."""
    target = _statement_table(tree) if tree is not None else None
    if tree is None or target is None:
        return tree
    for col in list(tree.find_all(exp.Column)):
        holder = col.find_ancestor(*_KEPT_EXPRESSIONS, exp.Select)
        if not col.args.get("table") or not isinstance(holder, _KEPT_EXPRESSIONS):
            continue  # (a column of a query, even inside a kept expression, is the query's)
        if not names_table(col, target, ctx):
            raise DDLError(
                f"expression names column {col.sql(dialect=DIALECT)} of another table "
                "(the server's error 1901)",
                column=col.name,
            )
        col.replace(exp.column(col.this))
    return tree


__all__ = [
    "Context",
    "database_name",
    "ident",
    "is_default_word",
    "names_table",
    "own_columns",
    "qualify",
    "split_name",
    "table_name",
]
