"""SQL expressions (defaults, generated columns, checks): normalise, inspect, rewrite.

An :class:`~mvdd.model.Expr` holds normalised MySQL text so that two spellings of one
expression compare equal: the text is parsed with the mvdd dialect, synonyms are unified
(``NOW()``, ``LOCALTIME`` and ``LOCALTIMESTAMP`` are ``CURRENT_TIMESTAMP``), outer parentheses are
dropped, comments are dropped (the server keeps none inside an expression), and it is rendered
with every identifier quoted.

>>> normalize_sql("(now(3))").sql
'CURRENT_TIMESTAMP(3)'
>>> sorted(referenced_columns(normalize_sql("a + `B` > 0")))
['a', 'b']
>>> rename_column(normalize_sql("a + b > 0"), "a", "x").sql
'`x` + `b` > 0'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sqlglot import exp
from sqlglot.errors import SqlglotError

from mvdd.ddl.dialect import DIALECT, NotValue, QuotedHex, TemporalLiteral, deep_stack
from mvdd.ddl.reserved import is_reserved
from mvdd.errors import DDLError, DDLParseError
from mvdd.model import Expr
from mvdd.model.charsets import UNICODE_CHARSETS, collation_charset
from mvdd.model.element import bit_bytes
from mvdd.model.kind import TypeKind
from mvdd.model.names import fold_name
from mvdd.model.types import canonical_charset, charsetless

_NOW_SYNONYMS = frozenset({"NOW", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP"})


def _interval(node: exp.Expr) -> exp.Interval:
    return exp.Interval(this=node.args["expression"], unit=node.args.get("unit"))


def _cast_type(node: exp.Expr) -> exp.Expr:
    """A CAST's type as the server prints it: ``BINARY[(n)]`` is ``CHAR[(n)] CHARACTER SET
    binary``; a DECIMAL's precision and scale said (10 and 0 when not; a precision of 0 is
    10, a DOUBLE's too); a TIME's or a DATETIME's precision of 0 unsaid."""
    to = node.args["to"]
    kind, given = to.this, [str(p.name) for p in to.expressions]
    sizes = list(given)
    if kind == exp.DType.BINARY:
        charset = exp.DataType(
            this=exp.DType.CHARACTER_SET, expressions=to.expressions, kind=exp.var("binary")
        )
        return exp.Cast(this=node.this, to=charset)
    if kind == exp.DType.DECIMAL:
        sizes = [*sizes, *_DECIMAL_SIZES[len(sizes) :]]
    if kind in (exp.DType.DECIMAL, exp.DType.DOUBLE) and sizes and sizes[0] == "0":
        sizes[0] = _DECIMAL_SIZES[0]
    if kind in (exp.DType.TIME, exp.DType.DATETIME) and sizes == ["0"]:
        sizes = []
    if sizes == given:
        return node
    params = [exp.DataTypeParam(this=exp.Literal.number(size)) for size in sizes]
    return exp.Cast(this=node.this, to=exp.DataType(this=kind, expressions=params))


#: a CAST's DECIMAL's precision and scale when it names neither
_DECIMAL_SIZES = ("10", "0")


def _unix_time_format(node: exp.Expr) -> exp.Expr:
    """``FROM_UNIXTIME(n, format)`` as the server writes it: ``DATE_FORMAT(FROM_UNIXTIME(n),
    format)``."""
    fmt = node.args.get("format")
    if fmt is None:
        return node
    time = exp.TsOrDsToTimestamp(this=exp.UnixToTime(this=node.this))
    return exp.TimeToStr(this=time, format=fmt)


def _introduced(node: exp.Expr) -> exp.Expr:
    """A charset introducer as the server keeps it: its charset named canonically (``_UTF8MB4``
    is ``_utf8mb4``, ``_utf8`` ``_utf8mb3``; an unknown one a DDLError), a hex or bit literal
    after it the ``X'…'`` of its bytes (the server prints ``_latin1 0x41`` as ``_latin1 'A'``,
    whose bytes :func:`~mvdd.ddl.statement.literal_bytes` keeps so)."""
    charset = "_" + canonical_charset(str(node.this)[1:])
    literal = node.expression
    if isinstance(literal, QuotedHex):
        literal = QuotedHex(this=str(literal.this).upper())
    elif isinstance(literal, exp.HexString):
        digits = str(literal.this)
        literal = QuotedHex(this=(digits if len(digits) % 2 == 0 else "0" + digits).upper())
    elif isinstance(literal, exp.BitString):
        literal = QuotedHex(this=bit_bytes(str(literal.this)).hex().upper())
    return exp.Introducer(this=charset, expression=literal)


def _collation(node: exp.Expr) -> exp.Expr:
    """``_cs'…' COLLATE co``: a DDLError where ``co`` is not a collation of ``cs``, as the
    server's (a column's charset is the table's to judge; the parser names ``co``
    canonically)."""
    if isinstance(node.this, exp.Introducer):
        refused = _collation_refused(
            node.expression.name, canonical_charset(str(node.this.this)[1:])
        )
        if refused is not None:
            raise DDLError(refused)
    return node


def _collation_refused(collation: str, charset: str | None) -> str | None:
    """The server's error 1253 where ``collation`` is not one of ``charset`` (None: not
    known, nothing to judge). A collation named without its charset (``uca1400_ai_ci``) is one
    of every Unicode charset."""
    if charset is None or collation_charset(collation) == charset:
        return None
    if charsetless(collation) and charset in UNICODE_CHARSETS:
        return None
    return f"COLLATION '{collation}' is not valid for CHARACTER SET '{charset}'"


def _round_zero(node: exp.Expr) -> exp.Expr:
    return node if node.args.get("decimals") else exp.Round(this=node.this, decimals=_zero())


def _yearweek_zero(node: exp.Expr) -> exp.Expr:
    return exp.Anonymous(this="YEARWEEK", expressions=[node.expressions[0], _zero()])


def _user() -> exp.Expr:
    return exp.Anonymous(this="USER", expressions=[])


def _now(node: exp.Expr) -> exp.Expr:
    return exp.CurrentTimestamp(this=node.expressions[0] if node.expressions else None)


def _octet_length(node: exp.Expr) -> exp.Expr:
    return exp.Length(this=node.expressions[0], binary=True)


