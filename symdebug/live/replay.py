"""Replay the user's calls under some torch settings, isolated, and measure what happened.

A replay is the proof behind a verified fix: Dynamo is reset before and after, the compile
caches are off, the settings are restored even when the workload raises, and the compiles
are counted from the capture's own facts (the same events ``TORCH_TRACE`` writes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symdebug._torch.settings import reset_compiler, settings_applied
from symdebug._torch.trace_logger import trace_logger
from symdebug.capture.handler import CaptureHandler
from symdebug.model.types import Compile, Facts

#: A workload: a no-argument callable that makes the user's calls (and may return outputs).
Workload = Callable[[], Any]


@dataclass
class Replay:
    """What one run of the workload did under ``settings``.

    Attributes
    ----------
    settings
        ``{dotted torch config name: value}`` applied for the run (empty: unchanged).
    compiles
        Compiles per frame, ``{"f (model.py:12)": 3}``, failed ones included.
    errors
        What raised: the workload's exception and each failed compile, one line each.
    outputs
        What the workload returned (tensors copied), None when it raised.
    """

    settings: dict[str, Any]
    compiles: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    outputs: Any = None
    seconds: float = 0.0
    facts: Facts | None = field(default=None, repr=False)

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
    """The outputs with every tensor detached and cloned, so later runs cannot change them."""
    import torch
    from torch.utils._pytree import tree_map

    def copy(leaf: Any) -> Any:
        return leaf.detach().clone() if isinstance(leaf, torch.Tensor) else leaf

    return tree_map(copy, value)


def replay(workload: Workload, settings: Mapping[str, Any]) -> Replay:
    """Run ``workload`` once under ``settings``, from a reset compiler, under capture."""
    from symdebug.live import LiveCapture

    result = Replay(dict(settings))
    capture = LiveCapture()
    reset_compiler()
    started = time.perf_counter()
    try:
        with settings_applied(settings):
            capture.start()
            try:
                result.outputs = _copied(workload())
            except Exception as error:  # noqa: BLE001 - the program raising is a measured outcome
                result.errors.append(_first_line(error))
            finally:
                capture.stop()
    finally:
        reset_compiler()
    result.seconds = time.perf_counter() - started
    result.facts = capture.facts()
    result.compiles = compiles_per_frame(result.facts)
    result.errors += compile_errors(result.facts)
    return result


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
