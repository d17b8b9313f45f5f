"""Classify why each guard and specialization exists (the cause values of DESIGN.md).

Evidence per cause, in torch 2.13 (research notes §5): the compiler phase, the frames on
the framework stack, the FX node being traced, the bytecode instruction, and, for
specializations, the compile's dynamic setting and what earlier compiles of the frame saw.
"""

from __future__ import annotations

from symdebug.model.types import Compile, Facts, Guard, Specialization

#: Framework files whose frames mean "an operator's meta or decomposition needed this".
OP_FILES = (
    "_subclasses/fake_impls.py",
    "_subclasses/fake_utils.py",
    "/_refs/",
    "/_prims_common/",
    "/_prims/",
    "/_decomp/",
    "_meta_registrations.py",
    "/_dynamo/variables/builtin.py",
    "/_dynamo/variables/lists.py",
)
_BRANCH_OPS = ("POP_JUMP", "JUMP_IF", "TO_BOOL", "COMPARE_OP")


def _is_backward(guard: Guard) -> bool:
    return (guard.aot_graph or "").endswith("backward") or any(
        frame.name == "grad" and "/autograd/" in frame.filename for frame in guard.framework_stack
    )


def _frames_match(guard: Guard, parts: tuple[str, ...]) -> bool:
    return any(
        part in frame.filename.replace("\\", "/")
        for frame in guard.framework_stack
        for part in parts
    )


def _runs_fx_node(guard: Guard) -> bool:
    """Whether Dynamo was running an FX node on fake tensors when the guard was added.

    A log's evidence of the node: a live capture knows the node itself.
    """
    return any(
        frame.name == "run_node" and frame.filename.replace("\\", "/").endswith("_dynamo/utils.py")
        for frame in guard.framework_stack
    )


def guard_cause(guard: Guard) -> str:
    """The cause of one guard, from its phase, frames, node and instruction."""
    names = {frame.name for frame in guard.framework_stack}
    if guard.phase in ("inductor", "aot") and _is_backward(guard):
        return "backward"
    if guard.phase == "inductor":
        return "inductor"
    if "specialize_symnode" in names:
        return "int_specialized"
    if (
        guard.fx_node is not None
        or _frames_match(guard, OP_FILES)
        or guard.phase == "aot"
        or _runs_fx_node(guard)
    ):
        return "op_requirement"
    if (guard.instruction or "").startswith(_BRANCH_OPS) or "evaluate_expr" in names:
        return "user_branch"
    return "unknown"


def classify_guards(facts: Facts) -> None:
    """Set ``cause`` on every guard."""
    for guard in facts.guards:
        guard.cause = guard_cause(guard)


def _violated(spec: Specialization, compile_: Compile | None) -> bool:
    return bool(
        compile_ is not None
        and compile_.fail_type == "ConstraintViolationError"
        and spec.source in (compile_.fail_reason or "")
    )


def _value_changed_before(spec: Specialization, history: list[Specialization]) -> bool:
    return any(other.value != spec.value for other in history)


def specialization_cause(
    spec: Specialization,
    compile_: Compile | None,
    history: list[Specialization],
    *,
    was_dynamic: bool = False,
) -> str:
    """The cause of one specialization; ``history`` holds earlier ones of the same source.

    ``was_dynamic``: an earlier compile of the frame had the source as a symbol, so it is
    dynamic now (automatic dynamic) and only the 0/1 rule can make it a constant again.  A
    dim marked dynamic (``mark_dynamic``) that was 0 or 1 was made a constant by that rule too.
    """
    if _violated(spec, compile_):
        return "mark_dynamic_violated"
    if spec.guards:
        cause = spec.guards[0].cause
        return "int_specialized" if spec.kind == "int" and cause == "unknown" else cause
    static_compile = compile_ is not None and compile_.dynamic is False
    marked = compile_ is not None and spec.source in compile_.marked_dynamic
    if spec.kind == "int":
        is_argument = spec.source.count("[") == 1 and "." not in spec.source
        unchanged = not _value_changed_before(spec, history)
        return (
            "static_by_default"
            if static_compile and is_argument and unchanged
            else "int_specialized"
        )
    if spec.value in (0, 1) and (
        not static_compile or was_dynamic or marked or _value_changed_before(spec, history)
    ):
        return "zero_one"
    return "static_by_default" if static_compile else "unknown"


def classify_specializations(facts: Facts) -> None:
    """Set ``cause`` on every specialization, in compile order."""
    compiles = {c.compile_id: c for c in facts.compiles}
    order = {c.compile_id: index for index, c in enumerate(facts.compiles)}
    first_symbolic: dict[tuple[int, str], int] = {}  # (frame, source) -> compile index
    for symbol in facts.symbols:
        compile_ = compiles.get(symbol.compile_id)
        if compile_ is None:
            continue
        index = order[symbol.compile_id]
        for source in symbol.sources:
            key = (compile_.frame_id, source)
            first_symbolic[key] = min(first_symbolic.get(key, index), index)
    seen: dict[tuple[int, str], list[Specialization]] = {}
    for spec in facts.specializations:
        compile_ = compiles.get(spec.compile_id)
        frame = compile_.frame_id if compile_ is not None else -1
        history = seen.setdefault((frame, spec.source), [])
        first = first_symbolic.get((frame, spec.source), len(order))
        was_dynamic = first < order.get(spec.compile_id, -1)
        spec.cause = specialization_cause(spec, compile_, history, was_dynamic=was_dynamic)
        history.append(spec)
