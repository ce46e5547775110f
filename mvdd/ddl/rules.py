"""Whose rules a statement's steps apply under: mvdd's, or the server's that already ran it.

A catalog that decides what may change takes mvdd's rules: where MySQL and MariaDB differ, the
stricter one, and no NOT NULL column without a default added to a table that may hold rows
(seed 003). A replica (a binlog reader, a replication worker) follows a server that has already
run every statement it reads, and must not stop on one the server took (DESIGN §12): it takes
the server's own rules, and ends with the table the server has.

:data:`STRICTER` lists the rules mvdd keeps that a server does not, each with what the server
does instead, which a replica does. ``tests/test_mariadb_server.py`` holds both sides of each
to MariaDB: a catalog of mvdd's rules refuses the statement, a replica's ends with the server's
table.

A replica that knows its server's flavor follows MariaDB's own ways where the two servers
take a statement alike but do different things (:data:`MARIADB`).

>>> Rules.altered(replica=False).strict, Rules.altered(replica=True).strict
(True, False)
>>> Rules.created(replica=False).rows, Rules.altered(replica=True, flavor="mariadb").flavor
(False, 'mariadb')
"""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

import attrs

#: the server flavors a replica may know its server by (None: not known)
FLAVORS = (None, "mariadb", "mysql")


@attrs.frozen
class Session:
    """What the session that wrote a statement decides of how its steps apply (a binlog logs
    it beside the statement; the default: a session of mvdd's own, UTC and strict).

    Attributes:
        time_zone: its zone, when not UTC: a TIMESTAMP's literal DEFAULT is read in it and
            kept as UTC text (:mod:`mvdd.model.zone`).
        loose: it was not strict (no STRICT_TRANS_TABLES nor STRICT_ALL_TABLES): a VARCHAR
            too long for the charset it takes from its table is the TEXT holding it
            (:func:`~mvdd.ddl.types.loosened`).
        any_day: ALLOW_INVALID_DATES: a DATE's or DATETIME's DEFAULT may name a day its month
            lacks (``'2020-02-30'``).
        round_fractions: TIME_ROUND_FRACTIONAL: a DEFAULT's fraction of a second longer than
            its column's is rounded on MariaDB, not cut (MySQL rounds it in any mode).
        no_zero_date: NO_ZERO_DATE: under mvdd's own rules, a table a statement creates or
            rebuilds holds no DATE, DATETIME or TIMESTAMP column whose DEFAULT is the zero date
            (:func:`~mvdd.catalog.plan.plan_statement`).
        ignore_bad_options: IGNORE_BAD_TABLE_OPTIONS: a table option its engine does not know,
            or a value its option does not take, is kept (:func:`~mvdd.ddl.options.check_named`).
        charset: the charset of its string literals, when not UTF-8: its connection's, which
            is its client's unless it set them apart (a binlog's statement from a ``latin1``
            session): a string literal is its bytes in it, which a binary column's DEFAULT
            keeps (``BINARY(3) DEFAULT 'é'`` is ``E9 00 00``).
        shown: the text is a server's own account of a table (its SHOW CREATE TABLE, read
            under :data:`~mvdd.ddl.statement.SHOWN`): a column has what it states, where the
            statement would give it more (a NOT NULL COMPRESSED column's ``DEFAULT ''``).
        alike: a server's own text read to be compared with the table it should be, as its
            server shows that (:attr:`~mvdd.ddl.sqlmode.SqlMode.alike`): its members may be
            one.
    """

    time_zone: dt.tzinfo | None = attrs.field(default=None, eq=False)
    loose: bool = False
    any_day: bool = False
    round_fractions: bool = False
    charset: str | None = None
    no_zero_date: bool = False
    ignore_bad_options: bool = False
    shown: bool = False
    alike: bool = False

    @property
    def members_alike(self) -> bool:
        """Whether an ENUM's or a SET's members may be one (as written, in their charset or
        collation, or as a ``CONVERT TO`` makes them): a session that is not strict keeps
        them (the server's 1291 a note there), and a server's own text (:attr:`shown`) holds
        them as such a session made them; but where a ``?`` of that text is one of them, it
        may hide characters beyond the BMP that its table keeps apart: such a text is
        refused, saying so (:func:`~mvdd.model.types.check_hidden_members`), unless it is read
        to be compared with a table as its server shows it (:attr:`alike`)."""
        return self.loose or self.alike or self.shown


