"""Parse -> render -> parse is the identity on every vector, and rendering is a fixpoint."""

from __future__ import annotations

import pytest

from mvdd import MvddError, parse_statements, parse_table
from mvdd.ddl import render_steps
from mvdd.ddl.statement import for_server
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
