"""Parse -> render -> parse is the identity on every vector, and rendering is a fixpoint."""

from __future__ import annotations

import pytest

from mvdd import parse_table
from tests.support.fixtures import statements

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
