"""Literals read as the server reads them: defaults of every family, and dates and times
written the ways MySQL reads them — any punctuation between the parts, a two-digit year,
digits alone, numbers, 0 for the zero date.

The oracle is the test MariaDB: a column added with the literal as its DEFAULT, and the
default the server keeps (``information_schema.COLUMNS``) or its refusal, against the default
mvdd keeps or its refusal. For dates and times mvdd differs on purpose in three ways, each left out here and named:

- a date with a zero month or day but not the zero date (``2026-01-00``): MySQL's defaults
  (NO_ZERO_IN_DATE) refuse it, MariaDB's take it; mvdd refuses it;
- more fraction digits than the column keeps: MySQL rounds, MariaDB cuts; mvdd rounds (a
  replica of MariaDB cuts, and is held to the server there too);
- a number of eight digits or more for a TIME: MariaDB reads a date and time, and keeps its
  time by rules of its own (``20260230`` is ``00:00:00``, ``100000101`` an error); mvdd
  takes a time as a number only as ``hhmmss``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, TypeGuard

import pymysql
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import mvdd
from mvdd import Catalog
from mvdd.model.encoding import CHARSETS, python_codec, without_kept

pytestmark = pytest.mark.mariadb

TYPES = ["DATE", "DATETIME", "DATETIME(3)", "TIMESTAMP NULL", "TIME", "TIME(2)"]
LITERALS = [
    "0",
    "0.0",
    "1",
    "101",
    "1230",
    "20260101",
    "260101",
    "700101",
    "691231",
    "20260101123000",
    "260101123000",
    "123000",
    "12",
    "20261301",
    "20260230",
    "-1",
    "99991231",
    "100000101",
    "20260101123000.25",
    "'20260101'",
    "'260101'",
    "'20260101123045'",
    "'2026-1-1'",
    "'26-01-01'",
    "'0'",
    "'2026/01/01'",
    "'2026.01.01 12.30.45'",
    "'2026-01-01T12:30'",
    "'2026^01^01 11+30+45'",
    "'123045'",
    "'1230'",
    "'2026-02-29'",
    "'2024-02-29 23:59:59'",
    "'1969-12-31 23:59:59'",
]


def _fsp(sql_type: str) -> int:
    found = re.search(r"\((\d)\)", sql_type)
    return int(found[1]) if found else 0


def _left_out(sql_type: str, literal: str, server: str | None, *, cuts: bool = False) -> bool:
    """One of the three differences on purpose (see the module docstring); ``cuts``: the
    catalog cuts fractions as MariaDB does (a replica of it), and none is left out for one."""
    fraction = re.search(r"\.(\d+)", literal)
    if fraction and len(fraction[1].rstrip("0")) > _fsp(sql_type) and not cuts:
        return True
    if sql_type.startswith("TIME") and not sql_type.startswith("TIMESTAMP"):
        return bool(re.fullmatch(r"-?\d{8,}(\.\d*)?", literal))
    if server is not None:
        date = re.match(r"(\d{4})-(\d{2})-(\d{2})", server)
        return (
            date is not None and date.groups() != ("0000", "00", "00") and "00" in date.groups()[1:]
        )
    return False


@pytest.fixture
def both(mdb: Any) -> Iterator[tuple[Any, Catalog]]:
    with mdb.cursor() as cur:
        cur.execute("CREATE TABLE t (a INT)")
    cat = Catalog()
    cat.execute("CREATE TABLE t (a INT)")
    yield mdb, cat


@pytest.fixture
def replica(mdb: Any) -> Iterator[tuple[Any, Catalog]]:
    """The server and a replica's catalog of it, which follows MariaDB's own ways."""
    with mdb.cursor() as cur:
        cur.execute("CREATE TABLE t (a INT)")
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute("CREATE TABLE t (a INT)")
    yield mdb, cat


def _server_default(conn: Any, sql_type: str, literal: str, *, raw: bool = False) -> str | None:
    """The default the server keeps for the literal (its text, or as information_schema
    shows it when ``raw``), or None when it refuses."""
    with conn.cursor() as cur:
        try:
            cur.execute(f"ALTER TABLE t ADD x {sql_type} DEFAULT {literal}")
        except pymysql.MySQLError:
            return None
        try:
            cur.execute(
                "SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS "
                "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't' AND COLUMN_NAME = 'x'"
            )
            (kept,) = cur.fetchone()
        finally:
            # (rebuilt: InnoDB keeps an instantly dropped column's place in its rows, and a
            # few dozen wide ones fill the row)
            cur.execute("ALTER TABLE t DROP x, FORCE")
    return str(kept) if raw else str(kept).strip("'")


def _mvdd_default(cat: Catalog, sql_type: str, literal: str) -> str | None:
    try:
        cat.execute(f"ALTER TABLE t ADD x {sql_type} DEFAULT {literal}")
    except mvdd.MvddError:
        return None
    kept = cat.table("t").column("x").default
    cat.execute("ALTER TABLE t DROP x")
    if isinstance(kept, Decimal):
        return format(kept, "f")  # (the server's digits: str() writes 0E-30)
    if isinstance(kept, bytes):  # (as information_schema shows bytes: UTF-8 text where valid)
        try:
            return kept.decode("utf-8")
        except UnicodeDecodeError:
            return kept.decode("latin-1")
    return without_kept(str(kept))  # (a byte a text keeps as it is shows as a ?)


def _digits(shown: str | None) -> TypeGuard[str]:
    """Whether a default as shown is ASCII digits alone (a YEAR's: ``'²'`` is a digit too)."""
    return shown is not None and shown.isascii() and shown.isdigit()


def _agree(conn: Any, cat: Catalog, sql_type: str, literal: str) -> bool:
    """Whether mvdd reads the literal as the server does (True), or the case is one left out
    on purpose (False)."""
    server = _server_default(conn, sql_type, literal)
    if _left_out(sql_type, literal, server, cuts=cat.replica and cat.flavor == "mariadb"):
        return False
    mine = _mvdd_default(cat, sql_type, literal)
    if _digits(mine) and _digits(server):
        mine, server = str(int(mine)), str(int(server))  # (a YEAR 0 shows as 0000)
    assert mine == server, (sql_type, literal)
    return True


#: (type, literal) of the other families: rounding, ranges, hex and bit literals, strings
#: as numbers and numbers as strings, members matched (a number by its text, and as the
#: member it indexes), padding.
DEFAULTS = [
    ("DECIMAL(65,30)", "123456789012345678901234567.5"),
    ("DECIMAL(65,30)", "-0.000000000000000000000000000000005"),
    ("DECIMAL(65,30)", "1e500"),
    ("DECIMAL(5,2) UNSIGNED", "-0.001"),
    ("DECIMAL(5,2) UNSIGNED", "'-0.001'"),
    ("INT UNSIGNED", "-0.4"),
    ("INT UNSIGNED", "'-0.4'"),
    ("INT UNSIGNED", "-0"),
    ("BIGINT", "1e30"),
    ("BIGINT", "1e-500"),
    ("INT", "'12abc'"),
    ("INT", "1.5"),
    ("INT", "-2.5"),
    ("INT", "'1e3'"),
    ("INT", "' 12 '"),
    ("INT", "'0x1A'"),
    ("INT", "0x1A"),
    ("INT", "TRUE"),
    ("INT UNSIGNED", "'-0'"),
    ("TINYINT", "'127.4'"),
    ("TINYINT", "127.5"),
    ("BIGINT UNSIGNED", "18446744073709551615"),
    ("BIGINT", "'9223372036854775808'"),
    ("DECIMAL(5,2)", "1.005"),
    ("DECIMAL(5,2)", "'1.005'"),
    ("DECIMAL(5,2)", "999.995"),
    ("DECIMAL(5,2)", "1e2"),
    ("DECIMAL(5,2)", "-0.001"),
    ("FLOAT", "1e40"),
    # a FLOAT's default is the single-precision value, as the server shows it: 6 digits
    *(("FLOAT", v) for v in ("3.141592653589793", "1234567", "0.000012345678", "1e20")),
    *(("FLOAT", v) for v in ("16777217", "0.1", "1e-40", "-123.456789", "'2.5e3'")),
    ("FLOAT(24)", "3.141592653589793"),
    ("DOUBLE", "3.141592653589793"),
    ("FLOAT(7,2)", "12345.678"),
    # D digits as the servers cut a double: its fraction times 10**D, half to even
    *(("FLOAT(7,2)", v) for v in ("0.995", "0.985", "0.125", "-0.1e0", "2.675", "-2.675")),
    *(("DOUBLE(7,2)", v) for v in ("0.995", "0.985", "1.005", "99999.995")),
    # a negative text in an unsigned FLOAT or DOUBLE is 0; a negative number is refused
    *(("DOUBLE UNSIGNED", v) for v in ("'-3'", "'-3e0'", "-3", "'-0'", "' -0.5 '")),
    ("FLOAT(5,2) UNSIGNED", "'-1.5'"),
    # a text past DOUBLE's range (1e400 in a DOUBLE was held as infinity)
    *(("DOUBLE", v) for v in ("'1e400'", "'-1e400'", "'1.8e308'", "'1.7976931348623157e308'")),
    ("DOUBLE(10,3) UNSIGNED", "'1e400'"),
    ("YEAR", "'1e400'"),
    ("BIT(4)", "5"),
    ("BIT(4)", "'a'"),
    ("BIT(8)", "'a'"),
    ("BIT(8)", "'5'"),
    ("BIT(16)", "'ab'"),
    ("BIT(4)", "b'101'"),
    ("BIT(4)", "16"),
    ("CHAR(3)", "'abc  '"),
    ("VARCHAR(3)", "'abc '"),
    ("VARCHAR(3)", "1234"),
    ("VARCHAR(5)", "1.50"),
    ("VARCHAR(5)", "'a' 'b'"),
    ("VARCHAR(5)", "'a' \"b\" 'c'"),
    ("ENUM('a','b')", "2"),
    ("ENUM('1','2')", "2"),
    ("ENUM('1','2')", "2.0"),
    ("ENUM('1','2')", "-1"),
    ("SET('x','5')", "5"),
    ("ENUM('5','2')", "5"),
    ("SET('0','2')", "0"),
    ("ENUM('2.5','x', 'y')", "2.5"),
    ("ENUM('3.5','x','y','z')", "3.5"),
    ("SET('2.9','x')", "2.9"),
    ("ENUM('1','x')", "1e0"),
    ("ENUM('100','x')", "1e2"),
    ("SET('x','y')", "3"),
    ("VARCHAR(5)", "N'ab'"),
    # a charset introducer reads the literal's bytes (UTF-8, as the statement is) in its charset
    *(("VARCHAR(5)", v) for v in ("_latin1'é'", "_ascii'é'", "_latin1 X'E9'", "_ucs2'ab'")),
    *(("VARCHAR(5)", v) for v in ("_cp1251'ж'", "_utf8mb4'é'", "_binary'é'")),
    ("VARBINARY(5)", "_latin1'é'"),
    ("VARCHAR(5) CHARACTER SET latin1", "_utf8mb4'é'"),
    ("INT", "N'12'"),
    ("ENUM('a','b')", "'A'"),
    ("ENUM('a','b')", "'1'"),
    ("ENUM('a','b')", "'a '"),
    ("SET('a','b')", "'b,a'"),
    ("SET('a','b')", "'a,a'"),
    ("SET('a','b')", "''"),
    ("BINARY(3)", "'a'"),
    ("BINARY(3)", "X'61'"),
    ("VARBINARY(3)", "'abcd'"),
    ("YEAR", "'69'"),
    ("YEAR", "0"),
    ("YEAR", "'0'"),
    ("YEAR", "2156"),
    # a year with a fraction: rounded half up to a whole year, then read as years are
    *(("YEAR", v) for v in ("3.14", "69.5", "0.4", "0.5", "1900.6", "2154.5", "2.0e3")),
    # a text is its number: a zero year only in four characters ('0000', not '00000')
    *(
        ("YEAR", f"'{v}'")
        for v in ("060", "0099", "00000", "001901", "+60", " 000", "-0", "060.4", "00001", "060x")
    ),
    *(("YEAR", v) for v in ("'3.5'", "'0.4'", "' 7.5'", "'2000.5'", "'-0.4'", "'.5'")),
    *(("YEAR", v) for v in ("99.5", "-0.4", "2155.5", "1900.4", "'1e3'", "'12x'", "'-1.2'")),
    # a bit literal is a number in a numeric column (and a YEAR), its bytes in the others
    ("CHAR(3)", "b'101'"),
    ("VARCHAR(3)", "b'0110000101100010'"),
    ("ENUM('a','b')", "b'01100001'"),
    ("SET('a','b')", "b'01100001'"),
    ("YEAR", "b'101'"),
    ("YEAR", "0x61"),
    ("INT", "b'101'"),
    ("TIME", "b'101'"),
    # … of as many bytes as its digits fill, the leading zero ones kept; b'' is no byte
    *(
        (t, v)
        for t in ("VARBINARY(4)", "CHAR(3)", "BINARY(3)", "ENUM('','a')", "SET('a')", "INT", "YEAR")
        for v in ("b''", "b'000000001'", "b'0000000000000000'", "B'00000000'")
    ),
]


def _shown(value: str | None) -> str | None:
    """A default as information_schema shows it: text in quotes, a BIT as ``b'…'``."""
    if value is None:
        return None
    if value.startswith("b'"):
        return str(int(value[2:-1], 2))
    if not (value.startswith("'") and value.endswith("'") and len(value) > 1):
        return value
    return _ESCAPED.sub(lambda m: _ESCAPES.get(m[1], m[1]), value[1:-1].replace("''", "'"))


#: the escapes information_schema writes a text default with
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_ESCAPES = {"0": "\x00", "n": "\n", "r": "\r", "t": "\t", "b": "\b", "Z": "\x1a"}


def _same_default(conn: Any, cat: Catalog, sql_type: str, literal: str) -> None:
    """The catalog keeps the default the server keeps for the literal, or refuses it as the
    server does (each as information_schema shows it: NULL, a YEAR's four digits, a float's
    shortest digits)."""
    server = _shown(_server_default(conn, sql_type, literal, raw=True))
    mine = _mvdd_default(cat, sql_type, literal)
    if mine == "None":
        mine = "NULL"  # (information_schema's word for a DEFAULT NULL)
    if _digits(mine) and _digits(server):
        mine, server = str(int(mine)), str(int(server))  # (a YEAR 0 shows as 0000)
    if mine == server == "NULL":
        return
    if sql_type.startswith(("FLOAT", "DOUBLE")) and mine is not None and server is not None:
        mine, server = repr(float(mine)), repr(float(server))  # (1e20 shows as 1e20)
    assert mine == server, (sql_type, literal)


#: a byte charset's bytes tried past a CHAR(1)'s one character: control characters, ASCII's
#: whitespace, the no-break spaces of several charsets, a letter
_PAST_A_CHAR = bytes([0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1F, 0x20, 0x41, 0x85, 0xA0, 0xFF])
#: a wide charset's characters tried so: ASCII's whitespace, the no-break space, a letter
_PAST_A_WIDE_CHAR = "\t\n\x0b\r \xa0\u3000A"


@pytest.mark.parametrize(  # (the charsets mvdd reads text of; the server's 10.11 has no gb18030)
    "charset", sorted(c for c in CHARSETS if python_codec(c) is not None and c != "gb18030")
)
def test_a_chars_value_loses_what_its_charset_counts_as_space_past_its_length(
    replica: tuple[Any, Catalog], charset: str
) -> None:
    """A CHAR(1)'s DEFAULT of ``'a'`` and one more character (a byte of the charset, or a
    character of a wide one): the server cuts silently what the charset's character table
    counts as space (ASCII's whitespace; latin1's no-break space, cp866's 0xFF; a wide
    charset's space alone) and refuses any other, and so does mvdd
    (:func:`mvdd.model.encoding.spaces`; it refused them all)."""
    conn, cat = replica
    codec = python_codec(charset)
    wide = charset in ("ucs2", "utf16", "utf16le", "utf32")
    if wide:
        assert codec is not None
        tried = [("a" + c).encode(codec) for c in _PAST_A_WIDE_CHAR]
    else:
        tried = [b"a" + bytes([b]) for b in _PAST_A_CHAR]
    for data in tried:
        literal = f"_{charset} X'{data.hex()}'"
        server = _server_default(conn, f"CHAR(1) CHARACTER SET {charset}", literal)
        if server is not None or not wide:  # (a wide charset's odd unit: refused alike)
            _same_default(conn, cat, f"CHAR(1) CHARACTER SET {charset}", literal)


def test_defaults_read_as_the_server_reads_them(both: tuple[Any, Catalog]) -> None:
    conn, cat = both
    for sql_type, literal in DEFAULTS:
        _same_default(conn, cat, sql_type, literal)


@pytest.mark.parametrize("sql_type", TYPES)
def test_literals_read_as_the_server_reads_them(both: tuple[Any, Catalog], sql_type: str) -> None:
    conn, cat = both
    compared = [literal for literal in LITERALS if _agree(conn, cat, sql_type, literal)]
    assert len(compared) >= len(LITERALS) - 10, compared


#: dates of year 0, which the server counts a common year (no February 29th)
YEAR_ZERO = ["00000229", "00040229", "'0000-2-29'", "'0000-02-28 23:59:59.9'", "'0000-12-31'"]


@pytest.mark.parametrize("sql_type", ["DATE", "DATETIME", "DATETIME(3)"])
def test_year_zero_is_a_common_year(both: tuple[Any, Catalog], sql_type: str) -> None:
    conn, cat = both
    compared = [literal for literal in YEAR_ZERO if _agree(conn, cat, sql_type, literal)]
    assert len(compared) >= 3, compared


#: numbers of every length a date, a date and time or a time is written in, and digit strings of
#: the lengths MySQL documents (YYMMDD, YYYYMMDD, YYMMDDhhmmss, YYYYMMDDhhmmss; a time's hhmmss
#: and shorter; a digit string of another length the server reads by rules of its own, and
#: mvdd refuses)
numbers = st.builds(
    lambda digits, fraction: digits + fraction,
    st.text(alphabet="0123456789", min_size=1, max_size=14),
    st.sampled_from(["", ".5", ".25"]),
)
digit_strings = st.builds(
    lambda digits, fraction: f"'{digits}{fraction}'",
    st.sampled_from([6, 8, 12, 14]).flatmap(
        lambda n: st.text(alphabet="0123456789", min_size=n, max_size=n)
    ),
    st.sampled_from(["", ".5"]),
)
time_strings = st.builds(
    lambda digits: f"'{digits}'",
    st.text(alphabet="0123456789", min_size=1, max_size=7),
)
#: dates and times with punctuation of any kind between the parts
punctuated = st.builds(
    lambda y, mo, d, sep, time: f"'{y}{sep}{mo}{sep}{d}{time}'",
    st.sampled_from(["2026", "26", "1999", "99", "0000", "70", "69", "1", "9", "123"]),
    st.integers(0, 13).map(str),
    st.integers(0, 32).map(lambda d: f"{d:02d}"),
    st.sampled_from(["-", "/", ".", "^", ":"]),
    # the time after spaces, a T or punctuation: an hour alone, or with minutes and seconds
    st.sampled_from(["", " 12:30:45", "T23:59", " 24:00:00", " 7.5.9", ".5", " 5", "-05-06-07"]),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(TYPES), literal=st.one_of(numbers, digit_strings, punctuated))
@example(sql_type="TIMESTAMP NULL", literal="0")
@example(sql_type="DATETIME", literal="'99-12-31 23:59:59'")
@example(sql_type="DATE", literal="'1-2-3'")  # (a year of one digit is itself: 0001)
@example(sql_type="DATETIME", literal="'2026-01-02.5'")  # (an hour after punctuation)
@example(sql_type="TIME", literal="'2026-01-02.5'")  # (a TIME's, after spaces or a T alone)
def test_any_number_or_date_reads_as_on_the_server(
    both: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    conn, cat = both
    _agree(conn, cat, sql_type, literal)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(["TIME", "TIME(2)"]), literal=time_strings)
# spaces after a minus passed over (mvdd refused them); a second sign refused
@example(sql_type="TIME", literal="'- 12'")
@example(sql_type="TIME(2)", literal="' -\t1 10:00:00.25'")
@example(sql_type="TIME", literal="'- -12'")
def test_a_time_of_digits_reads_as_on_the_server(
    both: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    """A TIME's text of digits (``hhmmss`` and shorter), signed too, as the server reads it."""
    conn, cat = both
    _agree(conn, cat, sql_type, literal)


@pytest.mark.parametrize("sql_type", TYPES)
def test_a_replica_of_mariadb_cuts_fractions(replica: tuple[Any, Catalog], sql_type: str) -> None:
    """A replica of MariaDB reads every literal as the server does, a fraction of a second
    past the column's digits too: cut, not rounded (:data:`mvdd.ddl.rules.MARIADB`)."""
    conn, cat = replica
    compared = [literal for literal in LITERALS if _agree(conn, cat, sql_type, literal)]
    assert len(compared) >= len(LITERALS) - 10, compared
    assert sum("." in literal for literal in compared) >= 2, compared


#: (type, literal): fractions of a second past the column's digits, and past six of them, at
#: the ends of the ranges and where rounding carries into the next second, day or year
FRACTIONS = [
    ("DATETIME(1)", "'2020-01-01 00:00:00.16'"),
    ("TIME", "'10:00:00.6'"),
    ("TIME(1)", "'-10:00:00.66'"),
    ("TIMESTAMP(2)", "'2020-01-01 00:00:00.125'"),
    ("DATETIME", "'2020-12-31 23:59:59.5'"),
    ("DATE", "'2020-01-01 23:59:59.9'"),
    ("TIME", "TIMESTAMP'2020-01-01 10:00:00.7'"),
    ("INT", "TIME'10:00:00.6'"),
    ("DECIMAL(20,0)", "TIME'10:00:00.6'"),
    ("VARCHAR(30)", "TIME'10:00:00.6'"),
    ("TIME", "100000.5"),
    ("DATETIME", "20200101000000.5"),
    ("DATETIME(6)", "'2020-01-01 00:00:00.1234567'"),
    ("DATETIME(6)", "'2020-01-01 00:00:00.9999999'"),
    ("DATETIME(2)", "'2020-01-01 00:00:00.1299999999999'"),
    ("DATETIME(6)", "'2020-01-01 00:00:00.12345678901234567890'"),
    ("TIME(6)", "'10:00:00.12345678'"),
    ("TIME(6)", "100000.1234567"),
    ("TIME(3)", "100000.12345678"),
    ("DATETIME", "20200101000000.9999999"),
    ("DATETIME(6)", "20200101000000.1234567"),
    ("TIMESTAMP(6)", "'2020-01-01 00:00:00.0000005'"),
    ("DATETIME(6)", "'0000-00-00 00:00:00.0000001'"),
    ("DATETIME(3)", "'2020-00-01 10:00:00.12345678'"),
    ("TIME", "'1 10:00:00.9999999'"),
    ("TIME", "'838:59:59.9'"),
    ("TIME(1)", "'838:59:59.9'"),
    ("TIME(1)", "'-838:59:59.9'"),
    ("TIME(6)", "'838:59:59.999999'"),
    ("TIME(6)", "'838:59:59.9999999'"),
    ("TIME(6)", "8385959.5"),
    ("DATETIME", "'9999-12-31 23:59:59.9'"),
    ("TIMESTAMP NULL", "0.25"),
    ("TIMESTAMP NULL", "'2038-01-19 03:14:07.5'"),
    # the TIMESTAMP range's first second, from its first fraction on
    ("TIMESTAMP(2) NULL", "'1970-01-01 00:00:00.01'"),
    ("TIMESTAMP(2) NULL", "'1970-01-01 00:00:00.005'"),
    ("TIMESTAMP(6) NULL", "'1970-01-01 00:00:00.000001'"),
    ("TIMESTAMP(6) NULL", "'1970-01-01 00:00:00.0000006'"),
    ("TIMESTAMP NULL", "'1970-01-01 00:00:00.5'"),
    ("TIMESTAMP(1) NULL", "'1970-01-01 00:00:00.95'"),
    # rounded twice where the mode rounds (to six digits, then to the column's), cut once
    ("TIME(2)", "'00:00:00.0049995'"),
    ("TIME(2)", "0.0049995"),
    ("DATETIME(2)", "'2020-00-01 10:00:00.0049995'"),
    ("DATETIME(3)", "'2020-00-01 10:00:00.9999999'"),
    # a date alone as a number: no fraction, but its nanoseconds rounded into one
    ("DATETIME(6)", "20260101.9999995"),
    ("DATETIME(6)", "1231.9999995"),
    # doubles, by their binary value; a number of 999999 microseconds refused as a TIME
    ("TIME(2)", "1.9e0"),
    ("TIME(1)", "-100.55e0"),
    ("DATETIME(6)", "20260101.9999995e0"),
    ("TIME(6)", "59.999999"),
    ("TIME", "0.9999995e0"),
    ("TIME(6)", "100000.9999999"),
]


@pytest.mark.parametrize("mode", ["", "TIME_ROUND_FRACTIONAL"], ids=["cut", "rounded"])
def test_a_replica_of_mariadb_reads_fractions_under_its_sql_mode(
    replica: tuple[Any, Catalog], mode: str
) -> None:
    """Each literal of :data:`FRACTIONS`, on the server under its default sql_mode with and
    without TIME_ROUND_FRACTIONAL, and on a replica's catalog given that mode: the default it
    keeps, or its refusal, is the server's (cut past the column's digits, or rounded under
    the mode, carrying into the next second; digits past the sixth cut first when cutting;
    a TIME's fraction of its last second kept, as MariaDB's range holds it)."""
    conn, cat = replica
    with conn.cursor() as cur:
        cur.execute("SET SESSION sql_mode = CONCAT(@@global.sql_mode, ',', %s)", (mode,))
        cur.execute("SELECT @@session.sql_mode")
        (sql_mode,) = cur.fetchone()
    try:
        for sql_type, literal in FRACTIONS:
            server = _server_default(conn, sql_type, literal)
            try:
                cat.execute(f"ALTER TABLE t ADD x {sql_type} DEFAULT {literal}", sql_mode=sql_mode)
            except mvdd.MvddError:
                mine = None
            else:
                kept = cat.table("t").column("x").default
                cat.execute("ALTER TABLE t DROP x")
                mine = format(kept, "f") if isinstance(kept, Decimal) else str(kept)
            assert mine == server, (mode, sql_type, literal)
    finally:
        with conn.cursor() as cur:
            cur.execute("SET SESSION sql_mode = DEFAULT")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(TYPES), literal=st.one_of(numbers, digit_strings, punctuated))
def test_any_number_or_date_reads_as_on_the_server_in_a_replica(
    replica: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    conn, cat = replica
    _agree(conn, cat, sql_type, literal)


#: typed temporal literals: each word before texts of its own kind and of the others' (a
#: TIME's digits alone of any length, a date's of the lengths MySQL documents: see above)
_dates = st.one_of(digit_strings, punctuated)
temporal_literals = st.one_of(
    st.builds(
        lambda word, text: f"{word}{text}",
        st.sampled_from(["DATE", "TIMESTAMP", "date ", "TIMESTAMP "]),
        _dates,
    ),
    st.builds(
        lambda word, text: f"{word}{text}",
        st.sampled_from(["TIME", "Time "]),
        st.one_of(_dates, time_strings, st.sampled_from(["'10:00'", "'-1 2:3'", "'1:2:3.4567'"])),
    ),
)
#: the types a temporal literal's DEFAULT is folded into (but FLOAT and DOUBLE, whose digits
#: the server shows its own way: tests/test_mariadb_server.py holds those)
LITERAL_TYPES = [*TYPES, "INT", "BIGINT UNSIGNED", "DECIMAL(20,3)", "VARCHAR(40)", "CHAR(8)"]


def _a_day_of_its_own(sql_type: str, literal: str) -> bool:
    """A TIME literal as a date column's DEFAULT: the server takes the day the statement ran
    on, which a catalog cannot know (a replica keeps the expression)."""
    word = literal.split("'")[0].strip().upper()
    return word == "TIME" and sql_type.startswith(("DATE", "TIMESTAMP"))


def _zero_in_date(literal: str) -> bool:
    """A DATE or TIMESTAMP literal of a date with a zero month or day but not the zero date:
    MariaDB takes it, mvdd refuses it (one of the differences on purpose)."""
    word, text = literal.split("'")[:2]
    if word.strip().upper() not in ("DATE", "TIMESTAMP"):
        return False
    m = re.match(r"(\d{1,4})\D(\d{1,2})\D(\d{1,2})", text) or re.fullmatch(
        r"(\d{2}|\d{4})(\d{2})(\d{2})(?:\d{6})?(?:\.\d*)?", text
    )
    if m is None:
        return False
    y, mo, d = (int(part) for part in m.groups())
    return 0 in (mo, d) and (y, mo, d) != (0, 0, 0)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from([*LITERAL_TYPES, "YEAR"]), literal=temporal_literals)
@example(sql_type="INT", literal="TIME'10:00:01.5'")
@example(sql_type="TIME(2)", literal="TIMESTAMP'2026-01-01 12:30:45.789'")
@example(sql_type="UUID", literal="DATE'2026-01-01'")  # (refused: mvdd kept the expression)
@example(sql_type="INET4", literal="TIME'10:00:00'")
@example(sql_type="POINT", literal="TIMESTAMP'2026-01-01 00:00:00'")
def test_a_typed_temporal_literal_reads_as_on_the_server(
    replica: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    """``DATE '…'``, ``TIME '…'`` and ``TIMESTAMP '…'``: refused where the server refuses the
    text (its error 1525) or the value (1067), and as a DEFAULT alone the value the server
    keeps, as the column's type holds it. Left out: the differences on purpose of the module
    docstring (a date with a zero month or day, a TIME of eight digits or more), and a TIME
    literal in a date column (:func:`_a_day_of_its_own`)."""
    conn, cat = replica
    eight_digit_time = re.fullmatch(r"TIME ?'\d{8,}(\.\d*)?'", literal, re.IGNORECASE)
    if not (_a_day_of_its_own(sql_type, literal) or _zero_in_date(literal) or eight_digit_time):
        _agree(conn, cat, sql_type, literal)


#: ODBC's escapes of the typed temporal literals, by the literal's word (in lower case only:
#: ``{D '…'}`` is the string)
_ODBC_WORDS = {"DATE": ["d", "D"], "TIMESTAMP": ["ts", "Ts", "`ts`"], "TIME": ["t", "`t`", "T"]}
#: (the escape, the typed literal it stands for)
odbc_literals = temporal_literals.flatmap(
    lambda typed: st.sampled_from(_ODBC_WORDS[typed.split("'")[0].strip().upper()]).map(
        lambda escape: (f"{{{escape} '{typed.split(chr(39))[1]}'}}", typed)
    )
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from([*LITERAL_TYPES, "YEAR"]), escaped=odbc_literals)
@example(sql_type="VARCHAR(40)", escaped=("{d '2020-02-30'}", "DATE'2020-02-30'"))
@example(sql_type="INT", escaped=("{ts '2020-01-01'}", "TIMESTAMP'2020-01-01'"))
def test_an_odbc_escape_reads_as_on_the_server(
    replica: tuple[Any, Catalog], sql_type: str, escaped: tuple[str, str]
) -> None:
    """``{d '…'}``, ``{t '…'}`` and ``{ts '…'}``: the typed literal of a text of its form, and
    the string of any other text, as a DEFAULT alone what the server keeps. Left out: what the
    typed literal's test leaves out (the literal the escape stands for decides)."""
    conn, cat = replica
    literal, typed = escaped
    eight_digit_time = re.fullmatch(r"TIME ?'\d{8,}(\.\d*)?'", typed, re.IGNORECASE)
    if not (_a_day_of_its_own(sql_type, typed) or _zero_in_date(typed) or eight_digit_time):
        _agree(conn, cat, sql_type, literal)


#: numbers written with an exponent: doubles to the servers
doubles = st.builds(
    lambda sign, mantissa, power: f"{sign}{mantissa}e{power}",
    st.sampled_from(["", "-"]),
    st.one_of(
        st.sampled_from(["1", "2.5", "3.5", "0", "1.234", "9.99", "3.333333333333333333"]),
        st.builds(lambda i, f: f"{i}.{f}", st.integers(0, 10**6), st.integers(0, 10**18)),
    ),
    st.integers(-330, 330),
)
DOUBLE_TYPES = [
    "VARCHAR(3)",
    "VARCHAR(5)",
    "CHAR(8)",
    "VARCHAR(30)",
    "VARBINARY(6)",
    "INT",
    "TINYINT UNSIGNED",
    "INT UNSIGNED",
    "DECIMAL(30,20)",
    "YEAR",
    "BIT(8)",
]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(DOUBLE_TYPES), literal=doubles)
@example(sql_type="VARCHAR(30)", literal="1e15")
@example(sql_type="VARCHAR(30)", literal="1.234e-16")
@example(sql_type="VARCHAR(3)", literal="1e2")
@example(sql_type="VARCHAR(5)", literal="0.6666666666666666e0")
@example(sql_type="INT", literal="2.5e0")
@example(sql_type="DECIMAL(30,20)", literal="3.333333333333333333e0")
def test_a_double_reads_as_on_the_server(
    replica: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    """A number with an exponent is a double: a string column takes the text the server
    writes for it (``1e2`` is ``'100'``, ``1e15`` is ``'1e15'``, fewer digits in a narrow
    column), an integer column rounds it half to even, a DECIMAL takes its shortest digits."""
    conn, cat = replica
    if sql_type.startswith("DECIMAL") and abs(int(literal.partition("e")[2])) > 38:
        return  # left out: a double past a DECIMAL's 38 digits of scale, which mvdd rounds
    if 0 < abs(float(literal)) < sys.float_info.min:
        return  # left out: a subnormal double, whose shortest digits the servers find otherwise
    _same_default(conn, cat, sql_type, literal)


#: the other families' types, each read its own way
OTHER_TYPES = [
    "TINYINT",
    "SMALLINT UNSIGNED",
    "BIGINT",
    "DECIMAL(6,2)",
    "DECIMAL(4,0) UNSIGNED",
    "FLOAT(7,2)",
    "DOUBLE(6,3) UNSIGNED",
    "DOUBLE",
    "BIT(6)",
    "CHAR(4)",
    "VARCHAR(5)",
    "VARCHAR(6) CHARACTER SET latin1",
    "VARCHAR(4) CHARACTER SET ascii",
    "BINARY(3)",
    "VARBINARY(4)",
    "ENUM('1','2','a','b ')",
    "SET('1','2','x')",
    "YEAR",
]
#: literals of every form: numbers (signed, with a fraction or an exponent), strings of
#: digits, letters, spaces and escapes, hex and bit strings, TRUE, NULL, N'' and introducers
other_literals = st.one_of(
    st.builds(
        lambda sign, whole, fraction: f"{sign}{whole}{fraction}",
        st.sampled_from(["", "-", "- "]),
        st.sampled_from(["0", "1", "2", "3", "5", "7", "99", "127", "128", "255", "1000", "65536"]),
        st.sampled_from(["", ".0", ".5", ".49", ".995", "e0", "e2", ".5e1", "e-1"]),
    ),
    st.builds(
        lambda body: f"'{body}'",
        st.sampled_from(
            [
                "",
                "1",
                "2",
                "12",
                " 12 ",
                "1.5",
                "-3",
                "a",
                "b",
                "b ",
                "x",
                "1,2",
                "2,x",
                "abcde",
                "é",
                "\\n",
                "\\0",
                "a\\%",
                "it''s",
                "1e2",
                "0x1A",
                "1,x,1",
            ]
        ),
    ),
    st.sampled_from(
        [
            "0x41",
            "0x0102",
            "X'41'",
            "x'4142'",
            "b'101'",
            "B'1000001'",
            "b''",
            "b'000000001'",
            "b'0000000000000000'",
            "TRUE",
            "FALSE",
            "NULL",
            "N'ab'",
            "_latin1'ab'",
            "_latin1'é'",
            "_ascii'é'",
            "_binary'ab'",
            "'a' 'b'",
        ]
    ),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(OTHER_TYPES), literal=other_literals)
# a negative integer's or double's 64 bits in a BIT(64); a decimal's fraction refused there
@example(sql_type="BIT(64)", literal="-1")
@example(sql_type="BIT(64)", literal="-1.5e0")
@example(sql_type="BIT(64)", literal="-1e30")
@example(sql_type="BIT(64)", literal="-1.5")
@example(sql_type="BIT(64)", literal="-9223372036854775809")
# a binary string in a text column: its bytes in the column's charset
@example(sql_type="CHAR(3) CHARACTER SET latin1", literal="X'F6A7'")
@example(sql_type="VARCHAR(6) CHARACTER SET latin1", literal="b'11111111'")
@example(sql_type="VARCHAR(6) CHARACTER SET cp1251", literal="0xC0")
@example(sql_type="VARCHAR(6) CHARACTER SET ucs2", literal="X'41'")
@example(sql_type="VARCHAR(6)", literal="_ucs2 X'41'")  # (padded under an introducer too)
@example(sql_type="ENUM('é','b') CHARACTER SET latin1", literal="X'E9'")
@example(sql_type="VARCHAR(6)", literal="X'FF'")
@example(sql_type="VARCHAR(5) CHARACTER SET gbk", literal="X'C4E3'")
@example(sql_type="VARCHAR(5) CHARACTER SET gbk", literal="X'90'")  # (an ill-formed sequence)
@example(sql_type="VARCHAR(5) CHARACTER SET sjis", literal="_sjis X'C4E3'")
@example(sql_type="BIT(64)", literal="_latin1'é'")
# any byte kept in a text column of one byte a character, the column's own charset's alone
@example(sql_type="VARCHAR(4) CHARACTER SET ascii", literal="X'F6'")
@example(sql_type="VARCHAR(4) CHARACTER SET ascii", literal="_ascii'é'")
@example(sql_type="VARCHAR(4) CHARACTER SET ascii", literal="_binary'é'")
@example(sql_type="VARCHAR(6) CHARACTER SET latin1", literal="_ascii X'F6'")
# a _binary string's bytes read in a text column's charset (mvdd kept its text)
@example(sql_type="VARCHAR(6) CHARACTER SET ucs2", literal="_binary'ab'")
@example(sql_type="VARCHAR(6) CHARACTER SET latin1", literal="_binary'é'")
# a number of a date with a zero month or day kept, as a text of one is (no number below
# a range's first date: 100 is none); a typed literal in a BIT its text's bytes
@example(sql_type="DATETIME", literal="1000")
@example(sql_type="DATE", literal="100")
@example(sql_type="DATE", literal="700100")
@example(sql_type="DATE", literal="20260001")
@example(sql_type="DATETIME(3)", literal="20260100123000.12345")
@example(sql_type="BIT(64)", literal="TIME'1:2'")
@example(sql_type="BIT(64)", literal="TIME'-1:2'")
# a double's whole text in a string column of a charset not ASCII's, not fitted to it
@example(sql_type="VARCHAR(5) CHARACTER SET ucs2", literal="1.234567e0")
@example(sql_type="CHAR(5) CHARACTER SET sjis", literal="1.234567e0")
@example(sql_type="VARCHAR(10) CHARACTER SET utf16", literal="123456789.5e0")
@example(sql_type="VARCHAR(5) CHARACTER SET utf32", literal="1.5e0")
@example(sql_type="VARCHAR(5) CHARACTER SET cp932", literal="1.234567e0")
# a double past BIGINT's range in a BIT(64): C's cast, 2**63
@example(sql_type="BIT(64)", literal="1e19")
# a hex or bit number past 64 bits, leading zeros too; X'…' a string's bytes in a BIT
@example(sql_type="BIT(64)", literal="0x0000000000000000FF")
@example(sql_type="BIT(64)", literal="X'000000000000000001'")
@example(sql_type="FLOAT(7,2)", literal="0x0000000000000000FF")
# a text past a FLOAT's or DOUBLE(M,D)'s range is its end; a number literal there refused
@example(sql_type="FLOAT(7,2)", literal="'123456.789'")
@example(sql_type="FLOAT", literal="'-1e39'")
@example(sql_type="FLOAT(7,2)", literal="-123456.789")
@example(sql_type="DOUBLE(6,3) UNSIGNED", literal="'1e10'")  # (an unsigned one's too)
@example(sql_type="FLOAT UNSIGNED", literal="'1e39'")
# a FLOAT(M,D) holds a single-precision float, whatever M
@example(sql_type="FLOAT(10,0)", literal="74207193.0776641")
@example(sql_type="FLOAT(20,2)", literal="123456789.125")
@example(sql_type="FLOAT(10,0)", literal="'-582025130688.6'")
def test_any_literal_of_the_other_families_reads_as_on_the_server_in_a_replica(
    replica: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    """Any literal in a column of any other family: a replica of MariaDB takes the default the
    server keeps, or refuses it as the server does."""
    conn, cat = replica
    _same_default(conn, cat, sql_type, literal)


#: numbers with an exponent of the lengths a time (``hhmmss``), a date (``YYYYMMDD``) and a date
#: and time are written in, with fractions at the edges of a microsecond: doubles whose binary
#: value lies below their digits (``1.9e0`` is 1.899999…), and fractions whose microseconds
#: are 999999
temporal_doubles = st.builds(
    lambda sign, whole, fraction: f"{sign}{whole}.{fraction}e0",
    st.sampled_from(["", "", "-"]),
    st.one_of(
        st.integers(0, 60),
        st.integers(0, 235959),
        st.integers(0, 8385959),
        st.integers(19700101, 20380119),
        st.sampled_from([0, 1, 59, 100000, 8385959, 20260101, 19700101000001, 20260101123000]),
    ),
    st.one_of(
        st.text(alphabet="0123456789", min_size=1, max_size=10),
        st.sampled_from(["5", "9", "25", "999999", "9999995", "99999849", "0000005", "4999995"]),
    ),
)
TEMPORAL_TYPES = [
    "TIME",
    "TIME(2)",
    "TIME(6)",
    "DATETIME",
    "DATETIME(3)",
    "DATE",
    "TIMESTAMP(2) NULL",
]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql_type=st.sampled_from(TEMPORAL_TYPES), literal=temporal_doubles)
@example(sql_type="TIME(2)", literal="1.9e0")
@example(sql_type="TIME(6)", literal="4.6e0")
@example(sql_type="DATETIME(3)", literal="20260101123000.9e0")
@example(sql_type="TIME(6)", literal="59.999999e0")
@example(sql_type="TIME", literal="1.9999995e0")
@example(sql_type="TIME(6)", literal="59.9999989e0")
@example(sql_type="DATETIME(3)", literal="20260101.9999995e0")
@example(sql_type="TIME(2)", literal="1e300")
@example(sql_type="DATETIME", literal="-0.0000000001")
@example(sql_type="DATE", literal="-1e-20")
@example(sql_type="TIMESTAMP(2) NULL", literal="-4.1e-9")
@example(sql_type="DATETIME(3)", literal="123456789012345678901234567890.5")
def test_a_double_reads_as_a_time_as_on_the_server_in_a_replica(
    replica: tuple[Any, Catalog], sql_type: str, literal: str
) -> None:
    """A double as a time's or a date's DEFAULT in a replica of MariaDB: its binary value's
    whole seconds and its fraction cut to microseconds (``1.9e0`` in a TIME(2) is
    ``00:00:01.89``), then to the column's digits; a fraction of 999999 microseconds refused
    in a TIME, as the server refuses it; a number past every range refused (``1e300``, which
    mvdd's cut of a fraction failed on). Left out: what the module leaves out on purpose (a
    date with a zero month or day, a TIME of eight digits or more)."""
    conn, cat = replica
    whole = literal.lstrip("-").partition(".")[0]
    if sql_type.split("(")[0] == "TIME" and len(whole.lstrip("0")) >= 8:
        return
    _agree(conn, cat, sql_type, literal)
