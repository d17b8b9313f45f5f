"""A graph's text split into lines exactly as ``str.splitlines`` would, however it breaks."""

from __future__ import annotations

import pytest

from symdebug.torchtext.graph_dump import parse_placeholders, split_lines

BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("brk", BREAKS)
@pytest.mark.parametrize("ending", ["", "\n", "\n\n"])
def test_lines_are_those_of_splitlines(brk: str, ending: str) -> None:
    text = f"def forward(self):\n    a = 1{brk}    b = 2\n\n    c = 3{ending}"
    assert split_lines(text) == text.splitlines()


@pytest.mark.parametrize("text", ["", "\n", "x", "x\n", "\n\nx"])
def test_short_texts_split_as_splitlines_splits_them(text: str) -> None:
    assert split_lines(text) == text.splitlines()


@pytest.mark.parametrize("brk", BREAKS)
def test_the_signature_is_found_on_its_own_line_after_any_break(brk: str) -> None:
    text = f'class GraphModule(torch.nn.Module):{brk}    def forward(self, L_x_: "f32[s0, 3]"):\n'
    [placeholder] = parse_placeholders(text)
    assert (placeholder.name, placeholder.sizes) == ("L_x_", ("s0", "3"))