def _zero() -> exp.Expr:
    return exp.Literal.number(0)


def _to_days(node: exp.Expr) -> exp.Expr:
    return exp.Anonymous(this="TO_DAYS", expressions=[node])


def _negated_escape(node: exp.Expr) -> exp.Expr:
    like = node.this
    if not (isinstance(like, exp.Like) and like.args.get("negate")):
        return node
    plain = exp.Like(this=like.this, expression=like.expression)
    return exp.Not(this=exp.Escape(this=plain, expression=node.expression))


def _day_interval(node: exp.Expr) -> exp.Expr:
    """ADDDATE / SUBDATE (x, n): n days, as x +/- INTERVAL n DAY."""
    this, amount = node.expressions
    if not isinstance(amount, exp.Interval):
        amount = exp.Interval(this=amount, unit=exp.var("DAY"))
    return (exp.Add if str(node.this).upper() == "ADDDATE" else exp.Sub)(
        this=this, expression=amount
    )


def _with_args(rule: Any, *counts: int) -> Any:
    """``rule`` for a call of that many arguments (any other call is left as it is, for the
    server to refuse)."""
    return lambda n: rule(n) if len(n.expressions) in counts else n


def _substring(node: exp.Expr) -> exp.Expr:
    """MID (x, start[, length]): SUBSTRING, as the server writes it."""
    names = ("this", "start", "length")[: len(node.expressions)]
    return exp.Substring(**dict(zip(names, node.expressions, strict=True)))


def _conv(node: exp.Expr, base: int) -> exp.Expr:
    """BIN / OCT (x): CONV(x, 10, base), as the server writes them."""
    numbers = [exp.Literal.number(10), exp.Literal.number(base)]
    return exp.Anonymous(this="CONV", expressions=[node.expressions[0], *numbers])


def _spatial_family(suffix: str) -> list[str]:
    """The names MariaDB reads as one constructor of a geometry from WKT (``suffix``
    ``FROMTEXT``) or WKB (``FROMWKB``): each kind's short and long name, with and without ST_."""
    kinds = [
        "GEOM",
        "GEOMETRY",
        "GEOMCOLL",
        "GEOMETRYCOLLECTION",
        "POINT",
        "LINE",
        "LINESTRING",
        "POLY",
        "POLYGON",
        "MPOINT",
        "MULTIPOINT",
        "MLINE",
        "MULTILINESTRING",
        "MPOLY",
        "MULTIPOLYGON",
    ]
    return [f"{st}{kind}{suffix}" for kind in kinds for st in ("", "ST_")]


#: spatial functions by their one name (MariaDB prints each synonym as one function, and
#: both servers know that name): every WKT and WKB constructor the geometry one (MariaDB
#: reads them so; MySQL checks the kind the text holds, which a constant DEFAULT has), the
#: names without ST_ the ST_ ones where they are the same function (the others, MariaDB's
#: MBR tests ``Disjoint``, ``Intersects``, ``Overlaps``, by their MBR names)
_SPATIAL_NAMES: dict[str, str] = {
    **dict.fromkeys(_spatial_family("FROMTEXT"), "ST_GEOMETRYFROMTEXT"),
    **dict.fromkeys(_spatial_family("FROMWKB"), "ST_GEOMETRYFROMWKB"),
    **dict.fromkeys(("ASTEXT", "ASWKT", "ST_ASWKT"), "ST_ASTEXT"),
    **dict.fromkeys(("ASBINARY", "ASWKB", "ST_ASBINARY"), "ST_ASWKB"),
    **{
        name: f"ST_{name}"
        for name in [
            "DIMENSION",
            "ENVELOPE",
            "GEOMETRYTYPE",
            "ISEMPTY",
            "ISSIMPLE",
            "BOUNDARY",
            "X",
            "Y",
            "ENDPOINT",
            "NUMPOINTS",
            "POINTN",
            "STARTPOINT",
            "ISCLOSED",
            "ISRING",
            "AREA",
            "CENTROID",
            "EXTERIORRING",
            "INTERIORRINGN",
            "NUMINTERIORRINGS",
            "GEOMETRYN",
            "NUMGEOMETRIES",
            "BUFFER",
            "CONVEXHULL",
            "POINTONSURFACE",
            "CROSSES",
            "EQUALS",
            "TOUCHES",
            "WITHIN",
            "SRID",
        ]
    },
    "GLENGTH": "ST_LENGTH",
    "DISJOINT": "MBRDISJOINT",
    "INTERSECTS": "MBRINTERSECTS",
    "OVERLAPS": "MBROVERLAPS",
    "MBREQUAL": "MBREQUALS",
}


def _renamed(name: str) -> Any:
    return lambda n: exp.Anonymous(this=name, expressions=n.expressions)


#: function name -> its one form, for calls sqlglot keeps by name (the server's spelling)
_ANONYMOUS: dict[str, Any] = {
    **{name: _renamed(one) for name, one in _SPATIAL_NAMES.items() if name != one},
    # (MySQL 8 and MariaDB both: JSON_MERGE is JSON_MERGE_PRESERVE, as MariaDB prints it;
    # MariaDB's JSON_PRETTY is its JSON_DETAILED)
    "JSON_MERGE": _renamed("JSON_MERGE_PRESERVE"),
    "JSON_PRETTY": _renamed("JSON_DETAILED"),
    **dict.fromkeys(_NOW_SYNONYMS, _now),
    "OCTET_LENGTH": _with_args(_octet_length, 1),
    "YEARWEEK": _with_args(_yearweek_zero, 1),
    "ADDDATE": _with_args(_day_interval, 2),
    "SUBDATE": _with_args(_day_interval, 2),
    "MID": _with_args(_substring, 2, 3),
    "BIN": _with_args(lambda n: _conv(n, 2), 1),
    "OCT": _with_args(lambda n: _conv(n, 8), 1),
    # SYSTEM_USER() is USER(), as the server prints it (SESSION_USER() too: _UNIFY)
    "SYSTEM_USER": _with_args(lambda n: _user(), 0),
    # ROW(a, b) is the row (a, b), as the server prints it
    "ROW": lambda n: exp.Tuple(expressions=n.expressions) if len(n.expressions) > 1 else n,
}


