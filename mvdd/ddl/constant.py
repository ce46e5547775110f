"""Constant expressions: the value MariaDB computes for a DEFAULT ``(…)`` that reads nothing
but literals, when a statement defines the column.

MariaDB evaluates such a DEFAULT once, as the statement defines its column, and refuses it
(error 1067) when the column cannot hold the value: ``TINYINT DEFAULT (100 + 100)``,
``VARCHAR(2) DEFAULT (CONCAT('a', 'bc'))``, ``INT NOT NULL DEFAULT (1 / 0)``; arithmetic that
leaves BIGINT's or DOUBLE's range is refused whatever the column (error 1690). The table keeps
the expression, not the value.

:func:`constant_value` computes what it can of that, by one rule per operation
(:data:`_RULES`): integer, decimal and double arithmetic (``+ - * / DIV % MOD``, negation,
``ABS``), ``CONCAT``, ``CONCAT_WS``, ``UPPER`` and ``LOWER`` of ASCII text, ``REPEAT``,
``IF``, ``COALESCE`` / ``IFNULL``, ``LEAST`` and ``GREATEST`` of values of one kind, ``CAST(…
AS SIGNED / UNSIGNED)``, NULL, numbers, strings, ``0x…`` and bit strings as numbers. Anything
else, or a value whose reading is not certain (a string that is not a plain number in
arithmetic, an ``X'…'`` string, unsigned arithmetic, a decimal's negative zero), is
:data:`UNKNOWN`; :func:`default_value` also passes over what a column reads in ways not
modelled (a date). Its column's check passes such a value,
as before: a check refuses only what the server refuses. ``tests/test_constant.py`` holds
both to MariaDB, statement by statement and with generated expressions, values included.

>>> from mvdd.ddl.expr import normalize_sql
>>> constant_value(normalize_sql("(100 + 100) * 2")), constant_value(normalize_sql("1.50 * 2"))
(400, Decimal('3.00'))
>>> constant_value(normalize_sql("CONCAT(1.5, 'x', -7 % 3)"))
'1.5x-1'
>>> constant_value(normalize_sql("1 / 0")) is None
True
>>> constant_value(normalize_sql("a + 1")) is UNKNOWN
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_UP, Context, Decimal
from typing import Any

from sqlglot import exp

from mvdd.ddl import dialect as d
from mvdd.ddl.expr import parse
from mvdd.errors import DDLError, InvalidValueError, MvddError
from mvdd.model import ColumnType, Expr
from mvdd.model.element import CharsetText, DoubleLiteral, introduced, number_literal
from mvdd.model.kind import Family, TypeKind


class _Unknown(Exception):
    """Raised inside an evaluation whose value mvdd cannot be sure of."""


#: what :func:`constant_value` gives for an expression it cannot compute
UNKNOWN: Any = _Unknown

#: BIGINT's range, where integer arithmetic happens (past it: the server's error 1690)
_MIN, _MAX = -(2**63), 2**63 - 1
#: BIGINT UNSIGNED's last value: an integer literal past it is a decimal
_MAX_UNSIGNED = 2**64 - 1
#: the most digits a DECIMAL value holds
_DIGITS = 65
#: digits a quotient's type shows past its dividend's (the server's div_precision_increment)
_DIV_INCREMENT = 4
#: the digits of one word of the server's decimals: a quotient is computed to whole words
_WORD = 9
_EXACT = Context(prec=200)
_PLAIN_NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


class Computed(Decimal):
    """A decimal whose value holds other digits than its type shows: a quotient (computed to
    whole words of 9 digits and cut there, ``1 / 3`` is 0.333333333 where its type shows
    0.3333), a sum, difference or product with one, a zero a subtraction left without its
    scale. Its value, and so its text in a string column, is certain; the text ``CONCAT``
    gives it (its type's digits, rounded) is not modelled."""


class UnsignedInt(int):
    """An unsigned BIGINT (a CAST to UNSIGNED, a literal past BIGINT's range): the server's
    unsigned arithmetic with it is not modelled (0 - CAST(1 AS UNSIGNED) is its error 1690)."""


class HexNumber(int):
    """A ``0x…`` or bit-string literal: a number in arithmetic, a binary string elsewhere."""


def constant_value(expr: Expr) -> Any:
    """The value of a constant expression, :data:`UNKNOWN` where it is not certain: None
    (NULL), an ``int``, a ``Decimal`` (a :class:`Computed` one from ``/``), a ``float`` (a double)
    or a ``str``. Raises DDLError where the server's arithmetic refuses it (error 1690)."""
    try:
        return _value(parse(expr.sql))
    except _Unknown:
        return UNKNOWN


#: the families that read a value as text
_TEXT_FAMILIES = frozenset({Family.CHAR, Family.BINARY, Family.TEXT, Family.BLOB})
#: the families whose DEFAULT expression mvdd does not compute: a JSON column keeps any text,
#: and mvdd reads dates and times more strictly than MariaDB (a zero day), which a replica
#: must not be where the server took the expression (a YEAR is read as a number)
_UNCHECKED_FAMILIES = frozenset({Family.JSON, Family.TEMPORAL})


def default_value(expr: Expr, ctype: ColumnType) -> Any:
    """The value a column of ``ctype`` is given by a constant DEFAULT expression, as a
    literal's raw value (numbers as Decimal, a double as a
    :class:`~mvdd.model.element.DoubleLiteral`, text as str; None for NULL), for
    :func:`~mvdd.model.element.coerce_default` to check; :data:`UNKNOWN` where mvdd is not
    sure of it (:func:`constant_value`), or where the column reads it in a way not modelled: a
    decimal zero's text (the scale a remainder leaves it), a ``0x…`` number's bytes, a JSON or
    temporal column. An integer is an ENUM's member index, a SET's bits (their text
    returned); raises InvalidValueError where there is no such member.

    >>> from mvdd.ddl.expr import normalize_sql
    >>> default_value(normalize_sql("255 / 2"), ColumnType.of("tinyint"))
    Decimal('127.500000000')
    >>> default_value(normalize_sql("2 / 3 * 3"), ColumnType.of("varchar", length=9))
    '1.999999998'
    >>> default_value(normalize_sql("1.5 * 2"), ColumnType.of("json")) is UNKNOWN
    True
    """
    if ctype.family in _UNCHECKED_FAMILIES and ctype.kind != TypeKind.YEAR:
        return UNKNOWN
    value = constant_value(expr)
    if value is UNKNOWN or value is None:
        return value
    text = ctype.family in _TEXT_FAMILIES
    if isinstance(value, HexNumber) or (text and isinstance(value, Decimal) and not value):
        return UNKNOWN  # (a 0x… number's bytes; a zero's scale after MOD: not modelled)
    if ctype.family == Family.ENUM:
        if isinstance(value, str):
            try:
                return ctype.coerce(value)
            except MvddError:
                if not value.isdigit():
                    raise
                value = int(value)  # (text of digits that names no member: an index)
        if not isinstance(value, int):
            return UNKNOWN  # (a decimal's reading there is not modelled)
        return ctype.coerce(value)  # an ENUM's index, a SET's bits: the member(s)' text
    if isinstance(value, float):
        return DoubleLiteral(repr(value))  # (stored as a double literal is)
    if isinstance(value, Decimal):
        plain = Decimal(value)
        return format(plain, "f") if text else plain  # (its digits, as the server writes them)
    return Decimal(value) if isinstance(value, int) else value


def _value(node: exp.Expr) -> Any:
    rule = _RULES.get(type(node))
    if rule is None:
        raise _Unknown
    return rule(node)


# --- the kinds of values an operation takes ----------------------------------------------------


def _number(value: Any) -> Any:
    """A value as arithmetic reads it: numbers as they are, a string that is a plain number as a
    double (how the server reads one), anything else not certain."""
    if isinstance(value, str):
        if _PLAIN_NUMBER.fullmatch(value) is None:
            raise _Unknown  # (the server reads the number it begins with, warning)
        number = float(value)
        if not math.isfinite(number):
            raise _Unknown  # (past DOUBLE's range: the server saturates it, warning)
        return number
    if isinstance(value, UnsignedInt):
        raise _Unknown
    return value


def _int(value: int, where: exp.Expr) -> int:
    if not _MIN <= value <= _MAX:
        raise DDLError(f"BIGINT value is out of range in {where.sql(dialect=d.DIALECT)!r}")
    return value


def _float(value: float, where: exp.Expr) -> float:
    if not math.isfinite(value):
        raise DDLError(f"DOUBLE value is out of range in {where.sql(dialect=d.DIALECT)!r}")
    return value


def _decimal(value: Decimal) -> Decimal:
    if len(value.as_tuple().digits) > _DIGITS:
        raise _Unknown  # (the server's DECIMAL overflows: it saturates, warning)
    return value


def _operands(node: exp.Expr) -> tuple[Any, Any] | None:
    """Both operands of a binary operation as numbers, or None when either is NULL."""
    left, right = _value(node.this), _value(node.expression)
    if left is None or right is None:
        return None
    return _number(left), _number(right)


def _arithmetic(op: Callable[[Any, Any], Any]) -> Callable[[exp.Expr], Any]:
    """``+``, ``-`` or ``*``: on two integers an integer, with a double a double, else exact
    decimals (the scale the server gives: the larger of the two, their sum for ``*``)."""

    def rule(node: exp.Expr) -> Any:
        pair = _operands(node)
        if pair is None:
            return None
        a, b = pair
        if _doubles(a, b):
            return _float(op(float(a), float(b)), node)
        if isinstance(a, int) and isinstance(b, int):
            return _int(op(a, b), node)
        result = _decimal(op(Decimal(a), Decimal(b)))
        return Computed(result) if isinstance(a, Computed) or isinstance(b, Computed) else result

    return rule


def _zeroed(value: Any) -> Any:
    """A decimal zero as the server's subtraction leaves it, and its product's negative zero:
    without a scale (``0.5 - 0.5`` is ``0``, and ``100 + (0.5 - 0.5)`` is ``100``)."""
    return Computed(0) if isinstance(value, Decimal) and not value else value


def _add(a: Any, b: Any) -> Any:
    if not isinstance(a, Decimal):
        return a + b
    total = _EXACT.add(a, b)
    return _zeroed(total) if a.is_signed() != b.is_signed() else total  # (a subtraction)


def _sub(a: Any, b: Any) -> Any:
    if not isinstance(a, Decimal):
        return a - b
    rest = _EXACT.subtract(a, b)
    return _zeroed(rest) if a.is_signed() == b.is_signed() else rest  # (a subtraction)


def _mul(a: Any, b: Any) -> Any:
    if not isinstance(a, Decimal):
        return a * b
    product = _EXACT.multiply(a, b)
    return _zeroed(product) if product.is_signed() else product


def _by_division(rule: Callable[[Any, Any, exp.Expr], Any]) -> Callable[[exp.Expr], Any]:
    """``/``, ``DIV`` and ``%``: NULL where an operand is NULL or the divisor 0, else ``rule``
    of the two numbers."""

    def division(node: exp.Expr) -> Any:
        pair = _operands(node)
        return None if pair is None or pair[1] == 0 else rule(*pair, node)

    return division


def _doubles(a: Any, b: Any) -> bool:
    return isinstance(a, float) or isinstance(b, float)


@_by_division
def _divide(a: Any, b: Any, node: exp.Expr) -> Any:
    """``/``: a double with a double, else a decimal computed as the server computes it: to
    whole words of 9 digits past the point (as many as the operands' words, and a word more
    where those leave fewer than 4 digits past the dividend's), cut there, not rounded
    (``2 / 3`` is 0.666666666, ``1.5 / 3.5`` 0.428571428571428571); 0 over anything is 0."""
    if _doubles(a, b):
        return _float(float(a) / float(b), node)
    a, b = Decimal(a), Decimal(b)
    if not a:
        return Computed(0)
    words = [-(-_scale(x) // _WORD) * _WORD for x in (a, b)]
    more = max(0, _DIV_INCREMENT - sum(w - _scale(x) for w, x in zip(words, (a, b), strict=True)))
    digits = -(-(sum(words) + more) // _WORD) * _WORD
    exact = _EXACT.divide(a, b).quantize(Decimal(1).scaleb(-digits), ROUND_DOWN, _EXACT)
    return Computed(_decimal(exact))


def _scale(value: Decimal) -> int:
    return max(0, -int(value.as_tuple().exponent))


@_by_division
def _int_divide(a: Any, b: Any, node: exp.Expr) -> Any:
    """``DIV``: the quotient cut toward zero, an integer."""
    if _doubles(a, b):
        raise _Unknown  # (a double's quotient cut to an integer: not modelled)
    whole = _EXACT.divide(Decimal(a), Decimal(b)).to_integral_value(ROUND_DOWN)
    return _int(int(whole), node)


@_by_division
def _modulo(a: Any, b: Any, node: exp.Expr) -> Any:
    """``%`` and ``MOD``: the remainder, with the dividend's sign."""
    if _doubles(a, b):
        return math.fmod(float(a), float(b))
    if isinstance(a, Computed) or isinstance(b, Computed):
        raise _Unknown  # (the scale of a remainder of a quotient: not modelled)
    if isinstance(a, int) and isinstance(b, int):
        whole = abs(a) % abs(b)
        return -whole if a < 0 else whole
    rest = _EXACT.remainder(Decimal(a), Decimal(b))
    if not rest and rest.is_signed():
        raise _Unknown  # (the server keeps that zero's sign: a negative in unsigned columns)
    return rest


def _one(node: exp.Expr) -> Any:
    """The one operand of a negation or ABS, as a number (None for NULL)."""
    value = _value(node.this)
    return None if value is None else _number(value)


def _negate(node: exp.Expr) -> Any:
    value = _one(node)
    if value is None:
        return None
    if isinstance(value, int):
        return _int(-value, node)
    return _kept(value, -value if value else abs(value))  # (no negative zero)


def _abs(node: exp.Expr) -> Any:
    value = _one(node)
    if value is None:
        return None
    return _int(abs(value), node) if isinstance(value, int) else _kept(value, abs(value))


def _kept(value: Any, result: Any) -> Any:
    """``result`` of an operation on ``value`` alone, :class:`Computed` as ``value`` was."""
    return Computed(result) if isinstance(value, Computed) else result


def _text(value: Any) -> str:
    """A value as CONCAT reads it: a string as it is, a number as the server writes it."""
    if isinstance(value, str):
        return value
    if isinstance(value, (Computed, float, HexNumber)):
        raise _Unknown  # (more digits than it shows; a double's format; a binary string)
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def _concat(node: exp.Expr) -> Any:
    values = [_value(arg) for arg in node.expressions]
    if any(v is None for v in values):
        return None
    return "".join(_text(v) for v in values)


def _concat_ws(node: exp.Expr) -> Any:
    """``CONCAT_WS``: NULL with a NULL separator; the NULL values are passed over."""
    sep, *values = (_value(arg) for arg in node.expressions)
    if sep is None:
        return None
    return _text(sep).join(_text(v) for v in values if v is not None)


def _case(change: Callable[[str], str]) -> Callable[[exp.Expr], Any]:
    """``UPPER`` and ``LOWER`` of a string of ASCII letters (others: the collation's own
    mapping, not modelled)."""

    def rule(node: exp.Expr) -> Any:
        value = _value(node.this)
        if value is None:
            return None
        if not isinstance(value, str) or not value.isascii():
            raise _Unknown
        return change(value)

    return rule


def _repeat(node: exp.Expr) -> Any:
    text, times = _value(node.this), _value(node.args["times"])
    if text is None or times is None:
        return None
    if not isinstance(times, int) or isinstance(times, (HexNumber, UnsignedInt)):
        raise _Unknown
    text = _text(text)
    if len(text) * times > 1 << 20:
        raise _Unknown  # (past the server's max_allowed_packet: NULL, warning)
    return text * max(times, 0)


def _alike(
    nodes: list[exp.Expr], evaluated: Callable[[list[Any]], range] | None = None
) -> list[Any]:
    """The values of the nodes, of one kind (integers, strings, or decimals of one scale),
    plain NULLs aside: the server gives the chosen one the type of them all (a NULL of a
    function's too), which mvdd models for one kind only.

    ``evaluated``: given the values (an error where a node's evaluation raises one), the nodes
    the server evaluates (None: every one). An error of one of them is the server's; one of
    another node is not (the server reads no value it does not choose), but the type of them
    all is then not certain."""
    values: list[Any] = []
    for node in nodes:
        try:
            values.append(_value(node))
        except DDLError as err:
            if evaluated is None:
                raise
            values.append(err)
    failed = [i for i, v in enumerate(values) if isinstance(v, DDLError)]
    if failed:
        assert evaluated is not None
        reads = evaluated(values)
        for i in failed:
            if i in reads:
                raise values[i]
        raise _Unknown
    kinds = {
        (type(v), v.as_tuple().exponent if isinstance(v, Decimal) else None)
        for v in values
        if v is not None
    }
    if (
        len(kinds) > 1
        or any(k[0] not in (int, str, Decimal) for k in kinds)
        or any(
            v is None and not isinstance(n, exp.Null) for v, n in zip(values, nodes, strict=True)
        )
    ):
        raise _Unknown
    return values


def _if(node: exp.Expr) -> Any:
    """``IF(c, a, b)``: ``a`` when ``c`` is a number other than 0, else ``b``."""
    cond = _value(node.this)
    if not (cond is None or isinstance(cond, (int, Decimal))):
        raise _Unknown  # (a string's or a double's truth: not modelled)
    chosen = 0 if cond else 1  # (the other branch is not evaluated)
    branches = [node.args["true"], node.args.get("false") or exp.Null()]
    return _alike(branches, lambda _: range(chosen, chosen + 1))[chosen]


def _coalesce(node: exp.Expr) -> Any:
    """``COALESCE`` and ``IFNULL``: the first value that is not NULL."""
    values = _alike([node.this, *node.expressions], _up_to_a_value)
    return next((v for v in values if v is not None), None)


def _up_to_a_value(values: list[Any]) -> range:
    """The arguments ``COALESCE`` evaluates: up to the first that is not NULL (an error is
    not: the server stops there)."""
    return range(next((i + 1 for i, v in enumerate(values) if v is not None), len(values)))


def _extreme(pick: Callable[..., Any]) -> Callable[[exp.Expr], Any]:
    """``LEAST`` and ``GREATEST`` of numbers of one kind: NULL when any is NULL."""

    def rule(node: exp.Expr) -> Any:
        values = _alike([node.this, *node.expressions])
        if any(v is None for v in values):
            return None
        if any(isinstance(v, str) for v in values):
            raise _Unknown  # (compared by the collation)
        return pick(values)

    return rule


def _cast(node: exp.Expr) -> Any:
    """``CAST(… AS SIGNED)`` and ``CAST(… AS UNSIGNED)`` of an integer or a decimal (rounded
    half away from zero); an integer takes the other's reading of its 64 bits (a negative one
    as UNSIGNED wraps past BIGINT's range, ``CAST(18446744073709551615 AS SIGNED)`` is -1).
    A decimal past BIGINT's range is its nearest end as SIGNED (the server saturates it,
    warning: ``CAST(1e30 AS SIGNED) - 9223372036854775700`` is 107)."""
    to = node.args["to"].this
    if to not in (exp.DType.BIGINT, exp.DType.UBIGINT):
        raise _Unknown
    value = _value(node.this)
    if value is None:
        return None
    if isinstance(value, (str, float)):
        raise _Unknown  # (a string's and a double's readings are not modelled)
    if isinstance(value, int):
        whole = value
        if to == exp.DType.BIGINT:
            return _int(whole - 2**64 if whole > _MAX else whole, node)
    else:
        room = Context(prec=max(28, value.adjusted() + 2))  # (every digit of its whole part)
        whole = int(value.quantize(1, ROUND_HALF_UP, room))
        if to == exp.DType.BIGINT:
            return min(max(whole, _MIN), _MAX)
        if whole > _MAX_UNSIGNED:
            raise _Unknown  # (past BIGINT UNSIGNED's range: not modelled)
    if whole < 0 and isinstance(value, Decimal):
        raise _Unknown
    return UnsignedInt(whole % 2**64)  # (unsigned: its arithmetic is not modelled)


def _literal(node: exp.Expr) -> Any:
    if node.is_string:
        return node.this
    try:
        value = number_literal(node.this)
    except InvalidValueError as err:
        raise DDLError(err.message) from None
    if type(value) is DoubleLiteral:
        return float(value)
    if value.as_tuple().exponent != 0:
        return value
    whole = int(value)
    if whole > _MAX_UNSIGNED:
        return value  # (a decimal to the servers: past BIGINT UNSIGNED's range)
    return whole if whole <= _MAX else UnsignedInt(whole)


def _hex(node: exp.Expr) -> Any:
    value = int(node.this or "0", 16)
    if value > _MAX:
        raise _Unknown
    return HexNumber(value)


def _introduced(node: exp.Expr) -> Any:
    if node.name.lower() == "_binary" or not isinstance(node.expression, exp.Literal):
        raise _Unknown  # (a binary string)
    value = introduced(node.name, node.expression.this)
    if type(value) is CharsetText:
        raise _Unknown  # (a string of another charset: its conversions are not modelled)
    return value


def _not_known(node: exp.Expr) -> Any:
    raise _Unknown


#: each operation's rule: the node's value, or _Unknown
_RULES: dict[type[exp.Expr], Callable[[exp.Expr], Any]] = {
    exp.Null: lambda node: None,
    exp.Literal: _literal,
    exp.HexString: _hex,
    d.QuotedHex: _not_known,  # X'…': a string in MariaDB's arithmetic, a number in MySQL's
    exp.Introducer: _introduced,
    exp.Paren: lambda node: _value(node.this),
    exp.Neg: _negate,
    exp.Abs: _abs,
    exp.Add: _arithmetic(_add),
    exp.Sub: _arithmetic(_sub),
    exp.Mul: _arithmetic(_mul),
    exp.Div: _divide,
    exp.IntDiv: _int_divide,
    exp.Mod: _modulo,
    exp.Concat: _concat,
    exp.ConcatWs: _concat_ws,
    exp.Upper: _case(str.upper),
    exp.Lower: _case(str.lower),
    exp.Repeat: _repeat,
    exp.If: _if,
    exp.Coalesce: _coalesce,
    exp.Least: _extreme(min),
    exp.Greatest: _extreme(max),
    exp.Cast: _cast,
}


__all__ = ["UNKNOWN", "Computed", "HexNumber", "UnsignedInt", "constant_value", "default_value"]
