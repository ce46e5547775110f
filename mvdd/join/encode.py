"""Schemas into the lattice, where "more permissive" is always "greater" (DESIGN §7, seed 000).

Each element becomes a small hashable value of a :mod:`mvdd.join.lattice` lattice:

* **Types** (:data:`TYPE`) are tagged by the group whose members can widen into each other;
  different groups never join. The rule table :data:`GROUPS` maps a type kind to its group:

  ============  =================================================  ===========================
  group         ordered by                                         must be equal
  ============  =================================================  ===========================
  int           storage bytes (TINYINT < … < BIGINT)               signedness, ZEROFILL
  char          length (CHAR)                                      —
  varchar       length in characters (≤ 65,532 bytes)              —
  text          capacity in characters (TINYTEXT < … < LONGTEXT)   —
  varbinary     length in bytes                                    —
  blob          size (TINYBLOB < … < LONGBLOB)                     —
  enum, set     members, by appending only                         —
  temporal      fractional seconds (TIME < TIME(3) < TIME(6))      the kind (TIME, DATETIME,
                                                                   TIMESTAMP)
  bit           length (BIT(4) < BIT(8))                           —
  exact         —                                                  the whole type (DECIMAL,
                                                                   FLOAT, BINARY, DATE, YEAR,
                                                                   JSON, spatial, UUID,
                                                                   INET4, INET6)
  ============  =================================================  ===========================

  Replication carries stored values (row-based binlogs), so a wider fsp or BIT loses nothing:
  ``DATETIME(3)`` values are exact in ``DATETIME(6)``. A DECIMAL of more precision is still
  exact-only: its scale fixes how values are rounded.

  Character types also carry their character set and collation: ``latin1`` and ``utf8mb3`` are
  below ``utf8mb4`` when the collation's suffix is the same (``utf8mb3_bin < utf8mb4_bin``);
  other sets and collations must be equal. A TEXT's capacity counts characters, so
  ``TEXT CHARACTER SET latin1`` joined with a ``utf8mb4`` TEXT becomes ``MEDIUMTEXT``: a
  value of 65,535 ``é`` fits the first and must fit the join. CHAR and VARCHAR, VARCHAR and TEXT,
  BINARY and VARBINARY never join: they store different values (padding, trailing spaces) or
  the seed keeps them apart (``text`` and ``varchar(255)`` cannot be joined).

* **Columns** (:data:`SLOT`) have three layers: a generated column < the column absent < a
  normal column. A normal column is a record of type, nullability (NULL > NOT NULL), default
  (no default < *needs some default* < a value; two values conflict), ON UPDATE,
  AUTO_INCREMENT and its CHECK (none is greater). A nullable column without DEFAULT has the
  default NULL. A column missing on one side joins as :data:`ABSENT`: NOT NULL, type bottom,
  *needs some default*, no CHECK — so the join gets a default. Which one is picked only when a
  table is built from the join (:func:`implicit_default`, seed 000's table): choosing ``DEFAULT
  0`` early would make ``x INT NOT NULL ⊔ (missing) ⊔ x INT NULL`` depend on the order.

* **Indexes** and **checks** are maps by name where a missing name is the top: fewer
  constraints accept more. An index is (kind, key parts by column name); a check is (expression,
  enforced), where NOT ENFORCED is greater.

Comments, column order and table options are not in the lattice (they change no DML).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

import attrs

from mvdd.errors import DDLError
from mvdd.join.lattice import (
    BOTTOM,
    Bool,
    Chain,
    Checked,
    Flat,
    Keyed,
    Lattice,
    Max,
    Poset,
    Prefix,
    Record,
    Sum,
    Tagged,
)
from mvdd.model import NO_DEFAULT, Check, Column, ColumnType, Default, Index, Table
from mvdd.model.coerce import coerce_text
from mvdd.model.element import ElementKind, Expr, IndexKind, IndexPart
from mvdd.model.kind import (
    BLOB_SIZES,
    INTEGER_BYTES,
    LOB_BYTES,
    MAX_VARCHAR_BYTES,
    TEXT_SIZES,
    Family,
    TypeKind,
)
from mvdd.model.names import check_key, fold_name
from mvdd.model.row import zero_value
from mvdd.model.types import canonical_collation, max_bytes_per_char

K = TypeKind

# --- character sets ---------------------------------------------------------------------------

#: charsets below others (DESIGN §7): what a column may widen to keeping every value
CHARSET_ORDER: Final = Poset({"latin1": {"utf8mb4"}, "utf8mb3": {"utf8mb4"}})


#: the charset of a column that follows a database default mvdd does not know: it equals only
#: itself (the default could be any charset, so it joins with no other)
UNKNOWN: Final = "(the database default)"


def _collation_exists(value: tuple[Any, Any]) -> str | None:
    charset, suffix = value
    if charset is BOTTOM or suffix is BOTTOM or charset == UNKNOWN:
        return None
    try:
        canonical_collation(f"{charset}_{suffix}")
    except DDLError:
        return f"there is no collation {charset}_{suffix}"
    return None


#: (charset, collation suffix). A charset that is not known (a CREATE TABLE that names none,
#: in a database whose default nobody told mvdd) is :data:`UNKNOWN`, which joins only with
#: itself: assuming it fits another side's charset is unsound (a utf8mb4 default joined with a
#: shard's utf8mb3 column as utf8mb3 refuses the first shard's 4-byte characters). Give the
#: default (``ShardGroup(charset=…)``, ``Catalog(charset=…)``) and it is a charset like any.
CHARSET: Final = Checked(Record(charset=CHARSET_ORDER, collation=Flat()), _collation_exists)


def encode_charset(charset: str | None, collation: str | None) -> tuple[Any, Any]:
    if charset is None or collation is None:
        return (UNKNOWN, UNKNOWN)
    if collation == "binary" or not collation.startswith(charset + "_"):
        return (charset, "=" + collation)  # a collation with no suffix to carry over
    return (charset, collation[len(charset) + 1 :])


def decode_charset(value: tuple[Any, Any]) -> tuple[str | None, str | None]:
    charset, suffix = value
    if charset is BOTTOM or suffix is BOTTOM or charset == UNKNOWN:
        return (None, None)
    return charset, suffix[1:] if suffix.startswith("=") else f"{charset}_{suffix}"


# --- types ------------------------------------------------------------------------------------

#: the capacity, in characters, of LONGTEXT whatever the charset: no value can exceed it
UNBOUNDED: Final = 1 << 62


def _text_chars(kind: TypeKind, charset: str | None) -> int:
    if kind == K.LONGTEXT:
        return UNBOUNDED
    return LOB_BYTES[kind] // max_bytes_per_char(charset)


def _text_kind(chars: int, charset: str | None) -> TypeKind:
    return next(k for k in TEXT_SIZES if _text_chars(k, charset) >= chars)


def _varchar_fits(value: tuple[Any, int]) -> str | None:
    (charset, _), chars = value
    charset = None if charset is BOTTOM or charset == UNKNOWN else charset
    if chars * max_bytes_per_char(charset) > MAX_VARCHAR_BYTES:
        return f"VARCHAR({chars}) in {charset or 'this charset'} exceeds {MAX_VARCHAR_BYTES} bytes"
    return None


#: a type group's parameters, ordered; see the module docstring
GROUP_LATTICES: Final[dict[str, Lattice]] = {
    "int": Record(unsigned=Flat(), zerofill=Flat(), bytes=Max()),
    "char": Record(charset=CHARSET, length=Max()),
    "varchar": Checked(Record(charset=CHARSET, length=Max()), _varchar_fits),
    "text": Record(charset=CHARSET, capacity=Max()),
    "varbinary": Max(),
    "blob": Chain(BLOB_SIZES),
    "enum": Record(charset=CHARSET, members=Prefix()),
    "set": Record(charset=CHARSET, members=Prefix()),
    "temporal": Record(kind=Flat(), fsp=Max()),
    "bit": Max(),
    "exact": Flat(),
}

TYPE: Final = Tagged(GROUP_LATTICES)

Charset = tuple[str | None, str | None]


def _enc_int(t: ColumnType, cs: Charset) -> Any:
    return ("int", (t.unsigned, t.zerofill, INTEGER_BYTES[t.kind]))


def _enc_char(t: ColumnType, cs: Charset) -> Any:
    return ("char", (encode_charset(*cs), t.length))


def _enc_varchar(t: ColumnType, cs: Charset) -> Any:
    return ("varchar", (encode_charset(*cs), t.length))


def _enc_text(t: ColumnType, cs: Charset) -> Any:
    return ("text", (encode_charset(*cs), _text_chars(t.kind, cs[0] if cs[1] else None)))


def _enc_varbinary(t: ColumnType, cs: Charset) -> Any:
    return ("varbinary", t.length)


def _enc_blob(t: ColumnType, cs: Charset) -> Any:
    return ("blob", t.kind)


def _enc_members(t: ColumnType, cs: Charset) -> Any:
    return (t.kind.lower(), (encode_charset(*cs), t.members))


def _enc_temporal(t: ColumnType, cs: Charset) -> Any:
    return ("temporal", (t.kind, t.fsp or 0))


def _enc_bit(t: ColumnType, cs: Charset) -> Any:
    return ("bit", t.length)


def _enc_exact(t: ColumnType, cs: Charset) -> Any:
    # (COMPRESSED is how a shard stores values, not what they are: the join's types are plain)
    return ("exact", attrs.evolve(t.with_charset(None, None), compressed=False).interned())


#: how each kind is encoded (the rule table of the module docstring)
GROUPS: Final[dict[TypeKind, Callable[[ColumnType, Charset], Any]]] = {
    **dict.fromkeys(INTEGER_BYTES, _enc_int),
    K.CHAR: _enc_char,
    K.VARCHAR: _enc_varchar,
    **dict.fromkeys(TEXT_SIZES, _enc_text),
    K.VARBINARY: _enc_varbinary,
    **dict.fromkeys(BLOB_SIZES, _enc_blob),
    K.ENUM: _enc_members,
    K.SET: _enc_members,
    **dict.fromkeys((K.TIME, K.DATETIME, K.TIMESTAMP), _enc_temporal),
    K.BIT: _enc_bit,
}

_INT_KIND = {nbytes: kind for kind, nbytes in INTEGER_BYTES.items()}


def _dec_int(p: Any) -> ColumnType:
    unsigned, zerofill, nbytes = p
    return ColumnType.of(_INT_KIND[nbytes], unsigned=unsigned, zerofill=zerofill)


def _string(kind: TypeKind, cs: Any, **params: Any) -> ColumnType:
    charset, collation = decode_charset(cs)
    return ColumnType.of(kind, charset=charset, collation=collation, **params)


_DECODE: Final[dict[str, Callable[[Any], ColumnType]]] = {
    "int": _dec_int,
    "char": lambda p: _string(K.CHAR, p[0], length=p[1]),
    "varchar": lambda p: _string(K.VARCHAR, p[0], length=p[1]),
    "text": lambda p: _string(_text_kind(p[1], decode_charset(p[0])[0]), p[0]),
    "varbinary": lambda p: ColumnType.of(K.VARBINARY, length=p),
    "blob": lambda p: ColumnType.of(p),
    # (members a shard's table holds, which its catalog took, alike ones too: the join orders
    # them by prefix, and its value is the longest shard's)
    "enum": lambda p: _string(K.ENUM, p[0], members=p[1], duplicates=True),
    "set": lambda p: _string(K.SET, p[0], members=p[1], duplicates=True),
    "temporal": lambda p: ColumnType.of(p[0], fsp=p[1]),
    "bit": lambda p: ColumnType.of(K.BIT, length=p),
    "exact": lambda p: p,
}


def encode_type(ctype: ColumnType, charset: Charset = (None, None)) -> Any:
    """A type's lattice value; ``charset`` is the (charset, collation) it resolves to."""
    return GROUPS.get(ctype.kind, _enc_exact)(ctype, charset)