def _by_name(node: exp.Expr) -> exp.Expr:
    rule = _ANONYMOUS.get(str(node.this).upper())
    return node if rule is None else rule(node)


#: a user variable's name that needs no quotes
_PLAIN_VARIABLE = re.compile(r"[A-Za-z0-9_$.]+")


def _plain_variable(node: exp.Expr) -> exp.Expr:
    if isinstance(node.this, exp.Identifier) and _PLAIN_VARIABLE.fullmatch(node.this.name):
        return exp.Parameter(this=exp.var(node.this.name))
    return node


#: a number literal without an exponent: its whole part and its fraction
_PLAIN_NUMBER = re.compile(r"(\d*)(?:\.(\d*))?")


def _number(node: exp.Expr) -> exp.Expr:
    """A number literal as the server prints it: no leading zeros (``007.50`` is ``7.50``, ``.5``
    is ``0.5``), no bare point (``1.`` is ``1``); one with an exponent as written."""
    plain = None if node.is_string else _PLAIN_NUMBER.fullmatch(node.this)
    if plain is None:
        return node
    whole, fraction = plain.group(1).lstrip("0") or "0", plain.group(2)
    text = f"{whole}.{fraction}" if fraction else whole
    return node if text == node.this else exp.Literal.number(text)


def _folded_minus(node: exp.Expr) -> exp.Expr:
    """The minus of a number literal folded as the server's grammar folds it into the literal:
    ``-(-5)`` is ``5``, ``-0`` and ``-0.0`` are ``0`` and ``0.0``."""
    operand = _strip_parens(node.this)
    if isinstance(operand, exp.Neg):
        inner = _strip_parens(operand.this)
        if isinstance(inner, exp.Literal) and not inner.is_string:
            return inner
    elif (
        isinstance(operand, exp.Literal)
        and not operand.is_string  # (-'0' and -'' are a minus of a string: doubles, -0)
        and _PLAIN_NUMBER.fullmatch(operand.this)
        and not operand.this.strip("0.")
    ):
        return operand
    return node


def _truth_literal(node: exp.Expr) -> exp.Expr:
    """TRUE and FALSE as the numbers they are, but as the word of an ``IS`` (``x IS TRUE``).
    (Only once the negations are pushed in: the server folds a NOT into the literal, ``NOT
    TRUE`` is ``0``, where ``NOT 1`` is ``1 = 0``; :func:`_negate`.)"""
    if isinstance(node.parent, exp.Is) and node.arg_key == "expression":
        return node
    return exp.Literal.number(int(node.this))


def _not_like(node: exp.Expr) -> exp.Expr:
    """``x NOT LIKE y`` (sqlglot's LIKE with its negate flag) as ``NOT x LIKE y``, the one form
    of its two spellings (an ``ESCAPE`` over it has a rule of its own)."""
    if not node.args.get("negate") or isinstance(node.parent, exp.Escape):
        return node
    return exp.Not(this=exp.Like(this=node.this, expression=node.expression))


def _one_member_in(node: exp.Expr) -> exp.Expr:
    """``x IN (v)`` is ``x = v``, as the server's grammar reads it (and ``x NOT IN (v)``,
    once its negation is pushed in, ``x <> v``)."""
    members = node.expressions
    if len(members) != 1 or any(node.args.get(k) for k in ("query", "unnest", "field")):
        return node
    return exp.EQ(this=node.this, expression=members[0])


def _column_truth(node: exp.Expr) -> exp.Expr:
    """AND / OR over a bare column: the column's truth as the server writes it, `x` <> 0 (the
    same value: a column's truth is whether it is not 0, NULL staying NULL)."""
    for key in ("this", "expression"):
        operand = node.args.get(key)
        if isinstance(operand, exp.Column):
            node.set(key, exp.NEQ(this=operand, expression=_zero()))
    return node


#: node class -> its one form (see :func:`_unify`)
_UNIFY: dict[type[exp.Expr], Any] = {
    exp.TsOrDsToDate: lambda n: exp.Cast(this=n.this, to=exp.DataType.build("DATE")),
    exp.DateAdd: lambda n: exp.Add(this=n.this, expression=_interval(n)),
    exp.DateSub: lambda n: exp.Sub(this=n.this, expression=_interval(n)),
    exp.Cast: _cast_type,
    exp.Localtime: lambda n: exp.CurrentTimestamp(this=n.this),
    exp.Localtimestamp: lambda n: exp.CurrentTimestamp(this=n.this),
    exp.SessionUser: lambda n: _user(),
    exp.Anonymous: _by_name,
    exp.Parameter: _plain_variable,
    exp.Round: _round_zero,
    exp.UnixToTime: _unix_time_format,
    exp.Introducer: _introduced,
    exp.Collate: _collation,
    exp.Escape: _negated_escape,
    exp.And: _column_truth,
    exp.Or: _column_truth,
    exp.In: _one_member_in,
    exp.Like: _not_like,
    exp.Literal: _number,
    exp.Neg: _folded_minus,
    exp.TimestampAdd: lambda n: exp.Add(this=n.this, expression=_interval(n)),
    exp.Day: lambda n: exp.DayOfMonth(this=n.this),
    # CONTAINS(g1, g2), MariaDB's ST_CONTAINS (sqlglot reads a string's test)
    exp.Contains: lambda n: exp.Anonymous(this="ST_CONTAINS", expressions=[n.this, n.expression]),
    exp.WeekOfYear: lambda n: exp.Week(this=n.this, mode=exp.Literal.number(3)),
    exp.Time: lambda n: exp.Cast(this=n.this, to=exp.DataType.build("TIME")),
    exp.Timestamp: lambda n: (
        n if n.args.get("zone") else exp.Cast(this=n.this, to=exp.DataType.build("DATETIME"))
    ),
    exp.Atan2: lambda n: exp.Atan(this=n.this, expression=n.expression),
    # (its bytes, the leading zero ones kept: b'000000001' is 0x0001; b'', no byte, stays b'':
    # a number as 0x… are, where X'' is a string: ABS(COALESCE(0x1F, b'')) is 31, with X'' 0)
    exp.BitString: lambda n: (
        _hex_number(bit_bytes(str(n.this)).hex()) if n.this else exp.BitString(this="")
    ),
    exp.HexString: lambda n: _hex_number(n.this),
    QuotedHex: lambda n: QuotedHex(this=n.this.lower()),
    exp.National: lambda n: exp.Literal.string(n.this),
    # (but after IS, where TRUE and FALSE are words of the operator)
    exp.Boolean: _truth_literal,
    exp.DateDiff: lambda n: exp.Sub(
        this=_to_days(n.this), expression=_to_days(n.args["expression"])
    ),
}


