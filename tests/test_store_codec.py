"""Stored values round-trip exactly, whatever the table."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from mvdd import Catalog, MvddError, parse_statements, parse_table
from mvdd.catalog.history import elements_of
from mvdd.model import BinlogPosition
from mvdd.model.element import HexText
from mvdd.store import codec
from tests.strategies import column_defs, quote
from tests.support.fixtures import sequences, statements


@given(
    st.lists(column_defs(), min_size=1, max_size=6, unique_by=lambda d: d.split(" ")[0].casefold())
)
def test_any_table_round_trips(defs: list[str]) -> None:
    table = parse_table(f"CREATE TABLE {quote('t')} ({', '.join(defs)})")
    for (kind, _), (value, _) in elements_of(table).items():
        assert codec.decode_element(kind, codec.encode_element(kind, value)) == value


def test_every_corpus_table_and_step_round_trips() -> None:
    for sql in statements("create_tables.sql"):
        table = parse_table(sql)
        for (kind, _), (value, _) in elements_of(table).items():
            assert codec.decode_element(kind, codec.encode_element(kind, value)) == value
    for _, stmts in sequences("alter_sequences.sql"):
        for sql in stmts:
            try:
                parsed = parse_statements(sql)
            except MvddError:
                continue  # the corpus holds statements that must be refused
            for statement in parsed:
                steps = statement.steps
                assert codec.decode_steps(codec.encode_steps(steps)) == steps


def test_positions_round_trip() -> None:
    for position in (
        None,
        0,
        2**62,
        2**64,  # beyond what orjson writes: the json fallback
        -(2**80),
        ("mysql-bin.000003", 1234),
        BinlogPosition("mysql-bin.000003", 1234),
        BinlogPosition("mysql-bin.000001", 4, 2),
        ("gtid", "3E11FA47-71CA", 23),
        ("lone \ud800 surrogate", 1),  # orjson refuses it: the json fallback
    ):
        assert codec.decode_position(codec.encode_position(position)) == position


#: what a store encodes: text (any code point, control characters, lone surrogates), integers of
#: any size, booleans, None, in lists and string-keyed maps (a float is stored as its repr)
_STORED = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(_STORED)
def test_stored_text_is_what_the_standard_json_module_writes(value: object) -> None:
    # the oracle: the standard library's compact, non-ASCII-as-itself JSON, keys in order
    assert codec._dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_stored_hex_string_keeps_its_spelling() -> None:
    """``X'…'`` and ``0x…`` are the same bytes, read apart by MariaDB in a number's column
    (:class:`mvdd.model.element.HexText`): a stored step keeps which it was."""
    (st,) = parse_statements(
        "ALTER TABLE t ALTER a SET DEFAULT X'3132', ALTER b SET DEFAULT 0x3132"
    )
    decoded = codec.decode_steps(codec.encode_steps(st.steps))
    assert decoded == st.steps
    assert [type(step.default) for step in decoded] == [HexText, bytes]  # type: ignore[attr-defined]


def test_a_type_keeps_its_display_width_beside_an_equal_type() -> None:
    """A display width is outside a type's equality (``INT(11) == INT(5)``), so a round trip
    compared with ``==`` does not see it; the store makes a type's dict once per type, and the
    width must still be each column's own."""
    table = parse_table("CREATE TABLE t (a INT(11), b INT(5), c INT, d INT(5), e INT(11))")
    assert len({col.type for col in table.columns}) == 1  # one type, three widths
    for col in table.columns:
        back = codec.decode_element("column", codec.encode_element("column", col))
        assert (back.type.width, repr(back)) == (col.type.width, repr(col))


def test_system_versioning_round_trips_and_is_written_only_where_a_table_has_it(
    tmp_path: Path,
) -> None:
    """A versioned table's option, a column's WITHOUT SYSTEM VERSIONING or AS ROW START / END
    and the steps that add and drop versioning come back from a SQLite store as they went in; a table without them is
    stored as before they existed (no new key in its rows)."""
    for sql in (
        "CREATE TABLE t (a INT, b INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING",
        "CREATE TABLE t (a INT PRIMARY KEY, s TIMESTAMP(6) AS ROW START INVISIBLE, e TIMESTAMP(6) "
        "AS ROW END, PERIOD FOR SYSTEM_TIME (s, e)) WITH SYSTEM VERSIONING",
    ):
        for (kind, _), (value, _) in elements_of(parse_table(sql)).items():
            assert codec.decode_element(kind, codec.encode_element(kind, value)) == value
    plain = parse_table("CREATE TABLE t (a INT, b INT)")
    for (kind, _), (value, _) in elements_of(plain).items():
        assert "versioned" not in codec.encode_element(kind, value)
    path = str(tmp_path / "catalog.db")
    with Catalog.open(path, flavor="mariadb") as cat:
        cat.execute(
            "CREATE TABLE t (a INT, b INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING"
        )
        cat.execute("ALTER TABLE t DROP SYSTEM VERSIONING")
        cat.execute("ALTER TABLE t ADD SYSTEM VERSIONING")
        held = [cat.table("t", version=v) for v in (1, 2, 3)]
    with Catalog.open(path, flavor="mariadb") as cat:
        assert [cat.table("t", version=v) for v in (1, 2, 3)] == held
        assert [t.options.versioned for t in held] == [True, False, True]
        assert all(t.column("b").unversioned for t in held)
        steps = [x for change in cat.history("t") for x in change.steps]
        assert [getattr(x, "versioned", None) for x in steps[1:]] == [False, True]


def test_members_that_keep_bytes_round_trip_through_a_sqlite_file(tmp_path: Path) -> None:
    """A member that keeps bytes its charset does not read (a lone surrogate in its text:
    :func:`mvdd.model.encoding.kept_text`) is stored in a SQLite file, whose text is UTF-8,
    and read back as it was: a later conversion reads the same bytes."""
    path = str(tmp_path / "c.db")
    made = Catalog.open(path, replica=True, flavor="mariadb")
    made.execute("CREATE TABLE t (c0 SET('a','é','ß') CHARACTER SET utf8mb4, k INT)")
    made.execute("ALTER TABLE t CONVERT TO CHARACTER SET ascii")
    kept = made.table("t").column("c0").type.members
    assert kept == ("a", "\udcc3\udca9", "\udcc3\udc9f")
    made.close()
    again = Catalog.open(path, replica=True, flavor="mariadb")
    assert again.table("t").column("c0").type.members == kept
    again.execute("ALTER TABLE t CONVERT TO CHARACTER SET latin1")
    assert again.table("t").column("c0").type.members == ("a", "Ã©", "ÃŸ")
    again.close()
