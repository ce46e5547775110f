"""The main job: sharded upstream servers merged into one downstream table, exactly once.

:mod:`mvdd.replicate.sandbox` starts private MariaDB servers (for the demo, the tests and the
benchmarks).
"""
