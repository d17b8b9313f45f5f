"""Snapshot of the live compiler context at the moment a guard-like event fires."""

from __future__ import annotations

from typing import Any

from symdebug._torch import compiler_context as ctx


def snapshot() -> dict[str, Any]:
    """Phase, current FX node, instruction, AOT graph and guard-suppression state."""
    live: dict[str, Any] = {"phase": ctx.current_phase(), "suppressed": ctx.guards_suppressed()}
    node = ctx.current_dynamo_node()
    if node is not None:
        live["fx_node"] = node.name
        live["fx_node_target"] = ctx.target_name(node.target)
        live["_node"] = node  # the object: Dynamo may rename it later
    instruction = ctx.current_instruction()
    if instruction is not None:
        live["instruction"] = instruction
    live.update(ctx.current_aot_context())
    if live["phase"] == "inductor":
        live["inductor_node"] = ctx.current_inductor_node()
    env = ctx.current_shape_env()
    live["frozen"] = bool(env.frozen) if env is not None else False
    return live
