"""What the user declared static or dynamic, as torch's settings and spec word it.

- ``torch.compiler.config.static_sources`` (torch 2.15), ``dynamic_sources`` and
  ``unbacked_sources``: comma-separated entries, each a source's exact name or a regular
  expression matched with ``re.match``, with ``:N`` for one dim (``torch/compiler/config.py``).
- ``torch.compile(dynamic_shapes=...)`` (torch 2.14): a ``ShapesSpec``, which the compile
  logs in its Dynamo config (``_dynamic_shapes_spec``) as JSON; a dim given as ``None``
  (``STATIC``) or a number is static.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from symdebug.model.values import Source

#: The settings that list sources, as a compile's metrics keep them (``Compile.declared``).
LISTS = ("static_sources", "dynamic_sources", "unbacked_sources", "dynamic_values")
#: Where a compile keeps its ``torch.compile(dynamic_shapes=...)`` spec.
SPEC = "dynamic_shapes"
_ENTRY = re.compile(r"^(?P<name>.*?)(?::(?P<dim>\d+))?$")


def entries(text: str) -> list[str]:
    """The list's entries, as written (``L['x']:0``)."""
    return [entry.strip() for entry in str(text).split(",") if entry.strip()]


@lru_cache(maxsize=4096)
def _matches(pattern: str, name: str) -> bool:
    if pattern == name:
        return True
    try:
        return re.match(pattern, name) is not None
    except re.error:
        return False


def listed(text: str, source: Source) -> str:
    """The entry of a source list that names ``source`` (``""``: none).

    A size is named by its tensor with or without its dim (``L['x']:0``, ``L['x']``); an int
    by its own name.
    """
    name = source.tensor if source.is_size else str(source)
    for entry in entries(text):
        match = _ENTRY.match(entry)
        wanted = match["dim"] if match is not None else None
        pattern = match["name"] if match is not None else entry
        if wanted is not None and source.dim is not None and int(wanted) != source.dim:
            continue
        if name is not None and _matches(pattern, name):
            return entry
    return ""


def without(text: str, entry: str) -> str:
    """The list with ``entry`` taken out."""
    return ",".join(item for item in entries(text) if item != entry)


def spec_params(spec: Any) -> dict[str, list[Any]]:
    """``{parameter: its dims}`` of a spec's tensors (``TensorSpec``); others left out."""
    params = spec.get("params") if isinstance(spec, dict) else None
    params = params.get("params") if isinstance(params, dict) else None
    if not isinstance(params, dict):
        return {}
    tensors = {k: v for k, v in params.items() if isinstance(v, dict) and "dims" in v}
    return {name: list(value["dims"]) for name, value in tensors.items()}


def static_in_spec(spec: Any, source: Source) -> bool:
    """Whether the spec gives the dim ``source`` names as static (``STATIC`` or a number)."""
    if source.dim is None or source.tensor is None or not source.tensor.startswith("L['"):
        return False
    dims = spec_params(spec).get(source.tensor[3:-2])
    if dims is None or source.dim >= len(dims):
        return False
    return not isinstance(dims[source.dim], dict)  # a dict is a ShapeVar or IntVar


def _dim_code(dim: Any) -> str:
    if isinstance(dim, dict):
        bounds = "".join(f", {k}={dim[k]}" for k in ("min", "max") if dim.get(k) is not None)
        return f"{dim.get('type', 'ShapeVar')}({json.dumps(str(dim.get('name')))}{bounds})"
    return "STATIC" if dim is None else str(dim)


def spec_code(spec: Any, source: Source) -> str:
    """The spec's tensors as Python, the dim ``source`` names made a ``ShapeVar``."""
    name = (source.tensor or "")[3:-2]
    params = spec_params(spec)
    dims = list(params.get(name, []))
    if source.dim is not None and source.dim < len(dims):
        dims[source.dim] = {"type": "ShapeVar", "name": f"{name}_{source.dim}"}
    params[name] = dims
    tensors = ", ".join(
        f"{json.dumps(param)}: TensorSpec([{', '.join(map(_dim_code, values))}])"
        for param, values in params.items()
    )
    return "{" + tensors + "}"
