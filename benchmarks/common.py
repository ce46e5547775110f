"""What every benchmark shares: the machine it ran on, a best-of timer, and where results go."""

from __future__ import annotations

import datetime as dt
import gc
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """Date, Python, platform and CPU count, for the results and the README table."""
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }


def banner(name: str, info: dict[str, Any]) -> None:
    print(f"mvdd {name} benchmark — {info['date']} — {info['platform']}, {info['cpus']} CPUs")


def per_call(fn: Callable[[], object], calls: int, repeat: int = 5) -> float:
    """Best mean seconds per call of ``fn`` over ``repeat`` timed loops of ``calls`` calls."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def write(name: str, results: dict[str, Any]) -> Path:
    """Write ``results`` as ``benchmarks/results/<name>.json``; returns the path."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(results, indent=2, default=str))
    print(f"written {path}")
    return path
