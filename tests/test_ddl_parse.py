"""Statements -> steps, as vectors: each row is the SQL and the steps it must become (each step
rendered back as one statement)."""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from sqlglot import exp
from sqlglot.errors import SqlglotError

from mvdd import (
    Catalog,
    DDLError,
    DDLParseError,
    Expr,
    MvddError,
    UnsupportedDDLError,
    parse_statements,
    parse_table,
)
from mvdd.ddl import step as s
from mvdd.ddl.column import _DEFAULTS, _coerced, raw_default
from mvdd.ddl.dialect import DIALECT
from mvdd.ddl.render import render_steps
from mvdd.ddl.types import _TYPES, TypeAttrs, _column_type, column_type
from mvdd.model.element import coerce_default

STEPS = [
    # the forms sqlglot alone falls back to Command on
    ("ALTER TABLE t ADD CHECK (a > 0)", ["ALTER TABLE `t` ADD CHECK (`a` > 0)"]),
    (
        "ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0) NOT ENFORCED",
        ["ALTER TABLE `t` ADD CONSTRAINT `c` CHECK (`a` > 0) NOT ENFORCED"],
    ),
    ("ALTER TABLE t ALTER CHECK c NOT ENFORCED", ["ALTER TABLE `t` ALTER CHECK `c` NOT ENFORCED"]),
    ("ALTER TABLE t ALTER CONSTRAINT c ENFORCED", ["ALTER TABLE `t` ALTER CHECK `c` ENFORCED"]),
    ("RENAME TABLE a TO b, c TO d", ["RENAME TABLE `a` TO `b`", "RENAME TABLE `c` TO `d`"]),
    (
        "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
        ["ALTER TABLE `t` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"],
    ),
    (
        "ALTER TABLE t CONVERT TO CHARSET latin1",
        ["ALTER TABLE `t` CONVERT TO CHARACTER SET latin1"],
    ),
    (
        "ALTER TABLE t ADD (c1 INT, c2 VARCHAR(3) NOT NULL DEFAULT 'x')",
        [
            "ALTER TABLE `t` ADD COLUMN `c1` INT",
            "ALTER TABLE `t` ADD COLUMN `c2` VARCHAR(3) NOT NULL DEFAULT 'x'",
        ],
    ),
    ("ALTER TABLE t ADD COLUMN (c1 INT)", ["ALTER TABLE `t` ADD COLUMN `c1` INT"]),
    ("CREATE FULLTEXT INDEX f ON t (a, b)", ["ALTER TABLE `t` ADD FULLTEXT INDEX `f` (`a`, `b`)"]),
    ("CREATE SPATIAL INDEX s ON t (p)", ["ALTER TABLE `t` ADD SPATIAL INDEX `s` (`p`)"]),
    (
        "CREATE UNIQUE INDEX u USING BTREE ON t (a(3) DESC) COMMENT 'x' ALGORITHM=INPLACE LOCK=NONE",
        ["ALTER TABLE `t` ADD UNIQUE `u` (`a`(3) DESC) USING BTREE COMMENT 'x'"],
    ),
    ("CREATE INDEX i ON t (`a b`(10), c)", ["ALTER TABLE `t` ADD INDEX `i` (`a b`(10), `c`)"]),
    # columns
    (
        "ALTER TABLE t ADD COLUMN x INT FIRST, DROP y, ADD z INT AFTER x",
        [
            "ALTER TABLE `t` ADD COLUMN `x` INT FIRST",
            "ALTER TABLE `t` DROP COLUMN `y`",
            "ALTER TABLE `t` ADD COLUMN `z` INT AFTER `x`",
        ],
    ),
    (
        "ALTER TABLE t MODIFY a BIGINT UNSIGNED NOT NULL DEFAULT 7 COMMENT 'c' AFTER b",
        [
            "ALTER TABLE `t` MODIFY COLUMN `a` BIGINT UNSIGNED NOT NULL DEFAULT 7 COMMENT 'c' AFTER `b`"
        ],
    ),
    (
        "ALTER TABLE t CHANGE COLUMN a b FLOAT(7,3) UNSIGNED FIRST",
        ["ALTER TABLE `t` CHANGE COLUMN `a` `b` FLOAT(7, 3) UNSIGNED FIRST"],
    ),
    ("ALTER TABLE t RENAME COLUMN a TO b", ["ALTER TABLE `t` RENAME COLUMN `a` TO `b`"]),
    (
        "ALTER TABLE t ALTER a SET DEFAULT 'x', ALTER COLUMN b DROP DEFAULT",
        [
            "ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT 'x'",
            "ALTER TABLE `t` ALTER COLUMN `b` DROP DEFAULT",
        ],
    ),
    (
        "ALTER TABLE t ALTER a SET DEFAULT (uuid())",
        ["ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT (UUID())"],
    ),
    (
        "ALTER TABLE t ADD COLUMN IF NOT EXISTS a INT, DROP COLUMN IF EXISTS b",
        [
            "ALTER TABLE `t` ADD COLUMN IF NOT EXISTS `a` INT",
            "ALTER TABLE `t` DROP COLUMN IF EXISTS `b`",
        ],
    ),
    (
        "ALTER TABLE t ADD x INT PRIMARY KEY",
        ["ALTER TABLE `t` ADD COLUMN `x` INT NOT NULL", "ALTER TABLE `t` ADD PRIMARY KEY (`x`)"],
    ),
    (
        "ALTER TABLE t MODIFY x INT UNIQUE",
        ["ALTER TABLE `t` MODIFY COLUMN `x` INT", "ALTER TABLE `t` ADD UNIQUE (`x`)"],
    ),
    (
        "ALTER TABLE t ADD s SERIAL",
        [
            "ALTER TABLE `t` ADD COLUMN `s` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT",
            "ALTER TABLE `t` ADD UNIQUE (`s`)",
        ],
    ),
    # indexes and constraints
    (
        "ALTER TABLE t ADD INDEX i1 (a), DROP INDEX i2, RENAME INDEX i3 TO i4, DROP KEY i5",
        [
            "ALTER TABLE `t` ADD INDEX `i1` (`a`)",
            "ALTER TABLE `t` DROP INDEX `i2`",
            "ALTER TABLE `t` RENAME INDEX `i3` TO `i4`",
            "ALTER TABLE `t` DROP INDEX `i5`",
        ],
    ),
    (
        "ALTER TABLE t ADD UNIQUE KEY u (a), ADD CONSTRAINT c2 UNIQUE (b), ADD FULLTEXT (c)",
        [
            "ALTER TABLE `t` ADD UNIQUE `u` (`a`)",
            "ALTER TABLE `t` ADD UNIQUE `c2` (`b`)",
            "ALTER TABLE `t` ADD FULLTEXT INDEX (`c`)",
        ],
    ),
    (
        "ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (a, b(4))",
        ["ALTER TABLE `t` DROP PRIMARY KEY", "ALTER TABLE `t` ADD PRIMARY KEY (`a`, `b`(4))"],
    ),
    (
        "ALTER TABLE t ADD CONSTRAINT pk PRIMARY KEY USING HASH (a)",
        ["ALTER TABLE `t` ADD PRIMARY KEY (`a`) USING HASH"],
    ),
    (
        "ALTER TABLE t DROP CHECK c, DROP CONSTRAINT d",
        ["ALTER TABLE `t` DROP CHECK `c`", "ALTER TABLE `t` DROP CONSTRAINT `d`"],
    ),
    ("ALTER TABLE t ALTER INDEX i INVISIBLE", ["ALTER TABLE `t` ALTER INDEX `i` INVISIBLE"]),
    ("ALTER TABLE t ALTER KEY i NOT IGNORED", ["ALTER TABLE `t` ALTER INDEX `i` VISIBLE"]),
    (
        "ALTER TABLE t ALTER INDEX IF EXISTS i IGNORED",
        ["ALTER TABLE `t` ALTER INDEX IF EXISTS `i` INVISIBLE"],
    ),
    ("DROP INDEX i ON t", ["ALTER TABLE `t` DROP INDEX `i`"]),
    ("DROP INDEX `PRIMARY` ON t", ["ALTER TABLE `t` DROP PRIMARY KEY"]),
    # tables
    ("ALTER TABLE t RENAME TO u", ["RENAME TABLE `t` TO `u`"]),
    ("ALTER TABLE t RENAME AS u", ["RENAME TABLE `t` TO `u`"]),
    ("DROP TABLE IF EXISTS a, b", ["DROP TABLE IF EXISTS `a`", "DROP TABLE IF EXISTS `b`"]),
    ("TRUNCATE t", ["TRUNCATE TABLE `t`"]),
    ("CREATE TABLE t2 LIKE t", ["CREATE TABLE `t2` LIKE `t`"]),
    ("CREATE TABLE t2 (LIKE t)", ["CREATE TABLE `t2` LIKE `t`"]),
    (
        "ALTER TABLE t COMMENT = 'x', ENGINE InnoDB, AUTO_INCREMENT 5",
        ["ALTER TABLE `t` ENGINE=InnoDB, COMMENT='x', AUTO_INCREMENT=5"],
    ),
    # how the server runs it is not what it changes
    (
        "ALTER TABLE t ADD COLUMN x INT, ALGORITHM=INSTANT, LOCK=NONE",
        ["ALTER TABLE `t` ADD COLUMN `x` INT"],
    ),
    # (a rebuild: no step, but a condition, the table defined anew: Statement.defined_anew)
    ("ALTER TABLE t FORCE", []),
    ("ALTER TABLE t ORDER BY a DESC, b", []),
    ("DROP INDEX i ON t WAIT 2 ALGORITHM=INPLACE LOCK NONE", ["ALTER TABLE `t` DROP INDEX `i`"]),
    (
        "SET STATEMENT max_statement_time=10, sql_mode='' FOR ALTER TABLE t ADD COLUMN x INT",
        ["ALTER TABLE `t` ADD COLUMN `x` INT"],
    ),
    (
        "RENAME TABLE IF EXISTS a TO b, c WAIT 1 TO d",
        ["RENAME TABLE `a` TO `b`", "RENAME TABLE `c` TO `d`"],
    ),
    # table maintenance: statistics, rebuilds and checks change no schema
    ("ANALYZE TABLE t PERSISTENT FOR COLUMNS (a) INDEXES ()", []),
    ("ANALYZE NO_WRITE_TO_BINLOG TABLE t, u", []),
    ("ANALYZE TABLE t UPDATE HISTOGRAM ON a, b WITH 8 BUCKETS", []),
    ("OPTIMIZE LOCAL TABLES t, u WAIT 3", []),
    ("REPAIR TABLE t QUICK EXTENDED USE_FRM", []),
    ("CHECK TABLE t FOR UPGRADE QUICK", []),
    ("CHECKSUM TABLE t EXTENDED", []),
    ("SET STATEMENT max_statement_time=5 FOR OPTIMIZE TABLE t", []),
    # comments and case
    (
        "/* lead */ alter table `T` add column `X` int -- trailing",
        ["ALTER TABLE `T` ADD COLUMN `X` INT"],
    ),
]


