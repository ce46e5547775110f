"""Row images decoded with the catalog's schema: what each table map must say, the columns
mvdd hands the decoding library, and the values it hands back.

A row event's bytes carry no column names, signedness, ENUM/SET members or charsets (unless the
server logs ``binlog_row_metadata=FULL``). mvdd takes them from the table version the catalog
holds at the event's position: :func:`row_image` lists the columns of a version as the server
logs them (every column in order, generated ones included, then one hidden ``DB_ROW_HASH_n``
per MariaDB long unique key), :func:`check_table_map` compares a table map with that list
before anything is decoded (:class:`~mvdd.errors.SchemaDriftError` on any difference), and
:meth:`Plan.install` gives the library's column objects the names, signedness, members and
charsets it decodes with. :meth:`Plan.row` turns the library's values into mvdd's:

==================  ==============================================================
column              value
==================  ==============================================================
NULL                ``None``
integers            ``int`` (UNSIGNED exact)
DECIMAL             ``Decimal``
FLOAT / DOUBLE      ``float``
BIT                 ``int``
text, ENUM          ``str`` (decoded with the column's charset; an ENUM's label)
SET                 ``set[str]`` (``set()`` when empty)
a member's bytes    an ENUM's or a SET's member as the catalog holds it: a byte its charset
its charset does    does not read (kept by a ``CONVERT TO``, or a hex literal's) Python's
not read            ``surrogateescape`` character (:data:`~mvdd.model.encoding.KEPT_BYTE`),
                    which :func:`~mvdd.model.encoding.bytes_in` writes back as the byte;
                    :func:`~mvdd.model.encoding.without_kept` shows it as the server does (``?``)
binary strings      ``bytes`` (``b""`` when empty; BINARY(n) padded with zero bytes)
DATE / DATETIME     ``date`` / ``datetime``; TIMESTAMP as a naive ``datetime`` in UTC; a
                    value that is no Python date (the zero date, a zero month or day, a
                    day its month lacks) its text: ``'0000-00-00 00:00:00'``
TIME                ``timedelta``
YEAR                ``int`` (``0`` for the zero year)
JSON                MySQL: the parsed value; MariaDB: text (``str``)
spatial             ``bytes`` (the server's internal WKB with SRID)
UUID, INET4, INET6  ``str``: the text the server prints (MariaDB logs the bytes)
==================  ==============================================================
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from pymysqlreplication.constants import FIELD_TYPE as F
from pymysqlreplication.constants.CHARSET import charset_by_id

from mvdd.binlog.library import compressed_value
from mvdd.errors import SchemaDriftError, SchemaUnknownError
from mvdd.model import Column, Table, TypeKind
from mvdd.model.encoding import bytes_in, python_codec, shown_text
from mvdd.model.kind import PLUGIN_BYTES, Family
from mvdd.model.plugin import text_of
from mvdd.model.table import PERIOD_COLUMNS, is_long_unique, period_columns
from mvdd.model.types import COMPRESSIBLE, max_bytes_per_char

#: the codec name that makes the library hand back a string column's raw bytes (it decodes
#: with the column's charset, and keeps the bytes when Python knows no such codec)
RAW = "mvdd-raw-bytes"

# --- charsets ----------------------------------------------------------------------------------


def codec_of(charset: str | None) -> str:
    return python_codec(charset) or RAW


# --- what a table map must say ----------------------------------------------------------------

#: table-map type codes by kind; temporal kinds accept the pre-5.6 formats too
_TYPE_CODES: dict[TypeKind, frozenset[int]] = {
    TypeKind.TINYINT: frozenset({F.TINY}),
    TypeKind.SMALLINT: frozenset({F.SHORT}),
    TypeKind.MEDIUMINT: frozenset({F.INT24}),
    TypeKind.INT: frozenset({F.LONG}),
    TypeKind.BIGINT: frozenset({F.LONGLONG}),
    TypeKind.FLOAT: frozenset({F.FLOAT}),
    TypeKind.DOUBLE: frozenset({F.DOUBLE}),
    TypeKind.DECIMAL: frozenset({F.NEWDECIMAL}),
    TypeKind.BIT: frozenset({F.BIT}),
    TypeKind.CHAR: frozenset({F.STRING}),
    TypeKind.BINARY: frozenset({F.STRING}),
    TypeKind.VARCHAR: frozenset({F.VARCHAR, F.VAR_STRING}),
    TypeKind.VARBINARY: frozenset({F.VARCHAR, F.VAR_STRING}),
    TypeKind.ENUM: frozenset({F.ENUM}),
    TypeKind.SET: frozenset({F.SET}),
    TypeKind.DATE: frozenset({F.DATE, F.NEWDATE}),
    TypeKind.TIME: frozenset({F.TIME2, F.TIME}),
    TypeKind.DATETIME: frozenset({F.DATETIME2, F.DATETIME}),
    TypeKind.TIMESTAMP: frozenset({F.TIMESTAMP2, F.TIMESTAMP}),
    TypeKind.YEAR: frozenset({F.YEAR}),
    **dict.fromkeys(
        (
            TypeKind.TINYTEXT,
            TypeKind.TEXT,
            TypeKind.MEDIUMTEXT,
            TypeKind.LONGTEXT,
            TypeKind.TINYBLOB,
            TypeKind.BLOB,
            TypeKind.MEDIUMBLOB,
            TypeKind.LONGBLOB,
        ),
        frozenset({F.BLOB}),
    ),
    **dict.fromkeys(
        (
            TypeKind.GEOMETRY,
            TypeKind.POINT,
            TypeKind.LINESTRING,
            TypeKind.POLYGON,
            TypeKind.MULTIPOINT,
            TypeKind.MULTILINESTRING,
            TypeKind.MULTIPOLYGON,
            TypeKind.GEOMETRYCOLLECTION,
        ),
        frozenset({F.GEOMETRY}),
    ),
    **dict.fromkeys((TypeKind.UUID, TypeKind.INET4, TypeKind.INET6), frozenset({F.STRING})),
}
#: JSON is a type of its own on MySQL, LONGTEXT on MariaDB
_JSON_CODES = {"mysql": frozenset({F.JSON}), "mariadb": frozenset({F.BLOB})}
#: bytes of a TEXT/BLOB's length prefix, the table map's ``length_size``
_LENGTH_SIZE = {
    TypeKind.TINYTEXT: 1,
    TypeKind.TINYBLOB: 1,
    TypeKind.TEXT: 2,
    TypeKind.BLOB: 2,
    TypeKind.MEDIUMTEXT: 3,
    TypeKind.MEDIUMBLOB: 3,
    TypeKind.LONGTEXT: 4,
    TypeKind.LONGBLOB: 4,
    TypeKind.JSON: 4,
}
_NUMERIC = frozenset({Family.INTEGER, Family.DECIMAL, Family.FLOAT})
_NAMES = {code: name for name, code in vars(F).items() if isinstance(code, int) and name.isupper()}


def _bit(value: Any) -> Any:
    return int(value, 2) if isinstance(value, str) else value


def _year(value: Any) -> Any:
    return 0 if value == 1900 else value  # the library adds 1900 to the stored byte


#: the instant a TIMESTAMP logs for its zero value (the smallest it holds is a second later)
_EPOCH = datetime.datetime(1970, 1, 1)


def _timestamp(fsp: int) -> Callable[[Any], Any]:
    """A TIMESTAMP's value: the library's ``datetime`` of the instant logged, the zero
    timestamp's text where that is the epoch (which no TIMESTAMP holds: its zero value)."""
    zero = "0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else "")

    def convert(value: Any) -> Any:
        return zero if value == _EPOCH else value

    return convert