def decode_type(value: Any) -> ColumnType:
    """The type of a (joined) lattice value."""
    return _DECODE[value[0]](value[1]).interned()


# --- defaults ---------------------------------------------------------------------------------

#: "has no default" and "needs some default" (the implicit one is picked when building a table)
NONE, NEEDS = "no default", "needs a default"
#: defaults: no default < needs some < any value (two values conflict)
DEFAULT: Final = Sum(Chain([NONE, NEEDS]), Flat(), link=BOTTOM)


def implicit_default(ctype: ColumnType) -> Default:
    """The default seed 000 gives a NOT NULL column that must accept rows without it: the
    type's zero value (:func:`~mvdd.model.row.zero_value`; a JSON column JSON null, which a
    JSON check takes); None when the type has none (spatial types: the column becomes
    nullable instead).

    >>> implicit_default(ColumnType.of("decimal", precision=5, scale=2))
    Decimal('0.00')
    """
    return ctype.coerce("null") if ctype.family == Family.JSON else zero_value(ctype)


# --- columns ----------------------------------------------------------------------------------

#: a normal column: type, nullable, default, ON UPDATE, AUTO_INCREMENT, column CHECK
COLUMN: Final = Record(
    type=TYPE,
    nullable=Bool(),
    default=DEFAULT,
    on_update=Flat(),
    auto_increment=Flat(),
    check=Flat(top=None),
)
#: the column missing on one side (see the module docstring)
ABSENT: Final = (BOTTOM, False, (0, NEEDS), BOTTOM, BOTTOM, None)
#: generated columns (lower layer, compared whole) < ABSENT < normal columns (upper layer)
SLOT: Final = Sum(Flat(), COLUMN, link=ABSENT)
MISSING: Final = (1, ABSENT)


