"""The layers of the design: nothing imports upward, each third-party library lives in one
place, and ``import mvdd`` stays light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mvdd"

#: the layers, bottom first (DESIGN §1); a module may import its own layer and those below
LAYERS = [
    "errors",
    "model",
    "ddl",
    "join",
    "compat",
    "store",
    "catalog",
    "txn",
    "online",
    "shard",
    "binlog",
    "spark",
    "replicate",
    "cli",
]

#: where each third-party library may be imported (module path prefixes)
CONFINED = {
    "sqlglot": ("mvdd.ddl",),
    # the catalog's store, and the online layer's small row + index store (its own embedded store)
    "sqlite_utils": ("mvdd.store.sqlite", "mvdd.online.rowstore"),
    "sqlite3": ("mvdd.store.sqlite", "mvdd.online.rowstore"),
    # the catalog's networked store, the binlog reader's source, the replay's and the
    # replicator's downstream server
    "pymysql": ("mvdd.store.mysql", "mvdd.binlog", "mvdd.spark.replay", "mvdd.replicate"),
    "pymysqlreplication": ("mvdd.binlog",),
    "pyspark": ("mvdd.spark", "mvdd.cli"),
    "cattrs": ("mvdd.store.codec",),
    "sortedcontainers": ("mvdd.catalog",),
    "typer": ("mvdd.cli",),
    "rich": ("mvdd.cli",),
    "matplotlib": ("mvdd.spark.report",),
}

#: deferred (function-level) imports that reach up on purpose, with the reason
ALLOWED_UPWARD = {
    ("mvdd.model.table", "mvdd.ddl.render"): "Table.to_sql renders through the ddl layer",
    ("mvdd.catalog.catalog", "mvdd.txn"): "Catalog.begin starts a transaction of the txn layer",
}


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts)
        out.append((name.removesuffix(".__init__"), path))
    return out


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None  # the package façade
    head = parts[1]
    return LAYERS.index(head) if head in LAYERS else None


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, at module level) for every import in a file."""
    tree = ast.parse(path.read_text())
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, id(node) in top) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, id(node) in top))
    return out


def test_every_module_belongs_to_a_layer() -> None:
    for name, _ in modules():
        assert name == "mvdd" or layer_of(name) is not None, f"{name} is in no layer of DESIGN §1"


@pytest.mark.parametrize("name,path", modules(), ids=[m for m, _ in modules()])
def test_nothing_imports_upward(name: str, path: Path) -> None:
    own = layer_of(name)
    if own is None:
        return
    for target, _ in imports(path):
        if not target.startswith("mvdd."):
            continue
        theirs = layer_of(target)
        assert theirs is not None, f"{name} imports {target}, which is in no layer"
        if theirs > own:
            assert (name, target) in ALLOWED_UPWARD, (
                f"{name} ({LAYERS[own]}) imports {target} ({LAYERS[theirs]})"
            )


@pytest.mark.parametrize("name,path", modules(), ids=[m for m, _ in modules()])
def test_third_party_libraries_stay_in_their_place(name: str, path: Path) -> None:
    for target, _ in imports(path):
        root = target.split(".")[0]
        if root in CONFINED:
            assert name.startswith(CONFINED[root]), (
                f"{name} imports {root}, confined to {CONFINED[root]}"
            )


def test_import_mvdd_is_light() -> None:
    code = (
        "import sys, mvdd; heavy = ('pyspark', 'pymysql', 'sqlite_utils', 'matplotlib', 'typer');"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
