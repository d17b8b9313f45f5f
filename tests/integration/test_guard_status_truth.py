"""Each guard status symdebug reports equals the status torch itself gave that guard.

Four programs are compiled under ``symdebug.capture()`` with a backend of the test's own
(aot_eager that remembers each compile's ShapeEnv), while a handler of the test reads
torch's own guard log: ``ShapeEnv._log_guard`` logs every guard it is given, with its
prefix (``eval``, ``eval [guard suppressed]``, ``runtime_assert``, ...), on the
``torch.fx.experimental.symbolic_shapes`` logger at INFO, and ``ShapeEnv._check_frozen``
logs ``Ignored guard ...`` right before the guard a frozen ShapeEnv evaluates.  Then, per
compile, the expressions symdebug labels

- ``installed`` equal the compile's ``ShapeEnv.guards``;
- ``runtime-assert`` equal the compile's ``ShapeEnv.deferred_runtime_asserts`` (symdebug's
  text put in torch's canonical form by torch's ``canonicalize_bool_expr``) and the
  ``runtime_assert`` records of torch's log;
- ``suppressed`` equal the ``[guard suppressed]`` records of torch's log, less what the
  ShapeEnv installed or deferred (an expression evaluated under suppression and later
  installed is installed);
- ``ignored`` equal the guards torch logged ``Ignored guard`` for.  Torch evaluates those
  in a specialized compile it runs at call time, outside any compile context, so they are
  compared over the session; their number equals the ShapeEnv's ``ignored_backward_guard``
  counter.

Every compared set is asserted non-empty for the program built to produce it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sympy
import torch
from torch._dynamo.backends.registry import lookup_backend
from torch._guards import CompileContext, TracingContext
from torch.fx.experimental.symbolic_shapes import ShapeEnv, canonicalize_bool_expr

import symdebug
from symdebug import LiveSession

#: The logger ``ShapeEnv`` logs its guards on.
SHAPES_LOGGER = "torch.fx.experimental.symbolic_shapes"
SUPPRESSED_PREFIXES = ("eval [guard suppressed]", "runtime_assert [guard suppressed]")
#: Our label for an ``eval`` record that torch's ``Ignored guard`` record announced.
IGNORED = "ignored"


@dataclass(frozen=True, slots=True)
class LoggedGuard:
    """One guard record of torch's log: its compile (None outside any), prefix and text."""

    compile_id: str | None
    attempt: int
    prefix: str
    expr: str


class TorchGuardLog(logging.Handler):
    """Reads the guard records ``ShapeEnv`` logs, with the compile torch was in."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.records: list[LoggedGuard] = []
        self._ignored_next = False

    def emit(self, record: logging.LogRecord) -> None:
        """Keep guard records; an ``Ignored guard`` record labels the ``eval`` after it."""
        message = str(record.msg)
        if message.startswith("Ignored guard"):
            self._ignored_next = True
        elif "[guard added]" in message:
            prefix = str(record.args[0]).removesuffix(" (forcing_spec)")  # type: ignore[index]
            # A frozen ShapeEnv counts a guard ignored before it asks whether guards are
            # suppressed: both of its records follow ``Ignored guard``.
            if self._ignored_next and prefix in ("eval", "eval [guard suppressed]"):
                prefix = IGNORED
            self._ignored_next = False
            self.records.append(_logged(prefix, str(record.args[1])))  # type: ignore[index]

    def last_attempts(self) -> list[LoggedGuard]:
        """The records of each compile's last attempt (a restart logs its guards again)."""
        last: dict[str | None, int] = {}
        for item in self.records:
            last[item.compile_id] = max(last.get(item.compile_id, 0), item.attempt)
        return [r for r in self.records if r.attempt == last[r.compile_id]]


def _logged(prefix: str, expr: str) -> LoggedGuard:
    trace = CompileContext.current_trace_id()
    if trace is None:
        return LoggedGuard(None, 0, prefix, expr)
    return LoggedGuard(str(trace.compile_id), trace.attempt, prefix, expr)


