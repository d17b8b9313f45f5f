"""The programs of tests/data/programs: load one, capture its workload, or trace it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import torch

import symdebug

PROGRAMS = Path(__file__).resolve().parent / "data" / "programs"


def program(name: str) -> ModuleType:
    """The program ``tests/data/programs/<name>.py``, imported."""
    if str(PROGRAMS) not in sys.path:
        sys.path.insert(0, str(PROGRAMS))
    return importlib.import_module(name)


def captured(name: str) -> symdebug.LiveSession:
    """A live session of one run of the program's workload (compile caches off)."""
    workload = program(name).workload
    with torch.compiler.config.patch(force_disable_caches=True), symdebug.capture() as session:
        workload()
    return session


def traced(name: str, folder: Path) -> symdebug.Session:
    """The session of the program run as a script in a fresh process under ``TORCH_TRACE``."""
    env = dict(os.environ, TORCH_TRACE=str(folder / "trace"))
    script = str(PROGRAMS / f"{name}.py")
    subprocess.run([sys.executable, script], check=True, env=env, timeout=300)
    session = symdebug.load_trace(folder / "trace")
    assert isinstance(session, symdebug.Session)
    return session
