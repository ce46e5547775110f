"""sqlglot data types <-> :class:`~mvdd.model.types.ColumnType`, as two rule tables.

Parsing reads a ``DataType`` node (plus the column attributes that belong to the type: charset,
collation, ``ZEROFILL``, the ``BINARY`` attribute) into a canonical ``ColumnType``; rendering
builds the ``DataType`` node back. Aliases resolve here: ``BOOL`` is ``TINYINT(1)``, ``REAL`` is
``DOUBLE``, ``FLOAT(p)`` is ``DOUBLE`` when p > 24, ``TEXT(M)`` is the smallest text size that
holds M characters, ``NCHAR`` is ``CHAR`` in utf8mb3, ``SERIAL`` is ``BIGINT UNSIGNED NOT NULL
AUTO_INCREMENT UNIQUE``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from sqlglot import exp

from mvdd.ddl.dialect import DIALECT, UnsignedFloat
from mvdd.errors import DDLError, DDLParseError, UnsupportedDDLError
from mvdd.model.element import bit_bytes, hex_bytes
from mvdd.model.encoding import KEEPS_BYTES, KEPT_BYTE, bytes_in, kept_text, python_codec, read_as
from mvdd.model.kind import CHARACTER_TWIN, FAMILY, MAX_VARCHAR_BYTES, Family, TypeKind
from mvdd.model.types import (
    ColumnType,
    bin_collation,
    canonical_collation,
    max_bytes_per_char,
    resolve_charset,
    text_kind_for_length,
)

D = exp.DType
K = TypeKind


@attrs.frozen
class TypeAttrs:
    """Column attributes that are part of the type in MySQL's grammar."""

    charset: str | None = None
    collation: str | None = None
    zerofill: bool = False
    binary: bool = False  # the BINARY attribute: the charset's _bin collation
    unsigned: bool = False  # an UNSIGNED after ZEROFILL (one right after the type is its own)
    #: a collation named without its charset and without a CHARACTER SET (``COLLATE
    #: uca1400_ai_ci``): the one of that name of the charset the column takes from its table
    table_collation: str | None = None


@attrs.frozen
class Implied:
    """What a type alias implies beyond the type (``SERIAL``), and what its attributes leave
    to the table: ``bin_collation``, the BINARY attribute without a CHARACTER SET (the
    ``_bin`` collation of the charset the column takes from its table); ``text_chars``, the
    characters of a ``TEXT(M)`` without one (the TEXT kind that holds them in that charset:
    the type meanwhile holds them in four bytes each); ``auto_timestamp``, a TIMESTAMP that
    a session without ``explicit_defaults_for_timestamp`` defined with neither NULL, a
    DEFAULT nor an ON UPDATE: CURRENT_TIMESTAMP for both when it is its table's first
    TIMESTAMP column (:func:`mvdd.ddl.apply.auto_timestamps`); ``members_written``, the
    places of an ENUM's or a SET's members written as a hex or bit literal in a column that
    names no charset, which the table's reads (:func:`read_members`); ``table_collation``, a
    collation named without its charset (``uca1400_ai_ci``) in a column that names none: the
    one of that name of its table's charset."""

    not_null: bool = False
    auto_increment: bool = False
    unique: bool = False
    bin_collation: bool = False
    text_chars: int | None = None
    auto_timestamp: bool = False
    members_written: tuple[int, ...] = ()
    table_collation: str | None = None


