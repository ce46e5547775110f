"""Column types: the whole MySQL type family as one frozen value.

A :class:`ColumnType` is always canonical: :meth:`ColumnType.of` fills the defaults MySQL fills
(``DECIMAL`` is ``DECIMAL(10,0)``, ``BIT`` is ``BIT(1)``, ``DATETIME`` has fsp 0, ``BOOL`` is
``TINYINT(1)``) and refuses what MySQL refuses (``VARCHAR(70000)``, ``DECIMAL(70,2)``, duplicate
enum members), so two spellings of one type compare equal.

:meth:`ColumnType.coerce` turns a Python value into the canonical value a column of this type
stores, with MySQL strict-mode rules: integers and decimals are range-checked and rounded half
away from zero, strings are length-checked in characters, binary strings in bytes (``BINARY(n)``
pads with zero bytes), temporal values become MySQL's canonical text, enum and set members are
matched and put in definition order.

>>> t = ColumnType.of(TypeKind.DECIMAL, precision=5, scale=2)
>>> t.coerce("1.5")
Decimal('1.50')
>>> ColumnType.of(TypeKind.DATETIME, fsp=3).coerce("2020-01-01")
'2020-01-01 00:00:00.000'
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

import attrs

from mvdd.errors import DDLError
from mvdd.model.charsets import (
    CHARSET_ALIASES,
    CHARSETS,
    COLLATIONS,
    MYSQL_UTF8MB4_0900,
    UCA1400,
    UNICODE_CHARSETS,
    collation_charset,
)
from mvdd.model.coerce import coerce, convert
from mvdd.model.collation import collation_key
from mvdd.model.encoding import written_as
from mvdd.model.kind import (
    BINARY_TWIN,
    BLOB_SIZES,
    CHARSET_FAMILIES,
    FAMILY,
    INTEGER_BYTES,
    INTEGER_RANGES,
    LOB_BYTES,
    MAX_VARCHAR_BYTES,
    PLUGIN_BYTES,
    TEXT_SIZES,
    Family,
    TypeKind,
)

K = TypeKind

# --- charsets ----------------------------------------------------------------------------------


def canonical_charset(name: str) -> str:
    """The canonical name of a charset (``utf8`` is ``utf8mb3``); raises DDLError if unknown."""
    low = name.lower()
    low = CHARSET_ALIASES.get(low, low)
    if low not in CHARSETS:
        raise DDLError(f"unknown character set {name!r}")
    return low


def bin_collation(charset: str) -> str:
    """The ``_bin`` collation of a charset, which the BINARY attribute names (``VARCHAR(10)
    BINARY``); raises DDLError if the charset is unknown.

    >>> bin_collation("utf8")
    'utf8mb3_bin'
    """
    return canonical_charset(charset) + "_bin"


def charset_of_collation(name: str) -> str:
    """The charset a collation belongs to; raises DDLError if the collation is unknown."""
    best = collation_charset(canonical_collation(name))
    if best is None:
        raise DDLError(f"unknown collation {name!r}")
    return best


def canonical_collation(name: str) -> str:
    """The canonical name of a collation (``utf8_bin`` is ``utf8mb3_bin``); raises DDLError
    if no server knows it."""
    low = name.lower()
    for alias, target in CHARSET_ALIASES.items():
        if low.startswith(alias + "_"):
            low = target + low[len(alias) :]
    if low == "binary" or low in MYSQL_UTF8MB4_0900:
        return low
    for cs, names in COLLATIONS.items():
        if low.startswith(cs + "_") and (
            low in names or (cs in UNICODE_CHARSETS and low[len(cs) + 1 :] in UCA1400)
        ):
            return low
    raise DDLError(f"unknown collation {name!r}")


#: MariaDB's DEFAULT in place of a collation (or of a database's charset) until the charset
#: it meets is known: that charset's default collation (a column's, its table's, a database's)
CHARSET_DEFAULT = "DEFAULT"


def charsetless(collation: str | None) -> bool:
    """Whether a collation is named without its charset, as MariaDB 10.10's UCA 14.0.0 ones
    may be (``uca1400_ai_ci``): it takes the charset of where it stands (a column's, else its
    table's; a table's, else its database's), ``utf8mb4_uca1400_ai_ci`` under utf8mb4.

    >>> charsetless("uca1400_ai_ci"), charsetless("utf8mb4_uca1400_ai_ci")
    (True, False)
    """
    return collation is not None and collation.lower() in UCA1400


def same_collation(a: str, b: str) -> bool:
    """Whether two COLLATE clauses name one collation: the same name in any case, or one
    without its charset and one with it.

    >>> same_collation("uca1400_ai_ci", "utf8mb4_UCA1400_ai_ci"), same_collation("a_bin", "b_bin")
    (True, False)
    """
    a, b = a.lower(), b.lower()
    return (
        a == b
        or (charsetless(a) and b.endswith("_" + a))
        or (charsetless(b) and a.endswith("_" + b))
    )


def default_collation(charset: str) -> str:
    """The default collation of a (canonical) charset."""
    return CHARSETS[charset][0]


def resolve_charset(charset: str | None, collation: str | None) -> tuple[str | None, str | None]:
    """Fill in the missing half of (charset, collation) as MySQL does; both None stays None.

    Raises DDLError when the collation does not belong to the charset.

    >>> resolve_charset("latin1", None)
    ('latin1', 'latin1_swedish_ci')
    >>> resolve_charset(None, "utf8mb4_bin")
    ('utf8mb4', 'utf8mb4_bin')
    >>> resolve_charset("utf8mb3", "uca1400_ai_ci")
    ('utf8mb3', 'utf8mb3_uca1400_ai_ci')
    """
    if charset is None and collation is None:
        return None, None
    cs = canonical_charset(charset) if charset is not None else None
    if charsetless(collation):  # (:func:`charsetless`: the charset given, or none known)
        assert collation is not None
        if cs is None:
            raise DDLError(f"collation {collation!r} names no charset, and none is given with it")
        if cs not in UNICODE_CHARSETS:
            raise DDLError(f"collation {collation!r} is not valid for character set {cs!r}")
        collation = f"{cs}_{collation.lower()}"
    co = canonical_collation(collation) if collation is not None else None
    if co is None:
        assert cs is not None
        return cs, default_collation(cs)
    owner = charset_of_collation(co)
    if cs is not None and owner != cs:
        raise DDLError(f"collation {co!r} is not valid for character set {cs!r}")
    return owner, co


@functools.lru_cache(maxsize=1024)
def check_charset(charset: str | None, collation: str | None) -> None:
    """Raise DDLError unless (charset, collation) is a canonical pair a server knows (either
    may be None: not given). DDL carries both unquoted, so a value built in code is checked."""
    if charset is not None and (not isinstance(charset, str) or charset not in CHARSETS):
        raise DDLError(f"unknown character set {charset!r}")
    if collation is not None:
        if not isinstance(collation, str) or canonical_collation(collation) != collation:
            raise DDLError(f"unknown collation {collation!r}")
        if charset is not None and charset_of_collation(collation) != charset:
            raise DDLError(f"collation {collation!r} is not valid for character set {charset!r}")


def max_bytes_per_char(charset: str | None) -> int:
    """Bytes per character at most (4 when the charset is not known: the safe bound)."""
    return CHARSETS[charset][1] if charset is not None else 4


# --- the type value ----------------------------------------------------------------------------


def _tuple_of_str(value: Any) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen(kw_only=True, cache_hash=True)
class ColumnType:
    """A MySQL column type. Build it with :meth:`of`, which canonicalises and validates.

    Attributes:
        kind: the type's kind.
        length: CHAR/VARCHAR characters, BINARY/VARBINARY bytes, BIT bits.
        precision, scale: DECIMAL (always set), FLOAT/DOUBLE (both or neither).
        width: integer display width as written (display only: never compared); 2 for
            MariaDB's two-digit YEAR(2), whose years are YEAR's (a number 0 is 2000 there).
        unsigned, zerofill: numeric modifiers (zerofill implies unsigned).
        fsp: fractional seconds precision of TIME/DATETIME/TIMESTAMP (0..6).
        members: ENUM/SET members in definition order.
        charset, collation: for CHAR/VARCHAR/TEXT/ENUM/SET; None means "the table's default".
        compressed: MariaDB's ``COMPRESSED`` (zlib, the one method it has): the server keeps
            each value compressed (:data:`COMPRESSIBLE` kinds only; a VARCHAR's or VARBINARY's
            values take one byte more), logs it compressed in its binlog rows, and keys no
            index on it; its values are those of the same type uncompressed.
    """

    kind: TypeKind
    length: int | None = None
    precision: int | None = None
    scale: int | None = None
    width: int | None = attrs.field(default=None, eq=False, hash=False)
    unsigned: bool = False
    zerofill: bool = False
    fsp: int | None = None
    members: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)
    charset: str | None = None
    collation: str | None = None
    compressed: bool = False
    #: the kind's family (derived, kept: every rule that asks what a value is reads it)
    family: Family = attrs.field(init=False, eq=False, hash=False, repr=False)
    #: bytes a value takes in the server's row-size check (derived; see :func:`row_bytes`)
    row_size: int = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        check_charset(self.charset, self.collation)
        object.__setattr__(self, "family", FAMILY[self.kind])
        object.__setattr__(self, "row_size", _row_bytes(self))

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def of(cls, kind: TypeKind | str, **params: Any) -> ColumnType:
        """Build the canonical type of ``kind``; raises DDLError for an impossible type.

        >>> ColumnType.of("decimal")
        ColumnType(kind=<TypeKind.DECIMAL: 'DECIMAL'>, length=None, precision=10, scale=0, ...)
        """
        key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
        try:
            return _of(str(kind).upper(), key)
        except TypeError:  # an unhashable parameter: canonicalise without the memo
            return _build(str(kind).upper(), params)

    def interned(self) -> ColumnType:
        """The one shared instance equal to this type. Types are few and immutable; sharing
        them makes equal types identical, so comparing columns is mostly identity checks."""
        key = self._key(self.charset, self.collation)
        found = _INTERNED.get(key)
        if found is None:
            found = _INTERNED.setdefault(key, self)
        return found

    @property
    def two_digit(self) -> bool:
        """Whether this is MariaDB's YEAR(2): the years YEAR holds, shown with two digits (see
        :func:`mvdd.model.coerce.two_digit_year`)."""
        return self.kind == K.YEAR and self.width == 2

    @property
    def has_charset(self) -> bool:
        """Whether values are character strings (the type takes a charset and collation)."""
        return self.family in CHARSET_FAMILIES

    def _key(self, charset: str | None, collation: str | None) -> tuple[Any, ...]:
        """The key of :meth:`interned` for this type with ``charset`` and ``collation``."""
        return (
            self.kind,
            self.length,
            self.precision,
            self.scale,
            self.width,
            self.unsigned,
            self.zerofill,
            self.fsp,
            self.members,
            charset,
            collation,
            self.compressed,
        )

    def compressing(self, compressed: bool = True) -> ColumnType:
        """This type ``COMPRESSED`` (the shared instance; itself when not ``compressed``, as
        a type made anew in place of a compressed one keeps it: ``made.compressing(
        old.compressed)``); DDLError for a kind MariaDB does not
        compress, and for a VARCHAR or VARBINARY whose values, one byte longer compressed,
        exceed the longest (the server's 1074: ``VARCHAR(65532) CHARACTER SET latin1
        COMPRESSED``; a charset not known yet is judged when the row's size is).

        >>> str(ColumnType.of("varchar", length=10, charset="latin1").compressing())
        'varchar(10) collate latin1_swedish_ci compressed'
        """
        if not compressed:
            return self
        if self.kind not in COMPRESSIBLE:
            raise DDLError(f"{self.kind} cannot be COMPRESSED")
        if self.kind in (K.VARCHAR, K.VARBINARY):
            per_char = max_bytes_per_char(self.charset) if self.charset else 1
            most = (MAX_VARCHAR_BYTES - 1) // per_char
            _check_int("length", self.length, 0, most, self.kind)
        return attrs.evolve(self, compressed=True).interned()

    def with_charset(
        self, charset: str | None, collation: str | None, *, checked: bool = True
    ) -> ColumnType:
        """This type with the given (already resolved) charset; unchanged for non-string types.
        The shared instance when there is one (nothing is built again; its members checked,
        where ``checked``: a session that was not strict shares them too). In
        the charset ``binary`` a character string is its binary twin (:data:`BINARY_TWIN`:
        ``VARCHAR(10)`` is ``VARBINARY(10)``, ``TEXT`` is ``BLOB``), as the servers make it.
        Not ``checked``: an ENUM's or a SET's members may be one in the new collation, as a
        ``CONVERT TO CHARACTER SET`` leaves them on MariaDB (``ENUM('é','ß')`` is
        ``ENUM('?','?')`` in ascii)."""
        if not self.has_charset or (self.charset, self.collation) == (charset, collation):
            return self
        twin = BINARY_TWIN.get(self.kind) if charset == "binary" else None
        if twin is not None:
            made = ColumnType.of(twin, length=self.length if self.family == Family.CHAR else None)
            return made.compressing(self.compressed)
        found = _INTERNED.get(self._key(charset, collation))
        if found is not None:
            if checked and found.members:  # (alike ones shared too)
                _check_in(found.kind, found.members, charset, collation)
            return found
        members = self.members and _members_in(
            self.kind, self.members, charset, collation, check=checked
        )
        return attrs.evolve(self, charset=charset, collation=collation, members=members).interned()

    def integer_range(self) -> tuple[int, int]:
        """The (min, max) an integer kind stores."""
        return INTEGER_RANGES[self.kind, self.unsigned]

    def max_length(self) -> int | None:
        """Characters (string kinds) or bytes (binary kinds) a value may hold at most."""
        if self.family in (Family.CHAR, Family.BINARY):
            return self.length
        if self.family == Family.TEXT:
            return LOB_BYTES[self.kind] // max_bytes_per_char(self.charset)
        if self.family == Family.BLOB:
            return LOB_BYTES[self.kind]
        return None

    def __str__(self) -> str:
        """A readable spelling for messages (rendering SQL is the ddl layer's job)."""
        args: list[str] = []
        if self.family in (Family.CHAR, Family.BINARY, Family.BIT):
            args = [str(self.length)]
        elif self.precision is not None:
            args = [str(self.precision), str(self.scale)]
        elif self.fsp:
            args = [str(self.fsp)]
        elif self.members:
            args = ["'" + m.replace("'", "''") + "'" for m in self.members]
        text = self.kind.lower() + (f"({','.join(args)})" if args else "")
        if self.unsigned:
            text += " unsigned"
        if self.zerofill:
            text += " zerofill"
        if self.has_charset and self.collation:
            text += f" collate {self.collation}"
        if self.compressed:
            text += " compressed"
        return text

    # -- values -------------------------------------------------------------------------------

    def coerce(self, value: Any) -> Any:
        """The canonical value a column of this type stores for ``value``.

        ``None`` stays ``None`` (nullability is the column's business). Raises
        InvalidValueError when MySQL in strict mode would refuse the value.
        """
        if value is None:
            return None
        return coerce(self, value)

    def convert(self, value: Any, source: ColumnType) -> Any:
        """The value a column of this type holds for ``value`` after an ALTER changed its type
        from ``source``: :meth:`coerce`, except where the server converts by the old type (a
        UUID, INET4 or INET6 becomes its bytes in a binary string)."""
        if value is None:
            return None
        return convert(self, value, source)


#: the kinds MariaDB's ``COMPRESSED`` takes (CHAR, BINARY, ENUM, SET and the others: a syntax
#: error); JSON is MariaDB's LONGTEXT
COMPRESSIBLE = frozenset({K.VARCHAR, K.VARBINARY, K.JSON, *TEXT_SIZES, *BLOB_SIZES})

_INTERNED: weakref.WeakValueDictionary[tuple[Any, ...], ColumnType] = weakref.WeakValueDictionary()


def _build(kind_name: str, params: dict[str, Any]) -> ColumnType:
    kind = TypeKind(kind_name)
    return ColumnType(kind=kind, **_CANONICALISE[FAMILY[kind]](kind, dict(params))).interned()


@functools.lru_cache(maxsize=4096)
def _of(kind_name: str, params: tuple[tuple[str, Any], ...]) -> ColumnType:
    # types repeat endlessly in a DDL stream; canonicalising one is pure, so remember it
    return _build(kind_name, dict(params))


# --- canonicalisation, a rule per family ---------------------------------------------------------


def _take(params: dict[str, Any], allowed: set[str], kind: TypeKind) -> dict[str, Any]:
    out = {}
    for k, v in params.items():
        if k in allowed:
            out[k] = v
        elif v is not None and v is not False and v != ():
            extra = sorted(
                k for k, v in params.items() if k not in allowed and v not in (None, False, ())
            )
            raise DDLError(f"{kind} takes no {', '.join(extra)}")
    return out


def _check_int(name: str, value: int | None, lo: int, hi: int, kind: TypeKind) -> None:
    if value is not None and not lo <= value <= hi:
        raise DDLError(f"{kind} {name} {value} is out of range {lo}..{hi}")


def _canon_integer(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"width", "unsigned", "zerofill"}, kind)
    _check_int("display width", p.get("width"), 0, 255, kind)
    zerofill = bool(p.get("zerofill"))
    return {
        "width": p.get("width") or None,  # (a width of 0 is the type's own, as the servers read it)
        "unsigned": bool(p.get("unsigned")) or zerofill,
        "zerofill": zerofill,
    }


#: the largest DECIMAL scale: MariaDB's (MySQL's is 30)
MAX_DECIMAL_SCALE = 38


def _canon_decimal(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"precision", "scale", "unsigned", "zerofill"}, kind)
    scale = 0 if p.get("scale") is None else p["scale"]
    # (a precision of 0 is the default's, as the servers read it, when the scale is 0 too)
    precision = 10 if p.get("precision") is None or p["precision"] == scale == 0 else p["precision"]
    _check_int("precision", precision, 1, 65, kind)
    # (MariaDB's most; MySQL's 30 is one of mvdd's stricter rules, mvdd.ddl.rules.STRICTER)
    _check_int("scale", scale, 0, MAX_DECIMAL_SCALE, kind)
    if scale > precision:
        raise DDLError(f"DECIMAL scale {scale} is larger than its precision {precision}")
    zerofill = bool(p.get("zerofill"))
    return {
        "precision": precision,
        "scale": scale,
        "unsigned": bool(p.get("unsigned")) or zerofill,
        "zerofill": zerofill,
    }


