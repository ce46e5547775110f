"""The main job: the demo workload replayed end to end, with a real MariaDB as the downstream.

The final table there must be the joined schema and hold exactly the rows of all shards: the
count and checksum computed by the server equal Spark's over the merged Parquet, and the rows
themselves equal, one by one."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from mvdd import CatalogError, DDLError, InvalidValueError, StoreError
from mvdd.ddl import parse_table
from mvdd.ddl.dml import show_create
from tests.conftest import CI
from tests.support.mariadb import MariaDB

pytestmark = [pytest.mark.spark, pytest.mark.mariadb]

if not CI:
    pytest.importorskip("pyspark", reason="pyspark is not installed; `make test` installs it")
from mvdd.spark import workload  # noqa: E402
from mvdd.spark.replay import count_events, replay  # noqa: E402

ROWS = 1500 if CI else 600


def _url(server: MariaDB, database: str) -> str:
    return f"mysql://root@localhost/{database}?unix_socket={server.socket}"


def _norm(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if value is None:
        return None
    return str(value) if not isinstance(value, int) else value


def test_demo_workload_lands_on_mariadb(tmp_path: Path, spark: Any, mariadb: MariaDB) -> None:
    source = tmp_path / "events"
    workload.write(source, ROWS)
    assert count_events(source) == 4 * ROWS + 4 + len(workload.SCRIPT)
    with mariadb.database() as db:
        result = replay(source, tmp_path / "out", target="orders", downstream=_url(mariadb, db))
        assert result.server is not None
        assert result.server["equivalent"], result.server["differences"]
        assert result.server["rows"] == result.merged_rows == 4 * ROWS
        assert result.server["checksum"] == result.checksum
        assert result.server["matches"]
        assert not result.paused
        # the conflict happened and was resolved: shard 2 held rows while paused
        assert len(result.shards["orders_02"].conflicts) == 1
        assert result.shards["orders_02"].paused_rows > 0
        # the rows themselves, one by one
        names = [c.name for c in result.joined.public_columns]
        merged = spark.read.parquet(str(tmp_path / "out" / "merged")).select(*names).collect()
        expected = sorted(tuple(_norm(v) for v in row) for row in merged)
        with mariadb.connect(db) as conn, conn.cursor() as cur:
            cur.execute(show_create("orders"))
            live = parse_table(cur.fetchone()[1])
            cur.execute("SELECT " + ", ".join(f"`{n}`" for n in names) + " FROM orders")
            actual = sorted(tuple(_norm(v) for v in row) for row in cur.fetchall())
    assert live.equivalent(result.joined)
    assert actual == expected
    # every id of every shard exactly once
    assert sorted(r[0] for r in actual) == sorted(
        (s + 1) * 10_000_000 + n for s in range(4) for n in range(ROWS)
    )
    # the files the job promises
    out = tmp_path / "out"
    assert (out / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (out / "report.md").read_text()
    assert "matches the joined schema" in report and "orders_02" in report
    ddl = (out / "downstream.sql").read_text()
    assert ddl.count(";\n") == len(result.downstream) and "`total`" in ddl


def test_existing_downstream_table_is_refused_unless_replace(
    tmp_path: Path, spark: Any, mariadb: MariaDB
) -> None:
    source = tmp_path / "events"
    workload.write(source, 50)
    with mariadb.database() as db:
        with mariadb.connect(db) as conn, conn.cursor() as cur:
            cur.execute("CREATE TABLE orders (keep INT)")
            cur.execute("INSERT INTO orders VALUES (7)")
        with pytest.raises(StoreError, match="already exists"):
            replay(source, tmp_path / "out", target="orders", downstream=_url(mariadb, db))
        with mariadb.connect(db) as conn, conn.cursor() as cur:
            cur.execute("SELECT * FROM orders")
            assert cur.fetchall() == ((7,),)  # untouched
        result = replay(
            source, tmp_path / "out", target="orders", downstream=_url(mariadb, db), replace=True
        )
        assert result.server is not None and result.server["matches"]


def test_bad_downstream_url(tmp_path: Path, spark: Any) -> None:
    source = tmp_path / "events"
    workload.write(source, 10)
    with pytest.raises(StoreError, match="mysql://"):
        replay(source, tmp_path / "out", downstream="postgres://x/y")
    with pytest.raises(StoreError, match="cannot connect"):
        replay(source, tmp_path / "out", downstream="mysql://root@localhost/x?unix_socket=/nope")


def _log(folder: Path, name: str, events: list[dict[str, Any]]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


CREATE = "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(4))"


@pytest.mark.parametrize(
    ("events", "error", "match"),
    [
        ([], CatalogError, "first event"),
        ([{"pos": 1, "row": {"id": 1}}], CatalogError, "first event"),
        ([{"pos": 1, "ddl": CREATE}, {"pos": 1, "row": {"id": 1}}], CatalogError, "increase"),
        ([{"pos": 1, "ddl": CREATE}, {"row": {"id": 1}}], CatalogError, "pos"),
        (
            [{"pos": 1, "ddl": CREATE}, {"pos": 2, "row": {"id": 1, "nope": 2}}],
            InvalidValueError,
            "unknown column.*shard `s1`, position 2",
        ),
        (
            [{"pos": 1, "ddl": CREATE}, {"pos": 2, "row": {"id": 1, "a": "too long"}}],
            InvalidValueError,
            "too long.*shard `s1`, position 2, table `t`, column `a`",
        ),
        (
            [{"pos": 1, "ddl": CREATE}, {"pos": 2, "ddl": "ALTER TABLE t DROP COLUMN zz"}],
            DDLError,
            r"shard `s1`, position 2, .*DROP COLUMN zz",
        ),
    ],
)
def test_malformed_logs_name_the_place(
    tmp_path: Path, spark: Any, events: list[dict[str, Any]], error: type, match: str
) -> None:
    _log(tmp_path / "in", "s1", events)
    with pytest.raises(error, match=match):
        replay(tmp_path / "in", tmp_path / "out")


def test_no_logs(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(CatalogError, match="no event logs"):
        replay(tmp_path / "empty", tmp_path / "out")


def test_the_report_shows_hostile_names_as_written(tmp_path: Path, spark: Any) -> None:
    """Shards named with Markdown's markup, one of them paused by a conflict whose reason names
    a column holding markup: the report's table keeps one row per shard, each name and the
    reason shown as written (read back with a CommonMark parser with GitHub's tables)."""
    from markdown_it import MarkdownIt

    create = "CREATE TABLE t (id INT PRIMARY KEY, `*c*|d` VARCHAR(4))"
    names = ["a|b", "`c`"]
    _log(tmp_path / "in", names[0], [{"pos": 1, "ddl": create}, {"pos": 2, "row": {"id": 1}}])
    _log(
        tmp_path / "in",
        names[1],
        [
            {"pos": 1, "ddl": create},
            {"pos": 2, "ddl": "ALTER TABLE t MODIFY `*c*|d` INT"},
            {"pos": 3, "row": {"id": 2}},
        ],
    )
    result = replay(tmp_path / "in", tmp_path / "out", target="m|*x*")
    assert result.shards[names[1]].conflicts
    tokens = (
        MarkdownIt("commonmark").enable("table").parse((tmp_path / "out" / "report.md").read_text())
    )
    title = tokens[1].children or []
    assert [(t.type, t.content) for t in title] == [
        ("text", "Replay of "),
        ("code_inline", "m|*x*"),
    ]
    cells = [tokens[i + 1].children or [] for i, t in enumerate(tokens) if t.type == "td_open"]
    assert len(cells) == 2 * 6  # two rows of six cells
    rows = {row[0][0].content: row for row in (cells[:6], cells[6:])}
    assert sorted(rows) == sorted(names) and [t.type for t in rows[names[1]][0]] == ["code_inline"]
    reason = "".join(t.content for t in rows[names[1]][5] if t.type == "text")
    assert reason == result.shards[names[1]].conflicts[0] and "`*c*|d`" in reason
