"""One workload's row of a suite sweep, read from its session's facts.

The row says what a reader of a suite asks first: how many compiles and recompiles, why it
recompiled (by cause), how many distinct graph breaks, and which inputs ended up constants
for a reason other than "not seen changing yet" (``static_by_default``, which the recompile
causes already count) and other than a library's configuration constants (``layer_idx``,
``head_dim``: expected, said once per library by the text summary).  Nothing in it depends
on where the workload ran: user lines are ``file.py:12``, by the file's name only.
"""

from __future__ import annotations

from collections import Counter
from pathlib import PurePosixPath

from symdebug.model.index import FactIndex
from symdebug.model.names import input_names, user_name
from symdebug.model.suite_types import SuiteSpecialization, WorkloadResult
from symdebug.model.types import Facts, Frame, Specialization
from symdebug.model.values import posix_path
from symdebug.queries.diff import frame_key

#: Causes a suite row leaves out of its specializations (see the module's docstring).
NOT_LISTED = ("static_by_default",)


def _line(frame: Frame | None) -> tuple[str, str]:
    if frame is None:
        return "", ""
    return f"{PurePosixPath(posix_path(frame.filename)).name}:{frame.lineno}", frame.line.strip()


def _listed(index: FactIndex) -> list[Specialization]:
    return [
        spec
        for spec in index.facts.specializations
        if spec.cause not in NOT_LISTED and not index.is_expected(spec)
    ]


def specializations(facts: Facts) -> list[SuiteSpecialization]:
    """Distinct (frame, input) constants worth listing, with every value they took."""
    index = FactIndex(facts)
    names = input_names(facts.compiles)
    rows: dict[tuple[str, str], SuiteSpecialization] = {}
    for spec in _listed(index):
        compile_ = index.compile[spec.compile_id]
        key = (frame_key(compile_)[0], str(spec.source))
        if key not in rows:
            line, code = _line(spec.user_frame)
            said = user_name(spec.source, names)
            rows[key] = SuiteSpecialization(key[0], spec.source, said, spec.cause, [], line, code)
        if spec.value not in rows[key].values:
            rows[key].values.append(spec.value)
    return list(rows.values())


def distinct_breaks(facts: Facts) -> int:
    """Graph breaks counted once per frame, reason and line (each recompile breaks again)."""
    index = FactIndex(facts)
    return len(
        {
            (frame_key(index.compile[b.compile_id]), b.reason, b.where)
            for b in facts.graph_breaks
            if b.compile_id in index.compile
        }
    )


def workload_result(name: str, facts: Facts) -> WorkloadResult:
    """The suite row of one workload's session."""
    causes = Counter(str(r.cause) for r in facts.recompiles)
    return WorkloadResult(
        name=name,
        compiles=len(facts.compiles),
        recompiles=len(facts.recompiles),
        graph_breaks=distinct_breaks(facts),
        causes=dict(sorted(causes.items())),
        specializations=specializations(facts),
    )