def _hex_number(digits: str) -> exp.Expr:
    """A ``0x…`` literal as the server writes it: lower-case digits, an even number of them."""
    digits = digits.lower()
    return exp.HexString(this=digits if len(digits) % 2 == 0 else f"0{digits}")


def _truth_word(node: exp.Expr) -> exp.Boolean | None:
    """The TRUE or FALSE a node is, minuses and parentheses aside (-TRUE is true), or None."""
    node = _strip_parens(node)
    while isinstance(node, exp.Neg):
        node = _strip_parens(node.this)
    return node if isinstance(node, exp.Boolean) else None


def _unify_before(node: exp.Expr) -> exp.Expr:
    """:func:`_unify` before the negations are pushed in: TRUE and FALSE stay words, and a NOT
    of one folds into the other, innermost first, as the server's grammar folds it (``NOT
    -(NOT TRUE)`` is TRUE)."""
    kind = type(node)
    if kind is exp.Boolean:
        return node
    if kind is exp.Not:
        word = _truth_word(node.this)
        return node if word is None else exp.Boolean(this=not word.this)
    return _unify(node)


def _unify(node: exp.Expr) -> exp.Expr:
    """One form for what the servers write two ways, the form the server's SHOW CREATE TABLE
    writes: NOW()'s synonyms as CURRENT_TIMESTAMP, LENGTH for OCTET_LENGTH, a user variable
    unquoted, CAST(x AS DATE) for DATE(x), x + INTERVAL for DATE_ADD (and - for DATE_SUB),
    CAST(x AS CHAR CHARACTER SET binary) for CAST(x AS BINARY), ROUND's and YEARWEEK's
    implied 0, TO_DAYS(x) - TO_DAYS(y) for DATEDIFF(x, y), x NOT LIKE y ESCAPE z as the
    negation of x LIKE y ESCAPE z reads, and the other synonyms of :data:`_UNIFY` and
    :data:`_ANONYMOUS` (DAY, WEEKOFYEAR, TIME, TIMESTAMP, TIMESTAMPADD, ADDDATE, SUBDATE, MID,
    BIN, OCT, ATAN2; bit strings as ``0x…`` numbers (``b''`` as ``X''``), hex digits in lower
    case, N'' strings and TRUE / FALSE as plain literals), a bare column under AND / OR as
    `x` <> 0."""
    rule = _UNIFY.get(type(node))
    return node if rule is None else rule(node)


def _children(node: exp.Expr) -> list[exp.Expr]:
    """A node's child nodes in the order of its arguments (``iter_expressions``' order, as a
    list made in one loop: the passes of :func:`normalize` ask it of every node, some twice)."""
    out: list[exp.Expr] = []
    for value in node.args.values():
        if type(value) is list:
            out += [v for v in value if isinstance(v, exp.Expr)]
        elif isinstance(value, exp.Expr):
            out.append(value)
    return out


def _nodes(tree: exp.Expr) -> list[exp.Expr]:
    """Every node of ``tree``, breadth first (``walk()``'s order, as a list)."""
    out = [tree]
    i = 0
    while i < len(out):
        out += _children(out[i])
        i += 1
    return out


def _bottom_up(tree: exp.Expr, rule: Any) -> exp.Expr:
    """``tree`` with ``rule`` applied to every node, children before their parent (so a node
    a rule builds holds operands already in their one form)."""
    for node in reversed(_nodes(tree)):
        new = rule(node)
        if new is not node:
            if node is tree:
                tree = new
            else:
                node.replace(new)
    return tree


