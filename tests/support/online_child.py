"""A process of the multi-process online schema change test: a serving node (reloads every
quarter lease and does DML on the shared row store) or an owner candidate (runs jobs, logging
each reorg batch before it returns). Stops when the stop file appears.

    python -m tests.support.online_child node CATALOG ROWS NODE_ID LEASE STOPFILE
    python -m tests.support.online_child owner CATALOG ROWS BATCHLOG LEASE STOPFILE
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

from mvdd import Catalog, MvddError
from mvdd.online import Cluster
from mvdd.online.rowstore import RowStore


def node(catalog: str, rows_path: str, node_id: str, lease: float, stop: Path) -> None:
    cat = Catalog.open(catalog)
    cluster = Cluster(cat, lease=lease)
    rows = RowStore(rows_path)
    me = cluster.node(node_id)
    rng = random.Random(node_id)
    next_pk = 100_000 * (int(node_id[1:]) + 1)
    while not stop.exists():
        try:
            me.reload()
            table = me.table("t")
            public = [c.name for c in table.public_columns if c.name != "id"]
            for _ in range(3):
                op = rng.random()
                if op < 0.5:
                    next_pk += 1
                    rows.insert(table, {"id": next_pk, **{n: rng.randint(0, 9) for n in public}})
                elif op < 0.9 and public:
                    change = {rng.choice(public): rng.randint(0, 9)}
                    rows.update(table, {"id": rng.randint(1, 400)}, change)
                else:
                    rows.delete(table, {"id": rng.randint(1, 400)})
        except MvddError:
            pass  # a duplicate key, or a reload that did not make it in time
        time.sleep(lease / 4)


def owner(catalog: str, rows_path: str, batch_log: str, lease: float, stop: Path) -> None:
    cat = Catalog.open(catalog)
    cluster = Cluster(cat, lease=lease)
    rows = RowStore(rows_path, batch=25)
    log = open(batch_log, "a", buffering=1)  # noqa: SIM115 - open for the process's life

    def reorg(table: Any, element: Any, checkpoint: Any) -> Any:
        started = time.time()
        time.sleep(0.01)
        out = rows.backfill(table, element, checkpoint)
        log.write(f"{started!r}\t{os.getpid()}\t{element.id}\t{checkpoint}\t{out}\n")
        return out

    done = threading.Event()

    def watch() -> None:
        while not stop.exists():
            time.sleep(0.05)
        done.set()

    threading.Thread(target=watch, daemon=True).start()
    cluster.run_owner(until_idle=False, reorg=reorg, cleanup=rows.cleanup, stop=done)


if __name__ == "__main__":
    role, *args = sys.argv[1:]
    if role == "node":
        node(args[0], args[1], args[2], float(args[3]), Path(args[4]))
    else:
        owner(args[0], args[1], args[2], float(args[3]), Path(args[4]))
