"""How :func:`mvdd.replicate.verify.verify` cuts the target into runs: against a model that asks,
for every row and every run, whether the run's span holds the row's key (the span is what each
shard is read by, so a row in a span other than its run's would be compared twice or missed);
and when it reads in runs at all (a key led by a number on every side)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mvdd.replicate.merge import row_key
from mvdd.replicate.verify import _ranged, _runs, _Shard
from mvdd.shard import ShardGroup


@given(st.lists(st.integers(-5, 5), max_size=40), st.integers(1, 6))
def test_runs_cut_the_rows_where_their_key_changes(keys: list[int], size: int) -> None:
    rows = [(k, i) for i, k in enumerate(sorted(keys))]
    runs = list(_runs(rows, 0, size))
    assert [row for run in runs for row in run.rows] == rows  # every row once, in order
    assert runs[0].low is None and runs[-1].high is None
    for run, after in itertools.pairwise(runs):
        assert len(run.rows) >= size and run.high == after.low  # spans meet
    for run in runs:
        held = {row[0] for row in run.rows}
        for k in keys:  # the run's span holds exactly the run's keys
            inside = (run.low is None or run.low <= k) and (run.high is None or k < run.high)
            assert inside == (k in held)
    spans = [(run.low, run.high) for run in runs]
    for k in range(-6, 7):  # any key, held or not, falls in exactly one span
        holders = [s for s in spans if (s[0] is None or s[0] <= k) and (s[1] is None or k < s[1])]
        assert len(holders) == 1


@pytest.mark.parametrize(
    ("first", "second", "ranged"),
    [
        ("id INT PRIMARY KEY, v TEXT", "id BIGINT PRIMARY KEY, v TEXT", True),
        ("id DECIMAL(6,2) PRIMARY KEY", "id DECIMAL(6,2) PRIMARY KEY", True),
        ("id INT, b INT, PRIMARY KEY (id, b)", "id INT, b INT, PRIMARY KEY (id, b)", True),
        # a string's order is its collation's, the servers' and not Python's
        ("id VARCHAR(10) PRIMARY KEY", "id VARCHAR(10) PRIMARY KEY", False),
        (
            "id INT, b VARCHAR(9), PRIMARY KEY (b, id)",
            "id INT, b VARCHAR(9), PRIMARY KEY (b, id)",
            False,
        ),
        # no key the join holds on every shard: one run
        ("id INT PRIMARY KEY", "id INT NOT NULL", False),
        ("id DATE PRIMARY KEY", "id DATE PRIMARY KEY", False),  # (a zero date is read as text)
    ],
)
def test_runs_need_a_key_led_by_a_number(first: str, second: str, ranged: bool) -> None:
    group = ShardGroup(
        "t", {"a/d.t1": f"CREATE TABLE t1 ({first})", "b/d.t2": f"CREATE TABLE t2 ({second})"}
    )
    key = row_key(group.joined) or ()
    shards = [_Shard.of(group, shard, key) for shard in group.shards]
    assert _ranged(group.joined, shards) is ranged