_TEMPORAL_FSP = frozenset({K.TIME, K.DATETIME, K.TIMESTAMP})


def _enc_default(col: Column) -> Any:
    if col.implicit_default:  # picked by a join: still "needs some default"
        return (0, NEEDS)
    value = col.effective_default
    if isinstance(value, str) and col.type.kind in _TEMPORAL_FSP and "." in value:
        # one instant, whatever the fsp: '00:00:01.50' on TIME(2) is '00:00:01.5' on TIME(6)
        value = value.rstrip("0").rstrip(".")
    return (0, NONE) if value is NO_DEFAULT else (1, value)


@functools.lru_cache(maxsize=1 << 16)
def encode_column(col: Column, charset: Charset = (None, None)) -> Any:
    """A column's lattice value (:data:`SLOT`); ``charset`` is the (charset, collation) a
    string column resolves to. A default a join picked (``col.implicit_default``) is
    "needs some default"."""
    ctype = encode_type(col.type, charset)
    if col.generated is not None:
        return (0, (ctype, col.nullable, col.generated, col.check))
    return (
        1,
        (
            ctype,
            col.nullable,
            _enc_default(col),
            col.on_update,
            col.auto_increment,
            col.check,
        ),
    )


def _default(ctype: ColumnType, value: Any) -> Any:
    """A literal default as the joined type holds it: coerced, but a JSON column's kept as its
    text (a replica's server keeps any text there, mvdd.ddl.rules.STRICTER)."""
    return coerce_text(ctype, value) if ctype.family == Family.JSON else ctype.coerce(value)


