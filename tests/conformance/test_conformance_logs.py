"""Logs on this torch: every recorded log, of every version, read here answers as it did on
the version that wrote it; a log written now answers as this release recorded; this
version's logs are there.  (A log's answers against the live capture of the same run:
``tests/unit/test_conformance_releases.py``.)

A version without recorded logs fails (``make record-torch VERSION=...`` records them): the
tier never skips a version.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from conformance.corpus import BY_NAME, CORPUS
from conformance.recorded import (
    DATA,
    all_logs,
    log_answers,
    log_id,
    program_of_log,
    recorded_answers,
    release_of_log,
)
from conformance.recording import record

#: Programs recorded again by this run: a size in a library, a declared static source (torch
#: 2.15 keeps it), a model, and the causes of the demo.
FRESH = ("library_helper", "static_sources_env", "hf_gpt2", "demo_block")


def test_this_torch_has_its_recorded_logs() -> None:
    folder = DATA / f"torch-{torch.__version__}"
    assert folder.is_dir(), f"no logs of torch {torch.__version__}: make record-torch"
    assert {program_of_log(log) for log in folder.glob("*.log.gz")} == set(BY_NAME)


@pytest.mark.parametrize("log", all_logs(), ids=log_id)
def test_a_log_of_any_version_answers_as_that_version_did_live(log: Path) -> None:
    expected = recorded_answers(release_of_log(log), "log")[program_of_log(log)]
    assert log_answers(log) == expected


@pytest.mark.parametrize("name", FRESH)
def test_a_run_now_answers_and_logs_as_this_release_recorded(
    name: str, release: str, tmp_path: Path
) -> None:
    log = tmp_path / f"torch-{torch.__version__}" / f"{name}.log.gz"
    log.parent.mkdir()
    assert record(name, log) == recorded_answers(release)[name]
    assert log_answers(log) == recorded_answers(release, "log")[name]


def test_every_corpus_program_is_recorded_on_this_release(release: str) -> None:
    assert set(recorded_answers(release)) == {program.name for program in CORPUS} | {"torch"}
