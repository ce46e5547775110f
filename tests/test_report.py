"""The replay report's timeline: each column's spans along a lane, against a model that asks
every point of the axis which snapshot holds it."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mvdd.model.names import fold_name
from mvdd.spark.report import column_spans

NAMES = ["a", "A", "b", "c", "é", "É"]


@st.composite
def lanes(draw: st.DrawFn) -> tuple[list[tuple[int, frozenset[str]]], int]:
    """A lane's snapshots at rising positions, and the end of the axis past the last."""
    steps = draw(st.lists(st.integers(1, 5), max_size=12))
    positions = [sum(steps[: i + 1]) for i in range(len(steps))]
    snapshots = [(p, draw(st.frozensets(st.sampled_from(NAMES), max_size=4))) for p in positions]
    end = (positions[-1] if positions else 0) + draw(st.integers(1, 5))
    return snapshots, end


@given(lanes())
def test_spans_cover_each_point_as_its_snapshot_holds_it(lane: Any) -> None:
    snapshots, end = lane
    spans = column_spans(snapshots, end)
    start = snapshots[0][0] if snapshots else end
    assert set(spans) <= {fold_name(n) for n in NAMES}
    for key in {fold_name(n) for n in NAMES}:
        held = spans.get(key, [])
        # rising and apart: a run of snapshots holding the column is one span, never two
        assert all(a < b for a, b in held)
        assert all(x[1] < y[0] for x, y in itertools.pairwise(held))
        for point in range(start, end):
            active = [cols for p, cols in snapshots if p <= point][-1]
            want = key in {fold_name(c) for c in active}
            assert any(a <= point < b for a, b in held) == want, (key, point, held)
        assert all(start <= a and b <= end for a, b in held)