#: a session of mvdd's own
PLAIN = Session()


@attrs.frozen
class Rules:
    """How a step applies: whether the table may hold rows, whether mvdd's stricter rules hold
    (:data:`STRICTER`), the server's flavor, and what the session that wrote the statement
    decides (:class:`Session`). The four kinds are :attr:`MVDD`, :attr:`EMPTY`, :attr:`SERVER` and
    :attr:`SERVER_MARIADB`; :meth:`for_session` gives one of them for a session's zone and
    strictness."""

    #: rows written under earlier versions may exist (a new NOT NULL column needs a default)
    rows: bool
    #: mvdd's stricter rules hold (:data:`STRICTER`)
    strict: bool
    #: the server's flavor, when known: its own ways are followed
    flavor: str | None = None
    #: what the session that wrote the statement decides (:class:`Session`)
    session: Session = PLAIN

    #: an ALTER of a table that may hold rows, under mvdd's rules
    MVDD: ClassVar[Rules]
    #: a table its statement creates (no rows yet), under mvdd's rules
    EMPTY: ClassVar[Rules]
    #: a statement its server already ran (a replica): the server's own rules
    SERVER: ClassVar[Rules]
    #: the same, the server a MariaDB, whose own ways are followed too (:data:`MARIADB`)
    SERVER_MARIADB: ClassVar[Rules]

    @property
    def mariadb_values(self) -> bool:
        """A DEFAULT's value is read as MariaDB reads it (:data:`MARIADB`): a fraction of a
        second longer than its column's cut to its digits, a hex string ``X'…'`` a string in
        a number's, a date's or a year's column; else as MySQL reads it."""
        return self.flavor == "mariadb"

    def for_session(self, session: Session) -> Rules:
        """These rules for a statement that ``session`` wrote."""
        return self if session is self.session else attrs.evolve(self, session=session)

    @classmethod
    def altered(cls, *, replica: bool, flavor: str | None = None) -> Rules:
        """The rules of a statement that changes an existing table (``flavor``: a replica's
        server, ``"mariadb"`` or ``"mysql"``, when known)."""
        return cls._server(flavor) if replica else cls.MVDD

    @classmethod
    def created(cls, *, replica: bool, flavor: str | None = None) -> Rules:
        """The rules of a ``CREATE TABLE``'s own definition."""
        return cls._server(flavor) if replica else cls.EMPTY

    @classmethod
    def _server(cls, flavor: str | None) -> Rules:
        return cls.SERVER_MARIADB if flavor == "mariadb" else cls.SERVER


Rules.MVDD = Rules(True, True)
Rules.EMPTY = Rules(False, True)
Rules.SERVER = Rules(False, False, None)
Rules.SERVER_MARIADB = Rules(False, False, "mariadb")


