"""Capture never changes the user's compile, restores every setting, and nests."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import warnings

import pytest
import torch

import symdebug
from symdebug._torch.trace_logger import trace_logger
from symdebug.hooks import live_context
from symdebug.renderers.html import render_html


def model(x, n: int):
    if x.shape[0] > 4:
        x = x * 2
    return x.view(-1, 2).sum(0) * n


def run_calls() -> list[torch.Tensor]:
    torch.manual_seed(0)
    compiled = torch.compile(model, backend="aot_eager", dynamic=True)
    inputs = [(torch.randn(8, 4), 2), (torch.randn(3, 4), 2), (torch.randn(6, 4), 3)]
    return [compiled(x, n) for x, n in inputs]


def test_failure_inside_the_hook_does_not_change_outputs(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = run_calls()
    torch._dynamo.reset()

    def broken_snapshot() -> dict[str, object]:
        raise RuntimeError("injected failure in the capture hook")

    monkeypatch.setattr(live_context, "snapshot", broken_snapshot)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with symdebug.capture() as s:
            outputs = run_calls()
    for got, want in zip(outputs, expected, strict=True):
        torch.testing.assert_close(got, want)
    assert s.capture_errors > 1
    assert s.problems["capture_hook_error"] == s.capture_errors
    hook_warnings = [w for w in caught if "capture hook" in str(w.message)]
    assert len(hook_warnings) == 1  # reported once, counted every time
    assert len(s.compiles) == 2  # what did not fail is still recorded


def test_hook_failure_under_warnings_as_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    # python -W error, pytest's filterwarnings = error: the hook's warning must not escape.
    def broken_snapshot() -> dict[str, object]:
        raise RuntimeError("injected failure in the capture hook")

    monkeypatch.setattr(live_context, "snapshot", broken_snapshot)
    expected = run_calls()
    torch._dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with symdebug.capture() as s:
            outputs = run_calls()
    for got, want in zip(outputs, expected, strict=True):
        torch.testing.assert_close(got, want)
    assert s.capture_errors > 1 and "capture_hook_error" in str(s)


def test_settings_and_handlers_are_restored() -> None:
    config = torch.compiler.config
    before_handlers = list(trace_logger().handlers)
    before = config.force_disable_caches
    with symdebug.capture():
        assert config.force_disable_caches is True
        assert len(trace_logger().handlers) == len(before_handlers) + 1
        with symdebug.capture():
            assert len(trace_logger().handlers) == len(before_handlers) + 2
        assert config.force_disable_caches is True
    assert config.force_disable_caches == before
    assert trace_logger().handlers == before_handlers


def test_restored_even_when_the_block_raises() -> None:
    before_handlers = list(trace_logger().handlers)
    with pytest.raises(ValueError, match="boom"), symdebug.capture():
        raise ValueError("boom")
    assert trace_logger().handlers == before_handlers
    assert torch.compiler.config.force_disable_caches is False


def test_nested_captures_both_see_the_compile() -> None:
    with symdebug.capture() as outer:
        torch.compile(model, backend="eager")(torch.randn(8, 4), 2)
        with symdebug.capture() as inner:
            torch.compile(model, backend="eager", dynamic=True)(torch.randn(3, 4), 2)
    assert len(inner.compiles) == 1
    assert len(outer.compiles) == 2
    compile_id = inner.compiles[0].compile_id
    assert [g.expr for g in inner.guards] == [
        g.expr for g in outer.guards if g.compile_id == compile_id
    ]
    assert inner.guards


def test_start_stop_and_repeated_captures() -> None:
    session = symdebug.start()
    torch.compile(model, backend="eager")(torch.randn(8, 4), 2)
    assert symdebug.stop() is session
    assert len(session.compiles) == 1
    torch._dynamo.reset()
    with symdebug.capture() as again:
        torch.compile(model, backend="eager")(torch.randn(8, 4), 2)
    assert len(again.compiles) == 1
    with pytest.raises(RuntimeError, match="without a matching"):
        symdebug.stop()


def test_session_is_live_inside_the_block() -> None:
    with symdebug.capture() as s:
        compiled = torch.compile(model, backend="eager", dynamic=True)
        compiled(torch.randn(8, 4), 2)
        assert len(s.compiles) == 1
        compiled(torch.randn(3, 4), 2)
        assert len(s.recompiles) == 1


def test_coexists_with_torch_logs(capfd: pytest.CaptureFixture[str]) -> None:
    torch._logging.set_logs(recompiles=True)
    try:
        with symdebug.capture() as s:
            compiled = torch.compile(model, backend="eager", dynamic=True)
            compiled(torch.randn(8, 4), 2)
            torch._logging.set_logs(recompiles=True)  # re-inits torch's handlers; ours stays
            compiled(torch.randn(3, 4), 2)
    finally:
        torch._logging.set_logs()
    assert len(s.recompiles) == 1
    assert "Recompiling function model" in capfd.readouterr().err


def test_compile_errors_pass_through_unchanged() -> None:
    def bad(x):
        return x.view(3, 3)

    with symdebug.capture() as s, pytest.raises(Exception, match="shape"):
        torch.compile(bad, backend="eager")(torch.randn(4))
    assert s.compiles and s.compiles[0].status == "failed"
    assert logging.getLogger("symdebug").handlers == []


PROVENANCE_CHILD = """
import os, sys
import torch
import symdebug
assert "torch._inductor.config" not in sys.modules
def f(x):
    return (x * 2).relu() + 1
with symdebug.capture() as s:
    torch.compile(f)(torch.randn(8, 4))  # Inductor is first imported here