def _binary(length: int) -> Callable[[Any], Any]:
    def pad(value: Any) -> Any:
        if isinstance(value, str):
            value = value.encode("utf-8", "surrogateescape")
        return value.ljust(length, b"\0") if isinstance(value, bytes) else value

    return pad


def _plugin(kind: TypeKind) -> Callable[[Any], Any]:
    # logged as a fixed string: trailing zero bytes are trimmed, as a BINARY(n)'s are
    pad = _binary(PLUGIN_BYTES[kind])

    def text(value: Any) -> Any:
        value = pad(value)
        return text_of(kind, value) if isinstance(value, bytes) else value

    return text


def _varbinary(value: Any) -> Any:
    return value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value


@attrs.frozen
class Expected:
    """One column of a row image as a table version says the server logs it.

    ``meta`` is the table map's metadata for the column as (attribute, value) pairs the
    library's column object must have; ``convert`` turns the library's value into mvdd's."""

    name: str
    label: str
    codes: frozenset[int]
    meta: tuple[tuple[str, Any], ...] = ()
    unsigned: bool = False
    numeric: bool = False
    enum_values: tuple[str, ...] | None = None
    set_values: tuple[str, ...] | None = None
    codec: str | None = None
    hidden: bool = False
    #: a MariaDB COMPRESSED column: its bytes are read raw, and ``convert`` restores them
    compressed: bool = False
    convert: Callable[[Any], Any] | None = attrs.field(default=None, eq=False)


