"""The ``mvdd`` command (typer + rich).

- ``mvdd replicate``: shard tables on upstream servers into one downstream table, exactly once
  (see :mod:`mvdd.replicate`); ``mvdd status --state DIR``: where each shard stands.
- ``mvdd demo``: private MariaDB servers, the bundled workload run on them as SQL, replicated
  (see :mod:`mvdd.replicate.demo`); ``mvdd replay DIR``: replay offline event logs
  (see :mod:`mvdd.spark.replay`).
- ``mvdd join FILE…``: the joined schema of several shards' CREATE TABLE statements.
- ``mvdd check INITIAL CHANGES…``: are the changes forward / backward / fully compatible?
  (``--catalog`` judges versions of a catalog's table instead.)
- ``mvdd history CATALOG TABLE``: a table's versions (``--plot`` draws its columns' lifetimes).
- ``mvdd show CATALOG TABLE``: one version as CREATE TABLE. ``mvdd tour``: a scripted scenario
  on a SQLite catalog file, every version printed.
- ``mvdd load CATALOG SQL``: a script or a dump read into a catalog (``--skip-unsupported``
  passes over what is no DDL mvdd models).

Every command takes ``--json`` for machines. Exit codes: 0 done; 1 bad input or a failure (one
clear line naming the error); 2 bad usage; 3 a negative verdict (incompatible changes, a join
conflict, a downstream that does not match).

SQL arguments are either SQL text or the path of a file holding it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.syntax import Syntax
from rich.table import Table as RichTable

from mvdd.catalog import Catalog, Change
from mvdd.compat import check as check_changes
from mvdd.compat import check_versions
from mvdd.ddl.render import render_table
from mvdd.ddl.statement import for_server
from mvdd.errors import CatalogError, JoinConflictError, MvddError, StoreError
from mvdd.join import join as join_tables
from mvdd.store.folder import replace_folder

#: exit code of a negative verdict (incompatible, conflict, mismatch)
VERDICT = 3


class MissingExtraError(RuntimeError):
    """A command needs an optional dependency that is not installed."""


#: what ``mvdd --help`` says first (the module's first line names its tools, not the command)
HELP = (
    "mvdd, a multi-version data dictionary: replicate shard tables into one, and read, check "
    "and join the versions of a table's schema."
)
app = typer.Typer(
    add_completion=False, no_args_is_help=True, help=HELP, rich_markup_mode="markdown"
)
console = Console()
#: what ``mvdd tour`` writes into its folder (a SQLite file and its companions)
TOUR_WRITES = frozenset(f"catalog.db{end}" for end in ("", "-wal", "-shm", "-journal"))
#: the reading commands open an existing catalog only: a missing file is an error, not a new
#: catalog, and a SQLite database of something else is refused untouched
CATALOG_HELP = "an existing catalog: a SQLite file, or mysql://user:password@host:port/database"

TOUR_SCRIPT: list[tuple[str, Any]] = [
    (
        "CREATE TABLE orders (id BIGINT NOT NULL AUTO_INCREMENT, customer VARCHAR(64) NOT NULL, "
        "total DECIMAL(10,2) NOT NULL DEFAULT 0.00, PRIMARY KEY (id))",
        ("mysql-bin.000001", 120),
    ),
    (
        "ALTER TABLE orders ADD COLUMN status ENUM('new','paid') NOT NULL DEFAULT 'new' "
        "AFTER customer",
        ("mysql-bin.000001", 480),
    ),
    (
        "ALTER TABLE orders MODIFY total DECIMAL(12,2) NOT NULL DEFAULT 0.00, "
        "ADD INDEX idx_status (status)",
        ("mysql-bin.000001", 910),
    ),
    ("ALTER TABLE orders RENAME COLUMN customer TO customer_name", ("mysql-bin.000002", 40)),
    # an online schema change tool at work: copy, alter the copy, swap
    ("CREATE TABLE `_orders_gho` LIKE orders", ("mysql-bin.000002", 300)),
    (
        "ALTER TABLE `_orders_gho` ADD COLUMN placed_at DATETIME(3) NOT NULL "
        "DEFAULT CURRENT_TIMESTAMP(3)",
        ("mysql-bin.000002", 350),
    ),
    ("RENAME TABLE orders TO `_orders_del`, `_orders_gho` TO orders", ("mysql-bin.000002", 900)),
    ("DROP TABLE `_orders_del`", ("mysql-bin.000002", 950)),
    (
        "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(100), "
        "CONSTRAINT named CHECK (name <> ''))",
        ("mysql-bin.000003", 10),
    ),
]


def _fail(err: Exception, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"error": type(err).__name__, "message": str(err)}))
    else:
        console.print(f"[bold red]{type(err).__name__}[/]: {escape(str(err))}")
    raise typer.Exit(code=1)


def _change_dict(change: Change) -> dict[str, Any]:
    return {
        "table": change.table,
        "version": change.version,
        "statement": change.statement,
        "steps": [str(st) for st in change.steps],
        "position": change.position,
        "at": change.at.isoformat(),
        "dropped": change.dropped,
    }


@app.command()
def history(
    catalog: str = typer.Argument(..., help=CATALOG_HELP),
    table: str = typer.Argument(..., help="the table"),
    plot: Path | None = typer.Option(
        None, help="also draw every column's lifetime over the versions into this PNG"
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """A table's versions: statement, steps, position and time."""
    try:
        with Catalog.open(catalog, create=False) as cat:
            changes = cat.history(table)
            lifetimes = [
                (c.version, frozenset(cat.table(table, version=c.version).column_names))
                for c in changes
                if not c.dropped
            ]
    except MvddError as err:
        _fail(err, as_json)
        return
    if plot is not None:
        try:
            from mvdd.spark.report import plot_timeline
        except ImportError as err:
            _fail(
                MissingExtraError(
                    f"--plot needs the spark extra: pip install 'mvdd[spark]' ({err})"
                ),
                as_json,
            )
            return
        try:
            plot_timeline({table: lifetimes}, plot, target=table, axis="version")
        except OSError as err:
            _fail(StoreError(f"cannot write the plot {str(plot)!r}: {err}"), as_json)
            return
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "table": table,
                    "versions": [_change_dict(c) for c in changes],
                    "plot": None if plot is None else str(plot),
                }
            )
        )
        return
    out = RichTable(title=escape(f"history of {table}"))
    for col in ("version", "position", "at", "statement"):
        out.add_column(col)
    for c in changes:
        out.add_row(
            str(c.version),
            escape(str(c.position)),
            c.at.strftime("%Y-%m-%d %H:%M:%S"),
            escape(c.statement),
        )
    console.print(out)
    if plot is not None:
        console.print(escape(f"column lifetimes drawn in {plot}"))


