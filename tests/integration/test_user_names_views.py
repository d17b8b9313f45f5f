"""The user's names in every view (issue 31, point 14): ``x.shape[0]``, ``n`` and ``self.k`` beside
torch's ``L['x'].size()[0]`` and ``s77 > 4``, in the summary (``print(s)``) and in the one JSON
document the report and the widget read, as ``why()`` says them; from a real compile, live and
after a save and load."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import torch

import symdebug
from symdebug.renderers.document import unpack, wire_document

X = "L['x'].size()[0]"


class Scaled(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.k = 2

    def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
        if x.shape[0] > 4:  # a branch on a size
            x = x + 1
        return x.sum(0) * self.k + n


@pytest.fixture(scope="module")
def session() -> symdebug.Session:
    """``n`` changes (dynamic after), then ``self.k``, then ``x`` goes below the branch."""
    torch._dynamo.reset()
    model = Scaled()
    with symdebug.capture() as captured:
        compiled = torch.compile(model, backend="eager")
        for rows, n in ((8, 1), (6, 2)):
            compiled(torch.randn(rows, 2), n)
        model.k = 3
        compiled(torch.randn(6, 2), 2)
        compiled(torch.randn(3, 2), 2)
    return captured


def _document(session: symdebug.Session) -> dict[str, Any]:
    """The session document as the report and the widget receive it (the wire, unpacked)."""
    return unpack(json.loads(json.dumps(wire_document(session.facts))))


def test_summary_names_symbols_and_guards_the_users_way(session: symdebug.Session) -> None:
    text = str(session)
    assert re.search(rf"dynamic +s\d+ = x\.shape\[0\] \({re.escape(X)}\)", text)
    assert re.search(r"dynamic +s\d+ = n \(L\['n'\]\)", text)
    assert "= self.k (L['self'].k)" in text
    assert re.search(r"^ +x\.shape\[0\] > 4  \(torch: s\d+ > 4\)  @ ", text, re.MULTILINE)
    assert re.search(r"^ +x\.shape\[0\] <= 4  \(torch: s\d+ <= 4\)", text, re.MULTILINE)


def test_summary_says_guards_as_why_does(session: symdebug.Session) -> None:
    said = {line.split("guard: ", 1)[1].split("  [")[0] for line in _guard_lines(session)}
    assert "x.shape[0] <= 4  (torch: s77 <= 4)".replace("s77", _symbol(session)) in said
    assert all(text in str(session) for text in said)


def _guard_lines(session: symdebug.Session) -> list[str]:
    return [line for line in str(session.why("x", 0)).splitlines() if "guard: " in line]


def _symbol(session: symdebug.Session) -> str:
    return next(s.name for s in session.symbols if X in s.sources and s.state == "dynamic")


def test_the_document_holds_the_names(session: symdebug.Session) -> None:
    document = _document(session)
    branch = [g for g in document["guards"] if g["cause"] == "user_branch"]
    assert {g["user_expr"] for g in branch} == {"x.shape[0] > 4", "x.shape[0] <= 4"}
    named = {
        source: name
        for s in document["symbols"]
        for source, name in zip(s["sources"], s["user_names"], strict=True)
    }
    assert named[X] == "x.shape[0]" and named["L['n']"] == "n"
    assert named["L['self'].k"] == "self.k"
    inputs = {
        source: name
        for r in document["recompiles"]
        for source, name in zip(r["sources"], r["user_names"], strict=True)
    }
    assert inputs == {"L['n']": "n", X: "x.shape[0]", "L['self'].k": "self.k"}


def test_names_survive_save_and_load(session: symdebug.Session, tmp_path: Path) -> None:
    session.save(tmp_path / "s.json")
    loaded = symdebug.load(tmp_path / "s.json")
    assert str(loaded) == str(session)
    assert _document(loaded)["guards"] == _document(session)["guards"]


def test_an_older_document_gets_the_names_when_read(session: symdebug.Session) -> None:
    older = json.loads(session.to_json())
    older["schema_version"] = 10  # before Guard.user_expr and Recompile.user_names
    for guard in older["guards"]:
        del guard["user_expr"]
    for recompile in older["recompiles"]:
        del recompile["user_names"]
    for symbol in older["symbols"]:
        symbol["user_names"] = []  # a v7-v10 document named only a wrapper's inputs
    loaded = symdebug.Session.from_json(json.dumps(older))
    assert str(loaded) == str(session)
    assert _document(loaded)["recompiles"] == _document(session)["recompiles"]
