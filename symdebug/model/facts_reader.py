"""Facts built from a session document's records one at a time, as a reader reaches them.

A record that refers to no other (a guard, a compile) is built at once, so a streamed
document is never held as parsed JSON; the few that refer to guards or specializations
(specializations, recompiles, explanations) are kept as read and built at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symdebug.model import json_text
from symdebug.model.code_types import (
    FxNode,
    GraphCode,
    Kernel,
    KernelLiteral,
    KernelSizeArg,
    SpecializedDim,
)
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import (
    Callee,
    Change,
    Compile,
    Facts,
    Fix,
    Frame,
    GraphBreak,
    Guard,
    InputDim,
    LostDynamism,
    MarkSite,
    Recompile,
    ShapeCheck,
    Signature,
    SourceExplanation,
    Specialization,
    Symbol,
    TensorCheck,
    TensorMeta,
    TorchRun,
    WhyStep,
)


def _frames(items: list[dict[str, Any]] | None) -> list[Frame]:
    return [Frame(**item) for item in items or []]


def _maybe_frame(item: dict[str, Any] | None) -> Frame | None:
    return Frame(**item) if item else None


class _Fixes:
    """Reads fixes, one object for equal ones (as the fixes pass shares them); frames too.

    A guard's stack repeats the frames of thousands of others, and its texts those of the
    same check in each recompile: one object each, as the builders made them, so a session
    of a million guards does not hold a million copies of each frame.
    """

    def __init__(self) -> None:
        self.seen: dict[str, Fix] = {}
        self.frames: dict[tuple[Any, ...], Frame] = {}
        self.texts: dict[str, str] = {}

    def stack(self, items: list[dict[str, Any]] | None) -> list[Frame]:
        """The frames of a stack, each equal frame the one object (frames are never changed)."""
        return [self._frame(item) for item in items or []]

    def _frame(self, item: dict[str, Any]) -> Frame:
        key = tuple(item.items())
        frame = self.frames.get(key)
        if frame is None:
            frame = self.frames[key] = Frame(**item)
        return frame

    def shared_texts(self, data: dict[str, Any]) -> dict[str, Any]:
        """A record's text fields (but its unique id), each equal text the one object."""
        texts = self.texts
        return {
            k: texts.setdefault(v, v) if type(v) is str and k != "id" else v
            for k, v in data.items()
        }

    def read(self, items: list[Any] | None) -> list[Fix]:
        """The fixes of a record; an older document's text fixes are left out (not code)."""
        return [self._one(item) for item in items or [] if isinstance(item, dict)]

    def _one(self, item: dict[str, Any]) -> Fix:
        key = json_text.dumps(item, sort_keys=True).decode()
        fix = self.seen.get(key)
        if fix is None:
            fix = self.seen[key] = Fix(**dict(item, settings=dict(item.get("settings", {}))))
        return fix


def _guard(data: dict[str, Any], fixes: _Fixes) -> Guard:
    data = fixes.shared_texts(data)
    data.update(user_stack=fixes.stack(data["user_stack"]), fixes=fixes.read(data.get("fixes")))
    return Guard(**dict(data, framework_stack=fixes.stack(data["framework_stack"])))


def _symbol(data: dict[str, Any], fixes: _Fixes) -> Symbol:
    value_range = data.get("range")
    return Symbol(
        **dict(
            data,
            range=tuple(value_range) if value_range else None,
            user_frame=_maybe_frame(data.get("user_frame")),
            fixes=fixes.read(data.get("fixes")),
        )
    )


def _specialization(
    data: dict[str, Any], guards: dict[str, Guard], fixes: _Fixes
) -> Specialization:
    return Specialization(
        **dict(
            data,
            guards=[guards[i] for i in data["guards"]],
            user_frame=_maybe_frame(data.get("user_frame")),
            fixes=fixes.read(data.get("fixes")),
        )
    )


def _recompile(
    data: dict[str, Any],
    guards: dict[str, Guard],
    specs: dict[str, Specialization],
    fixes: _Fixes,
) -> Recompile:
    guard = guards.get(data["guard"]) if data.get("guard") else None
    spec = specs.get(data["specialization"]) if data.get("specialization") else None
    older = ([spec.source] if spec else []) + (guard.sources if guard else [])  # before v3
    sources = data.get("sources", list(dict.fromkeys(older)))
    return Recompile(
        **dict(
            data,
            guard=guard,
            specialization=spec,
            sources=sources,
            user_frame=_maybe_frame(data.get("user_frame")),
            fixes=fixes.read(data.get("fixes")),
        )
    )


def _explanation(
    data: dict[str, Any], guards: dict[str, Guard], fixes: _Fixes
) -> SourceExplanation:
    steps = [WhyStep(**dict(s, frame=_maybe_frame(s.get("frame")))) for s in data["steps"]]
    return SourceExplanation(
        **dict(
            data,
            guards=[guards[i] for i in data["guards"]],
            user_frame=_maybe_frame(data.get("user_frame")),
            steps=steps,
            fixes=fixes.read(data.get("fixes")),
        )
    )


def _graph_break(data: dict[str, Any], fixes: _Fixes) -> GraphBreak:
    return GraphBreak(
        **dict(
            data,
            user_frame=_maybe_frame(data.get("user_frame")),
            user_stack=_frames(data.get("user_stack")),
            framework_frame=_maybe_frame(data.get("framework_frame")),
            library_frame=_maybe_frame(data.get("library_frame")),
            lost=[LostDynamism(**item) for item in data.get("lost", [])],
            fixes=fixes.read(data.get("fixes")),
        )
    )


