"""One beam-search step of a tiny decoder, compiled, with the beam width passed as a python int.

The step reshapes the (batch*beams, vocab) log-probs to (batch, beams*vocab) and calls
`topk(num_beams)`.  Decoding 2 sentences with 2 beams compiles static (num_beams specialized to
2); 4 beams recompiles on `tensor 'hidden' size mismatch at index 0. expected 4, actual 8`, after
which the batch*beams size and `num_beams` are dynamic, so 3 beams is served from the cache
(2 compiles in main()).  In next_calls(), 3 sentences with 4 beams are served from the cache,
while a single beam (greedy) recompiles on a guard raised by the reshape,
`(tokens.size()[0] // num_beams) != tokens.size()[0]`.  Same on torch 2.13 and 2.15.
(Before the decoder was frozen with `requires_grad_(False)`, the carried hidden state also
recompiled on requires_grad mismatches, and fresh, non-view step inputs failed a guard with
`'NoneType' object has no attribute 'size'`; the program avoids both.)
"""

from __future__ import annotations

import torch
from torch import nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab: int = 50, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRUCell(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor, hidden: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.rnn(self.embed(tokens), hidden)
        return self.lm_head(hidden), hidden


def beam_step(
    decoder: TinyDecoder,
    tokens: torch.Tensor,  # (batch * beams,)
    hidden: torch.Tensor,  # (batch * beams, dim)
    beam_scores: torch.Tensor,  # (batch * beams,)
    num_beams: int,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    logits, hidden = decoder(tokens, hidden)
    vocab = logits.shape[-1]
    log_probs = logits.log_softmax(dim=-1) + beam_scores.unsqueeze(-1)
    log_probs = log_probs.view(-1, num_beams * vocab)  # (batch, beams * vocab)
    top_scores, top_ids = log_probs.topk(num_beams, dim=-1)
    beam_origin = top_ids // vocab
    next_tokens = top_ids % vocab
    batch = log_probs.shape[0]
    rows = (torch.arange(batch).unsqueeze(1) * num_beams + beam_origin).view(-1)
    return next_tokens.view(-1), hidden[rows], top_scores.view(-1)


def decode(step, decoder: TinyDecoder, batch: int, num_beams: int, steps: int = 3) -> torch.Tensor:
    tokens = torch.zeros(batch * num_beams, dtype=torch.long)
    hidden = torch.zeros(batch * num_beams, 32)
    scores = torch.zeros(batch, num_beams)
    scores[:, 1:] = -1e9  # only the first beam is live at the start
    scores = scores.view(-1)
    for _ in range(steps):
        tokens, hidden, scores = step(decoder, tokens, hidden, scores, num_beams)
    return tokens.view(batch, num_beams)


_DECODER: TinyDecoder | None = None
_STEP = None


def main() -> list[torch.Tensor]:
    global _DECODER, _STEP
    torch.manual_seed(0)
    _DECODER = TinyDecoder().eval().requires_grad_(False)  # frozen for inference
    _STEP = torch.compile(beam_step, backend="eager")
    return [decode(_STEP, _DECODER, batch=2, num_beams=beams) for beams in (2, 4, 3)]


def _step_args(batch: int, num_beams: int) -> tuple:
    """Beam state after one (eager) step from the start tokens, as `decode` would hold it."""
    assert _DECODER is not None
    tokens = torch.zeros(batch * num_beams, dtype=torch.long)
    hidden = torch.zeros(batch * num_beams, 32)
    scores = torch.zeros(batch, num_beams)
    scores[:, 1:] = -1e9
    tokens, hidden, scores = beam_step(_DECODER, tokens, hidden, scores.view(-1), num_beams)
    return (_DECODER, tokens, hidden, scores, num_beams)


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _STEP is not None
    return [
        # Three sentences with 4 beams.
        (_STEP, _step_args(3, 4), {}),
        # Greedy decoding through the same step: a single beam.
        (_STEP, _step_args(2, 1), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])