def decode_column(value: Any, *, id: int, name: str, comment: str | None = None) -> Column:
    """The column of a (joined) slot value; raises DDLError when it cannot exist."""
    layer, v = value
    if layer == 0:
        ctype, nullable, generated, check = v
        return Column(
            id=id,
            name=name,
            type=decode_type(ctype),
            nullable=nullable,
            generated=generated,
            comment=comment,
            check=check,
        )
    ctype_v, nullable, (dlayer, dvalue), on_update, auto, check = v
    ctype = decode_type(ctype_v)
    default: Default = NO_DEFAULT
    if dlayer == 1:
        default = dvalue if isinstance(dvalue, Expr) or dvalue is None else _default(ctype, dvalue)
    elif dvalue == NEEDS and not nullable and auto is not True:
        default = implicit_default(ctype)
        if default is None:
            nullable = True
    picked = default is not NO_DEFAULT and dlayer == 0 and dvalue == NEEDS
    return Column(
        id=id,
        name=name,
        type=ctype,
        nullable=nullable,
        default=default,
        on_update=None if on_update is BOTTOM else on_update,
        auto_increment=auto is True,
        comment=comment,
        check=check,
        implicit_default=picked,
    )


def needs_implicit(value: Any) -> bool:
    """Whether a joined column's default is one :func:`decode_column` picks."""
    layer, v = value
    return bool(layer == 1 and v[2] == (0, NEEDS) and not v[1] and v[4] is not True)


