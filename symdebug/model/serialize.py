"""Facts <-> JSON.  Lossless: guards are stored once and referenced by id."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import IO, Any

import orjson

from symdebug.model import json_text
from symdebug.model.code_types import (
    GraphCode,
    Kernel,
    KernelLiteral,
    KernelSizeArg,
    SpecializedDim,
)
from symdebug.model.hunt_types import HuntRow
from symdebug.model.types import (
    Callee,
    Compile,
    Facts,
    Fix,
    Frame,
    GraphBreak,
    Guard,
    InputDim,
    LostDynamism,
    Recompile,
    ShapeCheck,
    Signature,
    SourceExplanation,
    Specialization,
    Symbol,
    TensorCheck,
    TensorMeta,
    WhyStep,
)

SCHEMA_VERSION = 11
#: The notebook MIME type of the document: the version is part of its name.
MIME_TYPE = f"application/vnd.symdebug.session.v{SCHEMA_VERSION}+json"
#: Versions this code reads.  v2 added FX nodes, kernels, graph code and guard node links;
#: a v1 document reads with those empty.  v3 added the sources of each recompile's failed
#: check; an older document gets those of its specialization and guard.
#: v4 added the explanation of every input (``explanations``) and each symbol's fix; an
#: older document gets them from the session that reads it.
#: v5 made fixes objects (``fixes``: code, kind, explanation, settings, verified, effect) on
#: guards, symbols, specializations, recompiles and explanations; ``fix`` stays, the first
#: one's text.  An older document's fixes were text, not code: they are not read as code
#: (``fixes`` reads empty) and the session that reads it suggests them again
#: (:func:`stale_fixes`).
#: v6 added graph breaks (``graph_breaks``); an older document reads with none.
#: v7 added the user's names (``user_names`` and ``expected`` of symbols, ``user_name`` of
#: explanations, ``expected_constants`` of compiles); the reader of an older document
#: computes them (:func:`stale_names`).
#: v8 added the checks on a call's other values (``value_checks`` of compiles: ``is None``,
#: ``== True``, a string or float); an older document reads with none, and a prediction
#: from it stays unsure of such values, as before.
#: v9 added what torch checks of each tensor beyond its sizes (``tensor_checks`` of compiles:
#: type, dispatch keys, dtype, device, ``requires_grad``, marks); an older document reads
#: with none, and a prediction from it is unsure where a call passes a tensor.
#: v10 added each fix's ``diff`` and the hunt's rows (``hunt``); an older document reads
#: with none.
#: v11 added the causes that are not sizes (``dtype``, ``strides``, ``requires_grad``,
#: ``device``, ``dispatch_keys``, ``global_state``, ``mark_dynamic_range``), each
#: recompile's ``user_frame`` and ``user_names``, each guard's ``user_expr``, graph breaks'
#: ``library_frame``, compiles' ``type_ids`` and the marks a capture saw (``marks``);
#: symbols' ``user_names`` name every source.  An older document reads with none of them,
#: and its names are made when it is read.
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#: The JSON Schema of the current version, shipped inside the package; generated from the
#: dataclasses by :mod:`symdebug.model.contract` (``make contract``).
SCHEMA_FILE = "schema/session.schema.json"


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that :func:`facts_to_json` output validates against."""
    from importlib import resources

    text = resources.files("symdebug").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = orjson.loads(text)
    return schema


#: Fields that refer to records stored elsewhere in the document: in every record but
#: ``Facts`` itself, a Guard or Specialization in one of these is written as its id.
REFERENCE_FIELDS = frozenset({"guards", "guard", "specialization"})


