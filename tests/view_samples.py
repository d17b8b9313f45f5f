"""Hand-built diff and suite documents for the viewer's tests, with hostile strings in every
text the user or a log controls (a frame name, a label, a source line, a report's name).

A module of its own so that a notebook kernel can build the same facts (the JupyterLab test
puts ``tests/`` on the kernel's ``sys.path``).
"""

from __future__ import annotations

from symdebug.model.diff_types import DiffFacts, DiffItem, FrameDiff, RunDiff, Side
from symdebug.model.suite_types import SuiteFacts, SuiteSpecialization, WorkloadResult
from symdebug.model.types import Frame

#: Markup that would run if any text went into the page as HTML.
HOSTILE = "</script><script>window.pwned=1</script>"
IMG = '<img src=x onerror="window.pwned=2">'
#: The user line of the regressed frame's new recompile.
STEP_LINE = Frame("/w/train.py", 12, "train_step", f"for _ in range(n):  # {IMG}")


def _side(label: str, compiles: int, recompiles: int, graph_breaks: int = 0) -> Side:
    return Side(label, "log", compiles, recompiles, graph_breaks)


def _regressed_frame(step_line: Frame) -> FrameDiff:
    """A matched frame that compiles more: a new recompile and a new specialization."""
    named = {"source": "L['n']", "user_name": "n", "line": step_line}
    fix = "n = torch.as_tensor(n)"
    recompile = DiffItem("recompile", "int_specialized", "n == 3", count=3, fix=fix, **named)
    constant = DiffItem("specialization", "int_specialized", f"n = 3, 4 {HOSTILE}", **named)
    frame = FrameDiff(f"train_step{IMG}", "/w/train.py", "matched", 2, 5)
    frame.recompiles_added, frame.specializations_added = [recompile], [constant]
    frame.regressions = ["compiles 2 -> 5", f"new specialization of n {HOSTILE}"]
    return frame


def _improved_frame() -> FrameDiff:
    """A matched frame that compiles less: a recompile and a graph break gone."""
    gone = DiffItem("recompile", "static_by_default", "x.shape[0] == 8", 2, "L['x'].size()[0]")
    gone.user_name = "x.shape[0]"
    broke = DiffItem("graph_break", "", "print() is not supported", line=Frame("/w/ev.py", 4, "ev"))
    frame = FrameDiff("eval_step", "/w/ev.py", "matched", 3, 1)
    frame.recompiles_removed, frame.graph_breaks_removed = [gone], [broke]
    return frame


def run_frames(step_line: Frame = STEP_LINE) -> list[FrameDiff]:
    """One frame of each kind: regressed, improved, added (after only), removed (before only)."""
    return [
        _regressed_frame(step_line),
        _improved_frame(),
        FrameDiff("new_helper", "/w/helpers.py", "added", 0, 4),
        FrameDiff("old_helper", "/w/helpers.py", "removed", 1, 0),
    ]


def regressed_diff(step_line: Frame = STEP_LINE) -> DiffFacts:
    """Two rank folders; rank 0 regressed (one frame, its new items at ``step_line``), rank 1
    did not; hostile labels."""
    before = _side(f"before{HOSTILE}.log", 6, 2)
    before.problems, before.problem_examples = {"bad_event": 2}, [f"line 7: not JSON {HOSTILE}"]
    rank0 = RunDiff(
        0, before, _side("after.log", 10, 5), run_frames(step_line), matched=2, regressed=True
    )
    rank0.notes = [f"rank 0 note {IMG}"]
    rank1 = RunDiff(1, _side("b1.log", 1, 0), _side("a1.log", 1, 0))
    notes = [f"rank 2 only after {IMG}"]
    return DiffFacts(f"runs/before{HOSTILE}", "runs/after", [rank0, rank1], notes, regressed=True)


def calm_diff() -> DiffFacts:
    """Two single runs, nothing got worse: one frame compiles less."""
    run = RunDiff(None, _side("a.log", 3, 2), _side("b.log", 1, 0), [_improved_frame()], 1)
    return DiffFacts("a.log", "b.log", [run])


def suite() -> SuiteFacts:
    """Three workloads: one with specializations and a hostile name, one whose report is
    named ``javascript:``, one that crashed with a hostile error."""
    seq = SuiteSpecialization(
        "Bert.forward",
        "L['input_ids'].size()[1]",
        "input_ids.shape[1]",
        "op_requirement",
        [8, 16],
        "bert.py:12",
        f"h[:, T - 1]  # {IMG}",
    )
    n = SuiteSpecialization("Gpt.forward", "L['n']", "", "int_specialized", [3, 4], "gpt.py:5")
    causes = {"op_requirement": 3, "int_specialized": 8}
    bert = WorkloadResult(f"bert{HOSTILE}", 12, 11, 0, causes, [seq], report="bert.html")
    gpt = WorkloadResult("gpt2", 9, 2, 1, {"static_by_default": 2}, [n], "javascript:alert(1)")
    t5 = WorkloadResult("t5", 0, 0, 0, report=None, error=f"Traceback: boom {HOSTILE}")
    return SuiteFacts([bert, gpt, t5], torch=f"2.13.0+cpu{IMG}")


#: Causes a big suite's workloads recompile for: one matrix column each.
WIDE_CAUSES = (
    "int_specialized",
    "op_requirement",
    "static_by_default",
    "user_branch",
    "duck_sizing",
    "dtype",
    "global_state",
    "length",
)
#: Inputs a big suite's workloads made constants: one matrix column each.
WIDE_DIMS = (
    "input_ids.shape[1]",
    "attention_mask.shape[1]",
    "pixel_values.shape[2]",
    "pixel_values.shape[3]",
    "self.config.max_position_embeddings",
    "past_key_values[0][0].shape[2]",
)


def wide_suite() -> SuiteFacts:
    """Twelve workloads of a model zoo: every cause and input above, and a long traceback."""
    workloads = []
    for number in range(12):
        causes = {cause: number + i for i, cause in enumerate(WIDE_CAUSES) if (number + i) % 3}
        specs = [
            SuiteSpecialization(
                "Model.forward", f"L['{dim}']", dim, WIDE_CAUSES[i], [8, 16], "m.py:3"
            )
            for i, dim in enumerate(WIDE_DIMS)
            if (number + i) % 2
        ]
        name = f"huggingface/{'facebook-opt' if number % 2 else 'google-t5'}-{number}-large-fp16"
        workloads.append(WorkloadResult(name, 40 + number, 30 + number, number, causes, specs))
    workloads[3].error = "Traceback (most recent call last):\n" + "  File x.py, line 1\n" * 6
    return SuiteFacts(workloads, torch="2.15.0+cpu")
