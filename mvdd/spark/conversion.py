"""A column's values when its type changes, as the server converts them (``ALTER TABLE …
MODIFY``), written as Spark column expressions: what the lake's compaction and the Spark
pipeline (:func:`~mvdd.spark.pipeline.project`) give a value written under one type and read
under another. Spark's own cast is not MySQL's: it refuses an INT as a DATETIME, a DATE as a
number, a TIME's text as one, and where it casts it often gives another value (a DECIMAL cut
where the server rounds it, a DOUBLE as ``1.0E20`` where the server writes ``1e20``, a YEAR of
``70`` where the server reads 1970).

:func:`converted` reads the old value the way the server reads it for the new type, a rule
per kind of new type (:data:`RULES`), each from one of the old value's readings: as a number
(``_number``: a date as ``YYYYMMDD``, a time as ``[-]HHMMSS.ffffff``, an ENUM's member as its
index, a SET as its bits), as text (``_text``: a DOUBLE with the server's digits, a DATETIME with
its fractional digits), or as a time of day (``_micros``). The server's rules come from the
server itself (``tests/test_spark_conversions.py`` changes each value of 23 types to 24 types
on a real server, in a strict session and in one that is not, and compares): where a session
that is not strict stores the nearest value the new type holds (a number held to its range,
a text cut to its length, no time ``00:00:00``, a text's leading number), so do these. A
value they do not know gives a NULL or a value of their own, never an error. Where the
server takes what no value tells: a TIME made a DATE or a DATETIME takes the day's date, the
date of the ALTER there and of the compaction here. A text's bytes are its column's charset's
(a one-byte charset's as the model's codec reads them, latin1's cp1252 among them; the UTF
charsets' by Spark's codecs; any other's UTF-8), a character a new column's charset does not
hold is ``?``, and bytes read as text are a one-byte charset's a byte a character, any other's
UTF-8 (a byte UTF-8 does not read shows as ``?``, as the server shows it); a
DOUBLE's digits are Java's shortest (on Java 17 a few doubles get one more digit than the
server writes), cut to a narrower column's length as the server's ALTER cuts them
(``1.23456789`` in a VARCHAR(5) is ``1.234``, ``2.5e-10`` in a VARCHAR(12) ``0.0000000002``). A
rule mentions its value many times; :func:`_let` computes it once.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence

from pyspark.sql import Column as SparkColumn
from pyspark.sql import functions as F
from pyspark.sql import types as T

from mvdd.model import ColumnType
from mvdd.model.charsets import collation_charset
from mvdd.model.coerce import MEMBER_NUMBER_PAST
from mvdd.model.collation import UNICODE_CHARSETS
from mvdd.model.encoding import read_as
from mvdd.model.kind import Family, TypeKind
from mvdd.model.types import max_bytes_per_char
from mvdd.spark.types import cast, spark_type

K = TypeKind

#: how the server reads a value of each family (kinds of their own below)
_READING: dict[Family, str] = {
    Family.INTEGER: "integer",
    Family.BIT: "bit",
    Family.DECIMAL: "decimal",
    Family.FLOAT: "double",
    Family.CHAR: "text",
    Family.TEXT: "text",
    Family.JSON: "text",
    Family.PLUGIN: "text",
    Family.BINARY: "bytes",
    Family.BLOB: "bytes",
    Family.SPATIAL: "bytes",
    Family.ENUM: "enum",
}
_KIND_READING: dict[TypeKind, str] = {
    K.SET: "set",
    K.DATE: "date",
    K.DATETIME: "datetime",
    K.TIMESTAMP: "datetime",
    K.TIME: "time",
    K.YEAR: "year",
}


def reading(t: ColumnType) -> str:
    """How the server reads a value of type ``t`` when its column changes type."""
    return _KIND_READING.get(t.kind) or _READING[t.family]


_NUMERIC = frozenset({"integer", "bit", "decimal", "double", "year"})
_MICRO = 1_000_000
_DAY = 86_400 * _MICRO


# --- readings ---------------------------------------------------------------------------------


def _number(v: SparkColumn, t: ColumnType) -> SparkColumn:
    """The old value as the server reads it as a number: a Spark number."""
    how = reading(t)
    if how == "decimal" and t.precision is not None and t.precision > 38:  # (held as text)
        exact = cast(v, _decimal(38, min(t.scale or 0, 10)), tried=True)
        return F.coalesce(exact, cast(v, T.DoubleType(), tried=True))
    if how in _NUMERIC:
        return v
    if how == "date":
        return F.date_format(v, "yyyyMMdd").try_cast("long")
    if how == "datetime":
        return F.date_format(v, "yyyyMMddHHmmss.SSSSSS").cast("decimal(20,6)")
    if how == "time":
        return _let(_time_micros(v), _micros_number)
    if how == "enum":
        return F.array_position(F.array(*map(F.lit, t.members)), v)
    if how == "set":
        bits = [
            F.when(_has_member(v, m), F.lit(1 << i)).otherwise(0) for i, m in enumerate(t.members)
        ]
        return sum(bits[1:], bits[0]).try_cast("long") if bits else F.lit(0).try_cast("long")
    return _text_number(_text(v, t))


#: the number a text begins with, as the server reads a text as a number
_PREFIX = r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"


def _text_number(text: SparkColumn) -> SparkColumn:
    """A text as the server reads it as a number: the number it begins with (``'12abc'``:
    12, in a session that is not strict; a strict one refuses it), 0 where none."""
    prefix = F.regexp_extract(text, _PREFIX, 1)
    number = F.coalesce(
        cast(prefix, _decimal(38, 10), tried=True), cast(prefix, T.DoubleType(), tried=True)
    )
    return F.when(text.isNotNull(), F.coalesce(number, F.lit(0)))


def _whole(text: SparkColumn, kind: str) -> SparkColumn:
    """A piece of text as a whole number, NULL where it holds none (an empty piece)."""
    return text.try_cast(kind)


def _micros_number(micros: SparkColumn) -> SparkColumn:
    """A TIME's microseconds as the server reads them as a number: ``[-]HHMMSS.ffffff``."""
    seconds = F.floor(F.abs(micros) / F.lit(_MICRO)).try_cast("long")
    hms = (seconds / 3600).try_cast("long") * 10000 + ((seconds / 60) % 60).try_cast("long") * 100
    hms = hms + seconds % 60
    fraction = (F.abs(micros) % _MICRO).cast("decimal(20,6)") / _MICRO
    value = hms.cast("decimal(20,6)") + fraction
    return F.when(micros < 0, -value).otherwise(value).cast("decimal(20,6)")


def _has_member(v: SparkColumn, member: str) -> SparkColumn:
    return F.array_contains(F.split(v, ","), F.lit(member))


