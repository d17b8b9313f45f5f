"""What an entry checks of a call's tensors beyond sizes, and of torch's global state.

Dynamo's ``TENSOR_MATCH`` compares a tensor's Python type, dispatch keys, dtype, device and
``requires_grad`` exactly, and ``___check_global_state()`` compares grad mode, autocast, the
default dtype and the other global settings: a call under ``torch.no_grad()``, with a
``float64`` tensor or a frozen weight misses an entry its sizes would pass.

A tensor the call passes tells its own properties (:data:`~symdebug.predict.arguments.
TENSOR_FACTS`); a tensor given by its shape is taken to be like the recorded one, and so is
the global state where nothing reads it now (a session loaded from a log): both are listed
as assumed.  Dispatch keys and the global state now are read only by a live session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from symdebug.model.types import Compile, TensorCheck
from symdebug.predict.arguments import (
    DISPATCH_PREFIX,
    GLOBAL_PREFIX,
    MARKS_PREFIX,
    OBJECT_PREFIX,
    GivenByShape,
)
from symdebug.predict.check import Check
from symdebug.predict.check_eval import Evaluator, Values, equals_column, equals_one

#: The cause a failing check of this module names.
TENSOR_CAUSE = "tensor_properties"
GLOBAL_CAUSE = "global_state"


def _all_equal(
    kind: str, text: str, wanted: dict[str, Any], assumption: str, cause: str = TENSOR_CAUSE
) -> Check:
    """One check of several values at once (one comparison per call, not one per value).

    A failure shows only the values that differ.
    """
    keys, expected = tuple(wanted), tuple(wanted.values())

    def one(values: Values) -> bool:
        return tuple(map(values.__getitem__, keys)) == expected

    def differing(values: Values) -> dict[str, Any]:
        return {key: values[key] for key in keys if values[key] != wanted[key]}

    return Check(
        kind,
        text,
        list(keys),
        _each(one, keys),
        cause=cause,
        evaluate_one=one,
        like_recorded=True,
        assumption=assumption,
        shown=differing,
    )


def _stride_check(key: str, stride: int, like: str) -> Check:
    """A static stride: a tensor given by its shape is contiguous."""
    return Check(
        "static_stride",
        f"{key} == {stride}",
        [key],
        equals_column(key, stride),
        cause=TENSOR_CAUSE,
        evaluate_one=equals_one(key, stride),
        like_recorded=True,
        assumption=like,
    )


def _like(found: TensorCheck) -> str:
    """How a tensor given by its shape is assumed: like the one the entry was compiled for."""
    grad = ", requires_grad" if found.requires_grad else ""
    return f"{found.source} is a {found.dtype} {found.type_name}{grad}, as recorded"


#: How a global state check begins: ``the call runs with grad mode off (...)``.
GLOBAL_CHECK = "the call runs with"
#: How the global state is listed where it is taken as recorded (a session from a log).
GLOBAL_ASSUMED = "torch's global state (grad mode, autocast, default dtype...) as recorded"


def _without_marks(key: str, marks: list[str]) -> Callable[[Values], Any]:
    absent = frozenset(marks)

    def one(values: Values) -> bool:
        return not absent & values[key]

    return one


def _properties(found: TensorCheck) -> list[Check]:
    source, like = str(found.source), _like(found)
    grad = "requires grad" if found.requires_grad else "no grad"
    text = f"{source} is a {found.dtype} {found.type_name} on device {found.device}, {grad}"
    wanted = {
        f"type:{source}": found.type_name,
        f"dtype:{source}": found.dtype,
        f"device:{source}": found.device,
        f"requires_grad:{source}": found.requires_grad,
    }
    keys = f"{DISPATCH_PREFIX}{source}"
    checks = [
        _all_equal("tensor", text, wanted, like),
        _all_equal(
            "tensor",
            f"dispatch keys of {source} == {found.dispatch_keys}",
            {keys: found.dispatch_keys},
            like,
        ),
    ]
    checks += [
        _stride_check(f"{source}.stride()[{dim}]", stride, like)
        for dim, stride in enumerate(found.strides)
        if stride is not None
    ]
    if found.absent_marks:
        key = f"{MARKS_PREFIX}{source}"
        one = _without_marks(key, found.absent_marks)
        text = f"{source} carries none of {', '.join(found.absent_marks)}"
        checks.append(
            Check(
                "tensor",
                text,
                [key],
                _each(one, (key,)),
                cause=TENSOR_CAUSE,
                evaluate_one=one,
                like_recorded=True,
                assumption=like,
            )
        )
    return checks


def _each(one: Callable[[Values], Any], keys: tuple[str, ...]) -> Evaluator:
    """``one`` on each call of many (columns of objects; a fixed value is one row)."""

    def many(values: Values) -> Any:
        columns = [np.asarray(values[key], dtype=object).ravel() for key in keys]
        rows = (dict(zip(keys, row, strict=True)) for row in zip(*columns, strict=True))
        return np.fromiter(map(one, rows), dtype=bool, count=len(columns[0]))

    return many


def _unrecorded(source: str) -> Check:
    """A tensor whose ``TENSOR_MATCH`` beyond sizes the document does not hold (before v9).

    A shape given for it is taken as like the recorded tensor; a tensor given cannot be
    checked, so the answer is unsure.
    """
    key = f"{OBJECT_PREFIX}{source}"

    def cannot(values: Values) -> Any:
        value = values[key]
        first = value.flat[0] if isinstance(value, np.ndarray) and value.size else value
        if isinstance(first, GivenByShape):
            raise LookupError("a shape stands for the tensor: like the recorded one")  # noqa: TRY004
        raise ValueError("the entry's checks of this tensor are not recorded")

    text = f"{source}'s type, dtype, device and grad (not recorded)"
    return Check("tensor", text, [key], cannot, cause=TENSOR_CAUSE, like_recorded=True)


def tensor_checks(compile_: Compile) -> list[Check]:
    """What the entry checks of each tensor beyond its sizes."""
    checks = [check for found in compile_.tensor_checks for check in _properties(found)]
    if compile_.tensor_checks:
        return checks
    bases = {d.source.rsplit(".size()[", 1)[0] for d in compile_.inputs if ".size()[" in d.source}
    return [_unrecorded(base) for base in sorted(bases)]


def global_state_checks(compile_: Compile) -> list[Check]:
    """Grad mode, autocast, default dtype...: as torch recorded them for the entry."""
    state = compile_.global_state
    if not state:
        return []
    wanted = {f"{GLOBAL_PREFIX}{name}": state[name] for name in sorted(state)}
    grad = "on" if state.get("grad_mode") else "off"
    text = f"{GLOBAL_CHECK} grad mode {grad} (autocast, default dtype... as recorded)"
    return [_all_equal("global_state", text, wanted, GLOBAL_ASSUMED, GLOBAL_CAUSE)]


def ambient_assumption(values: Mapping[str, Any]) -> str | None:
    """How a prediction that read torch's state now words it: the call is made in it too."""
    grad = values.get(f"{GLOBAL_PREFIX}grad_mode")
    if grad is None:
        return None
    autocast = values.get(f"{GLOBAL_PREFIX}autocast_state")
    enabled = isinstance(autocast, dict) and any(autocast.get("enabled") or ())
    modes = f"grad mode {'on' if grad else 'off'}" + (", autocast on" if enabled else "")
    return f"the call runs in torch's state at this prediction ({modes})"
