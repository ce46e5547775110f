"""MariaDB's UUID, INET4 and INET6 against a real server: which text each type takes, the text
it prints for any bytes, and what a change of type does to a stored value (which changes it
can cast: ``tests/test_casts.py``). The server is the oracle throughout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pymysql
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mvdd import InvalidValueError, parse_table
from mvdd.model import ColumnType, TypeKind
from mvdd.model.kind import PLUGIN_BYTES
from mvdd.model.plugin import from_binary, from_text, text_of
from mvdd.model.row import upgrade_row
from tests.conftest import examples
from tests.support.mariadb import scratch

pytestmark = pytest.mark.mariadb

K = TypeKind
PLUGINS = (K.UUID, K.INET4, K.INET6)
COLUMN = {K.UUID: "u", K.INET4: "i4", K.INET6: "i6"}
#: the server's refusals of a value: incorrect value, data too long, data truncated
REFUSED = {1292, 1366, 1406, 1265}


def refused(err: pymysql.err.MySQLError) -> bool:
    return err.args[0] in REFUSED


@pytest.fixture(scope="module")
def conn(mariadb: Any) -> Iterator[Any]:
    with scratch(
        mariadb,
        "SET SESSION sql_mode = 'STRICT_ALL_TABLES'",
        "CREATE TABLE v (u UUID, i4 INET4, i6 INET6)",
    ) as connection:
        yield connection


def stored(conn: Any, kind: TypeKind, value: str | bytes) -> str | None:
    """The text the server stores for ``value`` in a ``kind`` column, None if it refuses it."""
    column = COLUMN[kind]
    with conn.cursor() as cur:
        cur.execute("DELETE FROM v")
        try:
            cur.execute(f"INSERT INTO v ({column}) VALUES (%s)", (value,))
        except pymysql.err.MySQLError as err:
            if not refused(err):
                raise
            return None
        cur.execute(f"SELECT {column} FROM v")
        (text,) = cur.fetchone()
    return str(text)


def mine(kind: TypeKind, value: str | bytes) -> str | None:
    try:
        return str(ColumnType.of(kind).coerce(value))
    except InvalidValueError:
        return None


#: texts at the edges of each type's rules (hyphens, lengths, leading zeros, '::', embedded
#: IPv4), each checked against the server for every type
CORPUS = [
    "123e4567-e89b-12d3-a456-426655440000",
    "123E4567E89B12D3A456426655440000",
    "1-23e4567e89b12d3a456426655440000",
    "12-3e-45-67-e8-9b-12-d3-a4-56-42-66-55-44-00-00",
    "123e4567--e89b-12d3-a456-426655440000",
    "1--23e4567e89b12d3a456426655440000",
    "-123e4567e89b12d3a456426655440000",
    "123e4567e89b12d3a456426655440000-",
    "123e4567e89b12d3a45642665544000",
    "123e4567e89b12d3a4564266554400000",
    "123e4567-e89b-82d3-0456-426655440000",
    "123e4567-e89b-82d3-8056-426655440000",
    "123e4567-e89b-82d3-8456-426655440000",
    "123e4567-e89b-82d3-0056-426655440000",
    "1-" + "-" * 40 + "23e4567e89b12d3a456426655440000",
    "{123e4567-e89b-12d3-a456-426655440000}",
    "1-2-3-4-5-6-7-8-9-a-b-c-d-e-f-0-1-2-3-4-5-6-7-8-9-a-b-c-d-e-f-0",
    "1.2.3.4",
    "01.02.003.004",
    "0001.2.3.4",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "1..2.3",
    "1.2.3.4.",
    ".1.2.3.4",
    " 1.2.3.4",
    "1.2.3.4 ",
    "16909060",
    "::",
    ":",
    ":::",
    "::1",
    "::1:2",
    "1::",
    "1:",
    ":1::",
    "1::2::3",
    "1:::2",
    "1:0:0:0:1:0:0:1",
    "0:0:1:0:0:0:0:1",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1:2:3:4::5:6:7:8",
    "00001::",
    "ABCD::EF",
    "::ffff:1.2.3.4",
    "::1.2.3.4",
    "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::ffff:1.2.3",
    "::ffff:01.2.3.4",
    "::ab.1.2.3",
    "fe80::1%eth0",
    "",
]


@pytest.mark.parametrize("kind", PLUGINS, ids=str)
def test_each_text_is_read_as_the_server_reads_it(conn: Any, kind: TypeKind) -> None:
    for text in CORPUS:
        assert mine(kind, text) == stored(conn, kind, text), text


@pytest.mark.parametrize("kind", PLUGINS, ids=str)
def test_a_binary_string_is_the_value_s_bytes_when_its_size_is_the_type_s(
    conn: Any, kind: TypeKind
) -> None:
    size = PLUGIN_BYTES[kind]
    for data in (bytes(range(1, size + 1)), bytes(size), bytes(size - 1), bytes(size + 1), b"::1"):
        assert mine(kind, data) == stored(conn, kind, data), data


_ALPHABET = "0123456789abcdefABCDEF-:.x "


@st.composite
def _near_miss(draw: st.DrawFn, kind: TypeKind) -> str:
    """A text the server prints, with a few characters inserted, removed or upper-cased."""
    text = text_of(kind, draw(st.binary(min_size=PLUGIN_BYTES[kind], max_size=PLUGIN_BYTES[kind])))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "remove", "upper"]))
        if edit == "insert":
            text = text[:at] + draw(st.sampled_from(_ALPHABET)) + text[at:]
        elif edit == "remove":
            text = text[:at] + text[at + 1 :]
        else:
            text = text.upper()
    return text


@settings(max_examples=examples(200, 80))
@given(data=st.data())
def test_random_text_is_read_as_the_server_reads_it(conn: Any, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(PLUGINS))
    text = data.draw(st.one_of(st.text(alphabet=_ALPHABET, max_size=48), _near_miss(kind)))
    assert mine(kind, text) == stored(conn, kind, text)


@st.composite
def _address(draw: st.DrawFn, size: int) -> bytes:
    # 16-bit groups that are mostly zero or all ones: the printing rules are about zero runs
    # and the IPv4-compatible and -mapped prefixes (and a UUID's layout, about two bytes' bits)
    groups = draw(
        st.lists(
            st.one_of(st.just(0), st.just(0xFFFF), st.integers(0, 0xFFFF)),
            min_size=size // 2,
            max_size=size // 2,
        )
    )
    return b"".join(g.to_bytes(2, "big") for g in groups)


@settings(max_examples=examples(150, 60))
@given(data=st.data())
def test_any_bytes_print_as_the_server_prints_them(conn: Any, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(PLUGINS))
    value = data.draw(_address(PLUGIN_BYTES[kind]))
    text = mine(kind, value)
    assert text is not None and text == stored(conn, kind, value)
    # the printed text reads back as the same bytes, unless the server refuses that text too
    # (a UUID whose bytes as written look like its sortable layout)
    again = from_text(kind, text)
    assert again == from_binary(kind, value) or (again is None and not stored(conn, kind, text))


#: (old type, value, new type): a change of type over a stored value
CONVERSIONS = [
    ("UUID", "123e4567-e89b-12d3-a456-426655440000", "BINARY(16)"),
    ("UUID", "123e4567-e89b-12d3-a456-426655440000", "BINARY(20)"),
    ("UUID", "123e4567-e89b-12d3-a456-426655440000", "BLOB"),
    ("UUID", "123e4567-e89b-12d3-a456-426655440000", "CHAR(36)"),
    ("UUID", "123e4567-e89b-12d3-a456-426655440000", "VARCHAR(10)"),
    ("INET4", "1.2.3.4", "VARBINARY(4)"),
    ("INET4", "1.2.3.4", "TEXT"),
    ("INET6", "::ffff:1.2.3.4", "VARBINARY(40)"),
    ("INET6", "::1:2", "VARCHAR(39)"),
    ("INET6", "::1:2", "ENUM('::1','::0.1.0.2')"),
    ("BINARY(16)", b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", "UUID"),
    ("VARBINARY(4)", b"\x0a\x00\x00\x01", "INET4"),
    ("VARBINARY(4)", b"::1", "INET6"),
    ("CHAR(40)", "0:0:0:0:0:ffff:0102:0304", "INET6"),
    ("VARCHAR(40)", "1-2", "UUID"),
    ("ENUM('::1','x')", "::1", "INET6"),
]


@pytest.mark.parametrize("old,value,new", CONVERSIONS)
def test_a_change_of_type_converts_a_value_as_the_server_does(
    conn: Any, old: str, value: Any, new: str
) -> None:
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS c")
        cur.execute(f"CREATE TABLE c (a {old})")
        cur.execute("INSERT INTO c VALUES (%s)", (value,))
        try:
            cur.execute(f"ALTER TABLE c MODIFY a {new}")
        except pymysql.err.MySQLError as err:
            if not refused(err):
                raise
            theirs: Any = None
        else:
            cur.execute("SELECT a FROM c")
            (theirs,) = cur.fetchone()
    before = parse_table(f"CREATE TABLE c (a {old})")
    after = parse_table(f"CREATE TABLE c (a {new})")
    ident = before.columns[0].id
    try:
        ours: Any = upgrade_row({ident: before.columns[0].type.coerce(value)}, before, after)
    except InvalidValueError:
        ours = None
    else:
        ours = ours[ident]
    if isinstance(ours, set):  # a SET's members, as the driver reads them
        ours = ",".join(sorted(ours))
    assert ours == theirs