def _decimal(precision: int, scale: int) -> T.DataType:
    return T.DecimalType(precision, scale)


def _text(v: SparkColumn, t: ColumnType) -> SparkColumn:
    """The old value as the server writes it as text."""
    how = reading(t)
    if how == "double":
        return _double_text(v, single=t.kind == K.FLOAT)
    if how == "year":
        return F.lpad(v.cast("string"), 4, "0")
    if how == "datetime":
        return F.date_format(v, "yyyy-MM-dd HH:mm:ss" + ("." + "S" * t.fsp if t.fsp else ""))
    if how == "date":
        return F.date_format(v, "yyyy-MM-dd")
    if how == "time":
        base = F.regexp_extract(v, r"^(-?\d+:\d\d:\d\d)", 1)
        if not t.fsp:
            return base
        digits = F.substring(F.rpad(F.regexp_extract(v, r"\.(\d+)$", 1), 6, "0"), 1, t.fsp)
        return F.concat(base, F.lit("."), digits)
    if how == "bytes":  # (as UTF-8, each byte it does not read a ?, as the server shows it)
        return _utf8_text(v)
    return v.cast("string")


#: a byte of continuation, and a well-formed UTF-8 sequence, in the hex digits of its bytes
_ON = "[89AB][0-9A-F]"
_WELL_FORMED = (
    f"[0-7][0-9A-F]|(?:C[2-9A-F]|D[0-9A-F]){_ON}|E0[AB][0-9A-F]{_ON}|E[1-9A-CEF]{_ON}{_ON}"
    f"|ED[89][0-9A-F]{_ON}|F0[9AB][0-9A-F]{_ON}{_ON}|F[1-3]{_ON}{_ON}{_ON}|F48[0-9A-F]{_ON}{_ON}"
)


def _utf8_text(data: SparkColumn) -> SparkColumn:
    """Bytes read as UTF-8 text as the server reads them: each byte that begins no
    well-formed sequence a ``?`` (``E2 82`` is ``'??'``, where Java's decoder writes one
    U+FFFD for the two; an encoded surrogate a ``?`` a byte too, which no Spark string holds):
    the hex digits of the bytes, each run of well-formed sequences kept and the byte after it
    made ``3F``, read back."""
    fixed = F.regexp_replace(F.hex(data), f"\\G((?:{_WELL_FORMED})*+)[0-9A-F]{{2}}", "$13F")
    return F.unhex(fixed).cast("string")


def _let(value: SparkColumn, body: Callable[[SparkColumn], SparkColumn]) -> SparkColumn:
    """``body`` of ``value``, ``value`` computed once a row: a one-element array's transform
    (which Spark's generated code runs too). Unbound, each mention of a value is its whole
    expression again, and the rules that mention theirs many times, nested, grow a plan that
    Spark takes seconds to analyse and compile: a value a rule mentions more than once past a
    column or a small expression is bound (a DOUBLE's text made a TIME: 114 KB of plan
    unbound, 27 KB bound; the conversions' test module 200 s → 80 s). A stage's method past
    HotSpot's limit runs split (:data:`mvdd.spark.runtime.HUGE_METHOD`)."""
    return F.element_at(F.transform(F.array(value), body), 1)


def _double_text(v: SparkColumn, *, single: bool) -> SparkColumn:
    """A DOUBLE (a FLOAT: six significant digits) as the server writes it in a wide string
    column: its digits with a point where the point is near (fewer than 16 digits before it,
    14 zeros after it), else with an exponent (``1e20``, ``1.5e-15``)
    (:func:`mvdd.model.coerce.double_text`)."""

    def parts(shown: SparkColumn) -> SparkColumn:  # (its mantissa and exponent)
        if single:  # (d.ddddde±x: six digits, rounded)
            mantissa = F.regexp_extract(shown, r"^([0-9.]+)e", 1)
            exponent = _whole(F.regexp_extract(shown, r"e([-+]\d+)$", 1), "int")
        else:  # (Java's shortest digits: 1.0E20, 0.001, 123.456)
            mantissa = F.regexp_extract(shown, r"^([0-9.]+)", 1)
            exponent = F.coalesce(_whole(F.regexp_extract(shown, r"E(-?\d+)$", 1), "int"), F.lit(0))
        whole = F.split_part(mantissa, F.lit("."), F.lit(1))
        every = F.concat(whole, F.split_part(mantissa, F.lit("."), F.lit(2)))
        return F.struct(every.alias("every"), (F.length(whole) + exponent).alias("point"))

    def digits(
        p: SparkColumn,
    ) -> SparkColumn:  # (its digits, the point's place: 0.DIGITS × 10^point)
        stripped = F.regexp_replace(p["every"], "^0+", "")
        lead = F.length(p["every"]) - F.length(stripped)
        return F.struct(
            F.regexp_replace(stripped, "0+$", "").alias("digits"),
            (p["point"] - lead).alias("point"),
        )

    def written(d: SparkColumn) -> SparkColumn:
        digits, point = d["digits"], d["point"]
        n = F.length(digits)
        positional = (
            F.when(point <= 0, F.concat(F.lit("0."), F.repeat(F.lit("0"), -point), digits))
            .when(
                point < n,
                F.concat(
                    F.substring(digits, F.lit(1), point),
                    F.lit("."),
                    F.substring(digits, point + 1, n),
                ),
            )
            .otherwise(F.concat(digits, F.repeat(F.lit("0"), point - n)))
        )
        scientific = F.concat(
            F.substring(digits, 1, 1),
            F.when(n > 1, F.concat(F.lit("."), F.substring(digits, F.lit(2), n))).otherwise(
                F.lit("")
            ),
            F.lit("e"),
            (point - 1).cast("string"),
        )
        return F.when((point >= -13) & ((point <= 15) | (n > point)), positional).otherwise(
            scientific
        )

    def text(x: SparkColumn) -> SparkColumn:
        shown = F.format_string("%.5e", F.abs(x)) if single else F.abs(x).cast("string")
        body = _let(_let(_let(shown, parts), digits), written)
        sign = F.when(x < 0, F.lit("-")).otherwise(F.lit(""))
        return F.when(x == 0, F.lit("0")).otherwise(F.concat(sign, body))

    whole = _let(v.cast("double"), text)
    if single:
        return whole
    # (from 0.001 to 10^7 Java writes a double as the server does, but for a whole one's ".0":
    # a tenth of the digits' rules' time, measured 2026-12-07)
    x = v.cast("double")
    near = (F.abs(x) >= 1e-3) & (F.abs(x) < 1e7)
    return F.when(near, F.regexp_replace(x.cast("string"), r"\.0$", "")).otherwise(whole)


