"""ColumnType: canonical forms, refusals, and MySQL strict-mode value coercion, as vectors."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from mvdd import Catalog, parse_table
from mvdd.errors import DDLError, InvalidValueError
from mvdd.model import Column, Index, IndexPart, Table, TableOptions
from mvdd.model.element import coerce_default
from mvdd.model.kind import Family, TypeKind
from mvdd.model.types import ColumnType, resolve_charset, row_bytes

T = ColumnType.of

# (type, input, canonical value)
COERCE = [
    (T("tinyint"), 127, 127),
    (T("tinyint", unsigned=True), "255", 255),
    (T("int"), Decimal("2.5"), 3),
    (T("int"), Decimal("-2.5"), -3),
    (T("bigint", unsigned=True), 2**64 - 1, 2**64 - 1),
    (T("decimal", precision=5, scale=2), "1.555", Decimal("1.56")),
    (T("decimal", precision=5, scale=2), 1, Decimal("1.00")),
    (T("decimal", precision=5, scale=2), "-0.001", Decimal("0.00")),
    (T("float"), "1.5", 1.5),
    (T("double", precision=6, scale=2), 1.005, 1.0),
    (T("bit", length=4), 5, 5),
    (T("bit", length=8), b"\x0f", 15),
    (T("char", length=3), "ab  ", "ab"),
    (T("char", length=3), "abc\t\r\n ", "abc"),  # (space past a CHAR's length cut)
    (T("char", length=2, charset="latin1"), "a \xa0", "a"),
    (T("varchar", length=3), "abc", "abc"),
    (T("varchar", length=5), 12, "12"),
    (T("binary", length=4), "ab", b"ab\0\0"),
    (T("varbinary", length=4), b"\xff", b"\xff"),
    (T("text"), "x" * 1000, "x" * 1000),
    (T("enum", members=["a", "B"]), "b", "B"),
    (T("enum", members=["a", "B"]), 2, "B"),
    (T("set", members=["r", "w", "x"]), "x,r", "r,x"),
    (T("set", members=["r", "w", "x"]), 5, "r,x"),
    (T("set", members=["r", "w"]), "", ""),
    (T("date"), "2020-1-2", "2020-01-02"),
    (T("date"), "0000-00-00", "0000-00-00"),
    (T("datetime"), "2020-01-01", "2020-01-01 00:00:00"),
    (T("datetime", fsp=2), "2020-01-01 10:00:00.125", "2020-01-01 10:00:00.13"),
    (T("datetime"), "2020-12-31 23:59:59.6", "2021-01-01 00:00:00"),
    (T("timestamp", fsp=6), "2020-06-01 12:00:00.000001", "2020-06-01 12:00:00.000001"),
    (T("time"), "-838:59:59", "-838:59:59"),
    (T("time", fsp=1), "10:00", "10:00:00.0"),
    (T("time"), "1 02:00:00", "26:00:00"),
    (T("year"), "69", 2069),
    (T("year"), 70, 1970),
    (T("year"), "0", 2000),
    (T("year"), 0, 0),
    (T("year"), Decimal("69.5"), 1970),
    (T("year"), Decimal("0.4"), 0),
    (T("year"), "0.4", 2000),
    (T("year"), "-0.4", 0),
    (T("year"), "2000.5", 2001),
    (T("json"), '{"a": 1}', '{"a": 1}'),
    (T("int"), None, None),
]

# (type, input) MySQL refuses in strict mode
REFUSED = [
    (T("tinyint"), 128),
    (T("tinyint", unsigned=True), -1),
    (T("int"), "abc"),
    (T("decimal", precision=4, scale=2), 100),
    (T("decimal", precision=4, scale=2, unsigned=True), -1),
    (T("bit", length=3), 8),
    (T("varchar", length=2), "abc"),
    (T("varchar", length=2), "ab\t"),
    (T("char", length=2), "ab\xa0"),  # (no space of utf8mb4)
    (T("binary", length=1), "ab"),
    (T("enum", members=["a"]), "b"),
    (T("enum", members=["a"]), 2),
    (T("set", members=["a"]), "a,b"),
    (T("date"), "2020-02-30"),
    (T("date"), "2020-13-01"),
    (T("datetime"), "2020-01-01 24:00:00"),
    (T("timestamp"), "1960-01-01 00:00:00"),
    (T("time"), "839:00:00"),
    (T("year"), 1900),
    (T("year"), Decimal("99.5")),
    (T("year"), Decimal("-0.4")),
    (T("year"), "-1.2"),
    (T("json"), "{nope"),
    (T("point"), "POINT(0 0)"),
]


@pytest.mark.parametrize("ctype,value,expected", COERCE, ids=[f"{c[0]}:{c[1]!r}" for c in COERCE])
def test_coerce(ctype: ColumnType, value: Any, expected: Any) -> None:
    got = ctype.coerce(value)
    assert got == expected and type(got) is type(expected)
    # canonical values are fixpoints
    assert ctype.coerce(got) == got


@pytest.mark.parametrize("ctype,value", REFUSED, ids=[f"{c[0]}:{c[1]!r}" for c in REFUSED])
def test_coerce_refuses(ctype: ColumnType, value: Any) -> None:
    with pytest.raises(InvalidValueError):
        ctype.coerce(value)


#: types of every family; values no column holds (NaN and the infinities, as doubles and as
#: decimals, a signalling NaN too); and values only a string column holds (numbers past every
#: range, as a decimal of a million digits or a text, and a lone surrogate that stands for no
#: byte)
HOSTILE_TYPES = [
    "TINYINT",
    "BIGINT UNSIGNED",
    "DECIMAL(65,30)",
    "FLOAT",
    "DOUBLE(10,3) UNSIGNED",
    "BIT(8)",
    "VARCHAR(30)",
    "BLOB",
    "JSON",
    "ENUM('a','b')",
    "SET('a','b')",
    "YEAR",
    "DATE",
    "DATETIME(6)",
    "TIME(4)",
]
NOT_FINITE = [float("nan"), float("inf"), float("-inf"), Decimal("NaN"), Decimal("sNaN")]
NOT_FINITE += [Decimal("Infinity"), Decimal("-Infinity")]
PAST_RANGES = [Decimal("1E+1000000"), "1E+1000000", "1e400", "\ud800"]
_STRINGS = (Family.CHAR, Family.TEXT, Family.BLOB, Family.JSON)


@pytest.mark.parametrize("sql_type", HOSTILE_TYPES)
def test_values_no_column_holds_are_refused_with_the_models_error(sql_type: str) -> None:
    """Each value is refused with InvalidValueError (naming the type and the value), as a
    row's, and a text as a conversion's from a text column: no other exception reaches the
    caller (NaN was a ValueError in an integer, decimal's InvalidOperation in a DECIMAL or a
    date, a surrogate a UnicodeEncodeError in a BIT; a VARCHAR took NaN as '0.')."""
    ctype = parse_table(f"CREATE TABLE t (a {sql_type})").column("a").type
    text = T("varchar", length=20)
    for value in NOT_FINITE + ([] if ctype.family in _STRINGS else PAST_RANGES):
        with pytest.raises(InvalidValueError):
            ctype.coerce(value)
        if isinstance(value, str):
            with pytest.raises(InvalidValueError):
                ctype.convert(value, text)


@pytest.mark.parametrize(
    "sql_type,value,held",
    [
        ("VARCHAR(4)", "a\ud800", False),  # (a lone surrogate: no character of any charset)
        ("VARCHAR(4)", "a\udcf6", False),  # (an ill-formed byte of UTF-8: the server's 1366)
        ("TEXT CHARACTER SET gbk", "\udc81", False),
        ("VARCHAR(4) CHARACTER SET latin1", "\ud800", False),
        ("VARCHAR(4) CHARACTER SET ascii", "a\udcf6", True),  # (any byte of one a character)
        ("CHAR(4) CHARACTER SET cp1251", "\udc98", True),
        ("VARCHAR(4) CHARACTER SET ascii", "\udcf6é", False),
    ],
)
def test_a_text_column_holds_a_byte_kept_as_it_is_in_a_charset_of_one_byte_a_character(
    sql_type: str, value: str, held: bool
) -> None:
    """A byte kept as it is (the lone surrogate U+DC00 + the byte, as a member keeps one) is a
    value of a text column whose charset has one byte a character, as the servers store any
    byte in one (``X'F6'`` as an ascii column's DEFAULT); a multi-byte charset refuses one,
    and every charset refuses any other lone surrogate (utf8mb4 took one)."""
    ctype = parse_table(f"CREATE TABLE t (a {sql_type})").column("a").type
    if held:
        assert ctype.coerce(value) == value
    else:
        with pytest.raises(InvalidValueError):
            ctype.coerce(value)


CANONICAL = [
    (("decimal",), {}, T("decimal", precision=10, scale=0)),
    (("bit",), {}, T("bit", length=1)),
    (("char",), {}, T("char", length=1)),
    (("datetime",), {}, T("datetime", fsp=0)),
    (("int",), {"zerofill": True}, T("int", unsigned=True, zerofill=True)),
    (
        ("varchar",),
        {"length": 5, "collation": "utf8_bin"},
        T("varchar", length=5, charset="utf8mb3", collation="utf8mb3_bin"),
    ),
    (
        ("varchar",),
        {"length": 5, "charset": "LATIN1"},
        T("varchar", length=5, charset="latin1", collation="latin1_swedish_ci"),
    ),
    (("enum",), {"members": ["a ", "b"]}, T("enum", members=["a", "b"])),
]


@pytest.mark.parametrize("args,params,expected", CANONICAL)
def test_canonical_forms(args: tuple[str], params: dict[str, Any], expected: ColumnType) -> None:
    assert T(*args, **params) == expected


@pytest.mark.parametrize(
    "kind,params",
    [
        ("varchar", {"length": 16384, "charset": "utf8mb4"}),
        ("varchar", {}),
        ("decimal", {"precision": 66}),
        ("decimal", {"precision": 5, "scale": 6}),
        ("bit", {"length": 65}),
        ("char", {"length": 256}),
        ("datetime", {"fsp": 7}),
        ("enum", {"members": ["a", "A"], "charset": "utf8mb4"}),
        ("enum", {"members": ["a", "ä"], "collation": "utf8mb4_general_ci"}),
        ("set", {"members": ["é", "E"], "collation": "latin1_swedish_ci"}),
        ("enum", {"members": []}),
        ("set", {"members": ["a,b"]}),
        ("varchar", {"length": 5, "charset": "latin1", "collation": "utf8mb4_bin"}),
        ("varchar", {"length": 5, "charset": "klingon"}),
        ("varchar", {"length": 5, "collation": "utf8mb4_nope"}),
        ("int", {"length": 5}),
    ],
)
def test_impossible_types_are_refused(kind: str, params: dict[str, Any]) -> None:
    with pytest.raises(DDLError):
        T(kind, **params)


def test_a_two_digit_year_holds_the_years_a_year_holds() -> None:
    """MariaDB's YEAR(2) is YEAR shown with two digits: equal to YEAR (its width is display),
    its values the same years (a row's 1901 stays 1901), but a default is the year its two
    digits name once the server shows them (MariaDB reads ``00`` and a number 0 as 2000)."""
    short = T("year", width=2)
    assert short.width == 2 and short == T("year") and T("year", width=4).width is None
    assert [short.coerce(v) for v in (1901, 0, "0000", "69", 2155)] == [1901, 0, 0, 2069, 2155]
    defaults = [coerce_default(v, short, "y") for v in (1901, 0, "0000", "69", 2155, 1970)]
    assert defaults == [2001, 2000, 2000, 2069, 2055, 1970]
    assert coerce_default(0, T("year"), "y") == 0  # a YEAR's 0 is the zero year


def test_a_float_default_is_the_value_the_server_shows() -> None:
    """A FLOAT column stores a single-precision value and shows its default with six
    significant digits, which is what a snapshot reads back: the default a catalog keeps. A
    row's value stays as it is (a binary log carries the stored float), and a DOUBLE's and a
    FLOAT(M,D)'s default too."""
    single = T("float")
    assert coerce_default(Decimal("3.141592653589793"), single, "f") == 3.14159
    assert coerce_default(16777217, single, "f") == 16777200.0
    assert single.coerce(Decimal("3.141592653589793")) == 3.141592653589793
    assert coerce_default(Decimal("3.141592653589793"), T("double"), "f") == 3.141592653589793
    assert coerce_default(Decimal("3.14159265"), T("float", precision=10, scale=4), "f") == 3.1416


def test_case_sensitive_enum_members_allow_case_variants() -> None:
    assert T("enum", members=["a", "A"], collation="utf8mb4_bin").members == ("a", "A")


def test_resolve_charset_pairs() -> None:
    assert resolve_charset(None, None) == (None, None)
    assert resolve_charset("utf8mb4", "utf8mb4_uca1400_ai_ci") == (
        "utf8mb4",
        "utf8mb4_uca1400_ai_ci",
    )
    assert resolve_charset(None, "utf16le_bin") == ("utf16le", "utf16le_bin")


def test_every_kind_has_a_row_size() -> None:
    for kind in TypeKind:
        params: dict[str, Any] = {}
        if kind in (TypeKind.VARCHAR, TypeKind.VARBINARY):
            params["length"] = 10
        if kind in (TypeKind.ENUM, TypeKind.SET):
            params["members"] = ["x"]
        assert row_bytes(T(kind, **params)) > 0
    assert row_bytes(T("decimal", precision=18, scale=9)) == 8
    assert row_bytes(T("varchar", length=63, charset="utf8mb4")) == 253
    assert row_bytes(T("varchar", length=64, charset="utf8mb4")) == 258


def test_negative_time_deltas() -> None:
    import datetime as dt

    t = T("time", fsp=1)
    assert t.coerce(dt.timedelta(days=-2, seconds=86399, microseconds=900000)) == "-24:00:00.1"
    assert t.coerce(dt.timedelta(seconds=-0.5)) == "-00:00:00.5"


# --- nothing reaches emitted DDL unchecked -------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: TableOptions(engine="InnoDB; DROP TABLE x"),
        lambda: TableOptions(engine="Inno DB"),
        lambda: TableOptions(row_format="DYNAMIC) ENGINE=X"),
        lambda: TableOptions(charset="latin1; --"),
        lambda: TableOptions(charset="latin1", collation="utf8mb4_bin"),
        lambda: TableOptions(collation="x' OR '1"),
        lambda: TableOptions(extra=(("KEY_BLOCK_SIZE=1, ENGINE", "1"),)),
        lambda: Index(name="i", parts=(IndexPart(1),), using="BTREE) COMMENT 'x"),
        lambda: ColumnType(kind=TypeKind.VARCHAR, length=3, charset="utf8mb4 COLLATE x"),
        lambda: ColumnType(
            kind=TypeKind.VARCHAR, length=3, charset="utf8mb4", collation="latin1_bin"
        ),
    ],
)
def test_values_ddl_carries_unquoted_are_checked_in_the_model(build: Any) -> None:
    """A table built in code renders its options, index types and charsets unquoted: the
    model refuses anything but the names a server knows, so none can inject SQL."""
    with pytest.raises(DDLError):
        build()


