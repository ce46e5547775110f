"""Identifiers: what MySQL accepts as the (quoted) name of a table, column, index or check.

>>> check_identifier("order`s", "table")
'order`s'
>>> check_identifier("a ", "column")
Traceback (most recent call last):
...
mvdd.errors.DDLError: column name 'a ' ends with a space
"""

from __future__ import annotations

import re

from mvdd.errors import DDLError

#: MySQL's limit on identifier length, in characters
MAX_IDENTIFIER = 64


def check_identifier(name: str, what: str) -> str:
    """``name`` if MySQL accepts it as a (quoted) identifier; raises DDLError otherwise."""
    if not isinstance(name, str) or not name:
        raise DDLError(f"empty {what} name")
    if len(name) > MAX_IDENTIFIER:
        raise DDLError(f"{what} name {name[:20]!r}… is longer than {MAX_IDENTIFIER} characters")
    if name.endswith(" "):
        raise DDLError(f"{what} name {name!r} ends with a space")
    if not (name.isascii() and "\0" not in name) and _UNNAMEABLE.search(name):
        raise DDLError(f"{what} name {name!r} has a character MySQL does not allow in names")
    return name


#: NUL and the characters beyond the Basic Multilingual Plane, which MySQL names cannot hold
_UNNAMEABLE = re.compile("[\0\U00010000-\U0010ffff]")


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def check_word(value: str | None, what: str) -> str | None:
    """``value`` if it is a bare SQL word (an engine, an option's name …), which DDL carries
    unquoted; raises DDLError otherwise (a value built in code must never inject SQL)."""
    if value is not None and (not isinstance(value, str) or not _WORD.match(value)):
        raise DDLError(f"{what} {value!r} is not a name (letters, digits, underscores)")
    return value


__all__ = ["MAX_IDENTIFIER", "check_identifier", "check_word"]
