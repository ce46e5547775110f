"""A process that runs random valid DDL on a SQLite catalog until it is killed.

Before each statement it appends the statement to a journal (flushed and fsynced), and after
one that committed nothing a ``-- refused`` or ``-- no change`` line, so the test that kills it
can check that the catalog holds exactly the journal's statements, or all but the last (the one
the kill interrupted).

    python -m tests.support.crash_child CATALOG JOURNAL SEED
"""

from __future__ import annotations

import os
import random
import sys

from mvdd import Catalog, MvddError
from mvdd.model import Table

TYPES = ["INT", "BIGINT", "VARCHAR(20)", "DECIMAL(6,2)", "DATETIME(3)", "TEXT", "ENUM('a','b')"]


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def next_statement(cat: Catalog, rng: random.Random, counter: list[int]) -> str:
    counter[0] += 1
    n = counter[0]
    tables = cat.tables()
    if len(tables) < 3 or rng.random() < 0.05:
        cols = ", ".join(f"c{i} {rng.choice(TYPES)}" for i in range(rng.randint(1, 5)))
        return f"CREATE TABLE {quote(f'tbl{n}')} (id INT NOT NULL, {cols}, PRIMARY KEY (id))"
    name = rng.choice(tables)
    table: Table = cat.table(name)
    others = [c for c in table.columns if c.name != "id"]
    indexed = {table.column_by_id(p.column_id).name for i in table.indexes for p in i.parts}
    roll = rng.random()
    if roll < 0.30 or not others:
        place = rng.choice(["", " FIRST", f" AFTER {quote(rng.choice(table.columns).name)}"])
        return f"ALTER TABLE {quote(name)} ADD COLUMN {quote(f'n{n}')} {rng.choice(TYPES)}{place}"
    col = rng.choice(others)
    if roll < 0.45 and col.name not in indexed:
        return f"ALTER TABLE {quote(name)} DROP COLUMN {quote(col.name)}"
    if roll < 0.60 and col.name not in indexed:
        return f"ALTER TABLE {quote(name)} MODIFY {quote(col.name)} {rng.choice(TYPES)} FIRST"
    if roll < 0.72:
        return f"ALTER TABLE {quote(name)} RENAME COLUMN {quote(col.name)} TO {quote(f'r{n}')}"
    if roll < 0.82 and not str(col.type).startswith("text"):
        return f"ALTER TABLE {quote(name)} ADD INDEX {quote(f'i{n}')} ({quote(col.name)})"
    if roll < 0.88 and [i for i in table.indexes if i.name != "PRIMARY"]:
        idx = rng.choice([i for i in table.indexes if i.name != "PRIMARY"])
        return f"ALTER TABLE {quote(name)} DROP INDEX {quote(idx.name)}"
    if roll < 0.94:
        return f"RENAME TABLE {quote(name)} TO {quote(f'tbl{n}')}"
    if roll < 0.97 and len(tables) > 3:
        return f"DROP TABLE {quote(name)}"
    return f"ALTER TABLE {quote(name)} ADD {quote(f'm{n}')} INT DEFAULT {n}, ADD CHECK ({quote(f'm{n}')} >= 0)"


def main(path: str, journal: str, seed: int) -> None:
    rng = random.Random(seed)
    cat = Catalog.open(path)
    counter = [seed * 1_000_000]
    with open(journal, "a", encoding="utf-8") as out:
        while True:
            sql = next_statement(cat, rng, counter)
            out.write(sql + "\n")
            out.flush()
            os.fsync(out.fileno())
            try:
                outcome = "" if cat.execute(sql) else "-- no change\n"
            except MvddError:
                # a statement the generator got wrong is refused whole
                outcome = "-- refused\n"
            if outcome:  # so the journal tells which statements committed nothing
                out.write(outcome)
                out.flush()
                os.fsync(out.fileno())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
