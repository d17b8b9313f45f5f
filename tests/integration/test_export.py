"""torch.export captured live: a Dim the model specializes, its cause, line and fix."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch.export import Dim

import symdebug


class Fixed(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] == 16:
            return x * 2
        return x + 1


class Bounded(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[1] > 15:
            return x * 2
        return x + 1


def test_export_with_a_specialized_dim_is_captured() -> None:
    with symdebug.capture() as session, pytest.raises(torch._dynamo.exc.UserError):
        torch.export.export(Fixed(), (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim("T")}})
    (compile_,) = session.compiles
    assert (compile_.compile_id, compile_.kind, compile_.status) == ("export/0", "export", "failed")
    assert "Suggested fixes" in (compile_.fail_reason or "")
    assert compile_.filename == __file__
    (spec,) = session.specializations
    assert spec.cause == "mark_dynamic_violated"
    (guard,) = session.guards
    assert guard.cause == "user_branch" and guard.user_frame is not None
    assert guard.user_frame.line == "if x.shape[1] == 16:"
    (fix,) = spec.fixes
    assert fix.code == 'dynamic_shapes={"x": {1: Dim.AUTO}}' and "T = 16" in fix.explanation
    ast.parse(fix.code)
    assert "export/0" in str(session) and "export/0" in str(session.to_json())


def test_strict_export_names_the_module_and_its_call() -> None:
    # A strict export traces with Dynamo: a compile of torch's ModuleToTrace.forward(self,
    # *flat_args), named here by the exported module and forward's parameters.
    dims = {"x": {1: Dim("T")}}
    with symdebug.capture() as session, pytest.raises(torch._dynamo.exc.UserError):
        torch.export.export(Fixed(), (torch.randn(2, 16),), dynamic_shapes=dims, strict=True)
    traced = next(c for c in session.compiles if c.kind == "compile")
    assert traced.title == "Fixed.forward" and traced.callee is not None
    assert traced.callee.names == {"L['flat_args'][0]": "x"}
    assert session.why("x", 1).user_name == "x.shape[1]"
    assert session.why("x", 1).cause == "user_branch"
    exported = next(c for c in session.compiles if c.kind == "export")
    assert (exported.status, exported.filename) == ("failed", __file__)
    assert "Constraints violated (T)!" in (exported.fail_reason or "")


def test_narrowed_dim_gets_torchs_range() -> None:
    with symdebug.capture() as session, pytest.raises(torch._dynamo.exc.UserError):
        torch.export.export(Bounded(), (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim("T")}})
    (symbol,) = session.symbols
    (guard,) = session.guards
    assert guard.cause == "user_branch"
    expected = "dynamic_shapes={\"x\": {1: Dim('T', min=16)}}"
    assert symbol.fixes[0].code == expected and guard.fixes[0].code == expected
    ast.parse(expected)
    assert "rejects other sizes" in guard.fixes[0].explanation


def test_successful_export_and_draft_export() -> None:
    original = torch.export.export
    with symdebug.capture() as session:
        assert torch.export.export is not original  # recorded while the capture runs
        torch.export.export(Fixed(), (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim.AUTO}})
        torch.export.draft_export(Fixed(), (torch.randn(2, 16),))
    assert [(c.compile_id, c.name, c.status) for c in session.compiles] == [
        ("export/0", "export", "ok"),
        ("export/1", "draft_export", "ok"),
    ]
    assert torch.export.export is original
    assert session.specializations and all(s.cause != "unknown" for s in session.specializations)


PROGRAM = Path(__file__).resolve().parents[1] / "data" / "programs" / "export_dim.py"


def _facts(session: symdebug.Session) -> list[object]:
    return [
        [(c.compile_id, c.kind) for c in session.compiles],
        [(s.source, s.value, s.cause, [f.code for f in s.fixes]) for s in session.specializations],
        [(g.expr, g.cause, g.user_frame and g.user_frame.line) for g in session.guards],
    ]


def test_log_and_live_agree(tmp_path: Path) -> None:
    sys.path.insert(0, str(PROGRAM.parent))
    workload = importlib.import_module("export_dim").workload
    with symdebug.capture() as live:
        assert len(workload()) == 2
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"))
    subprocess.run([sys.executable, str(PROGRAM)], check=True, env=env, timeout=300)
    logged = symdebug.load_trace(tmp_path / "trace")
    assert isinstance(logged, symdebug.Session)
    assert [(c.compile_id, c.kind) for c in logged.compiles] == [
        ("export/0", "export"),
        ("export/1", "export"),
    ]
    # A log holds no error text: the specialized Dim is a violation, the narrowed one unknown.
    assert [c.status for c in live.compiles] == ["failed", "failed"]
    assert [c.status for c in logged.compiles] == ["failed", "incomplete"]
    assert _facts(live)[1:] == _facts(logged)[1:]


def test_draft_export_report_is_the_violation() -> None:
    with symdebug.capture() as session:
        torch.export.draft_export(
            Fixed(), (torch.randn(2, 16),), dynamic_shapes={"x": {1: Dim("T")}}
        )
    (compile_,) = session.compiles
    assert (compile_.name, compile_.status, compile_.fail_type) == (
        "draft_export",
        "ok",
        "ConstraintViolationError",
    )
    assert "Guard Added" in (compile_.fail_reason or "")
    (spec,) = session.specializations
    assert spec.cause == "mark_dynamic_violated"
    assert spec.fixes[0].code == 'dynamic_shapes={"x": {1: Dim.AUTO}}'