def _time_micros(v: SparkColumn) -> SparkColumn:
    """A TIME's text (``[-]H:MM:SS[.ffffff]``) as its microseconds."""
    # (a function of one parameter: a transform gives one of two an element's index too)
    return _let(v, lambda text: _clock_micros(text))


#: what may follow a number or a time a text begins with, which the server reads and leaves
#: the rest of (a session that is not strict keeps what it read: ``'12:30:00abc'`` is 12:30,
#: ``'12x'`` 12 seconds): anything but more of it, or an exponent (``'1e3'`` and
#: ``'12:30e5'`` are no time)
_NO_EXPONENT = r"(?![eE][-+]?\d)"  # (an exponent next: no number there, nor time)
_REST = _NO_EXPONENT + r"(?:\D.*)?$"
#: a time of day as text: its sign, days, hours, minutes, seconds and fraction (the groups
#: possessive: none gives back what it read to what follows)
_CLOCK_HEAD = r"^(-?)(?:(\d+) +)?(\d+):(\d+)(?::(\d+))?+(?:\.(\d+))?+"
#: a text that is a time of day, then :data:`_REST`
_CLOCK = _CLOCK_HEAD + _REST
#: a date and time's time part, then anything (``'… 12:30:00e5'`` is 12:30)
_CLOCK_ANY = _CLOCK_HEAD + r"(?:\D.*)?$"


def _clock_micros(text: SparkColumn, clock: str = _CLOCK) -> SparkColumn:
    """A text of ``clock``'s form (:data:`_CLOCK`, :data:`_CLOCK_ANY`) as its signed
    microseconds (NULL where it is not, or its minutes or seconds pass 59: ``'20:59:60'`` is
    no time)."""
    minutes = _whole(F.regexp_extract(text, clock, 4), "long")
    second = F.coalesce(_whole(F.regexp_extract(text, clock, 5), "long"), F.lit(0))
    seconds = (
        F.coalesce(_whole(F.regexp_extract(text, clock, 2), "long"), F.lit(0)) * 86400
        + _whole(F.regexp_extract(text, clock, 3), "long") * 3600
        + minutes * 60
        + second
    )
    fraction = F.regexp_extract(text, clock, 6)
    micros = seconds * _MICRO + F.coalesce(_whole(F.rpad(fraction, 6, "0"), "long"), F.lit(0))
    signed = micros * F.when(F.regexp_extract(text, clock, 1) == "-", -1).otherwise(1)
    return F.when((minutes <= 59) & (second <= 59), signed)


#: a date and time's text as a TIME reads it: its date (any punctuation between its parts),
#: then, after spaces or a T, its time (which the rest may follow: ``'… 12:30:00Z'``)
_DATED = r"^(\d+)\p{Punct}(\d+)\p{Punct}(\d+)[ T]+(\d\S*)(?:\s.*)?$"


def _dated_micros(text: SparkColumn) -> SparkColumn:
    """A date and time's text (:data:`_DATED`) as a TIME: its time of day, where its date is
    one (or has a zero month or day) and its time one of a day; a date of no year nor month
    counts its days as hours (``'0000-00-02 05:00'`` is 53:00), as the server reads them."""
    year, month, day = (_whole(F.regexp_extract(text, _DATED, k), "int") for k in (1, 2, 3))
    a_date = _make(
        [F.when(year == 0, F.lit(2001)).otherwise(year), month, day, F.lit(0), F.lit(0), F.lit(0)],
        F.lit(0),
    ).isNotNull() | ((month <= 12) & (day <= 31) & ((month == 0) | (day == 0)))
    days = F.when((year == 0) & (month == 0), day * 86400 * _MICRO).otherwise(F.lit(0))

    def of_day(clock: SparkColumn) -> SparkColumn:
        hours = _whole(F.regexp_extract(clock, _CLOCK_ANY, 3), "long")
        days_of = F.regexp_extract(clock, _CLOCK_ANY, 2)
        a_time = (hours <= 23) & ~clock.startswith("-") & (days_of == "")
        return F.when(a_date & a_time, _clock_micros(clock, _CLOCK_ANY) + days)

    return _let(_clock_of(F.regexp_extract(text, _DATED, 4)), of_day)


def _micros(v: SparkColumn, t: ColumnType) -> SparkColumn:
    """The old value as the server reads it as a TIME: its signed microseconds."""
    how = reading(t)
    if how == "time":
        return _time_micros(v)
    if how == "datetime":
        return F.pmod(F.unix_micros(v.cast("timestamp")), F.lit(_DAY))
    if how == "date":
        return F.lit(0).try_cast("long")
    if how in ("text", "bytes", "enum", "set"):
        return _let(F.trim(_text(v, t)), _text_micros)
    return _number_micros(_number(v, t), exact=how != "double", double=how == "double")


def _text_micros(text: SparkColumn) -> SparkColumn:
    """A text as the server reads it as a TIME: a date and a time's time; ``H:M[:S][.f]``,
    with days before it; else a number (:func:`_number_micros`)."""

    def read(text: SparkColumn) -> SparkColumn:
        # (the number it begins with, of a digit first, the rest left: '2020-01-01' is 2020,
        # '12x' 12, '23658..6' 23658; '1e3', '.5' and, a date and time's letter after it,
        # '73105T' none)
        prefix = F.regexp_extract(text, r"^\s*([-+]?\d+\.?\d*)(?![\dT])" + _REST, 1)
        cut = F.regexp_extract(prefix, r"^([-+]?\d*\.?\d{0,6})", 1)  # (the server cuts the rest)
        number = cast(cut, _decimal(38, 6), tried=True)
        trailed = F.length(text) > F.length(prefix)  # (the text trimmed: something after it)
        timed = _clock_micros(text)
        return (
            F.when(text.rlike(_DATED), _dated_micros(text))
            .when(text.rlike(_CLOCK_HEAD), timed)  # (an exponent after it: none)
            .otherwise(_number_micros(number, exact=False, trailed=trailed))
        )

    return _let(text, read)


def _clock_of(part: SparkColumn) -> SparkColumn:
    """A date and time's time part as :data:`_CLOCK` writes it: its parts between any
    punctuation (``05.06`` is 05:06), an hour alone an hour (``5`` is 05:00), the rest after
    them kept (``12.5x`` is 12:05, ``12Z`` 12:00)."""
    three = F.regexp_replace(part, r"^(\d+)\p{Punct}(\d+)\p{Punct}(\d+)", "$1:$2:$3")
    two = F.regexp_replace(three, r"^(\d+)\p{Punct}(\d+)(?!\d|\p{Punct}\d)", "$1:$2")
    return F.regexp_replace(two, r"^(\d+)(?!\d|\p{Punct}\d)", "$1:00")


