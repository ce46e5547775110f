"""Hypothesis strategies shared by the tests: identifiers (hostile ones included), column types
and definitions, expressions, and whole tables, all as MySQL text."""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from mvdd.model.encoding import holds
from mvdd.model.kind import PLUGIN_BYTES, Family, TypeKind
from mvdd.model.plugin import from_text, text_of
from mvdd.model.types import ColumnType

#: names that have broken SQL tools: reserved words, quotes, backticks, separators, unicode
HOSTILE_NAMES = [
    "select",
    "from",
    "order",
    "key",
    "index",
    "primary",
    "check",
    "drop",
    "a`b",
    "``",
    "x;y",
    "drop table t",
    "'q'",
    '"dq"',
    "a b",
    "--",
    "/*",
    "*/",
    "\\",
    "名前",
    "ü",
    "Ελληνικά",
    "CamelCase",
    "1e5",
    "0x1",
    "NULL",
    "%s",
    "{x}",
]
PLAIN_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "x", "y", "z", "id", "name", "value"]


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


names = st.sampled_from(PLAIN_NAMES + HOSTILE_NAMES)

# (type SQL, a literal default the type holds)
TYPES = [
    ("INT", "7"),
    ("TINYINT UNSIGNED", "200"),
    ("BIGINT", "-5"),
    ("SMALLINT", "0"),
    ("DECIMAL(8,2)", "1.25"),
    ("DOUBLE", "2.5"),
    ("FLOAT", "0.5"),
    ("BIT(4)", "b'101'"),
    ("CHAR(3)", "'abc'"),
    ("VARCHAR(20)", "'it''s'"),
    ("VARCHAR(5) CHARACTER SET latin1", "'x'"),
    ("CHAR(4) CHARACTER SET binary", "'ab'"),
    ("TEXT", "'t'"),
    ("BLOB", "'b'"),
    ("VARBINARY(8)", "x'00ff'"),
    ("ENUM('a','b','c''d')", "'b'"),
    ("SET('r','w','x')", "'w,r'"),
    ("DATE", "'2020-01-31'"),
    ("TIME(2)", "'12:00:01.5'"),
    ("DATETIME(3)", "'2021-02-03 04:05:06.789'"),
    ("TIMESTAMP NULL", "'2020-06-01 00:00:00'"),
    ("YEAR", "1999"),
    ("JSON", "'{}'"),
    ("UUID", "'123E4567E89B12D3A456426655440000'"),
    ("INET4", "'10.0.0.01'"),
    ("INET6", "'::ffff:10.0.0.1'"),
    ("VARCHAR(20) COMPRESSED", "'z'"),
    ("BLOB COMPRESSED", "'b'"),
]
types = st.sampled_from(TYPES)
#: types an index may cover without a prefix (none COMPRESSED: MariaDB keys none of those)
INDEXABLE = [
    t
    for t in TYPES
    if "COMPRESSED" not in t[0]
    and t[0].split("(")[0]
    in (
        "INT",
        "TINYINT UNSIGNED",
        "BIGINT",
        "SMALLINT",
        "DECIMAL",
        "CHAR",
        "VARCHAR",
        "DATE",
        "DATETIME",
        "UUID",
        "INET6",
    )
]


@st.composite
def column_defs(draw: st.DrawFn, name: str | None = None, *, indexable: bool = False) -> str:
    """A column definition that can be added to a table with rows (nullable or defaulted)."""
    ctype, default = draw(st.sampled_from(INDEXABLE if indexable else TYPES))
    nullable = draw(st.booleans())
    parts = [quote(name if name is not None else draw(names)), ctype]
    if not nullable:
        parts += ["NOT NULL", "DEFAULT", default]
    elif draw(st.booleans()):
        parts += ["DEFAULT", draw(st.sampled_from([default, "NULL"]))]
    if draw(st.booleans()):
        parts += [
            "COMMENT",
            "'" + draw(st.text(max_size=8)).replace("\\", "\\\\").replace("'", "''") + "'",
        ]
    return " ".join(parts)


# --- expressions ---------------------------------------------------------------------------

