"""A corpus program run live under capture, in this process, from a reset compiler."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import torch

import symdebug
from conformance.answers import Answers, answers_of
from conformance.corpus import BY_NAME, PROGRAMS


def program(name: str) -> Any:
    """The program's module (imported once; its ``workload`` builds what it compiles)."""
    if str(PROGRAMS) not in sys.path:
        sys.path.insert(0, str(PROGRAMS))
    return importlib.import_module(name)


def captured(name: str) -> symdebug.LiveSession:
    """One run of the program's workload under capture, caches off, from a reset compiler."""
    workload = program(name).workload
    torch._dynamo.reset()
    with torch.compiler.config.patch(force_disable_caches=True), symdebug.capture() as session:
        workload()
    return session


def live_answers(name: str) -> Answers:
    """The answers of one live run."""
    return answers_of(captured(name), BY_NAME[name].points)


def torch_outcomes(name: str, session: symdebug.LiveSession) -> list[str]:
    """What torch did at each new point of the program, each run after the capture."""
    if not BY_NAME[name].points:
        return []
    compiled = program(name).build()
    return [session.rerun(compiled, *point).outcome for point in BY_NAME[name].points]