def _strip_parens(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


# MySQL operator precedence, lowest first (the reference manual's operator precedence table);
# nodes not listed are atoms or delimit their own operands (functions, CASE, CAST ...)
_PRECEDENCE: dict[type[exp.Expr], int] = {
    exp.Or: 1,
    exp.Xor: 2,
    exp.And: 3,
    exp.Not: 4,
    exp.Between: 5,
    **dict.fromkeys(
        (
            exp.EQ,
            NotValue,
            exp.NullSafeEQ,
            exp.NEQ,
            exp.GT,
            exp.GTE,
            exp.LT,
            exp.LTE,
            exp.Is,
            exp.Like,
            exp.Escape,
            exp.RegexpLike,
            exp.In,
            exp.JSONArrayContains,
        ),
        6,
    ),
    exp.BitwiseOr: 7,
    exp.BitwiseAnd: 8,
    exp.BitwiseLeftShift: 9,
    exp.BitwiseRightShift: 9,
    exp.Add: 10,
    exp.Sub: 10,
    exp.Mul: 11,
    exp.Div: 11,
    exp.IntDiv: 11,
    exp.Mod: 11,
    exp.BitwiseXor: 12,
    exp.Neg: 13,
    exp.BitwiseNot: 13,
    exp.Collate: 14,  # (x COLLATE co binds its operand alone: the parser's _parse_unary)
}
_ATOM = 100
_FLATTEN = (exp.And, exp.Or, exp.Xor)
_NEGATED: dict[type[exp.Expr], type[exp.Expr]] = {
    exp.EQ: exp.NEQ,
    exp.NEQ: exp.EQ,
    exp.LT: exp.GTE,
    exp.GTE: exp.LT,
    exp.GT: exp.LTE,
    exp.LTE: exp.GT,
}
#: nodes whose value is already a truth value (0, 1 or NULL)
_BOOLEAN = (exp.Predicate, exp.Connector, exp.Not, exp.Boolean, exp.Escape)


def _precedence(node: exp.Expr) -> int:
    return _PRECEDENCE.get(type(node), _ATOM)


def _negate(node: exp.Expr) -> exp.Expr:
    """NOT node, pushed inwards as MariaDB does: comparisons flip, De Morgan over AND/OR (a
    bare column that comes out an operand of one is its truth, ``x <> 0``), double negation
    cancels (a NOT of a value gives the value back), TRUE and FALSE swap, and NOT of a plain
    value is ``value = 0`` (:class:`~mvdd.ddl.dialect.NotValue`)."""
    node = _strip_parens(node)
    word = _truth_word(node)
    if word is not None:
        return exp.Boolean(this=not word.this)
    flipped = _NEGATED.get(type(node))
    if flipped is not None:
        return flipped(this=node.this, expression=node.expression)
    if isinstance(node, exp.Not | NotValue):
        return _strip_parens(node.this)  # (a NOT of a NOT: its argument, as it is)
    if isinstance(node, exp.And):
        return _column_truth(exp.Or(this=_negate(node.this), expression=_negate(node.expression)))
    if isinstance(node, exp.Or):
        return _column_truth(exp.And(this=_negate(node.this), expression=_negate(node.expression)))
    if isinstance(node, exp.Xor):
        # the server negates the first operand that takes a negation in (a comparison, a
        # truth word, …), else puts a NOT before the first
        left, right = node.this, node.expression
        if not _negatable(left) and _negatable(right):
            return exp.Xor(this=left, expression=_negate(right))
        return exp.Xor(this=_negate(left), expression=right)
    if isinstance(node, (*_BOOLEAN, exp.Func)):
        return exp.Not(this=node)
    return NotValue(this=node, expression=exp.Literal.number(0))


#: what a negation goes into, rather than standing before it (the server's neg_transformer)
_NEGATABLE = (
    *_NEGATED,
    *(exp.Not, exp.And, exp.Or, exp.Xor, exp.Is, exp.Between, exp.In, exp.Like, exp.Escape),
)


def _negatable(node: exp.Expr) -> bool:
    node = _strip_parens(node)
    return isinstance(node, _NEGATABLE) or _truth_word(node) is not None


def _canonical(node: exp.Expr) -> exp.Expr:
    """Bottom-up: parentheses dropped, negations pushed in, AND/OR/XOR chains left-deep."""
    node = _strip_parens(node)
    x: exp.Expr
    if isinstance(node, exp.Not):
        # NOT NOT x: the server's grammar cancels two NOTs, innermost first, before it pushes
        # any in, leaving x itself when x is a truth value, else x <> 0 (an odd chain keeps
        # the outermost NOT over what its inner ones leave)
        chain, x = 0, node
        while isinstance(x, exp.Not):
            chain, x = chain + 1, _strip_parens(x.this)
        if chain >= 2:
            x.parent = x.arg_key = None  # (it takes the chain's place)
            left = x if isinstance(x, _BOOLEAN) else exp.NEQ(this=x, expression=_zero())
            return _canonical(left if chain % 2 == 0 else exp.Not(this=left))
    for child in _children(node):
        new = _canonical(child)
        if new is not child:
            child.replace(new)
    if isinstance(node, exp.Not):
        return _negate(node.this)
    if isinstance(node, _FLATTEN):
        if type(node.expression) is not type(node):
            return node  # (left-deep already: its left operand was made so above)
        operands = list(node.flatten())
        out = operands[0]
        for operand in operands[1:]:
            out = type(node)(this=out, expression=operand)
        return out
    return node


#: the least precedence an operand may have without parentheses, where the grammar asks more
#: than "binds tighter than the operator": BETWEEN, IN, LIKE and REGEXP take bit expressions
_BIT = 7
_OPERAND_MIN: dict[type[exp.Expr], dict[str, int]] = {
    exp.Between: {"this": _BIT, "low": _BIT, "high": _BIT},
    exp.In: {"this": _BIT},
    exp.Like: {"this": _BIT, "expression": _BIT},
    # x LIKE y ESCAPE z: the LIKE is the ESCAPE's own operand, never put in parentheses
    exp.Escape: {"expression": _ATOM},
    exp.RegexpLike: {"this": _BIT, "expression": _BIT},
    exp.JSONArrayContains: {"this": _BIT},
}


def _parenthesize(node: exp.Expr) -> int:
    """Put back exactly the parentheses precedence needs. Operand trees are left-deep by
    construction, so a left operand binds at least as tightly as its operator and a right
    operand strictly tighter; unary operators take strictly tighter operands (``-(-a)``, never
    ``--a``, which would start a comment). Returns the depth of the node's tree once done (a
    leaf is 1)."""
    children = _children(node)
    depths = {id(child): _parenthesize(child) for child in children}
    own = _precedence(node)
    wrap: list[exp.Expr] = []
    special = _OPERAND_MIN.get(type(node))
    if special is not None:
        for key, least in special.items():
            operand = node.args.get(key)
            if isinstance(operand, exp.Expr) and _precedence(operand) < least:
                wrap.append(operand)
    elif own == _ATOM:
        if not isinstance(node, exp.Func | exp.Case | exp.Tuple | exp.Array | exp.Paren):
            # an operand printed without delimiters (INTERVAL x, x COLLATE y ...)
            wrap = [c for c in children if _precedence(c) < _ATOM]
    elif isinstance(node, exp.Binary):
        left, right = node.this, node.expression
        wrap = [c for c in (left,) if _precedence(c) < own]
        if right is not None and _precedence(right) <= own:
            wrap.append(right)
    else:
        wrap = [c for c in (node.this,) if isinstance(c, exp.Expr) and _precedence(c) <= own]
    for child in wrap:  # (the very operand moves into its parentheses: no copy of it)
        paren = exp.Paren()
        child.replace(paren)
        paren.set("this", child)
        depths[id(child)] += 1
    return 1 + max(depths.values(), default=0)


#: how deep an expression's tree may be once normalised (parentheses that change nothing are
#: gone by then): every later pass over it (rendering, joins, Spark) stays well within Python's
#: default recursion limit
MAX_DEPTH = 100


def _foreign(node: exp.Expr) -> str | None:
    """Why a parsed node cannot stand in a MySQL value expression (sqlglot reads other
    dialects' forms where MySQL has a syntax error), or None."""
    if isinstance(node, exp.Alias):
        return f"an alias ({node.alias!r})"
    if isinstance(node, exp.Tuple) and not node.expressions:
        return "empty parentheses"
    if isinstance(node, exp.Dot) and isinstance(node.this, exp.Literal):
        return "a dot after a number"
    if isinstance(node, exp.Column) and not node.table:
        bare = node.this
        if (
            isinstance(bare, exp.Identifier)
            and not bare.quoted
            and is_reserved(bare.name)
            and bare.name.upper() not in _NILADIC
        ):
            return f"the reserved word {bare.name!r} as a column"
    return None


#: reserved words that name a value without parentheses (sqlglot may leave them as columns)
_NILADIC = frozenset(
    {
        "CURRENT_DATE",
        "CURRENT_TIME",
        "CURRENT_TIMESTAMP",
        "CURRENT_USER",
        "LOCALTIME",
        "LOCALTIMESTAMP",
        "UTC_DATE",
        "UTC_TIME",
        "UTC_TIMESTAMP",
        "NULL",
        "TRUE",
        "FALSE",
    }
)


def _bare_copy(tree: exp.Expr) -> exp.Expr:
    """A copy of ``tree`` without its comments and the parser's metadata (a node's place in
    the text): the server keeps no comment inside an expression (``CHECK (a /* x */ > 0)`` is
    ``CHECK (`a` > 0)`` in its SHOW CREATE TABLE), and sqlglot's own copy deep-copies each
    node's metadata, most of a normalisation's cost. Raises DDLParseError where a node holds
    what no MySQL expression holds (:func:`_foreign`)."""
    root = type(tree)()
    stack = [(tree, root)]
    while stack:
        node, copy = stack.pop()
        why = _foreign(node)
        if why is not None:
            raise DDLParseError(f"cannot parse: {why} in an expression")
        args = copy.args
        for key, value in node.args.items():
            if isinstance(value, exp.Expr):
                child = args[key] = type(value)()
                child.parent, child.arg_key = copy, key
                stack.append((value, child))
            elif type(value) is list:
                items = args[key] = []
                for i, item in enumerate(value):
                    if isinstance(item, exp.Expr):
                        child = type(item)()
                        child.parent, child.arg_key, child.index = copy, key, i
                        stack.append((item, child))
                        item = child
                    items.append(item)
            else:
                args[key] = value
    return root


def normalize(node: exp.Expr) -> Expr:
    """The normalised :class:`Expr` of a parsed expression (the node is not modified).

    Raises DDLParseError for an expression nested deeper than :data:`MAX_DEPTH` levels, or
    holding what no MySQL expression holds (an alias, empty parentheses)."""
    with deep_stack():
        # one form before the negations are pushed (so they meet literals as numbers) and
        # after (for the forms they make)
        tree = _bottom_up(_canonical(_bottom_up(_bare_copy(node), _unify_before)), _unify)
        levels = _parenthesize(tree)
        if levels > MAX_DEPTH:
            raise DDLParseError(
                f"cannot parse: an expression nested {levels} levels deep (mvdd reads up to "
                f"{MAX_DEPTH})"
            )
        # (the tree is this function's own copy: the generator need not copy it again)
        return Expr(tree.sql(dialect=DIALECT, identify=True, copy=False))


@lru_cache(maxsize=4096)
def parse(sql: str) -> exp.Expr:
    """Parse expression text (cached: callers must not modify the tree)."""
    try:
        tokens = DIALECT.tokenize(sql)
        # a function named as a statement (REPLACE(...)) would swallow the text whole: in
        # parentheses it is read as a function, and the parentheses are taken off after
        wrapped = bool(tokens) and tokens[0].token_type in DIALECT.tokenizer_class.COMMANDS
        if wrapped:
            tokens = DIALECT.tokenize(f"(\n{sql}\n)")
        with deep_stack():
            node = DIALECT.parser().parse_into(exp.Condition, tokens, sql)[0] if tokens else None
        if wrapped and isinstance(node, exp.Paren):
            node = node.this
    except SqlglotError as err:
        raise DDLError(f"malformed expression {sql!r}: {str(err).splitlines()[0]}") from None
    if node is None:
        raise DDLError(f"empty expression {sql!r}")
    return node


def normalize_sql(sql: str) -> Expr:
    """Normalise expression text."""
    return normalize(parse(sql))


def now(fsp: int) -> Expr:
    """``CURRENT_TIMESTAMP(fsp)``, normalised (``CURRENT_TIMESTAMP()`` for 0, as the server
    prints it).

    >>> now(3).sql, now(0).sql
    ('CURRENT_TIMESTAMP(3)', 'CURRENT_TIMESTAMP()')
    """
    return normalize(exp.CurrentTimestamp(this=exp.Literal.number(fsp) if fsp else None))


def temporal_literal(expr: Expr) -> tuple[TypeKind, str] | None:
    """The (kind, canonical text) of an expression that is one typed temporal literal alone
    (``DATE '2020-01-01'``: DATE; a TIMESTAMP literal's kind is DATETIME); None otherwise.

    >>> temporal_literal(normalize_sql("(TIMESTAMP '2020-1-1 1:2:3')"))
    (<TypeKind.DATETIME: 'DATETIME'>, '2020-01-01 01:02:03')
    >>> temporal_literal(normalize_sql("CAST('2020-01-01' AS DATE)")) is None
    True
    """
    node = parse(expr.sql)
    return (node.kind, node.name) if isinstance(node, TemporalLiteral) else None


def bare_version(default: Any) -> bool:
    """Whether a DEFAULT is ``VERSION()`` alone (in parentheses or not), which MariaDB keeps
    as no value (:func:`mvdd.ddl.apply` folds it).

    >>> bare_version(normalize_sql("((VERSION()))")), bare_version(normalize_sql("-VERSION()"))
    (True, False)
    """
    if not isinstance(default, Expr):
        return False
    node = parse(default.sql)
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, exp.CurrentVersion)


