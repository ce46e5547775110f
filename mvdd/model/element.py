"""Schema elements: columns, indexes and checks, each a frozen value with a stable id.

An element's ``id`` is its identity: a rename or a type change keeps it, a drop and re-add under
the same name gets a new one. Indexes reference columns by id, so a column rename keeps them.
Columns and indexes carry their F1 :class:`State` (see :mod:`mvdd.online`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from decimal import ROUND_DOWN, Context, Decimal, InvalidOperation
from enum import Enum, StrEnum
from typing import Any, Final, Literal, TypeAlias

import attrs

from mvdd.errors import DDLError, InvalidValueError, MvddError
from mvdd.model.coerce import (
    DOUBLE_TEXT_WIDTH,
    FLOAT_MAX,
    coerce_text,
    double_seconds,
    double_text,
    lenient_date,
    members_named,
    single_float,
    two_digit_year,
)
from mvdd.model.encoding import (
    NONASCII,
    holds,
    holds_value,
    kept_text,
    python_codec,
    well_formed,
)
from mvdd.model.frozen import builder
from mvdd.model.kind import CALENDAR, CHARSET_FAMILIES, Family, TypeKind
from mvdd.model.types import ColumnType, canonical_charset


class State(StrEnum):
    """F1 states of a schema element (seed 002).

    Adding walks ABSENT → DELETE_ONLY → WRITE_ONLY → WRITE_REORG → PUBLIC; dropping walks
    PUBLIC → WRITE_ONLY → DELETE_ONLY → DELETE_REORG → ABSENT.
    """

    ABSENT = "absent"
    DELETE_ONLY = "delete_only"
    WRITE_ONLY = "write_only"
    WRITE_REORG = "write_reorg"
    PUBLIC = "public"
    DELETE_REORG = "delete_reorg"


#: states in which DML may read and name the element
READABLE: Final = frozenset({State.PUBLIC})
#: states in which inserts and updates maintain the element
WRITABLE: Final = frozenset({State.WRITE_ONLY, State.WRITE_REORG, State.PUBLIC})
#: states in which deletes remove the element's data
DELETABLE: Final = frozenset(State) - {State.ABSENT}


class _NoDefault(Enum):
    NO_DEFAULT = "NO_DEFAULT"

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __bool__(self) -> bool:
        return False


#: The column has no DEFAULT clause (distinct from ``DEFAULT NULL``, which is ``None``).
NO_DEFAULT: Final = _NoDefault.NO_DEFAULT


@attrs.frozen
class Expr:
    """A SQL expression, held as its normalised MySQL text (identifiers quoted, keywords and
    function names upper case, outer parentheses removed), so equal expressions compare equal."""

    sql: str

    def __str__(self) -> str:
        return self.sql


#: What ``Column.default`` holds: NO_DEFAULT, None (DEFAULT NULL), the canonical Python value of a
#: literal (int, Decimal, float, str, bytes; dates as MySQL text), or an :class:`Expr`.
Default: TypeAlias = (
    Literal[_NoDefault.NO_DEFAULT] | int | float | Decimal | str | bytes | Expr | None
)


@attrs.frozen
class Generated:
    """A generated column's expression; ``stored`` is STORED, else VIRTUAL."""

    expr: Expr
    stored: bool = False


