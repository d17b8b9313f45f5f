"""Typed facts of a suite sweep: one row per workload, as plain JSON-able dataclasses.

``suite.json`` is this document (:func:`suite_document`); the suite's ``index.html`` is the
viewer drawing it.  Nothing in it depends on how or where the workloads ran (serially, in a
process pool or on Dask workers), so every way of running gives the same file.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

SUITE_VERSION = 1


@dataclass(slots=True)
class SuiteSpecialization:
    """An input a workload's compiles made a constant, for a reason other than "not seen yet".

    Attributes
    ----------
    frame
        The compiled frame (``BertModel.forward``).
    source
        The input as Dynamo names it (``L['input_ids'].size()[0]``).
    user_name
        The input as the user names it (``input_ids.shape[0]``).
    cause
        The cause class (never ``static_by_default``: a size not yet seen changing is what
        the recompile counts say).
    values
        The constant values it took, in order of first compile.
    line
        The user line that forced it, ``file.py:12`` (the file's name only), or ``""``.
    code
        That line's source text.
    """

    frame: str
    source: str
    user_name: str
    cause: str
    values: list[int | str] = field(default_factory=list)
    line: str = ""
    code: str = ""


@dataclass(slots=True)
class WorkloadResult:
    """One workload of a suite: its compiles, recompiles by cause, specializations, report."""

    name: str
    compiles: int = 0
    recompiles: int = 0
    graph_breaks: int = 0
    #: Recompiles by cause.
    causes: dict[str, int] = field(default_factory=dict)
    specializations: list[SuiteSpecialization] = field(default_factory=list)
    #: The workload's own report, relative to ``suite.json`` (``bert.html``), or None.
    report: str | None = None
    #: Why the workload did not finish (it raised, crashed or timed out), or None.
    error: str | None = None


@dataclass(slots=True)
class SuiteFacts:
    """Every workload of a suite, in the order the workload file lists them."""

    workloads: list[WorkloadResult] = field(default_factory=list)
    #: The torch version the workloads ran with.
    torch: str = ""


def suite_document(facts: SuiteFacts) -> dict[str, Any]:
    """``suite.json``: ``suite_version``, then every field of the facts."""
    return {"suite_version": SUITE_VERSION, **dataclasses.asdict(facts)}


def workload_from_dict(row: dict[str, Any]) -> WorkloadResult:
    """A row as :func:`dataclasses.asdict` wrote it, read back."""
    specializations = [SuiteSpecialization(**s) for s in row.get("specializations", [])]
    return WorkloadResult(**{**row, "specializations": specializations})
