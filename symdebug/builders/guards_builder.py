"""Guards of one compile: from ``guard_added_fast`` events and, live, the ShapeEnv."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from symdebug.builders.cache_hits import replayed_events
from symdebug.builders.compile_group import CompileEvents
from symdebug.builders.export_builder import export_user_stack
from symdebug.events import SHAPE_ENV, Event
from symdebug.model.compiler_guards import FROM_CACHE
from symdebug.model.types import Frame, Guard
from symdebug.model.values import CompileId, GuardStatus
from symdebug.torchtext.frames import is_torch_file
from symdebug.torchtext.stacks import StackEvidence, StackReader
from symdebug.torchtext.symbol_names import free_symbols


def _live_status(evidence: StackEvidence, live: Mapping[str, Any]) -> GuardStatus:
    """The status torch gives a guard as it is added.

    A frozen ShapeEnv ignores a guard (and counts it) before it asks whether guards are
    suppressed (``ShapeEnv._check_frozen``, in every release): such a guard is ignored.
    """
    if evidence.runtime_assert:
        return "runtime-assert"
    if live.get("frozen"):
        return "ignored"
    if live.get("suppressed"):
        return "suppressed"
    return "installed"


def _node_name(live: Mapping[str, Any]) -> str | None:
    node = live.get("_node")
    if node is not None:
        return str(node.name)  # the final name: Dynamo may have renamed the node
    name = live.get("fx_node")
    return str(name) if name is not None else None


def guard_from_event(event: Event, compile_id: CompileId, reader: StackReader) -> Guard:
    """A Guard with the provenance a ``guard_added_fast`` event carries.

    Only the framework's part of the stack is read: the evidence (phase, runtime assert,
    framework frames) lies below the last user frame.  A log's event has no live context:
    its guard keeps the defaults of the fields only a live session knows.
    """
    body = event.body
    evidence = reader.evidence(body.get("stack"))
    expr = str(body.get("expr", ""))
    guard = Guard(
        id="",
        expr=expr,
        compile_id=compile_id,
        status="runtime-assert" if evidence.runtime_assert else "installed",
        user_stack=_user_stack(body, compile_id, reader),
        # One list per stack tail, shared by its guards (as frames are): never change it.
        framework_stack=evidence.frames,
        phase=evidence.phase,
        symbols=free_symbols(expr),
    )
    if event.live:
        _add_live_context(guard, evidence, event.live)
    return guard


def _add_live_context(guard: Guard, evidence: StackEvidence, live: Mapping[str, Any]) -> None:
    """What a live session knows of a guard: its node, its instruction, the guard state."""
    instruction = live.get("instruction") or {}
    from_node = live.get("from_node") or []
    guard.status = _live_status(evidence, live)
    guard.fx_node = _node_name(live)
    guard.phase = live.get("phase") or evidence.phase
    guard.instruction = instruction.get("opname")
    guard.aot_graph = live.get("aot_graph")
    guard.fx_node_target = live.get("fx_node_target")
    guard.aot_node = str(from_node[-1]) if from_node else None
    guard.backward_trace = bool(live.get("autograd_backward"))
    guard.inductor_node = live.get("inductor_node")


def _user_stack(body: Mapping[str, Any], cid: CompileId, reader: StackReader) -> list[Frame]:
    """The event's user stack; an export's events carry none, so its model frames."""
    raw = body.get("user_stack")
    user = reader.user_frames(raw) if raw else []  # most guards' user stack is empty
    return user if user or not cid.is_export else export_user_stack(body.get("stack"), reader)


def _frame_from_loc(loc: str | None) -> list[Frame]:
    if not loc:
        return []
    match = re.search(r"(?P<file>\S+):(?P<line>\d+) in (?P<name>\S+)", loc)
    if match is None:
        return []
    return [Frame(match["file"], int(match["line"]), match["name"], loc.split("  #")[0])]


def _guard_from_shape_env(entry: Mapping[str, Any], compile_id: CompileId) -> Guard:
    """A guard the ShapeEnv holds but no event announced (provenance from its SLoc)."""
    user = [f for f in _frame_from_loc(entry.get("user")) if not is_torch_file(f.filename)]
    expr = str(entry["expr"])
    return Guard(
        id="",
        expr=expr,
        compile_id=compile_id,
        user_stack=user,
        framework_stack=_frame_from_loc(entry.get("framework")),
        symbols=free_symbols(expr),
        origin="shape_env",
    )


def _reconcile_with_shape_env(
    guards: dict[str, Guard], env: Mapping[str, Any], cid: CompileId
) -> None:
    """Live: the ShapeEnv decides what was installed; it is the source of truth."""
    installed = {str(entry["expr"]): entry for entry in env.get("guards", [])}
    asserts = set(env.get("runtime_asserts", []))
    for expr, guard in guards.items():
        if expr in installed:
            guard.status = "installed"
        elif guard.status == "installed":
            guard.status = "runtime-assert" if expr in asserts else "ignored"
    for expr, entry in installed.items():
        if expr not in guards:
            guards[expr] = _guard_from_shape_env(entry, cid)


def _guard_events(group: CompileEvents) -> list[Event]:
    """``guard_added_fast``; an export's log may hold ``guard_added`` (draft export) too."""
    fast = group.named("guard_added_fast")
    return [*fast, *group.named("guard_added")] if group.kind == "export" else fast


def build_guards(group: CompileEvents, reader: StackReader) -> list[Guard]:
    """Deduplicated guards of one compile, in the order torch added them."""
    compile_id = group.compile_id
    guards: dict[str, Guard] = {}
    events = _guard_events(group)
    replayed = replayed_events(group, events)
    for event in events:
        guard = guard_from_event(event, compile_id, reader)
        if replayed and id(event) in replayed:
            guard.origin = FROM_CACHE  # no line of the user's: the cache stored expressions
        kept = guards.get(guard.expr)
        # The same expression can be evaluated first under suppressed guards (fake tensor
        # cache checks) and installed later by another op: the installed one is its provenance.
        if kept is None or (kept.status == "suppressed" and guard.status != "suppressed"):
            guards[guard.expr] = guard
    env = group.last(SHAPE_ENV)
    if env is not None:
        _reconcile_with_shape_env(guards, env.body, compile_id)
    result = list(guards.values())
    prefix = f"{compile_id}#"  # a plain str: formats faster than the CompileId it comes from
    for index, guard in enumerate(result):
        guard.id = f"{prefix}{index}"
    return result
