"""A strided Conv1d audio encoder on waveforms of varying length, with an output-length mask.

The forward gets the padded waveforms and the clip lengths as a list of python ints, and
computes each clip's frame count with `(n + 2p - k) // s + 1` per layer for the mask.  Clips of
16000/12000 samples compile with static sizes; 16001/15999 (odd lengths) recompile on `tensor
'waves' size mismatch at index 1. expected 16000, actual 16001` and the sample count and lengths
become dynamic, so 24000/16000 is served from the cache (2 compiles in main()).  In next_calls(),
20000/8000 is served from the cache; a batch of three clips recompiles on `size mismatch at
index 0` (the batch size and the list's length were static); two clips of 9 and 5 samples, which
leave a single frame, recompile on a reshape guard raised in `F.linear`,
`(2 % (2 + 2*(((-4) + waves.size()[1]) // 20))) != 0`.  Same on torch 2.13 and 2.15.
"""

from __future__ import annotations

import torch
from torch import nn

_COMPILED = None

# (kernel_size, stride, padding) of each conv layer, as in wav2vec-style feature encoders.
CONV_LAYERS = [(10, 5, 3), (3, 2, 1), (3, 2, 1)]


def conv_output_length(length: int) -> int:
    for kernel, stride, padding in CONV_LAYERS:
        length = (length + 2 * padding - kernel) // stride + 1
    return length


class AudioEncoder(nn.Module):
    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        in_ch = 1
        for kernel, stride, padding in CONV_LAYERS:
            layers += [nn.Conv1d(in_ch, channels, kernel, stride=stride, padding=padding), nn.GELU()]
            in_ch = channels
        self.convs = nn.Sequential(*layers)
        self.proj = nn.Linear(channels, 16)

    def forward(self, waves: torch.Tensor, lengths: list[int]) -> torch.Tensor:
        feats = self.convs(waves.unsqueeze(1)).transpose(1, 2)  # (batch, frames, channels)
        frames = feats.shape[1]
        out_lengths = torch.tensor([conv_output_length(n) for n in lengths])
        mask = torch.arange(frames).unsqueeze(0) < out_lengths.unsqueeze(1)
        feats = self.proj(feats) * mask.unsqueeze(-1)
        # Mean over the valid frames of each clip.
        return feats.sum(dim=1) / out_lengths.unsqueeze(1)


def _batch(lengths: list[int]) -> tuple[torch.Tensor, list[int]]:
    waves = torch.zeros(len(lengths), max(lengths))
    for i, n in enumerate(lengths):
        waves[i, :n] = torch.randn(n)
    return waves, lengths


def main() -> list[torch.Tensor]:
    global _COMPILED
    torch.manual_seed(0)
    _COMPILED = torch.compile(AudioEncoder(), backend="eager")
    batches = [[16000, 12000], [16001, 15999], [24000, 16000]]
    return [_COMPILED(*_batch(lengths)) for lengths in batches]


def next_calls() -> list[tuple[object, tuple, dict]]:
    assert _COMPILED is not None
    return [
        (_COMPILED, _batch([20000, 8000]), {}),
        (_COMPILED, _batch([16000, 12000, 9000]), {}),
        (_COMPILED, _batch([9, 5]), {}),
    ]


if __name__ == "__main__":
    print([tuple(o.shape) for o in main()])
