"""The shard coordinator (seed 000): merge N upstream shard tables into one downstream table
without a DDL barrier; :mod:`mvdd.shard.plan` turns a change of the join into downstream DDL."""

from mvdd.shard.group import Outcome, ShardGroup

__all__ = ["Outcome", "ShardGroup"]
