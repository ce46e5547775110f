"""A session's ``sql_mode``, as far as it changes what a DDL statement says.

A server reads a statement under the sql_mode of the session that sent it, and a binlog logs
that mode beside the statement (the query event's ``Q_SQL_MODE_CODE``, a bit set). Some of its
words change the statement's grammar or meaning, and mvdd reads it under them:

- ``ANSI_QUOTES``: ``"…"`` is an identifier, not a string;
- ``NO_BACKSLASH_ESCAPES``: a backslash in a string is itself, not an escape;
- ``PIPES_AS_CONCAT``: ``a || b`` is ``CONCAT(a, b)``, not ``a OR b``;
- ``REAL_AS_FLOAT``: the type ``REAL`` is ``FLOAT``, not ``DOUBLE``;
- ``HIGH_NOT_PRECEDENCE``: ``NOT`` binds as tightly as ``!`` (``NOT a BETWEEN b AND c`` is
  ``(NOT a) BETWEEN b AND c``);
- without ``STRICT_TRANS_TABLES`` or ``STRICT_ALL_TABLES``: a VARCHAR or VARBINARY longer than
  its type holds is the TEXT or BLOB holding it (:func:`mvdd.ddl.types.loosened`);
- ``ALLOW_INVALID_DATES``: a DATE's or DATETIME's DEFAULT may name a day its month lacks;
- ``TIME_ROUND_FRACTIONAL`` (MariaDB's): a DEFAULT's fraction of a second longer than its
  column's is rounded, not cut: to six digits first, then to the column's
  (:func:`mvdd.model.element.round_fraction`).

(The composite modes, ``ANSI``, ``TRADITIONAL`` …, are logged with the words they stand for.)
Others change a statement in ways mvdd does not model, and a statement read under one is
refused (:meth:`SqlMode.refusal`) rather than misread: MariaDB's ``ORACLE`` (a grammar of its
own) and ``MAXDB`` (a ``TIMESTAMP`` is a ``DATETIME``). Under ``EMPTY_STRING_IS_NULL`` an
empty string where a value stands is NULL (:func:`mvdd.ddl.statement.empty_strings_null`).
The rest concern rows, not schemas, or how the server shows a table.

>>> mode = SqlMode.of("ANSI_QUOTES,STRICT_TRANS_TABLES")
>>> mode.ansi_quotes, mode.pipes_as_concat, sorted(SqlMode.of(4 | 2, "mariadb").words)
(True, False, ['ANSI_QUOTES', 'PIPES_AS_CONCAT'])
"""

from __future__ import annotations

import attrs

from mvdd.errors import DDLError

#: MariaDB's sql_mode words by their bit (bit i is ``1 << i``), as its ``sql_mode.h`` has them
MARIADB_BITS: tuple[str, ...] = (
    "REAL_AS_FLOAT",
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "IGNORE_BAD_TABLE_OPTIONS",
    "ONLY_FULL_GROUP_BY",
    "NO_UNSIGNED_SUBTRACTION",
    "NO_DIR_IN_CREATE",
    "POSTGRESQL",
    "ORACLE",
    "MSSQL",
    "DB2",
    "MAXDB",
    "NO_KEY_OPTIONS",
    "NO_TABLE_OPTIONS",
    "NO_FIELD_OPTIONS",
    "MYSQL323",
    "MYSQL40",
    "ANSI",
    "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES",
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "ALLOW_INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO",
    "TRADITIONAL",
    "NO_AUTO_CREATE_USER",
    "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION",
    "PAD_CHAR_TO_FULL_LENGTH",
    "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT",
    "TIME_ROUND_FRACTIONAL",
)
#: MySQL's, where they differ from MariaDB's (5.7's bits; 8.0 left the old modes' bits unused)
MYSQL_BITS: dict[int, str | None] = {4: None, 32: "TIME_TRUNCATE_FRACTIONAL", 33: None, 34: None}

_PORTABLE = ("PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE")
_OPTIONS = ("NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS")
#: the composite modes, as MariaDB expands a word set by name (its bits logged with them)
COMPOSITES: dict[str, tuple[str, ...]] = {
    "ANSI": ("REAL_AS_FLOAT", *_PORTABLE),
    "TRADITIONAL": (
        "STRICT_TRANS_TABLES",
        "STRICT_ALL_TABLES",
        "NO_ZERO_IN_DATE",
        "NO_ZERO_DATE",
        "ERROR_FOR_DIVISION_BY_ZERO",
        "NO_AUTO_CREATE_USER",
        "NO_ENGINE_SUBSTITUTION",
    ),
    "ORACLE": (*_PORTABLE, *_OPTIONS, "NO_AUTO_CREATE_USER", "SIMULTANEOUS_ASSIGNMENT"),
    "POSTGRESQL": (*_PORTABLE, *_OPTIONS),
    "MSSQL": (*_PORTABLE, *_OPTIONS),
    "DB2": (*_PORTABLE, *_OPTIONS),
    "MAXDB": (*_PORTABLE, *_OPTIONS, "NO_AUTO_CREATE_USER"),
    "MYSQL323": ("HIGH_NOT_PRECEDENCE",),
    "MYSQL40": ("HIGH_NOT_PRECEDENCE",),
}

#: the words whose meaning mvdd does not model, refused for every statement read under them,
#: by flavor (None: a server mvdd does not know, read as MariaDB)
_REFUSED: dict[str | None, dict[str, str]] = {
    "mariadb": {
        "ORACLE": "MariaDB's Oracle grammar, which mvdd does not read",
        "MAXDB": "a TIMESTAMP is a DATETIME there, which mvdd does not model",
    },
    "mysql": {"MAXDB": "a TIMESTAMP is a DATETIME there, which mvdd does not model"},
}
_REFUSED[None] = _REFUSED["mariadb"]