def _number_micros(
    n: SparkColumn,
    *,
    exact: bool = True,
    double: bool = False,
    trailed: SparkColumn | None = None,
) -> SparkColumn:
    """A number as the server reads it as a TIME: ``[-]HHMMSS.ffffff`` (minutes or seconds
    past 59: no time, which a session that is not strict makes 00:00:00). An ``exact`` one's
    (not a DOUBLE's, nor a text's) 8 digits are a date, its midnight, and 9 to 14 a date and
    time, its time of day (none where it is no date); past them the range's end
    (:func:`_to_time` holds it there). A DOUBLE's and a text's 11 to 14 digits are a date and
    time's time of day (none where they are no date, but the range's end where something
    follows them in their text, ``trailed``); past 14 digits, none. A ``double``'s
    fraction is its binary value's rounded to microseconds, as the server rounds it before it
    cuts it to the column's digits (760955.9999995 is 760955.99999949999…: 76:09:55.999999,
    where its shortest digits would round to 76:09:56)."""

    def read(n: SparkColumn) -> SparkColumn:
        a = cast(F.abs(n), _decimal(38, 6), tried=True)
        if double:  # (of 15 digits and more no fraction is left to round)
            small = F.abs(n) < 1e15
            whole = F.floor(F.when(small, F.abs(n)))
            rounded = cast(whole, _decimal(38, 0), tried=True) * _MICRO + F.round(
                (F.abs(n) - whole) * _MICRO
            )
            a = F.when(small, cast(rounded / _MICRO, _decimal(38, 6), tried=True)).otherwise(a)
        parts = F.struct(a.alias("a"), F.floor(a).try_cast("long").alias("whole"))
        return _let(parts, lambda p: micros(n, p["a"], p["whole"]))

    def micros(n: SparkColumn, a: SparkColumn, whole: SparkColumn) -> SparkColumn:
        fraction = ((a - whole) * _MICRO).try_cast("long")
        hours, minutes = (whole / 10000).try_cast("long"), ((whole / 100) % 100).try_cast("long")
        seconds = hours * 3600 + minutes * 60 + whole % 100
        clock = F.when((minutes < 60) & (whole % 100 < 60), seconds * _MICRO + fraction)
        past = F.lit(2 * _TIME_MAX)
        of_day = F.pmod(F.unix_micros(_number_instant(a).cast("timestamp")), F.lit(_DAY))
        if exact:
            micros = (
                F.when(whole <= 9_999_999, clock)
                .when(whole <= 99_999_999, F.lit(0))
                .when(whole <= 99_999_999_999_999, of_day)
                .otherwise(past)
            )
            micros = F.when(n.isNotNull() & whole.isNull(), past).otherwise(micros)
        else:  # (hours past 838: the range's end; from 11 digits a date and time's time)
            if trailed is not None:
                of_day = F.coalesce(of_day, F.when(trailed, past))
            micros = F.when(whole < 10_000_000_000, clock).when(whole <= 99_999_999_999_999, of_day)
        return micros * F.when(n < 0, -1).otherwise(1)

    return _let(n, read)


def _cut(micros: SparkColumn, fsp: int) -> SparkColumn:
    """Microseconds cut (toward zero) to ``fsp`` fractional digits, as the server cuts them."""
    unit = 10 ** (6 - fsp)
    return micros - micros % unit if unit > 1 else micros


def _instant(v: SparkColumn, t: ColumnType) -> SparkColumn:
    """The old value as the server reads it as a date and time: a TIMESTAMP_NTZ (NULL for
    what Spark holds no date of: the zero date, a zero month or day)."""
    how = reading(t)
    if how == "datetime":
        return v
    if how == "date":
        return v.cast("timestamp_ntz")
    if how == "time":  # (today's date, as the server's)
        today = F.unix_micros(F.current_date().cast("timestamp"))
        return F.timestamp_micros(today + _time_micros(v)).cast("timestamp_ntz")
    if how in _NUMERIC and how != "double":
        return _number_instant(_number(v, t))
    # (a DOUBLE as its text: the server reads 611.25 as no date, where a DECIMAL's 611.25 is
    # the 11th of June 2000)
    return _let(F.trim(_text(v, t)), _text_instant)


def _text_instant(text: SparkColumn) -> SparkColumn:
    """A text as the server reads it as a date and time: digits by their count
    (:func:`_digits_instant`), else year, month and day and a time, any delimiters between
    (the time after spaces, a T or punctuation, of an hour at least: ``'2026-01-02.5'`` is
    05:00, a time's parts one punctuation apart); what follows them is left
    (``'2026-01-02T12:30:00Z'`` is 12:30, ``'20260102 x'`` a date; digits followed by an
    exponent or by punctuation none: :data:`_DIGITS`)."""
    parts = (
        r"^(\d+)\D+(\d+)\D+(\d+)"
        r"(?:(?:T| +|\p{Punct})(\d+)(?:\p{Punct}(\d+)(?:\p{Punct}(\d+)(?:\.(\d+))?)?)?)?"
        r"(?:\D.*)?$"
    )
    year = F.regexp_extract(text, parts, 1)
    years = _whole(year, "int")
    years = F.when(F.length(year) == 2, _two_digit_year(years)).otherwise(years)
    delimited = _make(
        [years]
        + [
            F.coalesce(_whole(F.regexp_extract(text, parts, k), "int"), F.lit(0))
            for k in (2, 3, 4, 5, 6)
        ],
        F.coalesce(_whole(F.rpad(F.regexp_extract(text, parts, 7), 6, "0"), "long"), F.lit(0)),
    )
    return F.when(text.rlike(_DIGITS), _digits_instant(text)).when(text.rlike(parts), delimited)


#: digits (and a fraction) a date and time is read from by their count, then what the server
#: leaves of the text: not an exponent nor punctuation (``'20260102 x'`` is a date,
#: ``'20260102-'`` and ``'20260102e5'`` none)
_DIGITS = r"^(\d+(?:\.\d*)?+)" + _NO_EXPONENT + r"(?:[^\d\p{Punct}].*)?$"


def _digits_instant(text: SparkColumn) -> SparkColumn:
    """Digits (and a fraction) as the server reads them as a date and time, by their count:
    ``YYMMDD`` and ``YYYYMMDD`` (no fraction), ``YYMMDDhhmmss`` and ``YYYYMMDDhhmmss`` (a
    fraction the seconds'), five as ``YYMMD``; any other count, or a date's digits with a
    fraction, no date (where a number's digits are read whatever their count); the rest
    after them left (:data:`_DIGITS`)."""
    digits = F.regexp_extract(text, _DIGITS, 1)
    whole = F.regexp_extract(digits, r"^(\d*)", 1)
    count, dotted = F.length(whole), digits.contains(".")
    number = _number_instant(cast(digits, _decimal(38, 6), tried=True))
    short = _make(
        [
            _two_digit_year(_whole(F.substring(whole, 1, 2), "int")),
            _whole(F.substring(whole, 3, 2), "int"),
            _whole(F.substring(whole, 5, 1), "int"),
            *(F.lit(0),) * 3,
        ],
        F.lit(0),
    )
    whole_date = ~dotted & count.isin(6, 8)
    return F.when(count.isin(12, 14) | whole_date, number).when(~dotted & (count == 5), short)


