"""A torch upgrade as a diff: the same program's logs from two torch versions, compared.

``symdebug diff`` of the oldest release's log and the newest's answers "did the upgrade add
recompiles, and which": frames match across versions (by qualified name and file, never by
torch's line numbers or compile ids), and where torch itself changed
(``tests/torch_differences.py``) the diff names the recompiles it added, with their cause,
line and fix.  A live capture on this torch, diffed with the oldest release's log of the same
program, changes nothing but what torch changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from torch_differences import DIFFERENCES, differences_of

import symdebug
from conformance.corpus import CORPUS
from conformance.live import captured
from conformance.recorded import log_folders
from symdebug._torch.releases import parse_version

OLDEST, NEWEST = log_folders()[0], log_folders()[-1]
CHANGED = sorted({name for difference in DIFFERENCES for name in difference.programs})
UNCHANGED = [p.name for p in CORPUS if p.name not in CHANGED]
#: Programs captured live here and diffed with the oldest release's log.
LIVE = ("int_loop", "branch_forced", "graph_breaks", "static_sources_env")


def _log(folder: Path, name: str) -> Path:
    return folder / f"{name}.log.gz"


def test_the_upgrade_that_adds_recompiles_names_them_with_cause_line_and_fix() -> None:
    diff = symdebug.diff(_log(OLDEST, "static_sources_env"), _log(NEWEST, "static_sources_env"))
    assert diff.regressed
    (frame,) = diff.frames
    assert (frame.title, frame.compiles_before, frame.compiles_after) == ("total", 2, 4)
    (added,) = frame.recompiles_added
    (removed,) = frame.recompiles_removed
    assert (added.cause, added.count, removed.cause, removed.count) == (
        "static_sources", 3, "static_by_default", 1,
    )  # fmt: skip
    assert added.line is not None and added.line.lineno == 14
    assert added.fix == "torch.compiler.config.static_sources = ''"
    text = str(diff)
    assert "REGRESSED" in text and "static_sources" in text
    assert f"torch {OLDEST.name.removeprefix('torch-')} before" in text


@pytest.mark.parametrize("name", UNCHANGED)
def test_an_upgrade_torch_made_no_change_to_diffs_to_no_change(name: str) -> None:
    diff = symdebug.diff(_log(OLDEST, name), _log(NEWEST, name))
    assert not diff.regressed, str(diff)
    assert all(f.status == "matched" for f in diff.frames), str(diff)
    assert all(not (f.recompiles_added or f.recompiles_removed) for f in diff.frames), str(diff)


@pytest.mark.parametrize("name", LIVE)
def test_this_torch_live_against_the_oldest_log(name: str, tmp_path: Path) -> None:
    saved = tmp_path / f"{name}.symdebug.json"
    captured(name).save(saved)
    diff = symdebug.diff(_log(OLDEST, name), saved)
    changed = differences_of(name, parse_version(torch.__version__) or (0, 0))
    assert diff.regressed == bool(changed), (str(diff), [d.name for d in changed])
    assert all(f.status == "matched" for f in diff.frames), str(diff)
