"""The bundled workload of ``mvdd demo`` as SQL on live upstream servers.

Four shards of ``orders`` (:data:`mvdd.spark.workload.SHARDS`: two on each upstream server)
change their schemas in different orders (:data:`mvdd.spark.workload.SCRIPT`: widenings,
columns added early on some shards and late on others, a rename on every shard, an index, and
a conflict with its resolution) while they take inserts, updates and deletes, in small
transactions. The driver tracks each shard's schema as its own DDL leaves it (the ddl layer's
``apply``), so every row it writes fits the shard as it is then.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from mvdd.ddl import Rules, apply_statement, parse_statements, parse_table
from mvdd.ddl.dml import delete_template, insert_template, update_template
from mvdd.model import Table
from mvdd.spark.workload import CREATE, SCRIPT, SHARDS, value

#: which upstream server holds each shard
PLACES = {"orders_01": "up1", "orders_02": "up1", "orders_03": "up2", "orders_04": "up2"}


class Workload:
    """The workload, run through ``execute(server, sql, params)`` (``params`` a list of rows
    for ``executemany``, or one row, or None)."""

    def __init__(
        self,
        execute: Callable[[str, str, Any], None],
        *,
        seed: int = 20261124,
        shards: Sequence[str] = SHARDS,
    ) -> None:
        self.execute = execute
        self.rng = random.Random(seed)
        self.shards = list(shards)
        self.schemas: dict[str, Table] = {}
        self.counts = dict.fromkeys(self.shards, 0)
        self.live: dict[str, list[int]] = {s: [] for s in self.shards}
        self.statements = 0
        self.ddl: list[tuple[str, str]] = []

    def create(self) -> None:
        for name in self.shards:
            sql = CREATE.format(t=name)
            self.execute(PLACES[name], sql, None)
            self.schemas[name] = parse_table(sql)

    def _row(self, shard: str) -> dict[str, Any]:
        table = self.schemas[shard]
        index = self.shards.index(shard)
        row = {}
        for col in table.columns:
            if col.name in ("note", "channel", "discount") and self.rng.random() < 0.3:
                continue  # left to the default
            row[col.name] = value(table, col.name, self.rng, self.counts[shard], index)
        self.counts[shard] += 1
        self.live[shard].append(row["id"])
        return row

    def insert(self, shard: str, n: int) -> None:
        """``n`` rows in one multi-row statement."""
        rows = [self._row(shard) for _ in range(n)]
        by_shape: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        for row in rows:
            by_shape.setdefault(tuple(row), []).append(tuple(row.values()))
        for columns, values in by_shape.items():
            self.execute(PLACES[shard], insert_template(shard, columns), values)
            self.statements += 1

    def change(self, shard: str) -> None:
        """An update or a delete of an existing row."""
        live = self.live[shard]
        if len(live) < 10:
            return
        i = self.rng.randrange(len(live))
        if self.rng.random() < 0.75:
            status = self.rng.choice(self.schemas[shard].column("status").type.members)
            sql = update_template(shard, ["status"], ["id"])
            self.execute(PLACES[shard], sql, (status, live[i]))
        else:
            self.execute(PLACES[shard], delete_template(shard, ["id"]), (live.pop(i),))
        self.statements += 1

    def alter(self, shard: str, sql: str) -> None:
        text = sql.format(t=shard)
        self.execute(PLACES[shard], text, None)
        (statement,) = parse_statements(text)
        self.schemas[shard] = apply_statement(
            self.schemas[shard], statement.steps, rules=Rules.SERVER
        )
        self.ddl.append((shard, text))

    def run(
        self, steps: int, *, batch: int = 20, tick: Callable[[int], None] | None = None
    ) -> None:
        """The scripted part: ``steps`` rounds of small transactions on the shards in turn,
        the DDL of :data:`SCRIPT` at its fraction of the rounds."""
        at = {round(frac * steps): (self.shards[shard], sql) for frac, shard, sql in SCRIPT}
        for step in range(steps):
            if step in at:
                self.alter(*at[step])
            shard = self.shards[step % len(self.shards)]
            self.insert(shard, batch)
            self.change(shard)
            if tick is not None:
                tick(step)


__all__ = ["PLACES", "Workload"]
