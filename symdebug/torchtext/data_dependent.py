"""Data-dependent failures: torch could not decide an expression on an unbacked symbol.

Dynamo turns torch's ``GuardOnDataDependentSymNode`` ("Could not guard on data-dependent
expression Eq(u0, 1)") into a graph break (``Data-dependent branching``); under
``fullgraph=True`` the compile fails with it instead (``fail_type`` ``UserError``).  Both
name the expression; the compile metrics of a failed compile name the user line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from symdebug.model.types import Frame, GraphBreak
from symdebug.model.values import CompileId

_EXPRESSION = re.compile(
    r"Could not guard on data-dependent expression (?P<expr>.+?)(?: \(unhinted|\.\s|$)",
    re.MULTILINE,
)
#: ``Caused by: if n == 1:  # mp/ub/prog.py:28 in f (...)``: the user line torch names.
_CAUSED_BY = re.compile(r"^Caused by: (?P<line>.*?)\s+#", re.MULTILINE)
HEADLINE = "Data-dependent error"


def expression_of(text: str) -> str:
    """The expression torch could not decide (``Eq(u0, 1)``), or ``""``."""
    match = _EXPRESSION.search(text)
    return match["expr"].strip() if match else ""


def _frame(metrics: Mapping[str, Any], reason: str) -> Frame | None:
    filename = metrics.get("fail_user_frame_filename")
    lineno = metrics.get("fail_user_frame_lineno")
    if not filename or not lineno:
        return None
    caused = _CAUSED_BY.search(reason)
    return Frame(str(filename), int(lineno), "", caused["line"].strip() if caused else "")


def failed_compile_break(compile_id: CompileId, metrics: Mapping[str, Any]) -> GraphBreak | None:
    """A compile that raised a data-dependent error (``fullgraph=True``), as a failed break."""
    reason = str(metrics.get("fail_reason") or "")
    expression = expression_of(reason)
    if not expression:
        return None
    frame = _frame(metrics, reason)
    return GraphBreak(
        compile_id=compile_id,
        reason=HEADLINE,
        explanation=reason.split("\n\n", 1)[0].strip(),
        user_frame=frame,
        user_stack=[frame] if frame is not None else [],
        expression=expression,
        failed=True,
    )
