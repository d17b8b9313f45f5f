r"""The self-contained HTML report: the viewer bundle and the session JSON, in one file.

Escaping happens once, here, at the HTML boundary: the JSON goes into a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` and the two JS line
separators written as ``\u003c``-style escapes, so no string from the session (guards hold
``<``; file paths and source lines are user text) can close the block.  The viewer reads
it with ``JSON.parse`` and inserts text with ``textContent`` only.  Nothing is loaded from
the network.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from symdebug.model.serialize import facts_to_dict
from symdebug.model.types import Facts

BUNDLE = "_static/viewer.js"
TEMPLATE = "_static/report.html"
_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def safe_json(document: Any) -> str:
    """JSON that is inert inside HTML: markup characters written as unicode escapes."""
    return orjson.dumps(document).decode().translate(_ESCAPES)


def _asset(name: str) -> str:
    return resources.files("symdebug").joinpath(name).read_text(encoding="utf-8")


def _strip_comment(reason: str) -> str:
    return reason.split("  #", 1)[0].split(" #", 1)[0]


def _scrub_frames(value: Any) -> None:
    """Every frame-like dict: keep the file's base name and line number, drop the code."""
    if isinstance(value, dict):
        if "filename" in value and isinstance(value["filename"], str):
            value["filename"] = Path(value["filename"]).name
            for key in ("line", "code"):
                if isinstance(value.get(key), str):
                    value[key] = "(redacted)"
        for item in value.values():
            _scrub_frames(item)
    elif isinstance(value, list):
        for item in value:
            _scrub_frames(item)


def _redacted(document: dict[str, Any]) -> dict[str, Any]:
    """Leave out source lines, directories, graph dumps and kernel code (shared reports)."""
    clean: dict[str, Any] = orjson.loads(orjson.dumps(document))
    _scrub_frames(clean)
    for compile_ in clean["compiles"]:
        compile_["graphs"] = []
        compile_["recompile_reasons"] = [_strip_comment(r) for r in compile_["recompile_reasons"]]
        compile_["fail_reason"] = _strip_comment(compile_["fail_reason"] or "") or None
        for check in compile_.get("shape_checks", []):
            check["note"] = ""
    for recompile in clean["recompiles"]:
        recompile["reasons"] = [_strip_comment(r) for r in recompile["reasons"]]
    for kernel in clean.get("kernels", []):
        kernel["source"] = "(redacted)"
    for symbol in clean["symbols"]:
        symbol["range_locs"] = dict.fromkeys(symbol.get("range_locs", {}), "(redacted)")
    clean["problem_examples"] = []
    clean["source"], clean["redacted"] = "(redacted)", True
    return clean


def pack(document: dict[str, Any]) -> dict[str, Any]:
    """Store each distinct stack frame once; guards refer to frames by index.

    Thousands of guards share the same framework frames, so this divides the size of a
    large report several times.  The viewer's ``unpack`` restores the session document.
    """
    frames: list[list[Any]] = []
    index: dict[tuple[Any, ...], int] = {}

    def ref(frame: dict[str, Any]) -> int:
        key = (frame["filename"], frame["lineno"], frame["name"], frame["line"])
        if key not in index:
            index[key] = len(frames)
            frames.append(list(key))
        return index[key]

    fixes: dict[str, int] = {}
    for guard in document["guards"]:
        guard["user_stack"] = [ref(f) for f in guard["user_stack"]]
        guard["framework_stack"] = [ref(f) for f in guard["framework_stack"]]
        guard["fix"] = fixes.setdefault(guard["fix"], len(fixes)) if guard["fix"] else None
        for key in [k for k, v in guard.items() if v is None or v is False]:
            del guard[key]  # absent reads as null/false in the viewer
    return {"packed": 1, "frames": frames, "fixes": list(fixes), "session": document}


def render_html(facts: Facts, *, redact: bool = False) -> str:
    """The report page for a session."""
    document = facts_to_dict(facts)
    if redact:
        document = _redacted(document)
    document = pack(document)
    # `</script` cannot appear in the bundle either: it is our own, but check, not trust.
    bundle = _asset(BUNDLE)
    if "</script" in bundle.lower():
        raise ValueError("the viewer bundle contains '</script': it cannot be inlined")
    # Split once on each marker, so that no text in the session is ever treated as one.
    before, rest = _asset(TEMPLATE).split("@@DATA@@")
    middle, after = rest.split("@@BUNDLE@@")
    return before + safe_json(document) + middle + bundle + after


def write_html(facts: Facts, path: str | os.PathLike[str], *, redact: bool = False) -> Path:
    """Write the report; return its path."""
    target = Path(path)
    target.write_text(render_html(facts, redact=redact), encoding="utf-8")
    return target
