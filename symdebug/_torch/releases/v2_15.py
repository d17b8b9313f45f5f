"""torch 2.15 (``2.15.0``): what changed since 2.14 for this debugger.

- ``torch.compiler.config.static_sources`` (``TORCH_COMPILE_STATIC_SOURCES``): sources
  listed are constants, over automatic dynamic, ``dynamic=True`` and ``dynamic_sources``.
- ``maybe_mark_dynamic(t, index, *, min=None, max=None)`` takes bounds.
- Dict and set guards carry ``(HINT: Dictionary ... must contain key ...)`` in the guard
  tree and in recompile reasons (the note 2.13 already wrote on ``TYPE_MATCH`` lines): the
  same :attr:`~.sections.GuardText.hint_note`, which is not a framework line.
- A non-strict ``torch.export`` runs inside a Dynamo compile context: its records carry a
  compile id (``0/0``) and take a frame id, so a later ``torch.compile`` is ``1/0``.
- The artifact ``runtime_wrapper_orchestration`` is ``aot_autograd_runtime_wrappers``.
"""

from __future__ import annotations

from dataclasses import replace

from symdebug._torch.releases.sections import Fingerprint
from symdebug._torch.releases.v2_14 import RELEASE as V2_14

_RENAMED = {"runtime_wrapper_orchestration": "aot_autograd_runtime_wrappers"}

#: The exact version CI proves this release on (the Makefile reads this line).
TESTED = "2.15.0"


RELEASE = replace(
    V2_14,
    version=(2, 15),
    tested=TESTED,
    records=replace(
        V2_14.records,
        export_in_compile_context=True,
        unread_payloads=frozenset(_RENAMED.get(n, n) for n in V2_14.records.unread_payloads),
    ),
    knobs=replace(
        V2_14.knobs,
        settings=V2_14.knobs.settings | {"torch.compiler.config.static_sources"},
        mark_bounds=True,
    ),
    fingerprint=Fingerprint(
        frozenset(
            {
                ("torch/_dynamo/convert_frame.py", "_compile", 2169),
                ("torch/_dynamo/variables/tensor.py", "evaluate_expr", 3083),
                ("torch/_logging/_internal.py", "trace_structured", 1559),
                ("torch/fx/experimental/symbolic_shapes.py", "_evaluate_expr", 9074),
                ("torch/fx/experimental/symbolic_shapes.py", "_log_guard", 8638),
            }
        )
    ),
)
