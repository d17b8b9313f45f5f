"""Predict a whole range of sizes at once: millions of calls, one array operation per check.

``session.predict_range(x=(np.arange(1, 10_000_001), 64))`` answers, for every batch size,
which cache entry serves the call, or whether torch compiles again or runs it eagerly, and
whether the answer is certain.  A dimension (or int argument) given as an array or a
``range`` varies; every other value is fixed, as in :meth:`Session.predict`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from symdebug.predict.arguments import OBJECT_PREFIX
from symdebug.predict.predict import RECOMPILE, Predictor

#: Stand-ins for the varying values while the call is bound to sources: no real size.
_SENTINEL = 10**15


@dataclass(slots=True)
class RangePrediction:
    """The answers for every point of a range (arrays of one length).

    Attributes
    ----------
    sizes
        The varying sources and their values (``{"L['x'].size()[0]": array([1, 2, ...])}``).
    served
        Per point, the index into ``entries`` of the entry that serves the call;
        ``-1`` when torch compiles again, ``-2`` when it runs the call eagerly.
    entries
        The frame's cache entries (compile ids) in torch's lookup order.
    certain
        Per point, whether every check on the way could be evaluated.
    """

    sizes: dict[str, np.ndarray]
    served: np.ndarray
    entries: list[str]
    certain: np.ndarray

    def __len__(self) -> int:
        return len(self.served)

    def outcomes(self) -> np.ndarray:
        """Per point: ``"served"``, ``"recompile"`` or ``"eager"``."""
        labels = np.array(["served", "recompile", "eager"])
        kind = np.select([self.served >= 0, self.served == RECOMPILE], [0, 1], 2)
        chosen: np.ndarray = labels[kind]
        return chosen

    def entry(self, index: int) -> str | None:
        """The compile id serving point ``index``, or None."""
        served = int(self.served[index])
        return self.entries[served] if served >= 0 else None

    def counts(self) -> dict[str, int]:
        """How many points each entry serves, and how many recompile or run eagerly."""
        found, counts = np.unique(self.served, return_counts=True)
        return {self._name(int(k)): int(n) for k, n in zip(found, counts, strict=True)}

    def _name(self, served: int) -> str:
        if served >= 0:
            return self.entries[served]
        return "recompile" if served == RECOMPILE else "eager"

    def __repr__(self) -> str:
        unsure = int((~self.certain).sum())
        said = ", ".join(f"{k}: {n}" for k, n in self.counts().items())
        return f"<RangePrediction of {len(self)} calls: {said}; {unsure} uncertain>"


def _varying(value: Any) -> bool:
    return isinstance(value, range | np.ndarray | list) and not isinstance(value, str)


def _stand_ins(value: Any, arrays: list[np.ndarray], kept: frozenset[int] = frozenset()) -> Any:
    """The call with each varying value replaced by a sentinel int (its array kept aside).

    A list in ``kept`` (by id) is a value of the call, not a range.
    """
    if id(value) in kept:
        return value
    if _stood_in(value):
        arrays.append(np.asarray(value, dtype=np.int64))
        return _SENTINEL + len(arrays) - 1
    if isinstance(value, tuple):
        return tuple(_stand_ins(item, arrays, kept) for item in value)
    return value


def _list_values(
    predictor: Predictor, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> frozenset[int]:
    """The lists the call passes where the entries check a list (its length, its items).

    ``dims=[3]`` for a frame compiled with a list there is that list, not a range of ints.
    """
    arrays: list[np.ndarray] = []
    values = predictor.values(
        [_stand_ins(a, arrays) for a in args], {k: _stand_ins(v, arrays) for k, v in kwargs.items()}
    )
    stood = [value for value in _leaves(args, kwargs) if _stood_in(value)]  # arrays, in order
    return frozenset(
        id(stood[index])
        for source, value in values.items()
        if (index := _stand_in_index(value)) is not None
        and index < len(stood)
        and isinstance(stood[index], list)
        and _checked_as_list(predictor.known, source)
    )


def _stand_in_index(value: Any) -> int | None:
    """Which varying value a bound value stands in for, if any."""
    return value - _SENTINEL if isinstance(value, int) and value >= _SENTINEL else None


def _leaves(args: Sequence[Any], kwargs: Mapping[str, Any]) -> list[Any]:
    """The call's values in the order :func:`_stand_ins` meets them."""
    found: list[Any] = []
    for value in [*args, *kwargs.values()]:
        found += _leaves(value, {}) if isinstance(value, tuple) else [value]
    return found


def _stood_in(value: Any) -> bool:
    return _varying(value) and (isinstance(value, range | np.ndarray) or _all_ints(value))


def _checked_as_list(known: Sequence[str], source: str) -> bool:
    return f"len:{source}" in known or any(k.startswith(f"{source}[") for k in known)


def _all_ints(value: list[Any]) -> bool:
    return bool(value) and all(isinstance(v, int) for v in value)


def range_columns(
    predictor: Predictor, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every source's column for the range, and the varying ones alone."""
    kept = _list_values(predictor, args, kwargs)
    arrays: list[np.ndarray] = []
    call_args = [_stand_ins(a, arrays, kept) for a in args]
    call_kwargs = {k: _stand_ins(v, arrays, kept) for k, v in kwargs.items()}
    if not arrays:
        raise ValueError("predict_range needs a size given as an array, a list or a range")
    shaped = np.broadcast_arrays(*arrays)
    values = predictor.values(call_args, call_kwargs)
    count = len(shaped[0])
    columns, varying = {}, {}
    for source, value in values.items():
        index = _stand_in_index(value)
        if index is not None and index < len(shaped):
            columns[source] = shaped[index]
            if not source.startswith(OBJECT_PREFIX):  # the same values, as the call's objects
                varying[source] = shaped[index]
        else:  # one value for every point: a view, no copy per point
            columns[source] = np.broadcast_to(_scalar_array(value), (count,))
    return columns, varying


def column_of(source: str, values: Sequence[Any]) -> np.ndarray:
    """One source's values over many calls; the objects calls pass stay objects."""
    if not source.startswith(OBJECT_PREFIX):
        return np.asarray(values)
    column = np.empty(len(values), dtype=object)
    for index, value in enumerate(values):
        column[index] = value
    return column


_PLAIN = (int, float, str, bool)


def _scalar_array(value: Any) -> np.ndarray:
    """A 0-d array of one value; an object (a tensor, a list) stays one object, not its data."""
    if type(value) in _PLAIN or isinstance(value, np.generic):  # a str subclass compares
        return np.asarray(value)  # its own way (dispatch keys): it stays an object
    held = np.empty((), dtype=object)
    held[()] = value
    return held


def predict_range(
    predictor: Predictor, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> RangePrediction:
    """Answer every point of the range at once (see the module's text)."""
    columns, varying = range_columns(predictor, args, kwargs)
    served, certain = predictor.answers(columns)
    entries = [model.compile_id for model in predictor.models]
    return RangePrediction(varying, served, entries, certain)
