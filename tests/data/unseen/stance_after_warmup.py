"""A text classifier warmed up at a few lengths, then run under `set_stance("fail_on_recompile")`.

Warm-up at lengths 16, 24, 40 (batch 2): 16 compiles static, 24 fails `tokens` size at index 1
and recompiles with a dynamic length, guarded `2 <= tokens.size()[1] <= 64` because of the
`> 64` branch; 40 hits.  Under "fail_on_recompile", length 48 still hits, and length 80 fails
that range guard: torch raises RuntimeError ("Detected recompile when torch.compile stance is
'fail_on_recompile'") and logs no "Recompiling function" line for it.  Back in the default
stance, length 80 recompiles (logged: `2 <= tokens.size()[1] <= 64` failed), the long-document
branch.  In next_calls(), length 100 hits that graph and batch 5 fails `tokens` size at index
0 (the batch was a constant) and recompiles.  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

# the compiled objects main() made, for next_calls()
_compiled: dict[str, object] = {}


class TextClassifier(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 16, classes: int = 4) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        hidden = torch.relu(self.encoder(self.embed(tokens)))
        if tokens.shape[1] > 64:
            # long documents: pool the first and the last 32 tokens only
            hidden = torch.cat([hidden[:, :32], hidden[:, -32:]], dim=1)
        return self.head(hidden.mean(dim=1))


def main() -> list[str]:
    torch.manual_seed(0)
    classifier = _compiled["classifier"] = torch.compile(TextClassifier(), backend="eager")
    # warm-up: the serving lengths seen in testing
    results = [
        f"len {length}: {tuple(classifier(torch.randint(0, 100, (2, length))).shape)}"
        for length in (16, 24, 40)
    ]

    torch.compiler.set_stance("fail_on_recompile")
    try:
        results.append(f"len 48: {tuple(classifier(torch.randint(0, 100, (2, 48))).shape)}")
        try:
            classifier(torch.randint(0, 100, (2, 80)))
            results.append("len 80: no recompile")
        except RuntimeError as err:
            results.append(f"len 80: {type(err).__name__}: {str(err).splitlines()[0]}")
    finally:
        torch.compiler.set_stance("default")
    # back in the default stance, the long document compiles normally
    results.append(f"len 80: {tuple(classifier(torch.randint(0, 100, (2, 80))).shape)}")
    return results


def next_calls() -> list[tuple[object, tuple, dict]]:
    torch.manual_seed(1)
    classifier = _compiled["classifier"]
    return [
        (classifier, (torch.randint(0, 100, (2, 100)),), {}),
        (classifier, (torch.randint(0, 100, (5, 100)),), {}),
    ]


if __name__ == "__main__":
    for line in main():
        print(line)