def _canon_float(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"precision", "scale", "unsigned", "zerofill"}, kind)
    precision, scale = p.get("precision"), p.get("scale")
    if (precision is None) != (scale is None):
        raise DDLError(f"{kind} needs both precision and scale, or neither")
    if precision == scale == 0:  # (FLOAT(0,0) is FLOAT, as the servers read it)
        precision = scale = None
    if precision is not None:
        _check_int("precision", precision, 1, 255, kind)
        _check_int("scale", scale, 0, 30, kind)
        if scale > precision:
            raise DDLError(f"{kind} scale {scale} is larger than its precision {precision}")
    zerofill = bool(p.get("zerofill"))
    return {
        "precision": precision,
        "scale": scale,
        "unsigned": bool(p.get("unsigned")) or zerofill,
        "zerofill": zerofill,
    }


def _canon_bit(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"length"}, kind)
    length = p.get("length") or 1  # (BIT(0) is BIT(1), as the servers read it)
    _check_int("length", length, 1, 64, kind)
    return {"length": length}


def _canon_charset_part(p: dict[str, Any], *, binary: bool = False) -> dict[str, Any]:
    """The (charset, collation) of a string type; the charset ``binary`` only where
    ``binary`` (an ENUM's or a SET's: a character string in it is a binary string, built by
    :meth:`ColumnType.with_charset`)."""
    cs, co = resolve_charset(p.get("charset"), p.get("collation"))
    if cs == "binary" and not binary:
        raise DDLError(
            "character set binary makes a binary string type: use BINARY/VARBINARY/BLOB, or "
            "ColumnType.with_charset"
        )
    return {"charset": cs, "collation": co}