def _expected(table: Table, col: Column, flavor: str) -> Expected:
    t = col.type
    fam = t.family
    codes = _JSON_CODES[flavor] if t.kind == TypeKind.JSON else _TYPE_CODES[t.kind]
    meta: list[tuple[str, Any]] = []
    convert: Callable[[Any], Any] | None = None
    codec: str | None = None
    charset = table.column_collation(col)[0] if t.has_charset else None
    if fam in (Family.CHAR, Family.TEXT, Family.ENUM) or t.kind == TypeKind.JSON:
        if t.kind == TypeKind.JSON:
            charset = "utf8mb4"
        elif charset is None:
            raise SchemaUnknownError(
                f"the charset of column `{col.name}` follows a database default that is not "
                "known: its text cannot be decoded",
                table=table.name,
                column=col.name,
            )
        codec = codec_of(charset)
    if fam == Family.CHAR:
        meta.append(("max_length", (t.length or 0) * max_bytes_per_char(charset)))
    elif fam == Family.BINARY:
        meta.append(("max_length", t.length or 0))
        codec = RAW
        convert = _binary(t.length or 0) if t.kind == TypeKind.BINARY else _varbinary
    elif t.kind in _LENGTH_SIZE and not (t.kind == TypeKind.JSON and flavor == "mysql"):
        meta.append(("length_size", _LENGTH_SIZE[t.kind]))
        if fam == Family.BLOB:
            codec, convert = RAW, _varbinary
    elif fam == Family.DECIMAL:
        meta += [("precision", t.precision), ("decimals", t.scale)]
    elif fam == Family.BIT:
        meta.append(("bits", t.length))
        convert = _bit
    elif t.kind == TypeKind.YEAR:
        convert = _year
    elif t.kind in (TypeKind.TIME, TypeKind.DATETIME, TypeKind.TIMESTAMP):
        meta.append(("fsp", t.fsp or 0))
        if t.kind == TypeKind.TIMESTAMP:
            convert = _timestamp(t.fsp or 0)
    elif fam == Family.SPATIAL:
        codec, convert = RAW, _varbinary
    elif fam == Family.PLUGIN:
        meta.append(("max_length", PLUGIN_BYTES[t.kind]))
        codec, convert = RAW, _plugin(t.kind)
    if t.kind in COMPRESSIBLE:
        meta.append(("mvdd_compressed", t.compressed))
    if t.compressed:
        # (a VARCHAR's or VARBINARY's longest value is one byte longer: the header's)
        meta = [(a, v + 1 if a == "max_length" else v) for a, v in meta]
        convert = _restored(None if codec == RAW else codec)
    members = t.members  # (as the catalog holds them: a kept byte too, see the module's table)
    return Expected(
        name=col.name,
        label=str(t),
        codes=codes,
        meta=tuple(meta),
        unsigned=t.unsigned or t.kind == TypeKind.YEAR,  # the server logs YEAR as unsigned
        numeric=fam in _NUMERIC or t.kind == TypeKind.YEAR,
        enum_values=("", *members) if t.kind == TypeKind.ENUM else None,
        set_values=members if t.kind == TypeKind.SET else None,
        codec=codec,
        compressed=t.compressed,
        convert=convert,
    )


def _restored(codec: str | None) -> Callable[[Any], Any]:
    """A COMPRESSED column's value (its stored bytes, read raw) restored: its text in
    ``codec``, or its bytes (None)."""

    def restore(value: Any) -> Any:
        data = compressed_value(_varbinary(value))
        return data if codec is None else data.decode(codec)

    return restore


#: the ``row_end`` of a system-versioned table's current rows: the largest TIMESTAMP(6) its
#: server holds (MariaDB's before 11.5, and 11.5's on 64-bit machines); a past row's ends
#: where the statement that changed or deleted it committed
CURRENT_ROW_END = frozenset(
    {
        datetime.datetime(2038, 1, 19, 3, 14, 7, 999999),
        datetime.datetime(2106, 2, 7, 6, 28, 15, 999999),
    }
)
#: the same of a ROW END column of InnoDB's transaction ids (``BIGINT UNSIGNED``): the largest
CURRENT_TRANSACTION_END = frozenset({2**64 - 1})


