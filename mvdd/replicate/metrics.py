"""Prometheus metrics of a running replicator (``mvdd replicate --metrics-port N``).

Per shard: ``mvdd_rows_applied`` (rows applied downstream, a counter as the checkpoint counts
them), ``mvdd_lag_seconds`` (how far behind its source the target is), ``mvdd_paused`` (1 while
its rows wait), ``mvdd_table_version`` (the shard's table version in its source's catalog),
``mvdd_held_rows`` (rows waiting in the state directory). For the target:
``mvdd_downstream_ddl_warnings`` (the warnings its DDL gave in all: values no shard holds any
more that did not fit a narrowed column, converted by the server).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Gauge, start_http_server


class Metrics:
    """The gauges of one replicator, served over HTTP on ``port`` (0: a free one)."""

    def __init__(self, port: int, *, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()

        def gauge(name: str, text: str) -> Gauge:
            return Gauge(name, text, ["shard"], registry=self.registry)

        self.rows = gauge("mvdd_rows_applied", "rows applied downstream")
        self.lag = gauge("mvdd_lag_seconds", "seconds the target is behind")
        self.paused = gauge("mvdd_paused", "1 while the shard is paused")
        self.version = gauge("mvdd_table_version", "the shard's table version")
        self.held = gauge("mvdd_held_rows", "rows of a paused shard held")
        self.warnings = Gauge(
            "mvdd_downstream_ddl_warnings",
            "warnings the downstream DDL gave",
            registry=self.registry,
        )
        self.server, self.thread = start_http_server(port, registry=self.registry)
        self.port = self.server.server_port

    def update(self, status: Mapping[str, Any]) -> None:
        for shard, s in status.get("shards", {}).items():
            self.rows.labels(shard).set(s.get("rows") or 0)
            self.lag.labels(shard).set(s.get("lag_s") or 0.0)
            self.paused.labels(shard).set(1 if s.get("paused") else 0)
            self.version.labels(shard).set(s.get("version") or 0)
            self.held.labels(shard).set(s.get("held") or 0)
        self.warnings.set(status.get("downstream", {}).get("ddl_warnings") or 0)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


__all__ = ["Metrics"]
