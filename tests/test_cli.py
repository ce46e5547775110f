"""The ``mvdd`` command through typer's runner, and once as a real process."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mvdd import Catalog
from mvdd.cli import VERDICT, Server, app
from mvdd.ddl.dialect import DIALECTS
from mvdd.replicate.demo import WRITES as DEMO_WRITES

runner = CliRunner()

A = "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10) NOT NULL)"
B = "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(20) NOT NULL, b INT NULL)"
C = "CREATE TABLE t (id INT PRIMARY KEY, a INT)"


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_join_prints_the_least_upper_bound(tmp_path: Path) -> None:
    (tmp_path / "b.sql").write_text(B)
    result = run("join", A, str(tmp_path / "b.sql"), "--json")
    assert result.exit_code == 0, result.output
    joined = json.loads(result.output)["joined"]
    assert "VARCHAR(20)" in joined and "`b` INT" in joined
    text = run("join", A, B)
    assert text.exit_code == 0 and "VARCHAR(20)" in text.output


def test_join_conflict_is_a_verdict() -> None:
    result = run("join", A, C, "--json")
    assert result.exit_code == VERDICT
    out = json.loads(result.output)
    assert out["joined"] is None and "`a`" in out["conflict"]
    assert run("join", A, C).exit_code == VERDICT


def test_join_bad_sql_is_an_error() -> None:
    result = run("join", A, "CREATE TABLE (", "--json")
    assert result.exit_code == 1
    assert json.loads(result.output)["error"] == "DDLParseError"
    text = run("join", A, "CREATE TABLE (")
    assert text.exit_code == 1 and "DDLParseError" in text.output


def test_check_verdicts(tmp_path: Path) -> None:
    ok = run("check", A, "ALTER TABLE t MODIFY a VARCHAR(30) NOT NULL, ADD c INT", "--json")
    assert ok.exit_code == 0, ok.output
    report = json.loads(ok.output)
    assert report["compatible"] and report["steps_checked"] == 2
    (tmp_path / "drop.sql").write_text("ALTER TABLE t DROP COLUMN a;\nALTER TABLE t ADD d INT;")
    bad = run("check", A, str(tmp_path / "drop.sql"), "--json")
    assert bad.exit_code == VERDICT
    (violation,) = json.loads(bad.output)["violations"]
    assert violation["kind"] == "drop_column" and violation["column"] == "a"
    # backward: adding a column is fine forward, and fine backward with a default
    assert run("check", A, "ALTER TABLE t ADD z INT", "--mode", "full").exit_code == 0
    text = run("check", A, "ALTER TABLE t MODIFY a VARCHAR(5) NOT NULL")
    assert text.exit_code == VERDICT and "violation" in text.output


@pytest.mark.parametrize(
    ("args", "error"),
    [
        # invalid DDL has no verdict (rows written before would have no value for x)
        (["check", A, "ALTER TABLE t ADD x INT NOT NULL"], "without a DEFAULT"),
        (["check", A, "ALTER TABLE t DROP COLUMN nope"], "no such column"),
        (["check", A, "ALTER TABLE t ADD x INT", "--mode", "sideways"], "'sideways'"),
        (["check", A, "ALTER TABLE"], "ALTER TABLE"),
        (["check"], "give the CREATE TABLE"),
    ],
)
def test_check_errors(args: list[str], error: str) -> None:
    result = run(*args, "--json")
    assert result.exit_code == 1, result.output
    assert error in json.loads(result.output)["message"]


def _catalog(tmp_path: Path) -> Path:
    path = tmp_path / "c.db"
    with Catalog.open(str(path)) as cat:
        cat.execute(A, position=10)
        cat.execute("ALTER TABLE t ADD COLUMN b INT", position=20)
        cat.execute("ALTER TABLE t RENAME COLUMN a TO aa", position=30)
        cat.execute("ALTER TABLE t DROP COLUMN b", position=40)
    return path


def test_check_a_catalog(tmp_path: Path) -> None:
    path = _catalog(tmp_path)
    args = ["check", "t", "--catalog", str(path), "--json"]
    first = run(*args, "--from", "1", "--to", "3")
    assert first.exit_code == 0, first.output
    whole = run(*args)
    assert whole.exit_code == VERDICT
    assert [v["kind"] for v in json.loads(whole.output)["violations"]] == ["drop_column"]
    missing = run("check", "nope", "--catalog", str(path), "--json")
    assert missing.exit_code == 1 and json.loads(missing.output)["error"] == "NoSuchTableError"
    assert run(*args, "--from", "3", "--to", "9").exit_code == 1


def test_history_and_plot(tmp_path: Path) -> None:
    path = _catalog(tmp_path)
    png = tmp_path / "life.png"
    result = run("history", str(path), "t", "--plot", str(png), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert [v["version"] for v in out["versions"]] == [1, 2, 3, 4]
    assert [v["position"] for v in out["versions"]] == [10, 20, 30, 40]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = run("history", str(path), "t")
    assert text.exit_code == 0 and "RENAME COLUMN" in text.output
    # a plot it cannot write: one line naming the file, no traceback
    nowhere = run("history", str(path), "t", "--plot", str(tmp_path / "no" / "x.png"), "--json")
    assert nowhere.exit_code == 1 and json.loads(nowhere.output)["error"] == "StoreError"
    assert "cannot write the plot" in nowhere.output and "x.png" in nowhere.output


def test_compact_of_a_folder_that_is_not_a_lake(tmp_path: Path) -> None:
    """Said at once: the folder is read before Spark starts."""
    done = run("compact", "--lake", str(tmp_path), "--json")
    assert done.exit_code == 1, done.output
    assert json.loads(done.output) == {
        "error": "LakeError",
        "message": f"{str(tmp_path)!r} is not a lake (no lake.json)",
    }


def test_sql_from_a_folder_or_a_file_not_of_text_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "binary.sql").write_bytes(b"\xfa\xfb CREATE")
    for args in (["join", A], ["check", A]):
        for path, error in (("folder", "is a folder"), ("binary.sql", "cannot read SQL")):
            done = run(*args, str(tmp_path / path), "--json")
            assert done.exit_code == 1, done.output
            assert json.loads(done.output)["error"] == "CatalogError"
            assert error in json.loads(done.output)["message"] and path in done.output
    assert run("history", str(path), "nope").exit_code == 1


def test_text_output_shows_hostile_names_as_written(tmp_path: Path) -> None:
    """A name or statement holding rich's markup is printed as written, in a table, in a
    message and in an error."""
    path = tmp_path / "c.db"
    with Catalog.open(str(path)) as cat:
        cat.execute("CREATE TABLE `[red]t[/red]` (`[bold]a` INT)", position=1)
        cat.execute("ALTER TABLE `[red]t[/red]` ADD COLUMN `[i]b[/i]` INT", position=2)
    text = run("history", str(path), "[red]t[/red]")
    assert text.exit_code == 0, text.output
    shown = " ".join(text.output.split())
    assert "history of [red]t[/red]" in shown and "`[i]b[/i]`" in shown, shown
    missing = run("history", str(path), "[bold]nope[/bold]")
    assert missing.exit_code == 1 and "[bold]nope[/bold]" in missing.output, missing.output


def test_show(tmp_path: Path) -> None:
    path = _catalog(tmp_path)
    at = run("show", str(path), "t", "--position", "25", "--json")
    assert at.exit_code == 0, at.output
    assert json.loads(at.output)["version"] == 2
    assert run("show", str(path), "t", "--position", "[", "--json").exit_code == 1
    assert run("show", str(path), "t", "--version", "9").exit_code == 1


def test_reading_commands_make_no_catalog(tmp_path: Path) -> None:
    """``history``, ``show`` and ``check --catalog`` read a catalog: a missing file is an
    error naming it, and no file is made; a SQLite database of something else is refused and
    left as it was."""
    missing = tmp_path / "missing.db"
    app_db = tmp_path / "app.db"
    with contextlib.closing(sqlite3.connect(app_db)) as db, db:
        db.execute("CREATE TABLE t (a INT)")
    before = app_db.read_bytes()
    for args in (["history", "{}", "t"], ["show", "{}", "t"], ["check", "t", "--catalog", "{}"]):
        for path, error in ((missing, "there is no catalog at"), (app_db, "not an mvdd catalog")):
            done = run(*(a.format(path) for a in [*args, "--json"]))
            assert done.exit_code == 1, done.output
            assert json.loads(done.output)["error"] == "StoreError"
            assert error in json.loads(done.output)["message"] and str(path) in done.output
    assert not missing.exists() and app_db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def test_show_for_a_server(tmp_path: Path) -> None:
    """An invisible index in MySQL's words by default, in MariaDB's with ``--for mariadb``."""
    path = tmp_path / "c.db"
    with Catalog.open(str(path)) as cat:
        cat.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY ka (a) IGNORED)")
    sql = {
        server: json.loads(run("show", str(path), "t", "--for", server, "--json").output)["sql"]
        for server in ("mysql", "mariadb")
    }
    assert sql["mysql"].endswith("INDEX `ka` (`a`) INVISIBLE)")
    assert sql["mariadb"] == sql["mysql"].replace("INVISIBLE", "IGNORED")
    assert run("show", str(path), "t", "--for", "oracle").exit_code == 2
    assert {s.value for s in Server} == set(DIALECTS)  # every server the renderer knows


def test_tour(tmp_path: Path) -> None:
    result = run("tour", "--directory", str(tmp_path / "tour"), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out["tables"]) == {"orders", "customers"}
    # its own folder is replaced by the next run; a folder of anything else is refused as it is
    again = run("tour", "--directory", str(tmp_path / "tour"), "--json")
    assert (
        again.exit_code == 0 and json.loads(again.output)["tables"].keys() == out["tables"].keys()
    )
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    refused = run("tour", "--directory", str(tmp_path / "mine"), "--json")
    assert refused.exit_code == 1 and json.loads(refused.output)["error"] == "CatalogError"
    assert "'notes.txt'" in refused.output
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]


@pytest.mark.spark
def test_replay(tmp_path: Path, spark: Any) -> None:
    from mvdd.spark import workload

    workload.write(tmp_path / "events", 100)
    result = run("replay", str(tmp_path / "events"), "--out", str(tmp_path / "out"), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["merged_rows"] == 400 and out["paused"] == []
    assert (tmp_path / "out" / "report.md").exists()
    # the folder of the first run is replaced by the second
    text = run("replay", str(tmp_path / "events"), "--out", str(tmp_path / "out"))
    assert text.exit_code == 0, text.output
    assert "400 rows merged" in text.output and "events" in text.output
    # the logs themselves as the output folder: refused, and not a log removed
    logs = sorted((tmp_path / "events").iterdir())
    into_logs = run("replay", str(tmp_path / "events"), "--out", str(tmp_path / "events"), "--json")
    assert into_logs.exit_code == 1, into_logs.output
    assert "holds what it does not write" in json.loads(into_logs.output)["message"]
    assert sorted((tmp_path / "events").iterdir()) == logs
    # bad input: a clear error, exit code 1
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "s.jsonl").write_text('{"pos": 1, "row": {}}\n')
    bad = run("replay", str(tmp_path / "bad"), "--out", str(tmp_path / "o3"), "--json")
    assert bad.exit_code == 1 and json.loads(bad.output)["error"] == "CatalogError"


@pytest.mark.mariadb
@pytest.mark.spark
def test_demo_is_the_main_job(tmp_path: Path, spark: Any, jdbc: list[str]) -> None:
    """``mvdd demo``: private servers, the Spark bulk copy, the workload as SQL, replicated
    into the target and the lake, both checked."""
    demo = run(
        "demo", "--directory", str(tmp_path / "demo"), "--rows", "300", "--steps", "120", "--json"
    )
    assert demo.exit_code == 0, demo.output
    out = json.loads(demo.output)
    assert out["matches"] and out["differences"] == []
    assert out["copy"] == "spark" and out["lake_matches"] and out["lake_differences"] == []
    assert out["lake_rows"] == out["target_rows"]
    assert out["target_rows"] == sum(out["rows"].values()) > 1200
    assert out["conflicts"] and any("discount" in c for c in out["conflicts"])
    report = (tmp_path / "demo" / "report.md").read_text()
    assert "The target matches the upstream rows" in report
    assert "The lake beside the target holds the same rows" in report
    assert (tmp_path / "demo" / "timeline.png").stat().st_size > 10_000
    # what a later demo replaces: everything this one wrote
    assert {p.name for p in (tmp_path / "demo").iterdir()} == DEMO_WRITES
    assert run("demo", "--rows", "0", "--json").exit_code == 1


def test_a_real_process(tmp_path: Path) -> None:
    """The installed entry point, as a user runs it."""
    (tmp_path / "a.sql").write_text(A)
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "mvdd.cli", "join", str(tmp_path / "a.sql"), B, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "VARCHAR(20)" in json.loads(done.stdout)["joined"]
    conflict = subprocess.run(
        [sys.executable, "-m", "mvdd.cli", "join", A, C],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert conflict.returncode == VERDICT and "conflict" in conflict.stdout


def test_missing_extra_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without PySpark (or matplotlib) the commands that need them say so, exit code 1."""
    monkeypatch.setitem(sys.modules, "mvdd.spark.replay", None)
    monkeypatch.setitem(sys.modules, "mvdd.spark.workload", None)
    monkeypatch.setitem(sys.modules, "mvdd.spark.report", None)
    monkeypatch.setitem(sys.modules, "mvdd.replicate.demo", None)
    result = run("replay", str(tmp_path), "--json")
    assert result.exit_code == 1 and "spark extra" in json.loads(result.output)["message"]
    assert run("demo", "--directory", str(tmp_path / "d")).exit_code == 1
    path = _catalog(tmp_path)
    plot = run("history", str(path), "t", "--plot", str(tmp_path / "p.png"), "--json")
    assert plot.exit_code == 1 and "spark extra" in json.loads(plot.output)["message"]


