"""The dialect's shortcuts through sqlglot's parser read what sqlglot's full path reads.

The oracle is the parser without its shortcuts (:class:`FullPath`: each shortcut declined), run
on the fixture corpora, on vectors that put every token ending a literal operand (and every
operator that must not) after a literal and every token ending a plain type (and every word
that continues one) after a type, and on generated column definitions and expressions.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from sqlglot import exp

from mvdd.ddl.dialect import DIALECT, MvddParser
from tests import strategies as S
from tests.conftest import missing
from tests.support.fixtures import sequences, statements

#: where ``make test`` keeps the wheels the tests install themselves (sqlglot's compiled build)
WHEELS = Path(sys.prefix) / "wheels"


class FullPath(MvddParser):
    """The dialect's parser with every shortcut declined."""

    def _parse_alter_target(self) -> exp.Table | None:
        return None

    def _parse_bitwise(self) -> exp.Expr | None:
        return super(MvddParser, self)._parse_bitwise()

    def _parse_properties(self, before: bool | None = None) -> exp.Properties | None:
        return super(MvddParser, self)._parse_properties(before)

    def _plain_type(self) -> exp.DataType | None:
        return None

    def _definition_ends(self) -> bool:
        return False


def trees(sql: str, parser: MvddParser) -> list[str]:
    return [repr(tree) for tree in parser.parse(DIALECT.tokenize(sql), sql)]


def assert_same_reading(sql: str) -> None:
    try:
        expected = trees(sql, FullPath(dialect=DIALECT))
    except Exception as err:  # the shortcut must fail the same way
        with pytest.raises(type(err)):
            trees(sql, DIALECT.parser())
        return
    assert trees(sql, DIALECT.parser()) == expected, sql


CORPUS = (
    statements("create_tables.sql")
    + statements("create_tables_mysql.sql")
    + [s for _, seq in sequences("alter_sequences.sql") for s in seq]
)

#: a literal before each token that ends it, and before operators that continue it
FOLLOWERS = [
    "",
    ", ADD d INT",
    " NOT NULL",
    " NULL",
    " COMMENT 'c'",
    " AUTO_INCREMENT",
    " PRIMARY KEY",
    " UNIQUE",
    " + 1",
    " - 1",
    " * 2",
    " DIV 2",
    " MOD 2",
    " % 2",
    " << 1",
    " >> 1",
    " | 1",
    " & 1",
    " ^ 1",
    " COLLATE utf8mb4_bin",
    " 'adjacent'",
    " AFTER a",
    " FIRST",
    " ON UPDATE CURRENT_TIMESTAMP",
]
LITERALS = ["0", "1.5", "'x'", "NULL", "TRUE", "FALSE", "X'0F'", "b'1'", "_utf8mb4'x'", "*"]
VECTORS = (
    [
        f"ALTER TABLE t ADD COLUMN c INT DEFAULT {literal}{follower}"
        for literal in LITERALS
        for follower in FOLLOWERS
    ]
    + [
        f"CREATE TABLE t (a INT DEFAULT {literal}{follower}, b INT CHECK (b > {literal}{follower}))"
        for literal in LITERALS
        for follower in FOLLOWERS
    ]
    + [
        # the table an ALTER names: dotted, quoted, a keyword, followed by an action or not
        "ALTER TABLE d.t ADD c INT",
        "ALTER TABLE `d`.`t` DROP COLUMN c",
        "ALTER TABLE a.b.c ADD d INT",
        "ALTER TABLE `add` ADD `add` INT",
        "ALTER TABLE t `ADD` c INT",
        "ALTER TABLE t 'ADD' c INT",
        "ALTER TABLE status ADD c INT",
        "ALTER TABLE t ENGINE=InnoDB, ADD c INT",
        "ALTER TABLE t WAIT 5 ADD c INT",
        "ALTER TABLE t NOWAIT DROP c",
        "ALTER TABLE t PARTITION BY HASH(a) PARTITIONS 2",
        "ALTER TABLE t RENAME AS u",
        "ALTER TABLE t RENAME TO u, ADD c INT",
        "ALTER TABLE t ADD c INT REFERENCES u (a)",
        "ALTER TABLE t",
        "ALTER TABLE t ADD",
        "ALTER TABLE IF EXISTS t ADD c INT",
        "ALTER ONLINE IGNORE TABLE t ADD c INT",
        "ALTER TABLE t AS SELECT 1",
        "ALTER TABLE t SET x = 1",
        "ALTER TABLE (t) ADD c INT",
        "ALTER TABLE t.* ADD c INT",
    ]
)

