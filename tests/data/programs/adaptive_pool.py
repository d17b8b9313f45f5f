"""Inductor lowering: adaptive average pooling over images whose sizes vary."""

import torch


def head(images):
    pooled = torch.nn.functional.adaptive_avg_pool2d(images, (3, 3))  # POOLS
    return pooled.flatten(1)


def workload():
    compiled = torch.compile(head)
    return [compiled(torch.ones(1, 2, n, n + 1)) for n in (9, 10, 11)]


if __name__ == "__main__":
    print([t.tolist() for t in workload()])