@pytest.mark.parametrize("sql,expected", STEPS, ids=[row[0][:50] for row in STEPS])
def test_statement_steps(sql: str, expected: list[str]) -> None:
    (statement,) = parse_statements(sql)
    assert [str(st) for st in statement.steps] == expected
    assert statement.text == sql.strip().rstrip(";") or statement.text in sql


@pytest.mark.parametrize("sql,expected", STEPS, ids=[row[0][:50] for row in STEPS])
def test_rendered_steps_parse_to_the_same_steps(sql: str, expected: list[str]) -> None:
    (statement,) = parse_statements(sql)
    for rendered in render_steps(statement.steps):
        again = [st for x in parse_statements(rendered) for st in x.steps]
        assert [str(st) for st in again] == [
            str(st) for st in statement.steps if str(st) in [str(y) for y in again]
        ]


def test_no_command_is_ever_accepted(caplog: pytest.LogCaptureFixture) -> None:
    """Whatever sqlglot cannot read becomes steps or UnsupportedDDLError, never a silent
    Command."""
    odd = [
        "GRANT ALL ON *.* TO u",
        "ALTER TABLE t PARTITION BY HASH(a) PARTITIONS 4",
        "ALTER TABLE t DROP PERIOD FOR p",
        "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DELETE FROM t",
        "RENAME USER a TO b",
        "LOCK TABLES t WRITE",
        "FLUSH TABLES",
        "SET NAMES latin1",
        "SET default_storage_engine = MyISAM",
        "SET STATEMENT sql_mode='' FOR GRANT ALL ON *.* TO u",
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
    ]
    with caplog.at_level(logging.WARNING):
        for sql in odd:
            with pytest.raises(UnsupportedDDLError) as info:
                parse_statements(sql)
            assert info.value.statement == sql
            (skipped,) = parse_statements(sql, skip_unsupported=True)
            assert skipped.steps == () and skipped.skipped


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE VIEW v AS SELECT 1",
        "CREATE TEMPORARY TABLE t (a INT)",
        "CREATE TABLE t AS SELECT 1 AS a",
        # (IGNORE or REPLACE before the query: MySQL's grammar, sqlglot's not)
        "CREATE TABLE t (KEY (a)) IGNORE SELECT 1 AS a",
        "CREATE TABLE t (b INT) REPLACE AS SELECT 1 AS a",
        "DROP VIEW v",
        "INSERT INTO t VALUES (1)",
        "SELECT 1",
        "UPDATE t SET a = 1",
        "CREATE TABLE t (a INT, FOREIGN KEY (a) REFERENCES p (id))",
        "ALTER TABLE t ADD INDEX ((a + 1))",
        "CREATE TABLE t (a VECTOR(3))",
        "ALTER TABLE t ALTER COLUMN a SET VISIBLE",
        "SET STATEMENT sql_mode='' FOR INSERT INTO t VALUES (1)",
        # partitioning, in every form sqlglot reads or not
        "CREATE TABLE t (a INT) PARTITION BY HASH (a)",
        "CREATE TABLE t (a INT) /*!50100 PARTITION BY KEY (a) PARTITIONS 2 */",
        "CREATE TABLE t (a INT) PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS THAN (10))",
        "ALTER TABLE t ADD PARTITION (PARTITION p1 VALUES LESS THAN (20))",
        "ALTER TABLE t DROP PARTITION p1",
        "ALTER TABLE t PARTITION BY HASH (a)",
        "ALTER TABLE t REMOVE PARTITIONING",
        # the database's default charset where it is not known
        "CREATE TABLE t (a INT) CHARACTER SET DEFAULT",
        "ALTER TABLE t CONVERT TO CHARACTER SET DEFAULT",
        # and its application-time periods
        "CREATE TABLE t (a INT, s DATE, e DATE, PERIOD FOR p (s, e))",
        "CREATE TABLE t (a INT, s DATE, e DATE, UNIQUE (a, p WITHOUT OVERLAPS), PERIOD FOR p (s, e))",
        "ALTER TABLE t ADD PERIOD FOR p (s, e)",
        # members written as the bytes of a hex or bit literal in a table whose charset, in
        # which the server reads them, is not known (no database default given)
        "CREATE TABLE t (c ENUM(x'61', 'b'))",
        "CREATE TABLE t (c SET('a', 0x62))",
    ],
)
def test_unsupported(sql: str) -> None:
    with pytest.raises(UnsupportedDDLError):
        parse_statements(sql)


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("ALTER TABLE t ADD SYSTEM VERSIONING", [("SetVersioning", True)]),
        ("ALTER TABLE t WITH SYSTEM VERSIONING", [("SetVersioning", True)]),
        (
            "ALTER TABLE t DROP SYSTEM VERSIONING, DROP SYSTEM VERSIONING",
            [("SetVersioning", False)],
        ),
        (
            "ALTER TABLE t ADD COLUMN b INT, DROP SYSTEM VERSIONING",
            [("SetVersioning", False), ("AddColumn", None)],
        ),
        ("ALTER TABLE t ADD b INT NOT NULL WITH SYSTEM VERSIONING", [("AddColumn", None)]),
        (
            "ALTER TABLE t ADD PERIOD FOR SYSTEM_TIME (s, e), ADD s TIMESTAMP(6) AS ROW START, "
            "ADD e TIMESTAMP(6) AS ROW END, ADD SYSTEM VERSIONING",
            [
                ("SetVersioning", True),
                ("AddColumn", None),
                ("AddColumn", None),
                ("SetSystemPeriod", None),
            ],
        ),
        (
            "ALTER TABLE t DROP COLUMN s, DROP SYSTEM VERSIONING, DROP PERIOD FOR SYSTEM_TIME",
            [("SetSystemPeriod", None), ("SetVersioning", False), ("DropColumn", None)],
        ),
    ],
)
def test_system_versioning_is_read(sql: str, expected: list[tuple[str, Any]]) -> None:
    """MariaDB's ``ADD`` / ``DROP SYSTEM VERSIONING`` (and an ALTER's ``WITH SYSTEM VERSIONING``)
    are steps, said once or more, taken before the columns' steps, a DROP PERIOD FOR
    SYSTEM_TIME before them and an ADD PERIOD (naming the columns added) after; a column's
    mark is a condition on the statement (the table must be versioned)."""
    (st,) = parse_statements(sql)
    assert [(type(x).__name__, getattr(x, "versioned", None)) for x in st.steps] == expected
    assert st.versioned == (("t",) if "b INT NOT NULL WITH" in sql else ())