def test_checked_values_still_render() -> None:
    options = TableOptions(
        engine="InnoDB",
        row_format="DYNAMIC",
        charset="latin1",
        collation="latin1_bin",
        extra=(("STATS_PERSISTENT", "1"),),
    )
    t = Table(
        name="t",
        columns=(Column(id=1, name="a", type=ColumnType.of("int")),),
        indexes=(Index(id=2, name="i", parts=(IndexPart(1),), using="HASH"),),
        options=options,
        last_id=2,
    )
    assert parse_table(t.to_sql()).equivalent(t)


def test_members_alike_a_loose_session_kept_stay_refused_in_a_strict_one() -> None:
    """A type whose members a session that is not strict kept alike (its charset named, so
    the type is shared) does not make a strict session's same members taken (the servers'
    1291): a shared type's members are checked where the session asks."""
    loose = Catalog(replica=True, charset="utf8mb4", collation="utf8mb4_general_ci")
    loose.execute("CREATE TABLE u (c ENUM('q','Q') CHARACTER SET utf8mb4, k INT)", sql_mode="")
    assert loose.table("u").column("c").type.members == ("q", "Q")
    strict = Catalog(replica=True, charset="utf8mb4", collation="utf8mb4_general_ci")
    with pytest.raises(DDLError, match=r"duplicate members \['Q', 'q'\]"):
        strict.execute("CREATE TABLE t (c ENUM('q','Q'), k INT)", sql_mode="STRICT_TRANS_TABLES")
    assert parse_table(loose.table("u").to_sql(), replica=True).column("c") == loose.table(
        "u"
    ).column("c")
