"""Classify why each guard and specialization exists (``symdebug.model.values.Cause``).

Evidence per cause (the table in docs/architecture.md): the compiler phase, the frames on
the framework stack, the FX node being traced, the bytecode instruction, the user's line,
and, for specializations, the compile's dynamic setting and what earlier compiles saw.
Which torch functions and files are evidence is per release (:class:`CauseFrames`, chosen
by the session's torch); where the user's own code says it (``range(n)`` takes ``n`` as an
int), that evidence is read in every release.
"""

from __future__ import annotations

import re
from functools import lru_cache
from operator import attrgetter

from symdebug._torch.releases import OLDEST, release_named
from symdebug._torch.releases.sections import CauseFrames
from symdebug.model.types import Compile, Facts, Guard, Specialization
from symdebug.model.values import Cause, CompileId, Source, posix_path
from symdebug.processors.writes import Writes
from symdebug.torchtext.declared import SPEC, listed, static_in_spec
from symdebug.torchtext.int_use import uses_as_int

_BRANCH_OPS = ("POP_JUMP", "JUMP_IF", "TO_BOOL", "COMPARE_OP")
#: A guard that makes a symbol a constant: ``Eq(s86, 3)``.
_PINNED = re.compile(r"Eq\(\w+, -?\d+\)$")
_NAME = attrgetter("name")
#: Python's operators, as an FX node's target names them: a node of one that no operator's
#: meta ran under compares sizes for Python (``a.shape[2:] != b.shape[2:]``), a branch.
_PYTHON_OPERATORS = frozenset(
    ("eq", "ne", "lt", "le", "gt", "ge", "not_", "truth", "and_", "or_", "is_", "is_not")
)
_FILENAME = attrgetter("filename")


def frames_of(facts: Facts) -> CauseFrames:
    """The cause evidence of the release that compiled the session's facts."""
    return release_named(facts.torch.release).frames


def _is_op_frame(filename: str, name: str, frames: CauseFrames) -> bool:
    """An operator's meta or decomposition, or Dynamo running an FX node on fake tensors.

    Running a node is a log's evidence of it: a live capture knows the node itself.
    """
    return _is_node_runner(filename, name, frames) or _in_op_file(filename, frames.op_files)


@lru_cache(maxsize=8192)
def _in_op_file(filename: str, op_files: tuple[str, ...]) -> bool:
    """Whether a frame's file is an operator's meta or decomposition (by file: one str key)."""
    path = posix_path(filename)
    return any(part in path for part in op_files)


def _is_node_runner(filename: str, name: str, frames: CauseFrames) -> bool:
    """Dynamo running an FX node on fake tensors (``run_node`` in ``_dynamo/utils.py``)."""
    suffix, function = frames.node_runner
    return name == function and posix_path(filename).endswith(suffix)


def framework_cause(location: str, frames: CauseFrames = OLDEST.frames) -> Cause | None:
    """The cause a framework frame alone shows (``_prims_common/__init__.py:285 in f``).

    For a recompile whose check no guard of the log explains: torch names the framework
    line next to the user's, and an operator's meta or Inductor there is the cause.
    """
    filename, _, name = location.partition(" in ")
    path = "/" + posix_path(filename.rsplit(":", 1)[0]).lstrip("./")  # torch shortens it
    if frames.inductor in path:
        return "inductor"
    return "op_requirement" if _is_op_frame(path, name.strip(), frames) else None


def _is_backward(guard: Guard, names: list[str], frames: CauseFrames) -> bool:
    if (guard.aot_graph or "").endswith("backward"):
        return True
    function, part = frames.autograd_grad
    return function in names and any(
        frame.name == function and part in frame.filename for frame in guard.framework_stack
    )


