"""The bundled example: a small model that shows several kinds of specialization.

Each call below is what real code does: a first batch of size 1, a branch on the sequence
length, an int that drives a loop, two inputs that happen to share a size.
"""

from __future__ import annotations

from pathlib import Path

import torch

import symdebug


class TinyBlock(torch.nn.Module):
    """A block with the usual overspecialization traps."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(width, width)
        self.heads = 2  # an int attribute: Dynamo treats it as a constant

    def forward(self, x: torch.Tensor, mask: torch.Tensor, steps: int) -> torch.Tensor:
        h = self.proj(x)
        if h.shape[1] > 8:  # a branch on the sequence length
            h = h * 0.5
        for _ in range(steps):  # an int used as a Python loop count
            h = torch.tanh(h)
        h = h.view(h.shape[0], h.shape[1], self.heads, -1)  # needs width divisible by heads
        out: torch.Tensor = h.sum(-1) + mask.unsqueeze(-1)
        return out


#: (batch, sequence length, steps): a warmup with batch 1, then what serving sends.
CALLS = [(1, 6, 2), (4, 6, 2), (4, 12, 3), (3, 5, 3), (3, 5, 4)]


def run_demo(*, save: str | None = None, report: str | None = None) -> symdebug.Session:
    """Compile the example, call it at several sizes under capture, print the answers."""
    torch.manual_seed(0)
    model = TinyBlock()
    compiled = torch.compile(model, backend="aot_eager")
    with symdebug.capture() as session:
        for batch, length, steps in CALLS:
            compiled(torch.randn(batch, length, 16), torch.randn(batch, length), steps)
    print(session)
    print()
    for name, dim in (("x", 0), ("x", 1), ("steps", None)):
        print(session.why(name, dim))
        print()
    for batch, length, steps in ((2, 7, 4), (2, 30, 4), (2, 7, 5)):
        shapes = ((batch, length, 16), (batch, length), steps)
        print(f"predict{shapes}: {session.predict(*shapes)}")
        print(f"  rerun: {session.rerun(compiled, *shapes)}")
    if save:
        session.save(save)
        print(f"session saved to {save}")
    if report:
        Path(report).parent.mkdir(parents=True, exist_ok=True)
        print(f"HTML report written to {session.to_html(report).resolve()}")
    return session
