"""Graph breaks raised inside libraries, against torch's own account of them.

Four programs (tests/data/programs): ``contextlib_break`` (contextlib's ``ExitStack``),
``optimizer_step`` (Adam's step), ``library_helper`` (a package under a ``site-packages``
folder) and ``ddp_forward`` (DistributedDataParallel on gloo, one process).  Each runs once
in a fresh process under ``TORCH_TRACE`` and ``TORCH_LOGS=graph_breaks``: torch's log says
where each break happened (``Graph break in user code at FILE:LINE``) and prints the user
code traceback.  symdebug must agree with it: the library line is torch's, the user line is
the user's own frame inside the compiled frame (never the line that called it), and a live
capture says the same as the trace.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from programs import PROGRAMS, captured, marked_line

import symdebug
from symdebug.model.types import Frame, GraphBreak

NAMES = ("contextlib_break", "optimizer_step", "library_helper", "ddp_forward")
#: A line of torch's graph-break log: ``[rank0]:V1203 07:08:18.9 27159 file.py:5124] [0/0]
#: [__graph_breaks] text``.
_LOG_LINE = re.compile(
    r"^(?:\[rank\d+\]:)?[VIWE]\d{4} \S+ +\d+ \S+\] "
    r"\[(?P<id>[^\]]+)\] \[__graph_breaks\] ?(?P<text>.*)$"
)
_HEADLINE = re.compile(r"^Graph break.* in user code at (?P<file>.+):(?P<line>\d+)$")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>.+)$')


@dataclass
class TorchBreak:
    """One break as torch's ``graph_breaks`` log prints it."""

    at: tuple[str, int]
    traceback: list[tuple[str, int, str]] = field(default_factory=list)


@dataclass
class Run:
    """One program in a fresh process: torch's log of its breaks, and the trace's session."""

    torch: dict[str, list[TorchBreak]]
    trace: symdebug.Session


def _torch_breaks(log: str) -> dict[str, list[TorchBreak]]:
    """Compile id -> the breaks torch logged for it (restart attempts ``0/0_1`` as ``0/0``)."""
    found: dict[str, list[TorchBreak]] = defaultdict(list)
    for line in log.splitlines():
        match = _LOG_LINE.match(line)
        if match is None:
            continue
        compile_id, text = match["id"].split("_")[0], match["text"]
        if headline := _HEADLINE.match(text):
            found[compile_id].append(TorchBreak((headline["file"], int(headline["line"]))))
        elif (frame := _FRAME.match(text)) and found[compile_id]:
            found[compile_id][-1].traceback.append(
                (frame["file"], int(frame["line"]), frame["name"])
            )
    return dict(found)


def _run(name: str, folder: Path) -> Run:
    env = dict(os.environ, TORCH_TRACE=str(folder / "trace"), TORCH_LOGS="graph_breaks")
    script = str(PROGRAMS / f"{name}.py")
    done = subprocess.run(
        [sys.executable, script], check=False, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    trace = symdebug.load_trace(folder / "trace")
    assert isinstance(trace, symdebug.Session)
    return Run(_torch_breaks(done.stderr), trace)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Run]:
    """Each program run in a fresh process, once for the module."""
    done: dict[str, Run] = {}

    def run(name: str) -> Run:
        if name not in done:
            done[name] = _run(name, tmp_path_factory.mktemp(name))
        return done[name]

    return run


@pytest.fixture(scope="module")
def lives() -> Callable[[str], symdebug.Session]:
    """Each program's live capture, once for the module."""
    done: dict[str, symdebug.Session] = {}

    def live(name: str) -> symdebug.Session:
        if name not in done:
            done[name] = captured(name)
        return done[name]

    return live


def _breaks_in(session: symdebug.Session, frame: str) -> list[GraphBreak]:
    """The breaks of the compiles of the frame named ``frame`` (its code's name)."""
    ids = {c.compile_id for c in session.compiles if c.name == frame}
    found = [b for b in session.graph_breaks if b.compile_id in ids]
    assert found, [(b.compile_id, b.where) for b in session.graph_breaks]
    return found


def _at(frame: Frame | None) -> tuple[str, int] | None:
    return (frame.filename, frame.lineno) if frame is not None else None


def _innermost(graph_break: GraphBreak) -> tuple[str, int] | None:
    """Where symdebug says the graph broke: the library line, else the user line."""
    return _at(graph_break.library_frame or graph_break.user_frame)


def _key(session: symdebug.Session) -> list[tuple[object, ...]]:
    return [
        (
            b.compile_id,
            b.reason,
            b.where,
            b.skipped,
            b.resume_frames,
            len(b.resume_compiles),
            _at(b.user_frame),
            _at(b.library_frame),
        )
        for b in session.graph_breaks
    ]


@pytest.mark.parametrize("name", NAMES)
def test_the_break_lies_where_torch_says(name: str, runs: Callable[[str], Run]) -> None:
    """Torch's headline names the innermost traced frame: symdebug's library (or user) line."""
    run = runs(name)
    assert run.trace.graph_breaks
    for graph_break in run.trace.graph_breaks:
        said = {b.at for b in run.torch[graph_break.compile_id]}
        assert _innermost(graph_break) in said, (graph_break.compile_id, graph_break.where)
    assert {b.compile_id for b in run.trace.graph_breaks} == set(run.torch)