def _op_evidence(guard: Guard, names: list[str], frames: CauseFrames) -> bool:
    """An operator needed the guard: the node being run, op frames, or AOT tracing."""
    # An export traces the model itself with AOT (make_fx): its phase shows no operator.
    if guard.phase == "aot" and not guard.compile_id.is_export:
        return True
    stack = guard.framework_stack
    if _compares_sizes(guard, names, frames):
        return False  # no operator ran: Python compared sizes (a tuple of them, say)
    op_files = frames.op_files
    if any(_in_op_file(name, op_files) for name in map(_FILENAME, stack)):
        return True
    if guard.fx_node is not None and not guard.fx_node_inferred:
        return True  # the exact node
    runner = frames.node_runner[1]
    return runner in names and any(_is_node_runner(f.filename, f.name, frames) for f in stack)


def _compares_sizes(guard: Guard, names: list[str], frames: CauseFrames) -> bool:
    """Python compared sizes, and no operator's meta ran.

    The evidence: the guard's own node is one of Python's operators (live), or Dynamo
    compared two sequences (a log, whose node is only inferred).  Dynamo's own handling of
    the operands (its ``variables/`` files) is no operator: a tensor comparison would run
    its meta (``_refs``, ``_prims_common``) below it.
    """
    target = guard.fx_node_target or ""
    exact = guard.fx_node is not None and not guard.fx_node_inferred
    operator = exact and target.rsplit(".", 1)[-1] in _PYTHON_OPERATORS
    if not operator and frames.sequence_compare.isdisjoint(names):
        return False
    meta_files = _meta_files(frames.op_files)
    return not any(_in_op_file(name, meta_files) for name in map(_FILENAME, guard.framework_stack))


@lru_cache(maxsize=8)
def _meta_files(op_files: tuple[str, ...]) -> tuple[str, ...]:
    """The operator files that are an operator's own (not Dynamo's handling of values)."""
    return tuple(part for part in op_files if "/_dynamo/" not in part)


def _compiler_cause(guard: Guard, names: list[str], frames: CauseFrames) -> Cause | None:
    """Backward, Inductor or an int made static: causes the compiler phase itself shows."""
    if guard.phase in ("inductor", "aot") and _is_backward(guard, names, frames):
        return "backward"
    if guard.phase == "inductor":
        return "inductor"
    return "int_specialized" if frames.int_use.intersection(names) else None


def is_python_branch(guard: Guard, frames: CauseFrames = OLDEST.frames) -> bool:
    """Evidence that Python code branched on the guard's value, and no operator needed it.

    Read before any FX node is inferred: a branch makes no node, so nodes on the same line
    are only its neighbours.
    """
    if guard.phase == "inductor":
        return False  # the compiler's own guard (:func:`_compiler_cause`), read first
    names = list(map(_NAME, guard.framework_stack))  # most causes need only the names
    if _compiler_cause(guard, names, frames) is not None or _op_evidence(guard, names, frames):
        return False
    return _value_asked(guard, names, frames) and not _line_uses_as_int(guard)


def _value_asked(guard: Guard, names: list[str], frames: CauseFrames) -> bool:
    """Python asked for the guard's value: a branch instruction, ``evaluate_expr``, an export."""
    branch_op = (guard.instruction or "").startswith(_BRANCH_OPS)
    # An export's model line with no operator below it: Python asked for the value.
    exported = guard.compile_id.is_export and guard.user_frame is not None
    asked = branch_op or not frames.value_asked.isdisjoint(names) or exported
    return asked or _compares_sizes(guard, names, frames)  # a comparison's bool is Python's


def _line_uses_as_int(guard: Guard) -> bool:
    """An int specialization read from the user's own code.

    The user's line takes the guard's input as a Python int (``range(n)``), and the guard
    pins it to a constant.
    """
    frame = guard.user_frame
    if frame is None or not frame.line or not _PINNED.match(guard.expr):
        return False
    return uses_as_int(frame.line, tuple(Source(source).shape for source in guard.sources))