# --- indexes and checks -----------------------------------------------------------------------

#: indexes by name: (kind, ((column key, prefix length, descending), ...)); missing is the top
INDEXES: Final = Keyed(Flat(), top_missing=True)
#: checks by name: (expression, enforced) with NOT ENFORCED greater; missing is the top
CHECK: Final = Record(expr=Flat(), enforced=Chain([True, False]))
CHECKS: Final = Keyed(CHECK, top_missing=True)
COLUMNS: Final = Keyed(SLOT, missing=MISSING)


def column_key(name: str) -> str:
    """Columns and indexes are keyed by their case-folded name, as MySQL compares them; checks
    by :func:`~mvdd.model.names.check_key`, which tells apart two checks MariaDB holds side by
    side whose names fold alike (``İ`` and ``i``)."""
    return fold_name(name)


def encode_index(table: Table, index: Index) -> Any:
    parts = tuple(
        (column_key(table.column_by_id(p.column_id).name), p.length, p.desc) for p in index.parts
    )
    return (index.kind, parts)


def index_columns(value: Any) -> tuple[str, ...]:
    """The column keys an encoded index covers."""
    return tuple(part[0] for part in value[1])


def decode_index(
    value: Any, *, id: int, name: str, column_ids: dict[str, int], like: Index | None = None
) -> Index:
    kind, parts = value
    index_parts = tuple(IndexPart(column_ids[key], length, desc) for key, length, desc in parts)
    if kind == IndexKind.PRIMARY:
        name = "PRIMARY"
    extra: dict[str, Any] = {}
    if like is not None:
        extra = {"comment": like.comment, "using": like.using, "visible": like.visible}
    return Index(id=id, name=name, kind=kind, parts=index_parts, **extra)


def encode_check(check: Check) -> Any:
    return (check.expr, check.enforced)


def decode_check(value: Any, *, id: int, name: str) -> Check:
    expr, enforced = value
    return Check(id=id, name=name, expr=expr, enforced=enforced)


# --- whole tables -----------------------------------------------------------------------------


@attrs.frozen
class Encoded:
    """A table as lattice values: maps from element key to value, and the spelling and source
    of each element (for messages and for building the joined table)."""

    table: Table
    columns: dict[str, Any]
    indexes: dict[str, Any]
    checks: dict[str, Any]

    def of(self, kind: ElementKind) -> dict[str, Any]:
        """The map of one kind of element."""
        return getattr(self, _ATTRS[kind])  # type: ignore[no-any-return]


_ATTRS = {ElementKind.COLUMN: "columns", ElementKind.INDEX: "indexes", ElementKind.CHECK: "checks"}


def column_charset(table: Table, col: Column) -> Charset:
    return table.column_collation(col)


def encode_table(table: Table) -> Encoded:
    """Every element of a table as its lattice value. O(elements)."""
    columns = {
        column_key(c.name): encode_column(c, column_charset(table, c)) for c in table.columns
    }
    indexes = {column_key(i.name): encode_index(table, i) for i in table.indexes}
    checks = {check_key(c.name): encode_check(c) for c in table.checks}
    return Encoded(table, columns, indexes, checks)


__all__ = [
    "ABSENT",
    "CHECKS",
    "COLUMN",
    "COLUMNS",
    "DEFAULT",
    "GROUPS",
    "INDEXES",
    "MISSING",
    "SLOT",
    "TYPE",
    "ElementKind",
    "Encoded",
    "column_key",
    "decode_check",
    "decode_column",
    "decode_index",
    "decode_type",
    "encode_check",
    "encode_column",
    "encode_index",
    "encode_table",
    "encode_type",
    "implicit_default",
    "index_columns",
    "needs_implicit",
]