@attrs.frozen(kw_only=True, cache_hash=True)
class Column:
    """One column. ``id`` is stable across renames and type changes.

    Attributes:
        id: stable identity within the table (0 while not yet placed in a table).
        name: as written (MySQL compares column names case-insensitively).
        type: the column's type, including charset and collation for string types.
        nullable: NULL allowed.
        default: see :data:`Default`.
        generated: the generation expression, if the column is generated.
        on_update: ``ON UPDATE`` expression (``CURRENT_TIMESTAMP``), if any.
        auto_increment: values come from the table's counter.
        comment: the column comment.
        check: a column-level CHECK expression (MariaDB keeps these with the column).
        invisible: left out of ``SELECT *`` and of an INSERT without a column list (MariaDB
            ``INVISIBLE``, MySQL 8 ``INVISIBLE``); still stored, logged and nameable.
        row_period: MariaDB's ``GENERATED ALWAYS AS ROW START`` (``"START"``) or ``ROW END``
            (``"END"``): a system-versioned table's own column for when a row version began or
            ended (a ``TIMESTAMP(6)``, or InnoDB's transaction ids, ``BIGINT UNSIGNED``), its
            ``PERIOD FOR SYSTEM_TIME``; the server writes it, NOT NULL.
        unversioned: MariaDB's ``WITHOUT SYSTEM VERSIONING``: a change to only such columns
            of a system-versioned table keeps no history row. The server keeps the mark
            where a table's versioning is dropped (and shows it), and drops it where a column
            is defined in a table that is not versioned.
        implicit_default: the default was picked by a schema join (seed 000's implicit
            default for a column some tables lack), not written by anyone: joining the table
            again treats it as "needs some default", which keeps joins associative. It counts
            in equality; :meth:`Table.equivalent` (DML behaviour) ignores it.
        state: the F1 state.
    """

    id: int = 0
    name: str
    type: ColumnType
    nullable: bool = True
    default: Default = NO_DEFAULT
    generated: Generated | None = None
    on_update: Expr | None = None
    auto_increment: bool = False
    comment: str | None = None
    check: Expr | None = None
    invisible: bool = False
    implicit_default: bool = False
    state: State = State.PUBLIC
    unversioned: bool = False
    row_period: str | None = None

    def same_as_shown(self, other: Column) -> bool:
        """Equal, and of the same display width, which equality leaves out (an ``INT(5)`` is
        an ``INT``) but the server shows, and by which a two-digit ``YEAR(2)`` reads its
        defaults (:attr:`ColumnType.two_digit`): what a catalog keeps of a column that a
        statement redefines."""
        return self == other and self.type.width == other.type.width

    @property
    def charset(self) -> str | None:
        return self.type.charset

    @property
    def collation(self) -> str | None:
        return self.type.collation

    @property
    def has_default(self) -> bool:
        """Whether an INSERT may omit this column (a default, NULL, generated, a counter, or
        a system-versioned table's ROW START or ROW END)."""
        return (
            self.effective_default is not NO_DEFAULT
            or self.generated is not None
            or self.auto_increment
            or self.row_period is not None
        )

    @property
    def effective_default(self) -> Default:
        """The default MySQL applies: a nullable column without DEFAULT defaults to NULL, and a
        NOT NULL ENUM without DEFAULT to its first member (even in strict mode)."""
        if self.default is not NO_DEFAULT or self.generated is not None:
            return self.default
        if self.nullable:
            return None
        if self.type.kind == "ENUM" and self.type.members:
            return self.type.members[0]
        return NO_DEFAULT

    def placed(self, column_id: int, ctype: ColumnType, state: State | None = None) -> Column:
        """This column as a table holds it: under its id there, with ``ctype`` (its type with
        the table's charset), in ``state`` when given (a redefined column keeps the state of
        the one it replaces). ``attrs.evolve`` without its walk over the fields, for the
        statement path (a test holds it equal to the evolve).

        >>> Column(name="a", type=ColumnType.of("int")).placed(3, ColumnType.of("int")).id
        3
        """
        return build_column(
            id=column_id,
            name=self.name,
            type=ctype,
            nullable=self.nullable,
            default=self.default,
            generated=self.generated,
            on_update=self.on_update,
            auto_increment=self.auto_increment,
            comment=self.comment,
            check=self.check,
            invisible=self.invisible,
            implicit_default=self.implicit_default,
            state=self.state if state is None else state,
            unversioned=self.unversioned,
            row_period=self.row_period,
        )


#: a Column made as ``Column(…)`` makes it, at a fraction of the cost (:mod:`mvdd.model.frozen`)
build_column = builder(Column)


#: the numeric families (and YEAR): a hex literal is a number in them, a bit literal (b'101')
#: too; in the others a bit literal is its bytes
_NUMBERS = frozenset({Family.INTEGER, Family.DECIMAL, Family.FLOAT, Family.BIT})


