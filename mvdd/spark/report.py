"""Reports of a replay: a markdown summary and a PNG timeline of every column's life on each
shard and downstream (matplotlib, drawn off-screen)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mvdd.model.names import fold_name
from mvdd.spark.markdown import cell, code, fenced, prose

if TYPE_CHECKING:
    from mvdd.shard import ShardGroup


class Run(Protocol):
    """What a report is written from (a replay's result; see :mod:`mvdd.spark.replay`)."""

    out: Path
    target: str
    shards: dict[str, Any]
    downstream: list[tuple[Any, str]]
    paused: frozenset[str]
    merged_rows: int
    checksum: int
    timeline: dict[str, list[tuple[Any, frozenset[str]]]]
    server: dict[str, Any] | None
    seconds: float


def write_report(result: Run, group: ShardGroup) -> None:
    """Write ``report.md`` and ``timeline.png`` into the replay's output folder."""
    plot_timeline(result.timeline, result.out / "timeline.png", target=result.target)
    lines = [
        f"# Replay of {code(result.target)}",
        "",
        f"{sum(s.events for s in result.shards.values()):,} events from "
        f"{len(result.shards)} shards in {result.seconds:.1f} s; "
        f"{len(result.downstream)} downstream statements; {result.merged_rows:,} rows merged "
        f"(checksum {result.checksum}).",
        "",
        "| shard | events | rows | DDL | rows while paused | conflicts |",
        "|---|---|---|---|---|---|",
    ]
    for name, s in result.shards.items():
        conflicts = "<br>".join(prose(c) for c in s.conflicts) or "—"
        lines.append(
            f"| {cell(code(name))} | {s.events:,} | {s.rows:,} | {s.ddl} | {s.paused_rows:,} "
            f"| {cell(conflicts)} |"
        )
    if result.paused:
        lines += [
            "",
            "Still paused at the end (rows not merged): "
            f"{', '.join(code(name) for name in sorted(result.paused))}.",
        ]
    lines += ["", "## Joined schema", "", *fenced(group.joined.to_sql(), "sql"), ""]
    if result.server is not None:
        verdict = "matches" if result.server.get("matches") else "DOES NOT match"
        lines += [
            "## Downstream server",
            "",
            f"The table on the server {verdict} the joined schema and the merged rows: "
            f"{result.server['rows']:,} rows, checksum {result.server['checksum']}"
            + (
                f"; differences: {prose(str(result.server['differences']))}"
                if result.server["differences"]
                else ""
            )
            + ".",
            "",
        ]
    ddl = "\n".join(f"-- after position {pos}\n{sql};" for pos, sql in result.downstream)
    lines += ["## Downstream DDL", "", *fenced(ddl, "sql"), "", "![timeline](timeline.png)", ""]
    (result.out / "report.md").write_text("\n".join(lines))


def column_spans(
    snapshots: Sequence[tuple[Any, Collection[str]]], end: Any
) -> dict[str, list[tuple[Any, Any]]]:
    """Where each column exists along a lane's snapshots (``(position, columns)``, positions
    rising; the last lasts to ``end``): its folded name -> its spans ``(start, stop)``, a run
    of snapshots holding it one span.

    >>> column_spans([(0, {"a"}), (5, {"a", "B"}), (9, {"b"})], 12)
    {'a': [(0, 9)], 'b': [(5, 12)]}
    """
    spans: dict[str, list[tuple[Any, Any]]] = {}
    for i, (pos, cols) in enumerate(snapshots):
        stop = snapshots[i + 1][0] if i + 1 < len(snapshots) else end
        for key in {fold_name(c) for c in cols}:
            held = spans.setdefault(key, [])
            if held and held[-1][1] == pos:
                held[-1] = (held[-1][0], stop)
            else:
                held.append((pos, stop))
    return spans


def plot_timeline(
    timeline: dict[str, list[tuple[Any, frozenset[str]]]],
    path: Any,
    *,
    target: str,
    axis: str = "position",
) -> None:
    """Every column's lifetime per lane (each shard, then the target): a bar per column per
    lane where it exists, along ``axis`` (positions of a replay, versions of a table); the
    last snapshot of each lane lasts to the end of the axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    end = max((p for snaps in timeline.values() for p, _ in snaps if p is not None), default=1)
    end = end + max(1, end // 50) if axis == "position" else end + 1
    names: list[str] = []
    for snapshots in timeline.values():
        for _, cols in snapshots:
            for c in sorted(cols):
                if fold_name(c) not in (fold_name(n) for n in names):
                    names.append(c)
    lanes = list(timeline)
    height = 0.8 / max(len(lanes), 1)
    colors = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(12, 0.5 + 0.45 * len(names)))
    for li, lane in enumerate(lanes):
        # one artist a column and lane (one a snapshot made a long replay's plot slow: 7.5 s
        # where it takes 0.35, the picture the same to the pixel)
        spans = column_spans([(p, cols) for p, cols in timeline[lane] if p is not None], end)
        for ni, name in enumerate(names):
            held = spans.get(fold_name(name))
            if held:
                ax.broken_barh(
                    [(a, b - a) for a, b in held],
                    (ni + li * height - 0.4, height * 0.9),
                    facecolors=colors(li % 10) if lane != target else "black",
                )
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel(axis)
    ax.set_title(
        "column lifetimes: each shard, and the target (black)"
        if len(lanes) > 1
        else f"column lifetimes of `{target}` by {axis}"
    )
    handles = [
        plt.Rectangle((0, 0), 1, 1, color=colors(i % 10) if lane != target else "black")
        for i, lane in enumerate(lanes)
    ]
    ax.legend(handles, lanes, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
