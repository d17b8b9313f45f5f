"""Torch's own count of a run's compiles, for the tiers that run torch.

Dynamo keeps one ``CompilationMetrics`` for each frame it compiled, failed compiles too
(``torch._dynamo.utils.get_compilation_metrics``): a record of torch's, made whether or not
anything captures the run, and read here without symdebug.  AOT Autograd's backward (a
metrics record with ``is_forward=False``) and runtime records are not frame compiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from torch._dynamo import utils as dynamo_utils

#: More records than any test's run makes (torch keeps 64 by default, dropping the oldest).
KEPT = 10_000


@dataclass
class TorchCompiles:
    """The frame compiles torch recorded during a block (filled when the block ends)."""

    records: list[Any] = field(default_factory=list, repr=False)

    @property
    def total(self) -> int:
        """Compiles of every frame together."""
        return len(self.records)

    def per_frame(self) -> list[int]:
        """Compiles of each frame Dynamo compiled (its frame id), sorted: ``[1, 2]``."""
        frames = Counter(str(record.compile_id).split("/")[0] for record in self.records)
        return sorted(frames.values())


def is_frame_compile(record: Any) -> bool:
    """A Dynamo frame's compile: not AOT's backward, not a runtime record."""
    return record.is_forward is not False and not record.is_runtime


@contextmanager
def torch_compiles() -> Iterator[TorchCompiles]:
    """Count what torch compiles in the block, from its own compilation metrics."""
    counted = TorchCompiles()
    dynamo_utils.set_compilation_metrics_limit(KEPT)
    dynamo_utils.clear_compilation_metrics()
    try:
        yield counted
    finally:
        records = dynamo_utils.get_compilation_metrics()
        counted.records = [record for record in records if is_frame_compile(record)]
        dynamo_utils.clear_compilation_metrics()
        dynamo_utils.set_compilation_metrics_limit(dynamo_utils.DEFAULT_COMPILATION_METRICS_LIMIT)