def _change(data: dict[str, Any], fixes: _Fixes) -> Change:
    return Change(
        fixes=fixes.read(data.get("fixes")),
        recompiles=list(data.get("recompiles", [])),
        causes=list(data.get("causes", [])),
        lines=_frames(data.get("lines")),
    )


def _hunt_row(data: dict[str, Any]) -> HuntRow:
    return HuntRow(**dict(data, user_frame=_maybe_frame(data.get("user_frame"))))


def _torch_run(data: Any) -> TorchRun:
    """The document's torch (a document before v12 names none: all ``""``)."""
    if not isinstance(data, dict):
        return TorchRun()
    return TorchRun(*(str(data.get(name) or "") for name in ("version", "release", "known")))


def _compile(data: dict[str, Any]) -> Compile:
    signature = data.get("signature")
    callee = data.get("callee")
    return Compile(
        **dict(
            data,
            inputs=[InputDim(**item) for item in data.get("inputs", [])],
            shape_checks=[ShapeCheck(**item) for item in data.get("shape_checks", [])],
            value_checks=[ShapeCheck(**item) for item in data.get("value_checks", [])],
            tensor_checks=[TensorCheck(**item) for item in data.get("tensor_checks", [])],
            signature=Signature(**signature) if signature else None,
            callee=Callee(**callee) if callee else None,
            caller=_maybe_frame(data.get("caller")),
            tensors={k: TensorMeta(**v) for k, v in data.get("tensors", {}).items()},
        )
    )


def _kernel(data: dict[str, Any]) -> Kernel:
    return Kernel(
        **dict(
            data,
            size_args=[KernelSizeArg(**a) for a in data.get("size_args", [])],
            literals=[KernelLiteral(**a) for a in data.get("literals", [])],
        )
    )


def _graph_code(data: dict[str, Any]) -> GraphCode:
    dims = [SpecializedDim(**d) for d in data.get("specialized_dims", [])]
    return GraphCode(**dict(data, specialized_dims=dims))


Read = Callable[[dict[str, Any], _Fixes], Any]
#: How each record that refers to no other is read (a guard is read by :meth:`add` itself).
_ALONE: dict[str, Read] = {
    "compiles": lambda data, _: _compile(data),
    "symbols": _symbol,
    "fx_nodes": lambda data, _: FxNode(**data),
    "kernels": lambda data, _: _kernel(data),
    "graph_code": lambda data, _: _graph_code(data),
    "graph_breaks": _graph_break,
    "hunt": lambda data, _: _hunt_row(data),
    "marks": lambda data, _: MarkSite.from_dict(data),
    "changes": _change,
}
#: Records that refer to guards: built once every guard is.
LATER = ("specializations", "recompiles", "explanations")
#: Every array of records, read by :meth:`FactsReader.add`.
RECORDS = frozenset({"guards", *_ALONE, *LATER})
#: Arrays an older document may leave out; the others it must have.
_REQUIRED = ("guards", "specializations", "compiles", "symbols", "recompiles")


class FactsReader:
    """Records in, in any order (:meth:`add`); the facts out (:meth:`facts`)."""

    def __init__(self) -> None:
        self.fixes = _Fixes()
        self.guards: dict[str, Guard] = {}
        self.built: dict[str, list[Any]] = {key: [] for key in _ALONE}
        #: The records that refer to guards, as read (checked by their reader's caller).
        self.later: dict[str, list[dict[str, Any]]] = {key: [] for key in LATER}

    def add(self, key: str, data: dict[str, Any]) -> None:
        """One record of the document's array ``key`` (one of :data:`RECORDS`)."""
        if key == "guards":
            guard = _guard(data, self.fixes)
            self.guards[guard.id] = guard  # a repeated id: the last one, as a dict reads it
        elif key in _ALONE:
            self.built[key].append(_ALONE[key](data, self.fixes))
        else:
            self.later[key].append(data)

    def facts(self, document: dict[str, Any]) -> Facts:
        """The facts; ``document`` holds the rest (its arrays of records may be empty).

        Raises
        ------
        KeyError
            When ``document`` lacks an array every version has.
        """
        for key in _REQUIRED:
            if key not in document:
                raise KeyError(key)
        guards, fixes, built = self.guards, self.fixes, self.built
        read = (_specialization(d, guards, fixes) for d in self.later["specializations"])
        specs: dict[str, Specialization] = {f"{s.compile_id}|{s.source}": s for s in read}
        recompiles = [_recompile(d, guards, specs, fixes) for d in self.later["recompiles"]]
        explanations = [_explanation(d, guards, fixes) for d in self.later["explanations"]]
        return Facts(
            compiles=built["compiles"],
            guards=list(guards.values()),
            symbols=built["symbols"],
            specializations=list(specs.values()),
            recompiles=recompiles,
            fx_nodes=built["fx_nodes"],
            kernels=built["kernels"],
            graph_code=built["graph_code"],
            explanations=explanations,
            graph_breaks=built["graph_breaks"],
            hunt=built["hunt"],
            marks=built["marks"],
            changes=built["changes"],
            sweeps=list(document.get("sweeps", [])),
            problems=dict(document.get("problems", {})),
            problem_examples=list(document.get("problem_examples", [])),
            capture_errors=int(document.get("capture_errors", 0)),
            dropped_compiles=int(document.get("dropped_compiles", 0)),
            source=str(document.get("source", "")),
            rank=document.get("rank"),
            torch=_torch_run(document.get("torch")),
        )
