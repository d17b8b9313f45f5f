"""What Dynamo knows about a frame while it outputs a graph (torch/_dynamo/output_graph.py).

Read at the ``dynamo_output_graph`` event: after the compile, ``OutputGraph.cleanup()``
deletes ``meta["grapharg"]``, so the placeholder -> source mapping must be taken now.
"""

from __future__ import annotations

import inspect
from typing import Any

import torch


def _dims(value: torch.Tensor) -> list[int | str]:
    return [d if isinstance(d, int) else str(d) for d in value.shape]


def _placeholder_input(node: torch.fx.Node) -> dict[str, Any] | None:
    grapharg = node.meta.get("grapharg")
    source = getattr(grapharg, "source", None)
    if source is None:
        return None
    example = node.meta.get("example_value")
    entry: dict[str, Any] = {"source": source.name, "node": node.name}
    if isinstance(example, torch.Tensor):
        entry.update(kind="tensor", sizes=_dims(example), dtype=str(example.dtype))
        entry.update(requires_grad=bool(example.requires_grad), device=str(example.device))
    elif isinstance(example, torch.SymInt | int):
        entry.update(kind="int", value=str(example))
    else:
        entry.update(kind=type(example).__name__)
    return entry


def graph_inputs_snapshot() -> dict[str, Any] | None:
    """Code object, local names and placeholder inputs of the frame being compiled."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        tx = InstructionTranslator.current_tx()
    except (AttributeError, IndexError, RuntimeError):
        return None
    if tx is None:
        return None
    graph = tx.output.graph
    inputs = [_placeholder_input(n) for n in graph.nodes if n.op == "placeholder"]
    code = tx.f_code
    return {
        "code": {"name": code.co_name, "filename": code.co_filename, "lineno": code.co_firstlineno},
        "signature": signature_of(code),
        "local_names": list(tx.f_locals),
        "inputs": [entry for entry in inputs if entry is not None],
    }


def signature_of(code: Any) -> dict[str, Any]:
    """Parameter names of a code object, and its ``*args``/``**kwargs`` names."""
    count = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:count])
    varargs = code.co_varnames[count] if code.co_flags & inspect.CO_VARARGS else None
    index = count + (1 if varargs else 0)
    varkw = code.co_varnames[index] if code.co_flags & inspect.CO_VARKEYWORDS else None
    return {"names": names, "positional": code.co_argcount, "varargs": varargs, "varkw": varkw}


def code_object_of_current_frame() -> Any:
    """The code object Dynamo caches on (``external_utils.inner`` for compiled modules)."""
    from torch._dynamo.symbolic_convert import InstructionTranslator

    try:
        return InstructionTranslator.current_tx().f_code
    except (AttributeError, IndexError, RuntimeError):
        return None
