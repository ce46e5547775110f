"""sqlglot's MySQL dialect, extended for the DDL forms it would fall back to ``Command`` on.

sqlglot parses most MySQL DDL into expression trees but silently (with a logged warning) turns
some statements into an opaque ``Command``. mvdd never accepts a ``Command``: this module extends
the dialect's parser by spreading its dispatch tables, and adds the expression nodes and
generator methods for:

- ``RENAME TABLE a TO b [, c TO d ...]``                       → :class:`RenameTables`
- ``ALTER TABLE t ADD CHECK (...)`` and ``ADD CONSTRAINT c CHECK (...) [NOT] ENFORCED``
- ``ALTER TABLE t ALTER {CHECK | CONSTRAINT} c [NOT] ENFORCED`` → :class:`AlterCheck`
- ``ALTER TABLE t CONVERT TO CHARACTER SET cs [COLLATE co]``  → :class:`ConvertCharset`
- ``ALTER TABLE t ADD [COLUMN] (c1 ..., c2 ...)``
- ``CREATE [UNIQUE | FULLTEXT | SPATIAL] INDEX i [USING ..] ON t (a(10) DESC, ...) [options]``
  → :class:`CreateIndex` (sqlglot reads ``a(10)`` as a function call there)
- ``FLOAT[(M,D)] UNSIGNED``                                    → :class:`UnsignedFloat`
- ``CHECK (...) NOT ENFORCED`` in CREATE TABLE                 → :class:`MySQLCheck`
- the spatial types ``POINT``, ``LINESTRING``, ``POLYGON``, ``MULTI*``, ``GEOMETRYCOLLECTION``
- ``ALTER {DATABASE | SCHEMA} [name] [DEFAULT] CHARACTER SET … COLLATE …`` → :class:`AlterDatabase`
- MariaDB's ``ALTER [ONLINE] [IGNORE] TABLE t [WAIT n | NOWAIT] …`` (how the server runs the
  statement, not what it changes: read and dropped)
- ``RENAME TABLE[S] [IF EXISTS] …`` (MariaDB's IF EXISTS: each pair whose table is missing is
  skipped)
- ``DROP INDEX i ON t [ALGORITHM [=] …] [LOCK [=] …]`` (MySQL's; MariaDB refuses the options on
  DROP INDEX, but a MySQL binlog carries them)
- ``{ANALYZE | OPTIMIZE | REPAIR | CHECK | CHECKSUM} TABLE t [, …] [options]``
  → :class:`Maintenance` (sqlglot reads ANALYZE its own way and the others not at all; the
  servers write ANALYZE, OPTIMIZE and REPAIR to the binlog)
- MariaDB's ``SET STATEMENT var = value [, …] FOR statement`` → :class:`SetStatement`
- ODBC's escapes ``{d 'text'}``, ``{t 'text'}``, ``{ts 'text'}`` → :class:`TemporalLiteral`
  (a text of another form stays the string), and ``{word value}`` → the value (sqlglot reads
  a brace as a struct's)
- MariaDB's system versioning (``WITH SYSTEM VERSIONING`` on a table or a column, ``WITHOUT
  SYSTEM VERSIONING`` on a column, ``ALTER TABLE t {ADD | DROP} SYSTEM VERSIONING``, which
  sqlglot misreads as a column named SYSTEM) → :class:`SystemVersioning`, and its
  ``COMPRESSED`` columns → :class:`Compressed`; its application-time periods, ``PERIOD FOR p
  (start, end)`` → :class:`ApplicationPeriod`, and their keys' ``p WITHOUT OVERLAPS`` →
  :class:`WithoutOverlaps`: read so that mvdd refuses them as unsupported rather than as
  malformed

Everything else is sqlglot's own MySQL dialect.

Reading DDL is the larger part of a catalog's ``execute``, so the dialect also takes three
shortcuts through sqlglot's parser where its full path can only reach the same node (a literal
that ends its operand, an ALTER TABLE's plain name followed by an action, no table options
after the last token; a test compares both paths on the corpora and on generated statements),
and each thread reuses one tokenizer and one parser between statements.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import threading
from collections.abc import Callable
from typing import Any

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import TokenError
from sqlglot.generators.mysql import MySQLGenerator
from sqlglot.parsers.mysql import MySQLParser
from sqlglot.tokens import Token, TokenType

from mvdd.ddl.sqlmode import SqlMode
from mvdd.errors import DDLError, DependencyError, InvalidValueError
from mvdd.model.coerce import LITERAL_WORDS, temporal_literal
from mvdd.model.kind import TypeKind
from mvdd.model.types import canonical_charset, canonical_collation, charsetless, resolve_charset

# --- expression nodes sqlglot lacks ------------------------------------------------------------


class RenameTables(exp.Expression):
    """``RENAME TABLE [IF EXISTS] a TO b, c TO d``: ``expressions`` are :class:`RenamePair`
    nodes; ``exists``: MariaDB's IF EXISTS."""

    arg_types = {"expressions": True, "exists": False}


class RenamePair(exp.Expression):
    arg_types = {"this": True, "to": True}


class ConvertCharset(exp.Expression):
    """``CONVERT TO CHARACTER SET this [COLLATE collate]`` inside ALTER TABLE."""

    arg_types = {"this": True, "collate": False}


class AlterCheck(exp.Expression):
    """``ALTER CHECK name [NOT] ENFORCED`` inside ALTER TABLE."""

    arg_types = {"this": True, "enforced": True}


class MySQLCheck(exp.Expression, exp.ColumnConstraintKind):
    """``CHECK (expr) [[NOT] ENFORCED]``; ``enforced`` is False only for NOT ENFORCED."""

    arg_types = {"this": True, "enforced": False}


class ListedChecks(exp.AddConstraint):
    """Checks an ``ADD (…)`` list adds, where the list holds nothing else (MariaDB's ALTER
    TABLE of such lists alone changes nothing: it keeps none of them)."""


class AlterIndex(exp.AlterIndex):
    """``ALTER {INDEX|KEY} [IF EXISTS] this visibility``: ``exists`` is MariaDB's IF EXISTS."""

    arg_types = {**exp.AlterIndex.arg_types, "exists": False}


class CreateIndex(exp.Expression):
    """``CREATE [OR REPLACE] [UNIQUE|FULLTEXT|SPATIAL] INDEX this [USING using] ON table
    (expressions)``."""

    arg_types = {
        "this": True,
        "table": True,
        "kind": False,
        "using": False,
        "expressions": True,
        "options": False,
        "exists": False,
        "replace": False,
    }


class Persistent(exp.Expression, exp.ColumnConstraintKind):
    """MariaDB's ``PERSISTENT`` after ``AS (expr)``: the generated column is stored."""

    arg_types = {}  # type: ignore[var-annotated]


class AlterDatabase(exp.Expression):
    """``ALTER {DATABASE | SCHEMA} [name] options``: ``this`` None names the default database."""

    arg_types = {"this": False, "properties": True}


class SequenceStatement(exp.Expression):
    """MariaDB's ``{CREATE | ALTER | DROP} SEQUENCE``: ``this`` the verb, ``expressions`` the
    sequences named (tables), ``options`` the sequence's values as written (each an
    :class:`exp.Property` named for its value, ``INCREMENT``, ``MINVALUE``, ``MAXVALUE``,
    ``START``, ``CACHE``, ``CYCLE`` or ``RESTART``, its value an integer, or NULL for ``NO
    MINVALUE`` / ``NO MAXVALUE`` and a bare ``RESTART``), ``properties`` CREATE's table
    options."""

    arg_types = {
        "this": True,
        "expressions": True,
        "options": False,
        "properties": False,
        "exists": False,
        "replace": False,
        "temporary": False,
    }


class Maintenance(exp.Expression):
    """``{ANALYZE | OPTIMIZE | REPAIR | CHECK | CHECKSUM} TABLE t [, ...] [options]``: the
    server's work on tables' rows, indexes or statistics, never on their schema. ``this`` is the
    verb, ``expressions`` the tables."""

    arg_types = {"this": True, "expressions": True}


class SetStatement(exp.Expression):
    """MariaDB's ``SET STATEMENT var = value [, ...] FOR statement``: ``this`` is the statement,
    run with those session variables (``expressions``, each an :class:`exp.EQ`) for its time."""

    arg_types = {"this": True, "expressions": True}


class SerialDefault(exp.Expression, exp.ColumnConstraintKind):
    """``SERIAL DEFAULT VALUE`` after an integer column's type: NOT NULL AUTO_INCREMENT
    UNIQUE."""

    arg_types = {}  # type: ignore[var-annotated]


class SystemVersioning(exp.Property):
    """MariaDB's ``WITH SYSTEM VERSIONING`` (a table option) or ``{ADD | DROP} SYSTEM
    VERSIONING`` (an ALTER TABLE action): ``this`` is the word before SYSTEM."""

    arg_types = {"this": True}


class SystemPeriod(exp.Expression):
    """MariaDB's ``ALTER TABLE … ADD PERIOD FOR SYSTEM_TIME (start, end)`` or ``DROP PERIOD FOR
    SYSTEM_TIME``: ``this`` the verb, ``expressions`` the two columns an ADD names."""

    arg_types = {"this": True, "expressions": False}


class ApplicationPeriod(exp.Expression, exp.ColumnConstraintKind):
    """MariaDB's application-time period ``PERIOD FOR name (start, end)`` in a CREATE TABLE:
    ``this`` the name, ``expressions`` its two columns (read so that mvdd refuses a table with
    one as unsupported rather than as malformed)."""

    arg_types = {"this": True, "expressions": True}


class WithoutOverlaps(exp.Expression):
    """A key part ``period WITHOUT OVERLAPS`` (MariaDB's key over an application-time
    period)."""

    arg_types = {"this": True}


class StorageOption(exp.Property):
    """``TABLESPACE name``, ``STORAGE {DISK | MEMORY}`` and ``{DATA | INDEX} DIRECTORY 'path'``:
    where a table's data is kept (MySQL's general tablespaces and NDB, which MariaDB takes and
    forgets; a folder of the table's files), not its schema; ``this`` the word, ``value`` its
    value."""

    arg_types = {"this": True, "value": True}


class Partitioning(exp.Property):
    """``PARTITION BY …`` (a table option of CREATE and ALTER TABLE), or ``REMOVE
    PARTITIONING`` (``this`` None): how the server spreads a table's rows over partitions.
    ``this`` the function (a :class:`PartitionFunction`), ``partitions`` their count, ``sub``
    the subpartitioning's function and ``subpartitions`` its count, ``expressions`` the
    partitions (each a :class:`PartitionDefinition`). Read whole, so that a statement is
    checked to its end; a replica takes it and keeps no trace (it changes no row's shape)."""

    arg_types = {
        "this": False,
        "partitions": False,
        "sub": False,
        "subpartitions": False,
        "expressions": False,
    }


class PartitionFunction(exp.Expression):
    """``[LINEAR] HASH (expr)``, ``[LINEAR] KEY [ALGORITHM = n] (columns)``, ``RANGE | LIST
    {(expr) | COLUMNS (columns)}`` or MariaDB's ``SYSTEM_TIME [INTERVAL …] [LIMIT n]``:
    ``this`` the kind, ``expressions`` its arguments, ``columns`` whether they are columns."""

    arg_types = {"this": True, "linear": False, "columns": False, "expressions": False}


class PartitionDefinition(exp.Expression):
    """``{PARTITION | SUBPARTITION} name [VALUES …] [options] [(subpartitions)]``: ``this`` the
    name, ``kind`` how its values are given (``LESS THAN``, ``IN``, MariaDB's ``CURRENT``,
    ``HISTORY``, ``DEFAULT``), ``values`` them, ``options`` its options (each an
    :class:`exp.Property`), ``expressions`` its subpartitions."""

    arg_types = {
        "this": True,
        "kind": False,
        "values": False,
        "options": False,
        "expressions": False,
    }


class TablespaceAction(exp.Expression):
    """``ALTER TABLE t {DISCARD | IMPORT} TABLESPACE`` (InnoDB): the table's rows gone with
    its data file, or loaded from one; ``this`` the verb. Alone in its ALTER TABLE."""

    arg_types = {"this": True}


class PartitionAction(exp.Expression):
    """An ALTER TABLE action on a partitioned table's partitions: ``this`` the verb (ADD, DROP,
    TRUNCATE, COALESCE, REORGANIZE, EXCHANGE, ANALYZE, CHECK, OPTIMIZE, REBUILD, REPAIR,
    DISCARD, IMPORT; CONVERT for MariaDB's ``CONVERT PARTITION p TO TABLE t`` and ``CONVERT
    TABLE t TO PARTITION …``), ``expressions`` the partitions named (``all``: ALL of them),
    ``definitions`` new partitions, ``table`` the table EXCHANGE or CONVERT names, ``count``
    COALESCE's or ADD's number of partitions."""

    arg_types = {
        "this": True,
        "expressions": False,
        "all": False,
        "definitions": False,
        "table": False,
        "count": False,
    }


class SwitchKeys(exp.Expression):
    """``ALTER TABLE t {DISABLE | ENABLE} KEYS``: ``this`` the word (MyISAM's and Aria's
    non-unique keys switched off or on while rows load, as mysqldump writes around them;
    InnoDB takes it and changes nothing)."""

    arg_types = {"this": True}


class Signedness(exp.Expression, exp.ColumnConstraintKind):
    """A column definition's ``UNSIGNED`` or ``SIGNED`` that sqlglot does not read into the
    type (``INT ZEROFILL UNSIGNED``, or a SIGNED anywhere, which it would drop); mvdd.ddl.column
    takes the grammar's runs of them and refuses the rest; ``this`` the word."""

    arg_types = {"this": True}


#: the words a column's NOT NULL is made of (no predicate's: :meth:`MvddParser._parse_range`)
_NOT_NULL = (TokenType.NOT, TokenType.NULL)


class Compressed(exp.Expression, exp.ColumnConstraintKind):
    """MariaDB's ``COMPRESSED[=method]`` column attribute."""

    arg_types = {"this": False}


class ConvertUsing(exp.Expression, exp.Func):
    """``CONVERT(this USING charset)``: a string's characters in another charset, which the
    server keeps apart from ``CAST(this AS CHAR CHARACTER SET charset)`` (sqlglot reads both
    as the CAST) and prints as written."""

    arg_types = {"this": True, "charset": True}


class ColumnGet(exp.Expression, exp.Func):
    """MariaDB's ``COLUMN_GET(this, name AS type)``: a dynamic column's value, read as a CAST
    reads it (``expression``: the CAST of ``name`` to ``type``, which the CAST's rules make
    the server's form)."""

    arg_types = {"this": True, "expression": True}


class UnsignedFloat(exp.DataType):
    """``FLOAT[(M,D)] UNSIGNED``, for which sqlglot has no data type of its own."""


class QuotedHex(exp.HexString):
    """A hex string literal written ``X'…'``, which sqlglot reads as it reads ``0x…``: MariaDB
    reads a DEFAULT of one as a string, not a number (:class:`mvdd.model.element.HexText`)."""


class NotValue(exp.EQ):
    """``NOT x`` of a value that is no truth value (a column, a sum, a function's): ``x = 0``
    in value and in print (:mod:`mvdd.ddl.expr`'s normal form), but its negation is ``x``
    itself, where that of a written ``x = 0`` is ``x <> 0``, as MariaDB keeps the NOT (its
    ``Item_func_not``, whose negation gives its argument back)."""


class TemporalLiteral(exp.Cast):
    """A typed temporal literal, ``DATE 'text'``, ``TIME 'text'`` or ``TIMESTAMP 'text'``: a
    constant of its type, whose text the parse checks as the server does (its error 1525).
    sqlglot reads one as a CAST of the text, which MySQL reads as an expression: kept apart,
    it renders as written, and a DEFAULT of one alone is its value
    (:func:`mvdd.model.coerce.from_temporal_literal`)."""

    @property
    def kind(self) -> TypeKind:
        """The kind its text reads as: DATE, TIME, or DATETIME for a TIMESTAMP literal."""
        return _TEMPORAL_LITERALS[self.to.this]


# --- parser ------------------------------------------------------------------------------------


def _is_integer(text: str) -> bool:
    return text.lstrip("-").isdigit()


#: MariaDB's sequence functions: their first argument names a sequence (a table)
SEQUENCE_CALLS = ("NEXTVAL", "LASTVAL", "SETVAL")
#: WEIGHT_STRING's flags (the server's MY_STRXFRM_*): its weights padded with spaces (AS
#: CHAR(n)), and the first level's DESC and REVERSE bits (a level n's are shifted n - 1
#: places further)
WS_PAD = 0x40
WS_DESC = 0x100
WS_REVERSE = 0x10000
#: MariaDB's sequence expressions of words, by the function each is
_VALUE_FOR = {"NEXT": "NEXTVAL", "PREVIOUS": "LASTVAL"}
#: MariaDB's options of a sequence's values: the word, and the words that may stand between it
#: and its value (``INCREMENT BY 2``, ``START = 5``); RESTART is ALTER SEQUENCE's alone, its
#: value optional
_SEQUENCE_VALUES = {
    "INCREMENT": ("BY", "="),
    "MINVALUE": ("=",),
    "MAXVALUE": ("=",),
    "START": ("WITH", "="),
    "CACHE": ("=",),
    "RESTART": ("WITH", "="),
}
#: the options of one word, by the value each sets and what it sets it to (None: the default)
_SEQUENCE_WORDS: dict[str, tuple[str, int | None]] = {
    "NOMINVALUE": ("MINVALUE", None),
    "NOMAXVALUE": ("MAXVALUE", None),
    "NOCACHE": ("CACHE", 0),
    "CYCLE": ("CYCLE", 1),
    "NOCYCLE": ("CYCLE", 0),
}
#: the option the server's grammar takes again, the last one holding (it checks every other
#: for a repeat, NO MINVALUE too, but not MINVALUE n)
_SEQUENCE_REPEATABLE = frozenset({"MINVALUE"})
#: the widest integer a sequence's option takes (the server's grammar reads a wider one, or
#: -2**63, as no integer of its own)
_SEQUENCE_LIMIT = 2**63 - 1
_WORDS = frozenset({TokenType.VAR, TokenType.NEXT})
#: SETVAL's arguments after the value, as the server writes them when left out (is_used, round)
_SETVAL_LEFT_OUT = (1, 0)


def _is_check(node: exp.Expr) -> bool:
    """Whether a table element is a check (``[CONSTRAINT [name]] CHECK (…)``)."""
    if isinstance(node, exp.Constraint):
        return all(isinstance(x, MySQLCheck) for x in node.expressions)
    return isinstance(node, MySQLCheck)


def _starts_integer(token: Any) -> bool:
    """Whether a token may begin a signed integer literal."""
    return token is not None and token.token_type in (
        TokenType.NUMBER,
        TokenType.DASH,
        TokenType.PLUS,
    )


def _is_keyword(token: Any, *texts: str) -> bool:
    """An unquoted word with one of these texts (a quoted identifier is never a keyword)."""
    return (
        token is not None
        and token.text.upper() in texts  # (the text first: most tokens tested are other words)
        and token.token_type not in _QUOTED
    )


_QUOTED = frozenset({TokenType.IDENTIFIER, TokenType.STRING})


def _alone(node: exp.Expr) -> bool:
    """Whether a DEFAULT's value is one operand, which needs no parentheses: no operator's,
    but a number's sign."""
    if isinstance(node, exp.Neg):
        return isinstance(node.this, exp.Literal) and node.this.is_number
    return not isinstance(node, exp.Binary | exp.Unary)


#: the typed temporal literals, by the type sqlglot reads their word as: the kind their text
#: reads as (:func:`mvdd.model.coerce.temporal_literal`); a DATETIME 'text' is no literal
#: the date-part functions of one argument, which sqlglot reads over a conversion to DATE
_DATE_PARTS: dict[str, type[exp.Func]] = {
    "DAY": exp.DayOfMonth,
    "DAYOFMONTH": exp.DayOfMonth,
    "DAYOFWEEK": exp.DayOfWeek,
    "DAYOFYEAR": exp.DayOfYear,
    "MONTH": exp.Month,
    "WEEKOFYEAR": exp.WeekOfYear,
    "YEAR": exp.Year,
}


