"""Identifiers: what MySQL accepts as the (quoted) name of a table, column, index or check,
and when two names are one.

>>> check_identifier("order`s", "table")
'order`s'
>>> check_identifier("a ", "column")
Traceback (most recent call last):
...
mvdd.errors.DDLError: column name 'a ' ends with a space
>>> fold_name("Größe") == fold_name("GRÖSSE"), fold_name("İd") == fold_name("id")
(False, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mvdd.errors import DDLError

#: MySQL's limit on identifier length, in characters
MAX_IDENTIFIER = 64


def check_identifier(name: str, what: str, *, spaced: bool = False) -> str:
    """``name`` if MySQL accepts it as a (quoted) identifier; raises DDLError otherwise.
    ``spaced``: it may end with spaces, as MariaDB keeps a check's name (`c ` apart from
    `c`, and ` ` too), which mvdd's own rules refuse as any other name's."""
    if not isinstance(name, str) or not name:
        raise DDLError(f"empty {what} name")
    if len(name) > MAX_IDENTIFIER:
        raise DDLError(f"{what} name {name[:20]!r}… is longer than {MAX_IDENTIFIER} characters")
    if name.endswith(" ") and not spaced:
        raise DDLError(f"{what} name {name!r} ends with a space")
    if not (name.isascii() and "\0" not in name) and _UNNAMEABLE.search(name):
        raise DDLError(f"{what} name {name!r} has a character MySQL does not allow in names")
    return name


#: NUL and the characters beyond the Basic Multilingual Plane, which MySQL names cannot hold,
#: and lone surrogates: a byte of the statement that was no UTF-8 (``surrogateescape``'s), which
#: the servers refuse in a name (error 1300, an invalid character string)
_UNNAMEABLE = re.compile("[\0\ud800-\udfff\U00010000-\U0010ffff]")


#: the spans of the Basic Multilingual Plane whose characters the server lowers in a name, each
#: to its Unicode lower case: the table of its system charset (utf8mb3_general_ci), older than
#: Unicode's own, leaves every other character as written (Georgian, Cherokee, Glagolitic, the
#: later Latin and Cyrillic letters …); ``tests/test_mariadb_server.py`` holds it to the server's
#: ``LOWER()`` for every character
_LOWERED_SPANS = (
    (0x0041, 0x005A),
    (0x00C0, 0x021E),
    (0x0222, 0x0232),
    (0x0386, 0x03AB),
    (0x03DA, 0x03EE),
    (0x0400, 0x0480),
    (0x048C, 0x04BE),
    (0x04C1, 0x04C3),
    (0x04C7, 0x04C7),
    (0x04CB, 0x04CB),
    (0x04D0, 0x04F4),
    (0x04F8, 0x04F8),
    (0x0531, 0x0556),
    (0x1E00, 0x1E94),
    (0x1EA0, 0x1EF8),
    (0x1F08, 0x212B),
    (0x2160, 0x216F),
    (0x24B6, 0x24CF),
    (0xFF21, 0xFF3A),
)
#: character -> the one the server lowers it to in a name (one character each: the server folds
#: a name character by character, so ß stays ß and ﬁ stays ﬁ, where Unicode's case folding
#: makes them ss and fi)
_NAME_LOWER: dict[int, int] = {
    code: ord(low)
    for start, end in _LOWERED_SPANS
    for code in range(start, end + 1)
    if len(low := chr(code).lower()) == 1 and low != chr(code)
}
_NAME_LOWER[0x0130] = ord("i")  # İ: the server's table lowers it to a plain i


def fold_name(name: str) -> str:
    """``name`` as the server compares names of columns, indexes and checks (and, under
    ``lower_case_table_names``, of tables and databases): each character lowered by the
    server's table, one character for one. ``ä`` and ``a`` stay two names, as do ``ß`` and
    ``ss``, ``ς`` and ``σ``, ``ſ`` and ``s``; ``İ`` and ``i`` are one, as are ``Ω`` (the ohm
    sign) and ``ω``. An ASCII name is its ``lower()``."""
    return name.lower() if name.isascii() else name.translate(_NAME_LOWER)


def fold_names(names: Iterable[str]) -> Iterator[str]:
    """:func:`fold_name` of each of ``names``, in C when they are all ASCII (the usual case:
    a wide table's names are folded at every new version)."""
    names = names if isinstance(names, list | tuple) else list(names)
    return map(str.lower if "".join(names).isascii() else fold_name, names)


def check_key(name: str) -> str:
    """What MariaDB knows a check named ``name`` by, as a string: two checks are one name
    only when their names fold alike (:func:`fold_name`) and are as long in UTF-8, so ``İ``
    (two bytes) and ``i`` (one) are two checks, as are the Kelvin sign's and ``k``. The key is
    the folded name, and where folding changed its UTF-8 length, that length after a NUL (which
    no name holds); equal keys, one check.

    >>> check_key("Pos"), check_key("İ"), check_key("i"), check_key("\u0130") == check_key("I")
    ('pos', 'i\\x002', 'i', False)
    """
    folded = fold_name(name)
    if name.isascii():
        return folded
    size = len(name.encode())
    return folded if len(folded.encode()) == size else f"{folded}\0{size}"


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def check_word(value: str | None, what: str) -> str | None:
    """``value`` if it is a bare SQL word (an engine, an option's name …), which DDL carries
    unquoted; raises DDLError otherwise (a value built in code must never inject SQL)."""
    if value is not None and (not isinstance(value, str) or not _WORD.match(value)):
        raise DDLError(f"{what} {value!r} is not a name (letters, digits, underscores)")
    return value


__all__ = [
    "MAX_IDENTIFIER",
    "check_identifier",
    "check_key",
    "check_word",
    "fold_name",
    "fold_names",
]
