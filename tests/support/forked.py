"""Child processes for the tests that kill processes again and again, forked from a server
process that imported mvdd once (the standard library's ``forkserver``, its modules
preloaded). A child is a process of its own, killed by SIGKILL at any moment as before; it
only does not pay mvdd's import (about 0.6 s) each time it starts, which the crash tests'
many rounds would otherwise spend mostly on.

Each child writes its standard error to a file of its own, which :meth:`Child.errors` reads
when a test reports how it ended.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: every module a child runs, imported once by the fork server (set before it starts: the
#: context is the process's one forkserver)
PRELOAD = [
    "mvdd",
    "tests.support.crash_child",
    "tests.support.online_child",
    "tests.support.store_child",
]

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(PRELOAD)


def _run(target: Callable[..., Any], args: tuple[Any, ...], errors: str) -> None:
    with open(errors, "ab", buffering=0) as out:
        os.dup2(out.fileno(), 2)
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115 - the process's stderr
    target(*args)


class Child:
    """``target(*args)`` in a forked child process, its standard error in ``errors``."""

    def __init__(self, target: Callable[..., Any], *args: Any, errors: Path) -> None:
        self.errors_path = errors
        self._process = _CONTEXT.Process(target=_run, args=(target, args, str(errors)))
        self._process.start()
        assert self._process.pid is not None
        self.pid: int = self._process.pid

    def poll(self) -> int | None:
        """The exit code, or None while it runs (a negative code: killed by that signal)."""
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit code once it ended, None if it still runs after ``timeout`` seconds."""
        self._process.join(timeout)
        return self._process.exitcode

    def kill(self) -> None:
        """SIGKILL, and wait for it to end."""
        os.kill(self.pid, signal.SIGKILL)
        self._process.join()

    def errors(self) -> str:
        """What it wrote to its standard error so far."""
        try:
            return self.errors_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
