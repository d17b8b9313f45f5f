"""``symdebug diff`` as a CI gate never passes a regression (issue 46, points 2-4 and 16).

Every side is a real run: a program compiled by torch in a fresh process, captured live and
saved, or written as a ``TORCH_TRACE`` log.  The command line runs in a subprocess, as CI
runs it; exit 1 is "regressed", 2 "that is no run", 0 "no regression".
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROGRAM = textwrap.dedent(
    """
    import sys
    import torch


    class Trainer:
        def __init__(self):
            self.w = torch.ones(4)

        def step(self, x, n):
            return (x * self.w).sum() * n


    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = torch.nn.Parameter(torch.ones(1))

        def forward(self, x, k):
            return x[:, :k].sum() * self.scale


    def main(regress):
        step = torch.compile(Trainer().step, backend="eager")
        for n in ([2, 3, 4, 5] if regress else [2, 2, 2, 2]):
            step(torch.ones(3, 4), n)
        if regress:  # a frame only after, recompiling
            head = torch.compile(Head(), backend="eager")
            for k in (1, 2, 3):
                head(torch.ones(2, 4), k)


    if __name__ == "__main__":
        main(sys.argv[1] == "after")
    """
)
CAPTURE = """
import sys, symdebug, prog
with symdebug.capture() as s:
    prog.main(False)
s.save(sys.argv[1])
"""


def _python(folder: Path, *args: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=folder,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``before.symdebug.json`` (live), ``before_log/`` and ``after_log/`` of one program."""
    folder = tmp_path_factory.mktemp("runs")
    (folder / "prog.py").write_text(PROGRAM)
    _python(folder, "-c", CAPTURE, str(folder / "before.symdebug.json"))
    for side in ("before", "after"):
        _python(folder, "prog.py", side, env={"TORCH_TRACE": str(folder / f"{side}_log")})
    return folder


def symdebug(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "symdebug", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_live_session_and_a_log_name_a_method_alike_and_the_gate_fails(runs: Path) -> None:
    done = symdebug("diff", runs / "before.symdebug.json", runs / "after_log")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Trainer.step (prog.py): compiles 1 -> 2  REGRESSED" in done.stdout
    summary = symdebug("summary", runs / "after_log")
    assert "frame Trainer.step " in summary.stdout and "frame Head.forward " in summary.stdout


def test_a_new_frame_that_recompiles_is_a_regression(runs: Path) -> None:
    done = symdebug("diff", runs / "before_log", runs / "after_log", "--json")
    assert done.returncode == 1
    frames = json.loads(done.stdout)["runs"][0]["frames"]
    head = next(f for f in frames if f["title"] == "Head.forward")
    assert head["status"] == "added"
    assert head["regressions"] == ["new frame, compiled 2 times"]
    assert symdebug("diff", runs / "before_log", runs / "before_log").returncode == 0


def _saved(runs: Path) -> str:
    return (runs / "before.symdebug.json").read_text(encoding="utf-8")


NOT_RUNS = {
    "random bytes": lambda _: bytes(range(256)) * 16 + os.urandom(4096),
    "a text file": lambda _: b"hello\nworld\n",
    "zeros": lambda _: b"\0" * 4096,
    "an empty file": lambda _: b"",
    "UTF-16": lambda runs: _saved(runs).encode("utf-16"),
    "gzip of text": lambda _: gzip.compress(b"not a run\n" * 10),
}


@pytest.mark.parametrize("name", list(NOT_RUNS))
def test_a_side_that_is_no_run_is_a_usage_error(runs: Path, tmp_path: Path, name: str) -> None:
    bad = tmp_path / "side"
    bad.write_bytes(NOT_RUNS[name](runs))
    for args in (("diff", runs / "after_log", bad), ("diff", bad, runs / "before_log")):
        done = symdebug(*args)
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert str(bad) in done.stderr and "Traceback" not in done.stderr
    assert symdebug("summary", bad).returncode == 2


SESSIONS = {
    "a UTF-8 byte order mark": lambda text: "\ufeff".encode() + text.encode(),
    "whitespace first": lambda text: (" \n\t" * 100 + text).encode(),
    "gzip": lambda text: gzip.compress(text.encode()),
}


@pytest.mark.parametrize("name", list(SESSIONS))
def test_a_saved_session_is_recognised_however_it_starts(
    runs: Path, tmp_path: Path, name: str
) -> None:
    before = tmp_path / "before.symdebug.json"
    before.write_bytes(SESSIONS[name](_saved(runs)))
    assert symdebug("diff", before, runs / "after_log").returncode == 1
    for command in (("summary", before), ("why", before, "n"), ("report", before)):
        done = symdebug(
            *command, *(["-o", str(tmp_path / "r.html")] if command[0] == "report" else [])
        )
        assert done.returncode in (0, 1), (command, done.stderr)
        assert "glog" not in done.stderr
    assert "frame Trainer.step" in symdebug("summary", before).stdout


def _edited(runs: Path, tmp_path: Path, edit: object) -> Path:
    text = _saved(runs)
    assert callable(edit)
    bad = tmp_path / "bad.symdebug.json"
    bad.write_text(edit(text))
    return bad


def _repeat_compile(text: str) -> str:
    document = json.loads(text)
    document["compiles"].append(document["compiles"][0])
    return json.dumps(document)


EDITS = {
    "a repeated member": (
        lambda t: t.replace('"compiles":', '"compiles":[],"compiles":', 1),
        "the member 'compiles' twice",
    ),
    "a repeated compile id": (_repeat_compile, "compiles[1].compile_id: '0/0' repeats compiles[0]"),
    "a number past Python's digits": (
        lambda t: t.replace('"frame_id":0', '"frame_id":1' + "0" * 5000, 1),
        "compiles[0].frame_id: a number of more than",
    ),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_a_broken_document_is_refused_saying_where(runs: Path, tmp_path: Path, name: str) -> None:
    edit, said = EDITS[name]
    bad = _edited(runs, tmp_path, edit)
    assert said not in _saved(runs)
    for side in ((bad, runs / "after_log"), (runs / "before_log", bad)):
        done = symdebug("diff", *side)
        assert done.returncode == 2, done.stdout
        assert str(bad) in done.stderr and said in done.stderr, done.stderr
