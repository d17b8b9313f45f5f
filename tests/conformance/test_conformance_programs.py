"""Every corpus program on this torch: the answers it recorded, and torch's own account.

The answers (compiles per frame, each recompile's cause, user line and fix, the inputs made
constants, graph breaks' lines, ``why``) must be those recorded on this release
(``tests/data/conformance``); ``tests/unit/test_conformance_releases.py`` holds each release's
to the oldest's, but for the differences torch itself made.  Torch's account is read without
symdebug: its compilation metrics count the compiles, and Dynamo's ``recompiles`` log names
each recompile and the entry whose check failed first.
"""

from __future__ import annotations

import pytest
from dynamo_recompiles import dynamo_recompiles
from torch_compiles import torch_compiles

from conformance.answers import answers_of
from conformance.corpus import BY_NAME, CORPUS
from conformance.live import captured, torch_outcomes
from conformance.recorded import recorded_answers

NAMES = [program.name for program in CORPUS]


@pytest.mark.parametrize("name", NAMES)
def test_a_program_answers_as_recorded_and_as_torch_counts(name: str, release: str) -> None:
    with dynamo_recompiles() as dynamo, torch_compiles() as counted:
        session = captured(name)
    answers = answers_of(session, BY_NAME[name].points)
    assert answers == recorded_answers(release)[name], name
    compiles = [c for c in session.compiles if c.kind == "compile"]
    assert len(compiles) == counted.total, (name, [c.compile_id for c in compiles])
    ours = {str(r.compile_id): r.failed_entry for r in session.recompiles}
    torchs = {cid: found.entries[0] for cid, found in dynamo.found.items()}
    assert ours == torchs, name
    # A sure prediction is what torch did; an unsure one says so (and what it could not check).
    done = torch_outcomes(name, session)
    for (predicted, sure), outcome in zip(answers["predictions"], done, strict=True):
        assert predicted == outcome or not sure, (name, predicted, outcome)
