"""A graph break restarts the frame compile: events repeat with attempt=1, the model keeps
only the last attempt, and resume functions are frames of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch

import symdebug


def breaks(x):
    if x.shape[0] > 4:
        x = x * 2
    torch._dynamo.graph_break()
    if x.shape[0] > 6:  # AFTER THE BREAK
        x = x + 1
    return x


def test_restart_attempts_are_folded() -> None:
    with symdebug.capture() as s:
        torch.compile(breaks, backend="eager", dynamic=True)(torch.randn(8))
    first = s.compiles[0]
    assert first.compile_id == "0/0" and first.attempt == 1
    assert first.restart_reasons  # torch says why it restarted
    guards = [g.expr for g in s.guards if g.compile_id == "0/0"]
    assert guards == ["s77 > 4"]  # once, though both attempts logged it
    resume = [c for c in s.compiles if c.name.startswith("torch_dynamo_resume_in_breaks")]
    assert len(resume) == 1
    after = next(g for g in s.guards if g.compile_id == resume[0].compile_id)
    assert "# AFTER THE BREAK" in after.user_frame.line


def test_restart_attempts_are_folded_from_a_trace(tmp_path: Path) -> None:
    script = tmp_path / "restart.py"
    script.write_text(
        textwrap.dedent(
            """
            import torch
            torch.compiler.config.force_disable_caches = True
            def breaks(x):
                if x.shape[0] > 4:
                    x = x * 2
                torch._dynamo.graph_break()
                return x + 1
            torch.compile(breaks, backend="eager", dynamic=True)(torch.randn(8))
            """
        )
    )
    env = dict(os.environ, TORCH_TRACE=str(tmp_path / "trace"))
    subprocess.run([sys.executable, str(script)], check=True, env=env, timeout=300)
    session = symdebug.load_trace(tmp_path / "trace")
    assert isinstance(session, symdebug.Session)
    first = session.compiles[0]
    assert (first.compile_id, first.attempt) == ("0/0", 1)
    assert [g.expr for g in session.guards if g.compile_id == "0/0"] == ["s77 > 4"]