def test_the_status_table_shows_names_and_warnings_as_text() -> None:
    """Shard names, pause reasons, statements and server warnings are shown as written: a
    hostile name holding rich's markup is not read as markup."""
    from rich.console import Console

    from mvdd.cli import _status_table

    shard = "up1/db.[red]orders[/red]"
    status = {
        "shards": {
            shard: {
                "position": "b.000001:4",
                "version": 2,
                "paused": True,
                "lag_s": 0.5,
                "reason": "column [bold]x[/bold] differs",
                "rows": 7,
                "held": 1,
            },
        },
        "downstream": {
            "ddl_warnings": 2,
            "warned_statements": 1,
            "last_warning": {
                "statement": "ALTER TABLE `[i]t` MODIFY x INT",
                "warnings": ["Data truncated [b]", "w2"],
            },
        },
    }
    console = Console(width=400, record=True)
    console.print(_status_table(status))
    shown = " ".join(console.export_text().split())
    for written in (
        shard,
        "column [bold]x[/bold] differs",
        "ALTER TABLE `[i]t` MODIFY x INT",
        "gave 2 warnings in 1 statement",
        "Data truncated [b]; w2",
    ):
        assert written in shown, shown
    quiet = {"shards": status["shards"], "downstream": {"ddl_warnings": 0}}
    console = Console(width=400, record=True)
    console.print(_status_table(quiet))
    assert "warnings" not in console.export_text()