def test_a_created_tables_versioning_is_its_option_or_its_columns() -> None:
    """A CREATE TABLE's WITH SYSTEM VERSIONING, or a column's (which versions only the columns
    that say so), as MariaDB makes the table; WITHOUT SYSTEM VERSIONING kept only in a versioned
    table; an ADD and a DROP in one statement, the server's error."""
    table = parse_table(
        "CREATE TABLE t (a INT, b INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING"
    )
    assert table.options.versioned and [c.unversioned for c in table.columns] == [False, True]
    table = parse_table("CREATE TABLE t (a INT WITH SYSTEM VERSIONING, b INT)")
    assert table.options.versioned and [c.unversioned for c in table.columns] == [False, True]
    table = parse_table("CREATE TABLE t (a INT, b INT WITHOUT SYSTEM VERSIONING)")
    assert not table.options.versioned and not any(c.unversioned for c in table.columns)
    with pytest.raises(DDLError):
        parse_statements("ALTER TABLE t ADD SYSTEM VERSIONING, DROP SYSTEM VERSIONING")


def test_unknown_types_are_errors_and_unmodelled_types_unsupported() -> None:
    with pytest.raises(DDLError) as info:
        parse_statements("CREATE TABLE t (a INTT)")
    assert not isinstance(info.value, UnsupportedDDLError)
    with pytest.raises(UnsupportedDDLError):
        parse_statements("CREATE TABLE t (a VECTOR(3))")


