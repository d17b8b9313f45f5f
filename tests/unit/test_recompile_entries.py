"""Each recompile names the entries that failed, in its own generation, however many."""

from __future__ import annotations

from symdebug.model.types import Compile, Facts
from symdebug.model.values import CompileId
from symdebug.processors.recompiles import link_recompiles


def _frame(generation: int, count: int) -> list[Compile]:
    """A frame compiled ``count`` times for ``n`` = 0, 1 ...: each recompile lists all."""
    compiles = []
    for number in range(count):
        cid = CompileId.of(0, number, generation=generation)
        compile_ = Compile(cid, 0, number, generation=generation, name="f")
        compile_.recompile_reasons = [f"0/{k}: n == {k}" for k in reversed(range(number))]
        compiles.append(compile_)
    return compiles


def test_a_reset_frame_s_reasons_name_its_own_generation() -> None:
    """The same texts after ``torch._dynamo.reset()`` name the new generation's entries."""
    facts = Facts(compiles=[*_frame(0, 4), *_frame(1, 3), *_frame(0, 2)])
    link_recompiles(facts).apply()
    named = [(r.compile_id, r.failed_entry, r.failed_entries) for r in facts.recompiles]
    assert named == [
        ("0/1", "0/0", ["0/0"]),
        ("0/2", "0/1", ["0/1", "0/0"]),
        ("0/3", "0/2", ["0/2", "0/1", "0/0"]),
        ("0/1@1", "0/0@1", ["0/0@1"]),
        ("0/2@1", "0/1@1", ["0/1@1", "0/0@1"]),
        ("0/1", "0/0", ["0/0"]),
    ]
    assert all(type(e) is CompileId for r in facts.recompiles for e in r.failed_entries)
    assert [r.reasons for r in facts.recompiles] == [
        c.recompile_reasons for c in facts.compiles if c.recompile_reasons
    ]
