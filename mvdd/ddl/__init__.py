"""MySQL DDL <-> steps, through sqlglot: parse statements, apply steps to a table, render.

The only package that imports sqlglot.
"""

from mvdd.ddl.apply import apply, apply_steps, validate_table
from mvdd.ddl.order import apply_statement
from mvdd.ddl.render import render_steps, render_table
from mvdd.ddl.rules import Rules
from mvdd.ddl.statement import Statement, parse_statements, parse_table, split_statements

__all__ = [
    "Rules",
    "Statement",
    "apply",
    "apply_statement",
    "apply_steps",
    "parse_statements",
    "parse_table",
    "render_steps",
    "render_table",
    "split_statements",
    "validate_table",
]
