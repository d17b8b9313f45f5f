"""The magics in a real IPython shell that captures display output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from symdebug.renderers.document import unpack
from symdebug.renderers.notebook import MIME_TYPE

CELL = """
import torch
def f(x):
    if x.shape[0] > 4:
        return x * 2
    return x + 1
cf = torch.compile(f, backend="eager", dynamic=True)
cf(torch.randn(8)); cf(torch.randn(3))
"""


@pytest.fixture
def shell() -> Iterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    yield ip
    ip.run_line_magic("unload_ext", "symdebug")
    ip.reset(new_session=False)


def test_load_ext_captures_following_cells(shell: InteractiveShell) -> None:
    with capture_output() as loaded:
        shell.run_line_magic("load_ext", "symdebug")
    assert loaded.stdout.count("\n") == 1 and "capturing" in loaded.stdout
    before = set(shell.user_ns)
    shell.run_cell(CELL)
    with capture_output() as shown:
        shell.run_line_magic("symdebug", "")
    (output,) = shown.outputs
    assert set(output.data) >= {MIME_TYPE, "text/html", "text/plain"}
    document = unpack(output.data[MIME_TYPE])  # the wire the viewer gets
    assert len(document["recompiles"]) == 1
    guard = document["guards"][0]
    assert guard["user_stack"][-1]["filename"].startswith("Cell [")  # the cell, not a temp file
    assert "<iframe srcdoc=" in output.data["text/html"]
    new = set(shell.user_ns) - before
    # Dynamo adds `__compiled_fn_*` globals and IPython `_0`; symdebug adds nothing.
    assert {name for name in new if not name.startswith("_")} == {"torch", "f", "cf"}
    assert not [name for name in new if "symdebug" in name.lower()]


def test_cell_magic_captures_one_cell(shell: InteractiveShell) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    with capture_output() as shown:
        shell.run_cell_magic("symdebug", "", CELL)
    data = unpack(shown.outputs[-1].data[MIME_TYPE])
    assert len(data["compiles"]) == 2 and data["recompiles"][0]["cause"] == "user_branch"


def test_cell_magic_names_frames_after_its_own_cell(shell: InteractiveShell) -> None:
    # IPython 9 counts the next cell as soon as one starts: the body of a %%symdebug cell
    # must still read as the cell the user sees (and JupyterLab's link activate that one).
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell("x = 1", store_history=True)
    with capture_output() as shown:
        ran = shell.run_cell(f"%%symdebug\n{CELL}", store_history=True)
    assert ran.success and ran.execution_count == shell.execution_count - 1
    data = unpack(shown.outputs[-1].data[MIME_TYPE])
    cell = f"Cell [{ran.execution_count}]"
    assert {c["filename"] for c in data["compiles"]} == {cell}
    assert {g["user_stack"][-1]["filename"] for g in data["guards"]} == {cell}
    session = shell.magics_manager.registry["SymdebugMagics"].session
    assert {c.filename for c in session.compiles} == {cell}  # %symdebug names it alike


def test_cell_magic_numbers_lines_as_the_editor_does(shell: InteractiveShell) -> None:
    # The editor counts the %%symdebug line, and the blank lines IPython drops before the body.
    shell.run_line_magic("load_ext", "symdebug")
    for body in (CELL, CELL.lstrip("\n"), "\n\n" + CELL):
        text = f"%%symdebug\n{body}"
        with capture_output() as shown:
            ran = shell.run_cell(text, store_history=True)
        assert ran.success
        data = unpack(shown.outputs[-1].data[MIME_TYPE])
        branch = text.splitlines().index("    if x.shape[0] > 4:") + 1  # the editor's line
        frames = [g["user_stack"][-1] for g in data["guards"] if g["user_stack"]]
        assert frames and {(f["lineno"], f["line"]) for f in frames} == {
            (branch, "if x.shape[0] > 4:")
        }
    assert not shell.input_transformers_post  # the numbering ends with the cell


def test_fix_as_a_line_magic_points_to_the_cell_magic(shell: InteractiveShell) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell(CELL)
    with capture_output() as shown:
        shell.run_line_magic("symdebug", "fix")
    assert not shown.outputs  # no explorer
    assert "%%symdebug fix" in shown.stdout and "first line of the cell" in shown.stdout


def test_report_on_off_reset_help_and_bad_flags(shell: InteractiveShell, tmp_path: Path) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell(CELL)
    out = tmp_path / "nb.html"
    with capture_output() as written:
        shell.run_line_magic("symdebug", f"report {out}")
    assert out.exists() and "wrote" in written.stdout
    with capture_output() as switched:
        shell.run_line_magic("symdebug", "off")
        shell.run_line_magic("symdebug", "on")
        shell.run_line_magic("symdebug", "reset")
    assert switched.stdout.splitlines() == [
        "symdebug: not capturing",
        "symdebug: capturing",
        "symdebug: capturing",
    ]
    with capture_output() as helped:
        shell.run_line_magic("symdebug", "-h")
    assert "report" in helped.stdout and "reset" in helped.stdout
    with pytest.raises(UsageError, match="bad options"):
        shell.run_line_magic("symdebug", "--nope")


def test_explorer_follows_later_cells(shell: InteractiveShell) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell(CELL)
    with capture_output() as shown:
        shell.run_line_magic("symdebug", "")
    data = shown.outputs[0].data
    assert "application/vnd.jupyter.widget-view+json" in data and MIME_TYPE in data
    explorer = shell.magics_manager.registry["SymdebugMagics"]._explorers[0]
    before = unpack(json.loads(explorer.session_json))["compiles"]
    shell.run_cell("cf(torch.randn(2))")  # 0/1 serves it: no compile, nothing sent
    assert explorer.revision == 0
    shell.run_cell("g = torch.compile(lambda t: t.sum(), backend='eager'); g(torch.randn(5))")
    assert explorer.revision == 1  # one patch went to the views, not the document again
    explorer._on_message(explorer, {"type": "resend"}, [])  # what a view that missed it asks
    after = unpack(json.loads(explorer.session_json))["compiles"]
    assert len(after) == len(before) + 1 and explorer.base_revision == 1


def test_explorer_of_the_line_magic_runs_the_frames_it_saw(shell: InteractiveShell) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell(CELL)
    shell.run_cell("g = torch.compile(lambda t: t.sum(), backend='eager'); g(torch.randn(5))")
    with capture_output():
        shell.run_line_magic("symdebug", "")
    explorer = shell.magics_manager.registry["SymdebugMagics"]._explorers[0]
    explorer.request = {"action": "run", "frame": "f", "args": "[[2]]", "id": 1}
    assert explorer.error == ""
    assert explorer.results[-1]["text"].startswith("served by 0/1")  # cf, found by its code
    assert "prediction held" in explorer.results[-1]["text"]
    explorer.request = {"action": "run", "frame": "<lambda>", "args": "[[7]]", "id": 2}
    assert explorer.results[-1]["text"].startswith("recompiled as 1/1")  # g (frame 1), not cf
    shell.run_cell("del g")
    explorer.request = {"action": "run", "frame": "<lambda>", "args": "[[7]]", "id": 3}
    assert "no name in the notebook holds what torch.compile returned" in explorer.error


def test_plain_capture_in_a_shell_names_cells(shell: InteractiveShell) -> None:
    # symdebug.capture() in a notebook, without the extension: frames still read "Cell [N]".
    body = CELL.replace("\n", "\n    ")
    shell.run_cell(f"import symdebug\nwith symdebug.capture() as s:\n{body}")
    session = shell.user_ns["s"]
    frame = session.guards[0].user_frame
    assert frame.filename.startswith("Cell [") and "if x.shape[0] > 4:" in frame.line
    assert session.compiles[0].filename.startswith("Cell [")


FIX_CELL = """
import torch
def scale(x):
    return (x * 2).sum(0)
cs = torch.compile(scale, backend="eager")
[cs(torch.ones(n, 3)) for n in (4, 8, 16)]
"""


def test_fix_cell_magic_replays_the_cell(shell: InteractiveShell) -> None:
    shell.run_line_magic("load_ext", "symdebug")
    shell.run_cell(FIX_CELL)
    with capture_output() as shown:
        shell.run_cell_magic("symdebug", "fix", FIX_CELL)
    assert "verified by replay" in shown.stdout
    assert "torch._dynamo.maybe_mark_dynamic(x, 0)" in shown.stdout
    # The cell is sent to a fresh process (safe where a fork is not: CUDA, autograd).
    assert "replays: spawn: a fresh process takes the workload pickled by value" in shown.stdout
    session = shell.magics_manager.registry["SymdebugMagics"].session
    fixes = [f for r in session.recompiles for f in r.fixes if f.verified is not None]
    assert fixes and fixes[0].effect.endswith("-> 1 compiles")