def _word(bit: int, flavor: str | None) -> str | None:
    """The word of one bit in the flavor's table (None: no mode has it)."""
    if flavor == "mysql" and bit in MYSQL_BITS:
        return MYSQL_BITS[bit]
    return MARIADB_BITS[bit] if bit < len(MARIADB_BITS) else None


def _words(bits: int, flavor: str | None) -> frozenset[str]:
    out = set()
    for i in range(bits.bit_length()):
        if bits >> i & 1:
            word = _word(i, flavor)
            if word is None:
                raise DDLError(f"sql_mode bit {i} ({1 << i}) names no mode of a {flavor} server")
            out.add(word)
    return frozenset(out)


@attrs.frozen
class SqlMode:
    """The sql_mode words a statement was read under (upper case)."""

    words: frozenset[str] = frozenset()
    #: the server's flavor (``"mariadb"``, ``"mysql"``; None: not known)
    flavor: str | None = None
    #: the text is a server's own account of a table (its SHOW CREATE TABLE), not a statement
    #: a session ran: what it states is what the table has (:data:`mvdd.ddl.statement.SHOWN`)
    shown: bool = False
    #: (of a server's own text) it is read to be compared with the table it should be, as its
    #: server shows that (:func:`~mvdd.model.table.as_shown`): members it shows alike (a ``?``
    #: a byte their charset does not read, or a character beyond the BMP) read as it shows them
    alike: bool = False

    @classmethod
    def of(cls, mode: SqlMode | str | int | None, flavor: str | None = None) -> SqlMode:
        """The mode as ``@@sql_mode`` spells it (comma-separated words, any case; a
        composite mode's word stands for its words too, :data:`COMPOSITES`) or as a binlog
        logs it (its bits, read by the flavor's table); None: the empty mode, as mvdd reads a
        statement without one; a SqlMode, itself. DDLError for a bit no mode has."""
        if isinstance(mode, SqlMode):
            return (
                mode
                if mode.flavor is not None or flavor is None
                else attrs.evolve(mode, flavor=flavor)
            )
        if mode is None:
            return cls(frozenset(), flavor)
        if isinstance(mode, int):
            return cls(_words(mode, flavor), flavor)
        words = {w.strip().upper() for w in mode.split(",") if w.strip()}
        for word in words & COMPOSITES.keys():
            words.update(COMPOSITES[word])
        return cls(frozenset(words), flavor)

    @property
    def ansi_quotes(self) -> bool:
        return "ANSI_QUOTES" in self.words

    @property
    def backslash_escapes(self) -> bool:
        return "NO_BACKSLASH_ESCAPES" not in self.words

    @property
    def pipes_as_concat(self) -> bool:
        return "PIPES_AS_CONCAT" in self.words

    @property
    def real_as_float(self) -> bool:
        return "REAL_AS_FLOAT" in self.words

    @property
    def strict(self) -> bool:
        """STRICT_TRANS_TABLES or STRICT_ALL_TABLES: a VARCHAR too long is refused, not made a
        TEXT (:func:`~mvdd.ddl.types.loosened`)."""
        return not self.words.isdisjoint(("STRICT_TRANS_TABLES", "STRICT_ALL_TABLES"))

    @property
    def round_fractions(self) -> bool:
        """TIME_ROUND_FRACTIONAL (MariaDB's): a fraction of a second longer than a column's is
        rounded, not cut."""
        return "TIME_ROUND_FRACTIONAL" in self.words

    @property
    def any_day(self) -> bool:
        """ALLOW_INVALID_DATES: a date may name a day its month lacks (up to 31)."""
        return "ALLOW_INVALID_DATES" in self.words

    @property
    def ignore_bad_options(self) -> bool:
        """IGNORE_BAD_TABLE_OPTIONS: a table option its engine does not know, or a value its
        option does not take, is kept with a warning (:func:`~mvdd.ddl.options.check_named`)."""
        return "IGNORE_BAD_TABLE_OPTIONS" in self.words

    @property
    def no_zero_date(self) -> bool:
        """NO_ZERO_DATE: the zero date is no column's DEFAULT (strict or not: the server's
        1067), and a statement that rebuilds a table holding one is refused
        (:func:`~mvdd.catalog.plan.plan_statement`)."""
        return "NO_ZERO_DATE" in self.words

    @property
    def grammar(self) -> tuple[bool, bool, bool, bool, bool]:
        """What the statement's grammar depends on: (ANSI_QUOTES, backslash escapes,
        PIPES_AS_CONCAT, REAL_AS_FLOAT, HIGH_NOT_PRECEDENCE), the key of its dialect."""
        return (
            self.ansi_quotes,
            self.backslash_escapes,
            self.pipes_as_concat,
            self.real_as_float,
            "HIGH_NOT_PRECEDENCE" in self.words,
        )

    def refusal(self) -> str | None:
        """Why a statement read under this mode is refused (None: it is read): a word whose
        meaning mvdd does not model."""
        refused = _REFUSED.get(self.flavor, _REFUSED[None])
        for word in sorted(self.words & refused.keys()):
            return f"sql_mode {word}: {refused[word]}"
        return None


__all__ = ["COMPOSITES", "MARIADB_BITS", "MYSQL_BITS", "SqlMode"]
