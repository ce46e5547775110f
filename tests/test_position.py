"""Binlog positions: ordered by the file's numeric suffix, accepted by catalogs and their stores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mvdd import BinlogPosition, Catalog, PositionError
from mvdd.model.position import gtid_after
from tests.support.mariadb import MariaDB

P = BinlogPosition


def test_files_order_by_their_numeric_suffix_not_as_text() -> None:
    assert P("mysql-bin.999999", 900) < P("mysql-bin.1000000", 4)
    assert P("mysql-bin.000002", 4) > P("mysql-bin.000001", 99999)
    assert P("mysql-bin.000002", 4) < P("mysql-bin.000002", 5)
    assert sorted([P("b.10", 1), P("b.9", 7), P("b.9", 3)]) == [
        P("b.9", 3),
        P("b.9", 7),
        P("b.10", 1),
    ]


@given(st.integers(0, 10**7), st.integers(0, 10**7), st.integers(0, 2**32), st.integers(0, 2**32))
def test_order_is_the_order_of_suffix_then_offset(a: int, b: int, x: int, y: int) -> None:
    left, right = P(f"mysql-bin.{a:06d}", x), P(f"mysql-bin.{b:06d}", y)
    assert (left < right) == ((a, x) < (b, y))
    assert (left == right) == ((a, x) == (b, y)) or f"{a:06d}" != f"{b:06d}"


@given(
    st.tuples(st.integers(0, 3), st.integers(0, 10**7), st.integers(0, 2**32)),
    st.tuples(st.integers(0, 3), st.integers(0, 10**7), st.integers(0, 2**32)),
)
def test_order_is_the_order_of_era_then_suffix_then_offset(
    a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    """Every position of an era follows every position of the eras before it, whatever its
    file (a failover's server numbers its files afresh); the text round-trips, era and all."""
    left, right = (P(f"mysql-bin.{n:06d}", offset, era) for era, n, offset in (a, b))
    assert (left < right) == (a < b) and (left == right) == (a == b)
    assert P.parse(str(left)) == left and ("@" in str(left)) == (a[0] > 0)


def test_text_round_trip_and_bad_input() -> None:
    p = P.parse("mysql-bin.000003:1234")
    assert p == P("mysql-bin.000003", 1234) and str(p) == "mysql-bin.000003:1234"
    assert P.parse("host:with:colons.000001:4") == P("host:with:colons.000001", 4)
    assert P.parse("f.000001:4@2") == P("f.000001", 4, 2) and str(P("f.1", 4, 2)) == "f.1:4@2"
    for bad in ("mysql-bin.000003", "f:x", ":4", "", "f:-1", "f:4@", "f:4@x", "f:4@-1"):
        with pytest.raises(PositionError):
            P.parse(bad)
    with pytest.raises(PositionError):
        P("f", -1)
    with pytest.raises(PositionError):
        P("f", 1, -1)
    with pytest.raises(TypeError):
        assert P("f.1", 1) < 5  # type: ignore[operator]


def positions_in(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)", position=P("mysql-bin.999999", 100), database="d")
    catalog.execute("ALTER TABLE t ADD b INT", position=P("mysql-bin.1000000", 4), database="d")
    assert catalog.table("d.t", position=P("mysql-bin.999999", 101)).column_names == ("a",)
    assert catalog.table("d.t", position=P("mysql-bin.1000000", 5)).column_names == ("a", "b")
    assert catalog.history("d.t")[1].position == P("mysql-bin.1000000", 4)
    # (another server's positions after a failover: the next era, its files numbered afresh)
    catalog.execute("ALTER TABLE t ADD e INT", position=P("mysql-bin.000001", 9, 1), database="d")
    assert catalog.table("d.t", position=P("mysql-bin.1000000", 5)).column_names == ("a", "b")
    assert catalog.table("d.t", position=P("mysql-bin.000001", 10, 1)).column_names == (
        "a",
        "b",
        "e",
    )
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t ADD c INT", position=7, database="d")
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t ADD c INT", position=P("mysql-bin.000001", 4), database="d")


def test_catalogs_take_binlog_positions(catalog: Catalog) -> None:
    positions_in(catalog)


def test_sqlite_keeps_binlog_positions(tmp_path: object) -> None:
    path = str(tmp_path) + "/c.db"  # type: ignore[operator]
    with Catalog.open(path) as cat:
        positions_in(cat)
    with Catalog.open(path) as again:
        assert [c.position for c in again.history("d.t")] == [
            P("mysql-bin.999999", 100),
            P("mysql-bin.1000000", 4),
            P("mysql-bin.000001", 9, 1),
        ]


@pytest.mark.mariadb
def test_the_mysql_store_keeps_binlog_positions(mariadb: MariaDB) -> None:
    with mariadb.database() as db:
        with Catalog.open(mariadb.url(db)) as cat:
            positions_in(cat)
        with Catalog.open(mariadb.url(db)) as again:
            assert again.table("d.t", position=P("mysql-bin.1000000", 5)).column_names == ("a", "b")


GTIDS = st.tuples(st.integers(0, 12), st.integers(1, 3), st.integers(1, 10**9))


@given(st.lists(GTIDS, max_size=6), st.lists(GTIDS, max_size=8))
def test_a_gtid_position_keeps_each_domains_last_gtid(
    start: list[tuple[int, int, int]], applied: list[tuple[int, int, int]]
) -> None:
    """:func:`gtid_after` against a model: a domain's last GTID, by domain."""
    model: dict[int, tuple[int, int, int]] = {g[0]: g for g in start}
    text = ",".join("-".join(map(str, model[d])) for d in sorted(model))
    state: str | None = text
    for g in applied:
        state = gtid_after(state, "-".join(map(str, g)))
        model[g[0]] = g
    if applied:
        assert state == ",".join("-".join(map(str, model[d])) for d in sorted(model))


@pytest.mark.parametrize("bad", ["0-1", "a-1-2", "0-1-2-3", " 0-1-2", ""])
def test_a_gtid_is_domain_server_sequence(bad: str) -> None:
    with pytest.raises(PositionError, match="DOMAIN-SERVER-SEQUENCE"):
        gtid_after("0-1-1", bad)