# DType -> (kind, unsigned)
_KINDS: dict[Any, tuple[TypeKind, bool]] = {
    D.TINYINT: (K.TINYINT, False),
    D.UTINYINT: (K.TINYINT, True),
    D.SMALLINT: (K.SMALLINT, False),
    D.USMALLINT: (K.SMALLINT, True),
    D.MEDIUMINT: (K.MEDIUMINT, False),
    D.UMEDIUMINT: (K.MEDIUMINT, True),
    D.INT: (K.INT, False),
    D.UINT: (K.INT, True),
    D.BIGINT: (K.BIGINT, False),
    D.UBIGINT: (K.BIGINT, True),
    D.BOOLEAN: (K.TINYINT, False),
    D.SERIAL: (K.BIGINT, True),
    D.DECIMAL: (K.DECIMAL, False),
    D.UDECIMAL: (K.DECIMAL, True),
    D.FLOAT: (K.FLOAT, False),
    D.DOUBLE: (K.DOUBLE, False),
    D.UDOUBLE: (K.DOUBLE, True),
    D.BIT: (K.BIT, False),
    D.CHAR: (K.CHAR, False),
    D.NCHAR: (K.CHAR, False),
    D.VARCHAR: (K.VARCHAR, False),
    D.NVARCHAR: (K.VARCHAR, False),
    D.BINARY: (K.BINARY, False),
    D.VARBINARY: (K.VARBINARY, False),
    D.TINYTEXT: (K.TINYTEXT, False),
    D.TEXT: (K.TEXT, False),
    D.MEDIUMTEXT: (K.MEDIUMTEXT, False),
    D.LONGTEXT: (K.LONGTEXT, False),
    D.TINYBLOB: (K.TINYBLOB, False),
    D.BLOB: (K.BLOB, False),
    D.MEDIUMBLOB: (K.MEDIUMBLOB, False),
    D.LONGBLOB: (K.LONGBLOB, False),
    D.ENUM: (K.ENUM, False),
    D.SET: (K.SET, False),
    D.DATE: (K.DATE, False),
    D.TIME: (K.TIME, False),
    D.DATETIME: (K.DATETIME, False),
    D.TIMESTAMP: (K.TIMESTAMP, False),
    D.TIMESTAMPTZ: (K.TIMESTAMP, False),  # sqlglot's MySQL tokenizer reads TIMESTAMP so
    D.YEAR: (K.YEAR, False),
    D.JSON: (K.JSON, False),
    D.GEOMETRY: (K.GEOMETRY, False),
    D.POINT: (K.POINT, False),
    D.LINESTRING: (K.LINESTRING, False),
    D.POLYGON: (K.POLYGON, False),
    D.MULTILINESTRING: (K.MULTILINESTRING, False),
    D.MULTIPOLYGON: (K.MULTIPOLYGON, False),
    D.UUID: (K.UUID, False),
}

# user-defined type names (types sqlglot has no DType for) -> kind
_NAMED_KINDS: dict[str, TypeKind] = {
    "MULTIPOINT": K.MULTIPOINT,
    "GEOMETRYCOLLECTION": K.GEOMETRYCOLLECTION,
    "GEOMCOLLECTION": K.GEOMETRYCOLLECTION,
    "INET4": K.INET4,
    "INET6": K.INET6,
}
#: kinds rendered by name (sqlglot has no DType for them)
_BY_NAME = frozenset(_NAMED_KINDS.values())


# types some servers have that mvdd does not model (vectors)
_UNMODELLED = frozenset({"VECTOR", "XML", "ROW"})


def _int_params(dt: exp.DataType) -> list[int]:
    out = []
    for param in dt.expressions:
        node = param.this if isinstance(param, exp.DataTypeParam) else param
        if isinstance(param, exp.DataTypeParam) and param.expression is not None:
            raise DDLParseError(f"type parameter {param.sql()!r} is not one number")
        if not (isinstance(node, exp.Literal) and not node.is_string and node.this.isdigit()):
            raise DDLParseError(f"type parameter {param.sql()!r} is not a whole number")
        out.append(int(node.this))
    return out


def _members(dt: exp.DataType, a: TypeAttrs) -> tuple[list[str], tuple[int, ...]]:
    """The members as written, and the places of those written as a hex or bit literal
    (``ENUM(x'61')``), which the server takes as the text their bytes spell in the column's
    charset: read in it when the column names its own (:func:`member_text`); else held as
    their bytes' latin1 text (one character a byte, nothing lost) until the step that puts the
    column in its table reads them in the table's (:func:`read_members`)."""
    out: list[str] = []
    written: list[int] = []
    for node in dt.expressions:
        node = node.this if isinstance(node, exp.DataTypeParam) else node
        if isinstance(node, exp.HexString | exp.BitString):
            text = node.this or ""
            data = bit_bytes(text) if isinstance(node, exp.BitString) else hex_bytes(text)
            charset = resolve_charset(a.charset, a.collation)[0]
            if charset is None:
                written.append(len(out))
                out.append(data.decode("latin1"))
            else:
                out.append(member_text(data, charset, node.sql(dialect=DIALECT)))
            continue
        if not (isinstance(node, exp.Literal) and node.is_string):
            raise DDLParseError(f"enum/set member {node.sql(dialect=DIALECT)!r} is not a string")
        out.append(node.this)
    return out, tuple(written)


