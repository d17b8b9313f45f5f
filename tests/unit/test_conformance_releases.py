"""Every supported torch release answers alike, and a log answers as its run did live.

- Each release's recorded answers (``tests/data/conformance``, made by
  ``scripts/record_conformance.py`` on that release, and held to it by the conformance tier),
  live and from the log, equal the oldest release's, program by program, except where a row of
  ``tests/torch_differences.py`` says torch itself behaves differently from that release on:
  then they must differ (a stale row fails too).
- Each recorded log, read here without torch, gives the answers recorded for it (the
  conformance tier reads them again with each installed torch).
- A log's answers are those of the live capture of the same run, but for what only a live
  capture can know (``LIVE_ONLY``, each with the README's reason).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conformance.corpus import CORPUS
from conformance.recorded import (
    Kind,
    all_logs,
    log_answers,
    log_folders,
    log_id,
    program_of_log,
    recorded_answers,
    recorded_releases,
    release_of_log,
)
from torch_differences import described, differences_of

from symdebug._torch.releases import RELEASES, parse_version

REFERENCE = recorded_releases()[0]
LATER = recorded_releases()[1:]
NAMES = [program.name for program in CORPUS]
KINDS: tuple[Kind, ...] = ("live", "log")

#: Why a log cannot say what live capture says (docs/architecture.md, "The call line"; README,
#: "What it answers"): torch's ``dynamo_start`` stack lacks the line that called the compiled
#: frame, and no record of a mark's call exists.
_CALL_LINE = (
    "the line that called the compiled frame: torch's dynamo_start stack leaves it out, so a"
    " recompile decided at the call (a dtype, device, grad or global state) names the line"
    " one level up from a log"
)
_CALL_NAMES = (
    "the caller's names for what it passed (a keyword, a wrapper's args[0]): live capture reads"
    " them at the call, whose line torch's dynamo_start stack leaves out"
)
_MARK_LINE = (
    "the line that marked the input: live capture sees the mark's call; a log has no record"
)
_CALL_SITE_PROGRAMS = (
    "autocast_change", "default_dtype_change", "deterministic_change", "device_change",
    "dtype_change", "grad_mode_change", "requires_grad_change",
)  # fmt: skip
#: (program, answer): what a log cannot know that live capture knows, and why.
LIVE_ONLY: dict[tuple[str, str], str] = {
    **{(name, "recompiles"): _CALL_LINE for name in _CALL_SITE_PROGRAMS},
    ("graph_breaks", "recompiles"): _CALL_LINE + " (a resume frame is called at the break)",
    ("graph_breaks", "why"): _CALL_LINE + " (a resume frame is called at the break)",
    ("hf_gpt2", "recompiles"): _CALL_NAMES,
    ("wrapped_module", "recompiles"): _CALL_NAMES,
    ("mark_range", "recompiles"): _MARK_LINE,
    ("marked_static", "recompiles"): _MARK_LINE,
    ("marked_static", "why"): _MARK_LINE,
}


def test_every_supported_release_is_recorded() -> None:
    assert recorded_releases() == [release.name for release in RELEASES]
    assert {release_of_log(folder / "x") for folder in log_folders()} == set(recorded_releases())
    for release in recorded_releases():
        for kind in KINDS:
            assert set(recorded_answers(release, kind)) == {*NAMES, "torch"}, (release, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("release", LATER)
@pytest.mark.parametrize("name", NAMES)
def test_a_release_answers_as_the_oldest_but_where_torch_differs(
    release: str, name: str, kind: Kind
) -> None:
    ours, oldest = recorded_answers(release, kind)[name], recorded_answers(REFERENCE, kind)[name]
    differences = differences_of(name, parse_version(release) or (0, 0), kind)
    if differences:
        assert ours != oldest, f"declared, not seen: {[d.name for d in differences]}"
    else:
        assert ours == oldest, f"{name} on torch {release} differs from {REFERENCE}"
    for difference in differences:
        assert described(difference.name)


@pytest.mark.parametrize("log", all_logs(), ids=log_id)
def test_a_log_read_without_torch_answers_as_recorded(log: Path) -> None:
    expected = recorded_answers(release_of_log(log), "log")[program_of_log(log)]
    assert log_answers(log) == expected


def _live_and_log(release: str, name: str, field: str) -> tuple[Any, Any]:
    live = recorded_answers(release)[name][field]
    return live, recorded_answers(release, "log")[name][field]


def _cases() -> list[Any]:
    fields = list(recorded_answers(REFERENCE)[NAMES[0]])
    cases = []
    for name in NAMES:
        for field in fields:
            reason = LIVE_ONLY.get((name, field))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(name, field, id=f"{name}-{field}", marks=marks))
    return cases


@pytest.mark.parametrize("release", recorded_releases())
@pytest.mark.parametrize(("name", "field"), _cases())
def test_a_log_answers_as_the_live_capture_of_its_run(release: str, name: str, field: str) -> None:
    live, logged = _live_and_log(release, name, field)
    assert logged == live