def coerce_default(
    value: Default,
    ctype: ColumnType,
    column: str,
    *,
    mariadb: bool = False,
    replica: bool = False,
    any_day: bool = False,
    round_fractions: bool = False,
    written_in: str | None = None,
) -> Default:
    """The canonical default for a column of ``ctype`` (a literal as stated: numbers as
    Decimal, hex and bits as bytes, text as str); raises DDLError if it cannot hold it.
    The literal is first read as its kind reads in the column (:data:`_READINGS`, a rule for
    each kind), then coerced by the column's type.

    ``written_in``: the charset the statement's client wrote it in, when not UTF-8: a string
    literal in a binary column is its bytes in that charset, as the server took them.

    A number literal in an ENUM or a SET must name a member as its text and index the member
    it names (:func:`_member_number`), as MariaDB checks a literal DEFAULT there.

    ``mariadb``: the value is read as MariaDB reads it, where MySQL reads it otherwise: a date
    and time's or a time's fraction of a second longer than the column's is cut to its digits
    (:func:`cut_fraction`), not rounded; a double there is its binary value (``1.9e0`` is
    ``1.899999999``: :func:`~mvdd.model.coerce.double_seconds`); a number whose fraction cuts
    to 999999 microseconds is refused as a TIME (:func:`_last_microsecond`); a hex string
    ``X'…'`` (:class:`HexText`) in a number's, a date's or a year's column is the string its
    bytes spell, not a number. ``round_fractions``: its session had TIME_ROUND_FRACTIONAL,
    under which MariaDB rounds the fraction, first to six digits, then to the column's
    (:func:`round_fraction`).

    ``replica``: the value's statement already ran on its server, which took it: a DATE's or
    DATETIME's text with a zero month or day, which a server keeps outside NO_ZERO_IN_DATE
    (MariaDB's default mode), is kept (:func:`~mvdd.model.coerce.lenient_date`), and so, with
    ``any_day`` (a session with ALLOW_INVALID_DATES), is one with a day its month lacks.

    >>> coerce_default("7", ColumnType.of("int"), "a")
    7
    >>> t, x = ColumnType.of("time", fsp=1), "1:00:00.55"
    >>> coerce_default(x, t, "a"), coerce_default(x, t, "a", mariadb=True)
    ('01:00:00.6', '01:00:00.5')
    >>> h, i = HexText(b"12"), ColumnType.of("int")
    >>> coerce_default(h, i, "a"), coerce_default(h, i, "a", mariadb=True)
    (12594, 12)
    """
    if value is NO_DEFAULT or value is None or isinstance(value, Expr):
        return value
    try:
        raw = _reading(value)(value, ctype, mariadb, written_in)
        cut = mariadb and not round_fractions
        if mariadb and ctype.kind == TypeKind.TIME:
            _last_microsecond(raw)
        if replica and isinstance(raw, str | int | Decimal) and ctype.kind in _LENIENT_DATES:
            kept = _kept_date(raw, ctype, cut=cut, mariadb=mariadb, any_day=any_day)
            if kept is not None:
                return kept
        if mariadb and ctype.kind in _FRACTIONED:
            raw = (cut_fraction if cut else round_fraction)(raw, ctype)
        if ctype.family == Family.JSON:  # (the server keeps any text; mvdd's rules check it)
            return coerce_text(ctype, raw)
        if ctype.two_digit:
            return two_digit_year(ctype.coerce(raw))
        if ctype.kind == TypeKind.FLOAT and ctype.precision is None:
            return single_float(ctype.coerce(raw))
        if ctype.family == Family.ENUM and isinstance(raw, str):
            return members_named(ctype, raw)  # (a text names its members: no number, as a row's)
        held = ctype.coerce(raw)
        if not mariadb and ctype.kind == TypeKind.TIME and _past_mysql_time(held):
            raise InvalidValueError(
                f"{raw!r} is out of MySQL's TIME range -838:59:59..838:59:59 (MariaDB's holds "
                "the fraction of its last second)"
            )
        return held
    except MvddError as err:
        raise DDLError(f"invalid default value: {err.message}", column=column) from None


def _past_mysql_time(text: str) -> bool:
    """Whether a TIME's canonical text is past MySQL's last second, 838:59:59, by a fraction."""
    whole, _, fraction = text.lstrip("-").partition(".")
    return whole == "838:59:59" and fraction.strip("0") != ""


#: the families whose values are bytes
_BYTES = frozenset({Family.BINARY, Family.BLOB})


def _numeric(ctype: ColumnType) -> bool:
    return ctype.family in _NUMBERS or ctype.kind == TypeKind.YEAR


# -- how a literal reads in a column: a rule for each kind of literal (its Python type, the
# nearest in its class's order), each given the literal, the column's type, whether MariaDB
# reads it and the charset its statement was written in; the value it gives is the column's
# to coerce (:func:`coerce_default`)