def test_database_qualified_names() -> None:
    (st,) = parse_statements("ALTER TABLE shop.t ADD a INT", database="shop")
    assert st.steps[0].table == "t"
    with pytest.raises(UnsupportedDDLError, match="database 'other'"):
        parse_statements("ALTER TABLE other.t ADD a INT", database="shop")


def test_a_database_named_of_digits_and_an_e_is_a_database() -> None:
    """``1e.t`` and ``1e.`t` ``: the database 1e and its table t, as both servers read them
    (sqlglot reads the first as one name, the second as a number and a name)."""
    for sql in ("ALTER TABLE 1e.t ADD a INT", "ALTER TABLE 1E.`t` ADD a INT, ADD b INT"):
        (st,) = parse_statements(sql, database="1e" if "1e" in sql else "1E")
        assert {step.table for step in st.steps} == {"t"}, sql
    (st,) = parse_statements("CREATE TABLE 2e.u (a INT, b INT AS (u.a + 2e.u.a) VIRTUAL)")
    assert st.tables == ("2e.u",)


@pytest.mark.parametrize(
    "sql,line,col",
    [
        ("ALTER TABLE t ADD COLUMN", 1, None),
        ("CREATE TABLE t (a INT,\n  b INT(,))", 2, None),
        ("ALTER TABLE t ADD COLUMN a INT; ALTER TABLE t ADD ((", 1, None),
        ("CREATE TABLE t (a VARCHAR(3) DEFAULT 'unterminated)", 1, None),
    ],
)
def test_parse_errors_name_line_and_statement(sql: str, line: int, col: int | None) -> None:
    with pytest.raises(DDLParseError) as info:
        parse_statements(sql)
    err = info.value
    assert err.line == line  # type: ignore[attr-defined]
    assert err.col is not None  # type: ignore[attr-defined]
    assert "line" in str(err)


def test_statement_texts_and_indexes_are_kept() -> None:
    sts = parse_statements(
        "CREATE TABLE a (x INT);\n-- note\nALTER TABLE a ADD y INT ;;DROP TABLE a"
    )
    assert [(st.index, st.text) for st in sts] == [
        (1, "CREATE TABLE a (x INT)"),
        (2, "ALTER TABLE a ADD y INT"),
        (3, "DROP TABLE a"),
    ]


def test_errors_inside_a_statement_name_it() -> None:
    with pytest.raises(DDLError) as info:
        parse_statements("CREATE TABLE t (a INT); CREATE TABLE u (b VARCHAR(3) DEFAULT 'long')")
    assert info.value.statement_index == 2
    assert info.value.column == "b"
    assert "statement 2" in str(info.value)


def test_steps_are_values() -> None:
    (a,) = parse_statements("ALTER TABLE t ADD x INT")
    (b,) = parse_statements("alter table t add column x int")
    assert a.steps == b.steps
    assert isinstance(a.steps[0], s.AddColumn)
    assert hash(a.steps[0]) == hash(b.steps[0])


# --- bad input of any shape: deep nesting ------------------------------------------------------


@pytest.mark.parametrize(
    "make,depth,ok",
    [
        (lambda n: "ALTER TABLE t ADD COLUMN b INT DEFAULT " + "(" * n + "1" + ")" * n, 150, True),
        (lambda n: "ALTER TABLE t ADD CONSTRAINT k CHECK (" + "NOT " * n + "a > 0)", 150, True),
        (lambda n: "ALTER TABLE t ADD COLUMN b INT AS (" + "a + " * n + "1)", 50, True),
        (lambda n: "ALTER TABLE t ADD COLUMN b INT AS (" + "a + " * n + "1)", 150, False),
        (
            lambda n: "ALTER TABLE t ADD COLUMN b INT AS (" + "abs(" * n + "a" + ")" * n + ")",
            150,
            False,
        ),
        (
            lambda n: "ALTER TABLE t ADD COLUMN b INT DEFAULT " + "(" * n + "1" + ")" * n,
            5000,
            False,
        ),
        (
            lambda n: "ALTER TABLE t ADD CONSTRAINT k CHECK (" + "(" * n + "a > 0" + ")" * n + ")",
            5000,
            False,
        ),
    ],
)
def test_deep_nesting_reads_or_is_a_parse_error_and_changes_nothing(
    make: Any, depth: int, ok: bool
) -> None:
    cat = Catalog()
    cat.execute("CREATE TABLE t (a INT)")
    sql = make(depth)
    if ok:
        (change,) = cat.execute(sql)
        assert change.version == 2 and cat.table("t").to_sql()  # renders back as well
        return
    with pytest.raises(DDLParseError, match="nested"):
        cat.execute(sql)
    assert cat.version("t") == 1


# --- the remembered column types -----------------------------------------------------------------

#: types whose reading depends on each part a remembered type is keyed by: the node's class
#: (``FLOAT UNSIGNED`` is FLOAT's node of another class), its kind, its name (a kind of its own
#: for sqlglot), its literals (lengths, members) and its attributes
_TYPE_WORDS = [
    "FLOAT",
    "FLOAT UNSIGNED",
    "DECIMAL",
    "VARCHAR",
    "ENUM",
    "DATETIME",
    "INET4",
    "INET6",
    "UUID",
    "SERIAL",
    "VECTOR",
]
_TYPE_PARAMS = [(), ("3",), ("5",), ("'a'",), ("3", "5")]
_TYPE_ATTRS = [
    TypeAttrs(),
    TypeAttrs(charset="latin1"),
    TypeAttrs(zerofill=True),
    TypeAttrs(charset="latin1", binary=True),
]