def _two_digit_year(yy: SparkColumn) -> SparkColumn:
    return yy + F.when(yy < 70, 2000).otherwise(1900)


def _number_instant(n: SparkColumn) -> SparkColumn:
    """A number as the server reads it as a date and time: ``YYMMDD``, ``YYYYMMDD``,
    ``YYMMDDhhmmss`` or ``YYYYMMDDhhmmss`` by its digits, its fraction the seconds' (a date's
    number's: none). Arithmetic on whole numbers, which Spark's generated code runs; the number,
    and then its date's and time's digits, bound once (:func:`_let`: each part mentions them)."""

    def split(n: SparkColumn) -> SparkColumn:  # (its date's and time's digits, its fraction)
        n = F.when((n > 0) & (n < 100_000_000_000_000), n)  # (past 14 digits: none)
        whole = F.floor(n).try_cast("long")
        timed = whole >= 100_000_000  # (a date and time's number)
        return F.struct(
            F.when(timed, F.floor(whole / 1_000_000).try_cast("long"))
            .otherwise(whole)
            .alias("date"),
            F.when(timed, whole % 1_000_000).otherwise(F.lit(0).try_cast("long")).alias("clock"),
            ((whole < 1_000_000) | (timed & (whole < 1_000_000_000_000))).alias("short"),
            F.when(timed, ((n - whole) * _MICRO).try_cast("long")).otherwise(0).alias("fraction"),
        )

    def made(p: SparkColumn) -> SparkColumn:
        date, clock = p["date"], p["clock"]
        year = F.floor(date / 10_000).try_cast("int")
        year = F.when(p["short"], _two_digit_year(year)).otherwise(year)
        month, day = (F.floor(date / 100) % 100).try_cast("int"), (date % 100).try_cast("int")
        hour, minute = (
            F.floor(clock / 10_000).try_cast("int"),
            (F.floor(clock / 100) % 100).try_cast("int"),
        )
        second = (clock % 100).try_cast("int")
        return _make([year, month, day, hour, minute, second], p["fraction"])

    return _let(_let(n, split), made)


def _make(parts: Sequence[SparkColumn], micros: SparkColumn) -> SparkColumn:
    """A TIMESTAMP_NTZ of its parts (year, month, day, hour, minute, second) and
    microseconds, NULL where they make no date Spark holds."""
    year, month, day, hour, minute, second = parts
    seconds = second.cast("decimal(20,6)") + micros.cast("decimal(20,6)") / _MICRO
    seconds = cast(seconds, _decimal(8, 6), tried=True)
    made = F.try_make_timestamp_ntz(year, month, day, hour, minute, seconds)
    return F.when(year >= 1, made)


def _instant_cut(ts: SparkColumn, fsp: int) -> SparkColumn:
    """A date and time's fraction cut to ``fsp`` digits, as the server cuts it."""
    shown = F.date_format(ts, "yyyy-MM-dd HH:mm:ss" + ("." + "S" * fsp if fsp else ""))
    return shown.cast("timestamp_ntz")


def _rounded(v: SparkColumn, t: ColumnType, *, to_year: bool = False) -> SparkColumn:
    """The old value as a whole number: a DOUBLE rounded half to even (a YEAR: cut), a time
    and a date and time cut, any other rounded half away from zero."""
    how = reading(t)
    if how in ("text", "bytes") and not to_year:  # (the whole number it begins with: '2.5' is 2)
        digits = F.regexp_extract(_text(v, t), r"^\s*([-+]?\d+)", 1)
        number = cast(digits, _decimal(38, 0), tried=True)
        return F.when(v.isNotNull(), F.coalesce(number, F.lit(0)))
    n = _number(v, t)
    if how == "double":  # (a DECIMAL, exact; past its 37 digits, as far: past any range)

        def whole(n: SparkColumn) -> SparkColumn:
            cut = F.when(F.abs(n) < 1e18, F.floor(n)).otherwise(n) if to_year else F.bround(n, 0)
            far = F.when(n < 0, -_exact(10**37)).otherwise(_exact(10**37))
            return F.when(F.abs(n) < 1e37, cut.cast("decimal(38,0)")).otherwise(far)

        return _let(n, whole)
    if how in ("time", "datetime"):
        return _let(n, lambda n: F.when(n < 0, F.ceil(n)).otherwise(F.floor(n)))
    if how in ("integer", "bit", "year", "date", "enum", "set"):
        return n
    return F.round(n, 0)


# --- rules, by the new type's kind ----------------------------------------------------------


def _exact(number: int | str) -> SparkColumn:
    """A number as a Spark decimal literal (a Python int past a long's range is none)."""
    return F.lit(str(number)).cast("decimal(38,10)" if "." in str(number) else "decimal(38,0)")


def _two_to(power: int) -> SparkColumn:
    return _exact(2**power)


def _within(n: SparkColumn, low: SparkColumn, high: SparkColumn) -> SparkColumn:
    """``n`` held to ``[low, high]``: a session that is not strict stores the bound nearest a
    value out of a type's range (a strict one refuses it). (``n`` mentioned twice: Spark's
    ``greatest`` and ``least`` pass over a NULL.)"""
    return F.when(n.isNotNull(), F.least(F.greatest(n, low), high))