def _as_is(raw: Any, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    return raw


def _hex_text(raw: HexText, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """``X'…'``: to MariaDB in a number's or a date's column the text its bytes spell (each
    byte a character), in a BIT's a string's bytes (nine bytes of leading zeros too, where a
    ``0x…`` number is past 64 bits), else as any bytes."""
    if mariadb and ctype.family in _HEX_TEXT_FAMILIES:
        return _text(raw.decode("latin-1"), ctype, mariadb, written_in)
    if mariadb and ctype.family == Family.BIT:
        return bytes(raw)  # (a string's bytes, however many: no number of 64 bits)
    return _bytes(raw, ctype, mariadb, written_in)


def _bytes(raw: bytes, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """``x'…'``: a number in a numeric context (a BIT's its bytes); in a text column (an
    ENUM's, a SET's too) the text its bytes are in the column's charset, as the servers
    convert a binary string (``CHAR(3) CHARACTER SET latin1 DEFAULT X'F6A7'`` is ``'ö§'``, a
    ucs2 column's odd bytes left-padded; bytes that are no text of it refused, their error
    1300); else its bytes."""
    if _numeric(ctype) and len(raw) > 8:  # (leading zero bytes too: a 64-bit integer of it)
        raise InvalidValueError(f"a hex or bit number of {len(raw)} bytes is past 64 bits")
    if _numeric(ctype) and ctype.family != Family.BIT:
        return int.from_bytes(raw, "big")
    if ctype.family in CHARSET_FAMILIES:
        return _in_charset(raw, ctype)
    return raw


def _in_charset(data: bytes, ctype: ColumnType) -> Any:
    """A binary string's bytes as a text column reads them: in its charset, as under its
    introducer (:func:`introduced`); refused where they are no text of it (the servers' 1300)."""
    return _from_charset_text(introduced(ctype.charset or "utf8mb4", data), ctype)


def _binary_text(raw: BinaryText, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """``_binary'…'`` (:class:`BinaryText`): a text column reads its bytes in its own charset
    (``_binary'ab'`` in a ucs2 column is ``'慢'``, ``_binary'é'`` in a latin1 one ``'Ã©'``), a
    binary column and a BIT take them, any other column reads its text."""
    if ctype.family in CHARSET_FAMILIES:
        return _in_charset(raw.data, ctype)
    if ctype.family in (Family.BINARY, Family.BLOB, Family.BIT):
        return raw.data
    return _text(str(raw), ctype, mariadb, written_in)


#: the charsets of fixed units wider than a byte: a string's bytes are left-padded to a whole
#: unit in them, as the servers pad them (``X'41'`` is ``0x0041`` in ucs2)
_UNITS = {"ucs2": 2, "utf16": 2, "utf32": 4}


def _bits(raw: int, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """An int (a BIT column's value, as a change of the column's type carries it): a number in
    a numeric context, else its bytes. (A ``b'…'`` literal reads as its bytes do,
    :func:`bit_bytes`: as a ``0x…``.)"""
    if _numeric(ctype):
        return raw
    return raw.to_bytes(max(1, (raw.bit_length() + 7) // 8), "big")


def _number(raw: Decimal, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """A number literal: in an ENUM or a SET the member it names and indexes; to MariaDB a
    negative one is no date (:func:`_no_negative_date`), and a negative integer in a BIT(64)
    its 64 bits (``-1`` is 2**64 - 1, as the server stores it; a BIT of fewer bits, or a
    decimal with a fraction, refuses it)."""
    if ctype.family == Family.ENUM:
        return _member_number(raw, ctype)
    if mariadb:
        _no_negative_date(raw, ctype)
        if _word(ctype) and -(2**63) <= raw < 0 and raw.as_tuple().exponent == 0:
            return int(raw) % 2**64
    return raw


def _double(raw: DoubleLiteral, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """A number literal with an exponent (:class:`DoubleLiteral`): to MariaDB in a date's or a
    time's column its binary value to the nanosecond, as it reads a double there (a negative
    one no date, however small: :func:`_no_negative_date`), and a negative one in a BIT(64)
    the 64 bits of its whole part (C's cast of it to a 64-bit integer, :func:`_longlong`:
    ``-1.5e0`` is 2**64 - 1, ``-1e30`` and ``1e19`` are 2**63), and in a string column of a
    charset not ASCII's its whole text, not fitted to the column (``1.234567e0`` in a ucs2
    VARCHAR(5) is refused, where a utf8mb4 one fits it to ``'1.235'``: ``NONASCII``)."""
    if ctype.family == Family.ENUM:
        return _member_number(raw, ctype)
    if mariadb:
        _no_negative_date(raw, ctype)
        if ctype.family == Family.CHAR and ctype.charset in NONASCII:
            return double_text(float(raw), DOUBLE_TEXT_WIDTH)
        if ctype.family == Family.TEMPORAL and ctype.kind != TypeKind.YEAR:
            return double_seconds(float(raw))
        if _word(ctype) and not 0 <= raw < 2**63:
            return _longlong(float(raw)) % 2**64
    return _from_double(raw, ctype)


def _longlong(value: float) -> int:
    """A double cast to a 64-bit integer as C on x86 casts it: its whole part cut toward zero,
    and -2**63 for any double past the range (the processor's "integer indefinite")."""
    return int(value) if -(2.0**63) <= value < 2.0**63 else -(2**63)


def _word(ctype: ColumnType) -> bool:
    """Whether a column is a BIT(64), which stores any 64-bit integer's bits."""
    return ctype.family == Family.BIT and ctype.length == 64


def _no_negative_date(raw: Decimal, ctype: ColumnType) -> None:
    """Refuse a negative number as a date, as MariaDB refuses it however small
    (``-0.0000000001`` is no zero date, as its cut to six digits would make it; ``-0.0`` is)."""
    if ctype.kind in CALENDAR and raw < 0:
        raise InvalidValueError(f"{raw} is no date: a negative number")


def _text(raw: str, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """A string literal: a FLOAT's or a DOUBLE's as :func:`_float_text` reads it; in a binary
    column the bytes of its statement's charset."""
    if ctype.family == Family.FLOAT:
        return _float_text(raw, ctype, mariadb)
    if written_in is not None and ctype.family in _BYTES:
        return raw.encode(python_codec(written_in, statement=True) or "utf-8")
    return raw


def _introduced(raw: CharsetText, ctype: ColumnType, mariadb: bool, written_in: str | None) -> Any:
    """A string literal under a charset introducer (:class:`CharsetText`)."""
    if ctype.family == Family.FLOAT:
        return _float_text(raw, ctype, mariadb)
    return _from_charset_text(raw, ctype)


#: the kinds whose text MariaDB may keep with a zero month or day
_LENIENT_DATES = frozenset({TypeKind.DATE, TypeKind.DATETIME})


class DoubleLiteral(Decimal):
    """A number literal written with an exponent (``1e2``), as a DEFAULT states it: a double to
    the servers, held as its shortest digits. A string column takes the text MariaDB
    writes for it (:func:`~mvdd.model.coerce.double_text`: ``'100'``, ``'1e15'``), an integer
    column rounds it half to even (``2.5e0`` is 2), a DECIMAL takes its digits
    (``3.333333333333333333e0`` is ``3.3333333333333335``)."""


def number_literal(text: str) -> Decimal:
    """A number literal's value: a Decimal, or a :class:`DoubleLiteral` where it is written
    with an exponent. InvalidValueError past DOUBLE's range (the servers' error 1367).

    >>> number_literal("1.50"), type(number_literal("1e2")).__name__, number_literal("1e2")
    (Decimal('1.50'), 'DoubleLiteral', Decimal('100.0'))
    """
    if "e" not in text and "E" not in text:
        return Decimal(text)
    double = float(text)
    if not math.isfinite(double):
        raise InvalidValueError(f"illegal double {text!r}: past DOUBLE's range")
    return DoubleLiteral(repr(double))  # (its shortest digits)


def _from_double(raw: DoubleLiteral, ctype: ColumnType) -> Any:
    """A double literal as a column of ``ctype`` reads it (:class:`DoubleLiteral`): a double
    where the column's coercion reads one as the servers store it (an integer rounds its exact
    value half to even, a BIT or a YEAR cuts it, a string column takes its text fitted to the
    column or a JSON one: :mod:`mvdd.model.coerce`), any other its digits."""
    if ctype.family in _DOUBLE_FAMILIES or ctype.kind == TypeKind.YEAR:
        return float(raw)
    return Decimal(raw)


#: the families whose coercion reads a double as the servers store it
_DOUBLE_FAMILIES = frozenset(
    {Family.INTEGER, Family.BIT, Family.CHAR, Family.BINARY, Family.TEXT, Family.BLOB, Family.JSON}
)


def _member_number(raw: Decimal, ctype: ColumnType) -> Decimal:
    """A number literal as an ENUM's or a SET's DEFAULT: MariaDB matches its text against
    the members' names, then store it as a row's number is stored, as the member it indexes
    (a SET's bits); both must hold. ``ENUM('1','2') DEFAULT 2`` is ``'2'``, ``SET('0','2')
    DEFAULT 0`` is ``''``; ``ENUM('a','b') DEFAULT 2`` and ``ENUM('5','2') DEFAULT 5`` are
    refused."""
    double = type(raw) is DoubleLiteral
    members_named(ctype, double_text(float(raw), DOUBLE_TEXT_WIDTH) if double else format(raw, "f"))
    return Decimal(raw).to_integral_value(ROUND_DOWN)  # (its fraction cut: 3.5 indexes 3)


def _float_text(raw: str, ctype: ColumnType, mariadb: bool) -> Any:
    """A text DEFAULT of a FLOAT or a DOUBLE: in an unsigned one a negative number is 0 to
    MariaDB (it warns and takes it; a negative number literal it refuses); to MariaDB a number
    past the type's range is the type's end on its side (``FLOAT(5,2) DEFAULT '1000'`` is
    999.99, an unsigned one's too, ``FLOAT DEFAULT '1e39'`` the largest single, warning; a
    number literal there it refuses, and so a text past DOUBLE's own range, ``'1e400'``)."""
    try:
        number = Decimal(raw.strip())
    except InvalidOperation:
        return raw  # (not a number: refused as any column refuses it)
    if ctype.unsigned and number.is_signed():
        return "0"  # (-0 too)
    if not (mariadb and math.isfinite(float(number))):
        return raw
    try:
        ctype.coerce(raw)
    except InvalidValueError:
        end = FLOAT_MAX if ctype.precision is None else _fixed_end(ctype)
        return -end if number < 0 else end
    return raw


def _fixed_end(ctype: ColumnType) -> Decimal:
    """The largest value of a FLOAT(M,D) or a DOUBLE(M,D): M digits, D of them after the
    point, all nines (DOUBLE without them has no end a double reaches)."""
    assert ctype.precision is not None and ctype.scale is not None
    return Decimal(10) ** (ctype.precision - ctype.scale) - Decimal(10).scaleb(-ctype.scale - 1)


class BinaryText(str):
    """A string literal under the ``_binary`` introducer, as a DEFAULT states it
    (:func:`introduced`): its text as written and its bytes, the statement's UTF-8."""

    data: bytes

    def __new__(cls, text: str, data: bytes) -> BinaryText:
        made = super().__new__(cls, text)
        made.data = data
        return made


class CharsetText(str):
    """A string literal under a charset introducer, as a DEFAULT states it (:func:`introduced`):
    the text its bytes spell in that charset, and those bytes, which a binary column takes;
    ``invalid`` names the charset where the bytes are no text of it (a text column refuses
    them, a binary one takes them), else it is None."""

    data: bytes
    invalid: str | None

    def __new__(cls, text: str, data: bytes, invalid: str | None = None) -> CharsetText:
        made = super().__new__(cls, text)
        made.data, made.invalid = data, invalid
        return made


def _kept_date(
    raw: str | int | Decimal, ctype: ColumnType, *, cut: bool, mariadb: bool, any_day: bool
) -> str | None:
    """A DATE's or DATETIME's text (or number) with a zero month or day, as a server keeps
    it outside NO_ZERO_IN_DATE (:func:`~mvdd.model.coerce.lenient_date`), a fraction cut to
    the column's digits where ``cut`` (as MariaDB cuts it, digits past the sixth first), else
    rounded (by MariaDB to six digits first, then to the column's); None for a value the
    column reads as a date (or refuses for another reason)."""
    if ctype.kind == TypeKind.DATE or not mariadb:
        wide = ctype
    else:
        wide = _SIX_DIGITS[ctype.kind]
        raw = _six_digits(raw) if cut else raw
    try:
        wide.coerce(raw)
        return None
    except InvalidValueError:
        kept = lenient_date(wide, raw, any_day=any_day)
    if kept is None or wide == ctype:
        return kept
    return _cut(kept, ctype.fsp or 0) if cut else lenient_date(ctype, kept, any_day=any_day)


def _from_charset_text(raw: CharsetText, ctype: ColumnType) -> Any:
    """An introduced string literal as a column of ``ctype`` reads it: a binary column its
    bytes, any other its text, refused where the bytes are no text of their charset, save
    bytes of the column's own charset of one byte a character, which the servers keep as they
    are (``X'F6'`` in an ascii column: :func:`~mvdd.model.encoding.holds_value`)."""
    if ctype.family in (Family.BINARY, Family.BLOB, Family.BIT):
        return raw.data
    if raw.invalid is not None and raw.invalid == ctype.charset:
        kept = kept_text(raw.data, raw.invalid)  # (any byte, in a charset of one a character)
        if kept is not None and holds_value(raw.invalid, kept):
            return kept
    if raw.invalid is not None:
        raise InvalidValueError(f"invalid {raw.invalid} character string {raw.data!r}")
    return raw


def introduced(introducer: str, value: Any) -> Any:
    """A string or hex literal under a charset introducer (``_latin1'…'``): its bytes (a
    statement is UTF-8 text, as the binlog reader reads it) read in that charset, as the
    servers read them (``_latin1'é'`` is ``'Ã©'``, ``_latin1 X'E9'`` is ``'é'``, ``_ucs2'ab'``
    is ``'慢'``, ``_ucs2 X'41'`` left-padded ``'A'``; ``_ascii'é'``, no text of ascii, is its
    bytes alone: a text column refuses it, a binary one takes them). A ``_binary`` string its
    text with its UTF-8 bytes (:class:`BinaryText`: a text column reads them in its own
    charset), a ``_binary`` hex literal and one in a charset without a Python codec as it is;
    a ``_utf8mb4`` one its text, with its UTF-8 bytes.

    >>> introduced("_latin1", "é"), introduced("_latin1", bytes([0xE9]))
    ('Ã©', 'é')
    """
    charset = canonical_charset(introducer.removeprefix("_"))
    if charset == "binary" and isinstance(value, str):
        return BinaryText(value, value.encode("utf-8"))
    if charset == "binary" or not isinstance(value, str | bytes):
        return value
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    unit = _UNITS.get(charset, 1)  # (left-padded to a whole unit of a wide charset)
    data = data.rjust(-(-len(data) // unit) * unit, b"\0")
    codec = python_codec(charset)
    if codec is None:
        return value
    if isinstance(value, str) and charset == "utf8mb4":
        # (its text as written, and its bytes, which a binary column takes as they are: a
        # plain literal there is its bytes in the connection's charset instead)
        return CharsetText(value, data, None)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return CharsetText(data.decode(codec, errors="replace"), data, charset)
    # (utf8mb3's codec reads the characters past U+FFFF, which it does not hold; a multi-byte
    # charset's codec reads an ill-formed sequence as the server shows it, a ?)
    good = holds(charset, text) and well_formed(data, charset)
    return CharsetText(text, data, None if good else charset)


def bit_bytes(digits: str) -> bytes:
    """The bytes of a bit literal ``b'…'`` of ``digits``: as many as its digits fill, the
    leading zero ones kept (``b'000000001'`` is ``0x0001``, ``b''`` no byte), as the servers
    read one.

    >>> bit_bytes("000000001"), bit_bytes(""), bit_bytes("1000001")
    (b'\\x00\\x01', b'', b'A')
    """
    return int(digits or "0", 2).to_bytes((len(digits) + 7) // 8, "big")


def hex_bytes(digits: str) -> bytes:
    """The bytes of a hex literal ``X'…'`` or ``0x…`` of ``digits``: an odd count of them
    takes a leading zero (``0xABC`` is ``0x0ABC``), as the servers read one.

    >>> hex_bytes("ABC"), hex_bytes("")
    (b'\\n\\xbc', b'')
    """
    return bytes.fromhex(digits if len(digits) % 2 == 0 else "0" + digits)


class HexText(bytes):
    """The bytes of a hex string literal ``X'…'``, as a DEFAULT states them: MariaDB reads one
    in a number's, a date's or a year's column as the string its bytes spell (``INT DEFAULT
    X'3132'`` is 12), where a ``0x…`` literal is a number (12594), as MySQL reads both;
    elsewhere both are their bytes (:func:`coerce_default`)."""


#: the families where MariaDB reads a hex string as the string its bytes spell
_HEX_TEXT_FAMILIES = frozenset({Family.INTEGER, Family.DECIMAL, Family.FLOAT, Family.TEMPORAL})

#: the kinds whose values hold a fraction of a second
_FRACTIONED = frozenset({TypeKind.DATETIME, TypeKind.TIMESTAMP, TypeKind.TIME})

_Rule = Callable[[Any, ColumnType, bool, str | None], Any]
#: literal kind -> its rule (a bool, an int to Python, is no BIT value: as is)
_READINGS: dict[type, _Rule] = {
    HexText: _hex_text,
    bytes: _bytes,
    bool: _as_is,
    int: _bits,
    DoubleLiteral: _double,
    Decimal: _number,
    CharsetText: _introduced,
    BinaryText: _binary_text,
    str: _text,
}


def _reading(raw: Any) -> _Rule:
    """The rule of ``raw``'s kind: its class's, else its nearest base's, else as is."""
    for kind in type(raw).__mro__:
        rule = _READINGS.get(kind)
        if rule is not None:
            return rule
    return _as_is


def cut_fraction(value: Any, ctype: ColumnType) -> Any:
    """A date and time's or a time's value (text or number, any form a column reads) with its
    fraction of a second cut to the digits of ``ctype`` (a DATETIME, TIMESTAMP or TIME), as
    MariaDB stores it (its sql_mode without TIME_ROUND_FRACTIONAL, the default; MySQL rounds):
    in canonical text, which the column then takes as it is. The value is read whole first,
    as the server reads it: one it refuses whole is refused (InvalidValueError), the zero
    TIMESTAMP with a fraction (``0.25``) too, which no fraction cut to none would make so.

    >>> cut_fraction("2020-1-1 10:00:00.789", ColumnType.of("datetime", fsp=2))
    '2020-01-01 10:00:00.78'
    >>> cut_fraction(100000.5, ColumnType.of("time"))
    '10:00:00'
    >>> cut_fraction("2020-01-01 00:00:00.9999999", ColumnType.of("datetime", fsp=6))
    '2020-01-01 00:00:00.999999'
    """
    fsp = ctype.fsp or 0
    value = _six_digits(value)
    if fsp == 6:
        return value
    return _cut(_at_six(value, ctype), fsp)


def round_fraction(value: Any, ctype: ColumnType) -> Any:
    """A date and time's or a time's value with its fraction of a second rounded as MariaDB
    rounds it under TIME_ROUND_FRACTIONAL: to six digits first, half up (the digits it reads
    past them are nanoseconds, which it rounds into a microsecond), carrying; the column then
    rounds those six to its own. ``'00:00:00.0049995'`` in a TIME(2) is ``00:00:00.01``,
    where one rounding would give ``00:00:00.00``. A number of a date alone (eight digits at
    most) keeps no fraction, but its nanoseconds are rounded into it all the same: 1
    microsecond where they reach 500, as the server adds them to the date.

    >>> round_fraction("00:00:00.0049995", ColumnType.of("time", fsp=2))
    '00:00:00.005000'
    >>> round_fraction(Decimal("20260101.9999995"), ColumnType.of("datetime", fsp=6))
    '2026-01-01 00:00:00.000001'
    """
    text = _at_six(value, ctype)
    if _date_number(value) and ctype.kind != TypeKind.TIME:
        nanos = int(abs(value).scaleb(9)) % 1000
        if nanos >= 500:  # (the date's fraction is none: six zeros, the last made 1)
            text = text[:-1] + "1"
    return text


def _at_six(value: Any, ctype: ColumnType) -> str:
    """A date and time's or a time's value as its kind's text at six digits of a second, or
    refused: by the column first, when the column refuses it."""
    try:
        return _SIX_DIGITS[ctype.kind].coerce(value)
    except MvddError:
        ctype.coerce(value)  # (the column's own refusal, when it has one)
        raise


def _date_number(value: Any) -> bool:
    """Whether a value is a number the servers read as a date alone (``YYMMDD``,
    ``YYYYMMDD``: its whole part of eight digits at most, not 0)."""
    return isinstance(value, Decimal) and value.is_finite() and 1 <= abs(value) < 10**8


def _last_microsecond(raw: Any) -> None:
    """Refuse a number as a TIME when its fraction cuts to 999999 microseconds, as MariaDB
    refuses it (``59.999999``, ``0.9999995``, a double's binary value the same way; the text
    ``'00:00:59.999999'`` it takes)."""
    if not (isinstance(raw, Decimal) and raw.is_finite() and abs(raw) < 10**7):
        return  # (a TIME's number is seven digits at most: hhhmmss)
    if int(abs(raw).scaleb(6)) % 1_000_000 == 999_999:
        raise InvalidValueError(
            f"{raw} is refused as a TIME by MariaDB: its fraction is 999999 microseconds"
        )


#: the kinds with a fraction of a second, at six digits of it
_SIX_DIGITS = {kind: ColumnType.of(kind, fsp=6) for kind in _FRACTIONED}


#: a text's fraction of a second past its sixth digit, at its end
_PAST_SIX = re.compile(r"(\.\d{6})\d+(\s*)$")
_MICRO = Decimal("0.000001")


def _six_digits(value: Any) -> Any:
    """A value's fraction of a second past its sixth digit cut, as MariaDB reads a literal of
    more digits before it cuts it to its column's (``'… 00:00:00.9999999'`` is ``.999999``, no
    second more)."""
    if isinstance(value, str):
        return _PAST_SIX.sub(r"\1\2", value)
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal) and value.is_finite():
        digits, exponent = value.as_tuple()[1:]
        if isinstance(exponent, int) and exponent < -6:  # (exact, however many its digits)
            return value.quantize(_MICRO, ROUND_DOWN, Context(prec=len(digits)))
    return value


def _cut(text: str, fsp: int) -> str:
    """A date and time's or a time's text of six fractional digits cut to ``fsp`` of them (its
    point gone with the last)."""
    return text[: len(text) - (6 - fsp) - (0 if fsp else 1)]


class ElementKind(StrEnum):
    """The kinds of schema element a table holds, each with its own id space (seed 003) and
    version ranges (seed 004); a join treats them one by one."""

    COLUMN = "column"
    INDEX = "index"
    CHECK = "check"


class IndexKind(StrEnum):
    PRIMARY = "PRIMARY"
    UNIQUE = "UNIQUE"
    INDEX = "INDEX"
    FULLTEXT = "FULLTEXT"
    SPATIAL = "SPATIAL"


#: the name MySQL gives every primary key
PRIMARY: Final = "PRIMARY"


@attrs.frozen
class IndexPart:
    """One key part: a column by id, an optional prefix length, and the sort direction."""

    column_id: int
    length: int | None = None
    desc: bool = False


def _parts(value: Iterable[IndexPart]) -> tuple[IndexPart, ...]:
    return tuple(value)


#: the index algorithms DDL may name (``USING …``)
INDEX_TYPES = frozenset({"BTREE", "HASH", "RTREE"})


def _using(_: Any, __: Any, value: str | None) -> None:
    if value is not None and value not in INDEX_TYPES:
        raise DDLError(f"unknown index type {value!r} (one of {sorted(INDEX_TYPES)})")


@attrs.frozen(kw_only=True)
class Index:
    """An index (primary, unique, plain, fulltext or spatial); names compare case-insensitively."""

    id: int = 0
    name: str
    kind: IndexKind = IndexKind.INDEX
    parts: tuple[IndexPart, ...] = attrs.field(converter=_parts)
    comment: str | None = None
    using: str | None = attrs.field(default=None, validator=_using)
    visible: bool = True
    state: State = State.PUBLIC
    #: the key the server made for a foreign key (a replica's, mvdd.ddl.rules.STRICTER): a key
    #: added later that leads with its columns replaces it, as the server drops it. Not part of
    #: the index's value: ``SHOW CREATE TABLE`` does not show it, and a table that text defines
    #: holds the key as a stated one.
    generated: bool = attrs.field(default=False, eq=False)

    @property
    def is_unique(self) -> bool:
        return self.kind in (IndexKind.PRIMARY, IndexKind.UNIQUE)

    @property
    def column_ids(self) -> tuple[int, ...]:
        return tuple(part.column_id for part in self.parts)

    def same_as_shown(self, other: Index) -> bool:
        """Equal: the server shows all an index compares, and not ``generated``
        (:meth:`Column.same_as_shown`)."""
        return self == other


@attrs.frozen(kw_only=True)
class Check:
    """A named table CHECK constraint."""

    id: int = 0
    name: str
    expr: Expr
    enforced: bool = True

    def same_as_shown(self, other: Check) -> bool:
        """Equal: a check shows all it compares (:meth:`Column.same_as_shown`)."""
        return self == other


__all__ = [
    "DELETABLE",
    "NO_DEFAULT",
    "PRIMARY",
    "READABLE",
    "WRITABLE",
    "Check",
    "Column",
    "Default",
    "DoubleLiteral",
    "Expr",
    "Generated",
    "HexText",
    "Index",
    "IndexKind",
    "IndexPart",
    "State",
    "bit_bytes",
    "build_column",
    "coerce_default",
    "cut_fraction",
]
