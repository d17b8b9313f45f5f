"""A corpus of (function, new call) pairs: prediction must equal what torch then does.

Shared by the live test and by a subprocess that runs the same calls with torch alone and
writes them to TORCH_TRACE (``python tests/predict_cases.py OUT.json``).  What torch did is
read from torch only (:func:`observe`): its cache entries and their compile ids, its cache
lookups, the compiles it started, its own guard-failure reasons and the error it raised.
This module never imports symdebug, so the subprocess's answers owe nothing to it.

A probe's arguments are shapes (a tuple of ints: a float32 tensor, given to the prediction
by its shape) or :class:`Tensor` specs (a tensor whose dtype, device, layout, conjugate bit,
``requires_grad`` or marks differ; given to the prediction as the tensor itself).
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from types import CodeType, TracebackType
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812
from torch._C._dynamo.eval_frame import _debug_get_cache_entry_list, set_guard_complete_hook
from torch._dynamo.callback import CallbackArgs, CallbackTrigger, callback_handler
from torch._dynamo.utils import guard_failures


def branch(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1


def view_pairs(x):
    return x.view(-1, 2).sum(0)


def add(a, b):
    return a + b


def half_slice(x, y):
    return x.sum() + y[: x.shape[0] // 2].sum()


def loop(x, n):
    for _ in range(n):
        x = x + 1
    return x


def double(x):
    return x * 2


def double_again(x):
    return x * 2


def pair_sum(a, b):
    return a.sum() + b.sum()


def reduce_rows(x):
    return x.sum(0)


def relu_scale(x, w):
    return torch.relu(x) * w


def upsample(x):
    return F.interpolate(x, scale_factor=1.5, mode="nearest")


def stack_all(xs):
    return torch.cat([x.sum(0, keepdim=True) for x in xs]).sum()


def keyed(inputs, scale=2):
    return inputs["a"].sum() * scale + inputs["b"].mean()


def pinned(x):
    return x.view(8, -1)


def scaled_or_not(x, n):
    return x * 2 if n is None else x * n


def doubled_static(x):
    return x * 2


def shifted(x):
    return x + 1


def column_sums(x):
    return x.sum(0)


def grad_scaled(x):
    return x * 3


def row_means(x):
    return x.mean(0)


def tripled(x):
    return (x * 3).sum(1)


@dataclass(frozen=True)
class Tensor:
    """A tensor a probe passes whole, for what its shape alone cannot say.

    ``dynamic``/``static`` mark dims before the call (``mark_dynamic``, with ``bounds`` as
    its ``min``/``max`` when given; ``mark_static``).
    """

    shape: tuple[int, ...]
    dtype: str = "float32"
    device: str = "cpu"
    requires_grad: bool = False
    transposed: bool = False
    conjugated: bool = False
    dynamic: tuple[int, ...] = ()
    static: tuple[int, ...] = ()
    bounds: tuple[int, int] | None = None

    def build(self) -> torch.Tensor:
        """The tensor, made anew (with its marks) for each call."""
        dtype = getattr(torch, self.dtype)
        shape = self.shape[::-1] if self.transposed else self.shape
        made = torch.randn(shape, dtype=dtype, device=self.device)
        made = made.mT if self.transposed else made
        made = made.conj() if self.conjugated else made
        made.requires_grad_(self.requires_grad)
        for dim in self.dynamic:
            low, high = self.bounds or (None, None)
            torch._dynamo.mark_dynamic(made, dim, min=low, max=high)
        for dim in self.static:
            torch._dynamo.mark_static(made, dim)
        return made


@dataclass(frozen=True)
class Probe:
    """One call: its arguments, whether it runs with grad mode on (torch's state), and the
    cause of the recompile it makes.

    ``log_assumes`` is None when a log (TORCH_TRACE) holds all a prediction needs; else the
    words the answer from a log must state, among what it assumed or the conditions that
    would change it, when it differs from torch's (what the log cannot hold: grad mode at
    the call, a tensor's dispatch keys, read only by a live session).
    """

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    grad: bool = True
    log_assumes: str | None = None
    #: The cause of the recompile the call makes (None: it makes none, or none is named).
    cause: str | None = None

    def grad_mode(self) -> contextlib.AbstractContextManager[Any]:
        """The grad mode the call (and its prediction) runs in."""
        return torch.no_grad() if not self.grad else contextlib.nullcontext()


def call(*args: Any, **kwargs: Any) -> Probe:
    """A call, in grad mode, that a log holds all of."""
    return Probe(args, kwargs)


def recompiles(cause: str, *args: Any, **kwargs: Any) -> Probe:
    """A call that makes torch compile again, for this cause."""
    return Probe(args, kwargs, cause=cause)


#: What a prediction from a log says it took as recorded of a tensor's dispatch keys.
AS_RECORDED = "L['x'] is a torch.float32 Tensor, as recorded"
GRAD_MODE = "grad mode"


@dataclass
class Case:
    """A function compiled with ``options`` (under ``config``), warmed up, then probed."""

    name: str
    fn: Callable[..., Any]
    options: dict[str, Any]
    warmup: list[Probe]
    probes: list[Probe]
    config: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext
    requires_grad: bool = False
    #: Exceptions torch may raise on a warm-up call (a compile that fails by design).
    warmup_raises: tuple[str, ...] = ()


def no_duck() -> contextlib.AbstractContextManager[Any]:
    return torch.fx.experimental._config.patch(use_duck_shape=False)


DYN = {"backend": "eager", "dynamic": True}
AUTO = {"backend": "eager"}
STATIC = {"backend": "eager", "dynamic": False}
MARKED = Tensor((8, 4), dynamic=(0,))  # view(8, -1) fixes the marked dim: the compile raises


def each_after_a_plain_call(*changed: Probe) -> list[Probe]:
    """Each probe, then a plain float32 call: the entry torch tries first is a plain one.

    (Torch's reason names the first entry it tried: the change is made against that one.)
    What a log cannot tell of the change, it cannot tell of the plain call after it either.
    """
    plain = Tensor((4,))
    return [p for c in changed for p in (c, Probe((plain,), {}, log_assumes=c.log_assumes))]


CASES = [
    Case(
        "user_branch",
        branch,
        DYN,
        [call((8, 3))],
        [
            call((9, 3)),
            recompiles("user_branch", (3, 3)),
            call((2, 3)),
            recompiles("zero_one", (1, 3)),
            call((10, 3)),
        ],
    ),
    Case("op_view", view_pairs, DYN, [call((8,))], [call((6,)), call((10,)), call((2,))]),
    Case(
        "op_broadcast",
        add,
        DYN,
        [call((4,), (4,))],
        [call((5,), (5,)), recompiles("op_requirement", (4,), (1,)), call((6,), (1,))],
        no_duck,
    ),
    Case(
        "slice_expr",
        half_slice,
        DYN,
        [call((8,), (10,))],
        [recompiles("op_requirement", (8,), (3,)), call((6,), (10,)), call((9,), (4,))],
    ),
    Case(
        "int_range",
        loop,
        AUTO,
        [call((3,), 2), call((3,), 3)],
        [call((3,), 3), recompiles("int_specialized", (3,), 4), call((3,), 2)],
    ),
    Case(
        "zero_one",
        double,
        DYN,
        [call((1, 3))],
        [recompiles("zero_one", (5, 3)), call((1, 3)), call((6, 3))],
    ),
    Case(
        "duck",
        pair_sum,
        DYN,
        [call((4,), (4,))],
        [call((5,), (5,)), recompiles("duck_sizing", (4,), (5,)), call((7,), (7,))],
    ),
    Case(
        "static_default",
        double_again,
        AUTO,
        [call((8, 3))],
        [
            call((8, 3)),
            recompiles("static_by_default", (6, 3)),
            call((7, 3)),
            recompiles("static_by_default", (7, 4)),
        ],
    ),
    Case(
        "inductor",
        reduce_rows,
        {"backend": "inductor", "dynamic": True},
        [call((100, 3))],
        [call((200, 3)), recompiles("inductor", (5000, 3)), call((6000, 3))],
    ),
    Case(
        "backward",
        relu_scale,
        {"backend": "inductor", "dynamic": True},
        [call((100, 3), (3,))],
        [call((64, 3), (3,)), recompiles("backward", (5000, 3), (3,))],
        requires_grad=True,
    ),
    Case(
        "interpolate",
        upsample,
        DYN,
        [call((2, 3, 8))],
        [
            call((2, 3, 9)),
            call((4, 3, 8)),
            recompiles("zero_one", (2, 1, 8)),
            recompiles("zero_one", (2, 3, 1)),
        ],
    ),
    Case(
        "nested_list",
        stack_all,
        DYN,
        [call([(4, 3), (5, 3)])],
        [
            call([(6, 3), (2, 3)]),
            recompiles("length", [(4, 3), (5, 3), (6, 3)]),
            call([(7, 3), (7, 3)]),
        ],
    ),
    Case(
        "dict_kwargs",
        keyed,
        DYN,
        [call({"a": (4,), "b": (6,)}, scale=2)],
        [call({"a": (5,), "b": (6,)}, scale=2), call({"a": (5,), "b": (6,)}, scale=3)],
    ),
    Case(
        "mark_dynamic",
        pinned,
        AUTO,
        [call(MARKED)],  # raises: no entry, so the first probe compiles anew (no recompile)
        # (The marked call's recompile names no cause yet: torch's reason is that the call
        # has a mark the entries were compiled without.)
        [call((8, 4)), recompiles("op_requirement", (16, 2)), call(MARKED), call((8, 4))],
        warmup_raises=("ConstraintViolationError",),
    ),
    Case("identity", scaled_or_not, AUTO, [call((3,), None)], [recompiles("identity", (3,), (3,))]),
    Case(
        "dynamic_false",
        doubled_static,
        STATIC,
        [call((4,))],
        [call((4,)), recompiles("dynamic_false", (5,)), call((4,))],
    ),
    Case(
        "tensor_state",
        shifted,
        AUTO,
        [call((4,))],
        each_after_a_plain_call(
            recompiles("dtype", Tensor((4,), dtype="float64")),
            recompiles("requires_grad", Tensor((4,), requires_grad=True)),
            Probe((Tensor((4,), device="meta"),), {}, cause="device", log_assumes=AS_RECORDED),
            recompiles("dispatch_keys", Tensor((4,), dtype="complex64", conjugated=True)),
        ),
    ),
    Case(
        "strides",
        column_sums,
        AUTO,
        [call((4, 4))],
        [recompiles("strides", Tensor((4, 4), transposed=True)), call((4, 4))],
    ),
    Case(
        "grad_mode",
        grad_scaled,
        AUTO,
        [call((4,))],
        [
            Probe(((4,),), {}, grad=False, cause="global_state", log_assumes=GRAD_MODE),
            Probe(((4,),), {}, log_assumes=GRAD_MODE),
        ],
    ),
    Case(
        "mark_range",
        row_means,
        AUTO,
        [call(Tensor((3, 4), dynamic=(0,), bounds=(2, 8)))],
        [call((5, 4)), recompiles("mark_dynamic_range", (16, 4))],
    ),
    Case(
        "mark_static",
        tripled,
        AUTO,
        [call(Tensor((2, 4), static=(0,)))],
        [recompiles("mark_static", Tensor((3, 4), static=(0,))), call((2, 4))],
    ),
]


def build(value: Any, requires_grad: bool = False) -> Any:
    """The real value of a probe's argument (shapes and specs become tensors)."""
    if isinstance(value, Tensor):
        return value.build()
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return torch.randn(value, requires_grad=requires_grad)
    if isinstance(value, list):
        return [build(v, requires_grad) for v in value]
    if isinstance(value, dict):
        return {k: build(v, requires_grad) for k, v in value.items()}
    return value


def built(probe: Probe, requires_grad: bool = False) -> tuple[list[Any], dict[str, Any]]:
    """A probe's call, as real values."""
    args = [build(a, requires_grad) for a in probe.args]
    return args, {k: build(v, requires_grad) for k, v in probe.kwargs.items()}


@dataclass
class Observed:
    """What torch did with one call, read from torch alone.

    ``outcome`` is ``served`` (an entry passed its guards; ``entry`` is it), ``recompile``
    (torch started a compile; ``entry`` is the entry it made, None when the compile raised)
    or ``eager`` (no entry served and nothing compiled).  ``order`` is torch's lookup order
    before the call, ``reasons`` its own guard-failure reasons, ``started`` the compile ids
    it started and ``error`` what the call raised (``{"type", "message"}``), else None.
    """

    order: list[str]
    outcome: str
    entry: str | None
    reasons: list[str] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    error: dict[str, str] | None = None


def cache_order(code: CodeType) -> list[str]:
    """Compile ids of torch's cache entries on ``code``, in torch's lookup (MRU) order."""
    return [str(entry.compile_id) for entry in _debug_get_cache_entry_list(code)]


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The error and every error it was raised from or while handling."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [error]
    while todo:
        found = todo.pop()
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        todo += [found.__cause__, found.__context__]


def _modules(trace: TracebackType | None) -> Iterator[str]:
    for frame, _ in traceback.walk_tb(trace):
        yield str(frame.f_globals.get("__name__", ""))


def symdebug_frames(error: BaseException) -> list[str]:
    """The symdebug modules an error (or one it came from) passed through: its bugs."""
    return sorted(
        {m for e in _chain(error) for m in _modules(e.__traceback__) if m.startswith("symdebug")}
    )


@contextlib.contextmanager
def _watching() -> Iterator[tuple[list[bool], list[str]]]:
    """Torch's cache lookups (hit or miss) and the Dynamo compiles it starts, in the block."""
    lookups: list[bool] = []
    started: list[str] = []

    def on_lookup(hit: bool) -> bool:
        lookups.append(bool(hit))
        return bool(previous(hit)) if previous is not None else hit

    def on_start(args: CallbackArgs) -> None:
        if args.callback_trigger == CallbackTrigger.DYNAMO:
            started.append(str(args.compile_id))

    previous = set_guard_complete_hook(on_lookup)
    callback_handler.register_start_callback(on_start)
    try:
        yield lookups, started
    finally:
        callback_handler.remove_start_callback(on_start)
        set_guard_complete_hook(previous)


def torch_error(error: Exception) -> dict[str, str]:
    """An error torch raised, as recorded; an error symdebug's code raised is re-raised."""
    if symdebug_frames(error):
        raise error  # symdebug's bug: never torch's answer
    lines = str(error).strip().splitlines()
    return {"type": type(error).__name__, "message": lines[0] if lines else ""}


def observe(
    compiled: Callable[..., Any], code: CodeType, probe: Probe, requires_grad: bool = False
) -> Observed:
    """Call ``compiled`` with the probe's values; what torch did (see :class:`Observed`)."""
    args, kwargs = built(probe, requires_grad)
    order, failed = cache_order(code), len(guard_failures[code])
    error = None
    with probe.grad_mode(), _watching() as (lookups, started):
        try:
            compiled(*args, **kwargs)
        except Exception as raised:  # a compile that fails reaches the caller
            error = torch_error(raised)
    outcome, entry = _outcome(code, order, lookups, started)
    reasons = [str(r) for r in guard_failures[code][failed:]]
    return Observed(order, outcome, entry, reasons, started, error)


def _outcome(
    code: CodeType, before: list[str], lookups: list[bool], started: list[str]
) -> tuple[str, str | None]:
    """Compiled (and the entry made), served (torch moves the entry that served first), or
    run eagerly: from torch's cache before and after, its lookups and its compiles."""
    after = cache_order(code)
    if started:
        return "recompile", next((cid for cid in after if cid not in before), None)
    if lookups and lookups[0]:
        return "served", after[0]
    return "eager", None


def warm(case: Case, compiled: Callable[..., Any]) -> None:
    """The case's warm-up calls; only the errors the case names may be raised, by torch."""
    for probe in case.warmup:
        error = observe(compiled, case.fn.__code__, probe, case.requires_grad).error
        if error is not None and error["type"] not in case.warmup_raises:
            raise AssertionError(f"{case.name}: warm-up raised {error}")


def record_outcomes(path: str) -> None:
    """Run every case with torch alone; write, per probe, what torch did (:class:`Observed`).

    Dynamo is not reset between cases: one log must not hold two frames numbered alike.
    """
    results = {}
    for case in CASES:
        with case.config():
            compiled = torch.compile(case.fn, **case.options)
            warm(case, compiled)
            results[case.name] = [
                asdict(observe(compiled, case.fn.__code__, probe, case.requires_grad))
                for probe in case.probes
            ]
    if any(name.startswith("symdebug") for name in sys.modules):
        raise AssertionError("torch's answers must be recorded without symdebug")
    with open(path, "w") as out:
        json.dump({"settings": miss_settings(), "cases": results}, out)


def miss_settings() -> dict[str, Any]:
    """The Dynamo settings that decide what a miss does, as the run had them."""
    config = torch._dynamo.config
    return {
        "recompile_limit": int(config.recompile_limit),
        "accumulated_recompile_limit": int(config.accumulated_recompile_limit),
        "suppress_errors": bool(config.suppress_errors),
    }


if __name__ == "__main__":
    record_outcomes(sys.argv[1])
