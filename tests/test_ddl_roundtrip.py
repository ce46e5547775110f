"""Parse -> render -> parse is the identity on every vector, and rendering is a fixpoint."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from mvdd import MvddError, parse_statements, parse_table
from mvdd.ddl import render_steps
from mvdd.ddl.statement import for_server
from mvdd.ddl.step import CreateTable, DropTable, SetOptions, Step
from tests.support.fixtures import sequences, statements

CREATES = statements("create_tables.sql")
MYSQL_ONLY = statements("create_tables_mysql.sql")


def test_corpus_is_large_and_varied() -> None:
    assert len(CREATES) >= 80
    assert len({parse_table(sql).name for sql in CREATES}) == len(CREATES)


@pytest.mark.parametrize("sql", CREATES + MYSQL_ONLY, ids=lambda sql: sql.split("(")[0][13:60])
def test_parse_render_parse_is_equivalent(sql: str) -> None:
    table = parse_table(sql)
    rendered = table.to_sql()
    again = parse_table(rendered)
    assert table.equivalent(again, ignore_order=False), table.differences(again)
    # the rendered text is a fixpoint, and the values are equal, not only equivalent
    assert again.to_sql() == rendered
    assert again == table
    # for a MariaDB server: the same table, in the same words but for an invisible index's
    mariadb = for_server(rendered, "mariadb")
    assert parse_table(mariadb) == table
    assert (mariadb == rendered) == all(i.visible for i in table.indexes), mariadb


def test_every_rendered_alter_reads_the_same_for_mariadb() -> None:
    """What mvdd renders from the steps of every ALTER sequence statement, rendered again
    for MariaDB, parses to the same steps."""
    checked = 0
    for _, stmts in sequences("alter_sequences.sql"):
        for sql in stmts:
            try:
                (statement,) = parse_statements(sql)
            except MvddError:
                continue  # refused: nothing is rendered from it
            for text in render_steps(statement.steps):
                (again,) = parse_statements(for_server(text, "mariadb"))
                (mine,) = parse_statements(text)
                assert again.steps == mine.steps, text
                checked += 1
    assert checked > 200


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE t SEQUENCE=0",
        "ALTER TABLE t SEQUENCE=DEFAULT, COMMENT 'c'",
        "ALTER TABLE t ROW_FORMAT=DEFAULT",
        "ALTER TABLE t SEQUENCE 1",
        "ALTER TABLE t DISCARD TABLESPACE",
        "ALTER TABLE t IMPORT TABLESPACE",
        "DROP SEQUENCE s, t",
        "ALTER TABLE t ADD SYSTEM VERSIONING",
        "ALTER TABLE t DROP SYSTEM VERSIONING, DROP COLUMN s, DROP COLUMN e",
        "ALTER TABLE t WITH SYSTEM VERSIONING",
        "ALTER TABLE t ADD COLUMN c INT WITHOUT SYSTEM VERSIONING, MODIFY d INT WITH SYSTEM "
        "VERSIONING",
    ],
)
def test_rendered_steps_read_back_the_same(sql: str) -> None:
    """A statement's steps rendered read back as the same steps: an option set back to the
    server's own (``SEQUENCE=0``, ``ROW_FORMAT=DEFAULT``) written as ``DEFAULT``, a whole
    table's tablespace action, a DROP SEQUENCE (rendered as the DROP TABLE of each)."""
    (statement,) = parse_statements(sql)
    again = [x for text in render_steps(statement.steps) for x in parse_statements(text)[0].steps]
    # (a DROP SEQUENCE's sequences are dropped as tables: its test of each is the statement's;
    # options are written in the renderer's order)
    assert list(map(_unordered, again)) == [
        _unordered(attrs.evolve(x, sequence=False) if isinstance(x, DropTable) else x)
        for x in statement.steps
    ]


def _unordered(step: Step) -> Any:
    return (step.table, dict(step.options)) if isinstance(step, SetOptions) else step


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE SEQUENCE s",
        "CREATE SEQUENCE s START 5 INCREMENT 2 ENGINE=Aria COMMENT 'c' ROW_FORMAT=DYNAMIC",
    ],
)
def test_a_sequence_renders_as_the_table_it_is(sql: str) -> None:
    """A sequence's table renders as its CREATE TABLE of SEQUENCE=1, a fixpoint that reads
    back as the same table."""
    (statement,) = parse_statements(sql)
    (step,) = statement.steps
    assert isinstance(step, CreateTable)
    rendered = step.definition.to_sql()
    assert "SEQUENCE=1" in rendered
    assert parse_table(rendered) == step.definition
    assert parse_table(rendered).to_sql() == rendered


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE t (a INT, b INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING",
        "CREATE TABLE t (a INT WITH SYSTEM VERSIONING, b INT COMMENT 'c')",
        "CREATE TABLE t (id INT PRIMARY KEY, x INT, UNIQUE (x), KEY (x), s TIMESTAMP(6) AS ROW "
        "START INVISIBLE, e TIMESTAMP(6) GENERATED ALWAYS AS ROW END COMMENT 'end', PERIOD FOR "
        "SYSTEM_TIME (s, e)) ENGINE=InnoDB WITH SYSTEM VERSIONING",
        "CREATE TABLE t (id INT, s BIGINT UNSIGNED AS ROW START, e BIGINT UNSIGNED AS ROW END, "
        "PERIOD FOR SYSTEM_TIME (s, e), UNIQUE (id, s)) WITH SYSTEM VERSIONING",
    ],
)
def test_a_versioned_table_renders_as_a_fixpoint(sql: str) -> None:
    """A system-versioned table (its own period columns or not) renders as a CREATE TABLE that
    reads back as the same table, its keys with the ROW END column the server added, its
    columns' marks, and renders the same again."""
    table = parse_table(sql)
    rendered = table.to_sql()
    assert "WITH SYSTEM VERSIONING" in rendered
    assert parse_table(rendered) == table
    assert parse_table(rendered).to_sql() == rendered
