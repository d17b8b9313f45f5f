"""Tutorial notebooks run top to bottom in a real kernel, and show what they claim.

A notebook that teaches guards must show one: in a session it displays (the explorer's
document) or in what it prints (``guard: ... (torch: EXPR)``, ``-> guard EXPR``).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from symdebug.renderers.document import unpack
from symdebug.renderers.notebook import MIME_TYPE

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def run(name: str) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    ).execute()
    return notebook


def outputs(cell: nbformat.NotebookNode) -> list[dict]:
    return [dict(o) for o in cell.get("outputs", [])]


def text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in outputs(cell))


def displayed(cell: nbformat.NotebookNode) -> dict:
    """The session document a cell displayed (with display() or as its value)."""
    wire = next(o["data"][MIME_TYPE] for o in outputs(cell) if MIME_TYPE in o.get("data", {}))
    return unpack(wire)  # the document, as the viewer unpacks it


def code_cell(notebook: nbformat.NotebookNode, snippet: str) -> nbformat.NotebookNode:
    """The first code cell whose source contains ``snippet``."""
    return next(c for c in notebook.cells if c.cell_type == "code" and snippet in c.source)


def shown(notebook: nbformat.NotebookNode, snippet: str) -> str:
    """What the cell with ``snippet`` printed, after checking that it raised nothing."""
    cell = code_cell(notebook, snippet)
    errors = [o for o in outputs(cell) if o.get("output_type") == "error"]
    assert not errors, errors
    return text(cell)


#: How printed answers show a guard: ``guard: x.shape[0] <= 16  (torch: s77 <= 16)`` and
#: ``-> guard s77 > 16 [user_branch]``.
PRINTED_GUARD = re.compile(r"guard: .*\(torch: (?P<said>.+?)\) +\[|-> guard (?P<failed>.+?) \[")


def guards_shown(notebook: nbformat.NotebookNode) -> list[str]:
    """Every guard the notebook's outputs show: each displayed session's, each printed one."""
    shown: list[str] = []
    for cell in notebook.cells:
        for output in outputs(cell):
            data = output.get("data", {})
            if MIME_TYPE in data:
                shown += [guard["expr"] for guard in unpack(data[MIME_TYPE])["guards"]]
            for match in PRINTED_GUARD.finditer(output.get("text", "")):
                shown.append(match["said"] or match["failed"])
    return shown


def value(cell: nbformat.NotebookNode, mime: str = "text/plain") -> str:
    """The cell's value (its execute_result) as ``mime``."""
    return next(o["data"][mime] for o in outputs(cell) if o["output_type"] == "execute_result")


@pytest.mark.slow
def test_quickstart() -> None:
    notebook = run("01-quickstart.ipynb")
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert "capturing" in text(cells[0])
    document = displayed(cells[2])
    assert document["recompiles"] and document["recompiles"][0]["cause"] == "static_by_default"
    # score() adds no shape guard (its batch becomes dynamic, nothing checks it): the
    # quickstart shows recompiles and symbols, and no guard anywhere.
    assert document["guards"] == [] and guards_shown(notebook) == []
    why = text(cells[3])
    assert "L['x'].size()[0]" in why and "recompiles: 1 ['static_by_default']" in why
    fixed = displayed(cells[4])
    assert fixed["recompiles"] == [] and len(fixed["compiles"]) == 1  # the fix: no recompile
    predictions = text(cells[5]).split("score_fixed:")
    assert "score: served by 0/1" in predictions[0]  # the dynamic entry serves batch 64
    assert "served by" in predictions[1]


