"""``why(source)``: the evidence chain for one input dimension or int.

The answer itself (state, cause, guards, recompiles, fixes) was computed once, by the
explanations pass, and stored with the facts; this query finds it by any name the user
gives, adds the input's history across compiles and, when the provenance graph is at
hand, the chain from each recompile's failed check to its user line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from symdebug.fixes.fix_text import fix_lines
from symdebug.fixes.guard_text import guard_said, guard_text
from symdebug.graph_paths import path_to_user_line
from symdebug.model.compiler_guards import compiler_guard_note
from symdebug.model.definitions import FrameKey, firsts_by_frame, frame_key, frame_label
from symdebug.model.index import FactIndex
from symdebug.model.names import input_names, sources_named
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import (
    Compile,
    Fix,
    Frame,
    GraphBreak,
    Guard,
    LostDynamism,
    Recompile,
    SourceExplanation,
)
from symdebug.model.values import Cause, CompileId, Source, SymbolState
from symdebug.processors.graph_break_steps import DATA_DEPENDENT, break_step
from symdebug.torchtext.own_code import library_of, user_line
from symdebug.torchtext.reasons import first_reason_line

if TYPE_CHECKING:
    from collections.abc import Callable

    import networkx as nx

MAX_GUARDS_SHOWN = 8


@dataclass(slots=True)
class Explanation:
    """Why a source is dynamic or constant in its latest compile."""

    source: Source
    state: SymbolState
    cause: Cause | None
    value: int | str | None
    compile_id: CompileId
    guards: list[Guard] = field(default_factory=list)
    user_frame: Frame | None = None
    #: What would keep it dynamic, best first: code, kind, and whether a replay verified it.
    fixes: list[Fix] = field(default_factory=list)
    recompiles: list[Recompile] = field(default_factory=list)
    history: list[tuple[str, str, int | str | None]] = field(default_factory=list)
    symbol: str | None = None
    chains: dict[str, list[str]] = field(default_factory=dict)
    #: The graph breaks that made this input a constant in a resume frame (or took the
    #: dynamism of this marked input away from the rest of its frame), with what each lost.
    graph_breaks: list[tuple[GraphBreak, LostDynamism]] = field(default_factory=list)
    #: The input as the user names it, when Dynamo's name is a wrapper's (``x.shape[0]``
    #: for ``L['args'][0].size()[0]``); empty otherwise.
    user_name: str = ""
    #: The innermost traced line when it lies in a library (``torch``, ``transformers``):
    #: context for ``user_frame``, the deepest line of the user's own code.
    library_frame: Frame | None = None
    #: The data-dependent breaks or errors on this input's unbacked symbol, as text.
    data_dependent: list[str] = field(default_factory=list)
    #: The same input in other frames (an older definition of a re-run cell's function,
    #: another function, an earlier generation), one labelled line each, kept apart from
    #: ``recompiles`` and ``history``, which are about the frame of ``compile_id`` only.
    other_frames: list[str] = field(default_factory=list)
    #: Each of ``guards`` as Python in the user's names (``x.shape[0] * y.shape[0] != 18``
    #: for ``Ne(s17*s77, 18)``), ``""`` for one without such a form (an unbacked ``u0``).
    guard_texts: list[str] = field(default_factory=list)

    @property
    def fx_node(self) -> str | None:
        """The FX node of the first guard that has one."""
        return next((g.fx_node for g in self.guards if g.fx_node), None)

    @property
    def framework_frame(self) -> Frame | None:
        """The framework frame of the first guard."""
        return next((g.framework_frame for g in self.guards if g.framework_frame), None)

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        value = f" = {self.value}" if self.value is not None else ""
        name = self.user_name or self.source.shape
        said = f"{name} ({self.source})" if name != self.source else self.source
        lines = [f"{said} is {self.state}{value} in compile {self.compile_id}"]
        if self.cause and self.state != "dynamic":
            lines.append(f"  cause: {self.cause}")
        texts = self.guard_texts or [""] * len(self.guards)
        for g, text in zip(self.guards[:MAX_GUARDS_SHOWN], texts, strict=False):
            lines.append(f"  guard: {guard_said(g, text)}  [{g.status}, {g.phase}]")
            note = compiler_guard_note(g)
            lines += [f"      ({note})"] if note else []
        label = "first used at" if self.state == "dynamic" else "user line"
        lines.append(f"  {label}: {_where(self.user_frame)}")
        if self.library_frame is not None:
            library = library_of(self.library_frame.filename)
            lines.append(f"  library line ({library}): {_where(self.library_frame)}")
        if self.framework_frame is not None:
            fw = self.framework_frame
            lines.append(f"  framework line: {fw.filename}:{fw.lineno} in {fw.name}")
        if self.fx_node:
            lines.append(f"  FX node: {self.fx_node}")
        for r in self.recompiles:
            reason = first_reason_line(r.reasons)
            lines.append(f"  recompile {r.compile_id} (entry {r.failed_entry} failed): {reason}")
            lines += [f"      -> {step}" for step in self.chains.get(r.compile_id, [])]
        lines += [f"  {break_step(b, lost).text}" for b, lost in self.graph_breaks]
        lines += [f"  {text}" for text in self.data_dependent]
        for fix in self.fixes:
            lines += fix_lines(fix)
        lines += [f"  elsewhere: {text}" for text in self.other_frames]
        return "\n".join(lines)


def _where(frame: Frame | None) -> str:
    if frame is None:
        return "(no user frame: the compiler raised it)"
    line = f"\n        {frame.line}" if frame.line else ""
    return f"{frame.filename}:{frame.lineno} in {frame.name}{line}"


def resolve_source(index: FactIndex, name: str, dim: int | None = None) -> Source:
    """Turn ``("x", 0)``, ``"x.size()[0]"``, ``"L['x'].size()[0]"`` or ``"s77"`` into a source.

    A tensor asked without its dim is answered when one dim of it is explained.
    """
    wanted = f"{name}.size()[{dim}]" if dim is not None else name
    local = f"L['{name}'].size()[{dim}]" if dim is not None else f"L['{name}']"
    for candidate in (wanted, local, *_renamed(index, name, dim)):
        if candidate in index.explanations:
            return Source(candidate)
    found = _matches(index, name, dim)
    if not found:
        return _no_match(index, name, wanted)
    same_tensor = len({src.tensor for src in found}) == 1 and all(s.is_size for s in found)
    if dim is None and len(found) > 1 and same_tensor:
        raise WhichDimError(name, [(d.dim, d.shape) for d in found if d.dim is not None])
    return found[0]


class NotAnInputError(KeyError):
    """A symbol torch created asked for as if it were an input.

    ``str()`` points to ``s.symbols``; :meth:`asking` to another place (the CLI's summary).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(self.asking("s.symbols"))

    def asking(self, where: str) -> str:
        """The message, pointing to ``where`` for the symbol's origin."""
        return (
            f"{self.name!r} is a symbol torch created, not an input (an unbacked size or an "
            f"intermediate): its origin, user line and runtime asserts are in {where}"
        )


class WhichDimError(KeyError):
    """A tensor asked for without its dimension where several of its dims are explained.

    ``str()`` asks in Python (``why('x', 0)``); :meth:`asking` in another syntax (the CLI's).
    """

    def __init__(self, name: str, dims: list[tuple[int, str]]) -> None:
        self.name = name
        self.dims = dims
        super().__init__(self.asking(lambda dim: f"why({name!r}, {dim})"))

    def asking(self, ask: Callable[[int], str]) -> str:
        """The message, each dimension asked for as ``ask(dim)`` writes it."""
        choices = ", ".join(f"{ask(dim)} for {shape}" for dim, shape in self.dims)
        return f"{self.name!r} has {len(self.dims)} explained dimensions; ask for one: {choices}"


def _matches(index: FactIndex, name: str, dim: int | None) -> list[Source]:
    """Explained sources the name may mean, by the first way that finds any."""
    known = [e.source for e in index.facts.explanations]
    wanted = f"{name}.size()[{dim}]" if dim is not None else name
    suffix = f"['{name}'].size()[{dim}]" if dim is not None else f"['{name}']"
    return (
        [src for src in known if src.same_input(wanted)]
        or [src for src in known if src.endswith(suffix)]
        or (_explained_dims(index, name) if dim is None else [])
        or [e.source for e in reversed(index.facts.explanations) if e.symbol == name][:1]
    )


def _no_match(index: FactIndex, name: str, wanted: str) -> Source:
    """Raise the reason nothing matches: a symbol torch made, or an unknown name."""
    if any(symbol.name == name for symbol in index.facts.symbols):
        raise NotAnInputError(name)
    known = [e.source.shape for e in index.facts.explanations[:20]]
    listing = ", ".join(known) or "none (nothing was compiled)"
    raise KeyError(f"no input source matches {wanted!r}; known sources: {listing}")


def _explained_dims(index: FactIndex, name: str) -> list[Source]:
    """The explained sizes of the tensor ``name`` (by parameter name or Dynamo's source)."""
    tensors = {name, f"L['{name}']", *_renamed(index, name, None)}
    found = [e.source for e in index.facts.explanations if e.source.is_size]
    return sorted(
        (
            src
            for src in found
            if src.tensor in tensors or src.same_input(f"{name}.size()[{src.dim}]")
        ),
        key=lambda src: src.dim or 0,
    )


def _renamed(index: FactIndex, name: str, dim: int | None) -> list[str]:
    """The wrapper sources a parameter name stands for (``x`` -> ``L['args'][0]``)."""
    roots = sources_named(input_names(index.facts.compiles), name)
    return [f"{root}.size()[{dim}]" if dim is not None else root for root in roots]


def _describe(graph: nx.MultiDiGraph, key: str) -> str:
    data = graph.nodes[key]
    kind = data.get("kind")
    if kind == "guard":
        return f"guard {data['expr']} [{data['cause']}]"
    if kind == "fx_node":
        return f"FX node {data['name']} ({data['target']})"
    if kind == "frame":
        return f"{data['filename']}:{data['lineno']}  {data.get('line', '')}".rstrip()
    if kind == "source":
        return f"specialized {data['source']}"
    return key


def recompile_chains(graph: nx.MultiDiGraph, recompiles: list[Recompile]) -> dict[str, list[str]]:
    """Per recompile: failed check -> guard -> its FX node (or none) -> its user line."""
    chains: dict[str, list[str]] = {}
    for recompile in recompiles:
        path = path_to_user_line(graph, recompile.compile_id)[1:]
        steps = [_describe(graph, key) for key in path]
        note = compiler_guard_note(recompile.guard) if recompile.guard is not None else None
        if note is not None:
            steps.insert(1, note)
        elif recompile.guard is not None and not any(k.startswith("fxnode:") for k in path):
            lines = recompile.guard.line_nodes
            steps.insert(
                1,
                "no FX node: Python control flow"
                + (f" (line makes {', '.join(lines)})" if lines else ""),
            )
        chains[recompile.compile_id] = steps
    return chains


def _history(index: FactIndex, source: Source) -> list[tuple[str, str, int | str | None]]:
    symbols = [s for s in index.symbols_for(source) if source in s.sources]
    return [(s.compile_id, s.state, s.hint) for s in symbols]


def breaks_of(index: FactIndex, source: Source) -> list[tuple[GraphBreak, LostDynamism]]:
    """The graph breaks that lost ``source``'s dynamism, on either side of the break."""
    return [
        (graph_break, lost)
        for graph_break in index.facts.graph_breaks
        for lost in graph_break.lost
        if source == lost.source or source in lost.resume_sources
    ]


def _lines(index: FactIndex, stored: SourceExplanation) -> tuple[Frame | None, Frame | None]:
    """``(user line, library line)``: the user's own line, the traced one as context."""
    compile_ = index.compile.get(stored.compile_id)
    stack = stored.guards[0].user_stack if stored.guards else []
    return user_line(stored.user_frame, stack, compile_.caller if compile_ else None)


def _in_frame(index: FactIndex, compile_id: str, key: FrameKey | None) -> bool:
    compile_ = index.compile.get(compile_id)
    return compile_ is not None and frame_key(compile_) == key


def _other_frames(
    index: FactIndex, current: Compile | None, recompiles: list[Recompile], history: list[Any]
) -> list[str]:
    """One line per other frame that saw the input: its label, states and recompiles."""
    ids = [step[0] for step in history] + [r.compile_id for r in recompiles]
    others = firsts_by_frame(index.compile[c] for c in ids if c in index.compile)
    key = frame_key(current) if current is not None else None
    return [
        _other_frame(index, first, current, recompiles, history)
        for other, first in others.items()
        if other != key
    ]


def _other_frame(
    index: FactIndex,
    first: Compile,
    current: Compile | None,
    recompiles: list[Recompile],
    history: list[Any],
) -> str:
    key = frame_key(first)
    states = [f"{c} {state} {value}" for c, state, value in history if _in_frame(index, c, key)]
    again = [r.compile_id for r in recompiles if _in_frame(index, r.compile_id, key)]
    older = current is not None and current.name == first.name and key < frame_key(current)
    label = f"{'older definition ' if older else ''}{frame_label(first)}"
    return f"{label}: {', '.join(states) or 'no state'}; recompiles {again or 'none'}"


def explanation_of(index: FactIndex, stored: SourceExplanation) -> Explanation:
    """The stored answer for an input, with the objects it refers to.

    Recompiles and history are the frame's of ``stored.compile_id`` (the newest definition);
    other frames that saw the same input are listed apart, labelled (``other_frames``).
    """
    user_frame, library_frame = _lines(index, stored)
    compile_ = index.compile.get(stored.compile_id)
    key = frame_key(compile_) if compile_ is not None else None
    recompiles = [index.recompile[c] for c in stored.recompiles if c in index.recompile]
    history = _history(index, stored.source)
    names = input_names([compile_]) if compile_ is not None else {}
    return Explanation(
        source=stored.source,
        state=stored.state,
        cause=stored.cause,
        value=stored.value,
        compile_id=stored.compile_id,
        guards=list(stored.guards),
        user_frame=user_frame,
        library_frame=library_frame,
        fixes=list(stored.fixes),
        recompiles=[r for r in recompiles if _in_frame(index, r.compile_id, key)],
        history=[step for step in history if _in_frame(index, step[0], key)],
        symbol=stored.symbol,
        graph_breaks=breaks_of(index, stored.source),
        user_name=stored.user_name,
        data_dependent=[s.text for s in stored.steps if s.text.startswith(DATA_DEPENDENT)],
        other_frames=_other_frames(index, compile_, index.recompiles_for(stored.source), history),
        guard_texts=[guard_text(g, names) for g in stored.guards],
    )


def why(
    index: FactIndex, name: str, dim: int | None = None, graph: nx.MultiDiGraph | None = None
) -> Explanation:
    """Explain a source in its latest compile, with its history across compiles."""
    source = resolve_source(index, name, dim)
    stored = index.explanation(source)
    if stored is None:  # resolve_source only returns explained sources
        raise KeyError(source)
    explanation = explanation_of(index, stored)
    if graph is not None:
        explanation.chains = recompile_chains(graph, explanation.recompiles)
    return explanation
