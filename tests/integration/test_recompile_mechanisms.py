"""Every recompile named: tensor metadata, global state, floats, train/eval, a mark's range,
a list's length and an Inductor lowering, live and from a ``TORCH_TRACE`` log alike.

Each program in tests/data/programs makes one kind of recompile.  Torch's own reason text
is the truth: its cause words (``dtype mismatch``, ``GLOBAL_STATE changed``) and, where it
names one, its user line.  Where torch names no line (a dtype, grad mode), the line is the
call that passed the new input or ran in the new state.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from programs import captured, marked_line, traced

import symdebug
from symdebug.model.types import Recompile

#: program -> (cause, marker of the expected user line, torch's words for it, fix words).
CASES = {
    "dtype_change": ("dtype", "CALL", "dtype mismatch", "x = x.to(torch.float32)"),
    "layout_change": ("strides", "CALL", "stride mismatch", "images = images.contiguous()"),
    "requires_grad_change": ("requires_grad", "CALL", "requires_grad mismatch", "x.detach()"),
    "device_change": ("device", "CALL", "dispatch key set mismatch", "w = w.to('cpu')"),
    "grad_mode_change": ("global_state", "CALL", "GLOBAL_STATE changed: grad_mode", "no_grad"),
    "autocast_change": ("global_state", "CALL", "autocast(cpu)_enabled", "torch.autocast('cpu')"),
    "default_dtype_change": ("global_state", "CALL", "default_dtype", "set_default_dtype"),
    "deterministic_change": ("global_state", "CALL", "deterministic_algorithms", "deterministic"),
    "float_temperature": ("static_by_default", "USES", "temperature == 1.0", "temperature"),
    "train_eval": ("identity", "BRANCH", "self.training == True", "self.eval()"),
    "mark_range": ("mark_dynamic_range", "MARKS", "2 <= x.size()[0] <= 8", "max=16"),
    "feature_list": ("length", "INDEXES", "len(feats) == 2", "pad_sequence"),
    "marked_static": ("mark_static", "PINS", "size mismatch at index 0", "maybe_mark_dynamic"),
}
#: Torch's location of the check in a reason: ``# <line text>  # <file>:<n> in <function>``.
_TORCH_LINE = re.compile(r"# [^#]+?:(?P<line>\d+) in \w+")


def _first(session: symdebug.Session) -> Recompile:
    assert session.recompiles, [c.compile_id for c in session.compiles]
    return session.recompiles[0]


def _answer(recompile: Recompile) -> tuple[str, int | None, str, str | None]:
    frame = recompile.user_frame
    name = Path(frame.filename).name if frame is not None else ""
    return recompile.cause, frame.lineno if frame is not None else None, name, recompile.fix


@pytest.fixture(scope="module", params=sorted(CASES))
def both(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, symdebug.Session, symdebug.Session]:
    name: str = request.param
    # The log read with the script's source: a mark's line, a list's first use come from it.
    return name, captured(name), traced(name, tmp_path_factory.mktemp(name), sources=True)


def test_cause_line_and_fix(both: tuple[str, symdebug.Session, symdebug.Session]) -> None:
    name, live, _ = both
    cause, marker, torch_words, fix_words = CASES[name]
    recompile = _first(live)
    assert torch_words in recompile.reasons[0]  # the mechanism torch itself names
    assert recompile.cause == cause
    assert recompile.user_frame is not None, recompile.reasons[0]
    assert recompile.user_frame.lineno == marked_line(name, marker)
    assert Path(recompile.user_frame.filename).name == f"{name}.py"
    assert recompile.fix is not None and fix_words in recompile.fix


def test_line_agrees_with_torch(both: tuple[str, symdebug.Session, symdebug.Session]) -> None:
    """Where torch's reason names a user line, it is the recompile's line."""
    _, live, _ = both
    recompile = _first(live)
    named = _TORCH_LINE.search(recompile.reasons[0])
    # A mark's recompile points at the line that marked: torch's line there is the first use.
    if named is not None and recompile.cause not in ("mark_static", "mark_dynamic_range"):
        assert recompile.user_frame is not None
        assert recompile.user_frame.lineno == int(named["line"])


def test_live_and_log_agree(both: tuple[str, symdebug.Session, symdebug.Session]) -> None:
    """The same causes, fixes and lines; a call site is the one each source knows.

    torch 2.13's ``dynamo_start`` skips the frame that called the compiled function
    (``log_dynamo_start``'s ``skip=4 + skip`` counts one frame too many), so a log's call
    site is the line one frame further out; a live capture puts the frame back.
    """
    name, live, log = both
    if CASES[name][1] == "CALL":
        assert [r.user_frame for r in log.recompiles] == [
            log.index.compile[r.compile_id].caller for r in log.recompiles
        ]
        assert [_answer(r)[::2] for r in live.recompiles] == [
            _answer(r)[::2] for r in log.recompiles
        ]
    else:
        assert [_answer(r) for r in live.recompiles] == [_answer(r) for r in log.recompiles]
    assert all(r.cause != "unknown" for r in [*live.recompiles, *log.recompiles])


def test_fix_code_parses(both: tuple[str, symdebug.Session, symdebug.Session]) -> None:
    import ast

    _, live, _ = both
    for fix in _first(live).fixes:
        ast.parse(fix.code)
        assert "Eq(" not in fix.code and "___" not in fix.code and "L['" not in fix.code


def test_inductor_lowering_named(tmp_path: Path) -> None:
    """adaptive_avg_pool2d's lowering needs each image size: ``inductor``, the lowering named."""
    live, log = captured("adaptive_pool"), traced("adaptive_pool", tmp_path)
    for session in (live, log):
        causes = [r.cause for r in session.recompiles]
        assert causes == ["static_by_default", "inductor"], causes
        lowered = session.recompiles[1]
        assert lowered.fix is not None and "lowering of adaptive_avg_pool2d" in lowered.fix
        assert lowered.user_frame is not None
        assert lowered.user_frame.lineno == marked_line("adaptive_pool", "POOLS")
    assert [_answer(r) for r in live.recompiles] == [_answer(r) for r in log.recompiles]


#: Programs too slow for this sweep (a model from config) or needing a process group.
_SWEPT_ELSEWHERE = {"hf_gpt2", "hf_bert", "ranks_job", "ddp_forward"}


def _programs() -> list[str]:
    from programs import PROGRAMS

    names = sorted(p.stem for p in PROGRAMS.glob("*.py"))
    return [n for n in names if n not in _SWEPT_ELSEWHERE]


@pytest.mark.parametrize("name", _programs())
def test_no_recompile_of_a_test_program_is_unknown(name: str) -> None:
    """Every program in tests/data: each recompile has a cause and a user line."""
    import torch

    torch._dynamo.reset()
    session = captured(name)
    for recompile in session.recompiles:
        assert recompile.cause != "unknown", (name, recompile.reasons)
        assert recompile.user_frame is not None, (name, recompile.reasons)
