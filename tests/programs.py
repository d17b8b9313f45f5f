"""The programs of tests/data/programs: load one, capture its workload, or trace it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path
from types import ModuleType

import torch

import symdebug
from symdebug.model.types import GraphBreak
from symdebug.torchtext.source_text import log_sources_read

PROGRAMS = Path(__file__).resolve().parent / "data" / "programs"


def program(name: str) -> ModuleType:
    """The program ``tests/data/programs/<name>.py``, imported."""
    if str(PROGRAMS) not in sys.path:
        sys.path.insert(0, str(PROGRAMS))
    return importlib.import_module(name)


def marked_line(name: str, marker: str) -> int:
    """The line of ``tests/data/programs/<name>.py`` whose comment holds ``marker``."""
    lines = (PROGRAMS / f"{name}.py").read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if marker in text)


def break_at(session: symdebug.Session, name: str, marker: str) -> GraphBreak:
    """The one graph break of the session at the program's marked line."""
    line = marked_line(name, marker)
    found = [b for b in session.graph_breaks if b.user_frame and b.user_frame.lineno == line]
    assert len(found) == 1, [b.where for b in session.graph_breaks]
    return found[0]


def captured(name: str) -> symdebug.LiveSession:
    """A live session of one run of the program's workload (compile caches off)."""
    workload = program(name).workload
    with torch.compiler.config.patch(force_disable_caches=True), symdebug.capture() as session:
        workload()
    return session


def traced(name: str, folder: Path, *, sources: bool = False) -> symdebug.Session:
    """The session of the program run as a script in a fresh process under ``TORCH_TRACE``.

    ``sources``: read the script's source too, as on the machine that ran it (opt-in: a log
    alone reads the same everywhere).
    """
    # A cached Inductor graph replays its guards without their frames: compile afresh.
    env = dict(
        os.environ, TORCH_TRACE=str(folder / "trace"), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1"
    )
    script = str(PROGRAMS / f"{name}.py")
    subprocess.run([sys.executable, script], check=True, env=env, timeout=300)
    with log_sources_read() if sources else nullcontext():
        session = symdebug.load_trace(folder / "trace")
    assert isinstance(session, symdebug.Session)
    return session
