"""What avoids a graph break, or what it costs: torch's own hints, as fixes.

Only what torch's message names is suggested (a setting it hints at, the logging functions
Dynamo may move after the graph); a break with no such hint gets none.  Lost dynamism gets
the setting that marks the resume frame's inputs by name: ``mark_dynamic`` cannot, since
the resume frame's inputs are made inside the compiled function.
"""

from __future__ import annotations

from symdebug.model.types import Fix, GraphBreak, LostDynamism
from symdebug.model.values import Source

DYNAMIC_SOURCES = "torch.compiler.config.dynamic_sources"
STATIC_BY_DEFAULT = "torch._dynamo.config.assume_static_by_default"

#: A phrase of torch's message -> the setting it hints at, with what it costs.
HINTED_SETTINGS: tuple[tuple[str, str, str], ...] = (
    (
        "capture_scalar_outputs",
        "torch._dynamo.config.capture_scalar_outputs",
        "traces .item() into the graph as an unbacked symbol instead of breaking it; a branch "
        "on that value still breaks (data-dependent), and sizes built from it are unbacked.",
    ),
    (
        "capture_dynamic_output_shape_ops",
        "torch._dynamo.config.capture_dynamic_output_shape_ops",
        "traces ops whose output size depends on the data (nonzero, unique) into the graph; "
        "their sizes become unbacked symbols, and a backend without support for them fails.",
    ),
)

PRINT_FIX = Fix(
    "torch._dynamo.config.reorderable_logging_functions.add(print)",
    "code",
    "Dynamo moves the print after the graph instead of breaking it (it prints when the graph "
    "has run, values as they were); or remove the print from the compiled code.",
)


def _dynamo_name(source: Source) -> str | None:
    """The input as ``dynamic_sources`` names it (``L['h']:1``, ``L['n']``), if a user can."""
    if "___" in source:
        return None  # Dynamo's stack slots: no name a setting can match across runs
    if source.is_size and source.tensor is not None:
        return f"{source.tensor}:{source.dim}"
    return None if ".size()" in source else str(source)


def lost_fix(lost: list[LostDynamism]) -> Fix | None:
    """One setting that keeps every lost size dynamic in the resume frames."""
    if not lost:
        return None
    names = [_dynamo_name(s) for item in lost for s in item.resume_sources]
    value = ",".join(dict.fromkeys(n for n in names if n is not None))
    if not value:
        return Fix(
            f"{STATIC_BY_DEFAULT} = False",
            "setting",
            "the resume frame's inputs are Dynamo stack slots no setting can name: every "
            "size of every frame is dynamic from the first compile; costs: general kernels.",
            {STATIC_BY_DEFAULT: False},
        )
    return Fix(
        f"{DYNAMIC_SOURCES} = {value!r}",
        "setting",
        "mark_dynamic does not cross a graph break: the resume frame gets new inputs, static "
        "on its first compile, and recompiles when the size changes. This marks them dynamic "
        "by name; costs: every frame's input of that name is dynamic too.",
        {DYNAMIC_SOURCES: value},
    )


def _hinted(graph_break: GraphBreak) -> list[Fix]:
    text = f"{graph_break.reason}\n{graph_break.explanation}"
    fixes = [
        Fix(f"{name} = True", "setting", why, {name: True})
        for phrase, name, why in HINTED_SETTINGS
        if phrase in text
    ]
    if "builtin operator `print`" in text:
        fixes.append(PRINT_FIX)
    return fixes


def break_fixes(graph_break: GraphBreak, lost: list[LostDynamism]) -> list[Fix]:
    """The break's fixes: torch's hints first (no break at all), then those of ``lost``.

    ``lost``: what the break's resume compiles lost, as the pass that links them found it.
    """
    lost_fixed = lost_fix(lost)
    return [*_hinted(graph_break), *([lost_fixed] if lost_fixed is not None else [])]