class Server(StrEnum):
    """The servers ``show --for`` renders for: the keys of :data:`mvdd.ddl.dialect.DIALECTS`."""

    mysql = "mysql"
    mariadb = "mariadb"


@app.command()
def show(
    catalog: str = typer.Argument(..., help=CATALOG_HELP),
    table: str = typer.Argument(..., help="the table"),
    version: int | None = typer.Option(None, help="a version (default: the current one)"),
    position: str | None = typer.Option(
        None, help='a position, as JSON: 42 or ["mysql-bin.000002", 100]'
    ),
    server: Server = typer.Option(
        Server.mysql,
        "--for",
        help="the server whose words to use (MariaDB says IGNORED for an invisible index)",
    ),
    one_database: bool = typer.Option(
        False,
        "--one-database",
        help="the catalog tracks one database: its names hold none (a dot is the table's)",
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """One version of a table as CREATE TABLE, in MySQL's words or (--for mariadb) MariaDB's;
    a `database.table` catalog's name as the two (`shop`.`orders`)."""
    try:
        pos = None
        if position is not None:
            raw = json.loads(position)
            pos = tuple(raw) if isinstance(raw, list) else raw
        with Catalog.open(catalog, create=False) as cat:
            found = cat.table(table, version=version, position=pos)
    except (MvddError, ValueError) as err:
        _fail(err, as_json)
        return
    text = for_server(render_table(found, qualified=not one_database), server.value)
    if as_json:
        typer.echo(json.dumps({"table": found.name, "version": found.version, "sql": text}))
    else:
        console.print(Syntax(text, "sql", word_wrap=True, theme="ansi_dark"))


@app.command()
def tour(
    directory: Path = typer.Option(Path("tour-output"), help="where the catalog file is written"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Run a scripted scenario on a SQLite catalog file and print every table version."""
    path = directory / "catalog.db"
    try:
        replace_folder(directory, TOUR_WRITES, "mvdd tour")
        with Catalog.open(str(path)) as cat:
            for sql, position in TOUR_SCRIPT:
                cat.execute(sql, position=position)
        # reopen: everything below is read back from the file
        with Catalog.open(str(path)) as cat:
            report = {
                name: [
                    {
                        **_change_dict(c),
                        "schema": None
                        if c.dropped
                        else cat.table(name, version=c.version).to_sql(),
                    }
                    for c in cat.history(name)
                ]
                for name in cat.tables()
            }
            decoded = cat.table("orders", position=("mysql-bin.000002", 100)).column_names
    except MvddError as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(
            json.dumps({"catalog": str(path), "tables": report, "orders_at_000002_100": decoded})
        )
        return
    console.rule(f"[bold]mvdd tour[/] — catalog file {escape(str(path))}")
    for name, versions in report.items():
        for v in versions:
            console.print(
                f"[bold cyan]{escape(name)}[/] version [bold]{v['version']}[/] "
                f"at position {escape(str(tuple(v['position'])))}: "
                f"[dim]{escape(v['statement'])}[/]"
            )
            for step in v["steps"]:
                console.print(escape(f"    step: {step}"))
            if v["schema"]:
                console.print(Syntax(v["schema"], "sql", word_wrap=True, theme="ansi_dark"))
    console.print(
        f"\nAn event at position ('mysql-bin.000002', 100) of `orders` decodes with columns "
        f"{list(decoded)} (the newest version recorded strictly before it)."
    )


def _sql(value: str) -> str:
    """SQL text, or the contents of the file ``value`` names (UTF-8). CatalogError for a
    folder, or a file that cannot be read as text."""
    data = _script(value)
    try:
        return data if isinstance(data, str) else data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CatalogError(f"cannot read SQL from the file {value!r}: {err}") from None


def _script(value: str) -> str | bytes:
    """SQL text, or the bytes of the file ``value`` names (a script or a dump, read as its
    client reads it: each statement in the client charset of its moment). CatalogError for a
    folder, or a file that cannot be read."""
    path = Path(value)
    if "\n" in value or len(value) >= 4096 or not path.exists():
        return value
    if path.is_dir():
        raise CatalogError(f"{value!r} is a folder, not SQL or a file of SQL")
    try:
        return path.read_bytes()
    except OSError as err:
        raise CatalogError(f"cannot read SQL from the file {value!r}: {err}") from None


def _exit(code: int) -> None:
    if code:
        raise typer.Exit(code=code)


@app.command()
def join(
    tables: list[str] = typer.Argument(..., help="CREATE TABLE statements (SQL or files)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """The joined (least upper bound) schema of several shards' tables, or the conflict."""
    try:
        joined = join_tables(*(_sql(t) for t in tables))
    except JoinConflictError as err:
        if as_json:
            typer.echo(json.dumps({"joined": None, "conflict": str(err)}))
        else:
            console.print(f"[bold red]conflict[/]: {escape(str(err))}")
        raise typer.Exit(code=VERDICT) from None
    except MvddError as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(json.dumps({"joined": joined.to_sql(), "conflict": None}))
    else:
        console.print(Syntax(joined.to_sql(), "sql", word_wrap=True, theme="ansi_dark"))


@app.command()
def check(
    initial: str | None = typer.Argument(None, help="the CREATE TABLE (SQL or a file)"),
    changes: list[str] | None = typer.Argument(None, help="ALTER statements (SQL or files)"),
    mode: str = typer.Option("forward", help="forward, backward or full"),
    catalog: str | None = typer.Option(
        None, help=f"judge a catalog's table instead (INITIAL is the table's name): {CATALOG_HELP}"
    ),
    from_version: int = typer.Option(1, "--from", help="with --catalog: the version I"),
    to_version: int | None = typer.Option(
        None, "--to", help="with --catalog: the version C (default: the current one)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Are the changes compatible (forward: rows written under the new schema are readable
    under the old one)? Exit code 3 when they are not."""
    try:
        if initial is None:
            raise CatalogError("give the CREATE TABLE (or, with --catalog, the table's name)")
        if catalog is not None:
            if changes:
                raise CatalogError("with --catalog, give only the table's name")
            with Catalog.open(catalog, create=False) as cat:
                top = to_version if to_version is not None else cat.table(initial).version
                report = check_versions(cat, initial, from_version, top, mode=mode)
        else:
            report = check_changes(_sql(initial), [_sql(c) for c in changes or []], mode=mode)
    except (MvddError, ValueError) as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "table": report.table,
                    "mode": report.mode,
                    "compatible": report.compatible,
                    "steps_checked": report.steps_checked,
                    "violations": [
                        {
                            "kind": v.kind,
                            "table": v.table,
                            "column": v.column,
                            "column_id": v.column_id,
                            "step": v.step,
                            "message": v.message,
                            "direction": v.direction,
                            "version": v.version,
                        }
                        for v in report.violations
                    ],
                }
            )
        )
    else:
        colour = "green" if report.compatible else "red"
        console.print(f"[{colour}]{escape(str(report))}[/]")
    _exit(0 if report.compatible else VERDICT)


def _replay_progress(total: int) -> tuple[Progress, Any]:
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )
    events = bar.add_task("events", total=total)
    rows = bar.add_task("rows", total=None)
    pending = {"events": 0, "rows": 0}

    def tick(what: str, n: int) -> None:
        pending[what] += n
        if pending[what] >= 2000:
            bar.advance(events if what == "events" else rows, pending[what])
            pending[what] = 0

    def done() -> None:
        bar.advance(events, pending["events"])
        bar.advance(rows, pending["rows"])
        pending["events"] = pending["rows"] = 0

    tick.done = done  # type: ignore[attr-defined]
    return bar, tick


def _run_replay(
    source: Path, out: Path, target: str, downstream: str | None, replace: bool, as_json: bool
) -> None:
    try:
        from mvdd.spark.replay import count_events, replay
    except ImportError as err:
        _fail(
            MissingExtraError(f"replay needs the spark extra: pip install 'mvdd[spark]' ({err})"),
            as_json,
        )
        return
    try:
        if as_json:
            result = replay(source, out, target=target, downstream=downstream, replace=replace)
        else:
            bar, tick = _replay_progress(count_events(source))
            with bar:
                result = replay(
                    source,
                    out,
                    target=target,
                    downstream=downstream,
                    replace=replace,
                    progress=tick,
                )
                tick.done()
    except MvddError as err:
        _fail(err, as_json)
        return
    summary = result.summary()
    matches = result.server is None or bool(result.server.get("matches"))
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        _exit(0 if matches else VERDICT)
        return
    table = RichTable(title=escape(f"replay of {result.target} in {result.seconds:.1f} s"))
    for name in ("shard", "events", "rows", "DDL", "rows while paused", "conflicts"):
        table.add_column(name)
    for name, st in result.shards.items():
        table.add_row(
            escape(name),
            f"{st.events:,}",
            f"{st.rows:,}",
            str(st.ddl),
            f"{st.paused_rows:,}",
            str(len(st.conflicts)),
        )
    console.print(table)
    console.print(f"[bold]joined schema[/] ({len(result.downstream)} downstream statements):")
    console.print(Syntax(result.joined.to_sql(), "sql", word_wrap=True, theme="ansi_dark"))
    console.print(
        escape(
            f"{result.merged_rows:,} rows merged as Parquet in {out / 'merged'} "
            f"(checksum {result.checksum})"
        )
    )
    if result.paused:
        console.print(f"[yellow]still paused[/]: {escape(', '.join(sorted(result.paused)))}")
    if result.server is not None:
        colour = "green" if matches else "red"
        console.print(
            f"[{colour}]downstream {'matches' if matches else 'DOES NOT match'}[/]: "
            f"{result.server['rows']:,} rows, checksum {result.server['checksum']}, "
            f"schema {'equivalent' if result.server['equivalent'] else 'different'}"
        )
    console.print(escape(f"report: {out / 'report.md'}, timeline: {out / 'timeline.png'}"))
    _exit(0 if matches else VERDICT)


@app.command()
def replay(
    source: Path = typer.Argument(..., help="a folder of event logs, one SHARD.jsonl each"),
    out: Path = typer.Option(Path("replay-output"), help="where results are written (replaced)"),
    target: str = typer.Option("merged", help="the downstream table's name"),
    downstream: str | None = typer.Option(
        None, help="a MySQL-compatible server: mysql://user:password@host:port/db"
    ),
    replace: bool = typer.Option(
        False, "--replace", help="drop the downstream table first if it exists"
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Replay sharded event logs: per-shard catalogs, the shard coordinator, downstream DDL,
    every row merged through Spark into the joined schema, a report and a timeline."""
    _run_replay(source, out, target, downstream, replace, as_json)


@app.command()
def demo(
    directory: Path = typer.Option(Path("demo-output"), help="where everything is written"),
    rows: int = typer.Option(5_000, help="rows each of the 4 shards holds before the first run"),
    steps: int = typer.Option(400, help="rounds of the workload (20 inserts and a change each)"),
    bulk: str = typer.Option("spark", help="the first copy: spark (bulk) | rows"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """The main job on servers of its own: three private MariaDB servers, the bundled workload
    (4 shards of `orders` on 2 servers changing their schemas in different orders, a conflict
    and its resolution, inserts, updates, deletes) replicated into one table, checked against
    the upstream rows; a report and a timeline."""
    try:
        from mvdd.replicate.demo import demo as run_demo
    except ImportError as err:
        _fail(
            MissingExtraError(
                f"demo needs the replicate and spark extras: pip install 'mvdd[all]' ({err})"
            ),
            as_json,
        )
        return
    if rows < 1 or steps < 1:
        _fail(CatalogError("--rows and --steps must be at least 1"), as_json)
    say = (
        (lambda text: None)
        if as_json
        else (lambda text: console.print(f"[bold]mvdd demo[/]: {escape(text)}"))
    )
    try:
        result = run_demo(directory, rows=rows, steps=steps, bulk=bulk, progress=say)
    except (MvddError, OSError) as err:
        _fail(err, as_json)
        return
    summary = result.summary()
    if as_json:
        typer.echo(json.dumps(summary, default=str))
    else:
        console.print(_status_table(result.status))
        verdict = "matches" if result.verdict.ok else "[red]DOES NOT match[/]"
        lake = "holds the same rows" if result.lake_matches else "[red]DIFFERS[/]"
        console.print(
            f"the target {verdict} the upstream rows ({summary['target_rows']:,} rows); "
            f"the lake {lake}; {summary['downstream_statements']} downstream statements, "
            f"{len(result.conflicts)} pause(s); report: {escape(str(directory / 'report.md'))}"
        )
    if not (result.verdict.ok and result.lake_matches):
        raise typer.Exit(code=VERDICT)


# --- replication -----------------------------------------------------------------------------


def _sources(values: list[str]) -> dict[str, str]:
    out = {}
    for value in values:
        name, sep, url = value.partition("=")
        if not sep or not name or not url:
            raise typer.BadParameter(f"--source takes NAME=URL, not {value!r}")
        if name in out:
            raise typer.BadParameter(f"--source {name} given twice")
        out[name] = url
    return out


def _status_table(status: dict[str, Any]) -> RichTable:
    table = RichTable(title="mvdd replicate")
    for column in ("shard", "position", "gtid", "version", "paused", "lag s", "rows", "held"):
        # (a narrow terminal folds a name or a position onto more lines, never cuts it)
        table.add_column(column, overflow="fold")
    for shard, s in status.get("shards", {}).items():
        lag = s.get("lag_s")
        table.add_row(
            escape(shard),
            str(s.get("position") or "—"),
            str(s.get("gtid") or "—"),
            str(s.get("version") or "—"),
            f"[yellow]{escape(s['reason'])}[/]" if s.get("paused") else "no",
            "—" if lag is None else f"{lag:.1f}",
            f"{s.get('rows', 0):,}",
            f"{s.get('held', 0):,}",
        )
    warned = status.get("downstream", {})
    if warned.get("ddl_warnings"):
        last, statements = warned["last_warning"], warned["warned_statements"]
        table.caption = escape(  # a statement or a warning is text, never markup
            f"the downstream's DDL gave {warned['ddl_warnings']:,} warnings in {statements:,} "
            f"statement{'' if statements == 1 else 's'}; the last: {last['statement']}: "
            + "; ".join(last["warnings"])
        )
    return table


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text}"


@app.command()
def replicate(
    source: list[str] = typer.Option(
        ..., "--source", help="an upstream server, NAME=mysql://user:password@host:port/ (repeat)"
    ),
    tables: str = typer.Option(..., help="the shard tables, an fnmatch pattern of database.table"),
    target: str = typer.Option(..., help="the merged table (created in the downstream database)"),
    downstream: str | None = typer.Option(None, help="mysql://user:password@host:port/database"),
    state: Path = typer.Option(..., help="the state directory (catalogs, the group, held rows)"),
    until: str = typer.Option("end", help="end: stop once caught up; forever: follow"),
    bulk: str = typer.Option("auto", help="initial copy: auto | spark | rows"),
    partition_rows: int = typer.Option(
        100_000, help="rows per partition of the Spark bulk copy (a JDBC read each)"
    ),
    partition_mib: int = typer.Option(
        64, min=1, help="MiB per partition of the Spark bulk copy, about (as read)"
    ),
    lake: Path | None = typer.Option(None, help="also keep the target as a Parquet lake here"),
    renames: str = typer.Option("merge", help="column renames: merge (seed 000) | wait (TiDB DM)"),
    metrics_port: int | None = typer.Option(
        None, help="serve Prometheus metrics on this port (0: a free one; stderr names it)"
    ),
    live: bool = typer.Option(True, "--live/--no-live", help="a live table while following"),
    as_json: bool = typer.Option(False, "--json", help="print the final status as JSON"),
    retry: float = typer.Option(
        300.0, min=0, help="seconds to wait for a server that cannot be reached (0: fail at once)"
    ),
) -> None:
    """Replicate shard tables on upstream servers into one downstream table, exactly once.
    SIGTERM or Ctrl-C stop at a transaction boundary (exit 0)."""
    import signal
    import threading

    if until not in ("end", "forever"):
        raise typer.BadParameter("--until takes end or forever")
    stop = threading.Event()

    def ask_stop(signum: int, frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    # before the replicator's imports (half a second): a stop asked while they run is kept
    previous = {sig: signal.signal(sig, ask_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    metrics = None
    try:
        from mvdd.replicate import Replicator

        r = Replicator(
            _sources(source),
            tables=tables,
            target=target,
            downstream=downstream,
            state=state,
            bulk=bulk,
            lake=lake,
            renames=renames,
            retry=retry,
        )
        r.partition_rows = partition_rows
        r.partition_bytes = partition_mib * 2**20
        if metrics_port is not None:
            from mvdd.replicate.metrics import Metrics

            metrics = Metrics(metrics_port)
            typer.echo(f"metrics on port {metrics.port}", err=True)
        show = live and not as_json and console.is_terminal
        from rich.live import Live

        with Live(console=console, auto_refresh=False) if show else _nothing() as screen:

            def on_status(status: dict[str, Any]) -> None:
                if metrics is not None:
                    metrics.update(status)
                if screen is not None:
                    screen.update(_status_table(status), refresh=True)

            r.on_status = on_status
            status = r.run(until="end" if until == "end" else None, stop=stop)
            on_status(status)
    except (MvddError, OSError) as err:
        if as_json:
            typer.echo(json.dumps({"error": type(err).__name__, "message": str(err)}))
        else:
            console.print(_one_line(err), markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(code=1) from None
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if metrics is not None:
            metrics.close()
    if as_json:
        typer.echo(json.dumps(status))
    elif not (live and console.is_terminal):
        console.print(_status_table(status))


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield None


@app.command()
def compact(
    lake: Path = typer.Option(..., help="the lake folder of `mvdd replicate --lake`"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Build and publish the lake's next snapshot (every change batch upgraded to the joined
    schema, the latest change per key, deletes gone); safe beside a running replicate."""
    try:
        from mvdd.replicate.lake import compact_lake, lake_meta
        from mvdd.spark.runtime import session
    except ImportError as err:
        _fail(
            MissingExtraError(f"compact needs the spark extra: pip install 'mvdd[spark]' ({err})"),
            as_json,
        )
        return
    try:
        lake_meta(lake)  # not a lake: said before Spark starts
        spark = session("mvdd-compact")
        spark.sparkContext.setLogLevel("ERROR")
        try:
            done = compact_lake(spark, lake)
        finally:
            spark.stop()
    except MvddError as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(json.dumps(done))
    else:
        console.print(f"snapshot {done['snapshot']}: {done['batches']} change batches compacted")


@app.command()
def load(
    catalog: str = typer.Argument(
        ..., help="the catalog: a SQLite file (made if missing), or mysql://user:password@host/db"
    ),
    sql: str = typer.Argument(..., help="SQL text, or a file of it: a script, a dump"),
    database: str | None = typer.Option(
        None, help="the default database of its statements (the catalog names database.table)"
    ),
    skip_unsupported: bool = typer.Option(
        False,
        "--skip-unsupported",
        help="pass over what is no DDL mvdd models (rows, views, routines …) and go on",
    ),
    replica: bool = typer.Option(
        False, help="the statements ran on their server: its rules, not mvdd's stricter ones"
    ),
    flavor: Server | None = typer.Option(None, help="the server the statements were written for"),
    sql_mode: str | None = typer.Option(
        None, help="the session's sql_mode at the text's start (default: the server's, strict)"
    ),
    time_zone: str | None = typer.Option(
        None, help="the session's time_zone at the text's start, '+08:00' or a zone's name (UTC)"
    ),
    explicit_defaults_for_timestamp: bool = typer.Option(
        True, help="the session's explicit_defaults_for_timestamp at the text's start"
    ),
    charset: str | None = typer.Option(
        None,
        help="the client charset at a file's start, as the client's --default-character-set "
        "(default utf8mb4); a SET NAMES in it changes it",
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Read a script or a dump into a catalog, as its server and the `mariadb` client read it
    (DELIMITER commands, USE, SETs of the session, a routine's body whole, each statement of a
    file read from its bytes in the client charset of its moment): each statement atomic, the
    ones before a failing one kept, the failure named (exit 1). Not idempotent: load a script
    once, or the rest of it after a failure."""
    options: dict[str, Any] = {
        "replica": replica,
        "on_unsupported": "skip" if skip_unsupported else "raise",
    }
    if flavor is not None:
        options["flavor"] = flavor.value
    kept = 0
    try:
        text = _script(sql)
        with Catalog.open(catalog, **options) as cat:
            before = cat.seq
            try:
                changes = cat.execute(
                    text,
                    charset=charset,
                    database=database,
                    sql_mode=sql_mode,
                    time_zone=time_zone,
                    explicit_defaults_for_timestamp=explicit_defaults_for_timestamp,
                )
            except MvddError:
                kept = cat.seq - before
                raise
            held = cat.tables()
            # (the tables the script left, by name: one it renamed or dropped is gone)
            tables = {name: cat.table(name) for name in {c.table for c in changes} & set(held)}
    except MvddError as err:
        if as_json:  # (the error, and the catalog's commits of the statements before it)
            typer.echo(json.dumps({"error": type(err).__name__, "message": str(err), "kept": kept}))
            raise typer.Exit(code=1) from None
        console.print(f"the statements before the failing one kept ({kept} catalog commit(s))")
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(json.dumps({"changes": [_change_dict(c) for c in changes], "tables": held}))
        return
    out = RichTable(title=f"{len(changes)} table version(s) added; the catalog holds "
                    f"{len(held)} table(s)")  # fmt: skip
    for column in ("table", "versions added", "now"):
        out.add_column(column)
    for name in dict.fromkeys(c.table for c in changes):
        added = sum(1 for c in changes if c.table == name)
        now = tables.get(name)
        out.add_row(
            escape(name),
            str(added),
            "gone" if now is None else f"version {now.version}, {len(now.columns)} column(s)",
        )
    console.print(out)


@app.command()
def status(
    state: Path = typer.Option(..., help="a replicator's state directory"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Where each shard of a replication stands: position applied, table version, paused and
    why, lag, rows applied (as its replicator last wrote them); the warnings the downstream's
    DDL gave."""
    from mvdd.replicate.state import State

    if not (state / "replicate.db").exists():
        _fail(CatalogError(f"{str(state)!r} is not a replicator's state directory"), as_json)
    try:
        kept = State(state)
        try:
            result = kept.report()
        finally:
            kept.close()
    except MvddError as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(json.dumps(result))
    else:
        console.print(_status_table(result))


def main() -> None:
    app(prog_name="mvdd")


if __name__ == "__main__":
    main()
