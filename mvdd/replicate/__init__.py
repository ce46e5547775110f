"""The main job: sharded upstream servers merged into one downstream table, exactly once.

* :mod:`mvdd.replicate.replicator`: :class:`Replicator` (``mvdd replicate``);
* :mod:`mvdd.replicate.merge`: the shard group kept as a log, and how rows reach the target;
* :mod:`mvdd.replicate.target`: the downstream table and ``mvdd_checkpoint``;
* :mod:`mvdd.replicate.apply`: row changes as downstream statements (strict and safe mode);
* :mod:`mvdd.replicate.state`: the state directory;
* :mod:`mvdd.replicate.sandbox`: private MariaDB servers (the demo, the tests, the benchmarks).
"""

from mvdd.replicate.replicator import Replicator

__all__ = ["Replicator"]
