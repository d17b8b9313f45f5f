"""Answers at a prompt (issue 14): one line for ``repr``, the whole text in IPython, and a
clear error for a wrong argument type."""

from __future__ import annotations

import pytest
import torch

import symdebug


def f(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@pytest.fixture
def session() -> symdebug.LiveSession:
    torch._dynamo.reset()
    with symdebug.capture() as s:
        torch.compile(f, backend="eager")(torch.ones(3))
    return s


def test_results_have_one_line_reprs(session: symdebug.LiveSession) -> None:
    prediction = session.predict(x=(4,))
    explanation = session.why("x", 0)
    for result in (prediction, explanation):
        said = repr(result)
        assert said.startswith(f"<{type(result).__name__}: ") and "\n" not in said
        assert len(said) < 300 and said[len(type(result).__name__) + 3 :].rstrip(">") in str(result)


def test_ipython_shows_the_whole_text(session: symdebug.LiveSession) -> None:
    pretty = pytest.importorskip("IPython.lib.pretty")
    explanation = session.why("x", 0)
    assert pretty.pretty(explanation) == str(explanation)


def test_why_with_a_number_says_what_it_takes(session: symdebug.LiveSession) -> None:
    with pytest.raises(TypeError, match=r"why\('x', 0\)"):
        session.why(0)  # type: ignore[arg-type]
