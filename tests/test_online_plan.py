"""The states an online change walks through, and which may serve at once."""

from __future__ import annotations

import pytest

from mvdd import DDLError, UnsupportedDDLError, parse_table
from mvdd.online import ADD, DROP, State, may_coexist, plan

T = parse_table(
    "CREATE TABLE t (id INT NOT NULL, a INT, b VARCHAR(10), PRIMARY KEY (id), KEY ka (a), "
    "KEY kab (a, b))"
)


def states(versions: list, kind: str, name: str) -> list[str]:
    out = []
    for v in versions:
        el = v.find_column(name) if kind == "column" else v.find_index(name)
        out.append(el.state.value if el is not None else "absent")
    return out


@pytest.mark.parametrize(
    ("sql", "kind", "name", "expected"),
    [
        ("ALTER TABLE t ADD COLUMN c INT", "column", "c", [s.value for s in ADD[1:]]),
        ("ALTER TABLE t ADD INDEX kb (b)", "index", "kb", [s.value for s in ADD[1:]]),
        ("CREATE INDEX kb ON t (b(3))", "index", "kb", [s.value for s in ADD[1:]]),
        ("ALTER TABLE t ADD UNIQUE KEY ub (b)", "index", "ub", [s.value for s in ADD[1:]]),
        ("ALTER TABLE t DROP INDEX ka", "index", "ka", [s.value for s in DROP[1:]]),
        ("DROP INDEX ka ON t", "index", "ka", [s.value for s in DROP[1:]]),
        ("ALTER TABLE t DROP COLUMN b, DROP INDEX kab", "column", "b", [s.value for s in DROP[1:]]),
    ],
)
def test_walks(sql: str, kind: str, name: str, expected: list[str]) -> None:
    versions = plan(T, sql)
    assert states(versions, kind, name) == expected
    assert [v.version for v in versions] == list(range(2, 2 + len(expected)))
    # everything else is untouched in every version
    for v in versions:
        assert v.column("id").state == State.PUBLIC


def test_elements_of_one_statement_move_in_lockstep() -> None:
    versions = plan(T, "ALTER TABLE t ADD COLUMN c INT, ADD INDEX kc (c)")
    assert states(versions, "column", "c") == states(versions, "index", "kc")
    # a dropped column's single-column index goes with it
    versions = plan(
        parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY ka (a))"),
        "ALTER TABLE t DROP COLUMN a",
    )
    assert states(versions, "column", "a") == states(versions, "index", "ka")


def test_plain_changes_are_one_version() -> None:
    (v,) = plan(T, "ALTER TABLE t MODIFY a BIGINT, RENAME COLUMN b TO b2")
    assert v.column("a").type.kind == "BIGINT" and v.find_column("b2") is not None


@pytest.mark.parametrize(
    ("sql", "error"),
    [
        ("ALTER TABLE t ADD COLUMN c INT, DROP INDEX ka", UnsupportedDDLError),
        ("ALTER TABLE t DROP COLUMN b", UnsupportedDDLError),  # would narrow kab
        ("ALTER TABLE u ADD COLUMN c INT", UnsupportedDDLError),
        ("DROP TABLE t", UnsupportedDDLError),
        ("ALTER TABLE t ADD COLUMN a INT", DDLError),
        ("ALTER TABLE t ADD", DDLError),
        # ORDER BY names a column the table has before the change, as in the catalog
        ("ALTER TABLE t ADD COLUMN c INT, ORDER BY c", DDLError),
        ("ALTER TABLE t ADD COLUMN c INT; ALTER TABLE t ADD COLUMN d INT", UnsupportedDDLError),
    ],
)
def test_refused(sql: str, error: type) -> None:
    with pytest.raises(error):
        plan(T, sql)


ADJACENT_ADD = {(ADD[i], ADD[i + 1]) for i in range(len(ADD) - 1)}
ADJACENT_DROP = {(DROP[i], DROP[i + 1]) for i in range(len(DROP) - 1)}


@pytest.mark.parametrize("a", list(State))
@pytest.mark.parametrize("b", list(State))
@pytest.mark.parametrize("change", ["add", "drop"])
def test_may_coexist(a: State, b: State, change: str) -> None:
    pairs = ADJACENT_ADD if change == "add" else ADJACENT_DROP
    order = ADD if change == "add" else DROP
    expected = a in order and b in order and (a == b or (a, b) in pairs or (b, a) in pairs)
    assert may_coexist(a, b, change=change) == expected
    assert may_coexist(a, b, change=change) == may_coexist(b, a, change=change)


def test_f1_pairs() -> None:
    """The seed's examples: absent/write-only and delete-only/public may not serve together."""
    assert not may_coexist(State.ABSENT, State.WRITE_ONLY, change="add")
    assert not may_coexist(State.DELETE_ONLY, State.PUBLIC, change="add")
    assert may_coexist(State.WRITE_ONLY, State.DELETE_ONLY, change="add")
    with pytest.raises(DDLError):
        may_coexist(State.ABSENT, State.ABSENT, change="rename")
