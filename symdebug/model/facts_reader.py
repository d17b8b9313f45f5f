"""Facts built from a session document's records one at a time, as a reader reaches them.

A record that refers to no other (a guard, a compile) is built at once, so a streamed
document is never held as parsed JSON; the few that refer to guards or specializations
(specializations, recompiles, explanations) are kept as read and built at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symdebug.model.code_types import FxNode

# The readers of each record are serialize's own (one module writes and reads them).
from symdebug.model.serialize import (
    _compile,
    _explanation,
    _Fixes,
    _graph_break,
    _graph_code,
    _guard,
    _hunt_row,
    _kernel,
    _recompile,
    _specialization,
    _symbol,
)
from symdebug.model.types import Facts, Guard, MarkSite, Specialization

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
            sweeps=list(document.get("sweeps", [])),
            problems=dict(document.get("problems", {})),
            problem_examples=list(document.get("problem_examples", [])),
            capture_errors=int(document.get("capture_errors", 0)),
            dropped_compiles=int(document.get("dropped_compiles", 0)),
            source=str(document.get("source", "")),
            rank=document.get("rank"),
        )