def _period_end(table: Table) -> tuple[str, frozenset[Any]] | None:
    """A system-versioned table's column that tells a past row from a current one (its hidden
    ``row_end``, or its own ROW END column), and the values it holds in a current row."""
    if not table.options.versioned:
        return None
    own = period_columns(table)
    if own is None:
        return PERIOD_COLUMNS[1], CURRENT_ROW_END
    end = own[1]
    return (
        end.name,
        CURRENT_ROW_END if end.type.kind == TypeKind.TIMESTAMP else CURRENT_TRANSACTION_END,
    )


def row_image(table: Table, flavor: str) -> tuple[Expected, ...]:
    """The columns a row event of ``table`` carries, in order (``flavor``: ``"mariadb"`` or
    ``"mysql"``, whose JSON types differ): its columns, then a system-versioned table's hidden
    ``row_start`` and ``row_end`` (one without period columns of its own), then the hidden hash
    of each long unique key."""
    out = [_expected(table, col, flavor) for col in table.columns]
    if table.options.versioned and period_columns(table) is None:
        out += [
            Expected(
                name=name,
                label="a system-versioned row's hidden TIMESTAMP(6)",
                codes=frozenset({F.TIMESTAMP2}),
                meta=(("fsp", 6),),
                hidden=True,
            )
            for name in PERIOD_COLUMNS
        ]
    hashes = sum(1 for index in table.indexes if is_long_unique(index))
    out += [
        Expected(
            name=f"DB_ROW_HASH_{n}",
            label="the hidden hash of a long unique key",
            codes=frozenset({F.LONGLONG}),
            hidden=True,
        )
        for n in range(1, hashes + 1)
    ]
    return tuple(out)


def _found(column: Any) -> str:
    code = getattr(column, "type", None)
    text = _NAMES.get(code, str(code)) if isinstance(code, int) else str(code)
    extra = [
        f"{a}={getattr(column, a)}"
        for a in ("max_length", "length_size", "bits", "fsp")
        if getattr(column, a, None) is not None
    ]
    if getattr(column, "precision", None) is not None:
        extra.append(f"decimal({column.precision},{column.decimals})")
    if getattr(column, "mvdd_compressed", False):
        extra.append("compressed")
    name = getattr(column, "name", None)
    described = f"{text}({', '.join(extra)})" if extra else text
    return f"`{name}` {described}" if name else described


def check_table_map(
    columns: Sequence[Any],
    expected: Sequence[Expected],
    *,
    names: Sequence[str] | None,
    unsigned: Sequence[bool] | None,
    charsets: Sequence[int | None] | None,
    flavor: str,
    table: str,
    position: Any,
    version: int,
    enums: Sequence[Sequence[str]] | None = None,
    sets: Sequence[Sequence[str]] | None = None,
) -> None:
    """Raise SchemaDriftError unless the table map's columns (count, type codes, metadata;
    names, signedness, charsets and the members of its ENUM and SET columns when the server
    logged them) agree with ``expected``. (Members are compared where the library reads them,
    in a UTF-8 charset: it reads no other.)"""

    def drift(index: int | None, want: str, got: str, why: str) -> SchemaDriftError:
        return SchemaDriftError(
            f"the binlog's table map disagrees with version {version} of the table in the "
            f"catalog ({why}): no row of this event is decoded",
            table=table,
            position=position,
            column=expected[index].name if index is not None and index < len(expected) else None,
            column_index=index,
            expected=want,
            found=got,
        )

    if len(columns) != len(expected):
        raise drift(
            None if not expected else min(len(columns), len(expected)),
            f"{len(expected)} columns",
            f"{len(columns)} columns",
            "column count",
        )
    for i, (col, want) in enumerate(zip(columns, expected, strict=True)):
        if col.type not in want.codes:
            raise drift(i, f"`{want.name}` {want.label}", _found(col), "column type")
        for attr, value in want.meta:
            if getattr(col, attr, None) != value:
                raise drift(
                    i, f"`{want.name}` {want.label} ({attr}={value})", _found(col), "column type"
                )
        if names is not None and names[i] != want.name:
            raise drift(i, f"`{want.name}` {want.label}", f"`{names[i]}`", "column name")
        if unsigned is not None and want.numeric and unsigned[i] != want.unsigned:
            found = "unsigned" if unsigned[i] else "signed"
            raise drift(i, f"`{want.name}` {want.label}", f"`{want.name}` {found}", "signedness")
        if charsets is not None and charsets[i] is not None and want.codec is not None:
            cs = charset_by_id(charsets[i], flavor)
            name = cs.name if cs is not None else f"collation id {charsets[i]}"
            if cs is not None and codec_of(cs.name) != want.codec and want.codec != RAW:
                raise drift(
                    i, f"`{want.name}` {want.label}", f"`{want.name}` charset {name}", "charset"
                )
    logged = {"ENUM": iter(enums or ()), "SET": iter(sets or ())}
    for i, want in enumerate(expected):
        # (an ENUM's values as the library takes them: its index 0, an invalid value's, first)
        members = want.enum_values[1:] if want.enum_values is not None else want.set_values
        if members is None:
            continue
        kind = "ENUM" if want.enum_values is not None else "SET"
        said = next(logged[kind], None)
        if said is None or want.codec != "utf-8" or tuple(said) == tuple(map(_as_logged, members)):
            continue
        raise drift(
            i,
            f"`{want.name}` {kind}{members}",
            f"`{want.name}` {kind}{tuple(said)}",
            "members" + (_LOSSY if _shown_as_logged(members, said) else ""),
        )