_SCALARS = (str, int, float, bool, type(None))


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names, or None for any other type (found once per type)."""
    if cls not in _FIELD_NAMES:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else None
        _FIELD_NAMES[cls] = tuple(f.name for f in fields) if fields is not None else None
    return _FIELD_NAMES[cls]


def plain_data(value: Any) -> Any:
    """``dataclasses.asdict`` without its deep copies (the document is written at once).

    Tuples become lists, as JSON writes them anyway.
    """
    if isinstance(value, _SCALARS):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {name: plain_data(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [plain_data(item) for item in value]
    if isinstance(value, dict):
        return {key: plain_data(item) for key, item in value.items()}
    return value


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass as a dict; Guard and Specialization references become ids."""
    out: dict[str, Any] = {}
    for name in _field_names(type(obj)) or ():
        value = getattr(obj, name)
        if name in REFERENCE_FIELDS and not isinstance(obj, Facts):
            value = _reference(value)
        elif isinstance(value, Frame | Signature | Callee):
            value = plain_data(value)
        elif name == "fixes":
            value = [_fix_dict(fix) for fix in value]
        elif isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
            value = [plain_data(item) for item in value]
        elif (
            isinstance(value, dict)
            and value
            and dataclasses.is_dataclass(next(iter(value.values())))
        ):
            value = {k: plain_data(v) for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def record_to_dict(record: Any) -> dict[str, Any]:
    """One record of the facts (a guard, a symbol ...) as :func:`facts_to_dict` writes it.

    A big session's report and redacted save write the guards one at a time with it.
    """
    return _plain(record)


def _fix_dict(fix: Fix) -> dict[str, Any]:
    """A fix as a dict (fixes are shared between records: no deep copy of each)."""
    return {
        "code": fix.code,
        "kind": fix.kind,
        "explanation": fix.explanation,
        "settings": dict(fix.settings),
        "verified": fix.verified,
        "effect": fix.effect,
        "diff": fix.diff,
    }


def _reference(value: Any) -> Any:
    if isinstance(value, list):
        return [guard.id for guard in value]
    if isinstance(value, Guard):
        return value.id
    if isinstance(value, Specialization):
        return f"{value.compile_id}|{value.source}"
    return None


def facts_to_dict(facts: Facts) -> dict[str, Any]:
    """The JSON-able document for a session."""
    return {
        "schema_version": SCHEMA_VERSION,
        "source": facts.source,
        "rank": facts.rank,
        "problems": facts.problems,
        "problem_examples": facts.problem_examples,
        "capture_errors": facts.capture_errors,
        "dropped_compiles": facts.dropped_compiles,
        "compiles": [_plain(c) for c in facts.compiles],
        "guards": [_plain(g) for g in facts.guards],
        "symbols": [_plain(s) for s in facts.symbols],
        "specializations": [_plain(s) for s in facts.specializations],
        "recompiles": [_plain(r) for r in facts.recompiles],
        "fx_nodes": [plain_data(n) for n in facts.fx_nodes],
        "kernels": [plain_data(k) for k in facts.kernels],
        "graph_code": [plain_data(g) for g in facts.graph_code],
        "explanations": [_plain(e) for e in facts.explanations],
        "graph_breaks": [_plain(b) for b in facts.graph_breaks],
        "sweeps": facts.sweeps,
        "hunt": [_plain(row) for row in facts.hunt],
        "marks": [plain_data(site) for site in facts.marks],
    }


def facts_to_json(facts: Facts) -> str:
    """Serialize a session to a JSON string."""
    return json_text.dumps(facts_to_dict(facts)).decode()


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


def _hunt_row(data: dict[str, Any]) -> HuntRow:
    return HuntRow(**dict(data, user_frame=_maybe_frame(data.get("user_frame"))))


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


def check_version(document: dict[str, Any]) -> None:
    """Refuse documents of a schema this version cannot read."""
    version = document.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise ValueError(
            f"symdebug session schema_version {version!r} is not supported "
            f"(this symdebug reads versions {', '.join(map(str, READABLE_VERSIONS))})"
        )


def _taken(items: list[Any], owned: bool) -> Iterator[Any]:
    """Each item in order; from a document no one else holds, each let go once read."""
    for index, item in enumerate(items):
        if owned:
            items[index] = None
        yield item


def facts_from_dict(document: dict[str, Any], *, owned: bool = False) -> Facts:
    """Rebuild facts from :func:`facts_to_dict` output.

    ``owned``: the document is no one else's (just parsed), so its records are let go one by
    one as they are read: the parsed document and the facts are not both whole at once.
    """
    from symdebug.model.facts_reader import RECORDS, FactsReader  # it reads this module's

    check_version(document)
    reader = FactsReader()
    for key in [key for key in document if key in RECORDS]:
        for data in _taken(document[key], owned):
            reader.add(key, data)
    return reader.facts(document)


def stale_fixes(facts: Facts) -> bool:
    """Whether the facts were read from a document whose fixes were text (before v5).

    Such a record has a ``fix`` text but no ``fixes``; the reader suggests them again.
    """
    records: list[Guard | Symbol | Specialization | Recompile] = [
        *facts.guards,
        *facts.symbols,
        *facts.specializations,
        *facts.recompiles,
    ]
    return any(record.fix is not None and not record.fixes for record in records)


def stale_names(facts: Facts) -> bool:
    """Whether the facts were read from a document older than the user's names (v7).

    Such a document renamed no symbol, grouped no constant and named no explanation,
    though a wrapper's inputs were renamed or a library's constants specialized.
    """
    if any(s.user_names or s.expected for s in facts.symbols):
        return False
    renames = any(c.callee is not None and c.callee.names for c in facts.compiles)
    constants = any(
        s.state == "specialized" and s.cause == "int_specialized" for s in facts.symbols
    )
    return renames or constants


def facts_from_json(source: str | bytes | IO[bytes]) -> Facts:
    """Read a session JSON document (text, or a binary file of it), as untrusted input.

    Each record is checked against the schema as it is read, and built at once: a big
    document is never held whole as parsed JSON (:mod:`symdebug.model.session_read`).
    """
    from symdebug.model.session_read import read_facts  # it reads this module's schema

    try:
        return read_facts(source)
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise ValueError(f"not a valid symdebug session document: {detail}") from None