@pytest.mark.slow
def test_hunting_overspecialization() -> None:
    notebook = run("02-hunting-overspecialization.ipynb")
    # 1. A branch on a size: found with its cause and the line of the cell, fixed by torch.cond.
    document = displayed(code_cell(notebook, "def halve_long(x):"))
    assert [r["cause"] for r in document["recompiles"]] == ["user_branch"]
    assert {g["expr"] for g in document["guards"]} == {"s77 > 16", "s77 <= 16"}
    assert all(g["user_stack"][-1]["filename"].startswith("Cell [") for g in document["guards"])
    assert {"s77 <= 16", "Eq(s34, 5)", "Eq(s36, 4)"} <= set(guards_shown(notebook))
    why = shown(notebook, 'branch.why("x", 0)')
    assert "-> guard s77 > 16 [user_branch]" in why and "no FX node: Python control flow" in why
    assert re.search(r"Cell \[\d+\]:2 +if x\.shape\[0\] > 16:", why)
    assert "cause: user_branch | fix: torch.cond(x.shape[0] > 16, true_fn, false_fn, (x,))" in why
    assert "compiles: 2 -> 1" in shown(notebook, "def halve_long_cond(x):")
    # 2. Divisibility: the view's contiguity check, not the slice's bound, failed.
    pool = shown(notebook, "def pool4(x):")
    assert "op_requirement Eq(s27, 4*((s27//4))) | FX node: view" in pool
    assert "return x[:, : n // 4 * 4].view(b, -1, 4).sum(-1)" in pool
    assert "in check_contiguous_sizes_strides" in pool
    assert "compiles: 2 -> 1" in shown(notebook, "def pool4_unfold(x):")
    # 3. An int in range(): specialized at every value; a tensor count compiles once.
    loop = shown(notebook, "def decay(x, steps):")
    assert "['static_by_default', 'int_specialized', 'int_specialized']" in loop
    assert "steps (L['steps']) is specialized = 5 in compile 0/3" in loop
    assert "cause: int_specialized" in loop and "for _ in range(steps):" in loop
    assert "pass it as a tensor" in loop
    assert "compiles: 4 -> 1" in shown(notebook, "def decay_tensor(x, steps):")
    # 4. A batch of 1: 0/1 specialization, fixed by marking the batch unbacked.
    single = shown(notebook, "def project(x, w):")
    assert "zero_one | torch.fx.experimental._config.backed_size_oblivious = True" in single
    assert "[('0/0', 'specialized', 1), ('0/1', 'dynamic', 6)]" in single
    assert "compiles: 2 -> 1" in shown(notebook, "mark_unbacked(first, 0)\ncalls")
    # 5. Duck sizing, fixed by the config flag the fix names.
    duck = shown(notebook, "def attend(q, k):")
    assert "recompiles by cause: duck_sizing 1" in duck
    assert "0/0: q.size()[0] == k.size()[0]" in duck
    assert "fix: torch.fx.experimental._config.use_duck_shape = False" in duck
    assert "compiles: 2 -> 1" in shown(notebook, "use_duck_shape=False")
    # 6. Inductor's own guard, from its CPU code generator; an unbacked size avoids it.
    reduce = shown(notebook, "def column_sums(x):")
    assert "inductor s77 <= 4096 inductor" in reduce and "in need_use_acc_helper" in reduce
    assert "compiles: 2 -> 1" in shown(notebook, "reduce_fixed = run(")
    conv = shown(notebook, "def conv(x, weight):")
    assert "weight.shape[0] (L['weight'].size()[0]) is specialized = 4 in compile 0/0" in conv
    assert "cause: inductor" in conv and "kernel/conv.py" in conv and "in convolution" in conv
    assert re.search(r"user line: Cell \[\d+\]:2 in conv", conv)


def compiles_before_after(printed: str, label: str) -> tuple[int, int]:
    match = re.search(rf"{label} compiles: (\d+) -> (\d+)", printed)
    assert match, printed
    return int(match[1]), int(match[2])


@pytest.mark.slow
def test_transformers() -> None:
    notebook = run("03-transformers.ipynb")
    generation = shown(notebook, "def generate(")
    assert generation.splitlines()[0] == (
        "0/1 static_by_default: 0/0: tensor 'kwargs['input_ids']' size mismatch at index 1. "
        "expected 8, actual 9"
    )
    assert "maybe_mark_dynamic(input_ids, 1)" in generation
    why = shown(notebook, 'generation.why("input_ids", 1)')
    source = "input_ids.shape[1] (L['kwargs']['input_ids'].size()[1])"
    assert f"{source} is dynamic = 9 in compile 0/1" in why
    assert "-> specialized L['kwargs']['input_ids'].size()[1]" in why
    before, after = compiles_before_after(shown(notebook, "generation_fixed"), "generation")
    assert (before, after) == (2, 1)
    serving = shown(notebook, "def serve(")
    assert "0/1 static_by_default: 0/0: tensor 'kwargs['input_ids']' size mismatch" in serving
    assert "0/2 zero_one: 0/1: 2 <= kwargs['input_ids'].size()[0]" in serving
    assert "backed_size_oblivious = True" in serving  # the first fix: what the notebook applies
    why = shown(notebook, 'serving.why("input_ids", 0)')
    assert "is specialized = 1 in compile 0/2" in why and "cause: zero_one" in why
    before, after = compiles_before_after(shown(notebook, "backed_size_oblivious"), "serving")
    assert (before, after) == (3, 1)
    last = notebook.cells[-1]
    assert last.source == "serving"  # the explorer, before the fix
    document = displayed(last)
    causes = [r["cause"] for r in document["recompiles"]]
    assert causes == ["static_by_default", "zero_one"]
    assert len(document["compiles"]) == before
    assert document["guards"], "the explorer of the serving run shows its guards"
    assert guards_shown(notebook)


