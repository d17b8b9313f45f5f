"""The TORCH_TRACE reader on a log the pinned torch writes now (the reader's other tests, on
the real logs of tests/data/traces and on hand-written ones: ``unit/test_tracefile_reader.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from symdebug.tracefile import discover_trace_files, read_trace_file

SCRIPT = textwrap.dedent(
    """
    import torch
    torch.compiler.config.force_disable_caches = True

    def fn(x):
        if x.shape[0] > 2:
            return x * 2
        return x + 1

    compiled = torch.compile(fn, backend="eager", dynamic=True)
    compiled(torch.ones(5))
    """
)


@pytest.mark.slow
def test_real_torch_trace(tmp_path: Path) -> None:
    trace_dir = tmp_path / "trace"
    env = {**os.environ, "TORCH_TRACE": str(trace_dir)}
    subprocess.run([sys.executable, "-c", SCRIPT], env=env, check=True, timeout=300)
    (path,) = discover_trace_files(trace_dir)
    stream = read_trace_file(path)
    assert stream.problems == []
    by_name: dict[str, list[Any]] = {}
    for event in stream.events:
        by_name.setdefault(event.name, []).append(event)
    for name in ("guard_added_fast", "create_symbol", "compilation_metrics"):
        assert name in by_name, name
        assert by_name[name][0].key.compile_id == "0/0"
    assert any(">" in e.body["expr"] for e in by_name["guard_added_fast"])
    assert "artifact:torch_version" in by_name
    stacks = [f for e in by_name["create_symbol"] for f in e.body.get("user_stack") or []]
    assert all(f["filename"] in stream.strings for f in stacks)