def test_a_remembered_column_type_is_the_type_read_afresh() -> None:
    # the oracle: each type read without the memo. Every combination of the parts above is read
    # in one order and then in the reverse one, the memo emptied before each: two types a key
    # confused would meet, the second one given the first one's reading. A type that fails
    # fails alike every time.
    specs = list(itertools.product(_TYPE_WORDS, _TYPE_PARAMS, _TYPE_ATTRS))
    for order in (specs, specs[::-1]):
        _TYPES.clear()
        for word, params, attrs_ in order:
            text = word + (f"({', '.join(params)})" if params else "")
            sql = f"CREATE TABLE t (a {text})"
            try:
                tree = DIALECT.parser().parse(DIALECT.tokenize(sql), sql)[0]
            except SqlglotError:
                continue
            assert tree is not None
            dt = tree.find(exp.DataType)
            assert dt is not None

            def outcome(read: Any, dt: exp.DataType = dt, attrs_: TypeAttrs = attrs_) -> Any:
                try:
                    return read(dt, attrs_)
                except MvddError as err:
                    return type(err), str(err)

            assert outcome(column_type) == outcome(column_type) == outcome(_column_type), text


_DEFAULT_LITERALS = [
    "1",
    "1.0",
    "01",
    "1e0",
    "0",
    "255",
    "256",
    "-1",
    "1.005",
    "'1'",
    "'1.0'",
    "''",
    "'a'",
    "'2020-01-01 10:00:00.55'",
    "'10:00:00.55'",
    "'é'",
    "NULL",
    "0x41",
    "b'1'",
    "TRUE",
]
_DEFAULT_TYPES = [
    "INT",
    "TINYINT UNSIGNED",
    "DECIMAL(5,2)",
    "DECIMAL(5,0)",
    "VARCHAR(10)",
    "CHAR(2)",
    "FLOAT",
    "DOUBLE",
    "DATETIME(1)",
    "TIME",
    "TIME(1)",
    "YEAR",
    "YEAR(2)",
    "BIT(8)",
    "BINARY(4)",
    "TIMESTAMP(1)",
    "DATE",
    "ENUM('1','a')",
    "SET('1','a')",
]
_READINGS = [
    (False, False, False, False, None),
    (True, False, False, False, None),
    (True, True, True, True, None),
    (False, True, False, False, "latin1"),
]