def member_text(data: bytes, charset: str, written: str, *, keep: bool = True) -> str:
    """The text of an ENUM's or a SET's member written as the bytes ``data`` (a hex or bit
    literal, as ``written``) in a column of ``charset``: the bytes read in it (``0xE9`` is
    ``'é'`` in latin1, ``0xC3A9`` in utf8mb4). Bytes that are no text of the charset (``0xE9``
    in utf8mb4, a character beyond the BMP in utf8mb3) the server keeps as they are, a member
    its SHOW CREATE TABLE writes as ``?``: so does mvdd
    (:func:`~mvdd.model.encoding.kept_text`), in a charset of
    :data:`~mvdd.model.encoding.KEEPS_BYTES`, where ``keep``. Elsewhere they are an
    UnsupportedDDLError: in the other charsets, and where the member's charset is the table's
    (``keep`` false: its bytes are written back in the column's own charset, which it names
    not). In the charset ``binary`` the member is its bytes, which mvdd holds as text where
    they are ASCII alone; other bytes there, and a charset Python has no codec for, are
    refused the same way."""
    if keep and charset in KEEPS_BYTES:
        kept = kept_text(data, charset)
        if kept is not None:  # (else a sequence without its character: refused below)
            return kept
    codec = "ascii" if charset == "binary" else python_codec(charset)
    try:
        text = data.decode(codec) if codec is not None else None
    except UnicodeDecodeError:
        text = None
    if text is None or (charset != "binary" and read_as(data, charset) != text):
        raise UnsupportedDDLError(
            f"enum/set member {written} is bytes that are no text of the charset {charset} "
            "(the server keeps them as they are and shows a ?); write it as a string"
        )
    return text


def read_members(ctype: ColumnType, written: tuple[int, ...], charset: str | None) -> ColumnType:
    """``ctype`` (an ENUM or a SET of the table's charset) with its members at the places
    ``written`` (held as their bytes' latin1 text: :func:`_members`) read in ``charset``, the
    table's: UnsupportedDDLError when that is not known, or is one whose space is not the byte
    0x20 (ucs2, utf16, utf32: the type's making cut those bytes off the held text as trailing
    spaces)."""
    if not written:
        return ctype
    held = {i: ctype.members[i].encode("latin1") for i in written}
    shown = ", ".join(f"X'{data.hex().upper()}'" for data in held.values())
    if charset is None or (charset != "binary" and read_as(b" ", charset) != " "):
        why = (
            "which is not known (a catalog given its database's: Catalog(charset=…))"
            if charset is None
            else f"{charset}, whose text mvdd does not read from bytes cut at a space"
        )
        raise UnsupportedDDLError(
            f"enum/set member {shown} is the text its bytes spell in the table's charset, {why}"
        )
    members = list(ctype.members)
    for i, data in held.items():
        members[i] = member_text(data, charset, f"X'{data.hex().upper()}'", keep=False)
    return ColumnType.of(ctype.kind, members=tuple(members))


def _arity(kind: TypeKind, params: list[int], most: int) -> None:
    if len(params) > most:
        raise DDLError(f"{kind} takes at most {most} parameters, got {len(params)}")


# --- parse rules, one per family: (kind, DataType, attrs) -> (kind, params) --------------------

ParseRule = Callable[[TypeKind, exp.DataType, TypeAttrs], tuple[TypeKind, dict[str, Any]]]


def _p_integer(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 1)
    width = params[0] if params else (1 if dt.this == D.BOOLEAN else None)
    return kind, {"width": width}


def _p_decimal(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 2)
    return kind, {
        "precision": params[0] if params else None,
        "scale": params[1] if len(params) > 1 else None,
    }


