"""Replay the user's calls under some changes, isolated, and measure what happened.

A replay is the proof behind a verified fix: it runs in another process (a fresh one, or a
fork where that is proven safe: :mod:`symdebug.live.replayer`), so the user's compiled
functions, session and namespace stay as they were; Dynamo is reset there, the compile
caches are off, and the compiles are counted from the capture's own facts (the same events
``TORCH_TRACE`` writes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.utils._pytree import tree_map

from symdebug._torch.process_group import group_world_size, own_group
from symdebug._torch.settings import fork_safe_torch, reset_compiler
from symdebug._torch.trace_logger import trace_logger
from symdebug.hooks.handler import CaptureHandler
from symdebug.live.apply_changes import ChangeError, changes_applied
from symdebug.live.changes import Change, settings_of
from symdebug.live.isolated import Outcome, can_fork, run_isolated
from symdebug.live.outputs import comparable_outputs
from symdebug.live.recorder import Recorder
from symdebug.model.types import Compile, Facts
from symdebug.model.values import REPLAY_TIMEOUT_S

#: A workload: a no-argument callable that makes the user's calls (and may return outputs).
Workload = Callable[[], Any]


@dataclass
class Replay:
    """What one run of the workload did under ``changes``.

    Attributes
    ----------
    changes
        What the run changed (none: the unchanged run).
    compiles
        Compiles per frame, ``{"f (model.py:12)": 3}``, failed ones included.
    errors
        What raised: the workload's exception and each failed compile, one line each.
    outputs
        What the workload returned (tensors copied), None when it raised.
    uncomparable
        Why the outputs cannot be compared ("" when they can).
    printed
        What the workload printed (kept, never compared).
    """

    changes: tuple[Change, ...] = ()
    compiles: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    outputs: Any = None
    seconds: float = 0.0
    facts: Facts | None = field(default=None, repr=False)
    uncomparable: str = ""
    printed: str = field(default="", repr=False)
    #: Whether the workload returned (it did not raise, and was not stopped).
    finished: bool = False
    #: How the replay's process was started: ``spawn``, ``fork``, or ``""`` (this process).
    process: str = ""

    @property
    def settings(self) -> dict[str, Any]:
        """Every torch setting the run's changes made."""
        return settings_of(self.changes)

    @property
    def total(self) -> int:
        """Compiles of every frame together."""
        return sum(self.compiles.values())


def frame_label(compile_: Compile) -> str:
    """A frame as people and fresh processes can both name it: ``f (model.py:12)``.

    A wrapper frame torch compiled around a module is named by what the user compiled
    (``Encoder.forward (model.py:6)``), not by torch's ``inner``.
    """
    callee = compile_.callee
    where = callee if callee is not None and callee.filename else compile_
    filename = where.filename.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{compile_.title} ({filename}:{where.lineno})" if filename else compile_.title


def compiles_per_frame(facts: Facts) -> dict[str, int]:
    """Compiles (every attempt torch finished, failed ones too) of each frame."""
    counts: dict[str, int] = {}
    for compile_ in facts.compiles:
        label = frame_label(compile_)
        counts[label] = counts.get(label, 0) + 1
    return counts


def compile_errors(facts: Facts) -> list[str]:
    """One line per failed compile: the frame and the first line of what torch raised."""
    return [
        f"{frame_label(c)}: {c.fail_type or 'compile failed'}: {_first(c.fail_reason)}"[:300]
        for c in facts.compiles
        if c.status == "failed"
    ]


def _first(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else ""


def _first_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {_first(str(error))}"[:300]


def _copied(value: Any) -> Any:
    """The outputs, every tensor detached and copied to the CPU.

    Later runs cannot change them, and the process that compares them never touches a GPU.
    """

    def copy(leaf: Any) -> Any:
        return leaf.detach().to("cpu").clone() if isinstance(leaf, torch.Tensor) else leaf

    return tree_map(copy, value)


def replay(workload: Workload, changes: tuple[Change, ...] = ()) -> Replay:
    """Run ``workload`` once under ``changes``, from a reset compiler, under capture.

    In this process: the caller keeps the user's state (:mod:`.replayer` runs it elsewhere).
    """
    result = Replay(changes)
    recorder = Recorder()
    reset_compiler()
    started = time.perf_counter()
    try:
        with changes_applied(changes):
            recorder.attach()
            try:
                result.outputs = _copied(workload())
                result.finished = True
            except Exception as error:  # noqa: BLE001 - the program raising is a measured outcome
                result.errors.append(_first_line(error))
            finally:
                recorder.detach()
    except ChangeError as error:
        result.errors.append(f"the change could not be applied: {error}")
    finally:
        reset_compiler()
    result.seconds = time.perf_counter() - started
    result.facts = recorder.facts()
    result.compiles = compiles_per_frame(result.facts)
    result.errors += compile_errors(result.facts)
    result.uncomparable = comparable_outputs(result.outputs)
    return result


#: A replay's default deadline: a workload past it is stopped and said to be.
TIMEOUT_S = REPLAY_TIMEOUT_S
STDIN_NOTE = "the workload reads standard input, which a replay does not give it"


def replayed_here(workload: Workload, changes: tuple[Change, ...]) -> Replay:
    """A replay process's side (spawned or forked): every capture but the replay's off."""
    with others_detached():
        result = replay(workload, changes)
    result.errors = [_stdin_said(e) for e in result.errors]
    if result.uncomparable:
        result.outputs = None  # it may not pickle; the reason is what the parent needs
    return result


def _stdin_said(error: str) -> str:
    return f"{STDIN_NOTE} ({error})" if error.startswith("EOFError") else error


def forked_side(
    workload: Workload, changes: tuple[Change, ...], world: int | None = None
) -> Replay:
    """A forked child's side: torch made safe after a fork, then the replay.

    ``world``: the size of the user's process group (default: the one this child inherited);
    a group of one is made anew here, never the parent's (its threads are not the child's).
    """
    fork_safe_torch()
    own_group(world if world is not None else group_world_size())
    return replayed_here(workload, changes)


def from_outcome(outcome: Outcome, changes: tuple[Change, ...], process: str) -> Replay:
    """The replay a process sent back, or one that says why it sent none."""
    if isinstance(outcome.value, Replay):
        outcome.value.printed, outcome.value.process = outcome.stdout, process
        return outcome.value
    seconds, printed = outcome.seconds, outcome.stdout
    return Replay(
        changes, errors=[outcome.error], seconds=seconds, printed=printed, process=process
    )


def forked_replay(
    workload: Workload, changes: tuple[Change, ...] = (), *, timeout: float = TIMEOUT_S
) -> Replay:
    """:func:`replay` in a forked child: for where a fork is proven safe (:mod:`.replayer`).

    Without ``fork`` (Windows) it runs here, and the user's compiled functions are reset by it.
    """
    if not can_fork():
        return replay(workload, changes)
    outcome = run_isolated(lambda: forked_side(workload, changes), timeout)
    return from_outcome(outcome, changes, "fork")


@contextmanager
def others_detached() -> Iterator[None]:
    """Keep running captures (``symdebug.start()``) from recording the replays."""
    logger = trace_logger()
    running = [h for h in logger.handlers if isinstance(h, CaptureHandler)]
    for handler in running:
        logger.removeHandler(handler)
    try:
        yield
    finally:
        for handler in running:
            logger.addHandler(handler)