_COLUMNS = ["a", "b", "c"]
_atoms = st.one_of(
    st.sampled_from([quote(c) for c in _COLUMNS]),
    st.integers(min_value=-3, max_value=9).map(str),
    st.sampled_from(["NULL", "TRUE", "FALSE"]),
    # hex and bit literals: bytes (a bit literal's leading zero ones kept) that read as numbers
    st.sampled_from(["0x1F", "X'0A'", "x''", "b'101'", "b'000000001'", "b''"]),
)


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    # every composite is parenthesised, so the text is valid MySQL whatever nests inside;
    # normalisation must then drop the parentheses precedence does not need
    binary = st.tuples(
        inner,
        st.sampled_from(
            [
                "+",
                "-",
                "*",
                "=",
                "<>",
                "!=",
                "<",
                "<=",
                ">",
                ">=",
                "AND",
                "OR",
                "XOR",
                "<=>",
                "&&",
                "||",
                "DIV",
                "%",
            ]
        ),
        inner,
    ).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
    return st.one_of(
        binary,
        inner.map(lambda e: f"(NOT {e})"),
        inner.map(lambda e: f"(!{e})"),
        inner.map(lambda e: f"(-{e})"),
        inner.map(lambda e: f"({e} IS NULL)"),
        inner.map(lambda e: f"({e} IS NOT NULL)"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} BETWEEN {t[1]} AND {t[2]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} NOT IN ({t[1]}, {t[2]}))"),
        st.tuples(inner, inner).map(lambda t: f"COALESCE({t[0]}, {t[1]})"),
        inner.map(lambda e: f"ABS({e})"),
        st.tuples(inner, inner, inner).map(
            lambda t: f"(CASE WHEN {t[0]} THEN {t[1]} ELSE {t[2]} END)"
        ),
    )


expressions = st.recursive(_atoms, _extend, max_leaves=8)


# --- values -----------------------------------------------------------------------------------


def values(ctype: ColumnType) -> st.SearchStrategy[Any]:
    """Values a column of this type holds (canonical Python values)."""
    fam = ctype.family
    if fam == Family.INTEGER:
        lo, hi = ctype.integer_range()
        return st.integers(lo, hi)
    if fam == Family.DECIMAL:
        assert ctype.precision is not None and ctype.scale is not None
        bound = 10 ** (ctype.precision - ctype.scale) - 1
        low = 0 if ctype.unsigned else -bound
        return st.decimals(low, bound, places=ctype.scale, allow_nan=False).map(ctype.coerce)
    if fam == Family.FLOAT:  # values exact in single precision, so both sides print alike
        return st.integers(-4000, 4000).map(lambda k: k / 4)
    if fam == Family.BIT:
        return st.integers(0, 2 ** (ctype.length or 1) - 1)
    if fam in (Family.CHAR, Family.TEXT):
        limit = min(ctype.max_length() or 10, 10)
        return st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=limit).map(
            lambda s: ctype.coerce("".join(c for c in s if holds(ctype.charset, c) is not False))
        )  # (the characters its charset writes)
    if fam == Family.BINARY:
        return st.binary(max_size=ctype.length or 4).map(ctype.coerce)
    if fam == Family.BLOB:
        return st.binary(max_size=min(ctype.max_length() or 8, 8))
    if fam == Family.ENUM:
        if ctype.kind == TypeKind.ENUM:
            return st.sampled_from(ctype.members)
        return st.sets(st.sampled_from(ctype.members)).map(
            lambda s: ctype.coerce(",".join(sorted(s)))
        )
    if ctype.kind == TypeKind.YEAR:
        return st.integers(1901, 2155)
    if ctype.kind == TypeKind.DATE:
        return st.dates(dt.date(1000, 1, 1), dt.date(9999, 12, 31)).map(ctype.coerce)
    if ctype.kind == TypeKind.DATETIME:
        return st.datetimes(dt.datetime(1000, 1, 1), dt.datetime(9999, 12, 31)).map(ctype.coerce)
    if ctype.kind == TypeKind.TIMESTAMP:  # inside its range whatever the session's time zone
        return st.datetimes(dt.datetime(1971, 1, 1), dt.datetime(2037, 12, 31)).map(ctype.coerce)
    if ctype.kind == TypeKind.TIME:
        return st.timedeltas(-dt.timedelta(hours=838), dt.timedelta(hours=838)).map(ctype.coerce)
    if fam == Family.PLUGIN:  # any bytes, as the server prints them, if it reads that back
        size = PLUGIN_BYTES[ctype.kind]
        return (
            st.binary(min_size=size, max_size=size)
            .map(functools.partial(text_of, ctype.kind))
            .filter(lambda text: from_text(ctype.kind, text) is not None)
        )
    raise AssertionError(f"no strategy for {ctype}")


def canonical(ctype: ColumnType, value: Any) -> Any:
    """A value read back from the server, as the canonical value of its type."""
    if value is None:
        return None
    if ctype.family == Family.FLOAT:
        return float(value)
    if ctype.family == Family.ENUM and isinstance(value, set):
        value = ",".join(value)
    return ctype.coerce(value)


def db_param(ctype: ColumnType, value: Any) -> Any:
    """A canonical value as a pymysql parameter."""
    if isinstance(value, Decimal):
        return str(value)
    if ctype.family == Family.BIT and isinstance(value, int):
        return value.to_bytes(8, "big")
    return value