def _p_float(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 2)
    if len(params) == 1:
        if kind == K.DOUBLE:
            raise DDLError("DOUBLE takes (M,D) or nothing")
        # FLOAT(p): the precision in bits picks single or double precision
        if params[0] > 53:
            raise DDLError(f"FLOAT({params[0]}) is beyond double precision (53)")
        return (K.FLOAT if params[0] <= 24 else K.DOUBLE), {}
    if len(params) == 2:
        return kind, {"precision": params[0], "scale": params[1]}
    return kind, {}


#: types whose length the grammar requires (``VARCHAR`` alone is a syntax error)
_LENGTH_REQUIRED = frozenset({K.VARCHAR, K.VARBINARY})


def _p_length(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 1)
    if not params and kind in _LENGTH_REQUIRED:
        raise DDLParseError(f"{kind} needs a length: {kind}(n)")
    return kind, {"length": params[0] if params else None}


def _p_text(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 1)
    if params and params[0] == 0 and kind in (K.TEXT, K.BLOB):
        return kind, {}  # (TEXT(0) is TEXT, as the servers read it)
    if params:
        if kind not in (K.TEXT, K.BLOB):
            raise DDLError(f"{kind} takes no length")
        # (the charset named, or the one of the collation named: TEXT(100) COLLATE latin1_bin
        # is a TINYTEXT; neither: the table's, known when the step applies)
        cs = resolve_charset(a.charset, a.collation)[0] if kind == K.TEXT else None
        return text_kind_for_length(params[0], cs, blob=kind == K.BLOB), {}
    return kind, {}


