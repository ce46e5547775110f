"""The ``mvdd`` command (typer + rich).

- ``mvdd demo``: a scripted scenario on a SQLite catalog file; prints every version of every table.
- ``mvdd history CATALOG TABLE``: a table's versions, statements and positions.
- ``mvdd show CATALOG TABLE [--version N | --position P]``: one version as CREATE TABLE.

Every command takes ``--json`` for machines; errors print one clear line and exit non-zero.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table as RichTable

from mvdd.catalog import Catalog, Change
from mvdd.errors import MvddError

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.splitlines()[0])
console = Console()

DEMO_SCRIPT: list[tuple[str, Any]] = [
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
        console.print(f"[bold red]{type(err).__name__}[/]: {err}")
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
def demo(
    directory: Path = typer.Option(Path("demo-output"), help="where the catalog file is written"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """Run a scripted scenario on a SQLite catalog file and print every table version."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    path = directory / "catalog.db"
    try:
        with Catalog.open(str(path)) as cat:
            for sql, position in DEMO_SCRIPT:
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
    console.rule(f"[bold]mvdd demo[/] — catalog file {path}")
    for name, versions in report.items():
        for v in versions:
            console.print(
                f"[bold cyan]{name}[/] version [bold]{v['version']}[/] "
                f"at position {tuple(v['position'])}: [dim]{v['statement']}[/]"
            )
            for step in v["steps"]:
                console.print(f"    step: {step}")
            if v["schema"]:
                console.print(Syntax(v["schema"], "sql", word_wrap=True, theme="ansi_dark"))
    console.print(
        f"\nAn event at position ('mysql-bin.000002', 100) of `orders` decodes with columns "
        f"{list(decoded)} (the newest version recorded strictly before it)."
    )


@app.command()
def history(
    catalog: Path = typer.Argument(..., help="a catalog file"),
    table: str = typer.Argument(..., help="the table"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """A table's versions: statement, steps, position and time."""
    try:
        with Catalog.open(str(catalog)) as cat:
            changes = cat.history(table)
    except MvddError as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(json.dumps([_change_dict(c) for c in changes]))
        return
    out = RichTable(title=f"history of {table}")
    for col in ("version", "position", "at", "statement"):
        out.add_column(col)
    for c in changes:
        out.add_row(
            str(c.version), str(c.position), c.at.strftime("%Y-%m-%d %H:%M:%S"), c.statement
        )
    console.print(out)


@app.command()
def show(
    catalog: Path = typer.Argument(..., help="a catalog file"),
    table: str = typer.Argument(..., help="the table"),
    version: int | None = typer.Option(None, help="a version (default: the current one)"),
    position: str | None = typer.Option(
        None, help='a position, as JSON: 42 or ["mysql-bin.000002", 100]'
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of text"),
) -> None:
    """One version of a table as CREATE TABLE."""
    try:
        pos = None
        if position is not None:
            raw = json.loads(position)
            pos = tuple(raw) if isinstance(raw, list) else raw
        with Catalog.open(str(catalog)) as cat:
            found = cat.table(table, version=version, position=pos)
    except (MvddError, ValueError) as err:
        _fail(err, as_json)
        return
    if as_json:
        typer.echo(
            json.dumps({"table": found.name, "version": found.version, "sql": found.to_sql()})
        )
    else:
        console.print(Syntax(found.to_sql(), "sql", word_wrap=True, theme="ansi_dark"))


def main() -> None:
    app(prog_name="mvdd")


if __name__ == "__main__":
    main()
