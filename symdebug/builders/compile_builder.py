"""The Compile record of one frame compile: identity, status, metrics, reasons, inputs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from symdebug.builders.compile_group import CompileEvents
from symdebug.builders.export_builder import export_outcome
from symdebug.events import DECLARED_SOURCES, GRAPH_INPUTS
from symdebug.model.types import (
    Callee,
    Compile,
    Frame,
    InputDim,
    Signature,
    Symbol,
    TensorCheck,
    TensorMeta,
)
from symdebug.model.values import CompileStatus, Source
from symdebug.torchtext.declared import SPEC
from symdebug.torchtext.frames import FrameReader
from symdebug.torchtext.guard_tree import GuardTree, TensorProperties
from symdebug.torchtext.log_callee import frame_qualname, log_callee, method_qualname
from symdebug.torchtext.own_code import call_site
from symdebug.torchtext.reasons import split_payload


def _config_flag(metrics: Mapping[str, Any], name: str) -> bool | None:
    """One boolean of Dynamo's config as the compile logged it, or None."""
    config = metrics.get("dynamo_config")
    if isinstance(config, str):
        config = _config_of(config)
    if not isinstance(config, dict) or name not in config:
        return None
    return bool(config[name])


def _config_int(metrics: Mapping[str, Any], name: str) -> int | None:
    """One int of Dynamo's config as the compile logged it, or None."""
    config = metrics.get("dynamo_config")
    config = _config_of(config) if isinstance(config, str) else config
    value = config.get(name) if isinstance(config, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _declared(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """The source lists and the ``dynamic_shapes`` spec the compile ran with."""
    declared: dict[str, Any] = dict(metrics.get(DECLARED_SOURCES) or {})
    config = metrics.get("dynamo_config")
    config = _config_of(config) if isinstance(config, str) else config
    spec = config.get("_dynamic_shapes_spec") if isinstance(config, dict) else None
    if spec:
        declared[SPEC] = spec
    return declared


def _static_by_default(metrics: Mapping[str, Any]) -> bool | None:
    return _config_flag(metrics, "assume_static_by_default")


@lru_cache(maxsize=256)
def _config_of(text: str) -> Any:
    """Dynamo's config as logged (the same text for every compile of a run; read only)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def _status(group: CompileEvents, metrics: Mapping[str, Any]) -> CompileStatus:
    if metrics.get("fail_type"):
        return "failed"
    if not group.named("dynamo_output_graph"):
        return "empty" if metrics else "incomplete"
    if metrics.get("has_guarded_code") is False:
        return "incomplete"  # a graph, but no code installed: interrupted (KeyboardInterrupt)
    return "ok"


def _recompile_reasons(group: CompileEvents, metrics: Mapping[str, Any]) -> list[str]:
    event = group.last("artifact:recompile_reasons")
    if event is not None:
        return split_payload(event.payload)
    reason = metrics.get("recompile_reason")
    return [str(reason)] if reason else []


#: Equal dims are one object: a frame's recompiles see the same inputs again and again.
_input_dim = lru_cache(maxsize=65536, typed=True)(InputDim)


def _inputs(tree: GuardTree, symbols: list[Symbol]) -> list[InputDim]:
    by_source: dict[str, str] = {
        source: symbol.name for symbol in symbols for source in symbol.sources
    }
    dims: list[InputDim] = []
    for tensor in tree.tensors:
        if tensor.static_dims is not None:
            dims += tensor.static_dims
            continue
        for source, size in zip(tensor.size_sources, tensor.sizes, strict=True):
            value: int | str = size if size is not None else by_source.get(source, "?")
            dims.append(_input_dim(source, value, size is None))
    dims += tree.int_dims.values()
    return dims


def _tensor_checks(tree: GuardTree) -> list[TensorCheck]:
    """Each tensor's ``TENSOR_MATCH`` beyond its sizes, with the marks it must not carry."""
    return [
        _tensor_check(
            tensor.source,
            tensor.properties,
            tensor.strides,
            tuple(tree.absent_marks.get(tensor.source, ())),
        )
        for tensor in tree.tensors
        if tensor.properties is not None
    ]


@lru_cache(maxsize=65536)
def _tensor_check(
    source: str,
    found: TensorProperties,
    strides: tuple[int | None, ...],
    marks: tuple[str, ...],
) -> TensorCheck:
    """Shared by the compiles that check a tensor alike (recompiles repeat most parameters').

    Read-only, like every fact once built.
    """
    return TensorCheck(
        Source(source),
        found.type_name,
        found.dispatch_keys,
        found.dtype,
        found.device,
        found.requires_grad,
        list(strides),
        list(marks),
    )


def _text(value: Any) -> str | None:
    """A metric torch writes as text, as text (a damaged log may hold a number there)."""
    return None if value is None else str(value)


def _count(value: Any) -> int | None:
    """A metric torch writes as a count, or None where the log holds something else."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _caller(group: CompileEvents, reader: FrameReader) -> Frame | None:
    """The user's own line that called the compiled frame (torch logs the stack above it)."""
    start = group.last("dynamo_start")
    return call_site(reader.frames(start.body.get("stack"))) if start is not None else None


def _where(
    group: CompileEvents, metrics: Mapping[str, Any], reader: FrameReader
) -> tuple[str, str, int]:
    if metrics.get("co_name"):
        return (
            str(metrics["co_name"]),
            str(metrics.get("co_filename", "")),
            int(metrics.get("co_firstlineno") or 0),
        )
    start = group.last("dynamo_start")
    frames = reader.frames(start.body.get("stack")) if start is not None else []
    if frames:
        return frames[-1].name, frames[-1].filename, frames[-1].lineno
    return "", "", 0


def _tensor_metas(group: CompileEvents) -> dict[str, TensorMeta]:
    """Source -> dtype, device, requires_grad and strides, from the ``describe_*`` events."""
    tensors = {
        (e.body.get("describer_id"), e.body.get("id")): e.body
        for e in group.named("describe_tensor")
    }
    metas = {}
    for event in group.named("describe_source"):
        body = tensors.get((event.body.get("describer_id"), event.body.get("id")))
        if body is None or "source" not in event.body:
            continue
        metas[str(event.body["source"])] = TensorMeta(
            dtype=str(body.get("dtype", "")),
            device=str(body.get("device", "")),
            requires_grad=bool(body.get("requires_grad", False)),
            size=[int(v) for v in body.get("size", []) if isinstance(v, int)],
            stride=[int(v) for v in body.get("stride", []) if isinstance(v, int)],
        )
    return metas


def _signature(group: CompileEvents) -> Signature | None:
    event = group.last(GRAPH_INPUTS)
    data = event.body.get("signature") if event is not None else None
    return Signature(**data) if isinstance(data, dict) else None


def _callee(
    group: CompileEvents, reader: FrameReader, where: tuple[str, str, int]
) -> Callee | None:
    """What the user compiled: recorded by live capture, else read back from the log."""
    event = group.last(GRAPH_INPUTS)
    data = event.body.get("callee") if event is not None else None
    if not isinstance(data, dict):
        return _logged_callee(group, reader, where) if event is None else None
    names = data.get("names")
    return Callee(
        qualname=str(data.get("qualname") or ""),
        filename=str(data.get("filename") or ""),
        lineno=int(data.get("lineno") or 0),
        names={str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {},
    )


def _logged_callee(
    group: CompileEvents, reader: FrameReader, where: tuple[str, str, int]
) -> Callee | None:
    """A wrapper's callee from the log, else the frame's own qualified name (``A.f``)."""
    tree = group.last("dynamo_cpp_guards_str")
    start = group.last("dynamo_start")
    if tree is not None and tree.payload and start is not None:
        frames = reader.frames(start.body.get("stack"))
        found = log_callee(tree.payload, reader.strings.values(), frames)
        if found is not None:
            return found
    qualname = frame_qualname(where[1], where[2])
    if qualname is None and tree is not None and tree.payload:
        qualname = method_qualname(tree.payload, where[0])
    return Callee(qualname=qualname) if qualname and qualname != where[0] else None


def build_compile(
    group: CompileEvents, tree: GuardTree, symbols: list[Symbol], reader: FrameReader
) -> Compile:
    """One Compile from its events."""
    metrics_event = group.last("compilation_metrics")
    metrics: Mapping[str, Any] = metrics_event.body if metrics_event is not None else {}
    name, filename, lineno = _where(group, metrics, reader)
    key = group.key
    static = _static_by_default(metrics)
    seconds = metrics.get("entire_frame_compile_time_s")
    compile_ = Compile(
        compile_id=group.compile_id,
        torch_id=key.compile_id,
        generation=group.generation,
        frame_id=key.frame_id,
        frame_compile_id=key.frame_compile_id,
        attempt=key.attempt,
        name=name,
        filename=filename,
        lineno=lineno,
        status=_status(group, metrics),
        fail_type=_text(metrics.get("fail_type")),
        fail_reason=_text(metrics.get("fail_reason")),
        recompile_reasons=_recompile_reasons(group, metrics),
        restart_reasons=[str(r) for r in metrics.get("restart_reasons") or []],
        graphs=[e.payload for e in group.named("dynamo_output_graph") if e.payload],
        dynamic=None if static is None else not static,
        inputs=_inputs(tree, symbols),
        marked_dynamic=[Source(s) for s in tree.marked_dynamic],
        marked_static=[Source(s) for s in tree.marked_static],
        automatic_dynamic=_config_flag(metrics, "automatic_dynamic_shapes"),
        recompile_limit=_config_int(metrics, "recompile_limit"),
        accumulated_recompile_limit=_config_int(metrics, "accumulated_recompile_limit"),
        shape_checks=list(tree.shape_lines),
        value_checks=list(tree.value_lines),
        type_ids=dict(tree.type_ids),
        tensor_checks=_tensor_checks(tree),
        signature=_signature(group),
        tensors=_tensor_metas(group),
        global_state=dict(tree.global_state),
        guard_count=_count(metrics.get("guard_count")),
        shape_env_guard_count=_count(metrics.get("shape_env_guard_count")),
        seconds=float(seconds) if isinstance(seconds, int | float) else None,
        rank=group.rank,
        callee=_callee(group, reader, (name, filename, lineno)),
        caller=_caller(group, reader),
        declared=_declared(metrics),
    )
    return _as_export(compile_, group, reader) if group.kind == "export" else compile_


def _as_export(compile_: Compile, group: CompileEvents, reader: FrameReader) -> Compile:
    """An export's record: its call site and outcome instead of a frame's metrics."""
    outcome = export_outcome(group, reader)
    compile_.kind = "export"
    compile_.torch_id = compile_.compile_id
    compile_.frame_id = -1 - compile_.frame_compile_id  # each export is its own "frame"
    for name in ("name", "filename", "lineno", "status", "fail_type", "fail_reason"):
        setattr(compile_, name, getattr(outcome, name))
    compile_.marked_dynamic = outcome.marked_dynamic
    return compile_