def _printed(run: Run, graph_break: GraphBreak) -> list[tuple[str, int, str]]:
    """The traceback torch printed for a break.

    Torch prints a traceback once per break: a later compile breaking at the same line gets
    only the headline, so its traceback is the one printed for that line before.
    """
    own = [t for b in run.torch[graph_break.compile_id] for t in b.traceback]
    same = [b for bs in run.torch.values() for b in bs if b.at == _innermost(graph_break)]
    return own or [t for b in same for t in b.traceback]


@pytest.mark.parametrize("name", NAMES)
def test_the_user_line_is_inside_the_compiled_frame(name: str, runs: Callable[[str], Run]) -> None:
    """A user line is a frame of torch's traceback, the program's own, never its caller's."""
    run = runs(name)
    for graph_break in run.trace.graph_breaks:
        frame = graph_break.user_frame
        if frame is None:
            continue
        printed = _printed(run, graph_break)
        assert (frame.filename, frame.lineno, frame.name) in printed
        assert frame.filename == str(PROGRAMS / f"{name}.py")
        assert frame.name not in ("workload", "_run", "<module>")  # the callers


@pytest.mark.parametrize("name", NAMES)
def test_live_and_trace_agree(
    name: str, runs: Callable[[str], Run], lives: Callable[[str], symdebug.Session]
) -> None:
    assert _key(lives(name)) == _key(runs(name).trace)


def test_a_callback_breaking_inside_contextlib(runs: Callable[[str], Run]) -> None:
    trace = runs("contextlib_break").trace
    (brk,) = _breaks_in(trace, "with_exit_stack")
    assert brk.skipped and brk.library_frame is not None
    assert brk.library_frame.filename.endswith("/contextlib.py")
    assert brk.library_frame.name == "_exit_wrapper"
    assert brk.user_frame is not None
    assert brk.user_frame.lineno == marked_line("contextlib_break", "USER: exit stack")
    assert f", in contextlib.py:{brk.library_frame.lineno} (library)" in brk.where
    (own,) = _breaks_in(trace, "with_own_manager")
    assert own.library_frame is None  # the break is in the user's own @contextmanager
    assert own.user_frame is not None
    assert own.user_frame.lineno == marked_line("contextlib_break", "USER: own manager")


def test_a_compiled_optimizer_step(runs: Callable[[str], Run]) -> None:
    trace = runs("optimizer_step").trace
    (whole,) = _breaks_in(trace, "wrapper")  # torch.compile(opt.step): torch's frame only
    assert whole.user_frame is None and whole.library_frame is not None
    assert whole.library_frame.name == "_use_grad"
    assert whole.where == f"torch/optim/optimizer.py:{whole.library_frame.lineno} (library)"
    (resume,) = whole.resume_frames  # linked by the line of torch's own compiled frame
    assert resume.startswith("torch_dynamo_resume_in_wrapper_at_") and whole.resume_compiles
    (step,) = _breaks_in(trace, "train_step")
    assert step.user_frame is not None
    assert step.user_frame.lineno == marked_line("optimizer_step", "USER: step")
    assert _at(step.library_frame) == _at(whole.library_frame)
    assert step.resume_compiles


def _tinylib_line(marker: str) -> int:
    lines = (PROGRAMS / "site-packages" / "tinylib" / "__init__.py").read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if marker in text)


def test_a_helper_in_a_site_packages_library(runs: Callable[[str], Run]) -> None:
    trace = runs("library_helper").trace
    library = _tinylib_line("LIBRARY: print")
    helper = marked_line("library_helper", "USER: helper")
    for frame in ("forward", "normalize"):  # normalize's line, inlined into forward
        for brk in _breaks_in(trace, frame):
            assert brk.user_frame is not None and brk.user_frame.lineno == helper
            assert brk.where.endswith(f", in tinylib/__init__.py:{library} (library)")
    resumed = marked_line("library_helper", "RESUME: forward")
    assert _breaks_in(trace, "forward")[0].resume_frames == [
        f"torch_dynamo_resume_in_forward_at_{resumed}"
    ]
    for brk in _breaks_in(trace, "logged_scale"):  # the library's own frame, compiled
        assert brk.user_frame is None and brk.where == f"tinylib/__init__.py:{library} (library)"


def test_ddp_forward_breaks_in_torch(runs: Callable[[str], Run]) -> None:
    trace = runs("ddp_forward").trace
    (whole,) = _breaks_in(trace, "inner")  # the DDP module compiled: no line of the user's
    assert whole.user_frame is None and whole.library_frame is not None
    assert whole.library_frame.name == "_pre_forward"
    assert whole.where.startswith("torch/nn/parallel/distributed.py:")
    caller = marked_line("ddp_forward", "CALLER: compiled ddp")
    assert caller in {f.lineno for f in whole.user_stack}  # torch printed the caller's line
    (called,) = _breaks_in(trace, "predict")
    assert called.user_frame is not None
    assert called.user_frame.lineno == marked_line("ddp_forward", "USER: ddp call")
    assert _at(called.library_frame) == _at(whole.library_frame)


def test_views_say_the_library_line(lives: Callable[[str], symdebug.Session]) -> None:
    live = lives("optimizer_step")
    text = str(live)
    (whole,) = _breaks_in(live, "wrapper")
    assert f"graph break at {whole.where}:" in text
    assert "graph break at " + str(PROGRAMS / "optimizer_step.py") in text
    assert ", in torch/optim/optimizer.py:" in text
    again = symdebug.Session.from_json(live.to_json())
    assert again.graph_breaks == live.graph_breaks
