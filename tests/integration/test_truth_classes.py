"""The classes of misses issue 47 found on unseen programs, each judged against torch's words.

Each program of ``tests/data/classes`` shows one class (the hunt's is
``tests/data/programs/hunt_loop_bounds.py``: a replay imports its workload by name).
Torch's account is read without
symdebug (:mod:`dynamo_recompiles`: Dynamo's ``recompiles`` log, every entry's failed check);
symdebug's answer is read live and from the ``TORCH_TRACE`` log the same program writes in a
process of its own.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from dynamo_recompiles import DynamoLog, dynamo_recompiles
from programs import program

import symdebug

CLASSES = Path(__file__).resolve().parents[1] / "data" / "classes"


def _program(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"truth_class_{name}", CLASSES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass reads its own module while being made
    spec.loader.exec_module(module)
    return module


def _live(name: str) -> tuple[symdebug.LiveSession, DynamoLog]:
    main = _program(name).main
    torch._dynamo.reset()
    with (
        torch.compiler.config.patch(force_disable_caches=True),
        dynamo_recompiles() as dynamo,
        symdebug.capture() as session,
    ):
        main()
    return session, dynamo


def _from_log(name: str, tmp_path: Path) -> symdebug.Session:
    """The program run as a script under ``TORCH_TRACE``, its log read back."""
    env = dict(os.environ, TORCH_TRACE=str(tmp_path), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    subprocess.run([sys.executable, str(CLASSES / f"{name}.py")], env=env, check=True)
    return symdebug.load_trace(str(tmp_path))


def _line(frame: Any) -> tuple[str, int] | None:
    return (Path(frame.filename).name, frame.lineno) if frame is not None else None


@pytest.mark.parametrize("name", ["offsets_list", "config_method"])
def test_an_int_static_only_by_default_is_named_so(name: str, tmp_path: Path) -> None:
    """Class 1: torch's check is the first compile's ``==``; the next one keeps it a symbol."""
    session, dynamo = _live(name)
    first = dynamo.found["0/1"]
    assert first.entries == ["0/0"] and " == " in first.first_check
    for found in (session, _from_log(name, tmp_path)):
        recompile = found.recompiles[0]
        assert (recompile.failed_entry, recompile.cause) == ("0/0", "static_by_default")


def test_a_branch_on_a_tuple_of_sizes_is_the_users_branch(tmp_path: Path) -> None:
    """Class 2: ``if up.shape[2:] != skip.shape[2:]`` is the user's branch, not an operator's."""
    session, dynamo = _live("skip_branch")
    named = [cid for cid, r in dynamo.found.items() if "if up.shape[2:]" in r.first_check]
    assert named, dynamo.found
    for found in (session, _from_log("skip_branch", tmp_path)):
        by_id = {str(r.compile_id): r for r in found.recompiles}
        for cid in named:
            assert by_id[cid].cause == "user_branch", cid
            assert _line(by_id[cid].user_frame) == ("skip_branch.py", 25)


def test_entries_failing_on_different_checks_name_the_closest(tmp_path: Path) -> None:
    """Class 6: one entry fails on dtype, the other on strides: the strides separate the call."""
    session, dynamo = _live("dtype_or_strides")
    found = dynamo.found["0/2"]
    assert found.entries == ["0/1", "0/0"]
    assert "dtype mismatch" in found.failures[0] and "stride mismatch" in found.failures[1]
    for answer in (session, _from_log("dtype_or_strides", tmp_path)):
        recompile = next(r for r in answer.recompiles if str(r.compile_id) == "0/2")
        assert (recompile.cause, recompile.failed_entry) == ("strides", "0/0")
        assert recompile.failed_entries == ["0/1", "0/0"]  # both listed, torch's order
        assert len(recompile.reasons) == 2


def test_a_static_mark_points_at_the_mark() -> None:
    """Class 9: the dim ``mark_static`` held, and its recompiles, point at the mark's line."""
    session, dynamo = _live("marked_static_dim")
    marked = [cid for cid, r in dynamo.found.items() if "at index 1" in r.first_check]
    assert len(marked) == 2
    mark = ("marked_static_dim.py", 22)
    by_id = {str(r.compile_id): r for r in session.recompiles}
    assert [(by_id[c].cause, _line(by_id[c].user_frame)) for c in marked] == [
        ("mark_static", mark)
    ] * 2
    assert _line(session.why("x", 1).user_frame) == mark
    assert {_line(s.user_frame) for s in session.specializations if s.cause == "mark_static"} == {
        mark
    }


def test_the_hunt_calls_nothing_avoidable_without_a_saved_compile() -> None:
    """Class 10: loop counts are needed, with the loop as the reason; unvaried dims are neither."""
    workload = program("hunt_loop_bounds").workload
    torch._dynamo.reset()
    with symdebug.capture() as session:
        workload()
    rows = {row.user_name: row for row in session.hunt(workload, progress=False)}
    assert not [r for r in rows.values() if r.verdict == "avoidable" and r.compiles == 0]
    assert (rows["n"].verdict, _line(rows["n"].user_frame)) == (
        "needed",
        ("hunt_loop_bounds.py", 15),
    )
    loop = ("needed", "int_specialized", ("hunt_loop_bounds.py", 17))
    row = rows["x.shape[1]"]
    assert (row.verdict, row.cause, _line(row.user_frame)) == loop
    for unvaried in ("w.shape[1]", "x.shape[0]"):
        assert rows[unvaried].verdict == "untested"
        assert "never varied" in rows[unvaried].note


def test_an_inductor_lowerings_check_is_named_with_the_users_line(tmp_path: Path) -> None:
    """Class 5: a check torch names only by Inductor's lowering is ``inductor``, at the op."""
    session, dynamo = _live("strided_pool")
    lowered = [cid for cid, r in dynamo.found.items() if "_inductor/lowering.py" in r.first_check]
    assert lowered, dynamo.found
    for found in (session, _from_log("strided_pool", tmp_path)):
        by_id = {str(r.compile_id): r for r in found.recompiles}
        for cid in lowered:
            assert by_id[cid].cause == "inductor", cid
            assert _line(by_id[cid].user_frame) == ("strided_pool.py", 22)
