"""Markdown text of the reports (``report.md`` of a replay and of the demo) that shows every
name, statement and message as written, whatever it holds.

Names come from the user's logs and servers: a shard named ``a|b`` would split a table row, a
table named ``*t*`` would turn italic, one holding a backtick would end a code span early, and a
statement holding a fence would end its code block. Three writers cover what the reports say:

- :func:`code`: a name or statement inline, as a code span (CommonMark §6.1: the span's fence is
  one backtick longer than any run of backticks inside, padded with a space when the text starts
  or ends with one, or has a space at both ends). A line break inside is shown as the two
  characters ``\\n`` (``\\r``), as a code span cannot hold one; an empty text as one space.
- :func:`prose`: a message as plain text: the characters Markdown reads as markup inside a line
  (backslash, backtick, ``*``, ``_``, ``[``, ``]``, ``<``, ``>``, ``~``, ``&``) escaped with a
  backslash (§2.4), and so is a first character that could open a block (a heading, list,
  quote or rule: ``#``, ``-``, ``+``, ``=``, ``>``, or the ``.``/``)`` after leading digits);
  each line break (``\r\n``, ``\n``, ``\r``) as ``<br>``. Leading and trailing blanks fold,
  as in any paragraph.
- :func:`fenced`: a block of SQL whose fence is longer than any run of backticks in it.

:func:`cell` puts either in a table cell: a GitHub-flavoured table splits its rows at every
``|`` not escaped by a backslash, inside code spans too, and takes that backslash away before it
reads the cell, so each ``|`` of a cell gets one.

>>> code("orders")
'`orders`'
>>> code("a`b")
'``a`b``'
>>> cell(code("a|b"))
'`a\\\\|b`'
>>> prose("*not* <b>bold</b>")
'\\\\*not\\\\* \\\\<b\\\\>bold\\\\</b\\\\>'
"""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
#: the characters :func:`prose` escapes, each to itself after a backslash
_MARKUP = str.maketrans({c: "\\" + c for c in "\\`*_[]<>~&"})
#: what opens a block when it comes first: a marker character, or the one after leading digits
_BLOCK_START = re.compile(r"^(\d*)([#+=>.)-])")
_LINE_BREAK = re.compile(r"\r\n?|\n")
_LINE_BREAKS = str.maketrans({"\n": "\\n", "\r": "\\r"})


def _longest_backticks(text: str) -> int:
    return max((len(m) for m in _BACKTICKS.findall(text)), default=0)


def code(text: str) -> str:
    """``text`` as an inline code span, shown as written (line breaks as ``\\n``)."""
    text = text.translate(_LINE_BREAKS) or " "  # (no code span is empty: one space)
    fence = "`" * (_longest_backticks(text) + 1)
    pad = (
        " "
        if "`" in (text[0], text[-1]) or (text[0] == text[-1] == " " and text.strip(" "))
        else ""
    )
    return f"{fence}{pad}{text}{pad}{fence}"


def prose(text: str) -> str:
    """``text`` as plain text in a paragraph, list item or cell: no character of it is markup."""
    text = _BLOCK_START.sub(r"\1\\\2", text.translate(_MARKUP), count=1)
    return _LINE_BREAK.sub("<br>", text)


def cell(markdown: str) -> str:
    """Markdown (from :func:`code` or :func:`prose`, or a number) as one cell of a table row."""
    return markdown.replace("|", "\\|")


def fenced(text: str, info: str = "") -> list[str]:
    """``text`` as the lines of a fenced code block (its fence longer than any backtick run in
    it, so no line of it closes the block; its line breaks as ``\\n``)."""
    fence = "`" * max(3, _longest_backticks(text) + 1)
    return [fence + info, *([_LINE_BREAK.sub("\n", text)] if text else []), fence]


__all__ = ["cell", "code", "fenced", "prose"]
