"""A writer process for the shared-store tests: random DDL on shared tables through its own
catalog, every outcome appended to a log (one JSON line each, flushed), and at the end the
history of every table as this process sees it.

    python -m tests.support.store_child ADDRESS WORKER LOG (--count N | --until STOPFILE) [SEED]

Log lines: ``{"intent": sql}`` before a statement; then ``{"done": sql, "table": name,
"version": v, "at": t}`` or ``{"error": kind, "sql": sql, "at": t}``; finally
``{"finished": true}``, and once the file ``LOG.go`` exists (every writer has finished)
``{"histories": {table: [[version, statement], ...]}}``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from mvdd import Catalog, ConcurrentChangeError, DDLError, MvddError, StoreError

TABLES = ("t0", "t1", "t2")


def statement(rng: random.Random, worker: str, mine: dict[str, list[str]], n: int) -> str:
    """A DDL on a shared table touching this worker's own columns (so the outcome is known);
    ``mine`` (table -> own columns) is updated as if it commits."""
    table = rng.choice(TABLES)
    own = mine.setdefault(table, [])
    roll = rng.random()
    if own and roll < 0.25:
        col = own.pop(rng.randrange(len(own)))
        return f"ALTER TABLE {table} DROP COLUMN {col}"
    if own and roll < 0.45:
        col = rng.choice(own)
        return f"ALTER TABLE {table} MODIFY {col} BIGINT NULL DEFAULT {n}"
    if own and roll < 0.55:
        i = own.index(rng.choice(own))
        new = f"{worker}_r{n}"
        sql = f"ALTER TABLE {table} RENAME COLUMN {own[i]} TO {new}"
        own[i] = new
        return sql
    col = f"{worker}_c{n}"
    own.append(col)
    return f"ALTER TABLE {table} ADD COLUMN {col} INT NULL DEFAULT {n}"


def main(argv: list[str]) -> None:
    address, worker, log_path, mode, arg, *rest = argv
    rng = random.Random(int(rest[0]) if rest else hash(worker))
    with Path(log_path).open("a", buffering=1) as log:
        run(address, worker, mode, arg, rng, log)


def run(address: str, worker: str, mode: str, arg: str, rng: random.Random, log: Any) -> None:

    def note(record: dict[str, Any]) -> None:
        log.write(json.dumps(record) + "\n")

    cat = None
    while cat is None:
        try:
            cat = Catalog.open(address)
        except StoreError:
            time.sleep(0.1)
    mine: dict[str, list[str]] = {}
    n = 0
    while (n < int(arg)) if mode == "--count" else not Path(arg).exists():
        n += 1
        after = {t: list(cols) for t, cols in mine.items()}
        sql = statement(rng, worker, after, n)
        note({"intent": sql})
        try:
            (change,) = cat.execute(sql)
            mine = after
            note({"done": sql, "table": change.table, "version": change.version, "at": time.time()})
        except ConcurrentChangeError:
            note({"error": "concurrent", "sql": sql, "at": time.time()})
        except StoreError as err:
            note({"error": "store", "sql": sql, "at": time.time(), "message": str(err)})
            time.sleep(0.05)
        except DDLError as err:  # an earlier statement of ours was not stored (store error)
            note({"error": "ddl", "sql": sql, "at": time.time(), "message": str(err)})
    # the final histories are read once every writer has finished (the parent says so)
    note({"finished": True})
    go = Path(log.name + ".go")
    deadline = time.monotonic() + 300
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    while True:
        try:
            cat.refresh()
            histories = {
                t: [[c.version, c.statement] for c in cat.history(t)] for t in cat.tables()
            }
            break
        except MvddError:
            time.sleep(0.1)
    note({"histories": histories})


if __name__ == "__main__":
    main(sys.argv[1:])
