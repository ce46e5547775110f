"""Read the SQL fixture files (vectors as readable SQL)."""

from __future__ import annotations

import re
from pathlib import Path

from mvdd.ddl import split_statements

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_SEQUENCE = re.compile(r"^-- sequence: (.+)$", re.MULTILINE)


def statements(name: str) -> list[str]:
    """Every statement of a fixture file."""
    return split_statements((FIXTURES / name).read_text())


def sequences(name: str) -> list[tuple[str, list[str]]]:
    """(title, statements) of every ``-- sequence: title`` block of a fixture file."""
    text = (FIXTURES / name).read_text()
    marks = list(_SEQUENCE.finditer(text))
    out = []
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        body = text[mark.end() : following.start() if following else len(text)]
        out.append((mark.group(1).strip(), split_statements(body)))
    return out
