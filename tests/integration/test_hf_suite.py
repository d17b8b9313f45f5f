"""``symdebug suite --hf``: the built-in suite of Hugging Face models built from config, on the
small grid with ``aot_eager`` (the README's table is the full grid with Inductor), checked
against torch's own recompile reasons (issue 29, point 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

MODELS = ["bert", "gpt2", "t5", "llama", "mistral", "vit"]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    out = tmp_path_factory.mktemp("hf")
    command = [sys.executable, "-m", "symdebug", "suite", "--hf", "-o", str(out)]
    command += ["--grid", "small", "--jobs", "2"]  # quick: aot_eager unless --backend says
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=900, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "--grid small: compiling with aot_eager for a quick look" in done.stderr
    rows = json.loads((out / "suite.json").read_text())["workloads"]
    assert (out / "index.html").is_file()
    return {row["name"]: row for row in rows}


def _torch_reasons(name: str) -> list[str]:
    """The recompile reasons torch logs for a plain run of the workload (no symdebug)."""
    code = (
        "from symdebug.runs.hf_suite import workloads\n"
        f"workloads(backend='aot_eager', grid='small')[{name!r}]()"
    )
    env = dict(os.environ, TORCH_LOGS="recompiles", HF_HUB_OFFLINE="1")
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env,
        check=True,
    )  # fmt: skip
    return [line for line in run.stderr.splitlines() if "triggered by the following guard" in line]


@pytest.mark.slow
def test_every_model_runs_and_every_recompile_is_named(suite: dict[str, dict[str, object]]) -> None:
    assert list(suite) == MODELS
    for name, row in suite.items():
        assert row["error"] is None, (name, row["error"])
        assert row["recompiles"] >= 1, name
        assert "unknown" not in row["causes"], (name, row["causes"])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gpt2", "vit"])
def test_rows_agree_with_torch(suite: dict[str, dict[str, object]], name: str) -> None:
    row = suite[name]
    assert row["recompiles"] == len(_torch_reasons(name))
    # A last single-token call meets torch's 0/1 rule; ViT's position table branches on the
    # trained image size (modeling_vit.py: `height == width`).
    expected = "zero_one" if name == "gpt2" else "user_branch"
    assert expected in row["causes"], row["causes"]