#: a script as a client runs it: a database made and used, rows, a routine whose body holds DDL
#: (which its CREATE runs none of), between DELIMITER commands
SCRIPT = """-- made by hand
CREATE DATABASE IF NOT EXISTS app;
USE app;
CREATE TABLE `user` (id INT PRIMARY KEY, name VARCHAR(20));
INSERT INTO `user` VALUES (1, 'a;b');
DELIMITER //
CREATE PROCEDURE p() BEGIN DROP TABLE `user`; CREATE TABLE made (a INT); END //
DELIMITER ;
ALTER TABLE `user` ADD COLUMN email VARCHAR(100);
"""


#: a script that renames a table and drops another it made
MOVES = "CREATE TABLE a (x INT); RENAME TABLE a TO b; CREATE TABLE c (y INT); DROP TABLE c"


def test_load_reads_a_script_into_a_catalog(tmp_path: Path) -> None:
    script, path = tmp_path / "script.sql", str(tmp_path / "catalog.db")
    script.write_text(SCRIPT)
    stopped = run("load", path, str(script), "--json")  # (its INSERT is no DDL)
    assert stopped.exit_code == 1, stopped.output
    out = json.loads(stopped.output)
    assert out["error"] == "UnsupportedDDLError" and "statement 4" in out["message"]
    assert out["kept"] == 1  # (the CREATE TABLE before it)
    with Catalog.open(path, create=False) as cat:
        assert cat.tables() == ["app.user"] and cat.version("app.user") == 1
    path = str(tmp_path / "skipping.db")
    loaded = run("load", path, str(script), "--skip-unsupported", "--json")
    assert loaded.exit_code == 0, loaded.output
    out = json.loads(loaded.output)
    assert out["tables"] == ["app.user"]
    assert [(c["table"], c["version"]) for c in out["changes"]] == [
        ("app.user", 1),
        ("app.user", 2),
    ]
    with Catalog.open(path, create=False) as cat:
        assert cat.table("app.user").column_names == ("id", "name", "email")
    # (the text itself, after -- since it starts with a comment's dashes)
    text = run("load", str(tmp_path / "text.db"), "--skip-unsupported", "--replica", "--", SCRIPT)
    assert text.exit_code == 0 and "app.user" in text.output and "version 2" in text.output
    again = run("load", path, str(script), "--skip-unsupported")  # (not idempotent: it says so)
    assert again.exit_code == 1 and "already exists" in again.output
    # (a table the script renamed or dropped is no longer the catalog's: the load succeeds)
    moved = run("load", str(tmp_path / "moved.db"), "--", MOVES)
    assert moved.exit_code == 0, moved.output
    assert "b" in moved.output and "gone" in moved.output
    shown = json.loads(run("show", path, "app.user", "--json").output)["sql"]
    assert shown.startswith("CREATE TABLE `app`.`user` (")  # (a database.table catalog's name)
    one = json.loads(run("show", path, "app.user", "--one-database", "--json").output)["sql"]
    assert one.startswith("CREATE TABLE `app.user` (")  # (a name of one database's, dot and all)


