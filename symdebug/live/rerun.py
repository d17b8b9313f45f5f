"""Re-run the compiled function at new sizes and check the prediction against torch.

The entry that served is read from Dynamo's cache (a new compile id means a recompile;
otherwise the entry that ran moved to the front of the MRU list), never from stderr.  A
call whose cache lookup missed without compiling (recompile limit), or that was never
looked up (a frame torch skipped for good), ran eagerly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torch

from symdebug._torch.compiled import original_callable
from symdebug._torch.dynamo_cache import cache_lookups, miss_settings
from symdebug.live.inputs import build_call, recorded_metas
from symdebug.live.program_state import program_reader
from symdebug.model.readable import pretty_text, short_repr
from symdebug.model.types import Compile, Guard, Specialization
from symdebug.predict.arguments import is_named_source
from symdebug.predict.predict import Prediction, Predictor

if TYPE_CHECKING:
    from symdebug.live.program_view import ProgramView

_DEFAULT_DTYPES = {5: torch.float16, 6: torch.float32, 7: torch.float64, 15: torch.bfloat16}
TIMING_BUDGET_S = 0.05


@dataclass(slots=True)
class RerunResult:
    """What happened when the compiled function ran at the new sizes."""

    entry: str | None
    recompiled: bool
    prediction: Prediction
    new_guards: list[Guard] = field(default_factory=list)
    new_specializations: list[Specialization] = field(default_factory=list)
    allclose: bool | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: True when torch ran the call eagerly (``entry`` is then None).
    ran_eager: bool = False

    @property
    def outcome(self) -> str:
        """What torch did: ``"served"``, ``"recompile"`` or ``"eager"``."""
        if self.recompiled:
            return "recompile"
        return "eager" if self.ran_eager else "served"

    @property
    def prediction_held(self) -> bool:
        """Whether :meth:`Session.predict`'s answer was what torch then did.

        An uncertain prediction holds when its answer was right; see ``confidently_wrong``.
        """
        if self.prediction.outcome != self.outcome:
            return False
        return self.outcome != "served" or self.prediction.entry == self.entry

    @property
    def confidently_wrong(self) -> bool:
        """A certain prediction that torch contradicted (a bug; uncertain misses are not)."""
        return self.prediction.certain and not self.prediction_held

    __repr__ = short_repr
    _repr_pretty_ = pretty_text

    def __str__(self) -> str:
        what = {"recompile": f"recompiled as {self.entry}", "eager": "ran eagerly"}.get(
            self.outcome, f"served by {self.entry}"
        )
        held = "held" if self.prediction_held else "did NOT hold"
        if not self.prediction.certain:
            held += f" (it was uncertain: {len(self.prediction.conditions)} conditions)"
        timing = ", ".join(f"{k} {v * 1e3:.3f} ms/call" for k, v in self.seconds.items())
        return f"{what}; prediction {held}; allclose={self.allclose}; {timing}"


@contextmanager
def recorded_global_state(compile_: Compile) -> Iterator[None]:
    """Grad mode and default dtype as the compile saw them (both are in Dynamo's guards)."""
    state = compile_.global_state
    previous_dtype = torch.get_default_dtype()
    dtype = _DEFAULT_DTYPES.get(state.get("default_dtype", 6), previous_dtype)
    with torch.set_grad_enabled(bool(state.get("grad_mode", torch.is_grad_enabled()))):
        torch.set_default_dtype(dtype)
        try:
            yield
        finally:
            torch.set_default_dtype(previous_dtype)


def _wait_for_device() -> None:
    """CUDA calls return before their kernels finish: wait, so a round times the work."""
    if torch.cuda.is_available() and torch.cuda.is_initialized():  # type: ignore[no-untyped-call]
        torch.cuda.synchronize()


def _time_per_call(fn: Callable[[], Any]) -> float:
    """Seconds per warm call: repeat until the budget is spent, best of three rounds."""
    fn()
    rounds = []
    for _ in range(3):
        _wait_for_device()
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < TIMING_BUDGET_S / 3 or calls == 0:
            fn()
            calls += 1
        _wait_for_device()
        rounds.append((time.perf_counter() - start) / calls)
    return min(rounds)


#: Tolerance per dtype: compiled reductions sum in another order than eager, so float32
#: results differ by more than assert_close's defaults (1.3e-6) on long reductions.
TOLERANCES = {torch.float16: 1e-2, torch.bfloat16: 1.6e-2, torch.float32: 1e-4, torch.float64: 1e-7}


def tensors_in(value: Any, depth: int = 0) -> list[torch.Tensor]:
    """Every tensor reachable from an output: containers, model outputs, cache objects."""
    if isinstance(value, torch.Tensor):
        return [value]
    if depth > 6 or value is None or isinstance(value, str | bytes | int | float | bool):
        return []
    if isinstance(value, Mapping):
        items: Any = value.values()
    elif isinstance(value, list | tuple):
        items = value
    else:
        items = vars(value).values() if hasattr(value, "__dict__") else ()
    return [t for item in items for t in tensors_in(item, depth + 1)]


def outputs_close(actual: Any, expected: Any) -> bool:
    """Outputs equal to eager, tensor by tensor, within a tolerance set by the dtype."""
    got, want = tensors_in(actual), tensors_in(expected)
    if len(got) != len(want):
        return False
    for a, e in zip(got, want, strict=True):
        tolerance = TOLERANCES.get(e.dtype, 0.0)
        try:
            torch.testing.assert_close(a, e, rtol=tolerance, atol=tolerance, equal_nan=True)
        except (AssertionError, TypeError, ValueError):
            return False
    return True


def _served(
    before: list[str], after: list[str], lookups: list[bool]
) -> tuple[str | None, bool, bool]:
    """The entry that ran (None: eager or unknown), whether it is new, whether it ran eagerly.

    The frame's own lookup comes first: a miss without a new entry, or no lookup at all
    (a frame torch skipped), means the call ran eagerly.
    """
    new = [cid for cid in after if cid not in before]
    if new:
        return new[0], True, False
    if not lookups or not lookups[0]:
        return None, False, True
    return (after[0] if after else None), False, False


def rerun(
    live: ProgramView,
    compiled: Callable[..., Any],
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    frame: str | int | None = None,
) -> RerunResult:
    """Call ``compiled`` at the given sizes; compare with the prediction and with eager."""
    order, reader = live.lookup_order(frame), program_reader(live, frame)
    predictor = Predictor(live.facts(), frame, order, miss_settings(), reader)
    parameters = predictor.signature.names if predictor.signature else []
    named = [k for k in kwargs if is_named_source(k) and k not in parameters]
    if named:  # the call would read the module's own attributes, not the values given
        raise ValueError(f"rerun calls the real module: set {named} on it, then rerun without them")
    latest = predictor.compiles[-1]
    real_args, real_kwargs = build_call(
        predictor.signature,
        args,
        kwargs,
        recorded_metas(predictor.compiles),
        bound_first=predictor.bound_first,
    )
    with recorded_global_state(latest):  # the prediction is for the very call made below
        prediction = predictor.predict(predictor.values(real_args, real_kwargs))
    before = live.lookup_order(frame) or []
    with recorded_global_state(latest), live.recording(), cache_lookups() as lookups:
        output = compiled(*real_args, **real_kwargs)
    entry, recompiled, ran_eager = _served(before, live.lookup_order(frame) or [], lookups)
    eager = original_callable(compiled)
    with recorded_global_state(latest):
        expected = eager(*real_args, **real_kwargs)
        seconds = {
            "compiled": _time_per_call(lambda: compiled(*real_args, **real_kwargs)),
            "eager": _time_per_call(lambda: eager(*real_args, **real_kwargs)),
        }
    index = live.session.index
    new = entry if recompiled else None
    return RerunResult(
        entry=entry,
        recompiled=recompiled,
        prediction=prediction,
        new_guards=list(index.guards_of(new)),
        new_specializations=list(index.specializations_of(new)),
        allclose=outputs_close(output, expected),
        seconds=seconds,
        ran_eager=ran_eager,
    )
