"""Which changes of a column's type the server can cast (ALTER … MODIFY), against a real server:
every change to and from the families it casts only to some (a plugin type, a spatial type),
and between them. mvdd refuses exactly the changes the server refuses with "Cannot cast"
(:func:`mvdd.model.types.castable`), in a strict session; in one not strict, none."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from mvdd import Catalog, DDLError, parse_table
from mvdd.model.kind import Family
from tests.support.mariadb import scratch

pytestmark = pytest.mark.mariadb

#: the types the server casts only to some families
CLOSED = ["UUID", "INET4", "INET6", "GEOMETRY", "POINT", "MULTIPOLYGON"]
#: a type of every other family, and of the string ones in each form
OTHERS = [
    "INT",
    "BIGINT UNSIGNED",
    "DECIMAL(40,0)",
    "DOUBLE",
    "BIT(64)",
    "CHAR(36)",
    "VARCHAR(100)",
    "BINARY(16)",
    "VARBINARY(40)",
    "TEXT",
    "BLOB",
    "ENUM('::1','x')",
    "SET('x')",
    "DATE",
    "DATETIME",
    "TIME",
    "YEAR",
    "TIMESTAMP NULL",
    "JSON",
]


@pytest.fixture(scope="module")
def conn(mariadb: Any) -> Iterator[Any]:
    with scratch(mariadb, "SET SESSION sql_mode = 'STRICT_ALL_TABLES'") as connection:
        yield connection


@pytest.fixture(scope="module")
def loose(mariadb: Any) -> Iterator[Any]:
    with scratch(mariadb, "SET SESSION sql_mode = ''") as connection:
        yield connection


def _server_casts(conn: Any, old: str, new: str) -> bool:
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS c")
        cur.execute(f"CREATE TABLE c (a {old})")
        try:
            cur.execute(f"ALTER TABLE c MODIFY a {new}")
        except pymysql.err.MySQLError as err:
            assert err.args[0] == 4078, err  # "Cannot cast …"
            return False
        return True


def _mine_casts(old: str, new: str, sql_mode: str | None = None) -> bool:
    cat = Catalog()
    cat.execute(f"CREATE TABLE c (a {old})")
    try:
        cat.execute(f"ALTER TABLE c MODIFY a {new}", sql_mode=sql_mode)
    except DDLError as err:
        assert "cannot cast" in err.message
        return False
    return True


@pytest.mark.parametrize("closed", CLOSED)
def test_the_type_changes_the_server_cannot_cast_are_refused(conn: Any, closed: str) -> None:
    pairs = [(closed, other) for other in OTHERS + CLOSED if other != closed]
    pairs += [(other, closed) for other in OTHERS]
    differ = [
        (old, new, theirs)
        for old, new in pairs
        if _mine_casts(old, new) != (theirs := _server_casts(conn, old, new))
    ]
    assert not differ, differ


@pytest.mark.parametrize("closed", CLOSED)
def test_a_session_not_strict_casts_what_a_strict_one_refuses(loose: Any, closed: str) -> None:
    """Not strict, the server takes every change of a type it cannot cast (its "Cannot cast"
    a warning, the values the new type's zero or NULL), and so does mvdd: a binlog's ALTER of
    such a session is the server's."""
    pairs = [(closed, other) for other in OTHERS + CLOSED if other != closed]
    pairs += [(other, closed) for other in OTHERS]
    differ = [
        (old, new, theirs)
        for old, new in pairs
        if _mine_casts(old, new, "") != (theirs := _server_casts(loose, old, new))
    ]
    assert not differ, differ


def test_every_family_is_covered() -> None:
    """The lists name a type of each family mvdd models, so a family added later is checked."""
    seen = {
        parse_table(f"CREATE TABLE c (a {t})").columns[0].type.family
        for t in itertools.chain(CLOSED, OTHERS)
    }
    assert seen == set(Family)