def _as_logged(member: str) -> str:
    """A member (of a UTF-8 charset) as the library reads the server's log of it: its bytes as
    UTF-8's text, or ``""`` where they are none (a byte the charset does not read, kept)."""
    try:
        return bytes_in(member, "utf8mb4").decode()
    except UnicodeDecodeError:
        return ""


#: why a table's members can differ from its server's where a character beyond the BMP stood
_LOSSY = (
    "; the server's SHOW CREATE TABLE, which a snapshot reads, writes each character beyond the "
    "Basic Multilingual Plane as ?: its rows cannot be decoded with this version"
)


def _shown_as_logged(members: Sequence[str], logged: Sequence[str]) -> bool:
    """Whether ``members`` are ``logged`` as SHOW CREATE TABLE shows them (each character
    beyond the Basic Multilingual Plane a ?)."""
    return len(members) == len(logged) and all(
        m == shown_text(g) for m, g in zip(members, logged, strict=True)
    )


@attrs.frozen
class Plan:
    """How to decode the rows of one table version: what its table map must say, the columns
    the library decodes with, and the conversions of its values (built once per version)."""

    table: str
    table_id: int
    version: int
    expected: tuple[Expected, ...]
    converts: tuple[tuple[str, Callable[[Any], Any]], ...]
    sets: tuple[str, ...]
    binaries: tuple[str, ...]
    hidden: tuple[str, ...]
    #: a system-versioned table's: the column whose value tells a past row from a current one
    #: (its hidden ``row_end``, or its own ROW END column), and its values in a current row
    period_end: str | None = None
    current: frozenset[Any] = frozenset()

    @classmethod
    def of(cls, name: str, table: Table, flavor: str) -> Plan:
        expected = row_image(table, flavor)
        period = _period_end(table)
        return cls(
            table=name,
            table_id=table.id,
            version=table.version,
            expected=expected,
            converts=tuple((e.name, e.convert) for e in expected if e.convert is not None),
            sets=tuple(e.name for e in expected if e.set_values is not None),
            binaries=tuple(e.name for e in expected if e.codec == RAW),
            hidden=tuple(e.name for e in expected if e.hidden),
            period_end=period[0] if period is not None else None,
            current=period[1] if period is not None else frozenset(),
        )

    def past(self, values: Mapping[str, Any]) -> bool:
        """Whether a row image (the library's values) of a system-versioned table is one of
        its past rows."""
        return values[self.period_end] not in self.current  # type: ignore[index]

    def install(self, columns: Sequence[Any]) -> None:
        """Give the library's column objects of a (checked) table map this version's names,
        signedness, ENUM/SET members and charsets, before any row of it is decoded."""
        for col, want in zip(columns, self.expected, strict=True):
            col.name = want.name
            col.unsigned = want.unsigned
            col.enum_values = list(want.enum_values) if want.enum_values is not None else None
            col.set_values = list(want.set_values) if want.set_values is not None else None
            col.character_set_name = RAW if want.compressed else want.codec

    def row(self, values: dict[str, Any], none_sources: Mapping[str, str]) -> dict[str, Any]:
        """The library's decoded values (keyed by this version's names) as mvdd's values."""
        for name in self.hidden:
            values.pop(name, None)
        for name, convert in self.converts:
            value = values[name]
            if value is not None:
                values[name] = convert(value)
        for name in self.sets:
            if values[name] is None and none_sources.get(name) == "empty set":
                values[name] = set()
        return values


__all__ = [
    "CURRENT_ROW_END",
    "CURRENT_TRANSACTION_END",
    "RAW",
    "Expected",
    "Plan",
    "check_table_map",
    "codec_of",
    "row_image",
]
