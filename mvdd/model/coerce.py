"""Values as a column stores them: MySQL's strict-mode rules, one per type family.

:func:`coerce` turns a Python value into the canonical value a column of a type stores:
integers and decimals are range-checked and rounded half away from zero (a double's exact
value half to even, as C's ``rint``), strings are
length-checked in characters, binary strings in bytes (``BINARY(n)`` pads with zero bytes),
temporal values become MySQL's canonical text, enum and set members are matched and put in
definition order, a string given for a BIT is its bytes.
:meth:`mvdd.model.types.ColumnType.coerce` is the way in.

Dates and times are read the ways MySQL reads them: any punctuation between the parts, a
one- or two-digit year (00..69: 2000..2069; 70..99: 1970..1999), the time after a space or a
``T``; digits alone (``YYMMDD``, ``YYYYMMDD``, ``YYMMDDhhmmss``, ``YYYYMMDDhhmmss``; a time's
``hhmmss``); numbers (``20260101``, ``260101123000.5``, 0 for the zero date; a time's
``hhmmss``). ``tests/test_literals.py`` checks them against the server, and names where mvdd
keeps MySQL's stricter rule: no zero month or day but in the zero date, fractions rounded (a
replica of MariaDB cuts them, :func:`mvdd.model.element.cut_fraction`), a TIME taken from a
number only as ``hhmmss``.

Typed temporal literals (``DATE 'text'``, ``TIME 'text'``, ``TIMESTAMP 'text'``) read their
text the same ways, each holding its own parts only (:func:`temporal_literal`); a DEFAULT of
one alone is the value :func:`from_temporal_literal` gives the column.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import struct
from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import Any, Protocol

import attrs

from mvdd.errors import InvalidValueError
from mvdd.model.collation import collation_key
from mvdd.model.encoding import holds_value, spaces
from mvdd.model.kind import PLUGIN_BYTES, Family, TypeKind
from mvdd.model.plugin import from_binary, from_text, text_of

K = TypeKind


class TemporalType(Protocol):
    """What reading a date or a time reads of a type: its kind and precision."""

    @property
    def kind(self) -> TypeKind: ...
    @property
    def fsp(self) -> int | None: ...


class ColumnType(Protocol):
    """What coercion reads of a type (:class:`mvdd.model.types.ColumnType`)."""

    @property
    def kind(self) -> TypeKind: ...
    @property
    def length(self) -> int | None: ...
    @property
    def precision(self) -> int | None: ...
    @property
    def scale(self) -> int | None: ...
    @property
    def unsigned(self) -> bool: ...
    @property
    def fsp(self) -> int | None: ...
    @property
    def members(self) -> tuple[str, ...]: ...
    @property
    def charset(self) -> str | None: ...
    @property
    def collation(self) -> str | None: ...
    @property
    def family(self) -> Family: ...

    def integer_range(self) -> tuple[int, int]: ...

    def max_length(self) -> int | None: ...


def coerce(t: ColumnType, value: Any) -> Any:
    """The canonical value a column of type ``t`` stores for ``value`` (not None); raises
    InvalidValueError when MySQL in strict mode would refuse it."""
    return _COERCE[t.family](t, value)


def convert(t: ColumnType, value: Any, source: ColumnType) -> Any:
    """The value a column of type ``t`` holds after an ALTER changed it from type ``source``
    (not None). As :func:`coerce`, except where the server converts by the old type: a plugin
    value (UUID, INET4, INET6) becomes its bytes in a binary string, not its text."""
    rule = _CONVERT.get((source.family, t.family))
    return coerce(t, value if rule is None else rule(source, value))


def _plugin_bytes(source: ColumnType, value: Any) -> Any:
    return from_text(source.kind, value) if isinstance(value, str) else value


def _double_longlong(source: ColumnType, value: Any) -> Any:
    """A FLOAT's or a DOUBLE's value as an ALTER reads it into an integer column: through a
    signed 64-bit integer first (:func:`_double_whole`; past ±2**63 the server's "Got
    overflow", its error 1916; 2**63 itself its largest), so an unsigned BIGINT takes 2**63
    as 2**63 - 1 and refuses 10**19, which an INSERT stores."""
    if type(value) is not float:
        return value
    number = _double_whole(source, value)
    if not -_LONGLONG_PAST <= number <= _LONGLONG_PAST:
        raise _bad(source, value, "overflow of a signed 64-bit integer")
    return min(number, _LONGLONG_PAST - 1)


#: the families a double is written into as the servers' text of it (:func:`double_text`)
_STRINGS = frozenset({Family.CHAR, Family.BINARY, Family.TEXT, Family.BLOB})
#: the most characters the servers' text of a double takes (its 17 digits and more zeros)
DOUBLE_TEXT_WIDTH = 330


def _double_written(source: ColumnType, value: Any) -> Any:
    """A FLOAT's or a DOUBLE's value as an ALTER writes it into a string column: the servers'
    whole text of it (:func:`double_text`), which the column then holds or refuses, where an
    INSERT fits the text to the column (``0.30000000000000004`` in a CHAR(10): refused, where
    an INSERT writes ``'0.3'``)."""
    return double_text(value, DOUBLE_TEXT_WIDTH) if type(value) is float else value


#: (old family, new family) -> how the old value reads before the new type coerces it
_CONVERT: dict[tuple[Family, Family], Callable[[ColumnType, Any], Any]] = {
    (Family.PLUGIN, Family.BINARY): _plugin_bytes,
    (Family.PLUGIN, Family.BLOB): _plugin_bytes,
    (Family.FLOAT, Family.INTEGER): _double_longlong,
    (Family.FLOAT, Family.BIT): _double_longlong,  # (rounded, where an INSERT cuts: 69.5 is 70)
    (Family.FLOAT, Family.ENUM): _double_longlong,  # (the same: an ENUM's 1.5 is its second)
    **{(Family.FLOAT, family): _double_written for family in _STRINGS},
}


# --- coercion, a rule per family ---------------------------------------------------------------


def _bad(t: object, value: Any, why: str) -> InvalidValueError:
    return InvalidValueError(f"{value!r} is not a valid {t}: {why}")


def _to_decimal(t: object, value: Any) -> Decimal:
    """A value as a finite number, exact: a number as it is, a text as the number it spells;
    refused otherwise (NaN and the infinities too, which no column holds)."""
    if type(value) is Decimal:  # (immutable: the value itself)
        number = value
    elif isinstance(value, bool):
        return Decimal(int(value))
    elif isinstance(value, int | Decimal):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))
    elif isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise _bad(t, value, "not a number") from None
    else:
        raise _bad(t, value, f"a {type(value).__name__} is not a number")
    if not number.is_finite():
        raise _bad(t, value, "not a finite number")
    return number


#: room for every digit a value rounds to, once its size is known to fit (a DECIMAL's 65 digits
#: and its scale's 38, a DOUBLE's 309 and its 30): Python's default context keeps 28
_EXACT = Context(prec=400)


def _check_sign(t: ColumnType, value: Any, exact: Decimal) -> None:
    """A negative value for an unsigned column is refused before it is rounded, as the server
    refuses ``DEFAULT -0.4`` of an INT UNSIGNED; but text for an integer column is rounded
    first (the server takes ``DEFAULT '-0.4'`` there, and refuses it for a DECIMAL)."""
    if t.unsigned and exact < 0 and not (isinstance(value, str) and t.family == Family.INTEGER):
        raise _bad(t, value, "negative value for an unsigned column")


def _rounded(exact: Decimal) -> int:
    """A number rounded to a whole one as the server rounds it (half away from zero)."""
    if exact.adjusted() < 19:  # (a number of a few digits, whole: itself)
        whole = int(exact)
        if whole == exact:
            return whole
    return int(exact.quantize(_ONE, rounding=ROUND_HALF_UP, context=_EXACT))


_ONE = Decimal(1)


#: C's ``(double) LONGLONG_MAX``: 2**63, the double a signed 64-bit integer's range is checked
#: against (the servers' ``Field_longlong::store(double)``, their conversion of a double to one)
_LONGLONG_PAST = 2**63


def _double_whole(t: object, value: float) -> int:
    """A double as a whole number, as the servers make one of it: its exact binary value
    rounded half to even (C's ``rint``: ``2.5`` is 2, ``-0.4`` is 0, an unsigned column's
    too), where its shortest digits rounded half away from zero would give 3, a refusal, or
    ``18446744073709550000`` for the double ``18446744073709549568``."""
    if not math.isfinite(value):
        raise _bad(t, value, "not a finite number")
    return int(Decimal(value).to_integral_value(ROUND_HALF_EVEN, _EXACT))  # (exact: 309 digits)


def _double_cut(t: object, value: float) -> int:
    """A double cut to a whole number, as a C cast cuts it (``-0.5`` is 0): what an INSERT
    makes of one for a BIT, a YEAR, an ENUM's index or a SET's bits."""
    if not math.isfinite(value):
        raise _bad(t, value, "not a finite number")
    return int(value)


def double_seconds(value: float) -> Decimal:
    """A double as MariaDB reads it as the number of a time or of a date and time: its whole
    part, and its fraction times 10**9, in doubles, cut to nanoseconds (its ``Sec9``). A
    double's binary value may lie below its digits: ``1.9`` is ``1.899999999``, which a
    TIME(2) holds as ``00:00:01.89``; ``59.999999`` is ``59.999999000``.

    >>> double_seconds(1.9), double_seconds(-100.55), double_seconds(59.999999)
    (Decimal('1.899999999'), Decimal('-100.549999999'), Decimal('59.999999000'))
    """
    magnitude = abs(value)
    whole = math.floor(magnitude)
    nanos = int((magnitude - whole) * 1e9)
    return Decimal(f"{'-' if value < 0 else ''}{whole}.{nanos:09d}")


def _whole(t: ColumnType, value: Any, lo: int, hi: int) -> int:
    if type(value) is int:  # already whole, as decoded row values are (a bool is not an int here)
        number = value
    elif type(value) is float:
        number = _double_whole(t, value)
        if number == hi + 1 == _LONGLONG_PAST:  # (a BIGINT's check takes 2**63: its largest)
            number = hi
    else:
        exact = _to_decimal(t, value)
        if exact.adjusted() > 20:  # (no integer type holds 10**21)
            raise _bad(t, value, f"out of range {lo}..{hi}")
        _check_sign(t, value, exact)
        number = _rounded(exact)
    if not lo <= number <= hi:
        raise _bad(t, value, f"out of range {lo}..{hi}")
    return number


def _coerce_integer(t: ColumnType, value: Any) -> int:
    return _whole(t, value, *t.integer_range())


def _coerce_decimal(t: ColumnType, value: Any) -> Decimal:
    assert t.precision is not None and t.scale is not None
    exact = _to_decimal(t, value)
    if exact.adjusted() > t.precision - t.scale:
        raise _bad(t, value, "out of range")
    _check_sign(t, value, exact)
    number = exact.quantize(Decimal(1).scaleb(-t.scale), rounding=ROUND_HALF_UP, context=_EXACT)
    if abs(number) >= Decimal(10) ** (t.precision - t.scale):
        raise _bad(t, value, "out of range")
    return _EXACT.plus(number)  # (normalises -0.00 to 0.00)


#: the largest single-precision float (C's FLT_MAX, exactly): a FLOAT's range
FLOAT_MAX: float = struct.unpack(">f", b"\x7f\x7f\xff\xff")[0]


def _coerce_float(t: ColumnType, value: Any) -> float:
    number = float(_to_decimal(t, value))
    if not math.isfinite(number):  # (past DOUBLE's range: '1e400', the servers' 1264)
        raise _bad(t, value, "out of range")
    if t.unsigned and number < 0:
        raise _bad(t, value, "negative value for an unsigned column")
    if t.kind == K.FLOAT and abs(number) > FLOAT_MAX:
        raise _bad(t, value, "out of range")
    if t.precision is not None:
        assert t.scale is not None
        # as the servers cut a double to D digits, in doubles: its fraction times 10**D
        # rounded half to even (0.995 is 1.00: 0.995 * 100 is 99.5 as a double)
        whole = math.floor(number)
        number = whole + round((number - whole) * 10.0**t.scale) / 10.0**t.scale
        number = round(number, t.scale)  # (the double nearest what it shows: -1 + 0.9 is -0.1)
        if abs(number) >= 10 ** (t.precision - t.scale):
            raise _bad(t, value, "out of range")
        if t.kind == K.FLOAT:  # (a FLOAT(M,D) holds a single, whatever M: 74207193 is 74207192)
            number = round(_single(t, value, number), t.scale)
    return number


def _single(t: ColumnType, value: Any, number: float) -> float:
    """The single-precision float nearest a double; refused past the single's range."""
    try:
        return float(struct.unpack("f", struct.pack("f", number))[0])
    except OverflowError:
        raise _bad(t, value, "out of range") from None


def _coerce_bit(t: ColumnType, value: Any) -> int:
    assert t.length is not None
    if isinstance(value, bytes | str):  # a string is its bytes, as the server reads it
        number = int.from_bytes(_text_bytes(t, value) if isinstance(value, str) else value, "big")
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif type(value) is float:
        number = _double_cut(t, value)
    else:
        if _to_decimal(t, value) < 0:  # (refused before it is rounded: -0.001 too)
            raise _bad(t, value, f"does not fit in {t.length} bits")
        number = _whole(t, value, 0, 2**64 - 1)
    if not 0 <= number < 2**t.length:
        raise _bad(t, value, f"does not fit in {t.length} bits")
    return number


def _to_text(t: ColumnType, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise _bad(t, value, "bytes that are not UTF-8 text") from None
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return str(_to_decimal(t, value))  # (NaN and the infinities refused)
    if isinstance(value, float):  # (the text the servers write of it, fitted to the column)
        if not math.isfinite(value):
            raise _bad(t, value, "not a finite number")
        return double_text(value, _double_width(t))
    raise _bad(t, value, f"a {type(value).__name__} is not text")


def _double_width(t: ColumnType) -> int:
    """The width a double's text is fitted to in a column: an INSERT's, a string column's own
    (``123456789012.5`` in a CHAR(10) is ``'1.23457e11'``)."""
    limit = t.max_length()
    return DOUBLE_TEXT_WIDTH if limit is None else min(limit, DOUBLE_TEXT_WIDTH)


def _coerce_char(t: ColumnType, value: Any) -> str:
    text = _to_text(t, value)
    if t.kind == K.CHAR:
        text = text.rstrip(" ")  # CHAR strips trailing spaces on retrieval
    limit = t.max_length()
    if limit is not None and len(text) > limit:
        if t.kind != K.CHAR or text[limit:].strip(spaces(t.charset)):
            raise _bad(t, value, f"longer than {limit} characters")
        text = text[:limit].rstrip(" ")  # (space past a CHAR's length cut: ``spaces``)
    if holds_value(t.charset, text) is False:  # (the server's 1366; as a DEFAULT, its 1067)
        bad = next(c for c in text if not holds_value(t.charset, c))
        raise _bad(t, value, f"{bad!r} is no character of {t.charset}")
    return text


def _text_bytes(t: ColumnType, text: str) -> bytes:
    """A text's UTF-8 bytes; text decoded with surrogateescape (a server's SHOW output of raw
    bytes) keeps its bytes; refused where it holds another lone surrogate."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as err:
        raise _bad(t, text, f"{text[err.start]!r} is no character") from None


def _coerce_binary(t: ColumnType, value: Any) -> bytes:
    data = value if isinstance(value, bytes) else _text_bytes(t, _to_text(t, value))
    limit = t.max_length()
    if limit is not None and len(data) > limit:
        raise _bad(t, value, f"longer than {limit} bytes")
    if t.kind == K.BINARY:
        assert t.length is not None
        data = data.ljust(t.length, b"\0")
    return data


def _match_member(t: ColumnType, text: str, original: Any) -> str:
    if text in t.members:
        return text
    key = collation_key(t.collation)
    folded = key(text.rstrip(" "))
    for member in t.members:
        if key(member) == folded:
            return member
    raise _bad(t, original, f"not one of {list(t.members)}")


def members_named(t: ColumnType, text: str, original: Any = None) -> str:
    """The ENUM's member or the SET's members a text names (by the column's collation, spaces
    after each aside), as a literal DEFAULT must name them; InvalidValueError where it names
    none (a row's text may be a number instead: :func:`coerce`)."""
    original = text if original is None else original
    if t.kind == K.ENUM:
        return _match_member(t, text, original)
    if text == "":
        return ""
    chosen = {_match_member(t, part, original) for part in text.split(",")}
    return ",".join(m for m in t.members if m in chosen)


#: the number a text names no member of an ENUM or a SET with is read as, as the servers read
#: it (spaces before its digits, a sign: a negative one its 64 bits' complement, ``'-0'`` a
#: SET's empty value): an ENUM's of fewer than 6 characters, spaces after it aside (``' 2 '``
#: is its second member), a SET's of fewer than 22, none after it
_MEMBER_NUMBER = re.compile(r"[\t\n\v\f\r ]*([-+]?\d+)")


def _number_named(t: ColumnType, text: str) -> int | None:
    """The number a text that names no member reads as in an ENUM or a SET (None: none)."""
    if t.kind == K.ENUM:
        text = text.rstrip(" ")
    found = _MEMBER_NUMBER.fullmatch(text) if len(text) < MEMBER_NUMBER_PAST[t.kind] else None
    return None if found is None else int(found[1]) % 2**64


#: the length from which a text that names no member is no number of one, by kind
#: (:func:`_number_named`; Spark's conversions read it so too)
MEMBER_NUMBER_PAST = {K.ENUM: 6, K.SET: 22}


def _coerce_enum(t: ColumnType, value: Any) -> str:
    if isinstance(value, Decimal):
        exact = _to_decimal(t, value)
        if exact.adjusted() < 21 and exact == int(exact):
            value = int(exact)  # a number is a member's index (ENUM) or a bitmask (SET)
    elif type(value) is float:
        value = _double_cut(t, value)  # (an ALTER rounds it)
    if isinstance(value, int) and not isinstance(value, bool):
        if t.kind == K.ENUM:
            if not 1 <= value <= len(t.members):
                raise _bad(t, value, "no member at that index")
            return t.members[value - 1]
        if not 0 <= value < 2 ** len(t.members):
            raise _bad(t, value, "bits beyond the members")
        return ",".join(m for i, m in enumerate(t.members) if value >> i & 1)
    text = _to_text(t, value)
    try:
        return members_named(t, text, value)
    except InvalidValueError:
        number = _number_named(t, text)  # (none named: a member's number, as a row's is)
        if number is None:
            raise
        return _coerce_enum(t, number)


_DATE_RE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DATETIME_RE = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?"
)
_TIME_RE = re.compile(r"(-)?(?:(\d+) )?(\d+):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?")
#: a time of days and hours alone (``1 10`` is 34 hours), a fraction after
_DAYS_HOURS_RE = re.compile(r"(-)?(\d+) +(\d+)(?:\.(\d+))?")


#: ASCII punctuation, any of which MySQL takes between the parts of a date or a time
_P = r"[!-/:-@\[-`{-~]"
#: a date (and time) as MySQL also writes it: any punctuation between the parts, a year of
#: one to four digits, the time after spaces, a T or punctuation, of an hour at least (its
#: minutes and seconds after it if any, a fraction after a point past the seconds alone:
#: ``'2026-01-02.5'`` is 05:00, ``'1.2.3.4.5.6.7'`` 0001-02-03 04:05:06.7)
_LOOSE_DATETIME_RE = re.compile(
    rf"(\d{{1,4}}){_P}(\d{{1,2}}){_P}(\d{{1,2}})"
    rf"(?:(?:T|\s+|{_P})(\d{{1,2}})(?:{_P}(\d{{1,2}})(?:{_P}(\d{{1,2}})(?:\.(\d+))?)?)?)?"
)
#: digits alone: YYMMDD, YYYYMMDD, YYMMDDhhmmss or YYYYMMDDhhmmss, and a fraction
_DIGITS_RE = re.compile(r"(\d+)(?:\.(\d*))?")
#: the numbers the servers read as a date, by their whole part (the rest, below each range's
#: first date, none): 0 (the zero date), ``YYMMDD`` of 2000 to 2069 and of 1970 to 1999,
#: ``YYYYMMDD``, ``YYMMDDhhmmss`` likewise, ``YYYYMMDDhhmmss``
_NUMBER_DATES = (
    (0, 0),
    (101, 691231),
    (700101, 991231),
    (10000101, 99991231),
    (101000000, 691231235959),
    (700101000000, 991231235959),
    (10000101000000, 99991231235959),
)
#: the parts of a date and time written as digits alone, by their number
_DIGIT_FIELDS = {6: (2, 2, 2), 8: (4, 2, 2), 12: (2, 2, 2, 2, 2, 2), 14: (4, 2, 2, 2, 2, 2)}


#: the TIMESTAMP range, read in UTC (a server whose time zone is another shifts it by its offset);
#: its first second from its first fraction on (``1970-01-01 00:00:00.000001``: the second
#: before it, whole, is the zero TIMESTAMP's)
_TIMESTAMP_EPOCH = _dt.datetime(1970, 1, 1)
_TIMESTAMP_FIRST = _dt.datetime(1970, 1, 1, 0, 0, 1)
_TIMESTAMP_LAST = _dt.datetime(2038, 1, 19, 3, 14, 7)


def python_date(kind: TypeKind, value: Any) -> _dt.date | None:
    """The Python date (a DATE) or datetime (a DATETIME, a TIMESTAMP) of a value or its text;
    None when no Python date holds it (the zero date, a zero month or day, a day its month
    lacks, the year 0: :data:`~mvdd.model.kind.CALENDAR`'s values a lenient server keeps).

    >>> python_date(TypeKind.DATE, "2024-02-29"), python_date(TypeKind.DATE, "2023-04-31")
    (datetime.date(2024, 2, 29), None)
    """
    try:
        return (_dt.date if kind == TypeKind.DATE else _dt.datetime).fromisoformat(str(value))
    except ValueError:
        return None


def _full_year(digits: str) -> int:
    """A year as written: two digits mean 2000..2069 (00..69) or 1970..1999; any other
    number of them the year itself (``'1-2-3'`` is 0001-02-03, as the servers read it)."""
    return _century(int(digits)) if len(digits) == 2 else int(digits)


def _century(yy: int) -> int:
    """A two-digit year (0..99) as the server reads it: 2000..2069 or 1970..1999."""
    return yy + (2000 if yy < 70 else 1900)


def _split_digits(digits: str) -> list[str] | None:
    widths = _DIGIT_FIELDS.get(len(digits))
    if widths is None:
        return None
    out, at = [], 0
    for width in widths:
        out.append(digits[at : at + width])
        at += width
    return out


def _datetime_text(value: Any) -> str | None:
    """A date and time written any way MySQL reads one (any punctuation between parts, a
    two-digit year, digits alone, or a number: ``20260101``, ``260101123000.5``, 0 for the zero
    date) as ``YYYY-MM-DD hh:mm:ss[.ffffff]``, which the strict rules then check; None when it
    is none of these."""
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        if value == 0:
            return "0000-00-00 00:00:00"
        if value < 0:
            return None
        whole, _, frac = format(Decimal(value), "f").partition(".")
        width = next((w for w in sorted(_DIGIT_FIELDS) if len(whole) <= w), None)
        if width is None or len(whole) == 7:  # (seven digits are neither form: refused)
            return None
        if not any(low <= int(whole) <= high for low, high in _NUMBER_DATES):
            return None  # (100 is no 2000-01-00, as 1000 is 2000-10-00)
        text = whole.zfill(width) + (f".{frac}" if frac else "")
        number = True
    elif isinstance(value, str):
        text, number = value.strip(), False
    else:
        return None
    m = _LOOSE_DATETIME_RE.fullmatch(text)
    if m:
        parts = [m[1], m[2], m[3], m[4] or "0", m[5] or "0", m[6] or "0"]
        fraction: str | None = m[7]
    else:
        d = _DIGITS_RE.fullmatch(text)
        split = _split_digits(d[1]) if d else None
        if split is None or d is None:
            return None
        if d[2] is not None and len(split) != 6 and not number:
            return None  # a text of a date alone takes no fraction
        if not d[1].strip("0"):  # zeros alone: the zero date, as the number 0
            return "0000-00-00 00:00:00" + (f".{d[2]}" if d[2] else "")
        parts = [*split, "0", "0", "0"][:6]
        fraction = d[2] if len(split) == 6 else None
    y, rest = _full_year(parts[0]), [int(p) for p in parts[1:]]
    out = f"{y:04d}-{rest[0]:02d}-{rest[1]:02d} {rest[2]:02d}:{rest[3]:02d}:{rest[4]:02d}"
    return out + (f".{fraction}" if fraction else "")


#: the lengths of a number a TIME reads as a date's (``YYYYMMDD``) or a date and time's
#: (``YYMMDDhhmmss``, ``YYYYMMDDhhmmss``), beyond the seven digits of its own ``hhmmss``
_DATE_NUMBERS = frozenset({8, 12, 14})


def _time_text(value: Any) -> str | None:
    """A time written as digits alone (``hhmmss``, ``mmss``, ``ss``, a fraction after; or a
    date and time of 12 or 14 digits, whose time it is) or as a number (``hhmmss``, signed;
    up to seven digits; or a date's of 8 digits, 00:00:00, or a date and time's of 12 or 14,
    its time) as ``[-]hh:mm:ss[.ffffff]``; None otherwise (other forms are the strict rules'
    to read)."""
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        sign = "-" if value < 0 else ""
        whole, _, frac = format(abs(Decimal(value)), "f").partition(".")
        text = whole
    elif isinstance(value, str) and _DIGITS_RE.fullmatch(value.strip().removeprefix("-")):
        stripped = value.strip()
        sign = "-" if stripped.startswith("-") else ""
        text, _, frac = stripped.removeprefix("-").partition(".")
        if len(text) in (12, 14):
            return _time_of(value)
        text = text.lstrip("0") or "0"  # (leading zeros, however many, say nothing)
    elif isinstance(value, str):
        return _time_of(value)
    else:
        return None
    if len(text) > 7:
        if sign or len(text) not in _DATE_NUMBERS or isinstance(value, str):
            return None
        # a number of a date (its time 00:00:00) or of a date and time: its time of day
        full = _datetime_text(Decimal(f"{text}.{frac}" if frac else text))
        if full is None or not _valid_ymd(int(full[:4]), int(full[5:7]), int(full[8:10])):
            return None
        return full[11:] if _valid_hms(full[11:13], full[14:16], full[17:19]) else None
    number = int(text)
    out = f"{sign}{number // 10000:02d}:{number // 100 % 100:02d}:{number % 100:02d}"
    return out + (f".{frac}" if frac else "")


def _time_of(text: str) -> str | None:
    """The time of a date and time written as text: the server reads only that part for a
    TIME (with the days of a date of no year nor month, as hours), and of the date only that
    it is one, or has a zero month or day; None when the text has no time part (after
    spaces or a T: ``'2026-01-02.5'``, a date and time's text, is no TIME's), or such a date,
    or such a time."""
    stripped = text.strip()
    m = _LOOSE_DATETIME_RE.fullmatch(stripped)
    if m is not None and (m[4] is None or stripped[m.end(3)] not in _TIME_AFTER):
        return None
    full = _datetime_text(stripped)
    if full is None:
        return None
    y, mo, d = int(full[:4]), int(full[5:7]), int(full[8:10])
    if not (_valid_ymd(y, mo, d) or (mo <= 12 and d <= 31 and 0 in (mo, d))):
        return None
    if not _valid_hms(full[11:13], full[14:16], full[17:19]):
        return None
    if full.startswith("0000-00-"):  # no year nor month: the days count, as hours
        return f"{int(full[8:10]) * 24 + int(full[11:13]):02d}{full[13:]}"
    return full[11:]


def _valid_hms(*parts: str | None) -> bool:
    hh, mi, ss = (int(x or 0) for x in parts)
    return hh <= 23 and mi <= 59 and ss <= 59


#: the year that stands for year 0 in Python's dates (which have none): a common year, as the
#: server counts year 0 (``'0000-02-29'`` is refused)
_YEAR_ZERO = 2001


def _valid_ymd(y: int, m: int, d: int) -> bool:
    if (y, m, d) == (0, 0, 0):
        return True  # the zero date, which MySQL stores unless NO_ZERO_DATE
    if m == 0 or d == 0:
        return False
    try:
        _dt.date(y or _YEAR_ZERO, m, d)
    except ValueError:
        return False
    return True


def _any(digits: str | None) -> bool:
    """Whether a fraction's digits are more than zeros (before any rounding)."""
    return bool(digits and digits.strip("0"))


def _fraction(digits: str | None, fsp: int) -> tuple[int, int]:
    """(carry seconds, fraction at fsp digits) from fraction digits (any number of them: the
    servers read them all), rounded half up."""
    fraction = Decimal("0." + (digits or "0"))
    scaled = fraction.scaleb(fsp).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    carry, rest = divmod(int(scaled), 10**fsp)
    return carry, rest


def _time_sign(text: str) -> str:
    """A TIME's text with its sign against its digits, as the servers read it: the spaces
    after a minus passed over (``'- 12'`` is ``'-12'``, ``'- 1 10:00'`` ``'-1 10:00'``), a
    plus too (``'+12:00'`` is ``'12:00'``); a second sign stays (``'+-1'``, ``'- -1'``), refused."""
    stripped = text.strip()
    sign, rest = stripped[:1], stripped[1:].lstrip(_C_SPACES)
    if sign in ("+", "-") and rest[:1] not in ("", "+", "-"):
        return rest if sign == "+" else "-" + rest
    return text


#: the characters C's ``isspace`` passes over
_C_SPACES = " \t\n\r\v\f"
#: what stands between a date and its time in a TIME's text: spaces or a T
_TIME_AFTER = frozenset("T" + _C_SPACES)


def _coerce_temporal(t: TemporalType, value: Any) -> Any:
    kind = t.kind
    if kind == K.YEAR:
        return _coerce_year(t, value)
    # Python's own values (a decoded row's) are in the canonical form already
    if isinstance(value, _dt.datetime):
        text = value.isoformat(sep=" ")
    elif isinstance(value, _dt.date | _dt.time):
        text = value.isoformat()
    elif isinstance(value, _dt.timedelta):
        text = time_text(value)
    else:
        if isinstance(value, float | Decimal):
            value = _to_decimal(t, value)
            if value.adjusted() > 20:  # (no date's nor time's number has 21 digits)
                raise _bad(t, value, "not a date, time or number MySQL reads as one")
        if kind == K.TIME and isinstance(value, str):
            value = _time_sign(value)
        loose = _time_text(value) if kind == K.TIME else _datetime_text(value)
        if loose is not None:
            text = loose
        elif isinstance(value, str):
            text = value.strip()
        else:
            raise _bad(t, value, "not a date, time or number MySQL reads as one")
    if kind == K.DATE:
        m = _DATE_RE.fullmatch(text) or _DATETIME_RE.fullmatch(text)
        if not m or not _valid_ymd(int(m[1]), int(m[2]), int(m[3])):
            raise _bad(t, value, "not a date")
        if m.re is _DATETIME_RE and not _valid_hms(m[4], m[5], m[6]):
            raise _bad(t, value, "not a time of day")
        return f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}"
    fsp = t.fsp or 0
    if kind == K.TIME:
        return _coerce_time(t, text, fsp, value)
    m = _DATETIME_RE.fullmatch(text)
    if not m or not _valid_ymd(int(m[1]), int(m[2]), int(m[3])):
        raise _bad(t, value, "not a date and time")
    ymd = (int(m[1]), int(m[2]), int(m[3]))
    if not _valid_hms(m[4], m[5], m[6]):
        raise _bad(t, value, "not a time of day")
    hh, mi, ss = (int(x or 0) for x in (m[4], m[5], m[6]))
    carry, frac = _fraction(m[7], fsp)
    if ymd == (0, 0, 0) and kind == K.TIMESTAMP and ((hh, mi, ss) != (0, 0, 0) or _any(m[7])):
        raise _bad(t, value, "the zero TIMESTAMP has no time of day")
    if ymd != (0, 0, 0):
        # year 0 (valid in MySQL, not in Python) is carried through a proxy year
        proxy = _YEAR_ZERO if ymd[0] == 0 else 0
        stamp = _dt.datetime(ymd[0] + proxy, ymd[1], ymd[2], hh, mi, ss)
        try:
            stamp += _dt.timedelta(seconds=carry)
        except OverflowError:  # (a fraction rounded up past the last second of 9999)
            raise _bad(t, value, "out of range: past 9999-12-31 23:59:59") from None
        ymd = (stamp.year - proxy, stamp.month, stamp.day)
        hh, mi, ss = stamp.hour, stamp.minute, stamp.second
        if kind == K.TIMESTAMP and (
            proxy
            or not (
                _TIMESTAMP_FIRST <= stamp <= _TIMESTAMP_LAST or (stamp == _TIMESTAMP_EPOCH and frac)
            )
        ):
            raise _bad(
                t,
                value,
                "out of the TIMESTAMP range 1970-01-01 00:00:00.000001..2038-01-19 03:14:07.999999",
            )
    out = f"{ymd[0]:04d}-{ymd[1]:02d}-{ymd[2]:02d} {hh:02d}:{mi:02d}:{ss:02d}"
    return out + (f".{frac:0{fsp}d}" if fsp else "")


def lenient_date(
    t: TemporalType, value: str | int | Decimal, *, any_day: bool = False
) -> str | None:
    """A DATE's or DATETIME's text with a zero month or day, as a server keeps it outside
    NO_ZERO_IN_DATE (MariaDB's default mode), or a number that is one (``1000`` is
    ``2000-10-00``); ``any_day``: or with a day its month lacks (up to 31), as it keeps it
    under ALLOW_INVALID_DATES; None for any other value.

    >>> from mvdd.model.types import ColumnType
    >>> lenient_date(ColumnType.of("date"), "2020-00-15"), lenient_date(
    ...     ColumnType.of("datetime", fsp=1), "2020-02-30 1:2:3.45", any_day=True)
    ('2020-00-15', '2020-02-30 01:02:03.5')
    """
    if t.kind not in (K.DATE, K.DATETIME):
        return None
    stripped = value.strip() if isinstance(value, str) else value
    exact = _DATE_RE if t.kind == K.DATE else _DATETIME_RE
    m = exact.fullmatch(stripped) if isinstance(stripped, str) else None
    if m is None:  # a loose form ('25:00:00' is 2025-00-00, '20200015' 2020-00-15, a number)
        loose = _datetime_text(stripped)
        m = _DATETIME_RE.fullmatch(loose) if loose is not None else None
        if m is None or not _valid_hms(m[4], m[5], m[6]):
            return None
    y, mo, d = int(m[1]), int(m[2]), int(m[3])
    if mo > 12 or d > 31 or not (any_day or 0 in (mo, d)):
        return None
    date = f"{y:04d}-{mo:02d}-{d:02d}"
    if t.kind == K.DATE:
        return date
    if not _valid_hms(m[4], m[5], m[6]):
        return None
    fsp = t.fsp or 0
    carry, frac = _fraction(m[7], fsp)
    hh, mi, ss = (int(x or 0) for x in (m[4], m[5], m[6]))
    if carry and (hh, mi, ss) == (23, 59, 59):
        return None  # (a carry into the next day of a date that is none)
    seconds = hh * 3600 + mi * 60 + ss + carry
    out = f"{date} {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return out + (f".{frac:0{fsp}d}" if fsp else "")


def time_text(delta: _dt.timedelta) -> str:
    """A TIME's value (a ``timedelta``, as drivers give it) as the server reads its text:
    a sign, hours of any number, minutes, seconds and microseconds.

    >>> time_text(-_dt.timedelta(hours=100, microseconds=5))
    '-100:00:00.000005'
    """
    micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    sign = "-" if micros < 0 else ""
    seconds, micros = divmod(abs(micros), 1_000_000)
    return f"{sign}{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{micros:06d}"


#: the last whole second a TIME holds, 838:59:59
_TIME_MAX_SECONDS = 838 * 3600 + 59 * 60 + 59


def _coerce_time(t: TemporalType, text: str, fsp: int, original: Any) -> str:
    m = _TIME_RE.fullmatch(text)
    if m:
        negative, fraction = m[1], m[6]
        days, hh, mi, ss = (int(x or 0) for x in (m[2], m[3], m[4], m[5]))
    elif d := _DAYS_HOURS_RE.fullmatch(text):
        negative, fraction = d[1], d[4]
        days, hh, mi, ss = int(d[2]), int(d[3]), 0, 0
    else:
        raise _bad(t, original, "not a time")
    if mi > 59 or ss > 59:
        raise _bad(t, original, "not a time")
    carry, frac = _fraction(fraction, fsp)
    seconds = (days * 24 + hh) * 3600 + mi * 60 + ss + carry
    if seconds > _TIME_MAX_SECONDS:  # (MariaDB's range holds a fraction past the last second)
        raise _bad(t, original, "out of the TIME range -838:59:59.999999..838:59:59.999999")
    sign = "-" if negative and (seconds or frac) else ""
    out = f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return out + (f".{frac:0{fsp}d}" if fsp else "")


@attrs.frozen
class _LiteralType:
    """The type a typed temporal literal's text is read as (what :func:`_coerce_temporal` reads
    of a type), named in its errors as the server names them."""

    kind: TypeKind
    fsp: int = 0

    def __str__(self) -> str:
        return f"{LITERAL_WORDS[self.kind]} literal"


#: the typed temporal literals: the kind each reads its text as -> its keyword
LITERAL_WORDS = {K.DATE: "DATE", K.TIME: "TIME", K.DATETIME: "TIMESTAMP"}
#: a fraction of a second of more than six digits at the end of a literal's text
_LONG_FRACTION = re.compile(r"\.\d{7,}$")


def temporal_literal(kind: TypeKind, text: str) -> tuple[str, int]:
    """The value of a typed temporal literal as the server reads it: ``DATE 'text'`` (kind
    DATE), ``TIME 'text'`` (TIME) or ``TIMESTAMP 'text'`` (DATETIME), in canonical text, and
    its precision (the fraction digits written, up to six: more are cut).

    The forms are those a column reads, but each literal holds its own parts only: a DATE's
    text no time, a TIME's no date, a TIMESTAMP's a date and a time. Raises InvalidValueError
    for a text the server refuses (its error 1525).

    >>> temporal_literal(TypeKind.DATE, "2020-1-1"), temporal_literal(TypeKind.TIME, "1 10:00:00.5")
    (('2020-01-01', 0), ('34:00:00.5', 1))
    >>> temporal_literal(TypeKind.DATETIME, "20200101101112.1234567")
    ('2020-01-01 10:11:12.123456', 6)
    """
    stripped = text.strip()
    long = _LONG_FRACTION.search(stripped)
    if long is not None:
        stripped = stripped[: long.start() + 7]
    digits = _DIGITS_RE.fullmatch(stripped.removeprefix("-") if kind == K.TIME else stripped)
    loose = _LOOSE_DATETIME_RE.fullmatch(stripped)
    fraction: str | None = None
    if kind == K.DATE:
        fits = (loose is not None and loose[4] is None) or (
            digits is not None and digits[2] is None and len(digits[1]) in (6, 8)
        )
    elif kind == K.TIME:
        timed = _TIME_RE.fullmatch(stripped) or _DAYS_HOURS_RE.fullmatch(stripped)
        fits = timed is not None or (digits is not None and len(digits[1]) <= 8)
        fraction = (timed[timed.re.groups] if timed else None) or (digits[2] if digits else None)
    else:
        fits = (loose is not None and loose[4] is not None) or (
            digits is not None and len(digits[1]) in (12, 14)
        )
        fraction = (loose[7] if loose else None) or (digits[2] if digits else None)
    t = _LiteralType(kind, len(fraction or ""))
    if not fits:
        raise _bad(t, text, f"not a {LITERAL_WORDS[kind]} literal's form")
    return _coerce_temporal(t, stripped), t.fsp


def _literal_number(kind: TypeKind, value: str) -> Decimal:
    """A temporal literal's value as a number: ``YYYYMMDD``, ``hhmmss[.f]`` or
    ``YYYYMMDDhhmmss[.f]``."""
    sign = "-" if value.startswith("-") else ""
    return Decimal(sign + re.sub(r"[^0-9.]", "", value))


def _literal_date(kind: TypeKind, value: str) -> str | None:
    return None if kind == K.TIME else value[:10]


def _literal_time(kind: TypeKind, value: str) -> str:
    return {K.DATE: "00:00:00", K.TIME: value}.get(kind) or value[11:]


def _literal_datetime(kind: TypeKind, value: str) -> str | None:
    return {K.DATE: f"{value} 00:00:00", K.TIME: None}.get(kind, value)


def _literal_year(kind: TypeKind, value: str) -> int:
    return 0 if kind == K.TIME else int(value[:4])


def _literal_text(kind: TypeKind, value: str) -> str:
    return value


def _literal_bits(kind: TypeKind, value: str) -> int:
    return int.from_bytes(value.encode(), "big")  # (its text's bytes: TIME'1:2' '01:02:00')


def _literal_kept(kind: TypeKind, value: str) -> None:
    return None


def _literal_refused(kind: TypeKind, value: str) -> None:
    raise InvalidValueError(f"a {LITERAL_WORDS[kind]} literal is not a value of this type")


#: what a column keeps of a DEFAULT that is a typed temporal literal alone, by its family (and
#: for a temporal column, its kind): the value it then coerces, or None where the server keeps
#: the expression (a TEXT, BLOB or JSON column) or takes a value mvdd cannot know (the day a
#: TIME becomes a date on); the server's error 1067 where it refuses one
_FROM_LITERAL: dict[Family | TypeKind, Callable[[TypeKind, str], Any]] = {
    Family.INTEGER: _literal_number,
    Family.DECIMAL: _literal_number,
    Family.FLOAT: _literal_number,
    Family.BIT: _literal_bits,
    Family.CHAR: _literal_text,
    Family.BINARY: _literal_text,
    Family.ENUM: _literal_text,
    Family.TEXT: _literal_kept,
    Family.BLOB: _literal_kept,
    Family.JSON: _literal_kept,
    Family.SPATIAL: _literal_refused,  # (a geometry's, a UUID's, an INET's: no date nor time)
    Family.PLUGIN: _literal_refused,
    K.DATE: _literal_date,
    K.TIME: _literal_time,
    K.DATETIME: _literal_datetime,
    K.TIMESTAMP: _literal_datetime,
    K.YEAR: _literal_year,
}


def from_temporal_literal(kind: TypeKind, value: str, t: ColumnType, *, cut: bool = False) -> Any:
    """What a column of type ``t`` takes for a DEFAULT that is a typed temporal literal alone
    (``kind`` and canonical ``value`` from :func:`temporal_literal`), as the server folds it:
    the literal's value converted (a date's number ``YYYYMMDD`` in a number column, its text in
    a string one, the part a temporal column holds, the year in a YEAR), for the column's type
    to coerce; None where the column keeps the expression (a TEXT, BLOB or JSON column), or
    would take a value mvdd cannot know (a TIME in a date column takes the day the statement
    ran). Raises InvalidValueError where the server refuses the literal (a spatial, a UUID or
    an INET column; a BIT takes its text's bytes, which it holds or refuses).
    ``cut``: an integer column takes the whole seconds of a fraction, as MariaDB does (a
    DECIMAL rounds it on both servers); else it rounds, as MySQL does.

    >>> from mvdd.model.types import ColumnType
    >>> from_temporal_literal(TypeKind.DATE, "2020-01-01", ColumnType.of("int"))
    Decimal('20200101')
    >>> from_temporal_literal(TypeKind.DATETIME, "2020-01-01 10:11:12", ColumnType.of("time"))
    '10:11:12'
    """
    rule = _FROM_LITERAL.get(t.kind) or _FROM_LITERAL[t.family]
    folded = rule(kind, value)
    if cut and t.family == Family.INTEGER:
        return folded.to_integral_value(rounding=ROUND_DOWN)
    return folded


def single_float(value: float) -> float:
    """The value a FLOAT column's default names once the server shows it: the single-precision
    float the column stores, written with six significant digits (3.141592653589793 shows as
    ``3.14159``, 16777217 as ``16777200``), which a snapshot of the server reads back. The
    server stores the single-precision value of the text it was given until its table is
    restored from that text; a catalog keeps the default the text names.

    >>> single_float(3.141592653589793), single_float(16777217.0), single_float(0.1)
    (3.14159, 16777200.0, 0.1)
    """
    (single,) = struct.unpack("f", struct.pack("f", value))
    return float(format(single, ".6g"))


#: past this many digits before the point, or this many zeros after it, a double is written
#: with an exponent even where its digits fit (the servers' DBL_DIG)
_F_FORMAT_DIGITS = 15


def _digits(x: float, mode: str, n: int) -> tuple[str, int]:
    """A positive double's significant digits and the place of its point (``0.DIGITS`` times
    10 to it), as dtoa gives them: the fewest that read back as ``x`` but at most ``n`` of
    them (``mode`` "e"), or the fewest with at most ``n`` after the point ("f"), correctly
    rounded, trailing zeros dropped."""
    text = repr(x) if mode == "e" else format(x, f".{max(n, 0)}f")
    if mode == "e" and len(Decimal(text).as_tuple().digits) > n:
        text = format(x, f".{max(n, 1) - 1}e")
    exact = Decimal(text).normalize()
    digits = "".join(map(str, exact.as_tuple().digits)).rstrip("0")
    if not digits:
        return "", 0
    return digits, exact.adjusted() + 1


def double_text(x: float, width: int) -> str:
    """A double as MariaDB writes it into a string column of ``width`` characters (its
    ``my_gcvt``, which MySQL shares): its shortest digits, written with a point where they
    fit and the point is near (fewer than 15 digits before it, 14 zeros after it), else with
    an exponent (``1e15``,
    ``1.234e-16``), fewer digits where the width calls for it, and cut to the width where not
    even one digit and its exponent fit (``1e-4`` in three characters is ``1e-``: the server
    warns, and keeps that). A subnormal double (below 2.2e-308) may get other digits from the
    servers' dtoa than its shortest (``1e-322`` in eight characters is ``9.9e-323`` there).

    >>> double_text(100.0, 3), double_text(1e15, 30), double_text(1e-5, 30)
    ('100', '1e15', '0.00001')
    >>> double_text(3.3333333333333335, 30), double_text(2/3, 5), double_text(1e-4, 3)
    ('3.3333333333333335', '0.667', '1e-')
    """
    return _double_text(x, width)[:width]


def _double_text(x: float, width: int) -> str:
    sign = "-" if x < 0 else ""
    x = abs(x)
    width -= len(sign)
    if x == 0:
        return "0"
    digits, point = _digits(x, "e", width)
    n = len(digits)
    exp_len = 1 + (point >= 101 or point <= -99) + (point >= 11 or point <= -9)
    space = n - point + 2 if point <= 0 else n + 1 if point < n else point
    have_space = space <= width
    force_e = point <= 0 and width <= 2 - point and width >= 3 + exp_len
    fits_f = point <= width and (point >= -1 or (point == -2 and (n > 1 or not force_e)))
    if (have_space or (fits_f and not force_e)) and (
        not have_space
        or (point >= -_F_FORMAT_DIGITS + 1 and (point <= _F_FORMAT_DIGITS or n > point))
    ):
        room = width - (point < n) - (1 - point if point <= 0 else 0)
        if room < n:
            digits, point = _digits(x, "f", max(room, point) - point)
            n = len(digits)
            if not n:
                return "0"
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point < n:
            return f"{sign}{digits[:point]}.{digits[point:]}"
        return f"{sign}{digits}{'0' * (point - n)}"
    room = width - (point < 1) - 1 - exp_len - (n > 1)
    if room < n:
        digits, point = _digits(x, "e", max(room, 1))
        n = len(digits)
    mantissa = digits[0] + (f".{digits[1:]}" if n > 1 else "")
    return f"{sign}{mantissa}e{point - 1}"


def two_digit_year(year: int) -> int:
    """The year a YEAR(2) column's default names once the server shows it: two digits (1901
    shows as ``01``, the zero year as ``00``), which read back as 2000..2069 or 1970..1999.
    The server evaluates the year as written until its table is restored from that text; a
    replica keeps the year the text names, which a snapshot of the server gives too.

    >>> two_digit_year(1901), two_digit_year(1999), two_digit_year(0), two_digit_year(2155)
    (2001, 1999, 2000, 2055)
    """
    return _century(year % 100)


#: a year as text: a number, with a sign and a fraction (which the server rounds to a whole
#: year: '69.5' is 1970), spaces around it
_YEAR_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _year_number(t: TemporalType, value: Any, exact: Decimal) -> int:
    """A year's number rounded, refused where it is past every year (``'1e400'``)."""
    if exact.adjusted() > 20:
        raise _bad(t, value, "out of the YEAR range 1901..2155")
    return _rounded(exact)


def _coerce_year(t: TemporalType, value: Any) -> int:
    """A year as the server takes it (its ``Field_year::store``): 1..69 and 70..99 mean
    2001..2069 and 1970..1999, 1901..2155 themselves; a number 0 is the zero year, and so is
    a text of four characters whose number is 0 ('0000', '-0.4'), any other text of 0 ('0',
    '00', '00000') 2000. A text is read as its number: '060' is 2060, '001901' 1901, '+60'
    and ' 60 ' 2060, '1e1' 2010 ('1e-1', four characters of 0, the zero year)."""
    if isinstance(value, str):
        if not _YEAR_TEXT.fullmatch(value.strip()):
            raise _bad(t, value, "not a year")
        number = _year_number(t, value, _to_decimal(t, value))
        if number == 0:
            return 0 if len(value) == 4 else 2000
    elif isinstance(value, int | Decimal) and not isinstance(value, bool):
        exact = _to_decimal(t, value)
        if exact < 0:  # (a number below 0 is refused, though it rounds to 0)
            raise _bad(t, value, "not a year")
        number = _year_number(t, value, exact)
    elif type(value) is float and 0 <= value <= 2155:  # (-0.0 too, 2155.5 not)
        number = _double_cut(t, value)
    else:
        raise _bad(t, value, "not a year")
    if number < 0:
        raise _bad(t, value, "not a year")
    if 1 <= number <= 99:
        return _century(number)
    if number != 0 and not 1901 <= number <= 2155:
        raise _bad(t, value, "out of the YEAR range 1901..2155")
    return number


def coerce_text(t: ColumnType, value: Any) -> str:
    """``value`` as the text a column of type ``t`` holds, unchecked otherwise: a JSON column's
    DEFAULT, which the server keeps whether or not it is JSON (that it must be is one of mvdd's
    stricter rules, :data:`mvdd.ddl.rules.STRICTER`)."""
    return _to_text(t, value)


def _coerce_json(t: ColumnType, value: Any) -> str:
    text = _to_text(t, value)
    try:
        json.loads(text)
    except ValueError:
        raise _bad(t, value, "not valid JSON") from None
    return text


def _coerce_plugin(t: ColumnType, value: Any) -> str:
    size = PLUGIN_BYTES[t.kind]
    if isinstance(value, bytes):  # a binary string: the value's bytes, never its text
        if len(value) != size:
            raise _bad(t, value, f"a binary string of {len(value)} bytes, not {size}")
        return text_of(t.kind, from_binary(t.kind, value))
    data = from_text(t.kind, _to_text(t, value))
    if data is None:
        raise _bad(t, value, f"not {t.kind} text")
    return text_of(t.kind, data)


def _coerce_spatial(t: ColumnType, value: Any) -> Any:
    raise _bad(t, value, "spatial values have no literal form")


_COERCE: dict[Family, Callable[[ColumnType, Any], Any]] = {
    Family.INTEGER: _coerce_integer,
    Family.DECIMAL: _coerce_decimal,
    Family.FLOAT: _coerce_float,
    Family.BIT: _coerce_bit,
    Family.CHAR: _coerce_char,
    Family.BINARY: _coerce_binary,
    Family.TEXT: _coerce_char,
    Family.BLOB: _coerce_binary,
    Family.ENUM: _coerce_enum,
    Family.TEMPORAL: _coerce_temporal,
    Family.JSON: _coerce_json,
    Family.SPATIAL: _coerce_spatial,
    Family.PLUGIN: _coerce_plugin,
}


__all__ = [
    "DOUBLE_TEXT_WIDTH",
    "FLOAT_MAX",
    "LITERAL_WORDS",
    "MEMBER_NUMBER_PAST",
    "coerce",
    "coerce_text",
    "convert",
    "double_text",
    "from_temporal_literal",
    "members_named",
    "python_date",
    "single_float",
    "temporal_literal",
    "time_text",
    "two_digit_year",
]
