"""How fast this machine runs Python right now: fixed work, no symdebug code in it.

This machine's speed changes over hours (the same build code read 0.63 s and 1.15 s on
different hours, the process's CPU time equal to its wall time both times).  A benchmark that
prints this figure before and after its own lets a reader tell a slow machine from slower
code: when both grow by the same factor, the machine slowed down.  A slowdown that starts and
ends between the two readings is not seen.

The work is the kind a build does: a regex scan of tree-like text, a dict lookup per line,
a small parse and a small object per line it had not seen.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

_LINE = re.compile(r"\+- (?:SIZE|VALUE|TYPE): .*")
_PARTS = re.compile(r"L\['(?P<name>\w+)'\]\.size\(\)\[(?P<dim>\d)\] == (?P<value>\d+)")


@dataclass(frozen=True, slots=True)
class _Fact:
    name: str
    dim: int
    value: int


def _text(lines: int) -> str:
    kinds = ("SIZE", "VALUE", "TYPE", "OTHER")
    return "\n".join(
        f"| | +- {kinds[i % 4]}: L['x{i % 5000}'].size()[{i % 4}] == {i % 97}  # f(x)  # f.py:{i}"
        for i in range(lines)
    )


def _work(text: str) -> int:
    facts: dict[str, _Fact | None] = {}
    kept = 0
    for line in _LINE.findall(text):
        fact = facts.get(line)
        if fact is None and line not in facts:
            found = _PARTS.search(line)
            fact = facts[line] = (
                _Fact(found["name"], int(found["dim"]), int(found["value"])) if found else None
            )
        kept += fact is not None
    return kept


def reference_seconds(repeats: int = 3, lines: int = 75_000) -> float:
    """Best of ``repeats`` runs of the fixed work (about 0.1 s here at the usual speed)."""
    text = _text(lines)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        _work(text)
        times.append(time.perf_counter() - start)
    return min(times)


if __name__ == "__main__":
    print(f"machine reference: {reference_seconds():.3f} s")