def _canon_char(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"length", "charset", "collation"}, kind)
    cs = _canon_charset_part(p)
    if kind == K.CHAR:
        length = 1 if p.get("length") is None else p["length"]
        _check_int("length", length, 0, 255, kind)
    else:
        if p.get("length") is None:
            raise DDLError("VARCHAR needs a length")
        length = p["length"]
        # a charset not named yet is the table's, known once the column meets its table: the
        # bound of the narrowest (one byte a character) holds here, and the row's size, counted
        # in the charset the column ends with, holds the rest
        per_char = 1 if cs["charset"] is None else max_bytes_per_char(cs["charset"])
        _check_int("length", length, 0, MAX_VARCHAR_BYTES // per_char, kind)
    return {"length": length, **cs}


def _canon_binary(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    p = _take(p, {"length"}, kind)
    if kind == K.BINARY:
        length = 1 if p.get("length") is None else p["length"]
        _check_int("length", length, 0, 255, kind)
    else:
        if p.get("length") is None:
            raise DDLError("VARBINARY needs a length")
        length = p["length"]
        _check_int("length", length, 0, MAX_VARCHAR_BYTES, kind)
    return {"length": length}


def _canon_text(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    return _canon_charset_part(_take(p, {"charset", "collation"}, kind))


def _canon_blob(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    _take(p, set(), kind)
    return {}


def _canon_enum(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    # (``duplicates``: members may be one, as a session that is not strict keeps them)
    p = _take(p, {"members", "charset", "collation", "duplicates"}, kind)
    cs = _canon_charset_part(p, binary=True)
    # MySQL strips trailing spaces from members when the table is created
    members = tuple(str(m).rstrip(" ") for m in p.get("members") or ())
    if not members:
        raise DDLError(f"{kind} needs at least one member")
    if len(members) > (64 if kind == K.SET else 65535):
        raise DDLError(f"{kind} has too many members ({len(members)})")
    if kind == K.SET and any("," in m for m in members):
        raise DDLError("SET members cannot contain ','")
    members = _members_in(
        kind, members, cs["charset"], cs["collation"], check=not p.get("duplicates")
    )
    return {"members": members, **cs}


def _members_in(
    kind: TypeKind,
    members: tuple[str, ...],
    charset: str | None,
    collation: str | None,
    *,
    check: bool = True,
) -> tuple[str, ...]:
    """An ENUM's or a SET's members as its charset writes them: each character the charset
    cannot write is a ``?``, as both servers write it (``ENUM('é','b') CHARACTER SET ascii``
    is ``ENUM('?','b')``); then no two may be one under the collation (the servers' 1291:
    :func:`~mvdd.model.collation.collation_key`), once it is known (a charset alone: its
    default collation), where ``check``."""
    if charset is not None and charset != "binary":
        members = tuple(written_as(charset, m) for m in members)
    if check:
        _check_in(kind, members, charset, collation)
    return members


def _check_in(
    kind: TypeKind, members: tuple[str, ...], charset: str | None, collation: str | None
) -> None:
    """:func:`check_members` of members in ``charset`` and ``collation``, once the collation is
    known (a charset alone: its default collation; else its charset, the table's, is not
    known yet)."""
    if collation is None and charset is not None:
        collation = CHARSETS[charset][0]
    if collation is not None:
        check_members(kind, members, collation)


def check_members(kind: TypeKind, members: tuple[str, ...], collation: str | None) -> None:
    """DDLError when two members of an ENUM or a SET are one under ``collation`` (the
    servers' 1291; :func:`~mvdd.model.collation.collation_key`). None: the collation is not
    known, not even at the end of a statement (no charset of the table's or its database's):
    Unicode's case folding, which the servers' default collations hold to at least."""
    dupes = alike_members(members, collation)
    if dupes:
        hint = _HIDDEN_MEMBERS if any("?" in m for m in dupes) else ""
        raise DDLError(f"{kind} has duplicate members {dupes}{hint}")


def check_hidden_members(kind: TypeKind, members: tuple[str, ...], collation: str | None) -> None:
    """DDLError when two members of an ENUM or a SET in a server's own text (its SHOW CREATE
    TABLE) are one under ``collation`` and one of them holds a ``?``: that text writes each
    character beyond the BMP and each byte a member keeps that its charset does not read as
    ``?``, which may hide what keeps them apart (members alike otherwise are the table's: a
    session that was not strict made them)."""
    dupes = alike_members(members, collation)
    if any("?" in m for m in dupes):
        raise DDLError(f"{kind} has duplicate members {dupes}{_HIDDEN_MEMBERS}")


def alike_members(members: tuple[str, ...], collation: str | None) -> list[str]:
    """The members of an ENUM or a SET that are one with another under ``collation``
    (:func:`check_members`), sorted: a value's text does not tell them apart.

    >>> alike_members(("a", "A", "b"), "latin1_swedish_ci"), alike_members(("a", "A"), "latin1_bin")
    (['A', 'a'], [])
    """
    folded = list(map(collation_key(collation), members))
    return sorted({m for m, f in zip(members, folded, strict=True) if folded.count(f) > 1})


#: why a server's own text may hold members that are one: it hides what kept them apart
_HIDDEN_MEMBERS = (
    " (if this is a server's SHOW CREATE TABLE, which writes each character beyond the Basic "
    "Multilingual Plane as ?, the members it hides are not known)"
)


def _canon_temporal(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    if kind == K.YEAR:
        p = _take(p, {"width"}, kind)
        # YEAR(2), MariaDB's (MySQL 8 has none), stores the years YEAR does and shows two
        # digits; a number 0 means 2000 there (see mvdd.model.coerce). Any other width is
        # YEAR's four (MariaDB takes YEAR(3) and shows year(4))
        return {"width": 2} if p.get("width") == 2 else {}
    if kind == K.DATE:
        _take(p, set(), kind)
        return {}
    p = _take(p, {"fsp"}, kind)
    fsp = 0 if p.get("fsp") is None else p["fsp"]
    _check_int("fractional seconds precision", fsp, 0, 6, kind)
    return {"fsp": fsp}


def _canon_plain(kind: TypeKind, p: dict[str, Any]) -> dict[str, Any]:
    _take(p, set(), kind)
    return {}


_CANONICALISE: dict[Family, Callable[[TypeKind, dict[str, Any]], dict[str, Any]]] = {
    Family.INTEGER: _canon_integer,
    Family.DECIMAL: _canon_decimal,
    Family.FLOAT: _canon_float,
    Family.BIT: _canon_bit,
    Family.CHAR: _canon_char,
    Family.BINARY: _canon_binary,
    Family.TEXT: _canon_text,
    Family.BLOB: _canon_blob,
    Family.ENUM: _canon_enum,
    Family.TEMPORAL: _canon_temporal,
    Family.JSON: _canon_plain,
    Family.SPATIAL: _canon_plain,
    Family.PLUGIN: _canon_plain,
}


_DECIMAL_DIGIT_BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)


def _decimal_bytes(digits: int) -> int:
    return digits // 9 * 4 + _DECIMAL_DIGIT_BYTES[digits % 9]


_FIXED_BYTES: dict[TypeKind, int] = {
    K.FLOAT: 4,
    K.DOUBLE: 8,
    K.DATE: 3,
    K.YEAR: 1,
    K.TINYTEXT: 9,
    K.TEXT: 10,
    K.MEDIUMTEXT: 11,
    K.LONGTEXT: 12,
    K.TINYBLOB: 9,
    K.BLOB: 10,
    K.MEDIUMBLOB: 11,
    K.LONGBLOB: 12,
    K.JSON: 12,
}
_TEMPORAL_BASE: dict[TypeKind, int] = {K.TIME: 3, K.DATETIME: 5, K.TIMESTAMP: 4}


def row_bytes(t: ColumnType) -> int:
    """Bytes a value of this type takes in the server's row-size check (a TEXT/BLOB counts its
    length and pointer only): the sum over a table's stored columns, plus one bit per nullable
    column, must stay within :data:`MAX_ROW_BYTES`."""
    return t.row_size


def _row_bytes(t: ColumnType) -> int:
    fam = t.family
    if fam == Family.INTEGER:
        return INTEGER_BYTES[t.kind]
    if fam == Family.DECIMAL:
        assert t.precision is not None and t.scale is not None
        return _decimal_bytes(t.precision - t.scale) + _decimal_bytes(t.scale)
    if fam == Family.BIT:
        return ((t.length or 1) + 7) // 8
    if fam in (Family.CHAR, Family.BINARY):
        size = (t.length or 0) * (max_bytes_per_char(t.charset) if fam == Family.CHAR else 1)
        size += t.compressed  # (a compressed value's header byte)
        if t.kind in (K.VARCHAR, K.VARBINARY):
            size += 1 if size < 256 else 2
        return size
    if fam == Family.ENUM:
        if t.kind == K.ENUM:
            return 1 if len(t.members) < 256 else 2
        return {1: 1, 2: 2, 3: 3, 4: 4}.get((len(t.members) + 7) // 8, 8)
    if fam == Family.SPATIAL:
        return 12
    if fam == Family.PLUGIN:
        return PLUGIN_BYTES[t.kind]
    if t.kind in _TEMPORAL_BASE:
        return _TEMPORAL_BASE[t.kind] + ((t.fsp or 0) + 1) // 2
    return _FIXED_BYTES[t.kind]


#: the string families: every type converts to and from these (ALTER … MODIFY)
_STRINGS = frozenset(
    {Family.CHAR, Family.BINARY, Family.TEXT, Family.BLOB, Family.ENUM, Family.JSON}
)
#: the families whose kinds the server casts only to the families named: a plugin type (UUID,
#: INET4, INET6) to a string, not to a number, a temporal, a spatial type or another plugin
#: kind; a spatial type to a string or another spatial kind. Every other family casts to any
#: family these allow ("Cannot cast 'int' as 'point'", checked on the server)
_CASTS: dict[Family, frozenset[Family]] = {
    Family.PLUGIN: _STRINGS,
    Family.SPATIAL: _STRINGS | {Family.SPATIAL},
}


def castable(old: ColumnType, new: ColumnType) -> bool:
    """Whether the server can change a column of type ``old`` to ``new`` (ALTER … MODIFY):
    whatever the values, it may still refuse the values it holds."""
    if old.kind == new.kind or (old.family not in _CASTS and new.family not in _CASTS):
        return True  # (the common case: neither family casts only to some)
    return all(
        one.family not in _CASTS or other.family in _CASTS[one.family]
        for one, other in ((old, new), (new, old))
    )


def text_kind_for_length(chars: int, charset: str | None, *, blob: bool = False) -> TypeKind:
    """The smallest TEXT (or BLOB) kind holding ``chars`` characters (bytes), as ``TEXT(M)``
    picks: the longest for any M up to its bytes (``TEXT(4294967295)`` of utf8mb4 is a
    LONGTEXT, as the servers take it), DDLError past them."""
    kinds = BLOB_SIZES if blob else TEXT_SIZES
    if chars > LOB_BYTES[kinds[-1]]:
        raise DDLError(f"{'BLOB' if blob else 'TEXT'}({chars}) is too long")
    need = chars if blob else chars * max_bytes_per_char(charset)
    return next((kind for kind in kinds if need <= LOB_BYTES[kind]), kinds[-1])