def signed_pi(default: Any) -> int | None:
    """1 or -1 when a DEFAULT is ``PI()`` alone, or negated (``-PI()``, ``-(-PI())``); None
    otherwise (MariaDB keeps such a DEFAULT as its value, :data:`mvdd.ddl.rules.MARIADB`).

    >>> signed_pi(normalize_sql("-(-PI())")), signed_pi(normalize_sql("-PI() + 1"))
    (1, None)
    """
    if not isinstance(default, Expr):
        return None
    node, sign = parse(default.sql), 1
    while isinstance(node, exp.Neg | exp.Paren):
        sign = -sign if isinstance(node, exp.Neg) else sign
        node = node.this
    return sign if isinstance(node, exp.Pi) else None


def referenced_columns(expr: Expr) -> frozenset[str]:
    """Case-folded names of the columns an expression reads."""
    return frozenset(fold_name(col.name) for col in parse(expr.sql).find_all(exp.Column))


#: the MySQL name of each function sqlglot keeps as a node of its own (calls of the others are
#: :class:`sqlglot.exp.Anonymous` and carry their name)
_FUNCTION_NAMES: dict[type[exp.Expr], str] = {
    exp.CurrentTimestamp: "CURRENT_TIMESTAMP",
    exp.CurrentDate: "CURRENT_DATE",
    exp.CurrentTime: "CURRENT_TIME",
    exp.UtcTimestamp: "UTC_TIMESTAMP",
    exp.UtcDate: "UTC_DATE",
    exp.UtcTime: "UTC_TIME",
    exp.Uuid: "UUID",
    exp.Rand: "RAND",
    exp.CurrentUser: "CURRENT_USER",
    exp.CurrentSchema: "DATABASE",
    exp.CurrentVersion: "VERSION",
    exp.UnixToTime: "FROM_UNIXTIME",
    exp.Subquery: "SELECT",
    exp.Select: "SELECT",
    exp.Parameter: "@",
    exp.SessionParameter: "@",
    exp.MatchAgainst: "MATCH",
    exp.Window: "AGGREGATE",  # (a window function's OVER)
    exp.RowNumber: "AGGREGATE",
}
#: what sqlglot reads as an aggregate that MySQL and MariaDB call as a function of the row:
#: LAST_VALUE(x, …) without a window (with one, its OVER is the window function)
_ROW_FUNCTIONS = (exp.LastValue,)