def _to_integer(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    low, high = new.integer_range()
    if reading(old) == "double":  # (a DOUBLE past a long's range: the largest long)
        high = min(high, 2**63 - 1)
    return cast(_within(_rounded(v, old), _exact(low), _exact(high)), spark_type(new), tried=True)


def _to_bit(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    """A negative number's 64 bits (a DECIMAL's: 0), held to the width; a DOUBLE past a
    long's range: the largest long (as the server's)."""
    n = _rounded(v, old)
    if reading(old) == "double":
        n = _within(n, -_two_to(63), _two_to(63) - 1)
    below = (lambda n: F.lit(0)) if reading(old) == "decimal" else (lambda n: n + _two_to(64))
    n = _let(n, lambda n: F.when(n < 0, below(n)).otherwise(n))
    return cast(
        _within(n, _exact(0), _exact(2 ** (new.length or 1) - 1)), spark_type(new), tried=True
    )


def _to_decimal(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    """The old value rounded half away from zero to the new scale, held to the new range; a
    value held as text (a text's, a DECIMAL's past Spark's 38 digits) read from its digits
    into the new type itself (:func:`_text_decimal`), not through a double."""
    assert new.precision is not None and new.scale is not None
    digits = "9" * (new.precision - new.scale)
    top = _exact(f"{digits or '0'}.{'9' * new.scale}" if new.scale else digits)
    wide = new.precision > 38  # (held as text, with its scale's digits)
    held = _decimal(38, min(new.scale, 38)) if wide else spark_type(new)
    if _held_as_text(old):
        n = _text_decimal(_text(v, old), held, top)
        return cast(n, spark_type(new)) if wide else n
    n = _number(v, old)
    if wide:
        return cast(cast(n, held, tried=True), spark_type(new))
    return cast(_within(F.round(n, new.scale), -top, top), spark_type(new), tried=True)


def _held_as_text(t: ColumnType) -> bool:
    """Whether a type's value is held in Spark as text that is read as a number: a text's, a
    byte string's, a DECIMAL's of more digits than Spark's 38."""
    how = reading(t)
    return how in ("text", "bytes") or (how == "decimal" and (t.precision or 0) > 38)


def _text_decimal(text: SparkColumn, held: T.DataType, top: SparkColumn) -> SparkColumn:
    """A text as the server reads it into a DECIMAL: the number it begins with
    (:data:`_PREFIX`) rounded half away from zero to the type's scale, exactly (a double would
    keep 17 digits of its 65: ``'796129560224074660'`` is no ``…620``); past the type's range
    its nearest end (a session that is not strict stores it), 0 where it begins with none."""
    prefix = F.regexp_extract(text, _PREFIX, 1)
    exact = cast(prefix, held, tried=True)
    far = F.when(F.startswith(prefix, F.lit("-")), -top).otherwise(top)
    number = F.when(prefix == "", F.lit(0).cast(held)).when(exact.isNotNull(), exact)
    return F.when(text.isNotNull(), number.otherwise(far))


#: the largest FLOAT, which a larger number becomes in a session that is not strict
_FLOAT_MAX = 3.4028234663852886e38


def _to_double(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    how = reading(old)
    n = _text_number(_text(v, old)).cast("double") if _held_as_text(old) else _number(v, old)
    if how == "bit" and old.length == 64:  # (its 64 bits read as a signed number)
        n = _let(n, lambda n: F.when(n >= _two_to(63), n - _two_to(64)).otherwise(n))
    if new.kind == K.FLOAT:
        n = _within(n.cast("double"), F.lit(-_FLOAT_MAX), F.lit(_FLOAT_MAX))
    return cast(n, spark_type(new), tried=True)


def _bit_bytes(v: SparkColumn, t: ColumnType) -> SparkColumn:
    """A BIT's bytes, big-endian, as many as its width needs."""
    size = 2 * (((t.length or 1) + 7) // 8)
    return F.unhex(F.lpad(F.conv(v.cast("string"), 10, 16), size, "0"))


#: the new families that take a BIT's bytes, not its number's text (as the server does)
_BIT_BYTES = frozenset({Family.TEXT, Family.BLOB})


#: the Unicode charsets Spark has a codec of: its name, and the highest code point the charset
#: holds; a charset neither here nor of one byte a character (:func:`_byte_table`) is held
#: as UTF-8, every character (Spark's codecs are these alone)
_UNICODE_CODECS: dict[str, tuple[str, int]] = {
    "utf8mb3": ("UTF-8", 0xFFFF),
    "ucs2": ("UTF-16BE", 0xFFFF),
    "utf16": ("UTF-16BE", 0x10FFFF),
    "utf16le": ("UTF-16LE", 0x10FFFF),
    "utf32": ("UTF-32", 0x10FFFF),
}
_UTF8 = ("UTF-8", 0x10FFFF)
#: the 256 characters of ISO-8859-1, a byte's own value: the one-byte charsets' bytes pass
#: through Spark's codec of it, translated to and from their charset's characters
_LATIN = "".join(map(chr, range(256)))


@functools.cache
def _byte_table(charset: str | None) -> str | None:
    """A one-byte charset's 256 characters, byte by byte, as the server reads them (the
    model's codec: :func:`mvdd.model.encoding.read_as`, latin1's cp1252 and its C1 controls,
    a byte the charset has no character for a ``?``); None for any other charset."""
    if max_bytes_per_char(charset) != 1:
        return None
    read = [read_as(bytes([b]), charset) or "" for b in range(256)]
    return "".join(read) if all(len(r) == 1 for r in read) else None


def _unicode_codec(t: ColumnType) -> tuple[str, int]:
    return _UNICODE_CODECS.get(t.charset or "", _UTF8)


def _fitted(text: SparkColumn, t: ColumnType) -> SparkColumn:
    """A text as a column of ``t``'s charset holds it: each character it does not, ``?``."""
    table = _byte_table(t.charset)
    if table is not None:
        held = "".join(f"\\x{{{ord(c):X}}}" for c in sorted(set(table)))
    elif (top := _unicode_codec(t)[1]) < _UTF8[1]:
        held = f"\\x{{0}}-\\x{{{top:X}}}"
    else:
        return text
    return F.regexp_replace(text, f"[^{held}]", "?")


def _bytes_of(text: SparkColumn, t: ColumnType) -> SparkColumn:
    """A text's bytes in ``t``'s charset (a character it does not hold a ``?``)."""
    text, table = _fitted(text, t), _byte_table(t.charset)
    if table is None:
        return F.encode(text, _unicode_codec(t)[0])
    return F.encode(F.translate(text, table, _LATIN), "ISO-8859-1")


def _read_text(b: SparkColumn, t: ColumnType) -> SparkColumn | None:
    """Bytes as text of ``t``'s one-byte charset, a byte a character (None for the other
    charsets, whose bytes are read as UTF-8)."""
    table = _byte_table(t.charset)
    return None if table is None else F.translate(F.decode(b, "ISO-8859-1"), _LATIN, table)


def _to_text(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    if reading(old) == "bit" and new.family in _BIT_BYTES:
        return F.regexp_replace(_bit_bytes(v, old).cast("string"), "\ufffd", "?")
    read = _read_text(v, new) if reading(old) == "bytes" else None
    text = _fitted(_text(v, old), new) if read is None else read
    if new.family == Family.CHAR and new.length is not None:  # (cut to its characters)
        text = F.substring(text, 1, new.length)
    if new.kind == K.CHAR:  # (a CHAR's trailing spaces are gone when it is read: a cut's too)
        text = F.rtrim(text)
    return text


def _to_bytes(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    if reading(old) == "bytes":
        b = v
    elif reading(old) == "bit" and new.family in _BIT_BYTES:
        b = _bit_bytes(v, old)
    else:  # (a text's bytes in its charset)
        b = _bytes_of(_text(v, old), old)
    size = new.length
    if new.family == Family.BINARY and size is not None:  # (cut to its bytes)
        b = F.substring(b, 1, size)
    if new.kind == K.BINARY and size:  # (padded with zero bytes)
        pad = F.lit(bytearray(1))
        b = _let(b, lambda b: F.when(F.length(b) < size, F.rpad(b, size, pad)).otherwise(b))
    return b


def _to_calendar(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    ts = _instant(v, old)
    if new.kind == K.DATE:
        return ts.cast("date")
    if _finer(old, new):  # (a fraction past the new type's digits: cut)
        ts = _instant_cut(ts, new.fsp or 0)
    if new.kind == K.TIMESTAMP:  # (out of its range: the zero date, where not strict)
        low, high = (F.lit(t).cast("timestamp_ntz") for t in _TIMESTAMP_RANGE)
        ts = _let(ts, lambda ts: F.when(ts.between(low, high), ts))
    return ts


#: the readings of values without a fraction of a second
_NO_FRACTION = frozenset({"integer", "bit", "year", "date", "enum", "set"})


def _finer(old: ColumnType, new: ColumnType) -> bool:
    """Whether a value of ``old`` may have a fraction of a second past ``new``'s digits."""
    how = reading(old)
    if how in _NO_FRACTION or (new.fsp or 0) == 6:
        return False
    return not (how in ("datetime", "time") and (old.fsp or 0) <= (new.fsp or 0))


def _to_time(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    """As the lake holds a TIME: ``[-]HH:MM:SS``, and ``.ffffff`` where it has a fraction."""
    fsp = new.fsp or 0
    top = F.lit(_TIME_MAX + _MICRO - 10 ** (6 - fsp))  # (838:59:59 and its fraction's nines)
    # (a session that is not strict makes what reads as no time 00:00:00, and holds the rest
    # to the type's range)
    micros = F.when(v.isNotNull(), F.coalesce(_micros(v, old), F.lit(0)))
    finer = _finer(old, new)
    return _let(micros, lambda m: _time_text(_within(_cut(m, fsp) if finer else m, -top, top)))


#: the dates and times a TIMESTAMP holds (UTC)
_TIMESTAMP_RANGE = (dt.datetime(1970, 1, 1, 0, 0, 1), dt.datetime(2038, 1, 19, 3, 14, 7, 999999))

#: 838:59:59, the largest TIME, in microseconds
_TIME_MAX = (838 * 3600 + 59 * 60 + 59) * _MICRO


def _time_text(micros: SparkColumn) -> SparkColumn:
    """Signed microseconds as a TIME's text (``[-]HH:MM:SS``, ``.ffffff`` where it has a
    fraction), the microseconds bound once (:func:`_let`)."""

    def text(micros: SparkColumn) -> SparkColumn:
        a = F.abs(micros)
        seconds = (a / _MICRO).try_cast("long")
        sign = F.when(micros < 0, F.lit("-")).otherwise(F.lit(""))
        hours, minutes = (seconds / 3600).try_cast("long"), ((seconds / 60) % 60).try_cast("long")
        clock = F.format_string("%s%02d:%02d:%02d", sign, hours, minutes, seconds % 60)
        fraction = a % _MICRO
        return F.concat(
            clock, F.when(fraction > 0, F.format_string(".%06d", fraction)).otherwise(F.lit(""))
        )

    return _let(micros, text)


def _to_year(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    how = reading(old)
    if how in ("date", "datetime"):  # (its year, where a session is not strict; past 1901
        # to 2155, a YEAR's range, 0)
        held = F.year(v)
        return F.when(held.between(1901, 2155), held).when(held.isNotNull(), 0).try_cast("short")
    if how == "time":
        return F.when(v.isNotNull(), F.lit(0)).try_cast("short")
    zero = F.lit(0)
    if how in ("text", "bytes"):  # (a text's 0 is 2000; a text of no number, 0)
        zero = F.when(_text(v, old).rlike(r"^\s*[-+]?\d"), 2000).otherwise(0)

    def year(n: SparkColumn) -> SparkColumn:  # (out of its range: 0, as a loose session's)
        two_digits = F.when(n == 0, zero).when(n < 70, n + 2000).when(n < 100, n + 1900)
        return F.when(n.between(0, 99), two_digits).when(n.between(1901, 2155), n).otherwise(0)

    n = _within(_rounded(v, old, to_year=True), _exact(-1), _exact(10_000)).try_cast("int")
    return _let(n, year).try_cast("short")


#: Spark's collation of a server's collation, by its name: binary's, and latin1's default,
#: Swedish (``é`` is ``e``, ``ü`` is ``y``, ``å``, ``ä`` and ``ö`` letters of their own; ICU's
#: Swedish weighs ``ø`` as ``ö`` and ``ß`` as ``ss`` where it does not)
_NAMED_COLLATIONS = {
    "binary": "UTF8_BINARY",
    "latin1_swedish_ci": "sv_CI_AI",
    "latin1_swedish_nopad_ci": "sv_CI_AI",
}
#: then by the end of its name: binary and case-sensitive ones, the characters as they are;
#: accent-sensitive ones, their case folded
_COLLATION_ENDS = (("_bin", "UTF8_BINARY"), ("_cs", "UTF8_BINARY"), ("_as_ci", "UNICODE_CI"))


def member_collation(collation: str | None) -> str:
    """The Spark collation an ENUM's or SET's members are named in for a column of
    ``collation``, as the server matches a text to them: by its name
    (:data:`_NAMED_COLLATIONS`), by its name's end (:data:`_COLLATION_ENDS`); a Unicode
    charset's other ones case and accents folded (``UNICODE_CI_AI``, ICU's root, where the
    server's ``_general_ci`` weigh a few letters otherwise: ``ß`` is ``s`` there, ``ss``
    here); any other 8-bit one, and a collation not known yet, case folded (``UTF8_LCASE``, as
    :func:`mvdd.model.collation.collation_key` folds the latter)."""
    if collation is None:
        return "UTF8_LCASE"
    if collation in _NAMED_COLLATIONS:
        return _NAMED_COLLATIONS[collation]
    spark = next((c for end, c in _COLLATION_ENDS if collation.endswith(end)), None)
    if spark is not None:
        return spark
    return "UNICODE_CI_AI" if collation_charset(collation) in UNICODE_CHARSETS else "UTF8_LCASE"


def _folded(text: SparkColumn, t: ColumnType) -> SparkColumn:
    """A text as an ENUM's or SET's member name compares, its trailing spaces cut
    (:func:`member_collation`)."""
    return F.collate(F.rtrim(text), member_collation(t.collation))


def _to_enum(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    members = F.array(*map(F.lit, new.members))

    def member(at: SparkColumn) -> SparkColumn:  # (none: the empty string, as the server's)
        found = (at > 0) & (at <= len(new.members))
        return F.when(found, F.element_at(members, at)).otherwise(F.lit(""))

    if reading(old) in _NUMERIC:
        n = _within(_rounded(v, old), _exact(-1), _exact(len(new.members) + 1))
        return F.when(v.isNotNull(), _let(n.try_cast("int"), member))
    folded = F.array(*(_folded(F.lit(m), new) for m in new.members))

    def named(text: SparkColumn) -> SparkColumn:
        at = F.array_position(folded, _folded(text, new)).try_cast("int")
        # (a text no member is named, of digits, a plus sign and spaces before them, spaces
        # after them left, of fewer than 6 characters: the member of that number; '000002'
        # none)
        kept = F.rtrim(text)
        number = kept.rlike(r"^\s*\+?\d+$") & (F.length(kept) < MEMBER_NUMBER_PAST[TypeKind.ENUM])
        return F.when((at == 0) & number, F.trim(kept).try_cast("int")).otherwise(at)

    return F.when(v.isNotNull(), _let(_let(_text(v, old), named), member))


def _to_set(v: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    def bits(n: SparkColumn) -> SparkColumn:
        named = [F.when(n.bitwiseAND(1 << i) != 0, F.lit(m)) for i, m in enumerate(new.members)]
        return F.concat_ws(",", *named)

    if reading(old) in _NUMERIC:  # (its low bits: a negative number's two's complement)
        n = _within(_rounded(v, old), -_two_to(63), _two_to(64) - 1)
        low = F.pmod(cast(n, _decimal(38, 0), tried=True), _two_to(len(new.members)))
        return _let(low.try_cast("long"), bits)
    folded = [_folded(F.lit(m), new) for m in new.members]

    def named(text: SparkColumn) -> SparkColumn:
        parts = F.transform(F.split(text, ","), lambda p: _folded(p, new))
        named = [
            F.when(F.array_contains(parts, f), F.lit(m))
            for f, m in zip(folded, new.members, strict=True)
        ]
        # (a text no member is named, of digits, none but spaces and a sign before them, of
        # fewer than 22 characters: the members of its bits, a negative one's two's
        # complement; '2 ' none)
        digits = text.rlike(r"^\s*[-+]?\d+$") & (F.length(text) < MEMBER_NUMBER_PAST[TypeKind.SET])
        number = digits & ~F.exists(parts, lambda p: p.isin(*folded))
        return F.when(number, bits(F.trim(text).try_cast("long"))).otherwise(
            F.concat_ws(",", *named)
        )

    return _let(_text(v, old), named)


#: the rule for each kind of new type (:func:`reading`; others: Spark's cast)
RULES: dict[str, Callable[[SparkColumn, ColumnType, ColumnType], SparkColumn]] = {
    "integer": _to_integer,
    "bit": _to_bit,
    "decimal": _to_decimal,
    "double": _to_double,
    "text": _to_text,
    "bytes": _to_bytes,
    "date": _to_calendar,
    "datetime": _to_calendar,
    "time": _to_time,
    "year": _to_year,
    "enum": _to_enum,
    "set": _to_set,
}


def converted(value: SparkColumn, old: ColumnType, new: ColumnType) -> SparkColumn:
    """``value`` (of ``old``'s Spark type, :func:`~mvdd.spark.types.spark_type`) as the value a
    column changed from type ``old`` to ``new`` holds: ``new``'s Spark type. The same type:
    the value itself."""
    if old == new:
        return value
    if keeps_values(old, new):  # (every value as it was: Spark's cast is the server's)
        return cast(value, spark_type(new))
    rule = RULES.get(reading(new))
    return cast(value if rule is None else rule(value, old, new), spark_type(new))


def keeps_values(old: ColumnType, new: ColumnType) -> bool:
    """Whether a change from type ``old`` to ``new`` leaves every value as it was (the same
    type, a widening): Spark's cast of it is the server's conversion, without a rule's work
    on each row."""
    if old == new:
        return True
    how = reading(new)
    widens = _WIDENS.get(how)
    return how == reading(old) and widens is not None and widens(old, new)


def _digits(t: ColumnType) -> tuple[int, int]:
    assert t.precision is not None and t.scale is not None
    return t.precision - t.scale, t.scale


def _whole_widens(old: ColumnType, new: ColumnType) -> bool:
    (low, high), (new_low, new_high) = old.integer_range(), new.integer_range()
    return new_low <= low and high <= new_high


def _decimal_widens(old: ColumnType, new: ColumnType) -> bool:
    (whole, scale), (new_whole, new_scale) = _digits(old), _digits(new)
    return (
        new_whole >= whole
        and new_scale >= scale
        and ((new.precision or 0) > 38) == ((old.precision or 0) > 38)
    )


def _length_widens(old: ColumnType, new: ColumnType) -> bool:
    # (not to a BINARY's zero bytes, nor a BIT's bytes into a TEXT, nor a text into a charset
    # that holds fewer characters: other values)
    return (
        new.family == old.family
        and new.kind != K.BINARY
        and (new.length is None or (old.length is not None and new.length >= old.length))
        and (reading(new) != "text" or _holds_all(old, new))
    )


def _holds_all(old: ColumnType, new: ColumnType) -> bool:
    """Whether ``new``'s charset holds every character ``old``'s does."""
    was, now = _byte_table(old.charset), _byte_table(new.charset)
    if now is not None:
        return was is not None and set(was) <= set(now)
    return was is not None or _unicode_codec(new)[1] >= _unicode_codec(old)[1]


def _fsp_widens(old: ColumnType, new: ColumnType) -> bool:
    return (new.fsp or 0) >= (old.fsp or 0) and new.kind == old.kind


#: per reading, when a change of type keeps every value as it is (a widening): Spark's cast
#: of it is the server's conversion, without a rule's work on each row
_WIDENS: dict[str, Callable[[ColumnType, ColumnType], bool]] = {
    "integer": _whole_widens,
    "decimal": _decimal_widens,
    "double": lambda old, new: new.kind == K.DOUBLE,
    "text": _length_widens,
    "bytes": _length_widens,
    "datetime": _fsp_widens,
    "time": lambda old, new: (new.fsp or 0) >= (old.fsp or 0),
    "enum": lambda old, new: set(old.members) <= set(new.members),
    "set": lambda old, new: set(old.members) <= set(new.members),
}


__all__ = ["RULES", "converted", "keeps_values", "reading"]
