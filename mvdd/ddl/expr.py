"""SQL expressions (defaults, generated columns, checks): normalise, inspect, rewrite.

An :class:`~mvdd.model.Expr` holds normalised MySQL text so that two spellings of one
expression compare equal: the text is parsed with the mvdd dialect, synonyms are unified
(``NOW()``, ``LOCALTIME`` and ``LOCALTIMESTAMP`` are ``CURRENT_TIMESTAMP``), outer parentheses are
dropped, and it is rendered with every identifier quoted.

>>> normalize_sql("(now(3))").sql
'CURRENT_TIMESTAMP(3)'
>>> sorted(referenced_columns(normalize_sql("a + `B` > 0")))
['a', 'b']
>>> rename_column(normalize_sql("a + b > 0"), "a", "x").sql
'`x` + `b` > 0'
"""

from __future__ import annotations

from functools import lru_cache

from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from mvdd.ddl.dialect import DIALECT
from mvdd.errors import DDLError
from mvdd.model import Expr

_NOW_SYNONYMS = frozenset({"NOW", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP"})


def _unify(node: exp.Expr) -> exp.Expr:
    if isinstance(node, exp.Localtime | exp.Localtimestamp):
        return exp.CurrentTimestamp(this=node.this)
    if isinstance(node, exp.Anonymous) and str(node.this).upper() in _NOW_SYNONYMS:
        return exp.CurrentTimestamp(this=node.expressions[0] if node.expressions else None)
    return node


def _strip_parens(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def normalize(node: exp.Expr) -> Expr:
    """The normalised :class:`Expr` of a parsed expression (the node is not modified)."""
    node = _strip_parens(node).copy().transform(_unify)
    return Expr(node.sql(dialect=DIALECT, identify=True))


@lru_cache(maxsize=4096)
def parse(sql: str) -> exp.Expr:
    """Parse expression text (cached: callers must not modify the tree)."""
    try:
        tokens = DIALECT.tokenize(sql)
        node = DIALECT.parser().parse_into(exp.Condition, tokens, sql)[0] if tokens else None
    except (ParseError, TokenError) as err:
        raise DDLError(f"malformed expression {sql!r}: {str(err).splitlines()[0]}") from None
    if node is None:
        raise DDLError(f"empty expression {sql!r}")
    return node


def normalize_sql(sql: str) -> Expr:
    """Normalise expression text."""
    return normalize(parse(sql))


def referenced_columns(expr: Expr) -> frozenset[str]:
    """Case-folded names of the columns an expression reads."""
    return frozenset(col.name.casefold() for col in parse(expr.sql).find_all(exp.Column))


def rename_column(expr: Expr, old: str, new: str) -> Expr:
    """The expression with every reference to column ``old`` (case-insensitive) renamed."""
    folded = old.casefold()

    def swap(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column) and not node.table and node.name.casefold() == folded:
            return exp.column(exp.to_identifier(new, quoted=True))
        return node

    return normalize(parse(expr.sql).copy().transform(swap))


def to_node(expr: Expr) -> exp.Expr:
    """A fresh sqlglot tree of an expression, for rendering."""
    return parse(expr.sql).copy()
