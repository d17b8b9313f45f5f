"""A replay's process group: its own, never the parent's; and none for a job of many ranks.

A replay runs in a child process.  A child forked from a process that holds a Gloo group
inherits the group's objects but not its threads and sockets: the first collective
(``DistributedDataParallel``'s ``_verify_param_shape_across_processes``) waits forever.  In
the child, the inherited group is forgotten without being destroyed (its destructor would
wait on the parent's threads too: the objects are kept until the child exits) and a fresh
group of one process is made, as the user's process had.  A group of more than one rank
cannot be replayed by one process: that is said at once, before any replay starts.
Private torch API: ``torch.distributed.distributed_c10d._world``'s tables, alike in
torch 2.13, 2.14 and 2.15.
"""

from __future__ import annotations

import sys
from typing import Any

#: The tables of ``_world`` that name the inherited groups (cleared, their objects kept).
_TABLES = (
    "pg_map",
    "pg_names",
    "pg_group_ranks",
    "pg_backend_config",
    "pg_to_tag",
    "tags_to_pg",
    "pg_coalesce_state",
)
#: What the child forgot: kept alive until it exits (a Gloo group's destructor would hang).
_INHERITED: list[Any] = []


def _distributed() -> Any:
    """``torch.distributed`` where the program imported it and it is built in, else None."""
    dist = sys.modules.get("torch.distributed")
    return dist if dist is not None and dist.is_available() else None


def group_world_size() -> int | None:
    """The size of this process's default process group; None where there is none."""
    dist = _distributed()
    if dist is None or not dist.is_initialized():
        return None
    return int(dist.get_world_size())


def refuse_many_ranks() -> None:
    """Raise at once where this process is one rank of many: a replay needs every rank."""
    world = group_world_size()
    if world is not None and world > 1:
        dist = _distributed()
        raise ValueError(
            f"this process is rank {dist.get_rank()} of a process group of {world}: a replay "
            "runs one process, and a collective needs every rank; replay a run of one "
            "process (world size 1), or each rank's own workload"
        )


def own_group(world: int | None) -> None:
    """In a replay's child: a fresh one-process Gloo group where the user's process had one."""
    dist = _distributed()
    if world != 1 or dist is None:
        return
    if dist.is_initialized():
        _forget_inherited(sys.modules["torch.distributed.distributed_c10d"]._world)
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)


def _forget_inherited(world: Any) -> None:
    _INHERITED.append((world.default_pg, {name: dict(getattr(world, name)) for name in _TABLES}))
    for name in _TABLES:
        getattr(world, name).clear()
    world.default_pg = None  # the group count goes on: a new group takes a new name