from torch._inductor import config
print(any(k.nodes for k in s.facts.kernels), config.trace.provenance_tracking_level,
      os.environ.get("INDUCTOR_PROVENANCE"))
"""


def test_kernel_provenance_without_importing_inductor_up_front() -> None:
    # Importing Inductor costs a second an aot_eager run never pays: capture asks for
    # provenance through Inductor's environment variable, and restores both after.
    env = {k: v for k, v in os.environ.items() if k != "INDUCTOR_PROVENANCE"}
    done = subprocess.run(
        [sys.executable, "-c", PROVENANCE_CHILD],
        env=env, capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    assert done.stdout.split() == ["True", "0", "None"], done.stdout + done.stderr[-3000:]


def test_lean_capture_leaves_inductor_provenance_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INDUCTOR_PROVENANCE", raising=False)
    with symdebug.capture(kernel_provenance=False) as s:
        assert "INDUCTOR_PROVENANCE" not in os.environ
        run_calls()
    assert s.guards  # every shape fact but the kernel -> node records


def test_captures_stopped_out_of_order_restore_every_setting() -> None:
    config = torch.compiler.config
    filters = list(warnings.filters)
    first, second = symdebug.capture(), symdebug.capture()
    first.__enter__()
    inner = second.__enter__()
    first.__exit__(None, None, None)  # the outer one stops first
    assert config.force_disable_caches is True  # the inner capture still runs
    torch.compile(model, backend="eager")(torch.randn(8, 4), 2)
    second.__exit__(None, None, None)
    assert config.force_disable_caches is False
    assert os.environ.get("INDUCTOR_PROVENANCE") is None
    assert warnings.filters == filters
    assert len(inner.compiles) == 1


NOT_UTF8_MODULE = b"def f(x):\n    if x.shape[0] > 3:\n        return x * 2\n    return x + 1\n"


def test_a_source_file_whose_name_is_not_utf8(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Torch hashes payloads only while a handler is attached: capture must not fail there."""
    import importlib.util

    from torch._logging import _internal

    path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/caf\xff_model.py")
    with open(os.fsencode(path), "wb") as file:
        file.write(NOT_UTF8_MODULE)
    spec = importlib.util.spec_from_file_location("not_utf8_model", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    code = _internal.trace_structured.__code__
    with symdebug.capture() as s:
        compiled = torch.compile(module.f, backend="aot_eager")
        out = [compiled(torch.ones(n)) for n in (5, 2)]
    assert [o.tolist() for o in out] == [[2.0] * 5, [2.0] * 2]
    assert _internal.trace_structured.__code__ is code  # torch's own code again
    assert s.compiles[0].filename == path and len(s.compiles) == 2
    assert path in symdebug.Session.from_json(s.to_json()).compiles[0].filename
    assert "caf" in render_html(s.facts)


def test_a_compile_interrupted_by_keyboard_interrupt_is_incomplete() -> None:
    def interrupted(gm, inputs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    with symdebug.capture() as s:
        with pytest.raises(KeyboardInterrupt):
            torch.compile(model, backend=interrupted)(torch.randn(8, 4), 2)
        torch._dynamo.reset()
        torch.compile(model, backend="eager")(torch.randn(8, 4), 2)
    assert [c.status for c in s.compiles] == ["incomplete", "ok"]
    assert "[incomplete: did not finish" in str(s)


def _aot_payloads(s: symdebug.LiveSession) -> list[str | None]:
    return [e.payload for e in s.live.handler.stream.events if e.name == "aot_inference_graph"]


def test_payloads_nobody_reads_are_not_built_while_only_symdebug_listens() -> None:
    torch._dynamo.reset()
    with symdebug.capture() as s:
        outputs = run_calls()
    assert _aot_payloads(s) and all(p is None for p in _aot_payloads(s))  # torch spared them
    assert all(e.payload for e in s.live.handler.stream.events if e.name == "dynamo_output_graph")
    assert len(s.compiles) == 2 and s.guards and s.recompiles  # every fact still there
    torch._dynamo.reset()
    assert [o.tolist() for o in outputs] == [o.tolist() for o in run_calls()]


class _Listener(logging.Handler):
    """Another tool on torch's trace logger (TORCH_TRACE's handler, tlparse's)."""

    def __init__(self) -> None:
        super().__init__()
        self.aot: list[str | None] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "aot_inference_graph" in (getattr(record, "metadata", None) or {}):
            self.aot.append(getattr(record, "payload", None))


def test_with_another_handler_listening_every_payload_is_built() -> None:
    torch._dynamo.reset()
    listener = _Listener()
    trace_logger().addHandler(listener)
    try:
        with symdebug.capture() as s:
            run_calls()
    finally:
        trace_logger().removeHandler(listener)
    assert listener.aot and all(listener.aot)  # the other tool gets what torch always wrote
    assert _aot_payloads(s) and all(_aot_payloads(s))


def test_a_training_step_compiles_only_the_users_frames() -> None:
    """A backward compiled inside the step calls torch's trace logger from compiled code:
    the capture's own filter must stay Python, not become a compile (and shift every id)."""
    from programs import program
    from torch_compiles import torch_compiles

    with torch_compiles() as counted, symdebug.capture() as session:
        program("train_step").workload()
    frames = {f"{c.name} ({c.filename})" for c in session.compiles}
    assert counted.total == len(session.compiles) > 0, frames
    assert not [c for c in session.compiles if "symdebug" in (c.filename or "")], frames
    ids = sorted(str(record.compile_id) for record in counted.records)
    assert sorted(c.torch_id for c in session.compiles) == ids
