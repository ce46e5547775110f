"""The layers of the design: nothing imports upward, no module depends on itself through
others (no cycle, deferred and type-only imports included), imports are absolute, each
third-party library lives in one place, and ``import mvdd`` stays light."""

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
    # the catalog's store, the online layer's small row + index store (its own embedded store),
    # and a replicator's state directory
    "sqlite_utils": ("mvdd.store.sqlite", "mvdd.online.rowstore", "mvdd.replicate.state"),
    "sqlite3": ("mvdd.store.sqlite", "mvdd.online.rowstore", "mvdd.replicate.state"),
    # the catalog's networked store, the binlog reader's source, the replay's and the
    # replicator's downstream server
    "pymysql": ("mvdd.store.mysql", "mvdd.binlog", "mvdd.spark.replay", "mvdd.replicate"),
    "pymysqlreplication": ("mvdd.binlog",),
    "pyspark": ("mvdd.spark", "mvdd.cli"),
    "cattrs": ("mvdd.store.codec",),
    "orjson": ("mvdd.store.codec",),
    "sortedcontainers": ("mvdd.catalog",),
    "typer": ("mvdd.cli",),
    "rich": ("mvdd.cli",),
    "matplotlib": ("mvdd.spark.report",),
    "prometheus_client": ("mvdd.replicate.metrics",),
    "pyarrow": ("mvdd.spark.lake",),
}

#: imports that reach up on purpose, with the reason (none: a lower layer declares a generic
#: function and the layer above registers its implementation, as mvdd.model.text and
#: mvdd.catalog.catalog.begin_transaction do)
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}


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


def module_names() -> set[str]:
    return {name for name, _ in modules()}


def dependencies(path: Path, known: set[str]) -> set[str]:
    """The mvdd modules a file depends on: every import, at any depth of the file (deferred and
    type-only ones too); ``from package import name`` depends on the submodule when ``name``
    is one, else on the package."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                for a in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("mvdd"):
                out.add(target)
    return out


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    known = module_names()
    graph = {name: dependencies(path, known) - {name} for name, path in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, at module level) for every import in a file."""
    tree = ast.parse(path.read_text())
    top = set(map(id, tree.body))
    out: list[tuple[str, bool]] = []
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


def test_no_module_depends_on_itself() -> None:
    assert cycles() == []


def test_the_cycle_check_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the check itself, on a package of two modules that import each other
    fake = tmp_path / "mvdd"
    (fake / "model").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "model" / "__init__.py").write_text("")
    (fake / "model" / "a.py").write_text("def f():\n    from mvdd.model import b\n")
    (fake / "model" / "b.py").write_text("from mvdd.model.a import f\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert cycles() == [["mvdd.model.a", "mvdd.model.b"]]


@pytest.mark.parametrize("name,path", modules(), ids=[m for m, _ in modules()])
def test_imports_are_absolute(name: str, path: Path) -> None:
    relative = [
        node.module or "."
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert relative == [], f"{name} imports relatively: {relative}"


def test_plain_python_parts_of_the_spark_layer_load_no_spark() -> None:
    code = (
        "import sys, mvdd.spark, mvdd.spark.report, mvdd.spark.workload;"
        "print('pyspark' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
