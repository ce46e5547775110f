"""Applying steps to a table: a pure function from (step, table) to the next table.

:func:`apply` is dispatched by step class. A step that cannot apply raises
:class:`~mvdd.errors.DDLError` naming the table, the column or index and the step, and the input
table is untouched (tables are immutable). Statement-level invariants (one AUTO_INCREMENT column,
and it indexed; expressions naming existing columns; key parts MySQL accepts) are checked by
:func:`validate_table` once the whole statement has applied, as MySQL does.

Where MySQL and MariaDB differ, mvdd takes the stricter rule and says so: dropping a column
that a multi-column UNIQUE or PRIMARY KEY covers is refused (MariaDB) rather than silently
weakening the key (MySQL 8); unnamed checks are named ``CONSTRAINT_<n>`` as MariaDB does.

Adding a NOT NULL column without a default to an existing table is refused: rows written under
earlier versions would have no value for it (seed 003). ``rules`` (:class:`~mvdd.ddl.rules.Rules`)
says how a step applies: ``MVDD`` (the default) for a table that may hold rows, ``EMPTY`` for
one its statement creates (CREATE TABLE builds its table that way), ``SERVER`` for a statement
a server already ran, which a replica follows by that server's rules
(:data:`~mvdd.ddl.rules.STRICTER`).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from functools import partial
from typing import Any, TypeVar

import attrs

from mvdd.ddl import expr as ex
from mvdd.ddl import step as s
from mvdd.ddl.constant import UNKNOWN, default_value
from mvdd.ddl.dialect import SEQUENCE_CALLS
from mvdd.ddl.name import split_name
from mvdd.ddl.options import check_innodb, check_named, engine_kept
from mvdd.ddl.records import GATE as RECORD_GATE
from mvdd.ddl.records import check_added_defaults, check_record_size
from mvdd.ddl.rules import Rules
from mvdd.ddl.sequence import check_structure
from mvdd.ddl.types import read_members
from mvdd.ddl.versioning import (
    check_versioned,
    row_period_changed,
    set_period,
    with_period_key,
    without_period,
)
from mvdd.errors import DDLError, MvddError, UnsupportedDDLError
from mvdd.model import (
    NO_DEFAULT,
    PRIMARY,
    Check,
    Column,
    Expr,
    Index,
    IndexKind,
    IndexPart,
    Table,
    TableOptions,
)
from mvdd.model.coerce import from_temporal_literal
from mvdd.model.dispatch import by_class
from mvdd.model.element import coerce_default
from mvdd.model.encoding import (
    bytes_in,
    holds,
    holds_every_character,
    kept_text,
    python_codec,
)
from mvdd.model.kind import (
    INTEGER_BYTES,
    LOB_BYTES,
    LOB_FAMILIES,
    MAX_ROW_BYTES,
    MAX_VARCHAR_BYTES,
    PLUGIN_BYTES,
    TEXT_SIZES,
    Family,
    TypeKind,
)
from mvdd.model.names import check_identifier, check_key, fold_name
from mvdd.model.row import zero_value
from mvdd.model.table import DEFAULT_AS_EXPRESSION, INNODB, is_long_unique, position_by_name
from mvdd.model.types import (
    CHARSET_DEFAULT,
    ColumnType,
    bin_collation,
    castable,
    check_members,
    max_bytes_per_char,
    resolve_charset,
    text_kind_for_length,
)
from mvdd.model.zone import utc_text


def apply(step: s.Step, table: Table, *, rules: Rules = Rules.MVDD) -> Table:
    """The table after one step (same version: the catalog numbers versions per statement).

    Raises DDLError (with the table, element and step named) if the step cannot apply.

    >>> from mvdd.ddl.statement import parse_table, parse_statements
    >>> t = parse_table("CREATE TABLE t (a INT)")
    >>> (st,) = parse_statements("ALTER TABLE t ADD COLUMN b INT FIRST")[0].steps
    >>> apply(st, t).column_names
    ('b', 'a')
    """
    try:
        return _apply(step, table, rules)
    except MvddError as err:
        raise err.locate(table=table.name, step=str(step)) from None


def check_ordered_by(ordered: s.OrderedBy, table: Table) -> None:
    """``ALTER TABLE … ORDER BY``: each column it names is one of ``table``'s, the table as the
    statement found it (the server resolves these names before the statement's changes);
    DDLError naming the table and the column otherwise.

    >>> from mvdd.ddl.statement import parse_statements, parse_table
    >>> (st,) = parse_statements("ALTER TABLE t ADD b INT, ORDER BY b")
    >>> check_ordered_by(st.ordered_by[0], parse_table("CREATE TABLE t (a INT)"))
    Traceback (most recent call last):
    ...
    mvdd.errors.DDLError: unknown column in ORDER BY (table `t`, column `b`)
    """
    for column in ordered.columns:
        if table.find_column(column) is None:
            raise DDLError("unknown column in ORDER BY", table=ordered.table, column=column)


def apply_steps(table: Table, steps: Iterable[s.Step], *, rules: Rules = Rules.MVDD) -> Table:
    """The table after every step in order, one by one (no statement-level validation): steps
    as a catalog's history keeps them. A statement's own steps apply with
    :func:`mvdd.ddl.order.apply_statement`."""
    for st in steps:
        table = apply(st, table, rules=rules)
    return table


def auto_timestamps(table: Table, steps: Iterable[s.Step]) -> Table:
    """``table`` once a statement's ``steps`` are done, with CURRENT_TIMESTAMP for the DEFAULT
    and ON UPDATE of its first TIMESTAMP column when one of them defined it as a session
    without ``explicit_defaults_for_timestamp`` does (``auto_timestamp``: no NULL, DEFAULT nor
    ON UPDATE), as the server settles it on the table the statement leaves (``ADD a
    TIMESTAMP, ADD b TIMESTAMP FIRST`` gives it to ``b``)."""
    named = {
        fold_name(st.column.name if isinstance(st, s.AddColumn) else st.definition.name)
        for st in steps
        if isinstance(st, s.AddColumn | s.ModifyColumn) and st.auto_timestamp
    }
    if not named:
        return table
    first = next((c for c in table.columns if c.type.kind == TypeKind.TIMESTAMP), None)
    if first is None or fold_name(first.name) not in named:
        return table
    now = ex.now(first.type.fsp or 0)
    return table.replacing_column(first, attrs.evolve(first, default=now, on_update=now))


@by_class
def _apply(step: s.Step, table: Table, rules: Rules) -> Table:
    raise UnsupportedDDLError(f"{type(step).__name__} does not apply to a single table")


# --- helpers -------------------------------------------------------------------------------


def _column(table: Table, name: str) -> Column:
    col = table.find_column(name)
    if col is None:
        raise DDLError("no such column", column=name)
    return col


def _key(table: Table, name: str) -> Index:
    idx = table.find_index(name)
    if idx is None:
        raise DDLError("no such index", index=name)
    return idx


def _with_table_charset(
    table: Table,
    ctype: ColumnType,
    *,
    column: str,
    binary: bool = False,
    text_chars: int | None = None,
    loose: bool = False,
    alike: bool = False,
    written: tuple[int, ...] = (),
    named: str | None = None,
) -> ColumnType:
    """A string type without a charset (column ``column``'s) takes the table's default (if
    known), as MySQL does; ``binary`` (the BINARY attribute without a CHARACTER SET), that
    charset's ``_bin`` collation, which needs the table's charset known (UnsupportedDDLError
    otherwise);
    ``text_chars`` (the M of a ``TEXT(M)``), the TEXT kind holding M characters of it;
    ``loose`` (a session that was not strict), a VARCHAR too long in it the TEXT kind holding
    its characters (:func:`~mvdd.ddl.types.loosened`); ``alike``, an ENUM's or a SET's
    members that are one in it kept so (:attr:`~mvdd.ddl.rules.Session.members_alike`);
    ``written``, the places of an ENUM's
    or a SET's members written as a hex or bit literal, their bytes read in that charset
    (:func:`~mvdd.ddl.types.read_members`); ``named``, a collation named without its charset
    (``uca1400_ai_ci``), the one of that name of that charset (which must be known)."""
    if not (ctype.has_charset and ctype.collation is None):
        return ctype
    charset = table.options.charset
    try:
        ctype = read_members(ctype, written, charset)
    except MvddError as err:
        raise err.locate(column=column) from None
    if (
        loose
        and ctype.kind == TypeKind.VARCHAR
        and charset is not None
        and (ctype.length or 0) * max_bytes_per_char(charset) > MAX_VARCHAR_BYTES
    ):
        text_chars = ctype.length
    if text_chars is not None and charset is not None:
        kind = text_kind_for_length(text_chars, charset)
        if kind != ctype.kind:
            ctype = ColumnType.of(kind).compressing(ctype.compressed)
    collation: str | None
    if named is not None:
        if charset is None:
            raise UnsupportedDDLError(
                f"COLLATE {named} without a CHARACTER SET takes the table's charset, which is "
                "not known (a catalog given its database's: Catalog(charset=…))"
            )
        try:
            charset, collation = resolve_charset(
                charset, None if named == CHARSET_DEFAULT else named
            )
        except MvddError as err:
            raise err.locate(column=column) from None
    elif binary and charset != "binary":  # (in the charset binary, the twin is binary anyway)
        if charset is None:
            raise UnsupportedDDLError(
                "the BINARY attribute without a CHARACTER SET takes the table's charset, which "
                "is not known (a catalog given its database's: Catalog(charset=…))"
            )
        charset, collation = resolve_charset(None, bin_collation(charset))
    else:
        collation = table.options.collation
    try:  # (an ENUM's members meet their collation here: two may be one)
        if collation is None:  # (nor the table's charset known: check_members's fallback)
            if ctype.members and not alike:
                check_members(ctype.kind, ctype.members, None)
            return ctype
        resolved = ctype.with_charset(charset, collation, checked=not alike)
        # (a compressed VARCHAR's length judged again in the charset it takes: the server's 1074)
        return resolved.compressing(resolved.compressed)
    except MvddError as err:
        raise err.locate(column=column) from None


def with_database_charset(table: Table, charset: str | None, collation: str | None) -> Table:
    """``table`` as created in a database whose default is (charset, collation): a table that
    names no charset takes it, and so do its string columns that name none (as the server
    does at CREATE TABLE). Unchanged when the table has a charset or no default is given.

    >>> from mvdd.ddl.statement import parse_table
    >>> t = with_database_charset(parse_table("CREATE TABLE t (a TEXT)"), "latin1", None)
    >>> t.column("a").type.collation
    'latin1_swedish_ci'
    """
    if table.options.collation is not None or (charset is None and collation is None):
        return table
    charset, collation = resolve_charset(charset, collation)
    options = attrs.evolve(table.options, charset=charset, collation=collation)
    resolved = table.with_changes(options=options)
    columns = tuple(
        attrs.evolve(c, type=_with_table_charset(resolved, c.type, column=c.name))
        for c in table.columns
    )
    return resolved.with_columns(columns)


def _place(
    columns: tuple[Column, ...], col: Column, place: s.Place, *, keep_at: int | None
) -> tuple[tuple[Column, ...], int]:
    """``columns`` with ``col`` inserted at its place (``keep_at``: where it was, for MODIFY),
    and where that is."""
    if place.first:
        at = 0
    elif place.after is not None:
        i = position_by_name(columns, place.after)
        if i is None:
            raise DDLError("no such column to place after", column=place.after)
        at = i + 1
    else:
        at = len(columns) if keep_at is None else keep_at
    # concatenated, not unpacked: the unpacking builds a list and copies it again (1.5 against
    # 1.0 µs for 100 columns)
    return columns[:at] + (col,) + columns[at:], at  # noqa: RUF005


_TEMPORAL_WITH_NOW = frozenset({TypeKind.TIMESTAMP, TypeKind.DATETIME})


#: a bare CURRENT_TIMESTAMP[(n)]: the whole normalised text of an expression
_NOW = re.compile(r"CURRENT_TIMESTAMP\((\d*)\)")


def now_precision(value: object) -> int | None:
    """fsp of a bare CURRENT_TIMESTAMP[(n)], None for other values: an expression that calls
    it among other things (``CURRENT_TIMESTAMP(3) + INTERVAL 1 DAY``) is an expression like
    any other, whose precision no server fits to its column's.

    >>> from mvdd.ddl.expr import normalize_sql
    >>> [now_precision(normalize_sql(e)) for e in ("NOW()", "NOW(3)", "NOW(3) + INTERVAL 1 DAY")]
    [0, 3, None]
    """
    if isinstance(value, Expr):
        bare = _NOW.fullmatch(value.sql)
        if bare is not None:
            return int(bare[1] or 0)
    return None


#: the longest comment of each element, in characters (a longer one is an error under strict
#: mode, the servers' default; MySQL and MariaDB agree)
_COMMENT_CHARS = {"column": 1024, "index": 1024, "table": 2048}
#: the most indexes of a table, and parts of an index (MariaDB's 32; MySQL's InnoDB takes 16:
#: mvdd refuses what no server takes)
_MAX_INDEXES = 64
_MAX_KEY_PARTS = 32


#: a value with a comment: a column, an index, a table's options
_Commented = TypeVar("_Commented", Column, Index, TableOptions)


def held_comment(value: _Commented, element: str, rules: Rules) -> _Commented:
    """A column, an index or a table's options with its comment as the server keeps it: cut
    to its most characters (:data:`_COMMENT_CHARS`) in a session that was not strict, as the
    server cuts it with a warning (its 1628, 1629 and 1688 in a strict one, which validation
    gives); the very value where nothing is cut."""
    most = _COMMENT_CHARS[element]
    comment = value.comment
    if comment is not None and rules.session.loose and len(comment) > most:
        return attrs.evolve(value, comment=comment[:most])
    return value


def _check_comment(comment: str | None, element: str, **where: str) -> None:
    most = _COMMENT_CHARS[element]
    if comment is not None and len(comment) > most:
        raise DDLError(
            f"{element} comment too long: {len(comment)} characters of at most {most}", **where
        )


#: what an expression reads that is not the row's: nothing may call these (the server's error
#: 1901, 1970 for a subquery in a CHECK): other rows (a subquery, an aggregate or a window
#: function, a full-text search, the row's number), the session's last statement, locks, files
_NEVER = frozenset(
    {
        "SELECT",
        "AGGREGATE",
        "MATCH",
        "JSON_ARRAYAGG",
        "ROWNUM",
        "LAST_INSERT_ID",
        "FOUND_ROWS",
        "ROW_COUNT",
        "SLEEP",
        "BENCHMARK",
        "GET_LOCK",
        "RELEASE_LOCK",
        "RELEASE_ALL_LOCKS",
        "IS_FREE_LOCK",
        "IS_USED_LOCK",
        "LOAD_FILE",
        "MASTER_POS_WAIT",
        "MASTER_GTID_WAIT",
        # an INSERT … ON DUPLICATE KEY UPDATE's value, a stored procedure's named constant
        "VALUE",
        "VALUES",
        "NAME_CONST",
    }
)
#: what only a DEFAULT may call: sequences, and RANDOM_BYTES (chance, which MariaDB keeps out of
#: a virtual column where it lets RAND in)
_DEFAULT_ONLY = frozenset({*SEQUENCE_CALLS, "RANDOM_BYTES"})
#: what changes from call to call or with the session (the clock, chance, the user, the
#: database, the time zone, a variable): a virtual column and a DEFAULT may call these, a
#: stored column and a CHECK may not
_VOLATILE = frozenset(
    {
        "@",
        "CURRENT_TIMESTAMP",
        "CURRENT_DATE",
        "CURRENT_TIME",
        "UTC_TIMESTAMP",
        "UTC_DATE",
        "UTC_TIME",
        "SYSDATE",
        "UNIX_TIMESTAMP()",
        "FROM_UNIXTIME",
        "UUID",
        "UUID_SHORT",
        "RAND",
        "CONNECTION_ID",
        "USER",
        "SESSION_USER",
        "SYSTEM_USER",
        "CURRENT_USER",
        "CURRENT_ROLE",
        "DATABASE",
        "SCHEMA",
        "VERSION",
    }
)
#: where an expression stands -> what it may not call (MariaDB's rules; MySQL also keeps the
#: volatile ones out of a virtual column: mvdd refuses what no server takes)
_FORBIDDEN_CALLS = {
    "DEFAULT": _NEVER,
    "a virtual column": _NEVER | _DEFAULT_ONLY,
    "a stored column": _NEVER | _DEFAULT_ONLY | _VOLATILE,
    "CHECK": _NEVER | _DEFAULT_ONLY | _VOLATILE,
}


#: how a call that is not a function is named in an error
_CALL_NAMES = {
    "SELECT": "a subquery",
    "@": "a variable",
    "AGGREGATE": "an aggregate or window function",
    "MATCH": "MATCH … AGAINST",
}


def _check_calls(e: Expr, place: str, **where: str) -> None:
    bad = ex.calls(e) & _FORBIDDEN_CALLS[place]
    if bad:
        what = ", ".join(_CALL_NAMES.get(b, b) for b in sorted(bad))
        raise DDLError(f"{place} cannot use {what}: expression {e.sql}", **where)


def _generated_place(col: Column) -> str:
    """What a generated column's expression is called in an error."""
    assert col.generated is not None
    return "a stored column" if col.generated.stored else "a virtual column"


def _defined(col: Column, rules: Rules) -> Column:
    """A column as an ADD, a MODIFY, a CHANGE or an ALTER … SET DEFAULT defines it, checked
    (:func:`_check_column`); under the server's rules, with the precision MariaDB gives its
    CURRENT_TIMESTAMP in a column definition. (An ALTER … SET DEFAULT keeps the precision as
    written on the server, where its SHOW CREATE TABLE shows it, but that text defines the
    column's: a replica keeps the one the text defines, so that a catalog which followed the
    statement and one which read the server's snapshot hold the same table.) A TIMESTAMP's
    literal DEFAULT written in a session's zone is kept as UTC text (:mod:`mvdd.model.zone`)."""
    if not rules.strict and col.type.kind in _TEMPORAL_WITH_NOW:
        col = _server_now(col)
    sign = ex.signed_pi(col.default) if rules.flavor == "mariadb" else None
    if sign is not None:
        col = _pi_folded(col, sign)
    elif rules.flavor == "mariadb" and ex.bare_version(col.default):
        col = _version_folded(col)
    elif isinstance(col.default, Expr):
        literal = ex.temporal_literal(col.default)
        if literal is not None:
            col = _literal_folded(col, *literal, rules)
        else:
            _check_constant_default(col, rules)
    if (
        rules.session.time_zone is not None
        and col.type.kind == TypeKind.TIMESTAMP
        and isinstance(col.default, str)
    ):
        col = attrs.evolve(col, default=utc_text(col.default, rules.session.time_zone))
    col = held_comment(col, "column", rules)
    _check_column(col, rules)
    return col


def default_under(value: Any, ctype: ColumnType, column: str, rules: Rules) -> Any:
    """A DEFAULT's value as a column of ``ctype`` holds it under ``rules``: read as its
    server reads it (MariaDB's ways), kept as a replica's server took it, under the session's
    ALLOW_INVALID_DATES and TIME_ROUND_FRACTIONAL (:func:`~mvdd.model.element.coerce_default`)."""
    return coerce_default(
        value,
        ctype,
        column,
        mariadb=rules.mariadb_values,
        replica=not rules.strict,
        any_day=rules.session.any_day,
        round_fractions=rules.session.round_fractions,
        written_in=rules.session.charset,
    )


def _check_constant_default(col: Column, rules: Rules) -> None:
    """MariaDB's check of a DEFAULT ``(…)`` that reads only literals: the value it computes
    (:func:`~mvdd.ddl.constant.default_value`) must suit the column as a literal would, and a
    NOT NULL column's must not be NULL (its error 1067; mvdd's rules keep it too, the stricter
    server's; a replica of MySQL, or of a server it does not know, checks nothing). A value
    mvdd cannot be sure of passes."""
    assert isinstance(col.default, Expr)
    if not (rules.strict or rules.flavor == "mariadb"):
        return
    what = f"invalid default value: ({col.default.sql})"
    try:
        value = default_value(col.default, col.type)
        if value is not UNKNOWN and value is not None:
            default_under(value, col.type, col.name, rules)
    except MvddError as err:
        raise DDLError(f"{what}: {err.message}", column=col.name) from None
    if value is None and not col.nullable:
        raise DDLError(f"{what} is NULL in a NOT NULL column", column=col.name)


def _literal_folded(col: Column, kind: TypeKind, value: str, rules: Rules) -> Column:
    """A column whose DEFAULT is a typed temporal literal alone (``DATE '2020-01-01'``), as
    both servers keep it: a constant, the literal's value as the column's type holds it
    (:func:`~mvdd.model.coerce.from_temporal_literal`), or the expression where the column
    keeps that (a TEXT, BLOB or JSON column). A TIME literal in a DATE, DATETIME or TIMESTAMP
    column takes the day the statement ran on, which no catalog knows: mvdd's rules refuse
    it; a replica keeps the expression (where its server keeps that day)."""
    try:
        # (MariaDB takes a literal's whole seconds in an integer column in any sql_mode)
        folded = from_temporal_literal(kind, value, col.type, cut=rules.mariadb_values)
    except MvddError as err:
        raise DDLError(f"invalid default value: {err.message}", column=col.name) from None
    if folded is not None:
        default = default_under(folded, col.type, col.name, rules)
        return attrs.evolve(col, default=default)
    if rules.strict and col.type.family == Family.TEMPORAL:
        raise DDLError(
            f"a TIME literal as the DEFAULT of a {col.type.kind} column takes the day the "
            "statement runs on: write the date and time (TIMESTAMP '…')",
            column=col.name,
        )
    return col


#: a DEFAULT of ``PI()`` alone, which MariaDB keeps as its value (:data:`~mvdd.ddl.rules.MARIADB`)
_PI = Expr("PI()")
_PI_TEXT = "3.141592653589793"


def _pi_folded(col: Column, sign: int) -> Column:
    """A column whose DEFAULT is ``PI()`` alone, or negated, as MariaDB keeps it: the value, as
    the column's type holds it (3 in an INT, 3.14159 in a FLOAT, ``'3.1'`` cut into a
    VARCHAR(3) or a BINARY(3), -3 of ``-PI()`` in an INT); ``PI()`` itself in a TEXT, BLOB or
    JSON column, which loses a negation there (its rows take 3.14159…, as its SHOW CREATE TABLE
    shows); the expression where the type holds no such value (the server refuses those)."""
    family = col.type.family
    if family in LOB_FAMILIES:
        return col if col.default == _PI else attrs.evolve(col, default=_PI)
    text = _PI_TEXT if sign > 0 else f"-{_PI_TEXT}"
    value: Any = Decimal(text)
    if family in (Family.CHAR, Family.BINARY):
        value = text[: col.type.length]
    try:
        return attrs.evolve(col, default=coerce_default(value, col.type, col.name))
    except DDLError:
        return col


def _version_folded(col: Column) -> Column:
    """A column whose DEFAULT is ``VERSION()`` alone, as MariaDB keeps it: no value, NULL in
    a column that takes NULL, else the zero of its type (0, '', the zero date); the expression
    itself in a TEXT, BLOB, JSON or geometry column (whose rows take the server's version); an
    ENUM or a SET refuses it."""
    family = col.type.family
    if family in LOB_FAMILIES or family is Family.SPATIAL:
        return col
    if family is Family.ENUM:
        raise DDLError(f"invalid default value: VERSION() in {col.type}", column=col.name)
    return attrs.evolve(col, default=None if col.nullable else zero_value(col.type))


def _server_now(col: Column) -> Column:
    """A DATETIME(m) or TIMESTAMP(m) column's CURRENT_TIMESTAMP(n) DEFAULT and ON UPDATE as
    MariaDB defines them (:data:`~mvdd.ddl.rules.STRICTER`): n is m when 0 or above m; a
    smaller n stays in a DEFAULT, and is refused in an ON UPDATE."""
    fsp = col.type.fsp or 0

    def fitted(value: Any, on_update: bool) -> Any:
        n = now_precision(value)
        if n is None:
            return value
        if on_update and 0 < n < fsp:
            raise DDLError(
                f"invalid ON UPDATE: CURRENT_TIMESTAMP({n}) on {col.type}", column=col.name
            )
        made = ex.now(n if 0 < n <= fsp else fsp)
        return value if made == value else made

    default, on_update = fitted(col.default, False), fitted(col.on_update, True)
    if default is col.default and on_update is col.on_update:
        return col
    return attrs.evolve(col, default=default, on_update=on_update)


#: MySQL's largest DECIMAL scale, one of mvdd's stricter rules (MariaDB's is
#: :data:`~mvdd.model.types.MAX_DECIMAL_SCALE`)
_SCALE = 30


def _check_column(col: Column, rules: Rules = Rules.MVDD) -> None:
    """Rules about one column definition on its own (``rules``: whether mvdd's stricter ones
    hold)."""
    check_identifier(col.name, "column")
    where = {"column": col.name}
    _check_comment(col.comment, "column", **where)
    # (whether an expression reads its own column is the statement's to judge: an ALTER …
    # SET or DROP DEFAULT, a MODIFY of an added column, replaces it first; _generated_in_order)
    if isinstance(col.default, Expr):
        _check_calls(col.default, "DEFAULT", **where)
    if col.generated is not None:
        _check_calls(col.generated.expr, _generated_place(col), **where)
    if col.check is not None:
        _check_calls(col.check, "CHECK", **where)
    if col.default is None and not col.nullable:
        raise DDLError("invalid default value: NOT NULL column with DEFAULT NULL", **where)
    if col.generated is not None and (
        col.default is not NO_DEFAULT or col.auto_increment or col.on_update is not None
    ):
        raise DDLError("a generated column takes no DEFAULT, AUTO_INCREMENT or ON UPDATE", **where)
    if col.auto_increment:
        if col.type.family not in (Family.INTEGER, Family.FLOAT):
            raise DDLError(f"AUTO_INCREMENT on a {col.type} column", **where)
        if col.default is not NO_DEFAULT:
            raise DDLError("invalid default value for an AUTO_INCREMENT column", **where)
    for label, value in (("default", col.default), ("ON UPDATE", col.on_update)):
        fsp = now_precision(value) if isinstance(value, Expr) else None  # (a literal: none)
        if fsp is None:
            continue
        if col.type.kind not in _TEMPORAL_WITH_NOW and label == "ON UPDATE":
            raise DDLError(f"ON UPDATE CURRENT_TIMESTAMP on a {col.type} column", **where)
        if rules.strict and col.type.kind in _TEMPORAL_WITH_NOW and fsp != (col.type.fsp or 0):
            raise DDLError(f"invalid {label}: CURRENT_TIMESTAMP({fsp}) on {col.type}", **where)
    if rules.strict and col.type.kind == TypeKind.DECIMAL and (col.type.scale or 0) > _SCALE:
        raise DDLError(
            f"DECIMAL scale {col.type.scale} is out of range 0..{_SCALE} (MySQL's)", **where
        )
    if rules.strict and col.type.two_digit:
        raise DDLError("YEAR(2) is MariaDB's: MySQL has no two-digit YEAR", **where)
    if rules.strict and col.type.family == Family.JSON and isinstance(col.default, str):
        try:
            col.type.coerce(col.default)
        except MvddError as err:
            raise DDLError(f"invalid default value: {err.message}", **where) from None
    if col.on_update is not None and now_precision(col.on_update) is None:
        raise DDLError("ON UPDATE takes only CURRENT_TIMESTAMP", **where)


def _rename_in_expressions(table: Table, old: str, new: str, *, keep: int | None = None) -> Table:
    """Rewrite checks, generated columns and DEFAULT expressions that name column ``old``
    (MariaDB does the same), but those of column ``keep``: a clause's own definition names the
    columns as the statement leaves them, and the server renames only what the table held. An
    element that does not name it stays the very object it was (so the element diff skips
    it), and a table without expressions is walked not at all (its column tally says so)."""
    folded = fold_name(old)
    rewritten = False

    def fix(e: Expr) -> Expr:
        nonlocal rewritten
        if folded not in ex.referenced_columns(e):
            return e
        rewritten = True
        return ex.rename_column(e, old, new)

    columns = table.columns
    if table.column_tally().expressions:
        remade = []
        for col in columns:
            for where, held in _own_expressions(col) if col.id != keep else ():
                expr = fix(held)
                if expr is not held:
                    col = _holding(col, where, expr)
            remade.append(col)
        columns = tuple(remade)
    checks = tuple(
        c if (expr := fix(c.expr)) is c.expr else attrs.evolve(c, expr=expr) for c in table.checks
    )
    if not rewritten:
        return table  # nothing names the column
    return table.with_changes(columns=columns, checks=checks)


def _users_of(table: Table, column: Column, *, taken: bool = False) -> list[str]:
    """Checks, generated columns and DEFAULT expressions (other than the column's own) that
    read ``column``; a check that reads only this column is not a user: MariaDB drops it with
    the column. ``taken``: another clause gives the name to a column, which the generated
    columns, the columns' own checks and the DEFAULT expressions then read (the table's checks
    still refuse the drop, as on the server)."""
    folded = fold_name(column.name)
    out = [
        f"check `{c.name}`"
        for c in table.checks
        if folded in (reads := ex.referenced_columns(c.expr)) and reads != {folded}
    ]
    if taken or not table.column_tally().expressions:
        return out  # no column holds an expression, or none reads the dropped one
    for other in table.columns:
        if other.id == column.id:
            continue
        for where, expr in _own_expressions(other):
            if folded in ex.referenced_columns(expr):
                out.append(f"{_USERS[where]} `{other.name}`")
    return out


#: what a column is called by where it holds an expression that reads another
_USERS = {
    "generated": "generated column",
    "check": "the check of column",
    "default": "the DEFAULT of column",
}


def _own_expressions(col: Column) -> list[tuple[str, Expr]]:
    """The expressions a column holds that may name other columns, each with where it holds
    it (a key of :data:`_USERS`)."""
    out = []
    if col.generated is not None:
        out.append(("generated", col.generated.expr))
    if col.check is not None:
        out.append(("check", col.check))
    if type(col.default) is Expr:
        out.append(("default", col.default))
    return out


def _holding(col: Column, where: str, expr: Expr) -> Column:
    """``col`` holding ``expr`` where :func:`_own_expressions` found one."""
    if where == "generated":
        assert col.generated is not None
        return attrs.evolve(col, generated=attrs.evolve(col.generated, expr=expr))
    changes: dict[str, Any] = {where: expr}
    return attrs.evolve(col, **changes)


# --- table steps ---------------------------------------------------------------------------


@_apply.register
def _(step: s.RenameTable, table: Table, rules: Rules) -> Table:
    check_identifier(split_name(step.to)[1], "table")  # (its database's name apart)
    return table.with_changes(name=step.to)


@_apply.register
def _(step: s.TruncateTable, table: Table, rules: Rules) -> Table:
    if step.empties and table.options.sequence:
        raise DDLError("a sequence is not truncated (its one row is its state)")
    if step.empties and table.options.versioned:
        raise DDLError("a system-versioned table is not truncated (DELETE HISTORY ends its past)")
    if step.how in _TABLESPACE_ACTIONS and table.options.engine not in INNODB:
        raise DDLError(f"{step.how}: the {table.options.engine} engine keeps no tablespace")
    return table


@_apply.register
def _(step: s.SetVersioning, table: Table, rules: Rules) -> Table:
    if step.versioned == table.options.versioned:
        raise DDLError(
            "the table is already system-versioned"
            if step.versioned
            else "the table is not system-versioned"
        )
    options = attrs.evolve(table.options, versioned=step.versioned)
    if step.versioned:
        return table.with_changes(options=options)
    # (a table of its own period drops its period columns in the same statement)
    return table.with_changes(options=options, indexes=without_period(table))


@_apply.register
def _(step: s.SetSystemPeriod, table: Table, rules: Rules) -> Table:
    return set_period(table, step.columns)


#: a whole table's actions on its data file, which InnoDB keeps (:data:`INNODB`)
_TABLESPACE_ACTIONS = frozenset({"DISCARD TABLESPACE", "IMPORT TABLESPACE"})


@_apply.register
def _(step: s.SetOptions, table: Table, rules: Rules) -> Table:
    check_one_charset("DEFAULT CHARSET", [str(v) for k, v in step.options if k == "CHARSET"])
    options = table.options.with_options(step.options)
    if (options.charset, options.collation) != (table.options.charset, table.options.collation):
        unknown = [c.name for c in table.columns if c.type.has_charset and c.type.collation is None]
        if unknown:
            # a string column that names no charset holds the table's default as the column
            # was made (the server fixes it then): not known here, a new default would seem
            # to be theirs
            raise UnsupportedDDLError(
                "a new DEFAULT CHARSET leaves each string column the charset it was made with, "
                "which is not known here (a catalog given its database's: Catalog(charset=…))",
                column=unknown[0],
            )
    if rules.strict:  # (IGNORE_BAD_TABLE_OPTIONS holds for a CREATE's options, not here)
        check_named(options, step.options, ignore_bad=False)
    if rules.flavor != "mysql":  # (a MySQL replica's values as written: parse._options)
        options = engine_kept(options, was=table.options, strict=rules.strict)
    options = held_comment(options, "table", rules)
    changed = table.with_changes(options=options)
    if _whole_key_limit(changed) == _whole_key_limit(table):
        return changed
    # another engine's key limit: its keys as the server moves them (ENGINE=MyISAM cuts a
    # plain key over a long column to 1000 bytes, makes a UNIQUE one too long a hash)
    indexes = tuple(_refitted(changed, i) for i in changed.indexes)
    return changed.with_changes(indexes=indexes)


def check_one_charset(kind: str, charsets: Iterable[str]) -> None:
    """DDLError when a statement gives its table two charsets of one kind (``CONVERT TO``,
    ``DEFAULT CHARSET``), as the server refuses it (error 1302); one charset named twice, or
    by two of its names (``utf8``, ``utf8mb3``), is one."""
    resolved = {resolve_charset(charset, None)[0] or charset for charset in charsets}
    if len(resolved) > 1:
        first, second, *_ = sorted(resolved)
        raise DDLError(f"conflicting declarations of {kind}: CHARACTER SET {first} and {second}")


@_apply.register
def _(step: s.ConvertCharset, table: Table, rules: Rules) -> Table:
    charset, collation = resolve_charset(step.charset, step.collation)
    columns = []
    for col in table.columns:
        if col.type.has_charset:
            ctype = converted(
                _members_reread(col, charset, rules),
                charset,
                collation,
                checked=not rules.session.members_alike,
            )
            col = attrs.evolve(_default_held(col, ctype, rules), type=ctype)
        columns.append(col)
    options = attrs.evolve(table.options, charset=charset, collation=collation)
    table = table.with_columns(tuple(columns), options=options)
    indexes = tuple(_refitted(table, i) for i in table.indexes)
    if any(a is not b for a, b in zip(indexes, table.indexes, strict=True)):
        table = table.with_changes(indexes=indexes)
    return table


def _members_reread(col: Column, charset: str | None, rules: Rules) -> ColumnType:
    """The type of an ENUM or a SET column as ``CONVERT TO CHARACTER SET charset`` leaves its
    members. MariaDB reads each member's bytes in the new charset, where a MODIFY converts
    their text: utf8mb4's ``'é'`` is latin1's ``'Ã©'``; latin1's ``'é'`` is the byte 0xE9 in
    utf8mb4, no text of it, which the server keeps (shows ``'?'``, a row holding it refused,
    1265) and a CONVERT TO latin1 reads as ``'é'`` again
    (:func:`~mvdd.model.encoding.kept_text`). A MariaDB replica's members are read so; mvdd's
    rules refuse the conversion where it reads a member otherwise than its text (a row could
    hold it); a replica of MySQL or of an unknown server converts the text."""
    t = col.type
    if not t.members or t.charset in (None, charset) or charset in (None, "binary"):
        return t
    if python_codec(t.charset) is None or not (rules.strict or rules.flavor == "mariadb"):
        return t
    read = tuple(_reread_member(m, t.charset, charset) for m in t.members)
    if read == t.members:
        return t
    if rules.strict:
        raise DDLError(
            f"CONVERT TO CHARACTER SET {charset} reads the members' bytes in it, as MariaDB "
            f"does: {list(t.members)} would be {list(read)}; redefine the column in {charset} "
            "first (MODIFY)",
            column=col.name,
        )
    return attrs.evolve(t, members=read)


def _reread_member(member: str, was: str | None, charset: str) -> str:
    """A member's bytes in the charset ``was`` read in ``charset``
    (:func:`~mvdd.model.encoding.kept_text`), a trailing space among them kept as the server
    keeps it, which its SHOW CREATE TABLE does not show (utf16le's ``'€'``, ``AC 20``, is
    utf8mb4's ``'? '``, shown ``'?'``, and utf16's ``'갠'`` again);
    UnsupportedDDLError where mvdd does not model the reading."""
    read = kept_text(bytes_in(member, was), charset)
    if read is None:
        raise UnsupportedDDLError(
            f"CONVERT TO CHARACTER SET {charset} reads the bytes of the member {member!r} as a "
            "sequence the charset has no character for, which the server keeps (shows one ?): "
            "not modelled"
        )
    return read


def _default_held(col: Column, ctype: ColumnType, rules: Rules) -> Column:
    """``col`` with its text DEFAULT in the type the column ends with, when that is not the
    type it was read with (the table's charset, a ``CONVERT TO``'s): refused where the charset
    cannot write it (the server's 1067: ``DEFAULT 'é'`` in ascii); an ENUM's or a SET's
    matched against the members as that charset writes them (``ENUM('é','x') DEFAULT '?'`` in
    ascii is the member ``'?'``; an ENUM's read with no charset is met here, its definition
    left it to this step: :func:`~mvdd.ddl.column.column_from_def`)."""
    unread = ctype.family == Family.ENUM and col.type.charset is None
    if not isinstance(col.default, str) or (ctype is col.type and not unread):
        return col
    default = default_under(col.default, ctype, col.name, rules)
    return col if default == col.default else attrs.evolve(col, default=default)


def converted(
    ctype: ColumnType, charset: str | None, collation: str | None, *, checked: bool = True
) -> ColumnType:
    """A string type after ``CONVERT TO CHARACTER SET charset``: in the new charset, a TEXT
    grown so that it still holds as many characters as before (as MySQL grows it); in the
    charset ``binary``, its binary twin of the same size (a TEXT is a BLOB). Not ``checked``
    (:attr:`~mvdd.ddl.rules.Session.members_alike`): an ENUM's or a SET's
    members the conversion makes one stay so (``'é','ß'`` are ``'?','?'`` in ascii)."""
    new = ctype.with_charset(charset, collation, checked=checked)
    if new.family == Family.TEXT:
        need = LOB_BYTES[ctype.kind] // max_bytes_per_char(ctype.charset)
        return attrs.evolve(new, kind=_text_kind_holding(need, charset)).interned()
    if new.kind == TypeKind.VARCHAR:
        made = ColumnType.of(
            TypeKind.VARCHAR, length=new.length, charset=charset, collation=collation
        )
        return made.compressing(ctype.compressed)  # (its length judged in the new charset)
    return new


def _text_kind_holding(chars: int, charset: str | None) -> TypeKind:
    for kind in TEXT_SIZES:
        if LOB_BYTES[kind] // max_bytes_per_char(charset) >= chars:
            return kind
    return TypeKind.LONGTEXT


# --- column steps --------------------------------------------------------------------------


@_apply.register
def _(step: s.AddColumn, table: Table, rules: Rules) -> Table:
    col = step.column
    if table.find_column(col.name) is not None:
        if step.if_not_exists:
            return table
        raise DDLError("duplicate column name", column=col.name)
    col = _defined(col, rules)
    if col.unversioned:
        col = _versioning_held(col, table, rules)
    if rules.rows and not col.has_default:
        raise DDLError(
            "a NOT NULL column without a DEFAULT cannot be added to a table that may hold rows: "
            "rows written under earlier versions would have no value for it",
            column=col.name,
        )
    new_id = table.last_id + 1
    ctype = _with_table_charset(
        table,
        col.type,
        column=col.name,
        binary=step.bin_collation,
        text_chars=step.text_chars,
        loose=rules.session.loose,
        alike=rules.session.members_alike,
        written=step.members_written,
        named=step.table_collation,
    )
    col = _default_held(col, ctype, rules).placed(new_id, ctype)
    columns, at = _place(table.columns, col, step.place, keep_at=None)
    return table.with_columns(columns, window=(at, len(columns) - at - 1), last_id=new_id)


def _versioning_held(col: Column, table: Table, rules: Rules) -> Column:
    """A column a statement defines (adds or redefines) ``WITHOUT SYSTEM VERSIONING``, as the
    table's system versioning has it: in a table that is not versioned without the mark, which
    the server drops there (but keeps where the table's versioning was dropped, and shows: a
    server's own account keeps it). (Under mvdd's own rules no ALTER changes a versioned
    table's columns: :func:`mvdd.catalog.plan.plan_statement` says so.)"""
    if table.options.versioned or rules.session.shown:
        return col
    return attrs.evolve(col, unversioned=False)


@_apply.register
def _(step: s.DropColumn, table: Table, rules: Rules) -> Table:
    col = table.find_column(step.column)
    if col is None:
        if step.if_exists:
            return table
        raise DDLError("no such column", column=step.column)
    users = _users_of(table, col, taken=step.name_taken)
    if users:
        raise DDLError(f"column is used by {', '.join(users)}", column=col.name)
    indexes = []
    for idx in table.indexes:
        if col.id not in idx.column_ids:
            indexes.append(idx)
            continue
        rest = tuple(p for p in idx.parts if p.column_id != col.id)
        # (a period's ROW START or END leaves a unique key as MariaDB drops it: the part it put
        # in each unique key of a versioned table itself, or one written so)
        if rest and idx.is_unique and col.row_period is None:
            raise DDLError(
                f"column is part of the multi-column {idx.kind.value} key `{idx.name}`: "
                "dropping it "
                "would change what the key keeps unique (drop or redefine the key first)",
                column=col.name,
            )
        if rest:
            # (a plain key left one part too long, which a MODIFY of this statement made so,
            # the server cuts to a prefix: it fits the statement's keys as they end)
            indexes.append(_shortened(table, attrs.evolve(idx, parts=rest)))
    folded = fold_name(col.name)
    checks = tuple(c for c in table.checks if ex.referenced_columns(c.expr) != {folded})
    at = table.column_position(col)
    columns = table.columns[:at] + table.columns[at + 1 :]
    out = table.with_columns(
        columns, window=(at, len(columns) - at), indexes=tuple(indexes), checks=checks
    )
    if step.renamed_to is None or fold_name(step.renamed_to) == folded:
        return out
    return _rename_in_expressions(out, col.name, step.renamed_to)


@_apply.register
def _(step: s.ModifyColumn, table: Table, rules: Rules) -> Table:
    if step.if_exists and table.find_column(step.column) is None:
        return table
    old = _column(table, step.column)
    new = step.definition
    clash = table.find_column(new.name)
    if clash is not None and clash.id != old.id:
        raise DDLError("duplicate column name", column=new.name)
    new = _defined(new, rules)
    if new.unversioned:
        new = _versioning_held(new, table, rules)
    row_period_changed(old, new)
    if not rules.session.loose:  # (a session not strict casts any type: its 4078 a warning)
        _check_cast(old, new.type)
    if _is_virtual(old) != _is_virtual(new):
        # the server's error 1907: a virtual column is computed on read, the others stored
        raise DDLError(
            "a column cannot become VIRTUAL, nor stop being VIRTUAL: drop it and add it",
            column=old.name,
        )
    for index in table.indexes:  # (a plain loop to the one primary key, if any)
        if index.kind == IndexKind.PRIMARY:
            if old.id in map(_COLUMN_ID, index.parts):
                new = _in_primary_key(new, rules)  # a primary key column stays NOT NULL
            break
    ctype = _with_table_charset(
        table,
        new.type,
        column=new.name,
        binary=step.bin_collation,
        text_chars=step.text_chars,
        loose=rules.session.loose,
        alike=rules.session.members_alike,
        written=step.members_written,
        named=step.table_collation,
    )
    new = _default_held(new, ctype, rules).placed(old.id, ctype, old.state)
    at = table.column_position(old)
    rest = table.columns[:at] + table.columns[at + 1 :]
    if step.place.after is not None and fold_name(step.place.after) == fold_name(old.name):
        raise DDLError("a column cannot be placed after itself", column=old.name)
    columns, to = _place(rest, new, step.place, keep_at=at)
    table = table.with_columns(columns, window=(min(at, to), len(columns) - 1 - max(at, to)))
    table = _fit_prefixes(table, new)
    if new.name != old.name:
        table = _rename_in_expressions(table, old.name, new.name, keep=old.id)
    return table


def _is_virtual(col: Column) -> bool:
    return col.generated is not None and not col.generated.stored


def _check_cast(old: Column, new: ColumnType) -> None:
    if not castable(old.type, new):
        raise DDLError(f"cannot cast {old.type} as {new}", column=old.name)


def fitted_prefix(length: int | None, ctype: ColumnType) -> int | None:
    """A key part's prefix ``length`` over a column whose type became ``ctype`` (neither a TEXT,
    a BLOB nor a geometry: :func:`_fit_prefixes`), as the server fits it: dropped where it
    covers the whole column, or where the type takes none (a number, a date …)."""
    whole = (ctype.length or 0) if ctype.family in (Family.CHAR, Family.BINARY) else 0
    return None if length is None or length >= whole else length


def _fit_prefixes(table: Table, col: Column) -> Table:
    """The keys over a column after its type changed, as the server fits them: a prefix that
    now covers the whole column is dropped, and so is a prefix of a column that became a type
    without prefixes (a number, a date …: the key takes the whole column); a UNIQUE key over
    the whole of a column that became TEXT or BLOB becomes a hash of it (MariaDB's long
    unique key), and a plain key over the whole of it takes the longest prefix the key holds
    (:func:`_lob_prefixed`)."""
    family = col.type.family
    if family is Family.SPATIAL:
        return _geometry_keyed(table, col)
    if family in LOB_FAMILIES:
        return _lobs_keyed(table, col)
    if family not in (Family.CHAR, Family.BINARY) and not any(
        p.column_id == col.id and p.length for idx in table.indexes for p in idx.parts
    ):
        return table  # (the common case: no prefix over it)
    indexes = []
    for idx in table.indexes:
        parts = tuple(
            attrs.evolve(p, length=fit)
            if p.column_id == col.id and p.length != (fit := fitted_prefix(p.length, col.type))
            else p
            for p in idx.parts
        )
        idx = attrs.evolve(idx, parts=parts) if parts != idx.parts else idx
        indexes.append(_refitted(table, idx) if col.id in idx.column_ids else idx)
    if all(a is b for a, b in zip(indexes, table.indexes, strict=True)):
        return table
    return table.with_changes(indexes=tuple(indexes))


def _refitted(table: Table, idx: Index) -> Index:
    """A key over a column whose type changed, as the server keeps it: a UNIQUE key it can no
    longer store in a B-tree a hash (:func:`_needs_hash`), a plain key over one string column
    longer than a COMPACT row's limit a prefix (:func:`_shortened`)."""
    if _hashed(table, idx):
        return attrs.evolve(idx, using="HASH")
    return _shortened(table, idx)


def _hashed(table: Table, idx: Index) -> bool:
    """Whether the server keeps ``idx``, a B-tree UNIQUE key, as a hash now
    (:func:`_needs_hash`)."""
    return idx.kind == IndexKind.UNIQUE and not is_long_unique(idx) and _needs_hash(table, idx)


#: the engines whose own keys include a hash: a UNIQUE key USING HASH there is no long unique
_HASH_ENGINES = frozenset({"MEMORY"})


def server_hash(table: Table, index: Index) -> bool:
    """Whether ``index`` is a long unique key the server made of ``table``'s UNIQUE key (a
    hash of the row's values, which it reads back from the table's definition as a UNIQUE key
    to judge anew), not a MEMORY table's own hash key."""
    return is_long_unique(index) and table.options.engine not in _HASH_ENGINES


def redefined_keys(table: Table, old: Table | None) -> Table:
    """``table`` as MariaDB defines it anew (an ALTER that acts, ``CREATE TABLE … LIKE``: see
    :func:`mvdd.catalog.plan.plan_statement`), from ``old`` (the version before an ALTER,
    None for a copy): each long unique key (``USING HASH``) the server reads back from the
    table's definition (a key ``old`` held, over the parts it had there, renamed, hidden or
    not), that a B-tree holds, which the statement that made it kept as a hash (a
    geometry's, of an 8-byte part; one written ``USING HASH`` over short columns), a B-tree
    key. A key the statement makes, or whose parts it changes, stays as it makes it; a
    MEMORY table's hash keys are its own."""
    read_back = {(idx.id, idx.parts) for idx in (old or table).indexes}
    indexes = tuple(
        attrs.evolve(idx, using=None)
        if server_hash(table, idx)
        and (idx.id, idx.parts) in read_back
        and not _needs_hash(table, idx)
        else idx
        for idx in table.indexes
    )
    if all(a is b for a, b in zip(indexes, table.indexes, strict=True)):
        return table
    return table.with_changes(indexes=indexes)


def hashed_keys(table: Table) -> Table:
    """``table`` with each UNIQUE key it cannot store in a B-tree a hash, as MariaDB keeps it
    (:func:`_needs_hash`): what a change of a column's type leaves of the keys over it, which
    a table built from values, not by steps (a shard group's join), is made to say."""
    indexes = tuple(
        attrs.evolve(idx, using="HASH") if _hashed(table, idx) else idx for idx in table.indexes
    )
    if all(a is b for a, b in zip(indexes, table.indexes, strict=True)):
        return table
    return table.with_changes(indexes=indexes)


def _lobs_keyed(table: Table, col: Column) -> Table:
    """``table`` with each key over ``col`` (now TEXT, BLOB or JSON) as the server keeps it: a
    UNIQUE key too long for a B-tree a hash, a plain key over the whole of it a prefix
    (:func:`_lob_prefixed`), and a plain key of one part whose prefix has become too long (a
    BLOB's 3072 bytes, 3072 characters of a TEXT) the longest prefix that fits
    (:func:`_shortened`)."""

    def keyed(idx: Index) -> Index:
        if col.id not in idx.column_ids:
            return idx
        parts = tuple(
            attrs.evolve(p, length=_lob_capped(col.type, p.length)) if p.column_id == col.id else p
            for p in idx.parts
        )
        if parts != idx.parts:
            idx = attrs.evolve(idx, parts=parts)
        if idx.kind == IndexKind.INDEX:
            return _shortened(table, _lob_prefixed(table, idx))
        return _refitted(table, idx)

    indexes = tuple(keyed(idx) for idx in table.indexes)
    if all(a is b for a, b in zip(indexes, table.indexes, strict=True)):
        return table
    return table.with_changes(indexes=indexes)


def _geometry_keyed(table: Table, col: Column) -> Table:
    """``table`` with each B-tree key over ``col`` (now a geometry) as MariaDB keeps it: a
    POINT's part its 25 bytes, any other geometry's a BLOB's (:func:`_lobs_keyed`), a long
    unique key's hashing it whole 8 bytes. A long unique key whose parts all have a prefix
    (its geometry's 8 bytes) is a B-tree again, as MariaDB rebuilds it."""
    point = col.type.kind is TypeKind.POINT

    def unhashed(idx: Index) -> Index:
        if col.id not in idx.column_ids or idx.kind not in _BTREE_KINDS:
            return idx
        if point:
            parts = tuple(
                attrs.evolve(p, length=_POINT_KEY_BYTES) if p.column_id == col.id else p
                for p in idx.parts
            )
            idx = attrs.evolve(idx, parts=parts)
        if is_long_unique(idx) and all(p.length is not None for p in idx.parts):
            idx = attrs.evolve(idx, using=None)
        return idx

    indexes = tuple(unhashed(idx) for idx in table.indexes)
    if any(a is not b for a, b in zip(indexes, table.indexes, strict=True)):
        table = table.with_changes(indexes=indexes)
    if point:
        return table
    table = _lobs_keyed(table, col)
    indexes = tuple(
        attrs.evolve(idx, parts=_hashed_geometry(table, idx.parts))
        if is_long_unique(idx) and col.id in idx.column_ids
        else idx
        for idx in table.indexes
    )
    if all(a == b for a, b in zip(indexes, table.indexes, strict=True)):
        return table
    return table.with_changes(indexes=indexes)


@_apply.register
def _(step: s.RenameColumn, table: Table, rules: Rules) -> Table:
    if step.if_exists and table.find_column(step.column) is None:
        return table
    old = _column(table, step.column)
    check_identifier(step.to, "column")
    clash = table.find_column(step.to)
    if clash is not None and clash.id != old.id:
        raise DDLError("duplicate column name", column=step.to)
    renamed = table.replacing_column(old, attrs.evolve(old, name=step.to))
    return _rename_in_expressions(renamed, old.name, step.to)


@_apply.register
def _(step: s.SetDefault, table: Table, rules: Rules) -> Table:
    if step.if_exists and table.find_column(step.column) is None:
        return table
    old = _column(table, step.column)
    if (old.generated is not None or old.auto_increment) and not rules.strict:
        # MariaDB's no-op, which still reads the value: one the column's type cannot hold
        # (its 1067), an expression naming a column the table lacks (its 1054) is refused
        default_under(step.default, old.type, old.name, rules)
        if isinstance(step.default, Expr):
            _names_exist(step.default, set(table._index()[0]), {"column": old.name})
        return table
    new = _defined(
        attrs.evolve(
            old,
            default=default_under(step.default, old.type, old.name, rules),
            on_update=_on_update_kept(old, rules),
        ),
        rules,
    )
    return table.replacing_column(old, new)


def _on_update_kept(old: Column, rules: Rules) -> Expr | None:
    """A column's ON UPDATE after an ``ALTER … SET/DROP DEFAULT``: MariaDB drops it from a
    column whose default was CURRENT_TIMESTAMP (:data:`mvdd.ddl.rules.MARIADB`)."""
    if rules.flavor == "mariadb" and now_precision(old.default) is not None:
        return None
    return old.on_update


@_apply.register
def _(step: s.DropDefault, table: Table, rules: Rules) -> Table:
    if step.if_exists and table.find_column(step.column) is None:
        return table
    old = _column(table, step.column)
    if old.generated is not None:
        if not rules.strict:
            return table  # (MariaDB's no-op)
        raise DDLError("a generated column has no default", column=old.name)
    new = attrs.evolve(old, default=NO_DEFAULT, on_update=_on_update_kept(old, rules))
    return table.replacing_column(old, new)


# --- indexes -------------------------------------------------------------------------------


def _auto_index_name(table: Table, first_column: str) -> str:
    """MySQL's name for an unnamed index: its first column, then ``_2``, ``_3`` ..."""
    name, n = first_column, 2
    while table.find_index(name) is not None or fold_name(name) == fold_name(PRIMARY):
        name, n = f"{first_column}_{n}", n + 1
    return name


def _looked_for(spec: s.IndexSpec) -> str:
    """The name an ADD INDEX IF NOT EXISTS looks for: the key's, or for an unnamed key its
    first column's (the name it would take), as the server looks."""
    if spec.kind == IndexKind.PRIMARY:
        return PRIMARY
    return spec.name or spec.parts[0].column


@_apply.register
def _(step: s.AddIndex, table: Table, rules: Rules) -> Table:
    spec = step.index
    if step.if_not_exists and table.find_index(_looked_for(spec)) is not None:
        return table  # (before its columns are looked up, as the server skips it)
    if step.foreign_key:
        if rules.strict:
            raise UnsupportedDDLError("FOREIGN KEY constraints are not tracked")
        kept = _with_key_for(table, [_column(table, p.column).id for p in spec.parts])
        if kept is None:
            return table  # (the foreign key uses a key the table has)
        if kept is not table.indexes:
            table = table.with_changes(indexes=kept)
    parts: list[IndexPart] = []
    seen: set[int] = set()
    for part in spec.parts:
        col = _column(table, part.column)
        if col.id in seen:
            raise DDLError("duplicate column in one index", column=col.name, index=spec.name)
        seen.add(col.id)
        length, desc = part.length, part.desc
        if spec.kind == IndexKind.FULLTEXT and col.type.family in _FULLTEXT_OK:
            # (a FULLTEXT key indexes whole columns, in no order: the servers drop a prefix
            # and a DESC)
            length, desc = None, False
        if col.type.kind is TypeKind.POINT and spec.kind in _BTREE_KINDS:
            length = _POINT_KEY_BYTES  # (MariaDB keys a POINT by its whole 25 bytes, any prefix)
        if length is not None and col.type.family in _WHOLE_LENGTH and length == col.type.length:
            length = None  # a string's own length: the whole column, as the servers keep it
        if length == col.type.row_size and col.type.family not in _NO_SIZE_PREFIX:
            length = None  # a number's or a date's own size in bytes: the whole column
        parts.append(IndexPart(col.id, _lob_capped(col.type, length), desc))
    if not step.foreign_key:  # (a key the server made for a foreign key this one serves goes)
        kept = _replacing_generated(table.indexes, spec.kind, parts)
        if kept is not table.indexes:
            table = table.with_changes(indexes=kept)
    if spec.kind == IndexKind.PRIMARY:
        if table.primary_key is not None:
            raise DDLError("multiple primary keys defined", index=PRIMARY)
        name = PRIMARY
    else:
        name = spec.name or _auto_index_name(table, spec.parts[0].column)
        check_identifier(name, "index")
        if fold_name(name) == fold_name(PRIMARY):
            raise DDLError("only the primary key may be named PRIMARY", index=name)
    if table.find_index(name) is not None:
        raise DDLError("duplicate index name", index=name)
    new_id = table.last_id + 1
    index = Index(
        id=new_id,
        name=name,
        kind=spec.kind,
        parts=tuple(parts),
        comment=spec.comment,
        using=spec.using,
        visible=spec.visible,
    )
    if table.options.versioned:  # (a table of its own period: a unique key ends with ROW END)
        index = with_period_key(table, index)
    if index.kind == IndexKind.UNIQUE and index.using is None and _needs_hash(table, index):
        index = attrs.evolve(index, using="HASH")
    if server_hash(table, index):
        index = attrs.evolve(index, parts=_hashed_geometry(table, index.parts))
    index = held_comment(_shortened(table, _lob_prefixed(table, index)), "index", rules)
    _check_index(table, index)
    columns = table.columns
    if spec.kind == IndexKind.PRIMARY:
        # MySQL makes primary key columns NOT NULL (and a DEFAULT NULL goes with it)
        columns = tuple(_in_primary_key(c, rules) if c.id in seen else c for c in columns)
    if step.foreign_key:
        index = attrs.evolve(index, generated=True)
    return table.with_changes(columns=columns, indexes=(*table.indexes, index), last_id=new_id)


def _with_key_for(table: Table, wanted: list[int]) -> tuple[Index, ...] | None:
    """The table's keys before the server adds the key it makes for a foreign key over the
    columns ``wanted`` (ids, in order), or None when it makes none.

    The server weighs the key it makes against the keys before it, in their order, and the
    first that one of the two leads with decides (MariaDB's ``foreign_key_prefix``): a key it
    did not make for a foreign key, or one it made that is longer, serves the foreign key (no
    key is made); one it made, of as many columns or fewer, gives way to the new key (the
    later foreign key's name is kept). The very tuple when none gives way."""
    for idx in table.indexes:
        ids = [p.column_id for p in idx.parts]
        covers = _leads_with(idx.kind, idx.parts, wanted)
        if not (covers or (idx.generated and wanted[: len(ids)] == ids)):
            continue
        if not idx.generated or len(wanted) < len(ids):
            return None
        return tuple(other for other in table.indexes if other is not idx)
    return table.indexes


def _replacing_generated(
    indexes: tuple[Index, ...], kind: IndexKind, parts: Sequence[IndexPart]
) -> tuple[Index, ...]:
    """The table's keys without a key the server made for a foreign key whose columns a new
    key of ``kind`` over ``parts`` leads with (the server drops it); the very tuple if none."""
    kept = tuple(
        idx
        for idx in indexes
        if not (idx.generated and _leads_with(kind, parts, [p.column_id for p in idx.parts]))
    )
    return kept if len(kept) != len(indexes) else indexes


def _leads_with(kind: IndexKind, parts: Sequence[IndexPart], wanted: list[int]) -> bool:
    """Whether a key (not a FULLTEXT or SPATIAL one) over ``parts`` leads with the whole of
    the columns ``wanted`` (ids, in order), as a foreign key over them needs."""
    return (
        kind not in (IndexKind.FULLTEXT, IndexKind.SPATIAL)
        and [p.column_id for p in parts[: len(wanted)] if p.length is None] == wanted
    )


def _in_primary_key(col: Column, rules: Rules) -> Column:
    """A column as a primary key holds it: NOT NULL, and a DEFAULT NULL goes with it (MySQL
    and MariaDB make it so, whatever the definition says); a DEFAULT expression whose value
    is NULL is refused (MariaDB's 1067, :func:`_check_constant_default`)."""
    keyed = attrs.evolve(
        col, nullable=False, default=NO_DEFAULT if col.default is None else col.default
    )
    if isinstance(keyed.default, Expr):
        _check_constant_default(keyed, rules)
    return keyed


#: the longest key part InnoDB stores, by row format (DYNAMIC and COMPRESSED: the key's; another
#: engine's row format sets none)
_MAX_KEY_BYTES = {"COMPACT": 767, "REDUNDANT": 767}
_DEFAULT_MAX_KEY_BYTES = 3072
#: the longest key an engine stores, in bytes, where it is not InnoDB's (MariaDB's 1071 names
#: it: ``max key length is 1000 bytes``)
_ENGINE_KEY_BYTES: dict[str | None, int] = {"MyISAM": 1000, "MRG_MyISAM": 1000, "Aria": 2300}
#: bytes of a key part by family, where the type alone does not say (fixed-size kinds)
_FIXED_KEY_BYTES = {Family.DECIMAL: 16, Family.FLOAT: 8, Family.BIT: 8, Family.TEMPORAL: 8}


def _key_part_bytes(col: Column, length: int | None) -> int:
    t = col.type
    fam = t.family
    if fam == Family.INTEGER:
        return INTEGER_BYTES[t.kind]
    if fam == Family.ENUM:
        return t.row_size  # an ENUM or SET is keyed by its index or bits, 1 to 8 bytes
    if fam in _CHARACTERS:
        chars = length if length is not None else (t.length or 0)
        return chars * max_bytes_per_char(t.charset)
    if fam in (Family.BINARY, Family.BLOB, Family.SPATIAL):
        return length if length is not None else (t.length or 0)
    if fam == Family.PLUGIN:
        return PLUGIN_BYTES[t.kind]
    return _FIXED_KEY_BYTES.get(fam, 8)


def _whole_key_limit(table: Table) -> int:
    """The longest key ``table``'s engine stores, in bytes (InnoDB's 3072, MyISAM's 1000)."""
    return _ENGINE_KEY_BYTES.get(table.options.engine, _DEFAULT_MAX_KEY_BYTES)


def _key_limits(table: Table) -> tuple[int, int]:
    return _key_limit(table), _whole_key_limit(table)


def _key_limit(table: Table) -> int:
    """The longest key part ``table`` stores, in bytes: an InnoDB row format's (COMPACT's
    767), else the whole key's (:func:`_whole_key_limit`: a MyISAM table's ROW_FORMAT=COMPACT
    is kept and sets none)."""
    whole = _whole_key_limit(table)
    if table.options.engine not in INNODB:
        return whole
    return _MAX_KEY_BYTES.get(str(table.options.row_format or "").upper(), whole)


def _lob_prefixed(table: Table, index: Index) -> Index:
    """A plain key's TEXT or BLOB parts given without a prefix, as MariaDB keeps them: the
    longest prefix the key's limit holds (InnoDB's 3072 bytes: 768 characters of utf8mb4, 3072
    of latin1 or of a BLOB; MyISAM's 1000: 250 of utf8mb4), the whole of a TINYTEXT or
    TINYBLOB (255). The key is then checked
    as any other: a second part makes it too long (error 1071), a COMPACT row's 767 bytes a
    column refuse it (error 1709). A UNIQUE key over such a part is a hash instead (see
    :func:`_needs_hash`), a primary key is refused (error 1170)."""
    if index.kind != IndexKind.INDEX:
        return index
    parts = index.parts
    for at, part in enumerate(index.parts):
        ctype = table.column_by_id(part.column_id).type
        if part.length is None and ctype.family in _KEYED_LOBS:
            length = _longest_prefix(ctype, _whole_key_limit(table))
            parts = (*parts[:at], attrs.evolve(part, length=length), *parts[at + 1 :])
    return index if parts is index.parts else attrs.evolve(index, parts=parts)


#: the largest value of a JSON column (MariaDB's LONGTEXT)
_LONGEST = LOB_BYTES[TypeKind.LONGTEXT]


def _lob_capped(ctype: ColumnType, length: int | None) -> int | None:
    """A key part's prefix length over a TEXT or BLOB column as the server keeps it: at most
    the type's own length (a TINYTEXT's or TINYBLOB's 255: ``KEY (b(300))`` is ``b(255)``);
    any other as it is.

    >>> _lob_capped(ColumnType.of("tinytext"), 300), _lob_capped(ColumnType.of("text"), 300)
    (255, 300)
    """
    longest = LOB_BYTES.get(ctype.kind)
    return longest if length is not None and longest is not None and length > longest else length


def _longest_prefix(ctype: ColumnType, limit: int) -> int:
    """The longest prefix of a column of ``ctype`` that a key of ``limit`` bytes holds, as the
    server cuts one: characters of a text, bytes of a binary string; the whole of a TINYTEXT
    or TINYBLOB (255)."""
    per = max_bytes_per_char(ctype.charset) if ctype.family in _CHARACTERS else 1
    return min(LOB_BYTES.get(ctype.kind, _LONGEST), limit // per)


def _shortened(table: Table, index: Index) -> Index:
    """A plain key over one string column longer than the engine's limit, as the server keeps
    it: the longest prefix that fits (a note, not an error; where the limit is the key's, not a
    column's as under COMPACT rows: InnoDB's DYNAMIC and COMPRESSED rows, MyISAM, Aria). Any
    other index as it is."""
    if index.kind != IndexKind.INDEX or len(index.parts) != 1:
        return index
    (part,) = index.parts
    col = table.column_by_id(part.column_id)
    limit = _key_limit(table)
    if (
        limit != _whole_key_limit(table)
        or col.type.family not in _PREFIXABLE
        or _key_part_bytes(col, part.length) <= limit
    ):
        return index
    return attrs.evolve(index, parts=(attrs.evolve(part, length=_longest_prefix(col.type, limit)),))


def _needs_hash(table: Table, index: Index) -> bool:
    """MariaDB keeps a UNIQUE key it cannot store in a B-tree as a hash of the row's values
    (``USING HASH``, with a hidden ``DB_ROW_HASH_n`` column): a TEXT/BLOB part without a
    prefix, or a key longer than the engine's limit."""
    total = 0
    for part in index.parts:
        col = table.column_by_id(part.column_id)
        if part.length is None and col.type.family in _KEYED_LOBS:
            return True
        total += _key_part_bytes(col, part.length)
    return total > _whole_key_limit(table)  # (the key's limit: a row format's is a column's)


#: the families a key takes as a TEXT or BLOB: a prefix of their bytes, the longest a plain key
#: holds when none is given, a hash in a UNIQUE key (a geometry other than a POINT, whose 25
#: bytes a key always takes whole)
_KEYED_LOBS = frozenset({*LOB_FAMILIES, Family.SPATIAL})
_PREFIXABLE = frozenset({Family.CHAR, Family.BINARY, *_KEYED_LOBS})
#: the kinds of a B-tree key (neither FULLTEXT nor SPATIAL)
_BTREE_KINDS = frozenset({IndexKind.INDEX, IndexKind.UNIQUE, IndexKind.PRIMARY})
_POINT_KEY_BYTES = 25
#: the part a MariaDB long unique key shows for a geometry it hashes whole (``(`g`(8))``)
_HASHED_GEOMETRY_BYTES = 8


def _hashed_geometry(table: Table, parts: tuple[IndexPart, ...]) -> tuple[IndexPart, ...]:
    """A long unique key's parts, a geometry's without a prefix as MariaDB keeps it (8)."""
    return tuple(
        attrs.evolve(p, length=_HASHED_GEOMETRY_BYTES)
        if p.length is None and table.column_by_id(p.column_id).type.family is Family.SPATIAL
        else p
        for p in parts
    )


#: the families whose key part as long as the column is the whole column (``KEY (a(10))`` of a
#: VARCHAR(10) is ``KEY (a)``, which a later MODIFY to VARCHAR(20) leaves whole)
_WHOLE_LENGTH = frozenset({Family.CHAR, Family.BINARY})
_CHARACTERS = frozenset({Family.CHAR, Family.TEXT, Family.JSON})
#: the families whose key part never takes its own size in bytes as a prefix meaning the whole
#: column, as a number, a date or a plugin type does (MariaDB: `KEY (d(5))` of a DATETIME)
_NO_SIZE_PREFIX = _PREFIXABLE | {Family.ENUM, Family.SPATIAL}
_FULLTEXT_OK = _CHARACTERS


def _check_index(table: Table, index: Index) -> None:
    where = {"index": index.name}
    if len(index.parts) > _MAX_KEY_PARTS:
        raise DDLError(
            f"too many key parts: {len(index.parts)} of at most {_MAX_KEY_PARTS}", **where
        )
    _check_comment(index.comment, "index", **where)
    if index.kind == IndexKind.SPATIAL and len(index.parts) != 1:
        raise DDLError("a SPATIAL index has exactly one column", **where)
    for part in index.parts:
        col = table.column_by_id(part.column_id)
        fam = col.type.family
        where["column"] = col.name
        if col.type.compressed:  # (MariaDB's 4097, in a key of every kind)
            raise DDLError("a COMPRESSED column cannot be in a key", **where)
        if index.kind == IndexKind.FULLTEXT:
            if fam not in _FULLTEXT_OK or part.length or part.desc:
                raise DDLError(
                    f"a FULLTEXT index takes whole text columns, not {col.type}", **where
                )
            continue
        if index.kind == IndexKind.SPATIAL:
            if fam != Family.SPATIAL or part.length:
                raise DDLError(f"a SPATIAL index takes a spatial column, not {col.type}", **where)
            if col.nullable:
                raise DDLError("a SPATIAL index column must be NOT NULL", **where)
            continue
        if index.kind == IndexKind.PRIMARY and _is_virtual(col):
            # MySQL's error 3106, MariaDB's 1903 (MariaDB refuses a STORED one too; MySQL
            # keys it, so a binlog of MySQL may carry one)
            raise DDLError("a primary key cannot cover a virtual generated column", **where)
        if part.length is not None:
            if fam not in _PREFIXABLE:
                raise DDLError(f"a prefix length needs a string column, not {col.type}", **where)
            if col.type.length is not None and part.length > col.type.length:
                raise DDLError(f"prefix length {part.length} is longer than {col.type}", **where)
        elif fam in _KEYED_LOBS and not is_long_unique(index):
            raise DDLError(f"a {col.type} column in a key needs a prefix length", **where)
    if index.kind in _NOT_KEYS or is_long_unique(index):
        return
    where.pop("column", None)
    sizes = [_key_part_bytes(table.column_by_id(p.column_id), p.length) for p in index.parts]
    limit, whole = _key_limit(table), _whole_key_limit(table)
    if limit != whole and max(sizes) > limit:
        raise DDLError(f"index column too large: {max(sizes)} bytes of at most {limit}", **where)
    if sum(sizes) > whole:
        raise DDLError(f"key too long: {sum(sizes)} bytes of at most {whole}", **where)


@_apply.register
def _(step: s.DropIndex, table: Table, rules: Rules) -> Table:
    idx = table.find_index(step.index)
    if idx is None:
        if step.if_exists:
            return table
        raise DDLError("no such index", index=step.index)
    return table.with_changes(indexes=tuple(i for i in table.indexes if i.id != idx.id))


@_apply.register
def _(step: s.RenameIndex, table: Table, rules: Rules) -> Table:
    if step.if_exists and table.find_index(step.index) is None:
        return table
    idx = _key(table, step.index)
    check_identifier(step.to, "index")
    if fold_name(PRIMARY) in (fold_name(idx.name), fold_name(step.to)):
        raise DDLError(
            "the primary key cannot be renamed, nor an index named PRIMARY", index=idx.name
        )
    clash = table.find_index(step.to)
    if clash is not None and clash.id != idx.id:
        raise DDLError("duplicate index name", index=step.to)
    indexes = tuple(attrs.evolve(i, name=step.to) if i.id == idx.id else i for i in table.indexes)
    return table.with_changes(indexes=indexes)


@_apply.register
def _(step: s.SetIndexVisible, table: Table, rules: Rules) -> Table:
    idx = table.find_index(step.index)
    if idx is None:
        if step.if_exists:
            return table
        raise DDLError("no such index", index=step.index)
    new = attrs.evolve(idx, visible=step.visible)
    _check_index(table, new)
    return table.with_changes(indexes=tuple(new if i.id == idx.id else i for i in table.indexes))


# --- checks --------------------------------------------------------------------------------


def auto_check_name(taken: Callable[[str], object]) -> str:
    """MariaDB's name for an unnamed check: ``CONSTRAINT_<n>``, the smallest n whose name is
    not ``taken`` (a table's ``find_check``)."""
    n = 1
    while taken(f"CONSTRAINT_{n}"):
        n += 1
    return f"CONSTRAINT_{n}"


def checks_named(table: Table, steps: Sequence[s.Step]) -> list[s.Step]:
    """One statement's steps on ``table`` (in the order they apply), each unnamed check named
    as MariaDB names it where the statement also names a check: ``CONSTRAINT_<n>``, the
    smallest n that neither a check the table keeps (and the statement does not drop) nor
    one the statement names takes (``ADD CHECK (…), ADD CONSTRAINT CONSTRAINT_3 CHECK (…)``
    of a table with two is ``CONSTRAINT_4``). Without a named one, each unnamed check takes
    the smallest free name when it is added (:func:`auto_check_name`), which is the same."""
    named = {fold_name(st.name) for st in steps if isinstance(st, s.AddCheck) and st.name}
    if not named or all(st.name for st in steps if isinstance(st, s.AddCheck)):
        return list(steps)
    dropped = {
        fold_name(st.check if isinstance(st, s.DropCheck) else st.name)
        for st in steps
        if isinstance(st, s.DropCheck | s.DropConstraint)
    }
    taken = ({fold_name(c.name) for c in table.checks} - dropped) | named
    out: list[s.Step] = []
    for st in steps:
        if isinstance(st, s.AddCheck) and st.name is None:
            name = auto_check_name(lambda n: fold_name(n) in taken)
            taken.add(fold_name(name))
            st = attrs.evolve(st, name=name)
        out.append(st)
    return out


@_apply.register
def _(step: s.AddCheck, table: Table, rules: Rules) -> Table:
    name = step.name or auto_check_name(table.find_check)
    check_identifier(name, "check", spaced=not rules.strict)  # (MariaDB's: spaces may end it)
    same = table.check_named(name)
    if same is not None:
        if step.if_not_exists:
            return table  # (before its expression is read, as the server skips it)
        raise DDLError(f"duplicate check constraint name `{name}`")
    alike = table.find_check(name) if rules.strict else None
    if alike is not None:
        raise DDLError(
            f"check constraint name `{name}` folds as `{alike.name}` does: one name under "
            "mvdd's rules (MariaDB holds both, their lengths differing)"
        )
    new_id = table.last_id + 1
    _check_calls(step.expr, "CHECK", index=name)
    check = Check(id=new_id, name=name, expr=step.expr, enforced=step.enforced)
    return table.with_changes(checks=(*table.checks, check), last_id=new_id)


def _drop_check(table: Table, name: str) -> Table | None:
    chk = table.find_check(name)
    if chk is None:
        return None
    return table.with_changes(checks=tuple(c for c in table.checks if c.id != chk.id))


@_apply.register
def _(step: s.DropCheck, table: Table, rules: Rules) -> Table:
    out = _drop_check(table, step.check)
    if out is None:
        if step.if_exists:
            return table
        raise DDLError(f"no such check constraint `{step.check}`")
    return out


@_apply.register
def _(step: s.DropConstraint, table: Table, rules: Rules) -> Table:
    out = _drop_check(table, step.name)
    if out is not None:
        return out
    idx = table.find_index(step.name)
    if idx is not None and idx.kind in (IndexKind.UNIQUE, IndexKind.PRIMARY):
        # (a key that is a constraint: a UNIQUE key, or the primary key by its name PRIMARY)
        return table.with_changes(indexes=tuple(i for i in table.indexes if i.id != idx.id))
    if step.if_exists or not rules.strict:
        return table  # (a replica's: a foreign key, which mvdd does not keep)
    raise DDLError(f"no such constraint `{step.name}`")


@_apply.register
def _(step: s.AlterCheck, table: Table, rules: Rules) -> Table:
    chk = table.find_check(step.check)
    if chk is None:
        raise DDLError(f"no such check constraint `{step.check}`")
    new = attrs.evolve(chk, enforced=step.enforced)
    return table.with_changes(checks=tuple(new if c.id == chk.id else c for c in table.checks))


# --- statement-level invariants --------------------------------------------------------------


#: the most columns a table of each storage engine has (InnoDB, the default when a table names
#: none: 1017 in MySQL and MariaDB alike); any other engine meets the server's own 4096
_MAX_COLUMNS = {None: 1017, "InnoDB": 1017}
_SERVER_MAX_COLUMNS = 4096


def _check_invisible(cols: tuple[Column, ...], invisible: int) -> None:
    """MariaDB's rules for INVISIBLE columns: one column at least is visible, and an invisible
    column can be left out of an INSERT (it has a default, allows NULL, is generated or counts:
    a NOT NULL ENUM's first member, its default in an INSERT, does not count)."""
    if invisible == len(cols):
        raise DDLError("a table needs at least one visible column")
    for col in cols:
        if col.invisible and not _omittable(col):
            raise DDLError(
                "an invisible column needs a default (NOT NULL without DEFAULT)", column=col.name
            )


def _omittable(col: Column) -> bool:
    """Whether an INSERT may leave an invisible column out, as MariaDB judges it."""
    return (
        col.default is not NO_DEFAULT
        or col.nullable
        or col.generated is not None
        or col.auto_increment
        or col.row_period is not None
    )


#: what a column or key may need of its engine: (the need, whether the column has it,
#: whether the key has it, what the server calls it)
_NEEDS: tuple[tuple[str, Callable[[Column], bool], Callable[[Index], bool], str], ...] = (
    ("lobs", lambda c: c.type.family in LOB_FAMILIES, lambda i: False, "TEXT, BLOB or JSON"),
    ("spatial", lambda c: c.type.family is Family.SPATIAL, lambda i: False, "GEOMETRY"),
    ("generated", lambda c: c.generated is not None, lambda i: False, "generated columns"),
    ("nullable", lambda c: c.nullable, lambda i: False, "nullable columns"),
    ("keys", lambda c: False, lambda i: True, "keys"),
    ("fulltext", lambda c: False, lambda i: i.kind is IndexKind.FULLTEXT, "FULLTEXT keys"),
)
#: what the engines that lack something lack, as MariaDB refuses it (InnoDB, MyISAM, Aria and
#: an engine mvdd does not know take everything)
_ENGINES_LACK = {
    "MEMORY": frozenset({"lobs", "spatial", "generated", "fulltext"}),
    "CSV": frozenset({"spatial", "generated", "nullable", "keys"}),
    "MRG_MyISAM": frozenset({"generated"}),
}


def _check_engine(table: Table, engine: str) -> None:
    """DDLError naming the column or key the table's engine cannot hold."""
    lacks = _ENGINES_LACK.get(engine)
    if lacks is None:
        return
    for need, column_needs, key_needs, what in _NEEDS:
        if need not in lacks:
            continue
        for col in table.columns:
            if column_needs(col):
                raise DDLError(f"the {engine} engine takes no {what}", column=col.name)
        for idx in table.indexes:
            if key_needs(idx):
                raise DDLError(f"the {engine} engine takes no {what}", index=idx.name)


def _innodb_rebuilds(was: TableOptions, options: TableOptions) -> bool:
    """Whether an ALTER that leaves a table's options so has InnoDB build the table anew, and
    judge its record size whole (:mod:`mvdd.ddl.records`): a new row format or engine. (An
    ALTER InnoDB makes in place judges less: an instant ADD COLUMN the row of its defaults,
    :func:`~mvdd.ddl.records.check_added_defaults`.)"""
    return was.row_format != options.row_format or was.engine != options.engine


def validate_table(table: Table, *, base: Table | None = None, rules: Rules = Rules.MVDD) -> None:
    """Rules MySQL checks once a statement has applied; raises DDLError naming the table.
    ``rules``: whether mvdd's stricter ones hold (:class:`~mvdd.ddl.rules.Rules`).

    ``base``, when given, is the version the statement started from, which passed these rules:
    an index of ``base`` kept as it was, over columns kept as they were (the same objects:
    values are immutable), is not checked again, so the cost follows the change rather than
    the number of indexes.
    """
    try:
        _validate(table, base, rules)
    except MvddError as err:
        raise err.locate(table=table.name) from None


def _validate(table: Table, base: Table | None, rules: Rules) -> None:
    cols = table.columns
    if not cols:
        raise DDLError("a table needs at least one column (to drop every column, drop the table)")
    if len(table.indexes) > _MAX_INDEXES:
        raise DDLError(f"too many indexes: {len(table.indexes)} of at most {_MAX_INDEXES}")
    if base is None or table.options is not base.options:  # (the comment base held passed)
        _check_comment(table.options.comment, "table")
    if len(cols) > _MAX_COLUMNS[None]:
        engine = table.options.engine
        most = _MAX_COLUMNS.get(engine, _SERVER_MAX_COLUMNS)
        if len(cols) > most:
            raise DDLError(
                f"too many columns: {len(cols)} of at most {most} (engine {engine or 'InnoDB'})"
            )
    options = table.options
    if options.engine is not None:
        _check_engine(table, options.engine)
    if (
        rules.strict
        and (base is None or options is not base.options)
        and (options.extra or options.row_format is not None)
    ):
        check_innodb(options)  # (under mvdd's rules: a default server's InnoDB)
    if options.extra and options.sequence:  # (an option of the others' first: few have one)
        check_structure(table)
    if table.options.versioned or (base is not None and base.options.versioned):
        check_versioned(table)  # (a CREATE's period: parse.build_table's check_period)
    # the table's column tally: built once per table, patched by each statement's change
    tally = table.column_tally()
    size = tally.row_bytes + (tally.nullable + 7) // 8
    if size > MAX_ROW_BYTES:
        raise DDLError(
            f"row size too large: {size} bytes of at most {MAX_ROW_BYTES} (not counting TEXT "
            "and BLOB contents); change some columns to TEXT or BLOB"
        )
    if rules.strict and size + 5 * len(cols) + 790 * tally.lobs + 40 >= RECORD_GATE:
        # (a tally that may reach InnoDB's page limit: judged)
        if base is None or _innodb_rebuilds(base.options, options):
            check_record_size(table)
        else:
            check_added_defaults(table, base)  # (an instant ADD COLUMN's row of defaults)
    if tally.invisible:
        _check_invisible(cols, tally.invisible)
    charset = table.options.charset
    if charset is not None and not holds_every_character(charset):
        _written_in_charset(table, charset)
    autos = list(filter(_AUTO_INCREMENT, cols)) if tally.auto_increment else []
    if len(autos) > 1:
        raise DDLError("there can be only one AUTO_INCREMENT column", column=autos[1].name)
    for col in autos:
        if not any(
            i.parts[0].column_id == col.id for i in table.indexes if i.kind not in _NOT_KEYS
        ):
            raise DDLError(
                "an AUTO_INCREMENT column must be the first column of a key", column=col.name
            )
    if table.checks or tally.expressions:
        names = set(table._index()[0])
        _each_expression(table, lambda e, where: _names_exist(e, names, where))
        auto_names = {fold_name(c.name) for c in autos}

        def no_auto(e: Expr, where: dict[str, str]) -> None:
            if ex.referenced_columns(e) & auto_names:
                raise DDLError(f"expression {e.sql} reads the AUTO_INCREMENT column", **where)

        # (MariaDB computes a VIRTUAL column on read, after the counter gave its value)
        _each_expression(table, no_auto, virtual=rules.strict)
        if tally.generated or tally.defaults:
            _generated_in_order(cols)
        if tally.generated and (rules.strict or rules.flavor == "mariadb"):
            keyed = {part.column_id for idx in table.indexes for part in idx.parts}
            _pad_independent(table, keyed)
            _steady_where_kept(table, keyed)
        if tally.generated and table.indexes:
            _virtual_keys(table)
        if any(c.type.family == Family.PLUGIN for c in cols):  # (MariaDB's own types)
            _each_expression(table, partial(_kinds_meet, _value_kinds(cols)))
        _each_expression(table, partial(_collations_fit, cols))
    if table.checks and (rules.strict or rules.flavor == "mariadb"):
        _constraint_names_once(table)
    if False in map(_VISIBLE, table.indexes):  # (an invisible key; a map of C calls)
        key = table.row_key_index
        if key is not None and not key.visible:
            why = "" if key.kind == IndexKind.PRIMARY else _IMPLICIT_PRIMARY
            raise DDLError(f"the primary key cannot be invisible{why}", index=key.name)
    if base is None or (  # (a new row format's or engine's key limit reaches every key)
        table.options is not base.options and _key_limits(table) != _key_limits(base)
    ):
        for idx in table.indexes:
            _check_index(table, idx)
        return
    prefix, suffix = table.column_window(base.columns)
    changed = set(map(_ID, cols[prefix : len(cols) - suffix]))  # changed, moved or added
    changed.update(map(_ID, base.columns[prefix : len(base.columns) - suffix]))  # or dropped
    kept = set(map(id, base.indexes))
    for idx in table.indexes:
        if id(idx) not in kept or (changed and not changed.isdisjoint(map(_COLUMN_ID, idx.parts))):
            _check_index(table, idx)


def _generated_in_order(cols: tuple[Column, ...]) -> None:
    """A generated column's expression reads no generated column placed after it, and a
    DEFAULT expression none at all, nor a column after it whose DEFAULT is an expression
    (``RAND()``, ``CURRENT_TIMESTAMP``), nor its own column: the server computes the defaults
    first, in order, then the generated columns in order (MariaDB's error 4029; MySQL refuses
    them too, its 3107 for a generated column). A constant DEFAULT such as ``(5)`` is a
    value, read at any place. (Judged on the table a statement leaves: an ``ALTER … SET
    DEFAULT`` of the statement replaces a DEFAULT its ``MODIFY`` gave before the server reads
    it.)"""
    generated = {fold_name(c.name): c.name for c in cols if c.generated is not None}
    names = {fold_name(c.name): c.name for c in cols}
    later: set[str] = set()  # the generated columns after the one at hand, by folded name
    later_defaults: set[str] = set()  # the columns after it whose DEFAULT is an expression
    for col in reversed(cols):
        own = col.generated.expr if col.generated is not None else None
        for expr, place in ((own, None), (col.default, "DEFAULT")):
            if isinstance(expr, Expr) and fold_name(col.name) in ex.referenced_columns(expr):
                place = place or _generated_place(col)
                raise DDLError(
                    f"the expression of {place} cannot read its own column", column=col.name
                )
        for expr, unread in ((own, later), (col.default, generated.keys() | later_defaults)):
            read = ex.referenced_columns(expr) & unread if isinstance(expr, Expr) else None
            if read:
                what = "generated column" if min(read) in generated else "column"
                raise DDLError(
                    f"the expression of `{col.name}` reads {what} `{names[min(read)]}`, "
                    "which is not computed before it",
                    column=col.name,
                )
        if col.generated is not None:
            later.add(fold_name(col.name))
        if type(col.default) is Expr:
            later_defaults.add(fold_name(col.name))


#: the families of the columns whose values are numbers (a comparison of one with a CHAR
#: column is one of numbers)
_NUMBER_FAMILIES = frozenset({Family.INTEGER, Family.DECIMAL, Family.FLOAT, Family.BIT})
#: the families of the columns that keep a value's trailing spaces (all but a fixed CHAR, which
#: drops them, and the types that are no text)
_SPACE_KEEPING = frozenset({Family.CHAR, Family.BINARY, Family.TEXT, Family.BLOB, Family.JSON})


def _pad_independent(table: Table, keyed: set[int]) -> None:
    """MariaDB's error 1901 for a STORED generated column, or a VIRTUAL one a key holds, whose
    value would depend on ``sql_mode`` PAD_CHAR_TO_FULL_LENGTH (its rows would hold what the
    writer's session made of a CHAR column's trailing spaces): a hard dependency
    (:func:`mvdd.ddl.expr.pad_dependency`: ``b + 0``, ``CONCAT(b, 'x')`` of a CHAR ``b``)
    anywhere, a soft one (``b`` itself) into a column that keeps trailing spaces (a VARCHAR, a
    TEXT, not a CHAR nor a number). A CHAR of the binary charset (a BINARY) has no spaces to
    pad. ``keyed``: the ids of the columns the table's keys hold."""
    cols = table.columns
    padded = frozenset(
        fold_name(c.name)
        for c in cols
        if c.type.kind == TypeKind.CHAR and c.type.charset != "binary"
    )
    if not padded:
        return
    nopad = frozenset(
        fold_name(c.name)
        for c in cols
        if fold_name(c.name) in padded and "nopad" in (c.type.collation or "")
    )
    numbers = frozenset(fold_name(c.name) for c in cols if c.type.family in _NUMBER_FAMILIES)
    for col in cols:
        gen = col.generated
        if gen is None or not (gen.stored or col.id in keyed):
            continue
        dependency = ex.pad_dependency(gen.expr, padded, nopad, numbers)
        keeps = col.type.family in _SPACE_KEEPING and col.type.kind != TypeKind.CHAR
        if dependency == ex.PAD_HARD or (dependency == ex.PAD_SOFT and keeps):
            where = "a STORED generated column" if gen.stored else "a generated column in a key"
            raise DDLError(
                f"{where} cannot hold {gen.expr.sql}: its value would depend on sql_mode "
                "PAD_CHAR_TO_FULL_LENGTH, which decides a CHAR column's trailing spaces (the "
                "server's error 1901)",
                column=col.name,
            )


def _steady_where_kept(table: Table, keyed: set[int]) -> None:
    """MariaDB's error 1901 for a value the server keeps (a STORED column's, a VIRTUAL one's a
    key holds) or checks (a CHECK) that would change from read to read: one whose expression
    calls what changes with the clock, chance or the session (:data:`_VOLATILE`, refused in
    the expression itself by :func:`_check_calls`), or reads a VIRTUAL column whose value does
    so, however many columns away (``c AS (b + 1)`` over ``b AS (RAND())``); but a key's
    column may read one whose only such call is ``VERSION()`` (:data:`_KEYED_THROUGH`).
    ``keyed``: the ids of the columns the table's keys hold."""
    # the unsteady VIRTUAL columns by folded name: (the column's name, what it calls that makes
    # it so, itself or through the columns it reads)
    unsteady: dict[str, tuple[str, frozenset[str]]] = {}
    for col in table.columns:
        gen = col.generated
        if gen is None:
            continue
        read = sorted(ex.referenced_columns(gen.expr) & unsteady.keys())
        inherited = frozenset().union(*(unsteady[name][1] for name in read))
        own = ex.calls(gen.expr) & _VOLATILE
        if not (inherited or own):
            continue
        kept = gen.stored or (col.id in keyed and (own or inherited - _KEYED_THROUGH))
        if kept:
            what = f"`{unsteady[read[0]][0]}`" if read else ", ".join(sorted(own))
            where = "a STORED generated column" if gen.stored else "a generated column in a key"
            raise DDLError(
                f"{where} cannot read {what}: its value would change from read to read (the "
                "server's error 1901)",
                column=col.name,
            )
        unsteady[fold_name(col.name)] = (col.name, own | inherited)
    if not unsteady:
        return

    def steady(e: Expr, where: dict[str, str]) -> None:
        read = ex.referenced_columns(e) & unsteady.keys()
        if read:
            raise DDLError(
                f"a CHECK cannot read `{unsteady[min(read)][0]}`: its value changes from read "
                "to read (the server's error 1901)",
                **where,
            )

    for col in table.columns:
        if col.check is not None:
            steady(col.check, {"column": col.name})
    for chk in table.checks:
        steady(chk.expr, {"index": chk.name})


#: the keys an engine holds over no VIRTUAL generated column (None: every kind), as MariaDB
#: refuses them: InnoDB's full-text keys (1907; MySQL's 3106 too), Aria's every key (1904); the
#: default engine is InnoDB
_VIRTUAL_UNKEYED: dict[str | None, frozenset[IndexKind] | None] = {
    None: frozenset({IndexKind.FULLTEXT}),
    "InnoDB": frozenset({IndexKind.FULLTEXT}),
    "Aria": None,
}


def _virtual_keys(table: Table) -> None:
    """DDLError for a key the table's engine holds over no VIRTUAL generated column
    (:data:`_VIRTUAL_UNKEYED`), however it came (an ALTER to ``ENGINE=Aria`` too)."""
    engine = table.options.engine
    if engine not in _VIRTUAL_UNKEYED:
        return
    kinds = _VIRTUAL_UNKEYED[engine]
    virtual = {c.id: c.name for c in table.columns if _is_virtual(c)}
    for idx in table.indexes:
        if kinds is not None and idx.kind not in kinds:
            continue
        found = next((virtual[p.column_id] for p in idx.parts if p.column_id in virtual), None)
        if found is not None:
            what = "a full-text key" if idx.kind is IndexKind.FULLTEXT else "a key"
            raise DDLError(
                f"the {engine or 'InnoDB'} engine holds {what} over no VIRTUAL generated "
                f"column (`{found}`)",
                index=idx.name,
            )


#: what a VIRTUAL column a key holds may read through another column, not call itself
_KEYED_THROUGH = frozenset({"VERSION"})


_NOT_KEYS = (IndexKind.FULLTEXT, IndexKind.SPATIAL)
_AUTO_INCREMENT = operator.attrgetter("auto_increment")
_VISIBLE = operator.attrgetter("visible")
_ID = operator.attrgetter("id")
_COLUMN_ID = operator.attrgetter("column_id")
_IMPLICIT_PRIMARY = (
    " (a UNIQUE key over NOT NULL columns is the primary key of a table without one)"
)


def _written_in_charset(table: Table, charset: str) -> None:
    """The server keeps a table's expressions (generated, DEFAULT and CHECK ones, and a TEXT's,
    a BLOB's or a JSON's literal DEFAULT, which it keeps as one) in the table's charset: a
    string literal of one that the charset cannot write refuses the statement that makes it
    or changes the charset (the server's 1918). A literal under an introducer
    (``_latin1'é'``) names its own."""

    def written(text: str, where: dict[str, str]) -> None:
        if holds(charset, text) is False:
            raise DDLError(
                f"{text!r} in an expression of a table of charset {charset}, which cannot "
                "write it (the server keeps the table's expressions in its charset: 1918)",
                **where,
            )

    def visit(expr: Expr, where: dict[str, str]) -> None:
        for text in ex.string_literals(expr):
            written(text, where)

    _each_expression(table, visit)
    for col in table.columns:
        if col.type.family in DEFAULT_AS_EXPRESSION and isinstance(col.default, str | bytes):
            default = col.default
            text = default.decode("utf-8", "replace") if isinstance(default, bytes) else default
            written(text, {"column": col.name})


def _each_expression(
    table: Table, visit: Callable[[Expr, dict[str, str]], None], *, virtual: bool = True
) -> None:
    """``visit`` each expression of the table (``virtual=False``: but VIRTUAL columns'), a
    column's DEFAULT expression among them."""
    for col in table.columns:
        skipped = "generated" if not virtual and _is_virtual(col) else None
        for where, expr in _own_expressions(col):
            if where != skipped:
                visit(expr, {"column": col.name})
    for chk in table.checks:
        visit(chk.expr, {"index": chk.name})


#: the families whose values MariaDB's own types (UUID, INET4, INET6) meet in no operation
#: (:func:`mvdd.ddl.expr.mixed_kinds`); a string meets them all
_KINDED = frozenset(
    {Family.INTEGER, Family.DECIMAL, Family.FLOAT, Family.BIT, Family.TEMPORAL, Family.PLUGIN}
)
_OWN_KINDS = frozenset(k.value.lower() for k in PLUGIN_BYTES)


#: the keys whose names are constraint names beside the checks' (MariaDB's 1826)
_CONSTRAINT_KEYS = frozenset({IndexKind.UNIQUE, IndexKind.PRIMARY})


def _constraint_names_once(table: Table) -> None:
    """MariaDB's 1826: a check's name is none of its table's columns with a CHECK of their own
    (named after them) nor of its UNIQUE and primary keys."""
    checks = {check_key(c.name) for c in table.checks}  # (compared as the server compares them)
    if not checks:
        return
    for name in (
        *(c.name for c in table.columns if c.check is not None),
        *(i.name for i in table.indexes if i.kind in _CONSTRAINT_KEYS),
    ):
        if check_key(name) in checks:
            raise DDLError(f"duplicate CHECK constraint name `{name}`")


def _value_kinds(cols: Iterable[Column]) -> dict[str, str]:
    """The kind of value each column holds, by folded name, where one of MariaDB's own types
    meets it in no operation (a number, a date, one of those types)."""
    return {fold_name(c.name): c.type.kind.value.lower() for c in cols if c.type.family in _KINDED}


def _kinds_meet(kinds: dict[str, str], e: Expr, where: dict[str, str]) -> None:
    """The server's errors 4078 and 4079: a UUID, INET4 or INET6 value meets a number, a date or
    another of those types in an operation of ``e``."""
    refused = ex.mixed_kinds(e, kinds, _OWN_KINDS)
    if refused is not None:
        raise DDLError(f"{refused}: expression {e.sql}", **where)


def _collations_fit(cols: Sequence[Column], e: Expr, where: dict[str, str]) -> None:
    """The server's error 1253: ``col COLLATE co`` in ``e`` where ``co`` is no collation of
    the column's charset (the columns' charsets gathered only for an expression with a
    COLLATE, which few have)."""
    if "COLLATE" not in e.sql:
        return
    charsets = {fold_name(c.name): c.type.charset for c in cols if c.type.charset}
    refused = ex.foreign_collation(e, charsets)
    if refused is not None:
        raise DDLError(f"{refused}: expression {e.sql}", **where)


def _names_exist(e: Expr, names: set[str], where: dict[str, str]) -> None:
    missing = sorted(ex.referenced_columns(e) - names)
    if missing:
        raise DDLError(f"expression {e.sql} names unknown column(s) {missing}", **where)


__all__ = [
    "apply",
    "apply_steps",
    "check_ordered_by",
    "checks_named",
    "hashed_keys",
    "redefined_keys",
    "server_hash",
    "validate_table",
]