@lru_cache(maxsize=4096)
def calls(expr: Expr) -> frozenset[str]:
    """What an expression calls, by MySQL name: its functions (``UNIX_TIMESTAMP()`` without
    an argument, which reads the clock, apart from ``UNIX_TIMESTAMP``), ``SELECT`` for a
    subquery, ``@`` for a variable, ``AGGREGATE`` for an aggregate or a window function (which
    reads other rows), ``MATCH`` for a full-text search.

    >>> sorted(calls(normalize_sql("NOW() + RAND() + LAST_INSERT_ID() + @v")))
    ['@', 'CURRENT_TIMESTAMP', 'LAST_INSERT_ID', 'RAND']
    """
    out = set()
    for node in parse(expr.sql).walk():
        if isinstance(node, exp.Anonymous):
            name = node.name.upper()
            out.add(f"{name}()" if name == "UNIX_TIMESTAMP" and not node.expressions else name)
        elif type(node) in _FUNCTION_NAMES:
            out.add(_FUNCTION_NAMES[type(node)])
        elif isinstance(node, exp.AggFunc) and not isinstance(node, _ROW_FUNCTIONS):
            out.add("AGGREGATE")
    return frozenset(out)


@lru_cache(maxsize=4096)
def string_literals(expr: Expr) -> tuple[str, ...]:
    """The text of an expression's string literals that name no charset of their own (an
    introducer's, ``_latin1'é'``, does).

    >>> string_literals(normalize_sql("CONCAT(a, 'é', _latin1'x', LENGTH('b'))"))
    ('é', 'b')
    """
    return tuple(
        node.this
        for node in parse(expr.sql).find_all(exp.Literal)
        if node.is_string and not isinstance(node.parent, exp.Introducer)
    )


def rename_column(expr: Expr, old: str, new: str) -> Expr:
    """The expression with every reference to column ``old`` (case-insensitive) renamed."""
    folded = fold_name(old)

    def swap(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column) and not node.table and fold_name(node.name) == folded:
            return exp.column(exp.to_identifier(new, quoted=True))
        return node

    # (transform copies the cached tree before it changes a node: one copy is enough)
    return normalize(parse(expr.sql).transform(swap))


def to_node(expr: Expr) -> exp.Expr:
    """A fresh sqlglot tree of an expression, for rendering."""
    return parse(expr.sql).copy()


# --- the kinds of values an operation takes ------------------------------------------------------

#: the operations MariaDB refuses between a value of a type of its own (UUID, INET4, INET6) and
#: a value of another kind than a string, NULL or that type (error 4078), by the name its
#: error gives each
_MIXING: dict[type[exp.Expr], str] = {
    exp.EQ: "=",
    NotValue: "=",
    exp.NEQ: "<>",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
    exp.NullSafeEQ: "<=>",
    exp.Add: "+",
    exp.Sub: "-",
    exp.Mul: "*",
    exp.Div: "/",
    exp.Mod: "%",
    exp.Between: "between",
    exp.In: "in",
    exp.Coalesce: "coalesce",
}
#: the operations it refuses on such a value alone (error 4079)
_ALONE: dict[type[exp.Expr], str] = {exp.Neg: "-", exp.Abs: "abs"}
_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.Neg)
#: the kinds of a CAST's or a typed literal's value (a TIMESTAMP '…' literal is a DATETIME, as
#: the server's error names it)
_TEMPORAL_CASTS = {
    exp.DType.DATE: "date",
    exp.DType.TIME: "time",
    exp.DType.DATETIME: "datetime",
    exp.DType.TIMESTAMP: "datetime",
    exp.DType.TIMESTAMPTZ: "datetime",
}


def foreign_collation(expr: Expr, charsets: dict[str, str]) -> str | None:
    """What the server refuses of ``expr``'s ``col COLLATE co`` (its error 1253), or None: a
    collation of another charset than the column's (``charsets``: each string column's, by
    folded name).

    >>> foreign_collation(normalize_sql("s COLLATE latin1_bin = 'x'"), {"s": "utf8mb4"})
    "COLLATION 'latin1_bin' is not valid for CHARACTER SET 'utf8mb4'"
    """
    if "COLLATE" not in expr.sql:
        return None
    for node in parse(expr.sql).find_all(exp.Collate):
        if isinstance(node.this, exp.Column):
            charset = charsets.get(fold_name(node.this.name))
            refused = _collation_refused(node.expression.name, charset)
            if refused is not None:
                return refused
    return None