#: the format of a TO_CHAR that names none
_TO_CHAR_FORMAT = "YYYY-MM-DD HH24:MI:SS"


def _pad(name: str, args: list[Any], *, left: bool) -> exp.Expr:
    """LPAD or RPAD: of three arguments sqlglot's Pad; of any other number the call as written
    (MariaDB's two-argument form pads with spaces, and prints as written)."""
    if len(args) != 3:
        return exp.Anonymous(this=name, expressions=args)
    return exp.Pad(this=args[0], expression=args[1], fill_pattern=args[2], is_left=left)


def _by_name(name: str) -> Callable[[list[Any]], exp.Expr]:
    """The builder of a call of ``name`` kept as written (an Anonymous of its arguments)."""
    return lambda args: exp.Anonymous(this=name, expressions=args)


#: sqlglot's operators of other databases, which MySQL reads as other tokens: ``~~a`` is two
#: bitwise NOTs (sqlglot's LIKE), ``a #> 1`` is ``a`` and a comment (sqlglot's JSON path),
#: ``a::INT``, ``a == 1``, ``a <-> 1`` syntax errors (a CAST, an equality, a distance)
_FOREIGN_OPERATORS = frozenset(
    {"~~~", "~~", "~~*", "~*", "#>", "#>>", "==", "::", "?::", "|>", "=>", "<->", "<<->>"}
    | {"??", "-|-", "&<", "&>", "USER-DEFINED", "{%", "{%+", "{%-", "%}", "+%}", "-%}"}
    | {"{{-", "-}}"}
)

#: the operators after which an operand follows (the word NOT may not stand there)
_OPERATORS_BEFORE_AN_OPERAND = frozenset(
    {
        *(TokenType.PLUS, TokenType.DASH, TokenType.STAR, TokenType.SLASH, TokenType.MOD),
        *(TokenType.DIV, TokenType.PIPE, TokenType.AMP, TokenType.CARET, TokenType.TILDE),
        *(TokenType.EQ, TokenType.NEQ, TokenType.LT, TokenType.LTE, TokenType.GT, TokenType.GTE),
        *(TokenType.NULLSAFE_EQ, TokenType.LIKE, TokenType.RLIKE, TokenType.BETWEEN),
    }
)

#: the type names MariaDB's grammar keeps for its Oracle mode: a syntax error in MySQL's
#: (the others of sqlglot's type words no server knows are names, unknown types)
_ORACLE_TYPES = frozenset({"NUMBER", "CLOB"})

#: the words that qualify a type and are one only in a CAST (``CAST(x AS SIGNED INTEGER)``)
_SIGNED_WORDS = ("UNSIGNED", "SIGNED", "ZEROFILL", "UNSIGNED INTEGER", "SIGNED INTEGER")

#: the first word of each type a CAST may name, MySQL's and MariaDB's together -> the least
#: and the most parameters it takes (MySQL: FLOAT(p), REAL, JSON, YEAR and the spatial types;
#: MariaDB: VARCHAR(n), INT, INTEGER, DOUBLE(m, d) and its own types)
_CAST_TYPES: dict[str, tuple[int, int]] = {
    **dict.fromkeys(("BINARY", "CHAR", "CHARACTER", "NCHAR", "DATETIME", "TIME", "FLOAT"), (0, 1)),
    **dict.fromkeys(("DECIMAL", "DEC", "DOUBLE"), (0, 2)),
    "VARCHAR": (1, 1),
    **dict.fromkeys(
        [
            *("DATE", "YEAR", "REAL", "DOUBLE PRECISION", "JSON", "INT", "INTEGER", "SIGNED"),
            *("UNSIGNED", "SIGNED INTEGER", "UNSIGNED INTEGER", "UUID", "INET4", "INET6"),
            *("POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING"),
            *("MULTIPOLYGON", "GEOMETRYCOLLECTION"),
        ],
        (0, 0),
    ),
}
#: the parameters a CAST's type takes, in words
_SIZES_TAKEN = {
    (0, 0): "no parameters",
    (0, 1): "one parameter at most",
    (0, 2): "two parameters at most",
    (1, 1): "one parameter",
}
#: a CAST's string types (CHARACTER_SET: a CHAR naming its charset)
_CAST_STRING_TYPES = (
    *(exp.DType.CHAR, exp.DType.VARCHAR, exp.DType.NCHAR, exp.DType.BINARY),
    exp.DType.CHARACTER_SET,
)
#: the largest parameters of a CAST's type, (first, second), where the server bounds them
#: (DECIMAL: MariaDB's scale; MySQL's is 30)
_CAST_BOUNDS: dict[exp.DType, tuple[int, int]] = {
    exp.DType.DECIMAL: (65, 38),
    exp.DType.DOUBLE: (65, 38),
    exp.DType.FLOAT: (53, 0),
    exp.DType.TIME: (6, 0),
    exp.DType.DATETIME: (6, 0),
    **dict.fromkeys(
        _CAST_STRING_TYPES,
        (4294967295, 0),
    ),
}


def _check_cast_sizes(to: exp.DataType) -> None:
    """DDLError for a CAST type's parameter out of its bounds (:data:`_CAST_BOUNDS`), or a
    scale above the precision, as the server's parser has them once it has read the CAST
    (errors 1426, 1425, 1427, 1439)."""
    bounds = _CAST_BOUNDS.get(to.this)
    if bounds is None or not to.expressions:
        return
    sizes = [int(p.name) if p.name.isdigit() else -1 for p in to.expressions]
    if sizes[0] > bounds[0]:
        raise DDLError(
            f"too big precision {sizes[0]} in CAST(… AS {to.this.value}): the most is {bounds[0]}"
        )
    if len(sizes) > 1:
        if sizes[1] > bounds[1]:
            raise DDLError(
                f"too big scale {sizes[1]} in CAST(… AS {to.this.value}): the most is {bounds[1]}"
            )
        if sizes[1] > sizes[0]:
            raise DDLError(
                f"the scale {sizes[1]} is above the precision {sizes[0]} in "
                f"CAST(… AS {to.this.value})"
            )


#: the types a CAST's word reads as that no server takes there (``INT UNSIGNED``; MySQL's
#: ``… ARRAY`` of a multi-valued index's key, which mvdd does not model)
_NEVER_CAST = frozenset({exp.DType.UINT, exp.DType.ARRAY})

#: the words after a CAST's CHAR that name its charset: MySQL's ASCII is latin1, UNICODE ucs2
_CAST_CHARSET_WORDS = {"ASCII": "latin1", "UNICODE": "ucs2", "BYTE": "binary"}

_TEMPORAL_LITERALS = {
    exp.DType.DATE: TypeKind.DATE,
    exp.DType.TIME: TypeKind.TIME,
    exp.DType.TIMESTAMP: TypeKind.DATETIME,
    exp.DType.TIMESTAMPTZ: TypeKind.DATETIME,
}

#: ODBC's escapes of the typed temporal literals, ``{d 'text'}``, ``{t 'text'}`` and
#: ``{ts 'text'}``: the type each reads its text as (the word in lower case, quoted or not:
#: ``{D '2020-01-01'}`` is the string)
_ODBC_LITERALS = {"d": exp.DType.DATE, "t": exp.DType.TIME, "ts": exp.DType.TIMESTAMP}