def guard_cause(guard: Guard, frames: CauseFrames = OLDEST.frames) -> Cause:
    """The cause of one guard, from its phase, frames, node, instruction and user line."""
    names = list(map(_NAME, guard.framework_stack))  # most causes need only the names
    compiler = _compiler_cause(guard, names, frames)
    if compiler is not None:
        return compiler
    if _line_uses_as_int(guard):
        return "int_specialized"
    if _op_evidence(guard, names, frames):
        return "op_requirement"
    if _value_asked(guard, names, frames):  # what is_python_branch asks once the above said no
        return "user_branch"
    return "op_requirement" if guard.fx_node is not None else "unknown"


def cause_reads(guard: Guard) -> tuple[object, ...]:
    """All that :func:`guard_cause` and :func:`is_python_branch` read of a guard, as a key.

    The guards of one stack tail share its framework frames' list, so the list's identity
    stands for the frames while every guard holds it: a key is good for one pass.  The user
    line is read only for a guard that pins a symbol (``Eq(s0, 3)``).
    """
    pinned = _PINNED.match(guard.expr) is not None
    return (
        id(guard.framework_stack),
        guard.phase,
        guard.aot_graph,
        guard.fx_node is None,
        guard.fx_node_inferred,
        guard.fx_node_target,
        guard.instruction,
        not guard.user_stack,
        guard.compile_id.is_export,
        (guard.user_frame.line if guard.user_frame else "", tuple(guard.sources))
        if pinned
        else None,
    )


def classify_guards(facts: Facts) -> Writes:
    """Set ``cause`` on every guard; guards alike in all it reads share one answer."""
    frames = frames_of(facts)
    known: dict[tuple[object, ...], Cause] = {}
    causes: list[Cause] = []
    for guard in facts.guards:
        key = cause_reads(guard)
        cause = known.get(key)
        if cause is None:
            cause = known[key] = guard_cause(guard, frames)
        causes.append(cause)
    return Writes().set("cause", facts.guards, causes)


def _violated(spec: Specialization, compile_: Compile | None) -> bool:
    """A marked dim fixed: torch names its source, or (export) it was a requested ``Dim``."""
    if compile_ is None or compile_.fail_type != "ConstraintViolationError":
        return False
    if compile_.kind == "export":
        return spec.source in compile_.marked_dynamic
    return spec.source in (compile_.fail_reason or "")


def _value_changed_before(spec: Specialization, history: list[Specialization]) -> bool:
    return any(other.value != spec.value for other in history)


def specialization_cause(
    spec: Specialization,
    compile_: Compile | None,
    history: list[Specialization],
    *,
    was_dynamic: bool = False,
    dynamic_later: bool = False,
) -> Cause:
    """The cause of one specialization; ``history`` holds earlier ones of the same source.

    ``was_dynamic``: an earlier compile of the frame had the source as a symbol, so it is
    dynamic now (automatic dynamic) and only the 0/1 rule can make it a constant again.  A
    dim marked dynamic (``mark_dynamic``) that was 0 or 1 was made a constant by that rule too.
    ``dynamic_later``: a later compile of the frame kept the source a symbol, so nothing in
    the code needs it constant: only the static first compile held it.
    """
    marking = _marking_cause(spec, compile_) or _declared_cause(spec, compile_)
    if marking is not None:
        return marking
    if spec.guards:
        cause = spec.guards[0].cause
        return "int_specialized" if spec.kind == "int" and cause == "unknown" else cause
    static_compile = compile_ is not None and compile_.dynamic is False
    marked = compile_ is not None and spec.source in compile_.marked_dynamic
    static = _static_cause(compile_)
    if spec.kind == "int":
        return _int_cause(
            spec, history, static, static_compile=static_compile, dynamic_later=dynamic_later
        )
    if spec.value in (0, 1) and (
        not static_compile or was_dynamic or marked or _value_changed_before(spec, history)
    ):
        return "zero_one"
    return static if static_compile else "unknown"