def mixed_kinds(expr: Expr, kinds: dict[str, str], own: frozenset[str]) -> str | None:
    """What MariaDB refuses in ``expr`` for the kinds of values its operations meet, or None:
    a value of a type of its own (``own``: ``uuid``, ``inet4``, ``inet6``) with one of another
    kind than a string, NULL or that type (a number, a date, another such type) in a
    comparison, arithmetic, BETWEEN, IN or COALESCE (error 4078), or alone under a minus or
    ABS (4079). ``kinds``: the kind of each column the expression may read (by folded name);
    a string column, a call and anything else not known is left alone.

    >>> mixed_kinds(Expr("`a` > 0"), {"a": "uuid"}, frozenset({"uuid"}))
    "illegal parameter data types uuid and int for operation '>'"
    >>> mixed_kinds(Expr("`a` = '00000000-0000-0000-0000-000000000000'"), {"a": "uuid"},
    ...             frozenset({"uuid"})) is None
    True
    """

    def kind(node: exp.Expr) -> str | None:
        while isinstance(node, exp.Paren):
            node = node.this
        if isinstance(node, exp.Column):
            return kinds.get(fold_name(node.name))
        if isinstance(node, exp.Literal) and not node.is_string:
            text = node.name.lower()
            return "double" if "e" in text else "decimal" if "." in text else "int"
        if isinstance(node, exp.Boolean):
            return "int"
        if isinstance(node, exp.Cast) and node.to.this in _TEMPORAL_CASTS:
            return _TEMPORAL_CASTS[node.to.this]
        if isinstance(node, _ARITHMETIC):
            parts = [kind(p) for p in (node.this, node.args.get("expression")) if p is not None]
            if parts and all(p is not None and p not in own for p in parts):
                return "double"
        return None

    for node in parse(expr.sql).walk():
        op = type(node)
        if op in _ALONE or op is exp.Not:
            alone = kind(node.this)
            if alone not in own:
                continue
            if op is exp.Not:  # (NOT a is a = 0)
                return f"illegal parameter data types {alone} and int for operation '='"
            return f"illegal parameter data type {alone} for operation '{_ALONE[op]}'"
        name = _MIXING.get(op)
        if name is None:
            continue
        found = [k for k in map(kind, _operands(node)) if k is not None]
        mine = next((k for k in found if k in own), None)
        other = next((k for k in found if k != mine), None) if mine is not None else None
        if mine is not None and other is not None:
            first, second = sorted((mine, other), key=found.index)
            return f"illegal parameter data types {first} and {second} for operation '{name}'"
    return None


def _operands(node: exp.Expr) -> list[exp.Expr]:
    """The values an operation meets: its own, BETWEEN's bounds, IN's and COALESCE's list."""
    keys = ("this", "expression", "low", "high")
    return [*(node.args[k] for k in keys if node.args.get(k) is not None), *node.expressions]


#: how a value depends on ``sql_mode`` PAD_CHAR_TO_FULL_LENGTH, under which MariaDB reads a
#: CHAR column with its trailing spaces (:func:`pad_dependency`): not at all; softly (a CHAR
#: column's value itself, which a comparison of strings, a trim or a column of fixed width
#: reads alike either way); hard (a value computed from the spaces)
PAD_NONE, PAD_SOFT, PAD_HARD = 0, 1, 2

_COMPARISONS = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.NullSafeEQ)
#: the operations whose value is a number (a comparison between them and a string is one of
#: numbers, which reads a CHAR's spaces)
_NUMBER_NODES = (
    *_COMPARISONS,
    *_ARITHMETIC,
    exp.IntDiv,
    exp.And,
    exp.Or,
    exp.Xor,
    exp.Is,
    exp.Like,
    exp.In,
    exp.Between,
    exp.Boolean,
    exp.BitwiseAnd,
    exp.BitwiseOr,
    exp.BitwiseXor,
    exp.BitwiseNot,
    exp.BitwiseLeftShift,
    exp.BitwiseRightShift,
)


def pad_dependency(
    expr: Expr, padded: frozenset[str], nopad: frozenset[str], numbers: frozenset[str]
) -> int:
    """How ``expr``'s value depends on PAD_CHAR_TO_FULL_LENGTH (:data:`PAD_NONE`,
    :data:`PAD_SOFT`, :data:`PAD_HARD`), given the (folded) names of the table's CHAR columns
    of a charset (``padded``), those of them of a NO PAD collation (``nopad``) and its number
    columns (``numbers``), as MariaDB reckons it: a CHAR column is soft; a comparison of
    strings or of a string and a date (in a PAD SPACE collation), a LIKE, a TRIM or RTRIM of
    spaces take the softness away; AND and OR ask nothing of their operands; any other
    operation or function makes its operands' softness hard (a comparison with a number, a
    CONCAT, a LENGTH …). Functions are taken for strings where their value's type matters (a
    comparison with one is one of strings)."""

    def number(node: exp.Expr) -> bool:
        node = node.unnest() if isinstance(node, exp.Paren) else node
        if isinstance(node, exp.Literal):
            return not node.is_string
        if isinstance(node, exp.Column):
            return fold_name(node.name) in numbers
        return isinstance(node, _NUMBER_NODES)

    def walk(node: exp.Expr) -> int:
        if isinstance(node, exp.Column):
            return PAD_SOFT if fold_name(node.name) in padded else PAD_NONE
        if isinstance(node, exp.And | exp.Or):
            return PAD_NONE
        inner = max(map(walk, node.iter_expressions()), default=PAD_NONE)
        if isinstance(node, exp.Paren) or inner == PAD_NONE:
            return inner
        if isinstance(node, exp.Like) or (
            isinstance(node, _COMPARISONS) and not (number(node.this) or number(node.expression))
        ):
            reads = {fold_name(c.name) for c in node.find_all(exp.Column)}
            cleared = not (reads & nopad)
        elif isinstance(node, exp.Trim):
            where = str(node.args.get("position") or "BOTH").upper()
            cleared = where in ("BOTH", "TRAILING") and node.expression is None
        else:
            cleared = False
        if cleared:
            return PAD_NONE if inner == PAD_SOFT else inner
        return PAD_HARD

    return walk(parse(expr.sql))
