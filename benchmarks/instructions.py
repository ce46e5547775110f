"""The hot statements' work counted in machine instructions, against ``sqlglot.parse_one`` of the
same text, in one run: the figure of ``catalog_bench``'s probe (d) that does not move with the
machine's speed.

A statement's time on this machine moves by ±30 % from one run to the next, and by 2× within an
hour; a change of a few per cent to the statement path cannot be seen in it. The instructions a
statement executes (valgrind's callgrind, counting only while a probe runs: a small C helper,
compiled here, toggles the count around each call) are the same on every run to a fraction of a
per cent, so two commits compare exactly. They are not the time: a statement that touches more
memory, or takes branches the processor mispredicts, costs more cycles per instruction (the
ADD COLUMN's time ratio to ``parse_one`` runs about 15 % above its instruction ratio), so
``catalog_bench`` stays the measure of the goals, and this one says where the work is.

Each probe on a 100-column table in memory, each side counted in a process of its own under
callgrind, after 30 untimed warm-up rounds, over ``--rounds`` statements (the garbage collector
off while counting, run between them: its collections land wherever the allocations cross its
threshold, not in the statement that made the garbage):

- ``execute``: ``cat.execute(sql)``;
- ``parse_one``: ``sqlglot.parse_one(sql, read="mysql")``, the baseline;
- ``mvdd parse``: mvdd's own dialect tokenizing and parsing the text (the part of ``execute``
  that is a parse); ``execute`` less this is the catalog's own work (steps, plan, validation,
  commit, history).

And the SQLite probe of ``catalog_bench`` in the same terms: its one-column MODIFYs on a
10-column table, each committed durably to a catalog file, against the floor of such a
commit (``catalog_bench.Floor``: the parse and a bare transaction of the least a version
needs), goal 1.3×. Callgrind counts the processes' own instructions, not the kernel's: the
writes of a commit to the file, the same on both sides, are outside the count.

With ``--caches``, callgrind also simulates the processor's first-level caches and its branch
predictor (``--cache-sim=yes --branch-sim=yes``), and each probe prints, per 1,000
instructions, the misses of the instruction cache (I1) and the data cache (D1) and the
mispredicted branches, of ``parse_one``, of mvdd's parse and of the catalog's own work
(``execute`` less mvdd's parse): why the own work takes more time than its instructions say.

Needs valgrind (with its headers: Debian's ``valgrind`` package) and a C compiler; prints why
and exits 2 without them. Writes ``benchmarks/results/instructions.json``.

    PYTHONPATH=. python benchmarks/instructions.py [--rounds N] [--caches]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import ctypes
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, write

WIDTH = 100
#: probe -> (the counted statement, the untimed one that puts the table back before the next)
PROBES: dict[str, tuple[str, str]] = {
    "ADD COLUMN": ("ALTER TABLE t ADD COLUMN y INT DEFAULT 1", "ALTER TABLE t DROP COLUMN y"),
    "DROP COLUMN": ("ALTER TABLE t DROP COLUMN y", "ALTER TABLE t ADD COLUMN y INT DEFAULT 1"),
    "MODIFY COLUMN": ("ALTER TABLE t MODIFY COLUMN c50 BIGINT", "ALTER TABLE t MODIFY c50 INT"),
}
SIDES = ("execute", "parse_one", "mvdd parse")
#: the SQLite probe: ``catalog_bench``'s one-column MODIFYs on a 10-column table, each a
#: durable commit, against its floor (the parse and a bare commit of the least a version needs)
SQLITE = "SQLite MODIFY"
SQLITE_SIDES = ("execute", "floor")
TOGGLE_C = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def helper(tmp: str) -> str:
    """The toggle helper, compiled into ``tmp``: its path."""
    source = os.path.join(tmp, "toggle.c")
    Path(source).write_text(TOGGLE_C)
    library = os.path.join(tmp, "toggle.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


#: untimed calls before the counted ones
WARM = 30


def counted(
    rounds: int,
    toggle: Callable[[], object],
    call: Callable[[int], object],
    after: Callable[[], object] | None = None,
) -> None:
    """``call(i)`` for i in 0 … WARM + ``rounds`` - 1, the instructions counted from the
    WARM-th on (the garbage collector off while counting, run between the calls: its
    collections land wherever the allocations cross its threshold); ``after()`` uncounted
    after each."""
    for i in range(WARM + rounds):
        gc.collect()
        gc.disable()
        if i >= WARM:
            toggle()
        call(i)
        if i >= WARM:
            toggle()
        gc.enable()
        if after is not None:
            after()


def child(probe: str, side: str, rounds: int, library: str) -> None:
    """Under callgrind: ``rounds`` counted calls of one side of one probe."""
    import sqlglot

    from benchmarks.catalog_bench import wide_table
    from mvdd import Catalog
    from mvdd.ddl.dialect import DIALECT

    toggle = ctypes.CDLL(library).toggle
    if probe == SQLITE:
        child_sqlite(side, rounds, toggle)
        return
    sql, undo = PROBES[probe]
    cat = Catalog()
    cat.execute(wide_table(WIDTH))
    if probe == "DROP COLUMN":
        cat.execute(undo)  # (the column it drops)
    calls: dict[str, Callable[[int], object]] = {
        "execute": lambda _: cat.execute(sql),
        "parse_one": lambda _: sqlglot.parse_one(sql, read="mysql"),
        "mvdd parse": lambda _: DIALECT.parse(sql),
    }
    counted(rounds, toggle, calls[side], (lambda: cat.execute(undo)) if side == "execute" else None)


def child_sqlite(side: str, rounds: int, toggle: Callable[[], object]) -> None:
    """Under callgrind: ``rounds`` counted statements of the SQLite probe's one side, each
    on a catalog file (or the floor's file) of its own in a temporary directory."""
    from benchmarks.catalog_bench import Floor, one_column_modifies, wide_table
    from mvdd import Catalog

    stream = one_column_modifies(WARM + rounds)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.db")
        target: Catalog | Floor
        if side == "execute":
            target = cat = Catalog.open(path)
            cat.execute(wide_table(10))
            run: Callable[[str], object] = cat.execute
        else:
            target = run = Floor(stream, path)
        counted(rounds, toggle, lambda i: run(stream[i]))
        target.close()


#: callgrind's events of the simulated caches and branch predictor -> what ``--caches`` prints
CACHE_EVENTS = {"I1mr": "I1 misses", "D1mr": "D1 misses", "Bmiss": "mispredicted branches"}


def count(
    probe: str, side: str, rounds: int, library: str, tmp: str, caches: bool = False
) -> dict[str, float]:
    """callgrind's events per call of one side of one probe (a child process under callgrind):
    ``Ir``, the instructions; with ``caches``, the cache misses and the mispredicted branches
    (:data:`CACHE_EVENTS`; ``Bmiss``: conditional and indirect together)."""
    out = os.path.join(tmp, f"{probe}-{side}.out".replace(" ", "_"))
    simulate = ["--cache-sim=yes", "--branch-sim=yes"] if caches else []
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            *simulate,
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--child",
            probe,
            side,
            str(rounds),
            library,
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    names: list[str] = []
    for line in Path(out).read_text().splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        if line.startswith(("totals:", "summary:")):
            found = dict(zip(names, (int(v) / rounds for v in line.split()[1:]), strict=False))
            found["Bmiss"] = found.get("Bcm", 0.0) + found.get("Bim", 0.0)
            return found
    raise RuntimeError(f"no totals in {out}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        probe, side, rounds, library = sys.argv[2:6]
        child(probe, side, int(rounds), library)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="counted calls per side")
    parser.add_argument(
        "--caches", action="store_true", help="simulate the caches and the branch predictor too"
    )
    args = parser.parse_args()
    header = Path("/usr/include/valgrind/callgrind.h")
    missing = [t for t in ("valgrind", "cc") if shutil.which(t) is None]
    if missing or not header.exists():
        print(f"needs valgrind, its headers and a C compiler: missing {missing or [str(header)]}")
        sys.exit(2)
    info = machine()
    banner("instructions", info)
    results: dict[str, Any] = {
        "machine": info,
        "rounds": args.rounds,
        "width": WIDTH,
        "caches": args.caches,
    }
    with tempfile.TemporaryDirectory() as tmp:
        library = helper(tmp)
        jobs = [(p, s) for p in PROBES for s in SIDES] + [(SQLITE, s) for s in SQLITE_SIDES]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            events = dict(
                zip(
                    jobs,
                    pool.map(lambda job: count(*job, args.rounds, library, tmp, args.caches), jobs),
                    strict=True,
                )
            )
    counts = {job: found["Ir"] for job, found in events.items()}
    print(
        f"{'probe':14s} {'execute':>9s} {'parse_one':>10s} {'ratio':>6s} {'mvdd parse':>11s}",
        end="",
    )
    print("  own work")
    for probe in PROBES:
        execute, baseline, own_parse = (counts[probe, side] for side in SIDES)
        own = execute - own_parse
        results[probe] = {
            "sql": PROBES[probe][0],
            "execute": execute,
            "parse_one": baseline,
            "mvdd_parse": own_parse,
            "ratio": execute / baseline,
            "own_work": own,
            "own_work_vs_parse_one": own / baseline,
        }
        print(
            f"{probe:14s} {execute / 1e3:8.0f}k {baseline / 1e3:9.0f}k {execute / baseline:5.2f}x "
            f"{own_parse / 1e3:10.0f}k  {own / 1e3:.0f}k ({own / baseline:.2f} of a parse_one)"
        )
    if args.caches:
        results["cache_rates"] = cache_rates(events)
    execute, floor = (counts[SQLITE, side] for side in SQLITE_SIDES)
    results[SQLITE] = {"execute": execute, "floor": floor, "ratio": execute / floor}
    print(
        f"{SQLITE:14s} {execute / 1e3:8.0f}k vs the floor's {floor / 1e3:.0f}k: "
        f"{execute / floor:.2f}x (goal <= 1.3x; the kernel's part of a commit, its writes, "
        "is not counted on either side)"
    )
    write("instructions", results)


def cache_rates(events: dict[tuple[str, str], dict[str, float]]) -> dict[str, Any]:
    """Per probe, the cache misses and mispredicted branches per 1,000 instructions of
    ``parse_one``, of mvdd's parse and of the own work (``execute`` less mvdd's parse),
    printed."""
    out: dict[str, Any] = {}
    print(f"\nper 1,000 instructions: {', '.join(CACHE_EVENTS.values())}")
    for probe in PROBES:
        execute, baseline, own_parse = (events[probe, side] for side in SIDES)
        parts = {
            "parse_one": baseline,
            "mvdd parse": own_parse,
            "own work": {k: execute[k] - own_parse[k] for k in ("Ir", *CACHE_EVENTS)},
        }
        rates = {
            part: {k: found[k] / found["Ir"] * 1000 for k in CACHE_EVENTS}
            for part, found in parts.items()
        }
        out[probe] = rates
        print(
            f"{probe:14s} "
            + "; ".join(
                f"{part} " + " / ".join(f"{rates[part][k]:.1f}" for k in CACHE_EVENTS)
                for part in parts
            )
        )
    return out


if __name__ == "__main__":
    main()
