"""Fixes for a dim the user declared static: take it out of the list, or give it a name.

``static_sources`` (torch 2.15) holds a listed source static over automatic dynamic: the fix
is the list without that entry (a setting a replay can try).  ``torch.compile(
dynamic_shapes=...)`` (torch 2.14) holds a ``STATIC`` dim static: the fix is the spec with
that dim a ``ShapeVar`` (a change to the compile call: no replay applies it).  Each says
the torch release it needs.
"""

from __future__ import annotations

import json

from symdebug.fixes.fix_code import size_expression, user_name
from symdebug.fixes.fix_evidence import Evidence
from symdebug.model.types import Compile, Fix
from symdebug.torchtext.declared import SPEC, listed, spec_code, without

STATIC_SOURCES = "torch.compiler.config.static_sources"


def declared_detail(cause: str, compile_: Compile | None) -> str:
    """What a declared cause's fix reads of the compile: the list's text, the spec's JSON."""
    declared = compile_.declared if compile_ is not None else {}
    if cause == "static_sources":
        return str(declared.get("static_sources", ""))
    if cause == "dynamic_shapes" and SPEC in declared:
        return json.dumps(declared[SPEC], sort_keys=True)
    return ""


def _said(evidence: Evidence) -> str:
    source = evidence.source
    if source is None:
        return "the input"
    return (size_expression(source) if source.is_size else user_name(source)) or str(source)


def static_sources_fixes(evidence: Evidence) -> list[Fix]:
    """The list without the entry that names the input (torch 2.15)."""
    entry = listed(evidence.detail, evidence.source) if evidence.source is not None else ""
    if not entry:
        return []
    rest = without(evidence.detail, entry)
    why = (
        f"{_said(evidence)} ({evidence.source}) is listed in {STATIC_SOURCES} as {entry!r}, "
        "which holds it static over automatic dynamic, dynamic=True and marks: each new "
        f"value compiles anew. Take {entry!r} out of the list (torch 2.15)."
    )
    fix = Fix(f"{STATIC_SOURCES} = {rest!r}", "setting", why, {STATIC_SOURCES: rest})
    fix.needs = "2.15"
    return [fix]


def dynamic_shapes_fixes(evidence: Evidence) -> list[Fix]:
    """The ``dynamic_shapes`` spec with the input's dim a ``ShapeVar`` (torch 2.14)."""
    source = evidence.source
    if source is None or not source.is_size or not evidence.detail:
        return []
    spec = spec_code(json.loads(evidence.detail), source)
    why = (
        f"{_said(evidence)} is STATIC in torch.compile(dynamic_shapes=...), so each new "
        "value compiles anew (the spec turns automatic dynamic off). Give the dim a "
        "ShapeVar in the spec, from torch.fx.experimental.dynamic_spec (torch 2.14); as "
        "every ShapeVar of a spec, it is then unbacked. In the call: "
        "torch.compile(..., dynamic_shapes=dynamic_shapes)."
    )
    return [Fix(f"dynamic_shapes = {spec}", "code", why, needs="2.14")]