def _string_text(node: exp.Expr) -> str | None:
    """The text of a string constant (``'…'``, ``N'…'``, ``_charset'…'``, in parentheses or
    not); None for anything else."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Introducer):
        node = node.expression
    if (isinstance(node, exp.Literal) and node.is_string) or isinstance(node, exp.National):
        return str(node.this)
    return None


#: what may follow USING in an index definition
_INDEX_TYPES = ("BTREE", "HASH", "RTREE")

#: the table maintenance statements: verb -> (whether it takes ``NO_WRITE_TO_BINLOG | LOCAL``
#: before TABLE, the option words that may follow its tables). ANALYZE's and OPTIMIZE's
#: options are read by their own methods.
_MAINTENANCE: dict[str, tuple[bool, tuple[str, ...]]] = {
    "ANALYZE": (True, ()),
    "OPTIMIZE": (True, ()),
    "REPAIR": (True, ("QUICK", "EXTENDED", "USE_FRM")),
    "CHECK": (False, ("QUICK", "FAST", "MEDIUM", "EXTENDED", "CHANGED")),
    "CHECKSUM": (False, ("QUICK", "EXTENDED")),
}


#: an index's visibility words: MySQL's, then MariaDB's (``IGNORED`` indexes, 10.6)
_VISIBILITY: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("VISIBLE",), True),
    (("INVISIBLE",), False),
    (("NOT", "IGNORED"), True),
    (("IGNORED",), False),
)


#: the tokens that end a column definition (the statement's end, a comma, a parenthesis)
_DEFINITION_ENDS = frozenset({TokenType.SENTINEL, TokenType.COMMA, TokenType.R_PAREN})
#: the tokens that begin a column attribute a type or a literal may stand before
_ATTRIBUTE_STARTS = frozenset(
    {
        TokenType.NOT,
        TokenType.NULL,
        TokenType.COMMENT,
        TokenType.AUTO_INCREMENT,
        TokenType.PRIMARY_KEY,
        TokenType.UNIQUE,
    }
)
#: tokens that end a literal operand at every level from ``_parse_bitwise`` down (no operator
#: of those levels starts with one): a literal followed by one is that literal, the shortcut
#: sqlglot's own ``_parse_atom`` takes at the lowest level
_OPERAND_ENDS = _DEFINITION_ENDS | _ATTRIBUTE_STARTS | {TokenType.AND, TokenType.OR, TokenType.IS}


#: MySQL's types a bare keyword names whole (no parameters, no word after it that belongs to
#: the type), each token with its type, and the tokens that end such a type in a column
#: definition: the type is then the keyword's, the node sqlglot's full path builds (through its
#: checks for parameters, nested and structured types, time zones, arrays and converters)
_PLAIN_TYPES = {
    token: exp.DType[token.name]
    for token in (
        TokenType.TINYINT,
        TokenType.SMALLINT,
        TokenType.MEDIUMINT,
        TokenType.INT,
        TokenType.BIGINT,
        TokenType.FLOAT,
        TokenType.DOUBLE,
        TokenType.DECIMAL,
        TokenType.BIT,
        TokenType.BOOLEAN,
        TokenType.DATE,
        TokenType.DATETIME,
        TokenType.TIMESTAMP,
        TokenType.TIME,
        TokenType.YEAR,
        TokenType.TINYTEXT,
        TokenType.TEXT,
        TokenType.MEDIUMTEXT,
        TokenType.LONGTEXT,
        TokenType.TINYBLOB,
        TokenType.BLOB,
        TokenType.MEDIUMBLOB,
        TokenType.LONGBLOB,
        TokenType.JSON,
        TokenType.UUID,
    )
}
_TYPE_ENDS = _DEFINITION_ENDS | _ATTRIBUTE_STARTS | {TokenType.DEFAULT}


#: the ALTER TABLE verbs that act on partitions only (``verb PARTITION …``); ADD, DROP and
#: CONVERT have other uses and read PARTITION themselves
_PARTITION_VERBS = (
    "TRUNCATE",
    "COALESCE",
    "REORGANIZE",
    "EXCHANGE",
    "ANALYZE",
    "CHECK",
    "OPTIMIZE",
    "REBUILD",
    "REPAIR",
    "DISCARD",
    "IMPORT",
)
#: the verbs that take ``ALL`` for every partition
_PARTITION_VERBS_ALL = frozenset(
    {"TRUNCATE", "ANALYZE", "CHECK", "OPTIMIZE", "REBUILD", "REPAIR", "DISCARD", "IMPORT"}
)


def _partition_parser(verb: str) -> Callable[[Any], PartitionAction | None]:
    """The ALTER TABLE parser of ``verb PARTITION …`` (:meth:`MvddParser._parse_on_partitions`)."""
    return lambda self: self._parse_on_partitions(verb)


#: the table options the parser reads as ``NAME [=] value`` (the server's own, and InnoDB's
#: page compression, whose words sqlglot's MySQL parser does not know)
TABLE_OPTION_WORDS = (
    "AVG_ROW_LENGTH",
    "CHECKSUM",
    "DELAY_KEY_WRITE",
    "INSERT_METHOD",
    "KEY_BLOCK_SIZE",
    "MAX_ROWS",
    "MIN_ROWS",
    "PACK_KEYS",
    "PAGE_CHECKSUM",
    "PAGE_COMPRESSED",
    "PAGE_COMPRESSION_LEVEL",
    "STATS_AUTO_RECALC",
    "STATS_PERSISTENT",
    "STATS_SAMPLE_PAGES",
    "TABLE_CHECKSUM",
    "TRANSACTIONAL",
)


class MvddParser(MySQLParser):
    # TO_DAYS as itself: sqlglot rewrites it as DATEDIFF(x, '0000-01-01') + 1, which MySQL
    # reads as NULL (no such date)
    FUNCTIONS = {
        **{k: v for k, v in MySQLParser.FUNCTIONS.items() if k != "TO_DAYS"},
        # the server's one-argument ENCRYPT (crypt(3) with a random salt) and many-argument
        # LAST_VALUE (its arguments' last, the others evaluated): sqlglot knows only the
        # two-argument and the window-function forms
        "ENCRYPT": lambda args: (
            exp.Anonymous(this="ENCRYPT", expressions=args)
            if len(args) == 1
            else exp.Encrypt.from_arg_list(args)
        ),
        "LAST_VALUE": lambda args: (
            exp.Anonymous(this="LAST_VALUE", expressions=args)
            if len(args) > 1
            else exp.LastValue.from_arg_list(args)
        ),
        # and MariaDB's one-argument ATAN2, its ATAN
        "ATAN2": lambda args: (
            exp.Atan(this=args[0]) if len(args) == 1 else exp.Atan2.from_arg_list(args)
        ),
        # the date-part functions take their argument as it is: sqlglot wraps it in a
        # conversion to a DATE, which mvdd kept as a CAST no one wrote (the server prints
        # dayofweek(`d`), mvdd's downstream showed dayofweek(cast(`d` as date)))
        **{name: node.from_arg_list for name, node in _DATE_PARTS.items()},
        "WEEK": lambda args: exp.Week(this=args[0] if args else None, mode=args[1:2] and args[1]),
        # spellings the server keeps apart, as it prints them (sqlglot reads IFNULL as COALESCE,
        # LOG(x) as LN(x), LOG2(x) as LOG(2, x), MONTHNAME as a DATE_FORMAT)
        **dict.fromkeys(
            ("IFNULL", "NVL"),
            lambda args: exp.Coalesce(
                this=args[0] if args else None, expressions=args[1:], is_null=True
            ),
        ),
        # MariaDB's Oracle-compatible functions as it keeps them: LENGTHB is LENGTH (in bytes),
        # ADD_MONTHS an interval's sum (which it prints); NVL2, TO_CHAR, CHR and a two-argument
        # LPAD or RPAD as written (sqlglot made a CASE, a CAST, a binary CHAR and a pad of
        # spaces of them; the server writes CHR(n) as CHAR(n USING its database's charset))
        "LENGTHB": lambda args: exp.Length(this=args[0] if args else None, binary=True),
        "ADD_MONTHS": lambda args: (
            exp.Add(this=args[0], expression=exp.Interval(this=args[1], unit=exp.var("MONTH")))
            if len(args) == 2
            else exp.Anonymous(this="ADD_MONTHS", expressions=args)
        ),
        **{name: _by_name(name) for name in ("NVL2", "CHR")},
        # (TO_CHAR(x) is TO_CHAR(x, 'YYYY-MM-DD HH24:MI:SS'), as the server writes it)
        "TO_CHAR": lambda args: exp.Anonymous(
            this="TO_CHAR",
            expressions=args if len(args) != 1 else [*args, exp.Literal.string(_TO_CHAR_FORMAT)],
        ),
        "LPAD": lambda args: _pad("LPAD", args, left=True),
        "RPAD": lambda args: _pad("RPAD", args, left=False),
        "LOG": lambda args: (
            exp.Log(this=args[0]) if len(args) == 1 else exp.Log.from_arg_list(args)
        ),
        **{name: _by_name(name) for name in ("LOG2", "LOG10", "MONTHNAME")},
    }

    PRIMARY_PARSERS = {
        **MySQLParser.PRIMARY_PARSERS,
        TokenType.HEX_STRING: lambda self, token: self._parse_hex(token),
        # DEFAULT(col), a column's default (sqlglot reads a column named DEFAULT, aliased)
        TokenType.DEFAULT: lambda self, token: self._parse_default_of(),
    }

    FUNCTION_PARSERS = {
        # (CHR is MariaDB's own function, not CHAR: see FUNCTIONS)
        **{k: v for k, v in MySQLParser.FUNCTION_PARSERS.items() if k != "CHR"},
        # GET_FORMAT({DATE | TIME | DATETIME | TIMESTAMP}, locale): its first argument a word,
        # which sqlglot would read as a column
        "GET_FORMAT": lambda self: self._parse_get_format(),
        # MariaDB's sequence functions: their first argument names a sequence (a table), never
        # a column
        **{
            name: (lambda self, name=name: self._parse_sequence_call(name))
            for name in SEQUENCE_CALLS
        },
        "COLUMN_GET": lambda self: self._parse_column_get(),
        # (each operand a whole expression, as MySQL's grammar has it: see _whole; CONVERT's
        # first: _parse_convert)
        **{
            name: (lambda self, parse=MySQLParser.FUNCTION_PARSERS[name]: self._whole(parse))
            for name in ("TRIM", "SUBSTRING", "SUBSTR", "EXTRACT", "JSON_OBJECT")
        },
    }

    NO_PAREN_FUNCTION_PARSERS = {
        **MySQLParser.NO_PAREN_FUNCTION_PARSERS,
        # (reserved words: without parentheses too, the functions, never columns)
        "UTC_DATE": lambda self: self._parse_utc(exp.UtcDate),
        "UTC_TIME": lambda self: self._parse_utc(exp.UtcTime),
        "UTC_TIMESTAMP": lambda self: self._parse_utc(exp.UtcTimestamp),
    }

    TYPE_LITERAL_PARSERS = {
        **MySQLParser.TYPE_LITERAL_PARSERS,
        **dict.fromkeys(
            (*_TEMPORAL_LITERALS, exp.DType.DATETIME),
            lambda self, this, to: self._parse_temporal_literal(this, to),
        ),
    }

    # (COLLATE binds an operand alone: _parse_unary)
    TERM = {k: v for k, v in MySQLParser.TERM.items() if k != TokenType.COLLATE}

    STATEMENT_PARSERS = {
        **MySQLParser.STATEMENT_PARSERS,
        TokenType.RENAME: lambda self: self._parse_rename_tables(),
        TokenType.CREATE: lambda self: self._parse_create_mysql(),
        TokenType.SET: lambda self: self._parse_set_statement(),
    }

    # MySQL / MariaDB table options that take a value with or without `=` (sqlglot's generic
    # key = value reader needs the `=`)
    PROPERTY_PARSERS = {
        **MySQLParser.PROPERTY_PARSERS,
        "PARTITION BY": lambda self: self._parse_partitioning(),
        "REMOVE": lambda self: self._parse_remove_partitioning(),
        "TABLESPACE": lambda self: self._parse_storage_option("TABLESPACE"),
        "DATA": lambda self: self._parse_directory("DATA"),
        "INDEX": lambda self: self._parse_directory("INDEX"),
        "STORAGE": lambda self: self._parse_storage_option("STORAGE"),
        "WITH": lambda self: self._parse_system_versioning("WITH") or self._parse_with_property(),
        "ORDER BY": lambda self: self._parse_order_by_option(),
        "UNION": lambda self: self._parse_merge_union(),
        "SEQUENCE": lambda self: self._parse_sequence_option(),
        "COMMENT": lambda self: self._parse_comment_option(),
        "AUTO_INCREMENT": lambda self: self._parse_auto_increment_option(),
        **{
            word: (lambda self, word=word: self._parse_table_option(word))
            for word in TABLE_OPTION_WORDS
        },
    }

    ALTER_PARSERS = {
        **MySQLParser.ALTER_PARSERS,
        "CONVERT": lambda self: self._parse_convert_partition() or self._parse_convert_charset(),
        "DISABLE": lambda self: self._parse_switch_keys("DISABLE"),
        "ENABLE": lambda self: self._parse_switch_keys("ENABLE"),
        "DROP": lambda self: (
            self._parse_on_partitions("DROP")
            or self._parse_system_versioning("DROP")
            or self._parse_system_period("DROP")
            or MySQLParser.ALTER_PARSERS["DROP"](self)
        ),
        **{verb: _partition_parser(verb) for verb in _PARTITION_VERBS},
    }

    ALTER_ALTER_PARSERS = {
        **MySQLParser.ALTER_ALTER_PARSERS,
        "KEY": lambda self: self._parse_alter_table_alter_index(),  # MariaDB's synonym
        "CHECK": lambda self: self._parse_alter_check(),
        "CONSTRAINT": lambda self: self._parse_alter_check(),
    }

    CONSTRAINT_PARSERS = {
        **MySQLParser.CONSTRAINT_PARSERS,
        "PERIOD": lambda self: self._parse_period(),
        "DEFAULT": lambda self: self.expression(
            exp.DefaultColumnConstraint(this=self._parse_default_value())
        ),
        "CHECK": lambda self: self._parse_mysql_check(),
        # MariaDB's spelling of STORED after a generated column's AS (expr)
        "PERSISTENT": lambda self: self.expression(Persistent()),
        "UNSIGNED": lambda self: self.expression(Signedness(this=exp.var("UNSIGNED"))),
        "SIGNED": lambda self: self.expression(Signedness(this=exp.var("SIGNED"))),
        # MariaDB's BYTE after a string type: CHARACTER SET binary (CHAR(5) BYTE is BINARY(5))
        "BYTE": lambda self: self.expression(
            exp.CharacterSetColumnConstraint(this=exp.var("binary"))
        ),
        "COMPRESSED": lambda self: self._parse_compressed(),
        "SERIAL": lambda self: self._parse_serial_default(),
        # MariaDB's WITH / WITHOUT SYSTEM VERSIONING of one column
        "WITH": lambda self: self._parse_system_versioning("WITH"),
        "WITHOUT": lambda self: self._parse_system_versioning("WITHOUT"),
        # a generated column's AS (expr) after attributes (`VARCHAR(5) COMPRESSED AS (…)`,
        # `… NOT NULL AS (…)`): sqlglot reads it right after the type only
        "AS": lambda self: self._parse_generated_after_attributes(),
    }

    _COMPARING = {**MySQLParser.EQUALITY, **MySQLParser.COMPARISON}

    SIGNED_TO_UNSIGNED_TYPE_TOKEN = {
        **MySQLParser.SIGNED_TO_UNSIGNED_TYPE_TOKEN,
        # FLOAT keeps its token; _parse_types below turns it into UnsignedFloat
        TokenType.FLOAT: TokenType.FLOAT,
    }

    #: the parse is under way (a parser is reused only between parses: see MvddMySQL.parser)
    busy = False

    #: the index of the ``+`` a leading interval took (:meth:`_parse_interval`), -1: none
    _interval_plus = -1

    def _parse(self, *args: Any, **kwargs: Any) -> list[exp.Expr | None]:
        self.busy = True
        self._interval_plus = -1
        try:
            return super()._parse(*args, **kwargs)
        finally:
            self.busy = False
            self.reset()  # the text and its tokens are not kept past the parse

    def _warn_unsupported(self) -> None:
        """Quiet: sqlglot warns, on its own logger, of each statement it reads as a Command;
        mvdd decides what such a statement is (unsupported, skipped, a replica's partitioning)
        and says it once, naming the statement (a dump's routines and SETs were each
        warned of twice besides)."""

    def _parse_get_format(self) -> exp.Expr:
        kind = self._parse_var(any_token=True, upper=True)
        if kind is None or kind.name not in ("DATE", "TIME", "DATETIME", "TIMESTAMP"):
            self.raise_error("Expecting DATE, TIME, DATETIME or TIMESTAMP in GET_FORMAT")
            raise AssertionError("unreachable")  # raise_error raises (error_level IMMEDIATE)
        locale = self._parse_bitwise() if self._match(TokenType.COMMA) else None
        if locale is None:
            self.raise_error("Expecting a locale in GET_FORMAT")
            raise AssertionError("unreachable")
        if kind.name == "TIMESTAMP":  # (a synonym: the server writes DATETIME)
            kind = exp.var("DATETIME")
        return exp.Anonymous(this="GET_FORMAT", expressions=[kind, locale])

    def _normalize_collate(self, collate: exp.Collate) -> None:
        """``x COLLATE co`` with ``co`` named canonically (unquoted; ``utf8_bin`` is
        ``utf8mb3_bin``). As the server's parser: ``DEFAULT`` is a syntax error, an unknown
        collation a DDLError (one of another charset than its operand's is judged later, as
        the server judges it: :func:`mvdd.ddl.expr.normalize`). A collation named without its
        charset (``uca1400_ai_ci``) stays so, as the server keeps it: its operand's charset's."""
        super()._normalize_collate(collate)
        named = collate.expression
        if isinstance(named, exp.Var) and named.name.upper() == "DEFAULT":
            self.raise_error("COLLATE DEFAULT names no collation")
        name = named.name.lower() if charsetless(named.name) else canonical_collation(named.name)
        collate.set("expression", exp.var(name))

    def _parse_hex(self, token: Token) -> exp.Expr:
        """``X'…'`` (a QuotedHex, its digits whole bytes: ``X'0'`` is a syntax error) or
        ``0x…`` (a HexString)."""
        if self.sql[token.start : token.start + 1] not in ("x", "X"):
            return self.expression(exp.HexString(this=token.text), token)
        if len(token.text) % 2:
            self.raise_error(f"X'{token.text}' is not whole bytes", token)
        return self.expression(QuotedHex(this=token.text), token)

    def _parse_range(self, this: exp.Expr | None = None, parse_is: bool = False) -> Any:
        # `x NOT NULL` is no MySQL predicate (sqlglot reads it as x IS NOT NULL): the words are
        # left to what follows, a column's NOT NULL after its generated AS (…) (`b INT AS (a)
        # NOT NULL` was read as AS (NOT a IS NULL)), or the syntax error they are elsewhere
        this = this or self._parse_bitwise()
        ahead = self._curr, self._next
        if ahead[0] and ahead[1] and (ahead[0].token_type, ahead[1].token_type) == _NOT_NULL:
            return this
        return super()._parse_range(this, parse_is)

    def _parse_is(self, this: exp.Expr | None) -> exp.Expr | None:
        # x IS NOT TRUE (or FALSE) is a test of its own, which the server keeps apart from
        # NOT (x IS TRUE) (it prints `x` is not true and !(`x` is true)); sqlglot reads both
        # as the second (IS NOT NULL and NOT (x IS NULL) the server makes one)
        node = super()._parse_is(this)
        if (
            isinstance(node, exp.Not)
            and isinstance(node.this, exp.Is)
            and isinstance(node.this.expression, exp.Boolean)
        ):
            test = node.this
            return self.expression(exp.Is(this=test.this, expression=test.expression, negate=True))
        return node

    def _parse_weight_string(self) -> exp.WeightString | exp.Anonymous:
        """``WEIGHT_STRING(x [AS {CHAR | BINARY}(n)] [LEVEL levels])``, or its four numbers
        ``WEIGHT_STRING(x, length, weights, flags)``. With LEVEL (which sqlglot does not read),
        the four-number form the server reads it as: its flags as the levels give them
        (:data:`WS_PAD`, :data:`WS_DESC`, :data:`WS_REVERSE`), which the server settles by
        ``x``'s collation (how many levels it weighs) for this form as for the other. The
        server shows every form settled so (``weight_string(`s`,0,0,1)`` for
        ``WEIGHT_STRING(s)``, of a collation of one level): mvdd keeps the form as written,
        whose value is the same wherever it runs, as it does not know a collation's levels."""
        args = self._parse_csv(self._parse_assignment)
        if len(args) != 1:
            if len(args) != 4:
                self.raise_error("Expecting WEIGHT_STRING(x …) or WEIGHT_STRING(x, n, n, n)")
            return self.expression(exp.Anonymous(this="WEIGHT_STRING", expressions=args))
        to = self._match(TokenType.ALIAS) and self._parse_types()
        size = to.expressions[0].this if isinstance(to, exp.DataType) and to.expressions else None
        weights = int(size.name) if isinstance(size, exp.Literal) and size.name.isdigit() else 0
        kinds = (exp.DType.CHAR, exp.DType.BINARY)
        if to and not (isinstance(to, exp.DataType) and to.this in kinds and weights > 0):
            self.raise_error("Expecting CHAR(n) or BINARY(n), n above 0, in WEIGHT_STRING")
        if not self._match_text_seq("LEVEL"):
            return self.expression(exp.WeightString(this=args[0], to=to))
        if isinstance(to, exp.DataType) and to.this == exp.DType.BINARY:
            self.raise_error("WEIGHT_STRING(x AS BINARY(n)) takes no LEVEL")
        flags = (WS_PAD if to else 0) | self._parse_weight_levels()
        numbers = [exp.Literal.number(v) for v in (0, weights, flags)]
        return self.expression(exp.Anonymous(this="WEIGHT_STRING", expressions=[args[0], *numbers]))

    def _parse_weight_levels(self) -> int:
        """WEIGHT_STRING's ``LEVEL`` list (``1 DESC, 2 REVERSE, 3``) or range (``1-3``) as its
        flags: a bit for each level (1 to 6, a number past them the nearest), and each one's
        DESC and REVERSE bits (:data:`WS_DESC`, :data:`WS_REVERSE` shifted by its level)."""

        def level() -> int:
            token = self._curr
            if token is None or token.token_type != TokenType.NUMBER or not token.text.isdigit():
                self.raise_error("Expecting a level number in WEIGHT_STRING")
                return 1
            self._advance()
            return min(max(int(token.text), 1), 6)

        first = level()
        if self._match(TokenType.DASH):
            last = level()
            return sum(1 << (n - 1) for n in range(first, last + 1))
        flags = 0
        while True:
            own = 1
            if self._match(TokenType.DESC):
                own |= WS_DESC
            else:
                self._match(TokenType.ASC)
            if self._match_text_seq("REVERSE"):
                own |= WS_REVERSE
            flags |= own << (first - 1)
            if not self._match(TokenType.COMMA):
                return flags
            first = level()

    def _parse_column_get(self) -> exp.Expr:
        """``COLUMN_GET(dynamic, name AS type)``, its type one a CAST takes."""
        this = self._parse_bitwise()
        if not self._match(TokenType.COMMA):
            self.raise_error("Expecting a column's name in COLUMN_GET")
        start = self._index
        name = self._parse_bitwise()
        if not self._match(TokenType.ALIAS):
            self.raise_error("Expecting AS type in COLUMN_GET")
        to = self._parse_char_charset(self._parse_types(with_collation=True))
        if not isinstance(to, exp.DataType):
            self.raise_error("Expecting a type in COLUMN_GET")
        cast = exp.Cast(this=name, to=to)
        self._check_cast_type(cast, self._type_word(start, TokenType.ALIAS))
        return self.expression(ColumnGet(this=this, expression=cast))

    def _parse_between(self, this: exp.Expr | None) -> exp.Between:
        # MariaDB's bounds may themselves be an IN, a BETWEEN, a LIKE or a REGEXP, read
        # greedily (`x BETWEEN a AND b IN (1)` is `x BETWEEN a AND (b IN (1))`, and
        # `x NOT BETWEEN a NOT BETWEEN b AND c AND d` has `a NOT BETWEEN b AND c` below: the
        # server prints both so, without parentheses, and reads them back so); sqlglot takes a
        # bit expression there
        low = self._parse_range()
        self._match(TokenType.AND)
        curr = self._curr
        if curr is not None and curr.token_type == TokenType.NOT and curr.text != "!":
            self.raise_error("NOT after BETWEEN … AND: write !x, or (NOT x)")
        high = self._parse_range()
        return self.expression(exp.Between(this=this, low=low, high=high))

    def _parse_interval(
        self, require_interval: bool = True, parse_function_unit: bool = True
    ) -> exp.Add | exp.Interval | None:
        """``INTERVAL expr unit`` as MySQL's grammar reads it. Unlike sqlglot: no unit-less
        interval is read after a ``+`` (``d + INTERVAL 1 DAY + 5`` adds 5 to the sum, where
        sqlglot read ``d + (INTERVAL 1 DAY + INTERVAL 5)``, which no server takes back); an
        interval that leads an operand (not after a ``+`` or a ``-``) takes the whole
        predicate after its ``+`` as its date (``INTERVAL 1 DAY + d > a`` is
        ``(d > a) + INTERVAL 1 DAY``, ``INTERVAL 1 MONTH + d - INTERVAL 1 DAY`` adds the month
        last), as the server's grammar does and prints it; and ``INTERVAL(n, n1, …)`` is the
        function (the index of the last ``n_i`` not above ``n``), which sqlglot read as an
        interval over a tuple. (``require_interval`` is sqlglot's, for the unit-less interval
        it reads after a ``+``: the word is always required here.)"""
        index = self._index
        if not self._match(TokenType.INTERVAL):
            return None
        before = self._tokens[index - 1].token_type if index else None
        leading = index == self._interval_plus + 1 or before not in (TokenType.PLUS, TokenType.DASH)
        start = self._index
        this = self._parse_term()
        if isinstance(this, exp.Tuple) and not self._curr_is_unit():
            return exp.Anonymous(  # type: ignore[return-value]
                this="INTERVAL", expressions=list(this.expressions)
            )
        if this is not None and not self._curr_is_unit():
            self._retreat(start)  # (MySQL's grammar: any expression, ``INTERVAL 1 AND 3 DAY``)
            this = self._parse_disjunction()
        if this is None or (
            isinstance(this, exp.Column)
            and not this.table
            and not this.this.quoted
            and not self._curr_is_unit()
        ):
            self._retreat(index)
            return None
        # (its value as written: sqlglot makes a number a string, and reads a string as a
        # value and a unit, '1E+3' as 1 of unit E; a string's value is its leading integer to
        # the servers, INTERVAL '1.5' DAY one day where INTERVAL 1.5 DAY is two)
        literal = this.is_string or this.is_number
        interval = self._parse_interval_span(
            exp.Null() if literal else this, parse_function_unit=parse_function_unit
        )
        interval.set("this", this)
        if not leading or not self._match(TokenType.PLUS):
            return interval
        self._interval_plus = self._index - 1
        date = self._parse_equality()
        if date is None:
            self.raise_error("Expecting an expression after INTERVAL … +")
        return self.expression(exp.Add(this=date, expression=interval))

    def _curr_is_unit(self) -> bool:
        """The current token names an interval's unit."""
        return (
            self._curr is not None and self._curr.text.upper() in self.dialect.VALID_INTERVAL_UNITS
        )

    def _parse_unary(self) -> exp.Expr | None:
        # the word NOT negates an expression, not an operand: after an arithmetic, bitwise or
        # comparison operator, a LIKE, a BETWEEN or a `!` it is MySQL's syntax error (sqlglot
        # reads `1 + NOT 0`); `!` is the operand's negation
        curr = self._curr
        if (
            curr is not None
            and curr.token_type == TokenType.NOT
            and curr.text != "!"
            and self._prev is not None
            and (
                self._prev.token_type in _OPERATORS_BEFORE_AN_OPERAND
                or (self._prev.token_type == TokenType.NOT and self._prev.text == "!")
            )
        ):
            self.raise_error("NOT after an operator: write !x, or (NOT x)")
        this = super()._parse_unary()
        # x COLLATE co binds its operand alone, as MySQL's grammar has it (sqlglot read it as
        # a term's operator: 'a' COLLATE utf8mb4_bin * 2 collated by `utf8mb4_bin * 2`)
        while this is not None and self._curr and self._curr.token_type == TokenType.COLLATE:
            self._advance()  # (a token test first: the parser's every operand passes here)
            name = self._parse_string() or self._parse_var(any_token=True)
            if name is None:
                self.raise_error("Expecting a collation after COLLATE")
            this = self.expression(exp.Collate(this=this, expression=name))
            self._normalize_collate(this)
        return this

    def _parse_type(
        self, parse_interval: bool = True, fallback_to_identifier: bool = False
    ) -> exp.Expr | None:
        # BINARY x: its operand any operand, as MySQL's grammar has it (BINARY -1, BINARY
        # DATE'…', BINARY BINARY s), where sqlglot's MySQL read a column or a literal alone
        if self._curr is not None and self._curr.token_type == TokenType.BINARY:
            index = self._index
            to = self._parse_types(check_func=True, allow_identifiers=False)
            if isinstance(to, exp.DataType) and not to.expressions:
                operand = self._parse_unary()
                if operand is None:
                    self.raise_error("Expecting an operand after BINARY")
                return self.expression(exp.Cast(this=operand, to=to))
            self._retreat(index)
        return super()._parse_type(parse_interval, fallback_to_identifier)

    #: how the function parser under way reads its operands (:meth:`_whole`): 0 as sqlglot
    #: does, 1 the next one whole, 2 each one whole
    _whole_operands = 0

    def _whole(self, parse: Callable[[Any], exp.Expr | None]) -> Any:
        """A sqlglot function parser's reading, each operand it reads as a bitwise one read
        as a whole expression instead, as MySQL's grammar has them (``TRIM(1 = 0)``,
        ``SUBSTRING(s, a AND b)``, ``EXTRACT(DAY FROM d = e)``, ``CONVERT(a = b, SIGNED)``,
        which the servers take and sqlglot refused; mvdd's normal form writes ``NOT x`` as
        ``x = 0``, which must read back there)."""
        self._whole_operands = 2
        try:
            return parse(self)
        finally:
            self._whole_operands = 0

    def _parse_position(self, haystack_first: bool = False) -> exp.StrPosition:
        # POSITION(substr IN str): the string a whole expression, the substring an operand (an
        # IN of its own would take the word)
        index = self._index
        needle = self._parse_bitwise()
        if self._match(TokenType.IN):
            haystack = self._parse_disjunction()
            return self.expression(exp.StrPosition(this=haystack, substr=needle))
        self._retreat(index)
        return super()._parse_position(haystack_first)

    def _parse_bitwise(self) -> exp.Expr | None:
        whole = self._whole_operands
        if whole:  # (the operand of a function read whole: _whole)
            self._whole_operands = 0
            try:
                return self._parse_disjunction()
            finally:
                self._whole_operands = 0 if whole == 1 else whole  # (1: the next one alone)
        # a literal whose next token ends it is that literal: sqlglot reaches the same node
        # through the term, factor, exponent, unary and type levels (a DEFAULT 0 costs a
        # dozen calls there)
        if self._curr.token_type in self.PRIMARY_PARSERS and self._next.token_type in _OPERAND_ENDS:
            atom = self._parse_atom()
            if atom is not None:
                return atom
        return super()._parse_bitwise()

    def _parse_table_part(self, schema: bool = False) -> exp.Expr | None:
        # a string names no table nor database in MySQL's grammar (sqlglot takes one for a
        # quoted name): `"t"` is a syntax error there, a name under ANSI_QUOTES, which reads it
        # as a name token
        if self._curr is not None and self._curr.token_type == TokenType.STRING:
            self.raise_error(f"a string is not a name: {self._curr.text!r}")
        return super()._parse_table_part(schema)

    def _parse_bracket(self, this: exp.Expr | None = None) -> exp.Expr | None:
        if this is None and self._match(TokenType.L_BRACE):
            return self._parse_odbc_escape()
        return super()._parse_bracket(this)

    def _parse_utc(self, node: type[exp.Func]) -> exp.Expr:
        """``UTC_DATE``, ``UTC_TIME``, ``UTC_TIMESTAMP`` (after the word), with their
        parentheses and precision or without: reserved words, never a column's name."""
        this = None
        if self._match(TokenType.L_PAREN) and not self._match(TokenType.R_PAREN):
            this = self._parse_assignment()
            self._match_r_paren()
        return self.expression(node(this=this) if this is not None else node())

    def _parse_default_of(self) -> exp.Expr | None:
        """``DEFAULT(col)`` (after its word): the column's default, a call; None (the word
        given back) without its parenthesis."""
        if not self._match(TokenType.L_PAREN):
            self._retreat(self._index - 1)
            return None
        column = self._parse_column()
        self._match_r_paren()
        return self.expression(exp.Anonymous(this="DEFAULT", expressions=[column]))

    def _parse_odbc_escape(self) -> exp.Expr:
        """ODBC's escape ``{word value}`` (after its brace), as both servers read it:
        ``{d 'text'}``, ``{t 'text'}`` and ``{ts 'text'}`` are the DATE, TIME and TIMESTAMP
        literals of a text of that literal's form (:class:`TemporalLiteral`; any other text
        stays the string, which the server then reads where it stands); with another word
        (``{fn CONCAT(a, b)}``) or another value, the escape is its value, one operand.
        sqlglot reads a brace as a struct's."""
        word = self._parse_id_var(any_token=False)
        if word is None:
            self.raise_error("expected a word after '{': ODBC's escape is {word value}")
        value = self._parse_disjunction()
        if value is None or not self._match(TokenType.R_BRACE):
            self.raise_error("Expected }")
        to = _ODBC_LITERALS.get(word.name) if word is not None else None
        text = _string_text(value) if to is not None and value is not None else None
        if to is not None and text is not None:
            try:
                canonical, _ = temporal_literal(_TEMPORAL_LITERALS[to], text)
            except InvalidValueError:
                return value  # type: ignore[return-value]
            return self.expression(
                TemporalLiteral(this=exp.Literal.string(canonical), to=exp.DataType(this=to))
            )
        if value is None or (_alone(value) and not isinstance(value, exp.Between | exp.In)):
            return value  # type: ignore[return-value]
        return self.expression(exp.Paren(this=value))

    def _parse_properties(self, before: bool | None = None) -> exp.Properties | None:
        if not self._curr:
            return None  # nothing left to read (sqlglot would try each option's reader in turn)
        return super()._parse_properties(before)

    #: the sequence calls of the statement being read (None: outside a statement)
    _sequence_calls: list[exp.Anonymous] | None = None

    def _parse_statement(self) -> exp.Expr | None:
        # the statement's sequence calls (NEXTVAL(s) …), kept in its meta as ``sequences`` for
        # the reader of its steps, which qualifies them: no walk of every statement's tree
        outer, self._sequence_calls = self._sequence_calls, []
        try:
            node = self._parse_statement_itself()
        finally:
            calls, self._sequence_calls = self._sequence_calls, outer
        if calls and node is not None:
            node.meta["sequences"] = tuple(calls)
        return node

    def _parse_statement_itself(self) -> exp.Expr | None:
        curr = self._curr
        if (
            curr is not None
            and curr.token_type in (TokenType.VAR, TokenType.ANALYZE)
            and curr.text.upper() in _MAINTENANCE
        ):
            self._advance()
            return self._parse_maintenance(curr.text.upper())
        return super()._parse_statement()

    def _parse_maintenance(self, verb: str) -> Maintenance:
        logged, words = _MAINTENANCE[verb]
        if logged:
            self._match_texts(("NO_WRITE_TO_BINLOG", "LOCAL"))
        if not self._match(TokenType.TABLE) and not self._match_text_seq("TABLES"):
            self.raise_error(f"Expecting TABLE after {verb}", self._curr)
        tables = self._parse_csv(lambda: self._parse_table_parts(schema=True))
        if not tables:
            self.raise_error("Expecting a table name", self._curr)
        if verb == "ANALYZE":
            self._parse_analyze_options()
        elif verb == "OPTIMIZE":
            self._skip_wait()
        elif verb == "CHECKSUM":
            self._match_texts(words)
        else:
            while self._match_texts(words) or (
                verb == "CHECK" and self._match_text_seq("FOR", "UPGRADE")
            ):
                pass
        return self.expression(Maintenance(this=exp.var(verb), expressions=tables))

    def _parse_analyze_options(self) -> None:
        """MariaDB's ``PERSISTENT FOR {ALL | COLUMNS ([c, ...]) INDEXES ([i, ...])}`` and
        MySQL's ``{UPDATE | DROP} HISTOGRAM ON c [, ...] [WITH n BUCKETS]``."""
        if self._match_text_seq("PERSISTENT", "FOR"):
            if self._match(TokenType.ALL):
                return
            for word in ("COLUMNS", "INDEXES"):
                if not self._match_text_seq(word):
                    self.raise_error(f"Expecting {word}", self._curr)
                self._parse_wrapped_id_vars(optional=False)
        elif self._match_texts(("UPDATE", "DROP")):
            update = self._prev.text.upper() == "UPDATE"
            if not self._match_text_seq("HISTOGRAM", "ON"):
                self.raise_error("Expecting HISTOGRAM ON", self._curr)
            if not self._parse_csv(self._parse_id_var):
                self.raise_error("Expecting a column", self._curr)
            buckets = update and self._match_text_seq("WITH")
            if buckets and not (self._match(TokenType.NUMBER) and self._match_text_seq("BUCKETS")):
                self.raise_error("Expecting WITH n BUCKETS", self._curr)

    def _parse_alter_drop_action(self) -> exp.Expr | None:
        # (a DROP after another's comma: DROP SYSTEM VERSIONING and DROP PERIOD FOR SYSTEM_TIME
        # as after the first)
        if _is_keyword(self._next, "SYSTEM", "PERIOD") and _is_keyword(self._curr, "DROP"):
            self._advance()
            node = self._parse_system_versioning("DROP") or self._parse_system_period("DROP")
            if node is not None:
                return node
            self._retreat(self._index - 1)
        return super()._parse_alter_drop_action()

    def _parse_system_period(self, word: str) -> SystemPeriod | None:
        """An ALTER TABLE's ``ADD PERIOD FOR SYSTEM_TIME (start, end)`` or ``DROP PERIOD FOR
        SYSTEM_TIME`` (a column named period is quoted there, or said after COLUMN: the
        word bare right after ADD or DROP begins a PERIOD FOR, as in the server's grammar)."""
        if not _is_keyword(self._curr, "PERIOD"):
            return None
        if not _is_keyword(self._next, "FOR"):
            self.raise_error("Expecting FOR after PERIOD", self._next or self._curr)
        if not self._match_text_seq("PERIOD", "FOR", "SYSTEM_TIME"):
            return None  # (an application-time period's: unsupported)
        columns = self._parse_wrapped_id_vars() if word == "ADD" else []
        if word == "ADD" and len(columns) != 2:
            self.raise_error("Expecting PERIOD FOR SYSTEM_TIME (start, end)", self._prev)
        return self.expression(SystemPeriod(this=exp.var(word), expressions=columns))

    def _parse_system_versioning(self, word: str) -> SystemVersioning | None:
        if not _is_keyword(self._curr, "SYSTEM"):
            return None
        # right after ADD, DROP or WITH a bare SYSTEM is the keyword, never a column's name
        if not _is_keyword(self._next, "VERSIONING"):
            self.raise_error("Expecting VERSIONING after SYSTEM", self._next or self._curr)
        self._advance(2)
        return self.expression(SystemVersioning(this=exp.var(word)))

    def _parse_sequence_call(self, name: str) -> exp.Anonymous:
        """``NEXTVAL(s)``, ``LASTVAL(s)``, ``SETVAL(s, n, …)``: the sequence a table's name;
        SETVAL's left-out arguments as the server writes them (is_used 1, round 0)."""
        args: list[exp.Expr | None] = [self._parse_table_parts()]
        while self._match(TokenType.COMMA):
            args.append(self._parse_assignment())
        low, high = (2, 4) if name == "SETVAL" else (1, 1)
        if not low <= len(args) <= high:
            self.raise_error(f"{name} takes {low} to {high} arguments", self._curr)
        if name == "SETVAL":
            args.extend(exp.Literal.number(n) for n in _SETVAL_LEFT_OUT[len(args) - 2 :])
        return self._sequence_call(name, args)

    def _sequence_call(self, name: str, args: list[exp.Expr | None]) -> exp.Anonymous:
        call = self.expression(exp.Anonymous(this=name, expressions=args))
        if self._sequence_calls is not None:  # (None: an expression read outside a statement)
            self._sequence_calls.append(call)
        return call

    def _parse_serial_default(self) -> SerialDefault:
        if not self._match_text_seq("DEFAULT", "VALUE"):
            self.raise_error("Expecting DEFAULT VALUE after SERIAL", self._curr)
        return self.expression(SerialDefault())

    def _parse_set_statement(self) -> exp.Expr:
        if not self._curr:
            self.raise_error("Expecting what to SET", self._prev)
        if not _is_keyword(self._curr, "STATEMENT") or (
            self._next is not None and self._next.token_type == TokenType.EQ
        ):
            return MySQLParser.STATEMENT_PARSERS[TokenType.SET](self)
        self._advance()

        def setting() -> exp.Expr | None:
            if self._match(TokenType.PARAMETER, advance=False):
                self.raise_error("Expecting a system variable", self._curr)  # not @user ones
            name = self._parse_id_var(any_token=False)
            if name is None:
                return None
            if not self._match(TokenType.EQ):
                self.raise_error("Expecting =", self._curr)
            value = self._parse_disjunction()
            if value is None:
                self.raise_error("Expecting a value", self._curr)
            return self.expression(exp.EQ(this=name, expression=value))

        settings = self._parse_csv(setting)
        if not settings:
            self.raise_error("Expecting a variable after SET STATEMENT", self._curr)
        if not self._match(TokenType.FOR):
            self.raise_error("Expecting FOR", self._curr)
        statement = self._parse_statement()
        if statement is None:
            self.raise_error("Expecting a statement after FOR", self._curr)
        return self.expression(SetStatement(this=statement, expressions=settings))

    def _parse_comparison(self, this: exp.Expr | None = None) -> exp.Expr | None:
        # MySQL's comparison operators (=, <=>, <>, !=, <, <=, >, >=) are one left-associative
        # level, so `a = 0 < a` is `(a = 0) < a`; sqlglot puts = and <=> below the others and
        # would read `a = (0 < a)`, a different value than the server's and than mvdd's
        # rendering (mvdd.ddl.expr) means
        this = this or self._parse_range()
        while self._match_set(self._COMPARING):
            comments = self._prev_comments
            this = self._build_predicate(
                self._COMPARING[self._prev.token_type], this, self._parse_range(), comments=comments
            )
        return this

    def _parse_ordered(self, parse_method: Any = None) -> exp.Ordered | None:
        # sqlglot reads NULLS FIRST / NULLS LAST (and ClickHouse's WITH FILL) after an ordered
        # item; MySQL and MariaDB have neither, and an explicit NULLS FIRST reads into the same
        # tree as none at all, so the words are refused where they are read
        ordered = super()._parse_ordered(parse_method)
        if ordered is not None:
            words = [t.text.upper() for t in self._tokens[max(self._index - 2, 0) : self._index]]
            if ordered.args.get("with_fill") or (
                len(words) == 2 and words[0] == "NULLS" and words[1] in ("FIRST", "LAST")
            ):
                self.raise_error("MySQL and MariaDB order no NULLS FIRST or LAST", self._prev)
        return ordered

    def _parse_csv(self, parse_method: Any, sep: TokenType = TokenType.COMMA) -> list[Any]:
        # sqlglot drops an empty item after a separator, so `(a INT,)` and `DROP b,` would read
        # as complete; here a separator with nothing after it is left unread, for the caller to
        # refuse (or, in ALTER TABLE, to start the next action of another kind)
        items: list[Any] = []
        first = parse_method()
        if first is not None:
            items.append(first)
        elif self._match(sep, advance=False):
            self.raise_error(f"Expecting an item before {self._curr.text!r}", self._curr)
        while True:
            before = self._index
            if not self._match(sep):
                return items
            item = parse_method()
            if item is None:
                self._retreat(before)
                return items
            if isinstance(items[-1] if items else None, exp.Expr):
                self._add_comments(items[-1])
            items.append(item)

    def _parse_property(self) -> Any:
        # sqlglot reads a dangling DEFAULT (`CREATE TABLE t (a INT) DEFAULT`) as nothing and
        # drops it; here the word stays unread, so the statement fails as the server's does
        index = self._index
        node = super()._parse_property()
        if node is None:
            self._retreat(index)
        elif type(node) is exp.Property and self._prev is not None and self._index > index + 1:
            # the value as written (quoted or not, a reserved word or a name): the grammar of a
            # table option's value, which mvdd's own rules judge (mvdd.ddl.options.check_written)
            at = index + 1
            while at < self._index - 1 and self._tokens[at - 1].token_type != TokenType.EQ:
                at += 1
            node.meta["written"] = self.sql[self._tokens[at].start : self._prev.end + 1]
        return node

    @property
    def _type_after(self) -> tuple[TokenType, ...]:
        """The tokens a CAST's or a CONVERT's type follows (where SIGNED is one)."""
        return (TokenType.ALIAS, TokenType.COMMA) if self._converting else (TokenType.ALIAS,)

    def _parse_types(self, *args: Any, **kwargs: Any) -> exp.Expr | None:
        start = self._index
        curr = self._curr
        if (
            curr is not None
            and curr.token_type == TokenType.VAR
            and curr.text.upper() in _ORACLE_TYPES
        ):
            return None
        signed = _is_keyword(self._curr, *_SIGNED_WORDS)
        if signed and not (self._prev is not None and self._prev.token_type in self._type_after):
            # sqlglot reads a bare UNSIGNED as a type; in MySQL it only qualifies one, but
            # in CAST(x AS UNSIGNED) and CONVERT(x, UNSIGNED), where it is one
            return None
        plain = self._plain_type()
        if plain is not None:
            return plain
        result = super()._parse_types(*args, **kwargs)
        if signed and self._prev.text.upper() in ("SIGNED", "UNSIGNED"):
            self._match_set((TokenType.INT,))  # (CAST(x AS SIGNED INT): INTEGER is INT's token)
        if isinstance(result, exp.DataType):
            # sqlglot skips empty parameters: INT(,) would silently be INT
            spans = self._tokens[start : self._index]
            for left, right in itertools.pairwise(spans):
                if left.token_type in (TokenType.L_PAREN, TokenType.COMMA) and right.token_type in (
                    TokenType.COMMA,
                    TokenType.R_PAREN,
                ):
                    self.raise_error("Empty type parameter", right)
        if (
            isinstance(result, exp.DataType)
            and result.this == exp.DType.FLOAT
            and self._index > start
            and _is_keyword(self._prev, "UNSIGNED")
        ):
            return UnsignedFloat(**result.args)
        if kwargs.get("schema") and isinstance(result, exp.DataType) and _spatial(result):
            self._skip_ref_system_id()
        return result

    def _skip_ref_system_id(self) -> None:
        """MariaDB's ``REF_SYSTEM_ID = n`` right after a column's geometry type: the SRID of
        its values, which the server neither shows nor checks, nor does mvdd keep."""
        ahead = self._tokens[self._index : self._index + 3]
        if (
            len(ahead) == 3
            and _is_keyword(ahead[0], "REF_SYSTEM_ID")
            and ahead[1].token_type == TokenType.EQ
            and ahead[2].token_type == TokenType.NUMBER
        ):
            self._advance(3)

    def _parse_cast(self, strict: bool, safe: bool | None = None) -> exp.Expr:
        start = self._index
        node = super()._parse_cast(strict, safe)
        if isinstance(node, exp.Cast):
            self._check_cast_type(node, self._type_word(start, TokenType.ALIAS))
        return node

    #: a CONVERT's type is under way: ``SIGNED`` and ``UNSIGNED`` are types there, as after
    #: a CAST's AS (:meth:`_parse_types`)
    _converting = False

    def _parse_convert(self, strict: bool, safe: bool | None = None) -> exp.Expr | None:
        start, was = self._index, self._converting
        # (its value a whole expression, CONVERT(a = b, SIGNED): _whole)
        self._whole_operands, self._converting = 1, True
        try:
            node = super()._parse_convert(strict, safe)
        finally:
            self._whole_operands, self._converting = 0, was
        if not isinstance(node, exp.Cast):
            return node
        word = self._type_word(start, TokenType.COMMA)
        if word is None:  # CONVERT(x USING cs): the server keeps it apart from a CAST
            charset = node.to.args.get("kind")
            if charset is None:
                self.raise_error("Expecting a character set after USING")
                raise AssertionError("unreachable")  # raise_error raises (error_level IMMEDIATE)
            charset = exp.var(canonical_charset(charset.name))
            return self.expression(ConvertUsing(this=node.this, charset=charset))
        self._check_cast_type(node, word)
        return node

    def _type_word(self, start: int, before: TokenType) -> Any:
        """The token after the first ``before`` outside parentheses since ``start``: the first
        word of a CAST's (``AS``) or a CONVERT's (``,``) type; None when there is none."""
        depth = 0
        for index in range(start, self._index - 1):
            kind = self._tokens[index].token_type
            depth += (kind == TokenType.L_PAREN) - (kind == TokenType.R_PAREN)
            if depth == 0 and kind == before:
                return self._tokens[index + 1]
        return None

    def _check_cast_type(self, node: exp.Cast, word: Any) -> None:
        """Raise unless ``node``'s type (``word`` its first) is one a CAST of MySQL or MariaDB
        takes, with the parameters it takes: sqlglot takes any type (``CAST(x AS TINYINT)``),
        which both servers refuse as a syntax error."""
        if word is None or not isinstance(node.to, exp.DataType):
            return
        name = word.text.upper() if word.token_type != TokenType.IDENTIFIER else ""
        sizes = _CAST_TYPES.get(name)
        if sizes is None or node.to.this in _NEVER_CAST:
            self.raise_error(
                f"{word.text} is no type a CAST takes (BINARY, CHAR, "
                "NCHAR, DATE, DATETIME, TIME, DECIMAL, DOUBLE, FLOAT, SIGNED, UNSIGNED, …)",
                word,
            )
        elif not sizes[0] <= len(node.to.expressions) <= sizes[1]:
            self.raise_error(f"a CAST's {name} takes {_SIZES_TAKEN[sizes]}", word)
        elif self._curr is not None and self._curr.token_type == TokenType.R_PAREN:
            _check_cast_sizes(node.to)  # (the server's, once it has read the whole CAST)

    def _parse_char_charset(self, to: exp.Expr | None) -> exp.Expr | None:
        """A CAST's or a CONVERT's type with the words that may follow ``CHAR[(n)]`` (or
        MariaDB's ``VARCHAR(n)``): ``ASCII`` (latin1) or ``UNICODE`` (ucs2), each with
        ``BINARY`` before or after it or a ``COLLATE`` after it; ``BYTE`` (binary); ``BINARY``
        alone or before ``CHARACTER SET cs``; ``CHARACTER SET cs`` with ``BINARY`` or
        ``COLLATE co`` after it; ``COLLATE co`` alone. The union of MariaDB's grammar and
        MySQL's (whose words are a subset); anything else after the type is the server's
        syntax error.

        A charset or a collation named makes the type the server's form of it,
        ``CHAR[(n)] CHARACTER SET cs`` (``cs`` canonical: the one named, or the collation's),
        its ``collate`` the word ``BINARY`` when the collation is a binary one (the word, or a
        ``_bin`` collation) and None otherwise: the server keeps no other collation
        (``CAST(a AS CHAR COLLATE latin1_german1_ci)`` is ``cast(a as char charset latin1)``).
        Raises DDLError, as the server's parser does, for an unknown charset or collation or a
        collation of another charset. A type naming neither keeps its ``collate`` BINARY (of
        ``CHAR BINARY``): :func:`mvdd.ddl.statement.cast_charsets` names the session's charset."""
        if not isinstance(to, exp.DataType):
            return to
        if to.this not in (exp.DType.CHAR, exp.DType.VARCHAR):
            if to.args.get("collate") is not None:
                self.raise_error(f"COLLATE after {to.this.value} in a CAST")
            return to
        collate = to.args.get("collate")
        if collate is None and self._match(TokenType.COLLATE):
            collate = self._parse_identifier() or self._parse_column()
        binary = collate is None and self._match_word("BINARY")
        charset: exp.Expr | None = None
        word = self._curr.text.upper() if self._curr is not None else ""
        if collate is not None:
            pass  # (CHAR COLLATE co: nothing more)
        elif _is_keyword(self._curr, *_CAST_CHARSET_WORDS) and not (binary and word == "BYTE"):
            self._advance()
            charset = exp.var(_CAST_CHARSET_WORDS[word])
        elif self._match(TokenType.CHARACTER_SET) or self._match_text_seq("CHARACTER", "SET"):
            charset = self._parse_var_or_string()
            if charset is None:
                self.raise_error("Expecting a character set after CHARACTER SET")
        if charset is not None and not binary and word != "BYTE":
            binary = self._match_word("BINARY")
            if not binary and self._match(TokenType.COLLATE):
                collate = self._parse_identifier() or self._parse_column()
        if self._curr is not None and self._curr.token_type == TokenType.COLLATE:
            self.raise_error("COLLATE after BINARY or BYTE in a CAST")
        if charset is None and collate is None:
            if binary:
                to.set("collate", exp.var("BINARY"))
            return to
        cs, co = resolve_charset(
            charset.name if charset is not None else None,
            collate.name if collate is not None else None,
        )
        assert cs is not None and co is not None
        binary = cs != "binary" and (binary or co.endswith("_bin"))
        return exp.DataType(
            this=exp.DType.CHARACTER_SET,
            expressions=to.expressions,
            kind=exp.var(cs),
            collate=exp.var("BINARY") if binary else None,
        )

    def _match_word(self, word: str) -> bool:
        """The current token is the unquoted ``word``: consumed, True."""
        if _is_keyword(self._curr, word):
            self._advance()
            return True
        return False

    def _parse_temporal_literal(self, this: exp.Expr, to: exp.DataType) -> exp.Expr:
        """``DATE 'text'``, ``TIME 'text'``, ``TIMESTAMP 'text'``: a TemporalLiteral of the
        text's canonical form (``DATE '2020-1-1'`` is ``DATE '2020-01-01'``, as the server
        shows it), the text checked. A DATETIME, a precision or anything but a quoted text
        after the word is no literal MySQL reads."""
        kind = _TEMPORAL_LITERALS.get(to.this)
        if kind is None:
            self.raise_error(
                f"{to.sql(dialect=MvddMySQL)} 'text' is no literal: DATE, TIME "
                "and TIMESTAMP 'text' are"
            )
        elif to.expressions:
            self.raise_error(f"a {LITERAL_WORDS[kind]} literal takes no precision")
        elif not (isinstance(this, exp.Literal) and this.is_string):
            self.raise_error(f"a {LITERAL_WORDS[kind]} literal is a quoted text")
        else:
            try:
                value, _ = temporal_literal(kind, this.this)
            except InvalidValueError as err:
                # (the server's error 1525 is no syntax error: the text parsed)
                raise DDLError(f"Incorrect {LITERAL_WORDS[kind]} value: {err.message}") from None
            return self.expression(TemporalLiteral(this=exp.Literal.string(value), to=to))
        return exp.Cast(this=this, to=to)  # (an error was raised)

    def _plain_type(self) -> exp.DataType | None:
        """A type named by one bare keyword that a token ending the type follows (``INT`` in
        ``a INT DEFAULT 1``): the node sqlglot's full path reaches, without its walk (a column
        definition's type costs a dozen checks there); None otherwise."""
        dtype = _PLAIN_TYPES.get(self._curr.token_type)
        if dtype is None or self._next.token_type not in _TYPE_ENDS:
            return None
        self._advance()
        return exp.DataType(this=dtype, expressions=None, nested=False)

    def _parse_atom(self) -> exp.Expr | None:
        # (sqlglot's fast path for one token would end N'a' before the 'b' it runs on with)
        curr, after = self._curr, self._next
        if (
            curr.token_type in _WORDS
            and _is_keyword(after, "VALUE")
            and curr.text.upper() in _VALUE_FOR
            and self._index + 2 < len(self._tokens)
            and _is_keyword(self._tokens[self._index + 2], "FOR")
        ):
            # MariaDB's NEXT VALUE FOR s and PREVIOUS VALUE FOR s: NEXTVAL(s) and LASTVAL(s)
            self._advance(3)
            return self._sequence_call(_VALUE_FOR[curr.text.upper()], [self._parse_table_parts()])
        if (
            curr.token_type == TokenType.NATIONAL_STRING
            and after is not None
            and after.token_type == TokenType.STRING
        ):
            return None
        return super()._parse_atom()

    def _parse_primary(self) -> exp.Expr | None:
        # adjacent string literals are one literal in MySQL ('a' 'b' is 'ab', in a DEFAULT
        # too); sqlglot reads them as CONCAT, which its explicit CONCAT(...) marks as safe
        curr, after = self._curr, self._next
        if (
            curr is not None
            and curr.token_type == TokenType.DOT
            and after is not None
            and after.token_type == TokenType.NUMBER
            and "e" in after.text.lower()
        ):
            # .5e-2 as written, as the server keeps a number with an exponent (sqlglot makes
            # 0.5e-2 of it; a plain .5 is 0.5 on the server too)
            self._advance(2)
            return exp.Literal.number(f".{after.text}")
        node = super()._parse_primary()
        if isinstance(node, exp.National):  # (N'a' 'b' is N'ab')
            parts = [node.this]
            while self._curr is not None and self._curr.token_type == TokenType.STRING:
                parts.append(self._curr.text)
                self._advance()
            return node if len(parts) == 1 else self.expression(exp.National(this="".join(parts)))
        if (
            isinstance(node, exp.Concat)
            and not node.args.get("safe")
            and all(isinstance(e, exp.Literal) and e.is_string for e in node.expressions)
        ):
            return exp.Literal.string("".join(e.this for e in node.expressions))
        return node

    def _parse_column_constraint(self) -> exp.Expr | None:
        if self._definition_ends():
            return None
        if _is_keyword(self._curr, "SIGNED"):
            # sqlglot's MySQL dialect drops a SIGNED wherever it stands among the attributes;
            # the grammar has it right after the type (mvdd.ddl.column checks where it stands)
            self._advance()
            return self.expression(exp.ColumnConstraint(kind=Signedness(this=exp.var("SIGNED"))))
        bare = self._curr is not None and self._curr.token_type == TokenType.CONSTRAINT
        node = super()._parse_column_constraint()
        if bare and isinstance(node, exp.ColumnConstraint) and node.this is None:
            # CONSTRAINT without a name, which sqlglot passes over: the word is kept as an
            # empty name (mvdd.ddl.column takes it where a column's CHECK may be named)
            node.set("this", exp.to_identifier(""))
        return node

    def _definition_ends(self) -> bool:
        """Whether a column definition ends here (its statement, a comma, a parenthesis): no
        attribute follows, which sqlglot's full path finds by trying each attribute's word."""
        return self._curr.token_type in _DEFINITION_ENDS

    def _parse_primary_key(self, *args: Any, **kwargs: Any) -> Any:
        # PRIMARY KEY [IF NOT EXISTS] [USING {BTREE|HASH}] (key_part, ...): MariaDB's IF NOT
        # EXISTS, and the index type may come first
        exists = self._key_if_not_exists()
        using = self._parse_index_type() if self._match(TokenType.USING, advance=False) else None
        node = super()._parse_primary_key(*args, **kwargs)
        include = node.args.get("include") if isinstance(node, exp.PrimaryKey) else None
        if isinstance(include, exp.IndexParameters) and include.args.get("using"):
            using = None  # (a USING after the columns overrides one before them)
        if using and isinstance(node, exp.PrimaryKey):
            node.set(
                "options",
                [exp.IndexConstraintOption(using=using), *(node.args.get("options") or [])],
            )
        if exists:
            if not isinstance(node, exp.PrimaryKey):  # a column's PRIMARY KEY takes no IF
                self.raise_error("Expecting the key's columns after PRIMARY KEY IF NOT EXISTS")
            node.set("exists", True)
        return node

    def _parse_primary_key_part(self) -> exp.Expr | None:
        # a primary key part is a key part too: col [(length)] [ASC | DESC]
        return self._parse_index_key_part()

    def _parse_index_key_part(self) -> exp.Expr | None:
        part = super()._parse_index_key_part()
        if part is not None and self._match_text_seq("WITHOUT", "OVERLAPS"):
            return self.expression(WithoutOverlaps(this=part))
        return part

    def _parse_period(self) -> exp.Expr | None:
        """``PERIOD FOR SYSTEM_TIME (start, end)`` as sqlglot reads it, and MariaDB's
        application-time ``PERIOD FOR name (start, end)`` (:class:`ApplicationPeriod`)."""
        if self._match_text_seq("FOR", "SYSTEM_TIME", advance=False):
            return self._parse_period_for_system_time()
        if not self._match_text_seq("FOR"):
            self._retreat(self._index - 1)  # a column named period
            return None
        name = self._parse_id_var()
        columns = self._parse_wrapped_id_vars()
        if name is None or len(columns) != 2:
            self.raise_error("Expecting PERIOD FOR name (start, end)")
        return self.expression(ApplicationPeriod(this=name, expressions=columns))

    def _parse_index_constraint_part(self) -> exp.Expr | None:
        # as sqlglot's, but reading a prefixed column with the plain part parser (the one above
        # now reads whole key parts)
        if (
            not self._match(TokenType.L_PAREN, advance=False)
            and self._next
            and self._next.token_type == TokenType.L_PAREN
        ):
            return MySQLParser._parse_primary_key_part(self)
        return self._parse_disjunction()

    def _parse_alter_table_rename(self) -> Any:
        # RENAME [TO | AS] new_name; sqlglot knows TO and none
        if self._match_texts(("INDEX", "KEY"), advance=False):
            # RENAME {INDEX | KEY} [IF EXISTS] old TO new (MariaDB's IF EXISTS): sqlglot takes
            # the TO as optional
            self._advance()
            exists = self._match_text_seq("IF", "EXISTS")
            old = self._parse_id_var()
            if not self._match_text_seq("TO"):
                self.raise_error("Expecting TO", self._curr)
            node = self.expression(exp.RenameIndex(this=old, to=self._parse_id_var()))
            if exists:
                node.set("exists", True)
            return node
        if self._match(TokenType.ALIAS):
            return self.expression(exp.AlterRename(this=self._parse_table(schema=True)))
        return super()._parse_alter_table_rename()

    _in_alter = False
    #: whether the ALTER being read has an action on partitions
    _on_partitions = False

    def _parse_alter(self) -> exp.Expr:  # type: ignore[override]
        start = self._prev
        if self._match_texts(("DATABASE", "SCHEMA")):
            return self._parse_alter_database(start)
        if _is_keyword(self._curr, "SEQUENCE"):
            self._advance()
            return self._parse_sequence("ALTER")
        ran_as = self._index
        while self._match_texts(("ONLINE", "IGNORE")):
            pass
        if self._index > ran_as and not self._match(TokenType.TABLE, advance=False):
            self._retreat(ran_as)
            return self._parse_as_command(start)
        bare = self._parse_bare_alter()
        if bare is not None:
            return bare
        self._in_alter = True
        self._on_partitions = False
        try:
            node = super()._parse_alter()
        finally:
            self._in_alter = False
        if isinstance(node, exp.Alter) and self._prev.token_type == TokenType.COMMA:
            self.raise_error("Expecting an action after ','", self._prev)
        if (
            self._on_partitions
            and isinstance(node, exp.Alter)
            and (len(node.args.get("actions") or ()) > 1 or node.args.get("options"))
        ):
            # the grammar's: an action on partitions is the ALTER TABLE's only clause
            self.raise_error(
                "an action on partitions or on the tablespace goes alone in its ALTER TABLE"
            )
        if isinstance(node, exp.Command) and self._index > ran_as:
            # the fallback took the word after ALTER as the verb; name the statement's verb
            return exp.Command(this="ALTER", expression=node.args.get("expression"))
        return node

    def _parse_order_by_option(self) -> exp.Expr | None:
        # ALTER TABLE … ORDER BY a, b: its list takes every comma after it, so no clause follows
        # it (`ORDER BY a, DROP c` is a syntax error on both servers)
        node = self._parse_order(skip_order_token=True)
        if self._match(TokenType.COMMA, advance=False):
            self.raise_error("Expecting a column after ORDER BY's comma", self._next)
        return node

    def _parse_storage_option(self, word: str) -> StorageOption:
        self._match(TokenType.EQ)
        value = self._parse_id_var(any_token=False)
        if value is None:
            self.raise_error(f"Expecting a name after {word}", self._curr)
        return self.expression(StorageOption(this=exp.var(word), value=value))

    # -- partitioning ---------------------------------------------------------------------------

    def _parse_partitioning(self) -> Partitioning:
        """The clause after ``PARTITION BY``: the statement's last (it follows the other
        options and actions of an ALTER TABLE without a comma)."""
        self._not_after_comma("PARTITION BY")
        function = self._parse_partition_function(sub=False)
        count = self._parse_partition_count("PARTITIONS")
        sub = subcount = None
        if self._match_text_seq("SUBPARTITION", "BY"):
            sub = self._parse_partition_function(sub=True)
            subcount = self._parse_partition_count("SUBPARTITIONS")
        definitions = None
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            definitions = self._parse_wrapped_csv(self._parse_partition_definition)
        self._ends_statement("PARTITION BY")
        return self.expression(
            Partitioning(
                this=function,
                partitions=count,
                sub=sub,
                subpartitions=subcount,
                expressions=definitions,
            )
        )

    def _ends_statement(self, what: str) -> None:
        if self._curr and self._curr.token_type == TokenType.COMMA:
            self.raise_error(f"{what} ends its statement", self._curr)

    def _not_after_comma(self, what: str) -> None:
        before = self._tokens[self._index - 2] if self._index >= 2 else None
        if before is not None and before.token_type == TokenType.COMMA:
            self.raise_error(f"{what} follows the ALTER TABLE actions without a comma", before)

    def _parse_remove_partitioning(self) -> Partitioning:
        self._not_after_comma("REMOVE PARTITIONING")
        if not self._match_text_seq("PARTITIONING"):
            self.raise_error("Expecting PARTITIONING after REMOVE", self._curr)
        self._ends_statement("REMOVE PARTITIONING")
        return self.expression(Partitioning())

    def _parse_partition_function(self, *, sub: bool) -> PartitionFunction:
        linear = self._match_text_seq("LINEAR")
        if self._match_text_seq("HASH"):
            args = self._parse_wrapped_csv(self._parse_assignment)
            if len(args) != 1:
                self.raise_error("HASH takes one expression", self._prev)
            return self.expression(PartitionFunction(this="HASH", linear=linear, expressions=args))
        if self._match_text_seq("KEY"):
            if self._match_text_seq("ALGORITHM"):
                self._match(TokenType.EQ)
                if not self._match_texts(("1", "2")):
                    self.raise_error("Expecting ALGORITHM = 1 or 2", self._curr)
            columns = self._parse_wrapped_csv(self._parse_id_var)
            return self.expression(
                PartitionFunction(this="KEY", linear=linear, columns=True, expressions=columns)
            )
        if not (sub or linear) and self._match_texts(("RANGE", "LIST")):
            kind = self._prev.text.upper()
            if self._match_text_seq("COLUMNS"):
                columns = self._parse_wrapped_csv(self._parse_id_var)
                if not columns:
                    self.raise_error(f"{kind} COLUMNS takes at least one column", self._prev)
                return self.expression(
                    PartitionFunction(this=kind, columns=True, expressions=columns)
                )
            args = self._parse_wrapped_csv(self._parse_assignment)
            if len(args) != 1:
                self.raise_error(f"{kind} takes one expression", self._prev)
            return self.expression(PartitionFunction(this=kind, expressions=args))
        if not (sub or linear) and self._match_text_seq("SYSTEM_TIME"):
            return self.expression(
                PartitionFunction(this="SYSTEM_TIME", expressions=self._parse_system_time())
            )
        what = "HASH or KEY" if sub or linear else "HASH, KEY, RANGE, LIST or SYSTEM_TIME"
        self.raise_error(f"Expecting {what}", self._curr)
        raise AssertionError("unreachable")  # raise_error raises (error_level IMMEDIATE)

    def _parse_system_time(self) -> list[exp.Expr]:
        """MariaDB's ``[INTERVAL n unit [STARTS time] [AUTO]] [LIMIT n [AUTO]]``."""
        out: list[exp.Expr] = []
        if self._match(TokenType.INTERVAL):
            # (read here: sqlglot's interval takes the partitions' list after it for a unit's
            # precision, `HOUR (PARTITION …)`)
            value = self._required(self._parse_bitwise(), "an interval after INTERVAL")
            unit = self._parse_var(any_token=True)
            if unit is None or unit.name.upper() not in _INTERVAL_UNITS:
                self.raise_error("Expecting an interval's unit", self._prev)
            out.append(self.expression(exp.Interval(this=value, unit=unit)))
            if self._match_text_seq("STARTS"):
                out.append(self._required(self._parse_bitwise(), "a time after STARTS"))
            self._match_text_seq("AUTO")
        if self._match(TokenType.LIMIT):
            out.append(self._parse_required_number("LIMIT"))
            self._match_text_seq("AUTO")
        return out

    def _parse_partition_count(self, word: str) -> exp.Expr | None:
        return self._parse_required_number(word) if self._match_text_seq(word) else None

    def _parse_required_number(self, after: str) -> exp.Expr:
        return self._required(self._parse_number(), f"a number after {after}")

    def _required(self, node: exp.Expr | None, what: str) -> exp.Expr:
        if node is None:
            self.raise_error(f"Expecting {what}", self._curr)
        assert node is not None  # raise_error raises (error_level IMMEDIATE)
        return node

    def _parse_partition_definition(self, word: str = "PARTITION") -> PartitionDefinition:
        if not self._match_text_seq(word):
            self.raise_error(f"Expecting {word}", self._curr)
        name = self._parse_id_var(any_token=False)
        if name is None:
            self.raise_error(f"Expecting the {word.lower()}'s name", self._curr)
        kind, values = None, None
        if self._match(TokenType.VALUES):
            if self._match_text_seq("LESS", "THAN"):
                kind = "LESS THAN"
                values = (
                    [exp.var("MAXVALUE")]
                    if self._match_text_seq("MAXVALUE")
                    else self._parse_wrapped_csv(self._parse_assignment)
                )
            elif self._match(TokenType.IN):
                kind, values = "IN", self._parse_wrapped_csv(self._parse_assignment)
            else:
                self.raise_error("Expecting LESS THAN or IN after VALUES", self._curr)
        elif self._match_texts(("CURRENT", "HISTORY")) or self._match(TokenType.DEFAULT):
            kind = self._prev.text.upper()
        options = []
        while True:
            option = self._parse_partition_option()
            if option is None:
                break
            options.append(option)
        subs = None
        if word == "PARTITION" and self._curr and self._curr.token_type == TokenType.L_PAREN:
            subs = self._parse_wrapped_csv(lambda: self._parse_partition_definition("SUBPARTITION"))
        return self.expression(
            PartitionDefinition(
                this=name, kind=kind, values=values, options=options, expressions=subs
            )
        )

    def _parse_partition_option(self) -> exp.Property | None:
        """One option of a partition: ``[STORAGE] ENGINE``, ``COMMENT``, ``MAX_ROWS``,
        ``MIN_ROWS``, ``NODEGROUP`` (numbers), each with an optional ``=``; ``TABLESPACE`` and
        ``{DATA | INDEX} DIRECTORY`` as a table's."""
        if self._match_text_seq("STORAGE", "ENGINE") or self._match_text_seq("ENGINE"):
            word, read = "ENGINE", lambda: self._parse_var(any_token=True)
        elif self._match_text_seq("COMMENT"):
            word, read = "COMMENT", self._parse_string
        elif self._match_texts(("MAX_ROWS", "MIN_ROWS", "NODEGROUP")):
            word, read = self._prev.text.upper(), self._parse_number
        elif self._match_text_seq("TABLESPACE"):
            return self._parse_storage_option("TABLESPACE")
        elif self._match_texts(("DATA", "INDEX")):
            directory = self._parse_directory(self._prev.text.upper())
            if directory is None:
                self._retreat(self._index - 1)
            return directory
        else:
            return None
        self._match(TokenType.EQ)
        value = read()
        if value is None:
            self.raise_error(f"Expecting a value for {word}", self._curr)
        return self.expression(exp.Property(this=exp.var(word), value=value))

    def _parse_partition_names(self, verb: str) -> dict[str, Any]:
        """``ALL`` or partition names, for the verbs that take either."""
        if verb in _PARTITION_VERBS_ALL and self._match(TokenType.ALL):
            return {"all": True}
        names = self._parse_csv(lambda: self._parse_id_var(any_token=False))
        if not names:
            self.raise_error(f"Expecting partition names after {verb} PARTITION", self._curr)
        return {"expressions": names}

    def _parse_on_partitions(self, verb: str) -> PartitionAction | None:
        """``verb PARTITION …``, an ALTER TABLE action on partitions (the verb read), or a
        whole table's ``{DISCARD | IMPORT} TABLESPACE``; None where neither follows (the
        verb's other use, the statement read as a Command, as sqlglot reads what it does not
        know)."""
        if verb in ("DISCARD", "IMPORT") and self._match_text_seq("TABLESPACE"):
            self._on_partitions = True  # (alone in its ALTER TABLE, as a partition action)
            return self.expression(TablespaceAction(this=verb))  # type: ignore[return-value]
        if not self._match(TokenType.PARTITION):
            return None
        self._on_partitions = True
        args: dict[str, Any] = {}
        if verb == "ADD":
            self._parse_exists(not_=True)
            args["count"] = self._parse_partition_count("PARTITIONS")
            if args["count"] is None:
                args["definitions"] = self._parse_wrapped_csv(self._parse_partition_definition)
        elif verb == "COALESCE":
            args["count"] = self._parse_required_number("COALESCE PARTITION")
        elif verb == "EXCHANGE":
            args["expressions"] = [self._parse_id_var(any_token=False)]
            if not self._match_text_seq("WITH", "TABLE"):
                self.raise_error("Expecting WITH TABLE", self._curr)
            args["table"] = self._parse_table_parts()
            if self._match_texts(("WITH", "WITHOUT")) and not self._match_text_seq("VALIDATION"):
                self.raise_error("Expecting VALIDATION", self._curr)
        elif verb == "REORGANIZE":
            if self._curr and self._curr.token_type != TokenType.COMMA:
                args.update(self._parse_partition_names(verb))
                if not self._match(TokenType.INTO):
                    self.raise_error("Expecting INTO after the partitions", self._curr)
                args["definitions"] = self._parse_wrapped_csv(self._parse_partition_definition)
        else:
            if verb == "DROP":
                self._parse_exists()
            args.update(self._parse_partition_names(verb))
            if verb in ("DISCARD", "IMPORT") and not self._match_text_seq("TABLESPACE"):
                self.raise_error(f"Expecting TABLESPACE after {verb} PARTITION", self._curr)
        return self.expression(PartitionAction(this=verb, **args))

    def _parse_convert_partition(self) -> PartitionAction | None:
        """MariaDB's ``CONVERT PARTITION p TO TABLE t`` and ``CONVERT TABLE t TO PARTITION p
        VALUES …``."""
        if self._match(TokenType.PARTITION):
            name = self._parse_id_var(any_token=False)
            if not self._match_text_seq("TO", "TABLE"):
                self.raise_error("Expecting TO TABLE", self._curr)
            table = self._parse_table_parts()
            return self.expression(PartitionAction(this="CONVERT", expressions=[name], table=table))
        if self._match(TokenType.TABLE):
            table = self._parse_table_parts()
            if not self._match_text_seq("TO"):
                self.raise_error("Expecting TO PARTITION", self._curr)
            start = self._curr.start if self._curr else len(self.sql)
            definition = self._parse_partition_definition()
            definition.meta["text"] = self.sql[start : self._prev.end + 1]  # kept as written
            return self.expression(
                PartitionAction(this="CONVERT", table=table, definitions=[definition])
            )
        return None

    def _parse_directory(self, word: str) -> StorageOption | None:
        """``{DATA | INDEX} DIRECTORY [=] 'path'``: where a table's files go (a storage option,
        read and dropped); None when DIRECTORY does not follow (the word is not this option's)."""
        if not self._match_text_seq("DIRECTORY"):
            return None
        self._match(TokenType.EQ)
        path = self._parse_string()
        if path is None:
            self.raise_error(f"Expecting a quoted path after {word} DIRECTORY", self._curr)
        return self.expression(StorageOption(this=exp.var(f"{word} DIRECTORY"), value=path))

    def _parse_merge_union(self) -> StorageOption:
        """A MERGE table's ``UNION [=] (table, …)``: the MyISAM tables it reads (a storage
        option, read and dropped: the rows' shape is the MERGE table's columns)."""
        self._match(TokenType.EQ)
        if not (self._curr and self._curr.token_type == TokenType.L_PAREN):
            self.raise_error("Expecting a parenthesised list of tables after UNION", self._curr)
        self._advance()
        tables = (
            []
            if self._curr and self._curr.token_type == TokenType.R_PAREN
            else (self._parse_csv(self._parse_table_parts))
        )
        self._match_r_paren()
        return self.expression(
            StorageOption(this=exp.var("UNION"), value=exp.Tuple(expressions=tables))
        )

    def _parse_switch_keys(self, word: str) -> SwitchKeys:
        if not self._match_text_seq("KEYS"):
            self.raise_error(f"Expecting KEYS after {word}", self._curr)
        return self.expression(SwitchKeys(this=exp.var(word)))

    def _parse_sequence_option(self) -> exp.Property:
        """``SEQUENCE [=] {n | DEFAULT}`` (MariaDB: a number other than 0 makes the table a
        sequence)."""
        self._match(TokenType.EQ)
        token = self._curr
        if token is not None and token.token_type == TokenType.NUMBER and token.text.isdigit():
            value: exp.Expr = exp.Literal.number(token.text)
        elif _is_keyword(token, "DEFAULT"):
            value = exp.var("DEFAULT")
        else:
            self.raise_error("Expecting a number or DEFAULT for SEQUENCE", token)
        self._advance()
        return self.expression(exp.Property(this=exp.var("SEQUENCE"), value=value))

    def _parse_table_option(self, word: str) -> exp.Property:
        self._match(TokenType.EQ)
        value = self._parse_fraction() or self._parse_number() or self._parse_var(any_token=True)
        if value is None:
            self.raise_error(f"Expecting a value for {word}", self._curr)
        return self.expression(exp.Property(this=exp.var(word), value=value))

    def _parse_fraction(self) -> exp.Expr | None:
        """A number of no integer part (``.5``): two tokens, side by side."""
        if (
            self._curr is not None
            and self._curr.token_type == TokenType.DOT
            and self._next is not None
            and self._next.token_type == TokenType.NUMBER
            and self._next.start == self._curr.end + 1
        ):
            self._advance(2)
            return exp.Literal.number(f"0.{self._prev.text}")
        return None

    def _parse_comment_option(self) -> exp.SchemaCommentProperty:
        """A table's or a database's ``COMMENT [=] 'text'``: one text, as both servers' grammar
        takes it; a name, a number, a national text, a charset's introducer, ``X'…'`` or two
        texts side by side (which an expression reads as one) are syntax errors there."""
        self._match(TokenType.EQ)
        text, after = self._curr, self._next
        if text is None or text.token_type != TokenType.STRING:
            self.raise_error("Expecting a text for COMMENT", text)
        elif after is not None and after.token_type == TokenType.STRING:
            self.raise_error("Expecting one text for COMMENT", after)
        self._advance()
        return self.expression(exp.SchemaCommentProperty(this=exp.Literal.string(text.text)))

    def _parse_auto_increment_option(self) -> exp.AutoIncrementProperty:
        """A table's ``AUTO_INCREMENT [=] n``: a number as written, of any form but a hex (the
        servers' ``ulonglong_num``: ``5.7`` and ``.5`` are taken, as their leading digits,
        :func:`mvdd.ddl.options.leading_number`); another value is a syntax error there."""
        self._match(TokenType.EQ)
        number: exp.Expr | None = self._parse_fraction()
        if number is None and self._match(TokenType.NUMBER):
            number = exp.Literal.number(self._prev.text)
        if number is None:
            self.raise_error("Expecting a number for AUTO_INCREMENT", self._curr)
        return self.expression(exp.AutoIncrementProperty(this=number))

    def _parse_bare_alter(self) -> exp.Alter | None:
        """``ALTER TABLE t`` with no action: valid, and changes nothing (sqlglot reads it as
        a Command)."""
        if not self._may_end_bare():
            return None
        index = self._index
        if self._match(TokenType.TABLE):
            exists = self._parse_exists()
            self._in_alter = True
            try:
                table = self._parse_table_parts(schema=True)
                self._skip_wait()
            finally:
                self._in_alter = False
            if table is not None and not self._curr:
                return self.expression(
                    exp.Alter(this=table, kind="TABLE", actions=[], exists=exists)
                )
        self._retreat(index)
        return None

    def _may_end_bare(self) -> bool:
        """Whether the tokens left have the shape of a bare ``ALTER TABLE [IF EXISTS] name
        [WAIT n | NOWAIT]`` (a name of up to three dotted parts): a statement with an action
        is ruled out here, before its table name would be read twice."""
        tokens, end = self._tokens, len(self._tokens)
        at = self._index
        if at >= end or tokens[at].token_type != TokenType.TABLE:
            return False
        at += 1
        if _is_keyword(tokens[at] if at < end else None, "IF"):
            at += 2  # IF EXISTS
        at += 1  # the first part of the name
        while at + 1 < end and tokens[at].token_type == TokenType.DOT:
            at += 2
        if at < end and _is_keyword(tokens[at], "NOWAIT"):
            at += 1
        elif at + 1 < end and _is_keyword(tokens[at], "WAIT"):
            at += 2
        return at == end

    def _parse_alter_database(self, start: Any) -> exp.Expr:
        name = None
        if not self._match_texts(("DEFAULT", "CHARACTER", "CHARSET", "COLLATE"), advance=False):
            name = self._parse_table_part()
        properties = self._parse_properties()
        if self._curr or properties is None:
            self.raise_error("Expecting CHARACTER SET or COLLATE")
        return self.expression(AlterDatabase(this=name, properties=properties))

    def _skip_wait(self) -> None:
        """MariaDB's ``WAIT n`` / ``NOWAIT`` after a table name: how long the statement waits
        for locks, not what it changes."""
        if _is_keyword(self._curr, "NOWAIT"):
            self._advance()
        elif (
            _is_keyword(self._curr, "WAIT")
            and self._next is not None
            and self._next.token_type == TokenType.NUMBER
        ):
            self._advance(2)

    def _skip_algorithm_lock(self, *, once: bool = False) -> bool:
        """``ALGORITHM [=] name`` and ``LOCK [=] name``: how the server builds or drops an index,
        not what it builds; whether one was read."""
        read = False
        while self._match_texts(("ALGORITHM", "LOCK")):
            self._match(TokenType.EQ)
            if not self._curr:
                self.raise_error(f"Expecting a value for {self._prev.text.upper()}", self._prev)
            self._advance()
            read = True
            if once:
                break
        return read

    def _parse_table(self, *args: Any, **kwargs: Any) -> Any:
        if self._in_alter and kwargs.get("schema") and not args:
            target = self._parse_alter_target()
            if target is not None:
                return target
        table = super()._parse_table(*args, **kwargs)
        if self._in_alter:
            self._skip_wait()
        return table

    def _parse_alter_target(self) -> exp.Table | None:
        """The table an ALTER TABLE names, when its plain (dotted) name is followed by an
        action's word, read by sqlglot's fast reader of table parts; None (nothing read)
        otherwise. ``_parse_table`` would try a FROM clause's forms first (a subquery, VALUES,
        LATERAL, UNNEST …) and then read the same name, and nothing it reads after a name
        begins with an action's word."""
        index = self._index
        table = self._parse_table_parts(fast=True)
        curr = self._curr
        if (
            isinstance(table, exp.Table)
            and curr.token_type != TokenType.STRING
            and curr.text.upper() in self.ALTER_PARSERS
        ):
            return table
        self._retreat(index)
        return None

    def _parse_drop(self, *args: Any, **kwargs: Any) -> Any:
        curr = self._curr
        if curr is not None and (
            curr.token_type == TokenType.TEMPORARY or _is_keyword(curr, "SEQUENCE")
        ):  # (an ALTER TABLE's DROP COLUMN comes here too: one test of its next word)
            index = self._index
            temporary = self._match(TokenType.TEMPORARY)
            if _is_keyword(self._curr, "SEQUENCE"):
                self._advance()
                return self._parse_sequence("DROP", temporary=temporary)
            self._retreat(index)
        node = super()._parse_drop(*args, **kwargs)
        kind = str(node.args.get("kind") or "").upper() if isinstance(node, exp.Drop) else ""
        if kind in ("TABLE", "INDEX"):
            self._skip_wait()
        if kind == "INDEX":
            self._skip_algorithm_lock()
        return node

    def _parse_truncate_table(self) -> Any:
        # both servers: TRUNCATE [TABLE] name, MariaDB's [WAIT n | NOWAIT] after it (sqlglot's
        # reads WAIT as an alias, and takes other servers' IF EXISTS, lists and options)
        if self._curr and self._curr.token_type == TokenType.L_PAREN:
            return super()._parse_truncate_table()  # (TRUNCATE(x, d), the function)
        self._match(TokenType.TABLE)
        table = self._parse_table_parts()
        self._skip_wait()
        if self._curr:
            self.raise_error("Expecting the end of TRUNCATE [TABLE] name [WAIT n | NOWAIT]")
        return self.expression(exp.TruncateTable(expressions=[table]))

    def _parse_alter_table_modify(self, rename: bool = False) -> exp.Expr | None:
        # MariaDB: {MODIFY | CHANGE} [COLUMN] [IF EXISTS] ...
        self._match(TokenType.COLUMN)
        exists = self._parse_exists()
        node = super()._parse_alter_table_modify(rename=rename)
        if exists and node is not None:
            node.set("exists", True)
        return node

    def _key_if_not_exists(self) -> bool:
        """MariaDB's IF NOT EXISTS after a key's kind (``{INDEX | KEY | UNIQUE | PRIMARY KEY}
        IF NOT EXISTS``): an ALTER TABLE's ADD takes it, a table's definition does not."""
        if not self._match_text_seq("IF", "NOT", "EXISTS"):
            return False
        if not self._in_alter:
            self.raise_error("IF NOT EXISTS belongs to ALTER TABLE … ADD, not a table's keys")
        return True

    def _type_is_using(self, ahead: int = 0) -> None:
        """MariaDB's other spelling of a key's ``USING {BTREE | HASH | RTREE}``, ``TYPE
        {BTREE | HASH | RTREE}``, read as USING ``ahead`` tokens on. The server takes it after
        a key's name (right after ``KEY`` the word is the name: ``KEY TYPE BTREE (a)`` is its
        syntax error) and among the options after the columns, not after PRIMARY KEY nor after
        the table of a CREATE INDEX."""
        tokens, k = self._tokens, self._index + ahead
        if (
            k + 1 < len(tokens)
            and _is_keyword(tokens[k], "TYPE")
            and _is_keyword(tokens[k + 1], *_INDEX_TYPES)
        ):
            tokens[k].token_type = TokenType.USING

    def _parse_index_constraint(self, kind: str | None = None) -> exp.IndexColumnConstraint:
        # MariaDB: {INDEX | KEY} [IF NOT EXISTS] [name] ...
        twice = kind and self._match_texts(("INDEX", "KEY"))
        if twice and self._match_texts(("INDEX", "KEY"), advance=False):
            self.raise_error(f"Expecting one INDEX or KEY after {kind}", self._curr)
        exists = self._key_if_not_exists()
        self._type_is_using(ahead=1)
        start = self._index
        node = super()._parse_index_constraint(kind=kind)
        for word, after in itertools.pairwise(self._tokens[start : self._index]):
            # sqlglot takes any token after USING as the index type: `INDEX USING (a)`
            if word.token_type == TokenType.USING and not _is_keyword(after, *_INDEX_TYPES):
                self.raise_error("Expecting BTREE, HASH or RTREE after USING", after)
        if exists:
            node.set("exists", True)
        return node

    def _parse_unique(self) -> exp.UniqueColumnConstraint:
        # MariaDB: UNIQUE [INDEX | KEY] [IF NOT EXISTS] [name] ...
        if self._match_texts(("KEY", "INDEX")) and self._match_texts(("KEY", "INDEX"), False):
            self.raise_error("Expecting one KEY or INDEX after UNIQUE", self._curr)
        exists = self._key_if_not_exists()
        self._type_is_using(ahead=1)
        node = super()._parse_unique()
        if exists:
            node.set("exists", True)
        return node

    def _parse_compressed(self) -> Compressed:
        """MariaDB's ``COMPRESSED [= method]`` (its method a name, never a string)."""
        method = None
        if self._match(TokenType.EQ):
            method = self._parse_var(any_token=True)
            if method is None or self._prev.token_type == TokenType.STRING:
                self.raise_error("Expecting a compression method after COMPRESSED =")
        return self.expression(Compressed(this=method))

    def _parse_generated_after_attributes(
        self,
    ) -> exp.ComputedColumnConstraint | exp.GeneratedAsRowColumnConstraint | None:
        """``AS (expr) [VIRTUAL | STORED]`` after a column's attributes (``PERSISTENT`` is a
        constraint of its own), and MariaDB's ``AS ROW START`` / ``AS ROW END`` (GENERATED
        ALWAYS left out), which the column reader places."""
        for word, start in (("START", True), ("END", False)):
            if self._match_text_seq("ROW", word):
                return self.expression(exp.GeneratedAsRowColumnConstraint(start=start))
        if not self._match(TokenType.L_PAREN, advance=False):
            return None
        this = self.expression(exp.Paren(this=self._parse_wrapped(self._parse_assignment)))
        stored = self._match_texts(("STORED", "VIRTUAL")) and self._prev.text.upper() == "STORED"
        return self.expression(exp.ComputedColumnConstraint(this=this, persisted=stored))

    def _parse_generated_as_identity(self) -> Any:
        node = super()._parse_generated_as_identity()
        if isinstance(node, exp.ComputedColumnConstraint) and self._match_text_seq("PERSISTENT"):
            node.set("persisted", True)
        return node

    def _parse_mysql_check(self) -> MySQLCheck | None:
        if not self._match(TokenType.L_PAREN, advance=False):
            return None
        this = self._parse_wrapped(self._parse_assignment)
        if self._match_text_seq("NOT", "ENFORCED"):
            enforced: bool | None = False
        else:
            enforced = True if self._match_text_seq("ENFORCED") else None
        return self.expression(MySQLCheck(this=this, enforced=enforced))

    def _parse_rename_tables(self) -> exp.Expr:
        start = self._prev
        if not self._match(TokenType.TABLE) and not self._match_text_seq("TABLES"):
            return self._parse_as_command(start)
        exists = self._parse_exists()

        def pair() -> RenamePair | None:
            this = self._parse_table_parts(schema=True)
            self._skip_wait()
            if not self._match_text_seq("TO"):
                self.raise_error("Expecting TO")
            return self.expression(RenamePair(this=this, to=self._parse_table_parts(schema=True)))

        return self.expression(RenameTables(expressions=self._parse_csv(pair), exists=exists))

    def _parse_convert_charset(self) -> ConvertCharset | None:
        if not self._match_text_seq("TO"):
            self.raise_error("Expecting TO after CONVERT")
        if not (
            self._match(TokenType.CHARACTER_SET)
            or self._match_text_seq("CHARACTER", "SET")
            or self._match_text_seq("CHARSET")
        ):
            self.raise_error("Expecting CHARACTER SET")
        charset = self._parse_var(any_token=True)
        collate = None
        if self._match(TokenType.COLLATE):
            collate = self._parse_var(any_token=True)
            if collate is None:
                self.raise_error("Expecting a collation after COLLATE")
        if charset is None:
            self.raise_error("Expecting a character set")
        return self.expression(ConvertCharset(this=charset, collate=collate))

    def _parse_alter_check(self) -> exp.Expr | None:
        name = self._parse_id_var()
        if self._match_text_seq("NOT", "ENFORCED"):
            enforced = False
        elif self._match_text_seq("ENFORCED"):
            enforced = True
        else:
            self.raise_error("Expecting [NOT] ENFORCED")
            return None
        return self.expression(AlterCheck(this=name, enforced=enforced))

    def _parse_alter_table_add(self) -> list[exp.Expr]:
        # One item per ADD, as MySQL's grammar has it (sqlglot reads `ADD a INT, b INT` and
        # `ADD INDEX i (a), INDEX j (b)` as if every item had its ADD): the ALTER loop reads
        # `, ADD …` as the next action. ADD CHECK (...) and ADD [COLUMN] (c1 ..., c2 ...) fall
        # back to Command in sqlglot; a quoted name right after ADD is always a column, never a
        # FULLTEXT/SPATIAL keyword.
        if self._curr and self._curr.token_type == TokenType.IDENTIFIER:
            return [self._parse_column_def_with_exists()]
        if _is_keyword(self._curr, "CHECK"):
            self._advance()
            check = self._parse_mysql_check()
            if check is None:
                self.raise_error("Expecting ( after CHECK")
            return [self.expression(exp.AddConstraint(expressions=[check]))]
        if _is_keyword(self._curr, "ADD"):  # sqlglot takes a second ADD as optional noise
            self.raise_error("Expecting what to ADD", self._curr)
        partitions = self._parse_on_partitions("ADD")
        if partitions is not None:
            return [partitions]
        versioning = self._parse_system_versioning("ADD") or self._parse_system_period("ADD")
        if versioning is not None:
            return [versioning]
        index = self._index
        self._match(TokenType.COLUMN)
        exists = self._match_text_seq("IF", "NOT", "EXISTS")  # MariaDB's, for every column
        if self._match(TokenType.L_PAREN):
            # (a list as a CREATE TABLE's: columns, and keys and checks among them, each an
            # action of its own)
            items = self._parse_csv(lambda: self._parse_constraint() or self._parse_field_def())
            self._match_r_paren()
            checks = ListedChecks if all(map(_is_check, items)) else exp.AddConstraint
            actions: list[exp.Expr] = []
            for item in items:
                if isinstance(item, exp.ColumnDef):
                    if exists:
                        item.set("exists", True)
                    actions.append(item)
                else:
                    actions.append(self.expression(checks(expressions=[item])))
            return actions
        self._retreat(index)
        if self._match_text_seq("CONSTRAINT", "IF", "NOT", "EXISTS"):
            # MariaDB: ADD CONSTRAINT IF NOT EXISTS name CHECK (...), a check's only
            name = self._parse_id_var()
            if not _is_keyword(self._curr, "CHECK"):
                self.raise_error("Expecting CHECK after ADD CONSTRAINT IF NOT EXISTS name")
            self._advance()
            check = self._parse_mysql_check()
            if check is None:
                self.raise_error("Expecting ( after CHECK")
            named = self.expression(exp.Constraint(this=name, expressions=[check]))
            named.set("exists", True)
            return [self.expression(exp.AddConstraint(expressions=[named]))]
        if self._match_set(self.ADD_CONSTRAINT_TOKENS, advance=False) or self._match_texts(
            self.ADD_CONSTRAINT_KEYWORDS, advance=False
        ):
            constraint = self._parse_constraint()
            return [self.expression(exp.AddConstraint(expressions=[constraint]))]
        column = self._parse_add_column()
        return [column] if isinstance(column, exp.ColumnDef) else []

    def _parse_index_params(self) -> exp.IndexParameters:
        # CREATE INDEX key parts are MySQL key parts: col[(length)] [ASC|DESC]
        if self._match(TokenType.L_PAREN, advance=False):
            columns = self._parse_wrapped_csv(self._parse_index_key_part)
            return self.expression(exp.IndexParameters(columns=columns))
        return super()._parse_index_params()

    def _parse_visibility(self) -> bool | None:
        """An index's visibility, in MySQL's words (VISIBLE, INVISIBLE) or MariaDB's (NOT
        IGNORED, IGNORED); None: neither follows."""
        for words, visible in _VISIBILITY:
            if self._match_text_seq(*words):
                return visible
        return None

    def _parse_index_constraint_options(self) -> list[exp.IndexConstraintOption]:
        options: list[exp.IndexConstraintOption] = []
        while True:
            self._type_is_using()
            before = self._index
            options.extend(super()._parse_index_constraint_options())
            visible = self._parse_visibility()
            if visible is not None:
                options.append(self.expression(exp.IndexConstraintOption(visible=visible)))
            elif self._index == before:
                return options

    def _parse_default_value(self) -> exp.Expr | None:
        """A DEFAULT's value as MySQL's grammar takes it: an expression in parentheses, or
        one operand alone (a literal, a number with its sign, a call, a name, a variable).
        sqlglot reads any sum or negation there (``DEFAULT 1 + 1``, ``DEFAULT -'1'``), which
        both servers refuse as a syntax error. ODBC's escape ``{word value}`` is one operand,
        whatever its value."""
        first = self._curr.token_type if self._curr is not None else None
        start = self._index
        value = self._parse_bitwise()
        if value is None:
            return None
        if isinstance(value, exp.Collate) and first != TokenType.L_PAREN:
            # `DEFAULT NULL COLLATE c`, `DEFAULT 'x' COLLATE c`: the column's collation after
            # its default, which sqlglot reads as the value's own; left for the column to read
            depth = 0
            for at in range(start, self._index):
                kind = self._tokens[at].token_type
                depth += (kind == TokenType.L_PAREN) - (kind == TokenType.R_PAREN)
                if kind == TokenType.COLLATE and depth == 0:
                    self._retreat(at)
                    break
            while isinstance(value, exp.Collate):
                value = value.this
        if first == TokenType.L_PAREN:
            fits = isinstance(value, exp.Paren | exp.Subquery)
        elif first == TokenType.L_BRACE:  # the escape's whole value, nothing after its brace
            fits = isinstance(value, exp.Paren) or _alone(value)
            fits = fits and self._prev.token_type == TokenType.R_BRACE
        else:
            fits = _alone(value)
        if not fits:
            self.raise_error("a DEFAULT of an expression takes parentheses: DEFAULT (…)")
        return value

    def _parse_alter_table_alter(self) -> exp.Expr | None:
        # ALTER [COLUMN] c SET DEFAULT value: the value as a column definition takes it
        # (sqlglot reads any condition there)
        index = self._index
        if not self._match_texts(self.ALTER_ALTER_PARSERS, advance=False):
            self._match(TokenType.COLUMN)
            exists = self._parse_exists()
            column = self._parse_field(any_token=True)
            if self._match_pair(TokenType.SET, TokenType.DEFAULT):
                default = self._parse_default_value()
                return self.expression(
                    exp.AlterColumn(this=column, default=default, exists=exists or None)
                )
            self._retreat(index)
        return super()._parse_alter_table_alter()

    def _parse_alter_table_alter_index(self) -> exp.AlterIndex:
        exists = self._match_text_seq("IF", "EXISTS")
        index = self._parse_field(any_token=True)
        visible = self._parse_visibility()
        if visible is None:
            self.raise_error("Expecting VISIBLE, INVISIBLE, IGNORED or NOT IGNORED")
        return self.expression(AlterIndex(this=index, visible=visible, exists=exists))

    def _parse_create_mysql(self) -> exp.Expr | None:
        index = self._index
        kind = None
        replace = self._match_text_seq("OR", "REPLACE")  # (MariaDB's CREATE OR REPLACE INDEX)
        if self._match(TokenType.UNIQUE) or self._match_texts(("FULLTEXT", "SPATIAL")):
            kind = self._prev.text.upper()
        if self._match(TokenType.INDEX):
            created = self._parse_create_index(kind)
            if replace:
                created.set("replace", True)
            return created
        if kind is None:
            temporary = self._match(TokenType.TEMPORARY)
            if _is_keyword(self._curr, "SEQUENCE"):
                self._advance()
                return self._parse_sequence("CREATE", replace=replace, temporary=temporary)
        self._retreat(index)
        return self._parse_create()

    def _parse_sequence(
        self, verb: str, *, replace: bool = False, temporary: bool = False
    ) -> SequenceStatement:
        """MariaDB's ``CREATE [OR REPLACE] [TEMPORARY] SEQUENCE [IF NOT EXISTS] s [values]
        [table options]``, ``ALTER SEQUENCE [IF EXISTS] s values`` and ``DROP [TEMPORARY]
        SEQUENCE [IF EXISTS] s [, …]``, the word SEQUENCE read."""
        words = ("IF", "NOT", "EXISTS") if verb == "CREATE" else ("IF", "EXISTS")
        exists = self._match_text_seq(*words)
        if verb == "DROP":
            names = self._parse_csv(self._parse_table_parts)
            options: list[exp.Expr] = []
            properties = None
        else:
            names = [self._parse_table_parts()]
            options = self._parse_sequence_values(restart=verb == "ALTER")
            if verb == "ALTER" and not options:
                self.raise_error("Expecting a value of the sequence to change")
            properties = self._parse_properties() if verb == "CREATE" else None
        if self._curr:
            self.raise_error(f"Expecting the end of {verb} SEQUENCE")
        return self.expression(
            SequenceStatement(
                this=verb,
                expressions=names,
                options=options,
                properties=properties,
                exists=exists,
                replace=replace,
                temporary=temporary,
            )
        )

    def _parse_sequence_values(self, *, restart: bool) -> list[exp.Expr]:
        """A sequence's options of its values (:data:`_SEQUENCE_VALUES`,
        :data:`_SEQUENCE_WORDS`), in any order, each value once."""
        read: dict[str, exp.Expr] = {}
        while self._curr is not None and self._curr.token_type != TokenType.STRING:
            word = self._curr.text.upper()
            value: exp.Expr
            if word == "NO" and _is_keyword(self._next, "MINVALUE", "MAXVALUE"):
                self._advance()
                name, value = self._curr.text.upper(), exp.Null()
                self._advance()
            elif word in _SEQUENCE_WORDS:
                self._advance()
                name, given = _SEQUENCE_WORDS[word]
                value = exp.Null() if given is None else exp.Literal.number(given)
            elif word in _SEQUENCE_VALUES and (restart or word != "RESTART"):
                self._advance()
                name = word
                joined = self._match_texts(_SEQUENCE_VALUES[word])
                if word == "RESTART" and not joined and not _starts_integer(self._curr):
                    value = exp.Null()  # (RESTART alone: to the sequence's START)
                else:
                    value = self._parse_sequence_integer(word)
            else:
                break
            if name in read and word not in _SEQUENCE_REPEATABLE:
                raise DDLError(f"option {name} of the sequence is given twice")
            read[name] = exp.Property(this=exp.var(name), value=value)
        return list(read.values())

    def _parse_sequence_integer(self, name: str) -> exp.Expr:
        """A signed integer literal of a sequence's option (no wider than the server reads)."""
        sign = -1 if self._match(TokenType.DASH) else 1
        if sign == 1:
            self._match(TokenType.PLUS)
        token = self._curr
        if token is None or token.token_type != TokenType.NUMBER or not token.text.isdigit():
            self.raise_error(f"Expecting an integer for {name}")
        assert token is not None
        value = sign * int(token.text)
        if abs(value) > _SEQUENCE_LIMIT:
            self.raise_error(f"{name} {value} is wider than a sequence's 64-bit values", token)
        self._advance()
        return exp.Literal.number(value)

    def _parse_create_index(self, kind: str | None) -> CreateIndex:
        exists = self._match_text_seq("IF", "NOT", "EXISTS")
        name = self._parse_id_var()
        self._type_is_using()
        using = self._parse_index_type()
        if not self._match(TokenType.ON):
            self.raise_error("Expecting ON")
        table = self._parse_table_parts(schema=True)
        using = using or self._parse_index_type()
        parts = self._parse_wrapped_csv(self._parse_index_key_part)
        self._skip_wait()
        options = self._parse_index_constraint_options()
        while self._skip_algorithm_lock(once=True):
            options.extend(self._parse_index_constraint_options())
        return self.expression(
            CreateIndex(
                this=name,
                table=table,
                kind=kind,
                using=using,
                expressions=parts,
                options=options,
                exists=exists,
            )
        )


# --- generator ---------------------------------------------------------------------------------

#: where a statement parameter goes while a template renders (a character no SQL text holds)
PARAM = "\x00"


#: the units of an interval, as the servers' grammar has them
_INTERVAL_UNITS = frozenset(
    {
        "MICROSECOND",
        "SECOND",
        "MINUTE",
        "HOUR",
        "DAY",
        "WEEK",
        "MONTH",
        "QUARTER",
        "YEAR",
        "SECOND_MICROSECOND",
        "MINUTE_MICROSECOND",
        "MINUTE_SECOND",
        "HOUR_MICROSECOND",
        "HOUR_SECOND",
        "HOUR_MINUTE",
        "DAY_MICROSECOND",
        "DAY_SECOND",
        "DAY_MINUTE",
        "DAY_HOUR",
        "YEAR_MONTH",
    }
)


class MvddGenerator(MySQLGenerator):
    # (a table's WITH SYSTEM VERSIONING among its options after the column list)
    PROPERTIES_LOCATION = {
        **MySQLGenerator.PROPERTIES_LOCATION,
        SystemVersioning: exp.Properties.Location.POST_SCHEMA,
    }
    # sqlglot dispatches only its own node classes by method name; ours go through TRANSFORMS
    TRANSFORMS = {
        **MySQLGenerator.TRANSFORMS,
        RenameTables: lambda self, e: self.renametables_sql(e),
        RenamePair: lambda self, e: self.renamepair_sql(e),
        ConvertCharset: lambda self, e: self.convertcharset_sql(e),
        AlterCheck: lambda self, e: self.altercheck_sql(e),
        ListedChecks: lambda self, e: self.addconstraint_sql(e),
        SerialDefault: lambda self, e: "SERIAL DEFAULT VALUE",
        MySQLCheck: lambda self, e: self.mysqlcheck_sql(e),
        CreateIndex: lambda self, e: self.createindex_sql(e),
        AlterIndex: lambda self, e: self.alterindex_sql(e),
        UnsignedFloat: lambda self, e: self.unsignedfloat_sql(e),
        ColumnGet: lambda self, e: self.columnget_sql(e),
        ConvertUsing: lambda self, e: (
            f"CONVERT({self.sql(e, 'this')} USING {self.sql(e, 'charset')})"
        ),
        TemporalLiteral: lambda self, e: f"{LITERAL_WORDS[e.kind]} {self.sql(e, 'this')}",
        exp.Coalesce: lambda self, e: self.func(
            "IFNULL" if e.args.get("is_null") else "COALESCE", e.this, *e.expressions
        ),
        exp.Space: lambda self, e: self.func("SPACE", e.this),
        # each as the servers write it: 0x… a number in MariaDB's arithmetic, X'…' a string
        exp.HexString: lambda self, e: f"0x{e.this}" if e.this else "X''",
        QuotedHex: lambda self, e: f"X'{e.this}'",
        NotValue: lambda self, e: self.binary(e, "="),
        AlterDatabase: lambda self, e: self.alterdatabase_sql(e),
        Persistent: lambda self, e: "PERSISTENT",
        # a collation's name is a plain word: bare, as the model renders it, however it was read
        exp.CollateColumnConstraint: lambda self, e: f"COLLATE {e.this.name}",
        Maintenance: lambda self, e: self.maintenance_sql(e),
        SystemVersioning: lambda self, e: f"{e.name} SYSTEM VERSIONING",
        SystemPeriod: lambda self, e: (
            f"{e.name} PERIOD FOR SYSTEM_TIME"
            + (f" ({self.expressions(e, flat=True)})" if e.expressions else "")
        ),
        Compressed: lambda self, e: "COMPRESSED" + (f"={e.name}" if e.this else ""),
        SwitchKeys: lambda self, e: f"{e.name} KEYS",
        Signedness: lambda self, e: e.name,
        PartitionAction: lambda self, e: self.partitionaction_sql(e),
        TablespaceAction: lambda self, e: f"{e.name} TABLESPACE",
        # (for messages: what a replica reads of a partitioning it keeps nothing of)
        Partitioning: lambda self, e: (
            f"PARTITION BY {e.this.name} …" if e.this is not None else "REMOVE PARTITIONING"
        ),
        StorageOption: lambda self, e: f"{e.name} {self.sql(e, 'value')}",
        ApplicationPeriod: lambda self, e: (
            f"PERIOD FOR {self.sql(e, 'this')} ({self.expressions(e, flat=True)})"
        ),
        WithoutOverlaps: lambda self, e: f"{self.sql(e, 'this')} WITHOUT OVERLAPS",
        SetStatement: lambda self, e: self.setstatement_sql(e),
        # a statement parameter's place: mvdd.ddl.dml turns it into the driver's %s
        exp.Placeholder: lambda self, e: PARAM,
        # MySQL's own words (sqlglot writes UTC_DATE as CURRENT_DATE AT TIME ZONE 'UTC', which
        # MySQL does not have, and REGEXP as REGEXP_LIKE, which MariaDB does not have)
        exp.UtcDate: lambda self, e: "UTC_DATE()",
        exp.RegexpLike: lambda self, e: (
            self.binary(e, "REGEXP")
            if not e.args.get("flag")
            else self.func("REGEXP_LIKE", e.this, e.expression, e.args.get("flag"))
        ),
    }

    #: an index's visibility, in this server's words
    VISIBILITY = {True: "VISIBLE", False: "INVISIBLE"}
    # (MariaDB's ALTER [COLUMN] IF EXISTS c {SET | DROP} DEFAULT: mvdd reads it in either
    # server's text, and writes it back as it read it)
    SUPPORTS_ALTER_COLUMN_IF_EXISTS = True

    def indexconstraintoption_sql(self, expression: exp.IndexConstraintOption) -> str:
        visible = expression.args.get("visible")
        if visible is None:
            return super().indexconstraintoption_sql(expression)
        return self.VISIBILITY[bool(visible)]

    def alterindex_sql(self, expression: exp.AlterIndex) -> str:
        exists = "IF EXISTS " if expression.args.get("exists") else ""
        visible = self.VISIBILITY[bool(expression.args.get("visible"))]
        return f"ALTER INDEX {exists}{self.sql(expression, 'this')} {visible}"

    def renameindex_sql(self, expression: exp.RenameIndex) -> str:
        exists = " IF EXISTS" if expression.args.get("exists") else ""
        this, to = self.sql(expression, "this"), self.sql(expression, "to")
        return f"RENAME INDEX{exists} {this} TO {to}"

    def modifycolumn_sql(self, expression: exp.ModifyColumn) -> str:
        # MariaDB's {MODIFY | CHANGE} [COLUMN] IF EXISTS, which sqlglot's node does not write
        exists = " IF EXISTS" if expression.args.get("exists") else ""
        this = self.sql(expression, "this")
        rename_from = self.sql(expression, "rename_from")
        if rename_from:
            return f"CHANGE COLUMN{exists} {rename_from} {this}"
        return f"MODIFY COLUMN{exists} {this}"

    def alterdatabase_sql(self, expression: AlterDatabase) -> str:
        name = self.sql(expression, "this")
        return f"ALTER DATABASE {name + ' ' if name else ''}{self.sql(expression, 'properties')}"

    def interval_sql(self, expression: exp.Interval) -> str:
        # sqlglot quotes the quantity (INTERVAL '1' DAY); the server shows a number bare
        # (interval 1 day), and so does mvdd, so one expression has one spelling
        this = expression.this
        if isinstance(this, exp.Literal) and this.is_string and _is_integer(this.this):
            expression = expression.copy()
            expression.set("this", exp.Literal.number(this.this))
        return super().interval_sql(expression)

    def renametables_sql(self, expression: RenameTables) -> str:
        exists = "IF EXISTS " if expression.args.get("exists") else ""
        return f"RENAME TABLE {exists}{self.expressions(expression, flat=True)}"

    def partitionaction_sql(self, expression: PartitionAction) -> str:
        """The partition actions a :class:`~mvdd.ddl.step.TruncateTable` of partitions renders
        (``DROP``, ``TRUNCATE``, ``DISCARD``, ``IMPORT``, ``EXCHANGE``, ``CONVERT``)."""
        verb = expression.name.upper()
        named = "ALL" if expression.args.get("all") else self.expressions(expression, flat=True)
        if verb == "EXCHANGE":
            return f"EXCHANGE PARTITION {named} WITH TABLE {self.sql(expression, 'table')}"
        if verb == "CONVERT" and expression.args.get("definitions"):
            written = expression.args["definitions"][0].meta["text"]
            return f"CONVERT TABLE {self.sql(expression, 'table')} TO {written}"
        if verb == "CONVERT":
            return f"CONVERT PARTITION {named} TO TABLE {self.sql(expression, 'table')}"
        tail = " TABLESPACE" if verb in ("DISCARD", "IMPORT") else ""
        return f"{verb} PARTITION {named}{tail}"

    def maintenance_sql(self, expression: Maintenance) -> str:
        return f"{expression.name} TABLE {self.expressions(expression, flat=True)}"

    def setstatement_sql(self, expression: SetStatement) -> str:
        settings = self.expressions(expression, flat=True)
        return f"SET STATEMENT {settings} FOR {self.sql(expression, 'this')}"

    def renamepair_sql(self, expression: RenamePair) -> str:
        return f"{self.sql(expression, 'this')} TO {self.sql(expression, 'to')}"

    def convertcharset_sql(self, expression: ConvertCharset) -> str:
        collate = self.sql(expression, "collate")
        collate = f" COLLATE {collate}" if collate else ""
        return f"CONVERT TO CHARACTER SET {self.sql(expression, 'this')}{collate}"

    def altercheck_sql(self, expression: AlterCheck) -> str:
        enforced = "ENFORCED" if expression.args.get("enforced") else "NOT ENFORCED"
        return f"ALTER CHECK {self.sql(expression, 'this')} {enforced}"

    def mysqlcheck_sql(self, expression: MySQLCheck) -> str:
        enforced = " NOT ENFORCED" if expression.args.get("enforced") is False else ""
        return f"CHECK ({self.sql(expression, 'this')}){enforced}"

    def createindex_sql(self, expression: CreateIndex) -> str:
        kind = expression.args.get("kind")
        using = expression.args.get("using")
        options = self.expressions(expression, key="options", sep=" ")
        exists = "IF NOT EXISTS " if expression.args.get("exists") else ""
        replace = "OR REPLACE " if expression.args.get("replace") else ""
        return (
            f"CREATE {replace}{kind + ' ' if kind else ''}INDEX {exists}"
            f"{self.sql(expression, 'this')}"
            f"{' USING ' + using if using else ''} ON {self.sql(expression, 'table')}"
            f" ({self.expressions(expression, flat=True)}){' ' + options if options else ''}"
        )

    def datatype_sql(self, expression: exp.DataType) -> str:
        sql = super().datatype_sql(expression)
        collate = expression.args.get("collate")
        if expression.this != exp.DType.CHARACTER_SET or collate is None:
            return sql
        # (sqlglot drops a CAST's collation after its charset: BINARY, or a name)
        if isinstance(collate, exp.Var):
            return f"{sql} {collate.name}"
        return f"{sql} COLLATE {self.sql(collate)}"

    def columnget_sql(self, expression: ColumnGet) -> str:
        cast = expression.expression
        to = cast.to.copy()
        mapped = self.CAST_MAPPING.get(to.this)  # (INT is SIGNED, as in a CAST)
        if mapped:
            to.set("this", mapped)
        name = self.sql(cast, "this")
        return f"COLUMN_GET({self.sql(expression, 'this')}, {name} AS {self.sql(to)})"

    def unsignedfloat_sql(self, expression: UnsignedFloat) -> str:
        return f"{self.datatype_sql(expression)} UNSIGNED"


class MvddMySQL(MySQL):
    """MySQL as mvdd reads and writes it."""

    # MULTIPOINT and GEOMETRYCOLLECTION have no sqlglot type: they parse as user-defined types
    # and the type mapping (mvdd.ddl.types) refuses every other unknown type name
    SUPPORTS_USER_DEFINED_TYPES = True

    class Tokenizer(MySQL.Tokenizer):
        # RENAME would swallow the rest of the statement into one string token
        COMMANDS = MySQL.Tokenizer.COMMANDS - {TokenType.RENAME}
        KEYWORDS = {
            **{k: v for k, v in MySQL.Tokenizer.KEYWORDS.items() if k not in _FOREIGN_OPERATORS},
            # OPTIMIZE would swallow the rest of the statement too (it is read as Maintenance)
            "OPTIMIZE": TokenType.VAR,
            "POINT": TokenType.POINT,
            "LINESTRING": TokenType.LINESTRING,
            "POLYGON": TokenType.POLYGON,
            "MULTILINESTRING": TokenType.MULTILINESTRING,
            "MULTIPOLYGON": TokenType.MULTIPOLYGON,
            # sqlglot's words for types of other databases, which no MySQL or MariaDB server
            # knows (4161 "Unknown data type"): names, and refused as unknown types
            **dict.fromkeys(
                [
                    *("BYTE", "CLOB", "INT16", "INT32", "INT64", "LONGVARCHAR", "NUMBER"),
                    *("SHORT", "STR", "STRING", "TIMESTAMPTZ", "UINT"),
                ],
                TokenType.VAR,
            ),
            # MySQL's meanings, where sqlglot's generic ones differ
            "REAL": TokenType.DOUBLE,
            "INT3": TokenType.MEDIUMINT,
            "MIDDLEINT": TokenType.MEDIUMINT,
            "INT8": TokenType.BIGINT,
            "LONG": TokenType.MEDIUMTEXT,
            "LONG VARCHAR": TokenType.MEDIUMTEXT,
            "LONG VARBINARY": TokenType.MEDIUMBLOB,
            "NATIONAL CHAR": TokenType.NCHAR,
            "NATIONAL CHARACTER": TokenType.NCHAR,
            "NATIONAL VARCHAR": TokenType.NVARCHAR,
            "NATIONAL CHARACTER VARYING": TokenType.NVARCHAR,
            "NATIONAL CHAR VARYING": TokenType.NVARCHAR,
            "NCHAR VARCHAR": TokenType.NVARCHAR,
            "NCHAR VARYING": TokenType.NVARCHAR,
        }

    Parser = MvddParser
    Generator = MvddGenerator

    def tokenize(self, sql: str, dialect: Any = None) -> list[Token]:
        """As sqlglot's, through one tokenizer per thread: building one for each call (a
        dialect lookup and a core of some thirty settings) costs a sixth of tokenizing a short
        statement. The tokenizer keeps the last text it read until it reads the next."""
        if dialect is not None:
            return super().tokenize(sql, dialect)
        tokens, error = self.tokens_before(sql)
        if error is not None:
            raise error
        return tokens

    def tokens_before(self, sql: str) -> tuple[list[Token], TokenError | None]:
        """The tokens of ``sql`` and None, or, where it cannot be tokenized, those before the
        trouble and the error (:meth:`tokenize`'s tokenizer)."""
        kept: dict[int, Any] = _reused.__dict__.setdefault("tokenizers", {})
        tokenizer = kept.get(id(self))
        if tokenizer is None:
            tokenizer = kept[id(self)] = self.tokenizer()
        try:
            tokens: list[Token] = tokenizer.tokenize(sql)
            error = None
        except TokenError as err:
            tokens, error = list(tokenizer.tokens), err
        if _NAMED_NUMBER.search(sql) is not None:  # (a search of the text: the hot path's)
            tokens = _numbers_named(tokens, sql)
        return tokens, error

    def parser(self, **opts: Any) -> Any:
        """As sqlglot's, reusing one parser per thread between its parses: a parser asked for
        while the kept one is mid-parse on this thread (sqlglot reads some types' text with a
        parser of its own) is a new one."""
        if opts:
            return super().parser(**opts)
        kept: dict[int, Any] = _reused.__dict__.setdefault("parsers", {})
        parser = kept.get(id(self))
        if parser is None:
            parser = kept[id(self)] = super().parser()
        elif parser.busy:
            return super().parser()
        return parser


#: the tokenizers and parsers each thread reuses (see MvddMySQL.tokenize and .parser)
_reused = threading.local()
#: somewhere in a statement's text, a word that looks like a number and that both servers read
#: as a name: digits and an E that no exponent follows, or a 0X or 0B (an upper-case X or B)
#: or a 0x or 0b literal whose digits an underscore joins, which sqlglot reads as numbers
_NAMED_NUMBER = re.compile(r"[0-9](?:[eE](?![0-9]|[-+][0-9])|(?<=0)(?:[XB]|[xb][0-9A-Fa-f]*_))")
#: a name of digits and an E, a dot and a name, which sqlglot reads as one name
_QUALIFIED_EXPONENT = re.compile(r"([0-9]+[eE])\.([A-Za-z0-9_$]*)")
#: what a name goes on with after its digits and E (`1e$`: one name)
_NAME_GOES_ON = frozenset({TokenType.VAR, TokenType.NUMBER})


#: the geometry types (MULTIPOINT and GEOMETRYCOLLECTION user-defined ones, by name)
_SPATIAL_TYPES = frozenset(
    {
        exp.DType.GEOMETRY,
        exp.DType.POINT,
        exp.DType.LINESTRING,
        exp.DType.POLYGON,
        exp.DType.MULTILINESTRING,
        exp.DType.MULTIPOLYGON,
    }
)


def _spatial(dt: exp.DataType) -> bool:
    kind = dt.args.get("kind")
    return dt.this in _SPATIAL_TYPES or (
        dt.this == exp.DType.USERDEFINED
        and str(kind).upper() in ("MULTIPOINT", "GEOMETRYCOLLECTION", "GEOMCOLLECTION")
    )


def _numbers_named(tokens: list[Token], sql: str) -> list[Token]:
    """``tokens`` with each word that looks like a number and that both servers read as a
    name, one name, where sqlglot reads a number: digits and an E that no exponent follows
    (``1e``, the ``1e`` of ``1e-x``, ``2E$``, where sqlglot reads a number and a name right
    after it, ``$``, another token), and a hex or bit literal's form the servers do not take
    as one (``0X1``, ``0B1``: only a lower-case x or b begins one; ``0x1_2``)."""
    out: list[Token] = []
    for token in tokens:
        before = out[-1] if out else None
        if token.token_type in _PREFIXED_LITERALS and _literal_named(sql, token):
            start, comments = token.start, token.comments
        elif (
            before is not None
            and before.token_type == TokenType.VAR
            and before.end + 1 == token.start
            and token.token_type in _NAME_GOES_ON
            and (token.text[:1].isalnum() or token.text[:1] in "_$")
            and _is_bare_exponent(before.text)
        ):
            out.pop()
            start, comments = before.start, before.comments
        elif token.token_type == TokenType.NUMBER and _is_bare_exponent(token.text):
            start, comments = token.start, token.comments
        elif token.token_type in _NAME_GOES_ON and (
            dot := _QUALIFIED_EXPONENT.fullmatch(token.text)
        ):
            # `1e.t` and the `1e.` of ``1e.`t` ``, which sqlglot reads as one name or one
            # number: the name 1e, a dot, and the name after it if any
            first, cut = token.start, token.start + dot.end(1)
            line, col, comments = token.line, token.col, token.comments
            out.append(Token(TokenType.VAR, dot.group(1), line, col, first, cut - 1, comments))
            out.append(Token(TokenType.DOT, ".", line, col, cut, cut))
            if dot.group(2):
                out.append(Token(TokenType.VAR, dot.group(2), line, col, cut + 1, token.end))
            continue
        else:
            out.append(token)
            continue
        text = sql[start : token.end + 1]
        out.append(Token(TokenType.VAR, text, token.line, token.col, start, token.end, comments))
    return out


def _is_bare_exponent(text: str) -> bool:
    return len(text) > 1 and text[-1] in "eE" and text[:-1].isdigit()


#: the tokens of a hex or bit literal, ``0x1`` and ``X'01'`` alike
_PREFIXED_LITERALS = frozenset({TokenType.HEX_STRING, TokenType.BIT_STRING})


def _literal_named(sql: str, token: Token) -> bool:
    """Whether a hex or bit literal's token is a name as both servers read it: written with
    a 0 and an upper-case X or B, or with an underscore among its digits (``X'01'`` and
    ``b'1'``, quoted, are literals in either case)."""
    written = sql[token.start : token.end + 1]
    return written[:2] in ("0X", "0B") or (written[:1] == "0" and "_" in written)


def _check_extensible() -> None:
    """mvdd extends sqlglot's MySQL parser in Python. sqlglot's compiled build (the
    ``sqlglotc`` package, which ``pip install 'sqlglot[c]'`` adds and which replaces sqlglot's
    modules with compiled ones wherever sqlglot is installed) refuses to make an instance of
    a Python subclass of its classes; every statement would then fail as unreadable. Fail at
    import instead, naming the remedy."""
    try:
        MvddParser()
    except TypeError as err:
        raise DependencyError(
            "sqlglot's compiled build (the sqlglotc package, from 'sqlglot[c]') is installed: "
            f"it cannot run mvdd's extension of sqlglot's MySQL parser ({err}); remove it "
            "with 'pip uninstall sqlglotc' (mvdd runs on sqlglot's Python build)"
        ) from None


_check_extensible()

DIALECT = MvddMySQL()


class MariaDBGenerator(MvddGenerator):
    """MariaDB's spellings where they differ from MySQL's: an invisible index is IGNORED."""

    VISIBILITY = {True: "NOT IGNORED", False: "IGNORED"}


class MvddMariaDB(MvddMySQL):
    """mvdd's dialect rendering for a MariaDB server (it reads both servers' text)."""

    Generator = MariaDBGenerator


#: the dialect that renders for each server flavour (mvdd.binlog.source.server_flavor)
DIALECTS: dict[str, MvddMySQL] = {"mysql": DIALECT, "mariadb": MvddMariaDB()}


class PipesParser(MvddParser):
    """The parser of statements written under PIPES_AS_CONCAT: ``a || b`` is the
    concatenation, binding as MariaDB binds it (tighter than ``^``, looser than a unary
    operator), not ``a OR b``."""

    DISJUNCTION = {k: v for k, v in MvddParser.DISJUNCTION.items() if k != TokenType.DPIPE}

    def _parse_exponent(self) -> exp.Expr | None:
        this = self._parse_concatenation()
        while self._match_set(self.EXPONENT):
            this = self.expression(
                self.EXPONENT[self._prev.token_type](
                    this=this, expression=self._parse_concatenation()
                )
            )
        return this

    def _parse_concatenation(self) -> exp.Expr | None:
        this = self._parse_unary()
        while self._match(TokenType.DPIPE):  # (a CONCAT of two: the server nests them)
            this = self.expression(exp.Concat(expressions=[this, self._parse_unary()]))
        return this


class _HighNot:
    """NOT as tightly bound as ``!`` (HIGH_NOT_PRECEDENCE): ``NOT a BETWEEN b AND c`` is
    ``(NOT a) BETWEEN b AND c``, kept in parentheses so that it renders so."""

    def _parse_not(self: Any) -> exp.Expr:
        return self.expression(exp.Paren(this=self.expression(exp.Not(this=self._parse_unary()))))


@functools.cache
def _reading(
    ansi_quotes: bool, backslash: bool, pipes: bool, real_float: bool, high_not: bool
) -> MvddMySQL:
    if not ansi_quotes and backslash and not pipes and not real_float and not high_not:
        return DIALECT
    tokenizer: dict[str, Any] = {}
    if ansi_quotes:  # "…" an identifier
        tokenizer["QUOTES"] = ["'"]
        tokenizer["IDENTIFIERS"] = ["`", '"']
    if not backslash:  # a backslash is itself; a quote doubled is the quote
        tokenizer["STRING_ESCAPES"] = ["'"] if ansi_quotes else ["'", '"']
    if real_float:
        tokenizer["KEYWORDS"] = {**MvddMySQL.Tokenizer.KEYWORDS, "REAL": TokenType.FLOAT}
    parser: type = PipesParser if pipes else MvddParser
    if high_not:
        parser = type("Parser", (_HighNot, parser), {})
    dialect: dict[str, Any] = {"Parser": parser}
    name = "MvddMySQL" + "".join(
        word
        for word, on in (
            ("Ansi", ansi_quotes),
            ("Raw", not backslash),
            ("Pipes", pipes),
            ("Real", real_float),
            ("HighNot", high_not),
        )
        if on
    )
    dialect["Tokenizer"] = type("Tokenizer", (MvddMySQL.Tokenizer,), tokenizer)
    return type(name, (MvddMySQL,), dialect)()  # type: ignore[no-any-return]


def reading(mode: SqlMode) -> MvddMySQL:
    """The dialect that reads statements written under ``mode``, a session's sql_mode
    (:mod:`mvdd.ddl.sqlmode`): ``"…"`` an identifier under ANSI_QUOTES, a backslash itself
    under NO_BACKSLASH_ESCAPES, ``||`` a concatenation under PIPES_AS_CONCAT, ``REAL`` a FLOAT
    under REAL_AS_FLOAT, NOT as tight as ``!`` under HIGH_NOT_PRECEDENCE; each renders as
    :data:`DIALECT` does (a tree read under any mode is written for the default one). One
    dialect per combination, made once.

    >>> from mvdd.ddl.sqlmode import SqlMode
    >>> sql = 'CREATE TABLE "t" ("a" TEXT DEFAULT ("b" || "c"))'
    >>> reading(SqlMode.of("ANSI_QUOTES,PIPES_AS_CONCAT")).parse(sql)[0].sql(dialect=DIALECT)
    'CREATE TABLE `t` (`a` TEXT DEFAULT (CONCAT(`b`, `c`)))'
    """
    return _reading(*mode.grammar)


# --- room for recursive descent -----------------------------------------------------------------

_DEEP_LIMIT = 10_000


class _DeepStack:
    """Room for sqlglot's recursive descent while one or more statements are parsed: a few
    hundred nested parentheses take thousands of Python frames. Python's limit is raised for
    the time of the parse (never lowered below what it was) and put back by the last parser.
    (A class rather than a generator-based context manager: it is entered for every statement
    read.)"""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._saved = 0

    def __call__(self) -> _DeepStack:
        return self

    def __enter__(self) -> None:
        with self._lock:
            if self._users == 0:
                self._saved = sys.getrecursionlimit()
                sys.setrecursionlimit(max(self._saved, _DEEP_LIMIT))
            self._users += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._users -= 1
            if self._users == 0:
                sys.setrecursionlimit(self._saved)


#: ``with deep_stack(): …`` parses with room for deep nesting (see :class:`_DeepStack`)
deep_stack = _DeepStack()
