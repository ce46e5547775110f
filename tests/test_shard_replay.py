"""A shard group's outcomes are the same in every process: the replicator's group log,
replayed on start, must give the downstream statements it recorded, and a process seeds its
strings' hashes anew (``PYTHONHASHSEED``), so nothing the group decides may follow a set's
order. Random DDL on three shards (several columns added, dropped or changed in one
statement, renames, generated columns, keys, checks, shards made to agree) runs in processes of different seeds;
their downstream statements, pauses and conflicts must be equal, and columns one statement
adds come downstream in that statement's order."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from mvdd import MvddError
from mvdd.shard import ShardGroup

ROOT = Path(__file__).resolve().parent.parent
TYPES = ["INT", "BIGINT", "VARCHAR(5)", "VARCHAR(20)", "INT NOT NULL DEFAULT 0", "TEXT", "DATE"]
NAMES = list("abcdefgh")
CASES = 150


def actions(r: random.Random, mine: dict[str, str], other: dict[str, str]) -> list[str]:
    """One random ALTER's actions on a shard whose columns are ``mine`` (updated)."""
    k = r.random()
    out: list[str] = []
    if k < 0.35:
        for n in r.sample(NAMES, r.randint(1, 3)):
            if n not in mine:
                mine[n] = r.choice(TYPES)
                out.append(f"ADD COLUMN {n} {mine[n]}")
    elif k < 0.5 and len(mine) > 1:
        for n in r.sample(sorted(mine), r.randint(1, len(mine) - 1)):
            del mine[n]
            out.append(f"DROP COLUMN {n}")
    elif k < 0.7:
        for n in r.sample(sorted(mine), min(len(mine), 2)):
            mine[n] = r.choice(TYPES)
            out.append(f"MODIFY {n} {mine[n]}")
    elif k < 0.8:
        n, m = r.choice(sorted(mine)), r.choice(NAMES)
        if m not in mine:
            mine[m] = mine.pop(n)
            out.append(f"RENAME COLUMN {n} TO {m}")
    elif k < 0.84:
        n = r.choice(NAMES)
        if n not in mine:
            mine[n] = f"INT AS (id % {r.randint(2, 4)}) {r.choice(['VIRTUAL', 'PERSISTENT'])}"
            out.append(f"ADD COLUMN {n} {mine[n]}")
    elif k < 0.87:
        numbers = [n for n in sorted(mine) if mine[n].startswith("INT")]
        if numbers:
            check = f"{r.choice(numbers)} > {r.randint(-5, 0)}"
            out.append(f"ADD CONSTRAINT ck_{r.randint(0, 2)} CHECK ({check})")
    elif k < 0.9:
        plain = [n for n in sorted(mine) if mine[n] != "TEXT"]
        if plain:
            kind = r.choice(["INDEX", "UNIQUE KEY"])
            parts = ", ".join(r.sample(plain, min(len(plain), r.randint(1, 2))))
            out.append(f"ADD {kind} ix_{r.randint(0, 2)} ({parts})")
    else:  # made to agree with another shard
        for n in [n for n in mine if n not in other]:
            del mine[n]
            out.append(f"DROP COLUMN {n}")
        for n, t in other.items():
            if mine.get(n) != t:
                out.append(f"{'MODIFY' if n in mine else 'ADD COLUMN'} {n} {t}")
                mine[n] = t
    return out


def outcomes(first: int, last: int) -> list[str]:
    """Each case's outcomes, one line a statement."""
    lines = []
    for case in range(first, last):
        r = random.Random(case)
        columns = {s: {"a": "INT"} for s in "xyz"}
        g = ShardGroup("t", {s: "CREATE TABLE t (id INT PRIMARY KEY, a INT)" for s in columns})
        for _ in range(40):
            shard = r.choice("xyz")
            done = actions(r, columns[shard], columns[r.choice("xyz")])
            if not done:
                continue
            try:
                o = g.apply(shard, "ALTER TABLE t " + ", ".join(done))
            except MvddError as err:
                lines.append(f"{case} refused: {err}")
                break
            conflict = str(o.conflict) if o.conflict is not None else None
            lines.append(f"{case} {shard} {o.downstream} {sorted(g.paused)} {conflict}")
        lines.append(g.joined.to_sql())
    return lines


def in_process(seed: int) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    code = f"from tests.test_shard_replay import outcomes; print('\\n'.join(outcomes(0, {CASES})))"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return proc.stdout.splitlines()


def test_outcomes_are_the_same_in_processes_of_different_hash_seeds() -> None:
    first = in_process(1)
    assert len(first) > CASES
    for seed in (2,):
        theirs = in_process(seed)
        diff = next((i for i, (a, b) in enumerate(zip(first, theirs, strict=True)) if a != b), None)
        assert diff is None, (first[diff], theirs[diff])


def test_columns_one_statement_adds_come_in_its_order() -> None:
    g = ShardGroup("t", {s: "CREATE TABLE t (id INT PRIMARY KEY, v INT)" for s in "xy"})
    added = g.apply("x", "ALTER TABLE t ADD COLUMN s INT, ADD COLUMN q INT, ADD COLUMN r INT")
    assert [d.split("`")[3] for d in added.downstream] == ["s", "q", "r"]
    # a paused shard's columns, released at once, in its schema's order
    assert g.apply("y", "ALTER TABLE t MODIFY v DATE").conflict is not None
    g.apply("y", "ALTER TABLE t ADD COLUMN p INT, ADD COLUMN m INT, ADD COLUMN n INT")
    resumed = g.apply("x", "ALTER TABLE t MODIFY v DATE")
    assert [d.split("`")[3] for d in resumed.downstream] == ["v", "p", "m", "n"]
