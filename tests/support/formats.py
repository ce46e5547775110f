"""Stores of an older format, as the mvdd of that format wrote them, and the check that a
store reads as another does."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from mvdd.store.base import Store

FORMAT_2 = Path(__file__).parent.parent / "fixtures" / "store_format2.sql"

#: the ``elements`` table of a MySQL store of format 2 (``{p}``: the prefix), as it made it
FORMAT_2_MYSQL_ELEMENTS = (
    "CREATE TABLE `{p}elements` (table_id BIGINT NOT NULL, "
    "kind VARCHAR(16) NOT NULL, element_id BIGINT NOT NULL, since INT NOT NULL, "
    "until INT NULL, prev BIGINT NULL, "
    "value LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "opened_seq BIGINT NOT NULL, closed_seq BIGINT NULL, "
    "PRIMARY KEY (table_id, kind, element_id, since), KEY opened (opened_seq), "
    "KEY closed (closed_seq)) ENGINE=InnoDB"
)


def format_2_sqlite(path: Path) -> list[str]:
    """``path`` made the SQLite catalog of store format 2 that the fixture holds; the
    statements it was written from (the fixture's header), in order, each at the position of
    its number."""
    text = FORMAT_2.read_text()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(text)
    heading = [line for line in text.splitlines() if line[:3] == "-- " and ". " in line]
    return [line.split(". ", 1)[1] for line in heading]


def format_2_rows(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """The catalog rows of the fixture (made at ``path``): table -> (columns, rows)."""
    format_2_sqlite(path)
    out = {}
    with contextlib.closing(sqlite3.connect(path)) as db:
        for table in ("meta", "tables", "versions", "elements"):
            cur = db.execute(f"SELECT * FROM {table}")
            out[table] = ([d[0] for d in cur.description], cur.fetchall())
    return out


def stored_format(path: Path) -> str:
    """The format number a SQLite catalog file holds."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return str(db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0])


def assert_same_changes(ours: Store, oracle: Store) -> None:
    """``changes(after)`` of two stores agree for every ``after`` (the commit times aside)."""
    assert ours.last_seq() == oracle.last_seq()
    for after in range(oracle.last_seq() + 1):
        mine, theirs = ours.changes(after), oracle.changes(after)
        assert mine.last_seq == theirs.last_seq
        assert [v._replace(at=0.0) for v in mine.versions] == [
            v._replace(at=0.0) for v in theirs.versions
        ]
        assert sorted(mine.opened, key=repr) == sorted(theirs.opened, key=repr), after
        assert sorted(mine.closed) == sorted(theirs.closed), after
