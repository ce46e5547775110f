"""The session a text's statements are read in, as its ``SET`` statements change it.

A script sets session variables between its statements: a ``mariadb-dump`` sets ``TIME_ZONE``
to ``'+00:00'`` and ``SQL_MODE`` to ``'NO_AUTO_VALUE_ON_ZERO'`` (no strict mode) before its
tables, each routine's own ``sql_mode`` before it, and puts back what it saved in user
variables at its end; a migration script may set ``sql_mode = 'ANSI_QUOTES'`` and write its
names in double quotes. The server reads each statement after such a ``SET`` in the session it
made, and so does mvdd (:class:`Settings`):

- followed (:data:`FOLLOWED`): ``sql_mode`` (its grammar, its strictness, its dates), ``time_zone``
  (a TIMESTAMP's literal DEFAULT), ``explicit_defaults_for_timestamp``, ``collation_server`` and
  ``character_set_server`` (what a ``CREATE DATABASE`` naming no charset takes),
  ``character_set_connection`` and ``collation_connection`` (the charset of the string
  literals: what a ``CAST(… AS CHAR)`` takes, and a binary column's DEFAULT, its bytes in it);
  ``character_set_client``, ``SET NAMES`` (its COLLATE one of its charset's) and ``SET
  CHARACTER SET`` (the connection the default database's charset) while they name the charset
  the text is read in (mvdd reads a text, not its client's bytes: another charset is an
  UnsupportedDDLError);
- passed over (:data:`INERT`): the variables that change no schema a statement makes
  (``foreign_key_checks``, ``unique_checks``, ``sql_notes``, ``autocommit`` …), a ``GLOBAL`` or
  ``PERSIST`` variable (the session keeps its own), ``SET TRANSACTION``, ``SET PASSWORD`` and
  ``SET ROLE``;
- any other variable is an UnsupportedDDLError: mvdd cannot say what it makes of the
  statements after it (``default_storage_engine``, ``sql_if_exists``, ``old_mode`` …). A
  reader that skips what it does not model passes such an assignment over, and a value mvdd
  does not know, and takes the SET's others (:func:`after_set`'s ``passed``).

As on the server, a ``SET`` reads all its values before it assigns any (``SET @old =
@@sql_mode, sql_mode = ''`` saves the mode before), a ``GLOBAL`` or ``SESSION`` word holds for
the assignments after it that name none, and a value the variable cannot take (an unknown
mode, zone or collation, NULL) is a DDLError that changes nothing. A value is a literal, a bare
word, ``DEFAULT`` (the value the text started with), ``@@variable``, ``@variable`` (a user
variable the text set: a variable's value saved so is put back as it was) or a ``CONCAT`` of
them; any other expression is an UnsupportedDDLError. MariaDB's ``SET STATEMENT … FOR``
(:func:`for_statement`) sets the followed variables for its one statement, whose text the
server has read under the session's own grammar by then (its ANSI_QUOTES, say, does not read
it); the others it sets are passed over, so that no statement is lost for them.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from sqlglot import exp

from mvdd.ddl.rules import PLAIN, Session
from mvdd.ddl.sqlmode import COMPOSITES, MARIADB_BITS, MYSQL_BITS, SqlMode
from mvdd.errors import DDLError, UnsupportedDDLError
from mvdd.model.encoding import ASCII_BASED, UTF8_TEXT, python_codec
from mvdd.model.types import canonical_charset, charset_of_collation, resolve_charset
from mvdd.model.zone import session_zone


@attrs.frozen
class Known:
    """A session variable's value as a user variable holds it (``SET @old = @@sql_mode``):
    put back into the same variable, it is that value exactly; elsewhere, its ``text``."""

    variable: str
    value: Any
    #: how the server spells it (None: mvdd cannot: the collation of a connection)
    text: str | None


@attrs.frozen
class Unknown:
    """A value mvdd does not know (a global variable's, an expression's): a user variable may
    hold one, but a followed variable set to it is an UnsupportedDDLError."""

    what: str


#: what a SET passed over (``on_unsupported="skip"``) says of the statements after it
PASSED_OVER = "the statements after it are read in the session before it"
#: what a SET's assignment passed over says of them (the SET's other assignments taken)
PASSED_OVER_ONE = (
    "passed over, the SET's other assignments taken: the statements after it are read without it"
)
#: why a variable outside FOLLOWED and INERT is refused
_UNFOLLOWED = (
    "a session variable mvdd does not follow (what it makes of the statements after it is "
    "not known)"
)


class _Default:
    """``DEFAULT``: the value the text started with."""


DEFAULT = _Default()
#: what a SET's value reads as
Value = str | int | float | None | Known | Unknown | _Default


def written_in(charset: str | None) -> str | None:
    """The charset a statement was written in, as the session and
    :func:`~mvdd.ddl.statement.literal_bytes` take it (None: its text is UTF-8's, or not said);
    DDLError names one unknown or without a Python codec."""
    if charset is None:
        return None
    known = canonical_charset(charset)
    if known in UTF8_TEXT:
        return None
    if python_codec(known) is None:
        raise DDLError(f"statements written in {known}: mvdd has no codec for that charset")
    return known


def literals_in(connection: str) -> str | None:
    """The charset a session's string literals are text of, its connection's, as
    :class:`~mvdd.ddl.rules.Session` takes it: None where it holds every character
    (``utf8mb4``; ``binary``, whose literals are the client's bytes), else the charset, whose
    characters a literal keeps (``ascii`` and ``utf8mb3`` too: a UTF-8 text's character beyond
    them is a ``?`` there, as the server converts it)."""
    if connection in ("utf8mb4", "binary"):
        return None
    return written_in(connection) or connection


def session_of(time_zone: dt.tzinfo | None, mode: SqlMode | None, charset: str | None) -> Session:
    """What a statement's session decides of its steps (:class:`~mvdd.ddl.rules.Session`): its
    zone, its sql_mode's strictness, ALLOW_INVALID_DATES, TIME_ROUND_FRACTIONAL, NO_ZERO_DATE
    and IGNORE_BAD_TABLE_OPTIONS, the charset of its string literals (its connection's, as
    :func:`written_in` takes it); the plain session when none of them says otherwise."""
    if time_zone is None and mode is None and charset is None:
        return PLAIN
    return Session(
        time_zone=time_zone,
        loose=mode is not None and not mode.strict,
        any_day=mode is not None and mode.any_day,
        round_fractions=mode is not None and mode.round_fractions,
        charset=charset,
        no_zero_date=mode is not None and mode.no_zero_date,
        ignore_bad_options=mode is not None and mode.ignore_bad_options,
        shown=mode is not None and mode.shown,
        alike=mode is not None and mode.alike,
    )


@attrs.frozen
class Settings:
    """The session variables mvdd follows, as a text's statements are read and applied under
    them (the arguments of :meth:`~mvdd.catalog.Catalog.execute` of the same names at its
    start), and the user variables the text set."""

    #: None: the default mode's grammar, strict
    sql_mode: SqlMode | None = None
    #: None: UTC
    time_zone: dt.tzinfo | None = attrs.field(default=None, eq=False)
    explicit_defaults_for_timestamp: bool = True
    #: None: not known (a ``CREATE DATABASE`` naming no charset takes the catalog's)
    collation_server: str | None = None
    #: the charset the text was written in (``character_set_client``)
    client: str = "utf8mb4"
    #: ``character_set_connection``: its string literals' charset, which a ``CAST(… AS CHAR)``
    #: naming none takes
    connection: str = "utf8mb4"
    #: the user variables the text set, by name in lower case
    variables: Mapping[str, Value] = attrs.field(factory=dict, eq=False, hash=False)
    #: the server's flavor, whose sql_mode words are read
    flavor: str | None = None
    #: the text holds a character beyond the BMP (which a utf8mb3 client reads otherwise)
    beyond_bmp: bool = attrs.field(default=False, eq=False)
    #: the text is ASCII (which an ascii client reads alike; one beyond it, otherwise)
    ascii_only: bool = attrs.field(default=False, eq=False)
    #: the text is its client's bytes, each statement read in the client charset of its
    #: moment (:func:`~mvdd.ddl.statement.iter_statements` of bytes): a SET of another one
    #: that splits statements alike (:data:`~mvdd.model.encoding.ASCII_BASED`) is followed
    from_bytes: bool = attrs.field(default=False, eq=False)

    #: what these settings decide of a statement's steps (:func:`session_of`)
    session: Session = attrs.field(init=False, eq=False)

    @session.default
    def _session(self) -> Session:
        # (a string literal is text of the connection's charset, into which the server
        # converts the client's: a binary column's DEFAULT keeps its bytes in it)
        return session_of(self.time_zone, self.sql_mode, literals_in(self.connection))

    @property
    def legacy_timestamps(self) -> bool:
        return not self.explicit_defaults_for_timestamp


#: a followed variable: the field of :class:`Settings` it sets, what a value makes of it, and
#: how the server spells the field's value in a session (None: mvdd cannot)
_Follow = tuple[str, Callable[[Any, Settings], Any], Callable[[Any, Settings], str | None]]


def _text(value: Value, variable: str) -> str:
    """A value as text, as a variable of strings takes it."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    raise DDLError(f"variable {variable!r} cannot be set to {_shown(value)}")


def _shown(value: Value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, Known):
        return value.text or f"@@{value.variable}"
    return repr(value)


def _sql_mode(value: Value, now: Settings) -> SqlMode:
    if isinstance(value, int) and not isinstance(value, bool):
        return SqlMode.of(value, now.flavor)  # (its bits: DDLError for one no mode has)
    words = {w.strip().upper() for w in _text(value, "sql_mode").split(",") if w.strip()}
    unknown = sorted(words - _known_words(now.flavor))
    if unknown:
        raise DDLError(f"variable 'sql_mode' cannot be set to {unknown[0]!r}: no such mode")
    return SqlMode.of(",".join(sorted(words)), now.flavor)


#: the sql_mode words each server knows (its bits' and the composite modes')
_WORDS = {
    "mariadb": frozenset(MARIADB_BITS) | frozenset(COMPOSITES),
    "mysql": frozenset(w for i, w in enumerate(MARIADB_BITS) if i not in MYSQL_BITS)
    | frozenset(w for w in MYSQL_BITS.values() if w is not None)
    | frozenset(COMPOSITES),
}


def _known_words(flavor: str | None) -> frozenset[str]:
    """The sql_mode words a server of ``flavor`` knows (None: either's)."""
    return _WORDS.get(flavor or "", _WORDS["mariadb"] | _WORDS["mysql"])


#: the servers' default sql_mode (MariaDB's since 10.2.4, MySQL 8's), which the mode None
#: (the default grammar, strict) spells: mvdd reads a statement under either as under None
DEFAULT_MODES = {
    "mariadb": "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
    "NO_ENGINE_SUBSTITUTION",
    "mysql": "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
    "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION",
}


def _mode_text(mode: SqlMode | None, now: Settings) -> str:
    """How ``@@sql_mode`` spells a mode (None: its server's default, MariaDB's when the server
    is not known)."""
    if mode is None:
        return DEFAULT_MODES.get(now.flavor or "", DEFAULT_MODES["mariadb"])
    return ",".join(sorted(mode.words))


def _time_zone(value: Value, now: Settings) -> dt.tzinfo:
    text = _text(value, "time_zone")
    if text.upper() == "SYSTEM":
        raise UnsupportedDDLError(
            "time_zone SYSTEM is the server's zone, which a text does not say (pass "
            "time_zone= for it)"
        )
    return session_zone(text)


def _zone_text(zone: dt.tzinfo | None, now: Settings) -> str | None:
    if zone is None:
        return "+00:00"
    if isinstance(zone, zoneinfo.ZoneInfo):
        return zone.key
    offset = zone.utcoffset(None)
    if offset is None:
        return None
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


#: a boolean variable's values, as the server takes them (a number 0 or 1, a word)
_SWITCH: dict[Any, bool] = {0: False, 1: True, "OFF": False, "ON": True}


def _switch(value: Value, now: Settings) -> bool:
    key = value.upper() if isinstance(value, str) else value
    if isinstance(key, bool) or key not in _SWITCH:
        raise DDLError(
            f"variable 'explicit_defaults_for_timestamp' cannot be set to {_shown(value)}"
        )
    return _SWITCH[key]


def _collation(value: Value, now: Settings) -> str:
    collation = _text(value, "collation_server")
    charset_of_collation(collation)  # (DDLError: unknown)
    return resolve_charset(None, collation)[1] or collation


def _server_charset(value: Value, now: Settings) -> str:
    collation = resolve_charset(_text(value, "character_set_server"), None)[1]
    assert collation is not None
    return collation


def _client(value: Value, now: Settings) -> str:
    charset = canonical_charset(_text(value, "character_set_client"))
    if now.from_bytes:
        if charset in ASCII_BASED:  # (and so is the one before it: a text of bytes starts so)
            return charset
        raise UnsupportedDDLError(
            f"the text's client charset becomes {charset} (from {now.client}): its bytes "
            "split into statements otherwise (a backslash or a quote may be part of a "
            "character of it), which mvdd does not read"
        )
    # (a text is text: a client charset that reads it otherwise than the one it is read in is
    # not followed; utf8mb3 reads a character beyond the BMP as ?s, which a text without one
    # does not meet, and ascii one beyond ASCII)
    plane = now.beyond_bmp and (charset == "utf8mb3") != (now.client == "utf8mb3")
    plane |= not now.ascii_only and (charset == "ascii") != (now.client == "ascii")
    if written_in(charset) != written_in(now.client) or plane:
        raise UnsupportedDDLError(
            f"the text's client charset becomes {charset} (from {now.client}): mvdd reads a "
            "text in one charset (execute(charset=…)), not its client's bytes"
        )
    return charset


def _connection(value: Value, now: Settings) -> str:
    return canonical_charset(_text(value, "character_set_connection"))


def _connection_collation(value: Value, now: Settings) -> str:
    return charset_of_collation(_text(value, "collation_connection"))


def _same(value: Any, now: Settings) -> str | None:
    return value if isinstance(value, str) else None


#: the variables mvdd follows: variable -> (field, read, spell)
FOLLOWED: dict[str, _Follow] = {
    "sql_mode": ("sql_mode", _sql_mode, _mode_text),
    "time_zone": ("time_zone", _time_zone, _zone_text),
    "explicit_defaults_for_timestamp": (
        "explicit_defaults_for_timestamp",
        _switch,
        lambda on, now: "1" if on else "0",
    ),
    "collation_server": ("collation_server", _collation, _same),
    "character_set_server": (
        "collation_server",
        _server_charset,
        lambda c, now: charset_of_collation(c) if c else None,
    ),
    "character_set_client": ("client", _client, _same),
    "character_set_connection": ("connection", _connection, _same),
    "collation_connection": ("connection", _connection_collation, lambda c, now: None),
}

#: the session variables that change no schema a statement makes (``sql_require_primary_key``
#: and ``sql_safe_updates`` only refuse statements; ``password``: ``SET PASSWORD = …``, which
#: sqlglot reads as a variable's assignment): set, they are passed over
INERT = frozenset(
    {
        "auto_increment_increment", "auto_increment_offset", "autocommit", "big_tables",
        "character_set_results", "check_constraint_checks", "foreign_key_checks",
        "group_concat_max_len", "innodb_lock_wait_timeout", "insert_id", "interactive_timeout",
        "last_insert_id", "lc_messages", "lc_time_names", "lock_wait_timeout",
        "max_execution_time", "max_statement_time", "net_read_timeout", "net_write_timeout",
        "note_verbosity", "password", "profiling", "pseudo_thread_id", "rand_seed1",
        "rand_seed2", "sql_auto_is_null", "sql_big_selects", "sql_log_bin", "sql_log_off",
        "sql_notes", "sql_quote_show_create", "sql_require_primary_key", "sql_safe_updates",
        "sql_select_limit", "sql_warnings", "system_versioning_insert_history", "timestamp",
        "transaction_isolation", "transaction_read_only", "tx_isolation", "tx_read_only",
        "unique_checks", "wait_timeout",
    }
)  # fmt: skip
#: what ``SET STATEMENT … FOR`` may not set (the server's 1971)
_NOT_FOR_A_STATEMENT = frozenset(
    {
        "autocommit", "character_set_client", "character_set_connection", "collation_connection",
        "interactive_timeout", "last_insert_id", "profiling", "rand_seed1", "rand_seed2",
        "sql_log_off", "tx_isolation", "wait_timeout",
    }
)  # fmt: skip
#: the scopes a SET's modifier names: whether the session's own variable is set
_SCOPES = {"SESSION": True, "LOCAL": True, "GLOBAL": False, "PERSIST": False, "PERSIST_ONLY": False}


def _value(node: exp.Expr, now: Settings) -> Value:
    """What a SET's value reads as, in the session ``now`` (before any of its assignments)."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Literal):
        if node.is_string:
            return str(node.this)
        number = node.to_py()
        return number if isinstance(number, int | float) else Unknown(node.sql())
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return int(bool(node.this))
    if isinstance(node, exp.Var) or (isinstance(node, exp.Column) and not node.table):
        return DEFAULT if node.name.upper() == "DEFAULT" else node.name  # (a bare word)
    if isinstance(node, exp.SessionParameter):
        return _current(node.name.lower(), str(node.args.get("kind") or "SESSION"), now)
    if isinstance(node, exp.Parameter):
        return now.variables.get(_user(node), None)
    if isinstance(node, exp.Concat):
        parts = [_value(part, now) for part in node.expressions]
        if any(part is None for part in parts):
            return None  # (CONCAT of a NULL is NULL)
        texts = [part.text if isinstance(part, Known) else part for part in parts]
        if all(isinstance(t, str | int | float) for t in texts):
            return "".join(str(t) for t in texts)
        return Unknown(node.sql())
    return Unknown(node.sql())


#: ``SET CHARACTER SET``'s connection charset: the default database's
_DATABASE = exp.var("character_set_database")


def _charset_value(charset: str | None) -> Value:
    return Unknown("the default database's charset") if charset is None else charset


def _user(node: exp.Parameter) -> str:
    """A user variable's name (``@a``, ``@`a b```, ``@'a'``), as the server folds it."""
    return str(node.this.this if isinstance(node.this, exp.Expr) else node.this).lower()


def _current(variable: str, scope: str, now: Settings) -> Value:
    """``@@variable``: a followed variable's value in ``now``, else a value mvdd does not know."""
    follow = FOLLOWED.get(variable)
    if follow is None or not _SCOPES.get(scope.upper(), True):
        return Unknown(f"@@{scope.lower()}.{variable}")
    field, _, spell = follow
    value = getattr(now, field)
    return Known(variable, value, spell(value, now))


def _assigned(variable: str, value: Value, now: Settings, start: Settings) -> Settings:
    """``now`` with a followed ``variable`` set to ``value``."""
    field, read, _ = FOLLOWED[variable]
    if value is DEFAULT:
        return attrs.evolve(now, **{field: getattr(start, field)})
    if isinstance(value, Known):
        if value.variable == variable:  # (a value saved from it: put back as it was)
            return attrs.evolve(now, **{field: value.value})
        if value.text is None:
            raise UnsupportedDDLError(
                f"{variable} set to @@{value.variable}, whose value the text does not say"
            )
        value = value.text
    if isinstance(value, Unknown):
        raise UnsupportedDDLError(f"{variable} set to {value.what}, a value mvdd does not know")
    if value is None:
        raise DDLError(f"variable {variable!r} cannot be set to NULL")
    return attrs.evolve(now, **{field: read(value, now)})


def _assignments(node: exp.Set) -> list[tuple[str, bool | None, exp.Expr]]:
    """A SET's assignments: (variable in lower case, whether a session variable (None: a user
    variable; False: a global one), value); UnsupportedDDLError for an item mvdd does not read.
    A SESSION or GLOBAL word holds for the items after it that name none, as on the server."""
    out: list[tuple[str, bool | None, exp.Expr]] = []
    session = True
    for item in node.expressions:
        kind = str(item.args.get("kind") or "").upper()
        if kind == "TRANSACTION":
            continue  # (SET TRANSACTION: the next transaction's isolation)
        if kind in ("NAMES", "CHARACTER SET"):
            charset = item.this
            collate = item.args.get("collate")
            if collate is not None and charset.name.upper() != "DEFAULT":
                resolve_charset(charset.name, collate.name)  # (DDLError: not of the charset)
            out.append(("character_set_client", True, charset))
            # (CHARACTER SET: the connection takes the default database's charset)
            out.append(
                ("character_set_connection", True, charset if kind == "NAMES" else _DATABASE)
            )
            continue
        if kind in _SCOPES:
            session = _SCOPES[kind]
        eq = item.this
        if not isinstance(eq, exp.EQ):
            raise UnsupportedDDLError(f"SET {item.sql()}: not a variable's assignment")
        target = eq.this
        if isinstance(target, exp.Parameter):
            out.append((_user(target), None, eq.expression))
        elif isinstance(target, exp.SessionParameter):
            scope = str(target.args.get("kind") or "SESSION").upper()
            out.append((target.name.lower(), _SCOPES.get(scope, True), eq.expression))
        elif isinstance(target, exp.Column | exp.Identifier) and not target.args.get("table"):
            out.append((target.name.lower(), session, eq.expression))
        else:
            raise UnsupportedDDLError(f"SET {item.sql()}: not a variable's assignment")
    return out


def after_set(
    node: exp.Set,
    now: Settings,
    start: Settings,
    *,
    others: bool = False,
    database: Callable[[], str | None] = lambda: None,
    passed: list[str] | None = None,
) -> Settings:
    """The settings after a ``SET`` statement in session ``now`` (``start``: the text's first,
    which ``DEFAULT`` names): its values read first, then assigned in turn. DDLError for a
    value a variable cannot take, UnsupportedDDLError for a variable (unless ``others``: then
    passed over) or a value mvdd does not follow (:data:`FOLLOWED`, :data:`INERT`); either
    changes nothing. ``database``: the default database's charset (None: not known), which
    ``SET CHARACTER SET`` gives the connection. ``passed``: a list, when an assignment mvdd
    does not follow (its variable or its value) is to be passed over rather than refused,
    the rest of the SET taken: its refusal is appended (a DDLError still changes nothing)."""
    items = _assignments(node)
    values = [
        _value(value, now) if value is not _DATABASE else _charset_value(database())
        for _, _, value in items
    ]
    variables = dict(now.variables)
    out = now
    for (variable, session, _), value in zip(items, values, strict=True):
        if session is None:
            variables[variable] = value
        elif not session or variable in INERT or (others and variable not in FOLLOWED):
            continue
        elif variable in FOLLOWED:
            try:
                out = _assigned(variable, value, out, start)
            except UnsupportedDDLError as err:
                if passed is None:
                    raise
                passed.append(err.message)
        elif passed is not None:
            passed.append(f"SET {variable}: {_UNFOLLOWED}")
        else:
            raise UnsupportedDDLError(f"SET {variable}: {_UNFOLLOWED}")
    return attrs.evolve(out, variables=variables)


def for_statement(assignments: list[exp.Expr], now: Settings, start: Settings) -> Settings:
    """The settings one statement runs under by MariaDB's ``SET STATEMENT assignments FOR``:
    as :func:`after_set`, the variables the server does not take there a DDLError, and the
    variables mvdd does not follow passed over, as they were before it followed any: the
    statement is never lost for them (a binlog's DDL logs its variables' values beside it, as
    its reader passes them)."""
    node = exp.Set(expressions=[exp.SetItem(this=eq) for eq in assignments])
    for variable, _, _ in _assignments(node):
        if variable in _NOT_FOR_A_STATEMENT:
            raise DDLError(f"the system variable {variable} cannot be set in SET STATEMENT")
    return after_set(node, now, start, others=True)


__all__ = [
    "DEFAULT",
    "FOLLOWED",
    "INERT",
    "PASSED_OVER",
    "PASSED_OVER_ONE",
    "Known",
    "Settings",
    "Unknown",
    "after_set",
    "for_statement",
    "literals_in",
    "session_of",
    "written_in",
]
