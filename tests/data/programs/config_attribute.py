"""A dataclass's int field: dynamic after it first changes, as an int argument is."""

import dataclasses

import torch


@dataclasses.dataclass
class Config:
    heads: int


def split_heads(x, config):
    return x.view(x.shape[0], config.heads, -1).sum(-1)


def workload():
    compiled = torch.compile(split_heads, backend="eager")
    return [compiled(torch.arange(48.0).reshape(3, 16), Config(h)) for h in (2, 4, 8)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