def _int_cause(
    spec: Specialization,
    history: list[Specialization],
    static: Cause,
    *,
    static_compile: bool,
    dynamic_later: bool,
) -> Cause:
    """An int of a static compile is static while its value never changed.

    An argument, or any int that a later compile kept a symbol (an item of a list of
    offsets, a dataclass's field): torch's automatic dynamic made it one, so the code never
    needed it constant, whatever it later does with it (a slice bound, a loop count).
    """
    is_argument = spec.source.count("[") == 1 and not spec.source.attributes
    if static == "dynamic_false" and is_argument:
        return static
    held_static = is_argument or dynamic_later
    if static_compile and held_static and not _value_changed_before(spec, history):
        return static  # the history is read only when the rest holds
    return "int_specialized"


def _marking_cause(spec: Specialization, compile_: Compile | None) -> Cause | None:
    """What the user's marks decided: ``mark_dynamic`` violated, or ``mark_static``."""
    if _violated(spec, compile_):
        return "mark_dynamic_violated"
    if compile_ is not None and spec.source in compile_.marked_static:
        return "mark_static"
    return None


def _declared_cause(spec: Specialization, compile_: Compile | None) -> Cause | None:
    """What the user declared static, where it is what held the input constant.

    A ``dynamic_shapes`` spec's ``STATIC`` dim (torch 2.14); a ``static_sources`` entry
    (torch 2.15), on every compile: torch holds a listed source static over automatic
    dynamic and over ``maybe_mark_dynamic`` alike, so no mark helps until it leaves the list.
    """
    declared = compile_.declared if compile_ is not None else {}
    if not declared:
        return None
    if SPEC in declared and static_in_spec(declared[SPEC], spec.source):
        return "dynamic_shapes"
    listed_static = listed(declared.get("static_sources", ""), spec.source)
    return "static_sources" if listed_static else None


def _static_cause(compile_: Compile | None) -> Cause:
    """Why a size of a static compile is a constant: the default, or ``dynamic=False``.

    Under ``dynamic=False`` (automatic dynamic off) a size that changes is never made
    dynamic: each new value compiles again, up to the recompile limit.
    """
    off = compile_ is not None and compile_.automatic_dynamic is False
    return "dynamic_false" if off else "static_by_default"


def classify_specializations(facts: Facts) -> Writes:
    """Set ``cause`` on every specialization, in compile order."""
    compiles = {c.compile_id: c for c in facts.compiles}
    order = {c.compile_id: index for index, c in enumerate(facts.compiles)}
    first_symbolic, last_symbolic = _symbolic_span(facts, compiles, order)
    seen: dict[tuple[int, str], list[Specialization]] = {}
    causes: list[Cause] = []
    for spec in facts.specializations:
        compile_ = compiles.get(spec.compile_id)
        frame = compile_.frame_id if compile_ is not None else -1
        history = seen.setdefault((frame, spec.source), [])
        first = first_symbolic.get((frame, spec.source), len(order))
        index = order.get(spec.compile_id, -1)
        was_dynamic = first < index
        dynamic_later = last_symbolic.get((frame, spec.source), -1) > index
        causes.append(
            specialization_cause(
                spec, compile_, history, was_dynamic=was_dynamic, dynamic_later=dynamic_later
            )
        )
        history.append(spec)  # its value is what the later ones of the source compare
    return Writes().set("cause", facts.specializations, causes)


def _symbolic_span(
    facts: Facts, compiles: dict[CompileId, Compile], order: dict[CompileId, int]
) -> tuple[dict[tuple[int, str], int], dict[tuple[int, str], int]]:
    """The first compile of each (frame, source) with it a symbol, and the last that kept it.

    For the last, a symbol whose source the same compile also made a constant (``range(n)``
    pinned it) does not count: the code needed it constant there.
    """
    pinned = {(s.compile_id, s.source) for s in facts.specializations}
    first: dict[tuple[int, str], int] = {}
    last: dict[tuple[int, str], int] = {}
    for symbol in facts.symbols:
        compile_ = compiles.get(symbol.compile_id)
        if compile_ is None:
            continue
        index = order[symbol.compile_id]
        for source in symbol.sources:
            key = (compile_.frame_id, source)
            first[key] = min(first.get(key, index), index)
            if (symbol.compile_id, source) not in pinned:
                last[key] = max(last.get(key, -1), index)
    return first, last
