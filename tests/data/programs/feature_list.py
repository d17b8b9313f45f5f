"""List length: a head sums a list of feature maps whose count changes between calls."""

import torch


def fuse(feats):
    total = torch.zeros_like(feats[0])  # INDEXES
    for feat in feats:
        total = total + feat.relu()
    return total


def workload():
    compiled = torch.compile(fuse, backend="eager")
    feats = [torch.full((2, 3), float(i)) for i in range(4)]
    return [compiled(feats[:n]) for n in (2, 3)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