#: each spelling of a type before each token that ends a plain type, and before each that
#: continues it (parameters, UNSIGNED, a time zone, an array, a collation …)
TYPE_WORDS = [
    *(
        [
            "TINYINT",
            "SMALLINT",
            "MEDIUMINT",
            "INT",
            "INTEGER",
            "BIGINT",
            "FLOAT",
            "DOUBLE",
            "REAL",
            "DECIMAL",
            "NUMERIC",
            "DEC",
        ]
    ),
    *(
        [
            "FIXED",
            "BIT",
            "BOOL",
            "BOOLEAN",
            "DATE",
            "DATETIME",
            "TIMESTAMP",
            "TIME",
            "YEAR",
            "TINYTEXT",
            "TEXT",
            "MEDIUMTEXT",
        ]
    ),
    *(
        [
            "LONGTEXT",
            "TINYBLOB",
            "BLOB",
            "MEDIUMBLOB",
            "LONGBLOB",
            "JSON",
            "UUID",
            "SERIAL",
            "CHAR",
            "VARCHAR",
            "INET6",
        ]
    ),
]
TYPE_FOLLOWERS = [
    *("", " NOT NULL", " NULL", " DEFAULT 1", " COMMENT 'c'", " AUTO_INCREMENT", " UNIQUE"),
    *(" PRIMARY KEY", " UNSIGNED", " SIGNED", " ZEROFILL", "(3)", "(5,2)", " PRECISION"),
    *(" WITH TIME ZONE", " COLLATE utf8mb4_bin", " CHARACTER SET latin1", " AS (1)", " FIRST"),
    *(" ARRAY", "[]", ", ADD d INT", " INVISIBLE", " ON UPDATE CURRENT_TIMESTAMP"),
]
TYPE_VECTORS = [
    f"ALTER TABLE t ADD c {word}{follower}" for word in TYPE_WORDS for follower in TYPE_FOLLOWERS
] + [
    f"CREATE TABLE t (a {word}{follower}, b INT AS (CAST(a AS {word})), c {word})"
    for word in TYPE_WORDS
    for follower in TYPE_FOLLOWERS[:8]
]


@pytest.mark.parametrize("sql", CORPUS + VECTORS + TYPE_VECTORS)
def test_the_shortcuts_read_what_the_full_path_reads(sql: str) -> None:
    assert_same_reading(sql)


@given(S.column_defs(), S.expressions)
def test_the_shortcuts_read_generated_definitions_as_the_full_path(
    column: str, expression: str
) -> None:
    assert_same_reading(f"ALTER TABLE t ADD COLUMN {column}, ADD CHECK ({expression})")
    assert_same_reading(f"CREATE TABLE t ({column}, x INT DEFAULT ({expression}))")


def test_a_thread_reuses_its_tokenizer_and_parser_between_parses() -> None:
    assert DIALECT.parser() is DIALECT.parser()
    seen: dict[str, Any] = {}

    def other() -> None:
        seen["parser"] = DIALECT.parser()
        seen["tokens"] = [t.text for t in DIALECT.tokenize("ALTER TABLE u ADD b INT")]

    tokens = DIALECT.tokenize("ALTER TABLE t ADD a INT")
    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen["parser"] is not DIALECT.parser()
    assert [t.text for t in tokens] == ["ALTER", "TABLE", "t", "ADD", "a", "INT"]
    assert seen["tokens"] == ["ALTER", "TABLE", "u", "ADD", "b", "INT"]


def test_a_parse_under_way_is_never_handed_its_own_parser() -> None:
    parser = DIALECT.parser()
    inner: list[Any] = []

    class Probe(MvddParser):
        def _parse_statement(self) -> exp.Expr | None:
            inner.append(DIALECT.parser())
            return super()._parse_statement()

    kept = parser.busy
    parser.busy = True  # as during its own parse
    try:
        assert DIALECT.parser() is not parser
    finally:
        parser.busy = kept
    sql = "ALTER TABLE t ADD c INT"
    Probe(dialect=DIALECT).parse(DIALECT.tokenize(sql), sql)
    assert inner and inner[0] is parser  # another parser's parse leaves the kept one free


def sqlglotc_pair() -> tuple[Path, Path] | None:
    """The wheels of the newest sqlglotc in :data:`WHEELS` and of the sqlglot of its version
    (the one it pins), in that order of installing: sqlglot's, then sqlglotc's."""
    pairs = []
    for compiled in WHEELS.glob("sqlglotc-*.whl"):
        version = compiled.name.split("-")[1]
        python = WHEELS / f"sqlglot-{version}-py3-none-any.whl"
        if python.exists():
            pairs.append((tuple(int(p) for p in version.split(".")), python, compiled))
    if not pairs:
        return None
    _, python, compiled = max(pairs)
    return python, compiled


def test_sqlglots_compiled_build_fails_the_import_naming_the_remedy(tmp_path: Path) -> None:
    """sqlglot's compiled build, installed over the sqlglot it pins as its wheel installs it
    (``make test`` downloads the newest such pair within mvdd's sqlglot range), makes ``import
    mvdd`` fail with a DependencyError that says what to remove, rather than every statement
    later."""
    pair = sqlglotc_pair()
    if pair is None:
        missing("sqlglotc wheel", f"no sqlglotc wheel beside the sqlglot it pins in {WHEELS}")
        return
    site = tmp_path / "site"
    for wheel in pair:  # sqlglot's Python build, then the compiled modules over it
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site, [n for n in archive.namelist() if n.startswith("sqlglot/")])
    probe = "import sqlglot.tokens as t; print(t.SQLGLOTC_INSTALLED); import mvdd"
    run = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stdout.strip() == "True", run.stderr  # the compiled build is the one imported
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("mvdd.errors.DependencyError: sqlglot's compiled build"), last
    assert "pip uninstall sqlglotc" in last
