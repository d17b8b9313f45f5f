"""The live compiler context, read synchronously while a trace event fires.

Everything here reads thread-locals of Dynamo, AOTAutograd and Inductor that exist only
during compilation (torch 2.13: ``torch._guards.TracingContext``, Dynamo's current
instruction translator, ``torch.fx.traceback``).  Each reader returns ``None`` when
the context is absent, so capture works the same whatever backend runs.
"""

from __future__ import annotations

import sys
from typing import Any

import torch.fx.traceback as fx_traceback
from torch._guards import TracingContext
from torch.fx.experimental.symbolic_shapes import ShapeEnv

_INDUCTOR = "/torch/_inductor/"
_AOT = ("/torch/_functorch/", "/torch/fx/experimental/proxy_tensor.py")
_DYNAMO = ("/torch/_dynamo/symbolic_convert.py", "/torch/_dynamo/variables/")


def current_phase() -> str:
    """The innermost compiler phase on the live Python stack.

    Generic ``torch/_dynamo`` wrappers are skipped: ``torch._dynamo.disable`` wrappers run
    inside AOT and Inductor too, so only phase-defining files count.
    """
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename.replace("\\", "/")
        if _INDUCTOR in filename:
            return "inductor"
        if any(part in filename for part in _AOT):
            return "aot"
        if any(part in filename for part in _DYNAMO):
            return "dynamo"
        frame = frame.f_back  # type: ignore[assignment]
    return "unknown"


def current_shape_env() -> ShapeEnv | None:
    """The ShapeEnv of the compile in progress, if any."""
    context = TracingContext.try_get()
    fake_mode = getattr(context, "fake_mode", None) if context is not None else None
    return getattr(fake_mode, "shape_env", None)


def current_dynamo_node() -> Any:
    """The FX node Dynamo is fake-propagating right now (``_dynamo/utils.py:4186``)."""
    from torch._dynamo.utils import get_current_node

    return get_current_node()


def current_instruction() -> dict[str, Any] | None:
    """The bytecode instruction of the innermost frame Dynamo is translating."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        tx = InstructionTranslator.current_tx()
    except (AttributeError, IndexError, RuntimeError):
        return None
    inst = getattr(tx, "current_instruction", None)
    if inst is None:
        return None
    positions = getattr(inst, "positions", None)
    return {
        "opname": inst.opname,
        "offset": inst.offset,
        "lineno": getattr(positions, "lineno", None),
        "co_name": tx.f_code.co_name,
    }


def current_aot_context() -> dict[str, Any]:
    """AOTAutograd's view: graph being compiled, node it re-traces, backward flag."""
    import torch._functorch._aot_autograd.logging_utils as aot_logging

    out: dict[str, Any] = {"aot_graph": "".join(aot_logging.graph_being_compiled) or None}
    meta = fx_traceback.get_current_meta()
    if meta:
        out["from_node"] = _origin_chain(meta.get("from_node") or [])
        out["autograd_backward"] = bool(meta.get("autograd_backward"))
        out["seq_nr"] = meta.get("seq_nr")
    return out


def _origin_chain(sources: list[Any]) -> list[str] | None:
    """Node names from the current node back to the Dynamo node it came from (last)."""
    chain: list[str] = []
    while sources and len(chain) < 32:
        chain.append(str(sources[0].name))
        sources = getattr(sources[0], "from_node", None) or []
    return chain or None


def target_name(target: Any) -> str:
    """``torch.conv2d`` -> ``conv2d``; ``"view"`` -> ``view``; ops by their overload packet."""
    if isinstance(target, str):
        return target
    name = getattr(target, "__name__", None)
    return str(name) if name else str(target)


def current_inductor_node() -> str | None:
    """The post-grad node Inductor is lowering, or the kernel node it generates code for."""
    from torch._inductor.virtualized import V

    kernel_node = getattr(V.kernel, "current_node", None)
    node = getattr(kernel_node, "node", None)
    if node is not None and hasattr(node, "get_origins"):
        return ",".join(sorted(origin.name for origin in node.get_origins()))
    graph_node = getattr(V.graph, "current_node", None)
    return getattr(graph_node, "name", None)


def guards_suppressed() -> bool:
    """Whether guards being added now are suppressed (never installed)."""
    return bool(ShapeEnv._suppress_guards_tls())
