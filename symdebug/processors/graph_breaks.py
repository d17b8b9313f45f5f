"""Link each graph break to the resume frames it created and to the dynamism they lost.

Torch names a resume function ``torch_dynamo_resume_in_<fn>_at_<line>``, after the frame
that broke and the line of that frame where it broke (the user line, or the call that led
to it when the break was in an inlined function).  The resume frame receives the live
values as new inputs: a tensor marked with ``mark_dynamic`` in the caller arrives unmarked,
a size read before the break arrives as a plain int, so its first compile makes them
constants.  Which input carries which size is found by value: the hint of the broken
compile's symbol equals the constant in the resume compile.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from typing import NamedTuple

from symdebug.fixes.data_dependent_fixes import break_symbol, data_dependent_fixes
from symdebug.fixes.graph_break_fixes import break_fixes
from symdebug.model.types import (
    Compile,
    Facts,
    Fix,
    GraphBreak,
    InputDim,
    LostDynamism,
    Symbol,
)
from symdebug.model.values import CompileId, Source
from symdebug.processors.writes import Writes
from symdebug.torchtext.break_frames import compiled_frames

RESUME_PREFIX = "torch_dynamo_resume_in_"
#: (compile id, symbol name) -> the symbol's hint.
Hints = Mapping[tuple[str, str], int | None]
_RESUME = re.compile(rf"^{RESUME_PREFIX}(?P<fn>.+)_at_(?P<line>\d+)$")


def resume_name(function: str, line: int) -> str:
    """The name torch gives the resume function of ``function`` broken at ``line``."""
    match = _RESUME.match(function)
    base = match["fn"] if match else function  # a resume frame that breaks again
    return f"{RESUME_PREFIX}{base}_at_{line}"


def _resume_names(broken: Compile, graph_break: GraphBreak) -> list[str]:
    """The names of the resume frames this break may have created (none for a skip).

    A resume frame starts at the line of the broken frame itself (not of a function it
    inlined, nor of a caller's line in the same file); any of its file's lines when torch's
    traceback names the frame nowhere.
    """
    if graph_break.skipped:
        return []
    stack = graph_break.user_stack
    own = [stack[i] for i in compiled_frames(stack, broken.name, broken.filename)]
    lines = {f.lineno for f in own or stack if f.filename == broken.filename}
    return list(dict.fromkeys(resume_name(broken.name, line) for line in sorted(lines)))


#: (resume name, file, generation) -> the frames whose breaks make a resume frame of it.
Producers = Mapping[tuple[str, str, int], set[int]]


def _producers(facts: Facts, by_id: Mapping[CompileId, Compile]) -> Producers:
    found: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    for graph_break in facts.graph_breaks:
        broken = by_id.get(graph_break.compile_id)
        if broken is not None:
            generation = broken.compile_id.generation
            for name in _resume_names(broken, graph_break):
                found[(name, broken.filename, generation)].add(broken.compile_id.frame_id)
    return found


def _parent(resume: Compile, producers: Producers) -> int | None:
    """The frame whose break made this resume frame: the newest one before it.

    A resume frame that breaks again at the same line makes one of the same name; frames
    are numbered as first compiled, and a resume frame right after the frame that made it.
    """
    cid = resume.compile_id
    makers = producers.get((resume.name, resume.filename, cid.generation), set())
    return max((frame for frame in makers if frame < cid.frame_id), default=None)


def _resume_compiles(
    broken: Compile,
    graph_break: GraphBreak,
    by_name: dict[tuple[str, str], list[Compile]],
    producers: Producers,
) -> list[Compile]:
    """The compiles of the resume frames this break created (none for a skipped frame)."""
    frame = broken.compile_id.frame_id
    return [
        c
        for name in _resume_names(broken, graph_break)
        for c in by_name.get((name, broken.filename), [])
        if _parent(c, producers) == frame
    ]


def _dynamic_dims(compile_: Compile, hints: Hints) -> list[InputDim]:
    """The broken compile's symbolic inputs whose symbol has a known hint."""
    return [
        dim
        for dim in compile_.inputs
        if dim.symbolic and hints.get((compile_.compile_id, str(dim.value))) is not None
    ]


def _marked(compile_: Compile, source: Source) -> bool:
    marked = compile_.marked_dynamic
    return source in marked or (source.tensor is not None and source.tensor in marked)


def _carrying(resume: Compile, hint: int | None, hints: Hints) -> list[InputDim]:
    """The resume compile's inputs whose value (or symbol's hint) is ``hint``."""
    return [
        d
        for d in resume.inputs
        if (hints.get((resume.compile_id, str(d.value))) if d.symbolic else d.value) == hint
    ]


def lost_dynamism(broken: Compile, resumes: list[Compile], hints: Hints) -> list[LostDynamism]:
    """Each dynamic size of ``broken`` that a resume compile holds as a constant.

    The size is known by value only, so it is said only where one input of the resume
    compile holds that value, and as a constant: where two do (a batch of 8 and a layer
    of width 8), or a symbol holds it, which input carries the size is not known.
    """
    lost = []
    for dim in _dynamic_dims(broken, hints):
        hint = hints[(broken.compile_id, str(dim.value))]
        for resume in resumes:
            carrying = _carrying(resume, hint, hints)
            same = [d.source for d in carrying if not d.symbolic]
            if len(carrying) == 1 and same:
                lost.append(
                    LostDynamism(
                        dim.source,
                        str(dim.value),
                        hint if hint is not None else "?",
                        resume.compile_id,
                        same,
                        _marked(broken, dim.source),
                    )
                )
    return lost


def link_graph_breaks(facts: Facts) -> Writes:
    """Fill each break's resume frames, resume compiles, lost dynamism and fixes."""
    if not facts.graph_breaks:
        return Writes()  # no break to link: the lookups below would be made for nothing
    by_id = {c.compile_id: c for c in facts.compiles}
    by_name: dict[tuple[str, str], list[Compile]] = defaultdict(list)
    for compile_ in facts.compiles:
        by_name[(compile_.name, compile_.filename)].append(compile_)
    hints: Hints = {(str(s.compile_id), s.name): s.hint for s in facts.symbols}
    symbols = {(str(s.compile_id), s.name): s for s in facts.symbols}
    lookups = _Lookups(by_name, _producers(facts, by_id), hints, symbols)
    linked = [
        (graph_break, _linked(graph_break, broken, lookups))
        for graph_break in facts.graph_breaks
        if (broken := by_id.get(graph_break.compile_id)) is not None
    ]
    return Writes().rows(_LINKED, [b for b, _ in linked], [row for _, row in linked])


#: What linking sets on a break: its resume frames and their compiles, what they lost, fixes.
_LINKED = ("resume_frames", "resume_compiles", "lost", "fixes")


class _Lookups(NamedTuple):
    """What linking a break looks up: compiles by frame name, producers, symbols' hints."""

    by_name: dict[tuple[str, str], list[Compile]]
    producers: Producers
    hints: Hints
    symbols: dict[tuple[str, str], Symbol]


def _linked(
    graph_break: GraphBreak, broken: Compile, lookups: _Lookups
) -> tuple[list[str], list[CompileId], list[LostDynamism], list[Fix]]:
    """One break's fields, in the order of :data:`_LINKED`."""
    resumes = _resume_compiles(broken, graph_break, lookups.by_name, lookups.producers)
    lost = lost_dynamism(broken, resumes, lookups.hints)
    symbol = break_symbol(graph_break, lookups.symbols)
    fixes = [*data_dependent_fixes(graph_break, symbol), *break_fixes(graph_break, lost)]
    names = list(dict.fromkeys(c.name for c in resumes))
    return names, [c.compile_id for c in resumes], lost, fixes
