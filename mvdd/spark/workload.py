"""The bundled example workload of ``mvdd demo``: a sharded ``orders`` table whose four shards
change their schemas in different orders while they take rows, as event logs for
``mvdd replay``.

An event log is one JSON-lines file per shard (the file's stem is the shard's name). Every line
has a ``pos`` (positions compare across shards: the replay merges the logs in position order)
and either ``ddl`` (one statement; the first line of a log is the shard's ``CREATE TABLE``) or
``row`` (an insert, the values by column name as the shard's schema then names them).

The script (positions are fractions of the run):

* every shard widens ``customer`` and adds a nullable ``note``, at different moments;
* shards 1 and 2 add ``channel`` with a default early, shards 3 and 4 late;
* every shard renames ``amount`` to ``total`` (seed 000's rename procedure downstream);
* shard 3 adds ``discount INT``, then shard 2 adds ``discount DECIMAL(5,2)``: a conflict that
  pauses shard 2, resolved when shard 3 drops its ``discount`` and adds the DECIMAL one (the
  non-intrusive way: shard 2's rows need not change); shards 1 and 4 add it later;
* an index on ``status`` is added on each shard in a different order (downstream once all have
  it).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from mvdd.ddl import Rules, apply_statement, parse_statements, parse_table
from mvdd.model import Table
from mvdd.model.kind import Family

SHARDS = ("orders_01", "orders_02", "orders_03", "orders_04")
CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL DEFAULT 0.00, status ENUM('new','paid','shipped') NOT NULL DEFAULT 'new', "
    "created DATETIME NOT NULL, PRIMARY KEY (id))"
)
#: (fraction of the run, shard index, statement with {t} for the shard's table)
SCRIPT: list[tuple[float, int, str]] = [
    (0.05, 0, "ALTER TABLE {t} ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'web'"),
    (0.08, 1, "ALTER TABLE {t} ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'web'"),
    (0.10, 2, "ALTER TABLE {t} MODIFY customer VARCHAR(64) NOT NULL"),
    (0.12, 0, "ALTER TABLE {t} ADD COLUMN note VARCHAR(40) NULL"),
    (0.15, 1, "ALTER TABLE {t} MODIFY customer VARCHAR(64) NOT NULL"),
    (0.18, 3, "ALTER TABLE {t} ADD INDEX idx_status (status)"),
    (0.20, 2, "ALTER TABLE {t} ADD COLUMN discount INT NOT NULL DEFAULT 0"),
    (0.22, 1, "ALTER TABLE {t} ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00"),
    (0.25, 3, "ALTER TABLE {t} RENAME COLUMN amount TO total"),
    (0.28, 0, "ALTER TABLE {t} MODIFY customer VARCHAR(64) NOT NULL"),
    (0.30, 1, "ALTER TABLE {t} ADD INDEX idx_status (status)"),
    (0.33, 2, "ALTER TABLE {t} DROP COLUMN discount"),
    (0.34, 2, "ALTER TABLE {t} ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00"),
    (0.38, 3, "ALTER TABLE {t} MODIFY customer VARCHAR(64) NOT NULL"),
    (0.40, 1, "ALTER TABLE {t} ADD COLUMN note VARCHAR(40) NULL"),
    (0.45, 0, "ALTER TABLE {t} RENAME COLUMN amount TO total"),
    (0.48, 2, "ALTER TABLE {t} ADD INDEX idx_status (status)"),
    (0.50, 2, "ALTER TABLE {t} ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'web'"),
    (0.55, 3, "ALTER TABLE {t} ADD COLUMN note VARCHAR(40) NULL"),
    (0.58, 0, "ALTER TABLE {t} ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00"),
    (0.60, 2, "ALTER TABLE {t} RENAME COLUMN amount TO total"),
    (0.63, 3, "ALTER TABLE {t} ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'web'"),
    (0.66, 0, "ALTER TABLE {t} ADD INDEX idx_status (status)"),
    (0.70, 2, "ALTER TABLE {t} ADD COLUMN note VARCHAR(40) NULL"),
    (0.74, 1, "ALTER TABLE {t} RENAME COLUMN amount TO total"),
    (0.80, 3, "ALTER TABLE {t} ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00"),
]


def value(table: Table, name: str, rng: random.Random, n: int, shard: int) -> Any:
    """A value for column ``name`` of the ``n``-th row of shard ``shard`` (ids are disjoint
    across shards)."""
    col = table.column(name)
    t = col.type
    if name == "id":
        return (shard + 1) * 10_000_000 + n
    if t.family == Family.CHAR:
        limit = min(t.max_length() or 8, 24)
        return f"c{rng.randrange(10**6)}-{shard}"[:limit]
    if t.family == Family.DECIMAL:
        assert t.scale is not None and t.precision is not None
        top = min(10 ** (t.precision - t.scale) - 1, 99999)
        return str(Decimal(rng.randrange(top * 100)) / 100)
    if t.family == Family.ENUM:
        return rng.choice(t.members)
    if t.family == Family.INTEGER:
        return rng.randrange(100)
    if t.kind == "DATETIME":
        start = dt.datetime(2026, 1, 1)
        return (start + dt.timedelta(seconds=n * 7 + shard)).isoformat(sep=" ")
    return None


def events(rows_per_shard: int, *, seed: int = 20261121) -> dict[str, list[dict[str, Any]]]:
    """Every shard's events, positions increasing; ``rows_per_shard`` inserts per shard."""
    rng = random.Random(seed)
    total = rows_per_shard * len(SHARDS)
    ddl_at = {round(frac * total): (shard, sql) for frac, shard, sql in SCRIPT}
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in SHARDS}
    schemas = {}
    for i, name in enumerate(SHARDS):
        create = CREATE.format(t=name)
        out[name].append({"pos": i, "ddl": create})
        schemas[name] = parse_table(create)
    counts = dict.fromkeys(SHARDS, 0)
    pos = len(SHARDS)
    for step in range(total):
        if step in ddl_at:
            shard, sql = ddl_at[step]
            name = SHARDS[shard]
            text = sql.format(t=name)
            (statement,) = parse_statements(text)
            schemas[name] = apply_statement(schemas[name], statement.steps, rules=Rules.SERVER)
            out[name].append({"pos": pos, "ddl": text})
            pos += 1
        shard = step % len(SHARDS)
        name = SHARDS[shard]
        table = schemas[name]
        row = {}
        for col in table.columns:
            if col.name in ("note", "channel", "discount") and rng.random() < 0.3:
                continue  # left to the default
            row[col.name] = value(table, col.name, rng, counts[name], shard)
        counts[name] += 1
        out[name].append({"pos": pos, "row": row})
        pos += 1
    return out


def write(folder: str | Path, rows_per_shard: int, *, seed: int = 20261121) -> list[Path]:
    """Write the workload's event logs into ``folder``; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, evs in events(rows_per_shard, seed=seed).items():
        path = folder / f"{name}.jsonl"
        with path.open("w") as f:
            for e in evs:
                f.write(json.dumps(e, separators=(",", ":")) + "\n")
        paths.append(path)
    return paths


def read(path: str | Path) -> Iterator[dict[str, Any]]:
    """The events of one log, in order."""
    with Path(path).open() as f:
        for number, line in enumerate(f, start=1):
            if line.strip():
                event = json.loads(line)
                event["line"] = number
                yield event


__all__ = ["CREATE", "SCRIPT", "SHARDS", "events", "read", "value", "write"]
