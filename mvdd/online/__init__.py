"""Online schema change (seeds 001, 002): F1 element states, the versions a change walks
through, DDL jobs run by one owner elected by lease, nodes kept within two adjacent versions,
resumable reorg and background deletion; and a small row+index store that follows the rules.

>>> from mvdd.online import State, may_coexist
>>> may_coexist(State.WRITE_ONLY, State.WRITE_REORG, change="add")
True
"""

from mvdd.model import State
from mvdd.online.cluster import Cluster, Job, Node, Owner
from mvdd.online.plan import ADD, DROP, Change, change_of, may_coexist, next_version, plan

__all__ = [
    "ADD",
    "DROP",
    "Change",
    "Cluster",
    "Job",
    "Node",
    "Owner",
    "State",
    "change_of",
    "may_coexist",
    "next_version",
    "plan",
]