@contextmanager
def torch_guard_log() -> Iterator[TorchGuardLog]:
    """Torch's guard log at INFO, read by a handler of ours, for the ``with`` block."""
    logger = logging.getLogger(SHAPES_LOGGER)
    handler, level = TorchGuardLog(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@dataclass
class Observed:
    """One program's capture: symdebug's session and torch's own state and log."""

    session: LiveSession
    records: list[LoggedGuard]
    #: ShapeEnv per torch compile id (None: a compile torch ran outside any compile).
    envs: dict[str | None, ShapeEnv] = field(default_factory=dict)

    def compile_ids(self) -> set[str]:
        """The compiles torch named, and those symdebug filed guards under."""
        named = {cid for cid in self.envs if cid is not None}
        return named | {str(g.compile_id) for g in self.session.guards}

    def labelled(self, status: str, compile_id: str | None = None) -> set[str]:
        """symdebug's expressions with ``status`` (of one compile, or of all)."""
        return {
            g.expr
            for g in self.session.guards
            if g.status == status and compile_id in (None, str(g.compile_id))
        }

    def logged(self, prefixes: tuple[str, ...], compile_id: str | None) -> set[str]:
        """Torch's logged expressions with one of ``prefixes``, of one compile."""
        return {r.expr for r in self.records if r.prefix in prefixes and r.compile_id == compile_id}


def recording_backend(envs: dict[str | None, ShapeEnv]) -> Callable[..., Any]:
    """Torch's aot_eager, remembering the ShapeEnv each compile traced with."""

    def backend(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        compile_id = CompileContext.current_compile_id()
        key = None if compile_id is None else str(compile_id)
        fake_mode = TracingContext.get().fake_mode
        assert fake_mode is not None and fake_mode.shape_env is not None
        envs[key] = fake_mode.shape_env
        return lookup_backend("aot_eager")(gm, example_inputs)

    return backend


# --- the programs ---------------------------------------------------------------------


def unbacked(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Runtime asserts (``torch._check`` on an ``.item()``), size guards, a suppressed one."""
    n = x.sum().int().item()
    torch._check(n > 2)
    torch._check(n <= x.shape[0] * 4)
    if x.shape[0] > 3:
        x = x + 1
    return torch.zeros(n), x.view(-1, 2)


def aliased(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Overlapping views, one mutated: their fakification and overlap check are suppressed."""
    a.add_(1)
    return a + b


def sliced(x: torch.Tensor) -> torch.Tensor:
    """The slice evaluates under suppression what the view then installs."""
    rows, cols = x.shape
    return x[:, : cols // 4 * 4].view(rows, -1, 4).sum(-1)


def specialized(x: torch.Tensor) -> torch.Tensor:
    """Compiled again at call time for ``x.size(0) == 8``, on the frozen ShapeEnv."""
    return (x * 2).view(-1, 2).sum(0)


def _run_unbacked(backend: Callable[..., Any]) -> None:
    with torch._dynamo.config.patch(capture_scalar_outputs=True):
        compiled = torch.compile(unbacked, backend=backend, dynamic=True)
        compiled(torch.full((4,), 2.0))


def _run_aliased(backend: Callable[..., Any]) -> None:
    base = torch.randn(20)
    torch.compile(aliased, backend=backend, dynamic=True)(base[:8], base[4:12])


def _run_sliced(backend: Callable[..., Any]) -> None:
    compiled = torch.compile(sliced, backend=backend, dynamic=True)
    compiled(torch.randn(2, 8))
    compiled(torch.randn(2, 10))  # the slice is no longer the whole row: a recompile


def _run_specialized(backend: Callable[..., Any]) -> None:
    # As after a registered backend's compile (our backend is none), Dynamo forgets the
    # inputs' fake tensors: the call-time compile makes new symbols, so new guards.
    with torch._dynamo.config.patch(invalidate_compile_context_weakrefs=True):
        compiled = torch.compile(specialized, backend=backend)
        for rows in (8, 6):
            x = torch.randn(rows, 4)
            torch._dynamo.mark_dynamic(x, 0, specialize_on=[lambda size: size == 8])
            compiled(x)


PROGRAMS: dict[str, Callable[[Callable[..., Any]], None]] = {
    "unbacked": _run_unbacked,
    "aliased": _run_aliased,
    "sliced": _run_sliced,
    "specialized": _run_specialized,
}


@functools.cache
def observe(program: str) -> Observed:
    """Run one program once (per test module) under symdebug and torch's guard log."""
    torch._dynamo.reset()
    envs: dict[str | None, ShapeEnv] = {}
    no_cache = torch._functorch.config.patch(enable_autograd_cache=False)
    with no_cache, torch_guard_log() as log, symdebug.capture() as session:
        PROGRAMS[program](recording_backend(envs))
    return Observed(session, log.last_attempts(), envs)


# --- torch's truth --------------------------------------------------------------------


def installed_by_torch(observed: Observed, compile_id: str) -> set[str]:
    """The compile's ``ShapeEnv.guards`` (none for a compile torch did not name).

    A frozen ShapeEnv still appends the guards it ignores to ``guards`` (after Dynamo
    built the guard code from them), so those are not the compile's.
    """
    env = observed.envs.get(compile_id)
    held = {str(guard.expr) for guard in env.guards} if env is not None else set()
    return held - ignored_by_torch(observed)


def deferred_by_torch(env: ShapeEnv | None) -> set[str]:
    """The ShapeEnv's deferred runtime asserts, in torch's canonical text."""
    if env is None:
        return set()
    return {str(ra.expr) for asserts in env.deferred_runtime_asserts.values() for ra in asserts}


def canonical(expr: str, env: ShapeEnv) -> str:
    """``expr`` as torch stores a runtime assert: parsed on the ShapeEnv's own symbols."""
    symbols = {str(symbol): symbol for symbol in env.var_to_range}
    return str(canonicalize_bool_expr(sympy.sympify(expr, locals=symbols)))


def ignored_by_torch(observed: Observed) -> set[str]:
    """The guards a frozen ShapeEnv evaluated: torch logged ``Ignored guard`` for each."""
    return {r.expr for r in observed.records if r.prefix == IGNORED}


def suppressed_by_torch(observed: Observed, compile_id: str) -> set[str]:
    """Evaluated under ``suppress_guards()`` only: never installed, deferred or ignored."""
    deferred = observed.logged(("runtime_assert",), compile_id)
    kept = installed_by_torch(observed, compile_id) | deferred
    return observed.logged(SUPPRESSED_PREFIXES, compile_id) - kept - ignored_by_torch(observed)


# --- the tests ------------------------------------------------------------------------


def test_installed_guards_are_the_shape_env_guards() -> None:
    total = 0
    for program in PROGRAMS:
        observed = observe(program)
        for compile_id in observed.compile_ids():
            expected = installed_by_torch(observed, compile_id)
            assert observed.labelled("installed", compile_id) == expected, (program, compile_id)
            total += len(expected)
    assert observe("unbacked").labelled("installed", "0/0")  # size guards of a plain branch
    # A guard the slice evaluated under suppression and the view installed is installed.
    sliced_run = observe("sliced")
    twice = sliced_run.logged(SUPPRESSED_PREFIXES, "0/0") & sliced_run.logged(("eval",), "0/0")
    assert twice and twice <= sliced_run.labelled("installed", "0/0")
    assert total >= 6


def test_runtime_asserts_are_the_deferred_runtime_asserts() -> None:
    observed = observe("unbacked")
    for compile_id in observed.compile_ids():
        env = observed.envs.get(compile_id)
        labelled = observed.labelled("runtime-assert", compile_id)
        assert labelled == observed.logged(("runtime_assert",), compile_id), compile_id
        assert env is not None or not labelled, compile_id
        if env is not None:
            assert {canonical(e, env) for e in labelled} == deferred_by_torch(env), compile_id
    assert len(deferred_by_torch(observed.envs["0/0"])) >= 2  # both torch._check calls


def test_no_other_program_reports_a_runtime_assert() -> None:
    for program in ("aliased", "sliced", "specialized"):
        observed = observe(program)
        assert not observed.labelled("runtime-assert"), program
        assert not any(deferred_by_torch(env) for env in observed.envs.values()), program


def test_suppressed_guards_are_those_torch_evaluated_under_suppression() -> None:
    for program in PROGRAMS:
        observed = observe(program)
        for compile_id in observed.compile_ids():
            expected = suppressed_by_torch(observed, compile_id)
            assert observed.labelled("suppressed", compile_id) == expected, (program, compile_id)
    for program in ("aliased", "unbacked"):
        assert suppressed_by_torch(observe(program), "0/0"), program  # none would be vacuous


def test_ignored_guards_are_those_the_frozen_shape_env_ignored() -> None:
    for program in PROGRAMS:
        observed = observe(program)
        expected = ignored_by_torch(observed)
        assert observed.labelled("ignored") == expected, program
    observed = observe("specialized")
    ignored = [r for r in observed.records if r.prefix == IGNORED]
    counted = {id(env): env.counter["ignored_backward_guard"] for env in observed.envs.values()}
    assert ignored and len(ignored) == sum(counted.values())


def test_every_guard_torch_logged_has_one_status() -> None:
    for program in PROGRAMS:
        observed = observe(program)
        for compile_id in observed.compile_ids():
            logged = {r.expr for r in observed.records if r.compile_id == compile_id}
            expected = logged | installed_by_torch(observed, compile_id)
            exprs = [g.expr for g in observed.session.guards if str(g.compile_id) == compile_id]
            assert len(exprs) == len(set(exprs)), (program, compile_id)
            if compile_id in observed.envs:  # torch named the compile
                assert set(exprs) == expected, (program, compile_id)