@pytest.mark.slow
def test_offline_traces() -> None:
    notebook = run("04-offline-traces.ipynb")
    files = value(code_cell(notebook, "torch.distributed.run"))
    rank_log = r"'dedicated_log_torch_trace_rank_{}_\w+\.log'"  # <random> may hold a _
    assert re.fullmatch(rf"\[{rank_log.format(0)},\s+{rank_log.format(1)}\]", files), files
    summary = shown(notebook, "traces = symdebug.load_trace(trace_dir)")
    assert summary.splitlines()[:4] == [
        "symdebug: 2 ranks",
        "  rank 0: 1 compile, 0 recompiles",
        "  rank 1: 2 compiles, 1 recompile",
        "ranks diverge in 1 frame(s); odd one(s) out: rank 1",
    ]
    ranks = shown(notebook, "for rank, session in sorted(traces.ranks.items()):")
    assert "rank 0: 1 compiles, recompiles []" in ranks
    assert "batch: static-by-default = 32, history [('0/0', 'static-by-default', 32)]" in ranks
    assert "rank 1: 2 compiles, recompiles ['static_by_default']" in ranks
    assert "batch: dynamic = 7" in ranks
    rank1 = shown(notebook, 'traces[1].why("batch", 0)')
    assert "batch.shape[0] (L['batch'].size()[0]) is dynamic = 7 in compile 0/1" in rank1
    assert "0/0: tensor 'batch' size mismatch at index 0. expected 32, actual 7" in rank1
    assert "guards caused by op_requirement (1)" in rank1  # mse_loss: batch == target rows
    assert "guard: target.shape[0] == batch.shape[0]  (torch: Eq(" in rank1
    assert len(guards_shown(notebook)) == 1
    prediction = shown(notebook, "traces[0].predict(")
    assert prediction.startswith("loss_fn: recompiles")
    assert "static_dim L['batch'].size()[0] == 32 fails" in prediction
    reports = shown(notebook, "session.to_html(")
    folder = Path(reports.split("in: ", 1)[1].strip())
    try:
        for rank, compiles in ((0, 1), (1, 2)):
            html = (folder / f"report.rank{rank}.html").read_text(encoding="utf-8")
            block = html.split('id="symdebug-data">', 1)[1].split("</script>", 1)[0]
            session = unpack(json.loads(block))
            assert (session["rank"], len(session["compiles"])) == (rank, compiles)
            assert "<script" not in block  # the data cannot end the block early
        assert "recompiles: [('0/1', 'static_by_default')]" in shown(notebook, "embedded = ")
    finally:
        shutil.rmtree(folder)


@pytest.mark.slow
def test_sizes() -> None:
    notebook = run("05-sizes.ipynb")
    assert "[('0/1', 'static_by_default'), ('0/2', 'user_branch')]" in shown(
        notebook, "for batch in (8, 16, 48)"
    )
    at_24, at_100, at_1 = shown(notebook, "session.predict((batch, 16))").split("forward: ")[1:]
    assert at_24.startswith("served by 0/1") and "33 <= L['x'].size()[0] fails" in at_24
    assert at_100.startswith("served by 0/2")
    assert at_1.startswith("recompiles") and "2 <= L['x'].size()[0] fails" in at_1
    assert "zero_one" in at_1 and re.search(r"user_branch\)  \[Cell \[\d+\]:\d+\]", at_1)
    reruns = shown(notebook, "session.rerun(compiled")
    assert "batch 24: predicted 0/1, served by 0/1; prediction held; allclose=True" in reruns
    assert "batch 100: predicted 0/2, served by 0/2; prediction held; allclose=True" in reruns
    checked = shown(notebook, "prediction held at every size")
    assert "prediction held at every size: True" in checked and "recompiled at: [1]" in checked
    served = value(code_cell(notebook, "prediction held at every size"))
    rows = {line.split()[0]: line.split()[1:] for line in served.splitlines()[2:]}
    assert rows == {"0/1": ["2", "32", "31"], "0/2": ["33", "64", "32"], "0/3": ["1", "1", "1"]}
    plot = outputs(code_cell(notebook, "sweep.plot()"))
    assert [o["output_type"] for o in plot] == ["execute_result"]  # shown once
    assert plot[0]["data"]["image/png"]
    assert shown(notebook, "session.predict((1, 16))").startswith("forward: served by 0/3")
