"""How a workload reaches a fresh replay process: by reference, or pickled by value.

A module-level function of an importable module is sent by reference (its module and name):
the replay process imports the module, as ``python -c "from model import workload"`` would.
Anything else (a function of ``__main__``, a notebook cell's, a lambda, a closure) is
pickled by value with ``cloudpickle``, with the globals it reads: the replay process then
holds its own copy of each.  What neither can send (an open file, a lock, a compiled
function whose torch objects do not pickle) is said, with what to do instead.
"""

from __future__ import annotations

import io
import pickle
import types
from collections import ChainMap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import cloudpickle

#: What to do with a workload no fresh process can receive.
HOW_TO_SEND = (
    "define the workload as a function of an importable module (it is then sent by "
    "reference), building the model and calling torch.compile inside it"
)


@dataclass(frozen=True)
class WorkloadRef:
    """A workload as bytes a fresh process loads, and how it was sent.

    Attributes
    ----------
    payload
        The pickle; empty when it could not be made.
    how
        ``by reference (module.function)``, ``pickled by value``, or why neither worked.
    """

    payload: bytes
    how: str

    @property
    def sendable(self) -> bool:
        """Whether a fresh process can load it."""
        return bool(self.payload)


def _code_reduce(code: types.CodeType) -> tuple[Any, tuple[Any, ...]]:
    """The reduction cloudpickle makes of a code object, with the code's own file name kept."""
    rebuild, args = cloudpickle.Pickler.dispatch_table[types.CodeType](code)
    return rebuild, tuple(code.co_filename if a == "<dynamic-code>" else a for a in args)


class _FilePickler(cloudpickle.Pickler):  # type: ignore[misc]
    """cloudpickle, keeping each code object's file name.

    cloudpickle writes ``<dynamic-code>`` for the file of every function it pickles by value;
    a replay would then name the user's frames, lines and rewrites by no file at all.
    """

    dispatch_table: ClassVar[ChainMap[Any, Any]] = ChainMap(
        {types.CodeType: _code_reduce}, cloudpickle.Pickler.dispatch_table
    )


def by_value(workload: Callable[..., Any]) -> bytes:
    """The workload pickled by value, its code's file names kept."""
    out = io.BytesIO()
    _FilePickler(out, protocol=pickle.DEFAULT_PROTOCOL).dump(workload)
    return out.getvalue()


def _name(workload: Callable[..., Any]) -> str:
    module = getattr(workload, "__module__", None) or "?"
    return f"{module}.{getattr(workload, '__qualname__', type(workload).__qualname__)}"


def workload_ref(workload: Callable[..., Any]) -> WorkloadRef:
    """The workload as a fresh process can load it, by reference where it can be."""
    if isinstance(workload, types.FunctionType) and workload.__module__ != "__main__":
        try:
            return WorkloadRef(pickle.dumps(workload), f"by reference ({_name(workload)})")
        except Exception:  # noqa: BLE001, S110 - not by reference: by value, below
            pass
    try:
        return WorkloadRef(by_value(workload), "pickled by value")
    except Exception as error:  # noqa: BLE001 - what does not pickle is said, not raised
        why = f"{type(error).__name__}: {error}".splitlines()[0][:200]
        return WorkloadRef(b"", f"it cannot be sent to a fresh process ({why}); {HOW_TO_SEND}")
