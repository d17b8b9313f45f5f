"""The cause classifier on hand-built guards, as a log gives them (no live FX node)."""

from __future__ import annotations

from symdebug.model.types import Frame, Guard
from symdebug.processors.causes import guard_cause


def test_guard_from_a_log_while_running_an_fx_node_is_an_op_requirement() -> None:
    # A log has no live FX node; Dynamo's run_node on the stack is the evidence.
    torch_dir = "/site-packages/torch"
    guard = Guard(
        id="0/1#0",
        expr="Eq(s48, s2)",
        compile_id="0/1",
        phase="dynamo",
        framework_stack=[
            Frame(f"{torch_dir}/_dynamo/utils.py", 4231, "run_node"),
            Frame(f"{torch_dir}/nn/functional.py", 4283, "mse_loss"),
        ],
    )
    assert guard_cause(guard) == "op_requirement"
    guard.framework_stack[0].name = "get_fake_value"
    assert guard_cause(guard) == "unknown"
