"""Crash safety: a child process running DDL on a SQLite catalog is killed with SIGKILL at
random moments, again and again on the same file. After every kill the reopened catalog has
contiguous versions, a readable and valid schema at every version, a complete history whose
steps rebuild each version from the one before, and exactly the statements the child committed:
its journal, or its journal without the statement the kill interrupted."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from mvdd import Catalog, parse_statements
from mvdd.ddl import apply_steps, validate_table
from mvdd.ddl.step import CreateTable, CreateTableLike, DropTable
from tests.conftest import CI
from tests.support import crash_child
from tests.support.forked import Child

ROUNDS = int(os.environ.get("MVDD_CRASH_ROUNDS", "60" if CI else "15"))

pytestmark = pytest.mark.slow


def committed_statements(cat: Catalog) -> list[str]:
    """Every committed statement, in commit order (one per commit)."""
    rows = cat.store.changes(0).versions
    by_seq: dict[int, str] = {}
    for row in rows:
        by_seq.setdefault(row.seq, row.statement)
    return [by_seq[seq] for seq in sorted(by_seq)]


def check(cat: Catalog, done: set[tuple[int, int]]) -> int:
    """Every invariant of a reopened catalog, for the versions not in ``done`` (contiguity for
    all); returns how many versions it checked and adds them to ``done``."""
    checked = 0
    state = cat._state  # every table id, dropped ones included
    for history in state.histories.values():
        changes = history.changes()
        assert [c.version for c in changes] == list(range(1, history.head + 1))
        previous = None
        for change in changes:
            if (history.table_id, change.version) in done:
                previous = None if change.dropped else history.table_at(change.version)
                continue
            done.add((history.table_id, change.version))
            checked += 1
            assert change.statement and change.steps, change
            parsed = [st for x in parse_statements(change.statement) for st in x.steps]
            assert parsed, change.statement
            if change.dropped:
                assert any(isinstance(st, DropTable) for st in change.steps)
                continue
            table = history.table_at(change.version)
            validate_table(table)
            assert table.version == change.version and table.id == history.table_id
            if previous is not None and not any(
                isinstance(st, CreateTable | CreateTableLike) for st in change.steps
            ):
                # the recorded steps rebuild this version from the one before
                rebuilt = apply_steps(previous, change.steps)
                assert rebuilt.equivalent(table, ignore_order=False), change.statement
                assert [c.id for c in rebuilt.columns] == [c.id for c in table.columns]
            previous = table
    return checked


#: rounds that share one catalog file (each round continues the previous one's work)
ROUNDS_PER_FILE = 10


def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    kills = versions = 0
    for first in range(0, ROUNDS, ROUNDS_PER_FILE):
        path = str(tmp_path / f"crash{first}.db")
        journal = tmp_path / f"journal{first}.sql"
        done: set[tuple[int, int]] = set()
        for round_no in range(first, min(first + ROUNDS_PER_FILE, ROUNDS)):
            versions += _kill_once(path, journal, round_no, rng, done)
            kills += 1
        with Catalog.open(path) as cat:  # one last full pass over the finished file
            assert check(cat, set()) == len(done)
    print(f"\ncrash test: {kills} SIGKILLs, {versions} versions checked, 0 corruptions")
    assert kills == ROUNDS


def _kill_once(
    path: str,
    journal: Path,
    round_no: int,
    rng: random.Random,
    done: set[tuple[int, int]],
) -> int:
    """Start the child on the file, kill it at a random moment of its work, check the file."""
    lines_before = len(journal.read_text().splitlines()) if journal.exists() else 0
    child = Child(
        crash_child.main, path, str(journal), round_no + 1, errors=journal.with_suffix(".err")
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and child.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) > lines_before:
            break
        time.sleep(0.005)
    assert child.poll() is None, child.errors()
    time.sleep(rng.uniform(0.0, 0.25))
    child.kill()
    with Catalog.open(path) as cat:
        checked = check(cat, done)
        intended = _committing(journal.read_text().splitlines())
        got = committed_statements(cat)
        assert got in (intended, intended[:-1]), (len(got), len(intended))
    if got != intended:
        with open(journal, "a", encoding="utf-8") as out:  # the kill interrupted it
            out.write("-- interrupted\n")
    return checked


def _committing(lines: list[str]) -> list[str]:
    """The journal's statements, without those marked as having committed nothing."""
    out: list[str] = []
    for line in lines:
        if line.startswith("-- "):
            out.pop()
        elif line:
            out.append(line)
    return out