def test_load_reads_a_script_in_the_session_it_starts_in(tmp_path: Path) -> None:
    """``--sql-mode``, ``--time-zone`` and ``--no-explicit-defaults-for-timestamp`` say the
    session the text starts in, whose SETs then make the session of what follows them."""
    text = (
        "CREATE TABLE \"a\" (ts TIMESTAMP NULL DEFAULT '2020-01-01 08:00:00', p TIMESTAMP); "
        "SET sql_mode = DEFAULT, time_zone = '+00:00', explicit_defaults_for_timestamp = ON; "
        "CREATE TABLE `b` (ts TIMESTAMP NULL DEFAULT '2020-01-01 08:00:00', p TIMESTAMP)"
    )
    path = str(tmp_path / "catalog.db")
    options = ["--sql-mode", "ANSI_QUOTES", "--time-zone", "+08:00"]
    loaded = run("load", path, *options, "--no-explicit-defaults-for-timestamp", "--", text)
    assert loaded.exit_code == 0, loaded.output
    with Catalog.open(path, create=False) as cat:
        (a_ts, a_p), (b_ts, b_p) = cat.table("a").columns, cat.table("b").columns
    assert (a_ts.default, b_ts.default) == ("2020-01-01 00:00:00", "2020-01-01 08:00:00")
    assert not a_p.nullable and b_p.nullable  # (the legacy TIMESTAMP, then not)


def test_load_reads_a_files_statements_in_their_client_charset(tmp_path: Path) -> None:
    """A file's statements are read from its bytes in the client charset of their moment:
    ``--charset`` at its start, then as a SET NAMES in it says; a byte a DDL statement's
    charset does not read is named, the statements before it kept."""
    script = tmp_path / "latin1.sql"
    script.write_bytes(
        "CREATE TABLE a (s VARCHAR(5) DEFAULT 'é');".encode("latin1")
        + "SET NAMES utf8mb4; CREATE TABLE b (s VARCHAR(5) DEFAULT 'ą');".encode()
    )
    path = str(tmp_path / "catalog.db")
    loaded = run("load", path, str(script), "--charset", "latin1")
    assert loaded.exit_code == 0, loaded.output
    with Catalog.open(path, create=False) as cat:
        defaults = [cat.table(name).columns[0].default for name in ("a", "b")]
    assert defaults == ["é", "ą"]
    again = run("load", str(tmp_path / "other.db"), str(script), "--json")  # (no --charset)
    assert again.exit_code == 1
    assert json.loads(again.output)["message"].startswith("the statement's byte 0xE9")
