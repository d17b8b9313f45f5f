"""torch 2.14 (``2.14.1``): what changed since 2.13 for this debugger.

Measured in ``../shared/research/torch-2.14-2.15-changes.md`` terms:

- ``range(n)`` reaches ``evaluate_expr`` through ``object_protocol.pynumber_index`` ->
  ``SymNodeVariable.nb_index_impl``, no longer through ``specialize_symnode``.
- ``use_lamba_guard_for_object_aliasing`` is off: ``L['x'] is L['xs'][0]`` is an
  ``OBJECT_ALIASING`` leaf under the tensor's guard manager, not a root ``LAMBDA_GUARD``.
- ``torch.compile(dynamic_shapes=...)`` (formerly ``shapes_spec``) declares dims dynamic or
  ``STATIC``; the spec is in the compile's ``dynamo_config`` (``_dynamic_shapes_spec``).
"""

from __future__ import annotations

from dataclasses import replace

from symdebug._torch.releases.sections import Fingerprint
from symdebug._torch.releases.v2_13 import RELEASE as V2_13

#: The exact version CI proves this release on (the Makefile reads this line).
TESTED = "2.14.1"


RELEASE = replace(
    V2_13,
    version=(2, 14),
    tested=TESTED,
    frames=replace(V2_13.frames, int_use=frozenset({"nb_index_impl", "pynumber_index"})),
    guard_text=replace(V2_13.guard_text, aliasing_kinds=("LAMBDA_GUARD", "OBJECT_ALIASING")),
    knobs=replace(V2_13.knobs, compile_keywords=frozenset({"dynamic_shapes"})),
    fingerprint=Fingerprint(
        frozenset(
            {
                ("torch/_dynamo/convert_frame.py", "_compile", 2116),
                ("torch/_dynamo/variables/tensor.py", "evaluate_expr", 2849),
                ("torch/_logging/_internal.py", "trace_structured", 1546),
                ("torch/fx/experimental/symbolic_shapes.py", "_evaluate_expr", 8901),
                ("torch/fx/experimental/symbolic_shapes.py", "_log_guard", 8465),
            }
        )
    ),
)