#: mvdd's rules that a server does not keep: rule -> what MariaDB does instead (and a replica,
#: under :attr:`Rules.SERVER`, with it)
STRICTER: dict[str, str] = {
    "a NOT NULL column added without a DEFAULT to a table that may hold rows is refused "
    "(seed 003)": "adds it; the rows take the type's implicit default",
    "CURRENT_TIMESTAMP(n) as the DEFAULT or ON UPDATE of a DATETIME(m) or TIMESTAMP(m) column "
    "defined with n != m is refused (MySQL)": "a column definition's DEFAULT takes m when n is 0 "
    "or above m and keeps a smaller n; its ON UPDATE takes m when n is 0 or above m and refuses "
    "a smaller n (1294); ALTER … SET DEFAULT keeps n as written, and its SHOW CREATE TABLE "
    "shows it so, but that text defines the column's precision: a replica keeps the one the "
    "text defines (the table a snapshot of the server gives)",
    "a JSON column's literal DEFAULT must be valid JSON (MySQL takes none)": "keeps any text "
    "(its CHECK (json_valid(…)) reads rows, not the default)",
    "a DECIMAL's scale is at most 30 (MySQL)": "at most 38",
    "YEAR(2) is refused (MySQL 8 has none)": "keeps it: the years YEAR holds, shown with two "
    "digits; a number 0 there means 2000, and SHOW CREATE TABLE shows a default's two digits "
    "only, which a replica keeps (1901 as 2001, as a snapshot reads it). A replica renders it "
    "as YEAR (targets, the lake, joins): the same years, which MySQL 8 takes too",
    "ALTER … SET DEFAULT and DROP DEFAULT of a generated column are refused": "does nothing",
    "ALTER … SET DEFAULT of an AUTO_INCREMENT column is refused (MySQL)": "does nothing",
    "a CHECK's name that ends with a space is refused, as any name": "keeps it, apart from the "
    "name without its spaces (`c ` and `c` are two checks; ` ` is one's name)",
    "a generated column may not read the AUTO_INCREMENT column (MySQL)": "a VIRTUAL one may; "
    "a STORED one and a CHECK may not (1901)",
    "CONVERT TO CHARACTER SET is refused where it would read an ENUM's or a SET's members "
    "otherwise than their text": "reads each member's bytes in the new charset (utf8mb4's 'é' "
    "is latin1's 'Ã©'); a row holding such a member refuses it (1265)",
    "a FOREIGN KEY is refused (mvdd keeps none)": "keeps it, with a key of the table's leading "
    "with its columns, or one it makes, which a later key leading with them replaces (a "
    "replica keeps that key, not the foreign key); DROP FOREIGN KEY drops it, the key staying",
    "two checks whose names fold alike (as a column's or a key's do) are refused": "holds "
    "both when the names' UTF-8 lengths differ (`İ` and `i`, the Kelvin sign and `k`, the ohm "
    "sign and `ω`: the server compares names of equal length only); a DROP CONSTRAINT of either "
    "name drops the first of them (Table.check_named)",
}


#: where MariaDB and MySQL both take a statement but do different things, what MariaDB does: a
#: MariaDB replica's catalog does it too (mvdd's own rules, and a replica of MySQL or of an
#: unknown server, do what MySQL does)
MARIADB: dict[str, str] = {
    "ALTER … SET DEFAULT and DROP DEFAULT of a column whose DEFAULT is CURRENT_TIMESTAMP": "drop "
    "its ON UPDATE CURRENT_TIMESTAMP too (MySQL keeps it)",
    "a column's own REFERENCES …": "makes a foreign key, and its key (MySQL ignores the clause)",
    "a DEFAULT of PI() alone, or negated (-PI())": "keeps its value as the column's type holds "
    "it (3 in an INT, 3.14159 in a FLOAT, '3.1' cut into a VARCHAR(3), -3 of -PI() in an INT); "
    "a TEXT, BLOB or JSON column keeps PI() itself, losing a negation (its rows take 3.14159…), "
    "where MySQL keeps the expression as written everywhere",
    "a DEFAULT with more fractional seconds than its DATETIME, TIMESTAMP or TIME column "
    "keeps": "cuts the digits past the column's (its sql_mode without TIME_ROUND_FRACTIONAL, "
    "under which it rounds them; a literal's digits past the sixth cut first); "
    "MySQL rounds them. So does an integer column its DEFAULT of a TIME or TIMESTAMP literal "
    "with a fraction",
    "a DEFAULT of a hex string X'…' in a number's, a date's or a year's column": "reads the "
    "string its bytes spell (X'3132' is 12 in an INT, X'10' is refused there); a 0x… literal "
    "is a number, as MySQL reads both",
    "a DEFAULT of a DATE or DATETIME with a zero month or day": "keeps it ('2020-00-15') "
    "outside NO_ZERO_IN_DATE, which its default sql_mode lacks (MySQL's has it); mvdd's rules "
    "refuse it",
}


__all__ = ["FLAVORS", "MARIADB", "PLAIN", "STRICTER", "Rules", "Session"]