def _p_enum(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    if not dt.expressions:
        raise DDLParseError(f"{kind} needs its members: {kind}('a', …)")
    members, written = _members(dt, a)
    return kind, {"members": members, "written": written}


def _p_temporal(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    params = _int_params(dt)
    _arity(kind, params, 1)
    if kind == K.YEAR:
        return kind, {"width": params[0] if params else None}
    if kind == K.DATE:
        if params:
            raise DDLError("DATE takes no parameter")
        return kind, {}
    return kind, {"fsp": params[0] if params else None}


def _p_plain(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    if dt.expressions:
        raise DDLError(f"{kind} takes no parameter")
    return kind, {}


def _p_plugin(kind: TypeKind, dt: exp.DataType, a: TypeAttrs) -> tuple[TypeKind, dict[str, Any]]:
    # MariaDB reads and forgets one length (``UUID(16)``, ``INET6(5)``): a value's size is fixed
    _arity(kind, _int_params(dt), 1)
    return kind, {}


_PARSE: dict[Family, ParseRule] = {
    Family.INTEGER: _p_integer,
    Family.DECIMAL: _p_decimal,
    Family.FLOAT: _p_float,
    Family.BIT: _p_length,
    Family.CHAR: _p_length,
    Family.BINARY: _p_length,
    Family.TEXT: _p_text,
    Family.BLOB: _p_text,
    Family.ENUM: _p_enum,
    Family.TEMPORAL: _p_temporal,
    Family.JSON: _p_plain,
    Family.SPATIAL: _p_plain,
    Family.PLUGIN: _p_plugin,
}

_NUMERIC = frozenset({Family.INTEGER, Family.DECIMAL, Family.FLOAT})


def column_type(
    dt: exp.DataType, attrs_: TypeAttrs = TypeAttrs(), *, loose: bool = False, alike: bool = False
) -> tuple[ColumnType, Implied]:
    """The canonical ColumnType of a parsed data type; raises DDLError for an impossible type
    and UnsupportedDDLError for one mvdd does not model (``VECTOR`` ...). ``loose``: the
    session was not strict, where a VARCHAR or a VARBINARY longer than its type holds is the
    TEXT or BLOB kind holding it (:func:`loosened`); ``alike``: an ENUM's or a SET's members
    may be one (:attr:`~mvdd.ddl.rules.Session.members_alike`).

    Types repeat endlessly in a DDL stream and reading one is pure, so a type written with
    literal parameters only (nearly every one) is read once and remembered by what it is made
    of: its node class, kind, name, literals and attributes. A type that fails is not
    remembered (it raises every time, naming itself)."""
    if alike and dt.this in (D.ENUM, D.SET):
        return _column_type(dt, attrs_, duplicates=True)
    if loose:
        return loosened(dt, attrs_)
    key = _type_key(dt, attrs_)
    if key is None:
        return _column_type(dt, attrs_)
    found = _TYPES.get(key)
    if found is None:
        found = _column_type(dt, attrs_)
        if len(_TYPES) >= _TYPES_KEPT:
            _TYPES.clear()
        _TYPES[key] = found
    return found


#: type key -> (ColumnType, Implied); cleared whole when full (types are few: it seldom is)
_TYPES: dict[tuple[Any, ...], tuple[ColumnType, Implied]] = {}
_TYPES_KEPT = 4096


def _type_key(dt: exp.DataType, attrs_: TypeAttrs) -> tuple[Any, ...] | None:
    """What a type's reading depends on, or None when a parameter is not a plain literal."""
    params: list[tuple[bool, str, bool]] = []
    for node in dt.expressions:
        wrapped = type(node) is exp.DataTypeParam
        if wrapped:
            if node.args.get("expression") is not None:
                return None
            node = node.this
        if type(node) is not exp.Literal:
            return None
        params.append((wrapped, node.this, node.is_string))
    return (type(dt), dt.this, dt.args.get("kind"), tuple(params), attrs_)


def loosened(dt: exp.DataType, attrs_: TypeAttrs) -> tuple[ColumnType, Implied]:
    """A type as a session that is not strict makes it (no STRICT_TRANS_TABLES nor
    STRICT_ALL_TABLES in its sql_mode): a VARCHAR longer than its charset lets one be is the
    TEXT kind holding as many characters, a VARBINARY's the BLOB kind holding as many bytes
    (the server's note 1246, where a strict one says 1074). A VARCHAR whose charset is its
    table's is moved when it meets the table (:func:`mvdd.ddl.apply.apply`), unless no charset
    holds it (past 65,532 characters): a ``TEXT(M)`` then.

    >>> from mvdd.ddl.dialect import DIALECT
    >>> def kind(sql): return loosened(DIALECT.parse("CREATE TABLE t (a " + sql + ")")[0]
    ...     .find(exp.DataType), TypeAttrs(charset="utf8mb4"))[0].kind
    >>> [kind(t).value for t in ("VARCHAR(16383)", "VARCHAR(16384)", "VARBINARY(70000)")]
    ['VARCHAR', 'MEDIUMTEXT', 'MEDIUMBLOB']
    """
    kind = _KINDS.get(dt.this, (None, False))[0]
    length = _int_params(dt)[0] if dt.expressions and kind in (K.VARCHAR, K.VARBINARY) else None
    binary = kind == K.VARBINARY or "binary" in (_lower(attrs_.charset), _lower(attrs_.collation))
    if length is None or length <= MAX_VARCHAR_BYTES // (
        1
        if binary or (attrs_.charset is None and attrs_.collation is None)
        else max_bytes_per_char(resolve_charset(attrs_.charset, attrs_.collation)[0])
    ):
        return column_type(dt, attrs_)
    if binary:
        return ColumnType.of(text_kind_for_length(length, None, blob=True)), _PLAIN
    if attrs_.charset is None and attrs_.collation is None:  # TEXT(M): the table's decides
        param = exp.DataTypeParam(this=exp.Literal.number(length))
        return column_type(exp.DataType(this=exp.DType.TEXT, expressions=[param]), attrs_)
    kind = text_kind_for_length(length, resolve_charset(attrs_.charset, attrs_.collation)[0])
    return column_type(exp.DataType(this=exp.DType[kind.value]), attrs_)


def _column_type(
    dt: exp.DataType, attrs_: TypeAttrs, *, duplicates: bool = False
) -> tuple[ColumnType, Implied]:
    if dt.this == D.USERDEFINED:
        name = str(dt.args.get("kind") or "").upper()
        if name in _UNMODELLED:
            raise UnsupportedDDLError(f"column type {name} is not tracked")
        if name not in _NAMED_KINDS:
            raise DDLError(f"unknown column type {name or dt.sql()!r}")
        kind, unsigned = _NAMED_KINDS[name], False
    elif dt.this in _KINDS:
        kind, unsigned = _KINDS[dt.this]
    else:
        raise UnsupportedDDLError(f"unsupported column type {dt.sql(dialect='mysql')!r}")
    unsigned = unsigned or isinstance(dt, UnsignedFloat) or attrs_.unsigned
    family = FAMILY[kind]
    kind, params = _PARSE[family](kind, dt, attrs_)
    if duplicates:
        params["duplicates"] = True
    written = params.pop("written", ())
    family = FAMILY[kind]
    if (
        family in (Family.BINARY, Family.BLOB)
        and attrs_.charset is None
        and (_lower(attrs_.collation) not in (None, "binary") or attrs_.table_collation is not None)
    ):
        # a binary string given a COLLATE is the character string it is the twin of, in that
        # collation, as MariaDB makes it (``VARBINARY(3) COLLATE utf8mb4_bin`` is a VARCHAR(3)
        # of it, a BLOB a TEXT, and a BLOB(M) the TEXT kind holding M characters of it)
        if family == Family.BLOB and dt.expressions:
            dt = exp.DataType(this=D.TEXT, expressions=dt.expressions)
            kind, params = _PARSE[Family.TEXT](K.TEXT, dt, attrs_)
        else:
            kind = CHARACTER_TWIN[kind]
        family = FAMILY[kind]
    if family == Family.PLUGIN and (
        unsigned
        or attrs_.zerofill
        or attrs_.binary
        or attrs_.charset
        or _lower(attrs_.collation) == "binary"
    ):  # the server's grammar has no place for them after these types (a COLLATE of a known
        # collation it takes and keeps nothing of, as a number's)
        raise DDLParseError(f"{kind} takes no UNSIGNED, ZEROFILL, BINARY or charset")
    if family in _NUMERIC:
        params |= {"unsigned": unsigned, "zerofill": attrs_.zerofill}
    elif unsigned or attrs_.zerofill:
        raise DDLError(f"{kind} cannot be UNSIGNED or ZEROFILL")
    charset, collation = attrs_.charset, attrs_.collation
    if dt.this in (D.NCHAR, D.NVARCHAR) and charset is None:
        charset = "utf8mb3"
    implied = _SERIAL if dt.this == D.SERIAL else _PLAIN
    if written:
        implied = attrs.evolve(implied, members_written=written)
    if family == Family.TEXT and charset is None and collation is None and dt.expressions:
        implied = attrs.evolve(implied, text_chars=_int_params(dt)[0] or None)
    if family in (Family.CHAR, Family.TEXT) and "binary" in (_lower(charset), _lower(collation)):
        # a character string in the charset binary is its binary twin (VARBINARY, BLOB …)
        if _lower(charset) not in (None, "binary") or _lower(collation) not in (None, "binary"):
            raise DDLError(f"collation {collation!r} is not valid for character set {charset!r}")
        return ColumnType.of(kind, **params).with_charset("binary", "binary"), implied
    if attrs_.table_collation is not None and family in (Family.CHAR, Family.TEXT, Family.ENUM):
        implied = attrs.evolve(implied, table_collation=attrs_.table_collation)
    if family in (Family.CHAR, Family.TEXT, Family.ENUM):
        params |= {"charset": charset, "collation": collation}
        named = collation if collation is not None else attrs_.table_collation
        if attrs_.binary and named is not None and not named.lower().endswith("_bin"):
            # (the server's error 1302)
            raise DDLError(f"conflicting declarations: BINARY and COLLATE {named}")
        if attrs_.binary and collation is None:
            if charset is None:  # (the table's charset, known when the step applies)
                implied = attrs.evolve(implied, bin_collation=True)
            else:
                params["collation"] = bin_collation(charset)
    elif charset is not None:
        if kind == K.JSON or charset == "binary" or collation == "binary":
            pass  # MariaDB spells JSON with its collation; binary strings are binary anyway
        else:
            raise DDLError(f"{kind} takes no character set or collation")
    elif collation is not None:
        # a COLLATE of a type that has none (a number, a date, a binary string): both servers
        # take it and keep nothing of it, once they know the collation
        canonical_collation(collation)
    return ColumnType.of(kind, **params), implied


def _lower(name: str | None) -> str | None:
    return name.lower() if name is not None else None


_SERIAL = Implied(not_null=True, auto_increment=True, unique=True)
_PLAIN = Implied()


# --- render rules: ColumnType -> DataType -------------------------------------------------------

_SIGNED_DTYPE: dict[TypeKind, Any] = {
    K.TINYINT: D.TINYINT,
    K.SMALLINT: D.SMALLINT,
    K.MEDIUMINT: D.MEDIUMINT,
    K.INT: D.INT,
    K.BIGINT: D.BIGINT,
    K.DECIMAL: D.DECIMAL,
    K.FLOAT: D.FLOAT,
    K.DOUBLE: D.DOUBLE,
}
_UNSIGNED_DTYPE: dict[TypeKind, Any] = {
    K.TINYINT: D.UTINYINT,
    K.SMALLINT: D.USMALLINT,
    K.MEDIUMINT: D.UMEDIUMINT,
    K.INT: D.UINT,
    K.BIGINT: D.UBIGINT,
    K.DECIMAL: D.UDECIMAL,
    K.DOUBLE: D.UDOUBLE,
}
_PLAIN_DTYPE: dict[TypeKind, Any] = {
    K.BIT: D.BIT,
    K.CHAR: D.CHAR,
    K.VARCHAR: D.VARCHAR,
    K.BINARY: D.BINARY,
    K.VARBINARY: D.VARBINARY,
    K.TINYTEXT: D.TINYTEXT,
    K.TEXT: D.TEXT,
    K.MEDIUMTEXT: D.MEDIUMTEXT,
    K.LONGTEXT: D.LONGTEXT,
    K.TINYBLOB: D.TINYBLOB,
    K.BLOB: D.BLOB,
    K.MEDIUMBLOB: D.MEDIUMBLOB,
    K.LONGBLOB: D.LONGBLOB,
    K.ENUM: D.ENUM,
    K.SET: D.SET,
    K.DATE: D.DATE,
    K.TIME: D.TIME,
    K.DATETIME: D.DATETIME,
    K.TIMESTAMP: D.TIMESTAMPTZ,
    K.YEAR: D.YEAR,
    K.JSON: D.JSON,
    K.GEOMETRY: D.GEOMETRY,
    K.POINT: D.POINT,
    K.LINESTRING: D.LINESTRING,
    K.POLYGON: D.POLYGON,
    K.MULTILINESTRING: D.MULTILINESTRING,
    K.MULTIPOLYGON: D.MULTIPOLYGON,
    K.UUID: D.UUID,
}


def _param(value: int) -> exp.DataTypeParam:
    return exp.DataTypeParam(this=exp.Literal.number(value))


def _render_params(t: ColumnType) -> list[exp.Expr]:
    fam = t.family
    if fam == Family.INTEGER:
        return [_param(t.width)] if t.width else []
    if fam in (Family.DECIMAL, Family.FLOAT):
        return [] if t.precision is None else [_param(t.precision), _param(t.scale or 0)]
    if fam in (Family.BIT, Family.CHAR, Family.BINARY):
        return [_param(t.length or 0)]
    if fam == Family.ENUM:  # (a member that keeps bytes its charset does not read: as them)
        return [
            exp.HexString(this=bytes_in(m, t.charset).hex().upper())
            if not m.isascii() and KEPT_BYTE.search(m)
            else exp.Literal.string(m)
            for m in t.members
        ]
    if fam == Family.TEMPORAL and t.fsp:
        return [_param(t.fsp)]
    return []  # (a YEAR(2) renders as YEAR: the same years, which every server takes)


def data_type(t: ColumnType) -> exp.DataType:
    """The sqlglot data type node for a ColumnType (charset, collation and ZEROFILL are column
    attributes: the column renderer adds them)."""
    params = _render_params(t)
    if t.kind in _BY_NAME:
        return exp.DataType(this=D.USERDEFINED, kind=t.kind.value)
    if t.kind == K.FLOAT and t.unsigned:
        return UnsignedFloat(this=D.FLOAT, expressions=params, nested=False)
    if t.kind in _SIGNED_DTYPE:
        table = _UNSIGNED_DTYPE if t.unsigned else _SIGNED_DTYPE
        return exp.DataType(this=table[t.kind], expressions=params, nested=False)
    return exp.DataType(this=_PLAIN_DTYPE[t.kind], expressions=params, nested=False)