def test_a_remembered_default_is_the_default_read_afresh() -> None:
    # the oracle: each literal DEFAULT coerced without the memo. Every combination above is
    # read in one order and then in the reverse one, the memo emptied before each: two
    # literals a key confused (1 and 1.0 are one number, two texts), or two types (YEAR and
    # YEAR(2) are equal types of two widths, and 0 is 0 in one and 2000 in the other), would
    # meet, the second one given the first one's value. A default that fails fails alike
    # every time.
    specs = list(itertools.product(_DEFAULT_LITERALS, _DEFAULT_TYPES, _READINGS))

    def outcome(read: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            value = read(*args, **kwargs)
        except MvddError as err:
            return type(err), str(err)
        return type(value), value, str(value)

    remembered = 0
    for order in (specs, specs[::-1]):
        _DEFAULTS.clear()
        for literal, type_text, how in order:
            sql = f"CREATE TABLE t (a {type_text} DEFAULT {literal})"
            tree = DIALECT.parser().parse(DIALECT.tokenize(sql), sql)[0]
            assert tree is not None
            node = tree.find(exp.DefaultColumnConstraint).this
            texts = ("CHAR", "ENUM", "SET")
            attrs_ = TypeAttrs(charset="utf8mb4") if type_text.endswith(texts) else TypeAttrs()
            ctype = column_type(tree.find(exp.DataType), attrs_)[0]
            raw = raw_default(node)
            mariadb, replica, any_day, round_fractions, written_in = how
            oracle = outcome(
                coerce_default,
                raw,
                ctype,
                "a",
                mariadb=mariadb,
                replica=replica,
                any_day=any_day,
                round_fractions=round_fractions,
                written_in=written_in,
            )
            first = outcome(_coerced, raw, node, ctype, "a", how)
            again = outcome(_coerced, raw, node, ctype, "a", how)
            assert first == again == oracle, (sql, how)
            remembered += type(node) is exp.Literal and first[0] is not DDLError
    assert remembered > len(specs) // 2  # (the memo was met, in both orders)


def test_a_two_digit_year_reads_its_own_default_after_a_year() -> None:
    """MariaDB's ``YEAR(2) DEFAULT 0`` is 2000 (its SHOW CREATE TABLE: ``DEFAULT 00``), a
    YEAR's is the zero year, in whichever order a replica's catalog meets them: the two types
    compare equal (the width is display), and the remembered default of one is not the
    other's."""
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute("CREATE TABLE a (y YEAR DEFAULT 0); CREATE TABLE b (y YEAR(2) DEFAULT 0)")
    cat.execute("CREATE TABLE c (y YEAR(2) DEFAULT 69); CREATE TABLE d (y YEAR DEFAULT 69)")
    assert [cat.table(t).columns[0].default for t in "abcd"] == [0, 2000, 2069, 2069]


def test_a_partitioned_table_is_unsupported_by_name() -> None:
    """A CREATE of a partitioned table names its table, however sqlglot fails on it (a reader
    skipping it skips that table's rows)."""
    for sql in (
        "CREATE TABLE d.t (a INT) PARTITION BY HASH (a)",
        "CREATE TABLE d.t (a INT) /*!50100 PARTITION BY HASH (a) */",
        "CREATE TABLE d.t (a INT) PARTITION BY RANGE (a) (PARTITION p VALUES LESS THAN (9))",
    ):
        with pytest.raises(UnsupportedDDLError) as info:
            parse_statements(sql)
        assert info.value.table == "d.t", sql


def test_where_a_tables_files_go_is_read_and_dropped() -> None:
    """``DATA DIRECTORY`` and ``INDEX DIRECTORY`` (MariaDB's SHOW CREATE TABLE writes the first
    for a table made with one) are storage options: read, checked, and kept nowhere."""
    plain = parse_statements("CREATE TABLE t (a INT) ENGINE=MyISAM")[0].steps
    for options in ("DATA DIRECTORY='/srv/d/'", "DATA DIRECTORY = '/a' INDEX DIRECTORY '/b'"):
        sql = f"CREATE TABLE t (a INT) ENGINE=MyISAM {options}"
        assert parse_statements(sql)[0].steps == plain, sql
    with pytest.raises(DDLParseError, match="quoted path after INDEX DIRECTORY"):
        parse_statements("CREATE TABLE t (a INT) INDEX DIRECTORY = srv")
    with pytest.raises(DDLParseError, match="cannot parse ALTER"):
        parse_statements("ALTER TABLE t DATA DIRECTORY = srv")


def test_a_merge_tables_union_is_read_and_dropped() -> None:
    """A MERGE table's ``UNION [=] (table, …)`` (MariaDB's SHOW CREATE TABLE writes it) names
    the MyISAM tables it reads: a storage option, read and kept nowhere; the engine is kept by
    the server's name for it (MERGE is MRG_MyISAM)."""
    plain = parse_statements("CREATE TABLE t (a INT) ENGINE=MRG_MyISAM INSERT_METHOD=LAST")
    for union in ("UNION=(`x`,`d`.`y`)", "UNION ()", "UNION = (x)"):
        sql = f"CREATE TABLE t (a INT) ENGINE=merge {union} INSERT_METHOD=LAST"
        assert parse_statements(sql)[0].steps == plain[0].steps, sql
    assert parse_table("CREATE TABLE t (a INT) ENGINE=merge UNION=(x)").options.engine == (
        "MRG_MyISAM"
    )
    for bad in ("UNION x", "UNION=(x", "UNION=(1)"):
        with pytest.raises(DDLParseError):
            parse_statements(f"CREATE TABLE t (a INT) ENGINE=MERGE {bad}")


def test_sequence_calls_name_a_sequence_not_a_column() -> None:
    """MariaDB's NEXTVAL / LASTVAL / SETVAL read their first argument as a sequence (a table's
    name, qualified with the statement's database where it is known), ``NEXT VALUE FOR`` and
    ``PREVIOUS VALUE FOR`` are NEXTVAL and LASTVAL, SETVAL's left-out arguments are the
    server's (is_used 1, round 0); ``next`` and ``previous`` stay column names elsewhere."""
    cat = Catalog(replica=True, flavor="mariadb", charset="utf8mb4", collation="utf8mb4_bin")
    cat.execute(
        "CREATE TABLE t (a INT DEFAULT (NEXT VALUE FOR s), b INT DEFAULT SETVAL(q.s, 5), "
        "next INT, previous INT DEFAULT (PREVIOUS VALUE FOR s))",
        database="d",
    )
    table = cat.table("d.t")
    assert [str(table.column(name).default) for name in ("a", "b", "previous")] == [
        "NEXTVAL(`d`.`s`)",
        "SETVAL(`q`.`s`, 5, 1, 0)",
        "LASTVAL(`d`.`s`)",
    ]
    assert table.column("next").type.kind.value == "INT"
    for bad in ("NEXTVAL(s, 1)", "SETVAL(s)", "SETVAL(s, 1, 1, 0, 9)", "NEXTVAL(1)"):
        with pytest.raises(DDLParseError):
            parse_statements(f"CREATE TABLE t (a INT DEFAULT {bad})")


@pytest.mark.parametrize(
    ("sql", "brings"),
    [
        ("ALTER TABLE t DROP PARTITION p0", {"t": False}),
        ("ALTER TABLE t TRUNCATE PARTITION p0", {"t": False}),
        ("ALTER TABLE t TRUNCATE PARTITION ALL", {"t": False}),
        ("TRUNCATE TABLE t", {"t": False}),
        ("ALTER TABLE t DISCARD PARTITION p0 TABLESPACE", {"t": False}),
        ("ALTER TABLE t IMPORT PARTITION p0 TABLESPACE", {"t": True}),
        ("ALTER TABLE t DISCARD TABLESPACE", {"t": False}),
        ("ALTER TABLE t IMPORT TABLESPACE", {"t": True}),
        ("ALTER TABLE t EXCHANGE PARTITION p0 WITH TABLE u", {"t": True, "u": True}),
        ("ALTER TABLE t CONVERT PARTITION p0 TO TABLE u", {"t": False, "u": True}),
        ("ALTER TABLE t CONVERT TABLE u TO PARTITION p0 VALUES LESS THAN (9)", {"t": True}),
    ],
)
def test_the_row_changes_without_row_events_that_bring_rows(
    sql: str, brings: dict[str, bool]
) -> None:
    """Which of a statement's TruncateTable steps bring rows into their table (a replicator
    reads such a shard again), and which only take rows away."""
    found = {
        x.table: x.brings
        for st in parse_statements(sql, replica=True)
        for x in st.steps
        if isinstance(x, s.TruncateTable)
    }
    assert found == brings


def test_a_replica_reads_partitioning_whole() -> None:
    """A replica takes partitioning, read to its end by its grammar (its server accepted it);
    the actions that change rows without row events are the table's TruncateTable steps of the
    partitions they name, the others change nothing; a malformed clause is a syntax error
    still, and a catalog of its own refuses them all (the server's partitioning rules are not
    checked)."""

    def steps(sql: str) -> list[s.Step]:
        return [x for st in parse_statements(sql, replica=True) for x in st.steps]

    def partial(table: str, how: str, *names: str) -> s.TruncateTable:
        return s.TruncateTable(table=table, partitions=names, how=how)

    assert steps("ALTER TABLE t DROP PARTITION IF EXISTS p0, p1") == [
        partial("t", "DROP PARTITION", "p0", "p1")
    ]
    assert steps("ALTER TABLE t TRUNCATE PARTITION p2") == [
        partial("t", "TRUNCATE PARTITION", "p2")
    ]
    assert steps("ALTER TABLE t TRUNCATE PARTITION ALL") == [s.TruncateTable(table="t")]
    assert steps("ALTER TABLE t DISCARD PARTITION ALL TABLESPACE") == [
        partial("t", "DISCARD PARTITION", "ALL")
    ]
    swap = ("t", "p1", "u")
    assert steps("ALTER TABLE t EXCHANGE PARTITION p1 WITH TABLE u WITH VALIDATION") == [
        s.TruncateTable(table="t", partitions=("p1",), how="EXCHANGE PARTITION", exchange=swap),
        s.TruncateTable(table="u", how="EXCHANGE PARTITION", exchange=swap),
    ]
    for sql in (
        "ALTER TABLE t ADD PARTITION (PARTITION p9 VALUES LESS THAN (90) COMMENT 'x')",
        "ALTER TABLE t COALESCE PARTITION 2",
        "ALTER TABLE t REORGANIZE PARTITION p0 INTO (PARTITION a VALUES IN (1), PARTITION b "
        "VALUES IN (2))",
        "ALTER TABLE t OPTIMIZE PARTITION ALL",
        "ALTER TABLE t ALGORITHM=INPLACE REMOVE PARTITIONING",
        "ALTER TABLE t PARTITION BY LINEAR KEY ALGORITHM=1 (a, b) PARTITIONS 4",
    ):
        assert steps(sql) == [s.SetOptions(table="t", options=())], sql
    for sql, near in [
        ("CREATE TABLE t (a INT) PARTITION BY HASH (a) PARTITIONS", "a number after PARTITIONS"),
        ("CREATE TABLE t (a INT) PARTITION BY HASH (a, b)", "HASH takes one expression"),
        ("CREATE TABLE t (a INT) PARTITION BY SPREAD (a)", "Expecting HASH, KEY, RANGE"),
        (
            "CREATE TABLE t (a INT) PARTITION BY RANGE (a) (PARTITION p VALUES MORE THAN (1))",
            "LESS",
        ),
        ("CREATE TABLE t (a INT) PARTITION BY HASH (a) SUBPARTITION BY RANGE (a)", "HASH or KEY"),
        ("ALTER TABLE t COALESCE PARTITION", "a number after COALESCE PARTITION"),
        ("ALTER TABLE t EXCHANGE PARTITION p WITH u", "WITH TABLE"),
        ("ALTER TABLE t ADD COLUMN b INT, PARTITION BY HASH (a)", "cannot parse ALTER"),
        ("ALTER TABLE t ADD COLUMN b INT, TRUNCATE PARTITION p", "goes alone"),
    ]:
        with pytest.raises(DDLParseError, match=near):
            steps(sql)
    table = "CREATE TABLE t (a INT) PARTITION BY HASH (a) PARTITIONS 2"
    with pytest.raises(UnsupportedDDLError, match="tracked by a replica only") as info:
        parse_statements(table)
    assert info.value.table == "t"
    with pytest.raises(UnsupportedDDLError, match="tracked by a replica only"):
        parse_statements("ALTER TABLE t TRUNCATE PARTITION p0")
    made = ("t", "p0", "u")
    assert steps("ALTER TABLE t CONVERT PARTITION p0 TO TABLE u") == [
        s.TruncateTable(table="t", partitions=("p0",), how="CONVERT PARTITION", exchange=made),
        s.CreateTableLike(table="u", source="t"),
        s.TruncateTable(table="u", how="CONVERT PARTITION", exchange=made),
    ]
    written = "PARTITION p0 VALUES LESS THAN (10) COMMENT 'old'"
    assert steps(f"ALTER TABLE t CONVERT TABLE u TO {written}") == [
        s.TruncateTable(
            table="t", partitions=("p0",), how="CONVERT TABLE", exchange=made, partition=written
        ),
        s.DropTable(table="u"),
    ]
    for sql in (  # each renders back to itself, one statement
        "ALTER TABLE `t` CONVERT PARTITION `p0` TO TABLE `u`",
        f"ALTER TABLE `t` CONVERT TABLE `u` TO {written}",
    ):
        (statement,) = parse_statements(sql, replica=True)
        assert render_steps(statement.steps) == [sql]
    for sql, near in [
        ("ALTER TABLE t CONVERT PARTITION p0 TO u", "TO TABLE"),
        ("ALTER TABLE t CONVERT TABLE u TO p0", "Expecting PARTITION"),
    ]:
        with pytest.raises(DDLParseError, match=near):
            steps(sql)


@pytest.mark.parametrize(
    "flavor,sql,columns",
    [
        # MariaDB runs MySQL's /*!NNNNN … */ before 5.7 only, and its own up to its release
        ("mariadb", "CREATE TABLE t (a INT /*!80023 INVISIBLE */, b INT /*!50600 , c INT */)", 3),
        ("mariadb", "/*M!999999\\- enable the sandbox mode */ CREATE TABLE t (a INT)", 1),
        ("mariadb", "CREATE TABLE t (a INT /*M!100301 , b INT */ /*!100000 , c INT */)", 3),
        # MySQL runs its own up to its release, and MariaDB's never
        ("mysql", "CREATE TABLE t (a INT /*!80023 INVISIBLE */, x INT /*M!100301 , b INT */)", 2),
        ("mysql", "CREATE TABLE t (a INT /*!50700 , b INT */ /*!110000 , c INT */)", 2),
        # a server not known: what either runs
        (None, "CREATE TABLE t (a INT /*!80023 INVISIBLE */, x INT /*M!100301 , b INT */)", 3),
    ],
)
def test_executable_comments_open_as_their_server_runs_them(
    flavor: str | None, sql: str, columns: int
) -> None:
    (st,) = parse_statements(sql, replica=True, flavor=flavor)
    (create,) = st.steps
    assert isinstance(create, s.CreateTable)
    table = create.definition
    assert len(table.columns) == columns
    assert table.columns[0].invisible == ("INVISIBLE" in sql and flavor != "mariadb")


def test_a_mysql_database_keeps_its_charset_past_its_encryption() -> None:
    """MySQL's dumps write ``/*!80016 DEFAULT ENCRYPTION='N' */`` after a database's charset:
    where its data is kept, not its schema (MariaDB runs no such comment)."""
    sql = (
        "CREATE DATABASE d /*!40100 DEFAULT CHARACTER SET latin1 */ "
        "/*!80016 DEFAULT ENCRYPTION='N' */"
    )
    for flavor in ("mysql", "mariadb"):
        (st,) = parse_statements(sql, replica=True, flavor=flavor)
        assert st.database is not None and st.database.charset == "latin1"


def test_a_column_names_its_check_in_mysqls_grammar_only() -> None:
    """``a INT CONSTRAINT c CHECK (…)`` is MySQL 8's: a replica of MySQL, or of a server it does
    not know, takes it; MariaDB's grammar (a replica of it) and mvdd's rules refuse it, and any
    other CONSTRAINT inside a column definition everywhere."""
    for sql in (
        "CREATE TABLE t (a INT CONSTRAINT c CHECK (a > 0))",
        "CREATE TABLE t (a INT CONSTRAINT CHECK (a > 0))",  # (the word without a name too)
    ):
        for kw in ({"replica": True}, {"replica": True, "flavor": "mysql"}):
            cat = Catalog(**kw)  # type: ignore[arg-type]
            cat.execute(sql)
            assert cat.table("t").column("a").check is not None
        for kw in ({}, {"replica": True, "flavor": "mariadb"}):
            with pytest.raises(
                DDLParseError, match="CONSTRAINT name inside a column definition, or the word"
            ):
                Catalog(**kw).execute(sql)  # type: ignore[arg-type]
    with pytest.raises(DDLParseError, match="column `a`"):
        Catalog(replica=True).execute("CREATE TABLE t (a INT CONSTRAINT c PRIMARY KEY)")


def test_not_null_after_a_generated_columns_as_is_the_columns() -> None:
    """``b INT AS (a) NOT NULL``: MySQL's generated NOT NULL column (MariaDB's grammar has no
    NOT NULL there: its syntax error on a MariaDB replica), never ``AS (a IS NOT NULL)``,
    which sqlglot made of it (a predicate ``x NOT NULL`` neither server has)."""
    for sql in (
        "CREATE TABLE t (a INT, b INT AS (a) NOT NULL)",
        "CREATE TABLE t (a INT, b INT AS (a) VIRTUAL NOT NULL)",
    ):
        column = parse_table(sql).column("b")
        assert column.generated is not None and column.generated.expr == Expr("`a`"), sql
        assert not column.nullable, sql
        with pytest.raises(DDLParseError, match="after AS"):
            parse_table(sql, replica=True, flavor="mariadb")
    with pytest.raises(DDLParseError):
        parse_table("CREATE TABLE t (a INT, CHECK (a NOT NULL))")


@contextlib.contextmanager
def _t_and_u(path: str, charset: str) -> Iterator[Catalog]:
    """A catalog file of a latin1 database holding ``t``, of ``charset``, and ``u``, of the
    database's: columns that name no charset take each table's when they meet it."""
    with Catalog.open(path, charset="latin1") as cat:
        cat.execute(f"CREATE TABLE t (i INT) CHARSET {charset}")
        cat.execute("CREATE TABLE u (i INT)")
        yield cat


def test_members_written_as_bytes_wait_for_the_tables_charset(tmp_path: Any) -> None:
    """A member written as a hex or bit literal in a column that names no charset is its
    table's text of those bytes, read when the column meets its table (the server's parity:
    tests/test_mariadb_server.py); the step keeps the literal, stored and read back, and says
    it again as written."""
    path = str(tmp_path / "c.db")
    with _t_and_u(path, "utf8mb4") as cat:
        sql = "ALTER TABLE {} ADD a SET(0xC3A9, 'x', b'1100011')"
        (change,) = cat.execute(sql.format("t"))
        assert cat.execute(sql.format("u"))  # the same bytes, other text
        assert cat.table("t").column("a").type.members == ("é", "x", "c")
        assert cat.table("u").column("a").type.members == ("Ã©", "x", "c")
        # bytes that are no text of the table's charset: refused, nothing changed
        with pytest.raises(UnsupportedDDLError, match="no text of the charset utf8mb4"):
            cat.execute("ALTER TABLE t ADD b ENUM(X'E9')")
        assert [c.name for c in cat.table("t").columns] == ["i", "a"]
    (step,) = change.steps
    assert isinstance(step, s.AddColumn) and step.members_written == (0, 2)
    assert str(step) == "ALTER TABLE `t` ADD COLUMN `a` SET(0xC3A9, 'x', 0x63)"
    with Catalog.open(path) as again:
        assert again.history("t")[-1].steps == (step,)
    # a column of its own charset reads them at once; a table of none cannot
    (st,) = parse_statements("ALTER TABLE t ADD a ENUM(0xE9) CHARACTER SET latin1")
    (own,) = st.steps
    assert isinstance(own, s.AddColumn)
    assert own.column.type.members == ("é",) and not own.members_written
    with pytest.raises(UnsupportedDDLError, match="table's charset, which is not known"):
        Catalog().execute("CREATE TABLE t (a ENUM(0xE9))")


def test_a_collation_named_without_its_charset_waits_for_the_tables(tmp_path: Any) -> None:
    """``COLLATE uca1400_ai_ci`` in a column that names no charset is the one of that name of
    its table's charset, resolved when the column meets its table (the server's parity:
    tests/test_mariadb_server.py); the step keeps the name, stored and read back, and says it
    again as written."""
    path = str(tmp_path / "c.db")
    with _t_and_u(path, "utf8mb3") as cat:
        sql = "ALTER TABLE {} ADD a VARCHAR(5) COLLATE uca1400_as_ci"
        (change,) = cat.execute(sql.format("t"))
        assert cat.table("t").column("a").type.collation == "utf8mb3_uca1400_as_ci"
        # latin1 has no UCA 14.0.0 collation: refused, nothing changed (the server's 1253)
        with pytest.raises(DDLError, match="not valid for character set 'latin1'"):
            cat.execute(sql.format("u"))
        assert [c.name for c in cat.table("u").columns] == ["i"]
        cat.execute("ALTER TABLE u CONVERT TO CHARACTER SET utf16 COLLATE uca1400_ai_ci")
        assert cat.table("u").options.collation == "utf16_uca1400_ai_ci"
    (step,) = change.steps
    assert isinstance(step, s.AddColumn) and step.table_collation == "uca1400_as_ci"
    assert str(step) == "ALTER TABLE `t` ADD COLUMN `a` VARCHAR(5) COLLATE uca1400_as_ci"
    with Catalog.open(path) as again:
        assert again.history("t")[-1].steps == (step,)
    with pytest.raises(UnsupportedDDLError, match="table's charset, which is not known"):
        Catalog().execute("CREATE TABLE t (a TEXT COLLATE uca1400_ai_ci)")
