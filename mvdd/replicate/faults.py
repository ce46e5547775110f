"""Kill points for crash tests: the process kills itself (SIGKILL, as a power cut or the OOM
killer would) at a named moment, so a test can prove that a kill exactly there loses and
repeats nothing. Off unless ``MVDD_KILL_AT`` is set (read once, at import).

``MVDD_KILL_AT="point[:n]"`` kills at the n-th time (default the first) the point is reached:

- ``after-ddl``: a downstream DDL ran; its progress is not recorded yet;
- ``mid-commit``: a downstream transaction has sent at least ``MVDD_KILL_ROWS`` rows (default
  1) and is not committed;
- ``after-hold``: rows of a paused shard are kept in the state directory; the transaction that
  moves the checkpoint past them is not committed;
- ``after-commit``: a downstream transaction committed; the replicator has not taken note;
- ``after-chunk``: Spark wrote a chunk of a bulk copy; the chunk is not recorded as written;
- ``mid-refresh``: a batch of a shard's rows read again (:meth:`Replicator._refresh
  <mvdd.replicate.Replicator>`) committed; the shard is still marked, its safe window not
  recorded.
"""

from __future__ import annotations

import os
import signal

_POINT, _, _COUNT = os.environ.get("MVDD_KILL_AT", "").partition(":")
_AT = int(_COUNT) if _COUNT else 1
_ROWS = int(os.environ.get("MVDD_KILL_ROWS", "1"))
_seen = 0


def reach(point: str, *, rows: int = 0) -> None:
    """Pass a kill point (a no-op unless the environment names it)."""
    global _seen
    if point != _POINT or (point == "mid-commit" and rows < _ROWS):
        return
    _seen += 1
    if _seen >= _AT:
        os.kill(os.getpid(), signal.SIGKILL)


__all__ = ["reach"]
